"""dnnl.resample's modes beyond oneDNN's two, against the numpy reference
(dnnl.testing.resize, float64 matrices from ONNX's formulas): every mode and
option on random shapes, 1D to 3D, both layouts, every data type, the
gradient; worked values; oneDNN's algorithms still run the primitive; bad
input names the fix."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl.primitives.resize import plan as P
from dnnl.testing import resize as R
from dnnl.testing import resampling as TS

pytestmark = pytest.mark.kernels

ml_dtypes = pytest.importorskip("ml_dtypes")

KINDS = ["nearest", "linear", "cubic", "area", "box"]


@st.composite
def problems(draw, kinds=KINDS):
    """(x, size, scales, options): a random problem in any mode."""
    k = draw(st.integers(1, 3))
    mode = draw(st.sampled_from(kinds))
    in_sp = draw(st.lists(st.integers(1, 9 if k < 3 else 5), min_size=k, max_size=k))
    opts = {"mode": mode}
    size = scales = None
    if mode in ("nearest", "linear", "cubic") and draw(st.booleans()):
        scales = draw(st.lists(st.sampled_from([0.25, 0.5, 0.6, 0.8, 1.0, 1.5, 2.0, 2.3, 3.0]),
                               min_size=k, max_size=k))
        if any(int(n * s) == 0 for n, s in zip(in_sp, scales)):
            scales = [max(s, 1.0) for s in scales]
    else:
        size = draw(st.lists(st.integers(1, 12 if k < 3 else 6), min_size=k, max_size=k))
    if mode in ("nearest", "linear", "cubic"):
        ctm = draw(st.sampled_from(R.TRANSFORMS))
        opts["coordinate_transformation_mode"] = ctm
        if ctm == "tf_crop_and_resize":
            starts = draw(st.lists(st.floats(-0.2, 0.6), min_size=k, max_size=k))
            ends = [s + draw(st.floats(0.1, 0.8)) for s in starts]
            opts["roi"] = starts + ends
            opts["extrapolation_value"] = draw(st.sampled_from([0.0, 10.0]))
        if size is not None and draw(st.booleans()):
            opts["keep_aspect_ratio_policy"] = draw(st.sampled_from(R.POLICIES))
    if mode == "nearest":
        opts["nearest_mode"] = draw(st.sampled_from(R.NEAREST_MODES))
    if mode in ("linear", "cubic"):
        opts["antialias"] = draw(st.booleans())
        opts["exclude_outside"] = draw(st.booleans())
    if mode == "cubic":
        opts["cubic_coeff_a"] = draw(st.sampled_from([-0.75, -0.5, -0.6]))
    seed = draw(st.integers(0, 2 ** 16))
    x = np.random.default_rng(seed).standard_normal([2, 3] + in_sp).astype(np.float32)
    return x, size, scales, opts


@given(problems())
def test_every_table_is_the_reference_matrix_inside_the_axis(p):
    """Each axis's (first, weights, bias): the reference's matrix (weights
    rounded once to f32), every window inside the axis."""
    x, size, scales, opts = p
    o = dict(opts)
    k = x.ndim - 2
    out, sc = R.output_sizes(x.shape[2:], size, scales, o.pop("keep_aspect_ratio_policy",
                                                               "stretch"))
    roi = o.pop("roi", [0.0] * k + [1.0] * k)
    mats = R.axis_matrices(x.shape[2:], size, scales, roi=roi,
                           keep_aspect_ratio_policy=opts.get("keep_aspect_ratio_policy",
                                                             "stretch"), **o)
    for i in range(k):
        t = P.axis_table(x.shape[2 + i], out[i], sc[i], o["mode"],
                         o.get("coordinate_transformation_mode", "half_pixel"),
                         o.get("nearest_mode", "round_prefer_ceil"),
                         o.get("cubic_coeff_a", -0.75), o.get("exclude_outside", False),
                         o.get("antialias", False), roi[i], roi[k + i],
                         o.get("extrapolation_value", 0.0))
        assert (t.first >= 0).all() and (t.first + t.weights.shape[1] <= t.n_in).all()
        m, bias = mats[i]
        np.testing.assert_allclose(t.dense(), m, rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(np.zeros(out[i]) if t.bias is None else t.bias,
                                      bias.astype(np.float32))


def reference(x, size, scales, opts):
    o = dict(opts)
    o.setdefault("coordinate_transformation_mode", "half_pixel")
    return R.forward(x, size, scales, **o)


def close(got, want, tol=2e-5):
    """f32 against float64: a few f32 roundings of the largest term."""
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max()
                                                                   if want.size else 1.0))


@given(problems())
def test_every_mode_is_the_reference(p):
    x, size, scales, opts = p
    got = dnnl.resample(x, size, scales=scales, **opts)
    want = reference(x, size, scales, opts)
    assert got.dtype == np.float32 and got.shape == want.shape
    close(got, want)


@given(problems())
def test_channels_last_is_the_same_resize(p):
    x, size, scales, opts = p
    nhwc = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    got = dnnl.resample(nhwc, size, scales=scales, layout="nhwc", **opts)
    assert np.array_equal(np.moveaxis(got, -1, 1), dnnl.resample(x, size, scales=scales, **opts))


@given(problems(), st.sampled_from(["bf16", "f16", "s8", "u8", "s32"]))
def test_every_data_type_is_the_f32_result_rounded_once(p, dt):
    x, size, scales, opts = p
    types = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "s8": np.int8, "u8": np.uint8,
             "s32": np.int32}
    t = np.dtype(types[dt])
    src = (x * 40 + (100 if dt == "u8" else 0)).astype(t)      # saturates some
    got = dnnl.resample(src, size, scales=scales, **opts)
    f = dnnl.resample(src.astype(np.float32), size, scales=scales, **opts)
    if t.kind in "iu":
        info = np.iinfo(t)
        want = np.clip(np.rint(f.astype(np.float64)), info.min, info.max).astype(t)
    else:
        want = f.astype(t)
    assert got.dtype == t and np.array_equal(got, want)


@given(problems())
def test_the_gradient_is_the_transposed_reference(p):
    x, size, scales, opts = p
    if opts.get("keep_aspect_ratio_policy", "stretch") != "stretch":
        return      # a forward-only option (refused by resample_backward)
    out = reference(x, size, scales, opts)
    g = np.random.default_rng(1).standard_normal(out.shape).astype(np.float32)
    in_sp = list(x.shape[2:])
    got = dnnl.resample_backward(g, in_sp, scales=scales, **opts)
    want = R.backward(g, in_sp, size, scales, **{"coordinate_transformation_mode": "half_pixel",
                                                 **opts})
    assert got.shape == x.shape
    close(got, want, 1e-4)


def test_worked_values():
    x = np.float32([[[0, 1, 2, 3]]])
    # PyTorch's nearest: floor(o * in / out)
    assert dnnl.resample(x, 6, mode="nearest", coordinate_transformation_mode="asymmetric",
                         nearest_mode="floor").tolist() == [[[0, 0, 1, 2, 2, 3]]]
    # align_corners: o * 3 / 6
    assert dnnl.resample(x, 7, align_corners=True, mode="linear").tolist() == \
        [[[0, 0.5, 1, 1.5, 2, 2.5, 3]]]
    # area of 4 -> 3: [0, 2), [1, 3), [2, 4); box: [0, 4/3), [4/3, 8/3), [8/3, 4)
    assert dnnl.resample(x, 3, mode="area").tolist() == [[[0.5, 1.5, 2.5]]]
    box = dnnl.resample(x, 3, mode="box")
    assert box.tolist() == [[[(1 / 3) / (4 / 3), 1.5, (2 / 3 + 3) / (4 / 3)]]]     # 1/4, 11/4
    # ONNX's scales rule: out = floor(4 * 0.6) = 2, coordinates (o + 0.5) / 0.6 - 0.5
    got = dnnl.resample(x, scales=0.6, mode="linear")
    np.testing.assert_allclose(got, [[[1 / 3, 2.0]]], rtol=1e-6)
    # tf_crop_and_resize: coordinates 0.5 * 3 + o * (1.5 - 0.5) * 3 / 2 = 1.5, 3, 4.5;
    # outside the input, the extrapolation value
    got = dnnl.resample(x, 3, mode="linear", coordinate_transformation_mode="tf_crop_and_resize",
                        roi=[0.5, 1.5], extrapolation_value=-1)
    assert got.tolist() == [[[1.5, 3, -1]]]
    # cubic at whole coordinates reproduces the input
    assert dnnl.resample(x, 4, mode="cubic").tolist() == x.tolist()


@pytest.mark.parametrize("kw", [dict(mode="linear"), dict(mode="nearest"),
                                dict(mode="linear", coordinate_transformation_mode="half_pixel",
                                     antialias=False, exclude_outside=False),
                                dict(mode="nearest", nearest_mode="round_prefer_ceil",
                                     coordinate_transformation_mode="half_pixel")])
def test_onednns_algorithms_still_run_the_primitive(kw):
    """oneDNN's own rules (f32 coordinates, as ref_resampling) bit for bit."""
    x = np.random.default_rng(2).standard_normal((1, 2, 7, 9)).astype(np.float32)
    alg = kw["mode"]
    assert np.array_equal(dnnl.resample(x, (5, 13), **kw), TS.forward(x, (5, 13), alg))


BAD = [
    (dict(mode="bicubc"), "mode must be one of 'nearest', 'linear', 'cubic', 'area', 'box'"),
    (dict(mode="linear", coordinate_transformation_mode="half"),
     "coordinate_transformation_mode must be one of 'half_pixel', 'half_pixel_symmetric'"),
    (dict(mode="nearest", nearest_mode="round"), "nearest_mode must be one of"),
    (dict(mode="cubic", keep_aspect_ratio_policy="fit"), "keep_aspect_ratio_policy must be"),
    (dict(mode="nearest", antialias=True), "antialias is for the linear and cubic"),
    (dict(mode="area", antialias=True), "antialias is for the linear and cubic"),
    (dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize",
          roi=[0, 0, 1]), "roi has 3 values; 2 spatial dims need 4"),
    (dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize"), "needs roi="),
    (dict(mode="linear", scales=2.0), "give size \\(or factors\\) or scales, not both"),
    (dict(mode="box", coordinate_transformation_mode="align_corners"), "ONNX's modes"),
    (dict(mode="nearest", align_corners=True), "align_corners is read only by linear"),
    (dict(mode="linear", align_corners=True, coordinate_transformation_mode="asymmetric"),
     "not both"),
    (dict(mode="cubic", scales=[2.0, 2.0, 2.0]), None),
    (dict(mode="bicubic", size=None, scales=0.0), "scales must be positive"),
    (dict(mode="trilinear", antialias=True), "PyTorch's name for 3 spatial dims"),
]


@pytest.mark.parametrize("kw,match", BAD)
def test_bad_input_names_the_fix(kw, match):
    x = np.zeros((1, 1, 4, 4), np.float32)
    kw = dict(kw)
    size = kw.pop("size", 3)
    if "scales" in kw and size == 3 and kw["mode"] == "cubic":
        size = None
    with pytest.raises(dnnl.invalid_arguments, match=match or "3 scales given for 2"):
        dnnl.resample(x, size, **kw)


def test_keep_aspect_ratio_policy_needs_size():
    x = np.zeros((1, 1, 4, 4), np.float32)
    with pytest.raises(dnnl.invalid_arguments, match="needs size="):
        dnnl.resample(x, scales=2.0, mode="nearest", keep_aspect_ratio_policy="not_larger")
    # ONNX's attributes pass as a node has them, even those its mode does not read
    assert dnnl.resample(x, 8, mode="linear", nearest_mode="floor", cubic_coeff_a=-0.75,
                         exclude_outside=False).shape == (1, 1, 8, 8)
    with pytest.raises(dnnl.invalid_type, match="antialias must be True or False"):
        dnnl.resample(x, 8, mode="linear", antialias="yes")


def test_integer_saturation_and_rounding():
    x = np.uint8([[[0, 255, 255, 0]]])
    got = dnnl.resample(x, 8, mode="cubic")             # overshoots above 255 and below 0
    want = R.forward(x, [8], mode="cubic")
    assert got.tolist() == np.clip(np.rint(want), 0, 255).astype(np.uint8).tolist()
    assert want.max() > 255 and want.min() < 0
