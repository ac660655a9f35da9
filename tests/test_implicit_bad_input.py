"""Bad input for simlab.implicit.backward_euler_linear (issue 14).

Oracle: the implicit Euler step x_{k+1} = (I - h A)^{-1} (x_k + h B u): it needs I - h A
invertible (h lambda != 1 for every eigenvalue lambda of A), and it grows without bound only when
A itself is unstable (|1 / (1 - h lambda)| <= 1 in the whole left half-plane).
"""

import warnings

import numpy as np
import pytest

from simlab.implicit import backward_euler_linear
from simlab.integrators import NonFiniteStateError


def test_singular_implicit_equation_is_a_value_error_naming_h_and_the_eigenvalue():
    """A = 10, h = 0.1: I - h A = 0; numpy's LinAlgError('Singular matrix') used to reach the user."""
    with pytest.raises(ValueError, match=r"I - h A is singular for h = 0.1: A has the eigenvalue "
                                         r"1/h = 10"):
        backward_euler_linear([[10.0]], [1.0], 1.0, (0, 1), [0.0], 0.1)


def test_a_run_that_outgrows_the_doubles_names_the_step_h_and_the_unstable_A():
    """A = 1, h = 0.5: the factor 1/(1 - 0.5) = 2 per step passes 1.8e308 = 2^1024 at step 1024
    (x0 = 1, u = 1: x_k = 2^(k+1) - 1)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way
        with pytest.raises(NonFiniteStateError, match=r"backward euler: the state became inf or NaN at "
                                                      r"step 1023 of 4000 \(t = 511.5\) with h = 0.5: A "
                                                      r"is unstable \(largest real part of its "
                                                      r"eigenvalues 1\)") as caught:
            backward_euler_linear([[1.0]], [1.0], 1.0, (0, 2000), [1.0], 0.5)
    error = caught.value
    assert (error.method, error.step, error.steps, error.t, error.h) == ("backward euler", 1023, 4000, 511.5, 0.5)


def test_an_input_term_that_overflows_is_refused_naming_B_and_u():
    with pytest.raises(ValueError, match=r"h B u overflows the floating-point range \(h = 0.5, u = "
                                         r"1e\+300, largest \|B\| = 1e\+300\)"):
        backward_euler_linear([[-1.0]], [1e300], 1e300, (0, 1), [0.0], 0.5)


def test_h_A_that_overflows_is_refused_before_lapack():
    with pytest.raises(ValueError, match=r"h A overflows the floating-point range \(h = 10, largest "
                                         r"\|A\| = 1e\+308\)"):
        backward_euler_linear([[-1e308]], [1.0], 1.0, (0, 10), [0.0], 10.0)


def test_a_stable_stiff_run_is_unchanged():
    """Oracle: the docstring example (x_k = 1 - (1/501)^k with lambda h = -500)."""
    _, x = backward_euler_linear([[-1000.0]], [1000.0], 1.0, (0, 1), [0.0], 0.5)
    np.testing.assert_allclose(x[:, 0], 1 - (1 / 501.0) ** np.arange(3), rtol=1e-15)
