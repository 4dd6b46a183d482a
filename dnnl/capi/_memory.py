"""``dnnl.capi``'s memory descriptor and memory functions (the several-buffer
and host-scalar ones of oneDNN's v2 API are in ``dnnl.capi._memory_buffers``,
imported here in header order). ``dnnl.capi`` exposes every function here
under its C name, in header order."""
import ctypes

import dnnl
from dnnl._core import capi as _b
from dnnl.capi._memory_buffers import blob_fields as _blob_fields, handle_arg as _handle_arg
from dnnl.capi._memory_buffers import md_from_blob as _md_from_blob
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, address as _addr, api as _api,
                             as_int as _i, lookup as _rec, new_out as _new_out,
                             obj as _obj, put_out as _put, read_array as _read,
                             read_dims as _dims, view_out as _view_out)
from dnnl._model.desc import desc as _desc, make as _make_desc
from dnnl._core.enums import C as _C
from dnnl._core.enums import data_type as _dt
from dnnl._core.enums import format_kind as _fk
from dnnl._core.error import invalid as _invalid
from dnnl._model.memory import span_bytes as _span_bytes

_P = ctypes.c_void_p
_INT = ctypes.c_int
_SZ = ctypes.c_size_t


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


# A blob is this library's own fixed-size serialisation of a descriptor
# (oneDNN's is its internal struct; both are implementation-specific).
_BLOB_FIELDS = 7 + 6 * _b.MAX_NDIMS
_BLOB_MAGIC = 0x444E4E4C50594D44        # "DNNLPYMD"


def _to_blob(md):
    n = md.ndims
    pad = lambda t: list(t) + [0] * (_b.MAX_NDIMS - len(t))  # noqa: E731
    reserved, strides = _blob_fields(md)    # sparse: encoding, nnz, metadata types
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
    special = _md_from_blob(v, _to_blob)    # sparse and host scalar
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


def _ndims(ndims):
    n = _i(ndims)
    if n < 0:
        raise _invalid("ndims is %d, not in 0..12" % n)
    return n


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)")
def dnnl_memory_desc_create_with_tag(memory_desc, ndims, dims, data_type, tag):
    """``dnnl_memory_desc_create_with_tag(dnnl_memory_desc_t *memory_desc, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``"""
    _b.out_address(memory_desc, "memory_desc")
    n = 0 if _i(tag) == _C["dnnl_format_tag_undef"] else _ndims(ndims)
    d = _dims(dims, n) if n > 0 else []
    _new_out(memory_desc, "md", _desc(d, _i(data_type), _i(tag)) if d else _desc())


# sparse and host-scalar descriptors: dnnl/capi/_memory_buffers.py
from dnnl.capi._memory_buffers import (  # noqa: E402  (here: header order)
    dnnl_memory_desc_create_with_csr_encoding, dnnl_memory_desc_create_with_coo_encoding,
    dnnl_memory_desc_create_with_packed_encoding, dnnl_memory_desc_create_host_scalar)


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


# the queries: dnnl/capi/_memory_buffers.py
from dnnl.capi._memory_buffers import (  # noqa: E402
    dnnl_memory_desc_query, dnnl_memory_desc_query_v2)


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


from dnnl.capi._memory_buffers import dnnl_memory_desc_get_size_v2  # noqa: E402


@_api("size_t", 2 ** 64 - 1, "dnnl.memory.desc data_type_size")
def dnnl_data_type_size(data_type):
    """``size_t dnnl_data_type_size(dnnl_data_type_t data_type)``"""
    from dnnl._core import dtypes as _dtypes
    return _dtypes.size(_i(data_type))


# ------------------------------------------------------- memory objects
@_api(wraps="dnnl.memory(md, engine, handle)")
def dnnl_memory_create(memory, memory_desc, engine, handle):
    """``dnnl_memory_create(dnnl_memory_t *memory, const_dnnl_memory_desc_t memory_desc,
    dnnl_engine_t engine, void *handle)``"""
    _b.out_address(memory, "memory")
    eng = _rec(engine, "engine")
    # oneDNN 3.13 (measured) refuses a NULL descriptor; pass a zero md instead
    md = _obj(memory_desc, "md", "memory_desc")
    h = _handle_arg(handle)     # a sparse descriptor's buffer 0 alone, as oneDNN
    _new_out(memory, "memory", dnnl.memory(md, eng.obj, [h] if md.sparse else h),
             {"engine": _b.handle_id(engine)})


from dnnl.capi._memory_buffers import (  # noqa: E402
    dnnl_memory_create_v2, dnnl_memory_create_host_scalar)


@_api(wraps="memory.get_desc()")
def dnnl_memory_get_memory_desc(memory, memory_desc):
    """``dnnl_memory_get_memory_desc(const_dnnl_memory_t memory,
    const_dnnl_memory_desc_t *memory_desc)``"""
    mem = _obj(memory, "memory")
    _b.out_address(memory_desc, "memory_desc")
    _view_out(memory_desc, memory, "md", "md", mem.get_desc())


@_api(wraps="memory.get_engine()")
def dnnl_memory_get_engine(memory, engine):
    """``dnnl_memory_get_engine(const_dnnl_memory_t memory, dnnl_engine_t *engine)``"""
    _put(engine, _P, _rec(memory, "memory").engines.get("engine"), "engine")  # host scalar: NULL


from dnnl.capi._memory_buffers import (  # noqa: E402
    dnnl_memory_map_data, dnnl_memory_map_data_v2, dnnl_memory_unmap_data,
    dnnl_memory_unmap_data_v2, dnnl_memory_get_data_handle, dnnl_memory_set_data_handle,
    dnnl_memory_get_data_handle_v2, dnnl_memory_set_data_handle_v2,
    dnnl_memory_get_host_scalar_value, dnnl_memory_set_host_scalar_value)


@_api(wraps="(releases the handle)")
def dnnl_memory_destroy(memory):
    """``dnnl_memory_destroy(dnnl_memory_t memory)``"""
    _b.destroy(memory, "memory")

