from dnnl.primitives.reorder.primitive import reorder as reorder

__all__ = ["reorder"]
