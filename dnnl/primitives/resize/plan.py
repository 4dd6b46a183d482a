"""Resize plans: the weight table of every spatial axis, for every
framework's resize mode, and its application.

Every mode is separable. An axis of ``n_in`` inputs and ``n_out`` outputs is
an :class:`AxisTable`: per output ``o``, the first input it reads
(``first[o]``), ``K`` weights for the inputs ``first[o] .. first[o] + K - 1``
and a bias (``tf_crop_and_resize``'s ``extrapolation_value`` where the
coordinate falls outside the input, else 0). Inputs outside the axis take the
edge's value (ONNX's edge padding), so their weights are added to the edge's.

The coordinates are exact rationals (a scale of sizes is their ratio; a
given float scale and the roi are taken at their exact binary values): the
nearest rules and the crop's bounds decide on the exact value, the filters
take it rounded once to float64; the weights are rounded once to f32.
:func:`forward` / :func:`backward` apply the tables in f32 through the
kernel (``kernel.pyx``: one rounding per product and per sum, taps summed
in order), one axis after the other (forward: D, H, W; backward, the
transpose: W, H, D); :func:`rows` gives :func:`forward`'s values in the
arrays' own types, the last two axes fused a row at a time.
"""
import math
from fractions import Fraction

import numpy as np

from dnnl._core.enums import data_type
from dnnl._kernels import load as _load_kernel

f32 = np.float32
_F32, _U8 = int(data_type.f32), int(data_type.u8)


class AxisTable:
    """One axis's ``first`` (int64, n_out), ``weights`` (f32, n_out x K) and
    ``bias`` (f32, n_out, or None when every bias is 0)."""
    __slots__ = ("n_in", "n_out", "first", "weights", "bias", "picks", "halves", "_elements")

    def __init__(self, n_in, n_out, first, weights, bias=None):
        self.n_in, self.n_out = int(n_in), int(n_out)
        self.first = np.ascontiguousarray(first, dtype=np.int64)
        self.weights = np.ascontiguousarray(weights, dtype=f32)
        self.bias = None if bias is None else np.ascontiguousarray(bias, dtype=f32)
        #: every output is one input (one tap of weight 1, no bias: the
        #: nearest rules): the fused rows copy
        self.picks = self.weights.shape[1] == 1 and self.bias is None and bool(
            (self.weights == 1).all())
        #: every output is inputs 2o and 2o + 1, each weighing 1/2 (no bias:
        #: box and area at half the size): the f32 steps of a u8 image so
        #: halved on both axes are exact, and the fused rows sum integers
        self.halves = self.weights.shape[1] == 2 and self.bias is None and bool(
            (self.weights == f32(0.5)).all() and
            (self.first == 2 * np.arange(self.n_out)).all())
        self._elements = {}

    def elements(self, channels):
        """The table per output element of rows of ``channels`` interleaved
        channels (the fused rows' W step for few channels): the element
        of each one's first tap (int32), the weights transposed (K x
        n_out * channels), the bias (or None), and per ``_BLOCK`` elements
        the window of their taps in the row (start, registers of ``_BLOCK``
        floats: 1 or 2; 3: two windows of 2, for each half of the block, the
        second's start last; 0 where they spread wider), every window inside
        the row, and per ``_HALF`` elements their window tap by tap with
        each element's place in it (:meth:`_tapwise`). Made once per
        count."""
        e = self._elements.get(channels)
        if e is None:
            c = np.arange(channels, dtype=np.int64)
            idx = (self.first[:, None] * channels + c).reshape(-1)
            w = np.ascontiguousarray(np.repeat(self.weights.T, channels, axis=1))
            b = None if self.bias is None else np.repeat(self.bias, channels)
            e = self._elements[channels] = (idx.astype(np.int32), w, b,
                                            self._windows(idx, channels, _BLOCK),
                                            self._tapwise(idx, channels, _HALF))
        return e

    def _tapwise(self, idx, channels, width):
        """Per ``width`` elements, the start of a window of ``width`` floats
        that holds their first taps, where tap t's window is the same moved
        by t pixels (so one index serves every tap: AVX2's one-register
        permute, where the taps together spread wider), every tap's window
        inside the row, -1 where none does; and per element its first tap's
        place in its window (0 where there is none)."""
        row = self.n_in * channels
        span = (self.weights.shape[1] - 1) * channels       # to the last tap's window
        nh = idx.size // width
        part = idx[:nh * width].reshape(nh, width)
        lo, hi = part.min(axis=1), part.max(axis=1)
        start = np.maximum(0, np.minimum(lo, row - width - span))
        fits = (row >= width + span) & (lo >= start) & (hi < start + width)
        start = np.where(fits, start, -1).astype(np.int32)
        # each element's first tap in its window (the permute's index)
        rel = np.zeros(idx.size, np.int32)
        rel[:nh * width] = np.where(fits[:, None], part - start[:, None], 0).reshape(-1)
        return start, rel

    def _windows(self, idx, channels, block):
        row = self.n_in * channels
        nb = idx.size // block
        blocks = idx[:nb * block].reshape(nb, block)
        span = (self.weights.shape[1] - 1) * channels       # to the last tap
        win = np.zeros((nb, 3), np.int32)

        def fit(lo, hi, width):
            start = np.maximum(0, np.minimum(lo, row - width))
            return start, (row >= width) & (hi < start + width) & (lo >= start)
        # two windows of two registers, one per half (a shrink), where one
        # of two does not hold the block
        half = block // 2
        s1, f1 = fit(blocks[:, :half].min(axis=1), blocks[:, :half].max(axis=1) + span,
                     2 * block)
        s2, f2 = fit(blocks[:, half:].min(axis=1), blocks[:, half:].max(axis=1) + span,
                     2 * block)
        both = f1 & f2
        win[both] = np.stack([s1[both], np.full(both.sum(), 3), s2[both]], axis=1)
        lo, hi = blocks.min(axis=1), blocks.max(axis=1) + span
        for regs in (2, 1):             # the narrowest that holds the block
            start, fits = fit(lo, hi, regs * block)
            win[fits] = np.stack([start[fits], np.full(fits.sum(), regs),
                                  np.zeros(fits.sum(), np.int64)], axis=1)
        return win

    def __repr__(self):
        return "AxisTable(%d -> %d, %d taps)" % (self.n_in, self.n_out, self.weights.shape[1])

    def dense(self):
        """The table as an n_out x n_in float64 matrix."""
        m = np.zeros((self.n_out, self.n_in))
        rows = np.arange(self.n_out)[:, None]
        np.add.at(m, (rows, self.first[:, None] + np.arange(self.weights.shape[1])),
                  self.weights.astype(np.float64))
        return m


# ------------------------------------------------------------ coordinates
class Coordinates:
    """The input coordinate of every output index, exactly: ``num / den``
    (``num`` Python integers, in an object array; ``den`` one integer).
    Every mapping is affine in ``o``, so ``num = a + b * o``."""
    __slots__ = ("num", "den")

    def __init__(self, a, b, n_out):
        den = a.denominator * b.denominator // math.gcd(a.denominator, b.denominator)
        self.den = den
        o = np.arange(n_out, dtype=np.int64).astype(object)     # Python integers
        self.num = o * (b.numerator * (den // b.denominator)) + a.numerator * (den // a.denominator)

    def values(self):
        """float64, each the exact value rounded once."""
        return np.array([n / self.den for n in self.num], dtype=np.float64)

    def floor(self):
        return np.array([n // self.den for n in self.num], dtype=np.int64)

    def ceil(self):
        return np.array([-(-n // self.den) for n in self.num], dtype=np.int64)

    def round(self, prefer_floor):
        """The nearest integer, a tie to the smaller (``prefer_floor``) or larger."""
        d = self.den
        return np.array([n // d + ((2 * (n % d) > d) if prefer_floor else (2 * (n % d) >= d))
                         for n in self.num], dtype=np.int64)

    def outside(self, n_in):
        """Where the coordinate is below 0 or above ``n_in - 1``."""
        top = (n_in - 1) * self.den
        return np.array([n < 0 or n > top for n in self.num], dtype=bool)


def coordinates(n_in, n_out, scale, transform, roi_start=0.0, roi_end=1.0):
    """ONNX's coordinate of every output index (:class:`Coordinates`), in
    exact rational arithmetic from ``scale`` (a Fraction of sizes, or a
    float taken at its exact binary value) and the roi (likewise)."""
    s, h = Fraction(scale), Fraction(1, 2)
    length = n_in * s
    zero = Fraction(0)
    if transform == "pytorch_half_pixel":
        transform = "half_pixel" if n_out > 1 else "minus_half"
    if transform == "half_pixel":                         # (o + 1/2) / s - 1/2
        a, b = h / s - h, 1 / s
    elif transform == "half_pixel_symmetric":
        a, b = n_in * h * (1 - n_out / length) + h / s - h, 1 / s
    elif transform == "minus_half":
        a, b = -h, zero
    elif transform == "asymmetric":
        a, b = zero, 1 / s
    elif transform == "align_corners":
        flat = n_out == 1 or length == 1
        a, b = zero, zero if flat else (n_in - 1) / (length - 1)
    elif transform == "tf_crop_and_resize":
        r0, r1 = Fraction(roi_start), Fraction(roi_end)
        if n_out == 1 or length == 1:
            a, b = (r0 + r1) * h * (n_in - 1), zero
        else:
            a, b = r0 * (n_in - 1), (r1 - r0) * (n_in - 1) / (length - 1)
    else:
        raise ValueError("unknown coordinate transformation %r" % (transform,))
    return Coordinates(Fraction(a), Fraction(b), n_out)


# ---------------------------------------------------------------- filters
def _triangle(d):
    return np.maximum(0.0, 1.0 - np.abs(d))


def _cubic(d, a):
    d = np.abs(d)
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, np.where(d < 2, far, 0.0))


def _fold(n_in, idx, w, bias=None):
    """The AxisTable of taps ``idx`` (n_out x n, any integers) with weights
    ``w``: indices outside the axis are the edge's (their weights added)."""
    n_out, n = idx.shape
    k = max(1, min(n, n_in))
    first = np.clip(idx[:, 0] if n else np.zeros(n_out, np.int64), 0, max(n_in - k, 0))
    pos = np.clip(idx, 0, n_in - 1) - first[:, None]
    table = np.zeros((n_out, k))
    np.add.at(table, (np.repeat(np.arange(n_out), n), pos.ravel()), w.ravel())
    return _trim(n_in, first, table, bias)


def _trim(n_in, first, table, bias=None):
    """The table without the columns no row needs: each row's window starts
    at its first non-zero weight (or earlier, to stay inside the table)."""
    n_out, k = table.shape
    nz = table != 0
    if n_out == 0 or not nz.any():
        return AxisTable(n_in, n_out, first, table[:, :1], bias)
    lo = np.where(nz.any(axis=1), nz.argmax(axis=1), 0)
    hi = np.where(nz.any(axis=1), k - nz[:, ::-1].argmax(axis=1), 1)
    width = int((hi - lo).max())
    start = first + np.minimum(lo, k - width)       # inside the table and the axis
    cols = (start - first)[:, None] + np.arange(width)
    return AxisTable(n_in, n_out, start, np.take_along_axis(table, cols, axis=1), bias)


def nearest_table(n_in, n_out, x, rule):
    """The nearest rule ``rule`` on the exact :class:`Coordinates` ``x``."""
    i = x.floor() if rule == "floor" else x.ceil() if rule == "ceil" else \
        x.round(rule == "round_prefer_floor")
    return _fold(n_in, i[:, None], np.ones((n_out, 1)))


def filter_table(n_in, n_out, x, kind, scale, cubic_coeff_a=-0.75, exclude_outside=False,
                 antialias=False):
    """Linear (``kind="linear"``) or cubic taps at the coordinates ``x``;
    ``antialias`` stretches the filter by ``1 / scale`` when shrinking and
    normalises its weights; ``exclude_outside`` drops the taps outside the
    axis (and normalises)."""
    reach = 1.0 if kind == "linear" else 2.0
    s = min(float(scale), 1.0) if antialias else 1.0
    half = reach / s
    n = int(math.ceil(2 * half)) + 1
    base = np.floor(x - half).astype(np.int64)
    idx = base[:, None] + np.arange(n)
    d = (idx - x[:, None]) * s
    w = _triangle(d) if kind == "linear" else _cubic(d, float(cubic_coeff_a))
    if exclude_outside:
        w = np.where((idx >= 0) & (idx < n_in), w, 0.0)
    if antialias or exclude_outside:
        total = w.sum(axis=1, keepdims=True)
        w = w / np.where(total == 0, 1.0, total)
    return _fold(n_in, idx, w)


def area_table(n_in, n_out):
    """PyTorch's adaptive average: inputs floor(o*in/out) .. ceil((o+1)*in/out) - 1."""
    o = np.arange(n_out, dtype=np.int64)
    lo = (o * n_in) // n_out
    hi = -((-(o + 1) * n_in) // n_out)
    n = int((hi - lo).max()) if n_out else 1
    j = np.arange(n)
    w = np.where(j < (hi - lo)[:, None], 1.0 / (hi - lo)[:, None], 0.0)
    return _fold(n_in, lo[:, None] + j, w)


def box_table(n_in, n_out):
    """The exact area overlap of output ``o``'s ``[o*in/out, (o+1)*in/out)``
    with every input pixel, over its length (integer arithmetic in units of
    1/out, one rounding)."""
    o = np.arange(n_out, dtype=np.int64)
    lo, hi = o * n_in, (o + 1) * n_in                # in units of 1 / n_out
    first = lo // n_out
    n = int((-(-hi // n_out) - first).max()) if n_out else 1
    idx = first[:, None] + np.arange(n)
    overlap = np.minimum(hi[:, None], (idx + 1) * n_out) - np.maximum(lo[:, None], idx * n_out)
    return _fold(n_in, idx, np.maximum(overlap, 0) / n_in)


def axis_table(n_in, n_out, scale, mode, transform="half_pixel",
               nearest_mode="round_prefer_ceil", cubic_coeff_a=-0.75, exclude_outside=False,
               antialias=False, roi_start=0.0, roi_end=1.0, extrapolation_value=0.0):
    """The AxisTable of one axis (``mode``: nearest, linear, cubic, area, box)."""
    if mode == "area":
        return area_table(n_in, n_out)
    if mode == "box":
        return box_table(n_in, n_out)
    x = coordinates(n_in, n_out, scale, transform, roi_start, roi_end)
    outside = x.outside(n_in) if transform == "tf_crop_and_resize" else None
    if mode == "nearest":
        t = nearest_table(n_in, n_out, x, nearest_mode)
    else:
        v = x.values()
        if outside is not None:
            v[outside] = 0.0
        t = filter_table(n_in, n_out, v, mode, scale, cubic_coeff_a, exclude_outside, antialias)
    if outside is not None and outside.any():
        t.weights[outside] = 0
        t = AxisTable(n_in, n_out, t.first, t.weights,
                      np.where(outside, f32(extrapolation_value), f32(0)))
    return t


# ------------------------------------------------------------ application
_KERNEL = "dnnl.primitives.resize.kernel"


def _pass(x, axis, t, backward):
    """One axis of the C-contiguous f32 ``x`` through the kernel."""
    shape = x.shape
    outer, inner = int(np.prod(shape[:axis])), int(np.prod(shape[axis + 1:]))
    out = np.zeros(shape[:axis] + ((t.n_in if backward else t.n_out),) + shape[axis + 1:], f32)
    if out.size and x.size:
        _load_kernel(_KERNEL).axis_pass(x.reshape(-1), out.reshape(-1), t.first, t.weights,
                                        None if backward else t.bias, outer, inner, backward)
    elif out.size and t.bias is not None and not backward:
        out += t.bias.reshape((-1,) + (1,) * (out.ndim - axis - 1))
    return out


#: the W step's forms (kernel.pyx's W_ELEMS, W_PICK, W_PIXELS, W_PIXELS_PICK)
W_ELEMS, W_PICK, W_PIXELS, W_PIXELS_PICK = 0, 1, 2, 3
#: the elements of a W step block (the kernel's RZ_BLOCK; a test checks)
_BLOCK = 16
#: the elements of an AVX2 register, half a block (the tapwise windows)
_HALF = _BLOCK // 2
#: from this many channels in a pixel the W step vectorises across them
#: (below, across the row's elements, with gathers)
PIXELS_FROM = 8


def forward(x, axes, tables):
    """The f32 resize of ``x``: ``tables[i]`` along ``axes[i]``, in order."""
    r = np.ascontiguousarray(x, dtype=f32)
    for axis, t in zip(axes, tables):
        r = _pass(r, axis, t, False)
    return r


class Rows:
    """The resize of arrays of one shape (C-contiguous, N x C x spatial, or
    N x spatial x C when ``last``) and data type code ``sdt``: ``tables``
    along the spatial axes in order, into new C-contiguous arrays of the
    numpy ``dtype`` (code ``ddt``). A 3-D resize's D axis runs as an axis
    pass (in f32), then the last two axes (or one) as the kernel's fused
    rows, which read and write the types themselves. Made once per shape:
    :meth:`run` is the call."""
    __slots__ = ("depth", "shape", "dtype", "args")

    def __init__(self, shape, sdt, last, tables, dtype, ddt):
        k = len(tables)
        self.depth = None       # (axis, table) of a 3-D resize's D pass
        if k == 3:
            axis = 1 if last else 2
            self.depth = (axis, tables[0])
            shape = shape[:axis] + (tables[0].n_out,) + shape[axis + 1:]
            sdt, tables, k = _F32, tables[1:], 2
        # planes of in_h x in_w x C (C = 1: planar) before the fused axes
        C = shape[-1] if last else 1
        fused = shape[-k - 1:-1] if last else shape[-k:]
        lead = shape[:-k - 1] if last else shape[:-k]
        in_h, in_w = (fused[0], fused[1]) if k == 2 else (1, fused[0])
        th = tables[0] if k == 2 else None
        tw = tables[-1]
        out_h = th.n_out if th is not None else 1
        self.shape = lead + tuple(t.n_out for t in tables) + ((C,) if last else ())
        self.dtype = dtype
        if th is not None and th.picks and th.n_out == th.n_in and \
                (th.first == np.arange(th.n_in)).all():
            th = None       # the identity: no H step
        hfirst, hw, hbias = (None, None, None) if th is None else \
            (th.first, th.weights, th.bias)
        if C >= PIXELS_FROM or in_w * C >= 2 ** 31:
            form = W_PIXELS_PICK if tw.picks else W_PIXELS
            wfirst, ww, wbias = tw.first, tw.weights, tw.bias
            widx = wwin = wtap = wrel = None
        else:
            widx, ww, wbias, wwin, (wtap, wrel) = tw.elements(C)
            form, wfirst = (W_PICK if tw.picks else W_ELEMS), None
        halves = sdt == ddt == _U8 and th is not None and th.halves and tw.halves and C <= 4
        self.args = (sdt, ddt, halves, int(np.prod(lead)), in_h, out_h, in_w, tw.n_out, C,
                     hfirst, hw, hbias, th is not None and th.picks, form, wfirst, widx, wwin,
                     wtap, wrel, ww, wbias)

    def __repr__(self):
        return "Rows(-> %s %s)" % (self.shape, np.dtype(self.dtype).name)

    def run(self, src):
        """The resize of ``src`` (of the shape and type made for)."""
        if self.depth is not None:
            axis, t = self.depth
            src = _pass(src if src.dtype == f32 else np.ascontiguousarray(src, dtype=f32), axis,
                        t, False)
        dst = np.empty(self.shape, self.dtype)
        if dst.size:
            sdt, ddt, *rest = self.args
            _load_kernel(_KERNEL).rows(src, sdt, dst, ddt, *rest)
        return dst


def rows(src, sdt, last, tables, dtype, ddt):
    """:class:`Rows` made for ``src`` and run on it."""
    return Rows(src.shape, sdt, last, tables, dtype, ddt).run(src)


def backward(g, axes, tables):
    """The f32 gradient of :func:`forward` for the gradient ``g``: the
    transposed tables, in the reverse order."""
    r = np.ascontiguousarray(g, dtype=f32)
    for axis, t in reversed(list(zip(axes, tables))):
        r = _pass(r, axis, t, True)
    return r
