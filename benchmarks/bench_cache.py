"""Primitive cache: the first creation of a primitive against the second.

Run from the repository root:  python benchmarks/bench_cache.py

What oneDNN's cache saves is the work a primitive needs once before it runs
(its JIT compilation, at primitive creation). Here that work is the kernel
plan, built when the primitive is created (the primitive descriptor only
validates). Each problem is timed two ways, best over BENCH_REPEATS rounds,
first (from an empty cache) against second (the same again, a hit):

* ``pd + primitive``: the descriptor and the primitive, as a program that
  makes both again writes it (our lookup runs at descriptor creation);
* ``primitive``: the primitive alone from a descriptor made beforehand,
  the step oneDNN caches and whose verbose line says ``cache_hit``.

The last column is the verbose word of the second creation.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dnnl  # noqa: E402
from dnnl import verbose
from dnnl.primitive import cache as _cache  # noqa: E402
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

    def make_pd():
        return dnnl.reorder.primitive_desc(ENG, src, ENG, dst, attr)
    return make_pd, dnnl.reorder


def resampling(dims, tag, alg, factors):
    src = md(dims, "f32", tag)

    def make_pd():
        return resampling_forward.primitive_desc(ENG, P, alg, factors, src)
    return make_pd, resampling_forward


def resampling_bwd(dims, tag, alg, factors):
    src = md(dims, "f32", tag)
    dst = md(dims[:2] + [int(d * f) for d, f in zip(dims[2:], factors)], "f32", tag)

    def make_pd():
        hint = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, alg,
                                                 src, dst)
        return resampling_backward.primitive_desc(ENG, alg, src, dst, hint)
    return make_pd, resampling_backward


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


def verbose_word(make_pd, prim):
    got = []
    pd = make_pd()
    old_out, old = verbose.set_output(got.append), verbose.set_verbose(2)
    try:
        prim(pd)
    finally:
        verbose.set_verbose(old)
        verbose.set_output(old_out)
    return [x.split(",")[3] for x in got if ",primitive,create:" in x][-1]


def best(fn, number):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def measure(make_pd, prim):
    """Best first and second creation times (us): pd + primitive, then the
    primitive alone."""
    both = [float("inf")] * 2
    alone = [float("inf")] * 2
    for _ in range(REPEATS):
        _cache.clear()
        both[0] = min(both[0], best(lambda: prim(make_pd()), 1))
        both[1] = min(both[1], best(lambda: prim(make_pd()), INNER))
        _cache.clear()
        pd = make_pd()
        alone[0] = min(alone[0], best(lambda: prim(pd), 1))
        pd = make_pd()
        alone[1] = min(alone[1], best(lambda: prim(pd), INNER))
    return [t * 1e6 for t in both + alone]


def main():
    if dnnl.get_primitive_cache_capacity() <= 0:
        dnnl.set_primitive_cache_capacity(1024)
    print("CPU: %s; threads: 1 per creation" % cpu_model())
    print("%-42s %22s   %22s" % ("", "pd + primitive (us)", "primitive (us)"))
    print("%-42s %8s %7s %5s   %8s %7s %5s  %s" % ("problem", "first", "second", "x",
                                                   "first", "second", "x", "verbose"))
    for name, (make_pd, prim) in PROBLEMS:
        f1, s1, f2, s2 = measure(make_pd, prim)
        print("%-42s %8.1f %7.2f %4.0fx   %8.1f %7.2f %4.0fx  %s"
              % (name, f1, s1, f1 / s1, f2, s2, f2 / s2, verbose_word(make_pd, prim)))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
