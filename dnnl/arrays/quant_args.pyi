# Internal: scales and zero points as the array functions take them (a
# partial stub).
from typing import Any

def __getattr__(name: str) -> Any: ...
