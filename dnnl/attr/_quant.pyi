from typing import NamedTuple, Sequence

from dnnl._core.enums import data_type, quantization_mode

INT_MIN: int

class quant_entry(NamedTuple):
    mask: int
    data_type: data_type
    groups: tuple[int, ...]
    is_on_host: bool
    qmode: quantization_mode | int
    @property
    def group_ndims(self) -> int: ...
    def group(self, d: int) -> int: ...
    def has_default_values(self) -> bool: ...
    def md_dims(self, dims: Sequence[int]) -> tuple[int, ...]: ...
    def count(self, dims: Sequence[int]) -> int: ...

DEFAULT_QUANT_ENTRY: quant_entry

ARG_SRC: int
ARG_SRC_1: int
ARG_SRC_2: int
ARG_DST: int
ARG_WEIGHTS: int
ARG_WEIGHTS_1: int
ARG_WEIGHTS_2: int
ARG_DIFF_SRC: int
ARG_DIFF_WEIGHTS: int
ARG_MULTIPLE_SRC: int
ARG_ATTR_POST_OP_DW: int
SCALE_DTS: frozenset[data_type]
ZP_DTS: frozenset[data_type]
ZP_GROUP_ARGS: frozenset[int]
ZP_ARGS: frozenset[int]
ROUNDING_ARGS: frozenset[int]

def scale_arg_ok(arg: int) -> bool: ...
def check_groups(mask: int, groups: tuple[int, ...], is_on_host: bool) -> None: ...

__test__: dict[str, object]
