/* The W step of a resize row (kernel.pyx's fused rows): one output row from
   one f32 row of the H step, through the W table. Every output element
   is w[0] * r[first] + w[1] * r[first + 1 pixel] + ... (+ bias), the taps
   summed in order, one rounding per product and per sum: the operations of
   the axis pass, so the fused rows give its bits. Compiled once per ISA
   level, the same bits at every level. */
#ifndef DNNL_PY_RESIZE_ROWS_H
#define DNNL_PY_RESIZE_ROWS_H
#include <stdint.h>
#include <string.h>
#include "avx2_permutes.h"         /* dnnl/_kernels */
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* F(k, ...) with k a constant where it is linear's 2 taps or cubic's 4: F
   is inlined (RZ_INLINE), so their taps' loops unroll and the weights and
   rows of the taps stay in registers. */
#define RZ_INLINE static inline __attribute__((always_inline))
#define RZ_BY_TAPS(k, F, ...) \
    ((k) == 2 ? F(2, __VA_ARGS__) : (k) == 4 ? F(4, __VA_ARGS__) : F((k), __VA_ARGS__))
/* A row's step, called once a row, compiled on its own: its loop's
   pointers and strides stay in registers (inlined into the fused rows'
   loop, they were spilled and reloaded every vector). */
#define RZ_ROW_STEP static __attribute__((noinline))

/* At the x86-64-v4 level, the gathers are compiled as at v3: gcc's v4
   tuning emulates 16-wide gathers with element inserts, slower than v3's
   hardware gathers (as the resampling pixel rows found). noinline: inlined
   into a v4 caller, it would be compiled as v4 again. */
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#define RZ_GATHER_AS_V3 __attribute__((noinline, target("no-avx512f")))
#else
#define RZ_GATHER_AS_V3
#endif

/* Few channels: one table entry per output element (n = pixels x C), so the
   loops run across the row's elements, not across the few channels of a
   pixel. idx[j]: the element of the first tap in r; the tap t of element j
   reads r[idx[j] + t * step] (step: the channels) with weight w[t * n + j];
   bias: n values, or NULL. win: per block of RZ_BLOCK elements, the
   element where a window of its taps starts in r, its width in registers
   (1 or 2; 3: two windows of 2, one per half of the block, the second
   starting at the third value; 0: the block gathers): the plan's
   (AxisTable.elements), which keeps each window inside the row. tap: per
   8 elements (AVX2's register), the start of a window of 8 floats holding
   their first taps, tap t's being the same moved by t * step, or -1; and
   rel[j], element j's first tap in its window: one load and one permute a
   tap, with one index for every tap (AVX2 only; the AVX-512 kernel
   permutes 16 out of win's). */
#define RZ_BLOCK 16
#if defined(__AVX2__) && !defined(__AVX512F__)
/* The sum of the k taps of 8 elements (idx, w: theirs; n: the weights'
   row), gathered. */
static inline __m256 rz_gather8(const float* r, const int32_t* idx, const float* w, int64_t n,
                                int64_t k, int64_t step) {
    const __m256i ix = _mm256_loadu_si256((const __m256i*)idx);
    __m256 acc = _mm256_mul_ps(_mm256_loadu_ps(w), _mm256_i32gather_ps(r, ix, 4));
    for (int64_t t = 1; t < k; t++)
        acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + t * n),
                                               _mm256_i32gather_ps(r + t * step, ix, 4)));
    return acc;
}
/* The sum of the k taps of 8 elements from their tapwise window at q (ix:
   their first taps' places in it; w, n as in rz_gather8). */
static inline __m256 rz_tapwise8(const float* q, __m256i ix, const float* w, int64_t n,
                                 int64_t k, int64_t step) {
    __m256 acc = _mm256_mul_ps(_mm256_loadu_ps(w), _mm256_permutevar8x32_ps(_mm256_loadu_ps(q),
                                                                            ix));
    for (int64_t t = 1; t < k; t++)
        acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + t * n),
                                               _mm256_permutevar8x32_ps(
                                                   _mm256_loadu_ps(q + t * step), ix)));
    return acc;
}
/* rz_wstep_elems's AVX2 blocks of 8 (returns the elements done): each
   from its tapwise window, else from its block's window (a half's own with
   3): 16 floats in two registers, 32 in four, each tap's elements permuted
   out of them (avx2_permutes.h); an 8-wide gather costs a Zen 3 about 12
   cycles, four times the permutes of one tap from 16 floats. */
RZ_INLINE int64_t rz_wstep_avx2(
        int64_t k, float* __restrict o, const float* __restrict r,
        const int32_t* __restrict idx, const float* __restrict w,
        const float* __restrict bias, const int32_t* __restrict win,
        const int32_t* __restrict tap, const int32_t* __restrict rel, int64_t n,
        int64_t step) {
    int64_t j = 0;
    const __m256i vstep = _mm256_set1_epi32((int32_t)step);
    for (; j + 8 <= n; j += 8) {
        const int32_t* wb = win + 3 * (j / RZ_BLOCK);
        const int whole = j - j % RZ_BLOCK + RZ_BLOCK <= n;     /* in a block of win's */
        __m256 acc;
        if (tap[j / 8] >= 0) {
            acc = rz_tapwise8(r + tap[j / 8], _mm256_loadu_si256((const __m256i*)(rel + j)),
                              w + j, n, k, step);
        } else if (!whole || wb[1] == 0) {      /* spread wider: gathered */
            acc = rz_gather8(r, idx + j, w + j, n, k, step);
        } else {
            const int64_t start = wb[1] == 3 && j % RZ_BLOCK ? wb[2] : wb[0];
            const float* q = r + start;
            __m256i ix = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i*)(idx + j)),
                                          _mm256_set1_epi32((int32_t)start));
            if (wb[1] == 1) {
                const __m256 a0 = _mm256_loadu_ps(q), a1 = _mm256_loadu_ps(q + 8);
                acc = _mm256_mul_ps(_mm256_loadu_ps(w + j), dnnl_py_perm16(a0, a1, ix));
                for (int64_t t = 1; t < k; t++) {
                    ix = _mm256_add_epi32(ix, vstep);
                    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + t * n + j),
                                                           dnnl_py_perm16(a0, a1, ix)));
                }
            } else {
                const __m256 a0 = _mm256_loadu_ps(q), a1 = _mm256_loadu_ps(q + 8);
                const __m256 a2 = _mm256_loadu_ps(q + 16), a3 = _mm256_loadu_ps(q + 24);
                acc = _mm256_mul_ps(_mm256_loadu_ps(w + j), dnnl_py_perm32(a0, a1, a2, a3, ix));
                for (int64_t t = 1; t < k; t++) {
                    ix = _mm256_add_epi32(ix, vstep);
                    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + t * n + j),
                                                           dnnl_py_perm32(a0, a1, a2, a3, ix)));
                }
            }
        }
        if (bias) acc = _mm256_add_ps(acc, _mm256_loadu_ps(bias + j));
        _mm256_storeu_ps(o + j, acc);
    }
    return j;
}
#endif
RZ_ROW_STEP void rz_wstep_elems(float* __restrict o, const float* __restrict r,
                                const int32_t* __restrict idx, const float* __restrict w,
                                const float* __restrict bias, const int32_t* __restrict win,
                                const int32_t* __restrict tap, const int32_t* __restrict rel,
                                int64_t n, int64_t k, int64_t step) {
    int64_t j = 0;
    /* the sum kept in a register across the taps; a block's taps permuted
       from one or two registers of the row where they fit (a cycle, where a
       16-wide gather costs several), else gathered */
#if defined(__AVX512F__)
    (void)tap;
    (void)rel;
    const __m512i vstep = _mm512_set1_epi32((int32_t)step);
    for (; j + RZ_BLOCK <= n; j += RZ_BLOCK) {
        const int32_t* wb = win + 3 * (j / RZ_BLOCK);
        __m512i ix = _mm512_loadu_si512((const void*)(idx + j));
        __m512 acc;
        if (wb[1] == 1) {
            const __m512 a = _mm512_loadu_ps(r + wb[0]);
            ix = _mm512_sub_epi32(ix, _mm512_set1_epi32(wb[0]));
            acc = _mm512_mul_ps(_mm512_loadu_ps(w + j), _mm512_permutexvar_ps(ix, a));
            for (int64_t t = 1; t < k; t++) {
                ix = _mm512_add_epi32(ix, vstep);
                acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(w + t * n + j),
                                                       _mm512_permutexvar_ps(ix, a)));
            }
        } else if (wb[1] == 2) {
            const __m512 a = _mm512_loadu_ps(r + wb[0]), b = _mm512_loadu_ps(r + wb[0] + 16);
            ix = _mm512_sub_epi32(ix, _mm512_set1_epi32(wb[0]));
            acc = _mm512_mul_ps(_mm512_loadu_ps(w + j), _mm512_permutex2var_ps(a, ix, b));
            for (int64_t t = 1; t < k; t++) {
                ix = _mm512_add_epi32(ix, vstep);
                acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_loadu_ps(w + t * n + j),
                                                       _mm512_permutex2var_ps(a, ix, b)));
            }
        } else if (wb[1] == 3) {
            /* two windows of two registers, the block's halves: a shrink */
            const __m512 a = _mm512_loadu_ps(r + wb[0]), b = _mm512_loadu_ps(r + wb[0] + 16);
            const __m512 c = _mm512_loadu_ps(r + wb[2]), d = _mm512_loadu_ps(r + wb[2] + 16);
            __m512i iy = _mm512_sub_epi32(ix, _mm512_set1_epi32(wb[2]));
            ix = _mm512_sub_epi32(ix, _mm512_set1_epi32(wb[0]));
            acc = _mm512_mul_ps(_mm512_loadu_ps(w + j), _mm512_mask_blend_ps(
                (__mmask16)0xff00, _mm512_permutex2var_ps(a, ix, b),
                _mm512_permutex2var_ps(c, iy, d)));
            for (int64_t t = 1; t < k; t++) {
                ix = _mm512_add_epi32(ix, vstep);
                iy = _mm512_add_epi32(iy, vstep);
                acc = _mm512_add_ps(acc, _mm512_mul_ps(
                    _mm512_loadu_ps(w + t * n + j), _mm512_mask_blend_ps(
                        (__mmask16)0xff00, _mm512_permutex2var_ps(a, ix, b),
                        _mm512_permutex2var_ps(c, iy, d))));
            }
        } else {
            acc = _mm512_mul_ps(_mm512_loadu_ps(w + j), _mm512_i32gather_ps(ix, r, 4));
            for (int64_t t = 1; t < k; t++)
                acc = _mm512_add_ps(acc, _mm512_mul_ps(
                    _mm512_loadu_ps(w + t * n + j), _mm512_i32gather_ps(ix, r + t * step, 4)));
        }
        if (bias) acc = _mm512_add_ps(acc, _mm512_loadu_ps(bias + j));
        _mm512_storeu_ps(o + j, acc);
    }
#elif defined(__AVX2__)
    j = RZ_BY_TAPS(k, rz_wstep_avx2, o, r, idx, w, bias, win, tap, rel, n, step);
#else
    (void)win;
    (void)tap;
    (void)rel;
#endif
    for (; j < n; j++) {
        float v = w[j] * r[idx[j]];
        for (int64_t t = 1; t < k; t++) v = v + w[t * n + j] * r[idx[j] + t * step];
        if (bias) v = v + bias[j];
        o[j] = v;
    }
}

/* Nearest (one tap of weight 1, no bias): a copy. */
RZ_GATHER_AS_V3
static void rz_wstep_pick(float* __restrict o, const float* __restrict r,
                          const int32_t* __restrict idx, int64_t n) {
    for (int64_t j = 0; j < n; j++) o[j] = r[idx[j]];
}

/* The vector of the level: AVX-512's 16 floats or AVX2's 8 (none below). */
#if defined(__AVX512F__)
#define RZ_LANES 16
typedef __m512 rz_vec;
#define RZ_SET1 _mm512_set1_ps
#define RZ_MUL _mm512_mul_ps
#define RZ_ADD _mm512_add_ps
#define RZ_STORE _mm512_storeu_ps
#define RZ_LOAD_F32(p) _mm512_loadu_ps(p)
#define RZ_LOAD_U8(p) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(p))))
#elif defined(__AVX2__)
#define RZ_LANES 8
typedef __m256 rz_vec;
#define RZ_SET1 _mm256_set1_ps
#define RZ_MUL _mm256_mul_ps
#define RZ_ADD _mm256_add_ps
#define RZ_STORE _mm256_storeu_ps
#define RZ_LOAD_F32(p) _mm256_loadu_ps(p)
#define RZ_LOAD_U8(p) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(p))))
#endif

/* The H step over k consecutive source rows (row t at row0 + t * stride
   elements) of u8 or f32: h[i] = w[0] * row_0[i] + ... + w[k-1] *
   row_{k-1}[i] (+ *bias), the sum in a register across the taps (one
   store per element, not one per tap), each byte widened to f32 in one
   step (gcc's loops go through words: twice the shuffles). Returns the
   elements done; the caller does the rest (fewer than a vector) in the
   same order. */
/* One vector of the H step at element i: the taps of rows ROW(t), loaded
   by LOAD, summed in order (+ *bias). */
#define RZ_HSUM(h, i, ROW, LOAD, w, k, bias) do { \
    rz_vec acc_ = RZ_MUL(RZ_SET1((w)[0]), LOAD(ROW(0) + (i))); \
    for (int64_t t_ = 1; t_ < (k); t_++) \
        acc_ = RZ_ADD(acc_, RZ_MUL(RZ_SET1((w)[t_]), LOAD(ROW(t_) + (i)))); \
    if (bias) acc_ = RZ_ADD(acc_, RZ_SET1(*(bias))); \
    RZ_STORE((h) + (i), acc_); \
} while (0)

#if defined(RZ_LANES)
#define RZ_CONSECUTIVE(t) (row0 + (t) * stride)
#define RZ_HSTEP(NAME, T, LOAD) \
RZ_INLINE int64_t NAME##_taps(int64_t k, float* __restrict h, const T* __restrict row0, \
                              int64_t stride, const float* __restrict w, const float* bias, \
                              int64_t n) { \
    int64_t i = 0; \
    for (; i + RZ_LANES <= n; i += RZ_LANES) RZ_HSUM(h, i, RZ_CONSECUTIVE, LOAD, w, k, bias); \
    return i; \
} \
RZ_ROW_STEP int64_t NAME(float* __restrict h, const T* __restrict row0, int64_t stride, \
                         const float* __restrict w, int64_t k, const float* bias, int64_t n) { \
    return RZ_BY_TAPS(k, NAME##_taps, h, row0, stride, w, bias, n); \
}
#else
#define RZ_HSTEP(NAME, T, LOAD) \
static int64_t NAME(float* __restrict h, const T* __restrict row0, int64_t stride, \
                    const float* __restrict w, int64_t k, const float* bias, int64_t n) { \
    (void)h; (void)row0; (void)stride; (void)w; (void)k; (void)bias; (void)n; \
    return 0; \
}
#endif
RZ_HSTEP(rz_hstep_u8, uint8_t, RZ_LOAD_U8)
RZ_HSTEP(rz_hstep_f32, float, RZ_LOAD_F32)

/* The H step over k f32 rows anywhere (rows[t]: a ring of decoded rows),
   as rz_hstep_f32. */
#if defined(RZ_LANES)
RZ_INLINE int64_t rz_hstep_rows_taps(int64_t k, float* __restrict h,
                                     const float* const* rows, const float* __restrict w,
                                     const float* bias, int64_t n) {
    int64_t i = 0;
#define RZ_RING(t) (rows[t])
    for (; i + RZ_LANES <= n; i += RZ_LANES) RZ_HSUM(h, i, RZ_RING, RZ_LOAD_F32, w, k, bias);
#undef RZ_RING
    return i;
}
#endif
RZ_ROW_STEP int64_t rz_hstep_rows(float* __restrict h, const float* const* rows,
                                  const float* __restrict w, int64_t k, const float* bias,
                                  int64_t n) {
#if defined(RZ_LANES)
    return RZ_BY_TAPS(k, rz_hstep_rows_taps, h, rows, w, bias, n);
#else
    (void)h; (void)rows; (void)w; (void)k; (void)bias; (void)n;
    return 0;
#endif
}

/* Many channels (C of a pixel contiguous, vectors across them): output
   pixel x is sum_t w[x * k + t] * r[(first[x] + t) * C + c] (+ bias[x]),
   each vector's sum kept in a register across the taps. */
RZ_INLINE void rz_wstep_pixels_taps(int64_t k, float* __restrict o, const float* __restrict r,
                                    const int64_t* __restrict first,
                                    const float* __restrict w, const float* __restrict bias,
                                    int64_t n_out, int64_t C) {
    for (int64_t x = 0; x < n_out; x++) {
        float* __restrict d = o + x * C;
        const float* __restrict s = r + first[x] * C;
        const float* __restrict wx = w + x * k;
#if defined(RZ_LANES)
        int64_t c = 0;
        for (; c + RZ_LANES <= C; c += RZ_LANES) {
            rz_vec acc = RZ_MUL(RZ_SET1(wx[0]), RZ_LOAD_F32(s + c));
            for (int64_t t = 1; t < k; t++)
                acc = RZ_ADD(acc, RZ_MUL(RZ_SET1(wx[t]), RZ_LOAD_F32(s + t * C + c)));
            if (bias) acc = RZ_ADD(acc, RZ_SET1(bias[x]));
            RZ_STORE(d + c, acc);
        }
        for (; c < C; c++) {
            float v = wx[0] * s[c];
            for (int64_t t = 1; t < k; t++) v = v + wx[t] * s[t * C + c];
            if (bias) v = v + bias[x];
            d[c] = v;
        }
#else
        /* a pass over the channels a tap, which the compiler vectorises */
        for (int64_t c = 0; c < C; c++) d[c] = wx[0] * s[c];
        for (int64_t t = 1; t < k; t++)
            for (int64_t c = 0; c < C; c++) d[c] = d[c] + wx[t] * s[t * C + c];
        if (bias)
            for (int64_t c = 0; c < C; c++) d[c] = d[c] + bias[x];
#endif
    }
}
RZ_ROW_STEP void rz_wstep_pixels(float* __restrict o, const float* __restrict r,
                                 const int64_t* __restrict first, const float* __restrict w,
                                 const float* __restrict bias, int64_t n_out, int64_t k,
                                 int64_t C) {
    RZ_BY_TAPS(k, rz_wstep_pixels_taps, o, r, first, w, bias, n_out, C);
}

/* Nearest with many channels: each output pixel a copy of one input's
   (the bits as they are: loads and stores, no arithmetic). */
RZ_ROW_STEP void rz_wstep_pixels_pick(float* __restrict o, const float* __restrict r,
                                      const int64_t* __restrict first, int64_t n_out,
                                      int64_t C) {
    for (int64_t x = 0; x < n_out; x++) {
        float* __restrict d = o + x * C;
        const float* __restrict s = r + first[x] * C;
        int64_t c = 0;
#if defined(RZ_LANES)
        for (; c + RZ_LANES <= C; c += RZ_LANES) RZ_STORE(d + c, RZ_LOAD_F32(s + c));
#endif
        if (c < C) memcpy(d + c, s + c, (size_t)(C - c) * sizeof(float));
    }
}

#endif
