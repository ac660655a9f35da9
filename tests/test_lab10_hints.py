"""Lab 10: the typical mistakes get hints that name them, and correct answers stay correct at other
parameter values (the checks called directly, as the notebook's lab.check calls them).

Each mistaken answer is built here, independently of the lab's reference functions: the RKF45 run
by the library (simlab.rkf45) from the aphelion state written out by hand, the exact positions by
Kepler's equation solved with scipy.optimize.brentq, RK4 by the library (simlab.rk4), AB2 and RTRK2
written out from their formulas, the budget from the table of Part C by hand.
"""

import functools
import math

import numpy as np
import pytest
from scipy.optimize import brentq

import simlab
from simlab.course import lab10_variable_step_real_time as lab

T = 2 * math.pi


# ---------------------------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------------------------


def kepler_positions(t, e):
    """Oracle: q(t) of the orbit started at aphelion, Kepler's equation E - e sin E = t + pi by brentq."""
    q = []
    for ti in np.atleast_1d(t):
        M = ti + math.pi
        anomaly = brentq(lambda E, M=M: E - e * math.sin(E) - M, M - 1.0, M + 1.0, xtol=1e-15, rtol=1e-15)
        q.append((math.cos(anomaly) - e, math.sqrt(1 - e * e) * math.sin(anomaly)))
    return np.array(q)


def aphelion(e):
    """The state at aphelion by hand: q = (-(1 + e), 0), v = (0, -sqrt((1 - e)/(1 + e))) (vis-viva, a = GM = 1)."""
    return np.array([-(1 + e), 0.0, 0.0, -math.sqrt((1 - e) / (1 + e))])


@functools.lru_cache(maxsize=4)
def rkf45_run(rtol, e):
    """The notebook's RKF45 run, by the library: atol = rtol / 1000 over one period."""
    return simlab.rkf45(lab.orbit_rhs, (0.0, T), aphelion(e), rtol=rtol, atol=rtol / 1000)


def achieved_error_by(distance_of):
    """A student's achieved_error(t, x, e) that measures with ``distance_of(dq) -> number`` (dq: (N, 2))."""
    def achieved_error(t, x, e):
        return distance_of(np.asarray(x)[:, :2] - kepler_positions(t, e))

    return achieved_error


correct_error = achieved_error_by(lambda dq: np.max(np.hypot(dq[:, 0], dq[:, 1])))


@functools.lru_cache(maxsize=4)
def rk4_steps_for(rtol, e):
    """Oracle of Task A3: the line log err = s log N + c through simlab.rk4 runs with N = 1000, 2000, 4000
    (errors against brentq's Kepler solution), solved for RKF45's error and rounded up."""
    errors = []
    for N in (1000, 2000, 4000):
        fixed = simlab.rk4(lab.orbit_rhs, (0.0, T), aphelion(e), T / N)
        errors.append(np.max(np.linalg.norm(fixed.x[:, :2] - kepler_positions(fixed.t, e), axis=1)))
    slope, intercept = np.polyfit(np.log([1000, 2000, 4000]), np.log(errors), 1)
    run = rkf45_run(rtol, e)
    return math.ceil(math.exp((math.log(correct_error(run.t, run.x, e)) - intercept) / slope))


def ab2_by_hand(h, half=True, last=True):
    """Oracle: AB2 on x' = A x + 5 b from rest, the first step by simlab.rk4_step; ``half=False`` leaves out
    the factor 1/2, ``last=False`` stops the loop one step early."""
    A, b, _ = lab.loop_system()
    f = lambda t, x: A @ x + 5.0 * b  # noqa: E731
    N = round(5.0 / h)
    x = np.zeros((N + 1, 3))
    x[1] = simlab.rk4_step(f, 0.0, x[0], h)
    for n in range(1, N if last else N - 1):
        x[n + 1] = x[n] + (h / 2 if half else h) * (3 * f(0, x[n]) - f(0, x[n - 1]))
    return x


def rtrk2_by_hand(h, second_sample=0.5):
    """Oracle: RTRK2 with r(t) = 5 sin 2t; the second evaluation reads r(t_n + second_sample h)."""
    A, b, _ = lab.loop_system()
    x, xs = np.zeros(3), [np.zeros(3)]
    for n in range(round(5.0 / h)):
        t = n * h
        x_half = x + h / 2 * (A @ x + b * 5.0 * math.sin(2.0 * t))
        x = x + h * (A @ x_half + b * 5.0 * math.sin(2.0 * (t + second_sample * h)))
        xs.append(x)
    return np.array(xs)


def budget_by_hand(rows, h_frame, error_target, t_eval, upside_down=False):
    """Task D1 by hand from the table of Part C: h = min(h_frame (e*/e_h)^(1/p), h_stable), load s t_eval / h."""
    h = {}
    for row in rows:
        ratio = row.error / error_target if upside_down else error_target / row.error
        h[row.label] = min(h_frame * ratio ** (1 / row.order), row.h_stable)
    return h, {row.label: row.evaluations * t_eval / h[row.label] for row in rows}


def failed_with(result, phrase):
    """True if ``result`` is a [not yet] whose text names ``phrase``."""
    return not result and phrase in str(result)


# ---------------------------------------------------------------------------------------------
# Task A2: one number that a wrong method can give by chance
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("e", [lab.ECCENTRICITY, 0.7])
def test_the_largest_error_of_the_lab_run_is_at_its_last_point(e):
    """Why A2 needs a second case: on the lab's orbit (brentq's Kepler solution) RKF45's largest
    error is at t = 2 pi, so the error at the last point gives the same number."""
    run = rkf45_run(lab.RTOL, e)
    distance = np.linalg.norm(run.x[:, :2] - kepler_positions(run.t, e), axis=1)
    assert np.argmax(distance) == len(distance) - 1


def test_a2_the_error_at_the_last_point_only_is_named():
    """Oracle: brentq's Kepler solution; the last-point method gives the right number for the lab's run,
    and the check names it from the second trajectory."""
    last_point = achieved_error_by(lambda dq: np.hypot(*dq[-1]))
    run = rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    value = last_point(run.t, run.x, lab.ECCENTRICITY)
    assert value == pytest.approx(correct_error(run.t, run.x, lab.ECCENTRICITY), rel=1e-9)
    result = lab.check_achieved_error(value, last_point)
    assert failed_with(result, "error at the last point only")
    task = lab.check("A2", namespace={"error_rkf45": value, "achieved_error": last_point})
    assert failed_with(task, "error at the last point only")


def test_a2_the_norm_without_axis_is_named():
    """np.linalg.norm of the whole (N, 2) array: one Frobenius norm of all the points together."""
    frobenius = achieved_error_by(lambda dq: math.sqrt(np.sum(dq * dq)))
    run = rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    result = lab.check_achieved_error(frobenius(run.t, run.x, lab.ECCENTRICITY), frobenius)
    assert failed_with(result, "without axis=1")


def test_a2_the_largest_component_is_named():
    """max_k max(|dq1|, |dq2|) instead of the Euclidean distance."""
    largest = achieved_error_by(lambda dq: np.max(np.abs(dq)))
    run = rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    result = lab.check_achieved_error(largest(run.t, run.x, lab.ECCENTRICITY), largest)
    assert failed_with(result, "largest component")


def test_a2_a_correct_function_with_the_last_point_number_still_fails_on_a_wrong_function():
    """A correct number but a function that measures the last point: the function's part fails."""
    run = rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    last_point = achieved_error_by(lambda dq: np.hypot(*dq[-1]))
    assert lab.check_achieved_error(correct_error(run.t, run.x, lab.ECCENTRICITY), correct_error)
    assert not lab.check_achieved_error(correct_error(run.t, run.x, lab.ECCENTRICITY), last_point)


# ---------------------------------------------------------------------------------------------
# Tasks A3, B1, C1, D1
# ---------------------------------------------------------------------------------------------


def test_a3_the_inverse_cost_ratio_is_named():
    """Oracle: simlab.rk4 runs against brentq's Kepler solution for the fitted line; the ratio upside down."""
    N, run = rk4_steps_for(lab.RTOL, lab.ECCENTRICITY), rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    assert lab.check_equal_accuracy(N, 4 * N / run.nfev)
    assert failed_with(lab.check_equal_accuracy(N, run.nfev / (4 * N)), "inverse ratio")


def test_a3_one_evaluation_per_rk4_step_is_named():
    N, run = rk4_steps_for(lab.RTOL, lab.ECCENTRICITY), rkf45_run(lab.RTOL, lab.ECCENTRICITY)
    assert failed_with(lab.check_equal_accuracy(N, N / run.nfev), "four evaluations of f per step")


def test_b1_the_missing_factor_one_half_is_named():
    """Oracle: AB2 written out here, x_{n+1} = x_n + h (3 f_n - f_{n-1})."""
    assert lab.check_ab2(ab2_by_hand(0.05))
    assert failed_with(lab.check_ab2(ab2_by_hand(0.05, half=False)), "factor 1/2 is missing")


def test_b1_the_loop_one_step_short_is_named():
    """Oracle: AB2 written out here with range(1, N - 1): the last row stays zero."""
    x = ab2_by_hand(0.05, last=False)
    assert not x[-1].any()
    assert failed_with(lab.check_ab2(x), "last state x_N is still zero")


def test_c1_the_sample_at_the_end_of_the_frame_is_named():
    """Oracle: RTRK2 written out here with the second sample at t_n + h instead of t_n + h/2."""
    assert lab.check_rtrk2_loop(rtrk2_by_hand(0.05))
    assert failed_with(lab.check_rtrk2_loop(rtrk2_by_hand(0.05, second_sample=1.0)), "end of the frame")


def test_d1_the_error_ratio_upside_down_is_named():
    """The budget by hand from the table of Part C, with e_h / e* instead of e* / e_h."""
    rows = lab.real_time_study(lab.H_FRAME).rows
    assert lab.check_budget(*budget_by_hand(rows, lab.H_FRAME, lab.ERROR_TARGET, lab.T_EVAL))
    h, load = budget_by_hand(rows, lab.H_FRAME, lab.ERROR_TARGET, lab.T_EVAL, upside_down=True)
    assert failed_with(lab.check_budget(h, load), "upside down")


# ---------------------------------------------------------------------------------------------
# The alternative parameter values
# ---------------------------------------------------------------------------------------------


def test_correct_answers_at_the_alternative_parameters_pass_and_fail_at_the_defaults():
    """Oracles: brentq's Kepler solution (A2), simlab.rk4 runs and the fitted line (A3), AB2 and RTRK2
    written out here (B1, C1), the budget by hand (D1); each at the lab's alternative values, checked
    through lab.check as the notebook does, and the same answers are not correct at the defaults."""
    values = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}
    e, rtol = values["e"], values["rtol"]
    run = rkf45_run(rtol, e)
    N = rk4_steps_for(rtol, e)
    rows = lab.real_time_study(values["h_frame"]).rows
    h_largest, load = budget_by_hand(rows, values["h_frame"], values["error_target"], values["t_eval"])
    answers = {"error_rkf45": correct_error(run.t, run.x, e), "achieved_error": correct_error, "N_rk4": N,
               "cost_ratio": 4 * N / run.nfev, "x_ab2": ab2_by_hand(values["h_ab"]),
               "x_rtrk2": rtrk2_by_hand(values["h_frame"]), "h_largest": h_largest, "load": load}
    for task in ("A2", "A3", "B1", "C1", "D1"):
        result = lab.check(task, namespace={**values, **answers})
        assert result, str(result)
        assert not lab.check(task, namespace=answers), f"Task {task} does not follow its parameters"
