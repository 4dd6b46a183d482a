"""``--resampling`` driver (oneDNN's tests/benchdnn/resampling/, docs/benchdnn.md)."""
import re

import numpy as np

import dnnl
from dnnl.primitives.resampling import primitive as _resampling
from dnnl._core import dtypes as _dtypes
from dnnl.benchdnn import attrs as A
from dnnl.benchdnn import common as K
from dnnl.benchdnn.driver import Case, Driver, enum_tag_ok, md_from_tag, register, to_codes
from dnnl.benchdnn.parser import ParseError, normalize_tag, parse_post_ops
from dnnl.testing import dtypes as R
from dnnl.testing import reorder as TR
from dnnl.testing import resampling as RS

DIRS = ("FWD_D", "FWD_I", "FWD_B", "BWD_D", "BWD_W", "BWD_WB", "BWD_DW")
DTS = ("f32", "bf16", "f16", "s32", "s8", "u8", "f64", "f8_e5m2", "f8_e4m3")
INTEGRAL = frozenset(t.name for t in _dtypes.INTEGRAL & _resampling.SUPPORTED)
EPS = {"f32": 2.0 ** -23, "f64": 2.0 ** -23, "bf16": 2.0 ** -7, "f16": 2.0 ** -10,
       "f8_e5m2": 2.0 ** -2, "f8_e4m3": 2.0 ** -3}


def linear_threshold(dt_from, dt_to):
    ef, et = EPS.get(dt_from, 0.0), EPS.get(dt_to, 0.0)
    return ef if ef > et else 7 * et


def fill(dims, dt, k):
    """benchdnn's resampling fill: g = (97 i - 19 k + 101) mod 17; g*1.25
    for f32 / integers, g/16 for 16-bit floats; rounded to ``dt``."""
    n = int(np.prod(dims, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    g = ((97 * i - 19 * k + 101) % 17).astype(np.float64)
    v = g / 16 if dt in ("bf16", "f16") else g * 1.25
    return to_codes(v, dt).reshape(dims)


#: above this many diff_src spatial points, backward linear is checked against
#: a float64 separable computation (benchdnn's threshold) instead of the slow
#: f32 gather of dnnl.testing.resampling, which loops in Python per point
EXACT_BWD_LINEAR_MAX = 4096


def backward_linear_f64(dd, in_spatial):
    """Backward linear as the transpose of the forward interpolation
    matrices, one spatial axis at a time, in float64."""
    r = np.asarray(dd, np.float64)
    for i, n_in in enumerate(in_spatial):
        axis = 2 + i
        n_out = r.shape[axis]
        left, right, w_left = RS.linear_map(n_in, n_out)
        m = np.zeros((n_out, n_in))
        o = np.arange(n_out)
        np.add.at(m, (o, left), w_left.astype(np.float64))
        np.add.at(m, (o, right), 1.0 - w_left.astype(np.float64))
        r = np.moveaxis(np.tensordot(r, m, axes=([axis], [0])), -1, axis)
    return r.astype(np.float32)


# ------------------------------------------------------- problem descriptors
class ResamplingDesc:
    __slots__ = ("mb", "ic", "id", "ih", "iw", "od", "oh", "ow", "ndims", "name")

    def __str__(self):
        s = "" if self.mb == 2 else "mb%d" % self.mb
        s += "ic%d" % self.ic
        if self.ndims == 5:
            cubic = (self.id == self.ih == self.iw and self.od == self.oh == self.ow)
            if cubic:
                s += "id%dod%d" % (self.id, self.od)
            else:
                s += "id%dih%diw%dod%doh%dow%d" % (self.id, self.ih, self.iw,
                                                    self.od, self.oh, self.ow)
        elif self.ndims == 4:
            square = self.ih == self.iw and self.oh == self.ow
            if square:
                s += "ih%doh%d" % (self.ih, self.oh)
            else:
                s += "ih%diw%doh%dow%d" % (self.ih, self.iw, self.oh, self.ow)
        else:
            s += "iw%dow%d" % (self.iw, self.ow)
        if self.name is not None:
            s += "n" + self.name
        return s


def parse_resampling_desc(text):
    d = ResamplingDesc()
    vals = {}
    name = None
    i = 0
    s = text
    if s.startswith("_"):
        raise ParseError("invalid problem descriptor %r" % text)
    while i < len(s):
        if s[i] == "n":
            name = s[i + 1:]
            break
        m = re.match(r"(mb|ic|id|ih|iw|od|oh|ow)([0-9]+)(_?)", s[i:])
        if not m:
            raise ParseError("invalid problem descriptor %r" % text)
        vals[m.group(1)] = int(m.group(2))
        i += m.end()
        if s.startswith("_", i):
            raise ParseError("invalid problem descriptor %r" % text)
    if not vals.get("ic"):
        raise ParseError("invalid problem descriptor %r: ic is missing" % text)
    for a in "dhw":
        if ("i" + a in vals) != ("o" + a in vals):
            raise ParseError("invalid problem descriptor %r: i%s/o%s" % (text, a, a))
    if "od" in vals:
        nd = 5
    elif "oh" in vals:
        nd = 4
    elif "ow" in vals:
        nd = 3
    else:
        raise ParseError("invalid problem descriptor %r: no spatial dims" % text)
    if nd == 5:
        has_h, has_w = "oh" in vals, "ow" in vals
        if has_h != has_w:
            raise ParseError("invalid problem descriptor %r" % text)
        if not has_h:
            for k in ("ih", "iw"):
                vals[k] = vals["id"]
            for k in ("oh", "ow"):
                vals[k] = vals["od"]
    elif nd == 4:
        if "ow" not in vals:
            vals["iw"], vals["ow"] = vals["ih"], vals["oh"]
        vals["id"] = vals["od"] = 1
    else:
        vals["id"] = vals["od"] = vals["ih"] = vals["oh"] = 1
    d.mb = vals.get("mb", 2)
    d.ic = vals["ic"]
    for k in ("id", "ih", "iw", "od", "oh", "ow"):
        setattr(d, k, vals[k])
    d.ndims = nd
    d.name = name
    return d


@register
class ResamplingDriver(Driver):
    name = "resampling"
    vector_options = (("dir", "FWD_D"), ("sdt", "f32"), ("ddt", "f32"), ("tag", "abx"),
                      ("alg", "nearest"), ("mb", "0"))
    loop = ("dir", "sdt", "ddt", "tag", "alg", "mb") + Driver.attr_options + \
        ("ctx-init", "ctx-exe")
    csv_template = ("perf,%engine%,%impl%,%name%,%dir%,%sdt%,%ddt%,%tag%,%alg%,%attr%,"
                    "%desc%,%Gops%,%+ctime%,%-time%,%-Gflops%,%0time%,%0Gflops%")
    zero_trust = 99.0
    help = ("resampling options: --dir= --sdt= --ddt= --tag= --alg=nearest|linear --mb= "
            "and the attribute options; problems: mb2ic16_ih5oh3_iw10ow11")

    def check_values(self, key, values):
        d = dict(self.vector_options)
        out = []
        for v in values:
            if v == "":
                v = d.get(key, "")
            if key == "dir":
                v = v.upper()
                if v not in DIRS:
                    raise ParseError("unknown --dir=%s" % v, 2)
            elif key in ("sdt", "ddt") and v not in DTS:
                raise ParseError("unknown data type %r" % v, 2)
            elif key == "alg":
                v = v.lower().replace("resampling_", "")
                if v not in ("nearest", "linear"):
                    raise ParseError("unknown --alg=%s" % v, 2)
            elif key == "mb" and not v.isdigit():
                raise ParseError("bad --mb=%s" % v, 2)
            out.append(v)
        return out

    def expand(self, token):
        desc = parse_resampling_desc(token)
        out = []
        for combo in K.product(self.opts, self.loop):
            combo["desc"] = desc
            t = normalize_tag(combo["tag"], desc.ndims)
            if t is None:
                raise ParseError("invalid tag %r" % combo["tag"], 2)
            if self.bench.g.allow_enum_tags_only and not enum_tag_ok(
                    normalize_tag(combo["tag"])):
                raise ParseError("tag %r is not a dnnl_format_tag_t value" % combo["tag"], 2)
            parse_post_ops(combo["attr-post-ops"])
            out.append(combo)
        return out

    def repro(self, prb):
        s = ""
        for key, default in self.vector_options:
            if prb[key] != default and key != "mb":
                s += "--%s=%s " % (key, prb[key])
        if prb["mb"] not in ("0", ""):
            s += "--mb=%s " % prb["mb"]
        s += self.attr_repro(prb)
        return s + self.desc(prb)

    def desc(self, prb):
        d = prb["desc"]
        mb = int(prb["mb"] or 0)
        if mb and mb != d.mb:
            import copy
            d = copy.copy(d)
            d.mb = mb
        return str(d)

    def perf_fields(self, prb):
        d = prb["desc"]
        return {"engine": "cpu", "name": d.name or "", "dir": prb["dir"],
                "sdt": prb["sdt"], "ddt": prb["ddt"],
                "tag": normalize_tag(prb["tag"], d.ndims), "alg": prb["alg"],
                "attr": self.attr_repro(prb).strip(), "desc": self.desc(prb),
                "mb": prb["mb"], "Gops": 0, "Gflops": 0}

    def dims(self, prb):
        d = prb["desc"]
        mb = int(prb["mb"] or 0) or d.mb
        sp_in = {5: [d.id, d.ih, d.iw], 4: [d.ih, d.iw], 3: [d.iw]}[d.ndims]
        sp_out = {5: [d.od, d.oh, d.ow], 4: [d.oh, d.ow], 3: [d.ow]}[d.ndims]
        return [mb, d.ic] + sp_in, [mb, d.ic] + sp_out

    def skip(self, prb):
        pos = parse_post_ops(prb["attr-post-ops"])
        sums = [p for p in pos if p.kind == "sum"]
        if any(p.zero_point != 0 for p in sums) and prb["sdt"] not in INTEGRAL:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)
        if len({p.dt for p in sums}) > 1:
            raise K.Skip(K.SKIPPED, K.CASE_NOT_SUPPORTED)

    def footprint(self, prb):
        sdims, ddims = self.dims(prb)
        return (int(np.prod(sdims, dtype=np.int64)) + int(np.prod(ddims, dtype=np.int64))) * 16

    def seed(self, prb):
        return self.footprint(prb) // 16 + 11

    def create(self, prb, eng, rng):
        fwd = prb["dir"].startswith("FWD")
        sdims, ddims = self.dims(prb)
        sdt, ddt = prb["sdt"], prb["ddt"]
        tag = normalize_tag(prb["tag"], len(sdims))
        alg = dnnl.algorithm["resampling_" + prb["alg"]]
        anyt = dnnl.memory.format_tag.any
        attr, exec_args, keep, info = A.build(prb, ddims, eng, rng)
        if fwd:
            prop = (dnnl.prop_kind.forward_inference if prb["dir"] == "FWD_I"
                    else dnnl.prop_kind.forward_training)
            in_md = md_from_tag(sdims, A.dt_of(sdt), tag)
            pd = dnnl.resampling_forward.primitive_desc(
                eng, prop, alg, in_md, dnnl.memory.desc(ddims, A.dt_of(ddt), anyt), attr)
            return Case(pd, dnnl.resampling_forward(pd), attr, exec_args, keep, info,
                        dnnl.DNNL_ARG_SRC, pd.src_desc(), sdt, sdims,
                        dnnl.DNNL_ARG_DST, pd.dst_desc(), ddt, ddims)
        in_md = md_from_tag(ddims, A.dt_of(ddt), tag)
        pd = dnnl.resampling_backward.primitive_desc(
            eng, alg, dnnl.memory.desc(sdims, A.dt_of(sdt), anyt), in_md, None, attr)
        return Case(pd, dnnl.resampling_backward(pd), attr, exec_args, keep, info,
                    dnnl.DNNL_ARG_DIFF_DST, pd.diff_dst_desc(), ddt, ddims,
                    dnnl.DNNL_ARG_DIFF_SRC, pd.diff_src_desc(), sdt, sdims)

    def perf_values(self, dt, n, rng):
        return rng.uniform(0, 20, n)

    def fill(self, prb, case):
        return fill(case.in_dims, case.in_dt, 0 if prb["dir"].startswith("FWD") else 3)

    def fill_dst_old(self, prb, case):
        return fill(case.out_dims, case.out_dt, 3) if prb["dir"].startswith("FWD") else None

    def reference(self, prb, case, in_codes, dst_old):
        fwd = prb["dir"].startswith("FWD")
        info = case.info
        idt, odt = int(A.dt_of(case.in_dt)), int(A.dt_of(case.out_dt))
        x = R.decode(TR.codes(in_codes, idt), idt)
        x = np.asarray(x, np.float32).reshape(case.in_dims)
        if fwd:
            ref = RS.forward(x, case.out_dims[2:], prb["alg"],
                             post_ops=case.attr.get_post_ops() if info["post_ops"] else None,
                             dst_old=dst_old, dst_dt=odt, src1_arrays=info["src1"])
        elif prb["alg"] == "linear" and np.prod(case.out_dims[2:]) > EXACT_BWD_LINEAR_MAX:
            ref = backward_linear_f64(x, case.out_dims[2:])
        else:
            ref = RS.backward(x, case.out_dims[2:], prb["alg"])
        exp = np.asarray(R.encode(np.asarray(ref, np.float32).reshape(-1), odt))
        trh = 0.0
        if prb["alg"] == "linear":
            trh = linear_threshold(case.in_dt, case.out_dt)
        if any(p.kind == "eltwise" for p in info["post_ops"]):
            trh = max(trh, 2e-5)
        if any(p.kind == "binary" for p in info["post_ops"]):
            trh = max(trh, 1e-5)
        return exp, trh
