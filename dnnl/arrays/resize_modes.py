"""The resize modes of :func:`dnnl.resample` beyond oneDNN's two algorithms:
ONNX Resize's attributes (opset 19), PyTorch's ``F.interpolate`` modes and
OpenCV's / PIL's ``area`` / ``box`` (docs/resize_modes.md).

:class:`Resize` validates and normalises a call's options once (every bad
value is refused, naming the fix); :meth:`Resize.onednn` tells when they are
one of oneDNN's algorithms (``dnnl.resample`` then runs the oneDNN primitive,
as before); otherwise :func:`forward` / :func:`backward` run the weight
tables of ``dnnl/primitives/resize/plan.py`` on the array, in f32, with
the result in the input's data type (rounded half to even and saturated
for the integers): the forward's kernel reads and writes f32, f16, bf16,
s32, s8 and u8 itself, other types are converted in numpy.
"""
import functools
import math
from fractions import Fraction

import numpy as np

from dnnl._core import dtypes
from dnnl._core.args import short
from dnnl._core.enums import algorithm, data_type
from dnnl.arrays.sizes import REAL
from dnnl._core.error import invalid, wrong_type
from dnnl.primitives.resize import plan as _plan

MODES = ("nearest", "linear", "cubic", "area", "box")
#: PyTorch's names: (mode, the spatial rank PyTorch gives them)
PYTORCH = {"bilinear": ("linear", 2), "trilinear": ("linear", 3), "bicubic": ("cubic", 2),
           "nearest-exact": ("nearest", None)}
NAMES = MODES + tuple(PYTORCH)
TRANSFORMS = ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
              "asymmetric", "tf_crop_and_resize")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
POLICIES = ("stretch", "not_larger", "not_smaller")
_FILTERS = ("linear", "cubic")
_ONNX = ("nearest",) + _FILTERS

# the names oneDNN's primitive serves (dnnl.resample's two modes and
# PyTorch's names for them), when no option asks for more
ONEDNN_NAMES = frozenset({"linear", "nearest", "nearest-exact", "bilinear", "trilinear"})
_NO_OPTIONS = (None,) * 10

def _choice(name, value, valid):
    if not isinstance(value, str) or value not in valid:
        raise invalid("%s must be one of %s, not %s"
                      % (name, ", ".join(repr(v) for v in valid), short(value)))
    return value


def _flag(name, value):
    if not isinstance(value, (bool, np.bool_, int, np.integer)) or value not in (0, 1):
        raise wrong_type("%s must be True or False (or 0 / 1), not %s" % (name, short(value)))
    return bool(value)


def _real(name, value):
    if not isinstance(value, REAL) or isinstance(value, (bool, np.bool_)) \
            or not math.isfinite(float(value)):
        raise wrong_type("%s must be a finite real number, not %s" % (name, short(value)))
    return float(value)


def _reals(name, values):
    if not isinstance(values, (list, tuple, range, np.ndarray)):
        values = [values]
    return tuple(_real("%s[%d]" % (name, i), v) for i, v in enumerate(values))


def _only(mode, name, value, modes, what):
    if value is not None and mode not in modes:
        raise invalid("%s is read only by %s, not by mode=%r: drop it"
                      % (name, what, mode))


class Resize:
    """The validated options of a resize call (``dnnl.resample``'s keyword
    arguments; ``None``: not given). ``key`` identifies them."""
    __slots__ = ("name", "mode", "rank", "transform", "nearest_mode", "cubic_coeff_a",
                 "exclude_outside", "antialias", "policy", "scales", "roi",
                 "extrapolation_value", "key")

    def __init__(self, mode, coordinate_transformation_mode=None, nearest_mode=None,
                 cubic_coeff_a=None, exclude_outside=None, antialias=None,
                 keep_aspect_ratio_policy=None, scales=None, roi=None, extrapolation_value=None,
                 align_corners=None):
        self.name = _choice("mode", mode, NAMES)
        self.mode, self.rank = PYTORCH.get(mode, (mode, None))
        m, torch_name = self.mode, mode in PYTORCH
        ctm = coordinate_transformation_mode
        if align_corners is not None:
            _only(m, "align_corners", align_corners, _FILTERS, "linear and cubic (as in PyTorch)")
            if ctm is not None:
                raise invalid("give align_corners= (PyTorch's) or "
                              "coordinate_transformation_mode= (ONNX's), not both")
            ctm = "align_corners" if _flag("align_corners", align_corners) else None
        for name, value in (("coordinate_transformation_mode", ctm),
                            ("nearest_mode", nearest_mode), ("cubic_coeff_a", cubic_coeff_a),
                            ("exclude_outside", exclude_outside), ("roi", roi),
                            ("extrapolation_value", extrapolation_value)):
            _only(m, name, value, _ONNX, "ONNX's modes (nearest, linear, cubic; 'area' and "
                  "'box' average whole pixels)")
        self.transform = "half_pixel" if ctm is None else _choice(
            "coordinate_transformation_mode", ctm, TRANSFORMS)
        self.nearest_mode = "round_prefer_ceil" if nearest_mode is None else _choice(
            "nearest_mode", nearest_mode, NEAREST_MODES)
        self.antialias = False if antialias is None else _flag("antialias", antialias)
        if self.antialias and m not in _FILTERS:
            raise invalid("antialias is for the linear and cubic modes (a filter stretched "
                          "when shrinking), not mode=%r: for an averaging shrink use "
                          "mode='box' or mode='area'" % (mode,))
        self.exclude_outside = (self.antialias and torch_name) if exclude_outside is None \
            else _flag("exclude_outside", exclude_outside)
        self.cubic_coeff_a = (-0.5 if self.antialias and torch_name else -0.75) \
            if cubic_coeff_a is None else _real("cubic_coeff_a", cubic_coeff_a)
        self.policy = "stretch" if keep_aspect_ratio_policy is None else _choice(
            "keep_aspect_ratio_policy", keep_aspect_ratio_policy, POLICIES)
        self.scales = None if scales is None else _reals("scales", scales)
        if self.scales is not None and any(s <= 0 for s in self.scales):
            raise invalid("scales must be positive, not %s" % short(list(self.scales)))
        crop = self.transform == "tf_crop_and_resize"
        if roi is not None and np.size(roi) == 0:
            roi = None          # ONNX's empty roi input
        if not crop:
            roi = None          # ONNX reads roi only there
        if crop and roi is None:
            raise invalid("coordinate_transformation_mode='tf_crop_and_resize' needs roi=: "
                          "the crop's starts, then its ends, per spatial dim, in [0, 1] of "
                          "the input (roi=[0, 0, 1, 1] for a whole 2D image)")
        self.roi = None if roi is None else _reals("roi", roi)
        self.extrapolation_value = 0.0 if extrapolation_value is None or not crop else \
            _real("extrapolation_value", extrapolation_value)
        if m != "nearest":          # validated, but not read: one key whatever they are
            self.nearest_mode = "round_prefer_ceil"
        if m != "cubic":
            self.cubic_coeff_a = -0.75
        if m not in _FILTERS:
            self.exclude_outside = False
        self.key = (self.mode, self.transform, self.nearest_mode, self.cubic_coeff_a,
                    self.exclude_outside, self.antialias, self.policy, self.scales, self.roi,
                    self.extrapolation_value)

    def onednn(self):
        """The mode name for oneDNN's primitive when these options are one of
        its algorithms (linear half-pixel; nearest half-pixel rounding half
        up), else None."""
        plain = self.transform == "half_pixel" and self.scales is None \
            and self.policy == "stretch"
        if plain and self.mode == "linear" and not (self.antialias or self.exclude_outside):
            return self.name
        if plain and self.mode == "nearest" and self.nearest_mode == "round_prefer_ceil":
            return self.name
        return None

    def check(self, k, size_given=True, factors_given=False, forward=True):
        """Refuse what depends on the rank ``k`` and on the size arguments."""
        if self.rank is not None and self.rank != k:
            raise invalid("mode %r is PyTorch's name for %d spatial dims, the array has %d: "
                          "use mode=%r" % (self.name, self.rank, k, self.mode))
        if self.scales is not None and len(self.scales) not in (1, k):
            raise invalid("%d scales given for %d spatial dims" % (len(self.scales), k))
        if self.roi is not None and len(self.roi) != 2 * k:
            raise invalid("roi has %d values; %d spatial dims need %d: the starts, then the "
                          "ends, per spatial dim" % (len(self.roi), k, 2 * k))
        if not forward:
            return
        if self.scales is not None and (size_given or factors_given):
            raise invalid("give size (or factors) or scales, not both: scales= is ONNX's "
                          "(out = floor(in * scale), coordinates mapped by the scale)")
        if self.scales is None and not (size_given or factors_given):
            raise invalid("give size, factors or scales")
        if self.policy != "stretch" and not size_given:
            raise invalid("keep_aspect_ratio_policy=%r needs size= (the box the output fits)"
                          % self.policy)

    def spatial(self, in_spatial, size):
        """``(out sizes, scales)``: ``size`` (or ONNX's scales rule)."""
        k = len(in_spatial)
        if self.scales is not None:
            sc = list(self.scales) * (k if len(self.scales) == 1 else 1)
            return [int(math.floor(n * s)) for n, s in zip(in_spatial, sc)], sc
        sc = [Fraction(o, n) if n else Fraction(1) for o, n in zip(size, in_spatial)]
        if self.policy == "stretch":
            return list(size), sc
        s = (min if self.policy == "not_larger" else max)(sc)
        return [int(math.floor(s * n + Fraction(1, 2))) for n in in_spatial], [s] * k


@functools.lru_cache(maxsize=256)
def _tables(key, in_spatial, out_spatial, scales):
    mode, transform, nearest_mode, a, exclude, antialias, _, _, roi, extrap = key
    k = len(in_spatial)
    roi = roi or (0.0,) * k + (1.0,) * k
    return tuple(_plan.axis_table(in_spatial[i], out_spatial[i], scales[i], mode, transform,
                                  nearest_mode, a, exclude, antialias, roi[i], roi[k + i],
                                  extrap) for i in range(k))


#: the data types the fused rows read and write themselves
_ROW_TYPES = frozenset(int(getattr(data_type, n)) for n in ("f32", "f16", "bf16", "s8", "u8",
                                                            "s32"))


def _row_type(dt):
    """The data type code of the numpy dtype ``dt`` when the fused rows read
    and write it, else None."""
    code = dtypes.native_data_type(dt)
    return int(code) if code is not None and int(code) in _ROW_TYPES else None


class Prepared:
    """A forward resize in a mode beyond oneDNN's of arrays of one shape,
    strides and type, made once (:func:`forward`): the kernel's
    :class:`dnnl.primitives.resize.plan.Rows`, read in the array's memory
    order (an N x C x spatial array laid out channels last, a torch
    channels_last tensor's view, is resized as one, and so is the result),
    and the leading dims of 1 an image's layout adds. ``run(x)`` is the
    call, for :data:`dnnl.arrays.prepared.front`."""
    __slots__ = ("rows", "order", "back", "added")

    def __init__(self, a, last, tables, dtype, sdt, ddt, added=0):
        self.order = self.back = None
        self.added = added
        if not a.flags.c_contiguous:
            k = a.ndim - 2
            other = (0,) + tuple(range(2, a.ndim)) + (1,) if not last else \
                (0, k + 1) + tuple(range(1, k + 1))
            if a.transpose(other).flags.c_contiguous:
                self.order, self.back = other, tuple(int(i) for i in np.argsort(other))
                last = not last
        shape = a.shape if self.order is None else tuple(a.shape[i] for i in self.order)
        self.rows = _plan.Rows(shape, sdt, last, tables, dtype, ddt)

    def __repr__(self):
        return "Prepared(%r)" % (self.rows,)

    def resize(self, b):
        """The result for the batch ``b`` (N x ...)."""
        if self.order is not None:
            return self.rows.run(b.transpose(self.order)).transpose(self.back)
        return self.rows.run(b if b.flags.c_contiguous else np.ascontiguousarray(b))

    def run(self, x):
        """The result for the array ``x`` as the caller holds it (an image
        without its batch dims)."""
        if not self.added:
            return self.resize(x)
        return self.resize(x[(None,) * self.added])[(0,) * self.added]


def _to(r, dtype):
    """``r`` (f32) in ``dtype``: the integers rounded half to even and saturated."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        r = np.clip(np.rint(np.nan_to_num(r, nan=0.0)).astype(np.float64), info.min, info.max)
    return np.ascontiguousarray(r.astype(dtype))


def _zeros(a, axes, spatial, dtype):
    """The result of an empty resize: ``a``'s shape with ``spatial`` at ``axes``
    (no output element, or no input element to take a gradient to)."""
    shape = list(a.shape)
    for i, n in zip(axes, spatial):
        shape[i] = n
    return np.zeros(shape, dtype or a.dtype)


def forward(spec, a, last, size, dtype=None, added=None):
    """Resize the array ``a`` (channels last: ``last``) to the spatial
    ``size`` (a list, or None when the spec has scales), the result in the
    numpy ``dtype`` (default ``a``'s). With ``added`` (the leading dims of 1
    the caller's layout added to its array): ``(result, prepared)``, the
    :class:`Prepared` call of the next arrays like it, or None."""
    axes = tuple(range(1, a.ndim - 1)) if last else tuple(range(2, a.ndim))
    in_spatial = tuple(a.shape[i] for i in axes)
    out_spatial, scales = spec.spatial(in_spatial, size)
    if 0 in in_spatial and 0 not in out_spatial:
        raise invalid("the input's spatial size %s is empty: nothing to resample %s from"
                      % (short(list(in_spatial)), short(list(out_spatial))))
    prepared = None
    if 0 in out_spatial:
        r = _zeros(a, axes, out_spatial, dtype)
    else:
        tables = _tables(spec.key, in_spatial, tuple(out_spatial), tuple(scales))
        dtype = np.dtype(dtype or a.dtype)
        sdt, ddt = _row_type(a.dtype), _row_type(dtype)
        if sdt is not None and ddt is not None:
            prepared = Prepared(a, last, tables, dtype, sdt, ddt, added or 0)
            r = prepared.resize(a)
        else:
            r = _to(_plan.forward(a.astype(np.float32), axes, tables), dtype)
    return r if added is None else (r, prepared)


def backward(spec, a, last, in_size, dtype=None):
    """The gradient of :func:`forward` for the gradient ``a`` of its output;
    ``in_size``: the spatial size of its input; ``dtype`` as for :func:`forward`."""
    if spec.policy != "stretch":
        raise invalid("keep_aspect_ratio_policy is for the forward call: pass the gradient's "
                      "size (the forward's output) without it")
    axes = tuple(range(1, a.ndim - 1)) if last else tuple(range(2, a.ndim))
    in_spatial = tuple(in_size)
    out_spatial, scales = spec.spatial(in_spatial, [a.shape[i] for i in axes]
                                       if spec.scales is None else None)
    got = [a.shape[i] for i in axes]
    if list(out_spatial) != got:
        raise invalid("the gradient's spatial size %s is not the output %s of resizing %s"
                      % (short(got), short(list(out_spatial)), short(list(in_spatial))))
    if 0 in out_spatial or 0 in in_spatial:
        return _zeros(a, axes, in_spatial, dtype)
    tables = _tables(spec.key, in_spatial, tuple(out_spatial), tuple(scales))
    return _to(_plan.backward(a.astype(np.float32), axes, tables), dtype or a.dtype)


# the Resize of each (mode, options) given, with their types: one object for
# the calls users repeat (their prepared calls are found by its key's identity)
_SPECS = {}
_SPECS_LIMIT = 256


def split(mode, options):
    """``(mode, None)`` for oneDNN's primitive, or ``(None, spec)``: the
    :class:`Resize` of a mode and options (the keywords after ``mode``, in
    :func:`dnnl.resample`'s order) beyond it."""
    if options == _NO_OPTIONS and type(mode) is str and mode in ONEDNN_NAMES:
        return mode, None
    key = (mode, type(mode)) + options + tuple(map(type, options))
    try:
        spec = _SPECS.get(key)
    except TypeError:           # a list of scales or a roi: made anew
        key = spec = None
    if spec is None:
        spec = Resize(mode, *options)
        if key is not None:
            if len(_SPECS) >= _SPECS_LIMIT:
                _SPECS.clear()
            _SPECS[key] = spec
    mode = spec.onednn()
    return mode, (spec if mode is None else None)


# oneDNN's two algorithms, by our names
_MODES = {"linear": algorithm.resampling_linear, "nearest": algorithm.resampling_nearest}
# PyTorch's names (F.interpolate) for the same rules, with the rank they
# need there. PyTorch's own "nearest" is another rule (floor(o * in / out));
# ours is its "nearest-exact".
_PYTORCH_MODES = {"nearest-exact": ("nearest", None), "bilinear": ("linear", 4),
                  "trilinear": ("linear", 5)}


def algorithm_of(mode, ndim):
    """The algorithm of ``mode``: ours, or PyTorch's name for the same rule."""
    name, rank = _PYTORCH_MODES.get(mode, (mode, None)) if isinstance(mode, str) \
        else (None, None)
    alg = _MODES.get(name)
    if alg is None:
        raise invalid("mode must be 'linear' or 'nearest' (PyTorch's 'bilinear' / "
                      "'trilinear' and 'nearest-exact'), not %s" % short(mode))
    if rank is not None and rank != ndim:
        raise invalid("mode %r is PyTorch's name for %d spatial dims, the array has %d:"
                      " use mode='linear'" % (mode, rank - 2, ndim - 2))
    return alg
