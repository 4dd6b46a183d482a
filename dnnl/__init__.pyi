# Types of dnnl's top-level namespace (the runtime module is dnnl/__init__.py).
from dnnl import arrays as arrays
from dnnl import attr as attr
from dnnl import draw as draw
from dnnl import primitive as primitive
from dnnl import primitives as primitives
from dnnl import resampling as resampling
from dnnl import verbose as verbose
from dnnl._core.enums import accumulation_mode as accumulation_mode
from dnnl._core.enums import algorithm as algorithm
from dnnl._core.enums import cpu_isa as cpu_isa
from dnnl._core.enums import cpu_isa_hints as cpu_isa_hints
from dnnl._core.enums import data_type as data_type
from dnnl._core.enums import engine_kind as engine_kind
from dnnl._core.enums import format_kind as format_kind
from dnnl._core.enums import format_tag as format_tag
from dnnl._core.enums import fpmath_mode as fpmath_mode
from dnnl._core.enums import primitive_kind as primitive_kind
from dnnl._core.enums import prop_kind as prop_kind
from dnnl._core.enums import quantization_mode as quantization_mode
from dnnl._core.enums import query as query
from dnnl._core.enums import rounding_mode as rounding_mode
from dnnl._core.enums import scratchpad_mode as scratchpad_mode
from dnnl._core.enums import status as status
from dnnl.primitive.cache import get_primitive_cache_capacity as get_primitive_cache_capacity
from dnnl.primitive.cache import set_primitive_cache_capacity as set_primitive_cache_capacity
from dnnl._core.error import dlpack_error as dlpack_error
from dnnl._core.error import error as error
from dnnl._core.error import invalid_arguments as invalid_arguments
from dnnl._core.error import invalid_type as invalid_type
from dnnl._core.error import out_of_memory as out_of_memory
from dnnl._core.error import runtime_error as runtime_error
from dnnl._core.error import unimplemented as unimplemented
from dnnl.arrays import convert as convert
from dnnl.arrays import default_engine as default_engine
from dnnl.arrays import dequantize as dequantize
from dnnl.arrays import quantize as quantize
from dnnl.arrays import resample as resample
from dnnl.arrays import resample_backward as resample_backward
from dnnl.attr import get_default_fpmath_mode as get_default_fpmath_mode
from dnnl.attr import post_ops as post_ops
from dnnl.attr import primitive_attr as primitive_attr
from dnnl.attr import set_default_fpmath_mode as set_default_fpmath_mode
from dnnl.draw import draw_layout as draw_layout
from dnnl._platform.isa import get_cpu_isa_hints as get_cpu_isa_hints
from dnnl._platform.isa import get_effective_cpu_isa as get_effective_cpu_isa
from dnnl._platform.isa import set_cpu_isa_hints as set_cpu_isa_hints
from dnnl._platform.isa import set_max_cpu_isa as set_max_cpu_isa
from dnnl._platform.jit import set_jit_dump as set_jit_dump
from dnnl._platform.jit import set_jit_profiling_flags as set_jit_profiling_flags
from dnnl._platform.jit import set_jit_profiling_jitdumpdir as set_jit_profiling_jitdumpdir
from dnnl._platform.thread_count import get_num_threads as get_num_threads
from dnnl._platform.thread_count import set_num_threads as set_num_threads
from dnnl._model.engine import engine as engine
from dnnl._model.engine import stream as stream
from dnnl._model.memory import memory as memory
from dnnl.primitives.reorder.primitive import reorder as reorder
from dnnl.primitives.resampling.primitive import resampling_backward as resampling_backward
from dnnl.primitives.resampling.primitive import resampling_forward as resampling_forward
from dnnl.verbose import get_verbose as get_verbose
from dnnl.verbose import set_verbose as set_verbose
from dnnl._core.version import version as version

__version__: str

# BEGIN generated DNNL_* macros
DNNL_RUNTIME_NONE: int
DNNL_RUNTIME_SEQ: int
DNNL_RUNTIME_OMP: int
DNNL_RUNTIME_TBB: int
DNNL_RUNTIME_THREADPOOL: int
DNNL_RUNTIME_OCL: int
DNNL_RUNTIME_SYCL: int
DNNL_RUNTIME_DPCPP: int
DNNL_RUNTIME_ZE: int
DNNL_VENDOR_NONE: int
DNNL_VENDOR_INTEL: int
DNNL_VENDOR_NVIDIA: int
DNNL_VENDOR_AMD: int
DNNL_VENDOR_GENERIC: int
DNNL_MAX_NDIMS: int
DNNL_MEMORY_NONE: int
DNNL_MEMORY_ALLOCATE: int
DNNL_RUNTIME_DIM_VAL: int
DNNL_RUNTIME_SIZE_VAL: int
DNNL_RUNTIME_S32_VAL: int
DNNL_ARG_UNDEF: int
DNNL_ARG_SRC_0: int
DNNL_ARG_SRC: int
DNNL_ARG_SRC_LAYER: int
DNNL_ARG_FROM: int
DNNL_ARG_SRC_1: int
DNNL_ARG_SRC_ITER: int
DNNL_ARG_SRC_2: int
DNNL_ARG_SRC_ITER_C: int
DNNL_ARG_SRC_3: int
DNNL_ARG_AUGRU_ATTENTION: int
DNNL_ARG_DST_0: int
DNNL_ARG_DST: int
DNNL_ARG_TO: int
DNNL_ARG_DST_LAYER: int
DNNL_ARG_DST_1: int
DNNL_ARG_DST_ITER: int
DNNL_ARG_DST_2: int
DNNL_ARG_DST_ITER_C: int
DNNL_ARG_WEIGHTS_0: int
DNNL_ARG_WEIGHTS: int
DNNL_ARG_WEIGHTS_LAYER: int
DNNL_ARG_WEIGHTS_1: int
DNNL_ARG_WEIGHTS_ITER: int
DNNL_ARG_WEIGHTS_2: int
DNNL_ARG_WEIGHTS_PEEPHOLE: int
DNNL_ARG_WEIGHTS_3: int
DNNL_ARG_WEIGHTS_PROJECTION: int
DNNL_ARG_BIAS: int
DNNL_ARG_REDUCE: int
DNNL_ARG_MEAN: int
DNNL_ARG_VARIANCE: int
DNNL_ARG_SCALE: int
DNNL_ARG_SHIFT: int
DNNL_ARG_WORKSPACE: int
DNNL_ARG_SCRATCHPAD: int
DNNL_ARG_DIFF_SRC_0: int
DNNL_ARG_DIFF_SRC: int
DNNL_ARG_DIFF_SRC_LAYER: int
DNNL_ARG_DIFF_SRC_1: int
DNNL_ARG_DIFF_SRC_ITER: int
DNNL_ARG_DIFF_SRC_2: int
DNNL_ARG_DIFF_SRC_ITER_C: int
DNNL_ARG_DIFF_SRC_3: int
DNNL_ARG_DIFF_AUGRU_ATTENTION: int
DNNL_ARG_DIFF_DST_0: int
DNNL_ARG_DIFF_DST: int
DNNL_ARG_DIFF_DST_LAYER: int
DNNL_ARG_DIFF_DST_1: int
DNNL_ARG_DIFF_DST_ITER: int
DNNL_ARG_DIFF_DST_2: int
DNNL_ARG_DIFF_DST_ITER_C: int
DNNL_ARG_DIFF_WEIGHTS_0: int
DNNL_ARG_DIFF_WEIGHTS: int
DNNL_ARG_DIFF_WEIGHTS_LAYER: int
DNNL_ARG_DIFF_WEIGHTS_1: int
DNNL_ARG_DIFF_WEIGHTS_ITER: int
DNNL_ARG_DIFF_WEIGHTS_2: int
DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE: int
DNNL_ARG_DIFF_WEIGHTS_3: int
DNNL_ARG_DIFF_WEIGHTS_PROJECTION: int
DNNL_ARG_DIFF_BIAS: int
DNNL_ARG_DIFF_SCALE: int
DNNL_ARG_DIFF_SHIFT: int
DNNL_ARG_HINT_MAX_GROUP_SIZE: int
DNNL_ARG_ATTR_DROPOUT_OFFSET: int
DNNL_ARG_ATTR_ROUNDING_SEED: int
DNNL_ARG_ATTR_DROPOUT_MASK: int
DNNL_ARG_ATTR_DROPOUT_PROBABILITY: int
DNNL_ARG_ATTR_DROPOUT_SEED: int
DNNL_ARG_ATTR_PRECOMPUTED_REDUCTIONS: int
DNNL_ARG_ATTR_OUTPUT_SCALES: int
DNNL_ARG_MULTIPLE_SRC: int
DNNL_ARG_MULTIPLE_DST: int
DNNL_ARG_ATTR_SCALES: int
DNNL_ARG_ATTR_ZERO_POINTS: int
DNNL_ARG_ATTR_POST_OP_DW: int
DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE: int
DNNL_JIT_PROFILE_NONE: int
DNNL_JIT_PROFILE_VTUNE: int
DNNL_JIT_PROFILE_LINUX_PERFMAP: int
DNNL_JIT_PROFILE_LINUX_JITDUMP: int
DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC: int
DNNL_JIT_PROFILE_LINUX_PERF: int
DNNL_RUNTIME_F32_VAL_BITS: int
# END generated DNNL_* macros
