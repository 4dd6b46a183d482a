/* C helpers of the reorder kernels (dnnl/_kernels/reorder.pyx). */
#ifndef DNNL_PY_REORDER_KERNELS_H
#define DNNL_PY_REORDER_KERNELS_H
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* dst[a*ds + b] = src[a + b*ss] for a < na, b < nb (4-byte elements):
   4x4 blocks transposed in registers, the edges element by element. */
static void dnnl_py_transpose32(const unsigned int *src, long long ss,
                                unsigned int *dst, long long ds,
                                long long na, long long nb) {
    long long a = 0, b;
#if defined(__SSE2__)
    for (; a + 4 <= na; a += 4) {
        for (b = 0; b + 4 <= nb; b += 4) {
            const unsigned int *s = src + a + b * ss;
            __m128 r0 = _mm_loadu_ps((const float *)(s));
            __m128 r1 = _mm_loadu_ps((const float *)(s + ss));
            __m128 r2 = _mm_loadu_ps((const float *)(s + 2 * ss));
            __m128 r3 = _mm_loadu_ps((const float *)(s + 3 * ss));
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            unsigned int *d = dst + a * ds + b;
            _mm_storeu_ps((float *)(d), r0);
            _mm_storeu_ps((float *)(d + ds), r1);
            _mm_storeu_ps((float *)(d + 2 * ds), r2);
            _mm_storeu_ps((float *)(d + 3 * ds), r3);
        }
        for (; b < nb; ++b)
            for (long long i = 0; i < 4; ++i)
                dst[(a + i) * ds + b] = src[a + i + b * ss];
    }
#endif
    for (; a < na; ++a)
        for (b = 0; b < nb; ++b)
            dst[a * ds + b] = src[a + b * ss];
}

#endif
