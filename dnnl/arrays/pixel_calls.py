"""Images resized by the typed pixel rows: the calls :func:`dnnl.resample`
makes for dense channels-last arrays without the descriptors.

A new image size is the common case of an image loader, and preparing its
call from the definition (descriptors, primitive, the plan from them) costs
several times its resize. Here the plan is built in C
(``dnnl.primitives.resampling.plan.pixel_plan``), the primitive made only
when verbose asks for it, and a call made for one size makes the call of
its options for the next C-contiguous image of another size
(:func:`dnnl.arrays.prepared.another_shape`) from its shape alone.
"""
from functools import partial

from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import C, prop_kind
from dnnl._core.settings import settings
from dnnl._model.inputs import layout_of_result, memory_order
from dnnl._model.interop import _ENGINE
from dnnl._model.memory import memory
from dnnl import verbose as _verbose
from dnnl.arrays import layouts as _layouts
from dnnl.arrays.prepared import PreparedResampling, new_array
from dnnl.primitives.resampling.plan import pixel_plan
from dnnl.primitives.resampling.primitive import resampling_forward

_ARG_SRC, _ARG_DST = C["DNNL_ARG_SRC"], C["DNNL_ARG_DST"]


def forward_primitive(alg, src, dst):
    """oneDNN's forward resampling of the memories ``src`` to ``dst``."""
    pd = resampling_forward.primitive_desc(_ENGINE, prop_kind.forward_inference, alg,
                                           src.md, dst.md)
    return resampling_forward(pd)


def pixel_call(a, view, lay, alg, spatial, npdt, any_shape):
    """The call resizing ``a`` (layout ``lay``; its N, C, spatial...
    ``view``) to ``spatial``, its results of numpy type ``npdt``, when both
    it and the result are dense channels-last and the typed pixel rows take
    them, as images are; None for every other call. With ``any_shape``
    (``spatial`` is a size, not factors) the call also makes its options'
    call for an image of another shape (:func:`_remake`)."""
    if _verbose.create_on or _verbose.exec_on or not _layouts.dense_last(view):
        return None
    native = _dtypes.native_data_type
    sdt, ddt = native(view.dtype), native(npdt)
    if sdt is None or ddt is None:
        return None
    plan = _plan(alg, view.shape[0], view.shape[1], view.shape[2:], spatial, sdt, ddt)
    if plan is None:
        return None
    alloc, axes = layout_of_result(_layouts.result_shape(a, lay, spatial), memory_order(a))
    if not _layouts.dense_last(_layouts.logical(new_array(alloc, npdt, axes), lay)):
        return None
    # C-contiguous images of another shape have a dense channels-last view
    remake = partial(_remake, lay, alg, tuple(spatial), sdt, ddt, npdt) \
        if any_shape and (lay.last or lay.added == 2) else None
    return _call(plan, alg, lay, (alloc, axes, npdt), a.itemsize, remake)


def _remake(lay, alg, spatial, sdt, ddt, npdt, x):
    """The call of :func:`pixel_call`'s options (``lay`` channels last, or
    ``"hw"``) for the numpy array ``x`` of the same type and rank and
    another shape, when ``x`` is C-contiguous and the pixel rows take it;
    else None (the call is then prepared from its definition). Only its
    shape is read: the definition's checks passed for this rank and type,
    and the plan refuses what it does not take (an empty image...)."""
    if _verbose.create_on or _verbose.exec_on or not (x.flags.c_contiguous and x.flags.aligned):
        return None     # (an unaligned array is read from an aligned copy: run_prepared)
    shape = x.shape
    if not lay.last:            # "hw": one channel
        n, c, ins = 1, 1, shape
    elif lay.added:             # "hwc"
        n, c, ins = 1, shape[-1], shape[:-1]
    else:
        n, c, ins = shape[0], shape[-1], shape[1:-1]
    plan = _plan(alg, n, c, ins, spatial, sdt, ddt)
    if plan is None:
        return None
    out = ((n,) + spatial + (c,))[lay.added:] if lay.last else spatial
    return _call(plan, alg, lay, (out, None, npdt), x.itemsize)


def _plan(alg, n, c, ins, spatial, sdt, ddt):
    """The pixel rows' plan of ``n`` images of ``c`` channels and sizes
    ``ins`` to ``spatial``, or None when they do not take them."""
    return pixel_plan(alg, n, c, ins, spatial, sdt, ddt,
                      parallel_min=settings.resampling_parallel_min)


def _call(plan, alg, lay, result, in_item, remake=None):
    """The call running ``plan`` into results ``result``
    (:meth:`PreparedResampling.of_plan`)."""
    return PreparedResampling.of_plan(plan, partial(_define, alg, lay), _ARG_SRC, _ARG_DST,
                                      result, in_item, remake)


def _define(alg, lay, x, out):
    """``(primitive, src, dst)`` of a pixel call's run through oneDNN's
    primitive (verbose): ``x`` and ``out`` in layout ``lay``."""
    src = memory.from_array(_layouts.logical(x, lay))
    dst = memory.from_array(_layouts.logical(out, lay))
    return forward_primitive(alg, src, dst), src, dst
