"""Sparse descriptors, memories over several handles and host scalars: the
same ctypes programs against real oneDNN and against ``dnnl.capi``.

Each program is written once against ``lib`` and logs every status, query
answer, size and output byte it sees; handles are logged as what they point
at (NULL, one of the program's own buffers, or "a pointer"), since addresses
differ between the two libraries. Counts are recorded under ``sparse/*``.

Left out, because oneDNN's answer there is memory it does not own (the
project documents them in docs/c_api.md): ``dnnl_memory_get_data_handle_v2``
and ``set_data_handle_v2`` with a negative index (oneDNN crashes), the data
type of a negative buffer index of a descriptor that is not sparse, executing
a reorder without its host scale (oneDNN crashes), and an f16 host scale
(oneDNN's reference reorder reads it as f32).
"""
import ctypes

import numpy as np
import pytest

import dnnl.capi
import oracle as _oracle_mod
from dnnl._core.enums import C

pytestmark = pytest.mark.conformance

P = ctypes.POINTER
p_, i_, i64, sz = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_size_t
Dims = i64 * 12
K = dnnl.capi
RUNTIME = C["DNNL_RUNTIME_DIM_VAL"]
ALLOCATE = C["DNNL_MEMORY_ALLOCATE"] & (2 ** 64 - 1)


class ExecArg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


SIGS = {
    "dnnl_engine_create": (i_, [P(p_), i_, sz]),
    "dnnl_engine_destroy": (i_, [p_]),
    "dnnl_stream_create": (i_, [P(p_), p_, ctypes.c_uint]),
    "dnnl_stream_wait": (i_, [p_]),
    "dnnl_stream_destroy": (i_, [p_]),
    "dnnl_memory_desc_create_with_tag": (i_, [P(p_), i_, P(i64), i_, i_]),
    "dnnl_memory_desc_create_with_csr_encoding": (i_, [P(p_), i_, P(i64), i_, i64, i_, i_]),
    "dnnl_memory_desc_create_with_coo_encoding": (i_, [P(p_), i_, P(i64), i_, i64, i_]),
    "dnnl_memory_desc_create_with_packed_encoding": (i_, [P(p_), i_, P(i64), i_, i64]),
    "dnnl_memory_desc_create_host_scalar": (i_, [P(p_), i_]),
    "dnnl_memory_desc_create_submemory": (i_, [P(p_), p_, P(i64), P(i64)]),
    "dnnl_memory_desc_reshape": (i_, [P(p_), p_, i_, P(i64)]),
    "dnnl_memory_desc_permute_axes": (i_, [P(p_), p_, P(i_)]),
    "dnnl_memory_desc_query": (i_, [p_, i_, p_]),
    "dnnl_memory_desc_query_v2": (i_, [p_, i_, i_, p_]),
    "dnnl_memory_desc_equal": (i_, [p_, p_]),
    "dnnl_memory_desc_get_size": (sz, [p_]),
    "dnnl_memory_desc_get_size_v2": (sz, [p_, i_]),
    "dnnl_memory_desc_clone": (i_, [P(p_), p_]),
    "dnnl_memory_desc_destroy": (i_, [p_]),
    "dnnl_memory_create": (i_, [P(p_), p_, p_, p_]),
    "dnnl_memory_create_v2": (i_, [P(p_), p_, p_, i_, P(p_)]),
    "dnnl_memory_create_host_scalar": (i_, [P(p_), p_, p_]),
    "dnnl_memory_get_memory_desc": (i_, [p_, P(p_)]),
    "dnnl_memory_get_engine": (i_, [p_, P(p_)]),
    "dnnl_memory_get_data_handle": (i_, [p_, P(p_)]),
    "dnnl_memory_set_data_handle": (i_, [p_, p_]),
    "dnnl_memory_get_data_handle_v2": (i_, [p_, P(p_), i_]),
    "dnnl_memory_set_data_handle_v2": (i_, [p_, p_, i_]),
    "dnnl_memory_map_data_v2": (i_, [p_, P(p_), i_]),
    "dnnl_memory_unmap_data_v2": (i_, [p_, p_, i_]),
    "dnnl_memory_get_host_scalar_value": (i_, [p_, p_]),
    "dnnl_memory_set_host_scalar_value": (i_, [p_, p_]),
    "dnnl_memory_destroy": (i_, [p_]),
    "dnnl_primitive_attr_create": (i_, [P(p_)]),
    "dnnl_primitive_attr_destroy": (i_, [p_]),
    "dnnl_primitive_attr_set_scales_v2": (i_, [p_, i_, i_, i_, P(i64), i_, i_]),
    "dnnl_primitive_attr_set_zero_points_v2": (i_, [p_, i_, i_, i_, P(i64), i_, i_]),
    "dnnl_reorder_primitive_desc_create": (i_, [P(p_), p_, p_, p_, p_, p_]),
    "dnnl_resampling_forward_primitive_desc_create": (
        i_, [P(p_), p_, i_, i_, P(ctypes.c_float), p_, p_, p_]),
    "dnnl_primitive_desc_destroy": (i_, [p_]),
    "dnnl_primitive_create": (i_, [P(p_), p_]),
    "dnnl_primitive_execute": (i_, [p_, p_, i_, P(ExecArg)]),
    "dnnl_primitive_destroy": (i_, [p_]),
}


def declare(lib):
    for name, (res, args) in SIGS.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


class Ctx(_oracle_mod.Ctx):
    """One run of a program (oracle.Ctx) with buffers of its own, which
    returned pointers are logged against."""

    def __init__(self, lib):
        self.bufs = []
        super().__init__(lib)

    def buf(self, nbytes=512):
        b = ctypes.create_string_buffer(nbytes)
        self.bufs.append(b)
        return ctypes.addressof(b)

    def ptr(self, v):
        """What a returned pointer is, the same on both libraries."""
        v = v or 0
        if v == 0:
            return "NULL"
        for k, b in enumerate(self.bufs):
            if v == ctypes.addressof(b):
                return "buffer %d" % k
        return "a pointer"

    def md(self, kind, *args, what="md"):
        md = p_()
        lib = self.lib
        if kind == "tag":
            dims, dt, tag = args
            st = lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(dims), Dims(*dims),
                                                      dt, tag)
        elif kind == "hs":
            st = lib.dnnl_memory_desc_create_host_scalar(ctypes.byref(md), *args)
        else:
            dims, rest = args[0], args[1:]
            fn = getattr(lib, "dnnl_memory_desc_create_with_%s_encoding" % kind)
            st = fn(ctypes.byref(md), len(dims), Dims(*dims), *rest)
        self.st(what, st)
        return self.keep(lib.dnnl_memory_desc_destroy, md) if st == 0 else None

    def mem_v2(self, md, handles, what):
        mem = p_()
        arr = (p_ * max(len(handles), 1))(*handles)
        st = self.st(what, self.lib.dnnl_memory_create_v2(ctypes.byref(mem), md, self.eng,
                                                          len(handles), arr))
        return self.keep(self.lib.dnnl_memory_destroy, mem) if st == 0 else None

    def handles(self, mem, what, upto=5):
        for i in range(upto):
            h = p_()
            st = self.st("%s get_data_handle_v2(%d)" % (what, i),
                         self.lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), i))
            if st == 0:
                self.put("%s handle %d" % (what, i), self.ptr(h.value))
            mp = p_()
            st = self.st("%s map_data_v2(%d)" % (what, i),
                         self.lib.dnnl_memory_map_data_v2(mem, ctypes.byref(mp), i))
            if st == 0:
                self.put("%s mapped %d" % (what, i), self.ptr(mp.value))
                self.st("%s unmap_data_v2(%d)" % (what, i),
                        self.lib.dnnl_memory_unmap_data_v2(mem, mp, i))


QUERIES_S32 = ("format_kind", "ndims_s32", "sparse_encoding", "num_handles_s32",
               "inner_nblks_s32")


def md_v2_info(ctx, md, what, sparse):
    """Every answer of query / query_v2 / get_size(_v2) about ``md``."""
    lib = ctx.lib
    for q in QUERIES_S32 + ("data_type",):
        for index in range(-3 if sparse else 0, 5):
            if q == "data_type" and index < 0 and not sparse:
                continue
            v = ctypes.c_int32(-7)
            st = ctx.st("%s v2 %s[%d]" % (what, q, index), lib.dnnl_memory_desc_query_v2(
                md, C["dnnl_query_" + q], index, ctypes.byref(v)))
            if st == 0:
                ctx.put("%s v2 %s[%d]=" % (what, q, index), v.value)
    for q in ("nnz_s64", "submemory_offset_s64"):
        v = i64(-7)
        for index in (0, 1):
            st = ctx.st("%s v2 %s[%d]" % (what, q, index), lib.dnnl_memory_desc_query_v2(
                md, C["dnnl_query_" + q], index, ctypes.byref(v)))
            if st == 0:
                ctx.put("%s v2 %s[%d]=" % (what, q, index), v.value)
        ctx.st("%s v1 %s" % (what, q), lib.dnnl_memory_desc_query(
            md, C["dnnl_query_" + q], ctypes.byref(v)))
    for q in ("dims", "padded_dims", "padded_offsets", "strides", "inner_blks"):
        ptr = P(i64)()
        st = ctx.st("%s %s" % (what, q), lib.dnnl_memory_desc_query_v2(
            md, C["dnnl_query_" + q], 0, ctypes.byref(ptr)))
        if st == 0:
            ctx.put("%s %s=" % (what, q), [ptr[k] for k in range(12)])
    ctx.put("%s size" % what, lib.dnnl_memory_desc_get_size(md))
    for index in range(-1, 5):
        ctx.put("%s size_v2(%d)" % (what, index), lib.dnnl_memory_desc_get_size_v2(md, index))


f32, s32, s8, u8, f16, s4 = (C["dnnl_" + t] for t in ("f32", "s32", "s8", "u8", "f16", "s4"))
SPARSE_SPECS = [
    ("csr", [16, 32], f32, 40, s32, s32), ("csr", [16, 32], f32, 40, s32, s8),
    ("csr", [16, 32], f32, 41, s32, s32), ("csr", [7], f16, 3, u8, s32),
    ("csr", [5, 9], s4, 3, s32, s32), ("csr", [16, 32], f32, -5, s32, s32),
    ("csr", [16, 32], f32, 2 ** 33 + 7, s32, s32), ("csr", [4, 4], f32, 3, 0, 999),
    ("csr", [0, 4], f32, 3, s32, s32), ("csr", [RUNTIME, 4], f32, 3, s32, s32),
    ("csr", [2, 3, 4], f32, 4, s32, s32), ("csr", [], f32, 4, s32, s32),
    ("csr", [-1, 3], f32, 4, s32, s32), ("csr", [4, 4], 0, 4, s32, s32),
    ("csr", [4, 4], 999, 4, s32, s32),
    ("coo", [16, 32], f32, 40, s32), ("coo", [16, 32], f32, 40, s8), ("coo", [9], s8, 2, s32),
    ("coo", [2, 3, 4], f32, 4, s32), ("coo", [16, 32], f32, -1, s32),
    ("packed", [16, 32], f32, 40), ("packed", [2, 3, 4], f32, 4), ("packed", [16, 32], s8, 0),
    ("packed", [-2, 4], f32, 4),
]


def prog_sparse_descs(lib):
    """Create, query, size, compare, clone and transform sparse descriptors."""
    ctx = Ctx(lib)
    made = []
    for k, spec in enumerate(SPARSE_SPECS):
        md = ctx.md(*spec, what="create %r" % (spec,))
        if md is None:
            continue
        made.append(md)
        md_v2_info(ctx, md, "md%d" % k, True)
        out = p_()
        ctx.st("md%d reshape" % k, lib.dnnl_memory_desc_reshape(
            ctypes.byref(out), md, 1, Dims(512)))
        ctx.st("md%d permute" % k, lib.dnnl_memory_desc_permute_axes(
            ctypes.byref(out), md, (i_ * 12)(*range(12))))
        ctx.st("md%d submemory" % k, lib.dnnl_memory_desc_create_submemory(
            ctypes.byref(out), md, Dims(1, 1), Dims(0, 0)))
        clone = p_()
        ctx.st("md%d clone" % k, lib.dnnl_memory_desc_clone(ctypes.byref(clone), md))
        ctx.put("md%d clone equal" % k, lib.dnnl_memory_desc_equal(clone, md))
        lib.dnnl_memory_desc_destroy(clone)
    plain = ctx.md("tag", [16, 32], f32, K.dnnl_ab)
    made.append(plain)
    for a in range(len(made)):
        for b in range(len(made)):
            ctx.put("equal %d %d" % (a, b), lib.dnnl_memory_desc_equal(made[a], made[b]))
    ctx.st("csr NULL out", lib.dnnl_memory_desc_create_with_csr_encoding(
        None, 2, Dims(4, 4), f32, 3, s32, s32))
    return ctx.close()


HS_TYPES = ("f32", "s32", "s8", "u8", "bf16", "f16", "f64", "s4", "u4", "f4_e2m1", "e8m0",
            "f8_e5m2", "f8_e4m3", "s64")


def prog_host_scalar(lib):
    """Host-scalar descriptors and memories: queries, values, misuse."""
    ctx = Ctx(lib)
    mds = []
    for name in HS_TYPES + ("data_type_undef",):
        md = ctx.md("hs", C["dnnl_" + name], what="host_scalar %s" % name)
        if md is None:
            continue
        mds.append(md)
        md_v2_info(ctx, md, "hs " + name, False)
        raw = ctypes.c_uint64(0x1122334455667788)
        mem = p_()
        st = ctx.st("hs %s memory" % name, lib.dnnl_memory_create_host_scalar(
            ctypes.byref(mem), md, ctypes.byref(raw)))
        if st:
            continue
        ctx.keep(lib.dnnl_memory_destroy, mem)
        raw.value = 0                   # the memory keeps its own copy
        out = ctypes.c_uint64(0)
        ctx.st("hs %s get" % name, lib.dnnl_memory_get_host_scalar_value(mem, ctypes.byref(out)))
        ctx.put("hs %s value" % name, out.value)
        new = ctypes.c_uint64(0x0102030405060708)
        ctx.st("hs %s set" % name, lib.dnnl_memory_set_host_scalar_value(mem, ctypes.byref(new)))
        out.value = 0
        ctx.st("hs %s get again" % name, lib.dnnl_memory_get_host_scalar_value(
            mem, ctypes.byref(out)))
        ctx.put("hs %s value again" % name, out.value)
        eng, got = p_(), p_()
        ctx.st("hs %s engine" % name, lib.dnnl_memory_get_engine(mem, ctypes.byref(eng)))
        ctx.put("hs %s engine" % name, ctx.ptr(eng.value))
        ctx.st("hs %s get md" % name, lib.dnnl_memory_get_memory_desc(mem, ctypes.byref(got)))
        ctx.put("hs %s md equal" % name, lib.dnnl_memory_desc_equal(got, md))
        ctx.handles(mem, "hs " + name, 2)
        h = p_()
        ctx.st("hs %s get_data_handle" % name, lib.dnnl_memory_get_data_handle(
            mem, ctypes.byref(h)))
        ctx.st("hs %s set_data_handle" % name, lib.dnnl_memory_set_data_handle(mem, ctx.buf()))
        ctx.st("hs %s set_data_handle_v2" % name, lib.dnnl_memory_set_data_handle_v2(
            mem, ctx.buf(), 0))
        ctx.st("hs %s get NULL" % name, lib.dnnl_memory_get_host_scalar_value(mem, None))
        ctx.st("hs %s set NULL" % name, lib.dnnl_memory_set_host_scalar_value(mem, None))
    f = mds[0]
    plain_md = ctx.md("tag", [1], f32, K.dnnl_a)
    v = ctypes.c_float(2.5)
    for what, md, ptr in (("NULL value", f, None), ("plain md", plain_md, ctypes.byref(v)),
                          ("NULL md", None, ctypes.byref(v))):
        ctx.st("create_host_scalar " + what, lib.dnnl_memory_create_host_scalar(
            ctypes.byref(p_()), md, ptr))
    ctx.st("create_host_scalar NULL out", lib.dnnl_memory_create_host_scalar(
        None, f, ctypes.byref(v)))
    mem = p_()
    ctx.st("memory_create hs md", lib.dnnl_memory_create(ctypes.byref(mem), f, ctx.eng,
                                                         p_(ALLOCATE)))
    ctx.mem_v2(f, [ALLOCATE], "memory_create_v2 hs md")
    plain = ctx.mem_v2(plain_md, [ctx.buf()], "plain memory")
    ctx.st("get host scalar of plain", lib.dnnl_memory_get_host_scalar_value(
        plain, ctypes.byref(v)))
    ctx.st("set host scalar of plain", lib.dnnl_memory_set_host_scalar_value(
        plain, ctypes.byref(v)))
    ctx.st("get host scalar of NULL", lib.dnnl_memory_get_host_scalar_value(
        None, ctypes.byref(v)))
    ctx.put("hs equal plain [1]", lib.dnnl_memory_desc_equal(f, plain_md))
    for a in range(len(mds)):
        for b in range(len(mds)):
            ctx.put("hs equal %d %d" % (a, b), lib.dnnl_memory_desc_equal(mds[a], mds[b]))
    return ctx.close()


def prog_sparse_memory(lib):
    """Memories over sparse and dense descriptors with one or several handles."""
    ctx = Ctx(lib)
    csr = ctx.md("csr", [16, 32], f32, 40, s32, s32)
    coo = ctx.md("coo", [16, 32], f32, 40, s32)
    packed = ctx.md("packed", [16, 32], f32, 40)
    neg = ctx.md("csr", [16, 32], f32, -5, s32, s32)
    dense = ctx.md("tag", [2, 3], f32, K.dnnl_ab)
    mem = p_()
    st = ctx.st("memory_create csr allocate", lib.dnnl_memory_create(
        ctypes.byref(mem), csr, ctx.eng, p_(ALLOCATE)))
    if st == 0:
        ctx.keep(lib.dnnl_memory_destroy, mem)
        ctx.handles(mem, "csr v1 allocate")
    mem1 = p_()
    if ctx.st("memory_create csr user", lib.dnnl_memory_create(
            ctypes.byref(mem1), csr, ctx.eng, p_(ctx.buf()))) == 0:
        ctx.keep(lib.dnnl_memory_destroy, mem1)
        ctx.handles(mem1, "csr v1 user")
    cases = [("csr 3 user", csr, [ctx.buf(), ctx.buf(), ctx.buf()]),
             ("csr 1 user", csr, [ctx.buf()]),
             ("csr 2 user", csr, [ctx.buf(), ctx.buf()]),
             ("csr 4 user", csr, [ctx.buf(), ctx.buf(), ctx.buf(), ctx.buf()]),
             ("csr 3 allocate", csr, [ALLOCATE] * 3),
             ("csr NULL handles", csr, [None, None, None]),
             ("coo 3 user", coo, [ctx.buf(), ctx.buf(), ctx.buf()]),
             ("packed 3 allocate", packed, [ALLOCATE] * 3),
             ("packed 3 user", packed, [ctx.buf(), ctx.buf(), ctx.buf()]),
             ("negative nnz allocate", neg, [ALLOCATE] * 3),
             ("negative nnz user", neg, [ctx.buf(), ctx.buf(), ctx.buf()]),
             ("dense 3 user", dense, [ctx.buf(), ctx.buf(), ctx.buf()]),
             ("dense 0 handles", dense, [])]
    for what, md, handles in cases:
        m = ctx.mem_v2(md, handles, "create_v2 " + what)
        if m is None:
            continue
        ctx.handles(m, what)
        for index in (1, 2, 3, 7):
            b = ctx.buf()
            if ctx.st("%s set_data_handle_v2(%d)" % (what, index),
                      lib.dnnl_memory_set_data_handle_v2(m, b, index)) == 0:
                h = p_()
                lib.dnnl_memory_get_data_handle_v2(m, ctypes.byref(h), index)
                ctx.put("%s handle %d after set" % (what, index), ctx.ptr(h.value))
        ctx.st("%s unmap_data_v2(-1)" % what, lib.dnnl_memory_unmap_data_v2(m, None, -1))
        ctx.st("%s map_data_v2(-1)" % what, lib.dnnl_memory_map_data_v2(
            m, ctypes.byref(p_()), -1))
    ctx.st("create_v2 NULL handles", lib.dnnl_memory_create_v2(
        ctypes.byref(p_()), csr, ctx.eng, 3, None))
    pd = p_()
    for what, a, b in (("csr->plain", csr, dense), ("plain->csr", dense, csr)):
        ctx.st("reorder " + what, lib.dnnl_reorder_primitive_desc_create(
            ctypes.byref(pd), a, ctx.eng, b, ctx.eng, None))
    plain = ctx.md("tag", [16, 32], f32, K.dnnl_ab)
    for what, a, b in (("csr->plain", csr, plain), ("plain->csr", plain, csr),
                       ("plain->packed", plain, packed), ("coo->plain", coo, plain)):
        ctx.st("reorder same dims " + what, lib.dnnl_reorder_primitive_desc_create(
            ctypes.byref(pd), a, ctx.eng, b, ctx.eng, None))
    return ctx.close()


def _read(ctx, mem, nbytes):
    h = p_()
    ctx.lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    return ctypes.string_at(h, nbytes)


def _tensor(ctx, dims, dt, values):
    md = ctx.md("tag", dims, dt, K.dnnl_ab if len(dims) == 2 else K.dnnl_a)
    raw = np.ascontiguousarray(values).tobytes()
    b = ctx.buf(max(len(raw), 64))
    ctypes.memmove(b, raw, len(raw))
    return md, ctx.mem_v2(md, [b], "tensor")


def _host_scalar(ctx, dt, value, ctype):
    md = ctx.md("hs", dt)
    v = ctype(value)
    mem = p_()
    ctx.st("host scalar", ctx.lib.dnnl_memory_create_host_scalar(ctypes.byref(mem), md,
                                                                 ctypes.byref(v)))
    return ctx.keep(ctx.lib.dnnl_memory_destroy, mem)


REORDER_CASES = [  # src dt, dst dt, attr arg, zero point?, value type, value, ctype
    (f32, f32, "FROM", False, f32, 2.0, ctypes.c_float),
    (f32, f32, "TO", False, f32, 4.0, ctypes.c_float),
    (f32, s8, "TO", False, f32, 0.5, ctypes.c_float),
    (f32, s8, "FROM", False, f32, 8.0, ctypes.c_float),
    (s8, f32, "FROM", True, s32, 3, ctypes.c_int32),
    (f32, s8, "TO", True, s32, -3, ctypes.c_int32),
    (s8, u8, "TO", True, s32, 7, ctypes.c_int32),
]


def prog_host_scalar_quantization(lib):
    """A reorder whose scale or zero point is on the host: given a host-scalar
    memory, a plain memory, and (attribute not on the host) a host scalar."""
    ctx = Ctx(lib)
    for k, (sdt, ddt, side, zp, qdt, qv, ctype) in enumerate(REORDER_CASES):
        arg = C["DNNL_ARG_" + side]
        src_md, src = _tensor(ctx, [2, 4], sdt,
                              np.arange(-3, 5, dtype=np.float32 if sdt == f32 else np.int8))
        dst_md, dst = _tensor(ctx, [2, 4], ddt, np.zeros(32, np.uint8))
        host = _host_scalar(ctx, qdt, qv, ctype)
        _, plain = _tensor(ctx, [1], qdt, np.array([qv], np.float32 if qdt == f32 else np.int32))
        for on_host in (1, 0):
            attr = p_()
            lib.dnnl_primitive_attr_create(ctypes.byref(attr))
            ctx.keep(lib.dnnl_primitive_attr_destroy, attr)
            setter = (lib.dnnl_primitive_attr_set_zero_points_v2 if zp
                      else lib.dnnl_primitive_attr_set_scales_v2)
            ctx.st("%d attr host %d" % (k, on_host), setter(attr, arg, 0, 0, None, qdt, on_host))
            pd = p_()
            if ctx.st("%d pd host %d" % (k, on_host), lib.dnnl_reorder_primitive_desc_create(
                    ctypes.byref(pd), src_md, ctx.eng, dst_md, ctx.eng, attr)):
                continue
            ctx.keep(lib.dnnl_primitive_desc_destroy, pd)
            prim = p_()
            ctx.st("%d primitive" % k, lib.dnnl_primitive_create(ctypes.byref(prim), pd))
            ctx.keep(lib.dnnl_primitive_destroy, prim)
            qarg = C["DNNL_ARG_ATTR_ZERO_POINTS" if zp else "DNNL_ARG_ATTR_SCALES"] | arg
            for given, qmem in (("host scalar", host), ("plain", plain)):
                ctypes.memset(_handle(ctx, dst), 0, 32)
                args = (ExecArg * 3)(ExecArg(K.DNNL_ARG_FROM, src), ExecArg(K.DNNL_ARG_TO, dst),
                                     ExecArg(qarg, qmem))
                st = ctx.st("%d host %d exec with %s" % (k, on_host, given),
                            lib.dnnl_primitive_execute(prim, ctx.strm, 3, args))
                lib.dnnl_stream_wait(ctx.strm)
                if st == 0:
                    ctx.put("%d host %d dst with %s" % (k, on_host, given), _read(ctx, dst, 32))
    attr = p_()
    lib.dnnl_primitive_attr_create(ctypes.byref(attr))
    ctx.keep(lib.dnnl_primitive_attr_destroy, attr)
    ctx.st("host scale mask 1", lib.dnnl_primitive_attr_set_scales_v2(
        attr, K.DNNL_ARG_FROM, 1, 0, None, f32, 1))
    for side in ("SRC", "DST"):
        attr = p_()
        lib.dnnl_primitive_attr_create(ctypes.byref(attr))
        ctx.keep(lib.dnnl_primitive_attr_destroy, attr)
        lib.dnnl_primitive_attr_set_scales_v2(attr, C["DNNL_ARG_" + side], 0, 0, None, f32, 1)
        src_md = ctx.md("tag", [1, 2, 4, 4], f32, K.dnnl_abcd)
        dst_md = ctx.md("tag", [1, 2, 8, 8], f32, K.dnnl_abcd)
        pd = p_()
        st = ctx.st("resampling %s host scale" % side,
                    lib.dnnl_resampling_forward_primitive_desc_create(
                        ctypes.byref(pd), ctx.eng, K.dnnl_forward_inference,
                        K.dnnl_resampling_nearest, None, src_md, dst_md, attr))
        if st == 0:
            lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def _handle(ctx, mem):
    h = p_()
    ctx.lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    return h.value


PROGRAMS = [prog_sparse_descs, prog_host_scalar, prog_sparse_memory,
            prog_host_scalar_quantization]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__[5:])
def test_same_log_on_both(program, libs, oracle):
    real, ours = libs
    expect = program(real)
    got = program(ours)
    assert len(got) == len(expect), (len(got), len(expect))
    for k, (e, g) in enumerate(zip(expect, got)):
        assert g == e, "entry %d differs: oneDNN %.300r, dnnl.capi %.300r" % (k, e, g)
    _oracle_mod.record("sparse/programs")
    for entry in expect:
        _oracle_mod.record("sparse/log entries")
        if entry[0].startswith("status "):
            _oracle_mod.record("sparse/matching statuses")
            if entry[1] != 0:
                _oracle_mod.record("sparse/matching error statuses")


def _resampling_with_packed(lib):
    ctx = Ctx(lib)
    packed = ctx.md("packed", [1, 2, 4, 4], f32, 8)
    dst = ctx.md("tag", [1, 2, 8, 8], f32, K.dnnl_abcd)
    pd = p_()
    st = lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(pd), ctx.eng, K.dnnl_forward_inference, K.dnnl_resampling_nearest, None,
        packed, dst, None)
    if st == 0:
        lib.dnnl_primitive_desc_destroy(pd)
    ctx.close()
    return st


def test_documented_deviation_resampling_over_packed(libs):
    """docs/c_api.md: oneDNN creates a resampling pd over a packed sparse
    descriptor (whose layout is still undefined); here it is unimplemented."""
    real, ours = libs
    assert _resampling_with_packed(real) == K.dnnl_success
    assert _resampling_with_packed(ours) == K.dnnl_unimplemented
    _oracle_mod.record("sparse/documented deviations")
