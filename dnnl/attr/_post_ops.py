"""Post-ops: the chain a primitive applies to its result (``dnnl.post_ops``)
and its immutable entries (sum, eltwise, binary, prelu, depthwise)."""
import collections

from dnnl._core import format as _format
from dnnl.attr._values import (alg_of as _alg, c_int as _int, dt_stored as _dt_stored,
                               f32 as _f32, feq as _feq, is_runtime_f32,
                               memory_desc_class as _memory_desc_class)
from dnnl._core.enums import C, algorithm, data_type, primitive_kind
from dnnl._core.error import invalid, oom as _oom
from dnnl.attr._quant import INT_MIN

#: ``post_ops_t::post_ops_limit``.
POST_OPS_LIMIT = 32
_RUNTIME_DIM = C["DNNL_RUNTIME_DIM_VAL"]

_ELTWISE_ALGS = frozenset(v for n, v in C.items() if n.startswith("dnnl_eltwise_"))
_BINARY_ALGS = frozenset(v for n, v in C.items() if n.startswith("dnnl_binary_"))
_CLIP_ALGS = frozenset({algorithm.eltwise_clip, algorithm.eltwise_clip_v2,
                        algorithm.eltwise_clip_v2_use_dst_for_bwd})
_ALPHA_NONNEG_ALGS = frozenset({algorithm.eltwise_relu_use_dst_for_bwd,
                                algorithm.eltwise_elu_use_dst_for_bwd})


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


def value_key(v):
    """A hashable stand-in for one attribute field: tuples, namedtuples (by
    type) and dicts (sorted) taken apart, NaN made equal to NaN."""
    t = type(v)
    if t is float:
        return _NAN if v != v else v
    if t is dict:
        return (dict, tuple(sorted((k, value_key(x)) for k, x in v.items())))
    if t is list or t is tuple:
        return (t, tuple([value_key(x) for x in v]))
    if isinstance(v, tuple):       # the entries: a sum and an eltwise may hold equal numbers
        return (t, tuple([value_key(x) for x in v]))
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
        return tuple([value_key(e) for e in self._entries])

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


# Users import the classes from dnnl.attr: it is their module for pickles
# (Dask's), reprs and the docs.
for _cls in (sum_entry, eltwise_entry, binary_entry, prelu_entry, dw_entry, post_ops):
    _cls.__module__ = "dnnl.attr"
del _cls
# The classes' docstrings run as doctests in dnnl.attr, their __module__;
# the examples of their methods run here, where the methods are defined.
__test__ = {"post_ops." + name: f for name, f in vars(post_ops).items()
            if ">>>" in (getattr(f, "__doc__", None) or "")}
