"""dnnl.resample against OpenCV's cv2.resize (skipped without
opencv-python-headless): INTER_CUBIC is mode="cubic" (A = -0.75, half-pixel
centres, edges replicated), INTER_AREA when shrinking is mode="box"; within
1e-4 in f32, on random shapes, one channel (H x W) and three (H x W x C)."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import dnnl

pytestmark = pytest.mark.interop

cv2 = pytest.importorskip("cv2")


@st.composite
def images(draw, shrink):
    h, w = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    if shrink:
        oh, ow = draw(st.integers(1, h)), draw(st.integers(1, w))
    else:
        oh, ow = draw(st.integers(1, 60)), draw(st.integers(1, 60))
    c = draw(st.sampled_from([None, 3]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 16)))
    x = rng.standard_normal((h, w) if c is None else (h, w, c)).astype(np.float32)
    return x, (oh, ow)


def ours(x, size, mode):
    if x.ndim == 2:
        return dnnl.resample(x[None, None], size, mode=mode)[0, 0]
    return dnnl.resample(x[None], size, mode=mode, layout="nhwc")[0]


@given(images(shrink=False))
def test_inter_cubic_is_cubic(p):
    x, (oh, ow) = p
    ref = cv2.resize(x, (ow, oh), interpolation=cv2.INTER_CUBIC)
    np.testing.assert_allclose(ours(x, (oh, ow), "cubic"), ref, rtol=1e-4, atol=1e-4)


@given(images(shrink=True))
def test_inter_area_shrinking_is_box(p):
    x, (oh, ow) = p
    ref = cv2.resize(x, (ow, oh), interpolation=cv2.INTER_AREA)
    np.testing.assert_allclose(ours(x, (oh, ow), "box"), ref, rtol=1e-4, atol=1e-4)
