"""The flat API's statuses on random (mostly bad) input, real
oneDNN against ``dnnl.capi``, case by case.

A seeded generator draws cases as plain data; one ctypes program (explicit C
types on every argument, no ``argtypes``) executes each case against
``libdnnl.so.3`` and against ``dnnl.capi`` and logs every status it gets (the
setup calls' and the target call's). The two logs must be equal, except for
the documented deviations (docs/internals/semantics.md, "Statuses on bad
input"), which are recognised by ``deviation()`` and must be exactly what the
documentation lists: a case that differs in any other way fails the test.

What the generator draws (``draw_case``): memory descriptors of every kind of
layout -- plain and permuted tags, blocked tags with padding (``aBcd16b``,
``ABcd16b16a``, ...), dense/padded/overlapping/zero/negative/runtime strides,
runtime dims, zero dims, wrong ndims (0, 13, -1), wrong tags (of another rank,
``any``, ``undef``, unknown values), wrong data types (``undef``, unknown,
``boolean``, sub-byte, f64/s64), sub-memory / reshape / permute descriptors
derived from them -- and then one target call:

- ``dnnl_memory_desc_create_submemory`` (dims/offsets inside, outside, zero,
  negative, runtime, unaligned to blocks);
- ``dnnl_memory_desc_reshape`` (ndims -1..13, same or other element count,
  ones inserted or removed, blocked/strided/padded parents);
- ``dnnl_memory_desc_permute_axes`` (permutations, repeated or out-of-range
  entries);
- ``dnnl_reorder_primitive_desc_create`` (same or other dims, NULL mds or
  engines, attrs with scales, zero points, sum/eltwise/binary/dw post-ops,
  scratchpad mode, fpmath mode);
- ``dnnl_resampling_forward_primitive_desc_create`` /
  ``dnnl_resampling_backward_primitive_desc_create`` (prop kinds and algs good
  and bad, factors NULL/good/zero/negative/NaN/inf, NULL mds, mismatched
  ranks, channels or batch, hints, attrs);
- the post-op appends (``sum``, ``eltwise``, ``binary``, ``binary_v2``,
  ``dw``, ``prelu``) after a random chain of earlier appends.

``DNNL_STATUS_CASES`` sets the number of cases (default 3,000, a few
seconds); ``DNNL_STATUS_SEED`` the seed (default 21). The documented full run
is ``DNNL_STATUS_CASES=50000 python -m pytest -q
tests/conformance/test_status_oracle.py`` (about 30 s); on oneDNN 3.13.2,
avx512_core_bf16, seed 21 it gave (compared / equal / documented / other)::

    append_binary         2917  2917    0  0
    append_dw             5975  5975    0  0
    append_eltwise        2953  2953    0  0
    append_prelu          2957  2957    0  0
    append_sum            2920  2920    0  0
    permute_axes          2872  2872    0  0
    reorder               5889  5866   23  0  (sub-byte-layouts 14,
                                               to-s64-e8m0-sub-byte 8,
                                               reshape-to-0-dims 1)
    resampling_backward   5923  5636  287  0  (f16 156, diff-dst-any-no-hint 43,
                                               hint-other-rank 35, bad-factor 33,
                                               s4-u4-s64-e8m0 20)
    resampling_forward    5938  5859   79  0  (f16 55, bad-factor 13,
                                               s4-u4-s64-e8m0 11)
    reshape               5899  5898    1  0  (reshape-to-0-dims 1)
    submemory             5757  5757    0  0
    total                50000 49610  390  0

(a case counts under the function it targets; a documented difference in a
descriptor it derives on the way, e.g. a reshape, counts there too).

Not drawn, because real oneDNN crashes on them (``dnnl.capi`` returns
``invalid_arguments``): a NULL ``src1_desc`` for
``dnnl_post_ops_append_binary``, ``binary_select`` without ``src2_desc``, a
NULL engine for resampling pd creation, a blocked tag with a dim above 2**40. ``python tests/conformance/test_status_oracle.py
[N [SEED]]`` runs the generator alone and prints the counts and the first
differences.
"""
import collections
import ctypes
import math
import os
import pathlib
import random
import re
import sys

import pytest

pytestmark = pytest.mark.conformance

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if __name__ == "__main__":      # run as a script: this tree's dnnl, not an installed one
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))

import dnnl.capi  # noqa: E402
import oracle as _oracle_mod  # noqa: E402
from dnnl._core.enums import C, C_ENUMS  # noqa: E402

P, I, I32, I64, F = (ctypes.c_void_p, ctypes.c_int, ctypes.c_int32, ctypes.c_int64,
                     ctypes.c_float)
RT = C["DNNL_RUNTIME_DIM_VAL"]
SUCCESS = C["dnnl_success"]

DTS = ["f32", "bf16", "f16", "s32", "s8", "u8", "s4", "u4", "f8_e5m2", "f8_e4m3",
       "f64", "s64", "boolean", "e8m0", "f4_e2m1", "f4_e3m0"]
_ABSTRACT = re.compile(r"^[a-lA-L]+[0-9a-lA-L]*$")
TAGS_BY_NDIMS = collections.defaultdict(list)
for _name in C_ENUMS["dnnl_format_tag_t"].__members__:
    if _ABSTRACT.match(_name):
        TAGS_BY_NDIMS[len(re.match(r"[a-lA-L]+", _name).group(0))].append(_name)
NAMED_TAGS = ["nchw", "nhwc", "nChw8c", "nChw16c", "ncdhw", "ndhwc", "nCdhw16c", "ncw",
              "nwc", "oihw", "OIhw16i16o", "goihw", "nc", "cn", "x", "io", "oi"]
ALGS = ["resampling_nearest", "resampling_linear", "eltwise_relu", "binary_add",
        "binary_mul", "binary_max", "binary_select", "eltwise_tanh", "eltwise_clip",
        "eltwise_round", "eltwise_linear", "eltwise_gelu_erf", "eltwise_swish",
        "eltwise_pow", "eltwise_clip_v2_use_dst_for_bwd", "eltwise_hardsigmoid",
        "binary_ge", "binary_div", "binary_sub", "binary_min", "binary_eq",
        "lrn_across_channels", "pooling_max", "deconvolution_direct"]


def _c(name):
    return C["dnnl_" + name]


def dt_of(name):
    if isinstance(name, int):
        return name
    return _c(name)


def tag_of(name):
    if isinstance(name, int):
        return name
    return C.get("dnnl_" + name, C.get("dnnl_format_tag_" + name))


# ------------------------------------------------------------------ generator
def _dim_value(rng):
    r = rng.random()
    if r < 0.85:
        return rng.choice([1, 1, 2, 3, 4, 5, 8, 16, 17, 32])
    return rng.choice([0, -1, RT, 2 ** 31 - 1, 2 ** 62, -5])


def _dims(rng, nd):
    return [_dim_value(rng) for _ in range(nd)] if rng.random() < 0.85 else \
        [rng.choice([1, 2, 3, 4, 8, 16, 17]) for _ in range(nd)]


def _ndims(rng):
    r = rng.random()
    if r < 0.93:
        return rng.choice([1, 2, 3, 4, 4, 4, 5, 5, 6])
    return rng.choice([0, 7, 12, 13, -1])


def _dt(rng):
    r = rng.random()
    if r < 0.6:
        return rng.choice(["f32", "f32", "bf16", "f16", "s32", "s8", "u8"])
    if r < 0.92:
        return rng.choice(DTS)
    return rng.choice(["data_type_undef", 999, -1])


def _tag(rng, nd):
    r = rng.random()
    pool = TAGS_BY_NDIMS.get(nd, [])
    if r < 0.8 and pool:
        plain = [t for t in pool if not re.search(r"\d", t)]
        return rng.choice(plain if (rng.random() < 0.5 and plain) else pool)
    if r < 0.88:
        return rng.choice(NAMED_TAGS)
    if r < 0.95:
        return rng.choice(["any", "format_tag_undef"])
    return rng.choice([9999, -3, rng.choice(TAGS_BY_NDIMS[rng.choice([1, 2, 3, 4, 5])])])


def _strides(rng, dims):
    nd = len(dims)
    r = rng.random()
    if r < 0.15:
        return None
    perm = list(range(nd))
    rng.shuffle(perm)
    strides = [0] * nd
    s = 1
    pad = rng.random() < 0.3
    for i in reversed(perm):
        strides[i] = s
        d = dims[i] if dims[i] > 0 else 1
        s *= d + (rng.choice([0, 1, 3]) if pad else 0)
    if r < 0.75:
        return strides
    bad = list(strides)
    for _ in range(rng.choice([1, 1, 2])):
        bad[rng.randrange(nd)] = rng.choice([0, -1, 1, 2, RT, 2 ** 62, -(2 ** 40)]) \
            if nd else 0
    return bad


def _tag_spec(nd, dims, dt, tag):
    """A tag spec; a blocked tag gets no dim above 2**40 (oneDNN 3.13 crashes
    creating e.g. AB4b16a4b with a dim of 2**62)."""
    if isinstance(tag, int) or re.search(r"\d", tag):
        dims = [2 ** 31 - 1 if d > 2 ** 40 else d for d in dims]
    return ("tag", nd, list(dims), dt, tag)


def _base_spec(rng, nd=None):
    if nd is None:
        nd = _ndims(rng)
    dims = _dims(rng, max(nd, 0)) if nd >= 0 else [2]
    if rng.random() < 0.6:
        return _tag_spec(nd, dims, _dt(rng), _tag(rng, nd))
    return ("strides", nd, dims, _dt(rng), _strides(rng, dims) if nd > 0 else None)


def _good_spec(rng, nd=None, dims=None):
    """A spec that very likely creates (valid dims, plain or blocked tag)."""
    if nd is None:
        nd = rng.choice([1, 2, 3, 4, 4, 5])
    if dims is None:
        dims = [rng.choice([1, 2, 3, 4, 5, 8, 16, 17]) for _ in range(nd)]
    dt = rng.choice(["f32", "f32", "bf16", "f16", "s32", "s8", "u8"]) \
        if rng.random() < 0.9 else rng.choice(DTS)
    if rng.random() < 0.75 and TAGS_BY_NDIMS.get(nd):
        pool = TAGS_BY_NDIMS[nd]
        plain = [t for t in pool if not re.search(r"\d", t)]
        return _tag_spec(nd, dims, dt, rng.choice(plain if rng.random() < 0.5 else pool))
    return ("strides", nd, list(dims), dt, _strides(rng, dims) if nd > 0 else None)


def _any_spec(rng, nd=None):
    r = rng.random()
    if r < 0.03:
        return ("null",)
    if r < 0.55:
        return _good_spec(rng, nd)
    if r < 0.85:
        return _base_spec(rng, nd)
    parent = _good_spec(rng, nd)
    kind = rng.choice(["sub", "reshape", "permute"])
    return _derive(rng, parent, kind)


def _spec_dims(spec):
    """The dims a spec asks for (None for NULL)."""
    k = spec[0]
    if k in ("tag", "strides"):
        return spec[2][:max(spec[1], 0)] if spec[1] <= len(spec[2]) else spec[2]
    if k == "sub":
        return spec[2][:len(_spec_dims(spec[1]) or [])]
    if k == "reshape":
        return spec[3][:max(spec[2], 0)]
    if k == "permute":
        pd = _spec_dims(spec[1]) or []
        out = list(pd)
        for i, p in enumerate(spec[2][:len(pd)]):
            if 0 <= p < len(pd):
                out[p] = pd[i]
        return out
    return None


def _sub_args(rng, pdims):
    nd = len(pdims)
    dims, offs = [], []
    for d in pdims:
        r = rng.random()
        if r < 0.8 and d > 0:
            x = rng.randint(1, d)
            o = rng.randint(0, d - x)
        else:
            x = rng.choice([0, -1, d + 1, RT, 1, d])
            o = rng.choice([0, 1, -1, d, RT, 2 ** 62])
        dims.append(x)
        offs.append(o)
    if rng.random() < 0.1 and nd:
        i = rng.randrange(nd)
        offs[i] = rng.choice([1, 3, 7, 8, 15, 16])
    return dims, offs


def _reshape_args(rng, pdims):
    nd = len(pdims)
    r = rng.random()
    if r < 0.35:
        new = [d for d in pdims]
        for _ in range(rng.choice([0, 1, 2])):
            new.insert(rng.randint(0, len(new)), 1)
        if rng.random() < 0.5:
            new = [d for d in new if d != 1] or [1]
    elif r < 0.6 and nd >= 2:
        i = rng.randrange(nd - 1)
        new = pdims[:i] + [pdims[i] * pdims[i + 1]] + pdims[i + 2:]
    elif r < 0.75:
        n = 1
        for d in pdims:
            n *= d
        new = [n]
        for f in (2, 3, 4, 8, 16):
            if rng.random() < 0.4 and n % f == 0 and n > f:
                new = [f, n // f]
                break
    else:
        new = _dims(rng, rng.choice([1, 2, 3, 4, 5]))
    ndims = len(new)
    if rng.random() < 0.05:
        ndims = rng.choice([0, -1, 13, ndims + 1])
    return ndims, new


def _perm_args(rng, nd):
    perm = list(range(nd))
    rng.shuffle(perm)
    r = rng.random()
    if r < 0.15 and nd:
        perm[rng.randrange(nd)] = rng.choice([-1, nd, 12, perm[0]])
    return perm


def _derive(rng, parent, kind):
    pdims = _spec_dims(parent)
    if kind == "sub":
        return ("sub", parent) + _sub_args(rng, pdims)
    if kind == "reshape":
        return ("reshape", parent) + _reshape_args(rng, pdims)
    return ("permute", parent, _perm_args(rng, len(pdims)))


def _scales(rng, nd):
    arg = rng.choice([1, 1, 17, 17, 33, 0, 41])
    mask = rng.choice([0, 0, 1, 2, 3, 1 << max(nd - 1, 0), (1 << nd) - 1, -1, 1 << 13])
    dt = rng.choice(["f32", "f32", "bf16", "f16", "s8", "data_type_undef"])
    groups = [] if rng.random() < 0.85 else [rng.choice([1, 2, 4, 0, -1])] * rng.choice([1, 2])
    return arg, mask, groups, dt


def _post_op(rng, dims):
    r = rng.random()
    if r < 0.3:
        return ("sum", rng.choice([1.0, 0.5, 2.0, 0.0, float("nan")]),
                rng.choice([0, 0, 1, -3]), rng.choice(["data_type_undef", "data_type_undef", "f32", "s8", "u8",
                                                       "s32", "bf16", 999, "boolean"]))
    if r < 0.55:
        return ("eltwise", rng.choice(ALGS), rng.choice([0.0, 1.0, -1.0, float("nan"),
                                                         float("inf"), 0.5, 2.0]),
                rng.choice([0.0, 1.0, -1.0, float("nan"), 3.0]))
    if r < 0.8:
        if dims and rng.random() < 0.7:
            bd = [d if rng.random() < 0.6 else 1 for d in dims]
            if rng.random() < 0.15:
                bd = bd + [1]
            spec = _good_spec(rng, len(bd), bd)
        else:
            spec = _any_spec(rng)
        src2 = None
        d1 = _spec_dims(spec)
        if rng.random() < 0.15 and d1:
            src2 = _good_spec(rng, len(d1), d1)
        return ("binary", rng.choice(ALGS), spec, src2)
    if r < 0.92:
        return ("dw", rng.choice(["f32", "s8", "bf16", "data_type_undef", "u8", 999]),
                rng.choice(["f32", "data_type_undef", "s32", "bf16", 999]),
                rng.choice(["f32", "u8", "s8", "bf16", "data_type_undef", 999, "f16"]),
                rng.choice([3, 3, 1, 0, -1, 5, 2 ** 40]),
                rng.choice([1, 1, 2, 0, -1, 3]), rng.choice([1, 1, 0, -1, 2, 5]))
    return ("prelu", rng.choice([0, 1, 2, 3, -1, 1 << 12, 1 << 13]))


def _attr(rng, nd, dims):
    if rng.random() < 0.4:
        return None
    a = {"scales": [], "zps": [], "post_ops": [], "misc": []}
    if rng.random() < 0.35:
        a["scales"] = [_scales(rng, nd) for _ in range(rng.choice([1, 1, 2]))]
    if rng.random() < 0.25:
        a["zps"] = [_scales(rng, nd) for _ in range(rng.choice([1, 2]))]
    if rng.random() < 0.5:
        a["post_ops"] = [_post_op(rng, dims) for _ in range(rng.choice([1, 1, 2, 3]))]
    if rng.random() < 0.15:
        a["misc"].append(("scratchpad", rng.choice([0, 1, 2, -1])))
    if rng.random() < 0.1:
        a["misc"].append(("fpmath", rng.choice([0, 1, 2, 3, 4, 5, 9])))
    return a


def _factors(rng, nd):
    r = rng.random()
    if r < 0.35:
        return None
    n = max(nd - 2, 1)
    if r < 0.85:
        return [rng.choice([0.5, 1.0, 2.0, 1.5, 3.0, 0.25, 2.5]) for _ in range(n)]
    return [rng.choice([0.0, -1.0, float("nan"), float("inf"), 1e-9, 2.0, 1e9])
            for _ in range(n)]


def _resampling_specs(rng):
    nd = rng.choice([3, 4, 4, 5, 5, 2, 6, 1])
    src = _good_spec(rng, nd)
    sdims = _spec_dims(src)
    r = rng.random()
    if r < 0.5 and nd >= 2:
        ddims = [sdims[0], sdims[1]] + [max(1, int(d * rng.choice([0.5, 1, 2, 3]))) for d in
                                       sdims[2:]]
    elif r < 0.7:
        ddims = list(sdims)
    else:
        ddims = _dims(rng, nd if rng.random() < 0.8 else rng.choice([3, 4, 5]))
        if rng.random() < 0.5 and len(ddims) >= 2:
            ddims[:2] = sdims[:2]
    if rng.random() < 0.7:
        dst = _good_spec(rng, len(ddims), ddims)
        if rng.random() < 0.3 and dst[0] == "tag":
            dst = dst[:4] + ("any",)
    elif rng.random() < 0.5:
        dst = ("null",)
    else:
        dst = _any_spec(rng, len(ddims))
    if rng.random() < 0.2:
        src = _any_spec(rng, nd)
    if rng.random() < 0.15 and src[0] == "tag":
        src = src[:4] + ("any",)
    return src, dst


FUNCTIONS = ("submemory", "reshape", "permute_axes", "reorder", "resampling_forward",
             "resampling_backward", "append_sum", "append_eltwise", "append_binary",
             "append_dw", "append_prelu")


def draw_case(rng):
    fn = rng.choice(FUNCTIONS + ("submemory", "reorder", "resampling_forward",
                                 "resampling_backward", "reshape", "append_dw"))
    if fn in ("submemory", "reshape", "permute_axes"):
        r = rng.random()
        parent = _good_spec(rng) if r < 0.6 else (
            _derive(rng, _good_spec(rng), rng.choice(["sub", "reshape", "permute"]))
            if r < 0.85 else _any_spec(rng))
        pdims = _spec_dims(parent) or [2, 3]
        kind = {"submemory": "sub", "reshape": "reshape", "permute_axes": "permute"}[fn]
        if kind == "sub":
            return {"fn": fn, "spec": ("sub", parent) + _sub_args(rng, pdims)}
        if kind == "reshape":
            return {"fn": fn, "spec": ("reshape", parent) + _reshape_args(rng, pdims)}
        return {"fn": fn, "spec": ("permute", parent, _perm_args(rng, len(pdims)))}
    if fn == "reorder":
        src = _any_spec(rng)
        sd = _spec_dims(src)
        if rng.random() < 0.75 and sd is not None and src[1] == len(sd) and src[1] > 0:
            if rng.random() < 0.8:
                dst = _good_spec(rng, len(sd), sd)
            else:
                b = _base_spec(rng, len(sd))
                dst = _tag_spec(b[1], sd, b[3], b[4]) if b[0] == "tag" else \
                    (b[0], b[1], list(sd), b[3], _strides(rng, sd))
        else:
            dst = _any_spec(rng)
        nd = len(sd) if sd else 2
        return {"fn": fn, "src": src, "dst": dst,
                "src_engine": rng.random() < 0.97, "dst_engine": rng.random() < 0.97,
                "attr": _attr(rng, nd, sd)}
    if fn.startswith("resampling"):
        src, dst = _resampling_specs(rng)
        nd = len(_spec_dims(src) or [1, 1, 1])
        case = {"fn": fn, "src": src, "dst": dst, "factors": _factors(rng, nd),
                # a NULL engine crashes oneDNN's resampling pd creation: not drawn
                "engine": True,
                "prop": rng.choice(["forward_training", "forward_inference",
                                    "forward_training", "backward_data", "prop_kind_undef", 999])
                if fn == "resampling_forward" else None,
                "alg": rng.choice(["resampling_nearest", "resampling_linear"] * 6 + ALGS
                                  + [0, 12345]),
                "attr": _attr(rng, nd, _spec_dims(dst) or _spec_dims(src))
                if rng.random() < 0.5 else None}
        if fn == "resampling_backward":
            case["hint"] = rng.choice(["none", "fwd", "fwd", "fwd_other"])
        return case
    # post-op appends
    pre = [_post_op(rng, [2, 3, 4, 5]) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))]
    kind = fn[len("append_"):]
    while True:
        op = _post_op(rng, _spec_dims(_good_spec(rng)))
        if op[0] == kind:
            break
    return {"fn": fn, "pre": pre, "op": op, "null_post_ops": rng.random() < 0.02}


# -------------------------------------------------------------------- program
def _dimsarr(values):
    arr = (I64 * 16)()
    for i, v in enumerate(values[:16]):
        arr[i] = int(v)
    return arr


class Run:
    """Executes cases against one library, logging every status."""

    def __init__(self, lib):
        self.lib = lib
        self.eng = P()
        st = lib.dnnl_engine_create(ctypes.byref(self.eng), C["dnnl_cpu"],
                                    ctypes.c_size_t(0))
        assert st == SUCCESS

    def md(self, spec, log, owned):
        """Create spec's md (None if any step fails); every status goes to log."""
        lib = self.lib
        kind = spec[0]
        if kind == "null":
            return None
        md = P()
        if kind in ("sub", "reshape", "permute"):
            parent = self.md(spec[1], log, owned)
            if parent is None:
                return None
            if kind == "sub":
                st = lib.dnnl_memory_desc_create_submemory(
                    ctypes.byref(md), parent, _dimsarr(spec[2]), _dimsarr(spec[3]))
            elif kind == "reshape":
                st = lib.dnnl_memory_desc_reshape(ctypes.byref(md), parent, I(spec[2]),
                                                  _dimsarr(spec[3]))
            else:
                perm = (I * 16)(*[int(x) for x in spec[2]])
                st = lib.dnnl_memory_desc_permute_axes(ctypes.byref(md), parent, perm)
        else:
            _, nd, dims, dt, extra = spec
            if kind == "tag":
                st = lib.dnnl_memory_desc_create_with_tag(
                    ctypes.byref(md), I(nd), _dimsarr(dims), I(dt_of(dt)), I(tag_of(extra)))
            else:
                st = lib.dnnl_memory_desc_create_with_strides(
                    ctypes.byref(md), I(nd), _dimsarr(dims), I(dt_of(dt)),
                    None if extra is None else _dimsarr(extra))
        log.append((kind, st, spec))
        if st != SUCCESS:
            return None
        owned.append(md)
        return md

    def append(self, po, op, log, owned):
        lib = self.lib
        k = op[0]
        if k == "sum":
            st = lib.dnnl_post_ops_append_sum(po, F(op[1]), I32(op[2]), I(dt_of(op[3])))
        elif k == "eltwise":
            st = lib.dnnl_post_ops_append_eltwise(po, I(_c(op[1])), F(op[2]), F(op[3]))
        elif k == "binary":
            md1 = self.md(op[2], log, owned)
            if md1 is None:
                # oneDNN dereferences a NULL src1_desc (crashes): not called
                log.append(("append_binary", "not called: NULL src1"))
                return None
            md2 = None if op[3] is None else self.md(op[3], log, owned)
            if op[1] == "binary_select" and md2 is None:
                # oneDNN dereferences the NULL src2_desc of a select (crashes)
                log.append(("append_binary", "not called: select without src2"))
                return None
            if op[3] is None:
                st = lib.dnnl_post_ops_append_binary(po, I(_c(op[1])), md1)
            else:
                st = lib.dnnl_post_ops_append_binary_v2(po, I(_c(op[1])), md1, md2)
        elif k == "dw":
            st = lib.dnnl_post_ops_append_dw(po, I(dt_of(op[1])), I(dt_of(op[2])),
                                             I(dt_of(op[3])), I64(op[4]), I64(op[5]),
                                             I64(op[6]))
        else:
            st = lib.dnnl_post_ops_append_prelu(po, I(op[1]))
        log.append(("append_" + k, st))
        return st

    def attr(self, a, log, owned, owned_attrs):
        if a is None:
            return None
        lib = self.lib
        attr = P()
        lib.dnnl_primitive_attr_create(ctypes.byref(attr))
        owned_attrs.append(("attr", attr))
        for which, fn in (("scales", lib.dnnl_primitive_attr_set_scales),
                          ("zps", lib.dnnl_primitive_attr_set_zero_points)):
            for arg, mask, groups, dt in a[which]:
                st = fn(attr, I(arg), I(mask), I(len(groups)),
                        _dimsarr(groups) if groups else None, I(dt_of(dt)))
                log.append((which, st))
        for k, v in a["misc"]:
            if k == "scratchpad":
                st = lib.dnnl_primitive_attr_set_scratchpad_mode(attr, I(v))
            else:
                st = lib.dnnl_primitive_attr_set_fpmath_mode(attr, I(v))
            log.append((k, st))
        if a["post_ops"]:
            po = P()
            lib.dnnl_post_ops_create(ctypes.byref(po))
            owned_attrs.append(("po", po))
            for op in a["post_ops"]:
                self.append(po, op, log, owned)
            log.append(("set_post_ops", lib.dnnl_primitive_attr_set_post_ops(attr, po)))
        return attr

    def case(self, c):
        """The case's status log: [(step, status)], the target call last."""
        lib = self.lib
        log, owned, owned_attrs, pds = [], [], [], []
        fn = c["fn"]
        try:
            if fn in ("submemory", "reshape", "permute_axes"):
                self.md(c["spec"], log, owned)
            elif fn == "reorder":
                src = self.md(c["src"], log, owned)
                dst = self.md(c["dst"], log, owned)
                attr = self.attr(c["attr"], log, owned, owned_attrs)
                pd = P()
                st = lib.dnnl_reorder_primitive_desc_create(
                    ctypes.byref(pd), src, self.eng if c["src_engine"] else None, dst,
                    self.eng if c["dst_engine"] else None, attr)
                log.append(("reorder", st))
                if st == SUCCESS:
                    pds.append(pd)
            elif fn.startswith("resampling"):
                src = self.md(c["src"], log, owned)
                dst = self.md(c["dst"], log, owned)
                self.dst_null = dst is None
                attr = self.attr(c["attr"], log, owned, owned_attrs)
                fac = None if c["factors"] is None else (F * 16)(*c["factors"])
                eng = self.eng if c["engine"] else None
                alg = I(_c(c["alg"]) if isinstance(c["alg"], str) else c["alg"])
                pd = P()
                if fn == "resampling_forward":
                    prop = c["prop"]
                    prop = _c(prop) if isinstance(prop, str) else prop
                    st = lib.dnnl_resampling_forward_primitive_desc_create(
                        ctypes.byref(pd), eng, I(prop), alg, fac, src, dst, attr)
                else:
                    hint = None
                    if c["hint"] != "none":
                        hint = P()
                        hs, hd = (src, dst)
                        if c["hint"] == "fwd_other":
                            hs = self.md(("tag", 4, [1, 2, 3, 3], "f32", "abcd"), log, owned)
                            hd = self.md(("tag", 4, [1, 2, 6, 6], "f32", "abcd"), log, owned)
                        hst = lib.dnnl_resampling_forward_primitive_desc_create(
                            ctypes.byref(hint), self.eng, I(_c("forward_training")), alg,
                            fac, hs, hd, None)
                        log.append(("hint", hst))
                        if hst == SUCCESS:
                            pds.append(hint)
                        else:
                            hint = None
                    st = lib.dnnl_resampling_backward_primitive_desc_create(
                        ctypes.byref(pd), eng, alg, fac, src, dst, hint, attr)
                log.append((fn, st))
                if st == SUCCESS:
                    pds.append(pd)
            else:
                po = P()
                lib.dnnl_post_ops_create(ctypes.byref(po))
                owned_attrs.append(("po", po))
                for op in c["pre"]:
                    self.append(po, op, log, owned)
                self.append(None if c["null_post_ops"] else po, c["op"], log, owned)
        finally:
            for pd in pds:
                lib.dnnl_primitive_desc_destroy(pd)
            for md in owned:
                lib.dnnl_memory_desc_destroy(md)
            for k, h in owned_attrs:
                (lib.dnnl_primitive_attr_destroy if k == "attr"
                 else lib.dnnl_post_ops_destroy)(h)
        return log


# ----------------------------------------------------- documented deviations
#: The documented deviations: id -> (function family, oneDNN's status, ours).
#: Each id is listed in docs/internals/semantics.md ("Statuses on bad input")
#: with its reason; ``deviation()`` returns one of them or None.
DOCUMENTED = {
    "resampling-f16": ("resampling", "unimplemented", "success or a check of ours"),
    "resampling-bf16": ("resampling", "unimplemented", "success or a check of ours"),
    "resampling-s4-u4-s64-e8m0": ("resampling", "success", "unimplemented"),
    "resampling-bad-factor": ("resampling", "success or unimplemented", "invalid_arguments"),
    "resampling-binary-src1-dims": ("resampling", "success or unimplemented",
                                    "invalid_arguments"),
    "resampling-diff-dst-any-no-hint": ("resampling", "success", "unimplemented"),
    "resampling-hint-other-rank": ("resampling", "success or unimplemented",
                                   "invalid_arguments"),
    "reshape-to-0-dims": ("reshape", "success", "invalid_arguments"),
    "reshape-blocked-padded": ("reshape", "success", "invalid_arguments"),
    "reorder-to-s64-e8m0-sub-byte": ("reorder", "success", "unimplemented"),
    "reorder-sub-byte-layouts": ("reorder", "unimplemented", "success"),
    "reorder-s32-bf16-no-avx512": ("reorder", "unimplemented", "success"),
    "reorder-s32-f16-f8-no-isa": ("reorder", "unimplemented", "success"),
    "reorder-jit-uni-only-pairs": ("reorder", "unimplemented", "success"),
}
#: pairs oneDNN serves with jit:uni alone (src/cpu/x64/jit_uni_reorder.cpp)
JIT_UNI_ONLY = {("u8", "f16"), ("bf16", "f16"), ("f16", "bf16"),
                ("f8_e5m2", "f8_e4m3"), ("f8_e4m3", "f8_e5m2")}
SUB_BYTE = {"s4", "u4", "f4_e2m1"}
UNIMPLEMENTED = C["dnnl_unimplemented"]
INVALID = C["dnnl_invalid_arguments"]


def _dt_name(dt):
    if isinstance(dt, str):
        return dt
    for name in DTS:
        if C["dnnl_" + name] == dt:
            return name
    return None


def _base(spec):
    while spec[0] in ("sub", "reshape", "permute"):
        spec = spec[1]
    return spec


def _dts(*specs):
    return {_dt_name(_base(s)[3]) for s in specs if _base(s)[0] != "null"}


def _blocked_or_padded(spec):
    """The spec's layout has inner blocks or padding (a blocked tag, or
    strides wider than dense)."""
    spec = _base(spec)
    if spec[0] == "tag":
        return isinstance(spec[4], int) or bool(re.search(r"\d", spec[4]))
    if spec[0] != "strides" or spec[4] is None:
        return False
    order = sorted(range(len(spec[2])), key=lambda i: spec[4][i])
    need = 1
    for i in order:
        if spec[4][i] != need:
            return True
        need *= spec[2][i]
    return False


def _final(log):
    return log[-1][1]


def _bad_factor(case):
    f = case.get("factors")
    if f is None:
        return False
    n = len(_spec_dims(_base(case["src"])) or [])
    f = f[:max(n - 2, 0)]
    sdims = (_spec_dims(_base(case["src"])) or [])[2:]
    if any(not math.isfinite(x) or x <= 0 or (d > 0 and d * x < 0.5)
           for x, d in zip(f, sdims)):
        return True
    # a destination whose element count overflows int64
    n = 1
    for d in (_spec_dims(_base(case["src"])) or [])[:2] + [
            round(d * x) for x, d in zip(f, sdims)]:
        n *= max(d, 1)
    return n > 2 ** 63 - 1


def _prefix_equal(real, ours, skip=()):
    if len(real) != len(ours):
        return False
    return all(r == o or r[0] in skip for r, o in zip(real[:-1], ours[:-1]))


def _binary_src1s(case):
    a = case.get("attr")
    return [op[2] for op in (a["post_ops"] if a else []) if op[0] == "binary"]


def _resampling_dst_dims(case):
    if not case["_dst_null"]:
        return _spec_dims(case["dst"])
    sd = _spec_dims(case["src"]) or []
    f = case.get("factors")
    if f is None or len(sd) < 3:
        return None
    return sd[:2] + [int(d * x) if math.isfinite(d * x) else -1 for d, x in zip(sd[2:], f)]


def _resampling_deviation(case, real, step, r, o):
    """Documented deviation of a resampling pd creation (the target, or the
    forward hint of a backward case)."""
    dts = _dts(case["src"], case["dst"], *_binary_src1s(case))
    if r == UNIMPLEMENTED and "f16" in dts and _oracle_mod.lacks_native_support("f16"):
        return "resampling-f16"
    if r == UNIMPLEMENTED and "bf16" in dts and _oracle_mod.lacks_native_support("bf16"):
        return "resampling-bf16"
    if r == SUCCESS and o == UNIMPLEMENTED and dts & {"s4", "u4", "s64", "e8m0"}:
        return "resampling-s4-u4-s64-e8m0"
    if o == INVALID and r != INVALID and _bad_factor(case):
        return "resampling-bad-factor"
    if step == "resampling_forward" and o == INVALID and r != INVALID:
        dd = _resampling_dst_dims(case)
        for md in _binary_src1s(case):
            bd = _spec_dims(md)
            if dd and bd and len(bd) == len(dd) and any(
                    b not in (1, d) for b, d in zip(bd, dd)):
                return "resampling-binary-src1-dims"
    if step == "resampling_backward":
        hint_ok = ("hint", SUCCESS) in real
        dst = _base(case["dst"])
        dst_any = case["_dst_null"] or (dst[0] == "tag" and dst[4] == "any")
        if r == SUCCESS and o == UNIMPLEMENTED and dst_any and not hint_ok:
            return "resampling-diff-dst-any-no-hint"
        dd = _resampling_dst_dims(case)
        if (o == INVALID and case["hint"] == "fwd_other" and hint_ok and dst_any
                and dd is not None and len(dd) != 4):
            return "resampling-hint-other-rank"
    return None


def _md_deviation(spec, r, o):
    """Documented deviation of a derived descriptor (submemory, reshape,
    permute) whose status differs."""
    if spec[0] == "reshape" and r == SUCCESS and o == INVALID:
        if spec[2] == 0:
            return "reshape-to-0-dims"
        if _blocked_or_padded(spec[1]):
            return "reshape-blocked-padded"
    return None


def _reorder_deviation(case, r, o):
    sdt, ddt = (_dt_name(_base(s)[3]) if _base(s)[0] != "null" else None
                for s in (case["src"], case["dst"]))
    if r == SUCCESS and o == UNIMPLEMENTED:
        if sdt in ("s32", "s8", "u8", "bf16") and ddt in (
                {"e8m0", "s64"} | SUB_BYTE):
            return "reorder-to-s64-e8m0-sub-byte"
    if r == UNIMPLEMENTED and o == SUCCESS and {sdt, ddt} & SUB_BYTE:
        return "reorder-sub-byte-layouts"
    if (r == UNIMPLEMENTED and o == SUCCESS and {sdt, ddt} == {"s32", "bf16"}
            and _oracle_mod.lacks_native_support("bf16")):
        return "reorder-s32-bf16-no-avx512"
    if r == UNIMPLEMENTED and o == SUCCESS and "s32" in (sdt, ddt):
        other = ddt if sdt == "s32" else sdt
        if ((other == "f16" and _oracle_mod.lacks_native_support("f16"))
                or (other in ("f8_e5m2", "f8_e4m3") and _oracle_mod.lacks_amx())):
            return "reorder-s32-f16-f8-no-isa"
    if r == UNIMPLEMENTED and o == SUCCESS and (sdt, ddt) in JIT_UNI_ONLY:
        return "reorder-jit-uni-only-pairs"
    return None


def deviation(case, real, ours):
    """The documented deviation (docs/internals/semantics.md, "Statuses on
    bad input") that explains why ``ours`` differs from ``real`` on
    ``case``, or None. The first differing call decides (what follows it
    depends on its result); a resampling case may differ in the forward hint
    and in the target, each must be explained."""
    fn = case["fn"]
    n = min(len(real), len(ours))
    i = next((k for k in range(n) if real[k] != ours[k]), None)
    if i is None or real[i][0] != ours[i][0]:
        return None
    step, r, o = real[i][0], real[i][1], ours[i][1]
    if step in ("sub", "reshape", "permute"):
        return _md_deviation(real[i][2], r, o)
    if step == "reorder" and i == len(real) - 1 == len(ours) - 1:
        return _reorder_deviation(case, r, o)
    if step in ("hint", fn) and fn.startswith("resampling") and len(real) == len(ours):
        found = None
        for k in range(i, len(real)):
            if real[k] == ours[k]:
                continue
            if real[k][0] not in ("hint", fn):
                return None
            dev = _resampling_deviation(case, real, real[k][0], real[k][1], ours[k][1])
            if dev is None:
                return None
            found = found or dev
        return found
    return None


# ------------------------------------------------------------------- running
_TRACE = os.environ.get("DNNL_STATUS_TRACE")


def compare(n, seed, lib_real):
    rng = random.Random(seed)
    real_run, our_run = Run(lib_real), Run(dnnl.capi)
    counts = collections.defaultdict(collections.Counter)
    others = []
    for i in range(n):
        case = draw_case(rng)
        if _TRACE:
            print(i, case, file=sys.stderr, flush=True)
        real = real_run.case(case)
        ours = our_run.case(case)
        case["_dst_null"] = getattr(real_run, "dst_null", None)
        c = counts[case["fn"]]
        c["compared"] += 1
        if real == ours:
            c["equal"] += 1
            continue
        dev = deviation(case, real, ours)
        if dev is not None:
            assert dev in DOCUMENTED, dev
            c["documented: " + dev] += 1
        else:
            c["other"] += 1
            others.append((i, case, real, ours))
    return counts, others


def _report(counts):
    lines = []
    for fn in sorted(counts):
        c = counts[fn]
        docs = {k: v for k, v in c.items() if k.startswith("documented")}
        lines.append("%-22s compared %6d  equal %6d  documented %5d  other %4d" % (
            fn, c["compared"], c["equal"], sum(docs.values()), c["other"]))
        for k in sorted(docs):
            lines.append("    %-50s %6d" % (k, docs[k]))
    return "\n".join(lines)


def test_statuses_match_oneDNN(oracle):
    n = int(os.environ.get("DNNL_STATUS_CASES", "3000"))
    seed = int(os.environ.get("DNNL_STATUS_SEED", "21"))
    counts, others = compare(n, seed, ctypes.CDLL(oracle.lib._name))
    print("\n" + _report(counts))
    for fn in sorted(counts):
        c = counts[fn]
        _oracle_mod.record("statuses/%s" % fn, c["compared"])
        for k in ("equal", "other"):
            _oracle_mod.record_detail("statuses/%s: %s" % (fn, k), c[k])
        for k, v in c.items():
            if k.startswith("documented"):
                _oracle_mod.record_detail("statuses/%s: %s" % (fn, k), v)
    assert sum(c["compared"] for c in counts.values()) == n
    assert not others, "%d cases differ outside the documented set; first ones:\n%s" % (
        len(others), "\n".join("case %d %r\n  real %r\n  ours %r" % o for o in others[:5]))


def test_documented_deviations_are_listed_in_semantics_md():
    """Every id ``deviation()`` may return is listed, with its reason, in
    docs/internals/semantics.md ("Statuses on bad input"), and every id
    listed there is one ``deviation()`` knows."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                        "internals", "semantics.md")
    text = pathlib.Path(path).read_text()
    section = text[text.index("### Statuses on bad input"):]
    section = section[:section.index("\n#", 1) if "\n#" in section[1:] else None]
    listed = set(re.findall(r"^- `([a-z0-9-]+)`:", section, re.M))
    assert listed == set(DOCUMENTED)


def test_deviation_rules_are_narrow():
    """The classifier explains only its own cases: the same inputs with
    other statuses, or other inputs with these statuses, are not excused."""
    f32 = ("tag", 2, [4, 5], "f32", "ab")
    reorder = {"fn": "reorder", "src": f32, "dst": ("tag", 2, [4, 5], "s32", "ab"),
               "src_engine": True, "dst_engine": True, "attr": None}
    log = [("tag", 0, f32), ("tag", 0, reorder["dst"])]
    assert deviation(reorder, log + [("reorder", 0)], log + [("reorder", 3)]) is None
    u8 = dict(reorder, src=("tag", 2, [4, 5], "u8", "ab"),
              dst=("tag", 2, [4, 5], "e8m0", "ab"))
    assert deviation(u8, log + [("reorder", 0)], log + [("reorder", 3)]) == \
        "reorder-to-s64-e8m0-sub-byte"
    assert deviation(u8, log + [("reorder", 0)], log + [("reorder", 2)]) is None
    assert deviation(u8, log + [("reorder", 3)], log + [("reorder", 0)]) is None
    s32_bf16 = dict(reorder, src=("tag", 2, [4, 5], "s32", "ab"),
                    dst=("tag", 2, [4, 5], "bf16", "ab"))
    # refusing the pair is never ours to excuse; converting it only where
    # oneDNN lacks bf16 support
    assert deviation(s32_bf16, log + [("reorder", 0)], log + [("reorder", 3)]) is None
    assert deviation(s32_bf16, log + [("reorder", 3)], log + [("reorder", 0)]) == (
        "reorder-s32-bf16-no-avx512" if _oracle_mod.lacks_native_support("bf16") else None)
    f16_bf16 = dict(reorder, src=("tag", 2, [4, 5], "f16", "ab"),
                    dst=("tag", 2, [4, 5], "bf16", "ba"))
    assert deviation(f16_bf16, log + [("reorder", 3)], log + [("reorder", 0)]) == \
        "reorder-jit-uni-only-pairs"
    # refusing a jit:uni-only pair is never excused, nor another pair
    assert deviation(f16_bf16, log + [("reorder", 0)], log + [("reorder", 3)]) is None
    s8_f16 = dict(reorder, src=("tag", 2, [4, 5], "s8", "ab"),
                  dst=("tag", 2, [4, 5], "f16", "ba"))
    assert deviation(s8_f16, log + [("reorder", 3)], log + [("reorder", 0)]) is None
    s32_f16 = dict(reorder, src=("tag", 2, [4, 5], "s32", "ab"),
                   dst=("tag", 2, [4, 5], "f16", "ab"))
    assert deviation(s32_f16, log + [("reorder", 0)], log + [("reorder", 3)]) is None
    assert deviation(s32_f16, log + [("reorder", 3)], log + [("reorder", 0)]) == (
        "reorder-s32-f16-f8-no-isa" if _oracle_mod.lacks_native_support("f16") else None)
    reshape = ("reshape", f32, 3, [2, 2, 5])
    case = {"fn": "reshape", "spec": reshape}
    assert deviation(case, [("tag", 0, f32), ("reshape", 0, reshape)],
                     [("tag", 0, f32), ("reshape", 2, reshape)]) is None
    blocked = ("tag", 2, [4, 5], "f32", "Ab4a")
    reshape = ("reshape", blocked, 3, [2, 2, 5])
    case = {"fn": "reshape", "spec": reshape}
    assert deviation(case, [("tag", 0, blocked), ("reshape", 0, reshape)],
                     [("tag", 0, blocked), ("reshape", 2, reshape)]) == \
        "reshape-blocked-padded"
    fwd = {"fn": "resampling_forward", "src": ("tag", 4, [1, 2, 4, 4], "f32", "abcd"),
           "dst": ("tag", 4, [1, 2, 8, 8], "f32", "abcd"), "factors": None,
           "engine": True, "prop": "forward_training", "alg": "resampling_nearest",
           "attr": None, "_dst_null": False}
    log = [("tag", 0, fwd["src"]), ("tag", 0, fwd["dst"])]
    assert deviation(fwd, log + [("resampling_forward", 3)],
                     log + [("resampling_forward", 0)]) is None


if __name__ == "__main__":
    o = _oracle_mod.load()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    counts, others = compare(n, seed, ctypes.CDLL(o.lib._name))
    print(_report(counts))
    if os.environ.get("DUMP"):
        with open(os.environ["DUMP"], "w") as f:
            for i, case, real, ours in others:
                f.write(repr((i, case, real, ours)) + "\n")
    for i, case, real, ours in others[:int(os.environ.get("SHOW", "20"))]:
        print("case %d %r\n  real %r\n  ours %r" % (i, case, real, ours))
