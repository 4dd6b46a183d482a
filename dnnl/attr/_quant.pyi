from dnnl._core.enums import data_type
from dnnl.attr import (DEFAULT_QUANT_ENTRY as DEFAULT_QUANT_ENTRY, INT_MIN as INT_MIN,
                       quant_entry as quant_entry)

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
