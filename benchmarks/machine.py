"""Was the machine idle? What else ran beside a benchmark, from /proc.

A timing taken while other processes ran is not a verdict. A benchmark
script takes a look before its run and after it (the load average, the
count of tasks running, and the busiest other processes' share of a CPU
over half a second), and keeps a watch over the run itself: the CPU time
the machine spent on anything but this process and its children (other
processes, and a hypervisor's steal time), on average over the run::

    watch = machine.Watch()
    ...                                  # the runs
    print(machine.report(before, watch.stop(), machine.look()))

Every function takes the root of the proc file system (tests pass a fake
one); outside Linux they return None and the report says the load is
not known.
"""
import os
import time

#: an idle machine: no other process above this share of a CPU in a look,
#: and the others together below this many CPUs on average over the run
BUSY_SHARE = 0.10
BUSY_CPUS = 0.10


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def loadavg(proc="/proc"):
    """(1, 5 and 15 minute load averages, tasks running now) or None. The
    running count includes the reader."""
    text = _read(os.path.join(proc, "loadavg"))
    if not text:
        return None
    f = text.split()
    return float(f[0]), float(f[1]), float(f[2]), int(f[3].split("/")[0])


def process_ticks(proc="/proc"):
    """{pid: (name, utime + stime in clock ticks, start time)} of every
    process (a kernel worker's name changes with its work: the start time
    tells a pid used again)."""
    out = {}
    try:
        pids = [d for d in os.listdir(proc) if d.isdigit()]
    except OSError:
        return out
    for pid in pids:
        text = _read(os.path.join(proc, pid, "stat"))
        if not text or ")" not in text:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        # fields from the state on: utime and stime are the 12th and 13th,
        # starttime the 20th
        out[int(pid)] = (name, int(fields[11]) + int(fields[12]), int(fields[19]))
    return out


def busy_ticks(proc="/proc"):
    """The machine's CPU ticks on anything but idle and iowait (steal
    included), from /proc/stat's first line; None if unreadable."""
    text = _read(os.path.join(proc, "stat"))
    if not text or not text.startswith("cpu "):
        return None
    v = [int(x) for x in text.splitlines()[0].split()[1:]]
    # user nice system idle iowait irq softirq steal (guest is in user)
    return sum(v[:8]) - v[3] - v[4]


def _mine():
    """This process's and its waited-for children's CPU seconds."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def busiest(before, after, seconds, exclude=(), hz=None, top=3):
    """[(share of a CPU, name, pid)] of the processes that used the most
    CPU between two ``process_ticks`` (not those in ``exclude``), the
    busiest first, at most ``top``."""
    hz = hz or os.sysconf("SC_CLK_TCK")
    got = []
    for pid, (name, ticks, start) in after.items():
        if pid in exclude:
            continue
        was = before.get(pid)
        used = ticks - was[1] if was and was[2] == start else ticks
        if used > 0:
            got.append((used / hz / seconds, name, pid))
    return sorted(got, reverse=True)[:top]


def look(seconds=0.5, proc="/proc", exclude=None):
    """What runs now: {"loadavg": (1, 5, 15 min, running), "busiest":
    [(share, name, pid)...] over ``seconds``} (not this process)."""
    exclude = {os.getpid()} if exclude is None else exclude
    a = process_ticks(proc)
    time.sleep(seconds)
    b = process_ticks(proc)
    return {"loadavg": loadavg(proc), "busiest": busiest(a, b, seconds, exclude)}


class Watch:
    """The CPU the rest of the machine used while this process (and the
    children it waited for) ran the benchmark."""

    def __init__(self, proc="/proc", clock=time.monotonic, mine=_mine, hz=None):
        self.proc, self.clock, self.mine = proc, clock, mine
        self.hz = hz or os.sysconf("SC_CLK_TCK")
        self.t0, self.busy0, self.mine0 = clock(), busy_ticks(proc), mine()

    def stop(self):
        """Other CPUs in use on average over the run (None: not known)."""
        wall = self.clock() - self.t0
        busy = busy_ticks(self.proc)
        if busy is None or self.busy0 is None or wall <= 0:
            return None
        others = (busy - self.busy0) / self.hz - (self.mine() - self.mine0)
        return max(0.0, others / wall)


def describe(seen):
    """One look in words."""
    if seen is None or seen["loadavg"] is None:
        return "load not known"
    one, five, fifteen, running = seen["loadavg"]
    text = "load average %.2f %.2f %.2f, %d task%s running" % (
        one, five, fifteen, running, "" if running == 1 else "s")
    if seen["busiest"]:
        text += "; busiest others: " + ", ".join(
            "%s (%d) %.0f%%" % (name, pid, 100 * share) for share, name, pid in seen["busiest"])
    return text


def noise(before, during, after, cpus=None):
    """Why the run was not on an idle machine ([] when it was)."""
    why = []
    for when, seen in (("before", before), ("after", after)):
        for share, name, pid in (seen or {}).get("busiest") or []:
            if share >= BUSY_SHARE:
                why.append("%s: %s (%d) used %.0f%% of a CPU" % (when, name, pid, 100 * share))
    if during is not None and during >= BUSY_CPUS:
        why.append("during: other processes used %.2f CPUs%s on average"
                   % (during, " of %d" % cpus if cpus else ""))
    return why


def report(before, during, after, cpus=None):
    """Lines saying what ran beside the benchmark, and whether its numbers
    are a verdict."""
    cpus = cpus or os.cpu_count()
    lines = ["machine before: " + describe(before),
             "machine during: " + ("not known" if during is None else
                                   "other processes used %.2f CPUs of %d on average"
                                   % (during, cpus)),
             "machine after:  " + describe(after)]
    why = noise(before, during, after, cpus)
    if why:
        lines.append("NOT IDLE (%s): the ratios above carry that load; do not read them "
                     "as a verdict" % "; ".join(why))
    else:
        lines.append("idle: nothing else above %.0f%% of a CPU before or after, %.2f CPUs "
                     "during" % (100 * BUSY_SHARE, during or 0.0))
    return lines
