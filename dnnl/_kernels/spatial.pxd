# cython: language_level=3
"""What the spatial primitives' kernels share: the forward post-op chain
(the ``PostOps`` struct, its packing from a plan and its f32 arithmetic),
rows of one axis loaded and stored through an offset table, the item index
along an axis, and the zeroing of padding.

The plan side is ``spatial.py`` beside this file (the tables, channel runs
and ``PostOp`` entries these functions read); a kernel ``cimport``s this
file, which holds declarations and inline functions only (no module state,
nothing to import at run time).
"""
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy, memset

from dnnl._core.dnnl_types cimport dnnl_binary, dnnl_eltwise, dnnl_f32, dnnl_sum
from dnnl._kernels.cvt cimport decode_run, encode_run, load_f32, store_f32
from dnnl._kernels.postops cimport binary_op, eltwise_fwd


cdef enum:
    # entries of a post-op chain: dnnl.attr.POST_OPS_LIMIT (the primitives
    # refuse a longer chain before a plan is built)
    MAX_POST_OPS = 32


cdef struct PostOps:
    int n
    bint has_sum
    int kind[MAX_POST_OPS]            # dnnl_sum, dnnl_eltwise or dnnl_binary
    int alg[MAX_POST_OPS]
    float a[MAX_POST_OPS]
    float b[MAX_POST_OPS]
    float scale[MAX_POST_OPS]
    int dt[MAX_POST_OPS]
    const uint8_t* ptr[MAX_POST_OPS]
    const int64_t* tab[MAX_POST_OPS * 5]     # per entry, per axis N C D H W


cdef inline int64_t axis_index(int64_t* rest, int64_t n) noexcept nogil:
    """The index along an axis of extent ``n`` of the flat item number in
    ``rest`` (innermost axis first); ``rest`` keeps the outer part."""
    cdef int64_t i = rest[0] % n
    rest[0] = rest[0] // n
    return i


cdef inline void apply_post_ops(const PostOps* po, float* out, const float* old, int64_t L,
                                const int64_t* b1base, int inner_axis, int64_t start) noexcept nogil:
    """The post-op chain, in order and in f32, over ``L`` outputs ``out``
    (``old``: the destination's values, for a sum); a binary entry reads src1
    at ``b1base[e]`` plus its table of axis ``inner_axis`` from ``start``."""
    cdef int e
    cdef int64_t i
    cdef float r
    cdef const int64_t* t
    for i in range(L):
        r = out[i]
        for e in range(po.n):
            if po.kind[e] == dnnl_sum:
                r = r + po.scale[e] * old[i]
            elif po.kind[e] == dnnl_eltwise:
                r = eltwise_fwd(po.alg[e], r, po.a[e], po.b[e])
                if po.scale[e] != 1.0:
                    r = r * po.scale[e]
            else:
                t = po.tab[e * 5 + inner_axis]
                r = binary_op(po.alg[e], r, load_f32(po.ptr[e], b1base[e] + t[start + i],
                                                     po.dt[e]))
        out[i] = r


cdef inline void load_row(const uint8_t* base, int64_t off, const int64_t* tab, bint unit,
                          int64_t L, int dt, float* out) noexcept nogil:
    """``L`` elements of a ``dt`` tensor at ``off`` plus the offsets ``tab``
    (``unit``: ``tab[0] + i``) into f32 ``out``."""
    cdef int64_t i
    if unit:
        # one type switch, then a typed loop (vectorised for u8, s8, bf16)
        decode_run(base, off + tab[0], L, dt, out)
    else:
        for i in range(L):
            out[i] = load_f32(base, off + tab[i], dt)


cdef inline void store_row(uint8_t* base, int64_t off, const int64_t* tab, bint unit,
                           int64_t L, int dt, const float* vals) noexcept nogil:
    """``load_row``'s inverse: f32 ``vals`` converted once, at the store."""
    cdef int64_t i
    if unit:
        encode_run(base, off + tab[0], L, dt, vals)
    else:
        for i in range(L):
            store_f32(base, off + tab[i], dt, vals[i])


cdef inline int pack_post_ops(PostOps* po, list entries, list keep) except -1:
    """Copy a plan's ``spatial.PostOp`` entries into ``po`` (at most
    MAX_POST_OPS); the binary entries' src1 offset tables are made int64 and
    contiguous and kept alive in ``keep``. The src1 pointers are set at run
    time (NULL here)."""
    cdef int e, j
    cdef cnp.ndarray arr
    import numpy as np
    po.n = len(entries)
    po.has_sum = False
    for e in range(len(entries)):
        ent = entries[e]
        po.kind[e] = ent.kind
        po.alg[e] = ent.alg
        po.a[e] = ent.alpha
        po.b[e] = ent.beta
        po.scale[e] = ent.scale
        po.dt[e] = ent.dt if ent.kind == dnnl_binary else dnnl_f32
        po.ptr[e] = NULL
        if ent.kind == dnnl_sum:
            po.has_sum = True
        for j in range(5):
            if ent.kind == dnnl_binary:
                arr = np.ascontiguousarray(ent.tabs[j], dtype=np.int64)
                keep.append(arr)
                po.tab[e * 5 + j] = <const int64_t*>cnp.PyArray_DATA(arr)
            else:
                po.tab[e * 5 + j] = NULL
    return 0


cdef inline void zero_offsets(uint8_t* base, const int64_t* offs, int64_t n, int esize) noexcept nogil:
    """Zero the ``esize``-byte elements at offsets ``offs[0..n)`` (padding)."""
    cdef int64_t i
    for i in range(n):
        memset(base + offs[i] * esize, 0, esize)
