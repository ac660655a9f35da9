"""Lecture 07 (real time, multistep, delay, sampled data): every number it prints, against an oracle.

The lecture's numbers come from ``simlab.course.lecture07_real_time``; each test recomputes one
table from an independent oracle, named in the test:

* scipy's ``solve_ivp`` (DOP853 at rtol 1e-13) for every trajectory whose error is printed;
* sympy for the Taylor expansions behind the orders and the error constants (the test equation
  and e^t, not the interpolation the lecture uses) and for the closed forms;
* numerical runs on y' = lambda y for the ends of the stability intervals;
* python-control (``c2d``, ``feedback``, ``forced_response``, ``pade``, ``poles``) for the
  sampled-data loops and the Padé approximants; scipy's ``quad`` for the delay gains.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import control
import numpy as np
import pytest
import sympy as sp
from scipy import integrate, optimize, signal

import simlab
from simlab.course import lecture07_real_time as lecture
from simlab.multistep import MULTISTEP_METHODS
from simlab.realtime import REAL_TIME_METHODS, input_schedule

#: The orders of the literature (Howe 1995 for RTRK2 and RTRK3; Hairer, Norsett and Wanner for
#: Adams), and what a held or extrapolated input leaves of RK4.
EXPECTED_ORDER = {("rtrk2", "error"): 2, ("rtrk3", "error"): 3, ("ab2", "error"): 2, ("ab4", "error"): 4,
                  ("rk4", "hold"): 1, ("rk4", "extrapolate"): 2, ("rk4", "offline"): 4}


def dop853(f, t_span, x0, t_eval):
    """The oracle trajectory: solve_ivp DOP853 at rtol 1e-13, atol 1e-15."""
    solution = integrate.solve_ivp(f, t_span, np.atleast_1d(np.asarray(x0, float)), method="DOP853",
                                   t_eval=t_eval, rtol=1e-13, atol=1e-15)
    return solution.y.T


@pytest.fixture(scope="module")
def plant_reference():
    """y(t) of the running example on the finest frame grid (h = 0.0125), by DOP853."""
    t = np.linspace(0.0, lecture.T_END, round(lecture.T_END / 0.0125) + 1)
    return t, dop853(lecture.plant_rhs, (0.0, lecture.T_END), [0.0, 0.0], t)


# --- 1 Real time ---------------------------------------------------------------------------------


def test_plant_exact_is_the_solution_of_the_ode(plant_reference):
    """Oracle: DOP853. The closed form the lecture's errors use."""
    t, x = plant_reference
    assert np.max(np.abs(lecture.plant_exact(t) - x)) < 1e-11


def test_schedule_uses_a_sample_exactly_when_it_exists():
    """Oracle: the rule c_i <= i/s with c_i from the Butcher tableaus (and 1 slope at c = 0 for AB)."""
    rows = lecture.input_schedules()
    for row in rows:
        c = [Fraction(str(ci)) for ci in lecture.TABLEAUS[row.method][0]] if row.method in lecture.TABLEAUS else [Fraction(0)]
        s = len(c)
        assert row.wanted == c[row.evaluation] and row.computed_at == Fraction(row.evaluation, s)
        assert (row.how == "sample") == (c[row.evaluation] <= Fraction(row.evaluation, s))
    assert [r.used for r in rows if r.method == "rk4"] == ["u(t_n)", "u(t_n)", "u(t_n + h/2)", "u(t_n + h/2)"]


def _tableau_step(method, f, t, x, h):
    """One explicit Runge-Kutta step from the tableau: K_i = f(t + c_i h, x + h sum_j a_ij K_j)."""
    c, a, b = lecture.TABLEAUS[method]
    K = []
    for i in range(len(b)):
        K.append(f(t + float(c[i]) * h, x + h * sum(float(a_ij) * K_j for a_ij, K_j in zip(a[i], K))))
    return x + h * sum(float(b_i) * K_i for b_i, K_i in zip(b, K))


@pytest.mark.parametrize("method", ["rtrk2", "rtrk3", "heun", "rk4"])
def test_tableaus_are_the_library_frames(method):
    """Oracle: simlab.realtime's frame functions, on a random linear system with the exact inputs."""
    rng = np.random.default_rng(7)
    M, b = rng.normal(size=(3, 3)), rng.normal(size=3)
    f = lambda t, x, u: M @ x + b * u
    c = [float(ci) for ci in lecture.TABLEAUS[method][0]]
    x0, t0, h = rng.normal(size=3), 0.3, 0.2
    frame = REAL_TIME_METHODS[method].frame(f, t0, x0, h, [math.sin(t0 + ci * h) for ci in c])
    assert np.allclose(frame, _tableau_step(method, lambda t, x: f(t, x, math.sin(t)), t0, x0, h), atol=1e-14)


@pytest.mark.parametrize("method", ["rtrk2", "rtrk3", "rk4"])
def test_order_from_the_conditions_is_the_measured_order_on_a_nonlinear_problem(method):
    """Oracle: DOP853 on x' = -x^2 + sin t (nonlinear and time-varying); the slope of the errors."""
    row = next(r for r in lecture.order_conditions() if r.method == method)
    f = lambda t, x: -x**2 + np.sin(t)
    hs, errors = (0.1, 0.05, 0.025), []
    for h in hs:
        t = np.linspace(0.0, 2.0, round(2.0 / h) + 1)
        x = [1.0]
        for tk in t[:-1]:
            x.append(_tableau_step(method, f, tk, x[-1], h))
        errors.append(np.max(np.abs(np.array(x) - dop853(f, (0.0, 2.0), 1.0, t)[:, 0])))
    assert round(simlab.stability.fit_order(hs, errors)) == row.order == REAL_TIME_METHODS[method].order
    rk4 = next(r for r in lecture.order_conditions() if r.method == "rk4")
    assert all(left == right for _, _, left, right in rk4.values)


def _one_frame_on_exp(method, missing, h):
    """One frame of y' = u(t), u = e^t, from t_n = 0 with the samples the loop would give."""
    scheme = REAL_TIME_METHODS[method]
    if scheme.frame is None:  # AB_k with the exact past inputs: h sum_j beta_j e^{-j h}
        return h * sum(beta * math.exp(-j * h) for j, beta in enumerate(MULTISTEP_METHODS[method].predictor))
    f = lambda t, x, u: u
    if missing == "offline":
        inputs = [math.exp(float(c) * h) for c in lecture.TABLEAUS[method][0]]
    else:
        m = scheme.samples_needed
        inputs = [sum(w * math.exp(j * h / m) for w, j in zip(use.weights, use.samples))
                  for use in input_schedule(method, m, missing)]
    return scheme.frame(f, 0.0, 0.0, h, inputs)


@pytest.mark.parametrize("case", lecture.REAL_TIME_CASES, ids=lambda c: "-".join(c))
def test_input_error_term_is_the_error_of_one_frame(case):
    """Oracle: one frame of the library's method on y' = e^t (every u_q = 1), Richardson-extrapolated."""
    row = next(r for r in lecture.input_error_terms() if (r.method, r.missing_input) == case)
    p = row.order + 1
    coefficient = float(row.leading_term.subs({symbol: 1 for symbol in row.leading_term.free_symbols}))
    ratios = [((math.exp(h) - 1.0) - _one_frame_on_exp(*case, h)) / h**p for h in (0.04, 0.02)]
    assert 2 * ratios[1] - ratios[0] == pytest.approx(coefficient, rel=2e-3)


def test_real_time_errors_against_dop853(plant_reference):
    """Oracle: DOP853 for the reference trajectory; the literature's orders for the slopes."""
    _, x_ref = plant_reference
    for row in lecture.real_time_study():
        for h, error in zip(row.h, row.errors):
            k = round(h / 0.0125)
            if row.missing_input == "offline":
                run = simlab.rk4(lecture.plant_rhs, (0.0, lecture.T_END), np.zeros(2), h)
            else:
                run = simlab.simulate_real_time(lecture.plant_model, lecture.plant_input, (0.0, lecture.T_END),
                                                np.zeros(2), h, method=row.method, missing_input=row.missing_input)
            assert np.max(np.abs(run.x[:, 0] - x_ref[::k, 0])) == pytest.approx(error, rel=1e-4)
        assert round(row.order) == EXPECTED_ORDER[(row.method, row.missing_input)]
        assert row.real_time == (row.missing_input in ("error",))
        assert row.evaluations_per_frame == len(lecture.TABLEAUS.get(row.method, ((0,), (), (1,)))[2])


def test_stable_frame_times_against_runs_on_the_plant():
    """Oracle: the plant's free response run at 0.97 and 1.03 times each limit (decays / grows)."""
    for row in lecture.real_time_study():
        if row.missing_input == "extrapolate" or row.missing_input == "offline":
            continue
        for factor, grows in ((0.95, False), (1.05, True)):
            h = factor * row.h_stable
            with simlab.guards.unstable_growth_allowed():
                run = simlab.simulate_real_time(lecture.plant_model, lambda t: 0.0, (0.0, 300 * h), np.array([1.0, 0.0]),
                                                h, method=row.method, missing_input=row.missing_input)
            size = np.linalg.norm(run.x, axis=1)
            assert (size[200:].max() > size[100:200].max()) == grows, (row.method, factor)


# --- 2 Multistep -------------------------------------------------------------------------------


def test_adams_weights_solve_the_order_conditions():
    """Oracle: sympy solves sum_j beta_j s_j^q = 1/(q + 1), q < k (exactness for polynomials)."""
    for row in lecture.adams_table():
        k = row.order
        for weights, shift in ((row.ab_weights, 0), (row.am_weights, 1)):
            beta = sp.symbols(f"b0:{k}")
            equations = [sum(beta[j] * sp.Integer(shift - j) ** q for j in range(k)) - sp.Rational(1, q + 1)
                         for q in range(k)]
            solution = sp.solve(equations, beta, dict=True)[0]
            assert tuple(solution[b] for b in beta) == tuple(weights)


def test_adams_error_constants_from_the_series_of_e_to_the_t():
    """Oracle: the Taylor series of e^h - 1 - h sum_j beta_j e^{(shift - j) h} (x = e^t, exact past values), sympy."""
    h = sp.Symbol("h")

    def exp_series(c, degree):  # e^{c h} to h^degree
        return sum((c * h) ** q / sp.factorial(q) for q in range(degree + 1))

    for row in lecture.adams_table():
        k = row.order
        for weights, constant, shift in ((row.ab_weights, row.ab_constant, 0), (row.am_weights, row.am_constant, 1)):
            error = sp.Poly(exp_series(1, k + 1) - 1 - h * sum(b * exp_series(shift - j, k)
                                                            for j, b in enumerate(weights)), h)
            assert all(error.coeff_monomial(h**q) == 0 for q in range(k + 1))
            assert error.coeff_monomial(h ** (k + 1)) == constant


def _grows(method, z, steps=600):
    """Runs y' = lambda y with h = 1, lambda = z: does |y| grow over the run?"""
    f = lambda t, y: z * y
    with simlab.guards.unstable_growth_allowed():
        if method in MULTISTEP_METHODS:
            run = (simlab.adams_bashforth(f, (0.0, steps), 1.0, 1.0, order=MULTISTEP_METHODS[method].order)
                   if MULTISTEP_METHODS[method].corrector is None else
                   simlab.adams_bashforth_moulton(f, (0.0, steps), 1.0, 1.0, order=MULTISTEP_METHODS[method].order))
        else:
            run = simlab.simulate_real_time(lambda t, y, u: z * y, lambda t: 0.0, (0.0, steps), 1.0, 1.0, method=method,
                                            missing_input="hold")
    size = np.abs(run.x)
    return size[2 * steps // 3:].max() > size[steps // 3: 2 * steps // 3].max()


def test_stability_interval_ends_against_runs():
    """Oracle: runs on y' = lambda y at h lambda = 0.95 z_min (decaying) and 1.05 z_min (growing)."""
    for row in lecture.stability_intervals():
        assert not _grows(row.method, 0.95 * row.z_min), row.method
        assert _grows(row.method, 1.05 * row.z_min), row.method
        if row.exact is not None:
            assert float(row.exact) == pytest.approx(row.z_min, abs=1e-12)


def test_startup_errors_against_dop853(plant_reference):
    """Oracle: DOP853; the RK4 start is simlab.adams_bashforth's (order 4), Euler's gives order 2."""
    _, x_ref = plant_reference
    rows = {row.start: row for row in lecture.startup_study()}
    for start, row in rows.items():
        for h, error in zip(row.h, row.errors):
            _, x = lecture.ab4_run(start, h)
            assert np.max(np.abs(x[:, 0] - x_ref[:: round(h / 0.0125), 0])) == pytest.approx(error, rel=1e-4)
    library = simlab.adams_bashforth(lecture.plant_rhs, (0.0, lecture.T_END), np.zeros(2), 0.05, order=4)
    assert np.allclose(library.x, lecture.ab4_run("rk4", 0.05)[1], atol=1e-13)
    assert [round(rows[s].order) for s in ("exact", "rk4", "euler")] == [4, 4, 2]


def test_equal_cost_rows_count_their_evaluations(plant_reference):
    """Oracle: a counting wrapper around f; DOP853 for the errors."""
    _, x_ref = plant_reference
    calls = [0]

    def counted(t, x):
        calls[0] += 1
        return lecture.plant_rhs(t, x)

    runners = {"RK4": lambda h: simlab.rk4(counted, (0.0, lecture.T_END), np.zeros(2), h),
               "ABM4 (PECE)": lambda h: simlab.adams_bashforth_moulton(counted, (0.0, lecture.T_END), np.zeros(2), h),
               "AB4": lambda h: simlab.adams_bashforth(counted, (0.0, lecture.T_END), np.zeros(2), h)}
    for row in lecture.equal_cost_study():
        calls[0] = 0
        run = runners[row.title](row.h)
        assert calls[0] == row.nfev
        assert np.max(np.abs(run.x[:, 0] - x_ref[:: round(row.h / 0.0125), 0])) == pytest.approx(row.error, rel=1e-4)


# --- 3 Variable step ---------------------------------------------------------------------------


def test_lag_exact_solves_its_ode():
    """Oracle: sympy, y' + 2 (y - g) - g' = 0 and y(0) = 0 for y = g - g(0) e^{-2t}, g = tanh 4(t - 5)."""
    t = sp.Symbol("t")
    g = sp.tanh(4 * (t - 5))
    y = g - g.subs(t, 0) * sp.exp(-2 * t)
    assert sp.simplify(sp.diff(y, t) + 2 * (y - g) - sp.diff(g, t)) == 0
    assert float(y.subs(t, 3.7)) == pytest.approx(float(lecture.lag_exact(3.7)), abs=1e-15)


def test_fehlberg_pair_orders_on_the_test_equation():
    """Oracle: sympy series of x4 and x5 on y' = lambda y: e^z - R4 = O(z^5), e^z - R5 = O(z^6)."""
    z = sp.Symbol("z")
    x4, x5 = lecture.fehlberg_step(lambda t, y: z * y, 0, sp.Integer(1), 1)
    for value, order in ((x4, 4), (x5, 5)):
        series = sp.series(sp.exp(z) - sp.nsimplify(sp.expand(value), rational=True), z, 0, order + 2).removeO()
        assert all(abs(float(series.coeff(z, q))) < 1e-12 for q in range(order + 1))
        assert abs(float(series.coeff(z, order + 1))) > 1e-6


def test_error_estimate_rows_against_dop853():
    """Oracle: DOP853 from y(t0) over one step for the true error; the ratio tends to 1, the error like h^5."""
    rows = lecture.error_estimate_study()
    for row in rows:
        reference = dop853(lecture.lag_rhs, (0.0, row.h), lecture.lag_exact(0.0), [row.h])[0, 0]
        x4, x5 = lecture.fehlberg_step(lecture.lag_rhs, 0.0, float(lecture.lag_exact(0.0)), row.h)
        assert reference - x4 == pytest.approx(row.true_error, rel=1e-5)
        assert x5 - x4 == pytest.approx(row.estimate, rel=1e-12)
    assert all(abs(b.ratio - 1) < abs(a.ratio - 1) for a, b in itertools.pairwise(rows))
    assert all(26 < a.true_error / b.true_error < 40 for a, b in itertools.pairwise(rows))


def test_variable_step_run_against_dop853_and_rk45():
    """Oracle: DOP853 at the accepted points, a counting wrapper for nfev, solve_ivp RK45 for the steps."""
    study = lecture.variable_step_study()
    run = study.run
    reference = dop853(lecture.lag_rhs, (0.0, 10.0), 0.0, run.t)[:, 0]
    assert np.max(np.abs(run.x - reference)) == pytest.approx(study.max_error, rel=1e-3)
    assert study.max_error < 10 * (study.rtol + study.atol)
    calls = [0]

    def counted(t, y):
        calls[0] += 1
        return lecture.lag_rhs(t, y)

    again = simlab.rkf45(counted, (0.0, 10.0), 0.0, rtol=study.rtol, atol=study.atol)
    assert calls[0] == run.nfev == again.nfev == 6 * run.n_accepted + 5 * run.n_rejected + 1
    rk45 = integrate.solve_ivp(lecture.lag_rhs, (0.0, 10.0), [0.0], method="RK45", rtol=study.rtol, atol=study.atol)
    assert (len(rk45.t) - 1, rk45.nfev) == (study.rk45_steps, study.rk45_nfev)
    assert 0.67 < run.n_accepted / study.rk45_steps < 1.5
    assert np.sum(run.h) == pytest.approx(10.0, abs=1e-12) and run.t[-1] == 10.0


# --- 4 Pure delay ------------------------------------------------------------------------------


def test_delay_gains_against_quadrature():
    """Oracle: scipy quad of e^{-(T - sigma)} over [0, theta] and [theta, T]; the sum is m(T)."""
    gains = lecture.delay_gains()
    T, theta = lecture.DELAY_T, lecture.DELAY - 3 * lecture.DELAY_T
    first = integrate.quad(lambda s: math.exp(-(T - s)), 0.0, theta, epsabs=1e-15)[0]
    second = integrate.quad(lambda s: math.exp(-(T - s)), theta, T, epsabs=1e-15)[0]
    assert gains.d == 3 and gains.theta == pytest.approx(theta, abs=1e-15)
    assert gains.values == pytest.approx((first, second), abs=1e-14)
    assert gains.library == pytest.approx((first, second), abs=1e-14)
    a, T_ = sp.symbols("a T", positive=True)
    assert sp.simplify(gains.total - (1 - sp.exp(-a * T_)) / a) == 0


def test_delayed_step_rows_against_the_sympy_closed_form():
    """Oracle: sympy's inverse Laplace transform of e^{-tau s} / (s (s + 1))."""
    s, t = sp.symbols("s t", positive=True)
    closed = sp.inverse_laplace_transform(sp.exp(-sp.Rational(35, 100) * s) / (s * (s + 1)), s, t)
    y = sp.lambdify(t, closed.rewrite(sp.Piecewise), "math")
    grid = np.linspace(0.0, 5.0, 51)
    exact = np.array([0.0 if abs(tk - 0.35) < 1e-12 else float(y(tk)) for tk in grid])
    for row in lecture.delayed_step_study():
        simulated = simlab.lsim([[-1.0]], [[1.0]], [[1.0]], [[0.0]], np.ones(51), grid, input_delay=row.tau_used).y
        error = np.max(np.abs(simulated - exact))
        if row.tau_used == lecture.DELAY:
            assert error < 1e-12 and row.max_error < 1e-12
        else:
            assert error == pytest.approx(row.max_error, rel=1e-9) and error > 0.04


def test_shift_register_rows_against_the_sine():
    """Oracle: the decimal split tau = d h + theta in exact fractions, and the linear-interpolation
    bound theta (h - theta) / 2 max|u''| that the error of sin t must reach (|sin| = 1 between samples)."""
    h = 0.1
    for row in lecture.shift_register_study():
        ratio = Fraction(str(row.tau)) / Fraction(str(h))  # the decimal delay, exactly
        d = math.floor(ratio)
        theta = float((ratio - d) * Fraction(str(h)))
        assert row.d == d and row.theta == pytest.approx(theta, abs=1e-12)
        assert row.bound == pytest.approx(theta * (h - theta) / 2, abs=1e-15)
        if theta < 1e-12:
            assert row.max_error < 1e-12
        else:
            assert 0.95 * row.bound < row.max_error <= row.bound * (1 + 1e-9)


def test_pade_rows_against_python_control():
    """Oracle: python-control's pade and forced_response; the exact response 1 - e^{-(t - 1)}."""
    study = lecture.pade_study()
    t = study.comparison.t
    exact = np.where(t >= 1.0, 1.0 - np.exp(-(t - 1.0)), 0.0)
    assert np.max(np.abs(study.comparison.y - exact)) < 1e-12
    for row in study.comparison.rows:
        num, den = control.pade(1.0, row.order)
        model = control.tf([1.0], [1.0, 1.0]) * control.tf(num, den)
        y = np.ravel(control.forced_response(model, timepts=t, inputs=np.ones(len(t))).outputs)
        assert np.max(np.abs(row.y - y)) < 1e-9
        before = t < 1.0
        assert row.initial_value == pytest.approx(0.0, abs=1e-12)
        assert study.undershoot[row.order] == pytest.approx(np.min(y), abs=1e-9)
        assert row.max_error_before_tau == pytest.approx(np.max(np.abs(y[before])), abs=1e-9)
        assert row.max_error == pytest.approx(np.max(np.abs(y - exact)), abs=1e-9)


# --- 5 Sampled data, 6 multirate -----------------------------------------------------------------


def test_p_loop_limit_against_python_control_and_the_closed_form():
    """Oracle: T* = ln((K + a)/(K - a)) / a by hand; python-control's discrete loop has its pole at -1 there."""
    loop = lecture.p_loop_derivation()
    closed = math.log((loop.K + loop.a) / (loop.K - loop.a)) / loop.a
    assert loop.T_value == pytest.approx(closed, abs=1e-14)
    assert loop.T_library == pytest.approx(closed, abs=1e-11)
    a, K, T = sp.symbols("a K T", positive=True)
    for T_value in (0.2, closed):
        Pd = control.c2d(control.tf([1.0], [1.0, loop.a]), T_value, method="zoh")
        pole = control.feedback(loop.K * Pd, 1).poles()[0].real
        assert float(loop.pole.subs({a: loop.a, K: loop.K, T: T_value})) == pytest.approx(pole, abs=1e-12)
    assert float(loop.T_limit.subs({a: loop.a, K: loop.K})) == pytest.approx(closed, abs=1e-14)


def test_digital_pi_against_python_control_and_the_matched_definition():
    """Oracle: python-control's Tustin c2d; for matched: its zero e^{-Ki T/Kp}, pole 1 and lim (z - 1)/T D = Ki."""
    pi = lecture.digital_pi(0.5)
    z = sp.Symbol("z")
    tustin = control.c2d(control.tf([10.0, 4.0], [1.0, 0.0]), 0.5, method="tustin")
    assert np.allclose(np.ravel(tustin.num), pi.tustin_coefficients[0], atol=1e-12)
    numerator, denominator = sp.fraction(sp.together(pi.tustin))
    assert np.allclose([float(c) for c in sp.Poly(numerator, z).all_coeffs()], np.ravel(tustin.num), atol=1e-12)
    assert sp.Poly(denominator, z).all_coeffs() == [1, -1]
    zero = math.exp(-4.0 * 0.5 / 10.0)
    assert float(sp.solve(sp.numer(sp.together(pi.matched)), z)[0]) == pytest.approx(zero, abs=1e-14)
    assert float(sp.limit((z - 1) / sp.Rational(1, 2) * pi.matched, z, 1)) == pytest.approx(4.0, abs=1e-14)
    numd, dend = pi.matched_coefficients
    assert np.roots(numd)[0] == pytest.approx(zero, abs=1e-12) and np.allclose(dend, [1.0, -1.0])
    assert numd[0] * (1 - zero) / 0.5 == pytest.approx(4.0, rel=1e-12)


def _control_loop(T, method="tustin"):
    """python-control: the seed plant sampled with a zoh at T, and the PI by Tustin (or matched by its definition)."""
    plant = control.tf(*lecture.SEED_PLANT)
    Pd = control.c2d(plant, T, method="zoh")
    if method == "tustin":
        Cd = control.c2d(control.tf([10.0, 4.0], [1.0, 0.0]), T, method="tustin")
    else:
        zero = math.exp(-0.4 * T)
        Kd = 4.0 * T / (1.0 - zero)
        Cd = control.tf([Kd, -Kd * zero], [1.0, -1.0], T)
    return Pd, Cd


def test_sampled_runs_against_python_control_and_scipy():
    """Oracle: python-control's discrete closed loop for y_k, u_k and the poles; scipy's lsim of the
    plant with the held u_k (interp=False) for y(t) between the instants; python-control's
    forced_response for the analog peak."""
    for row in lecture.sampled_runs():
        Pd, Cd = _control_loop(row.T)
        t_k = row.run.t_k
        y_k = np.ravel(control.forced_response(control.feedback(Cd * Pd, 1), timepts=t_k, inputs=5.0 * np.ones(len(t_k))).outputs)
        u_k = np.ravel(control.forced_response(control.feedback(Cd, Pd), timepts=t_k, inputs=5.0 * np.ones(len(t_k))).outputs)
        assert np.max(np.abs(row.run.y_k - y_k)) < 1e-12 * np.max(np.abs(y_k)) * 10
        assert row.max_difference < 1e-12
        assert row.spectral_radius == pytest.approx(np.max(np.abs(control.feedback(Cd * Pd, 1).poles())), abs=1e-10)
        fine = np.linspace(0.0, t_k[-1], (len(t_k) - 1) * row.run.N + 1)
        held = np.append(np.repeat(u_k[:-1], row.run.N), u_k[-1])
        _, y, _ = signal.lsim((lecture.SEED_PLANT[0], lecture.SEED_PLANT[1]), held, fine, interp=False)
        assert np.max(np.abs(row.run.y - y)) < 1e-9
        assert row.peak == pytest.approx(np.max(y), abs=1e-9)
        assert row.peak_sampled == pytest.approx(np.max(y_k), abs=1e-10)
    t = np.linspace(0.0, 40.0, 4001)
    analog = control.feedback(control.tf([10.0, 4.0], [1.0, 0.0]) * control.tf(*lecture.SEED_PLANT), 1)
    y = np.ravel(control.forced_response(analog, timepts=t, inputs=5.0 * np.ones(len(t))).outputs)
    assert lecture.sampled_runs()[0].analog_peak == pytest.approx(np.max(y), abs=1e-9)


@pytest.mark.parametrize("method", ["tustin", "matched"])
def test_stability_limits_against_python_control_poles(method):
    """Oracle: brentq on max|poles| - 1 of python-control's discrete closed loop."""
    scan = lecture.stability_scan()

    def radius(T):
        Pd, Cd = _control_loop(T, method)
        return np.max(np.abs(control.feedback(Cd * Pd, 1).poles()))

    limit = scan.limits[method]
    assert limit.T == pytest.approx(optimize.brentq(lambda T: radius(T) - 1.0, 1.5, 2.0, xtol=1e-13), abs=1e-9)
    assert np.allclose(limit.critical_poles, [-1.0], atol=1e-6)
    for T, value in zip(scan.T[::7], scan.radius[method][::7]):
        assert value == pytest.approx(radius(T), abs=1e-10)
    assert scan.final_error[(method, "below")] < 1e-2
    assert scan.final_error[(method, "above")] > 1e2


def test_multirate_rows_against_python_control():
    """Oracle: python-control's discrete closed loop at the instants (exact); RK4's order in h = T/N."""
    rows = lecture.multirate_study()
    Pd, Cd = _control_loop(0.5)
    t_k = 0.5 * np.arange(41)
    exact = np.ravel(control.forced_response(control.feedback(Cd * Pd, 1), timepts=t_k, inputs=5.0 * np.ones(41)).outputs)
    controller = simlab.DigitalController.from_analog([10.0, 4.0], [1.0, 0.0], 0.5, "tustin")
    for row in rows:
        run = simlab.simulate_sampled(*simlab.tf2ss(*lecture.SEED_PLANT), controller, 20.0, r=5.0, N=row.N,
                                      plant_method="rk4")
        assert np.max(np.abs(run.y_k - exact)) == pytest.approx(row.error, rel=1e-8)
        assert row.evaluations_per_sample == 4 * row.N and row.h == 0.5 / row.N
    assert all(a.error / b.error > 16 for a, b in itertools.pairwise(rows))


def test_method_summary_against_the_measured_tables():
    """Oracle: the measured orders and stability ends of the tests above, and the definitions."""
    rows = {row.title: row for row in lecture.method_summary()}
    intervals = {row.title: row.z_min for row in lecture.stability_intervals()}
    orders = {"RK4": 4, "RTRK2": 2, "RTRK3": 3, "AB2": 2, "AB4": 4, "ABM4 (PECE)": 4}
    for title, row in rows.items():
        assert row.order == orders[title]
        assert row.self_starting == (title in ("RK4", "RTRK2", "RTRK3"))
        assert row.real_time == (title in ("RTRK2", "RTRK3", "AB2", "AB4"))
        if title in intervals:
            assert row.z_min == pytest.approx(intervals[title], abs=1e-12)
    assert rows["AB2"].z_min == pytest.approx(-1.0, abs=1e-12)
