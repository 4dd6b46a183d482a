# Internal: the array functions' prepared calls (a partial stub; the
# array functions' own stubs in arrays.pyi are what users see).
from typing import Any

from dnnl.arrays.front import Front

calls: dict[Any, Any]
front: Front
LIMIT: int

def __getattr__(name: str) -> Any: ...
