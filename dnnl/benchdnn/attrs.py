"""benchdnn attribute options -> ``dnnl.primitive_attr`` plus the memories
(scales, zero points, binary src1) to pass at execution."""
import numpy as np

import dnnl
from dnnl.benchdnn.parser import parse_bool, parse_post_ops, parse_quant, policy_mask
from dnnl.testing import dtypes as R
from dnnl.testing import reorder as TR

ARG_ATTR_SCALES = dnnl.DNNL_ARG_ATTR_SCALES
ARG_ATTR_ZERO_POINTS = dnnl.DNNL_ARG_ATTR_ZERO_POINTS
POST_OP_BASE = dnnl.DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE
ARG_SRC_1 = dnnl.DNNL_ARG_SRC_1
SCALE_CHOICES = (1 / 16, 1 / 8, 1 / 4)


def dt_of(name):
    return dnnl.memory.data_type[name]


def value_memory(eng, values, dt_name):
    """A 1D memory holding ``values`` (rounded to ``dt_name``)."""
    dt = dt_of(dt_name)
    values = np.asarray(values).reshape(-1)
    n = max(values.size, 1)
    md = dnnl.memory.desc([n], dt, dnnl.memory.format_tag.a)
    buf = np.zeros(max(md.get_size(), 1) + 8, np.uint8)
    if int(dt) in (R.S32, R.S8, R.U8, R.S4, R.U4, R.S64):
        codes = R.encode(values.astype(np.float32), int(dt)) if values.dtype.kind == "f" \
            else values.astype(np.int64)
        if int(dt) in (R.S4, R.U4):
            codes = np.asarray(codes).astype(np.int64) & 15
    else:
        codes = R.encode(values.astype(np.float32), int(dt))
    raw = R.to_bytes(np.asarray(codes), int(dt)).tobytes()
    buf[:len(raw)] = np.frombuffer(raw, np.uint8)
    return dnnl.memory(md, eng, buf), buf


def quant_values(q, dims, mask, integer, rng, lowest):
    """benchdnn's values: the given one for single-value policies, else
    random from {1/16, 1/8, 1/4} (scales) or ints in [max(-2, lowest), 2]."""
    n = TR.count(dims, mask, q.groups)
    if q.is_single():
        return np.full(max(n, 1) if mask else 1, q.value,
                       dtype=np.int64 if integer else np.float64)
    if integer:
        return rng.integers(max(-2, lowest), 3, size=n)
    return rng.choice(SCALE_CHOICES, size=n)


_LOWEST = {"s32": -2 ** 31, "s8": -128, "u8": 0, "s4": -8, "u4": 0}


def build(prb, dims, eng, rng, scale_args=None):
    """(attr, exec_args {arg: memory}, keep, info) for the problem's attribute
    options; ``info``: {'scales': {arg: (mask, values, groups)}, 'zps': ...,
    'post_ops': [PostOp], 'src1': {i: logical f32 array}}."""
    attr = dnnl.primitive_attr()
    exec_args, keep = {}, []
    info = {"scales": {}, "zps": {}, "post_ops": [], "src1": {}}
    nd = len(dims)
    for key, integer, setter, base in (
            ("attr-scales", False, attr.set_scales, ARG_ATTR_SCALES),
            ("attr-zero-points", True, attr.set_zero_points, ARG_ATTR_ZERO_POINTS)):
        for q in parse_quant(prb.get(key, ""), integer):
            if q.policy in ("mx", "dynamic_fp"):
                raise dnnl.error(dnnl.status.unimplemented,
                                 "%s policy %s" % (key, q.policy))
            mask = policy_mask(q.policy, nd)
            setter(q.arg, mask, tuple(q.groups), dt_of(q.dt))
            vals = quant_values(q, dims, mask, integer, rng, _LOWEST.get(q.dt, -2))
            if integer:
                vals = np.asarray(vals, np.int64)
            else:   # what the buffer holds after rounding to the scale type
                vals = R.decode(R.encode(np.asarray(vals, np.float32), int(dt_of(q.dt))),
                                int(dt_of(q.dt))).astype(np.float32)
            mem, buf = value_memory(eng, vals, q.dt)
            keep.append(buf)
            exec_args[base | q.arg] = mem
            info["zps" if integer else "scales"][q.arg] = (mask, vals, tuple(q.groups))
    pr = prb.get("attr-precomputed-reductions", "")
    for q in parse_quant(pr, True):
        attr.set_precomputed_reductions(q.arg, policy_mask(q.policy, nd), tuple(q.groups),
                                        dt_of(q.dt))
    po_list = parse_post_ops(prb.get("attr-post-ops", ""))
    if po_list:
        po = dnnl.post_ops()
        for i, p in enumerate(po_list):
            if p.kind == "sum":
                po.append_sum(p.scale, p.zero_point, dt_of(p.dt) if p.dt else None)
            elif p.kind == "eltwise":
                po.append_eltwise(dnnl.algorithm["eltwise_" + p.alg], p.alpha, p.beta)
            elif p.kind == "binary":
                mask = policy_mask(p.policy, nd)
                sdims = [d if (mask >> k) & 1 else 1 for k, d in enumerate(dims)]
                tag = "abcdefghijkl"[:nd] if p.tag == "any" else p.tag
                md = dnnl.memory.desc(sdims, dt_of(p.dt), tag)
                po.append_binary(dnnl.algorithm["binary_" + p.alg], md)
                vals = binary_src1_values(p, int(np.prod(sdims)), rng)
                codes = R.encode(vals.astype(np.float32), int(dt_of(p.dt)))
                vals = R.decode(codes, int(dt_of(p.dt))).astype(np.float32)
                buf = np.zeros(md.get_size() + 8, np.uint8)
                raw = TR.write_logical(buf[:md.get_size()].copy(), md,
                                       np.asarray(codes).reshape(sdims))
                buf[:len(raw)] = np.frombuffer(raw, np.uint8)
                keep.append(buf)
                exec_args[(POST_OP_BASE * (i + 1)) | ARG_SRC_1] = dnnl.memory(md, eng, buf)
                info["src1"][i] = vals.reshape(sdims)
            elif p.kind == "prelu":
                po.append_prelu(policy_mask(p.policy, nd))
            else:
                raise dnnl.error(dnnl.status.unimplemented, "post-op %s" % p.text)
        attr.set_post_ops(po)
        info["post_ops"] = list(po_list)
    v = prb.get("attr-scratchpad", "")
    if v:
        attr.set_scratchpad_mode(dnnl.scratchpad_mode[v])
    v = prb.get("attr-fpmath", "")
    if v:
        f = v.split(":")
        attr.set_fpmath_mode(dnnl.fpmath_mode[f[0]], parse_bool(f[1]) if len(f) > 1 else False)
    v = prb.get("attr-acc-mode", "")
    if v:
        attr.set_accumulation_mode(dnnl.accumulation_mode[v])
    v = prb.get("attr-deterministic", "")
    if v:
        attr.set_deterministic(parse_bool(v))
    v = prb.get("attr-rounding-mode", "")
    if v:
        for item in v.split("+"):
            f = item.split(":")
            from dnnl.benchdnn.parser import arg_value
            attr.set_rounding_mode(arg_value(f[0]), dnnl.rounding_mode[f[1]])
    if prb.get("attr-dropout", ""):
        raise dnnl.error(dnnl.status.unimplemented, "dropout")
    return attr, exec_args, keep, info


def binary_src1_values(p, n, rng):
    """Integers in [0, 16] with the first one nudged (benchdnn's binary fill);
    mul divides by 8, sub negates."""
    vals = rng.integers(0, 17, size=n).astype(np.float64)
    if n:
        if p.dt in ("s32", "s8", "u8"):
            vals[0] += 0
        else:
            vals[0] += 0.5
    if p.alg == "mul":
        vals = vals / 8
    elif p.alg == "sub":
        vals = -vals
    return vals
