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
import itertools
import os
import re
import threading

from dnnl._model.desc import desc
from dnnl._core.error import invalid
from dnnl._core.settings import settings
from dnnl.attr import primitive_attr
from dnnl._model.engine import engine
from dnnl._model.memory import memory

DEFAULT_CAPACITY = 1024

# _lock guards every change to _entries, _lru, _front, _stats and the
# serials, so that none relies on the GIL (free-threaded builds have none);
# lookups read _entries and _front without it: one dict get is atomic, and
# an entry found but evicted meanwhile is refused by _serve (its alive flag,
# read under the lock). docs/internals/architecture.md lists the rest.
_lock = threading.Lock()
_entries = {}                       # key -> Entry
_lru = collections.OrderedDict()    # serial -> the same entry, least recently used first
_serials = itertools.count()        # (a hit touches its entry by this small int; drawn under _lock)
_stats = {"hits": 0, "misses": 0}


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
        entry.alive = False
        del _entries[entry.key]


def clear():
    """Empty the cache and reset the hit / miss counters."""
    with _lock:
        for entry in _entries.values():
            entry.alive = False
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
# twice (lookup, LRU touch) and compared once. Each keyed type (descriptor,
# attribute, engine, memory, the settings) makes its own key, a token that
# hashes in C (see dnnl._core.keys); the cache reads no other module's fields.


class _Uncacheable(Exception):
    """An argument the key cannot represent: create without the cache."""


_PLAIN = frozenset({type(None), bool, int, float, str})


def _token(x, engines):
    """A hashable stand-in for one creation argument; engines are collected
    (a caller's engine equal to a cached one replaces it in what is served)."""
    t = type(x)
    if t in _PLAIN:
        return x
    if isinstance(x, engine):
        engines.append(x)
        return x.cache_key()
    if isinstance(x, memory):       # (src_mem, dst_mem): keyed as (engine, md)
        engines.append(x.get_engine())
        return x.cache_key()
    if isinstance(x, (list, tuple)):
        return tuple([v if type(v) in _PLAIN else _token(v, engines) for v in x])
    if isinstance(x, int):      # enums: their value (hashed in C, unlike an enum)
        return int(x)
    if isinstance(x, float):
        return float(x)
    keyed = getattr(t, "cache_key", None)
    if keyed is not None:       # descriptors, attributes, a hint's primitive descriptor
        key = keyed(x)
        if key is None:         # a hint that is not cached itself
            raise _Uncacheable()
        return key
    if hasattr(x, "__index__"):
        return int(x.__index__())
    if hasattr(x, "__float__"):
        return float(x)
    raise _Uncacheable()


def _state():
    """What every key holds besides the arguments: the switches that choose
    the kernels and the default attributes' fpmath mode."""
    return settings.cache_key()


def _key(cls, state, args, engines):
    """The key of creating a ``cls`` from ``args`` under ``state``
    (:func:`_state`): one flat tuple (the common cases inlined)."""
    toks = [cls, state]
    add = toks.append
    for a in args:
        t = type(a)
        if t is desc or t is primitive_attr:
            add(a.cache_key())
        elif t in _PLAIN:
            add(a)
        elif t is engine:
            engines.append(a)
            add(a.cache_key())
        elif isinstance(a, int):    # enums: their value (hashed in C, unlike an enum)
            add(int(a))
        elif isinstance(a, memory):     # (src_mem, dst_mem) keys as (eng, md, eng, md)
            engines.append(a.get_engine())
            toks.extend(a.cache_key())
        else:
            add(_token(a, engines))
    return tuple(toks)


class Entry:
    """One cached creation: its key, the descriptor state it serves (the
    plans object in it is shared on purpose), the engines in that state,
    whether it is still cached, and its LRU serial."""

    __slots__ = ("key", "state", "engines", "alive", "serial")

    def __init__(self, key, state, engines, serial):
        self.key, self.state, self.engines = key, state, engines
        self.alive, self.serial = True, serial


# ------------------------------------------------------------------ hooks
# In front of the entries, a map keyed by the arguments' identities: a
# program that creates a primitive again from the same descriptor and
# attribute objects (the usual case) finds its entry without building the
# key. A front entry holds its arguments (so their ids stay theirs) and what
# identity does not pin: each attribute's key (its setters change it) and
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
            checks.append((i, a.cache_key()))
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


def _serve(restore, entry, engines):
    """Initialise a descriptor from a cache entry by ``restore`` and count a
    hit; False, and nothing done, when the entry has been evicted meanwhile."""
    _lock.acquire()     # (cheaper than "with"; nothing here raises)
    alive = entry.alive
    if alive:
        _stats["hits"] += 1
        _lru.move_to_end(entry.serial)
    _lock.release()
    if not alive:
        return False
    if entry.engines == engines:
        restore(entry.state)
    else:   # an equal engine object of the caller's: served with it
        restore(entry.state, {id(old): new for old, new in zip(entry.engines, engines)})
    return True


def _remember(fkey, entry, args, engines):
    """Put a front entry for ``args`` (same engines as ``entry``'s only)."""
    if entry.engines != engines:
        return
    checks = _front_checks(args)
    if checks is not None:
        with _lock:     # (the size test and the insert together)
            if len(_front) >= 2 * _capacity:
                _front.clear()
            _front[fkey] = (entry, args, checks)


def create(cls, init, args, take, restore):
    """Initialise a descriptor of class ``cls`` by ``init(*args)``, or from
    the cache; returns ``(key, entry, hit)``: the entry it made or came from
    (None: not cached), its key, and whether it came from it.

    The hook of :meth:`dnnl.primitive.primitive_desc._create`. The
    descriptor's state is opaque here: ``take()`` gives it after a miss,
    ``restore(state, engines)`` takes it back on a hit (``engines``: the
    caller's equal engines, by the id of the cached ones). The plans object
    in it is the same one (as oneDNN's primitives share one implementation),
    so the kernel plan that the first primitive made from any of them builds
    serves them all.
    """
    key = fkey = None
    engines = []
    if _capacity > 0:
        state = _state()
        fkey = (cls, state, *map(id, args))
        front = _front.get(fkey)
        if front is not None:
            entry = front[0]
            for i, snap in front[2]:    # an attribute's key, a list's contents
                a = args[i]
                if a.cache_key() is not snap if type(a) is primitive_attr else a != snap:
                    break
            else:                       # the very same engines, too
                if _serve(restore, entry, entry.engines):
                    return entry.key, entry, True
        try:
            key = _key(cls, state, args, engines)
        except Exception:           # _Uncacheable, or an argument init refuses
            key, engines = None, []
        else:
            entry = _entries.get(key)
            if entry is not None and _serve(restore, entry, engines):
                _remember(fkey, entry, args, engines)
                return entry.key, entry, True
            with _lock:
                _stats["misses"] += 1
    init(*args)
    entry = None
    if key is not None:
        state = take()
        with _lock:
            entry = Entry(key, state, engines, next(_serials))
            if _capacity > 0:
                old = _entries.pop(key, None)
                if old is not None:
                    old.alive = False
                    del _lru[old.serial]
                _entries[key] = _lru[entry.serial] = entry
                _evict()
            else:
                entry.alive = False
        _remember(fkey, entry, args, engines)
    return key, entry, False
