/* The number of threads a parallel kernel uses: decided here only.
 *
 * OpenMP's own answer, so it honours OMP_NUM_THREADS at start-up and
 * threadpoolctl's (or omp_set_num_threads') limits set later; 1 in a build
 * without OpenMP. Kernels pass it to prange's num_threads, and verbose
 * reports it (nthr:N). */
#ifndef DNNL_PY_THREADS_H
#define DNNL_PY_THREADS_H
#ifdef _OPENMP
#include <omp.h>
static inline int dnnl_py_max_threads(void) { return omp_get_max_threads(); }
#else
static inline int dnnl_py_max_threads(void) { return 1; }
#endif
#endif
