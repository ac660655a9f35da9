"""Lab 05 self-checks called directly: the hints of the catalogued mistakes, a correct answer under
the alternative parameter values, correct answers written in another valid form, and the
single-number checks against the wrong methods that come close to them.

Every answer here is built independently of the lab's reference functions: by hand (numpy, a
hand-written RK4 loop), with sympy, or with python-control.
"""

import math

import control
import numpy as np
import pytest
import sympy as sp

from simlab.course import lab05_structure_graph as lab
from simlab.course.parameters import ParameterError
from simlab.structure import simulate

W = np.array([[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])  # u1 = -y3 + r, u2 = y1, u3 = y2
W0 = np.array([1.0, 0.0, 0.0])
WC = np.array([0.0, 0.0, 1.0])
ALTERNATIVES = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}


def P_by_hand(a_value):
    """Rows [A_i, B_i, C_i, D_i] of (s + 0.5)/(s + 0.1), 1/s, (s + a)/(s + 1), read off by hand."""
    return np.array([[0.1, 1.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, a_value, 1.0]])


def model_by_sympy(a_value):
    """H, Q, A = H^-1 Q, B = H^-1 diag(C) W0 and B_d = H^-1 diag(D) W0, exact (sympy), as floats."""
    P = sp.Matrix([[sp.Rational(1, 10), 1, sp.Rational(1, 2), 1], [0, 1, 1, 0], [1, 1, sp.nsimplify(a_value), 1]])
    W_sym, W0_sym = sp.Matrix(W.astype(int)), sp.Matrix([1, 0, 0])
    A_diag, B_diag, C_diag, D_diag = (sp.diag(*P[:, k]) for k in range(4))
    H = B_diag - D_diag * W_sym
    Q = C_diag * W_sym - A_diag
    parts = {"H": H, "Q": Q, "A": H.inv() * Q, "B": H.inv() * C_diag * W0_sym, "B_d": H.inv() * D_diag * W0_sym}
    return {key: np.array(value.evalf(), dtype=float) for key, value in parts.items()}


def rk4_by_hand(A, b, z0, h, steps):
    """The classical RK4 on z' = A z + b, written out; returns the states z_0 .. z_steps as rows."""
    z = np.asarray(z0, dtype=float)
    states = [z]
    for _ in range(steps):
        K1 = A @ z + b
        K2 = A @ (z + h * K1 / 2) + b
        K3 = A @ (z + h * K2 / 2) + b
        K4 = A @ (z + h * K3) + b
        z = z + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6
        states.append(z)
    return np.array(states)


def true_outputs_by_hand(a_value, h, r, z0=None, input_factor=None, sign=1.0):
    """x = z + sign B_d r, z' = A z + (A B_d + B) r times ``input_factor`` (default r), by hand RK4 on [0, 10]."""
    model = model_by_sympy(a_value)
    A, B, B_d = model["A"], model["B"].ravel(), model["B_d"].ravel()
    steps = round(10.0 / h)
    z0 = np.zeros(3) if z0 is None else z0
    z = rk4_by_hand(A, (A @ B_d + B) * (r if input_factor is None else input_factor), z0, h, steps)
    return z + sign * B_d * r


def failed_with(result, phrase):
    """True if the check failed and names the mistake (the phrase is in its message)."""
    return not result.passed and result.done and phrase in str(result)


# ---------------------------------------------------------------------------------------------
# The catalogued mistakes, one by one
# ---------------------------------------------------------------------------------------------


def test_1a_r_entering_the_last_element_is_named():
    """Oracle: the matrices typed by hand, W0 = [0, 0, 1] (the output element)."""
    result = lab.check_connections(P_by_hand(2), W, [0.0, 0.0, 1.0], WC)
    assert failed_with(result, "W0 says where r enters")


def test_1a_wc_picking_element_1_is_named():
    """Oracle: the matrices typed by hand, Wc = [1, 0, 0]."""
    result = lab.check_connections(P_by_hand(2), W, W0, [1.0, 0.0, 0.0])
    assert failed_with(result, "Wc picks the system output")


def test_1b_h_without_the_d_terms_is_named():
    """Oracle: by hand, H = diag(B) = I (all B_i = 1) and the correct Q = diag(C) W - diag(A)."""
    P = P_by_hand(2)
    Q = np.diag(P[:, 2]) @ W - np.diag(P[:, 0])
    result = lab.check_H_Q(np.eye(3), Q)
    assert failed_with(result, "only when no element has a D_i s term")


def test_1c_h_inverse_left_out_of_a_is_named():
    """Oracle: sympy's Q (and B) for a = 2; the mistaken A is Q itself."""
    model = model_by_sympy(2)
    result = lab.check_closed_loop(model["Q"], model["B"])
    assert failed_with(result, "H^-1 left out")


def test_2a_the_error_transfer_function_is_named():
    """Oracle: sympy, E/R = 1/(1 + G1 G2 G3) instead of Y/R."""
    s, a = sp.symbols("s a")
    G = (s + sp.Rational(1, 2)) / (s + sp.Rational(1, 10)) * (1 / s) * (s + a) / (s + 1)
    result = lab.check_transfer_function(sp.factor(sp.cancel(1 / (1 + G))))
    assert failed_with(result, "error transfer function")


def test_3a_python_range_for_the_colon_operator_is_named():
    """Oracle: Python's own count, len(range(1, int(15 / 0.4))) = 36."""
    result = lab.check("3a", namespace={"steps_matlab": len(range(1, int(15.0 / 0.4)))})
    assert failed_with(result, "one too few")


def test_3a_the_number_of_grid_points_is_named():
    """Oracle: numpy's grid 0, 0.4, ..., 14.8 has 38 points, one more than the 37 steps."""
    result = lab.check("3a", namespace={"steps_matlab": len(np.arange(0.0, 15.0, 0.4))})
    assert failed_with(result, "N steps give N + 1 points")


def test_3b_38_steps_of_15_over_38_are_named():
    """Oracle: the library's simulate on [0, 15] with h = 15/38, what its own error message proposes."""
    P_batch = np.stack([P_by_hand(a_value) for a_value in (2, 4, 6, 8, 10, 12)])
    right = simulate(P_batch, W, W0, WC, r=10.0, t_span=(0.0, 10.0), h=0.2)
    wrong = simulate(P_batch, W, W0, WC, r=10.0, t_span=(0.0, 15.0), h=15.0 / 38)
    result = lab.check_sweeps(P_batch, right, wrong)
    assert failed_with(result, "the task replays what the seed computed")


def test_3c_c1_left_out_of_b_is_named():
    """Oracle: the seed's listing replayed by hand with B = inv(H) W0 (C1 left out)."""

    def seed_program(a_value, Tf, h, r=10.0):
        model = model_by_sympy(a_value)
        B_wrong = np.linalg.inv(model["H"]) @ W0
        steps = math.floor(Tf / h + 1e-9)
        x = rk4_by_hand(model["A"], B_wrong * r, np.zeros(3), h, steps)
        return h * np.arange(steps + 1), x[:, 2]

    assert failed_with(lab.check_seed_program(seed_program), "C1 left out")


def test_4b_z_started_from_the_jump_is_named():
    """Oracle: hand RK4 of z' = A z + (A B_d + B) r from z(0) = B_d r (sympy's matrices)."""
    B_d = model_by_sympy(2)["B_d"].ravel()
    wrong = true_outputs_by_hand(2, 0.2, 10.0, z0=B_d * 10.0)
    assert failed_with(lab.check_true_outputs(wrong), "z starts from z(0) = 0")


def test_4b_r_left_out_of_the_input_of_z_is_named():
    """Oracle: hand RK4 of z' = A z + (A B_d + B) (the factor r missing), then x = z + B_d r."""
    wrong = true_outputs_by_hand(2, 0.2, 10.0, input_factor=1.0)
    assert failed_with(lab.check_true_outputs(wrong), "needs the factor r")


def test_4b_x_as_z_minus_the_jump_is_named():
    """Oracle: hand RK4, then x = z - B_d r."""
    wrong = true_outputs_by_hand(2, 0.2, 10.0, sign=-1.0)
    assert failed_with(lab.check_true_outputs(wrong), "the sign of B_d r")


def test_5a_the_gain_kept_when_the_denominator_is_normalised_is_named():
    """Oracle: the rows typed by hand; element 4 as [1, 0.1, 20, 0], which is 200/(s + 10)."""
    P_loop = np.array([[0.0, 1.0, 0.5, 1.0], [0.1, 1.0, 1.0, 0.0], [2.0, 1.0, 1.0, 0.0], [1.0, 0.1, 20.0, 0.0]])
    W_loop = np.array([[0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], dtype=float)
    result = lab.check_loop_matrices(P_loop, W_loop, [1.0, 0, 0, 0], [0, 0, 0, 1.0])
    assert failed_with(result, "divides the gain too")


def rk4_real_limit():
    """z_min of RK4 on the negative real axis: the negative real root closest to 0 of R(z) = +-1,
    R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 (numpy's roots)."""
    candidates = []
    for level in (1.0, -1.0):
        roots = np.roots([1 / 24, 1 / 6, 1 / 2, 1, 1 - level])
        candidates += [root.real for root in roots if abs(root.imag) < 1e-9 and root.real < -1e-9]
    return max(candidates)


def loop_eigenvalues():
    """Closed-loop poles of 20(s + 0.5)/(s (s + 0.1)(s + 2)(s + 10)) in unity feedback, by python-control."""
    den = np.polymul([1, 0], np.polymul([1, 0.1], np.polymul([1, 2], [1, 10])))
    return control.poles(control.feedback(control.tf([20, 10], den), 1))


def test_6a_the_elements_open_loop_pole_is_named():
    """Oracle: z_min from numpy's roots of RK4's stability polynomial, over the pole -10 of 20/(s + 10)."""
    result = lab.check_step_limit(rk4_real_limit() / -10.0)
    assert failed_with(result, "open-loop pole")


# ---------------------------------------------------------------------------------------------
# The single-number checks: the wrong methods that come close are told apart
# ---------------------------------------------------------------------------------------------


def test_6a_accepts_the_step_limit_and_the_rounded_z_min_of_the_notes():
    """Oracle: numpy's roots of RK4's polynomial and python-control's closed-loop poles."""
    fastest = loop_eigenvalues().real.min()
    assert rk4_real_limit() == pytest.approx(-2.7853, abs=1e-4)
    assert lab.check_step_limit(rk4_real_limit() / fastest)
    assert lab.check_step_limit(-2.785 / fastest), "the notes' z_min = -2.785 must be accepted"


@pytest.mark.parametrize("wrong, phrase", [
    ("euler", "Euler's limit"),
    ("slowest", "slowest eigenvalue"),
    ("open loop", "open-loop pole"),
    ("modulus on the imaginary axis", "differs from the reference"),
])
def test_6a_no_plausible_wrong_method_gives_the_limit_by_chance(wrong, phrase):
    """Oracle: python-control's poles; the wrong methods' numbers are each told apart (not accepted)."""
    poles = loop_eigenvalues()
    value = {"euler": -2.0 / poles.real.min(), "slowest": rk4_real_limit() / poles.real.max(),
             "open loop": rk4_real_limit() / -10.0,
             "modulus on the imaginary axis": 2 * math.sqrt(2) / np.abs(poles).max()}[wrong]
    assert failed_with(lab.check_step_limit(value), phrase)


@pytest.mark.parametrize("count", [36, 38, 37.5])
def test_3a_no_plausible_wrong_count_is_accepted(count):
    """Oracle: MATLAB's 1:37.5 is 1, 2, ..., 37 (37 passes); the neighbours and Tf/h itself fail."""
    assert not lab.check("3a", namespace={"steps_matlab": count}).passed
    assert lab.check("3a", namespace={"steps_matlab": 37})


def test_3a_follows_the_seed_not_the_notebooks_step_h():
    """The notebook's h (Task 4) must not reach the check of the seed's Tf = 15, h = 0.4."""
    assert lab.check("3a", namespace={"steps_matlab": 37, "h": 0.1})


# ---------------------------------------------------------------------------------------------
# Correct answers: under the alternative parameter values, and in another valid form
# ---------------------------------------------------------------------------------------------


def test_correct_answers_under_the_alternative_parameters_pass_the_checks_called_directly():
    """Oracle: sympy's matrices and a hand-written RK4 at a_task, h, r_step = the alternatives."""
    a_task, h, r_step = ALTERNATIVES["a_task"], ALTERNATIVES["h"], ALTERNATIVES["r_step"]
    assert (a_task, h, r_step) != (lab.A_TASK, lab.H_STEP, lab.SEED_R)
    model = model_by_sympy(a_task)
    assert lab.check_connections(P_by_hand(a_task), W, W0, WC, a_task=a_task)
    assert lab.check_H_Q(model["H"], model["Q"], a_task=a_task)
    assert lab.check_closed_loop(model["A"], model["B"], a_task=a_task)
    assert lab.check_jump(model["B_d"].ravel() * r_step, a_task=a_task, r_step=r_step)
    x_true = true_outputs_by_hand(a_task, h, r_step)
    assert x_true.shape == (round(10 / h) + 1, 3)
    assert lab.check_true_outputs(x_true, a_task=a_task, h=h, r_step=r_step)
    # and through the notebook's names, as lab.check reads them
    namespace = {**ALTERNATIVES, "x0_plus": model["B_d"].ravel() * r_step, "x_true": x_true}
    assert lab.check("4a", namespace=namespace) and lab.check("4b", namespace=namespace)
    assert not lab.check("4b", namespace={**namespace, "r_step": lab.SEED_R})


def test_the_unit_step_hint_of_4a_names_the_notebooks_step():
    """Oracle: sympy's B_d (the jump of a unit step) at r_step = the alternative."""
    r_step = ALTERNATIVES["r_step"]
    result = lab.check_jump(model_by_sympy(2)["B_d"].ravel(), r_step=r_step)
    assert failed_with(result, f"the step here is r = {r_step:g}")


def same_element(row, other):
    """True if the rows [A, B, C, D] give the same (C + D s)/(A + B s): cross-multiplied polynomials agree."""
    return np.allclose(np.polymul([row[3], row[2]], [other[1], other[0]]),
                       np.polymul([other[3], other[2]], [row[1], row[0]]))


def test_rows_of_p_in_another_valid_form_pass_tasks_1a_1b_and_5a():
    """A right student is never told "not yet": G1 in the lead-lag form (10 s + 5)/(10 s + 1) and the
    lags of the loop as K/(T s + 1). Oracle: numpy, each row cross-multiplied with the seed's gives the
    same polynomial (the same transfer function)."""
    P = P_by_hand(2)
    P_other = P.copy()
    P_other[0] = [1.0, 10.0, 5.0, 10.0]  # (10 s + 5)/(10 s + 1)
    P_other[1] = [0.0, 2.0, 2.0, 0.0]  # 2/(2 s)
    assert all(same_element(row, other) for row, other in zip(P, P_other))
    assert lab.check_connections(P_other, W, W0, WC)
    H = np.diag(P_other[:, 1]) - np.diag(P_other[:, 3]) @ W
    Q = np.diag(P_other[:, 2]) @ W - np.diag(P_other[:, 0])
    assert lab.check_H_Q(H, Q)
    assert lab.check_closed_loop(np.linalg.solve(H, Q), np.linalg.solve(H, np.diag(P_other[:, 2]) @ W0))
    P_loop = np.array([[0.0, 1.0, 0.5, 1.0], [1.0, 10.0, 10.0, 0.0], [1.0, 0.5, 0.5, 0.0], [1.0, 0.1, 2.0, 0.0]])
    assert all(same_element(row, other) for row, other in zip(lab.LOOP_P, P_loop))
    W_loop = np.array([[0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], dtype=float)
    assert lab.check_loop_matrices(P_loop, W_loop, [1.0, 0, 0, 0], [0, 0, 0, 1.0])
    wrong = P_other.copy()
    wrong[0, 3] = 1.0  # (s + 5)/(10 s + 1): not the same element
    assert not same_element(P[0], wrong[0]) and not lab.check_connections(wrong, W, W0, WC)


# ---------------------------------------------------------------------------------------------
# The rules of the parameters
# ---------------------------------------------------------------------------------------------


def rk4_spectral_radius(a_value, h):
    """max |eigenvalue| of the hand RK4 step matrix I + hA + (hA)^2/2 + (hA)^3/6 + (hA)^4/24 (sympy's A)."""
    Z = h * model_by_sympy(a_value)["A"]
    R = np.eye(3) + Z + Z @ Z / 2 + Z @ Z @ Z / 6 + Z @ Z @ Z @ Z / 24
    return np.abs(np.linalg.eigvals(R)).max()


def test_h_must_divide_the_run_of_task_4():
    with pytest.raises(ParameterError, match=r"h = 0\.3 s breaks the rule of h.*must divide the run of Task 4"):
        lab.use_parameters({"h": 0.3}, show=False)


def test_h_must_keep_rk4_stable_on_the_seeds_loop():
    """Oracle: the spectral radius of the hand RK4 step matrix, below 1 at h = 2 and above at h = 2.5."""
    assert rk4_spectral_radius(2, 2.0) < 1 < rk4_spectral_radius(2, 2.5)
    lab.use_parameters({"h": 2.0}, show=False)
    with pytest.raises(ParameterError, match=r"h = 2\.5 s .*RK4 step limit"):
        lab.use_parameters({"h": 2.5}, show=False)
    assert rk4_spectral_radius(12, 1.0) > 1  # the rule follows a_task
    with pytest.raises(ParameterError, match=r"h = 1 s .*a = 12"):
        lab.use_parameters({"a_task": 12, "h": 1.0}, show=False)


@pytest.mark.parametrize("name, value", [("a_task", 0), ("a_task", -1.0), ("r_step", 0.0), ("h", -0.2)])
def test_values_outside_the_rules_are_refused_naming_the_parameter(name, value):
    with pytest.raises(ParameterError, match=rf"{name} = .* breaks the rule of {name}"):
        lab.use_parameters({name: value}, show=False)
