# A descriptor from its fields, as a file gives them: the pickle constructor
# (``make``, the callable ``desc.__reduce__`` names, and the name earlier
# versions' pickles name) and the blob (``desc.get_blob()`` / ``desc(blob)``,
# dnnl.capi's ``dnnl_memory_desc_get_blob`` / ``_create_with_blob``: one
# serialisation). Compiled into dnnl/_model/desc.pyx, which includes this
# file: the checks are that module's rules (sanity_check, strides_check,
# from_tag, sparse_md, host_scalar_md).
#
# oneDNN copies a blob into its struct unchecked (src/common/memory_desc.cpp,
# dnnl_memory_desc_create_with_blob); here every field is checked against
# the invariants of the descriptors oneDNN's create functions and
# transformations make (memory_desc_init_by_tag / _by_strides,
# memory_desc_init_submemory, _reshape, _permute_axes), so that a damaged file
# is a dnnl.error and never a descriptor whose size undercounts what a kernel
# addresses:
#
# - ndims 0 is the zero descriptor, every other field empty;
# - format any, sparse and host-scalar descriptors are exactly the one their
#   create function makes from their dims, data type (and sparse record);
# - a blocked descriptor has sane dims (memory_desc_sanity_check), inner
#   blocks of 2 or more on dims it has, a stride per dim, padded dims that
#   are the dims or the dims rounded up to their blocks (a runtime dim stays
#   runtime), padded offsets 0, an offset0 >= 0, strides that do not
#   overlap (memory_desc_strides_check), and a reach, offset0 included,
#   that fits int64 elements and size_t bytes.

def _field_ints(values, what, n):
    values = _ints(values, what)
    if len(values) != n:
        raise invalid("a descriptor with %d dims has %d %s, not %d"
                      % (n, n, what, len(values)))
    return values


def _field_enum(value, cls, what):
    v = _args.integer(_args.not_another_enum(value, cls, what), what)
    try:
        return cls(v)
    except ValueError:
        raise invalid("%s %d is not a %s of include/dnnl_types.h" % (what, v, cls.__name__)) from None


def _same(made, fields, what):
    """``made`` if its fields are ``fields``; else invalid_arguments."""
    if tuple(getattr(made, f) for f in _FIELDS) != fields:
        raise invalid("the fields are not those of a %s descriptor of these dims "
                      "(%s)" % (what, describe(made)))
    return made


def make(ndims, dims, dt, padded_dims, padded_offsets, offset0, kind,
         strides=(), inner_blks=(), inner_idxs=(), sparse=None):
    """The descriptor of these fields, each checked (the pickle constructor:
    a file may hold anything; the rules are at the top of this file)."""
    n = _args.integer(ndims, "ndims")
    if not 0 <= n <= MAX_NDIMS:
        raise invalid("ndims %d is outside 0..%d" % (n, MAX_NDIMS))
    dims = _field_ints(dims, "dims", n)
    pdims = _field_ints(padded_dims, "padded dims", n)
    poffs = _field_ints(padded_offsets, "padded offsets", n)
    off0 = _ints([offset0], "offset0")[0]
    dt = _field_enum(dt, data_type, "data type")
    kind = _field_enum(kind, format_kind, "format kind")
    strides = _ints(strides, "strides")
    blks, idxs = _ints(inner_blks, "inner blocks"), _ints(inner_idxs, "inner indices")
    if sparse is not None and not isinstance(sparse, _sparse.sparse_desc):
        raise wrong_type("sparse must be a sparse record (dnnl._model.sparse.sparse_desc) "
                         "or None, not %s" % _args.a_type(sparse))
    fields = (n, dims, dt, pdims, poffs, off0, kind, strides, blks, idxs, sparse)
    if n == 0:
        return _same(ZERO, fields, "zero")
    if kind == format_kind.host_scalar:
        return _same(host_scalar_md(dt), fields, "host-scalar")
    if kind == format_kind.sparse:
        if sparse is None:
            raise invalid("a sparse descriptor needs its sparse record")
        used = {sparse_encoding.csr: 2, sparse_encoding.coo: 1}.get(sparse.encoding, 0)
        made = sparse_md(dims, dt, sparse.nnz, sparse.encoding, sparse.metadata_types[:used])
        return _same(made, fields, "sparse")
    if kind == format_kind.any:
        return _same(from_tag(dims, dt, format_tag.any), fields, "format any")
    if kind != format_kind.blocked:
        raise invalid("format kind %s describes no memory here" % kind.name)
    return _blocked_fields(*fields)


def _blocked_fields(n, dims, dt, pdims, poffs, off0, kind, strides, blks, idxs, sparse):
    sanity_check(n, dims, dt, kind)
    if sparse is not None or len(strides) != n or len(blks) != len(idxs) \
            or len(blks) > MAX_NDIMS:
        raise invalid("a blocked descriptor has one stride per dim and one index per "
                      "inner block (%d dims, %d strides, %d blocks, %d indices)%s"
                      % (n, len(strides), len(blks), len(idxs),
                         ", and no sparse record" if sparse is not None else ""))
    per_dim = [1] * n
    for b, i in zip(blks, idxs):
        if not (2 <= b <= _INT64_MAX and 0 <= i < n):
            raise invalid("inner block %d of dim %d: blocks are 2 or more, on dims "
                          "0..%d" % (b, i, n - 1))
        per_dim[i] *= b
    for d in range(n):
        rounded = RUNTIME if dims[d] == RUNTIME else -(-dims[d] // per_dim[d]) * per_dim[d]
        if pdims[d] not in (dims[d], rounded) or poffs[d] != 0:
            raise invalid("dim %d is %s, padded %s at offset %d: the padded dim is the "
                          "dim or the dim rounded up to its blocks (%s), at offset 0"
                          % (d, _dims_str([dims[d]]), _dims_str([pdims[d]]), poffs[d],
                             _dims_str([rounded])))
    if off0 < 0:
        raise invalid("offset0 %d is negative" % off0)
    md = assemble(n, dims, dt, pdims, poffs, off0, kind, strides, blks, idxs)
    strides_check(md, size_check=False)
    if RUNTIME in strides or RUNTIME in pdims or 0 in pdims:
        return md
    reach = off0 + md.block_size       # past the last element any position reaches
    for d in range(n):
        outer = -(-pdims[d] // per_dim[d])
        reach += (outer - 1) * abs(strides[d])
    nbytes = reach * _dtypes.size(dt)
    if reach > _INT64_MAX or nbytes > _SIZE_MAX:
        raise invalid("the layout reaches %d elements (offset0 included), past int64 "
                      "offsets or size_t bytes" % reach)
    return md


# -- the blob ------------------------------------------------------------------
# int64 words: a magic number, ndims, data type, format kind, offset0, the
# number of inner blocks, a reserved word (a sparse descriptor's encoding),
# then a row of MAX_NDIMS each: dims, padded dims, padded offsets, strides (a
# sparse descriptor's nnz and metadata types), inner blocks, inner indices.
# This library's own fixed-size format (oneDNN's is its internal struct).
_BLOB_WORDS = 7 + 6 * MAX_NDIMS
BLOB_BYTES = 8 * _BLOB_WORDS
_BLOB_MAGIC = 0x444E4E4C50594D44        # "DNNLPYMD"


def to_blob(md):
    """``md``'s blob: ``BLOB_BYTES`` bytes."""
    pad = lambda t: list(t) + [0] * (MAX_NDIMS - len(t))  # noqa: E731
    if md.sparse:
        reserved = int(md.sparse.encoding)
        strides = [md.sparse.nnz] + [int(t) for t in md.sparse.metadata_types]
    else:
        reserved, strides = 0, list(md.strides)
    words = ([_BLOB_MAGIC, md.ndims, int(md.data_type), int(md.format_kind), md.offset0,
              len(md.inner_blks), reserved] + pad(md.dims) + pad(md.padded_dims)
             + pad(md.padded_offsets) + pad(strides) + pad(md.inner_blks)
             + pad(md.inner_idxs))
    return np.array(words, dtype=np.int64).tobytes()


def from_blob(blob):
    """The descriptor of a blob (bytes-like, ``BLOB_BYTES`` long), checked as
    :func:`make` checks a pickle's fields: a damaged blob is invalid_arguments."""
    try:
        raw = memoryview(blob).cast("B")
    except (TypeError, ValueError):
        raise wrong_type("a memory descriptor blob is bytes (get_blob()), not %s"
                         % _args.a_type(blob)) from None
    if len(raw) != BLOB_BYTES:
        raise invalid("a memory descriptor blob is %d bytes, not %d" % (BLOB_BYTES, len(raw)))
    w = np.frombuffer(raw, dtype=np.int64).tolist()
    if w[0] != _BLOB_MAGIC:
        raise invalid("not a memory descriptor blob (get_blob() makes one)")
    n, nb = w[1], w[5]
    if not (0 <= n <= MAX_NDIMS and 0 <= nb <= MAX_NDIMS):
        raise invalid("corrupt memory descriptor blob: ndims %d, %d inner blocks" % (n, nb))
    row = lambda k, m: w[7 + k * MAX_NDIMS: 7 + k * MAX_NDIMS + m]  # noqa: E731
    try:
        kind = format_kind(w[3])
    except ValueError:
        raise invalid("corrupt memory descriptor blob: format kind %d" % w[3]) from None
    strides, sp = row(3, n), None
    if kind == format_kind.sparse:
        try:
            sp = _sparse.sparse_desc(w[6], w[7 + 3 * MAX_NDIMS],
                                     [_sparse.as_metadata_type(t) for t in row(3, 3)[1:]])
        except (error, ValueError):
            raise invalid("corrupt memory descriptor blob: sparse encoding %d" % w[6]) from None
        strides = ()
    elif kind != format_kind.blocked:
        strides = ()
    try:
        md = make(n, row(0, n), w[2], row(1, n), row(2, n), w[4], kind, strides,
                  row(4, nb), row(5, nb), sp)
    except error as e:
        raise invalid("corrupt memory descriptor blob: %s" % e.message) from None
    if to_blob(md) != bytes(raw):       # a word the fields do not account for
        raise invalid("corrupt memory descriptor blob: words set past its fields")
    return md
