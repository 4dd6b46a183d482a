from os import PathLike
from typing import Any, NamedTuple, Sequence

from dnnl._model.desc import desc
from dnnl._model.memory import memory

__all__ = ["draw_layout", "layout_grid", "LayoutGrid"]

class LayoutGrid(NamedTuple):
    cells: list[tuple[str, tuple[int, ...] | None]]
    row_width: int
    group: int

def layout_grid(md: desc | memory) -> LayoutGrid: ...
def draw_layout(md: desc | memory, path: str | PathLike[str] | None = ..., *,
                dim_names: str | Sequence[str] | None = ..., title: str | None = ...,
                color_dim: int | None = ...) -> Any: ...
