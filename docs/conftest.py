"""The pages' doctests: dask.md needs dask (the optional ``dask`` extra)."""
import importlib.util

# never collected as a doctest module itself (tests/conftest.py says why)
collect_ignore = ["conftest.py"]
if importlib.util.find_spec("dask") is None:
    collect_ignore.append("dask.md")
