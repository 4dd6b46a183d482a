"""A memory's buffers from what a program gives as a handle.

A handle is a buffer-protocol object (a numpy array, a ``bytearray``...:
kept alive, never copied, its element type checked), a raw address (``int``
or ctypes pointer: taken as given, as oneDNN takes it), ``DNNL_MEMORY_NONE``
or ``DNNL_MEMORY_ALLOCATE``. ``dnnl._model.memory`` attaches them.
"""
import ctypes
import enum

import numpy as np

from dnnl._core import args as _args
from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import MACROS, data_type
from dnnl._core.error import invalid, wrong_type

DNNL_MEMORY_NONE = MACROS["DNNL_MEMORY_NONE"]
DNNL_MEMORY_ALLOCATE = MACROS["DNNL_MEMORY_ALLOCATE"]


def address_of(handle):
    """A raw address from an int or any ctypes pointer-like object, else None."""
    if isinstance(handle, enum.Enum):   # an IntEnum is an int, never an address
        raise wrong_type("handle %s is a %s member, not an address or a buffer"
                         % (handle, type(handle).__name__))
    if isinstance(handle, (int, np.integer)) and not isinstance(handle, (bool, np.bool_)):
        address = int(handle)
        if not 0 <= address < 2 ** 64:
            raise invalid("handle %s is not an address (0 .. 2**64 - 1)"
                          % _args.short(address))
        return address
    if isinstance(handle, ctypes.c_void_p):
        return handle.value or 0
    if isinstance(handle, (ctypes._Pointer, ctypes.Array)):
        return ctypes.cast(handle, ctypes.c_void_p).value or 0
    return None


def check_ctypes_size(handle, nbytes):
    """A ctypes array knows its size: refuse one smaller than the layout."""
    if isinstance(handle, ctypes.Array) and ctypes.sizeof(handle) < nbytes:
        raise invalid("handle is a ctypes array of %d bytes; the descriptor needs %d"
                      % (ctypes.sizeof(handle), nbytes))


def buffer_bytes(handle, code):
    """The bytes of a buffer-protocol ``handle``, after checking its element
    type: raw bytes (uint8, void, bytearray) or the descriptor's data type."""
    if isinstance(handle, np.ndarray):
        if not handle.flags.c_contiguous:
            raise invalid("handle array must be C-contiguous")
        _check_element_type(handle.dtype, code)
        return handle.reshape(-1).view(np.uint8)
    try:
        view = memoryview(handle)
    except TypeError:
        raise wrong_type("handle must be a buffer, an address or a ctypes pointer, "
                         "not %s" % _args.a_type(handle)) from None
    if not view.c_contiguous:
        raise invalid("handle buffer must be C-contiguous")
    try:
        dtype = np.dtype(view.format)
    except TypeError:
        dtype = np.dtype((np.void, view.itemsize))
    _check_element_type(dtype, code)
    flat = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    return np.frombuffer(flat, dtype=np.uint8)


def _check_element_type(dtype, code):
    """``code``: the buffer's data type (None: any elements)."""
    if dtype.kind == "V" or dtype == np.uint8 or code is None:
        return
    if code in _dtypes.SUB_BYTE or code == data_type.undef or type(code) is int:
        ok = ()
    else:
        ok = (_dtypes.numpy_dtype(code), _dtypes.numpy_dtype(code, raw=True))
    if dtype not in ok:
        if not dtype.isnative and dtype.newbyteorder("=") in ok:
            raise invalid("handle holds %s elements in the other byte order; oneDNN's %s "
                          "is this machine's: pass x.astype(x.dtype.newbyteorder('=')) "
                          "(a copy)" % (dtype, code.name))
        raise wrong_type("handle holds %s elements, not %s: pass an array of the "
                         "descriptor's data type or raw bytes (uint8)"
                         % (dtype, getattr(code, "name", code)))


def one_buffer(handle, nbytes, code, allocate):
    """``[data, handle, address, read-only]`` of one buffer of a sparse or
    multi-handle memory: ``nbytes`` wide (a C size_t: a negative nnz wraps),
    elements of ``code``. Raw addresses are taken as given, as oneDNN takes
    them; a view is made only of a size that can exist."""
    if handle is None:
        handle = DNNL_MEMORY_NONE
    address = address_of(handle)
    if address == DNNL_MEMORY_ALLOCATE:
        data = allocate(nbytes) if nbytes else None
        address = 0 if data is None else data.__array_interface__["data"][0]
        return [data, DNNL_MEMORY_ALLOCATE, address, False]
    if address is not None:
        check_ctypes_size(handle, nbytes)
        data = None
        if address and 0 < nbytes < 2 ** 48:
            data = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
        return [data, handle, address, False]
    data = buffer_bytes(handle, code)
    if data.size < nbytes:
        raise invalid("handle has %d bytes, too few for a buffer of %d" % (data.size, nbytes))
    return [data, handle, data.__array_interface__["data"][0] if data.size else 0,
            not data.flags.writeable]
