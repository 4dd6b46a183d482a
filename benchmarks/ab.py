"""This checkout against an earlier revision, row by row: new / old.

Run from the repository root, after building the checkout in place
(``pip install -e .`` or ``python setup.py build_ext --inplace``):

    python benchmarks/ab.py                     # against the default revision
    python benchmarks/ab.py --old 03fe069 --rows linear_up_nhwc,small
    python benchmarks/ab.py --threads 1 --rounds 8
    python benchmarks/ab.py --threads default,1  # (the default: both)

The old revision is exported with ``git archive`` into ``build/ab/<commit>/``
and built in place there once (later runs reuse it). Its default is the last
commit before your change: ``HEAD`` when ``dnnl/`` or ``setup.py`` has
uncommitted edits, else ``main`` when ``HEAD`` is past it, else ``HEAD~1``.

Both builds are timed by this checkout's ``bench_rows.py`` (``--samples-json``:
the rows' own prepared calls, ours only, each sample after the caches are
written over and the threads have gone to sleep), in alternating processes: each
round runs old then new, the next new then old, so that drift of the
machine's speed hits both alike. Two builds of one package cannot be
imported side by side, hence processes. For each row it prints the medians
of all samples of each build and new / old as the median [first-third
quartile] of the per-round ratios of medians; a row more than 5% slower is
flagged.

Both builds are compared at each thread count of ``--threads``: by default
at the default count (``OMP_NUM_THREADS`` unset: what users get, the thread
pool's own choices included) and at one thread (the kernels alone), a table
each; within a round every count runs, so that drift hits them alike.

The machine must be idle for the ratios to be a verdict. The script looks
before the run and after it (load average, tasks running, the busiest other
processes' share of a CPU over half a second, from /proc) and watches the
run (the CPU the rest of the machine used meanwhile, steal time included):
``benchmarks/machine.py``. When something else ran, the last lines say
``NOT IDLE`` and why.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import machine  # noqa: E402
from bench_rows import ROWS  # noqa: E402


def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args), check=True,
                          capture_output=True, text=True).stdout.strip()


def default_old():
    """The revision the checkout's change is measured against."""
    if git("status", "--porcelain", "--", "dnnl", "setup.py"):
        return "HEAD"
    head = git("rev-parse", "HEAD")
    try:
        main = git("rev-parse", "--verify", "-q", "main")
    except subprocess.CalledProcessError:
        main = ""
    return "main" if main and main != head else "HEAD~1"


def build(rev):
    """Export ``rev`` into build/ab/<commit>/ and build it in place once."""
    commit = git("rev-parse", "--verify", rev + "^{commit}")
    where = os.path.join(ROOT, "build", "ab", commit)
    stamp = os.path.join(where, ".built")
    if os.path.exists(stamp):
        return commit, where
    os.makedirs(where, exist_ok=True)
    archive = subprocess.run(["git", "-C", ROOT, "archive", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
    print("building %s in %s ..." % (commit[:10], where), flush=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace",
                    "--parallel", str(os.cpu_count() or 1)], cwd=where, check=True)
    open(stamp, "w").close()
    return commit, where


def samples(where, rows, repeat, env):
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "bench_rows.py"), "--samples-json",
         "--import-from", where, "--rows", ",".join(rows), "--repeat", str(repeat)],
        check=True, capture_output=True, text=True, env=env, cwd=HERE).stdout
    return json.loads(out.strip().splitlines()[-1])


def thread_env(base, threads):
    """The environment of a count: ``default`` leaves OMP_NUM_THREADS unset."""
    env = dict(base)
    env.pop("OMP_NUM_THREADS", None)
    if threads != "default":
        env["OMP_NUM_THREADS"] = threads
    return env


def table(got, rows_note):
    """Print one count's rows: old, new, new / old per round; the rows
    slower by more than 5%."""
    print(rows_note)
    print("%-42s %11s %11s  %s" % ("row", "old", "new", "new/old median [q1-q3]"))
    slower = 0
    for name in got["new"][0]:
        old_all = np.concatenate([g[name] for g in got["old"]])
        new_all = np.concatenate([g[name] for g in got["new"]])
        ratios = [np.median(n[name]) / np.median(o[name])
                  for n, o in zip(got["new"], got["old"])]
        q1, med, q3 = np.percentile(ratios, [25, 50, 75])
        unit, scale = ("us", 1e6) if np.median(old_all) < 1e-4 else ("ms", 1e3)
        flag = "  <- slower by more than 5%" if med > 1.05 else ""
        slower += med > 1.05
        print("%-42s %8.3f %s %8.3f %s  %.3f [%.3f-%.3f]%s"
              % (name, np.median(old_all) * scale, unit, np.median(new_all) * scale, unit,
                 med, q1, q3, flag))
    return slower


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", help="git revision to compare with (default: see above)")
    ap.add_argument("--rows", default=",".join(r for r in ROWS if r != "dram"),
                    help="comma-separated rows of bench_rows.py (default: all but dram)")
    ap.add_argument("--rounds", type=int, default=6, help="alternations (default 6)")
    ap.add_argument("--repeat", type=int, default=11, help="samples per row per process")
    ap.add_argument("--threads", default="default,1",
                    help="comma-separated thread counts, each an OMP_NUM_THREADS for both "
                         "builds or 'default' (unset); default: default,1")
    ap.add_argument("--max-isa", help="ONEDNN_MAX_CPU_ISA for both builds")
    args = ap.parse_args()
    rows = [r for r in args.rows.split(",") if r]
    bad = set(rows) - set(ROWS)
    if bad:
        ap.error("unknown rows: %s" % ", ".join(sorted(bad)))
    counts = [t.strip() for t in str(args.threads).split(",") if t.strip()]
    if not counts or any(t != "default" and not (t.isdigit() and int(t) > 0) for t in counts):
        ap.error("--threads takes 'default' or counts above 0, comma-separated: %r"
                 % args.threads)
    old_rev = args.old or default_old()
    commit, old_dir = build(old_rev)
    env = dict(os.environ)
    if args.max_isa:
        env["ONEDNN_MAX_CPU_ISA"] = args.max_isa
    sides = {"old": old_dir, "new": ROOT}
    got = {t: {"old": [], "new": []} for t in counts}
    before = machine.look()
    watch = machine.Watch()
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for t in counts:
            for side in order:
                got[t][side].append(samples(sides[side], rows, args.repeat,
                                            thread_env(env, t)))
        print("round %d/%d done" % (r + 1, args.rounds), file=sys.stderr, flush=True)
    during = watch.stop()
    after = machine.look()
    dirty = " + uncommitted edits" if git("status", "--porcelain", "--", "dnnl",
                                          "setup.py") else ""
    print("new: %s%s (this checkout); old: %s = %s" % (git("rev-parse", "--short", "HEAD"),
                                                      dirty, old_rev, commit[:10]))
    print("ISA cap: %s; %d rounds x %d samples, alternating processes; %d CPUs"
          % (args.max_isa or "none", args.rounds, args.repeat, os.cpu_count() or 0))
    slower = 0
    for t in counts:
        print()
        slower += table(got[t], "threads: %s" % ("default (OMP_NUM_THREADS unset)"
                                                 if t == "default" else t))
    print()
    for line in machine.report(before, during, after):
        print(line)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
