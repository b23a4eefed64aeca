"""Low-bit weights: uniform quantization with per-tensor or per-unit ranges, and ``tsumego quantize``.

Each kernel (dense or convolution) is stored at ``b`` bits a weight.  The
code of a weight is ``round((w - low) / scale)`` clipped to ``0 .. 2**b - 1``;
it reads back as ``low + code * scale``.  Three ways to pick the range ``[low, high]``:

* ``minmax``: the tensor's range, so every weight is within ``scale / 2`` of
  its value (``scale = (high - low) / (2**b - 1)``);
* ``clip``: the range shrunk towards the tensor's median by the factor that
  minimises the squared error, trading a few clipped outliers for finer steps
  everywhere else (what helps most at 2-4 bits); weights inside the range are
  within ``scale / 2``, outliers read back as its ends;
* ``channel`` (the default): ``clip`` done for each output unit (each column of
  a dense kernel, each output plane of a convolution) on its own, so a unit
  whose weights are all small is not given the steps of the largest unit; it
  costs two float32 values a unit.

Either way ``low`` is then moved by less than a step so that zero is one of
the levels (``low = -z * scale`` for an integer code ``z``): most weights sit
near zero and thousands of inputs feed each unit, so a zero that read back
as even a hundredth would shift every unit by a sum of such offsets, which
saturated the trained network at some bit widths before this rule.

Biases (``width`` values a layer, under 1% of the file) stay float32: they
shift every unit and cost nothing to keep exact.  ``tsumego quantize`` also
moves them so that each unit keeps, over a sample of training windows, the
mean the float network gives it (:mod:`model.bias_correction`).

The packed file's format is :mod:`model.packed`.  The same model and options
always give the same bytes.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

import numpy as np

from model.bias_correction import SAMPLE_WINDOWS, corrected_biases
from model.packed import FLOAT_BITS, FORMAT_VERSION, dequantize, encode, packed_path, unpack
from pipeline.errors import CommandError
from pipeline.markdown import markdown_table
from pipeline.paths import check_output_file

SCHEMES = ("minmax", "clip", "channel")
# channel is the default: on a long-trained dense network the units' weights
# spread, and one range for a whole tensor (clip, minmax) wastes most levels on
# the units that need few, so per-unit ranges kept 5 bits near float where the
# others did not.  The conv networks split channel and clip (each better on
# one of the two measured), so channel stays the default for both
# architectures and the bits table compares the schemes for a network
# (measured: RESULTS.md, "Quantization schemes and bias correction" and
# "The conv network: cross-validation, problem split, 5 bits").
DEFAULT_SCHEME = "channel"
DEFAULT_BITS = 5
BITS_TABLE = "bits.json"
BITS_RANGE = range(2, 9)
# Range shrink factors tried by the ``clip`` scheme, from no clipping down.
CLIP_FACTORS = np.linspace(1.0, 0.2, 41)


def quantize_tensor(weights: np.ndarray, bits: int, scheme: str = DEFAULT_SCHEME):
    """``(codes, low, scale)``: codes uint16 of ``weights``' shape; low/scale float32
    scalars, or for ``channel`` arrays with one value per output unit (the last axis)."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}; expected one of {SCHEMES}")
    if not 1 <= bits <= 16:
        raise ValueError(f"bits must be 1..16, got {bits}")
    w = np.asarray(weights, dtype=np.float64)
    per_unit = scheme == "channel"
    # one column per range: the whole tensor, or each output unit's weights
    columns = w.reshape(-1, w.shape[-1]) if per_unit else w.reshape(-1, 1)
    levels = (1 << bits) - 1
    low, high = columns.min(axis=0), columns.max(axis=0)
    if scheme != "minmax":
        low, high = _best_clip(columns, levels, low, high)
    low32, scale32 = _levels(low, high, levels)
    codes = np.clip(np.rint((columns - low32.astype(np.float64)) / scale32.astype(np.float64)), 0, levels)
    codes = codes.reshape(w.shape).astype(np.uint16)
    if not per_unit:
        return codes, low32[0], scale32[0]
    return codes, low32, scale32


def _levels(low: np.ndarray, high: np.ndarray, levels: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 ``(low, scale)`` arrays of ``levels`` steps over each [low, high], moved by at
    most half a step so that zero is a level, where the range holds zero.

    With ``low = -(z * scale)`` computed in float32, ``dequantize`` gives
    ``low + z * scale == 0`` exactly for the code z; every weight of the range
    stays within half a step of a level.
    """
    scale = np.where(high > low, ((high - low) / levels).astype(np.float32), np.float32(1.0))
    zero_code = np.rint(-low / scale.astype(np.float64)).astype(np.float32)
    moved = -(zero_code * scale)
    return np.where((low < 0) & (0 < high), moved, low.astype(np.float32)), scale


def _best_clip(columns: np.ndarray, levels: int, low: np.ndarray, high: np.ndarray):
    """Each column's range shrunk about its median to the factor with the least squared error."""
    centre = np.median(columns, axis=0)
    best_error = np.full(columns.shape[1], np.inf)
    best_low, best_high = low.copy(), high.copy()
    for factor in CLIP_FACTORS:
        lo, hi = centre + factor * (low - centre), centre + factor * (high - centre)
        start, scale = (v.astype(np.float64) for v in _levels(lo, hi, levels))
        back = start + np.clip(np.rint((columns - start) / scale), 0, levels) * scale
        error = np.square(back - columns).sum(axis=0)
        better = (hi > lo) & (error < best_error)
        best_error[better], best_low[better], best_high[better] = error[better], lo[better], hi[better]
    return best_low, best_high


def pack(tensors: list[tuple[str, np.ndarray]], bits: int, meta: dict,
         scheme: str = DEFAULT_SCHEME, bias_windows: np.ndarray | None = None) -> bytes:
    """The packed file's bytes; ``bits=32`` keeps every tensor float32.

    With ``bias_windows`` (training windows ``[N, 11, 11, F]``) the biases of a
    quantized file are corrected (:mod:`model.bias_correction`).
    """
    quantized = {name: array if bits == FLOAT_BITS or name.endswith("/bias")
                 else quantize_tensor(np.asarray(array, np.float32), bits, scheme)
                 for name, array in tensors}
    header = {**meta, "format": FORMAT_VERSION, "bits": bits,
              "scheme": "float" if bits == FLOAT_BITS else scheme}
    if bias_windows is not None and bits != FLOAT_BITS:
        exact = {name: np.asarray(array, np.float32) for name, array in tensors}
        back = {name: value if name.endswith("/bias") else dequantize(*value)
                for name, value in quantized.items()}
        quantized.update(corrected_biases(exact, back, meta, bias_windows))
        header["bias_correction_windows"] = len(bias_windows)
    return encode(tensors, quantized, header, bits, scheme)


def model_tensors(model) -> list[tuple[str, np.ndarray]]:
    """The Keras model's kernels and biases, in evaluation order (the end-state head's last)."""
    from model.network import layer_names

    architecture, blocks = model_shape(model)
    tensors = []
    for name in layer_names(blocks, architecture, has_end_state_head(model)):
        kernel, bias = model.get_layer(name).get_weights()
        tensors += [(f"{name}/kernel", kernel), (f"{name}/bias", bias)]
    return tensors


def model_shape(model) -> tuple[str, int]:
    """``(architecture, blocks)`` of a Keras model of ``model.network``, read from its layer names."""
    names = {layer.name for layer in model.layers}
    blocks = sum(1 for name in names if re.fullmatch(r"block\d+_a", name))
    return ("conv" if "value_conv" in names else "dense"), blocks


def has_end_state_head(model) -> bool:
    """Whether a Keras model of ``model.network`` has the end-state head."""
    return "end_state" in model.output_names


def packed_meta(model_spec: dict, end_state: bool = False) -> dict:
    """Header fields from the training run's ``model.json`` (runs from before the
    conv architecture have no ``architecture`` option: they are dense); ``end_state``:
    whether the network has the end-state head (the header says so only when it does,
    as files packed before the head have no such key)."""
    options = model_spec["options"]
    architecture = options.get("architecture", "dense")
    shape = {"channels": options["channels"]} if architecture == "conv" else {"width": options["width"]}
    return {"planes": model_spec["planes"], "window": model_spec["window"],
            "architecture": architecture, "blocks": options["blocks"], **shape,
            **({"end_state": True} if end_state else {})}


@dataclass(frozen=True)
class QuantizeOptions:
    """``tsumego quantize``'s options (:mod:`cli.quantize`)."""

    model: str                          # the model folder of tsumego train
    bits: int = DEFAULT_BITS            # 1..16
    scheme: str = DEFAULT_SCHEME
    out: str | None = None              # the packed file (None: MODEL/model-<b>bit.tsq)
    data: str | None = None             # records for the table (None: the training data)
    no_table: bool = False
    table_schemes: tuple[str, ...] = SCHEMES
    no_bias_correction: bool = False


def training_windows(data_dir: str, planes: list[str], count: int) -> np.ndarray:
    """The first ``count`` windows of the training split, in file order (the same every run)."""
    from model.dataset import whole_records

    windows, total = [], 0
    for record in whole_records(data_dir, "train", planes):
        windows.append(record["planes"])
        total += len(record["planes"])
        if total >= count:
            break
    if not windows:
        raise ValueError("the training split is empty")
    return np.concatenate(windows)[:count]


def quantize_model(settings: QuantizeOptions) -> int:
    """Pack the network of ``settings.model`` (float and b bits) and, unless ``no_table``, write
    its table of test error by bits; 0."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import keras

    from model.shards import UnreadableShard, check_shards
    from model.fit import MODEL_FILE
    from model.checkpoints import read_model_spec
    from pipeline.formats.records import read_spec

    table_schemes = list(settings.table_schemes)
    if settings.out:
        check_output_file(settings.out, "--out", overwrite=True)   # a rerun packs the same file again
    try:
        spec = read_model_spec(settings.model)
        model = keras.saving.load_model(os.path.join(settings.model, MODEL_FILE), compile=False)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{settings.model}: cannot load the trained model ({exc})") from exc
    tensors = model_tensors(model)
    meta = packed_meta(spec, has_end_state_head(model))
    data = settings.data or spec["data"]
    splits = tuple(split for split, used in (("train", not settings.no_bias_correction), ("test", not settings.no_table))
                   if used)
    if splits:
        try:
            check_shards(data, splits, read_spec(data))
        except UnreadableShard as exc:
            raise CommandError(str(exc)) from exc
        except (OSError, ValueError) as exc:
            raise CommandError(f"{data}: cannot read the records ({exc})") from exc
    bias_windows = None
    if not settings.no_bias_correction:
        try:
            bias_windows = training_windows(data, spec["planes"], SAMPLE_WINDOWS)
        except (OSError, ValueError) as exc:
            raise CommandError(f"{data}: cannot read training windows for the bias correction ({exc}); "
                               "--no-bias-correction packs without them") from exc
    for bits, path in ((FLOAT_BITS, packed_path(settings.model, FLOAT_BITS)),
                       (settings.bits, settings.out or packed_path(settings.model, settings.bits))):
        blob = pack(tensors, bits, meta, settings.scheme, bias_windows)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as f:
            f.write(blob)
        print(f"wrote {path}: {len(blob)} bytes "
              f"({'float32' if bits == FLOAT_BITS else f'{bits} bits, {settings.scheme} ranges'})")
    if settings.no_table:
        return 0
    try:
        table = bits_table(tensors, meta, data, bias_windows, table_schemes)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{data}: cannot evaluate the test split ({exc})") from exc
    if table[0]["count"] == 0:
        raise CommandError(f"{data}: the test split is empty, so there is no error table")
    with open(os.path.join(settings.model, BITS_TABLE), "w") as f:
        json.dump({"data": data, "split": "test", "rows": table}, f, indent=2)
        f.write("\n")
    print(f"test error by bits ({table[0]['count']} records of {data}):")
    print(*markdown_table(["bits", "scheme", "error", "bytes"],
                          [[row["bits"], row["scheme"], f"{row['error']:.4f}", row["bytes"]] for row in table],
                          align="rlrr"), sep="\n")
    return 0


def bits_table(tensors, meta: dict, data_dir: str, bias_windows=None, schemes=SCHEMES) -> list[dict]:
    """Test error of the network at every b in ``BITS_RANGE`` for each of ``schemes``, and float
    (packed as ``tsumego quantize`` packs them, with ``bias_windows`` if given)."""
    from model.numpy_net import NumpyNet
    from model.predictions import predict_split

    variants = [(bits, scheme) for bits in BITS_RANGE for scheme in schemes] + [(FLOAT_BITS, "float")]
    blobs = {(bits, scheme): pack(tensors, bits, meta, scheme, bias_windows) for bits, scheme in variants}
    nets = {f"{bits}/{scheme}": NumpyNet(*unpack(blob)) for (bits, scheme), blob in blobs.items()}
    predictions = predict_split(data_dir, "test", nets)
    return [{"bits": bits, "scheme": scheme, "bytes": len(blobs[bits, scheme]),
             "count": int(predictions.safe.size),
             "error": float(predictions.errors(f"{bits}/{scheme}").mean()) if predictions.safe.size else None}
            for bits, scheme in variants]
