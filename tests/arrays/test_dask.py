"""Dask arrays in the array functions (dnnl/arrays/dask.py): the result equals the
numpy path's bit for bit, for any chunking; bad arguments raise at the call;
and the same on a LocalCluster of worker processes, to which descriptors,
attributes and memories travel. Skipped without dask (the ``dask`` extra).
"""
import os
import pickle
import re
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl.testing import interpreter

pytestmark = pytest.mark.interop

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

RNG = np.random.default_rng(2026)


def same(lazy, expected):
    """``lazy`` is a dask array whose value is ``expected``, bit for bit."""
    assert type(lazy).__module__.startswith("dask.array")
    got = lazy.compute(scheduler="synchronous")
    assert got.shape == expected.shape == lazy.shape
    assert got.dtype == expected.dtype == lazy.dtype
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(expected).tobytes()


def chunking(data, shape):
    """A chunk size per dim: whole, 1, or anything between."""
    return tuple(data.draw(st.integers(1, max(d, 1))) for d in shape)


def batch(shape, dtype=np.float32):
    if np.dtype(dtype).kind == "f":
        return (RNG.standard_normal(shape) * 4).astype(dtype)
    info = np.iinfo(dtype)
    return RNG.integers(max(info.min, -300), min(info.max, 300), shape).astype(dtype)


# ------------------------------------------------------------------ resampling
@given(data=st.data(), rank=st.integers(1, 3), last=st.booleans(),
       mode=st.sampled_from(["linear", "nearest"]),
       dtype=st.sampled_from([np.float32, np.float16, np.uint8, np.int8, np.int32]))
def test_resample_any_chunking_equals_numpy(data, rank, last, mode, dtype):
    spatial = data.draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank))
    n, c = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 5))
    shape = (n, *spatial, c) if last else (n, c, *spatial)
    layout = "nhwc" if last else "nchw"
    x = batch(shape, dtype)
    d = da.from_array(x, chunks=chunking(data, shape))
    if data.draw(st.booleans()):
        size = data.draw(st.lists(st.integers(1, 9), min_size=rank, max_size=rank))
        kw = dict(size=size)
    else:
        kw = dict(factors=data.draw(st.sampled_from([0.5, 1.5, 2.0, 0.3, 3.0])))
    out = dnnl.resample(d, mode=mode, layout=layout, **kw)
    expected = dnnl.resample(x, mode=mode, layout=layout, **kw)
    same(out, expected)
    # batch and channel chunks kept, the spatial dims whole
    keep = (0, d.ndim - 1) if last else (0, 1)
    for i in range(d.ndim):
        assert out.chunks[i] == (d.chunks[i] if i in keep else (expected.shape[i],))
    grad = dnnl.resample_backward(out, spatial, mode=mode, layout=layout)
    same(grad, dnnl.resample_backward(expected, spatial, mode=mode, layout=layout))


@pytest.mark.parametrize("layout", ["nchw", "ncw", "ncdhw", "channels_first",
                                    "nhwc", "nwc", "ndhwc", "channels_last", "NHWC"])
def test_every_layout_name(layout):
    rank = {"ncw": 1, "nwc": 1, "ncdhw": 3, "ndhwc": 3}.get(layout, 2)
    x = batch((3, 4) + (5,) * rank)
    d = da.from_array(x, chunks=1)
    same(dnnl.resample(d, 7, layout=layout), dnnl.resample(x, 7, layout=layout))


@given(data=st.data(), layout=st.sampled_from(["hwc", "hw", "chw"]),
       mode=st.sampled_from(["linear", "nearest"]),
       dtype=st.sampled_from([np.float32, np.uint8]),
       result=st.sampled_from([None, "f32", "u8", "bf16"]))
def test_an_image_any_chunking_equals_numpy(data, layout, mode, dtype, result):
    h, w, c = (data.draw(st.integers(1, 6)) for _ in range(3))
    shape = {"hwc": (h, w, c), "hw": (h, w), "chw": (c, h, w)}[layout]
    x = batch(shape, dtype)
    d = da.from_array(x, chunks=chunking(data, shape))
    size = data.draw(st.lists(st.integers(1, 9), min_size=2, max_size=2))
    out = dnnl.resample(d, size, mode=mode, layout=layout, dtype=result)
    expected = dnnl.resample(x, size, mode=mode, layout=layout, dtype=result)
    same(out, expected)
    channels = {"hwc": 2, "chw": 0}.get(layout)       # the one axis a block may split
    for i in range(d.ndim):
        assert out.chunks[i] == (d.chunks[i] if i == channels else (expected.shape[i],))
    same(dnnl.resample_backward(out, (h, w), mode=mode, layout=layout, dtype="f32"),
         dnnl.resample_backward(expected, (h, w), mode=mode, layout=layout, dtype="f32"))


def test_out_is_refused_for_a_dask_array():
    d = da.from_array(batch((4, 4, 3)), chunks=2)
    for call in (lambda o: dnnl.resample(d, 2, layout="hwc", out=o),
                 lambda o: dnnl.resample_backward(d, 2, layout="hwc", out=o)):
        o = np.full((2, 2, 3), 7.0, np.float32)
        with pytest.raises(dnnl.invalid_type, match=r"da.store"):
            call(o)
        assert (o == 7.0).all()


# ------------------------------------------------------------------ quantization
@given(data=st.data(), ndim=st.integers(1, 4), per_axis=st.booleans(),
       dtype=st.sampled_from(["s8", "u8", "s32"]), with_zp=st.booleans(),
       source=st.sampled_from([np.float32, np.float64, np.float16]))
def test_quantize_and_dequantize_any_chunking_equal_numpy(data, ndim, per_axis, dtype,
                                                          with_zp, source):
    shape = tuple(data.draw(st.lists(st.integers(1, 7), min_size=ndim, max_size=ndim)))
    x = batch(shape, source)
    d = da.from_array(x, chunks=chunking(data, shape))
    if per_axis:
        axis = data.draw(st.integers(-ndim, ndim - 1))
        k = shape[axis]
        scale = list(RNG.choice([0.37, 0.5, 0.1, 1.0, 3.0], k))
        zp = list(RNG.integers(-3, 4, k)) if with_zp else None
    else:
        axis, scale = None, data.draw(st.sampled_from([0.37, 0.5, 0.1, 3.0]))
        zp = data.draw(st.integers(-3, 3)) if with_zp else None
    if dtype == "u8" and zp is not None:
        zp = np.abs(zp) if per_axis else abs(zp)
    try:
        expected = dnnl.quantize(x, scale, zp, axis=axis, dtype=dtype)
    except dnnl.error as e:     # refused (f16 -> s32...): refused alike, at the call
        with pytest.raises(type(e), match=re.escape(str(e))):
            dnnl.quantize(d, scale, zp, axis=axis, dtype=dtype)
        return
    q = dnnl.quantize(d, scale, zp, axis=axis, dtype=dtype)
    same(q, expected)
    assert q.chunks == d.chunks
    same(dnnl.dequantize(q, scale, zp, axis=axis),
         dnnl.dequantize(expected, scale, zp, axis=axis))


def test_each_block_gets_its_slice_of_the_scales():
    # per channel, 3 channel chunks: scale and zero point differ per channel,
    # so a block given another block's slice would differ from numpy's result
    x = batch((2, 9, 4))
    scale, zp = np.linspace(0.05, 1.0, 9), np.arange(-4, 5)
    for chunks in [(1, 3, 4), (2, (2, 5, 2), 1), (2, 9, 4)]:
        d = da.from_array(x, chunks=chunks)
        same(dnnl.quantize(d, scale, zp, axis=1), dnnl.quantize(x, scale, zp, axis=1))
        same(dnnl.dequantize(dnnl.quantize(d, scale, zp, axis=1), scale, zp, axis=-2),
             dnnl.dequantize(dnnl.quantize(x, scale, zp, axis=1), scale, zp, axis=-2))


def test_zero_dimensional_and_empty_arrays():
    x = np.float32(2.5)
    same(dnnl.quantize(da.from_array(x), 0.5), dnnl.quantize(x, 0.5))
    e = np.zeros((0, 3, 4, 4), np.float32)
    same(dnnl.resample(da.from_array(e), 8), dnnl.resample(e, 8))
    same(dnnl.quantize(da.from_array(e), [1.0, 2.0, 4.0], axis=1),
         dnnl.quantize(e, [1.0, 2.0, 4.0], axis=1))


# ------------------------------------------------------------------ convert
@pytest.mark.parametrize("tag,dtype,kw", [
    ("nhwc", None, {}),
    ("acdb", "s8", dict(scales=0.25, zero_points=3)),
    ("nchw", "u8", dict(scales=[0.5, 1.0, 0.1, 2.0, 0.3], axis=1)),
    ("cdba", "f16", {}),
    ("abcd", "bf16", {}),
])
def test_convert_to_a_plain_tag_equals_numpy(tag, dtype, kw):
    pytest.importorskip("ml_dtypes")
    x = batch((3, 5, 4, 6))
    d = da.from_array(x, chunks=(2, 2, 3, 4))
    same(dnnl.convert(d, tag, dtype, **kw), np.asarray(dnnl.convert(x, tag, dtype, **kw)))


@pytest.mark.parametrize("tag", ["nChw16c", "aBcd8b", "ABcd16a16b", "OIhw4i16o4i"])
def test_convert_to_a_blocked_tag_says_what_to_do(tag):
    d = da.from_array(batch((2, 17, 3, 4)), chunks=1)
    with pytest.raises(dnnl.unimplemented, match=r"compute\(\)") as info:
        dnnl.convert(d, tag)
    assert "dask" in str(info.value)


# ------------------------------------------------------------------ bad input
BAD = [
    (dnnl.resample, ((4, 4),), dict(mode="cubc")),
    (dnnl.resample, ((4, 4),), dict(layout="hwcn")),
    (dnnl.resample, ((4, 4, 4),), {}),
    (dnnl.resample, (None,), {}),
    (dnnl.resample, ((4, -1),), {}),
    (dnnl.resample_backward, ((4, 4, 4),), {}),
    (dnnl.quantize, ([0.5, 1.0],), dict(axis=1)),      # 2 scales for 3 channels
    (dnnl.quantize, (0.5,), dict(axis=4)),
    (dnnl.quantize, (0.5,), dict(axis="1")),
    (dnnl.quantize, (0.5,), dict(dtype="f32")),
    (dnnl.quantize, (0.5, 0.5), {}),                   # a zero point must be an integer
    (dnnl.dequantize, (0.5,), {}),                     # float input
    (dnnl.convert, ("abc",), {}),                      # 3 dims tag for 4 dims
    (dnnl.convert, ("nchw", "s8"), dict(axis=1)),
]


@pytest.mark.parametrize("fn,args,kw", BAD, ids=lambda v: getattr(v, "__name__", None))
def test_bad_arguments_raise_at_the_call_as_for_numpy(fn, args, kw):
    x = batch((2, 3, 5, 5))
    with pytest.raises(dnnl.error) as numpy_error:
        fn(x, *args, **kw)
    with pytest.raises(dnnl.error) as dask_error:      # no compute(): at the call
        fn(da.from_array(x, chunks=1), *args, **kw)
    assert type(dask_error.value) is type(numpy_error.value)
    assert str(dask_error.value) == str(numpy_error.value)


def test_unknown_chunk_sizes_say_what_to_do():
    d = da.from_array(np.arange(12, dtype=np.float32), chunks=4)
    unknown = d[d > 3]                                   # sizes known only once computed
    with pytest.raises(dnnl.invalid_arguments, match=r"compute_chunk_sizes\(\)"):
        dnnl.quantize(unknown, 0.5)
    same(dnnl.quantize(unknown.compute_chunk_sizes(), 0.5),
         dnnl.quantize(np.arange(4, 12, dtype=np.float32), 0.5))


def test_without_a_dask_array_dask_is_not_imported():
    code = ("import sys, numpy as np, dnnl\n"
            "x = np.ones((1, 2, 3, 3), np.float32)\n"
            "dnnl.resample(x, 6); dnnl.quantize(x, 0.5); dnnl.convert(x, 'nhwc')\n"
            "print('dask' in sys.modules)\n")
    r = interpreter.run(["-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "False"


def test_keys_name_the_call():
    d = da.from_array(batch((2, 3, 5, 5)), chunks=1)
    a, b = dnnl.resample(d, 7), dnnl.resample(d, 9)
    assert a.name.startswith("dnnl-resample-") and a.name != b.name
    assert dnnl.resample(d, 7).name == a.name           # deterministic: dask may reuse it
    assert dnnl.quantize(d, 0.5).name != dnnl.quantize(d, 0.25).name


def test_the_graph_pickles():
    # what the distributed scheduler sends: the tasks, with their functions
    d = da.from_array(batch((2, 3, 5, 5)), chunks=1)
    out = dnnl.resample(dnnl.quantize(d, [1, 2, 4], axis=1, dtype="s32"), 7)
    graph = dict(out.__dask_graph__())
    assert pickle.loads(pickle.dumps(graph)).keys() == graph.keys()


# ------------------------------------------------------------------ worker processes
@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    # distributed's nanny writes OMP_NUM_THREADS=1 (and MKL's, OpenBLAS's)
    # into this process's environment for its workers to inherit, and leaves
    # it there: a PyTorch imported later in this process reads it and sets
    # the OpenMP runtime it shares with dnnl to one thread. Put it back.
    environ = dict(os.environ)
    try:
        with dask.config.set({"distributed.worker.daemon": False}):
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                               processes=True, dashboard_address=None,
                                               silence_logs=40)
        with cluster, distributed.Client(cluster) as c:
            yield c
    finally:
        os.environ.clear()
        os.environ.update(environ)


def _worker_functions():
    """The functions run on the workers. Made in here, they travel by value: a
    module-level one travels by name, and workers cannot import this file when
    the tests run from outside the checkout (an installed wheel)."""
    import os

    def pid():
        return os.getpid()

    def has_dnnl():
        return "dnnl.arrays.dask" in sys.modules

    def reorder(src_md, dst_md, attr, src, scales):
        """A reorder made from what crossed (descriptors, attributes, a
        memory), and the pid it ran in."""
        eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        dst = dnnl.memory(dst_md, eng)
        prim = dnnl.reorder(dnnl.reorder.primitive_desc(eng, src_md, eng, dst_md, attr))
        sc = dnnl.memory(dnnl.memory.desc([len(scales)], "f32", "a"), eng,
                         np.asarray(scales, np.float32))
        prim.execute(dnnl.stream(eng), {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
                                        dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_DST: sc})
        return os.getpid(), dst

    return pid, has_dnnl, reorder


_pid, _has_dnnl, _reorder_on_worker = _worker_functions()


def test_local_cluster_of_worker_processes(client):
    workers = set(client.run(_pid).values())
    assert len(workers) == 2 and _pid() not in workers     # two other processes
    x = batch((8, 6, 9, 7))
    d = da.from_array(x, chunks=(2, 3, 4, 7))
    scale, zp = np.linspace(0.05, 1.0, 6), np.arange(-3, 3)
    cases = [
        (dnnl.resample(d, (13, 5)), dnnl.resample(x, (13, 5))),
        (dnnl.resample(d, factors=0.5, mode="nearest"),
         dnnl.resample(x, factors=0.5, mode="nearest")),
        (dnnl.resample_backward(d, (4, 3)), dnnl.resample_backward(x, (4, 3))),
        (dnnl.quantize(d, scale, zp, axis=1), dnnl.quantize(x, scale, zp, axis=1)),
        (dnnl.dequantize(dnnl.quantize(d, 0.25), 0.25),
         dnnl.dequantize(dnnl.quantize(x, 0.25), 0.25)),
        (dnnl.convert(d, "nhwc", "u8", scales=0.5, zero_points=100),
         np.asarray(dnnl.convert(x, "nhwc", "u8", scales=0.5, zero_points=100))),
    ]
    results = client.compute([lazy for lazy, _ in cases], sync=True)
    for got, (_, expected) in zip(results, cases):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(expected).tobytes()
    # the blocks ran there: the workers imported dnnl to run them
    assert any(client.run(_has_dnnl).values())


def test_descriptors_attributes_and_memories_cross_to_workers(client):
    x = batch((2, 17, 3, 4))
    src = dnnl.convert(x, "nChw16c")                   # a memory, blocked
    dst_md = dnnl.memory.desc([2, 17, 3, 4], "s8", "nhwc")
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 0)
    attr.set_fpmath_mode(dnnl.fpmath_mode.strict, True)
    pid, dst = client.submit(_reorder_on_worker, src.get_desc(), dst_md, attr, src,
                             [0.25], pure=False).result()
    assert pid != _pid()
    _, local = _reorder_on_worker(src.get_desc(), dst_md, attr, src, [0.25])
    assert dst.get_desc() == dst_md
    assert dst.map_data(np.uint8).tobytes() == local.map_data(np.uint8).tobytes()
    # a primitive does not travel, and says what to send instead
    prim = dnnl.reorder(dnnl.reorder.primitive_desc(
        dnnl.engine(dnnl.engine.kind.cpu, 0), src.get_desc(),
        dnnl.engine(dnnl.engine.kind.cpu, 0), dst_md, attr))
    with pytest.raises(TypeError, match="send its descriptors and attributes"):
        pickle.dumps(prim)


def test_hook_sees_dask_subclasses_only_by_module():
    from dnnl.arrays import dask as _dask
    assert _dask.is_dask(da.ones(3)) and not _dask.is_dask(np.ones(3))
    assert not _dask.is_dask([1.0]) and "dask" in sys.modules
