"""Special values (NaN, +-inf, +-0, huge, subnormal) through reorder and
resampling, against oneDNN's reference rules (docs/internals/semantics.md) and the
numpy references in dnnl/testing/.

* NaN to an integer output is what oneDNN's reference stores:
  ``(int)nearbyintf(NaN)`` is x86's INT_MIN, cut to the width, so s32 gets
  -2147483648 and s8/u8/s4/u4 get 0, on every path (bit copy excepted: it
  never converts).
"""
import numpy as np
import pytest

import dnnl
from dnnl.testing import dtypes as D
from dnnl.testing import reorder as T

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
S = dnnl.stream(ENG)
FROM, TO = dnnl.DNNL_ARG_FROM, dnnl.DNNL_ARG_TO
NAN_BITS = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fffffff]
NAN_TO = {"s32": -2 ** 31, "s8": 0, "u8": 0, "s4": 0, "u4": 0}


def _nans(n):
    b = np.array((NAN_BITS * n)[:n], np.uint32)
    return b.view(np.float32)


def _reorder(x, ddt, stag="ab", dtag="ab", attr=None, args=None):
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), "f32", stag), ENG)
    src.from_numpy(x)
    dst = dnnl.memory(dnnl.memory.desc(list(x.shape), ddt, dtag), ENG)
    r = dnnl.reorder(src, dst, attr) if attr is not None else dnnl.reorder(src, dst)
    a = {FROM: src, TO: dst}
    a.update(args or {})
    r.execute(S, a)
    return dst.to_numpy()


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
@pytest.mark.parametrize("layout", [("ab", "ab"), ("ab", "ba"), ("ba", "ab")])
def test_reorder_nan_to_integer(ddt, layout):
    x = _nans(4 * 6).reshape(4, 6)
    got = _reorder(x, ddt, *layout)
    assert (got.astype(np.int64) == NAN_TO[ddt]).all(), got


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
def test_reorder_nan_to_integer_with_attributes(ddt):
    """Scales, a zero point (NaN + zp is NaN) and sum keep NaN a NaN (s4/u4:
    scales only, the attributes their reorder takes)."""
    x = _nans(8).reshape(2, 4)
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    if ddt not in ("s4", "u4"):
        attr.set_zero_points_mask(dnnl.DNNL_ARG_DST, 0)
        po = dnnl.post_ops()
        po.append_sum(1.0)
        attr.set_post_ops(po)
    sc = dnnl.memory(dnnl.memory.desc([1], "f32", "a"), ENG)
    sc.from_numpy(np.array([2.0], np.float32))
    zp = dnnl.memory(dnnl.memory.desc([1], "s32", "a"), ENG)
    zp.from_numpy(np.array([3], np.int32))
    args = {dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_SRC: sc,
            dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_DST: zp}
    got = _reorder(x, ddt, attr=attr, args=args)
    assert (got.astype(np.int64) == NAN_TO[ddt]).all(), got


@pytest.mark.parametrize("ddt", sorted(NAN_TO))
def test_reorder_nan_matches_numpy_reference(ddt):
    x = np.concatenate([_nans(10), np.float32([np.inf, -np.inf, 0.0, -0.0, 3e38, -3e38,
                                               1e-45, -1e-40, 2.5, -2.5])])
    spec = ("tag", [len(x)], "f32", "a")
    dspec = ("tag", [len(x)], ddt, "a")
    st, out = T.run_ours(spec, x.tobytes(), dspec)
    assert st == 0
    exp = T.expected_bytes(spec, x.tobytes(), dspec)
    assert T.mismatches(out, exp, T.make_md(dspec)) == 0
    ref = D.encode(_nans(10), getattr(D, ddt.upper()))
    assert (ref.astype(np.int64) == NAN_TO[ddt]).all()
