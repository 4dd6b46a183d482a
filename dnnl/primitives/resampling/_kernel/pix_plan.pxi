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


cdef inline void _steps(int64_t* q, int64_t n, int64_t step) noexcept:
    """0, step, 2 step, ... (n of them) at ``q``."""
    cdef int64_t i
    for i in range(n):
        q[i] = i * step


cdef inline void _axis(Fwd* p, int a, int64_t n_in, int64_t n_out, int64_t stride,
                       bint linear, int64_t* l, int64_t* r, int64_t* s0, int64_t* s1,
                       float* w0, float* w1) noexcept:
    """The taps of spatial axis ``a`` (1: H, 2: W): their indices at ``l`` /
    ``r``, offsets (index x ``stride``) at ``s0`` / ``s1`` and weights at
    ``w0`` / ``w1``, each ``n_out`` long, into the plan."""
    cdef int64_t j
    rs_coeffs(0, n_out, n_in, n_out, 1, linear, l, r, w0, w1)
    for j in range(n_out):
        s0[j] = l[j] * stride
        s1[j] = r[j] * stride
        if not linear:
            w0[j], w1[j] = 1, 0
    p.s0[a], p.s1[a], p.wl[a], p.wr[a] = s0, s1, w0, w1


cdef void* _block(FwdPlan plan, cnp.npy_intp n, int typenum):
    """``n`` elements of numpy type ``typenum``, kept alive by the plan."""
    arr = cnp.PyArray_EMPTY(1, &n, typenum, 0)
    plan.keep.append(arr)
    return cnp.PyArray_DATA(arr)


cdef _pixel_tables(FwdPlan plan, bint linear, int64_t N, int64_t C, int64_t IH,
                   int64_t IW, int64_t OH, int64_t OW, int k):
    """Every table of ``N x IH x IW x C`` -> ``N x OH x OW x C`` (``k`` = 1:
    ``IH = OH = 1``), both dense channels-last, into the plan: carved out of
    one block per element type (a numpy array per table cost a new image
    size more than every loop here)."""
    cdef Fwd* p = &plan.p
    cdef int64_t nh = OH if k == 2 else 0, ne = OW * C if p.pix == 1 else 0
    cdef int64_t j, c, a
    # int64: [0], [C], sN, dN, sC, the W taps (indices, offsets) and dS,
    # sWrow, the H taps (indices, offsets) and dS; f32: [1], [0], the W
    # weights, the H weights, the per-element W weights
    cdef int64_t* q = <int64_t*>_block(plan, 2 + 2 * N + C + 5 * OW + IW + 5 * nh,
                                       cnp.NPY_INT64)
    cdef float* f = <float*>_block(plan, 2 + 2 * OW + 2 * nh + 2 * ne, cnp.NPY_FLOAT32)
    cdef uint8_t* u = <uint8_t*>_block(plan, 1, cnp.NPY_UINT8)
    cdef int32_t* e = <int32_t*>_block(plan, 2 * ne, cnp.NPY_INT32) if ne else NULL
    q[0], q[1], f[0], f[1], u[0] = 0, C, 1, 0, 1
    p.run_c0, p.run_len, p.run_sunit, p.run_dunit = q, q + 1, u, u
    for a in range(3):              # absent axes: tap offset 0, weights (1, 0)
        p.s0[a] = p.s1[a] = p.dS[a] = q
        p.wl[a], p.wr[a] = f, f + 1
    q += 2
    f += 2
    p.sN, p.dN, p.sC = q, q + N, q + 2 * N
    p.dC = p.sC
    _steps(q, N, IH * IW * C)
    _steps(q + N, N, OH * OW * C)
    _steps(q + 2 * N, C, 1)
    q += 2 * N + C
    p.i0W, p.i1W = q, q + OW
    _axis(p, 2, IW, OW, C, linear, q, q + OW, q + 2 * OW, q + 3 * OW, f, f + OW)
    p.dS[2] = q + 4 * OW
    _steps(q + 4 * OW, OW, C)
    p.sWrow = q + 5 * OW
    _steps(q + 5 * OW, IW, C)
    q += 5 * OW + IW
    f += 2 * OW
    if k == 2:
        _axis(p, 1, IH, OH, IW * C, linear, q, q + OH, q + 2 * OH, q + 3 * OH, f, f + OH)
        p.dS[1] = q + 4 * OH
        _steps(q + 4 * OH, OH, OW * C)
        f += 2 * OH
    p.po.n, p.po.has_sum = 0, False
    if p.pix == 1:        # per output element: its pixel's taps, plus the channel
        p.pe0, p.pe1, p.pew, p.pem = e, e + ne, f, f + ne
        for j in range(OW):
            for c in range(C):
                e[j * C + c] = <int32_t>(p.s0[2][j] + c)
                e[ne + j * C + c] = <int32_t>(p.s1[2][j] + c)
                f[j * C + c] = p.wl[2][j]
                f[ne + j * C + c] = p.wr[2][j]
