"""Regenerate the picture of docs/images.md (docs/images/resize_hwc.png): a
small H x W x C image and its resizes by dnnl.resample, linear and nearest.

    python tools/draw_resize.py

Needs matplotlib (pip install ".[draw]").
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import dnnl  # noqa: E402

SIZE = (24, 32)     # (height, width), as dnnl.resample takes it


def image():
    """A 6 x 8 x 3 u8 image: a red ramp along the width, a green one along
    the height, and a blue checker, so each resize's rule shows."""
    h, w = np.mgrid[0:6, 0:8]
    return np.stack([w * 255 // 7, h * 255 // 5, ((h + w) % 2) * 255], -1).astype(np.uint8)


def main():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    img = image()
    panels = [("img: 6 x 8 x 3 u8", img),
              ('resample(img, %s, layout="hwc")' % (SIZE,),
               dnnl.resample(img, SIZE, layout="hwc")),
              ('..., mode="nearest"', dnnl.resample(img, SIZE, layout="hwc", mode="nearest"))]
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    for ax, (title, a) in zip(axes, panels):
        ax.imshow(a, interpolation="nearest")
        ax.set_title(title, fontsize=9, family="monospace")
        ax.set_xlabel("W = %d" % a.shape[1], fontsize=8)
        ax.set_ylabel("H = %d" % a.shape[0], fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    path = os.path.join(ROOT, "docs", "images", "resize_hwc.png")
    fig.savefig(path, dpi=100)
    print(path)


if __name__ == "__main__":
    main()
