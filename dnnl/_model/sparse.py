"""Sparse encodings and host scalars: the memory descriptors that are not blocked.

oneDNN 3.13 describes a sparse tensor (matmul's sparse weights, its only
consumer on CPU) by an encoding, the number of non-zero values and the data
types of its metadata buffers; a host scalar is a single value that lives on
the host (a scale or zero point given with ``is_on_host``). This library
describes, holds and queries them; no kernel reads them, and reorders to or
from them are ``unimplemented``, as on oneDNN's CPU engine.

Every rule here follows oneDNN 3.13 (``memory_desc_init_by_*_encoding``,
``memory_desc_init_host_scalar`` in ``src/common/memory_desc.cpp``,
``memory_desc_wrapper::size`` and ``dnnl_memory_desc_query_v2``); the odd
cases were measured on oneDNN 3.13.2.
"""
import struct

from dnnl._core import args as _args
from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import data_type, sparse_encoding
from dnnl._core.error import error, invalid, unimpl

_SIZE_T = 2 ** 64


def _type_size(code):
    """``types::data_type_size``: (size_t)-1 for a type it does not know."""
    try:
        return _dtypes.size(code)
    except Exception:       # not a data type of the header: oneDNN's default
        return _SIZE_T - 1


def as_metadata_type(value):
    """A metadata data type as oneDNN keeps it: any int (3.13 checks none),
    the enum member when the header names it."""
    if isinstance(value, int) and not isinstance(value, data_type):
        if not -2 ** 31 <= value < 2 ** 31:
            return _dtypes.as_data_type(value)      # refused: not a C int
        try:
            return data_type(value)
        except ValueError:
            return value
    return _dtypes.as_data_type(value)


class sparse_desc(tuple):
    """The sparse part of a descriptor: ``(encoding, nnz, metadata_types)``,
    as oneDNN's ``sparse_desc_t`` (``metadata_types``: indices then pointers
    for CSR, indices for COO, none for packed; unset ones are ``undef``)."""

    __slots__ = ()

    def __new__(cls, encoding, nnz, metadata_types=(data_type.undef, data_type.undef)):
        return tuple.__new__(cls, (sparse_encoding(encoding), int(nnz), tuple(metadata_types)))

    def __getnewargs__(self):
        return tuple(self)

    encoding = property(lambda self: self[0])
    nnz = property(lambda self: self[1])
    metadata_types = property(lambda self: self[2])

    def num_handles(self, ndims):
        """Buffers of a memory: values then metadata (``num_handles_s32``)."""
        return 3 if self.encoding == sparse_encoding.packed else ndims + 1

    def buffer_size(self, md, index):
        """``memory_desc_wrapper::size(index)`` of a sparse descriptor: bytes
        as a C ``size_t`` (a negative nnz wraps, as in oneDNN), 0 for an
        index that is not a buffer."""
        nnz, enc = self.nnz, self.encoding
        if enc == sparse_encoding.csr:
            sizes = {0: nnz * _type_size(md.data_type),
                     1: nnz * _type_size(self.metadata_types[0]),
                     2: (md.dims[0] + 1) * _type_size(self.metadata_types[1])}
            size = sizes.get(index, 0)
        elif enc == sparse_encoding.coo:
            if index == 0:
                size = nnz * _type_size(md.data_type)
            else:
                size = nnz * _type_size(self.metadata_types[0]) if 0 < index <= md.ndims else 0
        else:   # packed: a user descriptor has no packed layout yet, so no size
            size = 0
        return size % _SIZE_T

    def key(self):
        """``sparse_desc_is_equal``: encoding, nnz and both metadata types."""
        return (int(self.encoding), self.nnz) + tuple(int(t) for t in self.metadata_types)

    def describe(self):
        text = "%s nnz %d" % (self.encoding.name, self.nnz)
        names = {sparse_encoding.csr: ("indices", "pointers"),
                 sparse_encoding.coo: ("indices",)}.get(self.encoding, ())
        for what, t in zip(names, self.metadata_types):
            text += " %s %s" % (what, getattr(t, "name", t))
        return text

    def __repr__(self):
        return "sparse_desc(%s)" % self.describe()


def check_ndims(ndims, encoding):
    """CSR and COO are 3.13's for at most 2 dims (``unimplemented`` above)."""
    if ndims > 2 and encoding in (sparse_encoding.csr, sparse_encoding.coo):
        raise unimpl("%s encoding describes at most 2 dims, not %d: oneDNN 3.13 "
                     "implements no more" % (encoding.name.upper(), ndims))


# -- dnnl_memory_desc_query_v2(data_type, index): metadata_types[index - 1] ----------
# oneDNN reads ``metadata_types[index - 1]`` of its ``memory_desc_t`` without a
# bound (``metadata_types[0]`` for every index of COO): a past-the-end or
# negative index reads whatever field lies there. We answer from an image of
# the 768-byte struct of a descriptor made by the create functions (a negative
# nnz or other unused slots included); an index outside the struct, where
# oneDNN reads memory that is not its own, is invalid_arguments.
_MD_BYTES = 768
_DIMS_AT, _DT_AT, _PDIMS_AT, _POFFS_AT, _OFF0_AT, _FK_AT = 8, 104, 112, 208, 304, 312
_UNION_AT = 320
_META_AT = _UNION_AT + 16       # after the encoding (int, padded) and nnz


def _image(md):
    raw = bytearray(_MD_BYTES)
    struct.pack_into("<i", raw, 0, md.ndims)
    for at, values in ((_DIMS_AT, md.dims), (_PDIMS_AT, md.padded_dims),
                       (_POFFS_AT, md.padded_offsets)):
        struct.pack_into("<%dq" % len(values), raw, at, *values)
    struct.pack_into("<i", raw, _DT_AT, int(md.data_type))
    struct.pack_into("<q", raw, _OFF0_AT, md.offset0)
    struct.pack_into("<i", raw, _FK_AT, int(md.format_kind))
    sp = md.sparse
    struct.pack_into("<iiqii", raw, _UNION_AT, int(sp.encoding), 0, sp.nnz,
                     *(int(t) for t in sp.metadata_types))
    return raw


def metadata_type(md, index):
    """The answer of ``query_v2(data_type, index)`` for a sparse ``md``, or
    None where oneDNN reads outside its descriptor."""
    sp = md.sparse
    if index == 0:
        return md.data_type
    slot = 0 if sp.encoding == sparse_encoding.coo else index - 1
    at = _META_AT + 4 * slot
    if not 0 <= at <= _MD_BYTES - 4:
        return None
    return as_metadata_type(struct.unpack_from("<i", _image(md), at)[0])


class buffer_queries:
    """``memory.desc``'s queries by buffer (``dnnl_memory_desc_query_v2``):
    what a descriptor answers about its buffers, sparse or not."""

    __slots__ = ()

    def get_num_handles(self):
        """Buffers a memory of this descriptor has (1 unless sparse)."""
        return self.sparse.num_handles(self.ndims) if self.sparse else 1

    def get_nnz(self):
        """Non-zero values of a sparse descriptor (0 for others, as in C++)."""
        return self.sparse.nnz if self.sparse else 0

    def get_sparse_encoding(self):
        """The sparse encoding (``undef`` for a descriptor that is not sparse)."""
        return self.sparse.encoding if self.sparse else sparse_encoding.undef

    def query_data_type(self, index=0):
        """``dnnl_memory_desc_query_v2(data_type, index)``: buffer ``index``'s data
        type (values, then metadata); invalid_arguments where oneDNN returns it."""
        index = _args.integer(index, "index")
        dt = metadata_type(self, index) if self.sparse else \
            self.data_type if index <= 0 else None
        if dt is None:
            raise invalid("buffer %d is not a buffer of %r (it has %d)"
                          % (index, self, self.get_num_handles()))
        return dt

    def get_data_type(self, index=0):
        """The data type of buffer ``index``; ``undef`` where there is none."""
        index = _args.integer(index, "index")
        try:
            return self.query_data_type(index)
        except error:
            return data_type.undef
