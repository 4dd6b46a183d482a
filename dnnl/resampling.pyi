# dnnl.resampling is the resampling kind's module under its public name
# (dnnl/_aliases.py).
from dnnl.primitives.resampling.primitive import ALGS as ALGS
from dnnl.primitives.resampling.primitive import MAX_POST_OPS as MAX_POST_OPS
from dnnl.primitives.resampling.primitive import SUPPORTED as SUPPORTED
from dnnl.primitives.resampling.primitive import linear_coeffs as linear_coeffs
from dnnl.primitives.resampling.primitive import nearest_indices as nearest_indices
from dnnl.primitives.resampling.primitive import post_op_src1_arg as post_op_src1_arg
from dnnl.primitives.resampling.primitive import resampling_backward as resampling_backward
from dnnl.primitives.resampling.primitive import resampling_forward as resampling_forward

__all__ = ["resampling_forward", "resampling_backward"]
