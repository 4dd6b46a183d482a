"""Edge cases where oneDNN's behaviour is easy to miss:

* zero-element tensors (a dim of 0): reorder and resampling primitive
  descriptors are created and execute as no-ops, in the object API and in
  the flat C API (oneDNN returns success for both);
* a primitive made for a sub-memory descriptor, executed with the parent
  memory (oneDNN's gtest SubmemoryMemoryInteraction).
"""
import ctypes

import numpy as np
import pytest

import dnnl
import dnnl.capi as lib
from dnnl.resampling import resampling_backward, resampling_forward

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
S = dnnl.stream(ENG)
A = dnnl.algorithm
p_ = ctypes.c_void_p
Dims = ctypes.c_int64 * 12


class _Arg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


# ------------------------------------------------------- zero-element tensors
ZERO_REORDERS = [([0, 4], "ab", "ba", "s8"), ([2, 0, 3, 3], "nchw", "nChw16c", "f32"),
                 ([0], "a", "a", "bf16"), ([3, 0], "ab", "ab", "f32"),
                 ([0, 16, 2, 2], "nchw", "nChw8c", "u8")]


@pytest.mark.parametrize("dims,stag,dtag,ddt", ZERO_REORDERS)
def test_zero_element_reorder_object_api(dims, stag, dtag, ddt):
    smd, dmd = dnnl.memory.desc(dims, "f32", stag), dnnl.memory.desc(dims, ddt, dtag)
    assert smd.get_size() == dmd.get_size() == 0
    pd = dnnl.reorder.primitive_desc(ENG, smd, ENG, dmd)
    src, dst = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
    dnnl.reorder(pd).execute(S, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    dnnl.reorder(src, dst).execute(S, src, dst)
    # with attributes too
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    sc = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), ENG)
    sc.from_numpy(np.float32([2]))
    dnnl.reorder(src, dst, attr).execute(S, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
                                             dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_SRC: sc})
    # runtime dims resolved to a zero-element memory at execution
    rt = dnnl.memory.desc([dnnl.DNNL_RUNTIME_DIM_VAL] * len(dims), "f32", stag)
    rpd = dnnl.reorder.primitive_desc(ENG, rt, ENG, rt)
    s2, d2 = dnnl.memory(smd, ENG), dnnl.memory(smd, ENG)
    dnnl.reorder(rpd).execute(S, {dnnl.DNNL_ARG_FROM: s2, dnnl.DNNL_ARG_TO: d2})


@pytest.mark.parametrize("alg", [A.resampling_nearest, A.resampling_linear])
@pytest.mark.parametrize("sdims,ddims", [([1, 2, 4], [1, 2, 0]), ([0, 2, 4], [0, 2, 3]),
                                         ([1, 0, 4], [1, 0, 8]), ([1, 2, 0], [1, 2, 3]),
                                         ([2, 0, 3, 3], [2, 0, 6, 6])])
def test_zero_element_resampling_object_api(alg, sdims, ddims):
    tag = {3: "ncw", 4: "nChw16c"}[len(sdims)]
    smd, dmd = dnnl.memory.desc(sdims, "f32", tag), dnnl.memory.desc(ddims, "f32", tag)
    fwd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, alg,
                                            smd, dmd)
    src, dst = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
    src._bytes()[:] = 0x5a                  # the non-empty side must stay as it is
    dst._bytes()[:] = 0x5a
    before = bytes(dst._bytes()) + bytes(src._bytes())
    resampling_forward(fwd).execute(S, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    assert bytes(dst._bytes()) + bytes(src._bytes()) == before
    bwd = resampling_backward.primitive_desc(ENG, alg, smd, dmd, fwd)
    resampling_backward(bwd).execute(S, {dnnl.DNNL_ARG_DIFF_DST: dst,
                                         dnnl.DNNL_ARG_DIFF_SRC: src})
    # measured on oneDNN 3.13.2 (ref:any and simple:any alike): forward leaves
    # a non-empty dst as it was, backward zeroes a non-empty diff_src
    assert bytes(dst._bytes()) == before[:dst.nbytes]
    assert bytes(src._bytes()) == bytes(src.nbytes)


def _capi_md(dims, dt, tag):
    md = p_()
    assert lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(dims), Dims(*dims),
                                                dt, tag) == 0
    return md


def _capi_run(eng, strm, pd, pairs):
    prim = p_()
    assert lib.dnnl_primitive_create(ctypes.byref(prim), pd) == 0
    args = (_Arg * len(pairs))(*[_Arg(a, m) for a, m in pairs])
    st = lib.dnnl_primitive_execute(prim, strm, len(pairs), args)
    lib.dnnl_primitive_destroy(prim)
    return st


def test_zero_element_flat_api():
    eng, strm = p_(), p_()
    assert lib.dnnl_engine_create(ctypes.byref(eng), lib.dnnl_cpu, 0) == 0
    assert lib.dnnl_stream_create(ctypes.byref(strm), eng, lib.dnnl_stream_default_flags) == 0
    smd = _capi_md([0, 4], lib.dnnl_f32, lib.dnnl_ab)
    dmd = _capi_md([0, 4], lib.dnnl_s8, lib.dnnl_ba)
    src, dst = p_(), p_()
    assert lib.dnnl_memory_create(ctypes.byref(src), smd, eng, lib.DNNL_MEMORY_ALLOCATE) == 0
    assert lib.dnnl_memory_create(ctypes.byref(dst), dmd, eng, lib.DNNL_MEMORY_ALLOCATE) == 0
    pd = p_()
    assert lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), smd, eng, dmd, eng,
                                                  None) == 0
    assert _capi_run(eng, strm, pd, [(lib.DNNL_ARG_FROM, src), (lib.DNNL_ARG_TO, dst)]) == 0
    lib.dnnl_primitive_desc_destroy(pd)
    rs = _capi_md([1, 2, 4], lib.dnnl_f32, lib.dnnl_ncw)
    rd = _capi_md([1, 2, 0], lib.dnnl_f32, lib.dnnl_ncw)
    m1, m2 = p_(), p_()
    assert lib.dnnl_memory_create(ctypes.byref(m1), rs, eng, lib.DNNL_MEMORY_ALLOCATE) == 0
    assert lib.dnnl_memory_create(ctypes.byref(m2), rd, eng, lib.DNNL_MEMORY_ALLOCATE) == 0
    for alg in (lib.dnnl_resampling_nearest, lib.dnnl_resampling_linear):
        fpd, bpd = p_(), p_()
        assert lib.dnnl_resampling_forward_primitive_desc_create(
            ctypes.byref(fpd), eng, lib.dnnl_forward_training, alg, None, rs, rd, None) == 0
        assert _capi_run(eng, strm, fpd, [(lib.DNNL_ARG_SRC, m1), (lib.DNNL_ARG_DST, m2)]) == 0
        assert lib.dnnl_resampling_backward_primitive_desc_create(
            ctypes.byref(bpd), eng, alg, None, rs, rd, fpd, None) == 0
        assert _capi_run(eng, strm, bpd, [(lib.DNNL_ARG_DIFF_DST, m2),
                                          (lib.DNNL_ARG_DIFF_SRC, m1)]) == 0
        lib.dnnl_primitive_desc_destroy(bpd)
        lib.dnnl_primitive_desc_destroy(fpd)
    for h in (src, dst, m1, m2):
        lib.dnnl_memory_destroy(h)
    for md in (smd, dmd, rs, rd):
        lib.dnnl_memory_desc_destroy(md)
    lib.dnnl_stream_destroy(strm)
    lib.dnnl_engine_destroy(eng)


# --------------------------------------- a primitive run on another memory
def test_submemory_primitive_on_parent_memory():
    """oneDNN's gtest SubmemoryMemoryInteraction (tests/gtests/api/
    test_submemory.cpp): a reorder made for dst's sub-memory at offset 1,
    executed with the whole dst, writes [1, 35]."""
    src = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), ENG)
    src.from_numpy(np.float32([35]))
    dst = dnnl.memory(dnnl.memory.desc([2], "f32", "a"), ENG)
    dst.from_numpy(np.float32([1, 0]))
    sub = dst.get_desc().submemory_desc([1], [1])
    pd = dnnl.reorder.primitive_desc(ENG, src.get_desc(), ENG, sub, dnnl.primitive_attr())
    dnnl.reorder(pd).execute(S, src, dst)
    assert dst.to_numpy().tolist() == [1, 35]


def test_resampling_for_a_submemory_on_parent_memory():
    """The same for resampling: the primitive reads and writes the parent's
    buffer through its own (sub-memory) descriptors."""
    x = np.arange(2 * 4 * 6, dtype=np.float32).reshape(2, 4, 6)
    parent = dnnl.memory(dnnl.memory.desc([2, 4, 6], "f32", "ncw"), ENG)
    parent.from_numpy(x)
    sub = parent.get_desc().submemory_desc([1, 2, 6], [1, 1, 0])
    out_parent = dnnl.memory(dnnl.memory.desc([2, 4, 12], "f32", "ncw"), ENG)
    out_parent.from_numpy(np.full((2, 4, 12), -1, np.float32))
    out_sub = out_parent.get_desc().submemory_desc([1, 2, 12], [1, 2, 0])
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                           A.resampling_nearest, sub, out_sub)
    resampling_forward(pd).execute(S, {dnnl.DNNL_ARG_SRC: parent,
                                       dnnl.DNNL_ARG_DST: out_parent})
    got = out_parent.to_numpy()
    want = np.full((2, 4, 12), -1, np.float32)
    want[1, 2:4] = np.repeat(x[1, 1:3], 2, axis=-1)
    assert got.tolist() == want.tolist()


def test_memory_too_small_for_the_primitive_is_refused():
    """Where oneDNN would write past the buffer: invalid_arguments, nothing written."""
    src = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), ENG)
    dst = dnnl.memory(dnnl.memory.desc([2], "f32", "a"), ENG)
    dst.from_numpy(np.float32([1, 0]))
    far = dnnl.memory.desc([3], "f32", "a").submemory_desc([1], [2])   # needs 12 bytes
    r = dnnl.reorder(dnnl.reorder.primitive_desc(ENG, src.get_desc(), ENG, far))
    with pytest.raises(dnnl.error) as e:
        r.execute(S, src, dst)
    assert e.value.status == dnnl.status.invalid_arguments
    assert dst.to_numpy().tolist() == [1, 0]
    # a user buffer larger than the memory's own descriptor is large enough
    buf = np.zeros(3, np.float32)
    big = dnnl.memory(dnnl.memory.desc([2], "f32", "a"), ENG, buf)
    src.from_numpy(np.float32([5]))
    r.execute(S, src, big)
    assert buf.tolist() == [0, 0, 5]


def test_submemory_primitive_on_parent_memory_flat_api():
    eng, strm = p_(), p_()
    assert lib.dnnl_engine_create(ctypes.byref(eng), lib.dnnl_cpu, 0) == 0
    assert lib.dnnl_stream_create(ctypes.byref(strm), eng, lib.dnnl_stream_default_flags) == 0
    smd = _capi_md([1], lib.dnnl_f32, lib.dnnl_a)
    dmd = _capi_md([2], lib.dnnl_f32, lib.dnnl_a)
    sub = p_()
    assert lib.dnnl_memory_desc_create_submemory(ctypes.byref(sub), dmd, Dims(1), Dims(1)) == 0
    sbuf, dbuf = np.float32([35]), np.float32([1, 0])
    src, dst = p_(), p_()
    assert lib.dnnl_memory_create(ctypes.byref(src), smd, eng, sbuf.ctypes.data) == 0
    assert lib.dnnl_memory_create(ctypes.byref(dst), dmd, eng, dbuf.ctypes.data) == 0
    pd = p_()
    assert lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), smd, eng, sub, eng,
                                                  None) == 0
    assert _capi_run(eng, strm, pd, [(lib.DNNL_ARG_FROM, src), (lib.DNNL_ARG_TO, dst)]) == 0
    assert dbuf.tolist() == [1, 35]
    lib.dnnl_primitive_desc_destroy(pd)
    for h in (src, dst):
        lib.dnnl_memory_destroy(h)
    for md in (smd, dmd, sub):
        lib.dnnl_memory_desc_destroy(md)
    lib.dnnl_stream_destroy(strm)
    lib.dnnl_engine_destroy(eng)
