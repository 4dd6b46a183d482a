"""Reorder primitive vs the numpy reference (dnnl/testing/reorder.py), the
examples measured on libdnnl 3.13.2 and oneDNN's error statuses."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dnnl
from dnnl.testing import reorder as T

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
S = dnnl.stream(ENG)
FROM, TO = dnnl.DNNL_ARG_FROM, dnnl.DNNL_ARG_TO
SC, ZP = dnnl.DNNL_ARG_ATTR_SCALES, dnnl.DNNL_ARG_ATTR_ZERO_POINTS


def _check(p):
    st_u, out = T.run_ours(**p)
    if st_u == 0:
        exp = T.expected_bytes(**p)
        assert T.mismatches(out, exp, T.make_md(p["dst_spec"])) == 0
    return st_u


@settings(suppress_health_check=list(HealthCheck))
@given(st.data(), st.integers(0, 2 ** 32 - 1))
def test_random_problems_match_reference(data, seed):
    """Random dims/layouts (incl. sub-memory, strides with gaps, blocked with
    tails)/dt pairs/scales/zero points/sum; padding zero, gaps untouched
    (expected_bytes keeps the garbage of the initial dst outside elements)."""
    p = T.random_problem(T.HypothesisChooser(data), np.random.default_rng(seed))
    _check(p)


@settings(suppress_health_check=list(HealthCheck))
@given(st.data(), st.integers(0, 2 ** 32 - 1))
def test_runtime_dims_match_reference(data, seed):
    p = T.random_problem(T.HypothesisChooser(data), np.random.default_rng(seed),
                         allow_sub=False)
    st_rt, out_rt = T.run_ours(runtime=True, **p)
    st_u, out = T.run_ours(**p)
    if st_u == 0 and st_rt == 0:
        assert out_rt == out


def _run(x, sdt, ddt, stag="a", dtag="a", attr=None, args=(), dst_init=None):
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), sdt, stag), ENG)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(list(x.shape), ddt, dtag), ENG)
    if dst_init is not None:
        dst.from_numpy(dst_init)
    r = dnnl.reorder(src, dst, attr) if attr is not None else dnnl.reorder(src, dst)
    a = {FROM: src, TO: dst}
    a.update(dict(args))
    r.execute(S, a)
    return dst.to_numpy()


def _vals(v, dt="f32"):
    v = np.asarray(v)
    m = dnnl.memory(dnnl.memory.desc([v.size], dt, "a"), ENG)
    m.from_numpy(v)
    return m


@pytest.mark.parametrize("beta,expected", [(1.0, 30), (0.5, 20)])
def test_sum_with_dst_zp(beta, expected):
    attr = dnnl.primitive_attr()
    attr.set_zero_points_mask(TO, 0)
    po = dnnl.post_ops(); po.append_sum(beta); attr.set_post_ops(po)
    out = _run(np.zeros(1, np.float32), "f32", "u8", attr=attr,
               args={ZP | TO: _vals([10], "s32")}, dst_init=np.array([20], np.uint8))
    assert out[0] == expected


@pytest.mark.parametrize("x,expected", [(127.0, 127), (-128.0, -123)])
def test_saturate_after_dst_zp(x, expected):
    attr = dnnl.primitive_attr(); attr.set_zero_points_mask(TO, 0)
    out = _run(np.array([x], np.float32), "f32", "s8", attr=attr,
               args={ZP | TO: _vals([5], "s32")})
    assert out[0] == expected


def test_dst_scale_true_division():
    """spec 4: simple:any divides (-101.5/7 = -14.5 -> -14, not -15)."""
    x = np.array([-101.5, -87.5, -45.5, 10.5], np.float32)
    attr = dnnl.primitive_attr(); attr.set_scales_mask(TO, 0)
    out = _run(x, "f32", "s8", attr=attr, args={SC | TO: _vals([7.0])})
    assert list(out) == [-14, -12, -6, 2]
    outf = _run(x, "f32", "f32", attr=attr, args={SC | TO: _vals([7.0])})
    assert list(outf) == [-14.5, -12.5, -6.5, 1.5]


def test_mask_order_and_groups():
    # 2x3x4, mask 5 (dims 0, 2): element (i, j, k) uses value i*4 + k
    idx = T.quant_index((2, 3, 4), 5)
    assert idx[1, 2, 3] == 7 and idx[0, 1, 2] == 2 and T.count((2, 3, 4), 5) == 8
    x = np.ones((2, 4), np.float32)
    for groups, expected in (((1, 2), [1, 1, 2, 2, 3, 3, 4, 4]),
                             ((2, 1), [1, 2, 3, 4, 1, 2, 3, 4])):
        attr = dnnl.primitive_attr(); attr.set_scales(FROM, 3, groups)
        out = _run(x, "f32", "f32", "ab", "ab", attr, {SC | FROM: _vals([1., 2, 3, 4])})
        assert list(out.reshape(-1)) == expected


def test_blocked_padding_zeroed_and_strided_gaps_kept():
    x = np.arange(34, dtype=np.float32).reshape(2, 17, 1)
    dmd = dnnl.memory.desc([2, 17, 1], "s8", "aBc16b")
    src = dnnl.memory(dnnl.memory.desc([2, 17, 1], "f32", "abc"), ENG); src.from_numpy(x)
    dst = dnnl.memory(dmd, ENG); dst.map_data()[:] = 0x55
    dnnl.reorder(src, dst).execute(S, src, dst)
    assert (dst.to_numpy() == x).all()
    assert int(dst.map_data().astype(np.int64).sum()) == int(x.sum())   # padding 0
    gmd = dnnl.memory.desc([2, 3], "f32", [8, 1])
    g = dnnl.memory(gmd, ENG); g.map_data()[:] = 7.0
    s2 = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ab"), ENG)
    s2.from_numpy(np.zeros((2, 3), np.float32))
    dnnl.reorder(s2, g).execute(S, s2, g)
    assert list(g.map_data()[3:8]) == [7.0] * 5


def _pd(sdims, sdt, ddims, ddt, attr=None, stag="a", dtag="a"):
    a = [ENG, dnnl.memory.desc(sdims, sdt, stag), ENG, dnnl.memory.desc(ddims, ddt, dtag)]
    return dnnl.reorder.primitive_desc(*(a + ([attr] if attr is not None else [])))


def _status(fn):
    with pytest.raises(dnnl.error) as e:
        fn()
    return int(e.value.status)


def test_creation_errors():
    a = dnnl.primitive_attr
    assert _status(lambda: _pd([2, 3], "f32", [3, 2], "f32", None, "ab", "ab")) == 2
    at = a(); at.set_zero_points_mask(FROM, 0)
    assert _status(lambda: _pd([4], "f32", [4], "s8", at)) == 2
    at = a(); at.set_zero_points_mask(TO, 0)
    assert _status(lambda: _pd([4], "s8", [4], "f32", at)) == 2
    at = a(); at.set_scales_mask(FROM, 1); at.set_scales_mask(TO, 2)
    assert _status(lambda: _pd([2, 3], "f32", [2, 3], "f32", at, "ab", "ab")) == 3
    at = a(); at.set_scales_mask(dnnl.DNNL_ARG_WEIGHTS, 0)
    assert _status(lambda: _pd([4], "f32", [4], "f32", at)) == 3
    # bf16 <-> s32 only between identical dense layouts without attributes
    # (oneDNN's jit_direct_copy:uni; measured against oneDNN 3.13)
    assert _status(lambda: _pd([2, 3], "bf16", [2, 3], "s32", None, "ab", "ba")) == 3
    assert _status(lambda: _pd([2, 3], "s32", [2, 3], "bf16", None, "ab", "ba")) == 3
    at = a(); at.set_scales_mask(FROM, 0)
    assert _status(lambda: _pd([4], "bf16", [4], "s32", at)) == 3
    _pd([4], "bf16", [4], "s32")
    _pd([2, 17, 3], "s32", [2, 17, 3], "bf16", None, "aBc16b", "aBc16b")
    at = a(); po = dnnl.post_ops(); po.append_sum(1.0); po.append_sum(1.0); at.set_post_ops(po)
    assert _status(lambda: _pd([4], "f32", [4], "f32", at)) == 3
    at = a(); po = dnnl.post_ops(); po.append_eltwise(dnnl.algorithm.eltwise_relu, 0, 0)
    at.set_post_ops(po)
    assert _status(lambda: _pd([4], "f32", [4], "f32", at)) == 3
    assert _status(lambda: _pd([4], "f32", [4], "f32", None, "a", "any")) == 2


def test_execute_errors_leave_dst_untouched():
    src = dnnl.memory(dnnl.memory.desc([4], "f32", "a"), ENG)
    src.from_numpy(np.arange(4, dtype=np.float32))
    dst = dnnl.memory(dnnl.memory.desc([4], "s8", "a"), ENG)
    dst.map_data()[:] = 9
    at = dnnl.primitive_attr(); at.set_scales_mask(FROM, 1)
    r = dnnl.reorder(src, dst, at)
    assert _status(lambda: r.execute(S, {TO: dst, SC | FROM: _vals([1.0] * 4)})) == 2
    assert _status(lambda: r.execute(S, {FROM: src, SC | FROM: _vals([1.0] * 4)})) == 2
    assert _status(lambda: r.execute(S, {FROM: src, TO: dst})) == 2
    assert _status(lambda: r.execute(S, {FROM: src, TO: dst, SC | FROM: _vals([1.0] * 2)})) == 2
    # a memory too small for the primitive's descriptor (oneDNN would write
    # past it); one that is large enough is taken as oneDNN takes it
    small = dnnl.memory(dnnl.memory.desc([2], "s8", "a"), ENG)
    small.map_data()[:] = 9
    assert _status(lambda: r.execute(S, {FROM: src, TO: small,
                                         SC | FROM: _vals([1.0] * 4)})) == 2
    assert list(small.map_data()) == [9] * 2
    assert list(dst.map_data()) == [9] * 4


def test_sum_zero_is_not_a_bit_copy():
    """A sum post-op (even beta 0) takes the f32 path: s32 16777217 -> 16777216."""
    at = dnnl.primitive_attr(); po = dnnl.post_ops(); po.append_sum(0.0); at.set_post_ops(po)
    out = _run(np.array([16777217, 2147483647], np.int32), "s32", "s32", attr=at)
    assert list(out) == [16777216, 2147483520]
    assert list(_run(np.array([16777217], np.int32), "s32", "s32")) == [16777217]


def test_read_only_destination_is_refused():
    """A read-only buffer (bytes) can be a source but never a destination:
    the primitive raises before writing anything."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = dnnl.memory.desc([2, 3], "f32", "ab")
    frozen = bytes(np.arange(6, dtype=np.float32).tobytes())
    ro = dnnl.memory(md, eng, frozen)
    rw = dnnl.memory(md, eng)
    dnnl.reorder(ro, rw).execute(dnnl.stream(eng), ro, rw)       # reading is fine
    assert rw.to_numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(dnnl.error) as e:
        dnnl.reorder(rw, ro).execute(dnnl.stream(eng), rw, ro)
    assert e.value.status == dnnl.status.invalid_arguments
    assert frozen == np.arange(6, dtype=np.float32).tobytes()


def _bits(codes, sdt, ddt, stag="ab", dtag="ba"):
    """Reorder raw codes (uint8 / uint16, 2-D) from sdt to ddt; the raw
    destination codes in the source's logical order."""
    codes = np.asarray(codes)
    smd = dnnl.memory.desc(list(codes.shape), sdt, stag)
    dmd = dnnl.memory.desc(list(codes.shape), ddt, dtag)
    raw = np.ascontiguousarray(codes).copy()
    src = dnnl.memory(smd, ENG, raw.view(np.uint8))
    width = dmd.data_type_size()
    out = np.zeros(codes.shape[::-1], np.uint16 if width == 2 else np.uint8)
    dst = dnnl.memory(dmd, ENG, out.view(np.uint8))
    dnnl.reorder(src, dst).execute(S, src, dst)
    return out.T.tolist()


def test_jit_uni_only_pairs_convert_in_every_layout():
    """u8 -> f16, bf16 <-> f16 and f8_e5m2 <-> f8_e4m3 (oneDNN serves them
    with jit:uni alone; measured against oneDNN 3.13.2 on an
    avx512_core_fp16 CPU): a transposing reorder, IEEE round to nearest even,
    NaN stays NaN, overflow to infinity."""
    # u8 0, 1, 255 -> f16 0, 1.0, 255.0
    assert _bits(np.array([[0, 1, 255]], np.uint8), "u8", "f16") == [[0x0000, 0x3c00, 0x5bf8]]
    # f16 1.0, -2.0, 65504, inf, 2**-24 (smallest subnormal), NaN -> bf16
    # (65504 = 0x1.ffcp15 rounds up to 2**16)
    f16 = np.array([[0x3c00, 0xc000, 0x7bff, 0x7c00, 0x0001, 0x7e00]], np.uint16)
    assert _bits(f16, "f16", "bf16") == [[0x3f80, 0xc000, 0x4780, 0x7f80, 0x3380, 0x7fc0]]
    # bf16 1.0078125 (exact in f16), 2**127 (beyond f16: inf), -1.0, NaN
    bf16 = np.array([[0x3f81, 0x7f00, 0xbf80, 0x7fc0]], np.uint16)
    assert _bits(bf16, "bf16", "f16") == [[0x3c08, 0x7c00, 0xbc00, 0x7e00]]
    # f8_e5m2 1.0 (0x3c), 0.5 (0x38), -2 (0xc0) -> f8_e4m3 0x38, 0x30, 0xc0
    e5 = np.array([[0x3c, 0x38, 0xc0]], np.uint8)
    assert _bits(e5, "f8_e5m2", "f8_e4m3") == [[0x38, 0x30, 0xc0]]
    e4 = np.array([[0x38, 0x30, 0xc0]], np.uint8)
    assert _bits(e4, "f8_e4m3", "f8_e5m2") == [[0x3c, 0x38, 0xc0]]
    # a blocked source, as in the oneDNN case f16 cBa2b -> bf16 bac 16x4x17
    _pd([16, 4, 17], "f16", [16, 4, 17], "bf16", None, "cBa2b", "bac")


def test_s32_direct_copy_pairs_need_identical_layouts():
    """f16 / f8 <-> s32, like bf16 <-> s32: identical dense layouts only
    (oneDNN's jit_direct_copy:uni, measured against oneDNN 3.13.2)."""
    for t in ("f16", "f8_e5m2", "f8_e4m3"):
        _pd([2, 3], t, [2, 3], "s32", None, "ab", "ab")
        _pd([2, 3], "s32", [2, 3], t, None, "ab", "ab")
        assert _status(lambda: _pd([2, 3], t, [2, 3], "s32", None, "ab", "ba")) == 3
        assert _status(lambda: _pd([2, 3], "s32", [2, 3], t, None, "ab", "ba")) == 3
