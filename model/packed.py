"""The packed network file: what ``tsumego quantize`` writes and every evaluator reads.

Kernels are stored at ``b`` bits a weight (the codes of :mod:`model.quantize`)
or as float32; biases always as float32.

Layout (little-endian)::

    offset 0      4 bytes   magic  b"TSQN"
    offset 4      uint32    H, the length of the header
    offset 8      H bytes   header, UTF-8 JSON (keys sorted):
                              format       3 (1 had per-tensor ranges only, 2 dense
                                           networks only)
                              bits         b (32 for the float file)
                              scheme       "minmax" | "clip" | "channel" | "float"
                              window       11
                              planes       plane names, in input order
                              architecture "dense" | "conv" (format 3)
                              blocks       residual blocks
                              width        dense: units a hidden layer
                              channels     conv: planes a hidden layer
                              bias_correction_windows  the sample size, when
                                           the biases were corrected
                              end_state    true when the network has the
                                           end-state head (its layer's
                                           tensors last); absent: no head
                              tensors      list, in evaluation order, of
                                {name: "align/kernel",
                                 shape: [121F, width] | [3, 3, F, channels],
                                 encoding: "uint<b>" | "float32",
                                 ranges: "tensor" | "unit" (uint only),
                                 low, scale: float32 values ("tensor"),
                                 offset: byte offset in the payload,
                                 bytes: byte length}
    offset 8 + H  payload   tensors back to back, each starting on a byte;
                            a uint<b> tensor is its codes in C order as one
                            bit stream, b bits a code, least significant bit
                            first, zero-padded to a whole byte; with "unit"
                            ranges the stream follows the units' low values
                            then their scales, float32 each, one per output
                            unit (the last axis)

The same tensors and header always give the same bytes.
"""
from __future__ import annotations

import json
import os
import struct

import numpy as np

MAGIC = b"TSQN"
# 2 added per-unit ranges, 3 the conv architecture; a file of format 1 (per-tensor
# ranges only) or 2 (dense, no architecture key) reads the same way.
FORMAT_VERSION = 3
READABLE_FORMATS = (1, 2, 3)
FLOAT_BITS = 32


def dequantize(codes: np.ndarray, low, scale) -> np.ndarray:
    """float32 weights of the codes (exactly what the evaluator computes); a per-unit
    ``low``/``scale`` applies along the last axis."""
    return np.asarray(low, np.float32) + codes.astype(np.float32) * np.asarray(scale, np.float32)


def pack_codes(codes: np.ndarray, bits: int) -> bytes:
    """One bit stream, ``bits`` bits a code, least significant bit first."""
    flat = codes.reshape(-1).astype(np.uint32)
    if flat.size and int(flat.max()) >> bits:
        raise ValueError(f"a code does not fit in {bits} bits")
    stream = (flat[:, None] >> np.arange(bits, dtype=np.uint32)) & 1
    return np.packbits(stream.astype(np.uint8).reshape(-1), bitorder="little").tobytes()


def unpack_codes(data: bytes, bits: int, count: int) -> np.ndarray:
    """Inverse of ``pack_codes``: ``count`` codes as uint16."""
    stream = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little",
                           count=count * bits)
    weights = (1 << np.arange(bits, dtype=np.uint32))
    return (stream.reshape(count, bits).astype(np.uint32) @ weights).astype(np.uint16)


def encode(tensors: list[tuple[str, np.ndarray]], values: dict, header: dict, bits: int,
           scheme: str) -> bytes:
    """The file's bytes: ``header`` plus each tensor of ``tensors`` (names in evaluation
    order) as ``values[name]``, a float array or quantized ``(codes, low, scale)``."""
    entries, chunks, offset = [], [], 0
    for name, _ in tensors:
        value = values[name]
        entry = {"name": name}
        if bits == FLOAT_BITS or name.endswith("/bias"):
            array = np.asarray(value, dtype=np.float32)
            data = array.astype("<f4").tobytes()
            entry.update(shape=list(array.shape), encoding="float32")
        else:
            codes, low, scale = value
            entry["shape"] = list(codes.shape)
            data = pack_codes(codes, bits)
            entry["encoding"] = f"uint{bits}"
            if scheme == "channel":
                # a unit's low and scale, 8 bytes, are stored in binary before the codes
                data = low.astype("<f4").tobytes() + scale.astype("<f4").tobytes() + data
                entry["ranges"] = "unit"
            else:
                entry.update(ranges="tensor", low=float(low), scale=float(scale))
        entry.update(offset=offset, bytes=len(data))
        entries.append(entry)
        chunks.append(data)
        offset += len(data)
    header["tensors"] = entries
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + b"".join(chunks)


def unpack(blob: bytes, source: str = "<packed>") -> tuple[dict, dict[str, np.ndarray]]:
    """``(header, {name: float32 array})`` with every tensor dequantized."""
    if blob[:4] != MAGIC or len(blob) < 8:
        raise ValueError(f"{source}: not a packed network (bad magic)")
    (length,) = struct.unpack("<I", blob[4:8])
    try:
        header = json.loads(blob[8:8 + length])
    except ValueError as exc:
        raise ValueError(f"{source}: unreadable header ({exc})") from None
    if header.get("format") not in READABLE_FORMATS:
        raise ValueError(f"{source}: format {header.get('format')}, this code reads "
                         f"{', '.join(map(str, READABLE_FORMATS))}")
    payload = blob[8 + length:]
    tensors = {}
    for entry in header["tensors"]:
        data = payload[entry["offset"]:entry["offset"] + entry["bytes"]]
        if len(data) != entry["bytes"]:
            raise ValueError(f"{source}: truncated at tensor {entry['name']}")
        shape = tuple(entry["shape"])
        if entry["encoding"] == "float32":
            tensors[entry["name"]] = np.frombuffer(data, dtype="<f4").astype(np.float32).reshape(shape)
        else:
            low, scale = entry.get("low"), entry.get("scale")
            if entry.get("ranges") == "unit":
                units = shape[-1]
                low, scale = np.frombuffer(data[:8 * units], dtype="<f4").reshape(2, units)
                data = data[8 * units:]
            codes = unpack_codes(data, int(entry["encoding"][4:]), int(np.prod(shape))).reshape(shape)
            tensors[entry["name"]] = dequantize(codes, low, scale)
    return header, tensors


def read_packed(path: str) -> tuple[dict, dict[str, np.ndarray]]:
    with open(path, "rb") as f:
        return unpack(f.read(), path)


def packed_path(model_dir: str, bits: int) -> str:
    """Where ``tsumego quantize`` writes the b-bit file (``float`` for 32)."""
    return os.path.join(model_dir, "model-float.tsq" if bits == FLOAT_BITS else f"model-{bits}bit.tsq")
