"""``dnnl.draw_layout``: a picture of a descriptor's physical layout.

The buffer is drawn as rows of cells, one cell per physical element offset,
in memory order (left to right, then top to bottom). Each cell names the
logical index stored there; padding positions of a blocked layout are shaded
and hatched, and offsets no element reaches (the gaps of a strided layout)
are left blank. Inner blocks are outlined (for a plain layout, the groups of
its second-innermost dim). matplotlib is an optional dependency:
``pip install "dnnl-python[draw]"``.

>>> import dnnl
>>> md = dnnl.memory.desc([1, 17, 2, 2], "f32", "nChw8c")
>>> grid = dnnl.draw.layout_grid(md)
>>> grid.row_width, grid.group, len(grid.cells)
(8, 8, 96)
>>> grid.cells[8], grid.cells[64], grid.cells[65]   # next pixel; last block
(('element', (0, 0, 0, 1)), ('element', (0, 16, 0, 0)), ('padding', (0, 17, 0, 0)))
"""
import math
from typing import NamedTuple

import numpy as np

from dnnl._desc import desc, describe
from dnnl._error import invalid

__all__ = ["draw_layout", "layout_grid", "LayoutGrid"]

_MAX_CELLS = 4096     # beyond this the labels cannot be read anyway
_MAX_ROWS = 24        # rows per panel before the picture wraps into panels


class LayoutGrid(NamedTuple):
    """What :func:`draw_layout` draws, without drawing it.

    ``cells[p]`` is ``(kind, index)`` for physical offset ``p`` (from the
    handle, ``offset0`` included): kind ``"element"`` with its logical index,
    ``"padding"`` with the padded logical index it stands for, or ``"gap"``
    with ``None``. Rows hold ``row_width`` cells; ``group`` consecutive cells
    form one outlined block.
    """

    cells: list
    row_width: int
    group: int


def _as_desc(md):
    get_desc = getattr(md, "get_desc", None)     # a dnnl.memory
    md = get_desc() if callable(get_desc) else md
    if not isinstance(md, desc):
        raise invalid("draw_layout needs a dnnl.memory.desc or a dnnl.memory, "
                      "not %r" % type(md).__name__)
    if not md.is_blocked() or md.has_runtime_dims_or_strides() or 0 in md.dims:
        raise invalid("only a blocked descriptor with known, non-zero dims can be drawn")
    return md


def _shape(md, span):
    """Row width and outlined group size, in cells."""
    if md.inner_blks:
        return md.inner_blks[-1], md.block_size
    steps = sorted({s for s, p in zip(md.strides, md.padded_dims) if p > 1 and s > 0})
    if steps and steps[0] == 1:
        steps = steps[1:]
    row = steps[0] if steps else span
    group = steps[1] if len(steps) > 1 else span
    if group % row:
        group = row
    return row, group


def layout_grid(md):
    """The cells of ``md``'s physical layout (see :class:`LayoutGrid`).

    ``md`` is a ``dnnl.memory.desc`` (or a ``dnnl.memory``) of the blocked
    format kind with at most 4096 physical positions.
    """
    md = _as_desc(md)
    from dnnl._kernels.offsets import all_offsets
    offsets = all_offsets(md, padded=True)
    span = int(offsets.max()) + 1
    if span > _MAX_CELLS:
        raise invalid("layout of %d positions is too large to draw (at most %d)"
                      % (span, _MAX_CELLS))
    cells = [("gap", None)] * span
    for index, off in zip(np.ndindex(*md.padded_dims), offsets.tolist()):
        inside = all(i < d for i, d in zip(index, md.dims))
        if inside or cells[off][0] == "gap":
            cells[off] = ("element" if inside else "padding", tuple(index))
    row, group = _shape(md, span)
    return LayoutGrid(cells, row, group)


def _matplotlib_figure():
    try:
        from matplotlib.figure import Figure
        from matplotlib.patches import Rectangle
    except ImportError:
        raise ImportError('dnnl.draw_layout needs matplotlib: pip install matplotlib '
                          '(or pip install "dnnl-python[draw]")') from None
    return Figure, Rectangle


def draw_layout(md, path=None, *, dim_names=None, title=None, color_dim=None):
    """Draw the physical layout of a memory descriptor; returns a matplotlib Figure.

    Parameters
    ----------
    md : dnnl.memory.desc or dnnl.memory
        A blocked-format descriptor (at most 4096 physical positions).
    path : str or path-like, optional
        Where to save the picture (format from the suffix: ``.png``, ``.svg``...).
    dim_names : str or sequence of str, optional
        One name per logical dim for the legend, e.g. ``"nchw"``
        (default: oneDNN's abstract ``a``, ``b``, ``c``...).
    title : str, optional
        Title (default: the descriptor as ``repr`` shows it).
    color_dim : int, optional
        Logical dim whose index colours the cells (default 1, or 0 for 1D).

    Each cell holds the logical index stored at that physical offset (dims of
    size 1 are left out of the label); hatched grey cells are padding, blank
    cells are gaps of a strided layout; thick outlines mark inner blocks.
    Raises ``ImportError`` when matplotlib is not installed.
    """
    md = _as_desc(md)
    grid = layout_grid(md)
    Figure, Rectangle = _matplotlib_figure()
    names = list(dim_names) if dim_names is not None else [
        chr(ord("a") + d) for d in range(md.ndims)]
    if len(names) != md.ndims:
        raise invalid("dim_names has %d names for %d dims" % (len(names), md.ndims))
    shown = [d for d in range(md.ndims) if md.padded_dims[d] > 1] or [0]
    if color_dim is None:
        color_dim = 1 if md.ndims > 1 else 0
    if not 0 <= color_dim < md.ndims:
        raise invalid("color_dim %s is not a dim of %s" % (color_dim, md))

    width, group = grid.row_width, grid.group
    nrows = -(-len(grid.cells) // width)
    group_rows = group // width     # a group is whole rows (see _shape)
    panel_rows = max(group_rows, _MAX_ROWS // group_rows * group_rows)
    panel_rows = min(panel_rows, -(-nrows // group_rows) * group_rows)
    npanels = -(-nrows // panel_rows)
    across = math.ceil(math.sqrt(npanels)) if npanels > 2 else npanels
    down = -(-npanels // across)
    gap = 1.5          # empty columns / rows between panels (in cells)
    label_w = 1.6      # room for the row-offset labels (in cells)
    total_w = across * (width + label_w) + (across - 1) * gap
    total_h = down * panel_rows + (down - 1) * gap

    legend = "cell: (%s) stored at that offset" % ", ".join(names[d] for d in shown)
    if any(kind == "padding" for kind, _ in grid.cells):
        legend += "; hatched: padding"
    if any(kind == "gap" for kind, _ in grid.cells):
        legend += "; blank: unused"
    heading = "%s\n%s" % (title if title is not None else describe(md), legend)
    text_w = 0.075 * max(len(line) for line in heading.splitlines())

    cell_w, cell_h = 0.42, 0.3
    fig_h = total_h * cell_h + 0.9
    fig = Figure(figsize=(max(text_w, total_w * cell_w + 0.4), fig_h))
    ax = fig.add_axes((0.01, 0.02, 0.98, 1 - 0.7 / fig_h))
    ax.set_xlim(-0.2, total_w + 0.2)
    ax.set_ylim(total_h + 0.2, -0.8)
    ax.set_axis_off()
    palette = [(0.65, 0.81, 0.89), (0.98, 0.75, 0.44), (0.70, 0.87, 0.54),
               (0.99, 0.60, 0.60), (0.79, 0.70, 0.84), (1.00, 1.00, 0.60),
               (0.55, 0.83, 0.78), (0.90, 0.85, 0.70)]
    font = 6.5 if max(len(shown), 2) <= 3 else 5.5

    def origin(row):
        panel, r = divmod(row, panel_rows)
        py, px = divmod(panel, across)
        return px * (width + label_w + gap) + label_w, py * (panel_rows + gap) + r

    for off, (kind, index) in enumerate(grid.cells):
        x0, y = origin(off // width)
        x = x0 + off % width
        if kind == "gap":
            face, hatch, color = "white", None, "0.6"
        elif kind == "padding":
            face, hatch, color = "0.82", "////", "0.35"
        else:
            face, hatch, color = palette[index[color_dim] % len(palette)], None, "black"
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=face, edgecolor="0.55",
                               linewidth=0.4, hatch=hatch))
        if index is not None:
            ax.text(x + 0.5, y + 0.5, ",".join(str(index[d]) for d in shown),
                    ha="center", va="center", fontsize=font, color=color)
    for panel in range(npanels):
        x0, y = origin(panel * panel_rows)
        ax.text(x0 - 0.15, y - 0.3, "offset", ha="right", va="center",
                fontsize=font, color="0.3")
    for row in range(nrows):
        x0, y = origin(row)
        ax.text(x0 - 0.15, y + 0.5, str(row * width), ha="right", va="center",
                fontsize=font, color="0.3")
    for first in range(0, nrows, group_rows):   # panels hold whole groups
        x0, y = origin(first)
        ax.add_patch(Rectangle((x0, y), width, min(group_rows, nrows - first),
                               fill=False, edgecolor="black", linewidth=1.6))
    fig.suptitle(heading, fontsize=8)
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
