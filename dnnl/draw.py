"""``dnnl.draw_layout``: a picture of a descriptor's physical layout.

The buffer is drawn as rows of cells, one cell per physical element offset,
in memory order (left to right, then top to bottom). Each cell names the
logical index stored there; padding positions of a blocked layout are shaded
and hatched, and offsets no element reaches (the gaps of a strided layout)
are left blank. Inner blocks are outlined (for a plain layout, the groups of
its second-innermost dim). Rows wider than 32 cells wrap and a picture of
more than 24 rows is split into panels; cell, label and title sizes come from
the measured text, so no text lies over a cell (tests/test_draw.py checks
this on a sample of every kind of tag). matplotlib is an optional dependency:
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

from dnnl._model.desc import desc, describe
from dnnl._core.error import invalid

__all__ = ["draw_layout", "layout_grid", "LayoutGrid"]

_MAX_CELLS = 4096     # beyond this the labels cannot be read anyway
_MAX_ROWS = 24        # rows per panel before the picture wraps into panels
_MAX_WIDTH = 32       # cells per row before a row wraps


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
    """Row width and outlined group size, in cells: a row is the innermost
    block (plain: the second-innermost stride), wrapped to at most
    ``_MAX_WIDTH`` cells so that a wide layout stays readable."""
    if md.inner_blks:
        row, group = md.inner_blks[-1], md.block_size
    else:
        steps = sorted({s for s, p in zip(md.strides, md.padded_dims) if p > 1 and s > 0})
        if steps and steps[0] == 1:
            steps = steps[1:]
        row = steps[0] if steps else span
        group = steps[1] if len(steps) > 1 else span
        if group % row:
            group = row
    if row > _MAX_WIDTH:
        fit = max(w for w in range(1, _MAX_WIDTH + 1) if row % w == 0)
        if fit >= 8:        # the widest divisor that fits; the old row a group
            group = row if group % row == 0 and not md.inner_blks else group
            row = fit
        elif row > 3 * _MAX_WIDTH:     # (nearly) prime: plain wrapping
            row = group = _MAX_WIDTH
    return row, group


def layout_grid(md):
    """The cells of ``md``'s physical layout (see :class:`LayoutGrid`).

    ``md`` is a ``dnnl.memory.desc`` (or a ``dnnl.memory``) of the blocked
    format kind with at most 4096 physical positions.
    """
    md = _as_desc(md)
    from dnnl._model.offsets import all_offsets
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
    # a panel holds whole groups when they fit, else _MAX_ROWS rows of one
    if group_rows <= _MAX_ROWS:
        panel_rows = group_rows * (_MAX_ROWS // group_rows)
    else:
        panel_rows = _MAX_ROWS
    panel_rows = min(panel_rows, nrows)
    npanels = -(-nrows // panel_rows)
    across = math.ceil(math.sqrt(npanels)) if npanels > 2 else npanels
    down = -(-npanels // across)

    legend = "cell: (%s) stored at that offset" % ", ".join(names[d] for d in shown)
    if any(kind == "padding" for kind, _ in grid.cells):
        legend += "; hatched: padding"
    if any(kind == "gap" for kind, _ in grid.cells):
        legend += "; blank: unused"
    heading = [title if title is not None else describe(md), legend]
    labels = [None if index is None else ",".join(str(index[d]) for d in shown)
              for _, index in grid.cells]

    # Geometry in inches, from measured text sizes, so that no text
    # overlaps a cell or another text whatever the shape of the layout.
    font = 6.5 if max(len(shown), 2) <= 3 else 5.5
    head_font = 8.0
    pad = 0.08
    cell_w = max(0.42, _text_width([l for l in labels if l], font) + 2 * pad)
    cell_h = 0.3
    label_w = _text_width(["offset", str((nrows - 1) * width)], font) + 2 * pad
    line_h = _line_height(font)
    head_h = len(heading) * _line_height(head_font) + 2 * pad
    gap_x, gap_y = 0.3, line_h + 0.25    # between panels
    panel_w, panel_h = label_w + width * cell_w, panel_rows * cell_h
    grid_w = across * panel_w + (across - 1) * gap_x
    grid_h = down * panel_h + (down - 1) * gap_y
    fig_w = max(grid_w, _text_width(heading, head_font)) + 2 * pad
    top = head_h + line_h + pad          # the first row of cells
    fig_h = top + grid_h + pad
    left = (fig_w - grid_w) / 2

    fig = Figure(figsize=(fig_w, fig_h))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, fig_w)
    ax.set_ylim(fig_h, 0)                # y down, in inches
    ax.set_axis_off()
    palette = [(0.65, 0.81, 0.89), (0.98, 0.75, 0.44), (0.70, 0.87, 0.54),
               (0.99, 0.60, 0.60), (0.79, 0.70, 0.84), (1.00, 1.00, 0.60),
               (0.55, 0.83, 0.78), (0.90, 0.85, 0.70)]

    def origin(row):
        """Top-left corner of a row's first cell."""
        panel, r = divmod(row, panel_rows)
        py, px = divmod(panel, across)
        return (left + px * (panel_w + gap_x) + label_w,
                top + py * (panel_h + gap_y) + r * cell_h)

    ax.text(fig_w / 2, pad, "\n".join(heading), ha="center", va="top",
            fontsize=head_font, linespacing=1.2)
    for off, (kind, index) in enumerate(grid.cells):
        x0, y = origin(off // width)
        x = x0 + (off % width) * cell_w
        if kind == "gap":
            face, hatch, color = "white", None, "0.6"
        elif kind == "padding":
            face, hatch, color = "0.82", "////", "0.35"
        else:
            face, hatch, color = palette[index[color_dim] % len(palette)], None, "black"
        ax.add_patch(Rectangle((x, y), cell_w, cell_h, facecolor=face, edgecolor="0.55",
                               linewidth=0.4, hatch=hatch))
        if index is not None:
            ax.text(x + cell_w / 2, y + cell_h / 2, labels[off], ha="center",
                    va="center", fontsize=font, color=color)
    for panel in range(npanels):
        x0, y = origin(panel * panel_rows)
        ax.text(x0 - pad, y - 0.04, "offset", ha="right", va="bottom",
                fontsize=font, color="0.3")
    for row in range(nrows):
        x0, y = origin(row)
        ax.text(x0 - pad, y + cell_h / 2, str(row * width), ha="right", va="center",
                fontsize=font, color="0.3")
    for panel in range(npanels):      # outline each group's part in each panel
        first, end = panel * panel_rows, min(nrows, (panel + 1) * panel_rows)
        for start in range(first - first % group_rows, end, group_rows):
            a, b = max(start, first), min(start + group_rows, end)
            x0, y = origin(a)
            ax.add_patch(Rectangle((x0, y), width * cell_w, (b - a) * cell_h,
                                   fill=False, edgecolor="black", linewidth=1.6))
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig


def _text_width(lines, size):
    """Width in inches of the widest of ``lines`` at font ``size`` points
    (the default font's outlines; labels of one length measured once)."""
    from matplotlib.textpath import TextPath
    widest, seen = 0.0, set()
    for line in lines:
        key = (len(line), line.count(","), line.isdigit())
        if key in seen and line.replace(",", "").isdigit():
            continue                  # digits are equally wide: measured already
        seen.add(key)
        widest = max(widest, TextPath((0, 0), line, size=size).get_extents().width)
    return widest / 72 * 1.08         # the extents hug the glyphs: a little room


def _line_height(size):
    return size * 1.3 / 72
