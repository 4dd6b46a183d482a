"""The prepared calls' front table (dnnl/arrays/front.pyx): a repeated array call
is found in C by its array's exact layout and its options' identity.

A hit must only ever be the call the dict would give: these tests change
exactly what the table compares (strides, dtype object, byte order, an
option equal but not identical, an option edited in place, a switch) and
check each result against numpy's.
"""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dnnl
from dnnl.arrays import prepared as _prepared
from dnnl.arrays.front import Front
from dnnl._core.settings import settings as switches

pytestmark = pytest.mark.compiled

SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])


def _nhwc(x):
    return np.ascontiguousarray(np.asarray(x, np.float32).transpose(0, 2, 3, 1))


def _s8(x, scale):
    return np.clip(np.rint(np.asarray(x, np.float32) / np.float32(scale)),
                   -128, 127).astype(np.int8)


def _image(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).integers(-300, 300, shape).astype(dtype)


def test_a_repeated_call_is_found_and_right():
    x = _image((1, 16, 7, 7))
    for _ in range(4):
        out = dnnl.convert(x, "nhwc")
        assert np.array_equal(out.array, _nhwc(x))
    assert _prepared.front.find(x, dnnl.convert, "nhwc", None, True, True, None) is not None


def test_same_shape_other_strides_or_dtype_object_each_get_their_own_call():
    base = _image((1, 8, 6, 6))
    views = [base, base[:, :, ::-1], base.transpose(0, 1, 3, 2), base[:, ::2],
             base.astype(">f4"), base.astype(np.float16), np.asfortranarray(base)]
    for _ in range(3):      # interleaved: each lookup after the others' stores
        for v in views:
            assert np.array_equal(dnnl.convert(v, "nhwc").array, _nhwc(v))
            assert np.array_equal(dnnl.quantize(v, 0.5), _s8(v, 0.5))


def test_an_equal_option_that_is_another_object_gives_the_same_result():
    x = _image((2, 4, 3, 5))
    tags = ["nhwc", "".join(["nh", "wc"]), dnnl.memory.format_tag.nhwc, "acdb"]
    for tag in tags * 2:
        assert np.array_equal(dnnl.convert(x, tag).array, _nhwc(x))


def test_a_list_edited_between_calls_is_never_taken_for_the_old_one():
    x = _image((1, 3, 4, 4))
    size = [8, 8]
    assert dnnl.resample(x, size).shape == (1, 3, 8, 8)
    assert dnnl.resample(x, size).shape == (1, 3, 8, 8)
    size[0] = 2
    assert dnnl.resample(x, size).shape == (1, 3, 2, 8)
    np.testing.assert_array_equal(dnnl.resample(x, size), dnnl.resample(x, (2, 8)))


def test_mutable_options_are_not_stored():
    front, x = Front(), np.zeros((2, 3), np.float32)
    front.rekey(switches.key)
    size = [2, 3]
    front.store(x, (dnnl.convert, size, None, None, None, None), switches.key, "call")
    assert front.find(x, dnnl.convert, size, None, None, None, None) is None
    inner = (2, [3])        # a tuple holding a list can change too
    front.store(x, (dnnl.convert, inner, None, None, None, None), switches.key, "call")
    assert front.find(x, dnnl.convert, inner, None, None, None, None) is None
    fixed = (2, (3,))
    front.store(x, (dnnl.convert, fixed, "ab", 1.5, True, None), switches.key, "call")
    assert front.find(x, dnnl.convert, fixed, "ab", 1.5, True, None) == "call"
    equal = tuple([2, (3,)])     # equal, another object: the dict's to find
    assert front.find(x, dnnl.convert, equal, "ab", 1.5, True, None) is None


@pytest.mark.parametrize("hashed", [True, False])
def test_the_table_compares_what_it_stores(hashed):
    front, x = Front(hashed), np.zeros((2, 3, 4), np.float32)
    front.rekey(switches.key)
    size, tag = (5, 5), "abc"
    front.store(x, (dnnl.convert, tag, size, None, 0, None), switches.key, "call")
    assert front.find(x, dnnl.convert, tag, size, None, 0, None) == "call"
    assert front.find(x.copy(), dnnl.convert, tag, size, None, 0, None) == "call"
    others = [x[:, :, ::-1], np.asfortranarray(x), x[:, :, ::2], x.transpose(0, 2, 1), x.astype(">f4"), x.astype(np.float16),
              x.reshape(2, 12), x.reshape(1, 2, 3, 4), np.ascontiguousarray(x[:1]),
              np.zeros((2, 3, 4), np.float32).view(np.int32), x.tolist()]
    for other in others:
        assert front.find(other, dnnl.convert, tag, size, None, 0, None) is None
    for i in range(6):      # each option, another object in its place
        args = [dnnl.convert, tag, size, None, 0, None]
        args[i] = object()
        assert front.find(x, *args) is None
    front.rekey(object())   # a switch changed: nothing stored before matches
    assert front.find(x, dnnl.convert, tag, size, None, 0, None) is None
    deep = np.zeros((1,) * 9, np.float32)       # more dims than a slot holds
    front.store(deep, (dnnl.convert, tag, None, None, None, None), front_key(front), "call")
    assert front.find(deep, dnnl.convert, tag, None, None, None, None) is None


def front_key(front):
    key = object()
    front.rekey(key)
    return key


def test_a_switch_changed_between_calls_is_seen():
    x = _image((1, 16, 7, 7))
    for _ in range(2):
        dnnl.convert(x, "nhwc")
    found = _prepared.front.find(x, dnnl.convert, "nhwc", None, True, True, None)
    assert found is not None
    with switches.changed(generic_reorder_plans=True):
        assert _prepared.front.find(x, dnnl.convert, "nhwc", None, True, True, None) is None
        for _ in range(2):
            assert np.array_equal(dnnl.convert(x, "nhwc").array, _nhwc(x))
        generic = _prepared.front.find(x, dnnl.convert, "nhwc", None, True, True, None)
        assert generic is not None and generic is not found
    assert _prepared.front.find(x, dnnl.convert, "nhwc", None, True, True, None) is not generic


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 20), st.integers(1, 5),
                          st.integers(1, 5), st.sampled_from(["<f4", ">f4", "f2"]),
                          st.booleans()), min_size=40, max_size=120))
def test_many_signatures_colliding_in_the_slots(signatures):
    arrays = []
    for n, c, h, w, dt, flip in signatures:
        a = _image((n, c, h, w), dt, seed=c * h)
        arrays.append(a[:, :, ::-1] if flip else a)
    for a in arrays + arrays[::-1]:
        assert np.array_equal(dnnl.convert(a, "nhwc").array, _nhwc(a))


def test_threads_calling_with_their_own_shapes():
    def work(k):        # the calls of one thread whose results are wrong
        x = _image((1, 4 + k, 5, 3 + k), seed=k)
        return [i for i in range(200)
                if not np.array_equal(dnnl.convert(x, "nhwc").array, _nhwc(x))
                or not np.array_equal(dnnl.quantize(x, 2.0), _s8(x, 2.0))]
    with ThreadPoolExecutor(6) as pool:     # (an exception in one is raised here)
        assert list(pool.map(work, range(6))) == [[]] * 6


@pytest.mark.parametrize("make", [lambda a: a.tolist(), lambda a: a[0, 0],
                                  lambda a: a.view(np.matrix), lambda a: memoryview(a)])
def test_only_an_exact_ndarray_is_found(make):
    front, x = Front(), np.zeros((2, 2), np.float32)
    front.rekey(switches.key)
    front.store(make(x), (dnnl.convert, "ab", None, None, None, None), switches.key, "call")
    assert front.find(make(x), dnnl.convert, "ab", None, None, None, None) is None
    front.store(x, (dnnl.convert, "ab", None, None, None, None), switches.key, "call")
    assert front.find(make(x), dnnl.convert, "ab", None, None, None, None) is None
    assert front.find(x, dnnl.convert, "ab", None, None, None, None) == "call"
