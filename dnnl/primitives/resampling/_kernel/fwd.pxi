# The resampling kernel's forward items (included by kernel.pyx: one
# extension module). Channel runs (``inner = 0``: nhwc, the channel-blocked
# layouts) and width rows (``inner = 1``: nchw-like), each item one output
# row, or one group of output rows that read the same source rows.


# ------------------------------------------------------ forward, channel runs
cdef inline float* _stage(const Fwd* p, float* scratch) noexcept nogil:
    """The staging row of a thread's scratch (after its 10 L rows), aligned."""
    return <float*>((<uintptr_t>(scratch + 10 * p.L) + 63) & ~(<uintptr_t>63))


cdef bint _fwd_c_plain(const Fwd* p, int64_t n, int64_t od, int64_t oh,
                       float* stage) noexcept nogil:
    """f32 to f32, one unit-stride channel run on both sides, no post-ops: one
    output row with the loops inline (the restrict-qualified C row kernels
    inline here and vectorise over channels). The linear kernels return
    what tells whether they stored an inf/NaN, reported in ``nonfinite``.
    Nearest with ``stage``: the (dense) row is built there, not stored.
    Linear with a plan's ``stage`` and a misaligned row: built in ``stage``,
    then streamed."""
    cdef int64_t ow, C, sbase, dbase, h0, h1, w0, w1
    cdef const float* src = <const float*>p.src
    cdef float* dst = <float*>p.dst
    cdef float* o
    cdef float* orow
    cdef uintptr_t pf0, pf1, dpf = 0
    cdef uint32_t bad = 0
    cdef bint staged = False
    cdef int64_t done = 0
    if (p.nruns != 1 or not p.run_sunit[0] or not p.run_dunit[0] or p.sdt != dnnl_f32
            or p.ddt != dnnl_f32 or p.po.n or p.k > 2):
        return False
    C = p.run_len[0]
    sbase = p.sN[n] + p.sC[p.run_c0[0]]
    dbase = p.dN[n] + p.dC[p.run_c0[0]] + p.dS[0][od] + p.dS[1][oh]
    if not p.linear:
        sbase += p.s0[0][od] + p.s0[1][oh]
        orow = stage if stage != NULL else dst + dbase
        for ow in range(p.OW):
            rs_copy_px(orow + p.dS[2][ow], src + sbase + p.s0[2][ow], C)
    elif p.k == 1:
        for ow in range(p.OW):
            bad |= rs_lerp_px(dst + dbase + p.dS[2][ow], src + sbase + p.s0[2][ow],
                              src + sbase + p.s1[2][ow], p.wl[2][ow], p.wr[2][ow], C)
    else:
        h0 = sbase + p.s0[1][oh]
        h1 = sbase + p.s1[1][oh]
        pf0 = <uintptr_t>(src + h0 + p.s0[2][0]) + AHEAD
        pf1 = <uintptr_t>(src + h1 + p.s0[2][0]) + AHEAD
        # a dense row whose pixels cannot be streamed one by one: staged
        staged = p.stream and p.stage > 0 and not rs_nt_ok(dst + dbase, C)
        orow = stage if staged else dst + dbase
        if p.dpage_ahead:
            dpf = (<uintptr_t>(dst + dbase) + <uintptr_t>p.dpage_ahead) & ~(<uintptr_t>4095)
        for ow in range(p.OW):
            o = orow + p.dS[2][ow]
            w0 = p.s0[2][ow]
            w1 = p.s1[2][ow]
            if p.dpage_ahead:
                dpf = rs_touch_pages(dpf, <uintptr_t>(dst + dbase + p.dS[2][ow] + C)
                                     + <uintptr_t>p.dpage_ahead)
            if p.stream:
                # only ahead of streamed stores: on rows that stay in the
                # caches the hardware prefetchers do better alone
                pf0 = rs_prefetch_to(pf0, <uintptr_t>(src + h0 + w1 + C) + AHEAD)
                pf1 = rs_prefetch_to(pf1, <uintptr_t>(src + h1 + w1 + C) + AHEAD)
            if p.stream and not staged and rs_nt_ok(o, C):
                bad |= rs_bilerp_px_nt(o, src + h0 + w0, src + h0 + w1, src + h1 + w0,
                                       src + h1 + w1, p.wl[1][oh], p.wr[1][oh],
                                       p.wl[2][ow], p.wr[2][ow], C)
            else:
                bad |= rs_bilerp_px(o, src + h0 + w0, src + h0 + w1, src + h1 + w0,
                                    src + h1 + w1, p.wl[1][oh], p.wr[1][oh],
                                    p.wl[2][ow], p.wr[2][ow], C)
                if staged and (ow % 8 == 7 or ow == p.OW - 1):
                    # what is staged so far, while the next pixels compute
                    done = rs_stream_upto(dst + dbase, stage, done,
                                          p.stage if ow == p.OW - 1 else (ow + 1) * C,
                                          p.stage)
        if p.stream:
            rs_sfence()
    if p.nonfinite != NULL and bad & 0x80000000u:
        rs_flag(p.nonfinite)
    return True


cdef void _fwd_c_group(const Fwd* p, int64_t item, float* scratch) noexcept nogil:
    """Nearest: the rows of a group read the same source row, so they are equal:
    build the first one, copy it to the others (dense destination rows); when
    streamed, build it in the staging row and stream it to every row."""
    cdef int64_t rest = item
    cdef int64_t g = axis_index(&rest, p.ngroups)
    cdef int64_t od = axis_index(&rest, p.OD)
    cdef int64_t n = rest
    cdef int64_t oh, oh0 = p.grp[g], rest0 = oh0 + 1
    cdef uint8_t* first = p.dst + (p.dN[n] + p.dS[0][od] + p.dS[1][oh0]) * 4
    cdef const float* a = NULL
    cdef float* stage
    cdef float* second
    cdef uintptr_t pf = 0, pfend = 0
    if p.cdup2:
        a = ((<const float*>p.src) + p.sN[n] + p.sC[0] + p.s0[0][od] + p.s0[1][oh0]
             + p.s0[2][0])
    if p.stream:
        if g + 1 < p.ngroups:
            # the next group's source row (the next item's, on this thread)
            pf = <uintptr_t>((<const float*>p.src) + p.sN[n] + p.sC[0] + p.s0[0][od]
                             + p.s0[1][p.grp[g + 1]])
            pfend = pf + <uintptr_t>p.srow_bytes
        if p.cdup2 and p.grp[g + 1] == oh0 + 2:
            second = <float*>(p.dst + (p.dN[n] + p.dS[0][od] + p.dS[1][oh0 + 1]) * 4)
            if rs_nt_ok(<float*>first, p.C) and rs_nt_ok(second, p.C):
                # x2 both ways into aligned rows: streamed from the source
                # pixels, with no staging row to write and read again
                rs_dupc_nt(<float*>first, second, a, p.cdup2, p.C, p.OW // 2, pf, pfend)
                rs_sfence()
                return
        stage = _stage(p, scratch)
        if p.cdup2:
            rs_dupc(stage, NULL, a, p.cdup2, p.C, p.OW // 2)
        else:
            _fwd_c_plain(p, n, od, oh0, stage)
        for oh in range(oh0, p.grp[g + 1]):
            pf = rs_stream_copy(<float*>(p.dst + (p.dN[n] + p.dS[0][od] + p.dS[1][oh]) * 4),
                                stage, p.stage, pf, pfend)
        rs_sfence()
        return
    if p.cdup2:
        # each source pixel stored to the two columns of the first two rows
        rest0 = min(oh0 + 2, p.grp[g + 1])
        rs_dupc(<float*>first,
                <float*>(p.dst + (p.dN[n] + p.dS[0][od] + p.dS[1][oh0 + 1]) * 4)
                if rest0 == oh0 + 2 else NULL, a, p.cdup2, p.C, p.OW // 2)
    else:
        _fwd_c_plain(p, n, od, oh0, NULL)
    for oh in range(rest0, p.grp[g + 1]):
        memcpy(p.dst + (p.dN[n] + p.dS[0][od] + p.dS[1][oh]) * 4, first,
               <size_t>p.row_bytes)


cdef void _fwd_c_item(const Fwd* p, int64_t item, float* scratch) noexcept nogil:
    if p.ngroups:
        _fwd_c_group(p, item, scratch)
        return
    cdef int64_t rest = item
    cdef int64_t oh = axis_index(&rest, p.OH)
    cdef int64_t od = axis_index(&rest, p.OD)
    cdef int64_t n = rest
    cdef int ntaps = (1 << p.k) if p.linear else 1
    cdef float* out = scratch
    cdef float* old = scratch + p.L
    cdef float* bufs = scratch + 2 * p.L
    cdef const float* rows[8]
    cdef int64_t sp[8]
    cdef int64_t b1[MAX_POST_OPS]
    cdef int64_t ow, r, c0, L, sbase, dbase
    cdef int t, kd, kh, kw, e
    cdef bint direct
    cdef float* dptr
    cdef const float* sf = <const float*>p.src
    if _fwd_pix_row(p, n, od, oh, scratch):
        return
    if _fwd_c_plain(p, n, od, oh, _stage(p, scratch) if p.stage and p.linear else NULL):
        return
    for ow in range(p.OW):
        for t in range(ntaps):
            if p.linear:
                kd = (t >> 2) & 1 if p.k == 3 else 0
                kh = (t >> 1) & 1 if p.k >= 2 else 0
                kw = t & 1
                sp[t] = ((p.s1[0] if kd else p.s0[0])[od] + (p.s1[1] if kh else p.s0[1])[oh]
                         + (p.s1[2] if kw else p.s0[2])[ow])
            else:
                sp[t] = p.s0[0][od] + p.s0[1][oh] + p.s0[2][ow]
        dbase = p.dN[n] + p.dS[0][od] + p.dS[1][oh] + p.dS[2][ow]
        for e in range(p.po.n):
            if p.po.kind[e] == dnnl_binary:
                b1[e] = (p.po.tab[e * 5][n] + p.po.tab[e * 5 + 2][od]
                         + p.po.tab[e * 5 + 3][oh] + p.po.tab[e * 5 + 4][ow])
        for r in range(p.nruns):
            c0 = p.run_c0[r]
            L = p.run_len[r]
            sbase = p.sN[n]
            for t in range(ntaps):
                if p.run_sunit[r] and p.sdt == dnnl_f32:
                    rows[t] = sf + sbase + sp[t] + p.sC[c0]
                else:
                    load_row(p.src, sbase + sp[t], p.sC + c0, p.run_sunit[r], L, p.sdt,
                              bufs + t * p.L)
                    rows[t] = bufs + t * p.L
            direct = p.run_dunit[r] and p.ddt == dnnl_f32 and p.po.n == 0
            dptr = (<float*>p.dst) + dbase + p.dC[c0] if direct else out
            if not p.linear:
                memcpy(dptr, rows[0], <size_t>L * 4)
            elif p.k == 1:
                rs_lerp1(dptr, rows[0], rows[1], p.wl[2][ow], p.wr[2][ow], L)
            elif p.k == 2:
                rs_lerp2(dptr, rows[0], rows[1], rows[2], rows[3], p.wl[1][oh],
                         p.wr[1][oh], p.wl[2][ow], p.wr[2][ow], L)
            else:
                rs_lerp3(dptr, rows, p.wl[0][od], p.wr[0][od], p.wl[1][oh], p.wr[1][oh],
                         p.wl[2][ow], p.wr[2][ow], L)
            if direct:
                continue
            if p.po.n:
                if p.po.has_sum:
                    load_row(p.dst, dbase, p.dC + c0, p.run_dunit[r], L, p.ddt, old)
                apply_post_ops(&p.po, out, old, L, b1, 1, c0)
            store_row(p.dst, dbase, p.dC + c0, p.run_dunit[r], L, p.ddt, out)


# -------------------------------------------------------- forward, width rows
cdef inline int64_t _row_len(const Fwd* p, bint f32src) noexcept nogil:
    """Elements of a source row as the W tap indices address it: the physical
    row of an f32 source (indices are offsets), or the decoded row."""
    return p.IWspan if f32src else p.IW


cdef void _fwd_w_item(const Fwd* p, int64_t item, float* scratch) noexcept nogil:
    cdef int64_t rest = item
    cdef int64_t oh = axis_index(&rest, p.ngroups if p.ngroups else p.OH)
    cdef int64_t od = axis_index(&rest, p.OD)
    cdef int64_t c = axis_index(&rest, p.C)
    cdef int64_t n = rest
    cdef int64_t oh0, row
    if not p.ngroups:
        _fwd_w_row(p, n, c, od, oh, scratch)
        return
    # Nearest: the rows of group ``oh`` read one source row: build the first,
    # copy it to the others (each a dense run of OW elements).
    oh0 = p.grp[oh]
    _fwd_w_row(p, n, c, od, oh0, scratch)
    row = p.dN[n] + p.dC[c] + p.dS[0][od] + p.dS[2][0]
    for oh in range(oh0 + 1, p.grp[oh + 1]):
        memcpy(p.dst + (row + p.dS[1][oh]) * 4, p.dst + (row + p.dS[1][oh0]) * 4,
               <size_t>p.row_bytes)


cdef inline void _lerp_w(const Fwd* p, float* o, const float* v, const int64_t* i0,
                         const int64_t* i1, const float* ww, const float* mw,
                         int64_t OW) noexcept nogil:
    """o[ow] = v[i0[ow]] * ww[ow] + v[i1[ow]] * mw[ow]: the regular x2
    columns without gathers, the others (the edges) gathered."""
    cdef int64_t a = 2 * p.x2lo, b = 2 * p.x2hi
    if p.h2a >= 0:
        rs_lerp2s(o, v + p.h2a, v + p.h2b, ww, mw, OW)
        return
    if b <= a:
        rs_gather1(o, v, i0, i1, ww, mw, OW)
        return
    rs_gather1(o, v, i0, i1, ww, mw, a)
    rs_x2w(o, v, p.x2w, OW // 2, p.x2lo, p.x2hi)
    rs_gather1(o + b, v, i0 + b, i1 + b, ww + b, mw + b, OW - b)


cdef void _fwd_w_taps(const Fwd* p, float* o, const float** rows, const int64_t* i0,
                      const int64_t* i1, const float* ww, const float* mw, int64_t OW,
                      int64_t od, int64_t oh, bint f32src, float* bufs) noexcept nogil:
    """Outputs o[0 .. OW) of one row from the source rows (index kd*2 + kh)
    and the W taps i0 / i1 with weights ww / mw."""
    cdef int64_t ow
    cdef float wd, md, wh, mh, x0, x1, a, b
    cdef const float* r0 = rows[0]
    cdef const float* r1
    cdef const float* r2
    cdef const float* r3
    if not p.linear and p.wdup2:
        rs_dup2(o, r0, OW // 2)
    elif not p.linear and p.h2a >= 0:
        rs_take2(o, r0 + p.h2a, OW)
    elif not p.linear:
        rs_gather0(o, r0, i0, OW)
    elif p.k == 1:
        _lerp_w(p, o, r0, i0, i1, ww, mw, OW)
    elif p.k == 2 and not p.lazy_sw and _row_len(p, f32src) <= p.L:
        # x_col[iw] = r0[iw]*wh + r1[iw]*mh is what both W taps read: compute
        # each column once (the same operations, in the same order).
        rs_lerp1(bufs + 4 * p.L, r0, rows[1], p.wl[1][oh], p.wr[1][oh], _row_len(p, f32src))
        _lerp_w(p, o, bufs + 4 * p.L, i0, i1, ww, mw, OW)
    elif p.k == 2:
        rs_gather2(o, r0, rows[1], i0, i1, p.wl[1][oh], p.wr[1][oh], ww, mw, OW)
    else:
        # rows[kd*2 + kh]
        r1 = rows[1]
        r2 = rows[2]
        r3 = rows[3]
        wd = p.wl[0][od]
        md = p.wr[0][od]
        wh = p.wl[1][oh]
        mh = p.wr[1][oh]
        for ow in range(OW):
            a = r0[i0[ow]] * wd + r2[i0[ow]] * md
            b = r1[i0[ow]] * wd + r3[i0[ow]] * md
            x0 = a * wh + b * mh
            a = r0[i1[ow]] * wd + r2[i1[ow]] * md
            b = r1[i1[ow]] * wd + r3[i1[ow]] * md
            x1 = a * wh + b * mh
            o[ow] = x0 * ww[ow] + x1 * mw[ow]


cdef void _fwd_w_lazy(const Fwd* p, const float** rows, int64_t od, int64_t oh,
                      int64_t dbase, bint direct, float* scratch) noexcept nogil:
    """A row whose W taps the kernel computes, L outputs at a time (f32
    source rows, dense destination row, no binary post-op)."""
    cdef float* out = scratch
    cdef float* old = scratch + p.L
    cdef int64_t* ci0 = <int64_t*>(scratch + 2 * p.L)
    cdef int64_t* ci1 = <int64_t*>(scratch + 4 * p.L)
    cdef float* cw = scratch + 6 * p.L
    cdef float* cm = scratch + 7 * p.L
    cdef int64_t o0 = 0, m
    cdef int64_t b1[1]
    cdef float* o
    while o0 < p.OW:
        m = min(p.L, p.OW - o0)
        rs_coeffs(o0, m, p.IW, p.OW, p.lazy_sw, p.linear, ci0, ci1, cw, cm)
        o = (<float*>p.dst) + dbase + p.dS[2][0] + o0 if direct else out
        _fwd_w_taps(p, o, rows, ci0, ci1, cw, cm, m, od, oh, True, NULL)
        if not direct:
            if p.po.n:
                if p.po.has_sum:
                    load_row(p.dst, dbase + o0, p.dS[2], True, m, p.ddt, old)
                apply_post_ops(&p.po, out, old, m, b1, 4, o0)
            store_row(p.dst, dbase + o0, p.dS[2], True, m, p.ddt, out)
        o0 += m


cdef void _fwd_w_row(const Fwd* p, int64_t n, int64_t c, int64_t od, int64_t oh,
                     float* scratch) noexcept nogil:
    cdef float* out = scratch
    cdef float* old = scratch + p.L
    cdef float* bufs = scratch + 2 * p.L
    cdef const float* rows[4]
    cdef const int64_t* i0
    cdef const int64_t* i1
    cdef int64_t b1[MAX_POST_OPS]
    cdef int64_t iw, base, dbase, OW = p.OW
    cdef int t, nrows, kd, kh, e
    cdef bint direct, f32src = p.sdt == dnnl_f32
    cdef float* o
    # rows: index kd*2 + kh over the D and H taps that exist
    nrows = 1
    if p.linear:
        nrows = 4 if p.k == 3 else (2 if p.k == 2 else 1)
    for t in range(nrows):
        kd = (t >> 1) & 1 if p.k == 3 else 0
        kh = t & 1 if p.k >= 2 else 0
        base = (p.sN[n] + p.sC[c] + (p.s1[0] if kd else p.s0[0])[od]
                + (p.s1[1] if kh else p.s0[1])[oh])
        if f32src:
            rows[t] = (<const float*>p.src) + base
        elif p.srow_unit:
            decode_run(p.src, base + p.sWrow[0], p.IW, p.sdt, bufs + t * p.L)
            rows[t] = bufs + t * p.L
        else:
            for iw in range(p.IW):
                bufs[t * p.L + iw] = load_f32(p.src, base + p.sWrow[iw], p.sdt)
            rows[t] = bufs + t * p.L
    if f32src:
        i0 = p.s0[2]
        i1 = p.s1[2]
    else:
        i0 = p.i0W
        i1 = p.i1W
    dbase = p.dN[n] + p.dC[c] + p.dS[0][od] + p.dS[1][oh]
    direct = p.dW_unit and p.ddt == dnnl_f32 and p.po.n == 0
    if p.lazy_sw:
        _fwd_w_lazy(p, rows, od, oh, dbase, direct, scratch)
        return
    o = (<float*>p.dst) + dbase + p.dS[2][0] if direct else out
    _fwd_w_taps(p, o, rows, i0, i1, p.wl[2], p.wr[2], OW, od, oh, f32src, bufs)
    if direct:
        return
    if p.po.n:
        if p.po.has_sum:
            load_row(p.dst, dbase, p.dS[2], p.dW_unit, OW, p.ddt, old)
        for e in range(p.po.n):
            if p.po.kind[e] == dnnl_binary:
                b1[e] = (p.po.tab[e * 5][n] + p.po.tab[e * 5 + 1][c]
                         + p.po.tab[e * 5 + 2][od] + p.po.tab[e * 5 + 3][oh])
        apply_post_ops(&p.po, out, old, OW, b1, 4, 0)
    store_row(p.dst, dbase, p.dS[2], p.dW_unit, OW, p.ddt, out)
