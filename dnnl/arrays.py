"""Array-level functions: numpy, torch or any buffer in, one line each.

The oneDNN-shaped API (descriptors, engines, argument maps, streams) stays
as it is; these functions are built on it for the everyday tasks:

* :func:`from_array` (also ``dnnl.memory.from_array``): a memory over an
  array, without copying, its layout read from the array's strides;
* :func:`convert`: reorder into another layout / data type, with scales and
  zero points, into a new memory;
* :func:`quantize` / :func:`dequantize`: numpy in, numpy out, oneDNN's
  rounding and saturation;
* :func:`resample` / :func:`resample_backward`: nearest or linear resizing of
  a batch, channels first or last.

Inputs may be numpy arrays, any object with the buffer protocol, or any
``__dlpack__`` producer (a torch tensor, a JAX array...) on the CPU. Every
primitive comes from the primitive cache, so a repeated call creates nothing.
Bad input raises :class:`dnnl.error` (a ``ValueError`` / ``NotImplementedError``
subclass, by status).

The memory side of the interop (``memory.array``, ``np.asarray(mem)``,
``__dlpack__``) lives below the memory class, in :mod:`dnnl._interop`.
"""
import operator

import numpy as np

from dnnl import _dask, _dtypes
from dnnl import verbose as _verbose
from dnnl._args import a_type, integers, short
from dnnl._desc import desc
from dnnl._engine import stream
from dnnl._enums import C, algorithm, data_type, prop_kind
from dnnl._error import error, invalid, invalid_type, unimpl, wrong_type
from dnnl._interop import _ENGINE, array_desc, byte_span, default_engine, plain_tag
from dnnl._interop import as_numpy as _as_numpy
from dnnl._keys import remember
from dnnl._kernels.offsets import data_address as _address
from dnnl._memory import memory, memory_allocated, memory_over, span_bytes
from dnnl._reorder import QUANT_NAMES, reorder
from dnnl._settings import settings
from dnnl.attr import primitive_attr

from_array = memory.from_array

def as_numpy(x):
    """A numpy array sharing ``x``'s memory: a numpy array, a buffer or a
    ``__dlpack__`` producer; for a :class:`dnnl.memory` its logical array (a
    view of a plain layout, a copy of a blocked one: the array functions
    take the values, not the layout)."""
    if isinstance(x, memory):
        _dtypes.require_ml_dtypes(x._md.data_type)    # else raw codes, not values
        return x.__array__()
    return _as_numpy(x)


def _wide_float(a):
    """Whether ``a`` holds a numpy float the kernels do not take (float64,
    longdouble): the array functions round it to f32, oneDNN's compute type."""
    return a.dtype.itemsize > 4 and a.dtype.kind == "f"


def _check_input(a):
    """Refuse, naming the fix, an input type oneDNN has but no array function
    takes (checked when a call is prepared, not on every call)."""
    if a.dtype == np.int64:     # numpy's default int: s64, which no reorder takes
        raise unimpl("int64 input: oneDNN's reorder and resampling take no s64; pass "
                     "x.astype(np.int32) (or np.int8 / np.uint8)")


def _no_f64_output(ddt, what):
    """Refuse an f64 result (no oneDNN kernel writes f64), naming the fix."""
    if ddt == data_type.f64:
        raise unimpl("%s cannot produce f64 (oneDNN's reorder has no f64 kernels): "
                     "pass dtype=np.float32 and call .astype(np.float64) on the result"
                     % what)


__all__ = ["from_array", "convert", "quantize", "dequantize", "resample",
           "resample_backward", "plain_tag", "default_engine"]

_ARG_FROM, _ARG_TO = C["DNNL_ARG_FROM"], C["DNNL_ARG_TO"]
_ARG_SRC, _ARG_DST = C["DNNL_ARG_SRC"], C["DNNL_ARG_DST"]
_ARG_DIFF_SRC, _ARG_DIFF_DST = C["DNNL_ARG_DIFF_SRC"], C["DNNL_ARG_DIFF_DST"]
_ARG_SCALES, _ARG_ZPS = C["DNNL_ARG_ATTR_SCALES"], C["DNNL_ARG_ATTR_ZERO_POINTS"]
_INTEGRAL = _dtypes.INTEGRAL


# ------------------------------------------------------------------ prepared calls
# A call is defined by its arguments' shapes, strides, data types and options,
# not by their values: the first call with a given definition checks it
# completely and makes the primitive; the next ones find that prepared call
# by a key of those properties, allocate the result and run the primitive's
# plan on the buffers' addresses. Only C-contiguous numpy arrays are ever
# prepared, so the strides in a key stand for that check: an array that
# finds a prepared call is C-contiguous. Anything else is checked and made
# on every call (still from the primitive cache).
_prepared = {}          # call key -> prepared call (immutable, shared by threads)
_PREPARED_MAX = 512     # then forget them all: the next calls prepare again
_F32_MAX = float(np.finfo(np.float32).max)


def _prepared_call(key, prepare):
    """The prepared call of ``key``, made by ``prepare()`` at first use."""
    call = _prepared.get(key)
    if call is None:
        call = remember(_prepared, key, prepare(), _PREPARED_MAX)
    return call


class _PreparedReorder:
    """One reorder of the array layer, made once: the primitive, its plan,
    the descriptors of its memories and the result's shape and type."""

    __slots__ = ("prim", "plan", "stream", "src_md", "src_nbytes", "dst_md", "dst_nbytes",
                 "out_shape", "out_dtype", "quant", "dims", "per_tensor", "dst_side")

    def __init__(self, a, dst_md, out_dtype, scales, zero_points, axis):
        """``a``: a C-contiguous array of the call's definition; ``dst_md``
        the result's descriptor, ``out_dtype`` its numpy type (None: the
        result is a memory)."""
        src = from_array(a)
        self.src_md, self.src_nbytes = src._md, src._nbytes
        dims = self.dims = list(self.src_md.dims)
        self.dst_md, self.dst_nbytes = dst_md, span_bytes(dst_md)
        self.out_shape, self.out_dtype = a.shape, out_dtype
        attr, self.quant = _quant_attr(dims, dst_md.data_type, scales, zero_points, axis)
        self.per_tensor = axis is None
        self.dst_side = dst_md.data_type in _INTEGRAL
        pd = reorder.primitive_desc(_ENGINE, self.src_md, _ENGINE, dst_md, attr)
        self.prim = reorder(pd)
        self.plan = self.prim.ready_plan()
        self.stream = stream(_ENGINE)

    def run(self, a, out, scales, zero_points):
        """Reorder ``a`` into ``out`` (a numpy array, or None: a new memory,
        returned)."""
        plan = self.plan
        if plan is None or _verbose.exec_on:
            return self._execute(a, out, scales, zero_points)
        if out is None:
            dst, address = memory_allocated(self.dst_md, _ENGINE, self.dst_nbytes)
        else:
            dst, address = out, _address(out)
        if self.quant is None:
            plan.run(_address(a), address)
        elif self.per_tensor and (
                scales is None or type(scales) is float and -_F32_MAX <= scales <= _F32_MAX
        ) and (zero_points is None or type(zero_points) is int
               and -2 ** 31 <= zero_points < 2 ** 31):
            # the usual quantization: two numbers, no arrays made for them
            plan.run_values(_address(a), address, self.dst_side, scales, zero_points)
        else:
            addresses = [0, 0, 0, 0]
            values = self._quant_arrays(scales, zero_points)     # alive while the plan runs
            for _, pos, v in values:
                addresses[pos] = _address(v)
            plan.run(_address(a), address, *addresses)
        return dst

    def _quant_arrays(self, scales, zero_points):
        """``[(execution argument, position in the plan's run, array)]`` of
        the scales and zero points given."""
        return [(arg, pos, _values(v, self.dims, ax, np_dtype, what))
                for (arg, np_dtype, ax, what, pos), v in zip(self.quant, (scales, zero_points))
                if arg is not None]

    def _execute(self, a, out, scales, zero_points):
        """:meth:`run` through ``primitive.execute`` (verbose prints its line)."""
        if out is None:
            dst = memory_allocated(self.dst_md, _ENGINE, self.dst_nbytes)[0]
        else:
            dst = memory_over(self.dst_md, _ENGINE, self.dst_nbytes, out)
        args = {_ARG_FROM: memory_over(self.src_md, _ENGINE, self.src_nbytes, a), _ARG_TO: dst}
        if self.quant is not None:
            for arg, _, v in self._quant_arrays(scales, zero_points):
                args[arg] = _quant_memory(v)
        self.prim.execute(self.stream, args)
        return dst


# ------------------------------------------------------------------ reorders
def _axis(axis, ndims):
    try:
        ax = operator.index(axis)
    except TypeError:
        raise invalid("axis must be an int, not %r" % (axis,)) from None
    if not -ndims <= ax < ndims:
        raise invalid("axis %d is out of range for %d dims" % (ax, ndims))
    return ax % ndims


def _values(values, dims, ax, np_dtype, what):
    t = type(values)
    if ax is None and (t is float or t is int):     # the usual case, quickly
        if np_dtype == np.float32:
            return np.array((values,), np.float32)
        if t is int and -2 ** 31 <= values < 2 ** 31:
            return np.array((values,), np.int32)
    v = np.asarray(values)
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
    return v.astype(np.float32)


_QUANT_MDS = {}     # (count, numpy type) -> the descriptor of a scales / zero points memory


def _quant_memory(values):
    """A memory over the C-contiguous scales or zero points ``values``."""
    k = (values.size, values.dtype.char)
    entry = _QUANT_MDS.get(k)
    if entry is None:
        md = desc([values.size], data_type.f32 if values.dtype == np.float32
                  else data_type.s32, "a")
        entry = remember(_QUANT_MDS, k, (md, span_bytes(md)), 256)
    return memory_over(entry[0], _ENGINE, entry[1], values)


def _quant_attr(dims, ddt, scales, zero_points, axis):
    """The attributes quantizing the integral side (dst when ``ddt`` is
    integral, else src), and per kind (scales, zero points) the execution
    argument, value type, axis, name and position among the plan's values
    (``QUANT_NAMES``): ``(None, ...)`` when not given; None when neither is."""
    ax = None if axis is None else _axis(axis, len(dims))
    if ax is not None and scales is None and zero_points is None:
        raise invalid("axis is given without scales or zero points")
    side, name = (_ARG_TO, "dst ") if ddt in _INTEGRAL else (_ARG_FROM, "src ")
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


def _run_reorder(src, dst, scales=None, zero_points=None, axis=None):
    """Reorder ``src`` into ``dst`` (memories; checked and made on every call)."""
    dims = list(src._md.dims)
    attr, quant = _quant_attr(dims, dst._md.data_type, scales, zero_points, axis)
    args = {_ARG_FROM: src, _ARG_TO: dst}
    for (arg, np_dtype, ax, what, _), values in zip(quant or (), (scales, zero_points)):
        if arg is not None:
            args[arg] = _quant_memory(_values(values, dims, ax, np_dtype, what))
    reorder(src, dst, attr).execute(stream(src.get_engine()), args)


def convert(x, tag, dtype=None, *, scales=None, zero_points=None, axis=None):
    """Reorder ``x`` into a new memory of layout ``tag`` and data type ``dtype``.

    Parameters
    ----------
    x : dnnl.memory or array_like
        The source: a memory, or an array taken without copying
        (:func:`from_array`). float64 / longdouble (array or memory) is
        rounded to f32 first: a copy.
    tag : str or dnnl.memory.format_tag
        The destination layout (``"nChw16c"``, ``"acdb"``, ``"OIhw16i16o"``...).
    dtype : data type, optional
        The destination data type (``"s8"``, ``np.int8``,
        ``dnnl.memory.data_type.bf16``...); default: the source's (f32 for
        float64). Not f64: no kernel writes it.
    scales, zero_points : float or array_like, optional
        The quantization of the integral side, ``real = scale * (q - zero_point)``:
        for an integral destination ``dst = saturate(round(x / scale) +
        zero_point)`` (oneDNN's dst scale and zero point), otherwise ``dst =
        scale * (x - zero_point)`` (src scale and zero point). One value, or
        one per index of ``axis``.
    axis : int, optional
        The dim the scales and zero points run along (per-channel).

    Returns
    -------
    dnnl.memory
        A new memory (on the source memory's engine), padding zeroed: its
        ``.array`` is the buffer in layout ``tag``, ``np.asarray`` of it the
        logical values again (docs/arrays.md, "What each call gives").

    Raises
    ------
    dnnl.error
        Bad input: ``invalid_arguments``; a type pair or attribute oneDNN's
        reorder does not implement: ``unimplemented``.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> x = np.arange(2 * 17 * 3 * 4, dtype=np.float32).reshape(2, 17, 3, 4)
    >>> blocked = dnnl.convert(x, "nChw16c")
    >>> blocked.array.shape                       # padding included
    (2, 2, 3, 4, 16)
    >>> np.array_equal(np.asarray(blocked), x)    # the logical copy
    True
    >>> q = dnnl.convert(x, "nhwc", "s8", scales=0.5)
    >>> np.asarray(q)[0, :3, 0, 0]
    array([  0,  24,  48], dtype=int8)
    """
    if type(x) is np.ndarray:
        key = ("convert", x.shape, x.strides, x.dtype, tag, type(tag), dtype, type(dtype),
               scales is None, zero_points is None, axis, type(axis), settings.key)
        try:
            call = _prepared.get(key)
        except TypeError:       # an unhashable argument: the call is not kept
            call = key = None
        if call is not None:
            return call.run(x, None, scales, zero_points)
        if x.flags.c_contiguous and x.ndim:
            if _wide_float(x):      # never kept: the f32 copy's call is
                return convert(x.astype(np.float32), tag, dtype, scales=scales,
                               zero_points=zero_points, axis=axis)

            def prepare():
                _check_input(x)
                ddt = data_type.undef if dtype is None else _dtypes.as_data_type(dtype)
                _no_f64_output(ddt, "convert")
                md = desc(list(x.shape), _dtypes.as_data_type(x.dtype) if dtype is None
                          else ddt, tag)
                return _PreparedReorder(x, md, None, scales, zero_points, axis)
            call = prepare() if key is None else _prepared_call(key, prepare)
            return call.run(x, None, scales, zero_points)
    elif _dask.is_dask(x):
        return _dask.convert(convert, x, tag, dtype, scales, zero_points, axis)
    src = _convert_source(x)
    smd = src._md
    ddt = smd.data_type if dtype is None else _dtypes.as_data_type(dtype)
    _no_f64_output(ddt, "convert")
    dst = memory(desc(list(smd.dims), ddt, tag), src.get_engine())
    _run_reorder(src, dst, scales, zero_points, axis)
    return dst


def _convert_source(x):
    """The memory :func:`convert` reorders from: ``x`` itself, or for f64 (a
    numpy float64 / longdouble array, an f64 memory) an f32 copy of its
    values, on ``x``'s engine (oneDNN's reorder has no f64 source)."""
    if isinstance(x, memory):
        if x._md.data_type != data_type.f64:
            return x
        a = _float_input(x)
        return memory(array_desc(a), x.get_engine(), a)
    a = _float_input(x)
    _check_input(a)
    return from_array(a)


def _numpy_out(shape, dt):
    _dtypes.require_ml_dtypes(dt)
    try:
        npdt = _dtypes.numpy_dtype(dt)
    except error:
        npdt = None
    if npdt is None or dt in _dtypes.SUB_BYTE or (
            dt in _dtypes.FLOATING and npdt.kind in "iu"):
        raise invalid("data type %s has no numpy array type here: use dnnl.convert, "
                      "which returns a memory" % dt.name)
    return np.empty(shape, npdt)


def _float_input(x):
    """``x`` as a numpy array (:func:`as_numpy`), float64 / longdouble rounded
    to f32 -- a copy, the same result as passing ``x.astype(np.float32)``
    (docs/arrays.md)."""
    a = as_numpy(x)
    if _wide_float(a):
        a = a.astype(np.float32)
    return a


def quantize(x, scale, zero_point=None, *, axis=None, dtype="s8"):
    """Quantize: ``q = saturate(round_half_even(x / scale) + zero_point)``.

    A reorder with a destination scale and zero point, so oneDNN's exact
    arithmetic: ``x / scale`` in f32 (a division, not a multiplication by
    ``1 / scale``), plus the zero point, rounded to nearest even, saturated
    to the type's range.

    Parameters
    ----------
    x : array_like or dnnl.memory
        f32, f16 or bf16 values, any layout; float64 (and longdouble) is
        rounded to f32 first (a copy), exactly as ``x.astype(np.float32)``; a
        memory gives its logical values.
    scale : float or array_like
        One scale, or one per index of ``axis``.
    zero_point : int or array_like, optional
        One zero point, or one per index of ``axis``; default 0.
    axis : int, optional
        The dim of per-channel quantization.
    dtype : data type, default "s8"
        ``"s8"``, ``"u8"`` or ``"s32"``.

    Returns
    -------
    numpy.ndarray
        A new C-contiguous array of ``x``'s shape.

    Notes
    -----
    ``torch.quantize_per_tensor(x, scale, zero_point, torch.qint8).int_repr()``
    and ``torch.quantize_per_channel`` give the same values whenever
    ``x * (1 / scale)`` and ``x / scale`` round to the same f32 number --
    always for power-of-two scales. PyTorch's vectorised kernels multiply by
    the reciprocal, so for other scales a value within an ulp of a rounding
    boundary can come out one step apart.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> dnnl.quantize(np.float32([0.25, 0.75, 1.25, -300.0]), 0.5)
    array([   0,    2,    2, -128], dtype=int8)
    >>> dnnl.quantize(np.float32([[1, 2], [3, 4]]), [1.0, 0.5], [0, 10],
    ...               axis=1, dtype="u8")
    array([[ 1, 14],
           [ 3, 18]], dtype=uint8)
    """
    return _reorder_to_numpy(_QUANTIZE, x, dtype, scale, zero_point, axis)


def _quantize_check(a, ddt):
    """Refuse a quantization of the array ``a`` into ``ddt`` it cannot be."""
    if ddt not in _INTEGRAL:
        raise invalid("quantize needs an integral dtype, not %s" % ddt.name)


def dequantize(q, scale, zero_point=None, *, axis=None, dtype="f32"):
    """Dequantize: ``x = scale * (q - zero_point)``, in f32.

    A reorder with a source scale and zero point: ``q - zero_point`` in
    int32, converted to f32, times the scale (one f32 rounding), then
    converted to ``dtype``. The same as
    ``torch.dequantize`` of a per-tensor or per-channel quantized tensor.

    Parameters
    ----------
    q : array_like or dnnl.memory
        s8, u8 or s32 values (a memory: its logical values).
    scale : float or array_like
        One scale, or one per index of ``axis``.
    zero_point : int or array_like, optional
        One zero point, or one per index of ``axis``; default 0.
    axis : int, optional
        The dim of per-channel quantization.
    dtype : data type, default "f32"
        ``"f32"``, ``"f16"`` or ``"bf16"`` (with ml_dtypes). No kernel writes
        f64: ask for f32 and ``.astype(np.float64)`` the result.

    Returns
    -------
    numpy.ndarray
        A new C-contiguous array of ``q``'s shape.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> dnnl.dequantize(np.int8([0, 2, 2, -128]), 0.5)
    array([  0.,   1.,   1., -64.], dtype=float32)
    >>> dnnl.dequantize(np.uint8([[1, 14], [3, 18]]), [1.0, 0.5], [0, 10], axis=1)
    array([[1., 2.],
           [3., 4.]], dtype=float32)
    """
    return _reorder_to_numpy(_DEQUANTIZE, q, dtype, scale, zero_point, axis)


def _dequantize_check(a, ddt):
    """Refuse a dequantization of the array ``a`` into ``ddt`` it cannot be."""
    if ddt in _INTEGRAL:
        raise invalid("dequantize needs a floating-point dtype, not %s" % ddt.name)
    _no_f64_output(ddt, "dequantize")
    if a.ndim and _dtypes.as_data_type(a.dtype) not in _INTEGRAL:
        raise invalid("dequantize needs integer input (s8, u8, s32), not %s: pass "
                      "q.astype(np.int32) for integer codes, or quantize values "
                      "with dnnl.quantize" % a.dtype)


# (the public function, whether float64 input is rounded to f32, the
# function refusing what the operation cannot do)
_QUANTIZE = (quantize, True, _quantize_check)
_DEQUANTIZE = (dequantize, False, _dequantize_check)


def _reorder_to_numpy(op, x, dtype, scales, zero_points, axis):
    """``op`` (:data:`_QUANTIZE`, :data:`_DEQUANTIZE`) of ``x`` into a new
    array: checked and prepared once per definition."""
    function, rounds, check = op
    if type(x) is np.ndarray:
        a = x
    elif _dask.is_dask(x):
        return _dask.reorder(function, x, scales, zero_points, axis, dtype)
    else:
        a = as_numpy(x)
    key = (function, a.shape, a.strides, a.dtype, dtype, type(dtype), scales is None,
           zero_points is None, axis, type(axis), settings.key)
    try:
        call = _prepared.get(key)
    except TypeError:           # an unhashable argument: the call is not kept
        call = key = None
    if call is None:
        if rounds and _wide_float(a):   # rounded to f32, a copy: its call is kept
            return _reorder_to_numpy(op, a.astype(np.float32), dtype, scales, zero_points,
                                     axis)
        _check_input(a)
        ddt = _dtypes.as_data_type(dtype)
        check(a, ddt)
        out = _numpy_out(a.shape, ddt)
        if key is None or not a.ndim or not a.flags.c_contiguous:    # not kept
            _run_reorder(from_array(a.reshape(a.shape or (1,))),
                         from_array(out.reshape(out.shape or (1,))), scales, zero_points,
                         axis)
            return out
        call = _prepared_call(key, lambda: _PreparedReorder(
            a, from_array(out)._md, out.dtype, scales, zero_points, axis))
    else:
        out = np.empty(call.out_shape, call.out_dtype)
    call.run(a, out, scales, zero_points)
    return out


# ------------------------------------------------------------------ resampling
_MODES = {"linear": algorithm.resampling_linear, "nearest": algorithm.resampling_nearest}
# PyTorch's names (F.interpolate) for the same rules, with the rank they
# need there. PyTorch's own "nearest" is another rule (floor(o * in / out));
# ours is its "nearest-exact".
_PYTORCH_MODES = {"nearest-exact": ("nearest", None), "bilinear": ("linear", 4),
                  "trilinear": ("linear", 5)}
_FIRST = {"nchw": None, "ncw": 3, "ncdhw": 5, "channels_first": None}
_LAST = {"nhwc": None, "nwc": 3, "ndhwc": 5, "channels_last": None}


def _resampling_setup(x, mode, layout):
    a = _float_input(x)
    _check_input(a)
    if a.ndim not in (3, 4, 5):
        raise invalid("resampling takes 3, 4 or 5 dims (N, C and 1-3 spatial), not %d"
                      % a.ndim)
    alg = _mode(mode, a.ndim)
    name = layout.lower() if isinstance(layout, str) else None
    if name in _FIRST:
        last, rank = False, _FIRST[name]
    elif name in _LAST:
        last, rank = True, _LAST[name]
    else:
        raise invalid("layout must name where the channels are: 'nchw' (first) or "
                      "'nhwc' (last), not %r" % (layout,))
    if rank is not None and rank != a.ndim:
        raise invalid("layout %r is for %d dims, the array has %d" % (layout, rank, a.ndim))
    return a, alg, last


class _PreparedResampling:
    """One resampling of the array layer, made once: the primitive, its plan,
    the descriptors of its input and output (over C-contiguous arrays) and
    the output's shape and type."""

    __slots__ = ("prim", "plan", "stream", "in_arg", "in_md", "in_nbytes", "out_arg",
                 "out_md", "out_nbytes", "out_shape", "out_dtype")

    def __init__(self, prim, in_arg, out_arg, src, dst, out):
        """``src`` / ``dst``: the first call's memories (``in_arg`` /
        ``out_arg``), ``dst`` over the numpy array ``out``."""
        self.prim, self.plan, self.stream = prim, prim.ready_plan(), stream(_ENGINE)
        self.in_arg, self.out_arg = in_arg, out_arg
        self.in_md, self.in_nbytes = src._md, src._nbytes
        self.out_md, self.out_nbytes = dst._md, dst._nbytes
        self.out_shape, self.out_dtype = out.shape, out.dtype

    def execute(self, src, dst):
        self.prim.execute(self.stream, {self.in_arg: src, self.out_arg: dst})

    def run(self, a):
        """Resample the C-contiguous ``a`` of this call's definition."""
        out = np.empty(self.out_shape, self.out_dtype)
        plan = self.plan
        if plan is None or _verbose.exec_on:    # through execute: verbose prints
            self.execute(memory_over(self.in_md, _ENGINE, self.in_nbytes, a),
                         memory_over(self.out_md, _ENGINE, self.out_nbytes, out))
        else:
            plan.run(_address(a), _address(out))
        return out


class _AsF32:
    """A prepared resampling of float64 / longdouble input: rounded to f32,
    then run by the f32 call."""

    __slots__ = ("call",)

    def __init__(self, call):
        self.call = call

    def run(self, a):
        return self.call.run(a.astype(np.float32))


def _value_key(v):
    """``v`` (sizes, factors) as part of a key: its values and their types,
    since a size of 4.0 is refused where 4 is taken, and a factor True where
    1 is (a list counts as the tuple of its items)."""
    t = type(v)
    if t is tuple or t is list:
        return tuple(v), tuple(map(type, v))
    return v, t


def _resampling_call(what, x, mode, layout, prepare):
    """Run the resampling of ``x`` that ``prepare()`` makes (and checks) once
    per definition: ``what`` (operation, then the sizes' and factors'
    :func:`_value_key`), shape, strides, data type, mode and layout."""
    key = None
    if type(x) is np.ndarray and type(mode) is str and type(layout) is str:
        key = (what, x.shape, x.strides, x.dtype, mode, layout, settings.key)
        try:
            call = _prepared.get(key)
        except TypeError:       # an unhashable argument: the call is not kept
            call = key = None
        if call is not None:
            return call.run(x)
    call, src, dst, out = prepare()     # checked; the first call runs on its memories
    if key is not None and x.flags.c_contiguous:
        # float64 input was rounded to f32 (the output's type): keep that step
        _prepared_call(key, lambda: call if out.dtype == x.dtype else _AsF32(call))
    call.execute(src, dst)
    return out


def _mode(mode, ndim):
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


def _logical(a, last):
    """N, C, spatial... view of an array (channels last: moved, no copy)."""
    return np.moveaxis(a, -1, 1) if last else a


def _new_output(a, last, spatial):
    n, c = (a.shape[0], a.shape[-1]) if last else a.shape[:2]
    shape = (n,) + tuple(spatial) + (c,) if last else (n, c) + tuple(spatial)
    return np.empty(shape, a.dtype)


def _sizes(size, k):
    """Output sizes: integers only, as every dim (docs/errors.md): a float,
    even 4.0, is refused rather than truncated."""
    if not isinstance(size, (list, tuple, range, np.ndarray)):
        size = [size] * k
    try:
        out = list(integers(size, "size"))
    except invalid_type as e:
        raise wrong_type("%s: a size counts pixels (round it yourself, or pass "
                         "factors= for a scale)" % e.message) from None
    if len(out) != k:
        raise invalid("%d sizes given for %d spatial dims" % (len(out), k))
    if any(v < 0 for v in out):
        raise invalid("sizes must be non-negative, not %s" % short(out))
    return out


_REAL = (int, float, np.integer, np.floating)


def _factors(factors, k):
    """Scale factors: real numbers (no bool, no string)."""
    if not isinstance(factors, (list, tuple, range, np.ndarray)):
        factors = [factors] * k
    for i, f in enumerate(factors):
        if not isinstance(f, _REAL) or isinstance(f, (bool, np.bool_)):
            raise wrong_type("factors[%d] must be a real number, not %s (%s)"
                             % (i, a_type(f), short(f)))
    if len(factors) != k:
        raise invalid("%d factors given for %d spatial dims" % (len(factors), k))
    return [float(f) for f in factors]


def resample(x, size=None, *, factors=None, mode="linear", layout="nchw"):
    """Resize the spatial dims of a batch (oneDNN's forward resampling).

    Parameters
    ----------
    x : array_like or dnnl.memory
        N x C x [D x] [H x] W (``layout="nchw"``) or N x [D x] [H x] W x C
        (``layout="nhwc"``); f32, f16, bf16, s32, s8 or u8. float64 (and
        longdouble) is rounded to f32 first (a copy; the result is f32); a
        memory gives its logical values.
    size : int or sequence of int, optional
        The output spatial size (one value for every spatial dim, or one per
        dim). Integers only: a float, even ``4.0``, is refused.
    factors : float or sequence of float, optional
        Instead of ``size``: ``out = trunc(in * f32(factor))``, as oneDNN.
    mode : {"linear", "nearest"}
        ``resampling_linear`` (bilinear / trilinear with half-pixel centres:
        PyTorch's ``"linear"`` / ``"bilinear"`` / ``"trilinear"`` with
        ``align_corners=False``) or ``resampling_nearest`` (the source index
        is ``round((o + 0.5) * in / out - 0.5)``, halves away from zero:
        PyTorch's ``"nearest-exact"``; PyTorch's ``"nearest"`` floors
        ``o * in / out``, another rule). PyTorch's ``"bilinear"`` (2 spatial
        dims), ``"trilinear"`` (3) and ``"nearest-exact"`` are accepted.
    layout : str
        Where the channels are: ``"nchw"`` (second dim; also ``"ncw"``,
        ``"ncdhw"``) or ``"nhwc"`` (last dim; also ``"nwc"``, ``"ndhwc"``).
        ``"nchw"`` and ``"nhwc"`` serve any rank.

    Returns
    -------
    numpy.ndarray
        A new C-contiguous array in the same layout and data type as ``x``.

    Raises
    ------
    dnnl.error
        Bad input: ``invalid_arguments`` (``invalid_type`` for a float size);
        a data type resampling does not take (int64...): ``unimplemented``.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> x = np.float32([[[0, 1, 2, 3]]])
    >>> dnnl.resample(x, 8)
    array([[[0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ]]], dtype=float32)
    >>> dnnl.resample(x, factors=0.5, mode="nearest")
    array([[[1., 3.]]], dtype=float32)
    >>> dnnl.resample(x, 6, mode="nearest-exact")      # PyTorch's name for it
    array([[[0., 1., 1., 2., 3., 3.]]], dtype=float32)
    >>> img = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(1, 2, 2, 3)   # NHWC
    >>> dnnl.resample(img, (4, 4), mode="nearest", layout="nhwc").shape
    (1, 4, 4, 3)
    """
    if type(x) is not np.ndarray and _dask.is_dask(x):
        return _dask.resample(resample, x, size, factors, mode, layout)
    def prepare():
        a, alg, last = _resampling_setup(x, mode, layout)
        src = from_array(_logical(a, last))
        k = a.ndim - 2
        if (size is None) == (factors is None):
            raise invalid("give either size or factors")
        if size is not None:
            spatial = _sizes(size, k)
        else:
            from dnnl.resampling import _dst_from_factors
            spatial = list(_dst_from_factors(src._md, _factors(factors, k)).dims[2:])
        out = _new_output(a, last, spatial)
        dst = from_array(_logical(out, last))
        from dnnl.resampling import resampling_forward
        pd = resampling_forward.primitive_desc(_ENGINE, prop_kind.forward_inference, alg,
                                               src._md, dst._md)
        return (_PreparedResampling(resampling_forward(pd), _ARG_SRC, _ARG_DST, src, dst, out),
                src, dst, out)
    what = ("resample", _value_key(size), None if factors is None else _value_key(factors))
    return _resampling_call(what, x, mode, layout, prepare)


def resample_backward(diff_dst, size, *, mode="linear", layout="nchw"):
    """The gradient of :func:`resample` (oneDNN's backward resampling).

    Parameters
    ----------
    diff_dst : array_like or dnnl.memory
        The gradient of :func:`resample`'s output, in ``layout``; f32, f16,
        bf16, s32, s8 or u8 (float64 is rounded to f32, as for :func:`resample`).
    size : int or sequence of int
        The spatial size of :func:`resample`'s input (the gradient's size).
    mode, layout
        As for :func:`resample`.

    Returns
    -------
    numpy.ndarray
        ``diff_src``: a new C-contiguous array of the input's shape, in
        ``diff_dst``'s data type; every element the f32 sum of the weighted
        gradients that reach it.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> dnnl.resample_backward(np.ones((1, 1, 8), np.float32), 2)
    array([[[4., 4.]]], dtype=float32)
    """
    if type(diff_dst) is not np.ndarray and _dask.is_dask(diff_dst):
        return _dask.backward(resample_backward, diff_dst, size, mode, layout)
    def prepare():
        a, alg, last = _resampling_setup(diff_dst, mode, layout)
        dd = from_array(_logical(a, last))
        out = _new_output(a, last, _sizes(size, a.ndim - 2))
        ds = from_array(_logical(out, last))
        from dnnl.resampling import resampling_backward
        pd = resampling_backward.primitive_desc(_ENGINE, alg, ds._md, dd._md)
        return (_PreparedResampling(resampling_backward(pd), _ARG_DIFF_DST, _ARG_DIFF_SRC,
                                    dd, ds, out), dd, ds, out)
    return _resampling_call(("resample_backward", _value_key(size)), diff_dst, mode, layout,
                            prepare)
