"""What the machine offers: the CPU's ISA (CPUID, oneDNN's ISA cap and
hints, the kernel level to load), the thread pool of the parallel
kernels, and the cache size from which kernels stream their stores."""
