# Internal: the resampling layouts (batches and single images) (a partial stub).
from typing import Any

def __getattr__(name: str) -> Any: ...
