"""Lab 08 experiments: the seed's S-function, its stability, the classic LuGre behaviours."""

import math

import numpy as np
import pytest
import sympy as sp

from simlab.course import lab08_lugre as lab
from simlab.friction import CANUDAS_1995, SpringBlockResult


def test_seed_initial_state_remark():
    """Seed 000: x0 = [0; -10] removes the error at t = 0 (x2 is dz/dt, and dz/dt(0) = v(0) = -10);
    the remaining difference is the sampling error of Ts = 1 ms, about 1e-2 N."""
    runs = lab.seed_comparison(t_end=4.0).runs
    assert runs[(0.0, 0.0)].error_at_0 == pytest.approx(0.2701 * 10, rel=1e-9)  # sigma1 |v(0)|
    assert runs[(0.0, -10.0)].error_at_0 < 1e-12
    assert runs[(0.0, -10.0)].max_error_after_0 < 0.02


def test_seed_scheme_characteristic_equation():
    """Oracle: sympy. For constant v the seed recurrence z[k+1] = z[k] + Ts (v - a z[k-1]) has the
    characteristic polynomial lambda^2 - lambda + a Ts; its roots leave the unit circle at a Ts = 1."""
    lam, c, k = sp.symbols("lambda c k")
    z = sp.Function("z")
    recurrence = z(k + 1) - z(k) + c * z(k - 1)  # homogeneous part
    trial = recurrence.subs({z(k + 1): lam ** (k + 1), z(k): lam**k, z(k - 1): lam ** (k - 1)})
    assert sp.simplify(trial / lam ** (k - 1) - (lam**2 - lam + c)) == 0
    assert lab.seed_scheme_limit() == pytest.approx(1.0)
    assert np.max(np.abs(lab.seed_scheme_roots(0.99))) < 1 < np.max(np.abs(lab.seed_scheme_roots(1.01)))


def test_seed_scheme_blows_up_where_the_exponential_update_does_not():
    blowup = lab.seed_scheme_blowup()
    assert blowup.a_Ts == pytest.approx(10.0, rel=1e-3)
    assert blowup.seed_max_abs_F > 1e10
    np.testing.assert_allclose(blowup.exponential_F[5:], blowup.steady, rtol=1e-9)


def test_fc_above_fs_turns_the_stribeck_dip_into_a_rise():
    curves = lab.stribeck_curves()
    positive = curves.v > 0
    assert np.all(np.diff(curves.seed[positive]) > 0)  # Fc > Fs: rises with speed
    assert np.diff(curves.swapped[positive])[0] < 0  # the usual case falls first


def _radau_break_away(rate):
    """Oracle: the block (x, v, z) under the applied force rate * t by scipy's Radau, the LuGre equations
    written out here; the break-away is the friction force at its first maximum, on the dense output."""
    from scipy.integrate import solve_ivp

    p = CANUDAS_1995

    def friction(v, z):
        g = p["Fc"] + (p["Fs"] - p["Fc"]) * np.exp(-((v / p["vs"]) ** 2))
        zdot = v - p["sigma0"] * np.abs(v) * z / g
        return p["sigma0"] * z + p["sigma1"] * zdot + p["sigma2"] * v, zdot

    def rhs(t, y):
        x, v, z = (float(value) for value in y)  # floats: numpy's scalar arithmetic is slow
        F, zdot = friction(v, z)
        return [v, rate * t - F, zdot]  # m = 1 kg

    t_end = 3.0 / rate
    solution = solve_ivp(rhs, (0.0, t_end), [0.0, 0.0, 0.0], method="Radau", rtol=1e-10, atol=1e-14,
                         dense_output=True, max_step=t_end / 3000)
    t = np.linspace(0.0, t_end, 300001)
    x, v, z = solution.sol(t)
    F = friction(v, z)[0]
    first_fall = np.flatnonzero(np.diff(F) < 0)[0]
    return t[first_fall], F[first_fall]


def test_break_away_force_is_the_friction_maximum_and_agrees_with_radau():
    """Canudas de Wit et al. (1995): the break-away force (the friction when the block starts to slide,
    here its first maximum) falls with the rate of the applied force; it stays above Fc."""
    breaks = lab.break_away()
    for row in breaks.rows:
        t_radau, F_radau = _radau_break_away(row.rate)
        assert row.force == pytest.approx(F_radau, rel=1e-4), row.rate
        assert row.t == pytest.approx(t_radau, rel=1e-3), row.rate
        assert row.applied == pytest.approx(row.rate * row.t, rel=1e-12)
    assert breaks.force_at(0.5) == pytest.approx(1.4571, abs=5e-4)
    assert breaks.force_at(50.0) == pytest.approx(1.0075, abs=5e-4)
    forces = breaks.forces
    assert all(a > b for a, b in zip(forces, forces[1:]))
    assert breaks.Fc < min(forces) and max(forces) < breaks.Fs
    # at the break-away the block has left pre-sliding: a few times Fs / sigma0
    assert all(1.5 < row.x / breaks.scale < 5.0 for row in breaks.rows)
    # the old rule (applied force at |v| > 1 mm/s) fires inside pre-sliding at 50 N/s, below Fc:
    # the elastic pre-sliding speed rate / sigma0 is already 0.5 mm/s there
    fast = breaks.rows[-1]
    assert fast.threshold_force < breaks.Fc and fast.rate / breaks.sigma0 == pytest.approx(5e-4)


def test_break_away_index_needs_a_fall_of_the_friction():
    assert lab.break_away_index([0.0, 1.0, 1.2, 1.1, 1.3]) == 2
    with pytest.raises(ValueError, match="longer"):
        lab.break_away_index([0.0, 1.0, 2.0])


def test_stick_slip_matches_radau_within_half_a_percent():
    slip = lab.stick_slip(t_end=30.0)
    reference = lab.radau_stick_slip(t_end=30.0)
    assert slip.period == pytest.approx(reference.period, rel=5e-3)
    assert slip.peak == pytest.approx(reference.peak, rel=5e-3)


def test_static_model_result_depends_on_the_step():
    coarse, fine = lab.static_spring_block(1e-3, 20.0), lab.static_spring_block(1e-4, 20.0)
    assert abs(coarse.stuck_fraction - fine.stuck_fraction) > 0.2


def test_step_size_study_reports_each_outcome():
    reference = lab.radau_stick_slip(t_end=30.0)
    study = lab.step_size_study(reference, cases=(("exponential", (1e-3,)), ("rk4", (1e-3,))))
    exponential, rk4 = study.row("exponential", 1e-3), study.row("rk4", 1e-3)
    assert exponential.status == "ok" and abs(exponential.period_error) < 5e-3
    assert rk4.status in ("blew up", "wrong")


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab08Results)
    assert isinstance(data.comparison, lab.SeedComparison) and isinstance(data.behaviours, lab.LuGreBehaviours)
    assert isinstance(data.behaviours.stick_slip.block, SpringBlockResult)
    assert all(isinstance(entry, lab.StaticSpringBlock) for entry in data.static.values())
    assert isinstance(data.stick_slip_map, lab.StickSlipMap)
    t, F = data.comparison  # time-series results unpack as t, <main output>
    assert t is data.comparison.t and F is data.comparison.F_continuous
    assert data.reference[0] == data.reference.period  # StickSlipMetrics unpacks as period, peak
    drawn = {figure.stem: figure for figure in result.figures}
    assert drawn["lab08_sfunction"].data is data.comparison
    assert drawn["lab08_behaviours"].data is data.behaviours
    assert drawn["lab08_stick_slip_map"].data is data.stick_slip_map
    for figure in result.figures:
        fig = figure.draw(figure.data)
        assert fig.axes, figure.stem
        plt.close(fig)


# ---------------------------------------------------------------------------------------------
# Part G: the stick-slip map
# ---------------------------------------------------------------------------------------------


def _lugre_rhs(k, v_pull, m=1.0):
    """Oracle: the spring-block with LuGre friction written out here, states (x, v, z)."""
    p = CANUDAS_1995

    def rhs(t, y):
        x, v, z = (float(value) for value in y)
        g = p["Fc"] + (p["Fs"] - p["Fc"]) * math.exp(-((v / p["vs"]) ** 2))
        zdot = v - p["sigma0"] * abs(v) * z / g
        return [v, (k * (v_pull * t - x) - (p["sigma0"] * z + p["sigma1"] * zdot + p["sigma2"] * v)) / m, zdot]

    return rhs


def _classify(t, v, v_pull):
    """Oracle: sticks if |v| < 1 % of v_pull in the second half; period of the onsets (v up through v_pull / 2)."""
    sticks = np.min(np.abs(v[t >= 0.5 * t[-1]])) < 0.01 * v_pull
    onsets = t[np.flatnonzero((v[:-1] < 0.5 * v_pull) & (v[1:] >= 0.5 * v_pull))]
    period = float(np.mean(np.diff(onsets)[1:])) if sticks and len(onsets) >= 3 else np.nan
    return sticks, period, float(np.max(v))


def test_stick_slip_map_is_the_single_runs_at_every_point():
    from simlab.friction import spring_block

    stick_map = lab.stick_slip_map()
    assert stick_map.period.shape == stick_map.peak.shape == (len(lab.K_MAP), len(lab.V_PULL_MAP))
    for i, k in enumerate(stick_map.k):
        for j, v_pull in enumerate(stick_map.v_pull):
            run = spring_block(lab.classic_model(), k, v_pull, 1.0, 40.0, 1e-3)
            sticks, period, peak = _classify(run.t, run.v, v_pull)
            assert stick_map.sticks[i, j] == sticks, (k, v_pull)
            np.testing.assert_allclose([stick_map.period[i, j], stick_map.peak[i, j]], [period, peak], rtol=1e-12)
    # the classic point: the map's period is Task D1's (the threshold v_pull / 2 is its 0.05 m/s)
    assert stick_map.period[list(stick_map.k).index(2.0), list(stick_map.v_pull).index(0.1)] == lab.stick_slip().period
    # stick-slip at slow pulls, sliding at fast ones, for every k; the boundary falls with k
    assert stick_map.sticks[:, 0].all() and not stick_map.sticks[:, -1].any()
    assert np.all(np.diff(stick_map.boundary) <= 0) and stick_map.boundary[0] > stick_map.boundary[-1]


@pytest.mark.parametrize("k, v_pull", [(2.0, 0.05), (16.0, 0.1), (8.0, 0.2)])
def test_stick_slip_map_agrees_with_lsoda(k, v_pull):
    """Oracle: solve_ivp(LSODA, its stiff switching; as exact as Radau here and 10x cheaper) of the
    equations written out here, classified the same way."""
    from scipy.integrate import solve_ivp

    stick_map = lab.stick_slip_map()
    i, j = list(stick_map.k).index(k), list(stick_map.v_pull).index(v_pull)
    solution = solve_ivp(_lugre_rhs(k, v_pull), (0.0, 40.0), [0.0, 0.0, 0.0], method="LSODA", rtol=1e-8, atol=1e-11,
                         dense_output=True)
    t = np.linspace(0.0, 40.0, 400001)
    sticks, period, peak = _classify(t, solution.sol(t)[1], v_pull)
    assert stick_map.sticks[i, j] == sticks
    assert stick_map.peak[i, j] == pytest.approx(peak, rel=5e-3)
    if sticks:
        assert stick_map.period[i, j] == pytest.approx(period, rel=5e-3)
    else:
        assert np.isnan(stick_map.period[i, j])


@pytest.mark.parametrize("k, v_pull", [(2.0, 0.1), (16.0, 0.05), (2.0, 0.004), (2.0, 0.0012), (32.0, 0.0005)])
def test_steady_sliding_roots_are_the_eigenvalues_of_the_linearisation(k, v_pull):
    """Oracle: the Jacobian of the equations in the spring's stretch (v_pull t - x), v and z, by central
    differences at steady sliding, and its eigenvalues."""
    model = lab.classic_model()
    rhs = _lugre_rhs(k, v_pull)

    def f(state):  # states: stretch s = v_pull t - x, v, z (autonomous)
        s, v, z = state
        _, vdot, zdot = rhs(0.0, [-s, v, z])
        return np.array([v_pull - v, vdot, zdot])

    steady = np.array([float(model.steady_state_force(v_pull)) / k, v_pull, float(model.z_ss(v_pull))])
    steps = 1e-7 * np.maximum(np.abs(steady), 1e-9)
    J = np.column_stack([(f(steady + e) - f(steady - e)) / (2 * e[n]) for n, e in enumerate(np.diag(steps))])
    expected = np.sort_complex(np.linalg.eigvals(J))
    roots = np.sort_complex(lab.steady_sliding_roots(k, v_pull))
    np.testing.assert_allclose(roots, expected, rtol=1e-5)
    assert (np.max(roots.real) < 0) == (v_pull > 0.003)  # unstable only on the Stribeck dip, below about 3 vs


def test_first_slip_minimum_is_the_damped_oscillation_of_the_estimate():
    """Oracle: m e'' + sigma2 e' + k e = 0 from e'(0) = -v_pull, m e''(0) = Fs - Fc, by solve_ivp; the
    velocity v_pull + e' at its first minimum after its first maximum."""
    from scipy.integrate import solve_ivp

    p = CANUDAS_1995
    for k, v_pull in ((2.0, 0.1), (2.0, 0.3), (32.0, 0.05), (0.5, 2.0)):
        e0 = -(p["Fs"] - p["Fc"] - p["sigma2"] * v_pull) / k  # k e(0) = Fc + sigma2 v_pull - Fs
        t = np.linspace(0.0, 6 * np.pi / np.sqrt(k), 200001)
        solution = solve_ivp(lambda _, y: [y[1], -(p["sigma2"] * y[1] + k * y[0])], (0.0, t[-1]), [e0, -v_pull],
                             t_eval=t, rtol=1e-11, atol=1e-14)
        v = v_pull + solution.y[1]
        first_max = np.flatnonzero((v[1:-1] > v[:-2]) & (v[1:-1] >= v[2:]))[0] + 1
        after = v[first_max:]
        first_min = np.flatnonzero((after[1:-1] < after[:-2]) & (after[1:-1] <= after[2:]))[0] + 1
        assert lab.first_slip_minimum(k, v_pull) == pytest.approx(after[first_min], abs=1e-7), (k, v_pull)
        assert lab.first_slip_minimum(k, lab.critical_pull_speed(k)) == pytest.approx(0.0, abs=1e-9)


def test_the_estimate_follows_the_maps_boundary():
    """The estimate lies in the grid's bracket of the boundary, or above it by less than half a step."""
    stick_map = lab.stick_slip_map()
    step = np.diff(stick_map.v_pull)[0]
    for sticks, estimate in zip(stick_map.sticks, stick_map.critical_v_pull):
        up_to, slides = stick_map.v_pull[sticks].max(), stick_map.v_pull[~sticks].min()
        assert slides == pytest.approx(up_to + step)  # one boundary per k, no islands
        assert up_to < estimate < slides + 0.5 * step
    assert stick_map.max_real_root < 0  # steady sliding is linearly stable at every grid point


def test_steady_sliding_is_stable_where_the_block_from_rest_stick_slips():
    sliding = lab.steady_sliding_start(kick=0.5)
    late = sliding.t >= 20.0
    assert np.allclose(sliding.v[late], lab.V_PULL, rtol=2e-2)
    slip = lab.stick_slip()
    assert np.min(np.abs(slip.v[slip.t >= 20.0])) < 1e-3 * lab.V_PULL
