"""``dnnl.capi``'s RNN quantization attributes (``dnnl.h`` declares them after
the primitive kinds): data scale and shift, weights and projection scales."""
import ctypes

from dnnl._core import capi as _b
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, address as _addr, api as _api,
                             as_float as _f, as_int as _i, obj as _obj, put_opt as _put_opt,
                             read_array as _read)
from dnnl._core.error import invalid as _invalid

_P = ctypes.c_void_p
_INT = ctypes.c_int
_I64 = ctypes.c_int64
_F32 = ctypes.c_float


# -------------------------------------------------- RNN quantization attrs
@_api(wraps="attr.set_rnn_data_qparams(scale, shift)")
def dnnl_primitive_attr_set_rnn_data_qparams(attr, scale, shift):
    """``dnnl_primitive_attr_set_rnn_data_qparams(dnnl_primitive_attr_t attr,
    const float scale, const float shift)``"""
    _obj(attr, "attr").set_rnn_data_qparams(_f(scale), _f(shift))


@_api(wraps="attr.get_rnn_data_qparams()")
def dnnl_primitive_attr_get_rnn_data_qparams(attr, scale, shift):
    """``dnnl_primitive_attr_get_rnn_data_qparams(const_dnnl_primitive_attr_t attr,
    float *scale, float *shift)``"""
    s, sh = _obj(attr, "attr").get_rnn_data_qparams()
    _put_opt(scale, _F32, s)
    _put_opt(shift, _F32, sh)


def _rnn_set(attr, count, mask, scales, method):
    a = _obj(attr, "attr")
    n = _i(count)
    if n <= 0 or not _addr_or_seq(scales):
        raise _invalid("RNN weights qparams need count > 0 and scales")
    getattr(a, method)(_i(mask), [ctypes.c_float(v).value for v in _read(scales, _F32, n)])


def _rnn_get(attr, count, mask, scales, method):
    m, vals = getattr(_obj(attr, "attr"), method)()
    _put_opt(count, _I64, len(vals))
    _put_opt(mask, _INT, m)
    if _addr(scales):
        _b.put(_addr(scales), _P, _b.keep_array(attr, method, _F32, vals))


@_api(wraps="attr.set_rnn_weights_qparams(mask, scales)")
def dnnl_primitive_attr_set_rnn_weights_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_set_rnn_weights_qparams(dnnl_primitive_attr_t attr,
    dnnl_dim_t count, int mask, const float *scales)``"""
    _rnn_set(attr, count, mask, scales, "set_rnn_weights_qparams")


@_api(wraps="attr.get_rnn_weights_qparams()")
def dnnl_primitive_attr_get_rnn_weights_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_get_rnn_weights_qparams(const_dnnl_primitive_attr_t attr,
    dnnl_dim_t *count, int *mask, const float **scales)``"""
    _rnn_get(attr, count, mask, scales, "get_rnn_weights_qparams")


@_api(wraps="attr.set_rnn_weights_projection_qparams(mask, scales)")
def dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_set_rnn_weights_projection_qparams(dnnl_primitive_attr_t
    attr, dnnl_dim_t count, int mask, const float *scales)``"""
    _rnn_set(attr, count, mask, scales, "set_rnn_weights_projection_qparams")


@_api(wraps="attr.get_rnn_weights_projection_qparams()")
def dnnl_primitive_attr_get_rnn_weights_projection_qparams(attr, count, mask, scales):
    """``dnnl_primitive_attr_get_rnn_weights_projection_qparams(
    const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
    const float **scales)``"""
    _rnn_get(attr, count, mask, scales, "get_rnn_weights_projection_qparams")

