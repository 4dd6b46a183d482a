"""A seeded fuzzer for accepted invalid input to the object API.

tests/properties/test_fuzz_bad_input.py checks what happens to bad input
(only dnnl.error comes out, destinations unchanged, guards intact); this one
counts what is *accepted* that should not be. Each case makes a valid call of
one entry point (it must succeed), then the same call with one parameter
replaced by a value known to be invalid there: junk types, ``None``, lists,
numpy arrays of the wrong shape or type, handle lists of the wrong length,
descriptor fields, pickles and blobs that break oneDNN's invariants. The
invalid call must raise a ``dnnl.error``:

- it succeeds: an *accepted-invalid* failure;
- it raises anything else: a *raw exception* failure;
- the valid call is refused: a *refused-valid* failure (the case proves
  nothing).

Random byte changes to a descriptor's blob are the one check of another
kind: a changed blob may describe another valid descriptor, so it must be
refused or give exactly the descriptor it says, whose size covers the bytes
its layout reaches (else accepted-invalid).

``DNNL_FUZZ_CASES`` sets the number of cases (default: 20 for each example
of the hypothesis profile, 2,000 under ``ci``); the test runs two seeds.
``python tests/properties/test_fuzz_accepted_invalid.py [N] [seed...]`` runs it
alone and prints the summary (default 20,000 cases, seeds 2026 and 7).
"""
import collections
import math
import os
import pickle
import random
import sys

import numpy as np
import pytest
from hypothesis import settings

import dnnl
from dnnl._model.desc import make as desc_from_fields

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STRM = dnnl.stream(ENG)
desc = dnnl.memory.desc
FIELDS = ("ndims", "dims", "data_type", "padded_dims", "padded_offsets", "offset0",
          "format_kind", "strides", "inner_blks", "inner_idxs", "sparse")
TAGS = {1: ["a"], 2: ["ab", "ba", "Ab8a", "BA8a8b"], 3: ["abc", "acb", "aBc8b", "nwc"],
        4: ["nchw", "nhwc", "nChw8c", "nChw16c", "Abcd8a", "aBcd4b"]}
DTS = ["f32", "bf16", "f16", "s32", "s8", "u8"]

# junk no parameter takes, whatever its type (a value of the right type is
# never among them: no ints for an int, no floats for a float)
OBJECTS = ["x", b"ab", {}, {1: 2}, {2, 3}, object(), [1.5], ["1"], np.array([[1]]),
           np.array([2, 3]), np.array([1.5, 2.5]), np.zeros((2, 2, 2))]
NOT_DIMS = [o for o in OBJECTS if not (isinstance(o, np.ndarray) and o.ndim == 1
                                      and o.dtype.kind == "i")] + [None, 2.5]
NOT_INT = OBJECTS + [None, 2.5, float("nan"), True, [0], np.array([0]), np.float32(1.0)]
NOT_FLAG = OBJECTS + [None, 2.5, [1], np.array([1]), np.array([2, 3])]
NOT_FLOAT = OBJECTS + [None, [1.0], np.array([1.0]), np.array([2.0, 3.0])]
NOT_MD = OBJECTS + [5, 2.5, [2, 3], np.zeros(3), ENG, STRM]
NOT_ENGINE = OBJECTS + [None, 0, 2.5, "cpu", STRM, desc([2], "f32", "a")]
NOT_STREAM = OBJECTS + [None, 0, ENG, "stream", [STRM], np.array([1])]


class Tally(collections.Counter):
    def __init__(self):
        super().__init__()
        self.problems = []

    def problem(self, kind, text, where=None):
        self[kind] += 1
        if where:
            self["%s: %s" % (kind, where)] += 1
        if len(self.problems) < 20:
            self.problems.append("%s: %s" % (kind, text))

    def summary(self):
        return ("%d cases: %d accepted-invalid, %d raw exceptions, %d refused-valid "
                "(%d invalid calls refused)" % (
                    self["cases"], self["accepted-invalid"], self["raw exceptions"],
                    self["refused-valid"], self["refused"]))


def _short(value):
    text = " ".join(repr(value).split())
    return text if len(text) < 90 else text[:87] + "..."


def valid(out, label, fn):
    try:
        return True, fn()
    except Exception as e:      # the case's valid call must work
        out.problem("refused-valid", "%s: %s: %s" % (label, type(e).__name__, e))
        return False, None


def invalid(out, label, fn):
    try:
        res = fn()
    except dnnl.error:
        out["refused"] += 1
        out["refused: " + label.split(" with ")[0]] += 1
        return
    except Exception as e:
        out.problem("raw exceptions", "%s: %s: %s" % (label, type(e).__name__, e),
                    label.split(" with ")[0])
        return
    out.problem("accepted-invalid", "%s gave %s" % (label, _short(res)),
                label.split(" with ")[0])


def _md(rng, dense=False):
    nd = rng.choice([1, 2, 3, 4])
    dims = [rng.choice([1, 2, 3, 5, 8, 17]) for _ in range(nd)]
    return desc(dims, rng.choice(DTS), "abcd"[:nd] if dense else rng.choice(TAGS[nd]))


def _nbytes(md):
    return dnnl.memory(md, ENG, dnnl.DNNL_MEMORY_NONE).nbytes


# -- primitive.execute ------------------------------------------------------------
def case_execute(rng, out):
    md = _md(rng)
    dst_md = md if rng.random() < 0.5 else desc(md.dims, rng.choice(
        [md.data_type, "f32"]), rng.choice(TAGS[md.ndims]))
    ok, pd = valid(out, "reorder pd", lambda: dnnl.reorder.primitive_desc(ENG, md, ENG, dst_md))
    if not ok:
        return
    prim = dnnl.reorder(pd)
    src, dst = dnnl.memory(md, ENG), dnnl.memory(dst_md, ENG)
    frm, to = dnnl.DNNL_ARG_FROM, dnnl.DNNL_ARG_TO
    if not valid(out, "execute", lambda: prim.execute(STRM, {frm: src, to: dst}))[0]:
        return
    read_only = np.zeros(_nbytes(dst_md), np.uint8)
    read_only.flags.writeable = False
    bad_args = [None, [], "x", 5, {frm: src}, {to: dst}, {frm: None, to: dst},
                {frm: src, to: "x"}, {frm: np.zeros(3), to: dst}, {frm: src, to: md},
                {frm: src, to: dnnl.memory(dst_md, ENG, read_only)},
                {frm: src, to: dnnl.memory(dst_md, ENG, dnnl.DNNL_MEMORY_NONE)}]
    if _nbytes(md) > 1:     # (execution compares buffer sizes, not descriptors)
        bad_args.append({frm: dnnl.memory(desc([1], "u8", "a"), ENG), to: dst})
    if rng.random() < 0.5:
        s = rng.choice(NOT_STREAM)
        # on a primitive that executed before, or on its first execute
        first = prim if rng.random() < 0.5 else dnnl.reorder(pd)
        invalid(out, "execute with stream %s" % _short(s), lambda: first.execute(
            s, {frm: src, to: dst}))
    else:
        a = rng.choice(bad_args)
        invalid(out, "execute with args %s" % _short(a), lambda: prim.execute(STRM, a))


# -- memory ------------------------------------------------------------------------
def _bad_handles(rng, md):
    n = md.get_num_handles()
    size = max(_nbytes(md), 8)
    wrong = {4: np.float32, 2: np.float16, 1: np.int8}
    other = [t for k, t in wrong.items() if k != md.data_type_size()] or [np.float64]
    # the list: as many as the descriptor's bytes (its count another)
    as_bytes = [0] * (md.get_size() if md.get_size() != n else n + 3)
    return [as_bytes, [], [0] * (n + 1), [dnnl.DNNL_MEMORY_ALLOCATE] * (n + 2),
            np.zeros(max(size - rng.choice([1, 4, size]), 0) // 4, np.uint32),
            np.zeros(size, rng.choice(other)) if md.data_type_size() != 1 else
            np.zeros(size, np.float64),
            "x", 2.5, {}, True, object(), [1.5], np.array([1.5])]


def case_memory(rng, out):
    sparse = rng.random() < 0.2
    md = desc.csr([rng.choice([2, 4]), 6], "f32", 5, "s32", "s32") if sparse else _md(rng)
    if not valid(out, "memory", lambda: dnnl.memory(md, ENG))[0]:
        return
    which = rng.choice(["md", "engine", "handle", "handle"])
    if which == "md":
        m = rng.choice(NOT_MD)
        invalid(out, "memory with md %s" % _short(m), lambda: dnnl.memory(m, ENG))
    elif which == "engine":
        e = rng.choice(NOT_ENGINE)
        invalid(out, "memory with engine %s" % _short(e), lambda: dnnl.memory(md, e))
    else:
        h = rng.choice(_bad_handles(rng, md))
        invalid(out, "memory with handle %s" % _short(h), lambda: dnnl.memory(md, ENG, h))


def case_memory_methods(rng, out):
    md = _md(rng)
    ok, mem = valid(out, "memory", lambda: dnnl.memory(md, ENG))
    if not ok:
        return
    what = rng.choice(["set_data_handle", "index", "from_numpy"])
    if what == "set_data_handle":
        h = rng.choice([x for x in _bad_handles(rng, md) if not isinstance(x, list)]
                       + [[0], [0, 0]])
        invalid(out, "set_data_handle with %s" % _short(h), lambda: mem.set_data_handle(h))
    elif what == "index":
        i = rng.choice(NOT_INT + [-1, 1, 5])
        fn = rng.choice([lambda: mem.get_data_handle(i),
                         lambda: mem.set_data_handle(dnnl.DNNL_MEMORY_ALLOCATE, None, i),
                         lambda: mem.map_data(index=i)])
        invalid(out, "a buffer index %s" % _short(i), fn)
    else:
        shape = list(md.dims)
        bad = [np.zeros(shape + [2], np.float32), np.zeros([d + 1 for d in shape], np.float32),
               np.zeros(shape[::-1] + [3], np.float32), np.full(shape, "x"),
               np.zeros(shape, complex), None, "x", object()]
        a = rng.choice(bad)
        invalid(out, "from_numpy with %s" % _short(a), lambda: mem.from_numpy(a))


# -- descriptors ---------------------------------------------------------------------
def case_desc(rng, out):
    nd = rng.choice([1, 2, 3, 4])
    dims = [rng.choice([1, 2, 3, 8]) for _ in range(nd)]
    dt, tag = rng.choice(DTS), rng.choice(TAGS[nd])
    if not valid(out, "desc", lambda: desc(dims, dt, tag))[0]:
        return
    which = rng.choice(["dims", "dt", "tag", "allow_empty"])
    args = [dims, dt, tag, False]
    other_nd = [t for n, ts in TAGS.items() if n != nd for t in ts]
    pools = {"dims": [[-1] + dims[1:], [2.5] + dims[1:], "ab", [True] + dims[1:],
                      np.array([dims]), [1] * 13, [2 ** 63] + dims[1:], {2, 3}, {0: 2}],
             "dt": ["bogus", 999, -5, np.array([3]), 2.5, dnnl.memory.format_tag.ab, True],
             "tag": [9999, "nChw", 2.5, True, np.array([[1]]), rng.choice(other_nd),
                     [1] * (nd + 1), [-1] * nd if max(dims) > 1 else [1] * (nd + 1), {}],
             "allow_empty": [np.array([1, 0]), "yes", 2.5, [], object()]}
    k = ["dims", "dt", "tag", "allow_empty"].index(which)
    args[k] = rng.choice(pools[which])
    invalid(out, "desc with %s %s" % (which, _short(args[k])), lambda: desc(*args))


def case_desc_transforms(rng, out):
    md = _md(rng, dense=rng.random() < 0.5)
    nd, dims = md.ndims, list(md.dims)
    what = rng.choice(["submemory_desc", "reshape", "permute_axes"])
    if what == "submemory_desc":
        if not valid(out, "submemory", lambda: md.submemory_desc(dims, [0] * nd))[0]:
            return
        bad = [([d + 1 for d in dims], [0] * nd), (dims, [1] * nd if max(dims) > 0 else [-1]),
               (dims, [-1] * nd), (dims[:-1], [0] * (nd - 1)), (np.array([dims]), [0] * nd),
               (None, [0] * nd), (dims, None), ([2.5] * nd, [0] * nd)]
        d, o = rng.choice(bad)
        if d is dims and o == [1] * nd and all(x == 1 for x in dims):
            o = [-1] * nd
        invalid(out, "submemory_desc with %s, %s" % (_short(d), _short(o)),
                lambda: md.submemory_desc(d, o))
    elif what == "reshape":
        if not valid(out, "reshape", lambda: md.reshape(dims))[0]:
            return
        n = math.prod(dims)
        bad = [[n + 1], [n, 2], [-n], None, np.array([[n]]), [float(n)], "ab", [0] * 13]
        d = rng.choice(bad)
        invalid(out, "reshape with %s" % _short(d), lambda: md.reshape(d))
    else:
        if not valid(out, "permute_axes", lambda: md.permute_axes(list(range(nd))))[0]:
            return
        bad = [[0] * nd if nd > 1 else [1], list(range(nd + 1)), [nd] * nd, None,
               [0.0] * nd, np.array([list(range(nd))]), "ab", [-1] + list(range(1, nd))]
        p = rng.choice(bad)
        invalid(out, "permute_axes with %s" % _short(p), lambda: md.permute_axes(p))


def _broken_fields(rng, md):
    """(label, fields) of ``md`` with one field changed to break an invariant."""
    f = dict(zip(FIELDS, md.__reduce__()[1]))
    n = md.ndims
    d = rng.randrange(n)
    blocks = md.blocks
    choices = []
    if md.dims[d] > 0:
        choices.append(("padded dims below the dims", "padded_dims",
                        tuple(md.dims[d] - rng.randint(1, md.dims[d]) if k == d else p
                              for k, p in enumerate(md.padded_dims))))
    choices += [
        ("padded dims past the blocks", "padded_dims", tuple(
            p + blocks[k] * rng.randint(1, 3) if k == d else p
            for k, p in enumerate(md.padded_dims))),
        ("a padded offset", "padded_offsets", tuple(1 if k == d else 0 for k in range(n))),
        ("a negative offset0", "offset0", -rng.randint(1, 2 ** 40)),
        ("a block on a dim it lacks", "inner_idxs", tuple([n] + list(md.inner_idxs[1:]))
         if md.inner_idxs else (n,)),
        ("blocks without indices", "inner_blks", tuple(md.inner_blks) + (4,)),
        ("a block of 1", "inner_blks", (1,) + tuple(md.inner_blks[1:])),
        ("a stride short", "strides", tuple(md.strides[:-1])),
        ("ndims past the dims", "ndims", n + 1),
        ("a negative dim", "dims", tuple(-1 if k == d else x for k, x in enumerate(md.dims))),
        ("an unknown data type", "data_type", rng.choice([999, -7, 2 ** 40])),
        ("an unknown format kind", "format_kind", rng.choice([77, -1, 3])),
        ("junk dims", "dims", rng.choice(NOT_DIMS)),
        ("a sparse record on a blocked md", "sparse",
         desc.csr([4, 6], "f32", 5, "s32", "s32").sparse),
    ]
    if n > 1 and md.padded_dims[0] > 1 and md.padded_dims[1] > 1 and not md.inner_blks:
        choices.append(("overlapping strides", "strides", (1,) * n))
    label, field, value = rng.choice(choices)
    f[field] = value
    if field == "inner_blks" and label == "a block of 1" and not md.inner_blks:
        f["inner_idxs"] = (0,)
    return label, f


def case_desc_fields(rng, out):
    """The pickle constructor, a damaged pickle, and replaced() where a
    descriptor still has it: fields that break an invariant are refused."""
    md = _md(rng)
    if not valid(out, "pickle", lambda: pickle.loads(pickle.dumps(md)) == md or 1 / 0)[0]:
        return
    label, f = _broken_fields(rng, md)
    how = rng.choice(["make", "pickle", "replaced"])
    if how == "replaced" and hasattr(md, "replaced"):       # (public before 44/4)
        keep = ("ndims", "dims", "padded_dims", "padded_offsets", "offset0", "strides",
                "inner_idxs")
        changed = {k: v for k, v in f.items() if k in keep and v != getattr(md, k)}
        if changed:
            invalid(out, "replaced with %s" % label, lambda: md.replaced(**changed))
            return
    if how == "pickle":
        data = pickle.dumps(_Reduced(desc_from_fields, tuple(f[k] for k in FIELDS)))
        invalid(out, "a pickle with %s" % label, lambda: pickle.loads(data))
    else:
        invalid(out, "the pickle constructor with %s" % label,
                lambda: desc_from_fields(*(f[k] for k in FIELDS)))


class _Reduced:
    """Pickles as the call ``fn(*args)``: what a damaged file holds."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


def _words(md):
    return np.frombuffer(md.get_blob(), np.int64).copy()


def case_desc_blob(rng, out):
    md = _md(rng) if rng.random() < 0.9 else desc.csr([4, 6], "f32", 5, "s32", "s32")
    if not hasattr(md, "get_blob"):
        return
    ok, back = valid(out, "blob", lambda: desc(md.get_blob()))
    if not ok:
        return
    if back != md:
        out.problem("accepted-invalid", "desc(get_blob()) of %r is %r" % (md, back))
    n, row = md.ndims, lambda k: 7 + 12 * k
    w = _words(md)
    damage = rng.choice(["short", "long", "magic", "stray", "padded", "ndims", "dim",
                         "block", "flips"])
    if damage == "short":
        blob = w.tobytes()[:-rng.randint(1, 9)]
    elif damage == "long":
        blob = w.tobytes() + b"\0"
    elif damage == "magic":
        w[0] ^= 1 << rng.randrange(63)
    elif damage == "stray" and n < 12:
        w[row(rng.choice([0, 1, 2])) + rng.randrange(n, 12)] = rng.choice([1, -1, 2 ** 40])
    elif damage == "padded" and md.dims[0] > 1:
        w[row(1)] = rng.randint(0, md.dims[0] - 1)
    elif damage == "ndims":
        w[1] = rng.choice([13, -1, 2 ** 40])
    elif damage == "dim":
        w[row(0) + rng.randrange(n)] = -rng.randint(1, 2 ** 62)
    elif damage == "block" and not md.sparse:
        w[5], w[row(4)], w[row(5)] = 1, 4, n       # a block on a dim it lacks
    else:
        raw = bytearray(w.tobytes())
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        _check_flipped(out, bytes(raw))
        return
    if damage not in ("short", "long"):
        blob = w.tobytes()
        if blob == md.get_blob():       # (a change that did not apply)
            return
    invalid(out, "a blob with %s" % damage, lambda: desc(blob))


def _check_flipped(out, raw):
    try:
        md = desc(raw)
    except dnnl.error:
        out["refused"] += 1
        return
    except Exception as e:
        out.problem("raw exceptions", "a changed blob: %s: %s" % (type(e).__name__, e))
        return
    out["changed blobs accepted as exactly what they say"] += 1
    if md.get_blob() != raw:
        out.problem("accepted-invalid", "a changed blob gave %r, another blob" % md)
    elif md.is_blocked() and 0 not in md.dims and md.nelems:
        reach = md.offset0 + sum((-(-p // b) - 1) * abs(s) for p, b, s in
                                 zip(md.padded_dims, md.blocks, md.strides))
        need = (reach + md.block_size) * md.data_type_size()
        if need > _nbytes(md) + md.offset0 * md.data_type_size() and need > _nbytes(md):
            out.problem("accepted-invalid", "a changed blob gave %r: its memory holds %d "
                        "bytes, its layout reaches %d" % (md, _nbytes(md), need))


# -- attributes and post-ops -------------------------------------------------------------
def case_attr(rng, out):
    src = dnnl.DNNL_ARG_SRC
    calls = {   # name: (valid arguments, index of the parameter to replace, its junk)
        "set_scales is_on_host": ("set_scales", (src, 0, (), "f32", False), 4, NOT_FLAG),
        "set_scales mask": ("set_scales", (src, 0, (), "f32", False), 1, NOT_INT),
        "set_scales groups": ("set_scales", (src, 0, (), "f32", False), 2,
                              [np.array([[1, 2]]), "ab", [1.5], {1: 2}, 2.5]),
        "set_zero_points is_on_host": ("set_zero_points", (src, 0, (), "s32", False), 4,
                                       NOT_FLAG),
        "set_scales_mask arg": ("set_scales_mask", (src, 0), 0, NOT_INT),
        "set_scales_mask mask": ("set_scales_mask", (src, 0), 1, NOT_INT),
        "set_zero_points_mask mask": ("set_zero_points_mask", (src, 0), 1, NOT_INT),
        "set_fpmath_mode apply_to_int": ("set_fpmath_mode", (dnnl.fpmath_mode.bf16, False), 1,
                                         NOT_FLAG),
        "set_fpmath_mode mode": ("set_fpmath_mode", (dnnl.fpmath_mode.bf16, False), 0,
                                 NOT_INT + [12345]),
        "set_deterministic": ("set_deterministic", (True,), 0, NOT_FLAG),
        "set_scratchpad_mode": ("set_scratchpad_mode", (dnnl.scratchpad_mode.user,), 0,
                                NOT_INT + [7]),
        "set_rounding_mode mode": ("set_rounding_mode",
                                   (dnnl.DNNL_ARG_DST, dnnl.rounding_mode.environment), 1,
                                   NOT_INT),   # (an unknown mode is oneDNN's to keep)
        "set_accumulation_mode": ("set_accumulation_mode", (dnnl.accumulation_mode.strict,), 0,
                                  NOT_INT + [99]),
        "set_post_ops": ("set_post_ops", (dnnl.post_ops(),), 0, OBJECTS + [None, 5, []]),
        "set_dropout": ("set_dropout", (desc([2, 3], "u8", "ab"),), 0, NOT_MD),
    }
    po_calls = {
        "append_sum scale": ("append_sum", (1.0,), 0, NOT_FLOAT),
        "append_sum zero_point": ("append_sum", (1.0, 0), 1, NOT_INT),
        "append_eltwise alpha": ("append_eltwise", (dnnl.algorithm.eltwise_relu, 0.0, 0.0), 1,
                                 NOT_FLOAT),
        "append_eltwise algorithm": ("append_eltwise",
                                     (dnnl.algorithm.eltwise_relu, 0.0, 0.0), 0,
                                     NOT_INT + [12345, dnnl.algorithm.binary_add]),
        "append_binary md": ("append_binary", (dnnl.algorithm.binary_add,
                                               desc([1, 3], "f32", "ab")), 1, NOT_MD),
    }
    table = calls if rng.random() < 0.7 else po_calls
    label = rng.choice(sorted(table))
    name, args, k, pool = table[label]
    obj = dnnl.primitive_attr() if table is calls else dnnl.post_ops()
    if not valid(out, label, lambda: getattr(obj, name)(*args))[0]:
        return
    bad = list(args)
    bad[k] = rng.choice(pool)
    fresh = dnnl.primitive_attr() if table is calls else dnnl.post_ops()
    invalid(out, "%s with %s" % (label, _short(bad[k])), lambda: getattr(fresh, name)(*bad))


# -- primitive descriptors -----------------------------------------------------------
def case_pd(rng, out):
    md = _md(rng)
    other = desc([d + 1 for d in md.dims], "f32", "abcd"[:md.ndims])
    if rng.random() < 0.6:
        args = [ENG, md, ENG, md, dnnl.primitive_attr()]
        if not valid(out, "reorder pd", lambda: dnnl.reorder.primitive_desc(*args))[0]:
            return
        k = rng.randrange(5)
        pool = {0: NOT_ENGINE, 2: NOT_ENGINE, 4: OBJECTS + [5, md, ENG]}.get(
            k, NOT_MD + [other, None])
        args[k] = rng.choice(pool)
        invalid(out, "reorder pd with %s at %d" % (_short(args[k]), k),
                lambda: dnnl.reorder.primitive_desc(*args))
        return
    src = desc([2, 3, 4, 4], rng.choice(["f32", "bf16", "s8"]), rng.choice(TAGS[4]))
    dst = desc([2, 3, 8, 8], "f32", rng.choice(TAGS[4]))
    args = [ENG, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_nearest, src,
            dst]
    fwd = dnnl.resampling_forward.primitive_desc
    if not valid(out, "resampling pd", lambda: fwd(*args))[0]:
        return
    k = rng.randrange(5)
    # (no sequences for src and dst: (src, dst) may also be (factors, src))
    pool = {0: NOT_ENGINE, 1: NOT_INT + [dnnl.prop_kind.backward_data, 12345],
            2: NOT_INT + [dnnl.algorithm.eltwise_relu, 12345]}.get(
        k, ["x", {}, object(), 5, 2.5, ENG, STRM, desc([2, 4, 8, 8], "f32", "nchw")])
    args[k] = rng.choice(pool)
    invalid(out, "resampling pd with %s at %d" % (_short(args[k]), k), lambda: fwd(*args))


CASES = [case_execute, case_execute, case_memory, case_memory, case_memory_methods,
         case_desc, case_desc_transforms, case_desc_fields, case_desc_fields, case_desc_blob,
         case_desc_blob, case_attr, case_attr, case_pd]


def run(n, seed=2026, out=None):
    out = Tally() if out is None else out
    for case in range(n):
        rng = random.Random(seed * 1_000_003 + case)
        gen = rng.choice(CASES)
        try:
            gen(rng, out)
        except Exception as e:      # the generator itself: a bug of the case
            out.problem("raw exceptions", "case %d (%s) raised %s: %s"
                        % (case, gen.__name__, type(e).__name__, e))
        out["cases"] += 1
    return out


def test_no_invalid_input_is_accepted():
    # the profile's scale (tests/conftest.py), unless the variable says
    n = int(os.environ.get("DNNL_FUZZ_CASES", 20 * settings.default.max_examples))
    out = Tally()
    for seed in (int(os.environ.get("DNNL_FUZZ_SEED", "2026")), 7):
        run(n, seed, out)
    print(out.summary())
    assert out["cases"] == 2 * n
    assert not out.problems, out.summary() + "\n" + "\n".join(out.problems)
    # every kind of case ran and refused something
    assert out["refused"] > n and out["refused: execute"] and out["refused: memory"] \
        and out["refused: a blob"] and out["refused: the pickle constructor"]


if __name__ == "__main__":
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seeds = [int(s) for s in sys.argv[2:]] or [2026, 7]
    result = Tally()
    for s in seeds:
        run(cases, s, result)
    for key, count in sorted(result.items()):
        print("%8d  %s" % (count, key))
    for p in result.problems:
        print(p)
    print("seeds %s: %s" % (", ".join(map(str, seeds)), result.summary()))
