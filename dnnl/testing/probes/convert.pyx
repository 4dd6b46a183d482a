# cython: language_level=3
"""Vectorised data type conversions through f32 (GIL released).

Thin Python-callable loops over the inline helpers of ``cvt.pxd``; used by
memory logical views and by the tests. Buffers are anything exposing a
C-contiguous buffer (numpy arrays of any dtype, bytes, bytearray); element
``i`` of a buffer of type ``dt`` is at element offset ``i`` (for s4 / u4 /
f4 types: byte ``i // 2``, low nibble when ``i`` is even).

Data types are the ``dnnl_data_type_t`` codes (ints or the ``data_type``
IntEnum; strings such as ``"bf16"`` are accepted too).
"""
import numpy as np

from libc.stdint cimport int64_t, uint8_t

from dnnl._kernels.cvt cimport (decode_run, dt_sub_byte, dt_supported,
                                encode_run, load_f32, store_f32)

DEF CHUNK = 1024

# element sizes: the one table, dnnl._core.dtypes (dnnl_data_type_size's answers)
from dnnl._core.dtypes import SIZE as _SIZES, SUB_BYTE as _SUB_BYTE, as_data_type


def _dt(dt):
    """dnnl_data_type_t code of ``dt``; ValueError if no conversion exists."""
    if isinstance(dt, str):
        dt = as_data_type(dt)
    code = int(dt)
    if not dt_supported(code):
        raise ValueError("no f32 conversion for data type %d" % code)
    return code


def nbytes(dt, Py_ssize_t n):
    """Bytes holding ``n`` elements of ``dt`` (sub-byte: ceil(n / 2))."""
    code = _dt(dt)
    if code in _SUB_BYTE:
        return (n + 1) // 2
    return n * _SIZES[code]


cdef _bytes(obj, bint writable):
    """Flat uint8 view of a C-contiguous buffer (no copy)."""
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ValueError("buffer must be C-contiguous")
        if writable and not obj.flags.writeable:
            raise ValueError("destination buffer is read-only")
        return obj.reshape(-1).view(np.uint8)
    if writable:
        return np.frombuffer(obj, np.uint8)  # raises for read-only buffers
    return np.frombuffer(obj, np.uint8)


def convert(src, src_dt, dst, dst_dt, Py_ssize_t n):
    """Convert ``n`` elements of ``src`` (type ``src_dt``) into ``dst``
    (type ``dst_dt``) through f32, in place: dst element i = f(src element i).

    Neighbouring nibbles of a sub-byte destination are preserved.
    """
    cdef int sdt = _dt(src_dt), ddt = _dt(dst_dt)
    s = _bytes(src, False)
    d = _bytes(dst, True)
    if n < 0 or s.shape[0] < nbytes(sdt, n) or d.shape[0] < nbytes(ddt, n):
        raise ValueError("buffers too small for %d elements" % n)
    if n == 0:
        return dst
    cdef const uint8_t[::1] sv = s
    cdef uint8_t[::1] dv = d
    cdef const uint8_t* sp = &sv[0]
    cdef uint8_t* dp = &dv[0]
    cdef int64_t i, k
    cdef float tmp[CHUNK]
    with nogil:
        for i in range(0, n, CHUNK):
            k = min(<int64_t>CHUNK, n - i)
            decode_run(sp, i, k, sdt, tmp)
            encode_run(dp, i, k, ddt, tmp)
    return dst


def to_f32(buf, dt, n=None):
    """The first ``n`` elements (default: all) of ``buf`` as a new float32
    array."""
    cdef int code = _dt(dt)
    s = _bytes(buf, False)
    if n is None:
        n = s.shape[0] * 2 if dt_sub_byte(code) else s.shape[0] // _SIZES[code]
    cdef Py_ssize_t count = n
    if count < 0 or s.shape[0] < nbytes(code, count):
        raise ValueError("buffer too small for %d elements" % count)
    out = np.empty(count, np.float32)
    if count == 0:
        return out
    cdef const uint8_t[::1] sv = s
    cdef float[::1] ov = out
    cdef const uint8_t* sp = &sv[0]
    with nogil:
        decode_run(sp, 0, count, code, &ov[0])
    return out


def from_f32(values, dt):
    """Encode float32 ``values`` (flattened, C order) as ``dt``; returns the
    raw bytes as a uint8 array (sub-byte types packed, a final odd high
    nibble is 0)."""
    cdef int code = _dt(dt)
    v = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    cdef Py_ssize_t count = v.shape[0]
    out = np.zeros(nbytes(code, count), np.uint8)
    if count == 0:
        return out
    cdef const float[::1] vv = v
    cdef uint8_t[::1] ov = out
    cdef uint8_t* op = &ov[0]
    with nogil:
        encode_run(op, 0, count, code, &vv[0])
    return out


def _offsets(offsets):
    o = np.ascontiguousarray(offsets, dtype=np.int64).reshape(-1)
    if o.shape[0] and o.min() < 0:
        raise ValueError("negative element offset")
    return o


def gather_f32(buf, dt, offsets):
    """float32 array of the elements at element ``offsets`` of ``buf``."""
    cdef int code = _dt(dt)
    s = _bytes(buf, False)
    o = _offsets(offsets)
    cdef Py_ssize_t count = o.shape[0]
    out = np.empty(count, np.float32)
    if count == 0:
        return out
    if s.shape[0] < nbytes(code, int(o.max()) + 1):
        raise ValueError("element offset out of range")
    cdef const uint8_t[::1] sv = s
    cdef const int64_t[::1] ovw = o
    cdef float[::1] rv = out
    cdef const uint8_t* sp = &sv[0]
    cdef int64_t i
    with nogil:
        for i in range(count):
            rv[i] = load_f32(sp, ovw[i], code)
    return out


def scatter_f32(buf, dt, offsets, values):
    """Store float32 ``values`` as ``dt`` at element ``offsets`` of ``buf``
    (in order; other bytes and nibbles untouched)."""
    cdef int code = _dt(dt)
    d = _bytes(buf, True)
    o = _offsets(offsets)
    v = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    if v.shape[0] != o.shape[0]:
        raise ValueError("offsets and values differ in length")
    cdef Py_ssize_t count = o.shape[0]
    if count == 0:
        return buf
    if d.shape[0] < nbytes(code, int(o.max()) + 1):
        raise ValueError("element offset out of range")
    cdef uint8_t[::1] dv = d
    cdef const int64_t[::1] ovw = o
    cdef const float[::1] vv = v
    cdef uint8_t* dp = &dv[0]
    cdef int64_t i
    with nogil:
        for i in range(count):
            store_f32(dp, ovw[i], code, vv[i])
    return buf


def pack(nibbles):
    """Pack 4-bit values (their low 4 bits) two per byte, element 2k in the
    low nibble of byte k; an odd final high nibble is 0."""
    a = np.ascontiguousarray(nibbles).reshape(-1).astype(np.uint8) & 0xF
    out = np.zeros((a.shape[0] + 1) // 2, np.uint8)
    out |= a[0::2]
    out[: a.shape[0] // 2] |= a[1::2] << 4
    return out


def unpack(packed, Py_ssize_t n, bint signed=False):
    """The first ``n`` nibbles of ``packed``: uint8 0..15, or int8 -8..7 when
    ``signed`` (s4)."""
    b = _bytes(packed, False)
    if n < 0 or b.shape[0] < (n + 1) // 2:
        raise ValueError("buffer too small for %d nibbles" % n)
    out = np.empty(2 * ((n + 1) // 2), np.uint8)
    out[0::2] = b[: (n + 1) // 2] & 0xF
    out[1::2] = b[: (n + 1) // 2] >> 4
    out = out[:n]
    if signed:
        return (out.astype(np.int8) ^ 8) - 8
    return out
