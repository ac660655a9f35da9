"""simlab.accuracy: Richardson extrapolation and the observed order, against closed forms and sympy."""

import math

import numpy as np
import pytest
import sympy as sp

import simlab
from simlab.accuracy import observed_order, richardson, richardson_error
from simlab.stability import fit_order


@pytest.mark.parametrize("p, q", [(1, 2), (2, 2), (4, 2), (2, 3), (1.5, 1.5)])
def test_an_error_of_exactly_c_h_to_the_p_is_removed_and_estimated_exactly(p, q):
    # closed form: x_h = x + C h^p, x_{h/q} = x + C (h/q)^p
    x, C, h = np.array([1.0, -2.0, 0.5]), np.array([3.0, 0.7, -5.0]), 0.1
    coarse, fine = x + C * h**p, x + C * (h / q) ** p
    assert np.allclose(richardson(coarse, fine, p, q), x, rtol=0, atol=1e-14)
    assert np.allclose(richardson_error(coarse, fine, p, q), C * (h / q) ** p, rtol=0, atol=1e-14)


def _growth(method, z):
    """R(z) of one step on y' = lambda y (sympy), z = h lambda."""
    if method == "euler":
        return 1 + z
    if method == "heun":
        return 1 + z / 2 * (1 + (1 + z))
    k2 = 1 + z / 2
    k3 = 1 + z / 2 * k2
    k4 = 1 + z * k3
    return 1 + z / 6 * (1 + 2 * k2 + 2 * k3 + k4)


@pytest.mark.parametrize("method, p", [("euler", 1), ("heun", 2), ("rk4", 4)])
def test_richardson_of_one_step_and_two_half_steps_gains_one_order_sympy(method, p):
    # oracle: sympy series. One step h and two steps h/2 on y' = lambda y from y = 1; the
    # combination must match e^z through z^(p+1), so its local error is O(z^(p+2)), global O(h^(p+1)).
    z = sp.Symbol("z")
    coarse, fine = _growth(method, z), _growth(method, z / 2) ** 2
    combined = fine + (fine - coarse) / (2**p - 1)
    difference = sp.expand(sp.series(sp.exp(z) - combined, z, 0, p + 4).removeO())
    lowest = min(sp.Poly(difference, z).monoms())[0]
    assert lowest == p + 2
    plain = sp.expand(sp.series(sp.exp(z) - fine, z, 0, p + 4).removeO())
    assert min(sp.Poly(plain, z).monoms())[0] == p + 1


def test_richardson_of_euler_runs_converges_at_order_two():
    # closed form: Euler on x' = x, x(0) = 1 gives (1 + h)^N at t = 1; e is the limit
    hs = 1.0 / np.array([100, 200, 400, 800])
    euler = lambda h: (1 + h) ** round(1 / h)
    errors = [abs(richardson(euler(h), euler(h / 2), 1) - np.e) for h in hs]
    assert fit_order(hs, errors) == pytest.approx(2.0, abs=0.02)


def test_observed_order_of_euler_needs_no_exact_solution():
    # known order 1: simlab.euler on x' = -x, runs with h, h/2, h/4 at the coarse grid
    runs = [simlab.euler(lambda t, x: -x, (0.0, 2.0), 1.0, h).x for h in (0.01, 0.005, 0.0025)]
    assert observed_order(runs[0], runs[1][::2], runs[2][::4]) == pytest.approx(1.0, abs=0.02)


def test_observed_order_of_a_pure_power_is_exact():
    h, q = 0.2, 3.0
    runs = [1.0 + 7.0 * (h / q**k) ** 3 for k in range(3)]
    assert observed_order(*runs, ratio=q) == pytest.approx(3.0, rel=1e-10)


def test_shapes_are_kept():
    coarse, fine = np.ones((4, 2)), np.full((4, 2), 1.5)
    assert richardson(coarse, fine, 2).shape == (4, 2) and richardson_error(coarse, fine, 2).shape == (4, 2)
    assert np.isscalar(observed_order(0.0, 1.0, 1.5)) or np.ndim(observed_order(0.0, 1.0, 1.5)) == 0


@pytest.mark.parametrize("call, error, match", [
    (lambda: richardson([1.0, 2.0], [1.0], 2), ValueError, "fine must have the shape of coarse"),
    (lambda: richardson([1.0], [1.0], 0.0), ValueError, "order"),
    (lambda: richardson([1.0], [1.0], 2, ratio=1.0), ValueError, "ratio"),
    (lambda: richardson([1.0], [1.0], 1e-14), ValueError, "ratio\\*\\*order - 1"),
    (lambda: richardson_error([np.nan], [1.0], 2), ValueError, "coarse"),
    (lambda: richardson_error("1.0", [1.0], 2), TypeError, "coarse"),
    (lambda: richardson([1.0], [1.0], "2"), TypeError, "order"),
    (lambda: observed_order([1.0], [1.0], [2.0]), ValueError, "coarse and medium are equal"),
    (lambda: observed_order([1.0], [2.0], [2.0]), ValueError, "medium and fine are equal"),
    (lambda: observed_order([1.0], [2.0], [3.0, 4.0]), ValueError, "fine must have the shape of coarse"),
    (lambda: observed_order([1.0], [2.0], [3.0], ratio=0.5), ValueError, "ratio"),
])
def test_bad_input_gets_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("call, names", [
    (lambda: richardson([1e308], [-1e308], order=1), "coarse and fine"),
    (lambda: richardson_error([-1e308], [1e308], order=2), "coarse and fine"),
    (lambda: observed_order([1e308], [-1e308], [0.0]), "coarse and medium"),
    (lambda: observed_order([0.0], [1e308], [-1e308]), "medium and fine"),
])
def test_runs_whose_difference_overflows_are_refused_not_returned_as_inf(call, names):
    """Oracle: 1e308 - (-1e308) = 2e308 is beyond the largest float64, 1.8e308 (issue 23)."""
    with pytest.raises(ValueError, match=rf"{names} differ by more than the floating-point range"):
        call()


def test_observed_order_of_runs_near_the_top_of_the_range_is_finite():
    """Oracle: log2(1e308 / 1e-300) = 2023.3; the quotient itself would overflow to inf (issue 23)."""
    p = observed_order([1e308], [0.0], [1e-300])
    assert abs(p - (math.log2(1e308) - math.log2(1e-300))) < 1e-9
