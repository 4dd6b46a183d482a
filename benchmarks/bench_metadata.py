"""Metadata costs: creation time and peak memory of descriptors, memories and
primitive descriptors with one huge dimension, and the speed of to_numpy /
from_numpy against a numpy copy of the same bytes.

Run from the repository root:  python benchmarks/bench_metadata.py [case ...]

Every case runs in a fresh interpreter, so that its peak memory is its own:
``traced`` is tracemalloc's peak over the timed call (numpy reports its
buffers to tracemalloc), ``rss`` the growth of the process's peak resident
set. Times are the best of a few runs (one for slow cases, and for the
``first_execute`` cases, whose first call builds the plan later calls reuse);
"vs numpy copy" divides by ``ndarray.copy()`` of as many bytes, allocation
included as in ``to_numpy``. Set BENCH_REPEATS to change the run count.
"""
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import dnnl  # noqa: E402

ENG = None
REPEATS = int(os.environ.get("BENCH_REPEATS", "7"))
MiB = 2 ** 20


def _eng():
    global ENG
    if ENG is None:
        ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
    return ENG


def _md(dims, tag, dt="f32"):
    return dnnl.memory.desc(dims, dt, tag)


# -- cases: each returns (setup, timed call, reference call or None) -------------
def case_desc_2e28x8():
    return None, lambda: _md([2 ** 28, 8], "ab"), None


def case_memory_none_2e28x8():
    md = _md([2 ** 28, 8], "ab")
    return None, lambda: dnnl.memory(md, _eng(), dnnl.memory.DNNL_MEMORY_NONE), None


def case_memory_userptr_2e26x2():
    md = _md([2 ** 26, 2], "ab")
    buf = np.empty(2 ** 27, np.float32)
    address = buf.ctypes.data
    return buf, lambda: dnnl.memory(md, _eng(), address), None


def case_memory_userptr_nChw16c_sub():
    parent = _md([1, 17, 2 ** 12, 2 ** 10], "nChw16c")
    md = parent.submemory_desc([1, 1, 2 ** 12, 2 ** 10], [0, 16, 0, 0])
    buf = np.empty(dnnl.memory(parent, _eng(), dnnl.memory.DNNL_MEMORY_NONE).nbytes, np.uint8)
    address = buf.ctypes.data
    return buf, lambda: dnnl.memory(md, _eng(), address), None


def case_resampling_pd_1x1x2e24_x4():
    src = _md([1, 1, 2 ** 24], "ncw")
    fwd = dnnl.resampling.resampling_forward
    return None, lambda: fwd.primitive_desc(
        _eng(), dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear,
        [4.0], src), None


def case_reorder_pd_2e26x2():
    src, dst = _md([2 ** 26, 2], "ab"), _md([2 ** 26, 2], "ba")
    return None, lambda: dnnl.reorder.primitive_desc(_eng(), src, _eng(), dst), None


def _memory(dims, tag, dt="f32"):
    return dnnl.memory(_md(dims, tag, dt), _eng())


def _copy_ref(nbytes):
    """A numpy copy of the same bytes, allocation included (as to_numpy's)."""
    a = np.ones(nbytes // 4, np.float32)
    return a.copy


DIMS_256 = [1, 64, 1024, 1024]     # 256 MiB of f32


def case_to_numpy_256MiB_nchw():
    mem = _memory(DIMS_256, "nchw")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(256 * MiB)


def case_to_numpy_256MiB_nhwc():
    mem = _memory(DIMS_256, "nhwc")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(256 * MiB)


def case_from_numpy_256MiB_nChw16c():
    mem = _memory([1, 72, 1024, 1024 - 128], "nChw16c")   # padded to 80 channels
    x = np.ones(mem.get_desc().dims, np.float32)
    return (mem, x), lambda: mem.from_numpy(x), _copy_ref(x.nbytes)


def case_to_numpy_256MiB_nChw16c():
    mem = _memory([1, 72, 1024, 1024 - 128], "nChw16c")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(72 * 1024 * 896 * 4)


def case_to_numpy_64MiB_s4_nChw16c():
    mem = _memory([1, 72, 1024, 1024 - 128 + 1], "nChw16c", "s4")
    mem.map_data()[:] = 0x77
    return mem, mem.to_numpy, _copy_ref(72 * 1024 * 897)


def case_to_numpy_256MiB_u8_nhwc():
    mem = _memory([1, 64, 2048, 2048], "nhwc", "u8")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(256 * MiB)


def case_to_numpy_256MiB_bf16_nChw16c():
    mem = _memory([1, 64, 1024, 2048], "nChw16c", "bf16")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(256 * MiB)


def _first(fn):
    fn.first_call_only = True     # later calls reuse what the first one built
    return fn


def case_resampling_first_execute_1x1x2e24_x4():
    src = dnnl.memory(_md([1, 1, 2 ** 24], "ncw"), _eng())
    fwd = dnnl.resampling.resampling_forward
    pd = fwd.primitive_desc(_eng(), dnnl.prop_kind.forward_inference,
                            dnnl.algorithm.resampling_linear, [4.0], src.get_desc())
    dst = dnnl.memory(pd.dst_desc(), _eng())
    prim, strm = fwd(pd), dnnl.stream(_eng())
    args = {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst}
    return (src, dst), _first(lambda: prim.execute(strm, args)), None


def case_reorder_first_execute_2e26x2():
    src = dnnl.memory(_md([2 ** 26, 2], "ab"), _eng())
    dst = dnnl.memory(_md([2 ** 26, 2], "ba"), _eng())
    prim = dnnl.reorder(src, dst)
    strm = dnnl.stream(_eng())
    return (src, dst), _first(lambda: prim.execute(strm, src, dst)), _copy_ref(512 * MiB)


def _reorder_pair(src_tag, dst_tag, dst_dt="f32", scales=False):
    """Memories and attributes of a [2**26, 2] f32 reorder (512 MiB)."""
    src = _memory([2 ** 26, 2], src_tag)
    dst = _memory([2 ** 26, 2], dst_tag, dst_dt)
    src.map_data()[:] = 1
    attr = dnnl.primitive_attr()
    args = {}
    if scales:      # per-dim-0 dst scales: one per row
        attr.set_scales_mask(dnnl.DNNL_ARG_DST, 1)
        sc = _memory([2 ** 26], "a")
        sc.map_data()[:] = 0.5
        args[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_DST] = sc
    pd = dnnl.reorder.primitive_desc(_eng(), src.get_desc(), _eng(), dst.get_desc(), attr)
    args.update({dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    return pd, args


REORDERS_2E26 = {"ab_ba": ("ab", "ba"), "f32_s8_scales": ("ab", "ab", "s8", True),
                 "ab_Ab32a": ("ab", "Ab32a"), "ab_AB8a2b": ("ab", "AB8a2b")}


def _reorder_prim(key):
    pd, args = _reorder_pair(*REORDERS_2E26[key])
    return args, _first(lambda: dnnl.reorder(pd)), None


def _reorder_exec(key):
    pd, args = _reorder_pair(*REORDERS_2E26[key])
    prim, strm = dnnl.reorder(pd), dnnl.stream(_eng())
    return args, _first(lambda: prim.execute(strm, args)), _copy_ref(512 * MiB)


for _key in REORDERS_2E26:
    globals()["case_reorder_prim_2e26x2_" + _key] = (lambda k: lambda: _reorder_prim(k))(_key)
    globals()["case_reorder_exec_2e26x2_" + _key] = (lambda k: lambda: _reorder_exec(k))(_key)


DIMS_64 = [16, 64, 256, 256]    # 64 Mi elements: 64 MiB of u8


def case_to_numpy_u8_nhwc_16x64x256x256():
    mem = _memory(DIMS_64, "nhwc", "u8")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(mem.get_desc().get_size())


def case_from_numpy_u8_nhwc_16x64x256x256():
    mem = _memory(DIMS_64, "nhwc", "u8")
    x = np.ones(DIMS_64, np.uint8)
    return (mem, x), lambda: mem.from_numpy(x), _copy_ref(x.nbytes)


def case_to_numpy_bf16_nhwc_16x64x256x256():
    mem = _memory(DIMS_64, "nhwc", "bf16")
    mem.map_data()[:] = 1
    return mem, mem.to_numpy, _copy_ref(mem.get_desc().get_size())


def case_to_numpy_s4_nchw_16x64x257x256():
    mem = _memory([16, 64, 257, 256], "nchw", "s4")
    mem.map_data()[:] = 0x77
    return mem, mem.to_numpy, _copy_ref(16 * 64 * 256 * 257)


def case_from_numpy_s4_nchw_16x64x257x256():
    mem = _memory([16, 64, 257, 256], "nchw", "s4")
    x = np.ones([16, 64, 257, 256], np.int8)
    return (mem, x), lambda: mem.from_numpy(x), _copy_ref(x.nbytes)


def case_to_numpy_u4_nhwc_16x64x256x257():
    mem = _memory([16, 64, 256, 257], "nhwc", "u4")
    mem.map_data()[:] = 0x77
    return mem, mem.to_numpy, _copy_ref(16 * 64 * 256 * 257)


CASES = {name[5:]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}


def _time(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run_case(name):
    keep, fn, ref = CASES[name]()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    t0 = time.perf_counter()
    result = fn()
    first = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) * 1024
    out = {"case": name, "seconds": first, "traced": peak, "rss": rss}
    if getattr(fn, "first_call_only", False):
        if ref is not None:
            out["ref_seconds"] = _time(ref, REPEATS)
    elif first < 2.0:     # best of REPEATS, alternating with the reference
        fns = [fn] if ref is None else [fn, ref]
        best = [first, float("inf")]
        for _ in range(REPEATS):
            for i, f in enumerate(fns):
                best[i] = min(best[i], _time(f, 1))
        out["seconds"] = best[0]
        if ref is not None:
            out["ref_seconds"] = best[1]
    elif ref is not None:
        out["ref_seconds"] = _time(ref, REPEATS)
    del keep
    return out


def _fmt_time(s):
    return "%9.3f ms" % (s * 1e3) if s >= 1e-3 else "%9.1f us" % (s * 1e6)


def main(argv):
    if len(argv) == 2 and argv[0] == "--case":
        print(json.dumps(run_case(argv[1])))
        return
    names = argv or list(CASES)
    print("%-32s %12s %11s %11s %s" % ("case", "time", "traced", "rss", "vs numpy copy"))
    for name in names:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--case", name],
                              capture_output=True, text=True)
        if proc.returncode:
            print("%-32s failed: %s" % (name, proc.stderr.strip().splitlines()[-1:]))
            continue
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        ratio = ("%.2fx (copy %s)" % (r["seconds"] / r["ref_seconds"],
                                       _fmt_time(r["ref_seconds"]).strip())
                 if "ref_seconds" in r else "")
        print("%-32s %12s %7.1f MiB %7.1f MiB %s" % (
            name, _fmt_time(r["seconds"]), r["traced"] / MiB, r["rss"] / MiB, ratio))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
