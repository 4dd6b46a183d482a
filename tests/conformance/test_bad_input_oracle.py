"""Statuses of misuse, real oneDNN against ``dnnl.capi``.

One ctypes program (no ``argtypes``: every argument is passed with its C type
explicitly) runs against ``libdnnl.so.3`` and against ``dnnl.capi`` and logs
each status; the logs must be equal except for the documented deviations
(docs/c_api.md, "Deviations from the real C API"), which are checked to be
exactly what the documentation says.
"""
import ctypes

import pytest

import dnnl.capi
import oracle as _oracle_mod
from dnnl._core.enums import C

pytestmark = pytest.mark.conformance

P, I64 = ctypes.c_void_p, ctypes.c_int64
ALLOCATE = P(C["DNNL_MEMORY_ALLOCATE"] & (2 ** 64 - 1))

# our status where oneDNN's differs on purpose (see the module docstring)
DEVIATIONS = {
    # oneDNN reads a reorder pd as a resampling pd (undefined behaviour)
    "resampling backward with a reorder pd as hint": (0, 2),
}


def dims(*v):
    return (I64 * 12)(*v)


def program(lib):
    log = {}
    eng = P()
    lib.dnnl_engine_create(ctypes.byref(eng), C["dnnl_cpu"], ctypes.c_size_t(0))

    def tag(n, d, dt, t):
        md = P()
        st = lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), n, dims(*d), C[dt], C[t])
        return st, md

    for d, dt, t in (([2 ** 31 - 1, 8], "dnnl_f32", "dnnl_ab"),
                     ([2 ** 31 - 1, 8], "dnnl_u8", "dnnl_ab"),
                     ([2 ** 31 - 1, 2], "dnnl_f32", "dnnl_ab"),
                     ([2 ** 30, 4], "dnnl_f32", "dnnl_ab"),
                     ([2 ** 29 + 1, 8], "dnnl_f32", "dnnl_ab"),
                     ([8, 2 ** 31 - 1], "dnnl_f32", "dnnl_ba"),
                     ([2 ** 40, 8], "dnnl_f32", "dnnl_ab"),
                     ([2 ** 61], "dnnl_f32", "dnnl_a"), ([2 ** 62], "dnnl_f32", "dnnl_a"),
                     ([2 ** 63 - 1], "dnnl_u8", "dnnl_a"),
                     ([3, 2 ** 30, 2], "dnnl_f32", "dnnl_aBc16b")):
        log["tag %s %s %s" % (d, dt, t)] = tag(len(d), d, dt, t)[0]
    log["tag ndims -1"] = tag(-1, [2], "dnnl_f32", "dnnl_a")[0]
    log["tag ndims -1 undef"] = tag(-1, [2], "dnnl_f32", "dnnl_format_tag_undef")[0]
    md = P()
    log["strides ndims -1"] = lib.dnnl_memory_desc_create_with_strides(
        ctypes.byref(md), -1, dims(2), C["dnnl_f32"], None)
    log["strides [2**31-1, 8] dense"] = lib.dnnl_memory_desc_create_with_strides(
        ctypes.byref(md), 2, dims(2 ** 31 - 1, 8), C["dnnl_f32"], None)
    mem = P()
    log["memory_create NULL md"] = lib.dnnl_memory_create(ctypes.byref(mem), None, eng,
                                                          ALLOCATE)
    log["memory_create NULL md, no buffer"] = lib.dnnl_memory_create(ctypes.byref(mem),
                                                                     None, eng, None)
    attr = P()
    lib.dnnl_primitive_attr_create(ctypes.byref(attr))
    log["set_dropout NULL"] = lib.dnnl_primitive_attr_set_dropout(attr, None)
    for flags in (0, 1, 2, 3, 5, 6, 8, 0x10, 0x100):
        strm = P()
        log["stream flags %#x" % flags] = lib.dnnl_stream_create(ctypes.byref(strm), eng,
                                                                 ctypes.c_uint(flags))
        if log["stream flags %#x" % flags] == 0:
            lib.dnnl_stream_destroy(strm)
    st, a = tag(1, [4], "dnnl_f32", "dnnl_a")
    log["desc_equal NULL NULL"] = lib.dnnl_memory_desc_equal(None, None)
    log["desc_equal a NULL"] = lib.dnnl_memory_desc_equal(a, None)
    log["desc_equal a a"] = lib.dnnl_memory_desc_equal(a, a)
    po = P()
    lib.dnnl_post_ops_create(ctypes.byref(po))
    one, zero = ctypes.c_float(1), ctypes.c_int32(0)
    for dt in (999, -1, C["dnnl_boolean"]):
        log["append_sum dt %d" % dt] = lib.dnnl_post_ops_append_sum(po, one, zero, dt)
    log["append_dw unknown types"] = lib.dnnl_post_ops_append_dw(po, 999, 998, 997, I64(3),
                                                                 I64(1), I64(1))
    log["append_dw undef types"] = lib.dnnl_post_ops_append_dw(po, 0, 0, 0, I64(3), I64(1),
                                                               I64(1))
    log["post_ops_len"] = lib.dnnl_post_ops_len(po)
    dt = ctypes.c_int()
    log["get_params_sum dt 999"] = (lib.dnnl_post_ops_get_params_sum(
        po, 0, None, None, ctypes.byref(dt)), dt.value)
    res = (ctypes.c_int64 * 16)()
    for index in (-5, -1, 0, 1):
        for q in ("dnnl_query_ndims_s32", "dnnl_query_inner_blks",
                  "dnnl_query_num_handles_s32"):
            log["query_v2 %s index %d" % (q, index)] = lib.dnnl_memory_desc_query_v2(
                a, C[q], index, ctypes.byref(res))
    z = P()
    lib.dnnl_memory_desc_create_with_tag(ctypes.byref(z), 0, dims(), C["dnnl_f32"],
                                         C["dnnl_a"])
    for q in ("dnnl_query_strides", "dnnl_query_inner_nblks_s32", "dnnl_query_ndims_s32"):
        log["query %s on the zero md" % q] = lib.dnnl_memory_desc_query(z, C[q],
                                                                        ctypes.byref(res))
    bufs = [(ctypes.c_float * 4)(), (ctypes.c_float * 4)()]
    handles = (P * 2)(ctypes.addressof(bufs[0]), ctypes.addressof(bufs[1]))
    for n in (2, 1, 0, -1):
        mem = P()
        st = lib.dnnl_memory_create_v2(ctypes.byref(mem), a, eng, n, handles)
        log["memory_create_v2 nhandles %d" % n] = st
        if st == 0:
            for i in range(n):
                h = P()
                log["v2 nhandles %d: handle %d" % (n, i)] = (
                    lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), i),
                    h.value == ctypes.addressof(bufs[i]))
            lib.dnnl_memory_destroy(mem)
    # any count of handles above 0 is taken (dnnl.memory(md, engine, [...])
    # takes one per buffer); format any is refused, as by dnnl_memory_create
    many = (P * 192)()
    st, anymd = tag(2, [2, 3], "dnnl_f32", "dnnl_format_tag_any")
    for what, md_, n in (("dense, 192 NULL handles", a, 192), ("format any, 1", anymd, 1)):
        mem = P()
        log["memory_create_v2 %s" % what] = st = lib.dnnl_memory_create_v2(
            ctypes.byref(mem), md_, eng, n, many)
        if st == 0:
            h = P()
            log["memory_create_v2 %s: handle %d" % (what, n - 1)] = (
                lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), n - 1), h.value)
            lib.dnnl_memory_destroy(mem)
    lib.dnnl_memory_desc_destroy(anymd)
    for arg in ("DNNL_ARG_WEIGHTS", "DNNL_ARG_SRC", "DNNL_ARG_DST"):
        log["precomputed_reductions %s" % arg] = \
            lib.dnnl_primitive_attr_set_precomputed_reductions(attr, C[arg], 1, 2,
                                                               dims(4, 1), C["dnnl_s32"])
    attr2, po2 = P(), P()
    lib.dnnl_primitive_attr_create(ctypes.byref(attr2))
    lib.dnnl_post_ops_create(ctypes.byref(po2))
    lib.dnnl_post_ops_append_sum(po2, one, zero, 999)
    lib.dnnl_primitive_attr_set_post_ops(attr2, po2)
    rpd = P()
    log["reorder with a sum of data type 999"] = lib.dnnl_reorder_primitive_desc_create(
        ctypes.byref(rpd), a, eng, a, eng, attr2)
    if rpd:
        lib.dnnl_primitive_desc_destroy(rpd)
    st, src = tag(4, [1, 2, 4, 4], "dnnl_f32", "dnnl_nchw")
    st, dst = tag(4, [1, 2, 8, 8], "dnnl_f32", "dnnl_nchw")
    rpd = P()
    log["reorder pd"] = lib.dnnl_reorder_primitive_desc_create(ctypes.byref(rpd), src, eng,
                                                               src, eng, None)
    bpd = P()
    log["resampling backward with a reorder pd as hint"] = \
        lib.dnnl_resampling_backward_primitive_desc_create(
            ctypes.byref(bpd), eng, C["dnnl_resampling_nearest"], None, src, dst, rpd, None)
    for h in (bpd, rpd):
        if h:
            lib.dnnl_primitive_desc_destroy(h)
    st, big = tag(1, [2 ** 63 - 1], "dnnl_u8", "dnnl_a")
    mem = P()
    log["memory_create [2**63-1] u8, allocated"] = lib.dnnl_memory_create(
        ctypes.byref(mem), big, eng, ALLOCATE)
    for h in (a, z, src, dst, big):
        lib.dnnl_memory_desc_destroy(h)
    for h in (po, po2):
        lib.dnnl_post_ops_destroy(h)
    for h in (attr, attr2):
        lib.dnnl_primitive_attr_destroy(h)
    lib.dnnl_engine_destroy(eng)
    return log


def test_misuse_statuses_match_oneDNN(oracle):
    real = program(ctypes.CDLL(oracle.lib._name))   # own function objects, no argtypes
    ours = program(dnnl.capi)
    assert real.keys() == ours.keys()
    differ = {k: (real[k], ours[k]) for k in real if real[k] != ours[k]}
    assert differ == DEVIATIONS
    _oracle_mod.record("misuse statuses", len(real))
    _oracle_mod.record("misuse statuses: documented deviations", len(DEVIATIONS))
