"""Every reorder fast path gives the bytes of the generic element-by-element path.

The fast paths (blocked dims split into strided sub-dims, merged contiguous
runs, SSE tile transposes, one-pass conversion loops, memcpy, OpenMP) are
turned off with ``dnnl.testing.reorder.generic_plans``; both plans run the same
problem on the same bytes.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dnnl
from dnnl.testing import reorder as T

pytestmark = pytest.mark.kernels


def plan_path(src_spec, dst_spec, **attrs):
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    pd = dnnl.reorder.primitive_desc(eng, T.make_md(src_spec), eng, T.make_md(dst_spec),
                                     T.build_attr(**attrs))
    return pd._plan().path


def bytes_of(dims, dt, seed=0):
    n = int(np.prod(dims))
    rng = np.random.default_rng(seed)
    if dt == "f32":
        return (rng.standard_normal(n) * 60).astype(np.float32).tobytes()
    return rng.integers(-100, 100, n).astype({"s8": np.int8, "s32": np.int32}[dt]).tobytes()


LAYOUT_PAIRS = [
    ("nchw", "nhwc"), ("nhwc", "nchw"), ("nchw", "nChw16c"), ("nChw16c", "nchw"),
    ("nChw8c", "nhwc"), ("nhwc", "nChw16c"), ("chwn", "nchw"), ("nchw", "ABcd16b16a"),
    ("ABcd16b16a", "nhwc"), ("nchw", "nchw"), ("nChw16c", "nChw8c"),
]


@pytest.mark.parametrize("stag, dtag", LAYOUT_PAIRS)
@pytest.mark.parametrize("dims", [[2, 32, 13, 9], [3, 17, 5, 7], [4, 64, 24, 24]])
@pytest.mark.parametrize("sdt, ddt, attrs", [
    ("f32", "f32", {}),
    ("f32", "s8", {"scales": {dnnl.DNNL_ARG_DST: (2, None, "f32")}}),
    ("s8", "f32", {"scales": {dnnl.DNNL_ARG_SRC: (0, [0.5], "f32")}}),
    ("f32", "bf16", {}),
    ("s32", "s32", {}),
])
def test_layout_pairs(stag, dtag, dims, sdt, ddt, attrs):
    attrs = {k: {a: (m, v if v is not None else list(np.linspace(0.1, 2, dims[1])), t)
                 for a, (m, v, t) in table.items()} for k, table in attrs.items()}
    p = dict(src_spec=("tag", dims, sdt, stag), src_bytes=bytes_of(dims, sdt),
             dst_spec=("tag", dims, ddt, dtag), dst_init_bytes=b"\x5a" * (8 * int(np.prod(dims)) * 4),
             **attrs)
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]


def test_generic_plans_switch_takes_effect():
    """The comparisons above mean something only if the switch reaches the
    plan builder: under it the transposing tile path is not taken."""
    big = [4, 64, 24, 24]
    spec = (("tag", big, "f32", "nchw"), ("tag", big, "f32", "nhwc"))
    with T.generic_plans():
        assert plan_path(*spec) != "tile"
    assert plan_path(*spec) == "tile"


def test_paths_are_exercised():
    big = [4, 64, 24, 24]
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "f32", "nhwc")) == "tile"
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "f32", "nChw16c")) == "tile"
    assert plan_path(("tag", big, "s8", "nchw"), ("tag", big, "s8", "nhwc")) == "copy"
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "s8", "nchw")) == "convert"


@settings(suppress_health_check=list(HealthCheck))
@given(st.data(), st.integers(0, 2 ** 32 - 1))
def test_random_problems_fast_equals_generic(data, seed):
    p = T.random_problem(T.HypothesisChooser(data), np.random.default_rng(seed))
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0]
    assert fast[1] == generic[1]


@pytest.mark.parametrize("dt, lo, hi, np_dt", [("u8", 0, 255, np.uint8),
                                               ("s8", -128, 127, np.int8)])
@pytest.mark.parametrize("scale", [None, 1.0, 0.5, 3.0])
def test_int8_quantization_edges(dt, lo, hi, np_dt, scale):
    """The one-pass f32 -> s8/u8 loops (bounds split between f32 and int32)
    on the values where that split could go wrong: NaN, infinities, values
    beyond int32, halves at and beyond the bounds. Reference: saturate, round
    half to even, NaN -> 0, on the f32 quotient."""
    v = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0 ** 31, -2.0 ** 31, 3e9, -3e9,
                  255.5, 254.5, 256, 255.49, -0.5, -0.4, 0.5, 1.5, 2.5, -127.5, -128.5,
                  -129, 127.5, 126.5, 128, -1.5, 4194304.5, 8388609, -8388609, -0.0, 1e-40],
                 dtype=np.float32)
    x = np.tile(v, 70)   # long enough for the vector loops and their tails
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    src = dnnl.memory(dnnl.memory.desc([x.size], "f32", "a"), eng, x)
    dst = dnnl.memory(dnnl.memory.desc([x.size], dt, "a"), eng)
    attr = dnnl.primitive_attr()
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    q = x.astype(np.float64)
    if scale is not None:
        attr.set_scales_mask(dnnl.DNNL_ARG_TO, 0)
        args[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_TO] = dnnl.memory(
            dnnl.memory.desc([1], "f32", "a"), eng, np.array([scale], np.float32))
        q = (x / np.float32(scale)).astype(np.float64)
    dnnl.reorder(src, dst, attr).execute(dnnl.stream(eng), args)
    want = np.where(np.isnan(q), 0, np.rint(np.clip(q, lo, hi))).astype(np_dt)
    np.testing.assert_array_equal(dst.to_numpy(), want)


@pytest.mark.parametrize("dims", [(1, 16, 48, 64), (2, 67, 32, 32), (1, 17, 3, 1024),
                                  (1, 130, 8, 128), (3, 20, 1, 5120), (1, 64, 128, 128)])
def test_transposes_whose_rows_alias_in_the_caches(dims):
    """Source rows a multiple of 4 KiB apart (H*W a multiple of 1024) take
    the transpose that reads four rows at a time in long tiles: edges of
    both tile dims included, both directions, against numpy."""
    x = np.random.default_rng(sum(dims)).standard_normal(dims, dtype=np.float32)
    nhwc = dnnl.convert(x, "nhwc")
    np.testing.assert_array_equal(nhwc.array, np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
    back = dnnl.convert(nhwc, "nchw")
    np.testing.assert_array_equal(back.array, x)
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    src = dnnl.memory(dnnl.memory.desc(list(dims), "f32", "nchw"), eng, x)
    dst = dnnl.memory(dnnl.memory.desc(list(dims), "f32", "nhwc"), eng)
    prim = dnnl.reorder(src, dst)
    assert prim.get_primitive_desc().exec_impl_str() == "cython:tile"
    prim.execute(dnnl.stream(eng), {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    np.testing.assert_array_equal(np.asarray(dst), x)


SHORT_RUN_PAIRS = [("nhwc", "nChw16c"), ("nChw16c", "nhwc"), ("nhwc", "nChw8c"),
                   ("nChw4c", "nhwc"), ("nChw16c", "nChw8c")]
#: ... and transposes (the first three gather their converted runs)
TRANSPOSED_PAIRS = [("nchw", "nChw16c"), ("nchw", "nChw8c"), ("nchw", "nhwc"),
                    ("nChw16c", "nchw"), ("nChw4c", "nchw"), ("nhwc", "nchw")]


@pytest.mark.parametrize("stag, dtag", SHORT_RUN_PAIRS)
def test_short_runs_go_several_to_a_work_item(stag, dtag):
    """Runs of a channel block (16 f32 between nhwc and nChw16c) go many to
    a work item; the generic plan, which the tests above compare against,
    does not."""
    spec = (("tag", [4, 64, 24, 24], "f32", stag), ("tag", [4, 64, 24, 24], "f32", dtag))
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)

    def plan():
        return dnnl.reorder.primitive_desc(eng, T.make_md(spec[0]), eng, T.make_md(spec[1]),
                                           T.build_attr())._plan()
    assert plan().runs_per_item > 1
    with T.generic_plans():
        assert plan().runs_per_item == 1
    # so do the quantizations from f32 of a run shorter than 16 (nChw8c's)
    quant = dict(scales={dnnl.DNNL_ARG_DST: (2, None, "f32")})
    pd = dnnl.reorder.primitive_desc(eng, T.make_md(spec[0]), eng,
                                     T.make_md(spec[1][:2] + ("s8",) + spec[1][3:]),
                                     T.build_attr(**quant))
    assert pd._plan().runs_per_item > 1


@pytest.mark.parametrize("stag, dtag", SHORT_RUN_PAIRS + TRANSPOSED_PAIRS)
@pytest.mark.parametrize("sdt, ddt", [("f32", "s8"), ("f32", "u8"), ("f32", "f32"),
                                      ("f32", "bf16"), ("s8", "f32"), ("u8", "bf16"),
                                      ("s8", "u8"), ("u8", "s8")])
@pytest.mark.parametrize("sum", [None, (0.5,)])
@pytest.mark.parametrize("dims", [[2, 40, 9, 11], [1, 24, 17, 19]])
def test_short_runs_converted_with_per_channel_values(stag, dtag, sdt, ddt, sum, dims):
    """Conversions of short runs (several runs as one flat run, or run by
    run under a sum post-op, which reads dst) with per-channel scales on
    both sides and dst zero points: as the generic plan computes them. With
    323 pixels, the runs of a work item go along the pixels, not the channel
    blocks (nChw16c -> nhwc)."""
    chans = list(np.linspace(0.1, 2, dims[1]))
    p = dict(src_spec=("tag", dims, sdt, stag),
             src_bytes=bytes_of(dims, "f32" if sdt == "f32" else "s8", 7),
             dst_spec=("tag", dims, ddt, dtag), dst_init_bytes=b"\x3c" * (int(np.prod(dims)) * 8),
             scales={dnnl.DNNL_ARG_SRC: (2, chans[::-1], "f32"),
                     dnnl.DNNL_ARG_DST: (2, chans, "f32")},
             zero_points={dnnl.DNNL_ARG_DST: (2, [i % 5 for i in range(dims[1])], "s32")}
             if ddt in ("s8", "u8") else None, sum=sum)
    fast, generic = T.run_ours(**p), T.run_ours(**p, generic=True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]


@pytest.mark.parametrize("stag, dtag", SHORT_RUN_PAIRS)
@pytest.mark.parametrize("dims", [[2, 40, 9, 11], [1, 16, 1, 300], [3, 24, 70, 70]])
def test_short_runs_copied_converted_and_swapped(stag, dtag, dims):
    """Several short runs to a work item, on every route a run takes: bits
    copied, f32 quantized with per-channel scales, and a source in the other
    byte order (its plan swaps as it reads): each against numpy. Channels
    that do not fill the last block (40, 24) leave padding, zeroed."""
    x = np.random.default_rng(sum(dims)).standard_normal(dims, dtype=np.float32) * 50
    src = dnnl.convert(x, stag)
    out = dnnl.convert(src, dtag)
    np.testing.assert_array_equal(out.to_numpy(), x)
    scales = np.linspace(0.25, 4, dims[1]).astype(np.float32)
    q = dnnl.convert(src, dtag, "s8", scales=scales, axis=1)
    want = np.clip(np.rint(x / scales[None, :, None, None]), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(q.to_numpy(), want)
    # per-channel scales and zero points along the runs: gathered per element
    zps = np.arange(dims[1], dtype=np.int32) % 7 + 100
    u8c = dnnl.convert(src, dtag, "u8", scales=scales, zero_points=zps, axis=1)
    t = x / scales[None, :, None, None] + zps.astype(np.float32)[None, :, None, None]  # in f32
    want_u8c = np.clip(np.rint(t), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(u8c.to_numpy(), want_u8c)
    # one scale and zero point: the fused loops over every run of an item
    u8 = dnnl.convert(src, dtag, "u8", scales=0.37, zero_points=5)
    want_u8 = np.clip(np.rint(x / np.float32(0.37) + 5), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(u8.to_numpy(), want_u8)
    if stag == "nhwc":      # an array in nhwc memory order, big-endian
        be = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).astype(">f4").transpose(0, 3, 1, 2)
        np.testing.assert_array_equal(dnnl.convert(be, dtag).to_numpy(), x)
        np.testing.assert_array_equal(
            dnnl.convert(be, dtag, "s8", scales=scales, axis=1).to_numpy(), want)
