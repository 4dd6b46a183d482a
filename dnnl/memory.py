"""``dnnl.memory``: a descriptor plus a buffer, as ``dnnl::memory``.

The buffer is the library's own (``DNNL_MEMORY_ALLOCATE``, 64-byte aligned,
uninitialised like oneDNN's), a user object with the buffer protocol (a numpy
array, ``bytearray``...; kept alive, never copied), a raw address (``int`` or
ctypes pointer) or nothing (``DNNL_MEMORY_NONE``). Element access always adds
the descriptor's ``offset0`` to the handle, as oneDNN does for sub-memory.
"""
import ctypes

import numpy as np

from dnnl import _dtypes
from dnnl._desc import RUNTIME, desc
from dnnl._enums import MACROS, data_type, format_kind, format_tag
from dnnl._error import invalid
from dnnl._kernels import offsets as _offsets
from dnnl.engine import engine

DNNL_MEMORY_NONE = MACROS["DNNL_MEMORY_NONE"]
DNNL_MEMORY_ALLOCATE = MACROS["DNNL_MEMORY_ALLOCATE"]
_ALIGNMENT = 64


def _aligned_bytes(nbytes):
    raw = np.empty(nbytes + _ALIGNMENT, dtype=np.uint8)
    shift = (-raw.ctypes.data) % _ALIGNMENT
    return raw[shift:shift + nbytes]


def _address_of(handle):
    """A raw address from an int or any ctypes pointer-like object, else None."""
    if isinstance(handle, (int, np.integer)) and not isinstance(handle, bool):
        return int(handle)
    if isinstance(handle, ctypes.c_void_p):
        return handle.value or 0
    if isinstance(handle, (ctypes._Pointer, ctypes.Array)):
        return ctypes.cast(handle, ctypes.c_void_p).value or 0
    return None


def span_bytes(md):
    """Bytes a buffer needs from its handle: every element and padding position
    the layout can reach, ``offset0`` included.

    This is at least ``get_size() + offset0`` bytes; it is more for a
    sub-memory whose padded dims are smaller than a block, where oneDNN's
    ``get_size`` reports 0 (so nothing is ever accessed out of bounds).
    """
    if md.ndims == 0 or md.format_kind != format_kind.blocked or 0 in md.dims:
        return 0
    table, starts, sizes = _offsets.dim_tables(md, padded=True)
    last = md.offset0 + sum(int(table[s:s + n].max()) for s, n in zip(starts, sizes))
    sub_byte = md.data_type in _dtypes.SUB_BYTE
    size = md.get_size() * (2 if sub_byte else 1) // _dtypes.size(md.data_type)
    elems = max(last + 1, size + md.offset0)
    if sub_byte:
        return (elems + 1) // 2
    return elems * _dtypes.size(md.data_type)


class memory:
    """Memory: a descriptor, an engine and a buffer.

    >>> import dnnl, numpy as np
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> md = dnnl.memory.desc([1, 3, 2, 2], dnnl.memory.data_type.f32,
    ...                       dnnl.memory.format_tag.nhwc)
    >>> mem = dnnl.memory(md, eng)
    >>> mem.from_numpy(np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2))
    >>> mem.map_data()          # physical order: channels innermost
    array([ 0.,  4.,  8.,  1.,  5.,  9.,  2.,  6., 10.,  3.,  7., 11.],
          dtype=float32)

    See Also
    --------
    dnnl_memory_create, dnnl_memory_get_data_handle
    """

    desc = desc
    data_type = data_type
    format_tag = format_tag
    format_kind = format_kind
    DNNL_MEMORY_NONE = DNNL_MEMORY_NONE
    DNNL_MEMORY_ALLOCATE = DNNL_MEMORY_ALLOCATE

    def __init__(self, md, aengine, handle=DNNL_MEMORY_ALLOCATE):
        if md is None:
            md = desc()
        if not isinstance(md, desc):
            raise invalid("memory needs a dnnl.memory.desc, got %r" % type(md).__name__)
        if not isinstance(aengine, engine):
            raise invalid("memory needs a dnnl.engine")
        if md.format_kind == format_kind.any:
            raise invalid("cannot create memory for a descriptor with format any")
        if RUNTIME in md.dims or RUNTIME in md.strides:
            raise invalid("cannot create memory for a descriptor with runtime dims")
        self._md = md
        self._engine = aengine
        self._nbytes = span_bytes(md)
        self._attach(handle)

    # -- the buffer -----------------------------------------------------------
    def _attach(self, handle):
        handle = _interop_handle(handle)
        nbytes = self._nbytes
        if handle is None:
            handle = DNNL_MEMORY_NONE
        address = _address_of(handle)
        if address == DNNL_MEMORY_ALLOCATE:
            self._data = _aligned_bytes(nbytes) if nbytes else None
        elif address == DNNL_MEMORY_NONE:
            self._data = None
        elif address is not None:
            if address < 0:
                raise invalid("invalid data handle %#x" % address)
            buf = (ctypes.c_uint8 * nbytes).from_address(address) if nbytes else None
            self._data = (np.ctypeslib.as_array(buf) if nbytes
                          else np.empty(0, dtype=np.uint8))
        else:
            try:
                view = memoryview(handle)
            except TypeError:
                raise invalid("data handle must be a buffer, an address or a "
                              "ctypes pointer, not %r" % type(handle).__name__) from None
            if not view.c_contiguous:
                raise invalid("data handle buffer must be C-contiguous")
            data = np.frombuffer(view.cast("B") if view.ndim != 1 or view.format != "B"
                                 else view, dtype=np.uint8)
            if data.size < nbytes:
                raise invalid("buffer of %d bytes is too small for %r, which needs %d"
                              % (data.size, self._md, nbytes))
            self._data = data
        self._handle_obj = handle
        # Raw addresses are taken as writable, as in C; buffer objects say.
        self._readonly = self._data is not None and not self._data.flags.writeable
        if self._data is None:
            self._address = 0
        elif self._data.size == 0:
            self._address = address or 0
        else:
            self._address = self._data.__array_interface__["data"][0]

    def get_data_handle(self):
        """The buffer's base address as an int (0 when there is none)."""
        return self._address

    def set_data_handle(self, handle, astream=None):
        """Point the memory at another buffer (no copy).

        oneDNN 3.x writes nothing here. Passing a stream selects the v2.x
        behaviour of ``set_data_handle(handle, stream)``: the padding of a
        blocked layout is zero-filled in the new buffer.
        """
        self._attach(handle)
        if astream is not None:
            self.zero_pad()

    def get_desc(self):
        return self._md

    def get_engine(self):
        return self._engine

    @property
    def nbytes(self):
        """Bytes from the handle to the end of the layout (``offset0`` included)."""
        return self._nbytes

    def _bytes(self):
        if self._data is None:
            if self._nbytes:
                raise invalid("memory has no buffer (DNNL_MEMORY_NONE)")
            return np.empty(0, dtype=np.uint8)
        return self._data

    def map_data(self, dtype=None):
        """A numpy view of the physical buffer, typed by element.

        Sub-byte types (two per byte) and types numpy lacks come as their raw
        storage (``uint8``, ``uint16``); pass ``dtype`` to choose the view.
        """
        raw = self._bytes()
        if dtype is None:
            if self._md.data_type in _dtypes.SUB_BYTE or self._md.ndims == 0:
                return raw
            dtype = _dtypes.numpy_dtype(self._md.data_type)
        dtype = np.dtype(dtype)
        usable = raw.size - raw.size % dtype.itemsize
        return raw[:usable].view(dtype)

    def unmap_data(self, mapped):
        """Nothing to do on the CPU."""

    # -- logical access -------------------------------------------------------
    def _element_offsets(self, padded=False):
        return _offsets.all_offsets(self._md, padded)

    def to_numpy(self):
        """A logical copy: an array of shape ``dims`` in any layout.

        bf16 / f8 / f4 come as ml_dtypes arrays when that package is installed
        (raw integer codes otherwise); s4 / u4 unpack to int8 / uint8.
        """
        md = self._md
        if md.ndims == 0:
            return np.empty(0, dtype=np.float32)
        offs = self._element_offsets()
        raw = self._bytes()
        dt = md.data_type
        if dt in _dtypes.SUB_BYTE:
            codes = (raw[offs >> 1] >> ((offs & 1) << 2).astype(np.uint8)) & 0xF
            if dt == data_type.s4:
                codes = ((codes.astype(np.int8) << 4) >> 4).astype(np.int8)
            out = codes.view(_dtypes.numpy_dtype(dt)) if dt != data_type.s4 else codes
        else:
            out = self.map_data(_dtypes.numpy_dtype(dt, raw=True))[offs]
            out = out.view(_dtypes.numpy_dtype(dt))
        return out.reshape(md.dims)

    def from_numpy(self, array):
        """Write a logical array of shape ``dims`` (padding zero-filled).

        Values are cast with numpy's rules to the memory's element type; use a
        reorder for oneDNN's rounding and saturation.
        """
        md = self._md
        arr = np.asarray(array)
        if tuple(arr.shape) != tuple(md.dims):
            raise invalid("array of shape %s does not match dims %s"
                          % (arr.shape, list(md.dims)))
        dt = md.data_type
        raw = self._bytes()
        if not raw.flags.writeable:
            raise invalid("memory buffer is read-only")
        offs = self._element_offsets()
        self.zero_pad()
        if dt in _dtypes.SUB_BYTE:
            codes = np.ascontiguousarray(arr.astype(_dtypes.numpy_dtype(dt))).reshape(-1)
            codes = codes.view(np.uint8) & 0xF
            shift = ((offs & 1) << 2).astype(np.uint8)
            byte = offs >> 1
            # one nibble at a time: two elements may share a byte
            for parity in (0, 1):
                sel = (offs & 1) == parity
                b = byte[sel]
                keep = np.uint8(0xF0 if parity == 0 else 0x0F)
                raw[b] = (raw[b] & keep) | (codes[sel] << shift[sel])
        else:
            values = arr.astype(_dtypes.numpy_dtype(dt)).reshape(-1)
            view = self.map_data(_dtypes.numpy_dtype(dt, raw=True))
            view[offs] = values.view(view.dtype)

    def zero_pad(self):
        """Write zeros into the padding of a blocked layout (oneDNN's invariant)."""
        offs = _offsets.padding_offsets(self._md)
        if offs.size == 0:
            return
        raw = self._bytes()
        if self._md.data_type in _dtypes.SUB_BYTE:
            for parity in (0, 1):
                b = offs[(offs & 1) == parity] >> 1
                raw[b] &= np.uint8(0xF0 if parity == 0 else 0x0F)
        else:
            view = self.map_data(np.dtype("u%d" % _dtypes.size(self._md.data_type)))
            view[offs] = 0

    def __repr__(self):
        return "<dnnl.memory %s handle=%#x>" % (self._md, self.get_data_handle())

    # -- arrays: numpy / DLPack interop (implemented in dnnl.arrays) -----------
    @staticmethod
    def from_array(x, tag=None):
        """A memory over ``x``'s buffer, without copying (see
        :func:`dnnl.arrays.from_array`).

        Parameters
        ----------
        x : array_like
            A numpy array, a ``__dlpack__`` producer (a torch tensor) or a
            buffer-protocol object.
        tag : str or dnnl.memory.format_tag, optional
            A plain layout matching ``x``'s strides; by default the one they
            describe (``abcd...`` for C order, ``acdb`` for channels last).

        Returns
        -------
        dnnl.memory

        Examples
        --------
        >>> import dnnl, numpy as np
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> mem = dnnl.memory.from_array(x)
        >>> mem.get_desc().dims, mem.get_data_handle() == x.ctypes.data
        ((2, 3), True)
        """
        from dnnl import arrays
        return arrays.from_array(x, tag)

    @property
    def array(self):
        """The physical buffer as a numpy array shaped by the blocking (no copy).

        Outer dims in memory order, then the inner blocks, padding included:
        ``nChw16c`` of 2x17x3x4 is ``(2, 2, 3, 4, 16)``; ``nhwc`` is
        ``(N, H, W, C)``. Writes go to the memory. Sub-byte types (s4, u4,
        f4) raise ``dnnl.error``: use :meth:`map_data`.

        Examples
        --------
        >>> import dnnl
        >>> md = dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c")
        >>> dnnl.memory(md, dnnl.engine(dnnl.engine.kind.cpu, 0)).array.shape
        (2, 2, 3, 4, 16)
        """
        from dnnl import arrays
        return arrays.physical_array(self)

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(mem)``: the logical array, shape ``dims``.

        For a plain layout (no blocks) it is a view of the buffer: writes
        through it reach the memory. For a blocked layout it is a logical
        copy (``copy=False`` raises), as :meth:`to_numpy`.
        """
        from dnnl import arrays
        return arrays.to_array(self, dtype, copy)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """DLPack export of a plain layout (``np.from_dlpack(mem)``,
        ``torch.from_dlpack(mem)`` share the buffer). Blocked layouts and
        types numpy cannot export (bf16, f8) raise ``dnnl.error`` (also a
        ``BufferError``)."""
        from dnnl import arrays
        return arrays.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """``(kDLCPU, 0)``: the buffer is in host memory."""
        from dnnl import arrays
        return arrays.dlpack_device(self)


def _interop_handle(handle):
    """A torch tensor or other ``__dlpack__`` producer as a numpy view."""
    if handle is None or isinstance(handle, (int, np.ndarray, bytes, bytearray)) \
            or not hasattr(handle, "__dlpack__"):
        return handle
    from dnnl import arrays
    return arrays.memory_handle(handle)
