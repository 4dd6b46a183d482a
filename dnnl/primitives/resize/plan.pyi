# Partial stub: internals, typed loosely.
from typing import Any

def __getattr__(name: str) -> Any: ...
