"""Special values in the data against real oneDNN's reference implementations.

Sources (and, with a sum post-op, destinations) are about 40% NaN (quiet,
signalling, negative, with payloads), +/-inf, +/-0, the largest finite
values, values that overflow bf16/f16, and f32/f16 subnormals; integer
sources get their extremes (``dnnl.testing.dtypes.special_codes``).

* Reorder: the generated problems of ``test_reorder_oracle`` (every layout
  kind, data-type pair, scales, zero points, sum) with such data, real
  oneDNN forced onto ``simple:any``. A mismatch must be one of that file's
  documented deviations (counted by category).
* Resampling: forward and backward, nearest and linear, 1D/2D/3D, every
  data-type pair of f32/bf16/f16/s32/s8/u8, plain/permuted/blocked/strided
  layouts, sometimes a sum post-op, real oneDNN stepped to ``ref:any``.
  Where ``ref:any`` lacks bf16/f16 on this CPU (``test_resampling_oracle``'s
  rule) or for a backward-nearest policy shape, the problem is checked
  against ``dnnl.testing.resampling`` instead (counted). Our output must also
  equal the numpy reference on every problem, so the reference is itself
  checked against oneDNN.

Outputs are compared element by element, padding and gaps byte by byte;
floating-point outputs treat -0 == +0 and NaN == NaN (the semantic policy,
docs/internals/semantics.md). The per-category counts are printed in the
conformance summary; ``DNNL_SPECIAL_VALUES_SCALE=k`` runs k times as many
problems.
"""
import itertools
import os

import numpy as np
import pytest

import dnnl
import test_reorder_oracle as RO
import test_resampling_oracle as RS
from oracle import record  # noqa: E402  (conftest puts the folder on sys.path)
from dnnl._core.enums import C
from dnnl.resampling import resampling_backward, resampling_forward
from dnnl.testing import dtypes as D
from dnnl.testing import reorder as T
from dnnl.testing import resampling as R

pytestmark = pytest.mark.conformance

A = dnnl.algorithm
ENG = RS.ENG
STREAM = RS.STREAM
SPECIAL_DTS = (D.F32, D.BF16, D.F16, D.S32, D.S8, D.U8)
# $DNNL_SPECIAL_VALUES_SCALE multiplies the problem counts (default 1)
SCALE = max(1, int(os.environ.get("DNNL_SPECIAL_VALUES_SCALE", "1")))
N_REORDER, REORDER_BATCHES = 800 * SCALE, 8
N_RESAMPLING, RESAMPLING_CHUNKS = 600 * SCALE, 12


# ------------------------------------------------------------------ reorder
def _special_logical(rng, md, name):
    """Logical source values (f32 values, or ints) full of special values."""
    dt = int(md.data_type)
    n = int(np.prod(md.dims))
    if dt in SPECIAL_DTS:
        codes = D.special_codes(rng, n, dt)
    else:                       # f8, e8m0, sub-byte, f64, s64: any code
        codes = D.encode(D.special_codes(rng, n, D.F32), dt) if dt != D.S64 else \
            rng.integers(-2 ** 40, 2 ** 40, n)
    if name in T.INTEGRAL_NAMES:
        return np.asarray(codes, np.int64).reshape(md.dims)
    return (codes if dt == D.F32 else D.decode(codes, dt)).astype(np.float32).reshape(md.dims)


def special_reorder_problem(rng, ch):
    p = T.random_problem(ch, rng, allow_sub=False)
    smd, dmd = T.make_md(p["src_spec"]), T.make_md(p["dst_spec"])
    sname, dname = p["src_spec"][2], p["dst_spec"][2]
    p["src_bytes"] = T.src_bytes_for(p["src_spec"], _special_logical(rng, smd, sname), sname)
    if p["sum"] is not None and int(dmd.data_type) in SPECIAL_DTS:
        old = D.special_codes(rng, int(np.prod(dmd.dims)), int(dmd.data_type))
        p["dst_init_bytes"] = T.write_logical(np.frombuffer(p["dst_init_bytes"], np.uint8),
                                              dmd, np.asarray(old).reshape(dmd.dims))
    return p


@pytest.mark.parametrize("batch", range(REORDER_BATCHES))
def test_reorder_special_values(oracle, batch):
    o = RO._goracle(oracle)
    rng = np.random.default_rng(5000 + batch)
    ch = T.NumpyChooser(rng)
    failures = []
    for _ in range(N_REORDER // REORDER_BATCHES):
        p = special_reorder_problem(rng, ch)
        dmd = RO.compare_problem(o, p, "special reorder", failures)
        if dmd is not None:
            record("special reorder elements compared", int(np.prod(dmd.dims)))
    assert not failures, failures[:3]


# odd element counts, so the last byte of a dense 4-bit tensor is half used;
# 4-bit layouts need even strides (oneDNN refuses [3, 5] ab), so one dim is
# 5 and the others 1, in every position
INT4_SUMS = (None, (2.0, 0, None), (-1.0, 0, None), (0.5, 0, None))


def _int4_cases():
    """(dims, tag) for every plain tag of rank 1 to 4 the header names."""
    for nd in range(1, 5):
        plain = "abcd"[:nd]
        for k in range(nd):
            dims = [5 if d == k else 1 for d in range(nd)]
            for tag in ("".join(t) for t in itertools.permutations(plain)):
                if "dnnl_" + tag in C:
                    yield dims, tag


@pytest.mark.parametrize("ddt", ["s4", "u4"])
def test_int4_special_values(oracle, ddt):
    """f32 full of special values (NaN, +-inf, huge, subnormal, -0) to s4/u4,
    every plain tag of rank 1 to 4 (every permutation) with an odd element
    count, without and with a sum post-op, over a destination of random
    bytes: oneDNN's bytes, the unused nibble of the last byte included, or
    one of the documented deviations (with a sum, oneDNN's int4 kernel
    ignores it; permuted rank-3+ layouts, oneDNN misplaces nibbles)."""
    o = RO._goracle(oracle)
    rng = np.random.default_rng(7000 + (ddt == "u4"))
    failures = []
    tags = set()
    for dims, tag in _int4_cases():
        tags.add(tag)
        for sum_ in INT4_SUMS:
                src_spec = ("tag", dims, "f32", "abcd"[:len(dims)])
                dst_spec = ("tag", dims, ddt, tag)
                smd, dmd = T.make_md(src_spec), T.make_md(dst_spec)
                init = rng.integers(0, 256, T.buffer_bytes(dmd, dst_spec), dtype=np.uint8)
                p = dict(src_spec=src_spec, dst_spec=dst_spec, dst_init_bytes=init.tobytes(),
                         src_bytes=T.src_bytes_for(src_spec, _special_logical(rng, smd, "f32"),
                                                   "f32"),
                         scales=None, zero_points=None, sum=sum_)
                label = "special int4 %s%s" % (ddt, " with sum" if sum_ else "")
                if RO.compare_problem(o, p, label, failures) is not None:
                    record("special int4 elements compared", int(np.prod(dims)))
    # every permutation the header names: 1 + 2 + 6 + 14 (ten of rank 4 have no tag)
    assert len(tags) == 23, sorted(tags)
    assert not failures, failures[:3]


# --------------------------------------------------------------- resampling
def _codes_fill(mem, codes, dt_name):
    mem.map_data(RS._code_dtype(dt_name))[mem._element_offsets()] = \
        np.asarray(codes).reshape(-1).astype(RS._code_dtype(dt_name))


def _logical_f32(codes, dt):
    return (codes if dt == D.F32 else D.decode(codes, dt)).astype(np.float32)


def _init_bytes(rng, nbytes, dt_name):
    """A destination's initial buffer: special codes everywhere."""
    dt = RS.DT[dt_name]
    n = nbytes // np.dtype(RS._code_dtype(dt_name)).itemsize
    return np.asarray(D.special_codes(rng, n, dt)).astype(RS._code_dtype(dt_name)).tobytes()


def special_resampling_problem(seed):
    """Everything one problem needs; run it with :func:`run_resampling`."""
    rng = np.random.default_rng(seed)
    nd = int(rng.choice([3, 4, 5], p=[0.4, 0.4, 0.2]))
    k = nd - 2
    N = int(rng.integers(1, 3))
    C = int(rng.choice([1, 2, 3, 8, 16, 17]))
    ins, outs = RS._spatial(rng, k, str(rng.choice(["up", "down", "mixed"])))
    alg = "linear" if rng.random() < 0.7 else "nearest"
    backward = rng.random() < 0.35
    names = [D.NAMES[d] for d in SPECIAL_DTS]
    sdt = str(rng.choice(names))
    ddt = str(rng.choice(names)) if rng.random() < 0.6 else sdt
    sdims, ddims = [N, C] + ins, [N, C] + outs
    p = dict(rng=rng, alg=alg, backward=backward, sdt=sdt, ddt=ddt, sdims=sdims,
             ddims=ddims, src_spec=RS._layout_spec(rng, sdims, sdt),
             dst_spec=RS._layout_spec(rng, ddims, ddt), sum=None)
    if not backward and rng.random() < 0.2:
        p["sum"] = float(rng.choice([1.0, 0.5, -2.0]))
    return p


def run_resampling(p, orc=None):
    """(ours, expected, dt name, source of expected) for one problem:
    ``expected`` from real oneDNN's ref:any when ``orc`` can run it, else from
    dnnl.testing.resampling; also asserts ours == the numpy reference."""
    rng, alg_name = p["rng"], p["alg"]
    alg = getattr(A, "resampling_" + alg_name)
    sdt, ddt = p["sdt"], p["ddt"]
    if p["backward"]:
        in_spec, out_spec, in_dt, out_dt = p["dst_spec"], p["src_spec"], ddt, sdt
        in_dims, out_dims = p["ddims"], p["sdims"]
    else:
        in_spec, out_spec, in_dt, out_dt = p["src_spec"], p["dst_spec"], sdt, ddt
        in_dims, out_dims = p["sdims"], p["ddims"]
    codes = D.special_codes(rng, int(np.prod(in_dims)), RS.DT[in_dt])
    inp = dnnl.memory(RS._spec_md(in_spec), ENG)
    inp._bytes()[:] = np.frombuffer(_init_bytes(rng, inp.nbytes, in_dt), np.uint8)
    _codes_fill(inp, codes, in_dt)
    out_md = RS._spec_md(out_spec)
    init = _init_bytes(rng, dnnl.memory(out_md, ENG).nbytes + 64, out_dt)
    attr = None
    ops = None
    if p["sum"] is not None:
        po = dnnl.post_ops()
        po.append_sum(p["sum"])
        attr = dnnl.primitive_attr()
        attr.set_post_ops(po)
        ops = [("sum", p["sum"], 0, None)]
    if p["backward"]:
        ours, omem = RS._ours_bwd(alg, p["src_spec"], p["dst_spec"], bytes(inp._bytes()),
                                  init)
    else:
        ours, omem = RS._ours_fwd(dnnl.prop_kind.forward_training, alg, p["src_spec"],
                                  p["dst_spec"], bytes(inp._bytes()), init, attr, {})
    # the numpy reference, on logical values
    vals = _logical_f32(codes, RS.DT[in_dt]).reshape(in_dims)
    offs = omem._element_offsets()
    cdt = RS._code_dtype(out_dt)
    got = np.frombuffer(ours, cdt)[offs].reshape(out_dims)
    if p["backward"]:
        ref = R.backward_codes(vals, out_dims[2:], alg, RS.DT[out_dt])
    else:
        old = RS._to_float(np.frombuffer(init[:omem.nbytes], cdt)[offs], out_dt)
        ref = R.forward_codes(vals, out_dims[2:], alg, dst_dt=RS.DT[out_dt],
                              post_ops=attr.get_post_ops() if attr else None,
                              dst_old=old.reshape(out_dims))
    ref = np.asarray(ref).astype(cdt)
    same, _ = RS._same(got.tobytes(), ref.tobytes(), out_dt)
    assert same, ("ours != dnnl.testing", p["src_spec"], p["dst_spec"], alg_name,
                  p["backward"], p["sum"])
    if orc is None:
        return got.tobytes(), ref.tobytes(), out_dt, "reference"
    if p["backward"] and alg_name == "nearest" and RS.nearest_bwd_deviates(
            p["sdims"][2:], p["ddims"][2:]):
        return got.tobytes(), ref.tobytes(), out_dt, "policy shape"
    st, theirs, impl = orc.resampling(
        "backward_data" if p["backward"] else "forward_training", alg_name,
        p["src_spec"], p["dst_spec"], bytes(inp._bytes()), post_ops=ops,
        dst_init_bytes=init[:omem.nbytes])
    if RS._excused(st, [sdt, ddt]):
        return got.tobytes(), ref.tobytes(), out_dt, "no native bf16/f16"
    assert st == 0 and impl.startswith("ref"), (st, impl, p["src_spec"], p["dst_spec"])
    return ours, theirs, out_dt, "oracle"


def _mismatching_elements(a_bytes, b_bytes, dt_name):
    """(elements that differ, elements, elements of those oneDNN flushed to a
    signed zero where ours is a bf16 subnormal or, rounded up, 0x0080: the
    documented "bf16 subnormal" deviation, on CPUs with native bf16)."""
    ca = np.frombuffer(a_bytes, RS._code_dtype(dt_name))
    cb = np.frombuffer(b_bytes, RS._code_dtype(dt_name))
    if dt_name in ("f32", "bf16", "f16"):
        fa, fb = RS._to_float(ca, dt_name), RS._to_float(cb, dt_name)
        bad = ~((fa == fb) | (np.isnan(fa) & np.isnan(fb)))
    else:
        bad = ca != cb
    flushed = 0
    if dt_name == "bf16":
        a16, b16 = ca[bad].astype(np.int64), cb[bad].astype(np.int64)
        flushed = int((((b16 & 0x7fff) == 0) & ((a16 & 0x7fff) <= 0x0080)
                       & ((a16 & 0x8000) == (b16 & 0x8000))).sum())
    return int(bad.sum()), ca.size, flushed


@pytest.mark.parametrize("chunk", range(RESAMPLING_CHUNKS))
def test_resampling_special_values(oracle, chunk):
    per = N_RESAMPLING // RESAMPLING_CHUNKS
    failures = []
    for seed in range(chunk * per, (chunk + 1) * per):
        p = special_resampling_problem(10 ** 6 + seed)
        ours, theirs, dt, source = run_resampling(p, oracle)
        bad, n, flushed = _mismatching_elements(ours, theirs, dt)
        kind = "%s %s" % ("backward" if p["backward"] else "forward", p["alg"])
        if bad and bad == flushed and source == "oracle":
            # ours equals dnnl.testing (checked in run_resampling)
            record("special resampling %s: documented bf16 subnormal deviation" % kind)
            continue
        if source == "oracle":
            record("special resampling %s vs oneDNN" % kind)
            record("special resampling values compared with oneDNN", n)
        else:
            record("special resampling %s vs dnnl.testing (%s)" % (kind, source))
        if bad:
            failures.append((seed, bad, source, p["src_spec"], p["dst_spec"], kind))
    assert not failures, failures[:5]
