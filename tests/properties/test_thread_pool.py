"""The kernels' thread pool (dnnl/_platform/dnnl_threads.h, dnnl/_platform/threads.pyx):
the default thread count from the CPU affinity mask and a container's CPU
quota (cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``, read from fake cgroup
trees here), and results bit-identical whatever the thread count and however
late the pool's threads are (test hooks delay them: a thread woken late, a
thread that loses its core holding a chunk)."""
import math
import multiprocessing
import os
import time

import numpy as np
import pytest

import dnnl
from dnnl._platform import threads as _threads

pytestmark = pytest.mark.compiled

AFFINITY = len(os.sched_getaffinity(0))


def _tree(tmp_path, files, membership):
    """A fake cgroup file system under tmp_path/cg and /proc/self/cgroup."""
    root = tmp_path / "cg"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    root.mkdir(exist_ok=True)
    proc = tmp_path / "cgroup"
    proc.write_text(membership)
    return str(root), str(proc)


@pytest.mark.parametrize("files, membership, quota", [
    # v2: the process's group and its parents; the tightest wins
    ({"a/b/cpu.max": "150000 100000\n", "a/cpu.max": "max 100000\n"}, "0::/a/b\n", 1.5),
    ({"a/b/cpu.max": "max 100000\n", "a/cpu.max": "50000 100000\n"}, "0::/a/b\n", 0.5),
    ({"a/b/cpu.max": "max 100000\n"}, "0::/a/b\n", None),
    # a container's namespace: it is at its own root
    ({"cpu.max": "300000 100000\n"}, "0::/\n", 3.0),
    # v1: the cpu controller's hierarchy; -1 is no quota
    ({"cpu,cpuacct/d/cpu.cfs_quota_us": "250000\n",
      "cpu,cpuacct/d/cpu.cfs_period_us": "100000\n"},
     "12:memory:/d\n4:cpu,cpuacct:/d\n", 2.5),
    ({"cpu/d/cpu.cfs_quota_us": "-1\n", "cpu/d/cpu.cfs_period_us": "100000\n"},
     "4:cpu:/d\n", None),
    # nothing readable
    ({}, "0::/gone\n", None),
])
def test_cpu_quota_from_cgroup_files(tmp_path, files, membership, quota):
    root, proc = _tree(tmp_path, files, membership)
    assert _threads.cpu_quota(root, proc) == quota
    want = AFFINITY if quota is None else min(AFFINITY, max(1, math.ceil(quota)))
    assert _threads.cpu_budget(root, proc) == want


def test_a_quota_below_one_cpu_leaves_one_thread(tmp_path):
    root, proc = _tree(tmp_path, {"cpu.max": "20000 100000\n"}, "0::/\n")
    assert _threads.cpu_budget(root, proc) == 1


def test_budget_is_the_affinity_mask_without_a_quota(tmp_path):
    root, proc = _tree(tmp_path, {}, "")
    assert _threads.cpu_budget(root, proc) == AFFINITY


def test_thread_limit_set_at_run_time():
    try:
        _threads.set_limit(1)
        assert _threads.max_threads() == 1
    finally:
        _threads.set_limit(0)
    with pytest.raises(ValueError):
        _threads.set_limit(-1)


def _calls():
    """Array functions whose kernels run parallel regions at these sizes
    (above the plans' parallel thresholds), each returning bytes."""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((2, 32, 40, 40), dtype=np.float32) * 4
    xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    g = rng.standard_normal((2, 32, 80, 80), dtype=np.float32)
    nib = np.clip(np.round(x), -8, 7)
    q = np.asarray(dnnl.quantize(x, 0.05, 3, dtype="u8"))
    return {
        "convert nhwc": lambda: dnnl.convert(x, "nhwc").array.tobytes(),
        "convert nChw16c": lambda: dnnl.convert(x, "nChw16c").array.tobytes(),
        "convert to bf16": lambda: dnnl.convert(x, "nchw", "bf16").array.tobytes(),
        "quantize u8": lambda: np.asarray(dnnl.quantize(x, 0.05, 3, dtype="u8")).tobytes(),
        "quantize s8 per channel": lambda: np.asarray(dnnl.quantize(
            x, np.linspace(0.01, 0.1, 32, dtype=np.float32), axis=1)).tobytes(),
        "dequantize": lambda: np.asarray(dnnl.dequantize(q, 0.05, 3)).tobytes(),
        "bilinear nchw": lambda: np.asarray(dnnl.resample(x, 80)).tobytes(),
        "bilinear nhwc": lambda: np.asarray(dnnl.resample(xh, 57, layout="nhwc")).tobytes(),
        "nearest nchw": lambda: np.asarray(dnnl.resample(x, 80, mode="nearest")).tobytes(),
        "bilinear backward": lambda: np.asarray(dnnl.resample_backward(g, 40)).tobytes(),
        "logical copy of nChw16c": lambda: np.asarray(dnnl.convert(x, "nChw16c")).tobytes(),
        "logical copy of s4 nChw16c": lambda: np.asarray(
            dnnl.convert(nib, "nChw16c", dtype="s4")).tobytes(),
    }


@pytest.fixture
def pool_restored():
    yield
    _threads.set_limit(0)
    _threads.set_test_delays(0, 0)
    _threads.set_fallback(True)


def test_results_identical_for_every_thread_count_and_schedule(pool_restored):
    calls = _calls()
    _threads.set_limit(1)
    want = {k: f() for k, f in calls.items()}
    schedules = [  # (threads, a woken worker's delay, a delay holding each chunk), in us
        (2, 0, 0), (3, 0, 0), (5, 0, 0),
        (2, 3000, 0),      # workers late: the caller does everything
        (3, 0, 300),       # workers slow on every chunk they claim
        (4, 200, 100)]
    for nthr, join_us, chunk_us in schedules:
        for fallback in (True, False):
            _threads.set_limit(nthr)
            _threads.set_test_delays(join_us, chunk_us)
            _threads.set_fallback(fallback)
            for k, f in calls.items():
                assert f() == want[k], (k, nthr, join_us, chunk_us, fallback)


def test_workers_run_chunks_and_late_ones_find_none_left(pool_restored):
    """Counts, not times: every region is counted; a worker that wakes after
    the caller has claimed every chunk runs none of them."""
    x = np.ones((4, 64, 64, 64), np.float32)
    _threads.set_limit(2)
    _threads.set_fallback(False)
    _threads.set_test_delays(join_us=200000)    # far longer than the region
    before = _threads.stats()
    dnnl.convert(x, "nhwc")
    after = _threads.stats()
    assert after["regions"] == before["regions"] + 1, (before, after, _threads.max_threads())
    # a worker that arrives late claims nothing: the caller did it all
    time.sleep(0.4)
    assert _threads.stats()["worker_chunks"] == after["worker_chunks"]


def _child(q):
    x = np.arange(4 * 64 * 32 * 32, dtype=np.float32).reshape(4, 64, 32, 32)
    q.put(np.array_equal(dnnl.convert(x, "nhwc").array, x.transpose(0, 2, 3, 1)))


# Python 3.12+ warns that forking a process with threads may deadlock the
# child: forking one whose pool workers exist is what this test is about
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_forked_child_runs_parallel_regions(pool_restored):
    """A child of fork() has none of the parent's workers; it starts its own."""
    x = np.ones((4, 64, 32, 32), np.float32)
    dnnl.convert(x, "nhwc")     # the parent's workers exist
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q,))
    p.start()
    assert q.get(timeout=60) is True
    p.join(60)
    assert p.exitcode == 0
