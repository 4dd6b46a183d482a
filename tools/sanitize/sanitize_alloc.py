"""pytest plugin for tools/sanitize.sh: memory that dnnl allocates ends at its last byte.

``dnnl.memory`` allocates ``nbytes + 64`` bytes with numpy and keeps an aligned
``nbytes`` slice of them, so up to 64 bytes after the buffer (and some before)
belong to the same heap block: AddressSanitizer would not see a kernel reading
or writing one element past the end. Under the sanitizer this plugin replaces
that allocator with ``posix_memalign(64, nbytes)`` from the C library (which
ASan intercepts): the block is exactly the buffer, followed by ASan's red zone.
The block is freed when the last numpy view of it goes away.

Loaded by ``tools/sanitize.sh`` as ``-p sanitize_alloc`` (tools/sanitize/ on
PYTHONPATH); it refuses to load when no sanitizer runtime is in the process,
so it cannot weaken an ordinary run by mistake.
"""
import ctypes
import importlib

import numpy as np

_libc = ctypes.CDLL(None)
_libc.posix_memalign.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t,
                                 ctypes.c_size_t]
_libc.posix_memalign.restype = ctypes.c_int
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


def _asan_loaded():
    try:
        ctypes.CDLL(None).__asan_init  # noqa: B018
        return True
    except AttributeError:
        return False


class _Block:
    """Owner of one C heap block; numpy arrays made from it keep it alive."""

    address = None   # until the allocation succeeds (``__del__`` runs either way)

    def __init__(self, nbytes):
        p = ctypes.c_void_p()
        if _libc.posix_memalign(ctypes.byref(p), 64, nbytes) != 0 or not p.value:
            raise MemoryError(nbytes)
        self.address = p.value
        self.__array_interface__ = {"data": (p.value, False), "shape": (nbytes,),
                                    "typestr": "|u1", "version": 3}

    def __del__(self):
        if self.address:
            _libc.free(self.address)


def tight_aligned_bytes(nbytes):
    """``dnnl._model.memory._aligned_bytes`` with no slack after the buffer."""
    from dnnl._core.enums import status
    from dnnl._core.error import error
    try:
        block = _Block(nbytes)
    except (MemoryError, OverflowError):
        raise error(status.out_of_memory, "cannot allocate %d bytes" % nbytes) from None
    arr = np.asarray(block)
    assert arr.base is block and arr.ctypes.data % 64 == 0
    return arr


def install():
    """Make ``dnnl._model.memory`` allocate with :func:`tight_aligned_bytes`."""
    module = importlib.import_module("dnnl._model.memory")
    assert hasattr(module, "_aligned_bytes"), "dnnl._model.memory no longer has _aligned_bytes"
    module._aligned_bytes = tight_aligned_bytes


def pytest_configure(config):
    if not _asan_loaded():
        raise RuntimeError("sanitize_alloc: no AddressSanitizer runtime in this process "
                           "(run through tools/sanitize.sh)")
    install()
