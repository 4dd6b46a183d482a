"""Single images and the output's type and place in dnnl.resample /
resample_backward (issue 42, items 3 and 4).

* ``layout="hwc"`` / ``"hw"`` / ``"chw"``: the values of the batch (NCHW)
  path on transposed views of the same data, and of the numpy reference
  (dnnl.testing.resampling), in the image's own shape;
* ``dtype=``: the numpy reference's f32 result converted by the reference
  conversion (dnnl.testing.dtypes: saturation, round half to even);
* ``out=``: written and returned (numpy arrays, strided views, torch
  tensors); every refusal a dnnl.error naming the fix, with the sentinel
  that fills ``out`` (and the input) unchanged.
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dnnl
from dnnl.arrays import prepared as _prepared
from dnnl.testing import dtypes as TD
from dnnl.testing import resampling as TS

pytestmark = [pytest.mark.compiled, pytest.mark.interop]

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)
ALG = {"linear": dnnl.algorithm.resampling_linear,
       "nearest": dnnl.algorithm.resampling_nearest}
CODE = {np.dtype(np.float32): TD.F32, np.dtype(np.uint8): TD.U8, np.dtype(np.int8): TD.S8,
        np.dtype(np.int32): TD.S32, np.dtype(np.float16): TD.F16, BF16: TD.BF16}


def values(rng, shape, dtype):
    """Random values of ``dtype``: integers over their range, floats with
    halves and values past u8's range (for the conversions' saturation)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dtype)
    return (rng.integers(-700, 700, shape) * 0.5).astype(dtype)


def codes(a):
    """The reference's codes of the array ``a``: bf16 and f16 as their bits."""
    return a.view(np.uint16) if a.dtype in (BF16, np.dtype(np.float16)) else a


def reference(logical, spatial, mode, dtype):
    """The reference forward result (N x C x spatial) as codes of ``dtype``."""
    return TS.forward_codes(logical, spatial, ALG[mode], dst_dt=CODE[np.dtype(dtype)])


# ------------------------------------------------------------------ layouts
images = dict(h=st.integers(1, 9), w=st.integers(1, 9), c=st.integers(1, 4),
              oh=st.integers(1, 12), ow=st.integers(1, 12),
              dtype=st.sampled_from([np.uint8, np.float32, BF16]),
              mode=st.sampled_from(["linear", "nearest"]), seed=st.integers(0, 2 ** 16))


@settings(max_examples=60, deadline=None)
@given(**images)
def test_an_image_is_its_batch_of_one(h, w, c, oh, ow, dtype, mode, seed):
    img = values(np.random.default_rng(seed), (h, w, c), dtype)        # H x W x C
    nchw = img.transpose(2, 0, 1)[None]                                # a view, 1 x C x H x W
    batch = dnnl.resample(nchw, (oh, ow), mode=mode)[0]                # C x H' x W'
    ref = reference(nchw, (oh, ow), mode, dtype)[0]
    hwc = dnnl.resample(img, (oh, ow), mode=mode, layout="hwc")
    assert hwc.shape == (oh, ow, c) and hwc.dtype == img.dtype
    assert np.array_equal(codes(hwc), codes(batch.transpose(1, 2, 0)))
    assert np.array_equal(codes(hwc), ref.transpose(1, 2, 0))
    chw = dnnl.resample(np.ascontiguousarray(nchw[0]), (oh, ow), mode=mode, layout="chw")
    assert chw.shape == (c, oh, ow) and np.array_equal(codes(chw), ref)
    gray = img[..., 0]                                                 # H x W, strided
    hw = dnnl.resample(gray, (oh, ow), mode=mode, layout="hw")
    assert hw.shape == (oh, ow) and hw.dtype == img.dtype
    assert np.array_equal(codes(hw), codes(dnnl.resample(gray[None, None], (oh, ow),
                                                         mode=mode)[0, 0]))
    assert np.array_equal(codes(hw), ref[0])
    # and back: the gradient of each, as the batch path's
    dd = values(np.random.default_rng(seed + 1), (oh, ow, c), np.float32)
    got = dnnl.resample_backward(dd, (h, w), mode=mode, layout="hwc")
    assert got.shape == (h, w, c)
    assert np.array_equal(got, dnnl.resample_backward(
        dd.transpose(2, 0, 1)[None], (h, w), mode=mode)[0].transpose(1, 2, 0))
    assert np.array_equal(got, TS.backward(dd.transpose(2, 0, 1)[None], (h, w),
                                           ALG[mode])[0].transpose(1, 2, 0))
    assert np.array_equal(dnnl.resample_backward(dd[..., 0], (h, w), mode=mode, layout="hw"),
                          got[..., 0])


def test_an_image_is_read_and_written_where_it_is():
    # an hwc image's call is the batch's kernel on the image's own buffer (no
    # copy first); its result is an image-shaped array of its own, C order
    img = np.zeros((6, 8, 3), np.uint8)
    _prepared.calls.clear()
    out = dnnl.resample(img, (3, 4), layout="hwc")
    assert out.flags.c_contiguous and out.flags.owndata and out.shape == (3, 4, 3)
    assert [type(c).__name__ for c in _prepared.calls.values()] == ["PreparedResampling"]
    # a transposed (channels-first memory) image keeps that memory order
    planar = np.zeros((3, 6, 8), np.float32).transpose(1, 2, 0)
    assert dnnl.resample(planar, (3, 4), layout="hwc").transpose(2, 0, 1).flags.c_contiguous


def test_the_single_image_traps_name_the_layout():
    img = np.zeros((97, 131, 3), np.uint8)
    # an N x C x W array stays a 1-D resampling (as oneDNN reads it)
    assert dnnl.resample(img, 50).shape == (97, 131, 50)
    with pytest.raises(dnnl.invalid_arguments, match=r"layout='hwc'.*layout='chw'"):
        dnnl.resample(img, (50, 70))
    with pytest.raises(dnnl.invalid_arguments, match=r"layout='hwc'"):
        dnnl.resample(img, (50, 70), layout="nhwc")
    with pytest.raises(dnnl.invalid_arguments, match=r"layout='hw'"):
        dnnl.resample(img[..., 0], (50, 70))
    with pytest.raises(dnnl.invalid_arguments, match=r"layout='hwc'"):
        dnnl.resample_backward(img, (50, 70))
    assert dnnl.resample(img, (50, 70), layout="hwc").shape == (50, 70, 3)
    assert dnnl.resample(img, (50, 70), layout="HWC").shape == (50, 70, 3)


@pytest.mark.parametrize("layout,shape,fix", [
    ("hwc", (1, 4, 4, 3), "layout='nhwc'"), ("chw", (1, 3, 4, 4), "layout='nchw'"),
    ("hw", (4, 4, 3), "layout='hwc'"), ("hwc", (4, 4), "3 dims"), ("hw", (4,), "2 dims"),
])
def test_an_image_layout_of_another_rank_names_the_layout(layout, shape, fix):
    with pytest.raises(dnnl.invalid_arguments, match=fix):
        dnnl.resample(np.zeros(shape, np.float32), 2, layout=layout)


def test_image_sizes_and_factors():
    img = values(np.random.default_rng(3), (5, 7, 3), np.uint8)
    assert np.array_equal(dnnl.resample(img, factors=2.0, layout="hwc"),
                          dnnl.resample(img, (10, 14), layout="hwc"))
    assert dnnl.resample(img, 4, layout="hwc").shape == (4, 4, 3)
    with pytest.raises(dnnl.invalid_arguments, match="3 sizes given for 2 spatial dims"):
        dnnl.resample(img, (2, 2, 2), layout="hwc")


# ------------------------------------------------------------------ dtype=
types = st.sampled_from([np.uint8, np.int8, np.float32, BF16])
out_types = st.sampled_from([np.uint8, np.int8, np.int32, np.float32, np.float16, BF16])


@settings(max_examples=60, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), c=st.integers(1, 4), oh=st.integers(1, 9),
       ow=st.integers(1, 9), src=types, dst=out_types,
       mode=st.sampled_from(["linear", "nearest"]), seed=st.integers(0, 2 ** 16),
       spelling=st.sampled_from(["name", "numpy"]))
def test_dtype_is_the_f32_result_converted_once(h, w, c, oh, ow, src, dst, mode, seed,
                                                spelling):
    img = values(np.random.default_rng(seed), (h, w, c), src)
    dtype = np.dtype(dst) if spelling == "numpy" else TD.NAMES[CODE[np.dtype(dst)]]
    got = dnnl.resample(img, (oh, ow), mode=mode, layout="hwc", dtype=dtype)
    assert got.dtype == np.dtype(dst) and got.shape == (oh, ow, c)
    ref = reference(img.transpose(2, 0, 1)[None], (oh, ow), mode, dst)[0].transpose(1, 2, 0)
    assert np.array_equal(codes(got), ref)


def test_dtype_saturates_and_rounds_half_to_even():
    x = np.float32([[[0.5, 1.5, 2.5, -3.0, 254.5, 255.5, 300.0, -0.5]]])
    # nearest to the same size reads each element once: the conversion alone
    assert dnnl.resample(x, 8, mode="nearest", dtype="u8").tolist() == \
        [[[0, 2, 2, 0, 254, 255, 255, 0]]]
    assert dnnl.resample(x, 8, mode="nearest", dtype=np.int8).tolist() == \
        [[[0, 2, 2, -3, 127, 127, 127, 0]]]
    u8 = np.uint8([[[0, 255]]])
    # 0 -> 255 in 4 steps, in f32: 0, 63.75, 191.25, 255
    assert dnnl.resample(u8, 4, dtype="f32").tolist() == [[[0.0, 63.75, 191.25, 255.0]]]
    assert dnnl.resample(u8, 4).tolist() == [[[0, 64, 191, 255]]]


def test_dtype_refusals_name_the_fix():
    img = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(dnnl.unimplemented, match=r"astype\(np.float64\)"):
        dnnl.resample(img, 2, layout="hwc", dtype=np.float64)
    with pytest.raises(dnnl.unimplemented, match="f32, f16, bf16, s32, s8 or u8, not s4"):
        dnnl.resample(img, 2, layout="hwc", dtype="s4")
    with pytest.raises(dnnl.invalid_arguments, match="did you mean"):
        dnnl.resample(img, 2, layout="hwc", dtype="fp32")


def test_backward_dtype():
    dd = np.float32([[[0.5, 1.5, 2.5, 3.5]]])
    # 4 -> 2 nearest: each input gets two gradients, 0.5 + 1.5 = 2, 2.5 + 3.5 = 6
    assert dnnl.resample_backward(dd, 2, mode="nearest", dtype="u8").tolist() == [[[2, 6]]]
    dd = np.float32([[[0.25, 0.25, 0.25, 0.25]]])
    assert dnnl.resample_backward(dd, 4, mode="nearest", dtype="s8").tolist() == \
        [[[0, 0, 0, 0]]]        # 0.25 rounds to 0


# ------------------------------------------------------------------ out=
SENTINEL = 77


def sentinel(shape, dtype=np.uint8):
    return np.full(shape, SENTINEL, dtype)


def test_out_is_written_and_returned():
    img = values(np.random.default_rng(1), (9, 11, 3), np.uint8)
    expected = dnnl.resample(img, (5, 7), layout="hwc")
    out = sentinel((5, 7, 3))
    assert dnnl.resample(img, (5, 7), layout="hwc", out=out) is out
    assert np.array_equal(out, expected)
    # again, the call prepared: the primitive cache is not asked
    before = dnnl.primitive.cache.stats()
    out[...] = SENTINEL
    assert dnnl.resample(img, (5, 7), layout="hwc", out=out) is out
    assert np.array_equal(out, expected)
    assert dnnl.primitive.cache.stats() == before
    # u8 in, f32 out
    f = np.full((5, 7, 3), np.nan, np.float32)
    assert dnnl.resample(img, (5, 7), layout="hwc", dtype="f32", out=f) is f
    assert np.array_equal(f, dnnl.resample(img, (5, 7), layout="hwc", dtype=np.float32))


def test_out_may_be_a_strided_view():
    img = values(np.random.default_rng(2), (9, 11, 3), np.float32)
    expected = dnnl.resample(img, (5, 7), layout="hwc")
    big = np.full((10, 14, 4), -1.0, np.float32)
    view = big[::2, ::2, 1:]                   # every other pixel, three of four channels
    dnnl.resample(img, (5, 7), layout="hwc", out=view)
    assert np.array_equal(view, expected)
    mask = np.ones(big.shape, bool)
    mask[::2, ::2, 1:] = False
    assert (big[mask] == -1).all()            # nothing else written
    planar = np.empty((3, 5, 7), np.float32).transpose(1, 2, 0)     # F-like memory order
    dnnl.resample(img, (5, 7), layout="hwc", out=planar)
    assert np.array_equal(planar, expected)


def test_out_of_a_batch_and_of_a_gradient():
    x = values(np.random.default_rng(4), (2, 3, 6, 5), np.float32)
    out = np.empty((2, 3, 4, 4), np.float32)
    assert dnnl.resample(x, 4, out=out) is out
    assert np.array_equal(out, dnnl.resample(x, 4))
    g = np.empty((2, 3, 6, 5), np.float32)
    assert dnnl.resample_backward(out, (6, 5), out=g) is g
    assert np.array_equal(g, dnnl.resample_backward(out, (6, 5)))
    empty = np.zeros((1, 1, 0), np.float32)       # no diff_dst: the gradient is zeros
    z = np.full((1, 1, 3), 5.0, np.float32)
    assert dnnl.resample_backward(empty, 3, out=z) is z and z.tolist() == [[[0.0, 0.0, 0.0]]]


def test_out_may_share_a_buffer_with_the_input_without_sharing_an_element():
    buf = values(np.random.default_rng(5), (6, 16, 3), np.uint8)
    x = buf[:, ::2]
    expected = dnnl.resample(x, (6, 8), layout="hwc")
    dnnl.resample(x, (6, 8), layout="hwc", out=buf[:, 1::2])
    assert np.array_equal(buf[:, 1::2], expected)


def test_torch_out():
    torch = pytest.importorskip("torch")
    img = values(np.random.default_rng(6), (9, 11, 3), np.uint8)
    expected = dnnl.resample(img, (5, 7), layout="hwc", dtype="f32")
    t = torch.full((5, 7, 3), float(SENTINEL))
    assert dnnl.resample(torch.from_numpy(img), (5, 7), layout="hwc", dtype="f32", out=t) is t
    assert np.array_equal(t.numpy(), expected)
    b = torch.zeros((5, 7, 3), dtype=torch.bfloat16)
    dnnl.resample(img, (5, 7), layout="hwc", dtype="bf16", out=b)
    assert np.array_equal(b.float().numpy(), expected.astype(BF16).astype(np.float32))
    big = torch.zeros(5, 14, 3, dtype=torch.uint8)
    dnnl.resample(img, (5, 7), layout="hwc", out=big[:, ::2])     # a strided view
    assert np.array_equal(big[:, ::2].numpy(), dnnl.resample(img, (5, 7), layout="hwc"))
    assert (big[:, 1::2] == 0).all()
    x = torch.from_numpy(values(np.random.default_rng(7), (2, 3, 6, 5), np.float32))
    cl = torch.empty(2, 3, 4, 4).contiguous(memory_format=torch.channels_last)
    dnnl.resample(x, 4, out=cl)
    assert np.array_equal(cl.numpy(), dnnl.resample(x.numpy(), 4))


def _unaligned(shape, dtype):
    raw = np.zeros(int(np.prod(shape)) * np.dtype(dtype).itemsize + 1, np.uint8)
    return np.ndarray(shape, dtype, raw, 1)


def _read_only(shape):
    a = sentinel(shape)
    a.flags.writeable = False
    return a


def _interleaved():
    # strides (2, 3) elements for shape (3, 2) x 3 channels: no two indices
    # meet, but no descriptor holds them (each stride at least the next
    # smaller times its dim)
    raw = sentinel(64)
    return np.lib.stride_tricks.as_strided(raw, (3, 2, 1), (6, 9, 1))


OUT_REFUSALS = [
    ("shape", lambda: sentinel((3, 3, 3)), {}, ValueError, r"np.empty\(\(3, 2, 3\)"),
    ("dtype", lambda: sentinel((3, 2, 3), np.float32), {}, ValueError,
     r"dtype=np.float32"),
    ("dtype asked", lambda: sentinel((3, 2, 3), np.float32), {"dtype": "u8"}, ValueError,
     "make them agree"),
    ("byte order", lambda: sentinel((3, 2, 3), ">f4"), {"dtype": "f32"}, ValueError,
     "byteswap"),
    ("read-only", lambda: _read_only((3, 2, 3)), {}, ValueError, "writable"),
    ("broadcast", lambda: np.broadcast_to(np.uint8(SENTINEL), (3, 2, 3)), {}, ValueError,
     "writable"),
    ("self-overlap", lambda: np.lib.stride_tricks.as_strided(sentinel(16), (3, 2, 3),
                                                              (1, 1, 1)), {},
     ValueError, "an element of its own"),
    ("reversed", lambda: sentinel((3, 2, 3))[::-1], {}, ValueError, "forward view"),
    ("interleaved", lambda: _interleaved(), {}, ValueError, "dense array"),
    ("unaligned", lambda: _unaligned((3, 2, 3), np.float32), {"dtype": "f32"}, ValueError,
     "aligned"),
    ("a list", lambda: [[SENTINEL]], {}, TypeError, "numpy array or a torch tensor"),
    ("a memory", lambda: dnnl.memory.from_array(sentinel((3, 2, 3))), {}, TypeError,
     "not a dnnl.memory"),
]


@pytest.mark.parametrize("what,make,kw,builtin,fix", OUT_REFUSALS,
                         ids=[r[0] for r in OUT_REFUSALS])
def test_a_wrong_out_is_refused_with_nothing_written(what, make, kw, builtin, fix):
    img = values(np.random.default_rng(8), (6, 4, 3), np.uint8)
    if what == "interleaved":
        img = img[:, :, :1]
    out = make()
    before = np.asarray(out).copy()
    for fn in (dnnl.resample, dnnl.resample_backward):    # 6 x 4 -> 3 x 2 both
        with pytest.raises(dnnl.error, match=fix) as e:
            fn(img, (3, 2), layout="hwc", out=out, **kw)
        assert isinstance(e.value, builtin)
        after = np.asarray(out)
        assert np.array_equal(after, before, equal_nan=after.dtype.kind == "f")


@pytest.mark.parametrize("case", ["same", "partial", "view of the input"])
def test_an_out_overlapping_the_input_is_refused(case):
    buf = values(np.random.default_rng(9), (8, 8, 3), np.uint8)
    keep = buf.copy()
    x, out = {"same": (buf, buf),
              "partial": (buf[:6], buf[2:]),
              "view of the input": (buf, buf[:, ::-1][:, ::-1])}[case]
    with pytest.raises(dnnl.invalid_arguments, match="overlaps the input"):
        dnnl.resample(x, out.shape[:2], layout="hwc", out=out)
    assert np.array_equal(buf, keep)


def test_torch_out_refusals():
    torch = pytest.importorskip("torch")
    img = values(np.random.default_rng(10), (6, 4, 3), np.uint8)
    grad = torch.full((3, 2, 3), float(SENTINEL), requires_grad=True)
    with pytest.raises(dnnl.invalid_arguments, match=r"out.detach\(\)"):
        dnnl.resample(img, (3, 2), layout="hwc", dtype="f32", out=grad)
    t = torch.full((3, 2, 3), SENTINEL, dtype=torch.uint8)
    with pytest.raises(dnnl.invalid_arguments, match="overlaps the input"):
        dnnl.resample(t, (3, 2), layout="hwc", out=t)
    wrong = torch.full((3, 2, 3), SENTINEL, dtype=torch.int32)
    with pytest.raises(dnnl.invalid_arguments, match="out is int32, the result is uint8"):
        dnnl.resample(img, (3, 2), layout="hwc", out=wrong)
    assert (t == SENTINEL).all() and (wrong == SENTINEL).all() and (grad == SENTINEL).all()
