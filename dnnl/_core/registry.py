"""The primitive kinds: each registers itself, the core reads the registry.

A primitive module calls :func:`register_primitive` once for each primitive
class it defines (``reorder``; ``resampling_forward`` and
``resampling_backward``). What the core needs to know of a kind is in its
record: the flat API's ``dnnl_primitive_create`` finds the primitive class
of a descriptor here and ``dnnl.capi`` the kind's functions, verbose its
line's fields, benchdnn its driver, the settings its implementation
switches. Adding a primitive therefore edits no
list in the core (``docs/internals/extending.md``).
"""
import collections

record = collections.namedtuple(
    "record", "pd_class primitive_class verbose_fields benchdnn_driver capi switches")

_records = []       # in registration order


def register_primitive(primitive_class, verbose_fields=None, benchdnn_driver=None,
                       switches=None, capi=None):
    """Register ``primitive_class`` (a :class:`dnnl.primitive.primitive`
    subclass whose ``primitive_desc`` is its descriptor class, as
    ``dnnl::reorder::primitive_desc`` is in oneDNN's C++ API).

    ``verbose_fields(pd, mds)``: the verbose line's fields ``[engine,
    primitive, impl, prop_kind, mds, attrs, aux, problem]`` (None: the
    generic ones); ``benchdnn_driver``: the module (a dotted name) whose
    import registers the benchdnn driver; ``switches``: ``{name: default}``
    of implementation switches, added to :data:`dnnl._core.settings.settings`
    (and so to every cache key); ``capi``: the module (a dotted name) whose
    flat-API functions (``dnnl._core.capi.api``) ``dnnl.capi`` exposes under
    their C names. Registering a class again replaces it.
    """
    from dnnl._core.settings import settings
    pd_class = getattr(primitive_class, "primitive_desc", None)
    if pd_class is None:
        raise TypeError("%s has no primitive_desc" % primitive_class.__name__)
    for name, default in (switches or {}).items():
        settings.add_switch(name, default)
    unregister_primitive(primitive_class)
    _records.append(record(pd_class, primitive_class, verbose_fields, benchdnn_driver, capi,
                           dict(switches or {})))


def unregister_primitive(primitive_class):
    """Remove ``primitive_class``'s record (its switches stay)."""
    _records[:] = [r for r in _records if r.primitive_class is not primitive_class]


def record_of(pd):
    """The record of the kind of the primitive descriptor ``pd``, or None."""
    for r in _records:
        if isinstance(pd, r.pd_class):
            return r
    return None


def records():
    """Every record, in registration order."""
    return tuple(_records)
