# The descriptor transformations (dnnl_memory_desc_create_submemory,
# dnnl_memory_desc_permute_axes, dnnl_memory_desc_reshape), compiled into
# dnnl/_model/desc.pyx, which includes this file: they check with the rules
# the creation path uses there (sanity_check, from_tag, _wrap64, RUNTIME),
# and a Python module of their own would import the module that calls them.
# Each gives a new descriptor by _replaced (unchecked: the fields follow
# from a checked descriptor by oneDNN's rules).


def _c_div(a, b):
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q

# -- sub-memory -------------------------------------------------------------------
def submemory(parent, dims, offsets):
    nd = parent.ndims
    sanity_check(nd, parent.dims, parent.data_type, parent.format_kind)
    if len(dims) != nd or len(offsets) != nd:
        raise invalid("sub-memory needs %d dims and %d offsets" % (nd, nd))
    if parent.has_runtime_dims_or_strides():
        raise unimpl("sub-memory of a descriptor with runtime dims")
    for d in range(nd):
        if dims[d] == RUNTIME or offsets[d] == RUNTIME:
            raise unimpl("runtime sub-memory dims or offsets")
        if dims[d] < 0 or offsets[d] < 0 or offsets[d] + dims[d] > parent.dims[d]:
            raise invalid("sub-memory %s at %s is outside %s"
                          % (_args.short(list(dims)), _args.short(list(offsets)), _args.short(list(parent.dims))))
    if parent.format_kind != format_kind.blocked:
        raise unimpl("sub-memory of a %s descriptor" % parent.format_kind.name)
    blocks = parent.blocks
    padded, offset0 = list(parent.padded_dims), parent.offset0
    for d in range(nd):
        right_border = offsets[d] + dims[d] == parent.dims[d]
        if (offsets[d] % blocks[d] or parent.padded_offsets[d] != 0
                or not (right_border or dims[d] % blocks[d] == 0 or dims[d] < blocks[d])):
            raise unimpl("sub-memory does not align with the blocks of dim %d" % d)
        padded[d] = parent.padded_dims[d] - offsets[d] if right_border else dims[d]
        offset0 = _wrap64(offset0 + offsets[d] // blocks[d] * parent.strides[d])
    return _replaced(parent, dims=tuple(dims), padded_dims=tuple(padded), offset0=offset0)


def _kind_phrase(md):
    return "the zero descriptor" if md.ndims == 0 else "a %s descriptor" % md.format_kind.name


# -- permute_axes -------------------------------------------------------------------
def permute_axes(md, perm):
    nd = md.ndims
    sanity_check(nd, md.dims, md.data_type, md.format_kind)
    if md.format_kind not in (format_kind.any, format_kind.blocked) or nd == 0:
        raise invalid("cannot permute the axes of %s: only blocked and format-any "
                      "descriptors have axes" % _kind_phrase(md))
    if md.has_runtime_dims_or_strides():
        raise invalid("cannot permute a descriptor with runtime dims")
    if len(perm) != nd or sorted(perm) != list(range(nd)):
        raise invalid("permutation %s is not a permutation of the descriptor's %d axes"
                      % (_args.short(list(perm)), nd))

    def moved(values):
        out = [0] * nd
        for d in range(nd):
            out[perm[d]] = values[d]
        return tuple(out)

    fields = dict(dims=moved(md.dims), padded_dims=moved(md.padded_dims),
                  padded_offsets=moved(md.padded_offsets))
    if md.format_kind == format_kind.blocked:
        fields["strides"] = moved(md.strides)
        fields["inner_idxs"] = tuple(perm[i] for i in md.inner_idxs)
    return _replaced(md, **fields)


# -- reshape --------------------------------------------------------------------------
def reshape(md, new_dims):
    nd_in, nd_out = md.ndims, len(new_dims)
    sanity_check(nd_in, md.dims, md.data_type, md.format_kind)
    sanity_check(nd_out, new_dims, md.data_type, md.format_kind)
    if md.format_kind not in (format_kind.any, format_kind.blocked) or nd_in == 0:
        raise invalid("cannot reshape %s: only blocked and format-any descriptors "
                      "can be reshaped" % _kind_phrase(md))
    if nd_out == 0:
        raise invalid("cannot reshape to zero dims")

    def volume(dims):
        return math.prod(d if d > 0 else 1 for d in dims)

    if RUNTIME in new_dims or volume(md.dims) != volume(new_dims):
        raise invalid("cannot reshape %s to %s" % (_args.short(list(md.dims)), _args.short(list(new_dims))))
    if md.has_runtime_dims_or_strides():
        raise invalid("cannot reshape a descriptor with runtime dims")
    if md.format_kind == format_kind.any:
        return from_tag(tuple(new_dims), md.data_type, format_tag.any)

    i_dims, i_pdims, i_strides = md.dims, md.padded_dims, md.strides
    o_dims = tuple(new_dims)
    o_pdims, o_poffs, o_strides = [0] * nd_out, [0] * nd_out, [0] * nd_out
    o_idxs = list(md.inner_idxs)
    blocks = md.blocks

    def fail():
        return invalid("cannot reshape %s to %s with this layout"
                       % (_args.short(list(md.dims)), _args.short(list(new_dims))))

    ie, oe = nd_in, nd_out          # group ends, walking from the innermost dim
    while ie > 0 or oe > 0:
        # Find the next pair of groups [ib, ie) / [ob, oe) and what to do.
        if ie > 0 and i_dims[ie - 1] == 1:
            ib = ie - 1
            if i_pdims[ie - 1] == 1:
                action, ob = "remove", oe
            elif oe > 0 and o_dims[oe - 1] == 1:
                action, ob = "keep", oe - 1
            else:
                raise fail()
        elif oe > 0 and o_dims[oe - 1] == 1:
            action, ib, ob = "add", ie, oe - 1
        else:
            if ie == 0 or oe == 0:
                raise fail()
            ib, ob = ie - 1, oe - 1
            iv, ov = i_dims[ib], o_dims[ob]
            while iv != ov:
                if iv < ov:
                    if ib == 0:
                        raise fail()
                    ib -= 1
                    iv *= i_dims[ib]
                    if iv == 0:
                        raise fail()
                else:
                    if ob == 0:
                        raise fail()
                    ob -= 1
                    ov *= o_dims[ob]
                    if ov == 0:
                        raise fail()
            action = "keep" if (ib + 1 == ie and ob + 1 == oe) else "rearrange"

        if action == "add":
            if ib == nd_in:
                stride = md.block_size
            else:  # just outside the input dim to the right
                stride = _c_div(_wrap64(i_strides[ib] * i_dims[ib]), blocks[ib])
            o_pdims[ob], o_poffs[ob], o_strides[ob] = 1, 0, stride
        elif action == "keep":
            o_pdims[ob] = i_pdims[ib]
            o_poffs[ob] = md.padded_offsets[ib]
            o_strides[ob] = i_strides[ib]
            for k, idx in enumerate(md.inner_idxs):
                if idx == ib:
                    o_idxs[k] = ob
        elif action == "rearrange":
            for d in range(ie - 1, ib, -1):
                if i_dims[d] * i_strides[d] != i_strides[d - 1]:
                    raise fail()
            # oneDNN checks the group's first dim only, so a blocked or padded
            # dim inside the group (aBcd16b [3,1,2,8] -> [48]) gives it a
            # descriptor with inner_idxs past ndims; we refuse it (deviation).
            for d in range(ib, ie):
                if (d in md.inner_idxs or i_pdims[d] != i_dims[d]
                        or md.padded_offsets[d] != 0):
                    raise fail()
            stride = i_strides[ie - 1]
            for d in range(oe - 1, ob - 1, -1):
                o_pdims[d], o_poffs[d], o_strides[d] = o_dims[d], 0, stride
                stride = _wrap64(stride * o_dims[d])
        ie, oe = ib, ob

    return _replaced(md, ndims=nd_out, dims=o_dims, padded_dims=tuple(o_pdims),
                       padded_offsets=tuple(o_poffs), strides=tuple(o_strides),
                       inner_idxs=tuple(o_idxs))
