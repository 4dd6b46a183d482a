"""Checking what users pass: integers, sequences of integers, object types.

Integers mean integers: Python ``int`` and numpy integer scalars (anything
with ``__index__``) are accepted; ``bool`` is refused where a count, a dim or
an index is meant, as numpy refuses it in a shape; floats, strings and bytes
are refused. A wrong type raises :class:`dnnl.invalid_type` (also a
``TypeError``); a wrong value raises :class:`dnnl.invalid_arguments` (also a
``ValueError``). Messages name the parameter and cut long inputs short.
"""
import difflib
import enum
import operator
from collections.abc import Mapping, Set as AbstractSet

import numpy as np

from dnnl._core.error import wrong_type

_SHOWN = 6      # elements of a long sequence a message shows
_SEQUENCES = (list, tuple, range)


def short(value):
    """``repr(value)``, with a long sequence or string cut to a few elements.

    >>> short(list(range(100)))
    '[0, 1, 2, 3, 4, 5, ... (100 elements)]'
    """
    if isinstance(value, (str, bytes)):
        text = repr(value[:40])
        return text if len(value) <= 40 else text + "... (%d characters)" % len(value)
    if isinstance(value, (list, tuple, range, np.ndarray)):
        try:
            n = len(value)
        except TypeError:           # a 0-d array
            return repr(value)
        if n > _SHOWN:
            head = ", ".join(repr(v) for v in list(value[:_SHOWN]))
            return "[%s, ... (%d elements)]" % (head, n)
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def closest(name, names):
    """``"; did you mean 'X' or 'Y'?"`` naming the valid ``names`` closest to
    the unknown ``name`` (the ones equal but for case first), or ``""``."""
    names = list(names)
    folded = name.lower()
    same = [n for n in names if n.lower() == folded]
    near = difflib.get_close_matches(name, names, 3, 0.7)
    if not near:        # a misspelt case hides the likeness: compare folded
        lowered = {n.lower(): n for n in names}
        near = [lowered[n] for n in difflib.get_close_matches(folded, lowered, 3, 0.7)]
    picks = list(dict.fromkeys(same + near))[:3]
    if not picks:
        return ""
    return "; did you mean %s?" % " or ".join(repr(p) for p in picks)


def a_type(value):
    """``"an int"``, ``"a str"``, ``"a dnnl.engine"``: the type of ``value``
    with its article, for messages."""
    cls = type(value)
    name = cls.__name__ if cls.__module__.split(".")[0] in ("builtins", "numpy") else (
        "%s.%s" % (cls.__module__.split(".")[0], cls.__name__))
    if value is None:
        return "None"
    return _article(name) + name


def _article(name):
    return "an " if name[0].lower() in "aeiou" or name == "ndarray" else "a "


def integer(value, what):
    """``value`` as an int: ints and numpy integers only (no bool, float, str).

    >>> integer(np.int8(3), "index")
    3
    >>> integer(2.5, "index")
    Traceback (most recent call last):
    dnnl.invalid_type: index must be an integer, not a float (2.5) (status invalid_arguments)
    """
    v = _index(value)
    if v is None:
        raise wrong_type("%s must be an integer, not %s (%s)" % (what, a_type(value),
                                                                 short(value)))
    return v


def flag(value, what):
    """``value`` as a bool: a bool, a numpy bool or an integer (C's ``int``
    flags; nonzero is true). Anything else, an array included, is a type
    error rather than Python's truth of it.

    >>> flag(1, "is_on_host"), flag(np.bool_(False), "is_on_host")
    (True, False)
    >>> flag(np.array([2, 3]), "is_on_host")
    Traceback (most recent call last):
    dnnl.invalid_type: is_on_host must be a bool, not an ndarray (array([2, 3])) (status invalid_arguments)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    v = _index(value)
    if v is None:
        raise wrong_type("%s must be a bool, not %s (%s)" % (what, a_type(value), short(value)))
    return v != 0


def _index(value):
    """``operator.index(value)``, or None for a bool or a non-integer."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def integers(values, what):
    """A tuple of ints from a sequence (list, tuple, range, integer array).

    A single integer, a string, bytes, a dict, a set or a float element are
    type errors.

    >>> integers({"n": 2, "c": 3}, "dims")
    Traceback (most recent call last):
    dnnl.invalid_type: dims must be a sequence of integers, not a dict ({'n': 2, 'c': 3}) (status invalid_arguments)
    """
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or not (values.dtype.kind in "iu" or values.size == 0):
            raise wrong_type("%s must be a sequence of integers, not an array of %s"
                             " with shape %s" % (what, values.dtype, values.shape))
        return tuple(int(v) for v in values.tolist())
    # a dict iterates over its keys, a set in no order: neither is a list of
    # dims, strides, offsets or indices (the common types skip the slower
    # abstract-class checks)
    if type(values) not in _SEQUENCES and (
            isinstance(values, (str, bytes, bytearray, Mapping, AbstractSet))
            or not hasattr(values, "__len__") or not hasattr(values, "__getitem__")):
        raise wrong_type("%s must be a sequence of integers, not %s (%s)"
                         % (what, a_type(values), short(values)))
    out = []
    for i, v in enumerate(values):
        n = _index(v)
        if n is None:
            raise wrong_type("%s[%d] must be an integer, not %s (%s)"
                             % (what, i, a_type(v), short(v)))
        out.append(n)
    return tuple(out)


def not_another_enum(value, cls, what):
    """``value``, unless it is a member of an enum other than ``cls`` (an
    IntEnum member is an int, but a format tag is no data type).

    >>> import dnnl
    >>> not_another_enum(dnnl.memory.format_tag.nchw, dnnl.memory.data_type, "data type")
    Traceback (most recent call last):
    dnnl.invalid_type: data type must be a data_type member, not format_tag.abcd (status invalid_arguments)
    """
    if isinstance(value, enum.Enum) and not isinstance(value, cls):
        raise wrong_type("%s must be a %s member, not %s.%s" % (
            what, cls.__name__, type(value).__name__, value.name))
    return value


def instance(value, cls, what):
    """``value`` if it is a ``cls``; else an invalid_type naming both types.

    >>> import dnnl
    >>> instance(dnnl.engine(), dnnl.primitive_attr, "attr")
    Traceback (most recent call last):
    dnnl.invalid_type: attr is a dnnl.engine, not a dnnl.primitive_attr (status invalid_arguments)
    """
    if not isinstance(value, cls):
        name = _qualname(cls)
        raise wrong_type("%s is %s, not %s%s" % (what, a_type(value), _article(name), name))
    return value


def _qualname(cls):
    mod = cls.__module__.split(".")[0]
    name = getattr(cls, "_public_name", cls.__qualname__)
    return name if mod == "builtins" else "%s.%s" % (mod, name)


def signature_of(fn):
    """``fn``'s signature, for an extension type's ``__signature__``: its
    ``__cinit__`` has the constructor's parameters but inspect cannot see them."""
    import inspect
    return inspect.signature(fn)
