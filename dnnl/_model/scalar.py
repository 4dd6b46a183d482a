"""The value of a host-scalar memory: one element, as raw bytes and back.

oneDNN copies ``data_type_size`` bytes from the pointer it is given
(``host_scalar_memory_storage_t``); from Python a value is a number cast
with numpy's rules to the element type, or those raw bytes themselves.
"""
import numpy as np

from dnnl._core import args as _args
from dnnl._core import dtypes as _dtypes
from dnnl._core.error import invalid, wrong_type


def to_bytes(value, dt, nbytes):
    """The ``nbytes`` bytes of one ``dt`` element holding ``value``."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        if len(raw) != nbytes:
            raise invalid("%d raw bytes given for a %s host scalar of %d bytes"
                          % (len(raw), dt.name, nbytes))
        return raw
    arr = np.asarray(value)
    if arr.shape != () or arr.dtype.kind not in "biuf":
        raise wrong_type("a host scalar takes one number (or its raw bytes), not %s"
                         % _args.a_type(value))
    return arr.astype(_dtypes.numpy_dtype(dt)).tobytes()


def from_bytes(raw, dt):
    """The element in ``raw`` (a uint8 array) as a numpy scalar of ``dt``."""
    return raw.view(_dtypes.numpy_dtype(dt))[0]
