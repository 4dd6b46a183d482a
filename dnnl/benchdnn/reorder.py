"""``--reorder`` driver (oneDNN's tests/benchdnn/reorder/, docs/benchdnn.md)."""
import time

import numpy as np

import dnnl
from dnnl.benchdnn import attrs as A
from dnnl.benchdnn import common as K
from dnnl.benchdnn.parser import (ParseError, normalize_tag, parse_post_ops, parse_quant,
                                  parse_reorder_dims, policy_mask)
from dnnl.testing import dtypes as R
from dnnl.testing import reorder as TR

RUNTIME = dnnl.DNNL_RUNTIME_DIM_VAL
INTEGRAL = ("s32", "s8", "u8", "s4", "u4", "s64")
F8 = ("f8_e5m2", "f8_e4m3")
#: benchdnn's correctness fill range per data type (reorder/cfg.cpp)
RANGE = {"f32": (-2 ** 24, 2 ** 24), "f64": (-2 ** 24, 2 ** 24), "bf16": (-2 ** 24, 2 ** 24),
         "f16": (-2048, 2048), "f8_e5m2": (-2048, 2048), "f4_e2m1": (-2048, 2048),
         "f8_e4m3": (-127, 127), "s32": (-2147483520, 2147483520), "s8": (-128, 127),
         "u8": (0, 255), "s4": (-7, 8), "u4": (0, 15), "e8m0": (-2 ** 24, 2 ** 24)}
#: performance-mode random fill ranges
PERF_RANGE = {"f32": (-1024, 1024), "s32": (-1024, 1024), "bf16": (-32, 32),
              "f16": (-8, 8), "s8": (-32, 32), "u8": (0, 64)}
TABLE_TAIL = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 16.0, 64.0)


def enum_tag_ok(tag):
    try:
        dnnl.memory.format_tag[tag]
        return True
    except KeyError:
        return tag in ("any", "undef")


def md_from_tag(dims, dt, tag):
    """A memory descriptor from any abc-style tag, enumerated or not (as
    ``dnnl_memory_desc_create_with_string_tag`` does)."""
    try:
        return dnnl.memory.desc(dims, dt, tag)
    except dnnl.error:
        if not isinstance(tag, str):
            raise
    from dnnl import _desc, _tags
    nd, perm, blks, idxs = _tags.parse_name(tag)
    if nd != len(dims):
        raise dnnl.error(dnnl.status.invalid_arguments,
                         "tag %s is for %d dims, not %d" % (tag, nd, len(dims)))
    _desc.sanity_check(nd, tuple(dims), dnnl.memory.data_type(int(dt)),
                       dnnl.format_kind.blocked)
    return _desc.blocked(tuple(dims), dnnl.memory.data_type(int(dt)), perm, blks, idxs)


def fill_values(dt, n, kind):
    lo, hi = RANGE.get(dt, RANGE["f32"])
    table = np.array((hi, lo) + TABLE_TAIL, np.float64)
    i = np.arange(n, dtype=np.int64)
    idx = i % 10 if kind == "src" else (i * 11 // 10) % 10
    return table[idx]


def random_values(dt, n, rng):
    lo, hi = PERF_RANGE.get(dt, (-2, 2))
    return rng.uniform(lo, hi, size=n)


def to_codes(values, dt_name):
    return np.asarray(R.encode(np.asarray(values, np.float64).astype(np.float32),
                               int(A.dt_of(dt_name))))


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


class ReorderDriver(K.Driver):
    name = "reorder"
    vector_options = (("sdt", "f32"), ("ddt", "f32"), ("stag", "abx"), ("dtag", "abx"),
                      ("strides", ":"), ("oflag", ""), ("cross-engine", "none"),
                      ("runtime-dim-mask", "0"))
    loop = ("sdt", "ddt", "stag", "dtag", "strides", "oflag", "cross-engine") + \
        K.Driver.attr_options + ("ctx-init", "ctx-exe", "runtime-dim-mask")
    csv_template = ("perf,%engine%,%impl%,%name%,%sdt%,%ddt%,%stag%,%dtag%,%flags%,%attr%,"
                    "%desc%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%")
    help = ("reorder options: --sdt= --ddt= --stag= --dtag= --strides=SRC:DST "
            "--oflag=FLAG:MASK[+...] --runtime-dim-mask=N --cross-engine=none "
            "and the attribute options; problems: D0xD1x...[_nNAME]")

    def check_values(self, key, values):
        if key in ("sdt", "ddt"):
            for v in values:
                if v and v not in RANGE:
                    raise ParseError("unknown data type %r" % v, 2)
        if key == "runtime-dim-mask":
            for v in values:
                if v and not v.isdigit():
                    raise ParseError("bad --runtime-dim-mask=%s" % v, 2)
        if key == "cross-engine":
            for v in values:
                if v not in ("", "none", "cpu2gpu", "gpu2cpu"):
                    raise ParseError("bad --cross-engine=%s" % v, 2)
        return [v if v != "" else dict(self.vector_options).get(key, "") for v in values]

    def expand(self, token):
        dims, name = parse_reorder_dims(token)
        out = []
        for combo in K.product(self.opts, self.loop):
            combo["dims"], combo["name"] = dims, name
            self.verify(combo)
            out.append(combo)
        return out

    def verify(self, prb):
        """benchdnn's verify_input and tag checks (fatal errors)."""
        nd = len(prb["dims"])
        for q in parse_quant(prb["attr-scales"], False):
            if q.policy == "per_oc":
                raise ParseError("per_oc scales are not supported by reorder")
        parse_quant(prb["attr-zero-points"], True)
        parse_post_ops(prb["attr-post-ops"])
        if prb["cross-engine"] not in ("none", ""):
            raise ParseError("--cross-engine=%s needs a GPU engine" % prb["cross-engine"])
        parts = prb["strides"].split(":")
        if len(parts) != 2:
            raise ParseError("--strides needs SRC:DST")
        for side, tagkey in zip(parts, ("stag", "dtag")):
            if side and len(side.split("x")) != nd:
                raise ParseError("--strides=%s does not have %d entries" % (prb["strides"], nd))
            if side and prb[tagkey] != "abx":
                raise ParseError("--strides and --%s cannot be combined" % tagkey)
        for tagkey in ("stag", "dtag"):
            t = normalize_tag(prb[tagkey], nd)
            if t is None:
                raise ParseError("invalid tag %r" % prb[tagkey], 2)
            if self.bench.g.allow_enum_tags_only and not enum_tag_ok(normalize_tag(
                    prb[tagkey])):
                raise ParseError("tag %r is not a dnnl_format_tag_t value "
                                 "(use --allow-enum-tags-only=0)" % prb[tagkey], 2)

    def repro(self, prb):
        s = "--sdt=%s --ddt=%s --stag=%s --dtag=%s " % (prb["sdt"], prb["ddt"],
                                                        prb["stag"], prb["dtag"])
        if prb["strides"] not in ("", ":"):
            s += "--strides=%s " % prb["strides"]
        if prb["oflag"]:
            s += "--oflag=%s " % prb["oflag"]
        if prb["cross-engine"] not in ("", "none"):
            s += "--cross-engine=%s " % prb["cross-engine"]
        if prb["runtime-dim-mask"] not in ("", "0"):
            s += "--runtime-dim-mask=%s " % prb["runtime-dim-mask"]
        s += self.attr_repro(prb)
        s += self.desc(prb)
        return s

    def desc(self, prb):
        s = "x".join(str(d) for d in prb["dims"])
        if prb["name"] is not None:
            s += "_n" + prb["name"]
        return s

    def perf_fields(self, prb):
        nd = len(prb["dims"])
        return {"engine": "cpu", "name": prb["name"] or "", "sdt": prb["sdt"],
                "ddt": prb["ddt"], "stag": normalize_tag(prb["stag"], nd),
                "dtag": normalize_tag(prb["dtag"], nd), "flags": prb["oflag"],
                "attr": self.attr_repro(prb).strip(), "desc": self.desc(prb),
                "Gops": 0, "Gflops": 0, "mb": 0}

    # ---------------------------------------------------------------- skips
    def skip(self, prb):
        sdt, ddt = prb["sdt"], prb["ddt"]
        nd = len(prb["dims"])
        pos = parse_post_ops(prb["attr-post-ops"])
        sums = [p for p in pos if p.kind == "sum"]
        if any(p.zero_point != 0 for p in sums) and sdt not in INTEGRAL:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if len({p.dt for p in sums}) > 1:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        xf = F8 + ("bf16", "f16")
        if (sdt == "s32" and ddt in xf) or (ddt == "s32" and sdt in xf):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        oflag = prb["oflag"]
        scales = {q.arg: q for q in parse_quant(prb["attr-scales"], False)}
        zps = {q.arg: q for q in parse_quant(prb["attr-zero-points"], True)}
        rt = int(prb["runtime-dim-mask"] or 0)
        if oflag:
            if ddt != "s8" or zps or pos or rt:
                raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
            cmask = None
            for item in oflag.split("+"):
                cmask = int(item.split(":")[1])
            if any(policy_mask(q.policy, nd) != cmask for q in scales.values()):
                raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if 17 in scales and policy_mask(scales[17].policy, nd) > 0 and rt:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if "s4" in (sdt, ddt) or "u4" in (sdt, ddt):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if (sdt == "f16" and ddt not in ("f16", "f32")) or \
                (ddt == "f16" and sdt not in ("f16", "f32")):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if (ddt in F8 and sdt not in ("f16", "f32")) or (sdt in F8 and ddt not in ("f16", "f32")):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        # skip_invalid_prb
        if 17 in zps and sums:
            raise K.Skip(K.SKIPPED, K.INVALID_CASE)
        if (1 in zps and sdt not in INTEGRAL) or (17 in zps and ddt not in INTEGRAL):
            raise K.Skip(K.SKIPPED, K.INVALID_CASE)
        if oflag:
            raise K.Skip(K.UNIMPLEMENTED, "compensation (--oflag) memory is not implemented")

    # ---------------------------------------------------------------- run
    def make_md(self, prb, which, runtime_mask=0):
        dims = list(prb["dims"])
        nd = len(dims)
        dt = A.dt_of(prb["sdt" if which == "src" else "ddt"])
        strides = prb["strides"].split(":")[0 if which == "src" else 1]
        if runtime_mask:
            dims = [RUNTIME if (runtime_mask >> d) & 1 else n for d, n in enumerate(dims)]
        if strides:
            st = [int(s) for s in strides.split("x")]
            if runtime_mask:
                st = [RUNTIME] * nd
            return dnnl.memory.desc(dims, dt, st)
        tag = normalize_tag(prb["stag" if which == "src" else "dtag"], nd)
        if tag == "any":
            tag = dnnl.memory.format_tag.any
        return md_from_tag(dims, dt, tag)

    def run(self, prb, res):
        g = self.bench.g
        self.skip(prb)
        if g.mode == "L":
            raise K.Skip(K.LISTED)
        dims = prb["dims"]
        nelems = int(np.prod(dims, dtype=np.int64))
        esize = 4 + 4 + 8
        if nelems * esize > g.max_bytes:
            raise K.Skip(K.SKIPPED, K.NOT_ENOUGH_RAM)
        eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        rng = np.random.default_rng(nelems + 7)
        rt = int(prb["runtime-dim-mask"] or 0)
        t0 = time.perf_counter()
        try:
            src_md, dst_md = self.make_md(prb, "src"), self.make_md(prb, "dst")
            attr, exec_args, keep, info = A.build(prb, dims, eng, rng)
            pd = dnnl.reorder.primitive_desc(
                eng, self.make_md(prb, "src", rt) if rt else src_md,
                eng, self.make_md(prb, "dst", rt) if rt else dst_md, attr)
            prim = dnnl.reorder(pd)
        except dnnl.error as e:
            raise K.Skip(K.UNIMPLEMENTED if e.status == dnnl.status.unimplemented
                         else K.INVALID_ARGUMENTS, str(e))
        res.ctime = (time.perf_counter() - t0) * 1000.0
        res.impl = pd.impl_info_str()
        why = self.impl_filtered(res.impl)
        if why:
            raise K.Skip(K.SKIPPED, why)
        if g.mode == "I":
            raise K.Skip(K.INITIALIZED)
        sbuf, ssize = K.lib_buffer(src_md)
        dbuf, dsize = K.lib_buffer(dst_md)
        perf = g.mode in ("P", "F")
        sdt, ddt = prb["sdt"], prb["ddt"]
        if g.mode in ("B",):
            src_codes = to_codes(rng.uniform(-16, 16, nelems), sdt).reshape(dims)
        elif perf:
            src_codes = to_codes(random_values(sdt, nelems, rng), sdt).reshape(dims)
        else:
            src_codes = to_codes(fill_values(sdt, nelems, "src"), sdt).reshape(dims)
        write(sbuf, ssize, src_md, src_codes)
        sums = [p for p in info["post_ops"] if p.kind == "sum"]
        dst_old = None
        if sums:
            dst_old = to_codes(fill_values(ddt, nelems, "dst"), ddt).reshape(dims)
        dinit = dbuf.copy()
        if dst_old is not None:
            write(dinit, dsize, dst_md, dst_old)
        dbuf[:] = dinit
        src = dnnl.memory(src_md, eng, sbuf)
        dst = dnnl.memory(dst_md, eng, dbuf)
        args = dict(exec_args)
        args[dnnl.DNNL_ARG_FROM], args[dnnl.DNNL_ARG_TO] = src, dst
        strm = dnnl.stream(eng)
        res.ibytes = src_md.get_size() + (dst_md.get_size() if sums else 0)
        res.obytes = dst_md.get_size()
        if perf:
            K.time_executions(lambda: prim.execute(strm, args), g, res)
            raise K.Skip(K.EXECUTED)
        prim.execute(strm, args)
        if g.mode in ("R", "S"):
            raise K.Skip(K.EXECUTED)
        if g.mode == "B":
            first = dbuf.copy()
            dbuf[:] = dinit
            prim.execute(strm, args)
            same = bytes(first) == bytes(dbuf)
            res.state = K.PASSED if same else K.FAILED
            if not same:
                res.reason = "bitwise mismatch between two runs"
            return
        # reference
        q = info
        beta = sums[0].scale if sums else 0.0
        exp = TR.reference_reorder(
            src_codes, int(A.dt_of(sdt)), int(A.dt_of(ddt)),
            src_scales=q["scales"].get(1), dst_scales=q["scales"].get(17),
            src_zp=q["zps"].get(1), dst_zp=q["zps"].get(17), beta=beta,
            dst_old_logical=dst_old, with_sum=bool(sums))
        got = TR.read_logical(dbuf[:dsize], dst_md)
        compare(res, got, exp, int(A.dt_of(ddt)), zero_trust=80.0)
        if res.state == K.PASSED or res.state == K.MISTRUSTED:
            if not padding_ok(dbuf, dsize, dst_md):
                res.state, res.reason = K.FAILED, "padded area is not zeroed"
            elif not K.canary_ok(dbuf, dsize):
                res.state, res.reason = K.FAILED, "buffer overwrite (canary)"


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
