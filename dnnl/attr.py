"""Primitive attributes and post-ops: ``dnnl.primitive_attr``, ``dnnl.post_ops``.

Both classes are shaped like oneDNN 3.13's C++ API (``dnnl::primitive_attr``,
``dnnl::post_ops``) and validate their arguments exactly as the C API does
(``src/common/primitive_attr.cpp``, ``primitive_attr_quant.hpp``): a bad
argument raises :class:`dnnl.error` carrying the status oneDNN returns
(``invalid_arguments`` for bad values, ``out_of_memory`` for a 33rd post-op).

Primitives copy the attribute they are created with (:meth:`primitive_attr.copy`),
so changing or deleting an attribute afterwards changes nothing. What a
primitive reads:

* ``attr.scales`` / ``attr.zero_points`` / ``attr.precomputed_reductions``:
  read-only mappings ``arg -> quant_entry(mask, data_type, groups,
  is_on_host, qmode)``; an arg that was never set is absent (its C-side
  "default entry" is :data:`DEFAULT_QUANT_ENTRY`, mask ``INT_MIN``);
* ``attr.post_ops_``: the attribute's own :class:`post_ops` (do not modify);
  its ``entries`` are immutable named tuples (:class:`sum_entry`,
  :class:`eltwise_entry`, :class:`binary_entry`, :class:`prelu_entry`,
  :class:`dw_entry`);
* :meth:`primitive_attr.non_default_parts` to reject what a primitive does
  not support with ``unimplemented``.
"""
import collections
import functools
import math
import struct
import types

import numpy as np

from dnnl import _args, _format, _keys
from dnnl._settings import settings
from dnnl._dtypes import INTEGRAL, as_data_type
from dnnl._enums import (C, accumulation_mode, algorithm, data_type, fpmath_mode,
                         primitive_kind, quantization_mode, rounding_mode,
                         scratchpad_mode, status)
from dnnl._error import error, invalid, wrong_type

__all__ = ["primitive_attr", "post_ops", "quant_entry", "sum_entry", "eltwise_entry",
           "binary_entry", "prelu_entry", "dw_entry", "DEFAULT_QUANT_ENTRY",
           "set_default_fpmath_mode", "get_default_fpmath_mode",
           "binary_src1_mask", "binary_broadcast_dims", "check_binary_src1",
           "POST_OPS_LIMIT", "is_runtime_f32"]

#: ``post_ops_t::post_ops_limit``.
POST_OPS_LIMIT = 32
INT_MIN = -2 ** 31
_RUNTIME_F32_BITS = 0x7FC000D0  # DNNL_RUNTIME_F32_VAL
_RUNTIME_DIM = C["DNNL_RUNTIME_DIM_VAL"]

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

_ELTWISE_ALGS = frozenset(v for n, v in C.items() if n.startswith("dnnl_eltwise_"))
_BINARY_ALGS = frozenset(v for n, v in C.items() if n.startswith("dnnl_binary_"))
_CLIP_ALGS = frozenset({algorithm.eltwise_clip, algorithm.eltwise_clip_v2,
                        algorithm.eltwise_clip_v2_use_dst_for_bwd})
_ALPHA_NONNEG_ALGS = frozenset({algorithm.eltwise_relu_use_dst_for_bwd,
                                algorithm.eltwise_elu_use_dst_for_bwd})


# --------------------------------------------------------------- helpers
def _f32(x, what="value"):
    """``x`` rounded to f32, as a Python float (the C API takes ``float``).

    Real numbers only (int, float, numpy scalars); strings and bools are
    type errors, an int beyond the double range a value error.
    """
    if isinstance(x, (bool, np.bool_, str, bytes)) or not isinstance(
            x, (int, float, np.integer, np.floating)):
        raise wrong_type("%s must be a number, not %s (%s)"
                               % (what, _args.a_type(x), _args.short(x)))
    try:
        v = float(x)
    except OverflowError:
        raise invalid("%s %s does not fit a float" % (what, _args.short(x))) from None
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def is_runtime_f32(x):
    """True if ``x`` is ``DNNL_RUNTIME_F32_VAL`` (the NaN 0x7fc000d0).

    >>> is_runtime_f32(struct.unpack("<f", struct.pack("<I", 0x7fc000d0))[0])
    True
    >>> is_runtime_f32(float("nan"))
    False
    """
    try:
        return struct.unpack("<I", struct.pack("<f", float(x)))[0] == _RUNTIME_F32_BITS
    except (OverflowError, TypeError, ValueError):
        return False


def _oom(message):
    """An ``out_of_memory`` dnnl.error (also a MemoryError)."""
    try:
        return error(status.out_of_memory, message)
    except TypeError:
        # MemoryError.__new__ refuses the multiple-inheritance subclass when
        # called through super(); build it with Exception.__new__.
        cls = error._by_status.get(int(status.out_of_memory), error)
        exc = Exception.__new__(cls, status.out_of_memory, message)
        exc.__init__(status.out_of_memory, message)
        return exc


def _feq(a, b):
    """Float equality treating NaN == NaN (oneDNN's ``equal_with_nan``)."""
    return a == b or (a != a and b != b)


def _int(x, what, bits=32):
    """An integer parameter of C type ``int`` (``bits=64``: ``dnnl_dim_t``)."""
    v = _args.integer(x, what)
    if not -2 ** (bits - 1) <= v < 2 ** (bits - 1):
        raise invalid("%s %s does not fit a C %s" % (what, _args.short(v),
                                                     "int" if bits == 32 else "int64"))
    return v


def _enum(cls, value, what):
    v = _int(_args.not_another_enum(value, cls, what), what)
    try:
        return cls(v)
    except ValueError:
        raise invalid("invalid %s %d" % (what, v)) from None


def _dt(value):
    if value is None:
        return data_type.undef
    return as_data_type(value)


def _dt_stored(value):
    """A post-op data type as oneDNN stores it: the C API takes any int and
    keeps an unknown one (primitives then refuse it as unimplemented)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        try:
            return data_type(int(value))
        except ValueError:
            return int(value)
    return _dt(value)


def _groups(groups):
    if groups is None:
        return ()
    try:
        return tuple(_int(g, "group dim", 64) for g in groups)
    except TypeError:
        raise invalid("groups must be a sequence of ints, got %r" % (groups,)) from None


def _alg(value, what="algorithm"):
    v = _int(_args.not_another_enum(value, algorithm, what), what)
    try:
        return algorithm(v)
    except ValueError:
        return v


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

_SCALE_DTS = frozenset({data_type.f32, data_type.bf16, data_type.f16, data_type.e8m0,
                        data_type.f8_e4m3})
_ZP_DTS = INTEGRAL - {data_type.s64}     # oneDNN takes every integer type but s64
_ZP_GROUP_ARGS = frozenset({ARG_SRC, ARG_WEIGHTS, ARG_WEIGHTS_1, ARG_WEIGHTS_2})
_ZP_ARGS = frozenset({ARG_SRC, ARG_WEIGHTS, ARG_DST, ARG_SRC_2, ARG_WEIGHTS_1, ARG_WEIGHTS_2})
_ROUNDING_ARGS = frozenset({ARG_DST, ARG_DIFF_SRC, ARG_DIFF_WEIGHTS})


def _scale_arg_ok(arg):
    """``scales_t::check_arg``."""
    if arg in (ARG_SRC, ARG_WEIGHTS, ARG_DST, ARG_SRC_1, ARG_SRC_2, ARG_WEIGHTS_1,
               ARG_WEIGHTS_2):
        return True
    if arg & ARG_MULTIPLE_SRC:
        return True
    return arg in (ARG_ATTR_POST_OP_DW | ARG_SRC, ARG_ATTR_POST_OP_DW | ARG_WEIGHTS,
                   ARG_ATTR_POST_OP_DW | ARG_DST)


def _check_groups(mask, groups, is_on_host):
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


# ------------------------------------------------------------ fpmath default
def get_default_fpmath_mode():
    """The fpmath mode new attributes start with (``dnnl_get_default_fpmath_mode``).

    ``strict`` unless :func:`set_default_fpmath_mode` or the environment
    variable ``ONEDNN_DEFAULT_FPMATH_MODE`` (``strict``, ``bf16``, ``f16``,
    ``tf32``, ``any``; read once, at the first call) changed it.

    >>> get_default_fpmath_mode() in set(fpmath_mode)
    True
    """
    return settings.fpmath_default()


def set_default_fpmath_mode(mode):
    """Change the fpmath mode of attributes created from now on.

    Existing attributes keep theirs. Returns ``status.success``; an invalid
    mode raises ``invalid_arguments`` (``dnnl_set_default_fpmath_mode``
    returns 2).

    >>> old = get_default_fpmath_mode()
    >>> set_default_fpmath_mode(fpmath_mode.bf16)
    <status.success: 0>
    >>> primitive_attr().get_fpmath_mode()
    <fpmath_mode.bf16: 1>
    >>> _ = set_default_fpmath_mode(old)
    """
    settings.default_fpmath_mode = _enum(fpmath_mode, mode, "fpmath mode")
    return status.success


# ------------------------------------------------------------ post-op entries
class sum_entry(collections.namedtuple("sum_entry", "scale zero_point data_type")):
    """``r += scale * (dst_old - zero_point)``; dt undef = the dst data type."""
    __slots__ = ()
    kind = primitive_kind.sum


class eltwise_entry(collections.namedtuple("eltwise_entry", "alg alpha beta scale")):
    """``r = eltwise(alg, r; alpha, beta) * scale`` (scale is 1.0 from the API)."""
    __slots__ = ()
    kind = primitive_kind.eltwise


class binary_entry(collections.namedtuple("binary_entry", "alg src1_desc src2_desc")):
    """``r = r (alg) src1[broadcast idx]``; ``select``: ``src2 ? r : src1``.

    The operand is passed at execution as
    ``DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1`` (``i`` = position
    in the whole chain).
    """
    __slots__ = ()
    kind = primitive_kind.binary


class prelu_entry(collections.namedtuple("prelu_entry", "mask")):
    """``r = r >= 0 ? r : w[idx] * r``."""
    __slots__ = ()
    kind = primitive_kind.prelu


class dw_entry(collections.namedtuple(
        "dw_entry", "weights_data_type bias_data_type dst_data_type kernel_size "
                    "stride_size padding_l_size")):
    """Fused depthwise convolution (convolution primitives only)."""
    __slots__ = ()
    kind = primitive_kind.convolution


def _entry_eq(a, b):
    if type(a) is not type(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, float) or isinstance(y, float):
            if not _feq(x, y):
                return False
        elif x != y:
            return False
    return True


def _memory_desc_class():
    try:
        from dnnl._desc import desc
        return desc
    except ImportError:  # pragma: no cover - during bring-up
        return None


def _check_binary_md(md, what):
    """``memory_desc_sanity_check`` + no runtime dims (append_binary)."""
    if md is None:
        raise invalid("%s is required" % what)
    cls = _memory_desc_class()
    if cls is not None and not isinstance(md, cls):
        raise invalid("%s must be a dnnl.memory.desc, got %r" % (what, type(md).__name__))
    dims = tuple(getattr(md, "dims", ()) or ())
    if any(d == _RUNTIME_DIM for d in dims):
        raise invalid("%s must not have runtime dimensions" % what)
    return md


# ------------------------------------------------------------------- post_ops
_NAN = ("nan",)     # every NaN parameter the same in a key, as _feq says


def _value_key(v):
    """A hashable stand-in for one attribute field: tuples, namedtuples (by
    type) and dicts (sorted) taken apart, NaN made equal to NaN."""
    t = type(v)
    if t is float:
        return _NAN if v != v else v
    if t is dict:
        return (dict, tuple(sorted((k, _value_key(x)) for k, x in v.items())))
    if t is list or t is tuple:
        return (t, tuple([_value_key(x) for x in v]))
    if isinstance(v, tuple):       # the entries: a sum and an eltwise may hold equal numbers
        return (t, tuple([_value_key(x) for x in v]))
    if t is post_ops:
        return v.cache_key()
    return v


class post_ops:
    """An ordered chain of post-operations (``dnnl::post_ops``).

    Post-ops run, in append order, on the f32 result of a primitive before
    its final conversion to the destination data type. At most 32 entries.

    Examples
    --------
    >>> import dnnl
    >>> po = post_ops()
    >>> po.append_sum(0.5)
    >>> po.append_eltwise(dnnl.algorithm.eltwise_relu, 0.1, 0.0)
    >>> len(po), po.kind(0), po.kind(1)
    (2, <primitive_kind.sum: 4>, <primitive_kind.eltwise: 7>)
    >>> po.get_params_sum(0)
    (0.5, 0, <data_type.undef: 0>)
    >>> alg, alpha, beta = po.get_params_eltwise(1)
    >>> alg, round(alpha, 6), beta
    (<algorithm.eltwise_relu: 32>, 0.1, 0.0)

    See Also
    --------
    dnnl_post_ops_create, dnnl_post_ops_append_sum, dnnl_post_ops_get_kind
    """

    __slots__ = ("_entries",)

    def __init__(self):
        self._entries = []

    # -- container
    @property
    def entries(self):
        """The entries as an immutable tuple (what primitives iterate)."""
        return tuple(self._entries)

    def len(self):
        """Number of entries (``dnnl_post_ops_len``)."""
        return len(self._entries)

    def __len__(self):
        return len(self._entries)

    def __iter__(self):
        return iter(tuple(self._entries))

    def __eq__(self, other):
        if not isinstance(other, post_ops):
            return NotImplemented
        return (len(self._entries) == len(other._entries)
                and all(_entry_eq(a, b) for a, b in zip(self._entries, other._entries)))

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def copy(self):
        """A deep copy (``dnnl_post_ops_clone``); entries are immutable."""
        new = post_ops.__new__(post_ops)
        new._entries = list(self._entries)
        return new

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self):
        return "<dnnl.post_ops %s>" % (_format.post_ops_str(self._entries) or "empty")

    def has_default_values(self):
        return not self._entries

    def cache_key(self):
        """The post-ops as a hashable value, for the primitive cache: equal
        for equal post-ops (NaN parameters included), different otherwise."""
        return tuple([_value_key(e) for e in self._entries])

    def _append(self, entry):
        if len(self._entries) >= POST_OPS_LIMIT:
            raise _oom("post-ops already hold the maximum of %d entries" % POST_OPS_LIMIT)
        self._entries.append(entry)

    def _get(self, index, cls):
        index = _int(index, "index")
        if index < 0 or index >= len(self._entries):
            raise invalid("post-op index %d out of range [0, %d)" % (index, len(self._entries)))
        e = self._entries[index]
        if cls is not None and not isinstance(e, cls):
            raise invalid("post-op %d is a %s, not a %s"
                          % (index, e.kind.name, cls.kind.name))
        return e

    def kind(self, index):
        """The kind of entry ``index``: sum, eltwise, binary, prelu or convolution.

        An index outside ``[0, len)`` raises ``invalid_arguments`` (the C++
        API throws for ``index >= len``).
        """
        return self._get(index, None).kind

    # -- sum
    def append_sum(self, scale=1.0, zero_point=0, data_type=None):
        """Append ``dst = r + scale * (dst_old - zero_point)``.

        ``data_type`` (default undef = same as the destination) reinterprets
        the destination memory; it must have the dst type's size. ``scale``
        equal to ``DNNL_RUNTIME_F32_VAL`` is invalid.

        >>> po = post_ops(); po.append_sum(2.0, 3, "s8"); po.get_params_sum(0)
        (2.0, 3, <data_type.s8: 5>)
        """
        s = _f32(scale, "scale")
        if is_runtime_f32(s):
            raise invalid("sum scale cannot be DNNL_RUNTIME_F32_VAL")
        zp = _int(zero_point, "zero point")
        if not INT_MIN <= zp < 2 ** 31:
            raise invalid("zero point %d does not fit int32" % zp)
        self._append(sum_entry(s, zp, _dt_stored(data_type)))

    def get_params_sum(self, index):
        """``(scale, zero_point, data_type)`` of sum entry ``index``."""
        e = self._get(index, sum_entry)
        return (e.scale, e.zero_point, e.data_type)

    # -- eltwise
    def append_eltwise(self, alg, alpha=0.0, beta=0.0):
        """Append ``r = eltwise(alg, r; alpha, beta)``.

        Validation (``math::is_eltwise_ok``): ``alg`` must be an eltwise
        algorithm; clip / clip_v2 / clip_v2_use_dst_for_bwd need
        ``beta >= alpha``; relu / elu ``_use_dst_for_bwd`` need
        ``alpha >= 0``; alpha and beta must not be ``DNNL_RUNTIME_F32_VAL``.
        Everything else raises ``invalid_arguments``.

        >>> import dnnl
        >>> po = post_ops()
        >>> po.append_eltwise(dnnl.algorithm.eltwise_clip, 5.0, 1.0)
        Traceback (most recent call last):
        ...
        dnnl.invalid_arguments: eltwise_clip needs beta >= alpha (status invalid_arguments)
        """
        a = _alg(alg)
        if a not in _ELTWISE_ALGS:
            raise invalid("%r is not an eltwise algorithm" % (alg,))
        al, be = _f32(alpha, "alpha"), _f32(beta, "beta")
        if is_runtime_f32(al) or is_runtime_f32(be):
            raise invalid("eltwise alpha/beta cannot be DNNL_RUNTIME_F32_VAL")
        if a in _CLIP_ALGS and not be >= al:
            raise invalid("%s needs beta >= alpha" % a.name)
        if a in _ALPHA_NONNEG_ALGS and not al >= 0:
            raise invalid("%s needs alpha >= 0" % a.name)
        self._append(eltwise_entry(a, al, be, 1.0))

    def get_params_eltwise(self, index):
        """``(alg, alpha, beta)`` of eltwise entry ``index``."""
        e = self._get(index, eltwise_entry)
        return (e.alg, e.alpha, e.beta)

    # -- binary
    def append_binary(self, alg, src1_desc, src2_desc=None):
        """Append ``r = r (alg) src1``; ``binary_select`` also takes ``src2_desc``.

        ``alg`` is one of binary add, mul, max, min, div, sub, ge, gt, le, lt,
        eq, ne, select. The descriptors must have no runtime dims; their
        shape and data type are checked when a primitive is created
        (:func:`check_binary_src1`). ``select`` without ``src2_desc`` raises
        ``invalid_arguments`` (real oneDNN dereferences NULL there).
        """
        a = _alg(alg)
        if a not in _BINARY_ALGS:
            raise invalid("%r is not a binary algorithm" % (alg,))
        _check_binary_md(src1_desc, "src1_desc")
        if a == algorithm.binary_select:
            _check_binary_md(src2_desc, "src2_desc")
        elif src2_desc is not None:
            _check_binary_md(src2_desc, "src2_desc")
        self._append(binary_entry(a, src1_desc, src2_desc))

    def get_params_binary(self, index):
        """``(alg, src1_desc)`` of binary entry ``index``."""
        e = self._get(index, binary_entry)
        return (e.alg, e.src1_desc)

    def get_params_binary_v2(self, index):
        """``(alg, src1_desc, src2_desc)``; ``src2_desc`` is None if not given."""
        e = self._get(index, binary_entry)
        return (e.alg, e.src1_desc, e.src2_desc)

    # -- prelu
    def append_prelu(self, mask):
        """Append PReLU with f32 weights over the dims set in ``mask``
        (``mask`` is not validated here, as in oneDNN)."""
        self._append(prelu_entry(_int(mask, "mask")))

    def get_params_prelu(self, index):
        """The mask of prelu entry ``index``."""
        return self._get(index, prelu_entry).mask

    # -- depthwise
    def append_dw(self, weights_data_type, bias_data_type, dst_data_type, kernel_size,
                  stride_size, padding_l_size):
        """Append a fused depthwise convolution (stored only; no primitive here
        supports it)."""
        wdt, bdt, ddt = (_dt_stored(weights_data_type), _dt_stored(bias_data_type),
                         _dt_stored(dst_data_type))
        k, s, p = (_int(kernel_size, "kernel", 64), _int(stride_size, "stride", 64),
                   _int(padding_l_size, "padding", 64))
        if wdt == data_type.undef or ddt == data_type.undef:
            raise invalid("dw weights/dst data types must be defined")
        # oneDNN's post_ops_t::append_dw (src/common/primitive_attr.cpp):
        # kernel > 0, stride > 0, padding_l + 1 <= kernel; a negative padding
        # is accepted
        if k <= 0 or s <= 0 or p + 1 > k:
            raise invalid("bad dw kernel/stride/padding %d/%d/%d" % (k, s, p))
        self._append(dw_entry(wdt, bdt, ddt, k, s, p))

    def get_params_dw(self, index):
        """``(weights_dt, bias_dt, dst_dt, kernel, stride, padding_l)``."""
        return tuple(self._get(index, dw_entry))

    # -- pickling (to worker processes): the entries, which are values
    def __reduce__(self):
        return (post_ops, (), (None, {"_entries": list(self._entries)}))


# ---------------------------------------------------------- binary broadcast
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


# -------------------------------------------------------------- rnn qparams
def _rnn_scales(mask, scales):
    m = _int(mask, "mask")
    if scales is None:
        raise invalid("scales are required")
    if isinstance(scales, (int, float)):
        scales = [scales]
    if isinstance(scales, (str, bytes, dict, set, frozenset)) or not hasattr(scales, "__iter__"):
        raise wrong_type("scales must be a number or a sequence of numbers, not %s"
                         % _args.a_type(scales))
    vals = [_f32(s, "scales[%d]" % i) for i, s in enumerate(scales)]
    if len(vals) <= 0:
        raise invalid("scales must not be empty (count <= 0)")
    if m < 0:
        raise invalid("mask must be non-negative, got %d" % m)
    if is_runtime_f32(vals[0]):
        return (m, len(vals), (vals[0],))
    return (m, len(vals), tuple(vals))


_DEFAULT_RNN_W = (0, 1, (1.0,))


def _rnn_w_default(q):
    return all(v == 1.0 for v in q[2])


def _rnn_w_eq(a, b):
    return (a[0] == b[0] and a[1] == b[1] and len(a[2]) == len(b[2])
            and all(_feq(x, y) for x, y in zip(a[2], b[2])))


# ------------------------------------------------------------ primitive_attr
def _mutator(method):
    """A primitive_attr setter: it drops the cached cache key first (even a
    setter that raises may have changed a field)."""
    @functools.wraps(method)
    def setter(self, *args, **kwargs):
        self._key = None
        return method(self, *args, **kwargs)
    return setter


class primitive_attr:
    """Attributes of a primitive (``dnnl::primitive_attr``).

    Primitives copy the attribute at creation; later changes do not affect
    them. Attributes compare equal field by field (NaN == NaN), as oneDNN's
    primitive cache does.

    Examples
    --------
    >>> import dnnl
    >>> a = primitive_attr()
    >>> a.get_scratchpad_mode(), a.get_accumulation_mode()
    (<scratchpad_mode.library: 0>, <accumulation_mode.strict: 0>)
    >>> a.set_scales_mask(C["DNNL_ARG_DST"], 2)   # per channel (dim 1)
    >>> a.scales[C["DNNL_ARG_DST"]].mask
    2
    >>> a.has_default_values(), sorted(a.non_default_parts())
    (False, ['scales'])
    >>> b = a.copy(); b == a
    True
    >>> a.set_scales_mask(C["DNNL_ARG_BIAS"], 0)
    Traceback (most recent call last):
    ...
    dnnl.invalid_arguments: arg 41 cannot have scales (status invalid_arguments)

    See Also
    --------
    dnnl_primitive_attr_create, dnnl_primitive_attr_clone
    """

    __slots__ = ("_scratchpad", "_fpmath", "_apply_to_int", "_acc", "_deterministic",
                 "_scales", "_zero_points", "_reductions", "_rounding", "_post_ops",
                 "_rnn_data", "_rnn_weights", "_rnn_weights_proj", "_dropout", "_key")

    def __init__(self):
        self._key = None    # the primitive cache's snapshot, until the next setter
        self._scratchpad = scratchpad_mode.library
        self._fpmath = get_default_fpmath_mode()
        self._apply_to_int = False
        self._acc = accumulation_mode.strict
        self._deterministic = False
        self._scales = {}
        self._zero_points = {}
        self._reductions = {}
        self._rounding = {}
        self._post_ops = post_ops()
        self._rnn_data = (1.0, 0.0)
        self._rnn_weights = _DEFAULT_RNN_W
        self._rnn_weights_proj = _DEFAULT_RNN_W
        self._dropout = None  # or (mask_desc, seed_dt, use_offset, use_host_scalars)

    # ---------------------------------------------------------- copying
    def copy(self):
        """An independent copy (``dnnl_primitive_attr_clone``)."""
        new = primitive_attr.__new__(primitive_attr)
        for name in primitive_attr.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("_scales", "_zero_points", "_reductions", "_rounding"):
            setattr(new, name, dict(getattr(self, name)))
        new._post_ops = self._post_ops.copy()
        new._key = None     # an _AttrToken would still name self
        return new

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __eq__(self, other):
        if not isinstance(other, primitive_attr):
            return NotImplemented
        return (self._scratchpad == other._scratchpad
                and self._fpmath == other._fpmath
                and self._apply_to_int == other._apply_to_int
                and self._acc == other._acc
                and self._deterministic == other._deterministic
                and self._scales == other._scales
                and self._zero_points == other._zero_points
                and self._reductions == other._reductions
                and self._rounding == other._rounding
                and self._post_ops == other._post_ops
                and _feq(self._rnn_data[0], other._rnn_data[0])
                and _feq(self._rnn_data[1], other._rnn_data[1])
                and _rnn_w_eq(self._rnn_weights, other._rnn_weights)
                and _rnn_w_eq(self._rnn_weights_proj, other._rnn_weights_proj)
                and self._dropout == other._dropout)

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def cache_key(self):
        """The primitive cache's key of these attributes: a token, the same
        object for equal attributes, kept until the next setter call. Made
        of every field (``__slots__``), so a new field cannot be left out."""
        key = self._key
        if key is None:
            value = tuple([_value_key(getattr(self, n)) for n in _KEYED_FIELDS])
            try:
                key = _keys.token(value)
            except TypeError:       # a field that does not hash: compare by ==
                key = _UnhashableAttrKey(self)
            self._key = key
        return key

    def __repr__(self):
        return "<dnnl.primitive_attr %s>" % (self.to_str() or "default")

    def to_str(self):
        """The non-default fields as oneDNN's verbose prints them (empty if none)."""
        return _format.attr_str(self)

    # ------------------------------------------------------ default checks
    def non_default_parts(self, dst_data_type=None):
        """Names of the non-default parts, as oneDNN's ``has_default_values`` sees them.

        Possible names: ``"scales"``, ``"zero_points"``,
        ``"precomputed_reductions"``, ``"post_ops"``, ``"rnn_data_qparams"``,
        ``"rnn_weights_qparams"``, ``"rnn_weights_projection_qparams"``,
        ``"dropout"``, ``"rounding_mode"``, ``"accumulation_mode"``
        (s32/f32/f16 only), ``"fpmath_mode"`` (only ``apply_to_int`` with a
        non-strict mode). Never reported: scratchpad mode, deterministic,
        fpmath without ``apply_to_int``, accumulation strict/relaxed/any.
        With ``dst_data_type``, a sum post-op whose data type is neither
        undef nor ``dst_data_type`` adds ``"sum_data_type"``.

        A primitive supporting, say, scales and post-ops rejects the rest::

            if attr.non_default_parts() - {"scales", "post_ops"}:
                raise dnnl.error(dnnl.status.unimplemented, "...")
        """
        parts = set()
        if self._scales:
            parts.add("scales")
        if self._zero_points:
            parts.add("zero_points")
        if self._reductions:
            parts.add("precomputed_reductions")
        if self._post_ops._entries:
            parts.add("post_ops")
            if dst_data_type is not None:
                ddt = _dt(dst_data_type)
                for e in self._post_ops._entries:
                    if isinstance(e, sum_entry) and e.data_type not in (data_type.undef, ddt):
                        parts.add("sum_data_type")
        if self._rnn_data != (1.0, 0.0):
            parts.add("rnn_data_qparams")
        if not _rnn_w_default(self._rnn_weights):
            parts.add("rnn_weights_qparams")
        if not _rnn_w_default(self._rnn_weights_proj):
            parts.add("rnn_weights_projection_qparams")
        if self._dropout is not None:
            parts.add("dropout")
        if any(m != rounding_mode.environment for m in self._rounding.values()):
            parts.add("rounding_mode")
        if self._acc not in (accumulation_mode.strict, accumulation_mode.relaxed,
                             accumulation_mode.any):
            parts.add("accumulation_mode")
        if self._apply_to_int and self._fpmath != fpmath_mode.strict:
            parts.add("fpmath_mode")
        return frozenset(parts)

    def has_default_values(self, skip=(), dst_data_type=None):
        """True if no part outside ``skip`` is non-default (see :meth:`non_default_parts`).

        >>> a = primitive_attr(); a.set_scratchpad_mode(scratchpad_mode.user)
        >>> a.set_fpmath_mode(fpmath_mode.bf16); a.has_default_values()
        True
        >>> a.set_fpmath_mode(fpmath_mode.bf16, True); a.has_default_values()
        False
        """
        if skip is None:
            skip = ()
        elif isinstance(skip, str):
            skip = (skip,)
        elif not hasattr(skip, "__iter__") or not all(isinstance(p, str) for p in skip):
            raise wrong_type("skip must be part names (strings), not %s"
                                   % _args.short(skip))
        return not (self.non_default_parts(dst_data_type) - frozenset(skip))

    # ------------------------------------------------------ scratchpad
    def get_scratchpad_mode(self):
        """``scratchpad_mode.library`` (default) or ``scratchpad_mode.user``."""
        return self._scratchpad

    @_mutator
    def set_scratchpad_mode(self, mode):
        """Set the scratchpad mode; values other than library (0) / user (1)
        raise ``invalid_arguments``."""
        self._scratchpad = _enum(scratchpad_mode, mode, "scratchpad mode")

    # ------------------------------------------------------ fpmath
    def get_fpmath_mode(self, with_apply_to_int=False):
        """The fpmath mode; with ``with_apply_to_int=True`` the pair
        ``(mode, apply_to_int)`` (the C++ two-output overload)."""
        if with_apply_to_int:
            return (self._fpmath, self._apply_to_int)
        return self._fpmath

    def get_apply_to_int(self):
        """Whether the fpmath mode also applies to integer primitives."""
        return self._apply_to_int

    @_mutator
    def set_fpmath_mode(self, mode, apply_to_int=False):
        """Set the fpmath mode (strict, bf16, f16, tf32, any) and ``apply_to_int``.

        Like the C API, a call always resets ``apply_to_int`` to the value
        given (False by default).
        """
        m = _enum(fpmath_mode, mode, "fpmath mode")
        self._fpmath = m
        self._apply_to_int = bool(apply_to_int)

    # ------------------------------------------------------ accumulation, deterministic
    def get_accumulation_mode(self):
        return self._acc

    @_mutator
    def set_accumulation_mode(self, mode):
        """strict (0), relaxed, any, s32, f32, f16 (5); others raise ``invalid_arguments``."""
        self._acc = _enum(accumulation_mode, mode, "accumulation mode")

    def get_deterministic(self):
        return self._deterministic

    @_mutator
    def set_deterministic(self, value):
        self._deterministic = bool(value)

    # ------------------------------------------------------ rounding
    def get_rounding_mode(self, arg):
        """The rounding mode of ``arg`` (``environment`` if never set)."""
        return self._rounding.get(_int(arg, "arg"), rounding_mode.environment)

    @_mutator
    def set_rounding_mode(self, arg, mode):
        """Set ``arg``'s rounding mode. Anything but ``environment`` is only
        allowed for DST, DIFF_SRC and DIFF_WEIGHTS (``invalid_arguments``)."""
        a, m = _int(arg, "arg"), _int(mode, "rounding mode")
        if m != rounding_mode.environment and a not in _ROUNDING_ARGS:
            raise invalid("arg %d cannot have a non-environment rounding mode" % a)
        try:
            m = rounding_mode(m)
        except ValueError:
            pass
        self._rounding[a] = m

    @property
    def rounding_modes(self):
        """Read-only mapping ``arg -> rounding_mode`` of the set rounding modes."""
        return types.MappingProxyType(self._rounding)

    # ------------------------------------------------------ scales
    @property
    def scales(self):
        """Read-only mapping ``arg -> quant_entry`` of the configured scales."""
        return types.MappingProxyType(self._scales)

    @property
    def zero_points(self):
        """Read-only mapping ``arg -> quant_entry`` of the configured zero points."""
        return types.MappingProxyType(self._zero_points)

    @property
    def precomputed_reductions(self):
        """Read-only mapping ``arg -> quant_entry`` of precomputed reductions."""
        return types.MappingProxyType(self._reductions)

    def get_scales(self, arg):
        """The scales entry of ``arg`` (:data:`DEFAULT_QUANT_ENTRY` if unset)."""
        return self._scales.get(_int(arg, "arg"), DEFAULT_QUANT_ENTRY)

    def get_zero_points(self, arg):
        """The zero-points entry of ``arg`` (:data:`DEFAULT_QUANT_ENTRY` if unset)."""
        return self._zero_points.get(_int(arg, "arg"), DEFAULT_QUANT_ENTRY)

    def get_scales_mask(self, arg):
        """Mask of ``arg``'s scales; ``INT_MIN`` if never set (as oneDNN)."""
        return self.get_scales(arg).mask

    def get_zero_points_mask(self, arg):
        """Mask of ``arg``'s zero points; ``INT_MIN`` if never set."""
        return self.get_zero_points(arg).mask

    @_mutator
    def set_scales_mask(self, arg, mask):
        """Scales for ``arg``: f32 values over the dims set in ``mask``.

        ``mask = sum(2**d)`` over the dims with their own scale; 0 = one
        scale for the whole tensor. Invalid (``invalid_arguments``): negative
        mask or arg, or an arg that takes no scales (allowed: SRC, SRC_1,
        SRC_2, WEIGHTS, WEIGHTS_1, WEIGHTS_2, DST, MULTIPLE_SRC + i,
        ATTR_POST_OP_DW | SRC/WEIGHTS/DST).
        """
        a, m = _int(arg, "arg"), _int(mask, "mask")
        if m < 0:
            raise invalid("mask must be non-negative, got %d" % m)
        if a < 0 or not _scale_arg_ok(a):
            raise invalid("arg %d cannot have scales" % a)
        self._scales[a] = quant_entry(m, data_type.f32, (), False,
                                      quantization_mode.static_sazp)

    @_mutator
    def set_scales(self, arg, mask, groups=(), data_type=None, is_on_host=False,
                   qmode=quantization_mode.static_sazp):
        """Scales with groups, data type, host-scalar flag and quantization mode.

        ``dnnl_primitive_attr_set_scales_v3``. ``data_type`` (default f32) in
        f32, bf16, f16, e8m0, f8_e4m3 (the last two need ``mask > 0``);
        ``groups`` empty or two positive sizes (then ``mask > 0``); a host
        scalar needs mask 0 and no groups; ``qmode`` in static_sazp,
        dynamic_mx, dynamic_fp. Any violation: ``invalid_arguments``.
        """
        a, m = _int(arg, "arg"), _int(mask, "mask")
        g = _groups(groups)
        dt = _dt(data_type) if data_type is not None else _dt("f32")
        host = bool(is_on_host)
        if a < 0:
            raise invalid("arg must be non-negative, got %d" % a)
        q = _int(qmode, "quantization mode")
        if q not in (quantization_mode.static_sazp, quantization_mode.dynamic_mx,
                     quantization_mode.dynamic_fp):
            raise invalid("invalid quantization mode %d" % q)
        if dt not in _SCALE_DTS:
            raise invalid("scales cannot have data type %s" % dt.name)
        if dt in (_dt("e8m0"), _dt("f8_e4m3")) and m <= 0:
            raise invalid("%s scales need a non-zero mask" % dt.name)
        _check_groups(m, g, host)
        if not _scale_arg_ok(a):
            raise invalid("arg %d cannot have scales" % a)
        self._scales[a] = quant_entry(m, dt, g, host, quantization_mode(q))

    @_mutator
    def set_host_scale(self, arg, data_type=None):
        """A single scale passed as a host-scalar memory (mask 0)."""
        self.set_scales(arg, 0, (), data_type, True)

    # ------------------------------------------------------ zero points
    @_mutator
    def set_zero_points_mask(self, arg, mask):
        """s32 zero points for ``arg`` over the dims set in ``mask``.

        Allowed args: SRC, WEIGHTS, DST, SRC_2, WEIGHTS_1, WEIGHTS_2; a
        negative mask or another arg raise ``invalid_arguments``.
        """
        a, m = _int(arg, "arg"), _int(mask, "mask")
        if m < 0:
            raise invalid("mask must be non-negative, got %d" % m)
        if a not in _ZP_ARGS:
            raise invalid("arg %d cannot have zero points" % a)
        self._zero_points[a] = quant_entry(m, data_type.s32, (), False,
                                           quantization_mode.static_sazp)

    @_mutator
    def set_zero_points(self, arg, mask, groups=(), data_type=None, is_on_host=False):
        """Zero points with groups, data type and host-scalar flag (``_v2``).

        ``data_type`` (default s32) in s32, s8, u8, s4, u4 (s4/u4 need
        ``mask > 0``); args other than SRC/WEIGHTS/WEIGHTS_1/WEIGHTS_2 only
        take s32 without groups; group rules as for scales.
        """
        a, m = _int(arg, "arg"), _int(mask, "mask")
        g = _groups(groups)
        dt = _dt(data_type) if data_type is not None else _dt("s32")
        host = bool(is_on_host)
        if a < 0:
            raise invalid("arg must be non-negative, got %d" % a)
        if dt not in _ZP_DTS:
            raise invalid("zero points cannot have data type %s" % dt.name)
        if dt in (_dt("s4"), _dt("u4")) and m <= 0:
            raise invalid("%s zero points need a non-zero mask" % dt.name)
        if a not in _ZP_GROUP_ARGS and (dt != _dt("s32") or g):
            raise invalid("arg %d only takes s32 zero points without groups" % a)
        _check_groups(m, g, host)
        if a not in _ZP_ARGS:
            raise invalid("arg %d cannot have zero points" % a)
        self._zero_points[a] = quant_entry(m, dt, g, host, quantization_mode.static_sazp)

    @_mutator
    def set_host_zero_point(self, arg, data_type=None):
        """A single zero point passed as a host-scalar memory (mask 0)."""
        self.set_zero_points(arg, 0, (), data_type, True)

    @_mutator
    def set_precomputed_reductions(self, arg, mask, groups=(), data_type=None):
        """Precomputed reductions (a matmul feature): SRC/WEIGHTS, s32 only."""
        a, m = _int(arg, "arg"), _int(mask, "mask")
        g = _groups(groups)
        dt = _dt(data_type) if data_type is not None else _dt("s32")
        if a != ARG_SRC:    # oneDNN 3.13 takes DNNL_ARG_SRC only (measured)
            raise invalid("arg %d cannot have precomputed reductions (only "
                          "DNNL_ARG_SRC can)" % a)
        if dt != _dt("s32"):
            raise invalid("precomputed reductions must be s32")
        _check_groups(m, g, False)
        self._reductions[a] = quant_entry(m, dt, g, False, quantization_mode.static_sazp)

    # ------------------------------------------------------ post-ops
    def get_post_ops(self):
        """A copy of the post-ops (changing it does not change the attribute)."""
        return self._post_ops.copy()

    @_mutator
    def set_post_ops(self, ops):
        """Store a copy of ``ops`` (a :class:`post_ops`)."""
        if not isinstance(ops, post_ops):
            raise invalid("expected dnnl.post_ops, got %r" % (type(ops).__name__,))
        self._post_ops = ops.copy()

    @property
    def post_ops_(self):
        """The attribute's own post-ops, for primitives (treat as read-only)."""
        return self._post_ops

    # ------------------------------------------------------ RNN qparams
    @_mutator
    def set_rnn_data_qparams(self, scale, shift):
        """RNN data quantisation ``u8 = saturate(round(f32 * scale + shift))``
        (stored as given, no validation)."""
        self._rnn_data = (_f32(scale, "scale"), _f32(shift, "shift"))

    def get_rnn_data_qparams(self):
        """``(scale, shift)``; ``(1.0, 0.0)`` by default."""
        return self._rnn_data

    @_mutator
    def set_rnn_weights_qparams(self, mask, scales):
        """RNN weights scales over the logical (l, d, i, g, o) dims in ``mask``.

        ``scales`` is copied; an empty list (count <= 0) or a negative mask
        raise ``invalid_arguments``. Whether ``len(scales)`` matches the
        masked dims is checked by RNN primitives, not here.
        """
        self._rnn_weights = _rnn_scales(mask, scales)

    def get_rnn_weights_qparams(self):
        """``(mask, [scales])``; ``(0, [1.0])`` by default."""
        return (self._rnn_weights[0], list(self._rnn_weights[2]))

    @_mutator
    def set_rnn_weights_projection_qparams(self, mask, scales):
        """As :meth:`set_rnn_weights_qparams`, for the projection weights."""
        self._rnn_weights_proj = _rnn_scales(mask, scales)

    def get_rnn_weights_projection_qparams(self):
        """``(mask, [scales])``; ``(0, [1.0])`` by default."""
        return (self._rnn_weights_proj[0], list(self._rnn_weights_proj[2]))

    # ------------------------------------------------------ dropout
    @_mutator
    def set_dropout(self, mask_desc=None, seed_data_type=None, use_offset=False,
                    use_host_scalars=False):
        """Dropout (stored; no primitive here supports it).

        ``mask_desc``: u8 or undef-typed descriptor of the mask output (None =
        zero md, no mask output); ``seed_data_type`` s32 (default) or s64.
        """
        if mask_desc is not None:
            _args.instance(mask_desc, _memory_desc_class(), "mask_desc")
            dt = mask_desc.data_type
            if dt not in (data_type.u8, data_type.undef):
                raise invalid("dropout mask must be u8")
        sdt = _dt(seed_data_type) if seed_data_type is not None else data_type.s32
        if sdt not in (data_type.s32, data_type.s64):
            raise invalid("dropout seed must be s32 or s64")
        self._dropout = (mask_desc, sdt, bool(use_offset), bool(use_host_scalars))

    def get_dropout(self):
        """``(mask_desc, seed_data_type, use_offset, use_host_scalars)``;
        ``(None, undef, False, False)`` by default."""
        if self._dropout is None:
            return (None, data_type.undef, False, False)
        return self._dropout

    # -- pickling (to worker processes): every setting, not the cache key (a
    # token of this process); the receiver finds its own from the values
    def __reduce__(self):
        return (primitive_attr, (), (None, {n: getattr(self, n) for n in _KEYED_FIELDS}))


_KEYED_FIELDS = tuple(n for n in primitive_attr.__slots__ if n != "_key")


class _UnhashableAttrKey:
    """The key of attributes with a field that does not hash: a frozen copy
    compared by oneDNN's attribute equality, with a cheap hash."""

    __slots__ = ("_attr", "_hash")

    def __init__(self, attr):
        self._attr = attr.copy()
        self._hash = hash((len(attr._scales), len(attr._zero_points),
                           len(attr._post_ops), int(attr._fpmath)))

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return type(other) is _UnhashableAttrKey and self._attr == other._attr
