/* The W step of the resampling kernel's typed pixel rows
   (dnnl/primitives/resampling/_kernel/fwd_pix.pxi), after the H step of
   resampling_kernels.h: the same element-wise f32 operations, compiled once
   per ISA level, the same bits at every level. */
#ifndef DNNL_PY_RESAMPLING_PIXEL_ROWS_H
#define DNNL_PY_RESAMPLING_PIXEL_ROWS_H
#include "resampling_kernels.h"     /* RS_NONFINITE, the vector headers */
#include "avx2_permutes.h"         /* dnnl/_kernels */
#include "u8_halving.h"            /* dnnl/_kernels */
#include "u8_stores.h"             /* dnnl/_kernels */
/* Pixel rows of few channels (typed pixel rows, _kernel/fwd_pix.pxi): one
   output element per table entry, so the loops vectorise across pixels
   (gathers) rather than across the few channels of a pixel. i0 / i1 are
   element offsets into a decoded source row, ww / mw the W weights of each
   element's pixel: the operations of rs_lerp_px / rs_bilerp_px's last step. */
/* At the x86-64-v4 level, compiled as at v3: without hardware gathers
   (gcc's tuning avoids them) the vectoriser emulates 16-wide ones with
   element inserts and index spills, 1.7x slower than v3's code on a Sapphire
   Rapids (same operations, same bits). noinline: inlined into a v4 caller,
   it would be compiled as v4 again. */
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#define RS_GATHER_AS_V3 __attribute__((noinline, target("no-avx512f")))
#else
#define RS_GATHER_AS_V3
#endif
RS_GATHER_AS_V3
static uint32_t rs_gather1_32(float* __restrict o, const float* __restrict r,
                              const int32_t* __restrict i0, const int32_t* __restrict i1,
                              const float* __restrict ww, const float* __restrict mw,
                              int64_t n, int check) {
    uint32_t acc = 0;
    if (!check) {       /* (the check costs the gathers 6% of their instructions) */
        for (int64_t i = 0; i < n; i++) o[i] = r[i0[i]] * ww[i] + r[i1[i]] * mw[i];
        return 0;
    }
    for (int64_t i = 0; i < n; i++) {
        float v = r[i0[i]] * ww[i] + r[i1[i]] * mw[i];
        o[i] = v;
        RS_NONFINITE(acc, v);
    }
    return acc;
}
RS_GATHER_AS_V3
static void rs_gather0_32(float* __restrict o, const float* __restrict r,
                          const int32_t* __restrict i0, int64_t n) {
    for (int64_t i = 0; i < n; i++) o[i] = r[i0[i]];
}
/* rs_lerp1 of two u8 rows, each converted to f32 as it is read (exact):
   the H step without decoding the rows first. */
static void rs_lerp1_u8(float* __restrict o, const uint8_t* __restrict a,
                        const uint8_t* __restrict b, float w, float m, int64_t n) {
    int64_t i = 0;
    /* each byte widened to a dword in one step (gcc's loop widens to words,
       then words to dwords: twice the shuffles, the port this loop waits on) */
#if defined(__AVX512F__)
    const __m512 vw = _mm512_set1_ps(w), vm = _mm512_set1_ps(m);
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_cvtepi32_ps(
            _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(a + i))));
        __m512 y = _mm512_cvtepi32_ps(
            _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(b + i))));
        _mm512_storeu_ps(o + i, _mm512_add_ps(_mm512_mul_ps(x, vw), _mm512_mul_ps(y, vm)));
    }
#elif defined(__AVX2__)
    const __m256 vw = _mm256_set1_ps(w), vm = _mm256_set1_ps(m);
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_cvtepi32_ps(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(a + i))));
        __m256 y = _mm256_cvtepi32_ps(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i*)(b + i))));
        _mm256_storeu_ps(o + i, _mm256_add_ps(_mm256_mul_ps(x, vw), _mm256_mul_ps(y, vm)));
    }
#endif
    for (; i < n; i++) o[i] = (float)a[i] * w + (float)b[i] * m;
}
/* The window of width floats (or bytes) of the block at element i, channel
   c of its pixel: from that pixel's start, held back from the row's end. */
static inline int64_t rs_pv_base(const int32_t* i0, int64_t i, int64_t c, int64_t nr,
                                 int64_t width) {
    int64_t base = (int64_t)i0[i] - c;
    if (base > nr - width) base = nr - width;
    return base < 0 ? 0 : base;
}
/* The channel of the element step (< C) elements after one of channel c. */
static inline int64_t rs_pv_next(int64_t c, int64_t step, int64_t C) {
    c += step;
    return c >= C ? c - C : c;
}
#if defined(__AVX512F__)
#define RS_PV 16
#elif defined(__AVX2__)
#define RS_PV 8
/* AVX2 only, where they were measured (a Zen 3, docs/internals/performance.md):
   each tap from its own one-register window, two vpermps a block where a
   shared window of two registers costs four and two blends (1.6x the W
   step of enlargements); and 3 or 4 channels a pixel a 128-bit vector when
   the windows are too narrow (reductions: 1.65x the 4-register windows).
   AVX-512's vpermt2ps reads a 32-float window in one instruction. An exact
   enlargement x2 with 3 or 4 channels needs no permute at all (pairs). */
#define RS_PV_TAPWISE 1
#define RS_PV_PIXELS 1
#define RS_PV_PAIRS 1
#endif
/* How a row's W step reads its taps, decided once per plan (rs_pv_plan):
   every row of a plan reads the same tables. Blocks of RS_PV outputs, in
   the row's order; a form runs while its blocks fit, then hands the rest
   of the row to the next:
   - [0, end1) (RS_PV_TAPWISE): each tap from a window of one register,
     the a tap's at base, the b tap's at base_b (per block: its first float);
   - [end1, end2): both taps from one window of 2 registers at base;
   - [end2, end4): from one of 4 registers (rs_perm4);
   - pixels [px0, px1) (RS_PV_PIXELS, C of 3 or 4, in place of the shared
     windows: end1 = end2 = end4): a pixel a 128-bit vector, its C channels
     and, with 3, one of the next pixel's, which that pixel's store
     overwrites; never the row's last pixel (whose store would pass the
     row's end), nor a pixel whose load would (px1 <= px0: none);
   - the rest gathered.
   a / b: per output of a windowed block, its taps' offsets from their
   window's base. Or, in place of all of these (RS_PV_PAIRS, C of 3 or 4,
   end4 = 0), an exact enlargement x2: output pixels 2k and 2k + 1 (a pair,
   2 C elements) read source pixels k - 1, k and k, k + 1, so for every pair
   but the first and the last, whose edge taps differ, the taps are the runs
   of 2 C floats from C (k - 1) and C k, and the weights the same, pw0 / pw1
   by lane: pairs [pair0, pair1), up to the first whose loads (of 8 floats)
   would pass the row's end (pair1 <= pair0: none), the rest gathered. */
typedef struct {
    const int32_t* base;
    const int32_t* base_b;
    const int32_t* a;
    const int32_t* b;
    int64_t end1, end2, end4, px0, px1, C, pair0, pair1;
    float pw0[8], pw1[8];
} rs_pv_wins;
#if defined(RS_PV)
/* Whether t[i .. i + RS_PV) all lie in [bs, bs + W) (a negative offset is
   past W unsigned). */
static inline int rs_pv_fits(const int32_t* t, int64_t i, int64_t bs, int64_t W) {
    int within = 1;
    for (int64_t j = i; j < i + RS_PV; j++) within &= (uint64_t)(t[j] - bs) < (uint64_t)W;
    return within;
}
/* A tapwise window: from the block's lowest tap, held back from the end. */
static inline int64_t rs_pv_low(const int32_t* t, int64_t i, int64_t nr, int64_t W) {
    int64_t lo = t[i];
    for (int64_t j = i + 1; j < i + RS_PV; j++) lo = t[j] < lo ? t[j] : lo;
    if (lo > nr - W) lo = nr - W;
    return lo < 0 ? 0 : lo;
}
#endif
#if defined(RS_PV_PAIRS)
/* Whether every pair but the first and the last of a row of n outputs
   is as rs_pv_wins' pairs say (the weights: the second pair's). */
static int rs_pv_pairs(const int32_t* i0, const int32_t* i1, const float* ww,
                       const float* mw, int64_t n, int64_t nr, int64_t C, rs_pv_wins* pw) {
    const int64_t P = n / (2 * C);
    if ((C != 3 && C != 4) || P < 3) return 0;
    for (int64_t j = 0; j < 8; j++) {
        pw->pw0[j] = j < 2 * C ? ww[2 * C + j] : 0.0f;
        pw->pw1[j] = j < 2 * C ? mw[2 * C + j] : 0.0f;
    }
    for (int64_t k = 1; k < P - 1; k++) {
        const int64_t e = 2 * C * k;
        for (int64_t j = 0; j < 2 * C; j++)
            if (i0[e + j] != C * (k - 1) + j || i1[e + j] != C * k + j
                || ww[e + j] != pw->pw0[j] || mw[e + j] != pw->pw1[j])
                return 0;
    }
    /* up to the first pair whose loads of 8 floats would pass the row's end */
    int64_t k = 1;
    while (k < P - 1 && i1[2 * C * k] + 8 <= nr) k++;
    pw->pair0 = 1;
    pw->pair1 = k;
    return k > 1;
}
#endif
/* rs_pv_wins of a row of n outputs whose taps are i0 / i1 and weights ww /
   mw (element offsets into a row of nr floats, C channels) into *pw: base
   and base_b hold n / 8 + 1 entries, a and b n each. A shared window starts
   at its first element's pixel, held back from the row's end. */
static void rs_pv_plan(const int32_t* i0, const int32_t* i1, const float* ww, const float* mw,
                       int64_t n, int64_t nr, int64_t C, int32_t* base, int32_t* base_b,
                       int32_t* a, int32_t* b, rs_pv_wins* pw) {
    int64_t i = 0;
    pw->base = base;
    pw->base_b = base_b;
    pw->a = a;
    pw->b = b;
    pw->C = C;
    pw->px0 = pw->px1 = pw->pair0 = pw->pair1 = 0;
#if defined(RS_PV_PAIRS)
    if (rs_pv_pairs(i0, i1, ww, mw, n, nr, C, pw)) {
        pw->end1 = pw->end2 = pw->end4 = 0;
        return;
    }
#else
    (void)ww;
    (void)mw;
#endif
#if defined(RS_PV)
    int64_t c = 0, step = RS_PV % C;
#if defined(RS_PV_TAPWISE)
    for (; nr >= RS_PV && i + RS_PV <= n; i += RS_PV) {
        int64_t ba = rs_pv_low(i0, i, nr, RS_PV), bb = rs_pv_low(i1, i, nr, RS_PV);
        if (!rs_pv_fits(i0, i, ba, RS_PV) || !rs_pv_fits(i1, i, bb, RS_PV)) break;
        base[i / RS_PV] = (int32_t)ba;
        base_b[i / RS_PV] = (int32_t)bb;
        for (int64_t j = i; j < i + RS_PV; j++) {
            a[j] = (int32_t)(i0[j] - ba);
            b[j] = (int32_t)(i1[j] - bb);
        }
        c = rs_pv_next(c, step, C);
    }
#endif
    pw->end1 = pw->end2 = i;
    int pixels = 0;
#if defined(RS_PV_PIXELS)
    pixels = C == 3 || C == 4;
#endif
    for (int64_t k = 2; !pixels && k <= 4; k += 2) {
        const int64_t W = k * RS_PV;
        for (; nr >= W && i + RS_PV <= n; i += RS_PV) {
            int64_t bs = rs_pv_base(i0, i, c, nr, W);
            if (!rs_pv_fits(i0, i, bs, W) || !rs_pv_fits(i1, i, bs, W)) break;
            base[i / RS_PV] = (int32_t)bs;
            for (int64_t j = i; j < i + RS_PV; j++) {
                a[j] = (int32_t)(i0[j] - bs);
                b[j] = (int32_t)(i1[j] - bs);
            }
            c = rs_pv_next(c, step, C);
        }
        if (k == 2) pw->end2 = i;
    }
    if (pixels) {
        int64_t j = (i + C - 1) / C, last = n / C - 1;
        pw->px0 = j;
        while (j < last && i0[j * C] + 4 <= nr && i1[j * C] + 4 <= nr) j++;
        pw->px1 = j;
    }
#else
    (void)i0;
    (void)i1;
    (void)n;
    (void)nr;
    (void)C;
    pw->end1 = pw->end2 = 0;
#endif
    pw->end4 = i;
}
/* The W step of the pixel rows with registers for tables: while a block of
   RS_PV outputs reads windows of the row that fit in registers (an
   enlargement, few channels), they are loaded once and permuted (AVX-512:
   vpermt2ps; AVX2: vpermps, and a blend for a window of two) instead of
   gathered element by element: the blocks, windows and pixels the plan
   decided (rs_pv_plan, rs_pv_wins). Same operations, same bits:
   the values are moved, then multiplied and added as in rs_gather1_32.
   Returns RS_NONFINITE's accumulator with check (else 0). */
#if defined(__AVX512F__)
typedef __m512i rs_pvi;
typedef __m512 rs_pvf;
#define RS_PV_LDI(p) _mm512_loadu_si512((const void*)(p))
#define RS_PV_SUB(a, b) _mm512_sub_epi32((a), (b))
#define RS_PV_SET1(x) _mm512_set1_epi32(x)
/* all indices of a and b in [0, w), w a power of 2 */
#define RS_PV_WITHIN(a, b, w) (_mm512_test_epi32_mask(_mm512_or_si512((a), (b)), \
                                                      _mm512_set1_epi32(~((w) - 1))) == 0)
#define RS_PV_LD(p) _mm512_loadu_ps(p)
#define RS_PV_PERM(lo, hi, a) _mm512_permutex2var_ps((lo), (a), (hi))
#define RS_PV_MUL _mm512_mul_ps
#define RS_PV_ADD _mm512_add_ps
#define RS_PV_ST _mm512_storeu_ps
#elif defined(__AVX2__)
typedef __m256i rs_pvi;
typedef __m256 rs_pvf;
#define RS_PV_LDI(p) _mm256_loadu_si256((const __m256i*)(p))
#define RS_PV_SUB(a, b) _mm256_sub_epi32((a), (b))
#define RS_PV_SET1(x) _mm256_set1_epi32(x)
#define RS_PV_WITHIN(a, b, w) _mm256_testz_si256(_mm256_or_si256((a), (b)), \
                                                 _mm256_set1_epi32(~((w) - 1)))
#define RS_PV_LD(p) _mm256_loadu_ps(p)
#define RS_PV_PERM dnnl_py_perm16
#define RS_PV_MUL _mm256_mul_ps
#define RS_PV_ADD _mm256_add_ps
#define RS_PV_ST _mm256_storeu_ps
#endif
#if defined(RS_PV)
typedef uint32_t rs_pvu __attribute__((vector_size(RS_PV * 4)));
/* v stored at o, or with d, as u8 at d (u8_stores.h) */
static inline __attribute__((always_inline)) void rs_pv_store(float* o, uint8_t* d,
                                                              rs_pvf v) {
    if (!d) {
        RS_PV_ST(o, v);
        return;
    }
#if defined(__AVX512F__)
    dnnl_py_store16_u8(d, v);
#else
    dnnl_py_store8_u8(d, v);
#endif
}
#endif
#if defined(RS_PV)
/* A reduction's wider window: 4 * RS_PV floats in four registers, element
   a & (4 * RS_PV - 1) of them (AVX-512: two vpermt2ps and a blend; AVX2:
   two rs_pv pairs, RS_PV_PERM, and a blend on bit 4). */
static inline rs_pvf rs_perm4(rs_pvf t0, rs_pvf t1, rs_pvf t2, rs_pvf t3, rs_pvi a) {
#if defined(__AVX512F__)
    __m512 x = _mm512_permutex2var_ps(t0, a, t1), y = _mm512_permutex2var_ps(t2, a, t3);
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(a, _mm512_set1_epi32(32)), x, y);
#else
    return dnnl_py_perm32(t0, t1, t2, t3, a);
#endif
}
/* The blocks of a row from element i to end, each from its windows (k = 1:
   tapwise, 2 or 4 registers shared; a constant where it is inlined;
   rs_pv_wins), stored at o, or with d as u8 at d (AVX2: four blocks to a
   store). check (a constant too): accumulate RS_NONFINITE's lanes in *accv. */
#define RS_PV_NF(v) (((rs_pvu)(v) & 0x7f800000u) + 0x00800000u)
static inline __attribute__((always_inline)) rs_pvf rs_pv_block(
        int k, const float* __restrict r, const int32_t* __restrict base,
        const int32_t* __restrict base_b, const int32_t* __restrict ta,
        const int32_t* __restrict tb, const float* __restrict ww, const float* __restrict mw,
        int64_t i) {
    const float* t = r + base[i / RS_PV];
    rs_pvi a = RS_PV_LDI(ta + i), b = RS_PV_LDI(tb + i);
    rs_pvf x0, x1;
#if defined(RS_PV_TAPWISE)
    if (k == 1) {
        x0 = _mm256_permutevar8x32_ps(RS_PV_LD(t), a);
        x1 = _mm256_permutevar8x32_ps(RS_PV_LD(r + base_b[i / RS_PV]), b);
    } else
#else
    (void)base_b;
#endif
    {
        rs_pvf t0 = RS_PV_LD(t), t1 = RS_PV_LD(t + RS_PV);
        if (k == 4) {
            rs_pvf t2 = RS_PV_LD(t + 2 * RS_PV), t3 = RS_PV_LD(t + 3 * RS_PV);
            x0 = rs_perm4(t0, t1, t2, t3, a);
            x1 = rs_perm4(t0, t1, t2, t3, b);
        } else {
            x0 = RS_PV_PERM(t0, t1, a);
            x1 = RS_PV_PERM(t0, t1, b);
        }
    }
    return RS_PV_ADD(RS_PV_MUL(x0, RS_PV_LD(ww + i)), RS_PV_MUL(x1, RS_PV_LD(mw + i)));
}
/* (the windows' tables in locals: read through pw, each was reloaded after
   every store, which may alias the struct) */
static inline __attribute__((always_inline)) void rs_wstep1_blocks(
        int k, int check, float* __restrict o, uint8_t* __restrict d, const float* __restrict r,
        const rs_pv_wins* pw, const float* __restrict ww, const float* __restrict mw,
        int64_t i, int64_t end, rs_pvu* accv) {
    const int32_t* __restrict base = pw->base;
    const int32_t* __restrict base_b = pw->base_b;
    const int32_t* __restrict ta = pw->a;
    const int32_t* __restrict tb = pw->b;
    rs_pvu acc = *accv;
#if !defined(__AVX512F__)
    if (d) {
        for (; i + 4 * RS_PV <= end; i += 4 * RS_PV) {
            rs_pvf v0 = rs_pv_block(k, r, base, base_b, ta, tb, ww, mw, i);
            rs_pvf v1 = rs_pv_block(k, r, base, base_b, ta, tb, ww, mw, i + RS_PV);
            rs_pvf v2 = rs_pv_block(k, r, base, base_b, ta, tb, ww, mw, i + 2 * RS_PV);
            rs_pvf v3 = rs_pv_block(k, r, base, base_b, ta, tb, ww, mw, i + 3 * RS_PV);
            dnnl_py_store32_u8(d + i, v0, v1, v2, v3);
            if (check) acc |= RS_PV_NF(v0) | RS_PV_NF(v1) | RS_PV_NF(v2) | RS_PV_NF(v3);
        }
    }
#endif
    for (; i < end; i += RS_PV) {
        rs_pvf v = rs_pv_block(k, r, base, base_b, ta, tb, ww, mw, i);
        rs_pv_store(o + i, d ? d + i : d, v);
        if (check) acc |= RS_PV_NF(v);
    }
    *accv = acc;
}
#endif
/* The windowed blocks of a row (o, or with d, u8 at d): up to pw->end4;
   with check RS_NONFINITE's accumulator of their values in *acc (else 0:
   a plan that does not check spends nothing on it). */
static inline __attribute__((always_inline)) void rs_wstep1_win(
        float* __restrict o, uint8_t* __restrict d, const float* __restrict r,
        const rs_pv_wins* pw, const float* __restrict ww, const float* __restrict mw,
        int check, uint32_t* acc) {
    *acc = 0;
#if defined(RS_PV)
    rs_pvu accv = {0};
    if (check) {
#if defined(RS_PV_TAPWISE)
        rs_wstep1_blocks(1, 1, o, d, r, pw, ww, mw, 0, pw->end1, &accv);
#endif
        rs_wstep1_blocks(2, 1, o, d, r, pw, ww, mw, pw->end1, pw->end2, &accv);
        rs_wstep1_blocks(4, 1, o, d, r, pw, ww, mw, pw->end2, pw->end4, &accv);
        uint32_t lanes[RS_PV];
        memcpy(lanes, &accv, sizeof lanes);
        for (int j = 0; j < RS_PV; j++) *acc |= lanes[j];
    } else {
#if defined(RS_PV_TAPWISE)
        rs_wstep1_blocks(1, 0, o, d, r, pw, ww, mw, 0, pw->end1, &accv);
#endif
        rs_wstep1_blocks(2, 0, o, d, r, pw, ww, mw, pw->end1, pw->end2, &accv);
        rs_wstep1_blocks(4, 0, o, d, r, pw, ww, mw, pw->end2, pw->end4, &accv);
    }
#else
    (void)o;
    (void)d;
    (void)r;
    (void)pw;
    (void)ww;
    (void)mw;
    (void)check;
#endif
}
/* The outputs of a row from pw->end4 on, as f32 at o: the pairs' or the
   pixel form's (rs_pv_wins), the rest gathered, in the row's order so that
   a pair's or a pixel's extra lanes are overwritten. RS_NONFINITE's
   accumulator with check, of the row's lanes only (else 0). */
static uint32_t rs_wstep1_rest(float* __restrict o, const float* __restrict r,
                               const rs_pv_wins* pw, const int32_t* __restrict i0,
                               const int32_t* __restrict i1, const float* __restrict ww,
                               const float* __restrict mw, int64_t n, int check) {
    int64_t i = pw->end4;
    uint32_t acc = 0;
#if defined(RS_PV_PAIRS)
    if (pw->pair1 > pw->pair0) {
        const int64_t C = pw->C, e0 = 2 * C * pw->pair0, e1 = 2 * C * pw->pair1;
        acc = rs_gather1_32(o + i, r, i0 + i, i1 + i, ww + i, mw + i, e0 - i, check);
        const __m256 w0 = _mm256_loadu_ps(pw->pw0), w1 = _mm256_loadu_ps(pw->pw1);
        const rs_pvu keep = (rs_pvu)_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(2 * C)),
                                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        rs_pvu accv = {0};
        /* (the taps' offsets computed, not read from i0 / i1: twice as fast) */
        for (int64_t k = pw->pair0; k < pw->pair1; k++) {
            __m256 v = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(r + C * (k - 1)), w0),
                                     _mm256_mul_ps(_mm256_loadu_ps(r + C * k), w1));
            _mm256_storeu_ps(o + 2 * C * k, v);
            if (check) accv |= RS_PV_NF(v) & keep;
        }
        if (check) {
            uint32_t lanes[8];
            memcpy(lanes, &accv, sizeof lanes);
            for (int j = 0; j < 8; j++) acc |= lanes[j];
        }
        i = e1;
    }
#endif
#if defined(RS_PV_PIXELS)
    if (pw->px1 > pw->px0) {
        const int64_t C = pw->C, e0 = pw->px0 * C, e1 = pw->px1 * C;
        acc = rs_gather1_32(o + i, r, i0 + i, i1 + i, ww + i, mw + i, e0 - i, check);
        const __m128i keep = _mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32((int)C));
        __m128i accv = _mm_setzero_si128();
        for (int64_t e = e0; e < e1; e += C) {
            __m128 v = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(r + i0[e]), _mm_broadcast_ss(ww + e)),
                                  _mm_mul_ps(_mm_loadu_ps(r + i1[e]), _mm_broadcast_ss(mw + e)));
            _mm_storeu_ps(o + e, v);
            if (check)
                accv = _mm_or_si128(accv, _mm_and_si128(keep, _mm_add_epi32(
                        _mm_and_si128(_mm_castps_si128(v), _mm_set1_epi32(0x7f800000)),
                        _mm_set1_epi32(0x00800000))));
        }
        if (check) {
            uint32_t lanes[4];
            memcpy(lanes, &accv, sizeof lanes);
            acc |= lanes[0] | lanes[1] | lanes[2] | lanes[3];
        }
        i = e1;
    }
#endif
    return acc | rs_gather1_32(o + i, r, i0 + i, i1 + i, ww + i, mw + i, n - i, check);
}
static uint32_t rs_wstep1_32(float* __restrict o, const float* __restrict r,
                             const rs_pv_wins* pw, const int32_t* __restrict i0,
                             const int32_t* __restrict i1, const float* __restrict ww,
                             const float* __restrict mw, int64_t n, int check) {
    uint32_t acc;
    rs_wstep1_win(o, NULL, r, pw, ww, mw, check, &acc);
    return acc | rs_wstep1_rest(o, r, pw, i0, i1, ww, mw, n, check);
}
/* rs_wstep1_32 into a u8 row d: the windowed blocks stored as u8 directly,
   the rest computed as f32 in o, then (AVX2) stored as u8 by whole
   vectors; the last, from the index returned, left in o for the caller to
   encode.
   *acc: RS_NONFINITE's accumulator of every value. */
static int64_t rs_wstep1_u8(uint8_t* __restrict d, float* __restrict o,
                            const float* __restrict r, const rs_pv_wins* pw,
                            const int32_t* __restrict i0, const int32_t* __restrict i1,
                            const float* __restrict ww, const float* __restrict mw,
                            int64_t n, int check, uint32_t* acc) {
    int64_t i = pw->end4;
    rs_wstep1_win(o, d, r, pw, ww, mw, check, acc);
    *acc |= rs_wstep1_rest(o, r, pw, i0, i1, ww, mw, n, check);
#if defined(RS_PV) && !defined(__AVX512F__)
    i += dnnl_py_store_run_u8(d + i, o + i, n - i);
#endif
    return i;
}
static void rs_wstep0_32(float* __restrict o, const float* __restrict r, int64_t nr,
                         const int32_t* __restrict i0, int64_t n, int64_t C) {
    int64_t i = 0;
#if defined(RS_PV)
    if (nr >= 2 * RS_PV) {
        int64_t c = 0, step = RS_PV % C;
        for (; i + RS_PV <= n; i += RS_PV) {
            int64_t base = rs_pv_base(i0, i, c, nr, 2 * RS_PV);
            rs_pvi a = RS_PV_SUB(RS_PV_LDI(i0 + i), RS_PV_SET1((int32_t)base));
            if (!RS_PV_WITHIN(a, a, 2 * RS_PV)) break;
            RS_PV_ST(o + i, RS_PV_PERM(RS_PV_LD(r + base), RS_PV_LD(r + base + RS_PV), a));
            c = rs_pv_next(c, step, C);
        }
    }
#else
    (void)nr;
    (void)C;
#endif
    rs_gather0_32(o + i, r, i0 + i, n - i);
}
/* Nearest between equal one-byte types (u8, s8): the bytes themselves.
   With SSSE3 (the v3 and v4 levels), a block of 16 outputs that reads a
   window of at most 16 bytes of r (an enlargement) is one byte shuffle of
   it; from the first block that reads more (a reduction), byte by byte.
   nr: the bytes of r; C: the channels (as in rs_wstep1_32). */
static void rs_take_u8(uint8_t* __restrict o, const uint8_t* __restrict r, int64_t nr,
                       const int32_t* __restrict i0, int64_t n, int64_t C) {
    int64_t i = 0;
#if defined(__SSSE3__) && defined(__SSE4_1__)
    if (nr >= 16) {
        int64_t c = 0, step = 16 % C;
        for (; i + 16 <= n; i += 16) {
            int64_t base = rs_pv_base(i0, i, c, nr, 16);
#if defined(__AVX512F__)
            __m512i a = _mm512_sub_epi32(_mm512_loadu_si512((const void*)(i0 + i)),
                                         _mm512_set1_epi32((int32_t)base));
            if (_mm512_test_epi32_mask(a, _mm512_set1_epi32(~15))) break;
            __m128i b = _mm512_cvtepi32_epi8(a);
#else
            __m128i vb = _mm_set1_epi32((int32_t)base);
            const __m128i* q = (const __m128i*)(i0 + i);
            __m128i a0 = _mm_sub_epi32(_mm_loadu_si128(q), vb);
            __m128i a1 = _mm_sub_epi32(_mm_loadu_si128(q + 1), vb);
            __m128i a2 = _mm_sub_epi32(_mm_loadu_si128(q + 2), vb);
            __m128i a3 = _mm_sub_epi32(_mm_loadu_si128(q + 3), vb);
            if (!_mm_testz_si128(_mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3)),
                                 _mm_set1_epi32(~15)))
                break;
            __m128i b = _mm_packus_epi16(_mm_packus_epi32(a0, a1), _mm_packus_epi32(a2, a3));
#endif
            _mm_storeu_si128((__m128i*)(o + i),
                             _mm_shuffle_epi8(_mm_loadu_si128((const __m128i*)(r + base)), b));
            c = rs_pv_next(c, step, C);
        }
    }
#else
    (void)nr;
    (void)C;
#endif
    for (; i < n; i++) o[i] = r[i0[i]];
}
#endif
