"""Resampling forward over integer and half types without post-ops (the
typed paths: rows and pixels loaded and stored with one type switch, converted
in registers), pinned against the numpy reference (dnnl.testing): u8, s8,
f16, bf16 and f32 on either side, nhwc-like layouts with 1-4 channels
(images) and many, nchw-like layouts, 1-D to 3-D, nearest and linear, and
inf/NaN in half-type sources (ref:any's 3-D form)."""
import numpy as np
import pytest

import dnnl
from dnnl.resampling import resampling_forward
from dnnl.testing import dtypes as D
from dnnl.testing import resampling as R

pytestmark = pytest.mark.kernels

A = dnnl.algorithm
NEAREST, LINEAR = A.resampling_nearest, A.resampling_linear
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STREAM = dnnl.stream(ENG)
DTS = {"f32": D.F32, "bf16": D.BF16, "f16": D.F16, "s8": D.S8, "u8": D.U8}
TAGS = {3: ("nwc", "ncw"), 4: ("nhwc", "nchw"), 5: ("ndhwc", "ncdhw")}
SIZES = {1: [(7, 16), (16, 7), (9, 9), (5, 1), (1, 4)],
         2: [((5, 7), (11, 16)), ((8, 10), (4, 5)), ((6, 9), (13, 4)), ((3, 4), (6, 8)),
             ((1, 5), (2, 9))],
         3: [((3, 4, 5), (5, 7, 3))]}


def _run(alg, x, outs, sdt, ddt, stag, dtag):
    smd = dnnl.memory.desc(list(x.shape), sdt, stag)
    dmd = dnnl.memory.desc(list(x.shape[:2]) + list(outs), ddt, dtag)
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference, alg,
                                           smd, dmd)
    s, d = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
    s.from_numpy(x)
    d.map_data(np.uint8)[:] = 0x7B             # garbage: must be overwritten
    resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: s, dnnl.DNNL_ARG_DST: d})
    return D.encode(np.asarray(d.to_numpy()).astype(np.float32).ravel(), DTS[ddt])


def _plan(alg, shape, outs, sdt, ddt, tag):
    smd = dnnl.memory.desc(list(shape), sdt, tag)
    dmd = dnnl.memory.desc(list(shape[:2]) + list(outs), ddt, tag)
    return resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference, alg,
                                             smd, dmd)._plan()


def test_images_take_the_typed_pixel_rows():
    """nhwc u8 (and the other typed pairs) runs across pixels with 2-7
    channels, pixel by pixel with more; f32 to f32 with 8 or more channels
    (its plain rows), nchw and 3-D do not
    (one channel: nhwc is nchw, the rows path's decoded rows)."""
    for alg in (NEAREST, LINEAR):
        assert _plan(alg, [1, 1, 6, 8], (9, 5), "u8", "u8", "nhwc").path == "rows"
        for c, want in ((2, 1), (3, 1), (4, 1), (7, 1), (8, 2), (64, 2)):
            for sdt, ddt in (("u8", "u8"), ("s8", "f16"), ("bf16", "bf16"), ("f32", "u8")):
                assert _plan(alg, [1, c, 6, 8], (9, 5), sdt, ddt, "nhwc").pixel_rows == want
        assert _plan(alg, [1, 3, 6], (9,), "u8", "u8", "nwc").pixel_rows == 1
        assert _plan(alg, [1, 3, 6, 8], (9, 5), "f32", "f32", "nhwc").pixel_rows == 1
        assert _plan(alg, [1, 8, 6, 8], (9, 5), "f32", "f32", "nhwc").pixel_rows == 0
        assert _plan(alg, [1, 3, 6, 8], (9, 5), "u8", "u8", "nchw").pixel_rows == 0
        assert _plan(alg, [1, 3, 4, 6, 8], (3, 9, 5), "u8", "u8", "ndhwc").pixel_rows == 0


def _source(rng, dims, sdt, special):
    if sdt == "u8":
        x = rng.integers(0, 256, dims).astype(np.float32)
    elif sdt == "s8":
        x = rng.integers(-128, 128, dims).astype(np.float32)
    else:
        x = (rng.standard_normal(dims) * 60).astype(np.float32)
    if special:
        flat = x.reshape(-1)
        idx = rng.choice(flat.size, size=min(3, flat.size), replace=False)
        flat[idx] = np.array([np.inf, -np.inf, np.nan], np.float32)[:idx.size]
    return D.decode(D.encode(x.ravel(), DTS[sdt]), DTS[sdt]).reshape(dims)


def _same_codes(got, want, dt):
    """The same codes, except that a NaN matches a NaN of either sign or
    payload (which NaN an inf - inf gives is not pinned here)."""
    nan = np.isnan(D.decode(want, DTS[dt]))
    np.testing.assert_array_equal(np.isnan(D.decode(got, DTS[dt])), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan])


@pytest.mark.parametrize("c", [1, 2, 3, 4, 5, 8, 19, 64])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_typed_forward_matches_the_reference(c, k):
    rng = np.random.default_rng(100 * c + k)
    pairs = [("u8", "u8"), ("s8", "s8"), ("f16", "f16"), ("bf16", "bf16"), ("u8", "f32"),
             ("f32", "u8"), ("f16", "s8"), ("bf16", "u8"), ("s8", "f16"), ("u8", "bf16")]
    for ins, outs in SIZES[k]:
        ins, outs = ((ins,), (outs,)) if k == 1 else (ins, outs)
        for sdt, ddt in pairs:
            for alg in (NEAREST, LINEAR):
                tags = TAGS[k + 2]
                stag, dtag = tags[rng.integers(0, 2)], tags[rng.integers(0, 2)]
                if rng.random() < 0.6:
                    stag = dtag = tags[0]       # channels last on both sides: images
                x = _source(rng, [int(rng.integers(1, 3)), c] + list(ins), sdt, False)
                got = _run(alg, x, outs, sdt, ddt, stag, dtag)
                want = R.forward_codes(x, list(outs), alg, DTS[ddt])
                np.testing.assert_array_equal(got, want.ravel(),
                                              err_msg=f"{sdt}->{ddt} {stag}->{dtag} {alg}")


@pytest.mark.parametrize("sdt,ddt", [("f16", "f16"), ("bf16", "bf16"), ("f16", "u8"),
                                     ("bf16", "f32")])
@pytest.mark.parametrize("c", [1, 3, 4, 16])
def test_typed_forward_nonfinite_matches_the_reference(sdt, ddt, c):
    """inf/NaN in a half-type source: ref:any's 3-D form (an inf meets a
    phantom zero weight and gives NaN), in every layout pair."""
    rng = np.random.default_rng(7 * c)
    for k, (ins, outs) in ((1, ((6,), (13,))), (2, ((5, 6), (9, 4))), (2, ((4, 4), (8, 8)))):
        for stag in TAGS[k + 2]:
            for alg in (NEAREST, LINEAR):
                x = _source(rng, [1, c] + list(ins), sdt, True)
                got = _run(alg, x, outs, sdt, ddt, stag, TAGS[k + 2][0])
                want = R.forward_codes(x, list(outs), alg, DTS[ddt]).ravel()
                _same_codes(got, want, ddt)


def test_u8_rounds_half_to_even_and_saturates():
    """u8 results are f32 results rounded half to even: 0 and 1 at weights
    1/2 give 0.5 -> 0; 1 and 2 give 1.5 -> 2; 254, 255 stay in range."""
    x = np.array([0, 1, 1, 2, 254, 255], np.float32).reshape(1, 1, 1, 6)
    for tag in ("nhwc", "nchw"):
        # 6 -> 3 columns, linear: each output halfway between two inputs
        got = _run(LINEAR, x, (1, 3), "u8", "u8", tag, tag)
        assert got.tolist() == [0, 2, 254]


@pytest.mark.parametrize("sdt,ddt", [("u8", "u8"), ("s8", "f32"), ("f16", "f16"),
                                     ("bf16", "u8")])
def test_decoded_rows_take_the_column_fast_paths(sdt, ddt):
    """nchw rows of a typed source, decoded once, run the f32 rows' column
    paths too (linear x2 along W, W halved, nearest x2), with the
    reference's bytes."""
    rng = np.random.default_rng(3)
    for alg, ins, outs, prop in ((LINEAR, (5, 12), (9, 24), "x2_columns"),
                                 (LINEAR, (6, 16), (4, 8), "halved_columns"),
                                 (NEAREST, (6, 16), (5, 8), "halved_columns"),
                                 (NEAREST, (4, 9), (7, 18), None)):
        x = _source(rng, [2, 3] + list(ins), sdt, False)
        plan = _plan(alg, x.shape, outs, sdt, ddt, "nchw")
        if prop == "x2_columns":
            assert plan.x2_columns != (0, 0)
        elif prop:
            assert getattr(plan, prop)
        got = _run(alg, x, outs, sdt, ddt, "nchw", "nchw")
        want = R.forward_codes(x, list(outs), alg, DTS[ddt]).ravel()
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("c", range(1, 8))
def test_pixel_rows_w_step_windows_in_registers(c):
    """The pixel rows' W step permutes a window of the source row held in
    registers while a block of outputs reads at most 2 vectors of it (AVX2:
    16 floats, AVX-512: 32), and gathers from the first block that reads
    more: rows of 5 to 70 pixels, enlargements from x1.02 to x9 (the last
    blocks' windows held back from the row's end), slight and x2 reductions
    (windows that fit, or not from the first block), f32 with inf/NaN and
    u8 (stored from the registers: saturated, NaN to 0), with the
    reference's bytes at every ISA level."""
    rng = np.random.default_rng(40 + c)
    for iw, ow in ((70, 71), (50, 101), (33, 300), (5, 45), (60, 55), (64, 32), (11, 16), (20, 40),
                   (9, 7)):
        for sdt, ddt, special in (("f32", "f32", False), ("f32", "f32", True),
                                  ("u8", "u8", False), ("f16", "u8", False),
                                  ("f32", "u8", True), ("bf16", "u8", True)):
            for alg in (NEAREST, LINEAR):
                x = _source(rng, [1, c, 3, iw], sdt, special)
                if ddt == "u8" and sdt != "u8":
                    x = x * 4           # (exact) beyond 255 as often as below 0
                if c > 1:       # (one channel: the nchw rows)
                    assert _plan(alg, x.shape, (4, ow), sdt, ddt, "nhwc").pixel_rows == 1
                got = _run(alg, x, (4, ow), sdt, ddt, "nhwc", "nhwc")
                want = R.forward_codes(x, [4, ow], alg, DTS[ddt]).ravel()
                _same_codes(got, want, ddt)


def test_pixel_rows_w_step_forms_by_level():
    """Which form reads a row's W taps (rs_pv_wins), by ISA level: AVX2
    gives each tap its own one-register window while the blocks fit
    (enlargements, a slight reduction's first blocks) and 3 or 4 channels
    the pixel form after them, or for an exact x2 the pairs (every pair but
    the edges'); AVX-512 none of these (its shared windows); the baseline
    none. The bytes of each are the reference's (the tests above and below
    run these shapes)."""
    from dnnl import _kernels
    _kernels.load("dnnl.primitives.resampling.kernel")
    level = _kernels.level

    def forms(c, iw, ow):
        return _plan(LINEAR, [1, c, 4, iw], (4, ow), "u8", "u8", "nhwc").w_forms

    for c, iw, ow in ((3, 640, 1440), (4, 640, 1280), (2, 640, 1280), (3, 640, 320),
                      (4, 640, 320), (2, 640, 320), (3, 70, 71), (4, 60, 55), (3, 33, 66),
                      (4, 3, 6), (3, 2, 4)):
        n = ow * c
        end1, end2, end4, px0, px1, pair0, pair1 = forms(c, iw, ow)
        assert 0 <= end1 <= end2 <= end4 <= n
        if level == "x86_64_v3" and c in (3, 4) and ow == 2 * iw and ow >= 6:
            # (with 3 channels the last pairs' 8-float loads would pass the row)
            assert (end4, pair0) == (0, 1) and ow // 2 - 3 <= pair1 <= ow // 2 - 1
            assert pair1 == ow // 2 - 1 or (c == 3 and 3 * pair1 + 8 > 3 * iw)
            continue
        assert pair1 <= pair0
        if level == "x86_64_v3":
            if ow > iw and iw * c >= 8:             # (a shorter row has no window)
                assert end1 == n - n % 8           # every whole block tapwise
            if c in (3, 4):
                assert end2 == end4 == end1         # no shared windows
                if end1 < n - n % 8:                # the rest: pixels, after end1
                    assert px0 == -(-end1 // c) and px0 < px1 <= ow - 1
            else:
                assert px1 <= px0
        else:
            assert end1 == 0 and px1 <= px0
            if level == "":
                assert end4 == 0
    if level == "x86_64_v3":
        assert forms(3, 640, 320)[:1] == (0,)      # x2 reductions: pixels from pixel 0
        assert forms(3, 640, 320)[3:5] == (0, 319)


@pytest.mark.parametrize("c", [2, 3, 4])
def test_u8_images_halved_by_integer_sums(c):
    """Both axes halved exactly, u8 to u8: integer sums of 2 x 2 pixels,
    rounded half to even (sums of 2 mod 4 go to the even quotient, 1020 to
    255), the reference's bytes; rows of 1 to 41 output pixels (the vector
    loop's lanes and its tail), any other ratio or type by the f32 steps."""
    rng = np.random.default_rng(70 + c)
    for oh, ow in ((1, 1), (2, 3), (3, 8), (5, 11), (4, 16), (3, 41), (2, 24)):
        ins = (2 * oh, 2 * ow)
        assert _plan(LINEAR, [1, c] + list(ins), (oh, ow), "u8", "u8", "nhwc").halves_u8
        for x in (rng.integers(0, 256, (2, c) + ins, dtype=np.uint8),
                  rng.integers(0, 2, (2, c) + ins, dtype=np.uint8) * 255,
                  rng.integers(0, 4, (2, c) + ins, dtype=np.uint8),
                  np.full((2, c) + ins, 255, np.uint8)):
            got = _run(LINEAR, x, (oh, ow), "u8", "u8", "nhwc", "nhwc")
            want = R.forward_codes(x, [oh, ow], LINEAR, DTS["u8"]).ravel()
            _same_codes(got, want, "u8")
    for ins, outs, sdt, ddt, alg in (((8, 10), (4, 6), "u8", "u8", LINEAR),
                                     ((8, 11), (4, 5), "u8", "u8", LINEAR),
                                     ((8, 10), (3, 5), "u8", "u8", LINEAR),
                                     ((8, 10), (4, 5), "u8", "f32", LINEAR),
                                     ((8, 10), (4, 5), "s8", "s8", LINEAR),
                                     ((8, 10), (4, 5), "u8", "u8", NEAREST)):
        plan = _plan(alg, [1, c] + list(ins), outs, sdt, ddt, "nhwc")
        assert not plan.halves_u8


@pytest.mark.parametrize("c", [1, 2, 3, 4])
def test_pixel_rows_u8_stores_at_the_bounds(c):
    """u8 to u8 linear, stored from the registers: images of 255 (whose
    interpolation by weights summing to 1 may round just above 255), of 0,
    and 0/255 checkerboards, enlarged, reduced and shifted, give the
    reference's bytes, 255 staying 255."""
    for ih, iw, oh, ow in ((7, 70, 13, 71), (9, 33, 5, 300), (16, 64, 7, 32), (5, 9, 11, 7),
                           (7, 12, 14, 24),
                           (3, 50, 3, 101), (40, 90, 17, 37)):
        full = np.full((1, c, ih, iw), 255, np.uint8)
        board = ((np.indices((ih, iw)).sum(0) % 2) * 255).astype(np.uint8)
        for x in (full, np.zeros_like(full), np.broadcast_to(board, full.shape).copy()):
            got = _run(LINEAR, x, (oh, ow), "u8", "u8", "nhwc", "nhwc")
            want = R.forward_codes(x, [oh, ow], LINEAR, DTS["u8"]).ravel()
            _same_codes(got, want, "u8")
            if x is full:
                assert (got == 255).all()
