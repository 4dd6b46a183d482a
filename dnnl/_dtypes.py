"""Data types: normalising what users pass, element sizes, numpy dtypes.

Anywhere a data type is taken, users may pass the enum, the C int, a numpy
dtype or a string (``"f32"``, ``"float32"``, ``"bf16"``, ``"s8"``, ``"int8"``).
"""
import numpy as np

from dnnl._enums import data_type
from dnnl._args import not_another_enum
from dnnl._error import invalid, wrong_type

dt = data_type

#: Bytes per element as ``dnnl_data_type_size`` reports them (sub-byte: 1).
SIZE = {dt.f16: 2, dt.bf16: 2, dt.f32: 4, dt.s32: 4, dt.s8: 1, dt.u8: 1,
        dt.f64: 8, dt.boolean: 1, dt.f8_e5m2: 1, dt.f8_e4m3: 1, dt.s4: 1,
        dt.u4: 1, dt.e8m0: 1, dt.f4_e2m1: 1, dt.f4_e3m0: 1, dt.s64: 8}

#: Types a memory descriptor accepts (memory_desc_sanity_check).
MD_TYPES = frozenset({dt.f4_e2m1, dt.e8m0, dt.f8_e5m2, dt.f8_e4m3, dt.f16,
                      dt.bf16, dt.f32, dt.f64, dt.s64, dt.s32, dt.s8, dt.u8,
                      dt.s4, dt.u4})

#: Types stored two per byte, low nibble first.
SUB_BYTE = frozenset({dt.s4, dt.u4, dt.f4_e2m1, dt.f4_e3m0})

FLOATING = frozenset({dt.f16, dt.bf16, dt.f32, dt.f64, dt.f8_e5m2, dt.f8_e4m3,
                      dt.e8m0, dt.f4_e2m1, dt.f4_e3m0})

# numpy has these natively; the rest come from ml_dtypes when installed.
_NUMPY = {dt.f16: np.float16, dt.f32: np.float32, dt.f64: np.float64,
          dt.s32: np.int32, dt.s8: np.int8, dt.u8: np.uint8, dt.s64: np.int64,
          dt.boolean: np.bool_}
_ML_DTYPES = {dt.bf16: "bfloat16", dt.f8_e5m2: "float8_e5m2",
              dt.f8_e4m3: "float8_e4m3fn", dt.e8m0: "float8_e8m0fnu",
              dt.f4_e2m1: "float4_e2m1fn"}
# Raw storage when ml_dtypes is absent (and for sub-byte integers, unpacked).
_RAW = {dt.bf16: np.uint16, dt.f8_e5m2: np.uint8, dt.f8_e4m3: np.uint8,
        dt.e8m0: np.uint8, dt.f4_e2m1: np.uint8, dt.f4_e3m0: np.uint8,
        dt.s4: np.int8, dt.u4: np.uint8}

_ALIASES = {"float32": "f32", "float": "f32", "float16": "f16", "half": "f16",
            "float64": "f64", "double": "f64", "bfloat16": "bf16",
            "int32": "s32", "int8": "s8", "uint8": "u8", "int64": "s64",
            "bool": "boolean", "int4": "s4", "uint4": "u4",
            "float8_e5m2": "f8_e5m2", "float8_e4m3fn": "f8_e4m3",
            "float8_e4m3": "f8_e4m3", "float8_e8m0fnu": "e8m0",
            "float4_e2m1fn": "f4_e2m1", "undef": "undef"}

try:  # optional: real bf16 / f8 / f4 numpy dtypes
    import ml_dtypes as _ml
except ImportError:  # pragma: no cover - exercised on machines without it
    _ml = None


#: What installs ml_dtypes, the numpy types of bf16 / f8 / f4 (pyproject's extra).
ML_DTYPES_EXTRA = "pip install 'dnnl-python[bf16]'"


def require_ml_dtypes(code):
    """Refuse, naming the extra to install, a type whose numpy arrays need
    ml_dtypes when it is missing (numpy alone would hold raw integer codes)."""
    if _ml is None and code in _ML_DTYPES:
        raise invalid("%s values need ml_dtypes for their numpy type: %s"
                      % (code.name, ML_DTYPES_EXTRA))


def as_data_type(value):
    """Normalise ``value`` to a :class:`dnnl.memory.data_type` member.

    >>> as_data_type("float32"), as_data_type(np.int8), as_data_type(2)
    (<data_type.f32: 3>, <data_type.s8: 5>, <data_type.bf16: 2>)
    """
    if isinstance(value, data_type):
        return value
    not_another_enum(value, data_type, "data type")
    if isinstance(value, str):
        name = value.lower().replace("dnnl_", "").replace("data_type.", "")
        name = _ALIASES.get(name, name)
        if name in data_type.__members__:
            return data_type[name]
        raise invalid("unknown data type %r" % value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        try:
            return data_type(int(value))
        except ValueError:
            raise invalid("unknown data type value %d" % value) from None
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


def numpy_dtype(code, raw=False):
    """The numpy dtype of one *logical* element of type ``code``.

    bf16 / f8 / e8m0 / f4 map to ml_dtypes types when that package is
    installed (else to their raw unsigned storage); s4 / u4 unpack to int8 /
    uint8. With ``raw=True`` the storage integer type is returned instead.
    """
    code = as_data_type(code)
    if code in _NUMPY:
        return np.dtype(_NUMPY[code])
    if not raw and _ml is not None and code in _ML_DTYPES:
        return np.dtype(getattr(_ml, _ML_DTYPES[code]))
    if code in _RAW:
        return np.dtype(_RAW[code])
    raise invalid("data type %s has no numpy representation" % code.name)


def size(code):
    """Bytes per element, as ``dnnl_data_type_size`` (sub-byte types: 1)."""
    return SIZE.get(as_data_type(code), 2 ** 64 - 1)
