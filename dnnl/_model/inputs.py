"""What the array functions take: any array a user holds, made ready for the
kernels in one step at the edge.

Users hold arrays in every shape numpy and DLPack allow: big-endian data
read from files, slices with any step, transposes, broadcasts, empty
batches, memory maps, unaligned buffers, PyTorch views. The kernels read
native-order elements at element-aligned addresses through a oneDNN
descriptor. This module decides, once per call definition, whether an array
is that already (a dense permutation, or strides a oneDNN descriptor can
hold), is that but for its byte order (the reorder kernels swap as they
load: :func:`swap_readable`), or needs one copy into a C-contiguous
native-order array, and turns
array-likes (lists, scalars, tensors) into numpy arrays. Everything below it
sees only what the kernels handle; the property that guards it
(tests/properties/test_array_views.py) is ``f(view) == f(np.ascontiguousarray(view))``
or a ``dnnl.error``.
"""
import sys

import numpy as np

from dnnl._model.desc import overlaps
from dnnl._core.error import invalid
from dnnl._model.interop import as_numpy, plain_tag, takes_as_numpy

_INT32 = np.iinfo(np.int32)


def _tensor_type():
    torch = sys.modules.get("torch")     # never imported here: only asked if loaded
    return None if torch is None else torch.Tensor


def tensor_meta(x):
    """``(shape, strides in elements, torch dtype, address)`` of a CPU torch
    tensor outside autograd, without a negative view, at an address aligned
    to 8 bytes, read from torch alone (no numpy view is made: that costs
    more than the rest of a small call); None for anything else."""
    if type(x) is not _tensor_type() or not x.is_cpu or x.requires_grad or x.is_neg():
        return None
    address = x.data_ptr()
    if address & 7:         # maybe not aligned to its element: numpy's view checks
        return None
    return x.shape, x.stride(), x.dtype, address


def tensor_numpy(x):
    """``x.numpy()`` for a torch tensor that has one (on the CPU, of a type
    numpy has, outside autograd), else None: its cheapest numpy view. Only
    ``type(x)`` is read first: ``isinstance`` would ask a tensor for its
    ``__class__``, which costs torch's attribute lookup."""
    if type(x) is not _tensor_type():
        return None
    if x.is_neg() or x.is_conj():   # lazy views whose bytes are not their values
        x = x.resolve_neg().resolve_conj()
    try:
        return x.numpy()
    except (TypeError, RuntimeError):    # bf16, autograd, a device: DLPack's turn
        return None


def array_of(x):
    """``x`` as a numpy array, sharing its memory where it has some.

    A numpy array (a memory map too) is taken as it is; a CPU torch tensor
    through ``.numpy()`` (its cheapest view); any other ``__dlpack__``
    producer or buffer without a copy. Lists, tuples and Python numbers are
    taken as ``np.asarray`` takes them, except that integers (numpy's
    int64, which no oneDNN primitive takes) become int32 when every value
    fits it; so are other objects numpy takes (``__array__``,
    ``__array_interface__``, ``__array_struct__``: a PIL image, an h5py
    dataset), as they are.
    """
    a = tensor_numpy(x)
    if a is not None:
        return a
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (list, tuple, int, float, bool, np.generic)):
        try:
            a = np.asarray(x)
        except (ValueError, TypeError, OverflowError) as exc:  # ragged, mixed...
            raise invalid("cannot make an array of this %s: %s"
                          % (type(x).__name__, exc)) from None
        if a.dtype == np.int64 and not isinstance(x, np.generic) and (
                a.size == 0 or _INT32.min <= a.min() and a.max() <= _INT32.max):
            a = a.astype(np.int32)
        return a
    if not hasattr(x, "__dlpack__") and takes_as_numpy(x):
        try:
            return np.asarray(x)
        except (ValueError, TypeError, OverflowError) as exc:
            raise invalid("cannot make an array of this %s: %s"
                          % (type(x).__name__, exc)) from None
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


def dense_copy(a, dtype):
    """``a`` copied into a new dense array of ``dtype`` in ``a``'s axis order
    (numpy's ``order="K"``: a transposed view stays transposed, so the copy
    and the kernel after it both stream). A prepared call and its first
    run make their copies here alike: the layout follows from the strides
    alone."""
    return np.array(a, dtype, order="K")


def memory_order(a):
    """The axes of ``a`` from outermost to innermost in memory when ``a`` is
    dense in an order other than C's (a transpose, a channels-last tensor),
    else None. Results follow it, as numpy's elementwise operations and
    PyTorch's memory formats do."""
    if a.ndim < 2 or a.size == 0 or a.flags.c_contiguous:
        return None
    item = a.itemsize
    if any(s < 0 or s % item for n, s in zip(a.shape, a.strides) if n > 1):
        return None
    name = plain_tag(a.shape, [s // item if n > 1 else 0 for n, s in zip(a.shape, a.strides)])
    if name is None:
        return None
    order = tuple(ord(ch) - ord("a") for ch in name)
    return None if order == tuple(range(a.ndim)) else order


def layout_of_result(shape, order):
    """``(allocation shape, axes)``: a result of ``shape`` in memory order
    ``order`` is ``np.empty(allocation shape).transpose(axes)`` (``axes``
    None: C order)."""
    if order is None:
        return tuple(shape), None
    axes = [0] * len(order)
    for position, d in enumerate(order):
        axes[d] = position
    return tuple(shape[d] for d in order), tuple(axes)


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


def swap_readable(a, copy):
    """Whether the kernels can read ``a`` where it is, reversing each
    element's bytes as they load it, instead of copying it (``copy``, the
    answer of :func:`copy_dtype`): the copy would only make a foreign byte
    order native, for elements of 2 or 4 bytes, at strides a descriptor holds."""
    return (copy is not None and copy != a.dtype and copy == native(a.dtype)
            and a.itemsize in (2, 4) and a.size > 0 and a.flags.aligned
            and describable(a.shape, a.strides, a.itemsize))


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
