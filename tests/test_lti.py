"""Specification of simlab.lti: model conversions, connections and reduction.

Oracles: scipy.signal (tf2ss, ss2tf, tf2zpk, zpk2tf, ss2zpk, zpk2ss), python-control
(tf, series, parallel, feedback, minreal, dcgain), sympy (exact expansion of the lab03 example),
hand algebra, and, for balanced truncation (control.balred needs slycot, which is not installed),
an independent Kronecker-product solution of the Lyapunov equations plus the H-infinity error
bound sigma_{r+1} <= ||G - G_r||_inf <= 2 (sigma_{r+1} + ... + sigma_n).

Random systems come from seeded numpy generators, so every run checks the same systems. Transfer
functions are compared by frequency response or by coefficients normalised to a monic
denominator; realisations are compared directly only where the realisation is specified.
"""

import control
import mpmath
import numpy as np
import pytest
import scipy.signal as signal
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from simlab.lti import (
    TF,
    balred,
    feedback,
    hankel_singular_values,
    minreal,
    parallel,
    series,
    ss2tf,
    ss2zp,
    tf2ss,
    tf2zp,
    zp2ss,
    zp2tf,
)

N_SYSTEMS = 200
# Points on the imaginary axis (and one off it) where transfer functions are compared; random
# poles and zeros below keep |Re| >= 0.2, so none of these points is near a pole.
S_POINTS = np.concatenate([1j * np.logspace(-1.5, 1.5, 7), [0.3 + 0.7j]])

# The lab03 example (seed 003, 实验一): G(s) = (s+8)(s^2+2s+5) / ((2s+3)(3s^2+4s+13)).
LAB03_NUM = [1, 10, 21, 40]
LAB03_DEN = [6, 17, 38, 39]


# ---------------------------------------------------------------------------------------------
# Random systems and comparison helpers.
# ---------------------------------------------------------------------------------------------


def random_roots(rng, count, stable=False):
    """``count`` roots, real or in conjugate pairs, with 0.2 <= |Re| <= 5."""
    roots = []
    while len(roots) < count:
        re = rng.uniform(0.2, 5.0) * (-1 if stable or rng.random() < 0.7 else 1)
        if count - len(roots) >= 2 and rng.random() < 0.5:
            im = rng.uniform(0.1, 5.0)
            roots += [re + 1j * im, re - 1j * im]
        else:
            roots.append(re)
    return np.array(roots, dtype=complex)


def random_tf(rng, max_order=6, min_order=0, stable=False):
    """Random proper (num, den) with non-monic leading coefficients."""
    n = int(rng.integers(min_order, max_order + 1))
    m = int(rng.integers(0, n + 1))
    den = rng.uniform(0.5, 3.0) * np.real(np.poly(random_roots(rng, n, stable)))
    num = rng.uniform(0.5, 3.0) * rng.choice([-1, 1]) * np.real(np.poly(random_roots(rng, m)))
    return np.atleast_1d(num), np.atleast_1d(den)


def random_ss(rng, max_order=6, inputs=1, outputs=1, stable=False):
    """Random dense (A, B, C, D): a random tf realised and moved by a random state transform."""
    num, den = random_tf(rng, max_order, min_order=1, stable=stable)
    A, _, _, _ = signal.tf2ss(num, den)
    n = A.shape[0]
    T = np.linalg.qr(rng.normal(size=(n, n)))[0] @ np.diag(rng.uniform(0.5, 2.0, n))
    A = np.linalg.solve(T, A @ T)
    B = rng.normal(size=(n, inputs))
    C = rng.normal(size=(outputs, n))
    D = rng.normal(size=(outputs, inputs)) * (rng.random() < 0.5)
    return A, B, C, D


def tf_response(num, den, s=S_POINTS):
    return np.polyval(num, s) / np.polyval(den, s)


def ss_response(A, B, C, D, s=S_POINTS):
    """C (sI - A)^{-1} B + D at each point, shape (len(s), p, m)."""
    eye = np.eye(A.shape[0])
    return np.array([C @ np.linalg.solve(si * eye - A, B) + D for si in s])


def assert_same_response(got, expected, rtol=1e-8):
    got, expected = np.asarray(got), np.asarray(expected)
    scale = np.max(np.abs(expected)) + 1e-300
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale)


def monic(num, den):
    """Coefficients divided by den[0], num padded to the length of den (leading zeros cut)."""
    num, den = np.trim_zeros(np.atleast_1d(num), "f"), np.trim_zeros(np.atleast_1d(den), "f")
    num = num if num.size else np.zeros(1)
    return num / den[0], den / den[0]


def assert_same_coefficients(got, expected, rtol=1e-9):
    (num, den), (num_ref, den_ref) = monic(*got), monic(*expected)
    assert len(den) == len(den_ref), f"den degree {len(den) - 1} != {len(den_ref) - 1}"
    assert len(num) == len(num_ref), f"num degree {len(num) - 1} != {len(num_ref) - 1}"
    scale = max(np.max(np.abs(num_ref)), np.max(np.abs(den_ref)))
    np.testing.assert_allclose(num, num_ref, rtol=rtol, atol=rtol * scale)
    np.testing.assert_allclose(den, den_ref, rtol=rtol, atol=rtol * scale)


def assert_same_roots(got, expected, tol=1e-6):
    """Same multiset of roots, matched by the assignment that minimises the total distance."""
    got, expected = np.atleast_1d(got), np.atleast_1d(expected)
    assert got.shape == expected.shape, f"{got.size} roots, expected {expected.size}"
    if got.size == 0:
        return
    rows, cols = linear_sum_assignment(np.abs(got[:, None] - expected[None, :]))
    distance = np.abs(got[rows] - expected[cols])
    assert np.all(distance <= tol * np.maximum(1, np.abs(expected[cols]))), (got, expected)


def control_tf(num, den):
    return control.tf(list(np.atleast_1d(num)), list(np.atleast_1d(den)))


def control_coefficients(sys):
    return np.asarray(sys.num[0][0], float), np.asarray(sys.den[0][0], float)


def gramian_by_kronecker(A, Q):
    """X with A X + X A^T + Q = 0, from (I kron A + A kron I) vec(X) = -vec(Q)."""
    n = A.shape[0]
    K = np.kron(np.eye(n), A) + np.kron(A, np.eye(n))
    return np.linalg.solve(K, -Q.reshape(-1, order="F")).reshape(n, n, order="F")


# ---------------------------------------------------------------------------------------------
# tf2ss, ss2tf
# ---------------------------------------------------------------------------------------------


def test_tf2ss_matches_scipy_realisation_on_random_systems():
    """Oracle: scipy.signal.tf2ss (the MATLAB controllable canonical form), n >= 1."""
    rng = np.random.default_rng(1)
    for _ in range(N_SYSTEMS):
        num, den = random_tf(rng, min_order=1)
        for got, expected in zip(tf2ss(num, den), signal.tf2ss(num, den)):
            assert got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_tf2ss_lab03_example_equals_canonical_form_from_sympy():
    """Oracle: sympy expands the lab03 factors exactly; the canonical matrices built from them in
    exact arithmetic reproduce G(s) symbolically."""
    s = sympy.symbols("s")
    num_expr = sympy.expand((s + 8) * (s**2 + 2 * s + 5))
    den_expr = sympy.expand((2 * s + 3) * (3 * s**2 + 4 * s + 13))
    b = sympy.Poly(num_expr, s).all_coeffs()
    a = sympy.Poly(den_expr, s).all_coeffs()
    assert [int(c) for c in b] == LAB03_NUM and [int(c) for c in a] == LAB03_DEN
    a_monic, b_monic = [c / a[0] for c in a], [c / a[0] for c in b]
    A_exact = sympy.Matrix([[-c for c in a_monic[1:]], [1, 0, 0], [0, 1, 0]])
    B_exact = sympy.Matrix([1, 0, 0])
    C_exact = sympy.Matrix([[b_monic[i] - b_monic[0] * a_monic[i] for i in (1, 2, 3)]])
    D_exact = b_monic[0]
    G = (C_exact * (s * sympy.eye(3) - A_exact).inv() * B_exact)[0, 0] + D_exact
    assert sympy.simplify(G - num_expr / den_expr) == 0

    A, B, C, D = tf2ss(LAB03_NUM, LAB03_DEN)
    np.testing.assert_allclose(A, np.array(A_exact, dtype=float), rtol=1e-14)
    np.testing.assert_allclose(B, np.array(B_exact, dtype=float), rtol=1e-14)
    np.testing.assert_allclose(C, np.array(C_exact, dtype=float), rtol=1e-14)
    np.testing.assert_allclose(D, [[float(D_exact)]], rtol=1e-14)


def test_tf2ss_static_gain_gives_empty_state_matrices():
    """Oracle: the MATLAB convention for a static gain (no states): A 0x0, B 0x1, C 1x0."""
    A, B, C, D = tf2ss(3, [2])
    assert (A.shape, B.shape, C.shape) == ((0, 0), (0, 1), (1, 0))
    np.testing.assert_array_equal(D, [[1.5]])


def test_tf2ss_strips_leading_zeros_and_accepts_scalar_num():
    """Oracle: scipy.signal.tf2ss on the stripped coefficients 2 / (s + 3)."""
    for got, expected in zip(tf2ss([0, 0, 2], [0, 1, 3]), signal.tf2ss([2], [1, 3])):
        np.testing.assert_array_equal(got, expected)
    for got, expected in zip(tf2ss(2, [1, 3]), signal.tf2ss([2], [1, 3])):
        np.testing.assert_array_equal(got, expected)


@settings(max_examples=60, deadline=None)
@given(
    num=st.lists(st.integers(-9, 9), min_size=1, max_size=4),
    den_tail=st.lists(st.integers(-9, 9), min_size=0, max_size=4),
    lead=st.integers(1, 9),
    zeros=st.integers(0, 3),
)
def test_tf2ss_is_unchanged_by_leading_zeros(num, den_tail, lead, zeros):
    """Oracle: the same call without the leading zeros (they carry no information)."""
    den = [lead] + den_tail
    if len(np.trim_zeros(num, "f")) > len(den):
        return
    padded = tf2ss([0] * zeros + num, [0] * zeros + den)
    for got, expected in zip(padded, tf2ss(num, den)):
        np.testing.assert_array_equal(got, expected)


def test_ss2tf_matches_scipy_on_random_state_space():
    """Oracle: scipy.signal.ss2tf."""
    rng = np.random.default_rng(2)
    for _ in range(N_SYSTEMS):
        A, B, C, D = random_ss(rng)
        num, den = ss2tf(A, B, C, D)
        num_ref, den_ref = signal.ss2tf(A, B, C, D)
        assert num.shape == den.shape == den_ref.shape
        scale = np.max(np.abs(num_ref[0]))
        np.testing.assert_allclose(num, num_ref[0], rtol=1e-9, atol=1e-9 * scale)
        np.testing.assert_allclose(den, den_ref, rtol=1e-12, atol=1e-12)


def test_ss2tf_response_equals_state_space_response():
    """Oracle: C (sI - A)^{-1} B + D evaluated directly by linear solves."""
    rng = np.random.default_rng(3)
    for _ in range(N_SYSTEMS):
        A, B, C, D = random_ss(rng)
        assert_same_response(tf_response(*ss2tf(A, B, C, D)), ss_response(A, B, C, D)[:, 0, 0])


def test_ss2tf_of_canonical_realisation_has_exact_leading_zeros():
    """Oracle: the construction; a relative degree r gives exactly r leading zeros in num and so
    no spurious huge zeros in ss2zp."""
    rng = np.random.default_rng(4)
    for _ in range(N_SYSTEMS):
        num, den = random_tf(rng, min_order=1)
        relative_degree = len(den) - len(num)
        got_num, _ = ss2tf(*tf2ss(num, den))
        assert np.all(got_num[:relative_degree] == 0.0)
        assert got_num[relative_degree] != 0.0
        z, _, _ = ss2zp(*tf2ss(num, den))
        assert_same_roots(z, np.roots(num))


def test_ss2tf_keeps_uncontrollable_mode():
    """Oracle: hand algebra; A = diag(-1, -2), B = [1, 0]^T, C = [1, 1] has G = 1/(s+1), but the
    uncancelled form is (s+2) / ((s+1)(s+2)) with den = det(sI - A)."""
    num, den = ss2tf(np.diag([-1.0, -2.0]), [[1.0], [0.0]], [[1.0, 1.0]], 0)
    np.testing.assert_allclose(num, [0, 1, 2], atol=1e-14)
    np.testing.assert_allclose(den, [1, 3, 2], atol=1e-14)


def test_ss2tf_of_static_gain_and_vector_shorthands():
    """Oracle: hand algebra; no states gives D/1, and 1-D B, C mean a column and a row."""
    num, den = ss2tf(np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), 2.5)
    assert num.tolist() == [2.5] and den.tolist() == [1.0]
    num, den = ss2tf([[0, 1], [-2, -3]], [0, 1], [3, 1], 0)  # (s + 3) / (s^2 + 3s + 2)
    np.testing.assert_allclose(num, [0, 1, 3], atol=1e-14)
    np.testing.assert_allclose(den, [1, 3, 2], atol=1e-14)


def test_roundtrip_tf_ss_tf_returns_normalised_coefficients():
    """Oracle: the input itself, divided by den[0] and padded."""
    rng = np.random.default_rng(5)
    for _ in range(N_SYSTEMS):
        num, den = random_tf(rng)
        assert_same_coefficients(ss2tf(*tf2ss(num, den)), (num, den), rtol=1e-9)


def test_ss2tf_keeps_a_small_but_genuine_leading_coefficient():
    """Oracle: the input; 1e-8 s^2 + s + 1 over s^3 + 2s^2 + 3s + 4 has a tiny but real s^2 term
    (a zero at -1e8), far above the rounding level that ss2tf sets to zero."""
    num, den = ss2tf(*tf2ss([1e-8, 1, 1], [1, 2, 3, 4]))
    np.testing.assert_allclose(num, [0, 1e-8, 1, 1], rtol=1e-6, atol=1e-14)
    np.testing.assert_allclose(den, [1, 2, 3, 4], rtol=1e-12)


def test_roundtrip_ss_tf_ss_keeps_frequency_response():
    """Oracle: the frequency response of the original realisation (the realisations differ)."""
    rng = np.random.default_rng(6)
    for _ in range(N_SYSTEMS):
        A, B, C, D = random_ss(rng)
        assert_same_response(ss_response(*tf2ss(*ss2tf(A, B, C, D))), ss_response(A, B, C, D))


# ---------------------------------------------------------------------------------------------
# Zero-pole-gain form
# ---------------------------------------------------------------------------------------------


def test_tf2zp_matches_scipy_tf2zpk():
    """Oracle: scipy.signal.tf2zpk."""
    rng = np.random.default_rng(7)
    for _ in range(N_SYSTEMS):
        num, den = random_tf(rng)
        z, p, k = tf2zp(num, den)
        z_ref, p_ref, k_ref = signal.tf2zpk(num, den)
        assert_same_roots(z, z_ref)
        assert_same_roots(p, p_ref)
        assert k == pytest.approx(k_ref, rel=1e-12)


def test_tf2zp_lab03_example_matches_hand_factorisation():
    """Oracle: the factors of lab03 and the quadratic formula: 3s^2 + 4s + 13 = 0 at
    s = -2/3 +- j sqrt(35)/3; k = 1/6."""
    z, p, k = tf2zp(LAB03_NUM, LAB03_DEN)
    assert_same_roots(z, [-8, -1 + 2j, -1 - 2j], tol=1e-12)
    root = np.sqrt(35) / 3
    assert_same_roots(p, [-1.5, -2 / 3 + 1j * root, -2 / 3 - 1j * root], tol=1e-12)
    assert k == pytest.approx(1 / 6, rel=1e-15)


def test_zp2tf_matches_scipy_zpk2tf():
    """Oracle: scipy.signal.zpk2tf."""
    rng = np.random.default_rng(8)
    for _ in range(N_SYSTEMS):
        n_poles = rng.integers(0, 7)
        z, p = random_roots(rng, rng.integers(0, n_poles + 1)), random_roots(rng, n_poles)
        k = rng.uniform(-3, 3)
        num, den = zp2tf(z, p, k)
        num_ref, den_ref = signal.zpk2tf(z, p, k)
        np.testing.assert_allclose(num, np.atleast_1d(num_ref), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(den, np.atleast_1d(den_ref), rtol=1e-12, atol=1e-12)
        assert num.dtype == den.dtype == np.float64


def test_roundtrip_tf_zp_tf_returns_normalised_coefficients():
    """Oracle: the input itself, divided by den[0]."""
    rng = np.random.default_rng(9)
    for _ in range(N_SYSTEMS):
        num, den = random_tf(rng)
        assert_same_coefficients(zp2tf(*tf2zp(num, den)), (num, den), rtol=1e-8)


# scipy warns about the exact leading zero of num when D = 0
@pytest.mark.filterwarnings("ignore::scipy.signal.BadCoefficients")
def test_ss2zp_matches_scipy_ss2zpk():
    """Oracle: scipy.signal.ss2zpk."""
    rng = np.random.default_rng(10)
    for _ in range(N_SYSTEMS):
        A, B, C, D = random_ss(rng)
        z, p, k = ss2zp(A, B, C, D)
        z_ref, p_ref, k_ref = signal.ss2zpk(A, B, C, D)
        assert_same_roots(z, z_ref, tol=1e-5)
        assert_same_roots(p, p_ref, tol=1e-5)
        assert k == pytest.approx(k_ref, rel=1e-8)


def test_zp2ss_response_matches_scipy_zpk2ss():
    """Oracle: scipy.signal.zpk2ss, compared by frequency response."""
    rng = np.random.default_rng(11)
    for _ in range(N_SYSTEMS):
        p = random_roots(rng, rng.integers(1, 7))
        z = random_roots(rng, rng.integers(0, len(p) + 1))
        k = rng.uniform(0.5, 3)
        assert_same_response(ss_response(*zp2ss(z, p, k)), ss_response(*signal.zpk2ss(z, p, k)))


# ---------------------------------------------------------------------------------------------
# Connections
# ---------------------------------------------------------------------------------------------


def test_series_matches_python_control():
    """Oracle: control.series, coefficient by coefficient."""
    rng = np.random.default_rng(12)
    for _ in range(N_SYSTEMS):
        g, h = random_tf(rng, 4), random_tf(rng, 4)
        expected = control_coefficients(control.series(control_tf(*g), control_tf(*h)))
        assert_same_coefficients(series(*g, *h), expected)


def test_parallel_matches_python_control():
    """Oracle: control.parallel, by frequency response; the order is the sum of the orders."""
    rng = np.random.default_rng(13)
    for _ in range(N_SYSTEMS):
        g, h = random_tf(rng, 4), random_tf(rng, 4)
        num, den = parallel(*g, *h)
        reference = control.parallel(control_tf(*g), control_tf(*h))
        assert_same_response(tf_response(num, den), reference(S_POINTS))
        assert len(den) - 1 == (len(g[1]) - 1) + (len(h[1]) - 1)


@pytest.mark.parametrize("sign", [-1, 1])
def test_feedback_matches_python_control(sign):
    """Oracle: control.feedback(G, H, sign), coefficient by coefficient (neither cancels)."""
    rng = np.random.default_rng(14 + sign)
    for _ in range(N_SYSTEMS):
        g, h = random_tf(rng, 4), random_tf(rng, 4)
        expected = control_coefficients(control.feedback(control_tf(*g), control_tf(*h), sign))
        assert_same_coefficients(feedback(*g, *h, sign=sign), expected)


def test_feedback_keeps_common_factors_like_matlab():
    """Oracle: hand algebra; G = (s+1)/(s+2), H = 1/(s+1):
    n1 d2 = (s+1)^2 and d1 d2 + n1 n2 = (s+2)(s+1) + (s+1) = s^2 + 4s + 3, not reduced."""
    num, den = feedback([1, 1], [1, 2], [1], [1, 1])
    np.testing.assert_allclose(num, [1, 2, 1])
    np.testing.assert_allclose(den, [1, 4, 3])


def test_feedback_closes_the_rk4_lab_loop():
    """Oracle: hand algebra for the seed 003 RK4 lab, 1/(s^3+4s^2+8s+5) with unity negative
    feedback (``feedback(numo, deno, numh, denh)``): den + num = s^3 + 4s^2 + 8s + 6; with positive
    feedback s^3 + 4s^2 + 8s + 4."""
    num, den = feedback([1], [1, 4, 8, 5], 1, 1)
    assert num.tolist() == [1.0] and den.tolist() == [1.0, 4.0, 8.0, 6.0]
    _, den = feedback([1], [1, 4, 8, 5], 1, 1, sign=+1)
    assert den.tolist() == [1.0, 4.0, 8.0, 4.0]


def test_series_and_parallel_keep_common_factors():
    """Oracle: hand algebra; 1/(s+1) * (s+1)/(s+2) stays (s+1)/((s+1)(s+2)), and
    1/(s+1) + 1/(s+1) stays 2(s+1)/(s+1)^2."""
    num, den = series([1], [1, 1], [1, 1], [1, 2])
    assert num.tolist() == [1.0, 1.0] and den.tolist() == [1.0, 3.0, 2.0]
    num, den = parallel([1], [1, 1], [1], [1, 1])
    assert num.tolist() == [2.0, 2.0] and den.tolist() == [1.0, 2.0, 1.0]


def test_parallel_cancelled_leading_term_leaves_no_rounding_residue():
    """Oracle: exact rational arithmetic (sympy). G1 = (0.1 s + 1)/(0.3 s + 1) and
    G2 = -(0.7 s + 1)/(2.1 s + 1): the s^2 term of n1 d2 + n2 d1 is 0.21 - 0.21 = 0 exactly, but not
    in floating point (0.1 * 2.1 != 0.7 * 0.3)."""
    assert 0.1 * 2.1 != 0.7 * 0.3  # the premise: a rounding residue would appear
    s = sympy.symbols("s")
    exact = sympy.Poly(
        sympy.expand(
            (sympy.Rational(1, 10) * s + 1) * (sympy.Rational(21, 10) * s + 1)
            - (sympy.Rational(7, 10) * s + 1) * (sympy.Rational(3, 10) * s + 1)
        ),
        s,
    ).all_coeffs()
    num, den = parallel([0.1, 1], [0.3, 1], [-0.7, -1], [2.1, 1])
    assert len(num) == len(exact) == 2
    np.testing.assert_allclose(num, [float(c) for c in exact], rtol=1e-12)
    assert len(den) == 3


def test_parallel_keeps_a_small_but_genuine_numerator():
    """Oracle: hand algebra; 1/(s+1) - 1/(s+1+1e-9) = 1e-9 / ((s+1)(s+1+1e-9)), where 1e-9 is far
    above the rounding level (~1e-16) and must not be mistaken for a cancelled term."""
    num, den = parallel([1], [1, 1], [-1], [1, 1 + 1e-9])
    np.testing.assert_allclose(num, [1e-9], rtol=1e-6)
    np.testing.assert_allclose(den, [1, 2 + 1e-9, 1 + 1e-9], rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# minreal
# ---------------------------------------------------------------------------------------------


def _system_with_common_factor(rng):
    """(num, den) = G0 * c(s)/c(s) with known G0 = (num0, den0) and known common roots c."""
    while True:
        z = random_roots(rng, rng.integers(0, 4))
        p = random_roots(rng, rng.integers(max(len(z), 1), 5))
        c = random_roots(rng, rng.integers(1, 3))
        everything = np.concatenate([z, p, c])
        distances = np.abs(everything[:, None] - everything[None, :])
        gaps = distances[~np.eye(len(everything), dtype=bool)]
        if gaps.size == 0 or gaps.min() > 0.05:
            break
    k = rng.uniform(0.5, 3) * rng.choice([-1, 1])
    num0, den0 = k * np.real(np.poly(z)), np.real(np.poly(p))
    common = np.real(np.poly(c))
    num0, den0 = np.atleast_1d(num0), np.atleast_1d(den0)
    return num0, den0, c, np.convolve(num0, common), np.convolve(den0, common)


def test_minreal_removes_constructed_common_factors():
    """Oracle: the construction G0 c/c; minreal returns G0 and reports the roots of c."""
    rng = np.random.default_rng(16)
    for _ in range(N_SYSTEMS):
        num0, den0, c, num, den = _system_with_common_factor(rng)
        result = minreal(num, den)
        assert_same_coefficients(tuple(result), (num0, den0), rtol=1e-7)
        assert_same_roots(result.removed_poles, c, tol=1e-7)
        assert_same_roots(result.removed_zeros, c, tol=1e-7)


def test_minreal_agrees_with_python_control():
    """Oracle: control.minreal on the same transfer function."""
    rng = np.random.default_rng(17)
    for _ in range(N_SYSTEMS):
        _, _, _, num, den = _system_with_common_factor(rng)
        reference = control.minreal(control_tf(num, den), verbose=False)
        assert_same_coefficients(tuple(minreal(num, den)), control_coefficients(reference), 1e-7)


def test_minreal_keeps_pairs_farther_apart_than_tol():
    """Oracle: the tolerance rule |z - p| <= tol max(1, |p|); here |z - p| = 1e-3."""
    result = minreal([1, 1.001], [1, 3, 2])
    assert result.removed_poles.size == 0
    np.testing.assert_array_equal(result.num, [1, 1.001])
    assert minreal([1, 1.001], [1, 3, 2], tol=1e-2).den.tolist() == pytest.approx([1, 2])


def test_minreal_cancels_a_triple_root_far_from_the_origin():
    """Oracle: the construction (s+1)(s+50)^3 / ((s+2)(s+3)(s+50)^3); the computed roots of a
    triple root scatter by about eps^(1/3) |p| ~ 4e-4 here, so the tolerance must be relative."""
    common = np.poly([-50, -50, -50])
    result = minreal(np.convolve(common, [1, 1]), np.convolve(common, [1, 5, 6]))
    assert_same_coefficients(tuple(result), ([1, 1], [1, 5, 6]), rtol=1e-6)
    assert_same_roots(result.removed_poles, [-50, -50, -50], tol=1e-4)


def test_minreal_of_zero_transfer_function_removes_all_poles():
    """Oracle: MATLAB's minreal(tf(0, [1 3 2])) = 0; the removed poles are -1 and -2."""
    result = minreal(0, [1, 3, 2])
    num, den = result
    assert num.tolist() == [0.0] and den.tolist() == [1.0]
    assert_same_roots(result.removed_poles, [-1, -2])


# ---------------------------------------------------------------------------------------------
# Hankel singular values and balanced truncation
# ---------------------------------------------------------------------------------------------


def _stable_systems(seed, count=80):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        inputs, outputs = (1, 1) if rng.random() < 0.7 else rng.integers(1, 3, size=2)
        yield random_ss(rng, max_order=7, inputs=inputs, outputs=outputs, stable=True)


def _hsv_by_kronecker(A, B, C):
    Wc = gramian_by_kronecker(A, B @ B.T)
    Wo = gramian_by_kronecker(A.T, C.T @ C)
    return np.sqrt(np.sort(np.abs(np.linalg.eigvals(Wc @ Wo)))[::-1])


def _peak_error(full, reduced):
    w = np.concatenate([[0.0], np.logspace(-3, 3, 600)])
    difference = ss_response(*full, 1j * w) - ss_response(*reduced, 1j * w)
    return np.max(np.linalg.norm(difference, ord=2, axis=(1, 2)))


def test_hankel_singular_values_match_kronecker_lyapunov_oracle():
    """Oracle: Gramians from the Kronecker form of the Lyapunov equations, sigma = sqrt(eig(Wc Wo)).
    eig(Wc Wo) squares the spread of the HSVs, so the oracle itself is accurate only to about
    1e-6 sigma_1 for the small ones; the test below checks those in high precision."""
    for A, B, C, _ in _stable_systems(18):
        expected = _hsv_by_kronecker(A, B, C)
        np.testing.assert_allclose(hankel_singular_values(A, B, C), expected, rtol=1e-6,
                                   atol=1e-6 * expected[0])


def _hsv_in_high_precision(A, B, C, digits=30):
    """sqrt(eig(Wc Wo)) with both Lyapunov equations solved by Kronecker products in mpmath."""
    with mpmath.workdps(digits):
        n = A.shape[0]
        Am, Bm, Cm = (mpmath.matrix(M.tolist()) for M in (A, B, C))

        def lyapunov(M, Q):  # M X + X M^T + Q = 0, vec(X) by columns
            K = mpmath.zeros(n * n, n * n)
            for i in range(n):
                for j in range(n):
                    for k in range(n):
                        K[j * n + i, j * n + k] += M[i, k]  # (I kron M) vec(X)
                        K[j * n + i, k * n + i] += M[j, k]  # (M kron I) vec(X)
            x = mpmath.lu_solve(K, mpmath.matrix([-Q[i, j] for j in range(n) for i in range(n)]))
            return mpmath.matrix([[x[j * n + i] for j in range(n)] for i in range(n)])

        product = lyapunov(Am, Bm * Bm.T) * lyapunov(Am.T, Cm.T * Cm)
        eigenvalues, _ = mpmath.eig(product)
        return np.sort([float(mpmath.sqrt(abs(e))) for e in eigenvalues])[::-1]


def test_hankel_singular_values_are_accurate_in_high_precision():
    """Oracle: 30-digit mpmath solution of the Lyapunov equations (small HSVs included)."""
    for A, B, C, _ in _stable_systems(30, 12):
        expected = _hsv_in_high_precision(A, B, C)
        np.testing.assert_allclose(hankel_singular_values(A, B, C), expected, rtol=1e-4,
                                   atol=1e-12 * expected[0])


def test_hankel_singular_values_are_invariant_under_state_transformation():
    """Oracle: theory; x -> T x leaves the HSVs unchanged (they are input-output invariants)."""
    rng = np.random.default_rng(19)
    for A, B, C, _ in _stable_systems(19, 40):
        T = rng.normal(size=A.shape) + 3 * np.eye(len(A))
        Ti = np.linalg.inv(T)
        hsv = hankel_singular_values(A, B, C)
        np.testing.assert_allclose(hankel_singular_values(Ti @ A @ T, Ti @ B, C @ T), hsv,
                                   rtol=1e-6, atol=1e-7 * hsv[0])


@pytest.mark.parametrize("method", ["truncate", "matchdc"])
def test_balred_error_lies_between_hankel_bounds(method):
    """Oracle: sigma_{r+1} <= max_w ||G(jw) - G_r(jw)|| <= 2 sum_{i>r} sigma_i (HSVs from the
    Kronecker oracle), for every order r, sampled on a dense frequency grid."""
    for A, B, C, D in _stable_systems(20, 40):
        hsv = _hsv_by_kronecker(A, B, C)
        for order in range(A.shape[0]):
            result = balred(A, B, C, D, order, method=method)
            assert result.A.shape == (order, order)
            assert np.all(np.linalg.eigvals(result.A).real < 0)
            error = _peak_error((A, B, C, D), tuple(result))
            assert error <= 2 * np.sum(hsv[order:]) * (1 + 1e-6) + 1e-6 * hsv[0]
            assert error >= hsv[order] * (1 - 1e-3) - 1e-6 * hsv[0]
            assert result.error_bound == pytest.approx(2 * np.sum(hsv[order:]), rel=1e-5,
                                                       abs=1e-6 * hsv[0])


def test_balred_truncated_model_is_balanced():
    """Oracle: Kronecker Gramians of the reduced model both equal diag(sigma_1 .. sigma_r)."""
    for A, B, C, D in _stable_systems(21, 40):
        order = max(1, A.shape[0] // 2)
        Ar, Br, Cr, _ = balred(A, B, C, D, order)
        hsv = _hsv_by_kronecker(A, B, C)
        for gramian in (gramian_by_kronecker(Ar, Br @ Br.T), gramian_by_kronecker(Ar.T, Cr.T @ Cr)):
            np.testing.assert_allclose(gramian, np.diag(hsv[:order]), atol=1e-7 * hsv[0])


def test_balred_matchdc_keeps_the_dc_gain():
    """Oracle: DC gain D - C A^{-1} B of the full model."""
    for A, B, C, D in _stable_systems(22, 40):
        dc = D - C @ np.linalg.solve(A, B)
        for order in range(A.shape[0]):
            Ar, Br, Cr, Dr = balred(A, B, C, D, order, method="matchdc")
            dc_reduced = Dr - Cr @ np.linalg.solve(Ar, Br) if order else Dr
            np.testing.assert_allclose(dc_reduced, dc, rtol=1e-6, atol=1e-8 * np.abs(dc).max())


def test_balred_full_order_keeps_the_transfer_function():
    """Oracle: the frequency response of the full model."""
    for A, B, C, D in _stable_systems(23, 40):
        assert_same_response(ss_response(*balred(A, B, C, D, A.shape[0])), ss_response(A, B, C, D),
                             rtol=1e-6)


def test_balred_drops_a_nonminimal_state_exactly():
    """Oracle: hand algebra, (s+10)/((s+1)(s+10)) = 1/(s+1), whose HSV is 1/2; the cancelled state
    has HSV 0, so the order-1 model is exact and order 2 cannot be balanced. A zero HSV is the
    square root of a rank-deficient Gramian's zero eigenvalue, so it comes out at about
    sqrt(eps) * 0.5, not at eps."""
    full = tf2ss([1, 10], np.polymul([1, 1], [1, 10]))
    result = balred(*full, order=1)
    np.testing.assert_allclose(result.hsv, [0.5, 0.0], atol=1e-8)
    assert_same_response(ss_response(*result)[:, 0, 0], 1 / (S_POINTS + 1))
    assert result.error_bound == pytest.approx(0.0, abs=1e-8)
    with pytest.raises(ValueError, match="numerically minimal order 1"):
        balred(*full, order=2)


def test_balred_result_unpacks_and_reports_discarded_states():
    """Oracle: the HSVs from the Kronecker oracle; the result unpacks as (A, B, C, D)."""
    A, B, C, D = tf2ss(LAB03_NUM, LAB03_DEN)
    result = balred(A, B, C, D, 1)
    Ar, Br, Cr, Dr = result
    assert (Ar.shape, Br.shape, Cr.shape, Dr.shape) == ((1, 1), (1, 1), (1, 1), (1, 1))
    hsv = _hsv_by_kronecker(A, B, C)
    np.testing.assert_allclose(result.discarded_hsv, hsv[1:], rtol=1e-8)
    assert "discarded_hsv" in repr(result) and result.order == 1


# ---------------------------------------------------------------------------------------------
# The TF value type
# ---------------------------------------------------------------------------------------------


def test_tf_operators_are_series_parallel_and_feedback():
    """Oracle: python-control's *, + and feedback on the same transfer functions."""
    rng = np.random.default_rng(24)
    for _ in range(50):
        g, h = random_tf(rng, 3), random_tf(rng, 3)
        G, H = TF(*g), TF(*h)
        Gc, Hc = control_tf(*g), control_tf(*h)
        assert_same_coefficients(tuple(G * H), control_coefficients(Gc * Hc))
        assert_same_response(tf_response(*(G + H)), (Gc + Hc)(S_POINTS))
        assert_same_response(tf_response(*(G - H)), (Gc - Hc)(S_POINTS))
        closed = control.feedback(Gc, Hc)
        assert_same_coefficients(tuple(G.feedback(H)), control_coefficients(closed))
        assert_same_coefficients(tuple(G.feedback()), control_coefficients(control.feedback(Gc, 1)))
        assert_same_coefficients(tuple(2 * G), control_coefficients(2 * Gc))
        assert_same_coefficients(tuple(np.float64(2) * G), control_coefficients(2 * Gc))
        assert_same_coefficients(tuple(G * 2.0 + 1), control_coefficients(Gc * 2.0 + 1))
        assert_same_response(G(S_POINTS), Gc(S_POINTS))


def test_tf_poles_zeros_and_dcgain_match_python_control():
    """Oracle: control.poles, control.zeros, control.dcgain."""
    rng = np.random.default_rng(25)
    for _ in range(50):
        g = random_tf(rng, 5, min_order=1)
        G, Gc = TF(*g), control_tf(*g)
        assert_same_roots(G.poles(), control.poles(Gc))
        assert_same_roots(G.zeros(), control.zeros(Gc))
        assert G.dcgain() == pytest.approx(float(np.real(control.dcgain(Gc))), rel=1e-10)


def test_tf_dcgain_of_common_s_factor_and_of_zero():
    """Oracle: limits by hand: s/(s(s+2)) -> 1/2; 0/(s+1) -> 0."""
    assert TF([1, 0], [1, 2, 0]).dcgain() == 0.5
    assert TF(0, [1, 1]).dcgain() == 0.0


def test_tf_dcgain_of_an_integrator_is_refused_with_the_pole_named():
    """Rule (issue 23): no silent inf. python-control's dcgain returns inf for 1/s; simlab raises a
    ValueError naming the pole at s = 0 and the gain of the asymptote, lim s->0 s G(s) = 1 (by hand)."""
    assert np.isinf(control.dcgain(control.tf([1], [1, 0])))
    with pytest.raises(ValueError, match=r"1 pole at s = 0 .*s G\(s\) = 1\b"):
        TF(1, [1, 0]).dcgain()


@pytest.mark.parametrize("other", [None, "1.0", float("nan"), 1 + 2j])
def test_tf_operators_name_the_other_operand(other):
    """Rule (campaign): G.feedback(other), G + other, G * other name ``other`` (TF(other) names num)."""
    G = TF(1, [1, 1])
    for operation in (G.feedback, G.__add__, G.__mul__):
        with pytest.raises((TypeError, ValueError), match=r"other \(the second transfer function\)"):
            operation(other)


def test_balred_of_a_system_without_input_output_behaviour_names_a_b_and_c():
    """Rule: B = 1e-320 makes every Hankel singular value zero; the message names (A, B, C) and |B|."""
    with pytest.raises(ValueError, match=r"numerically minimal order 0.*\(A, B, C\).*\|B\| 1e-320"):
        balred([[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1e-320]], [[1.0, 0.0]], [[0.0]], 1)


def test_tf_dcgain_of_a_double_integrator_names_both_poles_and_the_gain_of_the_asymptote():
    """Oracle by hand: 2/(s^2 (s + 4)) has k = 2 poles at s = 0 and lim s->0 s^2 G(s) = 2/4 = 0.5;
    a common factor s cancels first: s/(s^3 (s + 4)) has the same k and K = 1/4."""
    with pytest.raises(ValueError, match=r"2 poles at s = 0 .*s\^2 G\(s\) = 0\.5\b"):
        TF(2, [1, 4, 0, 0]).dcgain()
    with pytest.raises(ValueError, match=r"2 poles at s = 0 .*s\^2 G\(s\) = 0\.25\b"):
        TF([1, 0], [1, 4, 0, 0, 0]).dcgain()


def test_tf_repr_and_str_show_the_coefficients():
    """Oracle: the lab03 coefficients written out by hand."""
    G = TF(LAB03_NUM, LAB03_DEN)
    assert repr(G) == "TF(num=[1, 10, 21, 40], den=[6, 17, 38, 39])"
    top, bar, bottom = str(G).splitlines()
    assert top.strip() == "s^3 + 10 s^2 + 21 s + 40"
    assert bottom.strip() == "6 s^3 + 17 s^2 + 38 s + 39"
    assert set(bar) == {"-"}
    assert str(TF([-1, 0, -2], [1, 0, 1])).splitlines()[0].strip() == "-s^2 - 2"


def test_tf_to_ss_is_tf2ss_and_rejects_improper():
    """Oracle: scipy.signal.tf2ss; a PD controller s + 2 has no state-space realisation."""
    for got, expected in zip(TF(LAB03_NUM, LAB03_DEN).to_ss(), signal.tf2ss(LAB03_NUM, LAB03_DEN)):
        np.testing.assert_allclose(got, expected, rtol=1e-14)
    with pytest.raises(ValueError, match=r"improper: deg num = 1 > deg den = 0"):
        TF([1, 2])


# ---------------------------------------------------------------------------------------------
# Bad input: clear errors that name the argument
# ---------------------------------------------------------------------------------------------

GOOD_A, GOOD_B, GOOD_C, GOOD_D = tf2ss([1, 3], [1, 3, 2])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: tf2ss([1, 0, 0], [1, 1]), ValueError,
         r"improper: deg num = 2 > deg den = 1"),
        (lambda: zp2ss([-1, -2], [-3], 1), ValueError, r"improper model: 2 zeros but 1 poles"),
        (lambda: tf2ss([1], [0, 0]), ValueError, r"den must not be the zero polynomial"),
        (lambda: tf2ss([1], []), ValueError, r"den is empty"),
        (lambda: tf2ss([], [1, 2]), ValueError, r"num is empty"),
        (lambda: tf2ss([1, np.nan], [1, 2]), ValueError, r"num must be finite"),
        (lambda: tf2ss([1], [1, np.inf]), ValueError, r"den must be finite"),
        (lambda: tf2ss("1", [1, 2]), TypeError, r"num must be a number"),
        (lambda: tf2ss([1, "a"], [1, 2]), TypeError, r"num must contain numbers"),
        (lambda: tf2ss([1], None), TypeError, r"den must be a number"),
        (lambda: tf2ss([1j], [1, 2]), TypeError, r"num must be real"),
        (lambda: tf2ss([[1, 2]], [1, 2, 3]), ValueError, r"num must be a 1-D sequence"),
        (lambda: tf2zp([1], [0]), ValueError, r"den must not be the zero polynomial"),
        (lambda: series([1], [1, 1], [1], [0]), ValueError, r"den2 must not be the zero"),
        (lambda: parallel("x", [1, 1], [1], [1]), TypeError, r"num1 must be a number"),
        (lambda: feedback([1], [1, 1], [np.nan], [1]), ValueError, r"num2 must be finite"),
        (lambda: feedback([1], [1, 1], 1, 1, sign=0), ValueError, r"sign must be -1 .* or \+1"),
        (lambda: feedback([1], [1, 1], 1, 1, sign=2), ValueError, r"sign must be -1"),
        (lambda: feedback([1], [1, 1], 1, 1, sign="+"), TypeError, r"sign must be a real number"),
        (lambda: feedback([1], [1, 1], 1, 1, sign=True), TypeError, r"sign must be a real number"),
        (lambda: feedback(1, 1, 1, 1, sign=+1), ValueError, r"ill-posed"),
        (lambda: ss2tf([[1, 2, 3]], GOOD_B, GOOD_C, GOOD_D), ValueError, r"A must be square"),
        (lambda: ss2tf([1, 2], GOOD_B, GOOD_C, GOOD_D), ValueError, r"A must be square"),
        (lambda: ss2tf(GOOD_A, [[1], [2], [3]], GOOD_C, GOOD_D), ValueError,
         r"B must have as many rows as A \(A is 2x2, got B of shape \(3, 1\)\)"),
        (lambda: ss2tf(GOOD_A, GOOD_B, [[1, 2, 3]], GOOD_D), ValueError,
         r"C must have as many columns as A \(A is 2x2, got C of shape \(1, 3\)\)"),
        (lambda: ss2tf(GOOD_A, GOOD_B, GOOD_C, [[1], [2]]), ValueError,
         r"D must have shape \(1, 1\)"),
        (lambda: ss2tf(GOOD_A, np.ones((2, 2)), GOOD_C, np.zeros((1, 2))), ValueError,
         r"B must have exactly one column"),
        (lambda: ss2zp(GOOD_A, GOOD_B, np.ones((2, 2)), np.zeros((2, 1))), ValueError,
         r"C must have exactly one row"),
        (lambda: ss2tf(GOOD_A * np.nan, GOOD_B, GOOD_C, GOOD_D), ValueError, r"A must be finite"),
        (lambda: ss2tf(GOOD_A, GOOD_B, GOOD_C, "0"), TypeError, r"D must be a number"),
        (lambda: zp2tf([1 + 1j], [-1], 1), ValueError,
         r"z must contain real values or complex conjugate"),
        (lambda: zp2tf([], [-1 + 1j, -1 - 2j], 1), ValueError, r"p must contain real values"),
        (lambda: zp2tf([], [-1], 1j), TypeError, r"k must be a real number"),
        (lambda: zp2tf([], [-1], np.inf), ValueError, r"k must be a finite number"),
        (lambda: minreal([1], [1, 1], tol=0), ValueError, r"tol must be positive"),
        (lambda: balred(np.diag([-1.0, 0.5]), [[1], [1]], [[1, 1]], 0, 1), ValueError,
         r"balred needs a stable A .* eigenvalue 0.5"),
        (lambda: balred([[0.0]], [[1]], [[1]], 0, 1), ValueError, r"balred needs a stable A"),
        (lambda: hankel_singular_values([[1.0]], [[1]], [[1]]), ValueError,
         r"hankel_singular_values needs a stable A"),
        (lambda: balred(GOOD_A, GOOD_B, GOOD_C, GOOD_D, 3), ValueError,
         r"order must satisfy 0 <= order <= n = 2"),
        (lambda: balred(GOOD_A, GOOD_B, GOOD_C, GOOD_D, -1), ValueError, r"order must satisfy"),
        (lambda: balred(GOOD_A, GOOD_B, GOOD_C, GOOD_D, 1.0), TypeError,
         r"order must be an integer"),
        (lambda: balred(GOOD_A, GOOD_B, GOOD_C, GOOD_D, 1, method="hankel"), ValueError,
         r"method must be one of 'truncate', 'matchdc'"),
        (lambda: TF([1], [0]), ValueError, r"den must not be the zero polynomial"),
        (lambda: TF([1, 2], [1, 3]) * "G", TypeError, r"num must be a number"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_bad_input_raises_clear_error(call, error, match):
    """Oracle: the error contract (python-control style messages naming the argument)."""
    with pytest.raises(error, match=match):
        call()


def test_improper_models_are_rejected_everywhere():
    """The issue's contract: deg num > deg den is bad input for every conversion and connection;
    the message names the arguments and their degrees."""
    cases = [
        (lambda: tf2zp([1, 2], 1), r"num/den is improper: deg num = 1 > deg den = 0"),
        (lambda: series([1, 2], 1, [1], [1, 1]), r"num1/den1 is improper"),
        (lambda: parallel([1], [1, 1], [1, 0, 0], [1, 1]), r"num2/den2 is improper"),
        (lambda: feedback([1], [1, 1], [1, 0, 1], [1]), r"num2/den2 is improper"),
        (lambda: minreal([1, 0, 0], [1, 1]), r"improper"),
        (lambda: zp2tf([-1, -2], [-3], 1), r"improper"),
    ]
    for make, message in cases:
        with pytest.raises(ValueError, match=message):
            make()




def test_ss2tf_keeps_a_tiny_gain():
    """Oracle: the input itself; 1e-12/(s+1)^3 must not come back as the zero transfer function."""
    num, den = ss2tf(*tf2ss([1e-12], [1, 3, 3, 1]))
    np.testing.assert_allclose(num, [0, 0, 0, 1e-12], rtol=1e-10, atol=0)
    np.testing.assert_allclose(den, [1, 3, 3, 1], rtol=1e-12)


def test_ss2tf_high_order_numerator_keeps_full_relative_accuracy():
    """Oracle: 1/((s+1)(s+2)...(s+15)); poly(A - BC) - poly(A) would cancel about 12 digits."""
    den = np.poly(-np.arange(1.0, 16.0))
    num, _ = ss2tf(*tf2ss([1.0], den))
    assert num[-1] == pytest.approx(1.0, rel=1e-9) and not num[:-1].any()


def test_ss2tf_with_zero_output_is_the_zero_transfer_function():
    num, den = ss2tf([[0, 1], [-2, -3]], [[0], [1]], [[0, 0]], 0)
    assert not num.any() and den.tolist() == [1.0, 3.0, 2.0]


# ---------------------------------------------------------------------------------------------
# The package: one module per concept, every name re-exported
# ---------------------------------------------------------------------------------------------

SUBMODULES = {
    "forms": {"TF"},
    "conversions": {"tf2ss", "ss2tf", "tf2zp", "zp2tf", "ss2zp", "zp2ss"},
    "interconnection": {"series", "parallel", "feedback"},
    "reduction": {"minreal", "MinrealResult", "hankel_singular_values", "balred", "BalredResult"},
    "pade_approximant": {"pade"},  # issue 16
}


@pytest.mark.parametrize("module", sorted(SUBMODULES))
def test_each_concept_module_holds_its_names_and_the_package_re_exports_them(module):
    """Oracle: the split of issue 12 (forms, conversions, interconnection, reduction)."""
    import importlib

    import simlab.lti

    submodule = importlib.import_module(f"simlab.lti.{module}")
    assert set(submodule.__all__) == SUBMODULES[module]
    for name in submodule.__all__:
        assert getattr(simlab.lti, name) is getattr(submodule, name)
        assert name in simlab.lti.__all__


def test_package_all_is_complete_and_the_lazy_top_level_names_are_the_same_objects():
    import simlab
    import simlab.lti

    assert set(simlab.lti.__all__) == set().union(*SUBMODULES.values())
    assert len(simlab.lti.__all__) == len(set(simlab.lti.__all__))
    for name in ("tf2ss", "ss2tf", "tf2zp", "zp2tf", "ss2zp", "zp2ss", "series", "parallel",
                 "feedback", "minreal", "balred", "hankel_singular_values", "TF", "pade"):
        assert getattr(simlab, name) is getattr(simlab.lti, name)


# ---------------------------------------------------------------------------------------------
# n = 0 states (a static gain): the rule of simlab.validation.as_state_space
# ---------------------------------------------------------------------------------------------


def test_static_gain_without_states_goes_through_every_state_space_function():
    """Oracle: MATLAB, G = 1.5 = ss([], zeros(0, 1), zeros(1, 0), 1.5): tf 1.5/1, no poles or
    zeros, no Hankel singular values, nothing to reduce."""
    A, B, C, D = tf2ss(3, 2)
    num, den = ss2tf(A, B, C, D)
    assert num.tolist() == [1.5] and den.tolist() == [1.0]
    z, p, k = ss2zp(A, B, C, D)
    assert z.size == 0 and p.size == 0 and k == 1.5
    assert hankel_singular_values(A, B, C).shape == (0,)
    reduced = balred(A, B, C, D, 0)
    assert reduced.A.shape == (0, 0) and reduced.D.tolist() == [[1.5]]


def test_empty_list_shorthand_for_a_model_without_states():
    num, den = ss2tf([], [], [], 2.0)
    assert num.tolist() == [2.0] and den.tolist() == [1.0]


def test_state_space_shape_errors_are_the_validation_messages():
    """Oracle: simlab.validation.as_state_space, the one checker (same text as lsim's)."""
    from simlab.validation import as_state_space

    bad = (GOOD_A, [[1], [2], [3]], GOOD_C, GOOD_D)
    with pytest.raises(ValueError) as expected:
        as_state_space(*bad)
    with pytest.raises(ValueError) as got:
        ss2tf(*bad)
    assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): coefficients beyond the floating-point range are refused with the
# argument named, instead of a wrong answer (a zero numerator, an "ill-posed" loop, inf, NaN)
# ---------------------------------------------------------------------------------------------


def test_series_whose_numerator_overflows_is_refused_not_returned_as_zero():
    """Oracle: 1e200 * 1e200 = 1e400 > 1.8e308; _combine used to zero the inf (inf <= inf)."""
    with pytest.raises(ValueError, match=r"series: the polynomial product num1 num2 overflows the "
                                         r"floating-point range, about 2.2e-308 to 1.8e308 in size "
                                         r"\(num1 up to 1e\+200 in size"):
        series([1e200], [1.0], [1e200], [1.0])


def test_feedback_whose_loop_gain_overflows_is_refused_not_called_ill_posed():
    with pytest.raises(ValueError, match=r"feedback: the polynomial product num1 num2 overflows") as caught:
        feedback([1e200], [1.0], [1e200], [1.0])
    assert "ill-posed" not in str(caught.value)


def test_parallel_whose_numerator_sum_overflows_names_both_products():
    with pytest.raises(ValueError, match=r"parallel: the polynomial sum num1 den2 \+ num2 den1 overflows"):
        parallel([1e308], [1.0], [1e308], [1.0])


def test_products_whose_leading_coefficient_underflows_are_refused():
    """Oracle: 1e-200 * 1e-200 = 1e-400 underflows to 0: the numerator (or the degree) would be lost."""
    with pytest.raises(ValueError, match=r"series: the polynomial product num1 num2 underflows"):
        series([1e-200], [1.0], [1e-200], [1.0])
    with pytest.raises(ValueError, match=r"series: the polynomial product den1 den2 underflows .*"
                                         r"\(leading 1e-200\)"):
        series([1.0], [1e-200, 1.0], [1.0], [1e-200, 1.0])


def test_a_negligible_product_that_underflows_is_fine():
    """Oracle: G/(1 + GH) = 1e-200 / (1 + 1e-400) = 1e-200 / 1 in floating point."""
    num, den = feedback([1e-200], [1.0], [1e-200], [1.0])
    assert num.tolist() == [1e-200] and den.tolist() == [1.0]


@pytest.mark.parametrize("call, name", [
    (lambda: tf2ss([1.0, 2.0], [1e-320, 1.0]), "den"),
    (lambda: series([1.0], [1e-320, 1.0], [2.0], [1.0, 2.0]), "den1"),
    (lambda: parallel([1.0], [1.0, 1.0], [2.0], [1e-320, 2.0]), "den2"),
    (lambda: feedback([1.0], [1e-320, 1.0], [2.0], [1.0, 2.0]), "den1"),
    (lambda: minreal([1.0], [1e-320, 1.0]), "den"),
    (lambda: TF([1.0], [1e-320, 1.0]), "den"),
])
def test_a_pole_beyond_the_floating_point_range_is_refused_naming_the_denominator(call, name):
    """Oracle: den = [1e-320, 1] has a pole at -1e320; tf2ss returned A = -inf, C = NaN."""
    with pytest.raises(ValueError, match=rf"^{name} is out of the coefficient range: the leading "
                                         rf"coefficient of {name}, 9.99989e-321, is too small next to "
                                         rf"the others .* so do the poles \(ratios to the leading "
                                         rf"coefficient of {name} must stay below about 1.8e308\)"):
        call()


def test_zeros_and_gains_beyond_the_floating_point_range_are_refused_naming_num():
    with pytest.raises(ValueError, match=r"^num is out of the coefficient range: .* so do the zeros"):
        tf2zp([1e-320, 1.0], [1.0, 1.0, 1.0])  # a zero at -1e320: np.roots raised LinAlgError
    with pytest.raises(ValueError, match=r"^num is out of the coefficient range: the leading "
                                         r"coefficient of den, 1e-10, is too small next to num .* "
                                         r"so does the realization of tf2ss"):
        tf2ss([1e300], [1e-10, 1.0])


@pytest.mark.parametrize("call, message", [
    (lambda: tf2ss([1e200, 0.0], [1.0, 1e200]), r"tf2ss: the result overflows .* for these num and den"),
    (lambda: zp2tf([1e200, 1e200], [-1.0, -2.0, -3.0], 1.0),
     r"zp2tf: the result overflows .* for these z, p and k"),
    (lambda: ss2tf([[1e200, 0.0], [0.0, 1e200]], [[1.0], [1.0]], [[1.0, 1.0]], 0.0),
     r"ss2tf: the result overflows .* for these A, B, C and D"),
    (lambda: hankel_singular_values([[0.0, 1.0], [-2.0, -3.0]], [[1e200], [1.0]], [[1.0, 0.0]]),
     r"A, B and C are out of range for balancing: B B\^T overflows"),
])
def test_results_that_overflow_are_refused(call, message):
    """Before: inf or NaN coefficients returned (with a RuntimeWarning), or LAPACK's 'array must
    not contain infs or NaNs' for the Gramians."""
    with pytest.raises(ValueError, match=message):
        call()


def test_valid_connections_are_unchanged_by_the_range_checks():
    """Oracle: exact integer polynomial products (the docstring examples)."""
    assert [c.tolist() for c in series([1], [1, 1], [1, 1], [1, 2])] == [[1.0, 1.0], [1.0, 3.0, 2.0]]
    assert [c.tolist() for c in parallel([1], [1, 1], [1], [1, 2])] == [[2.0, 3.0], [1.0, 3.0, 2.0]]
    assert [c.tolist() for c in feedback([1], [1, 4, 8, 5], 1, 1)] == [[1.0], [1.0, 4.0, 8.0, 6.0]]
    with pytest.raises(ValueError, match=r"The feedback loop is ill-posed"):
        feedback([1.0], [1.0], [1.0], [1.0], sign=1)


def test_evaluating_a_transfer_function_at_a_pole_or_beyond_the_range_is_refused():
    """Before: inf (or inf + nan j) with a RuntimeWarning printed."""
    G = TF([1.0], [1.0, 1.0])
    assert G(1.0) == 0.5 and G(np.array([1j]))[0] == pytest.approx(0.5 - 0.5j)
    with pytest.raises(ValueError, match=r"^s = -1 is a pole of G \(den\(s\) = 0\): G\(s\) is infinite there"):
        G(-1.0)
    with pytest.raises(ValueError, match=r"^s = -1\+0j is a pole of G"):
        G(np.array([0.0, -1.0 + 0j]))
    with pytest.raises(ValueError, match=r"^s is too large: num\(s\) or den\(s\) overflows .* for \|s\| up "
                                         r"to 1e\+200 \(they grow like \|s\|\^3\)"):
        TF([1.0], [1.0, 0.0, 0.0, 0.0])(1e200)
