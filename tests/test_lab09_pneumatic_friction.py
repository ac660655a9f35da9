"""Lab 09: the parameter estimates replayed from the text, and the claims of seed 002 checked."""

import math
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from simlab.course import lab09_pneumatic_friction as lab
from simlab.plants.pneumatic import CylinderParameters, flow_factor, valve_mass_flow


@pytest.fixture(scope="module")
def low():
    return lab.constant_input_study()


@pytest.fixture(scope="module")
def high():
    return lab.smooth_motion_study()


def test_valve_estimates_replay_the_text():
    est = lab.valve_estimates()
    P = lab.cylinder_parameters()
    T = lab.TEXT
    kRT, RT = P.k * P.R * P.Ts, P.R * P.Ts
    # eq. (15) with the estimates gives back the two mass flows read off figs. 7 and 8
    p_low = P.patm + 0.5 * T.p1_breakaway
    assert valve_mass_flow(2.875, p_low, P) == pytest.approx(est.mdot_low, rel=1e-9)
    assert valve_mass_flow(2.99, P.patm + T.p1_max_high, P) == pytest.approx(est.mdot_high, rel=1e-9)
    # the piston still for 1.8 s: p1 rises by 0.022 MPa in the chamber volume at x0
    V1 = P.V10 + P.A1 * T.x0_low
    assert est.mdot_low * kRT / V1 * T.t_stick_1 == pytest.approx(T.p1_breakaway, rel=1e-12)
    # the first slip of 10 mm: a mass-spring-damper (M = 1.3 kg, the estimated sigma2, k_air) that
    # the friction drop Fb - Fc sets off comes to its first stop after 10 mm (solve_ivp replay)
    dF, c, M, k = T.F_breakaway - T.F_sliding_min, lab.friction_estimates().sigma2, T.M_exp, est.k_air
    stop = lambda t, y: y[1]
    stop.terminal, stop.direction = True, -1
    sol = solve_ivp(lambda t, y: [y[1], (dF - c * y[1] - k * y[0]) / M], (0.0, 10.0), [0.0, 0.0], events=stop,
                    rtol=1e-11, atol=1e-14, first_step=1e-6)
    travel = sol.y_events[0][0][0] if sol.t_events[0].size else sol.y[0, -1]
    assert travel == pytest.approx(T.first_slip, rel=1e-6)
    assert est.V1_breakaway == pytest.approx(P.k * (P.patm + T.p1_breakaway) * P.A1**2 / k, rel=1e-12)
    # the exhaust of chamber 2 at the fig. 8 speed keeps p2 at 0.01 MPa
    p2 = P.patm + T.p2_near_zero
    assert -valve_mass_flow(2.09, p2, P) == pytest.approx(p2 * P.A2 * est.v_high / RT, rel=1e-9)
    assert flow_factor(P.patm / p2) < flow_factor(0.1)  # that exhaust is unchoked
    assert est.un > T.u2_exhausts and est.un < est.um < 2.875


def test_defaults_of_the_cylinder_are_the_rounded_estimates():
    est, defaults = lab.valve_estimates(), CylinderParameters()
    for name, tolerance in (("V10", 0.005), ("V20", 0.005), ("KV1", 0.005), ("KV2", 0.005)):
        assert getattr(est, name) == pytest.approx(getattr(defaults, name), rel=tolerance), name  # 3 digits
    assert est.um == pytest.approx(defaults.um, abs=5e-5) and est.un == pytest.approx(defaults.un, abs=5e-3)


def test_friction_estimates_replay_the_text():
    fr = lab.friction_estimates()
    T = lab.TEXT
    P = lab.cylinder_parameters()
    # smooth motion: the force at the largest p1 is the sliding force Fc + sigma2 v
    v = lab.valve_estimates().v_high
    assert fr.Fc + fr.sigma2 * v == pytest.approx(T.p1_max_high * P.A1, rel=1e-12)
    # the film after the 0.5 s stick gives the re-break-away force of 8.4 N
    h = fr.h_max * math.exp(-T.t_stick_2 / fr.tau_h0)
    assert (1 - h) * fr.Fs == pytest.approx(T.F_sliding_max, rel=1e-12)
    models = lab.friction_models()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert models["LG"].check_passivity()  # sigma1 below sigma2 Fc / (Fs - Fc)
    assert models["RLG"].curve.initial_stiffness > models["RLG"].sigma0


def test_dynamic_models_stick_slip_and_the_static_model_does_not(low):
    runs = low.runs
    assert runs["LG"].cycles >= 3 and runs["RLG"].cycles >= 3
    assert runs["SS"].cycles == 0 and runs["SS"].stuck_fraction < 0.5 * runs["LG"].stuck_fraction
    # the paper: RLG gives more stick-slip cycles than LG, and re-breaks away below Fs (the film)
    assert runs["RLG"].cycles >= runs["LG"].cycles
    assert max(runs["RLG"].breakaway[1:]) < 0.9 * lab.TEXT.F_breakaway
    # SS: the friction force chatters between about -Fs and +Fs while the piston creeps
    r = runs["SS"].result
    assert r.F.min() < -0.9 * lab.TEXT.F_breakaway and r.F.max() > 0.9 * lab.TEXT.F_breakaway
    assert np.all(np.diff(r.x[r.t > 1.0]) > -1e-4) and r.x[-1] > r.x[0] + 0.02


def test_stick_slip_cycles_are_separated_by_sticks(low):
    r = low.runs["LG"].result
    phases = lab.stick_slip_cycles(r)
    for (a0, a1, _), (b0, _, _) in zip(phases[:-1], phases[1:]):
        assert b0 - a1 >= 0.1
        stuck = (r.t > a1 + 0.02) & (r.t < b0 - 0.02)
        assert np.all(np.abs(r.v[stuck]) <= 5e-3)
    with pytest.raises(ValueError, match="v_slip"):
        lab.stick_slip_cycles(r, v_slip=0.0)


def test_higher_inputs_give_smooth_motion(high):
    for name in ("LG", "RLG"):
        assert len(high.runs[name].phases) == 1
        assert high.runs[name].mean_speed == pytest.approx(lab.valve_estimates().v_high, rel=0.2)


def test_sinusoid_valve_set_comes_close_to_the_pressure_peaks_of_fig9():
    est = lab.sinusoid_valve_estimates()
    assert est.um + est.un == pytest.approx(5.0, abs=1e-12)  # dead zone centred on 2.5 V
    assert 2.5 - 0.4 < est.un and est.um < 2.5 + 0.4  # both valves open and exhaust in each cycle
    study = lab.sinusoidal_study(0.2)
    assert study.runs["LG"].p1_max == pytest.approx(lab.TEXT.p1_max_sine, rel=0.1)
    assert study.runs["LG"].p2_max == pytest.approx(lab.TEXT.p2_max_sine, rel=0.1)
    # the choice is the best admissible point of the grid, recomputed here from the grid rows
    rows = [row for row in est.grid if row.admissible]
    def error(row):
        return math.hypot(row.p1_peak / lab.TEXT.p1_max_sine - 1, row.p2_peak / lab.TEXT.p2_max_sine - 1)
    best = min(rows, key=error)
    assert (best.delta, best.KV1) == (est.delta, est.KV1)
    assert (est.residual_p1, est.residual_p2) == (best.p1_peak / lab.TEXT.p1_max_sine - 1,
                                                  best.p2_peak / lab.TEXT.p2_max_sine - 1)
    assert all(0.005 < row.x_min and row.x_max < lab.TEXT.L - 0.005 for row in rows)
    assert len(est.grid) == len(lab.DELTA_GRID) * len(lab.KV1_GRID) > len(rows)
    # the constant-input set cannot: its um leaves the retracting valve almost shut
    assert lab.valve_estimates().um > 2.86


def test_sinusoidal_inputs_give_trapezoidal_strokes_and_lg_rlg_nearly_agree():
    study = lab.sinusoidal_study(0.2)
    r = study.runs["LG"].result
    period = 1.0 / study.f
    for k in range(1, 4):  # every period: an extending and a retracting stroke of > 0.1 m
        window = (r.t >= k * period - 0.5 * period) & (r.t <= k * period + 0.5 * period)
        assert np.ptp(r.x[window]) > 0.1
    assert np.mean(np.abs(r.v) < 1e-3) > 0.2  # the dwells at the corners of the trapezoid
    assert study.lg_rlg_dx < 0.02 * np.ptp(r.x)
    with pytest.raises(ValueError, match="f"):
        lab.sinusoidal_inputs(0.0)


def test_halving_the_step_changes_little_for_the_dynamic_models():
    halving = lab.step_halving(lab.low_inputs(), models=("LG", "RLG"))
    assert halving["LG"].dx < 2e-3 and halving["RLG"].dx < 6e-3
    for name in ("LG", "RLG"):
        assert halving[name].cycles_h == halving[name].cycles_half
        assert halving[name].grid_check < 1e-12
    sine = lab.step_halving(lab.sinusoidal_inputs(1.0), models=("LG",), params=lab.sinusoid_cylinder_parameters())
    assert sine["LG"].dx < 2e-3


def test_a_softer_air_spring_ends_the_stick_slip():
    scan = {row.V10: row for row in lab.dead_volume_scan((1.75e-5, 4e-4))}
    stiff, soft = scan[1.75e-5], scan[4e-4]
    assert stiff.cycles >= 3 and soft.cycles <= 1
    assert lab.count_stick_slip([(0.0, 10.0, 10.5)]) == 0  # creeping from the start is no cycle
    assert lab.count_stick_slip([(1.0, 1.1, 10.0), (1.15, 1.3, 9.0), (2.0, 2.1, 9.0)]) == 2
    assert stiff.k_air > soft.k_air


def test_bad_model_name_is_rejected():
    with pytest.raises(ValueError, match="model"):
        lab.simulate("Coulomb", lab.low_inputs())


def test_a_scenario_is_a_scenario_not_a_dict():
    with pytest.raises(TypeError, match="Scenario"):
        lab.simulate("LG", {"u1": 2.875, "u2": 2.19, "x0": 0.035, "t_end": 1.0})


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab09Results)
    assert isinstance(data.valve, lab.ValveEstimates) and isinstance(data.friction, lab.FrictionEstimates)
    assert isinstance(data.sine_valve, lab.SinusoidValveEstimates)
    assert all(isinstance(row, lab.ValveGridRow) for row in data.sine_valve.grid)
    assert set(data.low.runs) == set(data.high.runs) == set(data.halving) == set(lab.MODELS)
    assert all(isinstance(run, lab.SmoothMotionRun) for run in data.high.runs.values())
    assert all(isinstance(phase, lab.SlipPhase) for phase in data.low.runs["LG"].phases)
    assert all(isinstance(row, lab.HalvingRow) for row in data.halving.values())
    assert sorted(data.sines) == [0.2, 1.0] and all(isinstance(s, lab.SinusoidalStudy) for s in data.sines.values())
    t, x = data.low.runs["LG"]  # a run unpacks as t, x
    assert t is data.low.runs["LG"].result.t and x is data.low.runs["LG"].result.x
    drawn = {figure.stem: figure for figure in result.figures}
    for stem, study in (("lab09_low_inputs", data.low), ("lab09_sinusoid_02Hz", data.sines[0.2])):
        assert list(drawn[stem].data) == list(lab.MODELS)
        assert all(drawn[stem].data[name] is study.runs[name].result for name in lab.MODELS)
    for figure in result.figures:
        fig = figure.draw(figure.data)
        assert len(fig.axes) == 3, figure.stem
        plt.close(fig)
    with pytest.raises(TypeError, match="study.results"):
        lab.plot_cylinder_runs(data.low)
