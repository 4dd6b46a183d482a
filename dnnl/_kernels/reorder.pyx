# cython: language_level=3
"""Reorder kernels: move and convert elements between any two layouts.

A plan holds, for each loop dim and each of six index spaces (src, dst, src
and dst scale index, src and dst zero-point index), a table of offsets (the
separable form of DESIGN rule 3). Work is split into items of at most
``CHUNK`` innermost elements, run in parallel with OpenMP when the tensor is
large. Each item computes its offsets, then either copies bits (same data type,
no attributes: policy 4) or goes through an f32 buffer with oneDNN's
reference arithmetic (``simple:any``):

    t = s_src * (x - zp_src)      # x - zp_src in int32 for integer sources
    t = t + beta * f32(dst_old)   # sum post-op, only when beta != 0
    t = t / s_dst + zp_dst        # true division; zp_dst always added
    dst = saturate_round(t)

Inputs are validated by the caller (dnnl/reorder.py); nothing here checks.
"""
import numpy as np

cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from dnnl._kernels.dnnl_types cimport (dnnl_bf16, dnnl_f16, dnnl_f32, dnnl_s4, dnnl_s8,
                                       dnnl_s32, dnnl_u8)
from dnnl._kernels.threads cimport max_threads as _max_threads
from dnnl._kernels.cvt cimport (bf16_to_f32, decode_run, encode_run, f32_to_bf16,
                                f32_to_f16, f32_to_s8, f32_to_s32, f32_to_u8, get_nibble,
                                load_f32, store_f32)

cnp.import_array()

cdef extern from "reorder_kernels.h":
    void dnnl_py_transpose32(const uint32_t* src, long long ss, uint32_t* dst,
                             long long ds, long long na, long long nb) noexcept nogil

DEF MAXD = 13
DEF NK = 6
DEF CHUNK = 4096   # innermost elements per work item
DEF BUF = 512      # elements per pass of the buffered f32 path (stays in L1)
DEF TILE = 64

cdef enum:
    K_SRC = 0
    K_DST = 1
    K_SSC = 2
    K_DSC = 3
    K_SZP = 4
    K_DZP = 5

cdef struct Params:
    int nd
    int64_t sizes[MAXD]
    int64_t nchunks
    const int64_t* tab[NK * MAXD]
    int64_t lin[NK]          # innermost step when is_lin, else unused
    bint is_lin[NK]          # innermost dim linear: no table
    bint used[NK]
    bint tile                 # 4-byte transpose of the last two loop dims
    int64_t ntiles_a          # tiles along dim nd-2 and nd-1
    int64_t ntiles_b
    int64_t src_b_step        # src step along dim nd-1 (its step along nd-2 is 1)
    int64_t dst_a_step        # dst step along dim nd-2 (its step along nd-1 is 1)
    bint convert              # 0: bit copy, 1: f32 path
    bint fused                # allow the one-pass loops for contiguous runs
    int esize                 # bytes per element for the bit copy (0: nibbles)
    int src_dt
    int dst_dt
    const uint8_t* src
    uint8_t* dst
    const float* ssc
    const float* dsc
    const int32_t* szp
    const int32_t* dzp
    float beta


# Where a run of innermost elements lives in one index space:
# element j is at ``base + j*step`` when ``table`` is NULL, else ``base + table[j]``.
cdef struct Access:
    int64_t base
    int64_t step
    const int64_t* table


cdef inline Access _access(const Params* p, int k, int64_t base, int64_t j0) noexcept nogil:
    cdef Access a
    if p.is_lin[k]:
        a.base = base + j0 * p.lin[k]
        a.step = p.lin[k]
        a.table = NULL
    else:
        a.base = base
        a.step = 0
        a.table = p.tab[k * MAXD + p.nd - 1] + j0
    return a


cdef inline int64_t _at(Access a, int64_t j) noexcept nogil:
    return a.base + (j * a.step if a.table == NULL else a.table[j])


cdef inline int32_t _load_i32(const uint8_t* b, int64_t off, int dt) noexcept nogil:
    cdef uint8_t nib
    if dt == dnnl_s8:
        return (<const int8_t*>b)[off]
    if dt == dnnl_u8:
        return b[off]
    if dt == dnnl_s32:
        return (<const int32_t*>b)[off]
    nib = get_nibble(b, off)
    if dt == dnnl_s4:
        return (<int32_t>nib ^ 8) - 8
    return nib


cdef inline void _set_nibble(uint8_t* b, int64_t off, uint8_t v) noexcept nogil:
    cdef int64_t i = off >> 1
    if off & 1:
        b[i] = (b[i] & 0x0F) | ((v & 0x0F) << 4)
    else:
        b[i] = (b[i] & 0xF0) | (v & 0x0F)


cdef void _copy(const Params* p, Access s, Access d, int64_t n) noexcept nogil:
    """Bit copy of ``n`` elements (same data type, no attributes)."""
    cdef int64_t j, ss = s.step, ds = d.step, sb = s.base, db = d.base
    cdef int es = p.esize
    if s.table == NULL and d.table == NULL:
        if es and ss == 1 and ds == 1:
            memcpy(p.dst + db * es, p.src + sb * es, n * es)
        elif es == 4:
            for j in range(n):
                (<uint32_t*>p.dst)[db + j * ds] = (<const uint32_t*>p.src)[sb + j * ss]
        elif es == 2:
            for j in range(n):
                (<uint16_t*>p.dst)[db + j * ds] = (<const uint16_t*>p.src)[sb + j * ss]
        elif es == 1:
            for j in range(n):
                p.dst[db + j * ds] = p.src[sb + j * ss]
        elif es == 8:
            for j in range(n):
                (<uint64_t*>p.dst)[db + j * ds] = (<const uint64_t*>p.src)[sb + j * ss]
        else:
            for j in range(n):
                _set_nibble(p.dst, db + j * ds, get_nibble(p.src, sb + j * ss))
        return
    if es == 4:
        for j in range(n):
            (<uint32_t*>p.dst)[_at(d, j)] = (<const uint32_t*>p.src)[_at(s, j)]
    elif es == 2:
        for j in range(n):
            (<uint16_t*>p.dst)[_at(d, j)] = (<const uint16_t*>p.src)[_at(s, j)]
    elif es == 1:
        for j in range(n):
            p.dst[_at(d, j)] = p.src[_at(s, j)]
    elif es == 8:
        for j in range(n):
            (<uint64_t*>p.dst)[_at(d, j)] = (<const uint64_t*>p.src)[_at(s, j)]
    else:
        for j in range(n):
            _set_nibble(p.dst, _at(d, j), get_nibble(p.src, _at(s, j)))


cdef void _load(const uint8_t* src, int dt, Access s, int64_t n, float* buf) noexcept nogil:
    """buf[j] = f32 of element j of the run."""
    cdef int64_t j, ss = s.step, sb = s.base
    if s.table == NULL:
        if ss == 1:
            decode_run(src, sb, n, dt, buf)
        elif dt == dnnl_f32:
            for j in range(n):
                buf[j] = (<const float*>src)[sb + j * ss]
        elif dt == dnnl_bf16:
            for j in range(n):
                buf[j] = bf16_to_f32((<const uint16_t*>src)[sb + j * ss])
        elif dt == dnnl_s8:
            for j in range(n):
                buf[j] = (<const int8_t*>src)[sb + j * ss]
        elif dt == dnnl_u8:
            for j in range(n):
                buf[j] = src[sb + j * ss]
        else:
            for j in range(n):
                buf[j] = load_f32(src, sb + j * ss, dt)
        return
    if dt == dnnl_f32:
        for j in range(n):
            buf[j] = (<const float*>src)[_at(s, j)]
    elif dt == dnnl_bf16:
        for j in range(n):
            buf[j] = bf16_to_f32((<const uint16_t*>src)[_at(s, j)])
    elif dt == dnnl_s8:
        for j in range(n):
            buf[j] = (<const int8_t*>src)[_at(s, j)]
    elif dt == dnnl_u8:
        for j in range(n):
            buf[j] = src[_at(s, j)]
    else:
        for j in range(n):
            buf[j] = load_f32(src, _at(s, j), dt)


cdef void _store(uint8_t* dst, int dt, Access d, int64_t n, const float* buf) noexcept nogil:
    """Element j of the run = buf[j] converted (saturate, round half to even)."""
    cdef int64_t j, ds = d.step, db = d.base
    if d.table == NULL:
        if ds == 1:
            encode_run(dst, db, n, dt, buf)
        elif dt == dnnl_f32:
            for j in range(n):
                (<float*>dst)[db + j * ds] = buf[j]
        elif dt == dnnl_s8:
            for j in range(n):
                (<int8_t*>dst)[db + j * ds] = f32_to_s8(buf[j])
        elif dt == dnnl_u8:
            for j in range(n):
                dst[db + j * ds] = f32_to_u8(buf[j])
        elif dt == dnnl_bf16:
            for j in range(n):
                (<uint16_t*>dst)[db + j * ds] = f32_to_bf16(buf[j])
        else:
            for j in range(n):
                store_f32(dst, db + j * ds, dt, buf[j])
        return
    if dt == dnnl_f32:
        for j in range(n):
            (<float*>dst)[_at(d, j)] = buf[j]
    elif dt == dnnl_s8:
        for j in range(n):
            (<int8_t*>dst)[_at(d, j)] = f32_to_s8(buf[j])
    elif dt == dnnl_u8:
        for j in range(n):
            dst[_at(d, j)] = f32_to_u8(buf[j])
    elif dt == dnnl_bf16:
        for j in range(n):
            (<uint16_t*>dst)[_at(d, j)] = f32_to_bf16(buf[j])
    elif dt == dnnl_f16:
        for j in range(n):
            (<uint16_t*>dst)[_at(d, j)] = f32_to_f16(buf[j])
    elif dt == dnnl_s32:
        for j in range(n):
            (<int32_t*>dst)[_at(d, j)] = f32_to_s32(buf[j])
    else:
        for j in range(n):
            store_f32(dst, _at(d, j), dt, buf[j])


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


cdef void _fused_run(int sdt, int ddt, const uint8_t* src, uint8_t* dst, int64_t n,
                     float a, float dv, float z) noexcept nogil:
    """dst[j] = cvt(a * src[j] / dv + z) on contiguous runs (local pointers, so
    the compiler can vectorise)."""
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
    elif sdt == dnnl_s8:
        for j in range(n):
            of[j] = a * <float>xs8[j] / dv + z
    elif sdt == dnnl_u8:
        for j in range(n):
            of[j] = a * <float>src[j] / dv + z
    else:
        for j in range(n):
            of[j] = a * bf16_to_f32(xbf[j]) / dv + z


cdef bint _fused(const Params* p, const int64_t* base, int64_t j0, int64_t n,
                 Access s, Access d) noexcept nogil:
    """One vectorisable pass for contiguous runs with run-constant scales.

    Multiplying or dividing by an absent scale of 1 is exact, so the loops
    need no branches: dst = cvt(a * x / dv + z), as the reference computes.
    """
    cdef int64_t ia, id_, iz, j
    cdef float a = 1.0, dv = 1.0, z = 0.0
    if (not p.fused or p.used[K_SZP] or p.beta != 0 or s.table != NULL or d.table != NULL
            or s.step != 1 or d.step != 1 or not _fused_ok(p.src_dt, p.dst_dt)):
        return False
    if not (_scalar(p, K_SSC, base, j0, &ia) and _scalar(p, K_DSC, base, j0, &id_)
            and _scalar(p, K_DZP, base, j0, &iz)):
        return False
    if ia >= 0:
        a = p.ssc[ia]
    if id_ >= 0:
        dv = p.dsc[id_]
    if iz >= 0:
        z = <float>p.dzp[iz]
    _fused_run(p.src_dt, p.dst_dt, p.src + s.base * _esz(p.src_dt),
               p.dst + d.base * _esz(p.dst_dt), n, a, dv, z)
    return True


cdef void _convert(const Params* p, const int64_t* base, int64_t j0, int64_t n,
                   Access s, Access d) noexcept nogil:
    """simple:any's arithmetic on one run: fused, or BUF elements at a time."""
    cdef int64_t i, m
    if _fused(p, base, j0, n, s, d):
        return
    for i in range(0, n, BUF):
        m = n - i if n - i < BUF else BUF
        _convert_buf(p, base, j0 + i, m, _shift(s, i), _shift(d, i))


cdef inline Access _shift(Access a, int64_t i) noexcept nogil:
    """The same access, ``i`` elements further along the run."""
    if a.table == NULL:
        a.base = a.base + i * a.step
    else:
        a.table = a.table + i
    return a


cdef void _convert_buf(const Params* p, const int64_t* base, int64_t j0, int64_t n,
                       Access s, Access d) noexcept nogil:
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
            x = _load_i32(p.src, _at(s, j), p.src_dt)
            buf[j] = <float>(<int32_t>(<uint32_t>x - <uint32_t>p.szp[_at(q, j)]))
    else:
        _load(p.src, p.src_dt, s, n, buf)
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
    else:   # oneDNN always adds the (zero) dst zero point: -0 becomes +0
        for j in range(n):
            buf[j] = buf[j] + <float>0.0
    _store(p.dst, p.dst_dt, d, n, buf)


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
        base[k] = 0
    for d in range(p.nd - 2, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        for k in range(NK):
            if p.used[k]:
                base[k] += p.tab[k * MAXD + d][c]
    cdef Access s = _access(p, K_SRC, base[K_SRC], j0)
    cdef Access dd = _access(p, K_DST, base[K_DST], j0)
    if p.convert:
        _convert(p, base, j0, n, s, dd)
    else:
        _copy(p, s, dd, n)


cdef void _tile_item(const Params* p, int64_t item) noexcept nogil:
    """One TILE x TILE block of a transpose: src contiguous along dim nd-2,
    dst contiguous along dim nd-1."""
    cdef int64_t tb = item % p.ntiles_b
    cdef int64_t rest = item // p.ntiles_b
    cdef int64_t ta = rest % p.ntiles_a
    cdef int64_t sbase = 0, dbase = 0, c, na, nb
    cdef int d
    rest = rest // p.ntiles_a
    for d in range(p.nd - 3, -1, -1):
        c = rest % p.sizes[d]
        rest = rest // p.sizes[d]
        sbase += p.tab[K_SRC * MAXD + d][c]
        dbase += p.tab[K_DST * MAXD + d][c]
    na = p.sizes[p.nd - 2] - ta * TILE
    nb = p.sizes[p.nd - 1] - tb * TILE
    if na > TILE:
        na = TILE
    if nb > TILE:
        nb = TILE
    sbase += ta * TILE + tb * TILE * p.src_b_step
    dbase += ta * TILE * p.dst_a_step + tb * TILE
    dnnl_py_transpose32(<const uint32_t*>p.src + sbase, p.src_b_step,
                        <uint32_t*>p.dst + dbase, p.dst_a_step, na, nb)


cdef class Plan:
    """Offset tables for one (src md, dst md, attribute masks) combination."""

    cdef Params p
    cdef object _keep
    cdef readonly int64_t nitems
    cdef readonly object pad_offsets
    cdef readonly bint parallel

    @property
    def path(self):
        """What runs: "tile" (transpose), "copy" (bits), "convert" (f32 math)."""
        return "tile" if self.p.tile else "convert" if self.p.convert else "copy"

    def __init__(self, sizes, tables, linear, bint convert, int esize, int src_dt,
                 int dst_dt, pad_offsets, bint parallel, tile=None, bint fused=True):
        """``tables[k][d]``: int64 array over loop dim ``d`` for index space ``k``
        (``tables[k]`` None when unused; the innermost table None when linear);
        ``linear[k]``: the innermost step when linear, else None."""
        cdef int nd = len(sizes), d, k
        cdef int64_t[::1] view
        self._keep = []
        self.p.nd = nd
        for d in range(nd):
            self.p.sizes[d] = sizes[d]
        self.p.nchunks = (sizes[nd - 1] + CHUNK - 1) // CHUNK
        n_outer = 1
        for d in range(nd - 1):
            n_outer *= sizes[d]
        self.nitems = n_outer * self.p.nchunks if sizes[nd - 1] else 0
        for k in range(NK):
            self.p.used[k] = tables[k] is not None
            self.p.is_lin[k] = linear[k] is not None
            self.p.lin[k] = linear[k] or 0
            for d in range(nd):
                self.p.tab[k * MAXD + d] = NULL
                if tables[k] is not None and tables[k][d] is not None:
                    arr = np.ascontiguousarray(tables[k][d], dtype=np.int64)
                    self._keep.append(arr)
                    if arr.size:
                        view = arr
                        self.p.tab[k * MAXD + d] = &view[0]
        self.p.tile = tile is not None
        if tile is not None:   # (src step along nd-1, dst step along nd-2)
            self.p.src_b_step, self.p.dst_a_step = tile
            self.p.ntiles_a = (sizes[nd - 2] + TILE - 1) // TILE
            self.p.ntiles_b = (sizes[nd - 1] + TILE - 1) // TILE
            self.nitems = (n_outer // sizes[nd - 2] * self.p.ntiles_a * self.p.ntiles_b
                           if all(sizes) else 0)
        self.p.convert = convert
        self.p.fused = fused
        self.p.esize = esize
        self.p.src_dt = src_dt
        self.p.dst_dt = dst_dt
        self.pad_offsets = np.ascontiguousarray(pad_offsets, dtype=np.int64)
        self.parallel = parallel

    def run(self, size_t src, size_t dst, size_t ssc=0, size_t dsc=0,
            size_t szp=0, size_t dzp=0, float beta=0.0, int pad_esize=4):
        """Execute on raw addresses (validated by the caller), GIL released."""
        cdef Params p = self.p
        cdef int64_t i, n = self.nitems
        cdef int64_t[::1] pad = self.pad_offsets
        cdef int64_t npad = pad.shape[0]
        p.src = <const uint8_t*>src
        p.dst = <uint8_t*>dst
        p.ssc = <const float*>ssc
        p.dsc = <const float*>dsc
        p.szp = <const int32_t*>szp
        p.dzp = <const int32_t*>dzp
        p.beta = beta
        cdef int nthr = _max_threads() if self.parallel else 1
        with nogil:
            if p.tile and nthr > 1:
                for i in prange(n, schedule="static", num_threads=nthr):
                    _tile_item(&p, i)
            elif p.tile:
                for i in range(n):
                    _tile_item(&p, i)
            elif nthr > 1:
                for i in prange(n, schedule="static", num_threads=nthr):
                    _item(&p, i)
            else:
                for i in range(n):
                    _item(&p, i)
            if npad:
                _zero(p.dst, &pad[0], npad, pad_esize)


cdef void _zero(uint8_t* dst, const int64_t* offs, int64_t n, int esize) noexcept nogil:
    cdef int64_t j
    if esize == 0:
        for j in range(n):
            _set_nibble(dst, offs[j], 0)
    else:
        for j in range(n):
            memset(dst + offs[j] * esize, 0, esize)


def max_threads():
    """The threads a parallel kernel runs on now (OMP_NUM_THREADS,
    threadpoolctl limits; 1 without OpenMP): dnnl_threads.h decides."""
    return _max_threads()
