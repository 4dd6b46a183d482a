# cython: language_level=3
"""The thread count of the parallel kernels, for Python (verbose's ``nthr``).

Built once, for the baseline, outside ``dnnl._kernels``: importing it picks
no ISA level, so verbose can import it directly. dnnl_threads.h decides the
count for the kernels and for this module alike.
"""
from dnnl._kernels.threads cimport max_threads as _max_threads


def max_threads():
    """The threads a parallel kernel runs on now (OMP_NUM_THREADS,
    threadpoolctl limits; 1 without OpenMP)."""
    return _max_threads()
