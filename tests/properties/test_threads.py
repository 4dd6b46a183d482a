"""Eight threads at once over every shared structure (docs/internals/architecture.md,
"Shared state and threads"): the primitive cache while its capacity changes
(evictions), the memo tables and prepared array calls, the settings, the
verbose state and the flat API's handle tables.

Every result is checked against an expectation computed beforehand by one
thread: with the GIL the threads interleave at bytecode boundaries and in
the kernels (which release it); a free-threaded CPython runs them truly at
once. The work is a fixed number of rounds per thread (no clock): a few
seconds on 2 cores.
"""
import ctypes
import random
import threading

import numpy as np
import pytest

import dnnl
import dnnl.capi as lib
from dnnl import verbose
from dnnl.primitive import cache as _cache
from dnnl._core.settings import settings

pytestmark = pytest.mark.compiled

THREADS = 8
ROUNDS = 250
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STRM = dnnl.stream(ENG)


def _reorder(x, src_tag, dst_tag, dt="f32"):
    """``x`` (in ``src_tag``'s logical order) through a reorder primitive
    made now: a descriptor and a primitive per call (cache lookups, and
    creations after evictions)."""
    dims = list(x.shape)
    src = dnnl.memory(dnnl.memory.desc(dims, "f32", src_tag), ENG)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(dims, dt, dst_tag), ENG)
    pd = dnnl.reorder.primitive_desc(ENG, src.get_desc(), ENG, dst.get_desc())
    dnnl.reorder(pd).execute(STRM, src, dst)
    return dst.to_numpy()


def _capi_round(dims):
    """A flat-API handle made, queried and destroyed: its size."""
    md = ctypes.c_void_p()
    Dims = ctypes.c_int64 * 12
    assert lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(dims), Dims(*dims),
                                                lib.dnnl_f32, lib.dnnl_abcd) == 0
    size = lib.dnnl_memory_desc_get_size(md)
    assert lib.dnnl_memory_desc_destroy(md) == 0
    return size


def _jobs():
    """(name, call, reference) triples; each call returns an array (or a
    number); reference: what it must equal independently of dnnl, or None."""
    rng = np.random.default_rng(29)
    jobs = []
    # several shapes: several cache entries, evicted in turn; several inputs
    # of each shape: threads share one primitive and prepared call on
    # different data (a buffer or parameter shared by mistake mixes them)
    for c, k in [(c, k) for c in (3, 8, 17, 24) for k in range(3)]:
        x = rng.standard_normal((2, c, 5, 6)).astype(np.float32) * (10 + 40 * k)
        scale = np.float32(0.25 + c / 16)
        zp = (c + k) % 5
        q = dnnl.quantize(x, scale, zp, dtype="u8")
        per_channel = (rng.random(c).astype(np.float32) + 0.5)
        jobs += [
            ("convert nChw16c %d/%d" % (c, k), lambda x=x: np.asarray(dnnl.convert(x, "nChw16c")), x),
            ("convert nhwc s8 %d/%d" % (c, k), lambda x=x, per_channel=per_channel: np.asarray(
                dnnl.convert(x, "nhwc", "s8", scales=per_channel, axis=1)), None),
            ("quantize %d/%d" % (c, k), lambda x=x, scale=scale, zp=zp: dnnl.quantize(
                x, scale, zp, dtype="u8"), None),
            ("dequantize %d/%d" % (c, k), lambda q=q, scale=scale, zp=zp: dnnl.dequantize(q, scale, zp),
             (q.astype(np.float32) - np.float32(zp)) * scale),
            ("resample linear %d/%d" % (c, k), lambda x=x: dnnl.resample(x, (9, 4)), None),
            ("resample nearest nhwc %d/%d" % (c, k), lambda x=x: dnnl.resample(
                x.transpose(0, 2, 3, 1).copy(), factors=2.0, mode="nearest", layout="nhwc"), None),
            ("reorder primitive %d/%d" % (c, k), lambda x=x: _reorder(x, "nchw", "nChw8c"), x),
            ("reorder primitive bf16 %d/%d" % (c, k), lambda x=x: _reorder(x, "nchw", "nhwc", "bf16"), None),
            ("flat API %d/%d" % (c, k), lambda c=c: _capi_round([2, c, 5, 6]), 2 * c * 5 * 6 * 4),
        ]
    return jobs


# what the threads flip between creations (each choice gives the same results)
SWITCHES = {"generic_reorder_plans": (False, True),
            "reorder_parallel_min": (1, 1 << 15),
            "resampling_parallel_min": (1, 1 << 14)}
CAPACITIES = (0, 1, 3, 16, 1024)


@pytest.fixture
def restored():
    """The cache capacity, the switches and verbose as they were."""
    capacity = dnnl.get_primitive_cache_capacity()
    switches = {name: getattr(settings, name) for name in SWITCHES}
    level = verbose.get_verbose()
    yield
    for name, value in switches.items():
        setattr(settings, name, value)
    dnnl.set_primitive_cache_capacity(capacity)
    verbose.set_verbose(level)
    verbose.set_output(None)
    verbose.reset_header()
    _cache.clear()


def test_eight_threads_every_result_as_expected(restored):
    jobs = _jobs()
    expected = [call() for _, call, _ in jobs]      # one thread, default switches
    for (name, _, reference), value in zip(jobs, expected):
        assert reference is None or np.array_equal(value, reference), name
    handles = lib.live_handles()
    lines = []
    verbose.set_output(lines.append)            # (list.append: one atomic operation)
    verbose.reset_header()
    counts = {"calls": 0, "mismatches": 0, "errors": 0, "capacity": 0, "switch": 0,
              "verbose": 0}
    count_lock = threading.Lock()
    failures = []
    start = threading.Barrier(THREADS)

    def work(seed):
        r = random.Random(seed)
        mine = dict.fromkeys(counts, 0)
        start.wait()
        for _ in range(ROUNDS):
            what = r.random()
            try:
                if what < 0.08:
                    dnnl.set_primitive_cache_capacity(r.choice(CAPACITIES))
                    mine["capacity"] += 1
                elif what < 0.16:
                    name = r.choice(sorted(SWITCHES))
                    setattr(settings, name, r.choice(SWITCHES[name]))
                    mine["switch"] += 1
                elif what < 0.19:
                    verbose.set_verbose(r.choice((0, 2)))
                    mine["verbose"] += 1
                else:
                    i = r.randrange(len(jobs))
                    got = jobs[i][1]()
                    mine["calls"] += 1
                    if not np.array_equal(got, expected[i]):
                        mine["mismatches"] += 1
                        failures.append(jobs[i][0])
            except Exception as exc:    # reported below, with the job
                mine["errors"] += 1
                failures.append(repr(exc))
        with count_lock:
            for k, v in mine.items():
                counts[k] += v

    threads = [threading.Thread(target=work, args=(s,)) for s in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("threads: %d x %d rounds: %s, %d verbose lines" % (THREADS, ROUNDS, counts, len(lines)))
    assert failures == [] and counts["mismatches"] == counts["errors"] == 0
    assert sum(counts.values()) == THREADS * ROUNDS and counts["calls"] > THREADS * ROUNDS // 2
    assert lib.live_handles() == handles
    # verbose: one header whatever the races, and every line whole
    assert sum(",info,dnnl for Python" in line for line in lines) <= 1
    assert all(line.startswith("onednn_verbose,v1,") and line.count("\n") == 0
               for line in lines)
    stats = _cache.stats()
    assert stats["size"] <= stats["capacity"]
