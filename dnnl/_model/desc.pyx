# cython: language_level=3, boundscheck=True, wraparound=True, cdivision=False
# cython: binding=True, embedsignature=True
"""Memory descriptors: oneDNN's blocking model, validation and transformations.

A descriptor is an immutable value: logical ``dims`` in the primitive's order,
a data type, and for the ``blocked`` format kind the per-dim ``strides`` (in
elements, between consecutive outer blocks) plus inner blocks. The type is a
Cython extension type (a descriptor is made on every array call, so its
construction is C code); its rules below are ordinary Python, compiled.
Every rule here follows oneDNN 3.13 (``src/common/memory_desc.cpp``,
``src/common/memory_desc_wrapper.hpp``, ``src/common/type_helpers.hpp``).
"""
import math

cimport cython

from dnnl._model.fields cimport expose_fields

import numpy as np

from dnnl._core import args as _args
from dnnl._core import dtypes as _dtypes
from dnnl._core import format as _format
from dnnl._core import keys as _keys
from dnnl._model import sparse as _sparse
from dnnl._model import tags as _tags
from dnnl._core.enums import data_type, format_kind, format_tag, sparse_encoding
from dnnl._core.error import error, invalid, unimpl, wrong_type

MAX_NDIMS = 12
RUNTIME = -(2 ** 63)            # DNNL_RUNTIME_DIM_VAL
RUNTIME_SIZE = 2 ** 63          # DNNL_RUNTIME_SIZE_VAL
_INT64_MAX = 2 ** 63 - 1
_SIZE_MAX = 2 ** 64 - 1


def _wrap64(v):
    """``v`` as C's int64 arithmetic leaves it (runtime values wrap)."""
    return (v + 2 ** 63) % 2 ** 64 - 2 ** 63


def _ints(values, what):
    """``values`` as a tuple of C ``int64`` values (``dnnl_dim_t``)."""
    values = _args.integers(values, what)
    for v in values:
        if not -2 ** 63 <= v <= _INT64_MAX:
            raise invalid("%s %s do not fit int64" % (what, _args.short(list(values))))
    return values


cdef dict _MADE = {}   # (dims, data type[, its type], tag) -> a descriptor made from them
cdef object _FORMAT_TAG = format_tag     # (a C reference: no lookup per call)


# Never in a reference cycle (its fields are numbers, tuples, enums and a
# sparse record): no GC tracking; made and dropped on every array call: a
# free list.
@cython.no_gc
@cython.freelist(64)
cdef class desc:
    """A memory descriptor, as ``dnnl::memory::desc``.

    ``desc()`` is the zero descriptor; ``desc(dims, data_type, tag)`` lays out
    ``dims`` by a format tag (member, C value or name such as ``"nChw16c"``);
    ``desc(dims, data_type, strides)`` uses explicit strides (``[]`` or
    ``None``: dense row-major, as ``strides == NULL`` in C); ``desc(blob)``
    makes the descriptor of a :meth:`get_blob` again (checked: a damaged
    blob is invalid_arguments).

    >>> import dnnl
    >>> md = dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw8c")
    >>> md
    <dnnl.memory.desc f32 2x17x3x4 aBcd8b padded 2x24x3x4>
    >>> md.get_strides(), md.get_size()
    ([288, 96, 32, 8], 2304)

    See Also
    --------
    dnnl_memory_desc_create_with_tag, dnnl_memory_desc_create_with_strides,
    dnnl_memory_desc_create_with_blob
    """

    # (its fields: dnnl/_model/desc.pxd)
    _public_name = "memory.desc"      # how messages name the class
    # the constructor's form, for inspect and the docs (__cinit__ takes it)
    __signature__ = _args.signature_of(
        lambda dims=None, dt=None, tag_or_strides=None, allow_empty=False: None)

    def __cinit__(self, dims=None, dt=None, tag_or_strides=None, allow_empty=False):
        # Descriptors are immutable values: the usual call, (dims, data type,
        # tag), copies the fields of the descriptor made by the first such
        # call (a tenth of the cost of making it again). Its argument types
        # are in the key: [2.0] and [2], 1 and True, are different calls.
        cdef desc made
        if allow_empty is not False and allow_empty is not True:
            allow_empty = _empty_ok(allow_empty)       # (a type error for junk)
        tt, td = type(tag_or_strides), type(dims)
        key = None
        if (tt is str or tt is _FORMAT_TAG) and (td is list or td is tuple) and _all_ints(dims):
            if td is list:
                dims = tuple(dims)
            # a str data type can only equal a str: no need for its type
            key = (dims, dt, tag_or_strides) if type(dt) is str else \
                (dims, dt, type(dt), tag_or_strides)
            try:
                made = _MADE.get(key)
            except TypeError:       # an unhashable argument: made (and refused) below
                key = made = None
            if made is not None:
                self._set(made)
                return
        if td is bytes or td is bytearray or td is memoryview:
            if dt is not None or tag_or_strides is not None or allow_empty:
                raise wrong_type("memory.desc(blob) takes the blob alone")
            self._set(from_blob(dims))      # checked (dnnl/_model/_desc/fields.pxi)
            return
        if dims is None and dt is None and tag_or_strides is None:
            if ZERO is None:       # making ZERO itself
                self._fill(0, (), data_type.undef, (), (), 0, format_kind.undef,
                           (), (), (), None)
            else:
                self._set(ZERO)
            return
        # raises for a bad call; with allow_empty gives the zero descriptor
        # instead, as dnnl::memory::desc
        self._set(_made(_empty_ok(allow_empty), _create, dims, dt, tag_or_strides))
        if key is not None and self.ndims:
            _keys.remember(_MADE, key, self, 1024)

    cdef _fill(self, ndims, dims, dt, padded_dims, padded_offsets, offset0, kind,
               strides, inner_blks, inner_idxs, sparse):
        self.ndims, self.dims, self.data_type = ndims, dims, dt
        self.padded_dims, self.padded_offsets, self.offset0 = padded_dims, padded_offsets, offset0
        self.format_kind, self.strides = kind, strides
        self.inner_blks, self.inner_idxs, self.sparse = inner_blks, inner_idxs, sparse
        self._hash = self._token = None

    cdef _set(self, desc other):
        self._fill(other.ndims, other.dims, other.data_type, other.padded_dims,
                   other.padded_offsets, other.offset0, other.format_kind, other.strides,
                   other.inner_blks, other.inner_idxs, other.sparse)
        self._hash, self._token = other._hash, other._token

    # -- derived properties ---------------------------------------------------
    @property
    def blocks(self):
        """Per-dim product of the inner blocks (1 where a dim is not blocked)."""
        b = [1] * self.ndims
        for blk, idx in zip(self.inner_blks, self.inner_idxs):
            b[idx] *= blk
        return tuple(b)

    @property
    def block_size(self):
        return math.prod(self.inner_blks)

    @property
    def nelems(self):
        """Logical element count (0 for the zero descriptor)."""
        return math.prod(self.dims) if self.ndims else 0

    # -- numpy's names (docs/memory_formats.md) -------------------------------
    @property
    def shape(self):
        """The logical dims, as numpy's ``shape`` (``()`` for the zero
        descriptor; runtime dims are ``DNNL_RUNTIME_DIM_VAL``)."""
        return tuple(self.dims)

    @property
    def ndim(self):
        """numpy's name for ``ndims``."""
        return self.ndims

    @property
    def dtype(self):
        """The numpy dtype of one logical element: the dtype of
        ``memory.to_numpy()`` and ``np.asarray(mem)`` (bf16 and the f8 / e8m0
        / f4 types: ml_dtypes' types when it is installed, else their raw
        unsigned storage; s4 / u4: int8 / uint8). ``None`` for
        ``data_type.undef``. oneDNN's data type is ``data_type``."""
        if self.data_type == data_type.undef:
            return None
        return _dtypes.numpy_dtype(self.data_type)

    def has_runtime_dims_or_strides(self):
        return RUNTIME in self.dims or RUNTIME in self.strides

    def is_blocked(self):
        return self.format_kind == format_kind.blocked

    def is_plain(self):
        """Blocked with no inner blocks: an ordinary strided tensor."""
        return self.is_blocked() and not self.inner_blks

    # -- the C++ API's getters ------------------------------------------------
    def get_ndims(self):
        return self.ndims

    def get_dims(self):
        return list(self.dims)

    def get_format_kind(self):
        return self.format_kind

    def get_padded_dims(self):
        return list(self.padded_dims)

    def get_padded_offsets(self):
        return list(self.padded_offsets)

    def get_submemory_offset(self):
        return self.offset0

    def _need_blocked(self, what):
        if not self.is_blocked():
            raise invalid("%s is defined only for the blocked format kind" % what)

    # As in oneDNN's C++ API, the blocking queries of a descriptor that is not
    # blocked (the zero descriptor, format any) give [] / 0; the C API's
    # dnnl_memory_desc_query returns invalid_arguments for them.
    def get_strides(self):
        return list(self.strides) if self.is_blocked() else []

    def get_inner_nblks(self):
        return len(self.inner_blks) if self.is_blocked() else 0

    def get_inner_blks(self):
        return list(self.inner_blks) if self.is_blocked() else []

    def get_inner_idxs(self):
        return list(self.inner_idxs) if self.is_blocked() else []

    def is_zero(self):
        return self.ndims == 0

    def get_size(self, index=0):
        """Bytes the layout spans from its origin (offset0 excluded)."""
        return size_of(self, _args.integer(index, "index"))

    def data_type_size(self):
        return _dtypes.size(self.data_type)

    def get_blob(self):
        """The descriptor as ``bytes`` (``dnnl::memory::desc::get_blob``):
        ``memory.desc(blob)`` makes an equal one again, in any process."""
        return to_blob(self)

    # -- sparse encodings and host scalars (dnnl/_model/sparse.py) ---------------------
    get_num_handles = _sparse.buffer_queries.get_num_handles
    get_nnz = _sparse.buffer_queries.get_nnz
    get_sparse_encoding = _sparse.buffer_queries.get_sparse_encoding
    query_data_type = _sparse.buffer_queries.query_data_type
    get_data_type = _sparse.buffer_queries.get_data_type

    @staticmethod
    def csr(dims, dt, nnz, index_dt, pointer_dt, allow_empty=False):
        """A CSR sparse descriptor: ``nnz`` values, their column indices
        (``index_dt``) and ``dims[0] + 1`` row pointers (``pointer_dt``)."""
        return _made(allow_empty, sparse_md, dims, dt, nnz, sparse_encoding.csr,
                     (index_dt, pointer_dt))

    @staticmethod
    def coo(dims, dt, nnz, index_dt, allow_empty=False):
        """A COO sparse descriptor: ``nnz`` values and one index buffer per dim."""
        return _made(allow_empty, sparse_md, dims, dt, nnz, sparse_encoding.coo, (index_dt,))

    @staticmethod
    def packed(dims, dt, nnz, allow_empty=False):
        """A packed sparse descriptor (values, offsets, bitmask): size 0 until a
        primitive chooses its layout."""
        return _made(allow_empty, sparse_md, dims, dt, nnz, sparse_encoding.packed, ())

    @staticmethod
    def host_scalar(dt):
        """One value of ``dt`` on the host (a scale or zero point ``is_on_host``)."""
        return host_scalar_md(_dtypes.as_data_type(dt))

    # -- offsets (extensions: oneDNN keeps these internal) ----------------------
    def element_offset(self, index):
        """Physical offset, in elements, of the logical ``index`` (offset0 included).

        For sub-byte types it counts nibbles. Extension: oneDNN's
        ``memory_desc_wrapper::off_v`` is internal.
        """
        self._need_blocked("an element offset")
        index = _ints(index, "index")
        if len(index) != self.ndims or not all(0 <= i < d for i, d in zip(index, self.dims)):
            raise invalid("index %s is outside dims %s" % (_args.short(list(index)), _args.short(list(self.dims))))
        off, inner_stride = self.offset0, 1
        pos = list(index)
        for blk, idx in reversed(list(zip(self.inner_blks, self.inner_idxs))):
            off += pos[idx] % blk * inner_stride
            pos[idx] //= blk
            inner_stride *= blk
        return off + sum(p * s for p, s in zip(pos, self.strides))

    def element_offsets(self):
        """Physical offsets of all logical elements, as an int64 array of shape dims."""
        self._need_blocked("element offsets")
        from dnnl._model.offsets import all_offsets
        return all_offsets(self).reshape(self.dims)

    # -- transformations ------------------------------------------------------
    # (allow_empty: a refusal gives the zero descriptor, as in dnnl.hpp)
    def submemory_desc(self, dims, offsets, allow_empty=False):
        """A view of a sub-tensor at ``offsets`` (``dnnl_memory_desc_create_submemory``)."""
        return _made(_empty_ok(allow_empty), lambda: submemory(
            self, _ints(dims, "dims"), _ints(offsets, "offsets")))

    def reshape(self, dims, allow_empty=False):
        """The same bytes seen with new dims (``dnnl_memory_desc_reshape``)."""
        return _made(_empty_ok(allow_empty), lambda: reshape(self, _ints(dims, "dims")))

    def permute_axes(self, permutation, allow_empty=False):
        """Relabel dims: old dim ``d`` becomes dim ``permutation[d]``."""
        return _made(_empty_ok(allow_empty), lambda: permute_axes(
            self, _ints(permutation, "permutation")))

    # -- value semantics ------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, desc):
            return NotImplemented
        return equal(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(_equality_key(self))
        return self._hash

    cpdef cache_key(self):
        """The primitive cache's key of this descriptor: a token, the same
        object for equal descriptors (found once, then kept)."""
        tok = self._token
        if tok is None:
            tok = self._token = _keys.token(self)
        return tok

    def __reduce__(self):
        return (make, (self.ndims, self.dims, self.data_type, self.padded_dims,
                             self.padded_offsets, self.offset0, self.format_kind,
                             self.strides, self.inner_blks, self.inner_idxs, self.sparse))

    def __repr__(self):
        return "<dnnl.memory.desc %s>" % describe(self)


def _empty_ok(allow_empty):
    """``allow_empty`` as a bool (C++'s ``bool allow_empty``): an array or a
    string there is a type error, not Python's truth of it."""
    if allow_empty is False or allow_empty is True:
        return allow_empty
    return _args.flag(allow_empty, "allow_empty")


cdef bint _all_ints(dims):
    for d in dims:
        if type(d) is not int:
            return False
    return True


def assemble(ndims, dims, dt, padded_dims, padded_offsets, offset0, kind,
             strides=(), inner_blks=(), inner_idxs=(), sparse=None):
    """A descriptor with these fields, unchecked: for the rules of this
    module and the layers that derive fields by oneDNN's rules (what a user
    or a file gives goes through :func:`make`)."""
    cdef desc md = desc.__new__(desc)
    md._fill(ndims, tuple(dims), dt, tuple(padded_dims), tuple(padded_offsets), offset0,
             kind, tuple(strides), tuple(inner_blks), tuple(inner_idxs), sparse)
    return md


def _replaced(desc md, ndims=None, dims=None, padded_dims=None, padded_offsets=None,
              offset0=None, strides=None, inner_idxs=None):
    """A copy of ``md`` with the given fields changed, unchecked (the
    transformations' step: they derive the fields by oneDNN's rules)."""
    cdef desc out = desc.__new__(desc)
    out._fill(md.ndims if ndims is None else ndims, md.dims if dims is None else dims,
              md.data_type,
              md.padded_dims if padded_dims is None else padded_dims,
              md.padded_offsets if padded_offsets is None else padded_offsets,
              md.offset0 if offset0 is None else offset0, md.format_kind,
              md.strides if strides is None else strides, md.inner_blks,
              md.inner_idxs if inner_idxs is None else inner_idxs, md.sparse)
    return out


def _create(dims, dt, tag_or_strides):
    """The descriptor ``desc(dims, dt, tag_or_strides)`` describes, checked."""
    dims = () if dims is None else _ints(dims, "dims")
    if len(dims) == 0:
        return ZERO
    dt = _dtypes.as_data_type(data_type.undef if dt is None else dt)
    if isinstance(tag_or_strides, (bool, np.bool_, float, bytes)) or not isinstance(
            tag_or_strides, (str, format_tag, int, np.integer, list, tuple, range,
                             np.ndarray, type(None))):
        raise wrong_type("tag_or_strides must be a format tag or a sequence of "
                         "strides, not %s" % _args.a_type(tag_or_strides))
    if isinstance(tag_or_strides, (str, format_tag, int, np.integer)):
        return from_tag(dims, dt, tag_or_strides)
    if tag_or_strides is None:      # as strides == NULL in C: dense row-major
        return from_strides(dims, dt, None)
    strides = _ints(tag_or_strides, "strides")
    return from_strides(dims, dt, strides or None)


def _dims_str(dims):
    return "x".join("*" if d == RUNTIME else str(d) for d in dims)


def describe(md):
    if md.ndims == 0:
        return "zero"
    text = "%s %s" % (md.data_type.name, _dims_str(md.dims))
    if md.format_kind == format_kind.sparse:
        return text + " sparse " + md.sparse.describe()
    if md.format_kind == format_kind.host_scalar:
        return "%s host_scalar" % md.data_type.name
    if md.format_kind != format_kind.blocked:
        return text + " " + md.format_kind.name
    text += " " + _format.tag_str(md)
    if not md.inner_blks and _format.strides_str(md):     # not dense
        text += " strides " + ":".join(str(s) for s in md.strides)
    if md.padded_dims != md.dims:
        text += " padded " + _dims_str(md.padded_dims)
    if md.offset0:
        text += " offset0 %d" % md.offset0
    return text


ZERO = None     # (until made below: __cinit__ reads it)
_FIELDS = ("ndims", "dims", "data_type", "padded_dims", "padded_offsets", "offset0",
           "format_kind", "strides", "inner_blks", "inner_idxs", "sparse")


cdef _publish_fields():
    cdef desc probe = desc.__new__(desc)
    marks = tuple(object() for _ in _FIELDS)
    probe._fill(marks[0], marks[1], marks[2], marks[3], marks[4], marks[5], marks[6],
                marks[7], marks[8], marks[9], marks[10])
    expose_fields(desc, probe, _FIELDS, marks)


_publish_fields()
ZERO = assemble(0, (), data_type.undef, (), (), 0, format_kind.undef)


# -- validation ----------------------------------------------------------------
def sanity_check(ndims, dims, dt, kind=format_kind.undef):
    """``memory_desc_sanity_check``: all failures are invalid_arguments."""
    if ndims == 0:
        return
    if not 0 < ndims <= MAX_NDIMS:
        raise invalid("ndims %d is outside 1..%d" % (ndims, MAX_NDIMS))
    if dt not in _dtypes.MD_TYPES:
        raise invalid("data type %s cannot be held by a memory descriptor"
                      % getattr(dt, "name", dt))
    prod = 1
    for d in dims:
        if d == RUNTIME:
            if kind == format_kind.any:
                raise invalid("runtime dims are not allowed with format any")
            continue
        if d < 0:
            raise invalid("negative dim %d in %s" % (d, _args.short(list(dims))))
        if d > 0:
            prod *= d
            if prod > _INT64_MAX:
                raise invalid("dims %s overflow int64" % _args.short(list(dims)))


def strides_check(md, size_check=True):
    """``memory_desc_strides_check``: no overlap, sub-byte parity, size
    (``size_check=False``: the caller applies oneDNN's size guard for
    strides instead, ``_strides_size_guard``)."""
    nd = md.ndims
    if nd == 0 or 0 in md.padded_dims:
        return
    if RUNTIME in md.strides or RUNTIME in md.padded_dims:
        return
    blocks = md.blocks
    outer = [md.padded_dims[d] // blocks[d] for d in range(nd)]

    def order_key(d):
        blocked = blocks[d] > 1
        if blocked:
            return (md.strides[d], 0, outer[d], -d)
        return (md.strides[d], 1, md.padded_dims[d], d)

    order = sorted(range(nd), key=order_key)
    block_size = md.block_size
    min_stride = block_size
    sub_byte = md.data_type in _dtypes.SUB_BYTE
    last = None          # the outermost dim the walk did not skip
    for d in order:
        s = md.strides[d]
        if s == 0 or md.padded_dims[d] == 1:
            continue
        last = d
        if s < min_stride:
            if block_size == 1 and overlaps(md.padded_dims, md.strides):
                raise invalid("strides %s overlap: two indices address one element"
                              % _args.short(list(md.strides)))
            raise invalid("strides %s: oneDNN needs each stride (smallest first) at least "
                          "the one before it times that dim's size, here %d < %d (the "
                          "check of dnnl_memory_desc_create_with_strides)"
                          % (_args.short(list(md.strides)), s, min_stride))
        if sub_byte and s > 1 and s % 2:
            raise invalid("odd stride %d for a sub-byte data type" % s)
        if s * block_size * outer[d] > _INT64_MAX:
            raise invalid("strides %s overflow int64" % _args.short(list(md.strides)))
        min_stride = s * outer[d]
    if size_check and last is not None and outer[last] * md.strides[last] * md.data_type_size() > _SIZE_MAX:
        raise invalid("the layout's byte size overflows size_t")


def overlaps(shape, strides, limit=1 << 22):
    """Whether two indices of a layout of ``shape`` and ``strides`` address
    the same element. Exact: True or False when each stride clears the
    extent of the smaller ones (no overlap) or there are at most ``limit``
    elements (their sorted addresses compared); else None, unknown."""
    walk = sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1)
    extent = 0
    for s, n in walk:
        if s <= extent:
            break
        extent += s * (n - 1)
    else:
        return False
    count = int(np.prod(shape, dtype=np.int64))
    if count > limit:
        return None
    addresses = np.zeros(1, np.int64)
    for s, n in walk:
        addresses = (addresses[:, None] + np.arange(n, dtype=np.int64) * s).reshape(-1)
    addresses.sort()
    return bool((addresses[1:] == addresses[:-1]).any())



# -- creation --------------------------------------------------------------------
def from_tag(dims, dt, tag):
    ndims = len(dims)
    if ndims > MAX_NDIMS:
        raise invalid("ndims %d is outside 1..%d" % (ndims, MAX_NDIMS))
    tag = _tags.as_format_tag(tag)
    if ndims == 0 or tag == format_tag.undef:
        return ZERO
    if tag == format_tag.any:
        sanity_check(ndims, dims, dt, format_kind.any)
        return assemble(ndims, dims, dt, dims, (0,) * ndims, 0, format_kind.any)
    sanity_check(ndims, dims, dt, format_kind.blocked)
    tag_ndims, perm, inner_blks, inner_idxs = _tags.layout(tag)
    if tag_ndims != ndims:
        raise invalid("format tag %s lays out %d dims; %d dims were given"
                      % (tag.name, tag_ndims, ndims))
    return blocked(dims, dt, perm, inner_blks, inner_idxs)


def blocked(dims, dt, perm, inner_blks, inner_idxs):
    """``fill_blocked``: dense outer dims in ``perm`` order around blocks."""
    ndims = len(dims)
    blocks = [1] * ndims
    for blk, idx in zip(inner_blks, inner_idxs):
        blocks[idx] *= blk
    padded = [d if d in (0, RUNTIME) else -(-d // b) * b for d, b in zip(dims, blocks)]
    strides = [0] * ndims
    stride = math.prod(inner_blks)
    for d in reversed(perm):
        strides[d] = stride
        if stride == RUNTIME or padded[d] == RUNTIME:
            stride = RUNTIME
        elif padded[d] != 0:
            stride *= padded[d] // blocks[d]
    _fill_blocked_guard(dims, dt, perm, padded, blocks, math.prod(inner_blks))
    md = assemble(ndims, dims, dt, padded, (0,) * ndims, 0, format_kind.blocked,
                    strides, inner_blks, inner_idxs)
    strides_check(md)
    return md


def _fill_blocked_guard(dims, dt, perm, padded, blocks, block_size):
    """``fill_blocked``'s own overflow guard (src/common/memory_desc_wrapper.cpp).

    It multiplies the outer size of the dim with the largest running stride by
    that stride, which already includes it, so it refuses sizes far below the
    real limit ([2**31 - 1, 8] f32 ``ab``); we refuse what oneDNN refuses.
    """
    max_stride, max_d, stride = 1, 0, block_size
    for d in reversed(perm):
        if stride == RUNTIME or padded[d] == RUNTIME:
            stride = RUNTIME
        elif padded[d] != 0:
            stride = _wrap64(stride * (padded[d] // blocks[d]))
        if max_stride <= stride:
            max_stride, max_d = stride, d
    if padded[max_d] == RUNTIME:
        return
    dim_val = (padded[max_d] // blocks[max_d]) % 2 ** 64
    if dim_val == max_stride:
        dim_val = 1
    if dim_val > _SIZE_MAX // max_stride or \
            dim_val * max_stride > _SIZE_MAX // _dtypes.size(dt):
        raise invalid("dims %s with this format tag overflow oneDNN's size guard"
                      % _args.short(list(dims)))


def from_strides(dims, dt, strides):
    ndims = len(dims)
    if ndims == 0:
        return ZERO
    sanity_check(ndims, dims, dt)
    if strides is None:  # dense row-major; outward of a runtime dim: runtime
        strides = [1] * ndims
        for d in range(ndims - 2, -1, -1):
            if dims[d] == RUNTIME:
                strides[:d + 1] = [RUNTIME] * (d + 1)
                break
            strides[d] = _wrap64(strides[d + 1] * dims[d + 1])
    elif len(strides) != ndims:
        raise invalid("%d strides given for %d dims" % (len(strides), ndims))
    md = assemble(ndims, dims, dt, dims, (0,) * ndims, 0, format_kind.blocked, strides)
    strides_check(md, size_check=False)
    _strides_size_guard(md)
    return md


def _strides_size_guard(md):
    """oneDNN 3.13's size guard on a descriptor made from strides, measured
    against it: the dim with the largest stride (the first dim when no stride
    reaches 1; dims of size 1 are passed over) times that stride must not
    overflow size_t in bytes, even where the stride is 0 ([2**62] f32 strides
    [0] and [2**62, 1] f32 strides [0, 5] are invalid_arguments; [2**61, 2]
    f32 strides [0, 0], [1, 2**62] s64 strides [5, 0] are accepted)."""
    if 0 in md.padded_dims:      # an empty tensor: no guard
        return
    max_stride, max_d = 1, 0
    for d in range(md.ndims):
        s, p = md.strides[d], md.padded_dims[d]
        if s == RUNTIME or p == RUNTIME:
            return
        if p == 1:
            continue
        if max_stride <= s:
            max_stride, max_d = s, d
    dim_val = md.padded_dims[max_d]
    if dim_val == max_stride:
        dim_val = 1
    if dim_val > _SIZE_MAX // max_stride or \
            dim_val * max_stride > _SIZE_MAX // _dtypes.size(md.data_type):
        raise invalid("dims %s with strides %s overflow oneDNN's size guard"
                      % (_args.short(list(md.dims)), _args.short(list(md.strides))))


# -- size -----------------------------------------------------------------------
def size_of(md, index=0):
    """``memory_desc_wrapper::size(index)``: bytes of buffer ``index``."""
    if md.format_kind in (format_kind.undef, format_kind.any) or md.ndims == 0 \
            or 0 in md.dims:
        return 0
    if md.format_kind == format_kind.blocked and index != 0:
        return 0
    if md.has_runtime_dims_or_strides():
        return RUNTIME_SIZE
    if md.format_kind == format_kind.sparse:
        return md.sparse.buffer_size(md, index)
    if md.format_kind == format_kind.host_scalar:
        return md.data_type_size()
    blocks = md.blocks
    span = 0
    for d in range(md.ndims):
        n = md.padded_dims[d] // blocks[d]
        span = max(span, n * (1 if n == 1 else md.strides[d]))
    if span == 1 and md.inner_blks:
        span = md.block_size
    nbytes = span * md.data_type_size()
    if md.data_type in _dtypes.SUB_BYTE:
        nbytes = (nbytes + 1) // 2
    return nbytes


# -- sparse and host-scalar creation ------------------------------------------------
def _made(allow_empty, make, *args):
    try:    # with allow_empty a refusal gives the zero desc
        return make(*args)
    except error:
        if not allow_empty:
            raise
        return ZERO


def sparse_md(dims, dt, nnz, encoding, metadata_types):
    """``memory_desc_init_by_{csr,coo,packed}_encoding``."""
    dims = _ints(dims, "dims")
    if len(dims) == 0:
        return ZERO
    _sparse.check_ndims(len(dims), encoding)
    dt = _dtypes.as_data_type(dt)
    sanity_check(len(dims), dims, dt)
    types = [_sparse.as_metadata_type(t) for t in metadata_types]
    sp = _sparse.sparse_desc(encoding, _ints([nnz], "nnz")[0],
                             types + [data_type.undef] * (2 - len(types)))
    return assemble(len(dims), dims, dt, dims, (0,) * len(dims), 0, format_kind.sparse,
                      sparse=sp)


def host_scalar_md(dt):
    """``memory_desc_init_host_scalar``: dims ``{1}``, padded dims left 0."""
    sanity_check(1, (1,), dt, format_kind.host_scalar)
    return assemble(1, (1,), dt, (0,), (0,), 0, format_kind.host_scalar)


include "_desc/transforms.pxi"
include "_desc/fields.pxi"


# -- equality ---------------------------------------------------------------------
def _equality_key(md):
    if md.ndims == 0:
        return (0,)
    key = (md.ndims, md.dims, int(md.data_type), md.padded_dims, md.padded_offsets,
           md.offset0, int(md.format_kind))
    if md.format_kind == format_kind.sparse:
        key += md.sparse.key()
    if md.format_kind == format_kind.blocked:
        strides = tuple(None if (md.dims[d] == 1 and md.padded_dims[d] == 1) else s
                        for d, s in enumerate(md.strides))
        key += (md.inner_blks, md.inner_idxs, strides)
    return key


def equal(a, b):
    return a is b or _equality_key(a) == _equality_key(b)
