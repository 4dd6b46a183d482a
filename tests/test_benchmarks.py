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


def _machine():
    spec = importlib.util.spec_from_file_location(
        "bench_machine", os.path.join(ROOT, "benchmarks", "machine.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _proc(root, loadavg, stat, procs):
    """A fake /proc: loadavg, stat's cpu line, and {pid: (name, utime, stime,
    starttime)}."""
    root.mkdir(exist_ok=True)
    (root / "loadavg").write_text(loadavg)
    (root / "stat").write_text("cpu  %s\ncpu0 1 2 3 4\n" % stat)
    for pid, (name, ut, st, start) in procs.items():
        d = root / str(pid)
        d.mkdir(exist_ok=True)
        # pid (comm) state ppid ... : utime and stime are fields 14 and 15,
        # starttime 22; a name with spaces and parentheses, as comm may be
        rest = ["S"] + ["0"] * 10 + [str(ut), str(st)] + ["0"] * 6 + [str(start), "0"]
        (d / "stat").write_text("%d (%s) %s\n" % (pid, name, " ".join(rest)))


def test_machine_says_when_the_benchmark_was_not_alone(tmp_path):
    """benchmarks/machine.py on a fake /proc: the busiest other processes
    between two looks, the others' CPUs over a watched run, the verdict."""
    m = _machine()
    proc = tmp_path / "proc"
    _proc(proc, "1.50 0.80 0.30 3/120 999\n", "100 0 50 1000 10 0 0 40 0 0",
          {10: ("python", 100, 20, 5), 11: ("kworker/0:1-events", 1, 1, 6),
           12: ("a (b) c", 0, 0, 7), 13: ("me", 500, 0, 8)})
    assert m.loadavg(str(proc)) == (1.5, 0.8, 0.3, 3)
    before = m.process_ticks(str(proc))
    assert before[12] == ("a (b) c", 0, 7)
    # a second later (100 ticks a second): python used 90 ticks, the kernel
    # worker renamed itself and used 5, pid 12 is a new process of 10 ticks,
    # 13 (ourselves) is left out
    _proc(proc, "1.50 0.80 0.30 3/120 999\n", "100 0 50 1000 10 0 0 40 0 0",
          {10: ("python", 180, 30, 5), 11: ("kworker/0:1-mm", 4, 3, 6),
           12: ("new", 10, 0, 9), 13: ("me", 900, 0, 8)})
    after = m.process_ticks(str(proc))
    assert m.busiest(before, after, 1.0, exclude={13}, hz=100) == [
        (0.9, "python", 10), (0.1, "new", 12), (0.05, "kworker/0:1-mm", 11)]
    seen = {"loadavg": m.loadavg(str(proc)), "busiest": [(0.9, "python", 10)]}
    assert m.describe(seen) == ("load average 1.50 0.80 0.30, 3 tasks running; "
                                "busiest others: python (10) 90%")
    # busy ticks: user + nice + system + irq + softirq + steal (not idle, iowait)
    assert m.busy_ticks(str(proc)) == 190
    # a watched run of 2 s: the machine's busy ticks grew by 300 (3 CPU s),
    # this process and its children used 2.5 CPU s: the others 0.25 CPUs
    clock = iter([0.0, 2.0]).__next__
    mine = iter([1.0, 3.5]).__next__
    w = m.Watch(str(proc), clock=clock, mine=mine, hz=100)
    (proc / "stat").write_text("cpu  280 0 140 1000 10 0 0 70 0 0\n")
    during = w.stop()
    assert abs(during - 0.25) < 1e-9
    quiet = {"loadavg": (0.0, 0.0, 0.0, 1), "busiest": [(0.02, "sshd", 5)]}
    assert m.noise(quiet, 0.01, quiet) == []
    assert m.report(quiet, 0.01, quiet, cpus=2)[-1].startswith("idle: ")
    why = m.noise(quiet, during, seen, cpus=2)
    assert why == ["after: python (10) used 90% of a CPU",
                   "during: other processes used 0.25 CPUs of 2 on average"]
    assert m.report(quiet, during, seen, cpus=2)[-1].startswith("NOT IDLE (after: python")
    # no /proc: nothing known, nothing claimed
    gone = str(tmp_path / "none")
    assert m.loadavg(gone) is None and m.busy_ticks(gone) is None
    assert m.process_ticks(gone) == {}
    assert m.describe({"loadavg": None, "busiest": []}) == "load not known"


def test_bench_images_quick(tmp_path):
    """Every image row prints ours and its peers' medians (cv2's ratio where
    OpenCV is installed)."""
    script = os.path.join(ROOT, "benchmarks", "bench_images.py")
    run = subprocess.run([sys.executable, script, "--repeat", "1", "--threads", "1"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if " ours " in line]
    assert len(rows) == 8, run.stdout
    assert all(re.search(r"ours\s+\d+\.\d{3} ms", r) for r in rows), run.stdout
