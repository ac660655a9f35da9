"""simlab.implicit: implicit Euler for linear systems, against closed forms."""

import numpy as np
import pytest

from simlab.implicit import backward_euler_linear


def test_one_step_is_the_stability_function_one_over_one_minus_z():
    """Oracle: on x' = lambda x, one implicit Euler step multiplies by 1 / (1 - h lambda)."""
    lam, h = -3.0, 0.2
    _, x = backward_euler_linear([[lam]], [0.0], 0.0, (0.0, 5 * h), [1.0], h)
    np.testing.assert_allclose(x[:, 0], (1.0 / (1.0 - h * lam)) ** np.arange(6), rtol=1e-14)


def test_constant_input_settles_at_the_exact_equilibrium():
    """Oracle: the fixed point of x = (I - hA)^-1 (x + h B u) is -A^-1 B u, whatever h."""
    A = np.array([[-1001.0, -1000.0], [1.0, 0.0]])
    B = np.array([1000.0, 0.0])
    t, x = backward_euler_linear(A, B, 1.0, (0.0, 200.0), np.zeros(2), 0.5)
    np.testing.assert_allclose(x[-1], -np.linalg.solve(A, B), rtol=1e-12, atol=1e-12)
    assert t.shape == (401,) and x.shape == (401, 2)


def test_first_order_convergence_on_the_stiff_system():
    """Oracle: the closed-form step response; halving h halves the error (order 1)."""
    A = np.array([[-1001.0, -1000.0], [1.0, 0.0]])
    B = np.array([1000.0, 0.0])

    def error(h):
        t, x = backward_euler_linear(A, B, 1.0, (0.0, 5.0), np.zeros(2), h)
        exact = 1.0 - 1000.0 / 999.0 * np.exp(-t) + 1.0 / 999.0 * np.exp(-1000.0 * t)
        return np.max(np.abs(x[:, 1] - exact)[t >= 0.5])

    assert error(0.01) / error(0.005) == pytest.approx(2.0, rel=0.05)


def test_result_is_a_trajectory_that_names_the_method():
    result = backward_euler_linear([[-1.0]], [1.0], 1.0, (0.0, 1.0), [0.0], 0.25)
    assert result.method == "backward euler" and result.h == 0.25 and result.nfev == 0


@pytest.mark.parametrize("A, B, x0, message", [
    ([[1.0, 2.0]], [1.0], [0.0], r"A must be a square matrix, got shape \(1, 2\)"),
    ([[-1.0]], [1.0, 2.0], [0.0], r"B must have n = 1 entries"),
    ([[-1.0]], [1.0], [0.0, 0.0], r"x0 must have n = 1 entries"),
])
def test_shapes_are_checked_with_the_argument_named(A, B, x0, message):
    with pytest.raises(ValueError, match=message):
        backward_euler_linear(A, B, 1.0, (0.0, 1.0), x0, 0.5)


def test_B_may_be_a_column_and_the_single_input_is_required():
    """The shape rules of simlab.validation.as_state_equation: B (n,) or (n, 1); one input."""
    column = backward_euler_linear([[-1.0]], [[1.0]], 1.0, (0.0, 1.0), [0.0], 0.25)
    vector = backward_euler_linear([[-1.0]], [1.0], 1.0, (0.0, 1.0), [0.0], 0.25)
    np.testing.assert_array_equal(column.x, vector.x)
    with pytest.raises(ValueError, match=r"backward_euler_linear handles one input: B must have "
                                         r"exactly one column, got shape \(1, 2\)"):
        backward_euler_linear([[-1.0]], [[1.0, 2.0]], 1.0, (0.0, 1.0), [0.0], 0.25)


def test_a_model_without_states_has_an_empty_state():
    """n = 0 (the static-gain rule of simlab.validation): nothing to integrate."""
    t, x = backward_euler_linear([], [], 1.0, (0.0, 1.0), [], 0.25)
    assert t.shape == (5,) and x.shape == (5, 0)
