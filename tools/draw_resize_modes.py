"""Regenerate the pictures of docs/resize_modes.md:

- docs/images/resize_antialias.png: a test pattern of fine rings shrunk
  4x, linear without and with antialiasing, box and area;
- docs/images/resize_kernels.png: each mode's kernel, the weight an input
  pixel gets at each distance (upscaling: one impulse resized 8x; shrinking
  4x: one output's weights over the inputs).

    python tools/draw_resize_modes.py

Needs matplotlib (pip install ".[draw]"). Every value drawn is computed by
dnnl.resample.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import dnnl  # noqa: E402

OUT = os.path.join(ROOT, "docs", "images")


def rings(n=256):
    """A zone plate: rings whose frequency grows outwards, so that shrinking
    without a low-pass filter shows moire."""
    y, x = (np.mgrid[0:n, 0:n] - n / 2) / n
    return (0.5 + 0.5 * np.cos(np.pi * n * 0.9 * (x * x + y * y))).astype(np.float32)


SHRINK = [("linear", dict(mode="linear")),
          ("linear, antialias", dict(mode="linear", antialias=True)),
          ("box", dict(mode="box")),
          ("area", dict(mode="area"))]

UP = [("nearest", dict(mode="nearest")),
      ("linear", dict(mode="linear")),
      ("cubic, A = -0.75", dict(mode="cubic")),
      ("cubic, A = -0.5", dict(mode="cubic", cubic_coeff_a=-0.5))]

DOWN = [("linear", dict(mode="linear")),
        ("linear, antialias", dict(mode="linear", antialias=True)),
        ("cubic, antialias", dict(mode="cubic", antialias=True)),
        ("box", dict(mode="box"))]


def upscale_kernel(kw, n=16, factor=8):
    """The response to one impulse in the middle of n inputs, resized to
    n * factor outputs; x: the outputs' positions in input pixels."""
    line = np.zeros((1, 1, n), np.float32)
    line[0, 0, n // 2] = 1
    y = dnnl.resample(line, n * factor, **kw)[0, 0]
    x = (np.arange(n * factor) + 0.5) / factor - 0.5 - n // 2
    return x, y


def downscale_weights(kw, n=64, factor=4):
    """The weights of the middle output over the inputs when n inputs
    shrink to n / factor: the output's response to each input's impulse."""
    o = n // factor // 2
    w = np.empty(n, np.float32)
    for i in range(n):
        line = np.zeros((1, 1, n), np.float32)
        line[0, 0, i] = 1
        w[i] = dnnl.resample(line, n // factor, **kw)[0, 0, o]
    centre = (o + 0.5) * factor - 0.5
    return (np.arange(n) - centre) / factor, w


def main():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    src = rings()
    fig, axes = plt.subplots(1, 1 + len(SHRINK), figsize=(3 * (1 + len(SHRINK)), 3.3))
    axes[0].imshow(src, cmap="gray", vmin=0, vmax=1, interpolation="nearest")
    axes[0].set_title("256 x 256")
    for ax, (name, kw) in zip(axes[1:], SHRINK):
        ax.imshow(dnnl.resample(src[None, None], (64, 64), **kw)[0, 0], cmap="gray",
                  vmin=0, vmax=1, interpolation="nearest")
        ax.set_title("64 x 64, " + name)
    for ax in axes:
        ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, "resize_antialias.png"), dpi=80)

    fig, (up, down) = plt.subplots(1, 2, figsize=(10, 3.6))
    for name, kw in UP:
        x, y = upscale_kernel(kw)
        up.plot(x, y, label=name)
    up.set_xlim(-3, 3)
    up.set_title("upscaling x8: the weight at each distance")
    up.set_xlabel("distance (input pixels)")
    for name, kw in DOWN:
        x, w = downscale_weights(kw)
        down.step(x, w, where="mid", label=name)
    down.set_xlim(-3, 3)
    down.set_title("shrinking /4: one output's weights")
    down.set_xlabel("distance (output pixels)")
    for ax in (up, down):
        ax.axhline(0, color="0.7", lw=0.8)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, "resize_kernels.png"), dpi=80)


if __name__ == "__main__":
    main()
