"""``dnnl.capi``'s functions of memories with several buffers and host scalars.

oneDNN 3.13's "v2" memory API: sparse descriptors (CSR, COO, packed), the
descriptor queries (``dnnl_memory_desc_query`` and its ``_v2`` by buffer
index), sizes by buffer index, memories over several handles, and host scalars.
Thin wrappers over ``dnnl.memory.desc.csr`` / ``coo`` / ``packed`` /
``host_scalar`` and ``dnnl.memory``, with the statuses oneDNN 3.13.2 returns
(measured: ``tests/conformance/test_sparse_oracle.py``). ``dnnl.capi``
exposes every function here under its C name, in header order.
"""
import ctypes

import numpy as np

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (address as _addr, api as _api, as_int as _i, lookup as _rec,
                             new_out as _new, obj as _obj, put as _put, read_array as _read,
                             read_dims as _dims)
from dnnl._model.desc import desc as _desc
from dnnl._core.enums import C as _C
from dnnl._core.enums import format_kind as _fk
from dnnl._core.enums import query as _q
from dnnl._core.enums import sparse_encoding as _enc
from dnnl._core.error import invalid as _invalid
from dnnl._core.error import unimpl as _unimpl
from dnnl._model.sparse import check_ndims as _check_ndims

_P = ctypes.c_void_p
_INT = ctypes.c_int
_I64 = ctypes.c_int64
_MEMORY_ALLOCATE = _C["DNNL_MEMORY_ALLOCATE"] & (2 ** 64 - 1)


def handle_arg(handle):
    """A data handle: a ctypes array stays an array (the memory checks its
    size, so a too small one is refused); anything else is its address."""
    return handle if isinstance(handle, ctypes.Array) else _addr(handle)


# ---------------------------------------------------- sparse descriptors
def _sparse(memory_desc, ndims, dims, encoding, make):
    _b.out_address(memory_desc, "memory_desc")
    n = _i(ndims)
    _check_ndims(n, encoding)       # before the dims are read, as oneDNN
    if n < 0:
        raise _invalid("ndims is %d, not in 0..12" % n)
    _new(memory_desc, "md", make(_dims(dims, n)) if n else _desc())


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
    _new(memory_desc, "md", _desc.host_scalar(_i(data_type)))


_DIMS_QUERIES = {_q.dims: "get_dims", _q.padded_dims: "get_padded_dims",
                 _q.padded_offsets: "get_padded_offsets", _q.strides: "get_strides",
                 _q.inner_blks: "get_inner_blks", _q.inner_idxs: "get_inner_idxs"}
_BLOCKING_QUERIES = frozenset({_q.strides, _q.inner_blks, _q.inner_idxs,
                               _q.inner_nblks_s32})


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
        return _put(res, _P, _b.keep_array(memory_desc, w, _I64, vals))
    if w == _q.ndims_s32:
        return _put(res, ctypes.c_int32, md.get_ndims())
    if w == _q.data_type:
        return _put(res, _INT, int(md.get_data_type()))
    if w == _q.submemory_offset_s64:
        return _put(res, _I64, md.get_submemory_offset())
    if w == _q.format_kind:
        return _put(res, _INT, int(md.get_format_kind()))
    if w == _q.inner_nblks_s32:
        return _put(res, ctypes.c_int32, md.get_inner_nblks())
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
        return _put(res, _INT, int(md.get_sparse_encoding()))
    if w == _q.nnz_s64:
        return _put(res, _I64, md.get_nnz())
    if w == _q.data_type:
        return _put(res, _INT, int(md.query_data_type(i)))
    if w == _q.num_handles_s32:
        return _put(res, ctypes.c_int32, md.get_num_handles())
    return dnnl_memory_desc_query.__wrapped__(memory_desc, what, result)


@_api("size_t", 0, "md.get_size(index)")
def dnnl_memory_desc_get_size_v2(memory_desc, index):
    """``size_t dnnl_memory_desc_get_size_v2(const_dnnl_memory_desc_t memory_desc,
    int index)``"""
    return _obj(memory_desc, "md").get_size(_i(index))


# ------------------------------------------------------- memory objects
@_api(wraps="dnnl.memory(md, engine, [handles...])")
def dnnl_memory_create_v2(memory, memory_desc, engine, nhandles, handles):
    """``dnnl_memory_create_v2(dnnl_memory_t *memory, const_dnnl_memory_desc_t
    memory_desc, dnnl_engine_t engine, int nhandles, void **handles)``"""
    _b.out_address(memory, "memory")
    eng = _rec(engine, "engine")
    n = _i(nhandles)
    if n <= 0 or not (isinstance(handles, (list, tuple)) or _addr(handles)):
        raise _invalid("nhandles must be positive and handles not NULL (nhandles is %d)"
                       % n)
    md = _obj(memory_desc, "md", "memory_desc")
    # as oneDNN: every handle given is a buffer (past the descriptor's too)
    given = [h or 0 for h in _read(handles, _P, n, "handles")]
    _new(memory, "memory", dnnl.memory(md, eng.obj, given), {"engine": _b.handle_id(engine)})


@_api(wraps="dnnl.memory(md, value)")
def dnnl_memory_create_host_scalar(memory, memory_desc, scalar_ptr):
    """``dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
    const_dnnl_memory_desc_t memory_desc, void *scalar_ptr)``"""
    _b.out_address(memory, "memory")
    value = _b.out_address(scalar_ptr, "scalar_ptr")
    md = _obj(memory_desc, "md", "memory_desc")
    if md.format_kind != _fk.host_scalar:
        raise _invalid("%r is not a host-scalar descriptor" % md)
    _new(memory, "memory", dnnl.memory(md, ctypes.string_at(value, md.get_size())))


def _index(mem, index):
    """``index`` as a buffer of ``mem`` (``dnnl.error`` past its handles)."""
    i = _i(index)
    if mem.get_desc().format_kind == _fk.host_scalar:
        if i != 0:
            raise _invalid("a host-scalar memory has buffer 0 alone, not %d" % i)
    else:
        mem.get_data_handle(i)
    return i


def _map(memory, mapped_ptr, index):
    mem = _obj(memory, "memory")
    out = _b.out_address(mapped_ptr, "mapped_ptr")
    i = _index(mem, index)
    md = mem.get_desc()
    if md.format_kind == _fk.host_scalar:       # its own storage, as oneDNN's
        return _put(out, _P, mem.map_data(np.uint8).ctypes.data)
    size = mem.nbytes if i == 0 and md.is_blocked() else md.get_size(i)
    _put(out, _P, mem.get_data_handle(i) if size else None)


@_api(wraps="memory.get_data_handle() (CPU: no mapping)")
def dnnl_memory_map_data(memory, mapped_ptr):
    """``dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr)``"""
    _map(memory, mapped_ptr, 0)


@_api(wraps="memory.get_data_handle(index) (CPU: no mapping)")
def dnnl_memory_map_data_v2(memory, mapped_ptr, index):
    """``dnnl_memory_map_data_v2(const_dnnl_memory_t memory, void **mapped_ptr,
    int index)``"""
    _map(memory, mapped_ptr, index)


@_api(wraps="memory.unmap_data(ptr)")
def dnnl_memory_unmap_data(memory, mapped_ptr):
    """``dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr)``"""
    _index(_obj(memory, "memory"), 0)


@_api(wraps="memory.unmap_data(ptr)")
def dnnl_memory_unmap_data_v2(memory, mapped_ptr, index):
    """``dnnl_memory_unmap_data_v2(const_dnnl_memory_t memory, void *mapped_ptr,
    int index)``"""
    _index(_obj(memory, "memory"), index)


def _get_handle(memory, handle, index):
    out = _b.out_address(handle, "handle")
    if not _addr(memory):
        return _put(out, _P, None)
    _put(out, _P, _obj(memory, "memory").get_data_handle(_i(index)) or None)


@_api(wraps="memory.get_data_handle()")
def dnnl_memory_get_data_handle(memory, handle):
    """``dnnl_memory_get_data_handle(const_dnnl_memory_t memory, void **handle)``"""
    _get_handle(memory, handle, 0)


@_api(wraps="memory.set_data_handle(handle)")
def dnnl_memory_set_data_handle(memory, handle):
    """``dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle)``"""
    _obj(memory, "memory").set_data_handle(handle_arg(handle))


@_api(wraps="memory.get_data_handle(index)")
def dnnl_memory_get_data_handle_v2(memory, handle, index):
    """``dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory, void **handle,
    int index)``"""
    _get_handle(memory, handle, index)


@_api(wraps="memory.set_data_handle(handle, index)")
def dnnl_memory_set_data_handle_v2(memory, handle, index):
    """``dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle, int index)``"""
    _obj(memory, "memory").set_data_handle(handle_arg(handle), index=_i(index))


def _scalar_memory(memory, value):
    mem = _obj(memory, "memory")
    addr = _b.out_address(value, "value")
    mem.get_host_scalar_value()         # a plain memory: invalid_arguments
    return mem, addr


@_api(wraps="memory.get_host_scalar_value()")
def dnnl_memory_get_host_scalar_value(memory, value):
    """``dnnl_memory_get_host_scalar_value(const_dnnl_memory_t memory, void *value)``"""
    mem, addr = _scalar_memory(memory, value)
    raw = mem.map_data(np.uint8).tobytes()
    ctypes.memmove(addr, raw, len(raw))


@_api(wraps="memory.set_host_scalar_value(value)")
def dnnl_memory_set_host_scalar_value(memory, value):
    """``dnnl_memory_set_host_scalar_value(dnnl_memory_t memory, const void *value)``"""
    mem, addr = _scalar_memory(memory, value)
    mem.set_host_scalar_value(ctypes.string_at(addr, mem.get_desc().get_size()))


# ------------------------------------- descriptor blobs of these kinds
# dnnl_memory_desc_get_blob's fields (dnnl.capi) carry a sparse descriptor's
# encoding in the blob's reserved word and its nnz and metadata types in the
# strides row, which neither kind has.
def blob_fields(md):
    """(reserved word, strides row) of ``md``'s blob."""
    if md.sparse:
        return int(md.sparse.encoding), [md.sparse.nnz] + [int(t) for t in
                                                           md.sparse.metadata_types]
    return 0, list(md.strides)


_MAKERS = {int(_enc.csr): lambda d, dt, nnz, mt: _desc.csr(d, dt, nnz, mt[0], mt[1]),
           int(_enc.coo): lambda d, dt, nnz, mt: _desc.coo(d, dt, nnz, mt[0]),
           int(_enc.packed): lambda d, dt, nnz, mt: _desc.packed(d, dt, nnz)}


def md_from_blob(words, to_blob):
    """The sparse or host-scalar descriptor of a blob's int64 ``words`` (None
    for other kinds), accepted only if ``to_blob`` of it gives those words
    back: a blob is read from any address."""
    n, dt, fk, reserved = words[1], words[2], words[3], words[6]
    if fk not in (int(_fk.sparse), int(_fk.host_scalar)):
        return None
    row = 7 + 3 * _b.MAX_NDIMS          # the strides row
    try:
        if fk == _fk.host_scalar:
            md = _desc.host_scalar(dt)
        else:
            make = _MAKERS.get(reserved)
            md = make and make(words[7:7 + n], dt, words[row], words[row + 1:row + 3])
    except dnnl.error:
        md = None
    if md is None or to_blob(md) != bytes((ctypes.c_int64 * len(words))(*words)):
        raise _invalid("corrupt memory descriptor blob: not one of a %s descriptor"
                       % _fk(fk).name)
    return md
