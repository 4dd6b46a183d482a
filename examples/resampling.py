"""Linear resampling, over the flat C API (``dnnl.capi``).

A Python port of oneDNN's examples/primitives/resampling.cpp written as a
ctypes program: an f32 NHWC tensor of 3x3x227x227 is upsampled bilinearly to
350x350 with ``dnnl_resampling_forward_primitive_desc_create``.

Run: ``python examples/resampling.py`` (``DNNL_EXAMPLE_LIB=onednn`` runs the
same program on real oneDNN).
"""
import ctypes

import numpy as np

import dnnl.capi as dnnl_h  # oneDNN's constants under their C names
from example_utils import (dims_t, exec_args, impl_name, load_lib, make_check,
                           read_from_dnnl_memory, write_to_dnnl_memory)


def resampling_example(lib, N=3, IC=3, IH=227, IW=227, OH=350, OW=350, reference=True):
    """Upsample; returns (src, dst) as numpy arrays in NHWC order.

    ``reference=True`` steps to oneDNN's reference implementation with
    ``dnnl_primitive_desc_next_impl`` (real oneDNN lists faster ones first;
    dnnl.capi has only the reference).
    """
    CHECK = make_check(lib)
    engine, stream = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_engine_create(ctypes.byref(engine), dnnl_h.dnnl_cpu, 0))
    CHECK(lib.dnnl_stream_create(ctypes.byref(stream), engine,
                                 dnnl_h.dnnl_stream_default_flags))

    src_data = np.cos(np.arange(N * IC * IH * IW, dtype=np.float32)
                      / np.float32(10)).astype(np.float32)
    dst_data = np.zeros(N * IC * OH * OW, dtype=np.float32)

    src_md, dst_md = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(src_md), 4,
                                               dims_t(N, IC, IH, IW), dnnl_h.dnnl_f32,
                                               dnnl_h.dnnl_nhwc))
    CHECK(lib.dnnl_memory_desc_create_with_tag(ctypes.byref(dst_md), 4,
                                               dims_t(N, IC, OH, OW), dnnl_h.dnnl_f32,
                                               dnnl_h.dnnl_nhwc))
    src_mem, dst_mem = ctypes.c_void_p(), ctypes.c_void_p()
    CHECK(lib.dnnl_memory_create(ctypes.byref(src_mem), src_md, engine,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    CHECK(lib.dnnl_memory_create(ctypes.byref(dst_mem), dst_md, engine,
                                 dnnl_h.DNNL_MEMORY_ALLOCATE))
    write_to_dnnl_memory(lib, src_data, src_mem)

    # No factors: they follow from the src and dst dims (350 / 227).
    pd = ctypes.c_void_p()
    CHECK(lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(pd), engine, dnnl_h.dnnl_forward_training,
        dnnl_h.dnnl_resampling_linear, None, src_md, dst_md, None))
    while reference and not impl_name(lib, pd).startswith("ref"):
        if lib.dnnl_primitive_desc_next_impl(pd) != dnnl_h.dnnl_success:
            break
    prim = ctypes.c_void_p()
    CHECK(lib.dnnl_primitive_create(ctypes.byref(prim), pd))
    args = exec_args((dnnl_h.DNNL_ARG_SRC, src_mem), (dnnl_h.DNNL_ARG_DST, dst_mem))
    CHECK(lib.dnnl_primitive_execute(prim, stream, len(args), args))
    CHECK(lib.dnnl_stream_wait(stream))
    read_from_dnnl_memory(lib, dst_data, dst_mem)

    CHECK(lib.dnnl_primitive_destroy(prim))
    CHECK(lib.dnnl_primitive_desc_destroy(pd))
    for mem in (src_mem, dst_mem):
        CHECK(lib.dnnl_memory_destroy(mem))
    for md in (src_md, dst_md):
        CHECK(lib.dnnl_memory_desc_destroy(md))
    CHECK(lib.dnnl_stream_destroy(stream))
    CHECK(lib.dnnl_engine_destroy(engine))
    return (src_data.reshape(N, IH, IW, IC), dst_data.reshape(N, OH, OW, IC))


def main(lib=None):
    lib = lib or load_lib()
    src, dst = resampling_example(lib)
    # corners of a linear upsampling are the source corners; values stay in range
    assert np.allclose(dst[:, 0, 0], src[:, 0, 0], atol=1e-6)
    assert np.allclose(dst[:, -1, -1], src[:, -1, -1], atol=1e-6)
    assert dst.min() >= src.min() - 1e-6 and dst.max() <= src.max() + 1e-6
    print("Example passed: %s -> %s linear resampling." % (src.shape, dst.shape))
    return dst


if __name__ == "__main__":
    main()
