"""ZLIB TFRecord files written without TensorFlow, byte for byte as TensorFlow writes them.

A TFRecord file is a sequence of records, each framed as its length (uint64,
little-endian), the masked CRC-32C of those 8 bytes, the data and the masked
CRC-32C of the data.  A ZLIB file is that sequence as one zlib stream, which
TensorFlow's ``TFRecordWriter(path, TFRecordOptions(compression_type="ZLIB"))``
compresses with zlib's default level, a 32 KiB window and memory level 9 (its
``ZlibCompressionOptions``), never flushing before the end: fed the same bytes,
Python's zlib gives the same stream whatever the pieces they come in.

The features stage writes its shards with :class:`ZlibRecordWriter`: loading
TensorFlow took each worker that writes shards seconds of the stage's time.
``tests/test_records.py`` holds the files to TensorFlow's bytes.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np
from numba import njit

# TensorFlow's ZlibCompressionOptions: zlib's default level (6), 2^15-byte window, memory level 9.
ZLIB_LEVEL = zlib.Z_DEFAULT_COMPRESSION
ZLIB_WINDOW_BITS = zlib.MAX_WBITS
ZLIB_MEMORY_LEVEL = 9
_MASK_DELTA = 0xA282EAD8


def _crc32c_tables() -> np.ndarray:
    """Slicing-by-8 tables of CRC-32C (the Castagnoli polynomial, reflected: 0x82F63B78)."""
    tables = np.zeros((8, 256), dtype=np.uint32)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        tables[0, byte] = crc
    for k in range(1, 8):
        for byte in range(256):
            previous = int(tables[k - 1, byte])
            tables[k, byte] = (previous >> 8) ^ int(tables[0, previous & 0xFF])
    return tables


_TABLES = _crc32c_tables()


@njit(cache=True)
def _crc32c(data, tables):
    """CRC-32C of a uint8 array, eight bytes a step."""
    crc = np.uint32(0xFFFFFFFF)
    n = data.shape[0]
    i = 0
    while i + 8 <= n:
        low = crc ^ (np.uint32(data[i]) | (np.uint32(data[i + 1]) << 8)
                     | (np.uint32(data[i + 2]) << 16) | (np.uint32(data[i + 3]) << 24))
        crc = (tables[7, low & 0xFF] ^ tables[6, (low >> 8) & 0xFF] ^ tables[5, (low >> 16) & 0xFF]
               ^ tables[4, low >> 24] ^ tables[3, data[i + 4]] ^ tables[2, data[i + 5]]
               ^ tables[1, data[i + 6]] ^ tables[0, data[i + 7]])
        i += 8
    while i < n:
        crc = tables[0, (crc ^ data[i]) & 0xFF] ^ (crc >> 8)
        i += 1
    return crc ^ np.uint32(0xFFFFFFFF)


def crc32c(data: bytes) -> int:
    return int(_crc32c(np.frombuffer(data, dtype=np.uint8), _TABLES))


def masked_crc32c(data: bytes) -> int:
    """The CRC TFRecord frames hold: CRC-32C rotated right by 15 bits, plus a constant."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def framed(record: bytes) -> bytes:
    """One record as a TFRecord file holds it (before compression)."""
    length = struct.pack("<Q", len(record))
    return b"".join((length, struct.pack("<I", masked_crc32c(length)), record,
                     struct.pack("<I", masked_crc32c(record))))


class ZlibRecordWriter:
    """Writes records to an open binary file as a ZLIB TFRecord file; ``close`` ends the
    stream (the file itself is the caller's to close)."""

    def __init__(self, file):
        self.file = file
        self.deflate = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, ZLIB_WINDOW_BITS, ZLIB_MEMORY_LEVEL)

    def write(self, record: bytes) -> None:
        self.file.write(self.deflate.compress(framed(record)))

    def close(self) -> None:
        self.file.write(self.deflate.flush())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.close()
