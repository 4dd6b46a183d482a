"""The ``Driver`` base: option state and the run skeleton every driver shares.

A driver module subclasses :class:`Driver` and registers it with
:func:`register`; :func:`dnnl.benchdnn.main` hands the registry to the harness
(``common.Bench``), which knows no driver by name. A driver supplies its
options, problem expansion and repro line, and four steps of a run:
``create`` (the primitive), ``fill`` / ``fill_dst_old`` (correctness data) and
``reference`` (expected codes). Everything else (skips by mode, memory limit,
implementation filters, library buffers with canaries, performance timing,
the bitwise mode, padding and canary checks) is here, once.
"""
import re
import time

import numpy as np

import dnnl
from dnnl.benchdnn import attrs as A
from dnnl.benchdnn import common as K
from dnnl.benchdnn.parser import split_vector
from dnnl.testing import dtypes as R
from dnnl.testing import reorder as TR

#: "--name" -> Driver subclass, filled by :func:`register`
DRIVERS = {}


def register(cls):
    """Class decorator: make ``cls`` available as ``--<cls.name>``."""
    DRIVERS["--" + cls.name] = cls
    return cls


class Case:
    """One created primitive and what the run skeleton needs to feed it.

    ``in_*`` is the memory the primitive reads (src, or diff_dst backward),
    ``out_*`` the one it writes; dims are logical, data types names."""

    def __init__(self, pd, prim, attr, exec_args, keep, info, in_arg, in_md, in_dt,
                 in_dims, out_arg, out_md, out_dt, out_dims):
        self.pd, self.prim, self.attr = pd, prim, attr
        self.exec_args, self.keep, self.info = exec_args, keep, info
        self.in_arg, self.in_md, self.in_dt, self.in_dims = in_arg, in_md, in_dt, in_dims
        self.out_arg, self.out_md, self.out_dt, self.out_dims = (out_arg, out_md, out_dt,
                                                                 out_dims)
        self.sums = [p for p in info["post_ops"] if p.kind == "sum"]


class Driver:
    """A driver's option state (vector options: lists of raw strings) and run."""

    name = ""
    #: (option name, default value) in loop order, outermost first
    vector_options = ()
    attr_options = ("attr-scales", "attr-zero-points", "attr-precomputed-reductions",
                    "attr-post-ops", "attr-scratchpad", "attr-fpmath", "attr-acc-mode",
                    "attr-deterministic", "attr-dropout", "attr-rounding-mode")
    csv_template = K.DEFAULT_TEMPLATE
    #: correctness: above this percentage of zeros the result is MISTRUSTED
    zero_trust = 100.0

    def __init__(self, bench):
        self.bench = bench
        self.reset()

    # ------------------------------------------------------------ options
    def reset(self):
        self.opts = {k: [v] for k, v in self.vector_options}
        for a in self.attr_options:
            self.opts[a] = [""]
        self.opts["ctx-init"] = [""]
        self.opts["ctx-exe"] = [""]
        self.match = None
        self.impl = []
        self.skip_impl = []

    def parse_option(self, tok):
        """Driver and shared options; True if consumed."""
        if not tok.startswith("--") or "=" not in tok:
            return False
        key, value = tok[2:].split("=", 1)
        if key in self.opts:
            self.opts[key] = self.check_values(key, split_vector(value))
            return True
        if key == "match":
            self.match = re.compile(value) if value else None
            return True
        if key == "impl":
            self.impl = [s for s in value.split(",") if s]
            return True
        if key == "skip-impl":
            self.skip_impl = [s for s in value.split(",") if s]
            return True
        if key == "perf-template":
            self.bench.g.perf_template = self.perf_template(value)
            return True
        return False

    def check_values(self, key, values):
        return values

    def perf_template(self, value):
        if value in ("def", "default"):
            return K.DEFAULT_TEMPLATE
        if value == "csv":
            return self.csv_template
        return value

    def attr_repro(self, prb):
        out = ""
        for a in self.attr_options:
            v = prb.get(a, "")
            if v:
                out += "--%s=%s " % (a, v)
        return out

    def impl_filtered(self, impl):
        """The skip reason when ``impl`` is filtered by --impl/--skip-impl."""
        g = self.bench.g
        skip = self.skip_impl + g.global_skip_impl
        if any(s in impl for s in skip):
            return K.SKIP_IMPL_HIT
        want = self.impl + g.global_impl
        if want and not any(s in impl for s in want):
            return K.SKIP_IMPL_HIT
        return None

    # A driver implements: expand(token) -> [prb], repro(prb), perf_fields(prb),
    # skip(prb), footprint(prb), seed(prb), create(prb, eng, rng) -> Case,
    # perf_values(dt, n, rng), fill(prb, case), fill_dst_old(prb, case),
    # reference(prb, case, in_codes, dst_old) -> (expected codes, threshold).

    # ------------------------------------------------------------ the run
    def run(self, prb, res):
        g = self.bench.g
        self.skip(prb)
        if g.mode == "L":
            raise K.Skip(K.LISTED)
        if self.footprint(prb) > g.max_bytes:
            raise K.Skip(K.SKIPPED, K.NOT_ENOUGH_RAM)
        eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        rng = np.random.default_rng(self.seed(prb))
        t0 = time.perf_counter()
        try:
            case = self.create(prb, eng, rng)
        except dnnl.error as e:
            raise K.Skip(K.UNIMPLEMENTED if e.status == dnnl.status.unimplemented
                         else K.INVALID_ARGUMENTS, str(e))
        res.ctime = (time.perf_counter() - t0) * 1000.0
        res.impl = case.pd.impl_info_str()
        why = self.impl_filtered(res.impl)
        if why:
            raise K.Skip(K.SKIPPED, why)
        if g.mode == "I":
            raise K.Skip(K.INITIALIZED)
        ibuf, isize = lib_buffer(case.in_md)
        obuf, osize = lib_buffer(case.out_md)
        perf = g.mode in ("P", "F")
        n_in = int(np.prod(case.in_dims, dtype=np.int64))
        if g.mode == "B":
            values = rng.uniform(-16, 16, n_in)
        elif perf:
            values = self.perf_values(case.in_dt, n_in, rng)
        else:
            values = None
        in_codes = (self.fill(prb, case) if values is None
                    else to_codes(values, case.in_dt).reshape(case.in_dims))
        write(ibuf, isize, case.in_md, in_codes)
        dst_old = self.fill_dst_old(prb, case) if case.sums else None
        oinit = obuf.copy()
        if dst_old is not None:
            write(oinit, osize, case.out_md, dst_old)
        obuf[:] = oinit
        args = dict(case.exec_args)
        args[case.in_arg] = dnnl.memory(case.in_md, eng, ibuf)
        args[case.out_arg] = dnnl.memory(case.out_md, eng, obuf)
        strm = dnnl.stream(eng)
        res.ibytes = case.in_md.get_size() + (case.out_md.get_size() if case.sums else 0)
        res.obytes = case.out_md.get_size()
        if perf:
            K.time_executions(lambda: case.prim.execute(strm, args), g, res)
            raise K.Skip(K.EXECUTED)
        case.prim.execute(strm, args)
        if g.mode in ("R", "S"):
            raise K.Skip(K.EXECUTED)
        if g.mode == "B":
            first = obuf.copy()
            obuf[:] = oinit
            case.prim.execute(strm, args)
            same = bytes(first) == bytes(obuf)
            res.state = K.PASSED if same else K.FAILED
            if not same:
                res.reason = "bitwise mismatch between two runs"
            return
        exp, trh = self.reference(prb, case, in_codes, dst_old)
        got = TR.read_logical(obuf[:osize], case.out_md)
        compare(res, got, exp, int(A.dt_of(case.out_dt)), self.zero_trust, trh)
        if res.state in (K.PASSED, K.MISTRUSTED):
            if not padding_ok(obuf, osize, case.out_md):
                res.state, res.reason = K.FAILED, "padded area is not zeroed"
            elif not canary_ok(obuf, osize):
                res.state, res.reason = K.FAILED, "buffer overwrite (canary)"


# ---------------------------------------------------------------- helpers
def enum_tag_ok(tag):
    try:
        dnnl.memory.format_tag[tag]
        return True
    except KeyError:
        return tag in ("any", "undef")


def tag_advice(tag, normalized):
    """How to fix a tag that is not a ``dnnl_format_tag_t`` name:
    ``--allow-enum-tags-only=0`` where it is a well-formed abc-style tag that
    only the enum check refuses, else the enumerated names closest to it
    (``nChw16`` -> ``nChw16c``), as the Python API suggests."""
    from dnnl._core.args import closest
    from dnnl._model import tags as _tags
    try:
        _tags.parse_name(normalized)
    except (ValueError, dnnl.error):
        return closest(tag, dnnl.memory.format_tag.__members__)
    return " (a well-formed abc-style tag: use --allow-enum-tags-only=0)"


def md_from_tag(dims, dt, tag):
    """A memory descriptor from any abc-style tag, enumerated or not (as
    ``dnnl_memory_desc_create_with_string_tag`` does)."""
    try:
        return dnnl.memory.desc(dims, dt, tag)
    except dnnl.error:
        if not isinstance(tag, str):
            raise
    from dnnl._model import desc as _desc
    from dnnl._model import tags as _tags
    nd, perm, blks, idxs = _tags.parse_name(tag)
    if nd != len(dims):
        raise dnnl.error(dnnl.status.invalid_arguments,
                         "tag %s is for %d dims, not %d" % (tag, nd, len(dims)))
    _desc.sanity_check(nd, tuple(dims), dnnl.memory.data_type(int(dt)),
                       dnnl.format_kind.blocked)
    return _desc.blocked(tuple(dims), dnnl.memory.data_type(int(dt)), perm, blks, idxs)


def to_codes(values, dt_name):
    return np.asarray(R.encode(np.asarray(values, np.float64).astype(np.float32),
                               int(A.dt_of(dt_name))))


def lib_buffer(md):
    """A library-memory buffer pre-filled with 0xFF and a canary after it."""
    size = md.get_size()
    buf = np.full(size + K.CANARY, 0xFF, dtype=np.uint8)
    buf[size:] = 0xA5
    return buf, size


def canary_ok(buf, size):
    return bool((buf[size:] == 0xA5).all())


def write(buf, size, md, codes):
    raw = TR.write_logical(buf[:size].copy(), md, codes)
    buf[:size] = np.frombuffer(raw, np.uint8)


def padding_ok(buf, size, md):
    """All padded elements of a blocked md are zero."""
    if tuple(md.dims) == tuple(md.padded_dims):
        return True
    got = TR.read_logical(buf[:size], md)
    raw = TR.write_logical(buf[:size].copy(), md, got)
    return raw == bytes(buf[:size])


def compare(res, got, exp, dt, zero_trust, trh=0.0):
    """Element-wise check of ``got`` against ``exp`` codes (same shape):
    exact codes (-0 == +0, NaN == NaN for floats) or within ``trh``."""
    got = np.asarray(got).reshape(-1)
    exp = np.asarray(exp).reshape(-1)
    n = got.size
    res.total = n
    ok = TR.same_values(got, exp, dt)
    gv = R.decode(TR.codes(got, dt), dt).astype(np.float64)
    if trh > 0 and not ok.all():
        ev = R.decode(TR.codes(exp, dt), dt).astype(np.float64)
        diff = np.abs(gv - ev)
        rel = np.where(np.abs(ev) > 1e-5, diff / np.maximum(np.abs(ev), 1e-38), diff)
        ok |= rel <= trh
    res.errors = int((~ok).sum())
    if res.errors:
        res.state = K.FAILED
        bad = int(np.flatnonzero(~ok)[0])
        res.reason = "first mismatch at logical index %d: exp %r got %r" % (
            bad, float(R.decode(TR.codes(exp[bad:bad + 1], dt), dt)[0]), float(gv[bad]))
        return
    zeros = int((gv == 0).sum())
    if n >= 10 and zeros * 100.0 / n > zero_trust:
        res.state = K.MISTRUSTED
        res.reason = "%d%% zeros in the output" % round(zeros * 100.0 / n)
    else:
        res.state = K.PASSED
