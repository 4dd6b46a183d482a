"""Which vector code runs: oneDNN's CPU ISA model and the kernel level it picks.

oneDNN (src/cpu/x64/cpu_isa_traits.hpp, .cpp) describes each ISA as a set of
feature bits. The cap (``ONEDNN_MAX_CPU_ISA`` or ``DNNL_MAX_CPU_ISA``, read on
first use, or ``dnnl_set_max_cpu_isa``) is such a set; an ISA may be used when
its bits are inside the cap and the CPU (with the OS saving its registers)
has its features. The cap can be set once, and only before its first read:
the effective-ISA query, the verbose header and the first load of a kernel
read it.

The kernels are built once per level of ``KERNEL_LEVELS`` (setup.py); the
best level whose oneDNN ISA is usable is loaded (dnnl/_kernels/__init__.py).
The AVX10.2 family is never reported (its CPUs are not described here).

On AArch64 (the architecture ``dnnl._platform.cpuid`` was compiled for) the model is
oneDNN's src/cpu/aarch64/cpu_isa_traits.{hpp,cpp} and src/cpu/platform.cpp
instead: see ``aarch64_cpu_isa`` below. There is one kernel level, the baseline.
"""
import enum
import threading

from dnnl._core.enums import C as _C, cpu_isa, cpu_isa_hints, status
from dnnl._core.args import not_another_enum
from dnnl._core.error import invalid, wrong_type

# ---- oneDNN's feature bits and ISAs (internal masks, not dnnl_cpu_isa_t) ----
_XMM, _YMM, _ZMM, _AMX_TILE = 1 << 4, 1 << 5, 1 << 6, 1 << 7
_EVEX_CORE, _AVX2, _VEX_VNNI, _VEX_VNNI_2 = 1 << 8, 1 << 9, 1 << 10, 1 << 11
_EVEX_VNNI, _EVEX_BF16, _EVEX_FP16 = 1 << 12, 1 << 13, 1 << 14
_AMX_INT8, _AMX_BF16, _AMX_FP16, _AMX_2, _ACE = (1 << 15, 1 << 16, 1 << 17,
                                                  1 << 18, 1 << 19)
_VERSION = 0xF                      # AVX10 version, bits 0..3
_PREFER_YMM = 1 << 31               # a hint, not a feature

SSE41 = _XMM
AVX = _YMM | SSE41
AVX2 = _AVX2 | AVX
AVX2_VNNI = _VEX_VNNI | AVX2
AVX2_VNNI_2 = _VEX_VNNI_2 | AVX2_VNNI
AVX512_CORE = _EVEX_CORE | _ZMM | AVX2
AVX512_CORE_VNNI = _EVEX_VNNI | AVX512_CORE
AVX512_CORE_BF16 = _EVEX_BF16 | AVX512_CORE_VNNI
AVX512_CORE_BF16_YMM = _PREFER_YMM | AVX512_CORE_BF16
AMX_TILE = _AMX_TILE
_AVX10 = _AVX2 | _VEX_VNNI | _EVEX_CORE | _EVEX_VNNI | _EVEX_BF16 | _EVEX_FP16
AVX10_1_512 = 1 | _AVX10 | _ZMM | _YMM | _XMM            # avx512_core_fp16
AVX10_1_512_AMX = AVX10_1_512 | _AMX_INT8 | _AMX_BF16 | AMX_TILE
AVX10_1_512_AMX_FP16 = AVX10_1_512_AMX | _AMX_FP16
AVX10_2 = 2 | _AVX10 | _VEX_VNNI_2 | _XMM | _YMM | _ZMM
AVX10_2_AMX_2 = AVX10_2 | AMX_TILE | _AMX_INT8 | _AMX_BF16 | _AMX_FP16 | _AMX_2
ISA_ALL = 0xFFFFFFFF & ~_ACE & ~_PREFER_YMM

# public dnnl_cpu_isa_t -> (internal ISA, ONEDNN_MAX_CPU_ISA spelling)
_PUBLIC = {
    "default": (ISA_ALL, "default"), "sse41": (SSE41, "sse41"), "avx": (AVX, "avx"),
    "avx2": (AVX2, "avx2"), "avx2_vnni": (AVX2_VNNI, "avx2_vnni"),
    "avx2_vnni_2": (AVX2_VNNI_2, "avx2_vnni_2"),
    "avx512_core": (AVX512_CORE, "avx512_core"),
    "avx512_core_vnni": (AVX512_CORE_VNNI, "avx512_core_vnni"),
    "avx512_core_bf16": (AVX512_CORE_BF16, "avx512_core_bf16"),
    "avx10_1_512": (AVX10_1_512, "avx10_1_512"),
    "avx10_1_512_amx": (AVX10_1_512_AMX, "avx10_1_512_amx"),
    "avx10_1_512_amx_fp16": (AVX10_1_512_AMX_FP16, "avx10_1_512_amx_fp16"),
    "avx10_2": (AVX10_2, "avx10_2"), "avx10_2_amx_2": (AVX10_2_AMX_2, "avx10_2_amx_2"),
}   # avx10_2_ace is in the header but oneDNN 3.13 refuses it (measured)
_BY_VALUE = {_C["dnnl_cpu_isa_" + k]: v[0] for k, v in _PUBLIC.items()}
_BY_ENV = {env: isa for isa, env in _PUBLIC.values()}
_ENV_ALIASES = {"avx512_core_fp16": "avx10_1_512", "avx512_core_amx": "avx10_1_512_amx",
                "avx512_core_amx_fp16": "avx10_1_512_amx_fp16",
                "avx10_2_512": "avx10_2", "avx10_2_512_amx_2": "avx10_2_amx_2"}

# Probed best first (oneDNN's get_isa_info order): (ISA, public name, text).
_ORDER = (
    (AVX10_1_512_AMX_FP16, "avx10_1_512_amx_fp16", "Intel AVX10.1 and Intel AMX with "
     "bfloat16, float16 and 8-bit integer support"),
    (AVX10_1_512_AMX, "avx10_1_512_amx",
     "Intel AVX10.1 and Intel AMX with bfloat16 and 8-bit integer support"),
    (AVX10_1_512, "avx10_1_512", "Intel AVX 10.1"),
    (AVX512_CORE_BF16_YMM, "avx512_core_bf16",
     "Intel AVX-512 with Intel DL Boost and bfloat16 support on Ymm/Zmm"),
    (AVX512_CORE_BF16, "avx512_core_bf16",
     "Intel AVX-512 with Intel DL Boost and bfloat16 support"),
    (AVX512_CORE_VNNI, "avx512_core_vnni", "Intel AVX-512 with Intel DL Boost"),
    (AVX512_CORE, "avx512_core",
     "Intel AVX-512 with AVX512BW, AVX512VL, and AVX512DQ extensions"),
    (AVX2_VNNI_2, "avx2_vnni_2",
     "Intel AVX2 with Intel DL Boost, float16 and bfloat16 support"),
    (AVX2_VNNI, "avx2_vnni", "Intel AVX2 with Intel DL Boost"),
    (AVX2, "avx2", "Intel AVX2"),
    (AVX, "avx", "Intel AVX"),
    (SSE41, "sse41", "Intel SSE4.1"),
)

# Kernel builds, best first: (directory under dnnl/_kernels, oneDNN ISA it
# needs, CPU features its -march adds beyond that ISA). "" is the baseline.
KERNEL_LEVELS = (
    ("x86_64_v4", AVX512_CORE, ("avx512cd", "fma", "bmi1", "bmi2", "f16c",
                                "lzcnt", "movbe")),
    ("x86_64_v3", AVX2, ("fma", "bmi1", "bmi2", "f16c", "lzcnt", "movbe")),
    ("", 0, ()),
)


# ---- AArch64: oneDNN's cpu_isa_t there (src/cpu/aarch64/cpu_isa_traits.hpp) ----
class aarch64_cpu_isa(enum.IntEnum):
    """What ``dnnl_get_effective_cpu_isa`` returns on AArch64: values of
    oneDNN's private enum there, cast to ``dnnl_cpu_isa_t`` (they reuse x86
    numbers: asimd is 1 like sse41, sve_512 is 0x27 like avx512_core).
    ``default`` also stands for SME CPUs, as in oneDNN 3.13."""
    default = 0
    asimd = 0x1
    sve_128 = 0x3
    sve_256 = 0x7
    sve_512 = 0x27


_A64_ASIMD = 1 << 0
_A64_SVE = 1 << 1 | _A64_ASIMD
_A64_SVE_128 = 1 << 2 | _A64_SVE
_A64_SVE_256 = 1 << 3 | _A64_SVE_128
_A64_SVE_512 = 1 << 4 | _A64_SVE_256
_A64_SME = 1 << 8
_A64_ALL = 0xFFFFFFFF
# probed best first (get_isa_info_t): (ISA, public value, text)
_A64_ORDER = (
    (_A64_SME, aarch64_cpu_isa.default, "AArch64"),
    (_A64_SVE_512, aarch64_cpu_isa.sve_512, "AArch64 SVE (512 bits)"),
    (_A64_SVE_256, aarch64_cpu_isa.sve_256, "AArch64 SVE (256 bits)"),
    (_A64_SVE_128, aarch64_cpu_isa.sve_128, "AArch64 SVE (128 bits)"),
    (_A64_ASIMD, aarch64_cpu_isa.asimd, "AArch64 (with Advanced SIMD & floating-point)"),
)
# ONEDNN_MAX_CPU_ISA values oneDNN 3.13 matches there: its SVE entries are the
# literal "sve_ ## bits" (a macro argument inside a string), so they match nothing.
_A64_BY_ENV = {"default": _A64_ALL, "advanced_simd": _A64_ASIMD}

_arch = None


def arch():
    """"x86_64", "aarch64" or "other": what the helper module was built for."""
    global _arch
    if _arch is None:
        try:
            from dnnl._platform.cpuid import ARCH as _arch
        except ImportError:      # pragma: no cover - a build without the helper
            _arch = "other"
    return _arch


# ---------------------------------------------------------------- the CPU
def _bit(reg, n):
    return bool((reg >> n) & 1)


def _read_features():
    """Feature names the CPU has and the OS enables (xbyak's view)."""
    try:
        from dnnl._platform.cpuid import cpuid, xgetbv0
    except ImportError:      # pragma: no cover - a build without the helper
        return frozenset()
    if arch() == "aarch64":
        return _read_features_aarch64()
    f = set()
    _, _, c1, _ = cpuid(1)
    xcr0 = xgetbv0()
    ymm = (xcr0 & 0x6) == 0x6
    zmm = ymm and (xcr0 & 0xE0) == 0xE0
    for name, n, needs_ymm in (("sse41", 19, False), ("movbe", 22, False),
                               ("avx", 28, True), ("fma", 12, True), ("f16c", 29, True)):
        if _bit(c1, n) and (ymm or not needs_ymm):     # VEX code needs YMM saved
            f.add(name)
    a7, b7, c7, d7 = cpuid(7, 0)
    a71, _, _, d71 = cpuid(7, 1) if a7 >= 1 else (0, 0, 0, 0)
    if _bit(b7, 3):
        f.add("bmi1")
    if _bit(b7, 8):
        f.add("bmi2")
    if "avx" in f and _bit(b7, 5):
        f.add("avx2")
    if _bit(cpuid(0x80000001)[2], 5):
        f.add("lzcnt")
    for name, reg, n in (("avx_vnni", a71, 4), ("avx_vnni_int8", d71, 4),
                         ("avx_ne_convert", d71, 5), ("amx_tile", d7, 24),
                         ("amx_int8", d7, 25), ("amx_bf16", d7, 22), ("amx_fp16", a71, 21)):
        if _bit(reg, n):
            f.add(name)
    if zmm and _bit(b7, 16):
        f.add("avx512f")
        for name, reg, n in (("avx512dq", b7, 17), ("avx512cd", b7, 28),
                             ("avx512bw", b7, 30), ("avx512vl", b7, 31),
                             ("avx512_vnni", c7, 11), ("avx512_bf16", a71, 5),
                             ("avx512_fp16", d7, 23)):
            if _bit(reg, n):
                f.add(name)
    return frozenset(f)


def _read_features_aarch64():
    """Xbyak_aarch64's view on Linux: HWCAP_ASIMD, HWCAP_SVE, HWCAP2_SME, and
    the SVE vector length as ``sve<bits>`` (e.g. ``sve512``)."""
    from dnnl._platform.cpuid import hwcap, sve_vector_length
    h1, h2 = hwcap()
    f = set()
    if _bit(h1, 1):
        f.add("asimd")
    if _bit(h1, 22):
        f.add("sve")
        f.add("sve%d" % (8 * sve_vector_length()))
    if _bit(h2, 23):
        f.add("sme")
    return frozenset(f)


_features = _amx_ok = None


def features():
    """The CPU's usable features (cached)."""
    global _features
    if _features is None:
        _features = _read_features()
    return _features


def _amx():
    """Asks Linux for the AMX state once, as oneDNN does."""
    global _amx_ok
    if _amx_ok is None:
        from dnnl._platform.cpuid import amx_permitted
        _amx_ok = amx_permitted()
    return _amx_ok


def _cpu_has(isa, hints):
    """oneDNN's CPU test for ``isa`` (the cap aside)."""
    f = features()
    has = f.issuperset
    if isa == SSE41:
        return has({"sse41"})
    if isa == AVX:
        return has({"avx"})
    if isa == AVX2:
        return has({"avx2"})
    if isa == AVX2_VNNI:
        return has({"avx2", "avx_vnni"})
    if isa == AVX2_VNNI_2:
        return has({"avx2", "avx_vnni", "avx_vnni_int8", "avx_ne_convert"})
    core = {"avx512f", "avx512bw", "avx512vl", "avx512dq"}
    if isa == AVX512_CORE:
        return has(core)
    if isa == AVX512_CORE_VNNI:
        return has(core | {"avx512_vnni"})
    if isa == AVX512_CORE_BF16:
        return has(core | {"avx512_vnni", "avx512_bf16"})
    if isa == AVX512_CORE_BF16_YMM:
        return _cpu_has(AVX512_CORE_BF16, hints) and hints() == _C["dnnl_cpu_isa_prefer_ymm"]
    if isa == AVX10_1_512:
        return (has(core | {"avx512_vnni", "avx512_bf16", "avx512_fp16", "avx2", "avx_vnni"}))
    amx = has({"amx_tile", "amx_int8", "amx_bf16"})
    if isa == AVX10_1_512_AMX:
        return amx and _cpu_has(AVX10_1_512, hints) and _amx()
    if isa == AVX10_1_512_AMX_FP16:
        return amx and has({"amx_fp16"}) and _cpu_has(AVX10_1_512, hints) and _amx()
    return False


# ---------------------------------------------------------------- the cap
class _SetOnce:
    """oneDNN's set_once_before_first_get_setting_t."""

    def __init__(self, init):
        self._init, self._value, self._locked = init, None, False
        self._lock = threading.Lock()

    def set(self, value):
        with self._lock:
            if self._locked:
                return False
            self._value, self._locked = value, True
            return True

    def get(self, soft=False):
        with self._lock:
            if self._value is None:
                self._value = self._init()
            if not soft:
                self._locked = True
            return self._value


def _getenv_user(name):
    import os
    for prefix in ("ONEDNN_", "DNNL_"):
        value = os.environ.get(prefix + name, "")
        if value:
            return value.lower()
    return ""


def _cap_from_env():
    value = _getenv_user("MAX_CPU_ISA")
    if arch() == "aarch64":
        return _A64_BY_ENV.get(value, _A64_ALL)
    return _BY_ENV.get(_ENV_ALIASES.get(value, value), ISA_ALL)


def _hints_from_env():
    prefer = _getenv_user("CPU_ISA_HINTS") == "prefer_ymm"
    return _C["dnnl_cpu_isa_prefer_ymm" if prefer else "dnnl_cpu_isa_no_hints"]


_cap = _SetOnce(_cap_from_env)
_hints = _SetOnce(_hints_from_env)


def mayiuse(isa, soft=False):
    cap = _cap.get(soft)
    need = isa & ~_PREFER_YMM & ~_VERSION
    if cap & need != need or (cap & _VERSION) < (isa & _VERSION):
        return False
    return _cpu_has(isa, lambda: _hints.get(soft))


def _sve_bytes():
    return max([int(f[3:]) // 8 for f in features() if f[:3] == "sve" and f[3:].isdigit()]
               or [0])


def _mayiuse_aarch64(isa, soft=False):
    """oneDNN's aarch64::mayiuse."""
    if _cap.get(soft) & isa != isa:
        return False
    f = features()
    if isa == _A64_ASIMD:
        return "asimd" in f
    if isa == _A64_SME:
        return "sme" in f
    need = {_A64_SVE_128: 16, _A64_SVE_256: 32, _A64_SVE_512: 64}[isa]
    return "sve" in f and _sve_bytes() >= need


def _best_aarch64():
    """(public value, text) of oneDNN's get_isa_info_t on AArch64."""
    for isa, public, text in _A64_ORDER:
        if _mayiuse_aarch64(isa):
            return public, text
    return aarch64_cpu_isa.default, "AArch64"


def _best(soft=False):
    for isa, public, text in _ORDER:
        if mayiuse(isa, soft):
            return public, text
    return "default", "Intel 64"


# ---------------------------------------------------------------- the API
def c_set_max_cpu_isa(value):
    """``dnnl_set_max_cpu_isa``: success, or invalid_arguments for a value
    that is no ISA or once the cap is set or read."""
    if arch() != "x86_64":
        # platform::set_max_cpu_isa: only x64 implements it (the AArch64 cap
        # comes from ONEDNN_MAX_CPU_ISA alone)
        return status.unimplemented
    isa = _BY_VALUE.get(value)
    if isa is None or not _cap.set(isa):
        return status.invalid_arguments
    return status.success


def c_set_cpu_isa_hints(value):
    """``dnnl_set_cpu_isa_hints``: any value is stored (as oneDNN does);
    runtime_error once the hints are set or read. On AArch64 always
    success, nothing stored; elsewhere unimplemented (platform.cpp)."""
    if arch() != "x86_64":
        return status.success if arch() == "aarch64" else status.unimplemented
    return status.success if _hints.set(value) else status.runtime_error


def get_cpu_isa_hints():
    """The CPU ISA hints (reads them: they cannot be set any more).

    >>> import dnnl
    >>> dnnl.get_cpu_isa_hints()
    <cpu_isa_hints.no_hints: 0>
    """
    if arch() != "x86_64":
        return cpu_isa_hints.no_hints       # platform.cpp: only x64 keeps hints
    v = _hints.get()
    return cpu_isa_hints(v) if v in cpu_isa_hints._value2member_map_ else v


def set_cpu_isa_hints(hints):
    """Set the CPU ISA hints (``ONEDNN_CPU_ISA_HINTS``) before first use.

    Returns ``status.success``, or ``status.runtime_error`` once they are set
    or read, as ``dnnl::set_cpu_isa_hints``; a value that is no hint raises
    ``invalid_arguments``.
    """
    return c_set_cpu_isa_hints(int(_member(cpu_isa_hints, hints, "cpu isa hints")))


def set_max_cpu_isa(isa):
    """Cap the instruction set the kernels may use, as ``ONEDNN_MAX_CPU_ISA``.

    Works once, and only before first use (the first primitive created, the
    effective-ISA query, the verbose header). Returns ``status.success``, or
    ``status.invalid_arguments`` when it is too late, as
    ``dnnl::set_max_cpu_isa``; a value that is no ISA (or ``avx10_2_ace``,
    which oneDNN 3.13 refuses) raises ``invalid_arguments``. On AArch64 it
    returns ``status.unimplemented``, as oneDNN there.
    """
    v = int(_member(cpu_isa, isa, "cpu isa"))
    if v not in _BY_VALUE:
        raise invalid("cpu isa %s is not supported" % cpu_isa(v).name)
    return status(c_set_max_cpu_isa(v))


def get_effective_cpu_isa():
    """The best ISA this CPU may use under the cap (reads the cap).

    On AArch64 a member of ``aarch64_cpu_isa`` (oneDNN's values there).

    >>> import dnnl
    >>> dnnl.get_effective_cpu_isa() in set(dnnl.cpu_isa) | set(dnnl._platform.isa.aarch64_cpu_isa)
    True
    """
    if arch() == "aarch64":
        return _best_aarch64()[0]
    if arch() != "x86_64":
        _cap.get()
        return cpu_isa.default          # platform.cpp: neither x64 nor AArch64
    return cpu_isa(_C["dnnl_cpu_isa_" + _best()[0]])


def _member(cls, value, what):
    not_another_enum(value, cls, what)
    try:
        v = value.__index__()
    except (AttributeError, TypeError):
        raise wrong_type("%s must be an integer, not %s" % (what, type(value).__name__)) \
            from None
    try:
        return cls(v)
    except ValueError:
        raise invalid("invalid %s %r" % (what, v)) from None


def read_cap():
    """Fix the cap, as creating a oneDNN primitive descriptor does."""
    _cap.get()


def isa_info():
    """The ISA's text in oneDNN's verbose header (reads the cap)."""
    if arch() == "aarch64":
        return _best_aarch64()[1]
    if arch() != "x86_64":
        _cap.get()
        return "Generic"
    return _best()[1]


def kernel_levels():
    """Kernel build directories this CPU may run under the cap, best first,
    ending with the baseline ``""`` (reads the cap)."""
    if arch() != "x86_64":
        _cap.get()
        return [""]                     # the x86 levels are never built there
    f = features()
    return [level for level, isa, extra in KERNEL_LEVELS
            if not isa or (mayiuse(isa) and f.issuperset(extra))]
