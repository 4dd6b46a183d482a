"""The reorder kind's flat-API function (``dnnl.h``), which ``dnnl.capi``
exposes under its C name."""
import ctypes

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (api as _api, lookup as _rec, new_out as _new_out, obj as _obj,
                             opt_obj as _opt)

_F32 = ctypes.c_float


# --------------------------------------------------------------- reorder
@_api(wraps="dnnl.reorder.primitive_desc(src_engine, src_md, dst_engine, dst_md, attr)")
def dnnl_reorder_primitive_desc_create(reorder_primitive_desc, src_desc, src_engine,
                                       dst_desc, dst_engine, attr):
    """``dnnl_reorder_primitive_desc_create(dnnl_primitive_desc_t *reorder_primitive_desc,
    const_dnnl_memory_desc_t src_desc, dnnl_engine_t src_engine,
    const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
    const_dnnl_primitive_attr_t attr)``"""
    _b.out_address(reorder_primitive_desc, "reorder_primitive_desc")
    src_md, dst_md = _obj(src_desc, "md", "src_desc"), _obj(dst_desc, "md", "dst_desc")
    se, de = _rec(src_engine, "engine"), _rec(dst_engine, "engine")
    pd = dnnl.reorder.primitive_desc(se.obj, src_md, de.obj, dst_md, _opt(attr, "attr"))
    s_id, d_id = _b.handle_id(src_engine), _b.handle_id(dst_engine)
    _new_out(reorder_primitive_desc, "pd", pd, {"engine": s_id, "src": s_id, "dst": d_id})
