"""``dnnl.capi``'s memory functions: memories over one handle or several
(``_v2``), host-scalar memories and their values, a memory's descriptor and
engine, mapping and data handles by buffer index. Thin wrappers over
``dnnl.memory``; ``dnnl.capi`` exposes each under its C name, in header
order."""
import ctypes

import numpy as np

import dnnl
from dnnl._core import capi as _b
from dnnl._core.capi import (address as _addr, api as _api, as_int as _i, lookup as _rec,
                             new_out as _new_out, obj as _obj, put_out as _put,
                             read_array as _read, view_out as _view_out)
from dnnl._core.enums import format_kind as _fk
from dnnl._core.error import invalid as _invalid
from dnnl._model.memory import memory_with_handles as _with_handles


_P = ctypes.c_void_p


def handle_arg(handle):
    """A data handle: a ctypes array stays an array (the memory checks its
    size, so a too small one is refused); anything else is its address."""
    return handle if isinstance(handle, ctypes.Array) else _addr(handle)


def _index(mem, index):
    """``index`` as a buffer of ``mem`` (``dnnl.error`` past its handles)."""
    i = _i(index)
    if mem.get_desc().format_kind == _fk.host_scalar:
        if i != 0:
            raise _invalid("a host-scalar memory has buffer 0 alone, not %d" % i)
    else:
        mem.get_data_handle(i)
    return i


def _map(memory, mapped_ptr, index):
    mem = _obj(memory, "memory")
    out = _b.out_address(mapped_ptr, "mapped_ptr")
    i = _index(mem, index)
    md = mem.get_desc()
    if md.format_kind == _fk.host_scalar:       # its own storage, as oneDNN's
        return _b.put(out, _P, mem.map_data(np.uint8).ctypes.data)
    size = mem.nbytes if i == 0 and md.is_blocked() else md.get_size(i)
    _b.put(out, _P, mem.get_data_handle(i) if size else None)


def _get_handle(memory, handle, index):
    out = _b.out_address(handle, "handle")
    if not _addr(memory):
        return _b.put(out, _P, None)
    _b.put(out, _P, _obj(memory, "memory").get_data_handle(_i(index)) or None)


def _scalar_memory(memory, value):
    mem = _obj(memory, "memory")
    addr = _b.out_address(value, "value")
    mem.get_host_scalar_value()         # a plain memory: invalid_arguments
    return mem, addr


# ------------------------------------------------------- memory objects
@_api(wraps="dnnl.memory(md, engine, handle)")
def dnnl_memory_create(memory, memory_desc, engine, handle):
    """``dnnl_memory_create(dnnl_memory_t *memory, const_dnnl_memory_desc_t memory_desc,
    dnnl_engine_t engine, void *handle)``"""
    _b.out_address(memory, "memory")
    eng = _rec(engine, "engine")
    # oneDNN 3.13 (measured) refuses a NULL descriptor; pass a zero md instead
    md = _obj(memory_desc, "md", "memory_desc")
    h = handle_arg(handle)     # a sparse descriptor's buffer 0 alone, as oneDNN
    _new_out(memory, "memory", _with_handles(md, eng.obj, [h]) if md.sparse else
             dnnl.memory(md, eng.obj, h), {"engine": _b.handle_id(engine)})


# ------------------------------------------------------- memory objects
@_api(wraps="dnnl.memory(md, engine, [handles...])")
def dnnl_memory_create_v2(memory, memory_desc, engine, nhandles, handles):
    """``dnnl_memory_create_v2(dnnl_memory_t *memory, const_dnnl_memory_desc_t
    memory_desc, dnnl_engine_t engine, int nhandles, void **handles)``"""
    _b.out_address(memory, "memory")
    eng = _rec(engine, "engine")
    n = _i(nhandles)
    if n <= 0 or not (isinstance(handles, (list, tuple)) or _addr(handles)):
        raise _invalid("nhandles must be positive and handles not NULL (nhandles is %d)"
                       % n)
    md = _obj(memory_desc, "md", "memory_desc")
    # as oneDNN 3.13.2 (measured): every handle given is a buffer, past the
    # descriptor's too (dnnl.memory(md, engine, [handles]) takes one per buffer)
    given = [h or 0 for h in _read(handles, _P, n, "handles")]
    _new_out(memory, "memory", _with_handles(md, eng.obj, given),
             {"engine": _b.handle_id(engine)})


@_api(wraps="dnnl.memory(md, value)")
def dnnl_memory_create_host_scalar(memory, memory_desc, scalar_ptr):
    """``dnnl_memory_create_host_scalar(dnnl_memory_t *memory,
    const_dnnl_memory_desc_t memory_desc, void *scalar_ptr)``"""
    _b.out_address(memory, "memory")
    value = _b.out_address(scalar_ptr, "scalar_ptr")
    md = _obj(memory_desc, "md", "memory_desc")
    if md.format_kind != _fk.host_scalar:
        raise _invalid("%r is not a host-scalar descriptor" % md)
    _new_out(memory, "memory", dnnl.memory(md, ctypes.string_at(value, md.get_size())))


@_api(wraps="memory.get_desc()")
def dnnl_memory_get_memory_desc(memory, memory_desc):
    """``dnnl_memory_get_memory_desc(const_dnnl_memory_t memory,
    const_dnnl_memory_desc_t *memory_desc)``"""
    mem = _obj(memory, "memory")
    _b.out_address(memory_desc, "memory_desc")
    _view_out(memory_desc, memory, "md", "md", mem.get_desc())


@_api(wraps="memory.get_engine()")
def dnnl_memory_get_engine(memory, engine):
    """``dnnl_memory_get_engine(const_dnnl_memory_t memory, dnnl_engine_t *engine)``"""
    _put(engine, _P, _rec(memory, "memory").engines.get("engine"), "engine")  # host scalar: NULL


@_api(wraps="memory.get_data_handle() (CPU: no mapping)")
def dnnl_memory_map_data(memory, mapped_ptr):
    """``dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr)``"""
    _map(memory, mapped_ptr, 0)


@_api(wraps="memory.get_data_handle(index) (CPU: no mapping)")
def dnnl_memory_map_data_v2(memory, mapped_ptr, index):
    """``dnnl_memory_map_data_v2(const_dnnl_memory_t memory, void **mapped_ptr,
    int index)``"""
    _map(memory, mapped_ptr, index)


@_api(wraps="memory.unmap_data(ptr)")
def dnnl_memory_unmap_data(memory, mapped_ptr):
    """``dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr)``"""
    _obj(memory, "memory").unmap_data(mapped_ptr)


@_api(wraps="memory.unmap_data(ptr, index)")
def dnnl_memory_unmap_data_v2(memory, mapped_ptr, index):
    """``dnnl_memory_unmap_data_v2(const_dnnl_memory_t memory, void *mapped_ptr,
    int index)``"""
    _obj(memory, "memory").unmap_data(mapped_ptr, _i(index))


@_api(wraps="memory.get_data_handle()")
def dnnl_memory_get_data_handle(memory, handle):
    """``dnnl_memory_get_data_handle(const_dnnl_memory_t memory, void **handle)``"""
    _get_handle(memory, handle, 0)


@_api(wraps="memory.set_data_handle(handle)")
def dnnl_memory_set_data_handle(memory, handle):
    """``dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle)``"""
    _obj(memory, "memory").set_data_handle(handle_arg(handle))


@_api(wraps="memory.get_data_handle(index)")
def dnnl_memory_get_data_handle_v2(memory, handle, index):
    """``dnnl_memory_get_data_handle_v2(const_dnnl_memory_t memory, void **handle,
    int index)``"""
    _get_handle(memory, handle, index)


@_api(wraps="memory.set_data_handle(handle, index)")
def dnnl_memory_set_data_handle_v2(memory, handle, index):
    """``dnnl_memory_set_data_handle_v2(dnnl_memory_t memory, void *handle, int index)``"""
    _obj(memory, "memory").set_data_handle(handle_arg(handle), index=_i(index))


@_api(wraps="memory.get_host_scalar_value()")
def dnnl_memory_get_host_scalar_value(memory, value):
    """``dnnl_memory_get_host_scalar_value(const_dnnl_memory_t memory, void *value)``"""
    mem, addr = _scalar_memory(memory, value)
    raw = mem.map_data(np.uint8).tobytes()
    ctypes.memmove(addr, raw, len(raw))


@_api(wraps="memory.set_host_scalar_value(value)")
def dnnl_memory_set_host_scalar_value(memory, value):
    """``dnnl_memory_set_host_scalar_value(dnnl_memory_t memory, const void *value)``"""
    mem, addr = _scalar_memory(memory, value)
    mem.set_host_scalar_value(ctypes.string_at(addr, mem.get_desc().get_size()))


@_api(wraps="(releases the handle)")
def dnnl_memory_destroy(memory):
    """``dnnl_memory_destroy(dnnl_memory_t memory)``"""
    _b.destroy(memory, "memory")
