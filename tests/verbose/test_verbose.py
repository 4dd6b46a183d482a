"""Verbose mode: oneDNN 3.13's line format, levels, environment, logger.

The expected strings were checked field by field against real oneDNN 3.13.2
(ONEDNN_VERBOSE=2) for the same primitives; only the implementation name and
the time differ (ours say which kernel path ran).
"""
import io
import logging
import os

import numpy as np
import pytest

import dnnl
from dnnl import verbose
from dnnl.testing import interpreter

pytestmark = pytest.mark.model

ENG = dnnl.engine(dnnl.engine.kind.cpu, 0)
D = [2, 17, 3, 4]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def lines():
    """Collect verbose lines; restore level and output afterwards."""
    got = []
    old_out = verbose.set_output(got.append)
    old_level = verbose.get_verbose()
    verbose.reset_header()
    yield got
    verbose.set_verbose(old_level)
    verbose.set_output(old_out)


def _reorder(smd, dmd, attr=None, extra=None):
    s, d = dnnl.memory(smd, ENG), dnnl.memory(dmd, ENG)
    p = dnnl.reorder(s, d, attr) if attr is not None else dnnl.reorder(s, d)
    args = {dnnl.DNNL_ARG_FROM: s, dnnl.DNNL_ARG_TO: d}
    args.update(extra or {})
    p.execute(dnnl.stream(ENG), args)


def _body(line):
    """The line without the trailing time field."""
    head, _, t = line.rpartition(",")
    float(t)
    return head


def _values(v, dt):
    m = dnnl.memory(dnnl.memory.desc([len(v)], dt, "a"), ENG)
    m.from_numpy(np.array(v))
    return m


def test_header_then_exec_line(lines):
    verbose.set_verbose(1)
    _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "s8", "aBcd16b"))
    assert lines[0].startswith("onednn_verbose,v1,info,")
    assert lines[4] == ("onednn_verbose,v1,primitive,info,template:operation,engine,"
                        "primitive,implementation,prop_kind,memory_descriptors,"
                        "attributes,auxiliary,problem_desc,exec_time")
    assert len(lines) == 6
    assert _body(lines[5]) == (
        "onednn_verbose,v1,primitive,exec,cpu,reorder,cython:convert,undef,"
        "src:f32::blocked:abcd::f0 dst:s8:p:blocked:aBcd16b::f0,,,2x17x3x4")


def test_level_2_adds_creation_lines(lines):
    verbose.set_verbose(2)
    _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "f32", "acdb"))
    body = [_body(x) for x in lines if ",primitive,create" in x or ",primitive,exec" in x]
    assert body == [
        "onednn_verbose,v1,primitive,create:cache_miss,cpu,reorder,cython:tile,undef,"
        "src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0,,,2x17x3x4",
        "onednn_verbose,v1,primitive,exec,cpu,reorder,cython:tile,undef,"
        "src:f32::blocked:abcd::f0 dst:f32::blocked:acdb::f0,,,2x17x3x4"]


def test_off_prints_nothing(lines):
    verbose.set_verbose(0)
    _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "f32", "abcd"))
    assert lines == []


def test_attributes_as_onednn_prints_them(lines):
    verbose.set_verbose(1)
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_SRC, 0)
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 2)
    attr.set_zero_points_mask(dnnl.DNNL_ARG_DST, 0)
    po = dnnl.post_ops()
    po.append_sum(0.5)
    attr.set_post_ops(po)
    _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "s8", "acdb"), attr, {
        dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_SRC: _values([2.0], "f32"),
        dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_DST: _values([1.0] * 17, "f32"),
        dnnl.DNNL_ARG_ATTR_ZERO_POINTS | dnnl.DNNL_ARG_DST: _values([3], "s32")})
    assert _body(lines[-1]).endswith(
        ",src:f32::blocked:abcd::f0 dst:s8::blocked:acdb::f0,"
        "attr-scales:src0:0:f32+dst:2:f32 attr-zero-points:dst:0:s32 "
        "attr-post-ops:sum:0.5,,2x17x3x4")


def test_bit_copy_strides_and_offset0(lines):
    verbose.set_verbose(1)
    _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "f32", "abcd"))
    assert ",reorder,cython:copy," in lines[-1]
    _reorder(dnnl.memory.desc(D, "f32", [1000, 50, 12, 1]), dnnl.memory.desc(D, "bf16", "abcd"))
    assert "src:f32::blocked:abcd:1000x50x12x1:f0 dst:bf16::blocked:abcd::f0" in lines[-1]
    sub = dnnl.memory.desc([2, 32, 3, 4], "f32", "abcd").submemory_desc(D, [0, 2, 0, 0])
    _reorder(sub, dnnl.memory.desc(D, "f32", "acdb"))
    assert "src:f32:0:blocked:abcd:384x12x4x1:f0 dst:f32::blocked:acdb::f0" in lines[-1]


def test_runtime_dims(lines):
    verbose.set_verbose(2)
    R = dnnl.DNNL_RUNTIME_DIM_VAL
    pd = dnnl.reorder.primitive_desc(ENG, dnnl.memory.desc([R] * 4, "f32", "abcd"),
                                     ENG, dnnl.memory.desc([R] * 4, "s8", "aBcd16b"))
    prim = dnnl.reorder(pd)
    s = dnnl.memory(dnnl.memory.desc(D, "f32", "abcd"), ENG)
    d = dnnl.memory(dnnl.memory.desc(D, "s8", "aBcd16b"), ENG)
    prim.execute(dnnl.stream(ENG), s, d)
    assert _body(lines[-2]).endswith(
        "src:f32::blocked:*::f0 dst:s8::blocked:*::f0,,runtime-dim-mask:15,*x*x*x*")
    assert _body(lines[-1]).endswith(
        "src:f32::blocked:abcd::f0 dst:s8:p:blocked:aBcd16b::f0,,runtime-dim-mask:15,"
        "2x17x3x4")


def test_resampling_line(lines):
    verbose.set_verbose(1)
    src_md = dnnl.memory.desc([2, 16, 5, 10], "f32", "nchw")
    pd = dnnl.resampling_forward.primitive_desc(
        ENG, dnnl.prop_kind.forward_training, dnnl.algorithm.resampling_linear, src_md,
        dnnl.memory.desc([2, 16, 3, 11], "f32", "any"))
    s, d = dnnl.memory(pd.src_desc(), ENG), dnnl.memory(pd.dst_desc(), ENG)
    dnnl.resampling_forward(pd).execute(dnnl.stream(ENG),
                                        {dnnl.DNNL_ARG_SRC: s, dnnl.DNNL_ARG_DST: d})
    f = _body(lines[-1]).split(",")
    # the implementation field says which kernel ran: nchw walks width rows
    assert f[3:8] == ["exec", "cpu", "resampling", "cython:rows", "forward_training"]
    assert pd.impl_info_str() == "ref:any"
    assert f[8].startswith("src:f32::blocked:abcd::f0 dst:f32:")
    assert f[8].endswith(":blocked:abcd::f0")
    assert f[9:] == ["", "alg:resampling_linear", "mb2ic16_ih5oh3_iw10ow11"]


def test_levels_and_strings():
    old = verbose.get_verbose()
    try:
        assert verbose.set_verbose("profile_create") == old
        assert (verbose.create_on, verbose.exec_on) == (True, False)
        verbose.set_verbose("all")
        assert verbose.get_verbose() == 2
        for bad in (3, -1, "loud"):
            with pytest.raises(dnnl.error):
                verbose.set_verbose(bad)
    finally:
        verbose.set_verbose(old)


def test_logger_receives_lines():
    log = logging.getLogger("dnnl.verbose")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    old = verbose.set_verbose(1)
    try:
        _reorder(dnnl.memory.desc(D, "f32", "abcd"), dnnl.memory.desc(D, "f32", "abcd"))
    finally:
        verbose.set_verbose(old)
        log.removeHandler(handler)
    assert "onednn_verbose,v1,primitive,exec,cpu,reorder,cython:copy" in stream.getvalue()


@pytest.mark.parametrize("var", ["ONEDNN_VERBOSE", "DNNL_VERBOSE"])
def test_environment_variable(var):
    env = {k: v for k, v in os.environ.items() if k not in ("ONEDNN_VERBOSE", "DNNL_VERBOSE")}
    env[var] = "1"
    code = ("import dnnl\n"
            "e = dnnl.engine(dnnl.engine.kind.cpu, 0)\n"
            "m = dnnl.memory(dnnl.memory.desc([2, 3], 'f32', 'ab'), e)\n"
            "n = dnnl.memory(dnnl.memory.desc([2, 3], 'f32', 'ba'), e)\n"
            "dnnl.reorder(m, n).execute(dnnl.stream(e), m, n)\n")
    out = interpreter.run(["-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout
    assert ",primitive,exec,cpu,reorder," in out
    assert "create:" not in out
