# cython: language_level=3
"""The threads of the parallel kernels: how many, and the pool they run on
(dnnl_threads.h says how it behaves on a busy machine).

Built once, for the baseline, outside ``dnnl._kernels``: importing it picks
no ISA level, so verbose can import it directly, and every kernel level
shares its one pool (``dnnl/_platform/threads.pxd``).

The default thread count is OpenMP's (``OMP_NUM_THREADS``, the CPU affinity
mask, threadpoolctl's limits), capped by :func:`cpu_budget` (the affinity
mask and a container's CPU quota) unless ``OMP_NUM_THREADS`` is set. How
many of them a region runs on is the rule of dnnl_threads_choice.h
(:func:`choose`); ``DNNL_PY_THREADS_VERBOSE=1`` prints each region's choice
and why on stderr, :func:`last_choice` gives the last one.
"""
import math
import os

from libc.stdint cimport int64_t, uint32_t

cdef extern from "dnnl_threads.h":
    ctypedef void (*dnnl_py_range_fn)(const void* ctx, int64_t begin, int64_t end,
                                      int slot) noexcept nogil
    int dnnl_py_max_threads() noexcept nogil
    void dnnl_py_parallel(int64_t n, int nthr, dnnl_py_range_fn fn,
                          const void* ctx, const void* kind, int64_t nbytes) noexcept nogil
    int dnnl_py_budget, dnnl_py_omp_env, dnnl_py_limit, dnnl_py_backoff
    int dnnl_py_cpus, dnnl_py_report
    int64_t dnnl_py_stream_bytes
    ctypedef struct seen_t "dnnl_py_seen_t":
        int nthr
        int64_t n, bytes, stream_bytes
        int others, cpus, backoff
        int64_t solo_left_ns
        int follow
        uint32_t par_count, solo_count, run
        int64_t par_median, solo_median
    ctypedef struct choice_t "dnnl_py_choice_t":
        int nthr, why
    choice_t dnnl_py_choose(const seen_t* s) noexcept nogil
    int dnnl_py_describe(const seen_t* s, choice_t c, char* buf, size_t len) noexcept nogil
    ctypedef struct pool_t "dnnl_py_pool_t":
        int64_t regions, solo_regions, stalls, worker_chunks, caller_ns, wait_ns
        int64_t delay_join_ns, delay_chunk_ns
        int64_t solo_until, solo_ns
        int test_others, test_cpus
        seen_t last_seen
        choice_t last_choice
    pool_t dnnl_py_pool
    int64_t SOLO_FIRST_NS

cpdef int max_threads() noexcept nogil:
    """The threads a parallel kernel runs on now."""
    return dnnl_py_max_threads()


cdef void parallel_for(int64_t n, int nthr, range_fn fn, const void* ctx,
                       const void* kind, int64_t nbytes) noexcept nogil:
    """``fn`` over the items ``[0, n)`` in chunks, on up to ``nthr`` threads
    (scratch slots 0 .. nthr - 1, the caller's 0); returns when all ran.
    ``kind`` identifies the work for the pool's record (dnnl_threads.h),
    ``nbytes`` what the items read and write (0: not known) for its rule
    (dnnl_threads_choice.h)."""
    dnnl_py_parallel(n, nthr, <dnnl_py_range_fn>fn, ctx, kind, nbytes)


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def _quota_v2(root, path):
    """The tightest ``cpu.max`` of the cgroup ``path`` and its parents, in
    CPUs (None: no limit found)."""
    best = None
    parts = [p for p in path.strip("/").split("/") if p]
    for k in range(len(parts), -1, -1):
        text = _read(os.path.join(root, *parts[:k], "cpu.max"))
        if text is None:
            continue
        quota, _, period = text.partition(" ")
        if quota != "max" and period:
            cpus = int(quota) / int(period)
            best = cpus if best is None else min(best, cpus)
    return best


def _quota_v1(root, path):
    """The tightest CFS quota (``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``)
    of the cgroup ``path`` and its parents under the v1 ``cpu`` hierarchy."""
    best = None
    parts = [p for p in path.strip("/").split("/") if p]
    for mount in ("cpu,cpuacct", "cpu", "cpuacct,cpu"):
        base = os.path.join(root, mount)
        if not os.path.isdir(base):
            continue
        for k in range(len(parts), -1, -1):
            d = os.path.join(base, *parts[:k])
            quota, period = _read(os.path.join(d, "cpu.cfs_quota_us")), \
                _read(os.path.join(d, "cpu.cfs_period_us"))
            if quota is None or period is None or int(quota) <= 0 or int(period) <= 0:
                continue
            cpus = int(quota) / int(period)
            best = cpus if best is None else min(best, cpus)
        break
    return best


def cpu_quota(root="/sys/fs/cgroup", proc_cgroup="/proc/self/cgroup"):
    """The CPUs a container's quota allows this process (cgroup v2
    ``cpu.max``, or v1 ``cpu.cfs_quota_us``), as a float; None when no quota
    is set or none can be read. ``root`` and ``proc_cgroup`` are where the
    cgroup file systems and this process's membership are (tests pass fakes)."""
    text = _read(proc_cgroup) or ""
    best = None
    for line in text.splitlines():
        hid, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hid == "0" and controllers == "":
            cpus = _quota_v2(root, path)
        elif "cpu" in controllers.split(","):
            cpus = _quota_v1(root, path)
        else:
            continue
        if cpus is not None:
            best = cpus if best is None else min(best, cpus)
    if best is None and not text:       # no membership file: the root's own
        best = _quota_v2(root, "/")
    return best


def cpu_budget(root="/sys/fs/cgroup", proc_cgroup="/proc/self/cgroup"):
    """The CPUs this process may use: those of its affinity mask
    (``sched_getaffinity``), no more than its container's quota rounded up."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    quota = cpu_quota(root, proc_cgroup)
    if quota is not None:
        n = min(n, max(1, math.ceil(quota)))
    return max(1, n)


def set_limit(int n):
    """Run the kernels on at most ``n`` threads (0: no limit of this kind)."""
    global dnnl_py_limit
    if n < 0:
        raise ValueError("a thread limit of %d" % n)
    dnnl_py_limit = n


def set_fallback(bint on):
    """Whether a region that found the cores taken sends the next ones to
    the calling thread alone for a while (on by default; off: every region
    wakes the pool)."""
    global dnnl_py_backoff
    dnnl_py_backoff = on
    dnnl_py_pool.solo_until = 0
    dnnl_py_pool.solo_ns = SOLO_FIRST_NS


def stats():
    """Counts since start-up: parallel regions, those run on the caller
    alone (the fallback), stalls seen, chunks workers ran; nanoseconds the
    callers of the other regions spent on their chunks and then waiting."""
    cdef pool_t* p = &dnnl_py_pool
    return {"regions": p.regions, "solo_regions": p.solo_regions, "stalls": p.stalls,
            "worker_chunks": p.worker_chunks, "caller_ns": p.caller_ns, "wait_ns": p.wait_ns}


def set_test_delays(double join_us=0, double chunk_us=0):
    """For tests: workers sleep ``join_us`` after waking before they join a
    region, and ``chunk_us`` after claiming each chunk before running it (a
    late thread, a thread that lost its core mid-region). ``join_us`` < 0:
    the workers join no region (their cores taken all along), whatever the
    regions' times, which a slow build (sanitizers) stretches."""
    dnnl_py_pool.delay_join_ns = <int64_t>(join_us * 1000)
    dnnl_py_pool.delay_chunk_ns = <int64_t>(chunk_us * 1000)


def choose(int threads, int64_t items, int64_t nbytes, int others=-1, int cpus=0, *,
           bint fallback=True, double fallback_left_ms=0, bint follow=False,
           int pool_runs=0, int alone_runs=0, int run=0, double pool_ms=0,
           double alone_ms=0):
    """The rule of dnnl_threads_choice.h on an observation given here
    (tests make them up; the pool makes one for each region): ``threads``
    asked for (2 or more), a region of ``items`` reading and writing
    ``nbytes`` (0: not known); ``others`` tasks running besides the caller
    and its awake workers (-1: not read) on ``cpus`` CPUs; the fallback on
    and ``fallback_left_ms`` of its period to go; and the record of the
    region's kind: ``follow`` (its last pool run was cold), the runs it has
    recorded on the pool and alone, the count of its runs, the medians.
    Returns ``(threads, why)``: what the pool would run it on and the
    report's text."""
    cdef seen_t s
    if threads < 2:
        raise ValueError("a region asks for 2 threads or more, not %d" % threads)
    s.nthr, s.n, s.bytes, s.stream_bytes = threads, items, nbytes, dnnl_py_stream_bytes
    s.others, s.cpus, s.backoff = others, cpus, fallback
    s.solo_left_ns = <int64_t>(fallback_left_ms * 1e6)
    s.follow, s.par_count, s.solo_count, s.run = follow, pool_runs, alone_runs, run
    s.par_median, s.solo_median = <int64_t>(pool_ms * 1e6), <int64_t>(alone_ms * 1e6)
    cdef choice_t c = dnnl_py_choose(&s)
    return c.nthr, _text(&s, c)


cdef str _text(const seen_t* s, choice_t c):
    cdef char buf[400]
    dnnl_py_describe(s, c, buf, sizeof(buf))
    return buf.decode()


def last_choice():
    """The choice of the last parallel region, as :func:`choose` words it
    (None before the first)."""
    if dnnl_py_pool.regions == 0:
        return None
    return _text(&dnnl_py_pool.last_seen, dnnl_py_pool.last_choice)


def set_test_load(int others=-1, int cpus=0):
    """For tests: the regions see ``others`` tasks running besides theirs,
    on ``cpus`` CPUs (``others`` -1: the machine's own count again)."""
    dnnl_py_pool.test_others = others
    dnnl_py_pool.test_cpus = cpus


def _init():
    global dnnl_py_budget, dnnl_py_omp_env, dnnl_py_cpus, dnnl_py_report, dnnl_py_stream_bytes
    dnnl_py_omp_env = bool(os.environ.get("OMP_NUM_THREADS", "").strip())
    dnnl_py_budget = cpu_budget()
    dnnl_py_cpus = os.cpu_count() or 0
    from dnnl._platform.caches import STREAM_BYTES
    dnnl_py_stream_bytes = STREAM_BYTES
    dnnl_py_report = os.environ.get("DNNL_PY_THREADS_VERBOSE", "").strip() not in ("", "0")


_init()
