from typing import Any, Callable, NamedTuple, Sequence

class record(NamedTuple):
    pd_class: type
    primitive_class: type
    verbose_fields: Callable[[Any, Any], list[str]] | None
    benchdnn_driver: str | None
    capi: str | None
    switches: dict[str, Any]

def register_primitive(primitive_class: type,
                       verbose_fields: Callable[[Any, Any], list[str]] | None = ...,
                       benchdnn_driver: str | None = ...,
                       switches: dict[str, Any] | None = ...,
                       capi: str | None = ...) -> None: ...
def unregister_primitive(primitive_class: type) -> None: ...
def record_of(pd: Any) -> record | None: ...
def records() -> tuple[record, ...]: ...
