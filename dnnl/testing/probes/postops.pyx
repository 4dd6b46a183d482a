# cython: language_level=3
"""Vectorised access to the scalar post-op formulas of ``postops.pxd``.

These exist so Python code (tests, the numpy reference's cross-checks, the
docs) can run exactly the arithmetic the kernels run; they release the GIL.
"""
import numpy as np

from dnnl._kernels.postops cimport eltwise_fwd, binary_op3


def eltwise(x, int alg, float alpha=0.0, float beta=0.0):
    """``eltwise_fwd(alg, x, alpha, beta)`` element-wise on a float32 array.

    >>> import numpy as np
    >>> eltwise(np.float32([-1, 2]), 32, 0.5).tolist()   # relu, slope 0.5
    [-0.5, 2.0]
    """
    a = np.ascontiguousarray(x, dtype=np.float32)
    out = np.empty_like(a)
    cdef float[::1] src = a.reshape(-1)
    cdef float[::1] dst = out.reshape(-1)
    cdef Py_ssize_t i, n = src.shape[0]
    with nogil:
        for i in range(n):
            dst[i] = eltwise_fwd(alg, src[i], alpha, beta)
    return out


def binary(a, b, int alg, c=None):
    """``binary_op(alg, a, b)`` with numpy broadcasting of float32 inputs.

    ``c`` is the condition of ``binary_select`` (non-zero selects ``a``).

    >>> import numpy as np
    >>> binary(np.float32([1, 5]), np.float32([3]), 0x1fff2).tolist()  # max
    [3.0, 5.0]
    """
    if c is None:
        c = np.float32(0)
    a32, b32, c32 = np.broadcast_arrays(np.asarray(a, dtype=np.float32),
                                        np.asarray(b, dtype=np.float32),
                                        np.asarray(c, dtype=np.float32))
    shape = a32.shape
    cdef float[::1] x = np.ascontiguousarray(a32).reshape(-1)
    cdef float[::1] y = np.ascontiguousarray(b32).reshape(-1)
    cdef float[::1] z = np.ascontiguousarray(c32).reshape(-1)
    out = np.empty(x.shape[0], dtype=np.float32)
    cdef float[::1] d = out
    cdef Py_ssize_t i, n = x.shape[0]
    with nogil:
        for i in range(n):
            d[i] = binary_op3(alg, x[i], y[i], z[i])
    return out.reshape(shape)
