# The library's own buffer (DNNL_MEMORY_ALLOCATE), compiled into
# dnnl/_model/memory.pyx, which includes this file where the class stands: the
# memory reaches its C fields (ptr) directly. It reads the module's ALIGN,
# error and status.
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_ND, PyBUF_STRIDES
from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.stdlib cimport free, malloc

cdef extern from *:
    """
    #include <sys/mman.h>
    /* Large buffers backed by transparent huge pages where the kernel
       offers them on request (THP "madvise" mode, the usual default), as
       numpy does for its own arrays from 4 MiB: a new result of 200 MB
       otherwise takes 50,000 page faults, more time than the copy. */
    static void dnnl_advise_huge(void* p, size_t n) {
    #if defined(MADV_HUGEPAGE)
        if (n >= ((size_t)1 << 22)) {
            size_t skip = (4096 - (size_t)p % 4096) % 4096;
            madvise((char*)p + skip, n - skip, MADV_HUGEPAGE);
        }
    #else
        (void)p; (void)n;
    #endif
    }
    """
    void dnnl_advise_huge(void* p, size_t n) nogil


@cython.freelist(16)
cdef class aligned_buffer:
    """A buffer of the library's own (``DNNL_MEMORY_ALLOCATE``): ``size``
    bytes at a 64-byte aligned address, uninitialised like oneDNN's; numpy
    sees it through the buffer protocol. One C allocation: what a new
    result costs a small array call."""

    cdef void* ptr              # 64-byte aligned, inside block
    cdef void* block            # what malloc gave
    cdef readonly Py_ssize_t size
    cdef Py_ssize_t one

    def __cinit__(self, Py_ssize_t size):
        # malloc and round up rather than posix_memalign, which splits
        # the block it takes and frees the head: twice the work of a
        # small result's allocation, and fragments the heap
        if size >= 0 and size <= PY_SSIZE_T_MAX - ALIGN:
            self.block = malloc(size + ALIGN - 1 if size else ALIGN)
        if self.block == NULL:
            raise error(status.out_of_memory, "cannot allocate %d bytes" % size)
        self.ptr = <void*>((<size_t>self.block + ALIGN - 1) & ~<size_t>(ALIGN - 1))
        self.size, self.one = size, 1
        dnnl_advise_huge(self.ptr, <size_t>size)

    def __dealloc__(self):
        free(self.block)

    @property
    def address(self):
        return <size_t>self.ptr

    def __getbuffer__(self, Py_buffer* view, int flags):
        view.buf, view.obj, view.len = self.ptr, self, self.size
        view.readonly, view.itemsize, view.ndim = 0, 1, 1
        view.format = <char*>"B" if flags & PyBUF_FORMAT else NULL
        view.shape = &self.size if flags & PyBUF_ND else NULL
        view.strides = &self.one if flags & PyBUF_STRIDES == PyBUF_STRIDES else NULL
        view.suboffsets = view.internal = NULL

    def __releasebuffer__(self, Py_buffer* view):
        pass
