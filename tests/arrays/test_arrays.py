"""dnnl.arrays: from_array, memory.array / __array__ / DLPack, convert,
quantize / dequantize, resample / resample_backward.

Values are checked against the numpy references in dnnl.testing and against
hand-computed numbers; layouts against descriptors made by tag.
"""
import ctypes
import pathlib
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl import arrays
from dnnl._model import interop as _interop
from dnnl.arrays import prepared as _prepared
from dnnl.testing import reorder as TR
from dnnl.testing import resampling as TS

pytestmark = [pytest.mark.compiled, pytest.mark.interop]

ml_dtypes = pytest.importorskip("ml_dtypes")

ENG = dnnl.arrays.default_engine()
LETTERS = "abcdef"


# ------------------------------------------------------------------ from_array
def test_c_contiguous_is_abcd_and_zero_copy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    mem = dnnl.memory.from_array(x)
    assert mem.get_desc() == dnnl.memory.desc([2, 3, 4], "f32", "abc")
    assert mem.get_data_handle() == x.ctypes.data
    mem.array[1, 2, 3] = -1.0           # a write through the memory reaches x
    assert x[1, 2, 3] == -1.0
    x[0, 0, 0] = 42.0                   # and the other way round
    assert mem.to_numpy()[0, 0, 0] == 42.0


@given(st.data())
def test_any_dense_permutation_gives_its_plain_tag(data):
    nd = data.draw(st.integers(1, 5))
    shape = data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd))
    perm = data.draw(st.permutations(range(nd)))
    dtype = data.draw(st.sampled_from([np.float32, np.int8, np.uint8, np.int32,
                                       np.float16, ml_dtypes.bfloat16]))
    phys = np.arange(int(np.prod(shape)), dtype=np.int64).astype(dtype).reshape(
        [shape[p] for p in perm])
    x = phys.transpose(np.argsort(perm))     # logical dims = shape, memory order = perm
    assert list(x.shape) == shape
    mem = dnnl.memory.from_array(x)
    md = mem.get_desc()
    tag = "".join(LETTERS[p] for p in perm)
    assert md == dnnl.memory.desc(shape, dnnl.arrays._dtypes.as_data_type(x.dtype),
                                  _interop._dense_strides(shape, tag))
    name = arrays.plain_tag(shape, [s // x.itemsize for s in x.strides])
    assert name is not None
    # the inferred tag describes the same layout as the permutation
    assert _interop._dense_strides(shape, name) == [
        s if n != 1 else t for n, s, t in zip(shape, _interop._dense_strides(shape, tag),
                                              _interop._dense_strides(shape, name))]
    assert np.array_equal(np.asarray(mem), x)
    assert np.shares_memory(np.asarray(mem), x)


def test_strided_slice_gives_a_strides_descriptor():
    base = np.arange(4 * 10, dtype=np.float32).reshape(4, 10)
    x = base[:, 1:9:2]                         # gaps: not a plain tag
    mem = dnnl.memory.from_array(x)
    assert mem.get_desc().strides == (10, 2)
    assert np.array_equal(mem.to_numpy(), x)
    assert mem.get_data_handle() == x.ctypes.data
    np.asarray(mem)[3, 3] = 99
    assert base[3, 7] == 99


@pytest.mark.parametrize("dtype,dt", [
    (np.float32, "f32"), (np.float16, "f16"), (np.int32, "s32"), (np.int8, "s8"),
    (np.uint8, "u8"), (ml_dtypes.bfloat16, "bf16"), (ml_dtypes.float8_e5m2, "f8_e5m2"),
    (ml_dtypes.float8_e4m3fn, "f8_e4m3"), (np.float64, "f64")])
def test_data_type_from_dtype(dtype, dt):
    x = np.ones((2, 3), dtype)
    assert dnnl.memory.from_array(x).get_desc().data_type == dnnl.memory.data_type[dt]


def test_explicit_plain_tag_must_match_strides():
    x = np.zeros((2, 3, 4, 5), np.float32)
    assert dnnl.memory.from_array(x, "nchw").get_desc() == \
        dnnl.memory.desc(x.shape, "f32", "nchw")
    nhwc = x.transpose(0, 2, 3, 1).copy().transpose(0, 3, 1, 2)
    assert dnnl.memory.from_array(nhwc, dnnl.memory.format_tag.nhwc).get_desc() == \
        dnnl.memory.desc(x.shape, "f32", "nhwc")
    with pytest.raises(dnnl.error) as e:
        dnnl.memory.from_array(x, "nhwc")
    assert e.value.status == dnnl.status.invalid_arguments
    with pytest.raises(dnnl.error):
        dnnl.memory.from_array(x, "nChw16c")     # blocked: needs a copy


def test_buffer_protocol_objects():
    buf = bytearray(8)
    mem = dnnl.memory.from_array(buf)
    assert mem.get_desc() == dnnl.memory.desc([8], "u8", "a")
    mem.array[3] = 7
    assert buf[3] == 7
    import array as pyarray
    fa = pyarray.array("f", [1.5, 2.5])
    assert dnnl.memory.from_array(fa).to_numpy().tolist() == [1.5, 2.5]


@pytest.mark.parametrize("bad", [[1.0, 2.0], "abc", None, 3.0, np.float32(1.0),
                                 np.zeros((2, 2), np.bool_), np.zeros(3, np.int64)[::-1],
                                 np.zeros(2, np.complex64)])
def test_from_array_refuses(bad):
    with pytest.raises(dnnl.error) as e:
        dnnl.memory.from_array(bad)
    assert isinstance(e.value, ValueError)


def test_from_array_in_turn_over_shapes_and_types():
    """Calls in turn over arrays that differ only in dims (same size, same
    rank or not) or only in type: each memory gets its own descriptor (the
    last one served is remembered, never lent to another key)."""
    arrays = [np.zeros(s, dt) for s in [(2, 3), (3, 2), (2, 3, 1), (6,), (1, 6), (2, 3)]
              for dt in (np.float32, np.int32, np.int8, np.uint8, np.float16)]
    names = {np.float32: "f32", np.int32: "s32", np.int8: "s8", np.uint8: "u8",
             np.float16: "f16"}
    for _ in range(2):
        for x in arrays:
            tag = "abc"[:x.ndim]
            want = dnnl.memory.desc(list(x.shape), names[x.dtype.type], tag)
            assert dnnl.memory.from_array(x).get_desc() == want


def test_read_only_array_gives_read_only_memory():
    x = np.zeros(4, np.float32)
    x.flags.writeable = False
    mem = dnnl.memory.from_array(x)
    out = dnnl.memory(dnnl.memory.desc([4], "f32", "a"), ENG)
    with pytest.raises(dnnl.error):
        dnnl.reorder(out, mem).execute(dnnl.stream(ENG), out, mem)


# ------------------------------------------------------------------ memory.array
BLOCKED = [("nChw16c", [2, 17, 3, 4], (2, 2, 3, 4, 16)),
           ("nChw8c", [1, 17, 2, 2], (1, 3, 2, 2, 8)),
           ("nhwc", [2, 3, 4, 5], (2, 4, 5, 3)),
           ("OIhw16i16o", [17, 20, 1, 2], (2, 2, 1, 2, 16, 16)),
           ("OIhw4i16o4i", [16, 8, 1, 1], (1, 1, 1, 1, 4, 16, 4)),
           ("ABcd8b8a", [9, 9, 1, 1], (2, 2, 1, 1, 8, 8)),
           ("abcd", [2, 3, 4, 5], (2, 3, 4, 5))]


@pytest.mark.parametrize("tag,dims,shape", BLOCKED)
@pytest.mark.parametrize("dt", ["f32", "s8", "bf16"])
def test_array_is_the_physical_buffer(tag, dims, shape, dt):
    md = dnnl.memory.desc(dims, dt, tag)
    mem = dnnl.memory(md, ENG)
    mem.map_data()[:] = 0
    arr = mem.array
    assert arr.shape == shape
    assert arr.dtype == dnnl.arrays._dtypes.numpy_dtype(md.data_type)
    # C order of the array is the physical order: the dense buffer itself
    assert arr.ctypes.data == mem.get_data_handle() and arr.flags.c_contiguous
    assert arr.nbytes == md.get_size()
    # each logical element sits where element_offset says
    x = np.arange(int(np.prod(dims))).reshape(dims) % 100
    mem.from_numpy(x.astype(np.float32))
    flat = arr.reshape(-1)
    for idx in [(0,) * 4, tuple(d - 1 for d in dims), tuple(d // 2 for d in dims)]:
        assert float(flat[md.element_offset(list(idx))]) == float(x[idx])
    # zero-copy: a write through array is read back by to_numpy
    flat[md.element_offset([0, 0, 0, 0])] = 5
    assert mem.to_numpy()[0, 0, 0, 0] == 5


def test_array_of_a_submemory_is_a_strided_view():
    parent = dnnl.memory.desc([4, 6], "f32", "ab")
    mem = dnnl.memory(parent.submemory_desc([2, 3], [1, 2]), ENG)
    assert mem.array.shape == (2, 3) and mem.array.strides == (24, 4)


def test_array_refuses_sub_byte_and_no_buffer():
    mem = dnnl.memory(dnnl.memory.desc([4], "s4", "a"), ENG)
    with pytest.raises(dnnl.error):
        mem.array
    none = dnnl.memory(dnnl.memory.desc([4], "f32", "a"), ENG, dnnl.DNNL_MEMORY_NONE)
    with pytest.raises(dnnl.error):
        none.array


# ------------------------------------------------------------------ __array__
def test_asarray_is_a_view_for_plain_layouts():
    mem = dnnl.memory(dnnl.memory.desc([2, 3, 4, 5], "f32", "nhwc"), ENG)
    mem.from_numpy(np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5))
    a = np.asarray(mem)
    assert a.shape == (2, 3, 4, 5) and np.shares_memory(a, mem.map_data())
    a[1, 2, 3, 4] = -7
    assert mem.to_numpy()[1, 2, 3, 4] == -7
    assert np.array(mem, copy=True) is not a and not np.shares_memory(
        np.array(mem, copy=True), mem.map_data())
    assert np.asarray(mem, dtype=np.float64).dtype == np.float64


def test_asarray_is_a_copy_for_blocked_layouts():
    mem = dnnl.convert(np.arange(2 * 17 * 3 * 4, dtype=np.float32).reshape(2, 17, 3, 4),
                       "nChw16c")
    a = np.asarray(mem)
    assert np.array_equal(a, mem.to_numpy()) and not np.shares_memory(a, mem.map_data())
    with pytest.raises(ValueError):
        np.array(mem, copy=False)


# ------------------------------------------------------------------ DLPack
def test_numpy_from_dlpack_shares_memory():
    mem = dnnl.memory(dnnl.memory.desc([3, 4], "f32", "ba"), ENG)
    mem.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    n = np.from_dlpack(mem)
    assert n.shape == (3, 4) and n[2, 1] == 9
    mem.array[0, 0] = -1                         # physical (b, a) = logical (0, 0)
    assert n[0, 0] == -1
    # numpy before 2.2.5 makes every DLPack import read-only (docs/arrays.md)
    if np.lib.NumpyVersion(np.__version__) >= "2.2.5":
        n[2, 1] = 100
        assert mem.to_numpy()[2, 1] == 100
    else:
        assert not n.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            n[2, 1] = 100
    assert mem.__dlpack_device__() == (1, 0)


def test_dlpack_refuses_blocked():
    mem = dnnl.memory(dnnl.memory.desc([2, 17, 3, 4], "f32", "nChw16c"), ENG)
    with pytest.raises(dnnl.error) as e:
        np.from_dlpack(mem)
    assert isinstance(e.value, BufferError)


def test_memory_accepts_a_dlpack_producer_without_buffer_protocol():
    class Producer:       # only the DLPack protocol, like a torch tensor
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = np.arange(6, dtype=np.float32)
    mem = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ab"), ENG, Producer(a))
    assert mem.get_data_handle() == a.ctypes.data
    a[5] = 50
    assert mem.array[1, 2] == 50
    # numpy before 2.2.5 imports DLPack read-only (docs/arrays.md)
    if np.lib.NumpyVersion(np.__version__) >= "2.2.5":
        mem.array[1, 2] = 60
        assert a[5] == 60
    else:
        with pytest.raises(ValueError, match="read-only"):
            mem.array[1, 2] = 60
    mem2 = dnnl.memory.from_array(Producer(a))
    assert mem2.get_desc().dims == (6,) and mem2.get_data_handle() == a.ctypes.data


class TestTorch:
    # not in the class body: there, without torch, it skipped every test of
    # this module
    @pytest.fixture(autouse=True)
    def _torch(self):
        self.torch = pytest.importorskip("torch")

    def test_recipes_pytorch_quantize_snippet_runs(self):
        """docs/recipes.md's PyTorch block, pasted as written after the
        page's numpy example, runs and gives dnnl.quantize's bytes."""
        text = pathlib.Path(__file__).resolve().parents[2].joinpath(
            "docs", "recipes.md").read_text()
        start = text.index("```python\nimport torch\ntw, ts")
        block = text[start + len("```python\n"):text.index("```", start + 3)]
        rng = np.random.default_rng(0)
        w = rng.standard_normal((8, 17, 3, 3), dtype=np.float32)
        scale = (np.abs(w).max(axis=(0, 2, 3)) / 127).astype(np.float32)
        q = dnnl.quantize(w, scale, axis=1)
        env = {"w": w, "scale": scale, "q": q}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # torch's deprecation
            exec(compile(block, "docs/recipes.md", "exec"), env)
        assert (env["back_t"].numpy() == dnnl.dequantize(q, scale, axis=1)).all()

    def test_from_dlpack_shares_memory_both_ways(self):
        torch = self.torch
        mem = dnnl.memory(dnnl.memory.desc([2, 3], "f32", "ab"), ENG)
        mem.from_numpy(np.zeros((2, 3), np.float32))
        t = torch.from_dlpack(mem)
        t[1, 2] = 5.0
        assert mem.to_numpy()[1, 2] == 5.0
        np.asarray(mem)[0, 1] = 3.0
        assert float(t[0, 1]) == 3.0

    def test_channels_last_infers_acdb(self):
        torch = self.torch
        t = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
        t = t.contiguous(memory_format=torch.channels_last)
        mem = dnnl.memory.from_array(t)
        assert mem.get_desc() == dnnl.memory.desc([2, 3, 4, 5], "f32", "acdb")
        assert mem.get_data_handle() == t.data_ptr()
        assert np.array_equal(mem.to_numpy(), t.numpy())
        assert dnnl.verbose.tag_str(mem.get_desc()) == "acdb"

    def test_memory_over_a_tensor(self):
        torch = self.torch
        t = torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
        mem = dnnl.memory(dnnl.memory.desc([2, 3, 4, 5], "f32", "nhwc"), ENG, t)
        assert mem.get_data_handle() == t.data_ptr()
        np.asarray(mem)[1, 2, 3, 4] = 8
        assert float(t[1, 2, 3, 4]) == 8

    def test_bf16_tensor(self):
        torch = self.torch
        t = torch.tensor([1.5, -2.0, 3.25], dtype=torch.bfloat16)
        mem = dnnl.memory.from_array(t)
        assert mem.get_desc().data_type == dnnl.memory.data_type.bf16
        assert mem.to_numpy().astype(np.float32).tolist() == [1.5, -2.0, 3.25]

    def test_functions_take_tensors(self):
        torch = self.torch
        t = torch.tensor([[[0.0, 1.0, 2.0, 3.0]]])
        assert dnnl.resample(t, 8).tolist() == [[[0, .25, .75, 1.25, 1.75, 2.25, 2.75, 3]]]
        assert dnnl.quantize(t, 0.5).tolist() == [[[0, 2, 4, 6]]]

    def test_quantize_matches_torch(self):
        torch = self.torch
        rng = np.random.default_rng(1)
        x = (rng.standard_normal((4, 8, 6)) * 30).astype(np.float32)
        x[0, 0, :4] = [0.25, 0.75, -1.25, 300.0]            # ties and saturation
        for scale, zp in [(0.5, 0), (0.25, 3), (2.0 ** -6, -5)]:   # exact reciprocals
            ours = dnnl.quantize(x, scale, zp)
            ref = torch.quantize_per_tensor(torch.from_numpy(x), scale, zp,
                                            torch.qint8).int_repr().numpy()
            assert np.array_equal(ours, ref)
        scales = np.float32([0.5, 0.25, 1.0, 2.0, 0.125, 4.0, 0.5, 1.0])
        zps = np.arange(8) - 4
        ours = dnnl.quantize(x, scales, zps, axis=1, dtype="u8")
        q = torch.quantize_per_channel(torch.from_numpy(x), torch.from_numpy(scales.astype(
            np.float64)), torch.from_numpy(zps + 100), 1, torch.quint8)
        assert np.array_equal(dnnl.quantize(x, scales, zps + 100, axis=1, dtype="u8"),
                              q.int_repr().numpy())
        assert np.array_equal(dnnl.dequantize(q.int_repr().numpy(), scales, zps + 100,
                                              axis=1), q.dequantize().numpy())
        assert ours.dtype == np.uint8
        # other scales: torch multiplies by 1/scale; at most one step apart, rarely
        q = torch.quantize_per_tensor(torch.from_numpy(x), 0.037, 2, torch.qint8)
        diff = dnnl.quantize(x, 0.037, 2).astype(int) - q.int_repr().numpy().astype(int)
        assert np.abs(diff).max() <= 1 and np.count_nonzero(diff) <= x.size // 100


# ------------------------------------------------------------------ convert, quantize
def _ref_reorder(x, sdt, ddt, scales=None, zps=None, axis=None, dst_side=True):
    mask = 0 if axis is None else 1 << axis
    q_s = None if scales is None else (mask, np.asarray(scales, np.float32).reshape(-1), ())
    q_z = None if zps is None else (mask, np.asarray(zps).reshape(-1), ())
    kw = ({"dst_scales": q_s, "dst_zp": q_z} if dst_side
          else {"src_scales": q_s, "src_zp": q_z})
    return TR.reference_reorder(TR.codes(x, sdt), sdt, ddt, **kw)


def test_quantize_hand_computed():
    # round half to even, then saturate; zero point added before saturation
    x = np.float32([0.5, 1.5, 2.5, -0.5, -1.5, 1000, -1000, 0.74])
    assert dnnl.quantize(x, 0.5).tolist() == [1, 3, 5, -1, -3, 127, -128, 1]
    assert dnnl.quantize(x, 1.0, 10, dtype="u8").tolist() == [10, 12, 12, 10, 8, 255, 0, 11]
    assert dnnl.dequantize(np.int8([-128, 0, 127]), 0.5, -1).tolist() == [-63.5, 0.5, 64.0]
    assert dnnl.quantize(np.float64(2.5), 1.0).shape == ()


@given(st.data())
def test_quantize_dequantize_match_the_reference(data):
    nd = data.draw(st.integers(1, 4))
    shape = tuple(data.draw(st.lists(st.integers(1, 5), min_size=nd, max_size=nd)))
    axis = data.draw(st.one_of(st.none(), st.integers(0, nd - 1)))
    n = 1 if axis is None else shape[axis]
    seed = data.draw(st.integers(0, 2 ** 16))
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 50).astype(np.float32)
    scales = rng.uniform(0.05, 3, n).astype(np.float32)
    ddt = data.draw(st.sampled_from(["s8", "u8", "s32"]))
    zps = rng.integers(-20, 20, n) + (100 if ddt == "u8" else 0)
    code = int(dnnl.memory.data_type[ddt])
    got = dnnl.quantize(x, scales if axis is not None else scales[0],
                        zps if axis is not None else int(zps[0]), axis=axis, dtype=ddt)
    exp = _ref_reorder(x, TR.R.F32, code, scales, zps, axis)
    assert np.array_equal(got, exp.astype(got.dtype))
    back = dnnl.dequantize(got, scales, zps, axis=axis) if axis is not None else \
        dnnl.dequantize(got, float(scales[0]), int(zps[0]))
    exp_back = _ref_reorder(got, code, TR.R.F32, scales, zps, axis, dst_side=False)
    assert np.array_equal(back, exp_back)


@given(st.data())
def test_convert_layouts_and_types(data):
    dims = data.draw(st.lists(st.integers(1, 9), min_size=4, max_size=4))
    tag = data.draw(st.sampled_from(["nchw", "nhwc", "nChw8c", "nChw16c", "Acdb16a",
                                     "ABcd8b8a", "cdba"]))
    ddt = data.draw(st.sampled_from(["f32", "s8", "u8", "bf16", "f16"]))
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    x = (rng.standard_normal(dims) * 20).astype(np.float32)
    mem = dnnl.convert(x, tag, ddt)
    md = mem.get_desc()
    assert md == dnnl.memory.desc(dims, ddt, tag)
    code = int(md.data_type)
    exp = TR.reference_reorder(x, TR.R.F32, code)
    assert TR.same_values(TR.codes(mem.to_numpy(), code), exp, code).all()
    # and back, from the memory
    back = dnnl.convert(mem, "abcd", "f32")
    assert np.array_equal(np.asarray(back), TR.R.decode(exp, code).astype(np.float32))


def test_convert_scales_per_axis():
    x = np.float32([[1, 2, 3], [4, 5, 6]])
    m = dnnl.convert(x, "ba", "s8", scales=[0.5, 1.0, 2.0], zero_points=[0, 1, -1], axis=1)
    # 3 / 2 - 1 = 0.5 rounds to even: 0
    assert np.asarray(m).tolist() == [[2, 3, 0], [8, 6, 2]]
    assert m.get_desc() == dnnl.memory.desc([2, 3], "s8", "ba")
    back = dnnl.convert(m, "ab", "f32", scales=[0.5, 1.0, 2.0], zero_points=[0, 1, -1],
                        axis=-1)
    assert np.asarray(back).tolist() == [[1, 2, 2], [4, 5, 6]]


@pytest.mark.parametrize("call", [
    lambda: dnnl.quantize(np.float32([1, 2]), [1, 2]),                 # 2 scales, no axis
    lambda: dnnl.quantize(np.float32([1, 2]), [1, 2, 3], axis=0),      # wrong count
    lambda: dnnl.quantize(np.float32([1, 2]), 1.0, 0.5),               # zp not integral
    lambda: dnnl.quantize(np.float32([1, 2]), 1.0, axis=3),            # axis out of range
    lambda: dnnl.quantize(np.float32([1, 2]), 1.0, dtype="f32"),       # not integral
    lambda: dnnl.dequantize(np.float32([1, 2]), 1.0),                  # float input
    lambda: dnnl.convert(np.float32([1, 2]), "ab"),                    # wrong rank
    lambda: dnnl.convert(np.float32([1, 2]), "a", axis=0),             # axis, no scales
    lambda: dnnl.convert(np.float32([1, 2]), "a", "f32", zero_points=1),  # float zp
])
def test_bad_input_raises_dnnl_error(call):
    with pytest.raises(dnnl.error):
        call()


# ------------------------------------------------------------------ resample
@given(st.data())
def test_resample_matches_the_reference(data):
    k = data.draw(st.integers(1, 3))
    n, c = data.draw(st.integers(1, 2)), data.draw(st.integers(1, 5))
    src_sp = data.draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
    dst_sp = data.draw(st.lists(st.integers(1, 9), min_size=k, max_size=k))
    mode = data.draw(st.sampled_from(["linear", "nearest"]))
    last = data.draw(st.booleans())
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    x = rng.standard_normal([n, c] + src_sp).astype(np.float32)
    alg = dnnl.algorithm.resampling_linear if mode == "linear" else \
        dnnl.algorithm.resampling_nearest
    exp = TS.forward(x, dst_sp, alg)
    if last:
        got = dnnl.resample(np.ascontiguousarray(np.moveaxis(x, 1, -1)), dst_sp, mode=mode,
                            layout="nhwc")
        got = np.moveaxis(got, -1, 1)
    else:
        got = dnnl.resample(x, dst_sp, mode=mode)
    assert np.array_equal(got, exp)
    dd = rng.standard_normal([n, c] + dst_sp).astype(np.float32)
    exp_b = TS.backward(dd, src_sp, alg)
    if last:
        got_b = np.moveaxis(dnnl.resample_backward(
            np.ascontiguousarray(np.moveaxis(dd, 1, -1)), src_sp, mode=mode, layout="nhwc"),
            -1, 1)
    else:
        got_b = dnnl.resample_backward(dd, src_sp, mode=mode)
    assert np.array_equal(got_b, exp_b)


def test_resample_factors_and_types():
    x = np.arange(2 * 3 * 5 * 4, dtype=np.uint8).reshape(2, 3, 5, 4)
    out = dnnl.resample(x, factors=(2.0, 1.5))
    assert out.shape == (2, 3, 10, 6) and out.dtype == np.uint8
    assert tuple(TS.dst_dims_from_factors(x.shape, [2.0, 1.5])) == out.shape
    ref = TS.forward(x, (10, 6), dnnl.algorithm.resampling_linear)
    assert np.array_equal(out, TR.R.encode(ref.reshape(-1), TR.R.U8).reshape(out.shape))
    # rows (o + 0.5) * 5 / 3 - 0.5 = 0.33, 2, 3.67; cols (o + 0.5) * 4 / 3 - 0.5 =
    # 0.17, 1.5 (half away from zero: 2), 2.83
    assert dnnl.resample(x, 3, mode="nearest").tolist()[0][0] == \
        x[0, 0][[0, 2, 4]][:, [0, 2, 3]].tolist()


@pytest.mark.parametrize("kw,err", [
    ({"size": 4, "mode": "bicubc"}, ValueError),
    ({"size": 4, "mode": "cubic", "scales": 2.0}, ValueError),
    ({"size": 4, "layout": "nchwc"}, ValueError),
    ({"size": 4, "factors": 2.0}, ValueError),
    ({}, ValueError),
    ({"size": (4, 4, 4)}, ValueError),
    ({"size": 4, "layout": "chwn"}, ValueError),
    ({"size": -1}, ValueError),
])
def test_resample_bad_input(kw, err):
    with pytest.raises(dnnl.error) as e:
        dnnl.resample(np.zeros((1, 2, 3, 3), np.float32), **kw)
    assert isinstance(e.value, err)


def test_resample_needs_a_channel_dim():
    # float64 is taken as f32: tests/arrays/test_array_inputs.py
    with pytest.raises(dnnl.error):
        dnnl.resample(np.zeros((3, 3), np.float32), 6)      # no channel dim


def test_a_repeated_call_creates_nothing():
    # the first call of a definition makes its primitive; the same call again
    # (other values, same shape, types and options) finds it prepared
    x = np.ones((1, 2, 3, 3), np.float32)
    dnnl.resample(x, 5)
    dnnl.quantize(x, 0.5)
    before = dnnl.primitive.cache.stats()
    for k in range(3):
        dnnl.resample(x + k, 5)
        dnnl.quantize(x + k, 0.25 * (k + 1))
    after = dnnl.primitive.cache.stats()
    assert (after["hits"], after["misses"]) == (before["hits"], before["misses"])
    dnnl.quantize(x, 0.5, dtype="u8")       # another definition: one creation
    created = dnnl.primitive.cache.stats()
    assert created["hits"] + created["misses"] == after["hits"] + after["misses"] + 1


def test_memory_keeps_the_array_alive():
    mem = dnnl.memory.from_array(np.full(1000, 3.0, np.float32))
    import gc
    gc.collect()
    assert float(mem.to_numpy()[999]) == 3.0
    addr = mem.get_data_handle()
    assert ctypes.c_float.from_address(addr + 4 * 999).value == 3.0


def test_every_array_function_from_eight_threads_at_once():
    # the prepared calls are shared: eight threads calling every function with
    # their own data (first calls racing to prepare included) get exactly the
    # single-threaded results
    import threading
    rng = np.random.default_rng(5)
    shapes = [(1, 16, 7, 7), (2, 3, 5, 4), (1, 4, 9)]
    inputs = [rng.standard_normal(s).astype(np.float32) * 50 for s in shapes for _ in range(2)]
    calls = [
        lambda x: dnnl.convert(x, "acdb" if x.ndim == 4 else "acb").array.copy(),
        lambda x: dnnl.quantize(x, 0.5, 3, dtype="s8"),
        lambda x: dnnl.quantize(x, np.linspace(0.5, 2, x.shape[1], dtype=np.float32), axis=1,
                                dtype="u8"),
        lambda x: dnnl.dequantize(dnnl.quantize(x, 0.5), 0.5, 1),
        lambda x: dnnl.resample(x, [11] * (x.ndim - 2)),
        lambda x: dnnl.resample(np.ascontiguousarray(np.moveaxis(x, 1, -1)), 3,
                                mode="nearest", layout="nhwc"),
        lambda x: dnnl.resample_backward(x, [2] * (x.ndim - 2)),
        lambda x: dnnl.memory.from_array(x).to_numpy(),
    ]
    _prepared.calls.clear()
    results = [[] for _ in range(8)]      # per thread: (input, call, result)
    errors = []

    def work(t):
        try:
            for _ in range(3):
                for i in range(len(inputs)):
                    j = (i + t) % len(inputs)
                    for c, f in enumerate(calls):
                        results[t].append((j, c, f(inputs[j])))
        except Exception as e:   # noqa: BLE001 (reported below)
            errors.append(e)
    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    _prepared.calls.clear()
    want = [[f(x) for f in calls] for x in inputs]
    assert sum(map(len, results)) == 8 * 3 * len(inputs) * len(calls)
    for per_thread in results:
        for j, c, got in per_thread:
            assert got.dtype == want[j][c].dtype
            np.testing.assert_array_equal(got, want[j][c])


def test_prepared_calls_still_print_verbose_lines():
    # a prepared call runs the plan directly, except while verbose prints
    # execution lines: then every call prints one, the first and the next
    from dnnl import verbose
    got = []
    old_out, old_level = verbose.set_output(got.append), verbose.get_verbose()
    try:
        verbose.set_verbose(1)
        x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
        q = dnnl.quantize(x, 0.5)
        for call in (lambda: dnnl.convert(x, "acdb"), lambda: dnnl.quantize(x, 0.5),
                     lambda: dnnl.dequantize(q, 0.5, 2), lambda: dnnl.resample(x, 3),
                     lambda: dnnl.resample_backward(x, 2)):
            for _ in range(2):
                before = len([line for line in got if ",exec," in line])
                call()
                assert len([line for line in got if ",exec," in line]) == before + 1
    finally:
        verbose.set_verbose(old_level)
        verbose.set_output(old_out)


@pytest.mark.parametrize("seed", range(4))
def test_scale_and_zero_point_as_numbers_or_arrays_agree(seed):
    # per-tensor numbers go to the plan as numbers, anything else as arrays:
    # the same values either way, and the numpy reference's
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((2, 5, 3)) * 40).astype(np.float32)
    scale = float(rng.uniform(0.01, 3))
    zp = int(rng.integers(-20, 20))
    for dtype in ("s8", "u8", "s32"):
        got = dnnl.quantize(x, scale, zp, dtype=dtype)
        np.testing.assert_array_equal(
            got, dnnl.quantize(x, np.float32([scale]), np.int32([zp]), dtype=dtype))
        np.testing.assert_array_equal(
            got, dnnl.quantize(x, np.float32(scale), np.int64(zp), dtype=dtype))
        info = np.iinfo(got.dtype)
        want = np.clip(np.rint(x / np.float32(scale)) + zp, info.min, info.max)
        np.testing.assert_array_equal(got, want.astype(got.dtype))
        back = dnnl.dequantize(got, scale, zp)
        np.testing.assert_array_equal(back, dnnl.dequantize(got, [scale], [zp]))
        np.testing.assert_array_equal(
            back, ((got.astype(np.int32) - zp).astype(np.float32) * np.float32(scale)))


def test_numbers_outside_the_plan_types_take_the_array_route():
    x = np.float32([[1.0, -2.5, 3.25]])
    with pytest.raises(dnnl.error, match="int32"):
        dnnl.quantize(x, 0.5, 2 ** 31)
    with pytest.raises(dnnl.error, match="int32"):
        dnnl.dequantize(np.int8([1, 2]), 0.5, -2 ** 31 - 1)
    with pytest.raises(dnnl.invalid_arguments, match="finite and non-zero"):
        dnnl.dequantize(np.int8([1, 2]), float("nan"))      # refused (issue 44, item 7)
    tiny = dnnl.dequantize(np.int8([1, 2]), 1e-40)          # an f32 subnormal: numbers
    np.testing.assert_array_equal(tiny, np.float32(1e-40) * np.float32([1, 2]))
    huge = dnnl.quantize(x, 2.0 ** 100, dtype="s32")    # in f32's range: numbers
    np.testing.assert_array_equal(huge, np.int32([[0, 0, 0]]))


def test_ready_plan_only_where_addresses_suffice():
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    src = dnnl.memory.desc([1, 3, 4, 4], "f32", "nchw")
    dst = dnnl.memory.desc([1, 3, 4, 4], "f32", "nhwc")
    plain = dnnl.reorder(dnnl.reorder.primitive_desc(eng, src, eng, dst))
    assert plain.ready_plan() is not None and plain.ready_plan().path in ("tile", "copy")
    attr = dnnl.primitive_attr()
    po = dnnl.post_ops()
    po.append_sum(0.5)
    attr.set_post_ops(po)
    summed = dnnl.reorder(dnnl.reorder.primitive_desc(eng, src, eng, dst, attr))
    assert summed.ready_plan() is None        # the sum's beta is execute's
    big = dnnl.memory.desc([1, 3, 8, 8], "f32", "nchw")
    rattr = dnnl.primitive_attr()
    rpo = dnnl.post_ops()
    rpo.append_binary(dnnl.algorithm.binary_add, dnnl.memory.desc([1, 3, 1, 1], "f32", "nchw"))
    rattr.set_post_ops(rpo)
    fwd = dnnl.resampling_forward.primitive_desc(
        eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear, src, big)
    assert dnnl.resampling_forward(fwd).ready_plan() is not None
    with_src1 = dnnl.resampling_forward.primitive_desc(
        eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear, src, big,
        rattr)
    assert dnnl.resampling_forward(with_src1).ready_plan() is None   # src1 is bound


def test_memory_over_an_array_shares_its_bytes_and_its_writability():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    mem = dnnl.memory.from_array(x)
    assert np.shares_memory(mem.array, x) and mem.array.flags.writeable
    mem.array[0, 0, 0] = 7.0
    assert x[0, 0, 0] == 7.0
    x.flags.writeable = False
    ro = dnnl.memory.from_array(x)
    assert not ro.array.flags.writeable
    with pytest.raises(dnnl.error, match="read-only"):     # never written into
        dnnl.reorder(mem, ro).execute(dnnl.stream(dnnl.default_engine()), mem, ro)


@pytest.mark.parametrize("shape", [(1,), (3, 5), (1, 16, 7, 7), (2, 17, 3, 4)])
def test_new_results_are_64_byte_aligned(shape):
    x = np.ones(shape, np.float32)
    plain = "abcd"[:len(shape)]
    for tag in (plain, "nChw16c" if len(shape) == 4 else plain):
        for _ in range(2):          # the first call and the prepared one
            m = dnnl.convert(x, tag)
            assert m.get_data_handle() % 64 == 0
            assert m.array.nbytes == m.get_desc().get_size()
            np.testing.assert_array_equal(np.asarray(m), x)


@pytest.mark.parametrize("ndim", [3, 4, 5])
def test_layout_names_say_where_the_channels_are_for_every_rank(ndim):
    """docs/arrays.md's one rule: each name of a group means the same
    position at every rank, in any letter case; other names are refused."""
    rng = np.random.default_rng(ndim)
    x = rng.random((2, 3) + (4,) * (ndim - 2), np.float32)
    first = dnnl.resample(x, 6)
    # the channels-last answer by hand: move C last, resample as NCHW, move back
    xl = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    last = np.ascontiguousarray(np.moveaxis(dnnl.resample(x, 6), 1, -1))
    for name in ("nchw", "ncw", "ncdhw", "channels_first", "NCHW", "Channels_First"):
        assert np.array_equal(dnnl.resample(x, 6, layout=name), first), name
    for name in ("nhwc", "nwc", "ndhwc", "channels_last", "NHWC", "NWC"):
        assert np.array_equal(dnnl.resample(xl, 6, layout=name), last), name
    for bad in ("nchw16c", "hwcn", "", "channels", None, 4):
        with pytest.raises(dnnl.error) as e:
            dnnl.resample(x, 6, layout=bad)
        assert isinstance(e.value, ValueError) and "where the channels are" in str(e.value)
