"""dnnl.capi on its own: ctypes conventions, handles, statuses, examples.

The comparison with real oneDNN is tests/conformance/test_capi_oracle.py.
"""
import ctypes
import os
import pathlib
import re
import runpy
import sys

import numpy as np
import pytest

import dnnl
import dnnl._platform.isa
import dnnl.capi as lib
from dnnl._core.capi import CFunction

pytestmark = pytest.mark.compiled

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
P, p_, i_, i64 = ctypes.POINTER, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64
Dims = i64 * 12
OK, IA, UNIMPL, LAST = 0, 2, 3, 4


@pytest.fixture
def eng():
    e = p_()
    assert lib.dnnl_engine_create(ctypes.byref(e), lib.dnnl_cpu, 0) == OK
    yield e
    lib.dnnl_engine_destroy(e)


def make_md(dims, dt=None, tag=None):
    md = p_()
    st = lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(dims), Dims(*dims),
                                              dt or lib.dnnl_f32, tag or lib.dnnl_abcd)
    assert st == OK
    return md


# ------------------------------------------------------------- the module
def test_functions_are_ctypes_like_objects_in_header_order():
    names = lib.FUNCTIONS
    assert all(isinstance(getattr(lib, n), CFunction) for n in names)
    assert len(names) == len(set(names)) >= 140
    order = ["dnnl_engine_get_count", "dnnl_engine_create", "dnnl_stream_create",
             "dnnl_version", "dnnl_primitive_desc_next_impl", "dnnl_primitive_execute",
             "dnnl_primitive_attr_create", "dnnl_post_ops_create",
             "dnnl_memory_desc_destroy", "dnnl_memory_desc_create_with_tag",
             "dnnl_memory_desc_query", "dnnl_memory_create", "dnnl_memory_destroy",
             "dnnl_reorder_primitive_desc_create",
             "dnnl_resampling_forward_primitive_desc_create",
             "dnnl_resampling_backward_primitive_desc_create",
             "dnnl_primitive_attr_set_rnn_data_qparams", "dnnl_set_max_cpu_isa",
             "dnnl_status2str", "dnnl_fmt_kind2str", "dnnl_memory_desc_init_by_tag"]
    assert [names.index(n) for n in order] == sorted(names.index(n) for n in order)
    fn = lib.dnnl_memory_desc_get_size
    assert fn.restype is ctypes.c_size_t and fn.argtypes is None
    assert lib["dnnl_engine_create"] is lib.dnnl_engine_create
    assert lib.dnnl_nchw == lib.dnnl_abcd == 5 and lib.DNNL_ARG_SRC == 1
    assert lib.DNNL_MEMORY_ALLOCATE == dnnl.DNNL_MEMORY_ALLOCATE


def test_argtypes_checked_like_ctypes_and_restype_honoured(eng):
    fn = lib.dnnl_memory_desc_create_with_tag
    try:
        fn.argtypes = [P(p_), i_, P(i64), i_, i_]
        md = p_()
        assert fn(ctypes.byref(md), 2, Dims(2, 3), lib.dnnl_f32, lib.dnnl_ab) == OK
        with pytest.raises(ctypes.ArgumentError):
            fn(ctypes.byref(md), 2, (ctypes.c_int * 2)(2, 3), lib.dnnl_f32, lib.dnnl_ab)
        with pytest.raises(TypeError):
            fn(ctypes.byref(md), 2)
    finally:
        fn.argtypes = None
    q = lib.dnnl_primitive_desc_query_md
    from dnnl._core.capi import _UNSET
    q._restype = _UNSET
    pd = p_()
    assert lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), md, eng, md, eng,
                                                  None) == OK
    assert q(pd, lib.dnnl_query_src_md, 0) != 0 and q(pd, lib.dnnl_query_engine, 0) == 0
    try:
        q.restype = p_
        assert q(pd, lib.dnnl_query_engine, 0) is None           # NULL -> None
        assert isinstance(q(pd, lib.dnnl_query_dst_md, 0), int)
        lib.dnnl_version.restype = P(lib.dnnl_version_t)
        v = lib.dnnl_version().contents
        assert (v.major, v.minor) == (3, 13) and v.cpu_runtime == lib.DNNL_RUNTIME_THREADPOOL
        lib.dnnl_dt2str.restype = ctypes.c_char_p
        assert lib.dnnl_dt2str(lib.dnnl_bf16) == b"bf16"
        lib.dnnl_dt2str.restype = p_
        assert ctypes.string_at(lib.dnnl_dt2str(lib.dnnl_bf16)) == b"bf16"
    finally:                 # back to the natural results for other tests
        from dnnl._core.capi import _UNSET
        q._restype = lib.dnnl_version._restype = lib.dnnl_dt2str._restype = _UNSET
    lib.dnnl_primitive_desc_destroy(pd)
    lib.dnnl_memory_desc_destroy(md)


def test_errcheck_is_called():
    fn = lib.dnnl_set_verbose
    seen = []
    fn.errcheck = lambda res, func, args: seen.append((res, func, args)) or res
    try:
        assert fn(5) == IA
    finally:
        fn.errcheck = None
    assert seen == [(IA, fn, (5,))]


# ---------------------------------------------------------------- handles
def test_handles_live_until_destroyed_and_dead_handles_are_invalid(eng):
    base = lib.live_handles()
    md = make_md([2, 3, 4, 5])
    assert lib.dnnl_memory_desc_get_size(md) == 480
    assert lib.dnnl_memory_desc_destroy(md) == OK
    assert lib.dnnl_memory_desc_destroy(md) == IA                  # double destroy
    assert lib.dnnl_memory_desc_get_size(md) == 0
    out = p_()
    assert lib.dnnl_memory_desc_clone(ctypes.byref(out), md) == IA
    assert lib.dnnl_memory_create(ctypes.byref(out), md, eng, None) == IA
    assert lib.dnnl_memory_desc_query(0xDEADBEEF, lib.dnnl_query_ndims_s32,
                                      ctypes.byref(i_())) == IA    # never a handle
    assert lib.dnnl_primitive_attr_set_scratchpad_mode(eng, 0) == IA  # wrong kind
    assert "engine" in str(lib.last_error())
    assert lib.live_handles() == base


def test_views_die_with_their_owner_and_cannot_be_destroyed(eng):
    base = lib.live_handles()
    md = make_md([2, 3, 4, 5])
    mem, view, view2 = p_(), p_(), p_()
    assert lib.dnnl_memory_create(ctypes.byref(mem), md, eng, lib.DNNL_MEMORY_ALLOCATE) == OK
    assert lib.dnnl_memory_get_memory_desc(mem, ctypes.byref(view)) == OK
    assert lib.dnnl_memory_get_memory_desc(mem, ctypes.byref(view2)) == OK
    assert view.value == view2.value and view.value != md.value
    assert lib.dnnl_memory_desc_equal(view, md) == 1
    assert lib.dnnl_memory_desc_destroy(view) == IA                # a const view
    lib.dnnl_memory_desc_destroy(md)
    assert lib.dnnl_memory_desc_get_size(view) == 480              # the memory's copy
    assert lib.dnnl_memory_destroy(mem) == OK
    assert lib.dnnl_memory_desc_get_size(view) == 0                # died with it
    assert lib.live_handles() == base


def test_engine_stays_alive_while_a_memory_uses_it():
    base = lib.live_handles()
    e, e2, mem = p_(), p_(), p_()
    lib.dnnl_engine_create(ctypes.byref(e), lib.dnnl_cpu, 0)
    md = make_md([4], tag=lib.dnnl_a)
    assert lib.dnnl_memory_create(ctypes.byref(mem), md, e, lib.DNNL_MEMORY_ALLOCATE) == OK
    assert lib.dnnl_engine_destroy(e) == OK
    assert lib.dnnl_memory_get_engine(mem, ctypes.byref(e2)) == OK and e2.value == e.value
    kind = i_()
    assert lib.dnnl_engine_get_kind(e2, ctypes.byref(kind)) == OK and kind.value == 1
    lib.dnnl_memory_destroy(mem)
    assert lib.dnnl_engine_get_kind(e2, ctypes.byref(kind)) == IA  # now gone
    lib.dnnl_memory_desc_destroy(md)
    assert lib.live_handles() == base


# -------------------------------------------------------- in/out parameters
def test_out_parameters_take_what_ctypes_programs_pass(eng):
    md = make_md([2, 17, 3, 4], tag=lib.dnnl_nChw16c)
    for make in (lambda c: ctypes.byref(c), lambda c: ctypes.pointer(c),
                 lambda c: ctypes.addressof(c), lambda c: ctypes.c_void_p(ctypes.addressof(c))):
        n = ctypes.c_int32()
        assert lib.dnnl_memory_desc_query(md, lib.dnnl_query_ndims_s32, make(n)) == OK
        assert n.value == 4
    arr = np.zeros(1, np.int64)                                    # a numpy out buffer
    assert lib.dnnl_memory_desc_query(md, lib.dnnl_query_submemory_offset_s64, arr) == OK
    # dims pointers stay valid while the descriptor lives
    ptrs = {}
    for q in ("dims", "padded_dims", "strides", "inner_blks", "inner_idxs"):
        ptrs[q] = P(i64)()
        assert lib.dnnl_memory_desc_query(md, getattr(lib, "dnnl_query_" + q),
                                          ctypes.byref(ptrs[q])) == OK
    whole = P(Dims)()
    lib.dnnl_memory_desc_query(md, lib.dnnl_query_padded_dims, ctypes.byref(whole))
    assert list(whole.contents)[:4] == [2, 32, 3, 4]
    assert [ptrs["dims"][k] for k in range(4)] == [2, 17, 3, 4]
    assert [ptrs["strides"][k] for k in range(4)] == [384, 192, 64, 16]
    assert ptrs["inner_blks"][0] == 16 and ptrs["inner_idxs"][0] == 1
    assert lib.dnnl_memory_desc_query(md, lib.dnnl_query_ndims_s32, None) == IA
    lib.dnnl_memory_desc_destroy(md)


def test_inputs_take_ctypes_scalars_lists_and_arrays(eng):
    md = p_()
    assert lib.dnnl_memory_desc_create_with_tag(
        ctypes.byref(md), ctypes.c_int(2), [3, 5], ctypes.c_int(lib.dnnl_f32),
        lib.dnnl_ba) == OK
    assert lib.dnnl_memory_desc_get_size(md) == 60
    po = p_()
    lib.dnnl_post_ops_create(ctypes.byref(po))
    assert lib.dnnl_post_ops_append_sum(po, ctypes.c_float(0.5), ctypes.c_int32(3),
                                        lib.dnnl_s8) == OK
    scale, zp = ctypes.c_float(), ctypes.c_int32()
    assert lib.dnnl_post_ops_get_params_sum(po, 0, ctypes.byref(scale), ctypes.byref(zp),
                                            None) == OK
    assert (scale.value, zp.value) == (0.5, 3)
    # 0.1 is stored as the C float nearest to it
    assert lib.dnnl_post_ops_append_eltwise(po, lib.dnnl_eltwise_relu, 0.1, 0.0) == OK
    alpha = ctypes.c_float()
    lib.dnnl_post_ops_get_params_eltwise(po, 1, None, ctypes.byref(alpha), None)
    assert alpha.value == np.float32(0.1)
    assert lib.dnnl_post_ops_append_sum(po, "half", 0, 0) == IA    # never raises
    lib.dnnl_post_ops_destroy(po)
    lib.dnnl_memory_desc_destroy(md)


def test_memory_handles_allocate_none_user_pointer(eng):
    md = make_md([2, 3], tag=lib.dnnl_ab)
    mem, h, h2 = p_(), p_(), p_()
    assert lib.dnnl_memory_create(ctypes.byref(mem), md, eng, lib.DNNL_MEMORY_ALLOCATE) == OK
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h2))
    assert h.value and h.value == h2.value and h.value % 64 == 0
    ctypes.memmove(h, np.arange(6, dtype=np.float32).ctypes.data, 24)
    mapped = p_()
    assert lib.dnnl_memory_map_data(mem, ctypes.byref(mapped)) == OK
    assert np.frombuffer(ctypes.string_at(mapped, 24), np.float32).tolist() == list(range(6))
    user = np.zeros(6, np.float32)
    assert lib.dnnl_memory_set_data_handle(mem, user.ctypes.data_as(p_)) == OK
    lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
    assert h.value == user.ctypes.data
    lib.dnnl_memory_destroy(mem)
    for handle in (None, lib.DNNL_MEMORY_NONE, ctypes.c_void_p()):
        assert lib.dnnl_memory_create(ctypes.byref(mem), md, eng, handle) == OK
        lib.dnnl_memory_get_data_handle(mem, ctypes.byref(h))
        assert h.value is None
        lib.dnnl_memory_destroy(mem)
    handles = (p_ * 1)(user.ctypes.data)
    assert lib.dnnl_memory_create_v2(ctypes.byref(mem), md, eng, 1, handles) == OK
    assert lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), 0) == OK
    assert h.value == user.ctypes.data
    assert lib.dnnl_memory_get_data_handle_v2(mem, ctypes.byref(h), 1) == IA
    lib.dnnl_memory_destroy(mem)
    lib.dnnl_memory_desc_destroy(md)


def test_execute_reads_exec_arg_arrays_and_lists(eng):
    md = make_md([2, 3], tag=lib.dnnl_ab)
    md_t = make_md([2, 3], tag=lib.dnnl_ba)
    src, dst, pd, prim, strm = p_(), p_(), p_(), p_(), p_()
    x = np.arange(6, dtype=np.float32)
    out = np.zeros(6, np.float32)
    lib.dnnl_memory_create(ctypes.byref(src), md, eng, x.ctypes.data)
    lib.dnnl_memory_create(ctypes.byref(dst), md_t, eng, out.ctypes.data)
    lib.dnnl_stream_create(ctypes.byref(strm), eng, lib.dnnl_stream_default_flags)
    lib.dnnl_reorder_primitive_desc_create(ctypes.byref(pd), md, eng, md_t, eng, None)
    assert lib.dnnl_primitive_create(ctypes.byref(prim), pd) == OK
    args = (lib.dnnl_exec_arg_t * 2)((lib.DNNL_ARG_FROM, src), (lib.DNNL_ARG_TO, dst))
    assert lib.dnnl_primitive_execute(prim, strm, 2, args) == OK
    assert out.tolist() == [0, 3, 1, 4, 2, 5]
    out[:] = 0
    assert lib.dnnl_primitive_execute(prim, strm, 2, ctypes.byref(args[0])) == OK
    assert out.tolist() == [0, 3, 1, 4, 2, 5]
    out[:] = 0                                    # extension: a list of pairs
    assert lib.dnnl_primitive_execute(prim, strm, 2, [(lib.DNNL_ARG_FROM, src),
                                                      (lib.DNNL_ARG_TO, dst)]) == OK
    assert out.tolist() == [0, 3, 1, 4, 2, 5]
    assert lib.dnnl_primitive_execute(prim, strm, 1, args) == IA
    lib.dnnl_memory_destroy(dst)
    assert lib.dnnl_primitive_execute(prim, strm, 2, args) == IA   # destroyed memory
    for h, fn in ((prim, lib.dnnl_primitive_destroy), (pd, lib.dnnl_primitive_desc_destroy),
                  (src, lib.dnnl_memory_destroy), (strm, lib.dnnl_stream_destroy),
                  (md, lib.dnnl_memory_desc_destroy), (md_t, lib.dnnl_memory_desc_destroy)):
        assert fn(h) == OK


def test_compatibility_entry_points(eng):
    for name in ("dnnl_memory_desc_init_by_tag", "dnnl_memory_desc_init"):
        md = p_()
        assert getattr(lib, name)(ctypes.byref(md), 4, Dims(2, 17, 3, 4), lib.dnnl_f32,
                                  lib.dnnl_nChw8c) == OK
        assert lib.dnnl_memory_desc_get_size(md) == 2 * 24 * 12 * 4
        assert getattr(lib, name)(None, 1, Dims(1), lib.dnnl_f32, lib.dnnl_a) == IA
        lib.dnnl_memory_desc_destroy(md)
    md, sub = p_(), p_()
    assert lib.dnnl_memory_desc_init_by_strides(ctypes.byref(md), 2, Dims(4, 6),
                                                lib.dnnl_f32, Dims(1, 4)) == OK
    assert lib.dnnl_memory_desc_init_submemory(ctypes.byref(sub), md, Dims(2, 3),
                                               Dims(1, 2)) == OK
    off = i64()
    lib.dnnl_memory_desc_query(sub, lib.dnnl_query_submemory_offset_s64, ctypes.byref(off))
    assert off.value == 1 + 2 * 4
    lib.dnnl_memory_desc_destroy(sub)
    lib.dnnl_memory_desc_destroy(md)


def test_attr_views_and_pd_queries(eng):
    attr, po, got = p_(), p_(), p_()
    lib.dnnl_primitive_attr_create(ctypes.byref(attr))
    lib.dnnl_post_ops_create(ctypes.byref(po))
    lib.dnnl_post_ops_append_sum(po, 1.0, 0, 0)
    lib.dnnl_primitive_attr_get_post_ops(attr, ctypes.byref(got))
    assert lib.dnnl_post_ops_len(got) == 0
    lib.dnnl_primitive_attr_set_post_ops(attr, po)
    assert lib.dnnl_post_ops_len(got) == 1                         # a live view
    lib.dnnl_primitive_attr_destroy(attr)
    assert lib.dnnl_post_ops_len(got) == 0                         # dead with the attr
    lib.dnnl_post_ops_destroy(po)
    src, dst, pd = make_md([1, 2, 4, 4]), make_md([1, 2, 8, 8]), p_()
    assert lib.dnnl_resampling_forward_primitive_desc_create(
        ctypes.byref(pd), eng, lib.dnnl_forward_training, lib.dnnl_resampling_linear,
        None, src, dst, None) == OK
    factors, s = P(ctypes.c_float)(), ctypes.c_char_p()
    assert lib.dnnl_primitive_desc_query(pd, lib.dnnl_query_factors, 0,
                                         ctypes.byref(factors)) == OK
    assert factors[0] == factors[1] == 2.0
    lib.dnnl_primitive_desc_query(pd, lib.dnnl_query_impl_info_str, 0, ctypes.byref(s))
    assert s.value == b"ref:any"
    # a CPU primitive's cache blob id is empty: success, size 0, NULL
    size, blob_id = ctypes.c_int64(-1), ctypes.c_void_p(1)
    assert lib.dnnl_primitive_desc_query(pd, lib.dnnl_query_cache_blob_id_size_s64, 0,
                                         ctypes.byref(size)) == OK
    assert lib.dnnl_primitive_desc_query(pd, lib.dnnl_query_cache_blob_id, 0,
                                         ctypes.byref(blob_id)) == OK
    assert size.value == 0 and blob_id.value is None
    assert lib.dnnl_primitive_desc_query(pd, lib.dnnl_query_cache_blob_id, 0, None) == \
        lib.dnnl_invalid_arguments
    assert lib.dnnl_primitive_desc_next_impl(pd) == LAST
    clone = p_()
    assert lib.dnnl_primitive_desc_clone(ctypes.byref(clone), pd) == OK
    lib.dnnl_primitive_desc_destroy(pd)
    assert lib.dnnl_primitive_desc_query_s32(clone, lib.dnnl_query_num_of_inputs_s32, 0) == 1
    lib.dnnl_primitive_desc_destroy(clone)
    for md in (src, dst):
        lib.dnnl_memory_desc_destroy(md)


def test_service_functions():
    mode = i_()
    assert lib.dnnl_get_default_fpmath_mode(ctypes.byref(mode)) == OK
    assert lib.dnnl_set_verbose(1) == OK and lib.dnnl_set_verbose(3) == IA
    lib.dnnl_set_verbose(0)
    assert lib.dnnl_data_type_size(lib.dnnl_bf16) == 2
    assert lib.dnnl_data_type_size(lib.dnnl_data_type_undef) == 2 ** 64 - 1
    assert lib.dnnl_engine_get_count(lib.dnnl_cpu) == 1
    assert lib.dnnl_fmt_tag2str(lib.dnnl_nChw16c) == b"aBcd16b"
    assert lib.dnnl_status2str(12345) == b"unknown status"
    isa = lib.dnnl_get_effective_cpu_isa()      # reading the cap fixes it
    # too late on x86-64; on AArch64 oneDNN 3.13 never implements the setter (tests/_platform/test_isa.py)
    assert lib.dnnl_set_max_cpu_isa(lib.dnnl_cpu_isa_sse41) == (
        lib.dnnl_unimplemented if dnnl._platform.isa.arch() == "aarch64" else IA)
    assert lib.dnnl_get_effective_cpu_isa() == isa
    cap = i_()
    assert lib.dnnl_get_primitive_cache_capacity(ctypes.byref(cap)) == OK
    # CSR is oneDNN 3.13's for at most 2 dims (measured: unimplemented above)
    assert lib.dnnl_memory_desc_create_with_csr_encoding(
        ctypes.byref(p_()), 3, Dims(4, 4, 4), lib.dnnl_f32, 3, lib.dnnl_s32, lib.dnnl_s32) \
        == UNIMPL


# ------------------------------------------------------------------ docs
def test_docs_table_lists_every_function():
    text = pathlib.Path(ROOT, "docs", "c_api.md").read_text()
    rows = set(re.findall(r"^\| `(dnnl_\w+)`", text, re.M))
    assert set(lib.FUNCTIONS) <= rows, sorted(set(lib.FUNCTIONS) - rows)


# --------------------------------------------------------------- examples
@pytest.mark.parametrize("name", ["reorder", "resampling", "cross_engine_reorder"])
def test_examples_run(name, capsys):
    from dnnl._core.capi import _UNSET
    examples = os.path.join(ROOT, "examples")
    sys.path.insert(0, examples)   # what `python examples/x.py` does for its imports
    try:
        runpy.run_path(os.path.join(examples, name + ".py"), run_name="__main__")
    finally:                  # the examples declare signatures on dnnl.capi
        sys.path.remove(examples)
        sys.modules.pop("example_utils", None)
        for fname in lib.FUNCTIONS:
            fn = getattr(lib, fname)
            fn.argtypes, fn._restype = None, _UNSET
    assert "Example passed" in capsys.readouterr().out


def test_version_is_one_record_in_both_apis():
    """``dnnl.version()`` (``dnnl::version()``) and ``dnnl_version()`` give
    oneDNN 3.13.2's API level, this build's hash and the runtimes."""
    v = dnnl.version()
    c = lib.dnnl_version().contents
    assert (c.major, c.minor, c.patch, c.hash.decode(), c.cpu_runtime, c.gpu_runtime) == tuple(v)
    assert (v.major, v.minor, v.patch) == (3, 13, 2)
    assert v.hash == "dnnl-python-" + dnnl.__version__
    assert (v.cpu_runtime, v.gpu_runtime) == (lib.DNNL_RUNTIME_THREADPOOL, lib.DNNL_RUNTIME_NONE)
    assert dnnl.version() is v          # static data, as the C++ API's pointer


def test_a_declared_restype_is_undone_publicly():
    f = lib.dnnl_status2str
    try:
        f.restype = ctypes.c_void_p
        f.argtypes = [ctypes.c_int]
        f.errcheck = lambda result, func, args: "checked"
        assert f(0) == "checked"
        del f.restype
        f.errcheck = None
        assert f(0) == b"success"
        assert f.argtypes == [ctypes.c_int]
        f.restype = ctypes.c_void_p
        f.reset()
        assert (f.argtypes, f.errcheck, f(0)) == (None, None, b"success")
        assert f.restype is ctypes.c_char_p      # the natural one, as before any declaration
        g = lib.dnnl_primitive_desc_query_md
        g.restype, f.restype = ctypes.c_char_p, ctypes.c_void_p
        lib.reset_declarations()
        assert f(0) == b"success" and g.restype is ctypes.c_void_p
        assert all(getattr(lib, n).argtypes is None for n in lib.FUNCTIONS)
    finally:
        lib.reset_declarations()
