"""Per-element discrete similarity: coefficients against simlab.discretize, loop results against RK4."""

import numpy as np
import pytest

from simlab.elementwise import discretize_element, element_kind, simulate_elements
from simlab.nonlinear import Saturation
from simlab.similarity import discretize
from simlab.structure import simulate

ELEMENTS = {
    "integral": [0.0, 1.0, 2.0, 0.0],      # 2/s
    "PI": [0.0, 1.0, 0.5, 1.0],            # (s + 0.5)/s
    "inertia": [1.0, 0.5, 2.0, 0.0],       # 2/(0.5 s + 1)
    "lead-lag": [1.0, 0.5, 2.0, 0.3],      # (0.3 s + 2)/(0.5 s + 1)
    "proportional": [2.0, 0.0, 3.0, 0.0],  # 3/2
    "PD": [2.0, 0.0, 3.0, 0.4],            # (0.4 s + 3)/2
}

# The textbook-style loop: open loop 20(s+0.5)/(s(s+0.1)(s+2)(s+10)), unity feedback.
LOOP_P = [[0, 1, 0.5, 1], [0.1, 1, 1, 0], [2, 1, 1, 0], [10, 1, 20, 0]]
LOOP_W = [[0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
LOOP_W0 = [1, 0, 0, 0]
LOOP_WC = [0, 0, 0, 1]


@pytest.mark.parametrize("kind, row", ELEMENTS.items())
def test_element_kind_names_the_six_types(kind, row):
    assert element_kind(row) == kind


@pytest.mark.parametrize("kind", ["integral", "PI", "inertia", "lead-lag"])
@pytest.mark.parametrize("T", [0.01, 0.1, 1.0])
def test_coefficients_equal_discretize_of_the_first_order_state(kind, T):
    """Oracle: simlab.discretize on x' = -(A/B) x + kappa u (one expm of the augmented matrix)."""
    A, B, C, D = ELEMENTS[kind]
    kappa = (C * B - A * D) / B**2
    Phi, Gamma, Gamma_hat = discretize([[-A / B]], [[kappa]], T, hold="foh")
    coefficients = discretize_element(ELEMENTS[kind], T, hold="foh")
    assert coefficients.Phi == pytest.approx(Phi[0, 0], rel=1e-12)
    assert coefficients.Gamma == pytest.approx(Gamma[0, 0], rel=1e-10)
    assert coefficients.Gamma_hat == pytest.approx(Gamma_hat[0, 0], rel=1e-10)
    assert coefficients.d == pytest.approx(D / B)


def test_zero_order_hold_has_no_gamma_hat():
    assert discretize_element(ELEMENTS["inertia"], 0.1, hold="zoh").Gamma_hat == 0.0


def test_stateless_elements_are_gains():
    assert discretize_element(ELEMENTS["proportional"], 0.1).static_gain == 1.5
    pd = discretize_element(ELEMENTS["PD"], 0.1)
    assert pd.static_gain == 1.5 and pd.derivative_gain == pytest.approx(0.2)


@pytest.mark.parametrize("hold", ["zoh", "foh"])
def test_elementwise_converges_to_the_rk4_structure_result_at_first_order(hold):
    """Oracle: simlab.structure.simulate with RK4 at h = 0.001 (error ~1e-12); the one-step lag
    makes the per-element error proportional to T."""
    reference = simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, r=1.0, t_span=(0, 20), h=0.001)
    errors = []
    steps = [0.04, 0.02, 0.01]
    for T in steps:
        result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 20), T, hold=hold)
        stride = round(T / 0.001)
        errors.append(np.max(np.abs(result.y - reference.y[::stride])))
    order = np.polyfit(np.log(steps), np.log(errors), 1)[0]
    assert order == pytest.approx(1.0, abs=0.15)
    assert errors[-1] < 0.03


def test_open_loop_single_element_is_exact_for_a_step():
    """Oracle: the inertia step response 2 (1 - e^{-2t}); no loop, so no lag: exact at the samples
    from the first step on (the element output at t_{k+1} uses u_k, the step, held)."""
    P = [ELEMENTS["inertia"]]
    result = simulate_elements(P, [[0.0]], [1.0], [1.0], 1.0, (0, 3), 0.1)
    np.testing.assert_allclose(result.y, 2 * (1 - np.exp(-2 * result.t)), rtol=1e-12, atol=1e-14)


def test_output_saturation_limits_the_element_output():
    result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 10.0, (0, 20), 0.01,
                               nonlinear={(1, "output"): Saturation(2.0)})
    assert np.max(np.abs(result.x[:, 0])) <= 2.0 + 1e-12
    free = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 10.0, (0, 20), 0.01)
    assert np.max(np.abs(free.x[:, 0])) > 2.0


@pytest.mark.parametrize(
    "nonlinear, message",
    [({(5, "output"): Saturation(1.0)}, "element number must be 1..4"),
     ({(1, "middle"): Saturation(1.0)}, "keys must be"),
     ({(1, "input"): 3.0}, "simlab.nonlinear element")],
)
def test_bad_nonlinear_placement_is_rejected(nonlinear, message):
    with pytest.raises((ValueError, TypeError), match=message):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 1), 0.1, nonlinear=nonlinear)


def test_bad_hold_and_step_are_rejected():
    with pytest.raises(ValueError, match="hold must be"):
        discretize_element(ELEMENTS["inertia"], 0.1, hold="cubic")
    with pytest.raises(ValueError, match="T must be positive"):
        discretize_element(ELEMENTS["inertia"], 0.0)


def test_zero_denominator_element_is_rejected_with_the_structure_graph_rule():
    """The rule of simlab.validation (A_i or B_i non-zero), for one row and for a graph."""
    with pytest.raises(ValueError, match=r"row has A = B = 0: the element's denominator"):
        discretize_element([0.0, 0.0, 1.0, 0.0], 0.1)
    P = [list(row) for row in LOOP_P]
    P[2] = [0.0, 0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"P: element\(s\) \[3\] have A_i = B_i = 0"):
        simulate_elements(P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 1), 0.1)


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): T named as T, the row checked by element_kind, nonlinear must be a dict,
# and a run that blows up raises NonFiniteStateError as structure.simulate does
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("T, error, message", [
    (float("nan"), ValueError, r"^T must be a finite number, got nan"),
    (0.0, ValueError, r"^T must be positive, got 0.0"),
    ("0.1", TypeError, r"^T must be a real number, got '0.1' \(type str\)"),
    (0.3, ValueError, r"^T = 0.3 cannot be the step of the time grid \(the h below\): h = 0.3 does "
                      r"not divide the time span"),
])
def test_errors_for_T_name_T(T, error, message):
    """Before, the messages named h, an argument simulate_elements does not have."""
    with pytest.raises(error, match=message):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 1), T)


@pytest.mark.parametrize("row, error, message", [
    ([0.0, 0.0, 1.0, 0.0], ValueError, r"row has A = B = 0: the element's denominator A \+ B s is zero"),
    ([1.0, 2.0], ValueError, r"row must be \[A, B, C, D\], got shape \(2,\)"),
    (None, TypeError, r"row must be a number or an array of numbers, got None"),
    ([np.nan, 1.0, 1.0, 0.0], ValueError, r"row must be finite \(no NaN or inf\)"),
])
def test_element_kind_checks_its_row(row, error, message):
    """C/(A + B s) is undefined for A = B = 0; element_kind used to call it 'proportional'."""
    with pytest.raises(error, match=message):
        element_kind(row)


def test_nonlinear_must_be_a_dict():
    """nonlinear=[1] used to fail with AttributeError: 'list' object has no attribute 'items'."""
    with pytest.raises(TypeError, match=r"nonlinear must be a dict \{\(element number, 'input' or "
                                        r"'output'\): element\}.*got \[1\] \(type list\)"):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 1), 0.1, nonlinear=[1])
    with pytest.raises(ValueError, match=r"element number must be 1..4"):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0, 1), 0.1,
                          nonlinear={(True, "output"): Saturation(1.0)})


# A fast loop 50/(0.01 s + 1)^2 with negative feedback: the continuous loop is stable
# (eigenvalues -100 +- 707j), but the one-step lag of the per-element method destabilizes it.
FAST_P = [[1, 0.01, 1, 0], [1, 0.01, 50, 0]]
FAST_W = [[0, -1], [1, 0]]


def test_a_run_that_blows_up_raises_non_finite_state_error_naming_step_T_and_the_method():
    """Oracle: the continuous loop's eigenvalues (stable), so the cause is the method's lag."""
    import warnings

    from simlab.integrators import NonFiniteStateError

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way: the overflow is reported
        with pytest.raises(NonFiniteStateError) as caught:
            simulate_elements(FAST_P, FAST_W, [1, 0], [0, 1], 1.0, (0, 100), 0.05)
    error = caught.value
    assert (error.method, error.steps, error.h) == ("elementwise-zoh", 2000, 0.05)
    assert 0 < error.step <= 2000 and error.t == pytest.approx(error.step * 0.05)
    message = str(error)
    assert f"at step {error.step} of 2000" in message and "with T = 0.05" in message
    assert "continuous closed loop is stable" in message and "one-step lag" in message
    assert "Try a smaller T, such as 0.005" in message


def test_an_unstable_graph_is_named_as_the_cause_and_behaves_like_structure_simulate():
    """x' = x (an integrator with unit positive feedback) grows like e^t: e^710 overflows."""
    from simlab.integrators import NonFiniteStateError

    graph = ([[0.0, 1.0, 1.0, 0.0]], [[1.0]], [1.0], [1.0])
    with pytest.raises(NonFiniteStateError, match=r"at step \d+ of 20000 \(t = 7\d\d(\.\d+)?\) with T = "
                                                  r"0.05. The structure graph itself is unstable"):
        simulate_elements(*graph, 1.0, (0, 1000), 0.05)
    with pytest.raises(NonFiniteStateError):
        simulate(*graph, r=1.0, t_span=(0, 1000), h=0.05)


def test_a_nonlinear_element_in_a_loop_that_blows_up_does_not_hide_the_cause():
    """Backlash.step refuses inf; the loop reports the blow-up before the element sees it."""
    from simlab.integrators import NonFiniteStateError
    from simlab.nonlinear import Backlash

    with pytest.raises(NonFiniteStateError, match=r"continuous closed loop \(without its nonlinear "
                                                  r"elements\) is stable"):
        simulate_elements(FAST_P, FAST_W, [1, 0], [0, 1], 1.0, (0, 100), 0.05,
                          nonlinear={(1, "input"): Backlash(0.1)})


@pytest.mark.parametrize("row, T, message", [
    ([-1000.0, 1.0, 1.0, 0.0], 1.0, r"the element is unstable on its own \(pole -A/B = 1000 > 0\) and e\^\(-A T / B\) "
                                    r"= e\^1000 overflows .* T must be below 0.709783"),
    ([1.0, 1e-320, 1.0, 0.0], 0.1, r"its pole -A/B = -inf is beyond the floating-point range"),
    ([1e-300, 0.0, 1e10, 0.0], 0.1, r"its gains C/A, D/A, D/B or \(C B - A D\)/B\^2 are beyond"),
])
def test_element_coefficients_beyond_the_floating_point_range_are_refused(row, T, message):
    """Before: Phi = inf (or a NaN Gamma), returned with a RuntimeWarning."""
    with pytest.raises(ValueError, match=r"row = \[.*\] with T = .* has no discrete coefficients in "
                                         r"floating point: " + message):
        discretize_element(row, T)


def test_an_input_function_with_the_wrong_signature_is_refused_before_it_is_called():
    """Rule (issue 23): r is called as r(t); a wrong signature gets a TypeError naming r and the call,
    before the run (the function is never called)."""
    calls = []

    def r(t, x):
        calls.append(t)
        return 1.0

    with pytest.raises(TypeError, match=r"r must be a function that can be called as r\(t\).*\(t, x\)"):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, r, (0.0, 1.0), 0.1)
    assert calls == []


def test_a_nonlinear_element_whose_step_has_the_wrong_signature_is_refused():
    """Rule (issue 23): the loop calls element.step(u); a step(u, v) is named with its place."""

    class TwoInputs:
        def step(self, u, v):
            return u

    with pytest.raises(TypeError, match=r"nonlinear\[\(1, 'input'\)\]\.step must be .*step\(u\)"):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, 1.0), 0.1,
                          nonlinear={(1, "input"): TwoInputs()})


def test_an_input_function_and_a_custom_element_with_the_right_signatures_run():
    """Oracle: a custom element y = u and r(t) = 1 give the same run as no element and r = 1."""

    class Identity:
        def step(self, u):
            return u

    plain = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, 1.0), 0.1)
    custom = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, lambda t: 1.0, (0.0, 1.0), 0.1,
                               nonlinear={(2, "output"): Identity()})
    np.testing.assert_array_equal(custom.y, plain.y)


def test_an_output_matrix_that_overflows_the_output_is_named():
    """Rule (no silent inf): element outputs near 10 times Wc = 1e308 overflowed y silently."""
    from simlab.guards import NonFiniteStateError

    with pytest.raises(NonFiniteStateError, match=r"y = Wc x overflowed .*scale Wc down"):
        simulate_elements(LOOP_P, LOOP_W, LOOP_W0, [0, 0, 0, 1e308], 10.0, (0.0, 5.0), 0.1)


def test_huge_connection_weights_are_named_as_the_cause_of_a_blow_up():
    """Rule: W0 = 1e308 makes u = W0 r overflow (r = 10); the message names W and W0, not the
    method's one-step lag."""
    from simlab.guards import NonFiniteStateError

    with pytest.raises(NonFiniteStateError, match=r"largest \|entry\| of W and W0: 1e\+308"):
        simulate_elements(LOOP_P, LOOP_W, [1e308, 0, 0, 0], LOOP_WC, 10.0, (0.0, 1.0), 0.1)


def test_a_row_of_p_without_discrete_coefficients_is_named_by_its_index():
    """Rule: discretize_element's error names row; simulate_elements adds which row of P it is."""
    P = [list(row) for row in LOOP_P]
    P[2] = [1e-300, 1e-300, 1e300, 0.0]  # C/A = 1e600 overflows
    with pytest.raises(ValueError, match=r"P\[2\] \(element 3\): row = "):
        simulate_elements(P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, 1.0), 0.1)
