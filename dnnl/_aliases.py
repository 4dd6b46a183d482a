"""Module names that moved, still importable under the old name.

``dnnl.resampling`` is a public module whose code lives in its kind's folder.
The others are where earlier versions defined the callables their pickles
name (``__reduce__`` targets: a descriptor's constructor, a memory's, the
enums, the engine), so that what an earlier version pickled loads here. Each
old name is the new module itself, not a copy: one module, two names.
"""
import importlib
import sys

MOVED = {
    "dnnl.resampling": "dnnl.primitives.resampling.primitive",
    # the pickle targets of the versions before the layer folders (tests/data)
    "dnnl._desc": "dnnl._model.desc",
    "dnnl._memory": "dnnl._model.memory",
    "dnnl._engine": "dnnl._model.engine",
    "dnnl._enums": "dnnl._core.enums",
}


def install():
    """Registers every old name in ``sys.modules`` (and as an attribute of
    its parent package, as an import would)."""
    for old, new in MOVED.items():
        module = importlib.import_module(new)
        sys.modules[old] = module
        parent, _, name = old.rpartition(".")
        setattr(sys.modules[parent], name, module)
