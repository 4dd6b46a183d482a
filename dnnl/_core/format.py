"""oneDNN's strings for descriptors and attributes, in one place.

verbose lines, ``repr(memory.desc)``, ``primitive_attr.to_str()`` and
``repr(post_ops)`` all format through here, with the spelling of oneDNN's
``src/common/verbose.cpp`` (``md2fmt_str``, ``md2fmt_tag_str``, attribute
``operator<<``s). A leaf: it reads descriptors and attributes through their
fields and public getters, and imports nothing but the constants.
"""
from dnnl._core.enums import C, data_type, format_kind, primitive_kind

RUNTIME = C["DNNL_RUNTIME_DIM_VAL"]


# ------------------------------------------------------- descriptor strings
def _blocks(md):
    blocks = [1] * md.ndims
    for b, i in zip(md.inner_blks, md.inner_idxs):
        blocks[i] *= b
    return blocks


def _runtime(md):
    return any(s == RUNTIME for s in md.strides) or any(d == RUNTIME for d in md.dims)


def tag_str(md):
    """oneDNN's tag: dims by decreasing stride (stride 0 outermost; equal
    strides -- size-1 dims -- larger outer block first, then dim order),
    upper case for blocked dims, then the inner blocks; ``*`` for runtime
    strides."""
    if _runtime(md):
        return "*"
    blocks = _blocks(md)
    keys = []
    for d in range(md.ndims):
        order = (md.strides[d] - 1) % (1 << 64)
        outer = md.padded_dims[d] // blocks[d] if blocks[d] else 0
        keys.append((-order, -outer, d))
    keys.sort()
    s = "".join(chr((ord("a") if blocks[d] == 1 else ord("A")) + d) for _, _, d in keys)
    return s + "".join("%d%s" % (b, chr(ord("a") + i))
                       for b, i in zip(md.inner_blks, md.inner_idxs))


def dims_str(values):
    return "x".join("*" if v == RUNTIME else str(v) for v in values)


def strides_str(md):
    """The strides when the descriptor is not dense (padding included)."""
    if _runtime(md) or md.ndims == 0:
        return ""
    blocks = _blocks(md)
    extent = 0
    for d in range(md.ndims):
        if md.padded_dims[d] == 0:
            return ""
        extent = max(extent, md.padded_dims[d] // blocks[d] * md.strides[d])
    nelems = 1
    for p in md.padded_dims:
        nelems *= p
    return "" if extent == nelems else dims_str(md.strides)


def md_str(name, md, user_any=False):
    """``name:dt:flags:format_kind:tag:strides:extra`` (oneDNN's md2fmt_str)."""
    if md is None or md.ndims == 0:
        return "%s:undef::undef:::" % name
    fl = "a" if user_any else ""
    if tuple(md.dims) != tuple(md.padded_dims):
        fl += "p"
    if any(md.padded_offsets):
        fl += "o"
    if md.offset0:
        fl += "0"
    kind = md.format_kind
    if kind == format_kind.blocked:
        body = "blocked:%s:%s" % (tag_str(md), strides_str(md))
    elif kind == format_kind.any:
        body = "any:any:"
    elif kind == format_kind.sparse:
        body = "sparse:%s:" % md.sparse.encoding.name
    elif kind == format_kind.host_scalar:   # dnnl_fmt_kind2str does not know it
        body = "unknown fmt_kind::"
    else:
        body = "%s::" % kind.name
    return "%s:%s:%s:%s:f0" % (name, md.data_type.name, fl, body)


# ------------------------------------------------------- attribute strings
_ARG_SRC, _ARG_SRC_1, _ARG_SRC_2 = C["DNNL_ARG_SRC"], C["DNNL_ARG_SRC_1"], C["DNNL_ARG_SRC_2"]
_ARG_DST = C["DNNL_ARG_DST"]
_ARG_WEI = (C["DNNL_ARG_WEIGHTS"], C["DNNL_ARG_WEIGHTS_1"], C["DNNL_ARG_WEIGHTS_2"])
_ARG_MULTIPLE_SRC = C["DNNL_ARG_MULTIPLE_SRC"]


def arg_str(arg):
    """oneDNN's arg2str: ``src0``, ``src1``, ``dst``, ``wei``, ``msrc3``..."""
    if arg & _ARG_MULTIPLE_SRC:
        return "msrc%d" % (arg - _ARG_MULTIPLE_SRC)
    if arg in (_ARG_SRC, _ARG_SRC_1, _ARG_SRC_2):
        return "src%d" % (arg - _ARG_SRC)
    if arg == _ARG_DST:
        return "dst"
    if arg in _ARG_WEI:
        return "wei"
    return str(arg)


def _g(x):
    return "%g" % x


def name(value):
    return getattr(value, "name", str(value))


def _quant_str(entries):
    items = []
    for arg in sorted(entries):
        e = entries[arg]
        s = "%s:%d:%s" % (arg_str(arg), e.mask, name(e.data_type))
        if e.groups:
            s += ":%dx%d" % tuple(e.groups)
        if e.is_on_host:
            s += ":host_scalar"
        if name(e.qmode) != "static_sazp":
            s += ":" + name(e.qmode)
        items.append(s)
    return "+".join(items)


def post_op_str(e):
    """One post-op entry as oneDNN's verbose spells it."""
    kind = e.kind
    if kind == primitive_kind.sum:
        s = "sum"
        undef = e.data_type == data_type.undef
        if e.scale != 1.0 or e.zero_point or not undef:
            s += ":" + _g(e.scale)
        if e.zero_point or not undef:
            s += ":%d" % e.zero_point
        if not undef:
            s += ":" + name(e.data_type)
        return s
    if kind == primitive_kind.eltwise:
        s = name(e.alg)
        if e.alpha != 0.0 or e.beta != 0.0 or e.scale != 1.0:
            s += ":" + _g(e.alpha)
        if e.beta != 0.0 or e.scale != 1.0:
            s += ":" + _g(e.beta)
        if e.scale != 1.0:
            s += ":" + _g(e.scale)
        return s
    if kind == primitive_kind.binary:
        md = e.src1_desc
        mask = sum(1 << d for d in range(md.ndims) if md.dims[d] != 1)
        s = "%s:%s:%d" % (name(e.alg), name(md.data_type), mask)
        if md.format_kind == format_kind.any:
            s += ":any"
        elif md.format_kind == format_kind.blocked and \
                sum(1 for d in md.dims if d != 1) > 1:
            s += ":" + tag_str(md)
            st = strides_str(md)
            if st:
                s += ":" + st
        return s
    if kind == primitive_kind.prelu:
        return "prelu:%d" % e.mask
    s = "dw:k%ds%dp%d" % (e.kernel_size, e.stride_size, e.padding_l_size)
    if e.weights_data_type == data_type.s8 or e.dst_data_type != data_type.f32:
        s += ":" + name(e.dst_data_type)
    return s


def post_ops_str(entries):
    return "+".join(post_op_str(e) for e in entries)


def attr_str(attr):
    """The attributes field of a verbose line (oneDNN's order and spelling)."""
    if attr is None:
        return ""
    out = []
    if name(attr.get_scratchpad_mode()) != "library":
        out.append("attr-scratchpad:" + name(attr.get_scratchpad_mode()))
    fpmath, apply_to_int = attr.get_fpmath_mode(True)
    if name(fpmath) != "strict" or apply_to_int:
        out.append("attr-fpmath:" + name(fpmath) + (":true" if apply_to_int else ""))
    if name(attr.get_accumulation_mode()) != "strict":
        out.append("attr-acc-mode:" + name(attr.get_accumulation_mode()))
    rnd = [(a, m) for a, m in sorted(attr.rounding_modes.items())
           if name(m) != "environment"]
    if rnd:
        out.append("attr-rounding-mode:" + "+".join(
            "%s:%s" % (arg_str(a), name(m)) for a, m in rnd))
    if attr.get_deterministic():
        out.append("attr-deterministic:1")
    if attr.scales:
        out.append("attr-scales:" + _quant_str(attr.scales))
    if attr.zero_points:
        out.append("attr-zero-points:" + _quant_str(attr.zero_points))
    if attr.precomputed_reductions:
        out.append("attr-precomputed-reductions:" + _quant_str(attr.precomputed_reductions))
    entries = attr.post_ops_.entries
    if entries:
        out.append("attr-post-ops:" + post_ops_str(entries))
    if attr.get_dropout()[0] is not None:
        out.append("attr-dropout")
    return " ".join(out)
