"""Every oneDNN format tag (all 1,674 C names, aliases included) against an
independent model of the blocked layout it names.

The model starts from ``tests/data/format_tag_layout.json`` (a digest of
oneDNN 3.13's tag definitions: per tag, the outer dimension order ``perm`` and the inner
blocks), not from the library's tag parser, and derives the descriptor from
first principles (oneDNN's src/common/memory_desc.cpp):

- a dim split by inner blocks of total size ``B_d`` is padded up to a multiple
  of ``B_d`` and has ``padded_dims[d] / B_d`` outer blocks;
- the inner blocks form one dense block of ``prod(inner_blks)`` elements; the
  outer dims are laid out densely around it in the order ``perm`` (outermost
  first), so the stride of an outer dim is the block size times the number of
  outer blocks of every dim placed inside it (a zero-sized dim counts as 1);
- the byte size is (largest physical offset of a padded element + 1) times the
  element size, and 0 when some dim is 0.
"""
import json
import os
import random

import pytest

import dnnl

pytestmark = pytest.mark.model

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "data", "format_tag_layout.json")) as f:
    _DATA = json.load(f)
TAG_VALUES = _DATA["dnnl_format_tag_t"]          # C name -> value (1674 names)
LAYOUT = _DATA["format_tag_layout"]              # C name -> perm / inner blocks
SPECIAL = {"dnnl_format_tag_undef", "dnnl_format_tag_any", "dnnl_format_tag_last"}

assert len(TAG_VALUES) == 1674
assert set(TAG_VALUES) == set(LAYOUT) | SPECIAL


def resolved(name):
    """A tag's layout entry; an alias (``nChw16c``) points at its abstract tag."""
    entry = LAYOUT[name]
    while "alias_of" in entry:
        target = LAYOUT[entry["alias_of"]]
        assert target["value"] == entry["value"]
        entry = target
    return entry


def prod(values):
    out = 1
    for v in values:
        out *= v
    return out


def model(dims, layout, dt_size=4):
    """The descriptor a tag must produce for dims (f32 by default)."""
    n = len(dims)
    perm, blks, idxs = layout["perm"], layout["inner_blks"], layout["inner_idxs"]
    assert sorted(perm) == list(range(n))
    block = [prod(b for b, i in zip(blks, idxs) if i == d) for d in range(n)]
    padded = [-(-dims[d] // block[d]) * block[d] for d in range(n)]
    outer = [padded[d] // block[d] for d in range(n)]
    block_size = prod(blks)
    strides = [None] * n
    for k, d in enumerate(perm):
        inside = perm[k + 1:]
        strides[d] = block_size * prod(max(outer[e], 1) for e in inside)
    if 0 in dims:
        size = 0
    else:
        last = sum((outer[d] - 1) * strides[d] for d in range(n)) + block_size - 1
        size = (last + 1) * dt_size
    return {"ndims": n, "dims": list(dims), "padded_dims": padded,
            "padded_offsets": [0] * n, "offset0": 0, "strides": strides,
            "inner_nblks": len(blks), "inner_blks": list(blks),
            "inner_idxs": list(idxs), "size": size}


def shapes_for(layout, seed):
    """Several shapes for a tag's rank: unit, odd, block tails, zero dims, random."""
    n = layout["ndims"]
    block = [prod(b for b, i in zip(layout["inner_blks"], layout["inner_idxs"]) if i == d)
             for d in range(n)]
    small = n > 6                      # keep high ranks small
    odd = [(3, 5, 7, 1, 3, 5)[d % 6] if not small else (3, 1, 2)[d % 3] for d in range(n)]
    tails = [block[d] + 1 if block[d] > 1 else (2 if small else 3) for d in range(n)]
    under = [block[d] - 1 if block[d] > 1 else 1 for d in range(n)]
    shapes = [[1] * n, odd, tails, under]
    zero = list(odd)
    zero[n // 2] = 0
    shapes.append(zero)
    blocked_dims = sorted(set(layout["inner_idxs"]))
    if blocked_dims:
        zb = list(tails)
        zb[blocked_dims[-1]] = 0
        shapes.append(zb)
    rng = random.Random(seed)
    shapes.append([rng.choice((1, 2, 3, 5, 17, 33)) if not small else rng.choice((1, 2, 3))
                   for _ in range(n)])
    return shapes


def ours(md):
    blocked = md.get_format_kind() == dnnl.format_kind.blocked
    return {"ndims": md.get_ndims(), "dims": list(md.get_dims()),
            "padded_dims": list(md.get_padded_dims()),
            "padded_offsets": list(md.get_padded_offsets()),
            "offset0": md.get_submemory_offset(),
            "strides": list(md.get_strides()) if blocked else None,
            "inner_nblks": md.get_inner_nblks() if blocked else None,
            "inner_blks": list(md.get_inner_blks()) if blocked else None,
            "inner_idxs": list(md.get_inner_idxs()) if blocked else None,
            "size": md.get_size()}


@pytest.mark.parametrize("name", sorted(LAYOUT, key=lambda k: (TAG_VALUES[k], k)))
def test_tag_layout(name):
    layout = resolved(name)
    value = TAG_VALUES[name]
    assert layout["value"] == value
    for dims in shapes_for(layout, value):
        md = dnnl.memory.desc(dims, "f32", value)
        assert md.get_format_kind() == dnnl.format_kind.blocked, (name, dims)
        assert md.get_data_type() == dnnl.data_type.f32
        assert not md.is_zero()
        got, want = ours(md), model(dims, layout)
        assert got == want, (name, dims)
    # the same tag given by name (aliases resolve to the same layout)
    short = name[len("dnnl_"):]
    dims = shapes_for(layout, value)[2]
    assert dnnl.memory.desc(dims, "f32", short) == dnnl.memory.desc(dims, "f32", value)
    # a rank that does not match the tag's letters is invalid
    bad = dims + [2] if len(dims) < 12 else dims[:-1]
    with pytest.raises(dnnl.error) as exc:
        dnnl.memory.desc(bad, "f32", value)
    assert exc.value.status == dnnl.status.invalid_arguments


def test_special_tags():
    undef = TAG_VALUES["dnnl_format_tag_undef"]
    any_ = TAG_VALUES["dnnl_format_tag_any"]
    last = TAG_VALUES["dnnl_format_tag_last"]
    md = dnnl.memory.desc([2, 3], "f32", undef)
    assert md.is_zero() and md.get_ndims() == 0 and md.get_size() == 0
    assert md == dnnl.memory.desc()
    md = dnnl.memory.desc([2, 0, 5], "f32", any_)
    assert md.get_format_kind() == dnnl.format_kind.any
    assert list(md.get_dims()) == [2, 0, 5] == list(md.get_padded_dims())
    assert md.get_size() == 0
    for bad_tag in (last, 9999):
        with pytest.raises(dnnl.error) as exc:
            dnnl.memory.desc([2, 3], "f32", bad_tag)
        assert exc.value.status == dnnl.status.invalid_arguments


def test_every_c_name_is_a_format_tag_member():
    """The 1,674 C names map onto the Python enum (aliases share a value)."""
    values = {int(m) for m in dnnl.format_tag.__members__.values()}
    assert set(TAG_VALUES.values()) <= values
    for name, value in TAG_VALUES.items():
        short = name[len("dnnl_format_tag_"):] if name.startswith("dnnl_format_tag_") \
            else name[len("dnnl_"):]
        assert int(dnnl.format_tag[short]) == value, name


def test_model_matches_spec_worked_examples():
    """The model reproduces libdnnl 3.13.2's outputs."""
    rows = [
        ([2, 17, 3, 4], "dnnl_aBcd8b", [2, 24, 3, 4], [288, 96, 32, 8], 2304),
        ([3, 32, 32, 2, 2], "dnnl_gOIhw16i16o", None, [4096, 2048, 1024, 512, 256], 49152),
        ([2, 20, 20, 3], "dnnl_aBCd4c16b4c", [2, 32, 32, 3], [3072, 1536, 768, 256], 24576),
        ([10, 3, 4, 5, 6], "dnnl_decbA8a", [16, 3, 4, 5, 6], [8, 16, 48, 1152, 192], 23040),
        ([17, 17, 1, 1], "dnnl_ABcd16b16a", [32, 32, 1, 1], [512, 256, 256, 256], 4096),
        ([1, 1, 1, 1], "dnnl_aBcd16b", [1, 16, 1, 1], [16, 16, 16, 16], 64),
        ([2, 0, 3, 3], "dnnl_aBcd16b", [2, 0, 3, 3], [144, 144, 48, 16], 0),
        ([2, 3], "dnnl_AB16b16a2b", [16, 32], [512, 512], 2048),
        ([20, 40], "dnnl_AB16b16a2b", [32, 64], [1024, 512], 8192),
        ([5, 7], "dnnl_BA16a16b2a", [32, 16], [512, 512], 2048),
    ]
    for dims, name, padded, strides, size in rows:
        m = model(dims, resolved(name))
        assert m["padded_dims"] == (padded or dims)
        assert m["strides"] == strides
        assert m["size"] == size
