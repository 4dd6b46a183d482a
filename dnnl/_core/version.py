"""``dnnl::version()``: the oneDNN API level this library mirrors, and its
build (the flat API's ``dnnl_version()`` points at the same values)."""
import collections

from dnnl._core.enums import C
from dnnl._version import __version__

#: ``dnnl_version_t``'s fields (``hash`` a str; the runtimes are
#: ``DNNL_RUNTIME_*`` values)
version_t = collections.namedtuple(
    "version_t", "major minor patch hash cpu_runtime gpu_runtime")

# oneDNN 3.13.2's API; the hash names this library's build; the CPU kernels
# run on this library's own thread pool (dnnl/_platform/threads.pyx), not on
# OpenMP: DNNL_RUNTIME_THREADPOOL, the runtime of a oneDNN built to run its
# parallel regions on a pool it is given (docs/internals/semantics.md)
VERSION = version_t(3, 13, 2, "dnnl-python-" + __version__, C["DNNL_RUNTIME_THREADPOOL"],
                    C["DNNL_RUNTIME_NONE"])


def version():
    """``dnnl::version()``: the version of oneDNN's API mirrored, with this
    library's build as its hash.

    >>> import dnnl
    >>> v = dnnl.version()
    >>> (v.major, v.minor, v.patch), v.hash.startswith("dnnl-python-")
    ((3, 13, 2), True)
    >>> v.cpu_runtime == dnnl.DNNL_RUNTIME_THREADPOOL, v.gpu_runtime == dnnl.DNNL_RUNTIME_NONE
    (True, True)
    """
    return VERSION
