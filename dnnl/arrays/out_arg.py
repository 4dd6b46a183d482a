"""The ``out=`` argument: an array the result is written into.

``dnnl.resample(x, size, out=o)`` writes its result into ``o``, a numpy
array or a CPU torch tensor (any ``__dlpack__`` producer numpy can write
through), and returns ``o`` itself, as cv2's ``dst=`` and PyTorch's
``out=``. ``o`` may be a strided view whose strides a oneDNN descriptor
holds: the primitive writes through them. Everything about ``o`` is checked
before anything is written, and each refusal names the fix:

* :func:`view`, every call: what ``o`` is (an array, writable, aligned,
  outside autograd), as a numpy array over its memory;
* :func:`check_layout`, once per call definition (its shape, strides and
  dtype are in the prepared call's key): shape, type, byte order, strides;
* :func:`check_apart`, every call: no element of ``o`` is one of the input's.
"""
import numpy as np

from dnnl._core.error import invalid, wrong_type
from dnnl._model.desc import overlaps
from dnnl._model.inputs import describable, tensor_numpy
from dnnl._model.interop import as_numpy
from dnnl._model.memory import memory

_TOO_HARD = getattr(getattr(np, "exceptions", np), "TooHardError")
_SHARE_WORK = 1 << 20       # np.shares_memory's budget; past it, assume they share


def view(out):
    """A numpy array over the memory of ``out``, refusing (before anything is
    written) what cannot be written as it is."""
    if isinstance(out, memory):
        raise wrong_type("out takes a numpy array or a torch tensor, not a dnnl.memory: "
                         "pass the memory's np.asarray(mem) when its layout is plain, or "
                         "take the result and dnnl.convert it")
    if getattr(out, "requires_grad", False) is True:
        raise invalid("out requires grad: a result written in place is outside autograd "
                      "(PyTorch's out= refuses it too); pass out.detach()")
    o = out if isinstance(out, np.ndarray) else tensor_numpy(out)
    if o is None:
        if not hasattr(out, "__dlpack__"):
            raise wrong_type("out must be an array to write into (a numpy array or a torch "
                             "tensor), not %s" % type(out).__name__)
        o = as_numpy(out)
    if not o.flags.writeable:
        raise invalid("out is read-only (a broadcast view, a read-only buffer or map): pass "
                      "a writable array, e.g. np.empty(%s, %s)" % (o.shape, _name(o.dtype)))
    if not o.flags.aligned:
        raise invalid("out's data is not aligned to its %d-byte elements: pass an aligned "
                      "array (np.empty allocates one)" % o.itemsize)
    return o


def _name(dtype):
    return "np." + dtype.name if hasattr(np, dtype.name) else repr(str(dtype))


def check_layout(o, shape, dtype, asked):
    """Refuse ``o`` as the out of a result of ``shape`` and numpy ``dtype``
    (``asked``: whether ``dtype=`` was given), naming the fix."""
    if o.shape != tuple(shape):
        raise invalid("out has shape %s, the result has %s: pass np.empty(%s, %s)"
                      % (o.shape, tuple(shape), tuple(shape), _name(dtype)))
    if o.dtype != dtype:
        if o.dtype.newbyteorder("=") == dtype:
            raise invalid("out is %s-endian, and the kernels write this machine's byte "
                          "order: pass a native array and .byteswap() it afterwards"
                          % ("big" if o.dtype.byteorder == ">" else "little"))
        fix = ("make them agree" if asked else
               "pass dtype=%s to write a %s result into it, or an out of %s"
               % (_name(o.dtype), o.dtype, dtype))
        raise invalid("out is %s, the result is %s: %s" % (o.dtype, dtype, fix))
    if o.size == 0:
        return
    strides = o.strides
    if any(s < 0 for n, s in zip(o.shape, strides) if n > 1):
        raise invalid("out steps backwards (strides %s bytes), which no oneDNN descriptor "
                      "describes: pass the forward view, and reverse the result afterwards"
                      % (strides,))
    if any(s == 0 for n, s in zip(o.shape, strides) if n > 1) or overlaps(o.shape, strides):
        raise invalid("two of out's indices address the same element (strides %s bytes of "
                      "shape %s): pass an array with an element of its own for each index"
                      % (strides, o.shape))
    if not describable(o.shape, strides, o.itemsize):
        raise invalid("out's strides %s (bytes) of shape %s are not a oneDNN descriptor's "
                      "(each stride a multiple of the element and at least the next smaller "
                      "stride times its dim): pass a dense array, or one sliced from one"
                      % (strides, o.shape))


def check_apart(o, a):
    """Refuse an ``out`` ``o`` sharing an element with the input array ``a``:
    the kernels read the input while they write out (exact where numpy
    tells within its budget, else the bounds decide)."""
    if not np.may_share_memory(o, a):
        return
    try:
        shared = np.shares_memory(o, a, max_work=_SHARE_WORK)
    except _TOO_HARD:
        shared = True
    if shared:
        raise invalid("out overlaps the input: the input is read while out is written, so "
                      "the result would read values it wrote; pass another array as out "
                      "(or a copy of the input)")
