/* C helpers of the reorder kernels (dnnl/primitives/reorder/kernel.pyx). */
#ifndef DNNL_PY_REORDER_KERNELS_H
#define DNNL_PY_REORDER_KERNELS_H
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* One 4x4 block: dst[a*ds + b] = src[a + b*ss] for a, b < 4. */
static inline void dnnl_py_t4x4(const unsigned int *s, long long ss,
                                unsigned int *d, long long ds) {
#if defined(__SSE2__)
    __m128 r0 = _mm_loadu_ps((const float *)(s));
    __m128 r1 = _mm_loadu_ps((const float *)(s + ss));
    __m128 r2 = _mm_loadu_ps((const float *)(s + 2 * ss));
    __m128 r3 = _mm_loadu_ps((const float *)(s + 3 * ss));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps((float *)(d), r0);
    _mm_storeu_ps((float *)(d + ds), r1);
    _mm_storeu_ps((float *)(d + 2 * ds), r2);
    _mm_storeu_ps((float *)(d + 3 * ds), r3);
#elif defined(__GNUC__) && !defined(__clang__)
    /* GCC vector shuffles (NEON zip1/zip2 on AArch64) */
    typedef unsigned int v4 __attribute__((vector_size(16)));
    typedef unsigned long long v2 __attribute__((vector_size(16)));
    v4 r0, r1, r2, r3;
    memcpy(&r0, s, 16);
    memcpy(&r1, s + ss, 16);
    memcpy(&r2, s + 2 * ss, 16);
    memcpy(&r3, s + 3 * ss, 16);
    v2 t0 = (v2)__builtin_shuffle(r0, r1, (v4){0, 4, 1, 5});
    v2 t1 = (v2)__builtin_shuffle(r2, r3, (v4){0, 4, 1, 5});
    v2 t2 = (v2)__builtin_shuffle(r0, r1, (v4){2, 6, 3, 7});
    v2 t3 = (v2)__builtin_shuffle(r2, r3, (v4){2, 6, 3, 7});
    v2 o0 = __builtin_shuffle(t0, t1, (v2){0, 2});
    v2 o1 = __builtin_shuffle(t0, t1, (v2){1, 3});
    v2 o2 = __builtin_shuffle(t2, t3, (v2){0, 2});
    v2 o3 = __builtin_shuffle(t2, t3, (v2){1, 3});
    memcpy(d, &o0, 16);
    memcpy(d + ds, &o1, 16);
    memcpy(d + 2 * ds, &o2, 16);
    memcpy(d + 3 * ds, &o3, 16);
#else
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) d[a * ds + b] = s[a + b * ss];
#endif
}

/* Whether a transpose's source rows (ss elements of 4 bytes apart) alias in
   the caches and its destination's (ds apart) do not: rows a multiple of
   4 KiB apart all fall into one set of L1 (and of L2 from 64 KiB, e.g.
   NCHW 128x128 planes) and evict each other before their next columns are
   read. */
static inline int dnnl_py_rows_alias(long long ss, long long ds) {
    return ss % 1024 == 0 && ds % 1024 != 0;
}

/* dst[a*ds + b] = src[a + b*ss] for a < na, b < nb (4-byte elements):
   4x4 blocks transposed in registers, the edges element by element.

   Four columns of the source at a time, walking down its rows (each
   destination line written whole in turn), unless the source's rows alias
   (dnnl_py_rows_alias): then four rows at a time are read whole instead,
   which is several times faster there (docs/internals/performance.md). */
static void dnnl_py_transpose32(const unsigned int *src, long long ss,
                                unsigned int *dst, long long ds,
                                long long na, long long nb) {
    long long a = 0, b = 0;
    if (dnnl_py_rows_alias(ss, ds)) {
        for (; b + 4 <= nb; b += 4) {
            for (a = 0; a + 4 <= na; a += 4)
                dnnl_py_t4x4(src + a + b * ss, ss, dst + a * ds + b, ds);
            for (; a < na; ++a)
                for (long long i = 0; i < 4; ++i)
                    dst[a * ds + b + i] = src[a + (b + i) * ss];
        }
        for (; b < nb; ++b)
            for (a = 0; a < na; ++a)
                dst[a * ds + b] = src[a + b * ss];
        return;
    }
    for (; a + 4 <= na; a += 4) {
        for (b = 0; b + 4 <= nb; b += 4)
            dnnl_py_t4x4(src + a + b * ss, ss, dst + a * ds + b, ds);
        for (; b < nb; ++b)
            for (long long i = 0; i < 4; ++i)
                dst[(a + i) * ds + b] = src[a + i + b * ss];
    }
    for (; a < na; ++a)
        for (b = 0; b < nb; ++b)
            dst[a * ds + b] = src[a + b * ss];
}

/* rows runs of ``run`` bytes each, ss and ds bytes apart: short runs (a
   channel block of 16 f32, nhwc <-> nChw16c) by copies of a size known
   here, which the compiler makes a few vector moves (a memcpy call per
   64-byte run cost as much as the run). */
#define DNNL_PY_COPY_ROWS_OF(bytes)                                          \
    for (long long r = 0; r < rows; ++r, s += ss, d += ds)                  \
        memcpy(d, s, bytes);                                                \
    return;
static void dnnl_py_copy_rows(const unsigned char *s, long long ss, unsigned char *d,
                              long long ds, long long rows, long long run) {
    switch (run) {
    case 4: DNNL_PY_COPY_ROWS_OF(4)
    case 8: DNNL_PY_COPY_ROWS_OF(8)
    case 16: DNNL_PY_COPY_ROWS_OF(16)
    case 32: DNNL_PY_COPY_ROWS_OF(32)
    case 64: DNNL_PY_COPY_ROWS_OF(64)
    case 128: DNNL_PY_COPY_ROWS_OF(128)
    default: DNNL_PY_COPY_ROWS_OF(run)
    }
}

/* A source in the other byte order (a big-endian array on a little-endian
   machine) is read through these: each run's elements swapped into a buffer
   in L1 first, so the kernels after them read this machine's order and the
   data crosses memory once, as a native source does. */
#define DNNL_PY_SWAP_AHEAD 16384    /* bytes prefetched ahead on a contiguous run */
#if defined(__GNUC__)
#define dnnl_py_bswap16 __builtin_bswap16
#define dnnl_py_bswap32 __builtin_bswap32
#define dnnl_py_prefetch(p) __builtin_prefetch(p)
#else
static inline unsigned short dnnl_py_bswap16(unsigned short v) {
    return (unsigned short)((v >> 8) | (v << 8));
}
static inline unsigned int dnnl_py_bswap32(unsigned int v) {
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}
#define dnnl_py_prefetch(p) ((void)(p))
#endif

/* Reverse the bytes of 16 elements of 4 bytes (32 of 2) at s into b: one
   64-byte line, in vectors (pshufb with SSSE3, shifts with SSE2 alone). */
#if defined(__AVX2__)
#include <immintrin.h>
static inline void dnnl_py_swap_line(const unsigned char *s, unsigned char *b, int esize) {
    const __m256i m4 = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    const __m256i m2 = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                                        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    const __m256i m = esize == 4 ? m4 : m2;
    for (int k = 0; k < 64; k += 32)
        _mm256_storeu_si256((__m256i *)(b + k), _mm256_shuffle_epi8(
            _mm256_loadu_si256((const __m256i *)(s + k)), m));
}
#elif defined(__SSE2__)
#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif
static inline void dnnl_py_swap_line(const unsigned char *s, unsigned char *b, int esize) {
    for (int k = 0; k < 64; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + k));
#if defined(__SSSE3__)
        v = _mm_shuffle_epi8(v, esize == 4
            ? _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
            : _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
#else
        v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));  /* bytes in halves */
        if (esize == 4)                                                /* then the halves */
            v = _mm_or_si128(_mm_slli_epi32(v, 16), _mm_srli_epi32(v, 16));
#endif
        _mm_storeu_si128((__m128i *)(b + k), v);
    }
}
#else
static inline void dnnl_py_swap_line(const unsigned char *s, unsigned char *b, int esize) {
    for (int k = 0; k < 64; k += esize)
        for (int i = 0; i < esize; ++i)
            b[k + i] = s[k + esize - 1 - i];
}
#endif

/* buf[j] = element j * step of src (esize 2 or 4 bytes), its bytes reversed,
   for j < n; a contiguous run a cache line at a time, the source prefetched
   ahead (the swap is what streams from memory here). */
static void dnnl_py_swap_run(const unsigned char *src, long long step, void *buf,
                             long long n, int esize) {
    long long j = 0, per_line = 64 / esize;
    if (step == 1)
        for (; j + per_line <= n; j += per_line) {
            dnnl_py_prefetch(src + j * esize + DNNL_PY_SWAP_AHEAD);
            dnnl_py_swap_line(src + j * esize, (unsigned char *)buf + j * esize, esize);
        }
    if (esize == 4)
        for (; j < n; ++j)
            ((unsigned int *)buf)[j] =
                dnnl_py_bswap32(((const unsigned int *)src)[j * step]);
    else
        for (; j < n; ++j)
            ((unsigned short *)buf)[j] =
                dnnl_py_bswap16(((const unsigned short *)src)[j * step]);
}

/* buf[j] = element base + table[j] of src, its bytes reversed (j < n). */
static void dnnl_py_swap_table(const unsigned char *src, long long base,
                               const int64_t *table, void *buf, long long n,
                               int esize) {
    long long j;
    if (esize == 4)
        for (j = 0; j < n; ++j)
            ((unsigned int *)buf)[j] =
                dnnl_py_bswap32(((const unsigned int *)src)[base + table[j]]);
    else
        for (j = 0; j < n; ++j)
            ((unsigned short *)buf)[j] =
                dnnl_py_bswap16(((const unsigned short *)src)[base + table[j]]);
}

/* Ask for the first ``bytes`` of the run at ``p`` (into L2): the next run of
   a loop whose own loads the hardware prefetcher would not reach in time (a
   strided view's runs are apart). */
static void dnnl_py_prefetch_run(const void *p, long long bytes) {
    for (long long k = 0; k < bytes; k += 64)
#if defined(__GNUC__)
        __builtin_prefetch((const char *)p + k, 0, 2);
#else
        (void)p;
#endif
}

/* Reverse the bytes of ``rows`` rows of ``n`` 4-byte elements, ``stride``
   elements apart, in place (a transposed tile of a swapped source: moving
   bits commutes with swapping them). */
static void dnnl_py_swap_rows32(unsigned int *d, long long stride, long long rows,
                                long long n) {
    for (long long r = 0; r < rows; ++r, d += stride)
        for (long long j = 0; j < n; ++j)
            d[j] = dnnl_py_bswap32(d[j]);
}

#endif
