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

The fused rows (:func:`rows`) do a 2-D resize's H and W passes (or a 1-D
resize's W pass) one output row at a time, in the source's and the
destination's own data types: output row ``y`` of a plane is the H step
(the taps of table H over whole source rows, each element converted to f32
as it is read) into a row buffer, then the W step (``resize_rows.h``) and
the conversion to the destination's type. Per element these are the axis
passes' operations in their order, so the bits are the same; what is saved
is the f32 copies of the source, of the intermediate and of the result.

Inputs are validated by the caller (plan.py); nothing here checks.
"""
cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from dnnl._core.dnnl_types cimport dnnl_f32, dnnl_s8, dnnl_u8
from dnnl._kernels.cvt cimport decode_run, encode_run
from dnnl._platform.threads cimport max_threads, parallel_for

cdef extern from "resize_rows.h":
    int RZ_BLOCK
    void rz_wstep_elems(float* o, const float* r, const int32_t* idx, const float* w,
                        const float* bias, const int32_t* win, const int32_t* tap,
                        const int32_t* rel, int64_t n, int64_t k, int64_t step) noexcept nogil
    void rz_wstep_pick(float* o, const float* r, const int32_t* idx, int64_t n) noexcept nogil
    void rz_wstep_pixels(float* o, const float* r, const int64_t* first, const float* w,
                         const float* bias, int64_t n_out, int64_t k,
                         int64_t C) noexcept nogil
    int64_t rz_hstep_u8(float* h, const uint8_t* row0, int64_t stride, const float* w,
                        int64_t k, const float* bias, int64_t n) noexcept nogil
    int64_t rz_hstep_f32(float* h, const float* row0, int64_t stride, const float* w,
                         int64_t k, const float* bias, int64_t n) noexcept nogil
    int64_t rz_hstep_rows(float* h, const float* const* rows, const float* w, int64_t k,
                          const float* bias, int64_t n) noexcept nogil
    void rz_wstep_pixels_pick(float* o, const float* r, const int64_t* first, int64_t n_out,
                              int64_t C) noexcept nogil

cdef extern from "u8_stores.h":
    int64_t dnnl_py_store_run_u8(uint8_t* d, const float* v, int64_t n) noexcept nogil

cdef extern from "u8_halving.h":
    void dnnl_py_half_u8(uint8_t* d, const uint8_t* a, const uint8_t* b, int64_t n,
                         int64_t C) noexcept nogil

cnp.import_array()

#: below this many multiply-adds a pass runs on the calling thread
PARALLEL_MIN = 1 << 15
#: the most floats of decoded rows a thread keeps (Rows.ring)
DEF RING_FLOATS = 1 << 18


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


# ------------------------------------------------------------ fused rows
#: the W step's forms (plan.py picks one)
DEF W_ELEMS = 0     # a table entry per output element (few channels)
DEF W_PICK = 1      # likewise, one tap of weight 1 (nearest): a copy
DEF W_PIXELS = 2    # a table entry per output pixel, vectors across its channels
DEF W_PIXELS_PICK = 3   # likewise, one tap of weight 1: a copy of C channels


cdef struct Rows:
    const uint8_t* src
    uint8_t* dst
    int sdt
    int ddt
    int64_t ssize           # bytes per source / destination element
    int64_t dsize
    int64_t in_h
    int64_t out_h
    int64_t src_row         # elements per source / destination row (pixels x C)
    int64_t dst_row
    int64_t C               # channels interleaved in a row (1: planar)
    # u8 to u8, both tables taking inputs 2o and 2o + 1 at 1/2 each (the
    # plan's AxisTable.halves): each output row is the integer sums of two
    # source rows, their f32 steps' bits (u8_halving.h)
    bint halves
    # the H table (hk = 0: no H step, output row y is source row y;
    # hpick: one tap of weight 1, output row y is source row hfirst[y])
    const int64_t* hfirst
    const float* hw
    const float* hbias
    int64_t hk
    bint hpick
    # the W table: W_PIXELS reads wfirst / ww / wbias (per pixel), the
    # others widx / ww / wbias (per element, ww transposed: k x dst_row)
    int wform
    const int64_t* wfirst
    const int32_t* widx
    const int32_t* wwin
    const int32_t* wtap
    const int32_t* wrel
    const float* ww
    const float* wbias
    int64_t wk
    int64_t wn              # output pixels
    # ring: each source row decoded to f32 once, into a ring of hk rows
    # (the types but f32, when outputs outnumber inputs: each row is read
    # by several output rows)
    bint ring
    # per slot: the H step's row (src_row), a decoded tap (src_row), the W
    # step's row (dst_row), the ring's hk rows, their source rows and their
    # addresses, each on its own 64-byte lines
    float* scratch
    int64_t slot_floats
    int64_t lane


cdef inline void _tap(float* h, const uint8_t* row, int dt, int64_t n, float w, bint first,
                      float* dec) noexcept nogil:
    """``h = w * row`` (``first``) or ``h += w * row``, the row's ``n``
    elements widened to f32: the H step's tap for the types rz_hstep_* do
    not read (s8 read directly, the others decoded into ``dec`` first)."""
    cdef int64_t i
    cdef const float* f
    cdef const int8_t* s
    if dt == dnnl_s8:
        s = <const int8_t*>row
        if first:
            for i in range(n):
                h[i] = w * <float>s[i]
        else:
            for i in range(n):
                h[i] = h[i] + w * <float>s[i]
        return
    decode_run(row, 0, n, dt, dec)
    f = dec
    if first:
        for i in range(n):
            h[i] = w * f[i]
    else:
        for i in range(n):
            h[i] = h[i] + w * f[i]


cdef inline float _elem(const uint8_t* row, int dt, int64_t i) noexcept nogil:
    """Element ``i`` of an f32 or u8 buffer, as f32."""
    return (<const float*>row)[i] if dt == dnnl_f32 else <float>row[i]


cdef void _rows_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    cdef const Rows* p = <const Rows*>ctx
    cdef int64_t item, plane, y, t, i, n = p.src_row
    cdef float* h = p.scratch + slot * p.slot_floats
    cdef float* dec = h + ((n + 15) & ~15)
    cdef float* o = dec + ((n + 15) & ~15)
    cdef float* ring = o + ((p.dst_row + 15) & ~15)
    cdef int64_t* tags = <int64_t*>(ring + p.hk * p.lane)
    cdef const float** ptrs = <const float**>(tags + ((p.hk + 7) & ~7))
    cdef int64_t srow, g, s
    cdef float* d
    cdef const float* r
    cdef const uint8_t* first_row
    cdef const float* hwy
    cdef const float* hb
    cdef float acc
    if p.ring:
        for t in range(p.hk):
            tags[t] = -1
    for item in range(begin, end):
        plane = item // p.out_h
        y = item - plane * p.out_h
        if p.halves:
            first_row = p.src + (plane * p.in_h + 2 * y) * n
            dnnl_py_half_u8(p.dst + item * p.dst_row, first_row, first_row + n, p.dst_row, p.C)
            continue
        # the H step: r is the f32 row the W step reads
        if p.hk == 0 or p.hpick:
            first_row = p.src + (plane * p.in_h + (p.hfirst[y] if p.hpick else y)) \
                * n * p.ssize
            if p.sdt == dnnl_f32:
                r = <const float*>first_row
            else:
                decode_run(first_row, 0, n, p.sdt, h)
                r = h
        else:
            first_row = p.src + (plane * p.in_h + p.hfirst[y]) * n * p.ssize
            hwy = p.hw + y * p.hk
            hb = (p.hbias + y) if p.hbias != NULL else NULL
            if p.ring:
                # the rows decoded once into the ring, the taps summed in
                # registers; the rest here, in their order
                for t in range(p.hk):
                    srow = p.hfirst[y] + t
                    s = srow % p.hk
                    g = plane * p.in_h + srow
                    if tags[s] != g:
                        decode_run(p.src + g * n * p.ssize, 0, n, p.sdt, ring + s * p.lane)
                        tags[s] = g
                    ptrs[t] = ring + s * p.lane
                i = rz_hstep_rows(h, ptrs, hwy, p.hk, hb, n)
                for i in range(i, n):
                    acc = hwy[0] * ptrs[0][i]
                    for t in range(1, p.hk):
                        acc = acc + hwy[t] * ptrs[t][i]
                    if hb != NULL:
                        acc = acc + hb[0]
                    h[i] = acc
            elif p.sdt == dnnl_f32 or p.sdt == dnnl_u8:
                # the taps summed in registers; the rest here, in their order
                if p.sdt == dnnl_f32:
                    i = rz_hstep_f32(h, <const float*>first_row, n, hwy, p.hk, hb, n)
                else:
                    i = rz_hstep_u8(h, first_row, n, hwy, p.hk, hb, n)
                for i in range(i, n):
                    acc = hwy[0] * _elem(first_row, p.sdt, i)
                    for t in range(1, p.hk):
                        acc = acc + hwy[t] * _elem(first_row, p.sdt, t * n + i)
                    if hb != NULL:
                        acc = acc + hb[0]
                    h[i] = acc
            else:
                for t in range(p.hk):
                    _tap(h, first_row + t * n * p.ssize, p.sdt, n, hwy[t], t == 0, dec)
                if hb != NULL:
                    for i in range(n):
                        h[i] = h[i] + hb[0]
            r = h
        # the W step, into the destination row itself when it is f32
        d = <float*>(p.dst + item * p.dst_row * p.dsize) if p.ddt == dnnl_f32 else o
        if p.wform == W_PIXELS:
            rz_wstep_pixels(d, r, p.wfirst, p.ww, p.wbias, p.wn, p.wk, p.C)
        elif p.wform == W_PIXELS_PICK:
            rz_wstep_pixels_pick(d, r, p.wfirst, p.wn, p.C)
        elif p.wform == W_PICK:
            rz_wstep_pick(d, r, p.widx, p.dst_row)
        else:
            rz_wstep_elems(d, r, p.widx, p.ww, p.wbias, p.wwin, p.wtap, p.wrel,
                           p.dst_row, p.wk, p.C)
        if p.ddt == dnnl_u8:
            i = dnnl_py_store_run_u8(p.dst + item * p.dst_row, o, p.dst_row)
            encode_run(p.dst + item * p.dst_row, i, p.dst_row - i, p.ddt, o + i)
        elif p.ddt != dnnl_f32:
            encode_run(p.dst + item * p.dst_row * p.dsize, 0, p.dst_row, p.ddt, o)


def rows(cnp.ndarray src, int sdt, cnp.ndarray dst, int ddt, bint halves, int64_t planes,
         int64_t in_h, int64_t out_h, int64_t in_w, int64_t out_w, int64_t C,
         hfirst, hw, hbias, bint hpick, int wform, wfirst, widx, wwin, wtap,
         wrel, cnp.ndarray ww, wbias):
    """The fused rows of ``src`` (C-contiguous, ``planes x in_h x in_w x C``
    elements of data type ``sdt``) into ``dst`` (``planes x out_h x out_w x
    C`` of ``ddt``): by integer sums where ``halves`` (u8 to u8, both
    tables AxisTable.halves, C <= 4), else the H table ``hfirst`` (int64) /
    ``hw`` (f32, out_h x hk) / ``hbias`` (f32 or None), or ``hfirst=None``
    for no H step (then
    ``out_h == in_h``); the W table in the form ``wform``: ``W_PIXELS``
    reads ``wfirst`` (int64) / ``ww`` (out_w x k) / ``wbias`` (out_w or
    None), the others ``widx`` (int32, out_w * C) / ``ww`` (k x out_w * C) /
    ``wbias`` (out_w * C or None), and for W_ELEMS the windows ``wwin``,
    ``wtap`` and ``wrel`` (int32, AxisTable.elements)."""
    cdef Rows p
    cdef int64_t items = planes * out_h, work, traffic, lane
    cdef int nthr
    cdef cnp.ndarray a
    p.src = <const uint8_t*>cnp.PyArray_DATA(src)
    p.dst = <uint8_t*>cnp.PyArray_DATA(dst)
    p.sdt, p.ddt = sdt, ddt
    p.ssize, p.dsize = src.itemsize, dst.itemsize
    p.in_h, p.out_h = in_h, out_h
    p.halves = halves
    p.src_row, p.dst_row, p.C = in_w * C, out_w * C, C
    p.hk = 0
    p.hpick = hpick
    p.hfirst = NULL
    p.hw = NULL
    p.hbias = NULL
    if hfirst is not None:
        a = hw
        p.hk = a.shape[1]
        p.hw = <const float*>cnp.PyArray_DATA(a)
        a = hfirst
        p.hfirst = <const int64_t*>cnp.PyArray_DATA(a)
        if hbias is not None:
            a = hbias
            p.hbias = <const float*>cnp.PyArray_DATA(a)
    p.wform = wform
    p.ww = <const float*>cnp.PyArray_DATA(ww)
    p.wfirst = NULL
    p.widx = NULL
    p.wwin = NULL
    p.wtap = NULL
    p.wrel = NULL
    if wform == W_PIXELS or wform == W_PIXELS_PICK:
        a = wfirst
        p.wfirst = <const int64_t*>cnp.PyArray_DATA(a)
        p.wk = ww.shape[1]
    else:
        a = widx
        p.widx = <const int32_t*>cnp.PyArray_DATA(a)
        p.wk = ww.shape[0]
        if wform == W_ELEMS:
            a = wwin
            p.wwin = <const int32_t*>cnp.PyArray_DATA(a)
            a = wtap
            p.wtap = <const int32_t*>cnp.PyArray_DATA(a)
            a = wrel
            p.wrel = <const int32_t*>cnp.PyArray_DATA(a)
    p.wbias = NULL
    if wbias is not None:
        a = wbias
        p.wbias = <const float*>cnp.PyArray_DATA(a)
    p.wn = out_w
    work = items * (p.src_row * (p.hk if p.hk else 1) + p.dst_row * p.wk)
    nthr = 1 if work < PARALLEL_MIN else max_threads()
    if nthr > items:
        nthr = <int>items if items > 0 else 1
    lane = (p.src_row + 15) & ~15
    p.lane = lane
    # the ring where it pays and its rows stay in the caches (1 MB a thread)
    p.ring = sdt != dnnl_f32 and p.hk > 1 and not p.hpick and out_h > in_h \
        and p.hk * lane <= RING_FLOATS
    p.slot_floats = 2 * lane + ((p.dst_row + 15) & ~15)
    if p.ring:
        p.slot_floats += p.hk * lane + 2 * (((p.hk + 7) & ~7) + ((p.hk + 7) & ~7))
    # each slot's buffers start on a 64-byte line
    cdef void* block = malloc(<size_t>(nthr * p.slot_floats + 16) * sizeof(float))
    if block == NULL:
        raise MemoryError("resize: no memory for %d row buffers of %d floats"
                          % (nthr, p.slot_floats))
    p.scratch = <float*>((<size_t>block + 63) & ~(<size_t>63))
    traffic = cnp.PyArray_NBYTES(src) + cnp.PyArray_NBYTES(dst)
    with nogil:
        parallel_for(items, nthr, _rows_range, &p, NULL, traffic)
    free(block)


def block():
    """The elements of a W_ELEMS window block (resize_rows.h's RZ_BLOCK)."""
    return RZ_BLOCK
