"""dnnl for Python: oneDNN's memory model and data-movement primitives."""
from dnnl._enums import (algorithm, data_type, format_kind, format_tag, fpmath_mode,
                         accumulation_mode, primitive_kind, prop_kind, query,
                         rounding_mode, scratchpad_mode, status)
from dnnl._error import error
