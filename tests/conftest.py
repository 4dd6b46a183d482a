"""Test-suite settings: hypothesis' profiles, the scope markers, the
lock that lets a test marked ``exclusive`` run alone under pytest-xdist, and
the fixture ``call_with_junk`` of the tests that call with junk arguments.

Profiles (``DNNL_TEST_PROFILE``, default ``ci``; docs/internals/testing.md):

- ``quick``: 10 examples a property, for the further environments of
  ``.ci/run`` and a quick local run;
- ``ci``: 100 examples, derandomized, so that a run is repeatable (the
  README's test command and CI's full run);
- ``thorough``: 2,000 examples from random seeds, for long runs that look
  for what the fixed seeds miss.

The bad-input fuzzer's case count follows the profile too (30 cases for an
example of a property, unless ``DNNL_FUZZ_CASES`` says). No test writes its own count.
"""
import fcntl
import inspect
import os
import tempfile

import pytest
from hypothesis import settings

PROFILES = {
    "quick": dict(max_examples=10, derandomize=True),
    "ci": dict(max_examples=100, derandomize=True),
    "thorough": dict(max_examples=2000, derandomize=False),
}
for _name, _values in PROFILES.items():
    settings.register_profile(_name, deadline=None, print_blob=True, **_values)
PROFILE = os.environ.get("DNNL_TEST_PROFILE", "ci")
if PROFILE not in PROFILES:
    raise pytest.UsageError("DNNL_TEST_PROFILE=%r: use one of %s"
                            % (PROFILE, ", ".join(PROFILES)))
settings.load_profile(PROFILE)

# What a test exercises, so that each environment of .ci/run can choose what
# can differ there (pyproject.toml describes each marker). Every test module
# carries at least one; doctests get "docs".
SCOPES = ("kernels", "compiled", "package", "interop", "typing", "docs",
          "model", "source", "conformance")

# Loaded as a plugin, never collected as a doctest module: two conftest.py
# files would both import as "conftest" under --doctest-modules.
collect_ignore = ["conftest.py"]


def pytest_report_header(config):
    """Which dnnl is under test, and the profile."""
    import dnnl
    return "dnnl %s from %s; test profile %s (DNNL_TEST_PROFILE)" % (
        dnnl.__version__, os.path.dirname(dnnl.__file__), PROFILE)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    unscoped = set()
    for item in items:
        if isinstance(item, pytest.DoctestItem):
            item.add_marker("docs")
        elif not any(item.get_closest_marker(s) for s in SCOPES):
            unscoped.add(str(item.path))
    if unscoped:
        raise pytest.UsageError(
            "test modules without a scope marker (%s): give each a module-level "
            "pytestmark, e.g. pytestmark = pytest.mark.model:\n  %s"
            % (", ".join(SCOPES), "\n  ".join(sorted(unscoped))))


# ---------------------------------------------------------------- exclusive
# Under pytest-xdist every test holds a shared lock on one file while it runs,
# and a test marked "exclusive" holds it alone. The gate gives the exclusive
# test precedence: while it waits, new tests wait at the gate.
def _lock_path(name):
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    return os.path.join(tempfile.gettempdir(), "dnnl-tests-%s.%s" % (run, name))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    exclusive = item.get_closest_marker("exclusive") is not None
    with open(_lock_path("gate"), "a") as gate, \
            open(_lock_path("run"), "a") as run:
        fcntl.flock(gate, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        if not exclusive:
            fcntl.flock(gate, fcntl.LOCK_UN)
        fcntl.flock(run, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(run, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


# ------------------------------------------------------------ junk arguments
def _call_with_junk(targets, pool, rng, calls, most_args):
    """Call each ``(name, fn)`` of ``targets`` ``calls`` times, each time with
    0 to ``most_args`` arguments drawn from ``pool`` by ``rng``; a draw Python
    cannot bind to the signature is skipped (wrong arity is Python's, not the
    library's). Returns a line for each exception that is not a ``dnnl.error``."""
    import dnnl
    raw = []
    for name, fn in targets:
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            sig = None
        for _ in range(calls):
            args = [rng.choice(pool) for _ in range(rng.randint(0, most_args))]
            if sig is not None:
                try:
                    sig.bind(*args)
                except TypeError:
                    continue
            try:
                fn(*args)
            except dnnl.error:
                pass
            except Exception as e:   # noqa: BLE001 - what the tests look for
                raw.append("%s%r: %s: %s" % (name, tuple(args), type(e).__name__, e))
    return raw


@pytest.fixture
def call_with_junk():
    """``call_with_junk(targets, pool, rng, calls, most_args)``: the lines of
    the exceptions other than ``dnnl.error`` that junk arguments raise."""
    return _call_with_junk
