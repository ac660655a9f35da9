"""Implicit methods for stiff (ill-conditioned, 病态) systems.

An explicit method's step is bounded by the fastest mode of the system (see
:mod:`simlab.stability`); an A-stable implicit method's only by accuracy. Implicit Euler

    x_{k+1} = x_k + h f(t_{k+1}, x_{k+1})

has the stability function R(z) = 1 / (1 - z), of modulus below 1 in the whole left half-plane.
For a linear system x' = A x + B u the implicit equation is linear and solved once:
x_{k+1} = (I - h A)^{-1} (x_k + h B u) (:func:`backward_euler_linear`).

For a nonlinear f the implicit equation of each step, written as G(y) = 0 for y = x_{k+1},

    trapezoidal rule (梯形法)  G(y) = y - x_k - (h/2) (f(t_k, x_k) + f(t_{k+1}, y))
    BDF2 (二阶后向差分公式)      G(y) = y - (4/3) x_k + (1/3) x_{k-1} - (2/3) h f(t_{k+1}, y)

is solved by Newton's iteration (牛顿迭代)

    y <- y - (I - gamma h J(y))^{-1} G(y),     J = df/dx,  gamma = 1/2 (trapezoidal), 2/3 (BDF2),

with J from the user's ``jac`` or by forward differences, until the correction is below
``tol`` (relative to the size of the state). Both methods have order 2 and are A-stable (R(z) =
(1 + z/2) / (1 - z/2) for the trapezoidal rule); BDF2 is also L-stable (it damps the fastest
modes completely, where the trapezoidal rule lets them ring with R(-inf) = -1).
(:func:`trapezoidal`, :func:`bdf2`.)

References: E. Hairer and G. Wanner, "Solving Ordinary Differential Equations II: Stiff and
Differential-Algebraic Problems", 2nd ed., Springer 1996, sect. IV.3 and V.1 (A- and
L-stability, BDF), IV.8 (Newton's iteration), and its test problems (Robertson's reactions,
Van der Pol with a large mu); the seed's 3.7 (病态系统仿真方法).

Used in lab02 (the stiff system 1000 / ((s + 1)(s + 1000))) and lab10/course/07-08.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.guards import NewtonConvergenceError
from simlab.integrators import NonFiniteStateError, Trajectory, _prepare_rhs, time_grid
from simlab.validation import (
    as_count,
    as_finite_scalar,
    as_initial_state,
    as_positive_scalar,
    as_real_array,
    as_state_equation,
    describe,
)

__all__ = ["backward_euler_linear", "trapezoidal", "bdf2", "ImplicitTrajectory", "NewtonConvergenceError"]


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


# ---------------------------------------------------------------------------------------------
# Nonlinear f: the trapezoidal rule and BDF2 with Newton's iteration
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class ImplicitTrajectory(Trajectory):
    """Result of :func:`trapezoidal` and :func:`bdf2`; unpacks as ``t, x``.

    The fields of :class:`simlab.integrators.Trajectory` (``t``, ``x``, ``method``, ``h``;
    ``nfev`` counts every call of f, the difference quotients of the Jacobian included), and:

    Attributes
    ----------
    newton_iterations : ndarray of int, shape (N,)
        Newton iterations (corrections solved for) in each step.
    njev : int
        Jacobians evaluated, one per Newton iteration: calls of ``jac``, or forward-difference
        Jacobians (n evaluations of f each, counted in ``nfev``).
    """

    newton_iterations: np.ndarray
    njev: int

    def __repr__(self):
        return (f"ImplicitTrajectory(method={self.method!r}, h={self.h:g}, steps={self.steps}, "
                f"newton iterations={int(self.newton_iterations.sum())} (at most "
                f"{int(self.newton_iterations.max(initial=0))} per step), nfev={self.nfev}, njev={self.njev})")


def _difference_jacobian(f, t, y, F, shape):
    """J_ij ~ (f_i(t, y + delta_j e_j) - f_i(t, y)) / delta_j, delta_j = sqrt(eps) max(1, |y_j|)."""
    J = np.empty((y.size, y.size))
    for j in range(y.size):
        delta = np.sqrt(np.finfo(float).eps) * max(1.0, abs(y[j]))
        shifted = y.copy()
        shifted[j] += delta
        J[:, j] = (np.reshape(f(t, shifted.reshape(shape)[()]), -1) - F) / delta
    return J


def _user_jacobian(jac, n):
    """``jac(t, x)`` checked on every call: a finite real (n, n) matrix."""
    def jacobian(f, t, y, F, shape):
        value = jac(t, y.reshape(shape)[()])
        try:
            J = np.asarray(value, dtype=float).reshape(n, n) if np.size(value) == n * n else None
        except (TypeError, ValueError):
            J = None
        if J is None or not np.all(np.isfinite(J)):
            raise ValueError(f"jac(t, x) must return the Jacobian df/dx as a finite real ({n}, {n}) matrix, "
                             f"got {describe(value)} at t = {t!r}.")
        return J
    return jacobian


class _Newton:
    """Solves G(y) = y - c - gamma h f(t, y) = 0 by Newton's iteration; counts iterations."""

    def __init__(self, f, jacobian, shape, tol, max_iter, method, t_grid, h):
        self.f, self.jacobian, self.shape = f, jacobian, shape
        self.tol, self.max_iter, self.method, self.t, self.h = tol, max_iter, method, t_grid, h
        self.njev = 0

    def solve(self, k, c, gamma_h, y):
        """x_k from the predictor y; returns (x_k, iterations)."""
        t, n = float(self.t[k]), y.size
        residual, correction = np.inf, np.inf
        for iteration in range(1, self.max_iter + 1):
            F = np.reshape(self.f(t, y.reshape(self.shape)[()]), -1)
            G = y - c - gamma_h * F  # the residual of the implicit equation
            residual = float(np.max(np.abs(G))) if n else 0.0
            J = self.jacobian(self.f, t, y, F, self.shape)  # J = df/dx at y
            self.njev += 1
            try:
                delta = np.linalg.solve(np.eye(n) - gamma_h * J, G)  # (I - gamma h J) delta = G
            except np.linalg.LinAlgError:
                raise self._failure(k, iteration, residual, "the Newton matrix I - gamma h J is singular") from None
            y = y - delta  # y <- y - (I - gamma h J)^{-1} G(y)
            correction = float(np.max(np.abs(delta))) if n else 0.0
            if not (np.all(np.isfinite(y)) and np.isfinite(residual)):
                raise self._failure(k, iteration, residual, "the Newton iterate became inf or NaN")
            if correction <= self.tol * max(1.0, float(np.max(np.abs(y))) if n else 1.0):
                return y, iteration
        raise self._failure(k, self.max_iter, residual,
                            f"the last correction was {correction:.3g}, above tol = {self.tol:g} times the state")

    def _failure(self, k, iterations, residual, why):
        steps, t = len(self.t) - 1, float(self.t[k])
        return NewtonConvergenceError(
            f"{self.method}: Newton's iteration did not converge in step {k} of {steps} (t = {t:.6g}, "
            f"h = {self.h:.6g}) after {iterations} iteration(s): {why}; the residual of the implicit "
            f"equation was {residual:.3g}. Try a smaller h (the predictor starts closer), pass the "
            f"exact Jacobian as jac, or raise max_iter.",
            method=self.method, step=k, steps=steps, t=t, h=self.h, residual=residual, iterations=iterations)


def _implicit_run(f, t_span, x0, h, jac, tol, max_iter, method):
    """The fixed-step loop of both methods: grid, checks, the Newton solver; (t, xs, newton, counts)."""
    t, h = time_grid(t_span, h)
    x0 = as_real_array(x0, "x0")
    tol = as_positive_scalar(tol, "tol")
    max_iter = as_count(max_iter, "max_iter", minimum=1, maximum=1000, meaning=" (Newton iterations per step)")
    if jac is not None and not callable(jac):
        raise TypeError(f"jac must be a function jac(t, x) that returns the Jacobian df/dx, or None, got "
                        f"{describe(jac)}.")
    jacobian = _difference_jacobian if jac is None else _user_jacobian(jac, x0.size)
    f, calls, _ = _prepare_rhs(f, float(t[0]), x0)
    f_0 = np.reshape(f(float(t[0]), x0.copy()[()]), -1).astype(float)  # the checked f(t0, x0), not counted twice
    xs = np.empty((len(t),) + x0.shape)
    xs[0] = x0
    newton = _Newton(f, jacobian, x0.shape, tol, max_iter, method, t, h)
    return t, h, xs, f_0, newton, calls


def _result(t, h, xs, iterations, newton, calls, method):
    return ImplicitTrajectory(t=t, x=xs, method=method, h=h, nfev=next(calls) - 1,
                              newton_iterations=np.array(iterations, dtype=int), njev=newton.njev)


def trapezoidal(f, t_span, x0, h, jac=None, tol=1e-10, max_iter=20):
    """Integrate dx/dt = f(t, x) by the implicit trapezoidal rule (梯形法) with Newton's iteration.

    .. math::
        x_{k+1} = x_k + \\tfrac{h}{2}\\big(f(t_k, x_k) + f(t_{k+1}, x_{k+1})\\big)

    solved for x_{k+1} by Newton's iteration from the Euler predictor x_k + h f(t_k, x_k) (see
    the module docstring). Order 2, A-stable: R(z) = (1 + z/2) / (1 - z/2), |R| < 1 in the whole
    left half-plane, but R(-inf) = -1 (the fastest modes are not damped: they alternate in sign).

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like
        Initial state, real, n values in any shape.
    h : float
        Step size; must divide the span.
    jac : callable ``jac(t, x)``, optional
        The Jacobian df/dx, shape (n, n); by default forward differences (n more evaluations
        of f per Newton iteration).
    tol : float
        Newton stops when the largest correction is at most tol max(1, max |x|).
    max_iter : int
        Most Newton iterations per step (1 .. 1000).

    Returns
    -------
    ImplicitTrajectory
        Unpacks as ``t, x``; ``nfev`` (every call of f), ``newton_iterations`` (per step) and
        ``njev``.

    Raises
    ------
    TypeError, ValueError
        For bad arguments (named in the message), an f that returns the wrong shape or NaN at
        the start, or a ``jac`` that does not return a finite (n, n) matrix.
    simlab.guards.NewtonConvergenceError
        If Newton's iteration does not converge in a step (the message names the step, t, h
        and the residual).

    Examples
    --------
    A stiff linear test, x' = -1000 (x - cos t): h = 0.1 is 50 times the explicit limit.

    >>> import numpy as np
    >>> from simlab.implicit import trapezoidal
    >>> run = trapezoidal(lambda t, x: -1000.0 * (x - np.cos(t)), (0, 2), 1.0, 0.1)
    >>> exact = (1e6 * np.cos(2) + 1e3 * np.sin(2)) / (1e6 + 1)
    >>> bool(abs(run.final - exact) < 1e-5), int(run.newton_iterations.max())
    (True, 2)
    """
    t, h, xs, f_k, newton, calls = _implicit_run(f, t_span, x0, h, jac, tol, max_iter, "trapezoidal")
    f = newton.f
    iterations = []
    x = np.reshape(xs[0], -1).astype(float)
    for k in range(len(t) - 1):
        c = x + (h / 2) * f_k  # x_{k+1} = c + (h/2) f(t_{k+1}, x_{k+1}),  c = x_k + (h/2) f(t_k, x_k)
        x, count = newton.solve(k + 1, c, h / 2, x + h * f_k)  # predictor: x_k + h f(t_k, x_k)
        iterations.append(count)
        xs[k + 1] = x.reshape(xs.shape[1:])
        if k + 2 < len(t):
            f_k = np.reshape(f(float(t[k + 1]), xs[k + 1][()]), -1)  # f(t_{k+1}, x_{k+1}) for the next step
    return _result(t, h, xs, iterations, newton, calls, "trapezoidal")


def bdf2(f, t_span, x0, h, jac=None, tol=1e-10, max_iter=20):
    """Integrate dx/dt = f(t, x) by the second-order backward differentiation formula (BDF2) with Newton.

    .. math::
        x_{k+1} - \\tfrac{4}{3} x_k + \\tfrac{1}{3} x_{k-1} = \\tfrac{2}{3} h\\, f(t_{k+1}, x_{k+1})

    solved for x_{k+1} by Newton's iteration from the extrapolation 2 x_k - x_{k-1}. The first
    step is an implicit Euler step (BDF1, x_1 = x_0 + h f(t_1, x_1), from the Euler predictor):
    its local error O(h^2) keeps the global order 2. A- and L-stable: the fastest modes are
    damped, R(z) -> 0 as z -> -inf. Parameters, return value and errors as in
    :func:`trapezoidal`.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.implicit import bdf2
    >>> run = bdf2(lambda t, x: -1000.0 * (x - np.cos(t)), (0, 2), 1.0, 0.1)
    >>> exact = (1e6 * np.cos(2) + 1e3 * np.sin(2)) / (1e6 + 1)
    >>> bool(abs(run.final - exact) < 1e-5), run.method
    (True, 'bdf2')
    """
    t, h, xs, f_0, newton, calls = _implicit_run(f, t_span, x0, h, jac, tol, max_iter, "bdf2")
    previous = np.reshape(xs[0], -1).astype(float)
    # the start, implicit Euler: x_1 = x_0 + h f(t_1, x_1), from the predictor x_0 + h f(t_0, x_0)
    x, count = newton.solve(1, previous, h, previous + h * f_0)
    iterations = [count]
    xs[1] = x.reshape(xs.shape[1:])
    for k in range(1, len(t) - 1):
        c = (4 / 3) * x - (1 / 3) * previous  # x_{k+1} = c + (2/3) h f(t_{k+1}, x_{k+1})
        previous, (x, count) = x, newton.solve(k + 1, c, 2 * h / 3, 2 * x - previous)  # predictor 2 x_k - x_{k-1}
        iterations.append(count)
        xs[k + 1] = x.reshape(xs.shape[1:])
    return _result(t, h, xs, iterations, newton, calls, "bdf2")
