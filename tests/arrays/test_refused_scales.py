"""The array functions refuse a scale of 0, NaN or an infinity (issue 44, item 7).

Such a scale makes oneDNN's reorder saturate or zero every value, silently;
the array functions say so instead, on every route a scale takes (a Python
number on a prepared call's fast path, numpy scalars and arrays, per-channel
values, a memory or a torch tensor as input, a repeated call found by the
front). The primitives keep oneDNN's behaviour.
"""
import math

import numpy as np
import pytest

import dnnl

pytestmark = [pytest.mark.compiled]

X = np.float32([[1.0, -2.5, 3.25], [0.5, 7.0, -1.0]])
Q = np.int8([[1, -2, 3], [4, 5, -6]])
BAD = [0.0, -0.0, 0, math.nan, math.inf, -math.inf, np.float32(0), np.float64(math.nan),
       1e-50, 1e39]
CALLS = {
    "quantize": lambda s, **kw: dnnl.quantize(X, s, **kw),
    "quantize u8": lambda s, **kw: dnnl.quantize(X, s, 3, dtype="u8", **kw),
    "dequantize": lambda s, **kw: dnnl.dequantize(Q, s, **kw),
    "convert to s8": lambda s, **kw: dnnl.convert(X, "ba", "s8", scales=s, **kw),
    "convert from s8": lambda s, **kw: dnnl.convert(Q, "ab", "f32", scales=s, **kw),
    "a memory": lambda s, **kw: dnnl.quantize(dnnl.memory.from_array(X), s, **kw),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("scale", BAD, ids=repr)
def test_per_tensor(name, scale):
    call = CALLS[name]
    call(0.5)                           # the call prepared: the fast path next
    call(0.5)
    with pytest.raises(dnnl.invalid_arguments, match="finite and non-zero"):
        call(scale)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("bad", [0.0, math.nan, math.inf])
def test_per_channel(name, bad):
    call = CALLS[name]
    with pytest.raises(dnnl.invalid_arguments, match="finite and non-zero"):
        call([0.5, bad, 2.0], axis=1)
    with pytest.raises(dnnl.invalid_arguments, match="finite and non-zero"):
        call(np.float32([0.5, 1.0, bad]), axis=1)


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(X.copy())
    dnnl.quantize(t, 0.5)
    dnnl.quantize(t, 0.5)               # the tensor's prepared call
    for s in (0.0, math.nan, math.inf):
        with pytest.raises(dnnl.invalid_arguments, match="finite and non-zero"):
            dnnl.quantize(t, s)


def test_the_message_says_why():
    with pytest.raises(dnnl.invalid_arguments, match=r"not 1e-50, which rounds to 0 in f32"):
        dnnl.quantize(X, 1e-50)
    with pytest.raises(dnnl.invalid_arguments, match=r"not 1e\+39, which overflows f32"):
        dnnl.quantize(X, 1e39)
    with pytest.raises(dnnl.invalid_arguments, match=r"not nan: oneDNN's reorder would"):
        dnnl.dequantize(Q, float("nan"))


def test_small_and_large_f32_scales_are_taken():
    """Every finite, non-zero f32 number is a scale: the smallest subnormal,
    the largest f32, negative ones (values from numpy's f32 arithmetic)."""
    for s in (1e-45, 1e-40, 3.4e38, -0.5):
        with np.errstate(over="ignore"):        # 3.4e38 * 4 is inf in f32
            want = np.float32(s) * Q.astype(np.float32)
        np.testing.assert_array_equal(dnnl.dequantize(Q, s), want)
    np.testing.assert_array_equal(dnnl.quantize(X, -0.5), np.int8([[-2, 5, -6], [-1, -14, 2]]))


def test_the_primitive_keeps_onednns_behaviour():
    eng = dnnl.default_engine()
    src = dnnl.memory.from_array(X)
    dst = dnnl.memory(dnnl.memory.desc([2, 3], "s8", "ab"), eng)
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_TO, 0)
    scale = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), eng, np.float32([0.0]))
    dnnl.reorder(src, dst, attr).execute(dnnl.stream(eng), {
        dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
        dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_TO: scale})
    # x / 0 is +-inf, saturated to the type's bounds (src/cpu/simple_q10n.hpp)
    np.testing.assert_array_equal(dst.to_numpy(), np.int8([[127, -128, 127], [127, 127, -128]]))
