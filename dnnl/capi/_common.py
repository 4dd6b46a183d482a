"""``dnnl.capi``'s functions of dnnl_common.h: engines, streams, the
default fpmath mode, verbose and the version."""
import ctypes

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (api as _api, as_int as _i, dnnl_version_t, lookup as _rec,
                             new_out as _new_out, obj as _obj, put_out as _put)
from dnnl._core.error import invalid as _invalid
from dnnl._core.version import VERSION as _V

_P = ctypes.c_void_p
_INT = ctypes.c_int
_F32 = ctypes.c_float


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


_HASH = ctypes.create_string_buffer(_V.hash.encode())
_VERSION = dnnl_version_t(_V.major, _V.minor, _V.patch, ctypes.cast(_HASH, ctypes.c_char_p),
                          _V.cpu_runtime, _V.gpu_runtime)


@_api("version", None, "(static data: the oneDNN API level mirrored)")
def dnnl_version():
    """``const dnnl_version_t *dnnl_version(void)``"""
    return ctypes.pointer(_VERSION)
