"""The double-loop DC drive: design formulas by hand, linear loop against python-control, the
structure graph against the ODE, and the textbook's claims about the start-up."""

import control
import numpy as np
import pytest

from simlab.course import lab07_dc_motor as lab
from simlab.plants.dc_motor import (
    DesignCheck,
    DisturbancePeak,
    DriveParameters,
    DriveResult,
    design_regulators,
    linear_closed_loop,
    predicted_speed_overshoot,
    simulate_drive,
    structure_graph,
    type2_disturbance_peak,
    type2_step_overshoot,
)
from simlab.structure import simulate

P = DriveParameters()


def test_design_formulas_against_the_hand_computed_example():
    """Oracle: the textbook derivation done by hand, line by line."""
    d = design_regulators(P)
    T_sum_i = 0.0017 + 0.002
    assert d.T_sum_i == pytest.approx(0.0037)
    assert d.KI == pytest.approx(0.5 / T_sum_i) and round(d.KI, 1) == 135.1
    assert d.tau_i == 0.03
    assert d.Ki == pytest.approx(0.5 / T_sum_i * 0.03 * 0.5 / (40 * 0.05))
    T_sum_n = 2 * T_sum_i + 0.01
    assert d.T_sum_n == pytest.approx(T_sum_n) and round(d.T_sum_n, 4) == 0.0174
    assert d.tau_n == pytest.approx(5 * T_sum_n)
    assert d.KN == pytest.approx(6 / (2 * 25 * T_sum_n**2)) and round(d.KN, 1) == 396.4
    assert d.Kn == pytest.approx(6 * 0.05 * 0.132 * 0.18 / (2 * 5 * 0.007 * 0.5 * T_sum_n))
    assert round(d.Kn, 1) == 11.7
    assert all(check.satisfied for check in d.checks)


def test_type2_table_values():
    """Oracle: the textbook table of the type-II system, h = 5: Delta C_max / C_b = 81.2 %,
    t_m / T = 2.85, step overshoot 37.6 % (also checked with python-control)."""
    ratio, t_peak = type2_disturbance_peak(5)
    assert round(100 * ratio, 1) == 81.2 and t_peak == pytest.approx(2.85, abs=0.02)
    K = 6 / 50
    response = control.step_response(control.tf([5 * K, K], [1, 1, 5 * K, K]), T=np.linspace(0, 60, 60001))
    assert type2_step_overshoot(5) == pytest.approx(100 * (response.outputs.max() - 1), abs=1e-3)


def test_predicted_overshoot_is_the_textbook_8_31_percent():
    """Oracle: 81.2 % * 2 * 1.5 * (136 * 0.5 / 0.132) / 1460 * 0.0174 / 0.18, by hand."""
    by_hand = 0.812 * 2 * 1.5 * (136 * 0.5 / 0.132) / 1460 * 0.0174 / 0.18 * 100
    assert predicted_speed_overshoot(P) == pytest.approx(by_hand, rel=2e-3)
    assert round(predicted_speed_overshoot(P), 2) == pytest.approx(8.31, abs=0.01)


def _control_drive_model():
    """Oracle: the same loops assembled independently with python-control."""
    d = design_regulators(P)
    s = control.tf("s")
    acr = d.Ki * (d.tau_i * s + 1) / (d.tau_i * s)
    asr = d.Kn * (d.tau_n * s + 1) / (d.tau_n * s)
    armature = (1 / P.R) / (P.Tl * s + 1)
    mechanics = P.R / (P.Ce * P.Tm * s)
    current_plant = control.feedback(armature, mechanics * P.Ce)
    current_loop = control.feedback(acr * P.Ks / (P.Ts * s + 1) * current_plant, P.beta / (P.Toi * s + 1))
    current_loop = current_loop / (P.Toi * s + 1)
    speed = control.feedback(asr * current_loop * mechanics, P.alpha / (P.Ton * s + 1))
    return speed * P.alpha / (P.Ton * s + 1)


def test_linear_closed_loop_matches_python_control():
    num, den = linear_closed_loop(P)
    reference = _control_drive_model()
    for point in (0.5j, 5 + 3j, 50j):
        assert complex(np.polyval(num, point) / np.polyval(den, point)) == pytest.approx(complex(reference(point)), rel=1e-8)


def test_linear_ode_and_structure_graph_match_python_control():
    """Oracle: python-control step response for a small speed step (no limit reached)."""
    t = np.linspace(0, 0.5, 10001)
    expected = 10.0 * control.step_response(_control_drive_model(), T=t).outputs
    ode = simulate_drive(P, t_end=0.5, h=5e-5, n_ref=10.0, asr_limit=False, acr_limit=False)
    Pm, W, W0, Wc = structure_graph(P)
    graph = simulate(Pm, W, W0, Wc, [P.alpha * 10.0, 0.0, 0.0], (0, 0.5), 5e-5)
    np.testing.assert_allclose(ode.n, expected, atol=1e-4)
    np.testing.assert_allclose(graph.y[:, 0], expected, atol=1e-4)


def test_structure_graph_with_saturations_agrees_with_the_ode():
    versus = lab.structure_versus_ode()
    assert versus.max_speed_difference < 0.005 * P.nN
    assert versus.max_current_difference < 0.01 * P.Idm


def test_constant_current_phase_holds_near_the_current_limit():
    start = lab.no_load_start()
    result, m = start.result, start.metrics
    phase = (result.t > m.t1 + 0.03) & (result.t < m.t2)
    assert np.all(np.abs(result.Id[phase] - P.Idm) < 0.05 * P.Idm)
    assert m.t1 < 0.03 < m.t2 - 0.2


def test_steady_state_speed_error_is_zero_type_two():
    step = lab.load_step()
    assert abs(step.final_error) < 0.01
    dip = lab.grid_dip()
    assert abs(dip.final_error) < 0.01


def test_analog_regulator_overshoot_is_near_the_design_prediction():
    start = lab.no_load_start()
    assert start.metrics.overshoot == pytest.approx(start.predicted, rel=0.15)


def test_windup_makes_the_overshoot_much_larger():
    study = lab.anti_windup_study()
    overshoot = {mode: entry.metrics.overshoot for mode, entry in study.items()}
    assert overshoot["none"] > 5 * overshoot["analog"]
    assert overshoot["clamping"] < overshoot["analog"]


def test_removing_the_asr_limit_removes_the_current_limit():
    assert lab.no_asr_limit().peak_over_IN > 3.0


def test_checks_accept_the_design_and_name_mistakes():
    d = design_regulators(P)
    assert lab.check_current_design(d.T_sum_i, d.KI, d.tau_i, d.Ki)
    mistaken = lab.check_current_design(d.T_sum_i, d.KI, d.tau_i, d.KI)  # K_I given as K_i
    assert not mistaken and "K_I" in str(mistaken)
    assert lab.check_speed_design(d.T_sum_n, d.tau_n, d.KN, d.Kn)


@pytest.mark.parametrize("kwargs, message", [({"R": 0.0}, "R must be positive"), ({"Tm": float("nan")}, "Tm must be a finite")])
def test_bad_parameters_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DriveParameters(**kwargs)


def test_bad_design_and_simulation_arguments_are_rejected():
    with pytest.raises(ValueError, match="h must be > 1"):
        design_regulators(P, h=1.0)
    with pytest.raises(ValueError, match="anti_windup must be one of"):
        simulate_drive(P, t_end=0.01, anti_windup="magic")
    with pytest.raises(TypeError, match="DriveParameters"):
        design_regulators({"R": 0.5})


def test_plant_results_are_typed_and_unpack_by_name():
    """The one result convention: named fields; a simulation unpacks as t, n, the peak as ratio, t_peak."""
    peak = type2_disturbance_peak(5)
    assert isinstance(peak, DisturbancePeak) and tuple(peak) == (peak.ratio, peak.t_peak)
    d = design_regulators(P)
    assert len(d.checks) == 5 and all(isinstance(check, DesignCheck) for check in d.checks)
    assert d.checks[0].condition in d.report()
    result = simulate_drive(P, t_end=0.01)
    t, n = result
    assert isinstance(result, DriveResult) and t is result.t and n is result.n
    assert result.states.shape == (len(t), 9) and result.Id.shape == t.shape


def test_bad_types_and_signals_are_rejected_with_the_argument_named():
    with pytest.raises(TypeError, match="design must be a RegulatorDesign"):
        simulate_drive(P, design={"Ki": 1.0}, t_end=0.01)
    with pytest.raises(TypeError, match="p must be DriveParameters"):
        predicted_speed_overshoot({"R": 0.5})
    with pytest.raises(ValueError, match="t_end must be positive"):
        simulate_drive(P, t_end=-1.0)
    with pytest.raises(TypeError, match="load must be a real number"):
        simulate_drive(P, t_end=0.01, load="rated")


def test_linear_closed_loop_has_unit_dc_gain_after_cancellation():
    """Oracle: the type-II speed loop has no steady-state error, so G(0) = 1 once minreal has
    removed the three common factors (s = 0, -1/Ton, -1/Toi)."""
    from simlab.lti import minreal

    num, den = linear_closed_loop(P)
    assert len(den) - 1 == 10 and np.polyval(den, 0) == pytest.approx(0.0, abs=1e-9)
    reduced = minreal(num, den)
    np.testing.assert_allclose(np.sort(reduced.removed_poles.real), [-1 / P.Toi, -1 / P.Ton, 0.0], atol=1e-6)
    assert np.polyval(reduced.num, 0) / np.polyval(reduced.den, 0) == pytest.approx(1.0, rel=1e-6)


def test_without_asr_limit_there_is_no_constant_current_stage():
    metrics = lab.no_asr_limit().metrics
    assert np.isnan(metrics.t2) and np.isnan(metrics.Id_plateau)
