from dnnl.primitives.resampling.primitive import post_op_src1_arg as post_op_src1_arg
from dnnl.primitives.resampling.primitive import resampling_backward as resampling_backward
from dnnl.primitives.resampling.primitive import resampling_forward as resampling_forward

__all__ = ["resampling_forward", "resampling_backward", "post_op_src1_arg"]
