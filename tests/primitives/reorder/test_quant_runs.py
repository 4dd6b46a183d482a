"""The vector loops of contiguous f32 -> s8 / u8 / bf16 runs (quantization
with run-constant scales and zero points, dnnl/primitives/reorder/quant_kernels.h)
against the numpy reference and the generic element-by-element path.

Every run length from 1 to 70 covers the vector bodies (16 or 32 elements
per step at SSE2 and AVX2) and every tail; the values are the edges of the
conversion: NaN (quiet, signalling, negative), +-inf, -0, halves on both
sides of every saturation bound, huge values, subnormals. tests/_platform/test_isa.py
runs this file again at every ISA level built.
"""
import numpy as np
import pytest

import dnnl
from dnnl.testing import reorder as T

pytestmark = pytest.mark.kernels

DST = dnnl.DNNL_ARG_DST
SRC = dnnl.DNNL_ARG_SRC
NAN_BITS = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fbfffff]


def _nans():
    return np.array(NAN_BITS, np.uint32).view(np.float32)


# Values of t = a * x / dv + z where the encoders could go wrong.
INT8_TARGETS = np.concatenate([_nans(), np.array(
    [np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.49999997,
     126.5, 127.5, 128.5, 127.49999, -127.5, -128.5, -129.5, -128.49998, 254.5, 255.5,
     256.5, 255.49998, 1e10, -1e10, 3e38, -3e38, 2.0 ** 31, -2.0 ** 31, 4194304.5,
     8388609.0, -8388609.0, 1e-40, -1e-40, 100.0, -100.0, 7.0], np.float32)])

BF16_BITS = [0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, 0x7f7fffff, 0xff7fffff,
             0x7f7f8000, 0x7f800000, 0xff800000, 0x00000001, 0x80008000, 0x00018000,
             0x007fffff, 0x80000000, 0x00000000, 0x3f800000, 0xc0490fdb] + NAN_BITS


def _spread(pool, n, rng):
    """``n`` values cycling through ``pool`` from a random start (each special
    value lands on many vector lanes over the lengths), then some noise."""
    x = pool[(np.arange(n) * 7 + rng.integers(len(pool))) % len(pool)].copy()
    noise = rng.random(n) < 0.2
    x[noise] = (rng.standard_normal(int(noise.sum())) * 150).astype(np.float32)
    return x


def _check(x, rows, ddt, scales=None, zero_points=None):
    """One reorder of ``x`` as a [rows, n] plain tensor: ours (fast plan) gives
    the bytes of the generic plan and of the numpy reference."""
    n = x.size // rows
    spec_s, spec_d = ("tag", [rows, n], "f32", "ab"), ("tag", [rows, n], ddt, "ab")
    p = dict(src_spec=spec_s, src_bytes=x.tobytes(), dst_spec=spec_d,
             dst_init_bytes=b"\xa5" * (x.size * 2), scales=scales, zero_points=zero_points)
    st, fast = T.run_ours(**p)
    assert st == 0
    st, generic = T.run_ours(**p, generic=True)
    assert fast == generic, (n, ddt, scales, zero_points)
    # the reference's bytes exactly (NaN payloads of bf16 included)
    assert fast == T.expected_bytes(**p), (n, ddt, scales, zero_points)


# (a: src scale, dv: dst scale, z: dst zero point); None = no such attribute.
# Powers of two keep x = (t - z) * dv / a exact, so the targets are hit.
ARITH = [(None, 0.5, 3), (None, 0.5, None), (None, None, None), (None, None, -5),
         (4.0, 0.25, 1), (2.0, None, None), (None, 0.37, 128)]


def _attrs(a, dv, z):
    scales = {}
    if a is not None:
        scales[SRC] = (0, [a], "f32")
    if dv is not None:
        scales[DST] = (0, [dv], "f32")
    zps = {DST: (0, [z], "s32")} if z is not None else None
    return scales or None, zps


@pytest.mark.parametrize("ddt", ["s8", "u8"])
@pytest.mark.parametrize("a, dv, z", ARITH)
def test_int8_runs(ddt, a, dv, z):
    rng = np.random.default_rng(abs(hash((ddt, a, dv, z))) % 2 ** 32)
    scales, zps = _attrs(a, dv, z)
    with np.errstate(all="ignore"):
        pool = ((INT8_TARGETS - np.float32(z or 0)) * np.float32(dv or 1)
                / np.float32(a or 1)).astype(np.float32)
    pool[:len(NAN_BITS)] = _nans()          # keep the NaN payloads
    for n in range(1, 71):
        _check(_spread(pool, n, rng), 1, ddt, scales, zps)


@pytest.mark.parametrize("a, dv, z", [(None, None, None), (None, 2.0, None), (0.5, 3.0, None),
                                      (3.0, None, None)])
def test_bf16_runs(a, dv, z):
    rng = np.random.default_rng(11)
    scales, zps = _attrs(a, dv, z)
    pool = np.array(BF16_BITS, np.uint32).view(np.float32)
    for n in range(1, 71):
        _check(_spread(pool, n, rng), 1, "bf16", scales, zps)


@pytest.mark.parametrize("ddt", ["s8", "u8", "bf16"])
def test_runs_per_row(ddt):
    """Per-row dst scales (mask on dim 0): one run per row, each starting at
    another offset (unaligned vector loads and stores, a tail per row)."""
    rng = np.random.default_rng(5)
    pool = np.concatenate([INT8_TARGETS, np.array(BF16_BITS, np.uint32).view(np.float32)])
    for n in (1, 5, 15, 16, 17, 31, 33, 47, 64, 67):
        rows = 5
        sc = [0.5, 0.37, 1.0, 2.0, 0.0625]
        _check(_spread(pool, rows * n, rng), rows, ddt, {DST: (1, sc, "f32")},
               {DST: (0, [9], "s32")} if ddt != "bf16" else None)


def test_long_run_with_chunks():
    """A run longer than a work item (CHUNK): the vector loop restarts at
    every item boundary."""
    rng = np.random.default_rng(3)
    x = _spread(INT8_TARGETS, 3 * 4096 + 37, rng)
    _check(x, 1, "u8", {DST: (0, [0.5], "f32")}, {DST: (0, [7], "s32")})
    _check(x, 1, "s8", {DST: (0, [0.05], "f32")}, {DST: (0, [-3], "s32")})
    _check(x, 1, "bf16")


@pytest.mark.parametrize("rows, n, ddt, scales, zps", [
    (1, 3_500_001, "u8", {DST: (0, [0.5], "f32")}, {DST: (0, [7], "s32")}),
    (853, 4099, "s8", {DST: (1, list(np.linspace(0.1, 3, 853)), "f32")}, None),
    (1, 3_000_003, "bf16", None, None),
    (853, 4099, "bf16", {DST: (1, list(np.linspace(0.1, 3, 853)), "f32")}, None),
])
def test_streaming_stores(rows, n, ddt, scales, zps):
    """Tensors beyond STREAM_BYTES (dnnl/_platform/caches.py) take the non-temporal
    stores; rows of 4099 start at every misalignment (a head step first, or
    no streaming for bf16 at odd addresses)."""
    x = _spread(np.concatenate([INT8_TARGETS, np.array(BF16_BITS, np.uint32).view(
        np.float32)]), rows * n, np.random.default_rng(rows))
    _check(x, rows, ddt, scales, zps)


def _scale_memory(values, how):
    """A memory of the f32 ``values`` laid out ``how``: "plain", "sub" (a
    view at an offset inside a larger buffer), "strided" (every other
    element) or "f16" (another data type: converted per execution)."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    n = len(values)
    if how == "f16":
        mem = dnnl.memory(dnnl.memory.desc([n], "f16", "a"), eng)
        mem.from_numpy(np.asarray(values, np.float32))
        return mem
    if how == "strided":
        md = dnnl.memory.desc([n], "f32", [2])
        mem = dnnl.memory(md, eng)
        mem.map_data()[:] = np.nan           # the gaps must never be read
        mem.from_numpy(np.asarray(values, np.float32))
        return mem
    if how == "sub":
        parent = dnnl.memory.desc([n + 5], "f32", "a")
        buf = np.full(n + 5, np.nan, np.float32)
        buf[3:3 + n] = values
        return dnnl.memory(parent.submemory_desc([n], [3]), eng, buf)
    mem = dnnl.memory(dnnl.memory.desc([n], "f32", "a"), eng)
    mem.from_numpy(np.asarray(values, np.float32))
    return mem


@pytest.mark.parametrize("how", ["plain", "sub", "strided", "f16"])
def test_scale_memories_of_any_layout(how):
    """Per-row dst scales read from the user's memory: in place when it is
    dense f32 (at its offset0), converted when it is not; the results are the
    reference's either way."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    rows, n = 7, 37
    x = _spread(INT8_TARGETS, rows * n, np.random.default_rng(11)).reshape(rows, n)
    sc = np.array([0.5, 0.25, 2.0, 4.0, 0.125, 1.0, 8.0], np.float32)   # exact in f16
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(DST, 1)
    smd = dnnl.memory.desc([rows, n], "f32", "ab")
    dmd = dnnl.memory.desc([rows, n], "s8", "ab")
    src, dst = dnnl.memory(smd, eng), dnnl.memory(dmd, eng)
    src.from_numpy(x)
    prim = dnnl.reorder(dnnl.reorder.primitive_desc(eng, smd, eng, dmd, attr))
    prim.execute(dnnl.stream(eng), {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
                                    dnnl.DNNL_ARG_ATTR_SCALES | DST: _scale_memory(sc, how)})
    want = T.reference_reorder(x, dnnl.data_type.f32, dnnl.data_type.s8,
                                dst_scales=(1, sc, ()))
    np.testing.assert_array_equal(dst.to_numpy(), want)


def test_dense_scale_memory_is_not_copied():
    """A large dense f32 scale memory is read in place: executing allocates
    nothing of its size (it was copied on every execution before)."""
    import tracemalloc
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    rows = 1 << 20                        # 4 MiB of scales
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(DST, 1)
    smd = dnnl.memory.desc([rows, 2], "f32", "ab")
    dmd = dnnl.memory.desc([rows, 2], "s8", "ab")
    src, dst = dnnl.memory(smd, eng), dnnl.memory(dmd, eng)
    src.map_data()[:] = 3.0
    sc = _scale_memory(np.full(rows, 0.5, np.float32), "plain")
    prim = dnnl.reorder(dnnl.reorder.primitive_desc(eng, smd, eng, dmd, attr))
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
            dnnl.DNNL_ARG_ATTR_SCALES | DST: sc}
    strm = dnnl.stream(eng)
    prim.execute(strm, args)             # the plan is built before tracing
    tracemalloc.start()
    try:
        prim.execute(strm, args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < (1 << 20), peak
    assert (dst.map_data() == 6).all()


@pytest.mark.parametrize("sdt", ["s8", "u8"])
@pytest.mark.parametrize("zs", [7, -128, 255, 2 ** 31 - 1, -2 ** 31, None])
@pytest.mark.parametrize("a, dv, z", [(0.05, None, None), (None, None, None), (3.0, None, None),
                                      (1e-30, None, None)])
def test_int8_sources_with_a_source_zero_point(sdt, zs, a, dv, z):
    """s8 / u8 -> f32 (dequantization) with a run-constant source zero point
    takes the one-pass loops: (x - zs) in int32 with wraparound, then the
    scales, as the generic path and the reference compute; every run length
    to 70 and every source value."""
    rng = np.random.default_rng(5)
    info = np.iinfo(np.int8 if sdt == "s8" else np.uint8)
    scales, zps = _attrs(a, dv, z)
    zps = dict(zps or {})
    if zs is not None:
        zps[SRC] = (0, [zs], "s32")
    for n in list(range(1, 71)) + [256 + 3]:
        rows = 2
        x = rng.integers(info.min, info.max + 1, rows * n).astype(info.dtype)
        spec_s, spec_d = ("tag", [rows, n], sdt, "ab"), ("tag", [rows, n], "f32", "ab")
        p = dict(src_spec=spec_s, src_bytes=x.tobytes(), dst_spec=spec_d,
                 dst_init_bytes=b"\xa5" * (x.size * 4), scales=scales, zero_points=zps or None)
        st, fast = T.run_ours(**p)
        assert st == 0
        st, generic = T.run_ours(**p, generic=True)
        assert fast == generic, (n, sdt, zs, a, dv, z)
        assert fast == T.expected_bytes(**p), (n, sdt, zs, a, dv, z)
