"""Parameter sweeps: every set of a sweep is the single run with that set's parameters.

Oracle: spring_block / block_with_force, one call per set (themselves checked against the
straightforward loop in tests/test_friction_block.py). Compiled (numba), a sweep runs the single
run's loop per set: the same numbers to the last bit. Without numba (SIMLAB_JIT=0) the sets
advance together in numpy, whose exp of an array differs from math.exp in the last bit: x and v
agree to 1e-12 of their scale; F and z, which the stiff bristle terms make sensitive (sigma1 dz/dt
with sigma1 = 316 N s/m, and the bristle rate sigma0 |v| / g ~ 1e4 1/s), to 1e-10 of theirs.
"""

from dataclasses import replace

import numpy as np
import pytest

from simlab.friction import (
    CANUDAS_1995,
    BlockSweep,
    LuGre,
    block_with_force,
    block_with_force_sweep,
    spring_block,
    spring_block_sweep,
)
from simlab.friction import sweep as sweep_module
from simlab.integrators import NonFiniteStateError

MODEL = LuGre(**CANUDAS_1995)


@pytest.fixture(params=["compiled", "python"])
def jit_mode(request, monkeypatch):
    monkeypatch.setenv("SIMLAB_JIT", "1" if request.param == "compiled" else "0")
    return request.param


def _assert_run_equals(run, single, mode):
    for name in "xvFz":
        a, b = getattr(run, name), getattr(single, name)
        if mode == "compiled":
            np.testing.assert_array_equal(a, b, err_msg=name)
        else:
            scale = np.max(np.abs(b))
            tolerance = 1e-12 if name in "xv" else 1e-10
            np.testing.assert_allclose(a, b, rtol=0, atol=tolerance * scale, err_msg=name)
    np.testing.assert_array_equal(run.t, single.t)


def test_spring_block_sweep_over_a_grid_is_each_single_run(jit_mode):
    ks, v_pulls = np.array([1.5, 2.0, 6.0]), np.array([0.05, 0.1, 0.25])
    sweep = spring_block_sweep(MODEL, ks[:, None], v_pulls[None, :], 1.0, 30.0, 1e-3)
    assert isinstance(sweep, BlockSweep) and sweep.shape == (3, 3) and sweep.v.shape == (30001, 3, 3)
    np.testing.assert_array_equal(sweep.k, np.repeat(ks[:, None], 3, axis=1))
    for i, k in enumerate(ks):
        for j, v_pull in enumerate(v_pulls):
            _assert_run_equals(sweep.run(i, j), spring_block(MODEL, k, v_pull, 1.0, 30.0, 1e-3), jit_mode)
    t, x = sweep  # unpacks as t, x
    assert t is sweep.t and x is sweep.x


def test_sweep_over_friction_parameters_and_masses(jit_mode):
    models = [MODEL, replace(MODEL, Fs=1.3), replace(MODEL, sigma1=50.0, sigma2=0.8)]
    masses = np.array([[1.0], [2.0]])
    sweep = spring_block_sweep(models, 2.0, 0.1, masses, 12.0, 1e-3, method="implicit", x0=1e-3, v0=0.02)
    assert sweep.shape == (2, 3) and sweep.models[1, 2] is models[2]
    for i, m in enumerate(masses[:, 0]):
        for j, model in enumerate(models):
            single = spring_block(model, 2.0, 0.1, m, 12.0, 1e-3, method="implicit", x0=1e-3, v0=0.02)
            _assert_run_equals(sweep.run(i, j), single, jit_mode)


def test_block_with_force_sweep_over_force_rates(jit_mode):
    rates = np.array([0.5, 2.0, 10.0])
    sweep = block_with_force_sweep(MODEL, lambda t: rates * t, 1.0, 1.5, 1e-4)
    assert sweep.shape == (3,) and sweep.k is None and sweep.v_pull is None
    for i, rate in enumerate(rates):
        _assert_run_equals(sweep.run(i), block_with_force(MODEL, lambda t, r=rate: r * t, 1.0, 1.5, 1e-4), jit_mode)


def test_block_with_force_sweep_with_one_force_for_all(jit_mode):
    force = lambda t: 1.2 * np.sin(np.pi * t)  # noqa: E731
    models = [MODEL, replace(MODEL, sigma0=1e4)]
    sweep = block_with_force_sweep(models, force, [1.0, 0.5], 2.0, 1e-4)
    for j, (model, m) in enumerate(zip(models, (1.0, 0.5))):
        _assert_run_equals(sweep.run(j), block_with_force(model, force, m, 2.0, 1e-4), jit_mode)


def test_a_set_that_overflows_stops_the_sweep_with_its_index(jit_mode):
    rates = np.array([1.0, 2.0, 3.0])
    force = lambda t: np.where(rates > 2.5, np.inf, 1.0) if t > 0.0203 else rates * t  # noqa: E731
    with pytest.raises(NonFiniteStateError) as single:
        block_with_force(MODEL, lambda t: np.inf if t > 0.0203 else 3.0 * t, 1.0, 0.1, 1e-3)
    with pytest.raises(NonFiniteStateError, match=r"the state of the set at \(2,\) became inf or NaN") as error:
        block_with_force_sweep(MODEL, force, 1.0, 0.1, 1e-3)
    assert (error.value.step, error.value.steps) == (single.value.step, 100)


@pytest.mark.parametrize("call, kind, fragments", [
    (lambda: spring_block_sweep(MODEL, [[1.0, 2.0]], [0.1, 0.2, 0.3], 1.0, 1.0, 1e-3), ValueError,
     ("must broadcast together", "k (1, 2)", "v_pull (3,)", "ks[:, None]")),
    (lambda: spring_block_sweep(MODEL, [1.0, -2.0], 0.1, 1.0, 1.0, 1e-3), ValueError, ("k must be positive",)),
    (lambda: spring_block_sweep(MODEL, 1.0, 0.1, [1.0, 0.0], 1.0, 1e-3), ValueError, ("m must be positive",)),
    (lambda: spring_block_sweep(MODEL, [1.0, np.nan], 0.1, 1.0, 1.0, 1e-3), ValueError, ("k must be finite",)),
    (lambda: spring_block_sweep(MODEL, [], 0.1, 1.0, 1.0, 1e-3), ValueError, ("no parameter set",)),
    (lambda: spring_block_sweep([MODEL, CANUDAS_1995], 1.0, 0.1, 1.0, 1.0, 1e-3), TypeError,
     ("model[1] must be a LuGre",)),
    (lambda: spring_block_sweep(CANUDAS_1995, 1.0, 0.1, 1.0, 1.0, 1e-3), TypeError, ("model must be a LuGre",)),
    (lambda: spring_block_sweep([], 1.0, 0.1, 1.0, 1.0, 1e-3), TypeError, ("non-empty sequence",)),
    (lambda: spring_block_sweep(MODEL, "2", 0.1, 1.0, 1.0, 1e-3), TypeError, ("k must be a number",)),
    (lambda: spring_block_sweep(MODEL, 1.0, 0.1, 1.0, 1.0, 1e-3, method="rk4"), ValueError, ("method must be one of",)),
    (lambda: spring_block_sweep(MODEL, 1.0, 0.1, 1.0, 1.0, 3e-4), ValueError, ("does not divide",)),
    (lambda: spring_block_sweep(MODEL, np.ones(10**4), 0.1, 1.0, 10.0, 1e-3), ValueError,
     ("MAX_VALUES", "fewer sets", "4 per set and sample")),
    (lambda: spring_block_sweep(MODEL, np.ones(10**5), 0.1, 1.0, 10.0, 1e-3, record="v"), ValueError,
     ("MAX_VALUES", "1 per set and sample")),
    (lambda: block_with_force_sweep(MODEL, 3.0, 1.0, 1.0, 1e-3), TypeError, ("force must be a function",)),
    (lambda: block_with_force_sweep(MODEL, lambda t: np.ones(3) * t, [1.0, 2.0], 1.0, 1e-3), ValueError,
     ("must broadcast together", "force(t) (3,)")),
    (lambda: block_with_force_sweep(MODEL, lambda t: [np.nan], 1.0, 1.0, 1e-3), ValueError,
     ("force(t) at t = 0.0005 s", "finite")),
])
def test_sweeps_refuse_bad_batches_with_a_clear_message(call, kind, fragments):
    with pytest.raises(kind) as error:
        call()
    for fragment in fragments:
        assert fragment in str(error.value)


def test_run_needs_one_index_per_axis():
    sweep = spring_block_sweep(MODEL, [[1.0], [2.0]], [0.1, 0.2], 1.0, 0.01, 1e-3)
    with pytest.raises(ValueError, match=r"one position per axis of the batch shape \(2, 2\)"):
        sweep.run(1)


def test_the_memory_limit_can_be_raised(monkeypatch):
    monkeypatch.setattr(sweep_module, "MAX_VALUES", 100)
    with pytest.raises(ValueError, match="MAX_VALUES = 100"):
        spring_block_sweep(MODEL, [1.0, 2.0], 0.1, 1.0, 0.1, 1e-3)


def test_a_sweep_records_only_the_signals_asked_for(jit_mode):
    full = spring_block_sweep(MODEL, [1.0, 3.0], 0.1, 1.0, 5.0, 1e-3)
    sweep = spring_block_sweep(MODEL, [1.0, 3.0], 0.1, 1.0, 5.0, 1e-3, record=("v", "z"))
    assert sweep.x is None and sweep.F is None
    np.testing.assert_array_equal(sweep.v, full.v)
    np.testing.assert_array_equal(sweep.z, full.z)
    run = sweep.run(1)
    assert run.x is None and np.array_equal(run.v, full.v[:, 1])
    only_v = block_with_force_sweep(MODEL, lambda t: np.array([0.5, 2.0]) * t, 1.0, 1.0, 1e-3, record="v")
    assert only_v.x is None and only_v.v.shape == (1001, 2)
    with pytest.raises(ValueError, match="record must name one or more of the signals 'x', 'v', 'F', 'z'"):
        spring_block_sweep(MODEL, 1.0, 0.1, 1.0, 1.0, 1e-3, record=("speed",))
    with pytest.raises(ValueError, match="record must name"):
        spring_block_sweep(MODEL, 1.0, 0.1, 1.0, 1.0, 1e-3, record=())
