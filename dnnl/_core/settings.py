"""The switches that choose how a primitive is built, in one object.

Each switch changes which kernel plan a descriptor builds, or the default a
new attribute starts with, so a primitive created under one value must not
serve a creation under another: :meth:`Settings.cache_key` is part of every
primitive-cache key. Tests flip the switches to compare kernels
(``settings.changed(generic_reorder_plans=True)``).
"""
import contextlib
import os
import threading

from dnnl._core.keys import token
from dnnl._core.enums import fpmath_mode

_FPMATH_NAMES = {"strict": fpmath_mode.strict, "bf16": fpmath_mode.bf16,
                 "f16": fpmath_mode.f16, "tf32": fpmath_mode.tf32, "any": fpmath_mode.any}


def _env_fpmath():
    for var in ("ONEDNN_DEFAULT_FPMATH_MODE", "DNNL_DEFAULT_FPMATH_MODE"):
        val = os.environ.get(var)
        if val:
            return _FPMATH_NAMES.get(val.strip().lower(), fpmath_mode.strict)
    return fpmath_mode.strict


class Settings:
    """The switches; assigning one changes :attr:`key` (:meth:`cache_key`).

    The primitive kinds add theirs when they register
    (``dnnl._core.registry.register_primitive(..., switches=)``): reorder's
    ``generic_reorder_plans`` and ``reorder_parallel_min``, resampling's
    ``resampling_parallel_min``.
    ``default_fpmath_mode``: the fpmath mode new attributes start with
    (``ONEDNN_DEFAULT_FPMATH_MODE``, read at the first use).
    A primitive kind may add switches of its own (:meth:`add_switch`).
    """

    # Writers hold _lock from the value to the new key, so the last key
    # made is always the key of the values in place (two threads setting
    # switches at once cannot leave a key of older values). Readers take no
    # lock: a switch is one dict get, the key one attribute read. A creation
    # racing a change may be keyed under the values before or after it:
    # every switch chooses among plans of identical results (the suite checks
    # the fast plans against the generic ones), so no result depends on it.
    _lock = threading.RLock()

    def __init__(self):
        # the kinds add their own switches when they register
        values = {"default_fpmath_mode": None}  # None: not read from the environment yet
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_watchers", [])
        self._rekey()

    def _rekey(self):
        # kept current rather than made on demand: a prepared array call
        # reads it on every call (an attribute, not a method call)
        key = token(tuple(self._values.items()))
        object.__setattr__(self, "key", key)
        for watcher in self._watchers:
            watcher(key)

    def watch(self, callback):
        """Call ``callback(key)`` with :attr:`key` now and whenever it
        changes (under the writers' lock): for a table that keeps the key
        in C rather than reading the attribute on every call."""
        with self._lock:
            self._watchers.append(callback)
            callback(self.key)

    def add_switch(self, name, default):
        """A new switch (a primitive kind's), at ``default``; an existing
        one keeps its value."""
        if not name.isidentifier() or name.startswith("_") or hasattr(Settings, name):
            raise ValueError("%r cannot name a switch" % (name,))
        with self._lock:
            self._values.setdefault(name, default)
            self._rekey()

    def names(self):
        """The switches' names."""
        return tuple(self._values)

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError("no setting %r (settings: %s)"
                                 % (name, ", ".join(self._values))) from None

    def __setattr__(self, name, value):
        if name not in self._values:
            raise AttributeError("no setting %r (settings: %s)"
                                 % (name, ", ".join(self._values)))
        with self._lock:
            self._values[name] = value
            self._rekey()

    def fpmath_default(self):
        """The default fpmath mode, read from the environment at the first call."""
        mode = self._values["default_fpmath_mode"]
        if mode is None:
            with self._lock:    # (another thread may have set it meanwhile)
                mode = self._values["default_fpmath_mode"]
                if mode is None:
                    mode = self._values["default_fpmath_mode"] = _env_fpmath()
                    self._rekey()
        return mode

    def cache_key(self):
        """:attr:`key`: a token of every switch's value (the same token for
        the same values; the fpmath mode not yet read from the environment
        is a value of its own: this reads it first)."""
        self.fpmath_default()
        return self.key

    @contextlib.contextmanager
    def changed(self, **values):
        """Within: the switches set to ``values``; restored after."""
        old = {name: getattr(self, name) for name in values}
        try:
            for name, value in values.items():
                setattr(self, name, value)
            yield self
        finally:
            for name, value in old.items():
                setattr(self, name, value)

    def __repr__(self):
        return "<dnnl settings %s>" % ", ".join("%s=%r" % kv for kv in self._values.items())


settings = Settings()
