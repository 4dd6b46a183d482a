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
from dnnl._enums import C, algorithm, data_type, prop_kind, status
from dnnl._error import error, invalid, invalid_type, out_of_memory, unimpl, wrong_type
from dnnl._inputs import (array_of, copy_dtype, dense_copy, is_tensor, layout_of_result,
                          memory_order, tensor_meta)
from dnnl._interop import _ENGINE, array_desc, default_engine, plain_tag
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


# Heads the keys of torch tensors' calls: their shapes, strides (in elements)
# and dtypes are torch's own, read without making a numpy view.
_TENSOR = object()


def _run_prepared(x, parts, wide, make, args):
    """Run on ``x`` the prepared call defined by ``parts`` (the operation
    and its options) and ``x``'s shape, strides and dtype.

    At the first call of a definition, ``make(a)`` prepares it for an array
    ``a`` the kernels read as it is: ``x`` itself, or its
    :func:`dnnl._inputs.dense_copy` (float64 rounded to f32 with ``wide``),
    which every later call then makes too (:class:`_CopyFirst`). A torch
    tensor finds its call by torch's own shape, strides and dtype and runs
    at its address; ``args`` follow the input in the run."""
    tensor = tensor_meta(x) if type(x) is not np.ndarray else None
    if tensor is not None:
        tkey = _call_key(_TENSOR, tensor[0], tensor[1], tensor[2], settings.key, *parts)
        call = _prepared.get(tkey) if tkey is not None else None
        if call is not None:
            return call.run_at(tensor[3], x, *args)
    if type(x) is not np.ndarray:
        x = array_of(x)
    key = _call_key(x.shape, x.strides, x.dtype, settings.key, *parts)
    call = _prepared.get(key) if key is not None else None
    if call is None:
        def prepare():
            copy = copy_dtype(x, wide)
            call = make(x if copy is None else dense_copy(x, copy))
            return call if copy is None else _CopyFirst(call, copy)
        call = _prepared_call(key, prepare)
    if tensor is not None and tkey is not None and type(call) in _DIRECT:
        remember(_prepared, tkey, call, _PREPARED_MAX)      # the tensor's next calls
    return call.run(x, *args)


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
# plan on the buffers' addresses. Any array is prepared: one the kernels
# read as it is (dnnl._inputs.copy_dtype is None) runs directly, any other
# through _CopyFirst, which copies it once into a C-contiguous native-order
# array first. The strides and dtype (byte order included) in a key stand
# for that decision; only the data's alignment is not in the key, so a
# direct call checks it (aligned_copy).
_prepared = {}          # call key -> prepared call (immutable, shared by threads)
_PREPARED_MAX = 512     # then forget them all: the next calls prepare again
_F32_MAX = float(np.finfo(np.float32).max)
_INF = float("inf")


def _prepared_call(key, prepare):
    """The prepared call of ``key``, made by ``prepare()`` at first use (every
    time when ``key`` is None: an unhashable argument)."""
    if key is None:
        return prepare()
    call = _prepared.get(key)
    if call is None:
        call = remember(_prepared, key, prepare(), _PREPARED_MAX)
    return call


def _call_key(*parts):
    """``parts`` as a key of :data:`_prepared`, or None when one of them
    cannot be hashed (an array of scales: such a call is prepared anew)."""
    try:
        hash(parts)
    except TypeError:
        return None
    return parts


def _empty(shape, dtype, axes=None):
    """A new result array, ``np.empty(shape, dtype)`` seen through
    ``transpose(axes)`` when ``axes`` is given (a result in its input's
    memory order: :func:`dnnl._inputs.layout_of_result`). One too large is
    :class:`dnnl.out_of_memory`, not numpy's ValueError or MemoryError."""
    try:
        out = np.empty(shape, dtype)
    except (ValueError, MemoryError):
        raise out_of_memory(status.out_of_memory, "cannot allocate a result of shape %s "
                            "and type %s" % (short(list(shape)), np.dtype(dtype))) from None
    return out if axes is None else out.transpose(axes)


def aligned_copy(a):
    """A copy of ``a`` with its strides (non-negative), at an address numpy
    aligns: for a direct call given data at an odd address, whose
    descriptor holds those strides."""
    span = sum((n - 1) * s for n, s in zip(a.shape, a.strides)) + a.itemsize
    b = np.ndarray(a.shape, a.dtype, np.empty(span, np.uint8), 0, a.strides)
    b[...] = a
    return b


def _address_aligned(a):
    """``a`` and its data's address, ``a`` copied when that address is not a
    multiple of its element size (the kernels read whole elements)."""
    address = _address(a)
    if address % a.itemsize:
        a = aligned_copy(a)
        address = _address(a)
    return a, address


class _CopyFirst:
    """A prepared call whose input is copied first, once, into a dense array
    of ``dtype`` (native order; f32 for float64 input) in the input's axis
    order (numpy's ``order="K"``): a foreign byte order, an odd or negative
    stride, float64 rounded to f32."""

    __slots__ = ("call", "dtype")

    def __init__(self, call, dtype):
        self.call, self.dtype = call, dtype

    def run(self, a, *rest):
        return self.call.run(dense_copy(a, self.dtype), *rest)


class _Widened:
    """A prepared call whose f32 result is widened to float64, exactly (the
    f64 result a numpy user asks for: no kernel writes f64)."""

    __slots__ = ("call",)

    def __init__(self, call):
        self.call = call

    def run(self, *args):
        return self.call.run(*args).astype(np.float64)

    def run_at(self, *args):
        return self.call.run_at(*args).astype(np.float64)


class _PreparedReorder:
    """One reorder of the array layer, made once: the primitive, its plan,
    the descriptors of its memories and the result's shape and type."""

    __slots__ = ("prim", "plan", "stream", "src_md", "src_nbytes", "dst_md", "dst_nbytes",
                 "out_shape", "out_axes", "out_dtype", "quant", "dims", "per_tensor",
                 "dst_side")

    def __init__(self, a, dst_md, out_dtype, scales, zero_points, axis, out_shape=None,
                 out_axes=None):
        """``a``: an array of the call's definition the kernels read as it
        is, with at least one dim; ``dst_md`` the result's descriptor,
        ``out_dtype`` its numpy type (None: the result is a memory),
        ``out_shape`` and ``out_axes`` how it is allocated (:func:`_empty`;
        default ``a``'s shape, C order)."""
        src = from_array(a)
        self.src_md, self.src_nbytes = src._md, src._nbytes
        dims = self.dims = list(self.src_md.dims)
        self.dst_md, self.dst_nbytes = dst_md, span_bytes(dst_md)
        self.out_shape = a.shape if out_shape is None else out_shape
        self.out_axes, self.out_dtype = out_axes, out_dtype
        attr, self.quant = _quant_attr(dims, dst_md.data_type, scales, zero_points, axis)
        self.per_tensor = axis is None
        self.dst_side = dst_md.data_type in _INTEGRAL
        pd = reorder.primitive_desc(_ENGINE, self.src_md, _ENGINE, dst_md, attr)
        self.prim = reorder(pd)
        self.plan = self.prim.ready_plan()
        self.stream = stream(_ENGINE)

    def run(self, a, scales, zero_points):
        """Reorder ``a`` into a new result: a numpy array when the call has
        an ``out_dtype``, else a memory."""
        a, src = _address_aligned(a)
        return self.run_at(src, a, scales, zero_points)

    def run_at(self, src, a, scales, zero_points):
        """:meth:`run` of the input ``a`` (an array or a torch tensor of the
        call's definition) at the element-aligned address ``src``."""
        plan = self.plan
        if self.out_dtype is None:
            dst, address = memory_allocated(self.dst_md, _ENGINE, self.dst_nbytes)
        else:
            dst = _empty(self.out_shape, self.out_dtype, self.out_axes)
            address = _address(dst)
        if plan is None or _verbose.exec_on:
            self._execute(a, dst, scales, zero_points)
            return dst
        if self.quant is None:
            plan.run(src, address)
        elif self.per_tensor and (
                scales is None or type(scales) is float and -_F32_MAX <= scales <= _F32_MAX
        ) and (zero_points is None or type(zero_points) is int
               and -2 ** 31 <= zero_points < 2 ** 31):
            # the usual quantization: two numbers, no arrays made for them
            plan.run_values(src, address, self.dst_side, scales, zero_points)
        else:
            addresses = [0, 0, 0, 0]
            values = self._quant_arrays(scales, zero_points)     # alive while the plan runs
            for _, pos, v in values:
                addresses[pos] = _address(v)
            plan.run(src, address, *addresses)
        return dst

    def _quant_arrays(self, scales, zero_points):
        """``[(execution argument, position in the plan's run, array)]`` of
        the scales and zero points given."""
        return [(arg, pos, _values(v, self.dims, ax, np_dtype, what))
                for (arg, np_dtype, ax, what, pos), v in zip(self.quant, (scales, zero_points))
                if arg is not None]

    def _execute(self, a, dst, scales, zero_points):
        """:meth:`run` through ``primitive.execute`` (verbose prints its line)."""
        if not isinstance(dst, memory):
            dst = memory_over(self.dst_md, _ENGINE, self.dst_nbytes, dst)
        if type(a) is not np.ndarray:
            a = array_of(a)     # a tensor: its numpy view
        args = {_ARG_FROM: memory_over(self.src_md, _ENGINE, self.src_nbytes, a),
                _ARG_TO: dst}
        if self.quant is not None:
            for arg, _, v in self._quant_arrays(scales, zero_points):
                args[arg] = _quant_memory(v)
        self.prim.execute(self.stream, args)


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
        if np_dtype == np.float32 and (-_F32_MAX <= values <= _F32_MAX or t is float and (
                values != values or abs(values) == _INF)):     # NaN and inf are f32 too
            return np.array((values,), np.float32)
        if t is int and -2 ** 31 <= values < 2 ** 31:
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
    with np.errstate(over="ignore"):
        f32 = v.astype(np.float32)
    if (np.isinf(f32) & ~np.isinf(v)).any():
        raise invalid("%s must be f32 numbers (oneDNN's scales are f32): %s overflows"
                      % (what, short(v[np.isinf(f32) & ~np.isinf(v)][0])))
    return f32


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
    if type(x) is not np.ndarray and not is_tensor(x):
        if isinstance(x, memory):
            return _convert_memory(x, tag, dtype, scales, zero_points, axis)
        if _dask.is_dask(x):
            return _dask.convert(convert, x, tag, dtype, scales, zero_points, axis)

    def make(a):
        _check_input(a)
        ddt = data_type.undef if dtype is None else _dtypes.as_data_type(dtype)
        _no_f64_output(ddt, "convert")
        md = desc(list(a.shape), _dtypes.as_data_type(a.dtype) if dtype is None else ddt, tag)
        return _PreparedReorder(a, md, None, scales, zero_points, axis)
    return _run_prepared(x, ("convert", tag, type(tag), dtype, type(dtype), scales is None,
                             zero_points is None, axis, type(axis)),
                         True, make, (scales, zero_points))


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


def _numpy_out(shape, dt, order=None):
    _dtypes.require_ml_dtypes(dt)
    try:
        npdt = _dtypes.numpy_dtype(dt)
    except error:
        npdt = None
    if npdt is None or dt in _dtypes.SUB_BYTE or (
            dt in _dtypes.FLOATING and npdt.kind in "iu"):
        raise invalid("data type %s has no numpy array type here: use dnnl.convert, "
                      "which returns a memory" % dt.name)
    alloc, axes = layout_of_result(shape, order)
    return _empty(alloc, npdt, axes)


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
        points of the wrong count or type, zero points not int32 integers;
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
        ``dtype``; scales or zero points of the wrong count or type; ``axis``
        out of range or given without scales and zero points; an input that
        is not an array.
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
    if type(x) is not np.ndarray and not is_tensor(x):
        if _dask.is_dask(x):
            return _dask.reorder(function, x, scales, zero_points, axis, dtype)
        if isinstance(x, memory):
            x = as_numpy(x)         # its logical values

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
        call = _PreparedReorder(one, from_array(out.reshape(one.shape) if r.ndim < 1
                                                else out)._md,
                                out.dtype, scales, zero_points, axis, alloc, axes)
        return _Widened(call) if wide else call
    return _run_prepared(x, (function, dtype, type(dtype), scales is None,
                             zero_points is None, axis, type(axis)),
                         rounds, make, (scales, zero_points))


# ------------------------------------------------------------------ resampling
_MODES = {"linear": algorithm.resampling_linear, "nearest": algorithm.resampling_nearest}
# PyTorch's names (F.interpolate) for the same rules, with the rank they
# need there. PyTorch's own "nearest" is another rule (floor(o * in / out));
# ours is its "nearest-exact".
_PYTORCH_MODES = {"nearest-exact": ("nearest", None), "bilinear": ("linear", 4),
                  "trilinear": ("linear", 5)}
_FIRST = {"nchw": None, "ncw": 3, "ncdhw": 5, "channels_first": None}
_LAST = {"nhwc": None, "nwc": 3, "ndhwc": 5, "channels_last": None}


def _resampling_setup(a, mode, layout):
    """The algorithm and whether channels come last, for the array ``a``
    the kernels read."""
    _check_input(a)
    if a.ndim not in (3, 4, 5):
        raise invalid("resampling takes 3, 4 or 5 dims (N, C and 1-3 spatial), not %d%s"
                      % (a.ndim, "; a single image? add a batch dim: x[None]"
                         if a.ndim == 2 else ""))
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
    return alg, last


class _PreparedResampling:
    """One resampling of the array layer, made once: the primitive, its plan,
    the descriptors of its input and output and the output's shape and type."""

    __slots__ = ("prim", "plan", "stream", "in_arg", "in_md", "in_nbytes", "out_arg",
                 "out_md", "out_nbytes", "out_shape", "out_axes", "out_dtype")

    def __init__(self, prim, in_arg, out_arg, src, dst, out):
        """``src`` / ``dst``: memories of the call's definition (``in_arg`` /
        ``out_arg``), ``dst`` over the numpy array ``out``, whose memory
        order the results keep."""
        self.prim, self.plan, self.stream = prim, prim.ready_plan(), stream(_ENGINE)
        self.in_arg, self.out_arg = in_arg, out_arg
        self.in_md, self.in_nbytes = src._md, src._nbytes
        self.out_md, self.out_nbytes = dst._md, dst._nbytes
        self.out_shape, self.out_axes = layout_of_result(out.shape, memory_order(out))
        self.out_dtype = out.dtype

    def run(self, a):
        """Resample ``a`` (of this call's definition) into a new array."""
        a, src = _address_aligned(a)
        return self.run_at(src, a)

    def run_at(self, src, a):
        """:meth:`run` of the input ``a`` (an array or a torch tensor of the
        call's definition) at the element-aligned address ``src``."""
        out = _empty(self.out_shape, self.out_dtype, self.out_axes)
        plan = self.plan
        if plan is None or _verbose.exec_on:    # through execute: verbose prints
            if type(a) is not np.ndarray:
                a = array_of(a)     # a tensor: its numpy view
            self.prim.execute(self.stream, {
                self.in_arg: memory_over(self.in_md, _ENGINE, self.in_nbytes, a),
                self.out_arg: memory_over(self.out_md, _ENGINE, self.out_nbytes, out)})
        else:
            plan.run(src, _address(out))
        return out


class _Zeros:
    """The gradient of a resampling none of whose outputs exist (an empty
    ``diff_dst`` spatial size): zeros, which oneDNN's primitive would not
    write (it skips a problem with an empty memory)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype

    def run(self, a):
        return np.zeros(self.shape, self.dtype)

    def run_at(self, address, a):
        return self.run(a)


# the calls that read their input where it is: a tensor's key may share them
_DIRECT = (_PreparedReorder, _PreparedResampling, _Widened, _Zeros)


def _value_key(v):
    """``v`` (sizes, factors) as part of a key: its values and their types,
    since a size of 4.0 is refused where 4 is taken, and a factor True where
    1 is (a list counts as the tuple of its items)."""
    t = type(v)
    if t is tuple or t is list:
        return tuple(v), tuple(map(type, v))
    return v, t


def _resampling_call(what, x, mode, layout, prepare):
    """Run the resampling of ``x`` that ``prepare(a)`` makes (and checks)
    once per definition, for an array ``a`` the kernels read: ``what``
    (operation, then the sizes' and factors' :func:`_value_key`), shape,
    strides, data type, mode and layout."""
    if type(x) is not np.ndarray and not is_tensor(x) and isinstance(x, memory):
        x = as_numpy(x)         # its logical values (dask: the callers')
    return _run_prepared(x, (what, mode, type(mode), layout, type(layout)), True, prepare, ())


def _check_empty(src_spatial, dst_spatial, backward):
    """Refuse a resampling from an empty spatial size to a non-empty one, as
    PyTorch and OpenCV do (oneDNN's primitive would write nothing)."""
    if 0 in src_spatial and 0 not in dst_spatial:
        raise invalid("%s spatial size %s is empty: nothing to %s %s from (PyTorch and "
                      "OpenCV refuse this too)"
                      % ("the input's" if not backward else "size",
                         short(list(src_spatial)),
                         "resample" if not backward else "take a gradient of a",
                         short(list(dst_spatial)) if not backward else "resampling"))


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
    alloc, axes = layout_of_result(shape, memory_order(a))     # ``a``'s memory order
    return _empty(alloc, a.dtype, axes)


def _one_image(a, last, count):
    """A hint when ``count`` sizes or factors, one more than the spatial
    dims, suggest a single image without its batch dim."""
    if last and a.ndim == 3 and count == 2:
        return ("; a single H x W x C image? add the batch dim: "
                "dnnl.resample(img[None], ..., layout='nhwc')[0]")
    if not last and a.ndim == 3 and count == 2:
        return "; a single C x H x W image? add the batch dim: img[None]"
    return ""


def _sizes(size, k, hint=lambda count: ""):
    """Output sizes: integers only, as every dim (docs/errors.md): a float,
    even 4.0, is refused rather than truncated. ``hint(count)``: what to add
    to the message when ``count`` sizes do not fit ``k`` spatial dims."""
    if not isinstance(size, (list, tuple, range, np.ndarray)):
        size = [size] * k
    try:
        out = list(integers(size, "size"))
    except invalid_type as e:
        raise wrong_type("%s: a size counts pixels (round it yourself, or pass "
                         "factors= for a scale)" % e.message) from None
    if len(out) != k:
        raise invalid("%d sizes given for %d spatial dims%s" % (len(out), k, hint(len(out))))
    if any(v < 0 for v in out):
        raise invalid("sizes must be non-negative, not %s" % short(out))
    return out


_REAL = (int, float, np.integer, np.floating)


def _factors(factors, k, hint=lambda count: ""):
    """Scale factors: real numbers (no bool, no string); ``hint`` as for
    :func:`_sizes`."""
    if not isinstance(factors, (list, tuple, range, np.ndarray)):
        factors = [factors] * k
    for i, f in enumerate(factors):
        if not isinstance(f, _REAL) or isinstance(f, (bool, np.bool_)):
            raise wrong_type("factors[%d] must be a real number, not %s (%s)"
                             % (i, a_type(f), short(f)))
    if len(factors) != k:
        raise invalid("%d factors given for %d spatial dims%s"
                      % (len(factors), k, hint(len(factors))))
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
        Instead of ``size``: ``out = trunc(in * f32(factor))``, as oneDNN;
        the coordinates are then mapped by the sizes (``in / out``), not by
        the factor. PyTorch's ``F.interpolate(x, scale_factor=f)`` maps by
        ``1 / f`` unless ``recompute_scale_factor=True``: the two agree when
        ``in * f`` is whole (``f = 2``); otherwise ours is
        ``F.interpolate(x, scale_factor=f, recompute_scale_factor=True)``.
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
        A new array in the same layout and data type as ``x``, in ``x``'s
        memory order when ``x`` is dense (an NHWC buffer seen as NCHW, a torch
        ``channels_last`` tensor: PyTorch keeps the memory format too), else
        C-contiguous.

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
    def prepare(a):
        alg, last = _resampling_setup(a, mode, layout)
        src = from_array(_logical(a, last))
        k = a.ndim - 2
        hint = lambda count: _one_image(a, last, count)   # noqa: E731
        if (size is None) == (factors is None):
            raise invalid("give either size or factors")
        if size is not None:
            spatial = _sizes(size, k, hint)
        else:
            from dnnl.resampling import _dst_from_factors
            spatial = list(_dst_from_factors(src._md, _factors(factors, k, hint)).dims[2:])
        _check_empty(src._md.dims[2:], spatial, False)
        out = _new_output(a, last, spatial)
        dst = from_array(_logical(out, last))
        from dnnl.resampling import resampling_forward
        pd = resampling_forward.primitive_desc(_ENGINE, prop_kind.forward_inference, alg,
                                               src._md, dst._md)
        return _PreparedResampling(resampling_forward(pd), _ARG_SRC, _ARG_DST, src, dst, out)
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
        ``diff_src``: a new array of the input's shape, in ``diff_dst``'s
        data type and memory order (as :func:`resample`); every element the
        f32 sum of the weighted gradients that reach it.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> dnnl.resample_backward(np.ones((1, 1, 8), np.float32), 2)
    array([[[4., 4.]]], dtype=float32)
    """
    if type(diff_dst) is not np.ndarray and _dask.is_dask(diff_dst):
        return _dask.backward(resample_backward, diff_dst, size, mode, layout)
    def prepare(a):
        alg, last = _resampling_setup(a, mode, layout)
        dd = from_array(_logical(a, last))
        out = _new_output(a, last, _sizes(size, a.ndim - 2,
                                          lambda count: _one_image(a, last, count)))
        ds = from_array(_logical(out, last))
        _check_empty(ds._md.dims[2:], dd._md.dims[2:], True)
        if 0 in dd._md.dims[2:] and out.size:
            return _Zeros(out.shape, out.dtype)     # no output reached: no gradient
        from dnnl.resampling import resampling_backward
        pd = resampling_backward.primitive_desc(_ENGINE, alg, ds._md, dd._md)
        return _PreparedResampling(resampling_backward(pd), _ARG_DIFF_DST, _ARG_DIFF_SRC,
                                   dd, ds, out)
    return _resampling_call(("resample_backward", _value_key(size)), diff_dst, mode, layout,
                            prepare)
