"""Specification of simlab.similarity, the discrete similarity method (离散相似法, lab04).

Every test names its oracle: scipy (cont2discrete, lsim, dlsim, quad_vec, expm), python-control
(forced_response, c2d), sympy (inverse Laplace transform, integrals), or a closed form derived in
the docstring. Nothing is compared with numbers produced by simlab itself.

Tolerances. All compared quantities are float64 results of the same exact mathematics, so they
differ only by rounding: about n * eps per matrix operation, accumulated over N <= 300 steps of a
stable recurrence, i.e. ~1e-14 relative. We allow 1e-11 (relative to the largest output), which
still catches any error in a formula (those show at 1e-3 or worse) with a wide margin.
"""

from __future__ import annotations

import doctest

import control
import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import integrate, linalg, signal, stats

import simlab.similarity as similarity
from simlab import recurrence
from simlab.digital import c2d
from simlab.integrators import NonFiniteStateError
from simlab.similarity import discretize, lsim, lsim_loop

RTOL = 1e-11


def relative_error(y, reference):
    y, reference = np.asarray(y, float), np.asarray(reference, float)
    return np.max(np.abs(y - reference.reshape(y.shape))) / max(np.max(np.abs(reference)), 1e-300)


# ---------------------------------------------------------------------------------------------
# Random stable systems
# ---------------------------------------------------------------------------------------------


def random_stable_poles(rng, n):
    """n poles with -5 <= Re < -0.1, complex pairs with 0.1 <= Im <= 5 about half the time."""
    poles = []
    while len(poles) < n:
        a = -rng.uniform(0.1, 5)
        if n - len(poles) >= 2 and rng.random() < 0.5:
            b = rng.uniform(0.1, 5)
            poles += [complex(a, b), complex(a, -b)]
        else:
            poles.append(complex(a, 0))
    return np.array(poles)


def modal_system(rng, n, m, p):
    """A = S J S^{-1}: J real block-diagonal with random stable poles, cond(S) <= 10."""
    blocks, poles = [], random_stable_poles(rng, n)
    for pole in poles:
        if pole.imag > 0:
            blocks.append([[pole.real, pole.imag], [-pole.imag, pole.real]])
        elif pole.imag == 0:
            blocks.append([[pole.real]])
    J = linalg.block_diag(*blocks)
    if n == 1:
        S = np.eye(1) * rng.uniform(0.3, 3)
    else:
        U = stats.ortho_group.rvs(n, random_state=rng)
        V = stats.ortho_group.rvs(n, random_state=rng)
        S = U @ np.diag(rng.uniform(0.3, 3, n)) @ V
    A = S @ J @ np.linalg.inv(S)
    return A, rng.standard_normal((n, m)), rng.standard_normal((p, n)), rng.standard_normal((p, m))


def companion_system(rng, n):
    """Controllable canonical form of a random proper G(s) with stable poles (scipy tf2ss)."""
    den = np.real(np.poly(random_stable_poles(rng, n)))
    return signal.tf2ss(rng.standard_normal(n + 1), den)


def random_cases(seed, count_per_order=25, orders=range(1, 7)):
    """Yield (A, B, C, D, u, t, x0): modal and companion systems, N = 300 steps, random T."""
    rng = np.random.default_rng(seed)
    for n in orders:
        for k in range(2 * count_per_order):
            if k % 2:
                A, B, C, D = companion_system(rng, n)
            else:
                A, B, C, D = modal_system(rng, n, int(rng.integers(1, 3)), int(rng.integers(1, 3)))
            T = rng.uniform(0.005, 0.1)
            t = T * np.arange(301)
            yield A, B, C, D, rng.standard_normal((301, B.shape[1])), t, rng.standard_normal(n)


# ---------------------------------------------------------------------------------------------
# discretize: Phi, Gamma, Gamma_hat
# ---------------------------------------------------------------------------------------------


def test_discretize_zoh_equals_scipy_cont2discrete_zoh():
    """Oracle: scipy.signal.cont2discrete(..., method="zoh") gives Ad = Phi and Bd = Gamma."""
    rng = np.random.default_rng(1)
    for n in range(1, 7):
        A, B, C, D = modal_system(rng, n, 2, 1)
        T = rng.uniform(0.01, 2)
        Ad, Bd, *_ = signal.cont2discrete((A, B, C, D), T, method="zoh")
        Phi, Gamma = discretize(A, B, T)
        np.testing.assert_allclose(Phi, Ad, rtol=0, atol=1e-13 * np.abs(Ad).max())
        np.testing.assert_allclose(Gamma, Bd, rtol=0, atol=1e-13 * np.abs(Bd).max())


def test_discretize_foh_maps_onto_scipy_cont2discrete_foh_form():
    """Oracle: scipy's foh system (Ad, Bd, Cd, Dd) uses the state xi[k] = x[k] - Gamma_hat u[k].

    Substituting into x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k]) gives
    xi[k+1] = Phi xi[k] + (Gamma - Gamma_hat + Phi Gamma_hat) u[k] and
    y[k] = C xi[k] + (D + C Gamma_hat) u[k]; so Ad = Phi, Bd = Gamma - Gamma_hat + Phi Gamma_hat,
    Cd = C, Dd = D + C Gamma_hat.
    """
    rng = np.random.default_rng(2)
    for n in range(1, 7):
        A, B, C, D = modal_system(rng, n, 2, 2)
        T = rng.uniform(0.01, 2)
        Ad, Bd, Cd, Dd, _ = signal.cont2discrete((A, B, C, D), T, method="foh")
        Phi, Gamma, Gamma_hat = discretize(A, B, T, hold="foh")
        np.testing.assert_allclose(Phi, Ad, rtol=0, atol=1e-13 * np.abs(Ad).max())
        np.testing.assert_allclose(Gamma - Gamma_hat + Phi @ Gamma_hat, Bd, rtol=0,
                                   atol=1e-13 * np.abs(Bd).max())
        np.testing.assert_allclose(C, Cd)
        np.testing.assert_allclose(D + C @ Gamma_hat, Dd, rtol=0, atol=1e-13 * np.abs(Dd).max())


def test_lsim_foh_equals_dlsim_of_scipy_foh_system():
    """Oracle: scipy.signal.dlsim of cont2discrete(..., "foh") (same input-output map).

    scipy's state is xi[k] = x[k] - Gamma_hat u[k] (see the test above), and dlsim starts from
    xi[0] = 0; with u[0] = 0 that is x[0] = 0 as well.
    """
    for A, B, C, D, u, t, _ in random_cases(3, count_per_order=3):
        T = t[1] - t[0]
        u[0] = 0.0
        _, y_ref, _ = signal.dlsim(signal.cont2discrete((A, B, C, D), T, method="foh"), u)
        y = lsim(A, B, C, D, u, t, hold="foh").y
        assert relative_error(y, y_ref) < RTOL


def test_gamma_and_gamma_hat_equal_quadrature():
    """Oracle: scipy.integrate.quad_vec of int_0^T e^{As} B ds and (1/T) int e^{A(T-tau)} tau B."""
    rng = np.random.default_rng(4)
    for n in (1, 2, 4):
        A, B, _, _ = modal_system(rng, n, 2, 1)
        T = rng.uniform(0.1, 1.5)
        Phi, Gamma, Gamma_hat = discretize(A, B, T, hold="foh")
        gamma_q, _ = integrate.quad_vec(lambda s: linalg.expm(A * s) @ B, 0, T, epsabs=1e-14,
                                        epsrel=1e-13)
        hat_q, _ = integrate.quad_vec(lambda tau: linalg.expm(A * (T - tau)) @ B * tau / T, 0, T,
                                      epsabs=1e-14, epsrel=1e-13)
        np.testing.assert_allclose(Gamma, gamma_q, rtol=0, atol=1e-12 * np.abs(gamma_q).max())
        np.testing.assert_allclose(Gamma_hat, hat_q, rtol=0, atol=1e-12 * np.abs(hat_q).max())


def test_scalar_system_matches_closed_forms():
    """Oracle: for dx/dt = a x + b u, Phi = e^{aT}, Gamma = b (e^{aT} - 1) / a and
    Gamma_hat = (1/T) int_0^T e^{a(T-tau)} tau dtau b = b (e^{aT} - 1 - aT) / (a^2 T)."""
    for a, b, T in [(-2.0, 3.0, 0.1), (-0.5, 1.0, 2.0), (1.5, -2.0, 0.3)]:
        Phi, Gamma, Gamma_hat = discretize([[a]], [[b]], T, hold="foh")
        assert Phi[0, 0] == pytest.approx(np.exp(a * T), rel=1e-14)
        assert Gamma[0, 0] == pytest.approx(b * np.expm1(a * T) / a, rel=1e-13)
        assert Gamma_hat[0, 0] == pytest.approx(b * (np.expm1(a * T) - a * T) / (a * a * T),
                                                rel=1e-11)


@pytest.mark.parametrize(
    "A", [[[0, 1], [-2, -3]], [[0, 1], [-5, -2]], [[-1, 4], [0, -1]]],
    ids=["real-poles", "complex-poles", "repeated-pole"],
)
def test_phi_equals_sympy_inverse_laplace_of_resolvent(A):
    """Oracle: sympy, Phi(t) = L^{-1}[(sI - A)^{-1}] (the textbook's definition) at t = T.

    expm is accurate to a few eps * ||A T|| relative to ||e^{AT}|| <= 1 here, so atol = 1e-13."""
    s, t = sp.symbols("s t", positive=True)
    A_sym = sp.Matrix(A)
    resolvent = (s * sp.eye(2) - A_sym).inv()
    Phi_t = resolvent.applyfunc(
        lambda entry: sp.inverse_laplace_transform(sp.apart(sp.simplify(entry), s), s, t)
    )
    for T in (0.05, 0.7, 3.0):
        expected = np.array(Phi_t.subs(t, T).evalf(30), dtype=float)
        Phi, _ = discretize(np.array(A, float), [0.0, 1.0], T)
        np.testing.assert_allclose(Phi, expected, rtol=0, atol=1e-13)


def test_gamma_equals_sympy_integral_of_phi():
    """Oracle: sympy, m(T) = int_0^T e^{A s} ds B with e^{At} from sympy's Matrix.exp."""
    s = sp.symbols("s", positive=True)
    A_sym, B_sym = sp.Matrix([[0, 1], [-5, -2]]), sp.Matrix([1, 2])
    m_T = (A_sym * s).exp().applyfunc(lambda e: sp.integrate(e, (s, 0, sp.Rational(3, 4)))) * B_sym
    _, Gamma = discretize([[0, 1], [-5, -2]], [1.0, 2.0], 0.75)
    np.testing.assert_allclose(Gamma[:, 0], np.array(m_T.evalf(30), dtype=float)[:, 0],
                               rtol=1e-14, atol=0)


def test_double_integrator_closed_form_singular_A():
    """Oracle: for 1/s^2 (A = [[0, 1], [0, 0]], B = [0, 1]), e^{A(T-tau)} B = [T - tau, 1], so
    Phi = [[1, T], [0, 1]], Gamma = [T^2/2, T] and
    Gamma_hat = (1/T) int_0^T tau [T - tau, 1] dtau = [T^2/6, T/2].
    """
    for T in (1e-3, 0.1, 2.0):
        Phi, Gamma, Gamma_hat = discretize([[0, 1], [0, 0]], [0, 1], T, hold="foh")
        np.testing.assert_allclose(Phi, [[1, T], [0, 1]], rtol=1e-15, atol=0)
        np.testing.assert_allclose(Gamma[:, 0], [T**2 / 2, T], rtol=1e-15, atol=0)
        np.testing.assert_allclose(Gamma_hat[:, 0], [T**2 / 6, T / 2], rtol=1e-14, atol=0)


def test_vector_B_is_one_input_column():
    """Oracle: the same call with B as an explicit (n, 1) column."""
    A = [[0.0, 1.0], [-2.0, -3.0]]
    _, *got = discretize(A, [0.0, 1.0], 0.1, "foh")
    _, *want = discretize(A, [[0.0], [1.0]], 0.1, "foh")
    for got_matrix, want_matrix in zip(got, want):  # Gamma and Gamma_hat
        assert got_matrix.shape == (2, 1)
        np.testing.assert_array_equal(got_matrix, want_matrix)


# ---------------------------------------------------------------------------------------------
# lsim
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hold, interp", [("zoh", False), ("foh", True)])
def test_lsim_matches_scipy_lsim_on_300_random_stable_systems(hold, interp):
    """Oracle: scipy.signal.lsim (interp=False: zero-order hold; interp=True: linear input)."""
    count = 0
    for A, B, C, D, u, t, x0 in random_cases(10):
        _, y_ref, x_ref = signal.lsim((A, B, C, D), u, t, X0=x0, interp=interp)
        result = lsim(A, B, C, D, u, t, hold=hold, x0=x0)
        assert relative_error(result.y, y_ref) < RTOL, (A, B, C, D)
        assert relative_error(result.x, x_ref) < RTOL, (A, B, C, D)
        count += 1
    assert count == 300


def test_lsim_foh_matches_python_control_forced_response_on_300_systems():
    """Oracle: python-control forced_response (which interpolates u linearly: the triangle hold)."""
    for A, B, C, D, u, t, x0 in random_cases(11):
        response = control.forced_response(control.ss(A, B, C, D), t, u.T, X0=x0, squeeze=False)
        y = lsim(A, B, C, D, u, t, hold="foh", x0=x0).y
        assert relative_error(y, np.asarray(response.outputs).T) < RTOL, (A, B, C, D)


@pytest.mark.parametrize("method", ["block", "schur", "modal"])
@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_compiled_methods_equal_the_textbook_loop(method, hold):
    """Oracle: lsim_loop, the plain recurrence x[k+1] = Phi x[k] + ... one step at a time.

    Systems in modal form with cond(S) <= 10, where the modal method is also well conditioned.
    """
    rng = np.random.default_rng(12)
    for n in range(1, 7):
        A, B, C, D = modal_system(rng, n, 2, 2)
        t = np.linspace(0, 6, 201)
        u, x0 = rng.standard_normal((201, 2)), rng.standard_normal(n)
        y_loop = lsim_loop(A, B, C, D, u, t, hold=hold, x0=x0).y
        assert relative_error(lsim(A, B, C, D, u, t, hold, x0, method=method).y, y_loop) < RTOL


def test_schur_method_handles_defective_A_triple_integrator():
    """Oracle: closed forms for 1/s^3 (A defective, three poles at 0): the unit step gives
    y = t^3 / 6 and the unit ramp y = t^4 / 24. A step is piecewise constant, so zoh is exact;
    a ramp is piecewise linear, so foh is exact."""
    A, B, C, D = signal.tf2ss([1.0], [1.0, 0, 0, 0])
    t = np.linspace(0, 4, 81)
    _, y_step = lsim(A, B, C, D, np.ones_like(t), t, hold="zoh")
    _, y_ramp = lsim(A, B, C, D, t, t, hold="foh")
    np.testing.assert_allclose(y_step, t**3 / 6, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(y_ramp, t**4 / 24, rtol=1e-12, atol=1e-14)


def test_modal_method_refuses_defective_A():
    """Oracle: 1/s^3 and (s + 1)^-3 are not diagonalizable (a single Jordan block)."""
    t = np.linspace(0, 1, 11)
    for den in ([1, 0, 0, 0], [1, 3, 3, 1]):
        A, B, C, D = signal.tf2ss([1.0], den)
        with pytest.raises(ValueError, match=r"defective.*method='schur'"):
            lsim(A, B, C, D, np.ones_like(t), t, method="modal")


def _sympy_response(G, s, t, power):
    """Inverse Laplace transform of G(s) / s^power as a numpy function of t >= 0 (0 for t < 0)."""
    expression = sp.inverse_laplace_transform(sp.apart(G / s**power, s), s, t)
    f = sp.lambdify(t, expression, "numpy")
    return lambda tau: np.where(tau > 0, f(np.maximum(tau, 0.0)), 0.0)


G_EXAMPLE = (4, 8), (1, 2, 5)  # G(s) = (4 s + 8) / (s^2 + 2 s + 5), poles -1 +- 2j


def test_zoh_is_exact_for_piecewise_constant_input():
    """Oracle: sympy step response g(t) = L^{-1}[G(s)/s]; a staircase u = sum c_i H(t - t_i) with
    steps on the grid gives y = sum c_i g(t - t_i) exactly, even with the coarse T = 0.25."""
    s, t_sym = sp.symbols("s t", positive=True)
    step = _sympy_response((4 * s + 8) / (s**2 + 2 * s + 5), s, t_sym, 1)
    t = np.linspace(0, 10, 41)
    rng = np.random.default_rng(5)
    jumps = rng.standard_normal(len(t))  # a jump at every sample
    u = np.cumsum(jumps)  # u[k] = sum_{i <= k} c_i: the value held on [t_k, t_{k+1})
    y_exact = sum(c * step(t - ti) for c, ti in zip(jumps, t))
    A, B, C, D = signal.tf2ss(*G_EXAMPLE)
    assert relative_error(lsim(A, B, C, D, u, t, hold="zoh").y, y_exact) < 1e-12


def test_foh_is_exact_for_piecewise_linear_input():
    """Oracle: sympy ramp response r(t) = L^{-1}[G(s)/s^2]; a broken line u = sum c_i (t - t_i)_+
    with corners on the grid gives y = sum c_i r(t - t_i) exactly, with T = 0.25."""
    s, t_sym = sp.symbols("s t", positive=True)
    ramp = _sympy_response((4 * s + 8) / (s**2 + 2 * s + 5), s, t_sym, 2)
    t = np.linspace(0, 10, 41)
    rng = np.random.default_rng(6)
    slopes = rng.standard_normal(len(t))  # change of slope at every sample
    u = sum(c * np.maximum(t - ti, 0) for c, ti in zip(slopes, t))
    y_exact = sum(c * ramp(t - ti) for c, ti in zip(slopes, t))
    A, B, C, D = signal.tf2ss(*G_EXAMPLE)
    assert relative_error(lsim(A, B, C, D, u, t, hold="foh").y, y_exact) < 1e-12


def test_zoh_is_not_exact_for_a_ramp():
    """Oracle: sympy ramp response. The zero-order hold replaces the ramp by a staircase lagging
    by about T/2, so the error is of order T times the gain: the hold does matter."""
    s, t_sym = sp.symbols("s t", positive=True)
    ramp = _sympy_response((4 * s + 8) / (s**2 + 2 * s + 5), s, t_sym, 2)
    t = np.linspace(0, 10, 41)
    A, B, C, D = signal.tf2ss(*G_EXAMPLE)
    error = np.max(np.abs(lsim(A, B, C, D, t, t, hold="zoh").y - ramp(t)))
    assert error > 0.1 * 0.25 * 1.6  # DC gain 8/5, T = 0.25: the output lags by ~T/2


def test_lsim_keeps_full_accuracy_at_small_T_on_the_seed_003_loop():
    """Oracle: 40-digit partial fractions (mpmath) of the step response r = 5 of the closed loop
    1 / (s^3 + 4 s^2 + 8 s + 6) (seed 003's RK4 lab), with T = 1e-4.

    There e^{lambda T} ~ 1 - 1.4e-4, and a recurrence with Phi = e^{AT} stored to eps has errors
    ~eps / (|lambda| T) ~ 1e-12 (scipy.signal.lsim shows 1.5e-13); lsim refines in delta form and
    must stay at rounding level, 1e-14."""
    den = [1.0, 4.0, 8.0, 6.0]
    A, B, C, D = signal.tf2ss([1.0], den)
    t = np.linspace(0, 3, 30001)
    y = lsim(A, B, C, D, np.full(t.size, 5.0), t).y
    mpmath.mp.dps = 40
    poles = mpmath.polyroots(den, maxsteps=200, extraprec=200)
    residues = [1 / (p * mpmath.fprod([p - q for q in poles if q != p])) for p in poles]
    for k in range(0, t.size, 150):
        exact = 5 * (mpmath.mpf(1) / 6 + mpmath.fsum(c * mpmath.exp(p * mpmath.mpf(t[k]))
                                                     for c, p in zip(residues, poles)))
        assert abs(y[k] - float(mpmath.re(exact))) < 1e-14, k


def test_free_response_equals_expm_times_x0():
    """Oracle: scipy.linalg.expm, y(t_k) = C e^{A t_k} x0 when u = 0."""
    rng = np.random.default_rng(7)
    A, B, C, D = modal_system(rng, 4, 1, 2)
    x0 = rng.standard_normal(4)
    t = np.linspace(0, 5, 51)
    y = lsim(A, B, C, D, np.zeros(51), t, x0=x0).y
    y_ref = np.array([C @ linalg.expm(A * tk) @ x0 for tk in t])
    assert relative_error(y, y_ref) < RTOL


def test_unstable_system_grows_exactly():
    """Oracle: dx/dt = x has x(t) = e^t x0 (discrete similarity is exact for unstable A too)."""
    t = np.linspace(0, 20, 101)
    y = lsim([[1.0]], [1.0], [1.0], 0.0, np.zeros(101), t, x0=[2.0]).y
    np.testing.assert_allclose(y, 2 * np.exp(t), rtol=1e-13)


def test_overflowing_unstable_system_raises_non_finite_state_error():
    """Oracle: e^{1000 * 10} overflows float64 (max ~1.8e308 = e^709.8)."""
    t = np.linspace(0, 10, 11)
    with pytest.raises(NonFiniteStateError, match="unstable"):
        lsim([[1000.0]], [1.0], [1.0], 0.0, np.ones(11), t)


def test_grid_may_start_at_any_time():
    """Oracle: time invariance: the same samples on t + 3 give the same output."""
    A, B, C, D = signal.tf2ss(*G_EXAMPLE)
    t = np.linspace(0, 5, 51)
    u = np.sin(t)
    y0 = lsim(A, B, C, D, u, t, hold="foh").y
    y3 = lsim(A, B, C, D, u, t + 3.0, hold="foh").y
    np.testing.assert_allclose(y3, y0, rtol=1e-9, atol=1e-13)


def test_result_unpacks_as_t_y_with_documented_shapes():
    """Oracle: the documented contract (t (N+1,), y (N+1,) or (N+1, p), x (N+1, n))."""
    t = np.linspace(0, 1, 11)
    siso = lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(11), t)
    t_out, y = siso
    assert t_out.shape == (11,) and y.shape == (11,) and siso.x.shape == (11, 1)
    A, B, C, D = np.diag([-1.0, -2.0, -3.0]), np.ones((3, 2)), np.eye(3)[:2], np.zeros((2, 2))
    mimo = lsim(A, B, C, D, np.ones((11, 2)), t, hold="foh")
    assert mimo.y.shape == (11, 2) and mimo.x.shape == (11, 3) and mimo.T == pytest.approx(0.1)
    assert mimo.hold == "foh" and mimo.method == "block" and "steps=10" in repr(mimo)


# ---------------------------------------------------------------------------------------------
# lsim at every size (issue 15): the block recurrence, the default at every n and N
# ---------------------------------------------------------------------------------------------

SIZES = (3, 10, 50, 200)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("hold, interp", [("zoh", False), ("foh", True)])
def test_lsim_matches_scipy_lsim_at_every_size(n, hold, interp):
    """Oracle: scipy.signal.lsim on random stable systems of each size (seeded), N = 3000 steps
    (L = 64: 47 blocks, the last one partial), random input and initial state. scipy's own error
    is ~eps / (|lambda| T) ~ 1e-13 of the output here, so 1e-12 relative to the output scale."""
    rng = np.random.default_rng(1500 + n)
    A, B, C, D = modal_system(rng, n, 2, 2)
    t = 0.01 * np.arange(3001)
    u, x0 = rng.standard_normal((3001, 2)), rng.standard_normal(n)
    _, y_ref, x_ref = signal.lsim((A, B, C, D), u, t, X0=x0, interp=interp)
    result = lsim(A, B, C, D, u, t, hold=hold, x0=x0)
    assert result.method == "block"
    assert relative_error(result.y, y_ref) < 1e-12
    assert relative_error(result.x, x_ref) < 1e-12


@pytest.mark.parametrize("n", SIZES)
def test_lsim_foh_matches_python_control_forced_response_at_every_size(n):
    """Oracle: python-control forced_response (linear interpolation of u: the triangle hold)."""
    rng = np.random.default_rng(1600 + n)
    A, B, C, D = modal_system(rng, n, 1, 2)
    t = 0.005 * np.arange(2001)
    u, x0 = np.sin(3 * t) + rng.standard_normal(2001), rng.standard_normal(n)
    response = control.forced_response(control.ss(A, B, C, D), t, u, X0=x0, squeeze=False)
    y = lsim(A, B, C, D, u, t, hold="foh", x0=x0).y
    assert relative_error(y, np.asarray(response.outputs).T) < 1e-12


def householder(n):
    """Q = I - (2/n) 1 1^T: symmetric and orthogonal; for n a power of two its entries, and the
    products Q J Q with dyadic J below, are exact in floating point (checked in the test)."""
    return np.eye(n) - (2.0 / n) * np.ones((n, n))


def modes_with(kind, n, rng):
    """Real Jordan blocks: 'oscillators' (undamped, +-i w), 'integrators' (1/s and 1/s^2 chains
    among stable modes), 'unstable' (e^{t/16}, e^{t/8} among stable modes); dyadic entries."""
    blocks, size = [], 0
    while size < n:
        if kind == "oscillators" and size + 2 <= n:
            blocks.append(("pair", float(rng.integers(1, 17)) / 8))
        elif kind == "integrators" and size + 2 <= n and rng.random() < 0.3:
            blocks.append(("double integrator",))
        elif (kind == "integrators" and rng.random() < 0.5) or (kind == "unstable" and rng.random() < 0.3):
            blocks.append(("real", 0.0 if kind == "integrators" else float(rng.integers(1, 3)) / 16))
        else:
            blocks.append(("real", -float(rng.integers(1, 33)) / 8))
        size += 1 if blocks[-1][0] == "real" else 2
    return blocks


def modal_matrix(blocks):
    return linalg.block_diag(*[
        [[b[1]]] if b[0] == "real" else [[0.0, b[1]], [-b[1], 0.0]] if b[0] == "pair" else [[0.0, 1.0], [0.0, 0.0]]
        for b in blocks])


def modal_step_response(blocks, b, z0, t):
    """Closed forms of z' = J z + b (unit step), z(0) = z0, block by block: a real mode a gives
    e^{at} z0 + b (e^{at} - 1)/a (b t for a = 0); the oscillator [[0, w], [-w, 0]] in
    w = z1 + i z2 obeys w' = -i w w + beta, so w = e^{-iwt} w0 + beta (e^{-iwt} - 1)/(-iw);
    the double integrator [[0, 1], [0, 0]] gives z1 = z1(0) + z2(0) t + b1 t + b2 t^2/2,
    z2 = z2(0) + b2 t."""
    columns, i = [], 0
    for block in blocks:
        if block[0] == "real":
            a = block[1]
            columns.append(np.exp(a * t) * z0[i] + b[i] * (t if a == 0 else np.expm1(a * t) / a))
        elif block[0] == "pair":
            lam = -1j * block[1]
            w = np.exp(lam * t) * complex(z0[i], z0[i + 1]) + complex(b[i], b[i + 1]) * np.expm1(lam * t) / lam
            columns += [w.real, w.imag]
        else:
            columns += [z0[i] + z0[i + 1] * t + b[i] * t + b[i + 1] * t**2 / 2, z0[i + 1] + b[i + 1] * t]
        i += 1 if block[0] == "real" else 2
    return np.column_stack(columns)


@pytest.mark.parametrize("n", [4, 16, 64, 128])
@pytest.mark.parametrize("kind", ["oscillators", "integrators", "unstable"])
def test_block_method_stays_exact_for_marginally_stable_and_unstable_A(kind, n):
    """Oracle: closed forms in modal coordinates (modal_step_response) of A = Q J Q, exact in
    floating point (Q orthogonal with dyadic entries, J the real Jordan form): undamped
    oscillators, integrator chains, growing modes, among stable ones, over 20,000 steps of
    T = 1e-3. A unit step is piecewise constant, so the zero-order hold is exact.

    Measured: the block method's error is at most 3e-14 of the largest state; scipy.signal.lsim
    shows up to 1.5e-12 on the same systems (Phi stored to eps, over 20,000 steps)."""
    rng = np.random.default_rng({"oscillators": 1, "integrators": 2, "unstable": 3}[kind] * 1000 + n)
    blocks = modes_with(kind, n, rng)
    J, Q = modal_matrix(blocks), householder(n)
    A = Q @ J @ Q
    assert np.array_equal(A, Q @ (J @ Q)) and np.array_equal(Q @ Q, np.eye(n))  # no rounding
    b, z0 = rng.integers(-4, 5, n) / 4, rng.integers(-4, 5, n) / 4
    t = 1e-3 * np.arange(20001)
    x = lsim(A, (Q @ b)[:, None], np.eye(n), np.zeros((n, 1)), np.ones_like(t), t, x0=Q @ z0).x
    x_exact = modal_step_response(blocks, b, z0, t[::40]) @ Q  # x = Q z (Q symmetric), every 40th
    assert relative_error(x[::40], x_exact) < 1e-13


def test_block_recurrence_equals_the_textbook_loop_for_every_block_length():
    """Oracle: lsim_loop. Block lengths 1 (no sweep), 2, 4, 64 (N = 300 not a multiple: a partial
    last block) and 512 > N (one padded block); foh with two inputs."""
    rng = np.random.default_rng(17)
    A, B, C, D = modal_system(rng, 5, 2, 1)
    t = np.linspace(0, 6, 301)
    u, x0 = rng.standard_normal((301, 2)), rng.standard_normal(5)
    x_loop = lsim_loop(A, B, C, D, u, t, hold="foh", x0=x0).x
    T = t[1] - t[0]
    Phi, Gamma, Gamma_hat = discretize(A, B, T, hold="foh")
    G, v = np.hstack([Gamma - Gamma_hat, Gamma_hat]), np.hstack([u[:-1], u[1:]])
    for L in (1, 2, 4, 64, 512):
        x = recurrence.block_recurrence(recurrence.expm_minus_identity(A * T), G, v, x0, L)
        assert x.shape == (301, 5)
        assert relative_error(x, x_loop) < 1e-13, L


def test_lsim_of_a_single_step_and_of_two_samples():
    """Oracle: scipy.signal.cont2discrete (zoh): x[1] = Phi x0 + Gamma u[0] (N = 1, one block)."""
    A, B, C, D = signal.tf2ss(*G_EXAMPLE)
    Ad, Bd, *_ = signal.cont2discrete((A, B, C, D), 0.3, method="zoh")
    result = lsim(A, B, C, D, [2.0, 5.0], [0.0, 0.3], x0=[1.0, -1.0])
    np.testing.assert_allclose(result.x[1], Ad @ [1.0, -1.0] + Bd[:, 0] * 2.0, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("scale", [1e-12, 1e-6, 1e-3, 0.1, 1.0, 10.0, 100.0])
def test_expm_minus_identity_keeps_every_digit(scale):
    """Oracle: mpmath.expm in 50 digits, minus I. expm(X) - I would lose the digits of X below
    eps (all but 4 of them at ||X|| = 1e-12); the Taylor series with doubling keeps them."""
    rng = np.random.default_rng(int(-np.log10(scale)) + 30)
    X = rng.standard_normal((6, 6)) * scale
    mpmath.mp.dps = 50
    exact = np.array((mpmath.expm(mpmath.matrix(X.tolist())) - mpmath.eye(6)).tolist(), dtype=float)
    error = np.max(np.abs(recurrence.expm_minus_identity(X) - exact)) / np.max(np.abs(exact))
    assert error < (2e-15 if scale < 50 else 3e-14)


def test_overflow_check_uses_the_cheap_bound_only_when_it_suffices():
    """Oracle: the exact criterion (largest Re(lambda) times the span beyond 709.78) decides: a
    non-normal stable A whose logarithmic norm is large (mu_2 = 50 > 709.78 / 20) runs, and an
    unstable one with Re(lambda) = 40 over 20 s (e^800) is refused."""
    t = np.linspace(0, 20, 2001)
    stable = [[-1.0, 100.0], [0.0, -2.0]]  # eigenvalues -1, -2; (A + A^T)/2 has eigenvalue ~48.5
    assert np.isfinite(lsim(stable, [0.0, 1.0], [1.0, 0.0], 0.0, np.ones_like(t), t).y).all()
    with pytest.raises(NonFiniteStateError, match=r"largest Re\(lambda\) of A = 40\)"):
        lsim([[40.0, 1.0], [0.0, -1.0]], [0.0, 1.0], [1.0, 0.0], 0.0, np.ones_like(t), t)


# ---------------------------------------------------------------------------------------------
# c2d
# ---------------------------------------------------------------------------------------------


def _control_c2d(num, den, T, method):
    G = control.c2d(control.tf(num, den), T, method=method)
    numd, dend = np.asarray(G.num[0][0], float), np.asarray(G.den[0][0], float)
    numd = np.concatenate((np.zeros(len(dend) - len(numd)), numd))
    return numd / dend[0], dend / dend[0]


@pytest.mark.parametrize("method", ["zoh", "foh", "tustin"])
def test_c2d_matches_python_control_c2d(method):
    """Oracle: python-control c2d (scipy's cont2discrete and ss2tf underneath)."""
    rng = np.random.default_rng(8)
    for _ in range(60):
        n = int(rng.integers(1, 6))
        num = rng.standard_normal(int(rng.integers(1, n + 2)))
        den = np.real(np.poly(random_stable_poles(rng, n))) * rng.uniform(0.5, 3)
        T = rng.uniform(0.05, 1.0)
        numd, dend = c2d(num, den, T, method)
        numd_ref, dend_ref = _control_c2d(num, den, T, method)
        scale = max(np.abs(numd_ref).max(), 1.0)
        np.testing.assert_allclose(dend, dend_ref, rtol=0, atol=1e-11 * np.abs(dend_ref).max())
        np.testing.assert_allclose(numd, numd_ref, rtol=0, atol=1e-10 * scale)


@pytest.mark.parametrize("T", [1e-4, 1e-2, 0.5])
def test_c2d_textbook_pairs(T):
    """Oracle: closed forms of sampled transfer functions (any control textbook's table):
    zoh  a/(s + a) -> (1 - e^{-aT}) / (z - e^{-aT});
    zoh  1/s^3     -> T^3/6 (z^2 + 4z + 1) / (z - 1)^3;
    foh  1/s^2     -> T^2/6 (z^2 + 4z + 1) / (z - 1)^2 (triangle hold);
    tustin 1/s     -> T/2 (z + 1) / (z - 1).
    Kept to full relative accuracy even at T = 1e-4, where coefficients are ~1e-13."""
    a, q = 2.0, np.exp(-2.0 * T)
    cases = [
        (c2d([a], [1, a], T, "zoh"), ([0, -np.expm1(-a * T)], [1, -q])),
        (c2d([1], [1, 0, 0, 0], T, "zoh"), (T**3 / 6 * np.array([0, 1, 4, 1]), [1, -3, 3, -1])),
        (c2d([1], [1, 0, 0], T, "foh"), (T**2 / 6 * np.array([1, 4, 1]), [1, -2, 1])),
        (c2d([1], [1, 0], T, "tustin"), (T / 2 * np.array([1, 1]), [1, -1])),
    ]
    for (numd, dend), (numd_ref, dend_ref) in cases:
        np.testing.assert_allclose(numd, numd_ref, rtol=1e-10, atol=0)
        np.testing.assert_allclose(dend, dend_ref, rtol=1e-12, atol=1e-15)


def test_c2d_zoh_filter_reproduces_sampled_step_response():
    """Oracle: sympy step response; with a zoh, filtering a unit step through numd/dend gives the
    continuous step response at the samples (seed 003: c2d with a zero-order hold)."""
    s, t_sym = sp.symbols("s t", positive=True)
    step = _sympy_response((4 * s + 8) / (s**2 + 2 * s + 5), s, t_sym, 1)
    t = np.linspace(0, 8, 81)
    numd, dend = c2d(*G_EXAMPLE, 0.1)
    assert relative_error(signal.lfilter(numd, dend, np.ones_like(t)), step(t)) < 1e-12


def test_c2d_static_gain_and_zero_numerator():
    """Oracle: G = 2/4 stays 0.5 / 1 for every method; G = 0 has an all-zero numerator."""
    for method in ("zoh", "foh", "tustin"):
        numd, dend = c2d([2.0], [4.0], 0.1, method)
        np.testing.assert_array_equal(numd, [0.5])
        np.testing.assert_array_equal(dend, [1.0])
        numd, dend = c2d([0.0], [1.0, 1.0], 0.1, method)
        np.testing.assert_array_equal(numd, [0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Bad input: the message names the argument and what was expected
# ---------------------------------------------------------------------------------------------

A2, B2, C2 = [[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1.0]], [[1.0, 0.0]]
T11 = np.linspace(0, 1, 11)
BAD_CALLS = [  # (id, error, message pattern, call)
    ("A not square", ValueError, "A must be a square",
     lambda: discretize([[1, 2, 3], [4, 5, 6]], [1, 1], 0.1)),
    ("A 1-D", ValueError, "A must be a square",
     lambda: discretize([1.0, 2.0], [1.0, 1.0], 0.1)),
    ("A with NaN", ValueError, "A must be finite",
     lambda: discretize([[np.nan]], [1.0], 0.1)),
    ("A complex", TypeError, "A must be real",
     lambda: discretize([[1j]], [1.0], 0.1)),
    ("A text", TypeError, "A must be a number",
     lambda: discretize("A", [1.0], 0.1)),
    ("B rows", ValueError, r"B must have n = 2 rows.*\(3, 1\)",
     lambda: discretize(A2, [[1.0], [2.0], [3.0]], 0.1)),
    ("T zero", ValueError, "T must be positive",
     lambda: discretize(A2, B2, 0.0)),
    ("T negative", ValueError, "T must be positive",
     lambda: discretize(A2, B2, -0.1)),
    ("T inf", ValueError, "T must be a finite",
     lambda: discretize(A2, B2, np.inf)),
    ("T text", TypeError, "T must be a real number",
     lambda: discretize(A2, B2, "0.1")),
    ("hold unknown", ValueError, "hold must be one of 'zoh', 'foh'",
     lambda: discretize(A2, B2, 0.1, hold="tustin")),
    ("hold not str", ValueError, "hold must be one of",
     lambda: discretize(A2, B2, 0.1, hold=0)),
    ("t non-uniform", ValueError, "uniform grid",
     lambda: lsim(A2, B2, C2, 0, np.ones(4), [0, 0.1, 0.3, 0.4])),
    ("t decreasing", ValueError, "strictly increasing",
     lambda: lsim(A2, B2, C2, 0, np.ones(3), [1.0, 0.5, 0.0])),
    ("t repeated", ValueError, "strictly increasing",
     lambda: lsim(A2, B2, C2, 0, np.ones(3), [0.0, 0.0, 1.0])),
    ("t one point", ValueError, "at least two time points",
     lambda: lsim(A2, B2, C2, 0, np.ones(1), [0.0])),
    ("t 2-D", ValueError, "t must be 1-dimensional",
     lambda: lsim(A2, B2, C2, 0, np.ones(4), np.ones((2, 2)))),
    ("t NaN", ValueError, "t must be finite",
     lambda: lsim(A2, B2, C2, 0, np.ones(2), [0.0, np.nan])),
    ("u length", ValueError, r"u must have one row per time point.*\(10,\)",
     lambda: lsim(A2, B2, C2, 0, np.ones(10), T11)),
    ("u transposed", ValueError, "pass u.T",
     lambda: lsim(A2, np.ones((2, 2)), C2, 0, np.ones((2, 11)), T11)),
    ("u inf", ValueError, "u must be finite",
     lambda: lsim(A2, B2, C2, 0, np.full(11, np.inf), T11)),
    ("C columns", ValueError, "C must have n = 2 columns",
     lambda: lsim(A2, B2, [[1.0, 0.0, 0.0]], 0, np.ones(11), T11)),
    ("D shape", ValueError, r"D must have shape \(p, m\) = \(1, 1\)",
     lambda: lsim(A2, B2, C2, np.ones((2, 2)), np.ones(11), T11)),
    ("D scalar MIMO", ValueError, "D must have shape",
     lambda: lsim(A2, np.ones((2, 2)), C2, 1.0, np.ones((11, 2)), T11)),
    ("x0 size", ValueError, r"x0 must have shape \(2,\)",
     lambda: lsim(A2, B2, C2, 0, np.ones(11), T11, x0=[1.0, 2.0, 3.0])),
    ("method unknown", ValueError, "method must be one of 'block', 'schur', 'modal', 'loop'",
     lambda: lsim(A2, B2, C2, 0, np.ones(11), T11, method="rk4")),
    ("lsim hold", ValueError, "hold must be one of",
     lambda: lsim_loop(A2, B2, C2, 0, np.ones(11), T11, hold="ramp")),
    ("den leading zero", ValueError, "non-zero leading coefficient",
     lambda: c2d([1.0], [0.0, 1.0, 2.0], 0.1)),
    ("den empty", ValueError, "den must be 1-D",
     lambda: c2d([1.0], [], 0.1)),
    ("improper", ValueError, "improper",
     lambda: c2d([1.0, 2.0, 3.0], [1.0, 1.0], 0.1)),
    ("num 2-D", ValueError, "num must be 1-D",
     lambda: c2d([[1.0], [2.0]], [1.0, 1.0], 0.1)),
    ("c2d method", ValueError, "method must be one of 'zoh', 'foh', 'tustin'",
     lambda: c2d([1.0], [1.0, 1.0], 0.1, "bilinear")),
    ("c2d T", ValueError, "T must be positive",
     lambda: c2d([1.0], [1.0, 1.0], -1.0)),
    ("c2d text", TypeError, "num must be a number",
     lambda: c2d("1", [1.0, 1.0], 0.1)),
]


@pytest.mark.parametrize("error, match, call", [case[1:] for case in BAD_CALLS],
                         ids=[case[0] for case in BAD_CALLS])
def test_bad_input_raises_a_clear_error(error, match, call):
    """Oracle: the documented Raises sections (argument named, expectation stated)."""
    with pytest.raises(error, match=match):
        call()


def test_docstring_examples_run():
    """Oracle: the expected output written in each docstring example."""
    failures, tried = doctest.testmod(similarity, optionflags=doctest.ELLIPSIS)
    assert tried >= 5 and failures == 0


# ---------------------------------------------------------------------------------------------
# n = 0 states (a static gain): the same rule as simlab.lti (simlab.validation.as_state_space)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["schur", "modal", "loop"])
@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_lsim_of_a_static_gain_from_tf2ss_is_y_equals_D_u(method, hold):
    """Oracle: y = D u exactly for G = 3/2 realised by tf2ss without states (as in MATLAB, where
    lsim(ss(1.5), u, t) is 1.5 u); before, lti made such models and lsim refused them."""
    from simlab.lti import tf2ss

    t = np.linspace(0, 1, 11)
    u = np.sin(3 * t)
    result = lsim(*tf2ss(3, 2), u, t, hold=hold, method=method)
    np.testing.assert_array_equal(result.y, 1.5 * u)
    assert result.x.shape == (11, 0)


def test_discretize_without_states_is_refused():
    """Rule (issue 23): a 0 x 0 system has nothing to discretize; refused, not passed silently."""
    for hold in ("zoh", "foh"):
        with pytest.raises(ValueError, match=r"A must have at least one state.*\(0, 0\)"):
            discretize(np.zeros((0, 0)), np.zeros((0, 2)), 0.1, hold=hold)
        with pytest.raises(ValueError, match="A must have at least one state"):
            discretize([], [], 0.1, hold=hold)


def test_discretize_names_b_when_b_t_is_what_overflows_the_exponential():
    """Rule: with A T = 0.4 and B T = 1e307, e^M fails because of B; the message names B, not A."""
    with pytest.raises(ValueError, match=r"B T has entries up to 1e\+307 .*Scale B down"):
        discretize([[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1e308]], 0.1)


def test_lsim_of_entries_near_the_largest_double_names_a():
    """Rule: (A + A^T)/2 overflowed to inf and scipy said "array must not contain infs or NaNs";
    now the error of the matrix exponential, naming A."""
    A = np.array([[0.0, 1.0], [-2.0, -3.0]]) / 3 * 1e308
    with pytest.raises(ValueError, match=r"\|\|A\|\| T = .* far beyond"):
        lsim(A, [[0.0], [1.0]], [[1.0, 0.0]], 0.0, np.ones(21), np.linspace(0.0, 1.0, 21))


def test_lsim_refuses_an_input_delay_that_overflows_the_step_count():
    """Rule (issue 23): input_delay = 1e308 was a bare OverflowError; now a ValueError naming it."""
    t = np.linspace(0.0, 5.0, 6)
    with pytest.raises(ValueError, match=r"input_delay = 1e\+308 .*MAX_STEPS"):
        lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(6), t, input_delay=1e308)


def test_lsim_input_delay_limit_is_guards_max_steps_sample_periods(monkeypatch):
    """Rule: input_delay / T <= simlab.guards.MAX_STEPS (read at call time). Oracle at the limit: a
    delay beyond the span shows only u_before = 1, so y is the step response 1 - e^{-t} from t[0]."""
    from simlab import guards

    monkeypatch.setattr(guards, "MAX_STEPS", 100)
    t = np.linspace(0.0, 5.0, 6)  # T = 1
    with pytest.raises(ValueError, match=r"input_delay = 101\.0 is 101 sample periods"):
        lsim([[-1.0]], [1.0], [1.0], 0.0, np.zeros(6), t, input_delay=101.0, u_before=1.0)
    for method in similarity.LSIM_METHODS:
        y = lsim([[-1.0]], [1.0], [1.0], 0.0, np.zeros(6), t, input_delay=100.0, u_before=1.0, method=method).y
        np.testing.assert_allclose(y, 1 - np.exp(-t), rtol=0, atol=1e-14)


def test_lti_and_similarity_accept_and_reject_the_same_shapes():
    """Oracle: simlab.validation.as_state_space; the same model gets the same verdict and the
    same message from ss2tf and lsim."""
    from simlab.lti import ss2tf

    t = np.linspace(0, 1, 11)
    static = (np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), 2.0)
    assert ss2tf(*static)[0].tolist() == [2.0]
    np.testing.assert_array_equal(lsim(*static, np.ones(11), t).y, np.full(11, 2.0))
    for bad in [(A2, [[1.0], [2.0], [3.0]], C2, 0.0), (A2, B2, [[1.0, 0.0, 0.0]], 0.0),
                ([[1.0, 2.0]], B2, C2, 0.0), (A2, B2, C2, np.ones((2, 2))),
                (A2, np.zeros((2, 0)), C2, 0.0)]:
        with pytest.raises(ValueError) as from_lti:
            ss2tf(*bad)
        with pytest.raises(ValueError) as from_similarity:
            lsim(*bad, np.ones(11), t)
        assert str(from_lti.value) == str(from_similarity.value)


def test_overflowing_static_gain_raises_non_finite_state_error():
    t = np.linspace(0, 1, 3)
    with pytest.raises(NonFiniteStateError, match=r"y = D u overflowed"):
        lsim([], [], [], 1e300, np.full(3, 1e300), t)


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): e^{AT} beyond the floating-point range, transition matrices that
# overflow over the grid, and c2d with lti's coefficient rules
# ---------------------------------------------------------------------------------------------


def test_discretize_refuses_an_overflowing_transition_matrix_naming_A_T_and_the_limit():
    """Oracle: e^1000 > 1.8e308 = e^709.78, so T must stay below 709.78 / 1000 for A = 1000."""
    with pytest.raises(ValueError, match=r"e\^\(A T\) overflows the floating-point range: A has an "
                                         r"eigenvalue with real part 1000 and T = 1, so e\^\(A T\) "
                                         r"grows like e\^1000.* T must be below 0.709783 for this A"):
        discretize([[1000.0]], [1.0], 1.0)
    Phi, Gamma = discretize([[1000.0]], [1.0], 0.7)  # just inside: e^700 ~ 1e304
    assert np.isfinite(Phi).all() and np.isfinite(Gamma).all()


def test_discretize_refuses_a_period_far_beyond_the_time_constants():
    """T = 1e300 for time constants of 0.5 s and 1 s: expm returned NaN."""
    with pytest.raises(ValueError, match=r"e\^\(A T\) and m\(T\) are not computable in floating point "
                                         r"for T = 1e\+300: .* time constants of A \(1/\|lambda\| from "
                                         r"0.5 to 1\)"):
        discretize(A2, B2, 1e300)
    with pytest.raises(ValueError, match=r"A T or B T overflows the floating-point range for T = 1e\+10"):
        discretize([[1e300]], [1.0], 1e10)


def test_lsim_refuses_a_grid_over_which_the_unstable_mode_outgrows_the_doubles():
    """Oracle: e^{1000 t} passes 1.8e308 at t = 0.70978; the unexcited mode of a decoupled A is
    exactly 0 in this one case only, and any rounding error in it would grow to inf."""
    A = [[1000.0, 0.0], [0.0, -1.0]]
    t = np.linspace(0.0, 1.0, 21)
    for run in (lambda: lsim(A, B2, C2, 0.0, np.ones(21), t), lambda: lsim_loop(A, B2, C2, 0.0, np.ones(21), t)):
        with pytest.raises(NonFiniteStateError, match=r"the system is unstable \(largest Re\(lambda\) of "
                                                      r"A = 1000\) .* from step 15 of 20 on \(t = 0.75, "
                                                      r"T = 0.05\).* Shorten the time span to below "
                                                      r"0.709783") as caught:
            run()
        assert (caught.value.step, caught.value.steps, caught.value.t, caught.value.h) == (15, 20, 0.75, 0.05)
    short = lsim(A, B2, C2, 0.0, np.ones(11), np.linspace(0.0, 0.5, 11))  # e^500: representable
    assert np.isfinite(short.x).all()


def test_lsim_overflow_of_a_stable_system_blames_the_sizes_not_instability():
    with pytest.raises(NonFiniteStateError, match=r"overflowed to inf or NaN at step 1 of 2 .* x0, u, "
                                                  r"B, C or D are so large") as caught:
        lsim([[-1.0]], [1e300], [1e10], 0.0, np.full(3, 1e10), np.linspace(0, 1, 3))
    assert "unstable" not in str(caught.value) and caught.value.step == 1


def test_c2d_and_lti_share_the_rule_for_an_empty_numerator_and_the_coefficient_range():
    """Before, c2d([], [1, 1], 0.1) returned a zero numerator where lti refuses an empty num."""
    from simlab.lti import tf2ss

    for num, den in [([], [1.0, 1.0]), ([1.0, 2.0], [1e-320, 1.0]), ([1.0, 2.0, 3.0], [1.0, 1.0])]:
        with pytest.raises(ValueError) as from_lti:
            tf2ss(num, den)
        with pytest.raises(ValueError) as from_c2d:
            c2d(num, den, 0.1)
        assert str(from_c2d.value) == str(from_lti.value)
    with pytest.raises(ValueError, match=r"^num is empty; give at least one coefficient"):
        c2d([], [1.0, 1.0], 0.1)


def test_c2d_refuses_discrete_coefficients_that_overflow():
    with pytest.raises(ValueError, match=r"e\^\(A T\) overflows .* den \(as A = tf2ss\(num, den\)\) has "
                                         r"an eigenvalue with real part 1000 and T = 1"):
        c2d([1.0], [1.0, -1000.0], 1.0)
    with pytest.raises(ValueError, match=r"c2d: the discrete coefficients overflow the floating-point "
                                         r"range for T = 1e-200 .*method 'tustin' they grow like \(2/T\)\^n"):
        c2d([1.0], [1.0, 2.0, 1.0], 1e-200, method="tustin")
