"""The user guides (docs/ except docs/internals/) use public names only.

A guide is what a user copies: a private module (``dnnl._platform``), a
private name imported from a public one (``from dnnl.capi import _x``) or a
private attribute in an example (``f._restype``) would tie their code to
internals. The internals pages may name anything.
"""
import pathlib
import re

import pytest

pytestmark = pytest.mark.source

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
# dnnl.<...>._name: a private module or attribute on a dnnl path (not a dunder)
PRIVATE_PATH = re.compile(r"\bdnnl(?:\.[A-Za-z]\w*)*\.(_[A-Za-z]\w*)")
# from dnnl... import _name
PRIVATE_IMPORT = re.compile(r"\bfrom\s+dnnl[\w.]*\s+import\s+(?:\(?\s*[\w\s,]*?)\b(_[A-Za-z]\w*)")
# in an example line: any ._name (an attribute that is private, whatever holds it)
EXAMPLE = re.compile(r"^\s*(?:>>>|\.\.\.)\s")
PRIVATE_ATTR = re.compile(r"\.(_[A-Za-z]\w*)")


def guides():
    return sorted(p for p in DOCS.rglob("*.md") if "internals" not in p.relative_to(DOCS).parts)


def private_names(text):
    """(line number, name) of every private name ``text`` uses."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for pattern in (PRIVATE_PATH, PRIVATE_IMPORT):
            found += [(n, m.group(0)) for m in pattern.finditer(line)]
        if EXAMPLE.match(line):
            found += [(n, m.group(0)) for m in PRIVATE_ATTR.finditer(line)]
    return found


def test_the_scanner_finds_each_form():
    text = "\n".join([
        "the level is `dnnl._kernels.level`",
        ">>> from dnnl._core.capi import _UNSET",
        ">>> from dnnl.capi import dnnl_f32, _memory",
        ">>> lib.dnnl_version._restype = None",
        "... t = dnnl.capi._service",
        "public: dnnl.__version__, x.__dlpack__(), dnnl.capi.dnnl_f32, a_b._c in prose",
    ])
    assert sorted({n for n, _ in private_names(text)}) == [1, 2, 3, 4, 5]
    assert ("3", "_memory") in {(str(n), name.split()[-1]) for n, name in private_names(text)}


def test_the_guides_use_public_names_only():
    pages = guides()
    assert len(pages) > 20 and any(p.parent.name == "api" for p in pages)
    bad = ["%s:%d: %s" % (p.relative_to(DOCS), n, name)
           for p in pages for n, name in private_names(p.read_text())]
    assert not bad, "private names in the user guides:\n" + "\n".join(bad)
