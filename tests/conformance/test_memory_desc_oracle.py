"""Memory descriptors: dnnl.memory.desc against real oneDNN 3.13.

Every case builds the same descriptor both ways and compares the status code
and, on success, every queryable field (ndims, dims, data type, padded dims,
padded offsets, offset0, format kind, strides, inner blocks, byte size).
Cases:

- every format tag C name (1,674, aliases included) x several shapes for its
  rank x data types (f32, s8, bf16, s4 always; u4, f4_e2m1, f16, f64, s64,
  e8m0, f8 on one shape; invalid types boolean / f4_e3m0 / undef);
- random stride-created descriptors (dense, permuted, gaps, overlaps, zero,
  negative, huge, sub-byte odd strides, runtime-free);
- random sub-memory, reshape and permute_axes calls, on tag- and
  stride-created parents, including chains (a sub-memory of a reshape ...);
- equality of random pairs (same and different layouts, unit dims whose
  strides differ, derived descriptors).

All randomness is seeded; the counts are recorded with ``oracle.record`` and
printed at the end of the run.
"""
import json
import os
import functools
import random

import pytest

import dnnl
import oracle as oracle_mod

pytestmark = pytest.mark.conformance

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "data", "format_tag_layout.json")) as f:
    _DATA = json.load(f)
TAG_VALUES = _DATA["dnnl_format_tag_t"]
LAYOUT = _DATA["format_tag_layout"]


def _resolved(name):
    entry = LAYOUT[name]
    while "alias_of" in entry:
        entry = LAYOUT[entry["alias_of"]]
    return entry


# abstract (canonical) tags by rank, for random parents
ABSTRACT_BY_RANK = {}
for _name, _entry in LAYOUT.items():
    if "alias_of" not in _entry:
        ABSTRACT_BY_RANK.setdefault(_entry["ndims"], []).append(_name[len("dnnl_"):])

MAIN_DTS = ("f32", "s8", "bf16", "s4")
EXTRA_DTS = ("u4", "f4_e2m1", "f16", "f64", "s64", "e8m0", "f8_e5m2", "f8_e4m3", "u8", "s32")
BAD_DTS = ("boolean", "f4_e3m0", 0)
MAX_REPORT = 15


# ----------------------------------------------------------------- our side
def _dt(dt):
    return dt if isinstance(dt, int) else oracle_mod.dt_value(dt)


def ours_build(spec):
    """(status, desc or None): spec built with dnnl.memory.desc."""
    try:
        kind = spec[0]
        if kind == "tag":
            _, dims, dt, tag = spec
            return 0, dnnl.memory.desc(list(dims), _dt(dt), tag)
        if kind == "strides":
            _, dims, dt, strides = spec
            return 0, dnnl.memory.desc(list(dims), _dt(dt),
                                       [] if strides is None else list(strides))
        st, parent = ours_build(spec[1])
        if st:
            return st, None
        if kind == "sub":
            return 0, parent.submemory_desc(list(spec[2]), list(spec[3]))
        if kind == "reshape":
            return 0, parent.reshape(list(spec[2]))
        if kind == "permute":
            return 0, parent.permute_axes(list(spec[2]))
        raise ValueError(kind)
    except dnnl.error as e:
        return int(e.status), None


def ours_info(md):
    blocked = md.get_format_kind() == dnnl.format_kind.blocked
    n = md.get_ndims()
    return {
        "ndims": n, "dims": list(md.get_dims()), "data_type": int(md.get_data_type()),
        "padded_dims": list(md.get_padded_dims()),
        "padded_offsets": list(md.get_padded_offsets()),
        "offset0": md.get_submemory_offset(), "format_kind": int(md.get_format_kind()),
        "strides": list(md.get_strides()) if blocked else None,
        "inner_nblks": md.get_inner_nblks() if blocked else None,
        "inner_blks": list(md.get_inner_blks()) if blocked else None,
        "inner_idxs": list(md.get_inner_idxs()) if blocked else None,
        "size": md.get_size(),
    }


def ours(spec):
    st, md = ours_build(spec)
    return st, (ours_info(md) if md is not None else None)


class Checker:
    """Collects mismatches; counts cases per category."""

    def __init__(self, category):
        self.category = category
        self.n = 0
        self.bad = []

    def compare(self, spec, ours_res, real_res):
        self.n += 1
        if ours_res != real_res:
            self.bad.append((spec, ours_res, real_res))

    def finish(self):
        oracle_mod.record(self.category, self.n)
        if self.bad:
            lines = ["%d of %d %s cases differ from oneDNN; first ones:"
                     % (len(self.bad), self.n, self.category)]
            for spec, o, r in self.bad[:MAX_REPORT]:
                lines.append("  %r\n    ours:   %r\n    oneDNN: %r" % (spec, o, r))
            pytest.fail("\n".join(lines), pytrace=False)


def check_spec(chk, oracle, spec):
    chk.compare(spec, ours(spec), oracle.md(spec))


# ------------------------------------------------------------ tag shapes
def _blocks(layout):
    n = layout["ndims"]
    out = [1] * n
    for b, i in zip(layout["inner_blks"], layout["inner_idxs"]):
        out[i] *= b
    return out


def tag_shapes(layout, rng):
    n = layout["ndims"]
    block = _blocks(layout)
    small = n > 6
    shapes = [[1] * n,
              [(rng.choice((3, 5, 7)) if not small else rng.choice((1, 3))) for _ in range(n)],
              [block[d] + 1 if block[d] > 1 else rng.choice((1, 2)) for d in range(n)],
              [block[d] if block[d] > 1 else 2 for d in range(n)]]
    zero = list(shapes[1])
    zero[rng.randrange(n)] = 0
    shapes.append(zero)
    return shapes


RANKS = sorted({_resolved(n)["ndims"] for n in LAYOUT})


@pytest.mark.parametrize("rank", RANKS)
def test_every_tag_vs_oneDNN(oracle, rank):
    chk = Checker("tag x shape x dtype")
    rng = random.Random(1000 + rank)
    names = sorted((n for n in LAYOUT if _resolved(n)["ndims"] == rank),
                   key=lambda k: (TAG_VALUES[k], k))
    for name in names:
        value = TAG_VALUES[name]
        layout = _resolved(name)
        shapes = tag_shapes(layout, rng)
        for dims in shapes:
            for dt in MAIN_DTS:
                check_spec(chk, oracle, ("tag", dims, dt, value))
        odd = shapes[1]
        for dt in EXTRA_DTS + BAD_DTS:
            check_spec(chk, oracle, ("tag", odd, dt, value))
        # name string for the tag (aliases included), a negative dim, a wrong rank
        check_spec(chk, oracle, ("tag", shapes[2], "f32", name[len("dnnl_"):]))
        neg = list(odd)
        neg[rng.randrange(rank)] = -rng.choice((1, 3))
        check_spec(chk, oracle, ("tag", neg, "f32", value))
        wrong = odd + [2] if rank < 12 else odd[:-1]
        check_spec(chk, oracle, ("tag", wrong, "f32", value))
    chk.finish()


def test_special_tags_vs_oneDNN(oracle):
    chk = Checker("special tags")
    for dims in ([2, 3], [2, 0, 5], [1], [4, 1, 3, 2, 2], [], [-1, 3], [2] * 12, [2] * 13):
        for dt in ("f32", "s4", "boolean", 0):
            for tag in ("dnnl_format_tag_undef", "dnnl_format_tag_any",
                        "dnnl_format_tag_last", 9999, -1):
                value = TAG_VALUES[tag] if isinstance(tag, str) else tag
                spec = ("tag", dims, dt, value)
                if len(dims) > 12:
                    # dims beyond DNNL_MAX_NDIMS cannot be passed to the C API
                    continue
                check_spec(chk, oracle, spec)
    chk.finish()


# ------------------------------------------------------------ random specs
def random_dims(rng, rank):
    return [rng.choice((0, 1, 1, 2, 3, 4, 5, 7, 8, 16, 17)) if rng.random() < 0.95 else 0
            for _ in range(rank)]


def random_strides(rng, dims, dt):
    n = len(dims)
    kind = rng.random()
    if kind < 0.1:
        return None
    perm = list(range(n))
    rng.shuffle(perm)
    strides = [0] * n
    s = rng.choice((1, 1, 1, 2, 3))
    for d in reversed(perm):
        strides[d] = s
        s *= max(dims[d], 1) + (rng.choice((0, 0, 0, 1, 2)) if kind < 0.5 else 0)
    if kind >= 0.5:                       # perturb: overlaps, zeros, negatives, odd, huge
        for d in range(n):
            r = rng.random()
            if r < 0.15:
                strides[d] = 0
            elif r < 0.25:
                strides[d] = -rng.choice((1, 2, 7))
            elif r < 0.4:
                strides[d] = rng.randrange(1, 12)
            elif r < 0.45:
                strides[d] = rng.choice((2 ** 40, 2 ** 61, 2 ** 62 + 1))
            elif r < 0.55:
                strides[d] = strides[d] | 1
    return strides


DTS_RANDOM = ("f32", "s8", "bf16", "s4", "u4", "f4_e2m1", "f64", "u8", "f16")


def random_base_spec(rng, rank=None, strided_share=0.4):
    rank = rng.randint(1, 6) if rank is None else rank
    dims = random_dims(rng, rank)
    dt = rng.choice(DTS_RANDOM) if rng.random() < 0.5 else "f32"
    if rng.random() < strided_share:
        return ("strides", dims, dt, random_strides(rng, dims, dt))
    tag = rng.choice(ABSTRACT_BY_RANK[rank])
    layout = _resolved("dnnl_" + tag)
    block = _blocks(layout)
    # favour shapes that exercise blocking: multiples of blocks and tails
    dims = [rng.choice((block[d], 2 * block[d], block[d] + 1, max(block[d] - 3, 1), 1, 3))
            if block[d] > 1 else x for d, x in enumerate(dims)]
    return ("tag", dims, dt, tag)


def test_random_strides_vs_oneDNN(oracle):
    chk = Checker("strides")
    rng = random.Random(7)
    for _ in range(4000):
        rank = rng.randint(0, 6)
        dims = random_dims(rng, rank)
        if rng.random() < 0.05 and rank:
            dims[rng.randrange(rank)] = -rng.choice((1, 5))
        dt = rng.choice(DTS_RANDOM + ("s32", "e8m0", "boolean"))
        check_spec(chk, oracle, ("strides", dims, dt, random_strides(rng, dims, dt)))
    # hand-picked cases (memory_desc_strides_check, size)
    for dims, dt, strides in (([2, 3], "f32", [2, 1]), ([2, 3], "f32", [4, 1]),
                              ([2, 3], "f32", [0, 0]), ([1, 1], "f32", [0, 0]),
                              ([2, 3], "f32", [1, 0]), ([1, 3], "f32", [-7, 1]),
                              ([3, 5], "s4", [5, 1]), ([5, 2], "s4", [2, 1]),
                              ([3, 1], "s4", [1, 1]), ([1, 3], "s4", [3, 1]),
                              ([1, 1], "s4", [1, 1]), ([3, 2], "u4", [1, 3]),
                              ([3, 2], "u4", [1, 4]), ([2, 3, 4], "f32", [12, 4, 1])):
        check_spec(chk, oracle, ("strides", dims, dt, strides))
    # size-guard edges: huge strides on unit and non-unit dims, all element sizes
    for dt in ("u8", "s4", "bf16", "f32", "f64"):
        for dims, strides in (([2, 3], [2 ** 62, 1]), ([2, 3], [2 ** 61, 1]),
                              ([2, 3], [2 ** 60, 1]), ([2, 3], [2 ** 61 - 2, 2]),
                              ([2, 1], [1, 2 ** 62]), ([2, 1], [2, 2 ** 63 - 1]),
                              ([1, 1], [2 ** 63 - 1, 2 ** 63 - 1]), ([1], [2 ** 62 + 2]),
                              ([1, 16, 1], [0, 0, 2 ** 62 + 2]), ([3, 0], [2 ** 62, 1])):
            check_spec(chk, oracle, ("strides", dims, dt, strides))
    chk.finish()


def random_sub_args(rng, dims, block):
    sub, off = [], []
    for d, x in enumerate(dims):
        r = rng.random()
        if r < 0.08:                                   # invalid on purpose
            o = rng.choice((-1, x + 1, 0))
            s = rng.choice((x + 1, -1, 1))
        elif block[d] > 1 and r < 0.6:                  # block-aligned / border cases
            nb = max(x // block[d], 0)
            o = block[d] * rng.randint(0, nb) if nb else 0
            o = min(o, x)
            s = rng.choice((x - o, block[d], min(block[d] - 1, x - o), x - o - 1))
            s = max(min(s, x - o), 0)
        else:
            o = rng.randint(0, x) if x else 0
            s = rng.randint(0, x - o) if x - o > 0 else 0
        sub.append(s)
        off.append(o)
    return sub, off


def spec_blocks(spec):
    """Per-dim block sizes of a base spec (1 for strides, any, undef)."""
    n = len(spec[1])
    if spec[0] == "tag":
        tag = spec[3]
        name = ("dnnl_" + tag) if isinstance(tag, str) else \
            next((k for k, v in TAG_VALUES.items() if v == tag and k in LAYOUT), None)
        if name in LAYOUT and _resolved(name)["ndims"] == n:
            return _blocks(_resolved(name))
    return [1] * n


def test_random_submemory_vs_oneDNN(oracle):
    chk = Checker("submemory")
    rng = random.Random(11)
    for _ in range(3000):
        parent = random_base_spec(rng)
        sub, off = random_sub_args(rng, parent[1], spec_blocks(parent))
        spec = ("sub", parent, sub, off)
        check_spec(chk, oracle, spec)
        if rng.random() < 0.3:                          # a sub-memory of a sub-memory
            st, info = oracle.md(spec)
            if st == 0:
                sub2, off2 = random_sub_args(rng, info["dims"], spec_blocks(parent))
                check_spec(chk, oracle, ("sub", spec, sub2, off2))
    # sub-memory examples
    p = ("tag", [2, 32, 4, 4], "f32", "aBcd16b")
    q = ("tag", [2, 20, 3, 3], "f32", "aBcd16b")
    r = ("tag", [2, 3, 4, 5], "f32", "abcd")
    for spec in (("sub", p, [2, 16, 4, 4], [0, 16, 0, 0]), ("sub", p, [2, 8, 4, 4], [0, 8, 0, 0]),
                 ("sub", p, [2, 8, 4, 4], [0, 0, 0, 0]), ("sub", p, [2, 24, 4, 4], [0, 0, 0, 0]),
                 ("sub", q, [2, 4, 3, 3], [0, 16, 0, 0]),
                 ("sub", ("sub", r, [1, 2, 2, 2], [1, 1, 1, 1]), [1, 1, 1, 1], [0, 1, 1, 1]),
                 ("sub", r, [1, 3, 1, 1], [1, 1, 1, 1]),
                 ("sub", ("tag", [2, 3], "f32", "any"), [1, 1], [0, 0]),
                 ("sub", ("tag", [2, 3], "f32", "undef"), [], [])):
        check_spec(chk, oracle, spec)
    chk.finish()


def random_reshape_dims(rng, dims):
    """Volume-preserving re-factorisations, unit dims added/removed, or junk."""
    r = rng.random()
    vol = 1
    for x in dims:
        vol *= max(x, 1)
    if r < 0.1:
        return [rng.randint(0, 6) for _ in range(rng.randint(1, 5))]
    if r < 0.35:                                       # merge neighbours
        out = list(dims)
        if len(out) >= 2:
            i = rng.randrange(len(out) - 1)
            out[i:i + 2] = [out[i] * out[i + 1]]
        return out
    if r < 0.55:                                       # split one dim
        out = list(dims)
        i = rng.randrange(len(out))
        x = out[i]
        divs = [k for k in range(1, x + 1) if x and x % k == 0] or [1]
        k = rng.choice(divs)
        out[i:i + 1] = [k, x // k if x else 0]
        return out[:12]
    if r < 0.75:                                       # add / remove unit dims
        out = list(dims)
        if rng.random() < 0.5 and 1 in out:
            out.remove(1)
        elif len(out) < 12:
            out.insert(rng.randint(0, len(out)), 1)
        return out or [1]
    # random factorisation of the volume
    out, rest = [], vol
    while rest > 1 and len(out) < 5:
        divs = [k for k in range(2, rest + 1) if rest % k == 0]
        k = rng.choice(divs)
        out.append(k)
        rest //= k
    if rng.random() < 0.3:
        out.insert(rng.randint(0, len(out)), 1)
    return out or [1]


def _blocked_inside_group(spec, real):
    """The documented deviation (docs/memory_formats.md, "Deviations"): oneDNN
    merges a group of dims checking only the group's first dim, so a blocked
    or padded dim inside it gives a descriptor whose blocks no longer match
    its dims ([3, 1, 2, 8] aBcd16b to [48]); we return invalid_arguments.
    Only a parent with inner blocks or padding can hit it."""
    st_in, parent = ours_build(spec[1])
    return (real[0] == 0 and not st_in and parent.is_blocked()
            and (parent.get_inner_nblks() > 0
                 or parent.get_padded_dims() != parent.get_dims()))


def check_reshape(chk, oracle, spec, deviations):
    real = oracle.md(spec)
    got = ours(spec)
    if got[0] == 2 and _blocked_inside_group(spec, real):
        deviations.append(spec)
        return
    chk.compare(spec, got, real)


def test_random_reshape_vs_oneDNN(oracle):
    chk = Checker("reshape")
    deviations = []
    check_spec = functools.partial(check_reshape, deviations=deviations)
    rng = random.Random(13)
    for _ in range(3000):
        parent = random_base_spec(rng, strided_share=0.3)
        if rng.random() < 0.05:
            parent = ("tag", parent[1], parent[2], "any")
        spec = ("reshape", parent, random_reshape_dims(rng, parent[1]))
        check_spec(chk, oracle, spec)
        if rng.random() < 0.2:                          # reshape a sub-memory
            sub, off = random_sub_args(rng, parent[1], spec_blocks(parent))
            check_spec(chk, oracle, ("reshape", ("sub", parent, sub, off),
                                     random_reshape_dims(rng, sub)))
    r = ("tag", [2, 3, 4, 5], "f32", "abcd")
    n = ("tag", [2, 3, 4, 5], "f32", "acdb")
    b = ("tag", [2, 32, 4, 4], "f32", "aBcd16b")
    for spec in (("reshape", r, [6, 20]), ("reshape", r, [120]), ("reshape", r, [2, 3, 1, 4, 5]),
                 ("reshape", r, [1, 2, 3, 4, 5]), ("reshape", r, [2, 3, 4, 5, 1]),
                 ("reshape", r, [2, 3, 4, 6]), ("reshape", n, [2, 60]), ("reshape", n, [2, 3, 20]),
                 ("reshape", b, [2, 32, 16]), ("reshape", b, [2, 2, 16, 4, 4]),
                 ("reshape", b, [64, 4, 4]), ("reshape", ("reshape", r, [6, 20]), [2, 3, 4, 5]),
                 ("reshape", ("tag", [2, 3], "f32", "undef"), [6]),
                 ("reshape", ("tag", [3, 1, 2, 8], "f32", "aBcd16b"), [48])):
        check_spec(chk, oracle, spec)
    chk.finish()
    assert ("reshape", ("tag", [3, 1, 2, 8], "f32", "aBcd16b"), [48]) in deviations
    oracle_mod.record("reshape: blocked dim inside a merged group (deviation)",
                      len(deviations))


def test_random_permute_axes_vs_oneDNN(oracle):
    chk = Checker("permute_axes")
    rng = random.Random(17)
    for _ in range(2500):
        parent = random_base_spec(rng)
        if rng.random() < 0.05:
            parent = ("tag", parent[1], parent[2], "any")
        n = len(parent[1])
        perm = list(range(n))
        rng.shuffle(perm)
        r = rng.random()
        if r < 0.08 and n > 1:
            perm[rng.randrange(n)] = perm[rng.randrange(n)]      # maybe a duplicate
        elif r < 0.12:
            perm[rng.randrange(n)] = rng.choice((-1, n, 12))      # out of range
        spec = ("permute", parent, perm)
        check_spec(chk, oracle, spec)
        if rng.random() < 0.2:                          # permute a sub-memory
            sub, off = random_sub_args(rng, parent[1], spec_blocks(parent))
            check_spec(chk, oracle, ("permute", ("sub", parent, sub, off), perm))
    chk.finish()


# ------------------------------------------------------------ equality
def _equal_pair(rng):
    r = rng.random()
    a = random_base_spec(rng, rank=rng.randint(1, 4))
    dims, dt = a[1], a[2]
    if r < 0.25:        # same dims, another tag of the same rank
        b = ("tag", dims, dt, rng.choice(ABSTRACT_BY_RANK[len(dims)]))
    elif r < 0.45:      # unit dims: strides of size-1 dims are ignored
        dims = [rng.choice((1, 1, 2, 3)) for _ in dims]
        a = ("tag", dims, dt, rng.choice(ABSTRACT_BY_RANK[len(dims)]))
        b = ("strides", dims, dt, [rng.choice((0, 1, 5, 99)) if x == 1 else s
                                   for x, s in zip(dims, _dense(dims))])
    elif r < 0.6:       # same layout, other data type
        b = (a[0], dims, rng.choice(DTS_RANDOM), a[3])
    elif r < 0.7:       # full-size sub-memory at offset 0 equals its parent
        b = ("sub", a, dims, [0] * len(dims))
    elif r < 0.8:       # reshape round trip
        b = ("reshape", ("reshape", a, random_reshape_dims(rng, dims)), dims)
    elif r < 0.9:       # permute back and forth
        perm = list(range(len(dims)))
        rng.shuffle(perm)
        inv = [perm.index(i) for i in range(len(perm))]
        b = ("permute", ("permute", a, perm), inv)
    else:               # strides equal to the dense tag's
        b = ("strides", dims, dt, _dense(dims))
        a = ("tag", dims, dt, "abcdefghijkl"[:len(dims)])
    return (a, b) if rng.random() < 0.5 else (b, a)


def _dense(dims):
    out, s = [], 1
    for x in reversed(dims):
        out.append(s)
        s *= max(x, 1) if x else 1
    return out[::-1]


def test_random_equality_vs_oneDNN(oracle):
    chk = Checker("equality")
    rng = random.Random(19)
    pairs = [_equal_pair(rng) for _ in range(2500)]
    pairs += [(("tag", [2, 1, 3], "f32", "abc"), ("tag", [2, 1, 3], "f32", "acb")),
              (("tag", [1, 16, 1, 1], "f32", "aBcd16b"), ("tag", [1, 16, 1, 1], "f32", "abcd")),
              (("tag", [2, 3], "f32", "any"), ("tag", [2, 3], "f32", "any")),
              (("tag", [2, 3], "f32", "any"), ("tag", [2, 3], "f32", "ab")),
              (("tag", [2, 3], "f32", "undef"), ("tag", [4], "s8", "undef")),
              (("tag", [2, 3], "f32", "undef"), ("tag", [2, 3], "f32", "ab"))]
    for a, b in pairs:
        sa, ma = ours_build(a)
        sb, mb = ours_build(b)
        if sa:
            mine = (sa, None)
        elif sb:
            mine = (sb, None)
        else:
            mine = (0, bool(ma == mb))
            assert (ma != mb) == (not mine[1])
            if mine[1]:
                assert hash(ma) == hash(mb), (a, b)
        chk.compare((a, b), mine, oracle.equal(a, b))
    chk.finish()


def test_ours_zero_desc_matches_oneDNN(oracle):
    chk = Checker("zero md")
    st, real = oracle.md(("tag", [], "f32", "undef"))
    chk.compare("desc()", (0, ours_info(dnnl.memory.desc())), (st, real))
    chk.finish()
