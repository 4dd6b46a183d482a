# cython: language_level=3
"""Scalar post-op arithmetic shared by every kernel: eltwise and binary.

Each function is the f32 forward formula of oneDNN 3.13's *reference*
implementation (src/cpu/primitive_attr_postops.cpp): one rounding per f32
operation, no fused multiply-add (the build passes -ffp-contract=off), libm
single-precision functions, comparisons written so that NaN takes the same
branch as in the reference.  ``alg`` is a ``dnnl_alg_kind_t`` value.

Kernels ``cimport`` this file; ``dnnl._kernels.postops_api`` exposes
vectorised wrappers for tests.
"""
from libc.math cimport (tanhf, expm1f, sqrtf, log1pf, expf, logf, powf, erff,
                        nearbyintf, NAN)

# dnnl_alg_kind_t values (include/dnnl_types.h); checked against the header
# by tests/test_post_ops.py.
cdef enum:
    ALG_ELTWISE_RELU = 32
    ALG_ELTWISE_TANH = 33
    ALG_ELTWISE_ELU = 34
    ALG_ELTWISE_SQUARE = 35
    ALG_ELTWISE_ABS = 36
    ALG_ELTWISE_SQRT = 37
    ALG_ELTWISE_LINEAR = 38
    ALG_ELTWISE_SOFT_RELU = 39
    ALG_ELTWISE_HARDSIGMOID = 40
    ALG_ELTWISE_LOGISTIC = 41
    ALG_ELTWISE_EXP = 42
    ALG_ELTWISE_GELU_TANH = 43
    ALG_ELTWISE_SWISH = 44
    ALG_ELTWISE_LOG = 45
    ALG_ELTWISE_CLIP = 46
    ALG_ELTWISE_CLIP_V2 = 47
    ALG_ELTWISE_POW = 48
    ALG_ELTWISE_GELU_ERF = 49
    ALG_ELTWISE_ROUND = 50
    ALG_ELTWISE_MISH = 51
    ALG_ELTWISE_HARDSWISH = 52
    ALG_ELTWISE_RELU_USE_DST_FOR_BWD = 256
    ALG_ELTWISE_TANH_USE_DST_FOR_BWD = 257
    ALG_ELTWISE_ELU_USE_DST_FOR_BWD = 258
    ALG_ELTWISE_SQRT_USE_DST_FOR_BWD = 259
    ALG_ELTWISE_LOGISTIC_USE_DST_FOR_BWD = 260
    ALG_ELTWISE_EXP_USE_DST_FOR_BWD = 261
    ALG_ELTWISE_CLIP_V2_USE_DST_FOR_BWD = 262
    ALG_BINARY_ADD = 0x1fff0
    ALG_BINARY_MUL = 0x1fff1
    ALG_BINARY_MAX = 0x1fff2
    ALG_BINARY_MIN = 0x1fff3
    ALG_BINARY_DIV = 0x1fff4
    ALG_BINARY_SUB = 0x1fff5
    ALG_BINARY_GE = 0x1fff6
    ALG_BINARY_GT = 0x1fff7
    ALG_BINARY_LE = 0x1fff8
    ALG_BINARY_LT = 0x1fff9
    ALG_BINARY_EQ = 0x1fffa
    ALG_BINARY_NE = 0x1fffb
    ALG_BINARY_SELECT = 0x1fffc

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
    if alg == ALG_ELTWISE_RELU or alg == ALG_ELTWISE_RELU_USE_DST_FOR_BWD:
        if s > 0.0:
            return s
        return s * alpha
    if alg == ALG_ELTWISE_TANH or alg == ALG_ELTWISE_TANH_USE_DST_FOR_BWD:
        return tanhf(s)
    if alg == ALG_ELTWISE_ELU or alg == ALG_ELTWISE_ELU_USE_DST_FOR_BWD:
        if s > 0.0:
            return s
        return alpha * expm1f(s)
    if alg == ALG_ELTWISE_SQUARE:
        return s * s
    if alg == ALG_ELTWISE_ABS:
        if s > 0.0:
            return s
        return -s
    if alg == ALG_ELTWISE_SQRT or alg == ALG_ELTWISE_SQRT_USE_DST_FOR_BWD:
        return sqrtf(s)
    if alg == ALG_ELTWISE_LINEAR:
        t = alpha * s
        return t + beta
    if alg == ALG_ELTWISE_SOFT_RELU:
        return _soft_relu(s, alpha)
    if alg == ALG_ELTWISE_HARDSIGMOID:
        return _hardsigmoid(s, alpha, beta)
    if alg == ALG_ELTWISE_LOGISTIC or alg == ALG_ELTWISE_LOGISTIC_USE_DST_FOR_BWD:
        return _logistic(s)
    if alg == ALG_ELTWISE_EXP or alg == ALG_ELTWISE_EXP_USE_DST_FOR_BWD:
        return expf(s)
    if alg == ALG_ELTWISE_GELU_TANH:
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
    if alg == ALG_ELTWISE_SWISH:
        t = alpha * s
        return s * _logistic(t)
    if alg == ALG_ELTWISE_LOG:
        return logf(s)
    if alg == ALG_ELTWISE_CLIP:
        t = s if s > alpha else alpha
        return beta if t > beta else t
    if alg == ALG_ELTWISE_CLIP_V2 or alg == ALG_ELTWISE_CLIP_V2_USE_DST_FOR_BWD:
        t = s if s > alpha else alpha
        return t if t < beta else beta
    if alg == ALG_ELTWISE_POW:
        return alpha * powf(s, beta)
    if alg == ALG_ELTWISE_GELU_ERF:
        t = s * <float>0.707106769084930419921875
        t = <float>1.0 + erff(t)
        u = <float>0.5 * s
        return u * t
    if alg == ALG_ELTWISE_ROUND:
        return nearbyintf(s)
    if alg == ALG_ELTWISE_MISH:
        return s * tanhf(_soft_relu(s, 1.0))
    if alg == ALG_ELTWISE_HARDSWISH:
        return s * _hardsigmoid(s, alpha, beta)
    return NAN


cdef inline float binary_op(int alg, float a, float b) noexcept nogil:
    """``a (alg) b`` for a binary algorithm; comparisons give 1.0 / 0.0.

    For ``binary_select`` use :func:`select_op`; here it returns NaN.
    """
    if alg == ALG_BINARY_ADD:
        return a + b
    if alg == ALG_BINARY_MUL:
        return a * b
    if alg == ALG_BINARY_MAX:
        return a if a > b else b
    if alg == ALG_BINARY_MIN:
        return a if a < b else b
    if alg == ALG_BINARY_DIV:
        return a / b
    if alg == ALG_BINARY_SUB:
        return a - b
    if alg == ALG_BINARY_GE:
        return 1.0 if a >= b else 0.0
    if alg == ALG_BINARY_GT:
        return 1.0 if a > b else 0.0
    if alg == ALG_BINARY_LE:
        return 1.0 if a <= b else 0.0
    if alg == ALG_BINARY_LT:
        return 1.0 if a < b else 0.0
    if alg == ALG_BINARY_EQ:
        return 1.0 if a == b else 0.0
    if alg == ALG_BINARY_NE:
        return 1.0 if a != b else 0.0
    return NAN


cdef inline float select_op(float cond, float a, float b) noexcept nogil:
    """``binary_select``: ``cond != 0 ? a : b`` (cond = the src2 element)."""
    return a if cond != 0.0 else b


cdef inline float binary_op3(int alg, float a, float b, float c) noexcept nogil:
    """Any binary algorithm, select included (``c`` = its condition)."""
    if alg == ALG_BINARY_SELECT:
        return a if c != 0.0 else b
    return binary_op(alg, a, b)
