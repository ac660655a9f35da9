"""simlab.jit: a kernel is one plain Python function; compiled or not, it gives the same numbers."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from simlab import jit
from simlab.jit import compiled, exp, kernel, sign


@kernel
def _relax(z, z_ss, rate, T):
    return z_ss + (z - z_ss) * exp(-rate * T)


@kernel
def _loop(n, h, rate):
    z, out = 0.0, np.empty(n)
    for i in range(n):
        z = _relax(z, sign(1.0) * 1e-5, rate, h)  # a kernel calling a kernel and both helpers
        out[i] = z
    return out


def test_kernel_decorator_returns_the_function_itself():
    assert _relax(1.0, 0.0, 1.0, 1.0) == pytest.approx(math.exp(-1.0))
    assert jit.KERNELS[f"{__name__}._relax"] is _relax


def test_helpers_work_on_floats_and_arrays_alike():
    assert exp(0.0) == 1.0 and isinstance(exp(0.0), float)
    np.testing.assert_array_equal(exp(np.zeros(3)), np.ones(3))
    assert [sign(v) for v in (-2.0, 0.0, 3.0)] == [-1.0, 0.0, 1.0]
    np.testing.assert_array_equal(sign(np.array([-2.0, 0.0, 3.0])), [-1.0, 0.0, 1.0])


def test_compiled_kernel_gives_the_pure_python_numbers():
    """numba is part of the dev install: both paths run here."""
    assert jit.numba_available(), "numba is missing: pip install -e '.[dev]'"
    fast = compiled(_loop)
    assert fast is not _loop
    np.testing.assert_allclose(fast(1000, 1e-3, 1e3), _loop(1000, 1e-3, 1e3), rtol=1e-12, atol=0)


def test_simlab_jit_0_switches_compilation_off():
    code = ("import simlab.jit as j\n"
            "f = j.kernel(lambda x: 2.0 * x)\n"
            "print(j.jit_enabled(), j.compiled(f) is f)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, "SIMLAB_JIT": "0"})
    assert result.stdout.split() == ["False", "True"]


def test_importing_simlab_does_not_import_numba():
    code = "import sys, simlab, simlab.friction, simlab.jit; print('numba' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
