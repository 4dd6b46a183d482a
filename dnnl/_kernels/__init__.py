"""The shared kernel toolkit, and :func:`load`, which gives the kernel to run.

The ``.pxd`` files here are what every kernel cimports: the conversion
ladder (``cvt.pxd``, expanded from its template), the post-op formulas
(``postops.pxd``) and what the spatial kernels share (``spatial.pxd``: the
post-op chain, rows through an offset table), whose plan side is
``spatial`` (the axis tables, channel runs and post-op entries). Each primitive's kernel lives in its kind's folder
(``dnnl/primitives/<kind>/kernel.pyx``); setup.py builds it for the
baseline and again for every level of ``dnnl._platform.isa.KERNEL_LEVELS``,
into ``<level>/`` beside it, under the same module name. A plan asks for its
kernel where it first builds a plan, ``load("dnnl.primitives.reorder.kernel")``:
the first call reads the ISA cap, picks the best level this CPU may run, and
loads the kernel from there (a later import of that name finds the same
module).
"""
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading

# the folder of the package ``dnnl``
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The level directory the dispatched kernels come from ("" = baseline), once
# the first one is loaded; chosen under _lock, once (two kernels loaded by
# two threads at once come from the same level).
level = None
_lock = threading.Lock()
_loaded = {}


def level_file(level_dir, name):
    """The file of kernel ``name`` (its module's full name) built for
    ``level_dir`` ("" = the baseline), or None if this build has none."""
    folder = name.split(".")[1:]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(_ROOT, *folder[:-1], level_dir, folder[-1] + suffix)
        if os.path.exists(path):
            return path
    return None


def load(name):
    """The kernel module ``name`` (its full name:
    ``"dnnl.primitives.reorder.kernel"``, ``"dnnl.testing.probes.convert"``)
    of the level chosen for this CPU."""
    module = _loaded.get(name)
    if module is None:
        with _lock:
            module = _loaded.get(name)
            if module is None:
                module = _loaded[name] = _load(name)
    return module


def _load(name):
    global level
    from dnnl._platform.isa import KERNEL_LEVELS, kernel_levels
    if not any(level_file(d, name) for d, _, _ in KERNEL_LEVELS if d):
        return importlib.import_module(name)    # built for the baseline only
    if level is None:
        level = next(d for d in kernel_levels() if not d or level_file(d, name))
    where = level_file(level, name) if level else None
    if where is None:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, where)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    package, _, short = name.rpartition(".")
    setattr(importlib.import_module(package), short, module)
    return module
