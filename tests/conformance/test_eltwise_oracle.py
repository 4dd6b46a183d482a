"""Every eltwise algorithm of oneDNN 3.13 against real oneDNN's *reference*
eltwise implementation (``ref:any``, reached with
``dnnl_primitive_desc_next_impl``), and attribute / post-op statuses against
the real C API.

Agreement criterion: bit-exact (any NaN equals any NaN, -0 equals +0, as
docs/internals/semantics.md) for the exact algorithms; for the others
benchdnn's f32 eltwise threshold (4e-6 relative, 4e-5 for gelu_tanh, elu,
swish, tanh, soft_relu, mish, log; absolute below |ref| 1e-5). The test also
counts how many outputs are bit-exact (measured: all of them, since the
PyPI library's reference calls the same glibc libm functions).
"""
import ctypes
import struct

import numpy as np
import pytest

import oracle as _om
from dnnl._core.enums import C, algorithm as A
from dnnl import _kernels
from dnnl.testing import post_ops as R
from dnnl.attr import primitive_attr, post_ops
import dnnl

pytestmark = pytest.mark.conformance

K = _kernels.load("dnnl.testing.probes.postops")   # the level this CPU runs (ISA cap)

_p = ctypes.c_void_p
_LOOSE = {A.eltwise_gelu_tanh, A.eltwise_elu, A.eltwise_elu_use_dst_for_bwd, A.eltwise_swish,
          A.eltwise_tanh, A.eltwise_tanh_use_dst_for_bwd, A.eltwise_soft_relu,
          A.eltwise_mish, A.eltwise_log}
PARAMS = [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (-1.0, 1.0), (1 / 6, 0.5), (2.0, 0.5),
          (0.3, -0.7), (2.0, 3.0), (-0.25, 4.0)]
RESULTS = _om.tally("eltwise vs ref:any (values)", {"exact": 0, "total": 0, "zero_sign_diff": 0})


def _inputs():
    rng = np.random.default_rng(2024)
    special = np.float32([np.nan, -0.0, 0.0, np.inf, -np.inf, -1, 2.5, -2.5, 0.5, 1.5,
                          88.72283, 88.7229, -88.7229, 89, -89, 100, -100, 1e-30, -1e-30,
                          1e-45, -1e-45, 3.4e38, -3.4e38, 1e-7, -1e-7, 20, -20, 0.25, 3])
    return np.concatenate([special, rng.uniform(-10, 10, 1500).astype(np.float32),
                           (rng.standard_normal(1000) * 100).astype(np.float32),
                           np.linspace(-16, 16, 1601, dtype=np.float32)])


X = _inputs()


def _setup(orc):
    f = orc.lib.dnnl_eltwise_forward_primitive_desc_create
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.POINTER(_p), _p, ctypes.c_int, ctypes.c_int, _p, _p,
                  ctypes.c_float, ctypes.c_float, _p]
    return f


def run_ref_eltwise(orc, alg, x, alpha, beta):
    """(status, output, impl) of real oneDNN's ref eltwise on 1-D f32 x."""
    create = _setup(orc)
    keep, mems = [], []
    st, md = orc._create(("tag", [x.size], "f32", "a"))
    pd = _p()
    try:
        st = create(ctypes.byref(pd), orc.engine, C["dnnl_forward_inference"], int(alg),
                    md, md, alpha, beta, None)
        if st:
            pd = None
            return st, None, None
        impl = orc._pd_impl(pd)
        while not impl.startswith("ref"):
            st = orc.lib.dnnl_primitive_desc_next_impl(pd)
            if st:
                return st, None, impl
            impl = orc._pd_impl(pd)
        st, ms, _, _ = orc._memory(md, x.tobytes(), keep)
        mems.append(ms)
        st, mdst, buf, size = orc._memory(md, b"", keep)
        mems.append(mdst)
        st = orc._run(pd, [(C["DNNL_ARG_SRC"], ms), (C["DNNL_ARG_DST"], mdst)], keep)
        return st, np.frombuffer(buf.raw[:size], np.float32).copy(), impl
    finally:
        for m in mems:
            orc.lib.dnnl_memory_destroy(m)
        if pd:
            orc.lib.dnnl_primitive_desc_destroy(pd)
        orc._destroy(md)


def _ok_eltwise_params(alg, alpha, beta):
    if alg in (A.eltwise_clip, A.eltwise_clip_v2, A.eltwise_clip_v2_use_dst_for_bwd):
        return beta >= alpha
    if alg in (A.eltwise_relu_use_dst_for_bwd, A.eltwise_elu_use_dst_for_bwd):
        return alpha >= 0
    return True


@pytest.mark.parametrize("alg", R.ELTWISE_ALGS, ids=lambda a: a.name)
def test_eltwise_vs_real_reference(oracle, alg):
    for alpha, beta in PARAMS:
        st, ref, impl = run_ref_eltwise(oracle, alg, X, alpha, beta)
        # creation status agrees with our post-op validation
        ours_st = 0
        try:
            post_ops().append_eltwise(alg, alpha, beta)
        except dnnl.error as e:
            ours_st = int(e.status)
        assert ours_st == st, (alpha, beta)
        if st:
            continue
        assert impl.startswith("ref")
        got = K.eltwise(X, int(alg), alpha, beta)
        nan = np.isnan(got) & np.isnan(ref)
        same = (got.view(np.uint32) == ref.view(np.uint32)) | nan | ((got == 0) & (ref == 0))
        RESULTS["total"] += X.size
        RESULTS["exact"] += int(same.sum())
        RESULTS["zero_sign_diff"] += int(((got == 0) & (ref == 0) &
                                          (np.signbit(got) != np.signbit(ref))).sum())
        _om.record("eltwise vs ref:any (values)", X.size)
        if alg in R.ELTWISE_EXACT:
            assert same.all(), (alpha, beta, X[~same][:5], got[~same][:5], ref[~same][:5])
            continue
        bad = ~same
        assert (np.isnan(got[bad]) == np.isnan(ref[bad])).all()
        trh = 4e-5 if alg in _LOOSE else 4e-6
        g, r = got[bad].astype(np.float64), ref[bad].astype(np.float64)
        diff = np.abs(g - r)
        rel = np.where(np.abs(r) > 1e-5, diff / np.abs(r), diff)
        assert (rel <= trh).all(), (alpha, beta, X[bad][rel > trh][:5])
        # within tolerance is not enough either: every value of every
        # algorithm is bit-exact today (tallied in the closing summary)
        assert same.all(), (alpha, beta, X[bad][:5], got[bad][:5], ref[bad][:5])


# -------------------------------------------------------- statuses vs the C API
def _c(orc):
    lib = orc.lib
    sig = {
        "dnnl_primitive_attr_set_scales_mask": [_p, ctypes.c_int, ctypes.c_int],
        "dnnl_primitive_attr_set_zero_points_mask": [_p, ctypes.c_int, ctypes.c_int],
        "dnnl_primitive_attr_set_scales_v3": [_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                              _p, ctypes.c_int, ctypes.c_int, ctypes.c_int],
        "dnnl_primitive_attr_set_zero_points_v2": [_p, ctypes.c_int, ctypes.c_int,
                                                   ctypes.c_int, _p, ctypes.c_int,
                                                   ctypes.c_int],
        "dnnl_primitive_attr_set_scratchpad_mode": [_p, ctypes.c_int],
        "dnnl_primitive_attr_set_fpmath_mode_v2": [_p, ctypes.c_int, ctypes.c_int],
        "dnnl_primitive_attr_set_accumulation_mode": [_p, ctypes.c_int],
        "dnnl_primitive_attr_set_rounding": [_p, ctypes.c_int, ctypes.c_int],
        "dnnl_post_ops_append_sum": [_p, ctypes.c_float, ctypes.c_int32, ctypes.c_int],
    }
    for name, args in sig.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = ctypes.c_int
    return lib


def _ours(fn, *args):
    try:
        fn(*args)
    except dnnl.error as e:
        return int(e.status)
    return 0


def _cases():
    args = [-1, 0, 1, 2, 3, 4, 17, 18, 33, 34, 35, 36, 41, 129, 145, 161, 1024, 1027,
            4097, 8193, 16385, 16386, 16401, 16417]
    out = []
    for arg in args:
        for mask in (-1, 0, 5):
            out.append(("scales_mask", arg, mask))
            out.append(("zp_mask", arg, mask))
    for dt in range(0, 17):
        for mask in (0, 1):
            for groups in ((), (2, 1), (0, 1), (2,)):
                for host in (0, 1):
                    out.append(("scales", 1, mask, groups, dt, host, 1))
                    out.append(("zp", 1, mask, groups, dt, host))
                    out.append(("zp", 17, mask, groups, dt, host))
    for q in range(-1, 6):
        out.append(("scales", 33, 1, (), 3, 0, q))
    for v in range(-1, 8):
        out += [("scratchpad", v), ("fpmath", v, 0), ("fpmath", v, 1), ("acc", v),
                ("rounding", 1, v), ("rounding", 17, v), ("rounding", 129, v)]
    return out


def test_attr_statuses_vs_c_api(oracle):
    lib = _c(oracle)
    n = 0
    for case in _cases():
        at = _p()
        lib.dnnl_primitive_attr_create(ctypes.byref(at))
        ours = primitive_attr()
        try:
            kind = case[0]
            if kind == "scales_mask":
                c = lib.dnnl_primitive_attr_set_scales_mask(at, case[1], case[2])
                o = _ours(ours.set_scales_mask, case[1], case[2])
            elif kind == "zp_mask":
                c = lib.dnnl_primitive_attr_set_zero_points_mask(at, case[1], case[2])
                o = _ours(ours.set_zero_points_mask, case[1], case[2])
            elif kind in ("scales", "zp"):
                _, arg, mask, groups, dt, host = case[:6]
                g = (ctypes.c_int64 * 12)(*groups)
                if dt in (8,):  # dnnl_data_type 8 does not exist: skip
                    continue
                if kind == "scales":
                    c = lib.dnnl_primitive_attr_set_scales_v3(at, arg, mask, len(groups), g,
                                                              dt, host, case[6])
                    o = _ours(ours.set_scales, arg, mask, groups, dt, host, case[6])
                else:
                    c = lib.dnnl_primitive_attr_set_zero_points_v2(at, arg, mask, len(groups),
                                                                   g, dt, host)
                    o = _ours(ours.set_zero_points, arg, mask, groups, dt, host)
            elif kind == "scratchpad":
                c = lib.dnnl_primitive_attr_set_scratchpad_mode(at, case[1])
                o = _ours(ours.set_scratchpad_mode, case[1])
            elif kind == "fpmath":
                c = lib.dnnl_primitive_attr_set_fpmath_mode_v2(at, case[1], case[2])
                o = _ours(ours.set_fpmath_mode, case[1], case[2])
            elif kind == "acc":
                c = lib.dnnl_primitive_attr_set_accumulation_mode(at, case[1])
                o = _ours(ours.set_accumulation_mode, case[1])
            else:
                c = lib.dnnl_primitive_attr_set_rounding(at, case[1], case[2])
                o = _ours(ours.set_rounding_mode, case[1], case[2])
            assert o == c, (case, o, c)
            n += 1
        finally:
            lib.dnnl_primitive_attr_destroy(at)
    _om.record("attr setter statuses", n)


def test_post_op_statuses_vs_c_api(oracle):
    lib = _c(oracle)
    cases = [(A.eltwise_clip, 5, 1), (A.eltwise_clip, 1, 1), (A.binary_add, 0, 0),
             (A.eltwise_relu_use_dst_for_bwd, -1, 0), (A.eltwise_elu, -1, 0),
             (A.eltwise_round, 0, 0), (0, 0, 0), (1, 0, 0), (53, 0, 0), (263, 0, 0)]
    runtime = struct.unpack("<f", struct.pack("<I", 0x7FC000D0))[0]
    n = 0
    for alg, a, b in cases:
        po = _p()
        lib.dnnl_post_ops_create(ctypes.byref(po))
        c = lib.dnnl_post_ops_append_eltwise(po, int(alg), a, b)
        lib.dnnl_post_ops_destroy(po)
        assert _ours(post_ops().append_eltwise, alg, a, b) == c, (alg, a, b)
        n += 1
    for scale in (1.0, 0.0, -3.0, float("nan"), runtime):
        po = _p()
        lib.dnnl_post_ops_create(ctypes.byref(po))
        c = lib.dnnl_post_ops_append_sum(po, scale, 0, 0)
        lib.dnnl_post_ops_destroy(po)
        assert _ours(post_ops().append_sum, scale) == c, scale
        n += 1
    # limit: 33rd append -> out_of_memory (1)
    po = _p()
    lib.dnnl_post_ops_create(ctypes.byref(po))
    sts = [lib.dnnl_post_ops_append_sum(po, 1.0, 0, 0) for _ in range(33)]
    lib.dnnl_post_ops_destroy(po)
    ours = post_ops()
    our_sts = [_ours(ours.append_sum, 1.0) for _ in range(33)]
    assert sts == our_sts
    _om.record("post-op append statuses", n + 33)
