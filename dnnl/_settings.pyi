from contextlib import AbstractContextManager
from typing import Any

from dnnl._enums import fpmath_mode

class Settings:
    generic_reorder_plans: bool
    reorder_parallel_min: int
    resampling_parallel_min: int
    default_fpmath_mode: fpmath_mode | None
    def __init__(self) -> None: ...
    def fpmath_default(self) -> fpmath_mode: ...
    def cache_key(self) -> object: ...
    def changed(self, **values: Any) -> AbstractContextManager[Settings]: ...

settings: Settings
