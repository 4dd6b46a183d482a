"""Reorder plans: loop order, collapsed offset tables and padding for one
(src md, dst md, attribute masks) combination, built once per primitive (or
per runtime shape) and handed to the kernel's typed ``Plan``.

This is layout bookkeeping only; the arithmetic lives in ``reorder.pyx``.
"""
import numpy as np

from dnnl import _dtypes
from dnnl._kernels import offsets as _offsets

#: tensors with at least this many elements run on every thread
PARALLEL_MIN_ELEMS = 1 << 15


def _quant_table(entry, dims, d):
    """Index of the scale / zero point each position of dim ``d`` uses."""
    qdims = entry.md_dims(dims)
    if not (entry.mask >> d) & 1:
        return np.zeros(dims[d], dtype=np.int64)
    stride = int(np.prod(qdims[d + 1:], dtype=np.int64))
    nd = len(dims)
    group = entry.groups[d - (nd - 2)] if entry.groups and d >= nd - 2 else 1
    return np.arange(dims[d], dtype=np.int64) // group * stride


def _step(t):
    """The step of a linear table (``t[i] == t[0] + i*step``), else None."""
    if t.size < 2:
        return 0
    step = int(t[1] - t[0])
    return step if (t == t[0] + step * np.arange(t.size)).all() else None


def _block_units(md, d):
    """Index units at which ``md`` splits logical dim ``d`` (innermost first)."""
    units, u = [], 1
    for blk, idx in reversed(list(zip(md.inner_blks, md.inner_idxs))):
        if idx == d:
            u *= blk
            units.append(u)
    return units


def _split_dim(size, units, tables):
    """Split one logical dim into sub-dims at ``units`` when every index space
    is separable there: returns [(sub size, [sub table per kind])] or None."""
    units = sorted(set(units))
    if not units or size % units[-1] or any(b % a for a, b in zip(units, units[1:])):
        return None
    bounds = units[::-1] + [1]          # outermost unit first
    sizes = [size // units[-1]] + [bounds[i] // bounds[i + 1] for i in range(len(units))]
    subs = []
    for n, unit in zip(sizes, bounds):
        subs.append((n, [None if t is None else t[np.arange(n) * unit] - t[0]
                         for t in tables]))
    for k, t in enumerate(tables):      # separability, checked on the full range
        if t is None:
            continue
        total = np.zeros(1, dtype=np.int64) + t[0]
        for n, tabs in subs:
            total = (total[:, None] + tabs[k][None, :]).reshape(-1)
        if not np.array_equal(total, t):
            return None
    subs[0] = (subs[0][0], [None if t is None else sub + t[0]
                            for t, sub in zip(tables, subs[0][1])])
    return subs


def build_plan(src_md, dst_md, quant, convert, generic=False):
    """Loop order, collapsed per-dim tables and padding offsets for a reorder.

    ``quant``: ``(entry or None)`` for src scales, dst scales, src zp, dst zp.
    Blocked dims are split into their blocks where the split is exact, so most
    layout pairs become a strided walk; each loop dim of each index space is
    then a table, or just a step when linear (contiguous runs merge without
    materialising any table). A 4-byte copy whose last two loop dims form a
    transpose runs as cache tiles. ``generic=True`` turns every optimisation
    off (one table per logical dim, element by element), to test them against.
    """
    dims = src_md.dims
    nd = len(dims)

    def split(tables):
        table, starts, sizes = tables
        return [table[s:s + n] for s, n in zip(starts, sizes)]

    per_kind = [split(_offsets.dim_tables(src_md)), split(_offsets.dim_tables(dst_md))]
    per_kind += [None if e is None else [_quant_table(e, dims, d) for d in range(nd)]
                 for e in quant]
    used = [k for k in range(6) if per_kind[k] is not None]
    consts = [src_md.offset0, dst_md.offset0, 0, 0, 0, 0]
    # Virtual dims: (size, [table per kind]); blocked dims split where exact.
    vdims = []
    for d in range(nd):
        tables = [None if t is None else t[d] for t in per_kind]
        subs = _split_dim(dims[d], _block_units(src_md, d) + _block_units(dst_md, d),
                          tables) if dims[d] > 1 and not generic else None
        vdims += subs if subs else [(dims[d], tables)]

    def granularity(t):
        return abs(int(t[1] - t[0])) if t.size > 1 else 0

    # Walk in the destination's order: innermost = finest dst granularity.
    vdims.sort(key=lambda v: (v[0] > 1, granularity(v[1][1]), granularity(v[1][0])),
               reverse=True)
    loop = []   # [size, {kind: table or int step}], outermost first
    for size, tables in vdims:
        if size == 1:   # unit dims only shift the origin
            for k in used:
                consts[k] += int(tables[k][0])
            continue
        entry = {}
        for k in used:
            t = tables[k]
            step = None if generic else _step(t)
            entry[k] = t if step is None else step
            if step is not None:
                consts[k] += int(t[0])
        if loop and all(isinstance(loop[-1][1][k], int) and isinstance(entry[k], int)
                        and loop[-1][1][k] == entry[k] * size for k in used):
            loop[-1][0] *= size          # nested linear ranges: one longer run
            loop[-1][1] = entry
            continue
        loop.append([size, entry])
    tile = None
    if not convert and _dtypes.size(src_md.data_type) == 4 and len(loop) >= 2:
        (na, a), (nb, b) = loop[-2], loop[-1]
        steps = (a[0], b[1], b[0], a[1])   # src on A, dst on B, src on B, dst on A
        if all(isinstance(t, int) for t in steps) and steps[:2] == (1, 1) \
                and na >= 4 and nb >= 4:
            tile = (b[0], a[1])
    while len(loop) < (3 if tile else 2):
        loop.insert(0, [1, {k: 0 for k in used}])
    sizes = [size for size, _ in loop]
    tables, linear = [None] * 6, [None] * 6
    for k in used:
        tabs = []
        for i, (size, entry) in enumerate(loop):
            t = entry[k]
            last = i == len(loop) - 1
            if isinstance(t, int):
                tabs.append(None if last else np.arange(size, dtype=np.int64) * t)
                if last:
                    linear[k] = t
            else:
                tabs.append(t)
        if tabs[0] is None:     # a single linear run: the origin goes first
            tabs[0] = np.zeros(1, dtype=np.int64)
        tabs[0] = tabs[0] + consts[k]
        tables[k] = tabs
    ddt = dst_md.data_type
    esize = 0 if src_md.data_type in _dtypes.SUB_BYTE else _dtypes.size(src_md.data_type)
    pad = _offsets.padding_offsets(dst_md)
    parallel = src_md.nelems >= PARALLEL_MIN_ELEMS and ddt not in _dtypes.SUB_BYTE
    from dnnl._kernels.reorder import Plan   # first use: picks the ISA level
    return Plan(sizes=sizes, tables=tables, linear=linear, convert=convert, esize=esize,
                src_dt=int(src_md.data_type), dst_dt=int(ddt), pad_offsets=pad,
                parallel=parallel, tile=tile, fused=not generic)
