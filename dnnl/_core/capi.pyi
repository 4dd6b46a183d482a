import ctypes
from typing import Any

MAX_NDIMS: int
dnnl_dim_t = ctypes.c_int64
dnnl_dims_t: type[ctypes.Array[ctypes.c_int64]]

class dnnl_exec_arg_t(ctypes.Structure):
    arg: int
    memory: int | None

class dnnl_version_t(ctypes.Structure):
    major: int
    minor: int
    patch: int
    hash: bytes | None
    cpu_runtime: int
    gpu_runtime: int

def last_error() -> BaseException | None: ...

class CFunction:
    """A flat-API function: ctypes-style ``argtypes`` / ``restype`` / ``errcheck``."""
    argtypes: Any
    restype: Any
    errcheck: Any
    wraps: str
    _restype: Any
    def __init__(self, fn: Any, kind: str, on_error: Any, wraps: str) -> None: ...
    def __call__(self, *args: Any) -> Any: ...
    def reset(self) -> None: ...

# internal helpers of dnnl.capi
def __getattr__(name: str) -> Any: ...
