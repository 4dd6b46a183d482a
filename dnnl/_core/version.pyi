from typing import NamedTuple

class version_t(NamedTuple):
    major: int
    minor: int
    patch: int
    hash: str
    cpu_runtime: int
    gpu_runtime: int

VERSION: version_t

def version() -> version_t: ...
