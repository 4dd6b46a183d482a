"""A typed user script: the object API and the one-line functions, checked by
``mypy --strict examples/typed_usage.py`` (tests/test_typing.py runs it).

Run: python examples/typed_usage.py
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import dnnl


def blocked_round_trip(x: npt.NDArray[np.float32]) -> bool:
    """numpy -> nChw16c -> numpy with the object API."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    md: dnnl.memory.desc = dnnl.memory.desc(list(x.shape), dnnl.memory.data_type.f32,
                                            dnnl.memory.format_tag.nChw16c)
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), "f32", "nchw"), eng, x)
    dst = dnnl.memory(md, eng)
    dnnl.reorder(src, dst).execute(strm, {dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst})
    padded: list[int] = md.get_padded_dims()
    assert padded[1] % 16 == 0
    back: npt.NDArray[np.float32] = dst.to_numpy()
    return bool((back == x).all())


def per_channel_s8(x: npt.NDArray[np.float32]) -> dnnl.memory:
    """Quantize to s8 with one scale per channel through a reorder attribute."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    attr = dnnl.primitive_attr()
    attr.set_scales_mask(dnnl.DNNL_ARG_DST, 1 << 1)
    src = dnnl.memory(dnnl.memory.desc(list(x.shape), dnnl.data_type.f32,
                                       dnnl.format_tag.nchw), eng, x)
    dst = dnnl.memory(dnnl.memory.desc(list(x.shape), dnnl.data_type.s8,
                                       dnnl.format_tag.nhwc), eng)
    scales = np.abs(x).max(axis=(0, 2, 3)).astype(np.float32) / 127
    scale_mem = dnnl.memory(dnnl.memory.desc([x.shape[1]], "f32", "a"), eng, scales)
    pd = dnnl.reorder.primitive_desc(src, dst, attr)
    dnnl.reorder(pd).execute(dnnl.stream(eng), {
        dnnl.DNNL_ARG_FROM: src, dnnl.DNNL_ARG_TO: dst,
        dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_DST: scale_mem})
    return dst


def upsample(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """2x bilinear upsampling with the oneDNN-shaped resampling primitive."""
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    src_md = dnnl.memory.desc(list(x.shape), "f32", "nchw")
    pd = dnnl.resampling_forward.primitive_desc(
        eng, dnnl.prop_kind.forward_inference, dnnl.algorithm.resampling_linear,
        [2.0, 2.0], src_md)
    dst = dnnl.memory(pd.dst_desc(), eng)
    dnnl.resampling_forward(pd).execute(dnnl.stream(eng), {
        dnnl.DNNL_ARG_SRC: dnnl.memory(src_md, eng, x), dnnl.DNNL_ARG_DST: dst})
    out: npt.NDArray[np.float32] = dst.to_numpy()
    return out


def one_liners(x: npt.NDArray[np.float32]) -> None:
    """The same tasks with the Python-first functions."""
    blocked: dnnl.memory = dnnl.convert(x, "nChw16c")
    phys: npt.NDArray[np.float32] = blocked.array
    assert phys.shape[-1] == 16
    scale = np.abs(x).max(axis=(0, 2, 3)) / 127
    q = dnnl.quantize(x, scale, axis=1)
    x2 = dnnl.dequantize(q, scale, axis=1)
    assert x2.shape == x.shape
    big = dnnl.resample(x, (2 * x.shape[2], 2 * x.shape[3]), mode="linear")
    small = dnnl.resample(big, factors=0.5, mode="nearest")
    grad = dnnl.resample_backward(np.ones_like(big), x.shape[2:], mode="linear")
    dnnl.set_primitive_cache_capacity(dnnl.get_primitive_cache_capacity())
    assert small.shape == grad.shape == x.shape
    img = np.ascontiguousarray(x[0].transpose(1, 2, 0))        # one H x W x C image
    dst = np.empty((6, 8, x.shape[1]), np.float32)
    written: npt.NDArray[np.float32] = dnnl.resample(img, (6, 8), layout="hwc", out=dst)
    assert written is dst
    assert dnnl.resample(img, (6, 8), layout="hwc", dtype="u8").dtype == np.uint8
    plain = dnnl.memory.from_array(x)
    view = np.from_dlpack(plain)
    assert view.shape == x.shape


def main() -> None:
    rng = np.random.default_rng(0)
    x: npt.NDArray[np.float32] = rng.standard_normal((2, 17, 3, 4), dtype=np.float32)
    print("nChw16c round trip exact:", blocked_round_trip(x))
    print("per-channel s8:", per_channel_s8(x).get_desc())
    print("upsampled:", upsample(x).shape)
    try:
        dnnl.memory.desc([2, -1], "f32", "ab")
    except dnnl.error as e:
        print("bad dims:", e.status.name)
    if hasattr(dnnl, "convert"):     # the one-line functions
        one_liners(x)
        print("one-line functions: ok")


if __name__ == "__main__":
    main()
