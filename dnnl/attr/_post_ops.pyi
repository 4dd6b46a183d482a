from typing import Any

from dnnl.attr import (POST_OPS_LIMIT as POST_OPS_LIMIT, binary_entry as binary_entry,
                       dw_entry as dw_entry, eltwise_entry as eltwise_entry,
                       post_ops as post_ops, prelu_entry as prelu_entry,
                       sum_entry as sum_entry)

def value_key(v: Any) -> Any: ...

__test__: dict[str, object]
