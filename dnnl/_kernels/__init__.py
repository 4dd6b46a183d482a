"""Cython kernels, dispatched by ISA level.

setup.py builds each arithmetic kernel for the baseline (here) and again for
every level of ``dnnl._isa.KERNEL_LEVELS`` (in ``<level>/``, same module
name). The first import of such a kernel reads the ISA cap and loads the best
level this CPU may run, as ``dnnl._kernels.<name>``: importers see one module.
"""
import importlib.machinery
import importlib.util
import os
import sys
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))

# The level directory the dispatched kernels come from ("" = baseline), once
# the first one is loaded; chosen under _lock, once (two kernels imported by
# two threads at once load the same level).
level = None
_lock = threading.Lock()


def _level_file(level_dir, name):
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(_HERE, level_dir, name + suffix)
        if os.path.exists(path):
            return path
    return None


class _LevelFinder:
    """Meta-path finder for the kernels built per level."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        global level
        pkg, _, name = fullname.rpartition(".")
        if pkg != __name__:
            return None
        from dnnl._isa import KERNEL_LEVELS, kernel_levels
        if not any(_level_file(d, name) for d, _, _ in KERNEL_LEVELS if d):
            return None             # built for the baseline only
        if level is None:
            with _lock:
                if level is None:
                    level = next(d for d in kernel_levels() if not d or _level_file(d, name))
        where = _level_file(level, name) if level else None
        if where is None:
            return None             # the ordinary finder loads the baseline
        return importlib.util.spec_from_file_location(fullname, where)


sys.meta_path.insert(0, _LevelFinder)
