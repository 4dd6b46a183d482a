"""``--reorder`` driver (oneDNN's tests/benchdnn/reorder/, docs/benchdnn.md)."""
import numpy as np

import dnnl
from dnnl._core import dtypes as _dtypes
from dnnl.benchdnn import attrs as A
from dnnl.benchdnn import common as K
from dnnl.benchdnn.driver import (Case, Driver, enum_tag_ok, md_from_tag, register, tag_advice,
                                  to_codes)
from dnnl.benchdnn.parser import (ParseError, normalize_tag, parse_post_ops, parse_quant,
                                  policy_mask)
from dnnl.testing import reorder as TR

RUNTIME = dnnl.DNNL_RUNTIME_DIM_VAL
SRC, DST = dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST
INTEGRAL = frozenset(t.name for t in _dtypes.INTEGRAL)
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


def fill_values(dt, n, kind):
    lo, hi = RANGE.get(dt, RANGE["f32"])
    table = np.array((hi, lo) + TABLE_TAIL, np.float64)
    i = np.arange(n, dtype=np.int64)
    idx = i % 10 if kind == "src" else (i * 11 // 10) % 10
    return table[idx]


# ------------------------------------------------------- problem descriptors
def parse_reorder_dims(text):
    """``D0xD1x...[_]nNAME`` -> (dims, name)."""
    name = None
    body = text
    i = text.find("n")
    if i >= 0:
        body, name = text[:i], text[i + 1:]
    if body.endswith("_"):
        body = body[:-1]
    try:
        dims = [int(x) for x in body.split("x")]
    except ValueError:
        raise ParseError("invalid problem descriptor %r" % text)
    if not 1 <= len(dims) <= 12 or any(d < 0 for d in dims):
        raise ParseError("invalid problem descriptor %r" % text)
    return dims, name


@register
class ReorderDriver(Driver):
    name = "reorder"
    vector_options = (("sdt", "f32"), ("ddt", "f32"), ("stag", "abx"), ("dtag", "abx"),
                      ("strides", ":"), ("oflag", ""), ("cross-engine", "none"),
                      ("runtime-dim-mask", "0"))
    loop = ("sdt", "ddt", "stag", "dtag", "strides", "oflag", "cross-engine") + \
        Driver.attr_options + ("ctx-init", "ctx-exe", "runtime-dim-mask")
    csv_template = ("perf,%engine%,%impl%,%name%,%sdt%,%ddt%,%stag%,%dtag%,%flags%,%attr%,"
                    "%desc%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%")
    zero_trust = 80.0
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
                raise ParseError("tag %r is not a dnnl_format_tag_t value%s" % (
                    prb[tagkey], tag_advice(prb[tagkey], normalize_tag(prb[tagkey]))), 2)

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
        if DST in scales and policy_mask(scales[DST].policy, nd) > 0 and rt:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if "s4" in (sdt, ddt) or "u4" in (sdt, ddt):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if (sdt == "f16" and ddt not in ("f16", "f32")) or \
                (ddt == "f16" and sdt not in ("f16", "f32")):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if (ddt in F8 and sdt not in ("f16", "f32")) or (sdt in F8 and ddt not in ("f16", "f32")):
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        # skip_invalid_prb
        if DST in zps and sums:
            raise K.Skip(K.SKIPPED, K.INVALID_CASE)
        if (SRC in zps and sdt not in INTEGRAL) or (DST in zps and ddt not in INTEGRAL):
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

    def footprint(self, prb):
        return int(np.prod(prb["dims"], dtype=np.int64)) * (4 + 4 + 8)

    def seed(self, prb):
        return int(np.prod(prb["dims"], dtype=np.int64)) + 7

    def create(self, prb, eng, rng):
        dims = prb["dims"]
        rt = int(prb["runtime-dim-mask"] or 0)
        src_md, dst_md = self.make_md(prb, "src"), self.make_md(prb, "dst")
        attr, exec_args, keep, info = A.build(prb, dims, eng, rng)
        pd = dnnl.reorder.primitive_desc(
            eng, self.make_md(prb, "src", rt) if rt else src_md,
            eng, self.make_md(prb, "dst", rt) if rt else dst_md, attr)
        return Case(pd, dnnl.reorder(pd), attr, exec_args, keep, info,
                    dnnl.DNNL_ARG_FROM, src_md, prb["sdt"], dims,
                    dnnl.DNNL_ARG_TO, dst_md, prb["ddt"], dims)

    def perf_values(self, dt, n, rng):
        lo, hi = PERF_RANGE.get(dt, (-2, 2))
        return rng.uniform(lo, hi, size=n)

    def fill(self, prb, case):
        n = int(np.prod(case.in_dims, dtype=np.int64))
        return to_codes(fill_values(case.in_dt, n, "src"), case.in_dt).reshape(case.in_dims)

    def fill_dst_old(self, prb, case):
        n = int(np.prod(case.out_dims, dtype=np.int64))
        return to_codes(fill_values(case.out_dt, n, "dst"), case.out_dt).reshape(case.out_dims)

    def reference(self, prb, case, src_codes, dst_old):
        q = case.info
        beta = case.sums[0].scale if case.sums else 0.0
        exp = TR.reference_reorder(
            src_codes, int(A.dt_of(prb["sdt"])), int(A.dt_of(prb["ddt"])),
            src_scales=q["scales"].get(SRC), dst_scales=q["scales"].get(DST),
            src_zp=q["zps"].get(SRC), dst_zp=q["zps"].get(DST), beta=beta,
            dst_old_logical=dst_old, with_sum=bool(case.sums))
        return exp, 0.0
