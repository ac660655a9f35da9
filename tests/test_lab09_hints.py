"""Lab 09: the self-checks name the lab's typical mistakes, and follow the notebook's parameters.

Each wrong answer is built here, independently of the checks: the valve gain from the text's
numbers and the closed forms of the flow factors (eq. 16), the internal loop read off the
scripted history by hand, and the time stuck and the stick-slip cycles counted by hand from
:func:`simlab.plants.pneumatic.simulate_cylinder` (the library's simulation, not the lab's
study). The check is then called directly and must fail with the hint that names the mistake; a
right answer at the parameters' alternative values must pass.
"""

import math

import numpy as np
import pytest

from simlab.course import lab09_pneumatic_friction as lab
from simlab.plants.pneumatic import simulate_cylinder

T = lab.TEXT


def _failed(result, phrase):
    assert not result.passed, str(result)
    assert phrase in str(result), str(result)


# ---------------------------------------------------------------------------------------------
# Task B1: the valve gain, from the text's numbers and the closed forms of eq. (16)
# ---------------------------------------------------------------------------------------------


def _gain_parts():
    """Oracle: the higher flow p1 A1 v / (R Ts) of fig. 8 by hand, k = 1.4, the absolute supply pressure."""
    P = lab.cylinder_parameters()
    v_high = (T.x_high - T.x0_high) / (T.t_high - T.t_start_high)
    mdot_high = (P.patm + T.p1_max_high) * P.A1 * v_high / (P.R * P.Ts)
    return P, mdot_high, math.sqrt(P.k / (P.R * P.Ts))


def test_b1_the_critical_pressure_ratio_in_place_of_the_flow_factor_is_named():
    """r* = (2 / (k + 1))^(k / (k - 1)) = 0.5283 where eq. (16) has (2 / (k + 1))^((k + 1) / (2 (k - 1))) = 0.5787."""
    P, mdot_high, flow_constant = _gain_parts()
    um = lab.valve_estimates().um
    r_star = (2 / (P.k + 1)) ** (P.k / (P.k - 1))
    assert r_star == pytest.approx(0.5283, abs=1e-4)
    KV1 = mdot_high / (r_star * P.ps * flow_constant * (T.u1_high - um))
    _failed(lab.check_valve_estimates(um, KV1), "critical pressure ratio")


def test_b1_the_gain_on_u_instead_of_u_minus_um_is_named():
    P, mdot_high, flow_constant = _gain_parts()
    gamma = (2 / (P.k + 1)) ** ((P.k + 1) / (2 * (P.k - 1)))
    KV1 = mdot_high / (gamma * P.ps * flow_constant * T.u1_high)
    _failed(lab.check_valve_estimates(lab.valve_estimates().um, KV1), "not u itself")


def test_b1_the_right_gain_passes():
    P, mdot_high, flow_constant = _gain_parts()
    um = lab.valve_estimates().um
    gamma = (2 / (P.k + 1)) ** ((P.k + 1) / (2 * (P.k - 1)))
    assert lab.check_valve_estimates(um, mdot_high / (gamma * P.ps * flow_constant * (T.u1_high - um))).passed


# ---------------------------------------------------------------------------------------------
# Task C1: the internal loop, read off the scripted history 0 -> 40 -> 15 -> 30 -> 20 -> 50 -> -50 um
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loop():
    """Oracle: the samples by hand. The history goes up 0 -> 40 um in 80 steps of 0.5 um, down to 15 um
    (50 steps), up to 30 um (30 steps: C at 160), down to 20 um (20 steps: D at 180), and is back at 30 um
    20 steps later (200); it first passes 30 um on the way up, at sample 60."""
    history = lab.hysteresis_history()
    z_um = np.round(history.z * 1e6, 6)
    assert (z_um[60], z_um[160], z_um[180], z_um[200]) == (30.0, 30.0, 20.0, 30.0)
    assert z_um[159] < 30.0 and z_um[161] < 30.0 and np.all(z_um[181:200] < 30.0)
    return history.F, 60, 160, 200


def test_c1_the_first_pass_at_30_um_is_not_the_reversal(loop):
    F, first_pass, start, back = loop
    _failed(lab.check_internal_loop(F[first_pass], F[back], first_pass, back), "virgin curve")


def test_c1_the_force_alone_cannot_tell_the_loops_start_from_its_return(loop):
    """The loop closes, so F at the start equals F at the return (return-point memory): a return force
    taken at the loop's start passes the force check; the sample i_return does not."""
    F, _, start, back = loop
    assert F[start] == pytest.approx(F[back], abs=1e-12)
    assert lab.check_internal_loop(F[start], F[start]).passed  # without the samples: indistinguishable
    _failed(lab.check_internal_loop(F[start], F[start], start, start), "the loop's start, C")
    assert lab.check_internal_loop(F[start], F[back], start, back).passed


# ---------------------------------------------------------------------------------------------
# Task D1: time stuck and cycles, counted by hand from the library's simulations
# ---------------------------------------------------------------------------------------------


def _runs(h, u1, u2):
    """The three models at constant inputs u1, u2 from x0 = 0.035 m for 10 s, by simulate_cylinder."""
    P, models = lab.cylinder_parameters(), lab.friction_models()
    return {name: simulate_cylinder(P, models[name], u1, u2, 10.0, h=h, x0=T.x0_low) for name in lab.MODELS}


def _slip_phases(t, v):
    """Oracle: intervals with |v| > 5 mm/s, merged across stops shorter than 0.1 s, as (start, end) times."""
    phases = []
    moving = np.abs(v) > 5e-3
    k = 0
    while k < len(v):
        if not moving[k]:
            k += 1
            continue
        j = k
        while j + 1 < len(v) and moving[j + 1]:
            j += 1
        end = min(j + 1, len(v) - 1)  # the phase ends at the first sample that is not moving
        if phases and t[k] - phases[-1][1] < 0.1:
            phases[-1][1] = t[end]
        else:
            phases.append([t[k], t[end]])
        k = j + 1
    return phases


def _cycles(phases):
    """Slip phases that start at least 0.1 s after the previous one ended (or after t = 0)."""
    return sum(1 for (start, _), previous in zip(phases, [0.0] + [end for _, end in phases[:-1]]) if start - previous >= 0.1)


@pytest.fixture(scope="module")
def default_runs():
    return _runs(lab.H, lab.U1_LOW, lab.U2_LOW)


def test_d1_v_compared_without_its_sign_is_named(default_runs):
    stuck = {name: float(np.mean(r.v < 5e-3)) for name, r in default_runs.items()}
    cycles = {name: _cycles(_slip_phases(r.t, r.v)) for name, r in default_runs.items()}
    assert stuck["SS"] > float(np.mean(np.abs(default_runs["SS"].v) < 5e-3))  # SS chatters backwards
    _failed(lab.check_cycles(stuck, cycles), "not |v|")


def test_d1_the_initial_stick_left_out_is_named(default_runs):
    stuck = {name: float(np.mean(np.abs(r.v) < 5e-3)) for name, r in default_runs.items()}
    gaps = {name: len(_slip_phases(r.t, r.v)) - 1 for name, r in default_runs.items()}
    _failed(lab.check_cycles(stuck, gaps), "initial stick")


def test_d1_right_answers_at_the_alternative_parameters_pass():
    """h = 2 ms, u1_low = 2.876 V, u2_low = 2.1 V (the contract's alternatives): the cycles counted by hand
    from the library's runs are [correct] when the check gets the values, and not at the defaults."""
    values = {name: lab.PARAMETERS[name].alternative for name in ("h", "u1_low", "u2_low")}
    assert values != {"h": lab.H, "u1_low": lab.U1_LOW, "u2_low": lab.U2_LOW}
    runs = _runs(values["h"], values["u1_low"], values["u2_low"])
    stuck = {name: float(np.mean(np.abs(r.v) < 5e-3)) for name, r in runs.items()}
    cycles = {name: _cycles(_slip_phases(r.t, r.v)) for name, r in runs.items()}
    assert cycles["LG"] >= 3 and cycles["SS"] == 0  # still stick-slip: the lab stays meaningful
    result = lab.check_cycles(stuck, cycles, **values)
    assert result.passed, str(result)
    assert not lab.check_cycles(stuck, cycles).passed  # the check follows the parameters
    namespace = {"stuck": stuck, "cycles": cycles, **values}
    checked = lab.check("D1", namespace=namespace)
    assert checked.passed and checked.details[-1] == "(checked with h = 0.002 s, u1_low = 2.876 V, u2_low = 2.1 V)"


def test_the_rule_of_u1_low_keeps_the_estimated_dead_zone_below_it():
    """The rule's bound 2.87 V is um of Part B rounded up: valve 1 opens for every allowed u1_low."""
    um = lab.valve_estimates().um
    assert um < 2.87 < um + 1e-3
    assert lab.PARAMETERS["u1_low"].problem(2.87) and not lab.PARAMETERS["u1_low"].problem(2.8705)
    assert lab.valve_estimates().un == 2.2 and lab.PARAMETERS["u2_low"].problem(2.2)
