# Partial stub: the numpy reference of resampling (the rest is typed loosely).
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

NEAREST: str
LINEAR: str

def forward(src: npt.ArrayLike, out_spatial: Sequence[int], alg: str | int,
            post_ops: Any = ..., dst_old: npt.ArrayLike | None = ..., dst_dt: int = ...,
            src1_arrays: Any = ...) -> npt.NDArray[np.float32]: ...
def forward_codes(src: npt.ArrayLike, out_spatial: Sequence[int], alg: str | int,
                  dst_dt: int = ..., **kw: Any) -> npt.NDArray[Any]: ...
def backward(diff_dst: npt.ArrayLike, in_spatial: Sequence[int],
             alg: str | int) -> npt.NDArray[np.float32]: ...
def backward_codes(diff_dst: npt.ArrayLike, in_spatial: Sequence[int], alg: str | int,
                   diff_src_dt: int = ...) -> npt.NDArray[Any]: ...
def dst_dims_from_factors(src_dims: Sequence[int], factors: Sequence[float]) -> list[int]: ...
def __getattr__(name: str) -> Any: ...
