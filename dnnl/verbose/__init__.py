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
  (channel runs, nhwc and blocked), ``cython:channels+copy`` / ``cython:rows+copy``
  (nearest rows that repeat a source row, copied whole); ``impl_info_str()`` keeps
  answering ``ref:any``.

Lines go to ``sys.stdout`` like oneDNN's ``printf``. When the logger
``logging.getLogger("dnnl.verbose")`` has handlers of its own, they go to it
instead (level INFO), or to any target given to :func:`set_output`.

The cost when verbose is off is one module-attribute test per execute.
"""
import os
import sys
import threading
import time

import dnnl._platform.isa as _isa
import dnnl._core.registry as _registry
from dnnl._core.error import invalid
from dnnl._core.format import (RUNTIME, arg_str, attr_str, dims_str, md_str,  # noqa: F401
                          name, strides_str, tag_str)
# the kernels' thread count, from a baseline-only module (picks no ISA level)
from dnnl._platform.threads import max_threads

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
# Changes of the level and the printing of a line (with the header before
# the first) hold _lock: the four level globals change together, the header
# is printed once and lines do not interleave. Readers of exec_on /
# create_on take no lock (one global read; a line racing a level change may
# or may not be printed, as in oneDNN).
_lock = threading.RLock()

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
        raise invalid("verbose level must be 0, 1 or 2 (or an ONEDNN_VERBOSE string), "
                      "not %r" % (level,))
    with _lock:
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
    with _lock:
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
    # logging is not imported here (it would add to every import dnnl;
    # docs/internals/performance.md): until something
    # imports it, no logger can have handlers nor be the target
    logging = sys.modules.get("logging")
    if out is None:
        logger = logging.getLogger("dnnl.verbose") if logging else None
        if logger is not None and logger.handlers:
            logger.info(text)
            return
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    elif logging is not None and isinstance(out, logging.Logger):
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
    version = getattr(sys.modules.get("dnnl"), "__version__", "?")
    ts = "timestamp," if _timestamp else ""
    return [
        _line("info,dnnl for Python v%s (oneDNN v%s semantics)"
              % (version, ONEDNN_VERSION)),
        # this library's own pool, named as oneDNN's verbose names
        # DNNL_RUNTIME_THREADPOOL (dnnl_version()'s cpu_runtime)
        _line("info,cpu,runtime:threadpool,nthr:%s" % max_threads()),
        _line("info,cpu,isa:" + _isa.isa_info()),
        _line("info,gpu,runtime:none"),
        _line("primitive,info,template:%s%s" % (ts, TEMPLATE)),
    ]


def _print(body):
    global _header_done
    with _lock:
        if not _header_done:
            _header_done = True
            for h in header_lines():
                _emit(h)
        _emit(_line(body))


def _ms(seconds):
    return "%g" % (seconds * 1000.0)


# ------------------------------------------------------- primitive lines
def fields(pd, mds=None):
    """[engine, primitive, impl, prop_kind, mds, attrs, aux, problem] of a
    primitive descriptor, from its public queries (for an execution: with
    the ``{arg: md}`` of the bound memories)."""
    rec = _registry.record_of(pd)
    if rec is not None and rec.verbose_fields is not None:
        return rec.verbose_fields(pd, mds)
    return [name(pd.get_engine().get_kind()), name(pd.get_kind()), pd.exec_impl_str(mds),
            "undef", "", attr_str(pd.get_primitive_attr()), "", ""]


def info_str(pd, mds=None):
    """The line's middle part (without operation and time)."""
    return ",".join(fields(pd, mds))


def on_create(pd, seconds, cache_hit=False):
    """Creation hook (the primitive calls it when CREATE is on); oneDNN
    names the cache outcome: ``create:cache_hit`` or ``create:cache_miss``."""
    try:
        body = info_str(pd)
    except Exception as exc:   # never let verbose break the library
        body = "error:%s" % exc
    _print("primitive,create:%s,%s,%s" % ("cache_hit" if cache_hit else "cache_miss",
                                           body, _ms(seconds)))


def on_exec(pd, mds, seconds):
    """Execution hook (the binder calls it when EXEC is on) with the
    ``{arg: md}`` of the memories that ran."""
    try:
        body = info_str(pd, mds)
    except Exception as exc:   # pragma: no cover
        body = "error:%s" % exc
    _print("primitive,exec,%s,%s" % (body, _ms(seconds)))


def reset_header():
    """Print the info header again before the next line (used by tests)."""
    global _header_done
    with _lock:
        _header_done = False
