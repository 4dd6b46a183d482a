"""include/dnnl_types.h, the compiled constants and the Python enums agree.

The header is read here with its own small C-enum evaluator (implicit values,
aliases, hex), independent of the build's generator; the values must equal
what the C compiler gave ``dnnl._core._constants`` and what the IntEnums hold, and
the format tags must equal the digest in tests/data.
"""
import json
import os
import pathlib
import re

import pytest

import dnnl
from dnnl._core import _constants as _constants
from dnnl._core import enums as _enums

pytestmark = [pytest.mark.compiled, pytest.mark.package]

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
HEADER = pathlib.Path(ROOT, "include", "dnnl_types.h").read_text()


def header_enums():
    """{enum type: {name: value}} evaluated by C's rules."""
    enums = {}
    for body, name in re.findall(r"typedef enum \{(.*?)\} (\w+);", HEADER, re.S):
        values, nxt = {}, 0
        for line in body.split(","):
            line = line.strip()
            if not line:
                continue
            m = re.fullmatch(r"(\w+)(?:\s*=\s*(.+))?", line)
            member, rhs = m.groups()
            if rhs is None:
                value = nxt
            elif rhs in values:
                value = values[rhs]
            else:
                value = int(rhs.rstrip("LU"), 0) if not rhs.startswith("(") else \
                    eval(rhs.replace("LL", ""))
            values[member] = value
            nxt = value + 1
        enums[name] = values
    return enums


def header_macros():
    out = {}
    for name, rhs in re.findall(r"^#define (DNNL_\w+) (.+)$", HEADER, re.M):
        rhs = rhs.strip()
        if re.fullmatch(r"-?\d+(LL|ULL)?", rhs):
            out[name] = int(rhs.rstrip("LU"))
    return out


ENUMS = header_enums()


def test_every_enum_matches_the_compiled_values():
    compiled = {name: dict(members) for name, members in _constants.ENUMS}
    assert set(compiled) == set(ENUMS)
    for name, members in ENUMS.items():
        assert compiled[name] == members, name


def test_macros_match_the_compiled_values():
    macros = header_macros()
    assert len(macros) >= 100
    for name, value in macros.items():
        assert _constants.MACROS[name] == value, name
    assert _constants.MACROS["DNNL_RUNTIME_DIM_VAL"] == -2 ** 63
    assert _constants.MACROS["DNNL_RUNTIME_SIZE_VAL"] == 2 ** 63
    assert _constants.MACROS["DNNL_MEMORY_ALLOCATE"] == 2 ** 64 - 1
    assert _constants.MACROS["DNNL_MEMORY_NONE"] == 0


def test_python_enums_hold_the_header_values():
    for c_type, cls in _enums.C_ENUMS.items():
        values = ENUMS[c_type]
        assert {m.value for m in cls} == set(values.values()), c_type
        for c_name, value in values.items():
            assert _enums.C[c_name] == value
    # canonical names come first: an alias prints as its abstract tag
    assert dnnl.format_tag.nChw16c.name == "aBcd16b"
    assert dnnl.format_tag(ENUMS["dnnl_format_tag_t"]["dnnl_nhwc"]).name == "acdb"


def test_enums_equal_the_functional_api_ones():
    # dnnl._core.enums builds its classes the fast way (Python 3.11+); each must
    # be the IntEnum that enum.IntEnum(name, members) makes
    import enum
    import sys
    for c_type, cls in _enums.C_ENUMS.items():
        members = [(name, member.value) for name, member in cls.__members__.items()]
        ref = _enums._regular(cls.__name__, members)
        ref.c_type = c_type
        if sys.version_info >= (3, 11):
            enum._test_simple_enum(cls, ref)    # raises TypeError on a difference
        assert [(k, m.name, m.value) for k, m in cls.__members__.items()] == \
            [(k, m.name, m.value) for k, m in ref.__members__.items()]
        assert (cls.__module__, cls.__qualname__, cls.__doc__, dir(cls)) == \
            (ref.__module__, ref.__qualname__, ref.__doc__, dir(ref))
        for name in cls.__members__:
            # members are class attributes as the functional API binds them
            kind = [type(vars(c).get(name)).__name__ if not isinstance(vars(c).get(name), c)
                    else "member" for c in (cls, ref)]
            assert kind[0] == kind[1], (c_type, name, kind)


def test_format_tags_match_the_spec_digest():
    data = json.loads(pathlib.Path(ROOT, "tests", "data", "format_tag_layout.json").read_text())
    tags = data["dnnl_format_tag_t"]
    assert len(tags) == 1674
    assert tags == ENUMS["dnnl_format_tag_t"]


@pytest.mark.parametrize("name, value", [
    ("dnnl_f32", 3), ("dnnl_bf16", 2), ("dnnl_nChw16c", 78), ("dnnl_OIhw16i16o", 79),
    ("dnnl_format_tag_last", 875), ("dnnl_resampling_linear", 0x2fff1),
    ("dnnl_eltwise_hardswish", 52), ("dnnl_binary_select", 0x1fffc),
    ("dnnl_query_inner_idxs", 265), ("dnnl_fpmath_mode_tf32", 4),
    ("DNNL_ARG_ATTR_ZERO_POINTS", 8192), ("DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE", 32768),
    ("DNNL_MAX_NDIMS", 12),
])
def test_values_from_spec_tables(name, value):
    # values of oneDNN 3.13's include/oneapi/dnnl/dnnl_types.h and dnnl_common_types.h
    assert _enums.C[name] == value
    if name.startswith("DNNL_"):
        assert getattr(dnnl, name) == value
