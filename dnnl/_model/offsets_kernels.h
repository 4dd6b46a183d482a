/* Transposes of 1-, 2- and 4-byte elements for logical copies (offsets.pyx): SSE2 is part of
   the x86-64 baseline, so these need no run-time dispatch. Elsewhere (AArch64) the same
   unpacks are GCC vector shuffles of 16 bytes, which become NEON zip1/zip2. */
#ifndef DNNL_PY_OFFSETS_KERNELS_H
#define DNNL_PY_OFFSETS_KERNELS_H
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#define DNNL_PY_V128 1
#define LD(p) _mm_loadu_si128((const __m128i *)(p))
#define ST(p, v) _mm_storeu_si128((__m128i *)(p), v)
#elif defined(__GNUC__) && !defined(__clang__)
#define DNNL_PY_V128 1
/* only what the blocks below use of SSE2, with the same meaning */
typedef uint8_t __m128i __attribute__((vector_size(16)));
typedef uint16_t dnnl_py_v8h __attribute__((vector_size(16)));
typedef uint32_t dnnl_py_v4s __attribute__((vector_size(16)));
typedef uint64_t dnnl_py_v2d __attribute__((vector_size(16)));
static inline __m128i dnnl_py_ld(const void *p) { __m128i v; memcpy(&v, p, 16); return v; }
static inline void dnnl_py_st(void *p, __m128i v) { memcpy(p, &v, 16); }
#define LD(p) dnnl_py_ld(p)
#define ST(p, v) dnnl_py_st((p), (v))
#define _mm_unpacklo_epi8(a, b) __builtin_shuffle((a), (b), (__m128i){0, 16, 1, 17, 2, 18, \
    3, 19, 4, 20, 5, 21, 6, 22, 7, 23})
#define _mm_unpackhi_epi8(a, b) __builtin_shuffle((a), (b), (__m128i){8, 24, 9, 25, 10, 26, \
    11, 27, 12, 28, 13, 29, 14, 30, 15, 31})
#define DNNL_PY_UNPACK(T, a, b, ...) \
    ((__m128i)__builtin_shuffle((T)(a), (T)(b), (T){__VA_ARGS__}))
#define _mm_unpacklo_epi16(a, b) DNNL_PY_UNPACK(dnnl_py_v8h, a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define _mm_unpackhi_epi16(a, b) DNNL_PY_UNPACK(dnnl_py_v8h, a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define _mm_unpacklo_epi32(a, b) DNNL_PY_UNPACK(dnnl_py_v4s, a, b, 0, 4, 1, 5)
#define _mm_unpackhi_epi32(a, b) DNNL_PY_UNPACK(dnnl_py_v4s, a, b, 2, 6, 3, 7)
#define _mm_unpacklo_epi64(a, b) DNNL_PY_UNPACK(dnnl_py_v2d, a, b, 0, 2)
#define _mm_unpackhi_epi64(a, b) DNNL_PY_UNPACK(dnnl_py_v2d, a, b, 1, 3)
#endif

#if defined(DNNL_PY_V128)
/* The last two stages of the 1- and 2-byte blocks: each group of four
   registers (pairs of columns interleaved) unpacked by 32 then 64 bits,
   every result one whole column, stored at d + column * dsb (bytes). */
static inline void dnnl_py_columns(const __m128i *x, int n, char *d, long long dsb) {
    int g;
    for (g = 0; g < n; g += 4) {
        __m128i a = _mm_unpacklo_epi32(x[g], x[g + 1]);
        __m128i b = _mm_unpackhi_epi32(x[g], x[g + 1]);
        __m128i c = _mm_unpacklo_epi32(x[g + 2], x[g + 3]);
        __m128i e = _mm_unpackhi_epi32(x[g + 2], x[g + 3]);
        ST(d + g * dsb, _mm_unpacklo_epi64(a, c));
        ST(d + (g + 1) * dsb, _mm_unpackhi_epi64(a, c));
        ST(d + (g + 2) * dsb, _mm_unpacklo_epi64(b, e));
        ST(d + (g + 3) * dsb, _mm_unpackhi_epi64(b, e));
    }
}

/* The first stage of the 1- and 2-byte blocks: N rows loaded into R, and
   rows 2k, 2k+1 interleaved by BITS into X[k] (low halves) and X[k + N/2]. */
#define ROWS_UNPACKED(R, X, N, BITS, S, SS)                                    \
    do {                                                                       \
        int k_;                                                                \
        for (k_ = 0; k_ < (N); ++k_)                                           \
            R[k_] = LD((S) + k_ * (SS));                                       \
        for (k_ = 0; k_ < (N) / 2; ++k_) {                                     \
            X[k_] = _mm_unpacklo_epi##BITS(R[2 * k_], R[2 * k_ + 1]);          \
            X[k_ + (N) / 2] = _mm_unpackhi_epi##BITS(R[2 * k_], R[2 * k_ + 1]); \
        }                                                                      \
    } while (0)

/* One 16x16 block of bytes: d[a*ds + b] = s[a + b*ss], in registers
   (unpacks of 8, 16, 32 and 64 bits). */
static inline void dnnl_py_block8(const uint8_t *s, long long ss, uint8_t *d,
                                  long long ds) {
    __m128i r[16], x[16], y[16];
    int k;
    ROWS_UNPACKED(r, x, 16, 8, s, ss);      /* columns 0-7 | 8-15, rows 2k, 2k+1 */
    for (k = 0; k < 4; ++k) {      /* column groups of 4, rows 4k..4k+3 */
        y[k] = _mm_unpacklo_epi16(x[2 * k], x[2 * k + 1]);
        y[k + 4] = _mm_unpackhi_epi16(x[2 * k], x[2 * k + 1]);
        y[k + 8] = _mm_unpacklo_epi16(x[8 + 2 * k], x[9 + 2 * k]);
        y[k + 12] = _mm_unpackhi_epi16(x[8 + 2 * k], x[9 + 2 * k]);
    }
    dnnl_py_columns(y, 16, (char *)d, ds);      /* pairs of columns, rows 0-7 | 8-15 */
}

/* One 8x8 block of 2-byte elements (unpacks of 16, 32 and 64 bits). */
static inline void dnnl_py_block16(const uint16_t *s, long long ss, uint16_t *d,
                                   long long ds) {
    __m128i r[8], x[8];
    ROWS_UNPACKED(r, x, 8, 16, s, ss);      /* columns 0-3 | 4-7, rows 2k, 2k+1 */
    dnnl_py_columns(x, 8, (char *)d, 2 * ds);   /* pairs of columns, rows 0-3 | 4-7 */
}

/* One 4x4 block of 4-byte elements (shuffles move bits: NaN payloads kept). */
#if !defined(__SSE2__)
static inline void dnnl_py_block32(const uint32_t *s, long long ss, uint32_t *d,
                                   long long ds) {
    __m128i r0 = LD(s), r1 = LD(s + ss), r2 = LD(s + 2 * ss), r3 = LD(s + 3 * ss);
    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
    __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
    ST(d, _mm_unpacklo_epi64(t0, t1));
    ST(d + ds, _mm_unpackhi_epi64(t0, t1));
    ST(d + 2 * ds, _mm_unpacklo_epi64(t2, t3));
    ST(d + 3 * ds, _mm_unpackhi_epi64(t2, t3));
}
#else
static inline void dnnl_py_block32(const uint32_t *s, long long ss, uint32_t *d,
                                   long long ds) {
    __m128 r0 = _mm_loadu_ps((const float *)s);
    __m128 r1 = _mm_loadu_ps((const float *)(s + ss));
    __m128 r2 = _mm_loadu_ps((const float *)(s + 2 * ss));
    __m128 r3 = _mm_loadu_ps((const float *)(s + 3 * ss));
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_storeu_ps((float *)d, r0);
    _mm_storeu_ps((float *)(d + ds), r1);
    _mm_storeu_ps((float *)(d + 2 * ds), r2);
    _mm_storeu_ps((float *)(d + 3 * ds), r3);
}
#endif
#else
#define SCALAR_BLOCK(NAME, T, V)                                                 \
static inline void NAME(const T *s, long long ss, T *d, long long ds) {          \
    for (int a = 0; a < V; ++a)                                                  \
        for (int b = 0; b < V; ++b)                                              \
            d[a * ds + b] = s[a + b * ss];                                       \
}
SCALAR_BLOCK(dnnl_py_block8, uint8_t, 16)
SCALAR_BLOCK(dnnl_py_block16, uint16_t, 8)
SCALAR_BLOCK(dnnl_py_block32, uint32_t, 4)
#undef SCALAR_BLOCK
#endif

static inline void prefetch(const void *p) {
#if defined(__SSE2__)
    _mm_prefetch((const char *)p, _MM_HINT_T0);
#elif defined(__GNUC__)
    __builtin_prefetch(p);
#endif
}

/* dst[a*ds + b] = src[a + b*ss] for a < na, b < nb: blocks of V x V (V
   elements in 16 bytes) in registers, the edges element by element.
   Tiles of 64 x 64 bytes go through two local buffers, so that every source
   and destination cache line is read or written whole at once, even when
   the rows are a large power of two apart (they share a cache set). */
#define TRANSPOSE(NAME, T, BLOCK)                                                \
static void NAME(const T *src, long long ss, T *dst, long long ds,               \
                 long long na, long long nb) {                                   \
    enum { V = 16 / sizeof(T), L = 64 / sizeof(T) };                             \
    T in[L * L] __attribute__((aligned(64)));                                    \
    T out[L * L] __attribute__((aligned(64)));                                   \
    long long A = na - na % L, B = nb - nb % L, a, b, a0, b0, k;                 \
    for (a0 = 0; a0 < A; a0 += L)                                                \
        for (b0 = 0; b0 < B; b0 += L) {                                          \
            for (k = 0; k < L; ++k) {                                            \
                memcpy(in + k * L, src + a0 + (b0 + k) * ss, 64);                \
                if (a0 + 2 * L < A)  /* rows far apart: too many streams */      \
                    prefetch(src + a0 + 2 * L + (b0 + k) * ss);                  \
            }                                                                    \
            for (a = 0; a < L; a += V)                                           \
                for (b = 0; b < L; b += V)                                       \
                    BLOCK(in + a + b * L, L, out + a * L + b, L);                \
            for (k = 0; k < L; ++k)                                              \
                memcpy(dst + (a0 + k) * ds + b0, out + k * L, 64);               \
        }                                                                        \
    for (a = 0; a < na; a += V) {  /* the rest: a >= A, or a < A and b >= B */ \
        long long m = na - a < V ? na - a : V;                                   \
        b = a < A ? B : 0;                                                       \
        if (m == V)                                                              \
            for (; b + V <= nb; b += V)                                          \
                BLOCK(src + a + b * ss, ss, dst + a * ds + b, ds);               \
        for (a0 = a; a0 < a + m; ++a0)                                           \
            for (b0 = b; b0 < nb; ++b0)                                          \
                dst[a0 * ds + b0] = src[a0 + b0 * ss];                           \
    }                                                                            \
}
TRANSPOSE(dnnl_py_transpose8, uint8_t, dnnl_py_block8)
TRANSPOSE(dnnl_py_transpose16, uint16_t, dnnl_py_block16)
TRANSPOSE(dnnl_py_transpose32, uint32_t, dnnl_py_block32)
#undef TRANSPOSE

#undef ROWS_UNPACKED
#undef LD
#undef ST
#undef DNNL_PY_V128
#endif
