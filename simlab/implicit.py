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

from simlab.integrators import NonFiniteStateError, Trajectory, time_grid
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

    Raises
    ------
    TypeError, ValueError
        For non-numeric or non-finite arguments, shapes that break the rules of
        :func:`simlab.validation.as_state_equation` or :func:`simlab.validation.as_initial_state`,
        more than one input, a bad ``t_span`` or ``h`` (see :func:`simlab.integrators.time_grid`);
        ValueError also if I - h A is singular (A has the eigenvalue 1/h: the implicit
        equation has no unique solution) or h B u overflows.
    NonFiniteStateError
        If the state outgrows the floating-point range (an unstable A); the message names the
        step and h.

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
    M = _implicit_matrix(A, h)
    with np.errstate(over="ignore", invalid="ignore"):
        drive = M @ (h * B * u)
    if not np.all(np.isfinite(drive)):
        raise ValueError(
            f"h B u overflows the floating-point range (h = {h:g}, u = {u:g}, largest |B| = "
            f"{np.max(np.abs(B)):.3g}): scale B or u down (change the units)."
        )
    xs = np.empty((len(t), len(A)))
    xs[0] = x0
    with np.errstate(over="ignore", invalid="ignore"):  # a state that overflows is reported below
        for k in range(len(t) - 1):
            xs[k + 1] = M @ xs[k] + drive  # x_{k+1} = (I - hA)^{-1} (x_k + h B u)
    if not np.all(np.isfinite(xs)):
        raise _overflow(xs, t, h, A)
    return Trajectory(t=t, x=xs, method="backward euler", h=h, nfev=0)


def _implicit_matrix(A, h):
    """(I - hA)^{-1}, one inversion reused every step; a clear error when I - hA is singular."""
    with np.errstate(over="ignore", invalid="ignore"):
        I_hA = np.eye(len(A)) - h * A
    if not np.all(np.isfinite(I_hA)):  # h A overflows: check before LAPACK sees it
        raise ValueError(f"h A overflows the floating-point range (h = {h:g}, largest |A| = "
                         f"{np.max(np.abs(A)):.3g}): scale A or the time unit.")
    try:
        M = np.linalg.inv(I_hA)
    except np.linalg.LinAlgError:
        M = None
    if M is None or not np.all(np.isfinite(M)):
        raise ValueError(
            f"I - h A is singular for h = {h:g}: A has the eigenvalue 1/h = {1 / h:g}, so the "
            f"implicit Euler equation (I - h A) x_(k+1) = x_k + h B u has no unique solution. "
            f"Change h (the system is unstable: an eigenvalue 1/h > 0)."
        )
    return M


def _overflow(xs, t, h, A):
    k = int(np.argmax(~np.all(np.isfinite(xs), axis=1)))
    largest = float(np.max(np.linalg.eigvals(A).real))
    why = (f"A is unstable (largest real part of its eigenvalues {largest:.3g}), so the exact "
           f"solution grows too, and it outgrew the floating-point range. Shorten t_span; a "
           f"smaller h does not help." if largest > 0 else
           "x0 or h B u is so large that (I - h A)^-1 x overflows; scale the model down.")
    return NonFiniteStateError(
        f"backward euler: the state became inf or NaN at step {k} of {len(t) - 1} (t = {t[k]:.6g}) "
        f"with h = {h:.6g}: {why}",
        method="backward euler", step=k, steps=len(t) - 1, t=float(t[k]), h=h,
    )
