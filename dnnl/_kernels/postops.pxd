# cython: language_level=3
"""Scalar post-op arithmetic shared by every kernel: eltwise and binary.

Each function is the f32 forward formula of oneDNN 3.13's *reference*
implementation (src/cpu/primitive_attr_postops.cpp): one rounding per f32
operation, no fused multiply-add (the build passes -ffp-contract=off), libm
single-precision functions, comparisons written so that NaN takes the same
branch as in the reference.  ``alg`` is a ``dnnl_alg_kind_t`` value.

Kernels ``cimport`` this file; ``dnnl.testing.probes.postops`` exposes
vectorised wrappers for tests.
"""
from libc.math cimport (tanhf, expm1f, sqrtf, log1pf, expf, logf, powf, erff,
                        nearbyintf, NAN)

# dnnl_alg_kind_t values: from the header, never restated
from dnnl._core.dnnl_types cimport (
    dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_elu, dnnl_eltwise_square,
    dnnl_eltwise_abs, dnnl_eltwise_sqrt, dnnl_eltwise_linear, dnnl_eltwise_soft_relu,
    dnnl_eltwise_hardsigmoid, dnnl_eltwise_logistic, dnnl_eltwise_exp,
    dnnl_eltwise_gelu_tanh, dnnl_eltwise_swish, dnnl_eltwise_log, dnnl_eltwise_clip,
    dnnl_eltwise_clip_v2, dnnl_eltwise_pow, dnnl_eltwise_gelu_erf, dnnl_eltwise_round,
    dnnl_eltwise_mish, dnnl_eltwise_hardswish, dnnl_eltwise_relu_use_dst_for_bwd,
    dnnl_eltwise_tanh_use_dst_for_bwd, dnnl_eltwise_elu_use_dst_for_bwd,
    dnnl_eltwise_sqrt_use_dst_for_bwd, dnnl_eltwise_logistic_use_dst_for_bwd,
    dnnl_eltwise_exp_use_dst_for_bwd, dnnl_eltwise_clip_v2_use_dst_for_bwd,
    dnnl_binary_add, dnnl_binary_mul, dnnl_binary_max, dnnl_binary_min,
    dnnl_binary_div, dnnl_binary_sub, dnnl_binary_ge, dnnl_binary_gt, dnnl_binary_le,
    dnnl_binary_lt, dnnl_binary_eq, dnnl_binary_ne, dnnl_binary_select)

# expf overflows above 88.72283172607421875 (the reference's
# exp_overflow_bound); written as a literal so this .pxd has no module state.


cdef inline float _logistic(float s) noexcept nogil:
    # NaN: the comparison is false, so the result is 0 (as the reference).
    cdef float t = -s
    if t < <float>88.72283172607421875:
        t = expf(t)
        t = <float>1.0 + t
        return <float>1.0 / t
    return 0.0


cdef inline float _soft_relu(float s, float alpha) noexcept nogil:
    cdef float t = s * alpha
    cdef float v
    if t < <float>88.72283172607421875:
        v = log1pf(expf(t))
    else:
        v = t
    return v / alpha


cdef inline float _hardsigmoid(float s, float alpha, float beta) noexcept nogil:
    cdef float v = alpha * s
    v = v + beta
    if v <= 0.0:
        return 0.0
    if v >= 1.0:
        return 1.0
    return v


cdef inline float eltwise_fwd(int alg, float s, float alpha, float beta) noexcept nogil:
    """Forward eltwise ``alg`` on ``s`` (f32 reference formula)."""
    cdef float t, u
    cdef double d
    if alg == dnnl_eltwise_relu or alg == dnnl_eltwise_relu_use_dst_for_bwd:
        if s > 0.0:
            return s
        return s * alpha
    if alg == dnnl_eltwise_tanh or alg == dnnl_eltwise_tanh_use_dst_for_bwd:
        return tanhf(s)
    if alg == dnnl_eltwise_elu or alg == dnnl_eltwise_elu_use_dst_for_bwd:
        if s > 0.0:
            return s
        return alpha * expm1f(s)
    if alg == dnnl_eltwise_square:
        return s * s
    if alg == dnnl_eltwise_abs:
        if s > 0.0:
            return s
        return -s
    if alg == dnnl_eltwise_sqrt or alg == dnnl_eltwise_sqrt_use_dst_for_bwd:
        return sqrtf(s)
    if alg == dnnl_eltwise_linear:
        t = alpha * s
        return t + beta
    if alg == dnnl_eltwise_soft_relu:
        return _soft_relu(s, alpha)
    if alg == dnnl_eltwise_hardsigmoid:
        return _hardsigmoid(s, alpha, beta)
    if alg == dnnl_eltwise_logistic or alg == dnnl_eltwise_logistic_use_dst_for_bwd:
        return _logistic(s)
    if alg == dnnl_eltwise_exp or alg == dnnl_eltwise_exp_use_dst_for_bwd:
        return expf(s)
    if alg == dnnl_eltwise_gelu_tanh:
        # f32: 0.7978845834732056 * s * (1 + 0.044715 * s * s); then the
        # final 0.5 * s * (1 + v) in double, rounded once to f32.
        t = <float>0.044715 * s
        t = t * s
        t = <float>1.0 + t
        u = <float>0.79788458347320556640625 * s
        u = u * t
        t = tanhf(u)
        d = 0.5 * <double>s
        d = d * (1.0 + <double>t)
        return <float>d
    if alg == dnnl_eltwise_swish:
        t = alpha * s
        return s * _logistic(t)
    if alg == dnnl_eltwise_log:
        return logf(s)
    if alg == dnnl_eltwise_clip:
        t = s if s > alpha else alpha
        return beta if t > beta else t
    if alg == dnnl_eltwise_clip_v2 or alg == dnnl_eltwise_clip_v2_use_dst_for_bwd:
        t = s if s > alpha else alpha
        return t if t < beta else beta
    if alg == dnnl_eltwise_pow:
        return alpha * powf(s, beta)
    if alg == dnnl_eltwise_gelu_erf:
        t = s * <float>0.707106769084930419921875
        t = <float>1.0 + erff(t)
        u = <float>0.5 * s
        return u * t
    if alg == dnnl_eltwise_round:
        return nearbyintf(s)
    if alg == dnnl_eltwise_mish:
        return s * tanhf(_soft_relu(s, 1.0))
    if alg == dnnl_eltwise_hardswish:
        return s * _hardsigmoid(s, alpha, beta)
    return NAN


cdef inline float binary_op(int alg, float a, float b) noexcept nogil:
    """``a (alg) b`` for a binary algorithm; comparisons give 1.0 / 0.0.

    For ``binary_select`` use :func:`select_op`; here it returns NaN.
    """
    if alg == dnnl_binary_add:
        return a + b
    if alg == dnnl_binary_mul:
        return a * b
    if alg == dnnl_binary_max:
        return a if a > b else b
    if alg == dnnl_binary_min:
        return a if a < b else b
    if alg == dnnl_binary_div:
        return a / b
    if alg == dnnl_binary_sub:
        return a - b
    if alg == dnnl_binary_ge:
        return 1.0 if a >= b else 0.0
    if alg == dnnl_binary_gt:
        return 1.0 if a > b else 0.0
    if alg == dnnl_binary_le:
        return 1.0 if a <= b else 0.0
    if alg == dnnl_binary_lt:
        return 1.0 if a < b else 0.0
    if alg == dnnl_binary_eq:
        return 1.0 if a == b else 0.0
    if alg == dnnl_binary_ne:
        return 1.0 if a != b else 0.0
    return NAN


cdef inline float select_op(float cond, float a, float b) noexcept nogil:
    """``binary_select``: ``cond != 0 ? a : b`` (cond = the src2 element)."""
    return a if cond != 0.0 else b


cdef inline float binary_op3(int alg, float a, float b, float c) noexcept nogil:
    """Any binary algorithm, select included (``c`` = its condition)."""
    if alg == dnnl_binary_select:
        return a if c != 0.0 else b
    return binary_op(alg, a, b)
