/* Vector bodies of the reorder kernel's fused runs: contiguous f32 -> s8 / u8 / bf16
   with run-constant scales and zero point,

       t = a * x / dv + z        (the multiply skipped when a == 1, the
                                  division when dv == 1: both exact)
       dst = saturate_round(t)   (s8 / u8)  or  bf16_rne(t)

   with the arithmetic of dnnl/_kernels/cvt.pxd.in's scalar encoders, bit for
   bit: saturate in f32 (the bounds are integers, so clamping before rounding
   is clamping after), round half to even by cvtps2dq (MXCSR's default mode,
   the mode nearbyintf uses), NaN -> 0. Each function converts the longest
   prefix its vectors cover and returns its length; the caller converts the
   rest with the scalar encoders. SSE2 is the baseline of x86-64; AVX2 builds
   (x86-64-v3, and v4, whose CPUs run it as well) use 256-bit vectors.

   These loops stream from memory: the source is prefetched ahead (the
   hardware prefetcher alone leaves DRAM bandwidth unused; q_prefetch), into
   the next run near a run's end (a strided view's runs are apart: what
   follows a run in memory is not read), and
   with ``nt`` the stores bypass the caches (no read for ownership of lines
   about to be overwritten whole; the caller asks for it only when the tensors
   are too large to stay in cache anyway). Non-temporal stores need aligned
   addresses: a misaligned run starts with one ordinary step (q_head). */
#ifndef DNNL_PY_QUANT_KERNELS_H
#define DNNL_PY_QUANT_KERNELS_H
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define DNNL_PY_INLINE static inline __attribute__((always_inline))
#else
#define DNNL_PY_INLINE static inline
#endif

#if defined(__AVX2__)
#define QV __m256
#define QI __m256i
#define QW 8
#define q_set1 _mm256_set1_ps
#define q_load _mm256_loadu_ps
#define q_mul _mm256_mul_ps
#define q_div _mm256_div_ps
#define q_add _mm256_add_ps
#define q_max _mm256_max_ps
#define q_min _mm256_min_ps
#define q_and _mm256_and_ps
#define q_ord(t) _mm256_cmp_ps(t, t, _CMP_ORD_Q)
#define q_cvt _mm256_cvtps_epi32
#elif defined(__SSE2__)
#define QV __m128
#define QI __m128i
#define QW 4
#define q_set1 _mm_set1_ps
#define q_load _mm_loadu_ps
#define q_mul _mm_mul_ps
#define q_div _mm_div_ps
#define q_add _mm_add_ps
#define q_max _mm_max_ps
#define q_min _mm_min_ps
#define q_and _mm_and_ps
#define q_ord(t) _mm_cmpord_ps(t, t)
#define q_cvt _mm_cvtps_epi32
#endif

#if defined(QW)
#ifndef Q_AHEAD
#define Q_AHEAD 1024
#endif

/* The source is prefetched ahead of the loads. A dense run (its chunks
   adjacent) straight on, Q_AHEAD floats ahead into L1. A strided view's
   runs are apart in memory (``far``): what follows a run is a gap, not the
   next run, so past a run's end the prefetches go as far into the next one
   (``next``, NULL when there is none), twice as far ahead and into L2: a
   strided view's call then costs little more than a contiguous one, which
   the dense runs' plain prefetch would not give (docs/internals/
   performance.md). ``q_far_ahead``: where the step at element j of a run
   of n at x prefetches (NULL: nothing). */
DNNL_PY_INLINE const float *q_far_ahead(const float *x, long long j, long long n,
                                        const float *next) {
    long long k = j + 2 * Q_AHEAD;
    return k < n ? x + k : next ? next + (k - n) : 0;
}

/* The prefetch of a step at x: ``pf`` (from q_far_ahead) when far. */
DNNL_PY_INLINE void q_prefetch(const float *x, const float *pf, int far) {
    if (!far)
        _mm_prefetch((const char *)(x + Q_AHEAD), _MM_HINT_T0);
    else if (pf)
        _mm_prefetch((const char *)pf, _MM_HINT_T1);
}

/* Orders the streaming stores before what follows (once per plan run on
   one thread: a fence per run stalled the next run's first stores). */
static inline void dnnl_py_sfence(void) {
    _mm_sfence();
}

DNNL_PY_INLINE void q_store(void *d, QI v, int nt) {
#if defined(__AVX2__)
    if (nt)
        _mm256_stream_si256((__m256i *)d, v);
    else
        _mm256_storeu_si256((__m256i *)d, v);
#else
    if (nt)
        _mm_stream_si128((__m128i *)d, v);
    else
        _mm_storeu_si128((__m128i *)d, v);
#endif
}

/* Where a loop of ``step``-element steps starts: 0, or, for non-temporal
   stores to a misaligned ``d``, the first element whose address is aligned
   (the caller converts the head by one ordinary step at 0: the overlap is
   converted twice, to the same bytes). Clears ``nt`` when ``d`` can never
   be aligned or the run is too short. */
DNNL_PY_INLINE long long q_head(const void *d, long long n, int esize, long long step,
                                int *nt) {
    uintptr_t mis = (uintptr_t)d % sizeof(QI);
    if (!*nt || !mis)
        return 0;
    if (mis % (uintptr_t)esize || n < 2 * step) {
        *nt = 0;
        return 0;
    }
    return (long long)((sizeof(QI) - mis) / (uintptr_t)esize);
}

/* QW floats at x, each stored in the other byte order: its bytes reversed
   in the register (SSE2 alone has no byte shuffle: two rotations). */
DNNL_PY_INLINE QV q_load_swapped(const float *x) {
#if defined(__AVX2__)
    const __m256i m = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                       3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    return _mm256_castsi256_ps(_mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)x), m));
#else
    __m128i v = _mm_loadu_si128((const __m128i *)x);
    v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
    return _mm_castsi128_ps(_mm_or_si128(_mm_slli_epi32(v, 16), _mm_srli_epi32(v, 16)));
#endif
}

/* a * x / dv + z on one vector, in the reference's order (``swap``: x is
   in the other byte order). */
DNNL_PY_INLINE QV q_affine(const float *x, QV a, QV dv, QV z, int mul, int div, int swap) {
    QV t = swap ? q_load_swapped(x) : q_load(x);
    if (mul)
        t = q_mul(a, t);
    if (div)
        t = q_div(t, dv);
    return q_add(t, z);
}

/* 4*QW int32 in [-128, 255] -> 4*QW bytes, in order (signed or unsigned
   saturation is exact here: the values are already in range). */
DNNL_PY_INLINE void q_store_bytes(uint8_t *d, QI i0, QI i1, QI i2, QI i3, int u8,
                                  int nt) {
#if defined(__AVX2__)
    __m256i w0 = _mm256_packs_epi32(i0, i1), w1 = _mm256_packs_epi32(i2, i3);
    __m256i b = u8 ? _mm256_packus_epi16(w0, w1) : _mm256_packs_epi16(w0, w1);
    /* the packs worked per 128-bit lane: put the 4-byte groups back in order */
    b = _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    q_store(d, b, nt);
#else
    __m128i w0 = _mm_packs_epi32(i0, i1), w1 = _mm_packs_epi32(i2, i3);
    q_store(d, u8 ? _mm_packus_epi16(w0, w1) : _mm_packs_epi16(w0, w1), nt);
#endif
}

DNNL_PY_INLINE void q_i8_step(const float *x, uint8_t *d, const float *pf, int far, QV va,
                               QV vd, QV vz, QV lo, QV hi, int nt, int mul, int div,
                               int swap, int u8) {
    QI i[4];
    for (int k = 0; k < 4 * QW; k += 16)    /* one per 64-byte line */
        q_prefetch(x + k, pf ? pf + k : 0, far);
    for (int k = 0; k < 4; ++k) {
        QV t = q_affine(x + k * QW, va, vd, vz, mul, div, swap);
        /* NaN -> +0 (maxps returns its second operand on NaN, which does
           it for u8's lower bound 0, but not for s8's -128) */
        if (!u8)
            t = q_and(t, q_ord(t));
        i[k] = q_cvt(q_min(q_max(t, lo), hi));
    }
    q_store_bytes(d, i[0], i[1], i[2], i[3], u8, nt);
}

DNNL_PY_INLINE long long q_i8_body(const float *x, uint8_t *d, long long n,
                                   const float *next, float a, float dv, float z, int nt,
                                   int mul, int div, int swap, int far, int u8) {
    const QV va = q_set1(a), vd = q_set1(dv), vz = q_set1(z);
    const QV lo = q_set1(u8 ? 0.0f : -128.0f), hi = q_set1(u8 ? 255.0f : 127.0f);
    long long j = q_head(d, n, 1, 4 * QW, &nt);
    if (j)
        q_i8_step(x, d, far ? q_far_ahead(x, 0, n, next) : 0, far, va, vd, vz, lo, hi, 0,
                  mul, div, swap, u8);
    for (; j + 4 * QW <= n; j += 4 * QW)
        q_i8_step(x + j, d + j, far ? q_far_ahead(x, j, n, next) : 0, far, va, vd, vz, lo,
                  hi, nt, mul, div, swap, u8);
    if (j < n && n >= 4 * QW) {
        /* the tail by one ordinary step ending at n, as the head: the
           overlap is converted twice, to the same bytes (a short run, a
           crop's row, would otherwise be left to the scalar loop) */
        q_i8_step(x + n - 4 * QW, d + n - 4 * QW, 0, far, va, vd, vz, lo, hi, 0, mul, div,
                  swap, u8);
        j = n;
    }
    return j;
}

#define Q_S8(x, d, n, next, a, dv, z, nt, mul, div, swap, far) \
    q_i8_body(x, d, n, next, a, dv, z, nt, mul, div, swap, far, 0)
#define Q_U8(x, d, n, next, a, dv, z, nt, mul, div, swap, far) \
    q_i8_body(x, d, n, next, a, dv, z, nt, mul, div, swap, far, 1)

/* bf16 of QW values: RNE on the bit pattern, NaN -> high half | 0x40 (the
   quiet bit set, no rounding), each as its sign-extended high half so that
   the signed pack keeps the 16 bits exactly. */
DNNL_PY_INLINE QI q_bf16_half(QV t) {
#if defined(__AVX2__)
    __m256i u = _mm256_castps_si256(t);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(t, t, _CMP_UNORD_Q));
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i bias = _mm256_andnot_si256(nan, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    u = _mm256_or_si256(u, _mm256_and_si256(nan, _mm256_set1_epi32(0x00400000)));
    return _mm256_srai_epi32(_mm256_add_epi32(u, bias), 16);
#else
    __m128i u = _mm_castps_si128(t);
    __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(t, t));
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(1));
    __m128i bias = _mm_andnot_si128(nan, _mm_add_epi32(lsb, _mm_set1_epi32(0x7fff)));
    u = _mm_or_si128(u, _mm_and_si128(nan, _mm_set1_epi32(0x00400000)));
    return _mm_srai_epi32(_mm_add_epi32(u, bias), 16);
#endif
}

DNNL_PY_INLINE void q_bf16_step(const float *x, uint16_t *d, QV va, QV vd, QV vz,
                                 int nt, int mul, int div, int swap) {
    QI r0 = q_bf16_half(q_affine(x, va, vd, vz, mul, div, swap));
    QI r1 = q_bf16_half(q_affine(x + QW, va, vd, vz, mul, div, swap));
#if defined(__AVX2__)
    q_store(d, _mm256_permute4x64_epi64(_mm256_packs_epi32(r0, r1), 0xd8), nt);
#else
    q_store(d, _mm_packs_epi32(r0, r1), nt);
#endif
}

DNNL_PY_INLINE long long q_bf16_body(const float *x, uint16_t *d, long long n,
                                     const float *next, float a, float dv, float z, int nt,
                                     int mul, int div, int swap, int far) {
    const QV va = q_set1(a), vd = q_set1(dv), vz = q_set1(z);
    long long j = q_head(d, n, 2, 2 * QW, &nt);
    if (j)
        q_bf16_step(x, d, va, vd, vz, 0, mul, div, swap);
    for (; j + 2 * QW <= n; j += 2 * QW) {
        /* a line per step at AVX2, two at SSE2 */
        q_prefetch(x + j, far ? q_far_ahead(x, j, n, next) : 0, far);
        q_bf16_step(x + j, d + j, va, vd, vz, nt, mul, div, swap);
    }
    if (j < n && n >= 2 * QW) {     /* the tail as in q_i8_body */
        q_bf16_step(x + n - 2 * QW, d + n - 2 * QW, va, vd, vz, 0, mul, div, swap);
        j = n;
    }
    return j;
}
#else
static inline void dnnl_py_sfence(void) {
}
#endif

/* The entry points: elements converted (a prefix of the run); ``nt``:
   non-temporal stores (the caller fences them: dnnl_py_sfence); the
   ``_views`` ones with ``swap``: the source is in the other byte order; ``next``: where the run
   after this one starts (its source is prefetched as this one ends), or
   NULL; ``far``: the source's runs are apart in memory (q_prefetch). Which operations run is
   decided once per run, each loop specialised. */
#if defined(QW)
#define Q_BODY(body, swap, far)                                                 \
    if (mul && div) done = body(x, d, n, next, a, dv, z, nt, 1, 1, swap, far);  \
    else if (mul) done = body(x, d, n, next, a, dv, z, nt, 1, 0, swap, far);    \
    else if (div) done = body(x, d, n, next, a, dv, z, nt, 0, 1, swap, far);    \
    else done = body(x, d, n, next, a, dv, z, nt, 0, 0, swap, far);
/* a dense source in this machine's order: the loops alone, inlined into the
   caller (called, with the views' loops beside them, the call's prologue
   after the last run's sfence costs a dense quantization measurably) */
#define Q_ENTRY(name, T, body)                                                  \
    DNNL_PY_INLINE long long name(const float *x, T *d, long long n, float a,   \
                                  float dv, float z, int nt) {                  \
        long long done;                                                         \
        const float *next = 0;                                                  \
        int mul = a != 1.0f, div = dv != 1.0f;                                  \
        Q_BODY(body, 0, 0)                                                      \
        return done;                                                            \
    }
/* a strided view (``far``) or the other byte order (``swap``) */
#define Q_ENTRY_VIEWS(name, T, body)                                            \
    static long long name(const float *x, T *d, long long n, const float *next, \
                          int far, float a, float dv, float z, int nt,          \
                          int swap) {                                           \
        long long done;                                                         \
        int mul = a != 1.0f, div = dv != 1.0f;                                  \
        if (swap && far) {                                                      \
            Q_BODY(body, 1, 1)                                                  \
        } else if (swap) {                                                      \
            Q_BODY(body, 1, 0)                                                  \
        } else {                                                                \
            Q_BODY(body, 0, 1)                                                  \
        }                                                                       \
        return done;                                                            \
    }
#else
#define Q_ENTRY(name, T, body)                                                  \
    static long long name(const float *x, T *d, long long n, float a, float dv, \
                          float z, int nt) {                                    \
        (void)x, (void)d, (void)n, (void)a, (void)dv, (void)z, (void)nt;        \
        return 0;                                                               \
    }
#define Q_ENTRY_VIEWS(name, T, body)                                            \
    static long long name(const float *x, T *d, long long n, const float *next, \
                          int far, float a, float dv, float z, int nt,          \
                          int swap) {                                           \
        (void)x, (void)d, (void)n, (void)a, (void)dv, (void)z, (void)nt;        \
        (void)swap, (void)next, (void)far;                                      \
        return 0;                                                               \
    }
#endif

Q_ENTRY(dnnl_py_f32_s8, uint8_t, Q_S8)
Q_ENTRY(dnnl_py_f32_u8, uint8_t, Q_U8)
Q_ENTRY(dnnl_py_f32_bf16, uint16_t, q_bf16_body)
Q_ENTRY_VIEWS(dnnl_py_f32_s8_views, uint8_t, Q_S8)
Q_ENTRY_VIEWS(dnnl_py_f32_u8_views, uint8_t, Q_U8)
Q_ENTRY_VIEWS(dnnl_py_f32_bf16_views, uint16_t, q_bf16_body)

#endif
