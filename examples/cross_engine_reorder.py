"""Reorders between engines, over the flat C API (``dnnl.capi``): the CPU part.

A Python port of oneDNN's examples/cross_engine_reorder.c. The C example
moves a tensor from a CPU engine to a GPU engine, applies ReLU there and
moves it back. Only the CPU exists here, so both "devices" are CPU engines
(the second one is what the example would use if
``dnnl_engine_get_count(dnnl_gpu)`` were non-zero), and ReLU is a nearest
resampling with unit factors and an ``eltwise_relu`` post-op (the library has
no eltwise primitive): the same data path, reorder -> op -> reorder, with
C-style error checking at every call.

Run: ``python examples/cross_engine_reorder.py``.
"""
import ctypes

import numpy as np

import dnnl.capi as dnnl_h  # oneDNN's constants under their C names
from example_utils import (dims_t, impl_name, exec_args, load_lib, make_check,
                           read_from_dnnl_memory, write_to_dnnl_memory)


def fill(lib, mem, n):
    """Every 7th element -1, the others 1 (as the C example)."""
    array = np.where(np.arange(n) % 7 != 0, 1.0, -1.0).astype(np.float32)
    write_to_dnnl_memory(lib, array, mem)


def find_negative(lib, mem, n):
    array = np.empty(n, dtype=np.float32)
    read_from_dnnl_memory(lib, array, mem)
    return int((array < 0).sum())


def cross_engine_reorder(lib):
    """Returns (negatives before, negatives after, final buffer)."""
    CHECK = make_check(lib)
    engine_cpu, engine_dev = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_engine_create(ctypes.byref(engine_cpu), dnnl_h.dnnl_cpu, 0))
    dev_kind = dnnl_h.dnnl_gpu if lib.dnnl_engine_get_count(dnnl_h.dnnl_gpu) else dnnl_h.dnnl_cpu
    CHECK(lib.dnnl_engine_create(ctypes.byref(engine_dev), dev_kind, 0))

    tz = dims_t(2, 16, 1, 1)
    n = 2 * 16
    m_cpu_md, m_dev_md = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(m_cpu_md), 4, tz,
                                               dnnl_h.dnnl_f32, dnnl_h.dnnl_nhwc))
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(m_dev_md), 4, tz,
                                               dnnl_h.dnnl_f32, dnnl_h.dnnl_nhwc))
    m_cpu, m_dev = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_create(ctypes.byref(m_cpu), m_cpu_md, engine_cpu,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    CHECK(lib.dnnl_memory_create(ctypes.byref(m_dev), m_dev_md, engine_dev,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    fill(lib, m_cpu, n)
    before = find_negative(lib, m_cpu, n)
    if before == 0:
        raise RuntimeError("incorrect data fill, no negative values found")

    # reorder cpu -> device
    r1_pd, r1 = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_reorder_primitive_desc_create(ctypes.byref(r1_pd), m_cpu_md, engine_cpu,
                                                 m_dev_md, engine_dev, None))
    CHECK(lib.dnnl_primitive_create(ctypes.byref(r1), r1_pd))

    # relu on the device: identity resampling + eltwise_relu post-op
    po, attr = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_post_ops_create(ctypes.byref(po)))
    CHECK(lib.dnnl_post_ops_append_eltwise(po, dnnl_h.dnnl_eltwise_relu, 0.0, 0.0))
    CHECK(lib.dnnl_primitive_attr_create(ctypes.byref(attr)))
    CHECK(lib.dnnl_primitive_attr_set_post_ops(attr, po))
    relu_pd, relu = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(relu_pd), engine_dev, dnnl_h.dnnl_forward_inference,
        dnnl_h.dnnl_resampling_nearest, None, m_dev_md, m_dev_md, attr))
    # the reference implementation (real oneDNN lists faster ones first)
    while not impl_name(lib, relu_pd).startswith("ref"):
        if lib.dnnl_primitive_desc_next_impl(relu_pd) != dnnl_h.dnnl_success:
            break
    CHECK(lib.dnnl_primitive_create(ctypes.byref(relu), relu_pd))

    # reorder device -> cpu
    r2_pd, r2 = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_reorder_primitive_desc_create(ctypes.byref(r2_pd), m_dev_md, engine_dev,
                                                 m_cpu_md, engine_cpu, None))
    CHECK(lib.dnnl_primitive_create(ctypes.byref(r2), r2_pd))

    # A primitive runs on a stream of its own engine: for a reorder that is
    # the GPU engine when one side is a GPU, else the source engine. Ask the
    # primitive descriptor (dnnl_query_engine) and make one stream per engine.
    streams = {}

    def stream_for(pd):
        eng = ctypes.c_void_p()
        CHECK(lib.dnnl_primitive_desc_query(pd, dnnl_h.dnnl_query_engine, 0,
                                            ctypes.byref(eng)))
        if eng.value not in streams:
            streams[eng.value] = ctypes.c_void_p()
            CHECK(lib.dnnl_stream_create(ctypes.byref(streams[eng.value]), eng,
                                         dnnl_h.dnnl_stream_default_flags))
        return streams[eng.value]

    r1_args = exec_args((dnnl_h.DNNL_ARG_FROM, m_cpu), (dnnl_h.DNNL_ARG_TO, m_dev))
    CHECK(lib.dnnl_primitive_execute(r1, stream_for(r1_pd), 2, r1_args))
    # resampling does not work in place: relu into a second device buffer
    m_tmp = ctypes.c_void_p()
    CHECK(lib.dnnl_memory_create(ctypes.byref(m_tmp), m_dev_md, engine_dev,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    relu_args = exec_args((dnnl_h.DNNL_ARG_SRC, m_dev), (dnnl_h.DNNL_ARG_DST, m_tmp))
    CHECK(lib.dnnl_primitive_execute(relu, stream_for(relu_pd), 2, relu_args))
    r2_args = exec_args((dnnl_h.DNNL_ARG_FROM, m_tmp), (dnnl_h.DNNL_ARG_TO, m_cpu))
    CHECK(lib.dnnl_primitive_execute(r2, stream_for(r2_pd), 2, r2_args))
    for stream in streams.values():
        CHECK(lib.dnnl_stream_wait(stream))

    after = find_negative(lib, m_cpu, n)
    final = np.empty(n, dtype=np.float32)
    read_from_dnnl_memory(lib, final, m_cpu)

    # clean up
    for pd in (relu_pd, r1_pd, r2_pd):
        CHECK(lib.dnnl_primitive_desc_destroy(pd))
    for prim in (relu, r1, r2):
        CHECK(lib.dnnl_primitive_destroy(prim))
    CHECK(lib.dnnl_primitive_attr_destroy(attr))
    CHECK(lib.dnnl_post_ops_destroy(po))
    for mem in (m_cpu, m_dev, m_tmp):
        CHECK(lib.dnnl_memory_destroy(mem))
    for md in (m_cpu_md, m_dev_md):
        CHECK(lib.dnnl_memory_desc_destroy(md))
    for stream in streams.values():
        CHECK(lib.dnnl_stream_destroy(stream))
    CHECK(lib.dnnl_engine_destroy(engine_cpu))
    CHECK(lib.dnnl_engine_destroy(engine_dev))
    return before, after, final


def main(lib=None):
    lib = lib or load_lib()
    before, after, final = cross_engine_reorder(lib)
    if after != 0:
        raise RuntimeError("found negative values after ReLU applied")
    print("Example passed on CPU/CPU: %d negative values before ReLU, %d after."
          % (before, after))
    return final


if __name__ == "__main__":
    main()
