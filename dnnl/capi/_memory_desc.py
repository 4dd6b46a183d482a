"""``dnnl.capi``'s memory descriptor functions: creation by tag, strides,
blob and sparse encoding (CSR, COO, packed), host scalars, submemory,
reshape, permutation, the queries (``_v2``: by buffer index), equality and
sizes. Thin wrappers over ``dnnl.memory.desc``, with the statuses oneDNN
3.13.2 returns (measured: ``tests/conformance/test_sparse_oracle.py``);
``dnnl.capi`` exposes each under its C name, in header order."""
import ctypes

from dnnl._core import capi as _b
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, address as _addr, api as _api,
                             as_int as _i, new_out as _new_out, obj as _obj,
                             put_out as _put, read_array as _read, read_dims as _dims)
from dnnl._core.enums import C as _C
from dnnl._core.enums import query as _q
from dnnl._core.enums import sparse_encoding as _enc
from dnnl._core.error import invalid as _invalid
from dnnl._core.error import unimpl as _unimpl
from dnnl._model.desc import BLOB_BYTES as _BLOB_BYTES, desc as _desc
from dnnl._model.desc import from_blob as _from_blob, to_blob as _to_blob
from dnnl._model.sparse import check_ndims as _check_ndims


_P = ctypes.c_void_p


_INT = ctypes.c_int


_SZ = ctypes.c_size_t


def _ndims(ndims):
    n = _i(ndims)
    if n < 0:
        raise _invalid("ndims is %d, not in 0..12" % n)
    return n


_I64 = ctypes.c_int64


# ---------------------------------------------------- sparse descriptors
def _sparse(memory_desc, ndims, dims, encoding, make):
    _b.out_address(memory_desc, "memory_desc")
    n = _i(ndims)
    _check_ndims(n, encoding)       # before the dims are read, as oneDNN
    if n < 0:
        raise _invalid("ndims is %d, not in 0..12" % n)
    _new_out(memory_desc, "md", make(_dims(dims, n)) if n else _desc())


_DIMS_QUERIES = {_q.dims: "get_dims", _q.padded_dims: "get_padded_dims",
                 _q.padded_offsets: "get_padded_offsets", _q.strides: "get_strides",
                 _q.inner_blks: "get_inner_blks", _q.inner_idxs: "get_inner_idxs"}


_BLOCKING_QUERIES = frozenset({_q.strides, _q.inner_blks, _q.inner_idxs,
                               _q.inner_nblks_s32})


# ---------------------------------------------------- memory descriptors
@_api(wraps="(releases the handle)")
def dnnl_memory_desc_destroy(memory_desc):
    """``dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc)``"""
    _b.destroy(memory_desc, "md")


@_api(wraps="(a new handle on the same immutable desc)")
def dnnl_memory_desc_clone(memory_desc, existing_memory_desc):
    """``dnnl_memory_desc_clone(dnnl_memory_desc_t *memory_desc,
    const_dnnl_memory_desc_t existing_memory_desc)``"""
    _b.out_address(memory_desc, "memory_desc")
    _new_out(memory_desc, "md", _obj(existing_memory_desc, "md"))


@_api(wraps="md.get_blob()")
def dnnl_memory_desc_get_blob(blob, size, memory_desc):
    """``dnnl_memory_desc_get_blob(uint8_t *blob, size_t *size,
    const_dnnl_memory_desc_t memory_desc)``"""
    md = _obj(memory_desc, "md")
    if not _addr(blob) and not _addr(size):
        raise _invalid("blob and size are both NULL")
    raw = _to_blob(md)
    if not _addr(blob):
        return _put(size, _SZ, len(raw), "size")
    n = min(len(raw), _SZ.from_address(_b.out_address(size, "size")).value)
    ctypes.memmove(_addr(blob), raw, n)


@_api(wraps="dnnl.memory.desc(blob)")
def dnnl_memory_desc_create_with_blob(memory_desc, blob):
    """``dnnl_memory_desc_create_with_blob(dnnl_memory_desc_t *memory_desc,
    const uint8_t *blob)``"""
    _b.out_address(memory_desc, "memory_desc")
    # as oneDNN: the blob's size is the format's (its struct's there); every
    # field is checked here (oneDNN copies it unchecked)
    raw = ctypes.string_at(_b.out_address(blob, "blob"), _BLOB_BYTES)
    _new_out(memory_desc, "md", _from_blob(raw))


@_api(wraps="dnnl.memory.desc(dims, data_type, strides)")
def dnnl_memory_desc_create_with_strides(memory_desc, ndims, dims, data_type, strides):
    """``dnnl_memory_desc_create_with_strides(dnnl_memory_desc_t *memory_desc, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, const dnnl_dims_t strides)``"""
    _b.out_address(memory_desc, "memory_desc")
    n = _ndims(ndims)
    d = _dims(dims, n) if n > 0 else []
    s = _dims(strides, n, "strides") if n > 0 and _addr_or_seq(strides) else None
    _new_out(memory_desc, "md", _desc(d, _i(data_type), s) if d else _desc())


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)")
def dnnl_memory_desc_create_with_tag(memory_desc, ndims, dims, data_type, tag):
    """``dnnl_memory_desc_create_with_tag(dnnl_memory_desc_t *memory_desc, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``"""
    _b.out_address(memory_desc, "memory_desc")
    n = 0 if _i(tag) == _C["dnnl_format_tag_undef"] else _ndims(ndims)
    d = _dims(dims, n) if n > 0 else []
    _new_out(memory_desc, "md", _desc(d, _i(data_type), _i(tag)) if d else _desc())


@_api(wraps="dnnl.memory.desc.csr(dims, data_type, nnz, index_dt, pointer_dt)")
def dnnl_memory_desc_create_with_csr_encoding(memory_desc, ndims, dims, data_type, nnz,
                                              indices_dt, pointers_dt):
    """``dnnl_memory_desc_create_with_csr_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz,
    dnnl_data_type_t indices_dt, dnnl_data_type_t pointers_dt)``"""
    _sparse(memory_desc, ndims, dims, _enc.csr, lambda d: _desc.csr(
        d, _i(data_type), _i(nnz), _i(indices_dt), _i(pointers_dt)))


@_api(wraps="dnnl.memory.desc.coo(dims, data_type, nnz, index_dt)")
def dnnl_memory_desc_create_with_coo_encoding(memory_desc, ndims, dims, data_type, nnz,
                                              indices_dt):
    """``dnnl_memory_desc_create_with_coo_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz,
    dnnl_data_type_t indices_dt)``"""
    _sparse(memory_desc, ndims, dims, _enc.coo, lambda d: _desc.coo(
        d, _i(data_type), _i(nnz), _i(indices_dt)))


@_api(wraps="dnnl.memory.desc.packed(dims, data_type, nnz)")
def dnnl_memory_desc_create_with_packed_encoding(memory_desc, ndims, dims, data_type, nnz):
    """``dnnl_memory_desc_create_with_packed_encoding(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_dim_t nnz)``"""
    _sparse(memory_desc, ndims, dims, _enc.packed, lambda d: _desc.packed(
        d, _i(data_type), _i(nnz)))


@_api(wraps="dnnl.memory.desc.host_scalar(data_type)")
def dnnl_memory_desc_create_host_scalar(memory_desc, data_type):
    """``dnnl_memory_desc_create_host_scalar(dnnl_memory_desc_t *memory_desc,
    dnnl_data_type_t data_type)``"""
    _b.out_address(memory_desc, "memory_desc")
    _new_out(memory_desc, "md", _desc.host_scalar(_i(data_type)))


@_api(wraps="md.submemory_desc(dims, offsets)")
def dnnl_memory_desc_create_submemory(memory_desc, parent_memory_desc, dims, offsets):
    """``dnnl_memory_desc_create_submemory(dnnl_memory_desc_t *memory_desc,
    const_dnnl_memory_desc_t parent_memory_desc, const dnnl_dims_t dims,
    const dnnl_dims_t offsets)``"""
    _b.out_address(memory_desc, "memory_desc")
    parent = _obj(parent_memory_desc, "md", "parent_memory_desc")
    n = parent.ndims
    _new_out(memory_desc, "md",
             parent.submemory_desc(_dims(dims, n), _dims(offsets, n, "offsets")))


@_api(wraps="md.reshape(dims)")
def dnnl_memory_desc_reshape(out_memory_desc, in_memory_desc, ndims, dims):
    """``dnnl_memory_desc_reshape(dnnl_memory_desc_t *out_memory_desc,
    const_dnnl_memory_desc_t in_memory_desc, int ndims, const dnnl_dims_t dims)``"""
    _b.out_address(out_memory_desc, "out_memory_desc")
    md = _obj(in_memory_desc, "md", "in_memory_desc")
    n = _i(ndims)
    if n <= 0:
        raise _invalid("reshape needs ndims > 0, got %d" % n)
    _new_out(out_memory_desc, "md", md.reshape(_dims(dims, n)))


@_api(wraps="md.permute_axes(permutation)")
def dnnl_memory_desc_permute_axes(out_memory_desc, in_memory_desc, permutation):
    """``dnnl_memory_desc_permute_axes(dnnl_memory_desc_t *out_memory_desc,
    const_dnnl_memory_desc_t in_memory_desc, const int *permutation)``"""
    _b.out_address(out_memory_desc, "out_memory_desc")
    md = _obj(in_memory_desc, "md", "in_memory_desc")
    perm = [int(p) for p in _read(permutation, _INT, md.ndims, "permutation")]
    _new_out(out_memory_desc, "md", md.permute_axes(perm))


@_api(wraps="md.get_ndims() / get_dims() / get_strides() ... by `what`")
def dnnl_memory_desc_query(memory_desc, what, result):
    """``dnnl_memory_desc_query(const_dnnl_memory_desc_t memory_desc, dnnl_query_t what,
    void *result)``"""
    md = _obj(memory_desc, "md", "memory_desc")
    res = _b.out_address(result, "result")
    w = _i(what)
    if w in _BLOCKING_QUERIES and not md.is_blocked():
        raise _invalid("query %d needs a blocked memory descriptor" % w)
    if w in _DIMS_QUERIES:
        vals = getattr(md, _DIMS_QUERIES[w])()
        vals = vals + [0] * (_b.MAX_NDIMS - len(vals))
        return _b.put(res, _P, _b.keep_array(memory_desc, w, _I64, vals))
    if w == _q.ndims_s32:
        return _b.put(res, ctypes.c_int32, md.get_ndims())
    if w == _q.data_type:
        return _b.put(res, _INT, int(md.get_data_type()))
    if w == _q.submemory_offset_s64:
        return _b.put(res, _I64, md.get_submemory_offset())
    if w == _q.format_kind:
        return _b.put(res, _INT, int(md.get_format_kind()))
    if w == _q.inner_nblks_s32:
        return _b.put(res, ctypes.c_int32, md.get_inner_nblks())
    raise _unimpl("query %d is not a memory descriptor query" % w)


@_api(wraps="md.get_sparse_encoding() / get_nnz() / get_num_handles() / "
            "query_data_type(index), else as dnnl_memory_desc_query")
def dnnl_memory_desc_query_v2(memory_desc, what, index, result):
    """``dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
    dnnl_query_t what, int index, void *result)``"""
    md = _obj(memory_desc, "md", "memory_desc")
    res = _b.out_address(result, "result")
    w, i = _i(what), _i(index)
    if i > 0 and not (md.sparse and w == _q.data_type):
        raise _invalid("index %d: only the data type of a sparse descriptor is "
                       "queried by buffer index" % i)
    if w in (_q.sparse_encoding, _q.nnz_s64) and not md.sparse:
        raise _invalid("query %s is for sparse descriptors only" % _q(w).name)
    if w == _q.sparse_encoding:
        return _b.put(res, _INT, int(md.get_sparse_encoding()))
    if w == _q.nnz_s64:
        return _b.put(res, _I64, md.get_nnz())
    if w == _q.data_type:
        return _b.put(res, _INT, int(md.query_data_type(i)))
    if w == _q.num_handles_s32:
        return _b.put(res, ctypes.c_int32, md.get_num_handles())
    return dnnl_memory_desc_query.__wrapped__(memory_desc, what, result)


@_api("int", 0, "md == other")
def dnnl_memory_desc_equal(lhs, rhs):
    """``int dnnl_memory_desc_equal(const_dnnl_memory_desc_t lhs,
    const_dnnl_memory_desc_t rhs)``"""
    if _addr(lhs) == _addr(rhs):    # as oneDNN: the same pointer (NULL too) is equal
        return 1
    return int(_obj(lhs, "md") == _obj(rhs, "md"))


@_api("size_t", 0, "md.get_size()")
def dnnl_memory_desc_get_size(memory_desc):
    """``size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc)``"""
    return _obj(memory_desc, "md").get_size()


@_api("size_t", 0, "md.get_size(index)")
def dnnl_memory_desc_get_size_v2(memory_desc, index):
    """``size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
    int index)``"""
    return _obj(memory_desc, "md").get_size(_i(index))


@_api("size_t", 2 ** 64 - 1, "dnnl.memory.desc data_type_size")
def dnnl_data_type_size(data_type):
    """``size_t dnnl_data_type_size(dnnl_data_type_t data_type)``"""
    from dnnl._core import dtypes as _dtypes
    return _dtypes.size(_i(data_type))
