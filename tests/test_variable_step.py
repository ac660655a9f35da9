"""simlab.rkf45: Runge-Kutta-Fehlberg 4(5) with step-size control (变步长), issue 16.

Oracles: Butcher's order conditions on Fehlberg's exact tableau (Hairer, Norsett and Wanner I,
Table II.2.2); closed-form solutions (sympy's dsolve, and exact flow maps x_k -> x_{k+1});
scipy's solve_ivp (DOP853 at rtol 1e-13 as the reference solution, RK45 for the step counts);
sympy for the stability function of the fourth-order solution.
"""

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

import simlab
from simlab.guards import NonFiniteStateError, StepSizeTooSmallError, WorkLimitError
from simlab.results import Result
from simlab.stability import fit_order
from simlab.variable_step import FACTOR_MAX, FACTOR_MIN, FEHLBERG, _fehlberg_step, rkf45


def van_der_pol(t, y):
    return np.array([y[1], (1 - y[0] ** 2) * y[1] - y[0]])


def oscillator(t, y):
    return np.array([y[1], -y[0]])


def reference(f, t_span, x0):
    """solve_ivp's DOP853 at rtol 1e-13: the reference end state."""
    return solve_ivp(f, t_span, np.atleast_1d(x0), method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]


# ---------------------------------------------------------------------------------------------
# The tableau
# ---------------------------------------------------------------------------------------------


def _order_conditions(b, c, A):
    """Butcher's conditions sum b_i Phi_i(tree) = 1 / tree! for the 17 trees of order <= 5."""
    n = len(b)
    dot = lambda u, v: sum(x * y for x, y in zip(u, v))  # noqa: E731
    Av = lambda v: [dot(A[i], v) for i in range(n)]  # noqa: E731
    mul = lambda u, v: [x * y for x, y in zip(u, v)]  # noqa: E731
    one = [Fraction(1)] * n
    c2, c3 = mul(c, c), mul(mul(c, c), c)
    Ac = Av(c)
    return {
        1: [(dot(b, one), Fraction(1))],
        2: [(dot(b, c), Fraction(1, 2))],
        3: [(dot(b, c2), Fraction(1, 3)), (dot(b, Ac), Fraction(1, 6))],
        4: [(dot(b, c3), Fraction(1, 4)), (dot(b, mul(c, Ac)), Fraction(1, 8)),
            (dot(b, Av(c2)), Fraction(1, 12)), (dot(b, Av(Ac)), Fraction(1, 24))],
        5: [(dot(b, mul(c3, c)), Fraction(1, 5)), (dot(b, mul(c2, Ac)), Fraction(1, 10)),
            (dot(b, mul(c, Av(c2))), Fraction(1, 15)), (dot(b, mul(c, Av(Ac))), Fraction(1, 30)),
            (dot(b, mul(Ac, Ac)), Fraction(1, 20)), (dot(b, Av(c3)), Fraction(1, 20)),
            (dot(b, Av(mul(c, Ac))), Fraction(1, 40)), (dot(b, Av(Av(c2))), Fraction(1, 60)),
            (dot(b, Av(Av(Ac))), Fraction(1, 120))],
    }


def _square_A():
    A = [[Fraction(0)] * 6 for _ in range(6)]
    for i, row in enumerate(FEHLBERG["a"]):
        A[i][: len(row)] = row
    return A


def test_fehlberg_nodes_are_the_row_sums_of_the_stage_matrix():
    for c, row in zip(FEHLBERG["c"], FEHLBERG["a"]):
        assert sum(row, Fraction(0)) == c


@pytest.mark.parametrize("weights, order", [("b4", 4), ("b5", 5)])
def test_fehlberg_weights_satisfy_the_order_conditions_exactly(weights, order):
    """Oracle: Butcher's order conditions, in exact rational arithmetic; b4 is not of order 5."""
    conditions = _order_conditions(FEHLBERG[weights], FEHLBERG["c"], _square_A())
    for p in range(1, order + 1):
        assert all(value == target for value, target in conditions[p]), f"{weights}: order {p}"
    if order == 4:
        assert any(value != target for value, target in conditions[5])


def test_each_line_of_the_step_is_the_tableau():
    """The step's literal coefficients against a generic explicit RK step on FEHLBERG."""
    rng = np.random.default_rng(1)
    M = rng.normal(size=(3, 3))
    f = lambda t, x: M @ x + np.sin(t)  # noqa: E731
    x, t, h = rng.normal(size=3), 0.3, 0.2
    k = []
    for c, row in zip(FEHLBERG["c"], FEHLBERG["a"]):
        k.append(f(t + float(c) * h, x + h * sum(float(a) * kj for a, kj in zip(row, k))))
    x4 = x + h * sum(float(b) * ki for b, ki in zip(FEHLBERG["b4"], k))
    x5 = x + h * sum(float(b) * ki for b, ki in zip(FEHLBERG["b5"], k))
    mine4, error = _fehlberg_step(f, t, x, h, f(t, x))
    np.testing.assert_allclose(mine4, x4, rtol=1e-14)
    np.testing.assert_allclose(error, x5 - x4, rtol=1e-9, atol=1e-16)


# ---------------------------------------------------------------------------------------------
# Accuracy against closed forms and solve_ivp
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tol", [1e-4, 1e-6, 1e-8, 1e-10])
def test_every_accepted_step_meets_the_tolerance_against_the_exact_flow(tol):
    """Oracle: sympy's dsolve of x' = x cos t (x = x_k e^{sin t - sin t_k} from any (t_k, x_k)) and
    the flow of x' = -2 t x. The controller bounds the *local* error of each step by the estimate
    |x5 - x4|; the true local error stays within 2.5 times the tolerance (measured at most 1.95)."""
    t_sym, x_sym = sp.Symbol("t"), sp.Function("x")
    solution = sp.dsolve(sp.Eq(x_sym(t_sym).diff(t_sym), x_sym(t_sym) * sp.cos(t_sym)), ics={x_sym(0): 1})
    exact = sp.lambdify(t_sym, solution.rhs, "numpy")
    for f, flow, span in [
        (lambda t, x: x * np.cos(t), lambda t0, t1, x: x * exact(t1) / exact(t0), (0.0, 10.0)),
        (lambda t, x: -2 * t * x, lambda t0, t1, x: x * np.exp(-(t1**2 - t0**2)), (0.0, 3.0)),
    ]:
        t, x = rkf45(f, span, 1.0, rtol=tol, atol=tol)
        local = np.abs(x[1:] - flow(t[:-1], t[1:], x[:-1])) / (tol + tol * np.abs(x[1:]))
        assert local.max() <= 2.5


def test_a_linear_system_against_the_matrix_exponential():
    """Oracle: x(t) = e^{At} x0, by scipy.linalg.expm. The controller bounds the local error; the
    global error accumulates over the 3 periods (measured 3.7e-7 = 37 rtol at t = 5)."""
    from scipy.linalg import expm

    A = np.array([[0.0, 1.0], [-4.0, -0.4]])
    run = rkf45(lambda t, x: A @ x, (0.0, 5.0), [1.0, 0.0], rtol=1e-8, atol=1e-10)
    exact = np.array([expm(A * t) @ [1.0, 0.0] for t in run.t])
    assert np.max(np.abs(run.x - exact)) < 100 * 1e-8


def test_van_der_pol_agrees_with_dop853():
    """Oracle: solve_ivp(method='DOP853', rtol=1e-13)."""
    run = rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(run.x[-1], reference(van_der_pol, (0.0, 20.0), [2.0, 0.0]), atol=1e-6)


def test_the_achieved_error_is_proportional_to_tolerance_to_the_power_four_fifths():
    """Tolerance proportionality: with error-per-step control of a 4th-order solution the global
    error goes as tol^(p/(p+1)) = tol^0.8 (Hairer I, sect. II.4). Measured slopes on these
    problems: 0.80 (x' = -2tx), 0.83 (oscillator), 0.82 (x' = -x + sin t)."""
    tols = np.array([1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10])
    problems = [(lambda t, x: -2 * t * x, (0.0, 3.0), 1.0, lambda t: np.exp(-t**2)),
                (oscillator, (0.0, 20.0), [1.0, 0.0], lambda t: np.array([np.cos(t), -np.sin(t)])),
                (lambda t, x: -x + np.sin(t), (0.0, 10.0), 1.0,
                 lambda t: 1.5 * np.exp(-t) + 0.5 * (np.sin(t) - np.cos(t)))]
    for f, span, x0, exact in problems:
        errors = [np.max(np.abs(rkf45(f, span, x0, rtol=tol, atol=tol).final - exact(span[1]))) for tol in tols]
        assert fit_order(tols, errors) == pytest.approx(0.8, abs=0.1)


# ---------------------------------------------------------------------------------------------
# Cost: steps and evaluations against solve_ivp's RK45
# ---------------------------------------------------------------------------------------------

PROBLEMS = {
    "gauss": (lambda t, x: -2 * t * x, (0.0, 3.0), 1.0),
    "oscillator": (oscillator, (0.0, 20.0), [1.0, 0.0]),
    "van der pol": (van_der_pol, (0.0, 20.0), [2.0, 0.0]),
    "forced decay": (lambda t, x: -x + np.sin(t), (0.0, 10.0), 1.0),
}


@pytest.mark.parametrize("name", PROBLEMS)
@pytest.mark.parametrize("tol", [1e-4, 1e-6, 1e-8, 1e-10])
def test_steps_are_about_those_of_solve_ivp_rk45(name, tol):
    """Oracle: solve_ivp(method='RK45') at the same rtol and atol. Both are 4(5) pairs with the same
    controller; RK45 (Dormand-Prince) has the smaller error constant and goes on from its 5th-order
    solution. Measured ratios of accepted steps: 1.05 to 1.15; of evaluations: 0.95 to 1.13."""
    f, span, x0 = PROBLEMS[name]
    run = rkf45(f, span, x0, rtol=tol, atol=tol)
    scipy_run = solve_ivp(f, span, np.atleast_1d(x0), method="RK45", rtol=tol, atol=tol)
    assert 0.9 <= run.n_accepted / (len(scipy_run.t) - 1) <= 1.25
    assert 0.8 <= run.nfev / scipy_run.nfev <= 1.25


def test_nfev_counts_the_calls_of_f():
    """6 per accepted step, 5 per rejected one, 1 for the choice of the first step."""
    calls = []

    def f(t, x):
        calls.append(t)
        return van_der_pol(t, x)

    run = rkf45(f, (0.0, 20.0), [2.0, 0.0], rtol=1e-6)
    assert run.n_rejected > 0
    assert run.nfev == len(calls) == 6 * run.n_accepted + 5 * run.n_rejected + 1
    calls.clear()
    given = rkf45(f, (0.0, 20.0), [2.0, 0.0], rtol=1e-6, h0=1e-3)
    assert given.nfev == len(calls) == 6 * given.n_accepted + 5 * given.n_rejected


# ---------------------------------------------------------------------------------------------
# The grid and the controller
# ---------------------------------------------------------------------------------------------


def test_the_grid_is_increasing_and_ends_exactly_at_t1():
    run = rkf45(van_der_pol, (0.0, 7.3), [2.0, 0.0])
    assert run.t[0] == 0.0 and run.t[-1] == 7.3
    assert np.all(np.diff(run.t) > 0)
    np.testing.assert_array_equal(run.h, np.diff(run.t))
    assert run.x.shape == (run.n_accepted + 1, 2) and len(run.h) == run.n_accepted


def test_the_step_is_not_uniform_it_follows_the_solution():
    """Van der Pol: short steps in the fast phases, long ones in the slow ones (ratio over 10)."""
    run = rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], rtol=1e-6)
    assert run.h.max() / run.h.min() > 10


def test_step_ratios_respect_the_growth_and_shrink_limits():
    """h grows at most 5 times per accepted step, never right after a rejection, and a rejected
    attempt is followed by one at least 0.2 times as long."""
    run = rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], rtol=1e-5, h0=0.5)
    inner = run.h[:-1]  # the last step is shortened to end at t1
    assert np.all(inner[1:] / inner[:-1] <= FACTOR_MAX * (1 + 1e-12))
    after_rejection = np.isin(run.t[: len(inner) - 1], run.rejected_t)  # step k came after a rejection at t_k
    assert after_rejection.any()
    assert np.all(inner[1:][after_rejection] <= inner[:-1][after_rejection] * (1 + 1e-12))
    for t_rejected, h_rejected in zip(run.rejected_t, run.rejected_h):
        k = int(np.searchsorted(run.t, t_rejected))
        retried = run.rejected_h[(run.rejected_t == t_rejected) & (run.rejected_h < h_rejected)]
        next_try = retried.max() if retried.size else run.h[k]
        assert next_try >= FACTOR_MIN * h_rejected * (1 - 1e-12)


def test_h_max_caps_every_step():
    run = rkf45(oscillator, (0.0, 10.0), [1.0, 0.0], rtol=1e-3, h_max=0.1)
    assert run.h.max() <= 0.1 + 1e-15
    assert run.n_accepted >= 100


def test_a_given_first_step_is_tried_first():
    run = rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, h0=0.01)
    assert run.h[0] == 0.01 and run.n_rejected == 0


def test_the_automatic_first_step_is_accepted_on_a_smooth_problem():
    """Hairer-Norsett-Wanner's choice aims at err ~ 0.01 per step: no rejection at the start."""
    run = rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, rtol=1e-8, atol=1e-10)
    assert run.n_rejected == 0 and run.h[0] < 0.1


def test_the_result_unpacks_as_t_x_and_is_frozen():
    run = rkf45(lambda t, x: -x, (0.0, 1.0), 1.0)
    t, x = run
    assert isinstance(run, Result) and t is run.t and x is run.x and run[1] is run.x
    assert run.method == "rkf45" and run.rtol == 1e-6 and run.atol == 1e-9 and run.steps == run.n_accepted
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.nfev = 0
    assert "rkf45" in repr(run) and "rejected=" in repr(run)


def test_the_top_level_name_is_the_contract():
    import inspect

    assert simlab.rkf45 is rkf45
    assert str(inspect.signature(simlab.rkf45)) == ("(f, t_span, x0, rtol=1e-06, atol=1e-09, h0=None, h_max=None, *, "
                                                    "max_steps=100000, max_rejected=50000, max_nfev=1000000, "
                                                    "max_time=30.0)")


def test_a_batch_state_of_any_shape_runs():
    run = rkf45(lambda t, x: -x, (0.0, 1.0), np.ones((2, 3)), rtol=1e-8)
    assert run.x.shape == (run.n_accepted + 1, 2, 3)
    np.testing.assert_allclose(run.final, np.full((2, 3), np.exp(-1.0)), rtol=1e-7)


# ---------------------------------------------------------------------------------------------
# A stiff problem: stability, not accuracy, sets the step
# ---------------------------------------------------------------------------------------------


def test_the_fourth_order_solution_has_the_stability_limit_minus_3_02():
    """Oracle: sympy, R(z) = 1 + z b4^T (I - z A)^{-1} 1 = 1 + z + ... + z^4/24 + z^5/104, whose real
    root of R = -1 is about -3.020."""
    z = sp.Symbol("z")
    A = sp.Matrix(6, 6, lambda i, j: sp.Rational(str(FEHLBERG["a"][i][j])) if j < i else 0)
    b = sp.Matrix([[sp.Rational(str(v)) for v in FEHLBERG["b4"]]])
    R = sp.expand(1 + z * (b * (sp.eye(6) - z * A).inv() * sp.ones(6, 1))[0])
    assert R == 1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24 + z**5 / 104
    limit = max(float(sp.re(r)) for r in sp.Poly(R + 1, z).nroots() if abs(sp.im(r)) < 1e-12)
    assert limit == pytest.approx(-3.0200, abs=1e-4)


@pytest.mark.parametrize("tol", [1e-3, 1e-6])
def test_on_a_stiff_problem_the_step_sits_at_the_stability_limit_with_many_rejections(tol):
    """x' = -1000 (x - cos t): the solution is smooth after t = 0.01, yet the step stays at
    h lambda = 3.02 (the stability limit of the fourth-order solution, above) at every
    tolerance, and the controller keeps rejecting steps that step over it (measured: 335
    accepted and 33 rejected at 1e-3, 353 and 159 at 1e-6). solve_ivp's RK45 does the same
    (307 and 351 steps). An implicit method does not have the limit: simlab.bdf2 with h = 0.05
    (20 steps, 85 evaluations of f) ends within 7e-7 of the closed form, where rkf45 at
    rtol 1e-6 needs 2923 evaluations."""
    lam = 1000.0
    f = lambda t, x: -lam * (x - np.cos(t))  # noqa: E731
    run = rkf45(f, (0.0, 1.0), 0.0, rtol=tol, atol=tol)
    smooth = run.t[:-1] > 0.1
    assert np.median(run.h[smooth]) * lam == pytest.approx(3.02, rel=0.03)
    assert run.n_rejected >= 0.08 * run.n_accepted
    scipy_steps = len(solve_ivp(f, (0.0, 1.0), [0.0], method="RK45", rtol=tol, atol=tol).t) - 1
    assert 0.9 <= run.n_accepted / scipy_steps <= 1.2
    exact = (lam**2 * np.cos(1.0) + lam * np.sin(1.0)) / (lam**2 + 1) - lam**2 / (lam**2 + 1) * np.exp(-lam)
    assert abs(run.final - exact) < 100 * tol
    implicit = simlab.bdf2(f, (0.0, 1.0), 0.0, 0.05)
    assert abs(implicit.final - exact) < 1e-6 and implicit.nfev < run.nfev / 10


# ---------------------------------------------------------------------------------------------
# Runs that cannot go on
# ---------------------------------------------------------------------------------------------


def test_a_blow_up_stops_with_step_size_too_small_naming_t_and_h():
    """x' = x^2, x(0) = 1 has x = 1 / (1 - t), which blows up at t = 1 (closed form)."""
    with pytest.raises(StepSizeTooSmallError, match=r"rkf45: step size too small: the controller asked for "
                                                    r"h = .* at t = 0\.99") as caught:
        rkf45(lambda t, x: x**2, (0.0, 2.0), 1.0)
    error = caught.value
    assert error.t == pytest.approx(1.0, abs=1e-2) and 0 < error.h < 1e-12 and error.method == "rkf45"


def test_f_that_turns_nan_in_the_steps_tried_is_named_in_the_collapse():
    with pytest.raises(StepSizeTooSmallError, match="f returned inf or NaN in the steps tried"):
        rkf45(lambda t, x: -x if t < 0.5 else np.nan * x, (0.0, 1.0), 1.0)


def test_f_that_is_nan_at_an_accepted_state_is_a_non_finite_state_error():
    """x' = 0 is accepted with err = 0; the 7th call (K1 at the first accepted point) returns NaN."""
    calls = []

    def f(t, x):
        calls.append(t)
        return np.nan if len(calls) == 7 else 0.0

    with pytest.raises(NonFiniteStateError, match=r"rkf45: f returned inf or NaN at the accepted state at "
                                                  r"t = 0\.1 \(step 1") as caught:
        rkf45(f, (0.0, 1.0), 1.0, h0=0.1)
    assert caught.value.step == 1 and caught.value.t == pytest.approx(0.1)


def test_more_than_max_steps_stops_naming_the_limit_and_the_tolerances():
    """A smooth non-stiff problem that needs more steps than allowed: no cause but the tolerances."""
    with pytest.raises(WorkLimitError, match=r"rkf45 stopped at t = .*max_steps = 50 accepted steps\. The "
                                             r"tolerances rtol = 1e-10 and atol = 1e-09 ask for steps") as caught:
        rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], rtol=1e-10, max_steps=50)
    error = caught.value
    assert isinstance(error, ValueError) and (error.limit, error.cause, error.n_accepted) == ("max_steps", None, 50)


# ---------------------------------------------------------------------------------------------
# Bad input: TypeError or ValueError naming the argument
# ---------------------------------------------------------------------------------------------

GOOD = dict(f=lambda t, x: -x, t_span=(0.0, 1.0), x0=1.0)


@pytest.mark.parametrize("changes, error, message", [
    (dict(rtol=0.0), ValueError, r"rtol must be positive, got 0\.0"),
    (dict(rtol=-1e-6), ValueError, r"rtol must be positive"),
    (dict(atol=np.nan), ValueError, r"atol must be a finite number"),
    (dict(atol="1e-9"), TypeError, r"atol must be a real number"),
    (dict(h0=0.0), ValueError, r"h0 must be positive"),
    (dict(h0=[0.1]), TypeError, r"h0 must be a real number"),
    (dict(h_max=-1.0), ValueError, r"h_max must be positive"),
    (dict(h_max=np.inf), ValueError, r"h_max must be a finite number"),
    (dict(t_span=(1.0, 0.0)), ValueError, r"t_span is reversed"),
    (dict(t_span=(0.0, 0.0)), ValueError, r"t_span is empty"),
    (dict(t_span=(0.0, np.nan)), ValueError, r"t_span\[1\] \(t1\) must be a finite number"),
    (dict(x0=[1.0, np.nan]), ValueError, r"x0 must be finite"),
    (dict(x0=1j), TypeError, r"x0 must be real"),
    (dict(x0="one"), TypeError, r"x0 must be a number"),
    (dict(f=3), TypeError, r"f must be a function"),
    (dict(f=lambda t, x: [x, x]), ValueError,
     r"f\(t, x\) returned dx/dt of shape \(2,\), but the state x0 has shape \(\)"),
    (dict(f=lambda t, x: np.nan), ValueError, r"f\(t, x\) returned NaN or inf at the start"),
    (dict(f=lambda t, x: "dx"), TypeError, r"f\(t, x\) must return dx/dt as numbers"),
])
def test_bad_arguments_get_a_message_naming_them(changes, error, message):
    with pytest.raises(error, match=message):
        rkf45(**{**GOOD, **changes})
