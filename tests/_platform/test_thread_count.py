"""``dnnl.set_num_threads`` / ``dnnl.get_num_threads``: the public count of
the kernels' pool (docs/threads.md). The setter caps the default count (what
OpenMP, the affinity mask and the CPU quota give), 0 or None lifts the cap,
and results do not depend on it."""
import os
import subprocess
import sys

import numpy as np
import pytest

import dnnl

pytestmark = pytest.mark.compiled


def test_set_num_threads_caps_the_count_and_zero_restores_it():
    default = dnnl.get_num_threads()
    assert default >= 1
    try:
        dnnl.set_num_threads(1)
        assert dnnl.get_num_threads() == 1
        x = np.random.default_rng(0).standard_normal((2, 8, 64, 64), dtype=np.float32)
        one = dnnl.resample(x, 128).tobytes()
        dnnl.set_num_threads(default + 8)       # a cap above the default changes nothing
        assert dnnl.get_num_threads() == default
        dnnl.set_num_threads(2 ** 40)
        assert dnnl.get_num_threads() == default
        dnnl.set_num_threads(0)
        assert dnnl.get_num_threads() == default
        assert dnnl.resample(x, 128).tobytes() == one
        dnnl.set_num_threads(1)
        dnnl.set_num_threads(None)
        assert dnnl.get_num_threads() == default
    finally:
        dnnl.set_num_threads(None)
    with pytest.raises(dnnl.invalid_arguments):
        dnnl.set_num_threads(-1)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError):
            dnnl.set_num_threads(bad)
    assert dnnl.get_num_threads() == default



def test_omp_num_threads_sets_the_default_the_setter_lowers():
    code = ("import dnnl; a = dnnl.get_num_threads(); dnnl.set_num_threads(5); "
            "b = dnnl.get_num_threads(); dnnl.set_num_threads(2); c = dnnl.get_num_threads(); "
            "dnnl.set_num_threads(0); print(a, b, c, dnnl.get_num_threads())")
    env = dict(os.environ, OMP_NUM_THREADS="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["3", "3", "2", "3"]
