"""Resampling: worked examples (measured on libdnnl 3.13.2), validation, queries,
layouts, data types and post-ops, against dnnl.testing.resampling."""
import numpy as np
import pytest

import dnnl
from dnnl.resampling import post_op_src1_arg, resampling_backward, resampling_forward
from dnnl.testing import dtypes as D
from dnnl.testing import resampling as R

pytestmark = pytest.mark.kernels

A = dnnl.algorithm
NEAREST, LINEAR = A.resampling_nearest, A.resampling_linear
FWD, INF = dnnl.prop_kind.forward_training, dnnl.prop_kind.forward_inference
ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
STREAM = dnnl.stream(ENG)
PLAIN = {3: "ncw", 4: "nchw", 5: "ncdhw"}
DTS = {"f32": D.F32, "bf16": D.BF16, "f16": D.F16, "s32": D.S32, "s8": D.S8, "u8": D.U8}


def md(dims, dt="f32", tag=None):
    return dnnl.memory.desc(dims, dt, tag or PLAIN[len(dims)])


def mem(m, values=None):
    x = dnnl.memory(m, ENG)
    if values is not None:
        x.from_numpy(np.asarray(values).reshape(m.dims))
    return x


def fwd(alg, src, out_spatial, sdt="f32", ddt=None, stag=None, dtag="any", attr=None,
        old=None, src1=None, prop=FWD):
    src = np.asarray(src, np.float32)
    smd = md(list(src.shape), sdt, stag)
    dmd = dnnl.memory.desc(list(src.shape[:2]) + list(out_spatial), ddt or sdt, dtag)
    pd = resampling_forward.primitive_desc(ENG, prop, alg, smd, dmd, attr)
    s = mem(smd, src)
    d = mem(pd.dst_desc(), old)
    args = {dnnl.DNNL_ARG_SRC: s, dnnl.DNNL_ARG_DST: d}
    for i, m in (src1 or {}).items():
        args[post_op_src1_arg(i)] = m
    resampling_forward(pd).execute(STREAM, args)
    return d.to_numpy()


def bwd(alg, dd, in_spatial, ddt="f32", sdt=None, dtag=None, stag="any"):
    dd = np.asarray(dd, np.float32)
    ddmd = md(list(dd.shape), ddt, dtag)
    dsmd = dnnl.memory.desc(list(dd.shape[:2]) + list(in_spatial), sdt or ddt, stag)
    pd = resampling_backward.primitive_desc(ENG, alg, dsmd, ddmd, None)
    g = mem(ddmd, dd)
    ds = dnnl.memory(pd.diff_src_desc(), ENG)
    ds.map_data(np.uint8)[:] = 0x7B           # garbage: must be fully overwritten
    resampling_backward(pd).execute(STREAM, {dnnl.DNNL_ARG_DIFF_DST: g,
                                             dnnl.DNNL_ARG_DIFF_SRC: ds})
    return ds.to_numpy()


def flat(x):
    return np.asarray(x, np.float64).ravel().tolist()


# ------------------------------------------------------------ worked examples
@pytest.mark.parametrize("src, out, expected", [
    ([10, 11, 12, 13], 2, [11, 13]),                 # E1
    ([1, 2, 3], 5, [1, 1, 2, 3, 3]),                 # E2
    ([7, 8], 3, [7, 8, 8]),                          # E3
    (list(range(6)), 4, [0, 2, 3, 5]),               # E3b
    (list(range(5)), 2, [1, 3]),                     # E3c
    (list(range(4)), 1, [2]),                        # E3d
])
def test_nearest_examples(src, out, expected):
    assert flat(fwd(NEAREST, [[src]], [out])) == expected


def test_nearest_2d_example():                       # E7n
    assert fwd(NEAREST, [[[[1, 2, 3], [4, 5, 6]]]], [3, 2]).tolist() == \
        [[[[1, 3], [4, 6], [4, 6]]]]


@pytest.mark.parametrize("src, out, expected", [
    (list(range(4)), 8, [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]),          # E4
    (list(range(8)), 2, [1.5, 5.5]),                                            # E5
    (list(range(8)), 3, [0.8333333730697632, 3.5, 6.166666507720947]),         # E5b
    (list(range(4)), 1, [1.5]),                                                 # E5c
    ([0, 4, 8], 5, [0, 1.5999999046325684, 4, 6.399999618530273, 8]),          # E6
])
def test_linear_examples(src, out, expected):
    assert flat(fwd(LINEAR, [[src]], [out])) == expected


def test_linear_2d_3d_examples():
    assert fwd(LINEAR, [[[[0, 4], [8, 12]]]], [3, 4]).tolist() == \
        [[[[0, 1, 3, 4], [4, 5, 7, 8], [8, 9, 11, 12]]]]                       # E7
    e7b = [[0, 1.1999999284744263, 3, 4.799999713897705, 6],
           [4.5, 5.699999809265137, 7.5, 9.300000190734863, 10.5],
           [9, 10.199999809265137, 12, 13.799999237060547, 15]]
    for tag in ("nchw", "nhwc", "nChw8c"):
        assert fwd(LINEAR, [[[[0, 3, 6], [9, 12, 15]]]], [3, 5], stag=tag)[0, 0].tolist() \
            == e7b                                                               # E7b
    e8 = fwd(LINEAR, np.arange(8).reshape(1, 1, 2, 2, 2), [3, 3, 3])[0, 0]      # E8
    assert e8[0].tolist() == [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]
    assert e8[1].tolist() == [[2, 2.5, 3], [3, 3.5, 4], [4, 4.5, 5]]
    assert e8[2].tolist() == [[4, 4.5, 5], [5, 5.5, 6], [6, 6.5, 7]]


def test_data_type_examples():
    assert flat(fwd(LINEAR, [[[0, 5]]], [4], "s8")) == [0, 1, 4, 5]            # E12
    assert flat(fwd(LINEAR, [[[0, 10]]], [8], "u8")) == [0, 0, 1, 4, 6, 9, 10, 10]  # E12b
    assert flat(fwd(LINEAR, [[[1, 2]]], [4], "f32", "s32")) == [1, 1, 2, 2]     # E12c


def _attr(*ops):
    po = dnnl.post_ops()
    for op in ops:
        getattr(po, "append_" + op[0])(*op[1:])
    a = dnnl.primitive_attr()
    a.set_post_ops(po)
    return a


def test_post_op_examples():
    a = _attr(("eltwise", A.eltwise_linear, 1.0, 0.5))
    assert flat(fwd(LINEAR, [[[1, 2, 4]]], [6], "f32", "u8", attr=a)) == [2, 2, 2, 3, 4, 4]  # E13
    old = np.float32([[[10, 20, 30, 40, 50, 60]]])
    assert flat(fwd(LINEAR, [[[1, 2, 4]]], [6], attr=_attr(("sum", 0.5)), old=old)) == \
        [6, 11.25, 16.75, 22.5, 28.5, 34]                                      # E14
    a = _attr(("eltwise", A.eltwise_linear, 2.0, -5.0), ("sum", 1.0))
    assert flat(fwd(LINEAR, [[[1, 2, 4]]], [6], attr=a, old=old)) == \
        [7, 17.5, 28.5, 40, 52, 63]                                             # E14b
    s1md = dnnl.memory.desc([1, 2, 1, 1], "f32", "nchw")                       # E14c
    src = np.float32([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]])
    out = fwd(NEAREST, src, [4, 4], attr=_attr(("binary", A.binary_add, s1md)),
              src1={0: mem(s1md, [100, 200])})
    up = src.repeat(2, axis=2).repeat(2, axis=3)
    assert (out == up + np.float32([100, 200]).reshape(1, 2, 1, 1)).all()
    old8 = np.int8([[[100, -100, 5, 6, 7, 8]]])                                 # E14d
    assert flat(fwd(LINEAR, [[[1, 2, 4]]], [6], "f32", "s8", attr=_attr(("sum", 1.0)),
                    old=old8)) == [101, -99, 7, 8, 10, 12]


def test_multiple_sums_read_the_original():
    old = np.float32([[[1, 2]]])
    a = _attr(("sum", 1.0), ("sum", 2.0))
    assert flat(fwd(NEAREST, [[[10, 20]]], [2], attr=a, old=old)) == [13, 26]


@pytest.mark.parametrize("dd, n_in, expected", [
    ([1, 2, 3, 4, 5], 2, [3, 12]),                                   # E9
    (list(range(1, 9)), 3, [6, 9, 21]),                              # E9b
    (list(range(1, 7)), 4, [1, 5, 4, 11]),                           # E9c
    ([1, 2], 8, [0, 0, 1, 0, 0, 0, 2, 0]),                           # E9d
])
def test_backward_nearest_examples(dd, n_in, expected):
    assert flat(bwd(NEAREST, [[dd]], [n_in])) == expected


@pytest.mark.parametrize("dd, n_in, expected", [
    ([1, 2, 3, 4], 2, [3.25, 6.75]),                                 # E10
    ([1, 2], 8, [0, 0.5, 0.5, 0, 0, 1, 1, 0]),                       # E11
    ([1, 2, 3], 8, [0.16666662693023682, 0.8333333730697632, 0, 1, 1, 0,
                    2.500000476837158, 0.4999995231628418]),          # E11b
    ([1, 2, 3, 4, 5], 3, [2.200000047683716, 5.40000057220459, 7.399999618530273]),  # E11c
])
def test_backward_linear_examples(dd, n_in, expected):
    assert flat(bwd(LINEAR, [[dd]], [n_in])) == expected


def test_backward_2d_and_type_examples():
    dd = [[[[1, 2, 3], [4, 5, 6]]]]
    assert bwd(NEAREST, dd, [3, 2]).tolist() == [[[[1, 5], [0, 0], [4, 11]]]]      # E11e
    assert bwd(LINEAR, dd, [3, 2]).tolist() == \
        [[[[1.5, 3], [2.125000238418579, 3.125], [4.875, 6.375]]]]                  # E11d
    assert flat(bwd(NEAREST, [[[100, -100, 50, 1]]], [2], "f32", "s8")) == [0, 51]  # E15
    # bf16 sums in f32, one conversion: 1 + 2^-8 + 2^-8 -> 1.0078125
    x = np.float32([[[1, 2 ** -8, 2 ** -8]]])
    assert float(bwd(NEAREST, x, [1], "f32", "bf16").astype(np.float32).ravel()[0]) == \
        1.0078125


def test_backward_nearest_is_the_transpose():
    # ref:any gives diff_src[20] = d[1], [21] = 0; we follow the forward map
    out = bwd(NEAREST, [[[1, 2]]], [28]).ravel()
    assert out[21] == 2 and out[20] == 0 and out[7] == 1


# ------------------------------------------------------------ factors and queries
def test_factors():
    smd = md([1, 1, 10])
    pd = resampling_forward.primitive_desc(ENG, INF, NEAREST, [0.7], smd)   # E16
    assert pd.dst_desc().dims == (1, 1, 6)
    assert pd.query_factors() == [np.float32(0.6).item(), 0.0, 0.0]
    assert pd.get_factors() == [np.float32(0.6).item()]
    for w, f, expect in [(20, 0.35, 6), (100, 0.29, 28), (10, 2.5, 25), (3, 1 / 3, 1),
                         (7, 0.7, 4)]:
        pd = resampling_forward.primitive_desc(ENG, INF, LINEAR, [f], md([1, 1, w]))
        assert pd.dst_desc().dims[2] == expect
    # with a dst desc the factors are ignored
    pd = resampling_forward.primitive_desc(ENG, INF, LINEAR, [3.0], md([1, 1, 10]),
                                           md([1, 1, 4]))
    assert pd.dst_desc().dims == (1, 1, 4)
    pd = resampling_forward.primitive_desc(ENG, INF, NEAREST, [2.0, 0.5],
                                           md([2, 3, 4, 6], "s8", "nhwc"))
    assert pd.dst_desc() == dnnl.memory.desc([2, 3, 8, 3], "s8", "nhwc")


def test_queries():
    smd, dmd = md([2, 17, 3, 4], "f32", "nChw16c"), md([2, 17, 6, 8], "f32", "any")
    po = dnnl.post_ops()
    po.append_binary(A.binary_mul, dnnl.memory.desc([1, 17, 1, 1], "f32", "nchw"))
    a = dnnl.primitive_attr()
    a.set_post_ops(po)
    pd = resampling_forward.primitive_desc(ENG, FWD, LINEAR, smd, dmd, a)
    assert pd.dst_desc() == dnnl.memory.desc([2, 17, 6, 8], "f32", "nChw16c")
    assert pd.src_desc() == smd
    assert pd.diff_src_desc().is_zero() and pd.workspace_desc().is_zero()
    assert pd.scratchpad_desc().get_size() == 0
    assert pd.get_prop_kind() == FWD and pd.get_algorithm() == LINEAR
    assert pd.query_s32(dnnl.query.num_of_inputs_s32) == 2
    assert pd.query_md(dnnl.query.exec_arg_md, post_op_src1_arg(0)).dims == (1, 17, 1, 1)
    assert pd.impl_info_str() == "ref:any"
    bpd = resampling_backward.primitive_desc(ENG, LINEAR, md([2, 17, 3, 4], "f32", "any"),
                                             md([2, 17, 6, 8], "bf16", "nhwc"), pd)
    assert bpd.diff_src_desc() == dnnl.memory.desc([2, 17, 3, 4], "f32", "nhwc")
    assert bpd.src_desc().is_zero() and bpd.get_prop_kind() == dnnl.prop_kind.backward_data
    assert bpd.get_factors() == [2.0, 2.0]
    # factors form of the backward pd; diff_dst any takes the hint's dst layout
    bpd = resampling_backward.primitive_desc(ENG, LINEAR, [2.0, 2.0], md([2, 17, 3, 4]), pd)
    assert bpd.diff_dst_desc() == dnnl.memory.desc([2, 17, 6, 8], "f32", "nChw16c")


# ------------------------------------------------------------ errors
def status(fn):
    try:
        fn()
    except dnnl.error as e:
        return e.status
    return dnnl.status.success


INV, UNI = dnnl.status.invalid_arguments, dnnl.status.unimplemented


def test_creation_errors():
    f = resampling_forward.primitive_desc
    s3 = md([1, 2, 4])
    assert status(lambda: f(ENG, dnnl.prop_kind.backward_data, NEAREST, s3, s3)) == INV
    assert status(lambda: f(ENG, FWD, A.eltwise_relu, s3, s3)) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, None, s3)) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, s3, None)) == INV       # no dst, no factors
    assert status(lambda: f(ENG, FWD, NEAREST, md([1, 2], "f32", "ab"),
                            md([1, 2], "f32", "ab"))) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, s3, md([1, 3, 8]))) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, s3, md([1, 2, 8, 8]))) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, md([1, 2, 4], "f32", "any"), s3)) == INV
    assert status(lambda: f(ENG, FWD, NEAREST, md([1, 2, 4], "f64"), s3)) == UNI
    assert status(lambda: f(ENG, FWD, NEAREST, [-1.0], s3)) == INV      # our choice
    a = dnnl.primitive_attr()
    a.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    assert status(lambda: f(ENG, FWD, NEAREST, s3, s3, a)) == UNI
    assert status(lambda: f(ENG, FWD, NEAREST, s3, s3, _attr(("sum", 1.0, 2)))) == UNI
    assert status(lambda: f(ENG, FWD, NEAREST, md([1, 2, 4], "s8"), md([1, 2, 4], "s8"),
                            _attr(("sum", 1.0, 0, "u8")))) == UNI
    assert status(lambda: f(ENG, FWD, NEAREST, s3, s3, _attr(("prelu", 0)))) == UNI
    bad1 = dnnl.memory.desc([1, 2], "f32", "ab")
    assert status(lambda: f(ENG, FWD, NEAREST, s3, s3,
                            _attr(("binary", A.binary_add, bad1)))) == INV
    b = resampling_backward.primitive_desc
    assert status(lambda: b(ENG, NEAREST, s3, s3, None,
                            _attr(("eltwise", A.eltwise_relu, 0.0, 0.0)))) == UNI
    assert status(lambda: b(ENG, NEAREST, md([1, 2, 4], "f32", "any"),
                            md([1, 2, 4], "f32", "any"), None)) == UNI
    pd = f(ENG, FWD, NEAREST, s3, s3, allow_empty=False)
    assert bool(pd)
    assert not bool(f(ENG, FWD, NEAREST, s3, md([1, 3, 4]), allow_empty=True))


def test_execution_errors_write_nothing():
    s3, d3 = md([1, 2, 4]), md([1, 2, 8])
    pd = resampling_forward.primitive_desc(ENG, FWD, NEAREST, s3, d3)
    p = resampling_forward(pd)
    dst = mem(d3, np.full((1, 2, 8), 7, np.float32))
    assert status(lambda: p.execute(STREAM, {dnnl.DNNL_ARG_DST: dst})) == INV
    # a src too small for the primitive's descriptor (a larger one is taken,
    # as oneDNN takes it: tests/properties/test_edge_cases.py)
    assert status(lambda: p.execute(STREAM, {dnnl.DNNL_ARG_SRC: mem(md([1, 2, 3])),
                                             dnnl.DNNL_ARG_DST: dst})) == INV
    assert (dst.to_numpy() == 7).all()
    po_md = dnnl.memory.desc([1, 2, 1], "f32", "abc")
    pd = resampling_forward.primitive_desc(ENG, FWD, NEAREST, s3, d3,
                                           _attr(("binary", A.binary_add, po_md)))
    assert status(lambda: resampling_forward(pd).execute(
        STREAM, {dnnl.DNNL_ARG_SRC: mem(s3), dnnl.DNNL_ARG_DST: dst})) == INV
    assert (dst.to_numpy() == 7).all()


def test_zero_sized():
    # src W = 0: dst untouched (as oneDNN); N = 0: no-op
    pd = resampling_forward.primitive_desc(ENG, FWD, LINEAR, md([1, 1, 0]), md([1, 1, 8]))
    dst = mem(pd.dst_desc(), np.full((1, 1, 8), 7, np.float32))
    resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: mem(md([1, 1, 0])),
                                            dnnl.DNNL_ARG_DST: dst})
    assert (dst.to_numpy() == 7).all()
    pd = resampling_forward.primitive_desc(ENG, FWD, NEAREST, [0.05], md([1, 1, 10]))
    assert pd.dst_desc().dims == (1, 1, 0)


# ------------------------------------------------------------ against the reference
LAYOUTS = {3: ["ncw", "nwc", "nCw8c", "nCw16c", "cba"],
           4: ["nchw", "nhwc", "nChw8c", "nChw16c", "cdba"],
           5: ["ncdhw", "ndhwc", "nCdhw8c", "nCdhw16c", "cdeba"]}


def _case(seed):
    rng = np.random.default_rng(seed)
    nd = int(rng.choice([3, 4, 5]))
    k = nd - 2
    dims = [int(rng.integers(1, 3)), int(rng.choice([1, 5, 16, 19]))]
    ins = [int(rng.integers(1, {1: 20, 2: 9, 3: 5}[k])) for _ in range(k)]
    outs = [int(rng.integers(1, 2 * i + 3)) for i in ins]
    return rng, nd, dims + ins, dims + outs


@pytest.mark.parametrize("seed", range(60))
def test_forward_against_reference(seed):
    rng, nd, sdims, ddims = _case(seed)
    sdt, ddt = (str(rng.choice(list(DTS))) for _ in range(2))
    alg = LINEAR if seed % 2 else NEAREST
    x = (rng.standard_normal(sdims) * 50).astype(np.float32)
    x = D.decode(D.encode(x.ravel(), DTS[sdt]), DTS[sdt]).reshape(sdims)
    stag, dtag = str(rng.choice(LAYOUTS[nd])), str(rng.choice(LAYOUTS[nd]))
    s1md = dnnl.memory.desc([1, ddims[1]] + [1] * (nd - 2), "f32", PLAIN[nd])
    s1 = rng.standard_normal(s1md.dims).astype(np.float32)
    a = _attr(("sum", 0.5), ("eltwise", A.eltwise_relu, 0.2, 0.0),
              ("binary", A.binary_add, s1md))
    old = D.decode(D.encode((rng.standard_normal(ddims) * 9).astype(np.float32).ravel(),
                            DTS[ddt]), DTS[ddt]).reshape(ddims)
    got = fwd(alg, x, ddims[2:], sdt, ddt, stag, dtag, a, old, {2: mem(s1md, s1)})
    want = R.forward_codes(x, ddims[2:], alg, DTS[ddt], post_ops=a.post_ops_, dst_old=old,
                           src1_arrays={2: s1})
    got_codes = D.encode(np.asarray(got).astype(np.float32).ravel(), DTS[ddt])
    np.testing.assert_array_equal(got_codes, want.ravel())


@pytest.mark.parametrize("seed", range(40))
def test_backward_against_reference(seed):
    rng, nd, sdims, ddims = _case(seed + 1000)
    gdt, sdt = (str(rng.choice(["f32", "bf16", "f16", "s8"])) for _ in range(2))
    alg = LINEAR if seed % 2 else NEAREST
    g = (rng.standard_normal(ddims) * 20).astype(np.float32)
    g = D.decode(D.encode(g.ravel(), DTS[gdt]), DTS[gdt]).reshape(ddims)
    got = bwd(alg, g, sdims[2:], gdt, sdt, str(rng.choice(LAYOUTS[nd])),
              str(rng.choice(LAYOUTS[nd])))
    want = R.backward_codes(g, sdims[2:], alg, DTS[sdt])
    got_codes = D.encode(np.asarray(got).astype(np.float32).ravel(), DTS[sdt])
    np.testing.assert_array_equal(got_codes, want.ravel())


def test_padding_is_zeroed():
    smd = md([1, 17, 2, 2], "f32", "nchw")
    dmd = md([1, 17, 3, 3], "f32", "nChw16c")
    pd = resampling_forward.primitive_desc(ENG, FWD, LINEAR, smd, dmd)
    d = dnnl.memory(dmd, ENG)
    d.map_data(np.uint8)[:] = 0xFF
    resampling_forward(pd).execute(STREAM, {dnnl.DNNL_ARG_SRC: mem(smd, np.ones((1, 17, 2, 2))),
                                            dnnl.DNNL_ARG_DST: d})
    raw = d.map_data().reshape(1, 2, 3, 3, 16)
    assert (raw[0, 1, :, :, 1:] == 0).all() and (d.to_numpy() == 1).all()


def test_large_parallel_matches_reference():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 8, 20, 24)).astype(np.float32)
    for alg in (NEAREST, LINEAR):
        for tag in ("nchw", "nhwc"):
            got = fwd(alg, x, [45, 31], stag=tag, dtag=tag)
            want = R.forward(x, [45, 31], alg)
            np.testing.assert_array_equal(got, want)
            g = rng.standard_normal((2, 8, 45, 31)).astype(np.float32)
            np.testing.assert_array_equal(bwd(alg, g, [20, 24], dtag=tag, stag=tag),
                                          R.backward(g, [20, 24], alg))


@pytest.mark.parametrize("src_hw, dst_hw", [((5, 7), (15, 14)), ((6, 6), (12, 13)),
                                            ((4, 9), (4, 20)), ((7, 5), (11, 3))])
@pytest.mark.parametrize("tag", ["nhwc", "nchw"])
def test_nearest_repeated_rows_are_copied_exactly(src_hw, dst_hw, tag):
    """Nearest upsampling builds one row per source row and copies it to the
    rows that repeat it (nhwc and nchw): the result must equal the reference anyway,
    for integer and non-integer factors, with a sub-memory destination too."""
    import dnnl.testing.resampling as R
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    n, c = 2, 24
    x = np.random.default_rng(1).standard_normal((n, c) + src_hw).astype(np.float32)
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), "f32", tag), eng)
    src.from_numpy(x)
    want = R.forward(x, list(dst_hw), R.NEAREST)
    parent = dnnl.memory.desc([n + 1, c] + list(dst_hw), "f32", tag)
    for dst_md in (dnnl.memory.desc([n, c] + list(dst_hw), "f32", tag),
                   parent.submemory_desc([n, c] + list(dst_hw), [1, 0, 0, 0])):
        buf = np.full(dnnl.memory(parent, eng).nbytes // 4, 7.0, np.float32)
        dst = dnnl.memory(dst_md, eng, buf)
        pd = dnnl.resampling_forward.primitive_desc(
            eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_nearest,
            src.get_desc(), dst_md)
        dnnl.resampling_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: src,
                                                   dnnl.DNNL_ARG_DST: dst})
        np.testing.assert_array_equal(dst.to_numpy(), want)
        repeats = dst_hw[0] > src_hw[0]
        assert (pd._plan().row_groups > 0) == repeats


def test_argument_forms_keywords_and_refusals():
    """Every C++ argument form, positional or by keyword, gives the same
    descriptor; too many or unknown arguments raise dnnl.error."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    F = dnnl.resampling_forward.primitive_desc
    B = dnnl.resampling_backward.primitive_desc
    P, LIN = dnnl.prop_kind.forward_training, dnnl.algorithm.resampling_linear
    src = dnnl.memory.desc([1, 2, 3, 4], "f32", "nchw")
    dst = dnnl.memory.desc([1, 2, 6, 8], "f32", "nchw")
    attr = dnnl.primitive_attr()
    forms = [F(eng, P, LIN, src, dst), F(eng, P, LIN, src, dst, attr),
             F(eng, P, LIN, [2.0, 2.0], src), F(eng, P, LIN, [2.0, 2.0], src, attr),
             F(eng, P, LIN, [2.0, 2.0], src, dst), F(eng, P, LIN, src, dst_desc=dst),
             F(eng, P, LIN, [2.0, 2.0], src_desc=src, attr=attr)]
    assert all(pd.dst_desc() == dst and pd.src_desc() == src for pd in forms)
    hint = forms[0]
    back = [B(eng, LIN, src, dst, hint), B(eng, LIN, [2.0, 2.0], src, hint),
            B(eng, LIN, [2.0, 2.0], src, dst, hint, attr),
            B(eng, LIN, src, dst, hint_fwd_pd=hint)]
    assert all(pd.diff_dst_desc() == dst and pd.diff_src_desc() == src for pd in back)
    for bad in (lambda: F(eng, P, LIN, src, dst, attr, attr),
                lambda: F(eng, P, LIN, [2.0, 2.0], src, attr, attr),
                lambda: F(eng, P, LIN, src, dst, bogus=1),
                lambda: B(eng, LIN, src, dst, hint, attr, attr),
                lambda: B(eng, LIN, src, dst, hint, bogus=1)):
        with pytest.raises(dnnl.invalid_arguments):
            bad()
