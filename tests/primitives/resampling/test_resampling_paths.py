"""Resampling fast paths, pinned against the numpy reference (dnnl.testing):
the backward over channel runs (every tap of a pixel at once), nearest x2 over
channel rows (each pixel stored twice), and forward W taps computed by the
kernel for long W axes (no per-index tables)."""
import pathlib
import re

import numpy as np
import pytest

import dnnl
from dnnl.primitives.resampling import plan as RP
from dnnl.resampling import resampling_backward, resampling_forward
from dnnl.testing import dtypes as D
from dnnl.testing import resampling as R

pytestmark = pytest.mark.kernels

A = dnnl.algorithm
NEAREST, LINEAR = A.resampling_nearest, A.resampling_linear
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STREAM = dnnl.stream(ENG)
DTS = {"f32": D.F32, "bf16": D.BF16, "s8": D.S8, "u8": D.U8}
CHANNELS = [1, 3, 7, 8, 9, 17, 31, 32, 33, 40, 63, 64, 65, 70]


def _values(rng, dims, special):
    x = (rng.standard_normal(dims) * 20).astype(np.float32)
    if special:
        flat = x.reshape(-1)
        idx = rng.choice(flat.size, size=min(3, flat.size), replace=False)
        flat[idx] = np.array([np.inf, -np.inf, np.nan], np.float32)[:idx.size]
    return x


def _mem(md, values=None):
    m = dnnl.memory(md, ENG)
    m.map_data(np.uint8)[:] = 0x7B           # garbage: must be overwritten
    if values is not None:
        m.from_numpy(values)
    return m


def _same(got, want):
    """Equal, with any NaN equal to any NaN and -0 equal to +0."""
    got, want = np.asarray(got, np.float32), np.asarray(want, np.float32)
    assert got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan])


def _backward(alg, g, in_spatial, tag, sdt="f32"):
    ddmd = dnnl.memory.desc(list(g.shape), "f32", tag)
    dsmd = dnnl.memory.desc(list(g.shape[:2]) + list(in_spatial), sdt, tag)
    pd = resampling_backward.primitive_desc(ENG, alg, dsmd, ddmd, None)
    ds = _mem(dsmd)
    resampling_backward(pd).execute(STREAM, {dnnl.DNNL_ARG_DIFF_DST: _mem(ddmd, g),
                                             dnnl.DNNL_ARG_DIFF_SRC: ds})
    return pd, ds.to_numpy()


@pytest.mark.parametrize("c", CHANNELS)
def test_backward_channel_taps(c):
    """f32 diff_dst in channel runs (nwc, nhwc, ndhwc, blocked): each diff_src
    pixel sums all its taps in registers, in the gather's order."""
    rng = np.random.default_rng(c)
    for nd, tag, ins, outs in ((3, "nwc", [5], [10]), (4, "nhwc", [4, 5], [8, 10]),
                               (4, "nhwc", [5, 3], [7, 8]), (4, "nChw16c", [3, 4], [6, 9]),
                               (5, "ndhwc", [2, 3, 2], [4, 6, 3]), (4, "nhwc", [6, 7], [3, 3])):
        for alg in (LINEAR, NEAREST):
            for special in (False, True):
                g = _values(rng, [2, c] + outs, special)
                for sdt in ("f32", "bf16"):
                    pd, got = _backward(alg, g, ins, tag, sdt)
                    assert c == 1 or pd._plan().path == "channels"
                    want = R.backward_codes(g, ins, alg, DTS[sdt])
                    _same(D.decode(D.encode(got.astype(np.float32).ravel(), DTS[sdt]),
                                   DTS[sdt]), D.decode(want.ravel(), DTS[sdt]))


@pytest.mark.parametrize("c", CHANNELS)
def test_nearest_x2_channel_rows(c):
    """Nearest x2 along W in dense channel rows: each source pixel stored to the
    two columns of the first two rows of a group, further rows copied."""
    rng = np.random.default_rng(100 + c)
    for ins, outs in (([3, 5], [6, 10]), ([2, 4], [6, 8]), ([4, 1], [8, 2]),
                      ([5, 7], [4, 14]), ([3], [6])):
        tag = "nhwc" if len(ins) == 2 else "nwc"
        for special in (False, True):
            x = _values(rng, [2, c] + ins, special)
            smd = dnnl.memory.desc(list(x.shape), "f32", tag)
            dmd = dnnl.memory.desc([2, c] + outs, "f32", tag)
            pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                                   NEAREST, smd, dmd)
            d = _mem(dmd)
            resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                    dnnl.DNNL_ARG_DST: d})
            _same(d.to_numpy(), R.forward(x, outs, NEAREST))


@pytest.fixture
def lazy_w(monkeypatch):
    """Every W axis longer than 4 gets its taps computed by the kernel."""
    monkeypatch.setattr(RP, "LAZY_W_MIN", 4)
    monkeypatch.setattr(RP, "LAZY_CHUNK", 8)      # several chunks per row


def _forward(alg, x, outs, stag, dtag, ddt, attr=None, old=None):
    smd = dnnl.memory.desc(list(x.shape), "f32", stag)
    dmd = dnnl.memory.desc(list(x.shape[:2]) + outs, ddt, dtag)
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_training, alg, smd,
                                           dmd, attr)
    d = _mem(dmd, old)
    resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                            dnnl.DNNL_ARG_DST: d})
    return pd, d


@pytest.mark.parametrize("seed", range(24))
def test_lazy_w_taps_match_the_reference(lazy_w, seed):
    rng = np.random.default_rng(seed)
    nd = 3 + seed % 3
    alg = LINEAR if seed % 2 else NEAREST
    ddt = ("f32", "bf16", "s8", "u8")[seed // 6 % 4]
    ins = [int(rng.integers(1, 4)) for _ in range(nd - 3)] + [int(rng.integers(1, 41))]
    outs = [int(rng.integers(1, 7)) for _ in range(nd - 3)] + [int(rng.integers(5, 101))]
    # source W strided (channels inside) or dense; destination rows dense
    stag = {3: ("ncw", "nwc"), 4: ("nchw", "nhwc"), 5: ("ncdhw", "ndhwc")}[nd][seed // 3 % 2]
    dtag = {3: "ncw", 4: "nchw", 5: "ncdhw"}[nd]
    x = _values(rng, [1, 3] + ins, seed % 4 == 1)
    attr = None
    if seed % 4 == 3:
        attr = dnnl.primitive_attr()
        po = dnnl.post_ops()
        po.append_sum(0.5)
        po.append_eltwise(A.eltwise_relu, 0.2, 0.0)
        attr.set_post_ops(po)
    old = D.decode(D.encode((rng.standard_normal([1, 3] + outs) * 9).astype(np.float32)
                            .ravel(), DTS[ddt]), DTS[ddt]).reshape([1, 3] + outs)
    pd, d = _forward(alg, x, outs, stag, dtag, ddt, attr, old)
    assert pd._plan().lazy_w
    want = R.forward_codes(x, outs, alg, DTS[ddt], post_ops=attr.post_ops_ if attr else None,
                           dst_old=old)
    got = D.encode(np.asarray(d.to_numpy()).astype(np.float32).ravel(), DTS[ddt])
    if ddt == "f32":
        _same(D.decode(got, DTS[ddt]), D.decode(want.ravel(), DTS[ddt]))
    else:
        np.testing.assert_array_equal(got, want.ravel())


@pytest.mark.parametrize("alg, forward", [(LINEAR, True), (NEAREST, True), (LINEAR, False)])
def test_huge_w_plan_has_no_per_index_tables(alg, forward):
    """[1, 1, 2**24] -> x4: the plan's tables stay tiny (the kernel computes the
    W taps); a table per index would be gigabytes."""
    f32 = dnnl.memory.data_type.f32
    smd = dnnl.memory.desc([1, 1, 2 ** 24], f32, "ncw")
    dmd = dnnl.memory.desc([1, 1, 2 ** 26], f32, "ncw")
    if forward:
        pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference, alg,
                                               smd, dmd)
    else:
        pd = resampling_backward.primitive_desc(ENG, alg, smd, dmd, None)
    plan = pd._plan()
    assert plan.lazy_w
    assert plan.table_bytes < 1 << 20


@pytest.mark.parametrize("iw", [8, 9, 16, 17, 23, 40])
def test_backward_x2_rows(iw):
    """nchw-like rows, x2 along W: the regular columns gather their two outputs
    per tap role in vectors (even and odd lanes), the edges in the loops."""
    rng = np.random.default_rng(200 + iw)
    for tag, ins, outs in (("ncw", [iw], [2 * iw]), ("nchw", [3, iw], [6, 2 * iw]),
                           ("nchw", [4, iw], [3, 2 * iw]), ("ncdhw", [2, 2, iw], [3, 4, 2 * iw])):
        for alg in (LINEAR, NEAREST):
            for special in (False, True):
                g = _values(rng, [2, 3] + outs, special)
                for sdt in ("f32", "bf16"):
                    pd, got = _backward(alg, g, ins, tag, sdt)
                    assert pd._plan().path == "rows"
                    want = R.backward_codes(g, ins, alg, DTS[sdt])
                    _same(D.decode(D.encode(got.astype(np.float32).ravel(), DTS[sdt]),
                                   DTS[sdt]), D.decode(want.ravel(), DTS[sdt]))


@pytest.mark.parametrize("seed", range(16))
def test_lazy_w_backward_matches_the_reference(lazy_w, seed):
    """Linear backward with the W ranges and weights from the kernel."""
    rng = np.random.default_rng(300 + seed)
    nd = 3 + seed % 3
    ins = [int(rng.integers(1, 4)) for _ in range(nd - 3)] + [int(rng.integers(5, 41))]
    outs = [int(rng.integers(1, 7)) for _ in range(nd - 3)] + [int(rng.integers(1, 101))]
    gtag = {3: ("ncw", "nwc"), 4: ("nchw", "nhwc"), 5: ("ncdhw", "ndhwc")}[nd][seed // 3 % 2]
    stag = {3: "ncw", 4: "nchw", 5: "ncdhw"}[nd]
    g = _values(rng, [1, 3] + outs, seed % 4 == 1)
    ddmd = dnnl.memory.desc(list(g.shape), "f32", gtag)
    dsmd = dnnl.memory.desc([1, 3] + ins, "f32", stag)
    pd = resampling_backward.primitive_desc(ENG, LINEAR, dsmd, ddmd, None)
    ds = _mem(dsmd)
    resampling_backward(pd).execute(STREAM, {dnnl.DNNL_ARG_DIFF_DST: _mem(ddmd, g),
                                             dnnl.DNNL_ARG_DIFF_SRC: ds})
    assert pd._plan().lazy_w == (outs[-1] <= 64 * ins[-1])
    _same(ds.to_numpy(), R.backward(g, ins, LINEAR))


@pytest.mark.parametrize("iw", [4, 5, 8, 9, 16, 17, 23, 40, 57])
def test_forward_linear_x2_rows(iw):
    """nchw-like rows, linear x2 along W: the regular columns (outputs 2k and
    2k + 1 from columns k - 1, k, k + 1) without gathers, the edges gathered;
    the bytes of the reference, specials and post-op destinations included."""
    rng = np.random.default_rng(300 + iw)
    for tag, ins, outs in (("ncw", [iw], [2 * iw]), ("nchw", [3, iw], [6, 2 * iw]),
                           ("nchw", [4, iw], [3, 2 * iw]), ("ncdhw", [2, 2, iw], [3, 4, 2 * iw]),
                           ("nchw", [3, iw], [5, 2 * iw + 1])):
        for special in (False, True):
            x = _values(rng, [2, 3] + ins, special)
            for ddt in ("f32", "u8"):
                smd = dnnl.memory.desc(list(x.shape), "f32", tag)
                dmd = dnnl.memory.desc([2, 3] + outs, ddt, tag)
                pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                                       LINEAR, smd, dmd)
                d = _mem(dmd)
                resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                        dnnl.DNNL_ARG_DST: d})
                lo, hi = pd._plan().x2_columns
                regular = len(ins) < 3 and outs[-1] == 2 * iw and iw >= 6
                assert (hi - lo >= 4) == regular, (tag, ins, outs, lo, hi)
                want = R.forward_codes(x, outs, LINEAR, DTS[ddt])
                _same(D.decode(D.encode(d.to_numpy().astype(np.float32).ravel(), DTS[ddt]),
                               DTS[ddt]), D.decode(want.ravel(), DTS[ddt]))


@pytest.mark.parametrize("ow", [1, 3, 4, 7, 16, 29])
def test_forward_halved_w_rows(ow):
    """nchw-like rows with W halved: every output column taps every other
    source column (nearest: one tap, linear: two), read without gathers; the
    bytes of the reference, specials included."""
    rng = np.random.default_rng(400 + ow)
    for tag, ins, outs in (("ncw", [2 * ow], [ow]), ("nchw", [6, 2 * ow], [3, ow]),
                           ("nchw", [3, 2 * ow], [5, ow]), ("nchw", [3, 2 * ow + 1], [3, ow])):
        for alg in (NEAREST, LINEAR):
            for special in (False, True):
                x = _values(rng, [2, 3] + ins, special)
                smd = dnnl.memory.desc(list(x.shape), "f32", tag)
                dmd = dnnl.memory.desc([2, 3] + outs, "f32", tag)
                pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                                       alg, smd, dmd)
                d = _mem(dmd)
                resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                        dnnl.DNNL_ARG_DST: d})
                taps = np.floor((np.arange(ow) + 0.5) * ins[-1] / ow)   # nearest's
                halved = ow >= 4 and (ins[-1] == 2 * ow or (
                    alg == NEAREST and (np.diff(taps) == 2).all()))
                assert pd._plan().halved_columns == halved, (tag, ins, outs, alg)
                _same(d.to_numpy(), R.forward(x, outs, alg))


@pytest.mark.parametrize("c", [2, 3, 16, 17, 64])
def test_forward_linear_plain_channel_rows_check_outputs(c):
    """2-D linear over plain f32 channel rows (nhwc): no scan of either buffer,
    the kernels check what they store; the bytes of the reference, and an
    inf/NaN found that way (the 3-D rerun) wherever it sits: in a tapped
    column, an untapped one, or only as an overflow."""
    rng = np.random.default_rng(500 + c)
    for ins, outs in (([5, 7], [10, 14]), ([6, 8], [3, 4]), ([7, 9], [11, 13]),
                      ([4, 9], [4, 3]), ([3, 1], [5, 2]), ([9, 12], [4, 17])):
        for special in ("none", "random", "huge", "untapped"):
            x = _values(rng, [2, c] + ins, special == "random")
            if special == "huge":
                x[:] = np.float32(3e38) * np.sign(x)     # neighbours sum past f32
            if special == "untapped":
                x[0, 0, 0, -1] = np.inf                  # skipped by W/3-ish taps
            smd = dnnl.memory.desc(list(x.shape), "f32", "nhwc")
            dmd = dnnl.memory.desc([2, c] + outs, "f32", "nhwc")
            pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                                   LINEAR, smd, dmd)
            d = _mem(dmd)
            resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                    dnnl.DNNL_ARG_DST: d})
            assert pd._plan().path == "channels"
            assert pd._plan().checks_outputs
            _same(d.to_numpy(), R.forward(x, outs, LINEAR))


@pytest.mark.parametrize("c", [24, 32])
def test_forward_linear_streamed_channel_rows(c):
    """2-D linear over plain f32 channel rows whose tensors outgrow the caches
    (src + dst >= 16 MiB): aligned pixels are stored around the caches (with
    24 channels every other pixel is misaligned and stored as usual), each
    destination page touched ahead of the stores; the bytes of the reference,
    inf/NaN included."""
    rng = np.random.default_rng(600 + c)
    ins, outs = [256, 160], [520, 331]
    x = _values(rng, [1, c] + ins, special=True)
    smd = dnnl.memory.desc(list(x.shape), "f32", "nhwc")
    dmd = dnnl.memory.desc([1, c] + outs, "f32", "nhwc")
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                           LINEAR, smd, dmd)
    assert pd._plan().streams and pd._plan().checks_outputs
    assert pd._plan().dpage_ahead == RP.DPAGE_AHEAD > 0
    for special in (True, False):
        if not special:
            x = _values(rng, [1, c] + ins, special=False)
        d = _mem(dmd)
        resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                dnnl.DNNL_ARG_DST: d})
        _same(d.to_numpy(), R.forward(x, outs, LINEAR))


def _offset_mem(md, shift):
    """A memory over a buffer ``shift`` floats past a 64-byte boundary (new
    arrays often are), filled with garbage."""
    n = dnnl.memory(md, ENG).nbytes // 4
    raw = np.empty(n + 32, np.float32)
    k = (-(raw.ctypes.data // 4)) % 16 + shift
    buf = raw[k:k + n]
    buf.view(np.uint8)[:] = 0x7B
    return dnnl.memory(md, ENG, buf)


@pytest.mark.parametrize("alg, ins, outs", [
    (NEAREST, [256, 160], [512, 320]), (NEAREST, [256, 160], [520, 331]),
    (LINEAR, [256, 160], [512, 320]),
    (NEAREST, [40, 1200], [80, 2400]), (LINEAR, [40, 1200], [80, 2400])])
def test_forward_streamed_staged_channel_rows(alg, ins, outs):
    """Outputs too large for the caches over dense channel rows: nearest builds
    each repeated row once in the scratch and streams it to every row of its
    group (x2 by pixel pairs, or any factor); linear stages the rows it cannot
    stream pixel by pixel (misaligned). Rows wider than STAGE_BYTES are not
    staged. Any alignment of the destination: the bytes of the reference."""
    rng = np.random.default_rng(700 + outs[1])
    c = 32
    x = _values(rng, [1, c] + ins, special=False)
    smd = dnnl.memory.desc(list(x.shape), "f32", "nhwc")
    dmd = dnnl.memory.desc([1, c] + outs, "f32", "nhwc")
    pd = resampling_forward.primitive_desc(ENG, dnnl.prop_kind.forward_inference,
                                           alg, smd, dmd)
    assert pd._plan().streams == (alg == LINEAR or outs[1] * c * 4 <= RP.STAGE_BYTES)
    want = R.forward(x, outs, alg)
    for shift in (0, 1, 4, 13):
        d = _offset_mem(dmd, shift)
        resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: _mem(smd, x),
                                                dnnl.DNNL_ARG_DST: d})
        _same(d.to_numpy(), want)


def test_kernels_only_copy_their_plans():
    """Fast paths are decided by the plan builders (each kind's plan.py): the kernel sources use numpy only to hold the plan's
    arrays (``empty``: the tables resampling's FwdPlan.of_pixels fills in C), and define no Python helpers beyond the
    array copies and ``tap_span`` (the ends of the C taps, which plan.pixel_plan reads rather than redoing their f32
    arithmetic)."""
    kinds = pathlib.Path(RP.__file__).parent.parent
    for name in ("resampling/kernel.pyx", "reorder/kernel.pyx.in"):
        # the kernel and the parts it includes (its folder _kernel/)
        parts = sorted((kinds / name).parent.glob("_kernel/*.pxi"))
        text = "\n".join(p.read_text() for p in [kinds / name] + parts)
        used = set(re.findall(r"\bnp\.(\w+)", text))
        assert used <= {"ascontiguousarray", "array", "empty", "int32", "int64", "float32", "uint8"}, (name, used)
        helpers = set(re.findall(r"^def (\w+)", text, re.M))
        assert helpers <= {"_arr64", "_arrf", "max_threads", "tap_span"}, (name, helpers)
