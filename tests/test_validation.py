"""Specification of simlab.validation's model checkers: one set of shape rules for (A, B, C, D),
x0 and structure graphs, used by lti, similarity, implicit, structure and elementwise.

Oracle: the rules written in the docstrings of as_state_equation, as_state_space,
as_initial_state and as_structure_graph (A (n, n), B (n, m), C (p, n), D (p, m); n = 0 states is
a static gain; m >= 1 inputs, p >= 1 outputs), and MATLAB's conventions for vectors and scalars.
"""

import numpy as np
import pytest

from simlab.validation import (
    as_hold,
    as_initial_state,
    as_input_function,
    as_state_equation,
    as_state_space,
    as_structure_graph,
    as_typical_element,
)

A2 = [[0.0, 1.0], [-2.0, -3.0]]


def shapes(*arrays):
    return [np.shape(a) for a in arrays]


# ---------------------------------------------------------------------------------------------
# Shape rules of (A, B, C, D)
# ---------------------------------------------------------------------------------------------


def test_full_matrices_come_back_as_float_arrays_of_the_same_values():
    A, B, C, D = as_state_space([[0, 1], [-2, -3]], [[0], [1]], [[1, 0]], [[0]])
    assert all(M.dtype == np.float64 for M in (A, B, C, D))
    np.testing.assert_array_equal(A, A2)
    assert shapes(A, B, C, D) == [(2, 2), (2, 1), (1, 2), (1, 1)]


def test_a_number_is_a_one_by_one_matrix():
    assert shapes(*as_state_space(-1.0, 2.0, 3.0, 4.0)) == [(1, 1)] * 4


def test_a_vector_B_is_one_input_column_and_a_vector_C_one_output_row():
    A, B, C, D = as_state_space(A2, [0.0, 1.0], [1.0, 0.0], 0.0)
    assert shapes(B, C, D) == [(2, 1), (1, 2), (1, 1)]
    np.testing.assert_array_equal(B[:, 0], [0.0, 1.0])
    np.testing.assert_array_equal(C[0], [1.0, 0.0])


def test_several_inputs_and_outputs_keep_their_shapes():
    A, B, C, D = as_state_space(A2, np.ones((2, 3)), np.ones((4, 2)), np.ones((4, 3)))
    assert shapes(B, C, D) == [(2, 3), (4, 2), (4, 3)]


def test_scalar_zero_D_means_no_feedthrough_for_any_size():
    _, _, _, D = as_state_space(A2, np.ones((2, 3)), np.ones((4, 2)), 0)
    np.testing.assert_array_equal(D, np.zeros((4, 3)))


def test_D_none_means_zeros():
    _, _, _, D = as_state_space(A2, np.ones((2, 2)), np.ones((3, 2)))
    np.testing.assert_array_equal(D, np.zeros((3, 2)))


@pytest.mark.parametrize("B, C, D, expected", [
    (np.ones((2, 3)), [1.0, 0.0], [1.0, 2.0, 3.0], (1, 3)),   # one output: a row of m values
    ([0.0, 1.0], np.ones((3, 2)), [1.0, 2.0, 3.0], (3, 1)),   # one input: a column of p values
])
def test_a_vector_D_of_p_times_m_entries_is_read_as_p_by_m(B, C, D, expected):
    assert as_state_space(A2, B, C, D)[3].shape == expected


def test_the_input_arrays_are_not_modified_or_shared():
    A = np.array(A2)
    A_checked, *_ = as_state_space(A, [0.0, 1.0], [1.0, 0.0], 0.0)
    A_checked[0, 0] = 99.0
    assert A[0, 0] == 0.0


# ---------------------------------------------------------------------------------------------
# The n = 0 rule: a model without states is a static gain y = D u
# ---------------------------------------------------------------------------------------------


def test_no_states_is_allowed_with_empty_matrices():
    """Oracle: MATLAB's ss([], zeros(0, 1), zeros(1, 0), 2.5), a static gain."""
    A, B, C, D = as_state_space(np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)), 2.5)
    assert shapes(A, B, C, D) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    np.testing.assert_array_equal(D, [[2.5]])


def test_empty_lists_are_the_static_gain_shorthand():
    assert shapes(*as_state_space([], [], [], 2.5)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert shapes(*as_state_equation([], [])) == [(0, 0), (0, 1)]


def test_no_states_with_several_inputs_and_outputs():
    A, B, C, D = as_state_space(np.zeros((0, 0)), np.zeros((0, 2)), np.zeros((3, 0)), np.ones((3, 2)))
    assert shapes(A, B, C, D) == [(0, 0), (0, 2), (3, 0), (3, 2)]


def test_no_states_needs_empty_B_and_C():
    with pytest.raises(ValueError, match=r"B must have n = 0 entries.*got B of shape \(\)"):
        as_state_space([], 1.0, [], 2.0)
    with pytest.raises(ValueError, match=r"C must have n = 0 entries.*got C of shape \(1,\)"):
        as_state_space([], [], [1.0], 2.0)


def test_initial_state_of_a_model_without_states_is_empty():
    assert as_initial_state([], 0).shape == (0,)


# ---------------------------------------------------------------------------------------------
# Messages: the argument, the shape received, the shape expected
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call, message", [
    (lambda: as_state_space([[1, 2, 3]], [1], [1], 0),
     r"A must be a square matrix, got shape \(1, 3\)\. A must be square, shape \(n, n\)"),
    (lambda: as_state_space([1.0, 2.0], [1], [1], 0), r"A must be a square matrix, got shape \(2,\)"),
    (lambda: as_state_space(np.zeros((2, 2, 2)), [1], [1], 0), r"A must be a square matrix"),
    (lambda: as_state_space(A2, [[1.0], [2.0], [3.0]], [1, 0], 0),
     r"B must have n = 2 rows, one per state, shape \(2, m\) for m inputs or \(2,\) for one "
     r"input\. B must have as many rows as A \(A is 2x2, got B of shape \(3, 1\)\)"),
    (lambda: as_state_space(A2, [1.0, 2.0, 3.0], [1, 0], 0),
     r"B must have n = 2 entries.*got B of shape \(3,\)"),
    (lambda: as_state_space(A2, np.zeros((2, 0)), [1, 0], 0),
     r"B must have at least one column, one per input, got B of shape \(2, 0\)"),
    (lambda: as_state_space(A2, np.zeros((2, 1, 1)), [1, 0], 0),
     r"B must be a 2-D array \(or 1-D for one column\), got shape \(2, 1, 1\)"),
    (lambda: as_state_space(A2, [0, 1], [[1.0, 0.0, 0.0]], 0),
     r"C must have n = 2 columns, one per state, shape \(p, 2\) for p outputs or \(2,\) for one "
     r"output\. C must have as many columns as A \(A is 2x2, got C of shape \(1, 3\)\)"),
    (lambda: as_state_space(A2, [0, 1], np.zeros((0, 2)), 0),
     r"C must have at least one row, one per output, got C of shape \(0, 2\)"),
    (lambda: as_state_space(A2, [0, 1], [1, 0], [[1.0], [2.0]]),
     r"D must have shape \(p, m\) = \(1, 1\), the rows of C by the columns of B, got shape "
     r"\(2, 1\)\. D must have shape \(1, 1\)"),
    (lambda: as_state_space(A2, np.ones((2, 2)), [1, 0], 1.0), r"D must have shape \(p, m\) = \(1, 2\)"),
    (lambda: as_state_space(A2, [0, 1], [1, 0], "0"), r"D must be a number"),
    (lambda: as_state_space(np.array(A2) * np.nan, [0, 1], [1, 0], 0), r"A must be finite"),
    (lambda: as_state_space(A2, [0, 1j], [1, 0], 0), r"B must be real"),
    (lambda: as_state_space(A2, np.ones((2, 2)), [1, 0], np.zeros((1, 2)), one_input="ss2tf"),
     r"ss2tf handles one input: B must have exactly one column, got shape \(2, 2\)\. For input j "
     r"pass B\[:, \[j\]\] and D\[:, \[j\]\]"),
    (lambda: as_state_space(A2, [0, 1], np.ones((2, 2)), np.zeros((2, 1)), one_output="ss2tf"),
     r"ss2tf handles one output: C must have exactly one row, got shape \(2, 2\)"),
    (lambda: as_state_equation(A2, np.ones((2, 2)), one_input="backward_euler_linear"),
     r"backward_euler_linear handles one input: .* pass B\[:, \[j\]\] \(MATLAB"),
])
def test_bad_shapes_get_a_message_naming_argument_received_and_expected(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_the_one_input_check_comes_after_the_shape_checks():
    """A shape error is reported first: it is the more basic mistake."""
    with pytest.raises(ValueError, match="D must have shape"):
        as_state_space(A2, np.ones((2, 2)), [1, 0], np.zeros((3, 3)), one_input="ss2tf")


# ---------------------------------------------------------------------------------------------
# Initial state
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("x0", [[1.0, 2.0], [[1.0], [2.0]], [[1.0, 2.0]], np.array([1, 2])])
def test_initial_state_accepts_a_vector_a_column_or_a_row(x0):
    result = as_initial_state(x0, 2)
    assert result.shape == (2,) and result.dtype == np.float64
    np.testing.assert_array_equal(result, [1.0, 2.0])


def test_initial_state_of_one_state_may_be_a_number():
    np.testing.assert_array_equal(as_initial_state(3.0, 1), [3.0])


def test_initial_state_for_a_batch_is_a_vector_for_all_or_one_row_each():
    np.testing.assert_array_equal(as_initial_state([1.0, 2.0], 2, batch=3), [[1.0, 2.0]] * 3)
    rows = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(as_initial_state(rows, 2, batch=3), rows)


@pytest.mark.parametrize("x0, n, kwargs, message", [
    ([1.0, 2.0, 3.0], 2, {}, r"x0 must have n = 2 entries, one value per state\. x0 must have "
                             r"shape \(2,\), got shape \(3,\)\."),
    (np.ones((2, 2)), 2, {}, r"x0 must have shape \(2,\), got shape \(2, 2\)"),
    ([1.0, 2.0], 3, {"per": "element"}, r"one value per element"),
    (np.ones((2, 3)), 3, {"batch": 4}, r"shape \(3,\) \(or \(m, n\) = \(4, 3\), one row per system "
                                       r"of a batch\), got shape \(2, 3\)"),
    ([np.nan], 1, {}, r"x0 must be finite"),
])
def test_bad_initial_state_names_the_shapes(x0, n, kwargs, message):
    with pytest.raises(ValueError, match=message):
        as_initial_state(x0, n, **kwargs)


# ---------------------------------------------------------------------------------------------
# Structure graphs, typical elements, inputs, holds
# ---------------------------------------------------------------------------------------------

SEED_P = [[0.1, 1, 0.5, 1], [0, 1, 1, 0], [1, 1, 2, 1]]
SEED_W = [[0, 0, -1], [1, 0, 0], [0, 1, 0]]


def test_structure_graph_vectors_follow_the_rules_of_B_and_C():
    """W0 is the B of the graph (a vector is one input column), Wc its C (a vector is one row)."""
    P, W, W0, Wc = as_structure_graph(SEED_P, SEED_W, [1, 0, 0], [0, 0, 1])
    assert shapes(P, W, W0, Wc) == [(3, 4), (3, 3), (3, 1), (1, 3)]
    _, _, W0, Wc = as_structure_graph([[1, 1, 1, 0]], 0.0, 1.0, 2.0)  # one element: numbers
    assert shapes(W0, Wc) == [(1, 1), (1, 1)]


def test_structure_graph_keeps_a_batch_of_parameter_sets():
    P, *_ = as_structure_graph(np.stack([SEED_P, SEED_P]), SEED_W, [1, 0, 0], [0, 0, 1])
    assert P.shape == (2, 3, 4)


@pytest.mark.parametrize("P, W, W0, Wc, message", [
    (np.zeros((0, 4)), np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)),
     r"P has no rows: a structure graph needs at least one typical element.*got shape \(0, 4\)"),
    (SEED_P, SEED_W, [1, 0], [0, 0, 1], r"W0 must have one row per element, shape \(3, m\) .*"
                                        r"got shape \(2,\)"),
    (SEED_P, SEED_W, np.zeros((3, 0)), [0, 0, 1], r"W0 must have at least one column"),
    (SEED_P, SEED_W, [1, 0, 0], [0, 1], r"Wc must have one column per element, shape \(p, 3\)"),
    (SEED_P, SEED_W, [1, 0, 0], np.zeros((0, 3)), r"Wc must have at least one row"),
    ([[1, 1, 1, 0], [0, 0, 1, 0]], [[0, 0], [1, 0]], [1, 0], [0, 1],
     r"P: element\(s\) \[2\] have A_i = B_i = 0"),
])
def test_bad_structure_graph_names_the_argument(P, W, W0, Wc, message):
    with pytest.raises(ValueError, match=message):
        as_structure_graph(P, W, W0, Wc)


def test_typical_element_shares_the_zero_denominator_rule():
    np.testing.assert_array_equal(as_typical_element([1, 0, 2, 0]), [1.0, 0.0, 2.0, 0.0])
    with pytest.raises(ValueError, match=r"row has A = B = 0: the element's denominator"):
        as_typical_element([0, 0, 1, 0])
    with pytest.raises(ValueError, match=r"row must be \[A, B, C, D\], got shape \(3,\)"):
        as_typical_element([1, 1, 1])


def test_input_function_from_a_number_a_vector_or_a_function():
    np.testing.assert_array_equal(as_input_function(2.0, 2)(0.0), [2.0, 2.0])
    np.testing.assert_array_equal(as_input_function([1.0, 3.0], 2)(5.0), [1.0, 3.0])
    np.testing.assert_array_equal(as_input_function(lambda t: 2 * t, 2)(1.5), [3.0, 3.0])


def test_input_function_that_returns_the_wrong_shape_gets_a_clear_message():
    r = as_input_function(lambda t: [1.0, 2.0, 3.0], 2)
    with pytest.raises(ValueError, match=r"r\(t\) must return a number or a vector of q = 2 input "
                                         r"values, shape \(2,\); r\(0.5\) returned an array of "
                                         r"shape \(3,\)"):
        r(0.5)
    with pytest.raises(ValueError, match=r"r must be a number, a vector of 2 input values"):
        as_input_function([1.0, 2.0, 3.0], 2)


def test_hold_is_zero_order_or_triangle():
    assert as_hold("zoh") == "zoh" and as_hold("foh") == "foh"
    with pytest.raises(ValueError, match=r"hold must be one of 'zoh', 'foh' \(zero-order"):
        as_hold("tustin")


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): options (flags, counts, intervals), r(t) checked at every call, and the
# package layout (every name importable from simlab.validation)
# ---------------------------------------------------------------------------------------------


def test_flag_is_true_or_false_only():
    import re

    from simlab.validation import as_flag

    assert as_flag(True, "seed_compatible") is True
    assert as_flag(np.bool_(False), "seed_compatible") is False
    for value, shown in [("yes", "'yes' (type str)"), (1, "1 (type int)"), (None, "None (type NoneType)"),
                         (float("nan"), "nan (type float)")]:
        with pytest.raises(TypeError, match=rf"seed_compatible must be True or False, got {re.escape(shown)}"):
            as_flag(value, "seed_compatible")


def test_count_is_a_whole_number_within_bounds():
    from simlab.validation import as_count

    assert as_count(np.int64(301), "n", minimum=2, maximum=1001) == 301
    for value in [True, 2.5, 3.0, "3", float("nan"), None]:
        with pytest.raises(TypeError, match=r"n must be an integer \(points per axis\), got "):
            as_count(value, "n", minimum=2, maximum=1001, meaning=" (points per axis)")
    with pytest.raises(ValueError, match=r"n must be between 2 and 1001 \(points per axis\), got 100000"):
        as_count(10**5, "n", minimum=2, maximum=1001, meaning=" (points per axis)")
    with pytest.raises(ValueError, match=r"order must be at least 0, got -1"):
        as_count(-1, "order", minimum=0)


def test_interval_is_a_pair_of_finite_numbers_low_below_high():
    from simlab.validation import as_interval

    assert as_interval((-4, 1), "re") == (-4.0, 1.0)
    with pytest.raises(TypeError, match=r"im must be a pair \(low, high\) of numbers, got 'ab' \(type str\)"):
        as_interval("ab", "im")
    with pytest.raises(TypeError, match=r"re must be a pair \(low, high\) of numbers, got \(0.0, 1.0, 2.0\)"):
        as_interval((0.0, 1.0, 2.0), "re")
    with pytest.raises(ValueError, match=r"re\[1\] \(high\) must be a finite number, got nan"):
        as_interval((0.0, float("nan")), "re")
    with pytest.raises(ValueError, match=r"re must be a range \(low, high\) with low < high, got \(1.0, 0.0\)"):
        as_interval((1.0, 0.0), "re")


@pytest.mark.parametrize("returned, error, message", [
    (float("nan"), ValueError, r"r\(t\) must return finite input values; r\(0.25\) returned nan"),
    (np.array([1.0, np.inf]), ValueError,
     r"r\(t\) must return finite input values; r\(0.25\) returned array of shape \(2,\) and dtype "
     r"float64 with NaN or inf in it"),
    ("ten", TypeError, r"r\(t\) must return a number or a vector of q = 2 real input values; "
                       r"r\(0.25\) returned 'ten' \(type str\)"),
    ([1j, 2.0], TypeError, r"r\(0.25\) returned \[1j, 2.0\] \(type list\)"),
    (None, TypeError, r"r\(0.25\) returned None"),
])
def test_input_function_checks_what_r_of_t_returns_and_names_the_time(returned, error, message):
    """A NaN input is the input's fault: it must not reach the integrator, which would blame h."""
    r = as_input_function(lambda t: returned, 2)
    with pytest.raises(error, match=message):
        r(0.25)


def test_input_function_keeps_numbers_ints_and_bools_from_r_of_t():
    """Valid values pass unchanged (a step written as t >= 1 included, as before)."""
    np.testing.assert_array_equal(as_input_function(lambda t: t >= 1.0, 1)(2.0), [1.0])
    np.testing.assert_array_equal(as_input_function(lambda t: 3, 2)(0.0), [3.0, 3.0])
    np.testing.assert_array_equal(as_input_function(lambda t: np.float64(0.5), 1)(0.0), [0.5])


def test_every_checker_is_importable_from_the_package():
    import simlab.validation as validation
    from simlab.validation import graphs, parameters

    for module in (graphs, parameters):
        for name in module.__all__:
            assert getattr(validation, name) is getattr(module, name)
            assert name in validation.__all__
    assert len(validation.__all__) == len(set(validation.__all__))
