# cython: language_level=3
"""The threads of the parallel kernels (dnnl_threads.h), for the kernels:
one pool per process, whatever ISA level the kernels are loaded at."""
from libc.stdint cimport int64_t

# runs items [begin, end) on the thread of scratch slot `slot` (0 .. nthr-1)
ctypedef void (*range_fn)(const void* ctx, int64_t begin, int64_t end,
                          int slot) noexcept nogil

cpdef int max_threads() noexcept nogil
# `kind`: what identifies the work (a plan's address; NULL: the function and
# the item count alone), for the pool's record of what parallelism gains;
# `nbytes`: what the items read and write (0: not known), for its rule
cdef void parallel_for(int64_t n, int nthr, range_fn fn, const void* ctx,
                       const void* kind, int64_t nbytes) noexcept nogil
