"""Implicit methods for stiff (ill-conditioned, 病态) systems.

An explicit method's step is bounded by the fastest mode of the system (see
:mod:`simlab.stability`); an A-stable implicit method's only by accuracy. Implicit Euler

    x_{k+1} = x_k + h f(t_{k+1}, x_{k+1})

has the stability function R(z) = 1 / (1 - z), of modulus below 1 in the whole left half-plane.
For a linear system x' = A x + B u the implicit equation is linear and solved once:
x_{k+1} = (I - h A)^{-1} (x_k + h B u).

Used in lab02 (the stiff system 1000 / ((s + 1)(s + 1000))).
"""

from __future__ import annotations

import numpy as np

from simlab.integrators import Trajectory, time_grid
from simlab.validation import as_finite_scalar, as_initial_state, as_state_equation

__all__ = ["backward_euler_linear"]


def backward_euler_linear(A, B, u, t_span, x0, h):
    """Implicit (backward) Euler for x' = A x + B u with a constant input u.

    .. math:: x_{k+1} = x_k + h (A x_{k+1} + B u) \\;\\Rightarrow\\;
              x_{k+1} = (I - h A)^{-1} (x_k + h B u)

    Its stability function 1 / (1 - z) has modulus below 1 in the whole left half-plane
    (A-stable), so h is limited by accuracy only; the order is 1.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n,) or (n, 1)
        Input vector of the single input (shape rules of
        :func:`simlab.validation.as_state_equation`; n = 0 gives an empty state).
    u : float
        The constant input.
    t_span : (float, float)
    x0 : array_like, shape (n,)
    h : float
        Step; must divide the span.

    Returns
    -------
    Trajectory
        Unpacks as ``t, x`` with ``x.shape == (N + 1, n)``; ``nfev`` is 0 (no f is called).

    Examples
    --------
    >>> from simlab.implicit import backward_euler_linear
    >>> t, x = backward_euler_linear([[-1000.0]], [1000.0], 1.0, (0, 1), [0.0], 0.5)
    >>> round(float(x[-1, 0]), 6)
    0.999996
    """
    A, B = as_state_equation(A, B, one_input="backward_euler_linear")
    B = B[:, 0]  # the input vector of the single input
    x0 = as_initial_state(x0, len(A))
    u = as_finite_scalar(u, "u")
    t, h = time_grid(t_span, h)
    M = np.linalg.inv(np.eye(len(A)) - h * A)  # (I - hA)^{-1}: one inversion, reused every step
    drive = M @ (h * B * u)
    xs = np.empty((len(t), len(A)))
    xs[0] = x0
    for k in range(len(t) - 1):
        xs[k + 1] = M @ xs[k] + drive  # x_{k+1} = (I - hA)^{-1} (x_k + h B u)
    return Trajectory(t=t, x=xs, method="backward euler", h=h, nfev=0)
