"""Lab 03: the hints of the catalogued mistakes, called directly, and the checks under other parameters.

Each mistaken answer is built here independently of the lab's checks (by hand, with numpy, with
python-control), the task's check function is called directly, and the test asserts that it fails
with the hint that names the mistake (a key phrase of it).
"""

import control
import numpy as np
import pytest
from scipy import signal

from simlab.course import lab03_models as lab
from simlab.course.parameters import ParameterError

#: G(s) = (s + 8)(s^2 + 2s + 5) / ((2s + 3)(3s^2 + 4s + 13)) and H(s) = (s + 1)/(s^2 + 6s + 5), typed by hand.
NUM_G, DEN_G = [1.0, 10.0, 21.0, 40.0], [6.0, 17.0, 38.0, 39.0]
NUM_H, DEN_H = [1.0, 1.0], [1.0, 6.0, 5.0]


def _fails_with(result, phrase):
    text = str(result)
    assert not result and phrase in text, text


def _companion(a, b, *, negate=True, input_first=True):
    """The controllable canonical form of Task A2 from a monic a and b (by hand), with a slip."""
    n = len(a) - 1
    A = np.zeros((n, n))
    A[0, :] = -np.asarray(a[1:]) if negate else a[1:]
    A[1:, :-1] = np.eye(n - 1)
    B = np.zeros((n, 1))
    B[0 if input_first else -1, 0] = 1.0
    C = (np.asarray(b[1:]) - b[0] * np.asarray(a[1:])).reshape(1, n)
    return A, B, C, np.array([[b[0]]])


# --- Task A1 ---------------------------------------------------------------------------------


def test_a1_a_root_with_the_wrong_sign_is_named():
    """Oracle: (s - 8)(s^2 + 2s + 5) expanded by hand, s^3 - 6 s^2 - 11 s - 40."""
    _fails_with(lab.check_transfer_function([1.0, -6.0, -11.0, -40.0], DEN_G), "a root with the wrong sign")


def test_a1_factors_added_instead_of_multiplied_are_named():
    """Oracle: (2s + 3) + (3s^2 + 4s + 13) = 3 s^2 + 6 s + 16, by hand."""
    _fails_with(lab.check_transfer_function(NUM_G, [3.0, 6.0, 16.0]), "np.polyadd adds the factors")


def test_a1_denominator_divided_by_a0_is_named():
    """Oracle: the expanded denominator divided by 6, by hand."""
    _fails_with(lab.check_transfer_function(NUM_G, np.array(DEN_G) / 6), "you divided by a0")


# --- Task A2 ---------------------------------------------------------------------------------


def test_a2_plus_signs_in_the_first_row_of_a_are_named():
    """Oracle: the companion form with +a_i, built by hand from den/6 and num/6."""
    A, B, C, D = _companion(np.array(DEN_G) / 6, np.array(NUM_G) / 6, negate=False)
    _fails_with(lab.check_tf2ss(A, B, C, D), "the first row of A is -a_1")


def test_a2_input_fed_to_the_last_state_is_named():
    """Oracle: the companion form with B = [0, 0, 1]^T, built by hand."""
    A, B, C, D = _companion(np.array(DEN_G) / 6, np.array(NUM_G) / 6, input_first=False)
    _fails_with(lab.check_tf2ss(A, B, C, D), "the input enters the first state")


def test_a2_the_hand_built_form_passes():
    """Oracle: scipy.signal.tf2ss (MATLAB's controllable canonical form)."""
    assert lab.check_tf2ss(*_companion(np.array(DEN_G) / 6, np.array(NUM_G) / 6))
    assert lab.check_tf2ss(*signal.tf2ss(NUM_G, DEN_G))


# --- Task B1 ---------------------------------------------------------------------------------


def test_b1_forward_euler_mapping_is_named():
    """Oracle: 1 + pT of the poles of G from numpy's roots."""
    p = np.roots(DEN_G)
    _fails_with(lab.check_discrete_poles(1 + p * 1.0, T=1.0), "forward Euler's mapping")


def test_b1_poles_for_t_1_under_another_sample_time_are_named():
    """Oracle: e^p (the poles for T = 1 s) handed to the check of T = 0.5 s."""
    p = np.roots(DEN_G)
    _fails_with(lab.check_discrete_poles(np.exp(p), T=0.5), "the sample time is T = 0.5 s")


def _zoh_poles(T):
    """The poles of python-control's c2d (zoh) of G at the sample time T (s)."""
    return control.poles(control.c2d(control.tf(NUM_G, DEN_G), T, method="zoh"))


def test_b1_poles_at_t_and_t_half_from_python_control_pass():
    """Oracle: the poles of python-control's c2d (zoh) of G at T = 1 s and T/2 = 0.5 s."""
    assert lab.check_discrete_poles(_zoh_poles(1.0), _zoh_poles(0.5), T=1.0)


def test_b1_sample_time_left_out_is_named_at_the_default_t():
    """Oracle: e^p of the poles of G from numpy's roots, the answer of a function that forgets its
    sample time, given for T = 1 s and for T/2 = 0.5 s."""
    p = np.roots(DEN_G)
    _fails_with(lab.check_discrete_poles(np.exp(p), np.exp(p), T=1.0), "the sample time is missing")


def test_b1_sample_time_left_out_differs_beyond_the_tolerance_at_the_defaults():
    """Oracle: python-control's c2d (zoh) poles of G. At the default T = 1 s, e^p equals the poles at T
    (the coincidence), but at T/2 it differs from the right poles by far more than the check's
    tolerance (rtol 1e-9, atol 1e-12 on the coefficients of prod (z - z_i))."""
    assert lab.PARAMETERS["T"].default == 1.0
    wrong = np.real(np.poly(np.exp(np.roots(DEN_G))))
    np.testing.assert_allclose(wrong, np.real(np.poly(_zoh_poles(1.0))), rtol=1e-9, atol=1e-12)
    right_half = np.real(np.poly(_zoh_poles(0.5)))
    assert not np.allclose(wrong, right_half, rtol=1e-9, atol=1e-12)
    assert np.max(np.abs(wrong - right_half)) > 0.1


# --- Task C1 ---------------------------------------------------------------------------------


def test_c1_h_in_the_forward_path_is_named():
    """Oracle: python-control feedback(H, G) = H/(1 + HG)."""
    loop = control.feedback(control.tf(NUM_H, DEN_H), control.tf(NUM_G, DEN_G))
    _fails_with(lab.check_connection("feedback", loop.num[0][0], loop.den[0][0]), "G is in the forward path")


def test_c1_unity_feedback_is_named():
    """Oracle: python-control feedback(G, 1) = G/(1 + G)."""
    loop = control.feedback(control.tf(NUM_G, DEN_G), 1)
    _fails_with(lab.check_connection("feedback", loop.num[0][0], loop.den[0][0]), "unity feedback")


def test_c1_denominators_added_for_the_parallel_connection_are_named():
    """Oracle: n1 d2 + n2 d1 over d1 + d2, with numpy's polynomial functions."""
    num = np.polyadd(np.polymul(NUM_G, DEN_H), np.polymul(NUM_H, DEN_G))
    _fails_with(lab.check_connection("parallel", num, np.polyadd(DEN_G, DEN_H)), "not the sum d1 + d2")


def test_c1_a_monic_connection_is_accepted():
    """Oracle: python-control's parallel connection, divided by its leading coefficient."""
    joined = control.parallel(control.tf(NUM_G, DEN_G), control.tf(NUM_H, DEN_H))
    num, den = joined.num[0][0], joined.den[0][0]
    assert lab.check_connection("parallel", num / den[0], den / den[0])


# --- Task D1 ---------------------------------------------------------------------------------


def _gramian_hsv(num, den):
    """Hankel singular values from the Gramians of scipy's tf2ss realization (an independent oracle)."""
    from scipy.linalg import solve_continuous_lyapunov

    A, B, C, _ = signal.tf2ss(num, den)
    Wc = solve_continuous_lyapunov(A, -B @ B.T)
    Wo = solve_continuous_lyapunov(A.T, -C.T @ C)
    return np.sort(np.sqrt(np.abs(np.linalg.eigvals(Wc @ Wo).real)))[::-1]


SERIES = (np.polymul(NUM_G, NUM_H), np.polymul(DEN_G, DEN_H))


def test_d1_hsv_of_g_alone_is_named():
    """Oracle: Gramians of G (scipy's Lyapunov solver)."""
    hsv = _gramian_hsv(NUM_G, DEN_G)
    _fails_with(lab.check_reduction_bound(hsv, 2 * np.sum(hsv[2:]), order=2), "of G alone")


def test_d1_hsv_after_minreal_is_named():
    """Oracle: Gramians of G H with the factor s + 1 cancelled by hand, (s + 8)(s^2 + 2s + 5)/(d1 (s + 5))."""
    hsv = _gramian_hsv(NUM_G, np.polymul(DEN_G, [1.0, 5.0]))
    _fails_with(lab.check_reduction_bound(hsv, 2 * np.sum(hsv[2:]), order=2), "minimal realization")


def test_d1_only_the_first_discarded_value_is_named():
    """Oracle: Gramians of G H; 2 sigma_3 differs from 2 (sigma_3 + sigma_4 + sigma_5) at the lab's r = 2."""
    hsv = _gramian_hsv(*SERIES)
    assert abs(2 * hsv[2] - 2 * np.sum(hsv[2:])) > 1e-3  # the wrong method cannot pass by chance at r = 2
    _fails_with(lab.check_reduction_bound(hsv, 2 * hsv[2], order=2), "the first discarded value")


def test_d1_sigma_r_counted_as_discarded_is_named():
    """Oracle: Gramians of G H; 2 (sigma_2 + ... + sigma_5) for r = 2."""
    hsv = _gramian_hsv(*SERIES)
    _fails_with(lab.check_reduction_bound(hsv, 2 * np.sum(hsv[1:]), order=2), "a kept value")


# --- Task E1 ---------------------------------------------------------------------------------


def test_e1_f_and_k_swapped_are_named():
    """Oracle: 1/(m s^2 + k s + f) typed by hand for the lab's m = 1, f = 0.5, k = 4."""
    result = lab.check_analogous([1.0], [1.0, 4.0, 0.5], 1.0, 0.5, 0.25, [1.0], [1.0, 0.5, 4.0])
    _fails_with(result, "f and k are swapped")


def test_e1_c_instead_of_its_inverse_in_the_circuit_is_named():
    """Oracle: 1/(L s^2 + R s + C) typed by hand with L = 1 H, R = 0.5 ohm, C = 0.25 F."""
    result = lab.check_analogous([1.0], [1.0, 0.5, 4.0], 1.0, 0.5, 0.25, [1.0], [1.0, 0.5, 0.25])
    _fails_with(result, "is 1/C, not C")


def test_e1_a_monic_model_is_accepted_for_another_mass():
    """Oracle: (1/m)/(s^2 + (f/m) s + k/m), the same transfer function divided by m = 2."""
    m, f, k = 2.0, 0.8, 5.0
    assert lab.check_analogous([1 / m], [1.0, f / m, k / m], m, f, 1 / k, [1 / m], [1.0, f / m, k / m],
                               m=m, f=f, k_spring=k)


# --- Task F1 ---------------------------------------------------------------------------------


def test_f1_feedback_arguments_swapped_are_named():
    """Oracle: python-control feedback(1, G) = 1/(1 + G) with G = 1/(s^3 + 4s^2 + 8s + 5)."""
    loop = control.feedback(1, control.tf([1], [1, 4, 8, 5]))
    num, den = loop.num[0][0], loop.den[0][0]
    ss = control.ss(control.feedback(control.tf([1], [1, 4, 8, 5]), 1))
    _fails_with(lab.check_seed_feedback(num, den, ss.A, ss.B, ss.C, ss.D), "forward path comes first")


# --- the parameters --------------------------------------------------------------------------


def test_correct_answers_pass_under_the_alternative_parameters():
    """Oracle: python-control (c2d poles, the Gramians' Hankel singular values via scipy) and the
    force-voltage analogy by hand, at every parameter's alternative value at once."""
    values = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}
    assert not lab.PARAMETERS.problems(values)
    T, order, m, f, k = (values[name] for name in ("T", "order", "m", "f", "k_spring"))
    z_poles, z_poles_half = _zoh_poles(T), _zoh_poles(T / 2)
    hsv = _gramian_hsv(*SERIES)
    namespace = {**values, "z_poles": z_poles, "z_poles_half": z_poles_half, "hsv": hsv, "bound": 2 * np.sum(hsv[order:]),
                 "num_mech": [1.0], "den_mech": [m, f, k], "L": m, "R": f, "C_cap": 1 / k,
                 "num_elec": [1.0], "den_elec": [m, f, k]}
    for task in ("B1", "D1", "E1"):
        result = lab.check(task, namespace=namespace)
        assert result, result
        assert "checked with" in str(result)


@pytest.mark.parametrize("name, value, phrase", [
    ("T", 6.0, "0 < T <= 5"), ("T", 0.0, "0 < T <= 5"), ("order", 4, "1 <= order <= 3"),
    ("order", 2.5, "whole number"), ("m", -1.0, "m > 0"), ("f", 5.0, "underdamped")])
def test_a_value_that_breaks_its_rule_is_refused_with_the_rule_named(name, value, phrase):
    with pytest.raises(ParameterError, match=phrase):
        lab.use_parameters({name: value}, show=False)
    task = {"T": "B1", "order": "D1"}.get(name, "E1")
    result = lab.check(task, namespace={**lab.TASKS[task].reference(), name: value})
    assert not result and phrase in str(result) and "parameter cell" in str(result), result
