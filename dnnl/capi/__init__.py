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
misuse, through :func:`dnnl._core.error.status_of` -- nothing raises. Functions
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
from dnnl._core import capi as _b
from dnnl._platform import isa as _isa
from dnnl import attr as _attr
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, api as _api, as_int as _i,
                             dnnl_dim_t, dnnl_dims_t, dnnl_exec_arg_t, dnnl_version_t,
                             last_error, lookup as _rec, new_out as _new_out, obj as _obj,
                             opt_obj as _opt, put_out as _put, read_array as _read)
from dnnl._core.enums import C as _C
from dnnl._core.enums import C_ENUMS as _C_ENUMS
from dnnl._core.error import invalid as _invalid
from dnnl.primitives.resampling.primitive import resampling_backward as _bwd
from dnnl.primitives.resampling.primitive import resampling_forward as _fwd

# every enumerator and macro under its C name
globals().update(_C)

_P = ctypes.c_void_p
_INT = ctypes.c_int
_F32 = ctypes.c_float

# ctypes spellings of the C handle types, for programs that want them
dnnl_engine_t = dnnl_stream_t = dnnl_memory_desc_t = dnnl_memory_t = ctypes.c_void_p
dnnl_primitive_attr_t = dnnl_post_ops_t = ctypes.c_void_p
dnnl_primitive_desc_t = dnnl_primitive_t = ctypes.c_void_p
const_dnnl_memory_desc_t = const_dnnl_primitive_attr_t = ctypes.c_void_p
const_dnnl_post_ops_t = const_dnnl_primitive_desc_t = ctypes.c_void_p


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
# Each section's functions live in a module of their own; imported here, in
# header order (FUNCTIONS lists them in the order they are bound).
# ------------------------------------------------- primitive descriptors, primitives
from dnnl.capi._primitive import (  # noqa: E402  (here: header order)
    dnnl_primitive_desc_next_impl, dnnl_primitive_desc_clone,
    dnnl_primitive_desc_get_attr, dnnl_primitive_desc_destroy, dnnl_primitive_desc_query,
    dnnl_primitive_desc_query_md, dnnl_primitive_desc_query_s32, dnnl_primitive_create,
    dnnl_primitive_create_from_cache_blob, dnnl_primitive_execute,
    dnnl_primitive_get_primitive_desc, dnnl_primitive_get_cache_blob,
    dnnl_primitive_destroy)


# ------------------------------------------------------ attributes, post-ops
from dnnl.capi._attr import (  # noqa: E402
    dnnl_primitive_attr_create, dnnl_primitive_attr_clone, dnnl_primitive_attr_destroy,
    dnnl_primitive_attr_get_dropout, dnnl_primitive_attr_set_dropout,
    dnnl_primitive_attr_get_dropout_v2, dnnl_primitive_attr_set_dropout_v2,
    dnnl_primitive_attr_get_fpmath_mode, dnnl_primitive_attr_set_fpmath_mode,
    dnnl_primitive_attr_get_fpmath_mode_v2, dnnl_primitive_attr_set_fpmath_mode_v2,
    dnnl_primitive_attr_get_deterministic, dnnl_primitive_attr_set_deterministic,
    dnnl_primitive_attr_get_accumulation_mode, dnnl_primitive_attr_set_accumulation_mode,
    dnnl_primitive_attr_get_scratchpad_mode, dnnl_primitive_attr_set_scratchpad_mode,
    dnnl_primitive_attr_set_scales_mask, dnnl_primitive_attr_set_scales,
    dnnl_primitive_attr_set_scales_v2, dnnl_primitive_attr_set_scales_v3,
    dnnl_primitive_attr_set_zero_points_mask, dnnl_primitive_attr_set_zero_points,
    dnnl_primitive_attr_set_precomputed_reductions,
    dnnl_primitive_attr_set_zero_points_v2, dnnl_primitive_attr_set_rounding,
    dnnl_primitive_attr_get_rounding, dnnl_primitive_attr_get_post_ops,
    dnnl_primitive_attr_set_post_ops, dnnl_post_ops_create, dnnl_post_ops_clone,
    dnnl_post_ops_destroy, dnnl_post_ops_len, dnnl_post_ops_get_kind,
    dnnl_post_ops_append_sum, dnnl_post_ops_get_params_sum, dnnl_post_ops_append_eltwise,
    dnnl_post_ops_get_params_eltwise, dnnl_post_ops_append_dw,
    dnnl_post_ops_get_params_dw, dnnl_post_ops_append_binary,
    dnnl_post_ops_append_binary_v2, dnnl_post_ops_get_params_binary,
    dnnl_post_ops_get_params_binary_v2, dnnl_post_ops_append_prelu,
    dnnl_post_ops_get_params_prelu)


# ------------------------------------------- memory descriptors, memories
from dnnl.capi._memory import (  # noqa: E402
    dnnl_memory_desc_destroy, dnnl_memory_desc_clone, dnnl_memory_desc_get_blob,
    dnnl_memory_desc_create_with_blob, dnnl_memory_desc_create_with_strides,
    dnnl_memory_desc_create_with_tag, dnnl_memory_desc_create_with_csr_encoding,
    dnnl_memory_desc_create_with_coo_encoding, dnnl_memory_desc_create_with_packed_encoding,
    dnnl_memory_desc_create_host_scalar, dnnl_memory_desc_create_submemory,
    dnnl_memory_desc_reshape, dnnl_memory_desc_permute_axes, dnnl_memory_desc_query,
    dnnl_memory_desc_query_v2, dnnl_memory_desc_equal, dnnl_memory_desc_get_size,
    dnnl_memory_desc_get_size_v2, dnnl_data_type_size, dnnl_memory_create,
    dnnl_memory_create_v2, dnnl_memory_create_host_scalar, dnnl_memory_get_memory_desc,
    dnnl_memory_get_engine, dnnl_memory_map_data, dnnl_memory_map_data_v2,
    dnnl_memory_unmap_data, dnnl_memory_unmap_data_v2, dnnl_memory_get_data_handle,
    dnnl_memory_set_data_handle, dnnl_memory_get_data_handle_v2,
    dnnl_memory_set_data_handle_v2, dnnl_memory_get_host_scalar_value,
    dnnl_memory_set_host_scalar_value, dnnl_memory_destroy)


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
from dnnl.capi._attr import (  # noqa: E402
    dnnl_primitive_attr_set_rnn_data_qparams, dnnl_primitive_attr_get_rnn_data_qparams,
    dnnl_primitive_attr_set_rnn_weights_qparams,
    dnnl_primitive_attr_get_rnn_weights_qparams,
    dnnl_primitive_attr_set_rnn_weights_projection_qparams,
    dnnl_primitive_attr_get_rnn_weights_projection_qparams)


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
    return dnnl_memory_desc_create_with_tag.__wrapped__(memory_desc, ndims, dims, data_type,
                                                        tag)


@_api(wraps="dnnl.memory.desc(dims, data_type, strides)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_by_strides(memory_desc, ndims, dims, data_type, strides):
    """oneDNN 2.x ``dnnl_memory_desc_init_by_strides(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, const dnnl_dims_t
    strides)`` (= ``dnnl_memory_desc_create_with_strides``)."""
    return dnnl_memory_desc_create_with_strides.__wrapped__(memory_desc, ndims, dims,
                                                            data_type, strides)


@_api(wraps="md.submemory_desc(dims, offsets)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_submemory(memory_desc, parent_memory_desc, dims, offsets):
    """oneDNN 2.x ``dnnl_memory_desc_init_submemory(dnnl_memory_desc_t *memory_desc,
    const dnnl_memory_desc_t *parent_memory_desc, const dnnl_dims_t dims,
    const dnnl_dims_t offsets)``; the parent is a handle here
    (= ``dnnl_memory_desc_create_submemory``)."""
    return dnnl_memory_desc_create_submemory.__wrapped__(memory_desc, parent_memory_desc,
                                                         dims, offsets)


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)  [seed name]")
def dnnl_memory_desc_init(memory_desc, ndims, dims, data_type, tag):
    """This project's seed ``dnnl_memory_desc_init(dnnl_memory_desc_t *md, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``
    (= ``dnnl_memory_desc_create_with_tag``)."""
    return dnnl_memory_desc_create_with_tag.__wrapped__(memory_desc, ndims, dims, data_type,
                                                        tag)


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
