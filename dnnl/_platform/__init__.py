"""What the machine offers: the CPU's ISA (CPUID, oneDNN's ISA cap and
hints, the kernel level to load) and the thread pool of the parallel
kernels."""
