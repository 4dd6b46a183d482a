"""Slow, obviously-correct numpy reference of post-ops (src/cpu/primitive_attr_postops.cpp).

Independent of the Cython formulas (``dnnl/_kernels/postops.pxd``):

* every eltwise formula is written in numpy float32 arithmetic in the same
  order of operations as oneDNN's reference (``math::*_fwd``), one rounding
  per operation;
* the libm functions (tanh, expm1, exp, log1p, log, pow, erf) are computed in
  float64 and rounded once to float32, i.e. a *correctly rounded* libm
  (glibc's single-precision functions, which the kernels and real oneDNN
  use, are within 1-2 ulp of that; tests state the tolerance);
* ``gelu_tanh``'s final ``0.5 * s * (1 + v)`` is done in float64 and rounded
  once, as the reference does;
* binary algorithms: f32 arithmetic, comparisons give 1.0 / 0.0, max/min
  follow ``x > y ? x : y`` / ``x < y ? x : y`` (NaN asymmetry included);
* :func:`apply_post_ops` runs a whole chain on logical arrays.

Eltwise algorithms are named by their ``dnnl_alg_kind_t`` value or by the
enum member (``dnnl.algorithm.eltwise_relu``).
"""
import math

import numpy as np

from dnnl._core.enums import algorithm as _A, data_type as _DT
from dnnl.testing import dtypes as _dtypes

f32 = np.float32
_BOUND = f32(88.72283172607421875)

__all__ = ["eltwise", "binary", "apply_post_ops", "ELTWISE_EXACT", "ELTWISE_ALGS",
           "BINARY_ALGS"]

#: Every forward eltwise algorithm of oneDNN 3.13.
ELTWISE_ALGS = tuple(a for a in _A if a.name.startswith("eltwise_"))
#: Every binary algorithm of oneDNN 3.13 (select included).
BINARY_ALGS = tuple(a for a in _A if a.name.startswith("binary_"))

#: Algorithms whose reference formula uses only +, -, *, /, comparisons,
#: sqrt and rounding (all correctly rounded): results must be bit exact.
ELTWISE_EXACT = frozenset({_A.eltwise_relu, _A.eltwise_relu_use_dst_for_bwd,
                           _A.eltwise_square, _A.eltwise_abs, _A.eltwise_sqrt,
                           _A.eltwise_sqrt_use_dst_for_bwd, _A.eltwise_linear,
                           _A.eltwise_hardsigmoid, _A.eltwise_clip, _A.eltwise_clip_v2,
                           _A.eltwise_clip_v2_use_dst_for_bwd, _A.eltwise_round,
                           _A.eltwise_hardswish})

_BASE = {_A.eltwise_relu_use_dst_for_bwd: _A.eltwise_relu,
         _A.eltwise_tanh_use_dst_for_bwd: _A.eltwise_tanh,
         _A.eltwise_elu_use_dst_for_bwd: _A.eltwise_elu,
         _A.eltwise_sqrt_use_dst_for_bwd: _A.eltwise_sqrt,
         _A.eltwise_logistic_use_dst_for_bwd: _A.eltwise_logistic,
         _A.eltwise_exp_use_dst_for_bwd: _A.eltwise_exp,
         _A.eltwise_clip_v2_use_dst_for_bwd: _A.eltwise_clip_v2}


def _libm(fn, x):
    """A correctly rounded single-precision libm function: float64 then f32."""
    with np.errstate(all="ignore"):
        return fn(np.asarray(x, np.float64)).astype(f32)


def _erf64(x):
    v = np.vectorize(math.erf, otypes=[np.float64])
    return v(x) if np.size(x) else np.asarray(x, np.float64)


def _pow64(x, y):
    """C99 ``pow`` in float64 (numpy gives NaN for pow(-inf, 0.5))."""
    r = np.power(x, y)
    if math.isfinite(y) and y != 0:
        odd = float(y).is_integer() and int(y) % 2 == 1
        neg_inf = np.isneginf(x)
        if y > 0:
            r = np.where(neg_inf, -np.inf if odd else np.inf, r)
        else:
            r = np.where(neg_inf, -0.0 if odd else 0.0, r)
    return r


def _logistic(s):
    t = -s
    with np.errstate(all="ignore"):
        e = _libm(np.exp, t)
        r = f32(1) / (f32(1) + e)
    # NaN: the comparison is false, result 0
    return np.where(t < _BOUND, r, f32(0)).astype(f32)


def _soft_relu(s, alpha):
    with np.errstate(all="ignore"):
        t = s * f32(alpha)
        v = np.where(t < _BOUND, _libm(np.log1p, _libm(np.exp, t)), t).astype(f32)
        return (v / f32(alpha)).astype(f32)


def _hardsigmoid(s, alpha, beta):
    with np.errstate(all="ignore"):
        v = (f32(alpha) * s) + f32(beta)
    return np.where(v <= 0, f32(0), np.where(v >= 1, f32(1), v)).astype(f32)


def eltwise(x, alg, alpha=0.0, beta=0.0):
    """Forward eltwise ``alg`` of float32 ``x`` (returns float32).

    >>> import dnnl
    >>> eltwise([-1.0, 2.5], dnnl.algorithm.eltwise_relu, 0.5).tolist()
    [-0.5, 2.5]
    >>> eltwise([0.5, 1.5, 2.5, -2.5], dnnl.algorithm.eltwise_round).tolist()
    [0.0, 2.0, 2.0, -2.0]
    >>> eltwise([float("nan")], dnnl.algorithm.eltwise_clip, -1, 1).tolist()
    [-1.0]
    """
    s = np.asarray(x, dtype=f32)
    a, b = f32(alpha), f32(beta)
    alg = _BASE.get(_A(int(alg)), _A(int(alg)))
    with np.errstate(all="ignore"):
        if alg == _A.eltwise_relu:
            r = np.where(s > 0, s, s * a)
        elif alg == _A.eltwise_tanh:
            r = _libm(np.tanh, s)
        elif alg == _A.eltwise_elu:
            r = np.where(s > 0, s, a * _libm(np.expm1, s))
        elif alg == _A.eltwise_square:
            r = s * s
        elif alg == _A.eltwise_abs:
            r = np.where(s > 0, s, -s)
        elif alg == _A.eltwise_sqrt:
            r = np.sqrt(s)
        elif alg == _A.eltwise_linear:
            r = (a * s) + b
        elif alg == _A.eltwise_soft_relu:
            r = _soft_relu(s, a)
        elif alg == _A.eltwise_hardsigmoid:
            r = _hardsigmoid(s, a, b)
        elif alg == _A.eltwise_logistic:
            r = _logistic(s)
        elif alg == _A.eltwise_exp:
            r = _libm(np.exp, s)
        elif alg == _A.eltwise_gelu_tanh:
            t = (f32(0.044715) * s) * s
            u = (f32(0.79788458347320556640625) * s) * (f32(1) + t)
            v = _libm(np.tanh, u)
            r = ((0.5 * s.astype(np.float64)) * (1.0 + v.astype(np.float64))).astype(f32)
        elif alg == _A.eltwise_swish:
            r = s * _logistic(a * s)
        elif alg == _A.eltwise_log:
            r = _libm(np.log, s)
        elif alg == _A.eltwise_clip:
            t = np.where(s > a, s, a)
            r = np.where(t > b, b, t)
        elif alg == _A.eltwise_clip_v2:
            t = np.where(s > a, s, a)
            r = np.where(t < b, t, b)
        elif alg == _A.eltwise_pow:
            r = a * _libm(lambda v: _pow64(v, np.float64(b)), s)
        elif alg == _A.eltwise_gelu_erf:
            t = s * f32(0.707106769084930419921875)
            e = _libm(_erf64, t)
            r = (f32(0.5) * s) * (f32(1) + e)
        elif alg == _A.eltwise_round:
            r = np.rint(s)  # half to even, as nearbyintf in the default mode
        elif alg == _A.eltwise_mish:
            r = s * _libm(np.tanh, _soft_relu(s, f32(1)))
        elif alg == _A.eltwise_hardswish:
            r = s * _hardsigmoid(s, a, b)
        else:
            raise ValueError("not an eltwise algorithm: %r" % (alg,))
    return np.asarray(r, dtype=f32)


def binary(x, y, alg, cond=None):
    """``x (alg) y`` in float32 with numpy broadcasting; select uses ``cond``.

    >>> import dnnl
    >>> binary([1.0, 5.0], [3.0], dnnl.algorithm.binary_ge).tolist()
    [0.0, 1.0]
    >>> binary([1.0, 5.0], [3.0], dnnl.algorithm.binary_select, [1, 0]).tolist()
    [1.0, 3.0]
    """
    x = np.asarray(x, dtype=f32)
    y = np.asarray(y, dtype=f32)
    alg = _A(int(alg))
    one, zero = f32(1), f32(0)
    with np.errstate(all="ignore"):
        if alg == _A.binary_add:
            r = x + y
        elif alg == _A.binary_mul:
            r = x * y
        elif alg == _A.binary_max:
            r = np.where(x > y, x, y)
        elif alg == _A.binary_min:
            r = np.where(x < y, x, y)
        elif alg == _A.binary_div:
            r = x / y
        elif alg == _A.binary_sub:
            r = x - y
        elif alg == _A.binary_ge:
            r = np.where(x >= y, one, zero)
        elif alg == _A.binary_gt:
            r = np.where(x > y, one, zero)
        elif alg == _A.binary_le:
            r = np.where(x <= y, one, zero)
        elif alg == _A.binary_lt:
            r = np.where(x < y, one, zero)
        elif alg == _A.binary_eq:
            r = np.where(x == y, one, zero)
        elif alg == _A.binary_ne:
            r = np.where(x != y, one, zero)
        elif alg == _A.binary_select:
            if cond is None:
                raise ValueError("binary_select needs cond")
            r = np.where(np.asarray(cond) != 0, x, y)
        else:
            raise ValueError("not a binary algorithm: %r" % (alg,))
    return np.asarray(r, dtype=f32)


def _old_to_f32(old, dst_dt, sum_dt):
    """The old destination values as f32, read with the sum's data type.

    ``old`` holds either values (float / ml_dtypes arrays) or codes in the
    convention of :mod:`dnnl.testing.dtypes` (uint16 for f16 / bf16, ...).
    """
    old = np.asarray(old)
    dst_dt = _DT(int(dst_dt))
    sum_dt = dst_dt if sum_dt is None or int(sum_dt) == 0 else _DT(int(sum_dt))
    is_values = np.issubdtype(old.dtype, np.floating) or old.dtype.kind == "V" or \
        old.dtype.name in ("bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e8m0fnu")
    if sum_dt == dst_dt:
        if is_values:
            return old.astype(f32)
        return _dtypes.decode(old, int(dst_dt)).reshape(old.shape)
    # bit reinterpretation: the dst codes read as sum_dt codes (same size)
    if is_values:
        codes = _dtypes.encode(old.astype(f32), int(dst_dt))
    else:
        codes = old
    raw = _dtypes.to_bytes(codes, int(dst_dt))
    new = _dtypes.from_bytes(raw, int(sum_dt), old.size)
    return _dtypes.decode(new, int(sum_dt)).reshape(old.shape)


def apply_post_ops(acc, post_ops, dst_old=None, dst_dt=_DT.f32, src1_arrays=None,
                   src2_arrays=None):
    """Run a post-op chain on ``acc`` (float32, logical dst shape); f32 result.

    Parameters
    ----------
    acc : array_like
        The primitive's f32 result before post-ops.
    post_ops : dnnl.post_ops or sequence of entries
    dst_old : array_like, optional
        The destination's previous contents (logical shape), needed by a sum:
        values, or codes of ``dst_dt`` (see :mod:`dnnl.testing.dtypes`).
    dst_dt : data type of the destination (default f32).
    src1_arrays : dict or list
        ``{index in the chain: logical src1 array}`` for binary entries (and
        prelu weights); shapes broadcast with numpy (dims of size 1).
    src2_arrays : dict or list
        The condition tensors of ``binary_select`` entries.

    Notes
    -----
    ``sum``: ``r += scale * (f32(old as sum_dt) - zero_point)``;
    ``eltwise``: ``r = eltwise(r) * scale``; ``binary``: ``r = r op src1``;
    ``prelu``: ``r = r >= 0 ? r : w * r``. The final conversion to ``dst_dt``
    (dst scale, zero point, saturation, rounding) is the caller's.

    >>> import dnnl, numpy as np
    >>> from dnnl.attr import post_ops
    >>> po = post_ops()
    >>> po.append_sum(0.5)
    >>> po.append_eltwise(dnnl.algorithm.eltwise_linear, 2.0, 1.0)
    >>> apply_post_ops(np.float32([1, 2]), po, dst_old=np.float32([4, 6])).tolist()
    [7.0, 11.0]
    """
    from dnnl.attr import binary_entry, eltwise_entry, prelu_entry, sum_entry

    r = np.array(acc, dtype=f32, copy=True)
    entries = post_ops.entries if hasattr(post_ops, "entries") else tuple(post_ops)

    def _get(arrays, i):
        if arrays is None:
            return None
        if isinstance(arrays, dict):
            return arrays.get(i)
        return arrays[i] if i < len(arrays) else None

    with np.errstate(all="ignore"):
        for i, e in enumerate(entries):
            if isinstance(e, sum_entry):
                if dst_old is None:
                    raise ValueError("a sum post-op needs dst_old")
                old = _old_to_f32(dst_old, dst_dt, e.data_type)
                r = r + f32(e.scale) * (old - f32(e.zero_point))
            elif isinstance(e, eltwise_entry):
                r = eltwise(r, e.alg, e.alpha, e.beta)
                if e.scale != 1.0:
                    r = r * f32(e.scale)
            elif isinstance(e, binary_entry):
                s1 = _get(src1_arrays, i)
                if s1 is None:
                    raise ValueError("binary post-op %d needs src1" % i)
                s1 = np.asarray(s1).astype(f32)
                cond = _get(src2_arrays, i) if e.alg == _A.binary_select else None
                r = binary(r, s1, e.alg, cond)
            elif isinstance(e, prelu_entry):
                w = np.asarray(_get(src1_arrays, i), dtype=f32)
                r = np.where(r >= 0, r, w * r)
            else:
                raise ValueError("unsupported post-op %r" % (e,))
            r = np.asarray(r, dtype=f32)
    return r
