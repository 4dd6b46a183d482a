"""Helpers shared by the C-API examples (the Python side of oneDNN's example_utils.h).

The examples are ctypes programs: they call ``lib.dnnl_*`` functions with
``ctypes`` handles, out-parameters and arrays. ``lib`` is ``dnnl.capi`` by
default; ``load_lib("onednn")`` loads real oneDNN (``libdnnl.so.3`` from the
virtual environment of ``$DNNL_ORACLE_VENV``,
docs/internals/conformance.md) so the same program can run
on both.
"""
import ctypes
import os

c_p, c_int, c_i64, c_f = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_float
P = ctypes.POINTER


class dnnl_exec_arg_t(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


# name -> (restype, argtypes): what the examples call, declared as a C header would
SIGNATURES = {
    "dnnl_engine_get_count": (ctypes.c_size_t, [c_int]),
    "dnnl_engine_create": (c_int, [P(c_p), c_int, ctypes.c_size_t]),
    "dnnl_engine_destroy": (c_int, [c_p]),
    "dnnl_stream_create": (c_int, [P(c_p), c_p, ctypes.c_uint]),
    "dnnl_stream_wait": (c_int, [c_p]),
    "dnnl_stream_destroy": (c_int, [c_p]),
    "dnnl_memory_desc_create_with_tag": (c_int, [P(c_p), c_int, P(c_i64), c_int, c_int]),
    "dnnl_memory_desc_get_size": (ctypes.c_size_t, [c_p]),
    "dnnl_memory_desc_destroy": (c_int, [c_p]),
    "dnnl_memory_create": (c_int, [P(c_p), c_p, c_p, c_p]),
    "dnnl_memory_get_memory_desc": (c_int, [c_p, P(c_p)]),
    "dnnl_memory_get_data_handle": (c_int, [c_p, P(c_p)]),
    "dnnl_memory_destroy": (c_int, [c_p]),
    "dnnl_primitive_attr_create": (c_int, [P(c_p)]),
    "dnnl_primitive_attr_set_scales_mask": (c_int, [c_p, c_int, c_int]),
    "dnnl_primitive_attr_set_post_ops": (c_int, [c_p, c_p]),
    "dnnl_primitive_attr_destroy": (c_int, [c_p]),
    "dnnl_post_ops_create": (c_int, [P(c_p)]),
    "dnnl_post_ops_append_eltwise": (c_int, [c_p, c_int, c_f, c_f]),
    "dnnl_post_ops_destroy": (c_int, [c_p]),
    "dnnl_reorder_primitive_desc_create": (c_int, [P(c_p), c_p, c_p, c_p, c_p, c_p]),
    "dnnl_resampling_forward_primitive_desc_create": (
        c_int, [P(c_p), c_p, c_int, c_int, P(c_f), c_p, c_p, c_p]),
    "dnnl_primitive_desc_query": (c_int, [c_p, c_int, c_int, c_p]),
    "dnnl_primitive_desc_next_impl": (c_int, [c_p]),
    "dnnl_primitive_desc_destroy": (c_int, [c_p]),
    "dnnl_primitive_create": (c_int, [P(c_p), c_p]),
    "dnnl_primitive_execute": (c_int, [c_p, c_p, c_int, P(dnnl_exec_arg_t)]),
    "dnnl_primitive_destroy": (c_int, [c_p]),
    "dnnl_status2str": (ctypes.c_char_p, [c_int]),
}


class ExampleError(RuntimeError):
    """A failed CHECK: carries the status, as the C examples print it."""

    def __init__(self, what, status, text):
        super().__init__("%s failed with status %d (%s)" % (what, status, text))
        self.status = status


def load_lib(which=None):
    """``dnnl.capi`` (default), or real oneDNN for ``which == "onednn"``
    (also chosen by ``DNNL_EXAMPLE_LIB=onednn``); signatures declared."""
    which = which or os.environ.get("DNNL_EXAMPLE_LIB", "dnnl")
    if which == "onednn":
        venv = os.environ.get("DNNL_ORACLE_VENV", "")
        libdir = os.path.join(venv, "lib")
        if not venv or not os.path.exists(os.path.join(libdir, "libdnnl.so.3")):
            raise SystemExit("real oneDNN not found: set DNNL_ORACLE_VENV to a virtual "
                             "environment holding `pip install onednn==2026.1.0`")
        os.environ.setdefault("OCL_ICD_FILENAMES", os.path.join(libdir, "libintelocl.so"))
        for dep in ("libintlc.so.5", "libimf.so", "libsvml.so", "libirng.so",
                    "libtbb.so.12", "libsycl.so.9"):
            if os.path.exists(os.path.join(libdir, dep)):
                ctypes.CDLL(os.path.join(libdir, dep), mode=ctypes.RTLD_GLOBAL)
        lib = ctypes.CDLL(os.path.join(libdir, "libdnnl.so.3"))
    else:
        import dnnl.capi as lib
    declare(lib)
    return lib


def declare(lib):
    for name, (res, args) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


def make_check(lib):
    """``CHECK(status)``: raise :class:`ExampleError` unless ``dnnl_success``."""
    def CHECK(status, what="call"):
        if status != 0:
            raise ExampleError(what, status, lib.dnnl_status2str(status).decode())
        return status
    return CHECK


def dims_t(*values):
    """A ``dnnl_dims_t`` holding ``values``."""
    return (ctypes.c_int64 * 12)(*values)


def write_to_dnnl_memory(lib, data, mem):
    """Copy the bytes of ``data`` (a numpy array) into ``mem``'s buffer."""
    handle = ctypes.c_void_p()
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(handle))
    ctypes.memmove(handle, data.ctypes.data, data.nbytes)


def read_from_dnnl_memory(lib, data, mem):
    """Copy ``mem``'s buffer into ``data`` (a numpy array of the right size)."""
    handle = ctypes.c_void_p()
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(handle))
    ctypes.memmove(data.ctypes.data, handle, data.nbytes)


def impl_name(lib, pd):
    """The implementation a primitive descriptor uses (``dnnl_query_impl_info_str``)."""
    s = ctypes.c_char_p()
    from dnnl.capi import dnnl_query_impl_info_str
    lib.dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, ctypes.byref(s))
    return s.value.decode()


def exec_args(*pairs):
    """A ``dnnl_exec_arg_t`` array from ``(arg, memory)`` pairs."""
    return (dnnl_exec_arg_t * len(pairs))(*[dnnl_exec_arg_t(a, m) for a, m in pairs])
