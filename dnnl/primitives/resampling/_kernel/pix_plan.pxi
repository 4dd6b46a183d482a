# The tables of an image's forward plan, filled in C (included by
# kernel.pyx; FwdPlan.of_pixels): dense channels-last source and destination
# (nwc / nhwc, offset 0, no post-ops) resampled by the typed pixel rows.
# plan.py's fwd_plan makes the same plan from the descriptors through numpy,
# which costs a new image size several times what resizing it does; here
# the tables are filled by C loops and the taps and weights by rs_coeffs
# (the builder's f32 operations). Which inputs come here, and every path, is
# plan.pixel_plan's choice; the plans are the same, field by field
# (FwdPlan.fields, tests/primitives/resampling).


def tap_span(bint linear, int64_t n_in, int64_t n_out):
    """``(first, last)``: the first source index output 0 reads and the last
    one output ``n_out - 1`` reads, as the tables have them (rs_coeffs):
    plan.pixel_plan's source span, without a table made."""
    cdef int64_t l0, r0, l1, r1
    cdef float w0, w1
    rs_coeffs(0, 1, n_in, n_out, 1, linear, &l0, &r0, &w0, &w1)
    rs_coeffs(n_out - 1, 1, n_in, n_out, 1, linear, &l1, &r1, &w0, &w1)
    return l0, r1


cdef cnp.ndarray _steps(int64_t n, int64_t step):
    """0, step, 2 step, ... (n of them), int64."""
    cdef cnp.ndarray a = np.empty(n, np.int64)
    cdef int64_t* q = <int64_t*>cnp.PyArray_DATA(a)
    cdef int64_t i
    for i in range(n):
        q[i] = i * step
    return a


cdef tuple _axis(FwdPlan plan, int a, int64_t n_in, int64_t n_out, int64_t stride,
                 bint linear):
    """The taps (offsets: index x ``stride``) and weights of spatial axis
    ``a`` (1: H, 2: W) into the plan; returns the tap indices."""
    cdef Fwd* p = &plan.p
    cdef int64_t j
    cdef cnp.ndarray i0 = np.empty(n_out, np.int64), i1 = np.empty(n_out, np.int64)
    cdef cnp.ndarray o0 = np.empty(n_out, np.int64), o1 = np.empty(n_out, np.int64)
    cdef cnp.ndarray wl = np.empty(n_out, np.float32), wr = np.empty(n_out, np.float32)
    cdef int64_t* l = <int64_t*>cnp.PyArray_DATA(i0)
    cdef int64_t* r = <int64_t*>cnp.PyArray_DATA(i1)
    cdef int64_t* s0 = <int64_t*>cnp.PyArray_DATA(o0)
    cdef int64_t* s1 = <int64_t*>cnp.PyArray_DATA(o1)
    cdef float* w0 = <float*>cnp.PyArray_DATA(wl)
    cdef float* w1 = <float*>cnp.PyArray_DATA(wr)
    rs_coeffs(0, n_out, n_in, n_out, 1, linear, l, r, w0, w1)
    for j in range(n_out):
        s0[j] = l[j] * stride
        s1[j] = r[j] * stride
        if not linear:
            w0[j], w1[j] = 1, 0
    p.s0[a], p.s1[a] = plan.i64(o0), plan.i64(o1)
    p.wl[a], p.wr[a] = plan.f32(wl), plan.f32(wr)
    return i0, i1


cdef _missing(FwdPlan plan, int a):
    """Spatial axis ``a`` absent (extent 1): tap offset 0, weights (1, 0)."""
    cdef Fwd* p = &plan.p
    p.s0[a] = p.s1[a] = p.dS[a] = plan.i64(np.array([0], np.int64))
    p.wl[a] = plan.f32(np.array([1], np.float32))
    p.wr[a] = plan.f32(np.array([0], np.float32))


cdef _pixel_tables(FwdPlan plan, bint linear, int64_t N, int64_t C, int64_t IH,
                   int64_t IW, int64_t OH, int64_t OW, int k):
    """Every table of ``N x IH x IW x C`` -> ``N x OH x OW x C`` (``k`` = 1:
    ``IH = OH = 1``), both dense channels-last, into the plan."""
    cdef Fwd* p = &plan.p
    cdef cnp.ndarray li, ri, e0, e1, ew, em
    cdef int64_t j, c
    cdef int32_t* q0
    cdef int32_t* q1
    cdef float* qw
    cdef float* qm
    p.run_c0 = plan.i64(np.array([0], np.int64))
    p.run_len = plan.i64(np.array([C], np.int64))
    p.run_sunit = p.run_dunit = plan.u8(np.array([1], np.uint8))
    p.sN = plan.i64(_steps(N, IH * IW * C))
    p.sC = p.dC = plan.i64(_steps(C, 1))
    _missing(plan, 0)
    if k == 2:
        _axis(plan, 1, IH, OH, IW * C, linear)
        p.dS[1] = plan.i64(_steps(OH, OW * C))
    else:
        _missing(plan, 1)
    li, ri = _axis(plan, 2, IW, OW, C, linear)
    p.i0W, p.i1W = plan.i64(li), plan.i64(ri)
    p.dS[2] = plan.i64(_steps(OW, C))
    p.sWrow = plan.i64(_steps(IW, C))
    p.dN = plan.i64(_steps(N, OH * OW * C))
    pack_post_ops(&p.po, [], plan.keep)
    if p.pix == 1:        # per output element: its pixel's taps, plus the channel
        e0, e1 = np.empty(OW * C, np.int32), np.empty(OW * C, np.int32)
        ew, em = np.empty(OW * C, np.float32), np.empty(OW * C, np.float32)
        q0, q1 = <int32_t*>cnp.PyArray_DATA(e0), <int32_t*>cnp.PyArray_DATA(e1)
        qw, qm = <float*>cnp.PyArray_DATA(ew), <float*>cnp.PyArray_DATA(em)
        for j in range(OW):
            for c in range(C):
                q0[j * C + c] = <int32_t>(p.s0[2][j] + c)
                q1[j * C + c] = <int32_t>(p.s1[2][j] + c)
                qw[j * C + c] = p.wl[2][j]
                qm[j * C + c] = p.wr[2][j]
        p.pe0, p.pe1, p.pew, p.pem = plan.i32(e0), plan.i32(e1), plan.f32(ew), plan.f32(em)
