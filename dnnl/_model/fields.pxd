# Read-only fields of an extension type as member descriptors.
#
# Cython exposes a `cdef readonly object` field through a getset descriptor,
# which CPython's attribute specialisation does not cover: reading one from
# Python costs about five times an ordinary slot. A member descriptor (what
# `__slots__` makes) is specialised, so the types whose fields the Python
# layers read on every call (a memory's address, a descriptor's dims) publish
# them this way.
from cpython.mem cimport PyMem_Malloc
from cpython.ref cimport PyObject
from cpython.unicode cimport PyUnicode_AsUTF8

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        const char* name
        int type
        Py_ssize_t offset
        int flags
        const char* doc
    ctypedef struct _TypeWithDict "PyTypeObject":
        PyObject* tp_dict
        Py_ssize_t tp_basicsize
    object PyDescr_NewMember(_TypeWithDict*, PyMemberDef*)
    void PyType_Modified(_TypeWithDict*)

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030C0000    /* the names Python.h has from 3.12 */
    #define DNNL_PY_T_OBJECT_EX Py_T_OBJECT_EX
    #define DNNL_PY_READONLY Py_READONLY
    #else
    #include <structmember.h>
    #define DNNL_PY_T_OBJECT_EX T_OBJECT_EX
    #define DNNL_PY_READONLY READONLY
    #endif
    """
    enum: DNNL_PY_T_OBJECT_EX
    enum: DNNL_PY_READONLY


cdef inline expose_fields(type cls, object probe, tuple names, tuple sentinels):
    """Publish the object fields ``names`` of ``cls``'s instances as read-only
    member descriptors. ``probe`` is an instance whose field ``names[i]``
    holds ``sentinels[i]`` (distinct objects): each field's offset is where
    its sentinel sits in ``probe``'s struct, found exactly once."""
    cdef _TypeWithDict* t = <_TypeWithDict*>cls
    cdef PyObject** slots = <PyObject**><void*>probe
    cdef Py_ssize_t nslots = t.tp_basicsize // sizeof(PyObject*), i, k, found
    cdef PyMemberDef* defs = <PyMemberDef*>PyMem_Malloc(len(names) * sizeof(PyMemberDef))
    if defs == NULL:
        raise MemoryError()
    for k in range(len(names)):
        found = -1
        for i in range(nslots):
            if slots[i] == <PyObject*>sentinels[k]:
                if found >= 0:
                    raise RuntimeError("field %s found twice" % names[k])
                found = i
        if found < 0:
            raise RuntimeError("field %s not found" % names[k])
        defs[k].name = PyUnicode_AsUTF8(names[k])     # the names tuple lives on
        defs[k].type = DNNL_PY_T_OBJECT_EX
        defs[k].offset = found * sizeof(PyObject*)
        defs[k].flags = DNNL_PY_READONLY
        defs[k].doc = NULL
        (<dict>t.tp_dict)[names[k]] = PyDescr_NewMember(t, &defs[k])
    PyType_Modified(t)
