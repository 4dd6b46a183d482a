# cython: language_level=3
"""Raw CPU identification for the ISA dispatch (``dnnl._isa`` decodes it).

Built for the baseline of the platform, like every module that runs before
the kernel level is chosen. On non-x86 machines every query answers zero.
"""

cdef extern from *:
    """
    #if defined(__x86_64__) || defined(__i386__)
    #include <cpuid.h>
    static void dnnl_py_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
        r[0] = r[1] = r[2] = r[3] = 0;
        if (__get_cpuid_max(leaf & 0x80000000u, 0) < leaf) return;
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    }
    /* XCR0: the register states the OS saves (only valid when OSXSAVE). */
    static unsigned long long dnnl_py_xgetbv0(void) {
        unsigned r[4];
        dnnl_py_cpuid(1, 0, r);
        if (!(r[2] & (1u << 27))) return 0;
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        return ((unsigned long long)hi << 32) | lo;
    }
    #else
    static void dnnl_py_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
        (void)leaf; (void)sub; r[0] = r[1] = r[2] = r[3] = 0;
    }
    static unsigned long long dnnl_py_xgetbv0(void) { return 0; }
    #endif

    #if defined(__linux__) && defined(__x86_64__)
    #include <unistd.h>
    #include <sys/syscall.h>
    /* Linux hands out the AMX tile-data state only on request. */
    static int dnnl_py_amx_permitted(void) {
        unsigned long mask = 0;
        if (syscall(SYS_arch_prctl, 0x1022 /* GET_XCOMP_PERM */, &mask) != 0) return 0;
        if (mask & (1ul << 18)) return 1;
        if (syscall(SYS_arch_prctl, 0x1023 /* REQ_XCOMP_PERM */, 18) != 0) return 0;
        if (syscall(SYS_arch_prctl, 0x1022, &mask) != 0) return 0;
        return (mask & (1ul << 18)) != 0;
    }
    #else
    static int dnnl_py_amx_permitted(void) { return 0; }
    #endif
    """
    void dnnl_py_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) nogil
    unsigned long long dnnl_py_xgetbv0() nogil
    int dnnl_py_amx_permitted() nogil


def cpuid(unsigned leaf, unsigned sub=0):
    """``(eax, ebx, ecx, edx)`` of CPUID ``leaf``/``sub`` (zeros if absent)."""
    cdef unsigned r[4]
    dnnl_py_cpuid(leaf, sub, r)
    return r[0], r[1], r[2], r[3]


def xgetbv0():
    """XCR0, or 0 when the OS does not enable XSAVE."""
    return dnnl_py_xgetbv0()


def amx_permitted():
    """True once Linux lets this process use the AMX tile data."""
    return dnnl_py_amx_permitted() != 0
