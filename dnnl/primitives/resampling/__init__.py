"""The resampling primitive, forward and backward: nearest and linear, 1D to
3D, with post-ops. Its public module is ``dnnl.resampling``."""
from dnnl.primitives.resampling.primitive import (post_op_src1_arg, resampling_backward,
                                                  resampling_forward)

__all__ = ["resampling_forward", "resampling_backward", "post_op_src1_arg"]
