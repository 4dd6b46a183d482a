"""Fresh interpreters that import this very copy of ``dnnl``.

Tests that need a new process (the ISA cap, settings read from the
environment at import, import-time checks) start one with :func:`run`. It
runs from an empty temporary directory, never from a source checkout, where
the unbuilt source tree would shadow an installed package, and puts the
directory holding the ``dnnl`` under test first on ``PYTHONPATH``: the child
imports what the parent imported (an installed wheel, an editable install or
an in-place build).
"""
import os
import subprocess
import sys
import tempfile

import dnnl

#: The directory that holds the ``dnnl`` package under test.
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(dnnl.__file__)))


def environment(env=None):
    """``env`` (default: ``os.environ``) with :data:`PACKAGE_PARENT` first on
    ``PYTHONPATH``."""
    out = dict(os.environ if env is None else env)
    rest = out.get("PYTHONPATH")
    out["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT] + ([rest] if rest else []))
    return out


def run(args, env=None, cwd=None, **kwargs):
    """``subprocess.run([sys.executable, *args], ...)`` in a child that
    imports this ``dnnl``, from ``cwd`` or an empty temporary directory.

    >>> run(["-c", "import dnnl, sys; print(dnnl.__name__)"],
    ...     capture_output=True, text=True).stdout
    'dnnl\\n'
    """
    if cwd is not None:
        return subprocess.run([sys.executable] + list(args), env=environment(env), cwd=cwd,
                              **kwargs)
    with tempfile.TemporaryDirectory(prefix="dnnl-child-") as tmp:
        return subprocess.run([sys.executable] + list(args), env=environment(env), cwd=tmp,
                              **kwargs)
