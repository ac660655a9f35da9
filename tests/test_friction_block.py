"""The block simulators run on kernels (simlab.jit): the same numbers as the straightforward loops.

Oracles, each written out here and independent of the kernels' loops:
* the block loop as simlab had it before the kernels (the friction model's stepper per step, the
  applied force called at each mid-step), for spring_block and block_with_force;
* simlab.integrators.euler / rk4 with the right-hand side as a Python function, for the explicit
  methods (with the integrators' own guards: UnstableRunError, NonFiniteStateError);
* the model's stepper in a loop, for velocity_response.
Each simulator runs compiled (numba) and as plain Python (SIMLAB_JIT=0); both must give the
oracle's numbers to the last bit.
"""

import math

import numpy as np
import pytest

from simlab import integrators
from simlab.friction import CANUDAS_1995, LuGre, StaticFriction, block_with_force, spring_block, velocity_response
from simlab.guards import UnstableRunError, unstable_growth_allowed
from simlab.integrators import NonFiniteStateError

MODEL = LuGre(**CANUDAS_1995)
STATIC = StaticFriction(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4)


@pytest.fixture(params=["compiled", "python"])
def jit_mode(request, monkeypatch):
    """Run the test with compilation on (numba) and off (SIMLAB_JIT=0)."""
    monkeypatch.setenv("SIMLAB_JIT", "1" if request.param == "compiled" else "0")
    return request.param


def _loop(model, applied, m, t_end, h, method, x0=0.0, v0=0.0, z0=0.0):
    """The block loop before the kernels: the model's stepper, applied(t_mid, x_mid) at each mid-step."""
    step = model.stepper(method)
    N = round(t_end / h)
    h = t_end / N
    t = h * np.arange(N + 1)
    xs, vs, Fs, zs = np.empty(N + 1), np.empty(N + 1), np.empty(N + 1), np.empty(N + 1)
    x, v, z = x0, v0, z0
    for i in range(N + 1):
        z_next, F, F_start = step(z, v, h)
        xs[i], vs[i], Fs[i], zs[i] = x, v, F_start, z
        if i == N:
            break
        v_next = v + h * (float(applied(t[i] + 0.5 * h, x + 0.5 * h * v)) - F) / m
        x = x + 0.5 * h * (v + v_next)
        v, z = v_next, z_next
        if not (math.isfinite(x) and math.isfinite(v)):
            raise NonFiniteStateError("loop", step=i + 1)
    return xs, vs, Fs, zs


def _assert_same(result, expected):
    for name, values in zip("xvFz", expected):
        np.testing.assert_array_equal(getattr(result, name), values, err_msg=name)


@pytest.mark.parametrize("method", ["exponential", "implicit"])
def test_spring_block_is_the_block_loop_to_the_last_bit(method, jit_mode):
    result = spring_block(MODEL, 2.0, 0.1, 1.0, 8.0, 1e-3, method=method, x0=1e-6, v0=0.01, z0=1e-6)
    expected = _loop(MODEL, lambda t, x: 2.0 * (0.1 * t - x), 1.0, 8.0, 1e-3, method, 1e-6, 0.01, 1e-6)
    _assert_same(result, expected)
    assert np.count_nonzero(np.diff(np.sign(result.v - 0.05)) > 0) >= 1  # it slipped


@pytest.mark.parametrize("force", [lambda t: 1.2 * np.sin(np.pi * t),  # takes arrays: one call
                                   lambda t: 2.0 * t if t < 0.6 else math.cos(t)],  # numbers only
                         ids=["vectorized", "per-time"])
def test_block_with_force_is_the_block_loop_to_the_last_bit(force, jit_mode):
    result = block_with_force(MODEL, force, 1.0, 2.0, 1e-4)
    _assert_same(result, _loop(MODEL, lambda t, x: force(t), 1.0, 2.0, 1e-4, "exponential"))


def test_block_with_force_stops_where_the_state_becomes_infinite(jit_mode):
    force = lambda t: np.inf if t > 0.0103 else 0.5  # noqa: E731
    with pytest.raises(NonFiniteStateError) as expected:
        _loop(MODEL, lambda t, x: force(t), 1.0, 0.1, 1e-3, "implicit")
    with pytest.raises(NonFiniteStateError, match="block_with_force .implicit.: the state became inf or NaN") as error:
        block_with_force(MODEL, force, 1.0, 0.1, 1e-3, method="implicit")
    assert (error.value.step, error.value.steps, error.value.method) == (expected.value.step, 100, "implicit")
    assert error.value.t == pytest.approx(expected.value.step * 1e-3) and error.value.h == pytest.approx(1e-3)


def _rates(model, k=2.0, v_pull=0.1, m=1.0):
    """The spring-block's right-hand side for the integrators, over Python floats."""
    def f(t, state):
        x, v, z = (float(value) for value in state)
        g = model.Fc + (model.Fs - model.Fc) * math.exp(-abs(v / model.vs) ** model.n)
        if isinstance(model, StaticFriction):
            F, zdot = math.copysign(g, v) * (v != 0.0) + model.sigma2 * v, 0.0
        else:
            zdot = v - model.sigma0 * abs(v) * z / g
            F = model.sigma0 * z + model.sigma1 * zdot + model.sigma2 * v
        return np.array([v, (k * (v_pull * t - x) - F) / m, zdot])

    return f


@pytest.mark.parametrize("model, method, h", [(MODEL, "rk4", 5e-5), (MODEL, "euler", 2e-5), (STATIC, "rk4", 1e-3)],
                         ids=["lugre-rk4", "lugre-euler", "static-rk4"])
def test_explicit_methods_are_the_integrators_to_the_last_bit(model, method, h, jit_mode):
    t_end = 0.5 if model is MODEL else 10.0
    result = spring_block(model, 2.0, 0.1, 1.0, t_end, h, method=method)
    t, states = integrators.integrate(_rates(model), (0.0, t_end), [0.0, 0.0, 0.0], h, method=method)
    np.testing.assert_array_equal(result.t, t)
    np.testing.assert_array_equal(np.stack([result.x, result.v, result.z], axis=1), states)


def _numpy_rates(t, state):
    """The right-hand side over numpy scalars (numpy's exp, inf on overflow), as the old path had it."""
    x, v, z = state
    g = MODEL.Fc + (MODEL.Fs - MODEL.Fc) * np.exp(-abs(v / MODEL.vs) ** MODEL.n)
    zdot = v - MODEL.sigma0 * abs(v) * z / g
    return np.array([v, 2.0 * (0.1 * t - x) - (MODEL.sigma0 * z + MODEL.sigma1 * zdot + MODEL.sigma2 * v), zdot])


def test_explicit_rk4_agrees_with_the_integrators_on_numpy_scalars():
    """The old path gave the integrators numpy scalars (numpy's exp); the kernel works on floats
    (math.exp): the two differ in the last bits, far below 1e-12 at a stable step. The spring
    starts stretched by 0.7 m (1.4 N, just under the break-away force), so that 3.5 s hold the
    end of a stick, a whole slip and the next stick."""
    result = spring_block(MODEL, 2.0, 0.1, 1.0, 3.5, 5e-5, method="rk4", x0=-0.7)
    _, states = integrators.rk4(_numpy_rates, (0.0, 3.5), [-0.7, 0.0, 0.0], 5e-5)
    assert np.max(states[:, 1]) > 0.3 and abs(states[-1, 1]) < 1e-3  # a slip, then sticking again
    for column, name in enumerate("xvz"):
        scale = np.max(np.abs(states[:, column]))
        np.testing.assert_allclose(getattr(result, name), states[:, column], rtol=0, atol=1e-12 * scale)


def test_explicit_methods_stop_as_the_integrators_do(jit_mode):
    """Above the bristle limit Euler grows unstably: UnstableRunError at the integrators' step.

    (The oracle runs on numpy scalars: within the block of 256 steps that the integrators finish
    before their check, the state overflows, which plain floats would refuse.)"""
    with pytest.raises(UnstableRunError) as expected:
        integrators.euler(_numpy_rates, (0.0, 10.0), [0.0, 0.0, 0.0], 1e-3)
    with pytest.raises(UnstableRunError, match="euler: the run is unstable") as error:
        spring_block(MODEL, 2.0, 0.1, 1.0, 10.0, 1e-3, method="euler")
    assert (error.value.step, error.value.steps, error.value.t, error.value.h) == \
           (expected.value.step, expected.value.steps, expected.value.t, expected.value.h)
    assert error.value.h_limit == pytest.approx(expected.value.h_limit, rel=1e-3)


def test_without_the_growth_guard_the_explicit_run_goes_on_to_inf(jit_mode):
    """With the guard off the run goes on until inf or NaN: NonFiniteStateError. (Compiled, the
    floats overflow to inf as numpy's do, at the integrators' step; plain Python floats raise
    OverflowError a little earlier, at x ** n, which counts as that step's inf.)"""
    with unstable_growth_allowed():
        with pytest.raises(NonFiniteStateError) as expected:
            integrators.euler(_numpy_rates, (0.0, 10.0), [0.0, 0.0, 0.0], 1e-3)
        with pytest.raises(NonFiniteStateError, match="euler: the state became inf or NaN at step") as error:
            spring_block(MODEL, 2.0, 0.1, 1.0, 10.0, 1e-3, method="euler")
    assert type(error.value) is type(expected.value) is NonFiniteStateError
    if jit_mode == "compiled":
        assert str(error.value) == str(expected.value)
    else:
        assert expected.value.step - 3 <= error.value.step <= expected.value.step


def test_static_model_needs_an_explicit_method():
    with pytest.raises(ValueError, match="'euler' or 'rk4' for a StaticFriction"):
        spring_block(STATIC, 2.0, 0.1, 1.0, 1.0, 1e-3)
    with pytest.raises(TypeError, match="LuGre parameter set"):
        block_with_force(STATIC, lambda t: t, 1.0, 1.0, 1e-3)


@pytest.mark.parametrize("method", ["exponential", "implicit", "euler", "rk4"])
def test_velocity_response_is_the_stepper_loop_to_the_last_bit(method, jit_mode):
    T = 1e-5 if method in ("euler", "rk4") else 1e-4
    v = 0.00125 * (1 + np.sin(2 * np.pi * 10 * T * np.arange(4000)))
    step, z = MODEL.stepper(method), [2e-6]
    for v_k in v[:-1].tolist():
        z.append(step(z[-1], v_k, T)[0])
    result = velocity_response(MODEL, v, T, method=method, z0=2e-6)
    np.testing.assert_array_equal(result.z, z)
    np.testing.assert_array_equal(result.F, MODEL.force(v, np.array(z)))
