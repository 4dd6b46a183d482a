"""Pickling (what crosses to worker processes): descriptors, attributes,
post-ops and memories come back equal; primitives and primitive descriptors
refuse with a dnnl.error that is also a TypeError and says what to send.

The crossing to real worker processes is in tests/arrays/test_dask.py.
"""
import copy
import os
import pickle

import numpy as np
import pytest

import dnnl

pytestmark = [pytest.mark.interop, pytest.mark.model]

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def roundtrip(obj, protocol=pickle.HIGHEST_PROTOCOL):
    return pickle.loads(pickle.dumps(obj, protocol))


@pytest.mark.parametrize("md", [
    dnnl.memory.desc(),
    dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c"),
    dnnl.memory.desc([16, 32, 3, 3], "s8", "OIhw4i16o4i"),
    dnnl.memory.desc([2, 3, 4], "bf16", [24, 1, 3]),
    dnnl.memory.desc([4, 6], "u4", "ba"),
    dnnl.memory.desc([4, 6], "f32", "ab").submemory_desc([2, 3], [1, 2]),
    dnnl.memory.desc([2, 3], "f16", "any"),
], ids=repr)
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_desc_pickles_to_an_equal_descriptor(md, protocol):
    back = roundtrip(md, protocol)
    assert back == md and hash(back) == hash(md) and repr(back) == repr(md)
    assert back.cache_key() is md.cache_key()     # the same primitive-cache entries


def full_attr():
    a = dnnl.primitive_attr()
    a.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    a.set_scales(dnnl.DNNL_ARG_DST, 2, [1, 1], dnnl.data_type.f16)
    a.set_zero_points_mask(dnnl.DNNL_ARG_DST, 2)
    a.set_fpmath_mode(dnnl.fpmath_mode.bf16, True)
    a.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    a.set_rounding_mode(dnnl.DNNL_ARG_DST, dnnl.rounding_mode.stochastic)
    a.set_accumulation_mode(dnnl.accumulation_mode.relaxed)
    a.set_deterministic(True)
    a.set_rnn_data_qparams(0.5, 2.0)
    a.set_rnn_weights_qparams(0, [0.25])
    a.set_dropout(dnnl.memory.desc([2, 17], "u8", "ab"))
    po = dnnl.post_ops()
    po.append_sum(0.5, 1, dnnl.data_type.s8)
    po.append_eltwise(dnnl.algorithm.eltwise_relu, float("nan"), 0.0)   # NaN == NaN here
    po.append_binary(dnnl.algorithm.binary_add,
                     dnnl.memory.desc([1, 17, 1, 1], "f32", "abcd"))
    a.set_post_ops(po)
    return a


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_attr_and_post_ops_pickle_to_equal_values(protocol):
    a = full_attr()
    key = a.cache_key()
    back = roundtrip(a, protocol)
    assert back == a and back.to_str() == a.to_str()
    # the cache key is found again from the values, not carried (a token of
    # this process): equal attributes, one cache entry
    assert back.cache_key() is key
    assert back.get_post_ops() == a.get_post_ops()
    assert roundtrip(a.get_post_ops(), protocol) == a.get_post_ops()
    assert roundtrip(dnnl.primitive_attr(), protocol) == dnnl.primitive_attr()
    # the copy is independent: a setter on it changes neither it nor its key back
    back.set_scratchpad_mode(dnnl.scratchpad_mode.library)
    assert back != a and a.cache_key() is key and back.cache_key() is not key


@pytest.mark.parametrize("tag", ["nchw", "nhwc", "nChw16c", "nChw8c"])
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_memory_pickles_to_a_copy(tag, protocol):
    x = np.arange(2 * 17 * 3 * 4, dtype=np.float32).reshape(2, 17, 3, 4)
    mem = dnnl.convert(x, tag)
    back = roundtrip(mem, protocol)
    assert back.get_desc() == mem.get_desc()
    assert back.get_engine().get_kind() == dnnl.engine.kind.cpu
    # its own buffer (an address means nothing in another process) ...
    assert back.get_data_handle() not in (0, mem.get_data_handle())
    assert not np.shares_memory(back.array, mem.array)
    # ... with the same bytes, padding included, and usable by a primitive
    assert back.map_data(np.uint8).tobytes() == mem.map_data(np.uint8).tobytes()
    assert np.array_equal(np.asarray(dnnl.convert(back, "nchw")), x)
    back.array[...] = 0
    assert np.array_equal(np.asarray(mem), x)


def test_memory_over_a_user_buffer_pickles_its_span():
    buf = np.arange(64, dtype=np.float32)
    md = dnnl.memory.desc([2, 3], "f32", "ab").submemory_desc([1, 2], [1, 1])
    mem = dnnl.memory(md, ENG, buf)     # offset0 4 elements in
    back = roundtrip(mem)
    assert back.nbytes == mem.nbytes == 4 * (md.offset0 + 2)
    assert np.array_equal(back.to_numpy(), [[4.0, 5.0]])
    ro = buf.copy()
    ro.flags.writeable = False          # read-only: the copy owns a writable buffer
    back = roundtrip(dnnl.memory(dnnl.memory.desc([64], "f32", "a"), ENG, ro))
    assert np.array_equal(back.to_numpy(), ro)
    back.from_numpy(np.zeros(64, np.float32))


def test_memory_without_a_buffer_comes_back_without_one():
    mem = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ab"), ENG, dnnl.DNNL_MEMORY_NONE)
    back = roundtrip(mem)
    assert back.get_data_handle() == 0 and back.get_desc() == mem.get_desc()
    back = roundtrip(dnnl.memory(dnnl.memory.desc(), ENG))
    assert back.get_desc().is_zero()


def test_one_pickle_keeps_one_engine():
    # a memory and the engine it is on, sent together: still on that engine
    x = np.ones((2, 3), np.float32)
    mem = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ab"), ENG, x)
    eng, back = roundtrip((ENG, mem))
    assert back.get_engine() is eng
    dst = dnnl.memory(dnnl.memory.desc([2, 3], "s8", "ba"), eng)
    dnnl.reorder(back, dst).execute(dnnl.stream(eng), back, dst)
    assert np.array_equal(dst.to_numpy(), x)


def test_primitives_refuse_to_pickle_and_say_what_to_send():
    src = dnnl.memory.desc([2, 17, 3, 4], "f32", "nchw")
    dst = dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c")
    pd = dnnl.reorder.primitive_desc(ENG, src, ENG, dst)
    rpd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear, src,
        dnnl.memory.desc([2, 17, 6, 8], "f32", "nchw"))
    for obj in (pd, dnnl.reorder(pd), rpd, dnnl.resampling_forward(rpd)):
        with pytest.raises(dnnl.error) as info:
            pickle.dumps(obj)
        assert isinstance(info.value, TypeError)
        assert "send its descriptors and attributes" in str(info.value)
        # a shallow copy is still a copy of the same primitive
        assert copy.copy(obj).__dict__ == obj.__dict__


# what an earlier version pickled (commit 800297c, before the modules moved
# into their layer folders): its __reduce__ targets (dnnl._desc.make,
# dnnl._memory._unpickle, dnnl._enums.*, dnnl._engine.engine) still load
OLD_PICKLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "data", "pickles_800297c.pkl")


def _as_made_by_800297c():
    """The objects of tests/data/pickles_800297c.pkl, made again here (the
    same calls that made them there)."""
    md = dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c")
    sub = dnnl.memory.desc([4, 6], "f32", "ab").submemory_desc([2, 3], [1, 2])
    po = dnnl.post_ops()
    po.append_sum(2.0, 1, dnnl.data_type.s8)
    po.append_eltwise(dnnl.algorithm.eltwise_clip, -1.5, 2.5)
    po.append_binary(dnnl.algorithm.binary_mul, dnnl.memory.desc([1, 17, 1, 1], "f32", "abcd"))
    attr = dnnl.primitive_attr()
    attr.set_scratchpad_mode(dnnl.scratchpad_mode.user)
    attr.set_scales(dnnl.DNNL_ARG_SRC, 3, (2, 4), dnnl.data_type.f16)
    attr.set_zero_points_mask(dnnl.DNNL_ARG_DST, 0)
    attr.set_post_ops(po)
    return {"md": md, "sub": sub, "empty": dnnl.memory.desc(), "post_ops": po, "attr": attr}


def test_pickles_of_an_earlier_version_load():
    with open(OLD_PICKLES, "rb") as f:
        by_protocol = pickle.load(f)
    assert sorted(by_protocol) == [2, 3, 4, 5]
    want = _as_made_by_800297c()
    for protocol, data in by_protocol.items():
        got = pickle.loads(data)
        for name, obj in want.items():
            assert got[name] == obj and repr(got[name]) == repr(obj), (protocol, name)
        assert got["md"].cache_key() is want["md"].cache_key()
        assert got["attr"].cache_key() is want["attr"].cache_key()
        mem = got["mem"]
        assert mem.get_desc() == dnnl.memory.desc([2, 3], "s8", "ab")
        assert mem.to_numpy().tolist() == [[-3, -2, -1], [0, 1, 2]]
        # and the memory's values go on to convert
        out = dnnl.convert(mem.to_numpy(), "ab", "f32")
        assert np.asarray(out).tolist() == [[-3.0, -2.0, -1.0], [0.0, 1.0, 2.0]]
