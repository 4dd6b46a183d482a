"""Runtime ISA dispatch: oneDNN's cap semantics, the kernel level it selects,
and the same bytes from every level.

The cap is process-wide and can be set only before first use, so every case
runs in a fresh interpreter. The statuses expected here were measured on real
oneDNN 3.13.2 (tests/conformance/test_isa_oracle.py replays them there).
Run as a script, this file prints the digests of a fixed set of reorders and
resamplings (the byte-for-byte comparison across levels); they are pinned in
tests/data/isa_digests.json, so that other machines (AArch64:
tools/check_aarch64.sh) compare their bytes with x86-64's.

The ISA model is the one of the architecture dnnl was built for
(``dnnl._platform.isa.arch()``): oneDNN's x64 semantics on x86-64, its AArch64 ones
(read from oneDNN 3.13's src/cpu/aarch64/cpu_isa_traits.cpp and
src/cpu/platform.cpp) on AArch64; each runs its own expectations.
"""
import hashlib
import json
import os

import numpy as np
import pytest

from dnnl._platform.isa import arch
from dnnl.testing import interpreter

pytestmark = pytest.mark.compiled

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PINNED = os.path.join(ROOT, "tests", "data", "isa_digests.json")
AARCH64 = arch() == "aarch64"
# The cap that selects each kernel level (dnnl._platform.isa.KERNEL_LEVELS); on AArch64
# only the baseline is built, and ONEDNN_MAX_CPU_ISA=advanced_simd is its cap.
LEVEL_CAPS = ({"": "advanced_simd"} if AARCH64 else
              {"": "sse41", "x86_64_v3": "avx2", "x86_64_v4": "avx512_core"})


def run_py(code, **env):
    """stdout of ``code`` in a fresh interpreter, the cap variables cleared."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", "ONEDNN_CPU_ISA_HINTS",
                      "DNNL_CPU_ISA_HINTS")}
    e.update(env)
    r = interpreter.run(["-c", code], env=e, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def levels_here():
    """Kernel levels built and runnable on this machine, best first."""
    out = run_py("import dnnl._platform.isa as I, dnnl._kernels as K\n"
                 "print(*[l or '-' for l in I.kernel_levels()"
                 " if not l or K.level_file(l, 'dnnl.primitives.reorder.kernel')])")
    return [x if x != "-" else "" for x in out]


LEVELS = levels_here()


# ------------------------------------------------------------ the cap
CAPI = "import dnnl.capi as L\n"


SET_ONCE_CASES = [
    # set once: the second set fails, the first one holds
    ("print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41),"
     " L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_avx),"
     " L.dnnl_get_effective_cpu_isa())", ["0", "2", "1"]),
    # reading the effective ISA fixes the cap
    ("e = L.dnnl_get_effective_cpu_isa()\n"
     "print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41), L.dnnl_get_effective_cpu_isa() == e)",
     ["2", "True"]),
    # a value that is no ISA is refused and leaves the cap settable
    ("print(L.dnnl_set_max_cpu_isa(2), L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_avx10_2_ace),"
     " L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41), L.dnnl_get_effective_cpu_isa())",
     ["2", "2", "0", "1"]),
    # hints: any value is stored once; reading them fixes them
    ("print(L.dnnl_set_cpu_isa_hints(5), L.dnnl_set_cpu_isa_hints(1),"
     " L.dnnl_get_cpu_isa_hints())", ["0", "5", "5"]),
    ("print(L.dnnl_get_cpu_isa_hints(), L.dnnl_set_cpu_isa_hints(1))", ["0", "5"]),
]


# AArch64 (oneDNN 3.13): platform::set_max_cpu_isa is x64-only, unimplemented
# for every value at any time; set_cpu_isa_hints succeeds and keeps nothing.
AARCH64_SET_CASES = [
    ("print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41),"
     " L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_default), L.dnnl_set_max_cpu_isa(2))",
     ["3", "3", "3"]),
    ("e = L.dnnl_get_effective_cpu_isa()\n"
     "print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41), L.dnnl_get_effective_cpu_isa() == e)",
     ["3", "True"]),
    ("print(L.dnnl_set_cpu_isa_hints(5), L.dnnl_set_cpu_isa_hints(1),"
     " L.dnnl_get_cpu_isa_hints(), L.dnnl_set_cpu_isa_hints(1))", ["0", "0", "0", "0"]),
]


@pytest.mark.parametrize("code, expected", AARCH64_SET_CASES if AARCH64 else SET_ONCE_CASES)
def test_set_once_before_first_use(code, expected):
    assert run_py(CAPI + code) == expected


def test_environment_variable():
    if AARCH64:
        eff = "import dnnl.capi as L; print(L.dnnl_get_effective_cpu_isa())"
        assert run_py(eff, ONEDNN_MAX_CPU_ISA="ADVANCED_SIMD") == ["1"]   # asimd
        assert run_py(eff, DNNL_MAX_CPU_ISA="advanced_simd") == ["1"]
        # oneDNN 3.13 spells its SVE values "sve_ ## bits": none matches
        for ignored in ("sve_128", "sse41", "bogus"):
            assert run_py(eff, ONEDNN_MAX_CPU_ISA=ignored) == run_py(eff)
        assert run_py("import dnnl.capi as L; print(L.dnnl_get_cpu_isa_hints())",
                      ONEDNN_CPU_ISA_HINTS="PREFER_YMM") == ["0"]
        return
    eff = "import dnnl.capi as L; print(L.dnnl_get_effective_cpu_isa())"
    assert run_py(eff, ONEDNN_MAX_CPU_ISA="SSE41") == ["1"]        # case-insensitive
    assert run_py(eff, DNNL_MAX_CPU_ISA="sse41") == ["1"]          # the old prefix
    assert run_py(eff, ONEDNN_MAX_CPU_ISA="bogus") == run_py(eff)  # ignored
    # the setter still wins over the variable, once
    assert run_py(CAPI + "print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_avx),"
                  " L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_sse41))",
                  ONEDNN_MAX_CPU_ISA="sse41") == ["0", "2"]
    assert run_py("import dnnl.capi as L; print(L.dnnl_get_cpu_isa_hints())",
                  ONEDNN_CPU_ISA_HINTS="PREFER_YMM") == ["1"]


def test_object_api():
    if AARCH64:
        out = run_py(
            "import dnnl\n"
            "print(dnnl.set_max_cpu_isa(dnnl.cpu_isa.sse41).name,"
            " type(dnnl.get_effective_cpu_isa()).__name__, dnnl.get_cpu_isa_hints().name)\n"
            "for bad in (2, 'avx2', dnnl.cpu_isa.avx10_2_ace):\n"
            "    try:\n"
            "        dnnl.set_max_cpu_isa(bad)\n"
            "    except dnnl.error as e:\n"
            "        print(type(e).__name__)\n")
        assert out == ["unimplemented", "aarch64_cpu_isa", "no_hints",
                       "invalid_arguments", "invalid_type", "invalid_arguments"]
        return
    out = run_py(
        "import dnnl\n"
        "st = dnnl.set_max_cpu_isa(dnnl.cpu_isa.sse41)\n"      # after import: not too late
        "print(st.name, dnnl.get_effective_cpu_isa().name,"
        " dnnl.set_max_cpu_isa(dnnl.cpu_isa.avx2).name)\n"
        "for bad in (2, 'avx2', dnnl.cpu_isa.avx10_2_ace):\n"
        "    try:\n"
        "        dnnl.set_max_cpu_isa(bad)\n"
        "    except dnnl.error as e:\n"
        "        print(type(e).__name__)\n")
    assert out == ["success", "sse41", "invalid_arguments",
                   "invalid_arguments", "invalid_type", "invalid_arguments"]


def cpuinfo_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def auxv_hwcaps():
    """(AT_HWCAP, AT_HWCAP2) from Linux's /proc/self/auxv (pairs of native
    unsigned longs), or None."""
    import struct
    try:
        with open("/proc/self/auxv", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    words = struct.unpack("%dL" % (len(raw) // struct.calcsize("L")), raw)
    pairs = dict(zip(words[::2], words[1::2]))
    return pairs.get(16, 0), pairs.get(26, 0)


@pytest.mark.skipif(not AARCH64 or auxv_hwcaps() is None,
                    reason="the AArch64 model; needs Linux's /proc/self/auxv")
def test_effective_isa_agrees_with_the_auxiliary_vector():
    """AArch64: the HWCAP words read by the kernel's /proc/self/auxv and the
    SVE length from prctl via ctypes, against oneDNN's ladder (sme first,
    which oneDNN 3.13 reports as default)."""
    import ctypes
    h1, h2 = auxv_hwcaps()
    vl = ctypes.CDLL(None, use_errno=True).prctl(51, 0, 0, 0, 0) if h1 >> 22 & 1 else 0
    vl = vl & 0xFFFF if vl > 0 else 0
    expected = ("default" if h2 >> 23 & 1 else
                "sve_512" if vl >= 64 else "sve_256" if vl >= 32 else
                "sve_128" if vl >= 16 else "asimd" if h1 >> 1 & 1 else "default")
    assert run_py("import dnnl; print(dnnl.get_effective_cpu_isa().name)") == [expected]


@pytest.mark.skipif(AARCH64 or not os.path.exists("/proc/cpuinfo") or not cpuinfo_flags(),
                    reason="the x86 model; needs Linux's /proc/cpuinfo flags as the"
                           " independent reference")
def test_effective_isa_agrees_with_the_kernel_flags():
    """The CPUID decoding against the kernel's own view of the CPU (the
    ladder of oneDNN's ISAs up to avx512_core_bf16, without the cap)."""
    f = cpuinfo_flags()
    ladder = [("avx512_core_bf16", {"avx512f", "avx512bw", "avx512vl", "avx512dq",
                                    "avx512_vnni", "avx512_bf16"}),
              ("avx512_core_vnni", {"avx512f", "avx512bw", "avx512vl", "avx512dq",
                                    "avx512_vnni"}),
              ("avx512_core", {"avx512f", "avx512bw", "avx512vl", "avx512dq"}),
              ("avx2_vnni", {"avx2", "avx_vnni"}), ("avx2", {"avx2"}), ("avx", {"avx"}),
              ("sse41", {"sse4_1"})]
    expected = next((name for name, need in ladder if need <= f), "default")
    out = run_py("import dnnl; print(dnnl.get_effective_cpu_isa().name)",
                 ONEDNN_MAX_CPU_ISA="avx512_core_bf16")
    assert out == [expected]


# ---------------------------------------------------------- the levels
def test_the_cap_selects_the_level():
    """Each level is loaded under its cap (and not before the first
    primitive: ``set_max_cpu_isa`` after ``import dnnl`` still works)."""
    code = ("import dnnl, dnnl._kernels as K\n"
            "assert K.level is None\n"
            "eng = dnnl.engine(dnnl.engine.kind.cpu, 0)\n"
            "m = dnnl.memory(dnnl.memory.desc([2, 3], 'f32', 'ab'), eng)\n"
            "dnnl.reorder(m, m)\n"
            "assert dnnl.set_max_cpu_isa(dnnl.cpu_isa.avx) == %d\n"   # creation read the cap
            "dnnl.reorder(m, m).execute(dnnl.stream(eng), m, m)\n"
            "import dnnl.primitives.reorder.kernel as R\n"     # the module load() gave
            "def level_of(m):\n"                   # its level directory, or '-'
            "    d = os.path.basename(os.path.dirname(m.__file__))\n"
            "    return d if d.startswith('x86_64_') else '-'\n"
            "where = {level_of(K.load('dnnl.' + n)) for n in ('primitives.reorder.kernel',\n"
            "         'primitives.resampling.kernel', 'testing.probes.convert',\n"
            "         'testing.probes.postops')}\n"
            "print(K.level or '-', level_of(R), *where)\n")
    # AArch64: the setter is unimplemented (3) before and after first use
    code %= 3 if AARCH64 else 2
    for level in LEVELS:
        out = run_py("import os\n" + code, ONEDNN_MAX_CPU_ISA=LEVEL_CAPS[level])
        assert out == [level or "-"] * 3
        if AARCH64:
            assert LEVELS == [""]
            continue
        out = run_py("import os, dnnl\nassert dnnl.set_max_cpu_isa(dnnl.cpu_isa.%s) == 0\n"
                     % LEVEL_CAPS[level] + code)
        assert out == [level or "-"] * 3


def test_avx512_is_never_chosen_without_avx512():
    if "avx512f" in cpuinfo_flags():
        pytest.skip("this CPU has AVX-512")
    assert "x86_64_v4" not in LEVELS


def test_levels_follow_the_cpu_features():
    """The choice for CPUs this machine is not (features stood in)."""
    if AARCH64:
        out = run_py(
            "import dnnl._platform.isa as I\n"
            "for f in %r:\n"
            "    I._features = frozenset(f.split())\n"
            "    print('/'.join(I.kernel_levels()) or '-', I.get_effective_cpu_isa().name)\n"
            % ["", "asimd", "asimd sve sve128", "asimd sve sve256", "asimd sve sve512",
               "asimd sve sve2048", "asimd sve sve128 sme"])
        assert out == ["-", "default",        # no Advanced SIMD
                       "-", "asimd",          # Cortex-A72 (Graviton 1), Apple M1-M3
                       "-", "sve_128",        # Neoverse N2, V2 (Graviton 4)
                       "-", "sve_256",        # Neoverse V1 (Graviton 3)
                       "-", "sve_512",        # A64FX
                       "-", "sve_512",        # 2048-bit SVE
                       "-", "default"]        # SME (Apple M4): oneDNN 3.13 says default
        return
    v3 = "avx avx2 fma bmi1 bmi2 f16c lzcnt movbe sse41"
    skx = v3 + " avx512f avx512bw avx512vl avx512dq avx512cd"
    out = run_py(
        "import dnnl._platform.isa as I\n"
        "for f in %r:\n"
        "    I._features = frozenset(f.split())\n"
        "    print('/'.join(I.kernel_levels()) or '-', I.get_effective_cpu_isa().name)\n"
        % ["sse41", v3.replace(" fma", ""), v3, v3 + " avx_vnni",
           skx.replace(" avx512cd", ""), skx, skx + " avx512_vnni avx512_bf16"])
    assert out == ["-", "sse41",              # Nehalem
                   "-", "avx2",               # AVX2 without FMA: no v3 build
                   "x86_64_v3/", "avx2",      # Haswell, Zen
                   "x86_64_v3/", "avx2_vnni",  # Alder Lake
                   "x86_64_v3/", "avx512_core",  # no AVX512CD: no v4 build
                   "x86_64_v4/x86_64_v3/", "avx512_core",  # Skylake-SP
                   "x86_64_v4/x86_64_v3/", "avx512_core_bf16"]  # Cooper Lake


def test_verbose_header_names_the_isa():
    out = run_py("import dnnl.verbose as V; print([l for l in V.header_lines()"
                 " if ',isa:' in l][0].split(',isa:')[1])", ONEDNN_MAX_CPU_ISA=LEVEL_CAPS[""])
    assert " ".join(out) == ("AArch64 (with Advanced SIMD & floating-point)" if AARCH64
                             else "Intel SSE4.1")


# ---------------------------------------------- same bytes at every level
def digests():
    """sha256 of the outputs of reorders and resamplings that take the
    vectorised paths (tails, conversions, quantisation, post-ops)."""
    import dnnl
    from dnnl.resampling import resampling_backward, resampling_forward
    from dnnl.testing import reorder as T
    out = {}
    rng = np.random.default_rng(7)
    big, odd = [4, 64, 24, 24], [3, 17, 13, 11]
    vals = (rng.standard_normal(int(np.prod(big))) * 90).astype(np.float32)
    vals[::97] = np.float32(0.5) + np.arange(vals[::97].size, dtype=np.float32)  # ties
    fbytes = vals.tobytes()
    for dims in (big, odd):
        ch = list(np.linspace(0.05, 3, dims[1]))
        for stag, dtag, sdt, ddt, attrs in [
                ("nchw", "nhwc", "f32", "f32", {}), ("nchw", "nChw16c", "f32", "f32", {}),
                ("nChw16c", "nhwc", "f32", "f32", {}), ("nchw", "nchw", "f32", "bf16", {}),
                ("nchw", "nhwc", "f32", "s8", {"scales": {dnnl.DNNL_ARG_DST: (2, ch, "f32")}}),
                ("nchw", "nchw", "f32", "u8", {"scales": {dnnl.DNNL_ARG_DST: (0, [0.37], "f32")},
                                               "zero_points": {dnnl.DNNL_ARG_DST: (0, [128], "s32")}}),
                ("nchw", "nChw8c", "f32", "f16", {}), ("nchw", "nhwc", "f32", "s32", {}),
                ("nchw", "nchw", "f32", "f32", {"sum": (0.5,)})]:
            st, b = T.run_ours(("tag", dims, sdt, stag), fbytes, ("tag", dims, ddt, dtag),
                               dst_init_bytes=fbytes, **attrs)
            assert st == 0
            out["reorder %s %s:%s->%s:%s %s" % (dims, sdt, stag, ddt, dtag, sorted(attrs))] = \
                hashlib.sha256(b).hexdigest()
    eng = dnnl.engine(dnnl.engine.kind.cpu, 0)
    strm = dnnl.stream(eng)
    A = dnnl.algorithm
    po = dnnl.post_ops()
    po.append_eltwise(A.eltwise_gelu_erf, 0.0, 0.0)
    po.append_sum(0.25)
    attr = dnnl.primitive_attr()
    attr.set_post_ops(po)
    # the same chain without libm (gelu_erf calls the platform's erff)
    po_exact = dnnl.post_ops()
    po_exact.append_eltwise(A.eltwise_linear, 0.75, -1.5)
    po_exact.append_sum(0.25)
    attr_exact = dnnl.primitive_attr()
    attr_exact.set_post_ops(po_exact)
    for tag in ("nchw", "nhwc"):
        for alg in (A.resampling_nearest, A.resampling_linear):
            for dt, (small, large) in (("f32", ([2, 24, 17, 19], [2, 24, 34, 38])),
                                       ("bf16", ([2, 16, 28, 28], [2, 16, 14, 14]))):
                for label, a in (("False", None), ("True", attr), ("linear", attr_exact)):
                    smd = dnnl.memory.desc(small, dt, tag)
                    dmd = dnnl.memory.desc(large, dt, tag)
                    pd = resampling_forward.primitive_desc(
                        eng, dnnl.prop_kind.forward_training, alg, smd, dmd, a)
                    s, d = dnnl.memory(smd, eng), dnnl.memory(dmd, eng)
                    s.map_data(np.uint8)[:] = np.frombuffer(fbytes, np.uint8)[:smd.get_size()]
                    d.map_data(np.uint8)[:] = np.frombuffer(fbytes, np.uint8)[:dmd.get_size()]
                    resampling_forward(pd).execute(strm, {dnnl.DNNL_ARG_SRC: s,
                                                          dnnl.DNNL_ARG_DST: d})
                    out["fwd %s %s %s %s %s" % (tag, alg.name, dt, small, label)] = \
                        hashlib.sha256(d.map_data(np.uint8).tobytes()).hexdigest()
                bpd = resampling_backward.primitive_desc(eng, alg, smd, dmd, pd)
                g, ds = dnnl.memory(dmd, eng), dnnl.memory(smd, eng)
                g.map_data(np.uint8)[:] = np.frombuffer(fbytes, np.uint8)[:dmd.get_size()]
                resampling_backward(bpd).execute(strm, {dnnl.DNNL_ARG_DIFF_DST: g,
                                                        dnnl.DNNL_ARG_DIFF_SRC: ds})
                out["bwd %s %s %s %s" % (tag, alg.name, dt, small)] = \
                    hashlib.sha256(ds.map_data(np.uint8).tobytes()).hexdigest()
    return out


def libm_fingerprint():
    """sha256 of the gelu_erf post-op (the platform libm's erff) over a grid:
    outputs through libm are the same bytes only where this is the same."""
    import dnnl
    from dnnl import _kernels
    postops_api = _kernels.load("dnnl.testing.probes.postops")
    x = np.linspace(-6, 6, 120001, dtype=np.float32)
    y = np.asarray(postops_api.eltwise(x, int(dnnl.algorithm.eltwise_gelu_erf)), np.float32)
    return hashlib.sha256(y.tobytes()).hexdigest()


# digests of outputs that pass through libm (the gelu_erf post-op): compared
# with the pinned ones only under the same libm (glibc's erff differs by 1 ulp
# between x86-64 and AArch64, and between glibc versions)
def through_libm(key):
    return key.startswith("fwd") and key.endswith("_True")


def digests_at(level):
    out = run_py("import json, sys; sys.path.insert(0, %r); import dnnl._kernels as K\n"
                 % os.path.join(ROOT, "tests", "_platform") +
                 "from test_isa import digests\n"
                 "d = {k.replace(' ', '_'): v for k, v in digests().items()}; d['level'] = K.level\n"
                 "print(json.dumps(d, separators=(',', ':')))",
                 ONEDNN_MAX_CPU_ISA=LEVEL_CAPS[level])
    d = json.loads(out[0])
    got = d.pop("level")
    # None: no level but the baseline is built here (AArch64), nothing is dispatched
    assert got == level or (got is None and LEVELS == [""] == [level])
    return d


def test_every_level_gives_the_same_bytes():
    """Every level built here, and the baseline against the digests pinned
    from x86-64 (the same bytes on every architecture)."""
    assert LEVELS[-1] == ""
    ref = digests_at(LEVELS[-1])
    assert len(ref) > 40
    for level in LEVELS[:-1]:
        got = digests_at(level)
        assert got == ref, sorted(k for k in ref if got.get(k) != ref[k])
    with open(PINNED) as f:
        pinned = json.load(f)
    libm = pinned.pop("libm_fingerprint")
    assert sorted(ref) == sorted(pinned)
    same_libm = libm_fingerprint() == libm
    compared = [k for k in pinned if same_libm or not through_libm(k)]
    assert len(compared) >= 40
    assert [k for k in compared if ref[k] != pinned[k]] == []


@pytest.mark.parametrize("level", LEVELS[1:] or [None])
def test_kernel_tests_pass_at_lower_levels(level):
    """The kernel tests at every level below the default one (which the rest
    of the suite runs)."""
    if level is None:
        pytest.skip("a single kernel level is built or runnable here")
    e = dict(os.environ, ONEDNN_MAX_CPU_ISA=LEVEL_CAPS[level])
    # the tests marked "kernels", on one process: this test already shares
    # the machine with the rest of the suite
    r = interpreter.run(["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist",
                         "--import-mode=importlib", "--rootdir", ROOT,
                         "-c", os.path.join(ROOT, "pyproject.toml"), "-m", "kernels",
                         "-o", "addopts=--strict-markers", os.path.join(ROOT, "tests")],
                        env=e, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:]


if __name__ == "__main__":
    # the digests as tests/data/isa_digests.json pins them (at the level the
    # cap selects), e.g. PYTHONPATH=. python tests/_platform/test_isa.py > tests/data/isa_digests.json
    d = {k.replace(" ", "_"): v for k, v in digests().items()}
    d["libm_fingerprint"] = libm_fingerprint()
    print(json.dumps(d, indent=1, sort_keys=True))
