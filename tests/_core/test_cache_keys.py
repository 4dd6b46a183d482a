"""Cache keys owned by the keyed types (descriptor, attribute, post-ops,
engine, memory, the settings): equal values give the same key, any change
gives another, and no field can be left out of a key.

A key that misses a field serves a primitive made for other attributes: a
wrong result with no error. So every setter of ``primitive_attr`` and every
appender of ``post_ops`` is listed here, the list is checked against the
classes (a new setter fails the test until it is listed), and random
sequences of them are compared by key and by oneDNN's attribute equality.
"""
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl.primitive import cache as _cache
from dnnl._core.settings import Settings, settings
from dnnl.attr import post_ops, primitive_attr

pytestmark = pytest.mark.model

ARG_SRC, ARG_DST = dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST
ARG_WEIGHTS = dnnl.DNNL_ARG_WEIGHTS
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
MD = dnnl.memory.desc([2, 8, 4, 4], "f32", "nchw")
MASK_MD = dnnl.memory.desc([2, 8, 4, 4], "u8", "nchw")
alg = dnnl.algorithm

# every setter with two different non-default argument tuples
ATTR_SETTERS = {
    "set_accumulation_mode": [(dnnl.accumulation_mode.relaxed,), (dnnl.accumulation_mode.f16,)],
    "set_deterministic": [(True,)],
    "set_dropout": [(MASK_MD,), (None, "s64", True)],
    "set_fpmath_mode": [(dnnl.fpmath_mode.bf16,), (dnnl.fpmath_mode.tf32, True)],
    "set_host_scale": [(ARG_SRC,), (ARG_DST, "f32")],
    "set_host_zero_point": [(ARG_SRC,), (ARG_DST, "s32")],
    "set_post_ops": "post_ops",
    "set_precomputed_reductions": [(ARG_SRC, 0), (ARG_SRC, 2)],
    "set_rnn_data_qparams": [(2.0, 1.0), (float("nan"), 0.5)],
    "set_rnn_weights_projection_qparams": [(0, [0.5]), (3, [1.0, 2.0, 3.0])],
    "set_rnn_weights_qparams": [(0, [0.5]), (1, [1.0, float("nan")])],
    "set_rounding_mode": [(ARG_DST, dnnl.rounding_mode.stochastic),
                          (ARG_SRC, dnnl.rounding_mode.environment)],
    "set_scales": [(ARG_SRC, 0), (ARG_WEIGHTS, 3, (), "f16")],
    "set_scales_mask": [(ARG_SRC, 0), (ARG_DST, 2)],
    "set_scratchpad_mode": [(dnnl.scratchpad_mode.user,)],
    "set_zero_points": [(ARG_SRC, 0), (ARG_WEIGHTS, 2, (), "s8")],
    "set_zero_points_mask": [(ARG_SRC, 0), (ARG_DST, 1)],
}
POST_OPS_APPENDERS = {
    "append_binary": [(alg.binary_add, MD), (alg.binary_mul, MD)],
    "append_dw": [("f32", "undef", "f32", 3, 1, 1), ("s8", "f32", "u8", 3, 2, 1)],
    "append_eltwise": [(alg.eltwise_relu, 0.0, 0.0), (alg.eltwise_relu, float("nan"), 0.0),
                       (alg.eltwise_linear, 2.0, -0.0)],
    "append_prelu": [(0,), (2,)],
    "append_sum": [(1.0,), (0.5, 0, "s8"), (float("nan"),)],
}


def test_every_setter_and_appender_is_listed():
    setters = {n for n in dir(primitive_attr) if n.startswith("set_")}
    appenders = {n for n in dir(post_ops) if n.startswith("append_")}
    assert setters == set(ATTR_SETTERS), "list a new primitive_attr setter here"
    assert appenders == set(POST_OPS_APPENDERS), "list a new post_ops appender here"


def _ops(steps):
    po = post_ops()
    for name, i in steps:
        getattr(po, name)(*POST_OPS_APPENDERS[name][i])
    return po


def _apply(a, name, i):
    if ATTR_SETTERS[name] == "post_ops":
        a.set_post_ops(_ops([("append_sum", 0)] * (i + 1)))
    else:
        getattr(a, name)(*ATTR_SETTERS[name][i])


def _choices(table, name):
    v = table[name]
    return 2 if v == "post_ops" else len(v)


STEPS = st.sampled_from(sorted(ATTR_SETTERS)).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, _choices(ATTR_SETTERS, n) - 1)))
PO_STEPS = st.sampled_from(sorted(POST_OPS_APPENDERS)).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, _choices(POST_OPS_APPENDERS, n) - 1)))


@pytest.mark.parametrize("name", sorted(ATTR_SETTERS))
def test_every_attribute_setter_changes_the_key(name):
    for i in range(_choices(ATTR_SETTERS, name)):
        a = primitive_attr()
        before = a.cache_key()
        _apply(a, name, i)
        assert a != primitive_attr()
        assert a.cache_key() != before, (name, i)
        assert a.copy().cache_key() == a.cache_key()


@pytest.mark.parametrize("name", sorted(POST_OPS_APPENDERS))
def test_every_post_op_changes_the_key(name):
    for i in range(_choices(POST_OPS_APPENDERS, name)):
        po = _ops([(name, i)])
        a, b = primitive_attr(), primitive_attr()
        b.set_post_ops(po)
        assert a.cache_key() != b.cache_key()
        assert po.cache_key() != post_ops().cache_key()
        assert _ops([(name, i)]).cache_key() == po.cache_key()    # NaN equals NaN


@given(st.lists(STEPS, max_size=6), st.lists(STEPS, max_size=6))
def test_attribute_keys_equal_exactly_when_attributes_do(steps_a, steps_b):
    a, b = primitive_attr(), primitive_attr()
    for n, i in steps_a:
        _apply(a, n, i)
    for n, i in steps_b:
        _apply(b, n, i)
    assert (a.cache_key() == b.cache_key()) == (a == b)
    c = primitive_attr()            # the same steps again: the same key
    for n, i in steps_a:
        _apply(c, n, i)
    assert c.cache_key() == a.cache_key()


@given(st.lists(PO_STEPS, max_size=5), st.lists(PO_STEPS, max_size=5))
def test_post_ops_keys_equal_exactly_when_post_ops_do(steps_a, steps_b):
    a, b = _ops(steps_a), _ops(steps_b)
    assert (a.cache_key() == b.cache_key()) == (a == b)


def test_no_attribute_field_is_left_out():
    # whatever a field holds, the key sees it: set each slot to a value no
    # setter makes and the key changes (a new field is in the key by itself)
    for name in primitive_attr.__slots__:
        if name == "_key":
            continue
        a = primitive_attr()
        before = a.cache_key()
        setattr(a, name, ("a value of its own", name))
        a._key = None
        assert a.cache_key() != before, name


def test_an_attribute_key_is_kept_until_a_setter_runs():
    a = primitive_attr()
    k = a.cache_key()
    assert a.cache_key() is k
    a.set_scales_mask(ARG_DST, 0)
    assert a.cache_key() is not k
    with pytest.raises(dnnl.error):
        a.set_scales_mask(dnnl.DNNL_ARG_BIAS, 0)    # a refused setter drops it too
    assert a.cache_key() == a.copy().cache_key()


# -- descriptors -------------------------------------------------------------------
TAGS = ["abcd", "acdb", "aBcd8b", "aBcd16b", "ABcd8a8b", "bacd", "any"]


@st.composite
def descs(draw):
    dims = draw(st.lists(st.integers(1, 9), min_size=4, max_size=4))
    md = dnnl.memory.desc(dims, draw(st.sampled_from(["f32", "s8", "bf16"])),
                          draw(st.sampled_from(TAGS)))
    op = draw(st.sampled_from(["none", "reshape", "permute", "submemory"]))
    if op == "reshape" and md.format_kind != dnnl.memory.format_kind.any:
        try:
            md = md.reshape([dims[0] * dims[1], dims[2], dims[3]])
        except dnnl.error:
            pass
    elif op == "permute":
        md = md.permute_axes(draw(st.permutations(range(4))))
    elif op == "submemory" and md.format_kind != dnnl.memory.format_kind.any:
        sub = [draw(st.integers(1, d)) for d in dims]
        try:
            md = md.submemory_desc(sub, [0] * 4)
        except dnnl.error:
            pass
    return md


@given(descs(), descs())
def test_descriptor_keys_are_one_token_per_value(a, b):
    assert (a.cache_key() is b.cache_key()) == (a == b)
    assert a.cache_key() is a.cache_key()


def test_every_descriptor_field_is_in_its_key():
    md = dnnl.memory.desc([2, 16, 3, 3], "f32", "aBcd8b")
    changed = [dnnl.memory.desc([2, 16, 3, 4], "f32", "aBcd8b"),
               dnnl.memory.desc([2, 16, 3, 3], "s8", "aBcd8b"),
               dnnl.memory.desc([2, 16, 3, 3], "f32", "aBcd16b"),
               dnnl.memory.desc([2, 16, 3, 3], "f32", "abcd"),
               dnnl.memory.desc([2, 16, 3, 3], "f32", "any"),
               md.submemory_desc([2, 8, 3, 3], [0, 8, 0, 0]),
               md.permute_axes([1, 0, 2, 3])]
    for other in changed:
        assert other != md and other.cache_key() is not md.cache_key(), other


# -- engines, memories, the settings ---------------------------------------------------
def test_engine_and_memory_keys():
    assert dnnl.engine(dnnl.engine.kind.cpu, 0).cache_key() == ENG.cache_key()
    m1, m2 = dnnl.memory(MD, ENG), dnnl.memory(MD, ENG)
    assert m1.cache_key() == m2.cache_key()      # the buffer is no part of it
    m3 = dnnl.memory(dnnl.memory.desc([2, 8, 4, 4], "f32", "nhwc"), ENG)
    assert m3.cache_key() != m1.cache_key()


@pytest.mark.parametrize("name", sorted(settings.names()))   # the kinds' switches too
def test_every_switch_changes_the_settings_key(name):
    values = {"generic_reorder_plans": True, "reorder_parallel_min": 7,
              "resampling_parallel_min": 9, "default_fpmath_mode": dnnl.fpmath_mode.bf16}
    assert set(values) == set(settings.names())
    assert set(Settings().names()) == {"default_fpmath_mode"}    # the rest are the kinds'
    before = settings.cache_key()
    with settings.changed(**{name: values[name]}):
        assert settings.cache_key() is not before
    assert settings.cache_key() is before


def test_unknown_switch_is_refused():
    with pytest.raises(AttributeError, match="settings: .*generic_reorder_plans"):
        settings.generic_plans = True


def test_a_switch_change_misses_the_cache():
    _cache.clear()
    dnnl.reorder.primitive_desc(ENG, MD, ENG, MD)
    with settings.changed(reorder_parallel_min=1):
        dnnl.reorder.primitive_desc(ENG, MD, ENG, MD)
    dnnl.reorder.primitive_desc(ENG, MD, ENG, MD)
    assert (_cache.stats()["hits"], _cache.stats()["misses"]) == (1, 2)
