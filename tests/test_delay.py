"""Pure delay e^{-tau s} (issue 16): lsim(input_delay=tau), the shift register, Padé approximants.

Oracles: sympy closed forms (inverse Laplace transforms, the method of steps, the Padé series
condition), scipy's solve_ivp (DOP853 at rtol 1e-12 on the pieces between the input's switching
times) and quad_vec (the gain integrals), python-control's ``pade`` and ``forced_response``.
"""

import math

import control
import numpy as np
import pytest
import sympy as sp
from scipy import linalg
from scipy.integrate import quad_vec, solve_ivp

import simlab
from simlab.delay import DelayLine, discretize_delay, split_delay
from simlab.delay_approximation import compare_pade
from simlab.elementwise import simulate_elements
from simlab.lti import pade
from simlab.similarity import LSIM_METHODS, lsim
from simlab.structure import closed_loop

K, TC = 2.0, 0.7  # the first-order plant K / (Tc s + 1)
A1, B1, C1 = [[-1 / TC]], [K / TC], [1.0]
#: A grid whose step T = 0.1 is no divisor of the delays below: the delayed step switches
#: between samples.
GRID = np.linspace(0.0, 3.0, 31)
FRACTIONAL = (0.05, 0.123, 0.37, 1.2345, 2.95)


def _delayed_first_order_step():
    """y(t) = K (1 - e^{-(t - tau)/Tc}) H(t - tau), by sympy's inverse Laplace transform."""
    s, t, tau = sp.symbols("s t tau", positive=True)
    Ks, Tcs = sp.Rational(2), sp.Rational(7, 10)
    y = sp.inverse_laplace_transform(Ks * sp.exp(-tau * s) / (s * (Tcs * s + 1)), s, t)
    return sp.lambdify((t, tau), y.rewrite(sp.Piecewise), "numpy")


CLOSED_FORM = _delayed_first_order_step()


def _closed_form(t, tau):
    return np.array([float(CLOSED_FORM(tk, tau)) if tk != tau else 0.0 for tk in t])


# --- lsim(input_delay=tau) ---


@pytest.mark.parametrize("hold", ["zoh", "foh"])
@pytest.mark.parametrize("tau", FRACTIONAL)
def test_delayed_first_order_step_is_the_sympy_closed_form_at_fractional_delays(tau, hold):
    exact = _closed_form(GRID, tau)
    for method in LSIM_METHODS:
        t, y = lsim(A1, B1, C1, 0.0, np.ones(31), GRID, hold=hold, method=method, input_delay=tau)
        assert np.max(np.abs(y - exact)) < 1e-12, method


def test_a_step_switched_on_between_samples_arrives_tau_later():
    # u = H(t - 0.3) held: the system sees H(t - 0.3 - tau), closed form shifted by 0.3
    u = (GRID >= 0.3 - 1e-12).astype(float)
    for tau in (0.04, 0.37):
        t, y = lsim(A1, B1, C1, 0.0, u, GRID, input_delay=tau)
        assert np.max(np.abs(y - _closed_form(GRID, tau + 0.3))) < 1e-12


def _solve_ivp_delayed(A, B, C, D, u, t, tau, hold):
    """y(t_k) of dx/dt = A x + B w(t), w(t) = u_held(t - tau) (0 before t0), by DOP853 per piece."""
    def w(time):
        s = time - tau
        if s < t[0]:
            return np.zeros(u.shape[1])
        if hold == "zoh":
            return u[min(int(np.floor((s - t[0]) / (t[1] - t[0]) + 1e-9)), len(t) - 1)]
        return np.array([np.interp(s, t, u[:, j]) for j in range(u.shape[1])])

    breaks = np.unique(np.concatenate([t, t + tau]))
    breaks = breaks[breaks <= t[-1]]
    x, states = np.zeros(len(A)), {t[0]: np.zeros(len(A))}
    for a, b in zip(breaks[:-1], breaks[1:], strict=True):
        mid = 0.5 * (a + b)  # the held input is smooth inside a piece; zoh is constant there
        sol = solve_ivp(lambda time, x, mid=mid: A @ x + B @ (w(mid) if hold == "zoh" else w(time)), (a, b), x,
                        method="DOP853", rtol=1e-12, atol=1e-14)
        x = sol.y[:, -1]
        states[b] = x
    X = np.array([states[tk] for tk in t])
    W = np.array([w(tk) for tk in t])
    return X @ C.T + W @ D.T


@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_a_third_order_two_input_system_matches_solve_ivp_on_a_delayed_held_input(hold):
    rng = np.random.default_rng(16)
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-6.0, -11.0, -6.0]])  # poles -1, -2, -3
    B = rng.standard_normal((3, 2))
    C = rng.standard_normal((2, 3))
    D = rng.standard_normal((2, 2))
    t = np.linspace(0.0, 4.0, 41)
    u = rng.standard_normal((41, 2))
    for tau in (0.137, 1.05):
        y = lsim(A, B, C, D, u, t, hold=hold, input_delay=tau).y
        reference = _solve_ivp_delayed(A, B, C, D, u, t, tau, hold)
        assert np.max(np.abs(y - reference)) < 1e-10


@pytest.mark.parametrize("method", LSIM_METHODS)
def test_integer_multiples_of_T_are_lsim_of_the_shifted_input(method):
    rng = np.random.default_rng(3)
    A, B, C = [[0.0, 1.0], [-2.0, -0.5]], [[0.0], [1.0]], [[1.0, 0.3]]
    t = np.linspace(0.0, 5.0, 51)
    u = rng.standard_normal(51)
    for d, tau in ((3, 0.3), (10, 1.0)):  # 0.3 / 0.1 = 2.9999999999999996 in floating point
        shifted = np.concatenate([np.zeros(d), u[:-d]])
        delayed = lsim(A, B, C, 0.5, u, t, method=method, input_delay=tau)
        plain = lsim(A, B, C, 0.5, shifted, t, method=method)
        assert np.array_equal(delayed.y, plain.y) and np.array_equal(delayed.x, plain.x)
        # the triangle hold: the same when u[0] = 0 (else the delayed input jumps at tau, where
        # the shifted samples would ramp over the interval before it)
        u0 = np.concatenate([[0.0], u[1:]])
        shifted0 = np.concatenate([np.zeros(d), u0[:-d]])
        delayed = lsim(A, B, C, 0.5, u0, t, hold="foh", method=method, input_delay=tau).y
        plain = lsim(A, B, C, 0.5, shifted0, t, hold="foh", method=method).y
        if method == "block":
            assert np.array_equal(delayed, plain)
        assert np.max(np.abs(delayed - plain)) < 1e-14


@pytest.mark.parametrize("hold", ["zoh", "foh"])
@pytest.mark.parametrize("method", LSIM_METHODS)
def test_zero_delay_is_the_undelayed_lsim_bit_for_bit(method, hold):
    rng = np.random.default_rng(5)
    A = np.array([[-1.0, 2.0], [-3.0, -0.4]])
    u, t = rng.standard_normal((21, 1)), np.linspace(0, 2, 21)
    plain = lsim(A, [[1.0], [0.5]], [[1.0, 0.0]], 0.2, u, t, hold=hold, method=method)
    for zero in (0, 0.0, -0.0, np.float64(0.0)):
        delayed = lsim(A, [[1.0], [0.5]], [[1.0, 0.0]], 0.2, u, t, hold=hold, method=method, input_delay=zero,
                       u_before=7.0)  # no delay: no history seen
        assert np.array_equal(delayed.y, plain.y) and np.array_equal(delayed.x, plain.x)
        assert repr(delayed) == repr(plain) and delayed.input_delay == 0.0


@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_the_response_is_continuous_as_tau_approaches_a_multiple_of_T(hold):
    rng = np.random.default_rng(7)
    A, B, C = [[0.0, 1.0], [-4.0, -0.8]], [[0.0], [1.0]], [[1.0, 0.0]]
    t, u = np.linspace(0, 4, 41), rng.standard_normal(41)
    u[0] = 0.0  # no jump at t0 + tau: the triangle-hold input is continuous, and so its output
    at = lsim(A, B, C, 0.3, u, t, hold=hold, input_delay=0.3)
    for eps in (1e-5, 1e-10):
        for tau in (0.3 - eps, 0.3 + eps):
            near = lsim(A, B, C, 0.3, u, t, hold=hold, input_delay=tau)
            assert np.max(np.abs(near.x - at.x)) < 10 * eps  # the states are continuous in tau
            if hold == "foh":  # the zoh output jumps with u(t_k - tau) seen through D
                assert np.max(np.abs(near.y - at.y)) < 10 * eps
    tiny = lsim(A, B, C, 0.0, u, t, hold=hold, input_delay=1e-9).x  # and at tau -> 0
    assert np.max(np.abs(tiny - lsim(A, B, C, 0.0, u, t, hold=hold).x)) < 1e-8


def test_a_delay_longer_than_the_span_gives_the_free_response():
    A, x0 = [[0.0, 1.0], [-2.0, -0.3]], [1.0, -0.5]
    t, u = np.linspace(0, 2, 21), np.ones(21)
    free = lsim(A, [[0.0], [1.0]], [[1.0, 0.0]], 0.0, np.zeros(21), t, x0=x0).y
    for tau in (2.5, 10.0, 1e5):  # 1e5 is 1e6 steps of T = 0.1, within simlab.guards.MAX_STEPS
        y = lsim(A, [[0.0], [1.0]], [[1.0, 0.0]], 0.0, u, t, x0=x0, input_delay=tau).y
        assert np.max(np.abs(y - free)) < 1e-14


def test_u_before_is_the_input_the_system_sees_until_tau():
    # at rest in equilibrium with the input c = 0.4 (x0 = K c); u = 1 from t0: a delayed step of 1 - c
    c, tau = 0.4, 0.37
    for hold in ("zoh", "foh"):
        t, y = lsim(A1, B1, C1, 0.0, np.ones(31), GRID, hold=hold, x0=[K * c], input_delay=tau, u_before=c)
        assert np.max(np.abs(y - (K * c + (1 - c) * _closed_form(GRID, tau)))) < 1e-12


@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_a_static_gain_outputs_the_delayed_samples(hold):
    t, u = np.linspace(0, 1, 11), np.arange(11.0)
    y = lsim([], [], [], 2.0, u, t, hold=hold, input_delay=0.15).y
    s = t - 0.15
    if hold == "zoh":
        expected = np.where(s >= 0, np.floor(np.round(s / 0.1, 9)), 0.0)
    else:
        expected = np.where(s >= 0, np.interp(s, t, u), 0.0)
    assert np.max(np.abs(y - 2.0 * expected)) < 1e-13


def test_the_gains_are_the_integrals_they_stand_for():
    A = np.array([[0.0, 1.0], [-3.0, -1.2]])
    B = np.array([[0.2], [1.0]])
    T, tau = 0.4, 1.0  # d = 2, theta = 0.2
    z = discretize_delay(A, B, T, tau, hold="foh")
    theta = tau - 2 * T
    assert (z.d, round(z.theta, 15)) == (2, round(theta, 15))

    lam, V = np.linalg.eig(A)  # distinct eigenvalues: e^{At} = V e^{lambda t} V^-1
    V_inv_B = np.linalg.solve(V, B)

    def kernel(s, weight):  # e^{A (T - s)} B weight(s), s in [0, T]: the step's input at t_k + s
        return (V @ (np.exp(lam * (T - s))[:, None] * V_inv_B)).real * weight(s)

    quad = lambda w, a, b: quad_vec(lambda s: kernel(s, w), a, b, epsabs=1e-15)[0]  # noqa: E731
    # the first part of the step (s < theta) sees interval k-d-1 at r = T - theta + s: weight of
    # its right end b = r / T; the second part interval k-d at r = s - theta
    assert np.allclose(z.Gamma_1, quad(lambda s: 1.0, 0, theta), rtol=0, atol=1e-13)
    assert np.allclose(z.Gamma_1_hat, quad(lambda s: (T - theta + s) / T, 0, theta), rtol=0, atol=1e-13)
    assert np.allclose(z.Gamma_2, quad(lambda s: 1.0, theta, T), rtol=0, atol=1e-13)
    assert np.allclose(z.Gamma_2_hat, quad(lambda s: (s - theta) / T, theta, T), rtol=0, atol=1e-13)
    assert np.allclose(z.Phi, linalg.expm(A * T), rtol=0, atol=1e-14)
    zoh = discretize_delay(A, B, T, tau)
    assert np.array_equal(zoh.Gamma_1_hat, np.zeros((2, 1))) and np.allclose(zoh.Gamma_1, z.Gamma_1, atol=1e-15)


def test_split_delay_snaps_rounding_to_the_multiple():
    assert split_delay(0.3, 0.1) == (3, 0.0) and split_delay(0.7, 0.1) == (7, 0.0)
    assert split_delay(0.1 * 3, 0.1) == (3, 0.0)
    d, theta = split_delay(0.35, 0.1)
    assert d == 3 and abs(theta - 0.05) < 1e-15
    assert split_delay(0.0, 0.1) == (0, 0.0) and split_delay(1e-20, 0.1) == (0, 1e-20)


@pytest.mark.parametrize("tau, error, message", [
    (-0.1, ValueError, "input_delay must lie in"), (float("nan"), ValueError, "input_delay must be a finite"),
    (float("inf"), ValueError, "input_delay must be a finite"), ("0.1", TypeError, "input_delay must be a real"),
    (1j, TypeError, "input_delay must be a real"), (None, TypeError, "input_delay must be a real")])
def test_a_bad_delay_is_refused_naming_input_delay(tau, error, message):
    with pytest.raises(error, match=message):
        lsim(A1, B1, C1, 0.0, np.ones(31), GRID, input_delay=tau)


def test_u_before_must_have_one_value_per_input():
    with pytest.raises(ValueError, match=r"u_before must be a number or one value per input, shape \(1,\)"):
        lsim(A1, B1, C1, 0.0, np.ones(31), GRID, input_delay=0.2, u_before=[1.0, 2.0])


# --- The shift register ---


def test_the_delay_line_is_exact_for_a_multiple_of_h():
    rng = np.random.default_rng(11)
    u = rng.standard_normal(200)
    for d in (0, 1, 5):
        y = DelayLine(tau=d * 0.1, h=0.1, initial=-2.0).response(u)
        assert np.array_equal(y, np.concatenate([np.full(d, -2.0), u[: len(u) - d]]))


def test_the_delay_line_interpolation_error_is_theta_h_minus_theta_over_two_times_u_second_derivative():
    h, omega = 0.1, 1.0
    t = np.arange(0, 40, h)
    for tau in (0.25, 0.33, 1.07):
        theta = tau - np.floor(tau / h + 1e-12) * h
        y = DelayLine(tau, h).response(np.sin(omega * t))
        late = t >= tau + h  # both samples around t - tau exist
        error = np.max(np.abs(y[late] - np.sin(omega * (t[late] - tau))))
        bound = theta * (h - theta) / 2 * omega**2  # max |u''| = omega^2
        assert 0.95 * bound < error <= bound * (1 + 1e-9)
        assert bound <= h**2 / 8
    ramp = DelayLine(0.25, h).response(2 * t + 1)  # linear between the samples: exact
    assert np.max(np.abs(ramp[t >= 0.35] - (2 * (t[t >= 0.35] - 0.25) + 1))) < 1e-13


def test_push_call_step_and_response_agree_and_reset_forgets():
    u = np.sin(np.arange(30.0))
    line = DelayLine(0.37, 0.1)
    by_step = [line.step(value) for value in u]
    line.reset()
    first, rest = line.response(u[:10]), line.response(u[10:])
    assert np.allclose(by_step, np.concatenate([first, rest]), rtol=0, atol=1e-15)
    line.reset()
    line.push(1.0)
    assert line() == 0.0 and repr(line) == "DelayLine(tau=0.37, h=0.1, d=3, theta=0.07)"


def _graph_with_delay_ahead_of_a_loop():
    # r -> 1/(0.5 s + 1) -> e^{-tau s} -> [loop: 2/s, 1/(s + 1), unity feedback] -> y
    P = [[1.0, 0.5, 1.0, 0.0], [0.0, 1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 0.0]]
    W = [[0.0, 0.0, 0.0], [1.0, 0.0, -1.0], [0.0, 1.0, 0.0]]
    return P, W, [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]


def test_a_delay_in_per_element_simulation_converges_to_the_delayed_lsim_of_the_loop():
    P, W, W0, Wc = _graph_with_delay_ahead_of_a_loop()
    A, B, C = closed_loop(P, W, W0, Wc)  # the delay commutes with the loop: y = L(s) e^{-tau s} r
    for tau in (0.8, 0.83):
        errors = []
        for T in (0.02, 0.01, 0.005):
            run = simulate_elements(P, W, W0, Wc, 1.0, (0.0, 6.0), T, delays={(1, "output"): tau})
            exact = lsim(A, B, C, 0.0, np.ones(len(run.t)), run.t, input_delay=tau).y
            errors.append(np.max(np.abs(run.y - exact)))
        assert errors[-1] < 0.02
        assert 1.7 < errors[0] / errors[1] < 2.3 and 1.7 < errors[1] / errors[2] < 2.3  # first order in T


def test_an_element_fed_a_delayed_step_is_exact_for_a_multiple_of_T():
    # one inertia element, the step delayed by 3 T on its input: a held input, exact like lsim
    T = 0.05
    run = simulate_elements([[1.0, TC, K, 0.0]], [[0.0]], [1.0], [1.0], 1.0, (0.0, 2.0), T,
                            delays={(1, "input"): 3 * T})
    exact = lsim(A1, B1, C1, 0.0, np.ones(len(run.t)), run.t, input_delay=3 * T).y
    assert np.max(np.abs(run.y - exact)) < 1e-14


def _method_of_steps(Kp, tau, pieces):
    """y' = -y + Kp (1 - y(t - tau)) for t >= tau, y = 0 before: sympy, one interval at a time."""
    t, s = sp.symbols("t s", real=True)
    previous, parts = sp.Integer(0), []
    start_value = sp.Integer(0)
    for j in range(1, pieces + 1):
        a = j * tau
        forcing = Kp * (1 - previous.subs(t, s - tau))
        y = sp.exp(-(t - a)) * start_value + sp.integrate(sp.exp(-(t - s)) * forcing, (s, a, t))
        parts.append((sp.lambdify(t, y, "numpy"), a, a + tau))
        previous, start_value = y, y.subs(t, a + tau)
    return parts


def test_a_delay_inside_the_loop_converges_to_the_method_of_steps_closed_form():
    # 1/(s + 1) with its input Kp (r - y) delayed by tau (a dead-time loop): y' = -y + Kp (1 - y(t - tau))
    Kp, tau = sp.Rational(3, 2), sp.Rational(1, 2)
    parts = _method_of_steps(Kp, tau, 3)

    def exact(t):
        y = np.zeros_like(t)
        for f, a, b in parts:
            inside = (t >= float(a)) & (t <= float(b))
            y[inside] = f(t[inside])
        return y

    errors = []
    for T in (0.01, 0.005):
        run = simulate_elements([[1.0, 1.0, 1.0, 0.0]], [[-1.5]], [1.5], [1.0], 1.0, (0.0, 2.0), T,
                                delays={(1, "input"): 0.5})
        errors.append(np.max(np.abs(run.y - exact(run.t))))
    assert errors[1] < 0.01 and 1.7 < errors[0] / errors[1] < 2.3


def test_delays_are_checked_and_a_delay_line_must_match_T():
    graph = ([[1.0, 1.0, 1.0, 0.0]], [[0.0]], [1.0], [1.0], 1.0, (0.0, 1.0), 0.1)
    with pytest.raises(ValueError, match=r"delays\[\(1, 'input'\)\] must lie in"):
        simulate_elements(*graph, delays={(1, "input"): -0.5})
    with pytest.raises(ValueError, match="delays: element number must be 1..1"):
        simulate_elements(*graph, delays={(2, "input"): 0.5})
    with pytest.raises(TypeError, match="delays must be a dict"):
        simulate_elements(*graph, delays=[0.5])
    with pytest.raises(ValueError, match="whose sample spacing h is not the step"):
        simulate_elements(*graph, nonlinear={(1, "input"): DelayLine(0.5, 0.05)})


# --- Padé approximants ---


@pytest.mark.parametrize("tau", [1e-3, 0.1, 1.0, 2.5, 30.0])
def test_pade_equals_python_control_pade(tau):
    for n in range(1, 11):
        for ours, theirs in zip(pade(tau, n), control.pade(tau, n), strict=True):
            assert np.allclose(ours, theirs, rtol=1e-14, atol=0)


def test_pade_agrees_with_the_delay_to_order_2n_the_defining_condition():
    # den(s) e^{-tau s} - num(s) = O(s^{2n+1}): its Taylor coefficients up to s^{2n} vanish, in
    # exact rational arithmetic (sympy) from the float coefficients pade returns
    s = sp.symbols("s")
    tau = sp.Rational(3, 4)
    for n in (1, 2, 3, 6):
        num, den = (sp.Poly([sp.Rational(c) for c in p], s) for p in pade(0.75, n))
        exponential = sp.Poly(sum((-tau * s) ** k / sp.factorial(k) for k in range(2 * n + 2)), s)
        residual = (den * exponential - num).all_coeffs()[::-1]  # ascending powers of s
        size = lambda poly: sp.Poly([abs(c) for c in poly.all_coeffs()], s)  # noqa: E731
        scale = (size(den) * size(exponential) + size(num)).all_coeffs()[::-1]  # of each term
        relative = [abs(float(r / c)) for r, c in zip(residual, scale, strict=True)]
        assert max(relative[: 2 * n + 1]) < 1e-14
        assert relative[2 * n + 1] > 1e-6  # and no further
    assert [c.tolist() for c in pade(0.0, 3)] == [[1.0], [1.0]]
    assert simlab.pade is pade


def test_compare_pade_on_the_delay_alone_matches_the_closed_forms():
    t = np.linspace(0.0, 4.0, 4001)
    result = compare_pade([1.0], [1.0], tau=1.0, t=t, orders=(1, 2))
    assert np.array_equal(result.y, (t >= 1.0).astype(float))
    first, second = result.order(1), result.order(2)
    assert np.max(np.abs(first.y - (1 - 2 * np.exp(-2 * t)))) < 1e-12  # sympy: 1 - 2 e^{-2t/tau}
    assert np.max(np.abs(second.y - (1 - 4 * np.sqrt(3) * np.exp(-3 * t) * np.sin(np.sqrt(3) * t)))) < 1e-12
    assert (first.initial_value, second.initial_value) == (-1.0, 1.0)  # (-1)^n at t = 0+
    assert first.max_error == 1.0 and first.t_max_error == 0.0 and first.max_error_before_tau == 1.0
    assert abs(first.first_crossing - math.log(2) / 2) < 1e-6
    # order 2 crosses zero where sin(sqrt(3) t) e^{-3t} = 1 / (4 sqrt(3)): sympy's nsolve
    tt = sp.symbols("t")
    root = float(sp.nsolve(1 - 4 * sp.sqrt(3) * sp.exp(-3 * tt) * sp.sin(sp.sqrt(3) * tt), tt, 0.12))
    assert abs(second.first_crossing - root) < 1e-5  # linear interpolation on the grid h = 1e-3


def test_compare_pade_on_a_first_order_plant_matches_the_closed_forms():
    t = np.linspace(0.0, 6.0, 3001)
    result = compare_pade([1.0], [1.0, 1.0], tau=1.0, t=t, orders=(1, 2, 3, 4))
    exact = np.where(t >= 1.0, 1 - np.exp(-(t - 1.0)), 0.0)
    assert np.max(np.abs(result.y - exact)) < 1e-12
    first = result.order(1)
    y1 = 1 - 3 * np.exp(-t) + 2 * np.exp(-2 * t)  # sympy: L^-1[(1 - s/2) / ((s + 1)(1 + s/2) s)]
    assert np.max(np.abs(first.y - y1)) < 1e-12
    assert first.initial_value == 0.0
    error = np.abs(y1 - exact)
    assert abs(first.max_error - error.max()) < 1e-12 and first.t_max_error == t[np.argmax(error)]
    assert abs(first.max_error_before_tau - np.max(np.abs(y1[t < 1.0]))) < 1e-12
    assert abs(first.y.min() + 1 / 8) < 1e-6  # the undershoot, -1/8 at t = ln(4/3)
    assert abs(first.first_crossing - math.log(2)) < 1e-6  # y1 = 0 at e^{-t} = 1/2 (grid h = 2e-3)
    for row in result.rows[1:]:  # python-control: its own pade and series, its own solver
        model = control.series(control.tf([1.0], [1.0, 1.0]), control.tf(*control.pade(1.0, row.order)))
        reference = control.forced_response(model, T=t, U=np.ones_like(t)).outputs
        assert np.max(np.abs(row.y - reference)) < 1e-9
    assert [row.max_error_before_tau for row in result.rows] == sorted(
        [row.max_error_before_tau for row in result.rows], reverse=True)


def test_compare_pade_initial_value_is_minus_one_to_the_n_times_the_plant_feedthrough():
    t = np.linspace(0.0, 2.0, 201)
    result = compare_pade([0.5, 3.0], [1.0, 2.0], tau=0.5, t=t)  # G(inf) = 0.5
    assert [row.initial_value for row in result.rows] == pytest.approx([-0.5, 0.5, -0.5, 0.5], abs=1e-14)
    t_, y = result
    assert t_ is result.t and y is result.y
    assert repr(result) == "PadeComparison(tau=0.5, steps=200, orders=(1, 2, 3, 4))"
    with pytest.raises(KeyError, match="order n = 5 was not compared"):
        result.order(5)


@pytest.mark.parametrize("orders, error, message", [
    ((), ValueError, "at least one"), ((1, 1), ValueError, "distinct"), ((0,), ValueError, "orders must be between"),
    ((11,), ValueError, "orders must be between"), (2, TypeError, "orders must be a sequence"),
    ("12", TypeError, "orders must be a sequence"), ((1.5,), TypeError, "orders must be an integer")])
def test_compare_pade_checks_the_orders(orders, error, message):
    with pytest.raises(error, match=message):
        compare_pade([1.0], [1.0, 1.0], 1.0, np.linspace(0, 1, 11), orders=orders)


# ---------------------------------------------------------------------------------------------
# Extreme input names its argument (issue 23)
# ---------------------------------------------------------------------------------------------


def test_a_delayed_step_whose_exponential_overflows_names_a_and_b():
    """Rule: B h = 1e307 in the augmented matrix of the sub-step overflows e^M."""
    with pytest.raises(ValueError, match=r"\[\[A h, B h\], \[0, 0\]\].*B of a moderate size.*1e\+308"):
        discretize_delay([[0.0, 1.0], [-2.0, -3.0]], [[0.0], [1e308]], T=0.2, tau=0.1)


@pytest.mark.parametrize("m, error", [(None, TypeError), (2.5, TypeError), (0, ValueError), (10**20, ValueError)])
def test_as_history_names_m_the_number_of_inputs(m, error):
    from simlab.delay import as_history

    with pytest.raises(error, match=r"\bm must be .*number of inputs|\bm must be an integer"):
        as_history([0.0, 1.0], m)


def test_pade_comparison_order_names_n_and_is_still_a_key_error():
    """Rule: an order that was not compared is a ValueError naming n (and a KeyError, as it was)."""
    result = compare_pade([1.0], [1.0], 1.0, np.linspace(0, 5, 51), orders=(1, 2))
    with pytest.raises(ValueError, match=r"order n = 3 was not compared; the orders are \[1, 2\]") as info:
        result.order(3)
    assert isinstance(info.value, KeyError)
    with pytest.raises(TypeError, match=r"n must be an integer"):
        result.order(True)
    assert result.order(2).order == 2


def test_compare_pade_names_num_when_the_product_with_the_approximant_overflows():
    with pytest.raises(ValueError, match=r"num, den \(G\(s\)\) times the Padé approximant of order 1"):
        compare_pade([1e308], [1.0], 1.0, np.linspace(0, 5, 51), orders=(1,))
