"""Cython kernels, built per ISA level; :func:`load` gives the one to run.

setup.py builds each arithmetic kernel for the baseline (here) and again for
every level of ``dnnl._isa.KERNEL_LEVELS`` (in ``<level>/``, same module
name). A plan module asks for its kernel where it first builds a plan,
``load("reorder")``: the first call reads the ISA cap, picks the best level
this CPU may run, and loads the kernel from there as
``dnnl._kernels.<name>`` (a later import of that name finds the same
module). ``offsets`` (descriptor metadata, used before any ISA choice) is
built for the baseline only and imported as usual.
"""
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))

# The level directory the dispatched kernels come from ("" = baseline), once
# the first one is loaded; chosen under _lock, once (two kernels loaded by
# two threads at once come from the same level).
level = None
_lock = threading.Lock()
_loaded = {}


def level_file(level_dir, name):
    """The file of kernel ``name`` built for ``level_dir`` ("" = the
    baseline), or None if this build has none."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(_HERE, level_dir, name + suffix)
        if os.path.exists(path):
            return path
    return None


def load(name):
    """The kernel module ``name`` (``"reorder"``, ``"resampling"``,
    ``"convert"``, ``"postops_api"``) of the level chosen for this CPU."""
    module = _loaded.get(name)
    if module is None:
        with _lock:
            module = _loaded.get(name)
            if module is None:
                module = _loaded[name] = _load(name)
    return module


def _load(name):
    global level
    from dnnl._isa import KERNEL_LEVELS, kernel_levels
    fullname = __name__ + "." + name
    if not any(level_file(d, name) for d, _, _ in KERNEL_LEVELS if d):
        return importlib.import_module(fullname)    # built for the baseline only
    if level is None:
        level = next(d for d in kernel_levels() if not d or level_file(d, name))
    where = level_file(level, name) if level else None
    if where is None:
        return importlib.import_module(fullname)
    spec = importlib.util.spec_from_file_location(fullname, where)
    module = importlib.util.module_from_spec(spec)
    sys.modules[fullname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[fullname]
        raise
    setattr(sys.modules[__name__], name, module)
    return module
