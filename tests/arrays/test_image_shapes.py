"""A new image size each call (issue 42's loader row): the call made for
an image of another shape from the call of the same options
(dnnl.arrays.prepared.another_shape) against the call prepared from its
definition, which the same call makes with that table emptied: the same
shape, strides, type and bytes, the same refusals; and both against the
numpy reference (dnnl.testing.resampling)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dnnl
from dnnl._core.settings import settings as switches
from dnnl.arrays import prepared as _prepared
from dnnl.testing import dtypes as TD
from dnnl.testing import resampling as TS

pytestmark = [pytest.mark.compiled]

ALG = {"linear": dnnl.algorithm.resampling_linear,
       "nearest": dnnl.algorithm.resampling_nearest}
CODE = {np.dtype(np.float32): TD.F32, np.dtype(np.uint8): TD.U8, np.dtype(np.int8): TD.S8}
# layout: (the array's shape from n, h, w, c; its N x C x H x W view)
LAYOUTS = {"hwc": (lambda n, h, w, c: (h, w, c), lambda a: np.moveaxis(a, -1, 0)[None]),
           "hw": (lambda n, h, w, c: (h, w), lambda a: a[None, None]),
           "nhwc": (lambda n, h, w, c: (n, h, w, c), lambda a: np.moveaxis(a, -1, 1))}


def _image(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.integers(-300, 300, shape) * 0.25).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def _outcome(f):
    """``f()``'s result, or its error's type and message."""
    try:
        return f()
    except dnnl.error as e:
        return type(e), str(e)


def _same(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
        return
    assert (a.shape, a.strides, a.dtype, a.flags.c_contiguous) == \
        (b.shape, b.strides, b.dtype, b.flags.c_contiguous)
    assert a.tobytes() == b.tobytes()


def _remade(x, size, **kw):
    """The call of ``x`` and its result, after a call of the same options
    on an image of another shape; and the call prepared from its definition
    (the tables emptied first) and its result."""
    other = np.zeros(tuple(s + 3 for s in x.shape), x.dtype)
    _prepared.calls.clear()
    _prepared.by_options.clear()
    dnnl.resample(other, size, **kw)
    fast = _outcome(lambda: dnnl.resample(x, size, **kw))
    _prepared.calls.clear()
    _prepared.by_options.clear()
    slow = _outcome(lambda: dnnl.resample(x, size, **kw))
    return fast, slow


@settings(max_examples=80, deadline=None)
@given(layout=st.sampled_from(sorted(LAYOUTS)), n=st.integers(1, 3), h=st.integers(1, 40),
       w=st.integers(1, 40), c=st.integers(1, 5), oh=st.integers(1, 50), ow=st.integers(1, 50),
       dtype=st.sampled_from([np.uint8, np.int8, np.float32]),
       mode=st.sampled_from(["linear", "nearest"]),
       out_type=st.sampled_from([None, "f32", "u8"]), seed=st.integers(0, 2 ** 16))
def test_a_new_shape_gives_what_its_own_preparation_gives(layout, n, h, w, c, oh, ow, dtype,
                                                          mode, out_type, seed):
    shape_of, nchw = LAYOUTS[layout]
    x = _image(np.random.default_rng(seed), shape_of(n, h, w, c), dtype)
    kw = dict(mode=mode, layout=layout, dtype=out_type)
    fast, slow = _remade(x, (oh, ow), **kw)
    _same(fast, slow)
    want_type = np.dtype(dtype if out_type is None else {"f32": np.float32,
                                                         "u8": np.uint8}[out_type])
    want = TS.forward_codes(nchw(x), (oh, ow), ALG[mode], dst_dt=CODE[want_type])
    assert np.array_equal(nchw(fast), want)


def test_the_next_size_is_made_from_the_last_call_and_remembered():
    rng = np.random.default_rng(5)
    _prepared.calls.clear()
    _prepared.by_options.clear()
    first = _image(rng, (31, 47, 3), np.uint8)
    dnnl.resample(first, (24, 24), layout="hwc")
    assert len(_prepared.by_options) == 1
    x = _image(rng, (52, 29, 3), np.uint8)
    got = dnnl.resample(x, (24, 24), layout="hwc")
    made = [call for key, call in _prepared.calls.items() if key[0] == x.shape]
    assert len(made) == 1 and made[0].remake is None    # made by another_shape
    want = TS.forward_codes(np.moveaxis(x, -1, 0)[None], (24, 24), ALG["linear"], dst_dt=TD.U8)
    assert np.array_equal(np.moveaxis(got, -1, 0)[None], want)
    assert dnnl.resample(x, (24, 24), layout="hwc").tobytes() == got.tobytes()


@pytest.mark.parametrize("case", ["strided", "transposed", "empty", "factors", "float64",
                                  "swapped", "unaligned", "other size", "other layout"])
def test_what_the_made_call_does_not_take_is_prepared(case):
    rng = np.random.default_rng(7)
    base = _image(rng, (40, 44, 3), np.uint8)
    x, kw, size = _image(rng, (23, 37, 3), np.uint8), dict(layout="hwc"), (17, 19)
    if case == "strided":
        x = base[::2, 1::3]
    elif case == "transposed":
        x = base.transpose(1, 0, 2)
    elif case == "empty":
        x = base[:0]
    elif case == "float64":
        x = base.astype(np.float64)
    elif case == "swapped":
        x = _image(rng, (23, 37, 3), np.float32).astype(">f4")
    elif case == "unaligned":      # C-contiguous, one byte past an f32 boundary
        x = np.zeros(23 * 37 * 3 * 4 + 1, np.uint8)[1:].view(np.float32).reshape(23, 37, 3)
        x[...] = _image(rng, x.shape, np.float32)
    elif case == "other size":
        size = (18, 19)
    elif case == "other layout":
        kw = dict(layout="nhwc")
        x = x[None]
    elif case == "factors":
        kw, size = dict(layout="hwc", factors=(0.5, 2)), None
    fast, slow = _remade(x, size, **kw)
    _same(fast, slow)
    if not isinstance(fast, tuple):
        nchw = np.moveaxis(np.ascontiguousarray(x, x.dtype.newbyteorder("=")), -1, -3)
        nchw = nchw if nchw.ndim == 4 else nchw[None]
        dt = TD.F32 if x.dtype.kind == "f" else TD.U8
        out = fast if fast.dtype.kind != "f" or fast.dtype.itemsize == 4 else \
            fast.astype(np.float32)
        want = TS.forward_codes(nchw.astype(np.float32) if dt == TD.F32 else nchw,
                                out.shape[-3:-1], ALG["linear"], dst_dt=dt)
        assert np.array_equal(np.moveaxis(out, -1, -3).reshape(want.shape), want)


def test_a_changed_switch_or_verbose_prepares_the_call(capsys):
    rng = np.random.default_rng(9)
    _prepared.calls.clear()
    _prepared.by_options.clear()
    dnnl.resample(_image(rng, (30, 30, 3), np.uint8), (16, 16), layout="hwc")
    x = _image(rng, (33, 35, 3), np.uint8)
    want = dnnl.resample(x, (16, 16), layout="hwc")
    dnnl.set_verbose(2)
    try:
        again = dnnl.resample(_image(rng, (41, 12, 3), np.uint8), (16, 16), layout="hwc")
    finally:
        dnnl.set_verbose(0)
    assert again.shape == (16, 16, 3)
    assert "resampling" in capsys.readouterr().out
    with switches.changed(resampling_parallel_min=1):
        key = switches.key
        y = _image(rng, (26, 39, 3), np.uint8)
        got = dnnl.resample(y, (16, 16), layout="hwc")
        assert [k for k in _prepared.by_options if k[2] == key]     # its own options' call
    assert dnnl.resample(x, (16, 16), layout="hwc").tobytes() == want.tobytes()
    want_y = TS.forward_codes(np.moveaxis(y, -1, 0)[None], (16, 16), ALG["linear"], dst_dt=TD.U8)
    assert np.array_equal(np.moveaxis(got, -1, 0)[None], want_y)
