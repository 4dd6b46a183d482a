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

from dnnl._core import dtypes as _dtypes
from dnnl._core import format as _format
from dnnl._model.desc import RUNTIME, desc
from dnnl._core.enums import C, data_type, format_kind, primitive_kind, query
from dnnl._core.args import integer
from dnnl._core.error import invalid, unimpl
from dnnl._model.offsets import data_address
from dnnl.primitives.reorder.plan import SPACES, TENSORS, build_plan
from dnnl.attr import sum_entry
from dnnl._model.engine import engine
from dnnl._model.logical import row_major
from dnnl._model.memory import memory
from dnnl._core.registry import register_primitive
from dnnl._core.settings import settings
from dnnl.primitive import (ARG_ATTR_SCALES, ARG_ATTR_ZERO_POINTS, INPUT, OUTPUT,
                            exec_arg, primitive, primitive_desc)

dt = data_type
ARG_FROM = C["DNNL_ARG_FROM"]
ARG_TO = C["DNNL_ARG_TO"]
# Each attribute index space of the plan: (attribute field, argument, value
# type). The order of _quant and of the QUANT_* tuples is the plan's (SPACES).
_QUANT_SPACES = {"src scales": ("scales", ARG_FROM, np.float32),
                 "dst scales": ("scales", ARG_TO, np.float32),
                 "src zero points": ("zero_points", ARG_FROM, np.int32),
                 "dst zero points": ("zero_points", ARG_TO, np.int32)}
_ATTR_ARG = {"scales": ARG_ATTR_SCALES, "zero_points": ARG_ATTR_ZERO_POINTS}
QUANT_NAMES = SPACES[TENSORS:]
_QUANT_FIELDS = tuple(_QUANT_SPACES[n][:2] for n in QUANT_NAMES)
QUANT_ARGS = tuple(_ATTR_ARG[field] | arg for field, arg in _QUANT_FIELDS)
QUANT_DTYPES = tuple(_QUANT_SPACES[n][2] for n in QUANT_NAMES)
_VALUE_TYPES = {np.float32: dt.f32, np.int32: dt.s32}     # the kernels' value types
INTEGRAL = _dtypes.INTEGRAL

# The pairs oneDNN's CPU reorder implements (src/cpu/reorder/) on a CPU
# with every ISA it checks (avx512_core_fp16 and AMX). (Integer to
# s64/e8m0/int4 pairs that oneDNN creates but never writes are left out;
# bf16/f16/f8 <-> s32 only between identical layouts, see DIRECT_COPY_ONLY.)
# u8 -> f16, bf16 <-> f16 and f8_e5m2 <-> f8_e4m3 have no reference
# implementation: oneDNN serves them with jit:uni alone
# (src/cpu/x64/jit_uni_reorder.cpp, ``applicable``), which needs
# avx512_core_fp16 or avx2_vnni_2; here they convert on every CPU and layout.
SUPPORTED = {
    dt.f32: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3,
             dt.e8m0, dt.s4, dt.u4, dt.f4_e2m1},
    dt.s32: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.s8: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16},
    dt.u8: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16},
    dt.bf16: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.f16: {dt.f32, dt.s32, dt.s8, dt.u8, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.f8_e5m2: {dt.f32, dt.s32, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.f8_e4m3: {dt.f32, dt.s32, dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3},
    dt.e8m0: {dt.f32},
    dt.s4: {dt.f32, dt.bf16, dt.f16},
    dt.u4: {dt.f32, dt.bf16, dt.f16},
    dt.f4_e2m1: {dt.f32},
}

# Pairs oneDNN serves only with jit_direct_copy:uni
# (src/cpu/x64/jit_uni_reorder_direct_copy.cpp): no runtime dims, default
# attributes, src "similar_to" dst with padding (same dims, strides, inner
# blocks, padded dims and offsets) and, measured, a dense layout (its kernel
# copies the padded element count in a row). (Its ISA checks: avx512_core
# for bf16, avx512_core_fp16 or avx2_vnni_2 for f16, avx512_core_amx for f8;
# without them it is unimplemented in oneDNN, here the pairs convert on every
# CPU.)
DIRECT_COPY_ONLY = frozenset(p for t in (dt.bf16, dt.f16, dt.f8_e5m2, dt.f8_e4m3)
                             for p in ((t, dt.s32), (dt.s32, t)))
# the sub-byte types the reorder takes
INT4 = _dtypes.SUB_BYTE.intersection(SUPPORTED)


def _dense(md):
    """``memory_desc_wrapper::is_dense(true)``: the padded elements fill the
    buffer."""
    n = 1
    for d in md.padded_dims:
        n *= d
    return md.get_size() == n * md.data_type_size()


def _similar(a, b):
    """``memory_desc_wrapper::similar_to(b, with_padding=true,
    with_data_type=false)``."""
    return (a.ndims == b.ndims and a.format_kind == b.format_kind
            and tuple(a.dims) == tuple(b.dims) and tuple(a.strides) == tuple(b.strides)
            and tuple(a.inner_blks) == tuple(b.inner_blks)
            and tuple(a.inner_idxs) == tuple(b.inner_idxs)
            and tuple(a.padded_dims) == tuple(b.padded_dims)
            and tuple(a.padded_offsets) == tuple(b.padded_offsets))


def _validate(src_md, dst_md, attr):
    """Creation-time checks in oneDNN's order; returns the sum scale (beta)."""
    if src_md.format_kind == format_kind.any or dst_md.format_kind == format_kind.any:
        raise invalid("reorder needs concrete layouts, not format any")
    if src_md.ndims != dst_md.ndims or src_md.dims != dst_md.dims:
        raise invalid("reorder src dims %s and dst dims %s differ"
                      % (list(src_md.dims), list(dst_md.dims)))
    for md in (src_md, dst_md):     # no CPU reorder reads or writes them (measured)
        if md.format_kind in (format_kind.sparse, format_kind.host_scalar):
            raise unimpl("reorders to and from %s descriptors are not implemented on "
                         "CPU, as in oneDNN" % md.format_kind.name)
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
    if (sdt, ddt) in DIRECT_COPY_ONLY:
        if (attr.non_default_parts() or src_md.has_runtime_dims_or_strides()
                or dst_md.has_runtime_dims_or_strides() or not _similar(src_md, dst_md)
                or not _dense(src_md)):
            raise unimpl("reorder from %s to %s needs identical layouts and no "
                         "attributes" % (sdt.name, ddt.name))
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
            self._create(allow_empty, self._init, args)

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
            self._quant = tuple(getattr(self._attr, field).get(arg)
                                for field, arg in _QUANT_FIELDS)
            # any post-op (even a sum with scale 0) selects the arithmetic path:
            # only "no attributes at all" is the bit copy of policy 4
            self._convert = (src_md.data_type != dst_md.data_type
                             or bool(self._attr.post_ops_.entries)
                             or any(q is not None for q in self._quant))
            self._runtime = (src_md.has_runtime_dims_or_strides()
                             or dst_md.has_runtime_dims_or_strides())
            self._unprepared = not self._runtime and not _empty(src_md)
            # runtime dims: any memory binds; _execute checks it fits
            decl = [exec_arg(ARG_FROM, None if self._runtime else src_md, INPUT,
                             "DNNL_ARG_FROM"),
                    exec_arg(ARG_TO, None if self._runtime else dst_md, OUTPUT,
                             "DNNL_ARG_TO")]
            for q, arg, what in zip(self._quant, QUANT_ARGS, QUANT_NAMES):
                if q is not None:
                    decl.append(exec_arg(arg, None, INPUT, what))
            self._declare(decl)

        def _build_plan(self, mds):
            """The plan for (src md, dst md) ``mds`` (None: the declared
            ones); None when there are no elements, as oneDNN does nothing."""
            src_md, dst_md = (self._src_md, self._dst_md) if mds is None else mds
            if _empty(src_md):
                return None
            return build_plan(src_md, dst_md, self._quant, self._convert,
                              settings.generic_reorder_plans,
                              parallel_min=settings.reorder_parallel_min)

        def _ready_plan(self):
            # run(src, dst, then the QUANT_NAMES values' addresses); a sum
            # post-op's beta and runtime dims need _execute
            if self._runtime or self._attr.post_ops_.entries:
                return None
            return self._plan()

        # the declared plan of a reorder with neither runtime dims nor
        # quantization, once built: its execution in one attribute read
        _copy_plan = None

        def _execute(self, mems):
            src, dst = mems[0], mems[1]
            plan = self._copy_plan
            if plan is not None:
                plan.run(src.address, dst.address)
                return plan
            if self._runtime:   # any memory bound: check that it fits
                _check_runtime(self._src_md, src.md, "src")
                _check_runtime(self._dst_md, dst.md, "dst")
                plan = self._plan((src.md, dst.md))
            else:
                plan = self._plans.declared_plan(self._build_plan)
            if plan is None:
                return None
            if not self._convert:
                if not self._runtime:
                    self._copy_plan = plan
                plan.run(src.address, dst.address)
                return plan
            dims = (src.md if self._runtime else self._src_md).dims
            keep, addrs, m = [], [0, 0, 0, 0], 2
            for i, q in enumerate(self._quant):
                if q is not None:
                    mem = mems[m]
                    m += 1
                    addrs[i] = _in_place(mem, q.count(dims), QUANT_DTYPES[i])
                    if not addrs[i]:        # converted or broadcast: a copy
                        values = _values(mem, q, dims, QUANT_DTYPES[i], QUANT_NAMES[i])
                        keep.append(values)
                        addrs[i] = data_address(values)
            plan.run(src.address, dst.address, addrs[0], addrs[1], addrs[2], addrs[3],
                     self._beta)
            return plan

        def exec_impl_str(self, mds=None):
            """``cython:copy``, ``cython:tile`` or ``cython:convert``: the kernel
            path for these src / dst mds (``impl_info_str()`` until a runtime-dim
            reorder knows its shapes)."""
            src_md, dst_md = self._src_md, self._dst_md
            if mds is not None and self._runtime:
                src_md, dst_md = mds.get(ARG_FROM, src_md), mds.get(ARG_TO, dst_md)
            if (src_md.has_runtime_dims_or_strides() or dst_md.has_runtime_dims_or_strides()
                    or _empty(src_md)):
                return self._impl
            return "cython:" + self._plan(None if src_md is self._src_md and dst_md is self._dst_md
                                          else (src_md, dst_md)).path

        def get_src_engine(self):
            return self._src_engine

        def get_dst_engine(self):
            return self._dst_engine

        def query_s64(self, what):
            what = integer(what, "what")
            engines = {query.reorder_src_engine: self._src_engine,
                       query.reorder_dst_engine: self._dst_engine}
            return engines[what] if what in engines else super().query_s64(what)


    def _pd_of(self, pd, args, kwargs):
        """``reorder(*primitive_desc_args)`` (the C++ API's ``reorder(src_memory,
        dst_memory[, attr])`` included) makes its descriptor; ``reorder(pd,
        cache_blob)`` is the cache-blob constructor (``primitive``'s)."""
        if isinstance(pd, reorder.primitive_desc) and (args or kwargs):
            return super()._pd_of(pd, args, kwargs)
        if args or kwargs or not isinstance(pd, reorder.primitive_desc):
            pd = reorder.primitive_desc(pd, *args, **kwargs)
        return pd

    def _arg_map(self, args, dst):
        """``execute(stream, src, dst)`` is ``execute(stream, {FROM: src, TO: dst})``."""
        if isinstance(args, memory):
            return {ARG_FROM: args, ARG_TO: dst}
        return super()._arg_map(args, dst)


def _empty(md):
    """A tensor with a zero dim: reorders of it are created and run as no-ops."""
    return any(d == 0 for d in md.dims)


def _check_runtime(pd_md, md, what):
    if md.ndims != pd_md.ndims or md.data_type != pd_md.data_type or any(
            p != RUNTIME and p != d for p, d in zip(pd_md.dims, md.dims)):
        raise invalid("%s memory %r does not fit the primitive's %r" % (what, md, pd_md))


def _in_place(mem, count, dtype):
    """The address of ``mem``'s scale / zero-point values when its buffer
    holds the ``count`` values the kernel reads as they are (a dense 1-D
    run of ``dtype``), else 0 (then :func:`_values` makes them)."""
    md = mem.md
    if (md.ndims == 1 and md.data_type == _VALUE_TYPES[dtype] and md.strides == (1,)
            and md.format_kind == format_kind.blocked and not md.inner_blks
            and (md.dims[0] == count or md.dims[0] > count > 0 and md.dims[0] > 1)
            and mem.address):
        return mem.address + 4 * md.offset0
    return 0


def _values(mem, entry, dims, dtype, what):
    """The scale / zero-point values of ``mem`` for ``entry``, contiguous: the
    buffer itself when it holds them so (no copy per execution), else a copy."""
    md = mem.md
    if md.data_type == _VALUE_TYPES[dtype] and row_major(md):
        values = mem.map_data()[md.offset0:md.offset0 + md.nelems]
    else:
        values = mem.to_numpy().reshape(-1)
    if values.dtype != dtype:
        values = values.astype(np.float64 if dtype == np.float32 else np.int64).astype(dtype)
    count = entry.count(dims)
    if values.size == 1 and count > 1:   # one value broadcasts, as simple:any reads it
        values = np.full(count, values[0], dtype=dtype)
    if values.size < count:
        raise invalid("%s: %d values given, the mask needs %d" % (what, values.size, count))
    return np.ascontiguousarray(values)


# ------------------------------------------------------------------ registration
def _runtime_mask(md):
    return sum(1 << d for d in range(md.ndims) if md.dims[d] == RUNTIME)


def _verbose_fields(pd, mds):
    """The verbose line's fields, as oneDNN's reorder prints them (the engine
    pair when src and dst engines differ, the runtime-dim mask as aux)."""
    src_md, dst_md = pd.src_desc(), pd.dst_desc()
    runtime = src_md.has_runtime_dims_or_strides() or dst_md.has_runtime_dims_or_strides()
    aux = "runtime-dim-mask:%d" % _runtime_mask(src_md) if runtime else ""
    if mds:
        src_md, dst_md = mds.get(ARG_FROM, src_md), mds.get(ARG_TO, dst_md)
    src_kind, dst_kind = pd.get_src_engine().get_kind(), pd.get_dst_engine().get_kind()
    eng = _format.name(src_kind)
    if src_kind != dst_kind:
        eng = "%s2%s" % (eng, _format.name(dst_kind))
    return [eng, "reorder", pd.exec_impl_str(mds), "undef",
            _format.md_str("src", src_md) + " " + _format.md_str("dst", dst_md),
            _format.attr_str(pd.get_primitive_attr()), aux, _format.dims_str(src_md.dims)]


register_primitive(reorder, _verbose_fields, "dnnl.benchdnn.reorder", capi="dnnl.primitives.reorder.capi",
                   # generic_reorder_plans: the element-by-element plan (the one the
                   # fast plans are checked against); reorder_parallel_min: the element
                   # count from which a plan runs on several threads
                   switches={"generic_reorder_plans": False, "reorder_parallel_min": 1 << 15})
