"""Lab 04: the hints of the catalogued mistakes, called directly, and the checks under other parameters.

Each mistaken answer is built here independently of the lab's checks (by hand, with sympy, with
scipy.linalg.expm), the task's check function is called directly, and the test asserts that it
fails with the hint that names the mistake (a key phrase of it).
"""

import re

import numpy as np
import pytest
import sympy as sp
from scipy.linalg import expm

from simlab.course import lab04_discrete_similarity as lab
from simlab.course.parameters import ParameterError
from simlab.similarity import lsim

A_LAB = np.array([[0.0, 1.0], [-2.0, -3.0]])
B_LAB = np.array([[0.0], [1.0]])
C_LAB = np.array([[1.0, 0.0]])
t, T_sym = sp.Symbol("t", positive=True), sp.Symbol("T", positive=True)
e = sp.exp


def _fails_with(result, phrase):
    text = str(result)
    assert not result and phrase in text, text


def _series(A, B, T, terms, *, add_first=True):
    """The truncated series of Task B1, written here; ``add_first=False`` updates the term first (the slip)."""
    term, Phi, integral = np.eye(len(A)), np.zeros((len(A), len(A))), np.zeros((len(A), len(A)))
    for k in range(terms):
        if not add_first:
            term = term @ (A * T) / (k + 1)
        Phi, integral = Phi + term, integral + term / (k + 1)
        if add_first:
            term = term @ (A * T) / (k + 1)
    return Phi, T * integral @ B


def _van_loan(A, B, T):
    """Phi, Gamma, Gamma_hat from scipy's expm of the augmented matrix [[AT, BT, 0], [0, 0, I], [0, 0, 0]]."""
    M = np.zeros((4, 4))
    M[:2, :2], M[:2, 2:3], M[2, 3] = A * T, B * T, 1.0
    E = expm(M)
    return E[:2, :2], E[:2, 2:3], E[:2, 3:]


def _loop(Phi, Gamma, C, u, x0, *, transposed=False):
    """x_{k+1} = Phi x_k + Gamma u_k, y_k = C x_k, written here; ``transposed`` computes x_k @ Phi (the slip)."""
    x = [np.asarray(x0, dtype=float)]
    for k in range(len(u) - 1):
        x.append((x[-1] @ Phi if transposed else Phi @ x[-1]) + Gamma[:, 0] * u[k])
    return np.array(x) @ C[0]


# --- Task A1 ---------------------------------------------------------------------------------


def test_a1_resolvent_with_plus_a_is_named():
    """Oracle: e^{-At} by hand, Phi(-t) of Phi(t) = [[2e^-t - e^-2t, e^-t - e^-2t], [...]] of the lab's A."""
    wrong = sp.Matrix([[2 * e(t) - e(2 * t), e(t) - e(2 * t)], [-2 * e(t) + 2 * e(2 * t), -e(t) + 2 * e(2 * t)]])
    _fails_with(lab.check_phi_t(wrong, T=0.5), "that is e^{-At}")


# --- Task A2 ---------------------------------------------------------------------------------


def test_a2_reversed_limits_are_named():
    """Oracle: -m(T) by hand, m(T) = [1/2 - e^-T + e^-2T / 2, e^-T - e^-2T] of the lab's A."""
    m = sp.Matrix([sp.Rational(1, 2) - e(-T_sym) + e(-2 * T_sym) / 2, e(-T_sym) - e(-2 * T_sym)])
    assert lab.check_gamma_t(m, T=0.5)
    _fails_with(lab.check_gamma_t(-m, T=0.5), "limits of the integral are reversed")


def test_a2_phi_b_without_the_integral_is_named():
    """Oracle: Phi(T) B by hand, the second column of Phi(T)."""
    wrong = sp.Matrix([e(-T_sym) - e(-2 * T_sym), -e(-T_sym) + 2 * e(-2 * T_sym)])
    _fails_with(lab.check_gamma_t(wrong, T=0.5), "the free response")


# --- Task B1 ---------------------------------------------------------------------------------


def test_b1_term_updated_before_it_is_added_is_named():
    """Oracle: the series loop written here with the update first (the sum starts at k = 1)."""
    def series_phi_gamma(A, B, T, terms):
        return _series(A, B, T, terms, add_first=False)

    assert lab.check_series(lambda A, B, T, terms: _series(A, B, T, terms))
    _fails_with(lab.check_series(series_phi_gamma), "the sum misses I")


# --- Task C1 ---------------------------------------------------------------------------------


def test_c1_np_exp_of_m_is_named():
    """Oracle: numpy's entry-by-entry exp of the augmented matrix, blocks read by hand."""
    T = 0.5
    M = np.zeros((4, 4))
    M[:2, :2], M[:2, 2:3], M[2, 3] = A_LAB * T, B_LAB * T, 1.0
    E = np.exp(M)
    _fails_with(lab.check_augmented(E[:2, :2], E[:2, 2:3], E[:2, 3:], T=T), "entry by entry")


def test_c1_missing_identity_block_is_named():
    """Oracle: scipy's expm of the augmented matrix without its identity block: Gamma_hat = 0."""
    Phi, Gamma, _ = _van_loan(A_LAB, B_LAB, 0.5)
    _fails_with(lab.check_augmented(Phi, Gamma, np.zeros((2, 1)), T=0.5), "Gamma_hat is zero")


# --- Task D1 ---------------------------------------------------------------------------------


def test_d1_x_times_phi_is_named():
    """Oracle: the loop written here with x_k @ Phi (the transpose of Phi)."""
    def recurrence(Phi, Gamma, C, u, x0):
        return _loop(Phi, Gamma, C, u, x0, transposed=True)

    assert lab.check_recurrence(_loop)
    _fails_with(lab.check_recurrence(recurrence), "transpose of Phi")


def test_d1_a_sampling_period_that_does_not_divide_10_s_is_refused_with_its_rule():
    """The user's report: T = 0.3 failed D1 with "32 of 34 y_k differ"; now the rule is named."""
    with pytest.raises(ParameterError, match=r"T must divide the span, 10 s.*10 / 0.3 = 33.33"):
        lab.use_parameters({"T": 0.3}, show=False)
    result = lab.check("D1", namespace={"T": 0.3, "recurrence": _loop})
    _fails_with(result, "T must divide the span, 10 s")
    assert "differ" not in str(result)


# --- Task E1 ---------------------------------------------------------------------------------


def _sine_errors(steps, hold):
    """max |y - y_exact| of simlab.lsim for u = sin t on [0, 10], exact response of 1/((s+1)(s+2)) by hand."""
    errors = []
    for T in steps:
        grid = np.linspace(0.0, 10.0, round(10.0 / T) + 1)
        exact = (np.sin(grid) - 3 * np.cos(grid)) / 10 + np.exp(-grid) / 2 - np.exp(-2 * grid) / 5
        errors.append(np.max(np.abs(lsim(A_LAB, B_LAB, C_LAB, 0.0, np.sin(grid), grid, hold=hold).y - exact)))
    return np.array(errors)


STEPS = np.array([0.05, 0.1, 0.2, 0.5, 1.0])


def test_e1_a_fit_without_logarithms_is_named():
    """Oracle: np.polyfit of the errors against T (no logarithms), errors from the closed form."""
    p_foh = np.polyfit(np.log(STEPS), np.log(_sine_errors(STEPS, "foh")), 1)[0]
    wrong = np.polyfit(STEPS, _sine_errors(STEPS, "zoh"), 1)[0]
    _fails_with(lab.check_orders(wrong, p_foh), "straight line in the logarithms")


def test_e1_the_holds_swapped_are_named():
    """Oracle: the zoh slope given as the triangle hold's order, errors from the closed form."""
    p_zoh = np.polyfit(np.log(STEPS), np.log(_sine_errors(STEPS, "zoh")), 1)[0]
    assert lab.check_orders(p_zoh, np.polyfit(np.log(STEPS), np.log(_sine_errors(STEPS, "foh")), 1)[0])
    _fails_with(lab.check_orders(p_zoh, p_zoh), "the other hold")


# --- the parameters --------------------------------------------------------------------------


def test_correct_answers_pass_under_the_alternative_parameters():
    """Oracle: A = [[0, 1], [-6, -5]] (G = 1/((s+2)(s+3))) at T = 0.25 s by hand and with scipy.linalg.expm:
    Phi(t) and m(T) in closed form, the series and the loop written here, Van Loan's matrix, and
    the hold errors against the closed-form sine response for T_holds = (0.02, 0.05, 0.1, 0.2)."""
    values = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}
    assert values["A"] == [[0.0, 1.0], [-6.0, -5.0]] and values["T"] == 0.25
    assert not lab.PARAMETERS.problems(values)
    A, T, steps = np.array(values["A"]), values["T"], np.array(values["T_holds"])
    Phi_t = sp.Matrix([[3 * e(-2 * t) - 2 * e(-3 * t), e(-2 * t) - e(-3 * t)],
                       [-6 * e(-2 * t) + 6 * e(-3 * t), -2 * e(-2 * t) + 3 * e(-3 * t)]])
    Gamma_T = sp.Matrix([sp.Rational(1, 6) - e(-2 * T_sym) / 2 + e(-3 * T_sym) / 3, e(-2 * T_sym) - e(-3 * T_sym)])
    Phi, Gamma, Gamma_hat = _van_loan(A, B_LAB, T)
    errors = {}
    for hold in ("zoh", "foh"):
        values_hold = []
        for T_i in steps:
            grid = np.linspace(0.0, 10.0, round(10.0 / T_i) + 1)
            exact = (np.sin(grid) - np.cos(grid)) / 10 + np.exp(-2 * grid) / 5 - np.exp(-3 * grid) / 10
            y = lsim(A, B_LAB, C_LAB, 0.0, np.sin(grid), grid, hold=hold).y
            values_hold.append(np.max(np.abs(y - exact)))
        errors[hold] = np.polyfit(np.log(steps), np.log(values_hold), 1)[0]
    namespace = {**values, "Phi_t": Phi_t, "Gamma_T": Gamma_T, "series_phi_gamma": _series,
                 "Phi_aug": Phi, "Gamma_aug": Gamma, "Gamma_hat_aug": Gamma_hat, "recurrence": _loop,
                 "p_zoh": errors["zoh"], "p_foh": errors["foh"]}
    for task in lab.TASKS:
        result = lab.check(task, namespace=namespace)
        assert result, result
        assert "checked with A = [[0, 1], [-6, -5]]" in str(result)


def test_the_default_answers_fail_under_the_alternative_system_matrix():
    """The checks follow A: Phi of the lab's A (scipy.linalg.expm) is not Phi of the alternative A."""
    assert lab.check_phi(expm(A_LAB * 0.5), T=0.5)
    assert not lab.check_phi(expm(A_LAB * 0.5), T=0.5, A=[[0.0, 1.0], [-6.0, -5.0]])


@pytest.mark.parametrize("name, value, phrase", [
    ("A", [[0.0, 1.0], [-1.0, -1.0]], "complex"), ("A", [[0.0, 0.0], [-2.0, -3.0]], "a12 = 0"),
    ("A", [[0.0, 1.0], [2.0, -1.0]], "not both negative"), ("A", [[0.0, 1.0], [-1.0, -2.0]], "repeated"),
    ("A", [[0.0, 1.0, 0.0]], "2 x 2"), ("T", 4.0, "must divide"), ("T", 10.0, "|lambda|_max T"),
    ("T_holds", (0.1, 0.05, 0.2), "strictly increasing"), ("T_holds", (0.1, 0.2), "at least 3"),
    ("T_holds", (0.1, 0.3, 0.5), "element 1 (0.3)")])
def test_a_value_that_breaks_its_rule_is_refused_with_the_rule_named(name, value, phrase):
    with pytest.raises(ParameterError, match=rf"{name} = .*{re.escape(phrase)}"):
        lab.use_parameters({name: value}, show=False)
    task = "E1" if name == "T_holds" else "C1"
    result = lab.check(task, namespace={**lab.TASKS[task].reference(), name: value})
    _fails_with(result, "parameter cell")
