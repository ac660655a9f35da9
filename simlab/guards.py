"""Guards against runaway runs: non-finite states, unstable growth, and too many steps.

A fixed-step simulation can go wrong in three ways that a student meets early:

* the state becomes inf or NaN (:class:`NonFiniteStateError`, naming the step);
* the state grows unstably because h is beyond the method's stability limit for the system,
  long before it overflows (:class:`UnstableRunError`, naming the step, h L and the estimated
  largest stable step);
* a mistyped h asks for a run of hundreds of millions of steps (:func:`check_step_count`
  refuses more than :data:`MAX_STEPS`, naming the steps and the memory).

Two more stop the methods of issue 16: a variable-step run whose step collapses below the
resolution of t (:class:`StepSizeTooSmallError`, scipy's "step size too small") and an
implicit step whose Newton iteration does not converge (:class:`NewtonConvergenceError`).

The adaptive and iterative methods (:func:`simlab.rkf45`, :func:`simlab.trapezoidal`,
:func:`simlab.bdf2`) also have a work and time limit (issue 23): a run that reaches it, or that
can be seen not to finish within it, stops with a :class:`WorkLimitError` that names the limit,
the cause (a stiff problem, a discontinuity in f, a tolerance too tight) and the fix.
:data:`DEFAULT_MAX_TIME` is their default wall-clock limit; :class:`Stopwatch` measures it.

The fixed-step integrators of :mod:`simlab.integrators` and every simulator built on them use
these guards.
"""

from __future__ import annotations

import contextlib
import time

import numpy as np

from simlab.validation import as_positive_scalar

__all__ = ["NonFiniteStateError", "UnstableRunError", "StepSizeTooSmallError", "NewtonConvergenceError",
           "WorkLimitError", "MAX_STEPS", "GROWTH_LIMIT", "DEFAULT_MAX_TIME", "STATE_LIMIT", "Stopwatch",
           "as_max_time", "check_state_size", "check_step_count", "unstable_growth_allowed"]

_SETTINGS = {"stop_unstable": True}


@contextlib.contextmanager
def unstable_growth_allowed():
    """Inside this ``with`` block, unstable runs are not stopped early (only inf or NaN stops them).

    For demonstrations that show how an unstable recurrence grows (lab05 does); a student's own
    runs keep the guard.

    Examples
    --------
    >>> import simlab
    >>> from simlab.guards import UnstableRunError, unstable_growth_allowed
    >>> try:
    ...     simlab.euler(lambda t, x: -30.0 * x, (0.0, 4.0), 1.0, 0.1)  # |1 + h lambda| = 2
    ... except UnstableRunError as error:
    ...     print(f"stopped at step {error.step}; stable below h = {error.h_limit:.3g}")
    stopped at step 34; stable below h = 0.0667
    >>> with unstable_growth_allowed():
    ...     run = simlab.euler(lambda t, x: -30.0 * x, (0.0, 4.0), 1.0, 0.1)
    >>> f"{run.final:.3g}"
    '1.1e+12'
    """
    previous = _SETTINGS["stop_unstable"]
    _SETTINGS["stop_unstable"] = False
    try:
        yield
    finally:
        _SETTINGS["stop_unstable"] = previous


#: Largest number of steps a fixed-step run may take (a guard against a mistyped h: 1e7 steps
#: of a scalar state take about 80 MB and tens of seconds). Set ``simlab.guards.MAX_STEPS``
#: to a larger number to allow longer runs.
MAX_STEPS = 10_000_000

#: Growth of |x| beyond this factor times the problem's scale triggers the stability test.
GROWTH_LIMIT = 1e8


class NonFiniteStateError(FloatingPointError):
    """The integrated state became inf or NaN (usually: the step h is beyond the stability limit).

    Besides the message, the error carries where it happened, for programs that report it:
    ``method``, ``step`` (the first bad step k), ``steps`` (N), ``t`` (t_k) and ``h``; each is
    None when the raiser did not know it.
    """

    def __init__(self, message, *, method=None, step=None, steps=None, t=None, h=None):
        super().__init__(message)
        self.method, self.step, self.steps, self.t, self.h = method, step, steps, t, h


class UnstableRunError(NonFiniteStateError):
    """The run grew unstably: the step h is beyond the method's stability limit for this system.

    (An estimate: L bounds the rate of f from below, so ``h_limit`` is an upper bound.)

    Raised before the state overflows, when |x| has grown far beyond the scale of the problem
    and the local rate of the right-hand side, L = |f(t, x_k) - f(t, x_{k-1})| / |x_k - x_{k-1}|,
    puts h L outside the method's real stability interval. Besides the attributes of
    :class:`NonFiniteStateError` it carries ``h_limit``, the estimated largest stable step
    |z_min| / L (None if unknown).
    """

    def __init__(self, message, *, h_limit=None, **where):
        super().__init__(message, **where)
        self.h_limit = h_limit


class StepSizeTooSmallError(FloatingPointError):
    """A variable-step run cannot go on: the step the controller asks for is below the resolution of t.

    The message names t and h. It means the solution cannot be followed to the tolerances there:
    a singularity (x' = x^2 blows up at a finite t), a discontinuity that no step size resolves,
    or a stiff system pushed to very tight tolerances. Besides the message it carries
    ``method``, ``step`` (accepted steps so far), ``t``, ``h`` and ``cause``: ``"non-finite"``
    (f returned inf or NaN in the steps tried), ``"overflow"`` (the state or its slope is so
    close to the float64 range that the arithmetic of a step overflows), ``"discontinuity"`` (the error estimate shrank
    far more slowly than h^5 as the step was cut at the same t: f jumps there), ``"singularity"``
    (anything else: the solution changes faster than any step can follow), or None.
    """

    def __init__(self, message, *, method=None, step=None, t=None, h=None, cause=None):
        super().__init__(message)
        self.method, self.step, self.t, self.h, self.cause = method, step, t, h, cause


#: Default wall-clock limit (s) of :func:`simlab.rkf45`, :func:`simlab.trapezoidal` and
#: :func:`simlab.bdf2` (their ``max_time``): long enough for any problem of the course, short
#: enough that a hopeless run ends while the student is still watching. Pass a larger
#: ``max_time`` (or None, no limit) for a long run.
DEFAULT_MAX_TIME = 30.0


class WorkLimitError(ValueError):
    """A run stopped at its work or time limit, or early because it cannot finish within it.

    A ValueError, like :func:`check_step_count`'s refusal: the arguments (the tolerances, the
    step, the problem) ask for more work than the limits allow. The message names the limit, the
    cause and the fix. Besides it the error carries ``method``, ``limit`` (the argument that
    stopped the run: ``"max_steps"``, ``"max_rejected"``, ``"max_nfev"`` or ``"max_time"``),
    ``cause`` (``"stiff"``, ``"discontinuity"``, ``"tolerance"`` or None), ``t`` and ``h`` (where
    the run stopped), ``n_accepted``, ``n_rejected``, ``nfev`` and ``elapsed`` (seconds); each is
    None when the raiser did not know it.
    """

    def __init__(self, message, *, method=None, limit=None, cause=None, t=None, h=None, n_accepted=None,
                 n_rejected=None, nfev=None, elapsed=None):
        super().__init__(message)
        self.method, self.limit, self.cause, self.t, self.h = method, limit, cause, t, h
        self.n_accepted, self.n_rejected, self.nfev, self.elapsed = n_accepted, n_rejected, nfev, elapsed


class Stopwatch:
    """Wall-clock time of a run against its limit ``max_time`` (seconds, or None: no limit).

    ``elapsed()`` is the time since the watch was made; ``expired()`` is true once it exceeds
    ``max_time``.

    Examples
    --------
    >>> from simlab.guards import Stopwatch
    >>> watch = Stopwatch(30.0)
    >>> watch.expired(), watch.elapsed() < 30.0
    (False, True)
    """

    def __init__(self, max_time):
        self.max_time, self.start = max_time, time.perf_counter()

    def elapsed(self):
        return time.perf_counter() - self.start

    def expired(self):
        return self.max_time is not None and self.elapsed() > self.max_time


#: Largest |x0| that :func:`simlab.rkf45`, :func:`simlab.trapezoidal` and :func:`simlab.bdf2`
#: accept: 1/64 of the float64 range (2.8e306). A step adds several multiples of x and h f(t, x)
#: (Fehlberg's stage weights reach 8, BDF2's predictor is 2 x_k - x_(k-1)), which must not overflow.
STATE_LIMIT = float(np.finfo(float).max) / 64


def check_state_size(x0, name="x0"):
    """Refuse an initial state too close to the float64 range for the arithmetic of a step.

    Raises
    ------
    ValueError
        If an entry of ``x0`` exceeds :data:`STATE_LIMIT` in magnitude; the message names the
        argument, the entry and the fix (rescale the model).
    """
    largest = float(np.max(np.abs(x0))) if np.size(x0) else 0.0
    if largest > STATE_LIMIT:
        raise ValueError(
            f"{name} has an entry of magnitude {largest:.3g}, too close to the float64 range (1.8e308) for the "
            f"arithmetic of a step, which adds several multiples of x and h f(t, x): rescale the model (other "
            f"units) so that every |{name}| <= {STATE_LIMIT:.3g}.")


def as_max_time(max_time):
    """Check a wall-clock limit: a positive finite number of seconds, or None (no limit)."""
    if max_time is None:
        return None
    try:
        return as_positive_scalar(max_time, "max_time")
    except ValueError as error:
        raise ValueError(f"{error} max_time is a number of seconds > 0; None means no limit.") from None


class NewtonConvergenceError(ArithmeticError):
    """The Newton iteration of an implicit step did not converge.

    Besides the message it carries ``method``, ``step`` (the step k being solved for, 1 .. N),
    ``steps`` (N), ``t`` (t_k), ``h``, ``residual`` (the last max-norm of the implicit
    equation's residual) and ``iterations``. A smaller h usually helps: the Newton iteration
    starts closer to the solution.
    """

    def __init__(self, message, *, method=None, step=None, steps=None, t=None, h=None, residual=None,
                 iterations=None):
        super().__init__(message)
        self.method, self.step, self.steps, self.t, self.h = method, step, steps, t, h
        self.residual, self.iterations = residual, iterations


def check_step_count(steps, h, span, values_per_step=1, what="the run"):
    """Refuse a fixed-step run of more than :data:`MAX_STEPS` steps, with the cost named.

    Raises
    ------
    ValueError
        If ``steps > MAX_STEPS``; the message gives the number of steps, the memory the result
        would take (8 bytes per value) and how to allow it.
    """
    if steps > MAX_STEPS:
        memory = 8.0 * (steps + 1) * max(values_per_step, 1)
        raise ValueError(
            f"h = {h:.6g} on a span of {span:.6g} gives {steps:,} steps for {what} (a result of "
            f"about {memory / 2**20:,.0f} MiB, and a long wait); the limit is "
            f"simlab.guards.MAX_STEPS = {MAX_STEPS:,}. Use a larger h, or raise the limit "
            f"(simlab.guards.MAX_STEPS = {10 ** len(str(steps)):,})."
        )


class _GrowthMonitor:
    """Stops a run that grows unstably before it overflows (see :class:`UnstableRunError`).

    The scale of the problem is the largest of 1, |x0| and |f(t0, x0)| (t1 - t0). When |x| in a
    block of steps exceeds :data:`GROWTH_LIMIT` times it, two extra evaluations of f estimate the
    local rate L = |f(t, x_k) - f(t, x_{k-1})| / |x_k - x_{k-1}|; growth with h L beyond the
    method's real stability limit is instability (legitimate growth, y' = y say, has h L small
    and runs on). The extra evaluations count in ``nfev``.
    """

    def __init__(self, f, x0, dx0, h, span, method):
        self.f, self.h, self.method = f, h, method
        size = np.size(x0)
        self.scale = max(1.0, float(np.max(np.abs(x0))) if size else 0.0,
                         float(np.max(np.abs(dx0))) * span if size else 0.0)

    def check(self, xs, start, stop, t):
        if stop <= start or not _SETTINGS["stop_unstable"]:
            return
        block = np.abs(xs[start + 1 : stop + 1]).reshape(stop - start, -1).max(axis=1)
        over = np.flatnonzero(block > GROWTH_LIMIT * self.scale)
        if not over.size:
            return
        k_first = start + 1 + int(over[0])
        k = max(k_first, 1)
        x_new, x_old = xs[k], xs[k - 1]
        difference = float(np.max(np.abs(np.ravel(x_new - x_old))))
        if not difference > 0.0:
            return
        f_new, f_old = (np.asarray(self.f(float(t[k]), x)) for x in (x_new, x_old))
        L = float(np.max(np.abs(np.ravel(f_new - f_old)))) / difference
        z_min = abs(_real_limit(self.method))
        if not self.h * L > z_min:
            return  # growth the equation itself produces: h L is inside the stability interval
        h_limit = z_min / L
        raise UnstableRunError(
            f"{self.method}: the run is unstable: |x| grew beyond {GROWTH_LIMIT:.0e} times the scale of "
            f"the problem by step {k_first} of {len(t) - 1} (t = {t[k_first]:.6g}) with h = {self.h:.6g}. "
            f"The local rate of f is at least L = {L:.4g} 1/s, so h L = {self.h * L:.4g} lies outside the "
            f"stability interval of {self.method} (|h lambda| <= {z_min:.4g} on the real axis): the "
            f"largest stable step is at most about h = {h_limit:.4g}. Use a smaller h, or an "
            f"implicit method for a stiff system.",
            method=self.method, step=k_first, steps=len(t) - 1, t=float(t[k_first]), h=self.h,
            h_limit=h_limit,
        )


def _real_limit(method):
    """|z_min| of the real stability interval of ``method`` (simlab.stability, imported lazily)."""
    from simlab.stability import real_stability_limit

    return real_stability_limit(method)


def _first_non_finite(block):
    """Index of the first row of ``block`` (time along axis 0) with a non-finite entry, or None."""
    bad = ~np.isfinite(block.reshape(len(block), -1)).all(axis=1)
    if bad.any():
        return int(np.argmax(bad))
    return None
