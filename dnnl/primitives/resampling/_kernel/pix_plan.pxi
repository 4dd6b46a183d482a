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


cdef inline int64_t _line(int64_t nbytes) noexcept:
    """``nbytes`` rounded up to whole 64-byte lines."""
    return (nbytes + 63) & ~63


cdef inline char* _take(char** at, int64_t nbytes) noexcept:
    """The next ``nbytes`` of a block, from a line boundary (the kernels'
    vector loads of a table then split no line, as a numpy array's own)."""
    cdef char* q = at[0]
    at[0] += _line(nbytes)
    return q


cdef _pixel_tables(FwdPlan plan, bint linear, int64_t N, int64_t C, int64_t IH,
                   int64_t IW, int64_t OH, int64_t OW, int k):
    """Every table of ``N x IH x IW x C`` -> ``N x OH x OW x C`` (``k`` = 1:
    ``IH = OH = 1``), both dense channels-last, into the plan: carved out of
    one block, each from a line boundary (a numpy array per table cost a new
    image size more than every loop here)."""
    cdef Fwd* p = &plan.p
    cdef int64_t nh = OH if k == 2 else 0, ne = OW * C if p.pix == 1 else 0
    cdef int64_t j, c, a
    # one _line per _take below, in their order, and a line to align the start
    cdef cnp.npy_intp size = (
        _line(16) + _line(8) + _line(8) + 2 * _line(8 * N) + _line(8 * C)
        + 4 * _line(8 * OW) + 2 * _line(4 * OW) + _line(8 * OW) + _line(8 * IW)
        + 4 * _line(8 * nh) + 2 * _line(4 * nh) + _line(8 * nh) + 4 * _line(4 * ne) + 64)
    block = cnp.PyArray_EMPTY(1, &size, cnp.NPY_UINT8, 0)
    plan.keep.append(block)
    cdef char* at = <char*>((<size_t>cnp.PyArray_DATA(block) + 63) & ~<size_t>63)
    cdef int64_t* q = <int64_t*>_take(&at, 16)
    cdef float* one = <float*>_take(&at, 8)
    cdef uint8_t* u = <uint8_t*>_take(&at, 8)
    q[0], q[1], one[0], one[1], u[0] = 0, C, 1, 0, 1
    p.run_c0, p.run_len, p.run_sunit, p.run_dunit = q, q + 1, u, u
    for a in range(3):              # absent axes: tap offset 0, weights (1, 0)
        p.s0[a] = p.s1[a] = p.dS[a] = q
        p.wl[a], p.wr[a] = one, one + 1
    cdef int64_t* t = <int64_t*>_take(&at, 8 * N)
    _steps(t, N, IH * IW * C)
    p.sN = t
    t = <int64_t*>_take(&at, 8 * N)
    _steps(t, N, OH * OW * C)
    p.dN = t
    t = <int64_t*>_take(&at, 8 * C)
    _steps(t, C, 1)
    p.sC = p.dC = t
    p.i0W, p.i1W = <int64_t*>_take(&at, 8 * OW), <int64_t*>_take(&at, 8 * OW)
    _axis(p, 2, IW, OW, C, linear, <int64_t*>p.i0W, <int64_t*>p.i1W,
          <int64_t*>_take(&at, 8 * OW), <int64_t*>_take(&at, 8 * OW),
          <float*>_take(&at, 4 * OW), <float*>_take(&at, 4 * OW))
    t = <int64_t*>_take(&at, 8 * OW)
    _steps(t, OW, C)
    p.dS[2] = t
    t = <int64_t*>_take(&at, 8 * IW)
    _steps(t, IW, C)
    p.sWrow = t
    if k == 2:
        _axis(p, 1, IH, OH, IW * C, linear, <int64_t*>_take(&at, 8 * OH),
              <int64_t*>_take(&at, 8 * OH), <int64_t*>_take(&at, 8 * OH),
              <int64_t*>_take(&at, 8 * OH), <float*>_take(&at, 4 * OH),
              <float*>_take(&at, 4 * OH))
        t = <int64_t*>_take(&at, 8 * OH)
        _steps(t, OH, OW * C)
        p.dS[1] = t
    p.po.n, p.po.has_sum = 0, False
    if p.pix == 1:        # per output element: its pixel's taps, plus the channel
        p.pe0, p.pe1 = <int32_t*>_take(&at, 4 * ne), <int32_t*>_take(&at, 4 * ne)
        p.pew, p.pem = <float*>_take(&at, 4 * ne), <float*>_take(&at, 4 * ne)
        for j in range(OW):
            for c in range(C):
                (<int32_t*>p.pe0)[j * C + c] = <int32_t>(p.s0[2][j] + c)
                (<int32_t*>p.pe1)[j * C + c] = <int32_t>(p.s1[2][j] + c)
                (<float*>p.pew)[j * C + c] = p.wl[2][j]
                (<float*>p.pem)[j * C + c] = p.wr[2][j]
        plan._windows()
