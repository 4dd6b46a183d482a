"""Resampling speed, side by side in one process, as ratios.

Forward nearest and bilinear, f32, N=8 C=64 56x56 -> 112x112 / 28x28 / 75x75,
NCHW and NHWC, against ``torch.nn.functional.interpolate`` (``nearest-exact``
and ``bilinear`` with ``align_corners=False``: the same coordinate transform
as oneDNN), OpenCV ``cv2.resize`` (``INTER_NEAREST_EXACT`` / ``INTER_LINEAR``,
one call per image on HWC data: NHWC only) and real oneDNN (its default
implementation) when installed; backward bilinear x2 against torch autograd.

Run: ``python benchmarks/bench_resampling.py [--repeat 20] [--threads N]``.
Times are medians in milliseconds; "ratio" = other / ours (> 1: we are faster).
"""
import argparse
import ctypes
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import dnnl  # noqa: E402
from dnnl.resampling import resampling_backward, resampling_forward  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover
    torch = None
try:
    import cv2
except ImportError:  # pragma: no cover
    cv2 = None

A = dnnl.algorithm
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STREAM = dnnl.stream(ENG)
N, C, H, W = 8, 64, 56, 56
OUTS = [(112, 112), (28, 28), (75, 75)]


def median_ms(fn, repeat):
    # two OpenMP runtimes (ours, torch's bundled one) share the cores: let the
    # other's spinning threads go to sleep before measuring
    time.sleep(0.05)
    fn()
    fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return 1e3 * float(np.median(ts))


def ours_fwd(alg, layout, out, x):
    tag = "nchw" if layout == "NCHW" else "nhwc"
    smd = dnnl.memory.desc([N, C, H, W], "f32", tag)
    dmd = dnnl.memory.desc([N, C] + list(out), "f32", tag)
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference, alg, smd,
                                           dmd)
    src, dst = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
    src.from_numpy(x)
    prim = resampling_forward(pd)
    args = {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst}
    return lambda: prim.execute(STREAM, args), dst


def ours_bwd(layout, x_shape, out):
    tag = "nchw" if layout == "NCHW" else "nhwc"
    dsmd = dnnl.memory.desc(list(x_shape), "f32", tag)
    ddmd = dnnl.memory.desc(list(x_shape[:2]) + list(out), "f32", tag)
    hint = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training,
                                             A.resampling_linear, dsmd, ddmd)
    pd = resampling_backward.primitive_desc(ENG, A.resampling_linear, dsmd, ddmd, hint)
    dd, ds = dnnl.memory(ddmd, ENG), dnnl.memory(dsmd, ENG)
    dd.from_numpy(np.random.default_rng(1).standard_normal(ddmd.dims).astype(np.float32))
    prim = resampling_backward(pd)
    args = {dnnl.DNNL_ARG_DIFF_DST: dd, dnnl.DNNL_ARG_DIFF_SRC: ds}
    return lambda: prim.execute(STREAM, args), dd, ds


def torch_fwd(alg, layout, out, x):
    t = torch.from_numpy(x)
    if layout == "NHWC":
        t = t.contiguous(memory_format=torch.channels_last)
    mode = "nearest-exact" if alg == A.resampling_nearest else "bilinear"
    kw = {} if mode == "nearest-exact" else {"align_corners": False}
    return lambda: F.interpolate(t, size=out, mode=mode, **kw)


def cv2_fwd(alg, out, x):
    imgs = [np.ascontiguousarray(x[n].transpose(1, 2, 0)) for n in range(N)]
    interp = cv2.INTER_NEAREST_EXACT if alg == A.resampling_nearest else cv2.INTER_LINEAR
    size = (out[1], out[0])

    def run():
        for im in imgs:
            cv2.resize(im, size, interpolation=interp)
    return run


class RealOneDNN:
    """The installed libdnnl (tests/conformance/oracle.py loads it), default impl."""

    def __init__(self):
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "conformance"))
        import oracle
        self.o = oracle.load()
        self.C = oracle.C

    def fwd(self, alg, layout, out, x):
        o, C = self.o, self.C
        tag = "nchw" if layout == "NCHW" else "nhwc"
        _, s = o._create(("tag", [N, x.shape[1], H, W], "f32", tag))
        _, d = o._create(("tag", [N, x.shape[1]] + list(out), "f32", tag))
        pd = ctypes.c_void_p()
        alg_v = C["dnnl_resampling_nearest" if alg == A.resampling_nearest
                  else "dnnl_resampling_linear"]
        st = o.lib.dnnl_resampling_forward_primitive_desc_create(
            ctypes.byref(pd), o.engine, C["dnnl_forward_inference"], alg_v, None, s, d, None)
        assert st == 0, st
        keep = []
        _, ms, _, _ = o._memory(s, x.tobytes() if layout == "NCHW" else
                                np.ascontiguousarray(x.transpose(0, 2, 3, 1)).tobytes(), keep)
        _, md_, _, _ = o._memory(d, None, keep)
        prim = ctypes.c_void_p()
        assert o.lib.dnnl_primitive_create(ctypes.byref(prim), pd) == 0
        import oracle
        arr = (oracle._ExecArg * 2)(oracle._ExecArg(C["DNNL_ARG_SRC"], ms),
                                    oracle._ExecArg(C["DNNL_ARG_DST"], md_))
        impl = o._pd_impl(pd)

        def run():
            o.lib.dnnl_primitive_execute(prim, o.stream, 2, arr)
            o.lib.dnnl_stream_wait(o.stream)
        run.keep = (keep, prim, pd, s, d, arr)
        return run, impl



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    if torch is not None:
        torch.set_num_threads(args.threads)
    real = None
    try:
        real = RealOneDNN()
        if real.o is None:
            real = None
    except Exception:  # pragma: no cover
        real = None
    x = np.random.default_rng(0).standard_normal((N, C, H, W)).astype(np.float32)
    print("threads: %d (OMP_NUM_THREADS=%s), torch %s, opencv %s, oneDNN %s"
          % (args.threads, os.environ.get("OMP_NUM_THREADS", "unset"),
             torch.__version__ if torch else "-", cv2.__version__ if cv2 else "-",
             ".".join(map(str, real.o.version)) if real else "-"))
    hdr = "%-8s %-5s %-8s %9s %9s %7s %9s %7s %9s %7s" % (
        "alg", "fmt", "out", "ours ms", "torch ms", "ratio", "cv2 ms", "ratio",
        "oneDNN ms", "ratio")
    print(hdr)
    rows = []
    for alg, name in ((A.resampling_nearest, "nearest"), (A.resampling_linear, "bilinear")):
        for layout in ("NCHW", "NHWC"):
            for out in OUTS:
                run, dst = ours_fwd(alg, layout, out, x)
                t_ours = median_ms(run, args.repeat)
                t_torch = t_cv = t_real = float("nan")
                if torch is not None:
                    t_torch = median_ms(torch_fwd(alg, layout, out, x), args.repeat)
                    ref = torch_fwd(alg, layout, out, x)().numpy()
                    err = float(np.abs(ref - dst.to_numpy()).max())
                    assert err < 1e-4, (name, layout, out, err)
                if cv2 is not None and layout == "NHWC":
                    t_cv = median_ms(cv2_fwd(alg, out, x), args.repeat)
                if real is not None:
                    rr, impl = real.fwd(alg, layout, out, x)
                    t_real = median_ms(rr, args.repeat)
                r = (name, layout, "%dx%d" % out, t_ours, t_torch, t_torch / t_ours, t_cv,
                     t_cv / t_ours, t_real, t_real / t_ours)
                rows.append(r)
                print("%-8s %-5s %-8s %9.2f %9.2f %7.2f %9.2f %7.2f %9.2f %7.2f" % r)
    print()
    print("backward bilinear x2 (%dx%d -> %dx%d), ours vs torch autograd:" % (H, W, 2 * H, 2 * W))
    for layout in ("NCHW", "NHWC"):
        run, dd, ds = ours_bwd(layout, (N, C, H, W), (2 * H, 2 * W))
        t_ours = median_ms(run, args.repeat)
        line = "%-5s ours %8.2f ms" % (layout, t_ours)
        if torch is not None:
            t = torch.from_numpy(x.copy())
            g = torch.from_numpy(dd.to_numpy())
            if layout == "NHWC":
                t = t.contiguous(memory_format=torch.channels_last)
                g = g.contiguous(memory_format=torch.channels_last)
            t.requires_grad_(True)
            y = F.interpolate(t, size=(2 * H, 2 * W), mode="bilinear", align_corners=False)

            def tb():
                torch.autograd.grad(y, t, g, retain_graph=True)
            t_torch = median_ms(tb, args.repeat)
            gx = torch.autograd.grad(y, t, g, retain_graph=True)[0].numpy()
            err = float(np.abs(gx - ds.to_numpy()).max())
            assert err < 1e-3, err
            line += "   torch %8.2f ms   torch/ours %.2f   (ours/torch %.2f)" % (
                t_torch, t_torch / t_ours, t_ours / t_torch)
        print(line)


if __name__ == "__main__":
    main()
