"""``dnnl.capi``'s primitive descriptor and primitive functions: creation
through the registry, queries, next implementation, execution.
``dnnl.capi`` exposes every function here under its C name, in header order."""
import ctypes

from dnnl._core import capi as _b
from dnnl._core import registry as _registry
from dnnl._core.capi import (address as _addr, api as _api, as_int as _i, dnnl_exec_arg_t,
                             lookup as _rec, new_out as _new_out, obj as _obj,
                             view_out as _view_out)
from dnnl._core.enums import C as _C
from dnnl._core.enums import primitive_kind as _pk
from dnnl._core.enums import query as _q
from dnnl._core.error import invalid as _invalid
from dnnl._core.error import unimpl as _unimpl

_P = ctypes.c_void_p
_INT = ctypes.c_int
_I64 = ctypes.c_int64
_F32 = ctypes.c_float
_SUCCESS = _C["dnnl_success"]
_LAST_IMPL = _C["dnnl_last_impl_reached"]


# ------------------------------------------------- primitive descriptors
def _prim_class(pd):
    """The primitive class of a primitive descriptor."""
    rec = _registry.record_of(pd)
    if rec is None:
        raise _unimpl("no primitive for %r" % (pd,))
    return rec.primitive_class


@_api(wraps="pd.next_impl()")
def dnnl_primitive_desc_next_impl(primitive_desc):
    """``dnnl_primitive_desc_next_impl(dnnl_primitive_desc_t primitive_desc)``"""
    return _SUCCESS if _obj(primitive_desc, "pd").next_impl() else _LAST_IMPL


@_api(wraps="(a new handle on the same pd)")
def dnnl_primitive_desc_clone(primitive_desc, existing_primitive_desc):
    """``dnnl_primitive_desc_clone(dnnl_primitive_desc_t *primitive_desc,
    const_dnnl_primitive_desc_t existing_primitive_desc)``"""
    _b.out_address(primitive_desc, "primitive_desc")
    rec = _rec(existing_primitive_desc, "pd")
    _new_out(primitive_desc, "pd", rec.obj, rec.engines)


@_api(wraps="pd.get_primitive_attr()")
def dnnl_primitive_desc_get_attr(primitive_desc, attr):
    """``dnnl_primitive_desc_get_attr(const_dnnl_primitive_desc_t primitive_desc,
    const_dnnl_primitive_attr_t *attr)``"""
    pd = _obj(primitive_desc, "pd")
    _b.out_address(attr, "attr")
    _view_out(attr, primitive_desc, "attr", "attr", pd.get_primitive_attr())


@_api(wraps="(releases the handle)")
def dnnl_primitive_desc_destroy(primitive_desc):
    """``dnnl_primitive_desc_destroy(dnnl_primitive_desc_t primitive_desc)``"""
    _b.destroy(primitive_desc, "pd")


_MD_QUERIES = frozenset(int(v) for k, v in _C.items()
                        if k.startswith("dnnl_query_") and k.endswith("_md")
                        and 128 < v <= 255)


def _pd_md_view(primitive_desc, pd, what, index):
    md = pd.query_md(what, index)
    return _b.view(_b.handle_id(primitive_desc), ("md", what, index), "md", md)


@_api(wraps="pd.query_md / query_s64 / query_s32 / impl_info_str / get_* by `what`")
def dnnl_primitive_desc_query(primitive_desc, what, index, result):
    """``dnnl_primitive_desc_query(const_dnnl_primitive_desc_t primitive_desc,
    dnnl_query_t what, int index, void *result)``"""
    rec = _rec(primitive_desc, "pd")
    pd = rec.obj
    res = _b.out_address(result, "result")
    w, idx = _i(what), _i(index)
    if w in _MD_QUERIES:
        if w in (_q.workspace_md, _q.scratchpad_md) and idx != 0:
            raise _invalid("%s takes index 0" % _q(w).name)
        return _b.put(res, _P, _pd_md_view(primitive_desc, pd, w, idx))
    if w == _q.engine:
        return _b.put(res, _P, rec.engines["engine"])
    if w in (_q.reorder_src_engine, _q.reorder_dst_engine):
        if pd.get_kind() != _pk.reorder:
            raise _unimpl("%s is a reorder query" % _q(w).name)
        return _b.put(res, _P, rec.engines["src" if w == _q.reorder_src_engine else "dst"])
    # dnnl_query_scratchpad_engine: unimplemented, as oneDNN's primitive_desc_t::query
    # answers it (src/common/primitive_desc.hpp), with the default below
    if w == _q.primitive_kind:
        return _b.put(res, _INT, int(pd.get_kind()))
    if w == _q.impl_info_str:
        return _b.put(res, _P, _b.c_string_address(pd.impl_info_str().encode()))
    if w in (_q.num_of_inputs_s32, _q.num_of_outputs_s32):
        return _b.put(res, _INT, pd.query_s32(w))
    if w == _q.memory_consumption_s64:
        return _b.put(res, _I64, pd.query_s64(w))
    # a CPU primitive's cache blob id is empty: oneDNN answers success with its
    # size, 0, and NULL (dnnl_primitive_desc::query, src/common/primitive_desc_iface.cpp)
    if w == _q.cache_blob_id_size_s64:
        return _b.put(res, _I64, 0)
    if w == _q.cache_blob_id:
        return _b.put(res, _P, 0)
    getter = {_q.prop_kind: "get_prop_kind", _q.alg_kind: "get_algorithm",
              _q.factors: "query_factors"}.get(w)
    if getter is None or not hasattr(pd, getter):
        raise _unimpl("query %d is not supported by %r" % (w, pd))
    v = getattr(pd, getter)()
    if w == _q.factors:
        return _b.put(res, _P, _b.keep_array(primitive_desc, "factors", _F32, v))
    return _b.put(res, _INT, int(v))


@_api("ptr", 0, "pd.query_md(what, index)")
def dnnl_primitive_desc_query_md(primitive_desc, what, index):
    """``const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
    const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index)``"""
    pd = _obj(primitive_desc, "pd")
    w, idx = _i(what), _i(index)
    if w not in _MD_QUERIES or ((w in (_q.workspace_md, _q.scratchpad_md)) and idx != 0):
        return 0
    return _pd_md_view(primitive_desc, pd, w, idx)


@_api("int", 0, "pd.query_s32(what)")
def dnnl_primitive_desc_query_s32(primitive_desc, what, index):
    """``int dnnl_primitive_desc_query_s32(const_dnnl_primitive_desc_t primitive_desc,
    dnnl_query_t what, int index)``"""
    w = _i(what)
    if w not in (_q.num_of_inputs_s32, _q.num_of_outputs_s32):
        return 0
    return _obj(primitive_desc, "pd").query_s32(w)


# ------------------------------------------------------------ primitives
@_api(wraps="dnnl.<primitive>(pd)")
def dnnl_primitive_create(primitive, primitive_desc):
    """``dnnl_primitive_create(dnnl_primitive_t *primitive,
    const_dnnl_primitive_desc_t primitive_desc)``"""
    _b.out_address(primitive, "primitive")
    rec = _rec(primitive_desc, "pd")
    pd = rec.obj
    _new_out(primitive, "primitive", _prim_class(pd)(pd), rec.engines)


@_api(wraps="dnnl.<primitive>(pd, cache_blob) (CPU: unimplemented)")
def dnnl_primitive_create_from_cache_blob(primitive, primitive_desc, size, cache_blob):
    """``dnnl_primitive_create_from_cache_blob(dnnl_primitive_t *primitive,
    const_dnnl_primitive_desc_t primitive_desc, size_t size, const uint8_t *cache_blob)``"""
    _b.out_address(primitive, "primitive")
    pd = _rec(primitive_desc, "pd").obj
    n, where = _i(size), _addr(cache_blob)
    if not n or not where:
        raise _invalid("empty cache blob")
    blob = ctypes.string_at(where, n)
    _new_out(primitive, "primitive", _prim_class(pd)(pd, blob), _rec(primitive_desc, "pd").engines)


def _exec_args(nargs, args):
    """``{arg: memory object}`` from a ``dnnl_exec_arg_t`` array (NULL
    memories skipped, a repeated arg is ``invalid_arguments``)."""
    n = _i(nargs)
    if n <= 0:
        return {}
    if isinstance(args, (list, tuple)):
        pairs = [(e.arg, e.memory) if hasattr(e, "arg") else tuple(e) for e in args[:n]]
    else:
        base = _addr(args)
        if not base:
            raise _invalid("nargs > 0 but args is NULL")
        size = ctypes.sizeof(dnnl_exec_arg_t)
        pairs = [(a.arg, a.memory) for a in
                 (dnnl_exec_arg_t.from_address(base + size * k) for k in range(n))]
    out = {}
    for arg, mem in pairs:
        if not _addr(mem):
            continue
        arg = _i(arg)
        if arg in out:
            raise _invalid("execution argument %d given twice" % arg)
        out[arg] = _obj(mem, "memory", "execution argument %d" % arg)
    return out


@_api(wraps="primitive.execute(stream, {arg: memory})")
def dnnl_primitive_execute(primitive, stream, nargs, args):
    """``dnnl_primitive_execute(const_dnnl_primitive_t primitive, dnnl_stream_t stream,
    int nargs, const dnnl_exec_arg_t *args)``"""
    prim = _obj(primitive, "primitive")
    strm = _obj(stream, "stream")
    # the object API's binder checks the stream's engine and every argument
    prim.execute(strm, _exec_args(nargs, args))


@_api(wraps="primitive.get_primitive_desc()")
def dnnl_primitive_get_primitive_desc(primitive, primitive_desc):
    """``dnnl_primitive_get_primitive_desc(const_dnnl_primitive_t primitive,
    const_dnnl_primitive_desc_t *primitive_desc)``"""
    prim = _obj(primitive, "primitive")
    _b.out_address(primitive_desc, "primitive_desc")
    _view_out(primitive_desc, primitive, "pd", "pd", prim.get_primitive_desc())


@_api(wraps="primitive.get_cache_blob() (CPU: unimplemented)")
def dnnl_primitive_get_cache_blob(primitive, size, cache_blob):
    """``dnnl_primitive_get_cache_blob(const_dnnl_primitive_t primitive, size_t *size,
    uint8_t *cache_blob)``"""
    prim = _obj(primitive, "primitive")
    if not _addr(size):
        raise _invalid("size is NULL")
    prim.get_cache_blob()       # raises on a CPU, before anything is written
    raise _unimpl("no cache blob")


@_api(wraps="(releases the handle)")
def dnnl_primitive_destroy(primitive):
    """``dnnl_primitive_destroy(dnnl_primitive_t primitive)``"""
    _b.destroy(primitive, "primitive")
