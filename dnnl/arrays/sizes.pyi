# Internal: the resampling functions' sizes and factors (a partial stub).
from typing import Any

def __getattr__(name: str) -> Any: ...
