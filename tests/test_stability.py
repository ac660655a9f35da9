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
