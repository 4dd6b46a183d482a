"""``dnnl.capi``'s service functions of dnnl.h: the primitive cache's
capacity, the JIT dump and profiling switches, the ISA cap and hints."""
import ctypes

import dnnl
from dnnl._core.capi import address as _addr, api as _api, as_int as _i, put_out as _put
from dnnl._core.enums import C as _C
from dnnl._platform import isa as _isa
from dnnl._platform import jit as _jit

_INT = ctypes.c_int
_F32 = ctypes.c_float


# --------------------------------------------------------------- service
@_api(wraps="dnnl.get_primitive_cache_capacity()")
def dnnl_get_primitive_cache_capacity(capacity):
    """``dnnl_get_primitive_cache_capacity(int *capacity)``"""
    _put(capacity, _INT, dnnl.get_primitive_cache_capacity(), "capacity")


@_api(wraps="dnnl.set_primitive_cache_capacity(capacity)")
def dnnl_set_primitive_cache_capacity(capacity):
    """``dnnl_set_primitive_cache_capacity(int capacity)``"""
    dnnl.set_primitive_cache_capacity(_i(capacity))


@_api(wraps="dnnl.set_jit_dump(enable)")
def dnnl_set_jit_dump(enable):
    """``dnnl_set_jit_dump(int enable)``"""
    return _jit.set_jit_dump(_i(enable))


@_api(wraps="dnnl.set_jit_profiling_flags(flags)")
def dnnl_set_jit_profiling_flags(flags):
    """``dnnl_set_jit_profiling_flags(unsigned flags)``"""
    return _jit.set_jit_profiling_flags(_i(flags) & 0xFFFFFFFF)


@_api(wraps="dnnl.set_jit_profiling_jitdumpdir(dir)")
def dnnl_set_jit_profiling_jitdumpdir(dir):
    """``dnnl_set_jit_profiling_jitdumpdir(const char *dir)``"""
    if isinstance(dir, (str, bytes)):
        return _jit.set_jit_profiling_jitdumpdir(dir)
    where = _addr(dir)
    return _jit.set_jit_profiling_jitdumpdir(ctypes.string_at(where) if where else None)


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
