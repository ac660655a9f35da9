"""Fixed-step numerical integration (数值积分法): Euler, improved Euler (Heun) and RK4.

All three integrators share one contract, ``method(f, t_span, x0, h)``:

* ``f(t, x)`` returns dx/dt with the same shape as ``x``;
* the grid is uniform, ``t_k = t0 + k h`` for ``k = 0 .. N`` with ``N = round((t1 - t0) / h)``;
* the result unpacks as ``t, x`` with ``t.shape == (N + 1,)`` and
  ``x.shape == (N + 1,) + np.shape(x0)``.

A scalar ODE therefore gives a 1-D ``x``; a state vector gives ``x[k, i]``; and a *batch* of
states (for example one column per parameter value, with a vectorized ``f``) runs as a single
loop, which is how the labs sweep a parameter.

The single-step functions (:func:`euler_step`, :func:`heun_step`, :func:`rk4_step`) are public
too, so that students can write the loop themselves in the labs and compare.

Used in lab01 (Euler versus RK4 on y' = t + y) and lab02 (step size, accuracy and stability).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from simlab.guards import NonFiniteStateError, UnstableRunError, _first_non_finite, _GrowthMonitor, check_step_count
from simlab.results import Result
from simlab.validation import (as_callable, as_choice, as_finite_scalar, as_positive_scalar, as_real_array,
                               as_state, as_time_span, describe)

__all__ = ["Method", "Trajectory", "NonFiniteStateError", "UnstableRunError", "check_step_count", "euler", "heun",
           "rk4", "integrate", "euler_step", "heun_step", "rk4_step", "time_grid", "METHODS"]

#: Relative tolerance with which ``h`` must divide the time span.
GRID_RTOL = 1e-9

#: Steps integrated between two checks for a non-finite or unstably growing state.
_CHECK_EVERY = 256


@dataclass(frozen=True, repr=False)
class Trajectory(Result):
    """Result of a fixed-step integration; unpacks as ``t, x``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Uniform time grid ``t_k = t0 + k h``.
    x : ndarray, shape (N + 1,) + shape(x0)
        State at each grid point, time along the first axis.
    method : str
        Name of the integration method (``"euler"``, ``"heun"`` or ``"rk4"``).
    h : float
        Step size actually used, ``(t1 - t0) / N``.
    nfev : int
        Number of evaluations of the right-hand side f (scipy's name), counted during the run:
        ``stages * N`` for the methods of :data:`METHODS` (the call that checks what f returns
        is the first step's first slope).

    Examples
    --------
    >>> import simlab
    >>> t, y = simlab.rk4(lambda t, y: t + y, (0, 2), 1.0, 0.1)
    >>> t.shape, y.shape
    ((21,), (21,))
    """

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    method: str
    h: float
    nfev: int

    @property
    def steps(self) -> int:
        """Number of steps N."""
        return len(self.t) - 1

    @property
    def final(self):
        """State at the end of the span, ``x[-1]``."""
        return self.x[-1]

    def __repr__(self) -> str:
        return (
            f"Trajectory(method={self.method!r}, h={self.h:g}, steps={self.steps}, "
            f"t=[{self.t[0]:g}, {self.t[-1]:g}], state shape={self.x.shape[1:]}, nfev={self.nfev})"
        )


# ---------------------------------------------------------------------------------------------
# Single steps. Each line is the textbook formula; x is x_k, the return value is x_{k+1}.
# ---------------------------------------------------------------------------------------------


def _euler_step(f, t, x, h):
    # x_{k+1} = x_k + h f(t_k, x_k)
    return x + h * f(t, x)


def _heun_step(f, t, x, h):
    k1 = f(t, x)  # slope at the start of the step
    k2 = f(t + h, x + h * k1)  # slope at the Euler predictor x_k + h k1
    # x_{k+1} = x_k + h/2 (k1 + k2)
    return x + (0.5 * h) * (k1 + k2)


def _rk4_step(f, t, x, h, k1=None):
    half = 0.5 * h
    k1 = f(t, x) if k1 is None else k1  # K1 = f(t_k, x_k) (a multistep starter passes it in)
    k2 = f(t + half, x + half * k1)  # K2 = f(t_k + h/2, x_k + h K1 / 2)
    k3 = f(t + half, x + half * k2)  # K3 = f(t_k + h/2, x_k + h K2 / 2)
    k4 = f(t + h, x + h * k3)  # K4 = f(t_k + h, x_k + h K3)
    # x_{k+1} = x_k + h/6 (K1 + 2 K2 + 2 K3 + K4)
    return x + (h / 6.0) * (k1 + 2.0 * (k2 + k3) + k4)


def _check_step_args(f, t, x, h):
    """Check a single step's arguments, and once what f returns at (t, x)."""
    as_callable(f, "f", call="f(t, x)")
    t = as_finite_scalar(t, "t")
    h = as_positive_scalar(h, "h")
    if not np.isfinite(t + h):
        raise ValueError(f"h = {h!r} from t = {t!r} reaches t + h = {t + h!r}, beyond the floating-point range "
                         f"(about 1.8e308); use a step h small compared with the time scale of f.")
    x = as_state(x, "x")
    fast, _, _ = _prepare_rhs(f, t, x, "x", "t")
    return fast, t, x if x.ndim else x[()], h


def _single_step(step, name, f, t, x, h):
    """One checked step of ``step``: NonFiniteStateError if x_{k+1} is inf or NaN."""
    f, t, x, h = _check_step_args(f, t, x, h)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x_next = step(f, t, x, h)
    if not np.all(np.isfinite(x_next)):
        scale = float(np.max(np.abs(x))) if np.size(x) else 0.0
        raise NonFiniteStateError(
            f"{name}: the step from t = {t!r} with h = {h!r} gave inf or NaN (|x| up to {scale:.3g}): h f(t, x) "
            f"is beyond the floating-point range (about 1.8e308). Use a smaller h, or a state of a smaller "
            f"magnitude (rescale the units).", method=name, step=1, steps=1, t=t, h=h)
    return x_next


def euler_step(f, t, x, h):
    """One step of Euler's method (欧拉法).

    .. math:: x_{k+1} = x_k + h\\, f(t_k, x_k)

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t : float
        Time t_k at the start of the step.
    x : float or array_like
        State x_k.
    h : float
        Step size, h > 0.

    Returns
    -------
    x_next : float or ndarray, shape of ``x``
        State x_{k+1} at t_k + h.

    Raises
    ------
    TypeError
        If ``f`` cannot be called as ``f(t, x)`` (checked before the first call), or an argument
        is not numeric.
    ValueError
        If ``t``, ``x`` or ``h`` is NaN or inf, ``h <= 0``, ``x`` is empty, ``t + h`` is beyond
        the floating-point range, or ``f`` returns the wrong shape or NaN at (t, x).
    simlab.guards.NonFiniteStateError
        If x_{k+1} is inf or NaN (h f(t, x) beyond the floating-point range, for example
        ``x`` or ``h`` of 1e308).

    Examples
    --------
    >>> from simlab import euler_step
    >>> float(euler_step(lambda t, y: t + y, 0.0, 1.0, 0.1))
    1.1
    """
    return _single_step(_euler_step, "euler_step", f, t, x, h)


def heun_step(f, t, x, h):
    """One step of the improved Euler method (改进欧拉法, Heun's method, trapezoidal predictor-corrector).

    .. math::
        K_1 = f(t_k, x_k),\\quad K_2 = f(t_k + h, x_k + h K_1),\\quad
        x_{k+1} = x_k + \\tfrac{h}{2}(K_1 + K_2)

    Parameters, return value and errors as in :func:`euler_step`.

    Examples
    --------
    >>> from simlab import heun_step
    >>> round(float(heun_step(lambda t, y: t + y, 0.0, 1.0, 0.1)), 6)
    1.11
    """
    return _single_step(_heun_step, "heun_step", f, t, x, h)


def rk4_step(f, t, x, h):
    """One step of the classical fourth-order Runge-Kutta method (四阶龙格-库塔法, RK4).

    .. math::
        K_1 = f(t_k, x_k),\\quad
        K_2 = f(t_k + \\tfrac{h}{2}, x_k + \\tfrac{h}{2} K_1),\\quad
        K_3 = f(t_k + \\tfrac{h}{2}, x_k + \\tfrac{h}{2} K_2),\\quad
        K_4 = f(t_k + h, x_k + h K_3),

        x_{k+1} = x_k + \\tfrac{h}{6}(K_1 + 2K_2 + 2K_3 + K_4)

    Parameters, return value and errors as in :func:`euler_step`.

    Examples
    --------
    >>> from simlab import rk4_step
    >>> round(float(rk4_step(lambda t, y: t + y, 0.0, 1.0, 0.1)), 8)
    1.11034167
    """
    return _single_step(_rk4_step, "rk4_step", f, t, x, h)


@dataclass(frozen=True)
class Method:
    """A fixed-step method of the course, as the lecture's table lists it.

    Attributes
    ----------
    name : str
        Key in :data:`METHODS` (``"euler"``, ``"heun"``, ``"rk4"``).
    title : str
        Name for tables and legends (``"improved Euler"``).
    order : int
        Order of accuracy p: the global error behaves like h**p.
    stages : int
        Evaluations of f per step (the cost of one step).
    step : callable ``step(f, t, x, h) -> x_next``
        One step, without argument checks (the public ``*_step`` functions check).
    """

    name: str
    title: str
    order: int
    stages: int
    step: Callable


#: The fixed-step methods: name -> :class:`Method` (order, stages, step).
METHODS = {
    method.name: method
    for method in (
        Method("euler", "Euler", order=1, stages=1, step=_euler_step),
        Method("heun", "improved Euler", order=2, stages=2, step=_heun_step),
        Method("rk4", "RK4", order=4, stages=4, step=_rk4_step),
    )
}


# ---------------------------------------------------------------------------------------------
# The integration loop, shared by all methods.
# ---------------------------------------------------------------------------------------------


def time_grid(t_span, h):
    """Uniform grid ``t_k = t0 + k h`` on ``t_span`` for a step ``h`` that divides it.

    Parameters
    ----------
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    h : float
        Step size; ``(t1 - t0) / h`` must be an integer to a relative tolerance of 1e-9.

    Returns
    -------
    t : ndarray, shape (N + 1,)
        The grid, with ``t[0] == t0`` and ``t[-1] == t1`` exactly.
    h : float
        The step actually used, ``(t1 - t0) / N``.

    Raises
    ------
    ValueError
        If ``t_span`` is not a pair of finite numbers t0 < t1 (ragged ``(0, [1, 2])`` included)
        or t1 - t0 overflows; if ``h`` is below the smallest step that can advance t (64 units of
        roundoff of the largest |t|, and a normal float: a denormal 1e-320 is refused); if the
        grid would take more than :data:`simlab.guards.MAX_STEPS` steps (counted before any
        conversion to int); or if ``h`` does not divide the span (the message gives the nearest
        step that does).

    Examples
    --------
    >>> from simlab.integrators import time_grid
    >>> t, h = time_grid((0, 1), 0.25)
    >>> t.tolist(), h
    ([0.0, 0.25, 0.5, 0.75, 1.0], 0.25)
    """
    t0, t1 = as_time_span(t_span)
    h = as_positive_scalar(h, "h")
    span = _grid_span(t0, t1, h)
    n_steps = round(span / h)  # a whole number below MAX_STEPS: _grid_span checked span / h
    if n_steps < 1 or abs(n_steps * h - span) > GRID_RTOL * span:
        nearest = [span / n for n in {max(n_steps, 1), max(round(span / h + 0.5), 1)}]
        nearest = min(nearest, key=lambda candidate: abs(candidate - h))
        raise ValueError(
            f"h = {h!r} does not divide the time span t1 - t0 = {span!r} into a whole number of "
            f"steps ({span / h:.6g} steps). Use h = {nearest:.12g} "
            f"({round(span / nearest)} steps), or change t_span."
        )
    t = t0 + (span / n_steps) * np.arange(n_steps + 1)
    t[-1] = t1
    return t, span / n_steps


def _grid_span(t0, t1, h):
    """t1 - t0, after checking that h can advance t there and that span / h steps fit below MAX_STEPS."""
    span = t1 - t0
    if not np.isfinite(span):
        raise ValueError(f"t_span = ({t0!r}, {t1!r}) is longer than the floating-point range (t1 - t0 = {span!r}); "
                         f"use a shorter span or other units of time.")
    largest = max(abs(t0), abs(t1))
    resolution = float(np.spacing(largest))
    smallest = max(64.0 * resolution, float(np.finfo(float).tiny))  # and no denormal h (such as 1e-320)
    if h < smallest:
        shifted = h >= max(64.0 * float(np.spacing(span)), float(np.finfo(float).tiny))  # t_span = (0, span)
        fix = f"shift the time origin, t_span = (0, {span!r}) (there h is enough)" if shifted else "use a larger h"
        raise ValueError(
            f"h = {h!r} is below the smallest step that can advance t on t_span = ({t0!r}, {t1!r}), "
            f"{smallest:.3g}: floating-point times near {largest:.6g} are {resolution:.3g} apart, and h must be at "
            f"least 64 times that (and a normal float, at least {np.finfo(float).tiny:.3g}), or the times t_k "
            f"would repeat: {fix}.")
    if span < smallest:  # a whole step h would not fit, and a step that fits could not advance t
        raise ValueError(f"t_span = ({t0!r}, {t1!r}) is shorter than the smallest step that can advance t there, "
                         f"{smallest:.3g}: give a longer span (or shift the time origin, or use other units of time).")
    steps = span / h  # at most about 2**53 / 64 here: h is at least 64 units of roundoff of the largest |t|
    check_step_count(round(steps), h, span)  # before the grid exists: the count, its memory and the limit
    return span


def _prepare_rhs(f, t0, x0, state_name="x0", time_name="t0", call="f(t, x)", check_signature=True):
    """Call ``f`` once at (t0, x0), check what it returns, and wrap ``f`` for the loop.

    Returns ``(fast, calls, dx0)``, ``dx0`` the checked value of f(t0, x0). ``fast`` is ``f`` that
    (a) returns the checked value of the first call for the first step's slope f(t0, x0), so that
    the check costs no extra evaluation, (b) counts the calls of ``f`` (``next(calls)`` is the
    number of calls so far), and (c) for an
    ``f`` that returns lists or ints, converts its value to an array, so that x + h * dx is array
    arithmetic. ``call`` is how the messages write the call (``"f(t, x, u)"`` for a model with
    an input). Before the first call, f's signature is checked against ``f(t, x)``
    (:func:`simlab.validation.as_callable`); a caller that wraps the user's function (the real-time
    loop's f(t, x, u)) checks the user's function itself and passes ``check_signature=False``.
    """
    as_callable(f, "f", call="f(t, x)" if check_signature else None)
    dx = f(t0, x0.copy() if isinstance(x0, np.ndarray) else x0)
    try:
        dx_array = np.asarray(dx)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{call} must return dx/dt as a number or array, got {describe(dx)}.") from exc
    if dx_array.dtype == object or dx_array.dtype == bool or not np.issubdtype(dx_array.dtype, np.number):
        raise TypeError(f"{call} must return dx/dt as numbers, got {describe(dx)}.")
    if dx_array.shape != x0.shape:
        raise ValueError(f"{call} returned dx/dt of shape {dx_array.shape}, but the state {state_name} has shape "
                         f"{x0.shape}; they must be the same. (A common cause: returning a column "
                         f"vector of shape (n, 1) for a state of shape (n,), or a list of lists.)")
    if np.iscomplexobj(dx_array) and not np.iscomplexobj(x0):
        raise TypeError(f"{call} returned complex values for a real state {state_name}; pass a complex "
                        f"{state_name} if the state is meant to be complex.")
    if not np.all(np.isfinite(dx_array)):
        raise ValueError(f"{call} returned NaN or inf at the start, {time_name} = {t0!r} (dx/dt = {describe(dx)}); "
                         f"check f for a division by zero or a log of a negative number there.")
    calls = itertools.count(2)  # the check above was the first call
    tick = calls.__next__
    convert = not (isinstance(dx, (np.ndarray, float, np.floating)) and dx_array.dtype.kind in "fc")
    first = [dx_array.astype(x0.dtype)[()] if convert else dx]

    def fast(t, x):
        if first:  # the first step's f(t0, x0): the value checked above
            return first.pop()
        tick()
        value = f(t, x)
        return np.asarray(value, dtype=x0.dtype) if convert else value

    return fast, calls, dx_array


def _check_block(xs, start, stop, t, h, monitor, method):
    """After steps start .. stop - 1 of a fixed-step run: stop unstable growth, then inf or NaN.

    ``xs[k]`` is the state at ``t[k]``; ``monitor`` a :class:`simlab.guards._GrowthMonitor`.
    Raises :class:`UnstableRunError` or :class:`NonFiniteStateError` naming the step.
    """
    n_steps = len(t) - 1
    bad = _first_non_finite(xs[start + 1 : stop + 1])
    monitor.check(xs, start, stop if bad is None else start + bad, t)  # growth before overflow
    if bad is not None:
        k_bad, x0_size = start + 1 + bad, float(np.max(np.abs(xs[0])))
        huge = (f" The initial state x0 (|x0| up to {x0_size:.3g}) is already near the floating-point limit 1.8e308: "
                f"rescale the state's units.") if x0_size > 1e150 else ""  # sqrt(1.8e308): x^2 overflows
        raise NonFiniteStateError(
            f"{method}: the state became inf or NaN at step {k_bad} of {n_steps} "
            f"(t = {t[k_bad]:.6g}) with h = {h:.6g}. Explicit methods are only stable "
            f"when h is small compared with the fastest time constant of the system "
            f"(Euler on x' = lambda x needs |1 + h lambda| <= 1); try a smaller h such "
            f"as {h / 10:.3g}, or check f for a division by zero.{huge}",
            method=method, step=k_bad, steps=n_steps, t=float(t[k_bad]), h=h)


def integrate(f, t_span, x0, h, method="rk4"):
    """Integrate dx/dt = f(t, x) with a fixed step by the named method.

    This is the engine behind :func:`euler`, :func:`heun` and :func:`rk4`; use it when the method
    is a parameter (for example in a comparison loop).

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like, shape (n,) or (n, m)
        Initial state; a 2-D state integrates a batch of m systems at once when ``f`` is
        vectorized.
    h : float
        Step size; must divide ``t1 - t0``.
    method : {"euler", "heun", "rk4"}
        Integration method (a key of :data:`METHODS`).

    Returns
    -------
    Trajectory
        Unpacks as ``t, x`` with ``t.shape == (N + 1,)`` and
        ``x.shape == (N + 1,) + np.shape(x0)``.

    Raises
    ------
    TypeError
        If ``f`` cannot be called as ``f(t, x)`` (its signature is checked before the first
        call: ``lambda x: x`` is refused with the expected signature) or an argument is not
        numeric.
    ValueError
        If ``h <= 0``, ``h`` does not divide the span, the span is reversed, empty or ragged,
        ``x0`` is empty, an input contains NaN or inf, ``f`` returns the wrong shape or NaN at
        the start, or ``h`` or the span breaks a rule of :func:`time_grid` (h below the
        smallest step that can advance t, such as a denormal 1e-320; more than
        :data:`simlab.guards.MAX_STEPS` steps).
    UnstableRunError
        If the state grows unstably (a subclass of NonFiniteStateError: the message names the
        step, h L and the estimated stability limit of h), before it overflows.
    NonFiniteStateError
        If the state becomes inf or NaN during the run (the message names the step).

    Notes
    -----
    A run is stopped as unstable when |x| exceeds :data:`simlab.guards.GROWTH_LIMIT` times the scale of the
    problem (the largest of 1, |x0| and |f(t0, x0)| (t1 - t0)) and the local rate L of f puts
    h L outside the method's real stability interval; growth that the equation itself produces
    (h L small) runs on. Runs of more than :data:`simlab.guards.MAX_STEPS` steps are refused.
    """
    step = METHODS[as_choice(method, "method", METHODS)].step
    as_callable(f, "f", call="f(t, x)")
    t, h = time_grid(t_span, h)
    x0 = as_state(x0)
    f, calls, dx0 = _prepare_rhs(f, float(t[0]), x0)

    n_steps = len(t) - 1
    check_step_count(n_steps, h, t[-1] - t[0], x0.size, f"a state of {x0.size} values")
    xs = np.empty((n_steps + 1,) + x0.shape, dtype=x0.dtype)
    xs[0] = x0
    times = t.tolist()  # Python floats: cheaper arithmetic inside f than numpy scalars
    x = x0.copy() if x0.ndim else x0[()]
    monitor = _GrowthMonitor(f, x0, dx0, h, t[-1] - t[0], method)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for start in range(0, n_steps, _CHECK_EVERY):
            stop = min(start + _CHECK_EVERY, n_steps)
            for k in range(start, stop):
                x = step(f, times[k], x, h)
                xs[k + 1] = x
            _check_block(xs, start, stop, t, h, monitor, method)
    return Trajectory(t=t, x=xs, method=method, h=h, nfev=next(calls) - 1)


def euler(f, t_span, x0, h):
    """Integrate dx/dt = f(t, x) by Euler's method (欧拉法), first order.

    .. math:: x_{k+1} = x_k + h\\, f(t_k, x_k)

    Local truncation error O(h^2), global error O(h).

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like
        Initial state x(t0); any shape (a batch runs when ``f`` is vectorized).
    h : float
        Step size; ``N = round((t1 - t0) / h)`` steps, and h must divide the span.

    Returns
    -------
    Trajectory
        Unpacks as ``t, x``: ``t`` shape (N + 1,), ``x`` shape (N + 1,) + shape(x0).

    Raises
    ------
    TypeError, ValueError, NonFiniteStateError
        See :func:`integrate`.

    Examples
    --------
    The seed problem of lab01, y' = t + y, y(0) = 1, has the exact Euler solution
    y_n = 2 * 1.1**n - t_n - 1 for h = 0.1:

    >>> import simlab
    >>> t, y = simlab.euler(lambda t, y: t + y, (0, 2), 1.0, 0.1)
    >>> round(float(y[-1]), 6), round(2 * 1.1**20 - 2 - 1, 6)
    (10.455, 10.455)
    """
    return integrate(f, t_span, x0, h, method="euler")


def heun(f, t_span, x0, h):
    """Integrate dx/dt = f(t, x) by the improved Euler method (改进欧拉法, Heun), second order.

    .. math::
        K_1 = f(t_k, x_k),\\quad K_2 = f(t_k + h, x_k + h K_1),\\quad
        x_{k+1} = x_k + \\tfrac{h}{2}(K_1 + K_2)

    Parameters, return value and errors as in :func:`euler`.

    Examples
    --------
    >>> import simlab
    >>> t, y = simlab.heun(lambda t, y: t + y, (0, 2), 1.0, 0.1)
    >>> round(float(y[-1]), 4)
    11.7325
    """
    return integrate(f, t_span, x0, h, method="heun")


def rk4(f, t_span, x0, h):
    """Integrate dx/dt = f(t, x) by the classical fourth-order Runge-Kutta method (RK4).

    .. math::
        x_{k+1} = x_k + \\tfrac{h}{6}(K_1 + 2K_2 + 2K_3 + K_4)

    with the slopes of :func:`rk4_step`. Local error O(h^5), global error O(h^4).

    Parameters, return value and errors as in :func:`euler`.

    Examples
    --------
    >>> import numpy as np, simlab
    >>> t, y = simlab.rk4(lambda t, y: t + y, (0, 2), 1.0, 0.1)
    >>> exact = 2 * np.exp(2) - 2 - 1
    >>> bool(abs(y[-1] - exact) < 1e-4)
    True
    """
    return integrate(f, t_span, x0, h, method="rk4")
