# cython: language_level=3
"""Resampling kernels: nearest and linear, forward and backward, any layout.

Everything is driven by per-axis tables built once per primitive
(resampling_plan.py, which also decides every fast path: the plans here only
copy its spec into C structs): logical axes are N, C, D, H, W (missing spatial axes
have extent 1). For every axis and tensor a table gives the physical element
offset of each logical index (separable offsets, DESIGN rule 3); for the
spatial axes of the forward pass each output index also has its source taps
(offsets, indices) and weights ``w_left`` / ``1 - w_left`` (f32).

The innermost loop runs either over **channels** (``inner = 0``: the
destination's channel offsets form unit-stride runs, as in nhwc and the
channel-blocked layouts; src rows that are also unit-stride f32 are read in
place, so the loops vectorise) or over **width** (``inner = 1``: nchw-like;
taps are gathers from one source row per (d, h) tap).

Arithmetic is oneDNN's reference (``ref:any``, src/cpu/ref_resampling.cpp):
linear forward interpolates D, then H, then W, each step
``a * w + b * (1 - w)`` in f32; post-ops in chain order in f32; one
conversion at the store. Backward is a gather: each diff_src element sums
``((dd * wd) * wh) * ww`` over its contributors in the order
(d-tap, h-tap, w-tap, od, oh, ow), starting from +0, so it needs no atomics.

Non-finite data: ``ref:any`` always works in 3-D, the missing axes of a 1D/2D
problem with taps (0, 0) and weights (1, 0), so an inf there meets a zero
weight and becomes NaN. With finite data those phantom terms add +-0 and
change nothing, so the 1D/2D kernels skip them; ``run`` looks for inf/NaN
(one cheap pass over the input first, or over the output after the run: the
spec's ``scan``, resampling_plan._scan_mode) and, when it finds one, runs the
plan as a 3-D one, phantom terms included.

A long W axis on the width-row path (``lazy_sw`` forward, ``lazy_gw``
backward linear) has no per-index tables: the kernel computes its taps,
ranges and weights a chunk at a time with the plan builder's f32 operations
(``rs_coeffs``, ``rs_bwd_ranges``, ``rs_bwd_weights``), so plan memory does
not grow with W.

Inputs are validated by the caller; nothing here checks.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t, uint32_t, uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from dnnl._kernels.cvt cimport load_f32, store_f32
from dnnl._core.dnnl_types cimport (dnnl_bf16, dnnl_binary, dnnl_eltwise, dnnl_f16,
                                       dnnl_f32, dnnl_sum)
from dnnl._kernels.postops cimport binary_op, eltwise_fwd
from dnnl._platform.threads cimport max_threads, parallel_for

cnp.import_array()


cdef extern from "resampling_kernels.h":
    void rs_copy_px(float* o, const float* a, int64_t n) noexcept nogil
    uint32_t rs_lerp_px(float* o, const float* a, const float* b, float w, float m,
                        int64_t n) noexcept nogil
    uint32_t rs_bilerp_px(float* o, const float* h0w0, const float* h0w1,
                          const float* h1w0, const float* h1w1, float wh, float mh,
                          float ww, float mw, int64_t n) noexcept nogil
    uint32_t rs_bilerp_px_nt(float* o, const float* h0w0, const float* h0w1,
                             const float* h1w0, const float* h1w1, float wh, float mh,
                             float ww, float mw, int64_t n) noexcept nogil
    bint rs_nt_ok(const float* o, int64_t n) noexcept nogil
    void rs_sfence() noexcept nogil
    int64_t rs_stream_upto(float* o, const float* a, int64_t i, int64_t upto,
                           int64_t n) noexcept nogil
    uintptr_t rs_stream_copy(float* o, const float* a, int64_t n, uintptr_t pf,
                             uintptr_t pfend) noexcept nogil
    uintptr_t rs_prefetch_to(uintptr_t cursor, uintptr_t end) noexcept nogil
    uintptr_t rs_touch_pages(uintptr_t cursor, uintptr_t end) noexcept nogil
    void rs_flag(int* f) noexcept nogil
    void rs_lerp1(float* o, const float* a, const float* b, float w, float m,
                  int64_t n) noexcept nogil
    void rs_lerp2(float* o, const float* c00, const float* c01, const float* c10,
                  const float* c11, float wh, float mh, float ww, float mw,
                  int64_t n) noexcept nogil
    void rs_lerp3(float* o, const float** r, float wd, float md, float wh, float mh,
                  float ww, float mw, int64_t n) noexcept nogil
    void rs_acc0(float* acc, const float* r, int64_t n) noexcept nogil
    void rs_acc1(float* acc, const float* r, float ww, int64_t n) noexcept nogil
    void rs_acc2(float* acc, const float* r, float wh, float ww, int64_t n) noexcept nogil
    void rs_acc3(float* acc, const float* r, float wd, float wh, float ww,
                 int64_t n) noexcept nogil
    void rs_taps(float* acc, const float* g, int ng, const int* gs, const int64_t* dho,
                 const float* dhd, const float* dhh, int nkw, const int64_t* wb,
                 const int64_t* wo, const float* wwt, int nm, int64_t n) noexcept nogil
    void rs_coeffs(int64_t o0, int64_t m, int64_t n_in, int64_t n_out, int64_t sw,
                   int linear, int64_t* i0, int64_t* i1, float* wl, float* wr) noexcept nogil
    void rs_bwd_x2(float* acc, int64_t lo, int64_t hi, int ng, const int* gs,
                   const float** rows, const float* dhd, const float* dhh, int nkw,
                   const int64_t* a, const float* W, int64_t IW, int nm) noexcept nogil
    void rs_bwd_ranges(int64_t x0, int64_t m, int64_t n_in, int64_t n_out, int role,
                       int64_t* st, int64_t* en) noexcept nogil
    void rs_bwd_weights(int64_t o0, int64_t m, int64_t n_in, int64_t n_out, int role,
                        float* w) noexcept nogil
    void rs_dupc(float* o0, float* o1, const float* a, int64_t ss, int64_t n,
                 int64_t npix) noexcept nogil
    uintptr_t rs_dupc_nt(float* o0, float* o1, const float* a, int64_t ss, int64_t n,
                         int64_t npix, uintptr_t pf, uintptr_t pfend) noexcept nogil
    void rs_gather0(float* o, const float* r, const int64_t* i0, int64_t n) noexcept nogil
    void rs_dup2(float* o, const float* r, int64_t n) noexcept nogil
    void rs_x2w(float* o, const float* v, const float* w, int64_t K, int64_t klo,
                int64_t khi) noexcept nogil
    void rs_take2(float* o, const float* a, int64_t n) noexcept nogil
    void rs_lerp2s(float* o, const float* a, const float* b, const float* ww,
                   const float* mw, int64_t n) noexcept nogil
    void rs_gather1(float* o, const float* r, const int64_t* i0, const int64_t* i1,
                    const float* ww, const float* mw, int64_t n) noexcept nogil
    void rs_gather2(float* o, const float* r0, const float* r1, const int64_t* i0,
                    const int64_t* i1, float wh, float mh, const float* ww, const float* mw,
                    int64_t n) noexcept nogil

DEF MAXPO = 32
DEF AHEAD = 4096        # bytes: how far ahead of its reads a row kernel prefetches


cdef struct PostOps:
    int n
    bint has_sum
    int kind[MAXPO]            # dnnl_sum, dnnl_eltwise or dnnl_binary
    int alg[MAXPO]
    float a[MAXPO]
    float b[MAXPO]
    float scale[MAXPO]
    int dt[MAXPO]
    const uint8_t* ptr[MAXPO]
    const int64_t* tab[MAXPO * 5]     # per entry, per axis N C D H W


cdef struct Fwd:
    int k                 # spatial dims 1..3
    int linear
    int inner             # 0: channel runs, 1: width rows
    int64_t N, C, OD, OH, OW, IW
    int64_t IWspan         # 1 + largest W tap offset of an f32 source row
    int sdt, ddt
    const uint8_t* src
    uint8_t* dst
    const int64_t* sN
    const int64_t* sC
    const int64_t* s0[3]   # tap offsets per output index (D, H, W)
    const int64_t* s1[3]
    const int64_t* i0W     # W tap indices (decoded rows)
    const int64_t* i1W
    const int64_t* sWrow   # src W offsets per input index
    const float* wl[3]
    const float* wr[3]
    const int64_t* dN
    const int64_t* dC
    const int64_t* dS[3]
    bint dW_unit
    int64_t nruns
    const int64_t* run_c0
    const int64_t* run_len
    const uint8_t* run_sunit
    const uint8_t* run_dunit
    int64_t L              # scratch row length
    int64_t ngroups        # > 0: items are groups of output rows that read the
    const int64_t* grp     # same source rows (nearest); grp[g]..grp[g+1]-1
    int64_t row_bytes      # one dense destination row (n, od, oh)
    bint wdup2             # nearest, f32 rows: source column ow // 2 (x2 along W)
    int64_t x2lo, x2hi     # linear, f32 rows: outputs 2k, 2k + 1 for k in [x2lo, x2hi)
    const float* x2w       #   read columns k - 1, k, k + 1 (rs_x2w; its weights)
    int64_t h2a, h2b       # >= 0, f32 rows: W halved, output ow taps columns
                           #   h2a + 2 ow (and h2b + 2 ow) (rs_take2, rs_lerp2s)
    int64_t lazy_sw        # > 0: rows path, W taps computed per chunk of L outputs
                           # (source W stride lazy_sw; s0[2] ... unused)
    int64_t cdup2          # > 0: nearest groups of channel rows x2 along W, source
                           # pixels cdup2 elements apart (rs_dupc)
    int* nonfinite         # not NULL: the plain channel kernels set it when an
                           #   output is inf/NaN (FwdPlan.run)
    bint stream            # 2-D linear plain channel rows: aligned pixels stored
                           #   around the caches (rs_bilerp_px_nt); nearest groups
                           #   of channel rows: staged, then streamed
    int64_t srow_bytes     # nearest groups, streamed: bytes of a source row to prefetch
    int64_t dpage_ahead    # linear, streamed: how far ahead of its stores a row
                           #   touches one line of each destination page (0: not)
    int64_t stage          # > 0: a dense destination row has this many elements:
                           #   rows are built in the scratch, then streamed
                           #   (rs_stream_copy; linear: when misaligned)
    PostOps po


cdef struct Bwd:
    int k
    int linear
    int inner
    int64_t N, C, ID, IH, IW, OW
    int gdt, sdt           # diff_dst, diff_src data types
    const uint8_t* dd
    uint8_t* ds
    const int64_t* gN
    const int64_t* gC
    const int64_t* gS[3]   # diff_dst offsets per output index
    const int64_t* dN
    const int64_t* dC
    const int64_t* dS[3]   # diff_src offsets per input index
    bint dW_unit
    int nroles[3]
    const int64_t* rs[6]   # range start per input index: [axis * 2 + role]
    const int64_t* re[6]
    const float* wt[6]     # weight per output index
    const int64_t* ident   # 0, 1, 2, ... (decoded-row indices)
    const int64_t* wlb     # channel runs: per iw, the W taps [wlb[3iw + kw], wlb[3iw + kw + 1])
    const int64_t* wlo     #   of role kw: their diff_dst offsets
    const float* wlw       #   and weights
    int64_t lazy_gw        # > 0: linear rows, W ranges and weights computed per chunk
    int64_t lazy_cin       #   of lazy_cin columns (diff_dst W stride lazy_gw)
    int64_t x2lo, x2hi     # rows, f32 unit-stride diff_dst: columns [x2lo, x2hi) gather
    const int64_t* x2a     #   outputs 2 iw + x2a[kw] + e (e = 0, 1) with weights
    const float* x2W       #   x2W[(2 kw + e) * IW + iw] (rs_bwd_x2)
    int64_t nruns
    const int64_t* run_c0
    const int64_t* run_len
    const uint8_t* run_gunit
    const uint8_t* run_dunit
    int64_t L


cdef inline int64_t _axis(int64_t* rest, int64_t n) noexcept nogil:
    """The index along an axis of extent ``n`` of the flat item number in
    ``rest`` (innermost axis first); ``rest`` keeps the outer part."""
    cdef int64_t i = rest[0] % n
    rest[0] = rest[0] // n
    return i


cdef inline const int64_t* _p64(cnp.ndarray a):
    return <const int64_t*>cnp.PyArray_DATA(a)


cdef inline const float* _pf(cnp.ndarray a):
    return <const float*>cnp.PyArray_DATA(a)


cdef inline const uint8_t* _pu8(cnp.ndarray a):
    return <const uint8_t*>cnp.PyArray_DATA(a)


# ----------------------------------------------------------------- post-ops
cdef inline void _post_ops(const PostOps* po, float* out, const float* old, int64_t L,
                           const int64_t* b1base, int inner_axis, int64_t start) noexcept nogil:
    cdef int e
    cdef int64_t i
    cdef float r
    cdef const int64_t* t
    for i in range(L):
        r = out[i]
        for e in range(po.n):
            if po.kind[e] == dnnl_sum:
                r = r + po.scale[e] * old[i]
            elif po.kind[e] == dnnl_eltwise:
                r = eltwise_fwd(po.alg[e], r, po.a[e], po.b[e])
                if po.scale[e] != 1.0:
                    r = r * po.scale[e]
            else:
                t = po.tab[e * 5 + inner_axis]
                r = binary_op(po.alg[e], r, load_f32(po.ptr[e], b1base[e] + t[start + i],
                                                     po.dt[e]))
        out[i] = r


cdef inline void _load_row(const uint8_t* base, int64_t off, const int64_t* tab, bint unit,
                           int64_t L, int dt, float* out) noexcept nogil:
    cdef int64_t i
    if unit:
        if dt == dnnl_f32:
            memcpy(out, base + (off + tab[0]) * 4, <size_t>L * 4)
        else:
            for i in range(L):
                out[i] = load_f32(base, off + tab[0] + i, dt)
    else:
        for i in range(L):
            out[i] = load_f32(base, off + tab[i], dt)


cdef inline void _store_row(uint8_t* base, int64_t off, const int64_t* tab, bint unit,
                            int64_t L, int dt, const float* vals) noexcept nogil:
    cdef int64_t i
    if unit:
        if dt == dnnl_f32:
            memcpy(base + (off + tab[0]) * 4, vals, <size_t>L * 4)
        else:
            for i in range(L):
                store_f32(base, off + tab[0] + i, dt, vals[i])
    else:
        for i in range(L):
            store_f32(base, off + tab[i], dt, vals[i])


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
                # caches the hardware prefetchers do better alone (x1/2 NHWC
                # 8x64x56x56 on a Zen 5, one thread: 0.62 -> 0.48 ms)
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
    cdef int64_t g = _axis(&rest, p.ngroups)
    cdef int64_t od = _axis(&rest, p.OD)
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
    cdef int64_t oh = _axis(&rest, p.OH)
    cdef int64_t od = _axis(&rest, p.OD)
    cdef int64_t n = rest
    cdef int ntaps = (1 << p.k) if p.linear else 1
    cdef float* out = scratch
    cdef float* old = scratch + p.L
    cdef float* bufs = scratch + 2 * p.L
    cdef const float* rows[8]
    cdef int64_t sp[8]
    cdef int64_t b1[MAXPO]
    cdef int64_t ow, r, c0, L, sbase, dbase
    cdef int t, kd, kh, kw, e
    cdef bint direct
    cdef float* dptr
    cdef const float* sf = <const float*>p.src
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
                    _load_row(p.src, sbase + sp[t], p.sC + c0, p.run_sunit[r], L, p.sdt,
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
                    _load_row(p.dst, dbase, p.dC + c0, p.run_dunit[r], L, p.ddt, old)
                _post_ops(&p.po, out, old, L, b1, 1, c0)
            _store_row(p.dst, dbase, p.dC + c0, p.run_dunit[r], L, p.ddt, out)


# -------------------------------------------------------- forward, width rows
cdef inline int64_t _row_len(const Fwd* p, bint f32src) noexcept nogil:
    """Elements of a source row as the W tap indices address it: the physical
    row of an f32 source (indices are offsets), or the decoded row."""
    return p.IWspan if f32src else p.IW


cdef void _fwd_w_item(const Fwd* p, int64_t item, float* scratch) noexcept nogil:
    cdef int64_t rest = item
    cdef int64_t oh = _axis(&rest, p.ngroups if p.ngroups else p.OH)
    cdef int64_t od = _axis(&rest, p.OD)
    cdef int64_t c = _axis(&rest, p.C)
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
                    _load_row(p.dst, dbase + o0, p.dS[2], True, m, p.ddt, old)
                _post_ops(&p.po, out, old, m, b1, 4, o0)
            _store_row(p.dst, dbase + o0, p.dS[2], True, m, p.ddt, out)
        o0 += m


cdef void _fwd_w_row(const Fwd* p, int64_t n, int64_t c, int64_t od, int64_t oh,
                     float* scratch) noexcept nogil:
    cdef float* out = scratch
    cdef float* old = scratch + p.L
    cdef float* bufs = scratch + 2 * p.L
    cdef const float* rows[4]
    cdef const int64_t* i0
    cdef const int64_t* i1
    cdef int64_t b1[MAXPO]
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
            _load_row(p.dst, dbase, p.dS[2], p.dW_unit, OW, p.ddt, old)
        for e in range(p.po.n):
            if p.po.kind[e] == dnnl_binary:
                b1[e] = (p.po.tab[e * 5][n] + p.po.tab[e * 5 + 1][c]
                         + p.po.tab[e * 5 + 2][od] + p.po.tab[e * 5 + 3][oh])
        _post_ops(&p.po, out, old, OW, b1, 4, 0)
    _store_row(p.dst, dbase, p.dS[2], p.dW_unit, OW, p.ddt, out)


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
    cdef int64_t ih = _axis(&rest, p.IH)
    cdef int64_t id_ = _axis(&rest, p.ID)
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
                    _store_row(p.ds, dbase, p.dC + c0, p.run_dunit[r], L, p.sdt, acc)
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
                                        _load_row(p.dd, goff, p.gC + c0, p.run_gunit[r], L,
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
                _store_row(p.ds, dbase, p.dC + c0, p.run_dunit[r], L, p.sdt, acc)


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
    cdef int64_t ih = _axis(&rest, p.IH)
    cdef int64_t id_ = _axis(&rest, p.ID)
    cdef int64_t c = _axis(&rest, p.C)
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
        _store_row(p.ds, dbase, p.dS[2], p.dW_unit, IW, p.sdt, acc)


# ------------------------------------------------------- non-finite inputs
cdef extern from *:
    """
    /* Any inf or NaN among n elements (exponent field all ones): the field
       plus its lowest bit carries into the sign bit only then. Branch-free
       blocks, so the scan runs at memory speed. */
    #define RS_NF_BLOCK 4096
    static int rs_nonfinite32(const void* base, int64_t n) {
        const uint32_t* p = (const uint32_t*)base;
        for (int64_t b = 0; b < n; b += RS_NF_BLOCK) {
            int64_t e = n - b < RS_NF_BLOCK ? n - b : RS_NF_BLOCK;
            uint32_t acc = 0;
            for (int64_t i = 0; i < e; i++) acc |= (p[b + i] & 0x7f800000u) + 0x00800000u;
            if (acc & 0x80000000u) return 1;
        }
        return 0;
    }
    static int rs_nonfinite16(const void* base, int64_t n, uint16_t m, uint16_t one) {
        const uint16_t* p = (const uint16_t*)base;
        for (int64_t b = 0; b < n; b += RS_NF_BLOCK) {
            int64_t e = n - b < RS_NF_BLOCK ? n - b : RS_NF_BLOCK;
            uint16_t acc = 0;
            for (int64_t i = 0; i < e; i++) acc |= (uint16_t)((p[b + i] & m) + one);
            if (acc & 0x8000u) return 1;
        }
        return 0;
    }
    """
    int rs_nonfinite32(const void* p, int64_t n) noexcept nogil
    int rs_nonfinite16(const void* p, int64_t n, unsigned short m,
                       unsigned short one) noexcept nogil


cdef bint _has_nonfinite(const uint8_t* base, int dt, int64_t lo, int64_t hi) noexcept nogil:
    """Any inf/NaN among elements lo..hi (inclusive) of a ``dt`` buffer."""
    if hi < lo:
        return False
    if dt == dnnl_f32:
        return rs_nonfinite32(base + lo * 4, hi - lo + 1) != 0
    if dt == dnnl_bf16:
        return rs_nonfinite16(base + lo * 2, hi - lo + 1, 0x7f80, 0x0080) != 0
    if dt == dnnl_f16:
        return rs_nonfinite16(base + lo * 2, hi - lo + 1, 0x7c00, 0x0400) != 0
    return False        # integers are always finite


cdef enum:
    SCAN_NONE = 0
    SCAN_INPUT = 1      # scan the input first, run in 3-D if inf/NaN is there
    SCAN_OUTPUT = 2     # run, scan the output, run again in 3-D if inf/NaN is there


# the spec's scan modes (resampling_plan._scan_mode)
_SCAN = {"none": SCAN_NONE, "input": SCAN_INPUT, "output": SCAN_OUTPUT}


cdef void _bwd_3d(Bwd* q) noexcept nogil:
    """ref:any's 3-D form: both taps of each missing axis, the phantom one
    with weight 0 (inf * 0 -> NaN)."""
    cdef int i
    for i in range(3 - q.k):
        q.nroles[i] = 2
    q.k = 3


# ------------------------------------------------------------ padding
cdef void _zero_offsets(uint8_t* base, const int64_t* offs, int64_t n, int esize) noexcept nogil:
    cdef int64_t i
    for i in range(n):
        memset(base + offs[i] * esize, 0, esize)


def _arr64(a):
    return np.ascontiguousarray(a, dtype=np.int64)


def _arrf(a):
    return np.ascontiguousarray(a, dtype=np.float32)


ctypedef void (*item_fn)(const void* plan, int64_t item, float* scratch) noexcept nogil


cdef void _fwd_item(const void* plan, int64_t item, float* scratch) noexcept nogil:
    cdef const Fwd* p = <const Fwd*>plan
    if p.inner == 0:
        _fwd_c_item(p, item, scratch)
    else:
        _fwd_w_item(p, item, scratch)


cdef void _bwd_item(const void* plan, int64_t item, float* scratch) noexcept nogil:
    cdef const Bwd* p = <const Bwd*>plan
    if p.inner:
        _bwd_w_item(p, item, scratch)
        return
    _bwd_c_item(p, item, scratch)


cdef struct ItemsJob:
    const void* plan
    item_fn fn
    char* block
    size_t nscr


cdef void _items_range(const void* ctx, int64_t begin, int64_t end, int slot) noexcept nogil:
    cdef const ItemsJob* j = <const ItemsJob*>ctx
    cdef float* scratch = <float*>(j.block + <size_t>slot * j.nscr)
    cdef int64_t i
    for i in range(begin, end):
        j.fn(j.plan, i, scratch)


cdef bint _run_items(const void* plan, item_fn fn, int64_t nitems, size_t nscr,
                     bint par) noexcept nogil:
    """Run every item, in parallel when ``par``, each thread with its own
    scratch rows, all allocated before any item runs: True (nothing written)
    when they cannot be."""
    cdef int nthr = max_threads() if par and nitems > 1 else 1
    cdef ItemsJob j
    j.block = <char*>malloc(<size_t>nthr * nscr)
    if j.block == NULL:
        return True
    j.plan, j.fn, j.nscr = plan, fn, nscr
    parallel_for(nitems, nthr, _items_range, &j, plan)
    free(j.block)
    return False


cdef class _Tables:
    """Base of the plans: keeps alive the numpy arrays their pointers address,
    and reads the fields forward and backward specs share."""
    cdef list keep
    cdef int64_t nitems
    cdef bint parallel
    cdef cnp.ndarray pad
    cdef int esize
    cdef int scan             # 1D/2D linear: how to look for inf/NaN (SCAN_*)
    cdef int64_t scan_lo, scan_hi

    cdef void _shared(self, d, int* k, int* linear, int* inner, int64_t* nruns,
                      const int64_t** c0, const int64_t** length,
                      const uint8_t** in_unit, const uint8_t** out_unit):
        """The loop shape (``k``, ``linear``, ``inner``), channel runs (the read
        tensor's unit flags, then the written one's), threading, padding."""
        self.keep = []
        k[0], linear[0], inner[0] = d.k, d.linear, d.inner
        runs = d.runs
        nruns[0] = len(runs[0])
        c0[0] = self.i64(runs[0])
        length[0] = self.i64(runs[1])
        in_unit[0] = self.u8(runs[2])
        out_unit[0] = self.u8(runs[3])
        self.parallel = d.parallel
        self.pad = _arr64(d.pad)
        self.esize = d.esize
        self.nitems = d.nitems
        mode, self.scan_lo, self.scan_hi = d.scan
        self.scan = _SCAN[mode]

    cdef _launch(self, const void* plan, item_fn fn, uint8_t* dst, size_t nscr):
        """Run every item, then zero the padding of ``dst``; MemoryError, with
        nothing written, when the scratch rows cannot be allocated."""
        cdef int64_t nitems = self.nitems, npad = self.pad.shape[0]
        cdef const int64_t* pad = _p64(self.pad)
        cdef bint par = self.parallel, failed
        cdef int esize = self.esize
        with nogil:
            failed = _run_items(plan, fn, nitems, nscr, par)
            if npad and not failed:
                _zero_offsets(dst, pad, npad, esize)
        if failed:
            raise MemoryError("no memory for the resampling scratch rows")

    @property
    def table_bytes(self):
        """Bytes of the tables the plan holds (its metadata)."""
        return sum(a.nbytes for a in self.keep) + self.pad.nbytes

    cdef const int64_t* i64(self, x):
        arr = _arr64(x)
        self.keep.append(arr)
        return _p64(arr)

    cdef const float* f32(self, x):
        arr = _arrf(x)
        self.keep.append(arr)
        return _pf(arr)

    cdef const uint8_t* u8(self, x):
        arr = np.ascontiguousarray(x, dtype=np.uint8)
        self.keep.append(arr)
        return _pu8(arr)


cdef class FwdPlan(_Tables):
    """A forward resampling plan, from a ``resampling_plan.FwdSpec``: its
    fields copied into C, every path decided there."""
    cdef Fwd p
    cdef readonly bint checks_outputs   # the plain channel kernels check what they store

    def __init__(self, d):
        cdef int a, e, j
        cdef Fwd* p = &self.p
        self._shared(d, &p.k, &p.linear, &p.inner, &p.nruns, &p.run_c0, &p.run_len,
                     &p.run_sunit, &p.run_dunit)
        p.N, p.C, p.OD, p.OH, p.OW = d.N, d.C, d.OD, d.OH, d.OW
        p.IW = d.IW
        p.IWspan = d.IWspan
        p.sdt, p.ddt = d.sdt, d.ddt
        p.sN = self.i64(d.sN)
        p.sC = self.i64(d.sC)
        for a in range(3):
            p.s0[a] = self.i64(d.s0[a])
            p.s1[a] = self.i64(d.s1[a])
            p.wl[a] = self.f32(d.wl[a])
            p.wr[a] = self.f32(d.wr[a])
            p.dS[a] = self.i64(d.dS[a])
        p.i0W = self.i64(d.i0W)
        p.i1W = self.i64(d.i1W)
        p.sWrow = self.i64(d.sWrow)
        p.dN = self.i64(d.dN)
        p.dC = self.i64(d.dC)
        p.dW_unit = d.dW_unit
        p.L = d.L
        po = d.post_ops
        p.po.n = len(po)
        p.po.has_sum = False
        for e in range(len(po)):
            ent = po[e]
            p.po.kind[e] = ent.kind
            p.po.alg[e] = ent.alg
            p.po.a[e] = ent.alpha
            p.po.b[e] = ent.beta
            p.po.scale[e] = ent.scale
            p.po.dt[e] = ent.dt if ent.kind == dnnl_binary else dnnl_f32
            p.po.ptr[e] = NULL
            if ent.kind == dnnl_sum:
                p.po.has_sum = True
            for j in range(5):
                p.po.tab[e * 5 + j] = (self.i64(ent.tabs[j]) if ent.kind == dnnl_binary
                                       else NULL)
        p.lazy_sw = d.lazy_sw
        p.wdup2 = d.wdup2
        p.x2lo, p.x2hi = d.x2_columns
        if d.x2_weights is not None:
            p.x2w = self.f32(d.x2_weights)
        p.h2a, p.h2b = d.halved
        p.ngroups = 0
        if d.row_groups is not None:
            p.grp = self.i64(d.row_groups)
            p.ngroups = len(d.row_groups) - 1
        p.row_bytes = d.row_bytes
        p.cdup2 = d.cdup2
        p.nonfinite = NULL
        self.checks_outputs = d.checks_outputs
        p.stream = d.stream
        p.stage = d.stage
        p.srow_bytes = d.srow_bytes
        p.dpage_ahead = d.dpage_ahead

    @property
    def path(self):
        """What runs: "channels" (channel runs: nhwc, blocked), "rows" (width
        rows: nchw), "channels+copy" / "rows+copy" (repeated rows copied whole)."""
        return (("rows" if self.p.inner else "channels")
                + ("+copy" if self.p.ngroups else ""))

    @property
    def lazy_w(self):
        """Whether the kernel computes the W taps (a long W: no W tables)."""
        return self.p.lazy_sw > 0

    @property
    def streams(self):
        """Whether aligned output pixels are stored around the caches."""
        return self.p.stream

    @property
    def dpage_ahead(self):
        """How far (bytes) ahead of its streamed stores a linear row prefetches
        one line of each destination page (0: not)."""
        return self.p.dpage_ahead

    @property
    def row_groups(self):
        """Groups of repeated output rows copied whole (0: not used)."""
        return self.p.ngroups

    @property
    def halved_columns(self):
        """Whether every output column taps every other source column (W
        halved) and runs without gathers."""
        return self.p.h2a >= 0

    @property
    def x2_columns(self):
        """The range of k whose outputs 2k, 2k + 1 run without gathers (linear
        x2 along W; (0, 0): not used)."""
        return (self.p.x2lo, self.p.x2hi)

    def run(self, size_t src, size_t dst, list src1=None):
        cdef Fwd q = self.p
        cdef int e
        # 10 rows of L, then the staging row (aligned to 64 bytes)
        cdef size_t nscr = (<size_t>(2 + 8) * <size_t>max(q.L, 1) + <size_t>q.stage + 16) * 4
        cdef int nonfinite = 0
        q.src = <const uint8_t*>src
        q.dst = <uint8_t*>dst
        if src1 is not None:
            for e in range(q.po.n):
                if src1[e] is not None:
                    q.po.ptr[e] = <const uint8_t*><size_t>src1[e]
        if self.scan != SCAN_NONE and self.checks_outputs:
            # the kernels check what they store: no pass over either buffer
            q.nonfinite = &nonfinite
            self._launch(&q, _fwd_item, q.dst, nscr)
            if nonfinite:
                q.k = 3
                q.nonfinite = NULL
                self._launch(&q, _fwd_item, q.dst, nscr)
            return
        if self.scan == SCAN_INPUT and _has_nonfinite(q.src, q.sdt, self.scan_lo,
                                                      self.scan_hi):
            # ref:any's 3-D form: the missing axes' taps are (0, 0) with
            # weights (1, 0) in the plan already; the k == 3 kernels compute
            # those phantom terms (inf * 0 -> NaN)
            q.k = 3
        self._launch(&q, _fwd_item, q.dst, nscr)
        if (self.scan == SCAN_OUTPUT and q.k < 3
                and _has_nonfinite(q.dst, q.ddt, self.scan_lo, self.scan_hi)):
            q.k = 3
            self._launch(&q, _fwd_item, q.dst, nscr)


cdef class BwdPlan(_Tables):
    """A backward resampling plan, from a ``resampling_plan.BwdSpec``."""
    cdef Bwd p

    @property
    def lazy_w(self):
        """Whether the kernel computes the W ranges and weights (a long W)."""
        return self.p.lazy_gw > 0

    @property
    def path(self):
        """What runs: "channels" (nhwc, blocked) or "rows" (nchw), as a gather."""
        return "channels" if self.p.inner == 0 else "rows"

    def __init__(self, d):
        cdef int a, j
        cdef Bwd* p = &self.p
        self._shared(d, &p.k, &p.linear, &p.inner, &p.nruns, &p.run_c0, &p.run_len,
                     &p.run_gunit, &p.run_dunit)
        p.N, p.C, p.ID, p.IH, p.IW, p.OW = d.N, d.C, d.ID, d.IH, d.IW, d.OW
        p.gdt, p.sdt = d.gdt, d.sdt
        p.gN = self.i64(d.gN)
        p.gC = self.i64(d.gC)
        p.dN = self.i64(d.dN)
        p.dC = self.i64(d.dC)
        for a in range(3):
            p.gS[a] = self.i64(d.gS[a])
            p.dS[a] = self.i64(d.dS[a])
            p.nroles[a] = d.nroles[a]
        for j in range(6):
            p.rs[j] = self.i64(d.rs[j])
            p.re[j] = self.i64(d.re[j])
            p.wt[j] = self.f32(d.wt[j])
        p.ident = self.i64(d.ident)
        p.lazy_gw = d.lazy_gw
        p.L = d.L
        p.lazy_cin = d.lazy_cin
        p.x2lo = p.x2hi = 0
        if d.x2_w is not None:
            p.x2lo, p.x2hi = d.x2_w[0], d.x2_w[1]
            p.x2a, p.x2W = self.i64(d.x2_w[2]), self.f32(d.x2_w[3])
        if d.w_taps is not None:
            wb, wo, ww = d.w_taps
            p.wlb, p.wlo, p.wlw = self.i64(wb), self.i64(wo), self.f32(ww)
        p.dW_unit = d.dW_unit

    def run(self, size_t dd, size_t ds):
        cdef Bwd q = self.p
        cdef size_t nscr = <size_t>(8 if q.lazy_gw else 2) * <size_t>max(q.L, 1) * 4
        q.dd = <const uint8_t*>dd
        q.ds = <uint8_t*>ds
        if self.scan == SCAN_INPUT and _has_nonfinite(q.dd, q.gdt, self.scan_lo,
                                                      self.scan_hi):
            _bwd_3d(&q)
        self._launch(&q, _bwd_item, q.ds, nscr)
        if (self.scan == SCAN_OUTPUT and q.k < 3
                and _has_nonfinite(q.ds, q.sdt, self.scan_lo, self.scan_hi)):
            _bwd_3d(&q)
            self._launch(&q, _bwd_item, q.ds, nscr)
