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
   loops run across the row's elements (gathers), not across the few
   channels of a pixel. idx[j]: the element of the first tap in r; the tap
   t of element j reads r[idx[j] + t * step] (step: the channels) with
   weight w[t * n + j]; bias: n values, or NULL. */
RZ_GATHER_AS_V3
static void rz_wstep_elems(float* __restrict o, const float* __restrict r,
                           const int32_t* __restrict idx, const float* __restrict w,
                           const float* __restrict bias, int64_t n, int64_t k,
                           int64_t step) {
    for (int64_t j = 0; j < n; j++) o[j] = w[j] * r[idx[j]];
    for (int64_t t = 1; t < k; t++) {
        const float* __restrict wt = w + t * n;
        const float* __restrict rt = r + t * step;
        for (int64_t j = 0; j < n; j++) o[j] = o[j] + wt[j] * rt[idx[j]];
    }
    if (bias)
        for (int64_t j = 0; j < n; j++) o[j] = o[j] + bias[j];
}

/* Nearest (one tap of weight 1, no bias): a copy. */
RZ_GATHER_AS_V3
static void rz_wstep_pick(float* __restrict o, const float* __restrict r,
                          const int32_t* __restrict idx, int64_t n) {
    for (int64_t j = 0; j < n; j++) o[j] = r[idx[j]];
}

/* Many channels (C of a pixel contiguous, vectors across them): output
   pixel x is sum_t w[x * k + t] * r[(first[x] + t) * C + c] (+ bias[x]). */
static void rz_wstep_pixels(float* __restrict o, const float* __restrict r,
                            const int64_t* __restrict first, const float* __restrict w,
                            const float* __restrict bias, int64_t n_out, int64_t k,
                            int64_t C) {
    for (int64_t x = 0; x < n_out; x++) {
        float* __restrict d = o + x * C;
        const float* __restrict s = r + first[x] * C;
        const float* __restrict wx = w + x * k;
        float w0 = wx[0];
        for (int64_t c = 0; c < C; c++) d[c] = w0 * s[c];
        for (int64_t t = 1; t < k; t++) {
            const float* __restrict st = s + t * C;
            float wt = wx[t];
            for (int64_t c = 0; c < C; c++) d[c] = d[c] + wt * st[c];
        }
        if (bias) {
            float b = bias[x];
            for (int64_t c = 0; c < C; c++) d[c] = d[c] + b;
        }
    }
}

/* Nearest with many channels: each output pixel a copy of one input's. */
static void rz_wstep_pixels_pick(float* __restrict o, const float* __restrict r,
                                 const int64_t* __restrict first, int64_t n_out,
                                 int64_t C) {
    for (int64_t x = 0; x < n_out; x++)
        memcpy(o + x * C, r + first[x] * C, (size_t)C * sizeof(float));
}

#endif
