"""Lab 11 experiments against independent oracles: sympy, python-control, scipy, mpmath, numpy.

Every number the solution notebook shows is checked here; each test names its oracle.
"""

import math
import warnings

import control
import mpmath
import numpy as np
import pytest
import sympy as sp
from scipy import optimize, signal

from simlab.course import lab11_delay_sampled_data as lab
from simlab.delay import DelayLine
from simlab.digital import c2d
from simlab.sampled_data import discrete_closed_loop, intersample_ripple

TAU = 0.5
H = 0.04
#: The loop gain k = K K_p / T_i = 1 / (lambda + tau_0) of the SIMC tuning, by hand (lambda = 0.75 s,
#: tau_0 = 0.5 s): 0.8 1/s, the crossover omega_c of the loop k e^{-tau s}/s.
K_LOOP = 0.8

# ---------------------------------------------------------------------------------------------
# Oracles shared by several tests
# ---------------------------------------------------------------------------------------------


def _sympy_fopdt_step(tau):
    """y(t) = L^-1[K e^{-tau s} / (s (T1 s + 1))] with sympy (a Heaviside-shifted expression)."""
    s, t = sp.symbols("s t", positive=True)
    K, T1 = sp.nsimplify(lab.K), sp.nsimplify(lab.T1)
    y = sp.inverse_laplace_transform(K * sp.exp(-sp.nsimplify(tau) * s) / (s * (T1 * s + 1)), s, t)
    return sp.lambdify(t, y.rewrite(sp.Piecewise), modules="numpy")


def _pc_plant_pade(n, tau=TAU):
    """G(s) P_n(s) with python-control's own Padé approximant."""
    return control.tf([lab.K], [lab.T1, 1.0]) * control.tf(*control.pade(tau, n))


def _pc_loop(n=None, tau=TAU):
    """C(s) G(s) (P_n(s)) in unity feedback, python-control (no pole-zero cancellation)."""
    open_loop = control.tf([lab.KP * lab.TI, lab.KP], [lab.TI, 0.0]) * control.tf([lab.K], [lab.T1, 1.0])
    if n is not None:
        open_loop = open_loop * control.tf(*control.pade(tau, n))
    return control.feedback(open_loop, 1)


def _seed_plant_tf():
    return control.tf([1.0], [1.0, 4.0, 8.0, 5.0])


def _pc_pi(T, method, Ki=lab.SEED_KI):
    """The PI 10 + Ki/s as a python-control discrete system: Tustin by control.sample_system; matched
    pole-zero by its definition (Franklin, Powell, Emami-Naeini): the pole 0 to z = 1, the zero -Ki/Kp
    to e^{-Ki T/Kp}, the integral gain kept (python-control's matched refuses the integrator's
    infinite dc gain)."""
    if method == "tustin":
        return control.sample_system(control.tf([lab.SEED_KP, Ki], [1.0, 0.0]), T, method="tustin")
    zero = math.exp(-Ki * T / lab.SEED_KP)
    gain = Ki * T / (1 - zero)
    return control.tf([gain, -gain * zero], [1.0, -1.0], T)


def _pc_discrete_loop(T, method, Ki=lab.SEED_KI):
    """(closed loop r -> y, closed loop r -> u) of the zoh-sampled seed plant and the PI, python-control."""
    Pd = control.sample_system(_seed_plant_tf(), T, method="zoh")
    Cd = _pc_pi(T, method, Ki)
    return control.feedback(Cd * Pd, 1), control.feedback(Cd, Pd)


def _pc_radius(T, method, Ki=lab.SEED_KI):
    return float(np.max(np.abs(_pc_discrete_loop(T, method, Ki)[0].poles())))


def _pc_limit(method, Ki=lab.SEED_KI, near=None):
    """First T with max |z| = 1 from python-control's poles: a scan in steps of 0.05 s (up to ``near``,
    a value to check, when given: stable below 0.99 near, unstable at 1.01 near), then Brent's method."""
    step = 0.05
    T = step
    while _pc_radius(T + step, method, Ki) < 1.0 and (near is None or T + step < 0.99 * near):
        T += step
    high = T + step if near is None else 1.01 * near
    if near is not None:
        T = max(T, 0.99 * near)
        assert _pc_radius(T, method, Ki) < 1.0 <= _pc_radius(high, method, Ki)
    return optimize.brentq(lambda T_i: _pc_radius(T_i, method, Ki) - 1.0, T, high, xtol=1e-13, rtol=1e-13)


def _forced(system, t, u):
    """python-control's forced response (its outputs as a plain float array)."""
    return np.asarray(control.forced_response(system, timepts=t, inputs=u).outputs, dtype=float)


def _step_metrics(t, y, exact, tau):
    """Undershoot, max error before tau, max error and peak, as the lab defines them."""
    before = t < tau - 1e-12
    return (float(max(0.0, -np.min(y[before]))), float(np.max(np.abs(y - exact)[before])),
            float(np.max(np.abs(y - exact))), float(np.max(y)))


# ---------------------------------------------------------------------------------------------
# Part A
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tau, h", [(TAU, H), (0.7, H), (TAU, 0.05)])
def test_fopdt_step_is_the_inverse_laplace_transform(tau, h):
    """Oracle: sympy's inverse Laplace transform of K e^{-tau s}/(s (T1 s + 1)), fractional tau/h too."""
    t = lab.time_grid(h)
    expected = _sympy_fopdt_step(tau)(t)
    np.testing.assert_allclose(lab.fopdt_step(t, tau), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(lab.fopdt_step_closed_form(t, tau), expected, rtol=0, atol=1e-12)
    assert lab.check_step(expected, tau, h)


def test_pade1_is_python_controls():
    """Oracle: control.pade(tau, 1); the notebook prints num1 = [-0.25, 1], den1 = [0.25, 1]."""
    num, den = control.pade(TAU, 1)
    assert lab.check_pade1(np.array([-TAU / 2, 1.0]), np.array([TAU / 2, 1.0]), TAU)
    assert lab.check_pade1(np.asarray(num), np.asarray(den), TAU)
    np.testing.assert_allclose(np.array(num) / den[0] * TAU / 2, [-TAU / 2, 1.0], rtol=1e-12)


def test_plant_pade_rows_against_python_control():
    """Oracle: python-control's forced response of G(s) P_n(s) (its own pade) and sympy's delayed step.

    Initial slope: the initial value theorem, lim s G(s) P_n(s) = (-1)^n K/T1, by sympy.
    """
    study = lab.pade_plant_study(TAU, H)
    t = lab.time_grid(H)
    exact = _sympy_fopdt_step(TAU)(t)
    s = sp.Symbol("s")
    for row in study.rows:
        y = _forced(_pc_plant_pade(row.order), t, np.ones(len(t)))
        undershoot, before, largest, peak = _step_metrics(t, y, exact, TAU)
        assert (row.undershoot, row.max_error_before_tau, row.max_error, row.peak) == pytest.approx(
            (undershoot, before, largest, peak), abs=1e-9)
        num, den = (sp.Poly(list(map(sp.nsimplify, c)), s).as_expr() for c in control.pade(TAU, row.order))
        slope = sp.limit(s * sp.nsimplify(lab.K) / (sp.nsimplify(lab.T1) * s + 1) * num / den, s, sp.oo)
        assert row.initial_slope == pytest.approx(float(slope), abs=1e-12)
        assert row.initial_slope == pytest.approx((-1) ** row.order * lab.K / lab.T1, abs=1e-12)
        # the first crossing: linear interpolation of python-control's error on the grid, as the lab
        # defines it, and the crossing of a fine python-control run (within the grid's resolution)
        e = y - exact
        k = np.flatnonzero(np.sign(e) == -np.sign(e[np.flatnonzero(e)[0]]))[0]
        assert row.first_crossing == pytest.approx(t[k - 1] + e[k - 1] / (e[k - 1] - e[k]) * H, abs=1e-9)
        fine = np.linspace(0.0, 2.0, 4001)
        error = _forced(_pc_plant_pade(row.order), fine, np.ones(len(fine))) - _sympy_fopdt_step(TAU)(fine)
        k = np.flatnonzero(np.sign(error[1:]) == -np.sign(error[np.flatnonzero(error)[0]]))[0] + 1
        assert row.first_crossing == pytest.approx(fine[k], abs=2e-3)


# ---------------------------------------------------------------------------------------------
# Part B
# ---------------------------------------------------------------------------------------------


def _sympy_method_of_steps(intervals):
    """The loop's DDE solved interval by interval with sympy, exact rationals, no cancellation used.

    T1 x' = -x + K u(t - tau), u = K_p (e + z / T_i), z' = e = r - x: on [j tau, (j+1) tau] the
    delayed input is the previous interval's u, so each piece is an ODE solved by integration.
    """
    K, T1, Kp, Ti = (sp.nsimplify(v) for v in (lab.K, lab.T1, lab.KP, lab.TI))
    tau, r = sp.Rational(1, 2), sp.Integer(1)
    t, s = sp.symbols("t s", real=True)
    pieces, x0, z0, u_prev = [], sp.Integer(0), sp.Integer(0), sp.Integer(0)
    for j in range(intervals):
        tj = j * tau
        x = sp.exp(-(t - tj) / T1) * x0 + sp.integrate(sp.exp(-(t - s) / T1) * K * u_prev.subs(t, s - tau) / T1,
                                                       (s, tj, t))
        x = sp.expand(x)
        z = z0 + sp.integrate((r - x).subs(t, s), (s, tj, t))
        pieces.append(sp.lambdify(t, x, modules="math"))
        x0, z0, u_prev = x.subs(t, tj + tau), z.subs(t, tj + tau), sp.expand(Kp * (r - x + z / Ti))
    return pieces


def test_exact_loop_solves_the_delay_differential_equation():
    """Oracle: the method of steps with sympy on the full loop (plant, PI, delay), up to 3 s."""
    pieces = _sympy_method_of_steps(6)
    t = lab.time_grid(H)
    y = lab.loop_exact(t, TAU)
    for k in range(75):
        assert y[k] == pytest.approx(pieces[min(int(t[k] / TAU + 1e-12), 5)](t[k]), abs=1e-12)
    np.testing.assert_allclose(lab.loop_closed_form(t, TAU), y, rtol=0, atol=1e-12)
    assert lab.check_loop(lab.loop_closed_form(t, TAU), TAU, H)


def test_exact_loop_peak_against_mpmath():
    """Oracle: the closed form sum in 30-digit mpmath with k = 4/5 1/s; the notebook prints the peak
    1.000707 at 4.2 s (the loop, with its phase margin of 67 degrees, hardly overshoots)."""
    t = lab.time_grid(H)
    y = lab.loop_exact(t, TAU)
    mpmath.mp.dps = 30
    k = mpmath.mpf(4) / 5
    exact = [float(sum((-1) ** (j - 1) * (k * (mpmath.mpf(tk) - j * mpmath.mpf("0.5"))) ** j / mpmath.factorial(j)
                       for j in range(1, int(tk / 0.5 + 1e-9) + 1))) for tk in t]
    np.testing.assert_allclose(y, exact, rtol=0, atol=1e-12)
    assert t[int(np.argmax(exact))] == pytest.approx(4.2) and max(exact) == pytest.approx(1.000707, abs=5e-7)


def test_pade_loop_rows_against_python_control():
    """Oracle: python-control's feedback of C G P_n (its own pade) and its forced response.

    Initial slope: lim s T_n(s) = (-1)^n k r (sympy's limit of the rational closed loop).
    """
    study = lab.pade_loop_study(TAU, H)
    t = lab.time_grid(H)
    exact = lab.loop_closed_form(t, TAU)
    s = sp.Symbol("s")
    for row in study.rows:
        closed = _pc_loop(row.order)
        y = _forced(closed, t, np.ones(len(t)))
        assert (row.undershoot, row.max_error_before_tau, row.max_error, row.peak) == pytest.approx(
            _step_metrics(t, y, exact, TAU), abs=1e-9)
        num, den = (sp.Poly(list(map(sp.nsimplify, np.ravel(c))), s).as_expr() for c in control.tfdata(closed))
        assert row.initial_slope == pytest.approx(float(sp.limit(s * num / den, s, sp.oo)), abs=1e-9)
        assert row.initial_slope == pytest.approx((-1) ** row.order * lab.loop_gain() * lab.R, abs=1e-9)


@pytest.mark.parametrize("tau", [TAU, 0.7])
def test_delay_margin_against_python_control(tau):
    """Oracle: control.margin of the rational C(s) G(s); the delay subtracts omega_c tau (closed form pi/2 - k tau)."""
    _, pm, _, omega_c = control.margin(control.tf([lab.KP * lab.TI, lab.KP], [lab.TI, 0.0])
                                       * control.tf([lab.K], [lab.T1, 1.0]))
    margin = lab.delay_margin(tau)
    assert margin.omega_c == pytest.approx(omega_c, rel=1e-9)
    assert margin.phase_margin == pytest.approx(math.radians(pm) - omega_c * tau, rel=1e-9)
    assert margin.phase_margin == pytest.approx(math.pi / 2 - K_LOOP * tau, rel=1e-12)
    assert margin.delay_margin == pytest.approx(margin.phase_margin / omega_c, rel=1e-12)
    assert margin.tau_limit == pytest.approx(math.pi / (2 * K_LOOP), rel=1e-12)
    # the notebook: omega_c = 0.8 rad/s, PM = pi/2 - 0.4 = 1.1708 rad = 67.08 deg, delay margin 1.4635 s
    assert math.degrees(lab.delay_margin().phase_margin) == pytest.approx(67.08, abs=5e-3)
    assert (round(omega_c, 4), round(lab.delay_margin().delay_margin, 4)) == (0.8, 1.4635)


def test_exact_delay_limit_is_a_root_on_the_imaginary_axis():
    """Oracle: sympy: s = j k solves s + k e^{-tau s} = 0 at tau = pi/(2k)."""
    s, k = sp.symbols("s k", positive=True)
    expression = (s + k * sp.exp(-sp.pi / (2 * k) * s)).subs(s, sp.I * k)
    assert sp.simplify(expression) == 0


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pade_delay_limits_against_python_control(n):
    """Oracle: python-control's poles of the loop with its own pade just below and above the limit;
    for n = 1 also Routh's criterion by sympy, k tau < 2."""
    row = lab.pade_delay_limit(n)
    for factor, stable in ((1 - 1e-7, True), (1 + 1e-7, False)):
        assert (np.max(_pc_loop(n, row.tau_limit * factor).poles().real) < 0) == stable
    assert row.relative_error == pytest.approx(row.tau_limit / (math.pi / (2 * K_LOOP)) - 1, rel=1e-12)
    if n == 1:
        tau, s, k = sp.symbols("tau s k", positive=True)
        characteristic = sp.Poly(sp.expand(s * (1 + tau * s / 2) + k * (1 - tau * s / 2)), s)
        boundary = sp.solve(sp.Eq(characteristic.coeff_monomial(s), 0), tau)  # s^2, s^0 coefficients > 0
        assert boundary == [2 / k] and row.tau_limit == pytest.approx(2 / K_LOOP, rel=1e-12)  # 2.5 s


def _mp_loop(t, tau, dps=40):
    """The closed form r sum (-1)^(j-1) (k (t - j tau))^j / j! in mpmath, k = 4/5 1/s, r = 1."""
    mpmath.mp.dps = dps
    tau, k = mpmath.mpf(tau), mpmath.mpf(4) / 5
    return np.array([float(sum((-1) ** (j - 1) * (k * (mpmath.mpf(tk) - j * tau)) ** j / mpmath.factorial(j)
                               for j in range(1, int(mpmath.floor(mpmath.mpf(tk) / tau)) + 1))) for tk in t])


def test_near_limit_runs_against_mpmath():
    """Oracle: the closed form in 40-digit mpmath (no cancellation error) at 0.9 and 1.1 pi/(2k), k = 0.8 1/s;
    the notebook's max |y - r| over 10-20 s and 20-30 s are those of mpmath's y on the same grid."""
    below, above = lab.delay_limit_runs()
    for run, factor in ((below, 0.9), (above, 1.1)):
        assert run.tau == pytest.approx(factor * math.pi / (2 * K_LOOP), rel=1e-12)
        np.testing.assert_allclose(run.y[::4], _mp_loop(run.t[::4], run.tau), rtol=0, atol=1e-9)
        t = 0.05 * np.arange(601)
        error = np.abs(_mp_loop(t, run.tau) - 1.0)
        assert (run.early, run.late) == pytest.approx((error[(t >= 10) & (t < 20)].max(), error[t >= 20].max()),
                                                      abs=1e-9)
    assert below.late < below.early and above.late > above.early


# ---------------------------------------------------------------------------------------------
# Part C
# ---------------------------------------------------------------------------------------------


def _interp_delay(u, tau, h):
    """Oracle: numpy's linear interpolation of the samples (zero before t = 0) at t_n - tau."""
    t = h * np.arange(len(u))
    return np.interp(t - tau, np.concatenate([[-h], t]), np.concatenate([[0.0], u]), left=0.0)


@pytest.mark.parametrize("tau, h", [(1.5, 1.0), (0.5, 0.2), (0.6, 0.2), (0.02, 0.04)])
def test_shift_register_is_linear_interpolation(tau, h):
    """Oracle: numpy.interp; the notebook prints [0, 0, 0.5, 1.5, 2.5, 3.5] for tau = 1.5 h."""
    u = 0.3 * np.arange(12.0) + np.sin(np.arange(12.0))
    np.testing.assert_allclose(lab.shift_register_reference(u, tau, h), _interp_delay(u, tau, h), atol=1e-12)
    assert lab.shift_register_reference(np.arange(6.0), 1.5, 1.0).tolist() == [0.0, 0.0, 0.5, 1.5, 2.5, 3.5]


def test_interpolation_errors_against_numpy_and_a_fitted_sine():
    """Oracle: numpy.interp for the error; its amplitude by least squares on sin and cos (numpy.linalg.lstsq)."""
    h, omega = 0.1, 2.0
    t = h * np.arange(401)
    u = np.sin(omega * t)
    for row in lab.interpolation_errors(h, omega):
        error = np.sin(omega * (t - row.tau)) - _interp_delay(u, row.tau, h)
        full = t >= 4 * h - 1e-12
        assert row.measured == pytest.approx(np.max(np.abs(error[full])), abs=1e-13)
        basis = np.column_stack([np.sin(omega * t[full]), np.cos(omega * t[full])])
        a, b = np.linalg.lstsq(basis, error[full], rcond=None)[0]
        assert row.amplitude == pytest.approx(math.hypot(a, b), abs=1e-12)
        assert row.bound == pytest.approx(row.alpha * h * (h - row.alpha * h) * omega**2 / 2, abs=1e-15)
        assert row.measured <= row.amplitude + 1e-12 and row.amplitude <= row.bound + 1e-12
    assert DelayLine(0.5, 1e-3).d + 2 == round(0.5 / 1e-3) + 2 == 502  # Question 1: tau / h + 2 samples
    half = lab.interpolation_errors(h / 2, omega, d=6, alphas=(0.5,))[0]
    full_step = lab.interpolation_errors(h, omega, alphas=(0.5,))[0]
    assert full_step.amplitude / half.amplitude == pytest.approx(4.0, abs=5e-3)


def _per_element_loop(tau, h):
    """Oracle: the per-element recurrence written from the seed's formulas (no simlab), the delay by np.interp.

    PI = K_p + (K_p/T_i)/s: x1 += (K_p/T_i) h u1, y1 = x1 + K_p u1; inertia K/(1 + T1 s):
    x2 = e^{-h/T1} x2 + K (1 - e^{-h/T1}) w, y2 = x2; u1 = r - y2, u2 = y1, w = u2 delayed by tau.
    """
    steps = round(lab.T_END / h)
    Phi = math.exp(-h / lab.T1)
    x1 = x2 = y1 = y2 = 0.0
    u2_history, y = [], [0.0]
    for k in range(steps):
        u1, u2 = lab.R - y2, y1
        u2_history.append(u2)
        w = _interp_delay(np.array(u2_history), tau, h)[-1]
        x1 += lab.KP / lab.TI * h * u1
        x2 = Phi * x2 + lab.K * (1 - Phi) * w
        y1, y2 = x1 + lab.KP * u1, x2
        y.append(y2)
    return np.array(y)


@pytest.mark.parametrize("h", [0.04, 0.05])
def test_structure_graph_is_the_per_element_recurrence(h):
    """Oracle: the per-element recurrence of the seed, written here without simlab."""
    np.testing.assert_allclose(lab.graph_response(TAU, h), _per_element_loop(TAU, h), rtol=0, atol=1e-12)


def test_structure_graph_errors_fall_like_h():
    """Oracle: the closed-form loop (checked against sympy's method of steps above); order 1 in h."""
    rows = lab.graph_errors(TAU)
    for row in rows:
        t = lab.time_grid(row.h)
        assert row.max_error == pytest.approx(np.max(np.abs(lab.graph_response(TAU, row.h)
                                                            - lab.loop_closed_form(t, TAU))), abs=1e-12)
        whole = abs(TAU / row.h - round(TAU / row.h)) <= 1e-9
        assert (row.d, row.theta > 1e-12) == (math.floor(TAU / row.h + 1e-9), not whole)
        # the largest error is the one-step lag on the exact loop's first ramp k r (t - tau): k r h at
        # t = tau + h when tau is a whole number of steps (the notebook's error / h = 0.8), a little less
        # for the fractional step
        if whole:
            assert row.max_error == pytest.approx(K_LOOP * lab.R * row.h, rel=1e-9)
        else:
            assert 0.75 * K_LOOP * row.h < row.max_error < K_LOOP * row.h
    slope = np.polyfit(np.log([row.h for row in rows]), np.log([row.max_error for row in rows]), 1)[0]
    assert slope == pytest.approx(1.0, abs=0.01)


# ---------------------------------------------------------------------------------------------
# Parts D-F
# ---------------------------------------------------------------------------------------------


def test_analog_overshoot_against_python_control():
    """Oracle: python-control's step response of C G / (1 + C G) on the same grid (17.4 %)."""
    t = 0.005 * np.arange(8001)
    loop = control.feedback(control.tf([10.0, 4.0], [1.0, 0.0]) * _seed_plant_tf(), 1)
    peak = np.max(np.asarray(control.step_response(loop, timepts=t).outputs, dtype=float))
    assert lab.analog_overshoot() == pytest.approx(peak - 1.0, abs=1e-9)
    assert round(100 * lab.analog_overshoot(), 1) == 17.4


@pytest.mark.parametrize("T", [1.5, 1.0])
def test_tustin_and_matched_pi_against_python_control(T):
    """Oracle: control.sample_system (Tustin, matched) and the matched closed form; the notebook's
    13 z - 7 and 13.2982 z - 7.2982 at T = 1.5 s."""
    for method in ("tustin", "matched"):
        num, den = (np.ravel(c) for c in control.tfdata(_pc_pi(T, method)))
        numd, dend = c2d(*lab.seed_pi(), T, method)
        np.testing.assert_allclose(np.concatenate([numd, dend]), np.concatenate([num, den]) / den[0], rtol=1e-12)
    x = lab.SEED_KI * T / lab.SEED_KP
    gain = lab.SEED_KI * T / (1 - math.exp(-x))
    np.testing.assert_allclose(c2d(*lab.seed_pi(), T, "matched")[0], [gain, -gain * math.exp(-x)], rtol=1e-12)
    numd, dend = lab.TASKS["D1"].reference(T=T).values()
    assert lab.check_tustin(numd, dend, T)
    if T == 1.5:
        np.testing.assert_allclose(numd, [13.0, -7.0], rtol=1e-12)
        np.testing.assert_allclose(c2d(*lab.seed_pi(), T, "matched")[0], [13.2982, -7.2982], atol=5e-5)


def _fine_output(T, method, N):
    """Oracle for y(t): scipy.signal.lsim of the plant, zero-order hold of python-control's u_k on t_k + j T/N."""
    closed, to_u = _pc_discrete_loop(T, method)
    K = math.ceil(lab.T_END_DIGITAL / T * (1 - 1e-12))
    t_k = T * np.arange(K + 1)
    u_k = _forced(to_u, t_k, np.full(K + 1, lab.SEED_R))
    y_k = _forced(closed, t_k, np.full(K + 1, lab.SEED_R))
    t = (T / N) * np.arange(K * N + 1)
    u = np.repeat(u_k, N)[: len(t)]
    _, y, _ = signal.lsim(signal.lti([1.0], [1.0, 4.0, 8.0, 5.0]), u, t, interp=False)
    return t, y, t_k, y_k, closed


def test_digital_loop_at_T_against_python_control_and_scipy():
    """Oracle: python-control's discrete closed loop (samples, poles) and scipy.signal.lsim between samples.

    The notebook shows |z_i| = 0.8269 (twice), 0.6026, 0.0712, the peaks 7.105 at 1.5 s and 8.920
    at 2.02 s (25.5 % higher), and the samples equal to rounding.
    """
    run = lab.sampled_run(lab.T, "tustin")
    t, y, t_k, y_k, closed = _fine_output(lab.T, "tustin", run.N)
    np.testing.assert_allclose(run.y_k, y_k, rtol=0, atol=1e-12)
    np.testing.assert_allclose(run.y, y, rtol=0, atol=1e-9)
    loop = discrete_closed_loop(*lab.seed_plant(), run.controller)
    np.testing.assert_allclose(np.sort(np.abs(loop.poles)), np.sort(np.abs(closed.poles())), atol=1e-10)
    assert np.round(np.sort(np.abs(closed.poles()))[::-1], 4).tolist() == [0.8269, 0.8269, 0.6026, 0.0712]
    ripple = intersample_ripple(run)
    assert (ripple.peak_sampled, ripple.t_peak_sampled) == pytest.approx((np.max(y_k), t_k[np.argmax(y_k)]))
    assert (ripple.peak, ripple.t_peak) == pytest.approx((np.max(y), t[np.argmax(y)]), abs=1e-9)
    assert round(ripple.peak_sampled, 3) == 7.105 and round(ripple.peak, 3) == 8.920
    assert round(100 * (ripple.peak / ripple.peak_sampled - 1), 1) == 25.5


def test_sampled_rows_against_python_control_and_scipy():
    """Oracle: python-control's poles and samples, scipy.signal.lsim for the peak between samples."""
    for row in lab.sampled_rows(lab.T_VALUES):
        _, y, _, y_k, closed = _fine_output(row.T, row.method, row.N)
        radius = float(np.max(np.abs(closed.poles())))
        assert row.spectral_radius == pytest.approx(radius, abs=1e-10)
        assert row.stable == (radius < 1.0) and row.N == max(2, round(row.T / 0.02))
        assert row.peak_sampled == pytest.approx(np.max(y_k), rel=1e-9)
        assert row.peak == pytest.approx(np.max(y), rel=1e-9)
        assert row.hidden == pytest.approx(np.max(y) / np.max(y_k) - 1, rel=1e-6, abs=1e-12)
    stability = {(row.T, row.method): row.stable for row in lab.sampled_rows(lab.T_VALUES)}
    assert stability[1.9, "tustin"] and not stability[1.9, "matched"]


def test_stability_scan_agrees_with_the_poles():
    """Oracle: python-control's closed-loop poles at every T of the scan (stable iff max |z| < 1)."""
    rows = lab.stability_scan()
    for row in rows:
        assert row.stable == (_pc_radius(row.T, "tustin") < 1.0), row.T
    reference = lab.TASKS["D2"].reference()
    assert (reference["T_stable_sim"], reference["T_unstable_sim"]) == (1.9, 1.95)


def test_stability_limits_against_python_control():
    """Oracle: Brent's method on python-control's closed-loop poles; for Tustin also 1 + K_p P_d(-1) = 0
    with python-control's zoh plant (the notebook's T* = 1.925614 s and 1.887627 s, both at z = -1)."""
    limits = lab.stability_limits()
    for method in ("tustin", "matched"):
        assert limits[method].T == pytest.approx(_pc_limit(method, near=limits[method].T), rel=1e-9)
        np.testing.assert_allclose(limits[method].critical_poles, [-1.0], atol=1e-6)
    nyquist = optimize.brentq(lambda T: 1 + lab.SEED_KP * np.real(
        control.sample_system(_seed_plant_tf(), T, method="zoh")(-1.0)), 1.8, 2.0, xtol=1e-14)
    assert limits["tustin"].T == pytest.approx(nyquist, rel=1e-10)
    assert (round(limits["tustin"].T, 6), round(limits["matched"].T, 6)) == (1.925614, 1.887627)
    assert lab.check_limits(limits["tustin"].T, limits["matched"].T)


@pytest.mark.parametrize("Ki, tustin, matched", [(2.0, 1.925614, 1.915301), (8.0, 0.793517, 0.723695)])
def test_limits_for_other_integral_gains_against_python_control(Ki, tustin, matched):
    """Oracle: python-control (Question 5): for K_i = 8 a complex pair leaves the circle first."""
    from simlab.digital import analog_pid
    from simlab.sampled_data import stability_limit

    A, B, C, D = lab.seed_plant()
    limit_t = stability_limit(A, B, C, D, *analog_pid(lab.SEED_KP, Ki), method="tustin")
    limit_m = stability_limit(A, B, C, D, *analog_pid(lab.SEED_KP, Ki), method="matched")
    assert limit_t.T == pytest.approx(_pc_limit("tustin", Ki, near=limit_t.T), rel=1e-9)
    assert limit_m.T == pytest.approx(_pc_limit("matched", Ki, near=limit_m.T), rel=1e-9)
    assert (round(limit_t.T, 6), round(limit_m.T, 6)) == (tustin, matched)
    poles = _pc_discrete_loop(limit_t.T, "tustin", Ki)[0].poles()
    critical = poles[np.abs(np.abs(poles) - 1) < 1e-6]
    np.testing.assert_allclose(np.sort_complex(limit_t.critical_poles), np.sort_complex(critical), atol=1e-6)


def test_phase_margins_against_python_control():
    """Oracle: control.margin of the analog loop and of the discrete loops D(z) P_d(z)."""
    _, pm, _, omega_c = control.margin(control.tf([10.0, 4.0], [1.0, 0.0]) * _seed_plant_tf())
    omega_a, pm_a, dm_a = lab.analog_margins()
    assert (omega_a, pm_a, dm_a) == pytest.approx((omega_c, pm, math.radians(pm) / omega_c), rel=1e-8)
    assert (round(omega_a, 4), round(pm_a, 2), round(dm_a, 4), round(2 * dm_a, 3)) == (1.6202, 43.85, 0.4724, 0.945)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # python-control falls back to its frequency-response method
        for row in lab.phase_margin_rows():
            Pd = control.sample_system(_seed_plant_tf(), row.T, method="zoh")
            _, pm_d, _, omega_d = control.margin(_pc_pi(row.T, row.method) * Pd)
            assert row.phase_margin == pytest.approx(pm_d, abs=1e-6)
            assert row.omega_c == pytest.approx(omega_d, rel=1e-8)
            assert row.predicted == pytest.approx(pm - math.degrees(omega_c * row.T / 2), abs=1e-9)


# ---------------------------------------------------------------------------------------------
# The lab's structure: run(), figures, checks
# ---------------------------------------------------------------------------------------------


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab11Results)
    assert all(isinstance(row, lab.PadeRow) for row in data.plant.rows + data.loop.rows)
    assert all(isinstance(row, lab.GraphErrorRow) for row in data.graph)
    assert all(isinstance(row, lab.SampledRow) for row in data.sampled)
    assert dict(result.summary)["seed loop, analog PI 10 + 4/s: overshoot"] == "17.4 %"
    for figure in result.figures:
        fig = figure.draw(figure.data)
        try:
            assert fig.axes
        finally:
            plt.close(fig)


_ALTERNATIVES = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}


@pytest.mark.parametrize("parameters", [{name: value} for name, value in _ALTERNATIVES.items()] + [_ALTERNATIVES],
                         ids=[*_ALTERNATIVES, "all"])
def test_every_task_check_accepts_its_reference_at_other_parameters(parameters):
    """The checks follow every declared parameter: the reference answers for the changed values pass,
    and Tasks passes each parameter that a check or reference takes (the task lists them all)."""
    for name, task in lab.TASKS.items():
        used = {key: value for key, value in parameters.items() if key in lab.TASKS.parameter_names(name)}
        assert set(lab.TASKS.parameter_names(name)) == set(task.parameters), name
        reference = task.reference(**{key: value for key, value in used.items()
                                      if key in lab.TASKS.parameter_names(name, task.reference)})
        assert task.check(*(reference[answer] for answer in task.answers), **used), name


def test_checks_name_the_typical_slips():
    T = lab.T
    Kp, Ki = lab.SEED_KP, lab.SEED_KI
    assert "forward Euler" in str(lab.check_tustin([Kp, -(Kp - Ki * T)], [1.0, -1.0], T))
    assert "wrong sign" in str(lab.check_tustin([Kp + Ki * T / 2, Kp - Ki * T / 2], [1.0, -1.0], T))
    assert "e^(+tau s)" in str(lab.check_pade1([TAU / 2, 1.0], [-TAU / 2, 1.0]))
    assert "wider than 0.1 s" in str(lab.check_scan(1.8, 2.0))
    assert "matched design's limit" in str(lab.check_scan(1.85, 1.9))
    assert "T/2 rule" in str(lab.check_limits(2 * lab.analog_margins()[2], lab.stability_limits()["matched"].T))
    assert "newer" in str(lab.check_shift_register(lambda u, tau, h: lab._register(u, tau, h, lambda a: (1 - a, 0, a))))
    t = lab.time_grid(H)
    assert "without the delay" in str(lab.check_step(lab.fopdt_step(t, 0.0)))
    assert "first term only" in str(lab.check_loop(lab.loop_gain() * np.maximum(t - TAU, 0.0)))
    assert "tau + delay margin" in str(lab.check_margin(K_LOOP, math.pi / 2 - K_LOOP * TAU, math.pi / (2 * K_LOOP)))
    assert lab.check_graph(lab.graph_response(TAU, H, (1, "input")))  # any place in the single loop
    not_written = lab.check_shift_register(lambda *args: (_ for _ in ()).throw(NotImplementedError()))
    assert not not_written.done


def test_plant_and_loop_studies_follow_the_plant_and_the_step():
    """Oracle: python-control at K = 1, T1 = 2 s, r = 2 (tau = 0.7 s, h = 0.05 s): the Padé models'
    responses (its own pade), the initial slopes (-1)^n r K/T1 and (-1)^n k r, and the exact plant by sympy."""
    K, T1, r, tau, h = 1.0, 2.0, 2.0, 0.7, 0.05
    t = lab.time_grid(h)
    plant = lab.pade_plant_study(tau, h, K=K, T1=T1, r=r)
    s, time = sp.symbols("s t", positive=True)
    exact = sp.inverse_laplace_transform(r * sp.exp(-sp.Rational(7, 10) * s) / (s * (2 * s + 1)), s, time)
    np.testing.assert_allclose(plant.exact, sp.lambdify(time, exact.rewrite(sp.Piecewise), "numpy")(t), atol=1e-12)
    Kp, Ti = T1 / (K * (0.75 + 0.5)), T1  # the SIMC rule with lambda = 0.75 s, tau_0 = 0.5 s, by hand
    for n in (1, 2):
        model = control.tf([K], [T1, 1.0]) * control.tf(*control.pade(tau, n))
        np.testing.assert_allclose(plant.responses[n], r * _forced(model, t, np.ones(len(t))), atol=1e-10)
        assert plant.order(n).initial_slope == pytest.approx((-1) ** n * r * K / T1, rel=1e-12)
        loop = control.feedback(control.tf([Kp * Ti, Kp], [Ti, 0.0]) * model, 1)
        study = lab.pade_loop_study(tau, h, K=K, T1=T1, r=r)
        np.testing.assert_allclose(study.responses[n], r * _forced(loop, t, np.ones(len(t))), atol=1e-9)
        assert study.order(n).initial_slope == pytest.approx((-1) ** n * r * K * Kp / Ti, rel=1e-9)
