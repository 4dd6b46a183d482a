# cython: language_level=3
"""Logical copies: between a memory's physical buffer and a logical array.

A logical array has shape ``dims`` and is C-contiguous; the buffer holds the
layout the descriptor describes (permuted, blocked, padded, from
``offset0``). The copies go by strided boxes (``dnnl._model.offsets``'
``logical_boxes`` and ``padding_boxes``): runs by memcpy, transposes by
tiles, no per-element offset tables. 4-bit types (two per byte, low nibble
first) go through a byte-per-nibble copy of the bytes the layout reaches.
This is the work of ``memory.to_numpy``, ``from_numpy`` and ``zero_pad`` on
the bytes the memory gives them (it checks that it has them, writable).
Compiled (plain Python code, built by Cython): a small array's copy spends
most of its time in these lines.
"""
import math

import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import data_type, format_kind
from dnnl._core.error import invalid, wrong_type
from dnnl._model import offsets as _offsets


def to_numpy(md, raw):
    """A new array of shape ``dims``: the logical values of the dense
    descriptor ``md`` (ndims > 0) in ``raw``, its buffer as uint8."""
    dt = md.data_type
    if dt in _dtypes.SUB_BYTE:
        is_signed = dt == data_type.s4      # s4 codes are sign-extended to int8
        out = np.empty(md.dims, dtype=np.int8 if is_signed else np.uint8)
        if row_major(md):               # nibble order is logical order
            _check_nibbles(raw, md)
            _offsets.unpack_nibbles(raw.ctypes.data, md.offset0, md.nelems,
                                    out.ctypes.data, is_signed)
        elif md.nelems:
            _nibbles_to_logical(raw, md, out.view(np.uint8), is_signed)
        return out if is_signed else out.view(_dtypes.numpy_dtype(dt))
    out = np.empty(md.dims, dtype=_dtypes.numpy_dtype(dt, raw=True))
    if md.nelems:
        _copy_boxes(_offsets.logical_boxes(md), raw, 0, out, to_logical=True)
    return out.view(_dtypes.numpy_dtype(dt))


def logical_values(arr, dt):
    """``arr`` cast to the element type of ``dt`` (C-contiguous); numbers only."""
    if arr.dtype.kind not in "biuf" and not (
            arr.dtype.kind == "V" and arr.dtype.names is None and arr.dtype.itemsize <= 2):
        raise wrong_type("array holds %s values; from_numpy needs numbers" % arr.dtype)
    try:
        values = arr.astype(_dtypes.numpy_dtype(dt), copy=False)   # no copy when it is
    except (TypeError, ValueError) as exc:
        raise wrong_type("array of %s cannot be cast to %s: %s"
                         % (arr.dtype, dt.name, exc)) from None
    return np.ascontiguousarray(values)


def write_nibbles(md, raw, values):
    """Write ``values`` (:func:`logical_values` of a 4-bit ``md``) into the
    buffer ``raw``, its padding zero-filled and the other nibbles of the
    bytes it reaches kept."""
    if row_major(md):
        _check_nibbles(raw, md)
        _offsets.pack_nibbles(values.ctypes.data, md.nelems, raw.ctypes.data,
                              md.offset0)
        return
    nib, base = _unpack_nibbles(raw, md, dense=_dense_nibbles(md))
    _zero_boxes(_offsets.padding_boxes(md), nib, base)
    _copy_boxes(_offsets.logical_boxes(md), nib, base, values.view(np.uint8),
                to_logical=False)
    _pack_nibbles(nib, raw, base)


def write(md, raw, values):
    """Write ``values`` (:func:`logical_values` of ``md``, not 4-bit) into the
    buffer ``raw``; the padding is the caller's (``zero_pad``)."""
    _copy_boxes(_offsets.logical_boxes(md), raw, 0,
                values.view(_dtypes.numpy_dtype(md.data_type, raw=True)), to_logical=False)


def zero_padding(md, raw, boxes):
    """Write zeros into ``boxes`` (``md``'s padding boxes) of the buffer ``raw``."""
    if md.data_type in _dtypes.SUB_BYTE:
        nib, base = _unpack_nibbles(raw, md)
        _zero_boxes(boxes, nib, base)
        _pack_nibbles(nib, raw, base)
    else:
        _zero_boxes(boxes, raw, 0, np.dtype("u%d" % _dtypes.size(md.data_type)))


# -- by strided boxes ----------------------------------------------------------
def _box_steps(box, arr, base, room):
    """A box's copy_box steps ``[(size, physical step, logical step)]`` and
    its element offsets: physical (from ``base``, within ``room`` elements)
    and logical (in the C-contiguous ``arr``)."""
    offset, starts, _, axes = box
    esize = arr.itemsize
    steps, loff = [], 0
    for d, dim_axes in enumerate(axes):
        stride = arr.strides[d] // esize
        loff += starts[d] * stride
        for n, s in reversed(dim_axes):
            steps.append((n, s, stride))
            stride *= n
    if offset < base or offset - base + sum((n - 1) * s for n, s, _ in steps) >= room:
        raise invalid("a logical copy would leave the buffer")   # never: span_bytes
    return steps, offset - base, loff


def _copy_boxes(boxes, buf, base, arr, to_logical):
    """Copy every box between the physical ``buf`` (element-addressed, its
    element 0 at offset ``base``) and the C-contiguous logical ``arr``, by
    steps (runs by memcpy, transposes by tiles): the cost grows with the
    tensor only, and nothing is allocated."""
    esize = arr.itemsize
    room = buf.nbytes // esize
    pa, la = buf.ctypes.data, arr.ctypes.data
    for box in boxes:
        steps, poff, loff = _box_steps(box, arr, base, room)
        phys, logical = pa + poff * esize, la + loff * esize
        if to_logical:
            _offsets.copy_box(phys, logical, esize, steps)
        else:
            _offsets.copy_box(logical, phys, esize, [(n, d, s) for n, s, d in steps])


def _box_view(buf, base, offset, axes, dtype):
    """A numpy view of the element-addressed ``buf`` (element 0 at offset
    ``base``) over one box's axes; numpy checks it stays inside ``buf``."""
    axes = [ax for dim_axes in axes for ax in dim_axes]
    itemsize = dtype.itemsize
    return np.ndarray(tuple(n for n, _ in axes), dtype, buf, (offset - base) * itemsize,
                      tuple(s * itemsize for _, s in axes))


def _zero_boxes(boxes, buf, base, dtype=np.dtype(np.uint8)):
    for offset, _, _, axes in boxes:
        _box_view(buf, base, offset, axes, dtype)[...] = 0


def row_major(md):
    """True when the logical elements are consecutive from ``offset0``
    (a dense plain layout in logical order, no padding)."""
    if md.format_kind != format_kind.blocked or md.inner_blks or md.nelems == 0:
        return False
    expect = 1
    for n, s in zip(reversed(md.dims), reversed(md.strides)):
        if n != 1 and s != expect:
            return False
        expect *= n
    return True


def _check_nibbles(raw, md):
    if (md.offset0 + md.nelems + 1) // 2 > raw.size:
        raise invalid("a logical copy would leave the buffer")   # never: span_bytes


def _dense_nibbles(md):
    """True when every nibble of the bytes the layout reaches is an element
    or padding position (nothing else to keep)."""
    if not md.nelems:
        return False
    span = _offsets.max_offset(md) - md.offset0 + 1
    return md.offset0 % 2 == 0 and span % 2 == 0 and span == math.prod(md.padded_dims)


def _unpack_nibbles(raw, md, is_signed=False, dense=False):
    """The bytes the layout reaches as one uint8 per nibble (low nibble first,
    sign-extended when ``is_signed``); returns it with the nibble offset of its
    first entry. ``dense``: every nibble will be overwritten, skip reading."""
    first = md.offset0 >> 1
    end = (_offsets.max_offset(md) >> 1) + 1 if md.nelems else first
    if end > raw.size:
        raise invalid("a logical copy would leave the buffer")   # never: span_bytes
    nib = np.empty(2 * (end - first), dtype=np.uint8)
    if not dense:
        _offsets.unpack_nibbles(raw.ctypes.data, 2 * first, nib.size, nib.ctypes.data,
                                is_signed)
    return nib, 2 * first


#: nibbles unpacked at a time by a permuted or blocked 4-bit ``to_numpy``: the
#: byte-per-nibble copy stays in cache between the unpacking and the copy
_NIBBLE_CHUNK = 1 << 20


def _span(offset, axes):
    """(first, last) element offset a box reaches."""
    lo = hi = offset
    for dim_axes in axes:
        for n, s in dim_axes:
            if s < 0:
                lo += (n - 1) * s
            else:
                hi += (n - 1) * s
    return lo, hi


def _chunks(box, limit):
    """``box`` as boxes that each reach at most ``limit`` offsets, cut along
    the outermost axis of a dim (logical starts stay whole ranges)."""
    offset, starts, shape, axes = box
    lo, hi = _span(offset, axes)
    cut = [d for d, dim_axes in enumerate(axes) if dim_axes and dim_axes[0][0] > 1]
    if hi - lo < limit or not cut:
        yield box
        return
    d = max(cut, key=lambda d: abs(axes[d][0][1]))
    (n, stride), rest = axes[d][0], axes[d][1:]
    inner = math.prod(m for m, _ in rest)
    step = max(1, limit // max(1, abs(stride)))
    for i in range(0, n, step):
        k = min(step, n - i)
        sub_axes = axes[:d] + (((k, stride),) + tuple(rest),) + axes[d + 1:]
        sub = (offset + i * stride, starts[:d] + (starts[d] + i * inner,) + starts[d + 1:],
               shape[:d] + (k * inner,) + shape[d + 1:], sub_axes)
        yield from _chunks(sub, limit)


def _nibbles_to_logical(raw, md, out, is_signed):
    """Unpack and copy a permuted or blocked 4-bit layout chunk by chunk (in
    parallel), each through a small byte-per-nibble buffer of its thread."""
    chunks = []
    for box in _offsets.logical_boxes(md):
        for sub in _chunks(box, _NIBBLE_CHUNK):
            lo, hi = _span(sub[0], sub[3])
            first = lo & ~1
            n = hi + 1 - first
            if (hi >> 1) >= raw.size or lo < 0:
                raise invalid("a logical copy would leave the buffer")   # never: span_bytes
            steps, toff, loff = _box_steps(sub, out, first, n)
            chunks.append((first, n, toff, loff, steps))
    _offsets.unpack_boxes(raw.ctypes.data, chunks, out.ctypes.data, is_signed)


def _pack_nibbles(nib, raw, base):
    """Store ``_unpack_nibbles``' array back (values are masked to 4 bits)."""
    if nib.size:
        _offsets.pack_nibbles(nib.ctypes.data, nib.size, raw.ctypes.data, base)
