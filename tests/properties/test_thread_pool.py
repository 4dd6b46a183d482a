"""The kernels' thread pool (dnnl/_platform/dnnl_threads.h, dnnl/_platform/threads.pyx):
the default thread count from the CPU affinity mask and a container's CPU
quota (cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``, read from fake cgroup
trees here), and results bit-identical whatever the thread count and however
late the pool's threads are (test hooks delay them: a thread woken late, a
thread that loses its core holding a chunk)."""
import math
import multiprocessing
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import dnnl
from dnnl._platform import threads as _threads
from dnnl._platform.caches import STREAM_BYTES

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


# The rule of a region's thread count (dnnl_threads_choice.h), on observations
# made up here: 64 items of a 32x64x56x56 f32 reorder (src + dst: 2 x 25.7 MB).
BIG = 2 * 32 * 64 * 56 * 56 * 4
LIMIT_MB = "%.1f MB" % (STREAM_BYTES / 1e6)
# a record that says the pool does not pay, and the fallback's period running
AGAINST = dict(pool_runs=4, alone_runs=4, pool_ms=2.0, alone_ms=1.0, run=5,
               fallback_left_ms=12.0)


def test_a_region_beyond_the_caches_takes_the_free_cpus_whatever_the_record():
    assert BIG > STREAM_BYTES
    for record in ({}, AGAINST):
        assert _threads.choose(2, 64, BIG, others=0, cpus=2, **record) == (
            2, "threads:2 (items 64, 51.4 MB >= %s: beyond the caches; "
               "0 other tasks running, 2 of 2 CPUs free)" % LIMIT_MB)
    # fewer CPUs free than threads asked for: as many as are free
    n, why = _threads.choose(8, 64, BIG, others=5, cpus=8, **AGAINST)
    assert n == 3 and why.startswith("threads:3 ("), why
    assert why.endswith("5 other tasks running, 3 of 8 CPUs free)"), why
    # and never more than asked
    assert _threads.choose(2, 64, BIG, others=1, cpus=8)[0] == 2


def test_a_busy_machine_leaves_the_choice_to_the_record():
    """One busy process on 2 CPUs: one CPU free, not two; the record decides."""
    assert _threads.choose(2, 64, BIG, others=1, cpus=2, **AGAINST) == (
        1, "threads:1 (items 64, 51.4 MB >= %s: beyond the caches; 1 other task running, "
           "1 of 2 CPUs free; fallback: regions found the cores taken, 12.0 ms left)" % LIMIT_MB)
    no_period = dict(AGAINST, fallback_left_ms=0)
    n, why = _threads.choose(2, 64, BIG, others=2, cpus=2, **no_period)
    assert n == 1 and why.endswith(
        "2 other tasks running, 0 of 2 CPUs free; "
        "record: pool 2.000 ms, not 10% under alone 1.000 ms)"), why
    pays = dict(no_period, pool_ms=0.8)         # 0.8 < 0.9 x 1.0
    n, why = _threads.choose(2, 64, BIG, others=2, cpus=2, **pays)
    assert n == 2 and why.endswith("record: pool 0.800 ms < 0.9 x alone 1.000 ms)"), why
    # one run in 32 tries the other way
    n, why = _threads.choose(2, 64, BIG, others=2, cpus=2, **dict(pays, run=31))
    assert n == 1 and "record: a probe (1 run in 32) the other way" in why, why
    n, why = _threads.choose(2, 64, BIG, others=2, cpus=2, **dict(no_period, run=63))
    assert n == 2 and "a probe" in why, why
    # a load that could not be read: the record too
    n, why = _threads.choose(2, 64, BIG, **AGAINST)
    assert n == 1 and "beyond the caches; load not known; fallback:" in why, why


def test_a_region_in_the_caches_follows_the_record_on_an_idle_machine_too():
    small = 2 * 8 * 64 * 28 * 28 * 4        # 3.2 MB
    assert small < STREAM_BYTES
    assert _threads.choose(2, 64, small, others=0, cpus=2) == (
        2, "threads:2 (items 64, 3.2 MB < %s: in the caches; "
           "record: first runs, 1 of 3 on the pool)" % LIMIT_MB)
    assert _threads.choose(2, 64, small, 0, 2, pool_runs=3) == (
        1, "threads:1 (items 64, 3.2 MB < %s: in the caches; "
           "record: first runs, 1 of 2 alone)" % LIMIT_MB)
    assert _threads.choose(2, 64, small, 0, 2, pool_runs=3, follow=True)[1].endswith(
        "record: after a pool run that woke a worker, one counted)")
    assert _threads.choose(2, 64, 0, 0, 2, **AGAINST)[1].startswith(
        "threads:1 (items 64, bytes not known; fallback:")
    # the fallback off: every region on the pool
    assert _threads.choose(2, 64, small, 2, 2, fallback=False, **AGAINST) == (
        2, "threads:2 (items 64, 3.2 MB < %s: in the caches; "
           "fallback off: every region on the pool)" % LIMIT_MB)
    with pytest.raises(ValueError):
        _threads.choose(1, 64, small)


def test_cores_found_taken_send_calls_alone_only_under_load(pool_restored):
    """A worker that never comes (the test hook: however long the regions
    take, as under the sanitizers, where a 200 ms delay let it in) makes
    the pool conclude the cores are taken (a region no worker turned up
    for, twice; from then on the calls alone for 4 ms, doubling with each
    such region to 256 ms): under load the next calls run alone; on an idle machine a
    call beyond the caches keeps both threads, and results do not change."""
    x = np.arange(16 * 64 * 56 * 56, dtype=np.float32).reshape(16, 64, 56, 56)
    want = x.transpose(0, 2, 3, 1)
    _threads.set_limit(2)
    if _threads.max_threads() < 2:
        # one CPU here (or no OpenMP): no call is a parallel region
        assert _threads.choose(2, 64, BIG, others=0, cpus=2)[0] == 2
        return
    try:
        _threads.set_test_load(0, 2)
        _threads.set_test_delays(join_us=-1)
        stalls = _threads.stats()["stalls"]
        for _ in range(10):     # the fallback's period doubles to 256 ms
            assert np.array_equal(dnnl.convert(x, "nhwc").array, want)
            assert _threads.last_choice().startswith("threads:2 (items "), _threads.last_choice()
            assert _threads.last_choice().endswith("0 other tasks running, 2 of 2 CPUs free)")
        assert _threads.stats()["stalls"] >= stalls + 2     # the regions no worker came to
        _threads.set_test_load(2, 2)
        assert np.array_equal(dnnl.convert(x, "nhwc").array, want)
        assert re.match(r"threads:1 \(items \d+, .* 2 other tasks running, 0 of 2 CPUs free; "
                        r"fallback: regions found the cores taken, [\d.]+ ms left\)$",
                        _threads.last_choice()), _threads.last_choice()
    finally:
        _threads.set_test_load()
        _threads.set_test_delays(0, 0)
        _threads.set_fallback(True)      # (the fallback's period cleared)
        time.sleep(0.3)                  # the late worker back asleep


REPORT = """
import numpy as np, dnnl
from dnnl._platform import threads as t
x = np.arange(16 * 64 * 56 * 56, dtype=np.float32).reshape(16, 64, 56, 56)
want = x.transpose(0, 2, 3, 1)
t.set_test_load(0, 2)                   # nothing else running on 2 CPUs
for _ in range(3):
    assert np.array_equal(dnnl.convert(x, "nhwc").array, want)
t.set_test_load(2, 2)                   # two busy processes
assert np.array_equal(dnnl.convert(x, "nhwc").array, want)
q = np.asarray(dnnl.quantize(x, 4096.0, 0, dtype="u8"))
print(t.last_choice())
"""


def test_the_report_names_each_regions_count_and_why():
    """DNNL_PY_THREADS_VERBOSE=1: a line on stderr per parallel region. The
    machine's rule's runs are not the record's: the first region under load
    is its kind's first recorded run."""
    env = dict(os.environ, DNNL_PY_THREADS_VERBOSE="1", OMP_NUM_THREADS="2")
    run = subprocess.run([sys.executable, "-c", REPORT], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 5, lines
    mb = "%.1f MB" % (2 * 16 * 64 * 56 * 56 * 4 / 1e6)      # src + dst
    idle = re.compile(r"dnnl_py_threads,threads:2 \(items \d+, %s >= %s: beyond the caches; "
                      r"0 other tasks running, 2 of 2 CPUs free\) -> \d+\.\d+ ms, the caller "
                      r"ran \d+ of \d+ chunks, " % (re.escape(mb), re.escape(LIMIT_MB)))
    assert all(idle.match(ln) for ln in lines[:3]), lines
    assert re.match(r"dnnl_py_threads,threads:2 \(items \d+, %s >= %s: beyond the caches; "
                    r"2 other tasks running, 0 of 2 CPUs free; record: first runs, 1 of 3 on "
                    r"the pool\) -> " % (re.escape(mb), re.escape(LIMIT_MB)), lines[3]), lines
    # f32 -> u8: 4 + 1 bytes an element
    small = "%.1f MB" % (16 * 64 * 56 * 56 * 5 / 1e6)
    want = ("threads:2 (items %s, %s < %s: in the caches; record: first runs, 1 of 3 on "
            "the pool)")
    last = run.stdout.strip()
    items = re.match(r"threads:2 \(items (\d+),", last)
    assert items and last == want % (items.group(1), small, LIMIT_MB), last
    assert lines[4].startswith("dnnl_py_threads," + last + " -> "), lines
