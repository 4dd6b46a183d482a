"""The primitive cache: an LRU of created implementations, as oneDNN's.

oneDNN keeps created primitives in a global LRU keyed by everything that
defines them -- the operation descriptor, the attributes, the engine and the
implementation (``src/common/primitive_cache.cpp``) -- so that creating an
identical primitive again skips its JIT compilation. Here that work is
building the kernel plan, done when the primitive is created (the primitive
descriptor only validates). The lookup is made when the descriptor is
created, from its creation arguments: a hit skips the validation and shares
the cached descriptor's state, the plan included (read-only: every kernel
copies its parameters before it runs), so the primitive has nothing to build.

Capacity: ``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` (``DNNL_PRIMITIVE_CACHE_CAPACITY``
when unset) read at import, default 1024; 0 (or a negative value) disables
the cache. :func:`set_primitive_cache_capacity` changes it at run time and
evicts the least recently used entries beyond the new capacity.

Verbose creation lines say ``create:cache_hit`` or ``create:cache_miss`` as
oneDNN 3.13 does: a primitive made from a descriptor that came from the
cache, or from a descriptor whose entry is still cached (a second primitive
from the same descriptor), is a hit.
"""
import collections
import os
import re
import sys
import threading
import time

from dnnl import verbose as _verbose
from dnnl._desc import desc
from dnnl._error import invalid
from dnnl import attr as _attr
from dnnl.attr import primitive_attr
from dnnl.engine import engine
from dnnl.memory import memory

DEFAULT_CAPACITY = 1024

_lock = threading.Lock()
_entries = collections.OrderedDict()     # key -> [key, state, engines, alive], LRU first
_stats = {"hits": 0, "misses": 0}

# Module-level switches that change which kernel a descriptor builds: part of
# the "implementation" in the key (tests flip them to compare kernels).
# {primitive module: ((module, name), ...)}; a module not loaded yet reads None.
_IMPL_SWITCHES = {"dnnl.reorder": (("dnnl.reorder", "GENERIC_PLANS"),
                                   ("dnnl._kernels.reorder_plan", "PARALLEL_MIN_ELEMS")),
                  "dnnl.resampling": (("dnnl._kernels.resampling_plan", "PARALLEL_MIN"),)}
# Per-creation fields that are never shared through the cache.
_PRIVATE = ("_vt0", "_cache_key", "_cache_entry", "_cache_hit")


def _env_capacity():
    """oneDNN's reading of the variable: a leading integer, else 0."""
    value = os.environ.get("ONEDNN_PRIMITIVE_CACHE_CAPACITY")
    if value is None:
        value = os.environ.get("DNNL_PRIMITIVE_CACHE_CAPACITY")
    if value is None:
        return DEFAULT_CAPACITY
    m = re.match(r"\s*[+-]?\d+", value)
    return int(m.group()) if m else 0


_capacity = _env_capacity()


def get_primitive_cache_capacity():
    """The primitive cache capacity (``dnnl::get_primitive_cache_capacity``).

    Returns
    -------
    int
        The number of primitives the cache holds at most; 0 means disabled.

    Examples
    --------
    >>> import dnnl
    >>> dnnl.get_primitive_cache_capacity() >= 0
    True
    """
    return _capacity


def set_primitive_cache_capacity(capacity):
    """Set the primitive cache capacity (``dnnl::set_primitive_cache_capacity``).

    Entries beyond the new capacity are evicted, least recently used first;
    0 disables the cache and empties it.

    Parameters
    ----------
    capacity : int
        The number of primitives to keep, >= 0.

    Raises
    ------
    dnnl.error
        ``invalid_arguments`` for a negative or non-integer capacity.

    Examples
    --------
    >>> import dnnl
    >>> old = dnnl.get_primitive_cache_capacity()
    >>> dnnl.set_primitive_cache_capacity(16)
    >>> dnnl.get_primitive_cache_capacity()
    16
    >>> dnnl.set_primitive_cache_capacity(old)
    """
    global _capacity
    if isinstance(capacity, bool) or not isinstance(capacity, int) and not hasattr(
            capacity, "__index__"):
        raise invalid("cache capacity must be an integer, not %r" % (capacity,))
    capacity = int(capacity.__index__())
    if capacity < 0:
        raise invalid("cache capacity must be non-negative, not %d" % capacity)
    with _lock:
        _capacity = capacity
        _evict()


def _evict():
    while len(_entries) > max(_capacity, 0):
        _entries.popitem(last=False)[1][3] = False


def clear():
    """Empty the cache and reset the hit / miss counters."""
    with _lock:
        for entry in _entries.values():
            entry[3] = False
        _entries.clear()
        _stats.update(hits=0, misses=0)


def stats():
    """``{"hits", "misses", "size", "capacity"}``: lookups since the last
    :func:`clear`, entries now cached, capacity."""
    with _lock:
        return dict(_stats, size=len(_entries), capacity=_capacity)


# ------------------------------------------------------------------ keys
class _Uncacheable(Exception):
    """An argument the key cannot represent: create without the cache."""


def _items(d):
    return tuple(sorted(d.items())) if d else ()


def _attr_token(a):
    """Attributes in a key: a snapshot of every field (post-op kinds
    included), or, when a field is not hashable, an :class:`_AttrToken`."""
    ops = a._post_ops._entries
    tok = (a._scratchpad, a._fpmath, a._apply_to_int, a._acc, a._deterministic,
           a._rnn_data, a._rnn_weights, a._rnn_weights_proj, a._dropout)
    s, z, r, m = a._scales, a._zero_points, a._reductions, a._rounding
    if s or z or r or m or ops:     # default attributes (the usual case) skip these
        tok += (_items(s), _items(z), _items(r), _items(m),
                tuple([(type(e), tuple(e)) for e in ops]))
    try:
        hash(tok)
    except TypeError:
        return _AttrToken(a)
    return tok


class _AttrToken:
    """Attributes in a key: oneDNN's attribute equality, a cheap hash."""

    __slots__ = ("attr", "_hash")

    def __init__(self, attr):
        self.attr = attr
        self._hash = hash((len(attr._scales), len(attr._zero_points),
                           len(attr._post_ops._entries), int(attr._fpmath)))

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return isinstance(other, _AttrToken) and self.attr == other.attr

    def frozen(self):
        return _AttrToken(self.attr.copy())


_PLAIN = frozenset({type(None), bool, int, float, str, desc})


def _token(x, engines):
    """A hashable stand-in for one creation argument; engines are collected
    (a CPU engine is keyed by kind and index, as oneDNN's engine id)."""
    t = type(x)
    if t in _PLAIN:
        return x
    if t is engine:
        engines.append(x)
        return ("engine", x._kind, x._index)
    if isinstance(x, primitive_attr):
        return _attr_token(x)
    if isinstance(x, (list, tuple)):
        return tuple([v if type(v) in _PLAIN else _token(v, []) for v in x])
    if isinstance(x, int):      # enums: their value (equal to it, hashed in C)
        return int(x)
    if isinstance(x, (float, desc)):
        return x
    key = getattr(x, "__dict__", {}).get("_cache_key", _Uncacheable)
    if key is not _Uncacheable:      # a primitive descriptor (a hint)
        if key is None:
            raise _Uncacheable()
        return ("pd", key)
    if hasattr(x, "__index__"):
        return int(x.__index__())
    if hasattr(x, "__float__"):
        return float(x)
    raise _Uncacheable()


_switches = {}  # class -> ((module object, name), ...), once the modules are loaded


def _switch_spec(cls):
    pairs = [(sys.modules.get(m), n) for m, n in _IMPL_SWITCHES.get(cls.__module__, ())]
    if all(m is not None for m, _ in pairs):
        _switches[cls] = tuple(pairs)
    return pairs


def _key(cls, args, engines):
    """The key of creating a ``cls`` from ``args``: one flat tuple (a hit's
    cost is mostly here, so the common cases are inlined). Its head: the
    class, the default fpmath mode (default attributes take it at creation)
    and the values of the class's implementation switches."""
    toks = [cls, _attr.get_default_fpmath_mode()]
    spec = _switches.get(cls)
    for m, n in spec if spec is not None else _switch_spec(cls):
        toks.append(getattr(m, n, None))
    add = toks.append
    for a in args:
        t = type(a)
        if t is desc:
            add(a)
        elif t is engine:
            engines.append(a)
            add(("engine", a._kind, a._index))
        elif t is primitive_attr:
            add(_attr_token(a))
        elif t in _PLAIN:
            add(a)
        elif isinstance(a, int):    # enums: their value (equal to it, hashed in C)
            add(int(a))
        elif t is memory:           # (src_mem, dst_mem) keys as (eng, md, eng, md)
            add(_token(a._engine, engines))
            add(a._md)
        else:
            add(_token(a, engines))
    return tuple(toks)


def _frozen(key):
    """The key as stored: attributes copied, so later edits do not reach it."""
    return tuple([t.frozen() if type(t) is _AttrToken else t for t in key])


# ------------------------------------------------------------------ hooks
def create(pd, init, args):
    """Initialise ``pd`` by ``init(*args)``, or from the cache.

    The hook of :meth:`dnnl.primitive.primitive_desc._create`. Descriptors
    served by one entry share one attribute dict (as oneDNN's primitives
    share one implementation), so the kernel plan that the first primitive
    made from any of them builds serves them all.
    """
    key = None
    engines = []
    if _capacity > 0:
        try:
            key = _key(type(pd), args, engines)
        except Exception:           # _Uncacheable, or an argument init refuses
            key, engines = None, []
        else:
            with _lock:
                entry = _entries.get(key)
                if entry is not None:
                    _entries.move_to_end(entry[0])
                    _stats["hits"] += 1
                else:
                    _stats["misses"] += 1
            if entry is not None:
                if entry[2] == tuple(engines):
                    pd.__dict__ = shared = entry[1]
                else:   # an equal engine object of the caller's: a copy that uses it
                    swap = {id(old): new for old, new in zip(entry[2], engines)}
                    shared = pd.__dict__
                    shared.update({k: swap.get(id(v), v) for k, v in entry[1].items()
                                   if k not in _PRIVATE})
                    shared["_cache_key"], shared["_cache_entry"] = entry[0], entry
                shared["_cache_hit"] = True
                if _verbose.create_on:
                    shared["_vt0"] = time.perf_counter()
                return
    if _verbose.create_on:
        pd._vt0 = time.perf_counter()
    init(*args)
    stored = entry = None
    if key is not None:
        stored = _frozen(key)
        entry = [stored, pd.__dict__, tuple(engines), True]
        with _lock:
            if _capacity > 0:
                old = _entries.pop(stored, None)
                if old is not None:
                    old[3] = False
                _entries[stored] = entry
                _evict()
            else:
                entry[3] = False
    pd._cache_key, pd._cache_entry, pd._cache_hit = stored, entry, False


def claim(pd):
    """Whether creating a primitive from ``pd`` now is a cache hit (oneDNN's
    verbose ``cache_hit``): ``pd`` came from the cache, or its entry is still
    there (a second primitive from one descriptor)."""
    d = pd.__dict__
    hit = d.get("_cache_hit", False)
    entry = d.get("_cache_entry")
    d["_cache_hit"] = entry is not None and entry[3]
    return hit
