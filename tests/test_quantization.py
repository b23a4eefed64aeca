"""Quantization: weights at 2 to 8 bits, the packed file, bias correction."""
import json
import struct

import numpy as np
import pytest

from model.network import ARCHITECTURES, layer_names
from model.packed import FLOAT_BITS, dequantize, pack_codes, read_packed, unpack, unpack_codes
from model.quantize import SCHEMES, model_tensors, pack, quantize_tensor
from tests.toy_network import PLANES, meta_for, small_model


@pytest.mark.parametrize("bits", range(2, 9))
@pytest.mark.parametrize("scheme", SCHEMES)
def test_dequantized_weights_stay_within_half_a_step(bits, scheme):
    weights = np.random.default_rng(bits).normal(0, 0.05, (300, 70)).astype(np.float32)
    weights[0, 0] = 0.6  # an outlier, which the clip scheme may cut off
    weights[1, 1] = 0.0
    codes, low, scale = quantize_tensor(weights, bits, scheme)
    assert codes.max() < 2 ** bits and codes.shape == weights.shape
    back = dequantize(codes, low, scale)
    assert back[1, 1] == 0.0   # zero is a level
    # per-tensor ranges are scalars, per-unit ones hold one value per column
    low, scale = (np.broadcast_to(np.asarray(v, np.float32), weights.shape) for v in (low, scale))
    if scheme == "channel":
        assert len(np.unique(scale[0])) > 1
    high = low + scale * (2 ** bits - 1)
    tolerance = scale / 2 + 1e-7
    inside = (weights >= low) & (weights <= high)
    assert np.all((np.abs(back - weights) <= tolerance)[inside])
    if scheme == "minmax":
        # the range moved by at most half a step: the ends are within half a step too
        assert np.all(np.abs(back - weights) <= tolerance)
    else:
        # Clipped weights read back as the nearest end of the range.
        assert np.all((np.abs(back - np.clip(weights, low, high)) <= tolerance)[~inside])


@pytest.mark.parametrize("bits", range(2, 9))
@pytest.mark.parametrize("scheme", SCHEMES)
def test_zero_weights_read_back_as_zero_whatever_the_range(bits, scheme):
    # Thousands of zero weights feeding one unit: any offset on zero would add up.
    weights = np.zeros((3000, 4), np.float32)
    weights[:2] = [[0.9, -0.37, 0.05, -1.3], [-0.2, 0.61, -0.4, 0.3]]
    back = dequantize(*quantize_tensor(weights, bits, scheme))
    assert np.all(back[2:] == 0.0)
    assert np.ones(3000, np.float32) @ back[:, 0] == pytest.approx(back[0, 0] + back[1, 0])


def test_clipping_lowers_the_squared_error_at_low_bits():
    weights = np.random.default_rng(1).standard_t(3, (200, 200)).astype(np.float32)
    errors = {scheme: np.square(dequantize(*quantize_tensor(weights, 3, scheme)) - weights).sum()
              for scheme in SCHEMES}
    assert errors["clip"] < 0.7 * errors["minmax"]


def test_per_unit_ranges_lower_the_error_when_units_differ_in_scale():
    # units whose weights span a hundredfold range of sizes, as trained kernels' do in part
    sizes = np.geomspace(0.01, 1.0, 64, dtype=np.float32)
    weights = np.random.default_rng(2).normal(0, 1, (500, 64)).astype(np.float32) * sizes
    errors = {scheme: np.square(dequantize(*quantize_tensor(weights, 5, scheme)) - weights).sum(axis=0)
              for scheme in ("clip", "channel")}
    assert errors["channel"].sum() < 0.5 * errors["clip"].sum()
    # the small units gain most: one range for all gave them the steps of the largest
    assert np.all(errors["channel"][:16] < 0.1 * errors["clip"][:16])


@pytest.mark.parametrize("bits", [1, 2, 3, 5, 7, 8, 11])
def test_bit_packing_round_trips(bits):
    codes = np.random.default_rng(bits).integers(0, 2 ** bits, 1001).astype(np.uint16)
    data = pack_codes(codes, bits)
    assert len(data) == (1001 * bits + 7) // 8
    assert np.array_equal(unpack_codes(data, bits, 1001), codes)
    with pytest.raises(ValueError):
        pack_codes(np.array([2 ** bits]), bits)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_packed_file_round_trips_and_is_deterministic(tmp_path, scheme):
    tensors = model_tensors(small_model())
    blob = pack(tensors, 5, meta_for(2), scheme)
    assert blob == pack(tensors, 5, meta_for(2), scheme)
    path = tmp_path / "net.tsq"
    path.write_bytes(blob)
    header, back = read_packed(str(path))
    assert header["bits"] == 5 and header["planes"] == PLANES and header["blocks"] == 2
    assert header["scheme"] == scheme
    assert [entry["name"] for entry in header["tensors"]] == [name for name, _ in tensors]
    for name, array in tensors:
        if name.endswith("/bias"):
            assert np.array_equal(back[name], array)
        else:
            assert np.array_equal(back[name], dequantize(*quantize_tensor(array, 5, scheme)))
    _, exact = unpack(pack(tensors, FLOAT_BITS, meta_for(2)))
    assert all(np.array_equal(exact[name], array) for name, array in tensors)


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_bias_correction_keeps_each_units_mean_over_the_sample(architecture):
    from model.numpy_net import linear, trace

    tensors = model_tensors(small_model(architecture=architecture))
    windows = np.random.default_rng(4).integers(0, 2, (500, 11, 11, len(PLANES))).astype(np.uint8)
    meta = meta_for(2, architecture)
    exact = dict(tensors)
    header, plain = unpack(pack(tensors, 3, meta, "channel"))
    corrected_header, corrected = unpack(pack(tensors, 3, meta, "channel", windows))
    assert corrected_header["bias_correction_windows"] == 500 and "bias_correction_windows" not in header
    names = layer_names(2, architecture)

    def unit_means(inputs, kernel, bias):
        out = linear(inputs, kernel, bias)
        return out.reshape(-1, out.shape[-1]).mean(axis=0)

    def mean_shifts(tensors_back):
        layers = {n: (tensors_back[f"{n}/kernel"], tensors_back[f"{n}/bias"]) for n in names}
        exact_layers = {n: (exact[f"{n}/kernel"], exact[f"{n}/bias"]) for n in names}
        quantized_inputs = trace(layers, windows, architecture, 2)[0]
        exact_inputs = trace(exact_layers, windows, architecture, 2)[0]
        return [np.abs(unit_means(q_in, *layers[n]) - unit_means(e_in, *exact_layers[n])).max()
                for n, q_in, e_in in zip(names, quantized_inputs, exact_inputs)]

    assert max(mean_shifts(corrected)) < 1e-4 < max(mean_shifts(plain))
    assert all(np.array_equal(corrected[f"{n}/kernel"], plain[f"{n}/kernel"]) for n in names)


def test_a_format_1_file_reads_as_before():
    # format 1 had per-tensor ranges only, without the "ranges" key
    blob = pack(model_tensors(small_model()), 5, meta_for(2), "clip")
    (length,) = struct.unpack("<I", blob[4:8])
    header = json.loads(blob[8:8 + length])
    header["format"] = 1
    for entry in header["tensors"]:
        entry.pop("ranges", None)
    head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    old = blob[:4] + struct.pack("<I", len(head)) + head + blob[8 + length:]
    _, expected = unpack(blob)
    _, back = unpack(old)
    assert all(np.array_equal(back[name], expected[name]) for name in expected)


def test_a_damaged_packed_file_is_named_in_the_error(tmp_path):
    blob = pack(model_tensors(small_model()), 5, meta_for(2))
    path = tmp_path / "cut.tsq"
    path.write_bytes(blob[:-100])
    with pytest.raises(ValueError, match="cut.tsq: truncated"):
        read_packed(str(path))
    path.write_bytes(b"PK" + blob[2:])
    with pytest.raises(ValueError, match="cut.tsq: not a packed network"):
        read_packed(str(path))
