"""Machinery of ``dnnl.capi``: C-function objects, handles, ctypes in/out helpers.

Everything the flat API needs besides the per-function bodies lives here, so
``dnnl/capi/__init__.py`` reads as a list of thin, mechanical wrappers:

* :class:`CFunction` -- what ``dnnl.capi.dnnl_*`` names are: callable objects
  that accept ``.argtypes`` / ``.restype`` / ``.errcheck`` like a ctypes
  foreign function, turn every exception into a ``dnnl_status_t`` through
  :func:`dnnl._core.error.status_of` (or a neutral value for functions that do not
  return a status) and convert the result to the program's ``restype``.
* the handle registry -- integer ids that look like addresses, mapped to
  object-API objects; views (``const`` pointers into an owner) die with the
  owner; engines are reference counted like oneDNN's.
* readers and writers -- inputs may be Python numbers, ctypes scalars,
  ctypes arrays / pointers / ``byref`` objects, raw addresses; outputs are
  written through the address the program passed, with the C type of the
  parameter, exactly as C does.
"""
import ctypes
import inspect
import itertools
import threading

import numpy as np

from dnnl._core.error import invalid, status_of

MAX_NDIMS = 12
dnnl_dim_t = ctypes.c_int64
dnnl_dims_t = ctypes.c_int64 * MAX_NDIMS
_MASK64 = 2 ** 64 - 1


class dnnl_exec_arg_t(ctypes.Structure):
    """``{int arg; dnnl_memory_t memory;}``: one execution argument."""
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class dnnl_version_t(ctypes.Structure):
    """``dnnl_version_t``: what ``dnnl_version()`` points at."""
    _fields_ = [("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
                ("hash", ctypes.c_char_p), ("cpu_runtime", ctypes.c_uint),
                ("gpu_runtime", ctypes.c_uint)]


# --------------------------------------------------------------- last error
_tls = threading.local()


def last_error():
    """The exception behind the last non-success status of this thread (or None).

    An extension: C programs only see the status; Python programs may want
    the message.
    """
    return getattr(_tls, "error", None)


# ------------------------------------------------------------ C functions
_UNSET = object()
# C result kind -> the ctypes type a C compiler would use
_NATURAL = {"status": ctypes.c_int, "int": ctypes.c_int, "size_t": ctypes.c_size_t,
            "ptr": ctypes.c_void_p, "str": ctypes.c_char_p, "version": None,
            "uint": ctypes.c_uint}
_STRINGS = {}


def c_string_address(s):
    """A stable address of a NUL-terminated copy of ``s`` (interned, like C's
    static strings)."""
    buf = _STRINGS.get(s)
    if buf is None:     # one setdefault: racing threads keep (and point at) one buffer
        buf = _STRINGS.setdefault(s, ctypes.create_string_buffer(s))
    return ctypes.addressof(buf)


class CFunction:
    """A flat-API function: callable, with ctypes-style ``argtypes``,
    ``restype`` and ``errcheck`` attributes.

    ``argtypes``, when set, checks the arguments with each type's
    ``from_param`` exactly as ctypes does (``ctypes.ArgumentError`` on a
    mismatch); the values themselves are read by the function, so calling
    works the same with or without them. ``restype``, when set, converts the
    result the way ctypes would (``c_void_p`` gives ``None`` for NULL,
    ``c_char_p`` gives bytes, ``POINTER(T)`` a pointer object); unset, the
    result is the natural Python value (int, bytes, pointer). ``del
    f.restype`` unsets it again, ``f.reset()`` unsets all three.
    """

    def __init__(self, fn, kind, on_error, wraps):
        self._fn = fn
        self._kind = kind
        self._on_error = on_error
        self._nparams = len(inspect.signature(fn).parameters)
        self.__name__ = self.__qualname__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__module__ = "dnnl.capi"
        self.__wrapped__ = fn
        self.wraps = wraps
        self.argtypes = None
        self.errcheck = None
        self._restype = _UNSET

    @property
    def restype(self):
        return _NATURAL.get(self._kind) if self._restype is _UNSET else self._restype

    @restype.setter
    def restype(self, value):
        self._restype = value

    @restype.deleter
    def restype(self):
        """``del f.restype``: the natural result again (what an unset one gives)."""
        self._restype = _UNSET

    def reset(self):
        """Forget what the program declared: ``argtypes``, ``restype`` and
        ``errcheck`` back to unset, as when ``dnnl.capi`` was imported."""
        self.argtypes = None
        self.errcheck = None
        self._restype = _UNSET

    def __repr__(self):
        return "<dnnl.capi function %s>" % self.__name__

    def __call__(self, *args):
        if len(args) != self._nparams:
            raise TypeError("%s takes %d argument%s (%d given)" % (
                self.__name__, self._nparams, "" if self._nparams == 1 else "s", len(args)))
        if self.argtypes is not None:
            _check_argtypes(self.argtypes, args)
        try:
            result = self._fn(*args)
            if self._kind == "status":
                result = 0 if result is None else int(result)
        except Exception as exc:  # never raise for a library error
            _tls.error = exc
            result = int(status_of(exc)) if self._kind == "status" else self._on_error
        if self._restype is not _UNSET:
            result = _as_restype(result, self._kind, self._restype)
        if self.errcheck is not None:
            result = self.errcheck(result, self, args)
        return result


def _check_argtypes(argtypes, args):
    for i, (t, a) in enumerate(zip(argtypes, args)):
        conv = getattr(t, "from_param", None)
        if conv is None:
            continue
        try:
            conv(a)
        except Exception as exc:
            raise ctypes.ArgumentError("argument %d: %s: %s"
                                       % (i + 1, type(exc).__name__, exc)) from None


def _as_restype(value, kind, restype):
    if restype is None:
        return None
    if kind == "str":
        value = c_string_address(value) if value is not None else 0
    elif kind == "version":
        value = ctypes.addressof(value.contents)
    if isinstance(restype, type) and issubclass(restype, ctypes._SimpleCData):
        return restype(value).value
    if isinstance(restype, type) and issubclass(restype, (ctypes._Pointer, ctypes.c_void_p)):
        return ctypes.cast(ctypes.c_void_p(value or None), restype)
    if callable(restype) and not isinstance(restype, type):
        return restype(value)
    return value


def api(kind="status", on_error=None, wraps=""):
    """Decorator: make ``fn`` a :class:`CFunction` returning a C ``kind``.

    ``kind`` is ``"status"`` (``dnnl_status_t``; exceptions become their
    status), or ``"int"``, ``"uint"``, ``"size_t"``, ``"ptr"``, ``"str"``,
    ``"version"`` (exceptions give ``on_error``). ``wraps`` names the
    object-API call, for the documentation table.
    """
    def deco(fn):
        return CFunction(fn, kind, on_error, wraps)
    return deco


# ---------------------------------------------------------------- readers
def value(x):
    """A Python value from a ctypes scalar, numpy scalar or Python number."""
    if isinstance(x, ctypes._SimpleCData):
        return x.value
    if isinstance(x, np.generic):
        return x.item()
    return x


def as_int(x):
    v = value(x)
    if isinstance(v, bool):
        return int(v)
    try:
        return int(v.__index__())
    except (AttributeError, TypeError):
        raise invalid("expected an integer, got %r" % (x,)) from None


def as_float(x):
    """A C ``float`` (rounded to f32, as a ``float`` parameter is)."""
    v = value(x)
    try:
        return ctypes.c_float(float(v)).value
    except (TypeError, ValueError):
        raise invalid("expected a number, got %r" % (x,)) from None


def address(x):
    """The address a pointer argument carries (0 for NULL).

    Accepts None, ints, ``c_void_p``, ctypes pointers, arrays, ``byref``
    objects, ``c_char_p``, bytes, numpy arrays and objects with
    ``_as_parameter_``.
    """
    while hasattr(x, "_as_parameter_"):
        x = x._as_parameter_
    if x is None:
        return 0
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x) & _MASK64
    if isinstance(x, ctypes.c_void_p):
        return (x.value or 0) & _MASK64
    if isinstance(x, np.ndarray):
        return x.ctypes.data
    try:
        return ctypes.cast(x, ctypes.c_void_p).value or 0
    except (TypeError, ctypes.ArgumentError):
        raise invalid("expected a pointer, got %r" % (type(x).__name__,)) from None


def read_array(ptr, ctype, n, what="array"):
    """``n`` values of C type ``ctype`` read from ``ptr`` (a list or tuple is
    taken as the values themselves)."""
    if n < 0:
        raise invalid("negative %s length %d" % (what, n))
    if n == 0:
        return []
    if isinstance(ptr, (list, tuple)):
        if len(ptr) < n:
            raise invalid("%s has %d entries, %d needed" % (what, len(ptr), n))
        return [value(v) for v in ptr[:n]]
    addr = address(ptr)
    if not addr:
        raise invalid("%s is NULL" % what)
    return list((ctype * n).from_address(addr))


def read_dims(ptr, n, what="dims"):
    """``n`` (<= 12) ``dnnl_dim_t`` values from ``ptr``."""
    if n > MAX_NDIMS:
        raise invalid("%s: %d dimensions, at most %d" % (what, n, MAX_NDIMS))
    return [int(v) for v in read_array(ptr, ctypes.c_int64, n, what)]


# ---------------------------------------------------------------- writers
def out_address(ptr, what="output"):
    """The address of a required output; NULL is ``invalid_arguments``."""
    addr = address(ptr)
    if not addr:
        raise invalid("%s pointer is NULL" % what)
    return addr


def put(addr, ctype, v):
    """Store ``v`` as C type ``ctype`` at ``addr`` (a no-op for NULL)."""
    if addr:
        ctype.from_address(addr).value = v


def put_out(ptr, ctype, v, what="output"):
    """Store into a required output (NULL: ``invalid_arguments``)."""
    put(out_address(ptr, what), ctype, v)


def put_opt(ptr, ctype, v):
    """Store into an optional output (NULL: skipped)."""
    put(address(ptr), ctype, v)


# ---------------------------------------------------------------- handles
class Record:
    """What a handle id stands for."""

    __slots__ = ("kind", "obj_", "getter", "owner", "views", "deps", "refs", "user",
                 "keep", "engines")

    def __init__(self, kind, obj=None, getter=None, owner=None, engines=None):
        self.kind = kind
        self.obj_ = obj
        self.getter = getter
        self.owner = owner          # owner id for a view, else None
        self.views = {}             # key -> view id
        self.deps = []              # ids this record holds a reference on
        self.refs = 0               # references other records hold on this one
        self.user = owner is None   # the user holds (and must destroy) it
        self.keep = {}              # C arrays handed out through pointers
        self.engines = dict(engines or {})

    @property
    def obj(self):
        return self.getter() if self.getter is not None else self.obj_


# _lock (reentrant: _delete recurses) guards every change to _records, the
# records' refs, views and kept arrays, and draws the ids; lookup reads
# _records without it (one dict get is atomic: a handle destroyed meanwhile
# is found or not, as with any use-after-free race in C).
_records = {}
_ids = itertools.count()
_BASE = 0x5D0000000000
_lock = threading.RLock()


def new_handle(kind, obj, engines=None):
    """Register ``obj``; the user owns the returned id (destroy releases it)."""
    rec = Record(kind, obj, engines=engines)
    with _lock:
        h = _BASE + 16 * next(_ids)
        for dep in set(rec.engines.values()):
            _records[dep].refs += 1
            rec.deps.append(dep)
        _records[h] = rec
    return h


def view(owner_h, key, kind, obj=None, getter=None):
    """A ``const`` pointer into ``owner_h``'s object: the same id for the same
    ``key`` while the owner lives; it dies with the owner."""
    with _lock:
        owner = _records[owner_h]
        h = owner.views.get(key)
        if h is None:
            rec = Record(kind, obj, getter, owner=owner_h, engines=owner.engines)
            h = _BASE + 16 * next(_ids)
            _records[h] = rec
            owner.views[key] = h
        return h


_KIND_NAMES = {"md": "a memory descriptor", "memory": "a memory", "engine": "an engine",
               "stream": "a stream", "attr": "an attr", "post_ops": "a post_ops",
               "pd": "a primitive descriptor", "primitive": "a primitive"}


def lookup(h, kind, what=None):
    """The record of handle ``h`` of ``kind``; NULL, unknown, destroyed or
    mistyped handles are ``invalid_arguments``."""
    addr = address(h)
    if not addr:
        raise invalid("%s is NULL" % (what or kind))
    rec = _records.get(addr)
    if rec is None:
        raise invalid("%s %#x is not a live handle (destroyed or never created)"
                      % (what or kind, addr))
    if rec.kind != kind:
        raise invalid("%s %#x is %s, not %s" % (what or kind, addr, _KIND_NAMES.get(rec.kind, rec.kind),
                                                _KIND_NAMES.get(kind, kind)))
    return rec


def obj(h, kind, what=None):
    return lookup(h, kind, what).obj


def opt_obj(h, kind, what=None):
    """The object, or None for a NULL handle."""
    return obj(h, kind, what) if address(h) else None


def handle_id(h):
    return address(h)


def _delete(h):
    rec = _records.pop(h, None)
    if rec is None:
        return
    for v in list(rec.views.values()):
        _delete(v)
    for dep in rec.deps:
        d = _records.get(dep)
        if d is not None:
            d.refs -= 1
            if d.refs <= 0 and not d.user:
                _delete(dep)


def destroy(h, kind):
    """``*_destroy``: NULL is a no-op; a view or a dead handle is
    ``invalid_arguments``; an engine still referenced stays alive."""
    if not address(h):
        return
    with _lock:
        rec = lookup(h, kind)
        if not rec.user:
            raise invalid("%#x is a const view owned by another object: do not destroy it"
                          % address(h))
        rec.user = False
        if rec.refs <= 0:
            _delete(address(h))


def live_handles():
    """Number of live records (handles and views): for leak tests."""
    return len(_records)


def keep_array(h, key, ctype, values):
    """A C array owned by handle ``h`` (valid while ``h`` lives); its address."""
    values = list(values)
    with _lock:     # (the get, the growth and the fill together)
        rec = _records[address(h)]
        arr = rec.keep.get(key)
        if arr is None or len(arr) < len(values):
            if arr is not None:   # pointers handed out before stay valid
                rec.keep[(key, id(arr))] = arr
            arr = rec.keep[key] = (ctype * max(len(values), 1))()
        for i, v in enumerate(values):
            arr[i] = v
        return ctypes.addressof(arr)


def new_out(ptr, kind, o, engines=None):
    """Register ``o`` and write its new handle to the ``[out]`` pointer."""
    addr = out_address(ptr, kind)
    put(addr, ctypes.c_void_p, new_handle(kind, o, engines))


def view_out(ptr, owner, key, kind, o=None, getter=None):
    """Write to the ``[out]`` pointer a handle that views ``owner``'s ``key``."""
    put(out_address(ptr, kind), ctypes.c_void_p, view(handle_id(owner), key, kind, o, getter))


def addr_or_seq(x):
    """True if an optional array argument is given: a list or tuple, or a
    non-NULL address."""
    return isinstance(x, (list, tuple)) or bool(address(x))
