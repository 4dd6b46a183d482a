"""A primitive kind from outside the package: one folder, no edit in dnnl/.

The toy kind ``toy_scale`` (``dst = alpha * src``) is written into a
temporary folder as a kind folder of dnnl/primitives/ is laid out
(``primitive.py`` registering it, ``plan.py``, ``capi.py``, the package
``__init__``), imported beside dnnl in a fresh interpreter, and then found by
everything the registry serves: the object API with its binder, the
primitive cache, verbose, the implementation switches and their cache key,
the flat API (``dnnl.capi`` exposes its function under its C name) and
benchdnn's driver list. An in-tree kind adds only its public names to
dnnl/__init__.py and dnnl/__init__.pyi, and its page to the docs index
(docs/internals/extending.md).
"""
import textwrap

import pytest

from dnnl.testing import interpreter

pytestmark = pytest.mark.package

FILES = {
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

SCRIPT = '''
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


def test_a_kind_outside_the_package_is_served_by_everything(tmp_path):
    kind = tmp_path / "toy_scale"
    kind.mkdir()
    for name, text in FILES.items():
        (kind / name).write_text(textwrap.dedent(text).lstrip())
    script = tmp_path / "run.py"
    script.write_text("import sys\nsys.path.insert(0, %r)\n" % str(tmp_path) + SCRIPT)
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
