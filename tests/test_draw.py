"""dnnl.draw_layout: the cells say which logical index sits at each offset."""
import sys

import numpy as np
import pytest

import dnnl
from dnnl.draw import layout_grid

pytestmark = pytest.mark.model


@pytest.mark.parametrize("dims, tag", [
    ([2, 3, 2, 3], "nchw"), ([2, 3, 2, 3], "nhwc"), ([1, 17, 2, 2], "nChw8c"),
    ([17, 18, 1, 1], "OIhw16i16o"), ([3, 5], "ba"), ([2, 19], "AB8a4b")])
def test_cells_match_element_offsets(dims, tag):
    md = dnnl.memory.desc(dims, "f32", tag)
    grid = layout_grid(md)
    elements = {off: idx for off, (kind, idx) in enumerate(grid.cells) if kind == "element"}
    # every logical element at exactly the offset oneDNN gives it
    assert len(elements) == md.nelems
    for off, idx in elements.items():
        assert md.element_offset(idx) == off
    padding = sorted(off for off, (kind, _) in enumerate(grid.cells) if kind == "padding")
    from dnnl._model.offsets import padding_offsets
    assert padding == sorted(padding_offsets(md).tolist())
    assert len(grid.cells) == md.get_size() // 4
    assert grid.group % grid.row_width == 0


def test_strided_gaps_are_blank():
    md = dnnl.memory.desc([3, 4], "f32", [8, 1])     # row pitch 8
    grid = layout_grid(md)
    assert grid.row_width == 8
    assert [k for k, _ in grid.cells[:8]] == ["element"] * 4 + ["gap"] * 4


def test_bad_input_is_a_dnnl_error():
    with pytest.raises(dnnl.error):
        layout_grid("nchw")
    with pytest.raises(dnnl.error):
        layout_grid(dnnl.memory.desc([64, 64, 3, 3], "f32", "nchw"))   # too large


def test_missing_matplotlib_is_a_clear_import_error(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match="needs matplotlib"):
        dnnl.draw_layout(dnnl.memory.desc([1, 3, 2, 2], "f32", "nchw"))


def test_draws_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "nChw8c.png"
    mem = dnnl.memory(dnnl.memory.desc([1, 17, 2, 2], "f32", "nChw8c"),
                      dnnl.engine(dnnl.engine.kind.cpu, 0))
    fig = dnnl.draw_layout(mem, path, dim_names="nchw")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert {"16,0,0", "0,1,1", "88"} <= texts      # (c, h, w) labels; row offsets


# ------------------------------------------------------------------ no text over cells
def _sample_tags():
    """Tags of rank 2 to 5 as tools/draw_layouts.py draws them (f32, small
    dims): per (rank, number of inner blocks), the one with the most cells up
    to 512 and the one with the fewest, plus a tall, a wide and a 3-level
    blocked layout (OIhw4i16o4i). Drawing all 755 layouts takes minutes."""
    from dnnl._model.tags import layout
    classes = {}
    for tag in dnnl.memory.format_tag:
        try:
            ndims, _, blks, _ = layout(tag)
        except dnnl.error:
            continue
        if not 2 <= ndims <= 5:
            continue
        md = dnnl.memory.desc([3, 5, 2, 3, 2][:ndims], "f32", tag)
        if md.get_size() // 4 > 512:
            md = dnnl.memory.desc([1] * ndims, "f32", tag)
        if md.get_size() // 4 <= 512:
            classes.setdefault((ndims, len(blks)), {})[md] = md.get_size()
    sample = {}
    for mds in classes.values():
        by_size = sorted(mds, key=lambda m: (mds[m], str(m)))
        sample.update(dict.fromkeys([by_size[0], by_size[-1]]))
    sample.update(dict.fromkeys([
        dnnl.memory.desc([40, 3], "f32", "ab"),                 # tall
        dnnl.memory.desc([2, 64], "f32", "ab"),                 # wide
        dnnl.memory.desc([1, 300], "f32", "ab"),                # one long row
        dnnl.memory.desc([2, 37], "f32", "ab"),                 # prime rows
        dnnl.memory.desc([389], "f32", "a"),                    # prime, long
        dnnl.memory.desc([3, 8], "f32", [40, 1]),               # gaps
        dnnl.memory.desc([16, 20, 1, 1], "f32", "OIhw4i16o4i"),  # 3 levels of blocks
    ]))
    return list(sample)


def test_no_text_over_cells():
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    checked = 0
    for md in _sample_tags():
        fig = dnnl.draw_layout(md)
        renderer = FigureCanvasAgg(fig).get_renderer()
        ax = fig.axes[0]
        cells = np.array([p.get_window_extent(renderer).extents
                          for p in ax.patches if p.get_fill()])
        texts = [(t.get_text(), t.get_window_extent(renderer).extents) for t in ax.texts]
        assert len(cells) == len(layout_grid(md).cells)
        boxes = np.array([b for _, b in texts])
        tol = 0.5       # pixels: antialiasing, not overlap

        def overlap(a, b):
            """[len(a), len(b)]: boxes (x0, y0, x1, y1) that share area."""
            return ((np.minimum(a[:, None, 2], b[None, :, 2])
                     - np.maximum(a[:, None, 0], b[None, :, 0]) > tol)
                    & (np.minimum(a[:, None, 3], b[None, :, 3])
                       - np.maximum(a[:, None, 1], b[None, :, 1]) > tol))

        hits = overlap(boxes, cells)
        for (text, box), row in zip(texts, hits):
            n = int(row.sum())
            assert n <= 1, "%s: %r lies over %d cells" % (md, text, n)
            if n == 1:       # a cell's own label, inside it
                cell = cells[row][0]
                assert (box[:2] >= cell[:2] - tol).all() and (box[2:] <= cell[2:] + tol).all(), \
                    "%s: label %r leaves its cell" % (md, text)
        free = boxes[~hits.any(axis=1)]            # title, legend, offsets
        clash = overlap(free, free)
        np.fill_diagonal(clash, False)
        assert not clash.any(), "%s: texts overlap" % md
        assert (free[:, :2] >= -tol).all() and (free[:, 2] <= fig.bbox.width + tol).all() \
            and (free[:, 3] <= fig.bbox.height + tol).all(), "%s: text outside the figure" % md
        checked += 1
    assert checked >= 40
