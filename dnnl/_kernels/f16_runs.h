/* Runs of f16 converted by the F16C instructions where the build has them
   (x86-64-v3 and up): vcvtph2ps is exact and keeps a NaN's payload with the
   quiet bit set; vcvtps2ph with imm8 0 rounds half to even with gradual
   underflow, overflows to inf and keeps a NaN's top payload bits with the
   quiet bit set: cvt.pxd's f16_to_f32 / f32_to_f16, bit for bit (tests at
   every level compare every f16 and the f32 edge values). Each returns the
   elements it did; cvt.pxd's loop does the rest. Without F16C, none. */
#ifndef DNNL_PY_F16_RUNS_H
#define DNNL_PY_F16_RUNS_H
#include <stdint.h>
#if defined(__F16C__)
#include <immintrin.h>
#endif

static inline int64_t dnnl_py_f16_decode_run(const uint8_t* src, float* out, int64_t n) {
    int64_t i = 0;
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(src + 2 * i))));
#else
    (void)src; (void)out; (void)n;
#endif
    return i;
}

static inline int64_t dnnl_py_f16_encode_run(uint8_t* dst, const float* vals, int64_t n) {
    int64_t i = 0;
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i*)(dst + 2 * i), _mm256_cvtps_ph(_mm256_loadu_ps(vals + i), 0));
#else
    (void)dst; (void)vals; (void)n;
#endif
    return i;
}
#endif
