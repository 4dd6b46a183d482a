# cython: language_level=3
"""The resampling kernel's plans as C structs: ``Fwd`` and ``Bwd``, filled
once from a plan's spec (``FwdPlan`` / ``BwdPlan`` in kernel.pyx) and read by
every item of a run (``_kernel/fwd.pxi``, ``_kernel/bwd.pxi``). Declared
here, beside the kernel, so that their fields are read in one place."""
from libc.stdint cimport int32_t, int64_t, uint8_t

from dnnl._kernels.spatial cimport PostOps


cdef extern from "pixel_rows.h":
    ctypedef struct rs_pv_wins:     # how a row's W step reads its taps
        const int32_t* base
        const int32_t* base_b
        const int32_t* a
        const int32_t* b
        int64_t end1, end2, end4, px0, px1, C, pair0, pair1
        float pw0[8]
        float pw1[8]


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
    bint srow_unit         # sWrow[iw] == sWrow[0] + iw (rows decoded as one run)
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
    int pix               # typed pixel rows (_kernel/fwd_pix.pxi): 0 not, 1 across
                          #   pixels through the element tables pe*, 2 pixel by pixel
    int64_t pix_srow      # elements of a (dense) source row
    const int32_t* pe0    # pix == 1, per output element of a row: source element
    const int32_t* pe1    #   offsets of the two W taps
    const float* pew      #   and the W weights
    const float* pem
    rs_pv_wins pw         # pix == 1 linear: its W blocks from registers (rs_pv_plan)
    bint half_u8          # pix == 1 linear, u8 to u8, 2-D: every tap weighs 1/2, the W
                          #   taps pixels 2 ow and 2 ow + 1 (dnnl_py_half_u8)
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
