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
import operator

import numpy as np

from dnnl._core import format as _format
from dnnl._model.desc import assemble as make_desc, desc
from dnnl._core.enums import C, algorithm, data_type, format_kind, primitive_kind, prop_kind, query
from dnnl._core.args import integer, not_another_enum
from dnnl._core.error import invalid, unimpl
from dnnl.primitives.resampling.plan import (  # noqa: F401 (the coefficients are public)
    backward_linear_ranges, backward_nearest_ranges, bwd_plan, fwd_plan, linear_coeffs,
    nearest_indices)
from dnnl.attr import POST_OPS_LIMIT, binary_entry, check_binary_src1, eltwise_entry, sum_entry
from dnnl._model.engine import engine
from dnnl._core.registry import register_primitive
from dnnl._core.settings import settings
from dnnl.primitive import INPUT, OUTPUT, exec_arg, primitive, primitive_desc

__all__ = ["resampling_forward", "resampling_backward"]

dt = data_type
f32 = np.float32
SUPPORTED = frozenset({dt.f32, dt.bf16, dt.f16, dt.s32, dt.s8, dt.u8})
ALGS = (algorithm.resampling_nearest, algorithm.resampling_linear)
ARG_SRC, ARG_DST, ARG_DIFF_SRC, ARG_DIFF_DST, ARG_SRC_1, POST_OP_BASE = (
    C["DNNL_ARG_" + n] for n in ("SRC", "DST", "DIFF_SRC", "DIFF_DST", "SRC_1",
                                 "ATTR_MULTIPLE_POST_OP_BASE"))
#: the post-op chain's limit (the attribute's, POST_OPS_LIMIT; the kernel's
#: PostOps struct, dnnl/_kernels/spatial.pxd, holds as many)
MAX_POST_OPS = POST_OPS_LIMIT


def post_op_src1_arg(idx):
    """``DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_1``."""
    return POST_OP_BASE * (idx + 1) | ARG_SRC_1


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
    return make_desc(nd, tuple(dims), ddt, tuple(padded), (0,) * nd, 0,
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
    not_another_enum(alg, algorithm, "the resampling algorithm")
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


# ------------------------------------------------------------ primitive descriptors
class _resampling_pd(primitive_desc):
    kind = primitive_kind.resampling
    _impl = "ref:any"

    def get_prop_kind(self):
        return self._prop

    def exec_impl_str(self, mds=None):
        """``cython:rows``, ``cython:channels``, ``cython:rows+copy`` or
        ``cython:channels+copy``."""
        plan = self._plan()
        return self._impl if plan is None else "cython:" + plan.path

    def any_mds(self):
        """The ``(src, dst)`` (forward) or ``(diff_src, diff_dst)`` flags of
        the descriptors the user gave with format ``any`` (verbose's ``a``)."""
        return self._user_any

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


class _form:
    """One C++-style argument list: its field ``names`` in positional
    order, and where each of the primitive's ``fields`` comes from."""

    def __init__(self, names, fields):
        self.names = names
        self.fields = fields
        # positional values padded with one None, which absent fields pick
        self._pick = operator.itemgetter(*[names.index(f) if f in names else len(names)
                                           for f in fields])

    def values(self, args, kwargs):
        """The values of ``fields`` (None where absent) from the call's
        positional ``args`` and keyword ``kwargs``."""
        n = len(self.names)
        if len(args) > n:
            raise invalid("too many arguments")
        for key in kwargs:
            if key not in self.names:
                raise invalid("unexpected argument %r" % key)
        if kwargs:
            out = dict(zip(self.names, args), **kwargs)
            return tuple([out.get(f) for f in self.fields])
        return self._pick(args + (None,) * (n + 1 - len(args)))


_FWD = ("src_desc", "dst_desc", "attr")
_FWD_FULL, _FWD_SHORT = _form(_FWD, _FWD), _form(("src_desc", "attr"), _FWD)
_BWD = ("diff_src_desc", "diff_dst_desc", "hint_fwd_pd", "attr")
_BWD_FULL = _form(_BWD, _BWD)
_BWD_SHORT = _form(("diff_src_desc", "hint_fwd_pd", "attr"), _BWD)


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
            factors, form = None, _FWD_FULL
            if args and _is_factors(args[0]):
                factors, args = args[0], args[1:]
                if not (len(args) >= 2 and (isinstance(args[1], desc) or args[1] is None
                                            and len(args) > 2)):
                    form = _FWD_SHORT
            self._create(allow_empty, self._init, (aengine, aprop_kind, aalgorithm, factors,
                                                   *form.values(args, kwargs)))

        def _init(self, aengine, aprop_kind, alg, factors, src_md, dst_md, attr):
            if not isinstance(aengine, engine):
                raise invalid("resampling needs a dnnl.engine")
            not_another_enum(aprop_kind, prop_kind, "prop_kind")
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
            self._user_any = (False, dst_md.format_kind == format_kind.any)
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
            self._unprepared = not self._noop
            self._declare([exec_arg(ARG_SRC, src_md, INPUT, "DNNL_ARG_SRC"),
                           exec_arg(ARG_DST, dst_md, OUTPUT, "DNNL_ARG_DST")]
                          + [exec_arg(post_op_src1_arg(i), md, INPUT,
                                      "DNNL_ARG_ATTR_MULTIPLE_POST_OP(%d) | DNNL_ARG_SRC_1" % i)
                             for i, md in self._binary])

        def _build_plan(self, mds):
            """The plan of the declared mds (resampling has no runtime dims)."""
            if self._noop:
                return None
            return fwd_plan(self._alg, self._src_md, self._dst_md, self._entries,
                            parallel_min=settings.resampling_parallel_min)

        def _ready_plan(self):
            # run(src, dst); binary post-ops' sources need _execute
            return None if self._binary else self._plan()

        def _execute(self, mems):
            if self._noop:
                return None
            src1 = None
            if self._binary:     # post-op src1 addresses, by post-op index
                src1 = [None] * len(self._entries)
                for (i, _), m in zip(self._binary, mems[2:]):
                    src1[i] = m.address
            plan = self._plans.declared_plan(self._build_plan)
            plan.run(mems[0].address, mems[1].address, src1)
            return plan



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
        """``resampling_backward::primitive_desc`` from ``(engine, algorithm,
        [factors,] diff_src_desc, diff_dst_desc, hint_fwd_pd[, attr,
        allow_empty])``; given factors, ``diff_dst_desc`` may be left out.

        ``diff_src_desc`` may have format ``any`` (it takes diff_dst's layout);
        a diff_dst with format ``any`` takes the hint's dst layout.
        """

        def __init__(self, aengine, aalgorithm, *args, **kwargs):
            allow_empty = kwargs.pop("allow_empty", False)
            factors, form = None, _BWD_FULL
            if args and _is_factors(args[0]):
                factors, args = args[0], args[1:]
                if not (len(args) >= 2 and (isinstance(args[1], desc) or (
                        args[1] is None and len(args) >= 3
                        and isinstance(args[2], resampling_forward.primitive_desc)))):
                    form = _BWD_SHORT
            self._create(allow_empty, self._init, (aengine, aalgorithm, factors,
                                                   *form.values(args, kwargs)))

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
            self._user_any = (ds_md.format_kind == format_kind.any,
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
            self._unprepared = not self._noop
            self._declare([exec_arg(ARG_DIFF_DST, dd_md, INPUT, "DNNL_ARG_DIFF_DST"),
                           exec_arg(ARG_DIFF_SRC, ds_md, OUTPUT, "DNNL_ARG_DIFF_SRC")])

        def _build_plan(self, mds):
            """The plan of the declared mds (resampling has no runtime dims)."""
            if self._noop:
                return None
            return bwd_plan(self._alg, self._ds_md, self._dd_md,
                            parallel_min=settings.resampling_parallel_min)

        def _ready_plan(self):
            return self._plan()     # run(diff_dst, diff_src)

        def _execute(self, mems):
            if self._noop:
                return None
            plan = self._plans.declared_plan(self._build_plan)
            plan.run(mems[0].address, mems[1].address)
            return plan



# ------------------------------------------------------------------ registration
def _verbose_fields(pd, mds):
    """The verbose line's fields, as oneDNN's resampling prints them."""
    prop = pd.get_prop_kind()
    fwd = prop != prop_kind.backward_data
    src_md = pd.src_desc() if fwd else pd.diff_src_desc()
    dst_md = pd.dst_desc() if fwd else pd.diff_dst_desc()
    src_any, dst_any = pd.any_mds()
    nd = src_md.ndims
    sd, dd = src_md.dims, dst_md.dims
    problem = "mb%dic%d_" % (sd[0], sd[1])
    if nd >= 5:
        problem += "id%dod%d_" % (sd[nd - 3], dd[nd - 3])
    if nd >= 4:
        problem += "ih%doh%d_" % (sd[nd - 2], dd[nd - 2])
    problem += "iw%dow%d" % (sd[nd - 1], dd[nd - 1])
    mds_field = (_format.md_str("src", src_md, src_any) + " "
                 + _format.md_str("dst", dst_md, dst_any))
    return [_format.name(pd.get_engine().get_kind()), "resampling", pd.exec_impl_str(mds),
            _format.name(prop), mds_field, _format.attr_str(pd.get_primitive_attr()),
            "alg:" + _format.name(pd.get_algorithm()), problem]


# resampling_parallel_min: the element count from which a plan runs on several threads
_SWITCHES = {"resampling_parallel_min": 1 << 14}
for _cls in (resampling_forward, resampling_backward):
    register_primitive(_cls, _verbose_fields, "dnnl.benchdnn.resampling",
                       capi="dnnl.primitives.resampling.capi", switches=_SWITCHES)
del _cls
