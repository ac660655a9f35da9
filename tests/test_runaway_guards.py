"""Runs that never end, and misnamed causes, in rkf45 and the implicit methods (issue 23).

Every run that cannot finish stops within seconds with an error that names the limit, the
cause and the fix; tolerances and steps that float64 cannot deliver are refused before the run.
No test here waits for a default limit: the hopeless runs of the issue stop early (their cause
is diagnosed after :data:`simlab.variable_step.WINDOW` steps), the others get small limits.

Oracles: the stability limit of rkf45's fourth-order solution (R(z) = -1 at z = -3.02,
tests/test_variable_step.py derives it with sympy), so x' = -lambda (x - cos t) needs
lambda (t1 - t0) / 3.02 steps; the closed form of that equation; the float64 constants (eps,
the smallest normal float, np.spacing); Filippov's sliding solution of x' = -sign(x - 0.5)
(x = 0.5 after t = 0.5: the slope changes sign at every step that crosses it).
"""

import re
import time

import numpy as np
import pytest

import simlab
from simlab.guards import (
    DEFAULT_MAX_TIME,
    NewtonConvergenceError,
    NonFiniteStateError,
    STATE_LIMIT,
    StepSizeTooSmallError,
    WorkLimitError,
)
from simlab.implicit import TOL_MAX, TOL_MIN, bdf2, trapezoidal
from simlab.variable_step import RTOL_MIN, WINDOW, rkf45

EPS = np.finfo(float).eps
IMPLICIT = {"trapezoidal": trapezoidal, "bdf2": bdf2}


def stiff(t, x):
    """x' = -1e6 (x - cos t): the stiff problem of the issue (over 120 s before issue 23)."""
    return -1e6 * (x - np.cos(t))


def switch(t, x):
    """x' = -sign(x - 0.5): a discontinuous right-hand side (5-10 s before issue 23)."""
    return -np.sign(x - 0.5)


def van_der_pol(t, y):
    return np.array([y[1], (1 - y[0] ** 2) * y[1] - y[0]])


# ---------------------------------------------------------------------------------------------
# rkf45: the hopeless runs of the issue stop early, naming the cause and the fix
# ---------------------------------------------------------------------------------------------


def test_the_stiff_run_of_the_issue_stops_at_once_naming_stiffness_and_the_implicit_methods():
    """The step sits at h lambda = 3.02 (lambda = 1e6): 20 / 3.02e-6 = 6.6 million steps are
    needed, far beyond max_steps = 100,000; the run stops after the first window."""
    start = time.perf_counter()
    with pytest.raises(WorkLimitError, match=r"rkf45 stopped early at t = .* the rest of the span needs about "
                                             r"[\d,]+ more steps, beyond max_steps = 100,000 accepted steps\. The "
                                             r"problem looks stiff: .*simlab\.bdf2 or simlab\.trapezoidal") as caught:
        rkf45(stiff, (0.0, 20.0), 0.0)
    assert time.perf_counter() - start < 5.0
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.method, error.limit, error.cause, error.n_accepted) == ("rkf45", "max_steps", "stiff", WINDOW)
    assert error.h * 1e6 == pytest.approx(3.02, rel=0.15)  # the step is pinned at the stability limit
    estimate = float(re.search(r"\|lambda\| ~ ([-+.e\d]+) 1/s", str(error)).group(1))
    assert estimate == pytest.approx(1e6, rel=0.2)  # Hairer's estimate of the stiff eigenvalue, lambda = 1e6


def test_the_implicit_method_the_message_names_solves_the_stiff_problem():
    """Oracle: the closed form x(t) = (lambda^2 cos t + lambda sin t) / (lambda^2 + 1) - C e^{-lambda t}."""
    lam = 1e6
    run = simlab.bdf2(stiff, (0.0, 20.0), 0.0, 0.05)
    exact = (lam**2 * np.cos(20.0) + lam * np.sin(20.0)) / (lam**2 + 1)
    assert abs(run.final - exact) < 1e-6


def test_the_discontinuous_run_of_the_issue_stops_at_the_switch_naming_t_and_splitting_the_run():
    """x reaches 0.5 at t = 0.5; after that the slope flips at every step (chattering)."""
    start = time.perf_counter()
    with pytest.raises(WorkLimitError, match=r"f looks discontinuous: dx/dt reversed its direction in 100% of the "
                                             r"last 200 steps.* near t = 0\.50.*Split the run at t = 0\.50") as caught:
        rkf45(switch, (0.0, 20.0), 1.0)
    assert time.perf_counter() - start < 5.0
    error = caught.value
    assert (error.limit, error.cause) == ("max_steps", "discontinuity")
    assert error.t == pytest.approx(0.5, abs=0.02)


def test_a_stiff_run_that_fits_in_the_limits_is_not_stopped():
    """The same equation over (0, 0.005): about 0.005 / 3.02e-6 = 1,700 steps, fewer than max_steps."""
    run = rkf45(stiff, (0.0, 0.005), 0.0)
    assert 1000 < run.n_accepted < 3000 and run.t[-1] == 0.005


def test_a_chattering_run_that_fits_in_the_limits_is_not_stopped():
    run = rkf45(switch, (0.0, 0.52), 1.0)
    assert run.t[-1] == 0.52 and run.n_accepted > WINDOW
    assert np.max(np.abs(run.x[run.t > 0.51] - 0.5)) < 1e-4  # Filippov: x = 0.5 after t = 0.5


# ---------------------------------------------------------------------------------------------
# rkf45: each limit stops the run and is named
# ---------------------------------------------------------------------------------------------


def test_max_steps_stops_with_the_cause_diagnosed_from_the_steps_so_far():
    """150 steps, fewer than a window: the limit itself stops the run, and the cause is named."""
    with pytest.raises(WorkLimitError, match=r"rkf45 stopped at t = .*: it reached max_steps = 150 accepted steps\. "
                                             r"The problem looks stiff") as caught:
        rkf45(stiff, (0.0, 20.0), 0.0, max_steps=150)
    assert (caught.value.limit, caught.value.cause, caught.value.n_accepted) == ("max_steps", "stiff", 150)


def test_max_rejected_stops_at_the_first_rejection_beyond_it():
    """Van der Pol rejects steps (tests/test_variable_step.py); max_rejected = 0 allows none."""
    with pytest.raises(WorkLimitError, match=r"1 rejected steps.*it reached max_rejected = 0 rejected steps") as caught:
        rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], max_rejected=0)
    assert (caught.value.limit, caught.value.n_rejected) == ("max_rejected", 1)


def test_max_nfev_is_never_passed():
    """The run stops before a step (5 evaluations, 6 with the next K1) that could pass it."""
    with pytest.raises(WorkLimitError, match=r"it reached max_nfev = 100 evaluations of f") as caught:
        rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], max_nfev=100)
    error = caught.value
    assert error.limit == "max_nfev" and 94 < error.nfev <= 100
    assert error.nfev == 6 * error.n_accepted + 5 * error.n_rejected + 2  # f(t0, x0) and the first step's choice


def test_max_time_stops_a_long_run_and_can_be_raised_or_lifted():
    f = lambda t, x: np.array([x[1], -x[0]])  # noqa: E731 - a long, smooth run: 1e4 periods at rtol 1e-10
    start = time.perf_counter()
    with pytest.raises(WorkLimitError, match=r"it reached max_time = 0\.05 s.*or raise max_time") as caught:
        rkf45(f, (0.0, 6e4), [1.0, 0.0], rtol=1e-10, max_time=0.05)
    assert time.perf_counter() - start < 2.0
    assert caught.value.limit == "max_time" and caught.value.elapsed >= 0.05
    assert rkf45(f, (0.0, 1.0), [1.0, 0.0], max_time=None).t[-1] == 1.0
    assert DEFAULT_MAX_TIME == 30.0


def test_a_tolerance_near_the_float64_floor_is_named_at_the_limit():
    with pytest.raises(WorkLimitError, match=r"rtol = 1e-13 is near what float64 can deliver") as caught:
        rkf45(van_der_pol, (0.0, 20.0), [2.0, 0.0], rtol=1e-13, atol=1e-15, max_steps=100)
    assert caught.value.cause == "tolerance"


@pytest.mark.parametrize("changes, message", [
    (dict(max_steps=0), r"max_steps must be between|max_steps must be at least 1"),
    (dict(max_steps=2.5), r"max_steps must be an integer"),
    (dict(max_rejected=-1), r"max_rejected must be at least 0"),
    (dict(max_nfev="many"), r"max_nfev must be an integer"),
    (dict(max_time=0.0), r"max_time must be positive, got 0\.0.*None means no limit"),
    (dict(max_time=np.inf), r"max_time must be a finite number.*None means no limit"),
    (dict(max_time="1"), r"max_time must be a real number"),
])
def test_bad_limits_are_refused_naming_them(changes, message):
    with pytest.raises((TypeError, ValueError), match=message):
        rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, **changes)


# ---------------------------------------------------------------------------------------------
# rkf45: tolerances and steps outside what float64 can deliver are refused up front
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rtol, message", [
    (1e-300, r"rtol = 1e-300 is below what float64 can deliver: .*100 eps = 2\.22e-14"),
    (RTOL_MIN * 0.99, r"rtol = 2\.19.*e-14 is below what float64 can deliver"),
    (1.0, r"rtol = 1\.0 asks for no accuracy.*Use rtol < 1"),
    (5, r"rtol = 5\.0 asks for no accuracy"),
])
def test_rtol_outside_its_bounds_is_refused_before_the_run(rtol, message):
    """rtol = atol = 1e-300 never ended, rtol = 1 and 5 returned garbage (issue 23). Bounds:
    100 eps <= rtol < 1 (scipy's floor: 100 eps)."""
    calls = []
    with pytest.raises(ValueError, match=message):
        rkf45(lambda t, x: calls.append(t) or -x, (0.0, 1.0), 1.0, rtol=rtol, atol=1e-300)
    assert not calls  # refused before f is called
    assert RTOL_MIN == 100 * EPS


def test_rtol_at_its_floor_runs():
    run = rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, rtol=RTOL_MIN, atol=1e-300)
    assert abs(run.final - np.exp(-1.0)) < 1e-12


@pytest.mark.parametrize("atol, error, message", [
    (0.0, ValueError, r"atol must be positive"),
    (np.inf, ValueError, r"atol must be a finite number"),
    (-1e-9, ValueError, r"atol must be positive"),
])
def test_atol_must_be_positive_and_finite(atol, error, message):
    with pytest.raises(error, match=message):
        rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, atol=atol)


@pytest.mark.parametrize("name", ["h0", "h_max"])
def test_a_denormal_h0_or_h_max_is_refused_naming_it_not_reported_as_a_collapse(name):
    """1e-320 was reported as a step collapse near a singularity; the smallest step that advances
    t on (0, 1) is 64 units of roundoff of 1, 64 * 2.2e-16 = 1.42e-14."""
    with pytest.raises(ValueError, match=rf"{name} = 1e-320 is too small to be a step on t_span = \(0\.0, 1\.0\): "
                                         rf"a step below 1\.42e-14"):
        rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, **{name: 1e-320})
    assert 64 * np.spacing(1.0) == pytest.approx(1.42e-14, rel=1e-3)


def test_the_smallest_step_follows_the_size_of_t():
    """Near t = 1e6 the floats are 1.16e-10 apart: h0 = 1e-9 (8.6 units) is too small there."""
    with pytest.raises(ValueError, match=r"h0 = 1e-09 is too small to be a step .* below 7\.45e-09"):
        rkf45(lambda t, x: -x, (1e6, 1e6 + 1.0), 1.0, h0=1e-9)
    assert rkf45(lambda t, x: -x, (1e6, 1e6 + 1.0), 1.0, h0=1e-8).h[0] == pytest.approx(1e-8, rel=0.02)  # rounded to t's grid


def test_an_h_max_that_needs_more_steps_than_max_steps_is_refused_up_front():
    with pytest.raises(ValueError, match=r"h_max = 1e-06 caps the step so that t_span = \(0\.0, 1\.0\) needs at "
                                         r"least 1,000,000 steps, more than max_steps = 100,000"):
        rkf45(lambda t, x: -x, (0.0, 1.0), 1.0, h_max=1e-6)


def test_a_span_shorter_than_the_smallest_step_there_is_refused():
    """Near 1e16 the floats are 2 apart: no step fits in (1e16, 1e16 + 8)."""
    with pytest.raises(ValueError, match=r"t_span = \(1e\+16, .*\) is shorter than the smallest step that advances "
                                         r"t there, 128.*shift the time origin, t_span = \(0, 8\.0\)"):
        rkf45(lambda t, x: -x, (1e16, 1e16 + 8.0), 1.0)


def test_a_denormal_span_is_refused_asking_for_other_units():
    with pytest.raises(ValueError, match=r"t_span = \(0\.0, 5e-324\) is shorter than the smallest step .* 2\.23e-308.*"
                                         r"use other units of time"):
        rkf45(lambda t, x: -x, (0.0, 5e-324), 1.0)


# ---------------------------------------------------------------------------------------------
# rkf45: the cause of a step collapse
# ---------------------------------------------------------------------------------------------


def test_a_jump_in_f_is_named_as_a_discontinuity_at_its_t():
    """f jumps from 0 to 1e20 at t = 0.5: the error estimate of a step across it is ~ h 1e20,
    which no step above the resolution of t brings below the tolerance."""
    with pytest.raises(StepSizeTooSmallError, match=r"f looks discontinuous at t = 0\.5.*Split the run at t = "
                                                    r"0\.5") as caught:
        rkf45(lambda t, x: 0.0 if t < 0.5 else 1e20, (0.0, 1.0), 0.0)
    assert caught.value.cause == "discontinuity" and caught.value.t == pytest.approx(0.5)


def test_a_jump_in_f_with_a_slow_solution_is_named_as_a_discontinuity():
    with pytest.raises(StepSizeTooSmallError, match=r"f looks discontinuous at t = 0\.5: the solution's own time "
                                                    r"scale there, \|x\| / \|dx/dt\| = 1") as caught:
        rkf45(lambda t, x: -x if t < 0.5 else 1e12 + 0 * x, (0.0, 1.0), 1.0)
    assert caught.value.cause == "discontinuity"


def test_a_blow_up_is_still_named_as_a_singularity():
    """x' = x^2, x(0) = 1: x = 1 / (1 - t) (closed form)."""
    with pytest.raises(StepSizeTooSmallError, match=r"a singularity \(the solution blows up near t = 0\.99999") as caught:
        rkf45(lambda t, x: x**2, (0.0, 2.0), 1.0)
    assert caught.value.cause == "singularity"


# ---------------------------------------------------------------------------------------------
# Callables are checked before the first call
# ---------------------------------------------------------------------------------------------


def test_rkf45_checks_the_signature_of_f_before_calling_it():
    with pytest.raises(TypeError, match=r"f must be a function that can be called as f\(t, x\).*signature \(x\)"):
        rkf45(lambda x: -x, (0.0, 1.0), 1.0)


@pytest.mark.parametrize("name", IMPLICIT)
@pytest.mark.parametrize("argument, call", [("f", "f"), ("jac", "jac")])
def test_the_implicit_methods_check_f_and_jac_before_calling_either(name, argument, call):
    calls = []

    def f(t, x):
        calls.append(t)
        return -x

    arguments = {"f": f, "jac": None}
    arguments[argument] = lambda x: x
    with pytest.raises(TypeError, match=rf"{argument} must be a function that can be called as {call}\(t, x\)"):
        IMPLICIT[name](arguments["f"], (0.0, 1.0), [1.0, 0.5], 0.1, jac=arguments["jac"])
    assert not calls


# ---------------------------------------------------------------------------------------------
# The implicit methods: tol bounds, f returning NaN named as such, the time limit
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", IMPLICIT)
@pytest.mark.parametrize("tol, message", [
    (1.0, r"tol = 1\.0 is outside its bounds 100 eps = 2\.22e-14 <= tol <= 0\.01: above it"),
    (0.5, r"tol = 0\.5 is outside its bounds"),
    (1e-20, r"tol = 1e-20 is outside its bounds .*: below it"),
])
def test_tol_outside_its_bounds_is_refused(name, tol, message):
    """tol = 1.0 was accepted (issue 23): a Newton iterate that still moves by 100 % passed."""
    with pytest.raises(ValueError, match=message):
        IMPLICIT[name](lambda t, x: -x, (0.0, 1.0), 1.0, 0.1, tol=tol)


@pytest.mark.parametrize("name", IMPLICIT)
@pytest.mark.parametrize("tol", [TOL_MIN, TOL_MAX])
def test_tol_at_its_bounds_runs(name, tol):
    run = IMPLICIT[name](lambda t, x: -x, (0.0, 1.0), 1.0, 0.01, tol=tol)
    assert abs(run.final - np.exp(-1.0)) < 1e-4
    assert TOL_MIN == 100 * EPS


@pytest.mark.parametrize("name", IMPLICIT)
def test_f_that_returns_nan_after_the_first_step_is_named_not_reported_as_newton_failure(name):
    """f is NaN from t = 0.35 on: step 4 (t = 0.4) evaluates it first. It used to say "Newton's
    iteration did not converge ... Try a smaller h"."""
    f = lambda t, x: -x if t < 0.35 else np.nan * x  # noqa: E731
    with pytest.raises(NonFiniteStateError, match=rf"{name}: f returned NaN \(or inf\) at t = 0\.4 \(step 4 of 10, "
                                                  rf"h = 0\.1, at Newton iteration 1") as caught:
        IMPLICIT[name](f, (0.0, 1.0), 1.0, 0.1)
    error = caught.value
    assert not isinstance(error, NewtonConvergenceError)
    assert (error.method, error.step, error.steps, error.t) == (name, 4, 10, pytest.approx(0.4))


@pytest.mark.parametrize("name", IMPLICIT)
def test_f_that_returns_nan_in_the_difference_jacobian_is_named(name):
    """f is finite only while x[1] is exactly 0 (so it is at every iterate, x[1]' = 0), NaN at
    the shifted points of the forward-difference Jacobian."""
    def f(t, y):
        return np.array([-y[0], 0.0]) if y[1] == 0 else np.full(2, np.nan)

    with pytest.raises(NonFiniteStateError, match=r"f returned NaN \(or inf\) at t = 0\.1 \(step 1 of 10, .*in a "
                                                  r"difference quotient of the Jacobian"):
        IMPLICIT[name](f, (0.0, 1.0), [1.0, 0.0], 0.1)


def test_f_that_returns_inf_at_the_new_state_of_the_trapezoidal_rule_is_named():
    """The trapezoidal rule evaluates f(t_{k+1}, x_{k+1}) for the next step; inf there is f's."""
    def f(t, x):
        return -x if abs(t - 0.2) > 1e-9 or abs(x - np.exp(-0.2)) > 1e-2 else np.inf

    with pytest.raises(NonFiniteStateError, match=r"f returned NaN \(or inf\) at t = 0\.2 \(step 2 of 10"):
        trapezoidal(f, (0.0, 1.0), 1.0, 0.1)


@pytest.mark.parametrize("name", IMPLICIT)
def test_max_time_stops_a_long_implicit_run_with_the_time_it_would_take(name):
    start = time.perf_counter()
    with pytest.raises(WorkLimitError, match=rf"{name} stopped at t = .* after [\d,]+ of 1,000,000 steps and .* "
                                             rf"beyond max_time = 0\.05 s: at this pace the run needs about "
                                             rf"[\d,]+ s in all") as caught:
        IMPLICIT[name](lambda t, x: -x, (0.0, 10.0), [1.0, 2.0], 1e-5, max_time=0.05)
    assert time.perf_counter() - start < 2.0
    assert isinstance(caught.value, ValueError) and caught.value.limit == "max_time"


@pytest.mark.parametrize("name", IMPLICIT)
def test_the_newton_iteration_is_capped(name):
    """max_iter (1 .. 1000) caps the iterations of each step."""
    with pytest.raises(ValueError, match=r"max_iter must be between 1 and 1000"):
        IMPLICIT[name](lambda t, x: -x, (0.0, 1.0), 1.0, 0.1, max_iter=10**4)


# ---------------------------------------------------------------------------------------------
# States too close to the float64 range: refused up front, or named when the run gets there
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", [lambda f, x0: rkf45(f, (0.0, 1.0), x0),
                                    lambda f, x0: trapezoidal(f, (0.0, 1.0), x0, 0.1),
                                    lambda f, x0: bdf2(f, (0.0, 1.0), x0, 0.1)], ids=["rkf45", "trapezoidal", "bdf2"])
def test_an_initial_state_near_the_float64_range_is_refused_naming_x0(method):
    """x0 = 1e308 collapsed rkf45's step ("f returned inf or NaN") and made bdf2 blame f: a step
    adds several multiples of x (Fehlberg's stage weights reach 8), so |x0| <= max / 64."""
    with pytest.raises(ValueError, match=r"x0 has an entry of magnitude 1e\+308, too close to the float64 range.*"
                                         r"\|x0\| <= 2\.81e\+306"):
        method(lambda t, x: -x, [1e308, 5e307])
    assert STATE_LIMIT == np.finfo(float).max / 64


def test_rkf45_names_a_state_that_grows_to_the_float64_range():
    """x' = x from 1e306: x = 1e306 e^t passes 2.8e306 at t = 1.03 and overflows the stages."""
    with pytest.raises(StepSizeTooSmallError, match=r"the state or its slope \(up to .*e\+30[78]\) is so close to the "
                                                    r"float64 range") as caught:
        rkf45(lambda t, x: x, (0.0, 10.0), 1e306)
    assert caught.value.cause == "overflow"


@pytest.mark.parametrize("name", IMPLICIT)
def test_an_implicit_state_that_overflows_is_not_blamed_on_f(name):
    """x' = x with h = 0.5: the trapezoidal rule amplifies by R(0.5) = 1.25 / 0.75 = 5/3 per step,
    BDF2 by the root 1.707 of 2 r^2 - 4 r + 1 (e^0.5 = 1.65 exactly): past 1.8e308 = e^709.8 after
    about 1,330 to 1,390 steps. f(t, x) = x is innocent."""
    with pytest.raises(NonFiniteStateError, match=rf"{name}: the state left the float64 range \(1\.8e308\) in step "
                                                  rf"\d+ of 4000") as caught:
        IMPLICIT[name](lambda t, x: x, (0.0, 2000.0), 1.0, 0.5)
    assert "f returned" not in str(caught.value) and 1300 < caught.value.step < 1400
