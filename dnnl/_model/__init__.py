"""oneDNN's memory model: format tags, memory descriptors and their
offsets, sparse and host-scalar descriptors, memories and their handles, the
engine and stream, and the arrays users hold (numpy, DLPack) at the edge."""
