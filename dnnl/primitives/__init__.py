"""The primitive kinds, one folder each: its descriptor and primitive
(``primitive.py``, which registers the kind), its plan (``plan.py``), its
kernel (``kernel.pyx`` or ``kernel.pyx.in``, and C headers), its flat-API
functions (``capi.py``) and the stubs beside them. Kinds never import each
other: what two share lives a layer below (docs/internals/extending.md)."""
