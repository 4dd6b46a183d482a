"""oneDNN's JIT switches: the code dump and the profiler flags.

This library generates no machine code at run time (its kernels are
compiled ahead of time), so there is nothing to dump or to announce to a
profiler. The switches still answer as oneDNN 3.13's do on a build with a
CPU runtime (``dnnl_set_jit_dump``, ``dnnl_set_jit_profiling_flags``,
``dnnl_set_jit_profiling_jitdumpdir`` in src/common/utils.cpp): the value
is checked, stored and the status returned, as ``dnnl::set_jit_dump`` and
its neighbours return it (they do not throw). The flat API's functions are
these.
"""
import os
import sys

from dnnl._core.args import integer
from dnnl._core.enums import MACROS, status
from dnnl._core.error import wrong_type

# oneDNN's mask of the profiling flags it knows: VTune everywhere, the
# Linux perf flags on Linux (src/common/utils.cpp)
PROFILING_MASK = MACROS["DNNL_JIT_PROFILE_VTUNE"]
if sys.platform.startswith("linux"):
    PROFILING_MASK |= (MACROS["DNNL_JIT_PROFILE_LINUX_PERF"]
                       | MACROS["DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC"])

# what was set, from oneDNN's defaults (nothing reads it: no code is generated)
_state = {"jit_dump": 0, "profiling_flags": MACROS["DNNL_JIT_PROFILE_VTUNE"],
          "jitdumpdir": None}


def set_jit_dump(enable):
    """``dnnl::set_jit_dump(enable)``: ``dnnl.status.success``. There is no
    generated code to dump; the setting is kept, as oneDNN keeps it.

    >>> import dnnl
    >>> dnnl.set_jit_dump(1)
    <status.success: 0>
    """
    if isinstance(enable, bool):
        enable = int(enable)
    _state["jit_dump"] = integer(enable, "enable")
    return status.success


def set_jit_profiling_flags(flags):
    """``dnnl::set_jit_profiling_flags(flags)``: ``dnnl.status.success``, or
    ``dnnl.status.invalid_arguments`` for a bit oneDNN does not know
    (``DNNL_JIT_PROFILE_*``: ``VTUNE``, and on Linux ``LINUX_PERFMAP``,
    ``LINUX_JITDUMP``, ``LINUX_JITDUMP_USE_TSC``). A negative value is taken
    as C's ``unsigned`` takes it, so it has unknown bits.

    >>> import dnnl
    >>> dnnl.set_jit_profiling_flags(dnnl.DNNL_JIT_PROFILE_VTUNE)
    <status.success: 0>
    >>> dnnl.set_jit_profiling_flags(16)
    <status.invalid_arguments: 2>
    """
    flags = integer(flags, "flags")
    if flags & ~PROFILING_MASK:
        return status.invalid_arguments
    _state["profiling_flags"] = flags
    return status.success


def set_jit_profiling_jitdumpdir(dir):
    """``dnnl::set_jit_profiling_jitdumpdir(dir)``: where Linux perf's jitdump
    files would go. ``dnnl.status.success`` on Linux, ``unimplemented``
    elsewhere, as oneDNN answers; ``None`` (the flat API's NULL) means
    oneDNN's default, ``$JITDUMPDIR``, else ``$HOME``, else ``"."``. Nothing
    is written there: no code is generated.

    >>> import dnnl, sys
    >>> dnnl.set_jit_profiling_jitdumpdir("/tmp") == (
    ...     dnnl.status.success if sys.platform.startswith("linux") else dnnl.status.unimplemented)
    True
    """
    if dir is not None:
        try:
            dir = os.fsdecode(dir)
        except TypeError:
            raise wrong_type("dir must be a path (str, bytes or os.PathLike), not %s"
                             % type(dir).__name__) from None
    if not sys.platform.startswith("linux"):
        return status.unimplemented
    if dir is None:
        dir = os.environ.get("JITDUMPDIR") or os.environ.get("HOME") or "."
    _state["jitdumpdir"] = dir
    return status.success
