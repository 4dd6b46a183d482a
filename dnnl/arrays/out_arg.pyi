# Internal: the out= argument of the array functions (a partial stub).
from typing import Any

def __getattr__(name: str) -> Any: ...
