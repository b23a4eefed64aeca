"""Records and shards written without TensorFlow are what TensorFlow writes and reads.

The features stage serialises its examples (``example_bytes``) and writes its
ZLIB shards (``deflated_piece``, ``ZlibPieceWriter``) itself; the records must
stay byte-identical to what ``tf.train.Example`` gives, and TensorFlow must
read the shards back record for record, which is what these tests check, on
real subproblems and on random values at the edges of the encoding (negative
and 64-bit integers, empty lists, no windows, no planes, text beyond ASCII).
"""
import io
import struct
import zlib

import numpy as np
import pytest
import tensorflow as tf

from pipeline.formats.records import WINDOW, example_bytes
from pipeline.formats.subproblem import Subproblem
from pipeline.formats.tfrecord import (ZLIB_LEVEL, ZlibPieceWriter, adler32_combine, crc32c,
                                       deflated_piece, framed, masked_crc32c)
from pipeline.planes.windows import labelled_windows
from tests.own_positions import own_positions


def tensorflow_example(planes, safe, moves, available_moves, defender_first, problem, subproblem,
                       end_states=None) -> bytes:
    """The record as TensorFlow serialises it (what example_bytes was before it did without)."""
    def ints(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))

    def raw(value: bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))

    feature = {"planes": raw(planes.tobytes()), "windows": ints([planes.shape[0]]),
               "planes_count": ints([planes.shape[3]]), "safe": ints([int(safe)]), "move": ints(moves),
               "available_moves": ints([int(available_moves)]), "defender_first": ints([int(defender_first)]),
               "problem": raw(problem.encode()), "subproblem": raw(subproblem.encode())}
    if end_states is not None:
        feature["end_state"] = raw(end_states.tobytes())
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString(deterministic=True)


def real_records() -> list[tuple]:
    """example_bytes arguments of real subproblems: own problems' roots and first moves, labelled
    by the solver, half of them with the end state of a made-up line."""
    records = []
    for _, path, problem, solver, move in own_positions(every=6):
        stones = solver.board.to_array()
        end_state = stones.copy() if len(records) % 2 else None
        sub = Subproblem(size=problem.size, stones=stones, target=problem.target, to_play=problem.to_play,
                         safe=True, available_moves=solver.area_size,
                         best_move=move, source=f"own/{path.stem}", end_state=end_state)
        windows, moves, end_states = labelled_windows(sub)
        records.append((windows, int(sub.safe), moves, sub.available_moves, int(sub.defender_first),
                        sub.source, sub.name(), end_states))
    return records


def random_records(count: int, seed: int = 0) -> list[tuple]:
    rng = np.random.default_rng(seed)
    records = []
    for i in range(count):
        windows, planes = int(rng.integers(0, 5)), int(rng.integers(0, 30))
        moves = [int(m) for m in rng.integers(-3, 2 ** 40, windows)] if i % 2 else [-1] * windows
        end_states = rng.integers(0, 4, (windows, WINDOW, WINDOW)).astype(np.uint8) if i % 3 else None
        records.append((rng.integers(0, 3, (windows, WINDOW, WINDOW, planes)).astype(np.uint8),
                        int(rng.integers(-5, 300)), moves, int(rng.integers(-2 ** 63, 2 ** 63 - 1)),
                        int(rng.integers(0, 2)), "é/problème-" * int(rng.integers(0, 20)),
                        "" if i % 5 == 0 else f"{i:016x}.sgf", end_states))
    return records


@pytest.fixture(scope="module")
def records():
    return real_records() + random_records(200)


def test_records_are_the_bytes_tensorflow_serialises(records):
    assert len(records) > 250
    for args in records:
        assert example_bytes(*args) == tensorflow_example(*args)


def test_the_crc_is_crc32c_and_tfrecord_masks_it():
    assert crc32c(b"") == 0 and crc32c(b"123456789") == 0xE3069283   # the check value of CRC-32C
    from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c as reference

    rng = np.random.default_rng(1)
    for length in [*range(40), 1000, 4097]:
        data = rng.integers(0, 256, length, dtype=np.uint8).tobytes()
        assert masked_crc32c(data) == reference(data), length


def test_shards_joined_from_pieces_read_back_record_for_record(records, tmp_path):
    """The stage's shards: each record deflated alone, the pieces joined behind one header."""
    serialised = [example_bytes(*args) for args in records] + [b"", bytes(range(256)) * 300]
    ours = io.BytesIO()
    with ZlibPieceWriter(ours) as writer:
        for record in serialised:
            writer.write(deflated_piece(record))
    assert writer.records == len(serialised) and writer.size == len(ours.getvalue())
    (tmp_path / "ours.tfrecord.gz").write_bytes(ours.getvalue())
    back = [r.numpy() for r in tf.data.TFRecordDataset(str(tmp_path / "ours.tfrecord.gz"), compression_type="ZLIB")]
    assert back == serialised
    # one zlib stream whose check (the Adler-32 combined from the pieces') holds
    assert zlib.decompress(ours.getvalue()) == b"".join(map(framed, serialised))
    empty = io.BytesIO()
    with ZlibPieceWriter(empty):
        pass
    theirs = tmp_path / "empty.tfrecord.gz"
    with tf.io.TFRecordWriter(str(theirs), tf.io.TFRecordOptions(compression_type="ZLIB", compression_level=ZLIB_LEVEL)):
        pass
    assert empty.getvalue() == theirs.read_bytes()


def test_adler32_combines_as_zlib_computes_it_whole():
    rng = np.random.default_rng(2)
    for first, second in [(0, 0), (1, 0), (0, 5), (100, 70_000), (65_521, 65_521), (3, 200_000)]:
        a = rng.integers(0, 256, first, dtype=np.uint8).tobytes()
        b = rng.integers(0, 256, second, dtype=np.uint8).tobytes()
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_a_frame_is_length_crc_data_crc():
    frame = framed(b"abc")
    assert frame[:8] == struct.pack("<Q", 3) and frame[12:15] == b"abc" and len(frame) == 8 + 4 + 3 + 4
