"""Images as users hold them: one H x W x C image a call, against OpenCV.

The rows of issue 42: uint8 (and float32) images with 1, 3 or 4 channels,
resized one at a time with ``dnnl.resample(img, (h, w), layout="hwc")``,
against ``cv2.resize(img, (w, h))`` (``INTER_LINEAR`` / ``INTER_NEAREST_EXACT``),
PIL's ``Image.resize`` (``BILINEAR`` / ``NEAREST``; it antialiases when
shrinking, so it does more work there) and PyTorch's ``F.interpolate`` on a
channels-last uint8 tensor, where installed. The last row gives every call
an image of a new size (200..800 a side), as a data loader does.

Each row interleaves the peers sample by sample, so that a change of the
machine's load hits all of them; "ours / cv2" is the median [quartiles] of
the per-sample ratios (< 1: we are faster).

Run: ``python benchmarks/bench_images.py [--repeat 30] [--threads N]``
(``--threads 1`` also sets OpenCV's and PyTorch's thread counts);
``--import-from build/ab/<commit>`` times an older build (ab.py makes them).
"""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_calls import checkout_first  # noqa: E402

if "--import-from" in sys.argv:     # an older build (ab.py's build/ab/<commit>)
    sys.path.insert(0, sys.argv[sys.argv.index("--import-from") + 1])
else:
    checkout_first()   # this checkout's dnnl when it is built in place
import dnnl  # noqa: E402

try:
    import cv2
except ImportError:  # pragma: no cover
    cv2 = None
try:
    from PIL import Image
except ImportError:  # pragma: no cover
    Image = None
try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover
    torch = None

# (name, dtype, (h, w, c) in, (h, w) out, mode)
ROWS = [
    ("u8 480x640x3 -> 1080x1440 linear", np.uint8, (480, 640, 3), (1080, 1440), "linear"),
    ("u8 480x640x3 -> 240x320 linear", np.uint8, (480, 640, 3), (240, 320), "linear"),
    ("u8 480x640x3 -> 1080x1440 nearest", np.uint8, (480, 640, 3), (1080, 1440), "nearest"),
    ("f32 480x640x3 -> 1080x1440 linear", np.float32, (480, 640, 3), (1080, 1440), "linear"),
    ("u8 480x640x1 -> 960x1280 linear", np.uint8, (480, 640, 1), (960, 1280), "linear"),
    ("u8 480x640x4 -> 960x1280 linear", np.uint8, (480, 640, 4), (960, 1280), "linear"),
]


def image(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    return rng.random(shape, dtype=np.float32) * 255


def _has_hwc():
    try:
        dnnl.resample(np.zeros((2, 2, 1), np.uint8), (2, 2), layout="hwc")
        return True
    except dnnl.error:
        return False


def ours(out, mode):
    """dnnl.resample of one image, as the docs of the build under test say:
    ``layout="hwc"``, or before it existed the batch of one, ``img[None]``."""
    if _has_hwc():
        return lambda a: dnnl.resample(a, out, mode=mode, layout="hwc")
    return lambda a: dnnl.resample(a[None], out, mode=mode, layout="nhwc")[0]


def set_threads(n):
    if hasattr(dnnl, "set_num_threads"):
        dnnl.set_num_threads(n)
    else:       # builds before the public setter
        from dnnl._platform import threads
        threads.set_limit(n)


def peers(img, out, mode):
    """The calls of one row: name -> a function of an image."""
    h, w = out
    calls = {"ours": ours(out, mode)}
    if cv2 is not None:
        flag = cv2.INTER_LINEAR if mode == "linear" else cv2.INTER_NEAREST_EXACT
        calls["cv2"] = lambda a: cv2.resize(a, (w, h), interpolation=flag)
    if Image is not None and img.dtype == np.uint8 and img.shape[2] in (1, 3, 4):
        filt = Image.BILINEAR if mode == "linear" else Image.NEAREST

        def pil(a):
            im = Image.fromarray(a[:, :, 0] if a.shape[2] == 1 else a)
            return np.asarray(im.resize((w, h), filt))
        calls["PIL"] = pil
    if torch is not None:
        tmode = "bilinear" if mode == "linear" else "nearest-exact"

        def tch(a):
            t = torch.from_numpy(a).permute(2, 0, 1)[None]
            return F.interpolate(t, size=out, mode=tmode).numpy()
        calls["torch"] = tch
    return calls


def interleaved(calls, images, repeat):
    """Per-peer lists of seconds, the peers run in turn on each sample.

    Each call finds the image in the cache, as a data loader's freshly
    decoded image is: it is read just before (without that, with a new
    image every sample, the first peer would pay for bringing it in and
    leave it cached for the others). The order of the peers turns by one
    each sample, so that each follows every other as often: a peer that
    frees a large block leaves the allocator's heap trimmed, and the next
    one's result then pays its page faults (after PIL's 4.7 MB image, 580
    faults: 1.5 ms on a VM where a fault costs 2.6 us, three times the
    nearest enlargement itself), and a peer's threads may still be spinning
    after its call."""
    times = {k: [] for k in calls}
    for k, f in calls.items():          # warm up: plans, caches, threads
        f(images[0])
    names = list(calls)
    for i in range(repeat):
        a = images[i % len(images)]
        for k in names[i % len(names):] + names[:i % len(names)]:
            f = calls[k]
            a.sum()
            t = time.perf_counter()
            f(a)
            times[k].append(time.perf_counter() - t)
    return times


def report(name, times):
    line = ["%-40s" % name]
    for k, ts in times.items():
        line.append("%s %8.3f ms" % (k, 1e3 * float(np.median(ts))))
    if "cv2" in times:
        r = np.array(times["ours"]) / np.array(times["cv2"])
        q1, q2, q3 = np.percentile(r, [25, 50, 75])
        line.append("ours/cv2 %.2f [%.2f-%.2f]" % (q2, q1, q3))
    print("  ".join(line), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--threads", type=int, default=0, help="0: each library's default")
    ap.add_argument("--import-from", metavar="DIR",
                    help="time the dnnl built in DIR (an older revision) instead")
    args = ap.parse_args(argv)
    if args.threads:
        set_threads(args.threads)
        if cv2 is not None:
            cv2.setNumThreads(args.threads)
        if torch is not None:
            torch.set_num_threads(args.threads)
    print("dnnl %s from %s; cv2 %s; PIL %s; torch %s; threads %s" % (
        dnnl.__version__, os.path.dirname(os.path.dirname(dnnl.__file__)),
        getattr(cv2, "__version__", "absent"),
        getattr(Image, "__version__", "absent") if Image else "absent",
        getattr(torch, "__version__", "absent"), args.threads or "default"))
    for name, dtype, shape, out, mode in ROWS:
        img = image(dtype, shape)
        report(name, interleaved(peers(img, out, mode), [img], args.repeat))
    # a batch of 16 NHWC images: cv2 resizes them in a loop
    batch = image(np.uint8, (16, 224, 224, 3))
    calls = {"ours": lambda a: dnnl.resample(a, (112, 112), layout="nhwc")}
    if cv2 is not None:
        calls["cv2"] = lambda a: [cv2.resize(im, (112, 112)) for im in a]
    report("u8 NHWC 16x224x224x3 -> 112x112", interleaved(calls, [batch], args.repeat))
    # a new size every call, as a data loader sees them
    rng = np.random.default_rng(1)
    images = [image(np.uint8, (int(rng.integers(200, 801)), int(rng.integers(200, 801)), 3),
                    seed=i) for i in range(args.repeat)]
    report("u8 HxWx3 (200..800, new each call) -> 224x224",
           interleaved(peers(images[0], (224, 224), "linear"), images, args.repeat))


if __name__ == "__main__":
    main()
