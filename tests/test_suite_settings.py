"""The suite's own settings (tests/conftest.py): a test marked ``exclusive``
runs while no other test does under pytest-xdist, and a test module without
a scope marker stops the collection."""
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.source

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = '''
import os, time, pytest
pytestmark = pytest.mark.model
def _record(name):
    t0 = time.time(); time.sleep(0.3); t1 = time.time()
    with open(os.environ["TIMES"], "a") as f: f.write("%s %f %f\\n" % (name, t0, t1))
@pytest.mark.parametrize("i", range(4))
def test_before(i): _record("before%d" % i)
@pytest.mark.exclusive
def test_alone(): _record("alone")
@pytest.mark.parametrize("i", range(4))
def test_after(i): _record("after%d" % i)
'''


def _suite(tmp_path, files):
    (tmp_path / "tests").mkdir()
    shutil.copy(os.path.join(HERE, "conftest.py"), tmp_path / "tests" / "conftest.py")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\nmarkers = ["exclusive: x", "model: x"]\n')
    for name, text in files.items():
        (tmp_path / "tests" / name).write_text(text)


def _run(tmp_path, *args, **env):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args, "tests"], cwd=str(tmp_path), capture_output=True,
                          text=True, env=dict(os.environ, **env), timeout=300)


def test_an_exclusive_test_runs_alone_and_the_others_share(tmp_path):
    pytest.importorskip("xdist")
    _suite(tmp_path, {"test_x.py": RECORD})
    times = tmp_path / "times.txt"
    r = _run(tmp_path, "-n", "2", TIMES=str(times))
    assert r.returncode == 0, r.stdout + r.stderr
    spans = {}
    for line in times.read_text().split("\n"):
        if line:
            name, t0, t1 = line.split()
            spans[name] = (float(t0), float(t1))
    alone = spans.pop("alone")
    assert len(spans) == 8
    assert [n for n, (t0, t1) in spans.items() if t0 < alone[1] and t1 > alone[0]] == []
    # (and the others did run two at a time)
    assert any(a0 < b1 and b0 < a1 for a, (a0, a1) in spans.items()
               for b, (b0, b1) in spans.items() if a < b)


def test_a_module_without_a_scope_marker_stops_the_collection(tmp_path):
    _suite(tmp_path, {"test_unmarked.py": "def test_one():\n    pass\n"})
    r = _run(tmp_path, "-p", "no:xdist")
    assert r.returncode != 0
    assert "without a scope marker" in r.stdout + r.stderr
    assert "test_unmarked.py" in r.stdout + r.stderr
