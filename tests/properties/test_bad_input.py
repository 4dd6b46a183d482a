"""Bad input and edge cases, a section for each kind of misuse.

Every bad argument of the object API raises a ``dnnl.error`` subclass that is
also the matching built-in (``dnnl.invalid_type`` / ``TypeError`` for a wrong
type, ``dnnl.invalid_arguments`` / ``ValueError`` for a wrong value); the flat
API returns the status. Statuses marked "measured" were read from real
oneDNN 3.13.2 (tests/conformance/test_bad_input_oracle.py runs the same
ctypes program against it).
"""
import ctypes
import pickle

import ml_dtypes
import numpy as np
import pytest

import dnnl
from dnnl import capi

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STRM = dnnl.stream(ENG)
P = ctypes.c_void_p
INVALID = int(dnnl.status.invalid_arguments)


def dims(*v):
    return (ctypes.c_int64 * 12)(*v)


def md_tag(shape, dt="f32", tag=None):
    return dnnl.memory.desc(shape, dt, tag or "abcdefghijkl"[:len(shape)])


# ------------------------------------------------------------------ errors
def test_error_classes_are_exported_and_are_builtins():
    assert issubclass(dnnl.invalid_arguments, dnnl.error)
    assert issubclass(dnnl.invalid_arguments, ValueError)
    assert issubclass(dnnl.invalid_type, dnnl.error)
    assert issubclass(dnnl.invalid_type, TypeError)
    assert not issubclass(dnnl.invalid_type, ValueError)
    assert issubclass(dnnl.unimplemented, NotImplementedError)
    assert issubclass(dnnl.out_of_memory, MemoryError)
    assert issubclass(dnnl.runtime_error, RuntimeError)
    e = dnnl.error(dnnl.status.invalid_arguments, "x")
    assert type(e) is dnnl.invalid_arguments
    with pytest.raises(dnnl.invalid_type) as info:
        dnnl.memory.desc(5, "f32", "a")
    assert info.value.status == dnnl.status.invalid_arguments
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is dnnl.invalid_type and again.message == info.value.message


# -------------------------------------------- queries on empty descriptors
def test_queries_on_the_zero_and_any_descriptors_are_empty():
    for md in (dnnl.memory.desc(), md_tag([2, 3], "f32", "any")):
        assert md.get_strides() == []
        assert md.get_inner_blks() == []
        assert md.get_inner_idxs() == []
        assert md.get_inner_nblks() == 0
    # the C API keeps its status for these queries on a non-blocked md
    z = P()
    assert capi.dnnl_memory_desc_create_with_tag(ctypes.byref(z), 0, dims(), capi.dnnl_f32,
                                                 capi.dnnl_a) == 0
    out = P()
    assert capi.dnnl_memory_desc_query(z, capi.dnnl_query_strides, ctypes.byref(out)) == INVALID
    n = ctypes.c_int32(-1)
    assert capi.dnnl_memory_desc_query(z, capi.dnnl_query_inner_nblks_s32,
                                       ctypes.byref(n)) == INVALID
    assert capi.dnnl_memory_desc_query(z, capi.dnnl_query_ndims_s32, ctypes.byref(n)) == 0
    assert n.value == 0
    capi.dnnl_memory_desc_destroy(z)


# ----------------------------------------------------------------- reshape
def test_reshape_never_gives_a_broken_descriptor():
    md = md_tag([3, 1, 2, 8], "f32", "aBcd16b")
    with pytest.raises(dnnl.invalid_arguments):
        md.reshape([48])
    with pytest.raises(dnnl.invalid_arguments):
        md.reshape([3, 16])
    ok = md.reshape([3, 1, 16])            # the blocked dim kept on its own
    assert ok.get_size() == md.get_size() == 3 * 16 * 2 * 8 * 4
    assert ok.get_inner_idxs() == [1] and ok.get_padded_dims() == [3, 16, 16]
    plain = md_tag([3, 2, 8], "f32", "abc").reshape([48])
    assert plain.get_size() == 48 * 4


# -------------------------------------- sizes and statuses of the flat API
def _status_tag(shape, dt, tag):
    md = P()
    st = capi.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(shape), dims(*shape),
                                               dt, tag)
    if st == 0:
        capi.dnnl_memory_desc_destroy(md)
    return st


def test_statuses_match_oneDNN():
    # fill_blocked's own size guard (measured: [2**31 - 1, 8] f32 ab is refused)
    assert _status_tag([2 ** 31 - 1, 8], capi.dnnl_f32, capi.dnnl_ab) == INVALID
    assert _status_tag([2 ** 30, 4], capi.dnnl_f32, capi.dnnl_ab) == INVALID
    assert _status_tag([2 ** 29 + 1, 8], capi.dnnl_f32, capi.dnnl_ab) == 0
    assert _status_tag([2 ** 61], capi.dnnl_f32, capi.dnnl_a) == 0
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.memory.desc([2 ** 31 - 1, 8], "f32", "ab")
    assert dnnl.memory.desc([2 ** 31 - 1, 8], "f32", []).get_size() == (2 ** 31 - 1) * 32
    # negative ndims
    md = P()
    assert capi.dnnl_memory_desc_create_with_tag(ctypes.byref(md), -1, dims(2), capi.dnnl_f32,
                                                 capi.dnnl_a) == INVALID
    assert capi.dnnl_memory_desc_create_with_strides(ctypes.byref(md), -1, dims(2),
                                                     capi.dnnl_f32, None) == INVALID
    eng = P()
    assert capi.dnnl_engine_create(ctypes.byref(eng), capi.dnnl_cpu, 0) == 0
    mem = P()
    assert capi.dnnl_memory_create(ctypes.byref(mem), None, eng, None) == INVALID
    attr = P()
    capi.dnnl_primitive_attr_create(ctypes.byref(attr))
    assert capi.dnnl_primitive_attr_set_dropout(attr, None) == INVALID
    strm = P()
    for flags, st in ((0, INVALID), (8, INVALID), (1, 0), (3, 0),
                      (5, int(dnnl.status.unimplemented))):
        assert capi.dnnl_stream_create(ctypes.byref(strm), eng, flags) == st, flags
    assert capi.dnnl_memory_desc_equal(None, None) == 1
    po = P()
    capi.dnnl_post_ops_create(ctypes.byref(po))
    assert capi.dnnl_post_ops_append_sum(po, ctypes.c_float(1), 0, 999) == 0
    assert capi.dnnl_post_ops_append_dw(po, 999, 998, 997, 3, 1, 1) == 0
    dt = ctypes.c_int()
    assert capi.dnnl_post_ops_get_params_sum(po, 0, None, None, ctypes.byref(dt)) == 0
    assert dt.value == 999
    a = P()
    capi.dnnl_memory_desc_create_with_tag(ctypes.byref(a), 1, dims(4), capi.dnnl_f32,
                                          capi.dnnl_a)
    res = ctypes.c_int32()
    assert capi.dnnl_memory_desc_query_v2(a, capi.dnnl_query_ndims_s32, -1,
                                          ctypes.byref(res)) == 0
    assert res.value == 1
    assert capi.dnnl_memory_desc_query_v2(a, capi.dnnl_query_ndims_s32, 1,
                                          ctypes.byref(res)) == INVALID
    assert "index 1" in str(capi.last_error())
    bufs = [(ctypes.c_float * 4)(), (ctypes.c_float * 4)()]
    handles = (P * 2)(*[ctypes.addressof(b) for b in bufs])
    assert capi.dnnl_memory_create_v2(ctypes.byref(mem), a, eng, 2, handles) == 0
    for i in (0, 1):
        h = P()
        assert capi.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), i) == 0
        assert h.value == ctypes.addressof(bufs[i])
    assert capi.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(P()), 2) == INVALID
    capi.dnnl_memory_destroy(mem)
    assert capi.dnnl_primitive_attr_set_precomputed_reductions(
        attr, capi.DNNL_ARG_WEIGHTS, 1, 2, dims(4, 1), capi.dnnl_s32) == INVALID
    assert capi.dnnl_primitive_attr_set_precomputed_reductions(
        attr, capi.DNNL_ARG_SRC, 1, 2, dims(4, 1), capi.dnnl_s32) == 0
    big = P()
    assert capi.dnnl_memory_desc_create_with_tag(ctypes.byref(big), 1, dims(2 ** 63 - 1),
                                                 capi.dnnl_u8, capi.dnnl_a) == 0
    assert capi.dnnl_memory_create(ctypes.byref(mem), big, eng,
                                   P(capi.DNNL_MEMORY_ALLOCATE)) == int(
                                       dnnl.status.out_of_memory)
    with pytest.raises(dnnl.out_of_memory):
        dnnl.memory(dnnl.memory.desc([2 ** 63 - 1], "u8", "x"), ENG)
    for h in (a, big):
        capi.dnnl_memory_desc_destroy(h)
    capi.dnnl_post_ops_destroy(po)
    capi.dnnl_primitive_attr_destroy(attr)
    capi.dnnl_engine_destroy(eng)


def test_unknown_sum_data_type_is_refused_by_primitives():
    po = dnnl.post_ops()
    po.append_sum(1.0, 0, 999)             # kept as oneDNN keeps it
    assert po.get_params_sum(0) == (1.0, 0, 999)
    attr = dnnl.primitive_attr()
    attr.set_post_ops(po)
    md = md_tag([4])
    with pytest.raises(dnnl.unimplemented):     # measured: status 3
        dnnl.reorder.primitive_desc(ENG, md, ENG, md, attr)


# ------------------------------------------------------ undersized buffers
def test_undersized_ctypes_array_is_refused():
    md = md_tag([4])
    buf = (ctypes.c_uint8 * 4)()
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.memory(md, ENG, buf)
    m = dnnl.memory(md, ENG)
    before = m.get_data_handle()
    with pytest.raises(dnnl.invalid_arguments):
        m.set_data_handle(buf)
    assert m.get_data_handle() == before
    ok = (ctypes.c_uint8 * 16)()
    m = dnnl.memory(md, ENG, ok)
    m.from_numpy(np.ones(4, np.float32))
    assert np.frombuffer(bytes(ok), np.float32).tolist() == [1.0] * 4


# ---------------------------------------------- from_numpy validates first
def test_from_numpy_validates_before_writing():
    m = dnnl.memory(md_tag([1, 3, 2, 2], "f32", "nChw8c"), ENG)
    raw = m.map_data(np.uint8)
    raw[:] = 0xAB
    for bad in (np.full((1, 3, 2, 2), "x"), np.zeros((1, 3, 2, 2), complex),
                np.empty((1, 3, 2, 2), object), np.zeros((1, 3, 2, 3))):
        with pytest.raises(dnnl.error):
            m.from_numpy(bad)
        assert (raw == 0xAB).all()
    m.from_numpy(np.ones((1, 3, 2, 2)))
    assert (m.to_numpy() == 1).all()


# -------------------------------------------------- wrong types and values
def _copy_pd():
    return dnnl.reorder.primitive_desc(ENG, md_tag([4]), ENG, md_tag([4]))


@pytest.mark.parametrize("call, builtin", [
    (lambda: dnnl.memory.desc(5, "f32", "a"), TypeError),
    (lambda: dnnl.memory.desc([2, float("inf")], "f32", "ab"), TypeError),
    (lambda: dnnl.memory.desc([2, 2 ** 64], "f32", "ab"), ValueError),
    (lambda: dnnl.memory(md_tag([4]), ENG, 2 ** 64), ValueError),
    (lambda: dnnl.memory(md_tag([4]), ENG).map_data("bogus"), TypeError),
    (lambda: dnnl.stream(ENG, "x"), TypeError),
    (lambda: dnnl.post_ops().append_sum(2 ** 1024), ValueError),
    (lambda: dnnl.primitive_attr().has_default_values(5), TypeError),
    (lambda: md_tag([2, 3]).get_size(np.array([2, 3])), TypeError),
    (lambda: dnnl.memory(ENG, ENG), TypeError),
    (lambda: dnnl.stream(dnnl.primitive_attr()), TypeError),
    # a primitive from the wrong descriptor, or with arguments past it
    (lambda: dnnl.resampling_forward(_copy_pd()), ValueError),
    (lambda: dnnl.resampling_forward(_copy_pd(), None), TypeError),
    (lambda: dnnl.resampling_forward("pd"), TypeError),
])
def test_bad_arguments_raise_dnnl_errors(call, builtin):
    with pytest.raises(dnnl.error) as info:
        call()
    assert isinstance(info.value, builtin)


def test_has_default_values_accepts_none():
    assert dnnl.primitive_attr().has_default_values(None)


def test_backward_hint_of_another_rank():
    alg = dnnl.algorithm.resampling_linear
    hint = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_training, alg, md_tag([1, 2, 4], "f32", "ncw"),
        md_tag([1, 2, 8], "f32", "ncw"))
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.resampling_backward.primitive_desc(
            ENG, alg, md_tag([1, 2, 4, 4], "f32", "nchw"),
            md_tag([1, 2, 8, 8], "f32", "any"), hint)


# -------------------------------------------------- integers mean integers
@pytest.mark.parametrize("call", [
    lambda: dnnl.memory.desc([2.7, 3], "f32", "ab"),
    lambda: dnnl.memory.desc("12", "f32", "ab"),
    lambda: dnnl.memory.desc(b"\x02\x03", "f32", "ab"),
    lambda: dnnl.memory.desc([True, 3], "f32", "ab"),
    lambda: dnnl.memory.desc([2, 3], "f32", [3.0, 1]),
    lambda: md_tag([2, 3]).permute_axes(["1", "0"]),
    lambda: md_tag([2, 3]).submemory_desc([1, 3], [0.5, 0]),
    lambda: md_tag([2, 3]).reshape([6.0]),
    lambda: dnnl.engine(1, "0"),
    lambda: dnnl.engine(1, 0.5),
    lambda: dnnl.engine(1, True),
    lambda: dnnl.primitive_attr().set_dropout("x"),
    lambda: dnnl.primitive_attr().set_scales_mask(dnnl.DNNL_ARG_SRC, 1.0),
    lambda: dnnl.post_ops().append_sum("1.5"),
    lambda: dnnl.memory.desc([2], 3.5, "a"),
    lambda: dnnl.memory.desc([2], True, "a"),
    lambda: dnnl.memory.desc([2], "f32", 2.5),
    lambda: dnnl.post_ops().append_prelu(1.0),
])
def test_integers_mean_integers(call):
    with pytest.raises(dnnl.invalid_type):
        call()


def test_c_int_parameters_are_range_checked():
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.post_ops().append_prelu(2 ** 64)
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.primitive_attr().set_scales_mask(dnnl.DNNL_ARG_SRC, 2 ** 31)


def test_numpy_integers_are_integers():
    md = dnnl.memory.desc([np.int64(2), np.uint8(3)], "f32", "ab")
    assert md.get_dims() == [2, 3]
    assert dnnl.memory.desc(np.array([2, 3]), "f32", "ab") == md
    assert md.permute_axes(np.array([1, 0])).get_dims() == [3, 2]
    assert dnnl.engine(np.int32(1), np.int64(0)).get_index() == 0


# ----------------------------------------------------------- typed buffers
def test_typed_buffers_must_match_the_data_type():
    f32 = md_tag([4])
    with pytest.raises(dnnl.invalid_type):
        dnnl.memory(f32, ENG, np.zeros(4, np.float64))
    with pytest.raises(dnnl.invalid_type):
        dnnl.memory(f32, ENG, np.zeros(4, np.int32))
    for ok in (np.zeros(4, np.float32), np.zeros(16, np.uint8), bytearray(16),
               np.zeros(2, "V8"), (ctypes.c_float * 4)()):
        dnnl.memory(f32, ENG, ok)
    bf16 = md_tag([4], "bf16")
    arr = np.arange(4).astype(ml_dtypes.bfloat16)
    m = dnnl.memory(bf16, ENG, arr)
    assert m.to_numpy().tolist() == [0, 1, 2, 3]
    dnnl.memory(bf16, ENG, np.zeros(4, np.uint16))       # raw bf16 codes
    with pytest.raises(dnnl.invalid_type):
        dnnl.memory(bf16, ENG, np.zeros(4, np.float16))
    with pytest.raises(dnnl.invalid_type):
        dnnl.memory(md_tag([4], "f8_e4m3"), ENG, np.zeros(4, ml_dtypes.float8_e5m2))
    dnnl.memory(md_tag([4], "f8_e4m3"), ENG, np.zeros(4, ml_dtypes.float8_e4m3fn))


# ---------------------------------------------------------------- messages
def test_messages_name_the_parameter_and_are_short():
    with pytest.raises(dnnl.error, match="attr is a dnnl.engine, not a dnnl.primitive_attr"):
        from dnnl._core.args import instance
        instance(ENG, dnnl.primitive_attr, "attr")
    with pytest.raises(dnnl.error) as info:
        md_tag([2, 3]).permute_axes(list(range(100)))
    assert len(str(info.value)) < 160 and "100 elements" in str(info.value)
    with pytest.raises(dnnl.error, match=r"dims\[1\] must be an integer, not a float"):
        dnnl.memory.desc([2, 2.5], "f32", "ab")
    # flat API: the message names the parameter
    assert capi.dnnl_engine_get_kind(None, None) == INVALID
    assert "NULL" in str(capi.last_error()) and "engine" in str(capi.last_error())
    kind = None
    eng = P()
    capi.dnnl_engine_create(ctypes.byref(eng), capi.dnnl_cpu, 0)
    assert capi.dnnl_engine_get_kind(eng, kind) == INVALID
    assert str(capi.last_error()).startswith("kind ")
    attr = P()
    capi.dnnl_primitive_attr_create(ctypes.byref(attr))
    assert capi.dnnl_primitive_attr_set_scratchpad_mode(eng, 0) == INVALID
    assert "is an engine, not an attr" in str(capi.last_error())
    capi.dnnl_primitive_attr_destroy(attr)
    capi.dnnl_engine_destroy(eng)


# ------------------------------------------------- execute-argument binder
# Execution arguments: the base primitive's one argument binder.
def test_execute_args_as_a_list_go_through_the_binder():
    md = md_tag([2, 3])
    src, dst = dnnl.memory(md, ENG), dnnl.memory(md, ENG)
    with pytest.raises(dnnl.invalid_type):
        dnnl.reorder(src, dst).execute(STRM, [src, dst])


# -------------------------------------- what is not a sequence of integers
MD = md_tag([2, 3])


@pytest.mark.parametrize("call", [
    lambda: dnnl.memory.desc({0: 2, 1: 3}, "f32", "ab"),
    lambda: dnnl.memory.desc({2, 3}, "f32", "ab"),
    lambda: dnnl.memory.desc("23", "f32", "ab"),
    lambda: dnnl.memory.desc([2, 3], "f32", {0: 3, 1: 1}),
    lambda: dnnl.memory.desc([2, 3], "f32", {3, 1}),
    lambda: MD.element_offset({0: 1, 1: 2}),
    lambda: MD.element_offset({1, 0}),
    lambda: MD.submemory_desc({0: 1, 1: 3}, [0, 0]),
    lambda: MD.submemory_desc([1, 3], {0: 0, 1: 0}),
    lambda: MD.permute_axes({0: 1, 1: 0}),
    lambda: MD.permute_axes("10"),
    lambda: MD.reshape({0: 3, 1: 2}),
], ids=lambda c: "")
def test_dicts_sets_and_strings_are_not_sequences_of_integers(call):
    """A dict iterates over its keys and a set in no order: neither is taken
    for dims, strides, offsets or indices (numpy refuses them in a shape)."""
    with pytest.raises(dnnl.invalid_type, match="sequence of integers|format tag or a"):
        call()


@pytest.mark.parametrize("call,what", [
    (lambda: dnnl.memory.desc([1, 5], dnnl.memory.format_tag.nchw, "ab"), "data type"),
    (lambda: dnnl.memory.desc([1, 5], "f32", dnnl.memory.data_type.f32), "format tag"),
    (lambda: dnnl.memory.desc([1, 5], dnnl.algorithm.eltwise_relu, "ab"), "data type"),
    (lambda: dnnl.engine(dnnl.prop_kind.forward_training, 0), "kind"),
    (lambda: dnnl.primitive_attr().set_fpmath_mode(dnnl.algorithm.eltwise_relu),
     "fpmath mode"),
    (lambda: dnnl.primitive_attr().set_scratchpad_mode(dnnl.memory.data_type.f32),
     "scratchpad mode"),
    (lambda: dnnl.post_ops().append_eltwise(dnnl.prop_kind.forward_training, 0, 0),
     "algorithm"),
    (lambda: dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.algorithm.resampling_linear, dnnl.algorithm.resampling_linear,
        md_tag([1, 1, 4]), md_tag([1, 1, 8])), "prop_kind"),
    (lambda: dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, dnnl.prop_kind.forward_inference,
        md_tag([1, 1, 4]), md_tag([1, 1, 8])), "resampling algorithm"),
    (lambda: dnnl.set_max_cpu_isa(dnnl.memory.data_type.f32), "cpu isa"),
])
def test_an_enum_of_another_kind_is_refused(call, what):
    """An IntEnum member is an int, but a format tag is no data type: it is
    refused by name instead of being taken for its value."""
    with pytest.raises(dnnl.invalid_type, match="%s must be a .* member, not " % what):
        call()


def _blocked_memory():
    md = dnnl.memory.desc([1, 3, 2, 2], "f32", "nChw8c")
    return md, dnnl.memory(md, ENG)


@pytest.mark.parametrize("write", ["zero_pad", "from_numpy", "set_data_handle+stream"])
def test_writes_into_a_read_only_buffer_are_refused_first(write):
    """A memory over a read-only buffer (bytes, a read-only array): every
    write is refused before its first byte, naming the buffer; the memory
    keeps its buffer when set_data_handle's zero-padding is refused."""
    md, m = _blocked_memory()
    ro = np.full(md.get_size(), 0x5A, np.uint8)
    ro.flags.writeable = False
    before = m.get_data_handle()
    with pytest.raises(dnnl.invalid_arguments, match="read-only: give the memory a writable"):
        if write == "set_data_handle+stream":
            m.set_data_handle(ro, STRM)
        else:
            m.set_data_handle(ro)
            if write == "zero_pad":
                m.zero_pad()
            else:
                m.from_numpy(np.zeros((1, 3, 2, 2), np.float32))
    if write == "set_data_handle+stream":
        assert m.get_data_handle() == before
    assert (ro == 0x5A).all()
    # bytes too: a memory over them reads, never writes
    m2 = dnnl.memory(md, ENG, bytes(md.get_size()))
    with pytest.raises(dnnl.invalid_arguments, match=r"\(bytes at 0x"):
        m2.zero_pad()


def _blob_of(md_c):
    size = ctypes.c_size_t()
    assert capi.dnnl_memory_desc_get_blob(None, ctypes.byref(size), md_c) == 0
    blob = (ctypes.c_uint8 * size.value)()
    assert capi.dnnl_memory_desc_get_blob(blob, ctypes.byref(size), md_c) == 0
    return bytes(blob)


def test_descriptor_blobs_are_validated_field_by_field():
    """dnnl_memory_desc_create_with_blob: a round trip gives the same
    descriptor; garbage in any field (enum values, dims, blocks, strides,
    unused slots) is invalid_arguments, never an exception; every descriptor
    it accepts has a layout that stays inside the buffer it sizes."""
    src = P()
    assert capi.dnnl_memory_desc_create_with_tag(
        ctypes.byref(src), 4, dims(2, 17, 3, 4), int(dnnl.memory.data_type.f32),
        int(dnnl.memory.format_tag.nChw16c)) == 0
    base = _blob_of(src)
    out = P()
    buf = (ctypes.c_uint8 * len(base)).from_buffer_copy(base)
    assert capi.dnnl_memory_desc_create_with_blob(ctypes.byref(out), buf) == 0
    assert capi.dnnl_memory_desc_equal(out, src) == 1
    fields = np.frombuffer(base, np.int64)
    # [magic, ndims, data type, format kind, offset0, blocks, 0, dims x 12,
    #  padded dims, padded offsets, strides, inner blocks, inner indices]
    for k, value in [(2, 65285), (3, 99), (1, 13), (5, 13), (7, -1), (19, 1), (43, -7),
                     (55, 1), (67, 3), (60, 4), (len(fields) - 1, 5), (6, 1), (4, -3)]:
        bad = fields.copy()
        bad[k] = value
        b = (ctypes.c_uint8 * len(base)).from_buffer_copy(bad.tobytes())
        assert capi.dnnl_memory_desc_create_with_blob(ctypes.byref(out), b) == INVALID, k
    rng = np.random.default_rng(21)
    accepted = 0
    for _ in range(3000):
        bad = bytearray(base)
        for j in rng.integers(8, len(base), size=rng.integers(1, 5)):
            bad[j] = int(rng.integers(256))
        b = (ctypes.c_uint8 * len(base)).from_buffer(bad)
        st = capi.dnnl_memory_desc_create_with_blob(ctypes.byref(out), b)
        assert st in (0, INVALID)
        if st == 0:     # what it accepts it describes exactly
            accepted += 1
            assert _blob_of(out) == bytes(bad)
    assert accepted > 0


@pytest.mark.parametrize("bad", [None, 0, "stream", ENG])
def test_execute_refuses_what_is_not_a_stream_on_its_first_call(bad):
    # the primitive remembers the last stream it checked; before any, no
    # value (None included) may pass as that stream
    md = md_tag((2, 3))
    prim = dnnl.reorder(dnnl.reorder.primitive_desc(ENG, md, ENG, md))
    src, dst = dnnl.memory(md, ENG), dnnl.memory(md, ENG)
    with pytest.raises(dnnl.error) as e:
        prim.execute(bad, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    assert isinstance(e.value, TypeError) and "dnnl.stream" in str(e.value)
    prim.execute(STRM, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})     # a stream still runs
    with pytest.raises(TypeError):
        prim.execute(bad, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})


@pytest.mark.parametrize("call", [
    lambda a, v: a.set_scales(dnnl.DNNL_ARG_SRC, 0, (), "f32", is_on_host=v),
    lambda a, v: a.set_zero_points(dnnl.DNNL_ARG_SRC, 0, (), "s32", is_on_host=v),
    lambda a, v: a.set_deterministic(v),
])
@pytest.mark.parametrize("bad", [np.array([2, 3]), "yes", 1.0, None])
def test_flags_refuse_what_is_not_a_bool_and_change_nothing(call, bad):
    # (an array's truth was numpy's raw ValueError)
    a = dnnl.primitive_attr()
    with pytest.raises(dnnl.error) as e:
        call(a, bad)
    assert isinstance(e.value, TypeError) and "must be a bool" in str(e.value)
    assert a == dnnl.primitive_attr()
    call(a, np.bool_(True))     # numpy's bools and ints are flags
    call(a, 0)
