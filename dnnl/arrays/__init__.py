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
  a batch, channels first or last, and every framework's resize mode
  (:mod:`dnnl.arrays.resize_modes`).

Inputs may be numpy arrays, any object with the buffer protocol, or any
``__dlpack__`` producer (a torch tensor, a JAX array...) on the CPU. Every
primitive comes from the primitive cache, so a repeated call creates nothing.
Bad input raises :class:`dnnl.error` (a ``ValueError`` / ``NotImplementedError``
subclass, by status).

The memory side of the interop (``memory.array``, ``np.asarray(mem)``,
``__dlpack__``) lives below the memory class, in :mod:`dnnl._model.interop`; how
any array a user holds is read, in :mod:`dnnl._model.inputs`; the calls made once
per definition, in :mod:`dnnl.arrays.prepared`; scales and zero points, in
:mod:`dnnl.arrays.quant_args`.
"""

import numpy as np

from dnnl.arrays import dask as _dask
from dnnl.arrays import layouts as _layouts
from dnnl.arrays import out_arg as _out_arg
from dnnl._core import dtypes as _dtypes
from dnnl._model.desc import desc
from dnnl._model.engine import stream
from dnnl._core.enums import C, data_type
from dnnl._core.error import error, invalid, unimpl
from dnnl._model.inputs import array_of, layout_of_result, memory_order
from dnnl._model.interop import _ENGINE, array_desc, default_engine, plain_tag
from dnnl._model.interop import as_numpy as _as_numpy
from dnnl._model.memory import memory
from dnnl._core.settings import settings
from dnnl.arrays.prepared import (PreparedReorder, PreparedResampling, Widened, Zeros, another_shape,
                            array_call, front, new_array, run_prepared, tensor_call)
from dnnl.arrays.quant_args import quant_attr, quant_memory, values_of
from dnnl.arrays import resize_modes as _resize_modes
from dnnl.arrays.pixel_calls import forward_primitive, pixel_call
from dnnl.arrays.sizes import (check_empty, factor_sizes as _factor_sizes, factors as _factors,
                               sizes as _sizes, value_key)
from dnnl.primitives.reorder.primitive import reorder

from_array = memory.from_array

def as_numpy(x):
    """A numpy array sharing ``x``'s memory: a numpy array, a buffer or a
    ``__dlpack__`` producer; for a :class:`dnnl.memory` its logical array (a
    view of a plain layout, a copy of a blocked one: the array functions
    take the values, not the layout)."""
    if isinstance(x, memory):
        _dtypes.require_ml_dtypes(x.md.data_type)    # else raw codes, not values
        return x.__array__()
    return _as_numpy(x)


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
_INTEGRAL = _dtypes.INTEGRAL


# ------------------------------------------------------------------ reorders
def _run_reorder(src, dst, scales=None, zero_points=None, axis=None):
    """Reorder ``src`` into ``dst`` (memories; checked and made on every call)."""
    dims = list(src.md.dims)
    attr, quant = quant_attr(dims, dst.md.data_type, scales, zero_points, axis)
    args = {_ARG_FROM: src, _ARG_TO: dst}
    for (arg, np_dtype, ax, what, _), values in zip(quant or (), (scales, zero_points)):
        if arg is not None:
            args[arg] = quant_memory(values_of(values, dims, ax, np_dtype, what))
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
    call = front.find(x, convert, tag, dtype, scales is None, zero_points is None, axis)
    if call is not None:
        return call.run(x, scales, zero_points)
    options = (convert, tag, dtype, scales is None, zero_points is None, axis)
    parts = options + (type(tag), type(dtype), type(axis))
    if type(x) is np.ndarray:
        call = array_call(x, parts, options)
        if call is not None:
            return call.run(x, scales, zero_points)
    else:
        hit = tensor_call(x, parts)
        if hit is not None:
            return hit[0].run(x, scales, zero_points, hit[1])
        if isinstance(x, memory):
            return _convert_memory(x, tag, dtype, scales, zero_points, axis)
        if _dask.is_dask(x):
            return _dask.convert(convert, x, tag, dtype, scales, zero_points, axis)
    return _prepare_convert(x, tag, dtype, scales, zero_points, axis, parts)


def _prepare_convert(x, tag, dtype, scales, zero_points, axis, parts):
    """:func:`convert` of an array whose call is not prepared yet (a
    function of its own: the closure's cells would cost every call)."""
    def make(a):
        _check_input(a)
        ddt = data_type.undef if dtype is None else _dtypes.as_data_type(dtype)
        _no_f64_output(ddt, "convert")
        md = desc(list(a.shape), _dtypes.as_data_type(a.dtype) if dtype is None else ddt, tag)
        return PreparedReorder(a, md, None, scales, zero_points, axis)
    return run_prepared(x, parts, True, make, (scales, zero_points))


def _convert_memory(src, tag, dtype, scales, zero_points, axis):
    """:func:`convert` of a memory, on its engine (an f64 memory's values
    rounded to f32 first: oneDNN's reorder has no f64 source)."""
    if src.get_desc().data_type == data_type.f64:
        a = as_numpy(src).astype(np.float32)
        src = memory(array_desc(a), src.get_engine(), a)
    smd = src.get_desc()
    ddt = smd.data_type if dtype is None else _dtypes.as_data_type(dtype)
    _no_f64_output(ddt, "convert")
    dst = memory(desc(list(smd.dims), ddt, tag), src.get_engine())
    _run_reorder(src, dst, scales, zero_points, axis)
    return dst


def _numpy_type(dt):
    """The numpy dtype of a result of data type ``dt``, refusing one numpy has
    no array type for (without ml_dtypes: bf16's)."""
    _dtypes.require_ml_dtypes(dt)
    try:
        npdt = _dtypes.numpy_dtype(dt)
    except error:
        npdt = None
    if npdt is None or dt in _dtypes.SUB_BYTE or (
            dt in _dtypes.FLOATING and npdt.kind in "iu"):
        raise invalid("data type %s has no numpy array type here: use dnnl.convert, "
                      "which returns a memory" % dt.name)
    return npdt


def _numpy_out(shape, dt, order=None):
    alloc, axes = layout_of_result(shape, order)
    return new_array(alloc, _numpy_type(dt), axes)


def quantize(x, scale, zero_point=None, *, axis=None, dtype="s8"):
    """Quantize: ``q = saturate(round_half_even(x / scale) + zero_point)``.

    A reorder with a destination scale and zero point, so oneDNN's exact
    arithmetic: ``x / scale`` in f32 (a division, not a multiplication by
    ``1 / scale``), plus the zero point, rounded to nearest even, saturated
    to the type's range.

    Parameters
    ----------
    x : array_like or dnnl.memory
        f32, f16 or bf16 values: any array, view, byte order, torch tensor,
        list or number (docs/arrays.md, "Arrays as you hold them"); float64
        (and longdouble) is rounded to f32 first (a copy), exactly as
        ``x.astype(np.float32)``; a memory gives its logical values.
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
        A new array of ``x``'s shape, native byte order, in ``x``'s memory
        order when ``x`` is dense (a transpose, channels last), as numpy's
        elementwise operations; else C-contiguous.

    Raises
    ------
    dnnl.invalid_arguments
        (also ``ValueError``) a non-integral ``dtype``; scales or zero
        points of the wrong count or type, a scale that is 0, NaN,
        infinite or no f32 number, zero points not int32 integers;
        ``axis`` out of range or given without scales and zero points; an
        input that is not an array.
    dnnl.unimplemented
        (also ``NotImplementedError``) an input type no reorder takes
        (int64: pass ``x.astype(np.int32)``).
    dnnl.out_of_memory
        (also ``MemoryError``) a result that cannot be allocated.

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
        s8, u8 or s32 values: any array, view, byte order, torch tensor,
        list or number (Python integers become int32); a memory gives its
        logical values.
    scale : float or array_like
        One scale, or one per index of ``axis``.
    zero_point : int or array_like, optional
        One zero point, or one per index of ``axis``; default 0.
    axis : int, optional
        The dim of per-channel quantization.
    dtype : data type, default "f32"
        ``"f32"``, ``"f16"``, ``"bf16"`` (with ml_dtypes) or ``"f64"``
        (``np.float64``): no kernel writes f64, so that result is the f32
        one widened, exactly.

    Returns
    -------
    numpy.ndarray
        A new array of ``q``'s shape, native byte order, in ``q``'s memory
        order when ``q`` is dense (a transpose, channels last), as numpy's
        elementwise operations; else C-contiguous.

    Raises
    ------
    dnnl.invalid_arguments
        (also ``ValueError``) floating-point input (it takes integer codes:
        ``q.astype(np.int32)``, or :func:`quantize` the values); an integral
        ``dtype``; scales or zero points of the wrong count or type; a
        scale that is 0, NaN, infinite or no f32 number; ``axis`` out of
        range or given without scales and zero points; an input that is not
        an array.
    dnnl.unimplemented
        (also ``NotImplementedError``) an input type no reorder takes
        (int64: pass ``q.astype(np.int32)``).
    dnnl.out_of_memory
        (also ``MemoryError``) a result that cannot be allocated.

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
    if _dtypes.as_data_type(a.dtype) not in _INTEGRAL:
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
    call = front.find(x, function, dtype, scales is None, zero_points is None, axis, None)
    if call is not None:
        return call.run(x, scales, zero_points)
    options = (function, dtype, scales is None, zero_points is None, axis, None)
    parts = options + (type(dtype), type(axis))
    if type(x) is np.ndarray:
        call = array_call(x, parts, options)
        if call is not None:
            return call.run(x, scales, zero_points)
    else:
        hit = tensor_call(x, parts)
        if hit is not None:
            return hit[0].run(x, scales, zero_points, hit[1])
        if _dask.is_dask(x):
            return _dask.reorder(function, x, scales, zero_points, axis, dtype)
        if isinstance(x, memory):
            x = as_numpy(x)         # its logical values
    return _prepare_to_numpy(op, x, dtype, scales, zero_points, axis, parts)


def _prepare_to_numpy(op, x, dtype, scales, zero_points, axis, parts):
    """:func:`_reorder_to_numpy` of an array whose call is not prepared yet."""
    function, rounds, check = op

    def make(r):
        _check_input(r)
        ddt = _dtypes.as_data_type(dtype)
        wide = ddt == data_type.f64 and not rounds    # computed in f32, then widened
        if wide:
            ddt = data_type.f32
        check(r, ddt)
        order = memory_order(r)         # the result follows a dense input's order
        out = _numpy_out(r.shape, ddt, order)
        one = r.reshape(r.shape or (1,))     # a 0-d array: the memory of one element
        alloc, axes = layout_of_result(r.shape, order)
        call = PreparedReorder(one, from_array(out.reshape(one.shape) if r.ndim < 1
                                                else out).md,
                                out.dtype, scales, zero_points, axis, alloc, axes)
        return Widened(call) if wide else call
    return run_prepared(x, parts, rounds, make, (scales, zero_points))


# ------------------------------------------------------------------ resampling
def _resize(x, size, factors, layout, dtype, out, spec, forward):
    """:func:`resample` (``forward``) or its gradient in a mode beyond
    oneDNN's, with its layouts, ``dtype`` and ``out``; ``size``: the output's
    (forward) or the input's (backward) spatial size."""
    options = (_resize, size, factors, spec.key, layout, dtype)
    if forward and out is None:
        call = front.find(x, *options)
        if call is not None:
            return call.run(x)
    if type(x) is not np.ndarray and _dask.is_dask(x):
        raise unimpl("the modes beyond oneDNN's two take no dask array yet: pass "
                     "x.compute(), or map dnnl.resample over its blocks yourself")
    a = as_numpy(x)
    if a.dtype.kind == "f" and a.dtype.itemsize >= 8:     # f64 and longdouble, any order
        a = a.astype(np.float32)
    lay = _resampling_setup(a, "linear", layout)[1]
    b = _layouts.batch(a, lay)
    k = b.ndim - 2
    hint = lambda count: _layouts.size_hint(a.ndim, lay, count)   # noqa: E731
    npdt = _result_type(dtype, b, "resample" if forward else "resample_backward")
    o = None
    if out is not None:
        o = _out_arg.view(out)
        _out_arg.check_apart(o, a)
    if not forward:
        if size is None:
            raise invalid("give size: the spatial size of resample's input")
        spec.check(k, forward=False)
        r = _resize_modes.backward(spec, b, lay.last, _sizes(size, k, hint), npdt)
    else:
        spec.check(k, size is not None, factors is not None)
        if size is not None and factors is not None:
            raise invalid("give either size or factors")
        if factors is not None:
            size = _factor_sizes(b.shape[1:-1] if lay.last else b.shape[2:],
                                 _factors(factors, k, hint))
        r, call = _resize_modes.forward(spec, b, lay.last, None if size is None
                                        else _sizes(size, k, hint), npdt, lay.added)
        if call is not None and a is x and o is None:   # the next such arrays' call
            front.store(x, options, settings.key, call)
    r = r[(0,) * lay.added] if lay.added else r
    if o is None:
        return r
    _out_arg.check_layout(o, r.shape, npdt, dtype is not None)
    o[...] = r
    return out


def _resampling_setup(a, mode, layout):
    """The algorithm and the :class:`dnnl.arrays.layouts.Layout`, for the
    array ``a`` the kernels read."""
    _check_input(a)
    lay = _layouts.parse(layout, a.ndim)
    return _resize_modes.algorithm_of(mode, a.ndim + lay.added), lay


def _resampling_call(what, x, mode, layout, make, options, out):
    """Run the resampling of ``x`` that ``make(o)(a)`` prepares (and checks)
    once per definition, for an array ``a`` the kernels read: ``what``
    (operation, then the sizes', factors' and dtype's :func:`dnnl.arrays.sizes.value_key`),
    shape, strides, data type, mode and layout, and ``out``'s shape,
    strides and type; ``o`` is ``out``'s numpy view, or None. ``options``
    as the caller passed them, for :data:`front`. Returns ``out`` itself
    when given, written."""
    if out is not None:
        o = _out_arg.view(out)
        x = x if type(x) is np.ndarray else as_numpy(x) if isinstance(x, memory) \
            else array_of(x)
        _out_arg.check_apart(o, x)
        parts = (what, mode, type(mode), layout, type(layout), o.shape, o.strides, o.dtype)
        call = array_call(x, parts, ())         # () : not remembered in front
        if call is not None:
            call.run(x, o)
        else:
            run_prepared(x, parts, True, make(o), (o,))
        return out
    parts = (what, mode, type(mode), layout, type(layout))
    if type(x) is np.ndarray:
        call = array_call(x, parts, options) or another_shape(x, parts)
        if call is not None:
            return call.run(x)
    else:
        hit = tensor_call(x, parts)
        if hit is not None:
            return hit[0].run(x, src=hit[1])
        if isinstance(x, memory):
            x = as_numpy(x)         # its logical values (dask: the callers')
    return run_prepared(x, parts, True, make(None), ())


def _result_type(dtype, a, what):
    """The numpy dtype of the result of ``a`` (what the kernels read): ``a``'s,
    or that of the data type ``dtype`` (the primitive converts to it)."""
    if dtype is None:
        return a.dtype.newbyteorder("=")        # results are in native order
    ddt = _dtypes.as_data_type(dtype)
    from dnnl.primitives.resampling.primitive import SUPPORTED
    if ddt not in SUPPORTED:
        raise unimpl("%s writes f32, f16, bf16, s32, s8 or u8, not %s%s" % (
            what, ddt.name, ": pass dtype=np.float32 and call .astype(np.float64) on the "
            "result (exact)" if ddt == data_type.f64 else ""))
    return _numpy_type(ddt)


def _output(a, lay, spatial, dtype, o, what):
    """The result of ``a`` resized to ``spatial``: a new array in ``a``'s memory
    order, or the checked out ``o``; with its memory (of the N, C, spatial...
    view)."""
    shape = _layouts.result_shape(a, lay, spatial)
    npdt = _result_type(dtype, a, what)
    if o is None:
        alloc, axes = layout_of_result(shape, memory_order(a))     # ``a``'s memory order
        o = new_array(alloc, npdt, axes)
    else:
        _out_arg.check_layout(o, shape, npdt, dtype is not None)
    return o, from_array(_layouts.logical(o, lay))


def resample(x, size=None, *, factors=None, mode="linear", layout="nchw", dtype=None,
             out=None, coordinate_transformation_mode=None, nearest_mode=None,
             cubic_coeff_a=None, exclude_outside=None, antialias=None,
             keep_aspect_ratio_policy=None, scales=None, roi=None, extrapolation_value=None,
             align_corners=None):
    """Resize the spatial dims of an image or a batch (oneDNN's forward
    resampling, and every framework's resize mode: docs/resize_modes.md).

    Parameters
    ----------
    x : array_like or dnnl.memory
        One image, H x W x C (``layout="hwc"``), H x W (``"hw"``) or
        C x H x W (``"chw"``), or a batch, N x C x [D x] [H x] W
        (``layout="nchw"``) or N x [D x] [H x] W x C (``layout="nhwc"``);
        f32, f16, bf16, s32, s8 or u8. float64 (and longdouble) is rounded
        to f32 first (a copy; the result is f32); a memory gives its
        logical values.
    size : int or sequence of int, optional
        The output spatial size (one value for every spatial dim, or one per
        dim, ``(height, width)`` in 2-D: cv2.resize's ``dsize`` is
        ``(width, height)``). Integers only: a float, even ``4.0``, is refused.
    factors : float or sequence of float, optional
        Instead of ``size``: ``out = floor(in * factor)`` in double, as
        PyTorch (oneDNN's primitive rounds the factor to f32 first: 10 x 0.7
        is 6 there, 7 here), the coordinates then mapped by the sizes: ours is
        ``F.interpolate(x, scale_factor=f, recompute_scale_factor=True)``.
    mode : {"linear", "nearest", "cubic", "area", "box"}
        ``resampling_linear`` (bilinear / trilinear with half-pixel centres:
        PyTorch's ``"linear"`` / ``"bilinear"`` / ``"trilinear"`` with
        ``align_corners=False``) or ``resampling_nearest`` (the source index
        is ``round((o + 0.5) * in / out - 0.5)``, halves away from zero:
        PyTorch's ``"nearest-exact"``; PyTorch's ``"nearest"`` floors
        ``o * in / out``: ``coordinate_transformation_mode="asymmetric",
        nearest_mode="floor"``). ``"cubic"``: Keys' cubic (A = -0.75);
        ``"area"``: PyTorch's adaptive average; ``"box"``: the exact
        area-overlap average (OpenCV's ``INTER_AREA`` when shrinking).
        PyTorch's ``"bilinear"`` (2 spatial dims), ``"trilinear"`` (3),
        ``"bicubic"`` (2) and ``"nearest-exact"`` are accepted; with them
        ``antialias=True`` is PyTorch's (``exclude_outside=True``, and for
        ``"bicubic"`` ``cubic_coeff_a=-0.5``).
    layout : str
        Where the channels are. A batch, any rank, any letter case:
        ``"nchw"`` (second dim; also ``"ncw"``, ``"ncdhw"``,
        ``"channels_first"``) or ``"nhwc"`` (last dim; also ``"nwc"``,
        ``"ndhwc"``, ``"channels_last"``). One image: ``"hwc"``, ``"hw"``
        (grayscale), ``"chw"``, read as a batch of one (a view: no copy).
        A 3-D array is N x C x W under the default: two sizes for it are
        refused, naming ``layout="hwc"``.
    dtype : data type, optional
        The result's data type (``"f32"``, ``np.uint8``...; f32, f16, bf16,
        s32, s8 or u8), default ``x``'s: the primitive computes in f32 and
        converts once, integers saturated and rounded half to even.
    out : numpy.ndarray or torch.Tensor, optional
        Write the result here instead (cv2's ``dst=``, PyTorch's ``out=``):
        of the result's shape and type, writable, no element shared with
        ``x``; a strided view is written through its strides. Checked
        before anything is written.
    coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, \
antialias, keep_aspect_ratio_policy, scales, roi, extrapolation_value
        ONNX Resize's attributes (opset 19), named as there; ``scales``,
        ``roi`` (the starts, then the ends) and ``size`` for the spatial dims
        only. Not given: oneDNN's rules (``"half_pixel"``, nearest
        ``"round_prefer_ceil"``; ONNX's default nearest_mode is
        ``"round_prefer_floor"``). ``scales``: ONNX's ``out = floor(in *
        scale)``, the coordinates mapped by the scale (unlike ``factors``).
        Options that are oneDNN's two algorithms run its primitive; other
        modes run separable weight tables, in f32.
    align_corners : bool, optional
        PyTorch's: ``True`` is ``coordinate_transformation_mode="align_corners"``.

    Returns
    -------
    numpy.ndarray
        ``out`` itself when given; else a new array in the same layout as
        ``x`` and of type ``dtype``, in ``x``'s memory order when ``x`` is
        dense (an NHWC buffer seen as NCHW, a torch ``channels_last``
        tensor: PyTorch keeps the memory format too; not in the modes
        beyond oneDNN's), else C-contiguous.

    Raises
    ------
    dnnl.error
        Bad input: ``invalid_arguments`` (``invalid_type`` for a float size
        or an ``out`` that is not an array); a data type resampling does not
        take (int64...): ``unimplemented``.

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
    >>> img = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(2, 2, 3)      # H x W x C
    >>> dnnl.resample(img, (4, 4), mode="nearest", layout="hwc").shape
    (4, 4, 3)
    >>> dnnl.resample(img, (3, 3), layout="hwc", dtype="f32")[1, 1]
    array([4.5, 5.5, 6.5], dtype=float32)
    """
    mode, spec = _resize_modes.split(mode, (
        coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, antialias,
        keep_aspect_ratio_policy, scales, roi, extrapolation_value, align_corners))
    if spec is not None:
        return _resize(x, size, factors, layout, dtype, out, spec, True)
    if out is None:
        call = front.find(x, resample, size, factors, mode, layout, dtype)
        if call is not None:
            return call.run(x)
    if type(x) is not np.ndarray and _dask.is_dask(x):
        return _dask.resample(resample, x, size, factors, mode, layout, dtype, out)
    what = ("resample", value_key(size), None if factors is None else value_key(factors),
            value_key(dtype))
    return _resampling_call(what, x, mode, layout, _forward(size, factors, mode, layout, dtype),
                            (resample, size, factors, mode, layout, dtype), out)


def _forward(size, factors, mode, layout, dtype):
    """The function making the function that prepares :func:`resample`'s
    call for an array, given the out's numpy view or None (made here, not
    in resample: a closure's cells would cost every call)."""
    def make(o):
        def prepare(a):
            alg, lay = _resampling_setup(a, mode, layout)
            view = _layouts.logical(a, lay)
            ins = [int(n) for n in view.shape[2:]]
            hint = lambda count: _layouts.size_hint(a.ndim, lay, count)   # noqa: E731
            if (size is None) == (factors is None):
                raise invalid("give either size or factors")
            if size is not None:
                spatial = _sizes(size, len(ins), hint)
            else:
                spatial = _factor_sizes(ins, _factors(factors, len(ins), hint))
            check_empty(ins, spatial, False)
            call = pixel_call(a, view, lay, alg, spatial, _result_type(dtype, a, "resample"),
                              size is not None) if o is None else None
            if call is not None:
                return call
            src = from_array(view)
            result, dst = _output(a, lay, spatial, dtype, o, "resample")
            return PreparedResampling(forward_primitive(alg, src, dst), _ARG_SRC, _ARG_DST,
                                      src, dst, result, a.itemsize)
        return prepare
    return make


def resample_backward(diff_dst, size, *, mode="linear", layout="nchw", dtype=None,
                      out=None, coordinate_transformation_mode=None, nearest_mode=None,
                      cubic_coeff_a=None, exclude_outside=None, antialias=None,
                      keep_aspect_ratio_policy=None, scales=None, roi=None,
                      extrapolation_value=None, align_corners=None):
    """The gradient of :func:`resample` (oneDNN's backward resampling, and
    the transposed weights of every other mode).

    Parameters
    ----------
    diff_dst : array_like or dnnl.memory
        The gradient of :func:`resample`'s output, in ``layout``; f32, f16,
        bf16, s32, s8 or u8 (float64 is rounded to f32, as for :func:`resample`).
    size : int or sequence of int
        The spatial size of :func:`resample`'s input (the gradient's size).
    mode, layout, dtype, out, and the other keyword arguments
        As for :func:`resample` (``dtype``: ``diff_src``'s data type; with
        ``scales``, ``size`` is still the input's).

    Returns
    -------
    numpy.ndarray
        ``diff_src``: ``out`` itself when given, else a new array of the
        input's shape, of type ``dtype`` (default ``diff_dst``'s), in
        ``diff_dst``'s memory order (as :func:`resample`); every element
        the f32 sum of the weighted gradients that reach it.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> dnnl.resample_backward(np.ones((1, 1, 8), np.float32), 2)
    array([[[4., 4.]]], dtype=float32)
    """
    mode, spec = _resize_modes.split(mode, (
        coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside, antialias,
        keep_aspect_ratio_policy, scales, roi, extrapolation_value, align_corners))
    if spec is not None:
        return _resize(diff_dst, size, None, layout, dtype, out, spec, False)
    if out is None:
        call = front.find(diff_dst, resample_backward, size, mode, layout, dtype, None)
        if call is not None:
            return call.run(diff_dst)
    if type(diff_dst) is not np.ndarray and _dask.is_dask(diff_dst):
        return _dask.backward(resample_backward, diff_dst, size, mode, layout, dtype, out)
    return _resampling_call(("resample_backward", value_key(size), value_key(dtype)),
                            diff_dst, mode, layout, _backward(size, mode, layout, dtype),
                            (resample_backward, size, mode, layout, dtype, None), out)


def _backward(size, mode, layout, dtype):
    """The function making the function that prepares
    :func:`resample_backward`'s call for an array, as :func:`_forward`."""
    def make(o):
        def prepare(a):
            alg, lay = _resampling_setup(a, mode, layout)
            dd = from_array(_layouts.logical(a, lay))
            spatial = _sizes(size, dd.md.ndims - 2,
                             lambda count: _layouts.size_hint(a.ndim, lay, count))
            result, ds = _output(a, lay, spatial, dtype, o, "resample_backward")
            check_empty(ds.md.dims[2:], dd.md.dims[2:], True)
            if 0 in dd.md.dims[2:] and result.size:
                # no output reached: no gradient
                return Zeros(result.shape, result.dtype)
            from dnnl.primitives.resampling.primitive import resampling_backward
            pd = resampling_backward.primitive_desc(_ENGINE, alg, ds.md, dd.md)
            return PreparedResampling(resampling_backward(pd), _ARG_DIFF_DST, _ARG_DIFF_SRC,
                                      dd, ds, result, a.itemsize)
        return prepare
    return make
