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

from dnnl._kernels.cvt cimport (bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16,
                                f32_to_s8, f32_to_s32, f32_to_u8, get_nibble,
                                load_f32, store_f32)

cnp.import_array()

DEF MAXD = 13
DEF NK = 6
DEF CHUNK = 512

cdef enum:
    K_SRC = 0
    K_DST = 1
    K_SSC = 2
    K_DSC = 3
    K_SZP = 4
    K_DZP = 5

# data type codes (include/dnnl_types.h)
cdef enum:
    DT_F16 = 1
    DT_BF16 = 2
    DT_F32 = 3
    DT_S32 = 4
    DT_S8 = 5
    DT_U8 = 6
    DT_S4 = 11
    DT_U4 = 12

cdef struct Params:
    int nd
    int64_t sizes[MAXD]
    int64_t nchunks
    const int64_t* tab[NK * MAXD]
    int64_t lin[NK]          # innermost step when is_lin, else unused
    bint is_lin[NK]          # innermost dim linear: no table
    bint used[NK]
    bint convert              # 0: bit copy, 1: f32 path
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


cdef inline void _offsets(const Params* p, int k, int64_t base, int64_t j0, int64_t n,
                          int64_t* out) noexcept nogil:
    cdef int64_t j, s = p.lin[k]
    cdef const int64_t* t
    if p.is_lin[k]:
        for j in range(n):
            out[j] = base + (j0 + j) * s
    else:
        t = p.tab[k * MAXD + p.nd - 1] + j0
        for j in range(n):
            out[j] = base + t[j]


cdef inline int32_t _load_i32(const uint8_t* b, int64_t off, int dt) noexcept nogil:
    cdef uint8_t nib
    if dt == DT_S8:
        return (<const int8_t*>b)[off]
    if dt == DT_U8:
        return b[off]
    if dt == DT_S32:
        return (<const int32_t*>b)[off]
    nib = get_nibble(b, off)
    if dt == DT_S4:
        return (<int32_t>nib ^ 8) - 8
    return nib


cdef void _copy(const Params* p, const int64_t* so, const int64_t* do_, int64_t n) noexcept nogil:
    cdef int64_t j
    cdef int es = p.esize
    if es == 4:
        for j in range(n):
            (<uint32_t*>p.dst)[do_[j]] = (<const uint32_t*>p.src)[so[j]]
    elif es == 1:
        for j in range(n):
            p.dst[do_[j]] = p.src[so[j]]
    elif es == 2:
        for j in range(n):
            (<uint16_t*>p.dst)[do_[j]] = (<const uint16_t*>p.src)[so[j]]
    elif es == 8:
        for j in range(n):
            (<uint64_t*>p.dst)[do_[j]] = (<const uint64_t*>p.src)[so[j]]
    else:  # nibbles
        for j in range(n):
            _set_nibble(p.dst, do_[j], get_nibble(p.src, so[j]))


cdef inline void _set_nibble(uint8_t* b, int64_t off, uint8_t v) noexcept nogil:
    cdef int64_t i = off >> 1
    if off & 1:
        b[i] = (b[i] & 0x0F) | ((v & 0x0F) << 4)
    else:
        b[i] = (b[i] & 0xF0) | (v & 0x0F)


cdef void _load(const Params* p, const int64_t* so, int64_t n, float* buf) noexcept nogil:
    cdef int64_t j
    cdef int dt = p.src_dt
    if dt == DT_F32:
        for j in range(n):
            buf[j] = (<const float*>p.src)[so[j]]
    elif dt == DT_S8:
        for j in range(n):
            buf[j] = (<const int8_t*>p.src)[so[j]]
    elif dt == DT_U8:
        for j in range(n):
            buf[j] = p.src[so[j]]
    elif dt == DT_BF16:
        for j in range(n):
            buf[j] = bf16_to_f32((<const uint16_t*>p.src)[so[j]])
    elif dt == DT_F16:
        for j in range(n):
            buf[j] = f16_to_f32((<const uint16_t*>p.src)[so[j]])
    else:
        for j in range(n):
            buf[j] = load_f32(p.src, so[j], dt)


cdef void _store(const Params* p, const int64_t* do_, int64_t n, const float* buf) noexcept nogil:
    cdef int64_t j
    cdef int dt = p.dst_dt
    if dt == DT_F32:
        for j in range(n):
            (<float*>p.dst)[do_[j]] = buf[j]
    elif dt == DT_S8:
        for j in range(n):
            (<int8_t*>p.dst)[do_[j]] = f32_to_s8(buf[j])
    elif dt == DT_U8:
        for j in range(n):
            p.dst[do_[j]] = f32_to_u8(buf[j])
    elif dt == DT_BF16:
        for j in range(n):
            (<uint16_t*>p.dst)[do_[j]] = f32_to_bf16(buf[j])
    elif dt == DT_F16:
        for j in range(n):
            (<uint16_t*>p.dst)[do_[j]] = f32_to_f16(buf[j])
    elif dt == DT_S32:
        for j in range(n):
            (<int32_t*>p.dst)[do_[j]] = f32_to_s32(buf[j])
    else:
        for j in range(n):
            store_f32(p.dst, do_[j], dt, buf[j])


cdef void _convert(const Params* p, const int64_t* base, int64_t j0, int64_t n,
                   const int64_t* so, const int64_t* do_) noexcept nogil:
    cdef float buf[CHUNK]
    cdef int64_t idx[CHUNK]
    cdef int64_t j
    cdef int32_t x, z
    cdef float beta = p.beta
    if p.used[K_SZP]:   # integer source: subtract the zero point in int32
        _offsets(p, K_SZP, base[K_SZP], j0, n, idx)
        for j in range(n):
            x = _load_i32(p.src, so[j], p.src_dt)
            z = p.szp[idx[j]]
            buf[j] = <float>(<int32_t>(<uint32_t>x - <uint32_t>z))
    else:
        _load(p, so, n, buf)
    if p.used[K_SSC]:
        _offsets(p, K_SSC, base[K_SSC], j0, n, idx)
        for j in range(n):
            buf[j] = p.ssc[idx[j]] * buf[j]
    if beta != 0:
        for j in range(n):
            buf[j] = buf[j] + beta * load_f32(p.dst, do_[j], p.dst_dt)
    if p.used[K_DSC]:
        _offsets(p, K_DSC, base[K_DSC], j0, n, idx)
        for j in range(n):
            buf[j] = buf[j] / p.dsc[idx[j]]
    if p.used[K_DZP]:
        _offsets(p, K_DZP, base[K_DZP], j0, n, idx)
        for j in range(n):
            buf[j] = buf[j] + <float>p.dzp[idx[j]]
    else:
        for j in range(n):
            buf[j] = buf[j] + 0.0
    _store(p, do_, n, buf)


cdef void _item(const Params* p, int64_t item) noexcept nogil:
    """One work item: CHUNK innermost elements at one outer position."""
    cdef int64_t base[NK]
    cdef int64_t so[CHUNK]
    cdef int64_t do_[CHUNK]
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
    _offsets(p, K_SRC, base[K_SRC], j0, n, so)
    _offsets(p, K_DST, base[K_DST], j0, n, do_)
    if p.convert:
        _convert(p, base, j0, n, so, do_)
    elif (p.esize and p.is_lin[K_SRC] and p.is_lin[K_DST] and p.lin[K_SRC] == 1
          and p.lin[K_DST] == 1):
        memcpy(p.dst + do_[0] * p.esize, p.src + so[0] * p.esize, n * p.esize)
    else:
        _copy(p, so, do_, n)


cdef class Plan:
    """Offset tables for one (src md, dst md, attribute masks) combination."""

    cdef Params p
    cdef object _keep
    cdef readonly int64_t nitems
    cdef readonly object pad_offsets
    cdef readonly bint parallel

    def __init__(self, sizes, tables, linear, bint convert, int esize, int src_dt,
                 int dst_dt, pad_offsets, bint parallel):
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
        self.p.convert = convert
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
        with nogil:
            if self.parallel:
                for i in prange(n, schedule="static"):
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
