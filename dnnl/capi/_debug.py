"""``dnnl.capi``'s functions of dnnl_debug.h: the ``*2str`` names of every
enum and runtime."""
import ctypes

from dnnl._core.capi import api as _api, as_int as _i
from dnnl._core.enums import C as _C
from dnnl._core.enums import C_ENUMS as _C_ENUMS

_F32 = ctypes.c_float


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
