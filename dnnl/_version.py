"""The package version (written only here: pyproject.toml reads it) and the
message for a package whose compiled extensions are missing."""
import os

__version__ = "0.1.0"


def not_built_message(init_file, exc):
    """Why ``import dnnl`` failed, and what to run (as numpy explains it)."""
    tree = os.path.dirname(os.path.dirname(os.path.abspath(init_file)))
    if os.path.exists(os.path.join(tree, "setup.py")):
        what = ("dnnl is being imported from its source tree (%s), where its Cython "
                "extensions have not been built. Build them in place with "
                "`pip install -e .` (or `python setup.py build_ext --inplace`) in that "
                "directory, or, to use an installed dnnl, run Python from another "
                "directory." % tree)
    else:
        what = ("dnnl's compiled extensions are missing or cannot be loaded from %s: "
                "reinstall the package (`pip install --force-reinstall dnnl-python`)."
                % os.path.dirname(os.path.abspath(init_file)))
    return "%s\n(the error was: %s)" % (what, exc)
