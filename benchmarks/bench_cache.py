"""Primitive cache: the first creation of a primitive against the second.

Run from the repository root:  python benchmarks/bench_cache.py

What oneDNN's cache saves is the work a primitive needs once before it runs
(its JIT compilation). Here that work is the kernel plan, built at the first
execution (creation itself only validates). So each problem is timed two
ways, best over BENCH_REPEATS rounds:

* ``create``: primitive descriptor + primitive, from an empty cache (first)
  and again (second, a cache hit);
* ``create+plan``: the same plus building the plan the first execution
  needs (``plan_for`` / ``_plan``, without running the kernel): first from an
  empty cache, second a hit whose plan is the cached one.

The last column is the verbose word of the second creation.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dnnl  # noqa: E402
from dnnl import _cache, verbose  # noqa: E402
from dnnl.resampling import resampling_backward, resampling_forward  # noqa: E402

REPEATS = int(os.environ.get("BENCH_REPEATS", "7"))
INNER = 200
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
P = dnnl.prop_kind.forward_inference
LINEAR, NEAREST = dnnl.algorithm.resampling_linear, dnnl.algorithm.resampling_nearest


def md(dims, dt, tag):
    return dnnl.memory.desc(dims, dt, tag)


# Descriptors and attributes are made once, as a program holds them; what is
# timed is the creation of the primitive descriptor and the primitive.
def reorder(dims, sdt, stag, ddt, dtag, scales=False):
    attr = dnnl.primitive_attr()
    if scales:
        attr.set_scales_mask(dnnl.DNNL_ARG_DST, 2)
    src, dst = md(dims, sdt, stag), md(dims, ddt, dtag)

    def make():
        return dnnl.reorder(dnnl.reorder.primitive_desc(ENG, src, ENG, dst, attr))
    return make, lambda p: p.get_primitive_desc().plan_for(src, dst)


def resampling(dims, tag, alg, factors):
    src = md(dims, "f32", tag)

    def make():
        return resampling_forward(resampling_forward.primitive_desc(
            ENG, P, alg, factors, src))
    return make, lambda p: p.get_primitive_desc()._plan


def resampling_bwd(dims, tag, alg, factors):
    src = md(dims, "f32", tag)
    dst = md(dims[:2] + [int(d * f) for d, f in zip(dims[2:], factors)], "f32", tag)

    def make():
        hint = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, alg,
                                                 src, dst)
        return resampling_backward(resampling_backward.primitive_desc(
            ENG, alg, src, dst, hint))
    return make, lambda p: p.get_primitive_desc()._plan


PROBLEMS = [
    ("reorder f32 nchw->nChw16c 2x17x3x4", reorder([2, 17, 3, 4], "f32", "nchw", "f32",
                                                   "nChw16c")),
    ("reorder f32 nchw->nhwc 8x64x56x56", reorder([8, 64, 56, 56], "f32", "nchw", "f32",
                                                  "nhwc")),
    ("reorder f32->s8 OIhw16i16o, scales", reorder([256, 128, 3, 3], "f32", "oihw", "s8",
                                                   "OIhw16i16o", scales=True)),
    ("resampling linear nchw 8x64x56x56 x2", resampling([8, 64, 56, 56], "nchw", LINEAR,
                                                        [2.0, 2.0])),
    ("resampling nearest nhwc 8x64x56x56 x2", resampling([8, 64, 56, 56], "nhwc", NEAREST,
                                                         [2.0, 2.0])),
    ("resampling bwd linear nChw16c 2x32x28x28", resampling_bwd([2, 32, 28, 28], "nChw16c",
                                                                LINEAR, [2.0, 2.0])),
    ("reorder f32->s8 OIhw16i16o 1024x1024x3x3", reorder([1024, 1024, 3, 3], "f32", "oihw",
                                                         "s8", "OIhw16i16o", scales=True)),
    ("resampling linear ncdhw 2x16x32x64x64 x2", resampling([2, 16, 32, 64, 64], "ncdhw",
                                                            LINEAR, [2.0, 2.0, 2.0])),
]


def verbose_word(make):
    got = []
    old_out, old = verbose.set_output(got.append), verbose.set_verbose(2)
    try:
        make()
    finally:
        verbose.set_verbose(old)
        verbose.set_output(old_out)
    return [x.split(",")[3] for x in got if ",primitive,create:" in x][-1]


def measure(make, plan):
    """Best first and second times (us) of ``make`` and of ``plan(make())``."""
    best = [float("inf")] * 4
    for _ in range(REPEATS):
        for i, fn in enumerate((make, lambda: plan(make()))):
            _cache.clear()
            t0 = time.perf_counter()
            fn()
            best[2 * i] = min(best[2 * i], time.perf_counter() - t0)
            t0 = time.perf_counter()
            for _ in range(INNER):
                fn()
            best[2 * i + 1] = min(best[2 * i + 1], (time.perf_counter() - t0) / INNER)
    return [t * 1e6 for t in best]


def main():
    if dnnl.get_primitive_cache_capacity() <= 0:
        dnnl.set_primitive_cache_capacity(1024)
    print("%-42s %21s %27s  %s" % ("", "create (us)", "create+plan (us)", ""))
    print("%-42s %8s %8s %4s %9s %8s %7s  %s" % ("problem", "first", "second", "x",
                                                 "first", "second", "x", "verbose"))
    for name, (make, plan) in PROBLEMS:
        c1, c2, p1, p2 = measure(make, plan)
        print("%-42s %8.1f %8.2f %3.0fx %9.1f %8.2f %6.0fx  %s"
              % (name, c1, c2, c1 / c2, p1, p2, p1 / p2, verbose_word(make)))


if __name__ == "__main__":
    main()
