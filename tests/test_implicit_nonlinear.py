"""simlab.implicit.trapezoidal and bdf2: implicit methods with Newton's iteration for nonlinear stiff
(病态) systems, issue 16.

Oracles: solve_ivp(method='Radau') at rtol 1e-12 on Robertson's reactions and a stiff Van der Pol
oscillator (Hairer and Wanner II's test problems); closed forms for linear problems (the
solution of x' = -lambda (x - cos t) and the exact recurrences (I - gamma h A)^{-1} ...);
sympy for the stability functions.
"""

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab.guards import NewtonConvergenceError
from simlab.implicit import ImplicitTrajectory, bdf2, trapezoidal
from simlab.integrators import Trajectory
from simlab.stability import fit_order


def robertson(t, y):
    return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                     0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                     3e7 * y[1] ** 2])


def robertson_jacobian(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [0.0, 6e7 * y[1], 0.0]])


EPS = 1e-3  # Van der Pol in Hairer's scaling: y1' = y2, eps y2' = (1 - y1^2) y2 - y1 (mu = 1/sqrt(eps))


def van_der_pol(t, y):
    return np.array([y[1], ((1 - y[0] ** 2) * y[1] - y[0]) / EPS])


VDP_START = [2.0, -2 / 3 + 10 / 81 * EPS]  # on the slow manifold


def lag(lam):
    """x' = -lam (x - cos t), x(0) = 1, and its closed-form solution."""
    f = lambda t, x: -lam * (x - np.cos(t))  # noqa: E731
    steady = lambda t: (lam**2 * np.cos(t) + lam * np.sin(t)) / (lam**2 + 1)  # noqa: E731
    return f, lambda t: (1 - steady(0.0)) * np.exp(-lam * t) + steady(t)


METHODS = {"trapezoidal": trapezoidal, "bdf2": bdf2}

# ---------------------------------------------------------------------------------------------
# Linear problems: closed forms
# ---------------------------------------------------------------------------------------------


def test_trapezoidal_on_a_linear_system_is_the_exact_recurrence():
    """x_{k+1} = (I - hA/2)^{-1} (I + hA/2) x_k, computed independently."""
    A = np.array([[0.0, 1.0], [-1000.0, -1001.0]])
    h = 0.05
    run = trapezoidal(lambda t, x: A @ x, (0, 1), [1.0, 0.0], h)
    M = np.linalg.solve(np.eye(2) - h / 2 * A, np.eye(2) + h / 2 * A)
    expected = [np.array([1.0, 0.0])]
    for _ in range(20):
        expected.append(M @ expected[-1])
    np.testing.assert_allclose(run.x, expected, rtol=1e-12, atol=1e-14)


def test_bdf2_on_a_linear_system_is_the_exact_recurrence():
    """x_1 = (I - hA)^{-1} x_0, then x_{k+1} = (I - 2hA/3)^{-1} (4 x_k - x_{k-1}) / 3."""
    A = np.array([[0.0, 1.0], [-1000.0, -1001.0]])
    h = 0.05
    run = bdf2(lambda t, x: A @ x, (0, 1), [1.0, 0.0], h)
    expected = [np.array([1.0, 0.0]), np.linalg.solve(np.eye(2) - h * A, [1.0, 0.0])]
    for _ in range(19):
        expected.append(np.linalg.solve(np.eye(2) - 2 * h / 3 * A, (4 * expected[-1] - expected[-2]) / 3))
    np.testing.assert_allclose(run.x, expected, rtol=1e-12, atol=1e-14)


def test_newton_takes_one_correction_plus_a_check_on_a_linear_problem():
    """Newton is exact in one correction when f is linear; the second confirms it (below tol)."""
    run = bdf2(lambda t, x: -5.0 * x + np.sin(t), (0, 1), 1.0, 0.1)
    assert run.newton_iterations.tolist() == [2] * 10


@pytest.mark.parametrize("name", METHODS)
def test_measured_order_two_against_the_closed_form(name):
    """x' = -10 (x - cos t): slope of log max|error| on h = 0.1 .. 0.0125 (measured 2.00)."""
    f, exact = lag(10.0)
    hs = np.array([0.1, 0.05, 0.025, 0.0125])
    errors = [np.max(np.abs(run.x - exact(run.t))) for run in (METHODS[name](f, (0, 2), 1.0, h) for h in hs)]
    assert fit_order(hs, errors) == pytest.approx(2.0, abs=0.1)


def test_stability_functions():
    """Oracle: sympy. Trapezoidal R(z) = (1 + z/2)/(1 - z/2): |R| < 1 for Re z < 0, R(-inf) = -1
    (A-stable, not L-stable); BDF2's roots of (3/2 - z) zeta^2 - 2 zeta + 1/2 tend to 0 (L-stable)."""
    z, zeta = sp.symbols("z zeta")
    R = (1 + z / 2) / (1 - z / 2)
    assert sp.limit(R, z, -sp.oo) == -1
    roots = sp.solve((sp.Rational(3, 2) - z) * zeta**2 - 2 * zeta + sp.Rational(1, 2), zeta)
    assert all(sp.limit(r, z, -sp.oo) == 0 for r in roots)
    # and the runs: one step on x' = lambda x with h lambda = -100
    run = trapezoidal(lambda t, x: -1000.0 * x, (0, 0.1), 1.0, 0.1)
    assert run.final == pytest.approx(float(R.subs(z, -100)), rel=1e-12)


def test_on_a_stiff_transient_bdf2_damps_what_the_trapezoidal_rule_lets_ring():
    """x' = -1000 (x - cos t) from x(0) = 0: a fast transient of size 1. With h = 0.1 (h lambda =
    -100, 36 times RK4's limit) BDF2 is at order 2 after the transient (t >= 0.5); the trapezoidal
    rule's error alternates in sign and decays only by R(-100)^2 = (49/51)^2 = 0.923 every two
    steps: still 0.67 at t = 1."""
    f, exact = lag(1000.0)
    exact0 = lambda t: exact(t) - np.exp(-1000 * t)  # noqa: E731  the solution from x(0) = 0
    hs = np.array([0.1, 0.05, 0.025, 0.0125])
    late = lambda run: np.abs(run.x - exact0(run.t))[run.t >= 0.5].max()  # noqa: E731
    bdf2_errors = [late(bdf2(f, (0, 2), 0.0, h)) for h in hs]
    assert fit_order(hs, bdf2_errors) == pytest.approx(2.0, abs=0.1) and bdf2_errors[0] < 1e-5
    run = trapezoidal(f, (0, 2), 0.0, 0.1)
    error = run.x - exact0(run.t)
    assert np.all(np.sign(error[1:19]) == -np.sign(error[2:20]))  # rings
    np.testing.assert_allclose(error[3:21] / error[1:19], (49 / 51) ** 2, rtol=1e-3)
    assert abs(error[10]) > 0.6


# ---------------------------------------------------------------------------------------------
# Nonlinear stiff problems against Radau
# ---------------------------------------------------------------------------------------------


def test_bdf2_on_robertson_agrees_with_radau_at_order_two():
    """Oracle: solve_ivp(Radau, rtol 1e-12, atol 1e-16). Relative error of each species over
    t in [1, 4]: about 1e-5 at h = 0.04, order 2.0 (measured 2.02, 2.03, 2.05)."""
    reference = solve_ivp(robertson, (0, 4), [1.0, 0.0, 0.0], method="Radau", rtol=1e-12, atol=1e-16,
                          jac=robertson_jacobian, dense_output=True)
    hs = np.array([0.04, 0.02, 0.01])
    errors = []
    for h in hs:
        run = bdf2(robertson, (0, 4), [1.0, 0.0, 0.0], h, jac=robertson_jacobian)
        exact = reference.sol(run.t).T
        errors.append((np.abs(run.x - exact) / np.max(np.abs(exact), axis=0))[run.t >= 1].max())
    assert errors[0] < 2e-4
    assert fit_order(hs, errors) == pytest.approx(2.0, abs=0.15)


def test_the_trapezoidal_rule_on_robertson_gives_negative_concentrations():
    """The honest failure: y2 (about 3.6e-5) rings through negative values after the fast initial
    reaction at h = 0.04, where BDF2 stays positive (L-stability)."""
    trap = trapezoidal(robertson, (0, 4), [1.0, 0.0, 0.0], 0.04, jac=robertson_jacobian)
    assert np.min(trap.x[:, 1]) < -1e-5
    assert np.min(bdf2(robertson, (0, 4), [1.0, 0.0, 0.0], 0.04, jac=robertson_jacobian).x[1:, 1]) > 0


@pytest.mark.parametrize("name", METHODS)
def test_stiff_van_der_pol_agrees_with_radau_at_order_two(name):
    """Oracle: solve_ivp(Radau, rtol 1e-12). eps = 1e-3 on the slow branch (Jacobian eigenvalue
    about -3000: h = 0.02 is 60 times the explicit limit); measured orders 2.00 and 1.98."""
    reference = solve_ivp(van_der_pol, (0, 0.5), VDP_START, method="Radau", rtol=1e-12, atol=1e-14,
                          dense_output=True)
    hs = np.array([0.02, 0.01, 0.005])
    errors = [np.max(np.abs(run.x - reference.sol(run.t).T))
              for run in (METHODS[name](van_der_pol, (0, 0.5), VDP_START, h) for h in hs)]
    assert errors[0] < 1e-3
    assert fit_order(hs, errors) == pytest.approx(2.0, abs=0.1)


def test_a_given_jacobian_gives_the_same_solution_with_fewer_evaluations():
    finite = bdf2(robertson, (0, 1), [1.0, 0.0, 0.0], 0.01)
    exact = bdf2(robertson, (0, 1), [1.0, 0.0, 0.0], 0.01, jac=robertson_jacobian)
    np.testing.assert_allclose(finite.x, exact.x, rtol=1e-6, atol=1e-12)
    assert exact.nfev < finite.nfev


# ---------------------------------------------------------------------------------------------
# Counts and results
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", METHODS)
def test_nfev_counts_every_call_of_f(name):
    """Per Newton iteration: f at the iterate + n for the difference Jacobian; the trapezoidal rule
    also evaluates f at each new point but the last (its next step's f(t_k, x_k))."""
    calls = []

    def f(t, x):
        calls.append(t)
        return robertson(t, x)

    run = METHODS[name](f, (0, 0.5), [1.0, 0.0, 0.0], 0.05)
    iterations = int(run.newton_iterations.sum())
    extra = len(run.t) - 2 if name == "trapezoidal" else 0
    assert run.nfev == len(calls) == 1 + iterations * (1 + 3) + extra
    assert run.njev == iterations and len(run.newton_iterations) == 10


def test_results_are_trajectories_that_unpack_and_name_the_method():
    run = bdf2(lambda t, x: -x, (0, 1), [1.0, 2.0], 0.25)
    t, x = run
    assert isinstance(run, ImplicitTrajectory) and isinstance(run, Trajectory)
    assert (run.method, run.h, x.shape) == ("bdf2", 0.25, (5, 2))
    assert "newton iterations" in repr(run)


def test_a_scalar_state_stays_scalar():
    run = trapezoidal(lambda t, x: -x**3, (0, 1), 1.0, 0.05)
    assert run.x.shape == (21,)
    assert run.final == pytest.approx(1 / np.sqrt(3.0), rel=1e-3)  # x = 1 / sqrt(1 + 2t)


# ---------------------------------------------------------------------------------------------
# Newton failure and bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", METHODS)
def test_newton_that_cycles_is_a_clear_error_naming_step_t_h_and_residual(name):
    """x' = -100 atan(x) with h = 1: Newton on an arctangent-like equation cycles (a classic);
    h = 0.01 converges."""
    f = lambda t, x: -100.0 * np.arctan(x)  # noqa: E731
    with pytest.raises(NewtonConvergenceError, match=rf"{name}: Newton's iteration did not converge in step 1 of 1 "
                                                     rf"\(t = 1, h = 1\) after 20 iteration\(s\).*the residual of "
                                                     rf"the implicit equation was") as caught:
        METHODS[name](f, (0, 1), 3.0, 1.0)
    error = caught.value
    assert (error.method, error.step, error.steps, error.t, error.h, error.iterations) == (name, 1, 1, 1.0, 1.0, 20)
    assert error.residual > 1
    assert METHODS[name](f, (0, 1), 3.0, 0.01).final == pytest.approx(0.0, abs=1e-6)


def test_max_iter_one_is_not_enough_for_a_nonlinear_step():
    with pytest.raises(NewtonConvergenceError, match="after 1 iteration"):
        bdf2(robertson, (0, 1), [1.0, 0.0, 0.0], 0.1, max_iter=1)


@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("changes, error, message", [
    (dict(h=0.3), ValueError, r"h = 0\.3 does not divide"),
    (dict(h=-0.1), ValueError, r"h must be positive"),
    (dict(t_span=(1.0, 0.0)), ValueError, r"t_span is reversed"),
    (dict(x0=[1.0, np.nan]), ValueError, r"x0 must be finite"),
    (dict(x0=[1j, 0.0]), TypeError, r"x0 must be real"),
    (dict(tol=0.0), ValueError, r"tol must be positive"),
    (dict(tol="small"), TypeError, r"tol must be a real number"),
    (dict(max_iter=0), ValueError, r"max_iter must be between 1 and 1000"),
    (dict(max_iter=2.5), TypeError, r"max_iter must be an integer"),
    (dict(jac=3), TypeError, r"jac must be a function"),
    (dict(jac=lambda t, x: np.eye(3)), ValueError, r"jac\(t, x\) must return the Jacobian df/dx as a finite real "
                                                   r"\(2, 2\) matrix"),
    (dict(jac=lambda t, x: [[np.nan, 0], [0, 1]]), ValueError, r"jac\(t, x\) must return"),
    (dict(f=lambda t, x: x[:1]), ValueError, r"f\(t, x\) returned dx/dt of shape \(1,\)"),
    (dict(f="f"), TypeError, r"f must be a function"),
])
def test_bad_arguments_get_a_message_naming_them(name, changes, error, message):
    good = dict(f=lambda t, x: -x, t_span=(0.0, 1.0), x0=[1.0, 0.5], h=0.1)
    with pytest.raises(error, match=message):
        METHODS[name](**{**good, **changes})
