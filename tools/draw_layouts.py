"""Regenerate the layout pictures of docs/memory_formats.md (docs/images/).

    python tools/draw_layouts.py

Needs matplotlib (pip install ".[draw]").
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import dnnl  # noqa: E402

# (file, dims, tag, dim names): small shapes, so every label can be read
LAYOUTS = [
    ("layout_nchw.png", [2, 3, 2, 3], "nchw", "nchw"),
    ("layout_nhwc.png", [2, 3, 2, 3], "nhwc", "nchw"),
    ("layout_nChw8c.png", [1, 17, 2, 2], "nChw8c", "nchw"),
    ("layout_OIhw16i16o.png", [17, 18, 1, 1], "OIhw16i16o", "oihw"),
]


def main():
    out = os.path.join(ROOT, "docs", "images")
    os.makedirs(out, exist_ok=True)
    for name, dims, tag, names in LAYOUTS:
        md = dnnl.memory.desc(dims, dnnl.memory.data_type.f32, tag)
        path = os.path.join(out, name)
        dnnl.draw_layout(md, path, dim_names=names,
                         title="%s: %s" % (tag, repr(md)[1:-1]))
        print(path)


if __name__ == "__main__":
    main()
