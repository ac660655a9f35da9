"""Variable-step integration (变步长积分): the Runge-Kutta-Fehlberg 4(5) pair with step-size control.

The step "need not be fixed over the whole computation and can change with the accuracy
required" (seed 003, chapter 3). Fehlberg's pair (an *embedded* pair, 嵌入式龙格-库塔公式) computes,
from the same six evaluations of f, a fourth-order solution x4 and a fifth-order solution x5;
their difference estimates the local error of x4, and the step size follows it:

    sc_i  = atol + rtol max(|x_k,i|, |x4_i|)                 (the scale of component i)
    err   = sqrt( (1/n) sum_i ((x5_i - x4_i) / sc_i)^2 )      (RMS norm: err = 1 is the tolerance)
    accept the step if err <= 1 and go on from x4 (RKF45 proper: the fourth-order solution);
    h_new = h min(fac_max, max(fac_min, safety err^(-1/5)))  (the textbook controller)

with safety = 0.9, fac_min = 0.2 and fac_max = 5; on the step after a rejection fac_max = 1 (no
growth). The exponent 1/5 is that of the local error of a fourth-order step, err ~ C h^5, so
that safety err^(-1/5) h is the step that would have given err = safety^5 = 0.59. The first step,
if ``h0`` is not given, is chosen from the size of x0, f(t0, x0) and one more evaluation of f by
the algorithm of Hairer, Norsett and Wanner (sect. II.4, the one scipy's ``solve_ivp`` uses).

Why the step count is comparable with ``solve_ivp(method="RK45")``: both are 4(5) pairs with the
same norm, safety factor and exponent; RK45 (Dormand-Prince) goes on from its fifth-order
solution and has a smaller error constant, so it takes somewhat fewer steps (the tests measure
the ratio).

References: E. Fehlberg, "Low-order classical Runge-Kutta formulas with stepsize control and
their application to some heat transfer problems", NASA TR R-315 (1969), Table III (the
coefficients); R. L. Burden and J. D. Faires, "Numerical Analysis", sect. 5.5 (the
Runge-Kutta-Fehlberg method as textbooks print it); E. Hairer, S. P. Norsett and G. Wanner,
"Solving Ordinary Differential Equations I", 2nd ed., Springer 1993, sect. II.4 (the error norm,
the controller and the starting step).

Used in lab10 (variable step and real-time algorithms) and course/07.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as Fr

import numpy as np

from simlab import guards
from simlab.guards import NonFiniteStateError, StepSizeTooSmallError
from simlab.integrators import _prepare_rhs
from simlab.results import Result
from simlab.validation import as_positive_scalar, as_real_array, as_time_span

__all__ = ["VariableStepResult", "rkf45", "FEHLBERG", "SAFETY", "FACTOR_MIN", "FACTOR_MAX"]

SAFETY = 0.9  #: safety factor of the step controller
FACTOR_MIN = 0.2  #: the step shrinks at most to a fifth in one step
FACTOR_MAX = 5.0  #: and grows at most five times (not at all right after a rejection)
ERROR_EXPONENT = 1 / 5  #: 1 / (q + 1) for the fourth-order solution whose error is estimated

#: Fehlberg's 4(5) tableau, exact (Fehlberg 1969, Table III): nodes ``c``, stage matrix ``a``
#: (row i holds a_i1 .. a_i,i-1), fourth-order weights ``b4`` and fifth-order weights ``b5``.
FEHLBERG = {
    "c": (Fr(0), Fr(1, 4), Fr(3, 8), Fr(12, 13), Fr(1), Fr(1, 2)),
    "a": ((),
          (Fr(1, 4),),
          (Fr(3, 32), Fr(9, 32)),
          (Fr(1932, 2197), Fr(-7200, 2197), Fr(7296, 2197)),
          (Fr(439, 216), Fr(-8), Fr(3680, 513), Fr(-845, 4104)),
          (Fr(-8, 27), Fr(2), Fr(-3544, 2565), Fr(1859, 4104), Fr(-11, 40))),
    "b4": (Fr(25, 216), Fr(0), Fr(1408, 2565), Fr(2197, 4104), Fr(-1, 5), Fr(0)),
    "b5": (Fr(16, 135), Fr(0), Fr(6656, 12825), Fr(28561, 56430), Fr(-9, 50), Fr(2, 55)),
}


@dataclass(frozen=True, repr=False)
class VariableStepResult(Result):
    """Result of :func:`rkf45`; unpacks as ``t, x``.

    Attributes
    ----------
    t : ndarray, shape (M + 1,)
        The accepted times, not uniform; ``t[0] == t0`` and ``t[-1] == t1`` exactly.
    x : ndarray, shape (M + 1,) + shape(x0)
        The state at those times.
    h : ndarray, shape (M,)
        The accepted step sizes, h[k] = t[k + 1] - t[k] (for a plot of h over t).
    n_accepted, n_rejected : int
        Steps accepted (M) and rejected by the controller.
    nfev : int
        Evaluations of f, counted: 6 per accepted step and 5 per rejected one (K1 at an accepted
        point serves every attempt from there; the run's first K1 is f(t0, x0) and the last
        accepted point, t1, needs none), plus 1 for the choice of the first step when ``h0`` is
        None: ``nfev = 6 n_accepted + 5 n_rejected (+ 1)``.
    rejected_t, rejected_h : ndarray, shape (n_rejected,)
        Where (t at the start of the step) and with which h each rejected attempt was tried.
    method : str
        ``"rkf45"``.
    rtol, atol : float
        The tolerances of the run.
    """

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    h: np.ndarray
    n_accepted: int
    n_rejected: int
    nfev: int
    rejected_t: np.ndarray
    rejected_h: np.ndarray
    method: str
    rtol: float
    atol: float

    @property
    def steps(self) -> int:
        """Number of accepted steps M."""
        return self.n_accepted

    @property
    def final(self):
        """State at the end of the span, ``x[-1]``."""
        return self.x[-1]

    def __repr__(self):
        return (f"VariableStepResult(method={self.method!r}, rtol={self.rtol:g}, atol={self.atol:g}, "
                f"accepted={self.n_accepted}, rejected={self.n_rejected}, nfev={self.nfev}, "
                f"h in [{self.h.min():.3g}, {self.h.max():.3g}], t=[{self.t[0]:g}, {self.t[-1]:g}])")


def _fehlberg_step(f, t, x, h, k1):
    """One Fehlberg step from (t, x), given K1 = f(t, x): returns (x4, x5 - x4)."""
    # K2 = f(t + h/4, x + h K1/4)
    k2 = f(t + h / 4, x + h * (k1 / 4))
    # K3 = f(t + 3h/8, x + h (3/32 K1 + 9/32 K2))
    k3 = f(t + 3 * h / 8, x + h * (3 / 32 * k1 + 9 / 32 * k2))
    # K4 = f(t + 12h/13, x + h (1932/2197 K1 - 7200/2197 K2 + 7296/2197 K3))
    k4 = f(t + 12 * h / 13, x + h * (1932 / 2197 * k1 - 7200 / 2197 * k2 + 7296 / 2197 * k3))
    # K5 = f(t + h, x + h (439/216 K1 - 8 K2 + 3680/513 K3 - 845/4104 K4))
    k5 = f(t + h, x + h * (439 / 216 * k1 - 8 * k2 + 3680 / 513 * k3 - 845 / 4104 * k4))
    # K6 = f(t + h/2, x + h (-8/27 K1 + 2 K2 - 3544/2565 K3 + 1859/4104 K4 - 11/40 K5))
    k6 = f(t + h / 2, x + h * (-8 / 27 * k1 + 2 * k2 - 3544 / 2565 * k3 + 1859 / 4104 * k4 - 11 / 40 * k5))
    # x4 = x + h (25/216 K1 + 1408/2565 K3 + 2197/4104 K4 - 1/5 K5)            (fourth order)
    x4 = x + h * (25 / 216 * k1 + 1408 / 2565 * k3 + 2197 / 4104 * k4 - k5 / 5)
    # x5 - x4 = h (1/360 K1 - 128/4275 K3 - 2197/75240 K4 + 1/50 K5 + 2/55 K6)  (b5 - b4: the estimate)
    error = h * (k1 / 360 - 128 / 4275 * k3 - 2197 / 75240 * k4 + k5 / 50 + 2 / 55 * k6)
    return x4, error


def _rms(values):
    """RMS norm sqrt(mean(v_i^2)) of an array (0 for an empty state)."""
    return float(np.sqrt(np.mean(np.abs(values) ** 2))) if np.size(values) else 0.0


def _first_step(f, t0, x0, dx0, rtol, atol, h_limit):
    """Hairer-Norsett-Wanner's starting step (sect. II.4, steps a-f), for an error ~ h^5.

    One extra evaluation of f (at t0 + h0). ``h_limit`` caps the result (h_max and the span).
    """
    scale = atol + rtol * np.abs(x0)  # sc_i = atol + rtol |x0_i|
    d0, d1 = _rms(x0 / scale), _rms(dx0 / scale)  # (a) d0 = ||x0||, d1 = ||f(t0, x0)||
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1  # (b) first guess: 1 % of x0 per step
    h0 = min(h0, h_limit)
    x1 = x0 + h0 * dx0  # (c) one explicit Euler step
    with np.errstate(over="ignore", invalid="ignore"):
        d2 = _rms((f(t0 + h0, x1) - dx0) / scale) / h0  # (d) d2 ~ ||x''(t0)||
    if not np.isfinite(d2):
        return h0
    if max(d1, d2) <= 1e-15:  # (e) h1 from 0.01 = max(d1, d2) h1^5 ...
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** ERROR_EXPONENT
    return min(100 * h0, h1, h_limit)  # (f)


def _check_arguments(t_span, rtol, atol, h0, h_max):
    t0, t1 = as_time_span(t_span)
    rtol = as_positive_scalar(rtol, "rtol")
    atol = as_positive_scalar(atol, "atol")
    h0 = None if h0 is None else as_positive_scalar(h0, "h0")
    h_max = t1 - t0 if h_max is None else min(as_positive_scalar(h_max, "h_max"), t1 - t0)
    if not np.isfinite(t1 - t0):
        raise ValueError(f"t_span = ({t0!r}, {t1!r}) is too long: t1 - t0 overflows.")
    return t0, t1, rtol, atol, h0, h_max


def _collapse(t, h, rtol, atol, steps, last_err):
    why = ("f returned inf or NaN in the steps tried there" if not np.isfinite(last_err) else
           "the solution cannot be followed to these tolerances there")
    return StepSizeTooSmallError(
        f"rkf45: step size too small: the controller asked for h = {h:.3g} at t = {t:.10g}, below "
        f"the resolution of floating-point times there ({np.spacing(t):.3g}), after {steps} accepted "
        f"steps: {why} (rtol = {rtol:g}, atol = {atol:g}). Causes: a singularity (the solution "
        f"blows up near t = {t:.6g}), a discontinuity in f, or a stiff system (use an implicit method, "
        f"simlab.implicit.bdf2).", method="rkf45", step=steps, t=t, h=h)


def _too_many(t, attempts, rtol, atol):
    return ValueError(
        f"rkf45: {attempts:,} attempted steps by t = {t:.6g}, more than simlab.guards.MAX_STEPS = "
        f"{guards.MAX_STEPS:,}: the tolerances rtol = {rtol:g} and atol = {atol:g} ask for more steps "
        f"than that (a stiff system takes tiny steps with an explicit method: use "
        f"simlab.implicit.bdf2). Loosen rtol or atol, or raise simlab.guards.MAX_STEPS.")


def rkf45(f, t_span, x0, rtol=1e-6, atol=1e-9, h0=None, h_max=None):
    """Integrate dx/dt = f(t, x) by the Runge-Kutta-Fehlberg 4(5) method with step control (变步长).

    Each step evaluates the six slopes K1 .. K6 of Fehlberg's tableau (:data:`FEHLBERG`) and
    forms

    .. math::
        x_4 = x_k + h \\sum_i b_i K_i \\;\\text{(order 4)},\\qquad
        x_5 = x_k + h \\sum_i \\hat b_i K_i \\;\\text{(order 5)},

        \\mathrm{err} = \\Big\\| \\frac{x_5 - x_4}{atol + rtol \\max(|x_k|, |x_4|)} \\Big\\|_{RMS}

    The step is accepted when err <= 1 (x_{k+1} = x_4, t_{k+1} = t_k + h), rejected otherwise,
    and the next step is h min(5, max(0.2, 0.9 err^(-1/5))) (growth at most 1 right after a
    rejection), at most ``h_max``; the last step is shortened to end exactly at t1.

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0; the last step ends exactly at t1.
    x0 : float or array_like
        Initial state x(t0), real; any shape.
    rtol, atol : float
        Relative and absolute tolerances of the local error per step (> 0): component i of
        the error estimate is measured against atol + rtol |x_i|.
    h0 : float, optional
        First step to try; by default chosen from x0 and f (Hairer, Norsett and Wanner).
    h_max : float, optional
        Largest step allowed (default: the span t1 - t0).

    Returns
    -------
    VariableStepResult
        Unpacks as ``t, x`` (non-uniform t); also ``h`` (accepted steps), ``n_accepted``,
        ``n_rejected``, ``nfev``, ``rejected_t`` and ``rejected_h``.

    Raises
    ------
    TypeError, ValueError
        For an argument that is not numeric, not finite, not positive (rtol, atol, h0, h_max)
        or a bad ``t_span`` (each named in the message), an ``f`` that is not callable or returns
        the wrong shape or NaN at the start; ValueError also when the run would take more than
        :data:`simlab.guards.MAX_STEPS` attempted steps.
    simlab.guards.StepSizeTooSmallError
        If the controller's step falls below the resolution of t (the message names t and h).
    simlab.guards.NonFiniteStateError
        If f returns inf or NaN at an accepted state.

    Examples
    --------
    x' = -2 t x, x(0) = 1 has the solution e^{-t^2}:

    >>> import numpy as np
    >>> from simlab import rkf45
    >>> run = rkf45(lambda t, x: -2.0 * t * x, (0.0, 2.0), 1.0, rtol=1e-8, atol=1e-10)
    >>> bool(abs(run.x[-1] - np.exp(-4.0)) < 1e-8), float(run.t[-1])
    (True, 2.0)
    >>> t, x = run                                     # unpacks like the fixed-step results
    >>> run.n_accepted == len(t) - 1, run.nfev == 6 * run.n_accepted + 5 * run.n_rejected + 1
    (True, True)
    """
    t0, t1, rtol, atol, h0, h_max = _check_arguments(t_span, rtol, atol, h0, h_max)
    x0 = as_real_array(x0, "x0")
    f, calls, _ = _prepare_rhs(f, t0, x0)
    x = x0.copy() if x0.ndim else x0[()]
    k1 = f(t0, x)  # the checked first evaluation (counted once)
    h = _first_step(f, t0, x0, np.asarray(k1, dtype=float), rtol, atol, h_max) if h0 is None else min(h0, h_max)
    times, states, steps, rejected = [t0], [x0.copy()], [], []
    t, grow_max, last_err = t0, FACTOR_MAX, 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        while t < t1:
            if len(steps) + len(rejected) >= guards.MAX_STEPS:
                raise _too_many(t, len(steps) + len(rejected), rtol, atol)
            if h < 64 * np.spacing(abs(t)) or h < 64 * np.finfo(float).tiny:
                raise _collapse(t, h, rtol, atol, len(steps), last_err)
            last = t + h >= t1 - 64 * np.spacing(abs(t1))  # the step that reaches t1 (exactly)
            t_next = t1 if last else t + h
            h_step = t_next - t  # the step between two representable times: h_k = t_{k+1} - t_k
            x4, error = _fehlberg_step(f, t, x, h_step, k1)
            # err = || (x5 - x4) / (atol + rtol max(|x_k|, |x4|)) ||_RMS
            err = _rms(error / (atol + rtol * np.maximum(np.abs(x), np.abs(x4))))
            last_err = err if np.isfinite(err) and np.all(np.isfinite(x4)) else np.inf
            if last_err <= 1.0:  # accept: t_{k+1} = t_k + h, x_{k+1} = x4
                t = t_next
                x = x4
                times.append(t)
                states.append(np.array(x, copy=True))
                steps.append(h_step)
                k1 = f(t, x) if t < t1 else None  # K1 of the next step
                if k1 is not None and not np.all(np.isfinite(k1)):
                    raise _non_finite(t, x, len(steps))
                h = min(h_step * _step_factor(last_err, grow_max), h_max)
                grow_max = FACTOR_MAX
            else:  # reject: try again from (t_k, x_k) with a smaller h, and no growth on the next step
                rejected.append((t, h_step))
                h = min(h_step * _step_factor(last_err, 1.0), h_max)
                grow_max = 1.0
    rejected_t, rejected_h = np.reshape(np.array(rejected, dtype=float), (-1, 2)).T
    return VariableStepResult(t=np.array(times), x=np.array(states), h=np.array(steps), n_accepted=len(steps),
                              n_rejected=len(rejected), nfev=next(calls) - 1, rejected_t=rejected_t.copy(),
                              rejected_h=rejected_h.copy(), method="rkf45", rtol=rtol, atol=atol)


def _step_factor(err, grow_max):
    """h_new / h = min(fac_max, max(fac_min, safety err^(-1/5))); fac_min if err is inf or NaN."""
    if not np.isfinite(err):
        return FACTOR_MIN
    if err == 0.0:
        return grow_max
    return min(grow_max, max(FACTOR_MIN, SAFETY * err ** -ERROR_EXPONENT))


def _non_finite(t, x, steps):
    return NonFiniteStateError(
        f"rkf45: f returned inf or NaN at the accepted state at t = {t:.6g} (step {steps}, largest |x| = "
        f"{float(np.max(np.abs(x))) if np.size(x) else 0.0:.3g}): the state or dx/dt left the "
        f"floating-point range, or f divides by zero there.", method="rkf45", step=steps, t=t)
