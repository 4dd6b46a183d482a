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
#elif defined(__GNUC__) && !defined(__clang__)
    /* the same 4x4 blocks as GCC vector shuffles (NEON zip1/zip2 on AArch64) */
    typedef unsigned int v4 __attribute__((vector_size(16)));
    typedef unsigned long long v2 __attribute__((vector_size(16)));
    for (; a + 4 <= na; a += 4) {
        for (b = 0; b + 4 <= nb; b += 4) {
            const unsigned int *s = src + a + b * ss;
            unsigned int *d = dst + a * ds + b;
            v4 r0, r1, r2, r3;
            memcpy(&r0, s, 16);
            memcpy(&r1, s + ss, 16);
            memcpy(&r2, s + 2 * ss, 16);
            memcpy(&r3, s + 3 * ss, 16);
            v2 t0 = (v2)__builtin_shuffle(r0, r1, (v4){0, 4, 1, 5});
            v2 t1 = (v2)__builtin_shuffle(r2, r3, (v4){0, 4, 1, 5});
            v2 t2 = (v2)__builtin_shuffle(r0, r1, (v4){2, 6, 3, 7});
            v2 t3 = (v2)__builtin_shuffle(r2, r3, (v4){2, 6, 3, 7});
            v2 o0 = __builtin_shuffle(t0, t1, (v2){0, 2});
            v2 o1 = __builtin_shuffle(t0, t1, (v2){1, 3});
            v2 o2 = __builtin_shuffle(t2, t3, (v2){0, 2});
            v2 o3 = __builtin_shuffle(t2, t3, (v2){1, 3});
            memcpy(d, &o0, 16);
            memcpy(d + ds, &o1, 16);
            memcpy(d + 2 * ds, &o2, 16);
            memcpy(d + 3 * ds, &o3, 16);
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
