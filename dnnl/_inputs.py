"""What the array functions take: any array a user holds, made ready for the
kernels in one step at the edge.

Users hold arrays in every shape numpy and DLPack allow: big-endian data
read from files, slices with any step, transposes, broadcasts, empty
batches, memory maps, unaligned buffers, PyTorch views. The kernels read
native-order elements at element-aligned addresses through a oneDNN
descriptor. This module decides, once per call definition, whether an array
is that already (a dense permutation, or strides a oneDNN descriptor can
hold) or needs one copy into a C-contiguous native-order array, and turns
array-likes (lists, scalars, tensors) into numpy arrays. Everything below it
sees only what the kernels handle; the property that guards it
(tests/test_array_views.py) is ``f(view) == f(np.ascontiguousarray(view))``
or a ``dnnl.error``.
"""
import sys

import numpy as np

from dnnl._error import invalid
from dnnl._interop import as_numpy

_INT32 = np.iinfo(np.int32)


class Misaligned(Exception):
    """Raised by a prepared call given data that is not aligned to its
    element (a buffer sliced at an odd byte): the caller runs the call again
    on an aligned copy."""


def array_of(x):
    """``x`` as a numpy array, sharing its memory where it has some.

    A numpy array (a memory map too) is taken as it is; a CPU torch tensor
    through ``.numpy()`` (its cheapest view); any other ``__dlpack__``
    producer or buffer without a copy. Lists, tuples and Python numbers are
    taken as ``np.asarray`` takes them, except that integers (numpy's
    int64, which no oneDNN primitive takes) become int32 when every value
    fits it.
    """
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple, int, float, bool, np.generic)):
        a = np.asarray(x)
        if a.dtype == np.int64 and not isinstance(x, np.generic) and (
                a.size == 0 or _INT32.min <= a.min() and a.max() <= _INT32.max):
            a = a.astype(np.int32)
        return a
    torch = sys.modules.get("torch")
    if torch is not None and type(x) is torch.Tensor:
        try:
            return x.numpy()        # a view; refused for bf16, autograd, devices...
        except (TypeError, RuntimeError):
            pass                    # ... which DLPack (or its refusal) handles
    return as_numpy(x)


def native(dtype):
    """``dtype`` in this machine's byte order."""
    return dtype if dtype.isnative else dtype.newbyteorder("=")


def describable(shape, strides, itemsize):
    """Whether a oneDNN descriptor holds these byte ``strides``: element
    multiples, non-negative, and oneDNN's strides check
    (``memory_desc_strides_check``): ordered by stride, each at least the
    one before it times that one's dim (dims of 1 and broadcast strides of
    0 are skipped)."""
    walk = []
    for n, s in zip(shape, strides):
        if n == 1 or s == 0:
            continue
        if s < 0 or s % itemsize:
            return False
        walk.append((s, n))
    need = 0
    for s, n in sorted(walk):
        if s < need:
            return False
        need = s * n
    return True


def copy_dtype(a, wide_to_f32=False):
    """The dtype to copy ``a`` into (C-contiguous) before a kernel reads it,
    or None when the kernels read ``a`` as it is.

    A copy is made for a foreign byte order, for data not aligned to its
    element, and for strides no oneDNN descriptor holds (negative steps,
    steps that are not element multiples, oneDNN's strides check); with
    ``wide_to_f32``, float64 and longdouble are rounded to f32 in the same
    pass. Empty arrays are copied too (their strides mean nothing).
    """
    dtype = a.dtype
    want = np.dtype(np.float32) if wide_to_f32 and dtype.kind == "f" \
        and dtype.itemsize > 4 else native(dtype)
    if want != dtype or not a.flags.aligned or a.size == 0:
        return want
    if a.flags.c_contiguous or describable(a.shape, a.strides, dtype.itemsize):
        return None
    return want


def overlaps(shape, strides, limit=1 << 22):
    """Whether two indices of a view address the same element: exact (two
    sorted address lists compared) up to ``limit`` elements; past it True
    unless each stride clears the extent of the smaller ones, a sufficient
    test."""
    walk = sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1)
    extent = 0
    for s, n in walk:
        if s <= extent:
            break
        extent += s * (n - 1)
    else:
        return False
    count = int(np.prod(shape, dtype=np.int64))
    if count > limit:
        return True
    addresses = np.zeros(1, np.int64)
    for s, n in walk:
        addresses = (addresses[:, None] + np.arange(n, dtype=np.int64) * s).reshape(-1)
    addresses.sort()
    return bool((addresses[1:] == addresses[:-1]).any())


def refuse_for_memory(a):
    """Refuse, naming the fix, an array no memory can share without a copy
    (:meth:`dnnl.memory.from_array` promises no copy)."""
    if not a.dtype.isnative:
        raise invalid(
            "the array is %s-endian and oneDNN's data types are this machine's byte order; "
            "from_array shares bytes, so it cannot swap them: pass x.astype(x.dtype."
            "newbyteorder('=')) (a copy), or use dnnl.convert / quantize / resample, which "
            "read it as it is" % ("big" if a.dtype.byteorder == ">" else "little"))
    if a.size == 0:
        return
    strides = a.strides
    if any(s < 0 for n, s in zip(a.shape, strides) if n > 1):
        raise invalid("strides %s (bytes) step backwards, which no oneDNN descriptor "
                      "describes: pass np.ascontiguousarray(x) (a copy), or use the array "
                      "functions (dnnl.convert...), which read it as it is" % (strides,))
    if any(s % a.itemsize for n, s in zip(a.shape, strides) if n > 1):
        raise invalid("strides %s (bytes) are not multiples of the element size %d: pass "
                      "np.ascontiguousarray(x) (a copy)" % (strides, a.itemsize))
    if not describable(a.shape, strides, a.itemsize):
        what = ("two indices address the same element" if overlaps(a.shape, strides)
                else "oneDNN's descriptors need each stride at least the next smaller "
                "stride times its dim; these interleave without overlapping")
        raise invalid("strides %s (bytes) of shape %s: %s. Pass np.ascontiguousarray(x) "
                      "(a copy), or use the array functions (dnnl.convert...), which copy "
                      "such a view once" % (strides, a.shape, what))
