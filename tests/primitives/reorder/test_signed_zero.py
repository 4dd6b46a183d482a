"""-0.0 keeps its sign into every floating-point destination (issue 44, item 7).

IEEE arithmetic, PyTorch, ml_dtypes and oneDNN's JIT reorders (the default
implementation on AVX-512-bf16 CPUs) turn f32 -0.0 into bf16 0x8000; only
oneDNN's reference loop (simple:any) adds a zero dst zero point and stores
+0.0, a deviation docs/internals/semantics.md lists. Each case below takes
another path of the reorder kernel (the fused contiguous loops and their
vector bodies, rows converted element by element, the f32-buffered loop of
a blocked transpose, a byte-swapped source, per-channel scales) or of the
resampling kernel; the expected bits are IEEE's, written out. Marked
"kernels": tests/_platform/test_isa.py runs this file at every ISA level.
"""
import numpy as np
import pytest

import dnnl

pytestmark = pytest.mark.kernels

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
NEG0_BITS = {"bf16": 0x8000, "f16": 0x8000, "f32": 0x80000000}
VIEW = {"bf16": np.uint16, "f16": np.uint16, "f32": np.uint32}


def _bits(mem, ddt):
    return mem.to_numpy().view(VIEW[ddt]).reshape(-1)


def _reorder(x, sdims, stag, ddt, dtag, scales=None):
    src = dnnl.memory(dnnl.memory.desc(sdims, "f32", stag), ENG, x)
    dst = dnnl.memory(dnnl.memory.desc(sdims, ddt, dtag), ENG)
    attr = dnnl.primitive_attr()
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    if scales is not None:
        mask, values = scales
        attr.set_scales_mask(dnnl.DNNL_ARG_FROM, mask)
        args[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_FROM] = dnnl.memory(
            dnnl.memory.desc([len(values)], "f32", "a"), ENG, np.float32(values))
    dnnl.reorder(src, dst, attr).execute(dnnl.stream(ENG), args)
    return dst


@pytest.mark.parametrize("ddt", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("n", [1, 3, 8, 15, 16, 17, 64, 67, 1000])
@pytest.mark.parametrize("scale", [None, 2.0])
def test_contiguous_runs(ddt, n, scale):
    # f32 -> f32 without scales is a bit copy; with a scale it computes
    x = np.full(n, -0.0, np.float32)
    dst = _reorder(x, [n], "a", ddt, "a", None if scale is None else (0, [scale]))
    assert (_bits(dst, ddt) == NEG0_BITS[ddt]).all()


@pytest.mark.parametrize("ddt", ["bf16", "f16", "f32"])
@pytest.mark.parametrize("dims, stag, dtag", [
    ([2, 17, 3, 5], "nchw", "nChw16c"),     # a blocked transpose
    ([2, 17, 3, 5], "nchw", "nhwc"),        # a plain transpose
    ([3, 40], "ab", "ba"),
    ([5, 3], "ab", "ba"),                   # short rows, element by element
])
def test_transposes(ddt, dims, stag, dtag):
    x = np.full(int(np.prod(dims)), -0.0, np.float32)
    dst = _reorder(x, dims, stag, ddt, dtag, (0, [0.5]) if ddt == "f32" else None)
    values = np.asarray(dst)
    assert values.shape == tuple(dims)
    assert (values.view(VIEW[ddt]) == NEG0_BITS[ddt]).all()


@pytest.mark.parametrize("ddt", ["bf16", "f16"])
def test_per_channel_scales(ddt):
    x = np.full((4, 33), -0.0, np.float32)
    dst = _reorder(x, [4, 33], "ab", ddt, "ab", (1, [1.0, 2.0, 0.5, 3.0]))
    assert (_bits(dst, ddt) == NEG0_BITS[ddt]).all()


@pytest.mark.parametrize("n", [5, 70])
def test_byte_swapped_source(n):
    """A big-endian array, read where it is (the loops swap as they load)."""
    x = np.full(n, -0.0, ">f4")
    bits = np.asarray(dnnl.convert(x, "a", "bf16")).view(np.uint16)
    assert (bits == 0x8000).all()


def test_positive_zero_and_nan_unchanged():
    x = np.float32([0.0, -0.0, np.nan, -1.0] * 20)
    bits = np.asarray(dnnl.convert(x, "a", "bf16")).view(np.uint16)
    assert bits[:4].tolist() == [0x0000, 0x8000, 0x7fc0, 0xbf80]


def test_a_dst_zero_point_is_added():
    """A zero point set (even 0) is added, IEEE: -0.0 + 0.0 is +0.0."""
    src = dnnl.memory(dnnl.memory.desc([4], "f32", "a"), ENG, np.full(4, -0.0, np.float32))
    dst = dnnl.memory(dnnl.memory.desc([4], "s32", "a"), ENG)
    attr = dnnl.primitive_attr()
    attr.set_zero_points_mask(dnnl.DNNL_ARG_TO, 0)
    zp = dnnl.memory(dnnl.memory.desc([1], "s32", "a"), ENG, np.int32([0]))
    dnnl.reorder(src, dst, attr).execute(dnnl.stream(ENG), {
        dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
        dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_TO: zp})
    assert dst.to_numpy().tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("alg", [dnnl.algorithm.resampling_linear,
                                 dnnl.algorithm.resampling_nearest])
@pytest.mark.parametrize("tag", ["nchw", "nhwc"])
def test_resampling_f32_to_bf16(alg, tag):
    s = dnnl.memory.desc([1, 17, 3, 5], "f32", tag)
    d = dnnl.memory.desc([1, 17, 6, 10], "bf16", tag)
    pd = dnnl.resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference, alg,
                                                s, d)
    src = dnnl.memory(s, ENG, np.full(17 * 15, -0.0, np.float32))
    dst = dnnl.memory(d, ENG)
    dnnl.resampling_forward(pd).execute(dnnl.stream(ENG), {dnnl.DNNL_ARG_SRC: src,
                                                          dnnl.DNNL_ARG_DST: dst})
    assert (dst.to_numpy().view(np.uint16) == 0x8000).all()


def test_array_functions():
    x = np.full((1, 2, 3, 3), -0.0, np.float32)
    assert (np.asarray(dnnl.convert(x, "nChw16c", "bf16")).view(np.uint16) == 0x8000).all()
    assert (dnnl.resample(x.astype("bfloat16"), 7).view(np.uint16) == 0x8000).all()
    # dequantize: scale * (q - zero_point) = -0.5 * 0 is -0.0 in IEEE arithmetic
    assert (dnnl.dequantize(np.int8([0] * 40), -0.5, dtype="bf16").view(np.uint16)
            == 0x8000).all()
