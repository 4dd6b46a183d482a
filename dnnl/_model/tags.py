"""The one format-tag parser: a tag's name is its layout (design rule 2,
docs/internals/architecture.md).

An abstract tag name such as ``aBCd4c16b4c`` reads as: leading letters are the
logical dims from outermost to innermost (``a`` = dim 0 ... ``l`` = dim 11,
upper case when the dim also has inner blocks), then each ``<N><letter>`` group
is one inner block, outermost first. Domain aliases (``nChw16c``,
``OIhw16i16o``) are resolved through the header's alias relations, i.e. by
value, never by reading their letters.
"""
import functools
import re

from dnnl._core.enums import format_tag
from dnnl._core.args import closest, not_another_enum
from dnnl._core.error import invalid

_BLOCK = re.compile(r"(\d+)([a-l])")
_SPECIAL = {format_tag.undef, format_tag.any, format_tag.last}


def as_format_tag(tag):
    """Normalise a tag given as enum member, C int or name (``"nChw16c"``)."""
    if isinstance(tag, format_tag):
        return tag
    not_another_enum(tag, format_tag, "format tag")
    if isinstance(tag, str):
        name = tag[5:] if tag.startswith("dnnl_") else tag
        name = name.replace("format_tag.", "").replace("format_tag_", "")
        try:
            return format_tag[name]
        except KeyError:
            raise invalid("unknown format tag %r%s" % (tag, closest(
                name, format_tag.__members__))) from None
    try:
        return format_tag(int(tag))
    except (TypeError, ValueError):
        raise invalid("unknown format tag %r" % (tag,)) from None


@functools.lru_cache(maxsize=None)
def parse_name(name):
    """Layout of an abstract tag name: ``(ndims, perm, inner_blks, inner_idxs)``.

    ``perm`` lists logical dims outermost first; inner blocks are listed
    outermost first, as in oneDNN's blocking descriptor. Any such string works,
    enumerated or not (like ``dnnl_memory_desc_create_with_string_tag``).

    >>> parse_name("aBCd4c16b4c")
    (4, (0, 1, 2, 3), (4, 16, 4), (2, 1, 2))
    >>> parse_name("acdb")
    (4, (0, 2, 3, 1), (), ())
    """
    m = re.fullmatch(r"([a-lA-L]+)((?:\d+[a-l])*)", name)
    if not m:
        raise invalid("%r is not a format tag name" % name)
    letters, blocks = m.groups()
    perm = tuple(ord(c.lower()) - ord("a") for c in letters)
    ndims = len(perm)
    if sorted(perm) != list(range(ndims)):
        raise invalid("format tag %r does not name each dim once" % name)
    inner_blks, inner_idxs = [], []
    for size, letter in _BLOCK.findall(blocks):
        d = ord(letter) - ord("a")
        if d >= ndims:
            raise invalid("format tag %r blocks a dim it does not have" % name)
        if int(size) > 1:  # a block of 1 is no block
            inner_blks.append(int(size))
            inner_idxs.append(d)
    return ndims, perm, tuple(inner_blks), tuple(inner_idxs)


def layout(tag):
    """``(ndims, perm, inner_blks, inner_idxs)`` of an enumerated format tag."""
    tag = as_format_tag(tag)
    if tag in _SPECIAL:
        raise invalid("format tag %s has no layout" % tag.name)
    return parse_name(tag.name)
