"""Reorder plans: loop order, per-loop offset steps and padding for one
(src md, dst md, attribute masks) combination, built once per primitive (or
per runtime shape) and handed to the kernel's typed ``Plan``.

Everything is derived from the blocking, so the cost of a plan does not grow
with the dims: the offset of a logical index along one dim, in each index
space (src, dst, and the scale / zero-point indices), is a sum of linear
pieces ``digit * stride`` (``offsets.levels``). Splitting the dim at every
unit where some space changes piece turns it into sub-dims that are each
linear in every space: a loop with an int step per space, no table. Only a
dim that cannot be split exactly (a block that does not divide it) gets
tables, and only for the spaces that are not linear on it.

This is layout bookkeeping only; the arithmetic lives in the kernel (``kernel.pyx.in``).
"""
import itertools
import math

import numpy as np

from dnnl._core import dtypes as _dtypes
from dnnl._kernels import load as _load_kernel
from dnnl._model import offsets as _offsets
from dnnl._platform.caches import STREAM_BYTES

#: The index spaces of a plan, in the order of its ``tables`` and ``origins``:
#: the two tensors, then the attribute values, in the order of ``build_plan``'s
#: ``quant`` (dnnl/primitives/reorder/primitive.py) and of the kernel's K_SRC .. K_DZP enum
#: (kernel.pyx.in; tests/primitives/reorder/test_reorder_plan.py checks it).
SPACES = ("src", "dst", "src scales", "dst scales", "src zero points", "dst zero points")
TENSORS = 2     # src and dst: their offsets come from their mds
#: a dim that cannot be split is tabulated up to this size, else peeled
TABLE_MAX = 4096
#: an innermost loop shorter than this gives way to a loop of LONG_RUN or more
SHORT_RUN, LONG_RUN = 16, 256
#: outputs are stored around the caches from STREAM_BYTES (src + dst bytes,
#: dnnl._platform.caches) when the innermost runs store at least this many
#: bytes each: the write-combining buffers flush a partly written line at
#: every run's end
STREAM_RUN_BYTES = 1 << 10
#: a plan moving no more bytes keeps the GIL while it runs: releasing and
#: taking it back costs about a tenth of a microsecond, more than moving a
#: few kilobytes
HOLD_GIL_BYTES = 1 << 13


def _quant_levels(entry, dims, d):
    """``offsets.levels`` of the scale / zero-point index along dim ``d``:
    ``i // group * stride`` (stride 0 when the mask leaves ``d`` out)."""
    if not (entry.mask >> d) & 1:
        return [(0, 1, 0)]
    stride = math.prod(entry.md_dims(dims)[d + 1:])
    nd = len(dims)
    group = entry.groups[d - (nd - 2)] if entry.groups and d >= nd - 2 else 1
    return [(0, group, stride), (group, 1, 0)] if group > 1 else [(0, 1, stride)]


def _level_of(lv, unit, n):
    """The step of ``j -> f(j * unit)`` for ``0 <= j < n`` when one level of
    ``lv`` holds that whole range (else None)."""
    for radix, lunit, stride in lv:
        if lunit <= unit and unit % lunit == 0 and (radix == 0 or radix * lunit >= unit * n):
            return int(stride * (unit // lunit))
    return None


def _table(lv, n):
    """``f(i)`` for ``0 <= i < n``: a dim that is not linear in this space."""
    i = np.arange(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    for radix, unit, stride in lv:
        if stride:
            out += (i // unit % radix if radix else i // unit) * stride
    return out


def _linear(lv, n):
    """The step of ``f`` on ``[0, n)`` when it is linear there, else None:
    each active level nests exactly in the one outside it."""
    active = [level for level in lv if level[1] < n]
    for (_, _, outer), (radix, _, inner) in zip(active, active[1:]):
        if outer != inner * radix:
            return None
    return int(active[-1][2]) if active else 0


def _split(n, lvs):
    """Dim of size ``n`` as sub-dims ``(size, [step per space])``, outermost
    first, each linear in every space; None when no exact split exists."""
    units = sorted({unit for lv in lvs if lv is not None for _, unit, _ in lv if 1 < unit < n})
    if any(b % a for a, b in zip(units, units[1:])) or (units and n % units[-1]):
        return None
    bounds = [n] + units[::-1] + [1]
    subs = []
    for outer, unit in zip(bounds, bounds[1:]):
        size = outer // unit
        steps = [None if lv is None else _level_of(lv, unit, size) for lv in lvs]
        if any(lv is not None and s is None for lv, s in zip(lvs, steps)):
            return None     # never for a blocking: every unit is a level boundary
        subs.append((size, steps))
    return subs


def _granularity(entry, size):
    if isinstance(entry, int):
        return abs(entry)
    return abs(int(entry[1] - entry[0])) if size > 1 else 0


def build_plan(src_md, dst_md, quant, convert, generic=False, *, parallel_min):
    """Loop order, per-loop steps (or small tables) and padding for a reorder.

    ``quant``: ``(entry or None)`` per attribute space (``SPACES[TENSORS:]``).
    Each dim is split where some index space changes linear piece, so most
    layout pairs become a strided walk whose loops are int steps; nested
    linear loops then merge into longer runs. A 4-byte copy whose last two
    loop dims form a transpose runs as cache tiles. ``generic=True`` turns
    every optimisation off (one table per logical dim and space, element by
    element), to test them against. From ``parallel_min`` elements on, the
    plan runs on every thread.
    """
    dims = src_md.dims
    mds = (src_md, dst_md)
    used = list(range(TENSORS)) + [TENSORS + k for k, e in enumerate(quant) if e is not None]

    def levels(k, d):
        if k < TENSORS:
            return _offsets.levels(mds[k], d)
        return _quant_levels(quant[k - TENSORS], dims, d)

    lvs = [[levels(k, d) if k in used else None for k in range(len(SPACES))]
           for d in range(len(dims))]
    # A large dim that its blocks do not divide is run as two ranges (whole
    # blocks, then the rest) rather than tabulated.
    pieces = []
    for n, lv in zip(dims, lvs):
        n0 = _peel(n, lv) if not generic else None
        pieces.append([(0, n)] if n0 is None else [(0, n0), (n0, n)])
    parallel = src_md.nelems >= parallel_min \
        and dst_md.data_type not in _dtypes.SUB_BYTE
    plans = [_range_plan(mds, lvs, used, ranges, convert, generic, parallel,
                         _pad_boxes(dst_md) if i == 0 else [])
             for i, ranges in enumerate(itertools.product(*pieces))]
    return plans[0] if len(plans) == 1 else Plans(plans)


def _peel(n, lv):
    """Where to cut a dim of size ``n`` whose blocks do not divide it, when a
    table over it would be large: the end of the whole blocks (else None)."""
    if n <= TABLE_MAX or _split(n, lv) is not None:
        return None
    units = [unit for lvl in lv if lvl is not None for _, unit, _ in lvl if 1 < unit < n]
    n0 = n - n % max(units) if units else 0
    return n0 if 0 < n0 < n and _split(n0, lv) is not None else None


class Plans:
    """Several plans run one after the other (the ranges of a peeled dim)."""

    def __init__(self, plans):
        self.plans = plans
        self.path = plans[0].path
        self.nitems = sum(p.nitems for p in plans)
        self.pad_boxes = plans[0].pad_boxes
        self.table_bytes = sum(p.table_bytes for p in plans)

    def run(self, *args):
        for p in self.plans:
            p.run(*args)

    def run_values(self, *args):
        for p in self.plans:
            p.run_values(*args)

    def swapped(self):
        """These plans reading their source in the other byte order."""
        return Plans([p.swapped() for p in self.plans])


def _range_plan(mds, lvs, used, ranges, convert, generic, parallel, pad_boxes):
    """The plan of the block ``ranges`` (``[(lo, hi)]`` per dim) of a reorder."""
    src_md, dst_md = mds
    origins = [src_md.offset0, dst_md.offset0] + [0] * (len(SPACES) - TENSORS)
    for (lo, _), lv in zip(ranges, lvs):   # lo starts whole blocks: f(lo + i) = f(lo) + f(i)
        for k in used:
            origins[k] += _offsets.dim_offset(lv[k], lo) if lo else 0
    # Virtual dims: (size, [int step, table or None per space]), outermost first.
    vdims = []
    for (lo, hi), lv in zip(ranges, lvs):
        n = hi - lo
        if n <= 1:
            continue        # f(0) == 0: a unit dim adds nothing
        subs = None if generic else _split(n, lv)
        if subs is None:
            steps = [None if space is None else None if generic else _linear(space, n)
                     for space in lv]
            subs = [(n, [s if s is not None or space is None else _table(space, n)
                         for space, s in zip(lv, steps)])]
        vdims += subs
    # Walk in the destination's order: innermost = finest dst granularity.
    vdims.sort(key=lambda v: (v[0] > 1, _granularity(v[1][1], v[0]),
                              _granularity(v[1][0], v[0])), reverse=True)
    loop = []   # [size, [step or table per space]], outermost first
    for size, entry in vdims:
        if size == 1:
            continue
        if loop and all(isinstance(loop[-1][1][k], int) and isinstance(entry[k], int)
                        and loop[-1][1][k] == entry[k] * size for k in used):
            loop[-1] = [loop[-1][0] * size, entry]   # nested linear ranges: one run
            continue
        loop.append([size, entry])
    if (not generic and convert and len(loop) >= 2 and loop[-1][0] < SHORT_RUN
            and not _rows_convert(src_md, dst_md, used, loop)):
        # A short innermost run costs a conversion's setup each: run along
        # the longest loop that is a step in every space instead (strided,
        # but long). A copy's short runs go many to a work item, each by a
        # move of its size (the kernel's Params.rows), and so do the
        # conversions of _rows_convert.
        i = _longest_linear(loop[:-1], used)
        if i is not None:
            loop.append(loop.pop(i))
    if (not generic and convert and len(loop) >= 3 and loop[-1][0] < LONG_RUN
            and loop[-2][0] < SHORT_RUN):
        # Short runs go many to a work item along loop -2: there, a longer
        # loop (nChw16c -> nhwc: the pixels, not the 4 channel blocks) makes
        # fewer, fuller items, along which per-channel values stay the same.
        i = _longest_linear(loop[:-2], used)
        if i is not None:
            loop.insert(-1, loop.pop(i))
    tile = None
    if not convert and not generic and _dtypes.size(src_md.data_type) == 4 \
            and len(loop) >= 2:
        (na, a), (nb, b) = loop[-2], loop[-1]
        steps = (a[0], b[1], b[0], a[1])   # src on A, dst on B, src on B, dst on A
        if all(isinstance(t, int) for t in steps) and steps[:2] == (1, 1) \
                and na >= 4 and nb >= 4:
            tile = (b[0], a[1])
    while len(loop) < (3 if tile else 2):
        loop.insert(0, [1, [0] * len(SPACES)])
    sizes = [size for size, _ in loop]
    esize = _element_bytes(src_md)
    # the fused runs' rule (the kernel's _esz, for the pairs it fuses); a
    # short run (a crop's rows) streamed would write partial cache lines
    stream = math.prod(sizes) * (_dtypes.size(src_md.data_type)
                                 + _dtypes.size(dst_md.data_type)) >= STREAM_BYTES \
        and sizes[-1] * _dtypes.size(dst_md.data_type) >= STREAM_RUN_BYTES
    release = parallel or math.prod(sizes) * max(esize, 1) > HOLD_GIL_BYTES
    tables = [[entry[k] for _, entry in loop] if k in used else None
              for k in range(len(SPACES))]
    Plan = _load_kernel("dnnl.primitives.reorder.kernel").Plan     # the first load picks the ISA level
    return Plan(sizes=sizes, tables=tables, origins=origins, convert=convert, esize=esize,
                src_dt=int(src_md.data_type), dst_dt=int(dst_md.data_type),
                pad_boxes=pad_boxes, parallel=parallel, tile=tile, fused=not generic,
                pad_esize=_element_bytes(dst_md), stream=stream, release=release)


def _longest_linear(loops, used):
    """Index of the longest of ``loops`` that has LONG_RUN positions or more
    and is a step in every used space (the first of equals), else None."""
    long_ = [i for i, (n, e) in enumerate(loops) if n >= LONG_RUN
             and all(isinstance(e[k], int) for k in used)]
    return max(long_, key=lambda i: loops[i][0]) if long_ else None


def _rows_convert(src_md, dst_md, used, loop):
    """Whether the kernel converts the short innermost runs of ``loop`` many
    to a work item (the kernel's _rows_by_element): runs from f32 or
    int8, without a source zero point, to contiguous f32, bf16 or int8."""
    dt = _dtypes.dt
    return (src_md.data_type in (dt.f32, dt.s8, dt.u8)
            and dst_md.data_type in (dt.f32, dt.bf16, dt.s8, dt.u8)
            and SPACES.index("src zero points") not in used
            and isinstance(loop[-1][1][0], int) and isinstance(loop[-1][1][1], int)
            and loop[-1][1][1] == 1
            and all(isinstance(loop[-2][1][k], int) for k in used))


def _element_bytes(md):
    """Bytes of one element of ``md``, 0 for the 4-bit types (nibbles)."""
    return 0 if md.data_type in _dtypes.SUB_BYTE else _dtypes.size(md.data_type)


def _pad_boxes(md):
    """The padding of ``md`` as strided boxes ``(offset, [(size, stride)])``
    (elements, nested linear axes merged): zeroing them costs no table.

    A whole dense 4-bit tensor of odd size ends in half a byte: its other
    nibble is zeroed too, as oneDNN's reorder writes whole bytes (a tensor
    with an offset0 may share that byte with its neighbour: left alone)."""
    out = []
    if md.data_type in _dtypes.SUB_BYTE and md.offset0 == 0 and md.nelems:
        span = _offsets.max_offset(md) + 1
        if span % 2 and span == math.prod(md.padded_dims):
            out.append((span, []))
    for offset, _, _, axes in _offsets.padding_boxes(md):
        merged = []
        for n, s in sorted((ax for dim_axes in axes for ax in dim_axes if ax[0] > 1),
                           key=lambda ax: -abs(ax[1])):
            if merged and merged[-1][1] == s * n:
                merged[-1] = (merged[-1][0] * n, s)
            else:
                merged.append((n, s))
        out.append((offset, merged))
    return out
