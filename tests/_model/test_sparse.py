"""Sparse descriptors, memories over several handles and host scalars.

Expected values are oneDNN 3.13.2's, measured with the programs of
tests/conformance/test_sparse_oracle.py (which compares everything here
against real oneDNN when it is installed), or read from its source
(src/common/memory_desc_wrapper.hpp ``size``, src/common/verbose.cpp
``md2fmt_str``).
"""
import ctypes
import pickle

import numpy as np
import pytest

import dnnl
from dnnl._core import format as _format
from dnnl import capi as lib

pytestmark = pytest.mark.compiled

desc = dnnl.memory.desc
dt, fk, enc = dnnl.memory.data_type, dnnl.memory.format_kind, dnnl._core.enums.sparse_encoding
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)


# -------------------------------------------------------------- descriptors
def test_csr_facts_measured_on_onednn():
    md = desc.csr([16, 32], "f32", 40, "s32", "s32")
    assert md.get_format_kind() == fk.sparse and md.get_sparse_encoding() == enc.csr
    assert md.get_num_handles() == 3 and md.get_nnz() == 40
    assert [md.get_size(i) for i in range(-1, 5)] == [0, 160, 160, 68, 0, 0]
    assert md.get_size() == 160
    assert [md.get_data_type(i) for i in range(4)] == [dt.f32, dt.s32, dt.s32, dt.undef]
    assert md.get_dims() == md.get_padded_dims() == [16, 32] and md.get_strides() == []


def test_coo_and_packed():
    coo = desc.coo([16, 32], "f32", 40, "s8")
    assert coo.get_num_handles() == 3
    assert [coo.get_size(i) for i in range(4)] == [160, 40, 40, 0]
    # COO answers metadata_types[0] for every buffer index (oneDNN reads no other)
    assert [coo.get_data_type(i) for i in (1, 2, 7)] == [dt.s8] * 3
    packed = desc.packed([16, 32], "f32", 40)
    assert packed.get_num_handles() == 3
    assert [packed.get_size(i) for i in range(3)] == [0, 0, 0]   # no layout yet


def test_odd_sparse_input_as_onednn():
    # a negative nnz is accepted; its sizes wrap as a C size_t
    neg = desc.csr([16, 32], "f32", -5, "s32", "s32")
    assert [neg.get_size(i) for i in range(3)] == [2 ** 64 - 20, 2 ** 64 - 20, 68]
    with pytest.raises(dnnl.error) as e:                  # at most 2 dims for CSR/COO
        desc.csr([2, 3, 4], "f32", 4, "s32", "s32")
    assert e.value.status == dnnl.status.unimplemented
    assert desc.csr([2, 3, 4], "f32", 4, "s32", "s32", allow_empty=True).is_zero()
    assert desc.packed([2, 3, 4], "f32", 4).get_num_handles() == 3
    with pytest.raises(dnnl.error) as e:
        desc.csr([-1, 3], "f32", 4, "s32", "s32")
    assert e.value.status == dnnl.status.invalid_arguments
    assert desc.csr([], "f32", 4, "s32", "s32").is_zero()
    # query_v2(data_type, index) reads metadata_types[index - 1] unbounded:
    # -1 is the low half of nnz, -3 the encoding, 3 the zero-filled packed part
    md = desc.csr([16, 32], "f32", 2 ** 33 + 7, "s32", "s8")
    assert [md.query_data_type(i) for i in (-1, -2, 2, 3)] == [7, dt.undef, dt.s8, dt.undef]
    assert md.query_data_type(-3) == int(enc.csr)


def test_equality_hash_pickle_repr():
    a = desc.csr([16, 32], "f32", 40, "s32", "s32")
    same = desc.csr([16, 32], "f32", 40, "s32", "s32")
    others = [desc.csr([16, 32], "f32", 41, "s32", "s32"),
              desc.csr([16, 32], "f32", 40, "s8", "s32"),
              desc.coo([16, 32], "f32", 40, "s32"), desc.packed([16, 32], "f32", 40),
              desc([16, 32], "f32", "ab")]
    assert a == same and hash(a) == hash(same)
    assert all(a != o for o in others)
    for md in [a] + others + [desc.host_scalar("f32")]:
        assert pickle.loads(pickle.dumps(md)) == md
    assert repr(a) == "<dnnl.memory.desc f32 16x32 sparse csr nnz 40 indices s32 pointers s32>"
    assert repr(desc.host_scalar("s8")) == "<dnnl.memory.desc s8 host_scalar>"


def test_host_scalar_desc_facts_measured_on_onednn():
    md = desc.host_scalar("f32")
    assert md.get_format_kind() == fk.host_scalar and md.get_ndims() == 1
    assert md.get_dims() == [1] and md.get_padded_dims() == [0]   # left 0 by oneDNN
    assert [md.get_size(i) for i in (-1, 0, 3)] == [4, 4, 4]
    assert md.get_num_handles() == 1
    assert md == desc.host_scalar(dt.f32) and md != desc.host_scalar("s32")
    assert md != desc([1], "f32", "a")
    assert desc.host_scalar("s4").get_size() == 1
    with pytest.raises(dnnl.error):
        desc.host_scalar("undef")


def test_verbose_spelling_from_md2fmt_str():
    assert _format.md_str("src", desc.csr([4, 4], "f32", 3, "s32", "s32")) == \
        "src:f32::sparse:csr::f0"
    # padded dims {0} differ from dims {1}: "p"; dnnl_fmt_kind2str knows no host_scalar
    assert _format.md_str("src", desc.host_scalar("f32")) == "src:f32:p:unknown fmt_kind:::f0"


# ------------------------------------------------------------------ memories
def test_csr_memory_over_three_arrays():
    md = desc.csr([4, 6], "f32", 5, "s32", "s32")
    values = np.arange(5, dtype=np.float32)
    indices = np.array([0, 2, 5, 1, 3], np.int32)
    pointers = np.array([0, 2, 3, 3, 5], np.int32)
    mem = dnnl.memory(md, ENG, [values, indices, pointers])
    assert [mem.get_data_handle(i) for i in range(3)] == [a.ctypes.data for a in
                                                         (values, indices, pointers)]
    assert mem.map_data(index=1).tolist() == indices.tolist()
    mem.set_data_handle(pointers, 1)
    assert mem.get_data_handle(1) == pointers.ctypes.data
    with pytest.raises(dnnl.error):
        mem.get_data_handle(3)
    with pytest.raises(TypeError):          # indices must be the index type
        dnnl.memory(md, ENG, [values, values, pointers])
    copy = pickle.loads(pickle.dumps(mem))
    assert copy.map_data(index=2).tolist() == pointers.tolist()
    with pytest.raises(dnnl.error):
        mem.to_numpy()


def test_sparse_memory_allocates_every_buffer():
    mem = dnnl.memory(desc.csr([16, 32], "f32", 40, "s32", "s32"), ENG)
    assert all(mem.get_data_handle(i) for i in range(3))
    assert [mem.map_data(np.uint8, index=i).size for i in range(3)] == [160, 160, 68]
    packed = dnnl.memory(desc.packed([16, 32], "f32", 40), ENG)
    assert [packed.get_data_handle(i) for i in range(3)] == [0, 0, 0]
    with pytest.raises(dnnl.error) as e:       # a negative nnz cannot be allocated
        dnnl.memory(desc.csr([16, 32], "f32", -5, "s32", "s32"), ENG)
    assert e.value.status == dnnl.status.out_of_memory


def test_host_scalar_memory():
    md = desc.host_scalar("f32")
    mem = dnnl.memory(md, 2.5)
    assert mem.get_host_scalar_value() == 2.5 and mem.get_engine() is None
    mem.set_host_scalar_value(4)
    assert mem.get_host_scalar_value() == 4.0
    assert pickle.loads(pickle.dumps(mem)).get_host_scalar_value() == 4.0
    assert repr(mem) == "<dnnl.memory <dnnl.memory.desc f32 host_scalar> value=4.0>"
    for bad in (mem.get_data_handle, lambda: mem.set_data_handle(0),
                lambda: dnnl.memory(md, ENG),
                lambda: dnnl.memory(desc([1], "f32", "a"), ENG).get_host_scalar_value()):
        with pytest.raises(dnnl.error) as e:
            bad()
        assert e.value.status == dnnl.status.invalid_arguments
    s32 = dnnl.memory(desc.host_scalar("s32"), -3)
    assert s32.get_host_scalar_value() == -3 and s32.map_data().tolist() == [-3]


def test_host_scale_of_a_reorder():
    md = desc([2, 4], "f32", "ab")
    attr = dnnl.primitive_attr()
    attr.set_scales(dnnl.DNNL_ARG_SRC, 0, (), "f32", True)
    reorder = dnnl.reorder(dnnl.reorder.primitive_desc(ENG, md, ENG, md, attr))
    src, dst = dnnl.memory(md, ENG), dnnl.memory(md, ENG)
    src.from_numpy(np.arange(8, dtype=np.float32).reshape(2, 4))
    for scale in (dnnl.memory(desc.host_scalar("f32"), 2.0),        # oneDNN reads both
                  dnnl.memory.from_array(np.array([2.0], np.float32))):
        reorder.execute(dnnl.stream(ENG), {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst,
                                           dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_SRC: scale})
        assert dst.to_numpy().tolist() == [[0, 2, 4, 6], [8, 10, 12, 14]]
    with pytest.raises(dnnl.error) as e:      # no CPU reorder to or from sparse
        dnnl.reorder.primitive_desc(ENG, md, ENG, desc.csr([2, 4], "f32", 3, "s32", "s32"))
    assert e.value.status == dnnl.status.unimplemented


# ------------------------------------------------------------------ flat API
def test_flat_api_round_trip():
    md, mem = ctypes.c_void_p(), ctypes.c_void_p()
    dims = (ctypes.c_int64 * 2)(16, 32)
    assert lib.dnnl_memory_desc_create_with_csr_encoding(
        ctypes.byref(md), 2, dims, lib.dnnl_f32, 40, lib.dnnl_s32, lib.dnnl_s32) == 0
    n = ctypes.c_int32()
    assert lib.dnnl_memory_desc_query_v2(md, lib.dnnl_query_num_handles_s32, 0,
                                         ctypes.byref(n)) == 0 and n.value == 3
    assert lib.dnnl_memory_desc_query_v2(md, lib.dnnl_query_nnz_s64, 1,
                                         ctypes.byref(ctypes.c_int64())) == 2
    assert [lib.dnnl_memory_desc_get_size_v2(md, i) for i in range(3)] == [160, 160, 68]
    hs, v = ctypes.c_void_p(), ctypes.c_float(2.5)
    assert lib.dnnl_memory_desc_create_host_scalar(ctypes.byref(hs), lib.dnnl_f32) == 0
    assert lib.dnnl_memory_create_host_scalar(ctypes.byref(mem), hs, ctypes.byref(v)) == 0
    out = ctypes.c_float()
    assert lib.dnnl_memory_get_host_scalar_value(mem, ctypes.byref(out)) == 0
    assert out.value == 2.5
    assert lib.dnnl_memory_get_data_handle(mem, ctypes.byref(ctypes.c_void_p())) == 2
    for h in (mem, md, hs):
        (lib.dnnl_memory_destroy if h is mem else lib.dnnl_memory_desc_destroy)(h)



def test_blob_round_trip():
    """dnnl_memory_desc_get_blob / create_with_blob give the descriptor back
    (a blob is this library's own serialisation: round trips are what is defined)."""
    d = ctypes.c_int64 * 12
    makers = [
        lambda p: lib.dnnl_memory_desc_create_with_csr_encoding(
            p, 2, d(16, 32), lib.dnnl_f32, 40, lib.dnnl_s32, lib.dnnl_s8),
        lambda p: lib.dnnl_memory_desc_create_with_coo_encoding(p, 1, d(9), lib.dnnl_s8, -3,
                                                                lib.dnnl_s32),
        lambda p: lib.dnnl_memory_desc_create_with_packed_encoding(p, 4, d(1, 2, 3, 4),
                                                                   lib.dnnl_f32, 4),
        lambda p: lib.dnnl_memory_desc_create_host_scalar(p, lib.dnnl_bf16)]
    for make in makers:
        md, out, size = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_size_t()
        assert make(ctypes.byref(md)) == 0
        assert lib.dnnl_memory_desc_get_blob(None, ctypes.byref(size), md) == 0
        blob = (ctypes.c_uint8 * size.value)()
        assert lib.dnnl_memory_desc_get_blob(blob, ctypes.byref(size), md) == 0
        assert lib.dnnl_memory_desc_create_with_blob(ctypes.byref(out), blob) == 0
        assert lib.dnnl_memory_desc_equal(md, out) == 1
        blob[6 * 8] = 9                     # the encoding word: no such encoding
        assert lib.dnnl_memory_desc_create_with_blob(ctypes.byref(ctypes.c_void_p()),
                                                     blob) == lib.dnnl_invalid_arguments
        for h in (md, out):
            assert lib.dnnl_memory_desc_destroy(h) == 0


JUNK = [None, "x", b"ab", 2.5, float("nan"), True, [], {}, object(), 2 ** 64, -1, 2 ** 63,
        np.float32(1.5), "f32", [1.5], ["1"], np.array([[1]]), {2, 3},
        dnnl.memory.format_tag.nchw, dnnl.prop_kind.forward_training, dt.s8, 3, 0]


def test_junk_to_every_new_callable(call_with_junk):
    """Junk arguments to the sparse / host-scalar objects' public methods and
    constructors: only dnnl.error comes out (wrong arity is Python's)."""
    import inspect
    import random
    sparse = dnnl.memory(desc.csr([4, 6], "f32", 5, "s32", "s32"), ENG)
    scalar = dnnl.memory(desc.host_scalar("f32"), 1.0)
    objs = [sparse, scalar, sparse.get_desc(), scalar.get_desc()]
    targets = [getattr(o, n) for o in objs for n in dir(o)
               if not n.startswith("_") and not inspect.isdatadescriptor(getattr(type(o), n, None))
               and callable(getattr(o, n)) and not isinstance(getattr(o, n), type)]
    targets += [desc.csr, desc.coo, desc.packed, desc.host_scalar, dnnl.memory]
    raw = call_with_junk([(fn.__name__, fn) for fn in targets], JUNK + objs,
                         random.Random(11), calls=60, most_args=5)
    assert not raw, "\n".join(raw[:10])


# ------------------------------------------------------------ handle lists
def test_a_handle_list_has_one_handle_per_buffer():
    dense = desc([2, 3], "f32", "ab")
    csr = desc.csr([4, 6], "f32", 5, "s32", "s32")
    # the call: a list as long as the descriptor's bytes
    for md, handles in ((dense, [0] * dense.get_size()), (dense, []), (dense, [0, 0]),
                        (csr, [0]), (csr, [0] * 4), (desc(), [0, 0])):
        with pytest.raises(dnnl.error) as info:
            dnnl.memory(md, ENG, handles)
        assert info.value.status == dnnl.status.invalid_arguments
        assert isinstance(info.value, ValueError)
        assert "one per buffer" in str(info.value)
    assert dnnl.memory(dense, ENG, [dnnl.DNNL_MEMORY_ALLOCATE]).get_data_handle()
    assert dnnl.memory(desc(), ENG, (0,)).get_data_handle() == 0
    with pytest.raises(dnnl.error, match="format any"):
        dnnl.memory(desc([2, 3], "f32", "any"), ENG, [0])


def test_the_flat_api_takes_any_count_as_onednn():
    # measured on oneDNN 3.13.2 (tests/conformance/test_bad_input_oracle.py):
    # dnnl_memory_create_v2 keeps every handle given, past the descriptor's
    P = ctypes.c_void_p
    eng, md = P(), P()
    assert lib.dnnl_engine_create(ctypes.byref(eng), lib.dnnl_cpu, 0) == 0
    assert lib.dnnl_memory_desc_create_with_tag(
        ctypes.byref(md), 2, (ctypes.c_int64 * 2)(2, 3), lib.dnnl_f32, lib.dnnl_ab) == 0
    for n in (1, 2, 192):
        mem, h = P(), P(1)
        assert lib.dnnl_memory_create_v2(ctypes.byref(mem), md, eng, n, (P * n)()) == 0
        assert lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), n - 1) == 0
        assert h.value is None
        assert lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), n) == \
            lib.dnnl_invalid_arguments
        assert lib.dnnl_memory_destroy(mem) == 0
    for h, fn in ((md, lib.dnnl_memory_desc_destroy), (eng, lib.dnnl_engine_destroy)):
        assert fn(h) == 0


def test_a_buffer_index_is_an_integer():
    mem = dnnl.memory(desc([2, 3], "f32", "ab"), ENG)
    for index in (np.array([0]), np.array([1.5, 2.5]), "0", 0.0, None):
        for call in (lambda: mem.get_data_handle(index), lambda: mem.map_data(index=index),
                     lambda: mem.set_data_handle(dnnl.DNNL_MEMORY_ALLOCATE, None, index)):
            with pytest.raises(dnnl.error) as info:
                call()
            assert isinstance(info.value, TypeError)
    assert mem.get_data_handle(np.int64(0)) == mem.get_data_handle()
