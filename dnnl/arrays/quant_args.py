"""Scales and zero points as the array functions take them.

A number or an array of numbers, one per tensor or one per index of an
axis; made into the attribute masks of oneDNN's reorder (on the integral
side: dst for quantization, src for dequantization) and into the f32 / s32
memories it executes with. Values are checked here, so no numpy or Python
exception escapes a call: a scale that is not a finite, non-zero f32 number
(0, NaN, an infinity, one past f32's range or below its smallest subnormal)
or a zero point past int32 is ``dnnl.invalid_arguments``. (oneDNN's
primitives take such scales and saturate or zero every value; the reorder
primitive here does too.)
"""
import operator

import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl._core.args import short
from dnnl._model.desc import desc
from dnnl._core.enums import C, data_type
from dnnl._core.error import invalid
from dnnl._model.interop import _ENGINE
from dnnl._core.keys import remember
from dnnl._model.memory import memory_over, span_bytes
from dnnl.primitives.reorder.primitive import QUANT_NAMES
from dnnl.attr import primitive_attr

ARG_FROM, ARG_TO = C["DNNL_ARG_FROM"], C["DNNL_ARG_TO"]
_ARG_SCALES, _ARG_ZPS = C["DNNL_ARG_ATTR_SCALES"], C["DNNL_ARG_ATTR_ZERO_POINTS"]
INTEGRAL = _dtypes.INTEGRAL
F32_MAX = float(np.finfo(np.float32).max)
#: The smallest normal f32: a scale at least this large (in magnitude) and at
#: most F32_MAX is an f32 number that is neither 0 nor infinite.
F32_TINY = float(np.finfo(np.float32).tiny)


def axis_of(axis, ndims):
    try:
        ax = operator.index(axis)
    except TypeError:
        raise invalid("axis must be an int, not %r" % (axis,)) from None
    if not -ndims <= ax < ndims:
        raise invalid("axis %d is out of range for %d dims" % (ax, ndims))
    return ax % ndims


def values_of(values, dims, ax, np_dtype, what):
    t = type(values)
    if ax is None and (t is float or t is int):     # the usual case, quickly
        if np_dtype == np.float32:
            if F32_TINY <= values <= F32_MAX or -F32_MAX <= values <= -F32_TINY:
                return np.array((values,), np.float32)
        elif t is int and -2 ** 31 <= values < 2 ** 31:
            return np.array((values,), np.int32)
    try:
        v = np.asarray(values)
    except (ValueError, TypeError, OverflowError) as exc:    # a ragged list...
        raise invalid("%s must be numbers: %s" % (what, exc)) from None
    if v.dtype.kind not in "biuf":
        raise invalid("%s must be numbers, not %s" % (what, v.dtype))
    v = v.reshape(-1)
    want = 1 if ax is None else dims[ax]
    if v.size != want:
        raise invalid("%d %s given, %s needs %d" % (
            v.size, what, "per-tensor quantization" if ax is None
            else "axis %d (size %d)" % (ax, dims[ax]), want))
    if np_dtype == np.int32:
        if v.dtype.kind == "f" and not np.array_equal(v, np.round(v)):
            raise invalid("%s must be integers" % what)
        if ((v < -2 ** 31) | (v > 2 ** 31 - 1)).any():
            raise invalid("%s must fit int32" % what)
        return v.astype(np.int64).astype(np.int32)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        f32 = v.astype(np.float32)
    bad = ~np.isfinite(f32) | (f32 == 0)
    if bad.any():
        i = int(np.argmax(bad))
        value = v[i].item()
        why = ("" if value == 0 or not np.isfinite(value) else
               ", which rounds to 0 in f32" if f32[i] == 0 else ", which overflows f32")
        raise invalid("%s must be finite and non-zero f32 numbers, not %s%s: oneDNN's "
                      "reorder would saturate or zero every value" % (what, short(value), why))
    return f32


_QUANT_MDS = {}     # (count, numpy type) -> the descriptor of a scales / zero points memory


def quant_memory(values):
    """A memory over the C-contiguous scales or zero points ``values``."""
    k = (values.size, values.dtype.char)
    entry = _QUANT_MDS.get(k)
    if entry is None:
        md = desc([values.size], data_type.f32 if values.dtype == np.float32
                  else data_type.s32, "a")
        entry = remember(_QUANT_MDS, k, (md, span_bytes(md)), 256)
    return memory_over(entry[0], _ENGINE, entry[1], values)


def quant_attr(dims, ddt, scales, zero_points, axis):
    """The attributes quantizing the integral side (dst when ``ddt`` is
    integral, else src), and per kind (scales, zero points) the execution
    argument, value type, axis, name and position among the plan's values
    (``QUANT_NAMES``): ``(None, ...)`` when not given; None when neither is."""
    ax = None if axis is None else axis_of(axis, len(dims))
    if ax is not None and scales is None and zero_points is None:
        raise invalid("axis is given without scales or zero points")
    side, name = (ARG_TO, "dst ") if ddt in INTEGRAL else (ARG_FROM, "src ")
    mask = 0 if ax is None else 1 << ax
    attr = primitive_attr()
    if scales is None and zero_points is None:
        return attr, None
    quant = [(None,) * 5, (None,) * 5]
    if scales is not None:
        attr.set_scales_mask(side, mask)
        quant[0] = (_ARG_SCALES | side, np.float32, ax, "scales",
                    QUANT_NAMES.index(name + "scales"))
    if zero_points is not None:
        attr.set_zero_points_mask(side, mask)
        quant[1] = (_ARG_ZPS | side, np.int32, ax, "zero points",
                    QUANT_NAMES.index(name + "zero points"))
    return attr, tuple(quant)
