# Internal: the typed pixel rows' calls for images (a partial stub).
from typing import Any

def __getattr__(name: str) -> Any: ...
