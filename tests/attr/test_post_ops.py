"""dnnl.post_ops: container semantics, validation statuses (src/common/primitive_attr.cpp), the Cython eltwise/binary formulas against the numpy reference
(src/cpu/primitive_attr_postops.cpp), broadcasting helpers and the reference chain."""
import math
import pathlib
import struct

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl._core.enums import C, algorithm as A, data_type as DT, primitive_kind as PK, status
from dnnl._model.desc import desc
from dnnl.attr import (POST_OPS_LIMIT, binary_broadcast_dims, binary_src1_mask,
                       check_binary_src1, post_ops)
from dnnl import _kernels
from dnnl.testing import post_ops as R

pytestmark = pytest.mark.kernels

K = _kernels.load("dnnl.testing.probes.postops")   # the level this CPU runs (ISA cap)

RUNTIME_F32 = struct.unpack("<f", struct.pack("<I", 0x7FC000D0))[0]


def st_of(fn, *args):
    try:
        fn(*args)
    except dnnl.error as e:
        return int(e.status)
    return 0


# ------------------------------------------------------------ container
def test_empty_and_len():
    po = post_ops()
    assert len(po) == 0 and po.len() == 0 and po.has_default_values()
    assert st_of(po.kind, 0) == 2


def test_sum_round_trip_and_defaults():
    po = post_ops()
    po.append_sum()
    po.append_sum(0.5, 3, "s8")
    assert po.get_params_sum(0) == (1.0, 0, DT.undef)
    assert po.get_params_sum(1) == (0.5, 3, DT.s8)
    assert po.kind(1) == PK.sum


@pytest.mark.parametrize("scale", [0.0, -2.0, float("nan"), 1e30])
def test_sum_scale_values_accepted(scale):
    po = post_ops()
    po.append_sum(scale)
    got = po.get_params_sum(0)[0]
    assert got == np.float32(scale) or (math.isnan(got) and math.isnan(scale))


def test_sum_runtime_scale_invalid():
    assert st_of(post_ops().append_sum, RUNTIME_F32) == 2


def test_eltwise_round_trip_f32():
    po = post_ops()
    po.append_eltwise(A.eltwise_relu, 0.1, 0.0)
    alg, alpha, beta = po.get_params_eltwise(0)
    assert alg == A.eltwise_relu and alpha == np.float32(0.1) and beta == 0.0


@pytest.mark.parametrize("alg", R.ELTWISE_ALGS)
def test_every_eltwise_alg_accepted(alg):
    po = post_ops()
    po.append_eltwise(alg, 0.0, 1.0)
    assert po.kind(0) == PK.eltwise and po.get_params_eltwise(0)[0] == alg
    assert po.entries[0].scale == 1.0


@pytest.mark.parametrize("alg,alpha,beta,expect", [
    (A.binary_add, 0, 0, 2),                     # not an eltwise alg
    (A.eltwise_clip, 5, 1, 2), (A.eltwise_clip, 1, 1, 0),
    (A.eltwise_clip_v2, 5, 1, 2), (A.eltwise_clip_v2_use_dst_for_bwd, 2, 1, 2),
    (A.eltwise_relu_use_dst_for_bwd, -1, 0, 2), (A.eltwise_elu_use_dst_for_bwd, -0.5, 0, 2),
    (A.eltwise_elu, -1, 0, 0), (A.eltwise_relu, -1, 0, 0),
    (A.eltwise_round, 0, 0, 0), (A.eltwise_relu, float("nan"), 0, 0),
    (A.eltwise_linear, RUNTIME_F32, 0, 2), (A.eltwise_linear, 1, RUNTIME_F32, 2),
    (0, 0, 0, 2), (999, 0, 0, 2),
])
def test_eltwise_validation(alg, alpha, beta, expect):
    assert st_of(post_ops().append_eltwise, alg, alpha, beta) == expect


def test_binary_round_trip_and_validation():
    md = desc([4, 3], "f32", "ab")
    po = post_ops()
    po.append_binary(A.binary_add, md)
    alg, m = po.get_params_binary(0)
    assert alg == A.binary_add and m == md and po.kind(0) == PK.binary
    assert st_of(po.append_binary, A.eltwise_relu, md) == 2
    rt = desc([C["DNNL_RUNTIME_DIM_VAL"], 3], "f32", "ab")
    assert st_of(po.append_binary, A.binary_add, rt) == 2
    assert st_of(po.append_binary, A.binary_add, None) == 2
    assert st_of(po.append_binary, A.binary_add, "not a desc") == 2
    # select needs the condition descriptor (real oneDNN crashes without it)
    assert st_of(po.append_binary, A.binary_select, md) == 2
    cond = desc([4, 3], "s8", "ab")
    po.append_binary(A.binary_select, md, cond)
    assert po.get_params_binary_v2(1) == (A.binary_select, md, cond)
    assert po.get_params_binary_v2(0) == (A.binary_add, md, None)
    po.append_binary(A.binary_add, desc())  # the zero md passes the sanity check
    assert len(po) == 3


@pytest.mark.parametrize("alg", [a for a in R.BINARY_ALGS if a != A.binary_select])
def test_every_binary_alg_accepted(alg):
    po = post_ops()
    po.append_binary(alg, desc([1, 1], "f32", "ab"))
    assert po.get_params_binary(0)[0] == alg


def test_get_params_wrong_kind_and_index():
    po = post_ops()
    po.append_eltwise(A.eltwise_relu, 0, 0)
    po.append_sum(2.0)
    assert st_of(po.get_params_sum, 0) == 2
    assert st_of(po.get_params_eltwise, 1) == 2
    assert st_of(po.get_params_binary, 0) == 2
    assert st_of(po.get_params_sum, 2) == 2
    assert st_of(po.get_params_sum, -1) == 2
    assert st_of(po.kind, 2) == 2
    assert st_of(po.kind, -1) == 2
    assert st_of(po.get_params_prelu, 0) == 2


@pytest.mark.parametrize("kind", ["sum", "eltwise", "binary", "prelu"])
def test_limit_33rd_is_out_of_memory(kind):
    po = post_ops()
    md = desc([1], "f32", "a")
    add = {"sum": lambda: po.append_sum(1.0),
           "eltwise": lambda: po.append_eltwise(A.eltwise_relu, 0, 0),
           "binary": lambda: po.append_binary(A.binary_mul, md),
           "prelu": lambda: po.append_prelu(0)}[kind]
    for _ in range(POST_OPS_LIMIT):
        add()
    assert len(po) == 32
    with pytest.raises(dnnl.error) as e:
        add()
    assert e.value.status == status.out_of_memory and isinstance(e.value, MemoryError)
    assert len(po) == 32


def test_prelu_and_dw():
    po = post_ops()
    po.append_prelu(2)
    po.append_prelu(-1)  # not validated by oneDNN (measured status 0)
    assert po.get_params_prelu(0) == 2 and po.kind(0) == PK.prelu
    po.append_dw("s8", "f32", "u8", 3, 1, 1)
    assert po.kind(2) == PK.convolution
    assert po.get_params_dw(2) == (DT.s8, DT.f32, DT.u8, 3, 1, 1)
    assert st_of(po.append_dw, "s8", "f32", "u8", 3, 1, 3) == 2
    assert st_of(po.append_dw, "undef", "f32", "u8", 3, 1, 1) == 2
    # oneDNN's post_ops_t::append_dw checks kernel > 0, stride > 0 and
    # padding_l + 1 <= kernel only: a negative padding is kept
    po.append_dw("s8", "f32", "u8", 3, 1, -1)
    assert po.get_params_dw(3) == (DT.s8, DT.f32, DT.u8, 3, 1, -1)
    assert st_of(po.append_dw, "s8", "f32", "u8", 0, 1, -1) == 2
    assert st_of(po.append_dw, "s8", "f32", "u8", 3, 0, 0) == 2


def test_copy_is_independent_and_equality():
    po = post_ops()
    po.append_sum(1.0)
    cp = po.copy()
    assert cp == po
    cp.append_eltwise(A.eltwise_abs, 0, 0)
    assert len(po) == 1 and cp != po
    a, b = post_ops(), post_ops()
    a.append_sum(float("nan")); b.append_sum(float("nan"))
    assert a == b  # NaN == NaN as in oneDNN's comparison


@given(st.lists(st.one_of(
    st.tuples(st.just("sum"), st.floats(-1e3, 1e3, width=32), st.integers(-128, 127)),
    st.tuples(st.just("eltwise"), st.sampled_from(R.ELTWISE_ALGS),
              st.floats(0, 10, width=32), st.floats(10, 20, width=32)),
    st.tuples(st.just("binary"), st.sampled_from([a for a in R.BINARY_ALGS
                                                  if a != A.binary_select]))),
    max_size=32))
def test_hypothesis_round_trip(ops):
    po = post_ops()
    md = desc([2, 3], "f32", "ab")
    for op in ops:
        if op[0] == "sum":
            po.append_sum(op[1], op[2])
        elif op[0] == "eltwise":
            po.append_eltwise(op[1], op[2], op[3])
        else:
            po.append_binary(op[1], md)
    assert len(po) == len(ops)
    for i, op in enumerate(ops):
        if op[0] == "sum":
            assert po.kind(i) == PK.sum and po.get_params_sum(i) == (op[1], op[2], DT.undef)
        elif op[0] == "eltwise":
            assert po.get_params_eltwise(i) == (op[1], op[2], op[3])
        else:
            assert po.get_params_binary(i) == (op[1], md)
    assert po.copy() == po


# --------------------------------------------------- formulas: Cython vs numpy
def _grid():
    rng = np.random.default_rng(7)
    special = np.float32([np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, -1, 2.5, -2.5, 0.5,
                          1.5, -0.5, 88.72283, 88.7229, -88.7229, 89, -89, 100, -100,
                          1e-30, -1e-30, 1e-45, -1e-45, 3.4e38, -3.4e38, 1e-7, 20, -20])
    return np.concatenate([special, rng.uniform(-10, 10, 3000).astype(np.float32),
                           (rng.standard_normal(2000) * 100).astype(np.float32),
                           np.linspace(-12, 12, 2401, dtype=np.float32)])


PARAMS = [(0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (-1.0, 1.0), (2.0, 3.0), (1 / 6, 0.5),
          (-0.3, 0.7)]


def _same(a, b):
    """Bitwise equal, any NaN == any NaN, -0 == +0."""
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b)) | \
        ((a == 0) & (b == 0))


@pytest.mark.parametrize("alg", R.ELTWISE_ALGS, ids=lambda a: a.name)
def test_eltwise_kernel_vs_reference(alg):
    """Exact algorithms: bit-exact. Others: the kernel uses glibc's tanhf,
    expf, ... (<= 2 ulp from correctly rounded), the reference a correctly
    rounded float64 evaluation; we allow 4e-7 relative (about 3.4 ulp), and
    for gelu_tanh / gelu_erf also 1e-7 * |s| absolute, because 1 + tanh(u)
    (1 + erf(v)) cancels for negative s and amplifies the libm's error by
    |s| / |result|."""
    x = _grid()
    for alpha, beta in PARAMS:
        if alg in (A.eltwise_clip, A.eltwise_clip_v2, A.eltwise_clip_v2_use_dst_for_bwd) \
                and beta < alpha:
            continue
        k = K.eltwise(x, int(alg), alpha, beta)
        r = R.eltwise(x, alg, alpha, beta)
        same = _same(k, r)
        if alg in R.ELTWISE_EXACT:
            assert same.all(), (alpha, beta, x[~same][:5], k[~same][:5], r[~same][:5])
            continue
        bad = ~same
        assert np.isfinite(k[bad]).all() and np.isfinite(r[bad]).all()
        tol = 4e-7 * np.abs(r[bad])
        if alg in (A.eltwise_gelu_tanh, A.eltwise_gelu_erf):
            tol = np.maximum(tol, 1e-7 * np.abs(x[bad]))
        err = np.abs(k[bad].astype(np.float64) - r[bad])
        assert (err <= tol).all(), (alpha, beta, x[bad][err > tol][:5])


def test_measured_reference_outputs():
    """ref:any outputs measured on libdnnl 3.13.2."""
    x = np.float32([np.nan, 0.0, 0.0, np.inf, -np.inf, -1, 2.5, -2.5, 0.5, 1.5])
    nan, inf = np.nan, np.inf
    table = {
        (A.eltwise_relu, 0.5, 0): [nan, 0, 0, inf, -inf, -0.5, 2.5, -1.25, 0.5, 1.5],
        (A.eltwise_abs, 0, 0): [nan, 0, 0, inf, inf, 1, 2.5, 2.5, 0.5, 1.5],
        (A.eltwise_clip, -1, 1): [-1, 0, 0, 1, -1, -1, 1, -1, 0.5, 1],
        (A.eltwise_round, 0, 0): [nan, 0, 0, inf, -inf, -1, 2, -2, 0, 2],
        (A.eltwise_hardsigmoid, 0.5, 0.5): [nan, .5, .5, 1, 0, 0, 1, 0, .75, 1],
        (A.eltwise_hardswish, 0.5, 0.5): [nan, 0, 0, inf, nan, 0, 2.5, 0, .375, 1.5],
        (A.eltwise_logistic, 0, 0): [0, .5, .5, 1, 0, 0.26894143, 0.92414182,
                                     0.075858176, 0.62245935, 0.81757444],
        (A.eltwise_pow, 2, 0.5): [nan, 0, 0, inf, inf, nan, 3.1622777, nan, 1.4142135,
                                  2.4494898],
        (A.eltwise_elu, 1, 0): [nan, 0, 0, inf, -1, -0.63212055, 2.5, -0.91791499, .5, 1.5],
        (A.eltwise_soft_relu, 1, 0): [nan, 0.69314718, 0.69314718, inf, 0, 0.31326169,
                                      2.5788898, 0.078889735, 0.97407699, 1.7014133],
        (A.eltwise_swish, 1, 0): [nan, 0, 0, inf, nan, -0.26894143, 2.3103545,
                                  -0.18964544, 0.31122968, 1.2263616],
    }
    for (alg, a, b), want in table.items():
        want = np.float32(want)
        for got in (K.eltwise(x, int(alg), a, b), R.eltwise(x, alg, a, b)):
            np.testing.assert_allclose(got, want, rtol=2e-7, atol=0, equal_nan=True,
                                       err_msg=alg.name)


def test_abs_of_zero_is_negative_zero_in_reference():
    assert math.copysign(1, K.eltwise(np.float32([0.0]), int(A.eltwise_abs))[0]) == -1


@pytest.mark.parametrize("alg", R.BINARY_ALGS, ids=lambda a: a.name)
def test_binary_kernel_vs_reference_exact(alg):
    g = np.float32([np.nan, -np.inf, -3.5, -1, -0.0, 0.0, 1e-45, 1, 2, 3.5, 1e30, np.inf])
    a, b = np.meshgrid(g, g, indexing="ij")
    cond = (np.arange(a.size).reshape(a.shape) % 3) - 1
    k = K.binary(a, b, int(alg), cond)
    r = R.binary(a, b, alg, cond)
    assert _same(k, r).all()
    if alg not in (A.binary_add, A.binary_mul, A.binary_div, A.binary_sub, A.binary_max,
                   A.binary_min, A.binary_select):
        assert set(np.unique(k)) <= {0.0, 1.0}


def test_binary_max_min_nan_asymmetry():
    nan = np.float32(np.nan)
    assert K.binary(nan, 1.0, int(A.binary_max))[()] == 1.0
    assert np.isnan(K.binary(1.0, nan, int(A.binary_max)))
    assert K.binary(nan, 1.0, int(A.binary_min))[()] == 1.0
    assert np.isnan(K.binary(1.0, nan, int(A.binary_min)))


def test_pxd_alg_values_come_from_header():
    """postops.pxd restates no alg value: every alg it handles is the
    header's ``dnnl_*`` constant, cimported from dnnl_types.pxd."""
    import os
    import re
    import dnnl._kernels
    text = pathlib.Path(os.path.dirname(dnnl._kernels.__file__), "postops.pxd").read_text()
    assert not re.search(r"^\s*\w+\s*=\s*(0x[0-9a-fA-F]+|\d+)\s*$", text, re.M)
    for alg in list(R.ELTWISE_ALGS) + list(R.BINARY_ALGS):
        assert re.search(r"\bdnnl_%s\b" % alg.name, text), alg.name


# ----------------------------------------------------------- broadcasting
def test_broadcast_helpers():
    assert binary_src1_mask((2, 3, 4, 5), (1, 3, 1, 1)) == 2
    assert binary_src1_mask((2, 3, 4, 5), (2, 3, 4, 5)) == 15
    assert binary_src1_mask((2, 3, 4, 5), (1, 1, 1, 1)) == 0
    assert binary_src1_mask((2, 1), (1, 1)) == 2  # a size-1 dst dim matches
    assert binary_broadcast_dims((2, 1, 4), (1, 1, 4)) == (True, False, False)
    assert check_binary_src1(desc([4, 3], "f32", "ab"), desc([4, 1], "s8", "ab")) == 1
    for bad in ([1, 3, 1], [3], [2, 3]):
        assert st_of(check_binary_src1, (4, 3), desc(bad, "f32", "a" * 0 + "abc"[:len(bad)])) == 2
    assert st_of(check_binary_src1, (4, 3), desc([1, 3], "f64", "ab")) == 2


@given(st.lists(st.integers(1, 4), min_size=1, max_size=5), st.integers(0, 31))
def test_mask_round_trip(dims, mask):
    src1 = [d if (mask >> i) & 1 else 1 for i, d in enumerate(dims)]
    m = binary_src1_mask(dims, src1)
    expect = sum(1 << i for i, d in enumerate(dims) if (mask >> i) & 1 or d == 1)
    assert m == expect


# ------------------------------------------------------- reference chain
def test_apply_post_ops_measured_example():
    """Measured on libdnnl 3.13.2: ((x+y) + 0.5*old)*2 + 1) * z[c] (then s8 saturation)."""
    po = post_ops()
    po.append_sum(0.5)
    po.append_eltwise(A.eltwise_linear, 2.0, 1.0)
    po.append_binary(A.binary_mul, desc([1, 3], "f32", "ab"))
    acc = np.float32([[70.25, 1.0, -2.0]])
    old = np.int8([[70, -4, 3]])
    z = np.float32([[3, 0.5, -1]])
    r = R.apply_post_ops(acc, po, dst_old=old, dst_dt=DT.s8, src1_arrays={2: z})
    expect = ((acc + 0.5 * old.astype(np.float32)) * 2 + 1) * z
    np.testing.assert_array_equal(r, expect.astype(np.float32))
    assert np.clip(np.rint(r), -128, 127)[0, 0] == 127


def test_apply_post_ops_sum_zero_point_and_dt_reinterpretation():
    po = post_ops()
    po.append_sum(2.0, 3, "u8")
    old = np.int8([-1, 5])  # s8 dst; the sum reads the bytes as u8: 255, 5
    r = R.apply_post_ops(np.float32([0, 0]), po, dst_old=old, dst_dt=DT.s8)
    np.testing.assert_array_equal(r, np.float32([2 * (255 - 3), 2 * (5 - 3)]))


def test_apply_post_ops_select_and_prelu():
    po = post_ops()
    po.append_binary(A.binary_select, desc([2], "f32", "a"), desc([2], "s8", "a"))
    po.append_prelu(0)
    r = R.apply_post_ops(np.float32([1, -1]), po, src1_arrays={0: [7, -4], 1: [0.5]},
                         src2_arrays={0: [1, 0]})
    np.testing.assert_array_equal(r, np.float32([1, -2]))
