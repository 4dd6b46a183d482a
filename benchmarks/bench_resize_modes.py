"""The modes beyond oneDNN's two, against the fastest peer that has each.

f32 8x64x56x56, NCHW and NHWC (a channels-last tensor for PyTorch), x2 up
and /2 down, against ``F.interpolate`` in the same mode; u8 480x640x3 HWC
images against ``cv2.resize`` (INTER_CUBIC, INTER_AREA). Peers interleave
sample by sample; "ours / peer" is the median [quartiles] of the per-sample
ratios (< 1: we are faster).

Run: ``python benchmarks/bench_resize_modes.py [--repeat 10] [--threads N]``.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_calls import checkout_first  # noqa: E402

checkout_first()   # this checkout's dnnl when it is built in place
import dnnl  # noqa: E402
from bench_images import cv2, interleaved, torch  # noqa: E402

# name, dnnl.resample's keywords, F.interpolate's keywords
MODES = [
    ("bicubic", dict(mode="bicubic"), dict(mode="bicubic")),
    ("bilinear align_corners", dict(mode="bilinear", align_corners=True),
     dict(mode="bilinear", align_corners=True)),
    ("bicubic align_corners", dict(mode="bicubic", align_corners=True),
     dict(mode="bicubic", align_corners=True)),
    ("bilinear antialias", dict(mode="bilinear", antialias=True),
     dict(mode="bilinear", antialias=True)),
    ("bicubic antialias", dict(mode="bicubic", antialias=True),
     dict(mode="bicubic", antialias=True)),
    ("nearest (floor)", dict(mode="nearest", coordinate_transformation_mode="asymmetric",
                             nearest_mode="floor"), dict(mode="nearest")),
    ("area", dict(mode="area"), dict(mode="area")),
]


def report(name, times, peer):
    r = np.array(times["ours"]) / np.array(times[peer])
    q1, q2, q3 = np.percentile(r, [25, 50, 75])
    print("%-46s ours %9.3f ms  %s %9.3f ms  ours/%s %.2f [%.2f-%.2f]" % (
        name, 1e3 * np.median(times["ours"]), peer, 1e3 * np.median(times[peer]), peer,
        q2, q1, q3), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--threads", type=int, default=0, help="0: each library's default")
    args = ap.parse_args(argv)
    if args.threads:
        dnnl.set_num_threads(args.threads)
        if cv2 is not None:
            cv2.setNumThreads(args.threads)
        if torch is not None:
            torch.set_num_threads(args.threads)
    x = np.random.default_rng(0).random((8, 64, 56, 56), np.float32)
    if torch is not None:
        import torch.nn.functional as F
        for layout in ("nchw", "nhwc"):
            a = x if layout == "nchw" else np.ascontiguousarray(x.transpose(0, 2, 3, 1))
            t = torch.from_numpy(x)
            if layout == "nhwc":
                t = t.contiguous(memory_format=torch.channels_last)
            for size in ((112, 112), (28, 28)):
                for name, ours, theirs in MODES:
                    if name == "area" and size[0] > 56:
                        continue          # adaptive average pooling: a shrink
                    calls = {"ours": lambda _, kw=ours: dnnl.resample(a, size, layout=layout,
                                                                      **kw),
                             "torch": lambda _, kw=theirs: F.interpolate(t, size=size, **kw)}
                    report("%s %s 56->%d" % (name, layout.upper(), size[0]),
                           interleaved(calls, [a], args.repeat), "torch")
    if cv2 is not None:
        img = np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)
        for name, kw, flag, size in (("cubic", dict(mode="cubic"), cv2.INTER_CUBIC, (960, 1280)),
                                     ("box (INTER_AREA)", dict(mode="box"), cv2.INTER_AREA,
                                      (240, 320))):
            h, w = size
            calls = {"ours": lambda a, kw=kw, size=size: dnnl.resample(a, size, layout="hwc",
                                                                       **kw),
                     "cv2": lambda a, flag=flag, w=w, h=h: cv2.resize(a, (w, h),
                                                                      interpolation=flag)}
            report("u8 480x640x3 -> %dx%d %s" % (h, w, name),
                   interleaved(calls, [img], args.repeat), "cv2")


if __name__ == "__main__":
    main()
