"""Slow, obviously-correct numpy reference of every data type conversion.

Independent of the Cython helpers (``dnnl/_kernels/cvt.pxd``); follows
oneDNN 3.13's conversion rules (src/common/float16.hpp, bfloat16.hpp, float8.cpp,
float4.cpp, int4.hpp; saturation in src/cpu/simple_q10n.hpp). The method:

* every floating-point format is described by its field widths; the value of
  each code point is computed with the textbook formula in float64 (exact);
* f32 -> float format: the f32 value (exact in float64) is compared with the
  midpoints between consecutive representable magnitudes (also exact in
  float64); below a midpoint rounds down, above rounds up, on it goes to the
  even code. Overflow behaviour is expressed by one extra "virtual" code
  above the largest finite value (inf at 2^(emax+1) for IEEE-like formats,
  so 65520 -> f16 inf; NaN 0x7f at 480 for f8_e4m3, so 464 -> 448 and
  464.5 -> NaN) or by saturating at the largest value (f4_e2m1);
* f8 formats round twice: f32 -> f16 first, then f16 value -> f8;
* integer targets: NaN -> 0, clip in float64 to the bounds, then np.rint
  (half to even);
* NaN results are built bit by bit from oneDNN's rules.

Codes ("raw" values) are numpy integer arrays: uint16 for f16/bf16, uint8 for
8-bit formats and for one 4-bit element (0..15), the natural numpy integer
for s8/u8/s32/s64, float64 for f64, float32 for f32.
"""
import numpy as np

F16, BF16, F32, S32, S8, U8, F64 = 1, 2, 3, 4, 5, 6, 7
E5M2, E4M3, S4, U4, E8M0, F4_E2M1, F4_E3M0, S64 = 9, 10, 11, 12, 13, 14, 15, 16

SUB_BYTE = (S4, U4, F4_E2M1, F4_E3M0)
ALL = (F32, F16, BF16, S32, S8, U8, F64, E5M2, E4M3, S4, U4, E8M0, F4_E2M1, S64)
NAMES = {F16: "f16", BF16: "bf16", F32: "f32", S32: "s32", S8: "s8", U8: "u8",
         F64: "f64", E5M2: "f8_e5m2", E4M3: "f8_e4m3", S4: "s4", U4: "u4",
         E8M0: "e8m0", F4_E2M1: "f4_e2m1", F4_E3M0: "f4_e3m0", S64: "s64"}

# (exponent bits, mantissa bits, bias) of the small floating-point formats
_FMT = {F16: (5, 10, 15), BF16: (8, 7, 127), E5M2: (5, 2, 15),
        E4M3: (4, 3, 7), F4_E2M1: (2, 1, 1), F4_E3M0: (3, 0, 3)}
_CODE_DTYPE = {F16: np.uint16, BF16: np.uint16, E5M2: np.uint8,
               E4M3: np.uint8, E8M0: np.uint8, F4_E2M1: np.uint8,
               F4_E3M0: np.uint8, S4: np.uint8, U4: np.uint8, S8: np.int8,
               U8: np.uint8, S32: np.int32, S64: np.int64, F64: np.float64,
               F32: np.float32}
# integer saturation bounds in f32: s32's upper bound is the
# largest f32 below 2^31; s64's (our choice, same reasoning) below 2^63.
INT_BOUNDS = {S8: (-128, 127), U8: (0, 255), S4: (-8, 7), U4: (0, 15),
              S32: (-2.0 ** 31, 2147483520.0), S64: (-2.0 ** 63, 2.0 ** 63 - 2.0 ** 39)}


# ------------------------------------------------------------ code values

def _is_nan_code(c, dt):
    e_bits, m_bits, _ = _FMT[dt]
    e = (c >> m_bits) & ((1 << e_bits) - 1)
    m = c & ((1 << m_bits) - 1)
    if dt in (F16, BF16, E5M2):
        return (e == (1 << e_bits) - 1) & (m != 0)
    if dt == E4M3:
        return (e == 15) & (m == 7)
    return np.zeros(np.shape(c), bool)


def code_values(dt):
    """float64 value of every code of a small float format (NaN for NaN
    codes, +/-inf for inf codes); index = code."""
    if dt == E8M0:
        v = 2.0 ** (np.arange(256) - 127.0)
        v[255] = np.nan
        return v
    e_bits, m_bits, bias = _FMT[dt]
    n = 1 << (1 + e_bits + m_bits)
    c = np.arange(n)
    s = np.where(c >> (e_bits + m_bits), -1.0, 1.0)
    e = (c >> m_bits) & ((1 << e_bits) - 1)
    m = c & ((1 << m_bits) - 1)
    sub = m * 2.0 ** (1 - bias - m_bits)
    nrm = (2 ** m_bits + m) * 2.0 ** (e - bias - m_bits)
    v = s * np.where(e == 0, sub, nrm)
    if dt in (F16, BF16, E5M2):
        top = e == (1 << e_bits) - 1
        v = np.where(top, np.where(m == 0, s * np.inf, np.nan), v)
    v[_is_nan_code(c, dt)] = np.nan
    return v


# --------------------------------------------------------------- decoding

def decode(codes, dt):
    """f32 value (float32 array) of raw ``codes`` of type ``dt``
    NaN bit patterns included."""
    if dt == F32:
        return np.asarray(codes, np.float32).copy()
    if dt == F64:
        return np.asarray(codes, np.float64).astype(np.float32)
    if dt in (S8, U8, S32):
        return np.asarray(codes, np.int64).astype(np.float64).astype(np.float32)
    if dt == S64:
        return np.array([_int_to_f32(int(v)) for v in np.asarray(codes).ravel()],
                        np.float32).reshape(np.shape(codes))
    c = np.asarray(codes).astype(np.int64)
    if dt == S4:
        return np.where(c & 8, (c & 15) - 16, c & 15).astype(np.float32)
    if dt == U4:
        return (c & 15).astype(np.float32)
    if dt in SUB_BYTE:
        c = c & 15
    vals = code_values(dt)[c]
    with np.errstate(over="ignore"):
        out = vals.astype(np.float32).view(np.uint32)
    nan = np.isnan(vals)
    c32 = c.astype(np.uint32)
    if dt == F16:
        nb = ((c32 & 0x8000) << 16) | 0x7fc00000 | ((c32 & 0x3ff) << 13)
    elif dt == BF16:
        nb = c32 << 16                         # bits kept, no quieting
    elif dt == E5M2:
        # quiet bit (bit 1 of the byte) set, then f16 -> f32 (payload << 13)
        nb = ((c32 & 0x80) << 24) | 0x7fc00000 | (((c32 & 3) | 2) << 21)
    elif dt == E4M3:
        nb = ((c32 & 0x80) << 24) | 0x7fc00000
    elif dt == E8M0:
        nb = np.full(c32.shape, 0xffc00000, np.uint32)
    else:
        nb = out
    return np.where(nan, nb, out).astype(np.uint32).view(np.float32)


def _int_to_f32(v):
    """Exact round-half-even of a Python int to f32 (value as float)."""
    if v == 0:
        return 0.0
    a = abs(v)
    shift = max(a.bit_length() - 24, 0)
    q, r = divmod(a, 1 << shift)
    half = (1 << shift) >> 1
    if shift and (r > half or (r == half and q & 1)):
        q += 1
    return float(np.float32(q * 2.0 ** shift)) * (1 if v > 0 else -1)


# --------------------------------------------------------------- encoding

def _rne_magnitude(a, mags, codes, ties="even"):
    """Index into ``codes`` of the nearest of the sorted ``mags`` to each
    |value| in ``a`` (float64, non-negative, no NaN); beyond the last
    magnitude -> the last code."""
    mids = (mags[:-1] + mags[1:]) / 2.0        # exact: one more bit
    i = np.searchsorted(mids, a, side="left")  # mids[i-1] < a <= mids[i]
    j = np.minimum(i, len(mids) - 1)
    tie = (i < len(mids)) & (a == mids[j])
    if ties == "even":
        up = tie & (codes[j] % 2 == 1)
    else:                                      # "up, except the first tie"
        up = tie & (j > 0)
    return codes[np.where(up, i + 1, i)]


def _positive_table(dt):
    """(magnitudes ascending, their codes) of the non-negative finite codes
    of ``dt`` plus the virtual overflow code described in the module doc."""
    e_bits, m_bits, _ = _FMT[dt]
    half = 1 << (e_bits + m_bits)
    vals = code_values(dt)[:half]
    codes = np.arange(half)
    keep = np.isfinite(vals)
    mags, codes = vals[keep], codes[keep]
    if dt in (F16, BF16, E5M2):              # inf at 2^(emax + 1)
        mags = np.append(mags, 2.0 * 2.0 ** np.floor(np.log2(mags[-1])))
        codes = np.append(codes, half - (1 << m_bits))
    elif dt == E4M3:                         # NaN 0x7f where 1.875*2^8 would be
        mags = np.append(mags, 480.0)
        codes = np.append(codes, 0x7f)
    return mags, codes


def _sign(x32):
    return (np.asarray(x32, np.float32).view(np.uint32) >> 31).astype(np.int64)


def _round_float(x32, dt):
    """Codes of the nearest ``dt`` value to the finite-or-inf f32 ``x32``
    (NaN entries give garbage; callers overwrite them)."""
    e_bits, m_bits, _ = _FMT[dt]
    mags, codes = _positive_table(dt)
    a = np.abs(np.asarray(x32, np.float64))
    a = np.where(np.isnan(a), 0.0, a)
    ties = "first-down" if dt == F4_E3M0 else "even"
    mag_code = _rne_magnitude(a, mags, codes, ties)
    return mag_code | (_sign(x32) << (e_bits + m_bits))


def encode(values, dt):
    with np.errstate(invalid="ignore", over="ignore"):
        return _encode(values, dt)


def _encode(values, dt):
    """Raw codes of f32 ``values`` converted to ``dt``."""
    x = np.asarray(values, np.float32)
    u = x.view(np.uint32).astype(np.int64)
    nan = np.isnan(x)
    if dt == F32:
        return x.copy()
    if dt == F64:
        return x.astype(np.float64)
    if dt in INT_BOUNDS:
        lo, hi = INT_BOUNDS[dt]
        v = np.rint(np.clip(np.where(nan, 0.0, x.astype(np.float64)), lo, hi))
        if dt in (S4, U4):
            return (v.astype(np.int64) & 15).astype(np.uint8)
        return v.astype(_CODE_DTYPE[dt])
    if dt == E8M0:
        a = np.abs(x.astype(np.float64))
        _, e = np.frexp(a)                     # a = m * 2^e, m in [0.5, 1)
        code = np.where(a < 2.0 ** -126, 0, e - 1 + 127)
        code = np.where(np.isfinite(x), code, 255)
        return code.astype(np.uint8)
    if dt == F16:
        code = _round_float(x, F16)
        nan_code = ((u >> 16) & 0x8000) | 0x7e00 | ((u >> 13) & 0x3ff)
        return np.where(nan, nan_code, code).astype(np.uint16)
    if dt == BF16:
        code = _round_float(x, BF16)
        return np.where(nan, (u >> 16) | 0x40, code).astype(np.uint16)
    if dt in (E5M2, E4M3):
        h = _encode(x, F16).astype(np.int64)   # first rounding
        hv = decode(h, F16)                    # exact f16 value (or NaN)
        code = _round_float(hv, dt)            # second rounding
        hnan = np.isnan(hv)
        if dt == E5M2:
            nan_code = (h >> 8) | 0x02
        else:
            nan_code = ((h >> 8) & 0x80) | 0x7f
        return np.where(hnan, nan_code, code).astype(np.uint8)
    if dt in (F4_E2M1, F4_E3M0):
        code = _round_float(x, dt)             # inf saturates to the top
        nan_code = (_sign(x) << 3) | 7
        return np.where(nan, nan_code, code).astype(np.uint8)
    raise ValueError("no conversion for data type %r" % (dt,))


# ------------------------------------------------------------ raw buffers

def pack_nibbles(nibbles):
    """Two 4-bit codes per byte, element 2k in the LOW nibble of byte k
    a final odd high nibble is 0."""
    n = [int(v) & 15 for v in np.asarray(nibbles).ravel()]
    if len(n) % 2:
        n.append(0)
    return np.array([lo | (hi << 4) for lo, hi in zip(n[0::2], n[1::2])],
                    np.uint8)


def unpack_nibbles(buf, n):
    b = np.frombuffer(bytes(buf), np.uint8)
    return np.array([(b[i // 2] >> (4 * (i % 2))) & 15 for i in range(n)],
                    np.uint8)


def to_bytes(codes, dt):
    """Raw memory bytes (uint8 array) of ``codes``."""
    if dt in SUB_BYTE:
        return pack_nibbles(codes)
    return np.ascontiguousarray(np.asarray(codes, _CODE_DTYPE[dt])).view(np.uint8)


def from_bytes(buf, dt, n):
    """Codes of the first ``n`` elements of a raw buffer."""
    if dt in SUB_BYTE:
        return unpack_nibbles(buf, n)
    return np.frombuffer(bytes(buf), _CODE_DTYPE[dt])[:n].copy()


def convert(values, dt):
    """Round trip value view: f32 ``values`` -> ``dt`` -> f32."""
    return decode(encode(values, dt), dt)


# ------------------------------------------------------------ test inputs

def edge_values(n_random=20000, seed=0):
    """float32 array of values that exercise every conversion: +/-0, f32
    subnormals, NaNs (quiet, signalling, negative, with payloads), +/-inf,
    every f16 and bf16 value, the midpoint between consecutive values of
    every float format and its f32 neighbours, integer halves, values around
    every saturation bound, huge values, and random bit patterns."""
    bits = [np.array([0x00000000, 0x80000000, 0x00000001, 0x80000001,
                      0x00400000, 0x007fffff, 0x807fffff, 0x00018000,
                      0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f7f7fff,
                      0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
                      0x7fc00001, 0x7f800001, 0xff800001, 0x7fa00000,
                      0x7fffffff, 0xffffffff, 0x4effffff, 0x4f000000,
                      0xcf000000, 0xcf000001, 0x5effffff, 0x5f000000],
                     np.uint32)]
    c16 = np.arange(1 << 16, dtype=np.uint32)
    bits.append(c16 << 16)                                   # every bf16
    bits.append(decode(c16, F16)[~_is_nan_code(c16, F16)].view(np.uint32))
    for dt in (F16, BF16, E5M2, E4M3, F4_E2M1, F4_E3M0):
        mags, _ = _positive_table(dt)
        mid = ((mags[:-1] + mags[1:]) / 2.0).astype(np.float32).view(np.uint32)
        for m in (mid, mid | 0x80000000):
            bits += [m, m + 1, m - 1]
    e8 = (np.arange(1, 255, dtype=np.uint32) << 23)
    bits += [e8, e8 - 1, e8 | 0x80000000]
    half = np.arange(-600, 601) / 2.0
    bounds = []
    for lo, hi in INT_BOUNDS.values():
        for b in (lo, hi):
            bounds += [b - 1, b - 0.5, b, b + 0.5, b + 1]
    big = [2.0 ** 31, 2.0 ** 31 - 64, 2.0 ** 31 - 192, 3e9, -3e9, 2.0 ** 24 + 1,
           2.0 ** 24 + 3, 2.0 ** 23 + 0.5, 2.0 ** 22 + 0.5, 2.0 ** 63, 1e19,
           -1e19, 1e30, -1e30, 65504, 65519.99, 65520, 57344, 61439, 61440,
           448, 464, 464.5, 480, 1e6, 6.0, 6.5, 7.0, 16.0, 17.0, 1.0625 + 2 ** -13,
           1.125 + 2 ** -13]
    vals = np.concatenate([half, np.array(bounds + big, np.float64)])
    vals = np.concatenate([vals, -vals]).astype(np.float32)
    bits.append(vals.view(np.uint32))
    rng = np.random.default_rng(seed)
    bits.append(rng.integers(0, 1 << 32, n_random, dtype=np.uint64).astype(np.uint32))
    bits.append((rng.standard_normal(n_random) * 300).astype(np.float32).view(np.uint32))
    return np.concatenate([b.astype(np.uint32) for b in bits]).view(np.float32)
