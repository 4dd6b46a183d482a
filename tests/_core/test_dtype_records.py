"""The data type records (dnnl._core.dtypes.RECORDS) against independent facts.

The records are the one place the package states what a data type is; here
they meet what is known without them: the header's names and values, numpy's
and ml_dtypes' own types, the descriptors' sizes, the tables of the old
literal sets (behaviour unchanged), the numpy reference's own facts
(dnnl/testing/dtypes.py keeps its literals: it is the independent reference,
so it is compared, not derived) and the C tables of the Tempita templates
and kernels, which Cython cannot import.
"""
import ctypes
import os
import pathlib
import re
import sys

import ml_dtypes
import numpy as np
import pytest

import dnnl
from dnnl._core import dtypes as _dtypes
from dnnl._core.enums import C, data_type
from dnnl import _kernels
from dnnl.testing import dtypes as T
from dnnl.testing import reorder as TR

pytestmark = pytest.mark.model

cv = _kernels.load("dnnl.testing.probes.convert")     # the level this CPU runs (ISA cap)

dt = data_type
REC = _dtypes.RECORDS
PKG = os.path.dirname(os.path.abspath(dnnl.__file__))
REORDER = sys.modules["dnnl.primitives.reorder.primitive"]          # the module, not the class
RESAMPLING = sys.modules["dnnl.resampling"]
ids = [r.name for r in REC]


def test_one_record_per_header_type():
    assert [r.code for r in REC] == [c for c in data_type if c not in _dtypes.NOT_TYPES]
    assert _dtypes.NOT_TYPES == {dt.undef, dt.max}
    for r in REC:
        assert C["dnnl_" + r.name] == int(r.code)
        assert _dtypes.BY_CODE[r.code] is r
        assert _dtypes.as_data_type(r.name) is r.code
        for a in r.aliases:
            assert _dtypes.as_data_type(a) is r.code


@pytest.mark.parametrize("r", REC, ids=ids)
def test_kind_bits_and_sign_from_the_name(r):
    """oneDNN's names spell the format: s8 / u4, f32 / bf16, f8_e5m2
    (sign + exponent + mantissa bits), e8m0 (no sign), boolean."""
    name = r.name
    if name == "boolean":
        assert (r.kind, r.bits, r.signed) == ("bool", 8, False)
        return
    m = re.fullmatch(r"([su])(\d+)", name)
    if m:
        assert (r.kind, r.bits, r.signed) == ("int", int(m[2]), m[1] == "s")
        return
    m = re.fullmatch(r"(?:b?f(\d+)_?)?(?:e(\d+)m(\d+))?", name)
    assert m and r.kind == "float"
    if m[2] is not None:
        assert r.bits == r.signed + int(m[2]) + int(m[3])
    if m[1] is not None:
        assert r.bits == int(m[1]) and r.signed


@pytest.mark.parametrize("r", REC, ids=ids)
def test_storage_against_numpy_and_ml_dtypes(r):
    assert (r.numpy is None) != (r.raw is None)          # numpy's own type, or storage
    if r.numpy is not None:
        d = np.dtype(r.numpy)
        assert d.itemsize * 8 == r.bits
        assert d.kind == {"float": "f", "bool": "b", "int": "i" if r.signed else "u"}[r.kind]
    else:
        raw = np.dtype(r.raw)
        assert raw.itemsize == r.size
        # sub-byte integers unpack with their sign; float codes are unsigned
        assert raw.kind == ("i" if r.kind == "int" and r.signed else "u")
    if r.ml_dtypes is not None:
        t = getattr(ml_dtypes, r.ml_dtypes)
        f = ml_dtypes.finfo(t)
        assert r.kind == "float" and f.bits == r.bits and (f.min < 0) == r.signed
        assert np.dtype(t).itemsize == r.size
        assert _dtypes.numpy_dtype(r.code) == np.dtype(t)
    if r.kind == "int" and r.sub_byte:
        i = ml_dtypes.iinfo(r.aliases[0])               # "int4" / "uint4"
        assert i.bits == r.bits and (i.min < 0) == r.signed


@pytest.mark.parametrize("r", REC, ids=ids)
def test_size_against_descriptors(r):
    """8 elements of ``bits`` bits take ``bits`` bytes (the descriptors are
    compared with real oneDNN in tests/conformance/test_memory_desc_oracle.py);
    types a descriptor refuses are exactly those with ``in_md`` false."""
    assert r.size == max(r.bits // 8, 1) == _dtypes.size(r.code)
    if r.in_md:
        assert dnnl.memory.desc([8], r.code, "a").get_size() == r.bits
    else:
        with pytest.raises(dnnl.error):
            dnnl.memory.desc([8], r.code, "a")


def test_derived_tables_as_the_old_literals():
    """The tables the records replace, as they were written by hand."""
    assert _dtypes.SIZE == {
        dt.f16: 2, dt.bf16: 2, dt.f32: 4, dt.s32: 4, dt.s8: 1, dt.u8: 1, dt.f64: 8,
        dt.boolean: 1, dt.f8_e5m2: 1, dt.f8_e4m3: 1, dt.s4: 1, dt.u4: 1, dt.e8m0: 1,
        dt.f4_e2m1: 1, dt.f4_e3m0: 1, dt.s64: 8}
    assert _dtypes.MD_TYPES == {dt.f4_e2m1, dt.e8m0, dt.f8_e5m2, dt.f8_e4m3, dt.f16,
                                dt.bf16, dt.f32, dt.f64, dt.s64, dt.s32, dt.s8, dt.u8,
                                dt.s4, dt.u4}
    assert _dtypes.SUB_BYTE == {dt.s4, dt.u4, dt.f4_e2m1, dt.f4_e3m0}
    assert _dtypes.FLOATING == {dt.f16, dt.bf16, dt.f32, dt.f64, dt.f8_e5m2, dt.f8_e4m3,
                                dt.e8m0, dt.f4_e2m1, dt.f4_e3m0}
    assert _dtypes._NUMPY == {dt.f16: np.float16, dt.f32: np.float32, dt.f64: np.float64,
                              dt.s32: np.int32, dt.s8: np.int8, dt.u8: np.uint8,
                              dt.s64: np.int64, dt.boolean: np.bool_}
    assert _dtypes._ML_DTYPES == {dt.bf16: "bfloat16", dt.f8_e5m2: "float8_e5m2",
                                  dt.f8_e4m3: "float8_e4m3fn", dt.e8m0: "float8_e8m0fnu",
                                  dt.f4_e2m1: "float4_e2m1fn"}
    assert _dtypes._RAW == {dt.bf16: np.uint16, dt.f8_e5m2: np.uint8, dt.f8_e4m3: np.uint8,
                            dt.e8m0: np.uint8, dt.f4_e2m1: np.uint8, dt.f4_e3m0: np.uint8,
                            dt.s4: np.int8, dt.u4: np.uint8}
    assert _dtypes._ALIASES == {
        "float32": "f32", "float": "f32", "float16": "f16", "half": "f16",
        "float64": "f64", "double": "f64", "bfloat16": "bf16", "int32": "s32",
        "int8": "s8", "uint8": "u8", "int64": "s64", "bool": "boolean", "int4": "s4",
        "uint4": "u4", "float8_e5m2": "f8_e5m2", "float8_e4m3fn": "f8_e4m3",
        "float8_e4m3": "f8_e4m3", "float8_e8m0fnu": "e8m0", "float4_e2m1fn": "f4_e2m1"}
    assert _dtypes.as_data_type("undef") is dt.undef     # a member name, no alias needed
    integral = {dt.s64, dt.s32, dt.s8, dt.u8, dt.s4, dt.u4}
    assert _dtypes.INTEGRAL == REORDER.INTEGRAL == sys.modules["dnnl.arrays"]._INTEGRAL \
        == integral
    assert REORDER.INT4 == {dt.s4, dt.u4, dt.f4_e2m1}
    assert sys.modules["dnnl.attr"]._ZP_DTS == {dt.s32, dt.s8, dt.u8, dt.s4, dt.u4}
    from dnnl.benchdnn import reorder as bench_reorder, resampling as bench_resampling
    assert bench_reorder.INTEGRAL == {"s32", "s8", "u8", "s4", "u4", "s64"}
    assert bench_resampling.INTEGRAL == {"s32", "s8", "u8"}
    for s in (_dtypes.MD_TYPES, _dtypes.SUB_BYTE, _dtypes.FLOATING, _dtypes.INTEGRAL,
              REORDER.INTEGRAL, REORDER.INT4):
        assert type(s) is frozenset


def test_the_numpy_reference_agrees():
    """dnnl/testing/dtypes.py and testing/reorder.py state their own facts;
    they must be the records' facts."""
    for name in ("F16", "BF16", "F32", "S32", "S8", "U8", "F64", "S4", "U4", "E8M0",
                 "F4_E2M1", "F4_E3M0", "S64"):
        assert getattr(T, name) == int(data_type[name.lower()])
    assert (T.E5M2, T.E4M3) == (dt.f8_e5m2, dt.f8_e4m3)
    assert T.NAMES == {int(r.code): r.name for r in REC if r.kind != "bool"}
    assert set(T.SUB_BYTE) == _dtypes.SUB_BYTE
    assert set(T.ALL) == _dtypes.MD_TYPES and len(T.ALL) == len(set(T.ALL))
    for code, t in T._CODE_DTYPE.items():
        assert np.dtype(t).itemsize == _dtypes.size(code)
    assert set(T.INT_BOUNDS) == _dtypes.INTEGRAL
    for code, (lo, hi) in T.INT_BOUNDS.items():
        r = _dtypes.BY_CODE[code]
        assert (lo < 0) == r.signed
        if r.bits < 32:              # exact; s32 / s64 bounds are f32 values
            assert (lo, hi) == ((-2 ** (r.bits - 1), 2 ** (r.bits - 1) - 1) if r.signed
                                else (0, 2 ** r.bits - 1))
    for code, (e, m, _) in T._FMT.items():
        assert 1 + e + m == _dtypes.BY_CODE[code].bits
    assert set(TR.INTEGRAL) == _dtypes.INTEGRAL
    assert set(TR.INTEGRAL_NAMES) == {t.name for t in _dtypes.INTEGRAL}
    assert set(TR.SUB_BYTE_NAMES) == {t.name for t in REORDER.INT4}


# ------------------------------------------------------ the C side
def _py_blocks(fn):
    """The names the ``{{py: ...}}`` blocks of a Tempita template define."""
    text = pathlib.Path(PKG, fn).read_text()
    ns = {}
    for block in re.findall(r"^\{\{py:\n(.*?)^\}\}", text, re.S | re.M):
        exec(block, ns)
    return ns


def _csize(ctype):
    """sizeof of a C scalar type: float, double, [u]intN_t."""
    return ctypes.sizeof(getattr(ctypes, "c_" + ctype.replace("_t", "")))


def _signed(ctype):
    return ctype in ("float", "double") or not ctype.startswith("u")


def _code(c_name):
    return data_type(C[c_name])


def test_cvt_ladder_is_the_records():
    """cvt.pxd.in's LADDER converts every float and integer type (f32 is the
    pivot); its nibble rows are the sub-byte types; its loads and stores move
    the record's size."""
    ns = _py_blocks("_kernels/cvt.pxd.in")
    codes = [_code(code) for code, _, _ in ns["LADDER"]]
    assert len(codes) == len(set(codes))
    assert {dt.f32, *codes} == _dtypes.FLOATING | _dtypes.INTEGRAL
    assert {_code(c) for c, load, _ in ns["LADDER"] if "get_nibble" in load} \
        == _dtypes.SUB_BYTE
    ldst = {sfx: (ctype, size) for sfx, ctype, size in ns["LDST"]}
    for sfx, (ctype, size) in ldst.items():
        assert _csize(ctype) == size
        if sfx in data_type.__members__:
            assert _dtypes.size(sfx) == size
    for code, load, store in ns["LADDER"]:
        r = _dtypes.BY_CODE[_code(code)]
        for sfx in re.findall(r"\b(?:ld|st)_(\w+)\(", load + store):
            assert ldst[sfx][1] == r.size, (code, sfx)


def test_cvt_dispatch_runs_for_exactly_the_records():
    """The compiled dt_supported / dt_sub_byte (written from LADDER)."""
    for c in data_type:
        r = _dtypes.BY_CODE.get(c)
        if r is None or r.kind == "bool":
            with pytest.raises(ValueError):
                cv.nbytes(int(c), 1)
            continue
        assert len(cv.to_f32(bytes(8), int(c))) == (16 if r.sub_byte else 8 // r.size)


def test_reorder_template_tables():
    """The reorder kernel (kernel.pyx.in): a bit copy for every whole-byte size; the fast loads
    and stores read the record's size with its signedness."""
    ns = _py_blocks("primitives/reorder/kernel.pyx.in")
    assert {size for _, size, _ in ns["COPY"]} \
        == {r.size for r in REC if not r.sub_byte}
    for _, size, ctype in ns["COPY"]:
        assert _csize(ctype) == size
    rows = [(code, (re.findall(r"<const (\w+)\*>", expr) or ["uint8_t"])[0])
            for _, code, expr in ns["LOAD"]]
    rows += [(code, ctype) for _, code, ctype, _ in ns["STORE"]]
    for code, ctype in rows:
        r = _dtypes.BY_CODE[_code(code)]
        assert _csize(ctype) == r.size, code
        if r.kind == "int":
            assert _signed(ctype) == r.signed, code
        assert r.code in REORDER.SUPPORTED, code


def test_resampling_nonfinite_scan_covers_its_float_types():
    """The resampling kernel's _has_nonfinite: every float type resampling takes is
    scanned, with that format's exponent field."""
    text = pathlib.Path(PKG, "primitives", "resampling", "kernel.pyx").read_text()
    body = text[text.index("cdef bint _has_nonfinite"):]
    body = body[:body.index("\n\n\n")]
    scanned = {}
    for name, call in re.findall(r"if dt == (dnnl_\w+):\n\s+return (rs_nonfinite\w+\(.*?\))",
                                 body):
        scanned[_code(name)] = call
    assert set(scanned) == RESAMPLING.SUPPORTED & _dtypes.FLOATING
    for code, call in scanned.items():
        r = _dtypes.BY_CODE[code]
        assert "lo * %d," % r.size in call
        f = np.finfo(r.numpy) if r.numpy is not None else ml_dtypes.finfo(
            getattr(ml_dtypes, r.ml_dtypes))
        if r.bits == 16:
            exp = ((1 << f.nexp) - 1) << f.nmant
            assert call.endswith("0x%04x, 0x%04x)" % (exp, 1 << f.nmant)), call
        else:
            assert call.startswith("rs_nonfinite%d(" % r.bits)
