"""Conformance tests against real oneDNN (docs/internals/conformance.md).

Every test here takes the session fixture ``oracle``; when real oneDNN is not
installed the fixture skips, so this folder never breaks the default suite.
Tests record how many cases they compared with ``oracle.record(category, n)``;
the totals (and the tallies of ``oracle.tally``) are printed at the end of
the run.
"""
import ctypes
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle as _oracle_module  # noqa: E402

SKIP_REASON = ("real oneDNN not found: install it into its own venv "
               "(python3 -m venv onednn-venv; onednn-venv/bin/pip install onednn==2026.1.0) "
               "and set DNNL_ORACLE_VENV to it; see docs/internals/conformance.md")


@pytest.fixture(scope="session")
def oracle():
    o = _oracle_module.load()
    if o is None:
        pytest.skip(SKIP_REASON)
    return o


@pytest.fixture(scope="module")
def libs(oracle, request):
    """Real libdnnl and ``dnnl.capi``, each with the function signatures of the
    test module's own ``declare(lib)`` (real libdnnl as its own function
    objects); afterwards ``dnnl.capi`` is left as it was found."""
    import dnnl.capi
    declare = request.module.declare
    real = declare(ctypes.CDLL(oracle.lib._name))
    yield real, declare(dnnl.capi)
    dnnl.capi.reset_declarations()


def pytest_terminal_summary(terminalreporter):
    counts = _oracle_module.CASES
    if not counts and not _oracle_module.DETAILS:
        return
    tallies = {k: v for k, v in _oracle_module.TALLIES.items() if any(v.values())}
    tr = terminalreporter
    tr.section("cases compared with real oneDNN %s" % (
        ".".join(map(str, _oracle_module.load().version)) if _oracle_module.load() else ""))
    for key in sorted(counts):
        tr.write_line("%-40s %8d" % (key, counts[key]))
    tr.write_line("%-40s %8d" % ("total", sum(counts.values())))
    for key in sorted(_oracle_module.DETAILS):
        tr.write_line("  %-72s %8d" % (key, _oracle_module.DETAILS[key]))
    for name in sorted(tallies):
        tr.write_line("%s: %s" % (name, tallies[name]))

# Loaded as a plugin, never collected as a doctest module: two conftest.py
# files would both import as "conftest" under --doctest-modules.
collect_ignore = ["conftest.py"]
