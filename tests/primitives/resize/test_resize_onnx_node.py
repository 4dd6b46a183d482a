"""ONNX's 39 Resize backend node tests (onnx 1.22.0's wheel, the last that
ships them): each model's attributes and inputs passed to ``dnnl.resample``
as they are, checked with the tolerance of ONNX's own runner; the numpy
reference (dnnl.testing.resize) is held to the same data."""
import glob
import os

import numpy as np
import pytest

import dnnl
from dnnl.testing import resize as R

pytestmark = pytest.mark.interop

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

DATA = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
CASES = sorted(os.path.basename(d) for d in glob.glob(os.path.join(DATA, "test_resize_*")))
if not CASES:
    pytest.skip("onnx %s ships no backend node test data (1.22.0 is the last that does)"
                % onnx.__version__, allow_module_level=True)


def _tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def load(name):
    """``(node attributes, {input name: array}, expected output)``."""
    d = os.path.join(DATA, name)
    node = onnx.load(os.path.join(d, "model.onnx")).graph.node[0]
    assert node.op_type == "Resize"
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    attrs = {k: v.decode() if isinstance(v, bytes) else v for k, v in attrs.items()}
    inputs = sorted(glob.glob(os.path.join(d, "test_data_set_0", "input_*.pb")))
    names = [n for n in node.input if n]
    feed = dict(zip(names, (_tensor(p) for p in inputs)))
    return attrs, feed, _tensor(os.path.join(d, "test_data_set_0", "output_0.pb"))


def keywords(attrs, feed):
    """dnnl.resample's keyword arguments for a Resize node: its attributes
    under their own names, its sizes / scales / roi for the spatial dims (the
    node's ``axes`` put in the array's order; N and C are never resized)."""
    attrs = dict(attrs)
    x = feed["X"]
    nd = x.ndim
    axes = [a % nd for a in attrs.pop("axes", range(nd))]
    kw = dict(attrs)
    kw["mode"] = attrs.get("mode", "nearest")
    kw["nearest_mode"] = attrs.get("nearest_mode", "round_prefer_floor")   # ONNX's default
    for flag in ("antialias", "exclude_outside"):
        if flag in kw:
            kw[flag] = bool(kw[flag])

    def spread(values, fill):
        full = [fill(d) for d in range(nd)]
        for v, d in zip(values, axes):
            full[d] = v
        return full
    if "scales" in feed and feed["scales"].size:
        s = spread([float(v) for v in feed["scales"]], lambda d: 1.0)
        assert s[:2] == [1.0, 1.0]
        kw["scales"] = s[2:]
    if "sizes" in feed and feed["sizes"].size:
        s = spread([int(v) for v in feed["sizes"]], lambda d: x.shape[d])
        assert s[:2] == list(x.shape[:2])
        kw["size"] = s[2:]
    if "roi" in feed and feed["roi"].size:
        r, n = [float(v) for v in feed["roi"]], len(axes)
        starts, ends = spread(r[:n], lambda d: 0.0), spread(r[n:], lambda d: 1.0)
        assert starts[:2] == [0.0, 0.0] and ends[:2] == [1.0, 1.0]
        kw["roi"] = starts[2:] + ends[2:]
    return kw


def test_the_wheel_ships_the_39_resize_node_tests():
    assert len(CASES) == 39, CASES


@pytest.mark.parametrize("name", CASES)
def test_onnx_node(name):
    attrs, feed, expected = load(name)
    got = dnnl.resample(feed["X"], **keywords(attrs, feed))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-7)


@pytest.mark.parametrize("name", CASES)
def test_onnx_node_reference(name):
    attrs, feed, expected = load(name)
    kw = keywords(attrs, feed)
    size, scales = kw.pop("size", None), kw.pop("scales", None)
    kw.setdefault("coordinate_transformation_mode", "half_pixel")
    np.testing.assert_allclose(R.forward(feed["X"], size, scales, **kw), expected,
                               rtol=1e-3, atol=1e-7)
