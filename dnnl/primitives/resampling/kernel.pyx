# cython: language_level=3
"""Resampling kernels: nearest and linear, forward and backward, any layout.

Everything is driven by per-axis tables built once per primitive (plan.py
beside this file, which also decides every fast path: the plans here only
copy its spec into C structs): logical axes are N, C, D, H, W (missing
spatial axes have extent 1). For every axis and tensor a table gives the
physical element offset of each logical index (separable offsets: design
rule 3 of docs/internals/architecture.md); for the spatial axes of the forward pass each output index also has its source taps
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
spec's ``scan``, plan._scan_mode) and, when it finds one, runs the
plan as a 3-D one, phantom terms included.

A long W axis on the width-row path (``lazy_sw`` forward, ``lazy_gw``
backward linear) has no per-index tables: the kernel computes its taps,
ranges and weights a chunk at a time with the plan builder's f32 operations
(``rs_coeffs``, ``rs_bwd_ranges``, ``rs_bwd_weights``), so plan memory does
not grow with W.

The module is one extension built from this file, the structs of its plans
(``kernel.pxd``), the forward and backward items it includes
(``_kernel/fwd.pxi``, ``_kernel/bwd.pxi``) and what the spatial kernels share
(``dnnl/_kernels/spatial.pxd``: post-ops, rows through an offset table).

Inputs are validated by the caller; nothing here checks.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from dnnl._kernels.cvt cimport decode_run, encode_run, load_f32, store_f32
from dnnl._core.dnnl_types cimport (dnnl_bf16, dnnl_binary, dnnl_eltwise, dnnl_f16,
                                       dnnl_f32, dnnl_s8, dnnl_sum, dnnl_u8)
from dnnl._kernels.spatial cimport (MAX_POST_OPS, PostOps, apply_post_ops, axis_index,
                                     load_row, pack_post_ops, store_row, zero_offsets)
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
    bint rs_any_nonfinite(const float* a, int64_t n) noexcept nogil
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


cdef extern from "pixel_rows.h":
    void rs_lerp1_u8(float* o, const uint8_t* a, const uint8_t* b, float w, float m,
                     int64_t n) noexcept nogil
    void rs_pv_plan(const int32_t* i0, const int32_t* i1, const float* ww, const float* mw,
                    int64_t n, int64_t nr, int64_t C, int32_t* base, int32_t* base_b,
                    int32_t* a, int32_t* b, rs_pv_wins* pw) noexcept nogil
    uint32_t rs_wstep1_32(float* o, const float* r, const rs_pv_wins* pw, const int32_t* i0,
                          const int32_t* i1, const float* ww, const float* mw, int64_t n,
                          bint check) noexcept nogil
    int64_t rs_wstep1_u8(uint8_t* d, float* o, const float* r, const rs_pv_wins* pw,
                         const int32_t* i0, const int32_t* i1, const float* ww,
                         const float* mw, int64_t n, bint check, uint32_t* acc) noexcept nogil
    void rs_wstep0_32(float* o, const float* r, int64_t nr, const int32_t* i0, int64_t n,
                      int64_t C) noexcept nogil
    void rs_take_u8(uint8_t* o, const uint8_t* r, int64_t nr, const int32_t* i0, int64_t n,
                    int64_t C) noexcept nogil

cdef extern from "u8_halving.h":
    void dnnl_py_half_u8(uint8_t* d, const uint8_t* a, const uint8_t* b, int64_t n,
                         int64_t C) noexcept nogil

DEF AHEAD = 4096        # bytes: how far ahead of its reads a row kernel prefetches


cdef inline const int64_t* _p64(cnp.ndarray a):
    return <const int64_t*>cnp.PyArray_DATA(a)


cdef inline const float* _pf(cnp.ndarray a):
    return <const float*>cnp.PyArray_DATA(a)


cdef inline const uint8_t* _pu8(cnp.ndarray a):
    return <const uint8_t*>cnp.PyArray_DATA(a)


include "_kernel/fwd_pix.pxi"

include "_kernel/fwd.pxi"

include "_kernel/bwd.pxi"


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


# the spec's scan modes (plan._scan_mode)
_SCAN = {"none": SCAN_NONE, "input": SCAN_INPUT, "output": SCAN_OUTPUT}


cdef void _bwd_3d(Bwd* q) noexcept nogil:
    """ref:any's 3-D form: both taps of each missing axis, the phantom one
    with weight 0 (inf * 0 -> NaN)."""
    cdef int i
    for i in range(3 - q.k):
        q.nroles[i] = 2
    q.k = 3


def _arr64(a):
    return np.ascontiguousarray(a, dtype=np.int64)


def _arrf(a):
    return np.ascontiguousarray(a, dtype=np.float32)


cdef _copy(const void* a, cnp.npy_intp n, int typenum):
    """A copy of the ``n`` elements at ``a`` (numpy type number ``typenum``)."""
    return cnp.PyArray_SimpleNewFromData(1, &n, typenum, <void*>a).copy()


cdef inline _copy64(const int64_t* a, int64_t n):
    return _copy(a, n, cnp.NPY_INT64)


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
                     bint par, int64_t traffic) noexcept nogil:
    """Run every item, in parallel when ``par``, each thread with its own
    scratch rows, all allocated before any item runs: True (nothing written)
    when they cannot be. ``traffic``: the bytes the items read and write."""
    cdef int nthr = max_threads() if par and nitems > 1 else 1
    cdef ItemsJob j
    j.block = <char*>malloc(<size_t>nthr * nscr)
    if j.block == NULL:
        return True
    j.plan, j.fn, j.nscr = plan, fn, nscr
    parallel_for(nitems, nthr, _items_range, &j, plan, traffic)
    free(j.block)
    return False


cdef class _Tables:
    """Base of the plans: keeps alive the numpy arrays their pointers address,
    and reads the fields forward and backward specs share."""
    cdef list keep
    cdef int64_t nitems
    cdef bint parallel
    cdef int64_t traffic      # bytes a run reads and writes (the pool's rule)
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
        self.traffic = d.traffic
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
            failed = _run_items(plan, fn, nitems, nscr, par, self.traffic)
            if npad and not failed:
                zero_offsets(dst, pad, npad, esize)
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

    cdef const int32_t* i32(self, x):
        arr = np.ascontiguousarray(x, dtype=np.int32)
        self.keep.append(arr)
        return <const int32_t*>cnp.PyArray_DATA(arr)

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
        cdef int a
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
        p.srow_unit = d.srow_unit
        p.dN = self.i64(d.dN)
        p.dC = self.i64(d.dC)
        p.dW_unit = d.dW_unit
        p.L = d.L
        pack_post_ops(&p.po, list(d.post_ops), self.keep)
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
        p.pix, p.pix_srow = d.pix, d.pix_srow
        if d.pix_tabs is not None:
            p.pe0, p.pe1 = self.i32(d.pix_tabs[0]), self.i32(d.pix_tabs[1])
            p.pew, p.pem = self.f32(d.pix_tabs[2]), self.f32(d.pix_tabs[3])
            self._windows()

    cdef _windows(self):
        """A linear pixel-rows plan's W blocks permuted from registers
        (rs_pv_plan), decided once here rather than for every row."""
        cdef Fwd* p = &self.p
        cdef int64_t n = p.OW * p.C, n16 = (n + 15) & ~15, nb = n // 8 + 1, j
        cdef cnp.npy_intp size = (2 * n16 + 2 * nb) * 4 + 64
        p.half_u8 = False
        if p.pix != 1 or not p.linear:
            return
        if (p.k == 2 and p.sdt == dnnl_u8 and p.ddt == dnnl_u8 and p.C <= 4
                and p.pix_srow == 2 * n):
            p.half_u8 = True
            for j in range(p.OH):
                p.half_u8 &= p.wl[1][j] == 0.5 and p.wr[1][j] == 0.5
            for j in range(p.OW):
                p.half_u8 &= (p.s0[2][j] == 2 * j * p.C and p.s1[2][j] == (2 * j + 1) * p.C
                              and p.wl[2][j] == 0.5 and p.wr[2][j] == 0.5)
        block = cnp.PyArray_EMPTY(1, &size, cnp.NPY_UINT8, 0)
        self.keep.append(block)
        # (from a 64-byte line: the blocks' index loads split none)
        cdef int32_t* q = <int32_t*>((<size_t>cnp.PyArray_DATA(block) + 63) & ~<size_t>63)
        rs_pv_plan(p.pe0, p.pe1, p.pew, p.pem, n, p.pix_srow, p.C, q + 2 * n16,
                   q + 2 * n16 + nb, q, q + n16, &p.pw)

    @property
    def w_forms(self):
        """How the pixel rows' W step reads its taps (rs_pv_wins), for the
        tests: ``(end1, end2, end4, px0, px1, pair0, pair1)``, elements,
        pixels and pairs of a row; None without the tables."""
        cdef const rs_pv_wins* w = &self.p.pw
        if self.p.pix != 1 or not self.p.linear:
            return None
        return w.end1, w.end2, w.end4, w.px0, w.px1, w.pair0, w.pair1

    @staticmethod
    def of_pixels(bint linear, int64_t N, int64_t C, int64_t IH, int64_t IW, int64_t OH,
                  int64_t OW, int k, int sdt, int ddt, *, int pix, bint parallel,
                  int64_t traffic, int esize, bint checks_outputs, tuple scan, bint stream,
                  int64_t stage, int64_t dpage_ahead):
        """The plan of ``N x IH x IW x C`` -> ``N x OH x OW x C`` (``k`` = 1:
        ``IH = OH = 1``), both dense channels-last, by the typed pixel rows,
        its paths as plan.pixel_plan decides them and its tables filled in C
        (``_kernel/pix_plan.pxi``): the plan ``__init__`` makes of fwd_plan's
        spec for these problems."""
        cdef FwdPlan plan = FwdPlan.__new__(FwdPlan)
        cdef Fwd* p = &plan.p
        plan.keep, plan.pad = [], np.array([], np.int64)
        plan.parallel, plan.traffic, plan.esize = parallel, traffic, esize
        plan.nitems, plan.checks_outputs = N * OH, checks_outputs
        mode, plan.scan_lo, plan.scan_hi = scan
        plan.scan = _SCAN[mode]
        p.k, p.linear, p.inner, p.nruns = k, linear, 0, 1
        p.N, p.C, p.OD, p.OH, p.OW, p.IW = N, C, 1, OH, OW, IW
        p.sdt, p.ddt, p.IWspan = sdt, ddt, 0
        p.srow_unit, p.dW_unit = IW == 1, OW < 2
        p.L = max(1, IW, OW, C)
        p.h2a = p.h2b = -1
        p.stream, p.stage, p.dpage_ahead = stream, stage, dpage_ahead
        p.pix, p.pix_srow = pix, IW * C
        _pixel_tables(plan, linear, N, C, IH, IW, OH, OW, k)
        return plan

    def fields(self):
        """Every field of the C plan, its tables as arrays (not for a lazy W,
        whose tables are partial): two plans are the same when these are."""
        cdef Fwd* p = &self.p
        cdef int a
        if p.lazy_sw:
            raise ValueError("a lazy W plan's tables are partial")
        f = dict(nitems=self.nitems, parallel=self.parallel, traffic=self.traffic,
                 esize=self.esize, scan=(self.scan, self.scan_lo, self.scan_hi),
                 checks_outputs=self.checks_outputs, pad=self.pad.copy())
        for name, v in (("k", p.k), ("linear", p.linear), ("inner", p.inner), ("N", p.N),
                        ("C", p.C), ("OD", p.OD), ("OH", p.OH), ("OW", p.OW), ("IW", p.IW),
                        ("IWspan", p.IWspan), ("sdt", p.sdt), ("ddt", p.ddt),
                        ("srow_unit", p.srow_unit), ("dW_unit", p.dW_unit), ("L", p.L),
                        ("ngroups", p.ngroups), ("row_bytes", p.row_bytes),
                        ("wdup2", p.wdup2), ("x2lo", p.x2lo), ("x2hi", p.x2hi),
                        ("h2a", p.h2a), ("h2b", p.h2b), ("cdup2", p.cdup2),
                        ("stream", p.stream), ("srow_bytes", p.srow_bytes),
                        ("dpage_ahead", p.dpage_ahead), ("stage", p.stage), ("pix", p.pix),
                        ("pix_srow", p.pix_srow), ("half_u8", p.half_u8),
                        ("post_ops", p.po.n)):
            f[name] = v
        ext = (p.OD, p.OH, p.OW)
        f["sN"], f["dN"] = _copy64(p.sN, p.N), _copy64(p.dN, p.N)
        f["sC"], f["dC"] = _copy64(p.sC, p.C), _copy64(p.dC, p.C)
        for a in range(3):
            f["s0", a], f["s1", a] = _copy64(p.s0[a], ext[a]), _copy64(p.s1[a], ext[a])
            f["wl", a] = _copy(p.wl[a], ext[a], cnp.NPY_FLOAT32)
            f["wr", a] = _copy(p.wr[a], ext[a], cnp.NPY_FLOAT32)
            f["dS", a] = _copy64(p.dS[a], ext[a])
        f["i0W"], f["i1W"] = _copy64(p.i0W, p.OW), _copy64(p.i1W, p.OW)
        f["sWrow"] = _copy64(p.sWrow, p.IW)
        f["runs"] = (_copy64(p.run_c0, p.nruns), _copy64(p.run_len, p.nruns),
                     _copy(p.run_sunit, p.nruns, cnp.NPY_UINT8),
                     _copy(p.run_dunit, p.nruns, cnp.NPY_UINT8))
        if p.ngroups:
            f["grp"] = _copy64(p.grp, p.ngroups + 1)
        if p.pix == 1:
            n = p.OW * p.C
            f["pe"] = (_copy(p.pe0, n, cnp.NPY_INT32), _copy(p.pe1, n, cnp.NPY_INT32),
                       _copy(p.pew, n, cnp.NPY_FLOAT32), _copy(p.pem, n, cnp.NPY_FLOAT32))
        return f

    @property
    def path(self):
        """What runs: "channels" (channel runs: nhwc, blocked), "rows" (width
        rows: nchw), "channels+copy" / "rows+copy" (repeated rows copied whole)."""
        return (("rows" if self.p.inner else "channels")
                + ("+copy" if self.p.ngroups else ""))

    @property
    def pixel_rows(self):
        """The typed pixel rows (_kernel/fwd_pix.pxi): 0 not used, 1 across
        pixels (few channels), 2 pixel by pixel."""
        return self.p.pix

    @property
    def halves_u8(self):
        """Whether a u8 image is halved by integer sums (dnnl_py_half_u8): the
        same bytes as the f32 steps, which are exact there."""
        return self.p.half_u8

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
        if q.pix:
            # the typed pixel rows: three source rows and an output row
            nscr = max(nscr, <size_t>(3 * q.pix_srow + q.OW * q.C) * 4)
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


include "_kernel/pix_plan.pxi"
