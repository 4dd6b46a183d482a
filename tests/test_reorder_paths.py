"""Every reorder fast path gives the bytes of the generic element-by-element path.

The fast paths (blocked dims split into strided sub-dims, merged contiguous
runs, SSE tile transposes, one-pass conversion loops, memcpy, OpenMP) are
turned off with ``dnnl.reorder.GENERIC_PLANS``; both plans run the same
problem on the same bytes.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dnnl
import dnnl.reorder as R
from dnnl.testing import reorder as T


def run(problem, generic):
    R.GENERIC_PLANS = generic
    try:
        return T.run_ours(**problem)
    finally:
        R.GENERIC_PLANS = False


def plan_path(src_spec, dst_spec, **attrs):
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    pd = dnnl.reorder.primitive_desc(eng, T.make_md(src_spec), eng, T.make_md(dst_spec),
                                     T.build_attr(**attrs))
    return pd.plan_for(pd._src_md, pd._dst_md).path


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
    fast, generic = run(p, False), run(p, True)
    assert fast[0] == generic[0] == 0
    assert fast[1] == generic[1]


def test_paths_are_exercised():
    big = [4, 64, 24, 24]
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "f32", "nhwc")) == "tile"
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "f32", "nChw16c")) == "tile"
    assert plan_path(("tag", big, "s8", "nchw"), ("tag", big, "s8", "nhwc")) == "copy"
    assert plan_path(("tag", big, "f32", "nchw"), ("tag", big, "s8", "nchw")) == "convert"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data(), st.integers(0, 2 ** 32 - 1))
def test_random_problems_fast_equals_generic(data, seed):
    p = T.random_problem(T.HypothesisChooser(data), np.random.default_rng(seed))
    fast, generic = run(p, False), run(p, True)
    assert fast[0] == generic[0]
    assert fast[1] == generic[1]
