from typing import Any, Literal, Protocol, Sequence, TypeVar, Union, overload

import numpy.typing as npt
from typing_extensions import Buffer

from dnnl._model.desc import _DataTypeLike, _TagLike
from dnnl._model.engine import engine
from dnnl._model.memory import _SupportsDLPack, memory

__all__ = ["from_array", "convert", "quantize", "dequantize", "resample",
           "resample_backward", "plain_tag", "default_engine"]

# numpy arrays, buffer-protocol objects, DLPack producers (torch, JAX...),
# dnnl memories, and lists, tuples and numbers as np.asarray takes them
# (npt.ArrayLike).
_ArrayIn = Union[npt.ArrayLike, Buffer, _SupportsDLPack, memory]
# ours, then PyTorch's names for the same rules
_Mode = Literal["linear", "nearest", "bilinear", "trilinear", "nearest-exact"]
# the other frameworks' modes (docs/resize_modes.md)
_ResizeMode = Literal["cubic", "bicubic", "area", "box"]
_Size = Union[int, Sequence[int], None]
_FactorsIn = Union[float, Sequence[float], None]

def default_engine() -> engine: ...
def plain_tag(shape: Sequence[int], strides: Sequence[int]) -> str | None: ...
def from_array(x: npt.NDArray[Any] | _SupportsDLPack | Buffer, tag: _TagLike | None = ...) -> memory: ...
class _DaskArray(Protocol):
    """A ``dask.array.Array`` (typed without importing dask): the array
    functions take one and return one (dnnl/arrays/dask.py)."""
    def __dask_graph__(self) -> Any: ...

_Dask = TypeVar("_Dask", bound=_DaskArray)

@overload
def convert(x: _Dask, tag: _TagLike, dtype: _DataTypeLike | None = ..., *,
            scales: npt.ArrayLike | None = ..., zero_points: npt.ArrayLike | None = ...,
            axis: int | None = ...) -> _Dask: ...
@overload
def convert(x: _ArrayIn, tag: _TagLike, dtype: _DataTypeLike | None = ..., *,
            scales: npt.ArrayLike | None = ..., zero_points: npt.ArrayLike | None = ...,
            axis: int | None = ...) -> memory: ...
@overload
def quantize(x: _Dask, scale: npt.ArrayLike, zero_point: npt.ArrayLike | None = ..., *,
             axis: int | None = ..., dtype: _DataTypeLike = ...) -> _Dask: ...
@overload
def quantize(x: _ArrayIn, scale: npt.ArrayLike, zero_point: npt.ArrayLike | None = ..., *,
             axis: int | None = ..., dtype: _DataTypeLike = ...) -> npt.NDArray[Any]: ...
@overload
def dequantize(q: _Dask, scale: npt.ArrayLike, zero_point: npt.ArrayLike | None = ..., *,
               axis: int | None = ..., dtype: _DataTypeLike = ...) -> _Dask: ...
@overload
def dequantize(q: _ArrayIn, scale: npt.ArrayLike, zero_point: npt.ArrayLike | None = ..., *,
               axis: int | None = ..., dtype: _DataTypeLike = ...) -> npt.NDArray[Any]: ...
# what out= takes: a numpy array or a torch tensor (a DLPack producer), returned
_Out = TypeVar("_Out", bound=Union[npt.NDArray[Any], _SupportsDLPack])

@overload
def resample(x: _Dask, size: _Size = ..., *, factors: _FactorsIn = ...,
             mode: _Mode = ..., layout: str = ..., dtype: _DataTypeLike | None = ...,
             out: None = ...) -> _Dask: ...
@overload
def resample(x: _ArrayIn, size: _Size = ..., *, factors: _FactorsIn = ...,
             mode: _Mode | _ResizeMode = ..., layout: str = ...,
             dtype: _DataTypeLike | None = ..., out: _Out,
             coordinate_transformation_mode: str | None = ..., nearest_mode: str | None = ...,
             cubic_coeff_a: float | None = ..., exclude_outside: bool | None = ...,
             antialias: bool | None = ..., keep_aspect_ratio_policy: str | None = ...,
             scales: _FactorsIn = ..., roi: Sequence[float] | None = ...,
             extrapolation_value: float | None = ..., align_corners: bool | None = ...) -> _Out: ...
@overload
def resample(x: _ArrayIn, size: _Size = ..., *, factors: _FactorsIn = ...,
             mode: _Mode | _ResizeMode = ..., layout: str = ...,
             dtype: _DataTypeLike | None = ..., out: None = ...,
             coordinate_transformation_mode: str | None = ..., nearest_mode: str | None = ...,
             cubic_coeff_a: float | None = ..., exclude_outside: bool | None = ...,
             antialias: bool | None = ..., keep_aspect_ratio_policy: str | None = ...,
             scales: _FactorsIn = ..., roi: Sequence[float] | None = ...,
             extrapolation_value: float | None = ..., align_corners: bool | None = ...) -> npt.NDArray[Any]: ...
@overload
def resample_backward(diff_dst: _Dask, size: int | Sequence[int], *,
                      mode: _Mode = ..., layout: str = ..., dtype: _DataTypeLike | None = ...,
                      out: None = ...) -> _Dask: ...
@overload
def resample_backward(diff_dst: _ArrayIn, size: int | Sequence[int], *,
                      mode: _Mode | _ResizeMode = ..., layout: str = ...,
                      dtype: _DataTypeLike | None = ..., out: _Out,
                      coordinate_transformation_mode: str | None = ..., nearest_mode: str | None = ...,
                      cubic_coeff_a: float | None = ..., exclude_outside: bool | None = ...,
                      antialias: bool | None = ..., keep_aspect_ratio_policy: str | None = ...,
                      scales: _FactorsIn = ..., roi: Sequence[float] | None = ...,
                      extrapolation_value: float | None = ..., align_corners: bool | None = ...) -> _Out: ...
@overload
def resample_backward(diff_dst: _ArrayIn, size: int | Sequence[int], *,
                      mode: _Mode | _ResizeMode = ..., layout: str = ...,
                      dtype: _DataTypeLike | None = ..., out: None = ...,
                      coordinate_transformation_mode: str | None = ..., nearest_mode: str | None = ...,
                      cubic_coeff_a: float | None = ..., exclude_outside: bool | None = ...,
                      antialias: bool | None = ..., keep_aspect_ratio_policy: str | None = ...,
                      scales: _FactorsIn = ..., roi: Sequence[float] | None = ...,
                      extrapolation_value: float | None = ..., align_corners: bool | None = ...) -> npt.NDArray[Any]: ...
