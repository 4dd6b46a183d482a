"""Reorder plans derived from the blocking: the same bytes as the generic
element-by-element plan over many tags and dims, and no metadata that grows
with a dim (a ``[2**26, 2]`` plan holds no large table)."""
import importlib
import pathlib
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dnnl
from dnnl.attr import quant_entry
from dnnl.testing import reorder as T
from dnnl.primitives.reorder import plan as reorder_plan
from dnnl._core.settings import settings as switches

pytestmark = pytest.mark.compiled

BLOCK_SIZES = [1, 2, 3, 4, 8, 16, 17, 24, 32, 48, 64]


def build_plan(*args):
    """The plan a reorder builds under the current switches."""
    return reorder_plan.build_plan(*args, parallel_min=switches.reorder_parallel_min)


def _tag_spec(draw, dims, dt):
    nd = len(dims)
    tags = T.BLOCKED_TAGS.get(nd, []) + ["".join("abcdef"[i] for i in p)
                                         for p in [range(nd), reversed(range(nd))]]
    for _ in range(6):
        spec = ("tag", list(dims), dt, draw(st.sampled_from(tags)))
        if T._md_ok(spec):
            return spec
    return ("tag", list(dims), dt, "abcdef"[:nd])


@settings(suppress_health_check=list(HealthCheck))
@given(st.data())
def test_blocked_plans_equal_generic(data):
    """Dims that are multiples of the blocks (and some that are not), blocked
    tags on both sides, scales and zero points per dim and per group."""
    nd = data.draw(st.integers(2, 4))
    while True:
        dims = [data.draw(st.sampled_from(BLOCK_SIZES)) for _ in range(nd)]
        if np.prod(dims) <= 6000:
            break
    sdt, ddt = data.draw(st.sampled_from([("f32", "f32"), ("f32", "s8"), ("s8", "f32"),
                                          ("f32", "bf16"), ("s8", "s8"), ("u8", "u8"),
                                          ("bf16", "bf16")]))
    src_spec, dst_spec = _tag_spec(data.draw, dims, sdt), _tag_spec(data.draw, dims, ddt)
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1)))
    logical = T.random_values(rng, int(np.prod(dims)), sdt).reshape(dims)
    p = dict(src_spec=src_spec, src_bytes=T.src_bytes_for(src_spec, logical, sdt),
             dst_spec=dst_spec, dst_init_bytes=b"\x5a" * (8 * int(np.prod(dims)) * 4 + 4096))
    if sdt != ddt or data.draw(st.booleans()):
        mask = data.draw(st.integers(0, (1 << nd) - 1))
        arg = data.draw(st.sampled_from([dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST]))
        groups = ()
        if arg == dnnl.DNNL_ARG_SRC and data.draw(st.booleans()):   # src only
            groups = tuple(data.draw(st.sampled_from([g for g in (1, 2, 4, 8, 16, n)
                                                      if n % g == 0])) for n in dims[-2:])
            mask |= 3 << (nd - 2)
        vals = rng.choice(np.array([0.5, 2.0, 7.0, 0.3, 1.7, -3.0]), T.count(dims, mask, groups))
        p["scales"] = {arg: (mask, vals, "f32", groups) if groups else (mask, vals, "f32")}
        if ddt in ("s8", "u8") and data.draw(st.booleans()):
            zmask = data.draw(st.integers(0, (1 << nd) - 1))
            zvals = rng.integers(-5, 5, T.count(dims, zmask))
            p["zero_points"] = {dnnl.DNNL_ARG_DST: (zmask, zvals, "s32")}
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]


BIG = [2 ** 26, 2]


def _md(dims, dt, tag):
    return dnnl.memory.desc(dims, dt, tag)


@pytest.mark.parametrize("stag, dtag, ddt", [
    ("ab", "ba", "f32"), ("ab", "ab", "s8"), ("ab", "Ab32a", "f32"), ("ab", "AB8a2b", "f32"),
    ("ba", "AB16b16a", "f32"), ("AB8a2b", "ba", "bf16"), ("ab", "BA16a16b", "s8"),
])
@pytest.mark.parametrize("mask", [None, 0, 1, 2, 3])
def test_big_dim_plan_holds_no_table(stag, dtag, ddt, mask):
    """Every loop of a [2**26, 2] plan is a step; padding stays as boxes."""
    src, dst = _md(BIG, "f32", stag), _md(BIG, ddt, dtag)
    q = None if mask is None else quant_entry(mask, dnnl.memory.data_type.f32, (), False, 0)
    plan = build_plan(src, dst, (None, q, None, None), ddt != "f32" or q is not None)
    assert plan.table_bytes < 4096
    assert len(plan.pad_boxes) <= 4
    assert plan.nitems > 0


def test_big_dim_with_groups_holds_no_table():
    src, dst = _md([2, 2 ** 26], "f32", "ab"), _md([2, 2 ** 26], "s8", "ab")
    q = quant_entry(3, dnnl.memory.data_type.f32, (1, 64), False, 0)
    plan = build_plan(src, dst, (q, None, None, q), True)
    assert plan.table_bytes < 4096


def test_non_linear_small_dims_get_small_tables():
    """nChw16c with 17 channels cannot split at 16: a 17-entry table."""
    src, dst = _md([2, 17, 3, 5], "f32", "nchw"), _md([2, 17, 3, 5], "f32", "nChw16c")
    plan = build_plan(src, dst, (None,) * 4, False)
    assert 0 < plan.table_bytes <= 2 * 17 * 8


@pytest.mark.parametrize("dims, tag", [([2, 17, 3, 5], "nChw16c"), ([33, 20], "AB16b16a"),
                                       ([3, 40, 7], "aBc16b")])
def test_padding_is_zeroed_by_boxes(dims, tag):
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    src = dnnl.memory(_md(dims, "f32", "abcd"[:len(dims)]), eng)
    x = np.arange(1, np.prod(dims) + 1, dtype=np.float32).reshape(dims)
    src.from_numpy(x)
    dst = dnnl.memory(_md(dims, "f32", tag), eng)
    dst.map_data()[:] = 7
    dnnl.reorder(src, dst).execute(dnnl.stream(eng), src, dst)
    np.testing.assert_array_equal(dst.to_numpy(), x)
    from dnnl._model.offsets import padding_offsets
    assert (dst.map_data()[padding_offsets(dst.get_desc())] == 0).all()


@pytest.mark.parametrize("dims, stag, dtag, sdt, ddt, mask", [
    ([1024, 3], "ab", "ab", "f32", "s8", 1), ([300, 2], "ab", "ba", "f32", "f32", None),
    ([2, 3, 20, 20], "nchw", "nhwc", "f32", "bf16", 2), ([2, 3, 20, 20], "nchw", "nhwc", "s8", "s8", None),
    ([3, 4, 300], "abc", "acb", "s8", "f32", 5),
])
def test_short_innermost_loops_give_way(dims, stag, dtag, sdt, ddt, mask):
    """A layout whose finest dst dim is tiny runs along a long strided loop
    instead (one work item per few elements otherwise): same bytes."""
    rng = np.random.default_rng(1)
    src_spec, dst_spec = ("tag", dims, sdt, stag), ("tag", dims, ddt, dtag)
    logical = T.random_values(rng, int(np.prod(dims)), sdt).reshape(dims)
    p = dict(src_spec=src_spec, src_bytes=T.src_bytes_for(src_spec, logical, sdt),
             dst_spec=dst_spec, dst_init_bytes=b"\x5a" * (8 * int(np.prod(dims))))
    if mask is not None:
        vals = rng.choice(np.array([0.5, 2.0, 7.0, 0.3]), T.count(dims, mask))
        p["scales"] = {dnnl.DNNL_ARG_DST: (mask, vals, "f32")}
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]
    q = None if mask is None else quant_entry(mask, dnnl.memory.data_type.f32, (), False, 0)
    plan = build_plan(T.make_md(src_spec), T.make_md(dst_spec), (None, q, None, None),
                      sdt != ddt or q is not None)
    assert plan.nitems < int(np.prod(dims)) // 16


@pytest.mark.parametrize("dims, stag, dtag, sdt, ddt, mask", [
    ([4209, 3], "ab", "Ab32a", "f32", "f32", None), ([4209, 3], "Ab32a", "ba", "f32", "s8", 1),
    ([3, 4209], "ab", "AB16b16a", "f32", "f32", None), ([4203, 2], "ab", "AB8a2b", "s8", "f32", 3),
    ([4209, 2], "AB8a2b", "Ab8a", "s8", "s8", None),
])
def test_large_dims_that_blocks_do_not_divide_are_peeled(dims, stag, dtag, sdt, ddt, mask):
    """Whole blocks, then the rest, as two plans: same bytes as the generic
    plan, and no table over the large dim."""
    rng = np.random.default_rng(2)
    src_spec, dst_spec = ("tag", dims, sdt, stag), ("tag", dims, ddt, dtag)
    if not (T._md_ok(src_spec) and T._md_ok(dst_spec)):
        pytest.fail("bad case")
    logical = T.random_values(rng, int(np.prod(dims)), sdt).reshape(dims)
    p = dict(src_spec=src_spec, src_bytes=T.src_bytes_for(src_spec, logical, sdt),
             dst_spec=dst_spec, dst_init_bytes=b"\x5a" * (8 * int(np.prod(dims)) * 2 + 4096))
    q = None
    if mask is not None:
        p["scales"] = {dnnl.DNNL_ARG_DST: (mask, rng.choice(np.array([0.5, 2.0, 3.0]),
                                                          T.count(dims, mask)), "f32")}
        q = quant_entry(mask, dnnl.memory.data_type.f32, (), False, 0)
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]
    plan = build_plan(T.make_md(src_spec), T.make_md(dst_spec), (None, q, None, None),
                      sdt != ddt or q is not None)
    assert plan.table_bytes < 2048


def test_big_dim_not_divided_by_its_block_holds_no_table():
    src, dst = _md([2 ** 26 + 17, 2], "f32", "ab"), _md([2 ** 26 + 17, 2], "f32", "Ab32a")
    plan = build_plan(src, dst, (None,) * 4, False)
    assert plan.table_bytes < 4096
    assert len(plan.pad_boxes) <= 4


def test_kernel_index_spaces_follow_the_plan():
    """The kernel's K_SRC .. K_DZP enum and NK (the kernel's kernel.pyx.in) name the index
    spaces in ``reorder_plan.SPACES`` order: the order is written once."""
    text = (pathlib.Path(reorder_plan.__file__).parent / "kernel.pyx.in").read_text()
    enum = re.search(r"cdef enum:\n((?:    K_\w+ = \d+ +# .+\n)+)", text)
    assert enum, "the K_ enum of kernel.pyx.in"
    members = re.findall(r"K_\w+ = (\d+) +# (.+)", enum.group(1))
    assert [int(v) for v, _ in members] == list(range(len(reorder_plan.SPACES)))
    assert tuple(name.strip() for _, name in members) == reorder_plan.SPACES
    assert int(re.search(r"^DEF NK = (\d+)", text, re.M).group(1)) == len(reorder_plan.SPACES)
    # the module, not the class dnnl.reorder that hides it
    reorder_mod = importlib.import_module("dnnl.primitives.reorder.primitive")
    assert reorder_mod.QUANT_NAMES == reorder_plan.SPACES[reorder_plan.TENSORS:]
    assert len(reorder_mod.QUANT_ARGS) == len(reorder_mod.QUANT_DTYPES) == 4
