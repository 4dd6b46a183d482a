# cython: language_level=3
"""The thread count of every parallel kernel (dnnl_threads.h)."""

cdef extern from "dnnl_threads.h":
    int max_threads "dnnl_py_max_threads"() noexcept nogil
