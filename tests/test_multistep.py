"""simlab.multistep (Adams-Bashforth, ABM predictor-corrector) and its stability analysis, issue 16.

Oracles: sympy (the Adams weights from the interpolating polynomial; the stability polynomial
from one symbolic step on y' = lambda y; the exact real stability limits), numpy.roots (the root
condition), closed-form solutions (measured orders), simlab.rk4 and simlab.euler (the start
steps and AB1), and the textbook table of the weights (Hairer, Norsett and Wanner I, Table
III.1.1 and III.1.2).
"""

import inspect
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

import simlab
from simlab import stability
from simlab.guards import UnstableRunError, unstable_growth_allowed
from simlab.multistep import MULTISTEP_METHODS, adams_bashforth, adams_bashforth_moulton, adams_coefficients

# ---------------------------------------------------------------------------------------------
# The weights
# ---------------------------------------------------------------------------------------------


def sympy_adams_weights(k, implicit):
    """beta_j = int_0^1 l_j(s) ds, with sympy's interpolating polynomial through unit data."""
    s = sp.Symbol("s")
    nodes = [(1 if implicit else 0) - i for i in range(k)]
    weights = []
    for j in range(k):
        data = [(node, 1 if i == j else 0) for i, node in enumerate(nodes)]
        weights.append(sp.integrate(sp.interpolate(data, s), (s, 0, 1)) if k > 1 else sp.Integer(1))
    return weights


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("implicit", [False, True])
def test_weights_are_the_integrals_of_the_interpolating_polynomial(k, implicit):
    """Oracle: sympy.interpolate and sympy.integrate."""
    assert [sp.Rational(b.numerator, b.denominator) for b in adams_coefficients(k, implicit)] == \
        sympy_adams_weights(k, implicit)


def test_weights_are_the_textbook_table():
    """Hairer, Norsett and Wanner I, Tables III.1.1 (AB) and III.1.2 (AM)."""
    F = Fraction
    assert adams_coefficients(4) == (F(55, 24), F(-59, 24), F(37, 24), F(-9, 24))
    assert adams_coefficients(3) == (F(23, 12), F(-16, 12), F(5, 12))
    assert adams_coefficients(4, implicit=True) == (F(9, 24), F(19, 24), F(-5, 24), F(1, 24))
    assert adams_coefficients(2, implicit=True) == (F(1, 2), F(1, 2))


def test_the_method_table_holds_the_weights_and_costs():
    assert MULTISTEP_METHODS["ab4"].predictor == tuple(float(b) for b in adams_coefficients(4))
    assert MULTISTEP_METHODS["abm3"].corrector == tuple(float(b) for b in adams_coefficients(3, True))
    assert [m.evaluations for m in MULTISTEP_METHODS.values()] == [1, 1, 1, 1, 2, 2, 2]
    assert [m.order for m in MULTISTEP_METHODS.values()] == [1, 2, 3, 4, 2, 3, 4]


# ---------------------------------------------------------------------------------------------
# Measured orders
# ---------------------------------------------------------------------------------------------

PROBLEMS = {
    "oscillator": (lambda t, x: np.array([x[1], -x[0]]), [1.0, 0.0],
                   lambda t: np.stack([np.cos(t), -np.sin(t)], axis=-1)),
    "forced decay": (lambda t, x: -x + np.sin(t), 1.0, lambda t: 1.5 * np.exp(-t) + 0.5 * (np.sin(t) - np.cos(t))),
    "logistic": (lambda t, x: x * (1 - x), 0.1, lambda t: 1 / (1 + 9 * np.exp(-t))),
}
HS = np.array([0.04, 0.02, 0.01, 0.005, 0.0025])


@pytest.mark.parametrize("problem", PROBLEMS)
@pytest.mark.parametrize("method", MULTISTEP_METHODS)
def test_measured_order_is_the_order_within_0_2(problem, method):
    """Oracle: the closed-form solutions; the slope of log max|error| against log h on
    h = 0.04 .. 0.0025 over t in [0, 5] (measured: within 0.07 of the order everywhere)."""
    f, x0, exact = PROBLEMS[problem]
    scheme = MULTISTEP_METHODS[method]
    run = adams_bashforth if scheme.corrector is None else adams_bashforth_moulton
    errors = []
    for h in HS:
        t, x = run(f, (0.0, 5.0), x0, h, order=scheme.order)
        errors.append(np.max(np.abs(x - exact(t))))
    assert stability.fit_order(HS, errors) == pytest.approx(scheme.order, abs=0.2)


def test_the_corrector_is_more_accurate_than_the_predictor_alone():
    """ABM4's error constant (-19/720) is about 1/13 of AB4's (251/720)."""
    f, x0, exact = PROBLEMS["oscillator"]
    e_ab = np.max(np.abs(adams_bashforth(f, (0, 5), x0, 0.01).x - exact(np.linspace(0, 5, 501))))
    e_abm = np.max(np.abs(adams_bashforth_moulton(f, (0, 5), x0, 0.01).x - exact(np.linspace(0, 5, 501))))
    assert 8 < e_ab / e_abm < 20


# ---------------------------------------------------------------------------------------------
# Start, cost and the recurrences
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("order", [2, 3, 4])
def test_the_first_steps_are_rk4_steps(order):
    """Oracle: simlab.rk4 on the same grid."""
    f = lambda t, x: np.array([x[1], -x[0] + np.cos(t)])  # noqa: E731
    reference = simlab.rk4(f, (0, 1), [1.0, 0.0], 0.1).x
    for run in (adams_bashforth, adams_bashforth_moulton):
        result = run(f, (0, 1), [1.0, 0.0], 0.1, order=order)
        np.testing.assert_array_equal(result.x[:order], reference[:order])
        assert result.start_steps == order - 1
        assert not np.array_equal(result.x[order], reference[order])


def test_ab1_is_euler():
    f = lambda t, x: t - x**2  # noqa: E731
    np.testing.assert_array_equal(adams_bashforth(f, (0, 2), 0.5, 0.05, order=1).x,
                                  simlab.euler(f, (0, 2), 0.5, 0.05).x)


def test_ab2_and_abm2_follow_their_recurrences():
    """By hand on x' = lambda x: AB2 x_{n+1} = x_n + z (3 x_n - x_{n-1}) / 2; ABM2 predicts with AB2
    and corrects with the trapezoid x_{n+1} = x_n + z (x^P + x_n) / 2."""
    lam, h = -2.0, 0.1
    z = lam * h
    ab = adams_bashforth(lambda t, x: lam * x, (0, 1), 1.0, h, order=2).x
    abm = adams_bashforth_moulton(lambda t, x: lam * x, (0, 1), 1.0, h, order=2).x
    for n in range(1, 10):
        assert ab[n + 1] == pytest.approx(ab[n] + z * (3 * ab[n] - ab[n - 1]) / 2, rel=1e-14)
        predicted = abm[n] + z * (3 * abm[n] - abm[n - 1]) / 2
        assert abm[n + 1] == pytest.approx(abm[n] + z * (predicted + abm[n]) / 2, rel=1e-14)


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_nfev_counts_the_calls_of_f(order):
    """AB_k: N + 3 (k - 1) (4 per RK4 start step, whose K1 is reused, then 1 per step);
    ABM_k: 2 N + 2 (k - 1) (2 per step; the last slope at t1 is not needed)."""
    calls = []

    def f(t, x):
        calls.append(t)
        return -x

    n_steps = 50
    assert adams_bashforth(f, (0, 1), 1.0, 1 / n_steps, order=order).nfev == len(calls) == n_steps + 3 * (order - 1)
    if order >= 2:
        calls.clear()
        result = adams_bashforth_moulton(f, (0, 1), 1.0, 1 / n_steps, order=order)
        assert result.nfev == len(calls) == 2 * n_steps + 2 * (order - 1)


def test_a_span_shorter_than_the_start_is_all_rk4():
    result = adams_bashforth(lambda t, x: -x, (0, 0.2), 1.0, 0.1, order=4)
    np.testing.assert_array_equal(result.x, simlab.rk4(lambda t, x: -x, (0, 0.2), 1.0, 0.1).x)
    assert result.start_steps == 2 and result.nfev == 8


def test_results_are_trajectories_with_order_and_method():
    result = adams_bashforth_moulton(lambda t, x: -x, (0, 1), np.ones((2, 3)), 0.1, order=3)
    t, x = result
    assert isinstance(result, simlab.Trajectory) and x.shape == (11, 2, 3)
    assert (result.method, result.order, result.h) == ("abm3", 3, 0.1)


def test_the_top_level_names_are_the_contract():
    assert simlab.adams_bashforth is adams_bashforth and simlab.adams_bashforth_moulton is adams_bashforth_moulton
    assert str(inspect.signature(simlab.adams_bashforth)) == "(f, t_span, x0, h, order=4)"
    assert str(inspect.signature(simlab.adams_bashforth_moulton)) == "(f, t_span, x0, h, order=4)"


# ---------------------------------------------------------------------------------------------
# Stability
# ---------------------------------------------------------------------------------------------


def sympy_stability_polynomial(method):
    """pi(zeta; z) from one symbolic step on y' = lambda y (h lambda = z), x_{n-j} = zeta^(k-1-j)."""
    z, zeta = sp.symbols("z zeta")
    scheme = MULTISTEP_METHODS[method]
    k = scheme.order
    beta = sympy_adams_weights(k, implicit=False)
    x = lambda j: zeta ** (k - 1 - j)  # noqa: E731  x_{n-j}
    predicted = x(0) + z * sum(beta[j] * x(j) for j in range(k))
    if scheme.corrector is None:
        new = predicted
    else:
        beta_c = sympy_adams_weights(k, implicit=True)
        new = x(0) + z * (beta_c[0] * predicted + sum(beta_c[j] * x(j - 1) for j in range(1, k)))
    return sp.Poly(sp.expand(zeta**k - new), zeta), z


@pytest.mark.parametrize("method", MULTISTEP_METHODS)
def test_characteristic_polynomial_is_one_symbolic_step_on_the_test_equation(method):
    """Oracle: sympy, the recurrence of the method on y' = lambda y."""
    poly, z = sympy_stability_polynomial(method)
    for value in (-0.7, 0.3 + 1.1j, -2.5 - 0.2j):
        expected = [complex(c.subs(z, value)) for c in poly.all_coeffs()]
        np.testing.assert_allclose(stability.characteristic_polynomial(method, value), expected, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("method, exact, exit", [("ab1", -2, -1), ("ab2", -1, -1), ("ab3", sp.Rational(-6, 11), -1),
                                                 ("ab4", sp.Rational(-3, 10), -1), ("abm2", -2, 1)])
def test_real_stability_limits_are_where_a_root_leaves_the_unit_disc(method, exact, exit):
    """Oracle: sympy, the real z < 0 nearest 0 where pi(exit; z) = 0, exact rationals. AB_k's root
    leaves through zeta = -1; ABM2's through zeta = +1 (a double root, pi = (zeta - 1)^2 at z = -2)."""
    poly, z = sympy_stability_polynomial(method)
    at_exit = sp.Poly(poly.as_expr().subs(sp.Symbol("zeta"), exit), z)
    roots = [r for r in sp.solve(at_exit.as_expr(), z) if r.is_real and r < 0]
    assert max(roots) == exact
    assert stability.real_stability_limit(method) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("method", MULTISTEP_METHODS)
def test_the_real_interval_satisfies_the_root_condition_and_ends_there(method):
    """Oracle: numpy.roots of sympy's polynomial: every root in the unit disc on (z_min, 0),
    one outside just beyond z_min (ABM3 -1.7288, ABM4 -1.2848: their roots leave through
    complex zeta, not -1)."""
    poly, z = sympy_stability_polynomial(method)
    coefficients = sp.lambdify(z, poly.all_coeffs(), "numpy")
    z_min = stability.real_stability_limit(method)
    radius = lambda value: np.max(np.abs(np.roots(np.array(coefficients(value), dtype=complex))))  # noqa: E731
    assert all(radius(value) <= 1 + 1e-12 for value in np.linspace(z_min * (1 - 1e-7), -1e-4, 400))
    assert radius(z_min * (1 + 1e-6)) > 1 + 1e-9


def test_the_abm_intervals_are_the_literature_values():
    """Hairer and Wanner II, sect. V.1 (PECE of orders 2-4): about -2, -1.73 and -1.28; the PECE
    interval is longer than AB_k's at the same order."""
    assert [round(stability.real_stability_limit(m), 3) for m in ("abm2", "abm3", "abm4")] == [-2.0, -1.729, -1.285]
    for k in (2, 3, 4):
        assert stability.real_stability_limit(f"abm{k}") < stability.real_stability_limit(f"ab{k}")


@pytest.mark.parametrize("method", ["ab2", "ab4", "abm3", "rk4"])
def test_the_boundary_locus_is_where_a_root_has_modulus_one(method):
    """Oracle: sympy's polynomial pi(zeta; z) (or zeta - R(z)) vanishes at zeta = e^{i theta} for
    every z of the locus at theta."""
    zeta_symbol = sp.Symbol("zeta")
    if method == "rk4":
        z = sp.Symbol("z")
        poly = zeta_symbol - (1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24)
    else:
        poly, z = sympy_stability_polynomial(method)
        poly = poly.as_expr()
    pi = sp.lambdify((zeta_symbol, z), poly, "numpy")
    theta = np.linspace(0.0, 2.0 * np.pi, 73)
    locus = stability.boundary_locus(method, n=73)
    for branch in locus.T:
        assert np.max(np.abs(pi(np.exp(1j * theta), branch))) < 1e-12


def test_the_ab_boundary_locus_is_rho_over_sigma():
    theta = np.linspace(0, 2 * np.pi, 9)
    zeta = np.exp(1j * theta)
    expected = (zeta**2 - zeta) / ((3 * zeta - 1) / 2)
    np.testing.assert_allclose(stability.boundary_locus("ab2", n=9)[:, 0], expected, atol=1e-15)


def test_the_region_and_the_step_limit_agree_with_runs_on_the_test_equation():
    """AB4 on x' = -10 x: h = 0.029 (h lambda = -0.29) decays, h = 0.031 grows (limit 0.03)."""
    assert stability.max_stable_step([-10.0], "ab4") == pytest.approx(0.03, rel=1e-9)
    assert stability.max_stable_step([-1.0 + 0j], "ab2") == pytest.approx(1.0, rel=1e-9)
    decaying = adams_bashforth(lambda t, x: -10 * x, (0, 29), 1.0, 0.029)
    with unstable_growth_allowed():
        growing = adams_bashforth(lambda t, x: -10 * x, (0, 31), 1.0, 0.031)
    assert abs(decaying.final) < 1e-3 and abs(growing.final) > 1e3


def test_an_unstable_adams_run_is_stopped_with_the_step_limit():
    with pytest.raises(UnstableRunError, match=r"ab4: the run is unstable.*\|h lambda\| <= 0\.3 on the real "
                                               r"axis\): the largest stable step is at most about h = 0\.03") as caught:
        adams_bashforth(lambda t, x: -10 * x, (0, 20), 1.0, 0.05)
    assert caught.value.h_limit == pytest.approx(0.03)


def test_stability_grid_of_a_multistep_method_is_the_largest_root():
    x, y, magnitude = stability.stability_grid("ab2", re=(-1.5, -0.5), im=(-0.1, 0.1), n=3)
    assert magnitude[1, 0] > 1 > magnitude[1, 2]  # z = -1.5 outside, z = -0.5 inside
    np.testing.assert_allclose(magnitude, stability.amplification_factor("ab2", x + 1j * y))


def test_amplification_factor_of_a_one_step_method_is_the_modulus_of_R():
    z = np.array([-1.0, -2.5 + 1j])
    np.testing.assert_allclose(stability.amplification_factor("rk4", z), np.abs(stability.stability_function("rk4", z)))


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call, error, message", [
    (lambda: adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.1, order=5), ValueError, r"order must be between 1 and 4"),
    (lambda: adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.1, order=0), ValueError, r"order must be between 1 and 4"),
    (lambda: adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.1, order=2.0), TypeError, r"order must be an integer"),
    (lambda: adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.1, order=True), TypeError, r"order must be an integer"),
    (lambda: adams_bashforth_moulton(lambda t, x: -x, (0, 1), 1.0, 0.1, order=1), ValueError,
     r"order must be between 2 and 4 \(predictor-corrector orders 2 to 4\)"),
    (lambda: adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.3), ValueError, r"h = 0.3 does not divide"),
    (lambda: adams_bashforth(lambda t, x: [x, x], (0, 1), 1.0, 0.1), ValueError, r"f\(t, x\) returned dx/dt of shape"),
    (lambda: adams_bashforth_moulton(lambda t, x: -x, (0, 1), [np.nan], 0.1), ValueError, r"x0 must be finite"),
    (lambda: adams_coefficients(3, implicit="yes"), TypeError, r"implicit must be True or False"),
    (lambda: stability.characteristic_polynomial("ab5", -1.0), ValueError, r"method must be one of"),
    (lambda: stability.characteristic_polynomial("abm2", 1e300), ValueError,
     r"z: the stability polynomial of abm2 overflows"),
    (lambda: stability.boundary_locus("abm2", n=1), ValueError, r"n must be between 2"),
])
def test_bad_arguments_get_a_message_naming_them(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("call", [lambda f, x0: simlab.adams_bashforth(f, (0.0, 1.0), x0, 0.1, order=3),
                                  lambda f, x0: simlab.adams_bashforth_moulton(f, (0.0, 1.0), x0, 0.1, order=3)],
                         ids=["ab3", "abm3"])
def test_a_run_that_overflows_from_a_huge_x0_names_x0(call):
    """Oracle: the RK4 start's K1 + 2 (K2 + K3) + K4 on y' = -y from 1e308 overflows (issue 23)."""
    with pytest.raises(simlab.NonFiniteStateError, match=r"initial state x0 \(\|x0\| up to 1e\+308\)"):
        call(lambda t, y: -y, 1e308)
