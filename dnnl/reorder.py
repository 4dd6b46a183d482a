"""``dnnl.reorder``: copy a tensor between layouts and data types.

Semantics are oneDNN 3.13's reference reorder (``simple:any``,
src/cpu/reorder/simple_reorder.hpp): for every logical index ``x``

    t = s_src[x] * (src[x] - zp_src[x])
    t = t + beta * dst_old[x]            (sum post-op)
    dst[x] = saturate_round(t / s_dst[x] + zp_dst[x])

in f32, one rounding per operation. A reorder between equal data types with
no attributes is an exact bit copy. Validation follows oneDNN's order and
statuses (src/common/reorder.cpp, src/cpu/reorder/cpu_reorder.cpp).
"""
import numpy as np

from dnnl import _dtypes
from dnnl._desc import RUNTIME, desc, equal
from dnnl._enums import C, data_type, format_kind, primitive_kind, query
from dnnl._args import integer
from dnnl._error import invalid, unimpl
from dnnl._kernels import offsets as _offsets
from dnnl.attr import sum_entry
from dnnl.engine import engine
from dnnl.memory import memory
from dnnl.primitive import (ARG_ATTR_SCALES, ARG_ATTR_ZERO_POINTS, arg_memory,
                            primitive, primitive_desc)

dt = data_type
ARG_FROM = C["DNNL_ARG_FROM"]
ARG_TO = C["DNNL_ARG_TO"]
INTEGRAL = frozenset({dt.s64, dt.s32, dt.s8, dt.u8, dt.s4, dt.u4})
INT4 = frozenset({dt.s4, dt.u4, dt.f4_e2m1})

# The pairs oneDNN's CPU reorder implements (src/cpu/reorder/). (Integer to
# s64/e8m0/int4 pairs that oneDNN creates but never writes are left out.)
SUPPORTED = {
    dt.f32: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3,
             dt.e8m0, dt.s4, dt.u4, dt.f4_e2m1},
    dt.s32: {dt.f32, dt.s32, dt.s8, dt.u8},
    dt.s8: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16},
    dt.u8: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16},
    dt.bf16: {dt.f32, dt.s8, dt.u8, dt.bf16, dt.f8_e5m2, dt.f8_e4m3},
    dt.f16: {dt.f32, dt.s8, dt.u8, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.f8_e5m2: {dt.f32, dt.bf16, dt.f16, dt.f8_e5m2},
    dt.f8_e4m3: {dt.f32, dt.bf16, dt.f16, dt.f8_e4m3},
    dt.e8m0: {dt.f32},
    dt.s4: {dt.f32, dt.bf16, dt.f16},
    dt.u4: {dt.f32, dt.bf16, dt.f16},
    dt.f4_e2m1: {dt.f32},
}

PARALLEL_MIN_ELEMS = 1 << 15
#: Build element-by-element plans without any fast path (for tests).
GENERIC_PLANS = False


def _validate(src_md, dst_md, attr):
    """Creation-time checks in oneDNN's order; returns the sum scale (beta)."""
    if src_md.format_kind == format_kind.any or dst_md.format_kind == format_kind.any:
        raise invalid("reorder needs concrete layouts, not format any")
    if src_md.ndims != dst_md.ndims or src_md.dims != dst_md.dims:
        raise invalid("reorder src dims %s and dst dims %s differ"
                      % (list(src_md.dims), list(dst_md.dims)))
    sdt, ddt = src_md.data_type, dst_md.data_type
    zps, scales = attr.zero_points, attr.scales
    if ARG_FROM in zps and sdt not in INTEGRAL:
        raise invalid("a src zero point needs an integral src, not %s" % sdt.name)
    if ARG_TO in zps and ddt not in INTEGRAL:
        raise invalid("a dst zero point needs an integral dst, not %s" % ddt.name)
    if scales:
        if set(scales) - {ARG_FROM, ARG_TO}:
            raise unimpl("reorder takes scales for src and dst only")
        src_mask = scales[ARG_FROM].mask if ARG_FROM in scales else -2 ** 31
        if sdt in (dt.s4, dt.u4) and src_mask <= 0:
            raise invalid("an int4 src with scales needs a src scale mask > 0")
        if ARG_FROM in scales and scales[ARG_FROM].groups:
            e, nd = scales[ARG_FROM], src_md.ndims
            g0, g1 = e.groups
            if (nd < 2 or (g0 > 1 and src_md.dims[nd - 2] % g0)
                    or (g1 > 1 and src_md.dims[nd - 1] % g1)
                    or (e.mask >> (nd - 2)) & 3 != 3):
                raise invalid("src scale groups %s do not fit dims %s"
                              % (list(e.groups), list(src_md.dims)))
        if ARG_TO in scales and scales[ARG_TO].groups:
            raise invalid("dst scales cannot have groups")
    # implementation-level rejections: all unimplemented
    unsupported = attr.non_default_parts() - {"scales", "zero_points", "post_ops"}
    if unsupported:
        raise unimpl("reorder does not support %s" % ", ".join(sorted(unsupported)))
    beta = 0.0
    entries = attr.post_ops_.entries
    if entries:
        e = entries[0]
        if (len(entries) > 1 or not isinstance(e, sum_entry) or e.zero_point != 0
                or e.data_type != dt.undef):
            raise unimpl("reorder supports a single sum post-op without zero point "
                         "or data type")
        beta = e.scale
    if ARG_TO in scales and scales[ARG_TO].data_type != dt.f32:
        raise unimpl("dst scales must be f32")
    masks = [scales[a].mask for a in (ARG_FROM, ARG_TO) if a in scales]
    if len(masks) == 2 and masks[0] > 0 and masks[1] > 0 and masks[0] != masks[1]:
        raise unimpl("src and dst scale masks differ")
    if ddt not in SUPPORTED.get(sdt, ()):
        raise unimpl("reorder from %s to %s is not implemented" % (sdt.name, ddt.name))
    if ddt in INT4 or sdt in INT4:
        if src_md.has_runtime_dims_or_strides() or dst_md.has_runtime_dims_or_strides():
            raise unimpl("sub-byte reorders take no runtime dims")
    if ddt in INT4:
        if any(e.mask > 0 for e in scales.values()):
            raise unimpl("per-dim scales are not implemented for a %s dst" % ddt.name)
        if ARG_TO in zps:
            raise unimpl("dst zero points are not implemented for %s" % ddt.name)
        if any(e.data_type != dt.f32 for e in scales.values()):
            raise unimpl("a %s dst takes f32 scales only" % ddt.name)
    if sdt in INT4:
        if entries:
            raise unimpl("post-ops are not implemented for a %s src" % sdt.name)
        if ARG_TO in scales:
            raise unimpl("dst scales are not implemented for a %s src" % sdt.name)
        if src_md.nelems % 2:
            raise unimpl("a %s src needs an even element count" % sdt.name)
    return beta


def _quant_table(entry, dims, d):
    """Index of the scale / zero point each position of dim ``d`` uses."""
    qdims = entry.md_dims(dims)
    if not (entry.mask >> d) & 1:
        return np.zeros(dims[d], dtype=np.int64)
    stride = int(np.prod(qdims[d + 1:], dtype=np.int64))
    nd = len(dims)
    group = entry.groups[d - (nd - 2)] if entry.groups and d >= nd - 2 else 1
    return np.arange(dims[d], dtype=np.int64) // group * stride


def _step(t):
    """The step of a linear table (``t[i] == t[0] + i*step``), else None."""
    if t.size < 2:
        return 0
    step = int(t[1] - t[0])
    return step if (t == t[0] + step * np.arange(t.size)).all() else None


def _block_units(md, d):
    """Index units at which ``md`` splits logical dim ``d`` (innermost first)."""
    units, u = [], 1
    for blk, idx in reversed(list(zip(md.inner_blks, md.inner_idxs))):
        if idx == d:
            u *= blk
            units.append(u)
    return units


def _split_dim(size, units, tables):
    """Split one logical dim into sub-dims at ``units`` when every index space
    is separable there: returns [(sub size, [sub table per kind])] or None."""
    units = sorted(set(units))
    if not units or size % units[-1] or any(b % a for a, b in zip(units, units[1:])):
        return None
    bounds = units[::-1] + [1]          # outermost unit first
    sizes = [size // units[-1]] + [bounds[i] // bounds[i + 1] for i in range(len(units))]
    subs = []
    for n, unit in zip(sizes, bounds):
        subs.append((n, [None if t is None else t[np.arange(n) * unit] - t[0]
                         for t in tables]))
    for k, t in enumerate(tables):      # separability, checked on the full range
        if t is None:
            continue
        total = np.zeros(1, dtype=np.int64) + t[0]
        for n, tabs in subs:
            total = (total[:, None] + tabs[k][None, :]).reshape(-1)
        if not np.array_equal(total, t):
            return None
    subs[0] = (subs[0][0], [None if t is None else sub + t[0]
                            for t, sub in zip(tables, subs[0][1])])
    return subs


def build_plan(src_md, dst_md, quant, convert, generic=False):
    """Loop order, collapsed per-dim tables and padding offsets for a reorder.

    ``quant``: ``(entry or None)`` for src scales, dst scales, src zp, dst zp.
    Blocked dims are split into their blocks where the split is exact, so most
    layout pairs become a strided walk; each loop dim of each index space is
    then a table, or just a step when linear (contiguous runs merge without
    materialising any table). A 4-byte copy whose last two loop dims form a
    transpose runs as cache tiles. ``generic=True`` turns every optimisation
    off (one table per logical dim, element by element), to test them against.
    """
    dims = src_md.dims
    nd = len(dims)

    def split(tables):
        table, starts, sizes = tables
        return [table[s:s + n] for s, n in zip(starts, sizes)]

    per_kind = [split(_offsets.dim_tables(src_md)), split(_offsets.dim_tables(dst_md))]
    per_kind += [None if e is None else [_quant_table(e, dims, d) for d in range(nd)]
                 for e in quant]
    used = [k for k in range(6) if per_kind[k] is not None]
    consts = [src_md.offset0, dst_md.offset0, 0, 0, 0, 0]
    # Virtual dims: (size, [table per kind]); blocked dims split where exact.
    vdims = []
    for d in range(nd):
        tables = [None if t is None else t[d] for t in per_kind]
        subs = _split_dim(dims[d], _block_units(src_md, d) + _block_units(dst_md, d),
                          tables) if dims[d] > 1 and not generic else None
        vdims += subs if subs else [(dims[d], tables)]

    def granularity(t):
        return abs(int(t[1] - t[0])) if t.size > 1 else 0

    # Walk in the destination's order: innermost = finest dst granularity.
    vdims.sort(key=lambda v: (v[0] > 1, granularity(v[1][1]), granularity(v[1][0])),
               reverse=True)
    loop = []   # [size, {kind: table or int step}], outermost first
    for size, tables in vdims:
        if size == 1:   # unit dims only shift the origin
            for k in used:
                consts[k] += int(tables[k][0])
            continue
        entry = {}
        for k in used:
            t = tables[k]
            step = None if generic else _step(t)
            entry[k] = t if step is None else step
            if step is not None:
                consts[k] += int(t[0])
        if loop and all(isinstance(loop[-1][1][k], int) and isinstance(entry[k], int)
                        and loop[-1][1][k] == entry[k] * size for k in used):
            loop[-1][0] *= size          # nested linear ranges: one longer run
            loop[-1][1] = entry
            continue
        loop.append([size, entry])
    tile = None
    if not convert and _dtypes.size(src_md.data_type) == 4 and len(loop) >= 2:
        (na, a), (nb, b) = loop[-2], loop[-1]
        steps = (a[0], b[1], b[0], a[1])   # src on A, dst on B, src on B, dst on A
        if all(isinstance(t, int) for t in steps) and steps[:2] == (1, 1) \
                and na >= 4 and nb >= 4:
            tile = (b[0], a[1])
    while len(loop) < (3 if tile else 2):
        loop.insert(0, [1, {k: 0 for k in used}])
    sizes = [size for size, _ in loop]
    tables, linear = [None] * 6, [None] * 6
    for k in used:
        tabs = []
        for i, (size, entry) in enumerate(loop):
            t = entry[k]
            last = i == len(loop) - 1
            if isinstance(t, int):
                tabs.append(None if last else np.arange(size, dtype=np.int64) * t)
                if last:
                    linear[k] = t
            else:
                tabs.append(t)
        if tabs[0] is None:     # a single linear run: the origin goes first
            tabs[0] = np.zeros(1, dtype=np.int64)
        tabs[0] = tabs[0] + consts[k]
        tables[k] = tabs
    ddt = dst_md.data_type
    esize = 0 if src_md.data_type in _dtypes.SUB_BYTE else _dtypes.size(src_md.data_type)
    pad = _offsets.padding_offsets(dst_md)
    parallel = src_md.nelems >= PARALLEL_MIN_ELEMS and ddt not in _dtypes.SUB_BYTE
    from dnnl._kernels.reorder import Plan   # first use: picks the ISA level
    return Plan(sizes, tables, linear, convert, esize, int(src_md.data_type), int(ddt),
                pad, parallel, tile, fused=not generic)


class reorder(primitive):
    """The reorder primitive (``dnnl::reorder``).

    >>> import dnnl, numpy as np
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> src = dnnl.memory(dnnl.memory.desc([1, 3, 2, 2], "f32", "nchw"), eng)
    >>> dst = dnnl.memory(dnnl.memory.desc([1, 3, 2, 2], "s8", "nhwc"), eng)
    >>> src.from_numpy(np.array([1024, -1.5, 2.5, 0.5] * 3).reshape(1, 3, 2, 2))
    >>> dnnl.reorder(src, dst).execute(dnnl.stream(eng), src, dst)
    >>> dst.to_numpy()[0, 0]
    array([[127,  -2],
           [  2,   0]], dtype=int8)

    See Also
    --------
    dnnl_reorder_primitive_desc_create, dnnl_primitive_execute
    """

    class primitive_desc(primitive_desc):
        """``reorder::primitive_desc``: from (src engine, src md, dst engine,
        dst md[, attr]) or from (src memory, dst memory[, attr])."""

        kind = primitive_kind.reorder
        _impl = "simple:any"
        _num_inputs = 1

        def __init__(self, *args, allow_empty=False):
            self._create(allow_empty, self._init, *args)

        def _init(self, *args):
            attr = None
            if len(args) >= 2 and isinstance(args[0], memory):
                src_mem, dst_mem = args[0], args[1]
                if not isinstance(dst_mem, memory):
                    raise invalid("reorder needs a src and a dst memory")
                attr = args[2] if len(args) > 2 else None
                src_eng, src_md = src_mem.get_engine(), src_mem.get_desc()
                dst_eng, dst_md = dst_mem.get_engine(), dst_mem.get_desc()
            elif len(args) in (4, 5):
                src_eng, src_md, dst_eng, dst_md = args[:4]
                attr = args[4] if len(args) == 5 else None
            else:
                raise invalid("reorder.primitive_desc(src_engine, src_md, dst_engine, "
                              "dst_md[, attr]) or (src_mem, dst_mem[, attr])")
            for e in (src_eng, dst_eng):
                if not isinstance(e, engine):
                    raise invalid("reorder needs engines")
            for m in (src_md, dst_md):
                if not isinstance(m, desc):
                    raise invalid("reorder needs dnnl.memory.desc descriptors")
            self._init_base(src_eng, attr, {query.src_md: src_md, query.dst_md: dst_md})
            self._src_engine, self._dst_engine = src_eng, dst_eng
            self._src_md, self._dst_md = src_md, dst_md
            self._beta = _validate(src_md, dst_md, self._attr)
            scales, zps = self._attr.scales, self._attr.zero_points
            self._quant = (scales.get(ARG_FROM), scales.get(ARG_TO),
                           zps.get(ARG_FROM), zps.get(ARG_TO))
            # any post-op (even a sum with scale 0) selects the arithmetic path:
            # only "no attributes at all" is the bit copy of policy 4
            self._convert = (src_md.data_type != dst_md.data_type
                             or bool(self._attr.post_ops_.entries)
                             or any(q is not None for q in self._quant))
            self._runtime = (src_md.has_runtime_dims_or_strides()
                             or dst_md.has_runtime_dims_or_strides())
            self._plans = {}    # built at first use: creation costs no per-index work

        def _plan(self, src_md, dst_md):
            return build_plan(src_md, dst_md, self._quant, self._convert, GENERIC_PLANS)

        def plan_for(self, src_md, dst_md):
            key = (src_md, dst_md)
            plan = self._plans.get(key)
            if plan is None:
                if len(self._plans) > 64:
                    self._plans.clear()
                plan = self._plans[key] = self._plan(src_md, dst_md)
            return plan

        def get_src_engine(self):
            return self._src_engine

        def get_dst_engine(self):
            return self._dst_engine

        def exec_args(self):
            return {ARG_FROM: self._src_md, ARG_TO: self._dst_md}

        def query_s64(self, what):
            what = integer(what, "what")
            if what == query.reorder_src_engine:
                return self._src_engine
            if what == query.reorder_dst_engine:
                return self._dst_engine
            return super().query_s64(what)

    def __init__(self, *args, **kwargs):
        if len(args) == 1 and isinstance(args[0], reorder.primitive_desc):
            pd = args[0]
        else:
            pd = reorder.primitive_desc(*args, **kwargs)
        super().__init__(pd)

    def execute(self, astream, args, dst=None):
        """Run: ``execute(stream, {DNNL_ARG_FROM: src, DNNL_ARG_TO: dst, ...})``
        or ``execute(stream, src, dst)``."""
        if isinstance(args, memory):
            args = {ARG_FROM: args, ARG_TO: dst}
        self._check_stream(astream)
        pd = self._pd
        if pd._runtime:
            src = arg_memory(args, ARG_FROM, "DNNL_ARG_FROM")
            dst = arg_memory(args, ARG_TO, "DNNL_ARG_TO", output=True)
            _check_runtime(pd._src_md, src._md, "src")
            _check_runtime(pd._dst_md, dst._md, "dst")
            plan = pd.plan_for(src._md, dst._md)
        else:
            src = arg_memory(args, ARG_FROM, "DNNL_ARG_FROM", pd._src_md)
            dst = arg_memory(args, ARG_TO, "DNNL_ARG_TO", pd._dst_md, output=True)
            plan = pd.plan_for(pd._src_md, pd._dst_md)
        self._check_scratchpad(args)
        if not pd._convert:
            plan.run(src._address, dst._address, pad_esize=_pad_esize(dst._md))
            return
        dims = src._md.dims
        ssc, dsc, szp, dzp = pd._quant
        keep = [
            _values(args, ARG_ATTR_SCALES | ARG_FROM, ssc, dims, np.float32, "src scales"),
            _values(args, ARG_ATTR_SCALES | ARG_TO, dsc, dims, np.float32, "dst scales"),
            _values(args, ARG_ATTR_ZERO_POINTS | ARG_FROM, szp, dims, np.int32,
                    "src zero points"),
            _values(args, ARG_ATTR_ZERO_POINTS | ARG_TO, dzp, dims, np.int32,
                    "dst zero points"),
        ]
        addrs = [0 if a is None else a.__array_interface__["data"][0] for a in keep]
        plan.run(src._address, dst._address, addrs[0], addrs[1], addrs[2], addrs[3],
                 pd._beta, _pad_esize(dst._md))


def _pad_esize(md):
    return 0 if md.data_type in _dtypes.SUB_BYTE else _dtypes.size(md.data_type)


def _check_runtime(pd_md, md, what):
    if md.ndims != pd_md.ndims or md.data_type != pd_md.data_type or any(
            p != RUNTIME and p != d for p, d in zip(pd_md.dims, md.dims)):
        raise invalid("%s memory %r does not fit the primitive's %r" % (what, md, pd_md))


def _values(args, arg, entry, dims, dtype, what):
    """The scale / zero-point values for ``entry`` as a contiguous array."""
    if entry is None:
        return None
    mem = arg_memory(args, arg, what)
    values = mem.to_numpy().reshape(-1)
    if values.dtype != dtype:
        values = values.astype(np.float64 if dtype == np.float32 else np.int64).astype(dtype)
    count = entry.count(dims)
    if values.size == 1 and count > 1:   # one value broadcasts, as simple:any reads it
        values = np.full(count, values[0], dtype=dtype)
    if values.size < count:
        raise invalid("%s: %d values given, the mask needs %d" % (what, values.size, count))
    return np.ascontiguousarray(values)
