"""``dnnl.resampling_forward`` / ``dnnl.resampling_backward``: nearest and
linear resampling of N x C x [D x] [H x] W tensors, in any layout.

Semantics are oneDNN 3.13's reference implementation (``ref:any``,
src/cpu/ref_resampling.cpp, src/cpu/resampling_utils.hpp). Per spatial axis with
input extent ``IN`` and output extent ``OUT``, in f32 and in this order::

    map(o) = ((o + 0.5) * IN) / OUT - 0.5
    nearest: i = roundf(map(o))                       (half away from zero)
    linear:  left = max(trunc(s), 0), right = min(ceil(s), IN - 1),
             w_right = |s - left|, w_left = 1 - w_right      (s = map(o))

Linear interpolates D, then H, then W, each step ``a*w_left + b*(1 - w_left)``.
Forward post-ops (sum, eltwise, binary) run in f32 before the single
conversion to the destination type. Backward (``backward_data``) overwrites
diff_src with f32 sums over the contributing diff_dst elements; backward
nearest is the exact transpose of the forward mapping (docs/internals/semantics.md).

Validation follows oneDNN's order and statuses (src/common/resampling.cpp): bad algorithm, prop kind,
ndims, missing src, missing dst *and* factors, src format ``any`` (forward),
runtime dims, ndims / N / C mismatches give ``invalid_arguments``; attributes
other than post-ops (forward) or any attribute (backward), unsupported
post-op kinds, a sum with a zero point or another data type, and data types
outside f32/bf16/f16/s32/s8/u8 give ``unimplemented``.
"""
import math

import numpy as np

from dnnl import _dtypes
from dnnl._desc import RUNTIME, desc
from dnnl._enums import C, algorithm, data_type, format_kind, primitive_kind, prop_kind, query
from dnnl._args import integer
from dnnl._error import invalid, unimpl
from dnnl._kernels import offsets as _offsets
from dnnl.attr import binary_entry, check_binary_src1, eltwise_entry, sum_entry
from dnnl.engine import engine
from dnnl.memory import memory
from dnnl.primitive import arg_memory, primitive, primitive_desc

__all__ = ["resampling_forward", "resampling_backward"]

dt = data_type
f32 = np.float32
SUPPORTED = frozenset({dt.f32, dt.bf16, dt.f16, dt.s32, dt.s8, dt.u8})
ALGS = (algorithm.resampling_nearest, algorithm.resampling_linear)
ARG_SRC = C["DNNL_ARG_SRC"]
ARG_DST = C["DNNL_ARG_DST"]
ARG_DIFF_SRC = C["DNNL_ARG_DIFF_SRC"]
ARG_DIFF_DST = C["DNNL_ARG_DIFF_DST"]
ARG_SRC_1 = C["DNNL_ARG_SRC_1"]
POST_OP_BASE = C["DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE"]
PARALLEL_MIN = 1 << 14
MAX_POST_OPS = 32


def post_op_src1_arg(idx):
    """``DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_1``."""
    return POST_OP_BASE * (idx + 1) | ARG_SRC_1


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


def nearest_indices(n_in, n_out):
    """Source index of every output index, clamped into [0, n_in)."""
    idx = _roundf(_map(np.arange(n_out), n_out, n_in))
    return np.clip(idx, 0, max(n_in - 1, 0))


def linear_coeffs(n_in, n_out):
    """``(left, right, w_left)`` per output index."""
    s = _map(np.arange(n_out), n_out, n_in)
    left = np.clip(np.trunc(s.astype(np.float64)).astype(np.int64), 0, max(n_in - 1, 0))
    right = np.clip(np.minimum(_ceil_idx(s), n_in - 1), 0, max(n_in - 1, 0))
    w_right = np.abs(s - left.astype(f32)).astype(f32)
    return left, right, (f32(1) - w_right).astype(f32)


def backward_linear_ranges(n_in, n_out):
    """Per input index x: ``[(start, end) as x the left tap, as the right tap]``
    and per output index the weights ``(1 - w, w)`` (the gather form)."""
    x = np.arange(n_in)
    ls = np.where(x == 0, 0, _ceil_idx(_map(x, n_in, n_out)))
    le = np.minimum(_ceil_idx(_map(x + 1, n_in, n_out)), n_out)
    s = _map(x - 1, n_in, n_out)
    rs = np.where(s < 0, 0, np.trunc(s.astype(np.float64)).astype(np.int64) + 1)
    s2 = _map(x, n_in, n_out)
    re = np.where(s2 < 0, 0, np.trunc(s2.astype(np.float64)).astype(np.int64) + 1)
    re = np.where(x == n_in - 1, n_out, np.minimum(re, n_out))
    t = _map(np.arange(n_out), n_out, n_in)
    w = np.abs(t - np.trunc(t)).astype(f32)
    clip = lambda a: np.clip(a, 0, n_out).astype(np.int64)  # noqa: E731
    return ((clip(ls), clip(le)), (clip(rs), clip(re))), ((f32(1) - w).astype(f32), w)


def backward_nearest_ranges(n_in, n_out):
    """Per input index, the outputs that the forward pass maps onto it."""
    idx = nearest_indices(n_in, n_out)
    x = np.arange(n_in)
    return np.searchsorted(idx, x, "left"), np.searchsorted(idx, x, "right")


# ------------------------------------------------------------ descriptors
def _like(dims, ddt, ref):
    """``memory_desc_init_by_blocking_desc``: ``dims`` laid out like ``ref``.

    Dims are ordered by ``ref``'s strides (descending), ties by the new outer
    block counts (descending), then by position (a stable bubble sort, as
    oneDNN); strides are then recomputed dense around ``ref``'s inner blocks.
    """
    nd = len(dims)
    blocks = list(ref.blocks)
    padded = [-(-d // b) * b for d, b in zip(dims, blocks)]
    ou = [p // b for p, b in zip(padded, blocks)]
    keys = list(range(nd))
    vals = list(ref.strides)
    for i in range(nd - 1):
        swapped = False
        for j in range(nd - i - 1):
            res = vals[j + 1] - vals[j]
            if res == 0:
                res = ou[j + 1] - ou[j]
            if res > 0:
                vals[j], vals[j + 1] = vals[j + 1], vals[j]
                ou[j], ou[j + 1] = ou[j + 1], ou[j]
                keys[j], keys[j + 1] = keys[j + 1], keys[j]
                swapped = True
        if not swapped:
            break
    strides = [0] * nd
    stride = math.prod(ref.inner_blks)
    for d in reversed(keys):
        strides[d] = stride
        if padded[d] != 0:
            stride *= padded[d] // blocks[d]
    return desc._make(nd, tuple(dims), ddt, tuple(padded), (0,) * nd, 0,
                      format_kind.blocked, tuple(strides), ref.inner_blks, ref.inner_idxs)


def _check_md(md, what):
    if md is not None and not isinstance(md, desc):
        raise invalid("%s must be a dnnl.memory.desc" % what)


def _dst_from_factors(src_md, factors):
    """``fill_dst_md``: trunc(double(src dim) * double(f32 factor)), format any."""
    nsp = src_md.ndims - 2
    try:
        fac = [float(f32(f)) for f in factors]
    except (TypeError, ValueError):
        raise invalid("factors must be a sequence of floats") from None
    if len(fac) < nsp:
        raise invalid("%d factors given for %d spatial dims" % (len(fac), nsp))
    dims = list(src_md.dims[:2])
    for d, f in zip(src_md.dims[2:], fac):
        v = float(d) * f
        if not math.isfinite(v) or v < 0:
            # oneDNN creates negative dims here; we refuse them (docs/resampling.md)
            raise invalid("factor %r gives a %s destination dim" % (f, v))
        dims.append(int(v))
    return desc(dims, src_md.data_type, "any")


def _stored_factors(src_dims, dst_dims):
    out = [0.0, 0.0, 0.0]
    for i, (s, d) in enumerate(zip(src_dims[2:], dst_dims[2:])):
        if s == 0:
            out[i] = math.inf if d > 0 else math.nan
        else:
            out[i] = float(f32(d / s))
    return out


def _init_desc(fwd, alg, factors, src_md, dst_md):
    """``resampling_desc_init``; returns (src_md, dst_md)."""
    try:
        alg = algorithm(int(alg))
    except (TypeError, ValueError):
        alg = None
    if alg not in ALGS:
        raise invalid("resampling algorithm must be resampling_nearest or "
                      "resampling_linear")
    _check_md(src_md, "src_desc")
    _check_md(dst_md, "dst_desc")
    if src_md is None:
        raise invalid("resampling needs a src descriptor")
    if dst_md is None and factors is None:
        raise invalid("resampling needs a dst descriptor or factors")
    if src_md.ndims not in (3, 4, 5):
        raise invalid("resampling takes 3, 4 or 5 dims, not %d" % src_md.ndims)
    if src_md.format_kind == format_kind.host_scalar or (
            dst_md is not None and dst_md.format_kind == format_kind.host_scalar):
        raise invalid("host scalar descriptors are not resampling tensors")
    if fwd and src_md.format_kind == format_kind.any:
        raise invalid("resampling forward needs a concrete src layout, not any")
    if src_md.has_runtime_dims_or_strides() or (
            dst_md is not None and dst_md.has_runtime_dims_or_strides()):
        raise invalid("resampling does not take runtime dims or strides")
    if dst_md is None:
        dst_md = _dst_from_factors(src_md, factors)
    if dst_md.ndims != src_md.ndims:
        raise invalid("src has %d dims, dst %d" % (src_md.ndims, dst_md.ndims))
    if src_md.dims[:2] != dst_md.dims[:2]:
        raise invalid("src and dst differ in N or C: %s vs %s"
                      % (list(src_md.dims), list(dst_md.dims)))
    return alg, src_md, dst_md


def _check_types(*mds):
    for md in mds:
        if md.data_type not in SUPPORTED:
            raise unimpl("resampling does not support data type %s"
                         % getattr(md.data_type, "name", md.data_type))
        if md.format_kind not in (format_kind.blocked, format_kind.any):
            raise unimpl("resampling needs blocked layouts")


def _check_fwd_attr(attr, dst_md):
    """``resampling_attr_check`` for forward: post-ops only."""
    if attr.non_default_parts(dst_md.data_type) - {"post_ops"}:
        raise unimpl("resampling forward supports only post-op attributes")
    entries = attr.post_ops_.entries
    if len(entries) > MAX_POST_OPS:
        raise unimpl("at most %d post-ops" % MAX_POST_OPS)
    for i, e in enumerate(entries):
        if isinstance(e, sum_entry):
            if e.zero_point != 0:
                raise unimpl("a sum post-op with a zero point is not supported")
        elif isinstance(e, eltwise_entry):
            pass
        elif isinstance(e, binary_entry):
            if e.alg == algorithm.binary_select:
                raise unimpl("binary_select post-ops are not supported by resampling")
            check_binary_src1(dst_md, e.src1_desc, "binary post-op %d src1" % i)
            if e.src1_desc.data_type not in SUPPORTED:
                raise unimpl("binary post-op src1 data type %s is not supported"
                             % e.src1_desc.data_type.name)
            if e.src1_desc.format_kind != format_kind.blocked:
                raise invalid("binary post-op src1 needs a concrete layout")
        else:
            raise unimpl("resampling supports sum, eltwise and binary post-ops only")


# ------------------------------------------------------------ plans
def _axis_map(nd):
    """Logical dim of each of the axes N, C, D, H, W (None: missing)."""
    k = nd - 2
    return [0, 1, nd - 3 if k == 3 else None, nd - 2 if k >= 2 else None, nd - 1]


def _tables(md):
    """Per-axis offset tables (N, C, D, H, W); offset0 folded into N."""
    table, starts, sizes = _offsets.dim_tables(md)
    per = [table[s:s + n] for s, n in zip(starts, sizes)]
    out = []
    for a, d in enumerate(_axis_map(md.ndims)):
        t = np.zeros(1, np.int64) if d is None else np.asarray(per[d], np.int64)
        out.append(t)
    out[0] = out[0] + md.offset0
    return out


def _extents(md):
    return [1 if d is None else md.dims[d] for d in _axis_map(md.ndims)]


def _unit(t):
    return t.size < 2 or bool((np.diff(t) == 1).all())


def _choose_inner(c_tab, w_tab):
    """0 (channels) or 1 (width) as the innermost loop of the output."""
    c_unit = c_tab.size > 1 and c_tab[1] - c_tab[0] == 1
    w_unit = w_tab.size > 1 and _unit(w_tab)
    if c_unit:
        return 0
    if w_unit:
        return 1
    if c_tab.size > 1 and w_tab.size > 1:
        return 0 if abs(int(c_tab[1] - c_tab[0])) <= abs(int(w_tab[1] - w_tab[0])) else 1
    return 0 if c_tab.size >= w_tab.size else 1


def _c_runs(out_tab, in_tab):
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
    in_unit = np.array([_unit(in_tab[s:e]) for s, e in zip(starts, ends)], np.uint8)
    out_unit = np.array([_unit(out_tab[s:e]) for s, e in zip(starts, ends)], np.uint8)
    return [starts, lens, in_unit, out_unit]


def _fwd_plan(alg, src_md, dst_md, entries):
    nd = src_md.ndims
    k = nd - 2
    linear = alg == algorithm.resampling_linear
    st, dtab = _tables(src_md), _tables(dst_md)
    ins, outs = _extents(src_md), _extents(dst_md)
    s0, s1, wl, wr, idx0, idx1 = [], [], [], [], [], []
    for a in (2, 3, 4):
        n_in, n_out = ins[a], outs[a]
        if a - 2 < 3 - k:          # missing axis
            left = right = np.zeros(1, np.int64)
            w = np.ones(1, f32)
        elif linear:
            left, right, w = linear_coeffs(n_in, n_out)
        else:
            left = right = nearest_indices(n_in, n_out)
            w = np.ones(n_out, f32)
        tab = st[a]
        s0.append(tab[left] if tab.size else np.zeros(left.size, np.int64))
        s1.append(tab[right] if tab.size else np.zeros(right.size, np.int64))
        wl.append(w)
        wr.append((f32(1) - w).astype(f32))
        idx0.append(left)
        idx1.append(right)
    inner = _choose_inner(dtab[1], dtab[4])
    runs = _c_runs(dtab[1], st[1])
    L = max([1, ins[4], outs[4]] + [int(x) for x in runs[1]])
    po = []
    for i, e in enumerate(entries):
        if isinstance(e, sum_entry):
            po.append({"kind": 0, "scale": float(e.scale)})
        elif isinstance(e, eltwise_entry):
            po.append({"kind": 1, "alg": int(e.alg), "alpha": float(e.alpha),
                       "beta": float(e.beta), "scale": float(e.scale)})
        else:
            m = e.src1_desc
            t1 = _tables(m)
            e1 = _extents(m)
            tabs = []
            for a in range(5):
                if e1[a] == outs[a]:
                    tabs.append(t1[a])
                else:
                    tabs.append(np.full(outs[a], t1[a][0] if t1[a].size else 0, np.int64))
            if e1[0] != outs[0]:
                tabs[0] = tabs[0] + 0  # offset0 already in t1[0][0]
            po.append({"kind": 2, "alg": int(e.alg), "dt": int(m.data_type), "tabs": tabs})
    work = int(np.prod(outs))
    d = dict(k=k, linear=int(linear), inner=inner, N=outs[0], C=outs[1], OD=outs[2],
             OH=outs[3], OW=outs[4], IW=ins[4], sdt=int(src_md.data_type),
             ddt=int(dst_md.data_type), sN=st[0], sC=st[1], s0=s0, s1=s1,
             i0W=idx0[2], i1W=idx1[2], sWrow=st[4], wl=wl, wr=wr, dN=dtab[0],
             dC=dtab[1], dS=dtab[2:], dW_unit=_unit(dtab[4]), runs=runs, L=L,
             post_ops=po, parallel=work >= PARALLEL_MIN,
             pad=_offsets.padding_offsets(dst_md), esize=_dtypes.size(dst_md.data_type))
    from dnnl._kernels.resampling import FwdPlan   # first use: picks the ISA level
    return FwdPlan(d)


def _bwd_plan(alg, diff_src_md, diff_dst_md):
    nd = diff_src_md.ndims
    k = nd - 2
    linear = alg == algorithm.resampling_linear
    gt, dtab = _tables(diff_dst_md), _tables(diff_src_md)
    ins, outs = _extents(diff_src_md), _extents(diff_dst_md)
    rs, re, wt, nroles = [], [], [], []
    for a in (2, 3, 4):
        n_in, n_out = ins[a], outs[a]
        if a - 2 < 3 - k:
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
    inner = _choose_inner(dtab[1], dtab[4])
    runs = _c_runs(dtab[1], gt[1])
    L = max([1, ins[4], outs[4]] + [int(x) for x in runs[1]])
    work = int(np.prod(ins)) + int(np.prod(outs))
    d = dict(k=k, linear=int(linear), inner=inner, N=ins[0], C=ins[1], ID=ins[2],
             IH=ins[3], IW=ins[4], OW=outs[4], gdt=int(diff_dst_md.data_type),
             sdt=int(diff_src_md.data_type), gN=gt[0], gC=gt[1], gS=gt[2:], dN=dtab[0],
             dC=dtab[1], dS=dtab[2:], nroles=nroles, rs=rs, re=re, wt=wt,
             dW_unit=_unit(dtab[4]), runs=runs, L=L, parallel=work >= PARALLEL_MIN,
             pad=_offsets.padding_offsets(diff_src_md),
             esize=_dtypes.size(diff_src_md.data_type))
    from dnnl._kernels.resampling import BwdPlan
    return BwdPlan(d)


# ------------------------------------------------------------ primitive descriptors
class _resampling_pd(primitive_desc):
    kind = primitive_kind.resampling
    _impl = "ref:any"

    @property
    def _plan(self):
        """The kernel plan (None for an empty problem), built at first use:
        its tables grow with the output, so creation does not build them."""
        plan = self.__dict__.get("_plan_built", False)
        if plan is False:
            plan = self._plan_built = None if self._noop else self._build_plan()
        return plan

    def get_prop_kind(self):
        return self._prop

    def get_algorithm(self):
        return self._alg

    def get_factors(self):
        """The stored factors ``dst / src`` per spatial dim."""
        return list(self._factors[:self._ndims - 2])

    def query_factors(self):
        """``dnnl_query_factors``: 3 floats, zero past the spatial dims."""
        return list(self._factors)

    def query_s32(self, what):
        w = integer(what, "what")
        if w == query.prop_kind:
            return self._prop
        if w == query.alg_kind:
            return self._alg
        return super().query_s32(what)

    def _parse(self, args, kwargs, names):
        """C++-style positional/keyword arguments -> dict."""
        out = dict(zip(names, args))
        if len(args) > len(names):
            raise invalid("too many arguments")
        for key, val in kwargs.items():
            if key not in names:
                raise invalid("unexpected argument %r" % key)
            out[key] = val
        return out


def _is_factors(x):
    return x is not None and not isinstance(x, desc) and not isinstance(x, primitive_desc)


class resampling_forward(primitive):
    """Forward resampling (``dnnl::resampling_forward``).

    >>> import dnnl, numpy as np
    >>> from dnnl.resampling import resampling_forward
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> src_md = dnnl.memory.desc([1, 1, 4], "f32", "ncw")
    >>> pd = resampling_forward.primitive_desc(
    ...     eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear,
    ...     [2.0], src_md)
    >>> pd.dst_desc().dims, pd.get_factors()
    ((1, 1, 8), [2.0])
    >>> src, dst = dnnl.memory(src_md, eng), dnnl.memory(pd.dst_desc(), eng)
    >>> src.from_numpy(np.float32([[[0, 1, 2, 3]]]))
    >>> resampling_forward(pd).execute(dnnl.stream(eng),
    ...                                {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    >>> dst.to_numpy().ravel().tolist()
    [0.0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.0]

    See Also
    --------
    dnnl_resampling_forward_primitive_desc_create
    """

    class primitive_desc(_resampling_pd):
        """``resampling_forward::primitive_desc``:

        - ``(engine, prop_kind, algorithm, src_desc, dst_desc[, attr, allow_empty])``
        - ``(engine, prop_kind, algorithm, factors, src_desc[, attr, allow_empty])``
        - ``(engine, prop_kind, algorithm, factors, src_desc, dst_desc[, attr, allow_empty])``

        ``prop_kind`` is ``forward_training`` or ``forward_inference`` (computed
        identically); ``dst_desc`` may have format ``any`` (it takes the src
        layout); factors are used only without a dst descriptor.
        """

        def __init__(self, aengine, aprop_kind, aalgorithm, *args, **kwargs):
            allow_empty = kwargs.pop("allow_empty", False)
            factors = None
            if args and _is_factors(args[0]):
                factors = args[0]
                rest = args[1:]
                if len(rest) >= 2 and (isinstance(rest[1], desc) or rest[1] is None
                                       and len(rest) > 2):
                    p = self._parse(rest, kwargs, ("src_desc", "dst_desc", "attr"))
                else:
                    p = self._parse(rest, kwargs, ("src_desc", "attr"))
            else:
                p = self._parse(args, kwargs, ("src_desc", "dst_desc", "attr"))
            self._create(allow_empty, self._init, aengine, aprop_kind, aalgorithm, factors,
                         p.get("src_desc"), p.get("dst_desc"), p.get("attr"))

        def _init(self, aengine, aprop_kind, alg, factors, src_md, dst_md, attr):
            if not isinstance(aengine, engine):
                raise invalid("resampling needs a dnnl.engine")
            try:
                prop = prop_kind(int(aprop_kind))
            except (TypeError, ValueError):
                prop = None
            if prop not in (prop_kind.forward_training, prop_kind.forward_inference):
                raise invalid("resampling forward takes forward_training or "
                              "forward_inference")
            alg, src_md, dst_md = _init_desc(True, alg, factors, src_md, dst_md)
            self._init_base(aengine, attr, {})
            _check_fwd_attr(self._attr, dst_md)
            _check_types(src_md, dst_md)
            self._verbose_any = (False, dst_md.format_kind == format_kind.any)
            if dst_md.format_kind == format_kind.any:
                dst_md = _like(dst_md.dims, dst_md.data_type, src_md)
            self._prop, self._alg, self._ndims = prop, alg, src_md.ndims
            self._src_md, self._dst_md = src_md, dst_md
            self._mds = {query.src_md: src_md, query.dst_md: dst_md}
            self._factors = _stored_factors(src_md.dims, dst_md.dims)
            self._entries = tuple(self._attr.post_ops_.entries)
            self._binary = [(i, e.src1_desc) for i, e in enumerate(self._entries)
                            if isinstance(e, binary_entry)]
            self._num_inputs = 1 + len(self._binary)
            self._noop = src_md.nelems == 0 or dst_md.nelems == 0

        def _build_plan(self):
            return _fwd_plan(self._alg, self._src_md, self._dst_md, self._entries)

        def exec_args(self):
            args = {ARG_SRC: self._src_md, ARG_DST: self._dst_md}
            for i, md in self._binary:
                args[post_op_src1_arg(i)] = md
            return args

    def __init__(self, pd):
        if not isinstance(pd, resampling_forward.primitive_desc):
            raise invalid("resampling_forward needs a resampling_forward.primitive_desc")
        super().__init__(pd)

    def execute(self, astream, args):
        """Run with ``{DNNL_ARG_SRC: src, DNNL_ARG_DST: dst[, post-op src1...]}``."""
        self._check_stream(astream)
        pd = self._pd
        if not isinstance(args, dict):
            raise invalid("execution arguments must be a dict {arg: memory}")
        src = arg_memory(args, ARG_SRC, "DNNL_ARG_SRC", pd._src_md)
        dst = arg_memory(args, ARG_DST, "DNNL_ARG_DST", pd._dst_md, output=True)
        src1 = [None] * len(pd._entries)
        for i, md in pd._binary:
            m = arg_memory(args, post_op_src1_arg(i),
                           "DNNL_ARG_ATTR_MULTIPLE_POST_OP(%d) | DNNL_ARG_SRC_1" % i, md)
            src1[i] = m._address
        self._check_scratchpad(args)
        if pd._noop:
            return
        pd._plan.run(src._address, dst._address, src1)


class resampling_backward(primitive):
    """Backward resampling, ``backward_data`` (``dnnl::resampling_backward``).

    >>> import dnnl, numpy as np
    >>> from dnnl.resampling import resampling_forward, resampling_backward
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> ds_md = dnnl.memory.desc([1, 1, 2], "f32", "ncw")
    >>> dd_md = dnnl.memory.desc([1, 1, 8], "f32", "ncw")
    >>> hint = resampling_forward.primitive_desc(
    ...     eng, dnnl.prop_kind.forward_training, dnnl.algorithm.resampling_linear,
    ...     ds_md, dd_md)
    >>> pd = resampling_backward.primitive_desc(
    ...     eng, dnnl.algorithm.resampling_linear, ds_md, dd_md, hint)
    >>> dd, ds = dnnl.memory(dd_md, eng), dnnl.memory(ds_md, eng)
    >>> dd.from_numpy(np.ones((1, 1, 8), np.float32))
    >>> resampling_backward(pd).execute(
    ...     dnnl.stream(eng), {dnnl.DNNL_ARG_DIFF_DST: dd, dnnl.DNNL_ARG_DIFF_SRC: ds})
    >>> ds.to_numpy().ravel().tolist()
    [4.0, 4.0]

    See Also
    --------
    dnnl_resampling_backward_primitive_desc_create
    """

    class primitive_desc(_resampling_pd):
        """``resampling_backward::primitive_desc``:

        - ``(engine, algorithm, diff_src_desc, diff_dst_desc, hint_fwd_pd[, attr, allow_empty])``
        - ``(engine, algorithm, factors, diff_src_desc, hint_fwd_pd[, attr, allow_empty])``
        - ``(engine, algorithm, factors, diff_src_desc, diff_dst_desc, hint_fwd_pd[, attr, allow_empty])``

        ``diff_src_desc`` may have format ``any`` (it takes diff_dst's layout);
        a diff_dst with format ``any`` takes the hint's dst layout.
        """

        def __init__(self, aengine, aalgorithm, *args, **kwargs):
            allow_empty = kwargs.pop("allow_empty", False)
            factors = None
            if args and _is_factors(args[0]):
                factors = args[0]
                rest = args[1:]
                if len(rest) >= 2 and (isinstance(rest[1], desc) or (
                        rest[1] is None and len(rest) >= 3
                        and isinstance(rest[2], resampling_forward.primitive_desc))):
                    p = self._parse(rest, kwargs, ("diff_src_desc", "diff_dst_desc",
                                                   "hint_fwd_pd", "attr"))
                else:
                    p = self._parse(rest, kwargs, ("diff_src_desc", "hint_fwd_pd", "attr"))
            else:
                p = self._parse(args, kwargs, ("diff_src_desc", "diff_dst_desc",
                                               "hint_fwd_pd", "attr"))
            self._create(allow_empty, self._init, aengine, aalgorithm, factors,
                         p.get("diff_src_desc"), p.get("diff_dst_desc"),
                         p.get("hint_fwd_pd"), p.get("attr"))

        def _init(self, aengine, alg, factors, ds_md, dd_md, hint, attr):
            if not isinstance(aengine, engine):
                raise invalid("resampling needs a dnnl.engine")
            if hint is not None and not isinstance(hint, resampling_forward.primitive_desc):
                raise invalid("hint_fwd_pd must be a resampling_forward.primitive_desc")
            alg, ds_md, dd_md = _init_desc(False, alg, factors, ds_md, dd_md)
            self._init_base(aengine, attr, {})
            if self._attr.non_default_parts():
                raise unimpl("resampling backward takes no attributes")
            _check_types(ds_md, dd_md)
            self._verbose_any = (ds_md.format_kind == format_kind.any,
                                 dd_md.format_kind == format_kind.any)
            if dd_md.format_kind == format_kind.any and hint is not None and hint:
                if hint._dst_md.ndims != dd_md.ndims:
                    # oneDNN copies the hint's dst wholesale (another rank); we refuse
                    raise invalid("hint_fwd_pd's dst has %d dims, diff_dst %d"
                                  % (hint._dst_md.ndims, dd_md.ndims))
                dd_md = _like(dd_md.dims, dd_md.data_type, hint._dst_md)
            if ds_md.format_kind == format_kind.any:
                if dd_md.format_kind == format_kind.any:
                    raise unimpl("diff_src and diff_dst cannot both be format any")
                ds_md = _like(ds_md.dims, ds_md.data_type, dd_md)
            if dd_md.format_kind == format_kind.any:
                # oneDNN accepts this and leaves diff_dst unusable; we refuse it
                raise unimpl("diff_dst format any needs a forward hint")
            self._prop, self._alg, self._ndims = prop_kind.backward_data, alg, ds_md.ndims
            self._ds_md, self._dd_md = ds_md, dd_md
            self._mds = {query.diff_src_md: ds_md, query.diff_dst_md: dd_md}
            self._factors = _stored_factors(ds_md.dims, dd_md.dims)
            self._num_inputs = 1
            self._noop = ds_md.nelems == 0

        def _build_plan(self):
            return _bwd_plan(self._alg, self._ds_md, self._dd_md)

        def exec_args(self):
            return {ARG_DIFF_DST: self._dd_md, ARG_DIFF_SRC: self._ds_md}

    def __init__(self, pd):
        if not isinstance(pd, resampling_backward.primitive_desc):
            raise invalid("resampling_backward needs a resampling_backward.primitive_desc")
        super().__init__(pd)

    def execute(self, astream, args):
        """Run with ``{DNNL_ARG_DIFF_DST: diff_dst, DNNL_ARG_DIFF_SRC: diff_src}``."""
        self._check_stream(astream)
        pd = self._pd
        if not isinstance(args, dict):
            raise invalid("execution arguments must be a dict {arg: memory}")
        dd = arg_memory(args, ARG_DIFF_DST, "DNNL_ARG_DIFF_DST", pd._dd_md)
        ds = arg_memory(args, ARG_DIFF_SRC, "DNNL_ARG_DIFF_SRC", pd._ds_md, output=True)
        self._check_scratchpad(args)
        if pd._noop:
            return
        pd._plan.run(dd._address, ds._address)
