"""Every array a user holds, read right: the metamorphic property of the
array layer (dnnl/_model/inputs.py).

For each array function and any view numpy or PyTorch can make (both byte
orders, slices with positive and negative steps, transposes, broadcasts,
zero-size dims, offsets, unaligned data, read-only and memory-mapped
buffers), the result on the view equals, byte for byte, the result on
``np.ascontiguousarray`` of it in native order, or the call raises
``dnnl.error``. Refusals are only allowed where the functions document
them (``from_array`` cannot share a view no descriptor describes); the
rest must compute.
"""
import importlib.util
import mmap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dnnl

pytestmark = [pytest.mark.compiled, pytest.mark.interop]

try:
    import ml_dtypes
except ImportError:     # pragma: no cover - the test extra installs it
    ml_dtypes = None

FLOATS = [np.float32, np.float16, np.float64] + ([ml_dtypes.bfloat16] if ml_dtypes else [])
INTS = [np.int8, np.uint8, np.int32]
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def _values(rng, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(max(info.min, -1000), min(info.max, 1000) + 1,
                                       shape)).astype(dtype)
    v = np.asarray(rng.standard_normal(shape) * 8)
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e30, 0.5])
    v.flat[::7] = special[np.arange(v.flat[::7].size) % special.size]
    with np.errstate(over="ignore"):        # 1e30 is inf in f16
        return v.astype(dtype)


@st.composite
def views(draw, kinds, ndims=(1, 5)):
    """(view, label): an array of one of ``kinds`` made by a random chain of
    view operations, and what they were."""
    dtype = draw(st.sampled_from(kinds))
    nd = draw(st.integers(*ndims))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=nd, max_size=nd)))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    # a larger base array, then a slice of it: steps, offsets, negative steps
    base_shape = tuple(n * 3 + 2 for n in shape)
    base = _values(rng, base_shape, dtype)
    label = [np.dtype(dtype).name]
    big_endian = np.dtype(dtype).itemsize > 1 and np.dtype(dtype).kind in "iuf" \
        and draw(st.booleans())
    if big_endian:
        base = base.astype(base.dtype.newbyteorder(">"))
        label.append("big-endian")
    place = draw(st.sampled_from(["plain", "unaligned", "readonly", "mmap"]))
    if place == "unaligned" and base.itemsize > 1:
        raw = bytearray(base.nbytes + 1)
        moved = np.frombuffer(raw, base.dtype, base.size, 1).reshape(base.shape)
        moved[...] = base
        base = moved
        label.append("unaligned")
    elif place == "readonly":
        base.flags.writeable = False
        label.append("read-only")
    elif place == "mmap" and base.nbytes:
        buf = mmap.mmap(-1, base.nbytes)
        mapped = np.frombuffer(buf, base.dtype).reshape(base.shape)
        mapped[...] = base
        base = mapped
        label.append("memory map")
    index = []
    for n, b in zip(shape, base_shape):
        step = draw(st.sampled_from([1, 1, 2, 3, -1, -2]))
        start = draw(st.integers(0, b - 1))
        stop = start + step * n
        if stop < 0:
            stop = None
        index.append(slice(start, stop, step))
    view = base[tuple(index)]
    label.append("slice %s" % (tuple((s.start, s.stop, s.step) for s in index),))
    if view.ndim > 1 and draw(st.booleans()):
        perm = draw(st.permutations(range(view.ndim)))
        view = view.transpose(perm)
        label.append("transpose %s" % (tuple(perm),))
    if view.ndim and view.size and draw(st.integers(0, 4)) == 0:
        axis = draw(st.integers(0, view.ndim - 1))
        one = view[tuple(slice(0, 1) if d == axis else slice(None)
                         for d in range(view.ndim))]
        view = np.broadcast_to(one, view.shape[:axis] + (3,) + view.shape[axis + 1:])
        label.append("broadcast dim %d" % axis)
    return view, ", ".join(label)


def _contiguous(view):
    """The same values, C-contiguous in native byte order."""
    dt = view.dtype
    return np.array(view, dt if dt.isnative else dt.newbyteorder("="), order="C")


def _same(got, want, label):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, label
    assert got.dtype.isnative, label
    assert got.tobytes() == want.tobytes(), label


def _check(f, view, label, refusal_allowed=False):
    want_error = None
    try:
        want = f(_contiguous(view))
    except dnnl.error as e:
        want_error = e
    try:
        got = f(view)
    except dnnl.error as e:
        assert refusal_allowed or want_error is not None, "%s: %s" % (label, e)
        return
    assert want_error is None, "%s: the contiguous call raised %s" % (label, want_error)
    if isinstance(got, dnnl.memory):
        assert got.get_desc() == want.get_desc(), label
        got, want = np.asarray(got), np.asarray(want)
    _same(got, want, label)


@SETTINGS
@given(views(FLOATS + INTS, (1, 4)), st.sampled_from(["a", "ab", "ba", "abc", "acb",
                                                     "abcd", "acdb", "aBcd16b"]))
def test_convert(case, tag):
    view, label = case
    _check(lambda a: dnnl.convert(a, tag), view, label)


@SETTINGS
@given(views(FLOATS, (0, 4)), st.sampled_from(["s8", "u8", "s32"]))
def test_quantize(case, dtype):
    view, label = case
    _check(lambda a: dnnl.quantize(a, 0.25, 3, dtype=dtype), view, label)


@SETTINGS
@given(views(INTS, (0, 4)), st.sampled_from([np.float32, np.float64]))
def test_dequantize(case, dtype):
    view, label = case
    _check(lambda a: dnnl.dequantize(a, 0.5, 2, dtype=dtype), view, label)


# oneDNN's two algorithms, and the modes beyond them (the resize plans of
# dnnl/primitives/resize/, a path of their own through the array layer)
MODES = [{"mode": "linear"}, {"mode": "nearest"}, {"mode": "cubic"},
         {"mode": "bicubic", "align_corners": True}, {"mode": "linear", "antialias": True},
         {"mode": "cubic", "antialias": True, "exclude_outside": True}, {"mode": "area"},
         {"mode": "box"},
         {"mode": "nearest", "coordinate_transformation_mode": "asymmetric",
          "nearest_mode": "floor"},
         {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"}]


@SETTINGS
@given(views(FLOATS + INTS, (3, 5)), st.sampled_from(MODES),
       st.sampled_from(["nchw", "nhwc"]), st.integers(0, 5))
def test_resample(case, mode, layout, size):
    view, label = case
    _check(lambda a: dnnl.resample(a, size, layout=layout, **mode), view, label)


@SETTINGS
@given(views(FLOATS + INTS, (3, 5)), st.sampled_from(MODES),
       st.sampled_from(["nchw", "nhwc"]), st.integers(0, 5))
def test_resample_backward(case, mode, layout, size):
    view, label = case
    _check(lambda a: dnnl.resample_backward(a, size, layout=layout, **mode), view, label)


@SETTINGS
@given(views(FLOATS + INTS, (1, 4)))
def test_from_array(case):
    # a memory shares the view's bytes, so it is made or refused, never a copy
    view, label = case
    if view.ndim == 0:
        return
    try:
        mem = dnnl.memory.from_array(view)
    except dnnl.error as e:
        assert not view.dtype.isnative or view.size and (
            any(s < 0 or s % view.itemsize for n, s in zip(view.shape, view.strides) if n > 1)
            or not dnnl._model.inputs.describable(view.shape, view.strides, view.itemsize)), \
            "%s refused: %s" % (label, e)
        return
    assert view.dtype.isnative, label
    if view.size:
        assert mem.get_data_handle() == view.__array_interface__["data"][0], label
    _same(np.asarray(mem), _contiguous(view), label)


# ------------------------------------------------------------------ the named cases
def test_big_endian_is_read_as_big_endian():
    be = np.array([1.0, 2.0, 3.0], dtype=">f4")
    assert dnnl.quantize(be, 0.5).tolist() == [2, 4, 6]
    assert np.asarray(dnnl.convert(be, "a")).tolist() == [1.0, 2.0, 3.0]
    assert dnnl.dequantize(np.array([2, 4], ">i4"), 0.5).tolist() == [1.0, 2.0]
    out = dnnl.resample(np.arange(8, dtype=">f4").reshape(1, 1, 8), 4)
    assert out.dtype == np.float32 and out.tolist() == [[[0.5, 2.5, 4.5, 6.5]]]
    with pytest.raises(dnnl.invalid_arguments, match=r"big-endian.*newbyteorder"):
        dnnl.memory.from_array(be)
    with pytest.raises(dnnl.invalid_arguments, match="byte order"):
        dnnl.memory(dnnl.memory.desc([3], "f32", "a"), dnnl.default_engine(), be)


def test_interleaved_strides_are_not_overlap():
    x = np.arange(2 * 17 * 3 * 4, dtype=np.float32).reshape(2, 17, 3, 4)
    for view in (x[:, ::2], x[:, :, ::2], x[..., ::3], x[..., ::-1], x[::-1, ::-3]):
        c = np.ascontiguousarray(view)
        assert np.array_equal(dnnl.quantize(view, 0.5), dnnl.quantize(c, 0.5))
        assert np.array_equal(np.asarray(dnnl.convert(view, "nhwc")), c)
        assert np.array_equal(dnnl.resample(view, 4), dnnl.resample(c, 4))
    # from_array shares bytes: a view no descriptor holds is refused, truthfully
    with pytest.raises(dnnl.invalid_arguments, match="interleave without overlapping"):
        dnnl.memory.from_array(x[:, ::2])
    with pytest.raises(dnnl.invalid_arguments, match="step backwards"):
        dnnl.memory.from_array(x[..., ::-1])
    with pytest.raises(dnnl.invalid_arguments, match="address the same element"):
        dnnl.memory.from_array(np.lib.stride_tricks.as_strided(x, (4, 4), (8, 4)))
    # strides that describe a layout are shared as they are
    mem = dnnl.memory.from_array(x[:, 3:11, 1:])
    assert mem.get_desc() == dnnl.memory.desc([2, 8, 2, 4], "f32", [204, 12, 4, 1])
    assert np.array_equal(np.asarray(mem), x[:, 3:11, 1:])


def test_overlap_is_exact():
    from dnnl._model.inputs import overlaps
    assert not overlaps((9, 3, 4), (24, 4, 1))              # x[:, ::2] of 17x3x4
    assert not overlaps((2, 3), (3, 2))                     # 0 2 4 3 5 7
    assert not overlaps((3, 3), (2, 3))                     # 0 2 4 3 5 7 6 8 10
    assert overlaps((3, 3), (1, 2))                         # 0 + 2 == 2 + 0
    assert overlaps((4, 4), (8, 4))
    assert overlaps((3,), (0,))
    assert not overlaps((5, 1, 0), (4, 0, 7))


def test_empty_arrays():
    f32 = np.float32
    assert dnnl.quantize(np.zeros((0, 3), f32), 0.5).shape == (0, 3)
    assert dnnl.dequantize(np.zeros((2, 0), np.int8), 0.5).dtype == f32
    assert np.asarray(dnnl.convert(np.zeros((0, 3, 2, 2), f32), "nhwc")).shape == (0, 3, 2, 2)
    out = dnnl.resample(np.zeros((0, 3, 4, 4), f32), (8, 8))
    assert out.shape == (0, 3, 8, 8) and out.dtype == f32
    assert dnnl.resample(np.ones((1, 2, 4, 4), f32), (0, 3)).shape == (1, 2, 0, 3)
    with pytest.raises(dnnl.invalid_arguments, match="empty.*PyTorch and OpenCV"):
        dnnl.resample(np.zeros((1, 1, 0, 4), f32), (2, 3))
    with pytest.raises(dnnl.invalid_arguments, match="empty"):
        dnnl.resample_backward(np.zeros((1, 1, 2, 3), f32), (0, 4))
    # no output exists: nothing depends on the input, its gradient is 0
    g = dnnl.resample_backward(np.zeros((1, 2, 0, 3), f32), (2, 2))
    assert g.shape == (1, 2, 2, 2) and not g.any()


def test_object_api_keeps_onednn_on_empty_spatial_input():
    # oneDNN creates the primitive descriptor and its execution writes nothing
    src = dnnl.memory.desc([1, 1, 0, 4], "f32", "nchw")
    dst = dnnl.memory.desc([1, 1, 2, 3], "f32", "nchw")
    pd = dnnl.resampling_forward.primitive_desc(
        dnnl.default_engine(), dnnl.prop_kind.forward_inference,
        dnnl.algorithm.resampling_linear, src, dst)
    out = np.full((1, 1, 2, 3), 7, np.float32)
    smem = dnnl.memory(src, dnnl.default_engine())
    dmem = dnnl.memory.from_array(out)
    dnnl.resampling_forward(pd).execute(dnnl.stream(dnnl.default_engine()),
                                        {dnnl.DNNL_ARG_SRC: smem, dnnl.DNNL_ARG_DST: dmem})
    assert (out == 7).all()


def test_oversized_results_are_dnnl_errors():
    with pytest.raises(dnnl.error) as e:
        dnnl.resample(np.zeros((1, 1, 2, 2), np.float32), (2 ** 31, 2 ** 31))
    assert isinstance(e.value, (dnnl.out_of_memory, dnnl.invalid_arguments))


def test_array_likes_as_numpy_takes_them():
    assert dnnl.quantize([1.0, 2.0], 0.5).tolist() == [2, 4]
    assert dnnl.quantize(1.5, 0.5).shape == ()
    assert dnnl.quantize(1.5, 0.5) == 3
    assert dnnl.dequantize([2, 4], 0.5).tolist() == [1.0, 2.0]          # ints: int32
    assert dnnl.dequantize((2, -4), 0.5).tolist() == [1.0, -2.0]
    assert np.asarray(dnnl.convert([[1.0, 2.0]], "ba")).tolist() == [[1.0, 2.0]]
    assert dnnl.resample([[[0.0, 1.0]]], 4).dtype == np.float32
    with pytest.raises(dnnl.unimplemented, match="int64"):
        dnnl.dequantize([2 ** 40], 0.5)                 # past int32: numpy's int64


def test_messages_name_the_fix():
    x = np.zeros((1, 16, 2, 2), np.float32)
    with pytest.raises(dnnl.invalid_arguments, match="did you mean 'nChw16c'"):
        dnnl.convert(x, "nchw16c")
    with pytest.raises(dnnl.invalid_arguments, match="did you mean 'f32'"):
        dnnl.convert(x, "nchw", "fp32")
    img = np.zeros((4, 4, 3), np.float32)
    with pytest.raises(dnnl.invalid_arguments, match=r"one H x W x C image\? pass layout='hwc'"):
        dnnl.resample(img, (8, 8), layout="nhwc")
    with pytest.raises(dnnl.invalid_arguments, match=r"one H x W x C image\? pass layout='hwc'"):
        dnnl.resample(img, (8, 8))          # N x C x W by default
    with pytest.raises(dnnl.invalid_arguments, match=r"grayscale image\? pass layout='hw'"):
        dnnl.resample(img[..., 0], (8, 8))


def test_torch_views():
    torch = pytest.importorskip("torch")
    t = torch.arange(2 * 16 * 5 * 6, dtype=torch.float32).reshape(2, 16, 5, 6)
    for view in (t, t.contiguous(memory_format=torch.channels_last), t[:, ::2], t[..., 1:],
                 t.transpose(2, 3), t[:, :, ::3, ::2], t.expand(2, 16, 5, 6)[:1].expand(3, -1, -1, -1),
                 t.as_strided((2, 3, 4), (7, 1, 13))):
        c = np.ascontiguousarray(view.numpy())
        assert np.array_equal(dnnl.quantize(view, 0.5), dnnl.quantize(c, 0.5))
        assert np.array_equal(np.asarray(dnnl.convert(view, "a" * 0 + ("abcd" if view.ndim == 4
                                                                       else "abc"))), c)
        if view.ndim >= 3:
            assert np.array_equal(dnnl.resample(view, 3), dnnl.resample(c, 3))
    if ml_dtypes is not None:
        b = t.to(torch.bfloat16)[:, ::2]
        want = dnnl.quantize(np.ascontiguousarray(b.float().numpy()).astype(ml_dtypes.bfloat16),
                             0.5)
        assert np.array_equal(dnnl.quantize(b, 0.5), want)


@pytest.mark.parametrize("call", [
    lambda: dnnl.quantize([[1.0, 2.0], [3.0]], 0.5),             # ragged: numpy refuses
    lambda: dnnl.dequantize([1, "a"], 0.5),
    lambda: dnnl.quantize(np.float32([1, 2]), 2.0 ** 200),       # not an f32 scale
    lambda: dnnl.quantize(np.float32([1, 2]), [2.0 ** 200, 1.0], axis=0),
    lambda: dnnl.convert(np.float32([1, 2]), "a", "s8", scales=[[0.5], [1, 2]]),
    lambda: dnnl.resample(np.zeros((1, 1, 2, 2), np.float32), (2 ** 40, 2 ** 40)),
    lambda: dnnl.quantize("abc", 0.5),
    lambda: dnnl.memory.from_array([1.0, 2.0]),
])
def test_no_numpy_or_python_exception_escapes(call):
    with pytest.raises(dnnl.error):
        call()


def test_results_follow_a_dense_inputs_memory_order():
    # as numpy's elementwise operations and PyTorch's memory formats do
    rng = np.random.default_rng(3)
    nhwc = rng.standard_normal((2, 5, 6, 16)).astype(np.float32)
    x = nhwc.transpose(0, 3, 1, 2)                  # NCHW dims over NHWC memory
    q = dnnl.quantize(x, 0.25)
    assert q.strides == (5 * 6 * 16, 1, 6 * 16, 16)
    assert np.array_equal(q, dnnl.quantize(np.ascontiguousarray(x), 0.25))
    d = dnnl.dequantize(q, 0.25)
    assert d.transpose(0, 2, 3, 1).flags.c_contiguous
    r = dnnl.resample(x, (10, 12))
    assert r.shape == (2, 16, 10, 12) and r.transpose(0, 2, 3, 1).flags.c_contiguous
    assert np.array_equal(r, dnnl.resample(np.ascontiguousarray(x), (10, 12)))
    g = dnnl.resample_backward(r, (5, 6))
    assert g.transpose(0, 2, 3, 1).flags.c_contiguous
    f = np.asfortranarray(rng.standard_normal((7, 9)).astype(np.float32))
    assert dnnl.quantize(f, 0.5).flags.f_contiguous
    # a view with gaps, and a copy-first input, give C order
    assert dnnl.quantize(x[:, ::2], 0.25).flags.c_contiguous
    assert dnnl.quantize(np.ascontiguousarray(x).astype(">f4"), 0.25).flags.c_contiguous


def test_torch_tensors_on_the_prepared_path():
    # a tensor's prepared call reads its address each time: values written in
    # place between calls, other tensors of one definition, and the tensors
    # the fast path must not take (autograd, a negative view, an odd address)
    torch = pytest.importorskip("torch")
    t = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4)
    first = dnnl.quantize(t, 0.5)
    assert np.array_equal(first, dnnl.quantize(t.numpy().copy(), 0.5))
    for _ in range(3):
        t.mul_(-1)
        assert np.array_equal(dnnl.quantize(t, 0.5), dnnl.quantize(t.numpy().copy(), 0.5))
        other = torch.rand(2, 3, 4, 4) * 100
        assert np.array_equal(dnnl.convert(other, "nhwc").array,
                              other.numpy().transpose(0, 2, 3, 1))
        assert np.array_equal(dnnl.resample(other, 8), dnnl.resample(other.numpy().copy(), 8))
    with pytest.raises(dnnl.invalid_arguments, match="require"):
        dnnl.quantize(t.clone().requires_grad_(), 0.5)
    neg = t._neg_view()
    assert np.array_equal(dnnl.quantize(neg, 0.5), dnnl.quantize(-t.numpy(), 0.5))
    with pytest.raises(dnnl.invalid_arguments, match="resolve_neg"):
        dnnl.memory.from_array(neg)         # its bytes are not its values
    raw = bytearray(t.numel() * 4 + 4)
    odd = torch.frombuffer(raw, dtype=torch.float32, offset=2, count=t.numel()).reshape(t.shape)
    odd.copy_(t)
    assert np.array_equal(dnnl.quantize(odd, 0.5), dnnl.quantize(t.numpy(), 0.5))
    from dnnl import verbose
    lines = []
    old_out, old_level = verbose.set_output(lines.append), verbose.get_verbose()
    try:
        verbose.set_verbose(1)
        assert np.array_equal(dnnl.quantize(t, 0.5), dnnl.quantize(t.numpy().copy(), 0.5))
    finally:
        verbose.set_verbose(old_level)
        verbose.set_output(old_out)
    assert sum(",exec," in line and ",reorder," in line for line in lines) == 2


@st.composite
def tensor_views(draw):
    """A torch view (``as_strided``: any non-negative strides, an offset,
    overlaps and broadcasts included) of a random tensor."""
    import torch
    dtype = draw(st.sampled_from([torch.float32, torch.float16, torch.bfloat16, torch.int8,
                                  torch.uint8, torch.int32]))
    nd = draw(st.integers(3, 4))
    shape = draw(st.lists(st.integers(0, 5), min_size=nd, max_size=nd))
    strides = draw(st.lists(st.integers(0, 40), min_size=nd, max_size=nd))
    offset = draw(st.integers(0, 7))
    size = offset + sum((n - 1) * s for n, s in zip(shape, strides) if n) + 1
    gen = torch.Generator().manual_seed(draw(st.integers(0, 2 ** 16)))
    base = (torch.randn(size, generator=gen) * 50).to(dtype)
    return base.as_strided(shape, strides, offset), "%s %s %s +%d" % (
        dtype, shape, strides, offset)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch not installed")
@SETTINGS
@given(tensor_views(), st.sampled_from(["quantize", "convert", "resample", "resample_nhwc",
                                       "resample_cubic", "resample_antialias"]))
def test_torch_views_property(case, op):
    view, label = case
    f = {"quantize": lambda a: dnnl.quantize(a, 0.5),
         "convert": lambda a: dnnl.convert(a, "acdb" if a.ndim == 4 else "acb"),
         "resample": lambda a: dnnl.resample(a, 3, mode="nearest"),
         "resample_nhwc": lambda a: dnnl.resample(a, 2, layout="nhwc"),
         "resample_cubic": lambda a: dnnl.resample(a, 4, mode="cubic", layout="nhwc"),
         "resample_antialias": lambda a: dnnl.resample(a, 2, mode="linear", antialias=True)}[op]
    import torch
    plain = view.contiguous()
    if view.dtype == torch.bfloat16:
        if ml_dtypes is None:
            return
        want_in = plain.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    else:
        want_in = plain.numpy()
    if op == "quantize" and view.dtype in (torch.int8, torch.uint8, torch.int32):
        f = lambda a: dnnl.dequantize(a, 0.5)       # noqa: E731
    try:
        want = f(want_in)
    except dnnl.error:
        with pytest.raises(dnnl.error):
            f(view)
        return
    got = f(view)
    if isinstance(got, dnnl.memory):
        assert got.get_desc() == want.get_desc(), label
        got, want = np.asarray(got), np.asarray(want)
    _same(got, want, label)


@pytest.mark.parametrize("dtype", ["s8", "u8"])
def test_short_runs_of_every_length(dtype):
    # a crop's rows are short runs: every length around the vector steps
    # (the tail converted by one overlapping step) against the contiguous call
    rng = np.random.default_rng(7)
    base = (rng.standard_normal((3, 4, 131)) * 90).astype(np.float32)
    base.flat[::13] = np.nan
    base.flat[5::17] = np.inf
    for n in range(1, 131):
        for start in (0, 1, 3):
            crop = base[..., start:start + n]
            want = dnnl.quantize(np.ascontiguousarray(crop), 0.75, 3, dtype=dtype)
            assert np.array_equal(dnnl.quantize(crop, 0.75, 3, dtype=dtype), want), (n, start)
            got = dnnl.convert(crop, "abc", "bf16")
            assert np.array_equal(got.array.view(np.uint16),
                                  dnnl.convert(np.ascontiguousarray(crop), "abc",
                                               "bf16").array.view(np.uint16)), (n, start)


# ------------------------------------------------------------------ the other byte order in place
# A big-endian array the kernels read where it is (each element's bytes
# reversed as it loads: no copy) must give the contiguous native call's bytes
# on every path: the vector quantization loops (runs long enough for them,
# and every tail length), the buffered swap before the generic conversion,
# the bit copy, the transposing tile, per-channel scales, zero points.
SWAP_FLOATS = [np.float32, np.float16] + ([ml_dtypes.bfloat16] if ml_dtypes else [])


@st.composite
def foreign_views(draw, kinds, orders=(">",)):
    """(view, label): an array of byte order ``orders`` (big-endian unless
    told) with runs of up to 150 elements, sliced (steps 1, 2, -1: a
    negative one is copied instead; a step on an outer dim leaves gaps
    between the kernels' runs) and maybe transposed."""
    dtype = np.dtype(draw(st.sampled_from(kinds))).newbyteorder(draw(st.sampled_from(orders)))
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 5)), draw(st.integers(1, 4)),
             draw(st.integers(1, 150)))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    base = _values(rng, tuple(2 * n + 1 for n in shape), dtype.newbyteorder("=")).astype(
        dtype)
    index = []
    for n in shape:
        step = draw(st.sampled_from([1, 1, 2, -1]))
        start = draw(st.integers(0, n)) if step > 0 else 2 * n
        index.append(slice(start, start + step * n if start + step * n >= 0 else None, step))
    view = base[tuple(index)]
    label = "%s %s %s" % (dtype.str, shape, [(s.start, s.step) for s in index])
    if draw(st.booleans()):
        view = view.transpose(0, 2, 3, 1)
        label += " nhwc"
    return view, label


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(foreign_views(SWAP_FLOATS), st.sampled_from(["s8", "u8", "s32"]),
       st.sampled_from([None, 1]), st.booleans())
def test_quantize_other_byte_order_in_place(case, dtype, axis, zero_point):
    view, label = case
    scales = 0.25 if axis is None else np.linspace(0.1, 2, view.shape[1]).tolist()
    zps = None if not zero_point else 3 if axis is None else list(range(view.shape[1]))
    _check(lambda a: dnnl.quantize(a, scales, zps, axis=axis, dtype=dtype), view, label)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(foreign_views(SWAP_FLOATS + [np.int32]),
       st.sampled_from(["abcd", "acdb", "aBcd16b", "dcba"]),
       st.sampled_from([None, "f32", "bf16", "f16", "s8"]))
def test_convert_other_byte_order_in_place(case, tag, dtype):
    view, label = case
    if dtype == "bf16" and ml_dtypes is None:
        dtype = None
    _check(lambda a: dnnl.convert(a, tag, dtype), view, label)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(foreign_views([np.int32]), st.sampled_from([np.float32, np.float64]))
def test_dequantize_other_byte_order_in_place(case, dtype):
    view, label = case
    _check(lambda a: dnnl.dequantize(a, 0.5, 2, dtype=dtype), view, label)


def test_other_byte_order_is_read_in_place():
    # no copy is made: the prepared call reads the big-endian bytes where they
    # are; through execute (verbose) it reads their values too
    from dnnl import verbose
    from dnnl.arrays import prepared as _prepared
    x = (np.random.default_rng(5).standard_normal((2, 4, 8, 70)) * 40).astype(np.float32)
    be = x.astype(">f4")[:, ::2]
    want = dnnl.quantize(np.ascontiguousarray(x[:, ::2]), 0.5)
    assert np.array_equal(dnnl.quantize(be, 0.5), want)
    call = _prepared.calls[next(k for k in _prepared.calls if k[:3] == (
        be.shape, be.strides, be.dtype))]
    assert type(call) is _prepared.PreparedReorder     # not CopyFirst
    lines = []
    old_out, old_level = verbose.set_output(lines.append), verbose.get_verbose()
    try:
        verbose.set_verbose(1)
        assert np.array_equal(dnnl.quantize(be, 0.5), want)
        assert np.array_equal(np.asarray(dnnl.convert(be, "nhwc")), x[:, ::2])
    finally:
        verbose.set_verbose(old_level)
        verbose.set_output(old_out)
    assert sum(",exec," in line for line in lines) == 2


def test_swapped_plan_reads_the_other_byte_order():
    from dnnl.primitives.reorder.plan import build_plan
    src = dnnl.memory.desc([4, 40], "f32", "ab")
    dst = dnnl.memory.desc([4, 40], "f32", "ba")
    plan = build_plan(src, dst, [None] * 4, False, parallel_min=1 << 62)
    x = np.arange(160, dtype=np.float32).reshape(4, 40) - 80.5
    be = x.astype(">f4")
    out = np.empty((40, 4), np.float32)
    plan.swapped().run(be.ctypes.data, out.ctypes.data)
    assert np.array_equal(out, x.T)
    with pytest.raises(ValueError, match="byte order"):
        build_plan(dnnl.memory.desc([4], "s8", "a"), dnnl.memory.desc([4], "s8", "a"),
                   [None] * 4, False, parallel_min=1 << 62).swapped()


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(foreign_views([np.float32], ("=", ">")), st.sampled_from(["s8", "u8", "bf16"]),
       st.sampled_from([None, 1]))
def test_strided_views_long_runs(case, dtype, axis):
    # runs apart in memory (a strided view) take the loops that prefetch the
    # next run instead of the gap: the bytes of the contiguous call
    view, label = case
    scales = 0.25 if axis is None else np.linspace(0.1, 2, view.shape[1]).tolist()
    if dtype == "bf16":
        _check(lambda a: dnnl.convert(a, "abcd", "bf16", scales=scales, axis=axis), view,
               label)
    else:
        _check(lambda a: dnnl.quantize(a, scales, axis=axis, dtype=dtype), view, label)
        q = dnnl.quantize(np.ascontiguousarray(view), 0.5, dtype=dtype)
        qv = np.repeat(q, 2, axis=1)[:, ::2]
        _check(lambda a: dnnl.dequantize(a, 0.5, 3), qv, label + " dequantized")


@pytest.mark.parametrize("order", ["=", ">"])
def test_peeled_plans_take_a_scale_number(order):
    # 4100 channels into nChw16c: the plan runs the whole blocks and the rest
    # as two plans (reorder_plan.Plans), which the per-tensor scale given as a
    # number reaches too (it raised AttributeError before), in either byte order
    x = (np.random.default_rng(9).standard_normal((1, 4100, 1, 3)) * 90).astype(np.float32)
    got = np.asarray(dnnl.convert(x.astype(np.dtype(np.float32).newbyteorder(order)),
                                  "nChw16c", "s8", scales=0.5))
    want = np.clip(np.rint(x / np.float32(0.5)), -128, 127).astype(np.int8)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("order", ["=", ">"])
def test_strided_view_large_enough_to_stream(order):
    # a view of 5M floats streams from memory: its runs prefetch the next
    # run past the gap (in either byte order), the bytes the same
    base = (np.random.default_rng(11).standard_normal((8, 128, 100, 100)) * 90).astype(
        np.dtype(np.float32).newbyteorder(order))
    view = base[:, ::2]
    plain = np.ascontiguousarray(view.astype(np.float32))
    for dtype in ("s8", "u8"):
        assert np.array_equal(dnnl.quantize(view, 0.75, 3, dtype=dtype),
                              dnnl.quantize(plain, 0.75, 3, dtype=dtype))
    assert np.array_equal(dnnl.convert(view, "abcd", "bf16", scales=0.5).array.view(np.uint16),
                          dnnl.convert(plain, "abcd", "bf16", scales=0.5).array.view(np.uint16))


@pytest.mark.parametrize("order", ["<", ">"])
def test_pair_between_dense_layouts_only_takes_a_strided_view(order):
    # oneDNN converts s32 -> bf16 only between identical dense layouts: a
    # strided view (found by the property above: unit dims stepping backwards
    # over a gap) is read through a dense copy, as its contiguous twin is
    base = np.zeros((3, 1, 2, 3), order + "i4")
    base[2, 0, :, 2] = [-472, 246]
    views = [base[2:1:-1, :, :, 2:1:-1], np.arange(24, dtype=order + "i4").reshape(2, 3, 4)[:, ::2]]
    for view in views:
        tag = "abcd"[:view.ndim]
        want = dnnl.convert(np.ascontiguousarray(view).astype("=i4"), tag, "bf16")
        got = dnnl.convert(view, tag, "bf16")
        assert np.array_equal(got.map_data(np.uint16), want.map_data(np.uint16))
