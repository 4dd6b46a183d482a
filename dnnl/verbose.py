"""oneDNN's verbose mode: one line per primitive creation / execution.

Controlled like oneDNN 3.13: the ``ONEDNN_VERBOSE`` environment variable
(``DNNL_VERBOSE`` when it is unset), read when dnnl is imported, or
:func:`set_verbose` (``dnnl_set_verbose``) at run time:

===========================  ===============================================
``0`` / ``none``             nothing (the default)
``1`` / ``profile_exec``     a line per primitive execution
``2`` / ``all`` / ``profile`` execution and creation lines
``profile_create``           creation lines only
===========================  ===============================================

(comma lists are accepted: ``ONEDNN_VERBOSE=profile_create,profile_exec``;
``error``, ``check``, ``dispatch`` and ``debuginfo=N`` are accepted and
ignored: our errors are Python exceptions.) ``ONEDNN_VERBOSE_TIMESTAMP=1``
adds a millisecond timestamp field, as in oneDNN.

Lines have oneDNN's format (checked field by field against oneDNN 3.13.2)::

    onednn_verbose,v1,primitive,exec,cpu,reorder,cython:tile,undef,src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0,,,2x17x3x4,0.0123

that is ``operation,engine,primitive,implementation,prop_kind,
memory_descriptors,attributes,auxiliary,problem_desc,exec_time`` (time in
ms). Before the first line a few ``info`` lines describe the library and the
template. The implementation field names what actually ran:

* reorder: ``cython:copy`` (bit copy between equal types, no attributes),
  ``cython:tile`` (cache-tiled 4-byte transpose), ``cython:convert``
  (element-wise arithmetic through f32: types, scales, zero points, sum) --
  all three compute what oneDNN's ``simple:any`` computes;
* resampling: ``cython:rows`` (width rows, nchw-like), ``cython:channels``
  (channel runs, nhwc and blocked), ``cython:channels+copy`` (nearest rows
  that repeat a source row, copied whole); ``impl_info_str()`` keeps
  answering ``ref:any``.

Lines go to ``sys.stdout`` like oneDNN's ``printf``. When the logger
``logging.getLogger("dnnl.verbose")`` has handlers of its own, they go to it
instead (level INFO), or to any target given to :func:`set_output`.

The cost when verbose is off is one module-attribute test per execute.
"""
import logging
import os
import sys
import time

from dnnl import _isa
from dnnl._desc import RUNTIME
from dnnl._enums import C, data_type, format_kind

#: bit flags of the current level (read by dnnl.primitive on every execute)
EXEC = 1
CREATE = 2
flags = 0
exec_on = False
create_on = False

_level = 0
_timestamp = False
_header_done = False
_output = None            # None: stdout (or the "dnnl.verbose" logger)
_logger = logging.getLogger("dnnl.verbose")

ONEDNN_VERSION = "3.13"
TEMPLATE = ("operation,engine,primitive,implementation,prop_kind,memory_descriptors,"
            "attributes,auxiliary,problem_desc,exec_time")


def _parse(value):
    """flags for an ONEDNN_VERBOSE value (None when it is not understood)."""
    f = 0
    for item in str(value).strip().lower().split(","):
        item = item.strip()
        if item in ("", "0", "none"):
            continue
        if item.isdigit():
            n = int(item)
            f |= EXEC if n >= 1 else 0
            f |= CREATE if n >= 2 else 0
        elif item in ("all", "profile"):
            f |= EXEC | CREATE
        elif item == "profile_exec":
            f |= EXEC
        elif item == "profile_create":
            f |= CREATE
        elif item in ("error", "check", "dispatch", "warn") or item.startswith(
                ("debuginfo=", "filter=", "logger")):
            continue
        else:
            return None
    return f


def _level_of(f):
    return 2 if f & CREATE else 1 if f else 0


def set_verbose(level):
    """Set the verbose level (``dnnl_set_verbose``): 0 off, 1 execution
    lines, 2 creation lines too. Strings as ``ONEDNN_VERBOSE`` takes them are
    accepted. Returns the previous level.

    Raises ``dnnl.error`` (invalid arguments) for other values, as oneDNN
    returns ``dnnl_invalid_arguments`` for a level outside 0..2.
    """
    global flags, _level
    if isinstance(level, str):
        f = _parse(level)
    elif isinstance(level, int) and 0 <= level <= 2:
        f = (EXEC if level >= 1 else 0) | (CREATE if level >= 2 else 0)
    else:
        f = None
    if f is None:
        from dnnl._error import invalid
        raise invalid("verbose level must be 0, 1 or 2 (or an ONEDNN_VERBOSE string), "
                      "not %r" % (level,))
    old = _level
    _set_flags(f)
    return old


def get_verbose():
    """The current level: 0, 1 or 2."""
    return _level


def set_output(target=None):
    """Where lines go: None (stdout, or the ``dnnl.verbose`` logger when it
    has handlers), a ``logging.Logger``, a file-like object with ``write``,
    or a callable taking one line (without newline). Returns the previous."""
    global _output
    old, _output = _output, target
    return old


def _set_flags(f):
    global flags, _level, exec_on, create_on
    flags, _level = f, _level_of(f)
    exec_on, create_on = bool(f & EXEC), bool(f & CREATE)


def _from_env():
    global _timestamp
    value = os.environ.get("ONEDNN_VERBOSE")
    if value is None:
        value = os.environ.get("DNNL_VERBOSE")
    f = _parse(value) if value is not None else 0
    _set_flags(f or 0)
    ts = os.environ.get("ONEDNN_VERBOSE_TIMESTAMP", os.environ.get("DNNL_VERBOSE_TIMESTAMP"))
    _timestamp = str(ts).strip().lower() in ("1", "true", "yes")


_from_env()


# ------------------------------------------------------------------- output
def _emit(text):
    out = _output
    if out is None:
        if _logger.handlers:
            _logger.info(text)
            return
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    elif isinstance(out, logging.Logger):
        out.info(text)
    elif hasattr(out, "write"):
        out.write(text + "\n")
    else:
        out(text)


def _line(body):
    if _timestamp:
        return "onednn_verbose,v1,%.3f,%s" % (time.time() * 1000.0, body)
    return "onednn_verbose,v1," + body


def header_lines():
    """The ``info`` lines printed before the first primitive line."""
    import dnnl
    try:
        from dnnl._kernels import reorder as _k
        nthr = getattr(_k, "max_threads", lambda: os.cpu_count())()
    except Exception:   # pragma: no cover
        nthr = os.cpu_count()
    ts = "timestamp," if _timestamp else ""
    return [
        _line("info,dnnl for Python v%s (oneDNN v%s semantics)"
              % (getattr(dnnl, "__version__", "?"), ONEDNN_VERSION)),
        _line("info,cpu,runtime:OpenMP,nthr:%s" % nthr),
        _line("info,cpu,isa:" + _isa.isa_info()),
        _line("info,gpu,runtime:none"),
        _line("primitive,info,template:%s%s" % (ts, TEMPLATE)),
    ]


def _print(body):
    global _header_done
    if not _header_done:
        _header_done = True
        for h in header_lines():
            _emit(h)
    _emit(_line(body))


def _ms(seconds):
    return "%g" % (seconds * 1000.0)


# ------------------------------------------------------- descriptor strings
def _blocks(md):
    blocks = [1] * md.ndims
    for b, i in zip(md.inner_blks, md.inner_idxs):
        blocks[i] *= b
    return blocks


def _runtime_strides(md):
    return any(s == RUNTIME for s in md.strides) or any(d == RUNTIME for d in md.dims)


def tag_str(md):
    """oneDNN's verbose tag: dims by decreasing stride (stride 0 outermost;
    equal strides: larger outer block first, then dim order), upper case for
    blocked dims, then the inner blocks; ``*`` for runtime strides."""
    if _runtime_strides(md):
        return "*"
    blocks = _blocks(md)
    keys = []
    for d in range(md.ndims):
        order = (md.strides[d] - 1) % (1 << 64)
        outer = md.padded_dims[d] // blocks[d] if blocks[d] else 0
        keys.append((-order, -outer, d))
    keys.sort()
    s = "".join(chr((ord("a") if blocks[d] == 1 else ord("A")) + d) for _, _, d in keys)
    if md.inner_blks:
        s += "".join("%d%s" % (b, chr(ord("a") + i))
                     for b, i in zip(md.inner_blks, md.inner_idxs))
    return s


def _dims_str(values):
    return "x".join("*" if v == RUNTIME else str(v) for v in values)


def strides_str(md):
    """The strides when the descriptor is not dense (padding included)."""
    if _runtime_strides(md) or md.ndims == 0:
        return ""
    blocks = _blocks(md)
    extent = 0
    for d in range(md.ndims):
        if md.padded_dims[d] == 0:
            return ""
        extent = max(extent, md.padded_dims[d] // blocks[d] * md.strides[d])
    nelems = 1
    for p in md.padded_dims:
        nelems *= p
    if extent == nelems:
        return ""
    return _dims_str(md.strides)


def md_str(name, md, user_any=False):
    """``name:dt:flags:format_kind:tag:strides:extra``, oneDNN's md2fmt_str."""
    if md is None or md.ndims == 0:
        return "%s:undef::undef:::" % name
    fl = "a" if user_any else ""
    if tuple(md.dims) != tuple(md.padded_dims):
        fl += "p"
    if any(md.padded_offsets):
        fl += "o"
    if md.offset0:
        fl += "0"
    kind = md.format_kind
    if kind == format_kind.blocked:
        body = "blocked:%s:%s" % (tag_str(md), strides_str(md))
    elif kind == format_kind.any:
        body = "any:any:"
    else:
        body = "%s::" % kind.name
    return "%s:%s:%s:%s:f0" % (name, md.data_type.name, fl, body)


# ------------------------------------------------------- attribute strings
_ARG_SRC, _ARG_SRC_1, _ARG_SRC_2 = C["DNNL_ARG_SRC"], C["DNNL_ARG_SRC_1"], C["DNNL_ARG_SRC_2"]
_ARG_DST = C["DNNL_ARG_DST"]
_ARG_WEI = (C["DNNL_ARG_WEIGHTS"], C["DNNL_ARG_WEIGHTS_1"], C["DNNL_ARG_WEIGHTS_2"])
_ARG_MULTIPLE_SRC = C["DNNL_ARG_MULTIPLE_SRC"]


def arg_str(arg):
    """oneDNN's arg2str: ``src0``, ``src1``, ``dst``, ``wei``, ``msrc3``..."""
    if arg & _ARG_MULTIPLE_SRC:
        return "msrc%d" % (arg - _ARG_MULTIPLE_SRC)
    if arg in (_ARG_SRC, _ARG_SRC_1, _ARG_SRC_2):
        return "src%d" % (arg - _ARG_SRC)
    if arg == _ARG_DST:
        return "dst"
    if arg in _ARG_WEI:
        return "wei"
    return str(arg)


def _g(x):
    return "%g" % x


def _name(value):
    return getattr(value, "name", str(value))


def _quant_str(entries):
    items = []
    for arg in sorted(entries):
        e = entries[arg]
        s = "%s:%d:%s" % (arg_str(arg), e.mask, _name(e.data_type))
        if e.groups:
            s += ":%dx%d" % tuple(e.groups)
        if e.is_on_host:
            s += ":host_scalar"
        if _name(e.qmode) != "static_sazp":
            s += ":" + _name(e.qmode)
        items.append(s)
    return "+".join(items)


def _post_op_str(e):
    from dnnl.attr import binary_entry, eltwise_entry, prelu_entry, sum_entry
    if isinstance(e, sum_entry):
        s = "sum"
        undef = e.data_type == data_type.undef
        if e.scale != 1.0 or e.zero_point or not undef:
            s += ":" + _g(e.scale)
        if e.zero_point or not undef:
            s += ":%d" % e.zero_point
        if not undef:
            s += ":" + _name(e.data_type)
        return s
    if isinstance(e, eltwise_entry):
        s = _name(e.alg)
        if e.alpha != 0.0 or e.beta != 0.0 or e.scale != 1.0:
            s += ":" + _g(e.alpha)
        if e.beta != 0.0 or e.scale != 1.0:
            s += ":" + _g(e.beta)
        if e.scale != 1.0:
            s += ":" + _g(e.scale)
        return s
    if isinstance(e, binary_entry):
        md = e.src1_desc
        mask = sum(1 << d for d in range(md.ndims) if md.dims[d] != 1)
        s = "%s:%s:%d" % (_name(e.alg), _name(md.data_type), mask)
        if md.format_kind == format_kind.any:
            s += ":any"
        elif md.format_kind == format_kind.blocked and \
                sum(1 for d in md.dims if d != 1) > 1:
            s += ":" + tag_str(md)
            st = strides_str(md)
            if st:
                s += ":" + st
        return s
    if isinstance(e, prelu_entry):
        return "prelu:%d" % e.mask
    s = "dw:k%ds%dp%d" % (e.kernel_size, e.stride_size, e.padding_l_size)
    if e.weights_data_type == data_type.s8 or e.dst_data_type != data_type.f32:
        s += ":" + _name(e.dst_data_type)
    return s


def attr_str(attr):
    """The attributes field of a verbose line (oneDNN's order and spelling)."""
    if attr is None:
        return ""
    out = []
    if _name(attr._scratchpad) != "library":
        out.append("attr-scratchpad:" + _name(attr._scratchpad))
    if _name(attr._fpmath) != "strict" or attr._apply_to_int:
        out.append("attr-fpmath:" + _name(attr._fpmath) + (":true" if attr._apply_to_int else ""))
    if _name(attr._acc) != "strict":
        out.append("attr-acc-mode:" + _name(attr._acc))
    rnd = [(a, m) for a, m in sorted(attr._rounding.items()) if _name(m) != "environment"]
    if rnd:
        out.append("attr-rounding-mode:" + "+".join(
            "%s:%s" % (arg_str(a), _name(m)) for a, m in rnd))
    if attr._deterministic:
        out.append("attr-deterministic:1")
    if attr._scales:
        out.append("attr-scales:" + _quant_str(attr._scales))
    if attr._zero_points:
        out.append("attr-zero-points:" + _quant_str(attr._zero_points))
    if attr._reductions:
        out.append("attr-precomputed-reductions:" + _quant_str(attr._reductions))
    entries = attr._post_ops._entries
    if entries:
        out.append("attr-post-ops:" + "+".join(_post_op_str(e) for e in entries))
    if attr._dropout is not None:
        out.append("attr-dropout")
    return " ".join(out)


# ------------------------------------------------------- primitive lines
def _runtime_mask(md):
    return sum(1 << d for d in range(md.ndims) if md.dims[d] == RUNTIME)


def _reorder_fields(pd, args):
    src_md, dst_md = pd._src_md, pd._dst_md
    impl = pd.impl_info_str()
    if args is not None:
        from dnnl.reorder import ARG_FROM, ARG_TO
        s, d = args.get(ARG_FROM), args.get(ARG_TO)
        if pd._runtime and s is not None and d is not None:
            src_md, dst_md = s._md, d._md
    plan = None
    try:
        if not (src_md.has_runtime_dims_or_strides() or dst_md.has_runtime_dims_or_strides()):
            plan = pd.plan_for(src_md, dst_md)     # names the kernel that runs
    except Exception:   # pragma: no cover
        pass
    if plan is not None:
        impl = "cython:" + plan.path
    aux = "runtime-dim-mask:%d" % _runtime_mask(pd._src_md) if pd._runtime else ""
    src_eng, dst_eng = pd._src_engine, pd._dst_engine
    eng = _name(src_eng.get_kind())
    if src_eng.get_kind() != dst_eng.get_kind():
        eng = "%s2%s" % (eng, _name(dst_eng.get_kind()))
    mds = md_str("src", src_md) + " " + md_str("dst", dst_md)
    return [eng, "reorder", impl, "undef", mds, attr_str(pd._attr), aux, _dims_str(src_md.dims)]


def _resampling_fields(pd, args):
    fwd = hasattr(pd, "_src_md")
    src_md = pd._src_md if fwd else pd._ds_md
    dst_md = pd._dst_md if fwd else pd._dd_md
    src_any, dst_any = getattr(pd, "_verbose_any", (False, False))
    nd = src_md.ndims
    sd, dd = src_md.dims, dst_md.dims
    desc = "mb%dic%d_" % (sd[0], sd[1])
    if nd >= 5:
        desc += "id%dod%d_" % (sd[nd - 3], dd[nd - 3])
    if nd >= 4:
        desc += "ih%doh%d_" % (sd[nd - 2], dd[nd - 2])
    desc += "iw%dow%d" % (sd[nd - 1], dd[nd - 1])
    mds = md_str("src", src_md, src_any) + " " + md_str("dst", dst_md, dst_any)
    plan = getattr(pd, "_plan", None)
    impl = "cython:" + plan.path if plan is not None else pd.impl_info_str()
    return [_name(pd._engine.get_kind()), "resampling", impl,
            _name(pd._prop), mds, attr_str(pd._attr), "alg:" + _name(pd._alg), desc]


def fields(pd, args=None):
    """[engine, primitive, impl, prop_kind, mds, attrs, aux, problem] of a
    primitive descriptor (for an execution: with its argument map)."""
    kind = _name(pd.kind)
    if kind == "reorder":
        return _reorder_fields(pd, args)
    if kind == "resampling":
        return _resampling_fields(pd, args)
    return [_name(pd.get_engine().get_kind()), kind, pd.impl_info_str(), "undef",
            "", attr_str(getattr(pd, "_attr", None)), "", ""]


def info_str(pd, args=None):
    """The line's middle part (without operation and time)."""
    return ",".join(fields(pd, args))


def on_create(prim, seconds):
    """Creation hook (dnnl.primitive calls it when CREATE is on)."""
    try:
        body = info_str(prim._pd)
    except Exception as exc:   # never let verbose break the library
        body = "error:%s" % exc
    _print("primitive,create:cache_miss,%s,%s" % (body, _ms(seconds)))


def _arg_map(call_args, kwargs):
    """The {arg: memory} map of an ``execute(stream, ...)`` call."""
    a = call_args[0] if call_args else kwargs.get("args")
    if isinstance(a, dict):
        return a
    from dnnl.memory import memory
    if isinstance(a, memory):     # reorder.execute(stream, src, dst)
        from dnnl.reorder import ARG_FROM, ARG_TO
        dst = call_args[1] if len(call_args) > 1 else kwargs.get("dst")
        return {ARG_FROM: a, ARG_TO: dst}
    return None


def on_exec(prim, call_args, seconds, kwargs=None):
    """Execution hook (dnnl.primitive calls it when EXEC is on) with the
    ``execute`` arguments after the stream."""
    try:
        body = info_str(prim._pd, _arg_map(call_args, kwargs or {}))
    except Exception as exc:   # pragma: no cover
        body = "error:%s" % exc
    _print("primitive,exec,%s,%s" % (body, _ms(seconds)))


def reset_header():
    """Print the info header again before the next line (used by tests)."""
    global _header_done
    _header_done = False
