from typing import Any, Mapping, overload

from typing_extensions import TypeAlias

from dnnl._model.desc import desc
from dnnl._core.enums import data_type, primitive_kind
from dnnl.attr import primitive_attr
from dnnl._model.engine import engine, stream
from dnnl._model.memory import memory
from dnnl.primitive import _CacheBlob, primitive
from dnnl.primitive import primitive_desc as _primitive_desc

dt: TypeAlias = data_type
INT4: frozenset[data_type]
ARG_FROM: int
ARG_TO: int
INTEGRAL: frozenset[data_type]
SUPPORTED: Any
DIRECT_COPY_ONLY: frozenset[tuple[data_type, data_type]]
QUANT_ARGS: tuple[int, ...]
QUANT_NAMES: tuple[str, ...]
QUANT_DTYPES: tuple[type, ...]

def build_plan(src_md: desc, dst_md: desc, quant: Any, convert: bool,
               generic: bool = ..., *, parallel_min: int) -> Any: ...

class reorder(primitive):
    class primitive_desc(_primitive_desc):
        @overload
        def __init__(self, src: memory, dst: memory, attr: primitive_attr | None = ...,
                     *, allow_empty: bool = ...) -> None: ...
        @overload
        def __init__(self, src_engine: engine, src_md: desc, dst_engine: engine,
                     dst_md: desc, attr: primitive_attr | None = ...,
                     *, allow_empty: bool = ...) -> None: ...
        def get_src_engine(self) -> engine: ...
        def get_dst_engine(self) -> engine: ...

    @overload
    def __init__(self, pd: reorder.primitive_desc, cache_blob: _CacheBlob = ...) -> None: ...
    @overload
    def __init__(self, src: memory, dst: memory, attr: primitive_attr | None = ...,
                 *, allow_empty: bool = ...) -> None: ...
    @overload
    def __init__(self, src_engine: engine, src_md: desc, dst_engine: engine, dst_md: desc,
                 attr: primitive_attr | None = ..., *, allow_empty: bool = ...) -> None: ...
    @overload
    def execute(self, astream: stream, args: Mapping[int, memory], dst: None = ...) -> None: ...
    @overload
    def execute(self, astream: stream, args: memory, dst: memory) -> None: ...
