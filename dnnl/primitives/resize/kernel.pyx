# cython: language_level=3
"""Resize kernels: one axis of a separable weight table (plan.py beside this
file builds the tables), forward and its transpose, in f32.

An axis pass sees its f32 tensor as ``outer x n x inner`` (C order: the axis
``n``, everything before it ``outer``, everything after it ``inner``). The
forward writes output row ``o`` of every outer item as
``w[o, 0] * row(first[o]) + w[o, 1] * row(first[o] + 1) + ... + bias[o]``,
the taps summed in order, one rounding per product and per sum (the build
has no contraction): the inner loop runs over ``inner`` contiguous floats
(the width for an H pass over NCHW, the channels for any pass over NHWC).
The backward pass (the transpose) starts every input row at +0 and adds
``w[o, t] * row(o)`` to row ``first[o] + t``, in increasing ``o`` then
``t``, one outer item per task (no two tasks write the same row).

Inputs are validated by the caller (plan.py); nothing here checks.
"""
cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.string cimport memset

from dnnl._platform.threads cimport max_threads, parallel_for

cnp.import_array()

#: below this many multiply-adds a pass runs on the calling thread
PARALLEL_MIN = 1 << 15


cdef struct AxisPass:
    const float* src
    float* dst
    const int64_t* first
    const float* w
    const float* bias       # NULL: no bias
    int64_t n_in
    int64_t n_out
    int64_t inner
    int64_t k


cdef void _fwd_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    cdef const AxisPass* p = <const AxisPass*>ctx
    cdef int64_t item, b, o, t, i, inner = p.inner
    cdef const float* s
    cdef float* d
    cdef float wt, bo
    for item in range(begin, end):
        b = item // p.n_out
        o = item - b * p.n_out
        d = p.dst + item * inner
        s = p.src + (b * p.n_in + p.first[o]) * inner
        wt = p.w[o * p.k]
        for i in range(inner):
            d[i] = wt * s[i]
        for t in range(1, p.k):
            wt = p.w[o * p.k + t]
            s = s + inner
            for i in range(inner):
                d[i] = d[i] + wt * s[i]
        if p.bias != NULL:
            bo = p.bias[o]
            for i in range(inner):
                d[i] = d[i] + bo


cdef void _bwd_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    cdef const AxisPass* p = <const AxisPass*>ctx
    cdef int64_t b, o, t, i, inner = p.inner
    cdef const float* s
    cdef float* d
    cdef float wt
    for b in range(begin, end):
        memset(p.dst + b * p.n_in * inner, 0, <size_t>(p.n_in * inner) * sizeof(float))
        for o in range(p.n_out):
            s = p.src + (b * p.n_out + o) * inner
            for t in range(p.k):
                wt = p.w[o * p.k + t]
                d = p.dst + (b * p.n_in + p.first[o] + t) * inner
                for i in range(inner):
                    d[i] = d[i] + wt * s[i]


def axis_pass(cnp.ndarray src, cnp.ndarray dst, cnp.ndarray first, cnp.ndarray weights,
              bias, int64_t outer, int64_t inner, bint backward):
    """One axis of ``src`` (C-contiguous f32, ``outer x n x inner``) into
    ``dst`` (likewise, the other extent): the table ``first`` (int64),
    ``weights`` (f32, n_out x k), ``bias`` (f32 or None; forward only)."""
    cdef AxisPass p
    cdef int64_t n_out = weights.shape[0], k = weights.shape[1]
    cdef int64_t items, work, traffic
    cdef int nthr
    p.src = <const float*>cnp.PyArray_DATA(src)
    p.dst = <float*>cnp.PyArray_DATA(dst)
    p.first = <const int64_t*>cnp.PyArray_DATA(first)
    p.w = <const float*>cnp.PyArray_DATA(weights)
    p.bias = NULL if bias is None else <const float*>cnp.PyArray_DATA(bias)
    p.n_out = n_out
    p.n_in = (cnp.PyArray_SIZE(dst) if backward else cnp.PyArray_SIZE(src)) // outer // inner
    p.inner = inner
    p.k = k
    work = outer * n_out * inner * k
    nthr = 1 if work < PARALLEL_MIN else max_threads()
    # what the pass reads and writes (the pool's rule for calls beyond the caches)
    traffic = 4 * (cnp.PyArray_SIZE(src) + cnp.PyArray_SIZE(dst))
    with nogil:
        if backward:
            parallel_for(outer, nthr, _bwd_range, &p, NULL, traffic)
        else:
            items = outer * n_out
            parallel_for(items, nthr, _fwd_range, &p, NULL, traffic)
