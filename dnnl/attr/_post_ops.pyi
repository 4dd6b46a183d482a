from typing import Any, ClassVar, Iterator, NamedTuple

from dnnl._core.enums import algorithm, data_type, primitive_kind
from dnnl._model.desc import _DataTypeLike, desc

POST_OPS_LIMIT: int

class _sum_entry(NamedTuple):
    scale: float
    zero_point: int
    data_type: data_type

class sum_entry(_sum_entry):
    kind: ClassVar[primitive_kind]

class _eltwise_entry(NamedTuple):
    alg: algorithm
    alpha: float
    beta: float
    scale: float

class eltwise_entry(_eltwise_entry):
    kind: ClassVar[primitive_kind]

class _binary_entry(NamedTuple):
    alg: algorithm
    src1_desc: desc
    src2_desc: desc | None

class binary_entry(_binary_entry):
    kind: ClassVar[primitive_kind]

class _prelu_entry(NamedTuple):
    mask: int

class prelu_entry(_prelu_entry):
    kind: ClassVar[primitive_kind]

class _dw_entry(NamedTuple):
    weights_data_type: data_type
    bias_data_type: data_type
    dst_data_type: data_type
    kernel_size: int
    stride_size: int
    padding_l_size: int

class dw_entry(_dw_entry):
    kind: ClassVar[primitive_kind]

_Entry = sum_entry | eltwise_entry | binary_entry | prelu_entry | dw_entry

class post_ops:
    def __init__(self) -> None: ...
    @property
    def entries(self) -> tuple[_Entry, ...]: ...
    def len(self) -> int: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[_Entry]: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def copy(self) -> post_ops: ...
    def __copy__(self) -> post_ops: ...
    def __deepcopy__(self, memo: Any) -> post_ops: ...
    def cache_key(self) -> tuple[Any, ...]: ...
    def has_default_values(self) -> bool: ...
    def kind(self, index: int) -> primitive_kind: ...
    def append_sum(self, scale: float = ..., zero_point: int = ...,
                   data_type: _DataTypeLike | None = ...) -> None: ...
    def get_params_sum(self, index: int) -> tuple[float, int, data_type]: ...
    def append_eltwise(self, alg: algorithm | int, alpha: float = ...,
                       beta: float = ...) -> None: ...
    def get_params_eltwise(self, index: int) -> tuple[algorithm, float, float]: ...
    def append_binary(self, alg: algorithm | int, src1_desc: desc,
                      src2_desc: desc | None = ...) -> None: ...
    def get_params_binary(self, index: int) -> tuple[algorithm, desc]: ...
    def get_params_binary_v2(self, index: int) -> tuple[algorithm, desc, desc | None]: ...
    def append_prelu(self, mask: int) -> None: ...
    def get_params_prelu(self, index: int) -> int: ...
    def append_dw(self, weights_data_type: _DataTypeLike, bias_data_type: _DataTypeLike,
                  dst_data_type: _DataTypeLike, kernel_size: int, stride_size: int,
                  padding_l_size: int) -> None: ...
    def get_params_dw(self, index: int) -> tuple[Any, ...]: ...

def value_key(v: Any) -> Any: ...

__test__: dict[str, object]
