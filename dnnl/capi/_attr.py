"""``dnnl.capi``'s primitive attribute functions: ``dnnl_primitive_attr_*``
(quantization, modes, dropout, RNN quantization parameters) and ``dnnl_post_ops_*``.
``dnnl.capi`` exposes every function here under its C name, in header order."""
import ctypes

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (address as _addr, api as _api, as_float as _f, as_int as _i,
                             lookup as _rec, new_out as _new_out, obj as _obj, opt_obj as
                             _opt, put_opt as _put_opt, put_out as _put, read_dims as _dims,
                             view_out as _view_out)
from dnnl._model.desc import desc as _desc
from dnnl._core.enums import primitive_kind as _pk
from dnnl._core.error import invalid as _invalid

_P = ctypes.c_void_p
_INT = ctypes.c_int
_I64 = ctypes.c_int64
_F32 = ctypes.c_float


# ------------------------------------------------------------ attributes
@_api(wraps="dnnl.primitive_attr()")
def dnnl_primitive_attr_create(attr):
    """``dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr)``"""
    _b.out_address(attr, "attr")
    _new_out(attr, "attr", dnnl.primitive_attr())


@_api(wraps="attr.copy()")
def dnnl_primitive_attr_clone(attr, existing_attr):
    """``dnnl_primitive_attr_clone(dnnl_primitive_attr_t *attr,
    const_dnnl_primitive_attr_t existing_attr)``"""
    _b.out_address(attr, "attr")
    _new_out(attr, "attr", _obj(existing_attr, "attr").copy())


@_api(wraps="(releases the handle)")
def dnnl_primitive_attr_destroy(attr):
    """``dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr)``"""
    _b.destroy(attr, "attr")


def _dropout_out(attr_h, a, mask_desc):
    md = a.get_dropout()[0]
    _view_out(mask_desc, attr_h, ("dropout", id(md)), "md", md if md is not None else _desc())


@_api(wraps="attr.get_dropout()")
def dnnl_primitive_attr_get_dropout(attr, mask_desc):
    """``dnnl_primitive_attr_get_dropout(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc)``"""
    a = _obj(attr, "attr")
    _dropout_out(attr, a, mask_desc)


@_api(wraps="attr.set_dropout(mask_desc)")
def dnnl_primitive_attr_set_dropout(attr, mask_desc):
    """``dnnl_primitive_attr_set_dropout(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc)``"""
    _obj(attr, "attr").set_dropout(_obj(mask_desc, "md", "mask_desc"))


@_api(wraps="attr.get_dropout()")
def dnnl_primitive_attr_get_dropout_v2(attr, mask_desc, seed_dt, use_offset,
                                       use_host_scalars):
    """``dnnl_primitive_attr_get_dropout_v2(const_dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t *mask_desc, dnnl_data_type_t *seed_dt, int *use_offset,
    int *use_host_scalars)``"""
    a = _obj(attr, "attr")
    md, sdt, off, host = a.get_dropout()
    if _addr(mask_desc):
        _dropout_out(attr, a, mask_desc)
    _put_opt(seed_dt, _INT, int(sdt))
    _put_opt(use_offset, _INT, int(off))
    _put_opt(use_host_scalars, _INT, int(host))


@_api(wraps="attr.set_dropout(mask_desc, seed_dt, use_offset, use_host_scalars)")
def dnnl_primitive_attr_set_dropout_v2(attr, mask_desc, seed_dt, use_offset,
                                       use_host_scalars):
    """``dnnl_primitive_attr_set_dropout_v2(dnnl_primitive_attr_t attr,
    const_dnnl_memory_desc_t mask_desc, dnnl_data_type_t seed_dt, int use_offset,
    int use_host_scalars)``"""
    _obj(attr, "attr").set_dropout(_opt(mask_desc, "md"), _i(seed_dt), bool(_i(use_offset)),
                                   bool(_i(use_host_scalars)))


@_api(wraps="attr.get_fpmath_mode()")
def dnnl_primitive_attr_get_fpmath_mode(attr, mode):
    """``dnnl_primitive_attr_get_fpmath_mode(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_fpmath_mode()), "mode")


@_api(wraps="attr.set_fpmath_mode(mode)")
def dnnl_primitive_attr_set_fpmath_mode(attr, mode):
    """``dnnl_primitive_attr_set_fpmath_mode(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode)``"""
    _obj(attr, "attr").set_fpmath_mode(_i(mode))


@_api(wraps="attr.get_fpmath_mode(True)")
def dnnl_primitive_attr_get_fpmath_mode_v2(attr, mode, apply_to_int):
    """``dnnl_primitive_attr_get_fpmath_mode_v2(const_dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t *mode, int *apply_to_int)``"""
    m, ati = _obj(attr, "attr").get_fpmath_mode(True)
    _put_opt(mode, _INT, int(m))
    _put_opt(apply_to_int, _INT, int(ati))


@_api(wraps="attr.set_fpmath_mode(mode, apply_to_int)")
def dnnl_primitive_attr_set_fpmath_mode_v2(attr, mode, apply_to_int):
    """``dnnl_primitive_attr_set_fpmath_mode_v2(dnnl_primitive_attr_t attr,
    dnnl_fpmath_mode_t mode, int apply_to_int)``"""
    _obj(attr, "attr").set_fpmath_mode(_i(mode), bool(_i(apply_to_int)))


@_api(wraps="attr.get_deterministic()")
def dnnl_primitive_attr_get_deterministic(attr, value):
    """``dnnl_primitive_attr_get_deterministic(const_dnnl_primitive_attr_t attr,
    int *value)``"""
    _put(value, _INT, int(_obj(attr, "attr").get_deterministic()), "value")


@_api(wraps="attr.set_deterministic(value)")
def dnnl_primitive_attr_set_deterministic(attr, value):
    """``dnnl_primitive_attr_set_deterministic(dnnl_primitive_attr_t attr, int value)``"""
    _obj(attr, "attr").set_deterministic(bool(_i(value)))


@_api(wraps="attr.get_accumulation_mode()")
def dnnl_primitive_attr_get_accumulation_mode(attr, mode):
    """``dnnl_primitive_attr_get_accumulation_mode(const_dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_accumulation_mode()), "mode")


@_api(wraps="attr.set_accumulation_mode(mode)")
def dnnl_primitive_attr_set_accumulation_mode(attr, mode):
    """``dnnl_primitive_attr_set_accumulation_mode(dnnl_primitive_attr_t attr,
    dnnl_accumulation_mode_t mode)``"""
    _obj(attr, "attr").set_accumulation_mode(_i(mode))


@_api(wraps="attr.get_scratchpad_mode()")
def dnnl_primitive_attr_get_scratchpad_mode(attr, mode):
    """``dnnl_primitive_attr_get_scratchpad_mode(const_dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_scratchpad_mode()), "mode")


@_api(wraps="attr.set_scratchpad_mode(mode)")
def dnnl_primitive_attr_set_scratchpad_mode(attr, mode):
    """``dnnl_primitive_attr_set_scratchpad_mode(dnnl_primitive_attr_t attr,
    dnnl_scratchpad_mode_t mode)``"""
    _obj(attr, "attr").set_scratchpad_mode(_i(mode))


@_api(wraps="attr.set_scales_mask(arg, mask)")
def dnnl_primitive_attr_set_scales_mask(attr, arg, mask):
    """``dnnl_primitive_attr_set_scales_mask(dnnl_primitive_attr_t attr, int arg, int mask)``"""
    _obj(attr, "attr").set_scales_mask(_i(arg), _i(mask))


def _groups(ndims, group_dims):
    n = _i(ndims)
    if n < 0 or n > _b.MAX_NDIMS:
        raise _invalid("group ndims must be 0 or 2, got %d" % n)
    return _dims(group_dims, n, "group_dims")


@_api(wraps="attr.set_scales(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_scales(attr, arg, mask, group_ndims, group_dims, data_type):
    """``dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr, int arg, int mask,
    int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(group_ndims, group_dims), _i(data_type), False)


@_api(wraps="attr.set_scales(arg, mask, groups, data_type, is_on_host)")
def dnnl_primitive_attr_set_scales_v2(attr, arg, mask, ndims, group_dims, data_type,
                                      is_on_host):
    """``dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr, int arg, int mask,
    int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                 bool(_i(is_on_host)))


@_api(wraps="attr.set_scales(arg, mask, groups, data_type, is_on_host, qmode)")
def dnnl_primitive_attr_set_scales_v3(attr, arg, mask, ndims, group_dims, data_type,
                                      is_on_host, qmode):
    """``dnnl_primitive_attr_set_scales_v3(dnnl_primitive_attr_t attr, int arg, int mask,
    int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type, int is_on_host,
    dnnl_quantization_mode_t qmode)``"""
    a = _obj(attr, "attr")
    a.set_scales(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                 bool(_i(is_on_host)), _i(qmode))


@_api(wraps="attr.set_zero_points_mask(arg, mask)")
def dnnl_primitive_attr_set_zero_points_mask(attr, arg, mask):
    """``dnnl_primitive_attr_set_zero_points_mask(dnnl_primitive_attr_t attr, int arg,
    int mask)``"""
    _obj(attr, "attr").set_zero_points_mask(_i(arg), _i(mask))


@_api(wraps="attr.set_zero_points(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_zero_points(attr, arg, mask, group_ndims, group_dims,
                                        data_type):
    """``dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr, int arg,
    int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_zero_points(_i(arg), _i(mask), _groups(group_ndims, group_dims), _i(data_type),
                      False)


@_api(wraps="attr.set_precomputed_reductions(arg, mask, groups, data_type)")
def dnnl_primitive_attr_set_precomputed_reductions(attr, arg, mask, group_ndims,
                                                   group_dims, data_type):
    """``dnnl_primitive_attr_set_precomputed_reductions(dnnl_primitive_attr_t attr,
    int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
    dnnl_data_type_t data_type)``"""
    a = _obj(attr, "attr")
    a.set_precomputed_reductions(_i(arg), _i(mask), _groups(group_ndims, group_dims),
                                 _i(data_type))


@_api(wraps="attr.set_zero_points(arg, mask, groups, data_type, is_on_host)")
def dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, ndims, group_dims, data_type,
                                           is_on_host):
    """``dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr, int arg,
    int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type,
    int is_on_host)``"""
    a = _obj(attr, "attr")
    a.set_zero_points(_i(arg), _i(mask), _groups(ndims, group_dims), _i(data_type),
                      bool(_i(is_on_host)))


@_api(wraps="attr.set_rounding_mode(arg, mode)")
def dnnl_primitive_attr_set_rounding(attr, arg, mode):
    """``dnnl_primitive_attr_set_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t mode)``"""
    _obj(attr, "attr").set_rounding_mode(_i(arg), _i(mode))


@_api(wraps="attr.get_rounding_mode(arg)")
def dnnl_primitive_attr_get_rounding(attr, arg, mode):
    """``dnnl_primitive_attr_get_rounding(dnnl_primitive_attr_t attr, int arg,
    dnnl_rounding_mode_t *mode)``"""
    _put(mode, _INT, int(_obj(attr, "attr").get_rounding_mode(_i(arg))), "mode")


@_api(wraps="attr.post_ops_ (a view)")
def dnnl_primitive_attr_get_post_ops(attr, post_ops):
    """``dnnl_primitive_attr_get_post_ops(const_dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t *post_ops)``"""
    rec = _rec(attr, "attr")
    _b.out_address(post_ops, "post_ops")
    _view_out(post_ops, attr, "post_ops", "post_ops", getter=lambda: rec.obj.post_ops_)


@_api(wraps="attr.set_post_ops(post_ops)")
def dnnl_primitive_attr_set_post_ops(attr, post_ops):
    """``dnnl_primitive_attr_set_post_ops(dnnl_primitive_attr_t attr,
    const_dnnl_post_ops_t post_ops)``"""
    a = _obj(attr, "attr")
    a.set_post_ops(_obj(post_ops, "post_ops"))


# -------------------------------------------------------------- post-ops
@_api(wraps="dnnl.post_ops()")
def dnnl_post_ops_create(post_ops):
    """``dnnl_post_ops_create(dnnl_post_ops_t *post_ops)``"""
    _b.out_address(post_ops, "post_ops")
    _new_out(post_ops, "post_ops", dnnl.post_ops())


@_api(wraps="post_ops.copy()")
def dnnl_post_ops_clone(post_ops, existing_post_ops):
    """``dnnl_post_ops_clone(dnnl_post_ops_t *post_ops, const_dnnl_post_ops_t
    existing_post_ops)``"""
    _b.out_address(post_ops, "post_ops")
    _new_out(post_ops, "post_ops", _obj(existing_post_ops, "post_ops").copy())


@_api(wraps="(releases the handle)")
def dnnl_post_ops_destroy(post_ops):
    """``dnnl_post_ops_destroy(dnnl_post_ops_t post_ops)``"""
    _b.destroy(post_ops, "post_ops")


@_api("int", 0, "post_ops.len()")
def dnnl_post_ops_len(post_ops):
    """``int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops)``"""
    return _obj(post_ops, "post_ops").len()


@_api("int", int(_pk.undef), "post_ops.kind(index)")
def dnnl_post_ops_get_kind(post_ops, index):
    """``dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops,
    int index)``"""
    return int(_obj(post_ops, "post_ops").kind(_i(index)))


@_api(wraps="post_ops.append_sum(scale, zero_point, data_type)")
def dnnl_post_ops_append_sum(post_ops, scale, zero_point, data_type):
    """``dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
    int32_t zero_point, dnnl_data_type_t data_type)``"""
    _obj(post_ops, "post_ops").append_sum(_f(scale), _i(zero_point), _i(data_type))


@_api(wraps="post_ops.get_params_sum(index)")
def dnnl_post_ops_get_params_sum(post_ops, index, scale, zero_point, data_type):
    """``dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
    float *scale, int32_t *zero_point, dnnl_data_type_t *data_type)``"""
    s, zp, dt = _obj(post_ops, "post_ops").get_params_sum(_i(index))
    _put_opt(scale, _F32, s)
    _put_opt(zero_point, ctypes.c_int32, zp)
    _put_opt(data_type, _INT, int(dt))


@_api(wraps="post_ops.append_eltwise(alg, alpha, beta)")
def dnnl_post_ops_append_eltwise(post_ops, alg_kind, alpha, beta):
    """``dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
    float alpha, float beta)``"""
    _obj(post_ops, "post_ops").append_eltwise(_i(alg_kind), _f(alpha), _f(beta))


@_api(wraps="post_ops.get_params_eltwise(index)")
def dnnl_post_ops_get_params_eltwise(post_ops, index, alg_kind, alpha, beta):
    """``dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, float *alpha, float *beta)``"""
    alg, al, be = _obj(post_ops, "post_ops").get_params_eltwise(_i(index))
    _put_opt(alg_kind, _INT, int(alg))
    _put_opt(alpha, _F32, al)
    _put_opt(beta, _F32, be)


@_api(wraps="post_ops.append_dw(wdt, bdt, ddt, kernel, stride, padding_l)")
def dnnl_post_ops_append_dw(post_ops, weights_data_type, bias_data_type, dst_data_type,
                            kernel_size, stride_size, padding_l_size):
    """``dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops, dnnl_data_type_t
    weights_data_type, dnnl_data_type_t bias_data_type, dnnl_data_type_t dst_data_type,
    dnnl_dim_t kernel_size, dnnl_dim_t stride_size, dnnl_dim_t padding_l_size)``"""
    _obj(post_ops, "post_ops").append_dw(_i(weights_data_type), _i(bias_data_type),
                                         _i(dst_data_type), _i(kernel_size),
                                         _i(stride_size), _i(padding_l_size))


@_api(wraps="post_ops.get_params_dw(index)")
def dnnl_post_ops_get_params_dw(post_ops, index, weights_data_type, bias_data_type,
                                dst_data_type, kernel_size, stride_size, padding_l_size):
    """``dnnl_post_ops_get_params_dw(const_dnnl_post_ops_t post_ops, int index,
    dnnl_data_type_t *weights_data_type, dnnl_data_type_t *bias_data_type,
    dnnl_data_type_t *dst_data_type, dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
    dnnl_dim_t *padding_l_size)``"""
    w, b, d, k, s, p = _obj(post_ops, "post_ops").get_params_dw(_i(index))
    for ptr, ct, v in ((weights_data_type, _INT, int(w)), (bias_data_type, _INT, int(b)),
                       (dst_data_type, _INT, int(d)), (kernel_size, _I64, k),
                       (stride_size, _I64, s), (padding_l_size, _I64, p)):
        _put_opt(ptr, ct, v)


@_api(wraps="post_ops.append_binary(alg, src1_desc)")
def dnnl_post_ops_append_binary(post_ops, alg_kind, src1_desc):
    """``dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind,
    const_dnnl_memory_desc_t src1_desc)``"""
    po = _obj(post_ops, "post_ops")
    po.append_binary(_i(alg_kind), _obj(src1_desc, "md", "src1_desc"))


@_api(wraps="post_ops.append_binary(alg, src1_desc, src2_desc)")
def dnnl_post_ops_append_binary_v2(post_ops, alg_kind, src1_desc, src2_desc):
    """``dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops, dnnl_alg_kind_t
    alg_kind, const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc)``"""
    po = _obj(post_ops, "post_ops")
    po.append_binary(_i(alg_kind), _obj(src1_desc, "md", "src1_desc"),
                     _opt(src2_desc, "md", "src2_desc"))


@_api(wraps="post_ops.get_params_binary(index)")
def dnnl_post_ops_get_params_binary(post_ops, index, alg_kind, src1_desc):
    """``dnnl_post_ops_get_params_binary(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc)``"""
    alg, md1, _ = _obj(post_ops, "post_ops").get_params_binary_v2(_i(index))
    _put_opt(alg_kind, _INT, int(alg))
    if _addr(src1_desc):
        _view_out(src1_desc, post_ops, ("binary", id(md1)), "md", md1)


@_api(wraps="post_ops.get_params_binary_v2(index)")
def dnnl_post_ops_get_params_binary_v2(post_ops, index, alg_kind, src1_desc, src2_desc):
    """``dnnl_post_ops_get_params_binary_v2(const_dnnl_post_ops_t post_ops, int index,
    dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc,
    const_dnnl_memory_desc_t *src2_desc)``"""
    alg, md1, md2 = _obj(post_ops, "post_ops").get_params_binary_v2(_i(index))
    md2 = md2 if md2 is not None else _desc()
    _put_opt(alg_kind, _INT, int(alg))
    for ptr, md in ((src1_desc, md1), (src2_desc, md2)):
        if _addr(ptr):
            _view_out(ptr, post_ops, ("binary", id(md)), "md", md)


@_api(wraps="post_ops.append_prelu(mask)")
def dnnl_post_ops_append_prelu(post_ops, mask):
    """``dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask)``"""
    _obj(post_ops, "post_ops").append_prelu(_i(mask))


@_api(wraps="post_ops.get_params_prelu(index)")
def dnnl_post_ops_get_params_prelu(post_ops, index, mask):
    """``dnnl_post_ops_get_params_prelu(const_dnnl_post_ops_t post_ops, int index,
    int *mask)``"""
    _put_opt(mask, _INT, _obj(post_ops, "post_ops").get_params_prelu(_i(index)))
