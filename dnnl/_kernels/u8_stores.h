/* f32 vectors stored as u8, as the conversion ladder stores them
   (dnnl/_kernels/cvt.pxd's f32_to_u8): saturated to [0, 255], NaN to 0,
   rounded half to even in the current rounding mode. For the kernels that
   store u8 from registers (resampling's pixel rows, resize's rows).
   min(255, v) is v when v is a NaN (the second operand), and max(., 0)
   then 0; since the bounds are integers, saturating before rounding is
   the same. */
#ifndef DNNL_PY_U8_STORES_H
#define DNNL_PY_U8_STORES_H
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
/* 16 floats as 16 u8 at d */
static inline void dnnl_py_store16_u8(uint8_t* d, __m512 v) {
    __m512 c = _mm512_max_ps(_mm512_min_ps(_mm512_set1_ps(255.0f), v), _mm512_setzero_ps());
    _mm_storeu_si128((__m128i*)d, _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(c)));
}
#endif
#if defined(__AVX2__)
/* v's 8 floats saturated and rounded, as dwords of 0..255 */
static inline __m256i dnnl_py_u8_dwords(__m256 v) {
    return _mm256_cvtps_epi32(_mm256_max_ps(_mm256_min_ps(_mm256_set1_ps(255.0f), v),
                                            _mm256_setzero_ps()));
}
/* 8 floats as 8 u8 at d */
static inline void dnnl_py_store8_u8(uint8_t* d, __m256 v) {
    __m256i q = dnnl_py_u8_dwords(v);
    __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    _mm_storel_epi64((__m128i*)d, _mm_packus_epi16(w, w));
}
/* 32 floats (v0..v3) as 32 u8 at d: the packs work within 128-bit lanes,
   leaving the dwords (4 bytes each) of v0..v3's low halves, then of their
   high halves, which the last permute puts back in order */
static inline void dnnl_py_store32_u8(uint8_t* d, __m256 v0, __m256 v1, __m256 v2,
                                      __m256 v3) {
    __m256i w0 = _mm256_packus_epi32(dnnl_py_u8_dwords(v0), dnnl_py_u8_dwords(v1));
    __m256i w1 = _mm256_packus_epi32(dnnl_py_u8_dwords(v2), dnnl_py_u8_dwords(v3));
    _mm256_storeu_si256((__m256i*)d,
                        _mm256_permutevar8x32_epi32(_mm256_packus_epi16(w0, w1),
                                                    _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
#endif

/* The n floats at v stored as u8 at d, in whole vectors (AVX-512: 16 at a
   time; AVX2: 32, then 8); returns the elements done, the caller converts
   the rest (none below AVX2). */
static inline int64_t dnnl_py_store_run_u8(uint8_t* __restrict d, const float* __restrict v,
                                           int64_t n) {
    int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16) dnnl_py_store16_u8(d + i, _mm512_loadu_ps(v + i));
#elif defined(__AVX2__)
    for (; i + 32 <= n; i += 32)
        dnnl_py_store32_u8(d + i, _mm256_loadu_ps(v + i), _mm256_loadu_ps(v + i + 8),
                           _mm256_loadu_ps(v + i + 16), _mm256_loadu_ps(v + i + 24));
    for (; i + 8 <= n; i += 8) dnnl_py_store8_u8(d + i, _mm256_loadu_ps(v + i));
#else
    (void)d;
    (void)v;
    (void)n;
#endif
    return i;
}
#endif
