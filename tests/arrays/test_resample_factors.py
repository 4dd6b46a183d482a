"""``dnnl.resample(x, factors=f)``'s output size is PyTorch's (issue 44, item 7).

``F.interpolate(x, scale_factor=f, recompute_scale_factor=True)`` sizes the
output ``floor(in * f)`` in double and then maps the coordinates by the
sizes, which is what docs/arrays.md promises the array function does. The
primitive keeps oneDNN's own rule, ``trunc(in * f32(f))``.
"""
import math

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import dnnl

pytestmark = [pytest.mark.compiled, pytest.mark.interop]

ENG = dnnl.default_engine()


def test_the_reported_case():
    x = np.zeros((1, 1, 10, 1000), np.float32)
    assert dnnl.resample(x, factors=(0.7, 0.29)).shape == (1, 1, 7, 290)
    # the primitive keeps oneDNN's trunc(10 * 0.7f) = 6, trunc(1000 * 0.29f) = 289
    src = dnnl.memory.desc([1, 1, 10, 1000], "f32", "nchw")
    pd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear,
        [0.7, 0.29], src)
    assert pd.dst_desc().dims == (1, 1, 6, 289)


@pytest.mark.parametrize("f", [-0.5, math.nan, math.inf, -math.inf])
def test_factors_that_give_no_size_are_refused(f):
    with pytest.raises(dnnl.invalid_arguments, match="finite and non-negative"):
        dnnl.resample(np.zeros((1, 1, 4, 4), np.float32), factors=f)


@given(dims=st.lists(st.integers(1, 40), min_size=1, max_size=3),
       data=st.data())
def test_sizes_are_pytorchs(dims, data):
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    factors = [data.draw(st.one_of(
        st.floats(0.05, 4.0, allow_nan=False),
        st.sampled_from([0.1, 0.2, 0.29, 0.3, 0.7, 1.1, 1.3, 1.7, 2.3, 2.9])))
        for _ in dims]
    # PyTorch needs every output size >= 1
    assume(all(math.floor(n * f) >= 1 for n, f in zip(dims, factors)))
    shape = (1, 2) + tuple(dims)
    mode = {1: "linear", 2: "bilinear", 3: "trilinear"}[len(dims)]
    x = torch.rand(shape)
    want = F.interpolate(x, scale_factor=factors, mode=mode, align_corners=False,
                         recompute_scale_factor=True)
    got = dnnl.resample(x, factors=factors)
    assert got.shape == tuple(want.shape)
    near = F.interpolate(x, scale_factor=factors, mode="nearest-exact",
                         recompute_scale_factor=True)
    np.testing.assert_array_equal(dnnl.resample(x, factors=factors, mode="nearest"),
                                  near.numpy())
    np.testing.assert_allclose(got, want.numpy(), rtol=0, atol=1e-5)
