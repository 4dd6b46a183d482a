"""dnnl.resample against PyTorch's F.interpolate, for every mode PyTorch has,
on random shapes (within 1e-5, relative to the values' scale), and the
gradient (resample_backward) against PyTorch's autograd: the one-to-one
calls of docs/resize_modes.md."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl

pytestmark = pytest.mark.interop

torch = pytest.importorskip("torch")
F = torch.nn.functional

#: (name, spatial ranks, PyTorch's keywords, dnnl.resample's)
MODES = [
    ("linear", (1, 2, 3), dict(mode="linear", align_corners=False), dict(mode="linear")),
    ("linear, align_corners", (1, 2, 3), dict(mode="linear", align_corners=True),
     dict(mode="linear", align_corners=True)),
    ("bicubic", (2,), dict(mode="bicubic", align_corners=False), dict(mode="bicubic")),
    ("bicubic, align_corners", (2,), dict(mode="bicubic", align_corners=True),
     dict(mode="bicubic", align_corners=True)),
    ("bilinear, antialias", (2,), dict(mode="bilinear", antialias=True),
     dict(mode="bilinear", antialias=True)),
    ("bicubic, antialias", (2,), dict(mode="bicubic", antialias=True),
     dict(mode="bicubic", antialias=True)),
    ("nearest", (1, 2, 3), dict(mode="nearest"),
     dict(mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")),
    ("nearest-exact", (1, 2, 3), dict(mode="nearest-exact"), dict(mode="nearest-exact")),
    ("area", (1, 2, 3), dict(mode="area"), dict(mode="area")),
]
TORCH_NAME = {1: "linear", 2: "bilinear", 3: "trilinear"}


def torch_call(kw, k):
    kw = dict(kw)
    if kw["mode"] == "linear":
        kw["mode"] = TORCH_NAME[k]
    return kw


@st.composite
def shapes(draw, ranks):
    k = draw(st.sampled_from(ranks))
    top = 24 if k < 3 else 7
    in_sp = draw(st.lists(st.integers(1, top), min_size=k, max_size=k))
    out_sp = draw(st.lists(st.integers(1, top + 9), min_size=k, max_size=k))
    return [draw(st.integers(1, 2)), draw(st.integers(1, 3))] + in_sp, out_sp


def case(mode):
    name, ranks, tkw, dkw = next(m for m in MODES if m[0] == mode)
    return ranks, tkw, dkw


def close(ours, ref, tol=1e-5):
    scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("mode", [m[0] for m in MODES])
@given(data=st.data())
def test_forward_is_pytorchs(mode, data):
    ranks, tkw, dkw = case(mode)
    shape, out_sp = data.draw(shapes(ranks))
    seed = data.draw(st.integers(0, 2 ** 16))
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    close(dnnl.resample(x, out_sp, **dkw), interpolate(x, out_sp, tkw))


def interpolate(x, out_sp, tkw):
    """F.interpolate; with antialias and an output width of 1, on the
    transposed problem: PyTorch 2.13's antialiased CPU path returns a wrong
    result there (from (2, 1) to (3, 1) every output is the first input,
    while (1, 2) to (1, 3) is right; the transposed problem agrees with ours
    within 3e-7)."""
    t = torch.from_numpy(x)
    if tkw.get("antialias") and out_sp[-1] == 1 and out_sp[0] != 1:
        y = F.interpolate(t.transpose(-1, -2), size=out_sp[::-1], **torch_call(tkw, 2))
        return y.transpose(-1, -2).numpy()
    return F.interpolate(t, size=out_sp, **torch_call(tkw, len(out_sp))).numpy()


def test_pytorchs_antialias_with_an_output_width_of_1():
    """What :func:`interpolate` works around (this test fails the day PyTorch
    fixes it: then drop the workaround)."""
    x = np.float32([[[[1.0], [-1.0]]]])
    wrong = F.interpolate(torch.from_numpy(x), size=(3, 1), mode="bilinear",
                          antialias=True).numpy()
    assert wrong.ravel().tolist() == [1.0, 1.0, 1.0]
    ours = dnnl.resample(x, (3, 1), mode="bilinear", antialias=True)
    assert ours.ravel().tolist() == [1.0, 0.0, -1.0]     # upscaling: plain linear, clamped
    close(ours, interpolate(x, (3, 1), dict(mode="bilinear", antialias=True)))


@pytest.mark.parametrize("mode", [m[0] for m in MODES])
@given(data=st.data())
def test_backward_is_pytorchs_autograd(mode, data):
    ranks, tkw, dkw = case(mode)
    shape, out_sp = data.draw(shapes(ranks))
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 16)))
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32)).requires_grad_()
    y = F.interpolate(x, size=out_sp, **torch_call(tkw, len(out_sp)))
    g = rng.standard_normal(tuple(y.shape)).astype(np.float32)
    y.backward(torch.from_numpy(g))
    ours = dnnl.resample_backward(g, shape[2:], **dkw)
    close(ours, x.grad.numpy(), 2e-5)


def test_channels_last_tensors_are_pytorchs_too():
    x = torch.randn(2, 3, 17, 23).contiguous(memory_format=torch.channels_last)
    ref = F.interpolate(x, size=(9, 31), mode="bicubic", antialias=True)
    close(dnnl.resample(x, (9, 31), mode="bicubic", antialias=True), ref.numpy())
