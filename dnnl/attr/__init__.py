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
import functools
import types

from dnnl._core import args as _args
from dnnl._core import format as _format
from dnnl._core import keys as _keys
from dnnl._core.settings import settings
from dnnl._core.enums import (C, accumulation_mode, data_type, fpmath_mode,  # noqa: F401 (C: doctests)
                         quantization_mode, rounding_mode, scratchpad_mode, status)
from dnnl._core.error import invalid, wrong_type
# the parts, each in its module; their public names are this module's too
from dnnl.attr._values import (c_int as _int, dt as _dt, enum_of as _enum, f32 as _f32,
                               feq as _feq, groups_of as _groups, is_runtime_f32,
                               memory_desc_class as _memory_desc_class)
from dnnl.attr._binary_rules import binary_broadcast_dims, binary_src1_mask, check_binary_src1
from dnnl.attr._post_ops import (POST_OPS_LIMIT, binary_entry, dw_entry, eltwise_entry, post_ops,
                            prelu_entry, sum_entry, value_key as _value_key)
from dnnl.attr._quant import (  # noqa: F401 (ARG_*: this module's names as before)
    ARG_ATTR_POST_OP_DW, ARG_DIFF_SRC, ARG_DIFF_WEIGHTS, ARG_DST, ARG_MULTIPLE_SRC, ARG_SRC,
    ARG_SRC_1, ARG_SRC_2, ARG_WEIGHTS, ARG_WEIGHTS_1, ARG_WEIGHTS_2, DEFAULT_QUANT_ENTRY,
    INT_MIN, ROUNDING_ARGS as _ROUNDING_ARGS, SCALE_DTS as _SCALE_DTS,
    ZP_ARGS as _ZP_ARGS, ZP_DTS as _ZP_DTS, ZP_GROUP_ARGS as _ZP_GROUP_ARGS,
    check_groups as _check_groups, quant_entry, scale_arg_ok as _scale_arg_ok)

__all__ = ["primitive_attr", "post_ops", "quant_entry", "sum_entry", "eltwise_entry",
           "binary_entry", "prelu_entry", "dw_entry", "DEFAULT_QUANT_ENTRY",
           "set_default_fpmath_mode", "get_default_fpmath_mode",
           "binary_src1_mask", "binary_broadcast_dims", "check_binary_src1",
           "POST_OPS_LIMIT", "is_runtime_f32"]


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
        if self._post_ops.entries:
            parts.add("post_ops")
            if dst_data_type is not None:
                ddt = _dt(dst_data_type)
                for e in self._post_ops.entries:
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
        self._apply_to_int = _args.flag(apply_to_int, "apply_to_int")

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
        self._deterministic = _args.flag(value, "deterministic")

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
        host = _args.flag(is_on_host, "is_on_host")
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
        host = _args.flag(is_on_host, "is_on_host")
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
        self._dropout = (mask_desc, sdt, _args.flag(use_offset, "use_offset"),
                         _args.flag(use_host_scalars, "use_host_scalars"))

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
