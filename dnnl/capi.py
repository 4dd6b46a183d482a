"""``dnnl.capi``: oneDNN 3.13's C API, callable the way ctypes calls libdnnl.

A Python program written against ``lib = ctypes.CDLL("libdnnl.so.3")``
(handles in ``c_void_p``, out-parameters through ``ctypes.byref``, dims as
``(c_int64 * n)(...)``, execution arguments as an array of
``{int arg; void *memory}`` structures, ``.argtypes`` / ``.restype`` set or
not) runs unchanged with ``lib = dnnl.capi`` and gets the same statuses and
the same bytes.

Every function is a thin wrapper over the object API: it reads its inputs,
calls one object-API method and writes its outputs; any ``dnnl.error`` (or
other exception) becomes the ``dnnl_status_t`` oneDNN returns for the same
misuse, through :func:`dnnl._error.status_of` -- nothing raises. Functions
appear in the order of ``dnnl_common.h``, ``dnnl.h`` and ``dnnl_debug.h`` of
oneDNN 3.13; every enumerator and macro of oneDNN is a module attribute under
its C name (``dnnl_f32``, ``dnnl_nchw``, ``DNNL_ARG_SRC``,
``DNNL_MEMORY_ALLOCATE``...). See ``docs/c_api.md`` for the function table and
the deviations from the real C API.

>>> import ctypes
>>> from dnnl import capi as lib
>>> eng = ctypes.c_void_p()
>>> lib.dnnl_engine_create(ctypes.byref(eng), lib.dnnl_cpu, 0)
0
>>> md = ctypes.c_void_p()
>>> dims = (ctypes.c_int64 * 4)(2, 17, 3, 4)
>>> lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), 4, dims, lib.dnnl_f32,
...                                      lib.dnnl_nChw16c)
0
>>> lib.dnnl_memory_desc_get_size(md)
3072
>>> lib.dnnl_memory_desc_destroy(md), lib.dnnl_memory_desc_get_size(md)
(0, 0)
>>> lib.dnnl_memory_desc_query(md, lib.dnnl_query_ndims_s32, ctypes.byref(ctypes.c_int()))
2
>>> lib.dnnl_engine_destroy(eng)
0
"""
import ctypes
import sys
import types

import dnnl
from dnnl import _capi_base as _b
from dnnl import _isa, _registry
from dnnl import attr as _attr
from dnnl._capi_memory_v2 import blob_fields as _blob_fields, handle_arg as _handle_arg
from dnnl._capi_memory_v2 import md_from_blob as _md_from_blob
from dnnl._capi_base import (address as _addr, api as _api, as_float as _f,
                             as_int as _i, dnnl_dim_t, dnnl_dims_t, dnnl_exec_arg_t,
                             dnnl_version_t, last_error, lookup as _rec, obj as _obj,
                             opt_obj as _opt, put_opt as _put_opt, put_out as _put,
                             read_array as _read, read_dims as _dims)
from dnnl._desc import desc as _desc, make as _make_desc
from dnnl._enums import C as _C
from dnnl._enums import C_ENUMS as _C_ENUMS
from dnnl._enums import data_type as _dt
from dnnl._enums import format_kind as _fk
from dnnl._enums import primitive_kind as _pk
from dnnl._enums import query as _q
from dnnl._error import invalid as _invalid
from dnnl._error import unimpl as _unimpl
from dnnl._memory import span_bytes as _span_bytes
from dnnl.resampling import resampling_backward as _bwd
from dnnl.resampling import resampling_forward as _fwd

# every enumerator and macro under its C name
globals().update(_C)

_P, _INT, _I64, _F32, _SZ, _UINT = (ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
                                    ctypes.c_float, ctypes.c_size_t, ctypes.c_uint)
_SUCCESS = _C["dnnl_success"]
_LAST_IMPL = _C["dnnl_last_impl_reached"]
_MEMORY_ALLOCATE = _C["DNNL_MEMORY_ALLOCATE"] & (2 ** 64 - 1)

# ctypes spellings of the C handle types, for programs that want them
dnnl_engine_t = dnnl_stream_t = dnnl_memory_desc_t = dnnl_memory_t = ctypes.c_void_p
dnnl_primitive_attr_t = dnnl_post_ops_t = ctypes.c_void_p
dnnl_primitive_desc_t = dnnl_primitive_t = ctypes.c_void_p
const_dnnl_memory_desc_t = const_dnnl_primitive_attr_t = ctypes.c_void_p
const_dnnl_post_ops_t = const_dnnl_primitive_desc_t = ctypes.c_void_p


def _new_out(ptr, kind, o, engines=None):
    """Register ``o`` and write its new handle to the ``[out]`` pointer."""
    addr = _b.out_address(ptr, kind)
    _b.put(addr, _P, _b.new_handle(kind, o, engines))


def _view_out(ptr, owner, key, kind, o=None, getter=None):
    _b.put(_b.out_address(ptr, kind), _P, _b.view(_b.handle_id(owner), key, kind, o, getter))


# =========================================================== dnnl_common.h
# ---------------------------------------------------------------- engine
@_api("size_t", 0, "dnnl.engine.get_count(kind)")
def dnnl_engine_get_count(kind):
    """``size_t dnnl_engine_get_count(dnnl_engine_kind_t kind)``"""
    return dnnl.engine.get_count(_i(kind))


@_api(wraps="dnnl.engine(kind, index)")
def dnnl_engine_create(engine, kind, index):
    """``dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index)``"""
    _b.out_address(engine, "engine")
    _new_out(engine, "engine", dnnl.engine(_i(kind), _i(index) & (2 ** 64 - 1)))


@_api(wraps="engine.get_kind()")
def dnnl_engine_get_kind(engine, kind):
    """``dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind)``"""
    _put(kind, _INT, int(_obj(engine, "engine").get_kind()), "kind")


@_api(wraps="(releases the handle)")
def dnnl_engine_destroy(engine):
    """``dnnl_engine_destroy(dnnl_engine_t engine)``"""
    _b.destroy(engine, "engine")


# ---------------------------------------------------------------- stream
@_api(wraps="dnnl.stream(engine, flags)")
def dnnl_stream_create(stream, engine, flags):
    """``dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags)``"""
    _b.out_address(stream, "stream")
    eng = _rec(engine, "engine")
    _new_out(stream, "stream", dnnl.stream(eng.obj, _i(flags) & 0xFFFFFFFF),
             {"engine": _b.handle_id(engine)})


@_api(wraps="stream.get_engine()")
def dnnl_stream_get_engine(stream, engine):
    """``dnnl_stream_get_engine(const_dnnl_stream_t stream, dnnl_engine_t *engine)``"""
    _put(engine, _P, _rec(stream, "stream").engines["engine"], "engine")


@_api(wraps="stream.wait()")
def dnnl_stream_wait(stream):
    """``dnnl_stream_wait(dnnl_stream_t stream)``"""
    _obj(stream, "stream").wait()


@_api(wraps="(releases the handle)")
def dnnl_stream_destroy(stream):
    """``dnnl_stream_destroy(dnnl_stream_t stream)``"""
    _b.destroy(stream, "stream")


# ---------------------------------------------------------------- service
@_api(wraps="dnnl.get_default_fpmath_mode()")
def dnnl_get_default_fpmath_mode(mode):
    """``dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode)``"""
    _put(mode, _INT, int(dnnl.get_default_fpmath_mode()), "mode")


@_api(wraps="dnnl.set_default_fpmath_mode(mode)")
def dnnl_set_default_fpmath_mode(mode):
    """``dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode)``"""
    dnnl.set_default_fpmath_mode(_i(mode))


_verbose = {"level": 0}


@_api(wraps="dnnl.set_verbose(level) when present; else stored")
def dnnl_set_verbose(level):
    """``dnnl_set_verbose(int level)``: 0, 1 or 2."""
    lvl = _i(level)
    setter = getattr(dnnl, "set_verbose", None)
    if setter is not None:
        setter(lvl)
    elif lvl not in (0, 1, 2):
        raise _invalid("verbose level must be 0, 1 or 2, got %d" % lvl)
    _verbose["level"] = lvl


_HASH = ctypes.create_string_buffer(("dnnl-python-" + dnnl.__version__).encode())
_VERSION = dnnl_version_t(3, 13, 2, ctypes.cast(_HASH, ctypes.c_char_p),
                          _C["DNNL_RUNTIME_OMP"], _C["DNNL_RUNTIME_NONE"])


@_api("version", None, "(static data: the oneDNN API level mirrored)")
def dnnl_version():
    """``const dnnl_version_t *dnnl_version(void)``"""
    return ctypes.pointer(_VERSION)


# ================================================================ dnnl.h
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
    if w == _q.scratchpad_engine:
        return _b.put(res, _P, rec.engines["engine"])
    if w == _q.primitive_kind:
        return _b.put(res, _INT, int(pd.get_kind()))
    if w == _q.impl_info_str:
        return _b.put(res, _P, _b.c_string_address(pd.impl_info_str().encode()))
    if w in (_q.num_of_inputs_s32, _q.num_of_outputs_s32):
        return _b.put(res, _INT, pd.query_s32(w))
    if w == _q.memory_consumption_s64:
        return _b.put(res, _I64, pd.query_s64(w))
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


@_api(wraps="(cache blobs: unimplemented on CPU)")
def dnnl_primitive_create_from_cache_blob(primitive, primitive_desc, size, cache_blob):
    """``dnnl_primitive_create_from_cache_blob(dnnl_primitive_t *primitive,
    const_dnnl_primitive_desc_t primitive_desc, size_t size, const uint8_t *cache_blob)``"""
    _b.out_address(primitive, "primitive")
    _rec(primitive_desc, "pd")
    if not _i(size) or not _addr(cache_blob):
        raise _invalid("empty cache blob")
    raise _unimpl("cache blobs are not supported on CPU engines")


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


@_api(wraps="(cache blobs: unimplemented on CPU)")
def dnnl_primitive_get_cache_blob(primitive, size, cache_blob):
    """``dnnl_primitive_get_cache_blob(const_dnnl_primitive_t primitive, size_t *size,
    uint8_t *cache_blob)``"""
    _rec(primitive, "primitive")
    if not _addr(size):
        raise _invalid("size is NULL")
    raise _unimpl("cache blobs are not supported on CPU engines")


@_api(wraps="(releases the handle)")
def dnnl_primitive_destroy(primitive):
    """``dnnl_primitive_destroy(dnnl_primitive_t primitive)``"""
    _b.destroy(primitive, "primitive")


# ------------------------------------------------------------ attributes
@_api(wraps="dnnl.primitive_attr()")
def dnnl_primitive_attr_create(attr):
    """``dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr)``"""
    _b.out_address(attr, "attr")
    _new_out(attr, "attr", dnnl.primitive_attr())


@_api(wraps="attr.copy()")
def dnnl_primitive_attr_clone(attr, existing_attr):
    """``dnnl_primitive_attr_clone(dnnl_primitive_attr_t *attr,
    const_dnnl_primitive_attr_t existing_attr)``"""
    _b.out_address(attr, "attr")
    _new_out(attr, "attr", _obj(existing_attr, "attr").copy())


@_api(wraps="(releases the handle)")
def dnnl_primitive_attr_destroy(attr):
    """``dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr)``"""
    _b.destroy(attr, "attr")


def _dropout_out(attr_h, a, mask_desc):
    md = a.get_dropout()[0]
    _view_out(mask_desc, attr_h, ("dropout", id(md)), "md", md if md is not None else _desc())


@_api(wraps="attr.get_dropout()")
def dnnl_primitive_attr_get_dropout(attr, mask_desc):
    """``dnnl_primitive_attr_get_dropout(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc)``"""
    a = _obj(attr, "attr")
    _dropout_out(attr, a, mask_desc)


@_api(wraps="attr.set_dropout(mask_desc)")
def dnnl_primitive_attr_set_dropout(attr, mask_desc):
    """``dnnl_primitive_attr_set_dropout(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc)``"""
    _obj(attr, "attr").set_dropout(_obj(mask_desc, "md", "mask_desc"))


@_api(wraps="attr.get_dropout()")
def dnnl_primitive_attr_get_dropout_v2(attr, mask_desc, seed_dt, use_offset,
                                       use_host_scalars):
    """``dnnl_primitive_attr_get_dropout_v2(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc, dnnl_data_type_t *seed_dt, int *use_offset,
    int *use_host_scalars)``"""
    a = _obj(attr, "attr")
    md, sdt, off, host = a.get_dropout()
    if _addr(mask_desc):
        _dropout_out(attr, a, mask_desc)
    _put_opt(seed_dt, _INT, int(sdt))
    _put_opt(use_offset, _INT, int(off))
    _put_opt(use_host_scalars, _INT, int(host))


@_api(wraps="attr.set_dropout(mask_desc, seed_dt, use_offset, use_host_scalars)")
def dnnl_primitive_attr_set_dropout_v2(attr, mask_desc, seed_dt, use_offset,
                                       use_host_scalars):
    """``dnnl_primitive_attr_set_dropout_v2(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc, dnnl_data_type_t seed_dt, int use_offset,
    int use_host_scalars)``"""
    _obj(attr, "attr").set_dropout(_opt(mask_desc, "md"), _i(seed_dt), bool(_i(use_offset)),
                                   bool(_i(use_host_scalars)))


@_api(wraps="attr.get_fpmath_mode()")
def dnnl_primitive_attr_get_fpmath_mode(attr, mode):
    """``dnnl_primitive_attr_get_fpmath_mode(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_fpmath_mode()), "mode")


@_api(wraps="attr.set_fpmath_mode(mode)")
def dnnl_primitive_attr_set_fpmath_mode(attr, mode):
    """``dnnl_primitive_attr_set_fpmath_mode(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode)``"""
    _obj(attr, "attr").set_fpmath_mode(_i(mode))


@_api(wraps="attr.get_fpmath_mode(True)")
def dnnl_primitive_attr_get_fpmath_mode_v2(attr, mode, apply_to_int):
    """``dnnl_primitive_attr_get_fpmath_mode_v2(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode, int *apply_to_int)``"""
    m, ati = _obj(attr, "attr").get_fpmath_mode(True)
    _put_opt(mode, _INT, int(m))
    _put_opt(apply_to_int, _INT, int(ati))


@_api(wraps="attr.set_fpmath_mode(mode, apply_to_int)")
def dnnl_primitive_attr_set_fpmath_mode_v2(attr, mode, apply_to_int):
    """``dnnl_primitive_attr_set_fpmath_mode_v2(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode, int apply_to_int)``"""
    _obj(attr, "attr").set_fpmath_mode(_i(mode), bool(_i(apply_to_int)))


@_api(wraps="attr.get_deterministic()")
def dnnl_primitive_attr_get_deterministic(attr, value):
    """``dnnl_primitive_attr_get_deterministic(const_dnnl_primitive_attr_t attr,
    int *value)``"""
    _put(value, _INT, int(_obj(attr, "attr").get_deterministic()), "value")


@_api(wraps="attr.set_deterministic(value)")
def dnnl_primitive_attr_set_deterministic(attr, value):
    """``dnnl_primitive_attr_set_deterministic(dnnl_primitive_attr_t attr, int value)``"""
    _obj(attr, "attr").set_deterministic(bool(_i(value)))


@_api(wraps="attr.get_accumulation_mode()")
def dnnl_primitive_attr_get_accumulation_mode(attr, mode):
    """``dnnl_primitive_attr_get_accumulation_mode(const_dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_accumulation_mode()), "mode")


@_api(wraps="attr.set_accumulation_mode(mode)")
def dnnl_primitive_attr_set_accumulation_mode(attr, mode):
    """``dnnl_primitive_attr_set_accumulation_mode(dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t mode)``"""
    _obj(attr, "attr").set_accumulation_mode(_i(mode))


@_api(wraps="attr.get_scratchpad_mode()")
def dnnl_primitive_attr_get_scratchpad_mode(attr, mode):
    """``dnnl_primitive_attr_get_scratchpad_mode(const_dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_scratchpad_mode()), "mode")


@_api(wraps="attr.set_scratchpad_mode(mode)")
def dnnl_primitive_attr_set_scratchpad_mode(attr, mode):
    """``dnnl_primitive_attr_set_scratchpad_mode(dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t mode)``"""
    _obj(attr, "attr").set_scratchpad_mode(_i(mode))


@_api(wraps="attr.set_scales_mask(arg, mask)")
def dnnl_primitive_attr_set_scales_mask(attr, arg, mask):
    """``dnnl_primitive_attr_set_scales_mask(dnnl_primitive_attr_t attr, int arg, int mask)``"""
    _obj(attr, "attr").set_scales_mask(_i(arg), _i(mask))


def _groups(ndims, group_dims):
    n = _i(ndims)
    if n < 0 or n > _b.MAX_NDIMS:
        raise _invalid("group ndims must be 0 or 2, got %d" % n)
    return _dims(group_dims, n, "group_dims")


@_api(wraps="attr.set_scales(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_scales(attr, arg, mask, group_ndims, group_dims, data_type):
    """``dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr, int arg, int mask,
    int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(group_ndims, group_dims), _i(data_type), False)


@_api(wraps="attr.set_scales(arg, mask, groups, data_type, is_on_host)")
def dnnl_primitive_attr_set_scales_v2(attr, arg, mask, ndims, group_dims, data_type,
                                      is_on_host):
    """``dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr, int arg, int mask,
    int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                 bool(_i(is_on_host)))


@_api(wraps="attr.set_scales(arg, mask, groups, data_type, is_on_host, qmode)")
def dnnl_primitive_attr_set_scales_v3(attr, arg, mask, ndims, group_dims, data_type,
                                      is_on_host, qmode):
    """``dnnl_primitive_attr_set_scales_v3(dnnl_primitive_attr_t attr, int arg, int mask,
    int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host,
    dnnl_quantization_mode_t qmode)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                 bool(_i(is_on_host)), _i(qmode))


@_api(wraps="attr.set_zero_points_mask(arg, mask)")
def dnnl_primitive_attr_set_zero_points_mask(attr, arg, mask):
    """``dnnl_primitive_attr_set_zero_points_mask(dnnl_primitive_attr_t attr, int arg,
    int mask)``"""
    _obj(attr, "attr").set_zero_points_mask(_i(arg), _i(mask))


@_api(wraps="attr.set_zero_points(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_zero_points(attr, arg, mask, group_ndims, group_dims,
                                        data_type):
    """``dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr, int arg,
    int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_zero_points(_i(arg), _i(mask), _groups(group_ndims, group_dims), _i(data_type),
                      False)


@_api(wraps="attr.set_precomputed_reductions(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_precomputed_reductions(attr, arg, mask, group_ndims,
                                                   group_dims, data_type):
    """``dnnl_primitive_attr_set_precomputed_reductions(dnnl_primitive_attr_t attr,
    int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
    dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_precomputed_reductions(_i(arg), _i(mask), _groups(group_ndims, group_dims),
                                 _i(data_type))


@_api(wraps="attr.set_zero_points(arg, mask, groups, data_type, is_on_host)")
def dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, ndims, group_dims, data_type,
                                           is_on_host):
    """``dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr, int arg,
    int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type,
    int is_on_host)``"""
    a = _obj(attr, "attr")
    a.set_zero_points(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                      bool(_i(is_on_host)))


@_api(wraps="attr.set_rounding_mode(arg, mode)")
def dnnl_primitive_attr_set_rounding(attr, arg, mode):
    """``dnnl_primitive_attr_set_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t mode)``"""
    _obj(attr, "attr").set_rounding_mode(_i(arg), _i(mode))


@_api(wraps="attr.get_rounding_mode(arg)")
def dnnl_primitive_attr_get_rounding(attr, arg, mode):
    """``dnnl_primitive_attr_get_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_rounding_mode(_i(arg))), "mode")


@_api(wraps="attr.post_ops_ (a view)")
def dnnl_primitive_attr_get_post_ops(attr, post_ops):
    """``dnnl_primitive_attr_get_post_ops(const_dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t *post_ops)``"""
    rec = _rec(attr, "attr")
    _b.out_address(post_ops, "post_ops")
    _view_out(post_ops, attr, "post_ops", "post_ops", getter=lambda: rec.obj.post_ops_)


@_api(wraps="attr.set_post_ops(post_ops)")
def dnnl_primitive_attr_set_post_ops(attr, post_ops):
    """``dnnl_primitive_attr_set_post_ops(dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t post_ops)``"""
    a = _obj(attr, "attr")
    a.set_post_ops(_obj(post_ops, "post_ops"))


# -------------------------------------------------------------- post-ops
@_api(wraps="dnnl.post_ops()")
def dnnl_post_ops_create(post_ops):
    """``dnnl_post_ops_create(dnnl_post_ops_t *post_ops)``"""
    _b.out_address(post_ops, "post_ops")
    _new_out(post_ops, "post_ops", dnnl.post_ops())


@_api(wraps="post_ops.copy()")
def dnnl_post_ops_clone(post_ops, existing_post_ops):
    """``dnnl_post_ops_clone(dnnl_post_ops_t *post_ops, const_dnnl_post_ops_t
    existing_post_ops)``"""
    _b.out_address(post_ops, "post_ops")
    _new_out(post_ops, "post_ops", _obj(existing_post_ops, "post_ops").copy())


@_api(wraps="(releases the handle)")
def dnnl_post_ops_destroy(post_ops):
    """``dnnl_post_ops_destroy(dnnl_post_ops_t post_ops)``"""
    _b.destroy(post_ops, "post_ops")


@_api("int", 0, "post_ops.len()")
def dnnl_post_ops_len(post_ops):
    """``int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops)``"""
    return _obj(post_ops, "post_ops").len()


@_api("int", int(_pk.undef), "post_ops.kind(index)")
def dnnl_post_ops_get_kind(post_ops, index):
    """``dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops,
    int index)``"""
    return int(_obj(post_ops, "post_ops").kind(_i(index)))


@_api(wraps="post_ops.append_sum(scale, zero_point, data_type)")
def dnnl_post_ops_append_sum(post_ops, scale, zero_point, data_type):
    """``dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
    int32_t zero_point, dnnl_data_type_t data_type)``"""
    _obj(post_ops, "post_ops").append_sum(_f(scale), _i(zero_point), _i(data_type))


@_api(wraps="post_ops.get_params_sum(index)")
def dnnl_post_ops_get_params_sum(post_ops, index, scale, zero_point, data_type):
    """``dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
    float *scale, int32_t *zero_point, dnnl_data_type_t *data_type)``"""
    s, zp, dt = _obj(post_ops, "post_ops").get_params_sum(_i(index))
    _put_opt(scale, _F32, s)
    _put_opt(zero_point, ctypes.c_int32, zp)
    _put_opt(data_type, _INT, int(dt))


@_api(wraps="post_ops.append_eltwise(alg, alpha, beta)")
def dnnl_post_ops_append_eltwise(post_ops, alg_kind, alpha, beta):
    """``dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
    float alpha, float beta)``"""
    _obj(post_ops, "post_ops").append_eltwise(_i(alg_kind), _f(alpha), _f(beta))


@_api(wraps="post_ops.get_params_eltwise(index)")
def dnnl_post_ops_get_params_eltwise(post_ops, index, alg_kind, alpha, beta):
    """``dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, float *alpha, float *beta)``"""
    alg, al, be = _obj(post_ops, "post_ops").get_params_eltwise(_i(index))
    _put_opt(alg_kind, _INT, int(alg))
    _put_opt(alpha, _F32, al)
    _put_opt(beta, _F32, be)


@_api(wraps="post_ops.append_dw(wdt, bdt, ddt, kernel, stride, padding_l)")
def dnnl_post_ops_append_dw(post_ops, weights_data_type, bias_data_type, dst_data_type,
                            kernel_size, stride_size, padding_l_size):
    """``dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops, dnnl_data_type_t
    weights_data_type, dnnl_data_type_t bias_data_type, dnnl_data_type_t dst_data_type,
    dnnl_dim_t kernel_size, dnnl_dim_t stride_size, dnnl_dim_t padding_l_size)``"""
    _obj(post_ops, "post_ops").append_dw(_i(weights_data_type), _i(bias_data_type),
                                         _i(dst_data_type), _i(kernel_size),
                                         _i(stride_size), _i(padding_l_size))


@_api(wraps="post_ops.get_params_dw(index)")
def dnnl_post_ops_get_params_dw(post_ops, index, weights_data_type, bias_data_type,
                                dst_data_type, kernel_size, stride_size, padding_l_size):
    """``dnnl_post_ops_get_params_dw(const_dnnl_post_ops_t post_ops, int index,
    dnnl_data_type_t *weights_data_type, dnnl_data_type_t *bias_data_type,
    dnnl_data_type_t *dst_data_type, dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
    dnnl_dim_t *padding_l_size)``"""
    w, b, d, k, s, p = _obj(post_ops, "post_ops").get_params_dw(_i(index))
    for ptr, ct, v in ((weights_data_type, _INT, int(w)), (bias_data_type, _INT, int(b)),
                       (dst_data_type, _INT, int(d)), (kernel_size, _I64, k),
                       (stride_size, _I64, s), (padding_l_size, _I64, p)):
        _put_opt(ptr, ct, v)


@_api(wraps="post_ops.append_binary(alg, src1_desc)")
def dnnl_post_ops_append_binary(post_ops, alg_kind, src1_desc):
    """``dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t src1_desc)``"""
    po = _obj(post_ops, "post_ops")
    po.append_binary(_i(alg_kind), _obj(src1_desc, "md", "src1_desc"))


@_api(wraps="post_ops.append_binary(alg, src1_desc, src2_desc)")
def dnnl_post_ops_append_binary_v2(post_ops, alg_kind, src1_desc, src2_desc):
    """``dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops, dnnl_alg_kind_t
    alg_kind, const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc)``"""
    po = _obj(post_ops, "post_ops")
    po.append_binary(_i(alg_kind), _obj(src1_desc, "md", "src1_desc"),
                     _opt(src2_desc, "md", "src2_desc"))


@_api(wraps="post_ops.get_params_binary(index)")
def dnnl_post_ops_get_params_binary(post_ops, index, alg_kind, src1_desc):
    """``dnnl_post_ops_get_params_binary(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc)``"""
    alg, md1, _ = _obj(post_ops, "post_ops").get_params_binary_v2(_i(index))
    _put_opt(alg_kind, _INT, int(alg))
    if _addr(src1_desc):
        _view_out(src1_desc, post_ops, ("binary", id(md1)), "md", md1)


@_api(wraps="post_ops.get_params_binary_v2(index)")
def dnnl_post_ops_get_params_binary_v2(post_ops, index, alg_kind, src1_desc, src2_desc):
    """``dnnl_post_ops_get_params_binary_v2(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc,
    const_dnnl_memory_desc_t *src2_desc)``"""
    alg, md1, md2 = _obj(post_ops, "post_ops").get_params_binary_v2(_i(index))
    md2 = md2 if md2 is not None else _desc()
    _put_opt(alg_kind, _INT, int(alg))
    for ptr, md in ((src1_desc, md1), (src2_desc, md2)):
        if _addr(ptr):
            _view_out(ptr, post_ops, ("binary", id(md)), "md", md)


@_api(wraps="post_ops.append_prelu(mask)")
def dnnl_post_ops_append_prelu(post_ops, mask):
    """``dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask)``"""
    _obj(post_ops, "post_ops").append_prelu(_i(mask))


@_api(wraps="post_ops.get_params_prelu(index)")
def dnnl_post_ops_get_params_prelu(post_ops, index, mask):
    """``dnnl_post_ops_get_params_prelu(const_dnnl_post_ops_t post_ops, int index,
    int *mask)``"""
    _put_opt(mask, _INT, _obj(post_ops, "post_ops").get_params_prelu(_i(index)))


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


def _addr_or_seq(x):
    return isinstance(x, (list, tuple)) or bool(_addr(x))


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)")
def dnnl_memory_desc_create_with_tag(memory_desc, ndims, dims, data_type, tag):
    """``dnnl_memory_desc_create_with_tag(dnnl_memory_desc_t *memory_desc, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``"""
    _b.out_address(memory_desc, "memory_desc")
    n = 0 if _i(tag) == _C["dnnl_format_tag_undef"] else _ndims(ndims)
    d = _dims(dims, n) if n > 0 else []
    _new_out(memory_desc, "md", _desc(d, _i(data_type), _i(tag)) if d else _desc())


# sparse and host-scalar descriptors: dnnl/_capi_memory_v2.py
from dnnl._capi_memory_v2 import (  # noqa: E402  (here: header order)
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


# the queries: dnnl/_capi_memory_v2.py
from dnnl._capi_memory_v2 import (  # noqa: E402
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


from dnnl._capi_memory_v2 import dnnl_memory_desc_get_size_v2  # noqa: E402


@_api("size_t", 2 ** 64 - 1, "dnnl.memory.desc data_type_size")
def dnnl_data_type_size(data_type):
    """``size_t dnnl_data_type_size(dnnl_data_type_t data_type)``"""
    from dnnl import _dtypes
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


from dnnl._capi_memory_v2 import (  # noqa: E402
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


from dnnl._capi_memory_v2 import (  # noqa: E402
    dnnl_memory_map_data, dnnl_memory_map_data_v2, dnnl_memory_unmap_data,
    dnnl_memory_unmap_data_v2, dnnl_memory_get_data_handle, dnnl_memory_set_data_handle,
    dnnl_memory_get_data_handle_v2, dnnl_memory_set_data_handle_v2,
    dnnl_memory_get_host_scalar_value, dnnl_memory_set_host_scalar_value)


@_api(wraps="(releases the handle)")
def dnnl_memory_destroy(memory):
    """``dnnl_memory_destroy(dnnl_memory_t memory)``"""
    _b.destroy(memory, "memory")


# --------------------------------------------------------------- reorder
@_api(wraps="dnnl.reorder.primitive_desc(src_engine, src_md, dst_engine, dst_md, attr)")
def dnnl_reorder_primitive_desc_create(reorder_primitive_desc, src_desc, src_engine,
                                       dst_desc, dst_engine, attr):
    """``dnnl_reorder_primitive_desc_create(dnnl_primitive_desc_t *reorder_primitive_desc,
    const_dnnl_memory_desc_t src_desc, dnnl_engine_t src_engine,
    const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
    const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(reorder_primitive_desc, "reorder_primitive_desc")
    src_md, dst_md = _obj(src_desc, "md", "src_desc"), _obj(dst_desc, "md", "dst_desc")
    se, de = _rec(src_engine, "engine"), _rec(dst_engine, "engine")
    pd = dnnl.reorder.primitive_desc(se.obj, src_md, de.obj, dst_md, _opt(attr, "attr"))
    s_id, d_id = _b.handle_id(src_engine), _b.handle_id(dst_engine)
    _new_out(reorder_primitive_desc, "pd", pd, {"engine": s_id, "src": s_id, "dst": d_id})


# ------------------------------------------------------------ resampling
def _factors(factors, src_md):
    if not _addr_or_seq(factors):
        return None
    return [ctypes.c_float(v).value for v in
            _read(factors, _F32, max(src_md.ndims - 2, 0), "factors")]


@_api(wraps="dnnl.resampling_forward.primitive_desc(engine, prop_kind, alg, factors, "
            "src_md, dst_md, attr)")
def dnnl_resampling_forward_primitive_desc_create(primitive_desc, engine, prop_kind,
                                                  alg_kind, factors, src_desc, dst_desc,
                                                  attr):
    """``dnnl_resampling_forward_primitive_desc_create(dnnl_primitive_desc_t
    *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const float *factors, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(primitive_desc, "primitive_desc")
    eng = _rec(engine, "engine")
    src = _opt(src_desc, "md", "src_desc")
    dst = _opt(dst_desc, "md", "dst_desc")
    f = _factors(factors, src) if src is not None else None
    head = (eng.obj, _i(prop_kind), _i(alg_kind)) + (() if f is None else (f,))
    pd = _fwd.primitive_desc(*(head + (src, dst, _opt(attr, "attr"))))
    _new_out(primitive_desc, "pd", pd, {"engine": _b.handle_id(engine)})


@_api(wraps="dnnl.resampling_backward.primitive_desc(engine, alg, factors, diff_src_md, "
            "diff_dst_md, hint_fwd_pd, attr)")
def dnnl_resampling_backward_primitive_desc_create(primitive_desc, engine, alg_kind,
                                                   factors, diff_src_desc, diff_dst_desc,
                                                   hint_fwd_pd, attr):
    """``dnnl_resampling_backward_primitive_desc_create(dnnl_primitive_desc_t
    *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const float *factors, const_dnnl_memory_desc_t diff_src_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(primitive_desc, "primitive_desc")
    eng = _rec(engine, "engine")
    dsrc = _opt(diff_src_desc, "md", "diff_src_desc")
    ddst = _opt(diff_dst_desc, "md", "diff_dst_desc")
    f = _factors(factors, dsrc) if dsrc is not None else None
    hint = _opt(hint_fwd_pd, "pd", "hint_fwd_pd")
    if f is None:
        args = (eng.obj, _i(alg_kind), dsrc, ddst, hint)
    elif ddst is None:     # the (factors, diff_src, hint) form
        args = (eng.obj, _i(alg_kind), f, dsrc, hint)
    else:
        args = (eng.obj, _i(alg_kind), f, dsrc, ddst, hint)
    pd = _bwd.primitive_desc(*(args + (_opt(attr, "attr"),)))
    _new_out(primitive_desc, "pd", pd, {"engine": _b.handle_id(engine)})


# -------------------------------------------------- RNN quantization attrs
@_api(wraps="attr.set_rnn_data_qparams(scale, shift)")
def dnnl_primitive_attr_set_rnn_data_qparams(attr, scale, shift):
    """``dnnl_primitive_attr_set_rnn_data_qparams(dnnl_primitive_attr_t attr,
    const float scale, const float shift)``"""
    _obj(attr, "attr").set_rnn_data_qparams(_f(scale), _f(shift))


@_api(wraps="attr.get_rnn_data_qparams()")
def dnnl_primitive_attr_get_rnn_data_qparams(attr, scale, shift):
    """``dnnl_primitive_attr_get_rnn_data_qparams(const_dnnl_primitive_attr_t attr,
    float *scale, float *shift)``"""
    s, sh = _obj(attr, "attr").get_rnn_data_qparams()
    _put_opt(scale, _F32, s)
    _put_opt(shift, _F32, sh)


def _rnn_set(attr, count, mask, scales, method):
    a = _obj(attr, "attr")
    n = _i(count)
    if n <= 0 or not _addr_or_seq(scales):
        raise _invalid("RNN weights qparams need count > 0 and scales")
    getattr(a, method)(_i(mask), [ctypes.c_float(v).value for v in _read(scales, _F32, n)])


def _rnn_get(attr, count, mask, scales, method):
    m, vals = getattr(_obj(attr, "attr"), method)()
    _put_opt(count, _I64, len(vals))
    _put_opt(mask, _INT, m)
    if _addr(scales):
        _b.put(_addr(scales), _P, _b.keep_array(attr, method, _F32, vals))


@_api(wraps="attr.set_rnn_weights_qparams(mask, scales)")
def dnnl_primitive_attr_set_rnn_weights_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_set_rnn_weights_qparams(dnnl_primitive_attr_t attr,
    dnnl_dim_t count, int mask, const float *scales)``"""
    _rnn_set(attr, count, mask, scales, "set_rnn_weights_qparams")


@_api(wraps="attr.get_rnn_weights_qparams()")
def dnnl_primitive_attr_get_rnn_weights_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_get_rnn_weights_qparams(const_dnnl_primitive_attr_t attr,
    dnnl_dim_t *count, int *mask, const float **scales)``"""
    _rnn_get(attr, count, mask, scales, "get_rnn_weights_qparams")


@_api(wraps="attr.set_rnn_weights_projection_qparams(mask, scales)")
def dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_set_rnn_weights_projection_qparams(dnnl_primitive_attr_t
    attr, dnnl_dim_t count, int mask, const float *scales)``"""
    _rnn_set(attr, count, mask, scales, "set_rnn_weights_projection_qparams")


@_api(wraps="attr.get_rnn_weights_projection_qparams()")
def dnnl_primitive_attr_get_rnn_weights_projection_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_get_rnn_weights_projection_qparams(
    const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
    const float **scales)``"""
    _rnn_get(attr, count, mask, scales, "get_rnn_weights_projection_qparams")


# --------------------------------------------------------------- service
_service = {"jit_dump": 0, "jit_flags": 0}


@_api(wraps="dnnl.get_primitive_cache_capacity()")
def dnnl_get_primitive_cache_capacity(capacity):
    """``dnnl_get_primitive_cache_capacity(int *capacity)``"""
    _put(capacity, _INT, dnnl.get_primitive_cache_capacity(), "capacity")


@_api(wraps="dnnl.set_primitive_cache_capacity(capacity)")
def dnnl_set_primitive_cache_capacity(capacity):
    """``dnnl_set_primitive_cache_capacity(int capacity)``"""
    dnnl.set_primitive_cache_capacity(_i(capacity))


@_api(wraps="(stored: no JIT code here)")
def dnnl_set_jit_dump(enable):
    """``dnnl_set_jit_dump(int enable)``"""
    _service["jit_dump"] = _i(enable)


@_api(wraps="(stored: no JIT code here)")
def dnnl_set_jit_profiling_flags(flags):
    """``dnnl_set_jit_profiling_flags(unsigned flags)``"""
    _service["jit_flags"] = _i(flags)


@_api(wraps="(no JIT code here)")
def dnnl_set_jit_profiling_jitdumpdir(dir):
    """``dnnl_set_jit_profiling_jitdumpdir(const char *dir)``"""


@_api(wraps="dnnl.set_max_cpu_isa(isa)")
def dnnl_set_max_cpu_isa(isa):
    """``dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa)``"""
    return _isa.c_set_max_cpu_isa(_i(isa))


@_api("int", _C["dnnl_cpu_isa_default"], "dnnl.get_effective_cpu_isa()")
def dnnl_get_effective_cpu_isa():
    """``dnnl_cpu_isa_t dnnl_get_effective_cpu_isa(void)``"""
    return int(_isa.get_effective_cpu_isa())


@_api(wraps="dnnl.set_cpu_isa_hints(isa_hints)")
def dnnl_set_cpu_isa_hints(isa_hints):
    """``dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints)``"""
    return _isa.c_set_cpu_isa_hints(_i(isa_hints))


@_api("int", _C["dnnl_cpu_isa_no_hints"], "dnnl.get_cpu_isa_hints()")
def dnnl_get_cpu_isa_hints():
    """``dnnl_cpu_isa_hints_t dnnl_get_cpu_isa_hints(void)``"""
    return int(_isa.get_cpu_isa_hints())


# ========================================================== dnnl_debug.h
def _names(c_type, prefix=""):
    """value -> name, as oneDNN 3.13's ``*2str`` spell them."""
    cls = _C_ENUMS[c_type]
    out = {}
    for m in cls:
        name = m.name
        if name in ("max", "last") and c_type != "dnnl_format_kind_t":
            name = cls.__name__ + "_" + name
        elif name != "undef":
            name = prefix + name
        out.setdefault(int(m), name)
    return out


# Members oneDNN 3.13's debug strings do not know (measured: "unknown ...").
_UNKNOWN = {"dnnl_data_type_t": {"f4_e3m0"}, "dnnl_sparse_encoding_t": {"grouped"},
            "dnnl_format_kind_t": {"opaque", "host_scalar"}, "dnnl_cpu_isa_t": {"avx10_2_ace"}}


def _to_str(c_type, short, prefix=""):
    table = _names(c_type, prefix)
    for bad in _UNKNOWN.get(c_type, ()):
        table.pop(int(getattr(_C_ENUMS[c_type], bad)), None)
    unknown = ("unknown " + short).encode()

    def conv(v):
        try:
            return table[_i(v)].encode()
        except (KeyError, ValueError):
            return unknown
    return conv


def _debug(name, c_type, short, prefix=""):
    conv = _to_str(c_type, short, prefix)

    def fn(v):
        return conv(v)
    fn.__name__ = name
    fn.__doc__ = "``const char *%s(%s v)``" % (name, c_type)
    return _api("str", b"unknown " + short.encode(), "%s member name" % c_type)(fn)


dnnl_status2str = _debug("dnnl_status2str", "dnnl_status_t", "status")
dnnl_dt2str = _debug("dnnl_dt2str", "dnnl_data_type_t", "dt")
dnnl_fpmath_mode2str = _debug("dnnl_fpmath_mode2str", "dnnl_fpmath_mode_t", "fpmath_mode")
dnnl_accumulation_mode2str = _debug("dnnl_accumulation_mode2str", "dnnl_accumulation_mode_t",
                                    "accumulation_mode")
dnnl_engine_kind2str = _debug("dnnl_engine_kind2str", "dnnl_engine_kind_t", "engine_kind")
dnnl_sparse_encoding2str = _debug("dnnl_sparse_encoding2str", "dnnl_sparse_encoding_t",
                                  "sparse_encoding")
dnnl_fmt_tag2str = _debug("dnnl_fmt_tag2str", "dnnl_format_tag_t", "fmt_tag")
dnnl_prop_kind2str = _debug("dnnl_prop_kind2str", "dnnl_prop_kind_t", "prop_kind")
dnnl_prim_kind2str = _debug("dnnl_prim_kind2str", "dnnl_primitive_kind_t", "prim_kind")
dnnl_alg_kind2str = _debug("dnnl_alg_kind2str", "dnnl_alg_kind_t", "alg_kind")
dnnl_rnn_flags2str = _debug("dnnl_rnn_flags2str", "dnnl_rnn_flags_t", "rnn_flags",
                            "rnn_flags_")
dnnl_rnn_direction2str = _debug("dnnl_rnn_direction2str", "dnnl_rnn_direction_t",
                                "rnn_direction")
dnnl_scratchpad_mode2str = _debug("dnnl_scratchpad_mode2str", "dnnl_scratchpad_mode_t",
                                  "scratchpad_mode")
dnnl_rounding_mode2str = _debug("dnnl_rounding_mode2str", "dnnl_rounding_mode_t",
                                "rounding_mode")
dnnl_quantization_mode2str = _debug("dnnl_quantization_mode2str", "dnnl_quantization_mode_t",
                                    "quantization_mode")
dnnl_cpu_isa2str = _debug("dnnl_cpu_isa2str", "dnnl_cpu_isa_t", "cpu_isa", "cpu_isa_")
dnnl_cpu_isa_hints2str = _debug("dnnl_cpu_isa_hints2str", "dnnl_cpu_isa_hints_t",
                                "cpu_isa_hints", "cpu_isa_")

_RUNTIMES = {_C["DNNL_RUNTIME_NONE"]: b"none", _C["DNNL_RUNTIME_SEQ"]: b"sequential",
             _C["DNNL_RUNTIME_OMP"]: b"OpenMP", _C["DNNL_RUNTIME_TBB"]: b"TBB",
             _C["DNNL_RUNTIME_THREADPOOL"]: b"threadpool", _C["DNNL_RUNTIME_OCL"]: b"OpenCL",
             _C["DNNL_RUNTIME_SYCL"]: b"SYCL", _C["DNNL_RUNTIME_ZE"]: b"Level Zero"}


@_api("str", b"unknown", "DNNL_RUNTIME_* name")
def dnnl_runtime2str(v):
    """``const char *dnnl_runtime2str(unsigned v)``"""
    return _RUNTIMES.get(_i(v) & 0xFFFFFFFF, b"unknown")


dnnl_fmt_kind2str = _debug("dnnl_fmt_kind2str", "dnnl_format_kind_t", "fmt_kind")


# ================================================ compatibility entry points
@_api(wraps="dnnl.memory.desc(dims, data_type, tag)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_by_tag(memory_desc, ndims, dims, data_type, tag):
    """oneDNN 2.x ``dnnl_memory_desc_init_by_tag(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t
    tag)``: 2.x filled a caller-owned struct; here ``*memory_desc`` receives a handle
    to destroy with ``dnnl_memory_desc_destroy`` (= ``dnnl_memory_desc_create_with_tag``)."""
    return dnnl_memory_desc_create_with_tag._fn(memory_desc, ndims, dims, data_type, tag)


@_api(wraps="dnnl.memory.desc(dims, data_type, strides)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_by_strides(memory_desc, ndims, dims, data_type, strides):
    """oneDNN 2.x ``dnnl_memory_desc_init_by_strides(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, const dnnl_dims_t
    strides)`` (= ``dnnl_memory_desc_create_with_strides``)."""
    return dnnl_memory_desc_create_with_strides._fn(memory_desc, ndims, dims, data_type,
                                                    strides)


@_api(wraps="md.submemory_desc(dims, offsets)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_submemory(memory_desc, parent_memory_desc, dims, offsets):
    """oneDNN 2.x ``dnnl_memory_desc_init_submemory(dnnl_memory_desc_t *memory_desc,
    const dnnl_memory_desc_t *parent_memory_desc, const dnnl_dims_t dims,
    const dnnl_dims_t offsets)``; the parent is a handle here
    (= ``dnnl_memory_desc_create_submemory``)."""
    return dnnl_memory_desc_create_submemory._fn(memory_desc, parent_memory_desc, dims,
                                                 offsets)


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)  [seed name]")
def dnnl_memory_desc_init(memory_desc, ndims, dims, data_type, tag):
    """This project's seed ``dnnl_memory_desc_init(dnnl_memory_desc_t *md, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``
    (= ``dnnl_memory_desc_create_with_tag``)."""
    return dnnl_memory_desc_create_with_tag._fn(memory_desc, ndims, dims, data_type, tag)


# ============================================================== the module
#: The flat-API functions, in header order (dnnl_common.h, dnnl.h, dnnl_debug.h),
#: followed by the compatibility names.
FUNCTIONS = [name for name, v in list(globals().items()) if isinstance(v, _b.CFunction)]
COMPAT_FUNCTIONS = ["dnnl_memory_desc_init_by_tag", "dnnl_memory_desc_init_by_strides",
                    "dnnl_memory_desc_init_submemory", "dnnl_memory_desc_init"]
live_handles = _b.live_handles
__all__ = FUNCTIONS + sorted(_C) + ["dnnl_exec_arg_t", "dnnl_version_t", "dnnl_dims_t",
                                    "dnnl_dim_t", "last_error", "FUNCTIONS"]
del _attr


class _CAPIModule(types.ModuleType):
    """Lets ``lib["dnnl_engine_create"]`` work as on a ``ctypes.CDLL``."""

    def __getitem__(self, name):
        try:
            return getattr(self, name)
        except AttributeError:
            raise AttributeError("function %r not found" % name) from None


sys.modules[__name__].__class__ = _CAPIModule
