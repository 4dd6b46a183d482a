"""``dnnl.engine`` and ``dnnl.stream``: the CPU device and its in-order queue.

There is one CPU engine (index 0); execution is synchronous, so
``stream.wait()`` has nothing to wait for.
"""
from dnnl._enums import engine_kind, stream_flags
from dnnl._error import invalid


class engine:
    """An execution device, as ``dnnl::engine``.

    >>> import dnnl
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> eng.get_kind(), dnnl.engine.get_count(dnnl.engine.kind.cpu)
    (<engine_kind.cpu: 1>, 1)
    """

    kind = engine_kind

    def __init__(self, kind=engine_kind.cpu, index=0):
        try:
            kind = engine_kind(int(kind))
        except ValueError:
            raise invalid("unknown engine kind %r" % (kind,)) from None
        if not 0 <= int(index) < engine.get_count(kind):
            raise invalid("no %s engine with index %s" % (kind.name, index))
        self._kind = kind
        self._index = int(index)

    @staticmethod
    def get_count(kind):
        """Number of devices of ``kind``: one CPU, nothing else."""
        return 1 if int(kind) == engine_kind.cpu else 0

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
        if not isinstance(aengine, engine):
            raise invalid("a stream needs an engine")
        self._engine = aengine
        self._flags = int(flags)
        if self._flags & stream_flags.profiling:
            from dnnl._error import unimpl
            raise unimpl("profiling streams exist only on GPU engines")

    def get_engine(self):
        return self._engine

    def wait(self):
        """Execution is synchronous: returns at once."""
        return self

    def __repr__(self):
        return "<dnnl.stream on %r>" % self._engine
