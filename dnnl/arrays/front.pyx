# cython: language_level=3, binding=True
"""The prepared calls' front table: a numpy array's call found in C.

:data:`dnnl.arrays.prepared.calls` keys a prepared call by the tuple ``(shape,
strides, dtype, settings.key, options)``. Making and hashing that tuple costs
more than a small call's kernel (two tuples of Python ints, and numpy hashes
a dtype by walking its fields), so the array functions look here first.

A slot holds the last call found for one signature: the array's exact
shape and strides, its dtype *object*, the settings' key *object* and the
*objects* passed as options, compared by identity. A literal option
(``"nhwc"``, ``np.int8``, ``None``) is the same object on every call, so
the calls users repeat hit; an equal option that is another object misses
here and finds its call in the dict as before. Identity is safe because a
slot holds references to what it compares: none of those objects can die
and leave its address to another. So a hit is always a call the dict holds
under an equal key.

A slot is one immutable :class:`Entry`, replaced whole, read and replaced
under the table's critical section (no lock on a CPython with a GIL).
"""
cimport cython
cimport numpy as cnp
from cpython.object cimport PyObject
from libc.stdint cimport uint64_t

import enum
import types

import numpy as np

cnp.import_array()

DEF MAX_DIMS = 8        # arrays of more dims take the dict alone
DEF SLOTS = 64          # a power of two: the slot is the hash's low bits

cdef object _ndarray = np.ndarray
# options whose value is fixed: exactly these types, or instances of these
cdef tuple _VALUES = (bool, int, float, str, type)
cdef tuple _CONSTANTS = (enum.Enum, np.dtype, types.FunctionType)


@cython.final
@cython.auto_pickle(False)
cdef class Entry:
    """One slot: a signature and its prepared call (never changed once made)."""
    cdef uint64_t hash
    cdef int ndim
    cdef cnp.npy_intp dims[MAX_DIMS]
    cdef cnp.npy_intp strides[MAX_DIMS]
    cdef object dtype, key, op, o1, o2, o3, o4, o5, call


cdef inline uint64_t _mix(uint64_t h, uint64_t v) noexcept nogil:
    # one round of a multiply-xorshift: enough to spread pointers and sizes
    h = (h ^ v) * <uint64_t>0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef inline uint64_t _signature(cnp.ndarray a, object op, object o1, object o2, object o3,
                                object o4, object o5) noexcept:
    cdef int i, nd = cnp.PyArray_NDIM(a)
    cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(a)
    cdef cnp.npy_intp *strides = cnp.PyArray_STRIDES(a)
    cdef uint64_t h = <uint64_t>nd
    for i in range(nd):
        h = _mix(h, <uint64_t>dims[i])
        h = _mix(h, <uint64_t>strides[i])
    h = _mix(h, <uint64_t><size_t><PyObject*>cnp.PyArray_DESCR(a))
    h = _mix(h, <uint64_t><size_t><PyObject*>op)
    h = _mix(h, <uint64_t><size_t><PyObject*>o1)
    h = _mix(h, <uint64_t><size_t><PyObject*>o2)
    h = _mix(h, <uint64_t><size_t><PyObject*>o3)
    h = _mix(h, <uint64_t><size_t><PyObject*>o4)
    return _mix(h, <uint64_t><size_t><PyObject*>o5)


cdef bint _immutable(tuple options):
    """Whether every option is of a type whose value cannot change (a list
    given as a size could be edited between two calls: identity would then
    find the old call)."""
    for o in options:
        if o is None or type(o) in _VALUES or isinstance(o, _CONSTANTS):
            continue
        if type(o) is tuple and _immutable(<tuple>o):
            continue
        return False
    return True


@cython.final
@cython.auto_pickle(False)
cdef class Front:
    """A table of :data:`SLOTS` entries in front of the prepared calls' dict.

    ``find(x, op, o1, ..., o5)``: the call stored for ``x`` (an exact
    ``numpy.ndarray``) and these options under the current settings, else
    None. ``store(x, (op, o1, ..., o5), key, call)``: remember ``call``,
    found in the dict under the settings' key ``key``, unless an option is
    of a type whose value can change. ``op`` names the function; unused
    options are passed as None.
    """
    cdef list slots
    cdef object key     # the settings' key now (rekey)
    cdef bint hashed

    def __cinit__(self, bint hashed=True):
        """``hashed=False`` (tests): every signature hashes to 0, so one slot
        and only the exact comparison tell the signatures apart."""
        self.slots = [None] * SLOTS
        self.hashed = hashed

    def rekey(self, key):
        """The settings' key changed to ``key`` (dnnl._core.settings.Settings.watch):
        the entries stored under another no longer match."""
        with cython.critical_section(self):
            self.key = key

    def find(self, x, op, o1, o2, o3, o4, o5):
        cdef cnp.ndarray a
        cdef Entry e
        cdef int i, nd
        cdef uint64_t h
        if type(x) is not _ndarray:
            return None
        a = <cnp.ndarray>x
        nd = cnp.PyArray_NDIM(a)
        if nd > MAX_DIMS:
            return None
        h = _signature(a, op, o1, o2, o3, o4, o5) if self.hashed else 0
        with cython.critical_section(self):
            slot = self.slots[h & (SLOTS - 1)]
            key = self.key
        if slot is None:
            return None
        e = <Entry>slot
        if (e.hash != h or e.ndim != nd or e.op is not op or e.o1 is not o1
                or e.o2 is not o2 or e.o3 is not o3 or e.o4 is not o4 or e.o5 is not o5
                or <PyObject*>e.dtype is not <PyObject*>cnp.PyArray_DESCR(a)):
            return None
        for i in range(nd):
            if (e.dims[i] != cnp.PyArray_DIMS(a)[i]
                    or e.strides[i] != cnp.PyArray_STRIDES(a)[i]):
                return None
        if e.key is not key:        # a switch changed since
            return None
        return e.call

    def store(self, x, tuple options, key, call):
        cdef cnp.ndarray a
        cdef Entry e
        cdef int i, nd
        if type(x) is not _ndarray or len(options) != 6 or not _immutable(options):
            return
        a = <cnp.ndarray>x
        nd = cnp.PyArray_NDIM(a)
        if nd > MAX_DIMS:
            return
        e = Entry.__new__(Entry)
        e.op, e.o1, e.o2, e.o3, e.o4, e.o5 = options
        e.hash = _signature(a, e.op, e.o1, e.o2, e.o3, e.o4, e.o5) if self.hashed else 0
        e.ndim = nd
        for i in range(nd):
            e.dims[i] = cnp.PyArray_DIMS(a)[i]
            e.strides[i] = cnp.PyArray_STRIDES(a)[i]
        e.dtype = <object><PyObject*>cnp.PyArray_DESCR(a)
        e.key, e.call = key, call
        with cython.critical_section(self):
            self.slots[e.hash & (SLOTS - 1)] = e
