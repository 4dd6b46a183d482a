# The reorder kernel's work items (included by kernel.pyx, from
# kernel.pyx.in: one extension module): an item's offsets, the runs of
# several short rows at once, the sources in the other byte order, and the
# transposed 4-byte tiles.


cdef inline int64_t _outer(const Params* p, int k, int d, int64_t c) noexcept nogil:
    """Offset of position ``c`` of outer loop ``d`` in index space ``k``."""
    cdef const int64_t* t = p.tab[k * MAXD + d]
    return c * p.step[k * MAXD + d] if t == NULL else t[c]


cdef const uint8_t* _next_src(const Params* p, int64_t item) noexcept nogil:
    """Where the source of work item ``item + 1`` starts when it is a
    contiguous run the fused loops read (they prefetch it as item ``item``
    is converted: a strided view's runs are apart), else NULL."""
    cdef int64_t rest, c, off
    cdef int d
    if (not p.fused or not _fused_ok(p.src_dt, p.dst_dt) or not p.is_lin[K_SRC]
            or p.lin[K_SRC] != 1):
        return NULL
    item += 1
    rest = item // p.nchunks
    off = p.origin[K_SRC] + (item % p.nchunks) * CHUNK
    for d in range(p.nd - 2, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        off += _outer(p, K_SRC, d, c)
    if rest:        # past the last item
        return NULL
    return p.src + off * _esz(p.src_dt)


cdef void _item(const Params* p, int64_t item) noexcept nogil:
    """One work item: up to CHUNK innermost elements at one outer position."""
    cdef int64_t base[NK]
    cdef int64_t rest = item // p.nchunks
    cdef int64_t j0 = (item % p.nchunks) * CHUNK
    cdef int64_t n = p.sizes[p.nd - 1] - j0
    cdef int64_t c
    cdef int d, k
    if n > CHUNK:
        n = CHUNK
    for k in range(NK):
        base[k] = p.origin[k]
    for d in range(p.nd - 2, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        for k in range(NK):
            if p.used[k]:
                base[k] += _outer(p, k, d, c)
    # the runs go by address: a struct passed by value is copied with loads
    # wider than the stores that just wrote it, which then wait for the store
    # queue, behind the last run's streaming stores
    cdef Access s = _access(p, K_SRC, base[K_SRC], j0)
    cdef Access dd = _access(p, K_DST, base[K_DST], j0)
    if p.swap:
        _swapped(p, base, j0, n, &s, &dd, _next_src(p, item) if p.src_gaps else NULL)
    elif p.convert:
        _convert(p, p.src, base, j0, n, &s, &dd, _next_src(p, item) if p.src_gaps else NULL)
    else:
        _copy(p, p.src, &s, &dd, n)


cdef void _rows_item(const Params* p, int64_t item) noexcept nogil:
    """One work item of short runs: ``p.rows`` consecutive positions of loop
    nd-2 (linear in every index space), each a whole innermost run. A
    bit copy of dense runs goes by dnnl_py_copy_rows, a conversion whose
    values are the same on every run by the fused loops, found fit once;
    the rest run by run as _item runs them."""
    cdef int64_t base[NK]
    cdef int64_t row[NK]
    cdef int64_t r0 = (item % p.nrow_blocks) * p.rows
    cdef int64_t rest = item // p.nrow_blocks
    cdef int64_t r1 = r0 + p.rows, n = p.sizes[p.nd - 1], c, r, sst, dst_
    cdef int d, k
    cdef Access s, dd
    cdef float a, dv, z
    cdef int32_t zs
    if r1 > p.sizes[p.nd - 2]:
        r1 = p.sizes[p.nd - 2]
    for k in range(NK):
        base[k] = p.origin[k]
    for d in range(p.nd - 3, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        for k in range(NK):
            if p.used[k]:
                base[k] += _outer(p, k, d, c)
    if (not p.swap and not p.convert and p.esize and p.lin[K_SRC] == 1
            and p.lin[K_DST] == 1):
        dnnl_py_copy_rows(p.src + (base[K_SRC] + r0 * p.step[K_SRC * MAXD + p.nd - 2]) * p.esize,
                          p.step[K_SRC * MAXD + p.nd - 2] * p.esize,
                          p.dst + (base[K_DST] + r0 * p.step[K_DST * MAXD + p.nd - 2]) * p.esize,
                          p.step[K_DST * MAXD + p.nd - 2] * p.esize, r1 - r0, n * p.esize)
        return
    if p.convert and not p.swap and not p.src_gaps:
        _row_at(p, base, r0, row)
        s = _access(p, K_SRC, row[K_SRC], 0)
        dd = _access(p, K_DST, row[K_DST], 0)
        if n < FLAT_RUN and _rows_by_element(p, row, r1 - r0, n, &s, &dd):
            return
        if _rows_share_values(p) and _fused_values(p, row, 0, &s, &dd, &a, &dv, &z, &zs):
            sst = p.step[K_SRC * MAXD + p.nd - 2] * _esz(p.src_dt)
            dst_ = p.step[K_DST * MAXD + p.nd - 2] * _esz(p.dst_dt)
            for r in range(r1 - r0):
                _fused_run(p.src_dt, p.dst_dt, p.src + s.base * _esz(p.src_dt) + r * sst,
                           p.dst + dd.base * _esz(p.dst_dt) + r * dst_, n, a, dv, z,
                           p.stream, zs)
            if p.stream and p.fence_each:
                dnnl_py_sfence()
            return
        if n >= FLAT_RUN and _rows_by_element(p, row, r1 - r0, n, &s, &dd):
            return
    for r in range(r0, r1):
        _row_at(p, base, r, row)
        s = _access(p, K_SRC, row[K_SRC], 0)
        dd = _access(p, K_DST, row[K_DST], 0)
        if p.swap:
            _swapped(p, row, 0, n, &s, &dd, NULL)
        elif p.convert:
            _convert(p, p.src, row, 0, n, &s, &dd, NULL)
        else:
            _copy(p, p.src, &s, &dd, n)


cdef bint _rows_by_element(const Params* p, const int64_t* row, int64_t nrows, int64_t n,
                           const Access* s, const Access* d) noexcept nogil:
    """The runs of a _rows_item from f32, s8 or u8 (no source zero point),
    whose scales or zero point may vary along a run (per-channel values where
    the run is a channel block): each element's values gathered, then
    converted as _convert_buf computes it, ``a[j] * x / dv[j] + z[j]`` (an
    absent scale is 1, exact; the zero point 0, added always). When every run
    has the same values, they are gathered once and repeated, and up to
    ROWS_RUN elements of runs go as one flat run (gathered to a buffer and
    scattered back where the runs are apart), which the compiler vectorises
    whatever the run's length. False, nothing written, where that does not
    apply."""
    cdef float a[ROWS_RUN]
    cdef float dv[ROWS_RUN]
    cdef float z[ROWS_RUN]
    cdef float xf[ROWS_RUN]
    cdef uint8_t xb[ROWS_RUN * 4]
    cdef uint8_t ob[ROWS_RUN * 4]
    cdef int64_t at[NK]
    cdef int64_t j, r, k, sst, dst_, per
    cdef int sdt = p.src_dt, ddt = p.dst_dt, ssz = _esz(p.src_dt), esz = _esz(p.dst_dt)
    cdef bint share = _rows_share_values(p), dense_out
    cdef const uint8_t* x
    cdef uint8_t* o
    if (not (sdt == dnnl_f32 or sdt == dnnl_s8 or sdt == dnnl_u8)
            or p.beta != 0 or p.used[K_SZP] or n > ROWS_RUN or n < 1
            or s.table != NULL or d.table != NULL or d.step != 1
            or not (ddt == dnnl_s8 or ddt == dnnl_u8 or ddt == dnnl_f32 or ddt == dnnl_bf16)):
        return False
    per = ROWS_RUN // n if share else 1     # runs converted as one
    for j in range(n):
        a[j] = 1.0
        dv[j] = 1.0
        z[j] = -0.0     # no dst zero point: -0.0 is the addition's identity
    sst = p.step[K_SRC * MAXD + p.nd - 2] * ssz
    dst_ = p.step[K_DST * MAXD + p.nd - 2] * esz
    r = 0
    while r < nrows:
        if r == 0 or not share:
            _row_at(p, row, r, at)
            _gather(p, K_SSC, at[K_SSC], n, a)
            _gather(p, K_DSC, at[K_DSC], n, dv)
            if p.used[K_DZP]:
                _gather_i32(p, at[K_DZP], n, z)
            for j in range(n, per * n):
                a[j] = a[j - n]
                dv[j] = dv[j - n]
                z[j] = z[j - n]
        k = min(per, nrows - r)
        x = p.src + s.base * ssz + r * sst
        if s.step != 1:     # a transpose's runs (nchw -> nChw16c): gathered
            _gather_rows(x, sst, s.step * ssz, ssz, xb, k, n)
            x = xb
        elif k > 1 and sst != n * ssz:
            dnnl_py_copy_rows(x, sst, xb, n * ssz, k, n * ssz)
            x = xb
        if sdt == dnnl_s8:
            for j in range(k * n):
                xf[j] = <float>(<const int8_t*>x)[j]
            x = <const uint8_t*>xf
        elif sdt == dnnl_u8:
            for j in range(k * n):
                xf[j] = <float>x[j]
            x = <const uint8_t*>xf
        dense_out = k == 1 or dst_ == n * esz
        o = p.dst + d.base * esz + r * dst_ if dense_out else ob
        _convert_values(ddt, <const float*>x, a, dv, z, o, k * n)
        if not dense_out:
            dnnl_py_copy_rows(ob, n * esz, p.dst + d.base * esz + r * dst_, dst_, k, n * esz)
        r += k
    return True


cdef inline void _gather_rows(const uint8_t* x, int64_t rstep, int64_t estep, int esz,
                              uint8_t* out, int64_t k, int64_t n) noexcept nogil:
    """k runs of n elements of esz bytes (4 or 1), ``rstep`` bytes apart,
    whose elements are ``estep`` bytes apart, packed into ``out``."""
    cdef int64_t r, j
    if esz == 4:
        for r in range(k):
            for j in range(n):
                (<uint32_t*>out)[r * n + j] = (<const uint32_t*>(x + r * rstep + j * estep))[0]
    else:
        for r in range(k):
            for j in range(n):
                out[r * n + j] = x[r * rstep + j * estep]


cdef inline void _convert_values(int ddt, const float* x, const float* a, const float* dv,
                                 const float* z, uint8_t* o, int64_t n) noexcept nogil:
    """o[j] = cvt(a[j] * x[j] / dv[j] + z[j]) for j < n, to f32, bf16, s8 or u8."""
    cdef int64_t j
    if ddt == dnnl_s8:
        for j in range(n):
            (<int8_t*>o)[j] = f32_to_s8(a[j] * x[j] / dv[j] + z[j])
    elif ddt == dnnl_u8:
        for j in range(n):
            o[j] = f32_to_u8(a[j] * x[j] / dv[j] + z[j])
    elif ddt == dnnl_bf16:
        for j in range(n):
            (<uint16_t*>o)[j] = f32_to_bf16(a[j] * x[j] / dv[j] + z[j])
    else:
        for j in range(n):
            (<float*>o)[j] = a[j] * x[j] / dv[j] + z[j]


cdef inline void _row_at(const Params* p, const int64_t* start, int64_t r,
                         int64_t* at) noexcept nogil:
    """at[k] = the offset in index space k of position ``r`` of loop nd-2,
    counted from ``start``."""
    cdef int k
    for k in range(NK):
        at[k] = start[k] + r * p.step[k * MAXD + p.nd - 2]


cdef inline void _gather(const Params* p, int k, int64_t base, int64_t n,
                         float* v) noexcept nogil:
    """v[j] = the value of scale space ``k`` (K_SSC or K_DSC) at element j of
    the run at ``base``; v unchanged when the space is unused."""
    cdef Access q
    cdef const float* src = p.ssc if k == K_SSC else p.dsc
    cdef int64_t j
    if p.used[k]:
        q = _access(p, k, base, 0)
        for j in range(n):
            v[j] = src[_at(q, j)]


cdef inline void _gather_i32(const Params* p, int64_t base, int64_t n, float* v) noexcept nogil:
    """v[j] = the dst zero point of element j of the run at ``base``."""
    cdef Access q = _access(p, K_DZP, base, 0)
    cdef int64_t j
    for j in range(n):
        v[j] = <float>p.dzp[_at(q, j)]


cdef inline bint _rows_share_values(const Params* p) noexcept nogil:
    """Whether the scales and zero points are the same on every run of a
    _rows_item (loop nd-2 steps 0 in their index spaces)."""
    cdef int k
    for k in range(K_SSC, NK):
        if p.used[k] and p.step[k * MAXD + p.nd - 2] != 0:
            return False
    return True


cdef void _swapped(const Params* p, const int64_t* base, int64_t j0, int64_t n,
                   const Access* s, const Access* d, const uint8_t* next) noexcept nogil:
    """A run whose source is in the other byte order: SWAP_BLOCK elements at
    a time swapped into a buffer in L1, then run from there as a contiguous
    source (so the fused loops take a strided run too). Short blocks keep
    the memory busy: the swap's prefetches run ahead while the block
    before is converted."""
    cdef uint32_t buf[SWAP_BLOCK]
    cdef int64_t i, m
    cdef Access b, di
    if (p.convert and s.table == NULL and s.step == 1 and _vector_pair(p.src_dt, p.dst_dt)
            and _fused(p, p.src, base, j0, n, s, d, 1, next)):
        return      # quant_kernels.h's loops swap as they load: no pass through a buffer
    b.base = 0
    b.step = 1
    b.table = NULL
    for i in range(0, n, SWAP_BLOCK):
        m = n - i if n - i < SWAP_BLOCK else SWAP_BLOCK
        if s.table == NULL:
            dnnl_py_swap_run(p.src + (s.base + i * s.step) * p.swap, s.step, buf, m, p.swap)
        else:
            dnnl_py_swap_table(p.src, s.base, s.table + i, buf, m, p.swap)
        di = _shift(d[0], i)
        if p.convert:
            _convert(p, <const uint8_t*>buf, base, j0 + i, m, &b, &di, NULL)
        else:
            _copy(p, <const uint8_t*>buf, &b, &di, m)


cdef inline int64_t _tile_a(int64_t ss, int64_t ds) noexcept nogil:
    """A tile's extent along the source's contiguous dim. TILE, unless the
    source's rows alias in the caches (dnnl_py_rows_alias:
    dnnl_py_transpose32 then reads four rows at a time, whole): then 4 KiB
    of each row, so that each is a stream the hardware prefetches from DRAM
    rather than a 256-byte piece (the destination's tile, 16 * TILE lines,
    stays in L2)."""
    return TILE * 16 if dnnl_py_rows_alias(ss, ds) else TILE


cdef void _tile_item(const Params* p, int64_t item) noexcept nogil:
    """One tile_a x TILE block of a transpose: src contiguous along dim nd-2,
    dst contiguous along dim nd-1."""
    cdef int64_t tb = item % p.ntiles_b
    cdef int64_t rest = item // p.ntiles_b
    cdef int64_t ta = rest % p.ntiles_a
    cdef int64_t sbase = p.origin[K_SRC], dbase = p.origin[K_DST], c, na, nb
    cdef int d
    rest = rest // p.ntiles_a
    for d in range(p.nd - 3, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        sbase += _outer(p, K_SRC, d, c)
        dbase += _outer(p, K_DST, d, c)
    na = p.sizes[p.nd - 2] - ta * p.tile_a
    nb = p.sizes[p.nd - 1] - tb * TILE
    if na > p.tile_a:
        na = p.tile_a
    if nb > TILE:
        nb = TILE
    sbase += ta * p.tile_a + tb * TILE * p.src_b_step
    dbase += ta * p.tile_a * p.dst_a_step + tb * TILE
    dnnl_py_transpose32(<const uint32_t*>p.src + sbase, p.src_b_step,
                        <uint32_t*>p.dst + dbase, p.dst_a_step, na, nb)
    if p.swap:      # the tile was moved as bits: swap it where it landed (in L1)
        dnnl_py_swap_rows32(<uint32_t*>p.dst + dbase, p.dst_a_step, na, nb)
