"""A new primitive from outside the package, with no edit under ``dnnl/``.

The primitive below is a plain copy of one src to one dst. It is defined
here, registered with ``dnnl._core.registry.register_primitive``, and then runs
through everything the core offers a kind: the object API's binder
(argument checks), the primitive cache (a hit shares the plan; its own
implementation switch is part of every key), ``dnnl.capi``'s
``dnnl_primitive_create`` / ``dnnl_primitive_execute`` and verbose. What a
real primitive needs besides (its C-API creation function, its exports, a
benchdnn driver, docs) is listed in ``docs/internals/extending.md``.
"""
import ctypes

import numpy as np
import pytest

import dnnl
from dnnl import capi
from dnnl.primitive import cache as _cache
from dnnl._core import capi as _capi_base
from dnnl._core.enums import primitive_kind, query
from dnnl._core.error import invalid
from dnnl._core.registry import record_of, register_primitive, unregister_primitive
from dnnl._core.settings import settings
from dnnl._model.memory import span_bytes
from dnnl.primitive import INPUT, OUTPUT, exec_arg, primitive, primitive_desc

pytestmark = pytest.mark.package

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
ARG_SRC, ARG_DST = dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST
builds = []     # the plans built, to see the cache share them


class _CopyPlan:
    """What the kernel runs: a copy of ``nbytes`` bytes, in chunks of the
    ``copy_chunk`` switch (0: one piece)."""

    path = "copy"

    def __init__(self, nbytes, chunk):
        self.nbytes, self.chunk = nbytes, chunk or nbytes

    def run(self, src, dst):
        for at in range(0, self.nbytes, self.chunk):
            ctypes.memmove(dst + at, src + at, min(self.chunk, self.nbytes - at))


class copy_pd(primitive_desc):
    """``copy_pd(engine, src_md, dst_md[, attr])``: dst = src, same layout."""

    kind = primitive_kind.eltwise       # a stand-in kind (a copy is an identity eltwise)
    _impl = "test:copy"
    _num_inputs = 1

    def __init__(self, *args, allow_empty=False):
        self._create(allow_empty, self._init, args)

    def _init(self, aengine, src_md, dst_md, attr=None):
        if src_md != dst_md:
            raise invalid("copy needs equal src and dst descriptors")
        self._init_base(aengine, attr, {query.src_md: src_md, query.dst_md: dst_md})
        self._nbytes = span_bytes(src_md)
        self._unprepared = True
        self._declare([exec_arg(ARG_SRC, src_md, INPUT, "DNNL_ARG_SRC"),
                       exec_arg(ARG_DST, dst_md, OUTPUT, "DNNL_ARG_DST")])

    def _build_plan(self, mds):
        plan = _CopyPlan(self._nbytes, settings.copy_chunk)
        builds.append(plan)
        return plan

    def _execute(self, mems):
        plan = self._plan()
        plan.run(mems[0].address, mems[1].address)   # the memories' public fields
        return plan

    def exec_impl_str(self, mds=None):
        return "test:" + self._plan().path


class copy(primitive):
    primitive_desc = copy_pd


@pytest.fixture(autouse=True)
def registered():
    register_primitive(copy, switches={"copy_chunk": 0})
    _cache.clear()
    builds.clear()
    yield
    unregister_primitive(copy)
    _cache.clear()


def _arrays():
    x = np.arange(2 * 3 * 5, dtype=np.float32).reshape(2, 3, 5)
    md = dnnl.memory.desc(list(x.shape), "f32", "abc")
    return x, md, dnnl.memory(md, ENG, x), dnnl.memory(md, ENG)


def test_the_object_api_binds_and_runs_it():
    x, md, src, dst = _arrays()
    prim = copy(copy_pd(ENG, md, md))
    prim.execute(dnnl.stream(ENG), {ARG_SRC: src, ARG_DST: dst})
    np.testing.assert_array_equal(dst.to_numpy(), x)
    with pytest.raises(dnnl.error, match="DNNL_ARG_DST"):      # the binder's check
        prim.execute(dnnl.stream(ENG), {ARG_SRC: src})
    with pytest.raises(dnnl.error, match="equal src and dst"):
        copy_pd(ENG, md, dnnl.memory.desc([2, 3, 5], "f32", "acb"))
    assert record_of(prim.get_primitive_desc()).primitive_class is copy


def test_the_cache_serves_it_and_its_switch_is_in_the_key():
    x, md, src, dst = _arrays()
    first = copy(copy_pd(ENG, md, md))
    second = copy(copy_pd(ENG, md, md))     # a hit: the same plan
    assert _cache.stats()["hits"] == 1 and len(builds) == 1
    assert second.get_primitive_desc()._plan() is first.get_primitive_desc()._plan()
    with settings.changed(copy_chunk=4):
        chunked = copy(copy_pd(ENG, md, md))    # another key: a miss, its own plan
        assert _cache.stats()["misses"] == 2 and len(builds) == 2
        chunked.execute(dnnl.stream(ENG), {ARG_SRC: src, ARG_DST: dst})
    np.testing.assert_array_equal(dst.to_numpy(), x)


def test_the_flat_api_creates_and_executes_it():
    x, md, src, dst = _arrays()
    eng, pd_h, prim_h, strm = (ctypes.c_void_p() for _ in range(4))
    assert capi.dnnl_engine_create(ctypes.byref(eng), capi.dnnl_cpu, 0) == 0
    assert capi.dnnl_stream_create(ctypes.byref(strm), eng, capi.dnnl_stream_default_flags) == 0
    # a real primitive's dnnl_<kind>_primitive_desc_create does this in capi.py
    pd = copy_pd(_capi_base.obj(eng, "engine"), md, md)    # on the handle's engine
    pd_h.value = _capi_base.new_handle("pd", pd, {"engine": _capi_base.handle_id(eng)})
    assert capi.dnnl_primitive_create(ctypes.byref(prim_h), pd_h) == 0
    mems = []
    for arr in (x, np.zeros_like(x)):
        md_h, mem_h = ctypes.c_void_p(), ctypes.c_void_p()
        dims = (ctypes.c_int64 * 3)(*arr.shape)
        assert capi.dnnl_memory_desc_create_with_tag(ctypes.byref(md_h), 3, dims,
                                                     capi.dnnl_f32, capi.dnnl_abc) == 0
        assert capi.dnnl_memory_create(ctypes.byref(mem_h), md_h, eng,
                                       arr.ctypes.data_as(ctypes.c_void_p)) == 0
        mems.append(mem_h)
    args = (capi.dnnl_exec_arg_t * 2)((ARG_SRC, mems[0]), (ARG_DST, mems[1]))
    assert capi.dnnl_primitive_execute(prim_h, strm, 2, args) == 0
    out = ctypes.c_void_p()
    assert capi.dnnl_memory_get_data_handle(mems[1], ctypes.byref(out)) == 0
    got = np.ctypeslib.as_array((ctypes.c_float * x.size).from_address(out.value))
    np.testing.assert_array_equal(got.reshape(x.shape), x)
    assert capi.dnnl_primitive_execute(prim_h, strm, 1, args) != 0   # a status, not a raise
    for h in mems:
        capi.dnnl_memory_destroy(h)
    for h, destroy in ((prim_h, capi.dnnl_primitive_destroy),
                       (pd_h, capi.dnnl_primitive_desc_destroy),
                       (strm, capi.dnnl_stream_destroy), (eng, capi.dnnl_engine_destroy)):
        assert destroy(h) == 0


def test_verbose_reports_it():
    x, md, src, dst = _arrays()
    lines = []
    old_out, old_level = dnnl.verbose.set_output(lines.append), dnnl.set_verbose(2)
    try:
        copy(copy_pd(ENG, md, md)).execute(dnnl.stream(ENG), {ARG_SRC: src, ARG_DST: dst})
    finally:
        dnnl.set_verbose(old_level)
        dnnl.verbose.set_output(old_out)
    prim_lines = [ln for ln in lines if ",primitive," in ln and ",info," not in ln]
    assert [ln.split(",")[3] for ln in prim_lines] == ["create:cache_miss", "exec"]
    assert all(",cpu,eltwise,test:copy," in ln for ln in prim_lines), prim_lines
