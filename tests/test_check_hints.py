"""The generic mistake patterns that check_array and check_value recognise by themselves.

Each wrong answer is built from an independent closed form (y = e^{-t} on a grid, a 2 x 2 matrix,
pi/4 rad), never from the checker's output: the check must name the slip (sign, units, transpose,
one sample late or early, the first or last point missing) instead of "N of M values differ", and
must still call a right answer right.
"""

import math

import numpy as np
import pytest

from simlab.course.check import check_array, check_value, generic_hint

T = np.linspace(0.0, 2.0, 21)
Y = np.exp(-T)  # closed form of y' = -y, y(0) = 1


def _message(answer, reference=Y, **kwargs):
    result = check_array("y_k", answer, reference, **kwargs)
    assert not result.passed
    return result.message


def test_the_right_answer_is_still_correct():
    assert check_array("y_k", np.exp(-T), Y).passed
    assert check_value("phi", math.pi / 4, math.atan(1.0)).passed


def test_an_answer_with_the_opposite_sign_is_named():
    assert "opposite sign" in _message(-Y)


@pytest.mark.parametrize("k", [3, -3, 1, -6])
def test_a_factor_of_ten_to_the_k_is_named_as_a_unit_slip(k):
    assert f"10^{k}" in _message(Y * 10.0 ** k) and "unit" in _message(Y * 10.0 ** k)


def test_degrees_instead_of_radians_are_named():
    result = check_value("phase margin (rad)", 45.0, math.pi / 4)
    assert not result.passed and "degrees" in result.message


def test_a_transposed_square_matrix_is_named():
    A = np.array([[0.0, 1.0], [-2.0, -3.0]])
    assert "transpose" in _message(A.T, A)


def test_a_transposed_rectangular_matrix_is_named_at_the_shape_check():
    B = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert "transpose" in _message(B.T, B)


def test_a_sequence_one_sample_late_is_named():
    late = np.concatenate([[1.0], Y[:-1]])  # y_k holds y(t_{k-1})
    assert "one sample late" in _message(late)


def test_a_sequence_one_sample_early_is_named():
    early = np.concatenate([Y[1:], [0.0]])
    assert "one sample early" in _message(early)


def test_the_initial_value_left_out_is_named():
    assert "initial value" in _message(Y[1:])


def test_the_last_point_left_out_is_named():
    assert "stops one step early" in _message(Y[:-1])


def test_a_lab_alternative_wins_over_a_generic_pattern():
    result = check_array("y_k", -Y, Y, alternatives=[(-Y, "e = y - r has the wrong sign")])
    assert result.message == "e = y - r has the wrong sign"


def test_a_pattern_on_a_zero_reference_proves_nothing():
    """-0 equals 0: no sign hint for a reference that is zero to the tolerance."""
    assert generic_hint(np.zeros(5) + 1.0, np.zeros(5)) == ""


def test_a_constant_sequence_is_not_called_shifted():
    assert "sample" not in generic_hint(np.full(5, 2.0), np.full(5, 1.0))


def test_an_unrelated_wrong_answer_gets_the_difference_not_a_pattern():
    message = _message(Y + 0.01 * np.sin(7 * T))
    assert "differ from the reference" in message
