# Partial stub: this module is typed loosely.
from typing import Any, NamedTuple, Optional

from dnnl._core.enums import data_type

class DataType(NamedTuple):
    code: data_type
    bits: int
    kind: str
    signed: bool
    numpy: Any
    ml_dtypes: Optional[str]
    raw: Any
    in_md: bool
    aliases: tuple[str, ...]
    dlpack: Optional[int]
    @property
    def name(self) -> str: ...
    @property
    def sub_byte(self) -> bool: ...
    @property
    def size(self) -> int: ...

RECORDS: tuple[DataType, ...]
BY_CODE: dict[data_type, DataType]
NOT_TYPES: frozenset[data_type]
SIZE: dict[data_type, int]
MD_TYPES: frozenset[data_type]
SUB_BYTE: frozenset[data_type]
FLOATING: frozenset[data_type]
INTEGRAL: frozenset[data_type]

def ml_dtypes() -> Any: ...
def __getattr__(name: str) -> Any: ...
