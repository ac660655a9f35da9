"""Bad input to the plants (DC drive, pneumatic cylinder), step_metrics and the new checkers (issue 14).

Each test reads as a rule of the public boundary: the error type, and a message that names the
argument, shows what was received and says what is expected. Oracles: the docstrings of
simlab.plants.dc_motor, simlab.plants.pneumatic and simlab.response, Routh's criterion for the
type-II loop (stable exactly for h > 1), and simlab.stability.max_stable_step on the drive's
closed-loop eigenvalues (computed here from the structure graph, an independent model).
"""

import re

import numpy as np
import pytest

from simlab.friction import LuGre
from simlab.integrators import NonFiniteStateError
from simlab.plants import dc_motor, pneumatic
from simlab.response import step_metrics
from simlab.validation import as_flag, as_bounded_scalar, as_instance

P = pneumatic.CylinderParameters()
LUGRE = LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4)


def raises(kind, *fragments):
    """pytest.raises for ``kind`` with every fragment (plain text) in the message."""
    return pytest.raises(kind, match="(?s)" + "".join(f"(?=.*{re.escape(f)})" for f in fragments))


# ---------------------------------------------------------------------------------------------
# simlab.validation: the general checkers added for issue 14
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_as_bool_returns_a_python_bool(value):
    assert as_flag(value, "flag") is bool(value)


@pytest.mark.parametrize("value", [1, 0, None, "yes", float("nan")])
def test_as_bool_refuses_numbers_text_and_none(value):
    with raises(TypeError, "flag must be True or False", f"got {value!r}"):
        as_flag(value, "flag")


def test_as_instance_names_the_argument_the_type_received_and_the_one_expected():
    assert as_instance(P, "params", pneumatic.CylinderParameters, "CylinderParameters") is P
    with raises(TypeError, "params must be CylinderParameters", "got None (type NoneType)"):
        as_instance(None, "params", pneumatic.CylinderParameters, "CylinderParameters")


def test_as_bounded_scalar_gives_the_interval_with_open_and_closed_ends():
    assert as_bounded_scalar(0.0, "z", 0.0, 1.5, open_high=True) == 0.0
    with raises(ValueError, "z must lie in [0, 1.5)", "got 1.5", "(why)"):
        as_bounded_scalar(1.5, "z", 0.0, 1.5, open_high=True, why=" (why)")
    with raises(ValueError, "h must lie in (1, inf]", "got 1.0"):
        as_bounded_scalar(1.0, "h", 1.0, open_low=True)
    with raises(TypeError, "h must be a real number", "'1'"):
        as_bounded_scalar("1", "h")
    with raises(ValueError, "h must be a finite number", "nan"):
        as_bounded_scalar(float("nan"), "h")


# ---------------------------------------------------------------------------------------------
# simlab.plants.dc_motor
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [dc_motor.type2_step_overshoot, dc_motor.type2_disturbance_peak,
                                      dc_motor.design_regulators])
@pytest.mark.parametrize("h", [1.0, 0.0, -1.0, 0.5])
def test_the_type2_functions_accept_only_h_above_1(function, h):
    """Routh on T^3 s^3 + T^2 s^2 + K h T s + K: stable if and only if h > 1."""
    with raises(ValueError, "h must be > 1", f"got {h!r}", "Routh"):
        function(h=h)


def test_type2_overshoot_just_above_h_1_is_large_but_finite_and_positive():
    # near the stability boundary the loop is barely damped: the overshoot approaches 100 %
    assert 90.0 < dc_motor.type2_step_overshoot(1.05) < 100.0
    assert dc_motor.type2_step_overshoot(5.0) == pytest.approx(37.6, abs=0.05)


@pytest.mark.parametrize("z", [-1.0, 1.5, 2.0])
def test_predicted_overshoot_needs_a_load_factor_in_0_to_lambda(z):
    with raises(ValueError, "z must lie in [0, 1.5)", f"got {z!r}", "load factor"):
        dc_motor.predicted_speed_overshoot(z=z)


def test_predicted_overshoot_names_wrong_types_of_p_and_design():
    with raises(TypeError, "p must be DriveParameters", "got 1 (type int)"):
        dc_motor.predicted_speed_overshoot(p=1)
    with raises(TypeError, "design must be a RegulatorDesign", "'d'"):
        dc_motor.predicted_speed_overshoot(design="d")


@pytest.mark.parametrize("flag", ["asr_limit", "acr_limit"])
@pytest.mark.parametrize("value", ["yes", 2, None, 0])
def test_simulate_drive_limit_flags_must_be_bools(flag, value):
    with raises(TypeError, f"{flag} must be True or False", f"got {value!r}"):
        dc_motor.simulate_drive(t_end=0.01, h=1e-4, **{flag: value})


def _structure_graph_rk4_limit():
    from simlab.stability import max_stable_step
    from simlab.structure import closed_loop

    A = closed_loop(*dc_motor.structure_graph())[0]
    return max_stable_step(np.linalg.eigvals(A), "rk4")


def test_simulate_drive_refuses_a_step_beyond_the_rk4_limit_of_the_loop():
    limit = _structure_graph_rk4_limit()  # 3.59 ms: fastest closed-loop pole -775 1/s
    assert limit == pytest.approx(3.59e-3, rel=1e-3)
    with pytest.raises(NonFiniteStateError) as error:
        dc_motor.simulate_drive(t_end=0.2, h=0.01)  # 20 steps: finite garbage (|n| ~ 1e28) before
    message = str(error.value)
    assert "h = 0.01 s" in message and "RK4 stability limit" in message and f"{limit:.3g} s" in message
    assert error.value.h == 0.01 and error.value.method == "rk4"


def test_simulate_drive_runs_just_below_the_limit():
    result = dc_motor.simulate_drive(t_end=0.07, h=3.5e-3)
    assert np.all(np.isfinite(result.states))


@pytest.mark.parametrize("t_end, h, name", [(0.0, 1e-4, "t_end"), (0.01, -1e-4, "h"), (0.01, float("nan"), "h")])
def test_simulate_drive_names_t_end_and_h(t_end, h, name):
    with raises(ValueError, name):
        dc_motor.simulate_drive(t_end=t_end, h=h)


# ---------------------------------------------------------------------------------------------
# simlab.plants.pneumatic
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: pneumatic.valve_mass_flow(3.0, 2e5, None),
    lambda: pneumatic.chamber_volumes(0.1, None),
    lambda: pneumatic.pressure_rates(2e5, 1.5e5, 0.1, 0.0, 0.0, 0.0, None),
    lambda: pneumatic.simulate_cylinder(None, LUGRE, 3.0, 2.0, 0.01),
])
def test_params_none_is_a_type_error_naming_params(call):
    with raises(TypeError, "params must be CylinderParameters", "NoneType"):
        call()


@pytest.mark.parametrize("x", [-0.1, 0.5, [0.1, 0.31]])
def test_chamber_volumes_need_a_position_within_the_stroke(x):
    """A position off the stroke gives a volume off the cylinder (V2 < 0 at x = 0.5 m)."""
    with raises(ValueError, "x must lie within the stroke [0, L] = [0, 0.3] m", "got"):
        pneumatic.chamber_volumes(x, P)


def test_chamber_volumes_report_the_values_received():
    with raises(ValueError, "got -0.1"):
        pneumatic.chamber_volumes(-0.1, P)
    with raises(ValueError, "values from 0.1 to 0.31 m"):
        pneumatic.chamber_volumes(np.array([0.1, 0.31]), P)
    with raises(ValueError, "x must be finite"):
        pneumatic.chamber_volumes([np.nan], P)


def test_chamber_volumes_keep_floats_floats_and_arrays_arrays():
    V1, V2 = pneumatic.chamber_volumes(0.1, P)
    assert type(V1) is float and type(V2) is float
    V1, V2 = pneumatic.chamber_volumes([0.0, 0.3], P)
    assert V1.shape == V2.shape == (2,)


@pytest.mark.parametrize("name, value, fragments", [
    ("p1", 0.0, ("p1 must be positive", "got 0.0")),
    ("p2", -1.0, ("p2 must be positive", "got -1.0")),
    ("x", 0.4, ("x must lie within the stroke", "got 0.4")),
    ("x", [0.1, 0.2], ("x must be a real number", "[0.1, 0.2]")),
    ("v", float("inf"), ("v must be a finite number", "inf")),
    ("mdot1", None, ("mdot1 must be a real number", "None")),
    ("mdot2", "0", ("mdot2 must be a real number", "'0'")),
])
def test_pressure_rates_check_every_number(name, value, fragments):
    args = dict(p1=2e5, p2=1.5e5, x=0.1, v=0.0, mdot1=0.0, mdot2=0.0, params=P)
    args[name] = value
    with raises((TypeError, ValueError), *fragments):
        pneumatic.pressure_rates(**args)


def test_flow_factor_refuses_a_bool_ratio():
    with raises(TypeError, "r must contain numbers", "True"):
        pneumatic.flow_factor(True)
    with raises(ValueError, "r (a pressure ratio) must be >= 0", "-0.5"):
        pneumatic.flow_factor(-0.5)


@pytest.mark.parametrize("u, side", [(7.0, "above the rated 5.0 V"), (-1.0, "below 0 V")])
def test_valve_input_out_of_range_names_u1_or_u2(u, side):
    with raises(ValueError, f"u1 = {u!r} V is {side}", "0 <= u <= u_max"):
        pneumatic.simulate_cylinder(P, LUGRE, u, 2.0, 0.01)
    with raises(ValueError, f"u2 = {u!r} V is {side}"):
        pneumatic.simulate_cylinder(P, LUGRE, 3.0, u, 0.01)
    with raises(ValueError, f"u = {u!r} V is {side}"):
        pneumatic.valve_mass_flow(u, 2e5, P)


def test_a_valve_input_function_is_checked_where_it_leaves_the_range():
    with raises(ValueError, "u1(t) at t = 0.00232 s = 5.32 V is above the rated 5.0 V"):
        pneumatic.simulate_cylinder(P, LUGRE, lambda t: 3.0 + 1000.0 * t, 2.0, 0.01)
    with raises(ValueError, "u2(t) at t = 0 s must be a finite number", "nan"):
        pneumatic.simulate_cylinder(P, LUGRE, 3.0, lambda t: float("nan"), 0.01)


@pytest.mark.parametrize("hold", ["yes", 2, None, float("nan")])
def test_the_hold_flag_must_be_a_bool(hold):
    with raises(TypeError, "hold must be True or False", f"got {hold!r}"):
        pneumatic.simulate_cylinder(P, LUGRE, 3.0, 2.0, 0.01, hold=hold)


def test_a_held_piston_still_runs():
    result = pneumatic.simulate_cylinder(P, None, 3.5, 2.5, 0.01, hold=True, x0=0.1)
    assert np.all(result.x == 0.1) and np.all(result.v == 0.0)


# ---------------------------------------------------------------------------------------------
# simlab.response.step_metrics
# ---------------------------------------------------------------------------------------------

T = np.linspace(0.0, 1.0, 21)
Y = 1.0 - np.exp(-5.0 * T)


def test_step_metrics_refuses_a_zero_final_value():
    """final = 0 used to give an infinite overshoot."""
    with raises(ValueError, "final", "must be non-zero", "got 0.0"):
        step_metrics(T, Y, 0.0)


@pytest.mark.parametrize("final, kind, fragment", [
    (None, TypeError, "final must be a real number"), (float("nan"), ValueError, "final must be a finite number"),
    (True, TypeError, "final must be a real number"), ([1.0, 2.0], TypeError, "final must be a real number"),
])
def test_step_metrics_checks_final(final, kind, fragment):
    with raises(kind, fragment):
        step_metrics(T, Y, final)


def test_step_metrics_needs_y_of_the_shape_of_t():
    with raises(ValueError, "y must have one value per time of t", "shape (21,)", "got shape (5,)"):
        step_metrics(T, np.ones(5), 1.0)


@pytest.mark.parametrize("t, kind, fragments", [
    ([], ValueError, ("t must be a non-empty time grid", "empty")),
    ([0.0, 0.0, 1.0], ValueError, ("t must increase", "t[1] = 0.0 <= t[0] = 0.0")),
    ([[0.0, 1.0]], ValueError, ("t must be 1-dimensional", "shape (1, 2)")),
    ([np.nan, 1.0], ValueError, ("t must be finite",)),
    ("abc", TypeError, ("t must be a number or an array of numbers", "'abc'")),
])
def test_step_metrics_checks_the_time_grid(t, kind, fragments):
    with raises(kind, *fragments):
        step_metrics(t, Y[: len(t)] if np.ndim(t) == 1 and not isinstance(t, str) else Y, 1.0)


def test_step_metrics_of_a_valid_response_is_unchanged():
    m = step_metrics(T, Y, 1.0)
    # first grid time after which |y - 1| <= 0.02: e^{-5 t} <= 0.02 from t = 0.78 on, so 0.8
    assert m.peak == float(Y[-1]) and m.t_peak == 1.0 and m.overshoot == 0.0 and m.settling_time == 0.8
