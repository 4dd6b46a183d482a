"""What the array functions take: float64 and other numpy floats the kernels
lack (rounded to f32 first), blocked memories (their logical values), PyTorch's
mode names, sizes and factors; and that each refusal names its fix.

The float64 rule (docs/arrays.md): the result is exactly the result for
``x.astype(np.float32)``, checked here against that call and against the
numpy references of dnnl.testing.
"""
import subprocess
import sys

import numpy as np
import pytest

import dnnl
from dnnl._core import dtypes as _dtypes
from dnnl.testing import reorder as TR
from dnnl.testing import resampling as TS

pytestmark = [pytest.mark.compiled, pytest.mark.interop]

LINEAR, NEAREST = dnnl.algorithm.resampling_linear, dnnl.algorithm.resampling_nearest


def _f64(shape, seed=0):
    """float64 values most of which are not f32 numbers."""
    return np.random.default_rng(seed).standard_normal(shape) * 7 + 1 / 3


# ------------------------------------------------------------------ float64
@pytest.mark.parametrize("wide", [np.float64, np.longdouble])
@pytest.mark.parametrize("tag, dtype", [("ba", None), ("ba", "f32"), ("ab", "s8"),
                                        ("BA8a8b", "bf16"), ("ba", "f16")])
def test_convert_takes_float64_as_f32(wide, tag, dtype):
    x = _f64((5, 9)).astype(wide)
    got = dnnl.convert(x, tag, dtype)
    want = dnnl.convert(x.astype(np.float32), tag, dtype)
    assert got.get_desc() == want.get_desc()
    assert got.get_desc().data_type == (dnnl.data_type.f32 if dtype is None
                                        else _dtypes.as_data_type(dtype))
    assert bytes(got.array.tobytes()) == bytes(want.array.tobytes())
    code = int(got.get_desc().data_type)
    exp = TR.reference_reorder(x.astype(np.float32), TR.R.F32, code)
    assert TR.same_values(TR.codes(got.to_numpy(), code), exp, code).all()


def test_convert_takes_an_f64_memory_on_its_engine():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)          # not the default engine
    x = _f64((3, 4))
    mem = dnnl.memory(dnnl.memory.desc([3, 4], "f64", "ab"), eng, x)
    got = dnnl.convert(mem, "ba")
    assert got.get_engine() is eng
    assert got.get_desc() == dnnl.memory.desc([3, 4], "f32", "ba")
    assert np.array_equal(np.asarray(got), x.astype(np.float32))


def test_quantize_rounds_float64_to_f32_first():
    # 0.25 + 1e-11 is 0.25 in f32: 0.25 / 0.5 = 0.5 rounds to even, 0; the
    # float64 quotient 0.50000000002 would round to 1
    x = np.float64([0.25 + 1e-11, 0.75 - 1e-11, -0.25 - 1e-11, 1e9])
    assert dnnl.quantize(x, 0.5).tolist() == [0, 2, 0, 127]
    for wide in (np.float64, np.longdouble):
        y = _f64((4, 6), seed=1).astype(wide) * 10
        got = dnnl.quantize(y, 0.37, 3, dtype="s8")
        assert np.array_equal(got, dnnl.quantize(y.astype(np.float32), 0.37, 3, dtype="s8"))
        exp = TR.reference_reorder(y.astype(np.float32), TR.R.F32, TR.R.S8,
                                   dst_scales=(0, np.float32([0.37]), ()),
                                   dst_zp=(0, np.int64([3]), ()))
        assert np.array_equal(got, exp.astype(np.int8))


@pytest.mark.parametrize("wide", [np.float64, np.longdouble])
@pytest.mark.parametrize("mode, alg", [("linear", LINEAR), ("nearest", NEAREST)])
def test_resample_takes_float64_as_f32(wide, mode, alg):
    x = _f64((2, 3, 5, 4)).astype(wide)
    got = dnnl.resample(x, (7, 3), mode=mode)
    assert got.dtype == np.float32
    assert np.array_equal(got, TS.forward(x.astype(np.float32), (7, 3), alg))
    nhwc = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    got_last = dnnl.resample(nhwc, (7, 3), mode=mode, layout="nhwc")
    assert np.array_equal(np.moveaxis(got_last, -1, 1), got)
    dd = _f64((2, 3, 7, 3), seed=2).astype(wide)
    back = dnnl.resample_backward(dd, (5, 4), mode=mode)
    assert back.dtype == np.float32
    assert np.array_equal(back, TS.backward(dd.astype(np.float32), (5, 4), alg))


def test_float64_calls_repeat_exactly():
    # the second and later calls of one definition take the prepared path
    for seed in range(3):
        x = _f64((2, 3, 5, 4), seed=seed)
        x32 = x.astype(np.float32)
        assert np.array_equal(dnnl.resample(x, (7, 3)), TS.forward(x32, (7, 3), LINEAR))
        assert np.array_equal(dnnl.resample(x.astype(np.longdouble), 3, mode="nearest"),
                              TS.forward(x32, (3, 3), NEAREST))
        assert np.array_equal(dnnl.resample_backward(x, (2, 2)),
                              TS.backward(x32, (2, 2), LINEAR))
        assert np.array_equal(dnnl.quantize(x, 0.25), dnnl.quantize(x32, 0.25))
        got = dnnl.convert(x, "nhwc")
        assert got.get_desc() == dnnl.memory.desc([2, 3, 5, 4], "f32", "nhwc")
        assert np.array_equal(np.asarray(got), x32)


def test_float64_results():
    # dequantize computes in f32 and widens exactly, as numpy's astype would;
    # convert returns a memory and no kernel writes f64: refused with the fix
    q = np.int8([1, -2, 3, 127, -128])
    s = np.float32(0.1)     # not exact in binary: the f32 product rounds
    want = (q.astype(np.float32) * s).astype(np.float64)
    for dtype in (np.float64, "f64", dnnl.data_type.f64):
        got = dnnl.dequantize(q, s, dtype=dtype)
        assert got.dtype == np.float64 and got.tobytes() == want.tobytes()
    with pytest.raises(dnnl.unimplemented, match=r"dtype=np\.float32 .*astype\(np\.float64\)"):
        dnnl.convert(np.float32([1, 2]), "a", np.float64)
    with pytest.raises(dnnl.invalid_arguments, match=r"q\.astype\(np\.int32\)"):
        dnnl.dequantize(np.float64([1.0, 2.0]), 0.5)          # codes, not values


def test_from_array_keeps_float64_and_names_the_fix_for_longdouble():
    x = _f64((2, 3))
    mem = dnnl.memory.from_array(x)            # a view: f64 is a oneDNN data type
    assert mem.get_desc() == dnnl.memory.desc([2, 3], "f64", "ab")
    assert mem.get_data_handle() == x.ctypes.data
    with pytest.raises(dnnl.invalid_arguments, match=r"x\.astype\(np\.float32\)"):
        dnnl.memory.from_array(x.astype(np.longdouble))
    with pytest.raises(dnnl.invalid_arguments, match=r"x\.astype\(np\.int32\)"):
        dnnl.memory.from_array(np.zeros(3, np.int16))


# ------------------------------------------------------------------ blocked memories
def test_blocked_memories_are_read_as_their_logical_values():
    x = (_f64((2, 19, 3, 4)) * 4).astype(np.float32)
    blocked = dnnl.convert(x, "nChw16c")
    assert np.array_equal(dnnl.quantize(blocked, 0.25), dnnl.quantize(x, 0.25))
    assert np.array_equal(dnnl.resample(blocked, (5, 7)), dnnl.resample(x, (5, 7)))
    assert np.array_equal(dnnl.resample(blocked, factors=2, mode="nearest-exact"),
                          TS.forward(x, (6, 8), NEAREST))
    assert np.array_equal(dnnl.resample_backward(blocked, (2, 2)),
                          TS.backward(x, (2, 2), LINEAR))
    q = dnnl.convert(x, "nChw8c", "s8", scales=0.25)
    assert np.array_equal(dnnl.dequantize(q, 0.25),
                          dnnl.dequantize(np.asarray(q), 0.25))
    assert np.array_equal(dnnl.dequantize(q, 0.25), np.asarray(q).astype(np.float32) / 4)
    back = dnnl.convert(blocked, "nhwc")
    assert np.array_equal(np.asarray(back), x)


def test_blocked_f64_memory_through_convert():
    eng = dnnl.default_engine()
    x = _f64((1, 3, 2, 2))
    plain = dnnl.memory(dnnl.memory.desc([1, 3, 2, 2], "f64", "nchw"), eng, x)
    blocked = dnnl.memory(dnnl.memory.desc([1, 3, 2, 2], "f64", "nChw8c"), eng)
    blocked.from_numpy(x)
    for mem in (plain, blocked):
        assert np.array_equal(np.asarray(dnnl.convert(mem, "nhwc")), x.astype(np.float32))
        assert np.array_equal(dnnl.quantize(mem, 0.5), dnnl.quantize(x.astype(np.float32), 0.5))


# ------------------------------------------------------------------ ml_dtypes missing
@pytest.fixture
def no_ml_dtypes(monkeypatch):
    """Run as if ml_dtypes were not installed (numpy types of bf16 / f8 are
    their raw codes then)."""
    monkeypatch.setattr(_dtypes, "_ml", None)


def test_bf16_without_ml_dtypes_names_the_extra(no_ml_dtypes):
    eng = dnnl.default_engine()
    for dt in ("bf16", "f8_e4m3", "f8_e5m2"):
        mem = dnnl.memory(dnnl.memory.desc([1, 2, 3, 3], dt, "nchw"), eng)
        for call in (lambda: dnnl.resample(mem, (4, 4)),
                     lambda: dnnl.resample_backward(mem, (2, 2)),
                     lambda: dnnl.quantize(mem, 0.5),
                     lambda: dnnl.dequantize(np.int8([1, 2]), 0.5, dtype=dt)):
            with pytest.raises(dnnl.error, match=r"pip install 'dnnl-python\[bf16\]'") as e:
                call()
            assert str(e.value).startswith(dt)
    # the extra is what pyproject.toml calls it (read as text: tomllib is 3.11+)
    import pathlib
    import re
    text = (pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert re.search(r'^bf16 = \["ml_dtypes', text, re.M)


def test_bf16_without_ml_dtypes_installed():
    # a fresh interpreter in which ml_dtypes cannot be imported
    from dnnl.testing.interpreter import run
    script = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import numpy as np, dnnl\n"
        "bf = dnnl.memory(dnnl.memory.desc([1, 1, 2, 2], 'bf16', 'nchw'),"
        " dnnl.default_engine())\n"
        "try:\n"
        "    dnnl.resample(bf, (4, 4))\n"
        "except dnnl.error as e:\n"
        "    print(e)\n")
    out = run(["-c", script], capture_output=True, text=True, check=True).stdout
    assert out == ("bf16 values need ml_dtypes for their numpy type: pip install "
                   "'dnnl-python[bf16]' (status invalid_arguments)\n")


def test_without_ml_dtypes_other_types_still_work(no_ml_dtypes):
    x = np.float32([[[0, 1, 2, 3]]])
    assert dnnl.resample(x, 8, mode="nearest").tolist() == [[[0, 0, 1, 1, 2, 2, 3, 3]]]
    assert dnnl.dequantize(np.int8([2]), 0.5, dtype="f16").tolist() == [1.0]


def test_torch_bf16_without_ml_dtypes_names_the_extra():
    # a fresh interpreter without ml_dtypes: where it is loaded, numpy's
    # from_dlpack (2.5) takes a bf16 tensor with ml_dtypes' type, so that
    # the fixture above cannot stand for its absence
    pytest.importorskip("torch")
    from dnnl.testing.interpreter import run
    script = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import torch, dnnl\n"
        "try:\n"
        "    dnnl.resample(torch.zeros(1, 1, 2, 2, dtype=torch.bfloat16), 4)\n"
        "except dnnl.invalid_arguments as e:\n"
        "    print(e)\n")
    out = run(["-c", script], capture_output=True, text=True, check=True).stdout
    assert "torch.bfloat16 values need ml_dtypes, pip install 'dnnl-python[bf16]'" in out


# ------------------------------------------------------------------ resample arguments
@pytest.mark.parametrize("size", [(4.5, 8), (4.0, 8), 4.0, np.float32(4), (4, True),
                                  "44", [4, "8"]])
def test_float_sizes_are_refused(size):
    x = np.zeros((1, 1, 2, 2), np.float32)
    with pytest.raises(dnnl.invalid_type, match="factors="):
        dnnl.resample(x, size)
    with pytest.raises(dnnl.invalid_type, match="factors="):
        dnnl.resample_backward(x, size)


def test_float_sizes_are_refused_after_equal_integers():
    # a prepared call's key holds the sizes' types: 4.0 == 4, yet one is refused
    x = np.zeros((1, 1, 2, 2), np.float32)
    for ints, floats in [((4, 8), (4.0, 8)), ([4, 8], [4, 8.0]), (4, 4.0), ((4, 1), (4, True))]:
        dnnl.resample(x, ints)
        dnnl.resample(x, ints)
        with pytest.raises(dnnl.invalid_type, match="factors="):
            dnnl.resample(x, floats)
    dnnl.resample(x, factors=(1, 2))
    with pytest.raises(dnnl.invalid_type, match="real number"):
        dnnl.resample(x, factors=(True, 2))


def test_integer_sizes_of_any_integer_type():
    x = np.zeros((1, 1, 2, 2), np.float32)
    assert dnnl.resample(x, (np.int64(3), np.uint8(5))).shape == (1, 1, 3, 5)
    assert dnnl.resample(x, np.array([3, 5])).shape == (1, 1, 3, 5)
    assert dnnl.resample(x, np.int16(3)).shape == (1, 1, 3, 3)


@pytest.mark.parametrize("factors", [("2", 2), True, (2, None), [np.bool_(True), 2]])
def test_factors_must_be_real_numbers(factors):
    with pytest.raises(dnnl.invalid_type, match="real number"):
        dnnl.resample(np.zeros((1, 1, 2, 2), np.float32), factors=factors)


def test_factors_of_any_real_type():
    x = np.zeros((1, 1, 4, 6), np.float32)
    # out = trunc(in * f32(factor)): 4 * 1.3 = 5.2 -> 5; 6 * 0.5 = 3
    assert dnnl.resample(x, factors=(1.3, np.float32(0.5))).shape == (1, 1, 5, 3)
    assert dnnl.resample(x, factors=2).shape == (1, 1, 8, 12)
    assert dnnl.resample(x, factors=np.array([1.5, 2.0])).shape == (1, 1, 6, 12)


def test_pytorch_mode_names():
    x = _f64((1, 2, 5, 7)).astype(np.float32)
    assert np.array_equal(dnnl.resample(x, (3, 11), mode="nearest-exact"),
                          dnnl.resample(x, (3, 11), mode="nearest"))
    assert np.array_equal(dnnl.resample(x, (3, 11), mode="bilinear"),
                          TS.forward(x, (3, 11), LINEAR))
    x5 = _f64((1, 1, 3, 2, 4)).astype(np.float32)
    assert np.array_equal(dnnl.resample(x5, 5, mode="trilinear"),
                          TS.forward(x5, (5, 5, 5), LINEAR))
    assert np.array_equal(dnnl.resample_backward(x, (2, 2), mode="bilinear"),
                          TS.backward(x, (2, 2), LINEAR))
    with pytest.raises(dnnl.invalid_arguments, match="mode='linear'"):
        dnnl.resample(x5, 4, mode="bilinear")             # PyTorch: 4-D only
    with pytest.raises(dnnl.invalid_arguments, match="mode='linear'"):
        dnnl.resample(x, 4, mode="trilinear")
    for bad in ("Nearest", "nearest_exact", "bilinar", None, 1):
        with pytest.raises(dnnl.invalid_arguments,
                           match="mode must be one of 'nearest', 'linear', 'cubic', 'area'"):
            dnnl.resample(x, 4, mode=bad)


def test_ours_is_pytorch_nearest_exact_not_its_nearest():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    x = np.random.default_rng(3).random((1, 1, 32, 40), dtype=np.float32)
    ours = dnnl.resample(x, (17, 23), mode="nearest")
    t = torch.from_numpy(x)
    assert np.array_equal(ours, F.interpolate(t, (17, 23), mode="nearest-exact").numpy())
    assert not np.array_equal(ours, F.interpolate(t, (17, 23), mode="nearest").numpy())
    lin = dnnl.resample(x, (17, 23), mode="bilinear")
    ref = F.interpolate(t, (17, 23), mode="bilinear", align_corners=False).numpy()
    assert np.abs(lin - ref).max() < 1e-5       # up to float rounding (docs/resampling.md)


# ------------------------------------------------------------------ engines
def test_engine_mismatch_names_the_default_engine():
    src = dnnl.memory.from_array(np.zeros((2, 3), np.float32))
    dst = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ba"), dnnl.default_engine())
    prim = dnnl.reorder(src, dst)
    own = dnnl.stream(dnnl.engine(dnnl.engine.kind.cpu, 0))
    with pytest.raises(dnnl.invalid_arguments, match=r"dnnl\.default_engine\(\)"):
        prim.execute(own, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    assert dnnl.default_engine() is dnnl.arrays.default_engine() is src.get_engine()
    prim.execute(dnnl.stream(dnnl.default_engine()),
                 {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})


@pytest.mark.parametrize("call", [
    lambda a: dnnl.resample(a, 4), lambda a: dnnl.resample_backward(a, 1),
    lambda a: dnnl.quantize(a, 0.5), lambda a: dnnl.dequantize(a, 0.5),
    lambda a: dnnl.convert(a, "nhwc")])
def test_int64_is_refused_naming_int32(call):
    a = np.arange(8).reshape(1, 2, 2, 2)                       # numpy's default int
    with pytest.raises(dnnl.unimplemented, match=r"x\.astype\(np\.int32\)"):
        call(a)
    assert np.array_equal(dnnl.dequantize(a.astype(np.int32), 0.5), a.astype(np.float32) / 2)


def test_ml_dtypes_is_imported_when_a_type_needs_it():
    """``import dnnl`` leaves ml_dtypes alone (its import takes about half a
    second); the first bf16 result imports it and is an ml_dtypes array, and
    its arrays are recognised before that."""
    pytest.importorskip("ml_dtypes")
    code = ("import sys, numpy as np, dnnl\n"
            "assert 'ml_dtypes' not in sys.modules\n"
            "q = dnnl.convert(np.ones((1, 2, 2, 2), np.float32), 'nhwc', dtype='bf16')\n"
            "a = np.asarray(q)\n"
            "assert 'ml_dtypes' in sys.modules and a.dtype.name == 'bfloat16', a.dtype\n"
            "import ml_dtypes\n"
            "b = np.full((1, 2, 2, 2), 1.5, ml_dtypes.bfloat16)\n"
            "assert np.asarray(dnnl.convert(b, 'nhwc', dtype='f32')).tolist() == "
            "np.full((1, 2, 2, 2), 1.5).transpose(0, 2, 3, 1).tolist()\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
