"""Slow, obviously-correct numpy reference of the resampling primitive.

Works on logical arrays (``N x C x [D x] [H x] W``), independent of the
Cython kernels and of the coefficient code in ``dnnl/resampling.py``. The
formulas are oneDNN 3.13's ``ref:any`` (src/cpu/ref_resampling.cpp,
src/cpu/resampling_utils.hpp). Every arithmetic step is a numpy float32 operation
(one rounding each, no fused multiply-add).

* :func:`forward` -> the f32 result after post-ops (before the final
  conversion); :func:`forward_codes` converts it to the destination type.
* :func:`backward` -> diff_src in f32 (before conversion): linear as the
  library's gather (summation order d-tap, h-tap, w-tap, od,
  oh, ow); nearest as the exact transpose of the forward mapping (our
  policy, docs/internals/semantics.md), accumulated in increasing output order.
"""
import numpy as np

from dnnl.testing import dtypes as _dtypes
from dnnl.testing.post_ops import apply_post_ops

f32 = np.float32
NEAREST = "nearest"
LINEAR = "linear"


def _alg_name(alg):
    if isinstance(alg, str):
        name = alg.replace("resampling_", "")
    else:
        name = {0x2fff0: NEAREST, 0x2fff1: LINEAR}[int(alg)]
    if name not in (NEAREST, LINEAR):
        raise ValueError("unknown resampling algorithm %r" % (alg,))
    return name


def coordinate(o, n_out, n_in):
    """``((o + 0.5) * n_in) / n_out - 0.5``, each step rounded to f32."""
    with np.errstate(all="ignore"):
        x = np.asarray(o).astype(f32)
        x = x + f32(0.5)
        x = x * f32(n_in)
        x = x / f32(n_out)
        return (x - f32(0.5)).astype(f32)


def round_half_away(x):
    """C ``roundf`` on f32 values (exact in float64)."""
    x = np.asarray(x, dtype=np.float64)
    return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)


def ceil_index(x):
    """``0`` below zero, else the smallest integer >= x."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < 0, 0, np.ceil(x)).astype(np.int64)


def nearest_map(n_in, n_out):
    return round_half_away(coordinate(np.arange(n_out), n_out, n_in))


def linear_map(n_in, n_out):
    """``(left, right, w_left)`` per output index."""
    s = coordinate(np.arange(n_out), n_out, n_in)
    left = np.maximum(np.trunc(s.astype(np.float64)).astype(np.int64), 0)
    right = np.minimum(ceil_index(s), n_in - 1)
    w_right = np.abs(s - left.astype(f32)).astype(f32)
    return left, right, (f32(1) - w_right).astype(f32)


def _lerp(a, b, w):
    """``a * w + b * (1 - w)`` in f32 (``1 - w`` recomputed, as the reference)."""
    return (a * w + b * (f32(1) - w)).astype(f32)


def _take(x, axis, idx):
    return np.take(x, idx, axis=axis)


def forward(src, out_spatial, alg, post_ops=None, dst_old=None, dst_dt=_dtypes.F32,
            src1_arrays=None):
    """f32 result of forward resampling of the logical array ``src``.

    ``out_spatial``: output spatial dims. Post-ops (sum / eltwise / binary)
    are applied with :func:`dnnl.testing.post_ops.apply_post_ops`.
    """
    src = np.asarray(src).astype(f32)
    alg = _alg_name(alg)
    nd = src.ndim
    k = nd - 2
    out_spatial = tuple(int(x) for x in out_spatial)
    with np.errstate(all="ignore"):
        if alg == NEAREST:
            r = src
            for i in range(k):
                r = _take(r, 2 + i, nearest_map(src.shape[2 + i], out_spatial[i]))
        else:
            # gather the 2^k corners, then interpolate D, then H, then W
            maps = [linear_map(src.shape[2 + i], out_spatial[i]) for i in range(k)]

            def corner(bits):
                r = src
                for i in range(k):
                    r = _take(r, 2 + i, maps[i][bits[i]])
                return r

            def shape_w(i):
                w = maps[i][2]
                shp = [1] * nd
                shp[2 + i] = w.size
                return w.reshape(shp)

            corners = {}
            for t in range(1 << k):
                bits = tuple((t >> (k - 1 - i)) & 1 for i in range(k))
                corners[bits] = corner(bits)
            # reduce the first remaining axis each time (D, then H, then W)
            for i in range(k):
                w = shape_w(i)
                new = {}
                for bits, a in corners.items():
                    if bits[0] == 0:
                        b = corners[(1,) + bits[1:]]
                        new[bits[1:]] = _lerp(a, b, w)
                corners = new
            r = corners[()]
        r = np.asarray(r, dtype=f32)
        if post_ops is not None and len(getattr(post_ops, "entries", post_ops)):
            r = apply_post_ops(r, post_ops, dst_old=dst_old, dst_dt=dst_dt,
                               src1_arrays=src1_arrays)
    return r


def forward_codes(src, out_spatial, alg, dst_dt=_dtypes.F32, **kw):
    """Forward resampling converted to ``dst_dt`` codes (see dnnl.testing.dtypes)."""
    r = forward(src, out_spatial, alg, dst_dt=dst_dt, **kw)
    return _dtypes.encode(r.reshape(-1), int(dst_dt)).reshape(r.shape)


def _linear_ranges(n_in, n_out):
    """Gather ranges for each input index: [(start, end) left, right]."""
    out = []
    for x in range(n_in):
        ls = 0 if x == 0 else int(ceil_index(coordinate(x, n_in, n_out)))
        le = min(int(ceil_index(coordinate(x + 1, n_in, n_out))), n_out)
        s = float(coordinate(x - 1, n_in, n_out))
        rs = 0 if s < 0 else int(np.trunc(s)) + 1
        if x == n_in - 1:
            re = n_out
        else:
            s2 = float(coordinate(x, n_in, n_out))
            re = min(0 if s2 < 0 else int(np.trunc(s2)) + 1, n_out)
        out.append(((max(ls, 0), max(le, 0)), (max(rs, 0), max(re, 0))))
    return out


def _linear_weights(n_in, n_out):
    t = coordinate(np.arange(n_out), n_out, n_in)
    w = np.abs(t - np.trunc(t)).astype(f32)
    return (f32(1) - w).astype(f32), w


def backward(diff_dst, in_spatial, alg):
    """f32 diff_src of backward resampling (``in_spatial``: diff_src spatial dims)."""
    dd = np.asarray(diff_dst).astype(f32)
    alg = _alg_name(alg)
    nd = dd.ndim
    k = nd - 2
    in_spatial = tuple(int(x) for x in in_spatial)
    N, C = dd.shape[:2]
    out = np.zeros((N, C) + in_spatial, dtype=f32)
    if out.size == 0 or dd.size == 0:
        return out
    with np.errstate(all="ignore"):
        if alg == NEAREST:
            # scatter every diff_dst element to its forward source, in C order
            maps = [nearest_map(in_spatial[i], dd.shape[2 + i]) for i in range(k)]
            grids = np.meshgrid(*maps, indexing="ij")
            flat = np.zeros(int(np.prod(in_spatial)), dtype=f32)
            lin = np.ravel_multi_index([g.reshape(-1) for g in grids], in_spatial)
            res = out.reshape(N * C, -1)
            for nc in range(N * C):
                flat[:] = 0
                np.add.at(flat, lin, dd.reshape(N * C, -1)[nc])
                res[nc] = flat
            return res.reshape(out.shape)
        ranges = [_linear_ranges(in_spatial[i], dd.shape[2 + i]) for i in range(k)]
        weights = [_linear_weights(in_spatial[i], dd.shape[2 + i]) for i in range(k)]
        it = np.ndindex(*in_spatial)
        for x in it:
            acc = np.zeros((N, C), dtype=f32)
            for roles in np.ndindex(*([2] * k)):
                rngs = [range(*ranges[i][x[i]][roles[i]]) for i in range(k)]
                for o in np.ndindex(*[len(r) for r in rngs]):
                    oo = tuple(rngs[i][o[i]] for i in range(k))
                    v = dd[(slice(None), slice(None)) + oo]
                    for i in range(k):
                        v = (v * weights[i][roles[i]][oo[i]]).astype(f32)
                    acc = (acc + v).astype(f32)
            out[(slice(None), slice(None)) + x] = acc
    return out


def backward_codes(diff_dst, in_spatial, alg, diff_src_dt=_dtypes.F32):
    r = backward(diff_dst, in_spatial, alg)
    return _dtypes.encode(r.reshape(-1), int(diff_src_dt)).reshape(r.shape)


def dst_dims_from_factors(src_dims, factors):
    """Dst dims: ``trunc(double(src dim) * double(f32 factor))`` per spatial dim."""
    return list(src_dims[:2]) + [int(float(d) * float(f32(f)))
                                 for d, f in zip(src_dims[2:], factors)]
