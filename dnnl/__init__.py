"""dnnl for Python: oneDNN's memory model and data-movement primitives.

Names, semantics and constant values are oneDNN 3.13's; the object API is
shaped like its C++ API (``dnnl.memory.desc``, ``dnnl.reorder``...) and
``dnnl.capi`` mirrors its C API.
"""
from dnnl._enums import (accumulation_mode, algorithm, data_type, engine_kind,
                         format_kind, format_tag, fpmath_mode, primitive_kind,
                         prop_kind, query, rounding_mode, scratchpad_mode, status)
from dnnl._error import error
from dnnl.engine import engine, stream
from dnnl.memory import DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE, memory

__version__ = "0.1.0"
