"""A new primitive from outside the package, with no edit under ``dnnl/``.

The primitive below is a plain copy of one src to one dst. It is defined
here, registered with ``dnnl._core.registry.register_primitive``, and then runs
through everything the core offers a kind: the object API's binder
(argument checks), the primitive cache (a hit shares the plan; its own
implementation switch is part of every key), ``dnnl.capi``'s
``dnnl_primitive_create`` / ``dnnl_primitive_execute`` and verbose. What a
real primitive needs besides (its C-API creation function, its exports, a
benchdnn driver, docs) is listed in ``docs/internals/extending.md``.

The last test lays a kind out as a folder of dnnl/primitives/ is laid out
(``primitive.py`` registering it, ``plan.py``, ``capi.py``), outside the
package, and imports it beside dnnl in a fresh interpreter: the flat API
exposes its function under its C name, and benchdnn lists its driver,
through the registry record alone.
"""
import ctypes
import textwrap

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
from dnnl.testing import interpreter

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


# -- a kind folder outside the package, in a fresh interpreter ------------------
KIND_FILES = {
    "__init__.py": '''
        """The toy kind: dst = alpha * src, for f32 tensors of one shape."""
        from toy_scale.primitive import toy_scale
        ''',
    "plan.py": '''
        """The toy kind's plan: what a kernel would take (here numpy runs)."""
        import numpy as np


        class Plan:
            def __init__(self, alpha, parallel_min):
                self.alpha = np.float32(alpha)
                self.parallel_min = parallel_min   # a switch reaches the plan

            def run(self, src, dst):
                dst.from_numpy(src.to_numpy() * self.alpha)
        ''',
    "primitive.py": '''
        """The toy kind's descriptor and primitive; registers the kind."""
        import dnnl
        from dnnl._core import format as _format
        from dnnl._core.registry import register_primitive
        from dnnl._core.settings import settings
        from dnnl.primitive import INPUT, OUTPUT, exec_arg, primitive, primitive_desc

        from toy_scale.plan import Plan


        class toy_scale(primitive):
            class primitive_desc(primitive_desc):
                kind = dnnl.primitive_kind.eltwise
                _impl = "toy:any"

                def __init__(self, aengine, alpha, src_md, dst_md, attr=None):
                    self._create(False, self._init, (aengine, alpha, src_md, dst_md, attr))

                def _init(self, aengine, alpha, src_md, dst_md, attr):
                    if src_md != dst_md or src_md.data_type != dnnl.data_type.f32:
                        raise dnnl.invalid_arguments("toy_scale: equal f32 descriptors")
                    self._init_base(aengine, attr, {dnnl.query.src_md: src_md,
                                                    dnnl.query.dst_md: dst_md})
                    self._alpha, self._num_inputs = float(alpha), 1
                    self._declare([exec_arg(dnnl.DNNL_ARG_SRC, src_md, INPUT, "DNNL_ARG_SRC"),
                                   exec_arg(dnnl.DNNL_ARG_DST, dst_md, OUTPUT, "DNNL_ARG_DST")])

                def _build_plan(self, mds):
                    return Plan(self._alpha, settings.toy_scale_parallel_min)

                def _execute(self, mems):
                    plan = self._plans.declared_plan(self._build_plan)
                    plan.run(mems[0], mems[1])
                    return plan

            primitive_desc.__qualname__ = "toy_scale.primitive_desc"


        def _verbose_fields(pd, mds):
            return [_format.name(pd.get_engine().get_kind()), "toy_scale", pd.impl_info_str(),
                    "undef", _format.md_str("src", pd.src_desc(), False), "", "",
                    "alpha%g" % pd._alpha]


        register_primitive(toy_scale, _verbose_fields, "toy_scale.benchdnn",
                           switches={"toy_scale_parallel_min": 1 << 10},
                           capi="toy_scale.capi")
        ''',
    "capi.py": '''
        """The toy kind's flat-API function."""
        from dnnl._core import capi as _b
        from dnnl._core.capi import api, lookup, new_out, obj, opt_obj

        from toy_scale.primitive import toy_scale


        @api(wraps="toy_scale.primitive_desc(engine, alpha, src_md, dst_md, attr)")
        def dnnl_toy_scale_primitive_desc_create(primitive_desc, engine, alpha, src_desc,
                                                 dst_desc, attr):
            _b.out_address(primitive_desc, "primitive_desc")
            eng = lookup(engine, "engine")
            pd = toy_scale.primitive_desc(eng.obj, _b.value(alpha), obj(src_desc, "md"),
                                          obj(dst_desc, "md"), opt_obj(attr, "attr"))
            new_out(primitive_desc, "pd", pd, {"engine": _b.handle_id(engine)})
        ''',
}

KIND_SCRIPT = '''
import ctypes, io, sys, contextlib
import numpy as np
import dnnl
import toy_scale
from toy_scale import toy_scale as K
from dnnl._core.settings import settings
from dnnl.primitive import cache

eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
strm = dnnl.stream(eng)
md = dnnl.memory.desc([2, 3], "f32", "ab")
x = np.arange(6, dtype=np.float32).reshape(2, 3)

# the object API, through the one binder
pd = K.primitive_desc(eng, 2.5, md, md)
src, dst = dnnl.memory.from_array(x.copy()), dnnl.memory(md, eng)
K(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
assert (dst.to_numpy() == x * np.float32(2.5)).all()
try:
    K(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src})
except dnnl.error:
    print("binder refuses")

# the primitive cache: an equal descriptor is a hit
hits = cache.stats()["hits"]
K.primitive_desc(eng, 2.5, md, md)
print("cache hit", cache.stats()["hits"] == hits + 1)

# the switch: in the settings, in the cache key, reaching the plan
key = settings.cache_key()
with settings.changed(toy_scale_parallel_min=7):
    print("switch", settings.cache_key() is not key,
          K.primitive_desc(eng, 2.5, md, md)._plan().parallel_min)

# verbose: the kind's own fields
out = io.StringIO()
with contextlib.redirect_stdout(out):
    dnnl.set_verbose(2)
    K(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst})
    dnnl.set_verbose(0)
print("verbose", [l.split(",exec,")[1].split(",")[:3] for l in out.getvalue().splitlines()
                  if l.startswith("onednn_verbose") and ",exec," in l])

# the flat API: the kind's function under its C name, then the generic ones
from dnnl import capi as lib
P = ctypes.c_void_p
print("capi", "dnnl_toy_scale_primitive_desc_create" in lib.FUNCTIONS)
e, cmd, cpd, prim, s = P(), P(), P(), P(), P()
assert lib.dnnl_engine_create(ctypes.byref(e), lib.dnnl_cpu, 0) == 0
dims = (ctypes.c_int64 * 2)(2, 3)
assert lib.dnnl_memory_desc_create_with_tag(ctypes.byref(cmd), 2, dims, lib.dnnl_f32,
                                            lib.dnnl_ab) == 0
status = lib.dnnl_toy_scale_primitive_desc_create(ctypes.byref(cpd), e, ctypes.c_float(4.0),
                                                  cmd, cmd, None)
assert status == 0, status
assert lib.dnnl_primitive_create(ctypes.byref(prim), cpd) == 0
mems = []
for data in (x, np.zeros_like(x)):
    m = P()
    assert lib.dnnl_memory_create(ctypes.byref(m), cmd, e, data.ctypes.data) == 0
    mems.append(m)
assert lib.dnnl_stream_create(ctypes.byref(s), e, lib.dnnl_stream_default_flags) == 0
args = (lib.dnnl_exec_arg_t * 2)((dnnl.DNNL_ARG_SRC, mems[0]), (dnnl.DNNL_ARG_DST, mems[1]))
out_buf = np.zeros_like(x)
m_out = P()
assert lib.dnnl_memory_create(ctypes.byref(m_out), cmd, e, out_buf.ctypes.data) == 0
args[1].memory = m_out
print("capi run", lib.dnnl_primitive_execute(prim, s, 2, args),
      (out_buf == x * 4).all())
print("bad args", lib.dnnl_toy_scale_primitive_desc_create(ctypes.byref(cpd), e, 1.0, cmd,
                                                           None, None))

# benchdnn finds the kind's driver module through the registry
from dnnl.benchdnn import driver_modules
print("benchdnn", "toy_scale.benchdnn" in driver_modules())
'''


def test_a_kind_folder_outside_the_package_is_served_by_the_registry(tmp_path):
    kind = tmp_path / "toy_scale"
    kind.mkdir()
    for name, text in KIND_FILES.items():
        (kind / name).write_text(textwrap.dedent(text).lstrip())
    script = tmp_path / "run.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\n" % str(tmp_path) + KIND_SCRIPT)
    r = interpreter.run([str(script)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines == [
        "binder refuses",
        "cache hit True",
        "switch True 7",
        "verbose [['cpu', 'toy_scale', 'toy:any']]",
        "capi True",
        "capi run 0 True",
        "bad args %d" % 2,          # dnnl_invalid_arguments: a NULL dst descriptor
        "benchdnn True",
    ], r.stdout + r.stderr
