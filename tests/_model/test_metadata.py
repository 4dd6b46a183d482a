"""Metadata from the blocking: the analytic offsets, sizes and logical copies
agree with the per-index tables they replace (kept here as the oracle).

The oracle is the tabulated form of oneDNN's offset rule (``dim_tables`` /
``all_offsets``, checked against real oneDNN by the conformance tests): the
largest reachable offset is the sum of each table's maximum, the padding is
every padded position outside ``dims``, and a logical write puts value ``k``
at ``all_offsets(md)[k]``.
"""
import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import dnnl
from dnnl._core import dtypes as _dtypes
from dnnl._model import offsets as O
from dnnl._model.memory import span_bytes

pytestmark = pytest.mark.compiled

desc = dnnl.memory.desc
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
F = dnnl.memory.format_tag
DT = dnnl.memory.data_type
ALL_TYPES = ("f32", "s8", "u8", "bf16", "f16", "s32", "f64", "s64", "f8_e5m2",
             "f8_e4m3", "e8m0", "s4", "u4", "f4_e2m1")

TAGS_BY_NDIMS = {}
for _name in F.__members__:
    if _name not in ("undef", "any", "last"):
        from dnnl._model.tags import parse_name
        _nd = parse_name(F[_name].name)[0]
        if _nd <= 6:
            TAGS_BY_NDIMS.setdefault(_nd, []).append(_name)


# -- the tabulated oracle -------------------------------------------------------
def old_max_offset(md):
    table, starts, sizes = O.dim_tables(md, padded=True)
    return md.offset0 + sum(int(table[s:s + n].max()) for s, n in zip(starts, sizes))


def old_padding_offsets(md):
    if tuple(md.padded_dims) == tuple(md.dims):
        return np.empty(0, dtype=np.int64)
    offs = O.all_offsets(md, padded=True).reshape(md.padded_dims)
    inside = np.ones(md.padded_dims, dtype=bool)
    for d in range(md.ndims):
        shape = [1] * md.ndims
        shape[d] = md.padded_dims[d]
        inside &= (np.arange(md.padded_dims[d]) < md.dims[d]).reshape(shape)
    return offs[~inside]


def old_write(raw, md, codes):
    """``from_numpy`` the tabulated way on a copy of ``raw``: padding zeroed,
    then code ``k`` (raw storage integers) at ``all_offsets(md)[k]``."""
    raw = raw.copy()
    offs, pad = O.all_offsets(md), old_padding_offsets(md)
    if md.data_type in _dtypes.SUB_BYTE:
        for where, values in ((pad, np.zeros(pad.size, np.uint8)),
                              (offs, codes.reshape(-1).view(np.uint8) & 0xF)):
            for o, v in zip(where.tolist(), values.tolist()):
                b, shift = o >> 1, (o & 1) * 4
                raw[b] = (raw[b] & (0xF0 >> shift)) | (v << shift)
        return raw
    esize = _dtypes.size(md.data_type)
    view = raw[:raw.size - raw.size % esize].view("u%d" % esize)
    view[pad] = 0
    view[offs] = codes.reshape(-1).view(view.dtype)
    return raw


# -- descriptors of every kind ----------------------------------------------------
@st.composite
def tagged(draw, dts=("f32",), max_dim=9):
    nd = draw(st.integers(1, 6))
    tag = draw(st.sampled_from(TAGS_BY_NDIMS[nd]))
    dims = draw(st.lists(st.integers(1, max_dim), min_size=nd, max_size=nd))
    try:
        return desc(dims, draw(st.sampled_from(dts)), tag)
    except dnnl.error:      # odd strides for a sub-byte type
        assume(False)


@st.composite
def strided(draw, dts=("f32",)):
    nd = draw(st.integers(1, 4))
    dims = draw(st.lists(st.integers(1, 6), min_size=nd, max_size=nd))
    order = draw(st.permutations(range(nd)))
    strides, s = [0] * nd, 1
    for d in reversed(order):           # dense in a random order, with gaps
        strides[d] = s
        s *= dims[d] + draw(st.integers(0, 2))
    strides = [s * draw(st.sampled_from([1, 2])) for s in strides]
    try:
        return desc(dims, draw(st.sampled_from(dts)), strides)
    except dnnl.error:
        assume(False)


@st.composite
def sub(draw, parents):
    parent = draw(parents)
    offsets = [draw(st.integers(0, d - 1)) for d in parent.dims]
    dims = [draw(st.integers(1, d - o)) for d, o in zip(parent.dims, offsets)]
    try:
        return parent, parent.submemory_desc(dims, offsets)
    except dnnl.error:
        assume(False)


def any_desc(dts=("f32",)):
    return st.one_of(tagged(dts), strided(dts),
                     sub(tagged(dts)).map(lambda ps: ps[1]),
                     tagged(dts).flatmap(lambda md: st.permutations(range(md.ndims)).map(
                         md.permute_axes)))


# -- analytic metadata against the tables -------------------------------------------
@given(any_desc(ALL_TYPES))
def test_max_offset_and_span_match_the_tables(md):
    assert O.max_offset(md) == old_max_offset(md)
    table, starts, sizes = O.dim_tables(md, padded=True)
    for d in range(md.ndims):
        lv = O.levels(md, d)
        t = table[starts[d]:starts[d] + sizes[d]]
        for n in {min(2, sizes[d]), sizes[d] // 2 or 1, sizes[d] - 1 or 1, sizes[d]}:
            assert O.dim_max(lv, n) == t[:n].max()
        assert [O.dim_offset(lv, i) for i in range(sizes[d])] == t.tolist()
    # the old span: largest reachable offset or get_size, whichever is more
    sub_byte = md.data_type in _dtypes.SUB_BYTE
    elems = max(old_max_offset(md) + 1, md.offset0
                + md.get_size() * (2 if sub_byte else 1) // md.data_type_size())
    assert span_bytes(md) == ((elems + 1) // 2 if sub_byte
                              else elems * md.data_type_size())


@given(any_desc(), st.data())
def test_dim_pieces_cover_any_range_in_order(md, data):
    d = data.draw(st.integers(0, md.ndims - 1))
    n = md.padded_dims[d]
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    lv = O.levels(md, d)
    got = []
    for start, offset, axes in O.dim_pieces(lv, lo, hi):
        offs = np.full((), offset, np.int64)
        for size, stride in axes:
            offs = offs[..., None] + np.arange(size) * stride
        assert start == lo + len(got)
        got += offs.reshape(-1).tolist()
    assert got == [O.dim_offset(lv, i) for i in range(lo, hi)]


@given(any_desc(("f32", "s4")))
def test_boxes_are_the_tables(md):
    expect = O.all_offsets(md).reshape(md.dims)
    seen = np.zeros(md.dims, bool)
    for offset, starts, shape, axes in O.logical_boxes(md):
        offs = np.full((), offset, np.int64)
        for size, stride in (ax for dim_axes in axes for ax in dim_axes):
            offs = offs[..., None] + np.arange(size) * stride
        region = tuple(slice(s, s + n) for s, n in zip(starts, shape))
        assert (offs.reshape(shape) == expect[region]).all()
        assert not seen[region].any()
        seen[region] = True
    assert seen.all()
    assert sorted(O.padding_offsets(md).tolist()) == sorted(old_padding_offsets(md).tolist())


def test_huge_descriptors_need_no_tables():
    md = desc([2 ** 28, 8], "f32", "ab")
    assert dnnl.memory(md, ENG, dnnl.memory.DNNL_MEMORY_NONE).nbytes == 2 ** 33
    md = desc([1, 2 ** 40, 3], "f32", "nCw16c")
    assert O.max_offset(md) == 2 ** 40 * 3 - 1
    assert span_bytes(md) == md.get_size()
    sub = md.submemory_desc([1, 5, 3], [0, 2 ** 40 - 16, 0])
    assert span_bytes(sub) == 4 * (sub.offset0 + 16 * 3)


# -- logical copies ----------------------------------------------------------------
def _codes(rng, md):
    """Random raw storage codes of shape dims (every bit pattern for full-byte
    types; 4-bit codes for sub-byte ones)."""
    dt = md.data_type
    if dt in _dtypes.SUB_BYTE:
        codes = rng.integers(0, 16, md.dims, dtype=np.uint8)
        if dt == DT.s4:
            return ((codes << 4).view(np.int8) >> 4).astype(np.int8)
        return codes
    raw = _dtypes.numpy_dtype(dt, raw=True)
    return rng.integers(0, 256, int(np.prod(md.dims)) * raw.itemsize,
                        dtype=np.uint8).view(raw).reshape(md.dims)


def _logical(md, codes):
    """The codes as the logical values ``from_numpy`` takes / ``to_numpy`` gives."""
    dt = md.data_type
    if dt in (DT.s4, DT.u4):
        return codes
    return codes.view(_dtypes.numpy_dtype(dt))


def _check_round_trip(parent, md, seed):
    rng = np.random.default_rng(seed)
    nbytes = max(span_bytes(parent), span_bytes(md))
    garbage = rng.integers(0, 256, nbytes + 3, dtype=np.uint8)
    buf = garbage.copy()
    mem = dnnl.memory(md, ENG, buf)
    codes = _codes(rng, md)
    mem.from_numpy(_logical(md, codes))
    assert (buf == old_write(garbage, md, codes)).all()   # same bytes, nothing else
    got = mem.to_numpy()
    assert got.shape == tuple(md.dims)
    assert got.dtype == _dtypes.numpy_dtype(md.data_type)
    if md.data_type in _dtypes.SUB_BYTE:
        assert (got.view(codes.dtype) == codes).all()
    else:   # compared as bits: random codes include NaNs
        bits = "u%d" % codes.dtype.itemsize
        assert (got.view(bits) == codes.view(bits)).all()


@given(tagged(ALL_TYPES), st.integers(0, 2 ** 32))
def test_round_trip_every_tag_and_type(md, seed):
    _check_round_trip(md, md, seed)


@given(sub(tagged(ALL_TYPES)), st.integers(0, 2 ** 32))
def test_round_trip_submemory_leaves_the_rest(parent_sub, seed):
    parent, md = parent_sub
    _check_round_trip(parent, md, seed)


@given(st.one_of(strided(ALL_TYPES), tagged(ALL_TYPES).flatmap(
    lambda md: st.permutations(range(md.ndims)).map(md.permute_axes))), st.integers(0, 2 ** 32))
def test_round_trip_strided_and_permuted(md, seed):
    _check_round_trip(md, md, seed)


def test_from_numpy_takes_any_array_layout():
    md = desc([3, 17, 2, 5], "f32", "nChw16c")
    mem = dnnl.memory(md, ENG)
    x = np.arange(3 * 17 * 2 * 5, dtype=np.float64).reshape(5, 2, 17, 3).transpose(3, 2, 1, 0)
    mem.from_numpy(x[::1])
    assert (mem.to_numpy() == x).all()
    mem.from_numpy(np.broadcast_to(np.float32(2), md.dims))
    assert (mem.to_numpy() == 2).all()


def test_from_numpy_bad_values_write_nothing():
    md = desc([2, 17, 3], "f32", "aBc16b")
    buf = np.full(dnnl.memory(md, ENG).nbytes, 0xAB, np.uint8)
    mem = dnnl.memory(md, ENG, buf)
    try:
        mem.from_numpy(np.full((2, 17, 3), "x"))
    except (ValueError, dnnl.error):
        pass
    assert (buf == 0xAB).all()


def test_primitive_descriptors_defer_their_tables():
    src = desc([1, 1, 2 ** 24], "f32", "ncw")
    pd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear, [4.0], src)
    assert pd.dst_desc().dims == (1, 1, 2 ** 26)
    big = desc([2 ** 26, 2], "f32", "ab")
    rpd = dnnl.reorder.primitive_desc(ENG, big, ENG, desc([2 ** 26, 2], "f32", "ba"))
    if not dnnl.verbose.create_on:      # verbose names the kernel, so builds it
        assert pd._plans.built() == [] and rpd._plans.built() == []


def test_deferred_plans_run_once_built():
    src = dnnl.memory(desc([1, 2, 3], "f32", "ncw"), ENG)
    src.from_numpy(np.arange(6, dtype=np.float32).reshape(1, 2, 3))
    pd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_nearest, [2.0],
        src.get_desc())
    dst = dnnl.memory(pd.dst_desc(), ENG)
    prim = dnnl.resampling_forward(pd)
    for _ in range(2):
        prim.execute(dnnl.stream(ENG), {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
        assert (dst.to_numpy() == np.repeat(src.to_numpy(), 2, axis=2)).all()
    plan = pd._plan()
    assert pd._plan() is plan


@given(st.lists(st.integers(1, 70), min_size=1, max_size=4), st.data())
def test_copy_box_is_a_strided_copy(sizes, data):
    """``copy_box`` against numpy: any axis order on either side, every element size."""
    esize = data.draw(st.sampled_from([1, 2, 4, 8]))
    dtype = np.dtype("u%d" % esize)
    n = int(np.prod(sizes))
    src = np.arange(n, dtype=np.uint64).astype(dtype)
    perm = data.draw(st.permutations(range(len(sizes))))
    phys = src.reshape([sizes[p] for p in perm])             # src is a transposed layout
    view = phys.transpose(np.argsort(perm))
    out = np.zeros(sizes, dtype)
    steps = [(size, view.strides[d] // esize, out.strides[d] // esize)
             for d, size in enumerate(sizes)]
    O.copy_box(src.ctypes.data, out.ctypes.data, esize, steps)
    assert (out == view).all()


@given(st.sampled_from([("nhwc", "f32"), ("nChw16c", "f32"), ("nChw16c", "bf16"),
                        ("nhwc", "u8"), ("nchw", "s8"), ("NChw16n16c", "f32"),
                        ("nChw8c", "u4"), ("chwn", "f64")]),
       st.integers(0, 2 ** 32))
def test_round_trip_large_tensors(tag_dt, seed):
    """Large enough for threads, several runs per row and many tiles."""
    tag, dt = tag_dt
    md = desc([2, 37, 41, 45], dt, tag)
    _check_round_trip(md, md, seed)
