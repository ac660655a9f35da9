"""Lab 10 experiments and self-checks, against independent oracles.

Oracles: Kepler's equation solved by scipy.optimize.brentq and the orbit integrated by
solve_ivp(DOP853, rtol 1e-13); the energy and angular momentum of the two-body problem (closed
forms); solve_ivp(method="RK45") for the step counts; a plain numpy RK4 loop and a plain AB2
loop written here; the partial-fraction closed form of the seed's closed loop's step response; solve_ivp(DOP853)
for the forced loop of the real-time part; sympy for the Adams stability limits and RK4's real
limit; numpy.roots of the characteristic polynomials for the step limits; the controller's
textbook constants (Hairer, Norsett and Wanner, sect. II.4) and the real-time rules of
CONVENTIONS16 (Howe 1995).
"""

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from simlab.course import EXPERIMENTS
from simlab.course import lab10_variable_step_real_time as lab
from simlab.multistep import MULTISTEP_METHODS, adams_coefficients
from simlab.realtime import REAL_TIME_METHODS, input_schedule, simulate_real_time

E = lab.ECCENTRICITY
T = 2 * math.pi


# ---------------------------------------------------------------------------------------------
# Part A: the orbit and RKF45
# ---------------------------------------------------------------------------------------------


def kepler_brentq(t, e=E):
    """Oracle: q(t) from Kepler's equation E - e sin E = t + pi, each root bracketed by brentq."""
    q = []
    for ti in np.atleast_1d(t):
        M = ti + math.pi
        anomaly = brentq(lambda En, M=M: En - e * math.sin(En) - M, M - 1.0, M + 1.0, xtol=1e-15, rtol=1e-15)
        q.append((math.cos(anomaly) - e, math.sqrt(1 - e * e) * math.sin(anomaly)))
    return np.array(q)


def test_orbit_exact_solves_keplers_equation_and_the_ode():
    """Oracles: brentq on Kepler's equation; solve_ivp(DOP853, rtol 1e-13) on q'' = -q/|q|^3."""
    t = np.linspace(0.0, T, 37)
    np.testing.assert_allclose(lab.orbit_exact(t)[:, :2], kepler_brentq(t), atol=1e-13)
    reference = solve_ivp(lab.orbit_rhs, (0.0, T), lab.orbit_initial_state(), method="DOP853", rtol=1e-13,
                          atol=1e-15, t_eval=t)
    np.testing.assert_allclose(lab.orbit_exact(t), reference.y.T, atol=1e-9)


def test_orbit_conserves_energy_and_angular_momentum():
    """Closed forms: energy -GM/(2a) = -1/2, angular momentum sqrt(a GM (1 - e^2)); perihelion 1 - e at t = pi."""
    x = lab.orbit_exact(np.linspace(0.0, T, 101))
    q, v = x[:, :2], x[:, 2:]
    np.testing.assert_allclose(0.5 * np.sum(v * v, axis=1) - 1 / np.linalg.norm(q, axis=1), -0.5, atol=1e-13)
    np.testing.assert_allclose(q[:, 0] * v[:, 1] - q[:, 1] * v[:, 0], math.sqrt(1 - E * E), atol=1e-13)
    np.testing.assert_allclose(np.linalg.norm(lab.orbit_exact(math.pi)[:2]), 1 - E, atol=1e-13)
    np.testing.assert_allclose(lab.orbit_initial_state(), lab.orbit_exact(0.0), atol=1e-15)


def test_rkf45_run_counts_its_evaluations_and_takes_about_the_steps_of_rk45():
    """Oracles: a counting wrapper of f (the notebook's 529 = 6 x 68 + 5 x 24 + 1) and solve_ivp(RK45)."""
    calls = []

    def counted(t, x):
        calls.append(t)
        return lab.orbit_rhs(t, x)

    run = lab.rkf45(counted, lab.ORBIT_SPAN, lab.orbit_initial_state(), rtol=lab.RTOL, atol=lab.RTOL * lab.ATOL_RATIO)
    study = lab.orbit_study()
    assert (run.n_accepted, run.n_rejected) == (study.run.n_accepted, study.run.n_rejected) == (68, 24)
    assert study.run.nfev == 6 * 68 + 5 * 24 + 1 == 529 and len(calls) == 529
    scipy_run = solve_ivp(lab.orbit_rhs, lab.ORBIT_SPAN, lab.orbit_initial_state(), method="RK45", rtol=lab.RTOL,
                          atol=lab.RTOL * lab.ATOL_RATIO)
    assert 0.9 <= run.n_accepted / (len(scipy_run.t) - 1) <= 1.25


def test_achieved_error_against_keplers_equation():
    """Oracle: brentq's Kepler solution at the accepted times (the notebook's 1.24e-4, 124 rtol)."""
    study = lab.orbit_study()
    error = np.max(np.linalg.norm(study.run.x[:, :2] - kepler_brentq(study.run.t), axis=1))
    assert study.error == pytest.approx(error, rel=1e-9)
    assert f"{study.error:.2e}" == "1.24e-04" and round(study.error / lab.RTOL) == 124


def test_the_steps_follow_the_orbit():
    """Kepler: the smallest step at perihelion (t = pi, r = 1 - e), h ~ r^(3/2); the controller's limits
    0.2 <= h_(k+1)/h_k <= 5; rejections on the way in, between t = pi/2 and pi."""
    study = lab.orbit_study()
    h, t = study.run.h, study.run.t
    k = study.k_min
    assert t[k] == pytest.approx(math.pi, abs=2 * h[k]) and study.radius[k] == pytest.approx(1 - E, abs=1e-3)
    assert study.radius[study.k_max] > 1.5 and h[k] == h[study.ramp:-1].min()
    assert study.ramp == 3 and np.allclose(h[1:3] / h[:2], 5.0)  # the start: 5-fold growth from h_0
    for rtol in (1e-5, 1e-8):  # the smallest controlled step is at perihelion for other tolerances too
        other = lab.orbit_study(rtol)
        assert other.run.t[other.k_min] == pytest.approx(math.pi, abs=2 * other.h_min)
    growth = h[1:-1] / h[:-2]
    assert growth.min() >= 0.2 - 1e-12 and growth.max() <= 5 + 1e-12
    assert study.h_radius_slope == pytest.approx(1.5, abs=0.15)
    assert study.run.rejected_t.min() > math.pi / 2 - 0.01 and study.run.rejected_t.max() <= math.pi + 1e-9
    assert (round(study.h_max / study.h_min), round(6 / study.h_max), round(6 / study.h_min)) == (112, 14, 1532)


def test_tolerance_study_against_rk45_and_tolerance_proportionality():
    """Oracles: solve_ivp(RK45) rerun here; the theory error ~ rtol^(4/5) as rtol -> 0."""
    study = lab.tolerance_study()
    assert [row.rtol for row in study.rows] == list(lab.TOLERANCES)
    for row in study.rows[1::5]:  # rtol 1e-6 and 1e-11
        scipy_run = solve_ivp(lab.orbit_rhs, lab.ORBIT_SPAN, lab.orbit_initial_state(), method="RK45", rtol=row.rtol,
                              atol=row.rtol * lab.ATOL_RATIO)
        assert row.rk45_steps == len(scipy_run.t) - 1 and row.rk45_nfev == scipy_run.nfev
        q = kepler_brentq(scipy_run.t)
        assert row.rk45_error == pytest.approx(np.max(np.linalg.norm(scipy_run.y[:2].T - q, axis=1)), rel=1e-7)
    for row in study.rows[::2]:
        run = lab.orbit_study(row.rtol).run
        assert row.error == pytest.approx(np.max(np.linalg.norm(run.x[:, :2] - kepler_brentq(run.t), axis=1)), rel=1e-9)
    for row in study.rows:
        assert 0.9 <= row.n_accepted / row.rk45_steps <= 1.25
        assert row.nfev == 6 * row.n_accepted + 5 * row.n_rejected + 1
        assert row.error > row.rtol  # the tolerance is not the global error
    assert study.tight_slope == pytest.approx(0.8, abs=0.08) and 0.8 < study.slope < 1.0
    errors = [row.error for row in study.rows]
    np.testing.assert_allclose(study.decade_slopes, np.log10(np.array(errors[:-1]) / errors[1:]))


def rk4_loop(f, x0, t1, N):
    """Oracle: classical RK4 written out with numpy, N steps of h = t1 / N."""
    h, x, xs = t1 / N, np.array(x0, dtype=float), [np.array(x0, dtype=float)]
    for n in range(N):
        t = n * h
        k1 = f(t, x)
        k2 = f(t + h / 2, x + h / 2 * k1)
        k3 = f(t + h / 2, x + h / 2 * k2)
        k4 = f(t + h, x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        xs.append(x)
    return h * np.arange(N + 1), np.array(xs)


def test_rk4_ladder_and_equal_accuracy_against_a_plain_rk4_loop():
    """Oracle: the numpy RK4 loop above and Kepler's solution by brentq (the notebook's 1505 steps, 6020
    evaluations, 11.4 times RKF45's, and the error 1.22e-4 of that run against RKF45's 1.24e-4)."""
    ladder = lab.rk4_ladder()
    for N, error in zip(ladder.steps, ladder.errors, strict=True):
        t, x = rk4_loop(lab.orbit_rhs, lab.orbit_initial_state(), T, N)
        assert error == pytest.approx(np.max(np.linalg.norm(x[:, :2] - kepler_brentq(t), axis=1)), rel=1e-6)
    assert list(ladder.nfev) == [4 * N for N in lab.RK4_LADDER]
    slope, intercept = np.polyfit(np.log(lab.RK4_LADDER), np.log(ladder.errors), 1)
    equal = lab.equal_accuracy()
    N = math.ceil(math.exp((math.log(lab.orbit_study().error) - intercept) / slope))
    assert equal.rk4_steps == N == 1505 and equal.rk4_nfev == 6020 and equal.cost_ratio == pytest.approx(6020 / 529)
    assert equal.rk4_error == pytest.approx(equal.rkf45_error, rel=0.05)  # the fitted line told the truth
    assert f"{equal.rk4_error:.2e}" == "1.22e-04" and f"{equal.cost_ratio:.1f}" == "11.4"


def test_step_factor_check_accepts_the_formula_and_names_the_mistakes():
    """Oracle: the textbook controller, safety 0.9, exponent 1/5, limits 0.2 and 5 (1 after a rejection)."""
    def textbook(err, grow_max=5.0):
        return min(grow_max, max(0.2, 0.9 * err ** -0.2))

    assert lab.check_step_factor(textbook)
    assert [round(textbook(err), 3) for err in (1e-6, 0.01, 0.59, 1.0, 3.0, 1e4)] == [5.0, 2.261, 1.0, 0.9, 0.722, 0.2]
    quarter = lambda err, grow_max=5.0: min(grow_max, max(0.2, 0.9 * err ** -0.25))  # noqa: E731
    assert "1/5, not 1/4" in str(lab.check_step_factor(quarter))
    assert "safety factor" in str(lab.check_step_factor(lambda err, grow_max=5.0: min(grow_max, max(0.2, err ** -0.2))))
    assert "grow_max is ignored" in str(lab.check_step_factor(lambda err, grow_max=5.0: textbook(err)))
    assert "raised ZeroDivisionError" in str(lab.check_step_factor(lambda err, grow_max=5.0: 1 / 0))
    assert not lab.check_step_factor(3.0)


def test_achieved_error_and_equal_accuracy_checks_follow_rtol():
    study = lab.orbit_study(1e-7)
    assert lab.check_achieved_error(study.error, rtol=1e-7) and not lab.check_achieved_error(study.error)
    N = lab.rk4_ladder().steps_for(study.error)
    assert lab.check_equal_accuracy(N, 4 * N / study.run.nfev, rtol=1e-7)
    assert "round up" in str(lab.check_equal_accuracy(N - 1, 4 * N / study.run.nfev, rtol=1e-7))


def test_achieved_error_and_equal_accuracy_checks_follow_the_eccentricity():
    """Oracle: brentq's Kepler solution for e = 0.7 at the accepted times of the run from its own aphelion."""
    study = lab.orbit_study(lab.RTOL, 0.7)
    np.testing.assert_allclose(study.run.x[0], [-1.7, 0.0, 0.0, -math.sqrt(0.3 / 1.7)], atol=1e-15)
    error = np.max(np.linalg.norm(study.run.x[:, :2] - kepler_brentq(study.run.t, 0.7), axis=1))

    def achieved_error(t, x, e):
        return np.max(np.linalg.norm(x[:, :2] - kepler_brentq(t, e), axis=1))

    assert lab.check_achieved_error(error, achieved_error, e=0.7)
    assert not lab.check_achieved_error(error, achieved_error)  # the lab's e = 0.9 gives another error
    N = lab.rk4_ladder(0.7).steps_for(error)
    assert lab.check_equal_accuracy(N, 4 * N / study.run.nfev, e=0.7)
    assert not lab.check_equal_accuracy(N, 4 * N / study.run.nfev)


def test_the_second_trajectory_of_task_a2_has_its_largest_error_inside():
    """Closed form: positions moved outwards by 1e-4 sin^2(t/2), velocities by 1e-4 (1, -1); brentq's Kepler
    solution gives the distances back, largest near t = pi and zero at the end."""
    t = lab.orbit_study().run.t
    x, offset = lab._test_trajectory(t, lab.ECCENTRICITY)
    distance = np.linalg.norm(x[:, :2] - kepler_brentq(t), axis=1)
    np.testing.assert_allclose(distance, 1e-4 * np.sin(t / 2) ** 2, atol=1e-15)
    np.testing.assert_allclose(offset, 1e-4 * np.sin(t / 2) ** 2, atol=1e-20)
    assert t[np.argmax(distance)] == pytest.approx(math.pi, abs=0.01) and distance[-1] < 1e-15
    np.testing.assert_allclose(x[:, 2:] - lab.orbit_exact(t)[:, 2:], 1e-4 * np.array([[1.0, -1.0]]).repeat(len(t), 0),
                               atol=1e-15)


def test_the_parameter_rules_refuse_what_breaks_the_lab():
    """The rules name the parameter: e above 0.95, a frame above AB4's limit, a step that does not divide 5 s."""
    from simlab.course.parameters import ParameterError

    defaults = lab.PARAMETERS.defaults()
    for name, value in (("e", 0.97), ("e", 0.0), ("h_frame", 0.2), ("h_frame", 0.03), ("h_ab", 0.5), ("rtol", 1e-2),
                        ("error_target", 0.5), ("t_eval", 1e-5)):
        with pytest.raises(ParameterError, match=rf"{name} = "):
            lab.PARAMETERS.use({**defaults, name: value}, show=False)
    lab.PARAMETERS.use({**defaults, "e": 0.95, "h_frame": 0.125, "h_ab": 0.25}, show=False)


# ---------------------------------------------------------------------------------------------
# Part B: Adams-Bashforth on the seed's loop
# ---------------------------------------------------------------------------------------------

POLES = np.roots([1.0, 4.0, 8.0, 6.0])  # the closed loop G/(1 + G) = 1/(s^3 + 4s^2 + 8s + 6)


def step_residues(t):
    """Oracle: the closed form of 5 Phi(s)/s by partial fractions (residues at the poles), Phi = 1/(s^3+4s^2+8s+6):
    y(t) = 5 (1/6 + sum_i e^{p_i t} / (p_i prod_{j != i} (p_i - p_j)))."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    y = np.full(t.shape, 1 / 6, dtype=complex)
    for i, p in enumerate(POLES):
        y += np.exp(p * t) / (p * np.prod([p - q for j, q in enumerate(POLES) if j != i]))
    return 5.0 * y.real


def test_loop_step_exact_is_the_partial_fraction_closed_form():
    t = np.linspace(0.0, 5.0, 101)
    np.testing.assert_allclose(lab.loop_step_exact(t), step_residues(t), atol=1e-12)


def ab2_oracle(h, t_end=5.0):
    """Oracle: AB2 written out here (x_1 by the numpy RK4 loop), on x' = A x + 5 b."""
    A, b, _ = lab.loop_system()
    f = lambda t, x: A @ x + 5.0 * b  # noqa: E731
    N = round(t_end / h)
    xs = [np.zeros(3), rk4_loop(f, np.zeros(3), h, 1)[1][-1]]
    for n in range(1, N):
        xs.append(xs[n] + h * (1.5 * f(0, xs[n]) - 0.5 * f(0, xs[n - 1])))
    return np.array(xs)


def test_ab2_check_against_an_ab2_written_here():
    """The notebook's y(5) = 0.830700 of AB2 at h = 0.05 against the exact 0.830662 (partial fractions)."""
    x = ab2_oracle(0.05)
    C = lab.loop_system()[2]
    assert lab.check_ab2(x)
    assert f"{x[-1] @ C:.6f}" == "0.830700"
    assert f"{step_residues(5.0)[0]:.6f}" == "0.830662"
    assert "swapped" in str(lab.check_ab2(lab._ab2_loop(0.05, weights=(-0.5, 1.5))))
    assert lab.check_ab2(ab2_oracle(0.1), h_ab=0.1) and not lab.check_ab2(ab2_oracle(0.1))


def test_adams_study_errors_orders_and_costs():
    """Oracles: the partial-fraction closed form (errors); the theory orders 1..4 (within 0.15); the
    costs N + 3(k - 1) (AB_k), 2N + 2(k - 1) (ABM_k), 4N (RK4) from the definitions."""
    study = lab.adams_study()
    C = lab.loop_system()[2]
    for method in lab.ADAMS_METHODS:
        for i, h in enumerate(study.hs):
            run = lab._loop_run(method, h, 5.0)
            assert study.errors[method][i] == pytest.approx(np.max(np.abs(run.x @ C - step_residues(run.t))), rel=1e-6)
    for method, order in (("ab1", 1), ("ab2", 2), ("ab3", 3), ("ab4", 4), ("abm4", 4), ("rk4", 4)):
        assert study.orders[method] == pytest.approx(order, abs=0.2)
    N = np.round(5.0 / study.hs).astype(int)
    for k in range(1, 5):
        assert list(study.nfev[f"ab{k}"]) == list(N + 3 * (k - 1))
    assert list(study.nfev["abm4"]) == list(2 * N + 6) and list(study.nfev["rk4"]) == list(4 * N)
    # at about 400 evaluations AB4 (h = 0.0125) is several times more accurate than RK4 (h = 0.05)
    assert study.errors["rk4"][1] > 3 * study.errors["ab4"][3]


def test_ab_stability_limits_are_the_roots_at_zeta_minus_one():
    """Oracle: sympy, pi(-1; z) = 0 for AB1..AB4 from the weights, = -2, -1, -6/11, -3/10 (the literature);
    ABM4 -1.285 (Hairer and Wanner II, sect. V.1); RK4 the real root of R(z) = 1 (sympy)."""
    zeta, z = sp.symbols("zeta z")
    expected = {1: sp.Integer(-2), 2: sp.Integer(-1), 3: sp.Rational(-6, 11), 4: sp.Rational(-3, 10)}
    table = lab.adams_stability()
    for k, value in expected.items():
        sigma = sum(sp.Rational(b) * zeta ** (k - 1 - j) for j, b in enumerate(adams_coefficients(k)))
        root = sp.solve((zeta**k - zeta ** (k - 1) - z * sigma).subs(zeta, -1), z)[0]
        assert sp.nsimplify(root) == value
        assert table.row(f"ab{k}").z_min == pytest.approx(float(value), abs=1e-9)
    assert lab.check_ab_limits({k: float(v) for k, v in expected.items()})
    assert "zeta = 1" in str(lab.check_ab_limits({k: 0.0 for k in expected}))
    assert table.row("abm4").z_min == pytest.approx(-1.285, abs=1e-3)
    R = sum(z**n / sp.factorial(n) for n in range(5))
    rk4_limit = min(float(r) for r in sp.Poly(R - 1, z).real_roots() if r < 0)
    assert table.row("rk4").z_min == pytest.approx(rk4_limit, abs=1e-9)


def test_step_limits_on_the_loop_by_the_roots_of_the_characteristic_polynomial():
    """Oracle: numpy.roots of pi(zeta; h lambda) for each closed-loop pole: all |zeta| <= 1 at h_max,
    one outside just above it (the notebook's 0.5986, 0.4490, 0.2807, 0.1582, 0.4357, 1.2590 s)."""
    poles = np.roots([1, 4, 8, 6])

    def spectral_radius(method, h):
        if method == "rk4":
            return max(abs(1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24) for z in h * poles)
        scheme = MULTISTEP_METHODS[method]
        k, beta = scheme.steps, np.array(scheme.predictor)
        radius = 0.0
        for z in h * poles:
            rho = np.r_[1.0, -1.0, np.zeros(k - 1)]
            sigma = np.r_[0.0, beta]
            if scheme.corrector is None:
                pi = rho - z * sigma
            else:  # PECE: rho - z (b0* zeta^(k-1) + sum_j>=1 b_j* zeta^(k-j)) - z^2 b0* sigma
                corrector = np.array(scheme.corrector)
                middle = np.zeros(k + 1)
                middle[1] = corrector[0]
                middle[1:k] += corrector[1:]
                pi = rho - z * middle - z**2 * corrector[0] * sigma
            radius = max(radius, np.max(np.abs(np.roots(pi))))
        return radius

    printed = {"ab1": 0.5986, "ab2": 0.4490, "ab3": 0.2807, "ab4": 0.1582, "abm4": 0.4357, "rk4": 1.2590}
    for row in lab.adams_stability().rows:
        assert spectral_radius(row.method, row.h_max) <= 1 + 1e-7
        assert spectral_radius(row.method, row.h_max * (1 + 1e-3)) > 1
        assert round(row.h_max, 4) == printed[row.method]
        assert row.h_per_evaluation == pytest.approx(row.h_max / {"abm4": 2, "rk4": 4}.get(row.method, 1))
    euler = min(-2 * p.real / abs(p) ** 2 for p in poles)  # |1 + h lambda| <= 1 in closed form
    assert lab.adams_stability().row("ab1").h_max == pytest.approx(euler, rel=1e-9)
    # the limits the rules of h_ab and h_frame use: AB2's and AB4's, rounded down to 1 ms
    for method, limit in (("ab2", lab.AB2_STEP_LIMIT), ("ab4", lab.AB4_STEP_LIMIT)):
        assert spectral_radius(method, limit) <= 1 and spectral_radius(method, limit + 1e-3) > 1


# ---------------------------------------------------------------------------------------------
# Part C: real time
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _forced_solution():
    A, b, _ = lab.loop_system()
    return solve_ivp(lambda s, x: A @ x + b * 5.0 * np.sin(2.0 * s), (0.0, 5.0), np.zeros(3), method="DOP853",
                     rtol=1e-13, atol=1e-15, dense_output=True)


def forced_oracle(t):
    """Oracle: solve_ivp(DOP853, rtol 1e-13, its dense output) of x' = A x + b 5 sin 2t from rest, y = C x."""
    return _forced_solution().sol(np.asarray(t, dtype=float)).T @ lab.loop_system()[2]


def test_forced_exact_against_dop853():
    t = np.linspace(0.0, 5.0, 51)
    np.testing.assert_allclose(lab.loop_forced_exact(t), forced_oracle(t), atol=1e-11)
    assert f"{lab.loop_forced_exact(5.0):.6f}" == "0.372148"


def test_the_methods_table_follows_the_real_time_rules():
    """The rules (Howe 1995): evaluation i of s starts at t_n + i h/s and may use u(t_n + c_i h) only if
    c_i <= i/s; the stage times from the formulas of RTRK2, RTRK3, AB and RK4."""
    offsets = {"rtrk2": (0, Fraction(1, 2)), "rtrk3": (0, Fraction(1, 3), Fraction(2, 3)), "ab4": (0,),
               "heun": (0, 1), "rk4": (0, Fraction(1, 2), Fraction(1, 2), 1)}
    for name, wanted in offsets.items():
        method = REAL_TIME_METHODS[name]
        s = len(wanted)
        assert method.input_offsets == wanted and method.evaluations == s
        assert method.real_time_compatible == all(c <= Fraction(i, s) for i, c in enumerate(wanted))
    assert [use.how for use in input_schedule("rk4", 2, "hold")] == ["sample", "held", "sample", "held"]
    assert [use.samples for use in input_schedule("rk4", 2, "hold")] == [(0,), (0,), (1,), (1,)]


def rtrk2_oracle(h):
    """Oracle: RTRK2 written out here from its formulas, with the command sampled at t_n and t_n + h/2."""
    A, b, _ = lab.loop_system()
    x, xs = np.zeros(3), [np.zeros(3)]
    for n in range(round(5.0 / h)):
        u_n, u_half = 5.0 * np.sin(2.0 * n * h), 5.0 * np.sin(2.0 * (n * h + h / 2))
        x = x + h * (A @ (x + h / 2 * (A @ x + b * u_n)) + b * u_half)
        xs.append(x)
    return np.array(xs)


def test_rtrk2_check_against_the_formulas():
    """The notebook's y(5) = 0.373143 of RTRK2 at h = 0.05; the library loop reads 200 samples at j h/2."""
    x = rtrk2_oracle(0.05)
    assert lab.check_rtrk2_loop(x) and f"{x[-1] @ lab.loop_system()[2]:.6f}" == "0.373143"
    assert lab.check_rtrk2_loop(rtrk2_oracle(0.1), h_frame=0.1)
    run = simulate_real_time(lab.loop_model, lab.command, (0.0, 5.0), np.zeros(3), 0.05, method="rtrk2")
    np.testing.assert_allclose(run.sample_times, 0.025 * np.arange(200), atol=1e-14)
    held = simulate_real_time(lab.loop_model, lab.command, (0.0, 5.0), np.zeros(3), 0.05, method="rtrk2",
                              samples_per_frame=1, missing_input="hold")
    assert "mid-frame sample" in str(lab.check_rtrk2_loop(held.x))
    assert "half a step" in str(lab.check_rtrk2_loop(lab._rtrk2_loop(0.05, full_first=True)))


def test_real_time_errors_against_dop853_and_their_orders():
    """Oracle: solve_ivp(DOP853) of the forced loop at the frame times; the orders from the method
    definitions: RTRK2 2, RTRK3 3, AB_k k, RK4 held 1, extrapolated 2, offline 4 (within 0.1)."""
    study = lab.real_time_study()
    exact = forced_oracle(study.t)
    orders = {"RTRK2": 2, "RTRK3": 3, "AB2": 2, "AB3": 3, "AB4": 4, "RK4, u held": 1, "RK4, u extrapolated": 2}
    printed = {"RTRK2": "1.44e-03", "RTRK3": "3.17e-05", "AB2": "4.14e-03", "AB3": "3.74e-04", "AB4": "3.91e-05",
               "RK4, u held": "1.00e-02", "RK4, u extrapolated": "4.88e-04"}
    for row in study.rows:
        assert row.error == pytest.approx(np.max(np.abs(study.outputs[row.label] - exact)), abs=1e-10)
        assert row.order == pytest.approx(orders[row.label], abs=0.1) and f"{row.error:.2e}" == printed[row.label]
        assert row.compatible == (row.method != "rk4") and (row.n_substituted > 0) == (row.method == "rk4")
        assert row.evaluations == REAL_TIME_METHODS[row.method].evaluations
    A, b, C = lab.loop_system()
    for h in (0.05, 0.025):  # the errors at h/2, and RK4 offline (the numpy RK4 loop on f(t, x, r(t)))
        run = [lab._real_time_run(case, h) for case in lab.REAL_TIME_CASES]
        errors = [np.max(np.abs(r.x @ C - forced_oracle(r.t))) for r in run]
        assert [row.error if h == 0.05 else row.error_half for row in study.rows] == pytest.approx(errors, abs=1e-10)
        t, x = rk4_loop(lambda s, x: A @ x + b * 5.0 * np.sin(2.0 * s), np.zeros(3), 5.0, round(5.0 / h))
        offline = study.offline.error if h == 0.05 else study.offline.error_half
        assert offline == pytest.approx(np.max(np.abs(x @ C - forced_oracle(t))), rel=1e-4)
    assert study.offline.order == pytest.approx(4, abs=0.1) and f"{study.offline.error:.2e}" == "8.52e-07"
    assert study.row("RK4, u held").n_substituted == 2 * 100  # K2 and K4 in each of the 100 frames


# ---------------------------------------------------------------------------------------------
# Part D: the budget
# ---------------------------------------------------------------------------------------------


def test_budget_frames_meet_the_target_and_one_frame_fewer_does_not():
    """Oracle: solve_ivp(DOP853) of the forced loop; each verified N meets the target 1e-3 and N - 1
    frames do not; the load s t_eval / h (the notebook's table)."""
    budget = lab.real_time_budget()
    printed = {"RTRK2": 120, "RTRK3": 33, "AB2": 204, "AB3": 72, "AB4": 44, "RK4, u extrapolated": 70}
    for row in budget.rows:
        case = next(c for c in lab.REAL_TIME_CASES if c.label == row.label)
        assert row.load == pytest.approx(row.evaluations * lab.T_EVAL / row.h_largest)
        if row.frames is None:
            assert row.label == "RK4, u held" and row.load > 1 and not row.feasible
            continue
        assert row.frames == printed[row.label] and row.feasible
        errors = []
        for N in (row.frames, row.frames - 1):
            run = simulate_real_time(lab.loop_model, lab.command, (0.0, 5.0), np.zeros(3), 5.0 / N, method=case.method,
                                     samples_per_frame=case.samples_per_frame, missing_input=case.missing_input)
            errors.append(np.max(np.abs(run.x @ lab.loop_system()[2] - forced_oracle(run.t))))
        assert errors[0] <= lab.ERROR_TARGET < errors[1]
    assert min(budget.rows, key=lambda row: row.load).label == "AB4"


def test_budget_check_and_the_discussions_numbers():
    """The estimate h = min(h (e*/e_h)^(1/p), h_stable) by hand; at 20 ms per evaluation the loads of
    the discussion (RTRK2 0.96, RK4 extrapolated 1.1, AB4 0.18, RTRK3 0.40); at e* = 1e-2 AB4 is held
    by its stability limit; RK4 offline allows 6.9 times RTRK2's frame (the notebook's last line)."""
    study = lab.real_time_study()
    h = {row.label: min(0.05 * (1e-3 / row.error) ** (1 / row.order), row.h_stable) for row in study.rows}
    load = {row.label: row.evaluations * 2e-3 / h[row.label] for row in study.rows}
    assert lab.check_budget(h, load)
    assert "1/p" in str(lab.check_budget({k: min(0.05 * (1e-3 / study.row(k).error) ** study.row(k).order,
                                                 study.row(k).h_stable) for k in h}, load))
    assert "s evaluations" in str(lab.check_budget(h, {k: 2e-3 / v for k, v in h.items()}))
    loads = {row.label: row.load for row in lab.real_time_budget(t_eval=0.02).rows}  # the verified frames
    assert (round(loads["RTRK2"], 2), round(loads["RK4, u extrapolated"], 1)) == (0.96, 1.1)
    assert (round(loads["AB4"], 2), round(loads["RTRK3"], 2)) == (0.18, 0.40)
    ab4 = study.row("AB4")
    assert 0.05 * (1e-2 / ab4.error) ** (1 / ab4.order) > ab4.h_stable
    offline = 0.05 * (1e-3 / study.offline.error) ** (1 / study.offline.order)
    assert f"{offline / lab.real_time_budget().row('RTRK2').h_largest:.1f}" == "6.9"


# ---------------------------------------------------------------------------------------------
# The lab as a whole
# ---------------------------------------------------------------------------------------------


def test_run_returns_the_summary_figures_and_typed_data():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    assert EXPERIMENTS["lab10"].module == "lab10_variable_step_real_time"
    result = lab.run()
    assert isinstance(result.data, lab.Lab10Results)
    summary = dict(result.summary)
    assert summary["RK4 / RKF45 evaluations"] == "11.4" and summary["AB4: measured order"] == "3.88"
    assert [figure.stem for figure in result.figures] == ["lab10_orbit_steps", "lab10_work_precision", "lab10_adams",
                                                          "lab10_adams_regions", "lab10_real_time"]
    for figure in result.figures:
        plt.close(figure.draw(figure.data))


def test_cached_results_are_read_only():
    study = lab.orbit_study()
    assert lab.orbit_study() is study
    with pytest.raises(ValueError):
        study.run.h[0] = 1.0
