"""The resampling kind's flat-API functions (``dnnl.h``), which
``dnnl.capi`` exposes under their C names."""
import ctypes

from dnnl._core import capi as _b
from dnnl._core.capi import (addr_or_seq as _addr_or_seq, api as _api, as_int as _i, lookup
                             as _rec, new_out as _new_out, opt_obj as _opt, read_array as
                             _read)
from dnnl.primitives.resampling.primitive import resampling_backward as _bwd
from dnnl.primitives.resampling.primitive import resampling_forward as _fwd

_F32 = ctypes.c_float


# ------------------------------------------------------------ resampling
def _factors(factors, src_md):
    if not _addr_or_seq(factors):
        return None
    return [ctypes.c_float(v).value for v in
            _read(factors, _F32, max(src_md.ndims - 2, 0), "factors")]


@_api(wraps="dnnl.resampling_forward.primitive_desc(engine, prop_kind, alg, factors, "
            "src_md, dst_md, attr)")
def dnnl_resampling_forward_primitive_desc_create(primitive_desc, engine, prop_kind,
                                                  alg_kind, factors, src_desc, dst_desc,
                                                  attr):
    """``dnnl_resampling_forward_primitive_desc_create(dnnl_primitive_desc_t
    *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
    dnnl_alg_kind_t alg_kind, const float *factors, const_dnnl_memory_desc_t src_desc,
    const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(primitive_desc, "primitive_desc")
    eng = _rec(engine, "engine")
    src = _opt(src_desc, "md", "src_desc")
    dst = _opt(dst_desc, "md", "dst_desc")
    f = _factors(factors, src) if src is not None else None
    head = (eng.obj, _i(prop_kind), _i(alg_kind)) + (() if f is None else (f,))
    pd = _fwd.primitive_desc(*(head + (src, dst, _opt(attr, "attr"))))
    _new_out(primitive_desc, "pd", pd, {"engine": _b.handle_id(engine)})


@_api(wraps="dnnl.resampling_backward.primitive_desc(engine, alg, factors, diff_src_md, "
            "diff_dst_md, hint_fwd_pd, attr)")
def dnnl_resampling_backward_primitive_desc_create(primitive_desc, engine, alg_kind,
                                                   factors, diff_src_desc, diff_dst_desc,
                                                   hint_fwd_pd, attr):
    """``dnnl_resampling_backward_primitive_desc_create(dnnl_primitive_desc_t
    *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
    const float *factors, const_dnnl_memory_desc_t diff_src_desc,
    const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
    const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(primitive_desc, "primitive_desc")
    eng = _rec(engine, "engine")
    dsrc = _opt(diff_src_desc, "md", "diff_src_desc")
    ddst = _opt(diff_dst_desc, "md", "diff_dst_desc")
    f = _factors(factors, dsrc) if dsrc is not None else None
    hint = _opt(hint_fwd_pd, "pd", "hint_fwd_pd")
    if f is None:
        args = (eng.obj, _i(alg_kind), dsrc, ddst, hint)
    elif ddst is None:     # the (factors, diff_src, hint) form
        args = (eng.obj, _i(alg_kind), f, dsrc, hint)
    else:
        args = (eng.obj, _i(alg_kind), f, dsrc, ddst, hint)
    pd = _bwd.primitive_desc(*(args + (_opt(attr, "attr"),)))
    _new_out(primitive_desc, "pd", pd, {"engine": _b.handle_id(engine)})
