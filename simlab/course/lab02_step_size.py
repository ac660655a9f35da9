"""Lab 02: step size versus accuracy, cost and stability (seed 003, 实验一 and the RK4 lab).

Experiments:

1. Convergence: global error at the end of the span versus h for Euler, improved Euler and RK4
   on a nonlinear problem with a closed form, y' = -2 t y^2, y(0) = 1, y = 1/(1 + t^2); the
   measured orders come from a least-squares fit of log(error) against log(h).
2. Stability on the test equation y' = lambda y: the stability function R(z), z = h lambda, of
   each method, its stability region |R(z)| <= 1 and the real stability limit.
3. A stiff system (病态系统): G(s) = 1000 / ((s + 1)(s + 1000)); explicit methods need
   h < 2.785e-3 although the slow mode would allow h = 0.1; implicit Euler and the exact
   (matrix-exponential) update do not.
4. The seed's RK4 lab: G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) in unity negative feedback, r = 5,
   Tf = 5, h = 0.02, simulated from its state-space form built by hand.

The notebook's parameters, declared in :data:`PARAMETERS`, are the step sizes ``hs`` of the
convergence study, the step ``h_implicit`` of implicit Euler and the simulated time ``t_end`` of
the stiff system, and the step ``h_seed``, the input ``r`` and the simulated time ``Tf`` of the
seed's RK4 lab; the notebook's parameter cell sets them and calls :func:`use_parameters`, every
self-check takes them as keywords (the lab's values by default), and the tasks are listed in
:data:`TASKS`.
"""

from __future__ import annotations

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
from simlab.course.parameters import Parameter, Parameters, Rule, between, divides, each, increasing, positive
from simlab.course.systems import (
    SEED_H,
    SEED_R,
    SEED_TF,
    seed_rk4_exact,
    seed_rk4_program,
    seed_rk4_system,
    stiff_exact,
    stiff_system,
)
from simlab.implicit import backward_euler_linear
from simlab.guards import UnstableRunError
from simlab.integrators import METHODS, NonFiniteStateError, integrate, rk4
from simlab.plotting import line_style, plot_stability_regions, subplots
from simlab.results import Result
from simlab.similarity import lsim
from simlab.stability import (
    fit_order,
    max_stable_step,
    real_stability_limit,
    stability_function,
    stability_grid,
    stability_polynomial,
)

__all__ = [
    "ConvergenceStudy",
    "StabilityRun",
    "StiffRun",
    "StiffComparison",
    "StepSizeRow",
    "SeedRK4Lab",
    "Lab02Results",
    "SEED_STEP_SIZES",
    "CONVERGENCE_STEPS",
    "H_IMPLICIT",
    "STIFF_T_END",
    "nonlinear_rhs",
    "nonlinear_exact",
    "convergence_study",
    "test_equation_runs",
    "stiff_comparison",
    "seed_rk4_system",
    "seed_rk4_program",
    "seed_rk4_exact",
    "seed_rk4_lab",
    "check_order",
    "check_orders",
    "check_stability_function",
    "check_stability_functions",
    "check_stability_limit",
    "check_stability_limits",
    "check_limit_value",
    "check_rk4_step_limit",
    "check_implicit_euler",
    "check_seed_state_space",
    "check_seed_rk4",
    "PARAMETERS",
    "use_parameters",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
    "run",
    "plot_convergence",
    "plot_seed_rk4",
    "plot_stiff",
]

# ---------------------------------------------------------------------------------------------
# 1. Convergence on a nonlinear problem
# ---------------------------------------------------------------------------------------------

NONLINEAR_SPAN = (0.0, 2.0)
#: Step sizes h of the convergence study, largest first: 0.2, 0.1, ..., 0.2/2^5.
CONVERGENCE_STEPS = tuple(float(h) for h in 0.2 / 2.0 ** np.arange(6))


def nonlinear_rhs(t, y):
    """dy/dt = -2 t y^2 (nonlinear; exact solution 1 / (1 + t^2) for y(0) = 1)."""
    return -2.0 * t * y * y


def nonlinear_exact(t):
    """Exact solution y(t) = 1 / (1 + t^2) of y' = -2 t y^2, y(0) = 1."""
    t = np.asarray(t, dtype=float)
    return 1.0 / (1.0 + t * t)


@dataclass(frozen=True)
class ConvergenceStudy:
    """Global error at t = 2 versus h on y' = -2 t y^2 (dimensionless), and the measured orders.

    Attributes
    ----------
    hs : ndarray, shape (n,)
        The step sizes h, as given (largest first by default).
    errors : dict of str -> ndarray, shape (n,)
        Global error |y_N - y(2)| at each h, keyed by method name (``"euler"``, ...).
    orders : dict of str -> float
        Measured order p per method: slope of the least-squares line log(error) = p log(h) + c.
    evaluations : dict of str -> ndarray of int, shape (n,)
        Evaluations of f per run (the cost), counted by the integrator (``Trajectory.nfev``).
    """

    hs: np.ndarray
    errors: dict
    orders: dict
    evaluations: dict


def convergence_study(hs=None, methods=("euler", "heun", "rk4")):
    """Global error at t = 2 versus h on y' = -2 t y^2, and the measured orders.

    ``hs`` are the step sizes (each must divide 2; default :data:`CONVERGENCE_STEPS`).

    Returns
    -------
    ConvergenceStudy
        ``hs``; ``errors``, ``orders`` and ``evaluations`` (counted calls of f) by method name.
    """
    if hs is None:
        hs = CONVERGENCE_STEPS
    hs = np.asarray(hs, dtype=float)
    errors, evaluations = {}, {}
    y_end = float(nonlinear_exact(NONLINEAR_SPAN[1]))
    for method in methods:
        runs = [integrate(nonlinear_rhs, NONLINEAR_SPAN, 1.0, h, method) for h in hs]
        errors[method] = np.array([abs(run.final - y_end) for run in runs])
        evaluations[method] = np.array([run.nfev for run in runs])  # counted by the integrator
    orders = {method: fit_order(hs, errors[method]) for method in methods}
    return ConvergenceStudy(hs=hs, errors=errors, orders=orders, evaluations=evaluations)


# ---------------------------------------------------------------------------------------------
# 2. Stability on the test equation y' = lambda y
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StabilityRun(Result):
    """One run on the test equation y' = lambda y, y(0) = 1 (dimensionless); unpacks as ``t, y``.

    Attributes
    ----------
    method : str
        ``"euler"`` or ``"rk4"``.
    h : float
        Step size h = ratio * h_limit.
    ratio : float
        h / h_limit, with h_limit = z_min / lambda the real stability limit of the method.
    t : ndarray, shape (steps + 1,)
        Time grid t_k = k h.
    y : ndarray, shape (steps + 1,)
        Numerical solution y_k = R(h lambda)^k.
    final : float
        |y_N|, the magnitude at the end of the run.
    """

    unpacks_as = ("t", "y")

    method: str
    h: float
    ratio: float
    t: np.ndarray
    y: np.ndarray
    final: float


def test_equation_runs(lam=-10.0, steps=40):
    """Euler and RK4 on y' = lambda y just below and just above their stability limits.

    Returns
    -------
    tuple of StabilityRun
        Euler at 0.9 and 1.1 times its limit, then RK4 likewise.
    """
    runs = []
    for method in ("euler", "rk4"):
        h_limit = real_stability_limit(method) / lam
        for factor in (0.9, 1.1):
            h = factor * h_limit
            t, y = integrate(lambda t, y: lam * y, (0.0, steps * h), 1.0, h, method)
            runs.append(StabilityRun(method=method, h=h, ratio=factor, t=t, y=y,
                                     final=abs(float(y[-1]))))
    return tuple(runs)


# ---------------------------------------------------------------------------------------------
# 3. A stiff system
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StiffRun(Result):
    """One run on the stiff system 1000/((s + 1)(s + 1000)), unit step; unpacks as ``t, y``.

    Attributes
    ----------
    method : str
        ``"rk4"``, ``"backward euler"`` or ``"exact (expm)"``.
    h : float
        Step size h (s).
    steps : int
        Number of steps N = t_end / h.
    t : ndarray, shape (N + 1,), or None
        Time grid (s); None if the run diverged.
    y : ndarray, shape (N + 1,), or None
        Output y_k; None if the run diverged.
    max_error : float
        max_k |y_k - y(t_k)| against the exact step response; inf if the run diverged.
    note : str
        Where a diverged run broke down (from the NonFiniteStateError's fields); "" otherwise.
    """

    unpacks_as = ("t", "y")

    method: str
    h: float
    steps: int
    t: np.ndarray | None
    y: np.ndarray | None
    max_error: float
    note: str

    @property
    def diverged(self) -> bool:
        """True if the state became inf or NaN (the run has no t and y)."""
        return self.y is None


@dataclass(frozen=True)
class StiffComparison:
    """RK4 below and above its step limit, implicit Euler and the exact update on the stiff system.

    Attributes
    ----------
    h_limit_rk4 : float
        Largest stable RK4 step (s) for the fast eigenvalue -1000 1/s.
    rk4_below_limit : StiffRun
        RK4 with h = 0.0025 s, just below the limit.
    rk4_above_limit : StiffRun
        RK4 with h = 0.003125 s, just above the limit (diverges).
    backward_euler : StiffRun
        Implicit Euler with the step h of :func:`stiff_comparison` (0.1 s by default).
    exact_update : StiffRun
        The exact (matrix-exponential) update with the same step.
    runs : tuple of StiffRun
        The four runs above in this order (a property), for tables and figures.
    """

    h_limit_rk4: float
    rk4_below_limit: StiffRun
    rk4_above_limit: StiffRun
    backward_euler: StiffRun
    exact_update: StiffRun

    @property
    def runs(self) -> tuple:
        """The four runs: RK4 below and above its limit, implicit Euler, the exact update."""
        return (self.rk4_below_limit, self.rk4_above_limit, self.backward_euler, self.exact_update)


#: Step (s) of implicit Euler and of the exact update on the stiff system, and the simulated time (s).
H_IMPLICIT = 0.1
STIFF_T_END = 5.0


def stiff_comparison(t_end=STIFF_T_END, h=H_IMPLICIT):
    """RK4 below and above its limit, implicit Euler and the exact update on the stiff system.

    RK4 runs with h = 0.0025 s and h = 0.003125 s (just below and above its limit 2.785e-3 s),
    implicit Euler and the exact update with the step ``h`` (s), all over [0, t_end].

    Returns
    -------
    StiffComparison
        ``h_limit_rk4`` and the four runs by name (``rk4_below_limit``, ``rk4_above_limit``,
        ``backward_euler``, ``exact_update``), all four in ``runs``.
    """
    A, B, C = stiff_system()
    x0 = np.zeros(2)

    def run_of(method, h, solver):
        steps = round(t_end / h)
        try:
            t, xs = solver(h)
        except UnstableRunError as error:
            note = (f"{error.method}: stopped as unstable at step {error.step} of {error.steps} "
                    f"(t = {error.t:.6g}); stable only below h = {error.h_limit:.4g}")
            return StiffRun(method=method, h=h, steps=steps, t=None, y=None,
                            max_error=float("inf"), note=note)
        except NonFiniteStateError as error:
            note = (f"{error.method}: the state became inf or NaN at step {error.step} of "
                    f"{error.steps} (t = {error.t:.6g})")
            return StiffRun(method=method, h=h, steps=steps, t=None, y=None,
                            max_error=float("inf"), note=note)
        y = xs @ C
        error = float(np.max(np.abs(y - stiff_exact(t))))
        return StiffRun(method=method, h=h, steps=steps, t=t, y=y, max_error=error, note="")

    def rk4_solver(h):
        return rk4(lambda t, x: A @ x + B, (0.0, t_end), x0, h)

    def exact_solver(h):
        # discrete similarity, x_{k+1} = e^{Ah} x_k + m(h) u: exact for the held unit step
        t = h * np.arange(round(t_end / h) + 1)
        response = lsim(A, B.reshape(-1, 1), C.reshape(1, -1), 0.0, np.ones(len(t)), t, x0=x0)
        return t, response.x

    return StiffComparison(
        h_limit_rk4=max_stable_step(np.linalg.eigvals(A), "rk4"),
        rk4_below_limit=run_of("rk4", 0.0025, rk4_solver),
        rk4_above_limit=run_of("rk4", 0.003125, rk4_solver),
        backward_euler=run_of("backward euler", h,
                              lambda h: backward_euler_linear(A, B, 1.0, (0.0, t_end), x0, h)),
        exact_update=run_of("exact (expm)", h, exact_solver),
    )


# ---------------------------------------------------------------------------------------------
# 4. The seed's RK4 lab
# ---------------------------------------------------------------------------------------------


#: Step sizes (s) of the seed RK4 lab's step-size table.
SEED_STEP_SIZES = (0.02, 0.05, 0.1, 0.25, 0.5)


@dataclass(frozen=True)
class StepSizeRow:
    """One row of the seed RK4 lab's step-size table: Euler and RK4 with one step size.

    Attributes
    ----------
    h : float
        Step size h (s).
    steps : int
        Number of steps N = Tf / h.
    euler_error, rk4_error : float
        max_k |y_k - y(t_k)| of Euler and of RK4 against the exact response; inf if diverged.
    euler_nfev, rk4_nfev : int or None
        Evaluations of f of each run, counted by the integrator (``Trajectory.nfev``); None if
        the run diverged.
    """

    h: float
    steps: int
    euler_error: float
    rk4_error: float
    euler_nfev: int | None
    rk4_nfev: int | None


@dataclass(frozen=True)
class SeedRK4Lab(Result):
    """Everything the seed's RK4 lab asks, computed; unpacks as ``t, y``.

    The closed loop of 1/(s^3 + 4 s^2 + 8 s + 5), a step of height r over [0, Tf], RK4 with
    step h (the seed's r = 5, Tf = 5 s and h = 0.02 s by default).

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s), N = Tf / h (250 for the seed's Tf and h).
    y : ndarray, shape (N + 1,)
        Output y_k of the seed's RK4 program.
    exact : ndarray, shape (N + 1,)
        Exact step response r y_step(t_k) on the grid.
    max_error : float
        max_k |y_k - y(t_k)|.
    y_final : float
        y_N = y(Tf).
    steady_state : float
        Final value r G_cl(0) = r/6 (5/6 for the seed's r = 5).
    settling_time : float
        2 % settling time (s) of the RK4 response; nan if it does not settle within Tf.
    gap_at_end : float
        How far y(Tf) is below the final value, in percent of it.
    max_overshoot : float
        Overshoot above the final value, in percent of it (0 if none).
    poles : ndarray, shape (3,), complex
        Closed-loop poles (1/s).
    h_limit : dict of str -> float
        Largest stable step (s) for ``"euler"`` and ``"rk4"``.
    step_table : tuple of StepSizeRow
        The step-size table, one row per step size of :func:`seed_rk4_lab` (those of
        :data:`SEED_STEP_SIZES`, and h), smallest first; :meth:`step_row` picks the row of a
        given h.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    exact: np.ndarray
    max_error: float
    y_final: float
    steady_state: float
    settling_time: float
    gap_at_end: float
    max_overshoot: float
    poles: np.ndarray
    h_limit: dict
    step_table: tuple

    def step_row(self, h):
        """The row of the step-size table with step size ``h`` (s)."""
        for row in self.step_table:
            if math.isclose(row.h, h, rel_tol=1e-9):
                return row
        raise ValueError(f"h must be one of the table's step sizes "
                         f"{', '.join(f'{row.h:g}' for row in self.step_table)}, got {h!r}.")


def _step_size_row(A, b, C, h, r=SEED_R, Tf=SEED_TF):
    """Euler and RK4 on the seed's closed loop with step h: errors and counted evaluations."""
    errors, nfev = {}, {}
    for method in ("euler", "rk4"):
        try:
            run = integrate(lambda t, x: A @ x + b * r, (0.0, Tf), np.zeros(3), h, method)
        except NonFiniteStateError:
            errors[method], nfev[method] = float("inf"), None
            continue
        errors[method] = float(np.max(np.abs(run.x @ C - seed_rk4_exact(run.t, r))))
        nfev[method] = run.nfev
    return StepSizeRow(h=h, steps=round(Tf / h), euler_error=errors["euler"],
                       rk4_error=errors["rk4"], euler_nfev=nfev["euler"], rk4_nfev=nfev["rk4"])


def seed_rk4_lab(step_sizes=SEED_STEP_SIZES, h=SEED_H, r=SEED_R, Tf=SEED_TF):
    """Everything the seed's RK4 lab asks, computed, with the RK4 step ``h`` (s).

    The input is a step of height ``r`` (the seed's 5), simulated over [0, Tf] (the seed's 5 s).
    The step-size table has one row per step of ``step_sizes`` and one for ``h`` if it is not
    among them (each step must divide ``Tf``).

    Returns
    -------
    SeedRK4Lab
        The response (``t``, ``y``, ``exact``), its measures, the poles and step limits, and the
        step-size table ``step_table`` (errors and counted evaluations of Euler and RK4 per h).
    """
    A, b, C = seed_rk4_system()
    t, y = seed_rk4_program(A, b, C, r=r, Tf=Tf, h=h)
    exact = seed_rk4_exact(t, r)
    poles = np.linalg.eigvals(A)
    steady = r * 1.0 / 6.0  # final-value theorem: r * G_cl(0) = r * 1/6
    outside = np.flatnonzero(np.abs(y - steady) > 0.02 * abs(steady))
    settling = float(t[outside[-1] + 1]) if outside.size and outside[-1] + 1 < len(t) else float("nan")
    return SeedRK4Lab(
        t=t,
        y=y,
        exact=exact,
        max_error=float(np.max(np.abs(y - exact))),
        y_final=float(y[-1]),
        steady_state=steady,
        settling_time=settling,
        gap_at_end=float(100.0 * (steady - y[-1]) / steady),
        max_overshoot=float(100.0 * max(np.max(y) - steady, 0.0) / steady),
        poles=poles,
        h_limit={method: max_stable_step(poles, method) for method in ("euler", "rk4")},
        step_table=tuple(_step_size_row(A, b, C, step, r, Tf) for step in sorted({*step_sizes, h})),
    )


@dataclass(frozen=True)
class Lab02Results:
    """Everything :func:`run` computes for lab 02.

    Attributes
    ----------
    convergence : ConvergenceStudy
        Errors, measured orders and costs on y' = -2 t y^2 (:func:`convergence_study`).
    stiff : StiffComparison
        The stiff system (:func:`stiff_comparison`).
    seed : SeedRK4Lab
        The seed's RK4 lab (:func:`seed_rk4_lab`).
    stability : dict of str -> (x, y, magnitude)
        Stability-region grids of Euler, improved Euler and RK4 by method name, as
        :func:`simlab.stability.stability_grid` returns them: real and imaginary parts of
        z = h lambda and |R(z)|, each of shape (n, n) (dimensionless).
    test_runs : tuple of StabilityRun
        Euler and RK4 just inside and outside their limits on y' = -10 y (:func:`test_equation_runs`).
    """

    convergence: ConvergenceStudy
    stiff: StiffComparison
    seed: SeedRK4Lab
    stability: dict
    test_runs: tuple


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the notebook's answers positionally and its parameters (hs, h_implicit,
# h_seed, ...) as keywords with the lab's values as defaults, so that a correct answer stays
# correct when a student changes a parameter.
# ---------------------------------------------------------------------------------------------

#: Method names as the notebook prints them.
METHOD_LABELS = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}


def check_order(method, value):
    """Self-check of a measured convergence order (within 0.15 of the theoretical one)."""
    if method not in METHODS:
        return CheckResult(False, "order", f"unknown method {method!r}; use one of {sorted(METHODS)}.")
    expected = METHODS[method].order
    return check_value(
        f"order of {method}",
        value,
        expected,
        rtol=0,
        atol=0.15,
        alternatives=[(expected + 1, f"that is the order of the local error (h^{expected + 1}); "
                       "the global error loses one power of h over the N = (t1 - t0)/h steps.")],
    )


def _check_fitted_order(method, value, study):
    """A measured order against the least-squares slope of ``study``'s errors (Task A1).

    The slope of all points is the answer; a value within 0.15 of the method's order that was
    measured another way (from the last two points, say) is accepted with a remark.
    """
    log_h, log_e = np.log(study.hs), np.log(study.errors[method])
    slope, intercept = np.polyfit(log_h, log_e, 1)
    title = f"order of {method}"
    alternatives = [
        (intercept, "that is the intercept c of the line; np.polyfit returns [slope, intercept] and "
         "the order is the slope, element [0]."),
        (np.polyfit(log_e, log_h, 1)[0], "that is about 1/p: you fitted log h against log e. Put "
         "log h on the x-axis: np.polyfit(np.log(hs), np.log(errors[...]), 1)."),
        (np.polyfit(study.hs, log_e, 1)[0], "fit log e against log h, not against h: take np.log "
         "of the step sizes too."),
        (np.polyfit(log_h, study.errors[method], 1)[0], "fit log e, not e: take np.log of the errors too "
         "(the straight line is log e = p log h + c)."),
        (slope / np.log(10.0), "that is the slope divided by ln 10: np.log10 on the errors and np.log on h. "
         "Use the same logarithm on both axes."),
        (slope * np.log(10.0), "that is the slope times ln 10: np.log on the errors and np.log10 on h. "
         "Use the same logarithm on both axes."),
    ]
    alternatives += [(np.polyfit(log_h, np.log(study.errors[other]), 1)[0], f"that is the slope of "
                      f"{METHOD_LABELS[other]}'s errors: fit errors[{method!r}] for {METHOD_LABELS[method]} "
                      f"(a line copied without changing the key?).")
                     for other in study.errors if other != method]
    fitted = check_value(title, value, slope, rtol=1e-6, atol=1e-9, alternatives=alternatives)
    if fitted.passed or fitted.message != check_value(title, value, slope, rtol=1e-6, atol=1e-9).message:
        return fitted  # the fitted slope, or a typical mistake recognised
    near = check_order(method, value)
    if near.passed:
        return CheckResult(True, title, f"{float(np.ravel(value)[0]):.6g} is within 0.15 of the order "
                           f"{METHODS[method].order}; the least-squares slope of all {len(study.hs)} "
                           f"points is {slope:.6g}.")
    return near


def check_orders(p_euler, p_heun, p_rk4, hs=CONVERGENCE_STEPS):
    """Self-check of the orders measured from the convergence study with step sizes ``hs`` (Task A1)."""
    study = convergence_study(hs)
    return all_of("measured orders", [_check_fitted_order(method, value, study) for method, value in
                                      (("euler", p_euler), ("heun", p_heun), ("rk4", p_rk4))])


def _rk4_full_steps_polynomial():
    """R(z) of RK4 written with h instead of h/2 in K2 and K3: 1 + z + 5z^2/6 + z^3/2 + z^4/6."""
    return np.array([1.0, 1.0, 5.0 / 6.0, 0.5, 1.0 / 6.0])


def check_stability_function(method, R):
    """Self-check of the stability function R(z) of ``method``, a sympy polynomial in z (Task B1).

    Compares the coefficients with :func:`simlab.stability.stability_polynomial` (ascending
    powers of z) and recognises R written in h and lambda, R not divided by y_0 and the RK4
    slopes taken at the end instead of the middle of the step.
    """
    import sympy as sp

    title = f"R(z) of {METHOD_LABELS.get(method, method)}"
    try:
        expr = sp.expand(sp.sympify(R))
    except (sp.SympifyError, TypeError, AttributeError):
        return CheckResult(False, title, f"expected a sympy expression in z, got {R!r}.")
    z = sp.Symbol("z")
    symbols = {symbol.name: symbol for symbol in expr.free_symbols}
    if "y_0" in symbols:
        return CheckResult(False, title, "R(z) still contains y_0: divide the result of one step by y_0, "
                           "R = y_1 / y_0.")
    if {"h", "lambda"} <= set(symbols) and set(symbols) <= {"h", "lambda", "z"}:
        return CheckResult(False, title, "write R in z = h lambda: substitute lambda = z / h "
                           "(.subs(lambda, z / h)), so that only z remains.")
    if set(symbols) - {"z"}:
        return CheckResult(False, title, f"R(z) must contain z only; it contains {sorted(set(symbols) - {'z'})}.")
    expr = expr.subs({symbols["z"]: z}) if "z" in symbols else expr
    try:
        coefficients = [float(c) for c in sp.Poly(expr, z).all_coeffs()[::-1]]
    except (sp.PolynomialError, TypeError):
        return CheckResult(False, title, f"R(z) of an explicit Runge-Kutta method is a polynomial in z; "
                           f"got {sp.sstr(expr)}.")
    alternatives = [(stability_polynomial(other), f"these are the coefficients of R(z) of "
                     f"{METHOD_LABELS[other]}.") for other in METHOD_LABELS if other != method]
    if method == "rk4":
        alternatives.insert(0, (_rk4_full_steps_polynomial(), "K2 and K3 are taken at the middle of the "
                                "step: y_0 + h/2 K1 and y_0 + h/2 K2, not y_0 + h K."))
        alternatives.insert(1, ([1.0, 1.0, 0.5, 3.0 / 16.0, 1.0 / 16.0], "RK4 weights its slopes 1, 2, 2, 1 and "
                                "divides by 6: y_0 + h/6 (K1 + 2 K2 + 2 K3 + K4), not h/4 (K1 + K2 + K3 + K4)."))
    if method == "heun":
        alternatives.insert(0, ([1.0, 1.0, 0.25], "the second slope K2 belongs to the end of the step: "
                                "f(y_0 + h K1), not f(y_0 + h/2 K1)."))
    return check_array(title, coefficients, stability_polynomial(method), what="coefficients",
                       alternatives=alternatives)


def check_stability_functions(R_euler, R_heun, R_rk4):
    """Self-check of the three stability functions R(z) derived with sympy (Task B1)."""
    return all_of("stability functions R(z)", [check_stability_function(method, R) for method, R in
                                               (("euler", R_euler), ("heun", R_heun), ("rk4", R_rk4))])


#: Default of an answer that a direct call may leave out (a notebook always passes every answer).
_NOT_GIVEN = object()


def check_stability_limit(method, value):
    """Self-check of the real stability limit z_min (a negative number) of ``method``."""
    alternatives = [(-real_stability_limit(method), "the limit is on the negative real axis: "
                     "z = h lambda with lambda < 0."),
                    (0.0, "z = 0 is always a root of R(z) = 1 (R(0) = 1); the limit is the largest "
                     "root below 0.")]
    if method == "rk4":
        alternatives.append((real_stability_limit("euler"), "-2 is where the intervals of Euler and improved "
                             "Euler end; find RK4's limit from its own R(z) (b1.R_rk4)."))
    return check_value(f"real stability limit of {method}", value, real_stability_limit(method), rtol=1e-3,
                       alternatives=alternatives)


def _end_value(method):
    """R(z_min) of ``method``: -1 or +1, the value |R| = 1 that ends its real stability interval."""
    return float(np.sign(stability_function(method, real_stability_limit(method)).real))


def check_limit_value(method, R_end, z_min=None):
    """Self-check of R(z_min), the value (+1 or -1) of R(z) at the real stability limit of ``method``.

    ``z_min`` is the notebook's limit of the same method; with Euler's pair (-2, -1) given for
    improved Euler, whose limit is -2 as well, the hint says that Euler's R(z) was used.
    """
    wanted = _end_value(method)
    label = METHOD_LABELS.get(method, method)
    hint = (f"R(z_min) is {wanted:+g} for {label}: its interval ends where R(z) = {wanted:+g}. "
            f"Give R itself at the limit, not |R| or the other root.")
    alternatives = [(-wanted, hint)]
    at_eulers_limit = _number(z_min) is not None and math.isclose(_number(z_min), real_stability_limit("euler"),
                                                                   rel_tol=1e-3)
    shares_the_limit = math.isclose(real_stability_limit(method), real_stability_limit("euler"), rel_tol=1e-9)
    if method != "euler" and shares_the_limit and at_eulers_limit:
        alternatives.insert(0, (_end_value("euler"), f"z = -2 with R = -1 ends Euler's interval: these come "
                                f"from Euler's R(z) = 1 + z (b1.R_euler); the R(z) of {label} "
                                f"(b1.R_{method}) ends at -2 as well, but with R = {wanted:+g}."))
    return check_value(f"R(z_min) of {method}", R_end, wanted, rtol=1e-6, alternatives=alternatives)


def check_stability_limits(z_euler, z_heun, z_rk4, R_end_euler=_NOT_GIVEN, R_end_heun=_NOT_GIVEN,
                           R_end_rk4=_NOT_GIVEN):
    """Self-check of the three real stability limits z_min found from R(z), and of R there (Task B2).

    ``R_end_*`` are R(z_min), -1 or +1: Euler and improved Euler share the limit -2, and only R
    at the limit tells which R(z) it came from. A direct call may leave them out (only the
    limits are checked then).
    """
    results = []
    for method, value, R_end in (("euler", z_euler, R_end_euler), ("heun", z_heun, R_end_heun),
                                 ("rk4", z_rk4, R_end_rk4)):
        results.append(check_stability_limit(method, value))
        if R_end is not _NOT_GIVEN:
            results.append(check_limit_value(method, R_end, z_min=value))
    return all_of("real stability limits", results)


def check_rk4_step_limit(h_max_rk4, steps_min, t_end=STIFF_T_END):
    """Self-check of the RK4 step limit (s) on the stiff system and the least number of steps (Task C1)."""
    A, _, _ = stiff_system()
    eigenvalues = np.linalg.eigvals(A)
    h_max = max_stable_step(eigenvalues, "rk4")
    h_slow = real_stability_limit("rk4") / eigenvalues.real.max()
    steps = math.ceil(t_end / h_max)
    return all_of("RK4 on the stiff system", [
        check_value("RK4 step limit (s)", h_max_rk4, h_max, rtol=1e-4, alternatives=[
            (h_slow, "that is the limit for the slow mode lambda = -1; the fastest eigenvalue decides."),
            (real_stability_limit("euler") / eigenvalues.real.min(), "that is the step limit of Euler (and "
             "improved Euler), z_min = -2: RK4 reaches further, use its own z_min (z_rk4 of Task B2)."),
            (-h_max, "a step is positive: z_min and lambda_fast are both negative, h = z_min / lambda_fast.")]),
        check_value(f"least number of RK4 steps for {t_end:g} s", steps_min, steps, rtol=0, atol=1e-9,
                    alternatives=[(steps - 1, "round up: N steps of at most h_max must cover t_end, "
                                   "N = ceil(t_end / h_max); int() rounds down.")]),
    ])


def _implicit_euler_loop(M, input_term, steps):
    """x_{k+1} = M (x_k + input_term) from x_0 = 0, ``steps`` steps: the loop of Task C2 with M given."""
    x = np.zeros((steps + 1, len(M)))
    for k in range(steps):
        x[k + 1] = M @ (x[k] + input_term)
    return x


def check_implicit_euler(x_implicit, h_implicit=H_IMPLICIT, u=1.0, t_end=STIFF_T_END):
    """Self-check of the implicit-Euler states x_0 .. x_N on the stiff system, shape (N + 1, 2) (Task C2)."""
    A, B, _ = stiff_system()
    _, reference = backward_euler_linear(A, B, u, (0.0, t_end), np.zeros(2), h_implicit)
    steps = round(t_end / h_implicit)
    without_h = _implicit_euler_loop(np.linalg.inv(np.eye(2) - h_implicit * A), B * u, steps)
    plus_sign = _implicit_euler_loop(np.linalg.inv(np.eye(2) + h_implicit * A), h_implicit * B * u, steps)
    one_short = reference.copy()
    one_short[-1] = 0.0  # the state array of zeros, filled by a loop that stops one step early
    return check_array("implicit Euler states", x_implicit, reference, rtol=1e-9, what="states", alternatives=[
        (one_short, "the last state x_N is still zero: the loop must run N = t_end / h times, "
         "for k in range(N), to fill x_1 .. x_N."),
        (without_h, "the right-hand side is x_k + h B u: the input term needs the factor h."),
        (plus_sign, "the implicit step solves (I - hA) x_{k+1} = x_k + h B u: the sign of hA is minus."),
    ])


def check_seed_state_space(A, b, C):
    """Self-check of a hand-built state-space form of the seed's closed loop (Task D1).

    Any realization is accepted: the check compares the transfer function C (sI - A)^{-1} b with
    1/(s^3 + 4 s^2 + 8 s + 6) at several frequencies.
    """
    try:
        A = np.asarray(A, dtype=float)
        b = np.asarray(b, dtype=float).reshape(-1)
        C = np.asarray(C, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return CheckResult(False, "state space", "A, b and C must be numeric arrays.")
    if A.shape != (3, 3) or b.shape != (3,) or C.shape != (3,):
        return CheckResult(False, "state space", f"expected A 3x3, b and C of length 3, got "
                           f"{A.shape}, {b.shape}, {C.shape}.")
    s = np.array([0.0, 0.5j, 1.0 + 1j, 3.0j, -0.5])
    wanted = 1.0 / (s**3 + 4 * s**2 + 8 * s + 6)
    try:
        got = np.array([C @ np.linalg.solve(si * np.eye(3) - A, b) for si in s])
    except np.linalg.LinAlgError:
        return CheckResult(False, "state space", "sI - A is singular at a test point; check A.")
    if np.allclose(got, wanted, rtol=1e-9, atol=1e-12):
        return CheckResult(True, "state space", "C (sI - A)^-1 b equals 1/(s^3 + 4s^2 + 8s + 6).")
    open_loop = 1.0 / (s**3 + 4 * s**2 + 8 * s + 5)
    if np.allclose(got, open_loop, rtol=1e-9, atol=1e-12):
        return CheckResult(False, "state space", "this is the open loop G(s); close the loop "
                           "first: G/(1 + G) = 1/(s^3 + 4s^2 + 8s + 6).")
    if np.allclose(got, s**2 * wanted, rtol=1e-9, atol=1e-12):
        return CheckResult(False, "state space", "C picks x_1 = y''; the output y is the last state, "
                           "x_3: C = [0, 0, 1].")
    return CheckResult(False, "state space", f"at s = 0 your model gives {got[0].real:.4g}, the "
                       f"closed loop gives {wanted[0].real:.4g}; check the signs of the first row of A.")


def _seed_rk4_variant(r, Tf, h, fractions=(0.5, 0.5, 1.0), weights=(1, 2, 2, 1)):
    """The seed's RK4 loop with other stage fractions (K2, K3, K4 taken at x + fraction h K) or
    other weights: the slips of Task D2 (the defaults are RK4 itself)."""
    A, b, C = seed_rk4_system()
    x, y = np.zeros(3), [0.0]
    for _ in range(round(Tf / h)):
        K1 = A @ x + b * r
        K2 = A @ (x + fractions[0] * h * K1) + b * r
        K3 = A @ (x + fractions[1] * h * K2) + b * r
        K4 = A @ (x + fractions[2] * h * K3) + b * r
        x = x + h * (weights[0] * K1 + weights[1] * K2 + weights[2] * K3 + weights[3] * K4) / sum(weights)
        y.append(C @ x)
    return np.array(y)


def _seed_rk4_full_steps(r, Tf, h):
    """The seed's RK4 loop with h instead of h/2 in K2 and K3 (a common slip)."""
    return _seed_rk4_variant(r, Tf, h, fractions=(1.0, 1.0, 1.0))


def check_seed_rk4(y, h_seed=SEED_H, r=SEED_R, Tf=SEED_TF):
    """Self-check of the response y_0 .. y_N of the seed's RK4 lab (Task D2): input step of height r,
    simulated over [0, Tf] with the RK4 step h_seed (the notebook's parameters)."""
    A, b, C = seed_rk4_system()
    _, reference = seed_rk4_program(A, b, C, r=r, Tf=Tf, h=h_seed)
    euler_run = integrate(lambda t, x: A @ x + b * r, (0.0, Tf), np.zeros(3), h_seed, "euler")
    return check_array("seed RK4 response", y, reference, rtol=1e-8, atol=1e-10, what="y_k", alternatives=[
        (_seed_rk4_full_steps(r, Tf, h_seed), "K2 and K3 are taken at the middle of the step: "
         "x + h/2 K1 and x + h/2 K2, not x + h K."),
        (_seed_rk4_variant(r, Tf, h_seed, fractions=(0.5, 0.5, 0.5)), "K4 is taken at the end of the "
         "step: x + h K3, not x + h/2 K3."),
        (_seed_rk4_variant(r, Tf, h_seed, weights=(1, 1, 1, 1)), "RK4 weights its slopes 1, 2, 2, 1 and "
         "divides by 6: x + h (K1 + 2 K2 + 2 K3 + K4) / 6, not the plain average h (K1 + K2 + K3 + K4) / 4."),
        (euler_run.x @ C, "these are Euler values; RK4 averages four slopes per step."),
    ])


def _orders(hs=CONVERGENCE_STEPS):
    """Reference answers of Task A1: the fitted orders of the convergence study with ``hs``."""
    orders = convergence_study(hs).orders
    return {f"p_{method}": orders[method] for method in ("euler", "heun", "rk4")}


def _stability_functions():
    """Reference answers of Task B1: R(z) of Euler, improved Euler and RK4 (sympy, in z)."""
    import sympy as sp

    z = sp.Symbol("z")
    return {f"R_{method}": sum(sp.Rational(1, math.factorial(n)) * z**n for n in range(METHODS[method].order + 1))
            for method in ("euler", "heun", "rk4")}


def _stability_limits():
    """Reference answers of Task B2: the real stability limits z_min and the values R(z_min)."""
    methods = ("euler", "heun", "rk4")
    return {**{f"z_{method}": real_stability_limit(method) for method in methods},
            **{f"R_end_{method}": _end_value(method) for method in methods}}


def _rk4_step_limit(t_end=STIFF_T_END):
    """Reference answers of Task C1: the RK4 step limit (s) and the least number of steps."""
    h_max = max_stable_step(np.linalg.eigvals(stiff_system()[0]), "rk4")
    return {"h_max_rk4": h_max, "steps_min": math.ceil(t_end / h_max)}


def _implicit_states(h_implicit=H_IMPLICIT, u=1.0, t_end=STIFF_T_END):
    """Reference answer of Task C2: the implicit-Euler states."""
    A, B, _ = stiff_system()
    return {"x_implicit": backward_euler_linear(A, B, u, (0.0, t_end), np.zeros(2), h_implicit).x}


def _seed_model():
    """Reference answers of Task D1: the closed loop in controllable canonical form."""
    A, b, C = seed_rk4_system()
    return {"A_seed": A, "b_seed": b, "C_seed": C}


def _seed_response(h_seed=SEED_H, r=SEED_R, Tf=SEED_TF):
    """Reference answer of Task D2: the RK4 response of the seed's closed loop."""
    return {"y_seed": seed_rk4_program(*seed_rk4_system(), r=r, Tf=Tf, h=h_seed)[1]}


def _whole(quotient):
    """True if ``quotient`` is a whole number to 1e-9 relative (a step that divides a span)."""
    return abs(quotient - round(quotient)) <= 1e-9 * max(1.0, abs(quotient))


def _number(value):
    """``value`` as a finite float, or None if it is not one real number."""
    if isinstance(value, (bool, np.bool_, str, bytes)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _divides_parameter(other):
    """Rule: the value divides the notebook's parameter ``other`` (a time, s) into whole steps."""

    def check(value, values):
        step, span = _number(value), _number(values.get(other))
        if step is None or step <= 0:
            return f"got {value!r}, not a number > 0"
        if span is None or _whole(span / step):
            return None  # (a span that is not a number: its own rule reports it)
        return f"{other} / {value:g} = {span / step:.6g} is not a whole number"

    return Rule(f"{{name}} must divide {other} into a whole number of steps", check)


def _multiple_of(step, why):
    """Rule: the value is a whole multiple of ``step`` (s)."""

    def check(value, values):
        number = _number(value)
        if number is None:
            return f"got {value!r}, not a finite real number"
        return None if _whole(number / step) else f"{number:g} / {step:g} = {number / step:.6g} is not a whole number"

    return Rule(f"{{name}} is a whole multiple of {step:g} s ({why})", check)


#: The notebook's parameters (实验参数): the parameter cell sets them, every check follows them.
PARAMETERS = Parameters(
    Parameter("hs", CONVERGENCE_STEPS, "", "step sizes h of the convergence study (Part A), largest first",
              (increasing(decreasing=True, min_length=2), each(positive()),
               each(divides(NONLINEAR_SPAN[1] - NONLINEAR_SPAN[0], unit="(0 <= t <= 2)"))),
              alternative=(0.1, 0.05, 0.025, 0.0125, 0.00625)),
    Parameter("h_implicit", H_IMPLICIT, "s", "step of implicit Euler (隐式欧拉法) and of the exact update on "
              "the stiff system (Part C)", (positive(), _divides_parameter("t_end")), alternative=0.05),
    Parameter("t_end", STIFF_T_END, "s", "simulated time of the stiff system (Part C)",
              (positive(), _multiple_of(0.0125, "RK4's steps 0.0025 s and 0.003125 s of the comparison divide it")),
              alternative=4.0),
    Parameter("h_seed", SEED_H, "s", "step of the seed's RK4 lab (Part D)",
              (between(0.0, 0.5, closed=(False, True)), _divides_parameter("Tf")), alternative=0.01),
    Parameter("r", SEED_R, "", "height of the step input (阶跃输入) of Part D", (positive(),), alternative=2.0),
    Parameter("Tf", SEED_TF, "s", "simulated time (仿真时间) of Part D",
              (positive(), _multiple_of(0.5, "each step of the step-size table, 0.02 s to 0.5 s, divides it")),
              alternative=4.0),
)
use_parameters = PARAMETERS.use

#: The tasks of lab 02, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("p_euler", "p_heun", "p_rk4"), check_orders, ("hs",), _orders, "the measured orders"),
    Task("B1", ("R_euler", "R_heun", "R_rk4"), check_stability_functions, (), _stability_functions,
         "the stability functions R(z)"),
    Task("B2", ("z_euler", "z_heun", "z_rk4", "R_end_euler", "R_end_heun", "R_end_rk4"), check_stability_limits,
         (), _stability_limits, "the real stability limits and R there"),
    Task("C1", ("h_max_rk4", "steps_min"), check_rk4_step_limit, ("t_end",), _rk4_step_limit,
         "the RK4 step limit on the stiff system"),
    Task("C2", ("x_implicit",), check_implicit_euler, ("h_implicit", "t_end"), _implicit_states,
         "implicit Euler on the stiff system"),
    Task("D1", ("A_seed", "b_seed", "C_seed"), check_seed_state_space, (), _seed_model,
         "the seed's closed loop in state space"),
    Task("D2", ("y_seed",), check_seed_rk4, ("h_seed", "r", "Tf"), _seed_response, "the seed's RK4 loop by hand"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "the intercept instead of the slope", ", 1)[0]", ", 1)[1]", "intercept"),
    Mistake("A1", "log h fitted against log e",
            'p_euler = np.polyfit(log_h, np.log(errors["euler"]), 1)[0]',
            'p_euler = np.polyfit(np.log(errors["euler"]), log_h, 1)[0]', "about 1/p"),
    Mistake("B1", "R left in h and lambda", ".subs(lam_sym, z / h_sym)", "", "substitute lambda = z / h"),
    Mistake("B1", "full steps in K2 and K3 of RK4",
            "K2 = f(y0_sym + h_sym / 2 * K1)\nK3 = f(y0_sym + h_sym / 2 * K2)",
            "K2 = f(y0_sym + h_sym * K1)\nK3 = f(y0_sym + h_sym * K2)", "middle of the step"),
    Mistake("B2", "z = 0 counted as a limit", "if root < 0]", "if root <= 0]", "z = 0 is always a root"),
    Mistake("B2", "improved Euler's limit found from Euler's R(z)", "z_heun, R_end_heun = real_limit(b1.R_heun)",
            "z_heun, R_end_heun = real_limit(b1.R_euler)", "from Euler's R(z)"),
    Mistake("C1", "the slow eigenvalue", "lam_fast = eigenvalues.real.min()", "lam_fast = eigenvalues.real.max()",
            "slow mode"),
    Mistake("C1", "the step count rounded down", "steps_min = int(np.ceil(t_end / h_max_rk4))",
            "steps_min = int(t_end / h_max_rk4)", "round up"),
    Mistake("C2", "the input term without h", "(x_implicit[k] + h_implicit * B)", "(x_implicit[k] + B)",
            "needs the factor h"),
    Mistake("C2", "I + hA instead of I - hA", "np.linalg.inv(np.eye(2) - h_implicit * A)",
            "np.linalg.inv(np.eye(2) + h_implicit * A)", "sign of hA is minus"),
    Mistake("D1", "the open loop's constant 5", "[[-4.0, -8.0, -6.0],", "[[-4.0, -8.0, -5.0],", "open loop"),
    Mistake("D1", "C picks the first state", "C_seed = np.array([0.0, 0.0, 1.0])",
            "C_seed = np.array([1.0, 0.0, 0.0])", "last state"),
    Mistake("D2", "the initial value left out", "y_seed = [0.0]", "y_seed = []", "initial value at t0"),
    Mistake("D2", "full steps in K2 and K3",
            "K2 = model.A_seed @ (x + h_seed * K1 / 2) + model.b_seed * r\n"
            "    K3 = model.A_seed @ (x + h_seed * K2 / 2) + model.b_seed * r",
            "K2 = model.A_seed @ (x + h_seed * K1) + model.b_seed * r\n"
            "    K3 = model.A_seed @ (x + h_seed * K2) + model.b_seed * r", "middle of the step"),
    Mistake("A1", "another method's errors fitted",
            'p_heun = np.polyfit(log_h, np.log(errors["heun"]), 1)[0]',
            'p_heun = np.polyfit(log_h, np.log(errors["euler"]), 1)[0]', "slope of Euler's errors"),
    Mistake("A1", "log10 of the errors against np.log of h",
            'p_rk4 = np.polyfit(log_h, np.log(errors["rk4"]), 1)[0]',
            'p_rk4 = np.polyfit(log_h, np.log10(errors["rk4"]), 1)[0]', "same logarithm on both axes"),
    Mistake("A1", "the errors fitted without their logarithm",
            'p_heun = np.polyfit(log_h, np.log(errors["heun"]), 1)[0]',
            'p_heun = np.polyfit(log_h, errors["heun"], 1)[0]', "take np.log of the errors"),
    Mistake("B1", "equal weights for the four slopes of RK4",
            "y1_rk4 = y0_sym + h_sym / 6 * (K1 + 2 * K2 + 2 * K3 + K4)",
            "y1_rk4 = y0_sym + h_sym / 4 * (K1 + K2 + K3 + K4)", "weights its slopes 1, 2, 2, 1"),
    Mistake("C1", "Euler's stability limit for RK4", "h_max_rk4 = b2.z_rk4 / lam_fast",
            "h_max_rk4 = z_euler / lam_fast", "step limit of Euler"),
    Mistake("C2", "the loop one step short", "for k in range(n_steps):", "for k in range(n_steps - 1):",
            "loop must run"),
    Mistake("D2", "equal weights for the four slopes",
            "x = x + h_seed * (K1 + 2 * K2 + 2 * K3 + K4) / 6", "x = x + h_seed * (K1 + K2 + K3 + K4) / 4",
            "weights its slopes 1, 2, 2, 1"),
    Mistake("D2", "K4 at the middle of the step",
            "K4 = model.A_seed @ (x + h_seed * K3) + model.b_seed * r",
            "K4 = model.A_seed @ (x + h_seed * K3 / 2) + model.b_seed * r", "K4 is taken at the end"),
)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_convergence(study):
    """Lab 02: global error versus h (log-log) and versus the number of f evaluations.

    ``study`` is a :class:`ConvergenceStudy`.
    """
    fig, (ax, ax_cost) = subplots(1, 2, figsize=(10, 4))
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, errors) in enumerate(study.errors.items()):
        label = f"{labels[name]} (order {study.orders[name]:.2f})"
        ax.loglog(study.hs, errors, label=label, **line_style(i + 1))
        ax_cost.loglog(study.evaluations[name], errors, label=labels[name], **line_style(i + 1))
    ax.set(xlabel="step size h", ylabel="|y_N - y(2)|", title="Error versus step size")
    ax.legend()
    ax_cost.set(xlabel="evaluations of f", ylabel="|y_N - y(2)|", title="Error versus cost")
    ax_cost.legend()
    return fig


def plot_stiff(stiff):
    """Lab 02: the stiff system, RK4 near its step limit, implicit Euler and the exact update.

    ``stiff`` is a :class:`StiffComparison`.
    """
    fig, ax = subplots()
    for i, run in enumerate(stiff.runs):
        label = f"{run.method}, h = {run.h:g} ({run.steps} steps)"
        if run.diverged:
            # a diverged run has nothing to draw: say so in the legend
            ax.plot([], [], linestyle="none", marker="x", color="red", label=label + ": diverged")
            continue
        ax.plot(run.t, run.y, label=label, **line_style(i))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Stiff system 1000/((s+1)(s+1000)), unit step")
    ax.legend()
    return fig


def plot_seed_rk4(seed):
    """Lab 02: the seed's RK4 lab, response and error against the exact step response.

    ``seed`` is a :class:`SeedRK4Lab`.
    """
    fig, (ax, ax_err) = subplots(1, 2, figsize=(10, 4))
    h = seed.t[1] - seed.t[0]
    # exact first and wide, RK4 on top with markers, so that both stay visible
    ax.plot(seed.t, seed.exact, label="exact (scipy.signal.step)", color="0.6", linewidth=4)
    ax.plot(seed.t, seed.y, label=f"RK4, h = {h:g}", color="C0", linestyle="--", marker="o",
            markevery=0.1)
    ax.axhline(seed.steady_state, color="black", linestyle=":",
               label=f"final value {seed.steady_state:.4f}")
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Closed loop of 1/(s^3+4s^2+8s+5), step input")
    ax.legend()
    ax_err.semilogy(seed.t[1:], np.abs(seed.y - seed.exact)[1:], **line_style(0))
    ax_err.set(xlabel="t (s)", ylabel=r"$|y_{RK4} - y|$", title=f"RK4 error, h = {h:g}")
    return fig


def run():
    """Run lab 02 headless.

    Returns
    -------
    ExperimentResult
        Summary rows, four figures and ``data``, a :class:`Lab02Results`.
    """
    data = Lab02Results(
        convergence=convergence_study(),
        stiff=stiff_comparison(),
        seed=seed_rk4_lab(),
        stability={m: stability_grid(m) for m in ("euler", "heun", "rk4")},
        test_runs=test_equation_runs(),
    )
    study, stiff, seed = data.convergence, data.stiff, data.seed
    summary = []
    for method in ("euler", "heun", "rk4"):
        summary.append((f"measured order of {method}", f"{study.orders[method]:.3f}"))
    for method in ("euler", "rk4"):
        summary.append((f"real stability limit of {method} (h*lambda)", f"{real_stability_limit(method):.4f}"))
    summary.append(("stiff: RK4 step limit", f"{stiff.h_limit_rk4:.6f}"))
    for entry in stiff.runs:
        value = "diverged" if entry.diverged else f"{entry.max_error:.2e}"
        summary.append((f"stiff: {entry.method} h={entry.h:g} max error", value))
    summary.append(("seed RK4 lab: y(5)", f"{seed.y_final:.6f}"))
    summary.append(("seed RK4 lab: max error vs exact", f"{seed.max_error:.2e}"))
    summary.append(("seed RK4 lab: 2% settling time", f"{seed.settling_time:.2f}"))
    summary.append(("seed RK4 lab: RK4 step limit", f"{seed.h_limit['rk4']:.4f}"))
    return ExperimentResult(
        summary=summary,
        figures=[
            ("lab02_convergence", plot_convergence, study),
            ("lab02_stability_regions", plot_stability_regions, data.stability),
            ("lab02_stiff", plot_stiff, stiff),
            ("lab02_seed_rk4", plot_seed_rk4, seed),
        ],
        data=data,
    )
