"""Descriptors that a user or a file can make never undercount their size.

Every public way of making a descriptor (a tag, strides, the sparse and
host-scalar constructors, submemory_desc, reshape, permute_axes, a pickle, a
blob) gives one whose ``get_size()`` covers every byte a kernel addresses:
the largest element offset over the padded dims, computed here from the
fields with numpy (oneDNN's ``off_v``: outer index times stride, plus the
mixed-radix position inside the inner blocks). The pickle constructor and
the blob check every field (dnnl/_model/_desc/fields.pxi), so a damaged file
is a dnnl.error, never such a descriptor.

Where oneDNN's size formula itself counts fewer bytes (a broadcast dim of
stride 0, a sub-memory dim padded below its block; ``get_size`` gives
oneDNN's number), the memory's buffer size, ``span_bytes``, covers them.
"""
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl._model.desc import make
from dnnl._model.memory import span_bytes

pytestmark = pytest.mark.model

desc = dnnl.memory.desc
DT = dnnl.memory.data_type
FK = dnnl.memory.format_kind
RT = -(2 ** 63)
SUB_BYTE = {DT.s4, DT.u4, DT.f4_e2m1}

TAGS_BY_NDIMS = {}
for _name, _member in dnnl.memory.format_tag.__members__.items():
    for _n in range(1, 6):
        try:
            desc([2] * _n, "f32", _member)
        except dnnl.error:
            continue
        TAGS_BY_NDIMS.setdefault(_n, []).append(_name)


def dim_contributions(md, d, extent):
    """Element offsets dim ``d`` adds for positions ``0..extent-1`` (an int64
    array): the outer index times the stride plus the position inside the
    dim's inner blocks (each block's digit times the product of the blocks
    after it)."""
    p = np.arange(extent, dtype=np.int64)
    blocks = [(k, b) for k, (b, i) in enumerate(zip(md.inner_blks, md.inner_idxs)) if i == d]
    per_dim = math.prod(b for _, b in blocks)
    off = (p // per_dim) * md.strides[d]
    rest = p % per_dim
    for k, b in reversed(blocks):          # innermost block of this dim first
        off += (rest % b) * math.prod(md.inner_blks[k + 1:])
        rest //= b
    return off


def addressed_bytes(md):
    """(first, last + 1) byte a kernel addresses from the handle, over every
    position of the padded dims (zero padding writes them)."""
    lo = hi = md.offset0
    for d in range(md.ndims):
        c = dim_contributions(md, d, md.padded_dims[d])
        lo, hi = lo + int(c.min()), hi + int(c.max())
    size = md.data_type_size()
    if md.data_type in SUB_BYTE:            # two per byte
        return lo // 2, hi // 2 + 1
    return lo * size, (hi + 1) * size


def check_size_covers(md):
    """The property, for any descriptor a public call made."""
    assert pickle.loads(pickle.dumps(md)) == md
    assert desc(md.get_blob()) == md
    if md.format_kind != FK.blocked or 0 in md.dims or RT in md.dims or RT in md.strides:
        return
    first, end = addressed_bytes(md)
    origin = md.offset0 // 2 if md.data_type in SUB_BYTE else md.offset0 * md.data_type_size()
    assert first >= 0
    assert end <= span_bytes(md)            # what a memory's buffer must hold
    if not undercounted_by_onednn(md):
        assert end - origin <= md.get_size(), (md, end - origin, md.get_size())


def undercounted_by_onednn(md):
    """Whether oneDNN's own size formula (``memory_desc_wrapper::size``: the
    largest outer size times stride) counts fewer bytes than the layout
    reaches, which ``get_size`` reproduces (measured on 3.13.2: ``[2]`` f32
    strides ``[0]`` is 0 bytes): a broadcast dim (stride 0), or a sub-memory
    dim padded below its block. A memory's buffer is then ``span_bytes``."""
    blocks = md.blocks
    return any((p > 1 and s == 0) or p < b
               for p, s, b in zip(md.padded_dims, md.strides, blocks))


# -- the descriptors public calls make ------------------------------------------
DTS = ["f32", "bf16", "s8", "u8", "s32", "f16", "s4", "u4", "f64"]


@st.composite
def from_tag(draw):
    nd = draw(st.integers(1, 5))
    dims = draw(st.lists(st.integers(1, 19), min_size=nd, max_size=nd))
    try:
        return desc(dims, draw(st.sampled_from(DTS)), draw(st.sampled_from(TAGS_BY_NDIMS[nd])))
    except dnnl.error:      # odd strides of a sub-byte type
        return desc(dims, "f32", "abcde"[:nd])


@st.composite
def from_strides(draw):
    """Dense strides in a random order, with gaps, and zero strides."""
    nd = draw(st.integers(1, 4))
    dims = draw(st.lists(st.integers(1, 9), min_size=nd, max_size=nd))
    order = draw(st.permutations(range(nd)))
    strides, s = [0] * nd, draw(st.integers(1, 3))
    for d in reversed(order):
        strides[d] = 0 if draw(st.integers(0, 9)) == 0 else s
        s = s * dims[d] + draw(st.integers(0, 4)) if strides[d] else s
    try:
        return desc(dims, draw(st.sampled_from(["f32", "s8", "bf16"])), strides)
    except dnnl.error:
        return desc(dims, "f32", None)


@st.composite
def transformed(draw):
    md = draw(st.one_of(from_tag(), from_strides()))
    for _ in range(draw(st.integers(0, 3))):
        step = draw(st.sampled_from(["sub", "reshape", "permute", "pickle", "blob"]))
        try:
            if step == "sub":
                offs = [draw(st.integers(0, d - 1)) for d in md.dims]
                dims = [draw(st.integers(1, d - o)) for d, o in zip(md.dims, offs)]
                md = md.submemory_desc(dims, offs)
            elif step == "reshape":
                dims = list(md.dims)
                k = draw(st.integers(0, len(dims)))
                choice = draw(st.sampled_from(["add", "drop", "merge", "split"]))
                if choice == "add" and len(dims) < 12:
                    dims.insert(k, 1)
                elif choice == "drop" and 1 in dims and len(dims) > 1:
                    dims.remove(1)
                elif choice == "merge" and len(dims) > 1:
                    k = min(k, len(dims) - 2)
                    dims[k:k + 2] = [dims[k] * dims[k + 1]]
                elif choice == "split" and k < len(dims) and dims[k] % 2 == 0:
                    dims[k:k + 1] = [2, dims[k] // 2]
                md = md.reshape(dims)
            elif step == "permute":
                md = md.permute_axes(draw(st.permutations(range(md.ndims))))
            elif step == "pickle":
                md = pickle.loads(pickle.dumps(md))
            else:
                md = desc(md.get_blob())
        except dnnl.error as e:
            assert e.status in (dnnl.status.invalid_arguments, dnnl.status.unimplemented)
        check_size_covers(md)
    return md


@given(transformed())
def test_size_covers_every_addressed_byte(md):
    check_size_covers(md)


@pytest.mark.parametrize("md", [
    desc(), desc([2, 3], "f32", "any"), desc([2, RT], "f32", "ab"),
    desc([0, 5], "f32", "ab"), desc([3, 2], "s8", [RT, 1]),
    desc.csr([4, 6], "f32", 5, "s32", "s32"), desc.coo([4, 6], "f16", 3, "s32"),
    desc.packed([4, 6], "f32", 3), desc.host_scalar("f32"),
    desc([2, 17, 3, 4], "f32", "nChw8c").submemory_desc([2, 3, 3, 4], [0, 8, 0, 0]),
], ids=repr)
def test_other_kinds_round_trip(md):
    check_size_covers(md)


def test_worked_example_of_the_property():
    # aBcd8b of [2, 17, 3, 4]: channels padded to 24; the last padded
    # position (1, 23, 2, 3) sits at 1*288 + 2*96 + 2*32 + 3*8 + 7 = 575
    md = desc([2, 17, 3, 4], "f32", "nChw8c")
    assert addressed_bytes(md) == (0, 576 * 4) and md.get_size() == 2304


# -- what the checks refuse ------------------------------------------------------
AB = desc([64, 1024], "f32", "ab")
BLK = desc([2, 17, 3, 4], "f32", "nChw8c")


def fields(md, **changed):
    names = ("ndims", "dims", "data_type", "padded_dims", "padded_offsets", "offset0",
             "format_kind", "strides", "inner_blks", "inner_idxs", "sparse")
    values = dict(zip(names, md.__reduce__()[1]))
    values.update(changed)
    return [values[n] for n in names]


BROKEN = {
    "padded dims below the dims (the issue's example)": fields(AB, padded_dims=(1, 1)),
    "padded dims past the blocks": fields(BLK, padded_dims=(2, 32, 3, 4)),
    "padded dims not rounded to the block": fields(BLK, padded_dims=(2, 20, 3, 4)),
    "a padded offset": fields(BLK, padded_offsets=(0, 1, 0, 0)),
    "negative offset0": fields(AB, offset0=-1),
    "a block on a dim it does not have": fields(BLK, inner_idxs=(4,)),
    "a block of 1": fields(BLK, inner_blks=(1,)),
    "blocks and indices of different lengths": fields(BLK, inner_idxs=()),
    "too few strides": fields(AB, strides=(1,)),
    "overlapping strides": fields(AB, strides=(1, 1)),
    "strides that undercount": fields(AB, strides=(512, 1)),
    "a negative stride": fields(AB, strides=(-1024, 1)),
    "a reach past int64": fields(AB, strides=(2 ** 62, 1)),
    "ndims past the dims": fields(AB, ndims=3),
    "13 dims": fields(AB, ndims=13, dims=(1,) * 13),
    "a negative dim": fields(AB, dims=(-64, 1024)),
    "an unknown data type": fields(AB, data_type=999),
    "an unknown format kind": fields(AB, format_kind=77),
    "format opaque": fields(AB, format_kind=FK.opaque),
    "zero with dims": fields(desc(), dims=(2,)),
    "format any with strides": fields(desc([2, 3], "f32", "any"), strides=(3, 1)),
    "a host scalar of two": fields(desc.host_scalar("f32"), dims=(2,)),
    "a blocked one with a sparse record": fields(
        AB, sparse=desc.csr([4, 6], "f32", 5, "s32", "s32").sparse),
    "a sparse one without its record": fields(desc.csr([4, 6], "f32", 5, "s32", "s32"),
                                              sparse=None),
    "a CSR record of other dims": fields(desc.csr([4, 6], "f32", 5, "s32", "s32"),
                                         padded_dims=(4, 7)),
    "a sub-byte odd stride": fields(desc([3, 4], "s4", "ab"), strides=(5, 1)),
}
JUNK = {
    "dims a string": fields(AB, dims="ab"),
    "a float offset0": fields(AB, offset0=1.5),
    "a bool ndims": fields(AB, ndims=True),
    "a sparse record of a tuple": fields(desc.csr([4, 6], "f32", 5, "s32", "s32"),
                                         sparse=(1, 5, (4, 4))),
    "a format tag as the data type": fields(AB, data_type=dnnl.memory.format_tag.ab),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_pickle_constructor_refuses_broken_invariants(what):
    with pytest.raises(dnnl.error) as info:
        make(*BROKEN[what])
    assert info.value.status == dnnl.status.invalid_arguments
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("what", sorted(JUNK))
def test_pickle_constructor_refuses_junk(what):
    with pytest.raises(dnnl.error) as info:
        make(*JUNK[what])
    assert isinstance(info.value, (ValueError, TypeError))


def test_a_damaged_pickle_is_an_error():
    data = pickle.dumps(AB)
    md = pickle.loads(data)
    assert md == AB
    reduced = AB.__reduce__()
    broken = pickle.dumps(_Reduced(reduced[0], tuple(fields(AB, padded_dims=(1, 1)))))
    with pytest.raises(dnnl.error, match="padded 1"):
        pickle.loads(broken)


class _Reduced:
    """Pickles as a descriptor with the given fields (what a damaged file holds)."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


def test_replaced_is_not_public():
    assert not hasattr(AB, "replaced")


def blob_of(f):
    """The blob get_blob would write for the fields ``f`` (None: they do not
    fit one: not ints, a sparse record, dims other than ndims)."""
    rows = [f[1], f[3], f[4], f[7], f[8], f[9]]
    values = [f[0], f[2], f[6], f[5]] + [v for row in rows for v in row]
    lengths = (len(f[1]), len(f[3]), len(f[4]), len(f[7]) if f[6] == FK.blocked else f[0])
    if f[10] is not None or f[6] == FK.sparse or f[0] > 12 or set(lengths) != {f[0]} or any(
            type(v) is not int and not isinstance(v, (DT, FK)) for v in values):
        return None
    words = [0x444E4E4C50594D44, f[0], int(f[2]), int(f[6]), f[5], len(f[8]), 0]
    for row in rows:
        words += list(row) + [0] * (12 - len(row))
    return np.array(words, np.int64).tobytes()


def test_blob_writer_of_these_tests_is_get_blobs():
    assert blob_of(fields(BLK)) == BLK.get_blob() and blob_of(fields(AB)) == AB.get_blob()


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_blob_of_broken_fields_is_refused(what):
    blob = blob_of(BROKEN[what])
    if blob is None:
        pytest.skip("these fields have no blob (a sparse record, or not ints)")
    with pytest.raises(dnnl.error) as info:
        desc(blob)
    assert info.value.status == dnnl.status.invalid_arguments


def test_blob_round_trip_and_its_errors():
    blob = BLK.get_blob()
    assert isinstance(blob, bytes) and desc(blob) == BLK
    assert desc(bytearray(blob)) == BLK and desc(memoryview(blob)) == BLK
    with pytest.raises(dnnl.error, match="blob is 632 bytes, not 631"):
        desc(blob[:-1])
    with pytest.raises(dnnl.error, match="not a memory descriptor blob"):
        desc(bytes(632))
    stray = bytearray(blob)
    stray[8 * 7 + 8 * 11] = 5       # dims row, slot 11: past the 4 dims
    with pytest.raises(dnnl.error, match="words set past its fields"):
        desc(bytes(stray))
    with pytest.raises(dnnl.error) as info:
        desc(blob, "f32")
    assert isinstance(info.value, TypeError)


@given(st.sampled_from([AB, BLK, desc([4, 6], "f32", "ab").submemory_desc([2, 3], [1, 2]),
                        desc.csr([4, 6], "f32", 5, "s32", "s32"), desc.host_scalar("s8"),
                        desc([2, 3], "bf16", "any")]),
       st.lists(st.tuples(st.integers(0, 631), st.integers(0, 255)), max_size=4))
def test_a_damaged_blob_is_refused_or_exactly_what_it_says(md, flips):
    raw = bytearray(md.get_blob())
    for at, value in flips:
        raw[at] = value
    try:
        back = desc(bytes(raw))
    except dnnl.error as e:
        assert e.status == dnnl.status.invalid_arguments
        return
    assert back.get_blob() == bytes(raw)
    check_size_covers(back)


def test_capi_shares_the_blob():
    import ctypes
    from dnnl import capi
    md = ctypes.c_void_p()
    assert capi.dnnl_memory_desc_create_with_tag(
        ctypes.byref(md), 4, (ctypes.c_int64 * 4)(2, 17, 3, 4), capi.dnnl_f32,
        capi.dnnl_nChw8c) == 0
    size = ctypes.c_size_t()
    assert capi.dnnl_memory_desc_get_blob(None, ctypes.byref(size), md) == 0
    buf = (ctypes.c_uint8 * size.value)()
    assert capi.dnnl_memory_desc_get_blob(buf, ctypes.byref(size), md) == 0
    assert bytes(buf) == BLK.get_blob()
    broken = bytearray(BLK.get_blob())
    broken[8 * 19 + 8] = 1          # padded dim 1: 24 -> 1
    out = ctypes.c_void_p()
    assert capi.dnnl_memory_desc_create_with_blob(
        ctypes.byref(out), (ctypes.c_uint8 * len(broken)).from_buffer(broken)) == \
        capi.dnnl_invalid_arguments
    assert capi.dnnl_memory_desc_destroy(md) == 0
