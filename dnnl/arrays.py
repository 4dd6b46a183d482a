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
``__dlpack__``) is implemented here too, behind the methods of
:class:`dnnl.memory`.
"""
import operator
import sys

import numpy as np

from dnnl import _dtypes
from dnnl._desc import desc
from dnnl._enums import (C, algorithm, data_type, engine_kind, format_kind, format_tag,
                         prop_kind, status)
from dnnl._error import error, invalid, invalid_arguments
from dnnl.attr import primitive_attr
from dnnl.engine import engine, stream
from dnnl.memory import memory, span_bytes

__all__ = ["from_array", "convert", "quantize", "dequantize", "resample",
           "resample_backward", "plain_tag", "default_engine"]

_ENGINE = engine(engine_kind.cpu, 0)
_ARG_FROM, _ARG_TO = C["DNNL_ARG_FROM"], C["DNNL_ARG_TO"]
_ARG_SRC, _ARG_DST = C["DNNL_ARG_SRC"], C["DNNL_ARG_DST"]
_ARG_DIFF_SRC, _ARG_DIFF_DST = C["DNNL_ARG_DIFF_SRC"], C["DNNL_ARG_DIFF_DST"]
_ARG_SCALES, _ARG_ZPS = C["DNNL_ARG_ATTR_SCALES"], C["DNNL_ARG_ATTR_ZERO_POINTS"]
_INTEGRAL = frozenset({data_type.s64, data_type.s32, data_type.s8, data_type.u8,
                       data_type.s4, data_type.u4})
_KDLCPU = 1


class _dlpack_error(invalid_arguments, BufferError):
    """Not exportable through DLPack (``invalid_arguments``; a BufferError
    too, as the DLPack protocol asks)."""


def default_engine():
    """The CPU engine that the array-level functions put their memories on.

    Returns
    -------
    dnnl.engine
        One engine for the process; create streams on it to execute your
        own primitives on memories made by :func:`from_array`.
    """
    return _ENGINE


# ------------------------------------------------------------------ import
def _via_int_view(x):
    """torch bf16 / f8 tensors (numpy's DLPack import refuses those types):
    import the same bytes as integers and view them as ml_dtypes."""
    torch = sys.modules.get("torch")
    if torch is None or _dtypes._ml is None or not isinstance(x, torch.Tensor):
        return None
    pair = {"bfloat16": ("int16", "bfloat16"), "float8_e4m3fn": ("uint8", "float8_e4m3fn"),
            "float8_e5m2": ("uint8", "float8_e5m2")}.get(str(x.dtype).replace("torch.", ""))
    if pair is None:
        return None
    return np.from_dlpack(x.view(getattr(torch, pair[0]))).view(getattr(_dtypes._ml, pair[1]))


def as_numpy(x):
    """A numpy array sharing ``x``'s memory (never a copy).

    ``x``: a numpy array, a ``__dlpack__`` producer on the CPU (torch, JAX...)
    or an object with the buffer protocol. Anything else raises
    ``dnnl.error`` (invalid arguments).
    """
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, memory):
        return x.__array__(copy=False)
    if hasattr(x, "__dlpack__"):
        try:
            return np.from_dlpack(x)
        except Exception as exc:
            try:
                a = _via_int_view(x)
            except Exception:
                a = None
            if a is not None:
                return a
            raise invalid("cannot import %s through DLPack: %s"
                          % (type(x).__name__, exc)) from None
    try:
        return np.asarray(memoryview(x))
    except (TypeError, ValueError, NotImplementedError):
        raise invalid("expected a numpy array, a buffer or a __dlpack__ producer, "
                      "not %s" % type(x).__name__) from None


def _element_strides(a):
    """Strides of ``a`` in elements (unit dims: 0); negative or misaligned
    strides are refused."""
    out = []
    for n, s in zip(a.shape, a.strides):
        if n == 1:
            out.append(0)
            continue
        if s < 0 or s % a.itemsize:
            raise invalid("strides %s (bytes) are not non-negative multiples of the "
                          "element size %d: copy with np.ascontiguousarray first"
                          % (a.strides, a.itemsize))
        out.append(s // a.itemsize)
    return out


def plain_tag(shape, strides):
    """The plain tag whose dense layout ``strides`` (in elements) describe.

    Dims are ordered by decreasing stride (outermost first); a dim of size 1
    goes just before the next larger logical dim. Returns None when the
    strides are not a dense permutation (gaps, overlaps, broadcasts).

    Parameters
    ----------
    shape, strides : sequence of int
        Logical dims and their strides in elements.

    Returns
    -------
    str or None
        A tag name such as ``"abcd"`` or ``"acdb"`` (channels last).

    Examples
    --------
    >>> plain_tag((2, 3, 4, 5), (60, 20, 5, 1))
    'abcd'
    >>> plain_tag((2, 3, 4, 5), (60, 1, 15, 3))
    'acdb'
    >>> plain_tag((2, 3, 4, 5), (120, 40, 10, 2)) is None
    True
    """
    nd = len(shape)
    real = sorted((d for d in range(nd) if shape[d] != 1), key=lambda d: (-strides[d], d))
    expect = 1
    for d in reversed(real):
        if strides[d] != expect:
            return None
        expect *= shape[d]
    order = list(real)
    for d in sorted((d for d in range(nd) if shape[d] == 1), reverse=True):
        after = [e for e in order if e > d and shape[e] != 1]
        order.insert(order.index(min(after)) if after else len(order), d)
    return "".join(chr(ord("a") + d) for d in order)


class _Span:
    """``nbytes`` bytes at ``address`` as a uint8 array that keeps ``owner``
    alive (numpy's ``__array_interface__`` protocol)."""

    def __init__(self, owner, address, nbytes, readonly):
        self.owner = owner
        self.__array_interface__ = {"data": (address, readonly), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}


def _byte_span(a, nbytes):
    if nbytes == 0:
        return np.empty(0, dtype=np.uint8)
    address = a.__array_interface__["data"][0]
    return np.asarray(_Span(a, address, nbytes, not a.flags.writeable))


def from_array(x, tag=None):
    """A memory over ``x``'s buffer, without copying.

    Parameters
    ----------
    x : array_like
        A numpy array, a ``__dlpack__`` producer on the CPU (a torch tensor)
        or a buffer-protocol object, with at least one dim. Its dtype gives
        the data type (ml_dtypes ``bfloat16`` / ``float8_*`` included).
    tag : str or dnnl.memory.format_tag, optional
        The layout. By default it is the plain tag that ``x``'s strides
        describe: C-contiguous gives ``abcd...``, a torch ``channels_last``
        tensor ``acdb``; any dense permutation gives its plain tag; other
        strides (a slice with gaps, a broadcast) give a descriptor created
        from those strides. A given tag must be plain and match the strides.

    Returns
    -------
    dnnl.memory
        On :func:`default_engine`; writes through it are seen in ``x`` and the
        other way round. The memory keeps ``x``'s buffer alive.

    Raises
    ------
    dnnl.error
        ``invalid_arguments``: not an array, a 0-d array, a dtype oneDNN does
        not have, negative strides, a blocked tag (use :func:`convert`) or a
        tag that does not match the strides.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> nhwc = np.zeros((2, 3, 4, 5), np.float32)       # N, H, W, C in memory
    >>> mem = dnnl.memory.from_array(nhwc.transpose(0, 3, 1, 2))   # N, C, H, W dims
    >>> mem.get_desc() == dnnl.memory.desc([2, 5, 3, 4], "f32", "acdb")
    True
    """
    a = as_numpy(x)
    if a.ndim == 0:
        raise invalid("a 0-d array has no oneDNN layout: reshape it to (1,)")
    dt = _dtypes.as_data_type(a.dtype)
    if dt in _dtypes.SUB_BYTE or dt not in _dtypes.MD_TYPES:
        raise invalid("numpy dtype %s has no oneDNN memory layout" % a.dtype)
    shape = [int(n) for n in a.shape]
    strides = _element_strides(a)
    if tag is None:
        name = plain_tag(shape, strides)
        if name is not None and name in format_tag.__members__:
            md = desc(shape, dt, name)
        elif name is not None:
            md = desc(shape, dt, _dense_strides(shape, name))
        else:
            md = desc(shape, dt, strides)
    else:
        md = desc(shape, dt, tag)
        if md.format_kind != format_kind.blocked or md.inner_blks:
            raise invalid("tag %s is not a plain layout: an array has no padding or "
                          "blocks; use dnnl.convert(x, tag) for a copy" % (tag,))
        if a.size and any(n != 1 and s != t for n, s, t in zip(shape, strides, md.strides)):
            raise invalid("the array's strides %s do not describe tag %s (strides %s)"
                          % (strides, tag, list(md.strides)))
    return memory(md, _ENGINE, _byte_span(a, span_bytes(md) if a.size else 0))


def _dense_strides(shape, order):
    strides, s = [0] * len(shape), 1
    for ch in reversed(order):
        d = ord(ch) - ord("a")
        strides[d] = s
        s *= max(shape[d], 1)
    return strides


# ------------------------------------------------------------------ export
def _numpy_dtype(md):
    if md.data_type in _dtypes.SUB_BYTE:
        raise invalid("%s packs two elements per byte: numpy has no view of it "
                      "(use map_data() or to_numpy())" % md.data_type.name)
    return _dtypes.numpy_dtype(md.data_type)


def _view(mem, shape, strides):
    md = mem._md
    dtype = _numpy_dtype(md)
    raw = mem._bytes()
    if 0 in shape or raw.size == 0:
        return np.empty(shape, dtype)
    return np.ndarray(shape, dtype, buffer=raw, offset=md.offset0 * dtype.itemsize,
                      strides=[s * dtype.itemsize for s in strides])


def physical_array(mem):
    """``mem.array``: the physical buffer, shaped by the blocking, no copy.

    The outer dims come in memory order (outermost first, each padded dim
    divided by its block), then the inner blocks: ``nChw16c`` of 2x17x3x4
    gives shape ``(2, 2, 3, 4, 16)`` with the padding channels 17..31 in it.
    A plain ``nhwc`` memory gives ``(N, H, W, C)``.
    """
    md = mem._md
    if md.format_kind != format_kind.blocked:
        raise invalid("memory.array needs a blocked (concrete) layout")
    blocks = md.blocks
    outer = [p // b for p, b in zip(md.padded_dims, blocks)]
    order = sorted(range(md.ndims), key=lambda d: (-md.strides[d], -outer[d], d))
    inner, s = [], 1
    for b in reversed(md.inner_blks):
        inner.insert(0, s)
        s *= b
    return _view(mem, [outer[d] for d in order] + list(md.inner_blks),
                 [md.strides[d] for d in order] + inner)


def logical_view(mem):
    """The logical array over a plain layout's buffer (no copy), or None for
    a blocked one (its padding and blocks have no strided logical view)."""
    md = mem._md
    if md.ndims == 0 or md.format_kind != format_kind.blocked or md.inner_blks \
            or md.data_type in _dtypes.SUB_BYTE:
        return None
    return _view(mem, list(md.dims), list(md.strides))


def to_array(mem, dtype=None, copy=None):
    """``np.asarray(mem)``: a view for plain layouts, a logical copy otherwise."""
    view = logical_view(mem)
    if view is None:
        if copy is False:
            raise invalid("a blocked layout has no logical view: np.asarray(mem) "
                          "copies, copy=False cannot be honoured")
        out = mem.to_numpy()
    else:
        out = view.copy() if copy else view
    if dtype is not None and np.dtype(dtype) != out.dtype:
        if copy is False:
            raise invalid("converting to %s copies, copy=False cannot be honoured" % dtype)
        out = out.astype(dtype)
    return out


def dlpack(mem, stream=None, max_version=None, dl_device=None, copy=None):
    """``mem.__dlpack__``: a capsule of the logical view of a plain layout."""
    view = logical_view(mem)
    if view is None:
        raise _dlpack_error(status.invalid_arguments, "only plain layouts can be shared "
                            "through DLPack: dnnl.convert(mem, plain tag) first")
    kwargs = {k: v for k, v in (("stream", stream), ("max_version", max_version),
                                ("dl_device", dl_device), ("copy", copy)) if v is not None}
    try:
        return view.__dlpack__(**kwargs)
    except BufferError as exc:
        raise _dlpack_error(status.invalid_arguments, str(exc)) from None


def dlpack_device(mem):
    """``mem.__dlpack_device__``: ``(kDLCPU, 0)``."""
    return (_KDLCPU, 0)


def memory_handle(handle):
    """What ``dnnl.memory(md, eng, x)`` attaches for ``x``: a ``__dlpack__``
    producer without the buffer protocol (a torch tensor) becomes a numpy
    view of it, in its physical order; anything else is left as is."""
    if isinstance(handle, (np.ndarray, bytes, bytearray, memoryview, int)) \
            or not hasattr(handle, "__dlpack__"):
        return handle
    try:
        memoryview(handle)
        return handle
    except TypeError:
        pass
    a = as_numpy(handle)
    if not a.flags.c_contiguous and a.ndim:
        name = plain_tag(a.shape, _element_strides(a))
        if name is not None:     # a dense permutation (channels_last): its bytes in order
            a = a.transpose([ord(ch) - ord("a") for ch in name])
    return a


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


def _quant_memory(values, dt):
    m = memory(desc([values.size], dt, "a"), _ENGINE, _byte_span(values, values.nbytes))
    m._keep = values
    return m


def _run_reorder(src, dst, scales=None, zero_points=None, axis=None):
    """Reorder ``src`` into ``dst``; scales / zero points quantize the
    integral side: dst when its type is integral, else src."""
    dims = list(src._md.dims)
    ax = None if axis is None else _axis(axis, len(dims))
    if ax is not None and scales is None and zero_points is None:
        raise invalid("axis is given without scales or zero points")
    side = _ARG_TO if dst._md.data_type in _INTEGRAL else _ARG_FROM
    mask = 0 if ax is None else 1 << ax
    args = {_ARG_FROM: src, _ARG_TO: dst}
    attr = None
    if scales is not None or zero_points is not None:
        attr = primitive_attr()
        if scales is not None:
            attr.set_scales_mask(side, mask)
            args[_ARG_SCALES | side] = _quant_memory(
                _values(scales, dims, ax, np.float32, "scales"), data_type.f32)
        if zero_points is not None:
            attr.set_zero_points_mask(side, mask)
            args[_ARG_ZPS | side] = _quant_memory(
                _values(zero_points, dims, ax, np.int32, "zero points"), data_type.s32)
    from dnnl.reorder import reorder
    prim = reorder(src, dst) if attr is None else reorder(src, dst, attr)
    prim.execute(stream(src.get_engine()), args)


def convert(x, tag, dtype=None, *, scales=None, zero_points=None, axis=None):
    """Reorder ``x`` into a new memory of layout ``tag`` and data type ``dtype``.

    Parameters
    ----------
    x : dnnl.memory or array_like
        The source: a memory, or an array taken without copying
        (:func:`from_array`).
    tag : str or dnnl.memory.format_tag
        The destination layout (``"nChw16c"``, ``"acdb"``, ``"OIhw16i16o"``...).
    dtype : data type, optional
        The destination data type (``"s8"``, ``np.int8``,
        ``dnnl.memory.data_type.bf16``...); default: the source's.
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
        A new memory (on the source memory's engine), padding zeroed.

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
    src = x if isinstance(x, memory) else from_array(x)
    smd = src._md
    ddt = smd.data_type if dtype is None else _dtypes.as_data_type(dtype)
    dst = memory(desc(list(smd.dims), ddt, tag), src.get_engine())
    _run_reorder(src, dst, scales, zero_points, axis)
    return dst


def _numpy_out(shape, dt):
    try:
        npdt = _dtypes.numpy_dtype(dt)
    except error:
        npdt = None
    if npdt is None or dt in _dtypes.SUB_BYTE or (
            dt in _dtypes.FLOATING and npdt.kind in "iu"):
        raise invalid("data type %s has no numpy array type here%s" % (
            dt.name, " (install ml_dtypes)" if dt in (data_type.bf16, data_type.f8_e5m2,
                                                       data_type.f8_e4m3) else ""))
    return np.empty(shape, npdt)


def _float_input(x):
    a = as_numpy(x)
    if a.dtype == np.float64:
        a = a.astype(np.float32)    # oneDNN's reorder has no f64 source
    return a


def quantize(x, scale, zero_point=None, *, axis=None, dtype="s8"):
    """Quantize: ``q = saturate(round_half_even(x / scale) + zero_point)``.

    A reorder with a destination scale and zero point, so oneDNN's exact
    arithmetic: ``x / scale`` in f32 (a division, not a multiplication by
    ``1 / scale``), plus the zero point, rounded to nearest even, saturated
    to the type's range.

    Parameters
    ----------
    x : array_like
        f32, f16 or bf16 values (float64 is rounded to f32 first), any layout.
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
    a = _float_input(x)
    ddt = _dtypes.as_data_type(dtype)
    if ddt not in _INTEGRAL:
        raise invalid("quantize needs an integral dtype, not %s" % ddt.name)
    return _reorder_to_numpy(a, ddt, scale, zero_point, axis)


def dequantize(q, scale, zero_point=None, *, axis=None, dtype="f32"):
    """Dequantize: ``x = scale * (q - zero_point)``, in f32.

    A reorder with a source scale and zero point: ``q - zero_point`` in
    int32, converted to f32, times the scale (one f32 rounding), then
    converted to ``dtype``. The same as
    ``torch.dequantize`` of a per-tensor or per-channel quantized tensor.

    Parameters
    ----------
    q : array_like
        s8, u8 or s32 values.
    scale : float or array_like
        One scale, or one per index of ``axis``.
    zero_point : int or array_like, optional
        One zero point, or one per index of ``axis``; default 0.
    axis : int, optional
        The dim of per-channel quantization.
    dtype : data type, default "f32"
        ``"f32"``, ``"f16"`` or ``"bf16"`` (with ml_dtypes).

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
    a = as_numpy(q)
    ddt = _dtypes.as_data_type(dtype)
    if ddt in _INTEGRAL:
        raise invalid("dequantize needs a floating-point dtype, not %s" % ddt.name)
    if a.ndim and _dtypes.as_data_type(a.dtype) not in _INTEGRAL:
        raise invalid("dequantize needs integer input, not %s" % a.dtype)
    return _reorder_to_numpy(a, ddt, scale, zero_point, axis)


def _reorder_to_numpy(a, ddt, scales, zero_points, axis):
    shape = a.shape
    if a.ndim == 0:
        a = a.reshape(1)
    out = _numpy_out(a.shape, ddt)
    _run_reorder(from_array(a), from_array(out), scales, zero_points, axis)
    return out.reshape(shape)


# ------------------------------------------------------------------ resampling
_MODES = {"linear": algorithm.resampling_linear, "nearest": algorithm.resampling_nearest}
_FIRST = {"nchw": None, "ncw": 3, "ncdhw": 5, "channels_first": None}
_LAST = {"nhwc": None, "nwc": 3, "ndhwc": 5, "channels_last": None}


def _resampling_setup(x, mode, layout):
    a = as_numpy(x)
    if a.ndim not in (3, 4, 5):
        raise invalid("resampling takes 3, 4 or 5 dims (N, C and 1-3 spatial), not %d"
                      % a.ndim)
    alg = _MODES.get(mode) if isinstance(mode, str) else None
    if alg is None:
        raise invalid("mode must be 'linear' or 'nearest', not %r" % (mode,))
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


def _logical(a, last):
    """N, C, spatial... view of an array (channels last: moved, no copy)."""
    return np.moveaxis(a, -1, 1) if last else a


def _new_output(a, last, spatial):
    n, c = (a.shape[0], a.shape[-1]) if last else a.shape[:2]
    shape = (n,) + tuple(spatial) + (c,) if last else (n, c) + tuple(spatial)
    return np.empty(shape, a.dtype)


def _spatial(values, k, kind, what):
    if isinstance(values, (int, float, np.integer, np.floating)) and not isinstance(
            values, bool):
        values = [values] * k
    try:
        out = [kind(v) for v in values]
    except (TypeError, ValueError):
        raise invalid("%s must be a number or a sequence of %d numbers" % (what, k)) from None
    if len(out) != k:
        raise invalid("%d %s given for %d spatial dims" % (len(out), what, k))
    if kind is int and any(v < 0 for v in out):
        raise invalid("%s must be non-negative" % what)
    return out


def resample(x, size=None, *, factors=None, mode="linear", layout="nchw"):
    """Resize the spatial dims of a batch (oneDNN's forward resampling).

    Parameters
    ----------
    x : array_like
        N x C x [D x] [H x] W (``layout="nchw"``) or N x [D x] [H x] W x C
        (``layout="nhwc"``); f32, f16, bf16, s32, s8 or u8.
    size : int or sequence of int, optional
        The output spatial size (one value for every spatial dim, or one per
        dim).
    factors : float or sequence of float, optional
        Instead of ``size``: ``out = trunc(in * f32(factor))``, as oneDNN.
    mode : {"linear", "nearest"}
        ``resampling_linear`` (bilinear / trilinear with half-pixel centres,
        ``align_corners=False``) or ``resampling_nearest`` (the source index
        is ``round((o + 0.5) * in / out - 0.5)``, halves away from zero).
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
        Bad input: ``invalid_arguments``; a data type resampling does not
        take (float64...): ``unimplemented``.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> x = np.float32([[[0, 1, 2, 3]]])
    >>> dnnl.resample(x, 8)
    array([[[0.  , 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.  ]]], dtype=float32)
    >>> dnnl.resample(x, factors=0.5, mode="nearest")
    array([[[1., 3.]]], dtype=float32)
    >>> img = np.arange(2 * 2 * 3, dtype=np.uint8).reshape(1, 2, 2, 3)   # NHWC
    >>> dnnl.resample(img, (4, 4), mode="nearest", layout="nhwc").shape
    (1, 4, 4, 3)
    """
    a, alg, last = _resampling_setup(x, mode, layout)
    src = from_array(_logical(a, last))
    k = a.ndim - 2
    if (size is None) == (factors is None):
        raise invalid("give either size or factors")
    if size is not None:
        spatial = _spatial(size, k, int, "sizes")
    else:
        from dnnl.resampling import _dst_from_factors
        spatial = list(_dst_from_factors(src._md, _spatial(factors, k, float, "factors"))
                       .dims[2:])
    out = _new_output(a, last, spatial)
    dst = from_array(_logical(out, last))
    from dnnl.resampling import resampling_forward
    pd = resampling_forward.primitive_desc(_ENGINE, prop_kind.forward_inference, alg,
                                           src._md, dst._md)
    resampling_forward(pd).execute(stream(_ENGINE), {_ARG_SRC: src, _ARG_DST: dst})
    return out


def resample_backward(diff_dst, size, *, mode="linear", layout="nchw"):
    """The gradient of :func:`resample` (oneDNN's backward resampling).

    Parameters
    ----------
    diff_dst : array_like
        The gradient of :func:`resample`'s output, in ``layout``; f32, f16,
        bf16, s32, s8 or u8.
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
    a, alg, last = _resampling_setup(diff_dst, mode, layout)
    dd = from_array(_logical(a, last))
    out = _new_output(a, last, _spatial(size, a.ndim - 2, int, "sizes"))
    ds = from_array(_logical(out, last))
    from dnnl.resampling import resampling_backward
    pd = resampling_backward.primitive_desc(_ENGINE, alg, ds._md, dd._md)
    resampling_backward(pd).execute(stream(_ENGINE), {_ARG_DIFF_DST: dd, _ARG_DIFF_SRC: ds})
    return out
