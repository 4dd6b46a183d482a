"""Data type conversions: the Cython helpers (dnnl/_kernels/cvt.pxd through
dnnl.testing.probes.convert) against the numpy reference (dnnl.testing.dtypes),
and against values measured on real oneDNN 3.13.2."""
import functools
import math
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dnnl import _kernels
from dnnl.testing import dtypes as R

pytestmark = pytest.mark.kernels

cv = _kernels.load("dnnl.testing.probes.convert")     # the level this CPU runs (ISA cap)

ENCODE_TYPES = R.ALL + (R.F4_E3M0,)
DECODE_TYPES = (R.F16, R.BF16, R.E5M2, R.E4M3, R.E8M0, R.S8, R.U8, R.S4,
                R.U4, R.F4_E2M1, R.F4_E3M0)
ids = R.NAMES.get


def bits(values):
    return np.asarray(values, np.float32).view(np.uint32)


def f32(b):
    """float32 scalar with bit pattern ``b``."""
    return np.array([b], np.uint32).view(np.float32)[0]


def all_codes(dt):
    n = 1 << (16 if dt in (R.F16, R.BF16) else 4 if dt in R.SUB_BYTE else 8)
    return np.arange(n).astype(R._CODE_DTYPE[dt])


def enc(values, dt):
    """Our encoding of f32 values, as codes (nibbles unpacked)."""
    x = np.asarray(values, np.float32).ravel()
    return R.from_bytes(cv.from_f32(x, dt), dt, len(x))


def dec(codes, dt):
    """Our decoding of raw codes, as float32."""
    return cv.to_f32(R.to_bytes(codes, dt), dt, len(codes))


# ------------------------------------------------------------- exhaustive

@pytest.mark.parametrize("dt", DECODE_TYPES, ids=ids)
def test_decode_every_code(dt):
    codes = all_codes(dt)
    np.testing.assert_array_equal(bits(dec(codes, dt)), bits(R.decode(codes, dt)))


@pytest.mark.parametrize("dt", DECODE_TYPES, ids=ids)
def test_decode_encode_round_trip_every_code(dt):
    codes = all_codes(dt)
    back = enc(dec(codes, dt), dt)
    np.testing.assert_array_equal(back, R.encode(R.decode(codes, dt), dt))
    values = R.decode(codes, dt)
    finite = ~np.isnan(values)
    # every non-NaN code survives the round trip unchanged (including -0)
    np.testing.assert_array_equal(back[finite], codes[finite])


@pytest.mark.parametrize("dt", ENCODE_TYPES, ids=ids)
def test_encode_grid(dt):
    x = R.edge_values()
    ours = cv.from_f32(x, dt)
    ref = R.to_bytes(R.encode(x, dt), dt)
    bad = np.flatnonzero(ours != ref)
    assert not len(bad), [hex(v) for v in bits(x)[bad[:10]]]


@pytest.mark.parametrize("dt", (R.F16, R.BF16), ids=ids)
def test_encode_every_16_bit_pattern_of_f32_high_half(dt):
    # every f32 whose low half is 0x0000, 0x8000 (ties), 0x8001 and 0x7fff
    hi = np.arange(1 << 16, dtype=np.uint32) << 16
    x = np.concatenate([hi, hi | 0x8000, hi | 0x8001, hi | 0x7fff]).view(np.float32)
    np.testing.assert_array_equal(enc(x, dt), R.encode(x, dt))


@given(st.lists(st.integers(0, 2 ** 32 - 1), min_size=1, max_size=64))
def test_random_bit_patterns(words):
    x = np.array(words, np.uint32).view(np.float32)
    for dt in ENCODE_TYPES:
        assert (cv.from_f32(x, dt) == R.to_bytes(R.encode(x, dt), dt)).all(), dt


@given(st.lists(st.floats(-1e4, 1e4, width=32), min_size=1, max_size=64))
def test_random_moderate_values(values):
    x = np.array(values, np.float32)
    for dt in ENCODE_TYPES:
        assert (cv.from_f32(x, dt) == R.to_bytes(R.encode(x, dt), dt)).all(), dt


# ---------------------------------- values measured on real oneDNN 3.13.2

INT_CASES = [  # simple:any's outputs, measured
    (2.5, 2, 2, 2), (-2.5, -2, 0, -2), (0.5, 0, 0, 0), (-0.5, 0, 0, 0),
    (1.5, 2, 2, 2), (3.5, 4, 4, 4), (127.5, 127, 128, 128),
    (-128.5, -128, 0, -128), (255.5, 127, 255, 256),
    (3e9, 127, 255, 2147483520), (-3e9, -128, 0, -2147483648),
    (2147483520.0, 127, 255, 2147483520), (2147483648.0, 127, 255, 2147483520),
    (math.inf, 127, 255, 2147483520), (-math.inf, -128, 0, -2147483648),
    (-0.0, 0, 0, 0), (1024, 127, 255, 1024), (-124, -124, 0, -124),
]


@pytest.mark.parametrize("x,s8,u8,s32", INT_CASES)
def test_spec_integer_saturation_and_rounding(x, s8, u8, s32):
    assert enc([x], R.S8)[0] == s8
    assert enc([x], R.U8)[0] == u8
    assert enc([x], R.S32)[0] == s32


def test_spec_ties_and_nan_to_integers():
    ties = [0.5, 1.5, 2.5, 3.5, -0.5, -2.5]
    assert list(enc(ties, R.S8)) == [0, 2, 2, 4, 0, -2]
    # NaN -> what oneDNN's reference stores (src/cpu/simple_q10n.hpp): (int)nearbyintf(NaN)
    # is x86's INT_MIN, cut to the width: 0 for s8/u8/s4/u4. Every NaN sign and
    # payload, quiet or signalling; the numpy reference agrees.
    nans = [f32(0x7fc00000), f32(0xffc00000), f32(0x7f800001), f32(0xff812345)]
    for dt, want in ((R.S8, 0), (R.U8, 0), (R.S4, 0), (R.U4, 0),
                     (R.S32, -2 ** 31), (R.S64, -2 ** 63)):
        assert list(enc(nans, dt)) == [want] * 4, R.NAMES.get(dt)
        assert list(R.encode(nans, dt)) == [want] * 4, R.NAMES.get(dt)


def test_spec_s32_bound_is_largest_f32_below_2_31():
    assert bits([2147483520.0])[0] == 0x4effffff
    assert enc([f32(0x4effffff), f32(0x4f000000), f32(0x7f7fffff)], R.S32).tolist() == \
        [2147483520] * 3
    # int -> f32 is RNE: 16777217 -> 16777216, 2147483647 -> 2^31
    assert bits(dec(np.array([16777217, 2147483647], np.int32), R.S32)).tolist() == \
        [0x4b800000, 0x4f000000]


BF16_F16 = [  # spec 8.2: f32 bits, bf16, f16
    (0x3f808000, 0x3f80, 0x3c04), (0x3f818000, 0x3f82, 0x3c0c),
    (0x3f808001, 0x3f81, 0x3c04), (0x7f7fffff, 0x7f80, 0x7c00),
    (0x7f7f7fff, 0x7f7f, 0x7c00), (0x477fe000, 0x4780, 0x7bff),
    (0x477ff000, 0x4780, 0x7c00), (0x7f800000, 0x7f80, 0x7c00),
    (0xff800000, 0xff80, 0xfc00), (0x7fc00001, 0x7fc0, 0x7e00),
    (0x7f800001, 0x7fc0, 0x7e00), (0x7fa00000, 0x7fe0, 0x7f00),
    (0xff800001, 0xffc0, 0xfe00), (0x00000001, 0x0000, 0x0000),
    (0x007fffff, 0x0080, 0x0000), (0x00400000, 0x0040, 0x0000),
    (0x00018000, 0x0002, 0x0000), (0x33800000, 0x3380, 0x0001),
    (0x33000000, 0x3300, 0x0000), (0x33c00000, 0x33c0, 0x0002),
    # -0: the conversion keeps the sign (the jit:uni column); the +0 of
    # simple:any comes from its "+ zp_dst" and belongs to the reorder kernel
    (0x80000000, 0x8000, 0x8000), (0x80000001, 0x8000, 0x8000),
]


@pytest.mark.parametrize("b,bf,hf", BF16_F16, ids=lambda v: hex(v))
def test_spec_bf16_f16(b, bf, hf):
    assert enc([f32(b)], R.BF16)[0] == bf
    assert enc([f32(b)], R.F16)[0] == hf


def test_spec_f16_underflow_and_overflow():
    x = [65519.996, 65520.0, 2 ** -25, 3 * 2 ** -25, 2 ** -24, 2 ** -14 - 2 ** -25]
    assert enc(x, R.F16).tolist() == [0x7bff, 0x7c00, 0, 2, 1, 0x400]


F8 = [  # spec 8.3: value, e4m3, e5m2
    (1.0625, 0x38, 0x3c), (1.0625 + 2 ** -13, 0x38, 0x3c), (1.125, 0x39, 0x3c),
    (1.125 + 2 ** -13, 0x39, 0x3c), (448, 0x7e, 0x5f), (464, 0x7e, 0x5f),
    (464.5, 0x7f, 0x5f), (480, 0x7f, 0x60), (1e6, 0x7f, 0x7c),
    (math.inf, 0x7f, 0x7c), (-math.inf, 0xff, 0xfc), (2 ** -10, 0x00, 0x14),
    (2 ** -9, 0x01, 0x18), (1.5 * 2 ** -10, 0x01, 0x16),
    (1.5 * 2 ** -9, 0x02, 0x1a), (0.875 * 2 ** -6, 0x07, 0x23),
    (57344, 0x7f, 0x7b), (61439, 0x7f, 0x7c), (61440, 0x7f, 0x7c),
    (2 ** -16, 0x00, 0x01), (2 ** -17, 0x00, 0x00), (1.5 * 2 ** -17, 0x00, 0x01),
]


@pytest.mark.parametrize("x,e4m3,e5m2", F8)
def test_spec_f8(x, e4m3, e5m2):
    assert enc([x], R.E4M3)[0] == e4m3
    assert enc([x], R.E5M2)[0] == e5m2


def test_spec_f8_nan_and_double_rounding():
    nan, mnan = f32(0x7fc00000), f32(0xffc00000)
    assert enc([nan, mnan], R.E4M3).tolist() == [0x7f, 0xff]
    assert enc([nan, mnan], R.E5M2).tolist() == [0x7e, 0xfe]
    # 1.0625 + 2^-13 is a tie only after rounding to f16: a direct RNE to
    # e4m3 would give 0x39, oneDNN (and we) give 0x38
    assert enc([1.0625 + 2 ** -13], R.E4M3)[0] == 0x38


SUB = [  # spec 8.4: value, s4, u4, f4_e2m1, e8m0
    (1.0, 0x1, 0x1, 0x2, 0x7f), (2.5, 0x2, 0x2, 0x4, 0x80),
    (3.5, 0x4, 0x4, 0x6, 0x80), (-2.5, 0xe, 0x0, 0xc, 0x80),
    (0.5, 0x0, 0x0, 0x1, 0x7e), (-0.5, 0x0, 0x0, 0x9, 0x7e),
    (7.4, 0x7, 0x7, 0x7, 0x81), (8.0, 0x7, 0x8, 0x7, 0x82),
    (15.6, 0x7, 0xf, 0x7, 0x82), (16.0, 0x7, 0xf, 0x7, 0x83),
    (-8.6, 0x8, 0x0, 0xf, 0x82), (-9.0, 0x8, 0x0, 0xf, 0x82),
    (math.nan, 0x0, 0x0, 0x7, 0xff), (math.inf, 0x7, 0xf, 0x7, 0xff),
    (-math.inf, 0x8, 0x0, 0xf, 0xff), (-0.0, 0x0, 0x0, 0x8, 0x00),
    (0.25, 0x0, 0x0, 0x0, 0x7d), (0.75, 0x1, 0x1, 0x2, 0x7e),
    (1.25, 0x1, 0x1, 0x2, 0x7f), (1.75, 0x2, 0x2, 0x4, 0x7f),
    (5.0, 0x5, 0x5, 0x6, 0x81), (6.5, 0x6, 0x6, 0x7, 0x81),
]


@pytest.mark.parametrize("x,s4,u4,f4,e8", SUB)
def test_spec_sub_byte_and_e8m0(x, s4, u4, f4, e8):
    assert enc([x], R.S4)[0] == s4
    assert enc([x], R.U4)[0] == u4
    assert enc([x], R.F4_E2M1)[0] == f4
    assert enc([x], R.E8M0)[0] == e8


def test_spec_e8m0_rules():
    x = [3.0, 0.75, 1.99, -4.0, 0.0, -0.0, f32(0x00000001), math.inf,
         -math.inf, math.nan, 2.0 ** 127]
    assert enc(x, R.E8M0).tolist() == [0x80, 0x7e, 0x7f, 0x81, 0, 0, 0,
                                       0xff, 0xff, 0xff, 0xfe]


def test_spec_f4_e3m0_rules():
    # src/common/float4.cpp: 0.125 -> 0, other ties up, saturate at 16, NaN/inf -> 16
    x = [0.125, 0.375, 0.75, 1.5, 3.0, 6.0, 12.0, 100.0, math.nan, -math.inf,
         -0.2]
    assert enc(x, R.F4_E3M0).tolist() == [0, 2, 3, 4, 5, 6, 7, 7, 7, 0xf, 0x9]
    assert dec(np.arange(8, dtype=np.uint8), R.F4_E3M0).tolist() == \
        [0, 0.25, 0.5, 1, 2, 4, 8, 16]


DECODE = [  # spec 3 and 8.5: type, code, f32 bits
    (R.F16, 0x0001, 0x33800000), (R.F16, 0x03ff, 0x387fc000),
    (R.F16, 0x0400, 0x38800000), (R.F16, 0x7bff, 0x477fe000),
    (R.F16, 0x7c00, 0x7f800000), (R.F16, 0xfc00, 0xff800000),
    (R.F16, 0x7c01, 0x7fc02000), (R.F16, 0x7e00, 0x7fc00000),
    (R.F16, 0xfd00, 0xffe00000), (R.F16, 0x8000, 0x80000000),
    (R.BF16, 0x7f81, 0x7f810000), (R.BF16, 0x8000, 0x80000000),
    (R.E8M0, 0x00, 0x00400000), (R.E8M0, 0x01, 0x00800000),
    (R.E8M0, 0x7f, 0x3f800000), (R.E8M0, 0xfe, 0x7f000000),
    (R.E8M0, 0xff, 0xffc00000), (R.E5M2, 0x7d, 0x7fe00000),
    (R.E5M2, 0x7f, 0x7fe00000), (R.E5M2, 0x7e, 0x7fc00000),
    (R.E4M3, 0x7f, 0x7fc00000), (R.E4M3, 0xff, 0xffc00000),
    (R.E4M3, 0x7e, 0x43e00000), (R.E5M2, 0x7b, 0x47600000),
    (R.F4_E2M1, 0x8, 0x80000000), (R.F4_E2M1, 0x7, 0x40c00000),
]


@pytest.mark.parametrize("dt,code,b", DECODE, ids=str)
def test_spec_decode(dt, code, b):
    assert bits(dec(np.array([code], R._CODE_DTYPE[dt]), dt))[0] == b


def test_spec_small_tables():
    assert dec(np.arange(16, dtype=np.uint8), R.S4).tolist() == \
        list(range(8)) + list(range(-8, 0))
    assert dec(np.arange(16, dtype=np.uint8), R.U4).tolist() == list(range(16))
    assert dec(np.arange(8, dtype=np.uint8), R.F4_E2M1).tolist() == \
        [0, 0.5, 1, 1.5, 2, 3, 4, 6]


# --------------------------------------------------------------- sub-byte

def test_nibble_order():
    # spec 7: f32 [1,2,3,4] -> s4 bytes [0x21, 0x43]
    assert cv.from_f32([1, 2, 3, 4], R.S4).tolist() == [0x21, 0x43]
    assert cv.from_f32([1, 2, 3], R.U4).tolist() == [0x21, 0x03]  # pad 0
    # spec 7: f32 4x2 values 0..7 (ab) -> u4 with tag ba
    buf = np.zeros(4, np.uint8)
    i, j = np.meshgrid(np.arange(4), np.arange(2), indexing="ij")
    cv.scatter_f32(buf, R.U4, (j * 4 + i).ravel(), (i * 2 + j).ravel())
    assert buf.tolist() == [0x20, 0x64, 0x31, 0x75]
    assert cv.gather_f32(buf, R.U4, (j * 4 + i).ravel()).tolist() == list(range(8))


@pytest.mark.parametrize("dt", R.SUB_BYTE, ids=ids)
def test_nibble_store_preserves_neighbour(dt):
    for off in range(6):
        buf = np.full(3, 0xA5, np.uint8)
        cv.scatter_f32(buf, dt, [off], [1.0])
        code = R.encode([1.0], dt)[0]
        expect = np.full(3, 0xA5, np.uint8)
        sh = 4 * (off % 2)
        expect[off // 2] = (0xA5 & ~(0xF << sh)) | (code << sh)
        assert buf.tolist() == expect.tolist(), off


def test_convert_into_sub_byte_keeps_trailing_nibble():
    dst = np.full(2, 0xF0, np.uint8)
    cv.convert(np.array([1, 2, 3], np.float32), R.F32, dst, R.S4, 3)
    assert dst.tolist() == [0x21, 0xF3]


def test_pack_unpack():
    v = np.array([-8, -1, 0, 7, 3], np.int8)
    p = cv.pack(v)
    assert p.tolist() == [0xF8, 0x70, 0x03]
    assert cv.unpack(p, 5, signed=True).tolist() == v.tolist()
    assert cv.unpack(p, 4).tolist() == [8, 15, 0, 7]
    assert R.pack_nibbles(v).tolist() == p.tolist()


# ------------------------------------------------------- through-f32 paths

PAIRS = [(s, d) for s in (R.F32, R.F16, R.BF16, R.S32, R.S8, R.U8, R.E5M2,
                          R.E4M3, R.E8M0, R.S4, R.U4, R.F4_E2M1)
         for d in (R.F32, R.F16, R.BF16, R.S32, R.S8, R.U8, R.E5M2, R.E4M3,
                   R.S4, R.U4, R.F4_E2M1)]


@functools.lru_cache(maxsize=None)
def _edge_codes(src):
    """The edge values encoded in ``src`` and decoded back (the reference's
    half of a pair, the same for every destination; read only)."""
    codes = R.encode(R.edge_values(n_random=2000), src)
    decoded = R.decode(codes, src)
    codes.setflags(write=False)
    decoded.setflags(write=False)
    return codes, decoded


@pytest.mark.parametrize("src,dst", PAIRS,
                         ids=lambda p: R.NAMES[p] if isinstance(p, int) else p)
def test_convert_pairs_through_f32(src, dst):
    codes, decoded = _edge_codes(src)
    n = len(codes)
    out = np.zeros(cv.nbytes(dst, n), np.uint8)
    cv.convert(R.to_bytes(codes, src), src, out, dst, n)
    ref = R.to_bytes(R.encode(decoded, dst), dst)
    assert (out == ref).all()


def test_spec_integer_to_integer():
    # spec 5: u8 255 -> s8 127, s8 -1 -> u8 0, s32 -> s8 saturates
    out = np.zeros(1, np.int8)
    cv.convert(np.array([255], np.uint8), R.U8, out, R.S8, 1)
    assert out[0] == 127
    out = np.zeros(1, np.uint8)
    cv.convert(np.array([-1], np.int8), R.S8, out, R.U8, 1)
    assert out[0] == 0
    out = np.zeros(2, np.int8)
    cv.convert(np.array([100000, -100000], np.int32), R.S32, out, R.S8, 2)
    assert out.tolist() == [127, -128]


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_f64_and_s64():
    x = np.array([1.5, -2.5, 3e38, 1e30, -1e30, math.nan, 2.0 ** 63], np.float32)
    assert np.array_equal(cv.from_f32(x, R.F64).view(np.float64),
                          x.astype(np.float64), equal_nan=True)
    s = cv.from_f32(x, R.S64).view(np.int64)
    assert s.tolist()[:2] == [2, -2]
    assert s[2] == s[3] == s[6] == 2 ** 63 - 2 ** 39
    assert s[4] == -2 ** 63 and s[5] == -2 ** 63      # NaN: like s32, INT_MIN
    d = np.array([1e300, -1e-300, 0.1, 2.0 ** 24 + 1], np.float64)
    assert bits(cv.to_f32(d, R.F64)).tolist() == bits(d.astype(np.float32)).tolist()
    i = np.array([2 ** 62 + 1, -(2 ** 40) - 1, 16777217], np.int64)
    assert cv.to_f32(i, R.S64).tolist() == [2.0 ** 62, -(2.0 ** 40), 16777216.0]
    assert R.decode(i, R.S64).tolist() == [2.0 ** 62, -(2.0 ** 40), 16777216.0]


def test_unaligned_buffers():
    raw = np.zeros(4 * 5 + 1, np.uint8)
    src = raw[1:]
    src[:] = np.frombuffer(struct.pack("<5f", 1, 2.5, -3, 1e9, 0.5), np.uint8)
    assert cv.to_f32(src, R.F32).tolist() == [1, 2.5, -3, 1e9, 0.5]
    out = np.zeros(11, np.uint8)
    cv.convert(src, R.F32, out[1:], R.F16, 5)
    assert out[1:].view(np.uint16).tolist() == enc([1, 2.5, -3, 1e9, 0.5], R.F16).tolist()


def test_argument_checks():
    with pytest.raises(ValueError):
        cv.to_f32(np.zeros(3, np.uint8), R.F32, 1)
    with pytest.raises(ValueError):
        cv.convert(np.zeros(4, np.uint8), R.F32, np.zeros(1, np.uint8), R.F16, 1)
    with pytest.raises(ValueError):
        cv.gather_f32(np.zeros(2, np.uint8), R.S4, [4])
    with pytest.raises(ValueError):
        cv.scatter_f32(np.zeros(2, np.uint8), R.U8, [-1], [0])
    with pytest.raises(ValueError):
        cv.from_f32([1.0], 8)                     # boolean: no conversion
    with pytest.raises(ValueError):
        cv.convert(b"\0\0\0\0", R.F32, b"\0\0", R.F16, 1)   # read-only dst
    assert cv.from_f32([1.0], "bf16").view(np.uint16)[0] == 0x3f80
    assert cv.nbytes(R.S4, 5) == 3 and cv.nbytes(R.F64, 2) == 16


# ---------------------------------------------- cross-check with ml_dtypes

@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_against_ml_dtypes():
    ml = pytest.importorskip("ml_dtypes")
    x = R.edge_values(n_random=5000)
    finite = np.isfinite(x)
    # f8 / bf16 / f4 decoding: ml_dtypes agrees on every non-NaN code
    for dt, t in ((R.E5M2, ml.float8_e5m2), (R.E4M3, ml.float8_e4m3fn),
                  (R.BF16, ml.bfloat16), (R.F4_E2M1, ml.float4_e2m1fn)):
        codes = all_codes(dt)
        vals = dec(codes, dt)
        mlv = codes.astype(np.uint8 if codes.dtype.itemsize == 1 else np.uint16)
        mlv = mlv.view(t).astype(np.float32) if dt != R.F4_E2M1 else \
            np.array([float(ml.float4_e2m1fn(v)) for v in
                      [0, .5, 1, 1.5, 2, 3, 4, 6, -0.0, -.5, -1, -1.5, -2, -3, -4, -6]],
                     np.float32)
        ok = ~np.isnan(vals)
        assert np.array_equal(vals[ok], mlv[ok])
        assert np.isnan(mlv[~ok]).all()
    # f16: numpy's own cast; f8: ml_dtypes' f16 -> f8 cast after rounding to f16
    assert (enc(x[finite], R.F16) == x[finite].astype(np.float16).view(np.uint16)).all()
    h = x[finite].astype(np.float16)
    small = np.abs(h.astype(np.float32)) <= 448
    assert (enc(x[finite][small], R.E4M3) ==
            h[small].astype(ml.float8_e4m3fn).view(np.uint8)).all()
    assert (enc(x[finite], R.E5M2) == h.astype(ml.float8_e5m2).view(np.uint8)).all()
    assert (enc(x[finite], R.BF16) ==
            x[finite].astype(ml.bfloat16).view(np.uint16)).all()
