"""Dask arrays in the array functions: the same call on every block.

``dnnl.quantize``, ``dequantize``, ``resample``, ``resample_backward`` and
``convert`` (to a plain layout) take a ``dask.array.Array`` and return one,
built with ``map_blocks``: each block is computed by the numpy path, so the
result is that of the numpy path, bit for bit. Blocks split only the axes the
operation does not mix: any axis for per-tensor quantization; for per-axis
quantization any axis too, each block with its slice of the scales and zero
points; batch and channels for resampling, whose spatial axes are first
rechunked whole.

Each call first runs the numpy path once on a probe, a zero array with the
input's data type and the smallest shape that keeps what the call depends on
(the spatial dims of a resampling, the quantization axis), so bad arguments
raise ``dnnl.error`` at the call, as for numpy, not later on a worker; the
probe also gives the result's data type and spatial size.

dask is optional: it is imported only when a dask array arrives, and
:func:`is_dask` recognises one by its type's module, without importing dask.
"""
import operator

import numpy as np

from dnnl._core.error import invalid, unimpl, wrong_type
from dnnl.arrays import layouts as _layouts


def is_dask(x, _ndarray=np.ndarray):
    """Whether ``x`` is a dask array (checked without importing dask; a numpy
    array, the common case, at the cost of one comparison)."""
    t = type(x)
    return t is not _ndarray and t.__module__.startswith("dask.array")


def _map_blocks(op, x, block_fn, *args, dtype, chunks=None, **kwargs):
    """``x.map_blocks(block_fn, *args, **kwargs)``, its keys named
    ``dnnl-<op>-<hash of the call>`` (``name`` is a whole key in newer dask,
    a prefix in older ones: unique either way)."""
    from dask.base import tokenize
    name = "dnnl-%s-%s" % (op, tokenize(block_fn, x, args, kwargs, dtype, chunks))
    meta = np.empty((0,) * x.ndim, dtype)
    if chunks is not None:
        kwargs["chunks"] = chunks
    return x.map_blocks(block_fn, *args, name=name, dtype=dtype, meta=meta, **kwargs)


def _probe(shape, dtype, keep=()):
    """A zero array of ``dtype`` with the dims of ``keep`` as in ``shape``
    and the others 1 (0 where ``shape`` has 0)."""
    if any(d != d for d in shape):      # NaN: chunks of unknown size
        raise invalid("the dask array's shape %s has unknown sizes: call "
                      "x.compute_chunk_sizes() first" % (shape,))
    return np.zeros([d if i in keep else min(d, 1) for i, d in enumerate(shape)], dtype)


# ------------------------------------------------------------------ reorders
def _quant_axis(axis, ndim):
    """``axis`` normalised, or None when it is not given or not valid (the
    probe then raises the numpy path's error)."""
    if axis is None:
        return None
    try:
        ax = operator.index(axis)
    except TypeError:
        return None
    return ax % ndim if -ndim <= ax < ndim else None


def _per_axis(values, x, ax):
    """``values`` (one per index of ``ax``) as a dask array chunked as ``x``
    along ``ax`` and of size 1 elsewhere: map_blocks gives each block its slice."""
    if values is None:
        return None
    import dask.array as da
    v = np.asarray(values).reshape(-1)
    shape = [1] * x.ndim
    shape[ax] = v.size
    chunks = [(1,)] * x.ndim
    chunks[ax] = x.chunks[ax]
    return da.from_array(v.reshape(shape), chunks=tuple(chunks))


def _flat(v, axis):
    """A block's scales or zero points: its slice (per axis), or the values
    as given (per tensor)."""
    return v.reshape(-1) if axis is not None and v is not None else v


def _reorder_block(block, fn, scale, zero_point, axis, dtype):
    """``fn`` (dnnl.quantize or dnnl.dequantize) of one block."""
    return fn(block, _flat(scale, axis), _flat(zero_point, axis), axis=axis, dtype=dtype)


def _convert_block(block, fn, scale, zero_point, axis, tag, dtype):
    """``fn`` (dnnl.convert) of one block, as its logical array."""
    return np.asarray(fn(block, tag, dtype, scales=_flat(scale, axis),
                         zero_points=_flat(zero_point, axis), axis=axis))


def _reorder(op, block_fn, fn, x, scales, zero_points, axis, run_probe, extra):
    """``op`` of the dask array ``x`` block by block: ``block_fn(block, fn,
    scales, zero points, axis, *extra)``; ``run_probe(probe)`` makes the
    numpy path's call on the probe and returns its numpy result."""
    ax = _quant_axis(axis, x.ndim)
    out = run_probe(_probe(x.shape, x.dtype, () if ax is None else (ax,)))
    if ax is None:
        # per-tensor: the one value goes to every block as it is
        return _map_blocks(op, x, block_fn, fn, scales, zero_points, None, *extra,
                           dtype=out.dtype)
    return _map_blocks(op, x, block_fn, fn, _per_axis(scales, x, ax),
                       _per_axis(zero_points, x, ax), ax, *extra, dtype=out.dtype)


# The array functions pass themselves in (fn): this module imports nothing of
# dnnl.arrays but its layout names (dnnl.arrays.layouts), and the blocks
# pickle the functions by name.
def reorder(fn, x, scale, zero_point, axis, dtype):
    """``fn`` (dnnl.quantize, dnnl.dequantize) of the dask array ``x``."""
    return _reorder(fn.__name__, _reorder_block, fn, x, scale, zero_point, axis,
                    lambda p: fn(p, scale, zero_point, axis=axis, dtype=dtype), (dtype,))


def convert(fn, x, tag, dtype, scales, zero_points, axis):
    """``fn`` (dnnl.convert) of the dask array ``x``, to a plain layout."""
    def run_probe(p):
        mem = fn(p, tag, dtype, scales=scales, zero_points=zero_points, axis=axis)
        if mem.get_desc().get_inner_nblks():
            # a blocked layout's blocks and padding cross any dask chunking
            raise unimpl(
                "convert of a dask array to the blocked layout %r: a blocked memory "
                "does not split into dask chunks; convert the computed array "
                "(dnnl.convert(x.compute(), tag)), or convert to a plain tag here"
                % (tag.name if hasattr(tag, "name") else tag,))
        return np.asarray(mem)
    return _reorder("convert", _convert_block, fn, x, scales, zero_points, axis, run_probe,
                    (tag, dtype))


# ------------------------------------------------------------------ resampling
def _resampling(op, block_fn, x, layout, out, run_probe, kwargs):
    """``op`` of the dask array ``x``: its spatial axes rechunked whole, then
    ``block_fn(block, **kwargs)`` on every block."""
    if out is not None:
        raise wrong_type("out= takes a numpy array or a torch tensor, and a dask array's "
                         "result is a dask array: drop out=, and da.store() the result into "
                         "your array (or compute it)")
    # a layout (name, rank) resample refuses is refused here alike
    spatial = _layouts.spatial_axes(x.ndim, _layouts.parse(layout, x.ndim))
    out = run_probe(_probe(x.shape, x.dtype, spatial))
    x = x.rechunk({ax: -1 for ax in spatial})
    chunks = tuple((out.shape[i],) if i in spatial else c for i, c in enumerate(x.chunks))
    return _map_blocks(op, x, _resampling_block, fn=block_fn, options=kwargs,
                       dtype=out.dtype, chunks=chunks)


def _resampling_block(block, fn, options):
    """``fn(block, **options)``: the options pass whole (map_blocks would
    take their ``dtype`` for itself)."""
    return fn(block, **options)


def resample(fn, x, size, factors, mode, layout, dtype, out):
    """``fn`` (dnnl.resample) of the dask array ``x``: ``fn`` on every block."""
    kwargs = dict(size=size, factors=factors, mode=mode, layout=layout, dtype=dtype)
    return _resampling("resample", fn, x, layout, out, lambda p: fn(p, **kwargs), kwargs)


def backward(fn, x, size, mode, layout, dtype, out):
    """``fn`` (dnnl.resample_backward) of the dask array ``x``."""
    kwargs = dict(mode=mode, layout=layout, dtype=dtype)
    return _resampling("resample_backward", fn, x, layout, out,
                       lambda p: fn(p, size, **kwargs), dict(size=size, **kwargs))
