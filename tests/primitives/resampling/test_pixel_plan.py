"""plan.pixel_plan (the image plan built in C) against fwd_plan: the same
plan field by field (one channel of one-byte types: the same bytes by
another path), and through dnnl.resample the same bytes as the primitive,
verbose included."""
import numpy as np
import pytest

import dnnl
from dnnl._core.enums import algorithm, data_type as dt
from dnnl.primitives.resampling import plan as P

pytestmark = pytest.mark.kernels

TYPES = [dt.f32, dt.u8, dt.s8, dt.f16, dt.bf16]


def _same(a, b):
    fa, fb = a.fields(), b.fields()
    assert fa.keys() == fb.keys()
    for name in fa:
        x, y = fa[name], fb[name]
        for u, v in (zip(x, y) if isinstance(x, tuple) else [(x, y)]):
            if isinstance(u, np.ndarray):
                assert u.dtype == v.dtype and np.array_equal(u, v), name
            else:
                assert u == v, name


def _same_bytes(fast, ref, N, ins, outs, sdt, ddt, rng):
    codes = {dt.u8: np.uint8, dt.s8: np.int8}
    x = rng.integers(-128 if sdt == dt.s8 else 0, 128 if sdt == dt.s8 else 256,
                     [N] + ins).astype(codes[sdt])
    got, want = (np.full([N] + outs, 0x7B, codes[ddt]) for _ in range(2))
    fast.run(x.ctypes.data, got.ctypes.data)
    ref.run(x.ctypes.data, want.ctypes.data)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_pixel_plan_is_fwd_plans_plan(seed):
    rng = np.random.default_rng(seed)
    compared = 0
    for i in range(300):
        k, C, N = int(rng.integers(1, 3)), int(rng.integers(1, 12)), int(rng.integers(1, 3))
        big = i % 40 == 0
        ins = [int(rng.integers(100, 1500) if big else rng.integers(1, 40)) for _ in range(k)]
        outs = [int(rng.integers(100, 2500) if big else rng.integers(1, 90)) for _ in range(k)]
        sdt, ddt = (TYPES[int(j)] for j in rng.integers(0, len(TYPES), 2))
        alg = [algorithm.resampling_linear, algorithm.resampling_nearest][int(rng.integers(2))]
        tag = ["nwc", "nhwc"][k - 1]
        pm = [1, 1 << 16][int(rng.integers(2))]
        fast = P.pixel_plan(alg, N, C, ins, outs, sdt, ddt, parallel_min=pm)
        ref = P.fwd_plan(alg, dnnl.memory.desc([N, C] + ins, sdt, tag),
                         dnnl.memory.desc([N, C] + outs, ddt, tag), [], parallel_min=pm)
        one_byte = sdt in (dt.u8, dt.s8) and ddt in (dt.u8, dt.s8)
        if fast is None:
            # left to fwd_plan: one channel of wider types, f32 nearest (repeated rows), ...
            assert (C == 1 and not one_byte) or (
                sdt == ddt == dt.f32 and (C >= P.PIX_FEW or alg != algorithm.resampling_linear))
            continue
        compared += 1
        if C == 1:      # the pixel rows where fwd_plan takes the W rows: the same bytes
            assert one_byte and fast.pixel_rows == 1 and ref.pixel_rows == 0
            _same_bytes(fast, ref, N, ins, outs, sdt, ddt, rng)
        else:
            _same(fast, ref)
    assert compared > 150


@pytest.mark.parametrize("dtype,shape,size", [
    (np.uint8, (37, 53, 3), (80, 41)), (np.float32, (20, 30, 4), (7, 90)),
    (np.uint8, (2, 9, 11, 5), (19, 3)), (np.float16, (12, 13, 2), (12, 26)),
    (np.uint8, (37, 53), (80, 41)), (np.int8, (40, 33), (13, 20))])
@pytest.mark.parametrize("mode", ["linear", "nearest"])
def test_image_calls_match_the_primitive(dtype, shape, size, mode, capsys):
    x = np.random.default_rng(1).uniform(-20, 300, shape).astype(dtype)
    if dtype == np.float32:
        x.flat[::17] = np.inf
        x.flat[5::23] = np.nan
    layout = {2: "hw", 3: "hwc", 4: "nhwc"}[len(shape)]
    got = dnnl.resample(x, size, mode=mode, layout=layout)
    b = x if len(shape) == 4 else x[None] if len(shape) == 3 else x[None, :, :, None]
    src = dnnl.memory.from_array(np.moveaxis(b, -1, 1))
    want = np.empty(b.shape[:1] + tuple(size) + b.shape[-1:], dtype)
    dst = dnnl.memory.from_array(np.moveaxis(want, -1, 1))
    alg = getattr(dnnl.algorithm, "resampling_" + mode)
    eng = dnnl.default_engine()
    pd = dnnl.resampling_forward.primitive_desc(eng, dnnl.prop_kind.forward_inference, alg,
                                                src.get_desc(), dst.get_desc())
    dnnl.resampling_forward(pd).execute(dnnl.stream(eng),
                                        {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    want = want if len(shape) == 4 else want[0] if len(shape) == 3 else want[0, :, :, 0]
    assert got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    # the same prepared call, run through execute: verbose prints its line
    dnnl.set_verbose(2)
    try:
        again = dnnl.resample(x, size, mode=mode, layout=layout)
    finally:
        dnnl.set_verbose(0)
    assert again.tobytes() == want.tobytes()
    assert "resampling" in capsys.readouterr().out


@pytest.mark.parametrize("linear", [True, False])
def test_tap_span_is_the_tables_ends(linear):
    # pixel_plan's source span from the kernel's taps of the two end outputs,
    # against the builder's arrays (plan.linear_coeffs, nearest_indices):
    # sizes around powers of two and ratios whose f32 maps land on .5 and
    # integers, where one rounding of a step more or less moves a tap (the
    # C taps truncate through int32: pixel_plan takes source sides < 2^30)
    kernel = P._load_kernel("dnnl.primitives.resampling.kernel")
    rng = np.random.default_rng(3)
    sizes = [1, 2, 3, 5, 7, 224, 255, 256, 257, 1 << 20, (1 << 24) + 1, (1 << 30) - 1, 2 ** 31 - 1]
    pairs = [(a, b) for a in sizes if a < 1 << 30 for b in sizes]
    pairs += [tuple(int(v) for v in rng.integers(1, 5000, 2)) for _ in range(3000)]
    for n_in, n_out in pairs:
        o = np.array([0, n_out - 1])
        if linear:
            left, right, _ = P.linear_coeffs(n_in, n_out, o)
        else:
            left = right = P.nearest_indices(n_in, n_out, o)
        first, last = kernel.tap_span(linear, n_in, n_out)
        assert (first, last) == (left[0], right[-1]), (n_in, n_out)
