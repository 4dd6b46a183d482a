"""Quantization entries: one argument's scales, zero points or precomputed
reductions (``quant_entry``), and the rules oneDNN checks them by
(``primitive_attr_quant.hpp``: which args take them, in which data types,
with which groups)."""
import collections

from dnnl._core.dtypes import INTEGRAL
from dnnl._core.enums import C, data_type, quantization_mode
from dnnl._core.error import invalid

INT_MIN = -2 ** 31

ARG_SRC = C["DNNL_ARG_SRC"]
ARG_SRC_1 = C["DNNL_ARG_SRC_1"]
ARG_SRC_2 = C["DNNL_ARG_SRC_2"]
ARG_DST = C["DNNL_ARG_DST"]
ARG_WEIGHTS = C["DNNL_ARG_WEIGHTS"]
ARG_WEIGHTS_1 = C["DNNL_ARG_WEIGHTS_1"]
ARG_WEIGHTS_2 = C["DNNL_ARG_WEIGHTS_2"]
ARG_DIFF_SRC = C["DNNL_ARG_DIFF_SRC"]
ARG_DIFF_WEIGHTS = C["DNNL_ARG_DIFF_WEIGHTS"]
ARG_MULTIPLE_SRC = C["DNNL_ARG_MULTIPLE_SRC"]
ARG_ATTR_POST_OP_DW = C["DNNL_ARG_ATTR_POST_OP_DW"]


# ------------------------------------------------------ quantization entry
class quant_entry(collections.namedtuple(
        "quant_entry", "mask data_type groups is_on_host qmode")):
    """One argument's scales / zero points / precomputed reductions.

    ``mask``: bit ``d`` set = one value per index of logical dim ``d``;
    ``groups``: ``()`` or two group sizes on the last two dims;
    ``data_type``: element type of the execution-time buffer passed as
    ``DNNL_ARG_ATTR_SCALES | arg`` (or ``..._ZERO_POINTS | arg``);
    ``is_on_host``: a host-scalar memory is expected; ``qmode``:
    :class:`dnnl.quantization_mode`.

    >>> e = quant_entry(2, data_type.f32, (), False, quantization_mode.static_sazp)
    >>> e.group(0), e.group(-1), e.group(5)
    (1, 1, 1)
    """

    __slots__ = ()

    @property
    def group_ndims(self):
        return len(self.groups)

    def group(self, d):
        """``get_group(d)``: 1 without groups, negative ``d`` counts from the end,
        0 when out of range."""
        if not self.groups:
            return 1
        n = len(self.groups)
        if d < 0:
            d += n
        return self.groups[d] if 0 <= d < n else 0

    def has_default_values(self):
        return self == DEFAULT_QUANT_ENTRY

    def md_dims(self, dims):
        """Dims of the value buffer for a tensor with logical ``dims``.

        Masked dims keep their size, the others become 1; with groups the
        last two dims are divided by the group sizes (``quant_entry_t::get_md``).

        >>> quant_entry(2, data_type.f32, (), False, 1).md_dims((4, 3, 5))
        (1, 3, 1)
        """
        out = [d if (self.mask >> i) & 1 else 1 for i, d in enumerate(dims)]
        if self.groups and len(out) >= 2:
            for k in (0, 1):
                i = len(out) - 2 + k
                if (self.mask >> i) & 1:
                    out[i] = out[i] // self.groups[k]
        return tuple(out)

    def count(self, dims):
        """Number of values the buffer holds for a tensor with ``dims``."""
        n = 1
        for d in self.md_dims(dims):
            n *= d
        return n


#: The entry of an arg that was never configured (mask ``INT_MIN``).
DEFAULT_QUANT_ENTRY = quant_entry(INT_MIN, data_type.undef, (), False, quantization_mode.undef)

SCALE_DTS = frozenset({data_type.f32, data_type.bf16, data_type.f16, data_type.e8m0,
                        data_type.f8_e4m3})
ZP_DTS = INTEGRAL - {data_type.s64}     # oneDNN takes every integer type but s64
ZP_GROUP_ARGS = frozenset({ARG_SRC, ARG_WEIGHTS, ARG_WEIGHTS_1, ARG_WEIGHTS_2})
ZP_ARGS = frozenset({ARG_SRC, ARG_WEIGHTS, ARG_DST, ARG_SRC_2, ARG_WEIGHTS_1, ARG_WEIGHTS_2})
ROUNDING_ARGS = frozenset({ARG_DST, ARG_DIFF_SRC, ARG_DIFF_WEIGHTS})


def scale_arg_ok(arg):
    """``scales_t::check_arg``."""
    if arg in (ARG_SRC, ARG_WEIGHTS, ARG_DST, ARG_SRC_1, ARG_SRC_2, ARG_WEIGHTS_1,
               ARG_WEIGHTS_2):
        return True
    if arg & ARG_MULTIPLE_SRC:
        return True
    return arg in (ARG_ATTR_POST_OP_DW | ARG_SRC, ARG_ATTR_POST_OP_DW | ARG_WEIGHTS,
                   ARG_ATTR_POST_OP_DW | ARG_DST)


def check_groups(mask, groups, is_on_host):
    if groups and any(g <= 0 for g in groups):
        raise invalid("group dims must be positive, got %r" % (groups,))
    if len(groups) not in (0, 2):
        raise invalid("groups must have 0 or 2 dims, got %d" % len(groups))
    if is_on_host and (mask != 0 or groups):
        raise invalid("a host-scalar quantization value requires mask 0 and no groups")
    if mask < 0:
        raise invalid("mask must be non-negative, got %d" % mask)
    if groups and mask <= 0:
        raise invalid("groups require a non-zero mask")


# Users import the classes from dnnl.attr: it is their module for pickles
# (Dask's), reprs and the docs.
for _cls in (quant_entry,):
    _cls.__module__ = "dnnl.attr"
del _cls
# The classes' docstrings run as doctests in dnnl.attr, their __module__;
# the examples of their methods run here, where the methods are defined.
__test__ = {"quant_entry." + name: f for name, f in vars(quant_entry).items()
            if ">>>" in (getattr(f, "__doc__", None) or "")}
