from typing import Mapping, Sequence, overload

import numpy as np
import numpy.typing as npt

from dnnl._model.desc import desc
from dnnl._core.enums import algorithm, data_type, prop_kind
from dnnl.attr import primitive_attr
from dnnl._model.engine import engine, stream
from dnnl._model.memory import memory
from dnnl.primitive import _CacheBlob, primitive, primitive_desc

__all__ = ["resampling_forward", "resampling_backward"]

SUPPORTED: frozenset[data_type]
ALGS: tuple[algorithm, algorithm]
MAX_POST_OPS: int

def post_op_src1_arg(idx: int) -> int: ...
def nearest_indices(n_in: int, n_out: int, o: npt.ArrayLike | None = ...) -> npt.NDArray[np.int64]: ...
def linear_coeffs(n_in: int, n_out: int, o: npt.ArrayLike | None = ...) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                                  npt.NDArray[np.float32]]: ...

_Factors = Sequence[float]

class _resampling_pd(primitive_desc):
    def get_prop_kind(self) -> prop_kind: ...
    def get_algorithm(self) -> algorithm: ...
    def get_factors(self) -> list[float]: ...
    def query_factors(self) -> list[float]: ...
    def any_mds(self) -> tuple[bool, bool]: ...

class resampling_forward(primitive):
    class primitive_desc(_resampling_pd):
        @overload
        def __init__(self, aengine: engine, aprop_kind: prop_kind | int,
                     aalgorithm: algorithm | int, src_desc: desc, dst_desc: desc,
                     attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: prop_kind | int,
                     aalgorithm: algorithm | int, factors: _Factors, src_desc: desc,
                     attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aprop_kind: prop_kind | int,
                     aalgorithm: algorithm | int, factors: _Factors, src_desc: desc,
                     dst_desc: desc | None, attr: primitive_attr | None = ...,
                     *, allow_empty: bool = ...) -> None: ...

    def __init__(self, pd: resampling_forward.primitive_desc,
                 cache_blob: _CacheBlob = ...) -> None: ...

class resampling_backward(primitive):
    class primitive_desc(_resampling_pd):
        @overload
        def __init__(self, aengine: engine, aalgorithm: algorithm | int,
                     diff_src_desc: desc, diff_dst_desc: desc,
                     hint_fwd_pd: resampling_forward.primitive_desc | None,
                     attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: algorithm | int, factors: _Factors,
                     diff_src_desc: desc, hint_fwd_pd: resampling_forward.primitive_desc | None,
                     attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, aengine: engine, aalgorithm: algorithm | int, factors: _Factors,
                     diff_src_desc: desc, diff_dst_desc: desc | None,
                     hint_fwd_pd: resampling_forward.primitive_desc | None,
                     attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...

    def __init__(self, pd: resampling_backward.primitive_desc,
                 cache_blob: _CacheBlob = ...) -> None: ...
