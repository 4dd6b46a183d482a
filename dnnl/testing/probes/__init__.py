"""Compiled probes of the shared kernel toolkit (dnnl/_kernels/*.pxd) for the
tests: the conversion ladder and the post-op formulas, callable from Python,
built at every ISA level as the kernels are (load them with
``dnnl._kernels.load("dnnl.testing.probes.convert")``)."""
