# Included by memory.pyx: memories made by the library's other layers (the
# flat API, the array layer's prepared calls, execute's binding) without
# memory()'s checks, which their callers made once.


def memory_over(md, aengine, nbytes, cnp.ndarray a):
    """A memory of ``md`` (``nbytes``: its :func:`span_bytes`) over the
    numpy array ``a`` that ``md`` describes, without the checks of ``memory(md,
    aengine, a)``: for the array layer's prepared calls, which made those
    checks once for this descriptor, shape and dtype."""
    cdef memory m = memory.__new__(memory, _BLANK)
    m._over(md, aengine, nbytes, a)
    return m


def memory_with_handles(md, aengine, handles):
    """``dnnl_memory_create_v2``'s memory: a buffer per handle, as many as
    given (oneDNN 3.13.2 takes any count above 0, measured); ``memory(md,
    aengine, [handles])`` takes exactly ``md.get_num_handles()``."""
    _args.instance(md, desc, "md")
    if md.format_kind == format_kind.host_scalar:
        return memory(md, aengine, list(handles))      # (refused: no engine there)
    cdef memory m = memory.__new__(memory, _BLANK)
    m._init_buffers(md, aengine, list(handles), True)
    return m


cdef dict _CHECKED = {}    # (md key, dtype key) checked for a memory over such an array -> span


def bind_declared(decl, args):
    """The memories of ``args`` in the order of ``decl`` (a primitive's
    ``(arg, md, output, name)`` declarations) when each is a memory of
    exactly the declared descriptor object, with a buffer, writable where it
    is written: the common case of ``primitive.execute``, checked in C.
    None otherwise: then each is checked and bound in Python, with the
    error that says what is wrong."""
    cdef list mems = []
    cdef tuple e
    if type(decl) is not tuple or type(args) is not dict:
        return None
    for entry in <tuple>decl:
        e = <tuple>entry
        obj = (<dict>args).get(e[0])
        if type(obj) is not memory:
            return None
        m = <memory>obj
        if m.md is not e[1] or not m.address or (e[2] and m.writable is not True):
            return None
        mems.append(m)
    return mems


def memory_allocated(md, aengine, nbytes):
    """``memory(md, aengine)`` of a descriptor checked before (its buffer the
    library's own, 64-byte aligned), without the checks: the memory and its
    buffer's address."""
    cdef memory m = memory.__new__(memory, _BLANK)
    cdef aligned_buffer store
    m.md, m.engine, m.nbytes = md, aengine, nbytes
    if not nbytes:
        m._own(np.empty(0, np.uint8), DNNL_MEMORY_ALLOCATE)
        return m, 0
    m._own_store(aligned_buffer(nbytes))
    return m, m.address
