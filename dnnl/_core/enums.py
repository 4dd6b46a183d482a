"""oneDNN's enums as Python IntEnums, built from include/dnnl_types.h.

Values come from the compiled ``dnnl._core._constants`` module, i.e. from the header
as the C compiler reads it; nothing here restates a value. Member names follow
oneDNN's C++ API (``format_tag.nChw16c``, ``data_type.f32``,
``status.invalid_arguments``). Within an enum the header's first name for a
value is canonical, so an alias prints as its abstract tag
(``format_tag.nChw16c`` is ``format_tag.aBcd16b``), as ``dnnl_fmt_tag2str``
does.
"""
import enum
import sys

from dnnl._core._constants import ENUMS, MACROS

# C enum type -> (Python name, C prefixes to strip, longest first).
_SHAPES = {
    "dnnl_status_t": ("status", ()),
    "dnnl_data_type_t": ("data_type", ("dnnl_data_type_",)),
    "dnnl_fpmath_mode_t": ("fpmath_mode", ("dnnl_fpmath_mode_",)),
    "dnnl_accumulation_mode_t": ("accumulation_mode", ("dnnl_accumulation_mode_",)),
    "dnnl_engine_kind_t": ("engine_kind", ()),
    "dnnl_stream_flags_t": ("stream_flags", ("dnnl_stream_",)),
    "dnnl_format_kind_t": ("format_kind", ("dnnl_format_kind_",)),
    "dnnl_sparse_encoding_t": ("sparse_encoding", ("dnnl_sparse_encoding_",)),
    "dnnl_profiling_data_kind_t": ("profiling_data_kind", ("dnnl_profiling_data_",)),
    "dnnl_format_tag_t": ("format_tag", ("dnnl_format_tag_",)),
    "dnnl_prop_kind_t": ("prop_kind", ("dnnl_prop_kind_",)),
    "dnnl_primitive_kind_t": ("primitive_kind", ("dnnl_primitive_kind_",)),
    "dnnl_alg_kind_t": ("algorithm", ("dnnl_alg_kind_",)),
    "dnnl_normalization_flags_t": ("normalization_flags", ("dnnl_normalization_flags_",)),
    "dnnl_rnn_flags_t": ("rnn_flags", ("dnnl_rnn_flags_",)),
    "dnnl_rnn_direction_t": ("rnn_direction", ("dnnl_rnn_direction_",)),
    "dnnl_scratchpad_mode_t": ("scratchpad_mode", ("dnnl_scratchpad_mode_",)),
    "dnnl_rounding_mode_t": ("rounding_mode", ("dnnl_rounding_mode_",)),
    "dnnl_quantization_mode_t": ("quantization_mode", ("dnnl_quantization_mode_",)),
    "dnnl_query_t": ("query", ("dnnl_query_",)),
    "dnnl_cpu_isa_t": ("cpu_isa", ("dnnl_cpu_isa_",)),
    "dnnl_cpu_isa_hints_t": ("cpu_isa_hints", ("dnnl_cpu_isa_",)),
}
# The C++ API's spelling where it is not the stripped C name.
_RENAMES = {"dnnl_undefined_primitive": "undef", "dnnl_any_engine": "any"}

#: Every C enumerator and macro name with its value, e.g. ``C["dnnl_nchw"]``.
C = dict(MACROS)
C_ENUMS = {}


def _py_name(c_name, prefixes):
    if c_name in _RENAMES:
        return _RENAMES[c_name]
    for prefix in prefixes + ("dnnl_",):
        if c_name.startswith(prefix):
            return c_name[len(prefix):]
    return c_name


class _named(enum.IntEnum):
    """The base of every enum here: an IntEnum (oneDNN's values, int
    arithmetic and comparisons) that prints its name, as its repr shows it
    (Python 3.11+'s IntEnum prints the bare number)."""

    def __str__(self):
        """``data_type.f32``."""
        return "%s.%s" % (type(self).__name__, self._name_)

    def __format__(self, spec):
        """``f"{dt}"`` is the name; a format spec formats the value
        (``f"{dt:d}"`` is ``3``, ``f"{dt:#x}"`` is ``0x3``)."""
        return str(self) if not spec else int.__format__(int(self), spec)


def _regular(py_type, members):
    """The IntEnum of the functional API (what ``_fast`` must equal)."""
    return _named(py_type, members, module=__name__)


def _fast(py_type, members):
    """The same IntEnum, faster to build (format_tag has 1674 names, made
    at every ``import dnnl``; docs/internals/performance.md has the
    measurement), built the way the standard library builds its own enums
    at import: ``enum._simple_enum`` (Python 3.11+; checked
    against ``_regular`` by tests/_core/test_constants.py with
    ``enum._test_simple_enum``)."""
    body = {"__module__": __name__, "__qualname__": py_type}
    body.update(members)
    cls = enum._simple_enum(_named)(type(py_type, (), body))
    # Before 3.13 _simple_enum reaches every member through a property; the
    # functional API binds them as plain class attributes (faster to look
    # up) unless the name shadows an attribute of a base class.
    bases = cls.__mro__[1:]
    type.__setattr__(cls, "__doc__", None)     # it writes "An enumeration."
    for name, member in cls._member_map_.items():
        if not any(name in base.__dict__ for base in bases):
            type.__setattr__(cls, name, member)
    return cls


_make = _fast if hasattr(enum, "_simple_enum") and sys.version_info >= (3, 11) else _regular


def _build():
    made = {}
    for c_type, members in ENUMS:
        py_type, prefixes = _SHAPES[c_type]
        cls = _make(py_type, [(_py_name(n, prefixes), v) for n, v in members])
        cls.c_type = c_type
        made[py_type] = cls
        C_ENUMS[c_type] = cls
        C.update(members)
    return made


globals().update(_build())

__all__ = ["C", "C_ENUMS"] + [shape[0] for shape in _SHAPES.values()]
