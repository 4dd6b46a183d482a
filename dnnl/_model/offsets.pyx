# cython: language_level=3
"""Logical index -> physical element offset, for any blocked descriptor.

oneDNN's offset of a logical position is separable (design rule 3,
docs/internals/architecture.md):
``off(i) = offset0 + sum_d f_d(i_d)``, where ``f_d`` splits ``i_d`` into its
inner blocks (innermost first) and its outer block index times
``strides[d]``. ``dim_tables`` tabulates every ``f_d`` once; kernels take the
concatenated table plus per-dim starts, and ``all_offsets`` is the vectorised
form (every logical element, row-major).

Metadata work must not grow with a dimension, so creation-time questions and
logical copies use the blocking itself: ``levels`` describes ``f_d`` as a
mixed-radix number (outer block index, then each inner block), from which
``max_offset`` (the largest reachable offset) and ``logical_boxes`` /
``padding_boxes`` (the logical tensor, or its padding, as a few strided
boxes that numpy views can address) follow in O(ndims * nblocks). The
tables stay for kernels, which build them when they run.
"""
import itertools
import math

import numpy as np

cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from dnnl._platform.threads cimport max_threads, parallel_for

cdef extern from "offsets_kernels.h":
    void dnnl_py_transpose8(const uint8_t* src, long long ss, uint8_t* dst,
                            long long ds, long long na, long long nb) noexcept nogil
    void dnnl_py_transpose16(const uint16_t* src, long long ss, uint16_t* dst,
                             long long ds, long long na, long long nb) noexcept nogil
    void dnnl_py_transpose32(const uint32_t* src, long long ss, uint32_t* dst,
                             long long ds, long long na, long long nb) noexcept nogil

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
    oneDNN's outputs must hold zeros there. Built box by box: the work and
    the result grow with the padding only.
    """
    parts = [np.empty(0, dtype=np.int64)]
    for offset, _, _, axes in padding_boxes(md):
        offs = np.full((), offset, dtype=np.int64)
        for n, stride in (ax for dim_axes in axes for ax in dim_axes):
            offs = (offs[..., None] + np.arange(n, dtype=np.int64) * stride)
        parts.append(offs.reshape(-1))
    return np.concatenate(parts)


# -- the blocking as arithmetic ---------------------------------------------------
def levels(md, d):
    """``f_d`` as mixed-radix digits, outermost first: ``(radix, unit, stride)``.

    The digit of a level is ``i // unit % radix`` (the outer level, radix 0,
    has no modulus) and ``f_d(i) = sum(digit * stride)``.
    """
    inner, own = 1, []
    for blk, idx in zip(reversed(md.inner_blks), reversed(md.inner_idxs)):
        if idx == d:
            own.append((blk, inner))
        inner *= blk
    unit = math.prod(blk for blk, _ in own)
    out = [(0, unit, md.strides[d])]
    for blk, stride in reversed(own):
        unit //= blk
        out.append((blk, unit, stride))
    return out


def _digits(lv, i):
    return [i // unit % radix if radix else i // unit for radix, unit, _ in lv]


def dim_offset(lv, i):
    """``f_d(i)`` from the levels of dim ``d``."""
    return sum(g * s for g, (_, _, s) in zip(_digits(lv, i), lv))


def dim_max(lv, n):
    """``max f_d(i)`` over ``0 <= i < n`` (n >= 1), any stride signs.

    Either ``i = n - 1`` or ``i`` agrees with ``n - 1`` above some level,
    is smaller there and free below it.
    """
    top = _digits(lv, n - 1)
    free = [max(0, (radix - 1) * s) for radix, _, s in lv]   # radix 0 only at level 0
    best = prefix = 0
    for k, (g, (_, _, s)) in enumerate(zip(top, lv)):
        if g > 0:
            best = max(best, prefix + max(0, (g - 1) * s) + sum(free[k + 1:]))
        prefix += g * s
    return max(best, prefix)


def max_offset(md):
    """Largest element offset any position of ``padded_dims`` reaches
    (offset0 included): the last entry of the tables, without them."""
    return md.offset0 + sum(dim_max(levels(md, d), md.padded_dims[d])
                            for d in range(md.ndims))


def dim_pieces(lv, lo, hi):
    """``[lo, hi)`` of one dim as strided pieces ``(start, offset, axes)``, in
    order: logical ``start + j`` for the mixed-radix ``j`` over ``axes``
    (``[(size, stride)]``, outermost first) sits at ``offset + sum(j_a * stride_a)``."""
    out = []

    def split(lo, hi, k):
        if lo >= hi:
            return
        radix, unit, stride = lv[k]
        a, b = -(-lo // unit) * unit, hi // unit * unit
        if a < b:
            split(lo, a, k + 1)
            axes = [((b - a) // unit, stride)] + [(r, s) for r, _, s in lv[k + 1:]]
            out.append((a, dim_offset(lv, a), axes))
            split(b, hi, k + 1)
        elif lo < a < hi:
            split(lo, a, k + 1)
            split(a, hi, k + 1)
        else:
            split(lo, hi, k + 1)

    split(lo, hi, 0)
    return out


def _boxes(md, ranges):
    """The product of per-dim ranges as boxes ``(offset, starts, shape, axes)``:
    ``shape`` the logical extent per dim, ``axes[d]`` that dim's
    ``[(size, stride)]`` (their sizes multiply to ``shape[d]``)."""
    per_dim = [dim_pieces(levels(md, d), lo, hi) for d, (lo, hi) in enumerate(ranges)]
    for combo in itertools.product(*per_dim):
        yield (md.offset0 + sum(off for _, off, _ in combo),
               tuple(start for start, _, _ in combo),
               tuple(math.prod(n for n, _ in dim_axes) for _, _, dim_axes in combo),
               tuple(dim_axes for _, _, dim_axes in combo))


def logical_boxes(md):
    """The logical tensor (``dims``) as a few strided boxes (see ``_boxes``)."""
    if md.ndims == 0 or 0 in md.dims:
        return []
    return list(_boxes(md, [(0, n) for n in md.dims]))


def padding_boxes(md):
    """The padding positions (some ``dims[d] <= p[d] < padded_dims[d]``) as
    disjoint strided boxes."""
    out = []
    if md.ndims == 0 or 0 in md.dims:
        return out
    for d in range(md.ndims):
        if md.padded_dims[d] > md.dims[d]:
            ranges = ([(0, n) for n in md.dims[:d]] + [(md.dims[d], md.padded_dims[d])]
                      + [(0, n) for n in md.padded_dims[d + 1:]])
            out += _boxes(md, ranges)
    return out


# -- copying one strided box ----------------------------------------------------------
ctypedef fused elem_t:
    uint8_t
    uint16_t
    uint32_t
    uint64_t

DEF MAXA = 32       # axes of a box: at most ndims + inner blocks
DEF TILE = 32       # a transposing copy moves TILE x TILE element tiles
DEF RUN = 1 << 16   # elements per work item of a contiguous or strided run


cdef struct Box:
    int nd               # axes, outermost first; the last (B) has the finest dst step
    int tile             # 1: axes nd-2 (A, finest src step) and nd-1 copied by tiles
    int64_t tb           # positions of B per column of tiles (a cache line at least)
    int64_t nchunks      # work items per outer position: runs of B, or columns
                         # of tiles (TILE positions of B, all of A)
    int64_t n[MAXA]
    int64_t s[MAXA]      # src steps, elements
    int64_t d[MAXA]      # dst steps, elements


cdef void _box_item(const elem_t* src, elem_t* dst, const Box* b, int64_t item) noexcept nogil:
    cdef int64_t rest = item // b.nchunks, c = item % b.nchunks
    cdef int64_t so = 0, do = 0, i, x, y, lo, hi, b0, b1
    cdef int k, last = b.nd - 1
    for k in range(last - b.tile - 1, -1, -1):   # the outer position
        i = rest % b.n[k]
        rest = rest // b.n[k]
        so += i * b.s[k]
        do += i * b.d[k]
    cdef int64_t nB = b.n[last], sB = b.s[last], dB = b.d[last]
    if not b.tile:
        lo = c * RUN
        hi = min(lo + RUN, nB)
        if sB == 1 and dB == 1:
            memcpy(dst + do + lo, src + so + lo, (hi - lo) * sizeof(elem_t))
        else:
            for i in range(lo, hi):
                dst[do + i * dB] = src[so + i * sB]
        return
    # a column of tiles: B in [lo, hi), all of A (each src line read once)
    cdef int64_t nA = b.n[last - 1], sA = b.s[last - 1], dA = b.d[last - 1]
    cdef const elem_t* sp
    cdef elem_t* dp
    lo = c * b.tb
    hi = min(lo + b.tb, nB)
    if dB == 1 and sA == 1:     # both sides contiguous: a transpose in registers
        if elem_t is uint8_t:
            dnnl_py_transpose8(src + so + lo * sB, sB, dst + do + lo, dA, nA, hi - lo)
            return
        elif elem_t is uint16_t:
            dnnl_py_transpose16(src + so + lo * sB, sB, dst + do + lo, dA, nA, hi - lo)
            return
        elif elem_t is uint32_t:
            dnnl_py_transpose32(src + so + lo * sB, sB, dst + do + lo, dA, nA, hi - lo)
            return
    b0 = 0
    while b0 < nA:
        b1 = min(b0 + TILE, nA)
        for x in range(b0, b1):
            sp = src + so + x * sA
            dp = dst + do + x * dA
            if dB == 1:     # the usual case: contiguous writes
                for y in range(lo, hi):
                    dp[y] = sp[y * sB]
            else:
                for y in range(lo, hi):
                    dp[y * dB] = sp[y * sB]
        b0 = b1


cdef void _box_items(const elem_t* src, elem_t* dst, const Box* b, int64_t begin,
                     int64_t end) noexcept nogil:
    cdef int64_t i
    for i in range(begin, end):
        _box_item(src, dst, b, i)


cdef struct BoxJob:
    const void* src
    void* dst
    const Box* b
    int esize


cdef void _box_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    cdef const BoxJob* j = <const BoxJob*>ctx
    if j.esize == 1:
        _box_items(<const uint8_t*>j.src, <uint8_t*>j.dst, j.b, begin, end)
    elif j.esize == 2:
        _box_items(<const uint16_t*>j.src, <uint16_t*>j.dst, j.b, begin, end)
    elif j.esize == 4:
        _box_items(<const uint32_t*>j.src, <uint32_t*>j.dst, j.b, begin, end)
    else:
        _box_items(<const uint64_t*>j.src, <uint64_t*>j.dst, j.b, begin, end)


cdef void _box_run(const void* src, void* dst, const Box* b, int64_t nitems, int esize,
                   bint parallel) noexcept nogil:
    cdef BoxJob j
    j.src, j.dst, j.b, j.esize = src, dst, b, esize
    parallel_for(nitems, max_threads() if parallel else 1, _box_range, &j, NULL, 0)


cdef int64_t _box_of(int esize, axes, Box* b) except -1:
    """Fill ``b`` for copy_box's ``axes``; the number of work items."""
    ax = sorted([a for a in axes if a[0] > 1], key=lambda a: (-abs(a[2]), -abs(a[1])))
    merged = []
    for n, s, d in ax:       # nested runs that are linear on both sides: one axis
        top = len(merged) - 1
        if top >= 0 and merged[top][1] == s * n and merged[top][2] == d * n:
            merged[top] = (merged[top][0] * n, s, d)
        else:
            merged.append((n, s, d))
    if not merged:
        merged = [(1, 1, 1)]
    if len(merged) > MAXA:
        raise ValueError("a box of %d axes" % len(merged))
    b.nd = len(merged)
    b.tile = 0
    last = b.nd - 1
    if last >= 1 and merged[last][1] != 1:    # B gathers: tile with the finest src axis
        k = min(range(last), key=lambda i: abs(merged[i][1]))
        if abs(merged[k][1]) < abs(merged[last][1]):
            a_axis = merged.pop(k)           # A goes just inside the outer axes
            merged.insert(last - 1, a_axis)
            b.tile = 1
    cdef int i
    cdef int64_t outer = 1
    for i, (n, s, d) in enumerate(merged):
        b.n[i], b.s[i], b.d[i] = n, s, d
        if i < b.nd - 1 - b.tile:
            outer *= n
    b.tb = max(TILE, 64 // esize)
    b.nchunks = ((b.n[last] + b.tb - 1) // b.tb if b.tile
                 else (b.n[last] + RUN - 1) // RUN)
    return outer * b.nchunks


def copy_box(size_t src, size_t dst, int esize, axes, bint threads=True):
    """Copy ``esize``-byte elements over one box: ``axes`` is
    ``[(size, src step, dst step)]`` (elements, any order) from the addresses
    of the first element. Runs go by memcpy, transposes by tiles; large boxes
    use every thread (unless ``threads`` is False). The caller guarantees the
    box lies in both buffers."""
    cdef Box b
    cdef int64_t nitems = _box_of(esize, axes, &b)
    cdef bint parallel = threads and math.prod(n for n, _, _ in axes) >= RUN
    with nogil:
        _box_run(<const void*>src, <void*>dst, &b, nitems, esize, parallel)


# -- 4-bit elements: two per byte, the low nibble first (oneDNN's packing) -------------
cdef void _unpack(const uint8_t* s, int64_t first, int64_t n, uint8_t* d,
                  bint signed) noexcept nogil:
    # (two output bytes a 16-bit word, stored with memcpy: d + j need not be
    # 2-byte aligned, and a misaligned uint16_t store is undefined in C)
    cdef uint8_t* w
    cdef int64_t j = 0, i, m
    cdef uint16_t x, ext = 0x1E if signed else 0    # 8 * 0x1E == 0xF0
    if n <= 0:
        return
    if first & 1:
        x = s[first >> 1] >> 4
        d[0] = <uint8_t>(x | ((x & 8) * ext))
        j = 1
    s += (first + j) >> 1
    m = (n - j) >> 1
    w = d + j
    for i in range(m):
        x = s[i]
        x = (x & 15) | ((x & 0xF0) << 4)
        x = x | ((x & 0x0808) * ext)
        memcpy(w + 2 * i, &x, 2)
    if (n - j) & 1:
        x = s[m] & 15
        d[n - 1] = <uint8_t>(x | ((x & 8) * ext))


def unpack_nibbles(size_t src, int64_t first, int64_t n, size_t dst, bint signed):
    """``dst[j]`` = nibble ``first + j`` of the bytes at ``src``, one byte each,
    sign-extended when ``signed`` (s4); one pass, two nibbles per step."""
    with nogil:
        _unpack(<const uint8_t*>src, first, n, <uint8_t*>dst, signed)


cdef struct UnpackJob:
    uint8_t* tmp0
    int64_t longest
    const uint8_t* src
    uint8_t* dst
    const Box* bx
    const int64_t* fst
    const int64_t* cnt
    const int64_t* tof
    const int64_t* dof
    const int64_t* its
    bint signed


cdef void _unpack_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    """Chunks ``[begin, end)`` of unpack_boxes, in the byte buffer of ``slot``."""
    cdef const UnpackJob* j = <const UnpackJob*>ctx
    cdef uint8_t* tmp = j.tmp0 + slot * j.longest
    cdef int64_t k
    for k in range(begin, end):
        _unpack(j.src, j.fst[k], j.cnt[k], tmp, j.signed)
        _box_run(<const void*>(tmp + j.tof[k]), j.dst + j.dof[k], &j.bx[k], j.its[k], 1,
                 False)


def unpack_boxes(size_t src, chunks, size_t dst, bint signed):
    """Unpack and copy 4-bit chunks to bytes: each chunk ``(first, n, tmp
    offset, dst offset, axes)`` unpacks nibbles ``[first, first + n)`` into a
    byte buffer of its thread (small: it stays in cache), then copies the box
    ``axes`` (copy_box's form) from that buffer at ``tmp offset`` to ``dst``
    at ``dst offset`` (bytes). Chunks run in parallel. The caller guarantees
    every box lies in its chunk and in ``dst``."""
    cdef int64_t m = len(chunks), k, longest = 0
    if m == 0:
        return
    boxes = np.empty(m * sizeof(Box), np.uint8)
    nums = np.empty((5, m), np.int64)
    cdef Box* bx = <Box*>cnp.PyArray_DATA(boxes)
    cdef int64_t* fst = <int64_t*>cnp.PyArray_DATA(nums)     # rows: first, n,
    cdef int64_t* cnt = fst + m                               # tmp offset, dst
    cdef int64_t* tof = fst + 2 * m                           # offset, items
    cdef int64_t* dof = fst + 3 * m
    cdef int64_t* its = fst + 4 * m
    for k, (first, n, toff, doff, axes) in enumerate(chunks):
        fst[k], cnt[k], tof[k], dof[k] = first, n, toff, doff
        its[k] = _box_of(1, axes, &bx[k])
        longest = max(longest, n)
    cdef int nthr = min(max_threads(), m)
    bufs = np.empty(nthr * longest, np.uint8)      # one per thread
    cdef UnpackJob j
    j.tmp0 = <uint8_t*>cnp.PyArray_DATA(bufs)
    j.longest = longest
    j.src = <const uint8_t*>src
    j.dst = <uint8_t*>dst
    j.bx, j.fst, j.cnt, j.tof, j.dof, j.its = bx, fst, cnt, tof, dof, its
    j.signed = signed
    with nogil:
        parallel_for(m, nthr, _unpack_range, &j, NULL, 0)


def pack_nibbles(size_t src, int64_t n, size_t dst, int64_t first):
    """Nibbles ``first .. first + n - 1`` of the bytes at ``dst`` = the low
    four bits of ``src[0 .. n - 1]``; the other nibbles keep their values."""
    cdef const uint8_t* s = <const uint8_t*>src
    cdef uint8_t* d = <uint8_t*>dst
    cdef const uint8_t* w
    cdef uint16_t x
    cdef int64_t j = 0, i, m
    if n <= 0:
        return
    with nogil:
        if first & 1:
            d[first >> 1] = (d[first >> 1] & 15) | <uint8_t>(s[0] << 4)
            j = 1
        d += (first + j) >> 1
        m = (n - j) >> 1
        w = s + j           # two source bytes a word, loaded with memcpy (unaligned)
        for i in range(m):
            memcpy(&x, w + 2 * i, 2)
            d[i] = <uint8_t>((x & 15) | ((x >> 4) & 0xF0))
        if (n - j) & 1:
            d[m] = (d[m] & 0xF0) | (s[n - 1] & 15)


def data_address(cnp.ndarray a):
    """The address of ``a``'s first element: ``a.ctypes.data`` without making
    a ctypes object (a tenth of its cost, which small calls feel)."""
    return <size_t>cnp.PyArray_DATA(a)


cdef cnp.ndarray _bytes_over(void* data, cnp.npy_intp nbytes, bint writeable, object owner):
    """A 1-D uint8 array of ``nbytes`` at ``data``, keeping ``owner`` alive."""
    cdef cnp.ndarray view = cnp.PyArray_New(
        np.ndarray, 1, &nbytes, cnp.NPY_UINT8, NULL, data, 1,
        cnp.NPY_ARRAY_CARRAY if writeable else cnp.NPY_ARRAY_CARRAY_RO, None)
    cnp.set_array_base(view, owner)
    return view


def aligned_bytes(Py_ssize_t nbytes, Py_ssize_t alignment):
    """A new uint8 array of ``nbytes`` whose first byte sits on a multiple
    of ``alignment`` (a power of two), cut from a slightly larger one; numpy
    raises MemoryError or ValueError when it cannot allocate."""
    cdef cnp.npy_intp n = nbytes + alignment
    cdef cnp.ndarray raw = cnp.PyArray_EMPTY(1, &n, cnp.NPY_UINT8, 0)
    cdef Py_ssize_t shift = (-<Py_ssize_t>cnp.PyArray_DATA(raw)) & (alignment - 1)
    return _bytes_over(<char*>cnp.PyArray_DATA(raw) + shift, nbytes, True, raw)


def byte_view(cnp.ndarray a):
    """The bytes of the C-contiguous ``a`` as a 1-D uint8 array over its
    buffer (``a.ravel().view(np.uint8)`` in one step), read-only when ``a``
    is."""
    return _bytes_over(cnp.PyArray_DATA(a), cnp.PyArray_NBYTES(a),
                       cnp.PyArray_ISWRITEABLE(a), a)
