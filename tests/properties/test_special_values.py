"""Special values (NaN, +-inf, +-0, huge, subnormal) through reorder and
resampling, against oneDNN's reference rules (docs/internals/semantics.md) and the
numpy references in dnnl/testing/.

* NaN to an integer output is what oneDNN's reference stores:
  ``(int)nearbyintf(NaN)`` is x86's INT_MIN, cut to the width, so s32 gets
  -2147483648 and s8/u8/s4/u4 get 0, on every path (bit copy excepted: it
  never converts).
"""
import ctypes

import numpy as np
import pytest

import dnnl
from dnnl.testing import dtypes as D
from dnnl.testing import reorder as T

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
S = dnnl.stream(ENG)
FROM, TO = dnnl.DNNL_ARG_FROM, dnnl.DNNL_ARG_TO
NAN_BITS = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fffffff]
NAN_TO = {"s32": -2 ** 31, "s8": 0, "u8": 0, "s4": 0, "u4": 0}


def _nans(n):
    b = np.array((NAN_BITS * n)[:n], np.uint32)
    return b.view(np.float32)


def _reorder(x, ddt, stag="ab", dtag="ab", attr=None, args=None):
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), "f32", stag), ENG)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(list(x.shape), ddt, dtag), ENG)
    # a sum post-op reads the destination: give it defined bytes (1 in s8/u8,
    # a NaN plus it is still NaN), not whatever the allocation held
    # (valgrind's memcheck: a conditional jump on uninitialised values)
    ctypes.memset(dst.get_data_handle(), 1, dst.get_desc().get_size())
    r = dnnl.reorder(src, dst, attr) if attr is not None else dnnl.reorder(src, dst)
    a = {FROM: src, TO: dst}
    a.update(args or {})
    r.execute(S, a)
    return dst.to_numpy()


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
@pytest.mark.parametrize("layout", [("ab", "ab"), ("ab", "ba"), ("ba", "ab")])
def test_reorder_nan_to_integer(ddt, layout):
    x = _nans(4 * 6).reshape(4, 6)
    got = _reorder(x, ddt, *layout)
    assert (got.astype(np.int64) == NAN_TO[ddt]).all(), got


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
def test_reorder_nan_to_integer_with_attributes(ddt):
    """Scales, a zero point (NaN + zp is NaN) and sum keep NaN a NaN (s4/u4:
    scales only, the attributes their reorder takes)."""
    x = _nans(8).reshape(2, 4)
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    if ddt not in ("s4", "u4"):
        attr.set_zero_points_mask(dnnl.DNNL_ARG_DST, 0)
        po = dnnl.post_ops()
        po.append_sum(1.0)
        attr.set_post_ops(po)
    sc = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), ENG)
    sc.from_numpy(np.array([2.0], np.float32))
    zp = dnnl.memory(dnnl.memory.desc([1], "s32", "a"), ENG)
    zp.from_numpy(np.array([3], np.int32))
    args = {dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_SRC: sc,
            dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_DST: zp}
    got = _reorder(x, ddt, attr=attr, args=args)
    assert (got.astype(np.int64) == NAN_TO[ddt]).all(), got


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
def test_reorder_nan_matches_numpy_reference(ddt):
    x = np.concatenate([_nans(10), np.float32([np.inf, -np.inf, 0.0, -0.0, 3e38, -3e38,
                                               1e-45, -1e-40, 2.5, -2.5])])
    spec = ("tag", [len(x)], "f32", "a")
    dspec = ("tag", [len(x)], ddt, "a")
    st, out = T.run_ours(spec, x.tobytes(), dspec)
    assert st == 0
    exp = T.expected_bytes(spec, x.tobytes(), dspec)
    assert T.mismatches(out, exp, T.make_md(dspec)) == 0
    ref = D.encode(_nans(10), getattr(D, ddt.upper()))
    assert (ref.astype(np.int64) == NAN_TO[ddt]).all()


# ------------------------------------------------------------ resampling
from dnnl.resampling import resampling_backward, resampling_forward  # noqa: E402
from dnnl.testing import resampling as RR  # noqa: E402

A = dnnl.algorithm
RS_DTS = (D.F32, D.BF16, D.F16, D.S32, D.S8, D.U8)
RS_TAGS = {3: ["ncw", "nwc", "nCw8c"], 4: ["nchw", "nhwc", "nChw16c", "cdba"],
           5: ["ncdhw", "ndhwc", "nCdhw8c"]}


def _codes_of(mem, dt):
    cdt = D._CODE_DTYPE[dt] if dt != D.F32 else np.float32
    return mem.map_data(cdt)[mem._element_offsets()]


def _resampling_case(seed):
    """Ours and the numpy reference on one problem full of special values."""
    rng = np.random.default_rng(seed)
    nd = int(rng.choice([3, 4, 5]))
    k = nd - 2
    N, C = int(rng.integers(1, 3)), int(rng.choice([1, 3, 8, 17]))
    ins = [int(rng.integers(1, {1: 12, 2: 6, 3: 4}[k])) for _ in range(k)]
    outs = [int(rng.integers(1, 3 * i + 2)) for i in ins]
    if k == 1 and ins == outs == [1]:
        outs = [2]
    alg = "linear" if rng.random() < 0.75 else "nearest"
    bwd = rng.random() < 0.4
    sdt, ddt = (int(rng.choice(RS_DTS)) for _ in range(2))
    smd = dnnl.memory.desc([N, C] + ins, D.NAMES[sdt], str(rng.choice(RS_TAGS[nd])))
    dmd = dnnl.memory.desc([N, C] + outs, D.NAMES[ddt], str(rng.choice(RS_TAGS[nd])))
    a = getattr(A, "resampling_" + alg)
    fwd_pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, a,
                                               smd, dmd)
    if bwd:
        pd = resampling_backward.primitive_desc(ENG, a, smd, dmd, fwd_pd)
        in_md, out_md, in_dt, out_dt = dmd, smd, ddt, sdt
    else:
        pd, in_md, out_md, in_dt, out_dt = fwd_pd, smd, dmd, sdt, ddt
    inp, out = dnnl.memory(in_md, ENG), dnnl.memory(out_md, ENG)
    codes = D.special_codes(rng, int(np.prod(in_md.dims)), in_dt)
    inp.map_data(np.float32 if in_dt == D.F32 else D._CODE_DTYPE[in_dt])[
        inp._element_offsets()] = codes
    vals = (codes if in_dt == D.F32 else D.decode(codes, in_dt)).astype(np.float32)
    vals = vals.reshape(in_md.dims)
    if bwd:
        resampling_backward(pd).execute(S, {dnnl.DNNL_ARG_DIFF_DST: inp,
                                            dnnl.DNNL_ARG_DIFF_SRC: out})
        ref = RR.backward_codes(vals, ins, a, out_dt)
    else:
        resampling_forward(pd).execute(S, {dnnl.DNNL_ARG_SRC: inp, dnnl.DNNL_ARG_DST: out})
        ref = RR.forward_codes(vals, outs, a, dst_dt=out_dt)
    got = _codes_of(out, out_dt)
    return got, np.asarray(ref).reshape(-1), out_dt, (nd, alg, bwd, D.NAMES[sdt],
                                                     D.NAMES[ddt])


@pytest.mark.parametrize("chunk", range(6))
def test_resampling_special_values_match_reference(chunk):
    """Every data type pair, fwd/bwd, nearest/linear, 1D/2D/3D, plain and
    blocked layouts, ~40% special values: equal to dnnl.testing.resampling
    (which conformance checks against oneDNN's ref:any)."""
    for seed in range(chunk * 60, (chunk + 1) * 60):
        got, ref, dt, info = _resampling_case(seed)
        assert T.same_values(got, ref.astype(got.dtype), dt).all(), (seed, info)


def test_resampling_inf_in_1d_and_2d_becomes_nan():
    """ref:any's phantom axes: an inf neighbour of weight 0 gives NaN, an inf
    result of a 1D/2D problem too; 3D keeps inf where its weights are > 0."""
    inf = np.inf

    def fwd(x, out, dt="f32"):
        x = np.asarray(x, np.float32)
        tag = {3: "ncw", 4: "nchw", 5: "ncdhw"}[x.ndim]
        smd = dnnl.memory.desc(list(x.shape), "f32", tag)
        dmd = dnnl.memory.desc(list(x.shape[:2]) + out, dt, tag)
        pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                               A.resampling_linear, smd, dmd)
        s, d = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
        s.from_numpy(x)
        resampling_forward(pd).execute(S, {dnnl.DNNL_ARG_SRC: s, dnnl.DNNL_ARG_DST: d})
        return d.to_numpy().reshape(-1).tolist()

    nan_eq = lambda a, b: all(x == y or (x != x and y != y) for x, y in zip(a, b))  # noqa
    assert nan_eq(fwd([[[1, inf, 3, 4]]], [4]), [1, np.nan, 3, 4])
    assert nan_eq(fwd([[[1, inf]]], [4]), [1, np.nan, np.nan, np.nan])
    assert nan_eq(fwd([[[[1, inf], [3, 4]]]], [2, 2]), [1, np.nan, 3, 4])
    assert fwd([[[1, inf, 3, 4]]], [4], "u8") == [1, 0, 3, 4]
    assert nan_eq(fwd([[[[[1, inf]]]]], [2, 2, 4])[:4], [1, inf, inf, inf])
    assert fwd([[[0, 1, 2, 3]]], [8]) == [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]
    # backward, 1D: every inf gradient reaches a zero weight
    smd = dnnl.memory.desc([1, 1, 4], "f32", "ncw")
    dmd = dnnl.memory.desc([1, 1, 4], "f32", "ncw")
    hint = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training,
                                             A.resampling_linear, smd, dmd)
    pd = resampling_backward.primitive_desc(ENG, A.resampling_linear, smd, dmd, hint)
    dd, ds = dnnl.memory(dmd, ENG), dnnl.memory(smd, ENG)
    dd.from_numpy(np.float32([[[1, inf, 3, 4]]]))
    resampling_backward(pd).execute(S, {dnnl.DNNL_ARG_DIFF_DST: dd,
                                        dnnl.DNNL_ARG_DIFF_SRC: ds})
    assert nan_eq(ds.to_numpy().reshape(-1).tolist(), [1, np.nan, 3, 4])
