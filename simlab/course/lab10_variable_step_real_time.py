"""Lab 10: variable step, multistep and real-time algorithms (seed 003, sect. 3.2 and 3.3; issue 16).

Experiments:

1. Variable step (变步长): RKF45 (:func:`simlab.rkf45`) on a satellite's elliptic orbit, the
   two-body problem (二体问题) q'' = -q / |q|^3 with eccentricity e (0.9) over one period 2 pi,
   started at aphelion; the exact solution comes from Kepler's equation E - e sin E = M. The
   steps follow the orbit (h grows like r^(3/2)); the achieved error against the tolerance
   (slope about 4/5); fixed-step RK4 at the same accuracy needs about ten times the evaluations
   of f.
2. Adams-Bashforth (线性多步法) of orders 1-4 on the seed's closed loop
   1/(s^3 + 4 s^2 + 8 s + 6) with the step r = 5: measured orders and cost, the real stability
   intervals from the characteristic polynomial (a root zeta = -1 at the left end), and the
   largest stable step on the loop.
3. Real time (实时仿真): the same loop as the plant model of a frame loop whose command
   r(t) = 5 sin 2t arrives as samples. RTRK2, RTRK3 and AB_k use only samples that exist; RK4
   wants u(t + h/2) and u(t + h) and runs with the input held or extrapolated. The error and the
   measured order of each.
4. The real-time budget: the largest frame time that meets an error target (within the
   stability limit), verified by runs, and the computing load s t_eval / h of each method.

The notebook's parameters (:data:`PARAMETERS`, set in its parameter cell) are the eccentricity
``e`` of the orbit and the tolerance ``rtol`` (Part A), the step ``h_ab`` of Task B1 (Part B),
the frame time ``h_frame`` (Part C), the error target ``error_target`` and the time ``t_eval``
one evaluation of the model takes on the real-time computer (Part D); every self-check and
reference takes those it depends on as keywords with the lab's values as defaults, and the
tasks are listed in :data:`TASKS`.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import (
    CheckResult,
    Mistake,
    Task,
    Tasks,
    all_of,
    check_array,
    check_value,
)
from simlab.course.memo import cached
from simlab.course.parameters import Parameter, Parameters, between, divides, positive, rule
from simlab.course.systems import SEED_R, seed_rk4_system
from simlab.guards import NonFiniteStateError, UnstableRunError
from simlab.integrators import METHODS, rk4, rk4_step
from simlab.multistep import MULTISTEP_METHODS, adams_bashforth, adams_bashforth_moulton
from simlab.plotting import line_style, subplots
from simlab.realtime import REAL_TIME_METHODS, simulate_real_time
from simlab.stability import boundary_locus, fit_order, max_stable_step, stability_grid
from simlab.variable_step import (
    ERROR_EXPONENT,
    FACTOR_MAX,
    FACTOR_MIN,
    SAFETY,
    VariableStepResult,
    rkf45,
)

__all__ = [
    "ECCENTRICITY",
    "ORBIT_SPAN",
    "RTOL",
    "ATOL_RATIO",
    "TOLERANCES",
    "RK4_LADDER",
    "ADAMS_STEPS",
    "ADAMS_T_END",
    "H_AB",
    "RT_T_END",
    "OMEGA",
    "COMMAND_AMPLITUDE",
    "H_FRAME",
    "ERROR_TARGET",
    "T_EVAL",
    "REAL_TIME_CASES",
    "SEED_R",
    "AB2_STEP_LIMIT",
    "AB4_STEP_LIMIT",
    "OrbitStudy",
    "ToleranceRow",
    "FixedStepLadder",
    "ToleranceStudy",
    "EqualAccuracy",
    "AdamsStudy",
    "StabilityRow",
    "AdamsStability",
    "RealTimeCase",
    "RealTimeRow",
    "RealTimeStudy",
    "BudgetRow",
    "RealTimeBudget",
    "Lab10Results",
    "orbit_rhs",
    "eccentric_anomaly",
    "orbit_exact",
    "orbit_initial_state",
    "position_error",
    "orbit_study",
    "rk4_ladder",
    "tolerance_study",
    "equal_accuracy",
    "loop_system",
    "loop_rhs",
    "loop_step_exact",
    "adams_study",
    "adams_stability",
    "command",
    "loop_model",
    "loop_forced_exact",
    "real_time_error",
    "real_time_study",
    "real_time_budget",
    "check_step_factor",
    "check_achieved_error",
    "check_equal_accuracy",
    "check_ab2",
    "check_ab_limits",
    "check_rtrk2_loop",
    "check_budget",
    "TASKS",
    "MISTAKES",
    "PARAMETERS",
    "use_parameters",
    "check",
    "take",
    "run",
    "plot_orbit_steps",
    "plot_work_precision",
    "plot_adams",
    "plot_adams_regions",
    "plot_real_time",
]


# ---------------------------------------------------------------------------------------------
# Cached experiments: the checks and the notebook call them with the same parameters
# ---------------------------------------------------------------------------------------------


_cached = cached  # simlab.course.memo: one result per argument set, arrays read-only


# ---------------------------------------------------------------------------------------------
# Part A. Variable step: RKF45 on an elliptic orbit
# ---------------------------------------------------------------------------------------------

#: Eccentricity e of the orbit (0 would be a circle); the notebook's parameter e, 0 < e <= 0.95.
ECCENTRICITY = 0.9
#: One period of the orbit (semi-major axis a = 1, GM = 1: period 2 pi).
ORBIT_SPAN = (0.0, 2.0 * math.pi)
#: Relative tolerance of RKF45 in Part A; the absolute tolerance is rtol * ATOL_RATIO.
RTOL = 1e-6
ATOL_RATIO = 1e-3
#: Tolerances of the tolerance study (the achieved error against rtol).
TOLERANCES = (1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12)
#: Step counts N of fixed-step RK4 over one period, for the comparison at equal accuracy.
RK4_LADDER = (1000, 2000, 4000)


def orbit_rhs(t, x):
    """Two-body problem (二体问题) in the plane: x = (q1, q2, v1, v2), q' = v, v' = -q / |q|^3.

    Units with semi-major axis a = 1 and GM = 1: the period is 2 pi (dimensionless time).
    """
    q1, q2, v1, v2 = x
    r3 = (q1 * q1 + q2 * q2) ** 1.5  # |q|^3
    return np.array([v1, v2, -q1 / r3, -q2 / r3])


def eccentric_anomaly(M, e=ECCENTRICITY):
    """Solve Kepler's equation E - e sin E = M for the eccentric anomaly E (Newton's method).

    Starts from Danby's E0 = M + 0.85 e sign(sin M) and iterates E <- E - (E - e sin E - M) /
    (1 - e cos E) to machine precision. ``M`` (rad) is a number or an array.
    """
    M = np.asarray(M, dtype=float)
    E = M + 0.85 * e * np.where(np.sin(M) >= 0.0, 1.0, -1.0)
    for _ in range(60):
        step = (E - e * np.sin(E) - M) / (1.0 - e * np.cos(E))
        E = E - step
        if np.all(np.abs(step) <= 4 * np.finfo(float).eps * np.maximum(1.0, np.abs(E))):
            break
    return E


def orbit_exact(t, e=ECCENTRICITY):
    """Exact state (q1, q2, v1, v2) of the orbit started at aphelion, at times ``t``.

    Mean anomaly M = t + pi (aphelion at t = 0), E from :func:`eccentric_anomaly`, and

        q = (cos E - e, sqrt(1 - e^2) sin E),  v = dq/dE / (1 - e cos E)   (dE/dt = 1/(1 - e cos E)).

    Returns an array of shape shape(t) + (4,).
    """
    E = eccentric_anomaly(np.asarray(t, dtype=float) + math.pi, e)
    root = math.sqrt(1.0 - e * e)
    rate = 1.0 / (1.0 - e * np.cos(E))  # dE/dt
    return np.stack([np.cos(E) - e, root * np.sin(E), -np.sin(E) * rate, root * np.cos(E) * rate], axis=-1)


def orbit_initial_state(e=ECCENTRICITY):
    """The state at aphelion: q = (-(1 + e), 0), v = (0, -sqrt((1 - e)/(1 + e)))."""
    return np.array([-(1.0 + e), 0.0, 0.0, -math.sqrt((1.0 - e) / (1.0 + e))])


def position_error(t, x, e=ECCENTRICITY):
    """Largest distance max_k |q_k - q(t_k)| between computed and exact positions (the first two states)."""
    return float(np.max(np.linalg.norm(np.asarray(x)[:, :2] - orbit_exact(t, e)[:, :2], axis=1)))


@dataclass(frozen=True)
class OrbitStudy:
    """RKF45 on the orbit over one period, and what its steps show (dimensionless units).

    Attributes
    ----------
    eccentricity, rtol, atol : float
        The orbit's e and the tolerances of the run (atol = rtol * :data:`ATOL_RATIO`).
    run : simlab.variable_step.VariableStepResult
        The run: ``t``, ``x`` (shape (M + 1, 4)), ``h``, ``n_accepted``, ``n_rejected``, ``nfev``.
    radius : ndarray, shape (M + 1,)
        Distance r_k = |q_k| from the centre at the accepted times.
    error : float
        The achieved error, max_k |q_k - q(t_k)| against Kepler's solution.
    ramp : int
        Steps of the starting ramp (the first step and those that grew by the full factor 5
        from a first step chosen before any error was known); they and the last step (shortened
        to end at t1) are left out of :attr:`controlled` and the slope.
    h_radius_slope : float
        Slope of the least-squares line log h_k = s log r_k + c over the controlled steps;
        Kepler's third law suggests 3/2.
    """

    eccentricity: float
    rtol: float
    atol: float
    run: VariableStepResult
    radius: np.ndarray
    error: float
    ramp: int
    h_radius_slope: float

    @property
    def controlled(self) -> slice:
        """The steps the controller chose from its error estimates: after the ramp, before the last."""
        return slice(self.ramp, len(self.run.h) - 1)

    @property
    def k_min(self) -> int:
        """Index k of the smallest controlled step h_k (it starts at t_k, r_k)."""
        return self.ramp + int(np.argmin(self.run.h[self.controlled]))

    @property
    def k_max(self) -> int:
        """Index k of the largest controlled step."""
        return self.ramp + int(np.argmax(self.run.h[self.controlled]))

    @property
    def h_min(self) -> float:
        """Smallest controlled step."""
        return float(self.run.h[self.k_min])

    @property
    def h_max(self) -> float:
        """Largest controlled step."""
        return float(self.run.h[self.k_max])


def _ramp_end(h):
    """Index of the first step that did not grow by the full factor FACTOR_MAX (the end of the start ramp)."""
    grown = h[1:] >= FACTOR_MAX * h[:-1] * (1.0 - 1e-9)
    return int(np.argmin(grown)) + 1 if not grown.all() else len(h)


@_cached
def orbit_study(rtol=RTOL, e=ECCENTRICITY):
    """RKF45 on the orbit of eccentricity ``e`` with tolerance ``rtol`` (atol = rtol / 1000).

    Returns
    -------
    OrbitStudy
    """
    atol = rtol * ATOL_RATIO
    run = rkf45(orbit_rhs, ORBIT_SPAN, orbit_initial_state(e), rtol=rtol, atol=atol)
    radius = np.hypot(run.x[:, 0], run.x[:, 1])
    first, last = _ramp_end(run.h), len(run.h) - 1  # skip the start ramp and the shortened last step
    slope = float(np.polyfit(np.log(radius[first:last]), np.log(run.h[first:last]), 1)[0])
    return OrbitStudy(eccentricity=e, rtol=rtol, atol=atol, run=run, radius=radius,
                      error=position_error(run.t, run.x, e), ramp=first, h_radius_slope=slope)


@dataclass(frozen=True)
class FixedStepLadder:
    """Fixed-step RK4 over one period with N = 1000, 2000, 4000 steps: errors and the fitted line.

    Attributes
    ----------
    steps : tuple of int
        The step counts N (h = 2 pi / N).
    errors : ndarray, shape (n,)
        max_k |q_k - q(t_k)| of each run.
    nfev : ndarray of int, shape (n,)
        Evaluations of f, counted by the integrator (4 N).
    slope, intercept : float
        The least-squares line log e = slope log N + intercept (slope about -4).
    """

    steps: tuple
    errors: np.ndarray
    nfev: np.ndarray
    slope: float
    intercept: float

    def steps_for(self, error):
        """Least N that the fitted line gives for the error ``error``: ceil(exp((log e - c) / slope))."""
        return int(np.ceil(np.exp((np.log(error) - self.intercept) / self.slope)))


@_cached
def rk4_ladder(e=ECCENTRICITY, steps=RK4_LADDER):
    """Fixed-step RK4 on the orbit with each N of ``steps``; the fitted line log e = p log N + c.

    Returns
    -------
    FixedStepLadder
    """
    t0, t1 = ORBIT_SPAN
    runs = [rk4(orbit_rhs, ORBIT_SPAN, orbit_initial_state(e), (t1 - t0) / N) for N in steps]
    errors = np.array([position_error(run.t, run.x, e) for run in runs])
    slope, intercept = np.polyfit(np.log(steps), np.log(errors), 1)
    return FixedStepLadder(steps=tuple(int(N) for N in steps), errors=errors,
                           nfev=np.array([run.nfev for run in runs]), slope=float(slope), intercept=float(intercept))


@dataclass(frozen=True)
class ToleranceRow:
    """RKF45 on the orbit with one tolerance, and scipy's RK45 beside it.

    Attributes
    ----------
    rtol, atol : float
        The tolerances (atol = rtol / 1000).
    n_accepted, n_rejected, nfev : int
        Steps accepted and rejected by RKF45, and its evaluations of f.
    error : float
        RKF45's achieved error max_k |q_k - q(t_k)|.
    rk45_steps, rk45_nfev : int
        Steps and evaluations of ``scipy.integrate.solve_ivp(method="RK45")`` at the same tolerances.
    rk45_error : float
        Its error, at its own steps.
    """

    rtol: float
    atol: float
    n_accepted: int
    n_rejected: int
    nfev: int
    error: float
    rk45_steps: int
    rk45_nfev: int
    rk45_error: float


@dataclass(frozen=True)
class ToleranceStudy:
    """The achieved error of RKF45 against its tolerance, and the cost of RK4 at the same accuracy.

    Attributes
    ----------
    eccentricity : float
        The orbit's e.
    rows : tuple of ToleranceRow
        One per tolerance, loosest first.
    slope : float
        Slope of the least-squares line log(error) = q log(rtol) + c over all rows.
    tight_slope : float
        The same over the four tightest tolerances (theory: 4/5 as rtol -> 0).
    decade_slopes : tuple of float
        log10(e_i / e_{i+1}) between neighbouring rows (one decade of rtol apart).
    ladder : FixedStepLadder
        Fixed-step RK4 runs, for the error-versus-cost figure.
    """

    eccentricity: float
    rows: tuple
    slope: float
    tight_slope: float
    decade_slopes: tuple
    ladder: FixedStepLadder


@_cached
def tolerance_study(tolerances=TOLERANCES, e=ECCENTRICITY):
    """RKF45 and scipy's RK45 on the orbit for each rtol of ``tolerances`` (atol = rtol / 1000).

    Returns
    -------
    ToleranceStudy
    """
    from scipy.integrate import solve_ivp

    rows = []
    for rtol in tolerances:
        study = orbit_study(rtol, e)
        reference = solve_ivp(orbit_rhs, ORBIT_SPAN, orbit_initial_state(e), method="RK45", rtol=rtol,
                              atol=study.atol)
        rows.append(ToleranceRow(rtol=rtol, atol=study.atol, n_accepted=study.run.n_accepted,
                                 n_rejected=study.run.n_rejected, nfev=study.run.nfev, error=study.error,
                                 rk45_steps=len(reference.t) - 1, rk45_nfev=int(reference.nfev),
                                 rk45_error=position_error(reference.t, reference.y.T, e)))
    rtols, errors = [row.rtol for row in rows], [row.error for row in rows]
    return ToleranceStudy(eccentricity=e, rows=tuple(rows), slope=fit_order(rtols, errors),
                          tight_slope=fit_order(rtols[-4:], errors[-4:]),
                          decade_slopes=tuple(float(np.log10(a / b)) for a, b in itertools.pairwise(errors)),
                          ladder=rk4_ladder(e))


@dataclass(frozen=True)
class EqualAccuracy:
    """RKF45 with tolerance rtol against fixed-step RK4 with the error it achieved.

    Attributes
    ----------
    rtol : float
        RKF45's tolerance.
    rkf45_error : float
        Its achieved error max_k |q_k - q(t_k)|.
    rkf45_steps, rkf45_rejected, rkf45_nfev : int
        Its accepted and rejected steps and evaluations of f.
    rk4_steps : int
        N from the RK4 ladder's fitted line for that error (h = 2 pi / N).
    rk4_nfev : int
        RK4's evaluations, counted: 4 N.
    rk4_error : float
        The error of the RK4 run with N steps (close to rkf45_error: the check of the fit).
    cost_ratio : float
        rk4_nfev / rkf45_nfev.
    """

    rtol: float
    rkf45_error: float
    rkf45_steps: int
    rkf45_rejected: int
    rkf45_nfev: int
    rk4_steps: int
    rk4_nfev: int
    rk4_error: float
    cost_ratio: float


@_cached
def equal_accuracy(rtol=RTOL, e=ECCENTRICITY):
    """RKF45 with ``rtol`` and RK4 with the number of steps that gives the same error.

    Returns
    -------
    EqualAccuracy
    """
    study, ladder = orbit_study(rtol, e), rk4_ladder(e)
    N = ladder.steps_for(study.error)
    t0, t1 = ORBIT_SPAN
    fixed = rk4(orbit_rhs, ORBIT_SPAN, orbit_initial_state(e), (t1 - t0) / N)
    return EqualAccuracy(rtol=rtol, rkf45_error=study.error, rkf45_steps=study.run.n_accepted,
                         rkf45_rejected=study.run.n_rejected, rkf45_nfev=study.run.nfev, rk4_steps=N,
                         rk4_nfev=fixed.nfev, rk4_error=position_error(fixed.t, fixed.x, e),
                         cost_ratio=fixed.nfev / study.run.nfev)


# ---------------------------------------------------------------------------------------------
# Part B. Adams-Bashforth on the seed's closed loop
# ---------------------------------------------------------------------------------------------

#: Span (s) and step sizes (s) of the Adams study; step (s) of Task B1.
ADAMS_T_END = 5.0
ADAMS_STEPS = (0.1, 0.05, 0.025, 0.0125)
H_AB = 0.05
#: The largest stable steps (s) of AB2 and AB4 on the loop, rounded down (Part B's table; the rules
#: of ``h_ab`` and ``h_frame`` use them, and a test recomputes them).
AB2_STEP_LIMIT = 0.449
AB4_STEP_LIMIT = 0.158
#: The methods of the Adams study.
ADAMS_METHODS = ("ab1", "ab2", "ab3", "ab4", "abm4", "rk4")
METHOD_TITLES = {**{name: method.title for name, method in MULTISTEP_METHODS.items()}, "rk4": "RK4",
                 "rtrk2": "RTRK2", "rtrk3": "RTRK3"}

_A, _B, _C = seed_rk4_system()
_POLES = np.linalg.eigvals(_A)
_EIGENVALUES, _V = np.linalg.eig(_A)
_V_INV = np.linalg.inv(_V)


def loop_system():
    """The seed's closed loop 1/(s^3 + 4 s^2 + 8 s + 6) in controllable canonical form: A, b, C (y = C x)."""
    return seed_rk4_system()


def loop_rhs(t, x):
    """dx/dt = A x + b r of the closed loop for the step r = 5 (the seed's input)."""
    return _A @ x + _B * SEED_R


def _exponential_times(t):
    """e^{At} for each t, by the eigen-decomposition A = V diag(lambda) V^-1: shape (n, 3, 3), real."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    return ((_V[None, :, :] * np.exp(_EIGENVALUES[None, None, :] * t[:, None, None])) @ _V_INV).real


def loop_step_exact(t, r=SEED_R):
    """Exact output of the closed loop for the step r from rest: y(t) = r C A^-1 (e^{At} - I) b."""
    t = np.asarray(t, dtype=float)
    x = np.linalg.solve(_A, ((_exponential_times(t) - np.eye(3)) @ (_B * r)).T).T
    return (x @ _C).reshape(t.shape)


@dataclass(frozen=True)
class AdamsStudy:
    """Adams-Bashforth AB1..AB4, ABM4 (PECE) and RK4 on the seed's loop, step r = 5, over 5 s.

    Attributes
    ----------
    hs : ndarray, shape (n,)
        Step sizes h (s).
    errors : dict of str -> ndarray, shape (n,)
        max_k |y_k - y(t_k)| against the exact step response, by method name (``"ab1"`` ..
        ``"ab4"``, ``"abm4"``, ``"rk4"``).
    nfev : dict of str -> ndarray of int, shape (n,)
        Evaluations of f per run, counted by the integrator (the RK4 start included).
    orders : dict of str -> float
        Measured order: slope of the least-squares line log e = p log h + c.
    """

    hs: np.ndarray
    errors: dict
    nfev: dict
    orders: dict


def _loop_run(method, h, t_end):
    """One run of ``method`` on the closed loop's step response, from rest."""
    span, x0 = (0.0, t_end), np.zeros(3)
    if method == "rk4":
        return rk4(loop_rhs, span, x0, h)
    order = MULTISTEP_METHODS[method].order
    if method.startswith("abm"):
        return adams_bashforth_moulton(loop_rhs, span, x0, h, order=order)
    return adams_bashforth(loop_rhs, span, x0, h, order=order)


@_cached
def adams_study(hs=ADAMS_STEPS, t_end=ADAMS_T_END):
    """Errors, costs and measured orders of AB1..AB4, ABM4 and RK4 on the loop for the steps ``hs`` (s).

    Returns
    -------
    AdamsStudy
    """
    hs = np.asarray(hs, dtype=float)
    errors, nfev = {}, {}
    for method in ADAMS_METHODS:
        runs = [_loop_run(method, h, t_end) for h in hs]
        errors[method] = np.array([np.max(np.abs(run.x @ _C - loop_step_exact(run.t))) for run in runs])
        nfev[method] = np.array([run.nfev for run in runs])
    return AdamsStudy(hs=hs, errors=errors, nfev=nfev,
                      orders={method: fit_order(hs, errors[method]) for method in ADAMS_METHODS})


@functools.cache
def _z_min(method):
    """Left end z_min of the real stability interval: -(largest stable h) for lambda = -1 (cached)."""
    return -max_stable_step([-1.0], method)


@functools.cache
def _loop_step_limit(method):
    """Largest stable step (s) of ``method`` for the closed-loop poles (cached: a scan and a bisection)."""
    return max_stable_step(_POLES, method)


def _evaluations(method):
    """Evaluations of f per step once started: 1 for AB, 2 for PECE, the stages of a Runge-Kutta method."""
    if method in MULTISTEP_METHODS:
        return MULTISTEP_METHODS[method].evaluations
    if method in METHODS:
        return METHODS[method].stages
    return REAL_TIME_METHODS[method].evaluations


@dataclass(frozen=True)
class StabilityRow:
    """The stability of one method on y' = lambda y and on the seed's loop.

    Attributes
    ----------
    method, title : str
        Name (``"ab4"``) and title (``"AB4"``).
    evaluations : int
        Evaluations of f per step.
    z_min : float
        Left end of the real stability interval (z_min, 0) of z = h lambda.
    h_max : float
        Largest stable step (s) for the closed-loop poles (-1.3611, -1.3194 +- 1.6332j).
    h_per_evaluation : float
        h_max / evaluations (s): the stable step per unit of work.
    """

    method: str
    title: str
    evaluations: int
    z_min: float
    h_max: float
    h_per_evaluation: float


@dataclass(frozen=True)
class AdamsStability:
    """Stability intervals of the Adams methods and RK4, and their step limits on the loop.

    Attributes
    ----------
    poles : ndarray, shape (3,), complex
        The closed-loop poles (1/s).
    rows : tuple of StabilityRow
        One per method of :data:`ADAMS_METHODS`; :meth:`row` picks one by name.
    """

    poles: np.ndarray
    rows: tuple

    def row(self, method):
        """The row of ``method`` (``"ab1"`` .. ``"ab4"``, ``"abm4"``, ``"rk4"``)."""
        for row in self.rows:
            if row.method == method:
                return row
        raise ValueError(f"method must be one of {', '.join(row.method for row in self.rows)}, got {method!r}.")


@_cached
def adams_stability(methods=ADAMS_METHODS):
    """z_min and the stable step on the loop of each method of ``methods``.

    Returns
    -------
    AdamsStability
    """
    rows = []
    for method in methods:
        h_max, evaluations = _loop_step_limit(method), _evaluations(method)
        rows.append(StabilityRow(method=method, title=METHOD_TITLES[method], evaluations=evaluations,
                                 z_min=_z_min(method), h_max=h_max,
                                 h_per_evaluation=h_max / evaluations))
    return AdamsStability(poles=_POLES, rows=tuple(rows))


# ---------------------------------------------------------------------------------------------
# Part C. Real time: the loop as the plant model of a frame loop with a sampled command
# ---------------------------------------------------------------------------------------------

#: Span (s), command frequency (rad/s) and amplitude, and the frame time (s) of the real-time loop.
RT_T_END = 5.0
OMEGA = 2.0
COMMAND_AMPLITUDE = SEED_R
H_FRAME = 0.05


def command(t):
    """The command from outside, r(t) = 5 sin 2t; the frame loop reads it only at its sample times."""
    return COMMAND_AMPLITUDE * np.sin(OMEGA * t)


def loop_model(t, x, u):
    """The plant model f(t, x, u) = A x + b u of the real-time loop (u: the sampled command)."""
    return _A @ x + _B * u


def loop_forced_exact(t):
    """Exact output of the loop for r(t) = R sin(omega t) from rest.

    The forced part is x_p(t) = Im(G e^{i omega t}) with G = R (i omega I - A)^-1 b, and
    x(t) = x_p(t) - e^{At} x_p(0), so that x(0) = 0; y = C x.
    """
    t = np.asarray(t, dtype=float)
    G = COMMAND_AMPLITUDE * np.linalg.solve(1j * OMEGA * np.eye(3) - _A, _B)
    forced = np.imag(G[None, :] * np.exp(1j * OMEGA * np.atleast_1d(t))[:, None])
    x = forced - _exponential_times(t) @ np.imag(G)
    return (x @ _C).reshape(t.shape)


@dataclass(frozen=True)
class RealTimeCase:
    """One configuration of the real-time loop: a method, the input samples per frame, what a late sample gets.

    Attributes
    ----------
    label : str
        Name for tables and legends.
    method : str
        A name of :data:`simlab.realtime.REAL_TIME_METHODS`.
    samples_per_frame : int or None
        m (None: what the method needs, ``samples_needed``).
    missing_input : str
        ``"error"`` (only existing samples), ``"hold"`` or ``"extrapolate"``.
    """

    label: str
    method: str
    samples_per_frame: int | None
    missing_input: str


#: The configurations of Part C: the real-time methods and RK4 with its late inputs replaced.
REAL_TIME_CASES = (
    RealTimeCase("RTRK2", "rtrk2", None, "error"),
    RealTimeCase("RTRK3", "rtrk3", None, "error"),
    RealTimeCase("AB2", "ab2", None, "error"),
    RealTimeCase("AB3", "ab3", None, "error"),
    RealTimeCase("AB4", "ab4", None, "error"),
    RealTimeCase("RK4, u held", "rk4", 2, "hold"),
    RealTimeCase("RK4, u extrapolated", "rk4", 2, "extrapolate"),
)


def _case(label):
    for case in REAL_TIME_CASES:
        if case.label == label:
            return case
    raise ValueError(f"label must be one of {', '.join(c.label for c in REAL_TIME_CASES)}, got {label!r}.")


def _real_time_run(case, h):
    return simulate_real_time(loop_model, command, (0.0, RT_T_END), np.zeros(3), h, method=case.method,
                              samples_per_frame=case.samples_per_frame, missing_input=case.missing_input)


def real_time_error(label, h):
    """max_n |y_n - y(t_n)| of the real-time loop in configuration ``label`` with frame time ``h`` (s).

    ``inf`` if the run grows unstably or the state becomes inf/NaN (``h`` above the method's limit).
    """
    try:
        run = _real_time_run(_case(label), h)
    except (UnstableRunError, NonFiniteStateError):
        return float("inf")
    return float(np.max(np.abs(run.x @ _C - loop_forced_exact(run.t))))


@dataclass(frozen=True)
class RealTimeRow:
    """One configuration of the real-time loop at the frame times h and h/2.

    Attributes
    ----------
    label, method : str
        The configuration's label and method name.
    evaluations : int
        s, evaluations of f per frame (the fixed cost).
    samples_per_frame : int or None
        m, command samples per frame (None for the offline reference).
    missing_input : str
        What a late sample gets (``"error"``: none is late).
    compatible : bool
        True if every evaluation used the sample it wants, taken before it started.
    n_substituted : int
        Evaluations of the run at h that used a held or extrapolated sample instead.
    error, error_half : float
        max_n |y_n - y(t_n)| at frame time h and h/2.
    order : float
        Measured order log2(error / error_half).
    h_stable : float
        Largest stable frame time (s) of the method for the loop's poles.
    """

    label: str
    method: str
    evaluations: int
    samples_per_frame: int | None
    missing_input: str
    compatible: bool
    n_substituted: int
    error: float
    error_half: float
    order: float
    h_stable: float


@dataclass(frozen=True)
class RealTimeStudy:
    """Every configuration of :data:`REAL_TIME_CASES` at one frame time, against the exact output.

    Attributes
    ----------
    h_frame : float
        Frame time h (s).
    t : ndarray, shape (N + 1,)
        The frame times (s).
    exact : ndarray, shape (N + 1,)
        The exact output y(t_n).
    rows : tuple of RealTimeRow
        One per configuration, in the order of :data:`REAL_TIME_CASES`; :meth:`row` picks one.
    outputs : dict of str -> ndarray, shape (N + 1,)
        The output y_n of each configuration at h, by label.
    offline : RealTimeRow
        RK4 with the command known at every time (``simlab.rk4`` on f(t, x, r(t))): the
        accuracy RK4 has when it is not run in real time.
    """

    h_frame: float
    t: np.ndarray
    exact: np.ndarray
    rows: tuple
    outputs: dict
    offline: RealTimeRow

    def row(self, label):
        """The row of configuration ``label`` (``"RTRK2"``, ..., ``"RK4, u held"``)."""
        for row in self.rows:
            if row.label == label:
                return row
        raise ValueError(f"label must be one of {', '.join(row.label for row in self.rows)}, got {label!r}.")


def _offline_row(h):
    errors = []
    for step in (h, h / 2):
        run = rk4(lambda t, x: loop_model(t, x, command(t)), (0.0, RT_T_END), np.zeros(3), step)
        errors.append(float(np.max(np.abs(run.x @ _C - loop_forced_exact(run.t)))))
    return RealTimeRow(label="RK4 offline (r(t) known)", method="rk4", evaluations=4, samples_per_frame=None,
                       missing_input="", compatible=False, n_substituted=0, error=errors[0], error_half=errors[1],
                       order=math.log2(errors[0] / errors[1]), h_stable=_loop_step_limit("rk4"))


@_cached
def real_time_study(h_frame=H_FRAME):
    """Each configuration of :data:`REAL_TIME_CASES` with frame time ``h_frame`` and ``h_frame / 2`` (s).

    Returns
    -------
    RealTimeStudy
    """
    rows, outputs = [], {}
    for case in REAL_TIME_CASES:
        runs = [_real_time_run(case, h) for h in (h_frame, h_frame / 2)]
        errors = [float(np.max(np.abs(run.x @ _C - loop_forced_exact(run.t)))) for run in runs]
        outputs[case.label] = runs[0].x @ _C
        rows.append(RealTimeRow(
            label=case.label, method=case.method, evaluations=runs[0].evaluations_per_frame,
            samples_per_frame=runs[0].samples_per_frame, missing_input=case.missing_input,
            compatible=REAL_TIME_METHODS[case.method].real_time_compatible and runs[0].n_substituted == 0,
            n_substituted=runs[0].n_substituted, error=errors[0], error_half=errors[1],
            order=math.log2(errors[0] / errors[1]), h_stable=_loop_step_limit(case.method)))
    t = h_frame * np.arange(round(RT_T_END / h_frame) + 1)
    return RealTimeStudy(h_frame=h_frame, t=t, exact=loop_forced_exact(t), rows=tuple(rows), outputs=outputs,
                         offline=_offline_row(h_frame))


# ---------------------------------------------------------------------------------------------
# Part D. The real-time budget: the largest frame time for an accuracy, and the computing load
# ---------------------------------------------------------------------------------------------

#: Largest output error max_n |y_n - y(t_n)| allowed in real time, and the time (s) one
#: evaluation of the plant model takes on the real-time computer (estimated: a plant model far
#: larger than this loop's, on a slow target).
ERROR_TARGET = 1e-3
T_EVAL = 2e-3


def _largest_frame(row, h_frame, error_target):
    """The power-law estimate: h = min(h_frame (e* / e_h)^(1/p), h_stable), e = C h^p fitted at h and h/2."""
    return min(h_frame * (error_target / row.error) ** (1.0 / row.order), row.h_stable)


@dataclass(frozen=True)
class BudgetRow:
    """The largest frame time of one configuration for the error target, and its computing load.

    Attributes
    ----------
    label : str
        The configuration.
    evaluations : int
        s, evaluations of f per frame.
    h_estimate : float
        min(h_accuracy, h_stable) (s), h_accuracy = h (e* / e_h)^(1/p) from the measured error
        e_h and order p at the frame time h of the study.
    frames : int or None
        N = T / h_largest, verified by runs: the error at N frames meets the target and the error
        at N - 1 frames does not (None where the estimated load exceeds 1: not verified).
    h_largest : float
        T / N (s), the largest frame time that meets the target (h_estimate where not verified).
    error : float
        max_n |y_n - y(t_n)| with N frames (nan where not verified).
    load : float
        s t_eval / h_largest: the part of each frame the computer spends on the model.
    feasible : bool
        load <= 1: the frame's evaluations fit in the frame.
    """

    label: str
    evaluations: int
    h_estimate: float
    frames: int | None
    h_largest: float
    error: float
    load: float
    feasible: bool


@dataclass(frozen=True)
class RealTimeBudget:
    """The real-time budget of each configuration of Part C.

    Attributes
    ----------
    error_target : float
        The largest output error allowed.
    t_eval : float
        Time (s) one evaluation of f takes on the real-time computer.
    h_frame : float
        The frame time (s) of the study the estimates come from.
    rows : tuple of BudgetRow
        One per configuration of :data:`REAL_TIME_CASES`; :meth:`row` picks one.
    """

    error_target: float
    t_eval: float
    h_frame: float
    rows: tuple

    def row(self, label):
        """The row of configuration ``label``."""
        for row in self.rows:
            if row.label == label:
                return row
        raise ValueError(f"label must be one of {', '.join(row.label for row in self.rows)}, got {label!r}.")


def _frames_for_target(label, N, error_target, limit=200):
    """Walk from N frames to the least N with error(N) <= target < error(N - 1); returns (N, error(N))."""
    error = real_time_error(label, RT_T_END / N)
    for _ in range(limit):
        if error > error_target:
            N += 1
            error = real_time_error(label, RT_T_END / N)
            continue
        below = real_time_error(label, RT_T_END / (N - 1)) if N > 1 else float("inf")
        if below > error_target:
            return N, error
        N, error = N - 1, below
    raise RuntimeError(f"{label}: no frame count found for the error target {error_target:g} within {limit} runs.")


@_cached
def real_time_budget(h_frame=H_FRAME, error_target=ERROR_TARGET, t_eval=T_EVAL):
    """The largest frame time for ``error_target`` and the load s t_eval / h of each configuration.

    Returns
    -------
    RealTimeBudget
    """
    study = real_time_study(h_frame)
    rows = []
    for row in study.rows:
        h_estimate = _largest_frame(row, h_frame, error_target)
        if row.evaluations * t_eval / h_estimate > 1.0:  # the frame cannot hold its evaluations: not run
            frames, h_largest, error = None, h_estimate, float("nan")
        else:
            frames, error = _frames_for_target(row.label, math.ceil(RT_T_END / h_estimate), error_target)
            h_largest = RT_T_END / frames
        load = row.evaluations * t_eval / h_largest
        rows.append(BudgetRow(label=row.label, evaluations=row.evaluations, h_estimate=h_estimate, frames=frames,
                              h_largest=h_largest, error=error, load=load, feasible=load <= 1.0))
    return RealTimeBudget(error_target=error_target, t_eval=t_eval, h_frame=h_frame, rows=tuple(rows))


@dataclass(frozen=True)
class Lab10Results:
    """Everything :func:`run` computes for lab 10.

    Attributes
    ----------
    orbit : OrbitStudy
        RKF45 on the orbit with :data:`RTOL` (:func:`orbit_study`).
    tolerances : ToleranceStudy
        The achieved error against rtol, RK45 and RK4 beside it (:func:`tolerance_study`).
    equal_accuracy : EqualAccuracy
        RKF45 against RK4 at the same accuracy (:func:`equal_accuracy`).
    adams : AdamsStudy
        Orders and costs of the Adams methods on the loop (:func:`adams_study`).
    stability : AdamsStability
        Stability intervals and step limits (:func:`adams_stability`).
    real_time : RealTimeStudy
        The real-time loop (:func:`real_time_study`).
    budget : RealTimeBudget
        The real-time budget (:func:`real_time_budget`).
    """

    orbit: OrbitStudy
    tolerances: ToleranceStudy
    equal_accuracy: EqualAccuracy
    adams: AdamsStudy
    stability: AdamsStability
    real_time: RealTimeStudy
    budget: RealTimeBudget


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the notebook's answers positionally and its parameters (e, rtol, h_ab,
# h_frame, error_target, t_eval) as keywords with the lab's values as defaults.
# ---------------------------------------------------------------------------------------------

#: Errors err at which Task A1's step_factor is tried, with the growth limit of each call.
STEP_FACTOR_TRIALS = ((1e-6, 5.0), (1e-2, 5.0), (0.5, 5.0), (1.0, 5.0), (2.0, 5.0), (100.0, 5.0), (1e6, 5.0),
                      (1e-2, 1.0), (1e-6, 1.0))


def _factor(err, grow_max, exponent=ERROR_EXPONENT, safety=SAFETY, limits=True):
    """safety err^(-exponent), limited to [FACTOR_MIN, grow_max] when ``limits``."""
    raw = safety * err ** -exponent
    return min(grow_max, max(FACTOR_MIN, raw)) if limits else raw


def check_step_factor(step_factor):
    """Self-check of Task A1: ``step_factor(err, grow_max=5.0)``, the factor h_new / h of the controller."""
    title = "step_factor(err, grow_max)"
    if not callable(step_factor):
        return CheckResult(False, title, f"expected a function step_factor(err, grow_max=5.0), got "
                           f"{type(step_factor).__name__}.")
    got = []
    for err, grow_max in STEP_FACTOR_TRIALS:
        try:
            got.append(step_factor(err, grow_max=grow_max))
        except NotImplementedError:
            raise
        except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
            return CheckResult(False, title, f"step_factor({err!r}, grow_max={grow_max!r}) raised "
                               f"{type(error).__name__}: {error}")
    trials = STEP_FACTOR_TRIALS
    return check_array(title, got, [_factor(e, g) for e, g in trials], rtol=1e-9, what="factors", alternatives=[
        ([_factor(e, g, exponent=0.25) for e, g in trials], "the estimated error of the fourth-order solution "
         "is O(h^5), so h_new = h (1/err)^(1/5): the exponent is 1/5, not 1/4."),
        ([_factor(e, g, exponent=-ERROR_EXPONENT) for e, g in trials], "a larger error must give a smaller "
         "step: the factor is err^(-1/5), not err^(+1/5)."),
        ([_factor(e, g, safety=1.0) for e, g in trials], "the safety factor 0.9 is missing: without it a step "
         "aims at err = 1 exactly and about every other one is rejected."),
        ([_factor(e, g, limits=False) for e, g in trials], "the limits are missing: the step may grow at most "
         "5 times (grow_max) and shrink at most to a fifth (0.2) in one step."),
        ([_factor(e, 5.0) for e, g in trials], "grow_max is ignored: after a rejection it is 1 (no growth)."),
    ])


#: Task A2's second trajectory: the exact orbit at the run's times with each position moved outwards
#: by TEST_OFFSET sin^2(t/2) (largest at perihelion, t = pi; zero at t = 0 and at the end, 2 pi) and
#: each velocity by TEST_OFFSET (1, -1). Its achieved error is known, and not at its last point.
TEST_OFFSET = 1e-4


def _test_trajectory(t, e):
    """Task A2's second trajectory at the times ``t``: states of shape (len(t), 4) and the offsets d_k."""
    exact = orbit_exact(t, e)
    offset = TEST_OFFSET * np.sin(np.asarray(t) / 2.0) ** 2
    radius = np.hypot(exact[:, 0], exact[:, 1])
    x = exact.copy()
    x[:, :2] += (offset / radius)[:, None] * exact[:, :2]  # moved outwards by d_k, along q / |q|
    x[:, 2:] += TEST_OFFSET * np.array([1.0, -1.0])
    return x, offset


def _orbit_error_variants(t, x, e):
    """A2's typical slips applied to the states ``x`` at the times ``t``, by name: the value each gives."""
    exact = orbit_exact(t, e)
    difference = x[:, :2] - exact[:, :2]
    uniform = orbit_exact(np.linspace(t[0], t[-1], len(t)), e)
    return {
        "uniform": float(np.max(np.linalg.norm(x[:, :2] - uniform[:, :2], axis=1))),
        "whole_state": float(np.max(np.linalg.norm(x - exact, axis=1))),
        "last_point": float(np.linalg.norm(difference[-1])),
        "no_axis": float(np.linalg.norm(difference)),
        "largest_component": float(np.max(np.abs(difference))),
    }


def _orbit_error_hints(variants):
    """(value, hint) pairs of Task A2's typical slips, from :func:`_orbit_error_variants`."""
    hints = {
        "uniform": "the RKF45 times are not uniform: evaluate the exact solution at the run's own times t (run.t), "
                   "not on an evenly spaced grid.",
        "whole_state": "that distance includes the velocities; the position is q = (x[:, 0], x[:, 1]), the first "
                       "two components.",
        "last_point": "that is the error at the last point only; the achieved error is the largest distance over "
                      "all accepted times, np.max over k (for the lab's orbit the largest happens to be at the end, "
                      "so only a second case tells the two apart).",
        "no_axis": "np.linalg.norm without axis=1 is one norm of the whole array (all points together): take "
                   "the distance of each point, np.linalg.norm(..., axis=1), then the largest.",
        "largest_component": "that is the largest component |q1 - q1(t_k)| or |q2 - q2(t_k)|; the distance is "
                             "the Euclidean norm sqrt(dq1^2 + dq2^2) of each row.",
    }
    return [(variants[name], hint) for name, hint in hints.items()]


def _call_achieved_error(achieved_error, t, x, e, title):
    """``achieved_error(t, x, e)`` of the student, or a CheckResult saying what went wrong."""
    if not callable(achieved_error):
        return CheckResult(False, title, f"expected a function achieved_error(t, x, e), got "
                           f"{type(achieved_error).__name__}.")
    try:
        return achieved_error(t, x, e)
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
        return CheckResult(False, title, f"achieved_error(t, x, e) raised {type(error).__name__}: {error}")


def check_achieved_error(error_rkf45, achieved_error=None, rtol=RTOL, e=ECCENTRICITY):
    """Self-check of Task A2: the achieved error max_k |q_k - q(t_k)| of RKF45 with ``rtol`` on the orbit of
    eccentricity ``e``, and the function ``achieved_error(t, x, e)`` that measures it.

    The function is also tried on a second trajectory (:func:`_test_trajectory`) whose largest error
    lies inside the span: on the lab's orbit the largest error of RKF45 is at the last point, so the
    number alone cannot tell the maximum over the trajectory from the error at the end.
    """
    study = orbit_study(rtol, e)
    number = check_value("achieved error of RKF45", error_rkf45, study.error, rtol=1e-9, atol=1e-15,
                         alternatives=_orbit_error_hints(_orbit_error_variants(study.run.t, study.run.x, e)))
    if achieved_error is None:
        return number
    title = "achieved_error on a second trajectory (largest error at perihelion, none at the end)"
    x, offset = _test_trajectory(study.run.t, e)
    value = _call_achieved_error(achieved_error, study.run.t, x, e, title)
    if isinstance(value, CheckResult):
        return all_of("the achieved error of RKF45", [number, value])
    second = check_value(title, value, float(np.max(offset)), rtol=1e-9, atol=1e-15,
                         alternatives=_orbit_error_hints(_orbit_error_variants(study.run.t, x, e)))
    return all_of("the achieved error of RKF45", [number, second])


def check_equal_accuracy(N_rk4, cost_ratio, rtol=RTOL, e=ECCENTRICITY):
    """Self-check of Task A3: RK4's step count at RKF45's error (fitted line of the ladder) and the cost ratio."""
    study, ladder = orbit_study(rtol, e), rk4_ladder(e)
    exact_N = np.exp((np.log(study.error) - ladder.intercept) / ladder.slope)
    N = int(np.ceil(exact_N))
    return all_of("RK4 at the accuracy of RKF45", [
        check_value("RK4 steps N", N_rk4, N, rtol=0, atol=0.5, alternatives=[
            (int(np.floor(exact_N)), "round up: the line gives a non-integer N, and fewer steps than it gives "
             "miss the error (int() and np.floor round down)."),
            (int(np.ceil(np.exp((np.log(study.error) - ladder.intercept) / -ladder.slope))), "the slope of "
             "log e against log N is negative (about -4); keep its sign."),
        ]),
        check_value("cost ratio (RK4 / RKF45 evaluations)", cost_ratio, 4 * N / study.run.nfev, rtol=1e-6,
                    alternatives=[(N / study.run.n_accepted, "compare the cost, the evaluations of f: 4 per "
                                   "RK4 step (4 N) against run.nfev for RKF45 (6 per step, 5 per rejection)."),
                                  (4 * N / (6 * study.run.n_accepted), "count RKF45's rejected steps too: "
                                   "run.nfev has them."),
                                  (study.run.nfev / (4 * N), "that is the inverse ratio: the cost ratio is RK4's "
                                   "evaluations over RKF45's, 4 N / run.nfev (RK4 needs more)."),
                                  (N / study.run.nfev, "RK4 makes four evaluations of f per step: its cost is "
                                   "4 N, not N.")]),
    ])


def _ab2_loop(h, start="rk4", weights=(1.5, -0.5), update=True, t_end=ADAMS_T_END, skip_last=False):
    """AB2 on the loop, written out: the start step, the weights of f_n and f_{n-1}, the slope update
    (``skip_last``: the loop stops one step early and the last row stays zero)."""
    steps = round(t_end / h)
    x = np.zeros((steps + 1, 3))
    f_old = loop_rhs(0.0, x[0])
    x[1] = rk4_step(loop_rhs, 0.0, x[0], h) if start == "rk4" else x[0] + h * f_old
    for n in range(1, steps - 1 if skip_last else steps):
        f_new = loop_rhs(n * h, x[n])
        x[n + 1] = x[n] + h * (weights[0] * f_new + weights[1] * f_old)
        if update:
            f_old = f_new
    return x


def check_ab2(x_ab2, h_ab=H_AB):
    """Self-check of Task B1: the AB2 states x_0 .. x_N of the loop's step response, shape (N + 1, 3)."""
    reference = adams_bashforth(loop_rhs, (0.0, ADAMS_T_END), np.zeros(3), h_ab, order=2).x
    return check_array("AB2 states", x_ab2, reference, rtol=1e-9, atol=1e-12, what="states", alternatives=[
        (_ab2_loop(h_ab, weights=(-0.5, 1.5)), "the weights are swapped: 3/2 goes with the newest slope f_n, "
         "-1/2 with f_{n-1}."),
        (_ab2_loop(h_ab, start="euler"), "the first step x_1 is an RK4 step, as in simlab.adams_bashforth: AB2 "
         "needs f_0 and f_1 and is not self-starting (not an Euler step: x_ab2[1] = simlab.rk4_step(...))."),
        (_ab2_loop(h_ab, update=False), "the stored slope is never updated: after each step f_{n-1} <- f_n, "
         "else every step reuses f_0."),
        (_ab2_loop(h_ab, weights=(3.0, -1.0)), "the step is h/2 (3 f_n - f_{n-1}): the weights are 3/2 and -1/2, "
         "the factor 1/2 is missing."),
        (_ab2_loop(h_ab, skip_last=True), "the last state x_N is still zero: the loop stops one step early "
         "(n runs from 1 to N - 1, range(1, N), and computes x_{n+1})."),
    ])


def _values_in_order(answer, keys, title):
    """``answer[k]`` for each k of ``keys`` as a list of floats, or a CheckResult saying what is wrong."""
    if not isinstance(answer, dict):
        return CheckResult(False, title, f"expected a dict with the keys {list(keys)}, got {type(answer).__name__}.")
    missing = [key for key in keys if key not in answer]
    if missing:
        return CheckResult(False, title, f"the dict has no entries for {missing}; its keys must be {list(keys)}.")
    values = []
    for key in keys:
        try:
            values.append(float(np.ravel(answer[key])[0]) if np.size(answer[key]) == 1 else float("nan"))
        except (TypeError, ValueError):
            return CheckResult(False, title, f"the entry {key!r} is {answer[key]!r}, not a number.")
    return values


def _ab_limits_from(weights_of):
    """z = rho(-1) / sigma(-1) for AB1..AB4, with sigma's coefficients given by ``weights_of(k)``."""
    limits = []
    for k in range(1, 5):
        rho = (-1.0) ** k - (-1.0) ** (k - 1)
        sigma = sum(beta * (-1.0) ** (k - 1 - j) for j, beta in enumerate(weights_of(k)))
        limits.append(rho / sigma)
    return limits


def check_ab_limits(z_ab):
    """Self-check of Task B2: ``z_ab = {k: z_min}``, the real stability limits of AB1..AB4."""
    title = "real stability limits of AB1..AB4"
    values = _values_in_order(z_ab, (1, 2, 3, 4), title)
    if isinstance(values, CheckResult):
        return values
    reference = [_z_min(f"ab{k}") for k in range(1, 5)]
    reversed_sigma = _ab_limits_from(lambda k: MULTISTEP_METHODS[f"ab{k}"].predictor[::-1])
    return check_array(title, values, reference, rtol=1e-6, atol=1e-9, what="limits", alternatives=[
        ([0.0] * 4, "zeta = 1 is always a root at z = 0 (rho(1) = 0: the method is consistent); the interval "
         "ends where a root reaches zeta = -1."),
        (reversed_sigma, "beta_0 multiplies the newest slope f_n, the highest power zeta^(k-1) of sigma(zeta); "
         "the coefficients are reversed."),
        ([-value for value in reference], "the limits are negative: z = h lambda with lambda < 0."),
    ])


def _rtrk2_loop(h, held=False, full_first=False, from_half=False, late=False):
    """RTRK2 on the real-time loop, written out, with the typical slips of Task C1 switchable
    (``late``: the second evaluation reads the sample at the end of the frame, t_n + h)."""
    x, states = np.zeros(3), [np.zeros(3)]
    for n in range(round(RT_T_END / h)):
        t_n = n * h
        u_n = command(t_n)
        x_half = x + (h if full_first else h / 2) * loop_model(t_n, x, u_n)
        u_half = u_n if held else command(t_n + (h if late else h / 2))
        x = (x_half if from_half else x) + h * loop_model(t_n + h / 2, x_half, u_half)
        states.append(x)
    return np.array(states)


def check_rtrk2_loop(x_rtrk2, h_frame=H_FRAME):
    """Self-check of Task C1: the states x_0 .. x_N of the RTRK2 frame loop, shape (N + 1, 3)."""
    reference = simulate_real_time(loop_model, command, (0.0, RT_T_END), np.zeros(3), h_frame, method="rtrk2").x
    return check_array("RTRK2 frame loop", x_rtrk2, reference, rtol=1e-9, atol=1e-12, what="states", alternatives=[
        (_rtrk2_loop(h_frame, held=True), "the second evaluation reads the mid-frame sample u(t_n + h/2), which "
         "exists when it starts; with u_n held RTRK2 drops to order 1."),
        (_rtrk2_loop(h_frame, full_first=True), "the first evaluation predicts the middle of the frame: "
         "x_{n+1/2} = x_n + (h/2) f(x_n, u_n), half a step."),
        (_rtrk2_loop(h_frame, from_half=True), "the full step starts from x_n: x_{n+1} = x_n + h f(x_{n+1/2}, "
         "u_{n+1/2}), not from x_{n+1/2}."),
        (_rtrk2_loop(h_frame, late=True), "the second evaluation reads u at the end of the frame, t_n + h: that "
         "sample does not exist yet when it starts (at mid-frame); it wants u(t_n + h/2)."),
    ])


def check_budget(h_largest, load, h_frame=H_FRAME, error_target=ERROR_TARGET, t_eval=T_EVAL):
    """Self-check of Task D1: the largest frame time and the load of each configuration, dicts by label."""
    study = real_time_study(h_frame)
    labels = [row.label for row in study.rows]
    h_values = _values_in_order(h_largest, labels, "largest frame times")
    if isinstance(h_values, CheckResult):
        return h_values
    load_values = _values_in_order(load, labels, "loads")
    if isinstance(load_values, CheckResult):
        return load_values
    h_ref = [_largest_frame(row, h_frame, error_target) for row in study.rows]
    s = [row.evaluations for row in study.rows]
    return all_of("the real-time budget", [
        check_array("largest frame times (s)", h_values, h_ref, rtol=1e-6, what="frame times", alternatives=[
            ([min(h_frame * (error_target / row.error) ** row.order, row.h_stable) for row in study.rows],
             "solve e* = C h^p for h: h = h_frame (e* / e_h)^(1/p), the exponent is 1/p."),
            ([h_frame * (error_target / row.error) ** (1.0 / row.order) for row in study.rows], "a frame time "
             "above the stability limit h_stable is no use: take the smaller of the two."),
            ([min(h_frame * (row.error / error_target) ** (1.0 / row.order), row.h_stable) for row in study.rows],
             "the ratio is upside down: e = C h^p gives h = h_frame (e* / e_h)^(1/p), target over measured error "
             "(a looser target allows a longer frame)."),
        ]),
        check_array("loads s t_eval / h", load_values, [si * t_eval / h for si, h in zip(s, h_ref, strict=True)],
                    rtol=1e-6, what="loads", alternatives=[
                        ([t_eval / h for h in h_ref], "each frame runs s evaluations of f (row.evaluations): "
                         "the load is s t_eval / h."),
                        ([si * t_eval / h_frame for si in s], "the load belongs to the largest frame time, not "
                         "to h_frame."),
                    ]),
    ])


def _reference_step_factor():
    """Reference answer of Task A1: the controller's factor as a function."""
    def step_factor(err, grow_max=FACTOR_MAX):
        return _factor(err, grow_max)

    return {"step_factor": step_factor}


def _reference_error(rtol=RTOL, e=ECCENTRICITY):
    """Reference answers of Task A2: the achieved error and the function that measures it."""
    def achieved_error(t, x, e):
        return position_error(t, x, e)

    return {"error_rkf45": orbit_study(rtol, e).error, "achieved_error": achieved_error}


def _reference_equal(rtol=RTOL, e=ECCENTRICITY):
    """Reference answers of Task A3."""
    study, ladder = orbit_study(rtol, e), rk4_ladder(e)
    N = ladder.steps_for(study.error)
    return {"N_rk4": N, "cost_ratio": 4 * N / study.run.nfev}


def _reference_ab2(h_ab=H_AB):
    """Reference answer of Task B1."""
    return {"x_ab2": adams_bashforth(loop_rhs, (0.0, ADAMS_T_END), np.zeros(3), h_ab, order=2).x}


def _reference_limits():
    """Reference answer of Task B2."""
    return {"z_ab": {k: _z_min(f"ab{k}") for k in range(1, 5)}}


def _reference_rtrk2(h_frame=H_FRAME):
    """Reference answer of Task C1."""
    return {"x_rtrk2": simulate_real_time(loop_model, command, (0.0, RT_T_END), np.zeros(3), h_frame,
                                          method="rtrk2").x}


def _reference_budget(h_frame=H_FRAME, error_target=ERROR_TARGET, t_eval=T_EVAL):
    """Reference answers of Task D1."""
    study = real_time_study(h_frame)
    h = {row.label: _largest_frame(row, h_frame, error_target) for row in study.rows}
    return {"h_largest": h, "load": {row.label: row.evaluations * t_eval / h[row.label] for row in study.rows}}


#: The parameters of lab 10 (the notebook's parameter cell); every check and reference follows them.
PARAMETERS = Parameters(
    Parameter("e", ECCENTRICITY, "", "eccentricity (偏心率) of the orbit of Part A",
              (between(0.0, 1.0),
               rule("{name} <= 0.95 (closer to 1 the perihelion pass is so short that the RK4 runs of Task A3, "
                    "N = 1000 to 4000 steps, do not resolve it)", lambda value, values: value <= 0.95)),
              alternative=0.7),
    Parameter("rtol", RTOL, "", "relative tolerance (相对误差限) of RKF45 in Part A; atol = rtol / 1000",
              (between(1e-12, 1e-3, closed=(True, True)),), alternative=1e-7),
    Parameter("h_ab", H_AB, "s", "step (步长) of AB2 in Task B1",
              (positive(), divides(ADAMS_T_END, "s", "the run of Task B1"),
               rule(f"{{name}} < {AB2_STEP_LIMIT:g} s (AB2's largest stable step on the loop, Part B)",
                    lambda value, values: value < AB2_STEP_LIMIT)), alternative=0.1),
    Parameter("h_frame", H_FRAME, "s", "frame time (帧时间) of the real-time loop of Parts C and D",
              (positive(), divides(RT_T_END, "s", "the real-time run"),
               rule(f"{{name}} < {AB4_STEP_LIMIT:g} s (AB4's largest stable frame on the loop: every method of "
                    f"Part C must be stable)", lambda value, values: value < AB4_STEP_LIMIT)), alternative=0.1),
    Parameter("error_target", ERROR_TARGET, "", "largest output error e* allowed in real time (Part D)",
              (rule("1e-06 <= {name} <= 0.1 (the output's amplitude is about 0.4; below 1e-6 the runs that verify "
                    "the frame times get very long)", lambda value, values: 1e-6 <= value <= 0.1),),
              alternative=1e-2),
    Parameter("t_eval", T_EVAL, "s", "time one evaluation of the model takes on the real-time computer (Part D)",
              (rule("{name} >= 1e-04 s (shorter times make the budget verify runs of 10^4 frames and more)",
                    lambda value, values: value >= 1e-4),), alternative=5e-3),
)
use_parameters = PARAMETERS.use

#: The tasks of lab 10, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("step_factor",), check_step_factor, (), _reference_step_factor, "the step-size controller"),
    Task("A2", ("error_rkf45", "achieved_error"), check_achieved_error, ("rtol", "e"), _reference_error,
         "the error RKF45 achieves"),
    Task("A3", ("N_rk4", "cost_ratio"), check_equal_accuracy, ("rtol", "e"), _reference_equal,
         "fixed-step RK4 at the same accuracy"),
    Task("B1", ("x_ab2",), check_ab2, ("h_ab",), _reference_ab2, "AB2 by hand"),
    Task("B2", ("z_ab",), check_ab_limits, (), _reference_limits, "the real stability intervals of AB1..AB4"),
    Task("C1", ("x_rtrk2",), check_rtrk2_loop, ("h_frame",), _reference_rtrk2, "an RTRK2 frame loop"),
    Task("D1", ("h_largest", "load"), check_budget, ("h_frame", "error_target", "t_eval"), _reference_budget,
         "the largest frame times and the loads"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "exponent 1/4", "err ** (-1 / 5)", "err ** (-1 / 4)", "exponent is 1/5"),
    Mistake("A1", "no safety factor", "max(0.2, 0.9 * err", "max(0.2, 1.0 * err", "safety factor"),
    Mistake("A1", "no limits", "return min(grow_max, max(0.2, 0.9 * err ** (-1 / 5)))",
            "return 0.9 * err ** (-1 / 5)", "limits are missing"),
    Mistake("A2", "the exact solution on a uniform grid", "exact = lab.orbit_exact(t, e)",
            "exact = lab.orbit_exact(np.linspace(t[0], t[-1], len(t)), e)", "not uniform"),
    Mistake("A2", "the velocities in the distance", "x[:, :2] - exact[:, :2]", "x - exact", "velocities"),
    Mistake("A2", "the error at the last point only", "return np.max(distance)", "return distance[-1]",
            "error at the last point only"),
    Mistake("A2", "the norm of the whole array", "np.linalg.norm(x[:, :2] - exact[:, :2], axis=1)",
            "np.linalg.norm(x[:, :2] - exact[:, :2])", "without axis=1"),
    Mistake("A2", "the largest component", "np.linalg.norm(x[:, :2] - exact[:, :2], axis=1)",
            "np.max(np.abs(x[:, :2] - exact[:, :2]), axis=1)", "largest component"),
    Mistake("A3", "N rounded down", "N_rk4 = int(np.ceil(", "N_rk4 = int(np.floor(", "round up"),
    Mistake("A3", "steps instead of evaluations", "cost_ratio = 4 * N_rk4 / run.nfev",
            "cost_ratio = N_rk4 / run.n_accepted", "evaluations of f"),
    Mistake("A3", "the ratio inverted", "cost_ratio = 4 * N_rk4 / run.nfev", "cost_ratio = run.nfev / (4 * N_rk4)",
            "inverse ratio"),
    Mistake("A3", "one evaluation per RK4 step", "cost_ratio = 4 * N_rk4 / run.nfev", "cost_ratio = N_rk4 / run.nfev",
            "four evaluations of f per step"),
    Mistake("B1", "weights swapped", "(3 * f_new - f_old)", "(3 * f_old - f_new)", "swapped"),
    Mistake("B1", "an Euler start", "x_ab2[1] = simlab.rk4_step(f_loop, 0.0, x_ab2[0], h_ab)",
            "x_ab2[1] = x_ab2[0] + h_ab * f_old", "is an RK4 step"),
    Mistake("B1", "the slope never updated", "    f_old = f_new\n", "\n", "never updated"),
    Mistake("B1", "h instead of h/2", "x_ab2[n] + h_ab / 2 * (3 * f_new - f_old)",
            "x_ab2[n] + h_ab * (3 * f_new - f_old)", "factor 1/2 is missing"),
    Mistake("B1", "the loop one step short", "for n in range(1, n_steps):", "for n in range(1, n_steps - 1):",
            "last state x_N is still zero"),
    Mistake("B2", "zeta = +1", "pi_k.subs(zeta, -1)", "pi_k.subs(zeta, 1)", "zeta = 1 is always a root"),
    Mistake("B2", "sigma reversed", "zeta ** (k - 1 - j)", "zeta ** j", "reversed"),
    Mistake("C1", "the input held at mid-frame", "u_half = command(t_n + h_frame / 2)", "u_half = u_n",
            "mid-frame sample"),
    Mistake("C1", "the sample at the end of the frame", "u_half = command(t_n + h_frame / 2)",
            "u_half = command(t_n + h_frame)", "end of the frame"),
    Mistake("C1", "a full first stage", "x_half = x + h_frame / 2 * model(x, u_n)",
            "x_half = x + h_frame * model(x, u_n)", "half a step"),
    Mistake("D1", "exponent p instead of 1/p", "** (1 / row.order)", "** row.order", "exponent is 1/p"),
    Mistake("D1", "the error ratio upside down", "(error_target / row.error)", "(row.error / error_target)",
            "upside down"),
    Mistake("D1", "load without s", "load[row.label] = row.evaluations * t_eval", "load[row.label] = t_eval",
            "s evaluations"),
)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_orbit_steps(orbit):
    """Lab 10: the orbit with RKF45's accepted points, and the step sizes over time with the distance r.

    ``orbit`` is an :class:`OrbitStudy`.
    """
    fig, (ax, ax_h) = subplots(1, 2, figsize=(11, 4.2))
    run, e = orbit.run, orbit.eccentricity
    exact = orbit_exact(np.linspace(*ORBIT_SPAN, 721), e)
    ax.plot(exact[:, 0], exact[:, 1], color="0.7", linewidth=3, label="exact orbit")
    ax.plot(run.x[:, 0], run.x[:, 1], linestyle="none", marker=".", color="C0",
            label=f"RKF45 accepted points ({run.n_accepted})")
    ax.plot(0.0, 0.0, marker="*", color="black", linestyle="none", markersize=10, label="centre")
    ax.set(xlabel="$q_1$", ylabel="$q_2$", title=f"Orbit e = {e:g}, rtol = {orbit.rtol:g}")
    ax.set_aspect("equal")
    ax.legend(loc="center", fontsize="small")
    ax_h.semilogy(run.t[:-1], run.h, marker=".", color="C0", label="accepted step h")
    if run.n_rejected:
        ax_h.semilogy(run.rejected_t, run.rejected_h, linestyle="none", marker="x", color="C3",
                      label=f"rejected attempts ({run.n_rejected})")
    ax_r = ax_h.twinx()
    ax_r.plot(run.t, orbit.radius, color="0.4", linestyle="--", label="distance r")
    ax_r.set_ylabel("distance r = |q|")
    ax_h.set(xlabel="t", ylabel="step size h", title="The steps follow the orbit")
    handles = ax_h.get_legend_handles_labels()[0] + ax_r.get_legend_handles_labels()[0]
    ax_h.legend(handles, [handle.get_label() for handle in handles], loc="lower left", fontsize="small")
    return fig


def plot_work_precision(tolerances):
    """Lab 10: error against evaluations of f (RKF45, scipy's RK45, RK4) and against the tolerance.

    ``tolerances`` is a :class:`ToleranceStudy`.
    """
    fig, (ax, ax_tol) = subplots(1, 2, figsize=(11, 4.2))
    rows, ladder = tolerances.rows, tolerances.ladder
    ax.loglog([r.nfev for r in rows], [r.error for r in rows], label="RKF45 (variable step)", **line_style(0))
    ax.loglog([r.rk45_nfev for r in rows], [r.rk45_error for r in rows], label="scipy RK45", **line_style(1))
    ax.loglog(ladder.nfev, ladder.errors, label="RK4, fixed step", **line_style(2))
    ax.set(xlabel="evaluations of f", ylabel=r"max$_k |q_k - q(t_k)|$",
           title=f"Error versus cost, orbit e = {tolerances.eccentricity:g}")
    ax.legend()
    rtols = np.array([r.rtol for r in rows])
    errors = np.array([r.error for r in rows])
    ax_tol.loglog(rtols, errors, label=f"RKF45, fitted slope {tolerances.slope:.2f}", **line_style(0))
    ax_tol.loglog(rtols, errors[0] * (rtols / rtols[0]) ** 0.8, color="black", linestyle="--",
                  label="slope 4/5")
    ax_tol.loglog(rtols, rtols, color="gray", linestyle=":", label="error = rtol")
    ax_tol.set(xlabel="rtol (atol = rtol / 1000)", ylabel="achieved error", title="Tolerance versus error")
    ax_tol.legend()
    return fig


def plot_adams(adams):
    """Lab 10: error against evaluations of f for the Adams methods and RK4 (measured orders in the legend).

    ``adams`` is an :class:`AdamsStudy`.
    """
    fig, ax = subplots(figsize=(7, 4.5))
    for i, (method, errors) in enumerate(adams.errors.items()):
        label = f"{METHOD_TITLES[method]} (order {adams.orders[method]:.2f})"
        ax.loglog(adams.nfev[method], errors, label=label, **line_style(i))
    steps = ", ".join(f"{h:g}" for h in adams.hs)
    ax.set(xlabel="evaluations of f", ylabel=r"max$_k |y_k - y(t_k)|$",
           title=f"Seed loop, step r = 5: error versus cost (h = {steps} s)")
    ax.legend(fontsize="small")
    return fig


def plot_adams_regions(stability):
    """Lab 10: boundary loci of AB1..AB4 and the stability region of RK4, real limits marked.

    ``stability`` is an :class:`AdamsStability`.
    """
    fig, ax = subplots(figsize=(6.5, 5))
    names = [row.method for row in stability.rows if row.method.startswith("ab") and row.evaluations == 1]
    for i, method in enumerate(names):
        z = boundary_locus(method, n=721)[:, 0]
        ax.plot(z.real, z.imag, label=METHOD_TITLES[method], **{**line_style(i), "marker": None})
        z_min = stability.row(method).z_min
        ax.plot(z_min, 0.0, marker="o", color=f"C{i}", markerfacecolor="white")
    x, y, magnitude = stability_grid("rk4", re=(-3.2, 0.8), im=(-3.0, 3.0), n=201)
    ax.contour(x, y, magnitude, levels=[1.0], colors=["black"], linestyles=[":"])
    ax.plot([], [], color="black", linestyle=":", label="RK4")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set(xlabel=r"Re($h\lambda$)", ylabel=r"Im($h\lambda$)", xlim=(-3.2, 0.8), ylim=(-3.0, 3.0),
           title="Boundary loci of AB1..AB4, region of RK4")
    ax.set_aspect("equal")
    ax.legend(loc="upper left", fontsize="small")
    return fig


def plot_real_time(real_time):
    """Lab 10: the error of the real-time configurations over time.

    ``real_time`` is a :class:`RealTimeStudy`.
    """
    fig, ax = subplots(figsize=(8, 4.5))
    t, h = real_time.t, real_time.h_frame
    labels = [row.label for row in real_time.rows]
    for label in ("RTRK2", "RTRK3", "AB4", "RK4, u held", "RK4, u extrapolated"):  # styles as in the table's order
        error = np.abs(real_time.outputs[label] - real_time.exact)[1:]
        row = real_time.row(label)
        ax.semilogy(t[1:], np.maximum(error, 1e-16), label=f"{label} (order {row.order:.2f})",
                    **{**line_style(labels.index(label)), "marker": None})
    ax.set(xlabel="t (s)", ylabel=r"$|y_n - y(t_n)|$", title=f"Real-time loop, r = 5 sin 2t, frame h = {h:g} s")
    ax.legend(fontsize="small", ncol=2, loc="lower right")
    return fig


def run():
    """Run lab 10 headless.

    Returns
    -------
    ExperimentResult
        Summary rows, five figures and ``data``, a :class:`Lab10Results`.
    """
    data = Lab10Results(orbit=orbit_study(), tolerances=tolerance_study(), equal_accuracy=equal_accuracy(),
                        adams=adams_study(), stability=adams_stability(), real_time=real_time_study(),
                        budget=real_time_budget())
    orbit, equal = data.orbit, data.equal_accuracy
    summary = [
        (f"RKF45 rtol={RTOL:g}: accepted / rejected / nfev", f"{orbit.run.n_accepted} / {orbit.run.n_rejected} / "
                                                             f"{orbit.run.nfev}"),
        ("RKF45: achieved error", f"{orbit.error:.2e}"),
        ("RKF45: h_max / h_min", f"{orbit.h_max / orbit.h_min:.0f}"),
        ("RKF45: slope of log h against log r", f"{orbit.h_radius_slope:.2f}"),
        ("RKF45: slope of log error against log rtol", f"{data.tolerances.slope:.2f}"),
        ("RK4 at equal accuracy: steps / nfev", f"{equal.rk4_steps} / {equal.rk4_nfev}"),
        ("RK4 / RKF45 evaluations", f"{equal.cost_ratio:.1f}"),
    ]
    for method in ADAMS_METHODS:
        summary.append((f"{METHOD_TITLES[method]}: measured order", f"{data.adams.orders[method]:.2f}"))
    for row in data.stability.rows:
        summary.append((f"{row.title}: z_min / stable h on the loop", f"{row.z_min:.4f} / {row.h_max:.4f}"))
    for row in data.real_time.rows:
        summary.append((f"real time h={H_FRAME:g}: {row.label} error (order)", f"{row.error:.2e} ({row.order:.2f})"))
    for row in data.budget.rows:
        summary.append((f"budget e*={ERROR_TARGET:g}: {row.label} largest h / load",
                        f"{row.h_largest:.4f} / {row.load:.2f}"))
    return ExperimentResult(
        summary=summary,
        figures=[
            ("lab10_orbit_steps", plot_orbit_steps, orbit),
            ("lab10_work_precision", plot_work_precision, data.tolerances),
            ("lab10_adams", plot_adams, data.adams),
            ("lab10_adams_regions", plot_adams_regions, data.stability),
            ("lab10_real_time", plot_real_time, data.real_time),
        ],
        data=data,
    )
