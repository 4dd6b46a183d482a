from typing import Any

import numpy as np
import numpy.typing as npt

from dnnl._core.enums import data_type

def to_bytes(value: Any, dt: data_type, nbytes: int) -> bytes: ...
def from_bytes(raw: npt.NDArray[np.uint8], dt: data_type) -> Any: ...
