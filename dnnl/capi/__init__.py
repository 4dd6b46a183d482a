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
appear by section in the order of ``dnnl_common.h``, ``dnnl.h`` and
``dnnl_debug.h`` of oneDNN 3.13, each section a module of this folder (a
primitive kind's functions are in its own folder, named by its registry
record); every enumerator and macro of oneDNN is a module attribute under
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
import importlib
import sys
import types

from dnnl._core import capi as _b
from dnnl._core import registry as _registry
from dnnl._core.capi import dnnl_dim_t, dnnl_dims_t, dnnl_exec_arg_t, dnnl_version_t, last_error
from dnnl._core.enums import C as _C
from dnnl.capi import (_attr, _attr_rnn, _common, _compat, _debug, _memory, _memory_desc,
                       _primitive, _service)

# ctypes spellings of the C handle types, for programs that want them
dnnl_engine_t = dnnl_stream_t = dnnl_memory_desc_t = dnnl_memory_t = ctypes.c_void_p
dnnl_primitive_attr_t = dnnl_post_ops_t = ctypes.c_void_p
dnnl_primitive_desc_t = dnnl_primitive_t = ctypes.c_void_p
const_dnnl_memory_desc_t = const_dnnl_primitive_attr_t = ctypes.c_void_p
const_dnnl_post_ops_t = const_dnnl_primitive_desc_t = ctypes.c_void_p


def _kinds():
    """The primitive kinds' flat-API modules, in registration order."""
    names = dict.fromkeys(r.capi for r in _registry.records() if r.capi)
    return [importlib.import_module(name) for name in names]


def _functions(module):
    return {name: v for name, v in vars(module).items() if isinstance(v, _b.CFunction)
            and name.startswith("dnnl_")}


# the sections in header order: dnnl_common.h; dnnl.h (primitives,
# attributes, memory descriptors, memories, the kinds, the RNN quantization
# attributes and the service functions); dnnl_debug.h; the compatibility names
_SECTIONS = [_common, _primitive, _attr, _memory_desc, _memory] + _kinds() + [
    _attr_rnn, _service, _debug, _compat]
_BOUND = {}
for _section in _SECTIONS:
    _BOUND.update(_functions(_section))

# every enumerator and macro under its C name, and every function
globals().update(_C)
globals().update(_BOUND)

#: The flat-API functions, by section in header order (dnnl_common.h, dnnl.h,
#: dnnl_debug.h), followed by the compatibility names.
FUNCTIONS = list(_BOUND)
COMPAT_FUNCTIONS = list(_functions(_compat))
live_handles = _b.live_handles


def reset_declarations():
    """Every function's ``argtypes``, ``restype`` and ``errcheck`` back to
    unset, as at import: what a program (or a test) declared for real
    libdnnl is undone (``f.reset()`` does one function, ``del f.restype``
    its ``restype`` alone).

    >>> import ctypes
    >>> from dnnl import capi as lib
    >>> lib.dnnl_status2str.restype = ctypes.c_void_p     # the address, as ctypes gives it
    >>> isinstance(lib.dnnl_status2str(0), int)
    True
    >>> lib.reset_declarations()
    >>> lib.dnnl_status2str(0)
    b'success'
    """
    for fn in _BOUND.values():
        fn.reset()


__all__ = FUNCTIONS + sorted(_C) + ["dnnl_exec_arg_t", "dnnl_version_t", "dnnl_dims_t",
                                    "dnnl_dim_t", "last_error", "reset_declarations",
                                    "FUNCTIONS"]
del _section


class _CAPIModule(types.ModuleType):
    """Lets ``lib["dnnl_engine_create"]`` work as on a ``ctypes.CDLL``."""

    def __getitem__(self, name):
        try:
            return getattr(self, name)
        except AttributeError:
            raise AttributeError("function %r not found" % name) from None


sys.modules[__name__].__class__ = _CAPIModule
