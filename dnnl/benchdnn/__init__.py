"""``python -m dnnl.benchdnn``: oneDNN's benchdnn for this library's reorder
and resampling primitives (same options, batch files, result lines and
summary). See docs/benchdnn.md."""
import sys

#: the modules whose drivers register themselves (driver.register)
DRIVER_MODULES = ("dnnl.benchdnn.reorder", "dnnl.benchdnn.resampling")


def main(argv=None, out=None, err=None):
    """Run benchdnn with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    from importlib import import_module

    from dnnl.benchdnn.common import Bench
    from dnnl.benchdnn.driver import DRIVERS
    for name in DRIVER_MODULES:
        import_module(name)
    return Bench(DRIVERS, out, err).main(list(sys.argv[1:] if argv is None else argv))
