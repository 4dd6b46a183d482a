"""Reorder speed: dnnl for Python against numpy, PyTorch and real oneDNN.

Run from the repository root:  python benchmarks/bench_reorder.py

Every contender runs in this process on the same data, round-robin (one run
of each in turn, so that load on a shared machine hits them alike); each time
is the best of BENCH_REPEATS rounds after a warm-up. Ratios are contender time / our time (above
1: we are faster). PyTorch and real oneDNN are used when installed (oneDNN:
see docs/internals/conformance.md; set DNNL_ORACLE_VENV to its virtual environment).
"""
import ctypes
import os
import sys
import time

import numpy as np

import dnnl

HERE = os.path.dirname(os.path.abspath(__file__))
REPEATS = int(os.environ.get("BENCH_REPEATS", "15"))


def best_ms(fn, repeats=REPEATS):
    return interleaved({"": fn}, repeats)[""]


def interleaved(fns, repeats=REPEATS):
    """Best time of each callable, in ms, running them round-robin so that a
    burst of load on a shared machine does not fall on one contender only."""
    for fn in fns.values():
        fn()
    best = {k: float("inf") for k in fns}
    for _ in range(repeats):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - t0)
    return {k: t * 1e3 for k, t in best.items()}


def load_torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(os.cpu_count() or 1)
    return torch


def load_onednn():
    """Real oneDNN through the conformance harness's loader, or None."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "conformance"))
    try:
        import oracle
    except ImportError:
        return None
    finally:
        sys.path.pop(0)
    return oracle.load()


class OneDNNReorder:
    """A real oneDNN reorder primitive created once, executed many times."""

    def __init__(self, o, dims, sdt, stag, ddt, dtag, dst_scales=None):
        from dnnl._core.enums import C
        self.o, lib = o, o.lib
        self.keep, mems, mds, args = [], [], [], []
        st, smd = o._create(("tag", dims, sdt, stag))
        st2, dmd = o._create(("tag", dims, ddt, dtag))
        assert st == st2 == 0
        scales = {C["DNNL_ARG_DST"]: (2, dst_scales, "f32")} if dst_scales is not None else None
        st, attr, po = o._attr(scales, None, None, self.keep, mems, mds, args)
        assert st == 0
        self.pd = ctypes.c_void_p()
        st = lib.dnnl_reorder_primitive_desc_create(ctypes.byref(self.pd), smd, o.engine,
                                                    dmd, o.engine, attr)
        assert st == 0, st
        impl = ctypes.c_char_p()
        lib.dnnl_primitive_desc_query(self.pd, C["dnnl_query_impl_info_str"], 0,
                                      ctypes.byref(impl))
        self.impl = impl.value.decode()
        st, self.src, _, _ = o._memory(smd, None, self.keep)
        st, self.dst, _, _ = o._memory(dmd, None, self.keep)
        self.prim = ctypes.c_void_p()
        assert lib.dnnl_primitive_create(ctypes.byref(self.prim), self.pd) == 0
        pairs = [(C["DNNL_ARG_FROM"], self.src), (C["DNNL_ARG_TO"], self.dst)] + args
        import oracle
        self.args = (oracle._ExecArg * len(pairs))(*[oracle._ExecArg(a, m) for a, m in pairs])
        self.nargs = len(pairs)

    def __call__(self):
        lib = self.o.lib
        lib.dnnl_primitive_execute(self.prim, self.o.stream, self.nargs, self.args)
        lib.dnnl_stream_wait(self.o.stream)


def ours(eng, strm, dims, stag, ddt, dtag, x, dst_scales=None):
    src = dnnl.memory(dnnl.memory.desc(dims, "f32", stag), eng)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(dims, ddt, dtag), eng)
    attr = dnnl.primitive_attr()
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    if dst_scales is not None:
        attr.set_scales_mask(dnnl.DNNL_ARG_TO, 2)
        sc = dnnl.memory(dnnl.memory.desc([len(dst_scales)], "f32", "a"), eng, dst_scales)
        args[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_TO] = sc
    prim = dnnl.reorder(src, dst, attr)
    return lambda: prim.execute(strm, args)


def main():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    torch = load_torch()
    o = load_onednn()
    N, C, H, W = 32, 64, 56, 56
    dims = [N, C, H, W]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(dims, dtype=np.float32)
    x_nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    scales = np.full(C, 0.05, dtype=np.float32)
    y = np.empty_like(x)
    copy_ms = best_ms(lambda: np.copyto(y, x))
    print("dnnl for Python %s; %d threads; oneDNN %s; PyTorch %s"
          % (dnnl.__version__, os.cpu_count(),
             "%d.%d.%d" % o.version if o else "absent",
             torch.__version__ if torch else "absent"))
    print("tensor %s f32 (%.1f MB); np.copyto (bandwidth limit): %.2f ms\n"
          % ("x".join(map(str, dims)), x.nbytes / 2 ** 20, copy_ms))

    cases = []
    # (name, stag, ddt, dtag, scales, {contender: fn})
    tx = torch.from_numpy(x) if torch else None
    tx_cl = tx.contiguous(memory_format=torch.channels_last) if torch else None
    cases.append(("nchw->nhwc", "nchw", "f32", "nhwc", None, x, {
        "numpy transpose+copy": lambda: np.ascontiguousarray(x.transpose(0, 2, 3, 1)),
        "torch channels_last": (lambda: tx.contiguous(memory_format=torch.channels_last))
        if torch else None,
    }))
    cases.append(("nhwc->nchw", "nhwc", "f32", "nchw", None, x, {
        "numpy transpose+copy": lambda: np.ascontiguousarray(x_nhwc.transpose(0, 3, 1, 2)),
        "torch contiguous": (lambda: tx_cl.contiguous()) if torch else None,
    }))
    cases.append(("nchw->nChw16c", "nchw", "f32", "nChw16c", None, x, {
        "numpy reshape+transpose": lambda: np.ascontiguousarray(
            x.reshape(N, C // 16, 16, H, W).transpose(0, 1, 3, 4, 2)),
        "torch to_mkldnn": (lambda: tx.to_mkldnn()) if torch else None,
    }))
    ts = torch.from_numpy(scales) if torch else None
    zp = torch.zeros(C, dtype=torch.int64) if torch else None
    cases.append(("f32->s8 per-channel scales", "nchw", "s8", "nchw", scales, x, {
        "numpy divide/rint/clip": lambda: np.clip(
            np.rint(x / scales[None, :, None, None]), -128, 127).astype(np.int8),
        "torch div/round/clamp": (lambda: (tx / ts[None, :, None, None]).round()
                                  .clamp(-128, 127).to(torch.int8)) if torch else None,
        "torch quantize_per_channel": (lambda: torch.quantize_per_channel(
            tx, ts.double(), zp, 1, torch.qint8)) if torch else None,
    }))
    tbf = torch.empty(dims, dtype=torch.bfloat16) if torch else None
    cases.append(("f32->bf16", "nchw", "bf16", "nchw", None, x, {
        "torch copy_": (lambda: tbf.copy_(tx)) if torch else None,
    }))

    print("%-28s %10s %10s   %s" % ("case", "ours ms", "oneDNN ms", "others (ms, ratio)"))
    for name, stag, ddt, dtag, sc, data, others in cases:
        fns = {"ours": ours(eng, strm, dims, stag, ddt, dtag, data, sc)}
        if o is not None:
            fns["oneDNN"] = OneDNNReorder(o, dims, "f32", stag, ddt, dtag, sc)
        fns.update((k, fn) for k, fn in others.items() if fn is not None)
        times = interleaved(fns)
        t_ours, t_ref = times.pop("ours"), times.pop("oneDNN", None)
        parts = ["%s %.2f (%.2fx)" % (k, t, t / t_ours) for k, t in times.items()]
        ref_txt = "%.2f (%.2fx)" % (t_ref, t_ref / t_ours) if t_ref else "-"
        print("%-28s %10.2f %16s   %s" % (name, t_ours, ref_txt, "; ".join(parts)))

    # Per-call overhead of a small cached reorder through the object API.
    small = [1, 16, 7, 7]
    src = dnnl.memory(dnnl.memory.desc(small, "f32", "nchw"), eng)
    dst = dnnl.memory(dnnl.memory.desc(small, "f32", "nChw16c"), eng)
    prim = dnnl.reorder(src, dst)
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    n = 20000
    t0 = time.perf_counter()
    for _ in range(n):
        prim.execute(strm, args)
    us = (time.perf_counter() - t0) / n * 1e6
    line = "\n1x16x7x7 nchw->nChw16c per call: ours %.2f us" % us
    if o is not None:
        ref = OneDNNReorder(o, small, "f32", "nchw", "f32", "nChw16c")
        t0 = time.perf_counter()
        for _ in range(n):
            ref()
        line += "; oneDNN via ctypes %.2f us" % ((time.perf_counter() - t0) / n * 1e6)
    print(line)


if __name__ == "__main__":
    main()
