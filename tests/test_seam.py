"""The seam between primitive descriptors and kernels.

The package is layered without import circles, verbose is a leaf, constants
come only from the header, every primitive binds its execution arguments
through one binder, and verbose / repr / attr.to_str speak with one voice.
"""
import ast
import functools
import glob
import os
import re
import sys

import numpy as np
import pytest

import dnnl
from dnnl import verbose
from dnnl.resampling import post_op_src1_arg, resampling_forward
from dnnl.testing import interpreter

pytestmark = pytest.mark.source

# the package under test: the source tree, or the installed wheel
PKG = os.path.dirname(os.path.abspath(dnnl.__file__))
ROOT = os.path.dirname(PKG)
GENERATED = {"dnnl/_core/_constants.pyx", "dnnl/_core/dnnl_types.pxd",
             "dnnl/primitives/reorder/kernel.pyx", "dnnl/_kernels/cvt.pxd"}
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STRM = dnnl.stream(ENG)
A = dnnl.algorithm


def _sources(exts):
    for base, dirs, files in os.walk(PKG):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for fn in sorted(files):
            path = os.path.join(base, fn)
            rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
            if fn.endswith(exts) and rel not in GENERATED:
                yield rel, path


def _read(path):
    with open(path) as f:
        return f.read()


def _module(rel):
    mod = rel.rsplit(".", 1)[0].replace("/", ".")
    return mod[:-len(".__init__")] if mod.endswith(".__init__") else mod


def _import_graph():
    """{module: {dnnl modules it imports}} from every import statement of
    every .py / .pyx (module level and function level alike)."""
    mods = {_module(rel): path for rel, path in _sources((".py", ".pyx"))}
    graph = {}
    for mod, path in mods.items():
        text = _read(path)
        if path.endswith(".pyx"):    # cimports are compile time, not imports
            names = re.findall(r"^\s*(?:from\s+(dnnl[\w.]*)\s+import|import\s+(dnnl[\w.]*))",
                               text, re.M)
            targets = {a or b for a, b in names}
        else:
            targets = set()
            pkg = mod if path.endswith("__init__.py") else mod.rsplit(".", 1)[0]
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Import):
                    targets |= {a.name for a in node.names}
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        parts = pkg.split(".")
                        base = ".".join(parts[:len(parts) - node.level + 1] + [base]).strip(".")
                    targets.add(base)
                    targets |= {base + "." + a.name for a in node.names}
        graph[mod] = {t for t in targets if t in mods and t != mod}
    return graph


def _reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _module_names(tree, mod, mods):
    """{local name: dnnl module} for the names ``tree`` binds to modules."""
    pkg = mod.rsplit(".", 1)[0]
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in mods:
                    names[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                                + [base]).strip(".")
            for a in node.names:
                if base + "." + a.name in mods:
                    names[a.asname or a.name] = base + "." + a.name
    return names


def _injected(tree, mod, mods):
    """[(target module, attribute)] that module ``mod`` (parsed as ``tree``)
    assigns (or setattr / delattr) on another dnnl module of ``mods``."""
    names = _module_names(tree, mod, mods)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = getattr(node, "targets", None) or [node.target]
            hits = [(e.value, e.attr) for t in targets for e in ast.walk(t)
                    if isinstance(e, ast.Attribute) and isinstance(e.ctx, ast.Store)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            hits = [(node.args[0], "<%s>" % node.func.id)]
        else:
            continue
        found += [(names[v.id], attr) for v, attr in hits
                  if isinstance(v, ast.Name) and names.get(v.id, mod) != mod]
    return found


def _injections():
    """[(module, target module, attribute)] over the package's Python source.
    The target reads, at run time, what the injecting module gives it: a
    dependency no import statement shows."""
    mods = {_module(rel) for rel, _ in _sources((".py", ".pyx"))}
    found = []
    for rel, path in _sources((".py",)):
        mod = _module(rel)
        tree = ast.parse(_read(path))
        found += [(mod, t, a) for t, a in _injected(tree, mod, mods)]
    return sorted(found)


def _full_graph():
    """The import graph plus an edge target -> injector for every injected
    module attribute (the target runs the injector's code)."""
    graph = _import_graph()
    for mod, target, _ in _injections():
        graph[target].add(mod)
    return graph


def _circles(graph):
    """The import circles of ``graph``: its strongly connected components of
    more than one module (Tarjan), each as a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def _without_parents(graph):
    # "from dnnl.pkg import sub" names the package only to reach the
    # submodule: an edge to one's own parent package is not a circle
    return {k: {t for t in v if not k.startswith(t + ".")} for k, v in graph.items()}


def _cycles(prefix):
    graph = _without_parents(_full_graph())
    return sorted(m for m in graph if m != "dnnl" and m.startswith(prefix)
                  and m in _reachable(graph, m))


def test_no_import_circle():
    assert not [m for m in _cycles("dnnl.") if not m.startswith("dnnl.benchdnn")]


def test_no_import_circle_in_benchdnn():
    assert not _cycles("dnnl.benchdnn")


def test_no_module_attribute_is_injected():
    """No module sets another module's attributes at run time (such as the
    primitive layer once handing verbose its thread query)."""
    assert _injections() == []


def test_the_injection_finder_sees_an_injection():
    code = ("import dnnl.verbose as v\nfrom dnnl.primitive import cache as _cache\nfrom dnnl._model.desc import desc\n"
            "desc.x = 1\n"
            "def f():\n    v.max_threads = len\n    setattr(_cache, 'y', 1)\n")
    mods = {"dnnl.primitive", "dnnl.verbose", "dnnl.primitive.cache", "dnnl._model.desc"}
    assert _injected(ast.parse(code), "dnnl.primitive", mods) == [
        ("dnnl.verbose", "max_threads"), ("dnnl.primitive.cache", "<setattr>")]
    # the circle such an assignment makes: verbose runs primitive's code
    graph = {"dnnl.primitive": {"dnnl.verbose"}, "dnnl.verbose": {"dnnl.primitive"},
             "dnnl.memory": set()}
    assert _circles(graph) == [["dnnl.primitive", "dnnl.verbose"]]


def test_import_graph_has_no_circle_counting_injections():
    """Every import (module and function level) plus every injected module
    attribute: 0 circles in the whole package."""
    circles = _circles(_without_parents(_full_graph()))
    print("import graph of dnnl/: %d modules, %d circles"
          % (len(_import_graph()), len(circles)))
    assert circles == []


def _folder(mod):
    """The layer folder a module belongs to: the package's first-level folder
    (``dnnl._core``, ``dnnl.attr``...), a primitive kind's folder
    (``dnnl.primitives.reorder``), or ``dnnl`` for a module at the top."""
    parts = mod.split(".")
    if len(parts) > 2 and parts[1] == "primitives":
        return ".".join(parts[:3])
    if len(parts) > 2 or mod in _packages():
        return ".".join(parts[:2])
    return "dnnl"


@functools.lru_cache(maxsize=None)
def _packages():
    """The package's packages (folders with an __init__.py), found once."""
    return frozenset(_module(rel) for rel, _ in _sources(("__init__.py",)))


# the tools over the layers: they may import any layer, no layer imports them
TOOLS = ("dnnl.benchdnn", "dnnl.testing", "dnnl.draw")


def _folder_graph():
    """{folder: {folders its modules import}} over the layers (the package's
    top-level modules and the tools left out; a package's imports of its
    own submodules not counted)."""
    graph = {}
    for mod, targets in _without_parents(_import_graph()).items():
        src = _folder(mod)
        if src == "dnnl" or mod.startswith(TOOLS):
            continue
        dst = {_folder(t) for t in targets if not t.startswith(TOOLS)} - {src, "dnnl"}
        graph.setdefault(src, set()).update(dst)
    return graph


def _layers(graph):
    """The folders in layer order, lowest first (each after everything it
    imports; ties by name), or None when the folders import in a circle."""
    order, left = [], dict(graph)
    while left:
        ready = sorted(f for f, ts in left.items() if not (ts & set(left)))
        if not ready:
            return None
        order += ready
        for f in ready:
            del left[f]
    return order


def test_folders_are_layers():
    """Every folder imports only from itself and from folders below it: the
    folders' import graph has no circle, so it orders them, and the
    architecture page has a row for each."""
    graph = _folder_graph()
    order = _layers(graph)
    assert order is not None, _circles(graph)
    print("layers, lowest first:", " < ".join(f[5:] for f in order))
    assert order.index("dnnl._core") < order.index("dnnl._model") < order.index("dnnl.attr") \
        < order.index("dnnl.primitive") < order.index("dnnl.primitives.reorder") \
        < order.index("dnnl.arrays")
    page = os.path.join(ROOT, "docs", "internals", "architecture.md")
    if os.path.exists(page):      # a source tree: every folder has its row (the
        text = _read(page)        # kinds share primitives/<kind>/'s)
        rows = {"primitives/<kind>" if f.startswith("dnnl.primitives.") else
                f[5:].replace(".", "/") for f in order}
        missing = sorted(r for r in rows if "`%s/`" % r not in text)
        assert missing == [], "docs/internals/architecture.md has no row for %s" % missing


def test_the_layer_check_sees_a_circle():
    graph = {"dnnl._core": set(), "dnnl._model": {"dnnl._core", "dnnl.attr"},
             "dnnl.attr": {"dnnl._model"}}
    assert _layers(graph) is None
    assert _layers({"dnnl._core": set(), "dnnl._model": {"dnnl._core"}}) == [
        "dnnl._core", "dnnl._model"]
    assert _folder("dnnl.primitives.reorder.plan") == "dnnl.primitives.reorder"
    assert _folder("dnnl._core.enums") == "dnnl._core" and _folder("dnnl.draw") == "dnnl"
    assert _folder("dnnl.attr") == "dnnl.attr"


def test_kinds_never_import_each_other():
    """What two kinds share lives a layer below them."""
    graph = _folder_graph()
    kinds = {f for f in graph if f.startswith("dnnl.primitives.")}
    assert len(kinds) >= 2
    assert {k: sorted(graph[k] & kinds) for k in kinds if graph[k] & kinds} == {}


def test_a_leading_underscore_is_private_to_its_folder():
    """``dnnl/attr/_values.py`` is imported only from ``dnnl/attr/``;
    ``dnnl/_core/`` is private to ``dnnl/`` (usable anywhere in it)."""
    bad = []
    for mod, targets in _import_graph().items():
        for t in targets:
            parts = t.split(".")
            for i in range(1, len(parts)):
                if parts[i].startswith("_") and not parts[i].startswith("__"):
                    owner = ".".join(parts[:i])
                    if mod != owner and not mod.startswith(owner + "."):
                        bad.append((mod, t))
    assert bad == []


def test_no_layer_imports_a_tool():
    graph = _import_graph()
    bad = {m: sorted(t for t in ts if t.startswith(TOOLS))
           for m, ts in graph.items()
           if _folder(m) != "dnnl" and not m.startswith(TOOLS)}
    assert {m: t for m, t in bad.items() if t} == {}


def test_kernel_side_imports_only_low_level_modules():
    """Plans and kernels know the core (enums, data types, errors, keys),
    the platform, the kernel toolkit and descriptor offsets, never an API
    object (attr, memory, a primitive) nor the settings (a plan builder
    takes its switches as arguments)."""
    graph = _import_graph()
    kernel_side = [m for m in graph if m.startswith(("dnnl._kernels", "dnnl.primitives."))
                   and m.rsplit(".", 1)[1] in ("plan", "kernel", "_kernels")]
    assert len(kernel_side) >= 4
    low = ("dnnl._core.", "dnnl._platform.", "dnnl._kernels", "dnnl._model.offsets")
    packages = _packages()
    bad = {m: sorted(t for t in graph[m] if not t.startswith(low) and t not in packages
                     and _folder(t) != _folder(m))
           for m in kernel_side}
    assert {m: t for m, t in bad.items() if t} == {}
    assert not [m for m in kernel_side if "dnnl._core.settings" in graph[m]]


def test_kernels_built_per_level_are_reached_through_load():
    """``dnnl._kernels.load`` picks the ISA level: an import of such a
    kernel by its name, in the package or the tests, would get the baseline
    build instead (docs/internals/architecture.md)."""
    per_level = {rel.split(".pyx")[0].replace("/", ".")
                 for rel, _ in _sources((".pyx", ".pyx.in"))
                 if rel.startswith(("dnnl/primitives/", "dnnl/testing/probes/"))}
    assert "dnnl.primitives.reorder.kernel" in per_level
    assert "dnnl.testing.probes.convert" in per_level
    graph = _import_graph()
    assert {m: sorted(t & per_level) for m, t in graph.items() if t & per_level} == {}
    found = []
    for path in glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True):
        for node in ast.walk(ast.parse(_read(path))):
            if isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module} | {node.module + "." + a.name for a in node.names}
            else:
                continue
            found += [(os.path.basename(path), n) for n in sorted(names & per_level)]
    assert found == []


def test_no_source_file_is_over_800_lines():
    """One concept per file: no hand-written source of the package (Python,
    Cython, Cython include, template, C header) is longer than 800 lines; a
    longer one becomes a folder."""
    lengths = {rel: len(_read(path).splitlines())
               for rel, path in _sources((".py", ".pyx", ".pxd", ".pxi", ".in", ".h"))}
    assert {rel: n for rel, n in lengths.items() if n > 800} == {}
    assert len(lengths) > 40


def test_no_version_siblings_and_no_ordered_imports():
    """No ``_v2`` module beside its first version, and no import placed
    after code to get an order: every module-level import of the package's
    Python comes before its first definition."""
    assert [rel for rel, _ in _sources((".py", ".pyx")) if re.search(r"_v\d+\.", rel)] == []
    late = []
    for rel, path in _sources((".py",)):
        seen_def = False
        for node in ast.parse(_read(path)).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                seen_def = True
            elif isinstance(node, (ast.Import, ast.ImportFrom)) and seen_def:
                late.append("%s:%d" % (rel, node.lineno))
    assert late == []


def test_verbose_is_a_leaf():
    graph = _import_graph()
    below = _reachable(graph, "dnnl.verbose")
    assert not below & {"dnnl.primitive", "dnnl.primitives.reorder.primitive",
                        "dnnl.primitives.resampling.primitive", "dnnl._model.memory",
                        "dnnl.attr", "dnnl.capi"}, below
    assert not [m for m in below if m.startswith(("dnnl._kernels", "dnnl.primitives"))], below


def test_no_public_name_hides_a_module():
    """``import dnnl.X as m`` gives the module X, never a class of the same
    name: the classes dnnl.memory, dnnl.engine and dnnl.reorder live in
    _memory.pyx, _engine.py and _reorder.py."""
    import importlib
    import pkgutil
    import types
    hidden = []
    for info in pkgutil.iter_modules(dnnl.__path__):
        attr = getattr(dnnl, info.name, None)
        if attr is not None and not isinstance(attr, types.ModuleType):
            hidden.append(info.name)
        elif not info.name.startswith("_"):
            assert importlib.import_module("dnnl." + info.name) is sys.modules[
                "dnnl." + info.name]
    assert hidden == []
    for name in ("memory", "engine", "reorder"):     # the classes themselves
        assert isinstance(getattr(dnnl, name), type)


@pytest.mark.parametrize("mod", sorted(_module(rel) for rel, _ in _sources((".py",))
                                       if "/benchdnn/__main__" not in rel))
def test_every_module_imports_alone(mod):
    """Each module imports first in a fresh interpreter (no hidden order)."""
    r = interpreter.run(["-c", "import %s" % mod], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


# constants restated by hand: NAME = <number> with a data-type / algorithm /
# post-op-kind name, DEF constants of the same, number comparisons of a type
_LITERAL = [
    re.compile(r"^\s*(?:DEF\s+)?\w*(?:DT|ALG|PO)_\w*\s*=\s*(?:0x[0-9a-fA-F]+|\d+)\b", re.M),
    re.compile(r"\b(?:dt|sdt|ddt|data_type|alg|kind)\s*[=!]=\s*(?:0x[0-9a-fA-F]+|\d+)\b"),
    re.compile(r"\{\s*\d+\s*:\s*\d+\s*,\s*\d+\s*:\s*\d+"),   # {code: size, ...}
]


def test_no_literal_data_type_or_algorithm_values():
    bad = []
    for rel, path in _sources((".py", ".pyx", ".pxd", ".h")):
        text = _read(path)
        for rx in _LITERAL:
            bad += ["%s: %s" % (rel, m.group(0).strip()) for m in rx.finditer(text)]
    assert not bad, bad


# ----------------------------------------------------------------- the binder
def _reorder_pair(shape=(1, 16, 7, 7)):
    src = dnnl.memory(dnnl.memory.desc(list(shape), "f32", "nchw"), ENG)
    dst = dnnl.memory(dnnl.memory.desc(list(shape), "f32", "nhwc"), ENG)
    return src, dst


@pytest.mark.parametrize("args", [lambda s, d: [s, d], lambda s, d: (s, d),
                                  lambda s, d: "src", lambda s, d: None])
def test_binder_refuses_a_non_map(args):
    src, dst = _reorder_pair()
    r = dnnl.reorder(src, dst)
    with pytest.raises(dnnl.error) as e:
        r.execute(STRM, args(src, dst))
    assert isinstance(e.value, dnnl.invalid_type) and isinstance(e.value, TypeError)
    assert e.value.status == dnnl.status.invalid_arguments


def test_binder_refuses_a_non_memory_and_writes_nothing():
    src, dst = _reorder_pair()
    src.from_numpy(np.ones((1, 16, 7, 7), np.float32))
    dst.from_numpy(np.zeros((1, 16, 7, 7), np.float32))
    r = dnnl.reorder(src, dst)
    with pytest.raises(TypeError) as e:
        r.execute(STRM, {dnnl.DNNL_ARG_FROM: np.ones(4), dnnl.DNNL_ARG_TO: dst})
    assert isinstance(e.value, dnnl.error)
    with pytest.raises(ValueError):
        r.execute(STRM, {dnnl.DNNL_ARG_TO: dst})
    with pytest.raises(dnnl.error):
        r.execute("stream", {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    assert not dst.to_numpy().any()


def test_resampling_binds_the_same_way():
    src_md = dnnl.memory.desc([1, 2, 4, 4], "f32", "nchw")
    dst_md = dnnl.memory.desc([1, 2, 8, 8], "f32", "nchw")
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                           A.resampling_nearest, src_md, dst_md)
    src, dst = dnnl.memory(src_md, ENG), dnnl.memory(dst_md, ENG)
    with pytest.raises(TypeError) as e:
        resampling_forward(pd).execute(STRM, [src, dst])
    assert isinstance(e.value, dnnl.error)
    with pytest.raises(dnnl.error):     # a memory too small for the primitive's md
        resampling_forward(pd).execute(STRM, {dnnl.DNNL_ARG_SRC: src,
                                              dnnl.DNNL_ARG_DST: src})


def test_descriptors_declare_every_argument():
    src, dst = _reorder_pair((2, 3, 4, 4))
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_FROM, 0)
    attr.set_zero_points_mask(dnnl.DNNL_ARG_TO, 0)
    dst = dnnl.memory(dnnl.memory.desc([2, 3, 4, 4], "s8", "nhwc"), ENG)
    pd = dnnl.reorder.primitive_desc(src, dst, attr)
    decl = pd.exec_args()
    assert decl[dnnl.DNNL_ARG_FROM] == (src.get_desc(), "input")
    assert decl[dnnl.DNNL_ARG_TO] == (dst.get_desc(), "output")
    assert decl[dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_FROM][1] == "input"
    assert decl[dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_TO][1] == "input"
    assert len(decl) == 4
    po = dnnl.post_ops()
    po.append_binary(A.binary_add, dnnl.memory.desc([1, 3, 1, 1], "f32", "nchw"))
    rattr = dnnl.primitive_attr()
    rattr.set_post_ops(po)
    rpd = resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_inference, A.resampling_linear, [2.0, 2.0],
        dnnl.memory.desc([1, 3, 4, 4], "f32", "nchw"), rattr)
    assert set(rpd.exec_args()) == {dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST,
                                    post_op_src1_arg(0)}


def test_create_turns_only_dnnl_errors_into_an_empty_descriptor(monkeypatch):
    R = sys.modules["dnnl.primitives.reorder.primitive"]
    src, dst = _reorder_pair()
    bad = dnnl.memory(dnnl.memory.desc([1, 16, 7, 8], "f32", "nchw"), ENG)
    assert not dnnl.reorder.primitive_desc(src, bad, allow_empty=True)

    def bug(*args):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(R, "_validate", bug)
    old = dnnl.get_primitive_cache_capacity()
    dnnl.set_primitive_cache_capacity(0)    # a cached descriptor would skip _validate
    try:
        with pytest.raises(ZeroDivisionError):
            dnnl.reorder.primitive_desc(src, dst, allow_empty=True)
    finally:
        dnnl.set_primitive_cache_capacity(old)


# ----------------------------------------------------------- one formatter
@pytest.mark.parametrize("dims,tag", [([2, 1, 4, 4], "acdb"), ([1, 1, 4], "acb"),
                                      ([4, 1, 2, 2], "cdba")])
def test_repr_and_verbose_name_the_same_tag(dims, tag):
    md = dnnl.memory.desc(dims, "f32", tag)
    assert verbose.tag_str(md) == tag       # oneDNN's verbose prints the tag given
    assert repr(md) == "<dnnl.memory.desc f32 %s %s>" % ("x".join(map(str, dims)), tag)


def _verbose_lines(code, **env):
    r = interpreter.run(["-c", code], capture_output=True, text=True,
                        env=dict(os.environ, ONEDNN_VERBOSE="2", **env))
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_verbose_reports_the_thread_count_that_runs():
    code = ("import dnnl\n"
            "from dnnl._platform.threads import max_threads\n"
            "e = dnnl.engine(dnnl.engine.kind.cpu, 0)\n"
            "m = dnnl.memory(dnnl.memory.desc([2, 3], 'f32', 'ab'), e)\n"
            "dnnl.reorder(m, m).execute(dnnl.stream(e), m, m)\n"
            "print('max_threads', max_threads())\n")
    lines = _verbose_lines(code, OMP_NUM_THREADS="1")
    assert "onednn_verbose,v1,info,cpu,runtime:threadpool,nthr:1" in lines
    assert lines[-1] == "max_threads 1"
    assert any(",exec,cpu,reorder,cython:copy," in ln for ln in lines)


def test_thread_limits_set_at_run_time_are_honoured():
    """threadpoolctl limits OpenMP through omp_set_num_threads: the kernels
    and verbose follow (dnnl_threads.h asks OpenMP on every call)."""
    # the libgomp the kernels loaded, as threadpoolctl finds it: the system's,
    # or the copy a repaired (manylinux) wheel bundles as libgomp-<hash>.so
    code = ("import ctypes\n"
            "import dnnl\n"
            "from dnnl._platform.threads import max_threads\n"
            "gomp = {l.split()[-1] for l in open('/proc/self/maps') if '/libgomp' in l}\n"
            "assert len(gomp) == 1, gomp\n"
            "ctypes.CDLL(gomp.pop()).omp_set_num_threads(1)\n"
            "print(max_threads())\n")
    r = interpreter.run(["-c", code], capture_output=True, text=True,
                        env=dict(os.environ, OMP_NUM_THREADS="2"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1"]


@pytest.mark.skipif(not os.path.isfile(os.path.join(ROOT, "tools", "private_access.py")),
                    reason="needs the source tree's tools/ (CI copies it)")
def test_no_module_reads_another_modules_private_fields():
    """Each type owns its fields: tools/private_access.py counts, over the
    package's .py and .pyx sources, the reads of a private field defined in
    another file."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import private_access
    finally:
        sys.path.pop(0)
    uses = private_access.count(PKG)
    assert uses == [], uses


def test_compiled_modules_run_their_doctests():
    """The docstring examples of the Cython-compiled modules (pytest's
    --doctest-modules collects .py files only) run, and there are some."""
    import doctest
    from dnnl._model import desc as _desc
    from dnnl._model import memory as _memory
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    for module in (_desc, _memory):
        result = doctest.testmod(module, optionflags=flags)
        assert result.attempted > 0 and result.failed == 0, (module.__name__, result)


def test_the_kernels_post_op_capacity_is_the_attributes_limit():
    """dnnl/_kernels/spatial.pxd sizes its PostOps arrays at compile time, so
    it cannot import dnnl.attr.POST_OPS_LIMIT: the two must agree (a longer
    chain the attributes accepted would overrun the kernel's arrays)."""
    text = _read(os.path.join(PKG, "_kernels", "spatial.pxd"))
    found = re.findall(r"^\s*MAX_POST_OPS\s*=\s*(\d+)\s*$", text, re.M)
    assert found == [str(dnnl.attr.POST_OPS_LIMIT)]
