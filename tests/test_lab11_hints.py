"""Lab 11: the self-checks name the typical mistakes, and follow the parameter contract.

Each mistaken answer is built here independently of the lab's own reference functions (by hand,
from a closed form, with python-control or scipy), the task's check is called directly, and the
test asserts that it fails with the hint that names the mistake. The last tests call the checks
with every parameter at its alternative value, against independent oracles.
"""

import math

import control
import mpmath
import numpy as np
import pytest
from scipy import signal

from simlab.course import lab11_delay_sampled_data as lab
from simlab.course.parameters import ParameterError

#: The lab's defaults, written out (the oracles below do not read the lab's constants).
DEFAULTS = {"K": 2.0, "T1": 1.5, "tau": 0.5, "h": 0.04, "r": 1.0}
#: Every parameter of Parts A-C at its alternative value.
ALTERNATIVE = {"K": 1.0, "T1": 2.0, "tau": 0.7, "h": 0.05, "r": 2.0}


def _grid(h):
    return h * np.arange(round(10.0 / h) + 1)


def _fopdt(t, tau, gain, rate, r):
    """r gain (1 - e^{-rate (t - tau)}) for t >= tau, 0 before: the step response of gain rate / (s + rate)."""
    return np.where(t >= tau, r * gain * (1.0 - np.exp(-rate * np.maximum(t - tau, 0.0))), 0.0)


def _simc(K, T1):
    """(K_p, T_i) by hand: T_i = T1, K_p = T1 / (K (lambda + tau_0)), lambda = 0.75 s, tau_0 = 0.5 s."""
    return T1 / (K * (0.75 + 0.5)), T1


#: The loop gain k = K K_p / T_i = 1 / (lambda + tau_0) by hand (1/s): the crossover omega_c of Task B2.
K_LOOP = 1 / (0.75 + 0.5)


def _loop_sum(t, tau, k, r, terms, delay=lambda j: j):
    """r sum_{j in terms} (-1)^(j-1) (k (t - delay(j) tau))^j / j! over t >= delay(j) tau, in 30-digit mpmath."""
    mpmath.mp.dps = 30
    values = []
    for tk in t:
        total = mpmath.mpf(0)
        for j in terms:
            start = delay(j) * mpmath.mpf(tau)
            if mpmath.mpf(tk) >= start - mpmath.mpf("1e-12"):
                total += (-1) ** (j - 1) * (k * (mpmath.mpf(tk) - start)) ** j / mpmath.factorial(j)
        values.append(float(r * total))
    return np.array(values)


def _per_element(tau, h, K, T1, r, inertia=None, span=10.0):
    """The loop per element, written from the seed's formulas (no simlab); the delay by numpy.interp.

    PI K_p + (K_p/T_i)/s: x1 += (K_p/T_i) h u1, y1 = x1 + K_p u1. Element 2 is K/(a + b s) with
    (a, b) = ``inertia`` (default (1, T1)): x2 = e^{-a h/b} x2 + (K/a)(1 - e^{-a h/b}) w, y2 = x2;
    u1 = r - y2, u2 = y1, w = u2 delayed by tau (linear interpolation, zero before t = 0).
    """
    a, b = (1.0, T1) if inertia is None else inertia
    Kp, Ti = _simc(K, T1)
    Phi = math.exp(-a * h / b)
    x1 = x2 = y1 = y2 = 0.0
    history, y = [], [0.0]
    for _ in range(round(span / h)):
        u1, u2 = r - y2, y1
        history.append(u2)
        times = h * np.arange(len(history))
        w = np.interp(times[-1] - tau, np.concatenate([[-h], times]), np.concatenate([[0.0], history]), left=0.0)
        x1 += Kp / Ti * h * u1
        x2 = Phi * x2 + K / a * (1 - Phi) * w
        y1, y2 = x1 + Kp * u1, x2
        y.append(y2)
    return np.array(y)


def _failed_with(result, phrase):
    assert not result.passed and result.done, str(result)
    assert phrase in str(result), str(result)


# ---------------------------------------------------------------------------------------------
# Task A1
# ---------------------------------------------------------------------------------------------


def test_step_with_a_pade_model_in_place_of_the_delay_is_named():
    """Oracle: python-control's forced response of K/(T1 s + 1) times its own order-1 pade."""
    t = _grid(0.04)
    model = control.tf([2.0], [1.5, 1.0]) * control.tf(*control.pade(0.5, 1))
    y = np.asarray(control.forced_response(model, timepts=t, inputs=np.ones(len(t))).outputs, dtype=float)
    _failed_with(lab.check_step(y), "Padé approximant of order 1 in place of the delay")


def test_step_of_the_plant_with_ascending_powers_is_named():
    """Oracle: the closed form of K/(s + T1), K/T1 (1 - e^{-T1 (t - tau)}) after tau (by hand)."""
    t = _grid(0.04)
    _failed_with(lab.check_step(_fopdt(t, 0.5, 2.0 / 1.5, 1.5, 1.0)), "K/(s + T1)")


def test_step_of_height_one_where_r_is_two_is_named():
    """Oracle: the closed form K (1 - e^{-(t - tau)/T1}) of a unit step, checked with r = 2."""
    t = _grid(0.04)
    _failed_with(lab.check_step(_fopdt(t, 0.5, 2.0, 1 / 1.5, 1.0), r=2.0), "unit step")


# ---------------------------------------------------------------------------------------------
# Task A2
# ---------------------------------------------------------------------------------------------


def test_pade_in_monic_form_with_the_gain_minus_one_is_named():
    """Oracle: (s - 2/tau)/(s + 2/tau) written by hand (scipy.signal.freqs: gain -1 at s = 0)."""
    num, den = [1.0, -4.0], [1.0, 4.0]
    assert signal.freqs(num, den, worN=[0.0])[1][0] == pytest.approx(-1.0)
    _failed_with(lab.check_pade1(num, den, tau=0.5), "the gain -1 at s = 0")


def test_a_first_order_lag_for_the_delay_is_named():
    """Oracle: 1/(1 + tau s) written by hand."""
    _failed_with(lab.check_pade1([0.0, 1.0], [0.5, 1.0], tau=0.5), "first-order lag")


# ---------------------------------------------------------------------------------------------
# Task B1
# ---------------------------------------------------------------------------------------------


def test_loop_sum_from_j_zero_is_named():
    """Oracle: the closed-form sum in mpmath over j = 0 .. J - 1 (range(J)), k = 0.8 1/s."""
    t = _grid(0.04)
    _failed_with(lab.check_loop(_loop_sum(t, 0.5, K_LOOP, 1.0, range(0, 20))), "starts at j = 0")


def test_loop_with_the_term_j_delayed_by_j_minus_one_is_named():
    """Oracle: the closed-form sum in mpmath with the term j starting at (j - 1) tau."""
    t = _grid(0.04)
    y = _loop_sum(t, 0.5, K_LOOP, 1.0, range(1, 21), delay=lambda j: j - 1)
    _failed_with(lab.check_loop(y), "delayed by (j - 1) tau")


def test_loop_with_the_gain_k_for_every_term_is_named():
    """Oracle: the closed form by hand: tf2ss([k], ...) makes the term j k/s^j (not (k/s)^j, gain k**j),
    whose delayed step response is k (t - j tau)^j / j! after j tau."""
    t = _grid(0.04)
    y = sum((-1) ** (j - 1) * K_LOOP * np.maximum(t - 0.5 * j, 0.0) ** j / math.factorial(j) for j in range(1, 21))
    _failed_with(lab.check_loop(y), "the gain of (k/s)^j is k**j")


def test_loop_without_its_last_term_is_correct_to_the_tolerance():
    """Oracle: mpmath: the term J = 14 of tau = 0.7 s is below 1e-20 on [9.8, 10] s, so range(1, J) is no
    mistake the check could see (nor one that matters)."""
    t = _grid(0.04)
    assert lab.check_loop(_loop_sum(t, 0.7, K_LOOP, 1.0, range(1, 14)), tau=0.7)


def test_loop_response_to_a_unit_step_where_r_is_two_is_named():
    """Oracle: mpmath's closed-form sum for r = 1, checked with r = 2."""
    t = _grid(0.04)
    _failed_with(lab.check_loop(_loop_sum(t, 0.5, K_LOOP, 1.0, range(1, 21)), r=2.0), "unit step")


# ---------------------------------------------------------------------------------------------
# Task B2
# ---------------------------------------------------------------------------------------------


def test_margin_without_the_integrators_phase_is_named():
    """Oracle: control.margin of the rational C(s) G(s) for omega_c; PM written as pi - omega_c tau."""
    Kp, Ti = _simc(2.0, 1.5)
    _, _, _, omega_c = control.margin(control.tf([Kp * Ti, Kp], [Ti, 0.0]) * control.tf([2.0], [1.5, 1.0]))
    phase_margin = math.pi - omega_c * 0.5
    result = lab.check_margin(omega_c, phase_margin, phase_margin / omega_c)
    _failed_with(result, "the integrator's phase -pi/2 is missing")
    assert "lacks the integrator's phase" in str(result)


def _pc_margins(K, T1, tau):
    """(omega_c, PM in rad, delay margin in s) by control.margin of the rational C(s) G(s), PM less omega_c tau."""
    Kp, Ti = _simc(K, T1)
    _, pm, _, omega_c = control.margin(control.tf([Kp * Ti, Kp], [Ti, 0.0]) * control.tf([K], [T1, 1.0]))
    phase_margin = math.radians(pm) - omega_c * tau
    return omega_c, phase_margin, phase_margin / omega_c


def test_margin_with_the_delays_lag_taken_as_tau_is_named():
    """Oracle: the closed form by hand: omega_c = k = 1/(lambda + tau_0), the slip PM = pi/2 - tau (the lag
    tau where it is omega_c tau), and the delay margin that follows from it."""
    phase_margin = math.pi / 2 - 0.5
    result = lab.check_margin(K_LOOP, phase_margin, phase_margin / K_LOOP)
    _failed_with(result, "the delay's phase lag is omega_c tau, not tau")
    assert "phase margin (rad): 1.0708" in str(result)


def test_delay_margin_without_the_division_by_omega_c_is_named():
    """Oracle: control.margin for omega_c and PM; the slip gives the delay margin as PM itself."""
    omega_c, phase_margin, _ = _pc_margins(2.0, 1.5, 0.5)
    result = lab.check_margin(omega_c, phase_margin, phase_margin)
    _failed_with(result, "you left out the division by omega_c")
    assert "(= k = 0.8 rad/s)" in str(result)


@pytest.mark.parametrize("parameters", [DEFAULTS, ALTERNATIVE], ids=["defaults", "alternatives"])
def test_the_slips_of_task_b2_give_other_numbers_than_the_right_ones(parameters):
    """The slips PM = pi/2 - tau and delay margin = PM give the right numbers only where omega_c = 1 rad/s;
    the tuning keeps omega_c = k = 0.8 rad/s, so they differ from control.margin's values by far more
    than the check's tolerance (check_value: rtol 1e-6, atol 1e-9)."""
    tau = parameters["tau"]
    omega_c, phase_margin, delay_margin = _pc_margins(parameters["K"], parameters["T1"], tau)
    assert omega_c == pytest.approx(K_LOOP, rel=1e-9) and abs(omega_c - 1.0) > 0.1
    for wrong, right in ((math.pi / 2 - tau, phase_margin), (phase_margin, delay_margin)):
        assert abs(wrong - right) > 0.05 * abs(right)
        assert not np.isclose(wrong, right, rtol=1e-6, atol=1e-9)
    assert not lab.check_margin(omega_c, math.pi / 2 - tau, (math.pi / 2 - tau) / omega_c, tau=tau,
                                K=parameters["K"], T1=parameters["T1"])
    assert not lab.check_margin(omega_c, phase_margin, phase_margin, tau=tau, K=parameters["K"], T1=parameters["T1"])


# ---------------------------------------------------------------------------------------------
# Task C1
# ---------------------------------------------------------------------------------------------


def test_shift_register_that_reads_negative_indices_is_named():
    """The student's register without the guard for n - d < 0, written here (Python wraps the index)."""

    def wrapping(u, tau, h):
        d = int(np.floor(tau / h + 1e-9))
        alpha = max(tau / h - d, 0.0)
        return np.array([(1 - alpha) * u[n - d] + alpha * u[n - d - 1] for n in range(len(u))])

    _failed_with(lab.check_shift_register(wrapping), "wraps around")


# ---------------------------------------------------------------------------------------------
# Task C2
# ---------------------------------------------------------------------------------------------


def test_structure_graph_with_the_inertia_row_in_descending_powers_is_named():
    """Oracle: the per-element recurrence (no simlab) with element 2 = K/(T1 + s)."""
    y = _per_element(0.5, 0.04, 2.0, 1.5, 1.0, inertia=(1.5, 1.0))
    _failed_with(lab.check_graph(y), "element 2 is K/(T1 + s)")


def test_structure_graph_for_a_unit_step_where_r_is_two_is_named():
    """Oracle: the per-element recurrence (no simlab) for r = 1, checked with r = 2."""
    _failed_with(lab.check_graph(_per_element(0.5, 0.04, 2.0, 1.5, 1.0), r=2.0), "unit step")


# ---------------------------------------------------------------------------------------------
# Tasks D1-D3
# ---------------------------------------------------------------------------------------------


def test_tustin_without_the_trapezoids_half_is_named():
    """Oracle: the PI 10 + 4/s with K_i T in place of K_i T / 2, by hand; python-control's Tustin differs."""
    T = 1.5
    numd = [10.0 + 4.0 * T, -(10.0 - 4.0 * T)]
    tustin = control.sample_system(control.tf([10.0, 4.0], [1.0, 0.0]), T, method="tustin")
    assert not np.allclose(np.ravel(tustin.num[0][0]) / tustin.den[0][0][0], numd)
    _failed_with(lab.check_tustin(numd, [1.0, -1.0], T), "factor 1/2 is missing")


def _pc_radius(T, method):
    """max |z_i| of the seed loop by python-control: zoh plant, Tustin or matched PI 10 + 4/s."""
    plant = control.sample_system(control.tf([1.0], [1.0, 4.0, 8.0, 5.0]), T, method="zoh")
    if method == "tustin":
        pi = control.sample_system(control.tf([10.0, 4.0], [1.0, 0.0]), T, method="tustin")
    else:
        zero = math.exp(-4.0 * T / 10.0)
        gain = 4.0 * T / (1 - zero)
        pi = control.tf([gain, -gain * zero], [1.0, -1.0], T)
    return float(np.max(np.abs(control.feedback(pi * plant, 1).poles())))


SCAN = [round(1.5 + 0.05 * i, 2) for i in range(13)]


def test_scan_that_takes_the_smallest_stable_T_is_named():
    """Oracle: python-control's closed-loop poles over the scan; the bracket built with min for max."""
    stable = [T for T in SCAN if _pc_radius(T, "tustin") < 1.0]
    unstable = [T for T in SCAN if _pc_radius(T, "tustin") >= 1.0]
    _failed_with(lab.check_scan(min(stable), min(unstable)), "smallest stable T")


def test_scan_of_the_matched_pi_is_named():
    """Oracle: python-control's poles of the matched design over the scan."""
    stable = [T for T in SCAN if _pc_radius(T, "matched") < 1.0]
    unstable = [T for T in SCAN if _pc_radius(T, "matched") >= 1.0]
    _failed_with(lab.check_scan(max(stable), min(unstable)), "matched design's limit")


def test_limit_taken_as_an_end_of_the_bracket_is_named():
    """Oracle: python-control's poles: the largest stable T of the scan, given as the limit itself."""
    stable = max(T for T in SCAN if _pc_radius(T, "tustin") < 1.0)
    matched = lab.stability_limits()["matched"].T
    _failed_with(lab.check_limits(stable, matched), "an end of the scan's bracket")


# ---------------------------------------------------------------------------------------------
# The parameter contract: every check follows the notebook's values
# ---------------------------------------------------------------------------------------------


def test_alternatives_are_the_declared_ones():
    declared = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}
    assert {name: declared[name] for name in ALTERNATIVE} == ALTERNATIVE
    assert lab.PARAMETERS.defaults() == {**DEFAULTS, "T": 1.5, "T_values": (0.1, 0.5, 1.0, 1.5, 1.9, 2.0)}


def test_correct_answers_at_the_alternative_values_pass_the_checks_called_directly():
    """Oracles: the closed form (numpy) for A1, python-control's pade for A2, mpmath's closed-form sum
    for B1, control.margin for B2, the per-element recurrence (no simlab) for C2, python-control's
    Tustin for D1; all at K = 1, T1 = 2 s, tau = 0.7 s, h = 0.05 s, r = 2, T = 1 s."""
    p = ALTERNATIVE
    t = _grid(p["h"])
    Kp, Ti = _simc(p["K"], p["T1"])
    k = p["K"] * Kp / Ti
    assert lab.check_step(_fopdt(t, p["tau"], p["K"], 1 / p["T1"], p["r"]), **p)
    num, den = control.pade(p["tau"], 1)
    assert lab.check_pade1(np.asarray(num), np.asarray(den), tau=p["tau"])
    J = int(10.0 / p["tau"])
    assert lab.check_loop(_loop_sum(t, p["tau"], k, p["r"], range(1, J + 1)), **p)
    _, pm, _, omega_c = control.margin(control.tf([Kp * Ti, Kp], [Ti, 0.0]) * control.tf([p["K"]], [p["T1"], 1.0]))
    phase_margin = math.radians(pm) - omega_c * p["tau"]
    assert lab.check_margin(omega_c, phase_margin, phase_margin / omega_c, tau=p["tau"], K=p["K"], T1=p["T1"])
    assert lab.check_graph(_per_element(p["tau"], p["h"], p["K"], p["T1"], p["r"]), **p)
    tustin = control.sample_system(control.tf([10.0, 4.0], [1.0, 0.0]), 1.0, method="tustin")
    assert lab.check_tustin(np.ravel(tustin.num[0][0]), np.ravel(tustin.den[0][0]), T=1.0)


def test_checks_at_the_alternatives_refuse_the_default_answers():
    """The default's answer is wrong at the alternative values (oracle: the closed form by hand)."""
    t = _grid(0.05)
    assert not lab.check_step(_fopdt(t, 0.7, 2.0, 1 / 1.5, 1.0), tau=0.7, h=0.05, K=1.0, T1=2.0, r=2.0)


def test_tasks_read_every_parameter_from_the_notebook_and_name_them():
    """Through lab.check: the notebook's values reach the check and its last line names them."""
    t = _grid(ALTERNATIVE["h"])
    namespace = {**ALTERNATIVE, "y_delay": _fopdt(t, 0.7, 1.0, 1 / 2.0, 2.0)}
    result = lab.check("A1", namespace=namespace)
    assert result.passed, str(result)
    assert result.details[-1] == "(checked with K = 1, T1 = 2 s, tau = 0.7 s, h = 0.05 s, r = 2)"


def test_the_reference_borrowed_by_a_later_cell_follows_the_parameters():
    """lab.take: Task B1's reference at the notebook's values (oracle: mpmath's closed-form sum)."""
    p = ALTERNATIVE
    t = _grid(p["h"])
    Kp, Ti = _simc(p["K"], p["T1"])
    borrowed = lab.take("y_loop", namespace=dict(p)).y_loop
    np.testing.assert_allclose(borrowed, _loop_sum(t, p["tau"], p["K"] * Kp / Ti, p["r"], range(1, 15)), atol=1e-10)


@pytest.mark.parametrize("name, value, phrase", [
    ("h", 0.03, "must divide the span, 10 s"), ("tau", 0.05, "0.1 <= tau <= 1.5"), ("T", 2.5, "0.01 <= T <= 2"),
    ("T_values", (1.0, 0.5), "strictly increasing"), ("K", -1.0, "K > 0")])
def test_a_value_that_breaks_its_rule_is_refused_with_the_rule(name, value, phrase):
    with pytest.raises(ParameterError, match=name) as error:
        lab.use_parameters({**lab.PARAMETERS.defaults(), name: value}, show=False)
    assert phrase in str(error.value)


def test_pi_follows_the_plant_and_keeps_the_loop_gain():
    """The SIMC rule by hand: K_p = T1 / (K (lambda + tau_0)), T_i = T1, k = K K_p / T_i = 0.8 1/s."""
    for K, T1 in ((2.0, 1.5), (1.0, 2.0), (4.0, 0.5)):
        assert lab.pi_gains(K, T1) == pytest.approx(_simc(K, T1), rel=1e-15)
        assert lab.loop_gain(K, T1) == pytest.approx(0.8, rel=1e-15)
    assert (lab.KP, lab.TI) == pytest.approx((0.6, 1.5), rel=1e-15)
