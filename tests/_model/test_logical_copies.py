"""``memory.to_numpy`` / ``from_numpy`` against numpy references: 1-, 2- and
4-byte types in permuted plain layouts (register transposes), 4-bit types
(two per byte, low nibble first) in plain, permuted, blocked and sub-memory
layouts, with odd sizes."""
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dnnl
from dnnl._model import offsets as O

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
CODES = {"u8": np.uint8, "s8": np.uint8, "bf16": np.uint16, "f16": np.uint16,
         "f32": np.uint32, "s32": np.uint32}


def _perm_strides(dims, perm):
    """Dense strides with ``perm[0]`` outermost (any permutation, tag or not)."""
    strides, s = [0] * len(dims), 1
    for d in reversed(perm):
        strides[d] = s
        s *= dims[d]
    return strides


@settings(suppress_health_check=list(HealthCheck))
@given(st.data())
def test_small_types_in_permuted_layouts(data):
    nd = data.draw(st.integers(2, 4))
    dims = [data.draw(st.sampled_from([1, 2, 3, 15, 16, 17, 31, 33, 64, 65, 70]))
            for _ in range(nd)]
    perm = data.draw(st.permutations(range(nd)))
    dt = data.draw(st.sampled_from(sorted(CODES)))
    mem = dnnl.memory(dnnl.memory.desc(dims, dt, _perm_strides(dims, perm)), ENG)
    code = CODES[dt]
    raw = mem.map_data().view(np.uint8)
    raw[:] = np.random.default_rng(len(raw)).integers(0, 256, raw.size, dtype=np.uint8)
    phys = raw.view(code).reshape([dims[d] for d in perm])
    want = np.transpose(phys, np.argsort(perm))
    got = mem.to_numpy()
    assert got.shape == tuple(dims)
    np.testing.assert_array_equal(got.view(code), want)
    back = dnnl.memory(mem.get_desc(), ENG)
    back.from_numpy(got)
    np.testing.assert_array_equal(back.map_data().view(np.uint8), raw)


@pytest.mark.parametrize("esize, code", [(1, np.uint8), (2, np.uint16), (4, np.uint32)])
@pytest.mark.parametrize("na, nb", [(1, 1), (15, 17), (16, 16), (64, 64), (65, 130),
                                    (200, 3), (3, 200), (128, 96)])
def test_copy_box_transposes(esize, code, na, nb):
    """Both copy directions of one transposed box, each side contiguous on one axis,
    with rows a power of two apart (the cache-set case) and odd sizes."""
    rng = np.random.default_rng(na * nb)
    for pitch in (na, 4096 // esize + na):
        src = rng.integers(0, 2 ** (8 * esize), nb * pitch, dtype=code)
        dst = np.zeros(na * nb, dtype=code)
        O.copy_box(src.ctypes.data, dst.ctypes.data, esize, [(na, 1, nb), (nb, pitch, 1)])
        want = src.reshape(nb, pitch)[:, :na].T
        np.testing.assert_array_equal(dst.reshape(na, nb), want)


def _nibble(raw, off):
    return (raw[off // 2] >> (4 * (off % 2))) & 15


def _ref_to_numpy(mem, signed):
    md = mem.get_desc()
    raw = mem.map_data().view(np.uint8)
    codes = _nibble(raw, O.all_offsets(md)).astype(np.int16).reshape(md.dims)
    if signed:
        codes = (codes ^ 8) - 8
    return codes


# odd sizes where the layout keeps every stride even (oneDNN refuses odd ones)
SUB_BYTE_CASES = [([3, 5, 7, 2], "nchw"), ([3, 6, 7, 9], "nhwc"), ([2, 17, 3, 3], "nChw16c"),
                  ([1, 1, 1, 1], "nchw"), ([6, 4, 1, 3], "chwn"), ([34, 7], "ba"),
                  ([31, 2], "ab"), ([3, 5, 7, 10], "nchw")]


@pytest.mark.parametrize("dt", ["s4", "u4"])
@pytest.mark.parametrize("dims, tag", SUB_BYTE_CASES)
def test_four_bit_types(dt, dims, tag):
    md = dnnl.memory.desc(dims, dt, tag)
    mem = dnnl.memory(md, ENG)
    raw = mem.map_data().view(np.uint8)
    raw[:] = np.random.default_rng(raw.size).integers(0, 256, raw.size, dtype=np.uint8)
    got = mem.to_numpy()
    assert got.dtype == (np.int8 if dt == "s4" else np.uint8)
    np.testing.assert_array_equal(got.astype(np.int16), _ref_to_numpy(mem, dt == "s4"))
    # from_numpy: elements written, padding zeroed
    values = np.random.default_rng(7).integers(-8 if dt == "s4" else 0, 8 if dt == "s4" else 16,
                                               dims).astype(got.dtype)
    mem.from_numpy(values)
    np.testing.assert_array_equal(mem.to_numpy(), values)
    pad = O.padding_offsets(md)
    assert (_nibble(raw, pad) == 0).all()


@pytest.mark.parametrize("dt", ["s4", "u4"])
@pytest.mark.parametrize("parent_dims, tag, sub_dims, offs", [
    ([4, 6], "ab", [3, 6], [1, 0]),          # row-major from an even offset0
    ([5, 6], "ab", [2, 5], [1, 1]),          # odd offset0, gaps between rows
    ([4, 8], "ba", [3, 3], [1, 2]),          # permuted, gaps
])
def test_four_bit_sub_memory_keeps_other_nibbles(dt, parent_dims, tag, sub_dims, offs):
    parent = dnnl.memory.desc(parent_dims, dt, tag)
    md = parent.submemory_desc(sub_dims, offs)
    mem = dnnl.memory(parent, ENG)
    raw = mem.map_data().view(np.uint8)
    raw[:] = np.random.default_rng(3).integers(0, 256, raw.size, dtype=np.uint8)
    before = raw.copy()
    sub = dnnl.memory(md, ENG, mem.get_data_handle())
    np.testing.assert_array_equal(sub.to_numpy().astype(np.int16),
                                  _ref_to_numpy(sub, dt == "s4"))
    values = np.full(sub_dims, 5, np.int8 if dt == "s4" else np.uint8)
    sub.from_numpy(values)
    offsets = O.all_offsets(md)
    assert (_nibble(raw, offsets) == 5).all()
    every = np.arange(2 * raw.size)
    others = np.setdiff1d(every, offsets)
    np.testing.assert_array_equal(_nibble(raw, others), _nibble(before, others))


@pytest.mark.parametrize("dt", ["s4", "u4"])
@pytest.mark.parametrize("dims, tag", [([3, 6, 7, 9], "nhwc"), ([2, 17, 3, 3], "nChw16c"),
                                       ([4, 34, 5, 6], "chwn")])
def test_four_bit_to_numpy_in_small_chunks(monkeypatch, dt, dims, tag):
    """The chunked unpacking (forced to chunks of a few nibbles) gives the same values."""
    M = sys.modules["dnnl._model.logical"]
    monkeypatch.setattr(M, "_NIBBLE_CHUNK", 40)
    mem = dnnl.memory(dnnl.memory.desc(dims, dt, tag), ENG)
    raw = mem.map_data().view(np.uint8)
    raw[:] = np.random.default_rng(raw.size).integers(0, 256, raw.size, dtype=np.uint8)
    np.testing.assert_array_equal(mem.to_numpy().astype(np.int16),
                                  _ref_to_numpy(mem, dt == "s4"))
