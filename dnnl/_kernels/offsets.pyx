# cython: language_level=3
"""Logical index -> physical element offset, for any blocked descriptor.

oneDNN's offset of a logical position is separable (DESIGN rule 3):
``off(i) = offset0 + sum_d f_d(i_d)``, where ``f_d`` splits ``i_d`` into its
inner blocks (innermost first) and its outer block index times
``strides[d]``. ``dim_tables`` tabulates every ``f_d`` once; kernels take the
concatenated table plus per-dim starts, and ``all_offsets`` is the vectorised
form (every logical element, row-major).
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()


def dim_tables(md, padded=False):
    """``(table, starts, sizes)``: ``f_d(i)`` at ``table[starts[d] + i]``.

    With ``padded=True`` each table covers ``padded_dims[d]`` positions, so
    padding positions can be addressed too.
    """
    cdef int nd = md.ndims
    sizes = np.array(md.padded_dims if padded else md.dims, dtype=np.int64)
    starts = np.zeros(nd, dtype=np.int64)
    if nd > 1:
        starts[1:] = np.cumsum(sizes)[:-1]
    table = np.empty(int(sizes.sum()), dtype=np.int64)
    cdef int64_t[::1] t = table
    cdef int64_t i, p, off, inner_stride, n, start, stride
    cdef int d, k, nblk = len(md.inner_blks)
    blks = md.inner_blks
    idxs = md.inner_idxs
    for d in range(nd):
        n = sizes[d]
        start = starts[d]
        stride = md.strides[d]
        for i in range(n):
            p = i
            off = 0
            inner_stride = 1
            for k in range(nblk - 1, -1, -1):
                if idxs[k] == d:
                    off += (p % blks[k]) * inner_stride
                    p //= blks[k]
                inner_stride *= blks[k]
            t[start + i] = off + p * stride
    return table, starts, sizes


cdef void _walk(const int64_t* table, const int64_t* starts, const int64_t* sizes,
                int nd, int64_t base, int64_t* out) noexcept nogil:
    """Row-major odometer over ``sizes``, writing ``base + sum_d f_d(i_d)``."""
    cdef int64_t idx[12]
    cdef int64_t acc[13]
    cdef int64_t n = 1, j, last_n
    cdef int d
    for d in range(nd):
        n *= sizes[d]
        idx[d] = 0
    if n == 0:
        return
    acc[0] = base
    for d in range(nd - 1):
        acc[d + 1] = acc[d] + table[starts[d]]
    last_n = sizes[nd - 1]
    cdef const int64_t* last = table + starts[nd - 1]
    j = 0
    while True:
        for d in range(last_n):
            out[j + d] = acc[nd - 1] + last[d]
        j += last_n
        if j >= n:
            break
        d = nd - 2
        while True:  # carry into the outer dims
            idx[d] += 1
            if idx[d] < sizes[d]:
                break
            idx[d] = 0
            d -= 1
        acc[d + 1] = acc[d] + table[starts[d] + idx[d]]
        d += 1
        while d < nd - 1:
            acc[d + 1] = acc[d] + table[starts[d]]
            d += 1


def all_offsets(md, padded=False):
    """Physical element offset of every logical element, row-major over dims.

    ``offset0`` is included. With ``padded=True`` the walk covers
    ``padded_dims`` (padding positions included).
    """
    table, starts, sizes = dim_tables(md, padded)
    n = int(np.prod(sizes)) if md.ndims else 0
    out = np.empty(n, dtype=np.int64)
    if n == 0:
        return out
    cdef int64_t[::1] t = table, s = starts, z = sizes, o = out
    cdef int64_t base = md.offset0
    cdef int nd = md.ndims
    with nogil:
        _walk(&t[0], &s[0], &z[0], nd, base, &o[0])
    return out


def padding_offsets(md):
    """Physical offsets of the padding positions of a blocked layout.

    Those are the positions with some ``dims[d] <= p[d] < padded_dims[d]``;
    oneDNN's outputs must hold zeros there.
    """
    if md.ndims == 0 or tuple(md.padded_dims) == tuple(md.dims):
        return np.empty(0, dtype=np.int64)
    offs = all_offsets(md, padded=True).reshape(md.padded_dims)
    inside = np.ones(md.padded_dims, dtype=bool)
    for d in range(md.ndims):
        shape = [1] * md.ndims
        shape[d] = md.padded_dims[d]
        inside &= (np.arange(md.padded_dims[d]) < md.dims[d]).reshape(shape)
    return offs[~inside]
