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

Runs that cannot finish (issue 23). Every run has limits on its accepted steps, rejected steps,
evaluations of f and wall-clock time (``max_steps``, ``max_rejected``, ``max_nfev``,
``max_time``). Every :data:`WINDOW` accepted steps the run looks at why its steps are what they
are: a step pinned at the stability limit of the explicit formula (h |lambda| near 3.02, with
|lambda| estimated from two evaluations at t + h that every step makes anyway, as in Hairer and
Wanner II, sect. IV.2) means a stiff problem; a slope dx/dt that keeps reversing its direction
means a solution chattering across a discontinuity of f. When such a cause is found and the rest
of the span would need more than the limits allow, the run stops at once, and the
:class:`simlab.guards.WorkLimitError` names the cause and the fix (an implicit method; splitting
the run at the switch). Tolerances that float64 cannot deliver (rtol below 100 eps, as scipy's
floor) or that ask for nothing (rtol >= 1) are refused before the run.

Used in lab10 (variable step and real-time algorithms) and course/07.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as Fr

import numpy as np

from simlab import guards
from simlab.guards import DEFAULT_MAX_TIME, NonFiniteStateError, StepSizeTooSmallError, Stopwatch, WorkLimitError
from simlab.integrators import _prepare_rhs
from simlab.results import Result
from simlab.validation import as_callable, as_count, as_positive_scalar, as_state, as_time_span

__all__ = ["VariableStepResult", "rkf45", "FEHLBERG", "SAFETY", "FACTOR_MIN", "FACTOR_MAX", "RTOL_MIN",
           "STABILITY_LIMIT", "WINDOW"]

SAFETY = 0.9  #: safety factor of the step controller
FACTOR_MIN = 0.2  #: the step shrinks at most to a fifth in one step
FACTOR_MAX = 5.0  #: and grows at most five times (not at all right after a rejection)
ERROR_EXPONENT = 1 / 5  #: 1 / (q + 1) for the fourth-order solution whose error is estimated
#: Smallest rtol, 100 eps = 2.2e-14 (scipy's floor): float64 cannot deliver a smaller relative error per step.
RTOL_MIN = 100 * float(np.finfo(float).eps)
#: |h lambda| at the end of the real stability interval of the fourth-order solution (R(z) = -1 at z = -3.02).
STABILITY_LIMIT = 3.02
#: Accepted steps over which a run is diagnosed (stiff? chattering?), once every WINDOW steps.
WINDOW = 200

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


def _fehlberg_step(f, t, x, h, k1, stage5=None):
    """One Fehlberg step from (t, x), given K1 = f(t, x): returns (x4, x5 - x4).

    With a list ``stage5``, its items become (Y5, K5), the fifth stage's argument and slope (both
    at t + h, for the estimate of the stiffness).
    """
    # K2 = f(t + h/4, x + h K1/4)
    k2 = f(t + h / 4, x + h * (k1 / 4))
    # K3 = f(t + 3h/8, x + h (3/32 K1 + 9/32 K2))
    k3 = f(t + 3 * h / 8, x + h * (3 / 32 * k1 + 9 / 32 * k2))
    # K4 = f(t + 12h/13, x + h (1932/2197 K1 - 7200/2197 K2 + 7296/2197 K3))
    k4 = f(t + 12 * h / 13, x + h * (1932 / 2197 * k1 - 7200 / 2197 * k2 + 7296 / 2197 * k3))
    # K5 = f(t + h, Y5),  Y5 = x + h (439/216 K1 - 8 K2 + 3680/513 K3 - 845/4104 K4)
    y5 = x + h * (439 / 216 * k1 - 8 * k2 + 3680 / 513 * k3 - 845 / 4104 * k4)
    k5 = f(t + h, y5)
    # K6 = f(t + h/2, x + h (-8/27 K1 + 2 K2 - 3544/2565 K3 + 1859/4104 K4 - 11/40 K5))
    k6 = f(t + h / 2, x + h * (-8 / 27 * k1 + 2 * k2 - 3544 / 2565 * k3 + 1859 / 4104 * k4 - 11 / 40 * k5))
    # x4 = x + h (25/216 K1 + 1408/2565 K3 + 2197/4104 K4 - 1/5 K5)            (fourth order)
    x4 = x + h * (25 / 216 * k1 + 1408 / 2565 * k3 + 2197 / 4104 * k4 - k5 / 5)
    # x5 - x4 = h (1/360 K1 - 128/4275 K3 - 2197/75240 K4 + 1/50 K5 + 2/55 K6)  (b5 - b4: the estimate)
    error = h * (k1 / 360 - 128 / 4275 * k3 - 2197 / 75240 * k4 + k5 / 50 + 2 / 55 * k6)
    if stage5 is not None:
        stage5[:] = (y5, k5)
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


# ---------------------------------------------------------------------------------------------
# The arguments, and the limits of a run (issue 23)
# ---------------------------------------------------------------------------------------------

_TINY = float(np.finfo(float).tiny)  # the smallest normal float, 2.2e-308


def _smallest_step(t0, t1):
    """The smallest step that advances t on the span: 64 units of roundoff of the largest |t|, a normal float."""
    return max(64.0 * float(np.spacing(max(abs(t0), abs(t1)))), _TINY)


def _as_step(value, name, t0, t1, smallest):
    """h0 or h_max: positive, finite, and at least the smallest step that advances t on the span."""
    value = as_positive_scalar(value, name)
    if value < smallest:
        raise ValueError(
            f"{name} = {value!r} is too small to be a step on t_span = ({t0!r}, {t1!r}): a step below "
            f"{smallest:.3g} (64 units of roundoff of the largest |t| there, and at least the smallest normal "
            f"float {_TINY:.3g}) cannot advance t. Give {name} >= {smallest:.3g}, or leave it out (None).")
    return value


def _as_rtol(rtol):
    """rtol within the documented bounds 100 eps <= rtol < 1."""
    rtol = as_positive_scalar(rtol, "rtol")
    if rtol < RTOL_MIN:
        raise ValueError(
            f"rtol = {rtol!r} is below what float64 can deliver: a relative error per step below 100 eps = "
            f"{RTOL_MIN:.3g} is lost in rounding, and the run would not end. Use rtol >= {RTOL_MIN:.3g} (the "
            f"bounds are 100 eps <= rtol < 1; scipy's solve_ivp raises rtol to the same floor).")
    if rtol >= 1.0:
        raise ValueError(
            f"rtol = {rtol!r} asks for no accuracy: a relative error of 100 % or more per step. Use rtol < 1 (the "
            f"bounds are 100 eps = {RTOL_MIN:.3g} <= rtol < 1; 1e-3 to 1e-10 are usual).")
    return rtol


def _check_arguments(t_span, rtol, atol, h0, h_max, max_steps, max_rejected, max_nfev):
    t0, t1 = as_time_span(t_span)
    span = t1 - t0
    if not np.isfinite(span):
        raise ValueError(f"t_span = ({t0!r}, {t1!r}) is too long: t1 - t0 overflows. Use a shorter span or other "
                         f"units of time.")
    smallest = _smallest_step(t0, t1)
    if span < smallest:
        fix = (f"shift the time origin, t_span = (0, {span!r})" if span >= _smallest_step(0.0, span) else
               "use other units of time (seconds to microseconds, say)")
        raise ValueError(
            f"t_span = ({t0!r}, {t1!r}) is shorter than the smallest step that advances t there, {smallest:.3g} "
            f"(64 units of roundoff of |t| = {max(abs(t0), abs(t1)):.6g}, and a normal float): {fix}.")
    rtol, atol = _as_rtol(rtol), as_positive_scalar(atol, "atol")
    h0 = None if h0 is None else _as_step(h0, "h0", t0, t1, smallest)
    h_max = span if h_max is None else min(_as_step(h_max, "h_max", t0, t1, smallest), span)
    limits = (as_count(max_steps, "max_steps", meaning=" (accepted steps)"),
              as_count(max_rejected, "max_rejected", minimum=0, meaning=" (rejected steps)"),
              as_count(max_nfev, "max_nfev", meaning=" (evaluations of f)"))
    if span / h_max > limits[0]:
        raise ValueError(
            f"h_max = {h_max!r} caps the step so that t_span = ({t0!r}, {t1!r}) needs at least {span / h_max:,.0f} "
            f"steps, more than max_steps = {limits[0]:,}: use h_max >= {span / limits[0]:.3g}, or raise max_steps.")
    return t0, t1, rtol, atol, h0, h_max, limits


class _Monitor:
    """The limits of one rkf45 run, and the diagnosis of its last :data:`WINDOW` accepted steps.

    For each accepted step it keeps h, the estimate h |lambda| of the stiffness and whether
    dx/dt reversed its direction. Every WINDOW steps, a run diagnosed as stiff or chattering
    whose rest would pass a limit at the present rate stops at once; any run stops at a limit.
    """

    def __init__(self, limits, watch, t_span, rtol, atol, nfev0):
        (self.max_steps, self.max_rejected, self.max_nfev), self.watch = limits, watch
        self.t0, self.t1, self.rtol, self.atol, self.nfev0 = *t_span, rtol, atol, nfev0
        self.h_rho, self.h = np.zeros(WINDOW), np.zeros(WINDOW)
        self.reversed = np.zeros(WINDOW, dtype=bool)
        self.rejected_before = 0  # rejections before the present window began
        self.streak = []  # (h, err) of the consecutive rejections at the present t

    def nfev(self, accepted, rejected):
        """Evaluations of f so far: f(t0, x0) (and the first step's choice), 6 per accepted, 5 per rejected."""
        return self.nfev0 + 6 * accepted + 5 * rejected

    def before_attempt(self, t, h, accepted, rejected):
        """Stop at max_steps, at max_nfev (before a step that could pass it) or at max_time."""
        if accepted >= self.max_steps:
            raise self.stop("max_steps", t, h, accepted, rejected)
        if self.nfev(accepted, rejected) + 6 > self.max_nfev:
            raise self.stop("max_nfev", t, h, accepted, rejected)
        if self.watch.expired():
            raise self.stop("max_time", t, h, accepted, rejected)

    def rejection(self, t, h, err, accepted, rejected):
        self.streak.append((h, err))
        if rejected > self.max_rejected:
            raise self.stop("max_rejected", t, h, accepted, rejected)

    def acceptance(self, t, h, x4, k1_next, k1, stage5, accepted, rejected):
        """Record accepted step number ``accepted`` (of size h, ending at t); every WINDOW steps, look ahead."""
        y5, k5 = stage5
        dx, dk = np.ravel(x4 - y5), np.ravel(k1_next - k5)
        dx2, dk2 = float(dx @ dx), float(dk @ dk)
        i = (accepted - 1) % WINDOW
        # h |lambda| ~ h |K1(t, x4) - K5| / |x4 - Y5|: two slopes at the same t (Hairer and Wanner II, IV.2)
        self.h_rho[i] = h * np.sqrt(dk2 / dx2) if dx2 > 0 else (np.inf if dk2 > 0 else 0.0)
        self.reversed[i] = float(np.ravel(k1_next) @ np.ravel(k1)) < 0  # dx/dt turned by more than 90 degrees
        self.h[i] = h
        self.streak.clear()
        if accepted % WINDOW == 0:
            self._look_ahead(t, h, accepted, rejected)
            self.rejected_before = rejected

    def _look_ahead(self, t, h, accepted, rejected):
        """Stop a stiff or chattering run whose rest, at the present rate, would pass a limit."""
        cause, _ = self.cause(t, h, accepted, rejected)
        if cause not in ("stiff", "discontinuity"):
            return  # elsewhere the step may still grow: only a limit stops the run
        remaining = (self.t1 - t) / float(self.h.mean())  # accepted steps still needed at this rate
        rate = (rejected - self.rejected_before) / WINDOW  # rejections per accepted step
        elapsed = self.watch.elapsed()
        seconds = elapsed / (accepted + rejected) * (1 + rate) * remaining
        ahead = (("max_steps", accepted + remaining, self.max_steps, f"about {remaining:,.0f} more steps"),
                 ("max_rejected", rejected + rate * remaining, self.max_rejected,
                  f"about {rate * remaining:,.0f} more rejected steps"),
                 ("max_nfev", self.nfev(accepted, rejected) + (6 + 5 * rate) * remaining, self.max_nfev,
                  f"about {(6 + 5 * rate) * remaining:,.0f} more evaluations of f"),
                 ("max_time", elapsed + seconds, self.watch.max_time or np.inf, f"about {seconds:,.0f} s more"))
        for limit, needed, allowed, what in ahead:
            if needed > allowed:
                raise self.stop(limit, t, h, accepted, rejected, projection=what)

    def cause(self, t, h, accepted, rejected):
        """(cause, advice) from the last accepted steps: "stiff", "discontinuity", "tolerance" or None."""
        n = min(accepted, WINDOW)
        h_mean = float(self.h[:n].mean()) if n else h
        h_rho = float(np.median(self.h_rho[:n])) if n >= 20 else np.nan
        reversals = float(self.reversed[:n].mean()) if n >= 20 else 0.0
        if 2.0 <= h_rho <= 4.5:
            return "stiff", (
                f"The problem looks stiff: the step is pinned at the stability limit of the explicit formula "
                f"(h |lambda| = {h_rho:.3g}, where rkf45's fourth-order solution is stable up to {STABILITY_LIMIT}; "
                f"|lambda| ~ {h_rho / h_mean:.3g} 1/s), and the controller keeps rejecting the steps that pass it "
                f"({rejected:,} rejected). Use an implicit method, simlab.bdf2 or simlab.trapezoidal: their step is "
                f"limited by accuracy only")
        if reversals >= 0.2:
            return "discontinuity", (
                f"f looks discontinuous: dx/dt reversed its direction in {reversals:.0%} of the last {n} steps, so "
                f"the solution chatters across a switch in f (sign(), a relay, Coulomb friction) with steps of about "
                f"h = {h_mean:.3g} near t = {t:.6g}. Split the run at t = {t:.6g}: integrate up to the switch, then go "
                f"on with the model that holds after it (on a sliding surface, the equation of the surface); or "
                f"smooth the switch (tanh(x / eps) for sign(x)), or use a fixed-step method (simlab.rk4) with a "
                f"step you choose")
        if self.rtol < 1e3 * RTOL_MIN:
            return "tolerance", (
                f"rtol = {self.rtol:g} is near what float64 can deliver (its floor is 100 eps = {RTOL_MIN:.2g}), "
                f"and it asks for steps of about h = {h_mean:.3g} here: loosen rtol (1e-6 to 1e-10 are usual)")
        return None, (f"The tolerances rtol = {self.rtol:g} and atol = {self.atol:g} ask for steps of about "
                      f"h = {h_mean:.3g} here: loosen rtol or atol, or shorten t_span")

    def stop(self, limit, t, h, accepted, rejected, projection=None):
        """The WorkLimitError of a run stopped at (or, with ``projection``, before) ``limit``."""
        cause, advice = self.cause(t, h, accepted, rejected)
        nfev, elapsed = self.nfev(accepted, rejected), self.watch.elapsed()
        allowed = {"max_steps": f"max_steps = {self.max_steps:,} accepted steps",
                   "max_rejected": f"max_rejected = {self.max_rejected:,} rejected steps",
                   "max_nfev": f"max_nfev = {self.max_nfev:,} evaluations of f",
                   "max_time": f"max_time = {self.watch.max_time:g} s"}[limit]
        where = (f"at t = {t:.6g} ({(t - self.t0) / (self.t1 - self.t0):.1%} of t_span = ({self.t0:g}, {self.t1:g})) "
                 f"after {accepted:,} accepted and {rejected:,} rejected steps, {nfev:,} evaluations of f and "
                 f"{elapsed:.2g} s")
        head = (f"rkf45 stopped {where}: it reached {allowed}" if projection is None else
                f"rkf45 stopped early {where}: at the present step (h = {h:.3g}) the rest of the span needs "
                f"{projection}, beyond {allowed}")
        return WorkLimitError(f"{head}. {advice}; or raise {limit} (a keyword argument of rkf45).",
                              method="rkf45", limit=limit, cause=cause, t=t, h=h, n_accepted=accepted,
                              n_rejected=rejected, nfev=nfev, elapsed=elapsed)


def _observed_order(streak):
    """p in err ~ h^p over consecutive rejections at one t (None if the step did not shrink tenfold)."""
    if len(streak) < 3:
        return None
    (h_first, err_first), (h_last, err_last) = streak[0], streak[-1]
    if not (h_first >= 10 * h_last and err_last > 0 and np.isfinite(err_first)):
        return None
    return float(np.log(err_first / err_last) / np.log(h_first / h_last))


def _time_scale(x, k1):
    """|x| / |dx/dt| at the present point: the solution's own time scale (inf where dx/dt = 0)."""
    slope = float(np.max(np.abs(k1)))
    return float(np.max(np.abs(x))) / slope if slope > 0 else np.inf


def _collapse(t, h, x, k1, monitor, steps, last_err):
    """The StepSizeTooSmallError at (t, h), its cause found from the last rejections and the state there."""
    streak, span = monitor.streak, monitor.t1 - monitor.t0
    order = _observed_order(streak) if np.isfinite(last_err) else None
    largest = max(float(np.max(np.abs(x))), float(np.max(np.abs(k1))))
    if not np.isfinite(last_err) and largest > guards.STATE_LIMIT:
        cause, why = "overflow", (
            f"the state or its slope (up to {largest:.3g}) is so close to the float64 range (1.8e308) that the "
            f"arithmetic of a step overflows: rescale the model (other units), or stop the run before the "
            f"state grows that large")
    elif not np.isfinite(last_err):
        cause, why = "non-finite", "f returned inf or NaN in the steps tried there"
    elif (order is not None and order < 2.5) or _time_scale(x, k1) >= 1e-3 * span:
        shrink = (f"as the controller cut the step {len(streak)} times there, the error estimate went only like "
                  f"h^{order:.1f} (a smooth f gives h^5)" if order is not None and order < 2.5 else
                  f"the solution's own time scale there, |x| / |dx/dt| = {_time_scale(x, k1):.3g}, is not small, "
                  f"yet no step across t is accepted")
        cause, why = "discontinuity", (
            f"f looks discontinuous at t = {t:.10g}: {shrink}. Split the run at t = {t:.10g} (integrate up to it, "
            f"then start a new run from the state there), or smooth the jump in f")
    else:
        cause, why = "singularity", (
            f"the solution cannot be followed to these tolerances there. Causes: a singularity (the solution blows "
            f"up near t = {t:.6g}), a discontinuity in f, or a stiff system (use an implicit method, simlab.bdf2)")
    return StepSizeTooSmallError(
        f"rkf45: step size too small: the controller asked for h = {h:.3g} at t = {t:.10g}, below the resolution of "
        f"floating-point times there ({np.spacing(t):.3g}), after {steps} accepted steps: {why} (rtol = "
        f"{monitor.rtol:g}, atol = {monitor.atol:g}).", method="rkf45", step=steps, t=t, h=h, cause=cause)


def rkf45(f, t_span, x0, rtol=1e-6, atol=1e-9, h0=None, h_max=None, *, max_steps=100_000, max_rejected=50_000,
          max_nfev=1_000_000, max_time=DEFAULT_MAX_TIME):
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
        Right-hand side, returns dx/dt with the shape of ``x``. Its signature is checked before
        the first call.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0; the last step ends exactly at t1.
    x0 : float or array_like
        Initial state x(t0), real, at least one value; any shape.
    rtol : float
        Relative tolerance of the local error per step, ``100 eps <= rtol < 1`` (:data:`RTOL_MIN`
        = 2.2e-14, scipy's floor: float64 cannot deliver less; 1 or more asks for no accuracy).
    atol : float
        Absolute tolerance, finite and > 0: component i of the error estimate is measured
        against atol + rtol |x_i|.
    h0, h_max : float, optional
        First step to try (by default chosen from x0 and f by Hairer, Norsett and Wanner's
        algorithm) and the largest step (default: the span t1 - t0). Each must be finite and at
        least the smallest step that advances t on the span, 64 units of roundoff of
        max(|t0|, |t1|) and at least 2.2e-308 (1.4e-14 on (0, 1)); h_max must also leave at most
        ``max_steps`` steps on the span.
    max_steps : int, keyword-only
        Most accepted steps (default 100,000).
    max_rejected : int, keyword-only
        Most rejected steps (default 50,000; 0 stops the run at the first rejection).
    max_nfev : int, keyword-only
        Most evaluations of f (default 1,000,000); the run stops before a step that could pass it.
    max_time : float or None, keyword-only
        Wall-clock limit in seconds (default :data:`simlab.guards.DEFAULT_MAX_TIME` = 30 s; None:
        no limit). On the course's computers 100,000 steps of a small system take a few seconds.

    Returns
    -------
    VariableStepResult
        Unpacks as ``t, x`` (non-uniform t); also ``h`` (accepted steps), ``n_accepted``,
        ``n_rejected``, ``nfev``, ``rejected_t`` and ``rejected_h``.

    Raises
    ------
    TypeError, ValueError
        For an argument that is not numeric, not finite or out of its bounds above (each named
        in the message), a bad ``t_span`` (or one shorter than the smallest step that advances t
        there), an empty ``x0`` or one with an entry beyond :data:`simlab.guards.STATE_LIMIT`
        = 2.8e306 (1/64 of the float64 range), an ``f`` that cannot be called as ``f(t, x)``
        or returns the wrong shape or NaN at the start.
    simlab.guards.WorkLimitError
        (a ValueError) When the run reaches a limit (``max_steps``, ``max_rejected``,
        ``max_nfev``, ``max_time``), or earlier, when every :data:`WINDOW` steps it finds a
        cause that makes its rest need more than a limit allows: a stiff problem (the step
        pinned at the stability limit, h |lambda| ~ 3.02: use simlab.bdf2 or
        simlab.trapezoidal) or a solution chattering across a discontinuity of f (dx/dt reversing
        its direction: split the run at the switch). The message names the limit, t, the cause
        and the fix; the error carries ``limit``, ``cause``, ``t``, ``h`` and the counts.
    simlab.guards.StepSizeTooSmallError
        If the controller's step falls below the resolution of t (the message names t, h and
        the cause: f returning NaN, a state too large for float64, a discontinuity of f at t,
        or a singularity).
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

    A stiff problem stops in a fraction of a second, long before its millions of steps:

    >>> from simlab.guards import WorkLimitError
    >>> try:
    ...     rkf45(lambda t, x: -1e6 * (x - np.cos(t)), (0.0, 20.0), 0.0)
    ... except WorkLimitError as error:
    ...     print(error.cause, error.limit)
    stiff max_steps
    """
    watch = Stopwatch(guards.as_max_time(max_time))
    f = as_callable(f, "f", call="f(t, x)")
    t0, t1, rtol, atol, h0, h_max, limits = _check_arguments(t_span, rtol, atol, h0, h_max, max_steps,
                                                             max_rejected, max_nfev)
    x0 = as_state(x0, "x0", allow_complex=False)
    guards.check_state_size(x0, "x0")
    f, calls, _ = _prepare_rhs(f, t0, x0)
    x = x0.copy() if x0.ndim else x0[()]
    k1 = f(t0, x)  # the checked first evaluation (counted once)
    h = _first_step(f, t0, x0, np.asarray(k1, dtype=float), rtol, atol, h_max) if h0 is None else min(h0, h_max)
    monitor = _Monitor(limits, watch, (t0, t1), rtol, atol, nfev0=1 if h0 is not None else 2)
    times, states, steps, rejected = [t0], [x0.copy()], [], []
    t, grow_max, last_err, stage5 = t0, FACTOR_MAX, 0.0, [None, None]
    with np.errstate(over="ignore", invalid="ignore"):
        while t < t1:
            monitor.before_attempt(t, h, len(steps), len(rejected))
            if h < max(64 * np.spacing(abs(t)), _TINY):
                raise _collapse(t, h, x, k1, monitor, len(steps), last_err)
            last = t + h >= t1 - 64 * np.spacing(abs(t1))  # the step that reaches t1 (exactly)
            t_next = t1 if last else t + h
            h_step = t_next - t  # the step between two representable times: h_k = t_{k+1} - t_k
            x4, error = _fehlberg_step(f, t, x, h_step, k1, stage5)
            # err = || (x5 - x4) / (atol + rtol max(|x_k|, |x4|)) ||_RMS
            err = _rms(error / (atol + rtol * np.maximum(np.abs(x), np.abs(x4))))
            last_err = err if np.isfinite(err) and np.all(np.isfinite(x4)) else np.inf
            if last_err <= 1.0:  # accept: t_{k+1} = t_k + h, x_{k+1} = x4
                t = t_next
                times.append(t)
                states.append(np.array(x4, copy=True))
                steps.append(h_step)
                k1_next = f(t, x4) if t < t1 else None  # K1 of the next step
                if k1_next is not None:
                    if not np.all(np.isfinite(k1_next)):
                        raise _non_finite(t, x4, len(steps))
                    monitor.acceptance(t, h_step, x4, k1_next, k1, stage5, len(steps), len(rejected))
                x, k1 = x4, k1_next
                h = min(h_step * _step_factor(last_err, grow_max), h_max)
                grow_max = FACTOR_MAX
            else:  # reject: try again from (t_k, x_k) with a smaller h, and no growth on the next step
                rejected.append((t, h_step))
                monitor.rejection(t, h_step, last_err, len(steps), len(rejected))
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
