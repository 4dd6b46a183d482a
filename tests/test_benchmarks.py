"""The benchmark scripts run: a smoke test of ``benchmarks/bench_calls.py``
(its output's shape only; timings are not asserted, the machine is shared),
started outside the checkout as a user of an installed wheel would: the
script takes the checkout's dnnl only when it is built in place."""
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "benchmarks", "bench_calls.py")

# CI's wheel run copies tests/ without benchmarks/
pytestmark = pytest.mark.skipif(not os.path.exists(SCRIPT), reason="no benchmarks/ here")


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
