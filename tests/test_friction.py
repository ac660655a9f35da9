"""Friction models: the static curve, LuGre's steady state, the bristle updates, the seed's S-function."""

import warnings

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from simlab.friction import (
    CANUDAS_1995,
    SEED_PARAMETERS,
    LuGre,
    bristle_step,
    static_friction,
    stribeck,
)

MODEL = LuGre(**CANUDAS_1995)


def seed_model():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return LuGre(**SEED_PARAMETERS)


def test_static_curve_definition():
    """Definition (seed 002 eq. 1): sgn(v)(Fc + (Fs - Fc) e^{-|v/vs|^2}) + sigma2 v."""
    v = np.linspace(-0.05, 0.05, 101)
    expected = np.sign(v) * (1.0 + 0.5 * np.exp(-np.abs(v / 0.001) ** 2)) + 0.4 * v
    np.testing.assert_allclose(static_friction(v, 1.0, 1.5, 0.001, 0.4), expected, rtol=1e-14)
    np.testing.assert_allclose(static_friction(-v, 1.0, 1.5, 0.001, 0.4), -expected, rtol=1e-14)


def test_stribeck_limits():
    assert float(stribeck(0.0, 1.0, 1.5, 0.001)) == 1.5
    assert float(stribeck(1.0, 1.0, 1.5, 0.001)) == pytest.approx(1.0)


def test_dynamic_steady_state_equals_the_static_curve():
    """At z = z_ss the bristle rate is zero and the LuGre force is the static curve."""
    v = np.array([-0.1, -0.002, -1e-4, 1e-4, 0.0005, 0.003, 0.2])
    z = MODEL.z_ss(v)
    np.testing.assert_allclose(MODEL.zdot(v, z), 0.0, atol=1e-15)
    np.testing.assert_allclose(MODEL.force(v, z), MODEL.steady_state_force(v), rtol=1e-12)


@pytest.mark.parametrize("v", [-0.05, 1e-4, 0.1])
@pytest.mark.parametrize("T", [1e-5, 1e-3])
def test_exponential_update_is_exact_for_constant_velocity(v, T):
    """Oracle: solve_ivp (Radau, rtol 1e-12) of dz/dt = v - sigma0 |v| z / g(v) with v constant."""
    z0 = -2e-5
    reference = solve_ivp(lambda t, z: MODEL.zdot(v, z), (0, T), [z0], method="Radau",
                          rtol=1e-12, atol=1e-18).y[0, -1]
    assert float(bristle_step(MODEL, z0, v, T, "exponential")) == pytest.approx(reference, rel=1e-9, abs=1e-17)


def test_implicit_euler_is_first_order_and_stable_at_large_steps():
    v, z0, t_end = 0.1, 0.0, 2e-4
    exact = float(bristle_step(MODEL, z0, v, t_end, "exponential"))
    errors = []
    for steps in (10, 20, 40):
        z = z0
        for _ in range(steps):
            z = bristle_step(MODEL, z, v, t_end / steps, "implicit")
        errors.append(abs(float(z) - exact))
    assert np.log2(errors[0] / errors[1]) == pytest.approx(1.0, abs=0.15)
    # T sigma0 |v| / g = 1e-3 * 1e5 * 0.1 / 1 = 1e4: implicit Euler lands near z_ss, no overshoot
    z = float(bristle_step(MODEL, 0.0, v, 1e-3, "implicit"))
    assert 0 < z <= float(MODEL.z_ss(v))


@pytest.mark.parametrize("method, limit", [("euler", 2.0), ("rk4", 2.7853)])
def test_explicit_updates_are_stable_only_below_their_limit(method, limit):
    """Oracle: the stability intervals of lab02 (z h lambda with lambda = -sigma0 |v| / g)."""
    v = 0.1
    rate = MODEL.sigma0 * v / float(MODEL.g(v))
    z_ss = float(MODEL.z_ss(v))
    for factor, grows in ((0.95, False), (1.05, True)):
        T = factor * limit / rate
        z = 0.0
        for _ in range(200):
            z = float(bristle_step(MODEL, z, v, T, method))
        assert (abs(z - z_ss) > abs(z_ss)) == grows


def _seed_listing(v_samples, x0):
    """The seed's S-function, translated line by line (its numbers hard-coded as in the listing)."""
    x = np.array(x0, dtype=float).reshape(2, 1)
    out = []
    for w in v_samples:
        out.append((np.array([[0.4766, 0.2701]]) @ x + 0.0049 * w).item())  # mdlOutputs
        gw = 2.4440 + (0.5991 - 2.4440) * np.exp(-(w / 0.0103) ** 2)
        x = np.array([[1, 0.001], [-0.4766 * (abs(w) / gw), 0]]) @ x + np.array([[0], [1]]) * w  # mdlUpdate
    return np.array(out)


@pytest.mark.parametrize("x0", [(0.0, 0.0), (0.0, -10.0)])
def test_sfunction_replays_the_seed_listing(x0):
    t = 0.001 * np.arange(5000)
    v = 0.02 * np.sin(2 * np.pi * t)
    result = seed_model().sfunction(v, Ts=0.001, x0=x0)
    np.testing.assert_allclose(result.F, _seed_listing(v, x0), rtol=1e-13, atol=1e-13)
    assert result.x.shape == (5000, 2)


def test_fc_above_fs_is_allowed_with_a_warning():
    with pytest.warns(UserWarning, match="Fc = 2.444 > Fs = 0.5991"):
        LuGre(**SEED_PARAMETERS)


@pytest.mark.parametrize(
    "change, message",
    [({"vs": 0.0}, "vs must be positive"), ({"Fc": -1.0}, "Fc and Fs must be >= 0"),
     ({"sigma0": 0.0}, "sigma0 must be positive"), ({"sigma1": -1.0}, "sigma1 must be >= 0"),
     ({"Fs": float("nan")}, "Fs must be a finite number")],
)
def test_bad_parameters_are_rejected(change, message):
    with pytest.raises(ValueError, match=message):
        LuGre(**{**CANUDAS_1995, **change})


def test_bad_sfunction_inputs_are_rejected():
    with pytest.raises(ValueError, match="Ts must be positive"):
        MODEL.sfunction([0.0, 0.1], Ts=0.0)
    with pytest.raises(ValueError, match="v must be finite"):
        MODEL.sfunction([0.0, np.inf])
    with pytest.raises(ValueError, match="method must be one of"):
        bristle_step(MODEL, 0.0, 0.1, 1e-3, "trapezoid")


def _stick_slip_metrics(t, v, threshold=0.05):
    """Period (mean spacing of slip onsets, v crossing threshold upward, after two cycles) and peak speed."""
    onsets = t[np.flatnonzero((v[:-1] < threshold) & (v[1:] >= threshold))]
    return float(np.mean(np.diff(onsets)[2:])), float(np.max(v))


@pytest.fixture(scope="module")
def radau_stick_slip():
    """Oracle: solve_ivp(method="Radau", rtol 1e-9) on the spring-block with LuGre friction, 30 s."""
    p = CANUDAS_1995

    def f(t, y):
        x, v, z = (float(value) for value in y)
        g = p["Fc"] + (p["Fs"] - p["Fc"]) * math.exp(-(v / p["vs"]) ** 2)
        zdot = v - p["sigma0"] * abs(v) * z / g
        F = p["sigma0"] * z + p["sigma1"] * zdot + p["sigma2"] * v
        return [v, 2.0 * (0.1 * t - x) - F, zdot]

    solution = solve_ivp(f, (0, 30), [0, 0, 0], method="Radau", rtol=1e-9, atol=1e-12, dense_output=True)
    t = np.linspace(0, 30, 300001)
    return _stick_slip_metrics(t, solution.sol(t)[1])


@pytest.mark.parametrize("method", ["exponential", "implicit"])
def test_stick_slip_period_and_peak_speed_match_radau(method, radau_stick_slip):
    from simlab.friction import spring_block

    result = spring_block(MODEL, k=2.0, v_pull=0.1, m=1.0, t_end=30.0, h=1e-3, method=method)
    period, peak = _stick_slip_metrics(result.t, result.v)
    assert period == pytest.approx(radau_stick_slip[0], rel=2e-3)
    assert peak == pytest.approx(radau_stick_slip[1], rel=2e-3)


def test_spring_block_sticks_between_slips():
    from simlab.friction import spring_block

    result = spring_block(MODEL, 2.0, 0.1, 1.0, 20.0, 1e-3)
    stuck = np.abs(result.v) < 1e-3
    assert 0.3 < stuck.mean() < 0.95  # most of the time stuck, with slips in between
    assert np.max(np.abs(result.F)) < MODEL.Fs * 1.05


def test_explicit_rk4_is_wrong_above_its_bristle_limit(radau_stick_slip):
    """Above 2.785 / (sigma0 |v| / g) RK4 does not blow up here: the bristle state flips between
    two values and the block never slips properly (peak speed far too low). Below it, RK4 agrees."""
    from simlab.friction import spring_block

    coarse = spring_block(MODEL, 2.0, 0.1, 1.0, 20.0, 1e-3, method="rk4")
    assert np.max(coarse.v) < 0.5 * radau_stick_slip[1]
    fine = spring_block(MODEL, 2.0, 0.1, 1.0, 20.0, 5e-5, method="rk4")
    assert np.max(fine.v) == pytest.approx(radau_stick_slip[1], rel=5e-3)


def test_spring_block_result_fields_and_bad_input():
    from simlab.friction import spring_block

    result = spring_block(MODEL, 2.0, 0.1, 1.0, 1.0, 1e-3)
    t, x = result
    assert t.shape == x.shape == result.v.shape == result.F.shape == (1001,)
    with pytest.raises(ValueError, match="k must be positive"):
        spring_block(MODEL, 0.0, 0.1, 1.0, 1.0, 1e-3)
    with pytest.raises(ValueError, match="method must be one of"):
        spring_block(MODEL, 2.0, 0.1, 1.0, 1.0, 1e-3, method="leapfrog")
    with pytest.raises(TypeError, match="LuGre parameter set"):
        spring_block(CANUDAS_1995, 2.0, 0.1, 1.0, 1.0, 1e-3)


def test_passivity_limit_is_astrom_canudas_2008_eq7():
    """Oracle: eq. (7) of Astrom and Canudas-de-Wit (2008), sigma2 > sigma1 (Fs - Fc)/Fc, by hand."""
    assert MODEL.sigma1_passive_limit == pytest.approx(0.4 * 1.0 / 0.5)
    with pytest.warns(UserWarning, match="exceeds the passivity limit"):
        assert not MODEL.check_passivity()
    assert LuGre(**{**CANUDAS_1995, "sigma1": 0.5}).check_passivity()
    assert seed_model().sigma1_passive_limit == float("inf")  # Fs < Fc: no Stribeck dip
    assert seed_model().check_passivity()


def test_passivity_check_can_be_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert MODEL.check_passivity(warn=False) is False


def test_velocity_response_settles_on_the_static_curve():
    from simlab.friction import velocity_response

    result = velocity_response(MODEL, np.full(2000, 0.01), 1e-4)
    assert result.F[-1] == pytest.approx(float(MODEL.steady_state_force(0.01)), rel=1e-9)


def test_velocity_response_with_the_seed_model_matches_solve_ivp():
    """Oracle: solve_ivp (Radau) of the bristle equation for v(t) = 0.02 sin(2 pi t), the seed's
    non-stiff parameters, compared at the samples (v held over each 0.1 ms step: O(T) error)."""
    from simlab.friction import velocity_response

    model = seed_model()
    T = 1e-4
    t = T * np.arange(20001)
    result = velocity_response(model, 0.02 * np.sin(2 * np.pi * t), T)
    p = model  # the bristle equation written out (math on floats: fast, and independent of simlab)

    def zdot(tt, z):
        v = 0.02 * math.sin(2 * math.pi * tt)
        g = p.Fc + (p.Fs - p.Fc) * math.exp(-abs(v / p.vs) ** p.n)
        return [v - p.sigma0 * abs(v) * float(z[0]) / g]

    reference = solve_ivp(zdot, (0, t[-1]), [0.0], t_eval=t, method="Radau", rtol=1e-10, atol=1e-14).y[0]
    np.testing.assert_allclose(result.z, reference, atol=2e-6)


def test_frictional_lag_loop_shrinks_with_frequency():
    """Canudas de Wit et al. (1995): the F-v hysteresis loop for v = v0 (1 + sin wt) narrows its
    force swing as the frequency grows (the friction lags the velocity)."""
    from simlab.friction import velocity_response

    T = 1e-4
    t = np.arange(0, 4, T)
    swings = []
    for f in (1.0, 10.0, 25.0):
        F = velocity_response(MODEL, 0.00125 * (1 + np.sin(2 * np.pi * f * t)), T).F[len(t) // 2:]
        swings.append(F.max() - F.min())
    assert swings[0] > swings[1] > swings[2]


def test_break_away_force_falls_with_the_force_rate():
    """Canudas de Wit et al. (1995): the break-away force drops when the applied force rises faster."""
    from simlab.friction import block_with_force

    forces = []
    for rate in (0.5, 5.0, 50.0):
        t_end = 3.0 / rate
        result = block_with_force(MODEL, lambda t, r=rate: r * t, 1.0, t_end, t_end / 30000)
        first = np.flatnonzero(np.abs(result.v) > 1e-3)[0]
        forces.append(rate * result.t[first])
    assert forces[0] > forces[1] > forces[2]
    assert forces[0] == pytest.approx(MODEL.Fs, rel=0.05)


def test_pre_sliding_displacement_is_spring_like_below_fs():
    """A force below Fs moves the block only by the bristle deflection scale Fs/sigma0 (pre-sliding)."""
    from simlab.friction import block_with_force

    result = block_with_force(MODEL, lambda t: 0.8 * MODEL.Fs * np.sin(np.pi * t), 1.0, 4.0, 1e-4)
    assert np.max(np.abs(result.x)) < 5 * MODEL.Fs / MODEL.sigma0
    assert np.max(np.abs(result.v)) < 1e-3
