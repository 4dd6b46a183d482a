"""dnnl.draw_layout: the cells say which logical index sits at each offset."""
import sys

import numpy as np
import pytest

import dnnl
from dnnl.draw import layout_grid


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
    from dnnl._kernels.offsets import padding_offsets
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
