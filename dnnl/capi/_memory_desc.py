"""``dnnl.capi``'s memory descriptor functions: creation by tag, strides,
blob and sparse encoding (CSR, COO, packed), host scalars, submemory,
reshape, permutation, the queries (``_v2``: by buffer index), equality and
sizes. Thin wrappers over ``dnnl.memory.desc``, with the statuses oneDNN
3.13.2 returns (measured: ``tests/conformance/test_sparse_oracle.py``);
``dnnl.capi`` exposes each under its C name, in header order."""
import ctypes

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, address as _addr, api as _api,
                             as_int as _i, new_out as _new_out, obj as _obj,
                             put_out as _put, read_array as _read, read_dims as _dims)
from dnnl._core.enums import C as _C
from dnnl._core.enums import data_type as _dt
from dnnl._core.enums import format_kind as _fk
from dnnl._core.enums import query as _q
from dnnl._core.enums import sparse_encoding as _enc
from dnnl._core.error import invalid as _invalid
from dnnl._core.error import unimpl as _unimpl
from dnnl._model.desc import desc as _desc, make as _make_desc
from dnnl._model.memory import span_bytes as _span_bytes
from dnnl._model.sparse import check_ndims as _check_ndims


_P = ctypes.c_void_p


_INT = ctypes.c_int


_SZ = ctypes.c_size_t


# A blob is this library's own fixed-size serialisation of a descriptor
# (oneDNN's is its internal struct; both are implementation-specific).
_BLOB_FIELDS = 7 + 6 * _b.MAX_NDIMS


_BLOB_MAGIC = 0x444E4E4C50594D44        # "DNNLPYMD"


def _to_blob(md):
    n = md.ndims
    pad = lambda t: list(t) + [0] * (_b.MAX_NDIMS - len(t))  # noqa: E731
    reserved, strides = blob_fields(md)    # sparse: encoding, nnz, metadata types
    vals = ([_BLOB_MAGIC, n, int(md.data_type), int(md.format_kind), md.offset0,
             len(md.inner_blks), reserved] + pad(md.dims) + pad(md.padded_dims)
            + pad(md.padded_offsets) + pad(strides) + pad(md.inner_blks)
            + pad(md.inner_idxs))
    return bytes((ctypes.c_int64 * _BLOB_FIELDS)(*vals))


def _from_blob(raw):
    """The descriptor of a blob, each field checked: a blob is read from any
    address, and a descriptor that lies about its layout would let kernels
    write outside a buffer."""
    v = list(raw)
    if v[0] != _BLOB_MAGIC:
        raise _invalid("not a memory descriptor blob")
    n, dt, fk, off0, nb = v[1], v[2], v[3], v[4], v[5]
    if not (0 <= n <= _b.MAX_NDIMS and 0 <= nb <= _b.MAX_NDIMS):
        raise _invalid("corrupt memory descriptor blob: ndims %d, %d inner blocks" % (n, nb))
    arr = [v[7 + k * _b.MAX_NDIMS: 7 + (k + 1) * _b.MAX_NDIMS] for k in range(6)]
    if n == 0:
        if any(v[1:]):
            raise _invalid("corrupt memory descriptor blob: fields set for zero dims")
        return _desc()
    special = md_from_blob(v, _to_blob)    # sparse and host scalar
    if special is not None:
        return special
    dims, pdims, poffs, strides = arr[0][:n], arr[1][:n], arr[2][:n], arr[3][:n]
    blks, idxs = arr[4][:nb], arr[5][:nb]
    if v[6] or any(any(a[n:]) for a in arr[:4]) or any(any(a[nb:]) for a in arr[4:]):
        raise _invalid("corrupt memory descriptor blob: fields past ndims or the blocks")
    if dt not in _BLOB_DTS or fk not in (int(_fk.blocked), int(_fk.any)):
        raise _invalid("corrupt memory descriptor blob: data type %d, format kind %d"
                       % (dt, fk))
    if fk == _fk.any and (nb or any(strides) or off0):
        raise _invalid("corrupt memory descriptor blob: a layout for format any")
    per_dim = [1] * n
    for b, i in zip(blks, idxs):
        if not (2 <= b < 2 ** 31 and 0 <= i < n):
            raise _invalid("corrupt memory descriptor blob: inner block %d of dim %d" % (b, i))
        per_dim[i] *= b
    for k in range(n):
        if not (0 <= dims[k] <= pdims[k] < 2 ** 62 and 0 <= poffs[k] <= pdims[k] - dims[k]
                and pdims[k] % per_dim[k] == 0 and 0 <= strides[k] < 2 ** 62):
            raise _invalid("corrupt memory descriptor blob: dim %d (%d, padded %d, offset "
                           "%d, stride %d)" % (k, dims[k], pdims[k], poffs[k], strides[k]))
    if not 0 <= off0 < 2 ** 62:
        raise _invalid("corrupt memory descriptor blob: offset0 %d" % off0)
    md = _make_desc(n, dims, _dt(dt), pdims, poffs, off0, _fk(fk),
                    strides if fk == _fk.blocked else (), blks, idxs)
    if md.format_kind == _fk.blocked and 0 not in dims and not md.is_zero() \
            and _span_bytes(md) >= 2 ** 62:
        raise _invalid("corrupt memory descriptor blob: a layout past 2**62 bytes")
    return md


# data types a blob may carry (every one the header names)
_BLOB_DTS = frozenset(int(t) for t in _dt)


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


@_api(wraps="(serialisation of the desc's fields)")
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


@_api(wraps="(inverse of dnnl_memory_desc_get_blob)")
def dnnl_memory_desc_create_with_blob(memory_desc, blob):
    """``dnnl_memory_desc_create_with_blob(dnnl_memory_desc_t *memory_desc,
    const uint8_t *blob)``"""
    _b.out_address(memory_desc, "memory_desc")
    raw = (ctypes.c_int64 * _BLOB_FIELDS).from_address(_b.out_address(blob, "blob"))
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
