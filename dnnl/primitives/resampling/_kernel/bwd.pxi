# The resampling kernel's backward items (included by kernel.pyx: one
# extension module): each diff_src row gathers its contributors in ref:any's
# order, over channel runs or width rows, so it needs no atomics.


# ------------------------------------------------------------- backward
DEF MAXTAPS = 128


cdef int _bwd_dh_taps(const Bwd* p, int64_t n, int64_t id_, int64_t ih, int* gs,
                     int64_t* off, float* wd, float* wh) noexcept nogil:
    """The (d, h) part of the taps of diff_src row (n, id, ih): per role pair
    (kd, kh) its entries [gs[g], gs[g + 1]) of (diff_dst row offset, wd, wh).
    The number of pairs, or -1 when there are more than MAXTAPS entries."""
    cdef int kd, kh, ng = 0, nj = 0
    cdef int64_t od, oh
    for kd in range(p.nroles[0]):
        for kh in range(p.nroles[1]):
            gs[ng] = nj
            ng += 1
            for od in range(p.rs[kd][id_], p.re[kd][id_]):
                for oh in range(p.rs[2 + kh][ih], p.re[2 + kh][ih]):
                    if nj == MAXTAPS:
                        return -1
                    off[nj] = p.gN[n] + p.gS[0][od] + p.gS[1][oh]
                    wd[nj] = p.wt[kd][od]
                    wh[nj] = p.wt[2 + kh][oh]
                    nj += 1
    gs[ng] = nj
    return ng


cdef uintptr_t _bwd_next_rows(const Bwd* p, int64_t n, int64_t ih,
                              uintptr_t* end) noexcept nogil:
    """The diff_dst rows the next diff_src row (ih + 1) reads and this one
    does not, when they are one dense span of channels-last rows: its
    address, its end in ``end`` (both 0 when there is none). Prefetched
    while row ih runs, they arrive from memory in time; the hardware
    prefetchers alone, following the four rows a row reads at once, left a
    one-thread NHWC x2 backward at 1.5x a memcpy of its input."""
    cdef int64_t cur = 0, nxt = 0, row, kh
    end[0] = 0
    if ih + 1 >= p.IH or p.OW < 1:
        return 0
    for kh in range(p.nroles[1]):
        cur = max(cur, p.re[2 + kh][ih])
        nxt = max(nxt, p.re[2 + kh][ih + 1])
    row = p.gS[2][p.OW - 1] + p.C
    if (nxt <= cur or p.gS[2][p.OW - 1] != (p.OW - 1) * p.C
            or p.gS[1][nxt - 1] - p.gS[1][cur] != (nxt - 1 - cur) * row):
        return 0
    cdef uintptr_t a = <uintptr_t>((<const float*>p.dd) + p.gN[n] + p.gS[0][p.rs[0][0]]
                                   + p.gS[1][cur])
    end[0] = a + <uintptr_t>((nxt - cur) * row * 4)
    return a


cdef void _bwd_c_item(const Bwd* p, int64_t item, float* scratch) noexcept nogil:
    cdef int64_t rest = item
    cdef int64_t ih = axis_index(&rest, p.IH)
    cdef int64_t id_ = axis_index(&rest, p.ID)
    cdef int64_t n = rest
    cdef float* acc
    cdef float* buf = scratch + p.L
    cdef const float* row
    cdef int64_t iw, r, c0, L, od, oh, ow, dbase, goff
    cdef int kd, kh, kw
    cdef int nm = p.k if p.linear else 0
    cdef float wd, wh, ww, v
    cdef bint direct, gdirect
    cdef int64_t dho[MAXTAPS]
    cdef float dhd[MAXTAPS]
    cdef float dhh[MAXTAPS]
    cdef int gs[5]
    cdef int ng = _bwd_dh_taps(p, n, id_, ih, gs, dho, dhd, dhh)
    cdef uintptr_t pf = 0, pfend = 0, pfstep = 0
    if ng >= 0 and p.nruns == 1 and p.run_gunit[0] and p.gdt == dnnl_f32 and p.ID == 1:
        pf = _bwd_next_rows(p, n, ih, &pfend)
        pfstep = ((pfend - pf) // <uintptr_t>p.IW + 63) & ~(<uintptr_t>63)
    for iw in range(p.IW):
        if pf < pfend:
            pf = rs_prefetch_to(pf, pf + pfstep if pf + pfstep < pfend else pfend)
        dbase = p.dN[n] + p.dS[0][id_] + p.dS[1][ih] + p.dS[2][iw]
        for r in range(p.nruns):
            c0 = p.run_c0[r]
            L = p.run_len[r]
            direct = p.run_dunit[r] and p.sdt == dnnl_f32
            acc = (<float*>p.ds) + dbase + p.dC[c0] if direct else scratch
            gdirect = p.run_gunit[r] and p.gdt == dnnl_f32
            if gdirect and ng >= 0:
                # f32 unit-stride rows: every tap at once, sums in registers
                rs_taps(acc, (<const float*>p.dd) + p.gC[c0], ng, gs, dho, dhd, dhh,
                        p.nroles[2], p.wlb + 3 * iw, p.wlo, p.wlw, nm, L)
                if not direct:
                    store_row(p.ds, dbase, p.dC + c0, p.run_dunit[r], L, p.sdt, acc)
                continue
            memset(acc, 0, <size_t>L * 4)
            for kd in range(p.nroles[0]):
                for kh in range(p.nroles[1]):
                    for kw in range(p.nroles[2]):
                        for od in range(p.rs[kd][id_], p.re[kd][id_]):
                            wd = p.wt[kd][od]
                            for oh in range(p.rs[2 + kh][ih], p.re[2 + kh][ih]):
                                wh = p.wt[2 + kh][oh]
                                for ow in range(p.rs[4 + kw][iw], p.re[4 + kw][iw]):
                                    ww = p.wt[4 + kw][ow]
                                    goff = p.gN[n] + p.gS[0][od] + p.gS[1][oh] + p.gS[2][ow]
                                    if gdirect:
                                        row = (<const float*>p.dd) + goff + p.gC[c0]
                                    else:
                                        load_row(p.dd, goff, p.gC + c0, p.run_gunit[r], L,
                                                  p.gdt, buf)
                                        row = buf
                                    if not p.linear:
                                        rs_acc0(acc, row, L)
                                    elif p.k == 1:
                                        rs_acc1(acc, row, ww, L)
                                    elif p.k == 2:
                                        rs_acc2(acc, row, wh, ww, L)
                                    else:
                                        rs_acc3(acc, row, wd, wh, ww, L)
            if not direct:
                store_row(p.ds, dbase, p.dC + c0, p.run_dunit[r], L, p.sdt, acc)


cdef void _bwd_w_lazy(const Bwd* p, int64_t n, int64_t c, int64_t id_, int64_t ih,
                      float* acc, float* scratch) noexcept nogil:
    """Linear, a long W (f32, dense diff_src row ``acc``): the ranges of
    lazy_cin columns and the weights of their outputs at a time, in the
    gather's order per column."""
    cdef int64_t* st = <int64_t*>scratch
    cdef int64_t* en = <int64_t*>(scratch + 2 * p.L)
    cdef float* wv = scratch + 4 * p.L
    cdef const float* w0
    cdef const float* row
    cdef int64_t x0, m, j, ow, lo, hi, gw = p.lazy_gw
    cdef int64_t od, oh
    cdef int kd, kh, kw
    cdef float wd, wh, v, s
    memset(acc, 0, <size_t>p.IW * 4)
    for kd in range(p.nroles[0]):
        for kh in range(p.nroles[1]):
            for kw in range(2):
                for od in range(p.rs[kd][id_], p.re[kd][id_]):
                    wd = p.wt[kd][od]
                    for oh in range(p.rs[2 + kh][ih], p.re[2 + kh][ih]):
                        wh = p.wt[2 + kh][oh]
                        row = (<const float*>p.dd) + (p.gN[n] + p.gC[c] + p.gS[0][od]
                                                      + p.gS[1][oh])
                        x0 = 0
                        while x0 < p.IW:
                            m = min(p.lazy_cin, p.IW - x0)
                            while True:     # fewer columns if their outputs overflow
                                rs_bwd_ranges(x0, m, p.IW, p.OW, kw, st, en)
                                lo, hi = p.OW, 0
                                for j in range(m):
                                    if st[j] < en[j]:
                                        lo = min(lo, st[j])
                                        hi = max(hi, en[j])
                                if hi - lo <= 4 * p.L or m == 1:
                                    break
                                m = m // 2
                            if lo < hi:
                                rs_bwd_weights(lo, hi - lo, p.IW, p.OW, kw, wv)
                            w0 = wv - lo
                            if p.k == 1:
                                for j in range(m):
                                    s = acc[x0 + j]
                                    for ow in range(st[j], en[j]):
                                        s = s + row[ow * gw] * w0[ow]
                                    acc[x0 + j] = s
                            elif p.k == 2:
                                for j in range(m):
                                    s = acc[x0 + j]
                                    for ow in range(st[j], en[j]):
                                        v = row[ow * gw] * wh
                                        s = s + v * w0[ow]
                                    acc[x0 + j] = s
                            else:
                                for j in range(m):
                                    s = acc[x0 + j]
                                    for ow in range(st[j], en[j]):
                                        v = row[ow * gw] * wd
                                        v = v * wh
                                        s = s + v * w0[ow]
                                    acc[x0 + j] = s
                            x0 += m


cdef void _bwd_w_item(const Bwd* p, int64_t item, float* scratch) noexcept nogil:
    cdef float* acc
    cdef int64_t rest = item
    cdef int64_t ih = axis_index(&rest, p.IH)
    cdef int64_t id_ = axis_index(&rest, p.ID)
    cdef int64_t c = axis_index(&rest, p.C)
    cdef int64_t n = rest
    cdef float* buf = scratch + p.L
    cdef const float* row
    cdef const int64_t* idx
    cdef const int64_t* rs
    cdef const int64_t* re
    cdef const float* wt
    cdef int64_t iw, od, oh, ow, dbase, goff, IW = p.IW
    cdef int kd, kh, kw
    cdef float wd, wh, v, s
    cdef bint direct = p.dW_unit and p.sdt == dnnl_f32
    cdef int64_t xlo = 0, xhi = 0
    cdef int64_t sb[2]
    cdef int64_t se[2]
    cdef int sg
    cdef int j, ng
    cdef int gs[5]
    cdef int64_t dho[MAXTAPS]
    cdef float dhd[MAXTAPS]
    cdef float dhh[MAXTAPS]
    cdef const float* rows[MAXTAPS]
    dbase = p.dN[n] + p.dC[c] + p.dS[0][id_] + p.dS[1][ih]
    acc = (<float*>p.ds) + dbase + p.dS[2][0] if direct else scratch
    if p.lazy_gw:
        _bwd_w_lazy(p, n, c, id_, ih, acc, scratch)
        return
    memset(acc, 0, <size_t>IW * 4)
    if p.x2hi > p.x2lo:
        ng = _bwd_dh_taps(p, n, id_, ih, gs, dho, dhd, dhh)
        if ng >= 0:
            # the regular columns at once, in vectors; the loops below do the rest
            for j in range(gs[ng]):
                rows[j] = (<const float*>p.dd) + dho[j] + p.gC[c] + p.gS[2][0]
            xlo, xhi = p.x2lo, p.x2hi
            rs_bwd_x2(acc, xlo, xhi, ng, gs, rows, dhd, dhh, p.nroles[2], p.x2a, p.x2W, IW,
                      p.k if p.linear else 0)
    # the columns left to the loops: [0, xlo) and [xhi, IW)
    sb[0], se[0], sb[1], se[1] = 0, IW, IW, IW
    if xhi > xlo:
        se[0], sb[1] = xlo, xhi
    for kd in range(p.nroles[0]):
        for kh in range(p.nroles[1]):
            for kw in range(p.nroles[2]):
                rs = p.rs[4 + kw]
                re = p.re[4 + kw]
                wt = p.wt[4 + kw]
                for od in range(p.rs[kd][id_], p.re[kd][id_]):
                    wd = p.wt[kd][od]
                    for oh in range(p.rs[2 + kh][ih], p.re[2 + kh][ih]):
                        wh = p.wt[2 + kh][oh]
                        goff = p.gN[n] + p.gC[c] + p.gS[0][od] + p.gS[1][oh]
                        if p.gdt == dnnl_f32:
                            row = (<const float*>p.dd) + goff
                            idx = p.gS[2]
                        else:
                            for ow in range(p.OW):
                                buf[ow] = load_f32(p.dd, goff + p.gS[2][ow], p.gdt)
                            row = buf
                            idx = p.ident
                        if not p.linear:
                            for sg in range(2):
                                for iw in range(sb[sg], se[sg]):
                                    s = acc[iw]
                                    for ow in range(rs[iw], re[iw]):
                                        s = s + row[idx[ow]]
                                    acc[iw] = s
                        elif p.k == 1:
                            for sg in range(2):
                                for iw in range(sb[sg], se[sg]):
                                    s = acc[iw]
                                    for ow in range(rs[iw], re[iw]):
                                        s = s + row[idx[ow]] * wt[ow]
                                    acc[iw] = s
                        elif p.k == 2:
                            for sg in range(2):
                                for iw in range(sb[sg], se[sg]):
                                    s = acc[iw]
                                    for ow in range(rs[iw], re[iw]):
                                        v = row[idx[ow]] * wh
                                        s = s + v * wt[ow]
                                    acc[iw] = s
                        else:
                            for sg in range(2):
                                for iw in range(sb[sg], se[sg]):
                                    s = acc[iw]
                                    for ow in range(rs[iw], re[iw]):
                                        v = row[idx[ow]] * wd
                                        v = v * wh
                                        s = s + v * wt[ow]
                                    acc[iw] = s
    if not direct:
        store_row(p.ds, dbase, p.dS[2], p.dW_unit, IW, p.sdt, acc)
