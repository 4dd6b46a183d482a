"""The benchmark scripts run: a smoke test of ``benchmarks/bench_calls.py``
(its output's shape only; timings are not asserted, the machine is shared),
started outside the checkout as a user of an installed wheel would: the
script takes the checkout's dnnl only when it is built in place."""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "benchmarks", "bench_calls.py")

# CI's wheel run copies tests/ without benchmarks/
pytestmark = [pytest.mark.package,
              pytest.mark.skipif(not os.path.exists(SCRIPT), reason="no benchmarks/ here")]


def test_bench_calls_quick(tmp_path):
    out = tmp_path / "calls.json"
    run = subprocess.run([sys.executable, SCRIPT, "--quick", "--threads", "1",
                          "--rows", "small.convert,small.desc", "--json", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # ours, the peers, then ours / best peer: median [q1, q3] and its name
    ratio = r"\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]  \w+"
    assert re.search(r"^convert nchw->nhwc 1x16x7x7 .* " + ratio + "$", run.stdout, re.M), \
        run.stdout
    assert re.search(r"^memory\.desc\(.* " + ratio + "$", run.stdout, re.M), run.stdout
    assert "CHECK FAILED" not in run.stdout
    rows = json.loads(out.read_text())["rows"]
    assert [r["row"] for r in rows] == ["small.convert", "small.desc"]
    assert all(len(r["samples"]["ours"]) == 3 and "ratio" in r for r in rows)


def test_bench_busy_quick(tmp_path):
    """One row per op asked for, with the idle one-thread time, ours, ours on
    one thread and PyTorch's figures (when installed); the JSON keeps them."""
    out = tmp_path / "busy.json"
    script = os.path.join(ROOT, "benchmarks", "bench_busy.py")
    run = subprocess.run([sys.executable, script, "--quick", "--loads", "idle",
                          "--ops", "convert,prepared_reorder", "--json", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    num = r"\s+\d+\.\d+"
    for op in ("convert", "prepared_reorder"):
        assert re.search(r"^%s 1x16x28x28%s" % (op, num * 5), run.stdout, re.M), run.stdout
    rows = json.loads(out.read_text())["loads"]["idle"]["rows"]
    assert sorted(rows) == ["convert 1x16x28x28", "prepared_reorder 1x16x28x28"]
    assert all(len(r["samples"]["ours"]) == 3 and r["one_thread"] > 0 for r in rows.values())


def test_bench_sweep_quick(tmp_path):
    script = os.path.join(ROOT, "benchmarks", "bench_sweep.py")
    run = subprocess.run([sys.executable, script, "--quick", "--ops", "convert,bilinear_nhwc",
                          "--sizes", "1x16x7x7"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    ratio = r"\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]$"
    assert re.search(r"^convert\s+1x16x7x7 .* " + ratio, run.stdout, re.M), run.stdout
    # resampling's peers are PyTorch and OpenCV; without both the row says so
    peerless = importlib.util.find_spec("torch") is None and importlib.util.find_spec("cv2") is None
    resample = r"\(no peer installed\)$" if peerless else ratio
    assert re.search(r"^bilinear_nhwc\s+1x16x7x7 .* " + resample, run.stdout, re.M), run.stdout
    assert "CHECK FAILED" not in run.stdout
