"""The type stubs: complete, in step with the runtime, and good enough for
``mypy --strict`` on a user script (examples/typed_usage.py) and on the
examples of every page of docs/ (each page's doctests as one script)."""
import ast
import doctest
import glob
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

from dnnl.testing import interpreter

pytestmark = pytest.mark.typing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _stub_names(path):
    tree = ast.parse(pathlib.Path(path).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
    return names


def test_every_public_name_has_a_stub():
    # a fresh interpreter: other tests import submodules (dnnl.testing...)
    out = interpreter.run(["-c", "import dnnl; print(dnnl.__file__, *vars(dnnl))"],
                          capture_output=True, text=True, check=True).stdout.split()
    # the stubs beside the dnnl that imports (source tree or installed package)
    stubbed = _stub_names(os.path.join(os.path.dirname(out[0]), "__init__.pyi"))
    public = {n for n in out[1:] if not n.startswith("_")}
    assert public - stubbed == set()


TOOLS = os.path.join(ROOT, "tools")
needs_tools = pytest.mark.skipif(not os.path.isdir(TOOLS),
                                 reason="needs the source tree's tools/ (CI copies it)")


@needs_tools
def test_generated_stubs_are_current():
    r = interpreter.run([os.path.join(ROOT, "tools", "gen_stubs.py"), "--check"],
                        capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def _mypy_env():
    """The environment in which mypy sees the stubs of the dnnl under test: an
    in-place build through MYPYPATH (mypy refuses site-packages there; an
    installed copy it finds by itself)."""
    env = interpreter.environment()
    if interpreter.PACKAGE_PARENT == ROOT:
        rest = os.environ.get("MYPYPATH")
        env["MYPYPATH"] = os.pathsep.join([ROOT] + ([rest] if rest else []))
    return env


def _mypy(args, tmp_path):
    pytest.importorskip("mypy")
    cmd = [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")] + args
    return subprocess.run(cmd, capture_output=True, text=True, cwd=str(tmp_path),
                          env=_mypy_env())


@needs_tools
def test_stubs_match_runtime(tmp_path):
    pytest.importorskip("mypy")
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "dnnl", "--concise",
                        "--mypy-config-file", os.devnull,
                        "--allowlist", os.path.join(ROOT, "tools", "stubtest_allowlist.txt")],
                       capture_output=True, text=True, cwd=str(tmp_path),  # its cache
                       env=_mypy_env())
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_user_script_and_pages(tmp_path):
    scripts = [os.path.join(ROOT, "examples", "typed_usage.py")]
    parser = doctest.DocTestParser()
    # examples that need PyTorch (docs/conftest.py): checked where it is installed
    needs_torch = doctest.register_optionflag("NEEDS_TORCH")
    torch = importlib.util.find_spec("torch") is not None
    for page in sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)):
        source = "".join(e.source for e in parser.get_examples(pathlib.Path(page).read_text())
                         if torch or not e.options.get(needs_torch))
        # errors.md calls the API with wrong types on purpose (what it raises);
        # dask.md needs the optional dask (its doctests are skipped alike)
        if not source or page.endswith("errors.md") or (
                page.endswith("dask.md") and importlib.util.find_spec("dask") is None):
            continue
        name = os.path.relpath(page, os.path.join(ROOT, "docs"))[:-3]
        path = tmp_path / ("page_%s.py" % name.replace(os.sep, "_"))
        path.write_text(source)
        scripts.append(str(path))
    r = _mypy(["--strict"] + scripts, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
