"""The checks of attribute and post-op parameters, as oneDNN's C API makes
them: numbers rounded to ``float``, ints that fit a C ``int`` or ``dnnl_dim_t``,
enums, data types, group dims and algorithms (``dnnl.attr``, ``dnnl.attr._post_ops``
and ``dnnl.attr._quant`` take their arguments through these)."""
import math
import struct

import numpy as np

from dnnl._core import args as _args
from dnnl._core.dtypes import as_data_type
from dnnl._core.enums import C, algorithm, data_type
from dnnl._core.error import invalid, wrong_type

_RUNTIME_F32_BITS = C["DNNL_RUNTIME_F32_VAL_BITS"]   # DNNL_RUNTIME_F32_VAL's bits


def f32(x, what="value"):
    """``x`` rounded to f32, as a Python float (the C API takes ``float``).

    Real numbers only (int, float, numpy scalars); strings and bools are
    type errors, an int beyond the double range a value error.
    """
    if isinstance(x, (bool, np.bool_, str, bytes)) or not isinstance(
            x, (int, float, np.integer, np.floating)):
        raise wrong_type("%s must be a number, not %s (%s)"
                               % (what, _args.a_type(x), _args.short(x)))
    try:
        v = float(x)
    except OverflowError:
        raise invalid("%s %s does not fit a float" % (what, _args.short(x))) from None
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def is_runtime_f32(x):
    """True if ``x`` is ``DNNL_RUNTIME_F32_VAL`` (the NaN 0x7fc000d0).

    >>> is_runtime_f32(struct.unpack("<f", struct.pack("<I", 0x7fc000d0))[0])
    True
    >>> is_runtime_f32(float("nan"))
    False
    """
    try:
        return struct.unpack("<I", struct.pack("<f", float(x)))[0] == _RUNTIME_F32_BITS
    except (OverflowError, TypeError, ValueError):
        return False


def feq(a, b):
    """Float equality treating NaN == NaN (oneDNN's ``equal_with_nan``)."""
    return a == b or (a != a and b != b)


def c_int(x, what, bits=32):
    """An integer parameter of C type ``int`` (``bits=64``: ``dnnl_dim_t``)."""
    v = _args.integer(x, what)
    if not -2 ** (bits - 1) <= v < 2 ** (bits - 1):
        raise invalid("%s %s does not fit a C %s" % (what, _args.short(v),
                                                     "int" if bits == 32 else "int64"))
    return v


def enum_of(cls, value, what):
    v = c_int(_args.not_another_enum(value, cls, what), what)
    try:
        return cls(v)
    except ValueError:
        raise invalid("invalid %s %d" % (what, v)) from None


def dt(value):
    if value is None:
        return data_type.undef
    return as_data_type(value)


def dt_stored(value):
    """A post-op data type as oneDNN stores it: the C API takes any int and
    keeps an unknown one (primitives then refuse it as unimplemented)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        try:
            return data_type(int(value))
        except ValueError:
            return int(value)
    return dt(value)


def groups_of(groups):
    if groups is None:
        return ()
    try:
        return tuple(c_int(g, "group dim", 64) for g in groups)
    except TypeError:
        raise invalid("groups must be a sequence of ints, got %r" % (groups,)) from None


def alg_of(value, what="algorithm"):
    v = c_int(_args.not_another_enum(value, algorithm, what), what)
    try:
        return algorithm(v)
    except ValueError:
        return v


def memory_desc_class():
    try:
        from dnnl._model.desc import desc
        return desc
    except ImportError:  # pragma: no cover - during bring-up
        return None
