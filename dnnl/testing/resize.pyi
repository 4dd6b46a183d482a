# Partial stub: the numpy reference of every framework's resize mode (typed loosely).
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

MODES: tuple[str, ...]
TRANSFORMS: tuple[str, ...]
NEAREST_MODES: tuple[str, ...]
POLICIES: tuple[str, ...]

def output_sizes(in_spatial: Sequence[int], size: Sequence[int] | None = ...,
                 scales: Sequence[float] | None = ...,
                 keep_aspect_ratio_policy: str = ...) -> tuple[list[int], list[Any]]: ...
def forward(src: npt.ArrayLike, size: Sequence[int] | None = ...,
            scales: Sequence[float] | None = ..., **options: Any) -> npt.NDArray[np.float64]: ...
def backward(diff_dst: npt.ArrayLike, in_spatial: Sequence[int],
             size: Sequence[int] | None = ..., scales: Sequence[float] | None = ...,
             **options: Any) -> npt.NDArray[np.float64]: ...
def __getattr__(name: str) -> Any: ...
