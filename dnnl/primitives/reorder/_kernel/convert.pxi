# The reorder kernel's conversions of one run (included by kernel.pyx, from
# kernel.pyx.in: one extension module): the index spaces constant on a run,
# the fused single-pass loops (reorder_kernels.h, quant_kernels.h), and the
# f32-buffered path with oneDNN's reference arithmetic.


cdef inline bint _scalar(const Params* p, int k, const int64_t* base, int64_t j0,
                         int64_t* at) noexcept nogil:
    """True (and the index in ``at``) when index space k is constant on the run."""
    cdef Access q
    if not p.used[k]:
        at[0] = -1
        return True
    q = _access(p, k, base[k], j0)
    at[0] = q.base
    return q.table == NULL and q.step == 0


cdef inline int _esz(int dt) noexcept nogil:
    return 4 if dt == dnnl_f32 or dt == dnnl_s32 else 2 if dt == dnnl_bf16 or dt == dnnl_f16 else 1


cdef bint _fused_ok(int sdt, int ddt) noexcept nogil:
    if sdt == dnnl_f32:
        return (ddt == dnnl_s8 or ddt == dnnl_u8 or ddt == dnnl_bf16 or ddt == dnnl_f16
                or ddt == dnnl_f32 or ddt == dnnl_s32)
    return ddt == dnnl_f32 and (sdt == dnnl_s8 or sdt == dnnl_u8 or sdt == dnnl_bf16)


cdef inline bint _vector_pair(int sdt, int ddt) noexcept nogil:
    """Whether quant_kernels.h has vector loops for this pair."""
    return sdt == dnnl_f32 and (ddt == dnnl_s8 or ddt == dnnl_u8 or ddt == dnnl_bf16)


cdef void _fused_run(int sdt, int ddt, const uint8_t* src, uint8_t* dst, int64_t n,
                     float a, float dv, float z, bint nt, int32_t zs) noexcept nogil:
    """dst[j] = cvt(a * (src[j] - zs) / dv + z) on contiguous runs (local pointers, so
    the compiler can vectorise; f32 -> s8 / u8 / bf16 in quant_kernels.h's
    vector loops, the scalar loops finishing the run)."""
    cdef int64_t h = 0
    if sdt == dnnl_f32 and ddt == dnnl_s8:
        h = dnnl_py_f32_s8(<const float*>src, dst, n, a, dv, z, nt)
    elif sdt == dnnl_f32 and ddt == dnnl_u8:
        h = dnnl_py_f32_u8(<const float*>src, dst, n, a, dv, z, nt)
    elif sdt == dnnl_f32 and ddt == dnnl_bf16:
        h = dnnl_py_f32_bf16(<const float*>src, <uint16_t*>dst, n, a, dv, z, nt)
    _fused_scalar(sdt, ddt, src + h * 4, dst + h * _esz(ddt), n - h, a, dv, z, zs)


cdef void _fused_run_views(int sdt, int ddt, const uint8_t* src, uint8_t* dst, int64_t n,
                           float a, float dv, float z, bint nt, int swap,
                           const uint8_t* next, bint far, int32_t zs) noexcept nogil:
    """:func:`_fused_run` on a run of a view: ``swap``, the source is in the
    other byte order (a _vector_pair only): the vector loops swap as they
    load, the rest is swapped into a buffer first; ``next``, the source of
    the run after this one, or NULL; ``far``: the source's runs are apart in
    memory (Params.src_gaps)."""
    cdef int64_t h = 0, m
    cdef uint32_t tail[64]
    cdef const float* x = <const float*>src
    cdef const float* xn = <const float*>next
    if sdt == dnnl_f32 and ddt == dnnl_s8:
        h = dnnl_py_f32_s8_views(x, dst, n, xn, far, a, dv, z, nt, swap)
    elif sdt == dnnl_f32 and ddt == dnnl_u8:
        h = dnnl_py_f32_u8_views(x, dst, n, xn, far, a, dv, z, nt, swap)
    elif sdt == dnnl_f32 and ddt == dnnl_bf16:
        h = dnnl_py_f32_bf16_views(x, <uint16_t*>dst, n, xn, far, a, dv, z, nt, swap)
    elif next != NULL:
        # the scalar loops' own loads: the next run asked for now, to come
        # while this one is converted
        dnnl_py_prefetch_run(next, min(n * _esz(sdt), <int64_t>NEXT_BYTES))
    src += h * 4
    dst += h * _esz(ddt)
    n -= h
    while swap and n > 0:
        m = n if n < 64 else 64
        dnnl_py_swap_run(src, 1, tail, m, 4)
        _fused_scalar(sdt, ddt, <const uint8_t*>tail, dst, m, a, dv, z, zs)
        src += m * 4
        dst += m * _esz(ddt)
        n -= m
    if not swap:
        _fused_scalar(sdt, ddt, src, dst, n, a, dv, z, zs)


cdef inline void _fused_scalar(int sdt, int ddt, const uint8_t* src, uint8_t* dst,
                               int64_t n, float a, float dv, float z,
                               int32_t zs) noexcept nogil:
    """_fused_run's scalar loops (vectorised by the compiler where it can).
    ``zs``: an integer source's zero point (0: none), subtracted in int32
    with wraparound as _convert_buf does."""
    cdef int64_t j
    cdef const float* xf = <const float*>src
    cdef const int8_t* xs8 = <const int8_t*>src
    cdef const uint16_t* xbf = <const uint16_t*>src
    cdef int8_t* os8 = <int8_t*>dst
    cdef uint16_t* o16 = <uint16_t*>dst
    cdef float* of = <float*>dst
    cdef int32_t* os32 = <int32_t*>dst
    if sdt == dnnl_f32 and a == 1.0 and dv == 1.0:
        # No scales: 1*x/1 + z is exactly x + z (NaN payloads too); skipping
        # the multiply and the division saves the slowest instruction.
        if ddt == dnnl_s8:
            for j in range(n):
                os8[j] = f32_to_s8(xf[j] + z)
        elif ddt == dnnl_u8:
            for j in range(n):
                dst[j] = f32_to_u8(xf[j] + z)
        elif ddt == dnnl_bf16:
            for j in range(n):
                o16[j] = f32_to_bf16(xf[j] + z)
        elif ddt == dnnl_f16:
            for j in range(n):
                o16[j] = f32_to_f16(xf[j] + z)
        elif ddt == dnnl_f32:
            for j in range(n):
                of[j] = xf[j] + z
        else:
            for j in range(n):
                os32[j] = f32_to_s32(xf[j] + z)
    elif sdt == dnnl_f32 and a == 1.0 and (ddt == dnnl_s8 or ddt == dnnl_u8):
        # Quantization by a dst scale: 1 * x is x (the division quiets NaNs
        # as the multiply would), so skip the multiply.
        if ddt == dnnl_s8:
            for j in range(n):
                os8[j] = f32_to_s8(xf[j] / dv + z)
        else:
            for j in range(n):
                dst[j] = f32_to_u8(xf[j] / dv + z)
    elif sdt == dnnl_f32:
        if ddt == dnnl_s8:
            for j in range(n):
                os8[j] = f32_to_s8(a * xf[j] / dv + z)
        elif ddt == dnnl_u8:
            for j in range(n):
                dst[j] = f32_to_u8(a * xf[j] / dv + z)
        elif ddt == dnnl_bf16:
            for j in range(n):
                o16[j] = f32_to_bf16(a * xf[j] / dv + z)
        elif ddt == dnnl_f16:
            for j in range(n):
                o16[j] = f32_to_f16(a * xf[j] / dv + z)
        elif ddt == dnnl_f32:
            for j in range(n):
                of[j] = a * xf[j] / dv + z
        else:
            for j in range(n):
                os32[j] = f32_to_s32(a * xf[j] / dv + z)
    elif dv == 1.0:
        # Dequantization (no dst scale): t / 1 is t, NaN too, and the
        # division would bound the loop (as fast as a copy without it).
        if sdt == dnnl_s8:
            for j in range(n):
                of[j] = a * <float>(<int32_t>(<uint32_t><int32_t>xs8[j] - <uint32_t>zs)) + z
        elif sdt == dnnl_u8:
            for j in range(n):
                of[j] = a * <float>(<int32_t>(<uint32_t>src[j] - <uint32_t>zs)) + z
        else:
            for j in range(n):
                of[j] = a * bf16_to_f32(xbf[j]) + z
    elif sdt == dnnl_s8:
        for j in range(n):
            of[j] = a * <float>(<int32_t>(<uint32_t><int32_t>xs8[j] - <uint32_t>zs)) / dv + z
    elif sdt == dnnl_u8:
        for j in range(n):
            of[j] = a * <float>(<int32_t>(<uint32_t>src[j] - <uint32_t>zs)) / dv + z
    else:
        for j in range(n):
            of[j] = a * bf16_to_f32(xbf[j]) / dv + z


cdef bint _fused_values(const Params* p, const int64_t* base, int64_t j0, const Access* s,
                       const Access* d, float* a, float* dv, float* z,
                       int32_t* zs) noexcept nogil:
    """Whether the run at ``s``, ``d`` (at ``base``, from ``j0``) takes the
    fused loops, and then their values: the scales ``a`` and ``dv`` (1 when
    absent), the dst zero point ``z`` and an int8 source's ``zs`` (0)."""
    cdef int64_t ia, id_, iz, izs = -1
    a[0] = 1.0
    dv[0] = 1.0
    z[0] = -0.0     # no dst zero point: adding -0.0 changes nothing but quiets a NaN
    zs[0] = 0
    if (not p.fused or p.beta != 0 or s.table != NULL or d.table != NULL
            or s.step != 1 or d.step != 1 or not _fused_ok(p.src_dt, p.dst_dt)):
        return False
    if p.used[K_SZP]:   # an int8 source's zero point, constant along the run
        if ((p.src_dt != dnnl_s8 and p.src_dt != dnnl_u8)
                or not _scalar(p, K_SZP, base, j0, &izs)):
            return False
        if izs >= 0:
            zs[0] = p.szp[izs]
    if not (_scalar(p, K_SSC, base, j0, &ia) and _scalar(p, K_DSC, base, j0, &id_)
            and _scalar(p, K_DZP, base, j0, &iz)):
        return False
    if ia >= 0:
        a[0] = p.ssc[ia]
    if id_ >= 0:
        dv[0] = p.dsc[id_]
    if iz >= 0:
        z[0] = <float>p.dzp[iz]
    return True


cdef bint _fused(const Params* p, const uint8_t* src, const int64_t* base, int64_t j0,
                 int64_t n, const Access* s, const Access* d, int swap,
                 const uint8_t* next) noexcept nogil:
    """One vectorisable pass for contiguous runs with run-constant scales.

    Multiplying or dividing by an absent scale of 1 is exact, so the loops
    need no branches: dst = cvt(a * x / dv + z), as the reference computes.
    """
    cdef float a, dv, z
    cdef int32_t zs
    if not _fused_values(p, base, j0, s, d, &a, &dv, &z, &zs):
        return False
    if swap or p.src_gaps:
        _fused_run_views(p.src_dt, p.dst_dt, src + s.base * _esz(p.src_dt),
                         p.dst + d.base * _esz(p.dst_dt), n, a, dv, z, p.stream, swap, next,
                         p.src_gaps, zs)
    else:
        _fused_run(p.src_dt, p.dst_dt, src + s.base * _esz(p.src_dt),
                   p.dst + d.base * _esz(p.dst_dt), n, a, dv, z, p.stream, zs)
    if p.stream and p.fence_each:
        dnnl_py_sfence()
    return True


cdef void _convert(const Params* p, const uint8_t* src, const int64_t* base, int64_t j0,
                   int64_t n, const Access* s, const Access* d,
                   const uint8_t* next) noexcept nogil:
    """simple:any's arithmetic on one run from ``src`` (``p.src``, or a
    swapped run's buffer): fused, or BUF elements at a time. ``next``: the
    source of the run after this one (:func:`_next_src`), or NULL."""
    cdef int64_t i, m
    if _fused(p, src, base, j0, n, s, d, 0, next):
        return
    for i in range(0, n, BUF):
        m = n - i if n - i < BUF else BUF
        _convert_buf(p, src, base, j0 + i, m, _shift(s[0], i), _shift(d[0], i))


cdef inline Access _shift(Access a, int64_t i) noexcept nogil:
    """The same access, ``i`` elements further along the run."""
    if a.table == NULL:
        a.base = a.base + i * a.step
    else:
        a.table = a.table + i
    return a


cdef void _convert_buf(const Params* p, const uint8_t* src, const int64_t* base, int64_t j0,
                       int64_t n, Access s, Access d) noexcept nogil:
    """simple:any's arithmetic on at most BUF elements, through an f32 buffer."""
    cdef float buf[BUF]
    cdef float old[BUF]
    cdef int64_t j
    cdef int32_t x
    cdef float beta = p.beta, v
    cdef Access q
    if p.used[K_SZP]:   # integer source: subtract the zero point in int32
        q = _access(p, K_SZP, base[K_SZP], j0)
        for j in range(n):
            x = _load_i32(src, _at(s, j), p.src_dt)
            buf[j] = <float>(<int32_t>(<uint32_t>x - <uint32_t>p.szp[_at(q, j)]))
    else:
        _load(src, p.src_dt, s, n, buf)
    if p.used[K_SSC]:
        q = _access(p, K_SSC, base[K_SSC], j0)
        if q.table == NULL and q.step == 0:
            v = p.ssc[q.base]
            for j in range(n):
                buf[j] = v * buf[j]
        else:
            for j in range(n):
                buf[j] = p.ssc[_at(q, j)] * buf[j]
    if beta != 0:
        _load(p.dst, p.dst_dt, d, n, old)
        for j in range(n):
            buf[j] = buf[j] + beta * old[j]
    if p.used[K_DSC]:
        q = _access(p, K_DSC, base[K_DSC], j0)
        if q.table == NULL and q.step == 0:
            v = p.dsc[q.base]
            for j in range(n):
                buf[j] = buf[j] / v
        else:
            for j in range(n):
                buf[j] = buf[j] / p.dsc[_at(q, j)]
    if p.used[K_DZP]:
        q = _access(p, K_DZP, base[K_DZP], j0)
        for j in range(n):
            buf[j] = buf[j] + <float>p.dzp[_at(q, j)]
    else:
        # No dst zero point, none added: -0.0 stays -0.0, as IEEE and oneDNN's
        # JIT reorders (simple:any adds a zero one and stores +0.0;
        # docs/internals/semantics.md). A NaN is quieted as that addition
        # would (a constant -0.0 added would be folded away by the compiler).
        for j in range(n):
            buf[j] = buf[j] + <float>0.0 if buf[j] != buf[j] else buf[j]
    _store(p.dst, p.dst_dt, d, n, buf)
