"""Lab 06: the self-checks name the catalogued mistakes, and accept a correct answer for other parameters.

Each mistaken answer is built here independently of the lab's reference functions (by hand, with
scipy's solve_ivp on equations written out in the test, with python-control's transfer function,
or from the library's per-element simulation, the method the lab studies), then handed to the
task's check function directly. The last tests compute correct answers with every parameter at
its declared alternative value and require the checks to accept them.
"""

import control
import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, fsolve

from simlab.course import lab06_nonlinear_elements as lab
from simlab.course.systems import LOOP_P, LOOP_W, LOOP_W0, LOOP_WC
from simlab.elementwise import simulate_elements
from simlab.nonlinear import Backlash, Relay, Saturation
from simlab.structure import simulate

ALTERNATIVE = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}
#: The open loop G(s) = 20 (s + 0.5) / (s (s + 0.1)(s + 2)(s + 10)), by python-control.
G = control.tf([20, 10], np.polymul([1, 0], np.polymul([1, 0.1], np.polymul([1, 2], [1, 10]))))


def _failed_with(result, phrase):
    assert not result.passed, str(result)
    assert phrase in result.message, str(result)


# ---------------------------------------------------------------------------------------------
# Oracles written out here
# ---------------------------------------------------------------------------------------------


def _coefficients(T, a=10.0, kappa=20.0):
    """Closed forms of element 4 (a = 10, kappa = 20): Phi, Gamma, Gamma_hat at the step T."""
    Phi = np.exp(-a * T)
    return Phi, kappa * (1 - Phi) / a, kappa * (a * T - 1 + Phi) / (a**2 * T)


def _script():
    """The input history of Task B1, written out: 0 -> 2 -> 0.5 -> 1.5 -> -1 -> 0 in steps of 0.1."""
    corners = (0.0, 2.0, 0.5, 1.5, -1.0, 0.0)
    points = [0.0]
    for start, end in zip(corners[:-1], corners[1:]):
        n = round(abs(end - start) / 0.1)
        points += [start + (end - start) * k / n for k in range(1, n + 1)]
    return np.array(points)


def _backlash_by_hand(u, b, y_previous=0.0, lower_side=True):
    """The backlash rule as a loop (``lower_side=False``: the rule for pushing down left out)."""
    y = np.empty(len(u))
    for k, u_k in enumerate(u):
        if u_k - b > y_previous:
            y_previous = u_k - b
        elif lower_side and u_k + b < y_previous:
            y_previous = u_k + b
        y[k] = y_previous
    return y


def _saturated_loop(T, limit, gains=(1.0, 0.5)):
    """All states of the saturated loop of Task C1 by solve_ivp, equations written out (PI: K_p e + K_i xi)."""
    def f(t, state):
        xi, x2, x3, x4 = state
        e = 1.0 - x4
        y1 = np.clip(gains[0] * e + gains[1] * xi, -limit, limit)
        return [e, -0.1 * x2 + y1, -2.0 * x3 + x2, -10.0 * x4 + 20.0 * x3]

    t = np.linspace(0.0, 30.0, round(30.0 / T) + 1)
    return solve_ivp(f, (0.0, 30.0), np.zeros(4), t_eval=t, method="LSODA", rtol=1e-10, atol=1e-12,
                     max_step=0.01).y


def _per_element(T, t_end, hold="zoh", nonlinear=None):
    """The per-element run of the four-element loop (the library's simulate_elements)."""
    return simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T, hold=hold, nonlinear=nonlinear)


def _largest(y, y_reference):
    return float(np.max(np.abs(np.asarray(y) - np.asarray(y_reference))))


def _period(t, y):
    """Mean spacing of the upward crossings of the mean, by linear interpolation."""
    above = y - np.mean(y)
    i = np.flatnonzero((above[:-1] < 0) & (above[1:] >= 0))
    crossings = t[i] - above[i] * (t[i + 1] - t[i]) / (above[i + 1] - above[i])
    return float(np.mean(np.diff(crossings)))


def _backlash_cycle(b):
    """The limit cycle of Part D: the backlash on the input of element 2, which leaves the PI output
    itself in x[:, 0] (the lab rebuilds it by hand); amplitude at the backlash input, amplitude and
    period of y over the second half of 300 s (T = 0.005)."""
    run = _per_element(0.005, 300.0, nonlinear={(2, "input"): Backlash(b)})
    late = run.t >= 150.0
    y1, y = run.x[late, 0], run.y[late]
    return (np.max(y1) - np.min(y1)) / 2, _period(run.t[late], y), (np.max(y) - np.min(y)) / 2


def _backlash_harmonic_balance(b):
    """1 + N(A) G(j omega) = 0 by fsolve, with the describing function of Slotine & Li written out."""
    def N(A):
        beta = 1 - 2 * b / A
        return ((np.pi / 2 + np.arcsin(beta) + beta * np.sqrt(1 - beta**2)) / np.pi
                - 1j * 4 * b / (np.pi * A) * (1 - b / A))

    def residual(v):
        value = 1 + N(v[0]) * complex(G(1j * v[1]))
        return [value.real, value.imag]

    A, omega = fsolve(residual, [1.5 * b, 0.5], xtol=1e-12)
    return A, omega, 2 * np.pi / omega


def _phase_crossover():
    """omega_pi (Im G(j omega) = 0 on [1, 10] rad/s) and |G(j omega_pi)|, by python-control."""
    omega = brentq(lambda w: complex(G(1j * w)).imag, 1.0, 10.0, xtol=1e-14)
    return omega, abs(complex(G(1j * omega)))


# ---------------------------------------------------------------------------------------------
# Task A1
# ---------------------------------------------------------------------------------------------


def test_phi_at_the_step_of_task_a2_is_named():
    """Oracle: the closed forms by hand, evaluated at the step T = 0.01 s of Task A2 instead of T_a1."""
    Phi, Gamma, Gamma_hat = _coefficients(0.01)
    result = lab.check_element_coefficients(10.0, 20.0, 0.0, Phi, Gamma, Gamma_hat, T_a1=0.05, T=0.01)
    _failed_with(result, "uses its own step T_a1")


def test_euler_phi_is_named():
    """Oracle: Phi = 1 - aT by hand, the other coefficients from the exact closed forms."""
    _, Gamma, Gamma_hat = _coefficients(0.05)
    result = lab.check_element_coefficients(10.0, 20.0, 0.0, 1 - 10.0 * 0.05, Gamma, Gamma_hat, T_a1=0.05)
    _failed_with(result, "Euler's approximation of e^{-aT}")


def test_gamma_hat_of_the_integrator_is_named():
    """Oracle: kappa T / 2 by hand (the a = 0 limit), the other coefficients exact."""
    Phi, Gamma, _ = _coefficients(0.05)
    result = lab.check_element_coefficients(10.0, 20.0, 0.0, Phi, Gamma, 20.0 * 0.05 / 2, T_a1=0.05)
    _failed_with(result, "the integrator's limit")


# ---------------------------------------------------------------------------------------------
# Task A2: a signed maximum gives the largest error by chance here; the second case refuses it
# ---------------------------------------------------------------------------------------------


def _linear_runs(T):
    runs = {hold: _per_element(T, 20.0, hold) for hold in ("zoh", "foh")}
    return runs, simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, 20.0), T)


def test_signed_maximum_gives_the_largest_error_by_chance_and_is_refused():
    """Oracle: the library's runs; np.max(y - y_RK4) equals max |y - y_RK4| for both holds at the
    default step (the largest deviation is positive), so only max_error on the swapped runs tells."""
    runs, rk4 = _linear_runs(0.01)

    def signed(y, y_reference):
        return np.max(y - y_reference)

    errors = [signed(runs[hold].y, rk4.y) for hold in ("zoh", "foh")]
    assert errors == [_largest(runs[hold].y, rk4.y) for hold in ("zoh", "foh")]  # the chance coincidence
    result = lab.check_hold_errors(*errors, T=0.01, max_error=signed)
    _failed_with(result, "largest signed difference")


def test_error_at_the_end_of_the_run_is_named_in_max_error():
    """Oracle: the library's runs, measured at their last point."""
    runs, rk4 = _linear_runs(0.01)

    def at_end(y, y_reference):
        return abs(y[-1] - y_reference[-1])

    errors = [at_end(runs[hold].y, rk4.y) for hold in ("zoh", "foh")]
    _failed_with(lab.check_hold_errors(*errors, T=0.01, max_error=at_end), "error at the end of the run")


def test_a_max_error_that_raises_is_reported_not_raised():
    runs, rk4 = _linear_runs(0.01)

    def broken(y, y_reference):
        return y.error

    errors = [_largest(runs[hold].y, rk4.y) for hold in ("zoh", "foh")]
    _failed_with(lab.check_hold_errors(*errors, T=0.01, max_error=broken), "raised AttributeError")


# ---------------------------------------------------------------------------------------------
# Task B1
# ---------------------------------------------------------------------------------------------


def test_backlash_without_the_lower_side_is_named():
    """Oracle: the rule as a loop by hand, with the branch for pushing down left out."""
    u = _script()
    _failed_with(lab.check_backlash(_backlash_by_hand(u, 0.5, lower_side=False), b_gap=0.5), "never moves down")


def test_backlash_started_on_the_lower_side_is_named():
    """Oracle: the rule as a loop by hand, started at y_{-1} = u_0 - b."""
    u = _script()
    result = lab.check_backlash(_backlash_by_hand(u, 0.5, y_previous=u[0] - 0.5), b_gap=0.5)
    _failed_with(result, "starts on the lower side of the gap")


# ---------------------------------------------------------------------------------------------
# Tasks C1 and C2
# ---------------------------------------------------------------------------------------------


def test_swapped_pi_gains_are_named():
    """Oracle: solve_ivp on the equations written out, PI output 0.5 e + xi."""
    y = _saturated_loop(0.01, 0.8, gains=(0.5, 1.0))[3]
    _failed_with(lab.check_saturated_ode(y, T=0.01, limit=0.8), "PI gains are swapped")


def test_the_first_state_instead_of_the_output_is_named():
    """Oracle: solve_ivp on the equations written out; its state 0 is xi."""
    xi = _saturated_loop(0.01, 0.8)[0]
    _failed_with(lab.check_saturated_ode(xi, T=0.01, limit=0.8), "the integral of the error")


def test_saturation_error_at_the_end_of_the_run_is_named():
    """Oracle: the library's per-element run against solve_ivp, at the last point."""
    run = _per_element(0.01, 30.0, nonlinear={(1, "output"): Saturation(0.8)})
    y_ode = _saturated_loop(0.01, 0.8)[3]
    result = lab.check_saturation_error(abs(run.y[-1] - y_ode[-1]), T=0.01, limit=0.8, max_error=_largest)
    _failed_with(result, "error at the end of the run")


def test_saturation_error_by_a_signed_maximum_is_refused():
    """Oracle: as above; np.max(y - y_ode) is the largest error by chance, the swapped case is not."""
    run = _per_element(0.01, 30.0, nonlinear={(1, "output"): Saturation(0.8)})
    y_ode = _saturated_loop(0.01, 0.8)[3]

    def signed(y, y_reference):
        return np.max(y - y_reference)

    assert signed(run.y, y_ode) == pytest.approx(_largest(run.y, y_ode), rel=1e-12)
    result = lab.check_saturation_error(signed(run.y, y_ode), T=0.01, limit=0.8, max_error=signed)
    _failed_with(result, "largest signed difference")


# ---------------------------------------------------------------------------------------------
# Tasks D1 and E1
# ---------------------------------------------------------------------------------------------


def test_predicted_amplitude_as_the_measurement_is_named():
    """Oracle: harmonic balance with the describing function written out, and the measured period and
    amplitude of y from the library's run (backlash on the input of element 2)."""
    _, period, A_y = _backlash_cycle(0.2)
    A_predicted, _, _ = _backlash_harmonic_balance(0.2)
    result = lab.check_limit_cycle_measured(A_predicted, period, A_y, b_bl=0.2)
    _failed_with(result, "describing function's prediction")


def test_relay_amplitude_with_one_over_g_is_named():
    """Oracle: python-control's G at the phase crossover found by brentq."""
    omega, abs_G = _phase_crossover()
    _failed_with(lab.check_relay_prediction(omega, 4 / (np.pi * abs_G), M_relay=1.0), "uses 1/|G|")


def test_relay_amplitude_measured_instead_of_predicted_is_named():
    """Oracle: the library's per-element run with Relay(1) on the error, amplitude of e over the second half."""
    omega, _ = _phase_crossover()
    run = _per_element(0.001, 40.0, nonlinear={(1, "input"): Relay(1.0)})
    e = 1.0 - run.y[run.t >= 20.0]
    result = lab.check_relay_prediction(omega, (np.max(e) - np.min(e)) / 2, M_relay=1.0)
    _failed_with(result, "measured in the simulation")


# ---------------------------------------------------------------------------------------------
# Correct answers with every parameter at its alternative value
# ---------------------------------------------------------------------------------------------


def test_alternative_values_are_the_ones_tried_here():
    assert ALTERNATIVE == {"T_a1": 0.1, "T": 0.02, "b_gap": 0.3, "limit": 0.6, "b_bl": 0.3, "M_relay": 2.0}


def test_correct_answers_pass_with_the_alternative_parameters_in_parts_a_and_b():
    """Oracles: the closed forms by hand (A1); the library's per-element runs against python-control's
    exact step response of the closed loop (A2); the backlash loop by hand (B1)."""
    T_a1, T, b_gap = ALTERNATIVE["T_a1"], ALTERNATIVE["T"], ALTERNATIVE["b_gap"]
    assert lab.check_element_coefficients(10.0, 20.0, 0.0, *_coefficients(T_a1), T_a1=T_a1, T=T)
    t = np.linspace(0.0, 20.0, round(20.0 / T) + 1)
    y_exact = control.step_response(control.feedback(G, 1), T=t).outputs
    errors = [_largest(_per_element(T, 20.0, hold).y, y_exact) for hold in ("zoh", "foh")]
    assert lab.check_hold_errors(*errors, T=T, max_error=_largest)
    assert lab.check_backlash(_backlash_by_hand(_script(), b_gap), b_gap=b_gap)


def test_correct_answers_pass_with_the_alternative_parameters_in_part_c():
    """Oracles: solve_ivp on the equations written out (C1); the library's per-element run against it (C2)."""
    T, limit = ALTERNATIVE["T"], ALTERNATIVE["limit"]
    y_ode = _saturated_loop(T, limit)[3]
    assert lab.check_saturated_ode(y_ode, T=T, limit=limit)
    run = _per_element(T, 30.0, nonlinear={(1, "output"): Saturation(limit)})
    assert lab.check_saturation_error(_largest(run.y, y_ode), T=T, limit=limit, max_error=_largest)


def test_correct_answers_pass_with_the_alternative_parameters_in_parts_d_and_e():
    """Oracles: the library's backlash loop measured here (D1); harmonic balance with the describing
    function written out (D2); python-control's G at the phase crossover (E1)."""
    b_bl, M = ALTERNATIVE["b_bl"], ALTERNATIVE["M_relay"]
    A_in, period, A_y = _backlash_cycle(b_bl)
    assert lab.check_limit_cycle_measured(A_in, period, A_y, b_bl=b_bl)
    assert lab.check_harmonic_balance(*_backlash_harmonic_balance(b_bl), b_bl=b_bl)
    omega, abs_G = _phase_crossover()
    assert lab.check_relay_prediction(omega, 4 * M * abs_G / np.pi, M_relay=M)
