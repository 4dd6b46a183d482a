"""``dnnl.capi``'s compatibility entry points: the ``dnnl_memory_desc_init*``
names of oneDNN's earlier API, over today's functions."""
import ctypes

from dnnl._core.capi import api as _api
from dnnl.capi._memory_desc import (dnnl_memory_desc_create_submemory,
                                    dnnl_memory_desc_create_with_strides,
                                    dnnl_memory_desc_create_with_tag)

_F32 = ctypes.c_float


# ================================================ compatibility entry points
@_api(wraps="dnnl.memory.desc(dims, data_type, tag)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_by_tag(memory_desc, ndims, dims, data_type, tag):
    """oneDNN 2.x ``dnnl_memory_desc_init_by_tag(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t
    tag)``: 2.x filled a caller-owned struct; here ``*memory_desc`` receives a handle
    to destroy with ``dnnl_memory_desc_destroy`` (= ``dnnl_memory_desc_create_with_tag``)."""
    return dnnl_memory_desc_create_with_tag.__wrapped__(memory_desc, ndims, dims, data_type,
                                                        tag)


@_api(wraps="dnnl.memory.desc(dims, data_type, strides)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_by_strides(memory_desc, ndims, dims, data_type, strides):
    """oneDNN 2.x ``dnnl_memory_desc_init_by_strides(dnnl_memory_desc_t *memory_desc,
    int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type, const dnnl_dims_t
    strides)`` (= ``dnnl_memory_desc_create_with_strides``)."""
    return dnnl_memory_desc_create_with_strides.__wrapped__(memory_desc, ndims, dims,
                                                            data_type, strides)


@_api(wraps="md.submemory_desc(dims, offsets)  [oneDNN 2.x name]")
def dnnl_memory_desc_init_submemory(memory_desc, parent_memory_desc, dims, offsets):
    """oneDNN 2.x ``dnnl_memory_desc_init_submemory(dnnl_memory_desc_t *memory_desc,
    const dnnl_memory_desc_t *parent_memory_desc, const dnnl_dims_t dims,
    const dnnl_dims_t offsets)``; the parent is a handle here
    (= ``dnnl_memory_desc_create_submemory``)."""
    return dnnl_memory_desc_create_submemory.__wrapped__(memory_desc, parent_memory_desc,
                                                         dims, offsets)


@_api(wraps="dnnl.memory.desc(dims, data_type, tag)  [seed name]")
def dnnl_memory_desc_init(memory_desc, ndims, dims, data_type, tag):
    """This project's seed ``dnnl_memory_desc_init(dnnl_memory_desc_t *md, int ndims,
    const dnnl_dims_t dims, dnnl_data_type_t data_type, dnnl_format_tag_t tag)``
    (= ``dnnl_memory_desc_create_with_tag``)."""
    return dnnl_memory_desc_create_with_tag.__wrapped__(memory_desc, ndims, dims, data_type,
                                                        tag)
