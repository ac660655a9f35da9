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


@pytest.fixture
def jit_on(monkeypatch):
    """Compilation on for this test, also in a SIMLAB_JIT=0 run (the comparison needs both paths)."""
    assert jit.numba_available(), "numba is missing: pip install -e '.[dev]'"
    monkeypatch.setenv("SIMLAB_JIT", "1")


def _assert_close(a, b):
    """Equal to 1e-12 relative to the scale of b (usually bit-identical)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * max(np.max(np.abs(b)), 1e-300))


def test_compiled_kernel_gives_the_pure_python_numbers(jit_on):
    """numba is part of the dev install: both paths run here."""
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


# ---------------------------------------------------------------------------------------------
# The friction kernels (simlab.friction.block and simlab.friction.sweep), compiled and not
# ---------------------------------------------------------------------------------------------

LUGRE = (1.0, 1.5, 0.001, 2.0, 1e5, float(np.sqrt(1e5)), 0.4)  # Fc, Fs, vs, n, sigma0, sigma1, sigma2


def _both(kernel, make_arguments):
    """Run ``kernel`` compiled and as Python on fresh copies of the arguments: (compiled, python)."""
    runs = []
    for function in (compiled(kernel), kernel):
        arguments = make_arguments()
        value = function(*arguments)
        runs.append((value, arguments))
    return runs


@pytest.mark.parametrize("method", [0, 1, 2, 3])
def test_block_run_kernel_compiled_and_python_agree(jit_on, method):
    from simlab.friction.block import block_run

    h = 1e-3 if method < 2 else 1e-5
    N = 4000

    def arguments():
        out = [np.empty(N + 1) for _ in range(4)]
        return (*out, 0.0, 0.0, 0.0, 0.3 * np.sin(np.arange(N) * h), h, 2.0, 0.1, 1.0, *LUGRE, method)

    (stop_c, args_c), (stop_p, args_p) = _both(block_run, arguments)
    assert stop_c == stop_p == 0
    for a, b in zip(args_c[:4], args_p[:4]):
        _assert_close(a, b)


@pytest.mark.parametrize("static, rk4", [(0, 1), (0, 0), (1, 1)])
def test_explicit_run_kernel_compiled_and_python_agree(jit_on, static, rk4):
    from simlab.friction.block import explicit_run

    def arguments():
        out = np.zeros((20001, 3))
        return out, 0, 5e-5, 2.0, 0.1, 1.0, *LUGRE, static, rk4, 1e8

    (stop_c, args_c), (stop_p, args_p) = _both(explicit_run, arguments)
    assert stop_c == stop_p == 0
    _assert_close(args_c[0], args_p[0])
    assert np.max(args_p[0][:, 1]) > 0.0  # the block moved


def test_explicit_run_kernel_stops_at_the_limit_both_ways(jit_on):
    from simlab.friction.block import explicit_run

    def arguments():
        return np.zeros((20001, 3)), 0, 1e-3, 2.0, 0.1, 1.0, *LUGRE, 0, 0, 1e3

    (stop_c, args_c), (stop_p, args_p) = _both(explicit_run, arguments)
    assert stop_c == stop_p > 0
    _assert_close(args_c[0][:stop_c + 1], args_p[0][:stop_p + 1])


@pytest.mark.parametrize("method", [0, 1, 2, 3])
def test_bristle_response_kernel_compiled_and_python_agree(jit_on, method):
    from simlab.friction.block import bristle_response

    v = 0.002 * np.sin(np.linspace(0.0, 20.0, 5000))

    def arguments():
        return np.empty(len(v)), v, 1e-5, 1e-6, *LUGRE, method

    (_, args_c), (_, args_p) = _both(bristle_response, arguments)
    _assert_close(args_c[0], args_p[0])


def test_block_sweep_kernel_compiled_and_python_agree(jit_on):
    from simlab.friction.sweep import block_sweep

    B, N, h = 3, 3000, 1e-3

    def arguments():
        out = [np.empty((N + 1, B)) for _ in range(3)] + [np.empty((N + 1, 1))]  # z: a scratch column
        columns = [np.full(B, value) for value in LUGRE]
        return (*out, 0.0, 0.0, 0.0, np.zeros((N, 1)), h, np.array([1.0, 2.0, 4.0]), np.full(B, 0.1), np.ones(B),
                *columns, 0)

    (stops_c, args_c), (stops_p, args_p) = _both(block_sweep, arguments)
    np.testing.assert_array_equal(stops_c, stops_p)
    assert not stops_c.any()
    for a, b in zip(args_c[:3], args_p[:3]):
        _assert_close(a, b)
