"""Slow, obviously-correct numpy reference of the reorder primitive.

Works on LOGICAL arrays (shape = the tensor's dims; layouts play no part) of
raw codes as ``dnnl.testing.dtypes`` defines them (uint16 for f16/bf16, uint8
for 8-bit floats and for 4-bit codes, natural integers for s8/u8/s32, float32
for f32). :func:`codes` turns ``memory.to_numpy()`` output into such codes.

Semantics (src/cpu/reorder/simple_reorder.hpp and the semantic policy of
docs/internals/semantics.md), step by step in numpy float32, one rounding per operation:

    equal data types, no scales, no zero points, no sum  -> bit copy (policy 4)
    s = f32(src)                       integer src with zp: f32(int32(x - zp))
    t = s * scale_src                  (when src scales are set)
    t = t + beta * f32(dst_old)        (only when beta != 0)
    t = t / scale_dst                  (true division, when dst scales are set)
    t = t + f32(zp_dst)                (when set; none added otherwise: -0.0 stays
                                       -0.0, where simple:any adds 0 and gives +0.0)
    dst = encode(t, dst_dt)            saturate, then round half to even

Quantization parameters are ``(mask, values, groups)``: bit ``d`` of ``mask``
set means the value varies along logical dim ``d``; ``values`` is the flat
buffer in row-major order over the quantization dims (the tensor's dims with
unmasked dims replaced by 1 and the last two dims divided by ``groups``);
``groups`` is ``()`` or ``(G0, G1)`` (src/common/primitive_attr_quant.hpp).
"""
import contextlib
import pathlib

import numpy as np

from dnnl._core.settings import settings
from dnnl.testing import dtypes as R

INTEGRAL = (R.S64, R.S32, R.S8, R.U8, R.S4, R.U4)

# the numpy integer type of each code representation (ml_dtypes arrays are
# viewed as these)
_CODE_VIEW = {R.F16: np.uint16, R.BF16: np.uint16, R.E5M2: np.uint8,
              R.E4M3: np.uint8, R.E8M0: np.uint8, R.F4_E2M1: np.uint8}


def codes(logical, dt):
    """Codes (dtypes.py convention) of a logical array from ``to_numpy()``."""
    a = np.asarray(logical)
    dt = int(dt)
    if dt in _CODE_VIEW:
        if a.dtype.kind in "ui" and a.dtype.itemsize == np.dtype(_CODE_VIEW[dt]).itemsize:
            out = a.astype(_CODE_VIEW[dt])
        else:
            out = a.view(_CODE_VIEW[dt]).copy()
        return out & 15 if dt == R.F4_E2M1 else out
    if dt in (R.S4, R.U4):
        return a.astype(np.int64).astype(np.uint8) & 15
    if dt == R.F32:
        return a.astype(np.float32)
    return a.astype(R._CODE_DTYPE[dt])


def quant_index(dims, mask, groups=()):
    """int64 array of shape ``dims``: which value each element uses.

    Row-major over the quantization dims; groups divide the indices of the
    last two dims (groups).
    """
    nd = len(dims)
    groups = tuple(groups or ())
    g = [1] * nd
    if groups:
        g[nd - 2], g[nd - 1] = groups
    qdims = []
    for d in range(nd):
        if (mask >> d) & 1:
            qdims.append(dims[d] // g[d])
        else:
            qdims.append(1)
    if any(int(n) == 0 for n in dims):
        return np.zeros(tuple(dims), np.int64)
    grid = np.indices(tuple(dims), dtype=np.int64)
    idx = []
    for d in range(nd):
        if (mask >> d) & 1:
            idx.append(grid[d] // g[d])
        else:
            idx.append(np.zeros(tuple(dims), np.int64))
    if nd == 0:
        return np.zeros((), np.int64)
    return np.ravel_multi_index(tuple(idx), tuple(qdims))


def count(dims, mask, groups=()):
    """Number of values a ``(mask, groups)`` quantization buffer holds."""
    nd = len(dims)
    n = 1
    for d in range(nd):
        if (mask >> d) & 1:
            size = dims[d]
            if groups and d >= nd - 2:
                size //= groups[d - (nd - 2)]
            n *= size
    return n


def _per_element(q, dims, dtype):
    mask, values, groups = q
    values = np.asarray(values).reshape(-1)
    if values.size == 1:          # one value broadcasts
        return np.full(tuple(dims), values[0], dtype=dtype)
    return values.astype(dtype)[quant_index(dims, mask, groups)]


def reference_reorder(src_logical, src_dt, dst_dt, src_scales=None, dst_scales=None,
                      src_zp=None, dst_zp=None, beta=0.0, dst_old_logical=None,
                      with_sum=None):
    """Codes of the destination (logical array) of a reorder.

    ``src_logical``: codes of the source; ``dst_old_logical``: codes of the
    destination before the reorder (needed when ``beta != 0``);
    ``src_scales`` / ``dst_scales``: ``(mask, f32 values, groups)``;
    ``src_zp`` / ``dst_zp``: ``(mask, int values, groups)``; ``with_sum``:
    whether a sum post-op is attached (default: ``beta != 0``) -- even a
    sum with ``beta == 0`` takes the arithmetic path instead of the bit copy.
    """
    src_dt, dst_dt = int(src_dt), int(dst_dt)
    x = np.asarray(src_logical)
    dims = x.shape
    if with_sum is None:
        with_sum = beta != 0
    attrs = any(q is not None for q in (src_scales, dst_scales, src_zp, dst_zp))
    if src_dt == dst_dt and not attrs and not with_sum:
        return codes(x, src_dt).copy()                 # policy 4: bit copy
    f32 = np.float32
    with np.errstate(all="ignore"):
        if src_zp is not None:
            xi = x.astype(np.int64)
            if src_dt == R.S4:
                xi = np.where(xi & 8, (xi & 15) - 16, xi & 15)
            elif src_dt == R.U4:
                xi = xi & 15
            zp = _per_element(src_zp, dims, np.int64)
            diff = ((xi - zp + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)  # int32 wrap
            t = diff.astype(f32)
        else:
            t = R.decode(codes(x, src_dt), src_dt).astype(f32)
        if src_scales is not None:
            t = (_per_element(src_scales, dims, f32) * t).astype(f32)
        if beta != 0:
            old = R.decode(codes(np.asarray(dst_old_logical), dst_dt), dst_dt).astype(f32)
            t = (t + (f32(beta) * old).astype(f32)).astype(f32)
        if dst_scales is not None:
            t = (t / _per_element(dst_scales, dims, f32)).astype(f32)
        # no dst zero point: -0.0 added, the identity (a NaN quieted as by any
        # addition), where simple:any adds its zero one (docs/internals/semantics.md)
        zd = (_per_element(dst_zp, dims, np.int64).astype(f32) if dst_zp is not None
              else np.full(dims, -0.0, f32))
        t = (t + zd).astype(f32)
    return np.asarray(R.encode(t, dst_dt)).reshape(dims)


def same_values(a, b, dt):
    """Boolean array: codes ``a`` and ``b`` of type ``dt`` agree, treating
    -0 == +0 and any NaN == any NaN for floating-point types (policy 5)."""
    dt = int(dt)
    a, b = codes(a, dt), codes(b, dt)
    if dt in INTEGRAL:
        return a.astype(np.int64) == b.astype(np.int64)
    with np.errstate(invalid="ignore"):     # a signaling NaN widened raises FE_INVALID
        va = R.decode(a, dt).astype(np.float64)
        vb = R.decode(b, dt).astype(np.float64)
    bits_equal = (a.view(np.uint32) == b.view(np.uint32)) if dt == R.F32 else (a == b)
    return bits_equal | (np.isnan(va) & np.isnan(vb)) | ((va == 0) & (vb == 0))


# ----------------------------------------------------------------------------
# Driving the primitive on raw buffers (shared by the tests and the
# conformance run). A problem uses the oracle's spec vocabulary:
# ('tag', dims, dt, tag), ('strides', dims, dt, strides_or_None),
# ('sub', parent_spec, dims, offsets); quantization parameters
# {arg: (mask, values, dt[, groups])} with arg 1 (src) or 17 (dst); sum
# (beta, zero_point, dt).

def make_md(spec, runtime=False):
    import dnnl
    if spec[0] == "sub":
        return make_md(spec[1]).submemory_desc(spec[2], spec[3])
    kind, dims, dt, extra = spec
    if runtime:
        dims = [dnnl.DNNL_RUNTIME_DIM_VAL] * len(dims)
        if kind == "strides" and extra is not None:
            extra = [dnnl.DNNL_RUNTIME_DIM_VAL] * len(dims)
    if kind == "tag":
        return dnnl.memory.desc(list(dims), dt, extra)
    return dnnl.memory.desc(list(dims), dt, None if extra is None else list(extra))


def buffer_bytes(md, spec=None):
    """Bytes a test buffer for ``md`` needs (layout, offset0 included; the
    parent's size too for a sub-memory ``spec``)."""
    from dnnl._model.memory import span_bytes
    n = max(span_bytes(md), md.get_size())
    if spec is not None and spec[0] == "sub":
        n = max(n, buffer_bytes(make_md(spec[1]), spec[1]))
    return n


def value_bytes(values, dt):
    dt = int(_dt(dt))
    return R.to_bytes(R.encode(np.asarray(values, np.float64).astype(np.float32), dt)
                      if dt not in (R.S32, R.S8, R.U8, R.S4, R.U4)
                      else np.asarray(values, np.int64), dt).tobytes()


def _dt(name):
    import dnnl
    return dnnl.memory.data_type[name] if isinstance(name, str) else name


def build_attr(scales=None, zero_points=None, sum=None):
    import dnnl
    attr = dnnl.primitive_attr()
    for arg, q in (scales or {}).items():
        mask, _, dt = q[:3]
        groups = q[3] if len(q) > 3 else ()
        attr.set_scales(arg, mask, tuple(groups), _dt(dt))
    for arg, q in (zero_points or {}).items():
        mask, _, dt = q[:3]
        groups = q[3] if len(q) > 3 else ()
        attr.set_zero_points(arg, mask, tuple(groups), _dt(dt))
    if sum is not None:
        po = dnnl.post_ops()
        po.append_sum(sum[0], sum[1] if len(sum) > 1 else 0,
                      _dt(sum[2]) if len(sum) > 2 and sum[2] is not None else None)
        attr.set_post_ops(po)
    return attr


@contextlib.contextmanager
def generic_plans(on=True):
    """Within: reorders made with ``on`` build the generic element-by-element
    plan instead of the fast one (the ``generic_reorder_plans`` switch of
    ``dnnl._core.settings``), the plan the fast ones are checked against."""
    with settings.changed(generic_reorder_plans=on):
        yield


def run_ours(src_spec, src_bytes, dst_spec, dst_init_bytes=None, scales=None,
             zero_points=None, sum=None, runtime=False, generic=False):
    """(status, dst buffer bytes) of our primitive, as oracle.reorder; with
    ``generic``, run by the generic plan (:func:`generic_plans`)."""
    if generic:
        with generic_plans():
            return run_ours(src_spec, src_bytes, dst_spec, dst_init_bytes, scales,
                            zero_points, sum, runtime)
    import dnnl
    try:
        smd, dmd = make_md(src_spec), make_md(dst_spec)
        attr = build_attr(scales, zero_points, sum)
        eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
        if runtime:
            pd = dnnl.reorder.primitive_desc(eng, make_md(src_spec, True), eng,
                                             make_md(dst_spec, True), attr)
        else:
            pd = dnnl.reorder.primitive_desc(eng, smd, eng, dmd, attr)
        prim = dnnl.reorder(pd)
        sbuf = np.zeros(buffer_bytes(smd, src_spec) + 16, np.uint8)
        sb = np.frombuffer(bytes(src_bytes), np.uint8)[:sbuf.size]
        sbuf[:sb.size] = sb
        dsize = buffer_bytes(dmd, dst_spec)
        dbuf = np.zeros(dsize + 16, np.uint8)
        if dst_init_bytes is not None:
            db = np.frombuffer(bytes(dst_init_bytes), np.uint8)[:dbuf.size]
            dbuf[:db.size] = db
        src = dnnl.memory(smd, eng, sbuf)
        dst = dnnl.memory(dmd, eng, dbuf)
        args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
        keep = []
        for base, table in ((dnnl.DNNL_ARG_ATTR_SCALES, scales),
                            (dnnl.DNNL_ARG_ATTR_ZERO_POINTS, zero_points)):
            for arg, q in (table or {}).items():
                raw = np.frombuffer(value_bytes(q[1], q[2]), np.uint8).copy()
                n = len(np.asarray(q[1]).reshape(-1))
                vmd = dnnl.memory.desc([n], q[2], "a")
                keep.append(raw)
                args[base | arg] = dnnl.memory(vmd, eng, raw)
        prim.execute(dnnl.stream(eng), args)
        return 0, dbuf[:dsize].tobytes()
    except dnnl.error as e:
        return int(e.status), None


def _grid_offsets(md, shape):
    """Physical offsets (elements; nibbles for 4-bit types) of every index of
    ``shape`` (any shape up to the padded dims), from the blocking formula."""
    idx = np.indices(tuple(shape), dtype=np.int64)
    pos = [idx[d].copy() for d in range(md.ndims)]
    off = np.full(tuple(shape), md.offset0, np.int64)
    inner = 1
    for blk, d in reversed(list(zip(md.inner_blks, md.inner_idxs))):
        off += pos[d] % blk * inner
        pos[d] //= blk
        inner *= blk
    for d in range(md.ndims):
        off += pos[d] * md.strides[d]
    return off


def expected_bytes(src_spec, src_bytes, dst_spec, dst_init_bytes=None, scales=None,
                   zero_points=None, sum=None):
    """The whole destination buffer the reference predicts: elements from
    :func:`reference_reorder`, padding of a blocked layout zero, the unused
    half of the last byte of a whole dense 4-bit tensor of odd size zero (as
    oneDNN writes whole bytes), every other byte (gaps) as it was."""
    import dnnl
    smd, dmd = make_md(src_spec), make_md(dst_spec)
    sdt, ddt = int(smd.data_type), int(dmd.data_type)
    size = buffer_bytes(dmd, dst_spec)
    init = np.zeros(size, np.uint8)
    if dst_init_bytes is not None:
        db = np.frombuffer(bytes(dst_init_bytes), np.uint8)[:size]
        init[:db.size] = db
    sbuf = np.zeros(buffer_bytes(smd, src_spec) + 16, np.uint8)
    sb = np.frombuffer(bytes(src_bytes), np.uint8)[:sbuf.size]
    sbuf[:sb.size] = sb
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    x = codes(dnnl.memory(smd, eng, sbuf).to_numpy(), sdt)
    old = read_logical(init, dmd)

    def q(entry):
        if entry is None:
            return None
        return (entry[0], _as_values(entry[1], entry[2]),
                tuple(entry[3]) if len(entry) > 3 else ())

    sc, zp = scales or {}, zero_points or {}
    out = reference_reorder(x, sdt, ddt, q(sc.get(1)), q(sc.get(17)), q(zp.get(1)),
                            q(zp.get(17)), beta=(sum[0] if sum else 0.0),
                            dst_old_logical=old, with_sum=sum is not None)
    out = write_logical(init, dmd, out)
    if ddt in R.SUB_BYTE and dmd.offset0 == 0 and dmd.nelems:
        span = int(_grid_offsets(dmd, tuple(dmd.padded_dims)).max()) + 1
        if span % 2 and span == int(np.prod(dmd.padded_dims)):
            last = bytearray(out)
            last[span // 2] &= 0x0F
            out = bytes(last)
    return out


def _as_values(values, dt):
    """Values as the kernel sees them: scales rounded to their data type."""
    dt = _dt(dt)
    raw = np.frombuffer(value_bytes(values, dt), np.uint8)
    n = len(np.asarray(values).reshape(-1))
    c = R.from_bytes(raw, int(dt), n)
    if int(dt) in INTEGRAL:
        if int(dt) == R.S4:
            c = np.where(c & 8, (c.astype(np.int64) & 15) - 16, c)
        return np.asarray(c, np.int64)
    return R.decode(c, int(dt))


def _nibbles(buf):
    b = np.asarray(buf, np.uint8)
    out = np.empty(b.size * 2, np.uint8)
    out[0::2], out[1::2] = b & 15, b >> 4
    return out


def read_logical(buf, md):
    """Codes of the elements of ``md`` in the byte buffer (logical array)."""
    dt = int(md.data_type)
    offs = _grid_offsets(md, md.dims)
    if dt in R.SUB_BYTE:
        return _nibbles(buf)[offs]
    view = np.asarray(buf, np.uint8)
    item = np.dtype(R._CODE_DTYPE[dt]).itemsize
    view = view[:view.size - view.size % item].view(R._CODE_DTYPE[dt])
    return view[offs]


def _padded_grid(md):
    """(offsets, inside) over the padded dims: each element's offset, and
    True where it lies within dims (False in the padding)."""
    pshape = tuple(md.padded_dims)
    inside = np.ones(pshape, bool)
    for d, n in enumerate(md.dims):
        sl = [slice(None)] * md.ndims
        sl[d] = slice(n, None)
        inside[tuple(sl)] = False
    return _grid_offsets(md, pshape), inside


def write_logical(buf, md, values):
    """A copy of ``buf`` with the elements set to ``values`` and the padding
    (padded dims beyond dims) zeroed."""
    dt = int(md.data_type)
    poffs, inside = _padded_grid(md)
    offs = poffs[tuple(slice(0, n) for n in md.dims)]
    buf = np.array(buf, np.uint8)
    if dt in R.SUB_BYTE:
        nib = _nibbles(buf)
        nib[poffs[~inside]] = 0
        nib[offs] = np.asarray(values, np.uint8) & 15
        return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8).tobytes()
    item = np.dtype(R._CODE_DTYPE[dt]).itemsize
    view = buf[:buf.size - buf.size % item].view(R._CODE_DTYPE[dt])
    view[poffs[~inside]] = 0
    view[offs] = np.asarray(values).astype(R._CODE_DTYPE[dt])
    return buf.tobytes()


def mismatches(got, exp, md):
    """Number of disagreements between two destination buffers of ``md``:
    elements compared by value (policy 5 for floats), all other bytes
    (padding, gaps) exactly; only the common length of the buffers counts."""
    n = min(len(got), len(exp))
    g = np.frombuffer(bytes(got), np.uint8)[:n]
    e = np.frombuffer(bytes(exp), np.uint8)[:n]
    dt = int(md.data_type)
    offs = _grid_offsets(md, md.dims).reshape(-1)
    if dt in R.SUB_BYTE:
        gu, eu, unit = _nibbles(g), _nibbles(e), 1
    else:
        unit = np.dtype(R._CODE_DTYPE[dt]).itemsize
        gu, eu = g, e
    inside = (offs + 1) * unit <= gu.size
    offs = offs[inside]
    is_elem = np.zeros(gu.size, bool)
    for k in range(unit):
        is_elem[offs * unit + k] = True
    bad = int(((gu != eu) & ~is_elem).sum())
    if offs.size:
        if unit == 1 and dt in R.SUB_BYTE:
            ge, ee = gu[offs], eu[offs]
        else:
            ge = gu.view(R._CODE_DTYPE[dt])[:gu.size // unit][offs] if unit > 1 else gu.view(R._CODE_DTYPE[dt])[offs]
            ee = eu.view(R._CODE_DTYPE[dt])[:eu.size // unit][offs] if unit > 1 else eu.view(R._CODE_DTYPE[dt])[offs]
        bad += int((~same_values(ge, ee, dt)).sum())
    return bad


# ----------------------------------------------------------------------------
# Random problems (a numpy Generator or a hypothesis ``data`` drives them)

ALL_DTS = ("f32", "s32", "s8", "u8", "bf16", "f16", "f8_e5m2", "f8_e4m3", "e8m0",
           "s4", "u4", "f4_e2m1", "f64", "s64")
#: the pairs this library implements (oneDNN's src/cpu/reorder/cpu_reorder*.cpp),
#: except the direct-copy-only pairs with s32 (identical layouts only)
SUPPORTED = {
    "f32": ("f32", "s32", "s8", "u8", "bf16", "f16", "f8_e5m2", "f8_e4m3", "e8m0",
            "s4", "u4", "f4_e2m1"),
    "s32": ("f32", "s32", "s8", "u8"),
    "s8": ("f32", "s32", "s8", "u8", "bf16", "f16"),
    "u8": ("f32", "s32", "s8", "u8", "bf16", "f16"),
    "bf16": ("f32", "s8", "u8", "bf16", "f16", "f8_e5m2", "f8_e4m3"),
    "f16": ("f32", "s8", "u8", "bf16", "f16", "f8_e5m2", "f8_e4m3"),
    "f8_e5m2": ("f32", "bf16", "f16", "f8_e5m2", "f8_e4m3"),
    "f8_e4m3": ("f32", "bf16", "f16", "f8_e5m2", "f8_e4m3"),
    "e8m0": ("f32",),
    "s4": ("f32", "bf16", "f16"),
    "u4": ("f32", "bf16", "f16"),
    "f4_e2m1": ("f32",),
}
#: pairs oneDNN serves with jit:uni alone (no reference implementation, so no
#: runtime-dims primitive; src/cpu/x64/jit_uni_reorder.cpp)
JIT_UNI_ONLY = frozenset({("u8", "f16"), ("bf16", "f16"), ("f16", "bf16"),
                          ("f8_e5m2", "f8_e4m3"), ("f8_e4m3", "f8_e5m2")})
INTEGRAL_NAMES = ("s64", "s32", "s8", "u8", "s4", "u4")
SUB_BYTE_NAMES = ("s4", "u4", "f4_e2m1")


def _abstract_tags():
    import json
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "data", "format_tag_layout.json")
    try:
        names = json.loads(pathlib.Path(path).read_text())["dnnl_format_tag_t"]
    except OSError:
        return {}
    by_rank = {}
    for full in names:
        name = full[len("dnnl_"):]
        letters = [c for c in name if c.isalpha()]
        if not letters or any(c.lower() > "f" for c in letters) or name in ("any", "undef"):
            continue
        if not any(c.isupper() for c in letters):
            continue
        rank = len(set(c.lower() for c in letters))
        if set(c.lower() for c in letters) != set("abcdef"[:rank]):
            continue
        by_rank.setdefault(rank, []).append(name)
    return {k: sorted(v) for k, v in by_rank.items()}


BLOCKED_TAGS = _abstract_tags()


class NumpyChooser:
    def __init__(self, rng):
        self.rng = rng

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def randint(self, lo, hi):
        return int(self.rng.integers(lo, hi + 1))

    def chance(self, p):
        return bool(self.rng.random() < p)

    def perm(self, n):
        return [int(v) for v in self.rng.permutation(n)]


class HypothesisChooser:
    """The same interface over hypothesis' ``data.draw`` (shrinkable)."""

    def __init__(self, data):
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def choice(self, seq):
        return self.data.draw(self.st.sampled_from(list(seq)))

    def randint(self, lo, hi):
        return self.data.draw(self.st.integers(lo, hi))

    def chance(self, p):
        return self.data.draw(self.st.integers(0, 999)) < p * 1000

    def perm(self, n):
        return list(self.data.draw(self.st.permutations(list(range(n)))))


def _md_ok(spec):
    import dnnl
    try:
        make_md(spec)
        return True
    except dnnl.error:
        return False


def random_layout(ch, dims, dt, allow_sub=True):
    """A spec for ``dims``: plain permuted tag, blocked tag, strides with gaps
    or a sub-memory of a bigger tensor."""
    nd = len(dims)
    letters = "abcdef"[:nd]
    for _ in range(8):
        kind = ch.choice(["plain", "plain", "blocked", "blocked", "strides", "sub"])
        if kind == "blocked" and BLOCKED_TAGS.get(nd):
            spec = ("tag", list(dims), dt, ch.choice(BLOCKED_TAGS[nd]))
        elif kind == "strides":
            order = ch.perm(nd)          # order[0] outermost
            strides = [0] * nd
            s = 1
            for d in reversed(order):
                strides[d] = s
                s *= dims[d] + ch.choice([0, 0, 1, 3])
            spec = ("strides", list(dims), dt, strides)
        elif kind == "sub" and allow_sub:
            parent_dims = [n + ch.choice([0, 0, 1, 2, 5]) for n in dims]
            offs = [ch.randint(0, p - n) for p, n in zip(parent_dims, dims)]
            parent = random_layout(ch, parent_dims, dt, allow_sub=False)
            spec = ("sub", parent, list(dims), offs)
        else:
            spec = ("tag", list(dims), dt, "".join(letters[i] for i in ch.perm(nd)))
        if _md_ok(spec):
            return spec
    return ("tag", list(dims), dt, letters)


def _nelems(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def random_dims(ch, max_elems=1500):
    nd = ch.randint(1, 5)
    while True:
        dims = [ch.choice([1, 1, 2, 3, 4, 5, 7, 8, 16, 17, 19, 33]) for _ in range(nd)]
        if _nelems(dims) <= max_elems:
            return dims


def random_values(rng, n, dt):
    """f32 values (float types) or ints (integer types) for a source."""
    if dt in INTEGRAL_NAMES:
        lo, hi = {"s32": (-2 ** 31, 2 ** 31 - 1), "s8": (-128, 127), "u8": (0, 255),
                  "s4": (-8, 7), "u4": (0, 15), "s64": (-2 ** 40, 2 ** 40)}[dt]
        v = rng.integers(lo, hi, n, endpoint=True)
        if dt == "s32" and n:
            small = rng.integers(-300, 300, n)
            v = np.where(rng.random(n) < 0.7, small, v)
            edges = np.array([2 ** 31 - 1, -2 ** 31, 16777217, 2147483520, 0, -1])
            k = min(n, 3)
            v[rng.integers(0, n, k)] = rng.choice(edges, k)
        return v.astype(np.int64)
    scale = {"f4_e2m1": 4.0, "e8m0": 1e3, "f8_e4m3": 200.0}.get(dt, 100.0)
    v = (rng.standard_normal(n) * scale).astype(np.float32)
    halves = (rng.integers(-600, 600, n) / 2.0).astype(np.float32)
    v = np.where(rng.random(n) < 0.3, halves, v)
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 127.5, -128.5, 255.5,
                        3e9, 65520, 464, 1.0625 + 2 ** -13, 2.5, -2.5, 1e-40], np.float32)
    if n:
        k = max(1, n // 20)
        v[rng.integers(0, n, k)] = rng.choice(special, k)
    return v


def src_bytes_for(spec, logical, dt):
    """Bytes of a src buffer holding ``logical`` (values or ints) in ``spec``'s
    layout, with garbage in the padding and gaps (never read)."""
    md = make_md(spec)
    rng = np.random.default_rng(len(logical.reshape(-1)))
    buf = rng.integers(0, 256, buffer_bytes(md, spec), dtype=np.uint8)
    code = R.encode(np.asarray(logical, np.float32), int(md.data_type)) \
        if dt not in INTEGRAL_NAMES else np.asarray(logical, np.int64)
    if dt in ("s4", "u4"):
        code = np.asarray(code, np.int64) & 15
    nbuf = np.frombuffer(write_logical(buf, md, np.asarray(code).reshape(md.dims)),
                         np.uint8).copy()
    # write_logical zeroes padding; put garbage back into the src padding
    pshape = tuple(md.padded_dims)
    if pshape != tuple(md.dims) and dt not in SUB_BYTE_NAMES:
        poffs, inside = _padded_grid(md)
        item = np.dtype(R._CODE_DTYPE[int(md.data_type)]).itemsize
        view = nbuf[:nbuf.size - nbuf.size % item].view(np.dtype("u%d" % item))
        view[poffs[~inside]] = np.array(0x7f7f7f7f7f7f7f7f, np.uint64).astype(view.dtype)
    return nbuf.tobytes()


def _contiguous_mask(ch, nd):
    a = ch.randint(0, nd - 1)
    b = ch.randint(a, nd - 1)
    return sum(1 << d for d in range(a, b + 1))


def random_problem(ch, rng, pair=None, allow_sub=True):
    """A dict with src_spec, src_bytes, dst_spec, dst_init_bytes, scales,
    zero_points, sum (the keyword arguments of oracle.reorder / run_ours)."""
    if pair is None:
        if ch.chance(0.93):
            sdt = ch.choice(sorted(SUPPORTED))
            ddt = ch.choice(SUPPORTED[sdt])
        else:
            sdt, ddt = ch.choice(ALL_DTS[:12]), ch.choice(ALL_DTS[:12])
    else:
        sdt, ddt = pair
    dims = random_dims(ch)
    if sdt in SUB_BYTE_NAMES or ddt in SUB_BYTE_NAMES:   # even strides only
        dims = [d + d % 2 if d > 1 else d for d in dims]
        if _nelems(dims) % 2:
            dims[-1] += 1
    nd = len(dims)
    src_spec = random_layout(ch, dims, sdt, allow_sub)
    dst_spec = random_layout(ch, dims, ddt, allow_sub)
    scales, zps, sum_ = {}, {}, None
    if ch.chance(0.5):
        mask = ch.choice([0, 0, _contiguous_mask(ch, nd), _contiguous_mask(ch, nd),
                          ch.randint(0, (1 << nd) - 1)])
        sdtype = ch.choice(["f32"] * 6 + ["bf16", "f16", "e8m0", "f8_e4m3"])
        groups = ()
        if nd >= 2 and ch.chance(0.2):
            g0 = ch.choice([d for d in (1, 2, 4, dims[-2]) if d and dims[-2] % d == 0])
            g1 = ch.choice([d for d in (1, 2, 4, dims[-1]) if d and dims[-1] % d == 0])
            groups = (g0, g1)
            mask |= 3 << (nd - 2)
        n = count(dims, mask, groups)
        vals = rng.choice(np.array([0.5, 2.0, 7.0, 0.3, 1.7, -3.0, 0.1, 1.0, 4.0]), n)
        scales[1] = (mask, vals, sdtype, groups) if groups else (mask, vals, sdtype)
    if ch.chance(0.35):
        mask = ch.choice([0, 0, scales[1][0] if 1 in scales else 0, _contiguous_mask(ch, nd)])
        n = count(dims, mask)
        scales[17] = (mask, rng.choice(np.array([0.5, 2.0, 7.0, 0.7, 3.0, 1.0]), n), "f32")
    if ch.chance(0.35) and (sdt in INTEGRAL_NAMES or ch.chance(0.1)):
        mask = ch.choice([0, 0, 0, _contiguous_mask(ch, nd)])
        zdt = ch.choice(["s32", "s32", "s8", "u8"])
        lo, hi = {"s32": (-20, 20), "s8": (-20, 20), "u8": (0, 30)}[zdt]
        zps[1] = (mask, rng.integers(lo, hi, count(dims, mask), endpoint=True), zdt)
    if ch.chance(0.35) and (ddt in INTEGRAL_NAMES or ch.chance(0.1)):
        mask = ch.choice([0, 0, 0, _contiguous_mask(ch, nd)])
        zps[17] = (mask, rng.integers(-10, 20, count(dims, mask), endpoint=True), "s32")
    if ch.chance(0.3):
        sum_ = (ch.choice([1.0, 0.5, 0.0, 2.0, -1.0, 0.25]), 0, None)
    src = random_values(rng, _nelems(dims), sdt).reshape(dims)
    init = rng.integers(0, 256, buffer_bytes(make_md(dst_spec), dst_spec), dtype=np.uint8)
    if sum_ is not None and ddt not in INTEGRAL_NAMES:
        # finite old values for float destinations
        dmd = make_md(dst_spec)
        old = R.encode(random_values(rng, _nelems(dims), "f4_e2m1"), int(dmd.data_type))
        init = np.frombuffer(write_logical(init, dmd, np.asarray(old).reshape(dims)),
                             np.uint8)
    return dict(src_spec=src_spec, src_bytes=src_bytes_for(src_spec, src, sdt),
                dst_spec=dst_spec, dst_init_bytes=init.tobytes(),
                scales=scales or None, zero_points=zps or None, sum=sum_)
