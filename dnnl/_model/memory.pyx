# cython: language_level=3, boundscheck=True, wraparound=True, cdivision=False
# cython: binding=True, embedsignature=True
"""``dnnl.memory``: a descriptor plus a buffer, as ``dnnl::memory``.

The buffer is the library's own (``DNNL_MEMORY_ALLOCATE``, 64-byte aligned,
uninitialised like oneDNN's), a user object with the buffer protocol (a numpy
array, ``bytearray``...; kept alive, never copied), a raw address (``int`` or
ctypes pointer) or nothing (``DNNL_MEMORY_NONE``). Element access always adds
the descriptor's ``offset0`` to the handle, as oneDNN does for sub-memory.

The type is a Cython extension type: a memory is made on every array call.
Its read-only fields (``md``, ``engine``, ``address``, ``nbytes``,
``capacity``, ``writable``) are what primitives and the array layer read;
the buffer object itself stays inside.
"""
cimport cython
cimport numpy as cnp
from libc.string cimport memcmp

from dnnl._model.desc cimport desc
from dnnl._model.fields cimport expose_fields

import ctypes

import numpy as np

cnp.import_array()

from dnnl._core import args as _args
from dnnl._core import dtypes as _dtypes
from dnnl._model import inputs as _inputs
from dnnl._model import interop as _interop
from dnnl._model import logical as _logical
from dnnl._model import scalar as _scalar
from dnnl._core.keys import remember
from dnnl._model.desc import RUNTIME, desc as desc_type
from dnnl._core.enums import MACROS, data_type, format_kind, format_tag, sparse_encoding, status
from dnnl._core.error import error, invalid, wrong_type
from dnnl._model import offsets as _offsets
from dnnl._model.engine import engine, stream
from dnnl._model.handles import address_of as _address_of, buffer_bytes as _buffer_bytes
from dnnl._model.handles import check_ctypes_size as _check_ctypes_size, one_buffer

DNNL_MEMORY_NONE = MACROS["DNNL_MEMORY_NONE"]
DNNL_MEMORY_ALLOCATE = MACROS["DNNL_MEMORY_ALLOCATE"]
cdef Py_ssize_t ALIGN = 64    # oneDNN's alignment of the buffers it allocates
_ALIGNMENT = ALIGN


def _aligned_bytes(nbytes):
    try:
        return _offsets.aligned_bytes(nbytes, _ALIGNMENT)
    except (MemoryError, ValueError, OverflowError):   # numpy: "array is too big"
        raise error(status.out_of_memory, "cannot allocate %d bytes" % nbytes) from None


include "_memory/aligned_buffer.pxi"


_SPANS = {}     # a descriptor's key -> its span_bytes


def span_bytes(md):
    """Bytes a buffer needs from its handle: every element and padding position
    the layout can reach, ``offset0`` included.

    This is at least ``get_size() + offset0`` bytes; it is more for a
    sub-memory whose padded dims are smaller than a block, where oneDNN's
    ``get_size`` reports 0 (so nothing is ever accessed out of bounds).
    Computed from the blocking (no work per index), once per descriptor.
    """
    key = md.cache_key()
    n = _SPANS.get(key)
    if n is None:
        n = remember(_SPANS, key, _span_bytes(md), 4096)
    return n


def _span_bytes(md):
    if md.ndims == 0 or md.format_kind != format_kind.blocked or 0 in md.dims:
        return 0
    last = _offsets.max_offset(md)
    sub_byte = md.data_type in _dtypes.SUB_BYTE
    size = md.get_size() * (2 if sub_byte else 1) // _dtypes.size(md.data_type)
    elems = max(last + 1, size + md.offset0)
    if sub_byte:
        return (elems + 1) // 2
    return elems * _dtypes.size(md.data_type)


# dtype key -> {shape of a C-contiguous array: (its md, span bytes)}
cdef dict _ARRAY_MDS = {}
# the last of them from_array served, with its key: (type number, dims as
# bytes, (md, span bytes)); one immutable tuple, swapped whole, so a reader
# on another thread sees a key with its own value
cdef tuple _LAST_ARRAY_MD = (-1, b"", None)


cdef inline Py_ssize_t dims_bytes(cnp.ndarray a):
    return cnp.PyArray_NDIM(a) * sizeof(cnp.npy_intp)


cdef _remember_array_md(cnp.ndarray a, int num, tuple made):
    global _LAST_ARRAY_MD
    _LAST_ARRAY_MD = (num, (<char*>cnp.PyArray_DIMS(a))[:dims_bytes(a)], made)


cdef inline object last_array_md(cnp.ndarray a, int num):
    """The (md, span bytes) of the array before, when ``a`` (native, numeric
    type ``num``, C-contiguous) has its type and dims; else None. Compared in
    C: no shape tuple made, nothing hashed."""
    cdef tuple last = _LAST_ARRAY_MD
    cdef bytes dims = <bytes>last[1]
    cdef Py_ssize_t n = dims_bytes(a)
    if <int>last[0] != num or len(dims) != n or memcmp(<char*>dims, cnp.PyArray_DIMS(a), n):
        return None
    return last[2]


# the types the fast paths compare with, as C references (no lookups per call)
cdef object _NDARRAY = np.ndarray, _ENGINE_TYPE = engine
cdef object _DEFAULT_ENGINE = _interop.default_engine()   # the array layer's engine


cdef inline object dtype_key(cnp.ndarray a):
    """``a``'s element type as a key: its type number where that names it (a
    numeric numpy type in native byte order: a small int hashes for nothing),
    else its dtype."""
    cdef int num = cnp.PyArray_TYPE(a)
    if (num < cnp.NPY_OBJECT or num == 23) and cnp.PyArray_ISNOTSWAPPED(a):   # 23: NPY_HALF
        return num
    return a.dtype


_BLANK = object()     # memory.__new__(memory, _BLANK): fields set by the caller


include "_memory/fast_paths.pxi"


@cython.freelist(64)       # made and dropped on every array call
cdef class memory:
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
    >>> mem.md == md, mem.nbytes, mem.writable
    (True, 48, True)

    Read-only fields (extensions: what primitives and the array functions
    read of a memory, for buffer 0):

    - ``md``, ``engine``: the descriptor and engine (``get_desc()``,
      ``get_engine()``);
    - ``address``: the buffer's address (``get_data_handle()``; 0: none);
    - ``nbytes``: bytes from ``address`` to the end of the layout, ``offset0``
      included;
    - ``capacity``: bytes the buffer holds from ``address`` (at least
      ``nbytes`` where the buffer's size is known);
    - ``writable``: whether writes may go there (a read-only numpy array
      gives False; a raw address is taken as writable, as in C).

    See Also
    --------
    dnnl_memory_create, dnnl_memory_get_data_handle
    """

    # read-only to Python, as member descriptors (_FIELDS, below): the
    # descriptor (get_desc()) and engine (get_engine()); buffer 0's address
    # (get_data_handle()), the bytes from it to the end of the layout
    # (offset0 included), the bytes the buffer holds from it (at least nbytes
    # where known), whether writes may go there (True / False)
    cdef object md, engine, address, nbytes, capacity, writable
    cdef object _data           # buffer 0 as uint8 (None: none, or not made yet)
    cdef object _handle_obj     # what the user gave (kept alive)
    cdef object _store          # the library's own buffer (aligned_buffer) or None
    cdef object _more           # buffers past the first: [data, handle, address, read-only]
    cdef bint _lazy             # _data is made from _handle_obj when first needed

    desc = desc_type
    data_type = data_type
    format_tag = format_tag
    format_kind = format_kind
    sparse_encoding = sparse_encoding
    DNNL_MEMORY_NONE = DNNL_MEMORY_NONE
    DNNL_MEMORY_ALLOCATE = DNNL_MEMORY_ALLOCATE
    # the constructor's form, for inspect and the docs (__cinit__ takes it)
    __signature__ = _args.signature_of(
        lambda md, aengine, handle=DNNL_MEMORY_ALLOCATE: None)

    def __cinit__(self, md, aengine=None, handle=DNNL_MEMORY_ALLOCATE):
        self._more = ()
        self.address, self.nbytes, self.capacity = 0, 0, 0
        if md is _BLANK:
            return
        cdef cnp.ndarray a
        fast = (type(handle) is _NDARRAY and type(md) is desc and type(aengine) is _ENGINE_TYPE)
        if fast:
            a = handle
            fast = cnp.PyArray_SIZE(a) and cnp.PyArray_IS_C_CONTIGUOUS(a)
        if fast:    # the checks below made once per descriptor and element type
            key = ((<desc>md).cache_key(), dtype_key(a))
            nbytes = _CHECKED.get(key)
            if nbytes is not None and cnp.PyArray_NBYTES(a) >= nbytes:
                self._over(md, aengine, nbytes, a)
                return
        if type(md) is desc and md.format_kind == format_kind.host_scalar:
            self._init_host_scalar(md, aengine)
            return
        if type(md) is desc and (md.sparse or type(handle) in (list, tuple)):
            self._init_buffers(md, aengine, handle)
            return
        if md is None:
            md = desc()
        _args.instance(md, desc, "md")
        _args.instance(aengine, engine, "aengine")
        if md.format_kind == format_kind.any:
            raise invalid("cannot create memory for a descriptor with format any")
        if RUNTIME in md.dims or RUNTIME in md.strides:
            raise invalid("cannot create memory for a descriptor with runtime dims")
        self.md = md
        self.engine = aengine
        self.nbytes = span_bytes(md)
        self._attach(handle)
        if fast and self.nbytes:
            remember(_CHECKED, key, self.nbytes, 4096)

    cdef _over(self, md, aengine, nbytes, cnp.ndarray a):
        """Over the array ``a`` that ``md`` describes (checked by the caller)."""
        self.md, self.engine, self.nbytes = md, aengine, nbytes
        self._handle_obj, self._data, self._lazy = a, None, True
        self.writable = True if cnp.PyArray_ISWRITEABLE(a) else False
        self.address = <size_t>cnp.PyArray_DATA(a)
        # a strided view's bytes reach past its nbytes: its span
        self.capacity = cnp.PyArray_NBYTES(a) if cnp.PyArray_IS_C_CONTIGUOUS(a) else nbytes

    cdef _own(self, data, handle):
        """Buffer 0 is ``data`` (a uint8 array), given as ``handle``."""
        self._data, self._handle_obj, self._lazy, self._store = data, handle, False, None
        self.writable = True
        self.capacity = data.size
        self.address = _offsets.data_address(data) if data.size else 0

    cdef _own_store(self, aligned_buffer store):
        """Buffer 0 is the library's own ``store``; its uint8 view is made when
        first needed (:meth:`_raw`)."""
        self._data, self._handle_obj, self._lazy, self._store = \
            None, DNNL_MEMORY_ALLOCATE, True, store
        self.writable, self.capacity, self.address = True, store.size, <size_t>store.ptr

    cdef _raw(self):
        """Buffer 0 as a uint8 array (None: there is none)."""
        if self._lazy:
            if self._store is not None:
                self._data = np.frombuffer(self._store, np.uint8)
            else:
                a = self._handle_obj
                self._data = _offsets.byte_view(a) if a.flags.c_contiguous \
                    else _interop.byte_span(a, self.nbytes)
            self._lazy = False
        return self._data

    # -- the buffer -----------------------------------------------------------
    cdef _attach(self, handle):
        handle = _interop_handle(handle)
        nbytes = self.nbytes
        if handle is None:
            handle = DNNL_MEMORY_NONE
        address = _address_of(handle)
        if address == DNNL_MEMORY_ALLOCATE:
            data = _aligned_bytes(nbytes) if nbytes else None
        elif address == DNNL_MEMORY_NONE:
            data = None
        elif address is not None:
            _check_ctypes_size(handle, nbytes)
            buf = (ctypes.c_uint8 * nbytes).from_address(address) if nbytes else None
            data = (np.ctypeslib.as_array(buf) if nbytes
                    else np.empty(0, dtype=np.uint8))
        else:
            data = _buffer_bytes(handle, self.md.data_type if self.md.ndims else None)
            if data.size < nbytes:
                raise invalid("handle has %d bytes, too few for %r, which needs %d"
                              % (data.size, self.md, nbytes))
        self._data, self._handle_obj, self._lazy, self._store = data, handle, False, None
        # Raw addresses are taken as writable, as in C; buffer objects say.
        self.writable = data is None or bool(data.flags.writeable)
        self.capacity = 0 if data is None else data.size
        if data is None:
            self.address = 0
        elif data.size == 0:
            self.address = address or 0
        else:
            self.address = data.__array_interface__["data"][0]

    def get_data_handle(self, index=0):
        """The base address of buffer ``index`` as an int (0 when there is
        none); a sparse memory has one buffer per handle."""
        if type(index) is int and index == 0 and not self._more \
                and self.md.format_kind != format_kind.host_scalar:
            return self.address
        return self._buffer(index)[2]       # (checks the index)

    def set_data_handle(self, handle, astream=None, index=0):
        """Point buffer ``index`` at another buffer (no copy).

        oneDNN 3.x writes nothing here. Passing a stream selects the v2.x
        behaviour of ``set_data_handle(handle, stream)``: the padding of a
        blocked layout is zero-filled in the new buffer. An int in place of
        the stream is the buffer index, as 3.x's ``set_data_handle(handle, index)``.
        """
        if isinstance(astream, (int, np.integer)) and not isinstance(astream, bool):
            astream, index = None, astream
        index = _args.integer(index, "index")
        if index != 0 or self._more or self.md.format_kind == format_kind.host_scalar:
            self._set_buffer(index, handle)
            return
        if astream is None:
            self._attach(handle)
            return
        _args.instance(astream, stream, "astream")
        kept = (self._raw(), self._handle_obj, self.writable, self.address, self.capacity)
        self._attach(handle)
        try:
            self.zero_pad()
        except error:       # a read-only buffer: the memory keeps its old one
            (self._data, self._handle_obj, self.writable, self.address,
             self.capacity) = kept
            raise

    # -- sparse and multi-handle memories, host scalars ----------------------
    cdef _init_buffers(self, md, aengine, handles, bint any_count=False):
        """A memory over several handles: a list or tuple of exactly one per
        buffer of ``md`` (``any_count``: as many as given, at least one, as
        ``dnnl_memory_create_v2``); a single handle other than
        DNNL_MEMORY_ALLOCATE is buffer 0 alone, as ``dnnl_memory_create``."""
        _args.instance(aengine, engine, "aengine")
        if md.format_kind == format_kind.any:
            raise invalid("cannot create memory for a descriptor with format any")
        if md.has_runtime_dims_or_strides():
            raise invalid("cannot create memory for a descriptor with runtime dims")
        if type(handles) not in (list, tuple):
            allocate = _address_of(_interop_handle(handles)) == DNNL_MEMORY_ALLOCATE
            handles = [DNNL_MEMORY_ALLOCATE] * md.get_num_handles() if allocate else [handles]
        elif not any_count and len(handles) != md.get_num_handles():
            raise invalid("a list of handles has one per buffer of the descriptor: %d for "
                          "%r, not %d%s" % (md.get_num_handles(), md, len(handles), "" if
                                            md.sparse else " (data for the memory is one "
                                            "handle, a numpy array or a buffer, given alone)"))
        if not handles:
            raise invalid("a memory needs at least one handle")
        self.md, self.engine = md, aengine
        self.nbytes = span_bytes(md) if md.is_blocked() else md.get_size(0) % 2 ** 64
        self._data, self._handle_obj, self.writable, self.address = None, None, True, 0
        self._more = [[None, None, 0, False] for _ in handles[1:]]
        for i, h in enumerate(handles):
            self._set_buffer(i, h)

    def _buffer(self, index):
        """``[data, handle, address, read-only]`` of buffer ``index``."""
        if self.md.format_kind == format_kind.host_scalar:
            raise invalid("a host-scalar memory has no data handle: use "
                          "get_host_scalar_value() / set_host_scalar_value(v)")
        index = _args.integer(index, "index")
        if not 0 <= index <= len(self._more):
            raise invalid("index %d is not a buffer of this memory (it has %d handles)"
                          % (index, 1 + len(self._more)))
        if index == 0:
            return [self._raw(), self._handle_obj, self.address, not self.writable]
        return self._more[index - 1]

    def _set_buffer(self, index, handle):
        entry = self._buffer(index)
        md = self.md
        if index == 0 and md.is_blocked():
            self._attach(handle)
            return
        nbytes = md.get_size(index) if md.sparse else 0
        code = md.get_data_type(index) if md.sparse else None
        entry[:] = one_buffer(_interop_handle(handle), nbytes, code, _aligned_bytes)
        if index == 0:
            self._data, self._handle_obj, self.address, readonly = entry
            self._lazy, self.writable = False, not readonly
            self.capacity = 0 if self._data is None else self._data.size

    cdef _init_host_scalar(self, md, value):
        """``memory(md, value)``: its own copy of the value, no engine."""
        if isinstance(value, engine):
            raise invalid("a host-scalar memory is made from a value, not an engine: "
                          "memory(dnnl.memory.desc.host_scalar(dt), value)")
        self.md, self.engine, self.nbytes = md, None, md.get_size()
        self._own(np.zeros(self.nbytes, np.uint8), None)
        self.set_host_scalar_value(value)

    def _need_dense(self, what):
        if self.md.sparse:
            raise invalid("%s: a sparse memory has no logical array here (no kernel reads "
                          "sparse data); read its buffers with map_data(index=i)" % what)
        if self.md.format_kind == format_kind.host_scalar:
            raise invalid("%s: a host-scalar memory holds one value: use "
                          "set_host_scalar_value(v)" % what)

    def _need_host_scalar(self):
        if self.md.format_kind != format_kind.host_scalar:
            raise invalid("%r is not a host-scalar memory: make one with "
                          "memory(dnnl.memory.desc.host_scalar(dt), value)" % self)

    def get_host_scalar_value(self):
        """The value of a host-scalar memory, a numpy scalar of its type."""
        self._need_host_scalar()
        return _scalar.from_bytes(self._data, self.md.data_type)

    def set_host_scalar_value(self, value):
        """Store ``value`` (a number, cast with numpy's rules, or the raw bytes
        of one element) in a host-scalar memory."""
        self._need_host_scalar()
        raw = _scalar.to_bytes(value, self.md.data_type, self.nbytes)
        self._data[:] = np.frombuffer(raw, np.uint8)

    def get_desc(self):
        return self.md

    def get_engine(self):
        return self.engine

    def cache_key(self):
        """What a primitive made from this memory depends on (its engine and
        descriptor), for the primitive cache; never its buffer."""
        eng = self.engine      # None: a host scalar has no engine
        return (None if eng is None else eng.cache_key(), self.md.cache_key())

    def _bytes(self):
        data = self._raw()
        if data is None:
            if self.nbytes:
                raise invalid("memory has no buffer (DNNL_MEMORY_NONE)")
            return np.empty(0, dtype=np.uint8)
        return data

    def _writable_bytes(self, what):
        """The buffer ``what`` is about to write into, refused before the
        first byte when it is read-only."""
        if not self.writable:
            raise invalid("%s writes into this memory's buffer (%s at %#x), which is "
                          "read-only: give the memory a writable one (a numpy array, a "
                          "bytearray, an address) with set_data_handle"
                          % (what, type(self._handle_obj).__name__, self.address))
        return self._bytes()

    def map_data(self, dtype=None, index=0):
        """A numpy view of the physical buffer (of buffer ``index`` of a
        sparse memory), typed by element.

        Sub-byte types (two per byte) and types numpy lacks come as their raw
        storage (``uint8``, ``uint16``); pass ``dtype`` to choose the view.
        """
        raw = self._bytes() if type(index) is int and index == 0 else self._buffer(index)[0]
        if raw is None:
            raise invalid("buffer %d has no view (no buffer, or no size)" % index)
        if dtype is None:
            code = self.md.get_data_type(index)
            if code in _dtypes.SUB_BYTE or self.md.ndims == 0 or type(code) is int:
                return raw
            dtype = _dtypes.numpy_dtype(code)
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise wrong_type("dtype %s is not a numpy dtype" % _args.short(dtype)) from None
        if dtype.itemsize == 0 or dtype.hasobject:
            raise invalid("dtype %s cannot view raw memory" % dtype)
        usable = raw.size - raw.size % dtype.itemsize
        return raw[:usable].view(dtype)

    @staticmethod
    def data_type_size(adata_type):
        """``memory::data_type_size``: bytes per element (1 for the sub-byte
        types, ``2**64 - 1``, C's ``(size_t)-1``, for ``undef``).

        >>> import dnnl
        >>> dnnl.memory.data_type_size(dnnl.memory.data_type.bf16), dnnl.memory.data_type_size("s4")
        (2, 1)
        """
        if adata_type is None:
            raise wrong_type("data_type_size needs a data type, not None")
        return _dtypes.size(adata_type)

    def unmap_data(self, mapped, index=0):
        """``unmap_data(mapped[, index])``: nothing to unmap on the CPU; an
        ``index`` that is not a buffer of the memory is ``invalid_arguments``,
        as ``dnnl_memory_unmap_data_v2``'s."""
        index = _args.integer(index, "index")
        if not 0 <= index <= len(self._more):
            raise invalid("index %d is not a buffer of this memory (it has %d handles)"
                          % (index, 1 + len(self._more)))

    # -- logical access (the copies: dnnl/_model/logical.py) -----------------
    def _element_offsets(self, padded=False):
        return _offsets.all_offsets(self.md, padded)

    def to_numpy(self):
        """A logical copy: an array of shape ``dims`` in any layout.

        bf16 / f8 / f4 come as ml_dtypes arrays when that package is installed
        (raw integer codes otherwise); s4 / u4 unpack to int8 / uint8. Always
        a new array, plain layouts too (``np.asarray(mem)`` is a view of
        those); docs/arrays.md compares the six ways between arrays and
        memories.
        """
        md = self.md
        if md.ndims == 0:
            return np.empty(0, dtype=np.float32)
        if md.format_kind == format_kind.host_scalar:
            return np.array([self.get_host_scalar_value()])
        self._need_dense("to_numpy")
        return _logical.to_numpy(md, self._bytes() if md.nelems
                                 else np.empty(0, dtype=np.uint8))

    def from_numpy(self, array):
        """Write a logical array of shape ``dims`` (padding zero-filled).

        Values are cast with numpy's rules to the memory's element type; use a
        reorder for oneDNN's rounding and saturation. A copy into the buffer:
        the memory does not keep ``array`` (see :meth:`from_array` for that).
        """
        md = self.md
        self._need_dense("from_numpy")
        arr = np.asarray(array)
        if tuple(arr.shape) != tuple(md.dims):
            raise invalid("array of shape %s does not match dims %s"
                          % (arr.shape, list(md.dims)))
        dt = md.data_type
        raw = self._writable_bytes("from_numpy")
        # Everything that can fail (the cast) happens before the first write.
        values = _logical.logical_values(arr, dt)
        if dt in _dtypes.SUB_BYTE:
            _logical.write_nibbles(md, raw, values)
            return
        self.zero_pad()
        _logical.write(md, raw, values)

    def zero_pad(self):
        """Write zeros into the padding of a blocked layout (oneDNN's invariant)."""
        if not self.md.is_blocked():
            return
        boxes = _offsets.padding_boxes(self.md)
        if not boxes:
            return
        _logical.zero_padding(self.md, self._writable_bytes("zero_pad"), boxes)

    def __repr__(self):
        if self.md.format_kind == format_kind.host_scalar:
            return "<dnnl.memory %s value=%s>" % (self.md, self.get_host_scalar_value())
        return "<dnnl.memory %s handle%s>" % (self.md, "=%#x" % self.address if not self._more
                                              else "s=" + ",".join("%#x" % e[2] for e in
                                                                   [self._buffer(0)] + self._more))

    # -- arrays: numpy / DLPack interop (implemented in dnnl._model.interop) ---------
    @staticmethod
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
            On ``dnnl.default_engine()``; writes through it are seen in ``x`` and
            the other way round. The memory keeps ``x``'s buffer alive. A
            float64 array gives an f64 memory (no copy); :func:`dnnl.convert`
            makes an f32 copy of it.

        Raises
        ------
        dnnl.error
            ``invalid_arguments``: not an array (a list has no buffer to
            share: ``np.asarray`` it), a 0-d array, a dtype oneDNN does not
            have, the other byte order (big-endian), strides no oneDNN
            descriptor holds (negative steps; steps that are not element
            multiples; strides that break oneDNN's rule, each at least the
            next smaller one times its dim), a blocked tag (use
            :func:`convert`) or a tag that does not match the strides. Each
            message names the copy to pass instead; the array functions
            read all of these as they are (docs/arrays.md).

        Examples
        --------
        >>> import dnnl, numpy as np
        >>> nhwc = np.zeros((2, 3, 4, 5), np.float32)       # N, H, W, C in memory
        >>> mem = dnnl.memory.from_array(nhwc.transpose(0, 3, 1, 2))   # N, C, H, W dims
        >>> mem.get_desc() == dnnl.memory.desc([2, 5, 3, 4], "f32", "acdb")
        True
        """
        cdef cnp.ndarray a
        cdef memory m
        cdef dict by_shape
        cdef tuple made
        cdef int num
        if type(x) is _NDARRAY and tag is None:
            a = x
            if cnp.PyArray_SIZE(a) and cnp.PyArray_IS_C_CONTIGUOUS(a):
                # the usual case: its descriptor made once per shape and dtype
                dkey = dtype_key(a)
                num = dkey if type(dkey) is int else -1    # -1: no last entry
                made = last_array_md(a, num) if num >= 0 else None
                if made is None:
                    by_shape = _ARRAY_MDS.get(dkey)
                    shape = x.shape
                    made = None if by_shape is None else by_shape.get(shape)
                    if made is None:
                        _inputs.refuse_for_memory(x)
                        md = _interop.array_desc(x)
                        if by_shape is None or len(by_shape) >= 256:
                            by_shape = _ARRAY_MDS[dkey] = {}
                        made = by_shape.setdefault(shape, (md, span_bytes(md)))
                    if num >= 0:
                        _remember_array_md(a, num, made)
                m = memory.__new__(memory, _BLANK)
                m._over(made[0], _DEFAULT_ENGINE, made[1], a)
                return m
        a = _interop.as_numpy(x)
        _inputs.refuse_for_memory(a)
        md = _interop.array_desc(a, tag)
        return memory(md, _DEFAULT_ENGINE,
                      _interop.byte_span(a, span_bytes(md) if a.size else 0))

    @property
    def shape(self):
        """The descriptor's logical dims (``get_desc().shape``), as numpy's
        ``shape``: the shape of ``np.asarray(mem)``."""
        return self.get_desc().shape

    @property
    def ndim(self):
        """``get_desc().ndims``, numpy's name."""
        return self.get_desc().ndims

    @property
    def dtype(self):
        """The numpy dtype of ``np.asarray(mem)``'s elements
        (``get_desc().dtype``; oneDNN's type: ``get_desc().get_data_type()``)."""
        return self.get_desc().dtype

    @property
    def array(self):
        """The physical buffer as a numpy array shaped by the blocking (no copy).

        Outer dims in memory order, then the inner blocks, padding included:
        ``nChw16c`` of 2x17x3x4 is ``(2, 2, 3, 4, 16)``; ``nhwc`` is
        ``(N, H, W, C)``. Writes go to the memory. Sub-byte types (s4, u4,
        f4) raise ``dnnl.error``: use :meth:`map_data`. The logical array
        (shape ``dims``) is ``np.asarray(mem)``.

        Examples
        --------
        >>> import dnnl
        >>> md = dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c")
        >>> dnnl.memory(md, dnnl.engine(dnnl.engine.kind.cpu, 0)).array.shape
        (2, 2, 3, 4, 16)
        """
        return _interop.physical_array(self)

    def __array__(self, dtype=None, copy=None):
        """``np.asarray(mem)``: the logical array, shape ``dims``.

        For a plain layout (no blocks) it is a view of the buffer: writes
        through it reach the memory. For a blocked layout it is a logical
        copy (``copy=False`` raises), as :meth:`to_numpy`. So
        ``np.asarray(dnnl.convert(x, "nhwc"))`` equals ``x``: the layout is
        in :attr:`array`.
        """
        return _interop.to_array(self, dtype, copy)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """DLPack export of a plain layout (``np.from_dlpack(mem)``,
        ``torch.from_dlpack(mem)`` share the buffer). Blocked layouts and
        types numpy cannot export (bf16, f8) raise ``dnnl.error`` (also a
        ``BufferError``)."""
        return _interop.dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """``(kDLCPU, 0)``: the buffer is in host memory."""
        return _interop.dlpack_device(self)

    # -- pickling (to worker processes): a copy. The address means nothing in
    # another process, so the descriptor, the engine and the bytes of the
    # span (nbytes) travel; the receiver gets a new memory owning a buffer
    # with those bytes (writable), as a pickled numpy view comes back a copy.
    def __reduce__(self):
        if self._more or self.md.sparse or self.md.format_kind == format_kind.host_scalar:
            return (_unpickle_buffers, (self.md, self.engine, [
                None if e[0] is None else e[0].copy() for e in [self._buffer(0)] + list(self._more)]
                if self.engine else self._raw().tobytes()))
        data = self._raw()
        data = None if data is None else data[:self.nbytes]
        return (_unpickle, (self.md, self.engine, data))



_FIELDS = ("md", "engine", "address", "nbytes", "capacity", "writable")


cdef _publish_fields():
    cdef memory probe = memory.__new__(memory, _BLANK)
    marks = tuple(object() for _ in _FIELDS)
    probe.md, probe.engine, probe.address, probe.nbytes, probe.capacity, probe.writable = marks
    expose_fields(memory, probe, _FIELDS, marks)
    probe.md = probe.engine = probe.address = probe.nbytes = probe.capacity = probe.writable = None


_publish_fields()


def _unpickle_buffers(md, aengine, buffers):
    if aengine is None:         # a host scalar: its value's bytes
        return memory(md, buffers)
    # as many buffers as the memory had (one made by dnnl_memory_create_v2 may
    # have more or fewer than its descriptor's)
    return memory_with_handles(md, aengine, [DNNL_MEMORY_NONE if b is None else b
                                             for b in buffers])


def _unpickle(md, aengine, data):
    if data is None:
        return memory(md, aengine, DNNL_MEMORY_NONE)
    mem = memory(md, aengine)
    if data.size:
        mem.map_data(np.uint8)[:data.size] = data
    return mem


def _interop_handle(handle):
    """A torch tensor or other ``__dlpack__`` producer as a numpy view."""
    if handle is None or isinstance(handle, (int, np.ndarray, bytes, bytearray)) \
            or not hasattr(handle, "__dlpack__"):
        return handle
    return _interop.memory_handle(handle)
