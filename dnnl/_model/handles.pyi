from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from dnnl._core.enums import data_type

DNNL_MEMORY_NONE: int
DNNL_MEMORY_ALLOCATE: int

def address_of(handle: Any) -> int | None: ...
def check_ctypes_size(handle: Any, nbytes: int) -> None: ...
def buffer_bytes(handle: Any, code: data_type | int | None) -> npt.NDArray[np.uint8]: ...
def one_buffer(handle: Any, nbytes: int, code: data_type | int | None,
               allocate: Callable[[int], npt.NDArray[np.uint8]]) -> list[Any]: ...
