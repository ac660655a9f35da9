"""simlab.stability: stability functions, real limits, largest stable steps and order fitting.

Oracles: sympy (one textbook step on y' = lambda y, real roots of R(z) = +-1) and closed forms.
"""

import numpy as np
import pytest
import sympy as sp

from simlab import stability


def test_fit_order_recovers_a_known_power_law():
    hs = np.array([0.1, 0.05, 0.025])
    assert stability.fit_order(hs, 3.0 * hs**2.5) == pytest.approx(2.5)

def test_fit_order_rejects_zero_errors():
    with pytest.raises(ValueError, match="non-zero"):
        stability.fit_order([0.1, 0.2], [0.0, 1e-3])

@pytest.mark.parametrize("method", ["euler", "heun", "rk4"])
def test_stability_polynomial_is_one_step_on_the_test_equation(method):
    """Oracle: sympy, one textbook step of the method on y' = lambda y equals R(h lambda) y."""
    z, y = sp.symbols("z y")
    f = lambda yy: z * yy  # h = 1, lambda = z  # noqa: E731
    if method == "euler":
        step = y + f(y)
    elif method == "heun":
        k1 = f(y)
        step = y + (k1 + f(y + k1)) / 2
    else:
        k1 = f(y)
        k2 = f(y + k1 / 2)
        k3 = f(y + k2 / 2)
        k4 = f(y + k3)
        step = y + (k1 + 2 * k2 + 2 * k3 + k4) / 6
    R = sp.Poly(sp.expand(step / y), z).all_coeffs()[::-1]
    np.testing.assert_allclose(stability.stability_polynomial(method), [float(c) for c in R], rtol=1e-15)

def test_real_stability_limits():
    """Oracle: sympy real roots of R(z) = 1 for RK4 (about -2.785) and R(z) = -1 for Euler."""
    z = sp.Symbol("z")
    rk4 = 1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24
    roots = [r for r in sp.Poly(rk4 - 1, z).nroots() if abs(sp.im(r)) < 1e-12 and sp.re(r) < -1e-9]
    assert stability.real_stability_limit("rk4") == pytest.approx(float(max(roots)), rel=1e-10)
    assert stability.real_stability_limit("euler") == pytest.approx(-2.0)
    assert stability.real_stability_limit("heun") == pytest.approx(-2.0)

def test_max_stable_step_for_a_real_eigenvalue():
    """Oracle: h_max = z_min / lambda for a single real eigenvalue."""
    assert stability.max_stable_step([-10.0], "euler") == pytest.approx(0.2, rel=1e-9)
    assert stability.max_stable_step([-1000.0], "rk4") == pytest.approx(
        -stability.real_stability_limit("rk4") / 1000.0, rel=1e-9
    )

def test_max_stable_step_rejects_unstable_eigenvalues():
    with pytest.raises(ValueError, match="negative real part"):
        stability.max_stable_step([0.5, -1.0], "rk4")


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): fit_order and stability_grid check every argument; nothing reaches
# LAPACK unchecked (a NaN step size used to make it print "** On entry to DLASCL ...")
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hs, errors, error, message", [
    ([np.nan, 0.05], [1e-2, 2.5e-3], ValueError, r"hs must be finite \(no NaN or inf\), got \[nan, 0.05\]"),
    ([0.1, 0.05], [np.inf, 2.5e-3], ValueError, r"errors must be finite \(no NaN or inf\), got \[inf, 0.0025\]"),
    ("abc", [1e-2, 2.5e-3], TypeError, r"hs must be a number or an array of numbers, got 'abc'"),
    ([0.1, 0.05], [[1e-2, 2.5e-3], [1.0]], TypeError, r"errors must be a number or a rectangular array"),
    ([0.1, 0.05], [1 + 1j, 2.5e-3], TypeError, r"errors must be real, got complex values"),
    ([[0.1, 0.05]], [[1e-2, 2.5e-3]], ValueError, r"hs must be 1-dimensional, got an array of shape \(1, 2\)"),
    ([0.1, 0.05, 0.025], [1e-2, 2.5e-3], ValueError,
     r"hs and errors must be 1-D of the same length >= 2, got shapes \(3,\) and \(2,\)"),
    ([0.1, -0.05], [1e-2, 2.5e-3], ValueError, r"hs must be positive step sizes .* got hs = \[0.1, -0.05\]"),
    ([0.1, 0.1], [1e-2, 2.5e-3], ValueError, r"hs must hold at least two different step sizes to fit a "
                                            r"slope, got hs = \[0.1, 0.1\]"),
    ([0.1, 0.05], [1e-2, 0.0], ValueError, r"errors must be non-zero .* got \|errors\| = \[0.01, 0\]"),
])
def test_fit_order_names_the_bad_argument_and_prints_nothing(hs, errors, error, message, capfd):
    """capfd reads the process's stdout and stderr, where LAPACK writes (below Python)."""
    with pytest.raises(error, match=message):
        stability.fit_order(hs, errors)
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(n=True), TypeError, r"n must be an integer \(points per axis\), got True \(type bool\)"),
    (dict(n=2.5), TypeError, r"n must be an integer \(points per axis\), got 2.5"),
    (dict(n=1), ValueError, r"n must be between 2 and 1001 \(points per axis\), got 1"),
    (dict(n=10**5), ValueError, r"n must be between 2 and 1001 \(points per axis\), got 100000"),
    (dict(re=(0.0, np.nan)), ValueError, r"re\[1\] \(high\) must be a finite number, got nan"),
    (dict(im="ab"), TypeError, r"im must be a pair \(low, high\) of numbers, got 'ab'"),
    (dict(re=(1.0, 1.0)), ValueError, r"re must be a range \(low, high\) with low < high, got \(1.0, 1.0\)"),
    (dict(re=(-1e200, 0.0)), ValueError, r"re, im: R\(z\) overflows the floating-point range for \|z\| up "
                                         r"to 1e\+200; .* below about 2.56e\+77"),
])
def test_stability_grid_checks_n_re_and_im(kwargs, error, message):
    """n = 0 used to give empty arrays, n = True a 1x1 grid, n = 10**5 a MemoryError."""
    with pytest.raises(error, match=message):
        stability.stability_grid("rk4", **kwargs)


def test_stability_grid_default_is_unchanged():
    """Oracle: the formula of the docstring, |R(x + iy)| on a 301 x 301 grid."""
    x, y, magnitude = stability.stability_grid("heun")
    assert x.shape == y.shape == magnitude.shape == (301, 301)
    z = x + 1j * y
    np.testing.assert_array_equal(magnitude, np.abs(np.polynomial.polynomial.polyval(z, [1.0, 1.0, 0.5])))


def test_stability_function_refuses_z_where_R_overflows():
    """Oracle: |z|^4 / 24 passes 1.8e308 near |z| = 2.56e77 (RK4)."""
    assert np.isfinite(stability.stability_function("rk4", -1e76))
    with pytest.raises(ValueError, match=r"z: R\(z\) overflows the floating-point range for \|z\| up to "
                                         r"1e\+100; R is a polynomial of degree 4"):
        stability.stability_function("rk4", -1e100)


@pytest.mark.parametrize("kwargs, name", [(dict(eigenvalues=[-1.0, -5e-324]), "eigenvalues"),
                                          (dict(eigenvalues=[-1.0], h_max=1e-320), "h_max")])
def test_max_stable_step_names_a_denormal_eigenvalue_or_h_max_not_z(kwargs, name):
    """Rule: below 2.2e-308 (a denormal float) 1 / |lambda| overflows; the message used to name z (issue 23)."""
    with pytest.raises(ValueError, match=rf"{name} must be at least 2\.23e-308 in size"):
        stability.max_stable_step(method="rk4", **kwargs)


def test_max_stable_step_of_a_tiny_eigenvalue_is_infinite_up_to_h_max():
    """Oracle: h |lambda| <= h_max 1e-300 <= 1e-7, far inside every stability region: stable up to h_max."""
    assert stability.max_stable_step([-1e-300], "rk4", h_max=1e3) == np.inf
    assert stability.max_stable_step([-1e-300], "ab4", h_max=1e293) == np.inf


@pytest.mark.parametrize("function, method", [
    (stability.stability_function, "rk4"), (stability.characteristic_polynomial, "rk4"),
    (stability.characteristic_polynomial, "ab3"), (stability.amplification_factor, "rk4"),
    (stability.amplification_factor, "ab3")])
def test_an_empty_z_is_refused_naming_z(function, method):
    """Rule: there is nothing to evaluate; an empty result used to come back silently (issue 23)."""
    with pytest.raises(ValueError, match=r"z must hold at least one value"):
        function(method, [])


@pytest.mark.parametrize("method", ["rk4", "ab2"])
def test_stability_grid_refuses_a_range_wider_than_the_floating_point_range(method):
    """Rule: 1e308 - (-1e308) overflows, so the grid would be NaN (issue 23)."""
    with pytest.raises(ValueError, match=r"re = \(-1e\+308, 1e\+308\) is wider than the floating-point range"):
        stability.stability_grid(method, re=(-1e308, 1e308))
