"""The rows of the speed table, ours against the best peer, in one process.

Run from the repository root:

    python benchmarks/bench_rows.py                  # every row
    python benchmarks/bench_rows.py --max-isa avx2   # the kernels oneDNN's cap allows
    python benchmarks/bench_rows.py --rows small,quant_u8 --repeat 31

Each row times ours and every installed peer (numpy, PyTorch, OpenCV, real
oneDNN through ctypes) on the same data, round-robin (one run of each in
turn, so that load on a shared machine hits them alike; before each run of a
large row the caches are written over and the threads left to sleep, so no
contender inherits the one before it's cached data), and reports the
best sample (``--median``: the median). Times are also given as a multiple
of a one-thread ``memcpy`` (``np.copyto``) of the larger of the row's input
and output. The last column is ours / best peer per round (the two samples
of a round ran back to back): median [first-third quartile]. The header names the CPU, its vector extensions and the ISA
level our kernels run at. ``--max-isa`` sets ``ONEDNN_MAX_CPU_ISA`` before
``dnnl`` is imported (oneDNN's names: sse41, avx2, avx512_core, ...).
"""
import argparse
import ctypes
import json
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

ROWS = ("small", "quant_u8", "quant_s8", "bwd_nchw", "bwd_nhwc", "bf16", "s8_channel",
        "nearest_nchw", "nearest_nhwc", "linear_up_nhwc", "linear_down_nhwc", "linear_75_nhwc",
        "dram")
# the output sizes of the linear forward rows (8x64x56x56 NHWC)
LINEAR_OUTS = {"linear_up_nhwc": (112, 112), "linear_down_nhwc": (28, 28),
               "linear_75_nhwc": (75, 75)}


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return platform.processor() or platform.machine(), ""
    model = next((ln.split(":", 1)[1].strip() for ln in info.splitlines()
                  if ln.startswith("model name")), platform.machine())
    flags = next((ln.split(":", 1)[1].split() for ln in info.splitlines()
                  if ln.startswith("flags")), [])
    ext = [f for f in ("sse4_1", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512_bf16")
           if f in flags]
    return model, " ".join(ext)


def isa_in_use(dnnl):
    """The ISA our kernels run at, as the library reports it."""
    get = getattr(dnnl, "get_effective_cpu_isa", None)
    if get is None:
        return "the build's -march (this version has no runtime dispatch)"
    text = getattr(get(), "name", "?")
    isa = getattr(dnnl, "_isa", None)
    if isa is not None and hasattr(isa, "kernel_levels"):
        levels = isa.kernel_levels()
        text += "; kernel build: %s" % (levels[0] or "baseline x86-64") if levels else ""
    if isa is not None and hasattr(isa, "isa_info"):
        text += " (%s)" % isa.isa_info()
    return text


# Written over before each sample of a large row: more than any L3 here
# (made at the first sample, not at import: ab.py imports this module).
_EVICT = []


def settle():
    """Before a sample of a large row: the caches written over, so that no
    contender finds its input where the one before it left it (in a fixed
    round-robin order, the one after ours read our freshly loaded source
    from L3), and the threads asleep (several OpenMP runtimes, ours,
    PyTorch's, oneDNN's, share the cores: the last one's spinning threads
    must not steal them)."""
    if not _EVICT:
        _EVICT.append(np.ones(16 << 20, np.float32))
    np.add(_EVICT[0], 1.0, out=_EVICT[0])
    time.sleep(0.003)


def time_ms(fns, repeat, inner=1, stat=min, samples=None):
    """Time of each callable in ms (``stat`` of the samples: best or median),
    round-robin over the contenders; ``inner`` calls per sample (for calls of
    a few microseconds). ``samples``, a dict, receives each callable's
    samples in seconds, in round order (for per-round ratios)."""
    for fn in fns.values():
        fn()
        fn()
    ts = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            if inner == 1:
                settle()
            t0 = time.perf_counter()
            for _ in range(inner):
                fn()
            ts[k].append((time.perf_counter() - t0) / inner)
    if samples is not None:
        samples.update(ts)
    return {k: 1e3 * float(stat(v)) for k, v in ts.items()}


def round_ratios(a, b):
    """The per-round ratios ``a[i] / b[i]`` of two interleaved sample lists:
    (median, first quartile, third quartile)."""
    r = np.asarray(a) / np.asarray(b)
    return tuple(float(v) for v in np.percentile(r, [50, 25, 75]))


class Peers:
    """The installed peers, loaded once."""

    def __init__(self, threads, load=True):
        self.torch = self.cv2 = self.oracle = self.o = None
        if load:
            self._load(threads)

    def _load(self, threads):
        try:
            import torch
            torch.set_num_threads(threads)
            self.torch = torch
        except ImportError:
            self.torch = None
        try:
            import cv2
            cv2.setNumThreads(threads)
            self.cv2 = cv2
        except ImportError:
            self.cv2 = None
        sys.path.insert(0, os.path.join(ROOT, "tests", "conformance"))
        try:
            import oracle
            self.oracle = oracle
            self.o = oracle.load()
        except ImportError:
            self.oracle = self.o = None
        finally:
            sys.path.pop(0)

    def versions(self):
        o = self.o
        if self.o is None:
            return "numpy %s, PyTorch %s, OpenCV %s, oneDNN absent" % (
                np.__version__, self.torch.__version__ if self.torch else "absent",
                self.cv2.__version__ if self.cv2 else "absent")
        return "numpy %s, PyTorch %s, OpenCV %s, oneDNN %s" % (
            np.__version__, self.torch.__version__ if self.torch else "absent",
            self.cv2.__version__ if self.cv2 else "absent",
            "%d.%d.%d" % o.version)

    def _run(self, pd, pairs, keep):
        o, oracle, lib = self.o, self.oracle, self.o.lib
        prim = ctypes.c_void_p()
        assert lib.dnnl_primitive_create(ctypes.byref(prim), pd) == 0
        arr = (oracle._ExecArg * len(pairs))(*[oracle._ExecArg(a, m) for a, m in pairs])

        def run():
            lib.dnnl_primitive_execute(prim, o.stream, len(pairs), arr)
            lib.dnnl_stream_wait(o.stream)
        run.keep = (keep, prim, pd, arr)
        return run

    def onednn_reorder(self, dims, sdt, stag, ddt, dtag, scales=None, zero_points=None):
        """Real oneDNN's reorder (``scales`` / ``zero_points``: {arg: (mask, values, dt)})."""
        if self.o is None:
            return None
        o, C, lib = self.o, self.oracle.C, self.o.lib
        keep, mems, mds, args = [], [], [], []
        _, smd = o._create(("tag", dims, sdt, stag))
        _, dmd = o._create(("tag", dims, ddt, dtag))
        st, attr, _ = o._attr(scales, zero_points, None, keep, mems, mds, args)
        assert st == 0, st
        pd = ctypes.c_void_p()
        st = lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), smd, o.engine, dmd,
                                                    o.engine, attr)
        assert st == 0, st
        _, src, _, _ = o._memory(smd, None, keep)
        _, dst, _, _ = o._memory(dmd, None, keep)
        pairs = [(C["DNNL_ARG_FROM"], src), (C["DNNL_ARG_TO"], dst)] + args
        return self._run(pd, pairs, keep)

    def onednn_resampling(self, fwd, dims, out, tag, linear=False):
        """Real oneDNN's linear backward (``fwd`` False) or forward (nearest, or
        linear with ``linear``)."""
        if self.o is None:
            return None
        o, C, lib = self.o, self.oracle.C, self.o.lib
        keep = []
        _, s = o._create(("tag", dims, "f32", tag))
        _, d = o._create(("tag", dims[:2] + list(out), "f32", tag))
        pd = ctypes.c_void_p()
        if fwd:
            st = lib.dnnl_resampling_forward_primitive_desc_create(
                ctypes.byref(pd), o.engine, C["dnnl_forward_inference"],
                C["dnnl_resampling_linear" if linear else "dnnl_resampling_nearest"], None,
                s, d, None)
            pairs_args = ("DNNL_ARG_SRC", s), ("DNNL_ARG_DST", d)
        else:
            hint = ctypes.c_void_p()
            st = lib.dnnl_resampling_forward_primitive_desc_create(
                ctypes.byref(hint), o.engine, C["dnnl_forward_training"],
                C["dnnl_resampling_linear"], None, s, d, None)
            assert st == 0, st
            keep.append(hint)
            st = lib.dnnl_resampling_backward_primitive_desc_create(
                ctypes.byref(pd), o.engine, C["dnnl_resampling_linear"], None, s, d, hint,
                None)
            pairs_args = ("DNNL_ARG_DIFF_DST", d), ("DNNL_ARG_DIFF_SRC", s)
        assert st == 0, st
        pairs = []
        for name, md in pairs_args:
            _, mem, _, _ = o._memory(md, None, keep)
            pairs.append((C[name], mem))
        return self._run(pd, pairs, keep)


def ours_reorder(dnnl, dims, stag, ddt, dtag, x, scale_mask=None, scales=None, zp=None):
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    src = dnnl.memory(dnnl.memory.desc(dims, "f32", stag), eng)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(dims, ddt, dtag), eng)
    attr = dnnl.primitive_attr()
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    if scales is not None:
        attr.set_scales_mask(dnnl.DNNL_ARG_TO, scale_mask)
        args[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_TO] = dnnl.memory(
            dnnl.memory.desc([scales.size], "f32", "a"), eng, scales)
    if zp is not None:
        attr.set_zero_points_mask(dnnl.DNNL_ARG_TO, 0)
        args[dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_TO] = dnnl.memory(
            dnnl.memory.desc([1], "s32", "a"), eng, np.array([zp], np.int32))
    prim = dnnl.reorder(src, dst, attr)
    run = lambda: prim.execute(strm, args)  # noqa: E731
    run.dst = dst
    return run


def ours_resampling(dnnl, fwd, dims, out, tag, x, linear=False):
    """Forward (nearest, or linear with ``linear``) or backward linear."""
    from dnnl.resampling import resampling_backward, resampling_forward
    A = dnnl.algorithm
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    smd = dnnl.memory.desc(dims, "f32", tag)
    dmd = dnnl.memory.desc(dims[:2] + list(out), "f32", tag)
    if fwd:
        pd = resampling_forward.primitive_desc(
            eng, dnnl.prop_kind.forward_inference,
            A.resampling_linear if linear else A.resampling_nearest, smd, dmd)
        src, dst = dnnl.memory(smd, eng), dnnl.memory(dmd, eng)
        src.from_numpy(x)
        prim = resampling_forward(pd)
        args = {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst}
    else:
        hint = resampling_forward.primitive_desc(eng, dnnl.prop_kind.forward_training,
                                                 A.resampling_linear, smd, dmd)
        pd = resampling_backward.primitive_desc(eng, A.resampling_linear, smd, dmd, hint)
        dd, ds = dnnl.memory(dmd, eng), dnnl.memory(smd, eng)
        dd.from_numpy(x)
        prim = resampling_backward(pd)
        args = {dnnl.DNNL_ARG_DIFF_DST: dd, dnnl.DNNL_ARG_DIFF_SRC: ds}
        dst = ds
    run = lambda: prim.execute(strm, args)  # noqa: E731
    run.dst = dst
    return run


def nchw_to_nhwc_peers(P, x, dims, torch):
    """numpy, PyTorch and real oneDNN doing ours' nchw -> nhwc of ``x``."""
    peers = {"numpy": lambda: np.ascontiguousarray(x.transpose(0, 2, 3, 1))}
    if torch:
        tx = torch.from_numpy(x)
        peers["torch"] = lambda: tx.contiguous(memory_format=torch.channels_last)
    peers["oneDNN"] = P.onednn_reorder(dims, "f32", "nchw", "f32", "nhwc")
    return peers


def rows(dnnl, P, names):
    """Yield (row name, bytes, inner calls, ours, {peer: fn}), built lazily."""
    torch, cv2 = P.torch, P.cv2
    rng = np.random.default_rng(0)
    big = [32, 64, 56, 56]
    if "small" in names:
        dims = [1, 16, 7, 7]
        x = rng.standard_normal(dims, dtype=np.float32)
        x2 = x.reshape(16, 49)
        peers = nchw_to_nhwc_peers(P, x, dims, torch)
        if cv2:
            peers["cv2.transpose"] = lambda: cv2.transpose(x2)
        yield ("1x16x7x7 nchw->nhwc, one call", x.nbytes, 2000,
               ours_reorder(dnnl, dims, "nchw", "f32", "nhwc", x), peers)
    x = rng.standard_normal(big, dtype=np.float32) if set(names) - {"small", "dram"} else None
    for dt, qt, name in (("u8", "quint8", "quant_u8"), ("s8", "qint8", "quant_s8")):
        if name not in names:
            continue
        scale, zp = 0.05, 7
        ours = ours_reorder(dnnl, big, "nchw", dt, "nchw", x, 0,
                            np.array([scale], np.float32), zp)
        peers = {}
        if torch:
            tx = torch.from_numpy(x)
            q = getattr(torch, qt)
            peers["torch.quantize_per_tensor"] = lambda q=q: torch.quantize_per_tensor(
                tx, scale, zp, q)
        peers["oneDNN"] = P.onednn_reorder(
            big, "f32", "nchw", dt, "nchw",
            scales={P.oracle.C["DNNL_ARG_DST"]: (0, [scale], "f32")} if P.o else None,
            zero_points={P.oracle.C["DNNL_ARG_DST"]: (0, [zp], "s32")} if P.o else None)
        yield "f32->%s, per-tensor scale and zero point" % dt, x.nbytes, 1, ours, peers
    for layout in ("nchw", "nhwc"):
        if "bwd_" + layout not in names:
            continue
        dims, out = [8, 64, 56, 56], (112, 112)
        g = rng.standard_normal(dims[:2] + list(out), dtype=np.float32)
        ours = ours_resampling(dnnl, False, dims, out, layout, g)
        peers = {}
        if torch:
            tg = torch.from_numpy(g)
            if layout == "nhwc":
                tg = tg.contiguous(memory_format=torch.channels_last)
            aten = torch.ops.aten.upsample_bilinear2d_backward
            peers["aten.upsample_bilinear2d_backward"] = lambda tg=tg: aten(
                tg, list(out), dims, False)
            ref = aten(tg, list(out), dims, False).numpy()
            err = float(np.abs(ref - (ours(), ours.dst.to_numpy())[1]).max())
            assert err < 1e-3, err
        peers["oneDNN"] = P.onednn_resampling(False, dims, out, layout)
        yield ("bilinear backward x2, %s 8x64x56x56" % layout.upper(), g.nbytes, 1, ours,
               peers)
    if "bf16" in names:
        peers = {}
        if torch:
            tx = torch.from_numpy(x)
            tbf = torch.empty(big, dtype=torch.bfloat16)
            peers["torch copy_"] = lambda: tbf.copy_(tx)
        peers["oneDNN"] = P.onednn_reorder(big, "f32", "nchw", "bf16", "nchw")
        yield ("f32->bf16", x.nbytes, 1, ours_reorder(dnnl, big, "nchw", "bf16", "nchw", x),
               peers)
    if "s8_channel" in names:
        C = big[1]
        scales = np.linspace(0.02, 0.08, C, dtype=np.float32)
        peers = {}
        if torch:
            tx = torch.from_numpy(x)
            ts, tz = torch.from_numpy(scales).double(), torch.zeros(C, dtype=torch.int64)
            peers["torch.quantize_per_channel"] = lambda: torch.quantize_per_channel(
                tx, ts, tz, 1, torch.qint8)
        peers["oneDNN"] = P.onednn_reorder(
            big, "f32", "nchw", "s8", "nchw",
            scales={P.oracle.C["DNNL_ARG_DST"]: (2, list(scales), "f32")} if P.o else None)
        yield ("f32->s8, per-channel scales", x.nbytes, 1,
               ours_reorder(dnnl, big, "nchw", "s8", "nchw", x, 2, scales), peers)
    for layout in ("nchw", "nhwc"):
        if "nearest_" + layout not in names:
            continue
        dims, out = [8, 64, 56, 56], (112, 112)
        xs = np.ascontiguousarray(x[:8])
        ours = ours_resampling(dnnl, True, dims, out, layout, xs)
        peers = {}
        if torch:
            import torch.nn.functional as F
            t = torch.from_numpy(xs)
            if layout == "nhwc":
                t = t.contiguous(memory_format=torch.channels_last)
            peers["torch interpolate"] = lambda t=t: F.interpolate(t, size=out,
                                                                   mode="nearest-exact")
        if cv2 and layout == "nhwc":
            imgs = [np.ascontiguousarray(xs[n].transpose(1, 2, 0)) for n in range(8)]
            # each image into its slice of one NHWC batch, as the others make
            # a batch (a fresh image each time would be written to the same
            # few cache-resident megabytes, freed and allocated again)
            batch = np.empty((8,) + out + (64,), np.float32)

            def cv_run(imgs=imgs, batch=batch):
                for im, o in zip(imgs, batch):
                    cv2.resize(im, out[::-1], dst=o, interpolation=cv2.INTER_NEAREST_EXACT)
            peers["cv2.resize"] = cv_run
        peers["oneDNN"] = P.onednn_resampling(True, dims, out, layout)
        yield ("nearest x2, %s 8x64x56x56" % layout.upper(), xs.nbytes * 4, 1, ours, peers)
    for name, out in LINEAR_OUTS.items():
        if name not in names:
            continue
        dims = [8, 64, 56, 56]
        xs = np.ascontiguousarray(x[:8])
        ours = ours_resampling(dnnl, True, dims, out, "nhwc", xs, linear=True)
        peers = {}
        if torch:
            import torch.nn.functional as F
            t = torch.from_numpy(xs).contiguous(memory_format=torch.channels_last)
            peers["torch interpolate"] = lambda t=t, out=out: F.interpolate(
                t, size=out, mode="bilinear", align_corners=False)
            ref = peers["torch interpolate"]().numpy()
            err = float(np.abs(ref - (ours(), ours.dst.to_numpy())[1]).max())
            assert err < 1e-4, err
        if cv2:
            imgs = [np.ascontiguousarray(xs[n].transpose(1, 2, 0)) for n in range(8)]
            batch = np.empty((8,) + out + (64,), np.float32)

            def cv_run(imgs=imgs, batch=batch, out=out):
                for im, o in zip(imgs, batch):
                    cv2.resize(im, out[::-1], dst=o, interpolation=cv2.INTER_LINEAR)
            peers["cv2.resize"] = cv_run
        peers["oneDNN"] = P.onednn_resampling(True, dims, out, "nhwc", linear=True)
        yield ("bilinear %s, NHWC 8x64x56x56" % ("x%d" % (out[0] // 56) if out[0] % 56 == 0
                                                 else "x1/2" if out[0] == 28 else
                                                 "-> %dx%d" % out),
               max(xs.nbytes, xs.nbytes // 56 // 56 * out[0] * out[1]), 1, ours, peers)
    if "dram" in names:
        dims = [64, 64, 128, 128]   # 256 MiB of f32
        xd = np.random.default_rng(1).random(dims, dtype=np.float32)
        peers = nchw_to_nhwc_peers(P, xd, dims, torch)
        yield ("nchw->nhwc 256 MiB (DRAM-bound)", xd.nbytes, 1,
               ours_reorder(dnnl, dims, "nchw", "f32", "nhwc", xd), peers)


def ours_samples(dnnl, names, repeat):
    """{row: [seconds per call, one per sample]} of ours alone, each sample
    taken as in the table: after the caches are written over (as the peers
    of a round do) and the threads have gone to sleep."""
    out = {}
    for name, _, inner, ours, _ in rows(dnnl, Peers(1, load=False), names):
        ours()
        ours()
        ts = []
        for _ in range(repeat):
            if inner == 1:
                settle()
            t0 = time.perf_counter()
            for _ in range(inner):
                ours()
            ts.append((time.perf_counter() - t0) / inner)
        out[name] = ts
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-isa", help="ONEDNN_MAX_CPU_ISA for this run (sse41, avx2, ...)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, help="OMP_NUM_THREADS for ours and every peer "
                    "but oneDNN, whose TBB ignores it: with fewer threads than cores, "
                    "oneDNN is shown as 'oneDNN (all cores)' and not taken as best peer")
    ap.add_argument("--median", action="store_true",
                    help="report medians (default: the best of the samples, the least "
                         "disturbed by other load on a shared machine)")
    ap.add_argument("--rows", default=",".join(ROWS), help="comma-separated: " + ",".join(ROWS))
    ap.add_argument("--import-from", metavar="DIR", default=ROOT,
                    help="the directory whose dnnl/ is timed (default: this checkout, "
                         "built in place); benchmarks/ab.py passes another build")
    ap.add_argument("--samples-json", action="store_true",
                    help="ours only, no peers: print {row: [seconds per call...]} as JSON "
                         "(for benchmarks/ab.py)")
    args = ap.parse_args()
    names = [r for r in args.rows.split(",") if r]
    bad = set(names) - set(ROWS)
    if bad:
        ap.error("unknown rows: %s" % ", ".join(sorted(bad)))
    if args.max_isa:
        os.environ["ONEDNN_MAX_CPU_ISA"] = args.max_isa
    if args.threads:
        os.environ["OMP_NUM_THREADS"] = str(args.threads)
        # oneDNN's wheel threads with TBB, which ignores OMP_NUM_THREADS and
        # honours only the affinity mask (`taskset`); oneDNN 3.13.2 crashes in
        # nearest NCHW resampling when pinned to one CPU, so we do not pin
    sys.path.insert(0, os.path.abspath(args.import_from))
    import dnnl
    threads = args.threads or os.cpu_count() or 1
    if args.samples_json:
        print(json.dumps(ours_samples(dnnl, names, args.repeat)))
        return
    P = Peers(threads)
    model, ext = cpu_model()
    print("CPU: %s (%s); %d cores" % (model, ext, os.cpu_count()))
    print("ISA in use: %s%s" % (isa_in_use(dnnl), "; ONEDNN_MAX_CPU_ISA=%s" % args.max_isa
                                 if args.max_isa else ""))
    print("dnnl for Python %s; %s; threads: %d; %s of %d, round-robin"
          % (dnnl.__version__, P.versions(), threads, "median" if args.median else "best",
             args.repeat))
    print()
    print("%-42s %10s %7s  %-34s %10s %7s %7s  %s" % (
        "row", "ours", "xcopy", "best peer", "peer", "xcopy", "ours/peer",
        "per round: median [quartiles]"))
    for name, nbytes, inner, ours, peers in rows(dnnl, P, names):
        a = np.ones(nbytes // 4, np.float32)
        b = np.empty_like(a)
        fns = {"memcpy": lambda: np.copyto(b, a), "ours": ours}
        fns.update((k, f) for k, f in peers.items() if f is not None)
        raw = {}
        t = time_ms(fns, args.repeat, inner, np.median if args.median else min, raw)
        copy, t_ours = t.pop("memcpy"), t.pop("ours")
        # oneDNN's TBB takes every core whatever --threads says (and pinning
        # crashes it): below all cores it is shown, not counted as a peer
        fair = {k: v for k, v in t.items() if k != "oneDNN" or threads >= (os.cpu_count() or 1)}
        if len(fair) < len(t):
            t["oneDNN (all cores)"] = t.pop("oneDNN")
        best = min(fair, key=fair.get) if fair else None
        unit, scale = ("us", 1e3) if inner > 1 else ("ms", 1.0)
        if best is None:
            print("%-42s %7.3f %s %6.2fx" % (name, t_ours * scale, unit, t_ours / copy))
            continue
        # ours / best peer within each round: the two ran back to back, so
        # load that comes and goes hits both samples of a ratio alike
        med, q1, q3 = round_ratios(raw["ours"], raw[best])
        print("%-42s %7.3f %s %6.2fx  %-34s %7.3f %s %6.2fx %7.2f  %.2f [%.2f-%.2f]"
              % (name, t_ours * scale, unit, t_ours / copy, best, t[best] * scale, unit,
                 t[best] / copy, t_ours / t[best], med, q1, q3))
        others = ["%s %.3f" % (k, v * scale) for k, v in t.items() if k != best]
        if others:
            print("%-42s   others (%s): %s" % ("", unit, "; ".join(others)))


if __name__ == "__main__":
    main()
