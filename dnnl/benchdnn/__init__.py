"""``python -m dnnl.benchdnn``: oneDNN's benchdnn for this library's reorder
and resampling primitives (same options, batch files, result lines and
summary). See docs/benchdnn.md."""
import sys


def main(argv=None, out=None, err=None):
    """Run benchdnn with ``argv`` (default ``sys.argv[1:]``); the exit status."""
    from dnnl.benchdnn.common import Bench
    return Bench(out, err).main(list(sys.argv[1:] if argv is None else argv))
