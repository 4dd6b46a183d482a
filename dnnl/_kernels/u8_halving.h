/* The u8 image halved by integer sums, for the kernels whose f32 steps it
   gives bit for bit (resampling's pixel rows, resize's rows). */
#ifndef DNNL_PY_U8_HALVING_H
#define DNNL_PY_U8_HALVING_H
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif
/* An exact halving of u8 pixel rows to u8 (2 x 2 source pixels an output
   pixel: resampling's linear, resize's box and area, at half the size):
   every tap weighs 1/2, so the f32 steps are exact, the H step's (a + b) /
   2 and the W step's (a + b + c + d) / 4 alike, and the result rounded half to even is (s + 1 + ((s >> 2) & 1)) >> 2 of the
   integer sum s (at most 1020). d: the n output elements (C channels, 1 to
   4) of one row; a, b: the two source rows it reads (2 n elements). Per
   128-bit lane of 16 bytes from each row (12 with 3 channels: 2 pixel
   pairs), one byte shuffle takes the first pixel of each pair, another the
   second, as u16; their 8 (or 6) sums are rounded, packed and stored 8
   bytes at a time, with 3 channels 2 bytes beyond the lane's, which the
   next store overwrites (never past the row's end). */
#if defined(__AVX2__)
static inline __m256i dnnl_py_half_pat(int64_t C, int second) {
    /* per lane, byte j of the first (second) pixel of pair q of the u16 at
       lane position q * C + c: 0x80 zeroes a u16's high byte */
    char t[16];
    for (int q = 0; q < 16; q++) t[q] = (char)0x80;
    const int pairs = C == 3 ? 2 : (int)(8 / C);
    for (int q = 0; q < pairs; q++)
        for (int c = 0; c < C; c++) t[2 * (q * C + c)] = (char)(2 * q * C + c + (second ? C : 0));
    __m128i v = _mm_loadu_si128((const __m128i*)t);
    return _mm256_broadcastsi128_si256(v);
}
#endif
static void dnnl_py_half_u8(uint8_t* __restrict d, const uint8_t* __restrict a,
                       const uint8_t* __restrict b, int64_t n, int64_t C) {
    int64_t e = 0;
#if defined(__AVX2__)
    if (C >= 1 && C <= 4) {
        const int64_t S = C == 3 ? 12 : 16, H = S / 2;     /* bytes in, outputs per lane */
        const __m256i p0 = dnnl_py_half_pat(C, 0), p1 = dnnl_py_half_pat(C, 1);
        const __m256i one = _mm256_set1_epi16(1);
        /* lane 1 reads 16 bytes from 2e + S, stores 8 at e + H */
        for (; 2 * e + S + 16 <= 2 * n && e + H + 8 <= n; e += 2 * H) {
            __m256i x = _mm256_inserti128_si256(
                    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i*)(a + 2 * e))),
                    _mm_loadu_si128((const __m128i*)(a + 2 * e + S)), 1);
            __m256i y = _mm256_inserti128_si256(
                    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i*)(b + 2 * e))),
                    _mm_loadu_si128((const __m128i*)(b + 2 * e + S)), 1);
            __m256i s = _mm256_add_epi16(
                    _mm256_add_epi16(_mm256_shuffle_epi8(x, p0), _mm256_shuffle_epi8(x, p1)),
                    _mm256_add_epi16(_mm256_shuffle_epi8(y, p0), _mm256_shuffle_epi8(y, p1)));
            __m256i odd = _mm256_and_si256(_mm256_srli_epi16(s, 2), one);
            __m256i q = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(s, one), odd), 2);
            __m256i u = _mm256_packus_epi16(q, q);
            _mm_storel_epi64((__m128i*)(d + e), _mm256_castsi256_si128(u));
            _mm_storel_epi64((__m128i*)(d + e + H), _mm256_extracti128_si256(u, 1));
        }
    }
#endif
    for (; e < n; e++) {
        int64_t p = e / C, c = e - p * C, i = 2 * p * C + c;
        unsigned s = (unsigned)a[i] + a[i + C] + b[i] + b[i + C];
        d[e] = (uint8_t)((s + 1 + ((s >> 2) & 1)) >> 2);
    }
}
#endif
