"""``dnnl.engine`` and ``dnnl.stream``: the CPU device and its in-order queue.

There is one CPU engine (index 0); execution is synchronous, so
``stream.wait()`` has nothing to wait for.
"""
from dnnl._core.args import instance, integer, not_another_enum
from dnnl._core.enums import engine_kind, stream_flags
from dnnl._core.error import invalid, unimpl

_KNOWN_FLAGS = stream_flags.in_order | stream_flags.out_of_order | stream_flags.profiling


class engine:
    """An execution device, as ``dnnl::engine``.

    >>> import dnnl
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> eng.get_kind(), dnnl.engine.get_count(dnnl.engine.kind.cpu)
    (<engine_kind.cpu: 1>, 1)
    """

    kind = engine_kind

    def __init__(self, kind=engine_kind.cpu, index=0):
        k = integer(not_another_enum(kind, engine_kind, "kind"), "kind")
        try:
            kind = engine_kind(k)
        except ValueError:
            raise invalid("kind %d is not an engine kind" % k) from None
        index = integer(index, "index")
        if not 0 <= index < engine.get_count(kind):
            raise invalid("index %d: there is no %s engine with this index"
                          % (index, kind.name))
        self._kind = kind
        self._index = index
        self._key = ("engine", int(kind), index)

    def cache_key(self):
        """The primitive cache's key: kind and index, as oneDNN's engine id
        (equal engines share cached primitives)."""
        return self._key

    @staticmethod
    def get_count(kind):
        """Number of devices of ``kind``: one CPU, nothing else."""
        return 1 if integer(kind, "kind") == engine_kind.cpu else 0

    def get_kind(self):
        return self._kind

    def get_index(self):
        return self._index

    # Equality is identity, as dnnl::engine compares handles: two engines
    # created separately are different engines, even for the same device.

    def __repr__(self):
        return "<dnnl.engine %s:%d>" % (self._kind.name, self._index)


class stream:
    """An execution queue on an engine, as ``dnnl::stream`` (always in order)."""

    flags = stream_flags

    def __init__(self, aengine, flags=stream_flags.default_flags):
        instance(aengine, engine, "aengine")
        self._engine = aengine
        self._flags = integer(flags, "flags")
        if self._flags & stream_flags.profiling:
            raise unimpl("profiling streams exist only on GPU engines")
        # oneDNN 3.13's CPU runtime (measured): an order flag is required and
        # unknown bits are refused.
        if not self._flags & (stream_flags.in_order | stream_flags.out_of_order) \
                or self._flags & ~_KNOWN_FLAGS:
            raise invalid("flags %#x: a stream is in_order or out_of_order, with no "
                          "other bits than profiling" % self._flags)

    def get_engine(self):
        return self._engine

    def wait(self):
        """Execution is synchronous: returns at once."""
        return self

    def __repr__(self):
        return "<dnnl.stream on %r>" % self._engine
