"""What the spatial primitives share on the plan side: per-axis offset
tables, channel runs and forward post-ops.

A spatial primitive (resampling; pooling would be the next) sees every tensor
through the logical axes N, C, D, H, W (missing spatial axes have extent 1)
and, for each axis, a table of the physical element offset of every logical
index (separable offsets). The kernels read these tables through the C side
of this toolkit, ``spatial.pxd``: ``channel_runs`` feeds its channel-run
loops, ``PostOp`` (from ``post_op``) its ``PostOps`` struct
(``pack_post_ops``).
"""
import numpy as np

from dnnl._core.enums import primitive_kind
from dnnl._model import offsets as _offsets


def axis_map(nd):
    """Logical dim of each of the axes N, C, D, H, W (None: missing)."""
    k = nd - 2
    return [0, 1, nd - 3 if k == 3 else None, nd - 2 if k >= 2 else None, nd - 1]


def dim_table(md, d, n):
    """Offsets of indices 0..n-1 of dim ``d``, from its blocking levels."""
    lv = _offsets.levels(md, d)
    i = np.arange(n, dtype=np.int64)
    if len(lv) == 1:                # not blocked: i * stride, in place
        i *= lv[0][2]
        return i
    off = np.zeros(n, np.int64)
    for radix, unit, stride in lv:
        g = i // unit
        if radix:
            np.remainder(g, radix, out=g)
        g *= stride
        off += g
    return off


def tables(md, w=None):
    """Per-axis offset tables (N, C, D, H, W); offset0 folded into N. With
    ``w``, the W table holds only the offsets of indices 0 and 1 (lazy W)."""
    out = []
    for a, d in enumerate(axis_map(md.ndims)):
        n = 1 if d is None else (min(w, md.dims[d]) if a == 4 and w else md.dims[d])
        out.append(np.zeros(1, np.int64) if d is None else dim_table(md, d, n))
    out[0] = out[0] + md.offset0
    return out


def plain_w(md):
    """The element stride of W when its offsets are ``iw * stride``, else None."""
    lv = _offsets.levels(md, md.ndims - 1)
    return int(lv[0][2]) if len(lv) == 1 else None


def extents(md):
    return [1 if d is None else md.dims[d] for d in axis_map(md.ndims)]


def unit_stride(t):
    return t.size < 2 or bool((np.diff(t) == 1).all())


def choose_inner(c_tab, w_tab):
    """0 (channels) or 1 (width) as the innermost loop of the output."""
    c_unit = c_tab.size > 1 and c_tab[1] - c_tab[0] == 1
    w_unit = w_tab.size > 1 and unit_stride(w_tab)
    if c_unit:
        return 0
    if w_unit:
        return 1
    if c_tab.size > 1 and w_tab.size > 1:
        return 0 if abs(int(c_tab[1] - c_tab[0])) <= abs(int(w_tab[1] - w_tab[0])) else 1
    return 0 if c_tab.size >= w_tab.size else 1


def channel_runs(out_tab, in_tab):
    """Split the channels into runs where the output offsets step by 1 (and the
    input's too when it is mostly unit-stride): (starts, lengths, in_unit, out_unit)."""
    n = out_tab.size
    if n == 0:
        return [np.zeros(0, np.int64)] * 2 + [np.zeros(0, np.uint8)] * 2
    ob = np.diff(out_tab) != 1
    ib = np.diff(in_tab) != 1
    brk = ob | ib if n > 1 and ib.mean() < 0.5 else ob
    starts = np.concatenate([[0], np.nonzero(brk)[0] + 1]).astype(np.int64)
    ends = np.concatenate([starts[1:], [n]]).astype(np.int64)
    lens = ends - starts
    in_unit = np.array([unit_stride(in_tab[s:e]) for s, e in zip(starts, ends)], np.uint8)
    out_unit = np.array([unit_stride(out_tab[s:e]) for s, e in zip(starts, ends)], np.uint8)
    return [starts, lens, in_unit, out_unit]


class PostOp:
    """One forward post-op: ``kind`` is oneDNN's primitive kind (sum,
    eltwise, binary); ``tabs`` the src1 offset tables (binary)."""
    __slots__ = ("kind", "alg", "alpha", "beta", "scale", "dt", "tabs")

    def __init__(self, kind, alg=0, alpha=0.0, beta=0.0, scale=1.0, dt=0, tabs=None):
        self.kind, self.alg, self.alpha, self.beta = int(kind), int(alg), alpha, beta
        self.scale, self.dt, self.tabs = scale, int(dt), tabs


def post_op(e, outs):
    """The PostOp of attribute entry ``e`` (sum, eltwise or binary), told
    apart by the kind the entry carries: the plan knows no attribute class."""
    if e.kind == primitive_kind.sum:
        return PostOp(primitive_kind.sum, scale=float(e.scale))
    if e.kind != primitive_kind.binary:
        return PostOp(primitive_kind.eltwise, e.alg, float(e.alpha), float(e.beta),
                      float(e.scale))
    m = e.src1_desc
    t1, e1 = tables(m), extents(m)
    tabs = [t1[a] if e1[a] == outs[a]
            else np.full(outs[a], t1[a][0] if t1[a].size else 0, np.int64)
            for a in range(5)]
    return PostOp(primitive_kind.binary, e.alg, dt=m.data_type, tabs=tabs)
