"""A seeded bad-input fuzzer over both APIs.

Each case draws arguments from pools of good and bad values (junk types,
negative, huge and runtime dims, wrong handles, undersized buffers, arrays of
the wrong type...) and calls the object API or the flat C API. The rules:

- every outcome is success, a ``dnnl.error`` (object API) or a status (flat
  API): any other exception, or a flat-API function that raises, fails;
- on failure the destination is unchanged (it is filled with a sentinel
  pattern first);
- no byte outside a buffer changes: every buffer handed over by address,
  ctypes array or numpy array sits between guard zones that are checked
  after every case.

``DNNL_FUZZ_CASES`` sets the number of cases (default: 30 for each example
of the hypothesis profile, 3,000 under ``ci``, a few seconds);
``DNNL_FUZZ_SEED`` the seed. ``python tests/properties/test_fuzz_bad_input.py [N]`` runs
the fuzzer alone and prints the outcome counts.
"""
import collections
import ctypes
import os
import random
import sys

import numpy as np
import pytest
from hypothesis import settings

import dnnl
from dnnl import capi

pytestmark = pytest.mark.compiled

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STRM = dnnl.stream(ENG)
GUARD = 64
SENTINEL = 0xA5
RUNTIME = -(2 ** 63)
P = ctypes.c_void_p

DTS = ["f32", "bf16", "f16", "s32", "s8", "u8", "s4", "u4", "f8_e4m3", "f64"]
TAGS = ["a", "ab", "ba", "abc", "acb", "nchw", "nhwc", "nChw8c", "nChw16c", "aBcd4b",
        "Abcd8a", "ncdhw", "nCdhw8c", "any", "undef"]
JUNK = [None, "x", b"ab", 2.5, float("nan"), float("inf"), True, [], {}, object(),
        2 ** 64, -1, 2 ** 63, np.float32(1.5), "f32", [1.5], ["1"], np.array([[1]]),
        {0: 2, 1: 3}, {2, 3}, dnnl.memory.format_tag.nchw, dnnl.prop_kind.forward_training,
        dnnl.memory.data_type.s8]


class Arena:
    """Buffers surrounded by guard zones; ``check()`` verifies the guards."""

    def __init__(self):
        self.blocks = []

    def raw(self, nbytes):
        """A numpy uint8 view of ``nbytes`` inside guards (filled with the sentinel)."""
        whole = np.full(nbytes + 2 * GUARD, SENTINEL, np.uint8)
        self.blocks.append(whole)
        return whole[GUARD:GUARD + nbytes]

    def typed(self, n, dtype):
        dtype = np.dtype(dtype)
        return self.raw(n * dtype.itemsize).view(dtype)

    def read_only(self, nbytes):
        """A read-only view of ``nbytes`` inside guards."""
        view = self.raw(nbytes)
        view.flags.writeable = False
        return view

    def ctypes_array(self, nbytes):
        inner = self.raw(nbytes)
        return (ctypes.c_uint8 * nbytes).from_buffer(inner)

    def check(self):
        for whole in self.blocks:
            if not ((whole[:GUARD] == SENTINEL).all() and (whole[-GUARD:] == SENTINEL).all()):
                return False
        return True


def _dims(rng):
    r = rng.random()
    if r < 0.7:
        nd = rng.choice([1, 2, 3, 4, 4, 5])
        return [rng.choice([1, 2, 3, 4, 5, 8, 16, 17]) for _ in range(nd)]
    if r < 0.8:
        nd = rng.choice([0, 1, 2, 4, 13])
        return [rng.choice([0, -1, 1, 3, 2 ** 31 - 1, 2 ** 62, RUNTIME]) for _ in range(nd)]
    return rng.choice(JUNK + [5, "12", [2.7, 3], [True, 2], np.array([2, 3]),
                              [np.int8(2), np.uint16(3)]])


def _dt(rng):
    return rng.choice(DTS) if rng.random() < 0.85 else rng.choice(JUNK + [999, -5, "bogus"])


def _tag_or_strides(rng, dims):
    r = rng.random()
    if r < 0.75:
        return rng.choice(TAGS)
    if r < 0.9 and isinstance(dims, list):
        return [rng.choice([0, 1, 2, 3, 5, 16, 40, -1, 2 ** 40]) for _ in dims]
    return rng.choice(JUNK + [9999, -3, "nChw"])


def _md(rng, allow_junk=True):
    if allow_junk and rng.random() < 0.1:
        return rng.choice(JUNK + [ENG, dnnl.memory.desc()])
    while True:
        dims = [rng.choice([1, 2, 3, 4, 5, 8, 9, 17]) for _ in range(rng.choice([1, 2, 4]))]
        tag = {1: ["a"], 2: ["ab", "ba"], 4: ["nchw", "nhwc", "nChw8c", "nChw16c",
                                               "Abcd8a"]}[len(dims)]
        try:
            return dnnl.memory.desc(dims, rng.choice(DTS[:8]), rng.choice(tag))
        except dnnl.error:
            continue


def _handle(rng, arena, md):
    """A buffer for ``md``: library-owned, or a guarded user buffer of some
    kind, sometimes too small or of the wrong type."""
    need = dnnl.memory(md, ENG, dnnl.DNNL_MEMORY_NONE).nbytes if isinstance(
        md, dnnl.memory.desc) and md.format_kind == dnnl.format_kind.blocked else 16
    r = rng.random()
    size = need if rng.random() < 0.8 else max(0, need - rng.choice([1, 4, need]))
    if r < 0.25:
        return dnnl.DNNL_MEMORY_ALLOCATE
    if r < 0.45:
        return arena.raw(size)
    if r < 0.6:
        return arena.ctypes_array(size)
    if r < 0.65:
        return bytearray(size)
    if r < 0.7:
        return bytes(size) if rng.random() < 0.5 else arena.read_only(size)
    if r < 0.8:
        dtype = rng.choice([np.float32, np.float64, np.int8, np.uint16, np.int32])
        return arena.typed(max(size // np.dtype(dtype).itemsize, 0), dtype)
    if r < 0.9 and need:
        return arena.raw(need).ctypes.data        # by address: always big enough
    # no wild addresses: an int handle is an address, taken on trust as in C
    return rng.choice([j for j in JUNK if not isinstance(j, int) or j in (-1, 2 ** 64)]
                      + [dnnl.DNNL_MEMORY_NONE])


class Outcomes(collections.Counter):
    def __init__(self):
        super().__init__()
        self.problems = []

    def fail(self, case, text):
        self["VIOLATION"] += 1
        if len(self.problems) < 10:
            self.problems.append("case %d: %s" % (case, text))


def _call(out, label, fn, *args):
    """Run an object-API call; count its outcome. Returns (ok, result)."""
    try:
        res = fn(*args)
    except dnnl.error as e:
        out["%s: %s" % (label, e.status.name if hasattr(e.status, "name") else e.status)] += 1
        return False, None
    out["%s: success" % label] += 1
    return True, res


# ------------------------------------------------------------------ object API
def case_desc(rng, out, arena):
    dims = _dims(rng)
    _call(out, "desc", dnnl.memory.desc, dims, _dt(rng), _tag_or_strides(rng, dims))


def case_desc_ops(rng, out, arena):
    md = _md(rng, allow_junk=False)
    op = rng.choice(["reshape", "permute", "sub", "size", "query"])
    nd = md.get_ndims()
    if op == "reshape":
        arg = rng.choice([[md.nelems], list(reversed(md.get_dims())), _dims(rng)])
        _call(out, "reshape", md.reshape, arg)
    elif op == "permute":
        perm = list(range(nd))
        rng.shuffle(perm)
        _call(out, "permute_axes", md.permute_axes,
              perm if rng.random() < 0.7 else rng.choice(JUNK + [[0] * nd, [nd] * nd]))
    elif op == "sub":
        d = [rng.choice([0, 1, x, x + 1]) for x in md.get_dims()]
        o = [rng.choice([0, 1, 8, -1]) for _ in range(nd)]
        _call(out, "submemory_desc", md.submemory_desc,
              d if rng.random() < 0.9 else rng.choice(JUNK), o)
    elif op == "size":
        _call(out, "get_size", md.get_size, rng.choice([0, 1, -1] + JUNK))
    else:
        for q in (md.get_strides, md.get_inner_blks, md.get_inner_idxs, md.get_inner_nblks):
            _call(out, "query", q)


def case_memory(rng, out, arena):
    md = _md(rng)
    handle = _handle(rng, arena, md)
    ok, mem = _call(out, "memory", dnnl.memory, md, rng.choice([ENG] * 9 + [None]), handle)
    if not ok:
        return
    if rng.random() < 0.3:
        _call(out, "set_data_handle", mem.set_data_handle, _handle(rng, arena, md))
    if rng.random() < 0.3:
        _call(out, "map_data", mem.map_data, rng.choice([None, np.uint8, "f4", "bogus", 3]))
    if mem.nbytes and mem.address and mem.writable:
        _from_numpy(rng, out, mem, md)
    elif mem.nbytes and mem.address:
        # a read-only buffer: every write refused before it starts
        before = _bytes_of(mem)
        write = rng.choice(["zero_pad", "from_numpy", "set_data_handle+stream"])
        if write == "zero_pad":
            _call(out, "zero_pad (read-only)", mem.zero_pad)
        elif write == "from_numpy":
            _call(out, "from_numpy (read-only)", mem.from_numpy,
                  np.zeros(md.get_dims(), np.float32))
        else:
            _call(out, "set_data_handle+stream (read-only)", mem.set_data_handle,
                  mem.map_data(np.uint8), STRM)
        if _bytes_of(mem) != before:
            raise AssertionError("%s wrote into a read-only buffer" % write)


def _bytes_of(mem):
    """The bytes of a memory's buffer (None: it has none)."""
    return bytes(mem.map_data(np.uint8)) if mem.address else None


def _from_numpy(rng, out, mem, md):
    dims = md.get_dims()
    r = rng.random()
    if r < 0.4:
        arr = np.arange(int(np.prod(dims))).reshape(dims).astype(rng.choice(
            [np.float32, np.float64, np.int8, np.uint8, np.int64]))
    elif r < 0.6:
        arr = np.full(dims, "x")
    elif r < 0.7:
        arr = np.zeros(dims, complex)
    elif r < 0.8:
        arr = np.zeros([d + 1 for d in dims])
    else:
        arr = rng.choice(JUNK)
    before = _bytes_of(mem)
    try:
        mem.from_numpy(arr)
        out["from_numpy: success"] += 1
    except dnnl.error as e:
        out["from_numpy: %s" % e.status.name] += 1
        if _bytes_of(mem) != before:
            raise AssertionError("from_numpy failed but wrote to the buffer")


def _attr(rng):
    attr = dnnl.primitive_attr()
    for _ in range(rng.choice([0, 0, 1, 2])):
        what = rng.choice(["scales", "zp", "sum", "eltwise", "junk"])
        try:
            if what == "scales":
                attr.set_scales_mask(rng.choice([dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST, 7]),
                                     rng.choice([0, 1, 2, -1]))
            elif what == "zp":
                attr.set_zero_points_mask(rng.choice([dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST]),
                                          rng.choice([0, 1]))
            elif what in ("sum", "eltwise"):
                po = dnnl.post_ops()
                if what == "sum":
                    po.append_sum(rng.choice([1.0, 0.5, 2 ** 1024, "x"]), 0,
                                  rng.choice([None, "f32", 999]))
                else:
                    po.append_eltwise(rng.choice([dnnl.algorithm.eltwise_relu, 12345]),
                                      0.0, 0.0)
                attr.set_post_ops(po)
            else:
                attr.set_scratchpad_mode(rng.choice([0, 1, 7, "user"]))
        except dnnl.error:
            pass
    return attr


def _execute(rng, out, label, prim, args, dst_mem):
    before = None if dst_mem is None else _bytes_of(dst_mem)
    try:
        prim.execute(STRM, args)
        out["%s.execute: success" % label] += 1
    except dnnl.error as e:
        out["%s.execute: %s" % (label, e.status.name)] += 1
        if before is not None and _bytes_of(dst_mem) != before:
            raise AssertionError("%s.execute failed but wrote to dst" % label)


def _user_memory(rng, arena, md):
    need = dnnl.memory(md, ENG, dnnl.DNNL_MEMORY_NONE).nbytes
    return dnnl.memory(md, ENG, arena.raw(need) if rng.random() < 0.5
                       else arena.ctypes_array(need))


def _scale_args(rng, arena, attr, args):
    for arg in (dnnl.DNNL_ARG_SRC, dnnl.DNNL_ARG_DST):
        if arg in attr.scales and rng.random() < 0.8:
            n = rng.choice([1, 4, 64])
            m = dnnl.memory(dnnl.memory.desc([n], "f32", "a"), ENG, arena.typed(n, np.float32))
            m.map_data()[:] = 1.0
            args[dnnl.DNNL_ARG_ATTR_SCALES | arg] = m


def case_reorder(rng, out, arena):
    src_md = _md(rng, allow_junk=False)
    dst_md = src_md if rng.random() < 0.5 else _md(rng, allow_junk=False)
    if rng.random() < 0.5:
        ok, md = _call(out, "desc", dnnl.memory.desc, src_md.get_dims(), rng.choice(DTS[:8]),
                       rng.choice({1: ["a"], 2: ["ab", "ba"],
                                   4: ["nchw", "nhwc", "nChw8c"]}[src_md.get_ndims()]))
        dst_md = md if ok else dst_md
    attr = _attr(rng)
    ok, pd = _call(out, "reorder.pd", dnnl.reorder.primitive_desc,
                   ENG, src_md if rng.random() < 0.95 else rng.choice(JUNK),
                   ENG, dst_md, attr)
    if not ok:
        return
    src, dst = _user_memory(rng, arena, src_md), _user_memory(rng, arena, dst_md)
    args = {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst}
    _scale_args(rng, arena, attr, args)
    r = rng.random()
    if r < 0.1:
        args[dnnl.DNNL_ARG_FROM] = rng.choice(JUNK)
    elif r < 0.2:
        del args[dnnl.DNNL_ARG_FROM]
    elif r < 0.3:
        args[dnnl.DNNL_ARG_FROM] = dst
    _execute(rng, out, "reorder", dnnl.reorder(pd), args, dst)


def case_resampling(rng, out, arena):
    nd = rng.choice([3, 4])
    src_dims = [rng.choice([1, 2]), rng.choice([1, 3, 8])] + \
        [rng.choice([1, 2, 5]) for _ in range(nd - 2)]
    dst_dims = src_dims[:2] + [rng.choice([1, 3, 4, 10]) for _ in range(nd - 2)]
    tags = {3: ["ncw", "nwc", "nCw8c"], 4: ["nchw", "nhwc", "nChw8c"]}[nd]
    dt = rng.choice(["f32", "bf16", "s8", "u8", "s32"])
    smd = dnnl.memory.desc(src_dims, dt, rng.choice(tags))
    dmd = dnnl.memory.desc(dst_dims, rng.choice([dt, "f32"]), rng.choice(tags))
    alg = rng.choice([dnnl.algorithm.resampling_linear, dnnl.algorithm.resampling_nearest,
                      9999])
    ok, pd = _call(out, "resampling.pd", dnnl.resampling_forward.primitive_desc, ENG,
                   dnnl.prop_kind.forward_inference, alg, smd, dmd, _attr(rng))
    if not ok:
        return
    src, dst = _user_memory(rng, arena, smd), _user_memory(rng, arena, dmd)
    args = {dnnl.DNNL_ARG_SRC: src, dnnl.DNNL_ARG_DST: dst}
    if rng.random() < 0.2:
        args[dnnl.DNNL_ARG_DST] = _user_memory(rng, arena, _md(rng, allow_junk=False))
        dst = args[dnnl.DNNL_ARG_DST]
    _execute(rng, out, "resampling", dnnl.resampling_forward(pd), args, dst)


def case_misc(rng, out, arena):
    what = rng.choice(["engine", "stream", "attr", "post_ops"])
    if what == "engine":
        _call(out, "engine", dnnl.engine, rng.choice([1, 0, 2, "cpu"] + JUNK),
              rng.choice([0, 1, -1] + JUNK))
    elif what == "stream":
        _call(out, "stream", dnnl.stream, rng.choice([ENG, ENG, None, "x"]),
              rng.choice([1, 2, 3, 0, 4, 8] + JUNK))
    elif what == "attr":
        a = dnnl.primitive_attr()
        fn = rng.choice([a.set_scales_mask, a.set_zero_points_mask, a.set_rounding_mode,
                         a.set_precomputed_reductions])
        _call(out, "attr", fn, rng.choice([1, 17, 2 ** 40] + JUNK), rng.choice([0, 1] + JUNK))
        _call(out, "attr", a.set_dropout, rng.choice([None, dnnl.memory.desc()] + JUNK))
        _call(out, "attr", a.has_default_values, rng.choice([None, (), ["post_ops"]] + JUNK))
    else:
        po = dnnl.post_ops()
        _call(out, "post_ops", po.append_eltwise, rng.choice([dnnl.algorithm.eltwise_relu]
                                                             + JUNK),
              rng.choice([0.0, 1] + JUNK), 0.0)
        _call(out, "post_ops", po.append_sum, rng.choice([1.0, 2 ** 1024] + JUNK))
        _call(out, "post_ops", po.kind, rng.choice([0, 5, -1] + JUNK))


# ------------------------------------------------------------------ flat API
_STATUSES = {int(s) for s in dnnl.status}


def _flat(out, name, *args):
    """Call ``capi.<name>``: it must return a known status, never raise."""
    st = getattr(capi, name)(*args)
    if st not in _STATUSES:
        raise AssertionError("%s returned %r" % (name, st))
    out["capi %s: %s" % (name, dnnl.status(st).name)] += 1
    return st


def _int_arg(rng):
    return rng.choice([0, 1, 2, 3, 4, 12, 13, -1, 2 ** 31 - 1, 2 ** 40, RUNTIME])


def _ptr_arg(rng, arena, live):
    """NULL, a live handle of any kind, or a guarded slot (never a wild address)."""
    r = rng.random()
    if r < 0.2:
        return None
    if r < 0.6 and live:
        return rng.choice(live)
    return arena.ctypes_array(rng.choice([8, 96, 256]))


def case_capi(rng, out, arena):
    live = []
    eng = P()
    capi.dnnl_engine_create(ctypes.byref(eng), capi.dnnl_cpu, 0)
    md = P()
    nd = rng.choice([1, 2, 4, 0, -1, 13])
    dims = (ctypes.c_int64 * 12)(*[rng.choice([1, 2, 3, 16, 0, -2, 2 ** 40, RUNTIME])
                                   for _ in range(12)])
    tag = rng.choice([capi.dnnl_a, capi.dnnl_ab, capi.dnnl_nchw, capi.dnnl_nChw16c,
                      capi.dnnl_format_tag_any, 0, 99999])
    dt = rng.choice([capi.dnnl_f32, capi.dnnl_s8, capi.dnnl_bf16, capi.dnnl_s4, 0, 999])
    if rng.random() < 0.5:
        st = _flat(out, "dnnl_memory_desc_create_with_tag", ctypes.byref(md), nd, dims, dt, tag)
    else:
        strides = (ctypes.c_int64 * 12)(*[rng.choice([1, 2, 8, 0, -1, 2 ** 50])
                                          for _ in range(12)])
        st = _flat(out, "dnnl_memory_desc_create_with_strides", ctypes.byref(md), nd, dims,
                   dt, rng.choice([strides, None]))
    live.append(eng)
    if st == 0:
        live.append(md)
    attr, po = P(), P()
    capi.dnnl_primitive_attr_create(ctypes.byref(attr))
    capi.dnnl_post_ops_create(ctypes.byref(po))
    live += [attr, po]
    for _ in range(4):
        name = rng.choice([
            "dnnl_memory_desc_query", "dnnl_memory_desc_query_v2", "dnnl_memory_create",
            "dnnl_memory_desc_reshape", "dnnl_memory_desc_permute_axes",
            "dnnl_memory_desc_create_submemory", "dnnl_primitive_attr_set_scales_mask",
            "dnnl_post_ops_append_sum", "dnnl_primitive_attr_set_dropout",
            "dnnl_stream_create", "dnnl_memory_create_v2", "dnnl_reorder_primitive_desc_create",
            "dnnl_primitive_attr_set_post_ops", "dnnl_post_ops_append_eltwise"])
        p = lambda: _ptr_arg(rng, arena, live)      # noqa: E731
        i = lambda: _int_arg(rng)                   # noqa: E731
        out_slot = lambda: ctypes.byref(P()) if rng.random() < 0.8 else None  # noqa: E731
        if name == "dnnl_memory_desc_query":
            args = (p(), rng.choice([capi.dnnl_query_ndims_s32, capi.dnnl_query_dims,
                                     capi.dnnl_query_strides, capi.dnnl_query_inner_nblks_s32,
                                     i()]), arena.ctypes_array(8))
        elif name == "dnnl_memory_desc_query_v2":
            args = (p(), rng.choice([capi.dnnl_query_ndims_s32, i()]), i(),
                    arena.ctypes_array(8))
        elif name == "dnnl_memory_create":
            mem = P()
            handle = rng.choice([None, P(capi.DNNL_MEMORY_ALLOCATE)])
            args = (ctypes.byref(mem), p(), rng.choice([eng, eng, None, attr]), handle)
        elif name == "dnnl_memory_create_v2":
            mem = P()
            args = (ctypes.byref(mem), p(), eng, i() % 4, (P * 4)())
        elif name in ("dnnl_memory_desc_reshape",):
            args = (out_slot(), p(), i(), dims)
        elif name == "dnnl_memory_desc_permute_axes":
            args = (out_slot(), p(), (ctypes.c_int * 12)(*[rng.randrange(-1, 5)
                                                           for _ in range(12)]))
        elif name == "dnnl_memory_desc_create_submemory":
            args = (out_slot(), p(), dims, (ctypes.c_int64 * 12)())
        elif name == "dnnl_primitive_attr_set_scales_mask":
            args = (p(), i(), i())
        elif name == "dnnl_post_ops_append_sum":
            args = (p(), ctypes.c_float(rng.choice([1.0, float("nan")])), i() % 2 ** 31,
                    rng.choice([0, 3, 999]))
        elif name == "dnnl_post_ops_append_eltwise":
            args = (p(), i(), ctypes.c_float(0), ctypes.c_float(0))
        elif name == "dnnl_primitive_attr_set_dropout":
            args = (p(), p())
        elif name == "dnnl_stream_create":
            args = (out_slot(), rng.choice([eng, None, attr]), i() % 16)
        elif name == "dnnl_primitive_attr_set_post_ops":
            args = (p(), p())
        else:
            args = (out_slot(), p(), eng, p(), eng, rng.choice([None, attr]))
        _flat(out, name, *args)
    for h, fn in ((md, "dnnl_memory_desc_destroy"), (attr, "dnnl_primitive_attr_destroy"),
                  (po, "dnnl_post_ops_destroy"), (eng, "dnnl_engine_destroy")):
        if h:
            getattr(capi, fn)(h)


class ExecArg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", P)]


def case_capi_reorder(rng, out, arena):
    """A C-style reorder: memories on guarded ctypes arrays (some too small),
    random execution arguments; on failure dst keeps its sentinel bytes."""
    eng, strm = P(), P()
    capi.dnnl_engine_create(ctypes.byref(eng), capi.dnnl_cpu, 0)
    capi.dnnl_stream_create(ctypes.byref(strm), eng, capi.dnnl_stream_default_flags)
    mds, mems, owned = [], [], []
    for _ in range(2):
        md = P()
        n = rng.choice([1, 2, 4])
        d = [rng.choice([1, 2, 3, 5, 8, 17]) for _ in range(n)]
        tag = rng.choice({1: [capi.dnnl_a], 2: [capi.dnnl_ab, capi.dnnl_ba],
                          4: [capi.dnnl_nchw, capi.dnnl_nhwc, capi.dnnl_nChw8c,
                              capi.dnnl_nChw16c]}[n])
        dt = rng.choice([capi.dnnl_f32, capi.dnnl_s8, capi.dnnl_u8, capi.dnnl_bf16,
                         capi.dnnl_s32, capi.dnnl_s4])
        _flat(out, "dnnl_memory_desc_create_with_tag", ctypes.byref(md), n,
              (ctypes.c_int64 * 12)(*d), dt, tag)
        mds.append(md)
    if rng.random() < 0.6 and mds[0]:          # the same dims for both sides
        md = P()
        q = ctypes.c_int32()
        capi.dnnl_memory_desc_query(mds[0], capi.dnnl_query_ndims_s32, ctypes.byref(q))
        dp = P()
        capi.dnnl_memory_desc_query(mds[0], capi.dnnl_query_dims, ctypes.byref(dp))
        n = q.value
        d = list((ctypes.c_int64 * 12).from_address(dp.value))[:n]
        tag = {1: capi.dnnl_a, 2: capi.dnnl_ba, 4: capi.dnnl_nChw16c}[n]
        capi.dnnl_memory_desc_destroy(mds[1])
        _flat(out, "dnnl_memory_desc_create_with_tag", ctypes.byref(md), n,
              (ctypes.c_int64 * 12)(*d), rng.choice([capi.dnnl_f32, capi.dnnl_u8]), tag)
        mds[1] = md
    for md in mds:
        need = capi.dnnl_memory_desc_get_size(md)
        buf = arena.ctypes_array(need if rng.random() < 0.85 else max(0, need - 3))
        mem = P()
        if _flat(out, "dnnl_memory_create", ctypes.byref(mem), md, eng, buf) == 0:
            mems.append(mem)
            owned.append(buf)
        else:
            mems.append(P())
            owned.append(None)
    pd, prim = P(), P()
    if _flat(out, "dnnl_reorder_primitive_desc_create", ctypes.byref(pd), mds[0], eng,
             mds[1], eng, None) == 0 and \
            _flat(out, "dnnl_primitive_create", ctypes.byref(prim), pd) == 0:
        args = [ExecArg(capi.DNNL_ARG_FROM, mems[0]), ExecArg(capi.DNNL_ARG_TO, mems[1])]
        r = rng.random()
        if r < 0.1:
            args = args[1:]
        elif r < 0.2:
            args[0] = ExecArg(capi.DNNL_ARG_FROM, mems[1])
        elif r < 0.3:
            args.append(ExecArg(capi.DNNL_ARG_TO, mems[0]))
        elif r < 0.35:
            args[1] = ExecArg(capi.DNNL_ARG_TO, eng.value)    # not a memory
        arr = (ExecArg * len(args))(*args)
        before = bytes(owned[1]) if owned[1] is not None else None
        st = _flat(out, "dnnl_primitive_execute", prim, strm, len(args), arr)
        if st != 0 and before is not None and bytes(owned[1]) != before:
            raise AssertionError("dnnl_primitive_execute failed but wrote to dst")
    for h, fn in [(prim, "dnnl_primitive_destroy"), (pd, "dnnl_primitive_desc_destroy")] + \
            [(m, "dnnl_memory_destroy") for m in mems] + \
            [(m, "dnnl_memory_desc_destroy") for m in mds] + \
            [(strm, "dnnl_stream_destroy"), (eng, "dnnl_engine_destroy")]:
        if h:
            getattr(capi, fn)(h)


def case_capi_blob(rng, out, arena):
    """A descriptor blob with a few bytes changed: a status, never an
    exception; what is accepted is exactly what the blob says."""
    src = P()
    nd, tag = rng.choice([(1, capi.dnnl_a), (2, capi.dnnl_ba), (4, capi.dnnl_nchw),
                          (4, capi.dnnl_nChw16c), (4, capi.dnnl_aBcd4b), (5, capi.dnnl_ncdhw)])
    dims = (ctypes.c_int64 * 12)(*[rng.choice([1, 2, 3, 17]) for _ in range(nd)])
    dt = rng.choice([capi.dnnl_f32, capi.dnnl_s8, capi.dnnl_bf16, capi.dnnl_u8])
    if _flat(out, "dnnl_memory_desc_create_with_tag", ctypes.byref(src), nd, dims, dt, tag):
        return
    size = ctypes.c_size_t()
    _flat(out, "dnnl_memory_desc_get_blob", None, ctypes.byref(size), src)
    blob = (ctypes.c_uint8 * size.value)()
    _flat(out, "dnnl_memory_desc_get_blob", blob, ctypes.byref(size), src)
    raw = bytearray(blob)
    for _ in range(rng.randint(0, 4)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    new = P()
    st = _flat(out, "dnnl_memory_desc_create_with_blob", ctypes.byref(new),
               (ctypes.c_uint8 * len(raw)).from_buffer(raw))
    if st == 0:
        back = (ctypes.c_uint8 * size.value)()
        _flat(out, "dnnl_memory_desc_get_blob", back, ctypes.byref(size), new)
        if bytes(back) != bytes(raw):
            raise AssertionError("an accepted blob describes something else")
        capi.dnnl_memory_desc_destroy(new)
    capi.dnnl_memory_desc_destroy(src)


CASES = [case_desc, case_desc, case_desc_ops, case_memory, case_memory, case_reorder,
         case_reorder, case_resampling, case_misc, case_capi, case_capi,
         case_capi_reorder, case_capi_reorder, case_capi_blob]


def run(n, seed=2026):
    out = Outcomes()
    for case in range(n):
        rng = random.Random(seed * 1_000_003 + case)
        arena = Arena()
        gen = rng.choice(CASES)
        try:
            gen(rng, out, arena)
        except AssertionError as e:
            out.fail(case, "%s: %s" % (gen.__name__, e))
        except Exception as e:  # anything but dnnl.error is a bug
            out.fail(case, "%s raised %s: %s" % (gen.__name__, type(e).__name__, e))
        if not arena.check():
            out.fail(case, "%s wrote outside a buffer" % gen.__name__)
        out["cases"] += 1
        out["cases of the %s API" % ("flat" if gen.__name__.startswith("case_capi")
                                     else "object")] += 1
    return out


def test_fuzz_bad_input():
    # the profile's scale (tests/conftest.py), unless the variable says
    n = int(os.environ.get("DNNL_FUZZ_CASES", 30 * settings.default.max_examples))
    out = run(n, int(os.environ.get("DNNL_FUZZ_SEED", "2026")))
    assert out["cases"] == n
    assert not out.problems, "\n".join(out.problems)
    # the generator reaches every kind of outcome
    assert any(k.endswith(": success") for k in out)
    assert any(k.endswith(": invalid_arguments") for k in out)
    assert any(k.startswith("capi") for k in out)


def _junk_targets():
    """Every public callable of the object API, bound to live objects."""
    md = dnnl.memory.desc([2, 3, 4, 5], "f32", "nChw8c")
    md2 = dnnl.memory.desc([2, 3, 8, 10], "f32", "nchw")
    alg = dnnl.algorithm.resampling_linear
    rpd = dnnl.reorder.primitive_desc(ENG, md, ENG, md)
    fpd = dnnl.resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, alg,
                                                 md, md2)
    bpd = dnnl.resampling_backward.primitive_desc(ENG, alg, md, md2, fpd)
    po = dnnl.post_ops()
    po.append_sum(1.0)
    objs = [ENG, STRM, md, dnnl.memory(md, ENG), dnnl.primitive_attr(), po, rpd, fpd, bpd,
            dnnl.reorder(rpd), dnnl.resampling_forward(fpd), dnnl.resampling_backward(bpd)]
    out = [(type(o).__name__ + "." + n, getattr(o, n)) for o in objs for n in dir(o)
           if not n.startswith("_") and callable(getattr(o, n))
           and not isinstance(getattr(o, n), type)]
    out += [(n, getattr(dnnl, n)) for n in (
        "engine", "stream", "memory", "primitive_attr", "post_ops", "reorder",
        "resampling_forward", "resampling_backward", "set_verbose",
        "set_default_fpmath_mode")]
    out += [("memory.desc", dnnl.memory.desc), ("reorder.pd", dnnl.reorder.primitive_desc),
            ("fwd.pd", dnnl.resampling_forward.primitive_desc),
            ("bwd.pd", dnnl.resampling_backward.primitive_desc)]
    return out, [ENG, md, objs[3], objs[4], po, rpd, [2, 3], {1: objs[3]}, 2 ** 1024]


def test_every_public_callable_with_junk(call_with_junk):
    """Junk arguments to every public callable: only dnnl.error comes out (a
    call Python itself cannot bind, wrong arity, is not the library's)."""
    targets, live = _junk_targets()
    # no raw addresses: an int handle is taken on trust, as in C
    pool = [j for j in JUNK if not (type(j) is int and j not in (-1, 2 ** 64))] + live
    rng = random.Random(7)
    saved = dnnl.get_verbose(), dnnl.get_default_fpmath_mode()   # global settings
    try:
        raw = call_with_junk(targets, pool, rng, calls=40, most_args=4)
    finally:
        dnnl.set_verbose(saved[0])
        dnnl.set_default_fpmath_mode(saved[1])
    assert not raw, "\n".join(raw[:10])


if __name__ == "__main__":
    result = run(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
    for key, count in sorted(result.items()):
        print("%8d  %s" % (count, key))
    for p in result.problems:
        print(p)
