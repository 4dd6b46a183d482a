"""The primitive cache: hits and misses, capacity, environment, LRU order,
the flat API, verbose lines, and primitives that share a cached entry.

Expected behaviour measured on real oneDNN 3.13.2: a second primitive from
one primitive descriptor is a ``cache_hit``; with capacity 0 every creation
is a ``cache_miss``; ``dnnl_set_primitive_cache_capacity(-1)`` and
``dnnl_get_primitive_cache_capacity(NULL)`` return ``dnnl_invalid_arguments``;
``ONEDNN_PRIMITIVE_CACHE_CAPACITY`` wins over ``DNNL_PRIMITIVE_CACHE_CAPACITY``
and a non-number reads as 0.
"""
import ctypes
import os
import threading

import numpy as np
import pytest

import dnnl
from dnnl import verbose
from dnnl.primitive import cache as _cache
from dnnl.capi import dnnl_get_primitive_cache_capacity, dnnl_set_primitive_cache_capacity
from dnnl.resampling import resampling_forward
from dnnl.testing import reorder as T
from dnnl.testing import interpreter

pytestmark = pytest.mark.model

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def fresh_cache():
    old = dnnl.get_primitive_cache_capacity()
    dnnl.set_primitive_cache_capacity(max(old, 0) or 1024)
    _cache.clear()
    yield
    dnnl.set_primitive_cache_capacity(max(old, 0))
    _cache.clear()


def _md(c=3, tag="nchw", dt="f32"):
    return dnnl.memory.desc([2, c, 4, 4], dt, tag)


def _reorder_pd(c=3, attr=None, eng=ENG):
    if attr is None:
        return dnnl.reorder.primitive_desc(eng, _md(c), eng, _md(c, "nhwc"))
    return dnnl.reorder.primitive_desc(eng, _md(c), eng, _md(c, "nhwc", "s8"), attr)


def test_second_creation_is_a_hit():
    dnnl.reorder(_reorder_pd())
    assert _cache.stats()["hits"] == 0 and _cache.stats()["misses"] == 1
    dnnl.reorder(_reorder_pd())
    src, dst = dnnl.memory(_md(), ENG), dnnl.memory(_md(3, "nhwc"), ENG)
    dnnl.reorder(src, dst)       # the (memory, memory) form keys the same problem
    s = _cache.stats()
    assert (s["hits"], s["misses"], s["size"]) == (2, 1, 1)


def test_hit_runs_exactly_like_a_miss():
    x = np.arange(2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4)
    outs = []
    for _ in range(2):
        src, dst = dnnl.memory(_md(), ENG), dnnl.memory(_md(3, "nhwc"), ENG)
        src.from_numpy(x)
        dnnl.reorder(src, dst).execute(dnnl.stream(ENG), src, dst)
        outs.append(dst.to_numpy())
    assert _cache.stats()["hits"] == 1
    assert np.array_equal(outs[0], x) and np.array_equal(outs[1], x)


def test_verbose_names_hit_and_miss():
    got = []
    old_out = verbose.set_output(got.append)
    old = verbose.set_verbose(2)
    try:
        pd = _reorder_pd()
        dnnl.reorder(pd)
        dnnl.reorder(pd)                        # the same pd again: a hit (as oneDNN)
        dnnl.reorder(_reorder_pd())             # a new identical pd: a hit
        dnnl.set_primitive_cache_capacity(0)
        pd = _reorder_pd()
        dnnl.reorder(pd)
        dnnl.reorder(pd)                        # disabled: every creation misses
    finally:
        verbose.set_verbose(old)
        verbose.set_output(old_out)
    kinds = [line.split(",")[3] for line in got if ",primitive,create:" in line]
    assert kinds == ["create:cache_miss", "create:cache_hit", "create:cache_hit",
                     "create:cache_miss", "create:cache_miss"]
    line = [x for x in got if "create:cache_hit" in x][0]
    assert line.startswith("onednn_verbose,v1,primitive,create:cache_hit,cpu,reorder,")
    assert ",src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0,,,2x3x4x4," in line


def test_capacity_zero_disables():
    dnnl.set_primitive_cache_capacity(0)
    for _ in range(3):
        dnnl.reorder(_reorder_pd())
    s = _cache.stats()
    assert (s["hits"], s["size"], s["capacity"]) == (0, 0, 0)


def test_lru_eviction_order():
    dnnl.set_primitive_cache_capacity(2)
    a, b, c = (lambda: _reorder_pd(3)), (lambda: _reorder_pd(4)), (lambda: _reorder_pd(5))
    a(), b()            # [a, b]
    a()                 # hit; b is now the least recently used: [b, a]
    c()                 # evicts b: [a, c]
    assert _cache.stats()["hits"] == 1
    a()                 # hit
    assert _cache.stats()["hits"] == 2
    b()                 # miss (evicted); evicts c: [a, b]
    assert _cache.stats()["hits"] == 2
    c()                 # miss
    s = _cache.stats()
    assert (s["hits"], s["misses"], s["size"]) == (2, 5, 2)


def test_shrinking_evicts_least_recently_used():
    for c in (3, 4, 5):
        _reorder_pd(c)
    _reorder_pd(3)                          # order now: 4, 5, 3
    dnnl.set_primitive_cache_capacity(1)    # keeps 3
    _reorder_pd(3)
    assert _cache.stats()["hits"] == 2 and _cache.stats()["size"] == 1
    _reorder_pd(5)
    assert _cache.stats()["hits"] == 2


def test_attributes_are_part_of_the_key_and_copied():
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 0)
    pd1 = _reorder_pd(attr=attr)
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 2)      # a different primitive now
    pd2 = _reorder_pd(attr=attr)
    assert _cache.stats()["hits"] == 0
    assert pd1.get_primitive_attr().scales[dnnl.DNNL_ARG_DST].mask == 0
    assert pd2.get_primitive_attr().scales[dnnl.DNNL_ARG_DST].mask == 2
    again = dnnl.primitive_attr()
    again.set_scales_mask(dnnl.DNNL_ARG_DST, 0)     # equal to the first: a hit
    pd3 = _reorder_pd(attr=again)
    assert _cache.stats()["hits"] == 1
    assert pd3.get_primitive_attr().scales[dnnl.DNNL_ARG_DST].mask == 0


def test_default_fpmath_mode_is_part_of_the_key():
    old = dnnl.get_default_fpmath_mode()
    _reorder_pd()
    try:
        dnnl.set_default_fpmath_mode(dnnl.fpmath_mode.bf16)
        pd = _reorder_pd()
    finally:
        dnnl.set_default_fpmath_mode(old)
    assert _cache.stats()["hits"] == 0
    assert pd.get_primitive_attr().get_fpmath_mode() == dnnl.fpmath_mode.bf16


def test_engines_key_by_kind_and_index_and_keep_their_identity():
    other = dnnl.engine(dnnl.engine.kind.cpu, 0)
    _reorder_pd()
    pd = _reorder_pd(eng=other)
    assert _cache.stats()["hits"] == 1          # as oneDNN's engine id: same device
    assert pd.get_engine() is other and pd.get_src_engine() is other
    src, dst = dnnl.memory(_md(), other), dnnl.memory(_md(3, "nhwc"), other)
    dnnl.reorder(pd).execute(dnnl.stream(other), src, dst)   # other's stream works
    with pytest.raises(dnnl.error):
        dnnl.reorder(pd).execute(dnnl.stream(ENG), src, dst)


def test_implementation_switch_is_part_of_the_key():
    pd_fast = _reorder_pd()
    with T.generic_plans():
        pd_generic = _reorder_pd()
    assert _cache.stats()["hits"] == 0
    plan = lambda pd: pd._plan()   # noqa: E731
    assert plan(pd_fast) is not plan(pd_generic)
    assert plan(_reorder_pd()) is plan(pd_fast)     # a hit shares the built plan


def test_resampling_and_backward_hint_keys():
    src = _md(3)

    def fwd(f):
        return resampling_forward.primitive_desc(
            ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear, f, src)
    fwd([2.0, 2.0])
    fwd((2, 2))                  # the same factors: a hit
    fwd([2.0, 3.0])
    assert (_cache.stats()["hits"], _cache.stats()["size"]) == (1, 2)
    hint = fwd([2.0, 2.0])
    for _ in range(2):
        dnnl.resampling_backward.primitive_desc(
            ENG, dnnl.algorithm.resampling_linear, src, hint.dst_desc(), hint)
    assert _cache.stats()["hits"] == 3


def test_a_plan_built_at_first_use_serves_every_hit():
    src = _md(3)

    def fwd():
        return resampling_forward.primitive_desc(
            ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_nearest,
            [2.0, 2.0], src)
    first = fwd()
    second = fwd()                       # a hit before any plan exists
    plan = second._plan()                # built by the second ...
    assert plan is not None and fwd()._plan() is plan and first._plan() is plan


def test_failed_creation_is_not_cached():
    for _ in range(2):
        with pytest.raises(dnnl.error):
            dnnl.reorder.primitive_desc(ENG, _md(3), ENG, _md(4))
        assert not dnnl.reorder.primitive_desc(ENG, _md(3), ENG, _md(4), allow_empty=True)
    assert _cache.stats()["size"] == 0


def test_shared_plans_run_concurrently():
    x = np.random.default_rng(0).standard_normal((8, 64, 32, 32)).astype(np.float32)
    sm, dm = dnnl.memory.desc(x.shape, "f32", "nchw"), dnnl.memory.desc(x.shape, "f32", "nhwc")
    errors = []

    def work(seed):
        try:
            for i in range(5):
                src, dst = dnnl.memory(sm, ENG), dnnl.memory(dm, ENG)
                src.from_numpy(x + seed)
                dnnl.reorder(src, dst).execute(dnnl.stream(ENG), src, dst)
                if not np.array_equal(dst.to_numpy(), x + seed):
                    errors.append(seed)
        except Exception as exc:    # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and _cache.stats()["size"] == 1 and _cache.stats()["hits"] == 19


# ------------------------------------------------------------------ API and statuses
@pytest.mark.parametrize("bad", [-1, 1.5, "8", None, True])
def test_set_capacity_refuses(bad):
    with pytest.raises(dnnl.error) as e:
        dnnl.set_primitive_cache_capacity(bad)
    assert e.value.status == dnnl.status.invalid_arguments


def test_flat_api():
    cap = ctypes.c_int()
    assert dnnl_set_primitive_cache_capacity(7) == dnnl.status.success
    assert dnnl_get_primitive_cache_capacity(ctypes.byref(cap)) == dnnl.status.success
    assert cap.value == 7 == dnnl.get_primitive_cache_capacity()
    assert dnnl_set_primitive_cache_capacity(-1) == dnnl.status.invalid_arguments
    assert dnnl_get_primitive_cache_capacity(None) == dnnl.status.invalid_arguments
    assert dnnl.get_primitive_cache_capacity() == 7


@pytest.mark.parametrize("env,expected", [
    ({}, 1024),
    ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "7"}, 7),
    ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "0"}, 0),
    ({"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "abc"}, 0),
    ({"DNNL_PRIMITIVE_CACHE_CAPACITY": "5"}, 5),
    ({"DNNL_PRIMITIVE_CACHE_CAPACITY": "5", "ONEDNN_PRIMITIVE_CACHE_CAPACITY": "9"}, 9),
])
def test_environment(env, expected):
    clean = {k: v for k, v in os.environ.items() if not k.endswith("PRIMITIVE_CACHE_CAPACITY")}
    code = ("import dnnl; from dnnl.primitive import cache as _cache\n"
            "e = dnnl.engine(dnnl.engine.kind.cpu, 0)\n"
            "md = dnnl.memory.desc([2, 3], 'f32', 'ab')\n"
            "for _ in range(2): dnnl.reorder.primitive_desc(e, md, e, md)\n"
            "print(dnnl.get_primitive_cache_capacity(), _cache.stats()['hits'])\n")
    out = interpreter.run(["-c", code], env=dict(clean, **env), capture_output=True,
                          text=True, check=True).stdout.split()
    assert out == [str(expected), "1" if expected > 0 else "0"]


def test_the_primitive_builds_the_plan_and_a_hit_shares_it():
    # as oneDNN generates code at primitive creation (dnnl_primitive_create),
    # not at primitive descriptor creation
    pd = _reorder_pd()
    assert pd._plans.built() == []
    dnnl.reorder(pd)
    assert pd._plans.built() == [None]
    plan = pd._plan()
    assert plan is not None
    hit = _reorder_pd()
    assert hit._plans is pd._plans and hit._plan() is plan     # the hit's descriptor has it
    assert hit.__dict__ is not pd.__dict__      # its own state, the plans shared explicitly
    src = _md()
    rpd = resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_nearest,
        [2.0, 2.0], src)
    assert rpd._plans.built() == []
    resampling_forward(rpd)
    assert rpd._plans.built() == [None] and rpd._plan() is not None


def test_runtime_dims_reorder_builds_plans_at_execution():
    rt = dnnl.memory.desc([dnnl.DNNL_RUNTIME_DIM_VAL, 3], "f32", "ab")
    pd = dnnl.reorder.primitive_desc(ENG, rt, ENG, rt)
    dnnl.reorder(pd)
    assert pd._plans.built() == []


# -- the front map: the same argument objects again ------------------------------
def test_same_objects_hit_and_a_changed_attribute_misses():
    src, dst = _md(3), _md(3, "nhwc", "s8")
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 0)

    def make():
        return dnnl.reorder.primitive_desc(ENG, src, ENG, dst, attr)

    make(), make()
    assert (_cache.stats()["hits"], _cache.stats()["misses"]) == (1, 1)
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 2)      # the same object, changed
    pd = make()
    assert (_cache.stats()["hits"], _cache.stats()["misses"]) == (1, 2)
    assert pd.get_primitive_attr().scales[dnnl.DNNL_ARG_DST].mask == 2
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 0)      # back: equal to the first entry
    pd = make()
    assert (_cache.stats()["hits"], _cache.stats()["misses"]) == (2, 2)
    assert pd.get_primitive_attr().scales[dnnl.DNNL_ARG_DST].mask == 0
    with pytest.raises(dnnl.error):                 # a setter that refuses changes nothing
        attr.set_scales_mask(dnnl.DNNL_ARG_DST, -1)
    make()
    assert _cache.stats()["hits"] == 3


def test_same_list_changed_in_place_misses():
    src = _md(3)
    factors = [2.0, 2.0]
    P, LIN = dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear

    def make():
        return resampling_forward.primitive_desc(ENG, P, LIN, factors, src)

    assert make().dst_desc().dims == (2, 3, 8, 8)
    assert make().dst_desc().dims == (2, 3, 8, 8)
    factors[1] = 3.0
    assert make().dst_desc().dims == (2, 3, 8, 12)
    assert (_cache.stats()["hits"], _cache.stats()["misses"]) == (1, 2)


def test_same_objects_after_eviction_switch_or_fpmath_change_miss():
    src, dst = _md(3), _md(3, "nhwc")

    def make():
        return dnnl.reorder.primitive_desc(ENG, src, ENG, dst)

    dnnl.set_primitive_cache_capacity(1)
    make()
    dnnl.reorder.primitive_desc(ENG, _md(5), ENG, _md(5, "nhwc"))   # evicts it
    fast = make()
    assert _cache.stats()["hits"] == 0
    dnnl.set_primitive_cache_capacity(16)
    with T.generic_plans():
        generic = make()
    assert _cache.stats()["hits"] == 0
    assert generic._plan() is not make()._plan()
    assert make()._plan() is fast._plan()
    old = dnnl.get_default_fpmath_mode()
    try:
        dnnl.set_default_fpmath_mode(dnnl.fpmath_mode.bf16)
        pd = make()
    finally:
        dnnl.set_default_fpmath_mode(old)
    assert pd.get_primitive_attr().get_fpmath_mode() == dnnl.fpmath_mode.bf16
    assert _cache.stats()["hits"] == 2      # the two make() after GENERIC_PLANS reset
