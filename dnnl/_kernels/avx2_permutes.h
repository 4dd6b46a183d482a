/* Element a of a window of 16 or 32 floats held in 8-float registers, for
   the AVX2 kernels that permute a row's taps out of registers instead of
   gathering them (resampling's pixel rows, resize's rows): AVX2 has no
   two-source permute, so each register pair is two vpermps and a blend on
   the index's bit 3 (and, of four, a blend of two pairs on bit 4). */
#ifndef DNNL_PY_AVX2_PERMUTES_H
#define DNNL_PY_AVX2_PERMUTES_H
#if defined(__AVX2__)
#include <immintrin.h>
/* element a (0-15) of lo, hi */
static inline __m256 dnnl_py_perm16(__m256 lo, __m256 hi, __m256i a) {
    return _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, a), _mm256_permutevar8x32_ps(hi, a),
                            _mm256_castsi256_ps(_mm256_slli_epi32(a, 28)));
}
/* element a (0-31) of t0..t3 */
static inline __m256 dnnl_py_perm32(__m256 t0, __m256 t1, __m256 t2, __m256 t3, __m256i a) {
    return _mm256_blendv_ps(dnnl_py_perm16(t0, t1, a), dnnl_py_perm16(t2, t3, a),
                            _mm256_castsi256_ps(_mm256_slli_epi32(a, 27)));
}
#endif
#endif
