# The resampling kernel's typed pixel rows (included by kernel.pyx): channel
# runs (nhwc-like) of dense rows on both sides, no post-ops, 1-D or 2-D, an
# integer or half type on either side, or f32 to f32 with few channels
# (with many, its own plain rows: _fwd_c_plain). One output row per item:
# each source row it reads is decoded to f32 once, with one type switch
# (decode_run: typed loops that convert in vector registers), the H taps
# interpolated once per source column (rs_lerp1: the first step of
# rs_bilerp_px, the same operations; a u8 source's rows converted as they
# are read), the W taps per output element, and the row encoded once
# (encode_run). With few channels (``pix == 1``) the W step reads
# per-element tables, so it runs across pixels (pixel_rows.h: permuted from
# a window of the row in registers, else gathered; a u8 destination stored
# from the registers); with many (``pix == 2``) pixel by pixel, across
# channels. The results are those of
# the generic channel path, bit for bit; f32 rows report an inf/NaN they
# store as the plain rows do (``nonfinite``: the 3-D rerun).


cdef inline const float* _pix_src_row(const Fwd* p, int64_t off, float* buf) noexcept nogil:
    """The source row at element ``off`` as f32: in place (f32) or decoded."""
    if p.sdt == dnnl_f32:
        return (<const float*>p.src) + off
    decode_run(p.src, off, p.pix_srow, p.sdt, buf)
    return buf


cdef bint _fwd_pix_row(const Fwd* p, int64_t n, int64_t od, int64_t oh,
                       float* scratch) noexcept nogil:
    """One output row (n, od, oh), if the typed pixel rows apply (False:
    not, with a 3-D rerun for inf/NaN say)."""
    cdef int64_t SW = p.pix_srow, C = p.C, M = p.OW * p.C, ow
    cdef int64_t sbase, dbase
    cdef float* a = scratch
    cdef float* b = scratch + SW
    cdef float* x = scratch + 2 * SW
    cdef float* o = scratch + 3 * SW
    cdef const float* r0
    cdef const float* r1
    cdef uint8_t* drow
    cdef bint bad
    cdef int64_t done = 0       # elements of the row already stored
    cdef uint32_t acc
    if p.pix == 0 or p.k > 2:
        return False
    sbase = p.sN[n] + p.sC[0] + p.s0[0][od]
    dbase = p.dN[n] + p.dC[0] + p.dS[0][od] + p.dS[1][oh]
    if p.half_u8:
        dnnl_py_half_u8(p.dst + dbase, p.src + sbase + p.s0[1][oh],
                        p.src + sbase + p.s1[1][oh], M, C)
        return True
    if p.ddt == dnnl_f32:
        o = (<float*>p.dst) + dbase
    if not p.linear:
        sbase += p.s0[1][oh]
        if p.sdt == p.ddt and (p.sdt == dnnl_u8 or p.sdt == dnnl_s8):
            # equal one-byte integers: f32 and back is the identity
            drow = p.dst + dbase
            if p.pix == 1:
                rs_take_u8(drow, p.src + sbase, SW, p.pe0, M, C)
            else:
                for ow in range(p.OW):
                    memcpy(drow + ow * C, p.src + sbase + p.s0[2][ow], <size_t>C)
            return True
        if p.pix == 1:
            rs_wstep0_32(o, _pix_src_row(p, sbase, a), SW, p.pe0, M, C)
        else:
            for ow in range(p.OW):
                decode_run(p.src, sbase + p.s0[2][ow], C, p.sdt, o + ow * C)
    else:
        if p.k == 2 and p.sdt == dnnl_u8:
            # (converted as read: the rows are not decoded first)
            rs_lerp1_u8(x, p.src + sbase + p.s0[1][oh], p.src + sbase + p.s1[1][oh],
                        p.wl[1][oh], p.wr[1][oh], SW)
            r0 = x
        else:
            r0 = _pix_src_row(p, sbase + p.s0[1][oh], a)
            if p.k == 2:
                r1 = _pix_src_row(p, sbase + p.s1[1][oh], b)
                rs_lerp1(x, r0, r1, p.wl[1][oh], p.wr[1][oh], SW)
                r0 = x
        if p.pix == 1 and p.ddt == dnnl_u8:
            # u8 stored from the registers; the gathered rest encoded below
            done = rs_wstep1_u8(p.dst + dbase, o, r0, &p.pw, p.pe0, p.pe1, p.pew, p.pem, M,
                                p.nonfinite != NULL, &acc)
            bad = acc >> 31
        elif p.pix == 1:
            bad = rs_wstep1_32(o, r0, &p.pw, p.pe0, p.pe1, p.pew, p.pem, M,
                               p.nonfinite != NULL) >> 31
        else:
            for ow in range(p.OW):
                rs_lerp1(o + ow * C, r0 + p.s0[2][ow], r0 + p.s1[2][ow], p.wl[2][ow],
                         p.wr[2][ow], C)
            bad = p.nonfinite != NULL and rs_any_nonfinite(o, M)
        if p.nonfinite != NULL and bad:
            # the plan checks outputs (f32 rows): the same report as theirs
            rs_flag(p.nonfinite)
    if p.ddt != dnnl_f32:
        encode_run(p.dst, dbase + done, M - done, p.ddt, o + done)
    return True
