"""Quickstart: oneDNN memory descriptors and layouts from Python.

Run: python examples/quickstart.py
"""
import numpy as np

import dnnl

eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
strm = dnnl.stream(eng)
dt, tag = dnnl.memory.data_type, dnnl.memory.format_tag

# A 2x17x3x4 activation tensor in three layouts.
dims = [2, 17, 3, 4]
for name in ("nchw", "nhwc", "nChw8c"):
    md = dnnl.memory.desc(dims, dt.f32, tag[name])
    print("%-8s %r" % (name, md))
    print("         strides %s, %d bytes" % (md.get_strides(), md.get_size()))

# Put a logical tensor into the blocked layout and look at the bytes.
x = np.arange(np.prod(dims), dtype=np.float32).reshape(dims)
blocked = dnnl.memory(dnnl.memory.desc(dims, dt.f32, tag.nChw8c), eng)
blocked.from_numpy(x)
phys = blocked.map_data()
print("\nnChw8c physical buffer: %d floats for %d logical elements" % (phys.size, x.size))
print("first block (n=0, C-block 0, h=0, w=0, c=0..7):", phys[:8])
print("padding of the last C-block is zero:",
      bool((phys.reshape(2, 3, 3, 4, 8)[:, 2, :, :, 1:] == 0).all()))
print("logical round trip exact:", bool((blocked.to_numpy() == x).all()))

# Sub-memory: channels 8..15 of the blocked tensor, without copying.
sub = blocked.get_desc().submemory_desc([2, 8, 3, 4], [0, 8, 0, 0])
view = dnnl.memory(sub, eng, blocked.get_data_handle())
print("\nsub-memory %r" % sub)
print("matches x[:, 8:16]:", bool((view.to_numpy() == x[:, 8:16]).all()))

# Reorder: plain to blocked, and f32 quantized to s8 with one scale per channel.
strm = dnnl.stream(eng)
plain = dnnl.memory(dnnl.memory.desc(dims, dt.f32, tag.nchw), eng)
plain.from_numpy(x)
reordered = dnnl.memory(dnnl.memory.desc(dims, dt.f32, tag.nChw8c), eng)
dnnl.reorder(plain, reordered).execute(strm, plain, reordered)
print("\nreorder nchw -> nChw8c: same bytes as the hand-filled blocked buffer:",
      bool((reordered.map_data() == blocked.map_data()).all()))

attr = dnnl.primitive_attr()
attr.set_scales_mask(dnnl.DNNL_ARG_DST, 2)          # mask 2: per channel (dim 1)
scales = np.linspace(0.5, 4.0, dims[1]).astype(np.float32)
q = dnnl.memory(dnnl.memory.desc(dims, dt.s8, tag.nhwc), eng)
dnnl.reorder(plain, q, attr).execute(strm, {
    dnnl.DNNL_ARG_FROM: plain, dnnl.DNNL_ARG_TO: q,
    dnnl.DNNL_ARG_ATTR_SCALES | dnnl.DNNL_ARG_TO: dnnl.memory(
        dnnl.memory.desc([dims[1]], dt.f32, tag.a), eng, scales)})
print("f32 -> s8 nhwc, dst = saturate(round(x / scale[c])):")
print("  x[0, :4, 0, 0] =", x[0, :4, 0, 0], "scales", scales[:4])
print("  q[0, :4, 0, 0] =", q.to_numpy()[0, :4, 0, 0])
print("  x[1, 16, 2, 3] / scale = %.2f rounds to %d" % (
    x[1, 16, 2, 3] / scales[16], q.to_numpy()[1, 16, 2, 3]))
print("  x[1, 0, 2, 3] / scale = %.1f saturates to %d" % (
    x[1, 0, 2, 3] / scales[0], q.to_numpy()[1, 0, 2, 3]))
