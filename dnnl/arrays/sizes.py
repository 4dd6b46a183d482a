"""The resampling functions' output sizes and scale factors, as the array
functions take them: integer sizes (a float is refused, not truncated),
real factors, and the output size of a factor (PyTorch's rule)."""
import math

import numpy as np

from dnnl._core.args import a_type, integers, short
from dnnl._core.error import invalid, invalid_type, wrong_type


def sizes(size, k, hint=lambda count: ""):
    """Output sizes: integers only, as every dim (docs/errors.md): a float,
    even 4.0, is refused rather than truncated. ``hint(count)``: what to add
    to the message when ``count`` sizes do not fit ``k`` spatial dims."""
    if not isinstance(size, (list, tuple, range, np.ndarray)):
        size = [size] * k
    try:
        out = list(integers(size, "size"))
    except invalid_type as e:
        raise wrong_type("%s: a size counts pixels (round it yourself, or pass "
                         "factors= for a scale)" % e.message) from None
    if len(out) != k:
        raise invalid("%d sizes given for %d spatial dims%s" % (len(out), k, hint(len(out))))
    if any(v < 0 for v in out):
        raise invalid("sizes must be non-negative, not %s" % short(out))
    return out


REAL = (int, float, np.integer, np.floating)


def factors(values, k, hint=lambda count: ""):
    """Scale factors: real numbers (no bool, no string); ``hint`` as for
    :func:`sizes`."""
    if not isinstance(values, (list, tuple, range, np.ndarray)):
        values = [values] * k
    for i, f in enumerate(values):
        if not isinstance(f, REAL) or isinstance(f, (bool, np.bool_)):
            raise wrong_type("factors[%d] must be a real number, not %s (%s)"
                             % (i, a_type(f), short(f)))
    if len(values) != k:
        raise invalid("%d factors given for %d spatial dims%s"
                      % (len(values), k, hint(len(values))))
    return [float(f) for f in values]


def factor_sizes(spatial, values):
    """The output sizes of ``factors``: PyTorch's ``floor(in * f)`` in double
    (``F.interpolate``'s rule), with each factor as given. The primitive's
    own rule stays oneDNN's, ``trunc(in * f32(f))`` (10 x 0.7 gives 6 there,
    ``0.7f`` being 0.699999988; 7 here)."""
    out = []
    for n, f in zip(spatial, values):
        v = float(n) * f
        if not math.isfinite(v) or v < 0:
            raise invalid("factor %r gives a %s output size: factors are finite and "
                          "non-negative" % (f, v))
        out.append(math.floor(v))
    return out


def value_key(v):
    """``v`` (sizes, factors) as part of a key: its values and their types,
    since a size of 4.0 is refused where 4 is taken, and a factor True where
    1 is (a list counts as the tuple of its items)."""
    t = type(v)
    if t is tuple or t is list:
        return tuple(v), tuple(map(type, v))
    return v, t


def check_empty(src_spatial, dst_spatial, backward):
    """Refuse a resampling from an empty spatial size to a non-empty one, as
    PyTorch and OpenCV do (oneDNN's primitive would write nothing)."""
    if 0 in src_spatial and 0 not in dst_spatial:
        raise invalid("%s spatial size %s is empty: nothing to %s %s from (PyTorch and "
                      "OpenCV refuse this too)"
                      % ("the input's" if not backward else "size",
                         short(list(src_spatial)),
                         "resample" if not backward else "take a gradient of a",
                         short(list(dst_spatial)) if not backward else "resampling"))
