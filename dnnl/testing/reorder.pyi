# Partial stub: the numpy reference of reorder (the rest is typed loosely).
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

_Quant = tuple[int, npt.ArrayLike, Sequence[int]]

def reference_reorder(src_logical: npt.ArrayLike, src_dt: int, dst_dt: int,
                      src_scales: _Quant | None = ..., dst_scales: _Quant | None = ...,
                      src_zp: _Quant | None = ..., dst_zp: _Quant | None = ...,
                      beta: float = ..., dst_old_logical: npt.ArrayLike | None = ...,
                      with_sum: bool | None = ...) -> npt.NDArray[Any]: ...
def same_values(a: npt.ArrayLike, b: npt.ArrayLike, dt: int) -> npt.NDArray[np.bool_]: ...
def __getattr__(name: str) -> Any: ...
