"""The array functions over a sweep of sizes, ours / best peer at each size.

Run from the repository root, after building in place:

    python benchmarks/bench_sweep.py                     # every op, every size
    python benchmarks/bench_sweep.py --ops convert --sizes 1x16x7x7,8x64x56x56
    python benchmarks/bench_sweep.py --quick             # a smoke test

``convert`` nchw -> nhwc, ``quantize`` f32 -> s8, ``resample`` bilinear x2
on NCHW and on NHWC, each call making a new result, as users write them,
against numpy, PyTorch and OpenCV (the rows and peers of
``bench_calls.py``, whose sampling this uses: contenders interleaved in a
rotating order, each sample the median of a few batches), from 1x16x7x7 to
64x64x112x112. Bilinear x2 stops at 16x64x112x112 (its output, 822 MB at
64x64x112x112 for each contender and call, would make the sweep take most of
an hour on two cores); ``--sizes`` takes any.
"""
import argparse
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_calls as BC  # noqa: E402
from bench_rows import cpu_model, isa_in_use  # noqa: E402

SIZES = ("1x16x7x7", "1x16x28x28", "1x64x56x56", "8x64x56x56", "32x64x56x56",
         "16x64x112x112", "64x64x112x112")
OPS = {"convert": "convert", "quantize": "quantize", "bilinear_nchw": "resample_linear",
       "bilinear_nhwc": "resample_linear_nhwc"}
#: the largest size a resampling row runs at, in elements
RESAMPLE_MAX = 16 * 64 * 112 * 112


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", default=",".join(OPS), help=",".join(OPS))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--threads", type=int, help="threads for ours and the peers")
    ap.add_argument("--quick", action="store_true", help="a smoke test, not a measurement")
    args = ap.parse_args()
    if args.threads:
        os.environ["OMP_NUM_THREADS"] = str(args.threads)
    BC.checkout_first()
    import dnnl
    threads = args.threads or os.cpu_count() or 1
    mods = BC.load_peers(threads)
    model, ext = cpu_model()
    load = os.getloadavg()
    print("CPU: %s (%s); %d cores; load average %.1f" % (model, ext, os.cpu_count(), load[0]))
    print("ISA in use: %s; threads %d" % (isa_in_use(dnnl), threads))
    print("per call: median over samples; ours / best peer: median [quartiles] of "
          "per-sample ratios")
    print()
    print("%-14s %-15s %10s %10s %-6s %s" % ("op", "size", "ours", "best peer", "peer",
                                             "ours/best [q1, q3]"))
    rng = np.random.default_rng(0)
    sizes = [s for s in args.sizes.split(",") if s]
    ops = [o for o in args.ops.split(",") if o]
    for op in ops:
        for size in sizes:
            shape = tuple(int(v) for v in size.split("x"))
            if op.startswith("bilinear") and math.prod(shape) > RESAMPLE_MAX:
                print("%-14s %-15s   (left out: above %s for resampling)" % (
                    op, size, "16x64x112x112"))
                continue
            key = "s" + size
            BC.SHAPES[key] = (shape, shape, (2 * shape[2], 2 * shape[3]))
            row = BC.build(dnnl, mods, "%s.%s" % (key, OPS[op]), rng)
            nbytes = math.prod(shape) * 4
            fns = {"ours": row.ours}
            fns.update((k, fn) for k, (_, fn) in row.peers.items())
            big = nbytes > 8 << 20
            samples = 3 if args.quick else (7 if big else 15)
            ts = BC.measure(fns, samples, 1 if args.quick else 3,
                            (0.5 if args.quick else 2.0) * 1e-3, big)
            med = {k: float(np.median(v)) for k, v in ts.items()}
            if not row.peers:       # (PyTorch and OpenCV absent: nothing to compare)
                print("%-14s %-15s %10s   (no peer installed)" % (
                    op, size, BC.fmt(med["ours"])), flush=True)
                del BC.SHAPES[key]
                continue
            best = min(row.peers, key=med.get)
            r = np.array(ts["ours"]) / np.array(ts[best])
            q1, q2, q3 = (float(v) for v in np.percentile(r, [25, 50, 75]))
            print("%-14s %-15s %10s %10s %-6s %.2f [%.2f, %.2f]%s" % (
                op, size, BC.fmt(med["ours"]), BC.fmt(med[best]), best, q2, q1, q3,
                "  " + "; ".join(n for n in row.notes if "CHECK" in n)
                if any("CHECK" in n for n in row.notes) else ""), flush=True)
            del BC.SHAPES[key]


if __name__ == "__main__":
    main()
