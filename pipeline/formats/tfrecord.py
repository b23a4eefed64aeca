"""ZLIB TFRecord files written without TensorFlow, read by TensorFlow record for record.

A TFRecord file is a sequence of records, each framed as its length (uint64,
little-endian), the masked CRC-32C of those 8 bytes, the data and the masked
CRC-32C of the data.  A ZLIB file is that sequence as one zlib stream
(``TFRecordDataset(..., compression_type="ZLIB")`` reads it).

The features stage writes its shards from *pieces* (:func:`deflated_piece`,
:class:`ZlibPieceWriter`): each record framed and deflated by itself where it
is made, ending on a byte boundary (a sync flush), so that the worker writing
a shard only joins the pieces behind one zlib header and ends the stream (an
empty final block and the Adler-32 of everything, combined from the
pieces').  The record then crosses the shuffle compressed once instead of
being packed for it and deflated again after it; a stream of such blocks is
a zlib stream like any other, and each piece only misses the matches it
would have found in the records before it (a shard about an eighth larger
than one stream at the same level).  Loading TensorFlow took each worker
that writes shards seconds of the stage's time.  ``tests/test_records.py``
holds the shards to the records TensorFlow reads back, and an empty shard to
the bytes of TensorFlow's writer at the same settings.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np
from numba import njit

# Level 3, not zlib's default 6 (TensorFlow's writer's): on the stage's records,
# deflated alone, it takes 59 against 184 us a record of 25 kB for 1,130 against
# 930 bytes; inflating, which training does, costs the same.  Otherwise the
# settings of TensorFlow's ZlibCompressionOptions: a 2^15-byte window, memory level 9.
ZLIB_LEVEL = 3
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


_PIECE_HEAD = struct.Struct("<II")   # the framed record's Adler-32 and length, before its deflated blocks
_ADLER_BASE = 65521


def deflated_piece(record: bytes) -> bytes:
    """One record framed and deflated alone (raw deflate, sync-flushed), after the Adler-32
    and length of its framed bytes, which :class:`ZlibPieceWriter` needs for the stream's end."""
    data = framed(record)
    deflate = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, -ZLIB_WINDOW_BITS, ZLIB_MEMORY_LEVEL)
    return _PIECE_HEAD.pack(zlib.adler32(data), len(data)) + deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's adler32_combine)."""
    remainder = second_length % _ADLER_BASE
    low = ((first & 0xFFFF) + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (remainder * (first & 0xFFFF) + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return (high << 16) | low


def _stream_ends() -> tuple[bytes, bytes]:
    """The zlib header at :data:`ZLIB_LEVEL` (the first two bytes of any stream) and a raw
    deflate stream's empty final block."""
    header = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, ZLIB_WINDOW_BITS, ZLIB_MEMORY_LEVEL).flush()[:2]
    final = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, -ZLIB_WINDOW_BITS, ZLIB_MEMORY_LEVEL).flush()
    return header, final


_ZLIB_HEADER, _FINAL_BLOCK = _stream_ends()


class ZlibPieceWriter:
    """Joins :func:`deflated_piece` pieces into a ZLIB TFRecord file on an open binary file;
    ``close`` ends the stream (the file itself is the caller's to close)."""

    def __init__(self, file):
        self.file = file
        self.adler = 1   # of no bytes
        self.records = 0
        self.size = len(_ZLIB_HEADER)   # bytes written, the end's included once closed
        file.write(_ZLIB_HEADER)

    def write(self, piece) -> None:
        adler, length = _PIECE_HEAD.unpack_from(piece)
        self.adler = adler32_combine(self.adler, adler, length)
        self.file.write(memoryview(piece)[_PIECE_HEAD.size:])
        self.records += 1
        self.size += len(piece) - _PIECE_HEAD.size

    def close(self) -> None:
        end = _FINAL_BLOCK + struct.pack(">I", self.adler)
        self.file.write(end)
        self.size += len(end)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.close()
