"""dnnl for Python: oneDNN's memory model and data-movement primitives.

Names, semantics and constant values are oneDNN 3.13's; the object API is
shaped like its C++ API (``dnnl.memory.desc``, ``dnnl.reorder``...) and
``dnnl.capi`` mirrors its C API.
"""
from importlib import import_module as _import_module

try:
    _import_module("dnnl._core._constants")  # the first compiled module
except ImportError as _exc:
    from dnnl._version import not_built_message
    raise ImportError(not_built_message(__file__, _exc)) from _exc

from dnnl._core.enums import (C as _C, accumulation_mode, algorithm, data_type, engine_kind,
                         format_kind, format_tag, fpmath_mode, primitive_kind,
                         prop_kind, quantization_mode, query, rounding_mode,
                         scratchpad_mode, status)
from dnnl._core.enums import cpu_isa, cpu_isa_hints
from dnnl.primitive.cache import get_primitive_cache_capacity, set_primitive_cache_capacity
from dnnl._core.error import (dlpack_error, error, invalid_arguments, invalid_type,
                              out_of_memory, runtime_error, unimplemented)
from dnnl.attr import (get_default_fpmath_mode, post_ops, primitive_attr,
                       set_default_fpmath_mode)
from dnnl._model.engine import engine, stream
from dnnl.draw import draw_layout
from dnnl._platform.isa import (get_cpu_isa_hints, get_effective_cpu_isa, set_cpu_isa_hints,
                       set_max_cpu_isa)
from dnnl._platform.jit import (set_jit_dump, set_jit_profiling_flags,
                                set_jit_profiling_jitdumpdir)
from dnnl._platform.thread_count import get_num_threads, set_num_threads
from dnnl._model.memory import memory
from dnnl.primitives.reorder import reorder
from dnnl.primitives.resampling import resampling_backward, resampling_forward
from dnnl.verbose import get_verbose, set_verbose
from dnnl.arrays import (convert, default_engine, dequantize, quantize, resample,
                         resample_backward)
from dnnl._version import __version__
from dnnl._core.version import version
from dnnl import _aliases

# oneDNN's macros under their C names: DNNL_ARG_SRC, DNNL_MEMORY_ALLOCATE...
globals().update({_name: _value for _name, _value in _C.items()
                  if _name.startswith("DNNL_")})

_aliases.install()
