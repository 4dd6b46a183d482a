"""``python -m dnnl.benchdnn``: oneDNN's benchdnn for this library's reorder
and resampling primitives (same options, batch files, result lines and
summary). See docs/benchdnn.md."""
import sys


def driver_modules():
    """The modules whose drivers register themselves (driver.register): the
    primitive kinds' (dnnl._core.registry), once each."""
    from dnnl._core import registry as _registry
    import dnnl     # noqa: F401 (its primitive modules register)
    return tuple(dict.fromkeys(r.benchdnn_driver for r in _registry.records()
                               if r.benchdnn_driver))


def main(argv=None, out=None, err=None):
    """Run benchdnn with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    from importlib import import_module

    from dnnl.benchdnn.common import Bench
    from dnnl.benchdnn.driver import DRIVERS
    for name in driver_modules():
        import_module(name)
    return Bench(DRIVERS, out, err).main(list(sys.argv[1:] if argv is None else argv))
