/* How many threads a parallel region runs on: the rule, as a function of
 * what the region saw (dnnl_py_seen_t), without the pool's state, so tests
 * give it made-up observations (dnnl._platform.threads.choose).
 *
 * Included by dnnl_threads.h, whose pool fills a dnnl_py_seen_t for each
 * region (docs/threads.md gives the rule in words):
 *
 * 1. The machine. A region whose data does not stay in the caches (it reads
 *    and writes at least dnnl_py_stream_bytes) is long (a millisecond or
 *    more) and limited by memory, which two cores move faster than one. When
 *    the CPUs other tasks are not running on (the run queue's count of
 *    running tasks, less this caller and the pool's awake workers) are two
 *    or more, it runs on that many, at most the threads asked for, whatever
 *    the record below says: the record's runs find the workers asleep (a
 *    call after other work does), and a wake-up's cost, which a small region
 *    feels, is nothing beside such a region.
 * 2. Otherwise (a region that fits in the caches, a busy machine, or a load
 *    that cannot be read) the record decides, as it did before the rule
 *    above: the fallback's period to the caller alone, then the record of
 *    what the pool gains on this kind of region (dnnl_threads.h). */
#ifndef DNNL_PY_THREADS_CHOICE_H
#define DNNL_PY_THREADS_CHOICE_H
#include <stdint.h>
#include <stdio.h>

/* a kind's first runs: this many on the pool, then this many alone, before
   its record decides; then one run in PROBE_EVERY goes the other way */
#define WARM_PAR 3
#define WARM_SOLO 2
#define PROBE_EVERY 32

typedef struct {
    int nthr;                  /* threads asked for (2 or more) */
    int64_t n, bytes;          /* items; bytes the region reads and writes (0: not known) */
    int64_t stream_bytes;      /* from this many bytes the data is not kept in the caches */
    int others, cpus;          /* tasks running besides ours (-1: not read); CPUs online */
    int backoff;               /* the fallback to the caller alone is on */
    int64_t solo_left_ns;      /* what is left of its period (0: none) */
    int follow;                /* the record: the last pool run was cold, this one counts */
    uint32_t par_count, solo_count, run;     /* runs recorded each way; runs of the kind */
    int64_t par_median, solo_median;         /* ns */
} dnnl_py_seen_t;

/* why: the rule that chose */
enum {
    DNNL_PY_WHY_FREE,          /* beyond the caches, CPUs free */
    DNNL_PY_WHY_NO_FALLBACK,   /* the fallback off: every region on the pool */
    DNNL_PY_WHY_BACKOFF,       /* the fallback's period: the caller alone */
    DNNL_PY_WHY_FOLLOW,        /* after a cold pool run, one that is counted */
    DNNL_PY_WHY_WARM_PAR,
    DNNL_PY_WHY_WARM_SOLO,
    DNNL_PY_WHY_PAYS,          /* the record: the pool at least 10% faster */
    DNNL_PY_WHY_NO_GAIN,       /* the record: it is not */
    DNNL_PY_WHY_PROBE          /* one run in PROBE_EVERY the other way */
};

typedef struct { int nthr, why; } dnnl_py_choice_t;

/* CPUs no other task is running on (0: not known) */
static inline int dnnl_py_free_cpus(const dnnl_py_seen_t *s) {
    if (s->others < 0 || s->cpus <= 0) return 0;
    return s->cpus > s->others ? s->cpus - s->others : 0;
}

static inline int dnnl_py_beyond_caches(const dnnl_py_seen_t *s) {
    return s->bytes > 0 && s->bytes >= s->stream_bytes;
}

static dnnl_py_choice_t dnnl_py_choose(const dnnl_py_seen_t *s) {
    dnnl_py_choice_t c = {s->nthr, DNNL_PY_WHY_FREE};
    int free_cpus = dnnl_py_free_cpus(s);
    if (dnnl_py_beyond_caches(s) && free_cpus >= 2) {
        if (free_cpus < c.nthr) c.nthr = free_cpus;
        return c;
    }
    if (!s->backoff) {
        c.why = DNNL_PY_WHY_NO_FALLBACK;
    } else if (s->solo_left_ns > 0) {
        c.nthr = 1;
        c.why = DNNL_PY_WHY_BACKOFF;
    } else if (s->follow) {
        c.why = DNNL_PY_WHY_FOLLOW;
    } else if (s->par_count < WARM_PAR) {
        c.why = DNNL_PY_WHY_WARM_PAR;
    } else if (s->solo_count < WARM_SOLO) {
        c.nthr = 1;
        c.why = DNNL_PY_WHY_WARM_SOLO;
    } else {
        int pays = s->par_median * 10 < s->solo_median * 9;
        int probe = s->run % PROBE_EVERY == PROBE_EVERY - 1;
        c.why = probe ? DNNL_PY_WHY_PROBE : pays ? DNNL_PY_WHY_PAYS : DNNL_PY_WHY_NO_GAIN;
        if (pays == probe) c.nthr = 1;
    }
    return c;
}

/* The choice in words: "threads:N (why)", at most `len` bytes with the NUL. */
static int dnnl_py_describe(const dnnl_py_seen_t *s, dnnl_py_choice_t c, char *buf,
                            size_t len) {
    char what[128];
    double mb = s->bytes / 1e6, limit = s->stream_bytes / 1e6;
    if (s->bytes <= 0)
        snprintf(what, sizeof what, "bytes not known");
    else if (!dnnl_py_beyond_caches(s))
        snprintf(what, sizeof what, "%.1f MB < %.1f MB: in the caches", mb, limit);
    else if (s->others < 0 || s->cpus <= 0)
        snprintf(what, sizeof what, "%.1f MB >= %.1f MB: beyond the caches; load not known",
                 mb, limit);
    else
        snprintf(what, sizeof what, "%.1f MB >= %.1f MB: beyond the caches; "
                 "%d other task%s running, %d of %d CPUs free", mb, limit, s->others,
                 s->others == 1 ? "" : "s", dnnl_py_free_cpus(s), s->cpus);
    if (c.why == DNNL_PY_WHY_FREE)
        return snprintf(buf, len, "threads:%d (items %lld, %s)", c.nthr, (long long)s->n, what);
    char rec[128];
    double pm = s->par_median / 1e6, sm = s->solo_median / 1e6;
    switch (c.why) {
    case DNNL_PY_WHY_NO_FALLBACK:
        snprintf(rec, sizeof rec, "fallback off: every region on the pool");
        break;
    case DNNL_PY_WHY_BACKOFF:
        snprintf(rec, sizeof rec, "fallback: regions found the cores taken, %.1f ms left",
                 s->solo_left_ns / 1e6);
        break;
    case DNNL_PY_WHY_FOLLOW:
        snprintf(rec, sizeof rec, "record: after a pool run that woke a worker, one counted");
        break;
    case DNNL_PY_WHY_WARM_PAR:
        snprintf(rec, sizeof rec, "record: first runs, %u of %d on the pool", s->par_count + 1,
                 WARM_PAR);
        break;
    case DNNL_PY_WHY_WARM_SOLO:
        snprintf(rec, sizeof rec, "record: first runs, %u of %d alone", s->solo_count + 1,
                 WARM_SOLO);
        break;
    case DNNL_PY_WHY_PAYS:
        snprintf(rec, sizeof rec, "record: pool %.3f ms < 0.9 x alone %.3f ms", pm, sm);
        break;
    case DNNL_PY_WHY_NO_GAIN:
        snprintf(rec, sizeof rec, "record: pool %.3f ms, not 10%% under alone %.3f ms", pm, sm);
        break;
    default:
        snprintf(rec, sizeof rec, "record: a probe (1 run in %d) the other way; pool %.3f ms, "
                 "alone %.3f ms", PROBE_EVERY, pm, sm);
    }
    return snprintf(buf, len, "threads:%d (items %lld, %s; %s)", c.nthr, (long long)s->n,
                    what, rec);
}
#endif
