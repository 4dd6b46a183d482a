"""The resize kernel's fused rows (H and W steps one output row at a time,
in the arrays' own types) against its axis passes in f32: the same bits,
special values included (a NaN's sign and payload aside: which of two NaNs
an addition returns is the compiler's choice of operand order), for every mode, 1D to 3D, planar and interleaved
channels (both W step forms), every source type; the destination types
are the f32 result encoded as oneDNN does (dnnl.testing.dtypes)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dnnl._core.enums import data_type
from dnnl.primitives.resize import plan as P
from dnnl.testing import dtypes as TD

pytestmark = pytest.mark.kernels

ml_dtypes = pytest.importorskip("ml_dtypes")

TYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "u8": np.uint8,
         "s8": np.int8, "s32": np.int32}


def code(name):
    return int(getattr(data_type, name))


@st.composite
def problems(draw):
    k = draw(st.integers(1, 3))
    mode = draw(st.sampled_from(["nearest", "linear", "cubic", "area", "box"]))
    antialias = mode in ("linear", "cubic") and draw(st.booleans())
    in_sp = draw(st.lists(st.integers(1, 9 if k < 3 else 5), min_size=k, max_size=k))
    out_sp = draw(st.lists(st.integers(1, 13 if k < 3 else 6), min_size=k, max_size=k))
    if draw(st.booleans()):     # rows of several W step blocks (16 elements)
        in_sp[-1], out_sp[-1] = draw(st.integers(1, 45)), draw(st.integers(6, 70))
    # tf_crop_and_resize: a bias (the extrapolation value) outside the crop
    transform = draw(st.sampled_from(["tf_crop_and_resize", "half_pixel", "tf_crop_and_resize",
                                      "align_corners", "tf_crop_and_resize", "asymmetric"]))
    tables = []
    for i, o in zip(in_sp, out_sp):
        start = draw(st.sampled_from([-0.3, 0.2]))
        tables.append(P.axis_table(i, o, Fraction(o, i), mode, transform,
                                   draw(st.sampled_from(["floor", "round_prefer_ceil"])),
                                   antialias=antialias, roi_start=start,
                                   roi_end=start + draw(st.sampled_from([0.5, 1.0, 1.4])),
                                   extrapolation_value=7.5))
    tables = tuple(tables)
    # 1-5 channels take the per-element W step, 8 and more the per-pixel one
    channels = draw(st.sampled_from([1, 2, 3, 4, 5, 8, 9]))
    last = draw(st.booleans())
    shape = [2] + in_sp + [channels] if last else [2, channels] + in_sp
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    x = (rng.standard_normal(shape) * 60).astype(np.float32)
    if draw(st.booleans()):         # quiet NaNs, infinities, signed zeros
        flat = x.reshape(-1)
        spots = rng.integers(0, flat.size, size=max(1, flat.size // 7))
        flat[spots] = rng.choice(np.float32([np.nan, np.inf, -np.inf, -0.0]), spots.size)
    return x, tables, last


def same_bits(got, want):
    """Equal bits, any NaN for any NaN."""
    g, w = got.reshape(-1), want.reshape(-1)
    nan = np.isnan(w)
    return got.shape == want.shape and np.array_equal(np.isnan(g), nan) and \
        g[~nan].tobytes() == w[~nan].tobytes()


def axis_passes(x, tables, last):
    k = len(tables)
    axes = tuple(range(1, k + 1)) if last else tuple(range(2, k + 2))
    return P.forward(x.astype(np.float32), axes, tables)


@given(problems(), st.sampled_from(sorted(TYPES)))
def test_fused_rows_are_the_axis_passes(p, src_type):
    """Every source type, read by the rows themselves: the f32 bits of the
    axis passes over its values (a signalling NaN aside, which only an f32
    source can hold, and which a nearest copy keeps)."""
    x, tables, last = p
    t = np.dtype(TYPES[src_type])
    with np.errstate(invalid="ignore", over="ignore"):
        src = x if t.kind == "f" else np.nan_to_num(x, nan=0, posinf=100, neginf=-100)
        src = np.clip(src, -300, 300).astype(t) if t.kind != "f" else src.astype(t)
    want = axis_passes(src, tables, last)
    got = P.rows(src, code(src_type), last, tables, np.float32, code("f32"))
    assert got.dtype == np.float32 and same_bits(got, want)


@given(problems(), st.sampled_from(["f16", "bf16", "u8", "s8", "s32"]))
def test_fused_rows_encode_the_destination_as_onednn(p, dst_type):
    """Each destination type is the f32 result encoded once (rounded half to
    even, saturated; NaN and infinities as oneDNN stores them)."""
    x, tables, last = p
    f = axis_passes(x, tables, last)
    got = P.rows(x, code("f32"), last, tables, np.dtype(TYPES[dst_type]), code(dst_type))
    want = TD.encode(f.reshape(-1), code(dst_type))
    assert got.shape == f.shape
    raw = got.reshape(-1).view(want.dtype)
    if dst_type in ("f16", "bf16"):         # any NaN for any NaN, as above
        nan = np.isnan(f.reshape(-1))
        assert np.array_equal(np.isnan(got.reshape(-1).astype(np.float32)), nan)
        raw, want = raw[~nan], want[~nan]
    assert np.array_equal(raw, want)


def test_a_strided_and_a_channels_last_view_keep_their_values():
    """The rows read C-contiguous arrays; dnnl.resample gives them views of
    any memory order, and a channels-last one keeps its order."""
    import dnnl
    rng = np.random.default_rng(3)
    nhwc = rng.standard_normal((2, 7, 9, 3)).astype(np.float32)
    nchw_view = nhwc.transpose(0, 3, 1, 2)
    got = dnnl.resample(nchw_view, (11, 5), mode="cubic")
    want = dnnl.resample(np.ascontiguousarray(nchw_view), (11, 5), mode="cubic")
    assert got.tobytes(order="A") != b"" and np.array_equal(got, want)
    assert got.transpose(0, 2, 3, 1).flags.c_contiguous     # channels last, as given
    step = rng.standard_normal((2, 3, 14, 9)).astype(np.float32)[:, :, ::2, ::-1]
    assert np.array_equal(dnnl.resample(step, (4, 4), mode="box"),
                          dnnl.resample(step.copy(), (4, 4), mode="box"))


def test_the_plan_knows_the_kernels_block():
    from dnnl._kernels import load
    assert load("dnnl.primitives.resize.kernel").block() == P._BLOCK


def test_every_block_window_holds_its_taps_inside_the_row():
    """The windows the W step permutes from: inside the row, every tap of
    the block inside the window; the narrowest such."""
    seen = set()
    for n_in, n_out, mode in ((640, 1280, "cubic"), (640, 320, "box"), (9, 40, "linear"),
                              (37, 5, "cubic"), (3, 100, "nearest"), (100, 3, "area"),
                              (100, 1, "linear")):
        t = P.axis_table(n_in, n_out, Fraction(n_out, n_in), mode)
        for c in (1, 2, 3, 4, 7):
            idx, w, _, win, _ = t.elements(c)
            k = t.weights.shape[1]
            row = n_in * c
            half = P._BLOCK // 2
            for b, (start, regs, start2) in enumerate(win):
                e = idx[b * P._BLOCK:(b + 1) * P._BLOCK].astype(np.int64)
                taps = e[:, None] + np.arange(k) * c
                if regs == 0:
                    assert row < P._BLOCK * 2 or taps.max() - taps.min() >= P._BLOCK
                    continue
                if regs == 3:       # each half in its own window of two registers
                    for s0, part in ((start, taps[:half]), (start2, taps[half:])):
                        assert 0 <= s0 and s0 + 2 * P._BLOCK <= row
                        assert part.min() >= s0 and part.max() < s0 + 2 * P._BLOCK
                    assert taps.max() - taps.min() >= P._BLOCK      # one would not do
                    continue
                assert 0 <= start and start + regs * P._BLOCK <= row
                assert taps.min() >= start and taps.max() < start + regs * P._BLOCK
                if regs == 2 and row >= P._BLOCK:
                    s1 = max(0, min(taps.min(), row - P._BLOCK))
                    assert not (taps.min() >= s1 and taps.max() < s1 + P._BLOCK)
            seen.update(int(r) for r in win[:, 1])
    assert seen == {0, 1, 2, 3}         # every form is exercised


def test_every_tapwise_window_holds_its_tap_inside_the_row():
    """The AVX2 windows of 8 elements, one per tap: tap t's window is the
    first's moved by t pixels, inside the row, and holds that tap of all 8
    (rel: each element's place in it); -1 only where no window of 8 holds
    the first taps inside the row."""
    seen = set()
    for n_in, n_out, mode in ((640, 1280, "cubic"), (640, 320, "box"), (9, 40, "linear"),
                              (37, 5, "cubic"), (3, 100, "nearest"), (100, 3, "area"),
                              (480, 1080, "linear"), (7, 9, "cubic")):
        t = P.axis_table(n_in, n_out, Fraction(n_out, n_in), mode)
        for c in (1, 2, 3, 4, 7):
            idx, _, _, _, (tap, rel) = t.elements(c)
            k, row = t.weights.shape[1], n_in * c
            assert tap.size == idx.size // P._HALF and rel.size == idx.size
            for h, start in enumerate(tap):
                e = idx[h * P._HALF:(h + 1) * P._HALF].astype(np.int64)
                if start < 0:
                    assert e.max() - e.min() >= P._HALF or row < P._HALF + (k - 1) * c
                    seen.add("none")
                    continue
                seen.add("tapwise")
                assert 0 <= start and start + (k - 1) * c + P._HALF <= row
                assert np.array_equal(rel[h * P._HALF:(h + 1) * P._HALF], e - start)
                for s in range(k):
                    taps = e + s * c
                    assert taps.min() >= start + s * c and taps.max() < start + s * c + P._HALF
    assert seen == {"none", "tapwise"}


@pytest.mark.parametrize("n_in, n_out, mode, channels", [
    (640, 320, "box", 3), (640, 1280, "cubic", 3), (200, 77, "cubic", 2), (97, 300, "linear", 1),
    (300, 97, "area", 4), (64, 64, "cubic", 3), (50, 20, "linear", 5)])
def test_image_rows_are_the_axis_passes(n_in, n_out, mode, channels):
    """Image-sized rows (every window form: one or two registers, a window
    per half of a block, gathers) in u8 and f32, against the axis passes."""
    t = P.axis_table(n_in, n_out, Fraction(n_out, n_in), mode)
    th = P.axis_table(7, 5, Fraction(5, 7), mode)
    rng = np.random.default_rng(n_in)
    for src in (rng.integers(0, 256, (1, 7, n_in, channels), dtype=np.uint8),
                rng.standard_normal((1, 7, n_in, channels)).astype(np.float32)):
        want = axis_passes(src, (th, t), True)
        sdt = code("u8" if src.dtype == np.uint8 else "f32")
        assert same_bits(P.rows(src, sdt, True, (th, t), np.float32, code("f32")), want)
        got = P.rows(src, sdt, True, (th, t), np.uint8, code("u8"))
        assert np.array_equal(got.reshape(-1), TD.encode(want.reshape(-1), code("u8")))


@pytest.mark.parametrize("mode", ["box", "area", "linear"])
@pytest.mark.parametrize("channels, last", [(1, False), (1, True), (2, True), (3, True),
                                            (4, True), (5, True)])
def test_a_u8_image_halved_is_the_axis_passes(mode, channels, last):
    """Box, area and half-pixel linear at half the size take inputs 2o and
    2o + 1 at 1/2 each (AxisTable.halves), and a u8 image so halved is
    summed in integers: the bytes of the f32 passes, on rows of 1 to 41
    output pixels (every vector tail), ties (sums of 2 mod 4) and 255
    included; an odd size is no halving."""
    rng = np.random.default_rng(channels)
    for out_w in (1, 2, 5, 8, 13, 16, 41):
        th, tw = (P.axis_table(2 * n, n, Fraction(1, 2), mode) for n in (3, out_w))
        assert th.halves and tw.halves
        shape = (2, 6, 2 * out_w, channels) if last else (2, channels, 6, 2 * out_w)
        x = rng.integers(0, 256, shape, dtype=np.uint8)
        x[0, :2] = 255
        x[1, :2] = rng.choice(np.uint8([0, 1, 2, 254, 255]), x[1, :2].shape)
        want = TD.encode(axis_passes(x, (th, tw), last).reshape(-1), code("u8"))
        got = P.rows(x, code("u8"), last, (th, tw), np.uint8, code("u8"))
        assert got.shape == axis_passes(x, (th, tw), last).shape
        assert np.array_equal(got.reshape(-1), want)
    odd = P.axis_table(2 * out_w + 1, out_w, Fraction(out_w, 2 * out_w + 1), mode)
    assert not odd.halves
