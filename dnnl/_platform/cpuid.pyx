# cython: language_level=3
"""Raw CPU identification for the ISA dispatch (``dnnl._platform.isa`` decodes it).

Built for the baseline of the platform, like every module that runs before
the kernel level is chosen. ``ARCH`` is the architecture this module was
compiled for; the x86 queries answer zero elsewhere, the AArch64 ones
(Linux's HWCAP words and the SVE vector length, what Xbyak_aarch64 reads for
oneDNN) answer zero off Linux on AArch64.
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

    #if defined(__x86_64__) || defined(__i386__)
    #define DNNL_PY_ARCH "x86_64"
    #elif defined(__aarch64__)
    #define DNNL_PY_ARCH "aarch64"
    #else
    #define DNNL_PY_ARCH "other"
    #endif

    #if defined(__linux__) && defined(__aarch64__)
    #include <sys/auxv.h>
    #include <sys/prctl.h>
    static unsigned long long dnnl_py_hwcap(int second) {
    #if defined(AT_HWCAP2)
        if (second) return getauxval(AT_HWCAP2);
    #else
        if (second) return 0;
    #endif
        return getauxval(AT_HWCAP);
    }
    /* PR_SVE_GET_VL (51): the vector length in bytes in the low 16 bits,
       flags above; negative without SVE. */
    static int dnnl_py_sve_vl(void) {
        int r = prctl(51, 0, 0, 0, 0);
        return r < 0 ? 0 : (r & 0xffff);
    }
    #else
    static unsigned long long dnnl_py_hwcap(int second) { (void)second; return 0; }
    static int dnnl_py_sve_vl(void) { return 0; }
    #endif
    """
    void dnnl_py_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) nogil
    unsigned long long dnnl_py_xgetbv0() nogil
    int dnnl_py_amx_permitted() nogil
    const char *DNNL_PY_ARCH
    unsigned long long dnnl_py_hwcap(int second) nogil
    int dnnl_py_sve_vl() nogil

#: "x86_64", "aarch64" or "other": the target this module was compiled for.
ARCH = (<bytes>DNNL_PY_ARCH).decode()


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


def hwcap():
    """``(AT_HWCAP, AT_HWCAP2)`` on Linux on AArch64, else zeros."""
    return dnnl_py_hwcap(0), dnnl_py_hwcap(1)


def sve_vector_length():
    """The SVE vector length in bytes (``PR_SVE_GET_VL``), 0 without SVE."""
    return dnnl_py_sve_vl()
