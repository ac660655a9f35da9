"""Lab 02: the hints of the catalogued mistakes, and the checks under the alternative parameters.

Each mistaken answer is built here independently (a loop written out, sympy, the library's
integrators, numpy's eigenvalues and roots), not from the lab's own alternatives; the check must
fail and name the mistake. A correct answer computed with the alternative parameter values must
pass every check.
"""

import math

import control
import numpy as np
import pytest
import sympy as sp

import simlab
from simlab.course import lab02_step_size as lab
from simlab.course import systems

HS = (0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625)


def errors_at_two(hs, method):
    """|y_N - y(2)| of the library's integrator on y' = -2 t y^2, y(0) = 1 (closed form 1 / (1 + t^2))."""
    return np.array([abs(simlab.integrate(lambda t, y: -2 * t * y * y, (0.0, 2.0), 1.0, h, method).final - 0.2)
                     for h in hs])


def slopes(hs, transform=np.log):
    """Least-squares slopes of transform(e) against log h, per method (np.polyfit)."""
    return {method: np.polyfit(np.log(hs), transform(errors_at_two(hs, method)), 1)[0]
            for method in ("euler", "heun", "rk4")}


def test_order_fitted_to_another_methods_errors_is_named():
    """Oracle: np.polyfit on the errors of simlab's integrators; Euler's slope given for improved Euler."""
    p = slopes(HS)
    result = lab.check_orders(p["euler"], p["euler"], p["rk4"])
    assert not result and "slope of Euler's errors" in str(result)


def test_order_with_log10_of_the_errors_is_named():
    """Oracle: np.polyfit of np.log10(e) against np.log(h) (the slope divided by ln 10)."""
    p, mixed = slopes(HS), slopes(HS, np.log10)
    result = lab.check_orders(p["euler"], p["heun"], mixed["rk4"])
    assert not result and "same logarithm on both axes" in str(result)


def test_order_fitted_to_the_errors_without_log_is_named():
    """Oracle: np.polyfit of e itself against np.log(h)."""
    p, plain = slopes(HS), slopes(HS, lambda e: e)
    result = lab.check_orders(p["euler"], plain["heun"], p["rk4"])
    assert not result and "take np.log of the errors" in str(result)


def test_no_wrong_slope_passes_as_a_measured_order_by_chance():
    """A1 compares one number per method: the slopes of the other methods, of log10(e) and of e
    are each more than 0.15 away from the method's order, so none is accepted as near the order."""
    p, mixed, plain = slopes(HS), slopes(HS, np.log10), slopes(HS, lambda e: e)
    orders = {"euler": 1, "heun": 2, "rk4": 4}
    for method, order in orders.items():
        wrong = [p[other] for other in orders if other != method] + [mixed[method], plain[method]]
        assert all(abs(value - order) > 0.15 for value in wrong), (method, wrong)


def test_rk4_stability_function_with_equal_weights_is_named():
    """Oracle: sympy, one RK4 step of y' = lambda y with weights 1/4 each, divided by y_0."""
    h, lam, y0, z = sp.symbols("h lambda y_0 z")
    k1 = lam * y0
    k2 = lam * (y0 + h / 2 * k1)
    k3 = lam * (y0 + h / 2 * k2)
    k4 = lam * (y0 + h * k3)
    R = sp.expand((y0 + h / 4 * (k1 + k2 + k3 + k4)) / y0).subs(lam, z / h)
    result = lab.check_stability_function("rk4", sp.expand(R))
    assert not result and "weights its slopes 1, 2, 2, 1" in str(result)


def limit_and_end_value(coefficients):
    """(z_min, R(z_min)) of R(z) given by its coefficients (ascending powers of z), with sympy: the
    largest negative real root of R(z) = 1 or R(z) = -1, and which of the two it solves."""
    z = sp.Symbol("z")
    R = sum(sp.Rational(c) * z**n for n, c in enumerate(coefficients))
    ends = [(float(root), target) for target in (1, -1) for root in sp.real_roots(sp.Poly(R - target, z)) if root < 0]
    return max(ends)


#: R(z) of Euler, improved Euler and RK4, by hand (ascending powers of z).
R_BY_HAND = {"euler": ["1", "1"], "heun": ["1", "1", "1/2"], "rk4": ["1", "1", "1/2", "1/6", "1/24"]}


def test_stability_limits_and_end_values_from_sympy_pass():
    """Oracle: sympy's real roots of R(z) = +-1 for the three polynomials typed by hand."""
    (z_e, R_e), (z_h, R_h), (z_r, R_r) = (limit_and_end_value(R_BY_HAND[m]) for m in ("euler", "heun", "rk4"))
    assert (z_e, R_e, z_h, R_h) == (-2.0, -1, -2.0, 1)
    assert lab.check_stability_limits(z_e, z_h, z_r, R_e, R_h, R_r)


def test_improved_euler_limit_from_eulers_stability_function_is_named():
    """Oracle: by hand, Euler's R(z) = 1 + z reaches -1 at z = -2; that pair given for improved Euler.
    Its limit alone is right by coincidence (improved Euler's interval ends at -2 too): R there is not."""
    z_wrong, R_wrong = limit_and_end_value(R_BY_HAND["euler"])
    assert (z_wrong, R_wrong) == (-2.0, -1)
    assert lab.check_stability_limit("heun", z_wrong), "the limit alone cannot tell the two apart"
    z_e, R_e = limit_and_end_value(R_BY_HAND["euler"])
    z_r, R_r = limit_and_end_value(R_BY_HAND["rk4"])
    result = lab.check_stability_limits(z_e, z_wrong, z_r, R_e, R_wrong, R_r)
    assert not result and "from Euler's R(z)" in str(result)


def test_end_value_given_as_its_magnitude_is_named():
    """Oracle: |R(-2)| = |1 - 2| = 1 for Euler, by hand (R itself is -1)."""
    result = lab.check_stability_limits(-2.0, -2.0, lab.real_stability_limit("rk4"), 1.0, 1.0, 1.0)
    assert not result and "not |R|" in str(result)


def test_rk4_step_limit_with_eulers_interval_is_named():
    """Oracle: numpy's eigenvalues of the stiff system and Euler's real limit -2 (root of 1 + z = -1)."""
    A, _, _ = systems.stiff_system()
    h_euler = -2.0 / np.linalg.eigvals(A).real.min()
    result = lab.check_rk4_step_limit(h_euler, math.ceil(5.0 / h_euler))
    assert not result and "step limit of Euler" in str(result)


def implicit_euler_by_hand(h, t_end, steps=None):
    """(I - hA) x_{k+1} = x_k + h B, x_0 = 0, solved with np.linalg.solve; ``steps`` steps of the loop."""
    A, B, _ = systems.stiff_system()
    n = round(t_end / h)
    x = np.zeros((n + 1, 2))
    for k in range(n if steps is None else steps):
        x[k + 1] = np.linalg.solve(np.eye(2) - h * A, x[k] + h * B)
    return x


def test_implicit_euler_loop_one_step_short_is_named():
    """Oracle: the implicit Euler loop written out, run for N - 1 steps."""
    result = lab.check_implicit_euler(implicit_euler_by_hand(0.1, 5.0, steps=49))
    assert not result and "loop must run" in str(result)


def seed_rk4_by_hand(h, r=5.0, Tf=5.0, weights=(1, 2, 2, 1), k4_fraction=1.0):
    """The seed's RK4 loop on the closed loop 1/(s^3 + 4s^2 + 8s + 6), written out (canonical form)."""
    A = np.array([[-4.0, -8.0, -6.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    b, C = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    x, y = np.zeros(3), [0.0]
    for _ in range(round(Tf / h)):
        K1 = A @ x + b * r
        K2 = A @ (x + h / 2 * K1) + b * r
        K3 = A @ (x + h / 2 * K2) + b * r
        K4 = A @ (x + k4_fraction * h * K3) + b * r
        x = x + h * (weights[0] * K1 + weights[1] * K2 + weights[2] * K3 + weights[3] * K4) / sum(weights)
        y.append(C @ x)
    return np.array(y)


def test_seed_rk4_with_equal_weights_is_named():
    """Oracle: the RK4 loop written out with weights 1, 1, 1, 1 over 4."""
    result = lab.check_seed_rk4(seed_rk4_by_hand(0.02, weights=(1, 1, 1, 1)))
    assert not result and "weights its slopes 1, 2, 2, 1" in str(result)


def test_seed_rk4_with_k4_at_the_middle_is_named():
    """Oracle: the RK4 loop written out with K4 = f(x + h/2 K3)."""
    result = lab.check_seed_rk4(seed_rk4_by_hand(0.02, k4_fraction=0.5))
    assert not result and "K4 is taken at the end" in str(result)


ALTERNATIVES = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}


@pytest.mark.parametrize("changes", [{name: value} for name, value in ALTERNATIVES.items()] + [ALTERNATIVES],
                         ids=[*ALTERNATIVES, "all"])
def test_correct_answers_pass_every_check_under_the_alternative_parameters(changes):
    """Oracles: np.polyfit on the errors of simlab's integrators (A1); numpy's eigenvalues and the
    real root of the RK4 polynomial R(z) = 1 by np.roots (C1); the implicit Euler loop with
    np.linalg.solve (C2); the RK4 loop written out, itself within 1e-6 of python-control's step
    response times r (D2)."""
    values = {**lab.PARAMETERS.defaults(), **changes}
    hs, t_end, h_implicit = values["hs"], values["t_end"], values["h_implicit"]
    h_seed, r, Tf = values["h_seed"], values["r"], values["Tf"]

    p = slopes(hs)
    assert lab.check_orders(p["euler"], p["heun"], p["rk4"], hs=hs)

    roots = np.roots([1 / 24, 1 / 6, 1 / 2, 1])  # (R(z) - 1) / z for RK4
    z_rk4 = max(root.real for root in roots if abs(root.imag) < 1e-9 and root.real < 0)
    A, _, _ = systems.stiff_system()
    h_max = z_rk4 / np.linalg.eigvals(A).real.min()
    assert lab.check_rk4_step_limit(h_max, math.ceil(t_end / h_max), t_end=t_end)

    assert lab.check_implicit_euler(implicit_euler_by_hand(h_implicit, t_end), h_implicit=h_implicit, t_end=t_end)

    y = seed_rk4_by_hand(h_seed, r, Tf)
    t = h_seed * np.arange(len(y))
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    np.testing.assert_allclose(y, r * control.step_response(closed, T=t).outputs, atol=1e-6)
    assert lab.check_seed_rk4(y, h_seed=h_seed, r=r, Tf=Tf)

    # the same answers through the task table, which reads the parameters from the namespace
    namespace = {**values, "p_euler": p["euler"], "p_heun": p["heun"], "p_rk4": p["rk4"], "y_seed": y,
                 "x_implicit": implicit_euler_by_hand(h_implicit, t_end)}
    for task in ("A1", "C2", "D2"):
        result = lab.check(task, namespace=namespace)
        assert result and "(checked with" in str(result), str(result)
