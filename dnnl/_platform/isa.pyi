import enum
from typing import SupportsIndex

from dnnl._core.enums import cpu_isa, cpu_isa_hints, status

SSE41: int
AVX: int
AVX2: int
AVX2_VNNI: int
AVX2_VNNI_2: int
AVX512_CORE: int
AVX512_CORE_VNNI: int
AVX512_CORE_BF16: int
AVX512_CORE_BF16_YMM: int
AMX_TILE: int
AVX10_1_512: int
AVX10_1_512_AMX: int
AVX10_1_512_AMX_FP16: int
AVX10_2: int
AVX10_2_AMX_2: int
ISA_ALL: int
KERNEL_LEVELS: tuple[tuple[str, int, tuple[str, ...]], ...]

class aarch64_cpu_isa(enum.IntEnum):
    default = 0
    asimd = 1
    sve_128 = 3
    sve_256 = 7
    sve_512 = 39

def arch() -> str: ...

def features() -> frozenset[str]: ...
def mayiuse(isa: int, soft: bool = ...) -> bool: ...
def c_set_max_cpu_isa(value: int) -> status: ...
def c_set_cpu_isa_hints(value: int) -> status: ...
def get_cpu_isa_hints() -> cpu_isa_hints | int: ...
def set_cpu_isa_hints(hints: SupportsIndex) -> status: ...
def set_max_cpu_isa(isa: SupportsIndex) -> status: ...
def get_effective_cpu_isa() -> cpu_isa | aarch64_cpu_isa: ...
def read_cap() -> None: ...
def isa_info() -> str: ...
def kernel_levels() -> list[str]: ...
