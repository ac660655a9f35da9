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
``tol`` (relative to the size of the state; :data:`TOL_MIN` <= tol <= :data:`TOL_MAX`), in at most
``max_iter`` iterations per step (at most 1000). A run also stops at its wall-clock limit
``max_time`` (:class:`simlab.guards.WorkLimitError`), and an f that returns NaN or inf during the
run is named as the cause (:class:`simlab.guards.NonFiniteStateError`), not taken for a Newton
failure. Both methods have order 2 and are A-stable (R(z) =
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

from simlab.guards import (
    DEFAULT_MAX_TIME,
    NewtonConvergenceError,
    Stopwatch,
    WorkLimitError,
    as_max_time,
    check_state_size,
)
from simlab.integrators import NonFiniteStateError, Trajectory, _prepare_rhs, time_grid
from simlab.validation import (
    as_callable,
    as_count,
    as_finite_scalar,
    as_initial_state,
    as_positive_scalar,
    as_state,
    as_state_equation,
    describe,
)

__all__ = ["backward_euler_linear", "trapezoidal", "bdf2", "ImplicitTrajectory", "NewtonConvergenceError", "TOL_MIN",
           "TOL_MAX"]

#: Smallest Newton tolerance, 100 eps = 2.2e-14: a correction below it is lost in the rounding of x.
TOL_MIN = 100 * float(np.finfo(float).eps)
#: Largest Newton tolerance: a correction of 1 % of the state still left would pass an unconverged iterate.
TOL_MAX = 1e-2


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
    """J_ij ~ (f_i(t, y + delta_j e_j) - f_i(t, y)) / delta_j, delta_j = sqrt(eps) max(1, |y_j|).

    Returns None if f returns NaN or inf at a shifted point (the caller names f).
    """
    J = np.empty((y.size, y.size))
    for j in range(y.size):
        delta = np.sqrt(np.finfo(float).eps) * max(1.0, abs(y[j]))
        shifted = y.copy()
        shifted[j] += delta
        F_shifted = np.reshape(f(t, shifted.reshape(shape)[()]), -1)
        if not np.all(np.isfinite(F_shifted)):
            return None
        J[:, j] = (F_shifted - F) / delta
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
    """Solves G(y) = y - c - gamma h f(t, y) = 0 by Newton's iteration; counts iterations, watches the time."""

    def __init__(self, f, jacobian, shape, tol, max_iter, method, t_grid, h, watch):
        self.f, self.jacobian, self.shape = f, jacobian, shape
        self.tol, self.max_iter, self.method, self.t, self.h = tol, max_iter, method, t_grid, h
        self.njev, self.watch = 0, watch

    def slope(self, k, y, where):
        """f(t_k, y) as a flat array; NonFiniteStateError naming f if it is NaN or inf (y itself is finite)."""
        if not np.all(np.isfinite(y)):
            raise self._state_overflow(k, where)
        F = np.reshape(self.f(float(self.t[k]), y.reshape(self.shape)[()]), -1)
        if not np.all(np.isfinite(F)):
            raise self.f_not_finite(k, y, where)
        return F

    def solve(self, k, c, gamma_h, y):
        """x_k from the predictor y; returns (x_k, iterations)."""
        if self.watch.expired():
            raise self._out_of_time(k)
        t, n = float(self.t[k]), y.size
        residual, correction = np.inf, np.inf
        for iteration in range(1, self.max_iter + 1):
            F = self.slope(k, y, f"at Newton iteration {iteration}")
            with np.errstate(over="ignore", invalid="ignore"):
                G = y - c - gamma_h * F  # the residual of the implicit equation
            residual = float(np.max(np.abs(G))) if n else 0.0
            J = self.jacobian(self.f, t, y, F, self.shape)  # J = df/dx at y
            if J is None:
                raise self.f_not_finite(k, y, f"in a difference quotient of the Jacobian at Newton iteration {iteration}")
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

    def f_not_finite(self, k, y, where):
        steps, t = len(self.t) - 1, float(self.t[k])
        largest = float(np.max(np.abs(y))) if y.size else 0.0
        return NonFiniteStateError(
            f"{self.method}: f returned NaN (or inf) at t = {t:.6g} (step {k} of {steps}, h = {self.h:.6g}, {where}, "
            f"largest |x| there {largest:.3g}): check f there for a division by zero, the log or square root of a "
            f"negative number, or an overflow. (If f is finite along the solution, a smaller h keeps Newton's "
            f"iterates closer to it.)", method=self.method, step=k, steps=steps, t=t, h=self.h)

    def _state_overflow(self, k, where):
        steps, t = len(self.t) - 1, float(self.t[k])
        return NonFiniteStateError(
            f"{self.method}: the state left the float64 range (1.8e308) in step {k} of {steps} (t = {t:.6g}, "
            f"h = {self.h:.6g}, {where}): the solution grows beyond it (an unstable system: shorten t_span), or "
            f"the state is too large for the arithmetic of a step (rescale the model, other units).",
            method=self.method, step=k, steps=steps, t=t, h=self.h)

    def _out_of_time(self, k):
        steps, elapsed, t = len(self.t) - 1, self.watch.elapsed(), float(self.t[k - 1])
        return WorkLimitError(
            f"{self.method} stopped at t = {t:.6g} after {k - 1:,} of {steps:,} steps and {elapsed:.2g} s, beyond "
            f"max_time = {self.watch.max_time:g} s: at this pace the run needs about {elapsed * steps / max(k - 1, 1):,.0f} "
            f"s in all. Use a larger h (an implicit method's step is limited by accuracy only), pass the Jacobian as "
            f"jac (fewer evaluations of f), or raise max_time (None: no limit).",
            method=self.method, limit="max_time", t=t, h=self.h, n_accepted=k - 1, elapsed=elapsed)

    def _failure(self, k, iterations, residual, why):
        steps, t = len(self.t) - 1, float(self.t[k])
        return NewtonConvergenceError(
            f"{self.method}: Newton's iteration did not converge in step {k} of {steps} (t = {t:.6g}, "
            f"h = {self.h:.6g}) after {iterations} iteration(s): {why}; the residual of the implicit "
            f"equation was {residual:.3g}. Try a smaller h (the predictor starts closer), pass the "
            f"exact Jacobian as jac, or raise max_iter.",
            method=self.method, step=k, steps=steps, t=t, h=self.h, residual=residual, iterations=iterations)


def _as_tol(tol):
    """The Newton tolerance within its documented bounds TOL_MIN <= tol <= TOL_MAX."""
    tol = as_positive_scalar(tol, "tol")
    if not TOL_MIN <= tol <= TOL_MAX:
        why = ("below it, the rounding of x (eps = 2.2e-16) keeps the correction from ever getting there"
               if tol < TOL_MIN else "above it, an iterate that still moves by more than 1 % passes as the solution")
        raise ValueError(f"tol = {tol!r} is outside its bounds 100 eps = {TOL_MIN:.3g} <= tol <= {TOL_MAX:g}: {why}. "
                         f"The default 1e-10 suits most problems.")
    return tol


def _implicit_run(f, t_span, x0, h, jac, tol, max_iter, max_time, method):
    """The fixed-step loop of both methods: grid, checks, the Newton solver; (t, xs, newton, counts)."""
    watch = Stopwatch(as_max_time(max_time))
    f = as_callable(f, "f", call="f(t, x)")
    if jac is not None:
        jac = as_callable(jac, "jac", call="jac(t, x)", returns="the Jacobian df/dx (or pass jac=None)")
    t, h = time_grid(t_span, h)
    x0 = as_state(x0, "x0", allow_complex=False)
    check_state_size(x0, "x0")
    tol = _as_tol(tol)
    max_iter = as_count(max_iter, "max_iter", minimum=1, maximum=1000, meaning=" (Newton iterations per step)")
    jacobian = _difference_jacobian if jac is None else _user_jacobian(jac, x0.size)
    f, calls, _ = _prepare_rhs(f, float(t[0]), x0)
    f_0 = np.reshape(f(float(t[0]), x0.copy()[()]), -1).astype(float)  # the checked f(t0, x0), not counted twice
    xs = np.empty((len(t),) + x0.shape)
    xs[0] = x0
    newton = _Newton(f, jacobian, x0.shape, tol, max_iter, method, t, h, watch)
    return t, h, xs, f_0, newton, calls


def _result(t, h, xs, iterations, newton, calls, method):
    return ImplicitTrajectory(t=t, x=xs, method=method, h=h, nfev=next(calls) - 1,
                              newton_iterations=np.array(iterations, dtype=int), njev=newton.njev)


def trapezoidal(f, t_span, x0, h, jac=None, tol=1e-10, max_iter=20, *, max_time=DEFAULT_MAX_TIME):
    """Integrate dx/dt = f(t, x) by the implicit trapezoidal rule (梯形法) with Newton's iteration.

    .. math::
        x_{k+1} = x_k + \\tfrac{h}{2}\\big(f(t_k, x_k) + f(t_{k+1}, x_{k+1})\\big)

    solved for x_{k+1} by Newton's iteration from the Euler predictor x_k + h f(t_k, x_k) (see
    the module docstring). Order 2, A-stable: R(z) = (1 + z/2) / (1 - z/2), |R| < 1 in the whole
    left half-plane, but R(-inf) = -1 (the fastest modes are not damped: they alternate in sign).

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x`` (signature checked before the
        first call).
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like
        Initial state, real, n >= 1 values in any shape.
    h : float
        Step size; must divide the span (see :func:`simlab.integrators.time_grid`).
    jac : callable ``jac(t, x)``, optional
        The Jacobian df/dx, shape (n, n) (signature checked before the first call); by
        default forward differences (n more evaluations of f per Newton iteration).
    tol : float
        Newton stops when the largest correction is at most tol max(1, max |x|);
        ``100 eps = 2.2e-14 <= tol <= 1e-2`` (:data:`TOL_MIN`, :data:`TOL_MAX`): below, the
        rounding of x keeps the correction from getting there; above, an unconverged iterate
        would pass as the solution.
    max_iter : int
        Most Newton iterations per step (1 .. 1000): the cap of the iteration.
    max_time : float or None, keyword-only
        Wall-clock limit of the run in seconds (default
        :data:`simlab.guards.DEFAULT_MAX_TIME` = 30 s; None: no limit).

    Returns
    -------
    ImplicitTrajectory
        Unpacks as ``t, x``; ``nfev`` (every call of f), ``newton_iterations`` (per step) and
        ``njev``.

    Raises
    ------
    TypeError, ValueError
        For bad arguments (named in the message; ``tol`` outside its bounds, an empty ``x0`` or
        one with an entry beyond :data:`simlab.guards.STATE_LIMIT` = 2.8e306),
        an f or jac that cannot be called as ``f(t, x)``, an f that returns the wrong shape or
        NaN at the start, or a ``jac`` that does not return a finite (n, n) matrix.
    simlab.guards.NonFiniteStateError
        If f returns NaN or inf later in the run (at a Newton iterate, in a difference quotient
        of the Jacobian, or at a new state): the message names f, t and the step; or if the
        state itself leaves the float64 range.
    simlab.guards.NewtonConvergenceError
        If Newton's iteration does not converge in a step (the message names the step, t, h
        and the residual).
    simlab.guards.WorkLimitError
        (a ValueError) If the run takes longer than ``max_time``; the message gives the time
        the whole run would take.

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
    t, h, xs, f_k, newton, calls = _implicit_run(f, t_span, x0, h, jac, tol, max_iter, max_time, "trapezoidal")
    iterations = []
    x = np.reshape(xs[0], -1).astype(float)
    with np.errstate(over="ignore", invalid="ignore"):  # a state that overflows is named by newton.slope
        for k in range(len(t) - 1):
            c = x + (h / 2) * f_k  # x_{k+1} = c + (h/2) f(t_{k+1}, x_{k+1}),  c = x_k + (h/2) f(t_k, x_k)
            x, count = newton.solve(k + 1, c, h / 2, x + h * f_k)  # predictor: x_k + h f(t_k, x_k)
            iterations.append(count)
            xs[k + 1] = x.reshape(xs.shape[1:])
            if k + 2 < len(t):
                f_k = newton.slope(k + 1, x, "at the new state")  # f(t_{k+1}, x_{k+1}) for the next step
    return _result(t, h, xs, iterations, newton, calls, "trapezoidal")


def bdf2(f, t_span, x0, h, jac=None, tol=1e-10, max_iter=20, *, max_time=DEFAULT_MAX_TIME):
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
    t, h, xs, f_0, newton, calls = _implicit_run(f, t_span, x0, h, jac, tol, max_iter, max_time, "bdf2")
    previous = np.reshape(xs[0], -1).astype(float)
    with np.errstate(over="ignore", invalid="ignore"):  # a state that overflows is named by newton.slope
        # the start, implicit Euler: x_1 = x_0 + h f(t_1, x_1), from the predictor x_0 + h f(t_0, x_0)
        x, count = newton.solve(1, previous, h, previous + h * f_0)
        iterations = [count]
        xs[1] = x.reshape(xs.shape[1:])
        for k in range(1, len(t) - 1):
            c = (4 / 3) * x - (1 / 3) * previous  # x_{k+1} = c + (2/3) h f(t_{k+1}, x_{k+1})
            previous, (x, count) = x, newton.solve(k + 1, c, 2 * h / 3, 2 * x - previous)  # predictor 2x_k - x_{k-1}
            iterations.append(count)
            xs[k + 1] = x.reshape(xs.shape[1:])
    return _result(t, h, xs, iterations, newton, calls, "bdf2")
