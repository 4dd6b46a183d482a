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
import importlib
import itertools
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
_entries = {}                       # key -> [key, state, engines, alive, serial]
_lru = collections.OrderedDict()    # serial -> the same entry, least recently used first
_serials = itertools.count()        # (a hit touches its entry by this small int)
_stats = {"hits": 0, "misses": 0}

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
        _front.clear()


def _evict():
    while len(_lru) > max(_capacity, 0):
        entry = _lru.popitem(last=False)[1]
        entry[3] = False
        del _entries[entry[0]]


def clear():
    """Empty the cache and reset the hit / miss counters."""
    with _lock:
        for entry in _entries.values():
            entry[3] = False
        _entries.clear()
        _lru.clear()
        _front.clear()
        _stats.update(hits=0, misses=0)


def stats():
    """``{"hits", "misses", "size", "capacity"}``: lookups since the last
    :func:`clear`, entries now cached, capacity."""
    with _lock:
        return dict(_stats, size=len(_entries), capacity=_capacity)


# ------------------------------------------------------------------ keys
# A hit's cost is mostly its key: built from the creation arguments, hashed
# twice (lookup, LRU touch) and compared once. So every piece of a key hashes
# in C: ints, and, for a descriptor or an attribute, a token -- one object per
# distinct value, found once and kept on the (immutable) descriptor or on the
# attribute until its next setter call.
_tokens = {}            # value -> its token
_TOKENS_MAX = 1 << 16   # then forget them all: a value's new token only misses


class _Uncacheable(Exception):
    """An argument the key cannot represent: create without the cache."""


def _intern(value):
    """The token of ``value`` (hashable): equal values, one token."""
    tok = _tokens.get(value)
    if tok is None:
        if len(_tokens) >= _TOKENS_MAX:
            _tokens.clear()
        tok = _tokens.setdefault(value, object())
    return tok


def _md_token(md):
    tok = md._token
    if tok is None:
        tok = _intern(md)
        object.__setattr__(md, "_token", tok)
    return tok


def _items(d):
    return tuple(sorted(d.items())) if d else ()


def _attr_token(a):
    """The token of an attribute's fields (post-op kinds included), or, when
    a field is not hashable, an :class:`_AttrToken`."""
    tok = a._key
    if tok is not None:
        return tok
    ops = a._post_ops._entries
    tok = (a._scratchpad, a._fpmath, a._apply_to_int, a._acc, a._deterministic,
           a._rnn_data, a._rnn_weights, a._rnn_weights_proj, a._dropout)
    s, z, r, m = a._scales, a._zero_points, a._reductions, a._rounding
    if s or z or r or m or ops:     # default attributes (the usual case) skip these
        tok += (_items(s), _items(z), _items(r), _items(m),
                tuple([(type(e), tuple(e)) for e in ops]))
    try:
        tok = _intern(tok)
    except TypeError:
        tok = _AttrToken(a)
    a._key = tok
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


_PLAIN = frozenset({type(None), bool, int, float, str})


def _token(x, engines):
    """A hashable stand-in for one creation argument; engines are collected
    (a CPU engine is keyed by kind and index, as oneDNN's engine id)."""
    t = type(x)
    if t in _PLAIN:
        return x
    if t is desc:
        return _md_token(x)
    if t is engine:
        engines.append(x)
        return x._key
    if isinstance(x, primitive_attr):
        return _attr_token(x)
    if isinstance(x, (list, tuple)):
        return tuple([v if type(v) in _PLAIN else _token(v, []) for v in x])
    if isinstance(x, int):      # enums: their value (hashed in C, unlike an enum)
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, desc):
        return _md_token(x)
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


# Module-level switches that change which kernel a descriptor builds: part of
# every key, as "the implementation" (tests flip them to compare kernels).
_SWITCH_MODULES = ("dnnl.reorder", "dnnl._kernels.reorder_plan",
                   "dnnl._kernels.resampling_plan")
_reorder = _reorder_plan = _resampling_plan = None   # those modules, at first use


def _state():
    """What every key holds besides the arguments: the default fpmath mode
    (default attributes take it at creation) and the switches' values."""
    if _reorder is None:
        _bind_switches()
    return (id(_attr._default_fpmath), _reorder.GENERIC_PLANS,
            _reorder_plan.PARALLEL_MIN_ELEMS, _resampling_plan.PARALLEL_MIN)


def _bind_switches():
    global _reorder, _reorder_plan, _resampling_plan
    _attr.get_default_fpmath_mode()     # read the environment once
    for name in _SWITCH_MODULES:
        importlib.import_module(name)
    _reorder, _reorder_plan, _resampling_plan = [sys.modules[n] for n in _SWITCH_MODULES]


def _key(cls, state, args, engines):
    """The key of creating a ``cls`` from ``args`` under ``state``
    (:func:`_state`): one flat tuple (the common cases inlined)."""
    toks = [cls, state]
    add = toks.append
    for a in args:
        t = type(a)
        if t is desc:
            tok = a._token
            add(tok if tok is not None else _md_token(a))
        elif t is engine:
            engines.append(a)
            add(a._key)
        elif t is primitive_attr:
            tok = a._key
            add(tok if tok is not None else _attr_token(a))
        elif t in _PLAIN:
            add(a)
        elif isinstance(a, int):    # enums: their value (hashed in C, unlike an enum)
            add(int(a))
        elif t is list or t is tuple:
            add(tuple([v if type(v) in _PLAIN else _token(v, engines) for v in a]))
        elif t is memory:           # (src_mem, dst_mem) keys as (eng, md, eng, md)
            add(_token(a._engine, engines))
            add(_md_token(a._md))
        else:
            add(_token(a, engines))
    return tuple(toks)


def _frozen(key):
    """The key as stored: attributes copied, so later edits do not reach it."""
    return tuple([t.frozen() if type(t) is _AttrToken else t for t in key])


# ------------------------------------------------------------------ hooks
# In front of the entries, a map keyed by the arguments' identities: a
# program that creates a primitive again from the same descriptor and
# attribute objects (the usual case) finds its entry without building the
# key. A front entry holds its arguments (so their ids stay theirs) and what
# identity does not pin: each attribute's token (its setters reset it) and
# each list's contents. Memories are never held (nor their buffers).
_front = {}             # (head, id of each argument) -> (entry, args, checks)
_FRONT_TYPES = _PLAIN | {desc, engine, primitive_attr, list, tuple}


def _front_checks(args):
    """What a front entry for ``args`` checks besides identities, or None
    when ``args`` cannot have a front entry."""
    checks = []
    for i, a in enumerate(args):
        t = type(a)
        if t is primitive_attr:
            checks.append((i, a._key))
        elif t is list:
            if not _PLAIN.issuperset(map(type, a)):
                return None
            checks.append((i, list(a)))
        elif t is tuple:
            if not _PLAIN.issuperset(map(type, a)):
                return None
        elif t not in _FRONT_TYPES and not isinstance(a, int):
            return None
    return tuple(checks)


def _serve(pd, entry, engines):
    """Initialise ``pd`` from a cache entry and count a hit; False, and
    nothing done, when the entry has been evicted meanwhile."""
    _lock.acquire()     # (cheaper than "with"; nothing here raises)
    alive = entry[3]
    if alive:
        _stats["hits"] += 1
        _lru.move_to_end(entry[4])
    _lock.release()
    if not alive:
        return False
    if entry[2] == engines:
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
    return True


def _remember(fkey, entry, args, engines):
    """Put a front entry for ``args`` (same engines as ``entry``'s only)."""
    if entry[2] != engines:
        return
    checks = _front_checks(args)
    if checks is not None:
        if len(_front) >= 2 * _capacity:
            _front.clear()
        _front[fkey] = (entry, args, checks)


def create(pd, init, args):
    """Initialise ``pd`` by ``init(*args)``, or from the cache.

    The hook of :meth:`dnnl.primitive.primitive_desc._create`. Descriptors
    served by one entry share one attribute dict (as oneDNN's primitives
    share one implementation), so the kernel plan that the first primitive
    made from any of them builds serves them all.
    """
    key = fkey = None
    engines = []
    if _capacity > 0:
        cls, state = type(pd), _state()
        fkey = (cls, state, *map(id, args))
        front = _front.get(fkey)
        if front is not None:
            entry = front[0]
            for i, snap in front[2]:    # an attribute's token, a list's contents
                a = args[i]
                if a._key is not snap if type(a) is primitive_attr else a != snap:
                    break
            else:                       # the very same engines, too
                if _serve(pd, entry, entry[2]):
                    return
        try:
            key = _key(cls, state, args, engines)
        except Exception:           # _Uncacheable, or an argument init refuses
            key, engines = None, []
        else:
            entry = _entries.get(key)
            if entry is not None and _serve(pd, entry, engines):
                _remember(fkey, entry, args, engines)
                return
            with _lock:
                _stats["misses"] += 1
    if _verbose.create_on:
        pd._vt0 = time.perf_counter()
    init(*args)
    stored = entry = None
    if key is not None:
        stored = _frozen(key)
        entry = [stored, pd.__dict__, engines, True, next(_serials)]
        with _lock:
            if _capacity > 0:
                old = _entries.pop(stored, None)
                if old is not None:
                    old[3] = False
                    del _lru[old[4]]
                _entries[stored] = _lru[entry[4]] = entry
                _evict()
            else:
                entry[3] = False
        _remember(fkey, entry, args, engines)
    pd._cache_key, pd._cache_entry, pd._cache_hit = stored, entry, False
