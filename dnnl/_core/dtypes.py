"""Data types: normalising what users pass, element sizes, numpy dtypes.

Anywhere a data type is taken, users may pass the enum, the C int, a numpy
dtype, a PyTorch dtype (``torch.bfloat16``) or a string (``"f32"``,
``"float32"``, ``"bf16"``, ``"s8"``, ``"int8"``).

What the package knows of each type is one :class:`DataType` record in
``RECORDS``; every type set and table here and in the modules that import
them is derived from the records, and tests/_core/test_dtype_records.py checks the
kernels' C tables (the Tempita templates) against them.

>>> BY_CODE[data_type.s4].bits, BY_CODE[data_type.s4].size, data_type.s4 in SUB_BYTE
(4, 1, True)
"""
import sys
import typing

import numpy as np

from dnnl._core.enums import data_type
from dnnl._core import args as _args
from dnnl._core.args import not_another_enum
from dnnl._core.error import error, invalid, wrong_type

dt = data_type

# ml_dtypes (optional: real bf16 / f8 / f4 numpy dtypes) is imported when a
# type first needs it, not with dnnl: its import takes about half a second.
# Arrays of its types are recognised by their dtype's name without it.
_NOT_YET = object()
_ml = _NOT_YET      # the module, or None when it is not installed


def ml_dtypes():
    """The ml_dtypes module, imported on first use; None when it is missing."""
    global _ml
    if _ml is _NOT_YET:
        try:
            import ml_dtypes as module
        except ImportError:  # pragma: no cover - exercised on machines without it
            module = None
        _ml = module
    return _ml


class DataType(typing.NamedTuple):
    """What the package knows of one data type; every type table derives from these."""

    code: data_type     # the header's enumerator
    bits: int           # bits per element: 4 for the nibble types
    kind: str           # "float", "int" or "bool"
    signed: bool
    numpy: object       # numpy's own scalar type, or None
    ml_dtypes: object   # the ml_dtypes type's name, or None
    raw: object         # numpy integer storage when numpy has no such type, or None
    #                     (numpy_dtype picks among numpy, ml_dtypes and raw)
    in_md: bool         # accepted by a memory descriptor (memory_desc_sanity_check)
    aliases: tuple      # names besides ``code.name`` that as_data_type accepts
    dlpack: object      # DLPack's DLDataTypeCode (dlpack.h), or None where it has none

    @property
    def name(self):
        return self.code.name

    @property
    def sub_byte(self):
        """Stored two per byte, low nibble first."""
        return self.bits < 8

    @property
    def size(self):
        """Bytes per element as ``dnnl_data_type_size`` reports them (sub-byte: 1)."""
        return max(self.bits // 8, 1)


# Facts per type, keyed by the header's name (the enum values come from the header).
# name:      bits kind   signed numpy       ml_dtypes         raw       in_md aliases
#            DLPack type code (dlpack.h: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4,
#            kDLBool 6, kDLFloat8_e4m3fn 10, kDLFloat8_e5m2 12, kDLFloat8_e8m0fnu 14,
#            kDLFloat4_e2m1fn 17; f4_e3m0 has none)
_FACTS = {
    "f16":     (16, "float", True, np.float16, None, None, True, ("float16", "half"), 2),
    "bf16":    (16, "float", True, None, "bfloat16", np.uint16, True, ("bfloat16",), 4),
    "f32":     (32, "float", True, np.float32, None, None, True, ("float32", "float"), 2),
    "s32":     (32, "int", True, np.int32, None, None, True, ("int32",), 0),
    "s8":      (8, "int", True, np.int8, None, None, True, ("int8",), 0),
    "u8":      (8, "int", False, np.uint8, None, None, True, ("uint8",), 1),
    "f64":     (64, "float", True, np.float64, None, None, True, ("float64", "double"), 2),
    "boolean": (8, "bool", False, np.bool_, None, None, False, ("bool",), 6),
    "f8_e5m2": (8, "float", True, None, "float8_e5m2", np.uint8, True, ("float8_e5m2",), 12),
    "f8_e4m3": (8, "float", True, None, "float8_e4m3fn", np.uint8, True,
                ("float8_e4m3fn", "float8_e4m3"), 10),
    "s4":      (4, "int", True, None, None, np.int8, True, ("int4",), 0),
    "u4":      (4, "int", False, None, None, np.uint8, True, ("uint4",), 1),
    "e8m0":    (8, "float", False, None, "float8_e8m0fnu", np.uint8, True,
                ("float8_e8m0fnu",), 14),
    "f4_e2m1": (4, "float", True, None, "float4_e2m1fn", np.uint8, True,
                ("float4_e2m1fn",), 17),
    "f4_e3m0": (4, "float", True, None, None, np.uint8, False, (), None),
    "s64":     (64, "int", True, np.int64, None, None, True, ("int64",), 0),
}
# Enumerators that name no type: "no type yet" and the enum's upper bound.
NOT_TYPES = frozenset({dt.undef, dt.max})


def _records():
    missing = [c.name for c in data_type if c not in NOT_TYPES and c.name not in _FACTS]
    if missing:  # a header with a new type: it needs its facts above
        raise ImportError("no record for data types %s" % ", ".join(missing))
    return tuple(DataType(c, *_FACTS[c.name]) for c in data_type if c not in NOT_TYPES)


#: One record per data type, in the header's order.
RECORDS = _records()
#: data_type member -> its record.
BY_CODE = {r.code: r for r in RECORDS}

#: Bytes per element as ``dnnl_data_type_size`` reports them (sub-byte: 1).
SIZE = {r.code: r.size for r in RECORDS}
#: Types a memory descriptor accepts (memory_desc_sanity_check).
MD_TYPES = frozenset(r.code for r in RECORDS if r.in_md)
#: Types stored two per byte, low nibble first.
SUB_BYTE = frozenset(r.code for r in RECORDS if r.sub_byte)
FLOATING = frozenset(r.code for r in RECORDS if r.kind == "float")
#: Integer types (boolean is not one).
INTEGRAL = frozenset(r.code for r in RECORDS if r.kind == "int")

_NUMPY = {r.code: r.numpy for r in RECORDS if r.numpy is not None}
_ML_DTYPES = {r.code: r.ml_dtypes for r in RECORDS if r.ml_dtypes is not None}
# the data type of each numpy dtype (native order), the first record's
_BY_DTYPE = {}
for _code, _t in _NUMPY.items():
    _BY_DTYPE.setdefault(np.dtype(_t), _code)
del _code, _t
# Raw storage when ml_dtypes is absent (and for sub-byte integers, unpacked).
_RAW = {r.code: r.raw for r in RECORDS if r.raw is not None}
_ALIASES = {a: r.name for r in RECORDS for a in r.aliases}

#: What installs ml_dtypes, the numpy types of bf16 / f8 / f4 (pyproject's extra).
ML_DTYPES_EXTRA = "pip install 'dnnl-python[bf16]'"


def require_ml_dtypes(code):
    """Refuse, naming the extra to install, a type whose numpy arrays need
    ml_dtypes when it is missing (numpy alone would hold raw integer codes)."""
    if code in _ML_DTYPES and ml_dtypes() is None:
        raise invalid("%s values need ml_dtypes for their numpy type: %s"
                      % (code.name, ML_DTYPES_EXTRA))


def as_data_type(value):
    """Normalise ``value`` to a :class:`dnnl.memory.data_type` member.

    >>> as_data_type("float32"), as_data_type(np.int8), as_data_type(2)
    (<data_type.f32: 3>, <data_type.s8: 5>, <data_type.bf16: 2>)
    """
    if isinstance(value, data_type):
        return value
    if isinstance(value, np.dtype):     # an array's dtype: the arrays' every call
        code = _BY_DTYPE.get(value)
        if code is not None:
            return code
    not_another_enum(value, data_type, "data type")
    if isinstance(value, str):
        name = value.lower().replace("dnnl_", "").replace("data_type.", "")
        name = _ALIASES.get(name, name)
        if name in data_type.__members__:
            return data_type[name]
        raise invalid("unknown data type %r%s" % (value, _args.closest(
            name, list(data_type.__members__) + list(_ALIASES))))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        try:
            return data_type(int(value))
        except ValueError:
            raise invalid("unknown data type value %d" % value) from None
    code = _torch_data_type(value)
    if code is not None:
        return code
    try:
        if isinstance(value, (bool, np.bool_, float)):
            raise TypeError(value)
        npdt = np.dtype(value)
    except TypeError:
        raise wrong_type("a data type is a dnnl.memory.data_type, its name or value, "
                         "or a numpy dtype, not %s (%.60r)"
                         % (type(value).__name__, value)) from None
    for code, t in _NUMPY.items():
        if npdt == np.dtype(t):
            return code
    if npdt.name in _ALIASES:
        return data_type[_ALIASES[npdt.name]]
    raise invalid("numpy dtype %s has no oneDNN data type" % npdt)


def native_data_type(npdt):
    """The data type of the numpy dtype ``npdt`` when its bytes are in this
    machine's order, else None (a kernel then reads a converted copy); None
    too for a dtype oneDNN has no type for."""
    if not npdt.isnative:
        return None
    try:
        return as_data_type(npdt)
    except error:
        return None


def _torch_data_type(value):
    """The data type of a PyTorch dtype (``torch.uint8``, ``torch.bfloat16``,
    ``torch.float8_e4m3fn``...), None for anything else; one oneDNN lacks
    is refused. torch is never imported here: only asked if loaded."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(value, torch.dtype):
        return None
    name = str(value).replace("torch.", "")     # the canonical name: torch.half is float16
    if name in _ALIASES:
        return data_type[_ALIASES[name]]
    known = [a for r in RECORDS if r.in_md for a in r.aliases
             if isinstance(getattr(torch, a, None), torch.dtype)]
    raise invalid("torch.%s has no oneDNN data type (those that have one: %s): convert "
                  "the tensor first, e.g. x.to(torch.float32)%s"
                  % (name, ", ".join(sorted(set(known))),
                     ", or x.int_repr() for its integer codes" if name.startswith("q") else ""))


def numpy_dtype(code, raw=False):
    """The numpy dtype of one *logical* element of type ``code``.

    bf16 / f8 / e8m0 / f4 map to ml_dtypes types when that package is
    installed (else to their raw unsigned storage); s4 / u4 unpack to int8 /
    uint8. With ``raw=True`` the storage integer type is returned instead.
    """
    code = as_data_type(code)
    if code in _NUMPY:
        return np.dtype(_NUMPY[code])
    ml = ml_dtypes() if not raw and code in _ML_DTYPES else None
    if ml is not None:
        return np.dtype(getattr(ml, _ML_DTYPES[code]))
    if code in _RAW:
        return np.dtype(_RAW[code])
    raise invalid("data type %s has no numpy representation" % code.name)


def size(code):
    """Bytes per element, as ``dnnl_data_type_size`` (sub-byte types: 1)."""
    if type(code) is int and code in SIZE:      # the plans' codes, without a member made
        return SIZE[code]
    return SIZE.get(as_data_type(code), 2 ** 64 - 1)
