"""``dnnl.error``: the one exception type, carrying a oneDNN status.

``error(status, message)`` builds the subclass that also inherits the matching
Python built-in, so ``except ValueError`` catches invalid arguments and
``except NotImplementedError`` catches unimplemented combinations, while
``except dnnl.error`` catches them all. An argument of the wrong *type* raises
:class:`invalid_type` (status ``invalid_arguments``, also a ``TypeError``).
The subclasses are exported as ``dnnl.invalid_arguments``,
``dnnl.invalid_type``, ``dnnl.unimplemented``, ``dnnl.out_of_memory`` and
``dnnl.runtime_error``; ``dnnl.dlpack_error`` (an ``invalid_arguments``, also
a ``BufferError``) is what a memory's ``__dlpack__`` raises. The flat C API
turns any exception back into a status with :func:`status_of`.
"""
from dnnl._core.enums import status


class error(Exception):
    """An error reported by the library, with its oneDNN ``status``.

    >>> import dnnl
    >>> e = dnnl.error(dnnl.status.invalid_arguments, "negative dims")
    >>> isinstance(e, ValueError), e.status
    (True, <status.invalid_arguments: 2>)
    """

    _by_status = {}

    def __new__(cls, st, message=""):
        if cls is error:
            cls = error._by_status.get(int(st), error)
        return Exception.__new__(cls, st, message)

    def __init__(self, st, message=""):
        try:
            self.status = status(int(st))
        except ValueError:
            self.status = int(st)
        self.message = message
        super().__init__(st, message)

    def __str__(self):
        name = getattr(self.status, "name", str(self.status))
        return "%s (status %s)" % (self.message, name) if self.message else name

    def __reduce__(self):
        return (type(self), (int(self.status), self.message))


def _subclass(name, st, builtin):
    cls = type(name, (error, builtin), {"__module__": "dnnl"})
    error._by_status[int(st)] = cls
    return cls


invalid_arguments = _subclass("invalid_arguments", status.invalid_arguments, ValueError)
unimplemented = _subclass("unimplemented", status.unimplemented, NotImplementedError)
out_of_memory = _subclass("out_of_memory", status.out_of_memory, MemoryError)
runtime_error = _subclass("runtime_error", status.runtime_error, RuntimeError)
#: A wrong argument type: status ``invalid_arguments``, also a ``TypeError``.
invalid_type = type("invalid_type", (error, TypeError), {"__module__": "dnnl"})
#: Not exportable through DLPack (a blocked layout, a 4-bit type): an
#: ``invalid_arguments`` that is also the ``BufferError`` the DLPack protocol asks.
dlpack_error = type("dlpack_error", (invalid_arguments, BufferError), {"__module__": "dnnl"})


def invalid(message):
    """An ``invalid_arguments`` error (raise it)."""
    return error(status.invalid_arguments, message)


def wrong_type(message):
    """An :class:`invalid_type` error (raise it): invalid_arguments, a TypeError."""
    return invalid_type(status.invalid_arguments, message)


def unimpl(message):
    """An ``unimplemented`` error (raise it)."""
    return error(status.unimplemented, message)


def oom(message):
    """An ``out_of_memory`` error (raise it; also a MemoryError)."""
    try:
        return error(status.out_of_memory, message)
    except TypeError:
        # MemoryError.__new__ refuses the multiple-inheritance subclass when
        # called through super(); build it with Exception.__new__.
        cls = error._by_status.get(int(status.out_of_memory), error)
        exc = Exception.__new__(cls, status.out_of_memory, message)
        exc.__init__(status.out_of_memory, message)
        return exc


def status_of(exc):
    """The oneDNN status that stands for exception ``exc`` in the flat API."""
    if isinstance(exc, error):
        return status(int(exc.status))
    if isinstance(exc, MemoryError):
        return status.out_of_memory
    if isinstance(exc, NotImplementedError):
        return status.unimplemented
    if isinstance(exc, (ValueError, TypeError, IndexError, KeyError, OverflowError)):
        return status.invalid_arguments
    return status.runtime_error
