"""Prepared calls: what the array functions make once per call definition.

A call is defined by its arguments' shapes, strides, data types and options,
not by their values: the first call with a given definition checks it
completely and makes the primitive; the next ones find that prepared call
by a key of those properties, allocate the result and run the primitive's
plan on the buffers' addresses. Any array is prepared: one the kernels
read as it is (dnnl._model.inputs.copy_dtype is None) runs directly, one of the
other byte order whose strides a descriptor holds too, its reorder's plan
reversing each element's bytes as it loads it (``swapped()``;
dnnl._model.inputs.swap_readable), any other through :class:`CopyFirst`, which
copies it once first. The strides and
dtype (byte order included) in a key stand for that decision; only the
data's alignment is not in the key, so a direct call checks it
(:func:`aligned_copy`). A torch tensor's key is torch's own shape, strides
and dtype: it runs at its address without a numpy view.
"""
import sys
from copy import copy as shallow_copy

import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl import verbose as _verbose
from dnnl._core.args import short
from dnnl._model.engine import stream
from dnnl._core.enums import status
from dnnl._core.error import out_of_memory, unimplemented
from dnnl.arrays.front import Front
from dnnl._model.inputs import (array_of, copy_dtype, dense_copy, layout_of_result, memory_order,
                          swap_readable, tensor_meta)
from dnnl._model.interop import _ENGINE
from dnnl._core.keys import remember
from dnnl._model.offsets import data_address as _address
from dnnl._model.memory import memory, memory_allocated, memory_over, span_bytes
from dnnl.arrays.quant_args import (ARG_FROM, ARG_TO, F32_MAX, F32_TINY, INTEGRAL, quant_attr,
                                    quant_memory, values_of)
from dnnl.primitives.reorder.primitive import reorder
from dnnl._core.settings import settings

from_array = memory.from_array

calls = {}      # call key -> prepared call (immutable, shared by threads)
LIMIT = 512     # then forget them all: the next calls prepare again
# (ndim, dtype, settings key, options) -> a call that makes the call of the
# same options for an array of another shape (:func:`another_shape`)
by_options = {}
# where the array functions look first: a numpy array's call by the exact
# objects of its definition, found in C (dnnl.arrays.front)
front = Front()
settings.watch(front.rekey)


def prepared_call(key, prepare):
    """The prepared call of ``key``, made by ``prepare()`` at first use (every
    time when ``key`` is None: an unhashable argument)."""
    if key is None:
        return prepare()
    call = calls.get(key)
    if call is None:
        call = remember(calls, key, prepare(), LIMIT)
    return call


def array_call(x, parts, options):
    """The prepared call of the numpy array ``x`` for the options ``parts``,
    from :data:`calls`, else None (none yet, or an option that cannot be
    hashed: then :func:`run_prepared` prepares it). A call found is
    remembered in :data:`front` under ``options``: ``(function, o1, ...,
    o5)`` as the caller passed them."""
    key = settings.key
    try:
        call = calls.get((x.shape, x.strides, x.dtype, key, parts))
    except TypeError:
        return None
    if call is not None:
        front.store(x, options, key, call)
    return call


def another_shape(x, parts):
    """The call of the numpy array ``x`` for the options ``parts``, made by
    the call prepared for the same options and an array of another shape
    (the next image of a loader, each a new size), or None (no such call,
    or one that cannot take ``x``: :func:`run_prepared` then prepares it).
    A call made is remembered in :data:`calls`; it is one C plan and a few
    lines, where preparing it from its definition costs a new image size
    as much as its resize (docs/internals/performance.md)."""
    key = settings.key
    try:
        known = by_options.get((x.ndim, x.dtype, key, parts))
    except TypeError:
        return None
    call = None if known is None else known.remake(x)
    if call is not None:
        remember(calls, (x.shape, x.strides, x.dtype, key, parts), call, LIMIT)
    return call


def call_key(*parts):
    """``parts`` as a key of :data:`calls`, or None when one of them
    cannot be hashed (an array of scales: such a call is prepared anew)."""
    try:
        hash(parts)
    except TypeError:
        return None
    return parts


def new_array(shape, dtype, axes=None):
    """A new result array, ``np.empty(shape, dtype)`` seen through
    ``transpose(axes)`` when ``axes`` is given (a result in its input's
    memory order: :func:`dnnl._model.inputs.layout_of_result`). One too large is
    :class:`dnnl.out_of_memory`, not numpy's ValueError or MemoryError."""
    try:
        out = np.empty(shape, dtype)
    except (ValueError, MemoryError):
        raise too_large(shape, dtype) from None
    return out if axes is None else out.transpose(axes)


def too_large(shape, dtype):
    """The error of a result numpy cannot allocate."""
    return out_of_memory(status.out_of_memory, "cannot allocate a result of shape %s and "
                         "type %s" % (short(list(shape)), np.dtype(dtype)))


def aligned_copy(a, dtype=None):
    """A copy of ``a`` with its strides (non-negative), at an address numpy
    aligns: for a direct call given data at an odd address, whose
    descriptor holds those strides (of ``dtype``: ``a``'s values in this
    machine's byte order)."""
    span = sum((n - 1) * s for n, s in zip(a.shape, a.strides)) + a.itemsize
    b = np.ndarray(a.shape, dtype or a.dtype, np.empty(span, np.uint8), 0, a.strides)
    b[...] = a
    return b


class CopyFirst:
    """A prepared call whose input is copied first, once, into a dense array
    of ``dtype`` (native order; f32 for float64 input) in the input's axis
    order (numpy's ``order="K"``): a foreign byte order, an odd or negative
    stride, float64 rounded to f32."""

    __slots__ = ("call", "dtype")

    def __init__(self, call, dtype):
        self.call, self.dtype = call, dtype

    def run(self, a, *rest):
        return self.call.run(dense_copy(a, self.dtype), *rest)


class Widened:
    """A prepared call whose f32 result is widened to float64, exactly (the
    f64 result a numpy user asks for: no kernel writes f64)."""

    __slots__ = ("call",)

    def __init__(self, call):
        self.call = call

    def run(self, *args, **address):
        return self.call.run(*args, **address).astype(np.float64)

    def swapped(self):
        call = self.call.swapped()
        return None if call is None else Widened(call)


class PreparedReorder:
    """One reorder of the array layer, made once: the primitive, its plan,
    the descriptors of its memories and the result's shape and type."""

    __slots__ = ("prim", "plan", "stream", "src_md", "src_nbytes", "src_item", "dst_md",
                 "dst_nbytes", "out_shape", "out_axes", "out_dtype", "quant", "dims",
                 "per_tensor", "dst_side", "native")

    def __init__(self, a, dst_md, out_dtype, scales, zero_points, axis, out_shape=None,
                 out_axes=None):
        """``a``: an array of the call's definition the kernels read as it
        is, with at least one dim; ``dst_md`` the result's descriptor,
        ``out_dtype`` its numpy type (None: the result is a memory),
        ``out_shape`` and ``out_axes`` how it is allocated (:func:`new_array`;
        default ``a``'s shape, C order)."""
        src = from_array(a)
        self.src_md, self.src_nbytes, self.src_item = src.md, src.nbytes, a.itemsize
        dims = self.dims = list(self.src_md.dims)
        self.dst_md, self.dst_nbytes = dst_md, span_bytes(dst_md)
        self.out_shape = a.shape if out_shape is None else out_shape
        self.out_axes, self.out_dtype = out_axes, out_dtype
        attr, self.quant = quant_attr(dims, dst_md.data_type, scales, zero_points, axis)
        self.per_tensor = axis is None
        self.dst_side = dst_md.data_type in INTEGRAL
        pd = reorder.primitive_desc(_ENGINE, self.src_md, _ENGINE, dst_md, attr)
        self.prim = reorder(pd)
        self.plan = self.prim.ready_plan()
        self.stream = stream(_ENGINE)
        self.native = None

    def swapped(self):
        """This call on arrays of the other byte order (prepared on a native
        view of one), its plan reversing each element's bytes as it reads
        them; None when no plan runs it."""
        if self.plan is None:
            return None
        call = shallow_copy(self)
        call.plan = self.plan.swapped()
        call.native = _dtypes.numpy_dtype(self.src_md.data_type)    # for _execute
        return call

    def run(self, a, scales, zero_points, src=None):
        """Reorder ``a`` (an array of the call's definition, or a torch
        tensor at the element-aligned address ``src``) into a new result: a
        numpy array when the call has an ``out_dtype``, else a memory."""
        if src is None:
            src = _address(a)
            if src % self.src_item:     # an odd address: the kernels read whole elements
                a = aligned_copy(a)
                src = _address(a)
        plan = self.plan
        if self.out_dtype is None:
            dst, address = memory_allocated(self.dst_md, _ENGINE, self.dst_nbytes)
        else:       # new_array, inline: the call users repeat most
            try:
                dst = np.empty(self.out_shape, self.out_dtype)
            except (ValueError, MemoryError):
                raise too_large(self.out_shape, self.out_dtype) from None
            if self.out_axes is not None:
                dst = dst.transpose(self.out_axes)
            address = _address(dst)
        if plan is None or _verbose.exec_on:
            self._execute(a, dst, scales, zero_points)
            return dst
        if self.quant is None:
            plan.run(src, address)
        elif self.per_tensor and (
                scales is None or type(scales) is float and (
                    F32_TINY <= scales <= F32_MAX or -F32_MAX <= scales <= -F32_TINY)
        ) and (zero_points is None or type(zero_points) is int
               and -2 ** 31 <= zero_points < 2 ** 31):
            # the usual quantization: two numbers, no arrays made for them (any
            # other scale is checked by values_of: 0, NaN and inf are refused)
            plan.run_values(src, address, self.dst_side, scales, zero_points)
        else:
            addresses = [0, 0, 0, 0]
            values = self._quant_arrays(scales, zero_points)     # alive while the plan runs
            for _, pos, v in values:
                addresses[pos] = _address(v)
            plan.run(src, address, *addresses)
        return dst

    def _quant_arrays(self, scales, zero_points):
        """``[(execution argument, position in the plan's run, array)]`` of
        the scales and zero points given."""
        return [(arg, pos, values_of(v, self.dims, ax, np_dtype, what))
                for (arg, np_dtype, ax, what, pos), v in zip(self.quant, (scales, zero_points))
                if arg is not None]

    def _execute(self, a, dst, scales, zero_points):
        """:meth:`run` through ``primitive.execute`` (verbose prints its line)."""
        if not isinstance(dst, memory):
            dst = memory_over(self.dst_md, _ENGINE, self.dst_nbytes, dst)
        if type(a) is not np.ndarray:
            a = array_of(a)     # a tensor: its numpy view
        if self.native is not None:     # the other byte order: its values, copied
            a = aligned_copy(a, self.native)
        args = {ARG_FROM: memory_over(self.src_md, _ENGINE, self.src_nbytes, a),
                ARG_TO: dst}
        if self.quant is not None:
            for arg, _, v in self._quant_arrays(scales, zero_points):
                args[arg] = quant_memory(v)
        self.prim.execute(self.stream, args)


# Heads the keys of torch tensors' calls: their shapes, strides (in elements)
# and dtypes are torch's own, read without making a numpy view.
TENSOR = object()
_TENSOR_TYPE = [None]


def tensor_call(x, parts):
    """``(prepared call, address)`` for a torch tensor ``x`` whose call of
    ``parts`` is prepared, else None: one frame, torch's own attributes read
    inline (a small call on a tensor would otherwise cost twice the numpy
    one). The tensors :func:`dnnl._model.inputs.tensor_meta` refuses are refused
    here alike."""
    tensor = _TENSOR_TYPE[0]
    if tensor is None:      # torch's Tensor, once torch is loaded (never imported here)
        torch = sys.modules.get("torch")
        if torch is None:
            return None
        tensor = _TENSOR_TYPE[0] = torch.Tensor
    if type(x) is not tensor or not x.is_cpu or x.requires_grad or x.is_neg():
        return None
    address = x.data_ptr()
    if address & 7:
        return None
    try:
        call = calls.get((TENSOR, x.shape, x.stride(), x.dtype, settings.key, parts))
    except TypeError:
        return None
    return None if call is None else (call, address)


def run_prepared(x, parts, wide, make, args):
    """Run on ``x`` the prepared call defined by ``parts`` (the operation
    and its options) and ``x``'s shape, strides and dtype: the key
    ``(shape, strides, dtype, settings.key, parts)``, which the public
    functions look up themselves first for a numpy array (one frame less
    on the call users repeat most).

    At the first call of a definition, ``make(a)`` prepares it for an array
    ``a`` the kernels read as it is: ``x`` itself, or its
    :func:`dnnl._model.inputs.dense_copy` (float64 rounded to f32 with ``wide``),
    which every later call then makes too (:class:`CopyFirst`). A torch
    tensor finds its call by torch's own shape, strides and dtype and runs
    at its address; ``args`` follow the input in the run."""
    # the key with the fpmath mode read from the environment (at the first
    # call made): the same key as the next calls read
    settings_key = settings.cache_key()
    tensor = tensor_meta(x) if type(x) is not np.ndarray else None
    if tensor is not None:
        tkey = call_key(TENSOR, tensor[0], tensor[1], tensor[2], settings_key, parts)
        call = calls.get(tkey) if tkey is not None else None
        if call is not None:
            return call.run(x, *args, src=tensor[3])
    if type(x) is not np.ndarray:
        x = array_of(x)
    key = call_key(x.shape, x.strides, x.dtype, settings_key, parts)
    call = calls.get(key) if key is not None else None
    if call is None:
        def prepare():
            copy = copy_dtype(x, wide)
            if swap_readable(x, copy):      # read where it is, swapped as it loads
                try:
                    swapped = getattr(make(x.view(copy)), "swapped", None)
                except unimplemented:       # a pair taken between dense layouts only
                    swapped = None
                call = swapped and swapped()
                if call is not None:
                    return call
            try:
                call = make(x if copy is None else dense_copy(x, copy))
            except unimplemented:
                # oneDNN converts some pairs (s32 -> bf16...) only between
                # identical dense layouts: a strided view's values, copied
                # dense, are such a source
                if copy is not None:
                    raise
                copy = x.dtype
                call = make(dense_copy(x, copy))
            return call if copy is None else CopyFirst(call, copy)
        call = prepared_call(key, prepare)
        if type(call) is PreparedResampling and call.remake is not None:
            # (a call of the array itself: a copied input is CopyFirst's)
            remember(by_options, (x.ndim, x.dtype, settings_key, parts), call, LIMIT)
    if tensor is not None and tkey is not None and type(call) in DIRECT:
        remember(calls, tkey, call, LIMIT)      # the tensor's next calls
    return call.run(x, *args)


class PreparedResampling:
    """One resampling of the array layer, made once: the primitive, its plan,
    the descriptors of its input and output and the output's shape and type.
    Made from a plan alone (:meth:`of_plan`), it makes its primitive only
    when a run goes through ``execute`` (verbose)."""

    __slots__ = ("prim", "define", "plan", "stream", "in_arg", "in_md", "in_nbytes",
                 "in_item", "out_arg", "out_md", "out_nbytes", "out_shape", "out_axes",
                 "out_dtype", "remake")

    def __init__(self, prim, in_arg, out_arg, src, dst, out, in_item):
        """``src`` / ``dst``: memories of the call's definition (``in_arg`` /
        ``out_arg``), ``dst`` over the numpy array ``out`` (a single image's
        result: the image of ``dst``'s batch view), whose shape, type and
        memory order the results keep; ``in_item``: the input's element size."""
        self._result(in_arg, out_arg, out, in_item)
        self.stream = stream(_ENGINE)
        self._defined(prim, src, dst)
        self.plan, self.define, self.remake = prim.ready_plan(), None, None

    @classmethod
    def of_plan(cls, plan, define, in_arg, out_arg, result, in_item, remake=None):
        """The call that runs ``plan`` into results ``new_array(*result)``
        (allocation shape, axes, dtype); ``define(a, out)``, for an input
        and a result of the call, returns ``(primitive, src, dst)`` as
        ``__init__`` takes them, the first time a run needs them.
        ``remake(x)``: this call's options for an array of another shape
        (:func:`another_shape`), or None."""
        call = cls.__new__(cls)
        call.in_arg, call.out_arg, call.in_item = in_arg, out_arg, in_item
        call.out_shape, call.out_axes, call.out_dtype = result
        call.prim, call.plan, call.define, call.remake = None, plan, define, remake
        call.stream = None          # made with the primitive (a new image size's 4 us)
        return call

    def _result(self, in_arg, out_arg, out, in_item):
        self.in_arg, self.out_arg, self.in_item = in_arg, out_arg, in_item
        self.out_shape, self.out_axes = layout_of_result(out.shape, memory_order(out))
        self.out_dtype = out.dtype

    def _defined(self, prim, src, dst):
        self.prim = prim
        self.in_md, self.in_nbytes = src.md, src.nbytes
        self.out_md, self.out_nbytes = dst.md, dst.nbytes

    def run(self, a, out=None, src=None):
        """Resample ``a`` (an array of the call's definition, or a torch
        tensor at the element-aligned address ``src``) into a new array, or
        into ``out``, a checked array of the definition's out (dnnl.arrays.out_arg)."""
        if src is None:
            src = _address(a)
            if src % self.in_item:      # an odd address: whole elements read
                a = aligned_copy(a)
                src = _address(a)
        if out is None:
            out = new_array(self.out_shape, self.out_dtype, self.out_axes)
        plan = self.plan
        if plan is None or _verbose.exec_on:    # through execute: verbose prints
            if type(a) is not np.ndarray:
                a = array_of(a)     # a tensor: its numpy view
            if self.prim is None:
                self._defined(*self.define(a, out))
                self.stream = stream(_ENGINE)
            self.prim.execute(self.stream, {
                self.in_arg: memory_over(self.in_md, _ENGINE, self.in_nbytes, a),
                self.out_arg: memory_over(self.out_md, _ENGINE, self.out_nbytes, out)})
        else:
            plan.run(src, _address(out))
        return out


class Zeros:
    """The gradient of a resampling none of whose outputs exist (an empty
    ``diff_dst`` spatial size): zeros, which oneDNN's primitive would not
    write (it skips a problem with an empty memory)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype

    def run(self, a, out=None, src=None):
        if out is None:
            return np.zeros(self.shape, self.dtype)
        out[...] = 0
        return out


# the calls that read their input where it is: a tensor's key may share them
DIRECT = (PreparedReorder, PreparedResampling, Widened, Zeros)
