"""The numpy / DLPack side of a memory, below the memory class.

Importing arrays (numpy, ``__dlpack__`` producers, buffers) as numpy views,
describing them by a plain tag, and exporting a memory's buffer
(``memory.array``, ``np.asarray(mem)``, ``__dlpack__``). It imports nothing
above :mod:`dnnl.engine`, so :mod:`dnnl.memory` and :mod:`dnnl.arrays` both
build on it without an import circle.
"""
import ctypes
import sys

import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl._model.desc import desc
from dnnl._core.enums import engine_kind, format_kind, format_tag, status
from dnnl._core.error import dlpack_error, invalid, invalid_arguments
from dnnl._model.engine import engine

_ENGINE = engine(engine_kind.cpu, 0)
_KDLCPU = 1


def default_engine():
    """The CPU engine that the array-level functions put their memories on
    (``dnnl.default_engine()``, also ``dnnl.arrays.default_engine()``).

    Engines compare by identity, as oneDNN's handles: a primitive made for
    memories from :func:`dnnl.memory.from_array` or :func:`dnnl.convert`
    is on this engine, and runs on a stream of this engine, not of another
    ``dnnl.engine(cpu, 0)``.

    Returns
    -------
    dnnl.engine
        One engine for the process.

    Examples
    --------
    >>> import dnnl, numpy as np
    >>> src = dnnl.memory.from_array(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> src.get_engine() is dnnl.default_engine()
    True
    >>> dst = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ba"), dnnl.default_engine())
    >>> dnnl.reorder(src, dst).execute(dnnl.stream(dnnl.default_engine()), src, dst)
    >>> dst.array.tolist()
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    """
    return _ENGINE


# ------------------------------------------------------------------ import
def _via_int_view(x):
    """torch bf16 / f8 / e8m0 tensors (numpy's DLPack import refuses those
    types): import the same bytes as integers and view them as ml_dtypes."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(x, torch.Tensor) or _dtypes.ml_dtypes() is None:
        return None
    try:
        record = _dtypes.BY_CODE[_dtypes.as_data_type(x.dtype)]
    except invalid_arguments:
        return None
    if record.numpy is not None or record.ml_dtypes is None or record.sub_byte:
        return None
    ints = x.view(torch.int16 if record.bits == 16 else torch.uint8)
    return np.from_dlpack(ints).view(_dtypes.numpy_dtype(record.code))


def _lazy_torch_view(x):
    """Whether ``x`` is a torch tensor with a negative or conjugate bit:
    DLPack exports its bytes as they are, without the negation."""
    torch = sys.modules.get("torch")
    return torch is not None and type(x) is torch.Tensor and (x.is_neg() or x.is_conj())


def as_numpy(x):
    """A numpy array sharing ``x``'s memory (never a copy).

    ``x``: a numpy array, a ``__dlpack__`` producer on the CPU (torch, JAX...)
    or an object with the buffer protocol. Anything else raises
    ``dnnl.error`` (invalid arguments).
    """
    if isinstance(x, np.ndarray):
        return x
    if _lazy_torch_view(x):
        raise invalid("this torch tensor is a lazy negative or conjugate view: its bytes are "
                      "not its values, so no memory can share them; pass "
                      "x.resolve_neg().resolve_conj() (a copy)")
    if hasattr(x, "__dlpack__"):
        try:
            return np.from_dlpack(x)
        except Exception as exc:
            try:
                a = _via_int_view(x)
            except Exception:
                a = None
            if a is not None:
                return a
            hint = ""
            if _dtypes.ml_dtypes() is None and any(t in str(getattr(x, "dtype", ""))
                                           for t in ("bfloat16", "float8")):
                hint = ": %s values need ml_dtypes, %s" % (x.dtype, _dtypes.ML_DTYPES_EXTRA)
            raise invalid("cannot import %s through DLPack: %s%s"
                          % (type(x).__name__, exc, hint)) from None
    try:
        return np.asarray(memoryview(x))
    except (TypeError, ValueError, NotImplementedError):
        hint = ""
        if isinstance(x, (list, tuple, int, float)):
            hint = ": a memory shares an array's buffer, pass np.asarray(x) for one"
        elif takes_as_numpy(x):
            hint = (": a memory shares an array's buffer, and numpy may copy this one to "
                    "make an array; pass np.asarray(x) (the array functions, dnnl.convert..., "
                    "take it as it is)")
        raise invalid("expected a numpy array, a buffer or a __dlpack__ producer, "
                      "not %s%s" % (type(x).__name__, hint)) from None


def takes_as_numpy(x):
    """Whether numpy makes an array of ``x`` through its array protocols
    (``__array__``, ``__array_interface__``, ``__array_struct__``: a PIL
    image, an h5py dataset, a pandas frame)."""
    return (hasattr(x, "__array__") or hasattr(x, "__array_interface__")
            or hasattr(x, "__array_struct__"))


def _element_strides(a):
    """Strides of ``a`` in elements (unit dims: 0); negative or misaligned
    strides are refused."""
    out = []
    for n, s in zip(a.shape, a.strides):
        if n == 1:
            out.append(0)
            continue
        if s < 0 or s % a.itemsize:
            raise invalid("strides %s (bytes) are not non-negative multiples of the "
                          "element size %d: copy with np.ascontiguousarray first"
                          % (a.strides, a.itemsize))
        out.append(s // a.itemsize)
    return out


def plain_tag(shape, strides):
    """The plain tag whose dense layout ``strides`` (in elements) describe.

    Dims are ordered by decreasing stride (outermost first); a dim of size 1
    goes just before the next larger logical dim. Returns None when the
    strides are not a dense permutation (gaps, overlaps, broadcasts).

    Parameters
    ----------
    shape, strides : sequence of int
        Logical dims and their strides in elements.

    Returns
    -------
    str or None
        A tag name such as ``"abcd"`` or ``"acdb"`` (channels last).

    Examples
    --------
    >>> plain_tag((2, 3, 4, 5), (60, 20, 5, 1))
    'abcd'
    >>> plain_tag((2, 3, 4, 5), (60, 1, 15, 3))
    'acdb'
    >>> plain_tag((2, 3, 4, 5), (120, 40, 10, 2)) is None
    True
    """
    nd = len(shape)
    real = sorted((d for d in range(nd) if shape[d] != 1), key=lambda d: (-strides[d], d))
    expect = 1
    for d in reversed(real):
        if strides[d] != expect:
            return None
        expect *= shape[d]
    order = list(real)
    for d in sorted((d for d in range(nd) if shape[d] == 1), reverse=True):
        after = [e for e in order if e > d and shape[e] != 1]
        order.insert(order.index(min(after)) if after else len(order), d)
    return "".join(chr(ord("a") + d) for d in order)


class _Span:
    """``nbytes`` bytes at ``address`` as a uint8 array that keeps ``owner``
    alive (numpy's ``__array_interface__`` protocol)."""

    def __init__(self, owner, address, nbytes, readonly):
        self.owner = owner
        self.__array_interface__ = {"data": (address, readonly), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}


def byte_span(a, nbytes):
    if nbytes == 0:
        return np.empty(0, dtype=np.uint8)
    address = a.__array_interface__["data"][0]
    return np.asarray(_Span(a, address, nbytes, not a.flags.writeable))


def _dense_strides(shape, order):
    strides, s = [0] * len(shape), 1
    for ch in reversed(order):
        d = ord(ch) - ord("a")
        strides[d] = s
        s *= max(shape[d], 1)
    return strides


# ------------------------------------------------------------------ export
def _numpy_dtype(md):
    if md.data_type in _dtypes.SUB_BYTE:
        raise invalid("%s packs two elements per byte: numpy has no view of it "
                      "(use map_data() or to_numpy())" % md.data_type.name)
    return _dtypes.numpy_dtype(md.data_type)


def _view(mem, shape, strides):
    md = mem.md
    dtype = _numpy_dtype(md)
    raw = mem.map_data(np.uint8)
    if 0 in shape or raw.size == 0:
        return np.empty(shape, dtype)
    return np.ndarray(shape, dtype, buffer=raw, offset=md.offset0 * dtype.itemsize,
                      strides=[s * dtype.itemsize for s in strides])


def physical_array(mem):
    """``mem.array``: the physical buffer, shaped by the blocking, no copy.

    The outer dims come in memory order (outermost first, each padded dim
    divided by its block), then the inner blocks: ``nChw16c`` of 2x17x3x4
    gives shape ``(2, 2, 3, 4, 16)`` with the padding channels 17..31 in it.
    A plain ``nhwc`` memory gives ``(N, H, W, C)``.
    """
    md = mem.md
    if md.format_kind != format_kind.blocked:
        raise invalid("memory.array needs a blocked (concrete) layout")
    blocks = md.blocks
    outer = [p // b for p, b in zip(md.padded_dims, blocks)]
    order = sorted(range(md.ndims), key=lambda d: (-md.strides[d], -outer[d], d))
    inner, s = [], 1
    for b in reversed(md.inner_blks):
        inner.insert(0, s)
        s *= b
    return _view(mem, [outer[d] for d in order] + list(md.inner_blks),
                 [md.strides[d] for d in order] + inner)


def logical_view(mem):
    """The logical array over a plain layout's buffer (no copy), or None for
    a blocked one (its padding and blocks have no strided logical view)."""
    md = mem.md
    if md.ndims == 0 or md.format_kind != format_kind.blocked or md.inner_blks \
            or md.data_type in _dtypes.SUB_BYTE:
        return None
    return _view(mem, list(md.dims), list(md.strides))


def to_array(mem, dtype=None, copy=None):
    """``np.asarray(mem)``: a view for plain layouts, a logical copy otherwise."""
    view = logical_view(mem)
    if view is None:
        if copy is False:
            raise invalid("a blocked layout has no logical view: np.asarray(mem) "
                          "copies, copy=False cannot be honoured")
        out = mem.to_numpy()
    else:
        out = view.copy() if copy else view
    if dtype is not None and np.dtype(dtype) != out.dtype:
        if copy is False:
            raise invalid("converting to %s copies, copy=False cannot be honoured" % dtype)
        out = out.astype(dtype)
    return out


class _DLTensor(ctypes.Structure):
    """DLPack's ``DLTensor`` (dlpack.h), its ``DLDataType`` inlined."""
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensorVersioned(ctypes.Structure):
    """DLPack 1.x's ``DLManagedTensorVersioned`` (capsule "dltensor_versioned");
    the unversioned ``DLManagedTensor`` (capsule "dltensor") starts with its
    ``DLTensor``."""
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _retyped(capsule, code, bits):
    """``capsule`` (numpy's export of the raw integer codes) with DLPack's
    type ``code``: the same buffer, now bf16 / f8 / e8m0 for its consumer."""
    name = _capsule_name(capsule)
    address = _capsule_pointer(capsule, name)
    tensor = (_DLTensor.from_address(address) if name == b"dltensor"
              else _DLManagedTensorVersioned.from_address(address).dl_tensor)
    if tensor.bits != bits or tensor.lanes != 1:    # numpy's struct, not ours: never rewrite
        raise dlpack_error(status.runtime_error, "unexpected DLPack export (%d bits)"
                           % tensor.bits)
    tensor.code = code
    return capsule


def dlpack(mem, stream=None, max_version=None, dl_device=None, copy=None):
    """``mem.__dlpack__``: a capsule of the logical view of a plain layout.

    numpy exports the types it has; bf16, f8_e5m2, f8_e4m3 and e8m0 (ml_dtypes
    arrays, which numpy's export refuses) go as their integer codes, retyped
    to DLPack's kDLBfloat, kDLFloat8_e5m2, kDLFloat8_e4m3fn and
    kDLFloat8_e8m0fnu: the same buffer, no copy, every bit kept."""
    md = mem.md
    if md.data_type in _dtypes.SUB_BYTE:
        raise dlpack_error(status.invalid_arguments, "%s packs two elements per byte, which "
                           "DLPack cannot share here: dnnl.convert(mem, tag, 's8') or 'f32' "
                           "first" % md.data_type.name)
    view = logical_view(mem)
    if view is None:
        raise dlpack_error(status.invalid_arguments, "only plain layouts can be shared "
                           "through DLPack: dnnl.convert(mem, plain tag) first")
    kwargs = {k: v for k, v in (("stream", stream), ("max_version", max_version),
                                ("dl_device", dl_device), ("copy", copy)) if v is not None}
    record = _dtypes.BY_CODE[md.data_type]
    retype = record.numpy is None and record.dlpack is not None     # a type numpy lacks
    if retype:
        view = view.view(_dtypes.numpy_dtype(md.data_type, raw=True))
    try:
        capsule = view.__dlpack__(**kwargs)
    except BufferError as exc:
        raise dlpack_error(status.invalid_arguments, str(exc)) from None
    return _retyped(capsule, record.dlpack, record.bits) if retype else capsule


def dlpack_device(mem):
    """``mem.__dlpack_device__``: ``(kDLCPU, 0)``."""
    return (_KDLCPU, 0)


def memory_handle(handle):
    """What ``dnnl.memory(md, eng, x)`` attaches for ``x``: a ``__dlpack__``
    producer without the buffer protocol (a torch tensor) becomes a numpy
    view of it, in its physical order; anything else is left as is."""
    if isinstance(handle, (np.ndarray, bytes, bytearray, memoryview, int)) \
            or not hasattr(handle, "__dlpack__"):
        return handle
    try:
        memoryview(handle)
        return handle
    except TypeError:
        pass
    a = as_numpy(handle)
    if not a.flags.c_contiguous and a.ndim:
        name = plain_tag(a.shape, _element_strides(a))
        if name is not None:     # a dense permutation (channels_last): its bytes in order
            a = a.transpose([ord(ch) - ord("a") for ch in name])
    return a


def _astype_fix(dtype):
    """The conversion to suggest for an array of a type oneDNN lacks."""
    if dtype == np.uint16:
        return ("x.astype(np.int32), or x.view(ml_dtypes.bfloat16) if it holds bf16 "
                "codes (ml_dtypes: %s)" % _dtypes.ML_DTYPES_EXTRA)
    if dtype.kind in "iu":
        return "x.astype(np.int32)"
    if dtype.kind == "b":
        return "x.astype(np.uint8)"
    return "x.astype(np.float32)"


def array_desc(a, tag=None):
    """The descriptor of a memory over the numpy array ``a`` (see
    :meth:`dnnl.memory.from_array`): its plain tag from the strides, or
    ``tag`` checked against them."""
    if a.ndim == 0:
        raise invalid("a 0-d array has no oneDNN layout: reshape it to (1,)")
    try:
        dt = _dtypes.as_data_type(a.dtype)
    except invalid_arguments:
        dt = None
    if dt is None or dt in _dtypes.SUB_BYTE or dt not in _dtypes.MD_TYPES:
        raise invalid("numpy dtype %s has no oneDNN data type: convert the array first, "
                      "e.g. %s" % (a.dtype, _astype_fix(a.dtype)))
    shape = [int(n) for n in a.shape]
    # an empty array's strides address nothing: described as C-contiguous
    strides = _element_strides(a) if a.size else _dense_strides(
        shape, "abcdefghijkl"[:len(shape)])
    if tag is None:
        name = plain_tag(shape, strides)
        if name is not None and name in format_tag.__members__:
            md = desc(shape, dt, name)
        elif name is not None:
            md = desc(shape, dt, _dense_strides(shape, name))
        else:
            md = desc(shape, dt, strides)
    else:
        md = desc(shape, dt, tag)
        if md.format_kind != format_kind.blocked or md.inner_blks:
            raise invalid("tag %s is not a plain layout: an array has no padding or "
                          "blocks; use dnnl.convert(x, tag) for a copy" % (tag,))
        if a.size and any(n != 1 and s != t for n, s, t in zip(shape, strides, md.strides)):
            raise invalid("the array's strides %s do not describe tag %s (strides %s)"
                          % (strides, tag, list(md.strides)))
    return md


