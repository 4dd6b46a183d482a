"""dnnl.primitive_attr: defaults, setters/getters, validation statuses
(src/common/primitive_attr.cpp), copy semantics, equality,
has_default_values / non_default_parts."""
import copy
import os
import struct

import pytest
from hypothesis import given, strategies as st

import dnnl
from dnnl import attr as attr_mod
from dnnl._core.enums import (C, accumulation_mode as AM, algorithm as A, data_type as DT,
                         fpmath_mode as FM, quantization_mode as QM, rounding_mode as RM,
                         scratchpad_mode as SM)
from dnnl.attr import DEFAULT_QUANT_ENTRY, post_ops, primitive_attr
from dnnl.testing import interpreter

pytestmark = pytest.mark.model

SRC, SRC_1, SRC_2, DST = C["DNNL_ARG_SRC"], C["DNNL_ARG_SRC_1"], C["DNNL_ARG_SRC_2"], C["DNNL_ARG_DST"]
WEI, WEI_1, WEI_2, BIAS = (C["DNNL_ARG_WEIGHTS"], C["DNNL_ARG_WEIGHTS_1"],
                           C["DNNL_ARG_WEIGHTS_2"], C["DNNL_ARG_BIAS"])
DIFF_SRC, DIFF_WEI = C["DNNL_ARG_DIFF_SRC"], C["DNNL_ARG_DIFF_WEIGHTS"]
RUNTIME_F32 = struct.unpack("<f", struct.pack("<I", 0x7FC000D0))[0]


def st_of(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except dnnl.error as e:
        return int(e.status)
    return 0


def test_defaults():
    a = primitive_attr()
    assert a.get_scratchpad_mode() == SM.library
    assert a.get_fpmath_mode() == attr_mod.get_default_fpmath_mode()
    assert a.get_fpmath_mode(with_apply_to_int=True)[1] is False
    assert a.get_accumulation_mode() == AM.strict
    assert a.get_deterministic() is False
    assert dict(a.scales) == {} and dict(a.zero_points) == {}
    assert a.get_scales(SRC) == DEFAULT_QUANT_ENTRY and a.get_scales_mask(SRC) == -2 ** 31
    assert a.get_rounding_mode(DST) == RM.environment
    assert len(a.get_post_ops()) == 0
    assert a.get_rnn_data_qparams() == (1.0, 0.0)
    assert a.get_rnn_weights_qparams() == (0, [1.0])
    assert a.get_rnn_weights_projection_qparams() == (0, [1.0])
    assert a.get_dropout() == (None, DT.undef, False, False)
    assert a.has_default_values() and a.non_default_parts() == frozenset()


# ---------------------------------------------------------------- scratchpad
def test_scratchpad_mode():
    a = primitive_attr()
    a.set_scratchpad_mode(SM.user)
    assert a.get_scratchpad_mode() == SM.user
    a.set_scratchpad_mode(0)
    assert a.get_scratchpad_mode() == SM.library
    for bad in (2, -1):
        assert st_of(a.set_scratchpad_mode, bad) == 2
    a.set_scratchpad_mode(1)
    assert a.has_default_values()  # scratchpad mode is never "non-default"


# ---------------------------------------------------------------- fpmath
def test_fpmath_modes_and_apply_to_int_reset():
    a = primitive_attr()
    for m in FM:
        a.set_fpmath_mode(m)
        assert a.get_fpmath_mode() == m
    assert st_of(a.set_fpmath_mode, 5) == 2 and st_of(a.set_fpmath_mode, -1) == 2
    a.set_fpmath_mode(FM.bf16, True)
    assert a.get_fpmath_mode(with_apply_to_int=True) == (FM.bf16, True)
    assert a.non_default_parts() == {"fpmath_mode"}
    a.set_fpmath_mode(FM.f16)  # measured: v1 resets apply_to_int
    assert a.get_fpmath_mode(True) == (FM.f16, False) and a.has_default_values()
    a.set_fpmath_mode(FM.strict, 7)
    assert a.get_apply_to_int() is True and a.has_default_values()  # strict + int: default


def test_default_fpmath_setter():
    old = attr_mod.get_default_fpmath_mode()
    try:
        before = primitive_attr()
        assert attr_mod.set_default_fpmath_mode(FM.tf32) == dnnl.status.success
        assert primitive_attr().get_fpmath_mode() == FM.tf32
        assert before.get_fpmath_mode() == old  # existing attributes keep theirs
        assert st_of(attr_mod.set_default_fpmath_mode, 9) == 2
        assert attr_mod.get_default_fpmath_mode() == FM.tf32
    finally:
        attr_mod.set_default_fpmath_mode(old)


@pytest.mark.parametrize("value,expect", [("bf16", "bf16"), ("ANY", "any"),
                                          ("strict", "strict"), ("nonsense", "strict")])
def test_default_fpmath_environment(value, expect):
    code = ("import dnnl.attr as m; print(m.primitive_attr().get_fpmath_mode().name)")
    env = dict(os.environ, ONEDNN_DEFAULT_FPMATH_MODE=value)
    out = interpreter.run(["-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == expect, out.stderr


# ---------------------------------------------------------------- acc, det, rounding
def test_accumulation_mode():
    a = primitive_attr()
    for m in AM:
        a.set_accumulation_mode(m)
        assert a.get_accumulation_mode() == m
        assert a.has_default_values() == (m in (AM.strict, AM.relaxed, AM.any))
    for bad in (6, 7, -1):
        assert st_of(a.set_accumulation_mode, bad) == 2


def test_deterministic():
    a = primitive_attr()
    a.set_deterministic(5)
    assert a.get_deterministic() is True and a.has_default_values()
    a.set_deterministic(False)
    assert a.get_deterministic() is False


def test_rounding_mode():
    a = primitive_attr()
    for arg in (DST, DIFF_SRC, DIFF_WEI):
        a.set_rounding_mode(arg, RM.stochastic)
        assert a.get_rounding_mode(arg) == RM.stochastic
    assert a.non_default_parts() == {"rounding_mode"}
    assert st_of(a.set_rounding_mode, SRC, RM.stochastic) == 2
    assert st_of(a.set_rounding_mode, SRC, 5) == 2          # measured
    assert st_of(a.set_rounding_mode, SRC, RM.environment) == 0
    assert st_of(a.set_rounding_mode, DST, 2) == 0          # value not range checked
    b = primitive_attr()
    b.set_rounding_mode(SRC, RM.environment)
    assert b.has_default_values()


# ---------------------------------------------------------------- scales
@pytest.mark.parametrize("arg,expect", [
    (SRC, 0), (SRC_1, 0), (SRC_2, 0), (WEI, 0), (WEI_1, 0), (WEI_2, 0), (DST, 0),
    (1027, 0), (1024, 0), (16385, 0), (16384 | WEI, 0), (16384 | DST, 0),
    (BIAS, 2), (DIFF_SRC, 2), (4097, 2), (16384 | SRC_1, 2), (-1, 2)])
def test_scales_mask_args(arg, expect):
    assert st_of(primitive_attr().set_scales_mask, arg, 0) == expect


def test_scales_mask_entry_and_replace():
    a = primitive_attr()
    assert st_of(a.set_scales_mask, SRC, -1) == 2
    a.set_scales_mask(DST, 5)  # not validated against a tensor here
    e = a.scales[DST]
    assert (e.mask, e.data_type, e.groups, e.is_on_host, e.qmode) == \
        (5, DT.f32, (), False, QM.static_sazp)
    a.set_scales_mask(DST, 0)
    assert a.get_scales_mask(DST) == 0 and len(a.scales) == 1
    with pytest.raises(TypeError):
        a.scales[SRC] = e  # read-only view


@pytest.mark.parametrize("kw,expect", [
    (dict(mask=0), 0), (dict(mask=1, data_type="bf16"), 0), (dict(mask=0, data_type="f16"), 0),
    (dict(mask=1, data_type="e8m0"), 0), (dict(mask=0, data_type="e8m0"), 2),
    (dict(mask=1, data_type="f8_e4m3"), 0), (dict(mask=0, data_type="f8_e4m3"), 2),
    (dict(mask=1, data_type="s8"), 2), (dict(mask=1, data_type="s32"), 2),
    (dict(mask=1, data_type="f64"), 2), (dict(mask=1, data_type="f8_e5m2"), 2),
    (dict(mask=3, groups=(1, 2)), 0), (dict(mask=3, groups=(0, 1)), 2),
    (dict(mask=3, groups=(-1, 1)), 2), (dict(mask=3, groups=(2,)), 2),
    (dict(mask=3, groups=(2, 2, 2)), 2), (dict(mask=0, groups=(2, 2)), 2),
    (dict(mask=0, is_on_host=True), 0), (dict(mask=1, is_on_host=True), 2),
    (dict(mask=-1), 2), (dict(mask=0, qmode=0), 2), (dict(mask=0, qmode=4), 2),
    (dict(mask=1, qmode=QM.dynamic_mx), 0), (dict(mask=1, qmode=QM.dynamic_fp), 0),
])
def test_set_scales_validation(kw, expect):
    a = primitive_attr()
    mask = kw.pop("mask")
    assert st_of(a.set_scales, SRC, mask, **kw) == expect
    if expect == 0:
        e = a.scales[SRC]
        assert e.mask == mask and e.groups == tuple(kw.get("groups", ()))
        assert e.data_type == dnnl._core.dtypes.as_data_type(kw.get("data_type", "f32"))
    else:
        assert SRC not in a.scales


def test_set_scales_bad_args():
    a = primitive_attr()
    assert st_of(a.set_scales, BIAS, 0) == 2
    assert st_of(a.set_scales, -5, 0) == 2
    a.set_host_scale(DST)
    assert a.scales[DST].is_on_host and a.scales[DST].mask == 0


def test_quant_entry_helpers():
    a = primitive_attr()
    a.set_scales(WEI, 3, (2, 4), "f16")
    e = a.scales[WEI]
    assert e.group(0) == 2 and e.group(1) == 4 and e.group(-1) == 4 and e.group(2) == 0
    assert e.md_dims((8, 16)) == (4, 4) and e.count((8, 16)) == 16
    assert a.scales[WEI] is a.get_scales(WEI)


# ---------------------------------------------------------------- zero points
@pytest.mark.parametrize("arg,expect", [(SRC, 0), (WEI, 0), (DST, 0), (SRC_2, 0),
                                        (WEI_1, 0), (WEI_2, 0), (BIAS, 2), (SRC_1, 2),
                                        (-1, 2), (1024, 2)])
def test_zero_points_mask_args(arg, expect):
    assert st_of(primitive_attr().set_zero_points_mask, arg, 0) == expect


def test_zero_points_mask_entry():
    a = primitive_attr()
    assert st_of(a.set_zero_points_mask, SRC, -1) == 2
    a.set_zero_points_mask(DST, 2)
    assert a.zero_points[DST] == (2, DT.s32, (), False, QM.static_sazp)
    assert a.non_default_parts() == {"zero_points"}


@pytest.mark.parametrize("arg,kw,expect", [
    (SRC, dict(mask=0), 0), (SRC, dict(mask=0, data_type="s8"), 0),
    (SRC, dict(mask=0, data_type="u8"), 0), (SRC, dict(mask=1, data_type="s4"), 0),
    (SRC, dict(mask=0, data_type="s4"), 2), (WEI, dict(mask=2, data_type="u4"), 0),
    (SRC, dict(mask=3, groups=(2, 1)), 0), (SRC, dict(mask=0, groups=(2, 1)), 2),
    (SRC, dict(mask=0, data_type="f32"), 2), (SRC, dict(mask=0, data_type="s64"), 2),
    (DST, dict(mask=0, data_type="s8"), 2), (DST, dict(mask=3, groups=(2, 1)), 2),
    (DST, dict(mask=0), 0), (SRC, dict(mask=3, groups=(0, 1)), 2),
    (SRC, dict(mask=3, groups=(1,)), 2), (SRC, dict(mask=0, is_on_host=True), 0),
    (SRC, dict(mask=1, is_on_host=True), 2), (SRC, dict(mask=-1), 2),
    (BIAS, dict(mask=0), 2), (-1, dict(mask=0), 2),
])
def test_set_zero_points_validation(arg, kw, expect):
    a = primitive_attr()
    mask = kw.pop("mask")
    assert st_of(a.set_zero_points, arg, mask, **kw) == expect
    assert (arg in a.zero_points) == (expect == 0)


def test_host_zero_point_and_precomputed_reductions():
    a = primitive_attr()
    a.set_host_zero_point(SRC, "s8")
    assert a.zero_points[SRC] == (0, DT.s8, (), True, QM.static_sazp)
    assert st_of(a.set_precomputed_reductions, SRC, 1) == 0
    assert st_of(a.set_precomputed_reductions, DST, 1) == 2
    assert st_of(a.set_precomputed_reductions, SRC, 1, (), "s8") == 2
    assert "precomputed_reductions" in a.non_default_parts()


# ---------------------------------------------------------------- post-ops
def test_post_ops_copy_semantics():
    a = primitive_attr()
    po = post_ops()
    po.append_sum(0.5)
    a.set_post_ops(po)
    po.append_eltwise(A.eltwise_relu, 0, 0)  # does not reach the attribute
    assert len(a.get_post_ops()) == 1
    got = a.get_post_ops()
    got.append_sum(1.0)  # nor does changing what get_post_ops returned
    assert len(a.get_post_ops()) == 1 and len(a.post_ops_) == 1
    assert a.non_default_parts() == {"post_ops"}
    assert st_of(a.set_post_ops, None) == 2 and st_of(a.set_post_ops, [1]) == 2


def test_sum_data_type_rule():
    a = primitive_attr()
    po = post_ops()
    po.append_sum(1.0, 0, "s8")
    a.set_post_ops(po)
    assert "sum_data_type" in a.non_default_parts(dst_data_type="u8")
    assert "sum_data_type" not in a.non_default_parts(dst_data_type="s8")
    assert not a.has_default_values(skip={"post_ops"}, dst_data_type="u8")
    assert a.has_default_values(skip={"post_ops"}, dst_data_type="s8")


# ---------------------------------------------------------------- RNN qparams
def test_rnn_qparams():
    a = primitive_attr()
    a.set_rnn_data_qparams(2.0, 10.0)
    assert a.get_rnn_data_qparams() == (2.0, 10.0)
    a.set_rnn_weights_qparams(3, [1.5, 2.5, 3.5])
    assert a.get_rnn_weights_qparams() == (3, [1.5, 2.5, 3.5])
    a.set_rnn_weights_projection_qparams(1, [1.5, 2.5])
    assert a.get_rnn_weights_projection_qparams() == (1, [1.5, 2.5])
    assert a.non_default_parts() == {"rnn_data_qparams", "rnn_weights_qparams",
                                     "rnn_weights_projection_qparams"}
    assert st_of(a.set_rnn_weights_qparams, -1, [1.0]) == 2
    assert st_of(a.set_rnn_weights_qparams, 0, []) == 2
    assert st_of(a.set_rnn_weights_qparams, 0, None) == 2
    assert st_of(a.set_rnn_weights_projection_qparams, -1, [1.0]) == 2
    b = primitive_attr()
    b.set_rnn_weights_qparams(3, [1.0, 1.0])  # all scales 1: still default
    assert b.has_default_values()
    b.set_rnn_weights_qparams(0, [RUNTIME_F32, 5.0])
    m, sc = b.get_rnn_weights_qparams()
    assert m == 0 and len(sc) == 1 and attr_mod.is_runtime_f32(sc[0])


def test_dropout():
    a = primitive_attr()
    a.set_dropout()
    assert a.get_dropout()[1] == DT.s32 and "dropout" in a.non_default_parts()
    md = dnnl.memory.desc([2, 3], "u8", "ab")
    a.set_dropout(md, "s64", True)
    assert a.get_dropout() == (md, DT.s64, True, False)
    assert st_of(a.set_dropout, dnnl.memory.desc([2], "f32", "a")) == 2
    assert st_of(a.set_dropout, None, "s8") == 2


# ---------------------------------------------------------------- copy, eq
def full_attr():
    a = primitive_attr()
    a.set_scratchpad_mode(SM.user)
    a.set_fpmath_mode(FM.bf16, True)
    a.set_accumulation_mode(AM.f32)
    a.set_deterministic(True)
    a.set_scales_mask(SRC, 2)
    a.set_zero_points_mask(DST, 0)
    a.set_rounding_mode(DST, RM.stochastic)
    po = post_ops()
    po.append_sum(float("nan"))
    a.set_post_ops(po)
    a.set_rnn_data_qparams(3.0, 1.0)
    return a


def test_copy_is_deep_and_equal():
    a = full_attr()
    for b in (a.copy(), copy.copy(a), copy.deepcopy(a)):
        assert b == a and b is not a
        b.set_scales_mask(SRC, 1)
        assert a.scales[SRC].mask == 2 and b != a
    b = a.copy()
    b.set_post_ops(post_ops())
    assert len(a.get_post_ops()) == 1
    assert primitive_attr() == primitive_attr()
    assert primitive_attr() != 3


@pytest.mark.parametrize("change", [
    lambda a: a.set_scratchpad_mode(SM.library), lambda a: a.set_fpmath_mode(FM.bf16),
    lambda a: a.set_accumulation_mode(AM.s32), lambda a: a.set_deterministic(False),
    lambda a: a.set_scales_mask(SRC, 3), lambda a: a.set_zero_points_mask(SRC, 0),
    lambda a: a.set_rounding_mode(DIFF_SRC, RM.stochastic),
    lambda a: a.set_post_ops(post_ops()), lambda a: a.set_rnn_data_qparams(3.0, 2.0),
    lambda a: a.set_rnn_weights_qparams(0, [2.0])])
def test_equality_sees_every_field(change):
    a, b = full_attr(), full_attr()
    assert a == b
    change(b)
    assert a != b


def test_non_default_parts_full():
    assert full_attr().non_default_parts() == {
        "scales", "zero_points", "post_ops", "rnn_data_qparams", "rounding_mode",
        "accumulation_mode", "fpmath_mode"}
    assert full_attr().has_default_values(skip={
        "scales", "zero_points", "post_ops", "rnn_data_qparams", "rounding_mode",
        "accumulation_mode", "fpmath_mode"})


@given(st.dictionaries(st.sampled_from([SRC, DST, WEI, SRC_1]), st.integers(0, 2 ** 12)),
       st.sampled_from(list(FM)), st.booleans(), st.sampled_from(list(AM)))
def test_hypothesis_round_trip(masks, fm, a2i, am):
    a = primitive_attr()
    for arg, m in masks.items():
        a.set_scales_mask(arg, m)
        if arg != SRC_1:
            a.set_zero_points_mask(arg, m)
    a.set_fpmath_mode(fm, a2i)
    a.set_accumulation_mode(am)
    for arg, m in masks.items():
        assert a.get_scales_mask(arg) == m
        assert a.get_zero_points_mask(arg) == (m if arg != SRC_1 else -2 ** 31)
    assert a.get_fpmath_mode(True) == (fm, a2i) and a.get_accumulation_mode() == am
    assert a.copy() == a
    assert a.has_default_values() == (not masks and not (a2i and fm != FM.strict)
                                      and am in (AM.strict, AM.relaxed, AM.any))


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        primitive_attr().set_scales_mask(BIAS, 0)
    with pytest.raises(dnnl.error):
        primitive_attr().set_scratchpad_mode(3)


def test_repr():
    assert "default" in repr(primitive_attr())
    r = repr(full_attr())
    # oneDNN's verbose spelling (src/common/verbose.cpp), shared with verbose lines
    assert "attr-scratchpad:user" in r and "attr-scales:src0:2:f32" in r
    assert "attr-deterministic:1" in r and r[r.index(" ") + 1:-1] == \
        dnnl.verbose.attr_str(full_attr())
