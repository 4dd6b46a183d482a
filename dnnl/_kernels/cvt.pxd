# cython: language_level=3
"""Data type conversions: every oneDNN data type to and from f32.

Inline ``nogil`` helpers shared by every kernel (``cimport`` them; nothing
here needs the GIL or Python objects). The semantics are those of oneDNN
3.13's reference reorder (``simple:any``; oneDNN's src/common/float16.hpp,
bfloat16.hpp, float8.cpp, float4.cpp, int4.hpp and src/cpu/simple_q10n.hpp):

decode (raw -> f32), all exact except s32/s64/f64 (RNE, C cast):
  f16     IEEE half; NaN keeps its payload (<< 13) with the quiet bit forced
  bf16    bits << 16, nothing else (a signalling NaN stays signalling)
  f8_e5m2 byte is the high byte of an f16; a signalling NaN gets the quiet
          bit first (0x7d -> 0x7fe00000)
  f8_e4m3 0x7f / 0xff -> +/-qNaN 0x7fc00000 / 0xffc00000; no inf
  e8m0    exponent field only: 0x00 -> 2^-127 (0x00400000), 0xff ->
          0xffc00000 (negative quiet NaN)
  f4_e2m1 {0, .5, 1, 1.5, 2, 3, 4, 6} with sign (0x8 is -0.0)
  s4/u4   nibble value, s4 two's complement
encode (f32 -> raw):
  integers  NaN -> 0; saturate in f32 to [lo, hi] first, then round half to
            even (default MXCSR mode). s32 hi is 2147483520.0 (0x4effffff):
            f32 >= 2147483520 gives 2147483520, never 2147483647.
  bf16      RNE on the bit pattern (subnormals rounded like any value, as
            the measured AVX-512 JIT path), overflow -> inf, NaN -> high
            half | 0x0040
  f16       IEEE RNE with gradual underflow, overflow -> inf, NaN -> payload
            top bits | 0x200
  f8_e5m2   f32 -> f16 (RNE) -> e5m2 (RNE on the f16 pattern): double
            rounding; overflow -> inf; NaN -> high byte | 0x02
  f8_e4m3   f32 -> f16 (RNE) -> e4m3: |f16| > 464 (also inf, NaN) -> 0x7f
            with the input sign (overflow gives NaN, not saturation);
            |f16| <= 2^-10 -> signed zero; else RNE with subnormals
  e8m0      the biased exponent field of the f32 (sign and mantissa dropped)
  f4_e2m1   nearest, ties to even code, saturate at 6; NaN/inf -> +/-6
  f4_e3m0   (cannot appear in a 3.13 memory descriptor; float4.cpp rule)
            nearest, tie 0.125 -> 0, other ties up, saturate at 16
These functions keep IEEE -0.0 and NaN payloads wherever the rule allows;
the reference reorder's +0.0 artefact (it always adds zp_dst) belongs to
the reorder kernel, not to the conversion.

f64 and s64 (no oneDNN CPU reorder exists for them, src/cpu/reorder/cpu_reorder.cpp;
these helpers let logical views and generic kernels touch them):
  f64  decode: C double -> float (RNE, overflow -> inf); encode: exact.
  s64  decode: C int64 -> float (RNE); encode like s32: NaN -> 0, saturate
       to [-2^63, 2^63 - 2^39] (the largest f32 below 2^63), RNE.
boolean and other codes: load_f32 returns NaN and store_f32 does nothing;
callers validate data types before any kernel runs.

Sub-byte types (s4, u4, f4_e2m1, f4_e3m0) are addressed by *element*
offset: byte ``off >> 1``, even offsets in the LOW nibble (bits 0-3), odd
offsets in the high nibble. Storing one nibble preserves the other.

Speed: the per-type ``f32_to_X`` / ``X_to_f32`` and ``ld_X`` / ``st_X``
functions are branch-light (integer encoders are branch-free and
vectorise); ``decode_run`` / ``encode_run`` convert a contiguous run with
one type switch outside a tight loop. Kernels should pick the type outside
their loops (``load_f32`` / ``store_f32`` switch on ``dt`` per call; gcc -O3
usually unswitches loop-invariant dispatch, but do not rely on it in the
hottest loops). Loads and stores go through memcpy, so buffers need not be
aligned.
"""
from libc.stdint cimport (int8_t, int32_t, int64_t, uint8_t, uint16_t,
                          uint32_t, uint64_t)
from libc.string cimport memcpy

from dnnl._kernels.dnnl_types cimport (
    dnnl_f16, dnnl_bf16, dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_f64,
    dnnl_f8_e5m2, dnnl_f8_e4m3, dnnl_s4, dnnl_u4, dnnl_e8m0, dnnl_f4_e2m1,
    dnnl_f4_e3m0, dnnl_s64)


# ---------------------------------------------------------------- bit casts

cdef inline uint32_t f32_bits(float x) noexcept nogil:
    cdef uint32_t u
    memcpy(&u, &x, 4)
    return u


cdef inline float bits_f32(uint32_t u) noexcept nogil:
    cdef float x
    memcpy(&x, &u, 4)
    return x


# --------------------------------------------------------- decode to f32

cdef inline float f16_to_f32(uint16_t h) noexcept nogil:
    cdef uint32_t sign = (<uint32_t>h & 0x8000u) << 16
    cdef uint32_t e = (<uint32_t>h >> 10) & 0x1fu
    cdef uint32_t m = <uint32_t>h & 0x3ffu
    cdef float v
    if e == 0x1fu:
        if m != 0:
            return bits_f32(sign | 0x7fc00000u | (m << 13))
        return bits_f32(sign | 0x7f800000u)
    if e == 0:
        # subnormal (or zero): m * 2^-24, exact in f32
        v = <float>m * <float>5.9604644775390625e-08
        return bits_f32(sign | f32_bits(v))
    return bits_f32(sign | ((e + 112u) << 23) | (m << 13))


cdef inline float bf16_to_f32(uint16_t b) noexcept nogil:
    return bits_f32(<uint32_t>b << 16)


cdef inline float e5m2_to_f32(uint8_t b) noexcept nogil:
    cdef uint16_t h = <uint16_t>(<uint32_t>b << 8)
    if (h & 0x7fffu) > 0x7c00u:
        h = h | 0x0200u           # quiet a signalling NaN
    return f16_to_f32(h)


cdef inline float e4m3_to_f32(uint8_t b) noexcept nogil:
    cdef uint32_t sign = (<uint32_t>b & 0x80u) << 24
    cdef uint32_t e = (<uint32_t>b >> 3) & 0xfu
    cdef uint32_t m = <uint32_t>b & 0x7u
    cdef float v
    if e == 0xfu and m == 0x7u:
        return bits_f32(sign | 0x7fc00000u)
    if e == 0:
        v = <float>m * <float>0.001953125     # m * 2^-9, exact
        return bits_f32(sign | f32_bits(v))
    return bits_f32(sign | ((e + 120u) << 23) | (m << 20))


cdef inline float e8m0_to_f32(uint8_t b) noexcept nogil:
    if b == 0xffu:
        return bits_f32(0xffc00000u)
    if b == 0:
        return bits_f32(0x00400000u)   # 2^-127, an f32 subnormal
    return bits_f32(<uint32_t>b << 23)


cdef inline float f4_e2m1_to_f32(uint8_t nib) noexcept nogil:
    """Low 4 bits of ``nib``: s.ee.m, bias 1."""
    cdef uint32_t sign = (<uint32_t>nib & 0x8u) << 28
    cdef uint32_t e = (<uint32_t>nib >> 1) & 0x3u
    cdef uint32_t m = <uint32_t>nib & 0x1u
    if e == 0:
        return bits_f32(sign | (m * 0x3f000000u))    # 0 or 0.5
    return bits_f32(sign | ((e + 126u) << 23) | (m << 22))


cdef inline float f4_e3m0_to_f32(uint8_t nib) noexcept nogil:
    """Low 4 bits of ``nib``: s.eee, bias 3; code 1 is 0.25 (2^-2)."""
    cdef uint32_t sign = (<uint32_t>nib & 0x8u) << 28
    cdef uint32_t e = <uint32_t>nib & 0x7u
    if e == 0:
        return bits_f32(sign)
    return bits_f32(sign | ((e + 124u) << 23))


cdef inline float s4_to_f32(uint8_t nib) noexcept nogil:
    cdef int32_t n = <int32_t>(nib & 0xfu)
    return <float>(n - ((n & 0x8) << 1))


cdef inline float u4_to_f32(uint8_t nib) noexcept nogil:
    return <float>(nib & 0xfu)


cdef inline float s32_to_f32(int32_t v) noexcept nogil:
    return <float>v            # RNE: 16777217 -> 16777216


cdef inline float s64_to_f32(int64_t v) noexcept nogil:
    return <float>v


cdef inline float f64_to_f32(double v) noexcept nogil:
    return <float>v


# ------------------------------------------------------- encode from f32

cdef inline float _rne_small(float x) noexcept nogil:
    """Round half to even (the current rounding mode, like nearbyintf) for
    |x| <= 2^22, by the 1.5 * 2^23 trick: no libm call, vectorisable.
    Larger |x| come back within 2 of x (still beyond any 4/8-bit bound),
    +/-inf and NaN unchanged."""
    return (x + <float>12582912.0) - <float>12582912.0


cdef inline float _rne_any(float x) noexcept nogil:
    """Round half to even for any x (|x| >= 2^23 is already integral)."""
    cdef float c = bits_f32(0x4b000000u | (f32_bits(x) & 0x80000000u))
    cdef float r = (x + c) - c
    return r if (x < <float>8388608.0 and x > <float>-8388608.0) else x


# Integer targets. The spec's order is "saturate, then round half to even";
# because every bound is an integer and rounding is monotonic, rounding
# first and saturating second gives identical results, and compiles to
# branch-free (vectorisable) code. NaN -> 0 (selected last).

cdef inline int8_t f32_to_s8(float x) noexcept nogil:
    cdef float r = _rne_small(x)
    r = <float>-128.0 if r < <float>-128.0 else r
    r = <float>127.0 if r > <float>127.0 else r
    r = r if x == x else <float>0.0
    return <int8_t><int32_t>r


cdef inline uint8_t f32_to_u8(float x) noexcept nogil:
    cdef float r = _rne_small(x)
    r = <float>0.0 if r < <float>0.0 else r
    r = <float>255.0 if r > <float>255.0 else r
    r = r if x == x else <float>0.0
    return <uint8_t><int32_t>r


cdef inline int32_t f32_to_s32(float x) noexcept nogil:
    """Bounds [-2^31, 2147483520.0]: f32 >= 2147483520 gives 2147483520."""
    cdef float r = _rne_any(x)
    r = <float>-2147483648.0 if r < <float>-2147483648.0 else r
    r = <float>2147483520.0 if r > <float>2147483520.0 else r
    r = r if x == x else <float>0.0
    return <int32_t>r


cdef inline int64_t f32_to_s64(float x) noexcept nogil:
    """Bounds [-2^63, 2^63 - 2^39] (the largest f32 below 2^63)."""
    cdef float r = _rne_any(x)
    r = (<float>-9223372036854775808.0 if r < <float>-9223372036854775808.0
         else r)
    r = (<float>9223371487098961920.0 if r > <float>9223371487098961920.0
         else r)
    r = r if x == x else <float>0.0
    return <int64_t>r


cdef inline uint8_t f32_to_s4(float x) noexcept nogil:
    """Nibble (low 4 bits) of the saturated, rounded value in [-8, 7]."""
    cdef float r = _rne_small(x)
    r = <float>-8.0 if r < <float>-8.0 else r
    r = <float>7.0 if r > <float>7.0 else r
    r = r if x == x else <float>0.0
    return <uint8_t>(<int32_t>r & 0xf)


cdef inline uint8_t f32_to_u4(float x) noexcept nogil:
    cdef float r = _rne_small(x)
    r = <float>0.0 if r < <float>0.0 else r
    r = <float>15.0 if r > <float>15.0 else r
    r = r if x == x else <float>0.0
    return <uint8_t><int32_t>r


cdef inline double f32_to_f64(float x) noexcept nogil:
    return <double>x


cdef inline uint16_t f32_to_bf16(float x) noexcept nogil:
    # A select, not a branch, so that loops over it vectorise.
    cdef uint32_t u = f32_bits(x)
    cdef uint32_t rne = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16
    cdef uint32_t nan = (u >> 16) | 0x0040u
    return <uint16_t>(nan if (u & 0x7fffffffu) > 0x7f800000u else rne)


cdef inline uint16_t f32_to_f16(float x) noexcept nogil:
    cdef uint32_t u = f32_bits(x)
    cdef uint32_t sign = (u >> 16) & 0x8000u
    cdef uint32_t a = u & 0x7fffffffu
    cdef uint32_t e, mant, shift
    if a >= 0x47800000u:                       # >= 65536, inf, NaN
        if a > 0x7f800000u:
            return <uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu))
        return <uint16_t>(sign | 0x7c00u)
    if a >= 0x38800000u:                       # f16 normal range
        # drop 13 bits with RNE; a carry may reach the next binade or inf
        return <uint16_t>(sign | (((a + 0xfffu + ((a >> 13) & 1u)) >> 13)
                                  - 0x1c000u))
    e = a >> 23
    if e < 102u:                               # < 2^-25: rounds to zero
        return <uint16_t>sign
    # f16 subnormal: round M * 2^(e-126) to an integer count of 2^-24
    mant = (a & 0x7fffffu) | 0x800000u
    shift = 126u - e                           # 14 .. 24
    return <uint16_t>(sign | ((mant + ((1u << (shift - 1u)) - 1u)
                               + ((mant >> shift) & 1u)) >> shift))


cdef inline uint8_t f16_to_e5m2(uint16_t h) noexcept nogil:
    """RNE on the f16 pattern, keeping the high byte (overflow -> inf)."""
    cdef uint32_t v = h
    if (v & 0x7fffu) > 0x7c00u:
        return <uint8_t>((v >> 8) | 0x02u)
    return <uint8_t>((v + 0x7fu + ((v >> 8) & 1u)) >> 8)


cdef inline uint8_t f16_to_e4m3(uint16_t h) noexcept nogil:
    cdef uint32_t v = h
    cdef uint32_t sign = (v >> 8) & 0x80u
    cdef uint32_t a = v & 0x7fffu
    cdef uint32_t e, shift, mant
    if a > 0x5f40u:                # |x| > 464, inf, NaN: NaN code
        return <uint8_t>(sign | 0x7fu)
    if a <= 0x1400u:               # |x| <= 2^-10: signed zero
        return <uint8_t>sign
    e = a >> 10                    # f16 biased exponent, 5 .. 23
    if e >= 9u:                    # e4m3 normal: rebias 15 -> 7, RNE 7 bits
        return <uint8_t>(sign | (((a + 0x3fu + ((a >> 7) & 1u)) >> 7)
                                 - 0x40u))
    # e4m3 subnormal: count of 2^-9 = M16 * 2^(e - 16)
    mant = (a & 0x3ffu) | 0x400u
    shift = 16u - e                # 8 .. 11
    return <uint8_t>(sign | ((mant + ((1u << (shift - 1u)) - 1u)
                              + ((mant >> shift) & 1u)) >> shift))


cdef inline uint8_t f32_to_e5m2(float x) noexcept nogil:
    return f16_to_e5m2(f32_to_f16(x))


cdef inline uint8_t f32_to_e4m3(float x) noexcept nogil:
    return f16_to_e4m3(f32_to_f16(x))


cdef inline uint8_t f32_to_e8m0(float x) noexcept nogil:
    return <uint8_t>((f32_bits(x) >> 23) & 0xffu)


cdef inline uint8_t f32_to_f4_e2m1(float x) noexcept nogil:
    """Nibble: nearest of {0,.5,1,1.5,2,3,4,6}, ties to the even code."""
    cdef uint8_t sign = <uint8_t>((f32_bits(x) >> 28) & 0x8u)
    cdef float a = bits_f32(f32_bits(x) & 0x7fffffffu)
    cdef uint8_t c
    if a <= <float>0.25:
        c = 0
    elif a < <float>0.75:
        c = 1
    elif a <= <float>1.25:
        c = 2
    elif a < <float>1.75:
        c = 3
    elif a <= <float>2.5:
        c = 4
    elif a < <float>3.5:
        c = 5
    elif a <= <float>5.0:
        c = 6
    else:                          # > 5, inf, NaN
        c = 7
    return sign | c


cdef inline uint8_t f32_to_f4_e3m0(float x) noexcept nogil:
    """Nibble: nearest of {0,.25,.5,1,2,4,8,16}; 0.125 -> 0, ties up."""
    cdef uint8_t sign = <uint8_t>((f32_bits(x) >> 28) & 0x8u)
    cdef float a = bits_f32(f32_bits(x) & 0x7fffffffu)
    cdef uint8_t c
    if a <= <float>0.125:
        c = 0
    elif a < <float>0.375:
        c = 1
    elif a < <float>0.75:
        c = 2
    elif a < <float>1.5:
        c = 3
    elif a < <float>3.0:
        c = 4
    elif a < <float>6.0:
        c = 5
    elif a < <float>12.0:
        c = 6
    else:                          # >= 12, inf, NaN
        c = 7
    return sign | c


# ------------------------------------------------- typed loads and stores
# ``off`` is an element index from ``base`` (for nibble types it selects
# byte off >> 1 and the low nibble when off is even).

cdef inline uint8_t get_nibble(const uint8_t* base, int64_t off) noexcept nogil:
    return (base[off >> 1] >> ((off & 1) << 2)) & 0xfu


cdef inline void set_nibble(uint8_t* base, int64_t off, uint8_t v) noexcept nogil:
    cdef int sh = <int>((off & 1) << 2)
    cdef uint8_t* p = base + (off >> 1)
    p[0] = <uint8_t>((p[0] & ~(0xfu << sh)) | ((v & 0xfu) << sh))


cdef inline float ld_f32(const uint8_t* base, int64_t off) noexcept nogil:
    cdef float v
    memcpy(&v, base + off * 4, 4)
    return v


cdef inline void st_f32(uint8_t* base, int64_t off, float v) noexcept nogil:
    memcpy(base + off * 4, &v, 4)


cdef inline uint16_t ld_u16(const uint8_t* base, int64_t off) noexcept nogil:
    cdef uint16_t v
    memcpy(&v, base + off * 2, 2)
    return v


cdef inline void st_u16(uint8_t* base, int64_t off, uint16_t v) noexcept nogil:
    memcpy(base + off * 2, &v, 2)


cdef inline int32_t ld_s32(const uint8_t* base, int64_t off) noexcept nogil:
    cdef int32_t v
    memcpy(&v, base + off * 4, 4)
    return v


cdef inline void st_s32(uint8_t* base, int64_t off, int32_t v) noexcept nogil:
    memcpy(base + off * 4, &v, 4)


cdef inline double ld_f64(const uint8_t* base, int64_t off) noexcept nogil:
    cdef double v
    memcpy(&v, base + off * 8, 8)
    return v


cdef inline void st_f64(uint8_t* base, int64_t off, double v) noexcept nogil:
    memcpy(base + off * 8, &v, 8)


cdef inline int64_t ld_s64(const uint8_t* base, int64_t off) noexcept nogil:
    cdef int64_t v
    memcpy(&v, base + off * 8, 8)
    return v


cdef inline void st_s64(uint8_t* base, int64_t off, int64_t v) noexcept nogil:
    memcpy(base + off * 8, &v, 8)


# ------------------------------------------------------------ dispatchers

cdef inline bint dt_supported(int dt) noexcept nogil:
    """True for the codes load_f32 / store_f32 handle."""
    return (dt == dnnl_f32 or dt == dnnl_f16 or dt == dnnl_bf16
            or dt == dnnl_s32 or dt == dnnl_s8 or dt == dnnl_u8
            or dt == dnnl_f64 or dt == dnnl_s64 or dt == dnnl_f8_e5m2
            or dt == dnnl_f8_e4m3 or dt == dnnl_e8m0 or dt == dnnl_s4
            or dt == dnnl_u4 or dt == dnnl_f4_e2m1 or dt == dnnl_f4_e3m0)


cdef inline bint dt_sub_byte(int dt) noexcept nogil:
    return (dt == dnnl_s4 or dt == dnnl_u4 or dt == dnnl_f4_e2m1
            or dt == dnnl_f4_e3m0)


cdef inline float load_f32(const uint8_t* base, int64_t off, int dt) noexcept nogil:
    """Element ``off`` of a ``dt`` buffer, widened to f32."""
    if dt == dnnl_f32:
        return ld_f32(base, off)
    elif dt == dnnl_bf16:
        return bf16_to_f32(ld_u16(base, off))
    elif dt == dnnl_f16:
        return f16_to_f32(ld_u16(base, off))
    elif dt == dnnl_s8:
        return <float>(<const int8_t*>base)[off]
    elif dt == dnnl_u8:
        return <float>base[off]
    elif dt == dnnl_s32:
        return s32_to_f32(ld_s32(base, off))
    elif dt == dnnl_f8_e5m2:
        return e5m2_to_f32(base[off])
    elif dt == dnnl_f8_e4m3:
        return e4m3_to_f32(base[off])
    elif dt == dnnl_e8m0:
        return e8m0_to_f32(base[off])
    elif dt == dnnl_s4:
        return s4_to_f32(get_nibble(base, off))
    elif dt == dnnl_u4:
        return u4_to_f32(get_nibble(base, off))
    elif dt == dnnl_f4_e2m1:
        return f4_e2m1_to_f32(get_nibble(base, off))
    elif dt == dnnl_f4_e3m0:
        return f4_e3m0_to_f32(get_nibble(base, off))
    elif dt == dnnl_f64:
        return f64_to_f32(ld_f64(base, off))
    elif dt == dnnl_s64:
        return s64_to_f32(ld_s64(base, off))
    return bits_f32(0x7fc00000u)


cdef inline void store_f32(uint8_t* base, int64_t off, int dt, float v) noexcept nogil:
    """Convert ``v`` to ``dt`` and store it as element ``off``."""
    if dt == dnnl_f32:
        st_f32(base, off, v)
    elif dt == dnnl_bf16:
        st_u16(base, off, f32_to_bf16(v))
    elif dt == dnnl_f16:
        st_u16(base, off, f32_to_f16(v))
    elif dt == dnnl_s8:
        (<int8_t*>base)[off] = f32_to_s8(v)
    elif dt == dnnl_u8:
        base[off] = f32_to_u8(v)
    elif dt == dnnl_s32:
        st_s32(base, off, f32_to_s32(v))
    elif dt == dnnl_f8_e5m2:
        base[off] = f32_to_e5m2(v)
    elif dt == dnnl_f8_e4m3:
        base[off] = f32_to_e4m3(v)
    elif dt == dnnl_e8m0:
        base[off] = f32_to_e8m0(v)
    elif dt == dnnl_s4:
        set_nibble(base, off, f32_to_s4(v))
    elif dt == dnnl_u4:
        set_nibble(base, off, f32_to_u4(v))
    elif dt == dnnl_f4_e2m1:
        set_nibble(base, off, f32_to_f4_e2m1(v))
    elif dt == dnnl_f4_e3m0:
        set_nibble(base, off, f32_to_f4_e3m0(v))
    elif dt == dnnl_f64:
        st_f64(base, off, f32_to_f64(v))
    elif dt == dnnl_s64:
        st_s64(base, off, f32_to_s64(v))


# ---------------------------------------------- contiguous runs (fast path)
# One branch on dt, then a tight typed loop: use these for contiguous runs
# (inner dimensions of plain layouts, blocks of blocked layouts).

cdef inline void decode_run(const uint8_t* base, int64_t off, int64_t n,
                            int dt, float* out) noexcept nogil:
    """out[i] = element ``off + i`` of ``base`` as f32, for i < n."""
    cdef int64_t i
    if dt == dnnl_f32:
        memcpy(out, base + off * 4, <size_t>n * 4)
    elif dt == dnnl_bf16:
        for i in range(n):
            out[i] = bf16_to_f32(ld_u16(base, off + i))
    elif dt == dnnl_f16:
        for i in range(n):
            out[i] = f16_to_f32(ld_u16(base, off + i))
    elif dt == dnnl_s8:
        for i in range(n):
            out[i] = <float>(<const int8_t*>base)[off + i]
    elif dt == dnnl_u8:
        for i in range(n):
            out[i] = <float>base[off + i]
    elif dt == dnnl_s32:
        for i in range(n):
            out[i] = s32_to_f32(ld_s32(base, off + i))
    elif dt == dnnl_f8_e5m2:
        for i in range(n):
            out[i] = e5m2_to_f32(base[off + i])
    elif dt == dnnl_f8_e4m3:
        for i in range(n):
            out[i] = e4m3_to_f32(base[off + i])
    elif dt == dnnl_e8m0:
        for i in range(n):
            out[i] = e8m0_to_f32(base[off + i])
    elif dt == dnnl_s4:
        for i in range(n):
            out[i] = s4_to_f32(get_nibble(base, off + i))
    elif dt == dnnl_u4:
        for i in range(n):
            out[i] = u4_to_f32(get_nibble(base, off + i))
    elif dt == dnnl_f4_e2m1:
        for i in range(n):
            out[i] = f4_e2m1_to_f32(get_nibble(base, off + i))
    else:
        for i in range(n):
            out[i] = load_f32(base, off + i, dt)


cdef inline void encode_run(uint8_t* base, int64_t off, int64_t n, int dt,
                            const float* vals) noexcept nogil:
    """Element ``off + i`` of ``base`` = vals[i] converted to dt, for i < n
    (nibbles outside the run are preserved)."""
    cdef int64_t i
    if dt == dnnl_f32:
        memcpy(base + off * 4, vals, <size_t>n * 4)
    elif dt == dnnl_bf16:
        for i in range(n):
            st_u16(base, off + i, f32_to_bf16(vals[i]))
    elif dt == dnnl_f16:
        for i in range(n):
            st_u16(base, off + i, f32_to_f16(vals[i]))
    elif dt == dnnl_s8:
        for i in range(n):
            (<int8_t*>base)[off + i] = f32_to_s8(vals[i])
    elif dt == dnnl_u8:
        for i in range(n):
            base[off + i] = f32_to_u8(vals[i])
    elif dt == dnnl_s32:
        for i in range(n):
            st_s32(base, off + i, f32_to_s32(vals[i]))
    elif dt == dnnl_f8_e5m2:
        for i in range(n):
            base[off + i] = f32_to_e5m2(vals[i])
    elif dt == dnnl_f8_e4m3:
        for i in range(n):
            base[off + i] = f32_to_e4m3(vals[i])
    elif dt == dnnl_e8m0:
        for i in range(n):
            base[off + i] = f32_to_e8m0(vals[i])
    elif dt == dnnl_s4:
        for i in range(n):
            set_nibble(base, off + i, f32_to_s4(vals[i]))
    elif dt == dnnl_u4:
        for i in range(n):
            set_nibble(base, off + i, f32_to_u4(vals[i]))
    elif dt == dnnl_f4_e2m1:
        for i in range(n):
            set_nibble(base, off + i, f32_to_f4_e2m1(vals[i]))
    else:
        for i in range(n):
            store_f32(base, off + i, dt, vals[i])
