"""PyTorch and numpy interop of the array functions (issue 44, item 6).

* DLPack export of every type a plain memory holds, bf16 and the 8-bit
  floats included (DLPack's kDLBfloat and kDLFloat8_*), zero-copy with
  every bit kept; what cannot go raises the public dnnl.dlpack_error.
* Objects numpy takes through ``__array__`` / ``__array_interface__`` (a PIL
  image) go into every array function as ``np.asarray`` makes them.
* PyTorch dtypes wherever a data type is taken.

The expected values are torch's and numpy's own (casts, np.asarray), never
this package's output.
"""
import numpy as np
import pytest

import dnnl
from dnnl._core import dtypes as _dtypes

pytestmark = [pytest.mark.compiled, pytest.mark.interop]


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


# ------------------------------------------------------------------ DLPack out
# oneDNN type -> torch dtype name (torch's own DLPack codes name the same types)
TORCH_OF = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "s32": "int32",
            "s8": "int8", "u8": "uint8", "f8_e5m2": "float8_e5m2",
            "f8_e4m3": "float8_e4m3fn", "e8m0": "float8_e8m0fnu"}


def _memory_of_codes(dt, codes, dims, tag):
    """A memory of type ``dt`` holding the raw ``codes`` (uint8 / uint16...)."""
    mem = dnnl.memory(dnnl.memory.desc(dims, dt, tag), dnnl.default_engine())
    mem.map_data(np.uint8)[...] = np.ascontiguousarray(codes).view(np.uint8).reshape(-1)
    return mem


@pytest.mark.parametrize("dt", sorted(TORCH_OF))
@pytest.mark.parametrize("versioned", [False, True])
def test_every_type_exports_its_bits_to_torch(torch, dt, versioned):
    size = _dtypes.size(dt)
    raw = {1: np.uint8, 2: np.uint16, 4: np.uint32}[size]
    codes = np.random.default_rng(size).integers(0, 2 ** (8 * size), 3 * 7, dtype=raw)
    mem = _memory_of_codes(dt, codes, [3, 7], "ab")
    if versioned:
        class Versioned:        # a consumer asking for DLPack 1.x
            def __dlpack__(self, **kw):
                return mem.__dlpack__(max_version=(1, 0), **kw)

            def __dlpack_device__(self):
                return mem.__dlpack_device__()
        t = torch.from_dlpack(Versioned())
    else:
        t = torch.from_dlpack(mem)
    assert t.dtype == getattr(torch, TORCH_OF[dt])
    assert tuple(t.shape) == (3, 7)
    assert t.data_ptr() == mem.get_data_handle()          # the same buffer
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32}[size]
    got = t.view(ints).numpy().view(raw).reshape(-1)
    np.testing.assert_array_equal(got, codes)


def test_bf16_convert_is_torchs_cast(torch):
    x = torch.randn(4, 33) * 100
    x[0, :4] = torch.tensor([-0.0, 0.0, float("inf"), -float("inf")])
    x[1, :3] = torch.tensor([3.4e38, 1e-40, -1e-39])     # overflow, subnormals
    t = torch.from_dlpack(dnnl.convert(x, "ab", "bf16"))
    assert t.dtype == torch.bfloat16
    assert torch.equal(t.view(torch.int16), x.bfloat16().view(torch.int16))


def test_a_transposed_plain_memory_exports_its_strides(torch):
    x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
    mem = dnnl.convert(x, "nhwc", "bf16")
    t = torch.from_dlpack(mem)
    assert t.is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(t, x.bfloat16())


def test_writes_through_the_tensor_reach_the_memory(torch):
    mem = dnnl.convert(np.zeros((2, 3), np.float32), "ab", "bf16")
    torch.from_dlpack(mem)[1, 2] = 3.5
    assert float(np.asarray(mem)[1, 2]) == 3.5


@pytest.mark.parametrize("dims, dt, tag", [([2, 17, 3, 4], "f32", "nChw16c"),
                                           ([4, 6], "s4", "ab"), ([4, 6], "u4", "ab"),
                                           ([4, 6], "f4_e2m1", "ab")])
def test_what_cannot_go_raises_the_public_error(dims, dt, tag):
    mem = dnnl.memory(dnnl.memory.desc(dims, dt, tag), dnnl.default_engine())
    with pytest.raises(dnnl.dlpack_error) as e:
        mem.__dlpack__()
    assert isinstance(e.value, dnnl.invalid_arguments)
    assert isinstance(e.value, BufferError)
    assert type(e.value).__module__ == "dnnl" and dnnl.dlpack_error.__name__ == "dlpack_error"
    assert "dnnl.convert" in str(e.value)


@pytest.mark.parametrize("dt", ["bf16", "f8_e4m3", "f8_e5m2", "f16", "u8"])
def test_numpy_results_become_tensors_without_a_copy(torch, dt):
    """The documented way back for the functions returning numpy arrays."""
    x = torch.rand(2, 3, 5, 4).contiguous(memory_format=torch.channels_last)
    if dt == "u8":
        r = dnnl.quantize(x, 1 / 200, dtype="u8")
    elif dt.startswith("f8"):       # no array function gives f8: ml_dtypes' own cast
        r = x.numpy().astype(_dtypes.numpy_dtype(dt))      # order "K": channels last
    else:
        r = dnnl.resample(x.to(getattr(torch, TORCH_OF[dt])), (7, 3))
    t = torch.from_dlpack(dnnl.memory.from_array(r))
    assert t.dtype == getattr(torch, TORCH_OF[dt])
    assert t.data_ptr() == r.ctypes.data
    assert t.is_contiguous(memory_format=torch.channels_last)
    ints, raw = (torch.int16, np.int16) if r.itemsize == 2 else (torch.uint8, np.uint8)
    np.testing.assert_array_equal(t.view(ints).numpy(), r.view(raw))


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_torch_8_and_16_bit_floats_round_trip(torch, name):
    x = (torch.randn(3, 16) * 4).to(getattr(torch, name))
    back = torch.from_dlpack(dnnl.convert(x, "ab"))
    assert back.dtype == x.dtype
    assert torch.equal(back.view(torch.uint8), x.view(torch.uint8))


# ------------------------------------------------------------------ __array__ in
class WithArray:
    """Any object numpy takes through ``__array__`` (an h5py dataset...)."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)


class WithInterface:
    """An object numpy takes through ``__array_interface__``."""

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


X = np.random.default_rng(3).standard_normal((2, 3, 4, 5)).astype(np.float32)
Q = np.random.default_rng(4).integers(-128, 128, (2, 3, 4, 5)).astype(np.int8)
CALLS = [
    ("convert", X, lambda x: np.asarray(dnnl.convert(x, "nChw8c", "bf16"))),
    ("quantize", X, lambda x: dnnl.quantize(x, [0.5, 0.25, 2.0], [3, 0, -2], axis=1)),
    ("dequantize", Q, lambda q: dnnl.dequantize(q, 0.125, -4, dtype="f16")),
    ("resample", X, lambda x: dnnl.resample(x, (7, 3), mode="nearest")),
    ("resample_backward", X, lambda x: dnnl.resample_backward(x, (2, 9))),
]


@pytest.mark.parametrize("wrap", [WithArray, WithInterface])
@pytest.mark.parametrize("name, a, call", CALLS, ids=[c[0] for c in CALLS])
def test_objects_numpy_takes_go_into_every_array_function(wrap, name, a, call):
    got, want = call(wrap(a)), call(np.asarray(wrap(a)))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_a_pil_image():
    Image = pytest.importorskip("PIL.Image")
    pixels = np.random.default_rng(5).integers(0, 256, (6, 9, 3), dtype=np.uint8)
    img = Image.fromarray(pixels)
    # one H x W x C image: the batch dim is the caller's (as documented)
    got = dnnl.resample(np.asarray(img)[None], (12, 18), mode="nearest", layout="nhwc")
    np.testing.assert_array_equal(got[0], np.repeat(np.repeat(pixels, 2, 0), 2, 1))
    q = dnnl.dequantize(img, 1 / 255, dtype="f32")
    np.testing.assert_array_equal(q, (pixels.astype(np.float32) * np.float32(1 / 255)))
    np.testing.assert_array_equal(np.asarray(dnnl.convert(img, "cab")), pixels)


def test_from_array_refuses_naming_np_asarray():
    with pytest.raises(dnnl.invalid_arguments, match=r"np\.asarray\(x\)"):
        dnnl.memory.from_array(WithArray(X))


def test_an_array_protocol_that_fails_is_a_dnnl_error():
    class Broken:
        def __array__(self, dtype=None, copy=None):
            raise ValueError("no data")
    with pytest.raises(dnnl.invalid_arguments, match="no data"):
        dnnl.quantize(Broken(), 0.5)


# ------------------------------------------------------------------ torch dtypes
TORCH_DTYPES = {"float32": "f32", "float": "f32", "float16": "f16", "half": "f16",
                "bfloat16": "bf16", "int32": "s32", "int8": "s8", "uint8": "u8",
                "float64": "f64", "double": "f64", "int64": "s64", "bool": "boolean",
                "float8_e4m3fn": "f8_e4m3", "float8_e5m2": "f8_e5m2",
                "float8_e8m0fnu": "e8m0"}


@pytest.mark.parametrize("name", sorted(TORCH_DTYPES))
def test_torch_dtypes_name_onednn_types(torch, name):
    want = dnnl.data_type[TORCH_DTYPES[name]]
    assert _dtypes.as_data_type(getattr(torch, name)) == want
    if want in _dtypes.MD_TYPES:
        md = dnnl.memory.desc([2, 3], getattr(torch, name), "ab")
        assert md.data_type == want


@pytest.mark.parametrize("name", ["int16", "uint16", "complex64", "qint8", "quint8",
                                  "float8_e4m3fnuz", "float4_e2m1fn_x2"])
def test_torch_dtypes_onednn_lacks_are_refused(torch, name):
    if not hasattr(torch, name):
        pytest.skip("this torch has no %s" % name)
    with pytest.raises(dnnl.invalid_arguments, match="torch.%s has no oneDNN" % name):
        dnnl.quantize(np.float32([1.0]), 0.5, dtype=getattr(torch, name))
    with pytest.raises(dnnl.invalid_arguments, match="torch.%s" % name):
        dnnl.memory.desc([2], getattr(torch, name), "a")


def test_torch_dtypes_in_the_array_functions(torch):
    x = torch.linspace(-3, 3, 24).reshape(1, 2, 3, 4)
    a = x.numpy()
    np.testing.assert_array_equal(dnnl.quantize(x, 0.25, 7, dtype=torch.uint8),
                                  dnnl.quantize(a, 0.25, 7, dtype=np.uint8))
    q = dnnl.quantize(a, 0.25)
    np.testing.assert_array_equal(dnnl.dequantize(q, 0.25, dtype=torch.float16),
                                  dnnl.dequantize(q, 0.25, dtype=np.float16))
    np.testing.assert_array_equal(dnnl.dequantize(q, 0.25, dtype=torch.float64),
                                  dnnl.dequantize(q, 0.25, dtype=np.float64))
    m = dnnl.convert(x, "nhwc", torch.bfloat16)
    assert m.get_desc() == dnnl.convert(a, "nhwc", "bf16").get_desc()
    assert torch.equal(torch.from_dlpack(m), x.bfloat16())
