"""Resampling plans: everything a kernel needs, computed once per primitive.

The builders turn (algorithm, mds, post-ops) into a typed spec: per-axis
offset tables of each tensor (N, C, D, H, W; missing spatial axes have extent
1), the source taps and weights of every output index (oneDNN's
src/cpu/resampling_utils.hpp), channel runs, and the loop choice. The tables,
channel runs and post-op entries are the spatial primitives' shared plumbing
(dnnl/_kernels/spatial.py); the taps, weights and fast paths are resampling's.
Every fast path is decided here too (``_fwd_paths``, ``_bwd_paths``: the x2
and halved columns, repeated rows, streaming stores, the inf/NaN scan, the
backward W taps); ``FwdPlan`` / ``BwdPlan`` (the kernel, ``kernel.pyx``) only copy
the spec's named fields once, into C structs.
Forward and backward share ``PlanSpec``'s fields.
"""
import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import algorithm, data_type, primitive_kind
from dnnl._kernels import load as _load_kernel
from dnnl._kernels.spatial import (channel_runs, choose_inner, dim_table, extents, plain_w,
                                   post_op, tables, unit_stride)
from dnnl._model import offsets as _offsets
from dnnl._platform.caches import STREAM_BYTES

f32 = np.float32
#: a forward W axis (rows path) with more indices than this has its taps and
#: weights computed by the kernel, LAZY_CHUNK outputs at a time, instead of
#: tabulated per index: plan memory and time stay small whatever the extent
LAZY_W_MIN = 1 << 16
LAZY_CHUNK = 4096
#: the largest dense destination row staged in the scratch before it is
#: streamed (FwdSpec.stage)
STAGE_BYTES = 1 << 18
#: how far (bytes) ahead of its non-temporal stores a streamed linear row
#: prefetches one line of each 4 KiB destination page (FwdSpec.dpage_ahead):
#: a destination over 4 KiB pages (not backed by transparent huge pages)
#: is streamed into markedly slower without it; over 2 MiB pages it changes
#: nothing
DPAGE_AHEAD = 8192
F32 = int(data_type.f32)


# ------------------------------------------------------------ coefficients
def _map(o, n_out, n_in):
    """``((o + 0.5) * n_in) / n_out - 0.5`` in f32, one rounding per step."""
    with np.errstate(all="ignore"):
        return ((np.asarray(o, dtype=np.int64).astype(f32) + f32(0.5)) * f32(n_in)
                / f32(n_out) - f32(0.5)).astype(f32)


def _roundf(x):
    """C ``roundf``: half away from zero (exact through double)."""
    x64 = x.astype(np.float64)
    return np.trunc(x64 + np.copysign(0.5, x64)).astype(np.int64)


def _ceil_idx(x):
    """0 for x < 0, else trunc(x) + (x not integral)."""
    t = np.trunc(x.astype(np.float64))
    return np.where(x < 0, 0, t.astype(np.int64) + (t != x)).astype(np.int64)


def nearest_indices(n_in, n_out, o=None):
    """Source index of every output index (or of the indices ``o``), clamped
    into [0, n_in)."""
    idx = _roundf(_map(np.arange(n_out) if o is None else o, n_out, n_in))
    return np.clip(idx, 0, max(n_in - 1, 0))


def linear_coeffs(n_in, n_out, o=None):
    """``(left, right, w_left)`` per output index (or of the indices ``o``)."""
    s = _map(np.arange(n_out) if o is None else o, n_out, n_in)
    left = np.clip(np.trunc(s.astype(np.float64)).astype(np.int64), 0, max(n_in - 1, 0))
    right = np.clip(np.minimum(_ceil_idx(s), n_in - 1), 0, max(n_in - 1, 0))
    w_right = np.abs(s - left.astype(f32)).astype(f32)
    return left, right, (f32(1) - w_right).astype(f32)


def _chunked(n, fn, *dtypes):
    """``fn`` over the indices 0..n-1, a block at a time, into arrays of
    ``dtypes``: the temporaries stay small whatever ``n``."""
    outs = [np.empty(n, dt) for dt in dtypes]
    for a in range(0, n, _BLOCK):
        for out, v in zip(outs, fn(np.arange(a, min(n, a + _BLOCK), dtype=np.int64))):
            out[a:a + v.size] = v
    return outs


_BLOCK = 1 << 18


def backward_linear_ranges(n_in, n_out):
    """Per input index x: ``[(start, end) as x the left tap, as the right tap]``
    and per output index the weights ``(1 - w, w)`` (the gather form)."""
    def clip(a):
        return np.clip(a, 0, n_out)

    def per_input(x):
        ls = np.where(x == 0, 0, _ceil_idx(_map(x, n_in, n_out)))
        le = np.minimum(_ceil_idx(_map(x + 1, n_in, n_out)), n_out)
        s = _map(x - 1, n_in, n_out)
        rs = np.where(s < 0, 0, np.trunc(s.astype(np.float64)).astype(np.int64) + 1)
        s2 = _map(x, n_in, n_out)
        re = np.where(s2 < 0, 0, np.trunc(s2.astype(np.float64)).astype(np.int64) + 1)
        re = np.where(x == n_in - 1, n_out, np.minimum(re, n_out))
        return clip(ls), clip(le), clip(rs), clip(re)

    def per_output(o):
        t = _map(o, n_out, n_in)
        w = np.abs(t - np.trunc(t)).astype(f32)
        return (f32(1) - w).astype(f32), w

    ls, le, rs, re = _chunked(n_in, per_input, *[np.int64] * 4)
    wl, wr = _chunked(n_out, per_output, f32, f32)
    return ((ls, le), (rs, re)), (wl, wr)


def backward_nearest_ranges(n_in, n_out):
    """Per input index, the outputs that the forward pass maps onto it."""
    idx = nearest_indices(n_in, n_out)
    x = np.arange(n_in)
    return np.searchsorted(idx, x, "left"), np.searchsorted(idx, x, "right")


# ------------------------------------------------------------ specs
class PlanSpec:
    """Fields shared by forward and backward plans. ``dst`` is the tensor
    written (forward dst, backward diff_src), ``src`` the one read.
    Decided by ``_fwd_paths`` / ``_bwd_paths``: ``nitems`` (work items) and
    ``scan`` ``(mode, lo, hi)``: how a 1D/2D linear plan looks for inf/NaN
    ("none", "input" or "output") and in which element range. ``traffic``:
    the bytes a run reads and writes (the thread pool's rule)."""
    __slots__ = ("k", "linear", "inner", "N", "C", "IW", "OW", "sdt", "dN", "dC", "dS",
                 "dW_unit", "runs", "L", "parallel", "traffic", "pad", "esize", "nitems",
                 "scan")

    def __init__(self, **fields):
        for name, value in fields.items():
            setattr(self, name, value)


class FwdSpec(PlanSpec):
    """Forward: ``OD``/``OH`` output extents, ``ddt`` the dst type, source
    tables ``sN``/``sC``, taps ``s0``/``s1`` (offsets) and ``i0W``/``i1W``
    (W indices) per spatial axis, weights ``wl``/``wr``, post-ops; ``lazy_sw``
    > 0: the source W stride, and the kernel computes the W taps itself (the
    W entries of the tables then hold only their extremes).

    Fast paths (``_fwd_paths``): ``IWspan`` (1 + the largest W tap offset,
    rows path); ``wdup2`` (nearest x2 along W); ``x2_columns`` ``(lo, hi)``
    and ``x2_weights`` (linear x2 along W, else (0, 0) and None); ``halved``
    ``(h2a, h2b)`` (W halved, else (-1, -1)); ``row_groups`` (None, or the
    first output row of each group of rows copied whole, then OH),
    ``row_bytes``, ``cdup2``; ``checks_outputs``; ``stream``; ``stage``
    (elements of a dense destination row built in the scratch, then
    streamed; 0: none), ``srow_bytes`` (streamed nearest groups: the bytes
    of a source row, prefetched a group ahead), ``dpage_ahead`` (streamed
    linear rows: bytes ahead of the stores at which one line of each
    destination page is prefetched; 0: none); ``srow_unit`` (a source W
    row is unit-stride: decoded as one run); ``pix`` (typed pixel rows,
    ``_pixel_rows``: 0 not, 1 across pixels, 2 pixel by pixel), ``pix_srow``
    (elements of a source row), ``pix_tabs`` (None, or per output element of
    a row its two W taps' source offsets and weights)."""
    __slots__ = ("OD", "OH", "ddt", "sN", "sC", "s0", "s1", "i0W", "i1W", "sWrow", "wl",
                 "wr", "post_ops", "lazy_sw", "IWspan", "wdup2", "x2_columns",
                 "x2_weights", "halved", "row_groups", "row_bytes", "cdup2",
                 "checks_outputs", "stream", "stage", "srow_bytes", "dpage_ahead",
                 "srow_unit", "pix", "pix_srow", "pix_tabs")


class BwdSpec(PlanSpec):
    """Backward (a gather): ``ID``/``IH`` diff_src extents, ``gdt`` the
    diff_dst type with tables ``gN``/``gC``/``gS``; per spatial axis and tap
    role the diff_dst range ``[rs, re)`` and weights ``wt``; ``nroles``;
    ``lazy_gw`` > 0: the diff_dst W stride, and the kernel computes the W
    ranges and weights itself (linear).

    Fast paths (``_bwd_paths``): ``ident`` (0, 1, ... for decoded rows);
    ``lazy_cin`` (columns per lazy chunk); ``x2_w`` (None or ``(lo, hi, a,
    W)``, see ``_x2_w``); ``w_taps`` (None or ``(wb, wo, ww)``, see
    ``_w_taps``). With an inf/NaN scan, the right tap of each missing axis
    is ref:any's phantom one (output 0, weight 0)."""
    __slots__ = ("ID", "IH", "gdt", "gN", "gC", "gS", "nroles", "rs", "re", "wt", "lazy_gw",
                 "ident", "lazy_cin", "x2_w", "w_taps")


# ------------------------------------------------------------ builders
def _lazy_w(src_md, dst_md, ins, outs, entries):
    """The source W stride when the kernel computes the W taps (a long W on
    the rows path, plain W axes, unit-stride f32 source rows and dense
    destination rows, no binary post-op), else 0."""
    if not LAZY_W_MIN < max(ins[4], outs[4]) < 2 ** 31 or src_md.data_type != data_type.f32:
        return 0
    if any(e.kind == primitive_kind.binary for e in entries):
        return 0
    return _row_stride(src_md, dst_md)


def _lazy_w_bwd(linear, ds_md, dd_md, ins, outs):
    """The diff_dst W stride when the kernel computes the backward W ranges and
    weights (linear, a long W on the rows path, plain W axes, f32 data and
    dense diff_src rows, a factor of at most 64 so a column's outputs fit the
    scratch), else 0."""
    if not linear or not LAZY_W_MIN < max(ins[4], outs[4]) < 2 ** 31:
        return 0
    if ds_md.data_type != data_type.f32 or dd_md.data_type != data_type.f32:
        return 0
    if outs[4] > ins[4] * 64:
        return 0
    return _row_stride(dd_md, ds_md)


def _row_stride(read_md, write_md):
    """``read_md``'s W stride when both W axes are plain, ``write_md``'s rows
    are dense and W (not C) is its inner axis, else 0."""
    rw, ww = plain_w(read_md), plain_w(write_md)
    if not rw or ww != 1:
        return 0
    c_tab = dim_table(write_md, 1, min(write_md.dims[1], 2))
    return rw if choose_inner(c_tab, np.array([0, 1])) == 1 else 0


def fwd_plan(alg, src_md, dst_md, entries, *, parallel_min):
    """The forward plan for ``src_md`` -> ``dst_md`` with post-op ``entries``;
    from ``parallel_min`` outputs on, it runs on every thread."""
    nd = src_md.ndims
    k = nd - 2
    linear = alg == algorithm.resampling_linear
    ins, outs = extents(src_md), extents(dst_md)
    lazy = _lazy_w(src_md, dst_md, ins, outs, entries)
    st, dtab = tables(src_md, 2 if lazy else None), tables(dst_md, 2 if lazy else None)
    s0, s1, wl, wr, idx0, idx1 = [], [], [], [], [], []
    for a in (2, 3, 4):
        n_in, n_out = ins[a], outs[a]
        if a == 4 and lazy:        # the kernel computes them: extremes only (spans)
            w = np.ones(2, f32)
        elif a - 2 < 3 - k:          # missing axis
            left = right = np.zeros(1, np.int64)
            w = np.ones(1, f32)
        elif linear:
            left, right, w = linear_coeffs(n_in, n_out)
        else:
            left = right = nearest_indices(n_in, n_out)
            w = np.ones(n_out, f32)
        tab = st[a] if not (a == 4 and lazy) else np.arange(n_in, dtype=np.int64)[[0, -1]] * lazy
        if a == 4 and lazy:
            left = right = np.array([0, 1])
        s0.append(tab[left] if tab.size else np.zeros(left.size, np.int64))
        s1.append(tab[right] if tab.size else np.zeros(right.size, np.int64))
        wl.append(w)
        wr.append((f32(1) - w).astype(f32))
        idx0.append(left)
        idx1.append(right)
    runs = channel_runs(dtab[1], st[1])
    if lazy:
        dtab[4] = np.array([0, outs[4] - 1], np.int64)   # unit: first and last
    spec = FwdSpec(
        k=k, linear=int(linear), inner=1 if lazy else choose_inner(dtab[1], dtab[4]),
        N=outs[0], C=outs[1], OD=outs[2], OH=outs[3], OW=outs[4], IW=ins[4],
        sdt=int(src_md.data_type), ddt=int(dst_md.data_type), sN=st[0], sC=st[1],
        s0=s0, s1=s1, i0W=idx0[2], i1W=idx1[2], sWrow=st[4], wl=wl, wr=wr,
        dN=dtab[0], dC=dtab[1], dS=dtab[2:], dW_unit=bool(lazy) or unit_stride(dtab[4]), runs=runs,
        L=(LAZY_CHUNK if lazy else max([1, ins[4], outs[4]] + [int(x) for x in runs[1]])),
        lazy_sw=lazy, post_ops=[post_op(e, outs) for e in entries],
        parallel=int(np.prod(outs)) >= parallel_min,
        traffic=_traffic((src_md, ins), (dst_md, outs)),
        pad=_offsets.padding_offsets(dst_md), esize=_dtypes.size(dst_md.data_type))
    _fwd_paths(spec)
    return _load_kernel("dnnl.primitives.resampling.kernel").FwdPlan(spec)   # the first load picks the ISA level


def pixel_plan(alg, N, C, ins, outs, sdt, ddt, *, parallel_min):
    """The plan ``fwd_plan`` makes for ``N x ins x C`` -> ``N x outs x C`` (one or
    two spatial sizes), both dense channels-last at offset 0, with no
    post-ops, when it is the typed pixel rows across pixels or pixel by pixel
    (``_pixel_rows``, without the repeated rows of f32 nearest), its paths
    decided from a few numbers and its tables filled in C
    (``FwdPlan.of_pixels``): a small fraction of the resize of a new image
    size, where fwd_plan's numpy costs several. One channel of one-byte
    types (a grayscale u8 image) takes the pixel rows too, where fwd_plan
    takes the W rows: the same bytes in half the time (u8 480x640 -> 960x1280
    on a Sapphire Rapids, one thread: 0.38 -> 0.20 ms). None for every
    other problem (``fwd_plan`` then decides)."""
    k, linear = len(ins), alg == algorithm.resampling_linear
    sdt, ddt = int(sdt), int(ddt)
    IH, IW = (1, ins[0]) if k == 1 else ins
    OH, OW = (1, outs[0]) if k == 1 else outs
    f32_only = sdt == F32 and ddt == F32
    one_byte = _dtypes.size(sdt) == 1 and _dtypes.size(ddt) == 1
    if not (k in (1, 2) and (C >= 2 or (C == 1 and one_byte)) and min(N, IH, IW, OH, OW) >= 1
            and sdt in PIX_TYPES and ddt in PIX_TYPES and not (f32_only and (C >= PIX_FEW or not linear))
            and IW * C < 2 ** 31 and OW * C < 2 ** 31 and OH < 2 ** 31 and IH < 2 ** 30):
        return None
    # the source span the taps reach (_span): they grow with the output index
    kernel = _load_kernel("dnnl.primitives.resampling.kernel")
    in_lo, in_hi = 0, (N - 1) * IH * IW * C + C - 1
    for n_in, n_out, stride in ((IH, OH, IW * C), (IW, OW, C))[2 - k:]:
        first, last = kernel.tap_span(linear, n_in, n_out)
        in_lo += first * stride
        in_hi += last * stride
    nout = N * OH * OW * C
    checks_outputs = bool(linear and f32_only)
    scan = _scan_mode(linear, ddt == F32, (in_lo, in_hi), (0, nout - 1))
    # _fwd_paths' streaming rule, for dense rows without row groups
    stream = (in_hi - in_lo + nout + 1) * 4 >= STREAM_BYTES and checks_outputs and k == 2
    return kernel.FwdPlan.of_pixels(
        linear, N, C, IH, IW, OH, OW, k, sdt, ddt, pix=1 if C < PIX_FEW else 2,
        parallel=nout >= parallel_min,
        traffic=N * IH * IW * C * _dtypes.size(sdt) + nout * _dtypes.size(ddt),
        esize=_dtypes.size(ddt), checks_outputs=checks_outputs, scan=scan, stream=stream,
        stage=OW * C if stream and OW * C * 4 <= STAGE_BYTES else 0,
        dpage_ahead=DPAGE_AHEAD if stream else 0)


def _traffic(*tensors):
    """Bytes a run reads and writes: each ``(md, extents)`` tensor's elements
    at its data type's size."""
    return int(sum(int(np.prod(ext)) * _dtypes.size(md.data_type) for md, ext in tensors))


def bwd_plan(alg, diff_src_md, diff_dst_md, *, parallel_min):
    """The backward-data plan: diff_src gathered from diff_dst; from
    ``parallel_min`` inputs and outputs on, it runs on every thread."""
    nd = diff_src_md.ndims
    k = nd - 2
    linear = alg == algorithm.resampling_linear
    ins, outs = extents(diff_src_md), extents(diff_dst_md)
    lazy = _lazy_w_bwd(linear, diff_src_md, diff_dst_md, ins, outs)
    gt = tables(diff_dst_md, 2 if lazy else None)
    dtab = tables(diff_src_md, 2 if lazy else None)
    rs, re, wt, nroles = [], [], [], []
    for a in (2, 3, 4):
        n_in, n_out = ins[a], outs[a]
        if a == 4 and lazy:        # the kernel computes them
            rs += [np.zeros(1, np.int64)] * 2
            re += [np.zeros(1, np.int64)] * 2
            wt += [np.ones(1, f32)] * 2
            nroles.append(2)
            gt[4] = np.array([0, (n_out - 1) * lazy], np.int64)   # first and last
            dtab[4] = np.array([0, n_in - 1], np.int64)
        elif a - 2 < 3 - k:
            one = np.ones(1, f32)
            rs += [np.zeros(1, np.int64)] * 2
            re += [np.ones(1, np.int64)] * 2
            wt += [one, one]
            nroles.append(1)
        elif linear:
            (left, right), (wleft, wright) = backward_linear_ranges(n_in, n_out)
            rs += [left[0], right[0]]
            re += [left[1], right[1]]
            wt += [wleft, wright]
            nroles.append(2)
        else:
            lo, hi = backward_nearest_ranges(n_in, n_out)
            one = np.ones(max(n_out, 1), f32)
            rs += [lo, lo]
            re += [hi, hi]
            wt += [one, one]
            nroles.append(1)
    runs = channel_runs(dtab[1], gt[1])
    spec = BwdSpec(
        k=k, linear=int(linear), inner=1 if lazy else choose_inner(dtab[1], dtab[4]),
        N=ins[0], C=ins[1], ID=ins[2], IH=ins[3], IW=ins[4], OW=outs[4],
        gdt=int(diff_dst_md.data_type), sdt=int(diff_src_md.data_type),
        gN=gt[0], gC=gt[1], gS=gt[2:], dN=dtab[0], dC=dtab[1], dS=dtab[2:],
        nroles=nroles, rs=rs, re=re, wt=wt, dW_unit=bool(lazy) or unit_stride(dtab[4]), runs=runs,
        L=(LAZY_CHUNK if lazy else max([1, ins[4], outs[4]] + [int(x) for x in runs[1]])),
        lazy_gw=lazy,
        parallel=int(np.prod(ins)) + int(np.prod(outs)) >= parallel_min,
        traffic=_traffic((diff_dst_md, outs), (diff_src_md, ins)),
        pad=_offsets.padding_offsets(diff_src_md),
        esize=_dtypes.size(diff_src_md.data_type))
    _bwd_paths(spec)
    return _load_kernel("dnnl.primitives.resampling.kernel").BwdPlan(spec)


# ------------------------------------------------------------ fast paths
def _fwd_paths(d):
    """Decide the forward fast paths of spec ``d`` from its tables (fields
    in ``FwdSpec``'s docstring)."""
    nopo = not d.post_ops
    nruns = len(d.runs[0])
    sw = np.asarray(d.sWrow, dtype=np.int64)
    d.srow_unit = bool(sw.size and np.array_equal(sw, sw[0] + np.arange(sw.size)))
    # rows whose W taps index unit-stride columns: f32 rows read in place,
    # or decoded rows of a source whose W offsets are 0, 1, 2, ...
    f32_rows = d.inner and not d.lazy_sw and (d.sdt == F32 or (d.srow_unit and sw[0] == 0))
    d.IWspan = int(max(np.max(d.s0[2]), np.max(d.s1[2]))) + 1 if d.inner else 0
    d.wdup2 = bool(f32_rows and not d.linear and d.OW % 2 == 0
                   and np.array_equal(d.s0[2], np.arange(d.OW) // 2))
    d.x2_columns, d.x2_weights = (0, 0), None
    d.halved = (-1, -1)
    if f32_rows:
        if d.linear and d.k <= 2:
            _x2_columns(d)
        _halved_columns(d)
    d.row_groups, d.row_bytes, d.cdup2 = None, 0, 0
    if d.inner == 0 and not d.linear and nruns == 1 and nopo:
        _row_groups(d)
    elif (d.inner and not d.linear and nopo and d.dW_unit and d.k <= 2
          and d.sdt == F32 and d.ddt == F32):
        _groups(d, d.OW * 4)
    ngroups = 0 if d.row_groups is None else len(d.row_groups) - 1
    if ngroups and d.inner:
        d.nitems = d.N * d.C * d.OD * ngroups
    elif ngroups:
        d.nitems = d.N * d.OD * ngroups
    elif d.inner == 0:
        d.nitems = d.N * d.OD * d.OH
    else:
        d.nitems = d.N * d.C * d.OD * d.OH
    # the plain channel kernels (_fwd_c_plain) run every item and check
    # their outputs for inf/NaN as they store them
    d.checks_outputs = bool(d.inner == 0 and d.linear and d.k <= 2 and nruns == 1
                            and d.runs[2][0] and d.runs[3][0] and nopo
                            and d.sdt == F32 and d.ddt == F32)
    _pixel_rows(d)
    in_span = _span([d.sN, d.sC] + [[d.s0[a], d.s1[a]] for a in range(3)])
    out_span = _span([d.dN, d.dC] + list(d.dS))
    d.scan = _scan_mode(d.linear and d.k < 3, d.ddt == F32 and nopo, in_span, out_span)
    # both tensors too large to stay in cache: the output's lines are not
    # read before they are overwritten (the reorders' rule); nearest groups
    # of dense channel rows build a row once and stream it to each
    big = (in_span[1] - in_span[0] + out_span[1] - out_span[0] + 2) * 4 >= STREAM_BYTES
    # a staged row stays in L2 (per-thread scratch)
    fits = 0 < d.OW * d.C * 4 <= STAGE_BYTES
    groups = d.inner == 0 and not d.linear and d.row_groups is not None and fits
    d.stream = bool(big and (d.checks_outputs and d.k == 2 or groups))
    # a dense destination row, staged before it is streamed: always for the
    # groups, for linear rows when they are misaligned (new arrays often are)
    d.stage = d.OW * d.C if d.stream and fits and (groups or _dense_rows(d)) else 0
    # the span of a source row the nearest groups read (prefetched ahead)
    d.srow_bytes = (int(np.max(d.s0[2])) + d.C) * 4 if d.stream and groups else 0
    # streamed linear rows touch each destination page ahead of their stores
    d.dpage_ahead = DPAGE_AHEAD if d.stream and not groups else 0


PIX_TYPES = (F32, int(data_type.u8), int(data_type.s8), int(data_type.f16),
             int(data_type.bf16))
PIX_FEW = 8         # fewer channels than this: the W step runs across pixels


def _pixel_rows(d):
    """The typed pixel rows (``pix``): 1-D/2-D channel runs of all channels,
    dense rows on both sides (source pixels C elements apart), no post-ops,
    u8/s8/f16/bf16/f32 on each side; f32 to f32 only with fewer than
    PIX_FEW channels (with more, its plain rows are faster)."""
    d.pix, d.pix_srow, d.pix_tabs = 0, 0, None
    sw = np.asarray(d.sWrow, dtype=np.int64)
    C, runs = d.C, d.runs
    if not (d.inner == 0 and d.k <= 2 and not d.post_ops and d.sdt in PIX_TYPES
            and d.ddt in PIX_TYPES and ((d.sdt, d.ddt) != (F32, F32) or C < PIX_FEW)
            and len(runs[0]) == 1
            and int(runs[0][0]) == 0 and runs[2][0] and int(np.asarray(d.sC)[0]) == 0
            and _dense_rows(d) and np.array_equal(sw, np.arange(d.IW) * C)
            and 0 < d.IW * C < 2 ** 31):
        return
    d.pix_srow = d.IW * C
    d.pix = 1 if C < PIX_FEW else 2
    if d.pix == 1:
        c = np.arange(C, dtype=np.int64)
        s0 = np.asarray(d.s0[2], dtype=np.int64)
        s1 = np.asarray(d.s1[2], dtype=np.int64)
        wl = np.asarray(d.wl[2], dtype=np.float32)
        wr = np.asarray(d.wr[2], dtype=np.float32)
        if not d.linear:
            s1, wl, wr = s0, np.ones(d.OW, np.float32), np.zeros(d.OW, np.float32)
        d.pix_tabs = ((s0[:, None] + c).ravel().astype(np.int32),
                      (s1[:, None] + c).ravel().astype(np.int32),
                      np.repeat(wl, C), np.repeat(wr, C))


def _dense_rows(d):
    """Whether each destination row (n, od, oh) is one dense run of all
    channels of all OW pixels."""
    runs = d.runs
    dS2 = np.asarray(d.dS[2], dtype=np.int64)
    return bool(len(runs[0]) == 1 and int(runs[1][0]) == d.C and runs[3][0]
                and int(d.dC[0]) == 0 and dS2[0] == 0
                and np.array_equal(dS2, np.arange(d.OW) * d.C))


def _x2_columns(d):
    """Linear x2 along a unit-stride W: the longest range of k where
    outputs 2k and 2k + 1 tap columns (k - 1, k) and (k, k + 1)."""
    if d.OW % 2 or d.OW < 8:
        return
    K = d.OW // 2
    i0 = np.asarray(d.s0[2], dtype=np.int64)
    i1 = np.asarray(d.s1[2], dtype=np.int64)
    k = np.arange(K)
    lo, hi = _longest_run((i0[0::2] == k - 1) & (i1[0::2] == k)
                          & (i0[1::2] == k) & (i1[1::2] == k + 1))
    if hi - lo < 4:
        return
    wl = np.asarray(d.wl[2], dtype=np.float32)
    wr = np.asarray(d.wr[2], dtype=np.float32)
    d.x2_weights = np.concatenate([wl[0::2], wr[0::2], wl[1::2], wr[1::2]])
    d.x2_columns = (lo, hi)


def _halved_columns(d):
    """W halved along a unit-stride W: the taps of output ow are columns
    h2a + 2 ow (and h2b + 2 ow) for every ow."""
    i0 = np.asarray(d.s0[2], dtype=np.int64)
    i1 = np.asarray(d.s1[2], dtype=np.int64)
    step = 2 * np.arange(d.OW)
    if (d.OW >= 4 and np.array_equal(i0, i0[0] + step)
            and (not d.linear or np.array_equal(i1, i1[0] + step))):
        d.halved = (int(i0[0]), int(i1[0]) if d.linear else int(i0[0]))


def _row_groups(d):
    """Group output rows that read the same source row, when the f32 plain
    path applies and each destination row (n, od, oh) is one dense run of
    all channels of all OW pixels: then rows can be copied whole."""
    runs = d.runs
    C = int(runs[1][0])
    dS2 = np.asarray(d.dS[2], dtype=np.int64)
    dC = np.asarray(d.dC, dtype=np.int64)
    if not (runs[2][0] and runs[3][0] and d.sdt == F32 and d.ddt == F32
            and d.k <= 2 and C == d.C and dS2[0] == 0 and dC[0] == 0
            and np.array_equal(dS2, np.arange(d.OW) * C)):
        return
    _groups(d, d.OW * C * 4)
    s0w = np.asarray(d.s0[2], dtype=np.int64)
    if d.row_groups is not None and d.OW % 2 == 0 and d.OW > 0:
        ss = int(s0w[2] - s0w[0]) if d.OW > 2 else C
        if ss >= C and np.array_equal(s0w, s0w[0] + (np.arange(d.OW) // 2) * ss):
            d.cdup2 = ss


def _groups(d, row_bytes):
    """Runs of output rows oh that read the same source row (nearest)."""
    src_rows = np.asarray(d.s0[1], dtype=np.int64)
    starts = [0] + [oh for oh in range(1, d.OH) if src_rows[oh] != src_rows[oh - 1]]
    if len(starts) == d.OH:
        return      # no row is repeated
    d.row_groups = np.array(starts + [d.OH], np.int64)
    d.row_bytes = row_bytes


def _bwd_paths(d):
    """Decide the backward fast paths of spec ``d`` from its tables (fields
    in ``BwdSpec``'s docstring)."""
    # decoded rows (non-f32 diff_dst) are indexed by position
    d.ident = np.arange(max(d.OW, 1) if d.gdt != F32 else 1, dtype=np.int64)
    # columns per chunk: their outputs (at most factor + 1 per column and
    # role, plus the edges) fit the 4 L weights of the scratch. The factor is
    # rounded down, as the kernel's C division did when it decided this.
    d.lazy_cin = max(1, min(d.L, (4 * d.L - 8) // (d.OW // max(d.IW, 1) + 2)))
    d.x2_w = _x2_w(d) if d.inner and d.gdt == F32 and not d.lazy_gw else None
    d.w_taps = _w_taps(d) if d.inner == 0 else None
    if d.inner == 0:
        d.nitems = d.N * d.ID * d.IH
    else:
        d.nitems = d.N * d.C * d.ID * d.IH
    d.scan = _scan_mode(d.linear and d.k < 3, d.sdt == F32,
                        _span([d.gN, d.gC] + list(d.gS)), _span([d.dN, d.dC] + list(d.dS)))
    if d.scan[0] != "none":
        zero = np.zeros(1, np.float32)
        for a in range(3 - d.k):
            # ref:any's phantom right tap of a missing axis: output 0, weight 0
            d.rs[2 * a + 1] = np.zeros(1, np.int64)
            d.re[2 * a + 1] = np.ones(1, np.int64)
            d.wt[2 * a + 1] = zero


def _longest_run(ok):
    """``(lo, hi)``: the longest range of True in the boolean array ``ok``
    ((0, 0) when there is none)."""
    edges = np.diff(np.concatenate([[0], np.asarray(ok, np.int8), [0]]))
    starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
    if not starts.size:
        return 0, 0
    k = int(np.argmax(ends - starts))
    return int(starts[k]), int(ends[k])


def _x2_w(d):
    """``(lo, hi, a, W)`` when diff_src columns [lo, hi) (8 or more) each
    gather the two diff_dst columns 2 iw + a[kw] + e of role kw, e = 0, 1,
    from unit-stride diff_dst rows (x2 along W), their weights in W[kw, e, iw];
    else None."""
    IW, nkw = d.IW, d.nroles[2]
    g = np.asarray(d.gS[2], np.int64)
    if IW < 8 or g.size < 2 or not (np.diff(g) == 1).all():
        return None
    iw = np.arange(IW)
    ok = np.ones(IW, bool)
    a = np.zeros(2, np.int64)
    for kw in range(nkw):
        lo = np.asarray(d.rs[4 + kw], np.int64)[:IW]
        two = np.asarray(d.re[4 + kw], np.int64)[:IW] - lo == 2
        a[kw] = lo[IW // 2] - 2 * (IW // 2)     # the middle column's offset
        ok &= two & (lo - 2 * iw == a[kw])
    lo, hi = _longest_run(ok)
    if hi - lo < 8:
        return None
    W = np.zeros((2, 2, IW), np.float32)
    for kw in range(nkw):
        rs = np.asarray(d.rs[4 + kw], np.int64)[lo:hi]
        for e in range(2):
            W[kw, e, lo:hi] = np.asarray(d.wt[4 + kw], np.float32)[rs + e]
    return lo, hi, a, W


def _w_taps(d):
    """The W part of the backward taps of every diff_src column iw, in the
    gather's order (role kw, then ow): bounds ``wb[iw, kw]`` (3 per iw, the
    last one the end), diff_dst W offsets and weights."""
    nkw = d.nroles[2]
    lo = np.stack([np.asarray(d.rs[4 + kw], np.int64)[:d.IW] for kw in range(nkw)], 1)
    hi = np.stack([np.asarray(d.re[4 + kw], np.int64)[:d.IW] for kw in range(nkw)], 1)
    cnt = np.maximum(hi - lo, 0).ravel()
    ends = np.cumsum(cnt)
    starts = ends - cnt
    wb = np.zeros((d.IW, 3), np.int64)
    wb[:, :nkw] = starts.reshape(d.IW, nkw)
    wb[:, nkw] = ends.reshape(d.IW, nkw)[:, nkw - 1] if d.IW else 0
    ow = np.repeat(lo.ravel() - starts, cnt) + np.arange(int(cnt.sum()))
    kw = np.repeat(np.tile(np.arange(nkw), d.IW), cnt)
    wt = np.stack([np.asarray(d.wt[4 + k], np.float32) for k in range(nkw)])
    return wb, np.asarray(d.gS[2], np.int64)[ow], wt[kw, ow]


def _scan_mode(needed, out_is_result, in_span, out_span):
    """(mode, lo, hi): how a 1D/2D linear plan finds inf/NaN, and where.

    The fast kernels compute every term of the real axes (zero weights
    included), so any inf/NaN neighbour makes their f32 result non-finite;
    only the phantom terms are missing, and with finite data they add +-0.
    So when the output holds that f32 result unchanged (f32, no post-ops:
    ``out_is_result``) and is the smaller buffer, checking it after the run is
    enough (a finite result of finite data is exact; overflow to inf of
    finite data is inf in 3-D as well), else the input is scanned first."""
    if not needed:
        return "none", 0, -1
    if out_is_result and out_span[1] - out_span[0] <= in_span[1] - in_span[0]:
        return "output", out_span[0], out_span[1]
    return "input", in_span[0], in_span[1]


def _span(tabs):
    """(lowest, highest) element offset a set of separable offset tables
    reaches: each entry is one table or a list of alternatives (taps)."""
    lo = hi = 0
    for t in tabs:
        alts = [np.asarray(a) for a in (t if isinstance(t, list) else [t])]
        if any(a.size == 0 for a in alts):
            return 0, -1
        lo += min(int(a.min()) for a in alts)
        hi += max(int(a.max()) for a in alts)
    return lo, hi
