"""Memory descriptors: examples verified on libdnnl 3.13.2, properties, errors."""
import ctypes

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
import dnnl.capi
from dnnl._model.offsets import all_offsets, padding_offsets

pytestmark = pytest.mark.model

F = dnnl.memory.format_tag
IA = dnnl.status.invalid_arguments
UNIMPL = dnnl.status.unimplemented
RT = -(2 ** 63)
desc = dnnl.memory.desc


def status_of(fn):
    with pytest.raises(dnnl.error) as info:
        fn()
    return info.value.status


# -- worked examples (libdnnl 3.13.2 output) -------------------------------
@pytest.mark.parametrize("dims, tag, padded, strides, blks, idxs, size", [
    ([2, 17, 3, 4], "nChw8c", [2, 24, 3, 4], [288, 96, 32, 8], [8], [1], 2304),
    ([2, 17, 3, 4], "nChw16c", [2, 32, 3, 4], [384, 192, 64, 16], [16], [1], 3072),
    ([3, 32, 32, 2, 2], "gOIhw16i16o", [3, 32, 32, 2, 2], [4096, 2048, 1024, 512, 256],
     [16, 16], [2, 1], 49152),
    ([2, 20, 20, 3], "aBCd4c16b4c", [2, 32, 32, 3], [3072, 1536, 768, 256],
     [4, 16, 4], [2, 1, 2], 24576),
    ([3, 2, 2, 2], "Abcd8a", [8, 2, 2, 2], [64, 32, 16, 8], [8], [0], 256),
    ([10, 3, 4, 5, 6], "decbA8a", [16, 3, 4, 5, 6], [8, 16, 48, 1152, 192], [8], [0], 23040),
])
def test_worked_examples(dims, tag, padded, strides, blks, idxs, size):
    md = desc(dims, "f32", tag)
    assert md.get_padded_dims() == padded
    assert md.get_strides() == strides
    assert (md.get_inner_blks(), md.get_inner_idxs()) == (blks, idxs)
    assert md.get_inner_nblks() == len(blks)
    assert md.get_size() == size
    assert md.get_format_kind() == dnnl.format_kind.blocked


def test_alias_values_and_names():
    assert F.nChw16c == F.aBcd16b == 78
    assert F.OIhw16i16o == 79 and F.OIhw16o16i == 75 and F.hwioG8g == 539
    assert F.OI16i16o2i == 345 and F.nhwc == 22 and F.nchw == 5
    assert F.nChw16c.name == "aBcd16b"      # canonical abstract name, as dnnl_fmt_tag2str
    assert len(F.__members__) == 1674


def test_tag_given_three_ways():
    a = desc([2, 17, 3, 4], "f32", F.nChw16c)
    assert a == desc([2, 17, 3, 4], dnnl.data_type.f32, 78) == desc([2, 17, 3, 4], "float32", "aBcd16b")


def test_zero_and_any():
    z = desc()
    assert z.is_zero() and z.get_size() == 0 and z.get_ndims() == 0
    assert desc([2, 3], "f32", F.undef).is_zero()
    assert desc([2, 3], "f32", "ab") != z and z == desc()
    a = desc([2, 3], "f32", F.any)
    assert a.get_format_kind() == dnnl.format_kind.any and a.get_size() == 0
    assert a.get_strides() == [] and a.get_inner_nblks() == 0    # as the C++ API
    assert a == desc([2, 3], "f32", F.any)


# -- strides --------------------------------------------------------------------
@pytest.mark.parametrize("dims, dt, strides, size", [
    ([2, 3], "f32", [4, 1], 32),        # gaps are allowed
    ([2, 3], "f32", [0, 0], 0),         # full broadcast has size 0
    ([1, 1], "f32", [0, 0], 4),
    ([2, 3], "f32", [1, 0], 8),
    ([3, 1], "s4", [1, -7], 2),         # any stride on a unit dim
    ([5, 2], "s4", [2, 1], 5),
    ([1, 3], "s4", [3, 1], 2),
    ([1, 1], "s4", [1, 1], 1),
])
def test_strides_accepted(dims, dt, strides, size):
    assert desc(dims, dt, strides).get_size() == size


@pytest.mark.parametrize("dims, dt, strides", [
    ([2, 3], "f32", [2, 1]),            # overlap
    ([2, 3], "f32", [-3, 1]),           # negative stride on a real dim
    ([3, 5], "s4", [5, 1]),             # odd stride for a sub-byte type
    ([2, 3], "f32", [3]),               # wrong count
])
def test_strides_rejected(dims, dt, strides):
    assert status_of(lambda: desc(dims, dt, strides)) == IA


# oneDNN 3.13.2's size guard for descriptors made from strides (statuses
# measured with real oneDNN): the dim with the largest stride (the
# first when no stride reaches 1; unit dims passed over) times that stride
# must fit size_t in bytes, even where the stride is 0
@pytest.mark.parametrize("dims, dt, strides, ok", [
    ([2 ** 62], "f32", [0], False),
    ([2 ** 62, 1], "f32", [0, 5], False),
    ([2 ** 61], "f64", [0], False),
    ([2 ** 61], "f32", [0], True),
    ([2 ** 61, 2], "f32", [0, 0], True),
    ([1, 2 ** 62], "s64", [5, 0], True),
    ([2 ** 63 - 1], "bf16", [0], True),
    ([2 ** 31], "f32", [2 ** 31], True),       # dim == stride counts as 1
    ([2 ** 31], "f32", [2 ** 32], False),
    ([2 ** 20], "f32", [2 ** 41], True),
    ([2 ** 20], "f32", [2 ** 42], False),
    ([0, 5], "u8", [2 ** 62 + 1, 1], True),    # empty: no guard
])
def test_strides_size_guard(dims, dt, strides, ok):
    if ok:
        desc(dims, dt, strides)
    else:
        assert status_of(lambda: desc(dims, dt, strides)) == IA


def test_dense_strides_and_runtime():
    assert desc([2, 3, 4], "f32", []).get_strides() == [12, 4, 1]
    assert desc([2, RT, 3], "f32", None).get_strides() == [RT, RT, 1]
    assert desc([2, RT, 3], "f32", "abc").get_strides() == [RT, 3, 1]
    assert desc([2, RT, 3], "f32", "abc").get_size() == 2 ** 63
    assert status_of(lambda: desc([2, RT], "f32", F.any)) == IA


def test_sub_byte_tag_strides():
    assert status_of(lambda: desc([3, 5], "s4", "ab")) == IA
    assert desc([5, 2], "s4", "ab").get_size() == 5
    assert desc([3, 1], "u4", "ab").get_size() == 2
    assert desc([3, 0], "s4", "ab").get_size() == 0     # a zero dim skips the check


@pytest.mark.parametrize("make", [
    lambda: desc([2, 3], "f32", "abc"),                  # tag for 3 dims
    lambda: desc([-1, 3], "f32", "ab"),                  # negative dim
    lambda: desc([2, 3], "f32", "not_a_tag"),
    lambda: desc([2, 3], "f32", 9999),
    lambda: desc([2, 3], "f32", F.last),
    lambda: desc([1] * 13, "f32", []),                   # ndims > 12
    lambda: desc([2, 3], "boolean", "ab"),               # not a memory type
    lambda: desc([2, 3], "f4_e3m0", "ab"),
    lambda: desc([2 ** 40, 2 ** 40], "f32", "ab"),       # volume overflows int64
])
def test_bad_descriptors(make):
    assert status_of(make) == IA


# -- sub-memory ----------------------------------------------------------------------
def test_submemory_examples():
    p = desc([2, 32, 4, 4], "f32", "aBcd16b")
    s = p.submemory_desc([2, 16, 4, 4], [0, 16, 0, 0])
    assert s.get_submemory_offset() == 256 and s.get_padded_dims() == [2, 16, 4, 4]
    assert s.get_size() == 4096
    assert status_of(lambda: p.submemory_desc([2, 8, 4, 4], [0, 8, 0, 0])) == UNIMPL
    assert p.submemory_desc([2, 8, 4, 4], [0, 0, 0, 0]).get_padded_dims() == [2, 8, 4, 4]
    assert status_of(lambda: p.submemory_desc([2, 24, 4, 4], [0, 0, 0, 0])) == UNIMPL
    q = desc([2, 20, 3, 3], "f32", "aBcd16b")
    r = q.submemory_desc([2, 4, 3, 3], [0, 16, 0, 0])
    assert r.get_padded_dims() == [2, 16, 3, 3] and r.get_submemory_offset() == 144
    a = desc([2, 3, 4, 5], "f32", "abcd")
    b = a.submemory_desc([1, 2, 2, 2], [1, 1, 1, 1])
    assert b.get_submemory_offset() == 86 and b.get_size() == 160
    assert b.submemory_desc([1, 1, 1, 1], [0, 1, 1, 1]).get_submemory_offset() == 112
    assert status_of(lambda: a.submemory_desc([1, 3, 1, 1], [0, 1, 0, 0])) == IA
    assert a.submemory_desc([2, 3, 4, 5], [0, 0, 0, 0]) == a
    assert status_of(lambda: desc([2, 3], "f32", F.any).submemory_desc([1, 1], [0, 0])) == UNIMPL


# -- reshape and permute_axes ---------------------------------------------------------
def test_reshape_examples():
    a = desc([2, 3, 4, 5], "f32", "abcd")
    assert a.reshape([6, 20]).get_strides() == [20, 1]
    assert a.reshape([120]).get_strides() == [1]
    assert a.reshape([2, 3, 1, 4, 5]).get_strides() == [60, 20, 20, 5, 1]
    assert a.reshape([1, 2, 3, 4, 5]).get_strides() == [120, 60, 20, 5, 1]
    assert a.reshape([2, 3, 4, 5, 1]).get_strides() == [60, 20, 5, 1, 1]
    assert status_of(lambda: a.reshape([2, 3, 4, 6])) == IA
    n = desc([2, 3, 4, 5], "f32", "acdb")
    assert status_of(lambda: n.reshape([2, 60])) == IA
    assert n.reshape([2, 3, 20]).get_strides() == [60, 1, 3]
    b = desc([2, 32, 4, 4], "f32", "aBcd16b")
    r = b.reshape([2, 32, 16])
    assert r.get_strides() == [512, 256, 16] and r.get_inner_idxs() == [1]
    assert status_of(lambda: b.reshape([2, 2, 16, 4, 4])) == IA
    assert status_of(lambda: b.reshape([64, 4, 4])) == IA
    assert a.reshape([6, 20]).reshape([2, 3, 4, 5]) == a


def test_permute_examples():
    a = desc([2, 3, 4, 5], "f32", "abcd")
    p = a.permute_axes([1, 0, 2, 3])
    assert p.get_dims() == [3, 2, 4, 5] and p.get_strides() == [20, 60, 5, 1]
    q = a.permute_axes([0, 3, 1, 2])
    assert q.get_dims() == [2, 4, 5, 3] and q.get_strides() == [60, 5, 1, 20]
    b = desc([2, 32, 4, 4], "f32", "aBcd16b").permute_axes([1, 0, 2, 3])
    assert b.get_dims() == [32, 2, 4, 4] and b.get_strides() == [256, 512, 64, 16]
    assert b.get_inner_idxs() == [0]
    assert status_of(lambda: a.permute_axes([0, 0, 2, 3])) == IA


# -- equality ----------------------------------------------------------------------------
def test_equality_rules():
    assert desc([2, 1, 3], "f32", "abc") == desc([2, 1, 3], "f32", "acb")
    assert desc([1, 16, 1, 1], "f32", "aBcd16b") != desc([1, 16, 1, 1], "f32", "abcd")
    assert desc([2, 3], "f32", "ab") != desc([2, 3], "s8", "ab")
    assert hash(desc([2, 1, 3], "f32", "abc")) == hash(desc([2, 1, 3], "f32", "acb"))
    assert len({desc([2, 3], "f32", "ab"), desc([2, 3], "f32", [3, 1])}) == 1


def test_repr():
    assert repr(desc([2, 17, 3, 4], "f32", "nChw16c")) == \
        "<dnnl.memory.desc f32 2x17x3x4 aBcd16b padded 2x32x3x4>"
    assert repr(desc()) == "<dnnl.memory.desc zero>"


# -- properties ----------------------------------------------------------------------------
TAGS_BY_NDIMS = {}
for _name in F.__members__:
    if _name not in ("undef", "any", "last"):
        from dnnl._model.tags import parse_name
        _nd = parse_name(F[_name].name)[0]
        if _nd <= 5:
            TAGS_BY_NDIMS.setdefault(_nd, []).append(_name)


@st.composite
def tagged_desc(draw, dts=("f32", "s8", "bf16")):
    nd = draw(st.integers(1, 5))
    tag = draw(st.sampled_from(TAGS_BY_NDIMS[nd]))
    dims = draw(st.lists(st.integers(1, 7), min_size=nd, max_size=nd))
    return desc(dims, draw(st.sampled_from(dts)), tag)


@given(tagged_desc())
def test_offsets_are_a_bijection_onto_non_padding(md):
    offs = all_offsets(md)
    pad = padding_offsets(md)
    assert len(np.unique(offs)) == offs.size == md.nelems
    # logical and padding positions are disjoint and tile the whole span
    span = md.get_size() // md.data_type_size()
    everything = np.concatenate([offs, pad])
    assert len(np.unique(everything)) == everything.size == span
    assert everything.min() == 0 and everything.max() == span - 1


@given(tagged_desc(dts=("f32", "s8", "bf16", "u8", "f16", "s32")), st.randoms())
def test_logical_round_trip(md, rnd):
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    mem = dnnl.memory(md, eng)
    x = np.array([rnd.randint(-100, 100) for _ in range(md.nelems)]).reshape(md.dims)
    if md.data_type == dnnl.data_type.u8:
        x = np.abs(x)
    mem.from_numpy(x)
    assert (mem.to_numpy().astype(np.float64) == x).all()
    if md.padded_dims != md.dims:    # padding is zero-filled
        raw = mem.map_data(np.dtype("u%d" % md.data_type_size()))
        assert (raw[padding_offsets(md)] == 0).all()


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.data())
def test_submemory_offsets_consistent_with_parent(dims, data):
    nd = len(dims)
    tag = data.draw(st.sampled_from(TAGS_BY_NDIMS[nd]))
    parent = desc(dims, "f32", tag)
    offsets = [data.draw(st.integers(0, d - 1)) for d in dims]
    sub_dims = [data.draw(st.integers(1, d - o)) for d, o in zip(dims, offsets)]
    try:
        sub = parent.submemory_desc(sub_dims, offsets)
    except dnnl.error as e:
        assert e.status == UNIMPL and parent.inner_blks   # only blocks refuse
        return
    whole = all_offsets(parent).reshape(dims)
    region = tuple(slice(o, o + n) for o, n in zip(offsets, sub_dims))
    assert (all_offsets(sub).reshape(sub_dims) == whole[region]).all()


@given(tagged_desc(), st.data())
def test_permute_axes_relabels_offsets(md, data):
    perm = data.draw(st.permutations(range(md.ndims)))
    p = md.permute_axes(perm)
    offs = all_offsets(md).reshape(md.dims)
    inverse = np.argsort(perm)
    assert (all_offsets(p).reshape(p.dims) == offs.transpose(inverse)).all()
    assert p.permute_axes(list(inverse)) == md


@given(st.lists(st.integers(1, 5), min_size=1, max_size=5), st.data())
def test_plain_reshape_round_trip(dims, data):
    md = desc(dims, "f32", "abcde"[:len(dims)])
    flat = md.reshape([int(np.prod(dims))])
    assert flat.get_strides() == [1]
    assert flat.reshape(dims) == md


# -- memory objects -----------------------------------------------------------------------------
def test_memory_handles_and_errors():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = desc([2, 3], "f32", "ab")
    buf = np.zeros(6, dtype=np.float32)
    mem = dnnl.memory(md, eng, buf)
    assert mem.get_data_handle() == buf.ctypes.data
    mem.from_numpy(np.arange(6).reshape(2, 3))
    assert buf.tolist() == [0, 1, 2, 3, 4, 5]
    # a raw address and a ctypes pointer see the same bytes
    raw = dnnl.memory(md, eng, buf.ctypes.data)
    assert raw.to_numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    cptr = dnnl.memory(md, eng, ctypes.c_void_p(buf.ctypes.data))
    assert cptr.get_data_handle() == buf.ctypes.data
    assert dnnl.memory(md, eng, dnnl.DNNL_MEMORY_NONE).get_data_handle() == 0
    assert dnnl.memory(md, eng).get_data_handle() % 64 == 0
    assert status_of(lambda: dnnl.memory(md, eng, np.zeros(5, np.float32))) == IA
    assert status_of(lambda: dnnl.memory(desc([2, 3], "f32", F.any), eng)) == IA
    assert status_of(lambda: dnnl.memory(desc([2, RT], "f32", "ab"), eng)) == IA
    assert status_of(lambda: mem.from_numpy(np.zeros((3, 2)))) == IA
    assert status_of(lambda: dnnl.engine(dnnl.engine.kind.gpu, 0)) == IA
    assert status_of(lambda: dnnl.engine(dnnl.engine.kind.cpu, 1)) == IA
    assert status_of(lambda: dnnl.memory(md, eng, object())) == IA


def test_set_data_handle_and_zero_pad():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = desc([1, 3, 1, 1], "f32", "aBcd8b")
    mem = dnnl.memory(md, eng)
    other = np.full(8, 7.0, dtype=np.float32)
    mem.set_data_handle(other)           # oneDNN 3.x: no write
    assert other.tolist() == [7.0] * 8
    mem.set_data_handle(other, dnnl.stream(eng))   # v2.x form zero-pads
    assert other.tolist() == [7.0] * 3 + [0.0] * 5


def test_sub_byte_memory():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = desc([2, 4], "s4", "ab")
    mem = dnnl.memory(md, eng)
    x = np.array([[-8, -1, 0, 7], [1, 2, -3, 4]])
    mem.from_numpy(x)
    assert mem.map_data().tolist()[:2] == [0xF8, 0x70]   # low nibble first
    assert (mem.to_numpy() == x).all()


def test_allow_empty_gives_the_zero_descriptor_and_is_a_bool():
    # dnnl::memory::desc(dims, dt, tag, allow_empty): a refusal is the zero md
    assert desc([2, 3], "f32", "nchw", True).is_zero()
    assert desc([2, 3], "f32", "ab", True) == desc([2, 3], "f32", "ab")
    md = desc([2, 3], "f32", "ab")
    assert md.submemory_desc([3, 3], [0, 0], allow_empty=True).is_zero()
    assert md.reshape([7], allow_empty=True).is_zero()
    assert md.permute_axes([0, 0], allow_empty=True).is_zero()
    for junk in (np.array([1, 0]), "yes", 2.5, []):
        for call in (lambda: desc([2, 3], "f32", "ab", junk),
                     lambda: md.reshape([6], junk)):
            with pytest.raises(dnnl.error) as info:
                call()
            assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16", "s32", "s8", "u8", "f8_e5m2",
                                "f8_e4m3", "s4", "u4", "f64"])
def test_numpy_names_answer_as_the_logical_array(dt):
    """shape / ndim / dtype of a descriptor and a memory are those of
    np.asarray(mem) / mem.to_numpy(), for plain and blocked layouts."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    for dims, tag in (([2, 4], "ab"), ([2, 4], "ba"), ([2, 17, 3, 4], "nChw16c")):
        if dt in ("s4", "u4") and tag == "nChw16c":
            continue
        md = dnnl.memory.desc(dims, dt, tag)
        mem = dnnl.memory(md, eng)
        logical = mem.to_numpy()
        assert md.shape == mem.shape == logical.shape == tuple(dims)
        assert md.ndim == mem.ndim == logical.ndim == len(dims)
        assert md.dtype == mem.dtype == logical.dtype
    zero = dnnl.memory.desc()
    assert (zero.shape, zero.ndim, zero.dtype) == ((), 0, None)


def test_enums_print_their_names_and_stay_ints():
    md = dnnl.memory.desc([2, 3], "f32", "ab")
    dt = md.get_data_type()
    assert str(dt) == "data_type.f32" and "%s" % dt == "data_type.f32"
    assert f"{dt}" == "data_type.f32" and f"{dt:d}" == "3" and f"{dt:#x}" == "0x3"
    assert "%d" % dt == "3" and dt == 3 and int(dt) == dnnl.capi.dnnl_f32
    assert str(dnnl.algorithm.resampling_linear) == "algorithm.resampling_linear"
    assert str(dnnl.get_effective_cpu_isa()).startswith("cpu_isa.")
