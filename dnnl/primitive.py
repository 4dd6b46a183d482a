"""What every primitive shares: its descriptor's queries and argument checks.

``primitive_desc`` answers the C++ API's queries (``src_desc``,
``scratchpad_desc``, ``impl_info_str``, ``query_s64``...); ``primitive``
holds a descriptor and checks the execution-argument map before a kernel runs,
so a bad map raises ``dnnl.error`` and writes nothing.
"""
import functools
import time

from dnnl import verbose as _verbose
from dnnl._desc import desc, equal
from dnnl._enums import C, primitive_kind, query, scratchpad_mode
from dnnl._args import integer
from dnnl._error import invalid
from dnnl.attr import primitive_attr
from dnnl.engine import stream
from dnnl.memory import memory

ARG_SCRATCHPAD = C["DNNL_ARG_SCRATCHPAD"]
ARG_ATTR_SCALES = C["DNNL_ARG_ATTR_SCALES"]
ARG_ATTR_ZERO_POINTS = C["DNNL_ARG_ATTR_ZERO_POINTS"]


def copy_attr(attr):
    """The primitive's own copy of ``attr`` (None means default attributes)."""
    if attr is None:
        return primitive_attr()
    if not isinstance(attr, primitive_attr):
        raise invalid("attr must be a dnnl.primitive_attr")
    return attr.copy()


class primitive_desc:
    """Base of every primitive descriptor (``dnnl::primitive_desc``)."""

    kind = primitive_kind.undef
    _impl = "ref:any"
    _empty = False

    def _create(self, allow_empty, init, *args):
        """Run ``init(*args)``. With ``allow_empty`` a failure leaves an empty
        descriptor (false in a boolean context), as the C++ API's does."""
        try:
            init(*args)
        except Exception:
            if not allow_empty:
                raise
            self._empty = True

    def __bool__(self):
        return not self._empty

    def _init_base(self, aengine, attr, mds):
        """``mds``: {query: md} for the ``*_desc()`` queries; ``exec_args``
        maps execution-argument ids to the same mds."""
        self._engine = aengine
        self._attr = copy_attr(attr)
        self._mds = mds
        if _verbose.create_on:
            self._vt0 = time.perf_counter()

    # -- queries ----------------------------------------------------------------
    def get_engine(self):
        return self._engine

    def get_primitive_attr(self):
        """A copy: changing it does not change the primitive."""
        return self._attr.copy()

    def get_kind(self):
        return self.kind

    def impl_info_str(self):
        return self._impl

    def next_impl(self):
        """There is one implementation: always False (``dnnl_last_impl_reached``)."""
        return False

    def query_md(self, what, idx=0):
        """The md for a ``dnnl_query_*_md`` query, or the zero md."""
        what = integer(what, "what")
        idx = integer(idx, "idx")
        if what == query.exec_arg_md:
            return self._exec_arg_md(idx)
        if idx != 0:
            return desc()
        if what == query.scratchpad_md:
            return self.scratchpad_desc()
        return self._mds.get(what, desc())

    def _exec_arg_md(self, arg):
        return self.exec_args().get(arg, desc())

    def exec_args(self):
        return {}

    def scratchpad_desc(self):
        """Our kernels book no scratchpad: the zero md in either mode."""
        return desc()

    def query_s64(self, what):
        what = integer(what, "what")
        if what == query.memory_consumption_s64:
            return 0
        if what == query.scratchpad_engine:
            return self._engine
        raise invalid("query %s is not an s64 query of this primitive" % what)

    def query_s32(self, what):
        what = integer(what, "what")
        if what == query.num_of_inputs_s32:
            return self._num_inputs
        if what == query.num_of_outputs_s32:
            return 1
        raise invalid("query %s is not an s32 query of this primitive" % what)

    def src_desc(self, idx=0):
        return self.query_md(query.src_md, idx)

    def dst_desc(self, idx=0):
        return self.query_md(query.dst_md, idx)

    def diff_src_desc(self, idx=0):
        return self.query_md(query.diff_src_md, idx)

    def diff_dst_desc(self, idx=0):
        return self.query_md(query.diff_dst_md, idx)

    def workspace_desc(self):
        return desc()

    def __repr__(self):
        return "<dnnl.%s.primitive_desc %s>" % (self.kind.name, self._impl)


def arg_memory(args, arg, what, md=None, output=False):
    """``args[arg]``, checked to be a memory (with ``md`` if given) with a
    buffer, and a writable one when the primitive writes it (``output``)."""
    mem = args.get(arg)
    if mem is None:
        raise invalid("execution argument %s (%d) is missing" % (what, arg))
    if not isinstance(mem, memory):
        raise invalid("execution argument %s must be a dnnl.memory" % what)
    if md is not None and mem._md is not md and not equal(mem._md, md):
        raise invalid("execution argument %s has %r, the primitive expects %r"
                      % (what, mem._md, md))
    if mem._address == 0 and mem._nbytes:
        raise invalid("execution argument %s has no buffer" % what)
    if output and mem._readonly:
        raise invalid("execution argument %s is a read-only buffer" % what)
    return mem


def _verbose_execute(execute):
    """Wrap a subclass's ``execute``: with verbose off, one flag test."""
    @functools.wraps(execute)
    def wrapper(self, *args, **kwargs):
        if not _verbose.exec_on:
            return execute(self, *args, **kwargs)
        t0 = time.perf_counter()
        result = execute(self, *args, **kwargs)
        _verbose.on_exec(self, args[1:], time.perf_counter() - t0, kwargs)
        return result
    return wrapper


class primitive:
    """Base of every primitive (``dnnl::primitive``).

    Subclasses define ``execute``; it is wrapped once, at class creation, so
    that verbose mode (``dnnl.verbose``) can print an execution line.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "execute" in cls.__dict__:
            cls.execute = _verbose_execute(cls.__dict__["execute"])

    def __init__(self, pd):
        if not isinstance(pd, primitive_desc):
            raise invalid("a primitive needs a primitive descriptor")
        if pd._empty:
            raise invalid("cannot create a primitive from an empty primitive descriptor")
        self._pd = pd
        if _verbose.create_on:
            t0 = pd.__dict__.pop("_vt0", None)
            _verbose.on_create(self, time.perf_counter() - t0 if t0 is not None else 0.0)

    def get_primitive_desc(self):
        return self._pd

    def get_kind(self):
        return self._pd.kind

    def _check_stream(self, astream):
        """The stream must belong to the primitive's engine (status 2 otherwise)."""
        if not isinstance(astream, stream):
            raise invalid("execute needs a dnnl.stream")
        if astream.get_engine() is not self._pd._engine:
            raise invalid("the stream's engine is not the primitive's engine")

    def _check_scratchpad(self, args):
        """A user-mode scratchpad of size 0 needs no argument; ours are all 0."""
        if (self._pd._attr.get_scratchpad_mode() == scratchpad_mode.user
                and self._pd.scratchpad_desc().get_size()):
            arg_memory(args, ARG_SCRATCHPAD, "DNNL_ARG_SCRATCHPAD")
