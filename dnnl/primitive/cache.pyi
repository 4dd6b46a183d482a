from typing import Any

DEFAULT_CAPACITY: int

def get_primitive_cache_capacity() -> int: ...
def set_primitive_cache_capacity(capacity: int) -> None: ...
def clear() -> None: ...
def stats() -> dict[str, int]: ...

class Entry:
    key: tuple[Any, ...]
    state: dict[str, Any]
    engines: list[Any]
    alive: bool
    serial: int
    def __init__(self, key: tuple[Any, ...], state: dict[str, Any], engines: list[Any],
                 serial: int) -> None: ...

# the hooks of dnnl.primitive
def create(cls: type, init: Any, args: Any, take: Any, restore: Any) -> tuple[Any, Any, bool]: ...
