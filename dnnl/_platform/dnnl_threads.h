/* The threads of the parallel kernels: how many, and the pool they run on.
 *
 * Compiled into dnnl/_platform/threads.pyx only; the kernels reach it through
 * dnnl/_platform/threads.pxd (one pool per process, whatever ISA level is loaded).
 *
 * How many: dnnl_py_max_threads(). OpenMP's answer (OMP_NUM_THREADS, the
 * threads of the CPU affinity mask, threadpoolctl's limits set later), capped
 * by the CPU budget dnnl/_platform/threads.pyx computes at import (affinity and a
 * container's CPU quota) unless OMP_NUM_THREADS is set, and by a limit set at
 * run time (dnnl._platform.threads.set_limit). 1 in a build without OpenMP or threads.
 *
 * The pool is made for a machine whose cores other processes also use. A
 * region's items are cut into chunks that the threads claim one at a time
 * (an atomic counter): the caller starts on them at once, a worker that
 * wakes late finds no chunk left and goes back to sleep, and the caller
 * waits only for the chunks other threads actually claimed. A worker that
 * holds a chunk and loses its core still costs the caller a wait; when a
 * region's wall time shows that (the region took longer than the caller
 * alone would have), or that no worker turned up for a long region, the next
 * regions run on the caller alone for a while (SOLO_FIRST_NS, doubling to
 * SOLO_MAX_NS while it keeps happening). Which thread runs a chunk never
 * changes what is written: every item is written by one thread, with the
 * same arithmetic, so results are bit-identical for any thread count and any
 * schedule. Where the pool does not pay on average for a kind of region
 * (dnnl_py_gain_t), that kind runs on the caller alone. All of that is the
 * rule for regions that fit in the caches and for a busy machine: a region
 * beyond the caches on CPUs no other task is running on takes them
 * (dnnl_threads_choice.h has the rule; each region's choice can be printed,
 * DNNL_PY_THREADS_VERBOSE). */
#ifndef DNNL_PY_THREADS_H
#define DNNL_PY_THREADS_H
#include <stdint.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "dnnl_threads_choice.h"

typedef void (*dnnl_py_range_fn)(const void *ctx, int64_t begin, int64_t end, int slot);

/* set by dnnl/_platform/threads.pyx: the CPU budget (0: none known), whether
   OMP_NUM_THREADS is set (it then wins over the budget), a run-time limit
   (0: none); the CPUs online; the bytes a region reads and writes from which
   its data does not stay in the caches (dnnl/_platform/caches.py's
   STREAM_BYTES); whether each region's choice is printed on stderr
   (DNNL_PY_THREADS_VERBOSE) */
static int dnnl_py_budget = 0, dnnl_py_omp_env = 0, dnnl_py_limit = 0;
static int dnnl_py_cpus = 0, dnnl_py_report = 0;
static int64_t dnnl_py_stream_bytes = 1LL << 24;

#define DNNL_PY_POOL_MAX 256

static inline int dnnl_py_max_threads(void) {
#ifdef _OPENMP
    int n = omp_get_max_threads();
#else
    int n = 1;
#endif
    if (!dnnl_py_omp_env && dnnl_py_budget > 0 && dnnl_py_budget < n) n = dnnl_py_budget;
    if (dnnl_py_limit > 0 && dnnl_py_limit < n) n = dnnl_py_limit;
    if (n > DNNL_PY_POOL_MAX) n = DNNL_PY_POOL_MAX;
    return n < 1 ? 1 : n;
}

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#define DNNL_PY_POOL 1

/* chunks per thread: small enough that the threads finish together, large
   enough that claiming (one compare-and-swap) costs nothing */
#define CHUNKS_PER_THREAD 16
/* a worker polls this long for the next region before it sleeps */
#define WORKER_SPIN_NS 30000
/* the caller polls this long for the other threads' chunks before it sleeps */
#define CALLER_SPIN_NS 20000
/* a region this long with no worker turning up means the cores are taken */
#define NO_SHOW_NS 200000
#define SOLO_FIRST_NS 4000000LL
#define SOLO_MAX_NS 256000000LL

/* The claim word: region id (24 bits) | chunks (20 bits) | next chunk (20).
   The seat word: region id (24) | threads (16) | seats taken (24). A thread
   changes either only by compare-and-swap with the id it read, so a late
   worker can never claim in a later region. (A worker stalled over 2^24
   regions between two reads could; it would need hours in one step.) */
#define ID_SHIFT 40
#define FIELD_MASK ((1ULL << 20) - 1)
#define MAX_CHUNKS FIELD_MASK

typedef struct {
    /* the region: written by the caller before it publishes `claim` */
    dnnl_py_range_fn fn;
    const void *ctx;
    int64_t n, chunk;
    _Atomic uint64_t claim, seats;
    _Atomic int64_t done;          /* chunks finished */
    _Atomic int busy;              /* a caller owns the pool */
    /* waking workers, and the caller waiting for the last chunk */
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    _Atomic uint64_t wakes;        /* bumped for each region */
    _Atomic int sleepers;          /* workers asleep (a region wakes them: it is cold) */
    int workers;                   /* started so far (under lock) */
    uint32_t id;
    /* the caller alone until solo_until (monotonic ns); `suspect`: one
       region has stalled since the last that kept up */
    int64_t solo_until, solo_ns;
    int suspect;
    /* test hooks: a worker sleeps this long before taking a seat (< 0: takes
       none) / each chunk;
       the load a region sees (others < 0: the run queue's) */
    _Atomic int64_t delay_join_ns, delay_chunk_ns;
    int test_others, test_cpus;
    /* the last region's choice (dnnl._platform.threads.last_choice), and when
       the first worker took a seat in it (monotonic ns, with the report on) */
    dnnl_py_seen_t last_seen;
    dnnl_py_choice_t last_choice;
    _Atomic int64_t joined_ns;
    /* counts, for tests and benchmarks */
    _Atomic int64_t regions, solo_regions, stalls, worker_chunks, caller_ns, wait_ns;
} dnnl_py_pool_t;

static dnnl_py_pool_t dnnl_py_pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
    .finished = PTHREAD_COND_INITIALIZER, .solo_ns = SOLO_FIRST_NS, .test_others = -1};
static int dnnl_py_backoff = 1;     /* the solo fallback on (dnnl._platform.threads.set_fallback) */

static inline int64_t dnnl_py_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static inline void dnnl_py_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void dnnl_py_sleep_ns(int64_t ns) {
    struct timespec t = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
    nanosleep(&t, NULL);
}

/* Claim and run chunks of the region `id` until none is left; the chunks run. */
static int64_t dnnl_py_run_chunks(dnnl_py_pool_t *p, uint64_t id, int slot, int worker) {
    int64_t ran = 0;
    uint64_t c = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        uint64_t next = c & FIELD_MASK, nch = (c >> 20) & FIELD_MASK;
        if ((c >> ID_SHIFT) != id || next >= nch) return ran;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &c, c + 1,
                                                   memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        /* chunk `next` is ours: the region cannot end before it is done */
        if (worker) {
            int64_t d = atomic_load_explicit(&p->delay_chunk_ns, memory_order_relaxed);
            if (d) dnnl_py_sleep_ns(d);
        }
        int64_t b = (int64_t)next * p->chunk, e = b + p->chunk;
        p->fn(p->ctx, b, e < p->n ? e : p->n, slot);
        ran++;
        if (atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel) + 1 == (int64_t)nch) {
            pthread_mutex_lock(&p->lock);       /* the caller may be asleep */
            pthread_cond_signal(&p->finished);
            pthread_mutex_unlock(&p->lock);
        }
        c = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

static void *dnnl_py_worker(void *arg) {
    dnnl_py_pool_t *p = &dnnl_py_pool;
    uint64_t seen = (uint64_t)(uintptr_t)arg;
    for (;;) {
        /* wait for a region: poll a little (back-to-back calls), then sleep */
        int64_t until = dnnl_py_now() + WORKER_SPIN_NS;
        int spins = 0;
        while (atomic_load_explicit(&p->wakes, memory_order_acquire) == seen) {
            dnnl_py_pause();
            if (++spins % 64 == 0 && dnnl_py_now() > until) {
                pthread_mutex_lock(&p->lock);
                atomic_fetch_add_explicit(&p->sleepers, 1, memory_order_relaxed);
                while (atomic_load_explicit(&p->wakes, memory_order_acquire) == seen)
                    pthread_cond_wait(&p->wake, &p->lock);
                atomic_fetch_sub_explicit(&p->sleepers, 1, memory_order_relaxed);
                pthread_mutex_unlock(&p->lock);
                break;
            }
        }
        seen = atomic_load_explicit(&p->wakes, memory_order_acquire);
        int64_t d = atomic_load_explicit(&p->delay_join_ns, memory_order_relaxed);
        if (d < 0) continue;            /* the test hook's worker that never comes */
        if (d) dnnl_py_sleep_ns(d);
        /* a seat of the region now open, if one is left */
        uint64_t s = atomic_load_explicit(&p->seats, memory_order_acquire);
        for (;;) {
            uint64_t taken = s & ((1ULL << 24) - 1), nthr = (s >> 24) & 0xFFFF;
            if (taken >= nthr) break;
            if (atomic_compare_exchange_weak_explicit(&p->seats, &s, s + 1,
                                                      memory_order_acq_rel,
                                                      memory_order_acquire)) {
                if (dnnl_py_report && taken == 1) atomic_store(&p->joined_ns, dnnl_py_now());
                int64_t ran = dnnl_py_run_chunks(p, s >> ID_SHIFT, (int)taken, 1);
                atomic_fetch_add_explicit(&p->worker_chunks, ran, memory_order_relaxed);
                break;
            }
        }
    }
    return NULL;
}

/* A child of fork() has none of the workers: it starts its own. */
static void dnnl_py_forked(void) {
    dnnl_py_pool_t *p = &dnnl_py_pool;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    p->workers = 0;
    atomic_store(&p->sleepers, 0);
    atomic_store(&p->busy, 0);
}

static void dnnl_py_at_fork(void) { pthread_atfork(NULL, NULL, dnnl_py_forked); }

/* Start workers up to `want` (the caller is not one); the number running. */
static int dnnl_py_grow(dnnl_py_pool_t *p, int want) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (p->workers >= want) return p->workers;    /* (only the owner changes it) */
    pthread_once(&once, dnnl_py_at_fork);
    pthread_mutex_lock(&p->lock);
    while (p->workers < want) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        uint64_t seen = atomic_load_explicit(&p->wakes, memory_order_acquire);
        int rc = pthread_create(&t, &a, dnnl_py_worker, (void *)(uintptr_t)seen);
        pthread_attr_destroy(&a);
        if (rc) break;
        p->workers++;
    }
    int n = p->workers;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* What a kind of region (the caller's `kind`, its function, items and
   threads) takes, on the caller alone and on the pool: the median of its
   last four runs each way (dnnl_py_times_t). A region runs on the pool only
   where that pays (10% faster); every PROBE_EVERY-th run of a kind tries
   the other way, so a change of load is seen. A kind's first runs measure
   both ways (WARM_PAR on the pool, then WARM_SOLO alone) before either
   decides.

   A pool run is counted only with its workers awake. One that had to start
   a worker, or wake one from sleep, is not (a woken worker can turn up
   late by a good part of a small region): the next run of the kind goes on
   the pool too (`follow`) and counts whatever its workers do. Without
   that, a kind once settled on the caller alone stayed there: its probes,
   each with the worker asleep since the last one, measured the pool no
   faster than the caller, though a pool kept busy is faster
   (docs/internals/performance.md has the numbers). Only the pool's owner
   touches it. */
#define GAIN_SLOTS 64

/* The last four times of runs one way, and their median (the mean of the
   middle two; of fewer, the middle one or the faster): one run slowed by
   something else (a kind's first runs touch new memory, several times
   slower than the runs after; an interrupt; a peer's threads holding a
   core for a while) moves it little, while a load that slows most runs
   moves it within two. */
typedef struct {
    int64_t t[4], median;
    uint32_t count;
} dnnl_py_times_t;

static void dnnl_py_note(dnnl_py_times_t *m, int64_t t) {
    m->t[m->count++ % 4] = t;
    uint32_t k = m->count < 4 ? m->count : 4;
    int64_t v[4];
    for (uint32_t i = 0; i < k; ++i) {      /* insertion sort of k <= 4 */
        uint32_t j = i;
        for (; j > 0 && v[j - 1] > m->t[i]; --j) v[j] = v[j - 1];
        v[j] = m->t[i];
    }
    m->median = k == 4 ? (v[1] + v[2]) / 2 : k == 3 ? v[1] : v[0];
}

typedef struct {
    dnnl_py_range_fn fn;
    const void *kind;
    int64_t n;
    dnnl_py_times_t solo, par;
    int nthr, follow;
    uint32_t runs;
} dnnl_py_gain_t;
static dnnl_py_gain_t dnnl_py_gains[GAIN_SLOTS];

static dnnl_py_gain_t *dnnl_py_gain_of(dnnl_py_range_fn fn, const void *kind, int64_t n,
                                       int nthr) {
    uint64_t h = ((uint64_t)(uintptr_t)fn ^ (uint64_t)(uintptr_t)kind * 0xFF51AFD7ED558CCDULL
                  ^ (uint64_t)n * 0x9E3779B97F4A7C15ULL ^ (uint64_t)nthr);
    dnnl_py_gain_t *g = &dnnl_py_gains[(h ^ (h >> 29)) % GAIN_SLOTS];
    if (g->fn != fn || g->kind != kind || g->n != n || g->nthr != nthr) {
        g->fn = fn; g->kind = kind; g->n = n; g->nthr = nthr;
        g->solo.count = g->par.count = 0; g->runs = 0; g->follow = 0;
    }
    return g;
}

/* The tasks running besides the caller and the pool's awake workers, from
   the run queue's count of running tasks (/proc/loadavg's fourth field,
   which counts the reading thread: a spinning worker is running, a
   sleeping one is not); -1 where it cannot be read. Only the pool's owner
   calls it. */
static int dnnl_py_others_running(dnnl_py_pool_t *p) {
    if (p->test_others >= 0) return p->test_others;
#ifdef __linux__
    static int fd = -1;
    if (fd == -1) {
        fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
        if (fd < 0) fd = -2;
    }
    if (fd < 0) return -1;
    char buf[128];
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    if (got <= 0) return -1;
    buf[got] = 0;
    const char *c = buf;        /* "0.16 0.39 1.04 1/93 5218" */
    for (int field = 0; field < 3; ++field) {
        while (*c && *c != ' ') ++c;
        while (*c == ' ') ++c;
    }
    if (*c < '0' || *c > '9') return -1;
    long running = strtol(c, NULL, 10);
    int awake = p->workers - atomic_load_explicit(&p->sleepers, memory_order_relaxed);
    long others = running - 1 - (awake > 0 ? awake : 0);
    return others > 0 ? (int)others : 0;
#else
    (void)p;
    return -1;
#endif
}

/* The report of a region (DNNL_PY_THREADS_VERBOSE): its choice, then what
   happened: the time, the chunks the caller ran of all, when a worker took
   a seat after the region was published, whether it was cold (a worker
   started or woken) or stalled. */
static void dnnl_py_print(const dnnl_py_seen_t *s, dnnl_py_choice_t c, int64_t t0, int64_t t_pub,
                          int64_t t2, int64_t mine, int64_t nch, int cold, int stalled) {
    char text[400], how[160];
    dnnl_py_describe(s, c, text, sizeof text);
    if (nch <= 0) {
        snprintf(how, sizeof how, "alone %.3f ms", (t2 - t0) / 1e6);
    } else {
        int64_t joined = atomic_load(&dnnl_py_pool.joined_ns);
        char when[48];
        if (joined) snprintf(when, sizeof when, "a worker seated %.1f us after the start",
                             (joined - t_pub) / 1e3);
        else snprintf(when, sizeof when, "no worker seated in time");
        snprintf(how, sizeof how, "%.3f ms, the caller ran %lld of %lld chunks, %s%s%s",
                 (t2 - t0) / 1e6, (long long)mine, (long long)nch, when,
                 cold ? ", cold" : "", stalled ? ", stalled" : "");
    }
    fprintf(stderr, "dnnl_py_threads,%s -> %s\n", text, how);
    fflush(stderr);
}

/* Run fn over [0, n) in chunks on up to nthr threads (slots 0 .. nthr-1;
   the caller is slot 0). Returns when every item has run. `kind` identifies
   the work (a plan), for the record of what the pool gains on it; `bytes`:
   what the region reads and writes (0: not known), for the rule of
   dnnl_threads_choice.h. */
static void dnnl_py_parallel(int64_t n, int nthr, dnnl_py_range_fn fn, const void *ctx,
                             const void *kind, int64_t bytes) {
    dnnl_py_pool_t *p = &dnnl_py_pool;
    if (n <= 0) return;
    if (nthr > DNNL_PY_POOL_MAX) nthr = DNNL_PY_POOL_MAX;
    int expected = 0;
    if (nthr <= 1 || n == 1 ||
        !atomic_compare_exchange_strong(&p->busy, &expected, 1)) {
        fn(ctx, 0, n, 0);        /* one thread, or another caller has the pool */
        return;
    }
    atomic_fetch_add_explicit(&p->regions, 1, memory_order_relaxed);
    dnnl_py_gain_t *g = dnnl_py_gain_of(fn, kind, n, nthr);
    int64_t t0 = dnnl_py_now();
    dnnl_py_seen_t s = {
        .nthr = nthr, .n = n, .bytes = bytes, .stream_bytes = dnnl_py_stream_bytes,
        .others = -1, .cpus = p->test_others >= 0 ? p->test_cpus : dnnl_py_cpus,
        .backoff = dnnl_py_backoff, .solo_left_ns = t0 < p->solo_until ? p->solo_until - t0 : 0,
        .follow = g->follow, .par_count = g->par.count, .solo_count = g->solo.count,
        .run = g->runs, .par_median = g->par.median, .solo_median = g->solo.median};
    if (bytes > 0 && bytes >= dnnl_py_stream_bytes)     /* (only then does it matter) */
        s.others = dnnl_py_others_running(p);
    dnnl_py_choice_t c = dnnl_py_choose(&s);
    /* the record's runs are those it decided */
    int recorded = c.why != DNNL_PY_WHY_FREE;
    if (recorded && dnnl_py_backoff) g->runs++;
    p->last_seen = s;
    p->last_choice = c;
    nthr = c.nthr;
    if (nthr <= 1) {
        atomic_fetch_add_explicit(&p->solo_regions, 1, memory_order_relaxed);
        fn(ctx, 0, n, 0);
        int64_t t2 = dnnl_py_now();
        dnnl_py_note(&g->solo, t2 - t0);
        atomic_store_explicit(&p->busy, 0, memory_order_release);
        if (dnnl_py_report) dnnl_py_print(&s, c, t0, t0, t2, 0, 0, 0, 0);
        return;
    }
    int started = p->workers;
    int workers = dnnl_py_grow(p, nthr - 1);
    /* this region's workers are new, or asleep: the run is not counted */
    int cold = workers > started || atomic_load_explicit(&p->sleepers, memory_order_relaxed);
    if (workers < 1) {                  /* no thread could be started */
        p->last_choice.nthr = 1;
        atomic_store(&p->busy, 0);
        fn(ctx, 0, n, 0);
        return;
    }
    if (workers + 1 < nthr) nthr = workers + 1;
    int64_t nch = (int64_t)nthr * CHUNKS_PER_THREAD;
    if (nch > n) nch = n;
    if (nch > (int64_t)MAX_CHUNKS) nch = MAX_CHUNKS;
    int64_t chunk = (n + nch - 1) / nch;
    nch = (n + chunk - 1) / chunk;
    uint64_t id = (p->id = (p->id + 1) & 0xFFFFFF);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->chunk = chunk;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_store_explicit(&p->joined_ns, 0, memory_order_relaxed);
    /* the chunks first: a worker that gets a seat of this region finds them */
    atomic_store_explicit(&p->claim, (id << ID_SHIFT) | ((uint64_t)nch << 20),
                          memory_order_release);
    atomic_store_explicit(&p->seats, (id << ID_SHIFT) | ((uint64_t)nthr << 24) | 1,
                          memory_order_release);
    int64_t t_pub = dnnl_py_report ? dnnl_py_now() : t0;
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add_explicit(&p->wakes, 1, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    int64_t mine = dnnl_py_run_chunks(p, id, 0, 0);
    int64_t t1 = dnnl_py_now();
    if (atomic_load_explicit(&p->done, memory_order_acquire) != nch) {
        int64_t until = t1 + CALLER_SPIN_NS;
        int spins = 0;
        while (atomic_load_explicit(&p->done, memory_order_acquire) != nch) {
            dnnl_py_pause();
            if (++spins % 64 == 0 && dnnl_py_now() > until) {
                pthread_mutex_lock(&p->lock);
                while (atomic_load_explicit(&p->done, memory_order_acquire) != nch)
                    pthread_cond_wait(&p->finished, &p->lock);
                pthread_mutex_unlock(&p->lock);
                break;
            }
        }
    }
    int64_t t2 = dnnl_py_now();
    /* the cores are taken when the region took longer than the caller alone
       would have (its own time per chunk, times the chunks) with its workers
       awake (one woken from sleep is late by the wake-up, and is not
       judged by it), or when no
       worker turned up during a long region */
    int64_t per_chunk = mine > 0 ? (t1 - t0) / mine : 0;
    int stalled = !cold && mine > 0 && mine < nch && t2 - t0 > per_chunk * nch;
    int no_show = mine == nch && t1 - t0 > NO_SHOW_NS;
    atomic_fetch_add_explicit(&p->caller_ns, t1 - t0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->wait_ns, t2 - t1, memory_order_relaxed);
    if (recorded) {         /* (the machine's rule's runs are not the record's) */
        if (!cold || g->follow) dnnl_py_note(&g->par, t2 - t0);
        g->follow = cold && !g->follow;
    }
    if (stalled || no_show) {
        atomic_fetch_add_explicit(&p->stalls, 1, memory_order_relaxed);
        if (p->solo_ns == SOLO_FIRST_NS && !p->suspect) {
            /* the first after regions that kept up: a worker's core lost
               for a moment (an idle VM does it once in a few hundred
               regions), or the cores taken, which the next stall confirms */
            p->suspect = 1;
        } else {
            p->solo_until = t2 + p->solo_ns;
            if (p->solo_ns < SOLO_MAX_NS) p->solo_ns *= 2;
        }
    } else if (mine < nch) {
        p->solo_ns = SOLO_FIRST_NS;   /* the threads came and kept up */
        p->suspect = 0;
    }
    atomic_store_explicit(&p->busy, 0, memory_order_release);
    if (dnnl_py_report) dnnl_py_print(&s, c, t0, t_pub, t2, mine, nch, cold, stalled || no_show);
}

#else   /* no POSIX threads: every region on the caller */
#define DNNL_PY_POOL 0
static void dnnl_py_parallel(int64_t n, int nthr, dnnl_py_range_fn fn, const void *ctx,
                             const void *kind, int64_t bytes) {
    (void)nthr;
    (void)kind;
    (void)bytes;
    if (n > 0) fn(ctx, 0, n, 0);
}
#endif
#endif
