"""The reorder primitive: any layout and data type to any other, with scales,
zero points and a sum post-op."""
from dnnl.primitives.reorder.primitive import reorder

__all__ = ["reorder"]
