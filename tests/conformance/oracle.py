"""Drive real oneDNN (libdnnl.so.3 from PyPI ``onednn``) through ctypes.

``load()`` returns one cached :class:`Oracle`, or ``None`` when real oneDNN is
not installed (docs/internals/conformance.md says how to install it). The
virtual environment holding it is ``$DNNL_ORACLE_VENV`` (exclusively, when
set), else ``<repo>/../onednn-venv``.

Loading (measured on oneDNN 3.13.2, PyPI ``onednn==2026.1.0``):

- ``OCL_ICD_FILENAMES=<venv>/lib/libintelocl.so`` is put in ``os.environ``
  before the first engine is created (engine creation returns status 2
  without it);
- the runtime libraries ``libintlc.so.5``, ``libimf.so``, ``libsvml.so``,
  ``libirng.so``, ``libtbb.so.12`` and ``libsycl.so.9`` are preloaded with
  ``RTLD_GLOBAL``; ``libdnnl.so.3`` then loads without ``LD_LIBRARY_PATH``.
  Loading plus the first CPU engine takes about 1 s.

Every method returns plain Python data and never raises on a oneDNN error
status: the status is returned instead. Numeric constants come from
``dnnl._core.enums.C`` (built from the project's ``include/dnnl_types.h``).

A descriptor "spec" is ``('tag', dims, dt, tag)`` or
``('strides', dims, dt, strides_or_None)``; ``dt`` and ``tag`` are C ints or
names (``"f32"``, ``"nChw16c"``, ``"dnnl_aBcd16b"``). Derived specs
``('sub', parent_spec, dims, offsets)``, ``('reshape', parent_spec, dims)``
and ``('permute', parent_spec, perm)`` are accepted wherever a spec is (except
as the runtime-dims side of a forced reorder).

Forcing the reference reorder (``reorder(..., force_simple=True)``)
--------------------------------------------------------------------
Real oneDNN takes the first implementation in its reorder list that accepts
the problem, and a reorder pd has no ``next_impl``. ``reorder()`` first
creates the pd from the real descriptors (its status is oneDNN's validation:
a runtime-dims pd would hide e.g. a dims mismatch). With ``force_simple`` it
then creates a second pd from *runtime* descriptors (every dim
``DNNL_RUNTIME_DIM_VAL``; a tag spec keeps its tag, a strides spec gets
runtime strides) and executes that one with memories made from the real
descriptors. Measured on 3.13.2 (this machine: avx512_core_bf16):

- Runtime dims work with **blocked tags** too: for every abstract tag of rank
  <= 6 (861 tags), plain f32 -> tag in f32 and s8, the runtime pd is
  ``simple:any`` in all 1,722 cases and its output bytes (padding zeroed)
  equal those of the implementation oneDNN picks without runtime dims
  (``jit:uni`` for most, ``jit_direct_copy:uni``,
  ``brgemm_matmul_copy_reorder_t`` for 11 f32 weight tags,
  ``rnn_data_reorder`` for 8 s8 tags). Strided specs with runtime strides are
  ``simple:any`` as well, with or without scales, zero points and sum.
- Type pairs: the runtime pd is ``simple:any`` for f32/bf16/s8/u8/s32 pairs
  (except bf16<->s32), and for f16, f8_e5m2, f8_e4m3, e8m0 pairs that have a
  reference at all. It is **unimplemented (3) for sub-byte types** (s4, u4,
  f4_e2m1 as src or dst): there the real-dims pd is already ``simple:any``
  and is used. Pairs served only by ``jit_direct_copy:uni`` (bf16<->s32,
  int -> s64 / e8m0 / sub-byte) have no reference: ``reorder()`` returns
  status 3 with that impl string. f64 and most s64 pairs are unimplemented
  on this CPU either way.
- Without ``force_simple`` the real-dims pd is executed as is.

The impl string actually executed is returned so callers can assert on it;
``probe_reorder_impls()`` reproduces a summary table.

Resampling: ``resampling()`` steps ``dnnl_primitive_desc_next_impl`` until the
impl string starts with ``ref`` (forward lists ``jit:avx512_core_bf16``,
``simple:any``, ``ref:any``; backward ``simple:any``, ``ref:any``).
"""
import collections
import ctypes
import functools
import os

import numpy as np

try:
    from dnnl._core.enums import C
except Exception:  # pragma: no cover - the project is not built
    C = None

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PRELOAD = ("libintlc.so.5", "libimf.so", "libsvml.so", "libirng.so",
            "libtbb.so.12", "libsycl.so.9")
MAX_NDIMS = 12

#: Number of cases compared with real oneDNN, per category (printed by conftest).
CASES = collections.Counter()


def record(category, n=1):
    CASES[category] += n


#: Breakdowns of recorded cases (e.g. equal / documented / other per
#: function), printed by conftest after the total and not added to it.
DETAILS = collections.Counter()


def record_detail(category, n=1):
    DETAILS[category] += n


#: Named tallies of a test module (e.g. the mix of resampling problems),
#: printed by conftest at the end of the run, whatever order the tests ran in.
TALLIES = {}


def tally(name, counts):
    TALLIES[name] = counts
    return counts

Dims = ctypes.c_int64 * MAX_NDIMS
_p = ctypes.c_void_p
_i = ctypes.c_int
_i64 = ctypes.c_int64
_f = ctypes.c_float


class _ExecArg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class _Version(ctypes.Structure):
    _fields_ = [("major", _i), ("minor", _i), ("patch", _i),
                ("hash", ctypes.c_char_p), ("cpu_runtime", ctypes.c_uint),
                ("gpu_runtime", ctypes.c_uint)]


# name -> (restype, argtypes)
_SIGS = {
    "dnnl_version": (ctypes.POINTER(_Version), []),
    "dnnl_engine_create": (_i, [ctypes.POINTER(_p), _i, ctypes.c_size_t]),
    "dnnl_stream_create": (_i, [ctypes.POINTER(_p), _p, ctypes.c_uint]),
    "dnnl_stream_wait": (_i, [_p]),
    "dnnl_memory_desc_create_with_tag": (_i, [ctypes.POINTER(_p), _i, Dims, _i, _i]),
    "dnnl_memory_desc_create_with_strides": (_i, [ctypes.POINTER(_p), _i, Dims, _i, _p]),
    "dnnl_memory_desc_create_submemory": (_i, [ctypes.POINTER(_p), _p, Dims, Dims]),
    "dnnl_memory_desc_reshape": (_i, [ctypes.POINTER(_p), _p, _i, Dims]),
    "dnnl_memory_desc_permute_axes": (_i, [ctypes.POINTER(_p), _p, ctypes.POINTER(_i)]),
    "dnnl_memory_desc_query": (_i, [_p, _i, _p]),
    "dnnl_memory_desc_equal": (_i, [_p, _p]),
    "dnnl_memory_desc_get_size": (ctypes.c_size_t, [_p]),
    "dnnl_memory_desc_destroy": (_i, [_p]),
    "dnnl_memory_create": (_i, [ctypes.POINTER(_p), _p, _p, _p]),
    "dnnl_memory_destroy": (_i, [_p]),
    "dnnl_primitive_attr_create": (_i, [ctypes.POINTER(_p)]),
    "dnnl_primitive_attr_destroy": (_i, [_p]),
    "dnnl_primitive_attr_set_scales": (_i, [_p, _i, _i, _i, _p, _i]),
    "dnnl_primitive_attr_set_zero_points": (_i, [_p, _i, _i, _i, _p, _i]),
    "dnnl_primitive_attr_set_post_ops": (_i, [_p, _p]),
    "dnnl_post_ops_create": (_i, [ctypes.POINTER(_p)]),
    "dnnl_post_ops_destroy": (_i, [_p]),
    "dnnl_post_ops_append_sum": (_i, [_p, _f, ctypes.c_int32, _i]),
    "dnnl_post_ops_append_eltwise": (_i, [_p, _i, _f, _f]),
    "dnnl_post_ops_append_binary": (_i, [_p, _i, _p]),
    "dnnl_reorder_primitive_desc_create": (_i, [ctypes.POINTER(_p), _p, _p, _p, _p, _p]),
    "dnnl_resampling_forward_primitive_desc_create": (
        _i, [ctypes.POINTER(_p), _p, _i, _i, ctypes.POINTER(_f), _p, _p, _p]),
    "dnnl_resampling_backward_primitive_desc_create": (
        _i, [ctypes.POINTER(_p), _p, _i, ctypes.POINTER(_f), _p, _p, _p, _p]),
    "dnnl_primitive_desc_query": (_i, [_p, _i, _i, _p]),
    "dnnl_primitive_desc_query_md": (_p, [_p, _i, _i]),
    "dnnl_primitive_desc_next_impl": (_i, [_p]),
    "dnnl_primitive_desc_destroy": (_i, [_p]),
    "dnnl_primitive_create": (_i, [ctypes.POINTER(_p), _p]),
    "dnnl_primitive_execute": (_i, [_p, _p, _i, ctypes.POINTER(_ExecArg)]),
    "dnnl_primitive_destroy": (_i, [_p]),
}

_DT_ALIASES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16",
               "int32": "s32", "int8": "s8", "uint8": "u8", "float64": "f64",
               "int64": "s64"}
# numpy dtypes for attribute value buffers (bf16 handled separately)
_NP = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "s32": np.int32,
       "s8": np.int8, "u8": np.uint8, "s64": np.int64}


# CPU features oneDNN's data-type support depends on
def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


_CPU_FLAGS = _cpu_flags()


def lacks_native_support(dt):
    """True when oneDNN's ``platform::has_data_type_support(dt)`` is false on
    this CPU (x86-64; False when the CPU flags cannot be read, so nothing is
    excused)."""
    if _CPU_FLAGS is None or dt not in ("bf16", "f16"):
        return False
    has = _CPU_FLAGS.__contains__
    avx512_core = all(map(has, ("avx512f", "avx512bw", "avx512vl", "avx512dq")))
    avx2_vnni_2 = all(map(has, ("avx2", "avx_vnni", "avx_vnni_int8", "avx_ne_convert")))
    if dt == "bf16":
        return not (avx512_core or avx2_vnni_2)
    avx512_core_fp16 = avx512_core and all(map(has, ("avx512_fp16", "avx512_bf16",
                                                     "avx512_vnni", "avx_vnni")))
    return not (avx512_core_fp16 or avx2_vnni_2)


def lacks_amx():
    """True when oneDNN's ``mayiuse(avx512_core_amx)`` is false on this CPU
    (what ``jit_direct_copy:uni`` needs for f8; False when the flags cannot be
    read, so nothing is excused)."""
    if _CPU_FLAGS is None:
        return False
    return not {"amx_tile", "amx_int8", "amx_bf16", "avx512_bf16"} <= _CPU_FLAGS


def venv_dir():
    """The directory of the oneDNN virtual environment, or None.

    ``$DNNL_ORACLE_VENV``, when set, is the only candidate (set it to a
    missing path to run without the oracle).
    """
    env = os.environ.get("DNNL_ORACLE_VENV")
    cands = [env] if env else [os.path.join(os.path.dirname(_REPO), "onednn-venv")]
    for c in cands:
        if c and os.path.exists(os.path.join(c, "lib", "libdnnl.so.3")):
            return c
    return None


@functools.lru_cache(maxsize=None)
def load():
    """The cached Oracle, or None if real oneDNN (or the built project) is missing."""
    if C is None:
        return None
    venv = venv_dir()
    if venv is None:
        return None
    try:
        return Oracle(os.path.join(venv, "lib"))
    except OSError:
        return None


def dt_value(dt):
    if isinstance(dt, str):
        name = _DT_ALIASES.get(dt, dt)
        for key in (name, "dnnl_" + name, "dnnl_data_type_" + name):
            if key in C:
                return C[key]
        raise KeyError(dt)
    return int(dt)


def dt_name(dt):
    v = dt_value(dt)
    for name in ("f16", "bf16", "f32", "s32", "s8", "u8", "f64", "boolean",
                 "f8_e5m2", "f8_e4m3", "s4", "u4", "e8m0", "f4_e2m1", "f4_e3m0", "s64"):
        if C.get("dnnl_" + name) == v:
            return name
    return None


def tag_value(tag):
    if isinstance(tag, str):
        for key in (tag, "dnnl_" + tag, "dnnl_format_tag_" + tag):
            if key in C:
                return C[key]
        raise KeyError(tag)
    return int(tag)


def alg_value(alg, prefixes=()):
    if isinstance(alg, str):
        for key in (alg,) + tuple(p + alg for p in prefixes) + ("dnnl_" + alg,):
            if key in C:
                return C[key]
        raise KeyError(alg)
    return int(alg)


def _dims(values):
    arr = Dims()
    for i, v in enumerate(values):
        arr[i] = int(v)
    return arr


def values_bytes(values, dt):
    """Raw bytes of a list/array of attribute values stored as data type dt."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        return bytes(values)
    name = dt_name(dt)
    if name == "bf16":
        f = np.ascontiguousarray(np.asarray(values, dtype=np.float32)).view(np.uint32)
        rounded = (f + 0x7FFF + ((f >> 16) & 1)) >> 16  # round half to even
        nan = np.isnan(np.asarray(values, dtype=np.float32))
        rounded = np.where(nan, (f >> 16) | 0x40, rounded)
        return rounded.astype(np.uint16).tobytes()
    if name in ("s4", "u4"):
        v = np.asarray(values, dtype=np.int64) & 0xF
        if len(v) % 2:
            v = np.append(v, 0)
        return (v[0::2] | (v[1::2] << 4)).astype(np.uint8).tobytes()
    if name in _NP:
        return np.ascontiguousarray(np.asarray(values, dtype=_NP[name])).tobytes()
    raise ValueError("no value conversion for data type %r" % (dt,))


class Oracle:
    """Real oneDNN, one CPU engine and one stream."""

    def __init__(self, libdir):
        os.environ.setdefault("OCL_ICD_FILENAMES", os.path.join(libdir, "libintelocl.so"))
        self._keep = []
        for name in _PRELOAD:
            path = os.path.join(libdir, name)
            if os.path.exists(path):
                self._keep.append(ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL))
        self.lib = lib = ctypes.CDLL(os.path.join(libdir, "libdnnl.so.3"))
        for name, (res, args) in _SIGS.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        v = lib.dnnl_version().contents
        self.version = (v.major, v.minor, v.patch)
        self.engine = _p()
        st = lib.dnnl_engine_create(ctypes.byref(self.engine), C["dnnl_cpu"], 0)
        if st != C["dnnl_success"]:
            raise OSError("dnnl_engine_create failed with status %d" % st)
        self.stream = _p()
        st = lib.dnnl_stream_create(ctypes.byref(self.stream), self.engine,
                                    C["dnnl_stream_default_flags"])
        if st != C["dnnl_success"]:
            raise OSError("dnnl_stream_create failed with status %d" % st)

    # ------------------------------------------------------------------ mds
    def _create(self, spec, runtime=False):
        """(status, md handle or None) for a spec; runtime=True replaces dims.

        Besides ('tag', ...) and ('strides', ...), derived specs are accepted:
        ('sub', parent_spec, dims, offsets), ('reshape', parent_spec, dims),
        ('permute', parent_spec, perm); the caller destroys the handle.
        """
        if spec[0] in ("sub", "reshape", "permute"):
            st, parent = self._create(spec[1])
            if st != C["dnnl_success"]:
                return st, None
            md = _p()
            try:
                if spec[0] == "sub":
                    st = self.lib.dnnl_memory_desc_create_submemory(
                        ctypes.byref(md), parent, _dims(spec[2]), _dims(spec[3]))
                elif spec[0] == "reshape":
                    st = self.lib.dnnl_memory_desc_reshape(
                        ctypes.byref(md), parent, len(spec[2]), _dims(spec[2]))
                else:
                    perm = (ctypes.c_int * MAX_NDIMS)(*[int(x) for x in spec[2]])
                    st = self.lib.dnnl_memory_desc_permute_axes(ctypes.byref(md), parent,
                                                                perm)
            finally:
                self._destroy(parent)
            return (st, md) if st == C["dnnl_success"] else (st, None)
        kind, dims, dt, extra = spec
        n = len(dims)
        rt = C["DNNL_RUNTIME_DIM_VAL"]
        d = _dims([rt] * n if runtime else dims)
        md = _p()
        if kind == "tag":
            st = self.lib.dnnl_memory_desc_create_with_tag(
                ctypes.byref(md), n, d, dt_value(dt), tag_value(extra))
        elif kind == "strides":
            if extra is None:
                strides = None
            else:
                strides = _dims([rt] * n if runtime else extra)
            st = self.lib.dnnl_memory_desc_create_with_strides(
                ctypes.byref(md), n, d, dt_value(dt),
                ctypes.cast(strides, _p) if strides is not None else None)
        else:
            raise ValueError("unknown spec kind %r" % (kind,))
        if st != C["dnnl_success"]:
            return st, None
        return st, md

    def _destroy(self, *mds):
        for md in mds:
            if md:
                self.lib.dnnl_memory_desc_destroy(md)

    def _dims_query(self, md, what, n):
        ptr = ctypes.POINTER(Dims)()
        st = self.lib.dnnl_memory_desc_query(md, C[what], ctypes.byref(ptr))
        if st != C["dnnl_success"]:
            return None
        return [ptr.contents[i] for i in range(n)]

    def _int_query(self, md, what, ctype=ctypes.c_int32):
        val = ctype()
        st = self.lib.dnnl_memory_desc_query(md, C[what], ctypes.byref(val))
        if st != C["dnnl_success"]:
            return None
        return val.value

    def info(self, md):
        """Every field of an md (a handle), as a dict, through dnnl_memory_desc_query."""
        n = self._int_query(md, "dnnl_query_ndims_s32")
        fk = self._int_query(md, "dnnl_query_format_kind", ctypes.c_int)
        res = {
            "ndims": n,
            "dims": self._dims_query(md, "dnnl_query_dims", n),
            "data_type": self._int_query(md, "dnnl_query_data_type", ctypes.c_int),
            "padded_dims": self._dims_query(md, "dnnl_query_padded_dims", n),
            "padded_offsets": self._dims_query(md, "dnnl_query_padded_offsets", n),
            "offset0": self._int_query(md, "dnnl_query_submemory_offset_s64", ctypes.c_int64),
            "format_kind": fk,
            "strides": None, "inner_nblks": None, "inner_blks": None, "inner_idxs": None,
            "size": self.lib.dnnl_memory_desc_get_size(md),
        }
        if fk == C["dnnl_blocked"]:
            nb = self._int_query(md, "dnnl_query_inner_nblks_s32")
            res["strides"] = self._dims_query(md, "dnnl_query_strides", n)
            res["inner_nblks"] = nb
            res["inner_blks"] = self._dims_query(md, "dnnl_query_inner_blks", nb)
            res["inner_idxs"] = self._dims_query(md, "dnnl_query_inner_idxs", nb)
        return res

    def _result(self, st, md):
        if st != C["dnnl_success"]:
            return st, None
        try:
            return st, self.info(md)
        finally:
            self._destroy(md)

    def md(self, spec):
        """(status, info) for a spec."""
        return self._result(*self._create(spec))

    def md_with_tag(self, dims, dt, tag):
        return self.md(("tag", list(dims), dt, tag))

    def md_with_strides(self, dims, dt, strides):
        return self.md(("strides", list(dims), dt,
                        None if strides is None else list(strides)))

    def submemory(self, parent_spec, dims, offsets):
        return self.md(("sub", parent_spec, list(dims), list(offsets)))

    def reshape(self, parent_spec, dims):
        return self.md(("reshape", parent_spec, list(dims)))

    def permute_axes(self, parent_spec, perm):
        return self.md(("permute", parent_spec, list(perm)))

    def equal(self, spec_a, spec_b):
        """(status, bool): status is the first failing creation status."""
        st, a = self._create(spec_a)
        if st != C["dnnl_success"]:
            return st, None
        st, b = self._create(spec_b)
        if st != C["dnnl_success"]:
            self._destroy(a)
            return st, None
        try:
            return st, bool(self.lib.dnnl_memory_desc_equal(a, b))
        finally:
            self._destroy(a, b)

    # ----------------------------------------------------------- execution
    def _pd_impl(self, pd):
        s = ctypes.c_char_p()
        st = self.lib.dnnl_primitive_desc_query(pd, C["dnnl_query_impl_info_str"], 0,
                                                ctypes.byref(s))
        return s.value.decode() if st == C["dnnl_success"] and s.value else None

    def _pd_md_info(self, pd, what, index=0):
        md = self.lib.dnnl_primitive_desc_query_md(pd, C[what], index)
        return self.info(md) if md else None

    def _memory(self, md, data, keep):
        """A memory on a user buffer holding data (bytes) padded to the md's size."""
        size = self.lib.dnnl_memory_desc_get_size(md)
        buf = ctypes.create_string_buffer(max(size, 1) + 64)
        if data is not None:
            data = bytes(data)[:size]
            ctypes.memmove(buf, data, len(data))
        mem = _p()
        st = self.lib.dnnl_memory_create(ctypes.byref(mem), md, self.engine,
                                         ctypes.cast(buf, _p))
        keep.append(buf)
        return st, mem, buf, size

    def _value_memory(self, values, dt, keep, mems, mds):
        raw = values_bytes(values, dt)
        name = dt_name(dt)
        count = len(values) if not isinstance(values, (bytes, bytearray, memoryview)) \
            else len(raw) // max(1, np.dtype(_NP.get(name, np.uint8)).itemsize)
        md = _p()
        st = self.lib.dnnl_memory_desc_create_with_tag(
            ctypes.byref(md), 1, _dims([max(count, 1)]), dt_value(dt), C["dnnl_a"])
        if st != C["dnnl_success"]:
            return st, None
        mds.append(md)
        st, mem, _, _ = self._memory(md, raw, keep)
        if st == C["dnnl_success"]:
            mems.append(mem)
        return st, mem

    def _run(self, pd, args, keep):
        """Create and execute a primitive: args is [(arg, memory)]."""
        prim = _p()
        st = self.lib.dnnl_primitive_create(ctypes.byref(prim), pd)
        if st != C["dnnl_success"]:
            return st
        try:
            arr = (_ExecArg * max(len(args), 1))(*[_ExecArg(a, m) for a, m in args])
            st = self.lib.dnnl_primitive_execute(prim, self.stream, len(args), arr)
            if st == C["dnnl_success"]:
                st = self.lib.dnnl_stream_wait(self.stream)
            return st
        finally:
            self.lib.dnnl_primitive_destroy(prim)

    def _attr(self, scales, zero_points, post_ops, keep, mems, mds, exec_args):
        """Build an attr (or None); returns (status, attr, post_ops handle)."""
        if not scales and not zero_points and not post_ops:
            return C["dnnl_success"], None, None
        attr = _p()
        self.lib.dnnl_primitive_attr_create(ctypes.byref(attr))
        po = None
        for arg, (mask, values, dt) in (scales or {}).items():
            st = self.lib.dnnl_primitive_attr_set_scales(attr, arg, mask, 0, None,
                                                         dt_value(dt))
            if st != C["dnnl_success"]:
                return st, attr, po
            st, mem = self._value_memory(values, dt, keep, mems, mds)
            if st != C["dnnl_success"]:
                return st, attr, po
            exec_args.append((C["DNNL_ARG_ATTR_SCALES"] | arg, mem))
        for arg, (mask, values, dt) in (zero_points or {}).items():
            st = self.lib.dnnl_primitive_attr_set_zero_points(attr, arg, mask, 0, None,
                                                              dt_value(dt))
            if st != C["dnnl_success"]:
                return st, attr, po
            st, mem = self._value_memory(values, dt, keep, mems, mds)
            if st != C["dnnl_success"]:
                return st, attr, po
            exec_args.append((C["DNNL_ARG_ATTR_ZERO_POINTS"] | arg, mem))
        if post_ops:
            po = _p()
            self.lib.dnnl_post_ops_create(ctypes.byref(po))
            for idx, op in enumerate(post_ops):
                kind = op[0]
                if kind == "sum":
                    _, scale, zp, dt = op
                    st = self.lib.dnnl_post_ops_append_sum(
                        po, scale, zp, dt_value(dt) if dt is not None else 0)
                elif kind == "eltwise":
                    _, alg, alpha, beta = op
                    st = self.lib.dnnl_post_ops_append_eltwise(
                        po, alg_value(alg, ("dnnl_eltwise_",)), alpha, beta)
                elif kind == "binary":
                    _, alg, src1_spec, src1_bytes = op
                    st, md1 = self._create(src1_spec)
                    if st == C["dnnl_success"]:
                        mds.append(md1)
                        st = self.lib.dnnl_post_ops_append_binary(
                            po, alg_value(alg, ("dnnl_binary_",)), md1)
                    if st == C["dnnl_success"]:
                        st, mem, _, _ = self._memory(md1, src1_bytes, keep)
                        if st == C["dnnl_success"]:
                            mems.append(mem)
                            exec_args.append(
                                (C["DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE"] * (idx + 1)
                                 | C["DNNL_ARG_SRC_1"], mem))
                else:
                    raise ValueError("unknown post-op %r" % (kind,))
                if st != C["dnnl_success"]:
                    return st, attr, po
            st = self.lib.dnnl_primitive_attr_set_post_ops(attr, po)
            if st != C["dnnl_success"]:
                return st, attr, po
        return C["dnnl_success"], attr, po

    def _cleanup(self, attr, po, mems, mds, pds=()):
        for m in mems:
            self.lib.dnnl_memory_destroy(m)
        for pd in pds:
            if pd:
                self.lib.dnnl_primitive_desc_destroy(pd)
        if attr:
            self.lib.dnnl_primitive_attr_destroy(attr)
        if po:
            self.lib.dnnl_post_ops_destroy(po)
        self._destroy(*mds)

    def reorder(self, src_spec, src_bytes, dst_spec, dst_init_bytes=None, scales=None,
                zero_points=None, sum=None, force_simple=True):
        """Run a reorder: (status, dst_bytes or None, impl_str or None).

        scales / zero_points: {arg: (mask, values, data_type)} with arg
        DNNL_ARG_SRC (1) or DNNL_ARG_DST (17); sum: (scale, zero_point, dt).
        dst_bytes covers dst's get_size() (the buffer starts as dst_init_bytes,
        zeros if None).
        """
        keep, mems, mds, exec_args = [], [], [], []
        attr = po = pd = None
        try:
            st, src = self._create(src_spec)
            if st != C["dnnl_success"]:
                return st, None, None
            mds.append(src)
            st, dst = self._create(dst_spec)
            if st != C["dnnl_success"]:
                return st, None, None
            mds.append(dst)
            st, attr, po = self._attr(scales, zero_points,
                                      [("sum",) + tuple(sum)] if sum else None,
                                      keep, mems, mds, exec_args)
            if st != C["dnnl_success"]:
                return st, None, None
            # the real-dims pd first: its status is oneDNN's validation (a
            # runtime-dims pd would hide e.g. a dims mismatch)
            pd = _p()
            st = self.lib.dnnl_reorder_primitive_desc_create(
                ctypes.byref(pd), src, self.engine, dst, self.engine, attr)
            if st != C["dnnl_success"]:
                pd = None
                return st, None, None
            impl = self._pd_impl(pd)
            if force_simple:
                # runtime-dims pd: served by the generic simple:any reorder
                rpd = None
                rt_st, psrc = self._create(src_spec, runtime=True)
                if rt_st == C["dnnl_success"]:
                    mds.append(psrc)
                    rt_st, pdst = self._create(dst_spec, runtime=True)
                if rt_st == C["dnnl_success"]:
                    mds.append(pdst)
                    rpd = _p()
                    rt_st = self.lib.dnnl_reorder_primitive_desc_create(
                        ctypes.byref(rpd), psrc, self.engine, pdst, self.engine, attr)
                if rt_st == C["dnnl_success"]:
                    self.lib.dnnl_primitive_desc_destroy(pd)
                    pd = rpd
                elif impl != "simple:any":
                    # no runtime-dims implementation (sub-byte types, some
                    # type pairs) and the real one is not the reference:
                    # report the runtime status with the impl oneDNN uses
                    return rt_st, None, impl
            impl = self._pd_impl(pd)
            st, msrc, _, _ = self._memory(src, src_bytes, keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            mems.append(msrc)
            st, mdst, dbuf, dsize = self._memory(dst, dst_init_bytes or b"", keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            mems.append(mdst)
            args = [(C["DNNL_ARG_FROM"], msrc), (C["DNNL_ARG_TO"], mdst)] + exec_args
            st = self._run(pd, args, keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            return st, dbuf.raw[:dsize], impl
        finally:
            self._cleanup(attr, po, mems, mds, [pd])

    def reorder_impl(self, src_spec, dst_spec, force_simple=False, **attrs):
        """(status, impl_str) of the reorder pd, without executing."""
        keep, mems, mds, exec_args = [], [], [], []
        attr = po = pd = None
        try:
            st, src = self._create(src_spec, runtime=force_simple)
            if st != C["dnnl_success"]:
                return st, None
            mds.append(src)
            st, dst = self._create(dst_spec, runtime=force_simple)
            if st != C["dnnl_success"]:
                return st, None
            mds.append(dst)
            s = attrs.get("sum")
            st, attr, po = self._attr(attrs.get("scales"), attrs.get("zero_points"),
                                      [("sum",) + tuple(s)] if s else None,
                                      keep, mems, mds, exec_args)
            if st != C["dnnl_success"]:
                return st, None
            pd = _p()
            st = self.lib.dnnl_reorder_primitive_desc_create(
                ctypes.byref(pd), src, self.engine, dst, self.engine, attr)
            if st != C["dnnl_success"]:
                pd = None
                return st, None
            return st, self._pd_impl(pd)
        finally:
            self._cleanup(attr, po, mems, mds, [pd])

    def resampling(self, prop, alg, src_spec, dst_spec, data, factors=None,
                   post_ops=None, dst_init_bytes=None, impl_prefix="ref"):
        """Run resampling on the first implementation whose name starts with impl_prefix.

        prop: 'forward_training' | 'forward_inference' | 'backward_data' (or C
        ints); alg: 'nearest' | 'linear' (or C ints). src_spec/dst_spec are
        (diff_)src and (diff_)dst; dst_spec may be None when factors are given.
        data: forward src bytes, backward diff_dst bytes. post_ops: list of
        ('sum', scale, zp, dt) | ('eltwise', alg, alpha, beta) |
        ('binary', alg, src1_spec, src1_bytes). Returns (status, output bytes
        (dst, or diff_src for backward) or None, impl_str). If no
        implementation matches impl_prefix, the status is
        dnnl_last_impl_reached and impl_str names the last one tried.
        Pass impl_prefix=None to run the first implementation.
        """
        prop_v = alg_value(prop, ("dnnl_",))
        alg_v = alg_value(alg, ("dnnl_resampling_",))
        backward = prop_v == C["dnnl_backward_data"]
        keep, mems, mds, exec_args = [], [], [], []
        attr = po = pd = hint = None
        try:
            st, src = self._create(src_spec)
            if st != C["dnnl_success"]:
                return st, None, None
            mds.append(src)
            dst = None
            if dst_spec is not None:
                st, dst = self._create(dst_spec)
                if st != C["dnnl_success"]:
                    return st, None, None
                mds.append(dst)
            fac = None
            if factors is not None:
                fac = (_f * max(len(factors), 1))(*factors)
            st, attr, po = self._attr(None, None, post_ops, keep, mems, mds, exec_args)
            if st != C["dnnl_success"]:
                return st, None, None
            pd = _p()
            if backward:
                hint = _p()
                hst = self.lib.dnnl_resampling_forward_primitive_desc_create(
                    ctypes.byref(hint), self.engine, C["dnnl_forward_training"], alg_v,
                    fac, src, dst, None)
                if hst != C["dnnl_success"]:
                    hint = None
                st = self.lib.dnnl_resampling_backward_primitive_desc_create(
                    ctypes.byref(pd), self.engine, alg_v, fac, src, dst, hint, attr)
            else:
                st = self.lib.dnnl_resampling_forward_primitive_desc_create(
                    ctypes.byref(pd), self.engine, prop_v, alg_v, fac, src, dst, attr)
            if st != C["dnnl_success"]:
                pd = None
                return st, None, None
            impl = self._pd_impl(pd)
            while impl_prefix is not None and not (impl or "").startswith(impl_prefix):
                st = self.lib.dnnl_primitive_desc_next_impl(pd)
                if st != C["dnnl_success"]:
                    return st, None, impl
                impl = self._pd_impl(pd)
            in_q, out_q = (("dnnl_query_diff_dst_md", "dnnl_query_diff_src_md") if backward
                           else ("dnnl_query_src_md", "dnnl_query_dst_md"))
            in_md = self.lib.dnnl_primitive_desc_query_md(pd, C[in_q], 0)
            out_md = self.lib.dnnl_primitive_desc_query_md(pd, C[out_q], 0)
            st, min_, _, _ = self._memory(in_md, data, keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            mems.append(min_)
            st, mout, obuf, osize = self._memory(out_md, dst_init_bytes or b"", keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            mems.append(mout)
            if backward:
                args = [(C["DNNL_ARG_DIFF_DST"], min_), (C["DNNL_ARG_DIFF_SRC"], mout)]
            else:
                args = [(C["DNNL_ARG_SRC"], min_), (C["DNNL_ARG_DST"], mout)]
            st = self._run(pd, args + exec_args, keep)
            if st != C["dnnl_success"]:
                return st, None, impl
            return st, obuf.raw[:osize], impl
        finally:
            self._cleanup(attr, po, mems, mds, [pd, hint])

    def resampling_pd(self, prop, alg, src_spec, dst_spec, factors=None):
        """(status, {'impls': [...], 'dst': info, 'factors': [...]}) of a forward
        or backward resampling pd (all implementations listed)."""
        prop_v = alg_value(prop, ("dnnl_",))
        alg_v = alg_value(alg, ("dnnl_resampling_",))
        backward = prop_v == C["dnnl_backward_data"]
        mds = []
        pd = hint = None
        try:
            st, src = self._create(src_spec)
            if st != C["dnnl_success"]:
                return st, None
            mds.append(src)
            dst = None
            if dst_spec is not None:
                st, dst = self._create(dst_spec)
                if st != C["dnnl_success"]:
                    return st, None
                mds.append(dst)
            fac = (_f * max(len(factors), 1))(*factors) if factors is not None else None
            pd = _p()
            if backward:
                hint = _p()
                if self.lib.dnnl_resampling_forward_primitive_desc_create(
                        ctypes.byref(hint), self.engine, C["dnnl_forward_training"],
                        alg_v, fac, src, dst, None) != C["dnnl_success"]:
                    hint = None
                st = self.lib.dnnl_resampling_backward_primitive_desc_create(
                    ctypes.byref(pd), self.engine, alg_v, fac, src, dst, hint, None)
            else:
                st = self.lib.dnnl_resampling_forward_primitive_desc_create(
                    ctypes.byref(pd), self.engine, prop_v, alg_v, fac, src, dst, None)
            if st != C["dnnl_success"]:
                pd = None
                return st, None
            out_q = "dnnl_query_diff_src_md" if backward else "dnnl_query_dst_md"
            res = {"impls": [self._pd_impl(pd)],
                   "out": self._pd_md_info(pd, out_q),
                   "in": self._pd_md_info(pd, "dnnl_query_diff_dst_md" if backward
                                          else "dnnl_query_src_md")}
            while self.lib.dnnl_primitive_desc_next_impl(pd) == C["dnnl_success"]:
                res["impls"].append(self._pd_impl(pd))
            return st, res
        finally:
            for p in (pd, hint):
                if p:
                    self.lib.dnnl_primitive_desc_destroy(p)
            self._destroy(*mds)

    def probe_reorder_impls(self):
        """Which implementation serves typical reorders, with and without runtime dims.

        Returns [(description, impl_normal, impl_runtime)] (impl is the impl
        string, or 'status N' when the pd could not be created).
        """
        cases = [
            ("f32 abcd->acdb", ("tag", [2, 17, 3, 4], "f32", "abcd"),
             ("tag", [2, 17, 3, 4], "f32", "acdb"), {}),
            ("f32 abcd->aBcd16b", ("tag", [2, 17, 3, 4], "f32", "abcd"),
             ("tag", [2, 17, 3, 4], "f32", "aBcd16b"), {}),
            ("f32 aBcd8b->ABcd16b16a", ("tag", [20, 17, 3, 4], "f32", "aBcd8b"),
             ("tag", [20, 17, 3, 4], "f32", "ABcd16b16a"), {}),
            ("f32->s8 ab->ba", ("tag", [5, 7], "f32", "ab"),
             ("tag", [5, 7], "s8", "ba"), {}),
            ("f32->s8 ab->ba + scales/zp", ("tag", [5, 7], "f32", "ab"),
             ("tag", [5, 7], "s8", "ba"),
             {"scales": {C["DNNL_ARG_SRC"]: (2, [0.5] * 7, "f32")},
              "zero_points": {C["DNNL_ARG_DST"]: (0, [3], "s32")}}),
            ("f32 ab strides(9,1)->(1,6) + sum", ("strides", [5, 7], "f32", [9, 1]),
             ("strides", [5, 7], "f32", [1, 6]), {"sum": (0.5, 0, None)}),
            ("s4->f32 ab->ab + src scale", ("tag", [4, 6], "s4", "ab"),
             ("tag", [4, 6], "f32", "ab"),
             {"scales": {C["DNNL_ARG_SRC"]: (1, [2.0] * 4, "f32")}}),
            ("bf16->f32 aBc16b->abc", ("tag", [2, 20, 3], "bf16", "aBc16b"),
             ("tag", [2, 20, 3], "f32", "abc"), {}),
        ]
        out = []
        for desc, s, d, attrs in cases:
            row = [desc]
            for rt in (False, True):
                st, impl = self.reorder_impl(s, d, force_simple=rt, **attrs)
                row.append(impl if st == C["dnnl_success"] else "status %d" % st)
            out.append(tuple(row))
        return out


class Ctx:
    """One run of a ctypes program against either library (``lib`` is real
    libdnnl or ``dnnl.capi``): an engine, a stream, the handles to free, and
    the log of what the program saw. A test module adds its own helpers in a
    subclass; ``close()`` frees the handles and returns the log."""

    def __init__(self, lib):
        self.lib, self.log, self._free = lib, [], []
        self.eng, self.strm = _p(), _p()
        self.st("engine", lib.dnnl_engine_create(ctypes.byref(self.eng), C["dnnl_cpu"], 0))
        self.st("stream", lib.dnnl_stream_create(ctypes.byref(self.strm), self.eng,
                                                 C["dnnl_stream_default_flags"]))

    def st(self, what, status):
        self.log.append(("status " + what, int(status)))
        return status

    def put(self, what, value):
        self.log.append((what, value))

    def keep(self, fn, h):
        """Free ``h`` with ``fn`` at ``close()``."""
        self._free.append((fn, h))
        return h

    def close(self):
        for fn, h in reversed(self._free):
            fn(h)
        self.lib.dnnl_stream_destroy(self.strm)
        self.lib.dnnl_engine_destroy(self.eng)
        return self.log
