"""What every primitive shares: its descriptor's queries and the one binder.

``primitive_desc`` answers the C++ API's queries (``src_desc``,
``scratchpad_desc``, ``impl_info_str``, ``query_s64``...) and *declares* its
execution arguments (``exec_args()``: ``{arg: (md, usage)}``, scales, zero
points and post-op ``src1`` included). ``primitive.execute`` is the binder, as
oneDNN's ``src/common/primitive_exec_types.cpp``: it checks the stream and
the argument map against that declaration, so a bad map raises
``dnnl.error`` and writes nothing, then hands the bound memories to the
descriptor's ``_execute`` (the kernel plan) and, in verbose mode, reports
the call. Subclasses keep only their semantics.
"""
import time

from dnnl.primitive import cache as _cache
from dnnl._platform import isa as _isa
from dnnl import verbose as _verbose
from dnnl._model.desc import desc, equal
from dnnl._core.enums import C, primitive_kind, query, scratchpad_mode
from dnnl._core.args import integer
from dnnl._core.error import error, invalid, unimpl, wrong_type
from dnnl._core.keys import remember
from dnnl.attr import primitive_attr
from dnnl._model.engine import stream
from dnnl._model.memory import bind_declared, memory, span_bytes

ARG_SCRATCHPAD = C["DNNL_ARG_SCRATCHPAD"]
ARG_ATTR_SCALES = C["DNNL_ARG_ATTR_SCALES"]
ARG_ATTR_ZERO_POINTS = C["DNNL_ARG_ATTR_ZERO_POINTS"]

#: argument usages (oneDNN's ``primitive_desc_t::arg_usage_t``)
INPUT = "input"
OUTPUT = "output"


def copy_attr(attr):
    """The primitive's own copy of ``attr`` (None means default attributes)."""
    if attr is None:
        return primitive_attr()
    if not isinstance(attr, primitive_attr):
        raise invalid("attr must be a dnnl.primitive_attr")
    return attr.copy()


_UNBUILT = object()


class plans:
    """The kernel plans a primitive descriptor has built, by the mds they run
    (``None``: its declared mds). One object per created descriptor, shared
    on purpose by every descriptor the primitive cache serves from its entry,
    so the plan the first primitive builds serves them all (plans are
    read-only: each kernel copies its parameters before it runs)."""

    __slots__ = ("declared", "_by_mds")
    LIMIT = 64      # plans of runtime-dim shapes kept at most (then forgotten)

    def __init__(self):
        self.declared = _UNBUILT    # (declared_plan builds it)
        self._by_mds = {}

    def built(self):
        """The keys of the plans built so far (None: the declared mds')."""
        return ([] if self.declared is _UNBUILT else [None]) + list(self._by_mds)

    def declared_plan(self, build):
        """The declared mds' plan (built by ``build(None)`` at first use):
        what a primitive runs when its memories have the mds it declared."""
        plan = self.declared
        if plan is _UNBUILT:
            plan = self.declared = build(None)
        return plan

    def get(self, mds, build):
        """The plan for ``mds``, made by ``build(mds)`` at first use (a
        thread that races another builds it twice; both are equal)."""
        if mds is None:
            return self.declared_plan(build)
        plan = self._by_mds.get(mds, _UNBUILT)
        if plan is _UNBUILT:
            plan = remember(self._by_mds, mds, build(mds), self.LIMIT)
        return plan


class exec_arg(tuple):
    """One declared execution argument: ``(arg, md, usage, name)``.

    ``md`` None: any memory is accepted and the primitive reads its values
    (scales, zero points; runtime-dim tensors are checked by the primitive).
    """
    __slots__ = ()

    def __new__(cls, arg, md, usage, name):
        return tuple.__new__(cls, (arg, md, usage == OUTPUT, name))


class primitive_desc:
    """Base of every primitive descriptor (``dnnl::primitive_desc``)."""

    kind = primitive_kind.undef
    _impl = "ref:any"
    _empty = False
    _decl = ()
    _unprepared = False     # True until _prepare() has built the kernel plan
    _cache_entry = None     # its primitive-cache entry (set by _cache)
    _cache_key = None       # that entry's key
    _cache_hit = False      # whether the next primitive from it is a cache hit

    # -- the primitive cache (dnnl/primitive/cache.py) keeps what these give, opaque to it
    _NOT_CACHED = frozenset(("_vt0", "_cache_key", "_cache_entry", "_cache_hit"))

    def _cache_state(self):
        """What the cache keeps to serve an equal descriptor: this one's
        state (the plans object in it shared on purpose)."""
        return {k: v for k, v in self.__dict__.items() if k not in self._NOT_CACHED}

    def _from_cache(self, state, engines=None):
        """Become the descriptor ``state`` was taken from; ``engines``:
        {id(its engine): the caller's equal engine} to swap in."""
        if engines:
            state = {k: engines.get(id(v), v) for k, v in state.items()}
        self.__dict__.update(state)

    def _create(self, allow_empty, init, args):
        """Run ``init(*args)``, or take its result from the cache. With
        ``allow_empty`` a refusal (``dnnl.error``) leaves an empty descriptor
        (false in a boolean context), as the C++ API's does; any other
        exception is a bug and propagates."""
        if _verbose.create_on:      # verbose's creation time starts here
            self._vt0 = time.perf_counter()
        try:
            # the cache entry made or served, its key, whether it served it
            self._cache_key, self._cache_entry, self._cache_hit = _cache.create(
                type(self), init, args, self._cache_state, self._from_cache)
        except error:
            if not allow_empty:
                raise
            self._empty = True

    def __bool__(self):
        return not self._empty

    def _init_base(self, aengine, attr, mds):
        """``mds``: {query: md} for the ``*_desc()`` queries."""
        _isa.read_cap()
        self._engine = aengine
        self._attr = copy_attr(attr)
        self._mds = mds
        self._plans = plans()

    def _declare(self, args):
        """Declare the execution arguments: [exec_arg, ...] in binding order.
        A user-mode scratchpad joins them when it has a size (ours never has)."""
        args = list(args)
        if (self._attr.get_scratchpad_mode() == scratchpad_mode.user
                and self.scratchpad_desc().get_size()):
            args.append(exec_arg(ARG_SCRATCHPAD, self.scratchpad_desc(), OUTPUT,
                                 "DNNL_ARG_SCRATCHPAD"))
        self._decl = tuple(args)

    def _prepare(self):
        """Build the plan of the declared mds, as oneDNN generates its code
        when the primitive is created; ``_execute`` still builds it at first
        use for a descriptor that never made a primitive."""
        self._plan()
        self._unprepared = False

    def _plan(self, mds=None):
        """The kernel plan for memories of ``mds`` (a subclass's key of the
        runtime mds; None: the declared ones), or None when nothing runs."""
        return self._plans.get(mds, self._build_plan)

    def cache_key(self):
        """The key of the primitive-cache entry this descriptor made or came
        from (None when it is not cached): a hint's part of another key."""
        return self._cache_key

    # -- the seam: subclasses implement these three -------------------------------
    def _build_plan(self, mds):
        """Build the kernel plan for ``mds`` (see :meth:`_plan`); None when
        there is nothing to run."""
        raise NotImplementedError

    def _execute(self, mems):
        """Run the kernel on the bound memories (``_decl`` order); returns
        the plan that ran (None when nothing ran)."""
        raise NotImplementedError

    def _ready_plan(self):
        """The declared mds' plan when running it needs nothing but the
        memories' addresses (see :meth:`primitive.ready_plan`); None by
        default: every execution binds."""
        return None

    def exec_impl_str(self, mds=None):
        """What runs for arguments with these mds (``{arg: md}``; None: the
        declared ones): ``cython:<path>``, or ``impl_info_str()``."""
        return self._impl

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

    def exec_args(self):
        """The declared execution arguments: ``{arg: (md or None, usage)}``."""
        return {a[0]: (a[1], OUTPUT if a[2] else INPUT) for a in self._decl}

    def query_md(self, what, idx=0):
        """The md for a ``dnnl_query_*_md`` query, or the zero md."""
        what = integer(what, "what")
        idx = integer(idx, "idx")
        if what == query.exec_arg_md:
            for a in self._decl:
                if a[0] == idx and a[1] is not None:
                    return a[1]
            return desc()
        if idx != 0:
            return desc()
        if what == query.scratchpad_md:
            return self.scratchpad_desc()
        return self._mds.get(what, desc())

    def scratchpad_desc(self):
        """Our kernels book no scratchpad: the zero md in either mode."""
        return desc()

    def query_s64(self, what):
        what = integer(what, "what")
        if what == query.memory_consumption_s64:
            return 0
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

    def weights_desc(self, idx=0):
        """``dnnl_query_weights_md``: reorder and resampling have no weights,
        the zero md (``ndims`` 0), as oneDNN answers.

        >>> import dnnl
        >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        >>> md = dnnl.memory.desc([2, 3], "f32", "ab")
        >>> pd = dnnl.reorder.primitive_desc(eng, md, eng, md)
        >>> pd.weights_desc().ndims, pd.diff_weights_desc(1) == dnnl.memory.desc()
        (0, True)
        """
        return self.query_md(query.weights_md, idx)

    def diff_weights_desc(self, idx=0):
        """``dnnl_query_diff_weights_md``: the zero md here (see
        :meth:`weights_desc`)."""
        return self.query_md(query.diff_weights_md, idx)

    def workspace_desc(self):
        return desc()

    def scratchpad_engine(self):
        """``primitive_desc::scratchpad_engine()``: oneDNN 3.13's CPU
        primitives do not answer ``dnnl_query_scratchpad_engine``, so this
        raises ``dnnl.unimplemented`` as oneDNN's C++ API throws. A user-mode
        scratchpad lives on :meth:`get_engine`.

        >>> import dnnl
        >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        >>> md = dnnl.memory.desc([2, 3], "f32", "ab")
        >>> dnnl.reorder.primitive_desc(eng, md, eng, md).scratchpad_engine()
        Traceback (most recent call last):
        ...
        dnnl.unimplemented: could not retrieve scratchpad engine from a primitive descriptor: ...
        """
        raise unimpl("could not retrieve scratchpad engine from a primitive descriptor: "
                     "oneDNN's CPU primitives do not answer this query; the scratchpad "
                     "of a primitive is on its engine, pd.get_engine()")

    def get_cache_blob_id(self):
        """``primitive_desc::get_cache_blob_id()``: empty (``b""``) for a CPU
        primitive, as oneDNN's (cache blobs are its OpenCL GPU feature).

        >>> import dnnl
        >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        >>> md = dnnl.memory.desc([2, 3], "f32", "ab")
        >>> dnnl.reorder.primitive_desc(eng, md, eng, md).get_cache_blob_id()
        b''
        """
        return b""

    def __repr__(self):
        return "<dnnl.%s.primitive_desc %s>" % (self.kind.name, self._impl)

    # -- pickling: refused, its kernel plan belongs to this process; what
    # defines it pickles. copy.copy stays the shallow copy it was.
    def __reduce__(self):
        raise wrong_type(
            "a %s.primitive_desc does not pickle: send its descriptors and attributes "
            "(they pickle) and create it again where it runs (the primitive cache makes "
            "it once per process)" % self.kind.name)

    def __copy__(self):
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new


# Engines compare by identity (dnnl::engine handles): a second
# dnnl.engine(cpu, 0) is another engine, and the array layer has its own.
_ENGINE_MISMATCH = (
    "the stream's engine is not the primitive's engine: create the stream with "
    "dnnl.stream(prim.get_primitive_desc().get_engine()); memories made by "
    "dnnl.memory.from_array and dnnl.convert are on dnnl.default_engine(), so "
    "create primitives and streams for them on that engine")


def _bind_one(entry, mem):
    """``mem`` for the declaration ``entry`` of execute, or the error that
    says what is wrong with it."""
    arg, md, output, name = entry
    if mem is None:
        raise invalid("execution argument %s (%d) is missing" % (name, arg))
    if type(mem) is not memory and not isinstance(mem, memory):
        raise wrong_type("execution argument %s must be a dnnl.memory" % name)
    if md is not None and mem.md is not md and not equal(mem.md, md):
        # oneDNN checks no descriptor at execution (cvt_primitive_args in
        # src/common/primitive_exec_types.cpp counts the arguments only):
        # the primitive reads and writes the buffer as its own descriptor
        # says, e.g. a primitive made for a sub-memory run on the parent
        # memory. We accept the same, unless it would leave the buffer.
        have = max(mem.capacity, mem.nbytes) if mem.address else 0
        need = span_bytes(md)
        if need > have:
            raise invalid("execution argument %s has %r (%d bytes), the primitive's "
                          "%r needs %d" % (name, mem.md, have, md, need))
    if mem.address == 0 and mem.nbytes:
        raise invalid("execution argument %s has no buffer" % name)
    if output and not mem.writable:
        raise invalid("execution argument %s is a read-only buffer" % name)
    return mem


def cache_blob_bytes(cache_blob):
    """``cache_blob`` (a ``std::vector<uint8_t>``: bytes, a bytes-like
    object or a sequence of ints 0..255) as bytes, or the type error."""
    if isinstance(cache_blob, (bytes, bytearray, memoryview)):
        return bytes(cache_blob)
    if isinstance(cache_blob, (str, dict, set)) or not hasattr(cache_blob, "__len__"):
        raise wrong_type("a cache blob is bytes (or a sequence of ints 0..255), not %s"
                         % type(cache_blob).__name__)
    values = [integer(v, "a cache blob's byte") for v in cache_blob]
    if any(not 0 <= v <= 255 for v in values):
        raise invalid("a cache blob's bytes are 0..255")
    return bytes(values)


class primitive:
    """Base of every primitive (``dnnl::primitive``).

    ``primitive(pd)``, or ``primitive(pd, cache_blob)`` as the C++ API's
    ``primitive(pd, cache_blob)``: oneDNN makes primitives from cache blobs
    on OpenCL GPUs only, so on a CPU an empty blob is ``invalid_arguments``
    and any other ``unimplemented``, as ``dnnl_primitive_create_from_cache_blob``
    answers:

    >>> import dnnl
    >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    >>> md = dnnl.memory.desc([2, 3], "f32", "ab")
    >>> pd = dnnl.reorder.primitive_desc(eng, md, eng, md)
    >>> dnnl.reorder(pd, b"\x01")
    Traceback (most recent call last):
    ...
    dnnl.unimplemented: could not create a primitive from a cache blob: ...
    """

    # the descriptor class a subclass takes, as dnnl::reorder::primitive_desc
    # (None: any; the module's primitive_desc is the base of them all)
    primitive_desc = None
    # the last stream execute found on this primitive's engine; at first a
    # value no caller can pass (None must reach the check and be refused)
    _checked_stream = object()

    def __init__(self, pd, *args, **kwargs):
        # the creation a cache hit repeats: kept to a few attribute reads
        if type(pd) is not self.primitive_desc or args or kwargs:
            pd = self._pd_of(pd, args, kwargs)
        if pd._empty:
            raise invalid("cannot create a primitive from an empty primitive descriptor")
        self._pd = pd
        if pd._unprepared:      # a cache hit finds the plan built (shared state)
            pd._prepare()
        # oneDNN's verbose cache_hit: pd came from the cache, or its entry is
        # still there (a second primitive from one descriptor)
        hit = pd._cache_hit
        entry = pd._cache_entry
        if entry is not None and hit is not entry.alive:
            pd._cache_hit = entry.alive
        if _verbose.create_on:
            t0 = pd.__dict__.pop("_vt0", None)
            _verbose.on_create(pd, time.perf_counter() - t0 if t0 is not None else 0.0, hit)

    def _pd_of(self, pd, args, kwargs):
        """The descriptor that ``primitive(pd, *args, **kwargs)`` is made from
        (a subclass may accept its descriptor's arguments instead);
        ``(pd, cache_blob)`` is the cache-blob constructor."""
        if kwargs or len(args) > 1 or (args and not isinstance(pd, primitive_desc)):
            raise wrong_type("%s takes a primitive descriptor and, optionally, a cache blob"
                             % type(self).__name__)
        if not isinstance(pd, primitive_desc):
            raise wrong_type("a primitive needs a primitive descriptor")
        if args:
            cache_blob_bytes(args[0])   # a blob of the wrong type: TypeError, whatever the pd
        want = self.primitive_desc
        if want is not None and not isinstance(pd, want):
            raise invalid("%s needs a %s.primitive_desc" % (type(self).__name__,
                                                           type(self).__name__))
        if args:
            self._from_cache_blob(pd, args[0])
        return pd

    @staticmethod
    def _from_cache_blob(pd, cache_blob):
        """``primitive(pd, cache_blob)``: refused as oneDNN refuses it on a
        CPU (src/common/primitive_iface.cpp): an empty blob is
        ``invalid_arguments``, any other ``unimplemented``."""
        blob = cache_blob_bytes(cache_blob)
        if pd._empty:
            raise invalid("cannot create a primitive from an empty primitive descriptor")
        if not blob:
            raise invalid("could not create a primitive from a cache blob: the cache blob "
                          "is empty (pd.get_cache_blob_id() is empty on a CPU: create the "
                          "primitive from its descriptor alone)")
        raise unimpl("could not create a primitive from a cache blob: oneDNN makes "
                     "primitives from cache blobs on OpenCL GPU engines only; on a CPU "
                     "create the primitive from its descriptor alone")

    def get_cache_blob(self):
        """``primitive::get_cache_blob()``: ``dnnl.unimplemented`` on a CPU,
        as oneDNN's ``dnnl_primitive_get_cache_blob`` answers (cache blobs
        are its OpenCL GPU feature).

        >>> import dnnl
        >>> eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        >>> md = dnnl.memory.desc([2, 3], "f32", "ab")
        >>> dnnl.reorder(dnnl.reorder.primitive_desc(eng, md, eng, md)).get_cache_blob()
        Traceback (most recent call last):
        ...
        dnnl.unimplemented: could not get cache blob size from a primitive: ...
        """
        raise unimpl("could not get cache blob size from a primitive: oneDNN keeps cache "
                     "blobs for OpenCL GPU primitives only; a CPU primitive is made again "
                     "from its descriptor (the primitive cache makes that cheap)")

    def get_primitive_desc(self):
        return self._pd

    def get_kind(self):
        return self._pd.kind

    def ready_plan(self):
        """The kernel plan that executes this primitive on memories of its
        declared descriptors from their addresses alone, ``plan.run(src,
        dst, ...)`` in the kind's argument order; None when execution needs
        the binder (runtime dims, post-op sources, nothing to run).

        For a caller that checked its buffers against the declared
        descriptors once (the array layer's prepared calls): it skips the
        binder's checks, so it must not be handed anything else, and it runs
        through :meth:`execute` while verbose prints execution lines."""
        return self._pd._ready_plan()

    def _arg_map(self, args, more):
        """The ``{arg: memory}`` map of an ``execute`` call (a subclass may
        accept other spellings, as reorder's ``execute(stream, src, dst)``)."""
        if isinstance(args, dict) and more is None:
            return args
        raise wrong_type("execution arguments must be a dict {arg: memory}, not %s"
                           % type(args).__name__)

    def execute(self, astream, args, dst=None):
        """Run with ``{DNNL_ARG_*: memory}``: bind, run the plan, report."""
        pd = self._pd
        if type(args) is not dict or dst is not None:
            args = self._arg_map(args, dst)
        if astream is not self._checked_stream:     # (a stream's engine never changes)
            if type(astream) is not stream and not isinstance(astream, stream):
                raise wrong_type("execute needs a dnnl.stream")
            if astream.get_engine() is not pd._engine:
                raise invalid(_ENGINE_MISMATCH)
            self._checked_stream = astream
        # bind: the memories in declaration order, each checked against its
        # declaration (present, a memory, the declared md, a buffer, writable
        # when written); the common case in C (a Python loop costs as much
        # as the kernel of a small call)
        mems = bind_declared(pd._decl, args)
        if mems is None:
            mems = [_bind_one(entry, args.get(entry[0])) for entry in pd._decl]
        if not _verbose.exec_on:
            pd._execute(mems)
            return
        t0 = time.perf_counter()
        pd._execute(mems)
        seconds = time.perf_counter() - t0
        _verbose.on_exec(pd, {a[0]: m.md for a, m in zip(pd._decl, mems)}, seconds)

    # -- pickling: refused, as its primitive descriptor's
    def __reduce__(self):
        raise wrong_type(
            "a %s primitive does not pickle: send its descriptors and attributes (they "
            "pickle) and create it again where it runs (the primitive cache makes it "
            "once per process)" % self._pd.kind.name)

    def __copy__(self):
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new
