"""The pages' doctests: dask.md needs dask (the optional ``dask`` extra);
examples marked ``# doctest: +NEEDS_TORCH`` need PyTorch (no extra installs
it): they are skipped where torch is absent and run where it is."""
import doctest
import importlib.util

# never collected as a doctest module itself (tests/conftest.py says why)
collect_ignore = ["conftest.py"]
if importlib.util.find_spec("dask") is None:
    collect_ignore.append("dask.md")
if importlib.util.find_spec("torch") is None:
    doctest.OPTIONFLAGS_BY_NAME.setdefault("NEEDS_TORCH", doctest.SKIP)
else:
    doctest.register_optionflag("NEEDS_TORCH")
