"""The ISA cap against real oneDNN: the same call sequences and environment
variables, each in a fresh interpreter, give the same statuses and the same
effective ISA on this CPU (tests/_platform/test_isa.py holds the sequences)."""
import os
import sys

import pytest

pytestmark = pytest.mark.conformance

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "_platform"))
import oracle as _oracle  # noqa: E402
import test_isa  # noqa: E402

# ``L`` is real libdnnl.so.3, with the header's constants as attributes.
REAL = """
import ctypes, os, sys
sys.path.insert(0, %r)
import oracle as O
from dnnl._core.enums import C
lib_dir = os.path.join(O.venv_dir(), "lib")
keep = [ctypes.CDLL(os.path.join(lib_dir, n), mode=ctypes.RTLD_GLOBAL)
        for n in O._PRELOAD if os.path.exists(os.path.join(lib_dir, n))]
lib = ctypes.CDLL(os.path.join(lib_dir, "libdnnl.so.3"))
class _L:
    def __getattr__(self, name):
        return C[name] if name in C else getattr(lib, name)
L = _L()
""" % HERE


def both(code, **env):
    return test_isa.run_py(REAL + code, **env), test_isa.run_py(test_isa.CAPI + code, **env)


@pytest.mark.parametrize("code", [c for c, _ in test_isa.SET_ONCE_CASES])
def test_sequences(oracle, code):
    real, ours = both(code)
    assert ours == real
    _oracle.record("isa", 1)


def isa_names():
    from dnnl._core.enums import cpu_isa
    return [m.name for m in cpu_isa]


def test_every_cap(oracle):
    """Each ISA as ONEDNN_MAX_CPU_ISA, and through dnnl_set_max_cpu_isa."""
    eff = "print(L.dnnl_get_effective_cpu_isa())"
    for name in isa_names() + ["AVX2", "avx512_core_fp16", "avx10_2_512", "bogus"]:
        real, ours = both(eff, ONEDNN_MAX_CPU_ISA=name)
        assert ours == real, name
        code = ("print(L.dnnl_set_max_cpu_isa(L.dnnl_cpu_isa_%s), L.dnnl_get_effective_cpu_isa())"
                % name) if name in isa_names() else None
        if code:
            real, ours = both(code)
            assert ours == real, name
        _oracle.record("isa", 2)
