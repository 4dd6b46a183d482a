"""Test-suite settings: CI runs hypothesis derandomized, so a run is repeatable."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Loaded as a plugin, never collected as a doctest module: two conftest.py
# files would both import as "conftest" under --doctest-modules.
collect_ignore = ["conftest.py"]


def pytest_report_header(config):
    """Which dnnl is under test: the source tree's or an installed one."""
    import dnnl
    return "dnnl %s from %s" % (dnnl.__version__, os.path.dirname(dnnl.__file__))
