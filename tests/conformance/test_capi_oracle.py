"""The same ctypes programs against real oneDNN and against ``dnnl.capi``.

Each program below is written once, C-style, against ``lib`` (handles in
``c_void_p``, out-parameters through ``byref``, dims arrays, exec-arg
structures, raw data pointers) and appends what it observes -- every status it
checks, every query result, every output buffer as bytes -- to a log. The
test runs it with ``lib = ctypes.CDLL("libdnnl.so.3")`` and with
``lib = dnnl.capi`` and requires the two logs to be identical, entry by
entry. Counts are recorded under ``capi/*`` (see conftest).

Values are chosen so that every implementation real oneDNN may pick rounds
the same way (power-of-two scales, small integers for linear resampling);
resampling steps to the reference implementation with
``dnnl_primitive_desc_next_impl`` as docs/internals/conformance.md describes.
"""
import ctypes
import os
import sys

import numpy as np
import pytest

import dnnl.capi
import oracle as _oracle_mod
from dnnl._core.enums import C, C_ENUMS

pytestmark = pytest.mark.conformance

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples"))

P = ctypes.POINTER
p_, i_, i64, f_ = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_float
Dims = i64 * 12


class ExecArg(ctypes.Structure):          # the program's own dnnl_exec_arg_t
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


SIGS = {
    "dnnl_engine_get_count": (ctypes.c_size_t, [i_]),
    "dnnl_engine_create": (i_, [P(p_), i_, ctypes.c_size_t]),
    "dnnl_engine_get_kind": (i_, [p_, P(i_)]),
    "dnnl_engine_destroy": (i_, [p_]),
    "dnnl_stream_create": (i_, [P(p_), p_, ctypes.c_uint]),
    "dnnl_stream_get_engine": (i_, [p_, P(p_)]),
    "dnnl_stream_wait": (i_, [p_]),
    "dnnl_stream_destroy": (i_, [p_]),
    "dnnl_get_default_fpmath_mode": (i_, [P(i_)]),
    "dnnl_set_verbose": (i_, [i_]),
    "dnnl_memory_desc_create_with_tag": (i_, [P(p_), i_, P(i64), i_, i_]),
    "dnnl_memory_desc_create_with_strides": (i_, [P(p_), i_, P(i64), i_, P(i64)]),
    "dnnl_memory_desc_create_submemory": (i_, [P(p_), p_, P(i64), P(i64)]),
    "dnnl_memory_desc_reshape": (i_, [P(p_), p_, i_, P(i64)]),
    "dnnl_memory_desc_permute_axes": (i_, [P(p_), p_, P(i_)]),
    "dnnl_memory_desc_query": (i_, [p_, i_, p_]),
    "dnnl_memory_desc_query_v2": (i_, [p_, i_, i_, p_]),
    "dnnl_memory_desc_equal": (i_, [p_, p_]),
    "dnnl_memory_desc_get_size": (ctypes.c_size_t, [p_]),
    "dnnl_memory_desc_clone": (i_, [P(p_), p_]),
    "dnnl_memory_desc_get_blob": (i_, [p_, P(ctypes.c_size_t), p_]),
    "dnnl_memory_desc_create_with_blob": (i_, [P(p_), p_]),
    "dnnl_memory_desc_destroy": (i_, [p_]),
    "dnnl_data_type_size": (ctypes.c_size_t, [i_]),
    "dnnl_memory_create": (i_, [P(p_), p_, p_, p_]),
    "dnnl_memory_get_memory_desc": (i_, [p_, P(p_)]),
    "dnnl_memory_get_engine": (i_, [p_, P(p_)]),
    "dnnl_memory_get_data_handle": (i_, [p_, P(p_)]),
    "dnnl_memory_set_data_handle": (i_, [p_, p_]),
    "dnnl_memory_map_data": (i_, [p_, P(p_)]),
    "dnnl_memory_unmap_data": (i_, [p_, p_]),
    "dnnl_memory_destroy": (i_, [p_]),
    "dnnl_primitive_attr_create": (i_, [P(p_)]),
    "dnnl_primitive_attr_clone": (i_, [P(p_), p_]),
    "dnnl_primitive_attr_destroy": (i_, [p_]),
    "dnnl_primitive_attr_get_scratchpad_mode": (i_, [p_, P(i_)]),
    "dnnl_primitive_attr_set_scratchpad_mode": (i_, [p_, i_]),
    "dnnl_primitive_attr_get_fpmath_mode": (i_, [p_, P(i_)]),
    "dnnl_primitive_attr_set_fpmath_mode": (i_, [p_, i_]),
    "dnnl_primitive_attr_get_fpmath_mode_v2": (i_, [p_, P(i_), P(i_)]),
    "dnnl_primitive_attr_set_fpmath_mode_v2": (i_, [p_, i_, i_]),
    "dnnl_primitive_attr_get_accumulation_mode": (i_, [p_, P(i_)]),
    "dnnl_primitive_attr_set_accumulation_mode": (i_, [p_, i_]),
    "dnnl_primitive_attr_get_deterministic": (i_, [p_, P(i_)]),
    "dnnl_primitive_attr_set_deterministic": (i_, [p_, i_]),
    "dnnl_primitive_attr_get_rounding": (i_, [p_, i_, P(i_)]),
    "dnnl_primitive_attr_set_rounding": (i_, [p_, i_, i_]),
    "dnnl_primitive_attr_set_scales_mask": (i_, [p_, i_, i_]),
    "dnnl_primitive_attr_set_scales": (i_, [p_, i_, i_, i_, P(i64), i_]),
    "dnnl_primitive_attr_set_zero_points_mask": (i_, [p_, i_, i_]),
    "dnnl_primitive_attr_set_zero_points": (i_, [p_, i_, i_, i_, P(i64), i_]),
    "dnnl_primitive_attr_get_post_ops": (i_, [p_, P(p_)]),
    "dnnl_primitive_attr_set_post_ops": (i_, [p_, p_]),
    "dnnl_primitive_attr_set_rnn_data_qparams": (i_, [p_, f_, f_]),
    "dnnl_primitive_attr_get_rnn_data_qparams": (i_, [p_, P(f_), P(f_)]),
    "dnnl_primitive_attr_set_rnn_weights_qparams": (i_, [p_, i64, i_, P(f_)]),
    "dnnl_primitive_attr_get_rnn_weights_qparams": (i_, [p_, P(i64), P(i_), P(P(f_))]),
    "dnnl_post_ops_create": (i_, [P(p_)]),
    "dnnl_post_ops_clone": (i_, [P(p_), p_]),
    "dnnl_post_ops_destroy": (i_, [p_]),
    "dnnl_post_ops_len": (i_, [p_]),
    "dnnl_post_ops_get_kind": (i_, [p_, i_]),
    "dnnl_post_ops_append_sum": (i_, [p_, f_, ctypes.c_int32, i_]),
    "dnnl_post_ops_get_params_sum": (i_, [p_, i_, P(f_), P(ctypes.c_int32), P(i_)]),
    "dnnl_post_ops_append_eltwise": (i_, [p_, i_, f_, f_]),
    "dnnl_post_ops_get_params_eltwise": (i_, [p_, i_, P(i_), P(f_), P(f_)]),
    "dnnl_post_ops_append_binary": (i_, [p_, i_, p_]),
    "dnnl_post_ops_get_params_binary": (i_, [p_, i_, P(i_), P(p_)]),
    "dnnl_post_ops_append_prelu": (i_, [p_, i_]),
    "dnnl_post_ops_get_params_prelu": (i_, [p_, i_, P(i_)]),
    "dnnl_reorder_primitive_desc_create": (i_, [P(p_), p_, p_, p_, p_, p_]),
    "dnnl_resampling_forward_primitive_desc_create": (
        i_, [P(p_), p_, i_, i_, P(f_), p_, p_, p_]),
    "dnnl_resampling_backward_primitive_desc_create": (
        i_, [P(p_), p_, i_, P(f_), p_, p_, p_, p_]),
    "dnnl_primitive_desc_query": (i_, [p_, i_, i_, p_]),
    "dnnl_primitive_desc_query_md": (p_, [p_, i_, i_]),
    "dnnl_primitive_desc_query_s32": (i_, [p_, i_, i_]),
    "dnnl_primitive_desc_get_attr": (i_, [p_, P(p_)]),
    "dnnl_primitive_desc_clone": (i_, [P(p_), p_]),
    "dnnl_primitive_desc_next_impl": (i_, [p_]),
    "dnnl_primitive_desc_destroy": (i_, [p_]),
    "dnnl_primitive_create": (i_, [P(p_), p_]),
    "dnnl_primitive_execute": (i_, [p_, p_, i_, P(ExecArg)]),
    "dnnl_primitive_get_primitive_desc": (i_, [p_, P(p_)]),
    "dnnl_primitive_create_from_cache_blob": (i_, [P(p_), p_, ctypes.c_size_t, p_]),
    "dnnl_primitive_get_cache_blob": (i_, [p_, P(ctypes.c_size_t), p_]),
    "dnnl_primitive_destroy": (i_, [p_]),
    "dnnl_memory_map_data_v2": (i_, [p_, P(p_), i_]),
    "dnnl_memory_unmap_data_v2": (i_, [p_, p_, i_]),
    "dnnl_set_jit_dump": (i_, [i_]),
    "dnnl_set_jit_profiling_flags": (i_, [ctypes.c_uint]),
    "dnnl_set_jit_profiling_jitdumpdir": (i_, [ctypes.c_char_p]),
}
DEBUG_FUNCS = {
    "dnnl_status2str": "dnnl_status_t", "dnnl_dt2str": "dnnl_data_type_t",
    "dnnl_fpmath_mode2str": "dnnl_fpmath_mode_t",
    "dnnl_accumulation_mode2str": "dnnl_accumulation_mode_t",
    "dnnl_engine_kind2str": "dnnl_engine_kind_t",
    "dnnl_sparse_encoding2str": "dnnl_sparse_encoding_t",
    "dnnl_fmt_tag2str": "dnnl_format_tag_t", "dnnl_prop_kind2str": "dnnl_prop_kind_t",
    "dnnl_prim_kind2str": "dnnl_primitive_kind_t", "dnnl_alg_kind2str": "dnnl_alg_kind_t",
    "dnnl_rnn_flags2str": "dnnl_rnn_flags_t",
    "dnnl_rnn_direction2str": "dnnl_rnn_direction_t",
    "dnnl_scratchpad_mode2str": "dnnl_scratchpad_mode_t",
    "dnnl_rounding_mode2str": "dnnl_rounding_mode_t",
    "dnnl_quantization_mode2str": "dnnl_quantization_mode_t",
    "dnnl_cpu_isa2str": "dnnl_cpu_isa_t", "dnnl_cpu_isa_hints2str": "dnnl_cpu_isa_hints_t",
    "dnnl_fmt_kind2str": "dnnl_format_kind_t",
}
K = dnnl.capi          # constants under their C names (oneDNN's values)


def declare(lib):
    for name, (res, args) in SIGS.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    for name in DEBUG_FUNCS:
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = ctypes.c_char_p, [i_]
    lib.dnnl_runtime2str.restype, lib.dnnl_runtime2str.argtypes = ctypes.c_char_p, [ctypes.c_uint]
    return lib


# ----------------------------------------------------------- program helpers
class Ctx(_oracle_mod.Ctx):
    """One run of a program (oracle.Ctx) with descriptors, memories,
    attributes and primitives."""

    def md(self, dims, dt, tag, what="md"):
        md = p_()
        self.st(what, self.lib.dnnl_memory_desc_create_with_tag(
            ctypes.byref(md), len(dims), Dims(*dims), dt, tag))
        self._free.append((self.lib.dnnl_memory_desc_destroy, md))
        return md

    def mem(self, md, data=None):
        """A library-allocated memory, filled with ``data`` bytes if given."""
        mem = p_()
        self.st("memory", self.lib.dnnl_memory_create(ctypes.byref(mem), md, self.eng,
                                                      K.DNNL_MEMORY_ALLOCATE))
        self._free.append((self.lib.dnnl_memory_destroy, mem))
        if data is not None:
            h = p_()
            self.lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
            raw = np.ascontiguousarray(data).tobytes()[:self.lib.dnnl_memory_desc_get_size(md)]
            ctypes.memmove(h, raw, len(raw))
        return mem

    def read(self, mem):
        """The memory's bytes (its descriptor's size)."""
        md, h = p_(), p_()
        self.lib.dnnl_memory_get_memory_desc(mem, ctypes.byref(md))
        size = self.lib.dnnl_memory_desc_get_size(md)
        self.lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
        return ctypes.string_at(h, size)

    def attr(self):
        a = p_()
        self.st("attr", self.lib.dnnl_primitive_attr_create(ctypes.byref(a)))
        self._free.append((self.lib.dnnl_primitive_attr_destroy, a))
        return a

    def post_ops(self):
        po = p_()
        self.st("post_ops", self.lib.dnnl_post_ops_create(ctypes.byref(po)))
        self._free.append((self.lib.dnnl_post_ops_destroy, po))
        return po

    def impl(self, pd):
        s = ctypes.c_char_p()
        self.lib.dnnl_primitive_desc_query(pd, K.dnnl_query_impl_info_str, 0, ctypes.byref(s))
        return s.value.decode()

    def to_ref(self, pd):
        while not self.impl(pd).startswith("ref"):
            if self.lib.dnnl_primitive_desc_next_impl(pd) != K.dnnl_success:
                break

    def run(self, pd, pairs, what="execute"):
        prim = p_()
        if self.st(what + ":create", self.lib.dnnl_primitive_create(ctypes.byref(prim),
                                                                    pd)) != 0:
            return 1
        args = (ExecArg * max(len(pairs), 1))(*[ExecArg(a, m) for a, m in pairs])
        st = self.st(what, self.lib.dnnl_primitive_execute(prim, self.strm, len(pairs), args))
        self.lib.dnnl_stream_wait(self.strm)
        self.lib.dnnl_primitive_destroy(prim)
        return st


def md_info(ctx, md, what):
    """Every field of ``md`` through dnnl_memory_desc_query, into the log."""
    lib = ctx.lib
    n = ctypes.c_int32()
    ctx.st(what + ":ndims", lib.dnnl_memory_desc_query(md, K.dnnl_query_ndims_s32,
                                                       ctypes.byref(n)))
    ctx.put(what + ":ndims=", n.value)
    for q in ("dims", "padded_dims", "padded_offsets", "strides", "inner_blks",
              "inner_idxs"):
        ptr = P(i64)()      # const dnnl_dims_t * written by the library
        st = lib.dnnl_memory_desc_query(md, C["dnnl_query_" + q], ctypes.byref(ptr))
        ctx.st(what + ":" + q, st)
        if st == 0:
            ctx.put(what + ":" + q + "=", [ptr[k] for k in range(12)])
    for q, ct in (("data_type", i_), ("submemory_offset_s64", i64), ("format_kind", i_),
                  ("inner_nblks_s32", ctypes.c_int32)):
        v = ct()
        ctx.st(what + ":" + q, lib.dnnl_memory_desc_query(md, C["dnnl_query_" + q],
                                                          ctypes.byref(v)))
        ctx.put(what + ":" + q + "=", v.value)
    ctx.put(what + ":size", lib.dnnl_memory_desc_get_size(md))


# ------------------------------------------------------------------ programs
def prog_reorder_scales_zero_points(lib):
    """Quantize f32 nchw -> s8/u8 nhwc and blocked layouts with per-channel
    scales and zero points; dequantize back with src scales and zero points."""
    ctx = Ctx(lib)
    dims = [2, 5, 3, 4]
    x = (np.arange(np.prod(dims)) * 0.75 - 20).astype(np.float32).reshape(dims)
    src_md = ctx.md(dims, K.dnnl_f32, K.dnnl_nchw)
    src = ctx.mem(src_md, x)
    # (real oneDNN's JIT reorder applies zero point 0 to every channel when
    # the zero-point mask is per channel: common zero points only here)
    for dt, tag, mask, zp_mask in ((K.dnnl_s8, K.dnnl_nhwc, 2, 0), (K.dnnl_u8, K.dnnl_nhwc, 0, 0),
                                   (K.dnnl_s8, K.dnnl_nChw16c, 2, 0),
                                   (K.dnnl_s32, K.dnnl_nChw8c, 0, 0)):
        a = ctx.attr()
        ctx.st("set_scales_mask", lib.dnnl_primitive_attr_set_scales_mask(
            a, K.DNNL_ARG_DST, mask))
        ctx.st("set_zp_mask", lib.dnnl_primitive_attr_set_zero_points_mask(
            a, K.DNNL_ARG_DST, zp_mask))
        dst_md = ctx.md(dims, dt, tag)
        dst = ctx.mem(dst_md, np.full(8192, 0x55, np.uint8))
        n_sc = dims[1] if mask else 1
        sc = ctx.mem(ctx.md([n_sc], K.dnnl_f32, K.dnnl_a),
                     np.float32([0.5, 2, 0.25, 1, 4][:n_sc]))
        n_zp = dims[1] if zp_mask else 1
        zp = ctx.mem(ctx.md([n_zp], K.dnnl_s32, K.dnnl_a), np.int32([3, -2, 0, 7, 100][:n_zp]))
        pd = p_()
        if ctx.st("reorder_pd", lib.dnnl_reorder_primitive_desc_create(
                ctypes.byref(pd), src_md, ctx.eng, dst_md, ctx.eng, a)) == 0:
            ctx.run(pd, [(K.DNNL_ARG_FROM, src), (K.DNNL_ARG_TO, dst),
                         (K.DNNL_ARG_ATTR_SCALES | K.DNNL_ARG_TO, sc),
                         (K.DNNL_ARG_ATTR_ZERO_POINTS | K.DNNL_ARG_TO, zp)])
            ctx.put("dst", ctx.read(dst))
            # dequantize: the grouped-API setters with explicit data types
            b = ctx.attr()
            ctx.st("set_scales", lib.dnnl_primitive_attr_set_scales(
                b, K.DNNL_ARG_SRC, mask, 0, None, K.dnnl_f32))
            ctx.st("set_zero_points", lib.dnnl_primitive_attr_set_zero_points(
                b, K.DNNL_ARG_SRC, zp_mask, 0, None, K.dnnl_s32))
            back = ctx.mem(src_md)
            pd2 = p_()
            ctx.st("dequant_pd", lib.dnnl_reorder_primitive_desc_create(
                ctypes.byref(pd2), dst_md, ctx.eng, src_md, ctx.eng, b))
            ctx.run(pd2, [(K.DNNL_ARG_SRC, dst), (K.DNNL_ARG_DST, back),
                          (K.DNNL_ARG_ATTR_SCALES | K.DNNL_ARG_SRC, sc),
                          (K.DNNL_ARG_ATTR_ZERO_POINTS | K.DNNL_ARG_SRC, zp)])
            ctx.put("back", ctx.read(back))
            lib.dnnl_primitive_desc_destroy(pd2)
            lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def prog_reorder_sum_and_blocked(lib):
    """Reorders between plain and blocked layouts (padding zeroed), with a sum
    post-op, through user buffers (a numpy array as the memory's handle)."""
    ctx = Ctx(lib)
    dims = [3, 17, 2, 3]
    x = (np.arange(np.prod(dims)) % 29 - 14).astype(np.float32)
    src_md = ctx.md(dims, K.dnnl_f32, K.dnnl_nchw)
    src = ctx.mem(src_md, x)
    # (real oneDNN's JIT reorder leaves the padding of a user buffer as it
    # was, dnnl zeroes it: padded layouts start from a zeroed buffer)
    for tag, beta, fill in ((K.dnnl_nChw16c, 0.0, 0.0), (K.dnnl_nChw8c, 0.0, 0.0),
                            (K.dnnl_nhwc, 0.5, 3.0), (K.dnnl_cdba, 2.0, -1.0),
                            (K.dnnl_Acdb16a, 0.0, 0.0)):
        dst_md = ctx.md(dims, K.dnnl_f32, tag)
        size = lib.dnnl_memory_desc_get_size(dst_md)
        ctx.put("size", size)
        user = np.full(size // 4, fill, np.float32)        # a user buffer
        dst = p_()
        ctx.st("memory_user", lib.dnnl_memory_create(ctypes.byref(dst), dst_md, ctx.eng,
                                                     user.ctypes.data))
        h = p_()
        lib.dnnl_memory_get_data_handle(dst, ctypes.byref(h))
        ctx.put("handle_is_user", h.value == user.ctypes.data)
        a = ctx.attr()
        if beta:
            po = ctx.post_ops()
            ctx.st("append_sum", lib.dnnl_post_ops_append_sum(po, beta, 0, K.dnnl_data_type_undef))
            ctx.st("set_post_ops", lib.dnnl_primitive_attr_set_post_ops(a, po))
        pd = p_()
        ctx.st("reorder_pd", lib.dnnl_reorder_primitive_desc_create(
            ctypes.byref(pd), src_md, ctx.eng, dst_md, ctx.eng, a))
        ctx.run(pd, [(K.DNNL_ARG_FROM, src), (K.DNNL_ARG_TO, dst)])
        ctx.put("dst", user.tobytes())
        lib.dnnl_primitive_desc_destroy(pd)
        lib.dnnl_memory_destroy(dst)
    return ctx.close()


def _resampling_fwd(ctx, alg, src_dims, dst_dims, tag, post, dt=None):
    lib = ctx.lib
    dt = dt or K.dnnl_f32
    n = int(np.prod(src_dims))
    x = ((np.arange(n) * 7) % 13 - 6).astype(np.float32)
    src_md = ctx.md(src_dims, dt, tag)
    dst_md = ctx.md(dst_dims, dt, K.dnnl_format_tag_any) if tag != K.dnnl_nchw else \
        ctx.md(dst_dims, dt, tag)
    src = ctx.mem(ctx.md(src_dims, K.dnnl_f32, tag))
    # write logical values through a reorder from a plain buffer
    plain_md = ctx.md(src_dims, K.dnnl_f32, K.dnnl_nchw if len(src_dims) == 4 else K.dnnl_ncw)
    plain = ctx.mem(plain_md, x)
    rpd = p_()
    lib.dnnl_reorder_primitive_desc_create(ctypes.byref(rpd), plain_md, ctx.eng, src_md,
                                           ctx.eng, None)
    src = ctx.mem(src_md)
    ctx.run(rpd, [(K.DNNL_ARG_FROM, plain), (K.DNNL_ARG_TO, src)], "fill")
    lib.dnnl_primitive_desc_destroy(rpd)
    a = ctx.attr()
    extra = []
    if post:
        po = ctx.post_ops()
        ctx.st("sum", lib.dnnl_post_ops_append_sum(po, 0.5, 0, K.dnnl_data_type_undef))
        ctx.st("eltwise", lib.dnnl_post_ops_append_eltwise(po, K.dnnl_eltwise_linear, 2.0, -1.0))
        b_md = ctx.md([1, dst_dims[1]] + [1] * (len(dst_dims) - 2), K.dnnl_f32,
                      K.dnnl_nchw if len(dst_dims) == 4 else K.dnnl_ncw)
        ctx.st("binary", lib.dnnl_post_ops_append_binary(po, K.dnnl_binary_add, b_md))
        ctx.st("eltwise2", lib.dnnl_post_ops_append_eltwise(po, K.dnnl_eltwise_relu, 0.0, 0.0))
        ctx.st("set_post_ops", lib.dnnl_primitive_attr_set_post_ops(a, po))
        b_mem = ctx.mem(b_md, (np.arange(dst_dims[1]) - 2).astype(np.float32))
        extra = [(K.DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE * 3 | K.DNNL_ARG_SRC_1, b_mem)]
    pd = p_()
    if ctx.st("fwd_pd", lib.dnnl_resampling_forward_primitive_desc_create(
            ctypes.byref(pd), ctx.eng, K.dnnl_forward_training, alg, None, src_md, dst_md,
            a)) != 0:
        return None, None
    ctx.to_ref(pd)
    q_dst = lib.dnnl_primitive_desc_query_md(pd, K.dnnl_query_dst_md, 0)
    md_info(ctx, q_dst, "fwd dst_md")
    prop, algq = i_(), i_()
    ctx.st("q prop", lib.dnnl_primitive_desc_query(pd, K.dnnl_query_prop_kind, 0,
                                                   ctypes.byref(prop)))
    ctx.st("q alg", lib.dnnl_primitive_desc_query(pd, K.dnnl_query_alg_kind, 0,
                                                  ctypes.byref(algq)))
    fac = P(f_)()
    ctx.st("q factors", lib.dnnl_primitive_desc_query(pd, K.dnnl_query_factors, 0,
                                                      ctypes.byref(fac)))
    ctx.put("prop/alg/factors", (prop.value, algq.value,
                                 [fac[k] for k in range(len(src_dims) - 2)]))
    ctx.put("n_inputs", lib.dnnl_primitive_desc_query_s32(pd, K.dnnl_query_num_of_inputs_s32, 0))
    dst = ctx.mem(q_dst, np.full(1 << 14, 1.0, np.float32))
    ctx.run(pd, [(K.DNNL_ARG_SRC, src), (K.DNNL_ARG_DST, dst)] + extra)
    ctx.put("dst", ctx.read(dst))
    return pd, q_dst


def prog_resampling_forward_post_ops(lib):
    """Nearest and linear forward resampling, plain and blocked, with sum,
    eltwise and binary post-ops; dst format any resolved by the pd."""
    ctx = Ctx(lib)
    for alg in (K.dnnl_resampling_nearest, K.dnnl_resampling_linear):
        for src_dims, dst_dims, tag in (([2, 3, 4, 4], [2, 3, 8, 8], K.dnnl_nchw),
                                        ([1, 20, 3, 5], [1, 20, 6, 10], K.dnnl_nChw16c),
                                        ([2, 4, 6], [2, 4, 12], K.dnnl_nwc)):
            for post in (False, True):
                pd, _ = _resampling_fwd(ctx, alg, src_dims, dst_dims, tag, post)
                if pd:
                    lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def prog_resampling_backward(lib):
    """Backward nearest / linear with a forward hint and diff_src format any;
    post-ops on backward are unimplemented."""
    ctx = Ctx(lib)
    for alg in (K.dnnl_resampling_nearest, K.dnnl_resampling_linear):
        src_dims, dst_dims = [2, 3, 4, 4], [2, 3, 8, 8]
        hint, _ = _resampling_fwd(ctx, alg, src_dims, dst_dims, K.dnnl_nchw, True)
        ds_md = ctx.md(src_dims, K.dnnl_f32, K.dnnl_format_tag_any)
        dd_md = ctx.md(dst_dims, K.dnnl_f32, K.dnnl_nchw)
        for with_post in (True, False):
            a = ctx.attr()
            if with_post:
                po = ctx.post_ops()
                lib.dnnl_post_ops_append_eltwise(po, K.dnnl_eltwise_relu, 0.0, 0.0)
                lib.dnnl_primitive_attr_set_post_ops(a, po)
            pd = p_()
            if ctx.st("bwd_pd", lib.dnnl_resampling_backward_primitive_desc_create(
                    ctypes.byref(pd), ctx.eng, alg, None, ds_md, dd_md, hint, a)) != 0:
                continue
            ctx.to_ref(pd)
            q_ds = lib.dnnl_primitive_desc_query_md(pd, K.dnnl_query_diff_src_md, 0)
            md_info(ctx, q_ds, "bwd diff_src_md")
            dd = ctx.mem(dd_md, ((np.arange(2 * 3 * 8 * 8) % 5) - 2).astype(np.float32))
            ds = ctx.mem(q_ds, np.full(1024, 9.0, np.float32))
            ctx.run(pd, [(K.DNNL_ARG_DIFF_DST, dd), (K.DNNL_ARG_DIFF_SRC, ds)])
            ctx.put("diff_src", ctx.read(ds))
            lib.dnnl_primitive_desc_destroy(pd)
        lib.dnnl_primitive_desc_destroy(hint)
    return ctx.close()


def prog_md_queries_blocked(lib):
    """Every query of blocked descriptors, sub-memory, reshape, permute,
    strides, equality, clone and blob round trip."""
    ctx = Ctx(lib)
    mds = {}
    for name, dims, dt, tag in (("nChw16c", [2, 17, 3, 4], K.dnnl_f32, K.dnnl_nChw16c),
                                ("OIhw16i16o", [33, 20, 3, 3], K.dnnl_bf16, K.dnnl_OIhw16i16o),
                                ("ABcd8b8a", [9, 10, 2, 2], K.dnnl_s8, K.dnnl_ABcd8b8a),
                                ("gOIhw4i16o4i", [2, 20, 9, 3, 3], K.dnnl_u8,
                                 K.dnnl_gOIhw4i16o4i),
                                ("nhwc", [2, 3, 4, 5], K.dnnl_f16, K.dnnl_nhwc),
                                ("any", [2, 3, 4, 5], K.dnnl_f32, K.dnnl_format_tag_any)):
        mds[name] = ctx.md(dims, dt, tag, "create " + name)
        md_info(ctx, mds[name], name)
    strided = p_()
    ctx.st("strides", lib.dnnl_memory_desc_create_with_strides(
        ctypes.byref(strided), 3, Dims(2, 3, 4), K.dnnl_f32, Dims(1, 2, 6)))
    md_info(ctx, strided, "strided")
    dense = p_()
    ctx.st("strides NULL", lib.dnnl_memory_desc_create_with_strides(
        ctypes.byref(dense), 3, Dims(2, 3, 4), K.dnnl_f32, None))
    md_info(ctx, dense, "dense")
    derived = []
    sub = p_()
    ctx.st("submemory", lib.dnnl_memory_desc_create_submemory(
        ctypes.byref(sub), mds["nChw16c"], Dims(1, 16, 2, 4), Dims(1, 0, 1, 0)))
    md_info(ctx, sub, "sub")
    bad_sub = p_()
    ctx.st("submemory unaligned", lib.dnnl_memory_desc_create_submemory(
        ctypes.byref(bad_sub), mds["nChw16c"], Dims(1, 8, 2, 4), Dims(0, 4, 0, 0)))
    resh = p_()
    ctx.st("reshape", lib.dnnl_memory_desc_reshape(ctypes.byref(resh), mds["nhwc"], 3,
                                                   Dims(6, 4, 5)))
    md_info(ctx, resh, "reshape")
    bad_resh = p_()
    ctx.st("reshape bad", lib.dnnl_memory_desc_reshape(ctypes.byref(bad_resh), mds["nhwc"],
                                                       2, Dims(7, 5)))
    perm = p_()
    ctx.st("permute", lib.dnnl_memory_desc_permute_axes(
        ctypes.byref(perm), mds["nChw16c"], (i_ * 4)(1, 0, 2, 3)))
    md_info(ctx, perm, "permute")
    clone = p_()
    ctx.st("clone", lib.dnnl_memory_desc_clone(ctypes.byref(clone), mds["OIhw16i16o"]))
    ctx.put("equal clone", lib.dnnl_memory_desc_equal(clone, mds["OIhw16i16o"]))
    ctx.put("equal other", lib.dnnl_memory_desc_equal(clone, mds["nChw16c"]))
    ctx.put("equal perm twice", lib.dnnl_memory_desc_equal(perm, mds["nChw16c"]))
    size = ctypes.c_size_t()
    ctx.st("blob size", lib.dnnl_memory_desc_get_blob(None, ctypes.byref(size),
                                                      mds["gOIhw4i16o4i"]))
    blob = ctypes.create_string_buffer(size.value)
    ctx.st("blob", lib.dnnl_memory_desc_get_blob(ctypes.cast(blob, p_), ctypes.byref(size),
                                                 mds["gOIhw4i16o4i"]))
    from_blob = p_()
    ctx.st("from blob", lib.dnnl_memory_desc_create_with_blob(ctypes.byref(from_blob),
                                                              ctypes.cast(blob, p_)))
    ctx.put("blob round trip", lib.dnnl_memory_desc_equal(from_blob, mds["gOIhw4i16o4i"]))
    nh = ctypes.c_int32()
    ctx.st("query_v2 num_handles", lib.dnnl_memory_desc_query_v2(
        mds["nhwc"], K.dnnl_query_num_handles_s32, 0, ctypes.byref(nh)))
    ctx.put("num_handles", nh.value)
    derived += [strided, dense, sub, resh, perm, clone, from_blob]
    for md in derived:
        lib.dnnl_memory_desc_destroy(md)
    # a memory's own descriptor and a pd's are views with the same answers
    mem = ctx.mem(mds["OIhw16i16o"])
    view = p_()
    ctx.st("get_memory_desc", lib.dnnl_memory_get_memory_desc(mem, ctypes.byref(view)))
    md_info(ctx, view, "memory view")
    ctx.put("sizes", [lib.dnnl_data_type_size(v) for v in
                      sorted(int(m) for m in C_ENUMS["dnnl_data_type_t"])])
    return ctx.close()


def prog_attr_round_trip(lib):
    """Every attribute and post-op setter followed by its getter, on the attr,
    on a clone, and on the copy held by a primitive descriptor."""
    ctx = Ctx(lib)
    a = ctx.attr()
    v, w = i_(), i_()
    for mode in (K.dnnl_scratchpad_mode_user, 7, K.dnnl_scratchpad_mode_library):
        ctx.st("set scratchpad", lib.dnnl_primitive_attr_set_scratchpad_mode(a, mode))
        ctx.st("get scratchpad", lib.dnnl_primitive_attr_get_scratchpad_mode(a, ctypes.byref(v)))
        ctx.put("scratchpad", v.value)
    for mode in (K.dnnl_fpmath_mode_bf16, K.dnnl_fpmath_mode_tf32, 9):
        ctx.st("set fpmath", lib.dnnl_primitive_attr_set_fpmath_mode(a, mode))
        ctx.st("get fpmath", lib.dnnl_primitive_attr_get_fpmath_mode(a, ctypes.byref(v)))
        ctx.put("fpmath", v.value)
    ctx.st("set fpmath v2", lib.dnnl_primitive_attr_set_fpmath_mode_v2(
        a, K.dnnl_fpmath_mode_f16, 1))
    ctx.st("get fpmath v2", lib.dnnl_primitive_attr_get_fpmath_mode_v2(
        a, ctypes.byref(v), ctypes.byref(w)))
    ctx.put("fpmath v2", (v.value, w.value))
    ctx.st("get fpmath v2 NULLs", lib.dnnl_primitive_attr_get_fpmath_mode_v2(a, None, None))
    for mode in (K.dnnl_accumulation_mode_relaxed, K.dnnl_accumulation_mode_f16, 11):
        ctx.st("set acc", lib.dnnl_primitive_attr_set_accumulation_mode(a, mode))
        ctx.st("get acc", lib.dnnl_primitive_attr_get_accumulation_mode(a, ctypes.byref(v)))
        ctx.put("acc", v.value)
    ctx.st("set det", lib.dnnl_primitive_attr_set_deterministic(a, 1))
    ctx.st("get det", lib.dnnl_primitive_attr_get_deterministic(a, ctypes.byref(v)))
    ctx.put("det", v.value)
    for arg, mode in ((K.DNNL_ARG_DST, K.dnnl_rounding_mode_stochastic),
                      (K.DNNL_ARG_SRC, K.dnnl_rounding_mode_stochastic),
                      (K.DNNL_ARG_DIFF_SRC, K.dnnl_rounding_mode_environment)):
        ctx.st("set rounding", lib.dnnl_primitive_attr_set_rounding(a, arg, mode))
        ctx.st("get rounding", lib.dnnl_primitive_attr_get_rounding(a, arg, ctypes.byref(v)))
        ctx.put("rounding", v.value)
    for arg, mask in ((K.DNNL_ARG_SRC, 0), (K.DNNL_ARG_BIAS, 0), (K.DNNL_ARG_DST, -1),
                      (K.DNNL_ARG_WEIGHTS, 3)):
        ctx.st("scales_mask", lib.dnnl_primitive_attr_set_scales_mask(a, arg, mask))
        ctx.st("zp_mask", lib.dnnl_primitive_attr_set_zero_points_mask(a, arg, mask))
    ctx.st("scales groups", lib.dnnl_primitive_attr_set_scales(
        a, K.DNNL_ARG_WEIGHTS, 3, 2, Dims(4, 1), K.dnnl_bf16))
    ctx.st("scales groups 1d", lib.dnnl_primitive_attr_set_scales(
        a, K.DNNL_ARG_WEIGHTS, 3, 1, Dims(4), K.dnnl_f32))
    ctx.st("zp s8 dst", lib.dnnl_primitive_attr_set_zero_points(
        a, K.DNNL_ARG_DST, 0, 0, None, K.dnnl_s8))
    ctx.st("rnn data", lib.dnnl_primitive_attr_set_rnn_data_qparams(a, 1.5, -3.25))
    s, sh = f_(), f_()
    ctx.st("get rnn data", lib.dnnl_primitive_attr_get_rnn_data_qparams(
        a, ctypes.byref(s), ctypes.byref(sh)))
    ctx.put("rnn data", (s.value, sh.value))
    ctx.st("rnn weights", lib.dnnl_primitive_attr_set_rnn_weights_qparams(
        a, 3, 24, (f_ * 3)(0.5, 2.0, 8.0)))
    cnt, msk, ptr = i64(), i_(), P(f_)()
    ctx.st("get rnn weights", lib.dnnl_primitive_attr_get_rnn_weights_qparams(
        a, ctypes.byref(cnt), ctypes.byref(msk), ctypes.byref(ptr)))
    ctx.put("rnn weights", (cnt.value, msk.value, [ptr[k] for k in range(cnt.value)]))
    ctx.st("rnn weights count 0", lib.dnnl_primitive_attr_set_rnn_weights_qparams(
        a, 0, 0, (f_ * 1)(1.0)))

    po = ctx.post_ops()
    src1 = ctx.md([1, 4, 1, 1], K.dnnl_f32, K.dnnl_nchw)
    ctx.st("sum", lib.dnnl_post_ops_append_sum(po, 2.5, 3, K.dnnl_s8))
    ctx.st("eltwise", lib.dnnl_post_ops_append_eltwise(po, K.dnnl_eltwise_clip, -1.0, 4.0))
    ctx.st("eltwise bad", lib.dnnl_post_ops_append_eltwise(po, K.dnnl_eltwise_clip, 4.0, 1.0))
    ctx.st("binary", lib.dnnl_post_ops_append_binary(po, K.dnnl_binary_mul, src1))
    ctx.st("prelu", lib.dnnl_post_ops_append_prelu(po, 2))
    ctx.st("set post_ops", lib.dnnl_primitive_attr_set_post_ops(a, po))

    def dump(label, attr_h):
        q = p_()
        ctx.st(label + " get post_ops", lib.dnnl_primitive_attr_get_post_ops(attr_h,
                                                                             ctypes.byref(q)))
        n = lib.dnnl_post_ops_len(q)
        ctx.put(label + " len", n)
        for k in range(n + 1):
            ctx.put(label + " kind", lib.dnnl_post_ops_get_kind(q, k))
        sc, zp, dt = f_(), ctypes.c_int32(), i_()
        ctx.st(label + " sum", lib.dnnl_post_ops_get_params_sum(
            q, 0, ctypes.byref(sc), ctypes.byref(zp), ctypes.byref(dt)))
        ctx.put(label + " sum=", (sc.value, zp.value, dt.value))
        ctx.st(label + " sum on eltwise", lib.dnnl_post_ops_get_params_sum(
            q, 1, ctypes.byref(sc), None, None))
        alg, al, be = i_(), f_(), f_()
        ctx.st(label + " eltwise", lib.dnnl_post_ops_get_params_eltwise(
            q, 1, ctypes.byref(alg), ctypes.byref(al), ctypes.byref(be)))
        ctx.put(label + " eltwise=", (alg.value, al.value, be.value))
        md = p_()
        ctx.st(label + " binary", lib.dnnl_post_ops_get_params_binary(
            q, 2, ctypes.byref(alg), ctypes.byref(md)))
        ctx.put(label + " binary alg", alg.value)
        ctx.put(label + " binary md equal", lib.dnnl_memory_desc_equal(md, src1))
        m = i_()
        ctx.st(label + " prelu", lib.dnnl_post_ops_get_params_prelu(q, 3, ctypes.byref(m)))
        ctx.put(label + " prelu=", m.value)
        sm = i_()
        ctx.st(label + " scratchpad", lib.dnnl_primitive_attr_get_scratchpad_mode(
            attr_h, ctypes.byref(sm)))
        ctx.put(label + " scratchpad=", sm.value)

    dump("attr", a)
    c = p_()
    ctx.st("clone", lib.dnnl_primitive_attr_clone(ctypes.byref(c), a))
    dump("clone", c)
    lib.dnnl_primitive_attr_destroy(c)
    pclone = p_()
    ctx.st("post_ops clone", lib.dnnl_post_ops_clone(ctypes.byref(pclone), po))
    ctx.put("post_ops clone len", lib.dnnl_post_ops_len(pclone))
    lib.dnnl_post_ops_destroy(pclone)
    # the copy a reorder pd keeps (scratchpad user, a sum post-op)
    b = ctx.attr()
    lib.dnnl_primitive_attr_set_scratchpad_mode(b, K.dnnl_scratchpad_mode_user)
    po2 = ctx.post_ops()
    lib.dnnl_post_ops_append_sum(po2, 2.5, 3, K.dnnl_data_type_undef)
    lib.dnnl_primitive_attr_set_post_ops(b, po2)
    md = ctx.md([2, 3], K.dnnl_f32, K.dnnl_ab)
    pd = p_()
    ctx.st("reorder pd", lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), md, ctx.eng,
                                                                md, ctx.eng, b))
    pa = p_()
    ctx.st("pd get_attr", lib.dnnl_primitive_desc_get_attr(pd, ctypes.byref(pa)))
    sm = i_()
    ctx.st("pd attr scratchpad", lib.dnnl_primitive_attr_get_scratchpad_mode(pa,
                                                                            ctypes.byref(sm)))
    ctx.put("pd attr scratchpad=", sm.value)
    q = p_()
    lib.dnnl_primitive_attr_get_post_ops(pa, ctypes.byref(q))
    ctx.put("pd post_ops len", lib.dnnl_post_ops_len(q))
    lib.dnnl_primitive_desc_destroy(pd)
    fp = i_()
    ctx.st("default fpmath", lib.dnnl_get_default_fpmath_mode(ctypes.byref(fp)))
    ctx.put("default fpmath=", fp.value)
    return ctx.close()


def prog_user_scratchpad(lib):
    """Scratchpad mode user: the pd's scratchpad md, a user buffer for it
    when it is not empty, and execution with DNNL_ARG_SCRATCHPAD."""
    ctx = Ctx(lib)
    a = ctx.attr()
    ctx.st("scratchpad user", lib.dnnl_primitive_attr_set_scratchpad_mode(
        a, K.dnnl_scratchpad_mode_user))
    lib.dnnl_primitive_attr_set_scales_mask(a, K.DNNL_ARG_DST, 0)
    dims = [2, 16, 3, 3]
    x = (np.arange(np.prod(dims)) % 11 - 5).astype(np.float32)
    src_md = ctx.md(dims, K.dnnl_f32, K.dnnl_nchw)
    dst_md = ctx.md(dims, K.dnnl_s8, K.dnnl_nChw16c)
    src, dst = ctx.mem(src_md, x), ctx.mem(dst_md)
    sc = ctx.mem(ctx.md([1], K.dnnl_f32, K.dnnl_a), np.float32([0.25]))
    pds = []
    pd = p_()
    ctx.st("reorder pd", lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), src_md,
                                                                ctx.eng, dst_md, ctx.eng, a))
    pds.append((pd, [(K.DNNL_ARG_FROM, src), (K.DNNL_ARG_TO, dst),
                     (K.DNNL_ARG_ATTR_SCALES | K.DNNL_ARG_DST, sc)], dst))
    b = ctx.attr()
    lib.dnnl_primitive_attr_set_scratchpad_mode(b, K.dnnl_scratchpad_mode_user)
    rs_dst_md = ctx.md([2, 16, 6, 6], K.dnnl_f32, K.dnnl_nchw)
    rs_dst = ctx.mem(rs_dst_md)
    pd2 = p_()
    ctx.st("resampling pd", lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(pd2), ctx.eng, K.dnnl_forward_inference, K.dnnl_resampling_nearest,
        None, src_md, rs_dst_md, b))
    ctx.to_ref(pd2)
    pds.append((pd2, [(K.DNNL_ARG_SRC, src), (K.DNNL_ARG_DST, rs_dst)], rs_dst))
    for pd, args, out in pds:
        # (the scratchpad size is the implementation's business: not logged)
        smd = lib.dnnl_primitive_desc_query_md(pd, K.dnnl_query_scratchpad_md, 0)
        ctx.put("scratchpad md", smd is not None)
        if lib.dnnl_memory_desc_get_size(smd):
            pad = p_()
            lib.dnnl_memory_create(ctypes.byref(pad), smd, ctx.eng, K.DNNL_MEMORY_ALLOCATE)
            ctx._free.append((lib.dnnl_memory_destroy, pad))
            args = args + [(K.DNNL_ARG_SCRATCHPAD, pad)]
        ctx.run(pd, args)
        ctx.put("out", ctx.read(out))
        lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def prog_error_paths(lib):
    """Misuse that oneDNN reports with a status (never a crash)."""
    ctx = Ctx(lib)
    md4 = ctx.md([2, 3, 4, 5], K.dnnl_f32, K.dnnl_nchw)
    md4b = ctx.md([2, 3, 4, 6], K.dnnl_f32, K.dnnl_nchw)
    any_md = ctx.md([2, 3, 4, 5], K.dnnl_f32, K.dnnl_format_tag_any)
    out = p_()
    # 1. NULL out-parameter
    ctx.st("create NULL out", lib.dnnl_memory_desc_create_with_tag(
        None, 1, Dims(3), K.dnnl_f32, K.dnnl_a))
    # 2. invalid dims / tag mismatches
    ctx.st("negative dim", lib.dnnl_memory_desc_create_with_tag(
        ctypes.byref(out), 2, Dims(3, -1), K.dnnl_f32, K.dnnl_ab))
    ctx.st("tag rank", lib.dnnl_memory_desc_create_with_tag(
        ctypes.byref(out), 3, Dims(3, 1, 2), K.dnnl_f32, K.dnnl_ab))
    ctx.st("13 dims", lib.dnnl_memory_desc_create_with_tag(
        ctypes.byref(out), 13, (i64 * 13)(*[1] * 13), K.dnnl_f32, K.dnnl_a))
    # 3. reorder dims mismatch, format any, scales on a non-src/dst arg
    ctx.st("reorder dims", lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(out), md4, ctx.eng, md4b, ctx.eng, None))
    ctx.st("reorder any", lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(out), md4, ctx.eng, any_md, ctx.eng, None))
    a = ctx.attr()
    lib.dnnl_primitive_attr_set_scales_mask(a, K.DNNL_ARG_WEIGHTS, 0)
    ctx.st("reorder weights scales", lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(out), md4, ctx.eng, md4, ctx.eng, a))
    ctx.st("reorder NULL engine", lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(out), md4, None, md4, ctx.eng, None))
    # 4. resampling: bad prop kind, bad alg, src format any, ndims mismatch
    dst = ctx.md([2, 3, 8, 10], K.dnnl_f32, K.dnnl_nchw)
    for label, prop, alg, s, d in (("prop", K.dnnl_backward_data, K.dnnl_resampling_linear,
                                    md4, dst),
                                   ("alg", K.dnnl_forward_training, K.dnnl_pooling_max, md4,
                                    dst),
                                   ("src any", K.dnnl_forward_training,
                                    K.dnnl_resampling_linear, any_md, dst),
                                   ("no dst no factors", K.dnnl_forward_training,
                                    K.dnnl_resampling_linear, md4, None)):
        ctx.st("resampling " + label, lib.dnnl_resampling_forward_primitive_desc_create(
            ctypes.byref(out), ctx.eng, prop, alg, None, s, d, None))
    # 5. execution: missing argument, duplicate argument, wrong stream engine
    pd = p_()
    lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), md4, ctx.eng, md4, ctx.eng, None)
    m1, m2 = ctx.mem(md4, np.zeros(120, np.float32)), ctx.mem(md4)
    ctx.run(pd, [(K.DNNL_ARG_FROM, m1)], "execute missing dst")
    ctx.run(pd, [(K.DNNL_ARG_FROM, m1), (K.DNNL_ARG_TO, m2), (K.DNNL_ARG_TO, m2)],
            "execute duplicate")
    ctx.run(pd, [(K.DNNL_ARG_FROM, m1), (K.DNNL_ARG_TO, m2), (K.DNNL_ARG_TO, None)],
            "execute NULL memory skipped")
    prim, eng2, strm2 = p_(), p_(), p_()
    lib.dnnl_primitive_create(ctypes.byref(prim), pd)
    lib.dnnl_engine_create(ctypes.byref(eng2), K.dnnl_cpu, 0)
    lib.dnnl_stream_create(ctypes.byref(strm2), eng2, K.dnnl_stream_default_flags)
    args = (ExecArg * 2)(ExecArg(K.DNNL_ARG_FROM, m1), ExecArg(K.DNNL_ARG_TO, m2))
    ctx.st("execute other engine's stream", lib.dnnl_primitive_execute(prim, strm2, 2, args))
    ctx.st("execute nargs>0 args NULL", lib.dnnl_primitive_execute(prim, ctx.strm, 2, None))
    ctx.put("next_impl reorder", lib.dnnl_primitive_desc_next_impl(pd))
    v = i_()
    ctx.st("reorder prop_kind query", lib.dnnl_primitive_desc_query(
        pd, K.dnnl_query_prop_kind, 0, ctypes.byref(v)))
    e = p_()
    ctx.st("reorder src engine query", lib.dnnl_primitive_desc_query(
        pd, K.dnnl_query_reorder_src_engine, 0, ctypes.byref(e)))
    ctx.put("src engine is ours", e.value == ctx.eng.value)
    ctx.put("query_md bad what", lib.dnnl_primitive_desc_query_md(pd, K.dnnl_query_engine, 0))
    ctx.put("query_md scratchpad idx 1",
            lib.dnnl_primitive_desc_query_md(pd, K.dnnl_query_scratchpad_md, 1))
    ctx.put("query_s32 inputs", lib.dnnl_primitive_desc_query_s32(
        pd, K.dnnl_query_num_of_inputs_s32, 0))
    ctx.put("query_s32 other", lib.dnnl_primitive_desc_query_s32(pd, K.dnnl_query_engine, 0))
    ppd = p_()
    ctx.st("get_primitive_desc", lib.dnnl_primitive_get_primitive_desc(prim,
                                                                       ctypes.byref(ppd)))
    ctx.put("prim pd src equal", lib.dnnl_memory_desc_equal(
        lib.dnnl_primitive_desc_query_md(ppd, K.dnnl_query_src_md, 0), md4))
    lib.dnnl_primitive_destroy(prim)
    lib.dnnl_stream_destroy(strm2)
    lib.dnnl_engine_destroy(eng2)
    lib.dnnl_primitive_desc_destroy(pd)
    # 6. memory: format any, NULL engine, data handle of NULL memory
    ctx.st("memory any", lib.dnnl_memory_create(ctypes.byref(out), any_md, ctx.eng,
                                                K.DNNL_MEMORY_ALLOCATE))
    ctx.st("memory NULL engine", lib.dnnl_memory_create(ctypes.byref(out), md4, None,
                                                        K.DNNL_MEMORY_ALLOCATE))
    h = p_(123)
    ctx.st("data handle of NULL", lib.dnnl_memory_get_data_handle(None, ctypes.byref(h)))
    ctx.put("handle", h.value)
    ctx.st("data handle NULL out", lib.dnnl_memory_get_data_handle(m1, None))
    none_mem = p_()
    ctx.st("memory NONE", lib.dnnl_memory_create(ctypes.byref(none_mem), md4, ctx.eng, None))
    ctx.st("data handle NONE", lib.dnnl_memory_get_data_handle(none_mem, ctypes.byref(h)))
    ctx.put("none handle", h.value)
    lib.dnnl_memory_destroy(none_mem)
    # 7. attributes, post-ops, queries, engines, verbose
    ctx.st("md query unknown", lib.dnnl_memory_desc_query(md4, K.dnnl_query_engine,
                                                          ctypes.byref(v)))
    ctx.st("md query NULL", lib.dnnl_memory_desc_query(None, K.dnnl_query_ndims_s32,
                                                       ctypes.byref(v)))
    ctx.st("md query strides of any", lib.dnnl_memory_desc_query(
        any_md, K.dnnl_query_strides, ctypes.byref(p_())))
    ctx.put("size of NULL", lib.dnnl_memory_desc_get_size(None))
    ctx.put("equal NULL", lib.dnnl_memory_desc_equal(md4, None))
    ctx.st("gpu engine", lib.dnnl_engine_create(ctypes.byref(out), K.dnnl_gpu, 0))
    ctx.st("cpu engine 1", lib.dnnl_engine_create(ctypes.byref(out), K.dnnl_cpu, 1))
    ctx.put("engine counts", [lib.dnnl_engine_get_count(k) for k in (0, 1, 2)])
    ctx.st("verbose 7", lib.dnnl_set_verbose(7))
    ctx.st("verbose 0", lib.dnnl_set_verbose(0))
    ctx.st("attr NULL", lib.dnnl_primitive_attr_set_scratchpad_mode(None, 0))
    ctx.st("attr create NULL", lib.dnnl_primitive_attr_create(None))
    ctx.put("post_ops len NULL", lib.dnnl_post_ops_len(None))
    ctx.put("post_ops kind NULL", lib.dnnl_post_ops_get_kind(None, 0))
    ctx.st("destroy NULLs", lib.dnnl_memory_desc_destroy(None) + lib.dnnl_memory_destroy(None)
           + lib.dnnl_primitive_desc_destroy(None) + lib.dnnl_primitive_attr_destroy(None)
           + lib.dnnl_post_ops_destroy(None) + lib.dnnl_primitive_destroy(None)
           + lib.dnnl_engine_destroy(None) + lib.dnnl_stream_destroy(None))
    ek = i_()
    ctx.st("engine kind", lib.dnnl_engine_get_kind(ctx.eng, ctypes.byref(ek)))
    ctx.put("engine kind=", ek.value)
    se = p_()
    ctx.st("stream engine", lib.dnnl_stream_get_engine(ctx.strm, ctypes.byref(se)))
    ctx.put("stream engine is ours", se.value == ctx.eng.value)
    return ctx.close()


def prog_memory_handles(lib):
    """Data handles: DNNL_MEMORY_ALLOCATE, user pointers, set_data_handle,
    map/unmap, sub-memory through offset0, the memory's engine."""
    ctx = Ctx(lib)
    md = ctx.md([4, 6], K.dnnl_f32, K.dnnl_ab)
    mem = ctx.mem(md, np.arange(24, dtype=np.float32))
    mapped = p_()
    ctx.st("map", lib.dnnl_memory_map_data(mem, ctypes.byref(mapped)))
    h = p_()
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    ctx.put("map is handle", mapped.value == h.value)
    ctx.put("mapped", ctypes.string_at(mapped, 96))
    ctx.st("unmap", lib.dnnl_memory_unmap_data(mem, mapped))
    e = p_()
    ctx.st("memory engine", lib.dnnl_memory_get_engine(mem, ctypes.byref(e)))
    ctx.put("memory engine is ours", e.value == ctx.eng.value)
    other = np.arange(100, 124, dtype=np.float32)
    ctx.st("set handle", lib.dnnl_memory_set_data_handle(mem, other.ctypes.data))
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    ctx.put("set handle took", h.value == other.ctypes.data)
    # sub-memory: rows 1..2, cols 2..4, on the same buffer
    sub = p_()
    ctx.st("sub", lib.dnnl_memory_desc_create_submemory(ctypes.byref(sub), md, Dims(2, 3),
                                                        Dims(1, 2)))
    sub_mem = p_()
    ctx.st("sub mem", lib.dnnl_memory_create(ctypes.byref(sub_mem), sub, ctx.eng,
                                             other.ctypes.data))
    dense = ctx.md([2, 3], K.dnnl_f32, K.dnnl_ba)
    dmem = ctx.mem(dense)
    pd = p_()
    ctx.st("sub reorder", lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), sub,
                                                                 ctx.eng, dense, ctx.eng, None))
    ctx.run(pd, [(K.DNNL_ARG_FROM, sub_mem), (K.DNNL_ARG_TO, dmem)])
    ctx.put("sub values", ctx.read(dmem))
    lib.dnnl_primitive_desc_destroy(pd)
    lib.dnnl_memory_destroy(sub_mem)
    lib.dnnl_memory_desc_destroy(sub)
    zero = ctx.md([0, 3], K.dnnl_f32, K.dnnl_ab)
    zmem = ctx.mem(zero)
    ctx.st("map empty", lib.dnnl_memory_map_data(zmem, ctypes.byref(mapped)))
    ctx.put("map empty is NULL", mapped.value is None)
    return ctx.close()


def prog_debug_strings(lib):
    """Every ``*2str`` helper on every value of its enum, plus unknown values."""
    log = []
    for name, c_type in DEBUG_FUNCS.items():
        fn = getattr(lib, name)
        for m in list(C_ENUMS[c_type]) + [12345]:
            log.append((name, int(m), fn(int(m))))
    for v in (0, 1, 2, 4, 8, 256, 512, 1024, 3):
        log.append(("dnnl_runtime2str", v, lib.dnnl_runtime2str(v)))
    return log


def prog_examples(lib):
    """oneDNN's example ports in examples/, as ctypes programs."""
    import cross_engine_reorder
    import reorder
    import resampling
    from example_utils import declare as declare_for_examples
    declare_for_examples(lib)      # the examples' own signatures and exec-arg type
    log = []
    src, scales, dst = reorder.reorder_example(lib, N=2, IC=3, IH=31, IW=29)
    log.append(("reorder example", dst.tobytes()))
    _, dst = resampling.resampling_example(lib, N=1, IC=3, IH=5, IW=7, OH=10, OW=14)
    log.append(("resampling example", dst.tobytes()))
    log.append(("cross engine", [x if not isinstance(x, np.ndarray) else x.tobytes()
                                 for x in cross_engine_reorder.cross_engine_reorder(lib)]))
    declare(lib)
    return log


def prog_zero_element(lib):
    """Tensors with a zero dim: reorder and resampling (forward, backward)
    primitive descriptors are created, and executing them is a no-op."""
    ctx = Ctx(lib)
    for dims, stag, dtag, ddt in (([0, 4], K.dnnl_ab, K.dnnl_ba, K.dnnl_s8),
                                  ([2, 0, 3, 3], K.dnnl_nchw, K.dnnl_nChw16c, K.dnnl_f32),
                                  ([0], K.dnnl_a, K.dnnl_a, K.dnnl_bf16)):
        smd, dmd = ctx.md(dims, K.dnnl_f32, stag), ctx.md(dims, ddt, dtag)
        ctx.put("sizes", (lib.dnnl_memory_desc_get_size(smd),
                          lib.dnnl_memory_desc_get_size(dmd)))
        src, dst = ctx.mem(smd), ctx.mem(dmd)
        pd = p_()
        ctx.st("reorder_pd", lib.dnnl_reorder_primitive_desc_create(
            ctypes.byref(pd), smd, ctx.eng, dmd, ctx.eng, None))
        ctx.run(pd, [(K.DNNL_ARG_FROM, src), (K.DNNL_ARG_TO, dst)])
        lib.dnnl_primitive_desc_destroy(pd)
    for alg in (K.dnnl_resampling_nearest, K.dnnl_resampling_linear):
        for sdims, ddims in (([1, 2, 4], [1, 2, 0]), ([0, 2, 4], [0, 2, 3]),
                             ([1, 0, 4], [1, 0, 8]), ([1, 2, 0], [1, 2, 3])):
            smd, dmd = ctx.md(sdims, K.dnnl_f32, K.dnnl_ncw), ctx.md(ddims, K.dnnl_f32,
                                                                      K.dnnl_ncw)
            fill = np.full(64, 7.0, np.float32)
            src, dst = ctx.mem(smd, fill), ctx.mem(dmd, fill)
            pd, bpd = p_(), p_()
            if ctx.st("fwd_pd", lib.dnnl_resampling_forward_primitive_desc_create(
                    ctypes.byref(pd), ctx.eng, K.dnnl_forward_training, alg, None, smd,
                    dmd, None)) != 0:
                continue
            ctx.to_ref(pd)
            ctx.run(pd, [(K.DNNL_ARG_SRC, src), (K.DNNL_ARG_DST, dst)])
            ctx.put("dst after forward", ctx.read(dst))
            if ctx.st("bwd_pd", lib.dnnl_resampling_backward_primitive_desc_create(
                    ctypes.byref(bpd), ctx.eng, alg, None, smd, dmd, pd, None)) == 0:
                ctx.to_ref(bpd)
                ctx.run(bpd, [(K.DNNL_ARG_DIFF_DST, dst), (K.DNNL_ARG_DIFF_SRC, src)])
                ctx.put("diff_src after backward", ctx.read(src))
                lib.dnnl_primitive_desc_destroy(bpd)
            lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def prog_submemory_on_parent(lib):
    """oneDNN's gtest SubmemoryMemoryInteraction: a reorder made for a
    sub-memory of dst, executed with dst itself; then the same for a
    resampling whose src and dst descriptors are sub-memories."""
    ctx = Ctx(lib)
    smd, dmd = ctx.md([1], K.dnnl_f32, K.dnnl_a), ctx.md([2], K.dnnl_f32, K.dnnl_a)
    src, dst = ctx.mem(smd, np.float32([35])), ctx.mem(dmd, np.float32([1, 0]))
    sub = p_()
    ctx.st("submemory", lib.dnnl_memory_desc_create_submemory(
        ctypes.byref(sub), dmd, Dims(1), Dims(1)))
    ctx._free.append((lib.dnnl_memory_desc_destroy, sub))
    pd = p_()
    ctx.st("reorder_pd", lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(pd), smd, ctx.eng, sub, ctx.eng, None))
    ctx.run(pd, [(K.DNNL_ARG_FROM, src), (K.DNNL_ARG_TO, dst)])
    ctx.put("dst", ctx.read(dst))
    lib.dnnl_primitive_desc_destroy(pd)
    pmd = ctx.md([2, 4, 6], K.dnnl_f32, K.dnnl_ncw)
    qmd = ctx.md([2, 4, 12], K.dnnl_f32, K.dnnl_ncw)
    pmem = ctx.mem(pmd, np.arange(48, dtype=np.float32))
    qmem = ctx.mem(qmd, np.full(96, -1, np.float32))
    s_sub, d_sub = p_(), p_()
    ctx.st("submemory", lib.dnnl_memory_desc_create_submemory(
        ctypes.byref(s_sub), pmd, Dims(1, 2, 6), Dims(1, 1, 0)))
    ctx.st("submemory", lib.dnnl_memory_desc_create_submemory(
        ctypes.byref(d_sub), qmd, Dims(1, 2, 12), Dims(1, 2, 0)))
    ctx._free += [(lib.dnnl_memory_desc_destroy, s_sub), (lib.dnnl_memory_desc_destroy, d_sub)]
    for alg in (K.dnnl_resampling_nearest, K.dnnl_resampling_linear):
        pd = p_()
        if ctx.st("fwd_pd", lib.dnnl_resampling_forward_primitive_desc_create(
                ctypes.byref(pd), ctx.eng, K.dnnl_forward_inference, alg, None, s_sub,
                d_sub, None)) != 0:
            continue
        ctx.to_ref(pd)
        ctx.run(pd, [(K.DNNL_ARG_SRC, pmem), (K.DNNL_ARG_DST, qmem)])
        ctx.put("dst", ctx.read(qmem))
        lib.dnnl_primitive_desc_destroy(pd)
    return ctx.close()


def prog_cache_blobs_and_service(lib):
    """What a CPU answers about cache blobs (creating from one, getting one,
    the descriptor's blob id), the scratchpad engine and weights queries of
    reorder and resampling, unmap by buffer index, and the JIT switches."""
    ctx = Ctx(lib)
    md = ctx.md([2, 3], K.dnnl_f32, K.dnnl_ab)
    md_ba = ctx.md([2, 3], K.dnnl_f32, K.dnnl_ba)
    rpd = p_()
    ctx.st("reorder pd", lib.dnnl_reorder_primitive_desc_create(ctypes.byref(rpd), md, ctx.eng,
                                                                md_ba, ctx.eng, None))
    ctx.keep(lib.dnnl_primitive_desc_destroy, rpd)
    src, dst = ctx.md([1, 1, 4], K.dnnl_f32, K.dnnl_ncw), ctx.md([1, 1, 8], K.dnnl_f32, K.dnnl_ncw)
    spd = p_()
    ctx.st("resampling pd", lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(spd), ctx.eng, K.dnnl_forward_inference, K.dnnl_resampling_linear,
        None, src, dst, None))
    ctx.keep(lib.dnnl_primitive_desc_destroy, spd)
    blob = (ctypes.c_uint8 * 4)(1, 2, 3, 4)
    for name, pd in (("reorder", rpd), ("resampling", spd)):
        prim = p_()
        for size, data in ((4, blob), (0, blob), (4, None)):
            ctx.st("%s from blob %d %s" % (name, size, data is None), lib.dnnl_primitive_create_from_cache_blob(
                ctypes.byref(prim), pd, size, data))
        ctx.st(name + " create", lib.dnnl_primitive_create(ctypes.byref(prim), pd))
        size = ctypes.c_size_t(77)
        ctx.st(name + " blob size", lib.dnnl_primitive_get_cache_blob(prim, ctypes.byref(size),
                                                                      None))
        ctx.st(name + " blob", lib.dnnl_primitive_get_cache_blob(prim, ctypes.byref(size), blob))
        ctx.put(name + " size untouched", size.value)
        lib.dnnl_primitive_destroy(prim)
        n, ptr = i64(5), p_(7)
        ctx.st(name + " blob id size", lib.dnnl_primitive_desc_query(
            pd, K.dnnl_query_cache_blob_id_size_s64, 0, ctypes.byref(n)))
        ctx.st(name + " blob id", lib.dnnl_primitive_desc_query(pd, K.dnnl_query_cache_blob_id,
                                                                0, ctypes.byref(ptr)))
        ctx.put(name + " blob id", (n.value, ptr.value))
        eng = p_(7)
        ctx.st(name + " scratchpad engine", lib.dnnl_primitive_desc_query(
            pd, K.dnnl_query_scratchpad_engine, 0, ctypes.byref(eng)))
        for q in ("weights_md", "diff_weights_md"):
            for idx in (0, 1):
                wmd = lib.dnnl_primitive_desc_query_md(pd, C["dnnl_query_" + q], idx)
                ctx.put("%s %s %d is a md" % (name, q, idx), bool(wmd))
                if wmd:
                    md_info(ctx, wmd, "%s %s %d" % (name, q, idx))
    mem = ctx.mem(md)
    mapped = p_()
    for idx in (0, 1, -1):
        ctx.st("map v2 %d" % idx, lib.dnnl_memory_map_data_v2(mem, ctypes.byref(mapped), idx))
    lib.dnnl_memory_map_data_v2(mem, ctypes.byref(mapped), 0)
    for idx in (0, 1, -1, 2):
        ctx.st("unmap v2 %d" % idx, lib.dnnl_memory_unmap_data_v2(mem, mapped, idx))
    ctx.st("unmap v2 NULL", lib.dnnl_memory_unmap_data_v2(mem, None, 0))
    for enable in (1, -3, 0):       # (left off: real oneDNN would dump its JIT code)
        ctx.st("jit dump %d" % enable, lib.dnnl_set_jit_dump(enable))
    for flags in list(range(33)) + [0x80, 0xFFFFFFFF, 0x80000001]:
        ctx.st("jit profiling flags %#x" % flags, lib.dnnl_set_jit_profiling_flags(flags))
    lib.dnnl_set_jit_profiling_flags(K.DNNL_JIT_PROFILE_VTUNE)     # oneDNN's default
    for d in (b"/tmp", b"", None):
        ctx.st("jitdumpdir %r" % (d,), lib.dnnl_set_jit_profiling_jitdumpdir(d))
    return ctx.close()


PROGRAMS = [prog_cache_blobs_and_service, prog_submemory_on_parent, prog_zero_element, prog_reorder_scales_zero_points, prog_reorder_sum_and_blocked,
            prog_resampling_forward_post_ops, prog_resampling_backward,
            prog_md_queries_blocked, prog_attr_round_trip, prog_user_scratchpad,
            prog_error_paths, prog_memory_handles, prog_debug_strings, prog_examples]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__[5:])
def test_same_log_on_both(program, libs, oracle):
    real, ours = libs
    expect = program(real)
    got = program(ours)
    assert len(got) == len(expect)
    for k, (e, g) in enumerate(zip(expect, got)):
        assert g == e, "entry %d differs: oneDNN %.300r, dnnl.capi %.300r" % (k, e, g)
    _oracle_mod.record("capi/programs")
    for entry in expect:
        _oracle_mod.record("capi/log entries")
        if isinstance(entry[-1], bytes) and len(entry[-1]) > 64:
            _oracle_mod.record("capi/byte-identical outputs")
        elif entry[0].startswith("status "):
            _oracle_mod.record("capi/matching statuses")
            if entry[1] != 0:
                _oracle_mod.record("capi/matching error statuses")


def test_object_api_service_answers_as_onednn(libs, oracle):
    """The object API's dnnl.hpp members over the same C calls give oneDNN's
    answers: ``memory::data_type_size``, ``set_jit_*`` (statuses, returned),
    the cache-blob constructor and ``get_cache_blob`` (statuses, raised),
    ``scratchpad_engine`` (raised) and ``unmap_data(ptr, index)``."""
    real, _ = libs
    real.dnnl_data_type_size.restype = ctypes.c_size_t
    for dt in dnnl.data_type:
        assert dnnl.memory.data_type_size(dt) == real.dnnl_data_type_size(int(dt)), dt
        _oracle_mod.record("capi/object API answers")
    for flags in list(range(33)) + [0xFFFFFFFF]:
        assert dnnl.set_jit_profiling_flags(flags) == real.dnnl_set_jit_profiling_flags(flags)
        _oracle_mod.record("capi/object API answers")
    real.dnnl_set_jit_profiling_flags(K.DNNL_JIT_PROFILE_VTUNE)     # oneDNN's default
    dnnl.set_jit_profiling_flags(K.DNNL_JIT_PROFILE_VTUNE)
    for enable in (1, 0):       # (left off: real oneDNN would dump its JIT code)
        assert dnnl.set_jit_dump(enable) == real.dnnl_set_jit_dump(enable)
    assert dnnl.set_jit_profiling_jitdumpdir("/tmp") == real.dnnl_set_jit_profiling_jitdumpdir(
        b"/tmp")
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    md = dnnl.memory.desc([2, 3], "f32", "ab")
    pd = dnnl.reorder.primitive_desc(eng, md, eng, md)
    ctx = Ctx(real)
    rmd = ctx.md([2, 3], K.dnnl_f32, K.dnnl_ab)
    rpd, prim = p_(), p_()
    real.dnnl_reorder_primitive_desc_create(ctypes.byref(rpd), rmd, ctx.eng, rmd, ctx.eng, None)
    blob = (ctypes.c_uint8 * 2)(1, 2)
    for ours, size in ((b"\x01\x02", 2), (b"", 0)):
        with pytest.raises(dnnl.error) as err:
            dnnl.reorder(pd, ours)
        assert err.value.status == real.dnnl_primitive_create_from_cache_blob(
            ctypes.byref(prim), rpd, size, blob)
    real.dnnl_primitive_create(ctypes.byref(prim), rpd)
    size = ctypes.c_size_t()
    with pytest.raises(dnnl.error) as err:
        dnnl.reorder(pd).get_cache_blob()
    assert err.value.status == real.dnnl_primitive_get_cache_blob(prim, ctypes.byref(size), None)
    eng_out = p_()
    with pytest.raises(dnnl.error) as err:
        pd.scratchpad_engine()
    assert err.value.status == real.dnnl_primitive_desc_query(
        rpd, K.dnnl_query_scratchpad_engine, 0, ctypes.byref(eng_out))
    assert pd.get_cache_blob_id() == b""
    mem, rmem = dnnl.memory(md, eng), ctx.mem(rmd)
    for idx in (0, 1, -1):
        try:
            mem.unmap_data(mem.map_data(), idx)
            st = 0
        except dnnl.error as exc:
            st = exc.status
        assert st == real.dnnl_memory_unmap_data_v2(rmem, None, idx), idx
    real.dnnl_primitive_destroy(prim)
    real.dnnl_primitive_desc_destroy(rpd)
    ctx.close()
