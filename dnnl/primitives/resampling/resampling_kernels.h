/* C helpers of the resampling kernels (dnnl/primitives/resampling/kernel.pyx). */
#ifndef DNNL_PY_RESAMPLING_KERNELS_H
#define DNNL_PY_RESAMPLING_KERNELS_H
/* Element-wise f32 only, no reductions, -ffp-contract=off: the module is
   compiled once per ISA level (baseline, x86-64-v3, x86-64-v4; the level is
   chosen at import under the ISA cap) and every level gives the same bits. */
#include <stdint.h>
#include <string.h>
/* Bit 31 of RS_NONFINITE's accumulator is set once it has seen an inf or a
   NaN: an exponent of all ones plus one carries into it, no other does. The
   plain channel kernels return it, so the check of their outputs for inf/NaN
   costs two integer operations per vector instead of a second pass over the
   destination (FwdPlan.run). */
#define RS_NONFINITE(acc, v)                                                        \
    do {                                                                            \
        uint32_t u_;                                                                \
        memcpy(&u_, &(v), 4);                                                       \
        (acc) |= (u_ & 0x7f800000u) + 0x00800000u;                                  \
    } while (0)
/* One output pixel of a channel run (NHWC-like), inlined into the row loop:
   h0/h1 = source rows, w0/w1 = source columns. */
static inline void rs_copy_px(float* __restrict o, const float* __restrict a,
                              int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = a[i];
}
static inline uint32_t rs_lerp_px(float* __restrict o, const float* __restrict a,
                                  const float* __restrict b, float w, float m,
                                  int64_t n) {
    uint32_t acc = 0;
    for (int64_t i = 0; i < n; i++) {
        float v = a[i] * w + b[i] * m;
        o[i] = v;
        RS_NONFINITE(acc, v);
    }
    return acc;
}
static inline uint32_t rs_bilerp_px(float* __restrict o, const float* __restrict h0w0,
                                    const float* __restrict h0w1,
                                    const float* __restrict h1w0,
                                    const float* __restrict h1w1, float wh, float mh,
                                    float ww, float mw, int64_t n) {
    uint32_t acc = 0;
    for (int64_t i = 0; i < n; i++) {
        float x0 = h0w0[i] * wh + h1w0[i] * mh;
        float x1 = h0w1[i] * wh + h1w1[i] * mh;
        float v = x0 * ww + x1 * mw;
        o[i] = v;
        RS_NONFINITE(acc, v);
    }
    return acc;
}
/* One line of each 4 KiB page of [cursor, end) prefetched (cursor on a page
   start; a hint: never faults): a streamed destination's pages translated
   ahead of its non-temporal stores (over 4 KiB pages the stores are slow;
   this recovers part of it). Returns the new cursor. */
static inline uintptr_t rs_touch_pages(uintptr_t cursor, uintptr_t end) {
    for (; cursor < end; cursor += 4096) __builtin_prefetch((const void*)cursor, 0, 0);
    return cursor;
}
/* Software prefetch of a row read left to right: the lines of the addresses
   [cursor, end) (a hint: never faults), each once; returns the new cursor.
   The hardware prefetchers alone leave DRAM bandwidth unused. */
static inline uintptr_t rs_prefetch_to(uintptr_t cursor, uintptr_t end) {
    for (; cursor < end; cursor += 64) __builtin_prefetch((const void*)cursor);
    return cursor;
}
/* rs_bilerp_px with stores around the caches, for outputs too large to stay
   in them (no read for ownership of lines about to be overwritten whole).
   Needs ``o`` aligned to a vector and ``n`` a multiple of its width
   (rs_nt_ok); the caller ends its row with rs_sfence. Same operations,
   same bits as the plain loop; 256-bit vectors at the AVX-512 level too:
   512-bit streaming stores were slower than the AVX2 build's
   (docs/internals/performance.md). */
#if defined(__AVX__)
#include <immintrin.h>
#define RS_NTW 8
#define RS_STREAM(p, v) _mm256_stream_ps((p), (__m256)(v))
#elif defined(__SSE2__)
#include <emmintrin.h>
#define RS_NTW 4
#define RS_STREAM(p, v) _mm_stream_ps((p), (__m128)(v))
#endif
static inline int rs_nt_ok(const float* o, int64_t n) {
#if defined(RS_NTW)
    return (uintptr_t)o % (RS_NTW * 4) == 0 && n % RS_NTW == 0;
#else
    (void)o; (void)n;
    return 0;
#endif
}
static inline void rs_sfence(void) {
#if defined(RS_NTW)
    _mm_sfence();
#endif
}
#if defined(RS_NTW)
typedef float rs_vnt __attribute__((vector_size(RS_NTW * 4)));
typedef uint32_t rs_unt __attribute__((vector_size(RS_NTW * 4)));
static inline rs_vnt rs_ldnt(const float* p) {
    rs_vnt v;
    memcpy(&v, p, sizeof v);
    return v;
}
#endif
static inline uint32_t rs_bilerp_px_nt(float* __restrict o, const float* __restrict h0w0,
                                       const float* __restrict h0w1,
                                       const float* __restrict h1w0,
                                       const float* __restrict h1w1, float wh, float mh,
                                       float ww, float mw, int64_t n) {
#if defined(RS_NTW)
    rs_unt accv = {0};
    uint32_t acc = 0;
    for (int64_t i = 0; i < n; i += RS_NTW) {
        rs_vnt x0 = rs_ldnt(h0w0 + i) * wh + rs_ldnt(h1w0 + i) * mh;
        rs_vnt x1 = rs_ldnt(h0w1 + i) * wh + rs_ldnt(h1w1 + i) * mh;
        rs_vnt v = x0 * ww + x1 * mw;
        RS_STREAM(o + i, v);
        accv |= ((rs_unt)v & 0x7f800000u) + 0x00800000u;
    }
    for (int j = 0; j < RS_NTW; j++) acc |= accv[j];
    return acc;
#else
    return rs_bilerp_px(o, h0w0, h0w1, h1w0, h1w1, wh, mh, ww, mw, n);
#endif
}
/* n floats from a (a staged row) to o, the 64-byte lines wholly inside o
   stored around the caches, the partial ones at its ends as usual: o need
   not be aligned. Every other line stored also prefetches one line of
   [pf, pfend) into L2 (the next row's source, read while the stores drain;
   returns the new cursor): spread thinner than one per line, the reads do
   not crowd the stores of a second thread. The caller ends its item with
   rs_sfence. */
static inline uintptr_t rs_stream_copy(float* __restrict o, const float* __restrict a,
                                       int64_t n, uintptr_t pf, uintptr_t pfend) {
#if defined(RS_NTW)
    if ((uintptr_t)o % 4 == 0) {
        int64_t i = (int64_t)((64 - (uintptr_t)o % 64) % 64) / 4;
        if (i > n) i = n;
        memcpy(o, a, (size_t)i * 4);
        unsigned k = 0;
        for (; i + 64 / 4 <= n; i += 64 / 4) {
            for (int j = 0; j < 16; j += RS_NTW) RS_STREAM(o + i + j, rs_ldnt(a + i + j));
            if (pf < pfend && (++k & 1) == 0) {
                __builtin_prefetch((const void*)pf, 0, 2);
                pf += 64;
            }
        }
        memcpy(o + i, a + i, (size_t)(n - i) * 4);
        return pf;
    }
#endif
    memcpy(o, a, (size_t)n * 4);
    return pf;
}
/* The part of a staged row a (n floats, for o) computed so far, [i, upto):
   the 64-byte lines of o wholly inside it stored around the caches, the head
   before o's first line and, once upto == n, the tail as usual. Returns the
   new i: called as the row is computed, so the stores drain meanwhile. */
static inline int64_t rs_stream_upto(float* __restrict o, const float* __restrict a,
                                     int64_t i, int64_t upto, int64_t n) {
#if defined(RS_NTW)
    if ((uintptr_t)o % 4 == 0) {
        if (i == 0) {
            i = (int64_t)((64 - (uintptr_t)o % 64) % 64) / 4;
            if (i > n) i = n;
            memcpy(o, a, (size_t)i * 4);
        }
        for (; i + 64 / 4 <= upto; i += 64 / 4)
            for (int j = 0; j < 16; j += RS_NTW) RS_STREAM(o + i + j, rs_ldnt(a + i + j));
        if (upto == n && i < n) {
            memcpy(o + i, a + i, (size_t)(n - i) * 4);
            i = n;
        }
        return i;
    }
#endif
    if (upto > i) memcpy(o + i, a + i, (size_t)(upto - i) * 4);
    return upto > i ? upto : i;
}
/* Sets the flag an item found an inf/NaN in (items run on several threads). */
static inline void rs_flag(int* f) { __atomic_store_n(f, 1, __ATOMIC_RELAXED); }
/* Whether any of n floats is an inf or a NaN (RS_NONFINITE over a row the
   typed pixel rows made, before it is stored or encoded). */
static inline int rs_any_nonfinite(const float* __restrict a, int64_t n) {
    uint32_t acc = 0;
    for (int64_t i = 0; i < n; i++) RS_NONFINITE(acc, a[i]);
    return (acc >> 31) != 0;
}
static void rs_lerp1(float* __restrict o, const float* __restrict a,
                           const float* __restrict b, float w, float m, int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = a[i] * w + b[i] * m;
}
static void rs_lerp2(float* __restrict o, const float* __restrict c00,
                           const float* __restrict c01, const float* __restrict c10,
                           const float* __restrict c11, float wh, float mh, float ww,
                           float mw, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float x0 = c00[i] * wh + c10[i] * mh;
        float x1 = c01[i] * wh + c11[i] * mh;
        o[i] = x0 * ww + x1 * mw;
    }
}
static void rs_lerp3(float* __restrict o, const float* const* r, float wd, float md,
                           float wh, float mh, float ww, float mw, int64_t n) {
    const float* __restrict c000 = r[0]; const float* __restrict c001 = r[1];
    const float* __restrict c010 = r[2]; const float* __restrict c011 = r[3];
    const float* __restrict c100 = r[4]; const float* __restrict c101 = r[5];
    const float* __restrict c110 = r[6]; const float* __restrict c111 = r[7];
    for (int64_t i = 0; i < n; i++) {
        float a = c000[i] * wd + c100[i] * md;
        float b = c010[i] * wd + c110[i] * md;
        float x0 = a * wh + b * mh;
        a = c001[i] * wd + c101[i] * md;
        b = c011[i] * wd + c111[i] * md;
        float x1 = a * wh + b * mh;
        o[i] = x0 * ww + x1 * mw;
    }
}
static inline void rs_acc0(float* __restrict acc, const float* __restrict r, int64_t n) {
    for (int64_t i = 0; i < n; i++) acc[i] = acc[i] + r[i];
}
static inline void rs_acc1(float* __restrict acc, const float* __restrict r, float ww,
                          int64_t n) {
    for (int64_t i = 0; i < n; i++) acc[i] = acc[i] + r[i] * ww;
}
static inline void rs_acc2(float* __restrict acc, const float* __restrict r, float wh,
                          float ww, int64_t n) {
    for (int64_t i = 0; i < n; i++) { float v = r[i] * wh; acc[i] = acc[i] + v * ww; }
}
static inline void rs_acc3(float* __restrict acc, const float* __restrict r, float wd,
                          float wh, float ww, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float v = r[i] * wd; v = v * wh; acc[i] = acc[i] + v * ww;
    }
}
/* W taps of outputs o0 .. o0 + m - 1 (dnnl/primitives/resampling/plan.py's
   linear_coeffs / nearest_indices, the same f32 operations): source element
   offsets i0 / i1 (index times `sw`) and weights wl / wr = 1 - wl (linear).
   Indices in int32 (the caller checks the extents fit) and no branches, so
   the loops vectorise. */
static inline __attribute__((always_inline)) void rs_coeffs_k(
        int64_t o0, int64_t m, int64_t n_in, int64_t n_out, int64_t sw, int unit,
        int linear, int64_t* __restrict i0, int64_t* __restrict i1,
        float* __restrict wl, float* __restrict wr) {
    const float fi = (float)n_in, fo = (float)n_out;
    const int32_t top = n_in - 1 > 0 ? (int32_t)(n_in - 1) : 0, base = (int32_t)o0;
    const int32_t n = (int32_t)m;
    for (int32_t j = 0; j < n; j++) {
        float s = (((float)(base + j) + 0.5f) * fi) / fo - 0.5f;
        /* trunc(s): exact through int32 (|s| < n_in <= 2^31; truncf does not
           vectorise under -ftrapping-math) */
        int32_t ti = (int32_t)s, l, r;
        float t = (float)ti;
        if (!linear) {
            /* roundf: s - t is exact; a negative result clips to 0 anyway */
            l = ti + (int32_t)(s - t >= 0.5f);
            l = l < 0 ? 0 : l;
            l = l > top ? top : l;
            r = l;
        } else {
            l = ti < 0 ? 0 : ti;
            l = l > top ? top : l;
            r = (ti + (int32_t)(s != t)) & -(int32_t)(s >= 0.0f);
            r = r > top ? top : r;
            float w = 1.0f - __builtin_fabsf(s - (float)l);
            wl[j] = w;
            wr[j] = 1.0f - w;
        }
        i0[j] = unit ? (int64_t)l : (int64_t)l * sw;
        i1[j] = unit ? (int64_t)r : (int64_t)r * sw;
    }
}
static inline void rs_coeffs(int64_t o0, int64_t m, int64_t n_in, int64_t n_out,
                             int64_t sw, int linear, int64_t* __restrict i0,
                             int64_t* __restrict i1, float* __restrict wl,
                             float* __restrict wr) {
    if (linear && sw == 1) rs_coeffs_k(o0, m, n_in, n_out, 1, 1, 1, i0, i1, wl, wr);
    else if (linear) rs_coeffs_k(o0, m, n_in, n_out, sw, 0, 1, i0, i1, wl, wr);
    else if (sw == 1) rs_coeffs_k(o0, m, n_in, n_out, 1, 1, 0, i0, i1, wl, wr);
    else rs_coeffs_k(o0, m, n_in, n_out, sw, 0, 0, i0, i1, wl, wr);
}
/* Backward linear W ranges of inputs x0 .. x0 + m - 1 for tap role `role`
   (0: x is the left tap, 1: the right one) and the role's output weights:
   the plan's backward_linear_ranges (plan.py), the same f32 operations. */
static inline float rs_bmap(int32_t x, float fa, float fb) {
    return (((float)x + 0.5f) * fa) / fb - 0.5f;
}
/* trunc through int32 (|v| < 2^31, checked by the caller): vectorises */
static inline int32_t rs_ceil_idx(float v) {         /* 0 below 0 */
    int32_t t = (int32_t)v;
    return (t + (int32_t)((float)t != v)) & -(int32_t)(v >= 0.0f);
}
static inline int32_t rs_trunc1(float v) {           /* 0 below 0, else trunc + 1 */
    return ((int32_t)v + 1) & -(int32_t)(v >= 0.0f);
}
static inline void rs_bwd_ranges(int64_t x0, int64_t m, int64_t n_in, int64_t n_out,
                                 int role, int64_t* __restrict st, int64_t* __restrict en) {
    const float fi = (float)n_in, fo = (float)n_out;
    const int32_t top = (int32_t)n_out, last = (int32_t)(n_in - 1), base = (int32_t)x0;
    for (int32_t j = 0; j < (int32_t)m; j++) {
        int32_t x = base + j, a, b;
        if (role == 0) {
            a = rs_ceil_idx(rs_bmap(x, fo, fi)) & -(int32_t)(x != 0);
            b = rs_ceil_idx(rs_bmap(x + 1, fo, fi));
        } else {
            a = rs_trunc1(rs_bmap(x - 1, fo, fi));
            b = x == last ? top : rs_trunc1(rs_bmap(x, fo, fi));
        }
        a = a > top ? top : a;
        b = b > top ? top : b;
        st[j] = a;
        en[j] = b;
    }
}
static inline void rs_bwd_weights(int64_t o0, int64_t m, int64_t n_in, int64_t n_out,
                                  int role, float* __restrict w) {
    const float fi = (float)n_in, fo = (float)n_out;
    const int32_t base = (int32_t)o0;
    for (int32_t j = 0; j < (int32_t)m; j++) {
        float t = rs_bmap(base + j, fi, fo);
        float f = __builtin_fabsf(t - (float)(int32_t)t);
        w[j] = role ? f : 1.0f - f;
    }
}
/* Backward, channel runs: acc[i] = the sum, in the gather's order (d-tap,
   h-tap, w-tap, od, oh, ow) and starting from +0, of the terms
   g[off + i] * weights. The (d, h) part of the taps comes per role pair q as
   the entries [gs[q], gs[q + 1]) of (row offset dho, wd, wh), the w part per
   role kw as the entries [wb[kw], wb[kw + 1]) of (offset wo, ww). A term is
   the bare value (nm 0, nearest) or times ww (nm 1), wh then ww (2), wd, wh,
   then ww (3): ref:any's operations. The sums of a block of channels stay in
   registers over all the taps. */
/* The native vector (lowering wider GCC vectors to SSE spills them): 8
   floats with AVX, else 4. */
#if defined(__AVX__)
#define RS_VL 8
typedef float rs_v8 __attribute__((vector_size(32), aligned(4), may_alias));
typedef int32_t rs_v8i __attribute__((vector_size(32)));
#define RS_EVEN {0, 2, 4, 6, 8, 10, 12, 14}
#define RS_ODD {1, 3, 5, 7, 9, 11, 13, 15}
#else
#define RS_VL 4
typedef float rs_v8 __attribute__((vector_size(16), aligned(4), may_alias));
typedef int32_t rs_v8i __attribute__((vector_size(16)));
#define RS_EVEN {0, 2, 4, 6}
#define RS_ODD {1, 3, 5, 7}
#endif
#define RS_TERM(s, x)                                                               \
    do {                                                                            \
        if (nm == 0) s = s + (x);                                                   \
        else if (nm == 1) s = s + (x) * ww;                                         \
        else if (nm == 2) { __typeof__(s) v_ = (x) * wh; s = s + v_ * ww; }         \
        else { __typeof__(s) v_ = (x) * wd; v_ = v_ * wh; s = s + v_ * ww; }        \
    } while (0)
#define RS_TAPS_LOOP(BODY)                                                          \
    for (int q = 0; q < ng; q++)                                                    \
        for (int kw = 0; kw < nkw; kw++)                                            \
            for (int j = gs[q]; j < gs[q + 1]; j++) {                               \
                float wd = dhd[j], wh = dhh[j];                                     \
                for (int64_t e = wb[kw]; e < wb[kw + 1]; e++) {                     \
                    const float* r = g + dho[j] + wo[e] + c;                        \
                    float ww = wwt[e];                                              \
                    (void)wd; (void)wh; (void)ww;                                   \
                    BODY;                                                           \
                }                                                                   \
            }
static inline __attribute__((always_inline)) void rs_taps_m(
        float* __restrict acc, const float* __restrict g, int ng, const int* __restrict gs,
        const int64_t* __restrict dho, const float* __restrict dhd,
        const float* __restrict dhh, int nkw, const int64_t* __restrict wb,
        const int64_t* __restrict wo, const float* __restrict wwt, int nm, int64_t n) {
    int64_t c = 0;
    for (; c + 4 * RS_VL <= n; c += 4 * RS_VL) {      /* 4 vectors of sums */
        rs_v8 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        RS_TAPS_LOOP(RS_TERM(s0, *(const rs_v8*)r);
                     RS_TERM(s1, *(const rs_v8*)(r + RS_VL));
                     RS_TERM(s2, *(const rs_v8*)(r + 2 * RS_VL));
                     RS_TERM(s3, *(const rs_v8*)(r + 3 * RS_VL)))
        *(rs_v8*)(acc + c) = s0; *(rs_v8*)(acc + c + RS_VL) = s1;
        *(rs_v8*)(acc + c + 2 * RS_VL) = s2; *(rs_v8*)(acc + c + 3 * RS_VL) = s3;
    }
    for (; c + RS_VL <= n; c += RS_VL) {
        rs_v8 s0 = {0};
        RS_TAPS_LOOP(RS_TERM(s0, *(const rs_v8*)r))
        *(rs_v8*)(acc + c) = s0;
    }
    for (; c < n; c++) {
        float s0 = 0.0f;
        RS_TAPS_LOOP(RS_TERM(s0, *r))
        acc[c] = s0;
    }
}
static inline void rs_taps(float* __restrict acc, const float* __restrict g, int ng,
                           const int* __restrict gs, const int64_t* __restrict dho,
                           const float* __restrict dhd, const float* __restrict dhh,
                           int nkw, const int64_t* __restrict wb,
                           const int64_t* __restrict wo, const float* __restrict wwt,
                           int nm, int64_t n) {
    switch (nm) {       /* constant nm: one specialised loop nest each */
    case 0: rs_taps_m(acc, g, ng, gs, dho, dhd, dhh, nkw, wb, wo, wwt, 0, n); break;
    case 1: rs_taps_m(acc, g, ng, gs, dho, dhd, dhh, nkw, wb, wo, wwt, 1, n); break;
    case 2: rs_taps_m(acc, g, ng, gs, dho, dhd, dhh, nkw, wb, wo, wwt, 2, n); break;
    default: rs_taps_m(acc, g, ng, gs, dho, dhd, dhh, nkw, wb, wo, wwt, 3, n); break;
    }
}
/* Backward along W rows (nchw) where each diff_src column iw of role kw
   gathers the two outputs 2 iw + a[kw] + e, e = 0, 1: acc[iw] for iw in
   [lo, hi) as the sum, in the gather's order (role pair q, kw, entry j, e),
   of row_j[2 iw + a[kw] + e] times the weights (dhd / dhh per j, W[kw][e][iw]
   at W + (2 kw + e) * IW). A vector of columns at a time: two loads, even
   and odd lanes by shuffles. */
static inline __attribute__((always_inline)) void rs_bwd_x2_m(
        float* __restrict acc, int64_t lo, int64_t hi, int ng, const int* __restrict gs,
        const float* const* __restrict rows, const float* __restrict dhd,
        const float* __restrict dhh, int nkw, const int64_t* __restrict a,
        const float* __restrict W, int64_t IW, int nm) {
    const rs_v8i ev = RS_EVEN, od = RS_ODD;
    int64_t iw = lo;
    for (; iw < hi; iw += RS_VL) {
        /* the last block ends at hi, overlapping the one before: columns are
           independent, so the overlap recomputes the same values */
        if (iw + RS_VL > hi) {
            if (hi - lo < RS_VL) break;
            iw = hi - RS_VL;
        }
        rs_v8 s0 = {0};
        for (int q = 0; q < ng; q++)
            for (int kw = 0; kw < nkw; kw++)
                for (int j = gs[q]; j < gs[q + 1]; j++) {
                    const float* r = rows[j] + 2 * iw + a[kw];
                    rs_v8 x0 = *(const rs_v8*)r, x1 = *(const rs_v8*)(r + RS_VL);
                    float wd = dhd[j], wh = dhh[j];
                    rs_v8 ww = *(const rs_v8*)(W + 2 * kw * IW + iw);
                    RS_TERM(s0, __builtin_shuffle(x0, x1, ev));
                    ww = *(const rs_v8*)(W + (2 * kw + 1) * IW + iw);
                    RS_TERM(s0, __builtin_shuffle(x0, x1, od));
                    (void)wd; (void)wh;
                }
        *(rs_v8*)(acc + iw) = s0;
    }
    for (; iw < hi; iw++) {
        float s0 = 0.0f;
        for (int q = 0; q < ng; q++)
            for (int kw = 0; kw < nkw; kw++)
                for (int j = gs[q]; j < gs[q + 1]; j++) {
                    const float* r = rows[j] + 2 * iw + a[kw];
                    float wd = dhd[j], wh = dhh[j];
                    float ww = W[2 * kw * IW + iw];
                    RS_TERM(s0, r[0]);
                    ww = W[(2 * kw + 1) * IW + iw];
                    RS_TERM(s0, r[1]);
                    (void)wd; (void)wh;
                }
        acc[iw] = s0;
    }
}
static inline void rs_bwd_x2(float* __restrict acc, int64_t lo, int64_t hi, int ng,
                             const int* __restrict gs, const float* const* __restrict rows,
                             const float* __restrict dhd, const float* __restrict dhh,
                             int nkw, const int64_t* __restrict a,
                             const float* __restrict W, int64_t IW, int nm) {
    switch (nm) {
    case 0: rs_bwd_x2_m(acc, lo, hi, ng, gs, rows, dhd, dhh, nkw, a, W, IW, 0); break;
    case 1: rs_bwd_x2_m(acc, lo, hi, ng, gs, rows, dhd, dhh, nkw, a, W, IW, 1); break;
    case 2: rs_bwd_x2_m(acc, lo, hi, ng, gs, rows, dhd, dhh, nkw, a, W, IW, 2); break;
    default: rs_bwd_x2_m(acc, lo, hi, ng, gs, rows, dhd, dhh, nkw, a, W, IW, 3); break;
    }
}
/* Nearest x2 along W, channel runs: each source pixel's n channels (pixels
   `ss` elements apart) stored to two adjacent destination pixels of rows
   o0 and o1 (o1 may be NULL): one load, up to four stores. */
static inline void rs_dupc(float* __restrict o0, float* __restrict o1,
                           const float* __restrict a, int64_t ss, int64_t n,
                           int64_t npix) {
    for (int64_t x = 0; x < npix; x++) {
        const float* __restrict s = a + x * ss;
        float* __restrict d0 = o0 + 2 * x * n;
        if (o1) {
            float* __restrict d1 = o1 + 2 * x * n;
            for (int64_t i = 0; i < n; i++) {
                float v = s[i];
                d0[i] = v; d0[n + i] = v; d1[i] = v; d1[n + i] = v;
            }
        } else {
            for (int64_t i = 0; i < n; i++) { float v = s[i]; d0[i] = v; d0[n + i] = v; }
        }
    }
}
/* rs_dupc into two rows with stores around the caches, without a staging
   row: one row, then the other (each source pixel stored twice into each,
   read twice from the caches). Stores alternating between the two rows
   were much slower than a staged copy, and row after row is faster than
   both (docs/internals/performance.md). Needs o0 and o1
   aligned to a vector and n a multiple of its width (rs_nt_ok). Each pixel
   also prefetches as many lines of [pf, pfend) (the next group's source
   row) as it reads; returns the new cursor. The caller ends with rs_sfence. */
static inline uintptr_t rs_dupc_nt(float* __restrict o0, float* __restrict o1,
                                   const float* __restrict a, int64_t ss, int64_t n,
                                   int64_t npix, uintptr_t pf, uintptr_t pfend) {
#if defined(RS_NTW)
    int64_t lines = (n * 4 + 63) / 64;
    for (int row = 0; row < 2; row++) {
        float* __restrict o = row ? o1 : o0;
        for (int64_t x = 0; x < npix; x++) {
            const float* __restrict s = a + x * ss;
            float* __restrict d = o + 2 * x * n;
            for (int64_t i = 0; i < n; i += RS_NTW) {
                rs_vnt v = rs_ldnt(s + i);
                RS_STREAM(d + i, v);
                RS_STREAM(d + n + i, v);
            }
            for (int64_t k = 0; k < lines && pf < pfend; k++, pf += 64)
                __builtin_prefetch((const void*)pf, 0, 2);
        }
    }
#else
    rs_dupc(o0, o1, a, ss, n, npix);
#endif
    return pf;
}
static void rs_gather0(float* __restrict o, const float* __restrict r,
                             const int64_t* __restrict i0, int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = r[i0[i]];
}
/* Nearest x2 along a unit-stride W: each source element twice, by shuffles
   instead of a gather. */
static void rs_dup2(float* __restrict o, const float* __restrict r, int64_t n) {
    for (int64_t i = 0; i < n; i++) { o[2 * i] = r[i]; o[2 * i + 1] = r[i]; }
}
/* Every other column of a unit-stride row (W halved): o[i] = a[2i] (nearest),
   or a[2i] * ww[i] + b[2i] * mw[i] (linear, a and b the two taps' first
   columns): rs_gather0 / rs_gather1 when the taps step by 2, in vectors. */
static void rs_take2(float* __restrict o, const float* __restrict a, int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = a[2 * i];
}
static void rs_lerp2s(float* __restrict o, const float* __restrict a,
                      const float* __restrict b, const float* __restrict ww,
                      const float* __restrict mw, int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = a[2 * i] * ww[i] + b[2 * i] * mw[i];
}
/* Linear x2 along a unit-stride W, the regular columns: output 2k reads
   v[k - 1] and v[k], output 2k + 1 reads v[k] and v[k + 1] (as the tap
   tables say for k in [klo, khi)), weights as tabled, split by parity:
   w[k], w[K + k] for output 2k and w[2K + k], w[3K + k] for 2k + 1. The
   operations of rs_gather1, without its gathers, so the loop vectorises. */
static void rs_x2w(float* __restrict o, const float* __restrict v,
                   const float* __restrict w, int64_t K, int64_t klo, int64_t khi) {
    const float* __restrict we = w;
    const float* __restrict me = w + K;
    const float* __restrict wo = w + 2 * K;
    const float* __restrict mo = w + 3 * K;
    for (int64_t k = klo; k < khi; k++) {
        float e = v[k - 1] * we[k] + v[k] * me[k];
        float d = v[k] * wo[k] + v[k + 1] * mo[k];
        o[2 * k] = e;
        o[2 * k + 1] = d;
    }
}
static void rs_gather1(float* __restrict o, const float* __restrict r,
                             const int64_t* __restrict i0, const int64_t* __restrict i1,
                             const float* __restrict ww, const float* __restrict mw,
                             int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = r[i0[i]] * ww[i] + r[i1[i]] * mw[i];
}
static void rs_gather2(float* __restrict o, const float* __restrict r0,
                             const float* __restrict r1, const int64_t* __restrict i0,
                             const int64_t* __restrict i1, float wh, float mh,
                             const float* __restrict ww, const float* __restrict mw,
                             int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        int64_t a = i0[i], b = i1[i];
        float x0 = r0[a] * wh + r1[a] * mh;
        float x1 = r0[b] * wh + r1[b] * mh;
        o[i] = x0 * ww[i] + x1 * mw[i];
    }
}
#endif
