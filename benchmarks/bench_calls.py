"""The array functions as users write them, ours against numpy, PyTorch and OpenCV.

Run from the repository root:

    python benchmarks/bench_calls.py                    # every row
    python benchmarks/bench_calls.py --threads 1
    python benchmarks/bench_calls.py --rows 'small.*,big.quantize' --json calls.json
    python benchmarks/bench_calls.py --quick --rows small.convert   # a smoke test

Every call makes a new result, as a user's line does: ``dnnl.convert(x,
"nhwc")`` against ``np.ascontiguousarray(x.transpose(0, 2, 3, 1))``, not a
primitive built in advance (that is ``bench_rows.py``). Rows: each function
on 1x16x7x7 (``small.*``) and on 32x64x56x56 (``big.*``; resampling on
8x64x56x56 to 112x112, its backward from 112x112; the small ones 7x7 to
14x14), and the object API's constructors alone.

All contenders run in one process. A sample times ours and every peer back
to back, in an order that rotates from sample to sample; a contender's time
in a sample is the median over ``--repeats`` batches of calls, a batch
sized to take about ``--batch-ms`` (one call when a call takes longer).
With ``--inputs`` the rows are the array functions on the inputs users
hold, each against the same call on a C-contiguous native numpy array of the
same values (the peer "contiguous"): a strided view (every other channel), a
transposed array (channels last seen as NCHW), a big-endian array, a torch
tensor and a torch ``channels_last`` tensor. Ours / contiguous is what a
view costs over the plain call.

Before each batch of a large row the caches are written over and the threads
left to sleep (``bench_rows.settle``). Each row prints the median over the
samples of ours and of each peer, and ours / best peer as the median and
quartiles of the per-sample ratios. Every peer's result is checked against
ours once before timing. The garbage collector stays on, as in a user's
program.
"""
import argparse
import fnmatch
import importlib.machinery
import json
import os
import platform
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench_rows import cpu_model, isa_in_use, settle  # noqa: E402

OPS = ("convert", "quantize", "dequantize", "resample_linear", "resample_nearest",
       "resample_linear_nhwc", "resample_nearest_nhwc", "resample_backward",
       "from_array", "desc", "memory")
ROWS = tuple("%s.%s" % (size, op) for size in ("small", "big") for op in OPS)
# touch no data: never large, no caches to write over
CONSTRUCTORS = ("from_array", "desc", "memory")
SCALE = 1 / 16

# (shape of x, resampling's input, resampling's output size)
SHAPES = {"small": ((1, 16, 7, 7), (1, 16, 7, 7), (14, 14)),
          "big": ((32, 64, 56, 56), (8, 64, 56, 56), (112, 112))}


def checkout_first():
    """This checkout's dnnl before an installed one, when it is built in place
    (its kernels compiled for this Python): an unbuilt tree would shadow the
    installed package."""
    kernels = os.path.join(ROOT, "dnnl", "_kernels")   # holds the shared utility module
    if any(os.path.exists(os.path.join(kernels, "_cyutility" + suffix))
           for suffix in importlib.machinery.EXTENSION_SUFFIXES):
        sys.path.insert(0, ROOT)


def load_peers(threads):
    """torch and cv2 when installed, set to ``threads``. Not bench_rows.Peers:
    that also loads real oneDNN (TBB, SYCL, ~1 s), which is no peer here."""
    peers = {}
    try:
        import torch
        import torch.nn.functional
        # quantize_per_tensor is deprecated in 2.13 but still the peer users have
        warnings.filterwarnings("ignore", message=".*quantized tensor creation")
        torch.set_num_threads(threads)
        peers["torch"] = torch
    except ImportError:
        pass
    try:
        import cv2
        cv2.setNumThreads(threads)
        peers["cv2"] = cv2
    except ImportError:
        pass
    return peers


class Row:
    """One row: ``ours`` and ``peers`` ({label: (expression, callable)}),
    ``notes`` (peers left out and why, failed checks)."""

    def __init__(self, rid, title, ours, peers, notes, large):
        self.rid, self.title, self.ours, self.peers = rid, title, ours, peers
        self.notes, self.large = notes, large


def _same(notes, label, got, want, tol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape:
        notes.append("CHECK FAILED: %s's shape %s, ours %s" % (label, got.shape, want.shape))
        return
    err = float(np.abs(got - want).max()) if got.size else 0.0
    if err > tol:
        notes.append("CHECK FAILED: %s differs from ours by %.3g" % (label, err))


def build(dnnl, mods, rid, rng):
    """The row ``rid`` (``size.op``), its data made here so that rows not run
    cost nothing."""
    size, op = rid.split(".")
    torch, cv2 = mods.get("torch"), mods.get("cv2")
    shape, rshape, out = SHAPES[size]
    dims = "x".join(map(str, shape))
    peers, notes = {}, []
    if op == "convert":
        x = rng.standard_normal(shape, dtype=np.float32)
        ours = lambda: dnnl.convert(x, "nhwc")  # noqa: E731
        peers["numpy"] = ("np.ascontiguousarray(x.transpose(0, 2, 3, 1))",
                          lambda: np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
        if torch:
            t = torch.from_numpy(x)
            peers["torch"] = ("t.contiguous(memory_format=torch.channels_last)",
                              lambda: t.contiguous(memory_format=torch.channels_last))
        if cv2:
            notes.append("cv2: no 4-D transpose (cv2.transpose swaps the two axes of "
                         "one 2-D image)")
        want = ours().array
        got = {"numpy": lambda r: r,
               "torch": lambda r: r.permute(0, 2, 3, 1).numpy()}
        title = "convert nchw->nhwc %s" % dims
    elif op == "quantize":
        x = rng.standard_normal(shape, dtype=np.float32)
        s = SCALE
        ours = lambda: dnnl.quantize(x, s, dtype="s8")  # noqa: E731
        peers["numpy"] = ("np.clip(np.rint(x / s), -128, 127).astype(np.int8)",
                          lambda: np.clip(np.rint(x / s), -128, 127).astype(np.int8))
        if torch:
            t = torch.from_numpy(x)
            peers["torch"] = ("torch.quantize_per_tensor(t, s, 0, torch.qint8).int_repr()",
                              lambda: torch.quantize_per_tensor(t, s, 0,
                                                                torch.qint8).int_repr())
        want = ours()
        # torch multiplies by 1/s: a tie may round the other way
        got = {"numpy": lambda r: r, "torch": lambda r: r.numpy()}
        title = "quantize f32->s8 %s" % dims
    elif op == "dequantize":
        q = rng.integers(-128, 128, shape, dtype=np.int8)
        s = SCALE
        ours = lambda: dnnl.dequantize(q, s)  # noqa: E731
        peers["numpy"] = ("q.astype(np.float32) * s", lambda: q.astype(np.float32) * s)
        if torch:
            qt = torch.from_numpy(q)
            # the quantized tensor is made once (from q * s, exact for s = 1/16):
            # only the dequantization is timed
            tq = torch.quantize_per_tensor(qt.float() * s, s, 0, torch.qint8)
            assert torch.equal(tq.int_repr(), qt)
            peers["torch"] = ("torch.dequantize(t_q)  (t_q: qint8, made once)",
                              lambda: torch.dequantize(tq))
            peers["torch f*s"] = ("q_t.float() * s", lambda: qt.float() * s)
        want = ours()
        got = {"numpy": lambda r: r, "torch": lambda r: r.numpy(),
               "torch f*s": lambda r: r.numpy()}
        title = "dequantize s8->f32 %s" % dims
    elif op.startswith("resample_") and op != "resample_backward":
        shape = rshape
        dims = "x".join(map(str, shape))
        mode = "nearest" if "nearest" in op else "linear"
        nhwc = op.endswith("_nhwc")
        x = rng.standard_normal(shape, dtype=np.float32)
        if nhwc:
            x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
            ours = lambda: dnnl.resample(x, out, mode=mode, layout="nhwc")  # noqa: E731
        else:
            ours = lambda: dnnl.resample(x, out, mode=mode)  # noqa: E731
        tmode = "nearest-exact" if mode == "nearest" else "bilinear"
        if torch:
            F = torch.nn.functional
            t = torch.from_numpy(x)
            if nhwc:
                # the same memory seen as a channels_last NCHW tensor
                t = t.permute(0, 3, 1, 2)
            kw = {} if mode == "nearest" else {"align_corners": False}
            peers["torch"] = ("F.interpolate(t%s, size, mode=%r%s)"
                              % (" (channels_last)" if nhwc else "", tmode,
                                 "" if mode == "nearest" else ", align_corners=False"),
                              lambda: F.interpolate(t, size=out, mode=tmode, **kw))
        if cv2 and nhwc:
            inter = cv2.INTER_NEAREST_EXACT if mode == "nearest" else cv2.INTER_LINEAR
            wh = out[::-1]
            n = x.shape[0]
            if n == 1:
                img = x[0]
                peers["cv2"] = ("cv2.resize(x[0], size, interpolation=%s)[None]"
                                % ("INTER_NEAREST_EXACT" if mode == "nearest"
                                   else "INTER_LINEAR"),
                                lambda: cv2.resize(img, wh, interpolation=inter)[None])
            else:
                def cv_batch():
                    # one new batch, each image resized into its slice
                    r = np.empty((n,) + out + (x.shape[3],), np.float32)
                    for i in range(n):
                        cv2.resize(x[i], wh, dst=r[i], interpolation=inter)
                    return r
                peers["cv2"] = ("cv2.resize(x[i], size, dst=out[i]) for each of %d images"
                                % n, cv_batch)
        elif cv2:
            notes.append("cv2: resizes HxWxC images; NCHW would be one call per plane "
                         "(N*C calls), not the same operation")
        want = ours()
        back = (lambda r: r.permute(0, 2, 3, 1).numpy()) if nhwc else (lambda r: r.numpy())
        got = {"torch": back, "cv2": lambda r: r}
        title = "resample %s %s%s->%dx%d" % (mode, "NHWC " if nhwc else "", dims, *out)
    elif op == "resample_backward":
        n, c, h, w = rshape
        g = rng.standard_normal((n, c) + out, dtype=np.float32)
        ours = lambda: dnnl.resample_backward(g, (h, w))  # noqa: E731
        if torch:
            aten = torch.ops.aten.upsample_bilinear2d_backward
            tg = torch.from_numpy(g)
            peers["torch"] = ("aten.upsample_bilinear2d_backward(g, out, in, False)",
                              lambda: aten(tg, list(out), [n, c, h, w], False))
        if cv2:
            notes.append("cv2: no resize backward")
        want = ours()
        got = {"torch": lambda r: r.numpy()}
        title = "resample_backward linear %dx%dx%dx%d->%dx%d" % (n, c, *out, h, w)
    else:
        x = rng.standard_normal(shape, dtype=np.float32)
        if op == "from_array":
            ours = lambda: dnnl.memory.from_array(x)  # noqa: E731
            title = "memory.from_array(x) %s" % dims
        elif op == "desc":
            d = list(shape)
            ours = lambda: dnnl.memory.desc(d, "f32", "nchw")  # noqa: E731
            title = "memory.desc(dims, 'f32', 'nchw') %s" % dims
        else:
            eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
            md = dnnl.memory.desc(list(shape), "f32", "nchw")
            ours = lambda: dnnl.memory(md, eng, x)  # noqa: E731
            title = "memory(md, eng, x) %s" % dims
        peers["numpy"] = ("x.view()", lambda: x.view())
        if torch:
            peers["torch"] = ("torch.from_numpy(x)", lambda: torch.from_numpy(x))
        want = got = None
    if want is not None:
        for label, (_, fn) in peers.items():
            # quantize may round a tie the other way (torch multiplies by 1/s)
            tol = 1 if op == "quantize" else 1e-4 * max(1.0, float(np.abs(want).max()))
            _same(notes, label, got[label](fn()), want, tol)
    return Row(rid, title, ours, peers, notes, large=size == "big" and op not in CONSTRUCTORS)


INPUT_OPS = ("convert", "quantize", "dequantize", "resample")
INPUT_KINDS = ("strided", "transposed", "bigendian", "torch", "torch_cl")
INPUT_ROWS = tuple("%s.%s.%s" % (size, op, kind) for size in ("small", "big")
                   for op in INPUT_OPS for kind in INPUT_KINDS)


def input_view(kind, x, torch):
    """``x``'s values held as ``kind``: (the input, or None when torch is
    absent)."""
    if kind == "strided":       # every other channel of an array twice as deep
        wide = np.repeat(x, 2, axis=1)
        return wide[:, ::2]
    if kind == "transposed":    # NHWC memory seen as NCHW
        return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    if kind == "bigendian":
        return x.astype(x.dtype.newbyteorder(">"))
    if torch is None:
        return None
    t = torch.from_numpy(np.ascontiguousarray(x))
    return t if kind == "torch" else t.contiguous(memory_format=torch.channels_last)


def build_input(dnnl, mods, rid, rng):
    """The row ``size.op.kind``: ours on the input ``kind``, the peer the same
    call on a C-contiguous copy."""
    size, op, kind = rid.split(".")
    shape = SHAPES[size][1 if op == "resample" else 0]
    if op == "dequantize":
        x = rng.integers(-128, 128, shape, dtype=np.int8)
        if kind == "bigendian":
            x = x.astype(np.int32)
    else:
        x = rng.standard_normal(shape, dtype=np.float32)
    call = {"convert": lambda a: dnnl.convert(a, "nhwc"),
            "quantize": lambda a: dnnl.quantize(a, SCALE),
            "dequantize": lambda a: dnnl.dequantize(a, SCALE),
            "resample": lambda a: dnnl.resample(a, SHAPES[size][2])}[op]
    view = input_view(kind, x, mods.get("torch"))
    dims = "x".join(map(str, shape))
    title = "%s %s %s" % (op, kind, dims)
    if view is None:
        return Row(rid, title, None, {}, ["torch absent"], large=size == "big")
    plain = np.ascontiguousarray(x)
    got, want = np.asarray(call(view)), np.asarray(call(plain))
    notes = [] if np.array_equal(got, want, equal_nan=True) \
        else ["CHECK FAILED: the view's result differs"]
    peers = {"contiguous": ("the same call on a C-contiguous copy", lambda: call(plain))}
    return Row(rid, title, lambda: call(view), peers, notes, large=size == "big")


def batch_size(fn, target):
    """Calls per batch so that a batch takes about ``target`` seconds."""
    fn()
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t = time.perf_counter() - t0
        if t >= target / 4 or n >= 1 << 20:
            return max(1, int(round(n * target / max(t, 1e-9))))
        n *= 4


def measure(fns, samples, repeats, target, large):
    """{name: [seconds per call, one per sample]}, contenders interleaved in
    rotating order within each sample."""
    batches = {k: batch_size(fn, target) for k, fn in fns.items()}
    names = list(fns)
    ts = {k: [] for k in names}
    for i in range(samples):
        r = i % len(names)
        for k in names[r:] + names[:r]:
            fn, n = fns[k], batches[k]
            # a contender's batches run back to back: the first takes the
            # handover (the last one's OpenMP threads still spinning, caches),
            # the median of them does not
            reps = []
            for _ in range(repeats):
                if large:
                    settle()
                t0 = time.perf_counter()
                for _ in range(n):
                    fn()
                reps.append((time.perf_counter() - t0) / n)
            ts[k].append(float(np.median(reps)))
    return ts


def fmt(t):
    if t is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if t >= scale or unit == "us":
            v = t / scale
            return "%.*f %s" % (2 if v >= 0.1 else 3 if v >= 0.01 else 4, v, unit) \
                if v < 10 else "%.*f %s" % (1 if v < 100 else 0, v, unit)


def select(patterns, rows=ROWS):
    """The ``rows`` matching any comma-separated glob (``small.*``,
    ``*resample*``); a pattern without a wildcard matches as a substring."""
    pats = [p if any(c in p for c in "*?[") else "*%s*" % p
            for p in patterns.split(",") if p]
    return [r for r in rows if any(fnmatch.fnmatchcase(r, p) for p in pats)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int,
                    help="threads for ours (OMP_NUM_THREADS, set before dnnl is imported), "
                         "torch.set_num_threads and cv2.setNumThreads (default: all cores)")
    ap.add_argument("--quick", action="store_true",
                    help="3 samples of short batches: a smoke test, not a measurement")
    ap.add_argument("--rows", default="*",
                    help="comma-separated globs over the row ids (default: all): "
                         + ", ".join(ROWS))
    ap.add_argument("--samples", type=int, help="samples per row (default 21 small, 9 big)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="batches per contender per sample, their median taken")
    ap.add_argument("--batch-ms", type=float, default=2.0,
                    help="the time one batch of calls should take")
    ap.add_argument("--json", metavar="FILE", help="also write every sample here")
    ap.add_argument("--inputs", action="store_true",
                    help="the array functions on views, big-endian arrays and torch tensors "
                         "against the same call on a contiguous numpy array (rows: "
                         + ", ".join(INPUT_ROWS) + ")")
    args = ap.parse_args()
    rows = INPUT_ROWS if args.inputs else ROWS
    names = select(args.rows, rows)
    if not names:
        ap.error("no row matches %r; rows: %s" % (args.rows, ", ".join(rows)))
    if args.threads:
        os.environ["OMP_NUM_THREADS"] = str(args.threads)
    checkout_first()
    import dnnl
    threads = args.threads or os.cpu_count() or 1
    mods = load_peers(threads)
    if args.quick:
        args.samples, args.repeats, args.batch_ms = args.samples or 3, 1, 0.5
    model, ext = cpu_model()
    torch, cv2 = mods.get("torch"), mods.get("cv2")
    versions = "numpy %s, PyTorch %s, OpenCV %s" % (
        np.__version__, torch.__version__ if torch else "absent (skipped)",
        cv2.__version__ if cv2 else "absent (skipped)")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print("CPU: %s (%s); %d cores; load average %s" % (
        model, ext, os.cpu_count(), "%.1f" % load[0] if load else "?"))
    print("ISA in use: %s" % isa_in_use(dnnl))
    here = os.path.dirname(os.path.abspath(dnnl.__file__)) == os.path.join(ROOT, "dnnl")
    print("dnnl for Python %s (%s); %s; Python %s; threads: %d" % (
        dnnl.__version__, "this checkout" if here else "installed", versions,
        platform.python_version(), threads))
    print("per call: median over samples; ours/best: median [quartiles] of per-sample "
          "ratios; repeats %d, batches of ~%g ms%s" % (
              args.repeats, args.batch_ms, ", QUICK (not a measurement)" if args.quick else ""))
    print()
    rng = np.random.default_rng(0)
    cols = ["numpy"] + (["torch"] if torch else []) + (["torch f*s"] if torch and any(
        r.endswith(".dequantize") for r in names) else []) + (["cv2"] if cv2 else [])
    if args.inputs:
        cols = ["contiguous"]
    head = "%-44s %9s" % ("row", "ours") + "".join(" %9s" % c for c in cols)
    print(head + "   ours/best [q1, q3]  best")
    results, legend = [], {}
    for rid in names:
        row = (build_input if args.inputs else build)(dnnl, mods, rid, rng)
        if row.ours is None:
            print("%-44s   (%s)" % (row.title, "; ".join(row.notes)))
            continue
        samples = args.samples or (9 if rid.startswith("big.") else 21)
        fns = {"ours": row.ours}
        fns.update((k, fn) for k, (_, fn) in row.peers.items())
        ts = measure(fns, samples, args.repeats, args.batch_ms * 1e-3, row.large)
        med = {k: float(np.median(v)) for k, v in ts.items()}
        line = "%-44s %9s" % (row.title, fmt(med["ours"]))
        line += "".join(" %9s" % fmt(med.get(c)) for c in cols)
        res = {"row": rid, "title": row.title, "samples": ts, "median": med,
               "peers": {k: e for k, (e, _) in row.peers.items()}, "notes": row.notes}
        if row.peers:
            best = min(row.peers, key=med.get)
            ratios = np.array(ts["ours"]) / np.array(ts[best])
            q1, q2, q3 = (float(v) for v in np.percentile(ratios, [25, 50, 75]))
            line += "   %6.2f [%.2f, %.2f]  %s" % (q2, q1, q3, best)
            res.update(best=best, ratio={"median": q2, "q1": q1, "q3": q3})
        else:
            line += "   (no peer installed)"
        print(line)
        for note in row.notes:
            print("%-44s   %s" % ("", note))
        sys.stdout.flush()
        for k, (e, _) in row.peers.items():
            legend.setdefault(rid.split(".")[1], {})[k] = e
        results.append(res)
    print()
    print("peers:")
    for op, peers in legend.items():
        print("  %s: %s" % (op, "; ".join("%s = %s" % kv for kv in peers.items())))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": model, "threads": threads, "versions": versions,
                       "dnnl": dnnl.__version__, "quick": args.quick, "rows": results},
                      f, indent=1)


if __name__ == "__main__":
    main()
