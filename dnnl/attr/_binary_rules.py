"""Binary post-op operands against the destination: which dims src1 is
indexed along, which it is broadcast along, and the shapes oneDNN accepts."""
from dnnl._core.enums import data_type
from dnnl._core.error import invalid


def _dims_of(x):
    if hasattr(x, "dims"):
        return tuple(int(d) for d in x.dims)
    return tuple(int(d) for d in x)


def binary_src1_mask(dst_dims, src1_dims):
    """Mask of the dims along which src1 is *indexed* (not broadcast).

    Bit ``d`` is set when ``src1_dims[d] == dst_dims[d]`` (the reference's
    ``get_dims_mask``); in the other dims index 0 of src1 is used for every
    dst index. Per tensor = all bits, per channel on a 4-D dst = ``0b0010``,
    a single value = 0.

    >>> binary_src1_mask((2, 3, 4, 5), (1, 3, 1, 1))
    2
    >>> binary_src1_mask((2, 3), (2, 3)), binary_src1_mask((2, 3), (1, 1))
    (3, 0)
    """
    dst_dims, src1_dims = _dims_of(dst_dims), _dims_of(src1_dims)
    mask = 0
    for d, (a, b) in enumerate(zip(dst_dims, src1_dims)):
        if a == b:
            mask |= 1 << d
    return mask


def binary_broadcast_dims(dst_dims, src1_dims):
    """Tuple of booleans: True where src1 is broadcast (src1 dim 1, dst dim not 1).

    >>> binary_broadcast_dims((2, 3, 4), (1, 3, 1))
    (True, False, True)
    """
    dst_dims, src1_dims = _dims_of(dst_dims), _dims_of(src1_dims)
    return tuple(b == 1 and a != 1 for a, b in zip(dst_dims, src1_dims))


def check_binary_src1(dst_desc, src1_desc, what="binary post-op src1"):
    """Validate a binary post-op operand against the destination (at pd creation).

    Raises ``invalid_arguments`` when ndims differ, when src1 is f64, or when
    a src1 dim is neither 1 nor the dst dim (real oneDNN's reference does
    not check the last rule and reads index 0; we follow the documented
    shapes). Returns :func:`binary_src1_mask`.

    >>> check_binary_src1((4, 3), (1, 3))
    2
    >>> check_binary_src1((4, 3), (3,))
    Traceback (most recent call last):
    ...
    dnnl.invalid_arguments: binary post-op src1 has 1 dims, the destination 2 (status invalid_arguments)
    """
    dst_dims, src1_dims = _dims_of(dst_desc), _dims_of(src1_desc)
    if len(src1_dims) != len(dst_dims):
        raise invalid("%s has %d dims, the destination %d"
                      % (what, len(src1_dims), len(dst_dims)))
    if getattr(src1_desc, "data_type", None) == data_type.f64:
        raise invalid("%s cannot be f64" % what)
    for d, (a, b) in enumerate(zip(dst_dims, src1_dims)):
        if b != 1 and b != a:
            raise invalid("%s dim %d is %d: must be 1 or the destination's %d"
                          % (what, d, b, a))
    return binary_src1_mask(dst_dims, src1_dims)
