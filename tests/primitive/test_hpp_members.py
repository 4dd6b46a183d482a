"""The members of oneDNN 3.13's dnnl.hpp that a CPU answers with fixed
values or statuses: ``memory::data_type_size`` and ``memory::sparse_encoding``,
``memory::unmap_data(ptr, index)``, the cache-blob constructors of
``primitive``, ``reorder`` and ``resampling_*`` and ``get_cache_blob()``,
``primitive_desc``'s ``get_cache_blob_id()``, ``scratchpad_engine()``,
``weights_desc()`` and ``diff_weights_desc()``, the ``set_jit_*`` switches.

Expected values are oneDNN's: ``types::data_type_size`` (src/common/
type_helpers.hpp: the C type's ``sizeof``, 1 for the packed 4-bit types,
``(size_t)-1`` otherwise), ``dnnl_primitive_create_from_cache_blob`` and
``dnnl_primitive_get_cache_blob`` (src/common/primitive_iface.cpp: an empty
blob is invalid_arguments, a CPU engine unimplemented),
``primitive_desc_t::query`` (src/common/primitive_desc.hpp: no answer for
``scratchpad_engine``, the zero md for weights), ``dnnl_set_jit_*``
(src/common/utils.cpp: the mask of known profiling flags). The conformance
test ``test_object_api_service_answers_as_onednn`` checks the same against
real oneDNN.
"""
import ctypes
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl import capi
from dnnl._core.enums import C

pytestmark = pytest.mark.model

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
MD = dnnl.memory.desc([2, 3], "f32", "ab")
SIZE_T_MAX = 2 ** 64 - 1
LINUX = sys.platform.startswith("linux")


def _pds():
    """A primitive descriptor of each kind, with its primitive class."""
    src, dst = dnnl.memory.desc([1, 1, 4], "f32", "ncw"), dnnl.memory.desc([1, 1, 8], "f32", "ncw")
    fwd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_training, dnnl.algorithm.resampling_linear, src, dst)
    bwd = dnnl.resampling_backward.primitive_desc(
        ENG, dnnl.algorithm.resampling_linear, src, dst, fwd)
    return [(dnnl.reorder, dnnl.reorder.primitive_desc(ENG, MD, ENG, MD)),
            (dnnl.resampling_forward, fwd), (dnnl.resampling_backward, bwd)]


class Flat:
    """A flat-API engine, an f32 ab descriptor [2, 3] and, on demand, a
    memory, a reorder pd and a linear resampling pd, destroyed on exit."""

    def __enter__(self):
        self.free = []
        self.eng = self.make(capi.dnnl_engine_destroy, capi.dnnl_engine_create,
                             capi.dnnl_cpu, 0)
        self.md = self.make(capi.dnnl_memory_desc_destroy,
                            capi.dnnl_memory_desc_create_with_tag, 2,
                            (ctypes.c_int64 * 2)(2, 3), capi.dnnl_f32, capi.dnnl_ab)
        return self

    def make(self, destroy, create, *args):
        h = ctypes.c_void_p()
        assert create(ctypes.byref(h), *args) == 0
        self.free.append((destroy, h))
        return h

    def memory(self):
        return self.make(capi.dnnl_memory_destroy, capi.dnnl_memory_create, self.md, self.eng,
                         capi.DNNL_MEMORY_ALLOCATE)

    def reorder_pd(self):
        return self.make(capi.dnnl_primitive_desc_destroy,
                         capi.dnnl_reorder_primitive_desc_create, self.md, self.eng, self.md,
                         self.eng, None)

    def resampling_pd(self):
        src = self.make(capi.dnnl_memory_desc_destroy, capi.dnnl_memory_desc_create_with_tag,
                        3, (ctypes.c_int64 * 3)(1, 1, 4), capi.dnnl_f32, capi.dnnl_ncw)
        return self.make(capi.dnnl_primitive_desc_destroy,
                         capi.dnnl_resampling_forward_primitive_desc_create, self.eng,
                         capi.dnnl_forward_inference, capi.dnnl_resampling_linear,
                         (ctypes.c_float * 1)(2.0), src, None, None)

    def __exit__(self, *exc):
        for destroy, h in reversed(self.free):
            assert destroy(h) == 0


# ------------------------------------------------------------------ memory
# sizeof of each type's C storage (oneDNN's prec_traits), 1 for the 4-bit ones
SIZES = {"f16": 2, "bf16": 2, "f32": 4, "s32": 4, "s8": 1, "u8": 1, "f64": 8,
         "boolean": 1, "f8_e5m2": 1, "f8_e4m3": 1, "s4": 1, "u4": 1, "e8m0": 1,
         "f4_e2m1": 1, "f4_e3m0": 1, "s64": 8}


def test_data_type_size_is_onednns():
    for name, size in SIZES.items():
        dt = dnnl.memory.data_type[name]
        assert dnnl.memory.data_type_size(dt) == size, name
        assert dnnl.memory.data_type_size(name) == size
        assert dnnl.memory.data_type_size(dt) == capi.dnnl_data_type_size(int(dt))
    assert dnnl.memory.data_type_size(dnnl.memory.data_type.undef) == SIZE_T_MAX
    assert capi.dnnl_data_type_size(0) == SIZE_T_MAX
    # every data type of the header has a size here
    assert dnnl.memory.data_type_size(dnnl.memory.data_type.max) == SIZE_T_MAX
    assert {dt.name for dt in dnnl.memory.data_type} - {"undef", "max"} == set(SIZES)


def test_data_type_size_refuses_what_is_no_data_type():
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.memory.data_type_size("f33")
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.memory.data_type_size(9999)
    for bad in (None, 3.0, [3]):
        with pytest.raises(TypeError):
            dnnl.memory.data_type_size(bad)
    with pytest.raises(TypeError):
        dnnl.memory.data_type_size(dnnl.format_tag.ab)      # another enum


def test_sparse_encoding_is_the_headers_enum():
    enc = dnnl.memory.sparse_encoding
    assert [(m.name, int(m)) for m in enc] == [
        ("undef", C["dnnl_sparse_encoding_undef"]), ("csr", C["dnnl_csr"]),
        ("packed", C["dnnl_packed"]), ("coo", C["dnnl_coo"]), ("grouped", C["dnnl_grouped"])]
    md = dnnl.memory.desc.csr([4, 4], "f32", 3, "s32", "s32")
    assert md.get_sparse_encoding() is enc.csr
    assert MD.get_sparse_encoding() is enc.undef


def test_unmap_data_takes_a_buffer_index():
    mem = dnnl.memory(MD, ENG)
    view = mem.map_data()
    assert mem.unmap_data(view) is None
    assert mem.unmap_data(view, 0) is None
    assert mem.unmap_data(None, index=0) is None      # any pointer, as on oneDNN's CPU
    for idx in (1, -1, 2 ** 40):
        with pytest.raises(dnnl.invalid_arguments, match="not a buffer"):
            mem.unmap_data(view, idx)
    for idx in (1.0, "0", None):
        with pytest.raises(TypeError):
            mem.unmap_data(view, idx)
    md = dnnl.memory.desc.csr([4, 4], "f32", 3, "s32", "s32")
    sparse = dnnl.memory(md, ENG)
    for idx in range(md.get_num_handles()):
        sparse.unmap_data(sparse.map_data(index=idx), idx)
    with pytest.raises(dnnl.invalid_arguments):
        sparse.unmap_data(None, md.get_num_handles())


def test_flat_unmap_v2_is_the_object_call():
    with Flat() as f:
        mem = f.memory()
        assert capi.dnnl_memory_unmap_data_v2(mem, None, 0) == 0
        assert capi.dnnl_memory_unmap_data_v2(mem, None, 1) == C["dnnl_invalid_arguments"]
        assert capi.dnnl_memory_unmap_data_v2(mem, None, -1) == C["dnnl_invalid_arguments"]
        assert capi.dnnl_memory_unmap_data(mem, None) == 0


# ------------------------------------------------------------- cache blobs
@pytest.mark.parametrize("blob", [b"\x01", bytearray(b"ab"), memoryview(b"xyz"), [0, 255],
                                  (7,), np.arange(4, dtype=np.uint8)])
def test_a_cache_blob_is_unimplemented_on_a_cpu(blob):
    for cls, pd in _pds():
        with pytest.raises(dnnl.unimplemented, match="from its descriptor alone"):
            cls(pd, blob)
        with pytest.raises(dnnl.unimplemented):
            dnnl.primitive.primitive(pd, blob)          # dnnl::primitive(pd, cache_blob)


@pytest.mark.parametrize("blob", [b"", [], bytearray(), np.zeros(0, np.uint8)])
def test_an_empty_cache_blob_is_invalid(blob):
    for cls, pd in _pds():
        with pytest.raises(dnnl.invalid_arguments, match="empty"):
            cls(pd, blob)


def test_cache_blob_arguments_are_checked():
    cls, pd = _pds()[0]
    for bad in ("ab", None, 3, 1.5, {1: 2}, [1.0], [[1]]):
        with pytest.raises(TypeError):
            cls(pd, bad)
    with pytest.raises(dnnl.invalid_arguments, match="0..255"):
        cls(pd, [256])
    with pytest.raises(dnnl.invalid_arguments, match="0..255"):
        cls(pd, [-1])
    with pytest.raises(TypeError):
        cls(pd, b"x", b"y")
    with pytest.raises(TypeError):
        dnnl.resampling_forward(_pds()[1][1], b"x", cache_blob=b"y")
    empty = dnnl.reorder.primitive_desc(ENG, MD, ENG, dnnl.memory.desc([3, 3], "f32", "ab"),
                                        allow_empty=True)
    assert not empty
    with pytest.raises(dnnl.invalid_arguments, match="empty primitive descriptor"):
        dnnl.reorder(empty, b"x")
    # a descriptor of another kind, as dnnl::reorder(resampling_pd, blob) cannot compile
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.resampling_forward(_pds()[0][1], b"x")


def test_the_flat_api_answers_the_same_statuses():
    blob = (ctypes.c_uint8 * 2)(1, 2)
    with Flat() as f:
        for pd in (f.reorder_pd(), f.resampling_pd()):
            prim = ctypes.c_void_p()
            assert capi.dnnl_primitive_create_from_cache_blob(
                ctypes.byref(prim), pd, 2, blob) == C["dnnl_unimplemented"]
            assert capi.dnnl_primitive_create_from_cache_blob(
                ctypes.byref(prim), pd, 0, blob) == C["dnnl_invalid_arguments"]
            assert capi.dnnl_primitive_create_from_cache_blob(
                ctypes.byref(prim), pd, 2, None) == C["dnnl_invalid_arguments"]
            assert prim.value is None


def test_get_cache_blob_is_unimplemented_on_a_cpu():
    for cls, pd in _pds():
        prim = cls(pd)
        with pytest.raises(dnnl.unimplemented, match="cache blob"):
            prim.get_cache_blob()
        assert pd.get_cache_blob_id() == b""


# ---------------------------------------------------- descriptor queries
def test_weights_queries_give_the_zero_md():
    zero = dnnl.memory.desc()
    for _, pd in _pds():
        for q in (pd.weights_desc, pd.diff_weights_desc):
            assert q() == zero and q().ndims == 0 and q().get_size() == 0
            assert q(0) == zero and q(1) == zero and q(idx=2) == zero
        assert pd.weights_desc() == pd.query_md(dnnl.query.weights_md)
        with pytest.raises(TypeError):
            pd.weights_desc(1.0)


def test_scratchpad_engine_is_unimplemented_as_in_onednn():
    for _, pd in _pds():
        with pytest.raises(dnnl.unimplemented, match="scratchpad engine"):
            pd.scratchpad_engine()
    with Flat() as f:
        for pd in (f.reorder_pd(), f.resampling_pd()):
            out = ctypes.c_void_p(7)
            assert capi.dnnl_primitive_desc_query(pd, C["dnnl_query_scratchpad_engine"], 0,
                                                  ctypes.byref(out)) == C["dnnl_unimplemented"]
            assert out.value == 7       # nothing written
            for q in ("weights_md", "diff_weights_md"):
                md = capi.dnnl_primitive_desc_query_md(pd, C["dnnl_query_" + q], 0)
                nd = ctypes.c_int(-1)
                assert capi.dnnl_memory_desc_query(md, C["dnnl_query_ndims_s32"],
                                                   ctypes.byref(nd)) == 0
                assert nd.value == 0


# ------------------------------------------------------------ JIT switches
KNOWN_FLAGS = (C["DNNL_JIT_PROFILE_VTUNE"] | C["DNNL_JIT_PROFILE_LINUX_PERF"]
               | C["DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC"]) if LINUX else 1


@given(st.integers(0, 2 ** 32 - 1))
def test_jit_profiling_flags_accept_onednns_bits_only(flags):
    want = (dnnl.status.success if flags & ~KNOWN_FLAGS == 0
            else dnnl.status.invalid_arguments)
    try:
        assert dnnl.set_jit_profiling_flags(flags) is want
        assert capi.dnnl_set_jit_profiling_flags(flags) == want
    finally:
        dnnl.set_jit_profiling_flags(C["DNNL_JIT_PROFILE_VTUNE"])     # oneDNN's default


def test_jit_switches_return_statuses():
    assert KNOWN_FLAGS == (15 if LINUX else 1)
    assert dnnl.set_jit_profiling_flags(-1) is dnnl.status.invalid_arguments
    assert capi.dnnl_set_jit_profiling_flags(-1) == C["dnnl_invalid_arguments"]
    for enable in (0, 1, True, -5):
        assert dnnl.set_jit_dump(enable) is dnnl.status.success
        assert capi.dnnl_set_jit_dump(int(enable)) == 0
    dnnl.set_jit_dump(0)
    want = dnnl.status.success if LINUX else dnnl.status.unimplemented
    assert dnnl.set_jit_profiling_jitdumpdir("/tmp") is want
    assert dnnl.set_jit_profiling_jitdumpdir(b"/tmp") is want
    assert capi.dnnl_set_jit_profiling_jitdumpdir(b"/tmp") == want
    assert capi.dnnl_set_jit_profiling_jitdumpdir(ctypes.c_char_p(b"/tmp")) == want
    assert capi.dnnl_set_jit_profiling_jitdumpdir(None) == want
    for bad in (3, ["/tmp"]):
        with pytest.raises(TypeError):
            dnnl.set_jit_profiling_jitdumpdir(bad)
    for bad in ("1", 1.0, None):
        with pytest.raises(TypeError):
            dnnl.set_jit_dump(bad)
        with pytest.raises(TypeError):
            dnnl.set_jit_profiling_flags(bad)
