"""The benchdnn harness: global options, batch files, problem loop, results,
summary, performance report and progress counter (docs/benchdnn.md). It
drives any ``driver.Driver`` it is given and imports none."""
import os
import re
import sys
import textwrap
import time

from dnnl.benchdnn.parser import ParseError, parse_bool, tokenize

# ----------------------------------------------------------------- results
LISTED, INITIALIZED, SKIPPED, INVALID_ARGUMENTS, UNIMPLEMENTED = (
    "LISTED", "INITIALIZED", "SKIPPED", "INVALID_ARGUMENTS", "UNIMPLEMENTED")
EXECUTED, PASSED, MISTRUSTED, FAILED, UNTESTED = (
    "EXECUTED", "PASSED", "MISTRUSTED", "FAILED", "UNTESTED")
FAILURES = (FAILED, UNIMPLEMENTED, INVALID_ARGUMENTS, UNTESTED)

CASE_NOT_SUPPORTED = "Case not supported"
DATA_TYPE_NOT_SUPPORTED = "Data type not supported"
INVALID_CASE = "Invalid case"
NOT_ENOUGH_RAM = "Not enough RAM"
SKIP_IMPL_HIT = "Skip-impl option hit"

DEFAULT_TEMPLATE = ("perf,%engine%,%impl%,%name%,%prb%,%Gops%,%+ctime%,%-time%,"
                    "%-Gflops%,%0time%,%0Gflops%")
CANARY = 64


class Result:
    __slots__ = ("state", "reason", "errors", "total", "ms", "impl", "times", "ctime",
                 "ibytes", "obytes")

    def __init__(self):
        self.state = UNTESTED
        self.reason = None
        self.errors = self.total = 0
        self.ms = 0.0
        self.impl = ""
        self.times = []
        self.ctime = 0.0
        self.ibytes = self.obytes = 0


class Skip(Exception):
    """Raised by a driver to end a problem early with a state and reason."""

    def __init__(self, state, reason=None):
        super().__init__(reason)
        self.state, self.reason = state, reason


# ----------------------------------------------------------------- settings
class GlobalSettings:
    def __init__(self):
        self.mode = "C"
        self.mode_modifier = ""
        self.engine = "cpu"
        self.allow_enum_tags_only = True
        self.max_ms_per_prb = 3000.0
        self.fix_times_per_prb = 0
        self.repeats_per_prb = 1
        self.start = 0
        self.verbose = 0
        self.summary_failures = True
        self.perf_template = DEFAULT_TEMPLATE
        self.global_impl = []
        self.global_skip_impl = []
        self.max_bytes = int(os.environ.get("DNNL_BENCHDNN_MAX_BYTES", 1 << 31))


_IGNORED_GLOBALS = ("--canonical=", "--check-ref-impl=", "--attr-same-pd-check=",
                    "--cold-cache=", "--cpu-isa-hints=", "--fast-ref=", "--num-streams=",
                    "--mem-check=", "--memory-kind=", "--stream-kind=",
                    "--execution-mode=", "--buffer-prefix=", "--fast-ref-gpu=",
                    "--ctx-init=", "--ctx-exe=")


def parse_global(tok, g):
    """Consume a global option (accepted anywhere); True if it was one."""
    if tok.startswith("--mode="):
        m = tok[7:].upper()
        if m not in ("L", "I", "R", "C", "P", "F", "S", "B"):
            raise ParseError("unknown mode %r" % tok[7:], 2)
        g.mode = m
    elif tok.startswith("--mode-modifier="):
        g.mode_modifier = tok[16:].upper()
    elif tok.startswith("--engine="):
        e = tok[9:]
        if not e.startswith("cpu"):
            raise ParseError("only the cpu engine exists here (got %r)" % e, 2)
        g.engine = e
    elif tok.startswith("--allow-enum-tags-only="):
        g.allow_enum_tags_only = parse_bool(tok.split("=", 1)[1])
    elif tok.startswith("--max-ms-per-prb="):
        g.max_ms_per_prb = min(max(float(tok.split("=", 1)[1]), 10.0), 60000.0)
    elif tok.startswith("--fix-times-per-prb="):
        g.fix_times_per_prb = max(int(tok.split("=", 1)[1]), 0)
    elif tok.startswith("--repeats-per-prb="):
        g.repeats_per_prb = max(int(tok.split("=", 1)[1]), 1)
    elif tok.startswith("--start="):
        g.start = int(tok.split("=", 1)[1])
    elif tok.startswith("--verbose=") or re.fullmatch(r"-v[0-9]+", tok):
        g.verbose = int(tok.split("=", 1)[1] if "=" in tok else tok[2:])
    elif tok.startswith("--summary="):
        g.summary_failures = "no-failures" not in tok
    elif tok.startswith("--global-impl="):
        g.global_impl = [s for s in tok.split("=", 1)[1].split(",") if s]
    elif tok.startswith("--global-skip-impl="):
        g.global_skip_impl = [s for s in tok.split("=", 1)[1].split(",") if s]
    elif tok.startswith(_IGNORED_GLOBALS[:-2]):
        pass
    else:
        return False
    return True


# ----------------------------------------------------------------- helpers
def product(options, keys):
    """Cartesian product of option lists in ``keys`` order (outermost first)."""
    combos = [{}]
    for k in keys:
        combos = [dict(c, **{k: v}) for c in combos for v in options[k]]
    return combos


def fmt_num(x):
    """C++ default stream formatting (6 significant digits)."""
    if isinstance(x, int):
        return str(x)
    return "%g" % x


# ----------------------------------------------------------------- the bench
class Bench:
    """The harness: ``drivers`` maps "--name" to a ``driver.Driver`` subclass."""

    def __init__(self, drivers, out=None, err=None):
        self.drivers = drivers
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.g = GlobalSettings()
        self.stats = dict(tests=0, passed=0, skipped=0, mistrusted=0, unimplemented=0,
                          invalid_arguments=0, failed=0, listed=0)
        self.failed_cases = []
        self.idx = 0
        self.perf_header_done = False
        self.total_min = self.total_avg = 0.0
        self.t0 = time.perf_counter()
        self.batch_dirs = []
        self.progress = self.err.isatty() if hasattr(self.err, "isatty") else False
        self._progress_t = 0.0
        self.driver = None
        self.last_was_option = False

    # ---- output
    def print(self, text):
        self.out.write(text + "\n")

    def show_progress(self, force=False):
        if not self.progress:
            return
        now = time.perf_counter()
        if not force and now - self._progress_t < 0.25:
            return
        self._progress_t = now
        s = self.stats
        bad = s["failed"] + s["unimplemented"] + s["invalid_arguments"]
        self.err.write("\r[%d] passed:%d skipped:%d failed:%d %.1fs " % (
            s["tests"], s["passed"], s["skipped"], bad, now - self.t0))
        self.err.flush()

    def clear_progress(self):
        if self.progress:
            self.err.write("\r" + " " * 60 + "\r")
            self.err.flush()

    # ---- argument processing
    def main(self, argv):
        drivers = self.drivers
        i = 0
        try:
            while i < len(argv) and parse_global(argv[i], self.g):
                i += 1
            if i >= len(argv):
                self.err.write("ERROR: no driver given: use %s\n" % " or ".join(sorted(drivers)))
                return 2
            name = argv[i]
            if name in ("--help", "-h"):
                self.print(usage(drivers))
                return 0
            if name not in drivers:
                self.err.write("ERROR: unknown driver %r (this benchdnn has %s)\n"
                               % (name, " and ".join(sorted(drivers))))
                return 2
            self.driver = drivers[name](self)
            self.process(argv[i + 1:])
            if self.last_was_option:
                self.print("%s driver: WARNING: No problem found for a given option!"
                           % self.driver.name)
        except ParseError as e:
            self.clear_progress()
            self.err.write("ERROR: %s\n" % e)
            self.summary()
            return e.code
        except KeyboardInterrupt:
            self.clear_progress()
            self.err.write("interrupted\n")
            self.summary()
            return 130
        self.summary()
        s = self.stats
        return 1 if (s["failed"] or s["unimplemented"] or s["invalid_arguments"]) else 0

    def locate(self, name):
        if os.path.exists(name):
            return name
        for d in reversed(self.batch_dirs):
            p = os.path.join(d, name)
            if os.path.exists(p):
                return p
        here = os.path.dirname(os.path.abspath(__file__))
        repo = os.path.dirname(os.path.dirname(here))
        for d in (os.path.join(repo, "tests", "inputs", self.driver.name),
                  os.path.join(repo, "tests", "inputs")):
            p = os.path.join(d, name)
            if os.path.exists(p):
                return p
        return None

    def process(self, tokens):
        drv = self.driver
        for tok in tokens:
            if parse_global(tok, self.g):
                self.last_was_option = True
                continue
            if tok.startswith("--batch="):
                path = self.locate(tok[8:])
                if path is None:
                    raise ParseError("batch file %r not found" % tok[8:])
                d = os.path.dirname(os.path.abspath(path))
                if d not in self.batch_dirs:
                    self.batch_dirs.append(d)
                    del self.batch_dirs[:-30]
                with open(path) as f:
                    self.process(tokenize(f.read()))
                continue
            if tok == "--reset":
                drv.reset()
                self.last_was_option = True
                continue
            if tok in ("--help", "-h"):
                self.print(drv.help)
                continue
            if drv.parse_option(tok):
                self.last_was_option = True
                continue
            if tok.startswith("--"):
                key = tok[2:].split("=", 1)[0]
                similar = [k for k in list(drv.opts) + ["batch", "match", "impl",
                                                        "skip-impl", "perf-template", "reset"]
                           if key and (key in k or k in key)]
                raise ParseError("unknown option %r%s" % (
                    tok, "; did you mean --%s?" % ", --".join(similar) if similar else ""), 2)
            if tok.startswith("-"):
                raise ParseError("unknown option %r" % tok, 2)
            self.last_was_option = False
            for prb in drv.expand(tok):
                if drv.match is not None and not drv.match.search(drv.repro(prb)):
                    break
                self.run_one(prb)

    # ---- one problem
    def run_one(self, prb):
        drv = self.driver
        idx = self.idx
        self.idx += 1
        if idx < self.g.start:
            return
        res = Result()
        t0 = time.perf_counter()
        try:
            drv.run(prb, res)
        except Skip as s:
            res.state, res.reason = s.state, s.reason
        except MemoryError:
            res.state, res.reason = SKIPPED, NOT_ENOUGH_RAM
        except Exception as e:      # a crash of ours is a failure, never silent
            res.state, res.reason = FAILED, "%s: %s" % (type(e).__name__, str(e)[:200])
            if self.g.verbose >= 2:
                import traceback
                self.err.write(traceback.format_exc())
        res.ms = (time.perf_counter() - t0) * 1000.0
        self.account(idx, prb, res)

    def account(self, idx, prb, res):
        s = self.stats
        s["tests"] += 1
        key = {PASSED: "passed", EXECUTED: "passed", INITIALIZED: "passed",
               SKIPPED: "skipped", MISTRUSTED: "mistrusted",
               UNIMPLEMENTED: "unimplemented", INVALID_ARGUMENTS: "invalid_arguments",
               FAILED: "failed", UNTESTED: "failed", LISTED: "listed"}.get(res.state)
        if key:
            s[key] += 1
        repro = self.repro(prb)
        mode = self.g.mode
        perf = mode in ("P", "F") and res.state == EXECUTED
        if perf:
            self.perf_line(idx, prb, res)
        else:
            line = "%d:%s" % (idx, res.state)
            if res.reason:
                line += " (%s)" % res.reason
            if res.errors > 0:
                line += " (errors:%d total:%d)" % (res.errors, res.total)
            line += " (%d ms) __REPRO: %s" % (round(res.ms), repro)
            if res.state in FAILURES:
                self.failed_cases.append(line)
            self.clear_progress() if self.progress else None
            self.print(line)
        self.show_progress()

    def repro(self, prb):
        g = self.g
        pre = ""
        if g.mode != "C":
            pre += "--mode=%s " % g.mode
        if not g.allow_enum_tags_only:
            pre += "--allow-enum-tags-only=false "
        return pre + "--%s %s" % (self.driver.name, self.driver.repro(prb))

    # ---- performance report
    def perf_line(self, idx, prb, res):
        template = self.g.perf_template
        if not self.perf_header_done:
            self.perf_header_done = True
            self.print("Template entries: %s" % template)
            self.print(re.sub(r"%([^%]*)%", _header_field, template))
        fields = self.driver.perf_fields(prb)
        times = res.times or [0.0]
        stat = {"-": min(times), "0": sum(times) / len(times), "+": max(times), "": min(times)}
        self.total_min += stat["-"]
        self.total_avg += stat["0"]
        io = res.ibytes + res.obytes

        def field(m):
            body = m.group(1)
            mm = re.fullmatch(r"([-0+]?)([KMG]?)(.*)", body)
            t, unit, name = mm.groups()
            div = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9}[unit]
            ms = stat[t]
            if name == "time":
                return fmt_num(ms / div)
            if name in ("ctime", "cpdtime", "cptime"):
                return fmt_num(res.ctime / div)
            if name == "bw":
                return fmt_num(io / (ms / 1e3) / div if ms > 0 else 0.0)
            if name in ("ops", "flops"):
                return fmt_num(0.0)
            if name == "ibytes":
                return fmt_num(res.ibytes / div)
            if name == "obytes":
                return fmt_num(res.obytes / div)
            if name == "iobytes":
                return fmt_num(io / div)
            if name in ("clocks", "freq"):
                return "0"
            if name == "impl":
                return res.impl
            if name == "idx":
                return str(idx)
            if name == "driver":
                return self.driver.name
            if name == "prb":
                return self.repro(prb)
            return str(fields.get(name, ""))
        self.print(re.sub(r"%([^%]*)%", field, template))

    def summary(self):
        self.clear_progress()
        s = self.stats
        if self.failed_cases and self.g.summary_failures:
            self.print("===========================================================")
            self.print("= Failed cases summary (--summary=no-failures to disable) =")
            self.print("===========================================================")
            for line in self.failed_cases[:10]:
                self.print(line)
            if len(self.failed_cases) > 10:
                self.print("... (%d more)" % (len(self.failed_cases) - 10))
            self.print("============================")
        self.print("tests:%d passed:%d skipped:%d mistrusted:%d unimplemented:%d "
                   "invalid_arguments:%d failed:%d listed:%d" % (
                       s["tests"], s["passed"], s["skipped"], s["mistrusted"],
                       s["unimplemented"], s["invalid_arguments"], s["failed"], s["listed"]))
        if self.g.mode in ("P", "F"):
            self.print("total perf: min(ms):%s avg(ms):%s"
                       % (fmt_num(self.total_min), fmt_num(self.total_avg)))
        self.print("total: %.2fs" % (time.perf_counter() - self.t0))


def _header_field(m):
    body = m.group(1)
    mm = re.fullmatch(r"([-0+]?)([KMG]?)(.*)", body)
    t, unit, name = mm.groups()
    return {"-": "min_", "0": "avg_", "+": "max_", "": ""}[t] + unit + name


def time_executions(execute, g, res):
    """benchdnn's timing loop: one warm-up, then runs until
    --fix-times-per-prb runs, or at least 5 runs and --max-ms-per-prb ms."""
    execute()
    times = []
    total = 0.0
    max_ms = 10.0 if g.mode == "F" else g.max_ms_per_prb
    while True:
        t0 = time.perf_counter()
        execute()
        ms = (time.perf_counter() - t0) * 1000.0
        times.append(ms)
        total += ms
        if g.fix_times_per_prb:
            if len(times) >= g.fix_times_per_prb:
                break
        elif len(times) >= 5 and total >= max_ms:
            break
    res.times = times


USAGE = """usage: python -m dnnl.benchdnn [global options] %s [options] [problems]

A benchdnn work-alike for this library's primitives (see docs/benchdnn.md).
Global options: --mode=C|P|R|L|I|B|F, --engine=cpu, --max-ms-per-prb=MS,
--fix-times-per-prb=N, --repeats-per-prb=N, --start=N,
--allow-enum-tags-only=BOOL, --summary=no-failures, -vN.
Shared options: --batch=FILE, --reset, --match=REGEX, --impl=, --skip-impl=,
--perf-template=def|csv|TEMPLATE, --attr-scales=, --attr-zero-points=,
--attr-post-ops=, --attr-scratchpad=, --attr-fpmath=, ..."""


def usage(drivers):
    """The --help text: the global and shared options, then each registered
    driver's own (its ``help``), so a new driver edits no text here."""
    return "\n".join([USAGE % "|".join(sorted(drivers))] + [
        textwrap.fill(drivers[n].help, 79, subsequent_indent="    ") for n in sorted(drivers)])
