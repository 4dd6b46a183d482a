# The memory descriptor type, for the modules that cimport it (dnnl/_model/memory.pyx):
# its fields are read-only to everyone (to Python as member descriptors:
# desc.pyx publishes them), its key is one C call.
cdef class desc:
    # oneDNN's dnnl_memory_desc_t, tuples for arrays
    cdef object ndims, dims, data_type, padded_dims, padded_offsets, offset0
    cdef object format_kind, strides, inner_blks, inner_idxs, sparse
    cdef object _hash, _token      # _token: see cache_key

    cdef _fill(self, ndims, dims, dt, padded_dims, padded_offsets, offset0, kind,
               strides, inner_blks, inner_idxs, sparse)
    cdef _set(self, desc other)
    cpdef cache_key(self)
