"""Calls on a busy machine: ours against our own idle one-thread time and
against PyTorch under the same load.

Run from the repository root, after building in place:

    python benchmarks/bench_busy.py                      # every load, every row
    python benchmarks/bench_busy.py --loads idle,spin2 --sizes 8x64x56x56
    python benchmarks/bench_busy.py --quick              # a smoke test

Rows: the array functions as users write them (a new result each call):
``convert`` nchw -> nhwc, ``quantize`` (u8), ``dequantize``, ``resample``
bilinear x2 on NCHW and on NHWC; and prepared primitives (a reorder
nchw -> nhwc and a bilinear x2 NHWC resampling built once, executed each
call), on 1x16x28x28, 1x64x56x56 and 8x64x56x56.

Loads, each started before its rows and stopped after them:

- ``idle``: nothing of ours (other users of the machine are not under our control:
  the header and each load print /proc/loadavg);
- ``spin1``, ``spin2``: one / two processes busy-looping in Python;
- ``lib1``: one process calling this library (``dnnl.convert`` and
  ``dnnl.resample`` on 8x64x56x56) on its own threads, back to back.

For each row and load, ours and PyTorch's same call run in alternating
blocks of ten calls, one call per sample; the table gives medians and 90th percentiles, ours against
the call's own idle one-thread time (measured first, in a process limited to
one thread with ``OMP_NUM_THREADS=1``) and against PyTorch's median under the
same load; "1thr here" is ours limited to one thread under the load (a build
with ``dnnl._platform.threads.set_limit``), what the fallback to the caller alone can
reach at best. The targets (issue 31): median <= 1.5x and p90 <= 3x the idle
one-thread time, and ours <= PyTorch; a row that misses one is marked.
``--import-from DIR`` times another build (``benchmarks/ab.py`` builds
earlier revisions in ``build/ab/<commit>``); ``--json FILE`` keeps the numbers.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SIZES = ("1x16x28x28", "1x64x56x56", "8x64x56x56")
OPS = ("convert", "quantize", "dequantize", "bilinear_nchw", "bilinear_nhwc",
       "prepared_reorder", "prepared_bilinear_nhwc")
LOADS = ("idle", "spin1", "spin2", "lib1")

LIB_LOOP = """
import sys
sys.path.insert(0, {root!r})
import numpy as np, dnnl
x = np.random.default_rng(1).standard_normal((8, 64, 56, 56), dtype=np.float32)
while True:
    dnnl.convert(x, "nhwc")
    dnnl.resample(x, 112)
"""


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def start_load(name, where):
    """The processes of load ``name``, started and warmed up."""
    if name == "idle":
        return []
    if name.startswith("spin"):
        procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                 for _ in range(int(name[4:]))]
    elif name == "lib1":
        procs = [subprocess.Popen([sys.executable, "-c", LIB_LOOP.format(root=where)],
                                  env=dict(os.environ))]
    else:
        raise ValueError(name)
    time.sleep(1.0)
    return procs


def stop_load(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def calls(dnnl, torch, op, dims):
    """(ours, torch's) for one row: callables making the row's result."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(dims, dtype=np.float32)
    n, c, h, w = dims
    xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    scale, zp = 0.05, 7
    t = torch.from_numpy(x) if torch else None
    th = t.contiguous(memory_format=torch.channels_last) if torch else None
    F = None
    if torch:
        import torch.nn.functional as F
    if op == "convert":
        return (lambda: dnnl.convert(x, "nhwc"),
                torch and (lambda: t.contiguous(memory_format=torch.channels_last)))
    if op == "quantize":
        return (lambda: dnnl.quantize(x, scale, zp, dtype="u8"),
                torch and (lambda: torch.quantize_per_tensor(t, scale, zp, torch.quint8)))
    if op == "dequantize":
        q = np.asarray(dnnl.quantize(x, scale, zp, dtype="u8"))
        tq = torch.quantize_per_tensor(t, scale, zp, torch.quint8) if torch else None
        return (lambda: dnnl.dequantize(q, scale, zp),
                torch and (lambda: tq.dequantize()))
    if op == "bilinear_nchw":
        return (lambda: dnnl.resample(x, 2 * h),
                torch and (lambda: F.interpolate(t, size=(2 * h, 2 * w), mode="bilinear",
                                                 align_corners=False)))
    if op == "bilinear_nhwc":
        return (lambda: dnnl.resample(xh, 2 * h, layout="nhwc"),
                torch and (lambda: F.interpolate(th, size=(2 * h, 2 * w), mode="bilinear",
                                                 align_corners=False)))
    sys.path.insert(0, HERE)
    from bench_rows import ours_reorder, ours_resampling
    if op == "prepared_reorder":
        td = torch.empty(dims).contiguous(memory_format=torch.channels_last) if torch else None
        return (ours_reorder(dnnl, list(dims), "nchw", "f32", "nhwc", x),
                torch and (lambda: td.copy_(t)))
    if op == "prepared_bilinear_nhwc":
        return (ours_resampling(dnnl, True, list(dims), (2 * h, 2 * w), "nhwc", x,
                                linear=True),
                torch and (lambda: F.interpolate(th, size=(2 * h, 2 * w), mode="bilinear",
                                                 align_corners=False)))
    raise ValueError(op)


def sample(fns, repeat, block=10):
    """Per-call seconds of each callable: after a warm-up (0.1 s each), in
    blocks of ``block`` calls taken in turn (a peer's threads, still
    polling after its call, then disturb one call of a block, not all)."""
    for fn in fns.values():
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            fn()
    ts = {k: [] for k in fns}
    keys = list(fns)
    for i in range(0, repeat, block):
        for k in keys[i // block % len(keys):] + keys[:i // block % len(keys)]:
            for _ in range(min(block, repeat - i)):
                t0 = time.perf_counter()
                fns[k]()
                ts[k].append(time.perf_counter() - t0)
    return ts


def thread_limit(dnnl):
    """The build's ``set_limit`` (dnnl._platform.threads; dnnl._threads
    before the layer folders), or None."""
    import importlib
    for name in ("dnnl._platform.threads", "dnnl._threads"):
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "set_limit"):
            return mod.set_limit
    return None


def one_thread_call(limit, fn):
    """``fn`` on one thread (dnnl._platform.threads.set_limit), under the same load."""
    def call():
        limit(1)
        try:
            return fn()
        finally:
            limit(0)
    return call


def rows(args):
    return [(op, size) for size in args.sizes for op in args.ops]


def dims_of(size):
    return tuple(int(v) for v in size.split("x"))


def one_thread(args):
    """{row: median seconds} of ours on one thread, idle (run in a child
    process with OMP_NUM_THREADS=1)."""
    env = dict(os.environ, OMP_NUM_THREADS="1")
    cmd = [sys.executable, os.path.abspath(__file__), "--one-thread-json",
           "--import-from", args.import_from, "--repeat", str(args.repeat),
           "--ops", ",".join(args.ops), "--sizes", ",".join(args.sizes)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", default=",".join(LOADS), help=",".join(LOADS))
    ap.add_argument("--ops", default=",".join(OPS), help=",".join(OPS))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--repeat", type=int, default=30, help="calls per contender per row")
    ap.add_argument("--quick", action="store_true", help="3 calls, the smallest size")
    ap.add_argument("--import-from", metavar="DIR",
                    help="the directory whose dnnl/ is timed (default: this checkout when "
                         "it is built in place, else the installed dnnl)")
    ap.add_argument("--json", metavar="FILE", help="write the samples and figures here")
    ap.add_argument("--one-thread-json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.loads = [v for v in args.loads.split(",") if v]
    args.ops = [v for v in args.ops.split(",") if v]
    args.sizes = [v for v in args.sizes.split(",") if v]
    if args.quick:
        args.repeat, args.sizes = 3, [SIZES[0]]
    if args.import_from:
        sys.path.insert(0, os.path.abspath(args.import_from))
    else:
        sys.path.insert(0, HERE)
        from bench_calls import checkout_first
        checkout_first()
    import dnnl
    # the child processes import the same dnnl
    args.import_from = os.path.dirname(os.path.dirname(os.path.abspath(dnnl.__file__)))
    if args.one_thread_json:
        out = {}
        for op, size in rows(args):
            ours, _ = calls(dnnl, None, op, dims_of(size))
            out["%s %s" % (op, size)] = float(np.median(sample({"ours": ours},
                                                                args.repeat)["ours"]))
        print(json.dumps(out))
        return
    try:
        import torch
    except ImportError:
        torch = None
    sys.path.insert(0, HERE)
    from bench_rows import cpu_model
    model, _ = cpu_model()
    print("CPU: %s; %d cores (affinity %d); dnnl for Python %s from %s; PyTorch %s "
          "(%s threads)" % (model, os.cpu_count(), len(os.sched_getaffinity(0)),
                            dnnl.__version__, args.import_from,
                            torch.__version__ if torch else "absent",
                            torch.get_num_threads() if torch else "-"))
    print("load average at start: %s; %d calls per contender per row, one call per sample"
          % (loadavg(), args.repeat))
    base = one_thread(args)
    record = {"cpu": model, "import_from": args.import_from, "one_thread": base, "loads": {}}
    for load in args.loads:
        procs = start_load(load, args.import_from)
        try:
            print()
            print("load %s (load average %s)" % (load, loadavg()))
            limit = thread_limit(dnnl)
            print("%-36s %9s %9s %9s %6s %6s%s %9s %9s %7s %7s" % (
                "row", "1thr idle", "ours med", "ours p90", "/1thr", "p90/1t",
                " 1thr here" if limit else "", "torch med", "torch p90", "/torch", "p90/t"))
            got = {}
            for op, size in rows(args):
                name = "%s %s" % (op, size)
                ours, theirs = calls(dnnl, torch, op, dims_of(size))
                fns = {"ours": ours}
                if limit is not None:
                    fns["ours1"] = one_thread_call(limit, ours)
                if theirs:
                    fns["torch"] = theirs
                ts = sample(fns, args.repeat)
                om, o90 = np.median(ts["ours"]), np.percentile(ts["ours"], 90)
                one = base[name]
                line = "%-36s %9.1f %9.1f %9.1f %6.2f %6.2f" % (
                    name, one * 1e6, om * 1e6, o90 * 1e6, om / one, o90 / one)
                miss = []
                if om / one > 1.5:
                    miss.append("med")
                if o90 / one > 3:
                    miss.append("p90")
                fig = {"ours_median": om, "ours_p90": o90, "one_thread": one}
                if "ours1" in ts:
                    fig.update(ours1_median=np.median(ts["ours1"]),
                               ours1_p90=np.percentile(ts["ours1"], 90))
                    line += " %9.1f" % (fig["ours1_median"] * 1e6)
                if theirs:
                    tm, t90 = np.median(ts["torch"]), np.percentile(ts["torch"], 90)
                    line += " %9.1f %9.1f %7.2f %7.2f" % (tm * 1e6, t90 * 1e6, om / tm,
                                                          o90 / t90)
                    if om > tm:
                        miss.append("torch")
                    fig.update(torch_median=tm, torch_p90=t90)
                print(line + ("  MISS " + ",".join(miss) if miss else ""), flush=True)
                got[name] = dict(fig, samples=ts)
            record["loads"][load] = {"loadavg": loadavg(), "rows": got}
        finally:
            stop_load(procs)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(record, f)


if __name__ == "__main__":
    main()
