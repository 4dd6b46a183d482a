"""The thread count of the parallel kernels, as a user sets and reads it.

``dnnl.set_num_threads(n)`` / ``dnnl.get_num_threads()``, named as PyTorch's
``torch.set_num_threads`` / ``torch.get_num_threads`` (oneDNN itself has no
such call: it follows its threading runtime, OpenMP here). The count is the
pool's (dnnl/_platform/threads.pyx): the default is OpenMP's
(``OMP_NUM_THREADS``, the affinity mask, threadpoolctl's limits), capped by
the CPUs the process may use unless ``OMP_NUM_THREADS`` is set; the setter
lowers it.
"""
from dnnl._core.args import integer
from dnnl._core.error import invalid
from dnnl._platform import threads as _threads

_INT_MAX = 2 ** 31 - 1


def set_num_threads(n):
    """Run the parallel kernels on at most ``n`` threads; ``0`` or ``None``
    goes back to the default.

    It lowers the default, never raises it: on a machine where the default
    is 4, ``set_num_threads(8)`` still runs 4 (``OMP_NUM_THREADS``, set
    before ``import dnnl``, raises the default). Results do not depend on it
    (docs/threads.md).

    >>> import dnnl
    >>> dnnl.set_num_threads(1)
    >>> dnnl.get_num_threads()
    1
    >>> dnnl.set_num_threads(None)       # back to the default
    """
    n = 0 if n is None else integer(n, "n")
    if n < 0:
        raise invalid("set_num_threads(%d): a thread count is positive (0 or None: "
                      "the default)" % n)
    _threads.set_limit(min(n, _INT_MAX))


def get_num_threads():
    """The threads a parallel kernel runs on now (verbose's ``nthr``).

    >>> import dnnl
    >>> dnnl.get_num_threads() >= 1
    True
    """
    return _threads.max_threads()
