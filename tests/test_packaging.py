"""The package as a user gets it: one version, a clear error when unbuilt."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import dnnl

pytestmark = pytest.mark.package


def test_version_is_the_distribution_version():
    from dnnl._version import __version__
    assert dnnl.__version__ == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.\w+)?", __version__)
    try:
        from importlib.metadata import PackageNotFoundError, version
        assert version("dnnl-python") == __version__
    except PackageNotFoundError:      # an in-place build: no metadata
        pass


def _import_copy(tmp_path, source_tree):
    """``import dnnl`` from a copy of the package without compiled modules."""
    pkg = os.path.dirname(dnnl.__file__)
    shutil.copytree(pkg, tmp_path / "dnnl",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    if source_tree:
        (tmp_path / "setup.py").write_text("")
    env = dict(os.environ, PYTHONPATH="")
    # -S: no site-packages, so no editable-install finder can supply the
    # compiled modules of another copy (the check runs before numpy is needed)
    return subprocess.run([sys.executable, "-S", "-c", "import dnnl"], cwd=tmp_path,
                          capture_output=True, text=True, env=env)


def test_unbuilt_source_tree_says_what_to_run(tmp_path):
    r = _import_copy(tmp_path, source_tree=True)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()
    message = "\n".join(last[-2:])
    assert message.startswith("ImportError: dnnl is being imported from its source tree")
    assert str(tmp_path) in message
    assert "pip install -e ." in message and "build_ext --inplace" in message
    assert "run Python from another directory" in message
    assert "No module named 'dnnl._core._constants'" in message


def test_broken_install_says_reinstall(tmp_path):
    r = _import_copy(tmp_path, source_tree=False)
    assert r.returncode != 0
    assert "reinstall the package" in r.stderr
    assert "No module named 'dnnl._core._constants'" in r.stderr
