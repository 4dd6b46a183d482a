"""Slow, obviously-correct numpy reference of every framework's resize mode.

Written from the ONNX operator specification (Resize, opset 19: the modes,
``coordinate_transformation_mode``, ``nearest_mode``, ``cubic_coeff_a``,
``exclude_outside``, ``antialias``, ``keep_aspect_ratio_policy``,
``scales`` / ``sizes`` and ``roi``), plus two averaging modes ONNX lacks:

* ``"area"``: PyTorch's ``F.interpolate(mode="area")``, adaptive average
  pooling: output ``o`` averages the inputs ``floor(o * in / out)`` to
  ``ceil((o + 1) * in / out) - 1``;
* ``"box"``: the exact area-overlap average (OpenCV's ``INTER_AREA``): output
  ``o`` covers ``[o * in / out, (o + 1) * in / out)`` of the input axis, and
  each input pixel ``[i, i + 1)`` weighs by its overlap with it (computed
  here in exact fractions).

Every mode is separable: each spatial axis is a matrix ``M`` (out x in) and a
bias vector (``extrapolation_value`` where ``tf_crop_and_resize`` falls
outside the input, else 0), built output by output from the formulas, in
float64; the axes are applied one after the other (D, H, W), in float64.
Works on logical arrays ``N x C x spatial...``; ``size``, ``scales`` and
``roi`` (the starts, then the ends) are given for the spatial dims only.

* :func:`forward` -> the float64 result;
* :func:`backward` -> the gradient: the transposed matrices, in float64.
"""
import math
from fractions import Fraction

import numpy as np

MODES = ("nearest", "linear", "cubic", "area", "box")
TRANSFORMS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
              "asymmetric", "tf_crop_and_resize")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
POLICIES = ("stretch", "not_larger", "not_smaller")


def output_sizes(in_spatial, size=None, scales=None, keep_aspect_ratio_policy="stretch"):
    """``(out sizes, scales)`` per spatial axis, ONNX's rule.

    With ``size``: the scale of an axis is ``out / in``; a policy other than
    ``stretch`` uses one scale for every axis (the smallest, ``not_larger``,
    or the largest, ``not_smaller``, of ``size / in``) and the size becomes
    ``floor(scale * in + 0.5)``. With ``scales``: ``out = floor(in * scale)``.
    The scales are Fractions when exact (from sizes), else floats."""
    in_spatial = [int(v) for v in in_spatial]
    if scales is not None:
        sc = [float(s) for s in scales]
        return [int(math.floor(n * s)) for n, s in zip(in_spatial, sc)], sc
    out = [int(v) for v in size]
    sc = [Fraction(o, n) for o, n in zip(out, in_spatial)]
    if keep_aspect_ratio_policy != "stretch":
        s = min(sc) if keep_aspect_ratio_policy == "not_larger" else max(sc)
        sc = [s] * len(sc)
        out = [int(math.floor(s * n + Fraction(1, 2))) for n in in_spatial]
    return out, sc


def coordinate(o, n_in, n_out, scale, transform, roi_start=0.0, roi_end=1.0):
    """The input coordinate of output index ``o`` (ONNX's formulas; the
    resized length is ``n_in * scale``, which is ``n_out`` for sizes), an
    exact Fraction (a float scale or roi at its exact binary value)."""
    scale, roi_start, roi_end = Fraction(scale), Fraction(roi_start), Fraction(roi_end)
    length = n_in * scale
    h = Fraction(1, 2)
    if transform == "half_pixel":
        return (o + h) / scale - h
    if transform == "half_pixel_symmetric":
        adjustment = n_out / length
        offset = (n_in * h) * (1 - adjustment)
        return offset + (o + h) / scale - h
    if transform == "pytorch_half_pixel":
        return (o + h) / scale - h if n_out > 1 else -h
    if transform == "align_corners":
        return Fraction(0) if n_out == 1 or length == 1 else o * (n_in - 1) / (length - 1)
    if transform == "asymmetric":
        return o / scale
    if transform == "tf_crop_and_resize":
        if n_out == 1 or length == 1:
            return 0.5 * (roi_start + roi_end) * (n_in - 1)
        return roi_start * (n_in - 1) + o * (roi_end - roi_start) * (n_in - 1) / (length - 1)
    raise ValueError("unknown coordinate_transformation_mode %r" % (transform,))


def cubic(d, a):
    """Keys' cubic convolution kernel with coefficient ``a``."""
    d = abs(d)
    if d <= 1:
        return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
    if d < 2:
        return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a
    return 0.0


def triangle(d):
    return max(0.0, 1 - abs(d))


def _nearest(x, rule):
    f = math.floor(x)
    if rule == "floor":
        return f
    if rule == "ceil":
        return math.ceil(x)
    frac = x - f
    if frac == 0.5:
        return f if rule == "round_prefer_floor" else f + 1
    return f if frac < 0.5 else f + 1


def axis_matrix(n_in, n_out, scale, mode="linear", transform="half_pixel",
                nearest_mode="round_prefer_ceil", cubic_coeff_a=-0.75, exclude_outside=False,
                antialias=False, roi_start=0.0, roi_end=1.0, extrapolation_value=0.0):
    """``(M, bias)`` of one axis: output ``o`` is ``M[o] @ x + bias[o]``."""
    m = np.zeros((n_out, n_in))
    bias = np.zeros(n_out)
    for o in range(n_out):
        if mode == "area":
            lo, hi = (o * n_in) // n_out, -((-(o + 1) * n_in) // n_out)
            m[o, lo:hi] = 1.0 / (hi - lo)
            continue
        if mode == "box":
            lo, hi = Fraction(o * n_in, n_out), Fraction((o + 1) * n_in, n_out)
            for i in range(n_in):
                overlap = min(hi, i + 1) - max(lo, i)
                if overlap > 0:
                    m[o, i] = float(overlap / (hi - lo))
            continue
        exact = coordinate(o, n_in, n_out, scale, transform, roi_start, roi_end)
        if transform == "tf_crop_and_resize" and not 0 <= exact <= n_in - 1:
            bias[o] = extrapolation_value
            continue
        if mode == "nearest":
            m[o, min(max(_nearest(exact, nearest_mode), 0), n_in - 1)] = 1.0
            continue
        x = float(exact)
        reach = 1.0 if mode == "linear" else 2.0
        s = min(float(scale), 1.0) if antialias else 1.0       # the filter's stretch
        taps = [i for i in range(math.floor(x - reach / s), math.ceil(x + reach / s) + 1)
                if abs(i - x) * s < reach]
        w = [triangle((i - x) * s) if mode == "linear" else cubic((i - x) * s, cubic_coeff_a)
             for i in taps]
        if exclude_outside:
            w = [wi if 0 <= i < n_in else 0.0 for wi, i in zip(w, taps)]
        if antialias or exclude_outside:
            total = sum(w)
            w = [wi / total for wi in w] if total else w
        for i, wi in zip(taps, w):
            m[o, min(max(i, 0), n_in - 1)] += wi         # outside: the edge's value
    return m, bias


def axis_matrices(in_spatial, size=None, scales=None, *, mode="linear",
                  coordinate_transformation_mode="half_pixel",
                  nearest_mode="round_prefer_ceil", cubic_coeff_a=-0.75, exclude_outside=False,
                  antialias=False, keep_aspect_ratio_policy="stretch", roi=None,
                  extrapolation_value=0.0):
    """The ``(M, bias)`` of every spatial axis."""
    out, sc = output_sizes(in_spatial, size, scales, keep_aspect_ratio_policy)
    k = len(out)
    roi = [0.0] * k + [1.0] * k if roi is None else [float(r) for r in roi]
    return [axis_matrix(int(in_spatial[i]), out[i], sc[i], mode,
                        coordinate_transformation_mode, nearest_mode, float(cubic_coeff_a),
                        bool(exclude_outside), bool(antialias), roi[i], roi[k + i],
                        float(extrapolation_value))
            for i in range(k)]


def _apply(x, mats, transpose=False):
    r = np.asarray(x, dtype=np.float64)
    order = range(len(mats)) if not transpose else reversed(range(len(mats)))
    for i in order:
        m, bias = mats[i]
        if transpose:
            m, bias = m.T, np.zeros(m.shape[1])
        r = np.moveaxis(np.tensordot(m, np.moveaxis(r, 2 + i, 0), axes=1), 0, 2 + i)
        r = r + bias.reshape((-1,) + (1,) * (r.ndim - 3 - i))
    return r


def forward(src, size=None, scales=None, **options):
    """The float64 resize of the logical array ``src`` (N, C, spatial...);
    ``options`` as :func:`axis_matrices`."""
    src = np.asarray(src)
    return _apply(src, axis_matrices(src.shape[2:], size, scales, **options))


def backward(diff_dst, in_spatial, size=None, scales=None, **options):
    """The float64 gradient of :func:`forward` with respect to its input of
    spatial shape ``in_spatial``."""
    return _apply(diff_dst, axis_matrices(in_spatial, size, scales, **options), True)
