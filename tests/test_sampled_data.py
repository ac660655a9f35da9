"""Sampled-data systems (simlab.sampled_data) and the digital controllers of simlab.digital.

Oracles, named in each test: python-control (c2d of the plant with a zero-order hold, c2d of the
controller by Tustin, ``feedback`` and ``forced_response`` of the discrete closed loop, its
poles), scipy (``signal.lsim`` with a held input, ``signal.lfilter``), sympy (the matched
pole-zero mapping written out from its definition, with exact roots and limits), and closed
forms derived in the docstrings. Nothing is compared with numbers produced by simlab itself.

Tolerances: the loop at the instants is the same exact mathematics as python-control's discrete
closed loop, so the two differ by rounding only (1e-12 of the largest output, as issue 16 asks).
"""

from __future__ import annotations

import math

import control
import numpy as np
import pytest
import sympy as sp
from scipy import signal

from simlab.digital import DigitalController, analog_pid, c2d, digital_pid
from simlab.guards import NonFiniteStateError
from simlab.sampled_data import (
    discrete_closed_loop,
    intersample_ripple,
    simulate_sampled,
    stability_limit,
)

# G1(s) = 2/(s + 0.5) and G2(s) = 5/(s^2 + 2 s + 5), each under a PI controller Kp + Ki/s.
FIRST = dict(A=[[-0.5]], B=[[1.0]], C=[[2.0]], Kp=1.5, Ki=1.0)
SECOND = dict(A=[[0.0, 1.0], [-5.0, -2.0]], B=[[0.0], [1.0]], C=[[5.0, 0.0]], Kp=0.8, Ki=1.2)
PLANTS = {"first order": FIRST, "second order": SECOND}


def relative_error(y, reference):
    y, reference = np.asarray(y, float), np.asarray(reference, float)
    return np.max(np.abs(y - reference)) / np.max(np.abs(reference))


def python_control_loop(plant, Cd, T, t_k, r_k):
    """y_k and u_k of python-control's discrete closed loop feedback(Cd * c2d(P, T), 1)."""
    Pd = control.c2d(control.ss(plant["A"], plant["B"], plant["C"], 0.0), T, method="zoh")
    y = control.forced_response(control.feedback(Cd * Pd, 1), timepts=t_k, inputs=r_k).outputs
    u = control.forced_response(control.feedback(Cd, Pd), timepts=t_k, inputs=r_k).outputs
    return np.ravel(y), np.ravel(u)


def controller_and_oracle(plant, T, method):
    """Our controller, and python-control's Cd: c2d by Tustin; for matched pole-zero (which
    python-control's c2d cannot do with the PI's pole at s = 0) the coefficients themselves,
    checked against sympy in test_matched_pi_and_pid_follow_the_definition."""
    num, den = analog_pid(plant["Kp"], plant["Ki"])
    controller = DigitalController.from_analog(num, den, T, method)
    if method == "tustin":
        return controller, control.c2d(control.tf(num, den), T, method="tustin")
    return controller, control.tf(controller.numd, controller.dend, T)


# ---------------------------------------------------------------------------------------------
# The multirate loop at the sampling instants
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["tustin", "matched"])
@pytest.mark.parametrize("T", [0.1, 0.4])
@pytest.mark.parametrize("name", PLANTS)
def test_multirate_loop_equals_python_control_discrete_closed_loop(name, T, method):
    """Oracle: python-control, feedback(Cd * c2d(P, T), 1) and feedback(Cd, Pd), forced response
    to the step r = 1.5: y_k and u_k of the multirate loop (N = 10 plant steps per period) agree
    to 1e-12, and so do those of discrete_closed_loop(...).response."""
    plant = PLANTS[name]
    controller, Cd = controller_and_oracle(plant, T, method)
    run = simulate_sampled(plant["A"], plant["B"], plant["C"], 0.0, controller, t_end=12.0, r=1.5, N=10)
    y_ref, u_ref = python_control_loop(plant, Cd, T, run.t_k, run.r_k)
    assert relative_error(run.y_k, y_ref) < 1e-12
    assert relative_error(run.u_k, u_ref) < 1e-12
    np.testing.assert_array_equal(run.e_k, run.r_k - run.y_k)
    loop = discrete_closed_loop(plant["A"], plant["B"], plant["C"], 0.0, controller).response(12.0, r=1.5)
    assert relative_error(loop.y, y_ref) < 1e-12 and relative_error(loop.u, u_ref) < 1e-12


def test_reference_function_and_initial_state():
    """Oracle: python-control. The sampled reference r(t_k) = sin t_k: forced response of
    feedback(Cd * Pd, 1). The plant state x0 = [1, -1] with r = 0 (controller at rest): the free
    response of feedback(Pd, Cd), whose state is [plant; controller] (python-control's rule)."""
    plant = SECOND
    controller, Cd = controller_and_oracle(plant, 0.2, "tustin")
    Pd = control.c2d(control.ss(plant["A"], plant["B"], plant["C"], 0.0), 0.2)
    run = simulate_sampled(plant["A"], plant["B"], plant["C"], 0.0, controller, t_end=6.0, r=np.sin, N=4)
    y = control.forced_response(control.feedback(Cd * Pd, 1), timepts=run.t_k, inputs=np.sin(run.t_k)).outputs
    assert relative_error(run.y_k, np.ravel(y)) < 1e-12
    run = simulate_sampled(plant["A"], plant["B"], plant["C"], 0.0, controller, t_end=6.0, r=0.0, N=4, x0=[1.0, -1.0])
    loop = control.feedback(Pd, control.ss(Cd))
    x0 = np.concatenate(([1.0, -1.0], np.zeros(loop.nstates - 2)))
    y = control.forced_response(loop, timepts=run.t_k, inputs=0.0, initial_state=x0).outputs
    assert relative_error(run.y_k, np.ravel(y)) < 1e-12


@pytest.mark.parametrize("name", PLANTS)
def test_closed_loop_poles_are_python_controls(name):
    """Oracle: python-control's poles of feedback(Cd * c2d(P, T), 1), T = 0.3, Tustin PI."""
    plant = PLANTS[name]
    controller, Cd = controller_and_oracle(plant, 0.3, "tustin")
    Pd = control.c2d(control.ss(plant["A"], plant["B"], plant["C"], 0.0), 0.3)
    ours = discrete_closed_loop(plant["A"], plant["B"], plant["C"], 0.0, controller).poles
    reference = control.feedback(Cd * Pd, 1).poles()
    np.testing.assert_allclose(np.sort_complex(ours), np.sort_complex(reference), rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Between the instants
# ---------------------------------------------------------------------------------------------


def test_fine_trajectory_is_the_exact_response_to_the_held_input():
    """Oracle: the closed form of G1 = 2/(s + 0.5) with u held at u_k on [t_k, t_k+1]:
    y(t_k + tau) = e^{-tau/2} y_k + 4 (1 - e^{-tau/2}) u_k; and scipy.signal.lsim with a held
    input (interp=False) of the second-order plant on the fine grid, to 1e-12."""
    controller, _ = controller_and_oracle(FIRST, 0.5, "tustin")
    run = simulate_sampled(FIRST["A"], FIRST["B"], FIRST["C"], 0.0, controller, t_end=8.0, N=25)
    tau = run.t - run.T * np.floor(run.t / run.T + 1e-9)  # time since the last instant
    k = np.minimum(np.round((run.t - tau) / run.T).astype(int), len(run.t_k) - 1)
    exact = np.exp(-tau / 2) * run.y_k[k] + 4 * (1 - np.exp(-tau / 2)) * run.u_k[k]
    assert relative_error(run.y, exact) < 1e-12
    controller, _ = controller_and_oracle(SECOND, 0.25, "matched")
    run = simulate_sampled(SECOND["A"], SECOND["B"], SECOND["C"], 0.0, controller, t_end=8.0, N=20)
    _, y, _ = signal.lsim((SECOND["A"], SECOND["B"], SECOND["C"], [[0.0]]), U=run.u, T=run.t, interp=False)
    assert relative_error(run.y, y) < 1e-12
    np.testing.assert_array_equal(run.y[:: run.N], run.y_k)


def test_rk4_plant_converges_at_fourth_order_to_the_exact_samples():
    """Oracle: python-control's discrete closed loop (exact at the instants); with the plant
    advanced by RK4 at h = T/N, the error at the instants falls like h^4 (measured order 3.8-4.2
    from N = 4 to 16)."""
    plant = SECOND
    controller, Cd = controller_and_oracle(plant, 0.4, "tustin")
    errors = []
    for N in (4, 8, 16):
        run = simulate_sampled(plant["A"], plant["B"], plant["C"], 0.0, controller, t_end=8.0, N=N, plant_method="rk4")
        y_ref, _ = python_control_loop(plant, Cd, 0.4, run.t_k, run.r_k)
        errors.append(np.max(np.abs(run.y_k - y_ref)))
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all((orders > 3.8) & (orders < 4.2)), orders


def test_ripple_of_a_first_order_plant_is_the_step_between_samples():
    """Oracle: closed form. For G1 with u held, y(t) moves monotonically from y_k to y_k+1 (an
    exponential), so max |y(t) - y_k| on [t_k, t_k+1] is |y_k+1 - y_k|; the peaks of y(t) and
    of the samples then coincide."""
    controller, _ = controller_and_oracle(FIRST, 0.5, "tustin")
    run = simulate_sampled(FIRST["A"], FIRST["B"], FIRST["C"], 0.0, controller, t_end=8.0, N=25)
    ripple = intersample_ripple(run)
    np.testing.assert_allclose(ripple.deviation, np.abs(np.diff(run.y_k)), rtol=1e-13, atol=1e-15)
    assert ripple.peak == ripple.peak_sampled and ripple.t_peak == ripple.t_peak_sampled


def test_peak_between_samples_of_a_second_order_plant():
    """Oracle: scipy.signal.lsim of the plant with the held input on the fine grid: the peak of
    y(t) and the largest deviation per interval; at T = 0.6 the peak falls between the instants
    and exceeds every sample."""
    controller, _ = controller_and_oracle(SECOND, 0.6, "tustin")
    run = simulate_sampled(SECOND["A"], SECOND["B"], SECOND["C"], 0.0, controller, t_end=12.0, N=60)
    ripple = intersample_ripple(run)
    _, y, _ = signal.lsim((SECOND["A"], SECOND["B"], SECOND["C"], [[0.0]]), U=run.u, T=run.t, interp=False)
    assert abs(ripple.peak - y.max()) < 1e-12
    N = run.N
    deviation = [np.max(np.abs(y[k * N:(k + 1) * N + 1] - run.y_k[k])) for k in range(len(run.t_k) - 1)]
    np.testing.assert_allclose(ripple.deviation, deviation, rtol=0, atol=1e-12)
    assert ripple.peak > ripple.peak_sampled + 1e-3
    assert ripple.largest_after(10.0) < ripple.deviation[0]


# ---------------------------------------------------------------------------------------------
# Stability limit in T
# ---------------------------------------------------------------------------------------------


def test_stability_limit_of_a_proportional_loop_has_a_closed_form():
    """Oracle: closed form. G = b/(s + a) with D(z) = K sampled at T: y_k+1 = e^{-aT} y_k +
    (b/a)(1 - e^{-aT}) K (r_k - y_k), one pole z = e^{-aT} - g (1 - e^{-aT}), g = K b / a. It
    reaches z = -1 at T = ln((g + 1)/(g - 1)) / a; a = 0.5, b = 2, K = 1.5: T = 2 ln(7/5)."""
    limit = stability_limit([[-0.5]], [[1.0]], [[2.0]], 0.0, [1.5], [1.0])
    assert abs(limit.T - 2 * math.log(7 / 5)) < 1e-12 * limit.T
    np.testing.assert_allclose(limit.critical_poles, [-1.0], atol=1e-9)


@pytest.mark.parametrize("method", ["tustin", "matched"])
def test_stability_limit_agrees_with_poles_in_z_and_with_simulation(method):
    """Oracle: python-control's poles of the discrete closed loop (controller c2d-ed by Tustin in
    python-control; for matched pole-zero our coefficients, checked against sympy below): inside
    the unit circle at 0.999 T*, outside at 1.001 T*. And the multirate simulation: just above
    T* (1.02 T*) the error grows over 400 samples, just below (0.98 T*) it decays."""
    plant = SECOND
    num, den = analog_pid(plant["Kp"], plant["Ki"])
    limit = stability_limit(plant["A"], plant["B"], plant["C"], 0.0, num, den, method=method)
    assert 0.1 < limit.T < 10 and limit.bracket[0] <= limit.T <= limit.bracket[1]
    for factor, inside in ((0.999, True), (1.001, False)):
        T = factor * limit.T
        _, Cd = controller_and_oracle(plant, T, method)
        Pd = control.c2d(control.ss(plant["A"], plant["B"], plant["C"], 0.0), T)
        assert (np.max(np.abs(control.feedback(Cd * Pd, 1).poles())) < 1) == inside
    for factor, grows in ((1.02, True), (0.98, False)):
        controller, _ = controller_and_oracle(plant, factor * limit.T, method)
        run = simulate_sampled(plant["A"], plant["B"], plant["C"], 0.0, controller, t_end=400 * factor * limit.T, N=2)
        early, late = np.max(np.abs(run.e_k[50:100])), np.max(np.abs(run.e_k[-50:]))
        assert (late > 3 * early) == grows and (late < early / 3) == (not grows)


def test_stability_limit_of_the_seed_plant_with_a_tustin_pi_is_the_nyquist_condition():
    """Oracle: python-control's c2d of the seed's plant 1/(s^3 + 4 s^2 + 8 s + 5) (zoh), and
    scipy's brentq. The Tustin PI is Kp at z = -1 ((z + 1) cancels the integral term), so a
    crossing at z = -1 happens where 1 + Kp P_d(-1) = 0, whatever Ki: for Kp = 10, Ki = 4 the
    limit is that root, and equals the limit of the proportional controller 10."""
    from scipy.optimize import brentq

    seed = control.tf([1.0], [1.0, 4.0, 8.0, 5.0])
    A, B, C, D = control.ssdata(control.tf2ss(seed))

    def nyquist(T):
        return 1.0 + 10.0 * np.real(control.c2d(seed, T)(-1.0))

    reference = brentq(nyquist, 1.5, 1.95, xtol=1e-14)
    limit = stability_limit(A, B, C, D, *analog_pid(10.0, 4.0), method="tustin")
    assert abs(limit.T - reference) < 1e-11 * reference
    np.testing.assert_allclose(limit.critical_poles, [-1.0], atol=1e-9)
    assert abs(stability_limit(A, B, C, D, [10.0], [1.0]).T - reference) < 1e-11 * reference
    assert stability_limit(A, B, C, D, [1.0], [1.0]).T == math.inf  # the seed's own loop, K = 1


def test_stability_limit_refuses_an_unstable_analog_loop():
    """Oracle: Routh. G2 with the PI 0.8 + 20/s: s^3 + 2 s^2 + 9 s + 100 has 2 * 9 < 100."""
    with pytest.raises(ValueError, match="analog closed loop"):
        stability_limit(SECOND["A"], SECOND["B"], SECOND["C"], 0.0, [0.8, 20.0], [1.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Digital controllers: the difference equation, Tustin and matched pole-zero
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("numd, dend", [([0.5, -0.2, 0.1], [1.0, -0.5, 0.06]), ([0.0, 2.0], [2.0, -1.0]),
                                        ([3.0], [1.0])])
def test_difference_equation_is_lfilter(numd, dend):
    """Oracle: scipy.signal.lfilter(numd, dend, e), the same difference equation (from rest)."""
    e = np.random.default_rng(3).standard_normal(50)
    law = DigitalController(numd, dend, T=0.1).start()
    u = [law.step(value) for value in e]
    np.testing.assert_allclose(u, signal.lfilter(numd, dend, e), rtol=1e-13, atol=1e-14)
    law.reset()
    assert law.step(e[0]) == u[0]


def test_analog_pid_is_the_parallel_form():
    """Oracle: python-control transfer-function algebra, Kp + Ki/s + Kd N s / (s + N)."""
    s = control.tf("s")
    for Kp, Ki, Kd, N in ((2.0, 3.0, 0.0, None), (2.0, 3.0, 0.5, 10.0), (1.0, 0.0, 0.2, 50.0)):
        reference = Kp + (Ki / s if Ki else 0) + (Kd * N * s / (s + N) if Kd else 0)
        num, den = analog_pid(Kp, Ki, Kd, N)
        ref_num, ref_den = np.ravel(reference.num[0][0]), np.ravel(reference.den[0][0])
        np.testing.assert_allclose(num / den[0], ref_num / ref_den[0], rtol=1e-14)
        np.testing.assert_allclose(den / den[0], ref_den / ref_den[0], rtol=1e-14)


@pytest.mark.parametrize("T", [1e-3, 0.05, 0.5])
def test_tustin_pi_and_pid_match_python_control(T):
    """Oracle: python-control c2d(..., method='tustin') of the analog PI and PID."""
    for Kp, Ki, Kd, N in ((1.5, 1.0, 0.0, None), (2.0, 3.0, 0.5, 10.0)):
        numd, dend = digital_pid(Kp, Ki, Kd, T, method="tustin", N=N)
        G = control.c2d(control.tf(*analog_pid(Kp, Ki, Kd, N)), T, method="tustin")
        ref_num, ref_den = np.ravel(G.num[0][0]), np.ravel(G.den[0][0])
        np.testing.assert_allclose(numd, ref_num / ref_den[0], rtol=1e-12)
        np.testing.assert_allclose(dend, ref_den / ref_den[0], rtol=1e-12)


def _sympy_matched(num, den, T):
    """Matched pole-zero from its definition, in sympy: z = e^{sT} for the exact roots, (z + 1)^r,
    and K_d from lim_{s->0} s^k G(s) = lim_{z->1} ((z - 1)/T)^k G(z)."""
    s, z, K = sp.symbols("s z K")
    T = sp.Rational(T)
    n_s, d_s = sp.Poly([sp.nsimplify(c) for c in num], s), sp.Poly([sp.nsimplify(c) for c in den], s)
    zeros, poles = sp.roots(n_s), sp.roots(d_s)
    r = d_s.degree() - n_s.degree()
    Gz = K * (z + 1) ** r * sp.Mul(*[(z - sp.exp(q * T)) ** m for q, m in zeros.items()]) / sp.Mul(
        *[(z - sp.exp(p * T)) ** m for p, m in poles.items()])
    k = poles.get(0, 0) - zeros.get(0, 0)
    low = sp.limit(s**k * n_s.as_expr() / d_s.as_expr(), s, 0)
    Kd = sp.solve(sp.Eq(sp.limit(((z - 1) / T) ** k * Gz, z, 1), low), K)[0]
    numd, dend = sp.fraction(sp.together(Gz.subs(K, Kd)))
    numd, dend = sp.Poly(sp.expand(numd), z), sp.Poly(sp.expand(dend), z)
    lead = dend.LC()

    def as_float(p):
        return np.array([complex(sp.N(c / lead, 30)).real for c in p.all_coeffs()])

    return as_float(numd), as_float(dend)


@pytest.mark.parametrize("num, den", [([1.5, 1.0], [1.0, 0.0]),            # PI 1.5 + 1/s
                                      ([7.0, 23.0, 30.0], [1.0, 10.0, 0.0]),  # PID 2 + 3/s + 0.5 * 10 s/(s + 10)
                                      ([11.0], [1.0, 1.0, 0.0]),            # 11 / (s (s + 1)), r = 2
                                      ([2.0, 1.0], [1.0, 3.0, 2.0]),        # no s = 0 roots, r = 1
                                      ([1.0, 0.0], [1.0, 1.0])])            # washout s/(s + 1), k = -1
def test_matched_pi_and_pid_follow_the_definition(num, den):
    """Oracle: sympy, the matched pole-zero mapping from its definition (exact roots, limits)."""
    numd, dend = c2d(num, den, 0.25, method="matched")
    ref_num, ref_den = _sympy_matched(num, den, 0.25)
    np.testing.assert_allclose(dend, ref_den, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(numd, np.concatenate((np.zeros(len(dend) - len(ref_num)), ref_num)),
                               rtol=1e-12, atol=1e-15)


def test_matched_pi_closed_form():
    """Oracle: closed form. Kp + Ki/s = Kp (s + Ki/Kp)/s: the zero goes to q = e^{-Ki T/Kp},
    the pole to 1, and lim ((z - 1)/T) K_d (z - q)/(z - 1) = K_d (1 - q)/T = Ki gives
    K_d = Ki T/(1 - q)."""
    Kp, Ki, T = 1.5, 1.0, 0.2
    q = math.exp(-Ki * T / Kp)
    numd, dend = digital_pid(Kp, Ki, 0.0, T, method="matched")
    np.testing.assert_allclose(numd, Ki * T / (1 - q) * np.array([1.0, -q]), rtol=1e-14)
    np.testing.assert_allclose(dend, [1.0, -1.0], rtol=0, atol=0)


def test_matched_is_python_controls_with_the_zeros_at_infinity_at_minus_one():
    """Oracle: python-control c2d(..., method='matched'), which keeps the r zeros at infinity
    there and matches the DC gain: for G without poles or zeros at s = 0 ours is
    python-control's times ((z + 1)/2)^r (each factor has DC gain 1)."""
    rng = np.random.default_rng(16)
    for _ in range(20):
        n = int(rng.integers(1, 5))
        m = int(rng.integers(0, n + 1))
        den = np.real(np.poly(-rng.uniform(0.2, 4.0, n)))
        num = np.real(np.poly(-rng.uniform(0.2, 4.0, m))) * rng.uniform(0.5, 2.0)
        T = rng.uniform(0.05, 0.8)
        G = control.c2d(control.tf(num, den), T, method="matched")
        ref_num = np.polymul(np.ravel(G.num[0][0]), np.poly(-np.ones(n - m)) / 2 ** (n - m))
        ref_den = np.ravel(G.den[0][0])
        numd, dend = c2d(num, den, T, method="matched")
        np.testing.assert_allclose(dend, ref_den / ref_den[0], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(numd, ref_num / ref_den[0], rtol=1e-10, atol=1e-14)


def test_matched_with_an_integrator_keeps_matlabs_gain():
    """Oracle: MATLAB (R2024b, MATLAB Answers 2175248): c2d(tf(11, [1 1 0]), 0.1, 'matched') is
    0.052339 (z + 1)/((z - 1)(z - 0.9048)), the modified method that keeps one zero at infinity.
    Ours puts that zero at z = -1 too, (z + 1)/2 times MATLAB's: leading coefficient 0.052339/2."""
    numd, dend = c2d([11.0], [1.0, 1.0, 0.0], 0.1, method="matched")
    assert round(2 * numd[0], 6) == 0.052339
    np.testing.assert_allclose(numd / numd[0], [1.0, 2.0, 1.0], rtol=1e-14)
    np.testing.assert_allclose(np.sort(np.roots(dend)), [round(math.exp(-0.1), 4), 1.0], atol=5e-5)


def test_results_unpack_as_t_y():
    """The result convention: simulate_sampled unpacks as the fine t, y; the response as t_k, y_k."""
    controller, _ = controller_and_oracle(FIRST, 0.5, "tustin")
    run = simulate_sampled(FIRST["A"], FIRST["B"], FIRST["C"], 0.0, controller, t_end=1.9, N=4)
    t, y = run
    assert t is run.t and y is run.y and len(t) == 4 * 4 + 1 and run.t_k[-1] == 2.0
    t_k, y_k = discrete_closed_loop(FIRST["A"], FIRST["B"], FIRST["C"], 0.0, controller).response(1.9)
    np.testing.assert_array_equal(t_k, run.t_k)
    np.testing.assert_allclose(y_k, run.y_k, rtol=1e-13)
    assert "T=0.5" in repr(run) and "N=4" in repr(run)


# ---------------------------------------------------------------------------------------------
# Extreme input names its argument (issue 23)
# ---------------------------------------------------------------------------------------------

PI_05 = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)


@pytest.mark.parametrize("t_end, error", [(None, TypeError), ("1.0", TypeError), (0.0, ValueError),
                                          (-1.0, ValueError), (float("inf"), ValueError)])
def test_t_end_must_be_a_positive_finite_number(t_end, error):
    with pytest.raises(error, match=r"t_end must be"):
        simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, PI_05, t_end=t_end)


def test_an_overflow_from_a_huge_gain_names_the_plant_and_the_controller():
    """Oracle: the loop gain C = 1e308 puts the closed-loop pole far outside the unit circle."""
    with pytest.raises(NonFiniteStateError, match=r"loop of the plant A, B, C and the controller is unstable"):
        simulate_sampled([[-1.0]], [1.0], [1e308], 0.0, PI_05, t_end=5.0, N=2)


def test_an_overflow_from_a_huge_initial_state_names_x0():
    with pytest.raises(NonFiniteStateError, match=r"started near the floating-point limit \(\|x0\| up to 1e\+308\)"):
        simulate_sampled([[0.0, 1.0], [-2.0, -3.0]], [0.0, 1.0], [1.0, 0.0], 0.0, PI_05, t_end=2.0,
                         x0=[1e308, 1e308], plant_method="rk4")


def test_stability_limit_names_a_t_max_too_small_to_scan_from():
    """Rule: Tustin's coefficients grow like (2 / T)^n: at T = 1e-320 they overflow."""
    with pytest.raises(ValueError, match=r"T_max = 1e-320 is too small to scan from"):
        stability_limit([[-1.0]], [1.0], [1.0], 0.0, [3.0], [1.0], T_max=1e-320)


def test_stability_limit_names_the_plant_when_the_analog_loop_is_unstable():
    with pytest.raises(ValueError, match=r"analog closed loop of the plant A, B, C and num/den must be stable"):
        stability_limit([[1.0]], [1.0], [1.0], 0.0, [0.5], [1.0])


def test_an_overflow_from_a_huge_reference_names_r():
    """Oracle: r = 1e308 times the PI gains is beyond 1.8e308 within a few samples."""
    loop = discrete_closed_loop([[-1.0]], [1.0], [1.0], 0.0, PI_05)
    with pytest.raises(NonFiniteStateError, match=r"started near the floating-point limit \(\|r\| up to 1e\+308\)"):
        loop.response(5.0, r=1e308)


def test_a_multirate_run_whose_output_overflows_names_r():
    """Oracle: r = 1e308 with the PI gains 2 + 4/s drives u_k beyond 1.8e308 (the state may stay finite)."""
    with pytest.raises(NonFiniteStateError, match=r"\|r\| up to 1e\+308"):
        simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, PI_05, t_end=5.0, r=1e308, N=2)
