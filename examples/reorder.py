"""Reorder with per-channel quantization, over the flat C API (``dnnl.capi``).

A Python port of oneDNN's examples/primitives/reorder.cpp written as a ctypes
program: an f32 NHWC tensor is quantized to s8 NHWC with one destination
scale per channel, ``dst = saturate_s8(round(src / scale[c]))``.

Run: ``python examples/reorder.py`` (``DNNL_EXAMPLE_LIB=onednn`` runs the
same program on real oneDNN).
"""
import ctypes

import numpy as np

import dnnl.capi as dnnl_h  # oneDNN's constants under their C names
from example_utils import (dims_t, exec_args, load_lib, make_check,
                           read_from_dnnl_memory, write_to_dnnl_memory)


def reorder_example(lib, N=3, IC=3, IH=227, IW=227):
    """Quantize; returns the s8 destination as a numpy array (NHWC bytes)."""
    CHECK = make_check(lib)
    engine, stream = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_engine_create(ctypes.byref(engine), dnnl_h.dnnl_cpu, 0))
    CHECK(lib.dnnl_stream_create(ctypes.byref(stream), engine,
                                 dnnl_h.dnnl_stream_default_flags))

    # Source values: cos(i / 10), i = 0, 1, 2... in physical (NHWC) order.
    n = N * IC * IH * IW
    src_data = np.cos(np.arange(n, dtype=np.float32) / np.float32(10)).astype(np.float32)
    dst_data = np.zeros(n, dtype=np.int8)

    dims = dims_t(N, IC, IH, IW)
    src_md, dst_md = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(src_md), 4, dims,
                                               dnnl_h.dnnl_f32, dnnl_h.dnnl_nhwc))
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(dst_md), 4, dims,
                                               dnnl_h.dnnl_s8, dnnl_h.dnnl_nhwc))
    src_mem, dst_mem = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_create(ctypes.byref(src_mem), src_md, engine,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    CHECK(lib.dnnl_memory_create(ctypes.byref(dst_mem), dst_md, engine,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    write_to_dnnl_memory(lib, src_data, src_mem)

    # One scale per channel (mask bit 1 = dim C), passed at execution time.
    scales = (64 + 5 * np.arange(IC)).astype(np.float32)
    attr = ctypes.c_void_p()
    CHECK(lib.dnnl_primitive_attr_create(ctypes.byref(attr)))
    CHECK(lib.dnnl_primitive_attr_set_scales_mask(attr, dnnl_h.DNNL_ARG_DST, 1 << 1))
    scales_md, scales_mem = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(scales_md), 1, dims_t(IC),
                                               dnnl_h.dnnl_f32, dnnl_h.dnnl_x))
    CHECK(lib.dnnl_memory_create(ctypes.byref(scales_mem), scales_md, engine,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    write_to_dnnl_memory(lib, scales, scales_mem)

    pd, prim = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), src_md, engine,
                                                 dst_md, engine, attr))
    CHECK(lib.dnnl_primitive_create(ctypes.byref(prim), pd))
    args = exec_args((dnnl_h.DNNL_ARG_SRC, src_mem), (dnnl_h.DNNL_ARG_DST, dst_mem),
                     (dnnl_h.DNNL_ARG_ATTR_SCALES | dnnl_h.DNNL_ARG_DST, scales_mem))
    CHECK(lib.dnnl_primitive_execute(prim, stream, len(args), args))
    CHECK(lib.dnnl_stream_wait(stream))
    read_from_dnnl_memory(lib, dst_data, dst_mem)

    for destroy, handle in ((lib.dnnl_primitive_destroy, prim),
                            (lib.dnnl_primitive_desc_destroy, pd),
                            (lib.dnnl_primitive_attr_destroy, attr),
                            (lib.dnnl_memory_destroy, scales_mem),
                            (lib.dnnl_memory_destroy, src_mem),
                            (lib.dnnl_memory_destroy, dst_mem),
                            (lib.dnnl_memory_desc_destroy, scales_md),
                            (lib.dnnl_memory_desc_destroy, src_md),
                            (lib.dnnl_memory_desc_destroy, dst_md),
                            (lib.dnnl_stream_destroy, stream),
                            (lib.dnnl_engine_destroy, engine)):
        CHECK(destroy(handle))
    return src_data, scales, dst_data


def main(lib=None):
    lib = lib or load_lib()
    src, scales, dst = reorder_example(lib)
    # the same quantization in numpy: channel is the innermost NHWC dim
    expect = np.clip(np.rint(src.reshape(-1, scales.size) / scales), -128, 127)
    assert (dst.reshape(-1, scales.size) == expect).all(), "reorder output differs"
    print("Example passed: %d values quantized to s8 with scales %s."
          % (dst.size, scales.tolist()))
    return dst


if __name__ == "__main__":
    main()
