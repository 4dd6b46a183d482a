"""The modes beyond oneDNN's (cubic, area, box, ONNX's options) take what
oneDNN's two take: single images (hwc, hw, chw), ``dtype=``, ``out=`` and
factors with PyTorch's output size."""
import numpy as np
import pytest

import dnnl

pytestmark = pytest.mark.kernels

RNG = np.random.default_rng(43)
IMG = RNG.integers(0, 256, (9, 11, 3), dtype=np.uint8)
MODES = [dict(mode="cubic"), dict(mode="box"), dict(mode="area"),
         dict(mode="linear", antialias=True), dict(mode="bicubic", align_corners=True)]


@pytest.mark.parametrize("kw", MODES, ids=lambda kw: "-".join(map(str, kw.values())))
def test_an_image_is_its_batch_of_one(kw):
    size = (5, 6)
    hwc = dnnl.resample(IMG, size, layout="hwc", **kw)
    assert np.array_equal(hwc, dnnl.resample(IMG[None], size, layout="nhwc", **kw)[0])
    chw = np.ascontiguousarray(IMG.transpose(2, 0, 1))
    assert np.array_equal(dnnl.resample(chw, size, layout="chw", **kw),
                          dnnl.resample(chw[None], size, **kw)[0])
    gray = np.ascontiguousarray(IMG[:, :, 0])
    assert np.array_equal(dnnl.resample(gray, size, layout="hw", **kw),
                          dnnl.resample(gray[None, None], size, **kw)[0, 0])
    g = RNG.standard_normal((5, 6, 3)).astype(np.float32)
    back = dnnl.resample_backward(g, (9, 11), layout="hwc", **kw)
    assert np.array_equal(back, dnnl.resample_backward(g[None], (9, 11), layout="nhwc",
                                                       **kw)[0])


@pytest.mark.parametrize("kw", MODES[:3], ids=lambda kw: kw["mode"])
def test_dtype_is_the_f32_result_converted_once(kw):
    f32 = dnnl.resample(IMG.astype(np.float32), (5, 6), layout="hwc", **kw)
    got = dnnl.resample(IMG, (5, 6), layout="hwc", dtype="f32", **kw)
    assert got.dtype == np.float32 and np.array_equal(got, f32)
    u8 = dnnl.resample(IMG.astype(np.float32), (5, 6), layout="hwc", dtype=np.uint8, **kw)
    want = np.clip(np.rint(f32), 0, 255).astype(np.uint8)     # half to even, saturated
    assert np.array_equal(u8, want)


def test_out_is_written_and_returned_and_a_wrong_out_is_left_alone():
    out = np.empty((5, 6, 3), np.uint8)
    assert dnnl.resample(IMG, (5, 6), layout="hwc", mode="cubic", out=out) is out
    assert np.array_equal(out, dnnl.resample(IMG, (5, 6), layout="hwc", mode="cubic"))
    for bad in (np.full((5, 7, 3), 7, np.uint8), np.full((5, 6, 3), 7, np.float32)):
        with pytest.raises(dnnl.error):
            dnnl.resample(IMG, (5, 6), layout="hwc", mode="cubic", out=bad)
        assert (bad == 7).all()
    inplace = IMG.copy()
    with pytest.raises(dnnl.error):
        dnnl.resample(inplace, (9, 11), layout="hwc", mode="cubic", out=inplace)


def test_factors_give_pytorch_sizes_in_every_mode():
    x = np.zeros((1, 1, 10, 1000), np.float32)
    for kw in MODES[:3]:
        assert dnnl.resample(x, factors=(0.7, 0.29), **kw).shape == (1, 1, 7, 290)


@pytest.mark.parametrize("kw", MODES, ids=lambda kw: "-".join(map(str, kw.values())))
def test_empty_sizes_and_foreign_byte_orders(kw):
    """An output size of 0 is an empty result and an empty input's gradient
    is empty, as with oneDNN's two modes (no division by zero); a big-endian
    input gives the native-order result of its values, f64 read as f32."""
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    assert dnnl.resample(x, (0, 3), **kw).shape == (1, 2, 0, 3)
    assert dnnl.resample(x[:, :, :0], (0, 3), **kw).shape == (1, 2, 0, 3)
    g = dnnl.resample_backward(np.zeros((1, 2, 0, 3), np.float32), (4, 5), **kw)
    assert g.shape == (1, 2, 4, 5) and not g.any()
    assert dnnl.resample_backward(np.zeros((1, 2, 3, 1), np.float32), (0, 5),
                                  **kw).shape == (1, 2, 0, 5)
    want = dnnl.resample(x, (3, 7), **kw)
    for foreign in (x.astype(">f4"), x.astype(">f8"), x.astype("<f8")):
        got = dnnl.resample(foreign, (3, 7), **kw)
        assert got.dtype == np.dtype(np.float32) and got.dtype.isnative
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("kw", MODES, ids=lambda kw: "-".join(map(str, kw.values())))
@pytest.mark.parametrize("layout, shape", [("hwc", (9, 11, 3)), ("hw", (9, 11)),
                                           ("chw", (3, 9, 11)), ("nchw", (2, 3, 9, 11)),
                                           ("nhwc", (2, 9, 11, 3))])
def test_a_repeated_call_is_prepared_once_and_reads_each_array(kw, layout, shape):
    """The second call of a definition takes its prepared call (found by the
    front table) and gives each new array's own result: the same as a call
    that prepares anew (a list as the size is never remembered)."""
    from dnnl.arrays import _resize, resize_modes
    from dnnl.arrays.prepared import front
    xs = [RNG.standard_normal(shape).astype(np.float32) for _ in range(3)]
    got = [dnnl.resample(x, (5, 7), layout=layout, **kw) for x in xs]
    opts = dict(kw)
    spec = resize_modes.split(opts.pop("mode"), tuple(
        opts.get(name) for name in ("coordinate_transformation_mode", "nearest_mode",
                                    "cubic_coeff_a", "exclude_outside", "antialias",
                                    "keep_aspect_ratio_policy", "scales", "roi",
                                    "extrapolation_value", "align_corners")))[1]
    call = front.find(xs[2], _resize, (5, 7), None, spec.key, layout, None)
    assert isinstance(call, resize_modes.Prepared)
    for x, r in zip(xs, got):
        fresh = dnnl.resample(x.copy(), [5, 7], layout=layout, **kw)
        assert r.shape == fresh.shape and np.array_equal(r, fresh)
    assert front.find(xs[0], _resize, [5, 7], None, spec.key, layout, None) is None


def test_a_channels_last_view_keeps_its_order_through_the_prepared_call():
    nhwc = RNG.standard_normal((2, 7, 9, 3)).astype(np.float32)
    view = nhwc.transpose(0, 3, 1, 2)          # a torch channels_last tensor's view
    for _ in range(2):                           # prepared, then found
        r = dnnl.resample(view, (4, 5), mode="cubic")
        assert r.transpose(0, 2, 3, 1).flags.c_contiguous
        assert np.array_equal(r, dnnl.resample(np.ascontiguousarray(view), (4, 5),
                                               mode="cubic"))
