"""simlab.realtime: real-time algorithms (实时仿真算法) in a frame loop with a sampled input, issue 16.

Oracles: sympy (Taylor expansion of one frame of the library's own frame functions against the
exact solution's Taylor series, on a nonlinear model with a time-varying input; the stability
function of one frame on y' = lambda y), closed-form solutions by sympy's dsolve (measured
orders), solve_ivp with DOP853 at rtol 1e-13 (a nonlinear plant), and the definitions of
CONVENTIONS16 / Howe (1995): evaluation i of s runs from t_n + i h/s and may use only samples
taken by then.
"""

import random

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab import stability
from simlab.guards import UnstableRunError
from simlab.realtime import REAL_TIME_METHODS, input_schedule, simulate_real_time

# ---------------------------------------------------------------------------------------------
# Order of one frame: sympy Taylor expansion
# ---------------------------------------------------------------------------------------------


def frame_local_error(name, m=None, missing_input="error", terms=4, seed=0):
    """Coefficients of h^0 .. h^terms in (one frame) - (exact solution), for the model
    f(t, x, u) = a1 x + a2 x^2 + b1 u + b2 x u with u(t) = u0 + u1 t + u2 t^2 + u3 t^3.

    The exact Taylor series comes from the total derivative D = d/dt + F d/dx of
    F(t, x) = f(t, x, u(t)). The coefficients, t_n and x_n are random rationals (a polynomial
    identity that holds at random points holds everywhere, with probability 1), so sympy
    expands polynomials in h only. Returns the coefficients and the values used."""
    rng = random.Random(seed)
    rational = lambda: sp.Rational(rng.randint(-9, 9) or 1, rng.randint(1, 9))  # noqa: E731
    h, tau, xi = sp.symbols("h tau xi")
    t, x = rational(), rational()
    a1, a2, b1, b2, u0, u1, u2, u3 = (rational() for _ in range(8))
    u = lambda s: u0 + u1 * s + u2 * s**2 + u3 * s**3  # noqa: E731
    f = lambda tt, xx, uu: a1 * xx + a2 * xx**2 + b1 * uu + b2 * xx * uu  # noqa: E731
    scheme = REAL_TIME_METHODS[name]
    m = scheme.samples_needed if m is None else m
    inputs = [sum(sp.Rational(w) * u(t + sp.Rational(j, m) * h) for j, w in zip(use.samples, use.weights))
              for use in input_schedule(name, m, missing_input)]
    numerical = sp.expand(scheme.frame(f, t, x, h, inputs))
    F = lambda tt, xx: f(tt, xx, u(tt))  # noqa: E731
    derivatives = [F(tau, xi)]
    for _ in range(terms):
        derivatives.append(sp.expand(sp.diff(derivatives[-1], tau) + F(tau, xi) * sp.diff(derivatives[-1], xi)))
    exact = x + sum(h**q / sp.factorial(q) * derivatives[q - 1].subs({tau: t, xi: x}) for q in range(1, terms + 1))
    error = sp.Poly(sp.expand(numerical - exact), h)
    coefficients = [error.coeff_monomial(h**q) for q in range(terms + 1)]
    f_u = b1 + b2 * x  # df/du at (t_n, x_n)
    return coefficients, f_u * (u1 + 2 * u2 * t + 3 * u3 * t**2)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name, order", [("rtrk2", 2), ("rtrk3", 3)])
def test_rtrk_frames_have_their_order_with_a_time_varying_input(name, order, seed):
    """The local error of one frame is O(h^(p+1)): the terms h^1 .. h^p vanish, h^(p+1) does not."""
    coefficients, _ = frame_local_error(name, terms=order + 1, seed=seed)
    assert all(c == 0 for c in coefficients[: order + 1])
    assert coefficients[order + 1] != 0


@pytest.mark.parametrize("m, factor", [(1, sp.Rational(1, 2)), (2, sp.Rational(1, 4))])
def test_rk4_with_the_input_held_has_local_error_minus_h2_fu_du(m, factor):
    """RK4 with the last sample: the local error is -(h^2/2) (df/du) u' with the frame sample only
    (m = 1), -(h^2/4) (df/du) u' with the half-frame sample too (m = 2): order 1 either way."""
    coefficients, fu_du = frame_local_error("rk4", m=m, missing_input="hold", terms=3)
    assert coefficients[0] == coefficients[1] == 0
    assert coefficients[2] == -factor * fu_du


def test_rk4_with_a_linearly_extrapolated_input_has_order_two():
    coefficients, _ = frame_local_error("rk4", m=1, missing_input="extrapolate", terms=3)
    assert coefficients[:3] == [0, 0, 0] and coefficients[3] != 0


@pytest.mark.parametrize("name", ["rtrk2", "rtrk3"])
def test_rtrk_stability_functions_are_the_taylor_polynomials(name):
    """Oracle: sympy, one frame on y' = lambda y (the input does not enter) equals R(h lambda) y."""
    z, y = sp.symbols("z y")
    step = REAL_TIME_METHODS[name].frame(lambda t, x, u: z * x, 0, y, 1, [0, 0, 0])
    R = sp.Poly(sp.expand(step / y), z).all_coeffs()[::-1]
    np.testing.assert_allclose(stability.stability_polynomial(name), [float(c) for c in R], rtol=1e-15)
    assert stability.real_stability_limit("rtrk2") == -2.0
    assert stability.real_stability_limit("rtrk3") == pytest.approx(-2.5127453, abs=1e-7)


# ---------------------------------------------------------------------------------------------
# Measured orders in the loop
# ---------------------------------------------------------------------------------------------


def lag_exact():
    """Oracle: sympy's dsolve of x' = -x + sin t, x(0) = 0."""
    t, x = sp.Symbol("t"), sp.Function("x")
    solution = sp.dsolve(sp.Eq(x(t).diff(t), -x(t) + sp.sin(t)), ics={x(0): 0})
    return sp.lambdify(t, solution.rhs, "numpy")


EXACT = lag_exact()
HS = np.array([0.1, 0.05, 0.025, 0.0125])
CASES = [  # method, samples per frame, missing input, measured order
    ("rtrk2", None, "error", 2), ("rtrk3", None, "error", 3),
    ("ab1", None, "error", 1), ("ab2", None, "error", 2), ("ab3", None, "error", 3), ("ab4", None, "error", 4),
    ("rk4", 1, "hold", 1), ("rk4", 2, "hold", 1), ("rk4", 1, "extrapolate", 2), ("heun", 1, "hold", 1),
    ("rtrk2", 1, "hold", 1),
]


@pytest.mark.parametrize("method, m, missing_input, order", CASES)
def test_measured_order_in_the_real_time_loop(method, m, missing_input, order):
    """x' = -x + u, u = sin t sampled by the loop; the slope of log max|error| on h = 0.1 .. 0.0125
    (measured within 0.06 of the order; RK4 loses its order 4 when u(t + h/2), u(t + h) are late)."""
    errors = []
    for h in HS:
        run = simulate_real_time(lambda t, x, u: -x + u, np.sin, (0, 5), 0.0, h, method=method,
                                 samples_per_frame=m, missing_input=missing_input)
        errors.append(np.max(np.abs(run.x - EXACT(run.t))))
    assert stability.fit_order(HS, errors) == pytest.approx(order, abs=0.2)


def test_rk4_held_is_less_accurate_than_rtrk2_at_twice_its_cost():
    """h = 0.05: RK4 with u held (4 evaluations per frame) makes a max error of 9.0e-3 (m = 2) and
    1.8e-2 (m = 1); RTRK2 (2 evaluations) 1.6e-4 and RTRK3 (3) 1.8e-6, against the closed form."""
    def error(method, m=None, missing_input="error"):
        run = simulate_real_time(lambda t, x, u: -x + u, np.sin, (0, 5), 0.0, 0.05, method=method,
                                 samples_per_frame=m, missing_input=missing_input)
        return np.max(np.abs(run.x - EXACT(run.t)))

    rk4_held, rtrk2, rtrk3 = error("rk4", 2, "hold"), error("rtrk2"), error("rtrk3")
    assert rk4_held == pytest.approx(9.0e-3, rel=0.05) and error("rk4", 1, "hold") == pytest.approx(1.8e-2, rel=0.05)
    assert rtrk2 == pytest.approx(1.6e-4, rel=0.05) and rtrk3 == pytest.approx(1.8e-6, rel=0.05)
    assert rk4_held > 50 * rtrk2


def test_rtrk3_on_a_nonlinear_plant_against_dop853():
    """x' = -x^3 + u, u = cos 3t: order 3 against solve_ivp(DOP853, rtol 1e-13) at t = 4."""
    f = lambda t, x, u: -x**3 + u  # noqa: E731
    reference = solve_ivp(lambda t, x: f(t, x, np.cos(3 * t)), (0, 4), [1.0], method="DOP853",
                          rtol=1e-13, atol=1e-14).y[0, -1]
    hs = np.array([0.04, 0.02, 0.01])
    errors = [abs(simulate_real_time(f, lambda t: np.cos(3 * t), (0, 4), 1.0, h, method="rtrk3").final - reference)
              for h in hs]
    assert stability.fit_order(hs, errors) == pytest.approx(3, abs=0.2)


# ---------------------------------------------------------------------------------------------
# The real-time rules: fixed cost, inputs that exist
# ---------------------------------------------------------------------------------------------


def test_the_method_table_says_which_methods_are_real_time_compatible():
    compatible = {name: method.real_time_compatible for name, method in REAL_TIME_METHODS.items()}
    assert compatible == {"ab1": True, "ab2": True, "ab3": True, "ab4": True, "rtrk2": True, "rtrk3": True,
                          "heun": False, "rk4": False}
    assert {name: m.evaluations for name, m in REAL_TIME_METHODS.items()} == \
        {"ab1": 1, "ab2": 1, "ab3": 1, "ab4": 1, "rtrk2": 2, "rtrk3": 3, "heun": 2, "rk4": 4}


@pytest.mark.parametrize("method, per_frame, start", [("rtrk2", 2, 0), ("rtrk3", 3, 0), ("ab1", 1, 0), ("ab4", 1, 3),
                                                       ("rk4", 4, 0)])
def test_each_frame_costs_a_fixed_number_of_evaluations(method, per_frame, start):
    """nfev counts the calls of f: s per frame; AB_k's k - 1 start frames (RTRK3) cost 3 each."""
    calls = []

    def f(t, x, u):
        calls.append(t)
        return -x + u

    run = simulate_real_time(f, np.sin, (0, 2), 0.0, 0.1, method=method, missing_input="hold")
    assert run.nfev == len(calls) == per_frame * (20 - start) + 3 * start
    assert run.evaluations_per_frame == per_frame


@pytest.mark.parametrize("method", ["rtrk2", "rtrk3", "ab2", "ab4"])
def test_every_evaluation_gets_the_sample_it_wants_and_it_exists_when_it_starts(method):
    """Each value f receives as u equals u at t_n + c_i h, and c_i <= i/s (the compute time)."""
    received = []
    run = simulate_real_time(lambda t, x, u: received.append((t, u)) or -x + u, np.sin, (0, 1), 0.0, 0.1,
                             method=method)
    assert run.n_substituted == 0
    for use in run.input_uses:
        assert use.how == "sample" and use.wanted <= use.computed_at
    for t, u in received:
        assert u == pytest.approx(np.sin(t), abs=1e-15)  # the model time is the sample time


def test_rk4_held_gives_its_later_stages_the_last_sample():
    """m = 1: K2, K3, K4 (model times t_n + h/2, t_n + h/2, t_n + h) all receive u(t_n)."""
    received = []
    run = simulate_real_time(lambda t, x, u: received.append((t, u)) or -x + u, np.sin, (0, 1), 0.0, 0.1,
                             method="rk4", samples_per_frame=1, missing_input="hold")
    assert len(received) == 4 * 10  # the check of f at t0 is frame 0's K1
    for n in range(10):
        frame = received[4 * n: 4 * n + 4]
        t_n = frame[0][0]
        assert [t for t, _ in frame] == pytest.approx([t_n, t_n + 0.05, t_n + 0.05, t_n + 0.1])
        assert [u for _, u in frame] == pytest.approx([np.sin(t_n)] * 4, abs=1e-15)
    assert run.n_substituted == 3 * 10
    assert [use.how for use in run.input_uses] == ["sample", "held", "held", "held"]


def test_the_loop_reads_the_input_only_at_its_sample_times():
    read = []
    run = simulate_real_time(lambda t, x, u: -x + u, lambda t: read.append(t) or np.sin(t), (0, 1), 0.0, 0.1)
    np.testing.assert_allclose(sorted(set(read)), np.arange(20) * 0.05, atol=1e-15)
    assert len(read) == len(set(read)) == len(run.sample_times) == 20  # each sample read once
    np.testing.assert_allclose(run.samples, np.sin(run.sample_times))


def test_input_schedule_of_rk4_shows_the_late_samples():
    uses = input_schedule("rk4", samples_per_frame=2, missing_input="extrapolate")
    assert [(str(u.wanted), str(u.computed_at), u.how) for u in uses] == [
        ("0", "0", "sample"), ("1/2", "1/4", "extrapolated"), ("1/2", "1/2", "sample"), ("1", "3/4", "extrapolated")]
    assert uses[1].samples == (-1, 0) and uses[1].weights == (-1.0, 2.0)  # u_n + (u_n - u_{n-1/2})


def test_vector_state_and_vector_input():
    A = np.array([[0.0, 1.0], [-2.0, -3.0]])
    B = np.array([[1.0, 0.0], [0.0, 1.0]])
    run = simulate_real_time(lambda t, x, u: A @ x + B @ u, lambda t: np.array([np.sin(t), 1.0]), (0, 1),
                             [0.0, 0.0], 0.01, method="rtrk3")
    reference = solve_ivp(lambda t, x: A @ x + B @ [np.sin(t), 1.0], (0, 1), [0.0, 0.0], method="DOP853",
                          rtol=1e-13, atol=1e-14).y[:, -1]
    np.testing.assert_allclose(run.final, reference, atol=1e-7)
    assert run.x.shape == (101, 2) and run.samples.shape == (300, 2)


def test_an_unstable_frame_time_is_stopped_with_the_methods_limit():
    with pytest.raises(UnstableRunError, match=r"rtrk2: the run is unstable.*\|h lambda\| <= 2 on the real axis"):
        simulate_real_time(lambda t, x, u: -30.0 * x + u, np.sin, (0, 10), 0.0, 0.1)


# ---------------------------------------------------------------------------------------------
# Refusals and bad input
# ---------------------------------------------------------------------------------------------

GOOD = dict(f=lambda t, x, u: -x + u, u=np.sin, t_span=(0.0, 1.0), x0=0.0, h=0.1)


@pytest.mark.parametrize("changes, error, message", [
    (dict(method="rk4"), ValueError, r"method 'rk4' is not real-time compatible: its evaluation 1 starts at "
                                     r"t_n \+ h/4 and wants u\(t_n \+ h/2\), a sample that does not exist yet"),
    (dict(method="heun"), ValueError, r"method 'heun' is not real-time compatible: its evaluation 1 starts at "
                                      r"t_n \+ h/2"),
    (dict(method="rtrk2", samples_per_frame=3), ValueError,
     r"with samples_per_frame = 3, the evaluation 1 of method 'rtrk2' \(at t_n \+ h/2\) wants u\(t_n \+ h/2\), "
     r"which is not sampled"),
    (dict(method="ab4", samples_per_frame=1), ValueError,
     r"ab4 needs 3 earlier slopes and starts with 3 frames of RTRK3"),
    (dict(method="rk5"), ValueError, r"method must be one of 'ab1'"),
    (dict(missing_input="zoh"), ValueError, r"missing_input must be one of 'error', 'hold', 'extrapolate'"),
    (dict(samples_per_frame=0), ValueError, r"samples_per_frame must be between 1 and 1000"),
    (dict(samples_per_frame=2.0), TypeError, r"samples_per_frame must be an integer"),
    (dict(u=3.0), TypeError, r"u must be a function"),
    (dict(u=lambda t: np.nan), ValueError, r"u\(t\) returned nan .* at t = 0\.0"),
    (dict(u=lambda t: "on"), TypeError, r"u\(t\) must return the input as a number or array"),
    (dict(u=lambda t: 1.0 if t < 0.5 else [1.0, 1.0]), ValueError,
     r"u\(t\) returned \[1\.0, 1\.0\] \(type list\) at t = 0\.5; it must return finite numbers of one shape \(\)"),
    (dict(f=lambda t, x, u: [x, u]), ValueError, r"f\(t, x, u\) returned dx/dt of shape \(2,\)"),
    (dict(h=0.3), ValueError, r"h = 0\.3 does not divide the time span"),
    (dict(x0=[np.inf]), ValueError, r"x0 must be finite"),
])
def test_bad_arguments_get_a_message_naming_them(changes, error, message):
    with pytest.raises(error, match=message):
        simulate_real_time(**{**GOOD, **changes})
