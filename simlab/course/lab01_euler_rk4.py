"""Lab 01: Euler, improved Euler and RK4 on y' = t + y (seed 003, 实验一 面向微分方程的数值积分法仿真).

The seed experiment: y' = t + y, y(0) = 1, h = 0.1 on [0, 2], exact solution
y(t) = 2 e^t - t - 1. Euler's method, the improved Euler method and RK4 are compared with it,
and with ``scipy.integrate.solve_ivp`` as an independent cross-check.

The seed program's Euler line reads ``y1(i+1)=y1(i)+h*(2*h+y1(i))``; :func:`seed_euler_line`
replays it so that the lab can ask what it really computes.

The notebook's parameters, the span ``t0``, ``t1``, the step ``h`` and the initial value ``y0``,
are declared in :data:`PARAMETERS` (the notebook's parameter cell sets them and calls
:func:`use_parameters`); every self-check takes them as keywords, and the tasks are listed in
:data:`TASKS`.
"""

from __future__ import annotations

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
from simlab.course.parameters import Parameter, Parameters, divides, greater_than, positive, rule
from simlab.integrators import euler, heun, integrate, rk4
from simlab.plotting import line_style, subplots
from simlab.results import Result

__all__ = [
    "T_SPAN",
    "Y0",
    "H",
    "MethodComparison",
    "SeedEulerLine",
    "SolveIvpReference",
    "Lab01Results",
    "rhs",
    "exact",
    "compare_methods",
    "seed_euler_line",
    "solve_ivp_reference",
    "check_euler",
    "check_heun",
    "check_rk4",
    "check_errors",
    "check_exact",
    "check_solve_ivp",
    "check_seed_line_value",
    "check_seed_closed_form",
    "check_euler_closed_form",
    "PARAMETERS",
    "use_parameters",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
    "results",
    "run",
    "plot_lab01_methods",
]

#: Time span, initial value and step of the seed experiment.
T_SPAN = (0.0, 2.0)
T0, T1 = T_SPAN
Y0 = 1.0
H = 0.1


def _not_the_particular_solution(value, values):
    """True unless y0 = -(t0 + 1): then y = -t - 1, which every method reproduces exactly."""
    t0 = values.get("t0", T0)
    try:
        return abs(value + float(t0) + 1.0) > 1e-12
    except (TypeError, ValueError):
        return True  # t0's own rule reports it


#: The notebook's parameters (实验参数): the parameter cell sets them, every check follows them.
PARAMETERS = Parameters(
    Parameter("t0", T0, "", "start time t_0 of the span (初始时刻)",
              (rule("{name} is a finite real number", lambda value, values: True),), alternative=0.5),
    Parameter("t1", T1, "", "end time t_1 of the span (终止时刻)", (greater_than("t0"),), alternative=3.0),
    Parameter("h", H, "", "step size (步长) of every method", (positive(), divides(("t0", "t1"))),
              alternative=0.05),
    Parameter("y0", Y0, "", "initial value (初值) y(t_0)",
              (rule("{name} != -(t0 + 1) (else y = -t - 1, which every method reproduces without error)",
                    _not_the_particular_solution),), alternative=0.5),
)
use_parameters = PARAMETERS.use


def rhs(t, y):
    """Right-hand side of the seed ODE, dy/dt = t + y."""
    return t + y


def exact(t, t0=T0, y0=Y0):
    """Exact solution of y' = t + y, y(t0) = y0: y(t) = (y0 + t0 + 1) e^{t - t0} - t - 1.

    For the seed's y(0) = 1 this is 2 e^t - t - 1.
    """
    t = np.asarray(t, dtype=float)
    return (y0 + t0 + 1.0) * np.exp(t - t0) - t - 1.0


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MethodComparison(Result):
    """Euler, improved Euler and RK4 on the seed problem with one step h; unpacks as ``t, y``.

    The seed problem is dimensionless: t and y carry no unit.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid t_k = t0 + k h on [t0, t1], N = (t1 - t0) / h (the seed's [0, 2], N = 2 / h).
    y : dict of str -> ndarray, shape (N + 1,)
        Numerical solution y_k of each method, keyed by method name (``"euler"``, ``"heun"``,
        ``"rk4"``, the keys of :data:`simlab.integrators.METHODS`).
    exact : ndarray, shape (N + 1,)
        Exact solution y(t_k) on the grid (2 e^{t_k} - t_k - 1 for the seed's y(0) = 1).
    error_at_end : dict of str -> float
        Signed global error at the end of the span, y_N - y(t1), per method (keys as ``y``).
    h : float
        Step size h.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: dict
    exact: np.ndarray
    error_at_end: dict
    h: float


@dataclass(frozen=True)
class SeedEulerLine(Result):
    """What the seed program's Euler line computes; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid t_k = t0 + k h (dimensionless).
    y : ndarray, shape (N + 1,)
        The values y_k of the loop ``y1(i+1) = y1(i) + h*(2*h + y1(i))``, as printed in the seed.
    h : float
        Step size h.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    h: float


@dataclass(frozen=True)
class SolveIvpReference(Result):
    """The seed problem solved by ``scipy.integrate.solve_ivp``; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (M,)
        The requested output times (dimensionless), ``t_eval``.
    y : ndarray, shape (M,)
        The solution at those times.
    method : str
        The scipy method, ``"RK45"``.
    rtol, atol : float
        Relative and absolute tolerances of the run.
    nfev : int
        Evaluations of the right-hand side that scipy counted.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    method: str
    rtol: float
    atol: float
    nfev: int


@dataclass(frozen=True)
class Lab01Results:
    """Everything :func:`run` computes for lab 01.

    Attributes
    ----------
    comparison : MethodComparison
        The three methods with the seed's step h = 0.1 (:func:`compare_methods`).
    seed_line : SeedEulerLine
        The seed program's Euler line replayed (:func:`seed_euler_line`), shape (21,).
    solve_ivp : SolveIvpReference
        The scipy cross-check on 21 points of [0, 2] (:func:`solve_ivp_reference`).
    """

    comparison: MethodComparison
    seed_line: SeedEulerLine
    solve_ivp: SolveIvpReference


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def compare_methods(h=H, t0=T0, t1=T1, y0=Y0):
    """Solve the seed problem by Euler, improved Euler and RK4 with step ``h`` (from y(t0) = y0 to t1).

    ``h``, ``t0``, ``t1`` and ``y0`` are the notebook's parameters (:data:`PARAMETERS`); ``h``
    must divide t1 - t0.

    Returns
    -------
    MethodComparison
        Grid ``t``, the solutions ``y`` and the errors ``error_at_end`` by method name, and the
        ``exact`` solution on the grid.

    Examples
    --------
    >>> from simlab.course.lab01_euler_rk4 import compare_methods
    >>> comparison = compare_methods(0.1)
    >>> t, y = comparison
    >>> t.shape, sorted(y), round(comparison.error_at_end["euler"], 4)
    ((21,), ['euler', 'heun', 'rk4'], -1.3231)
    """
    solutions = {}
    for name, method in (("euler", euler), ("heun", heun), ("rk4", rk4)):
        trajectory = method(rhs, (t0, t1), y0, h)
        solutions[name] = trajectory.x
    y_exact = exact(trajectory.t, t0, y0)
    return MethodComparison(
        t=trajectory.t,
        y=solutions,
        exact=y_exact,
        error_at_end={name: float(y[-1] - y_exact[-1]) for name, y in solutions.items()},
        h=trajectory.h,
    )


def seed_euler_line(h=H, t_span=T_SPAN, y0=Y0):
    """Replay the seed program's Euler loop ``y1(i+1) = y1(i) + h*(2*h + y1(i))`` exactly.

    The line uses the constant ``2*h`` where the slope needs ``t_i``: it is Euler's method for
    y' = y + 2h, not for y' = t + y. Its closed form is y_n = (y0 + 2h)(1 + h)^n - 2h.

    Returns
    -------
    SeedEulerLine
        Unpacks as ``t, y``: the grid and the values the seed program computes.
    """
    t0, t1 = t_span
    n = round((t1 - t0) / h)
    y = np.empty(n + 1)
    y[0] = y0
    for i in range(n):
        y[i + 1] = y[i] + h * (2 * h + y[i])  # the seed's line, as printed
    return SeedEulerLine(t=t0 + h * np.arange(n + 1), y=y, h=h)


def solve_ivp_reference(t_eval=None, rtol=1e-12, atol=1e-12, t0=T0, t1=T1, y0=Y0):
    """The seed problem solved by ``scipy.integrate.solve_ivp`` (RK45, tight tolerances).

    This is the Python counterpart of the seed's "选用MATLAB ode函数完成" (use MATLAB's ode45).

    Returns
    -------
    SolveIvpReference
        Unpacks as ``t, y``; ``t`` is ``t_eval`` (default: 21 points of [0, 2]).
    """
    from scipy.integrate import solve_ivp

    if t_eval is None:
        t_eval = np.linspace(t0, t1, 21)
    solution = solve_ivp(rhs, (t0, t1), [y0], t_eval=t_eval, rtol=rtol, atol=atol, method="RK45")
    return SolveIvpReference(t=solution.t, y=solution.y[0], method="RK45", rtol=rtol, atol=atol,
                             nfev=int(solution.nfev))


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the notebook's parameters h, t0, t1, y0 (:data:`PARAMETERS`; the lab's
# values by default) and passes them to every alternative, so that a correct answer stays correct
# when a student changes them.
# ---------------------------------------------------------------------------------------------


def _replay(step, h=H, t0=T0, t1=T1, y0=Y0):
    """Run y_{k+1} = step(t_k, y_k, h) on the grid of (h, t0, t1): the scaffold of the mistakes."""
    n = round((t1 - t0) / h)
    y = np.empty(n + 1)
    y[0] = y0
    for k in range(n):
        y[k + 1] = step(t0 + k * h, y[k], h)
    return y


def _euler_with_next_time(h=H, t0=T0, t1=T1, y0=Y0):
    """Euler with the slope evaluated at t_{k+1} instead of t_k (a common slip)."""
    return _replay(lambda t, y, h: y + h * rhs(t + h, y), h, t0, t1, y0)


def _rk4_full_steps(t, y, h):
    k1 = rhs(t, y)
    k2 = rhs(t + h, y + h * k1)
    k3 = rhs(t + h, y + h * k2)
    k4 = rhs(t + h, y + h * k3)
    return y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def _rk4_without_half_steps(h=H, t0=T0, t1=T1, y0=Y0):
    """RK4 with h instead of h/2 inside K2 and K3 (another common slip)."""
    return _replay(_rk4_full_steps, h, t0, t1, y0)


def _heun_without_time_advance(h=H, t0=T0, t1=T1, y0=Y0):
    """Improved Euler with the corrector slope taken at t_k instead of t_{k+1} (a common slip)."""
    return _replay(lambda t, y, h: y + h / 2 * (rhs(t, y) + rhs(t, y + h * rhs(t, y))), h, t0, t1, y0)


def _euler_without_h(h=H, t0=T0, t1=T1, y0=Y0):
    """Euler with the slope added without the factor h, y_{k+1} = y_k + f(t_k, y_k) (a common slip)."""
    return _replay(lambda t, y, h: y + rhs(t, y), h, t0, t1, y0)


def _heun_without_half(h=H, t0=T0, t1=T1, y0=Y0):
    """Improved Euler with h (K1 + K2) instead of h/2 (K1 + K2): the slopes added, not averaged."""
    return _replay(lambda t, y, h: y + h * (rhs(t, y) + rhs(t + h, y + h * rhs(t, y))), h, t0, t1, y0)


def _heun_slope_at_old_value(h=H, t0=T0, t1=T1, y0=Y0):
    """Improved Euler with K2 = f(t_k + h, y_k): the second slope without the Euler predictor."""
    return _replay(lambda t, y, h: y + h / 2 * (rhs(t, y) + rhs(t + h, y)), h, t0, t1, y0)


def _rk4_variant(t, y, h, weights=(1, 2, 2, 1), k3_from=2):
    """One RK4 step with other weights, or with K3 computed from K1 (``k3_from=1``): the slips of Task 3b."""
    k1 = rhs(t, y)
    k2 = rhs(t + h / 2, y + h / 2 * k1)
    k3 = rhs(t + h / 2, y + h / 2 * (k2 if k3_from == 2 else k1))
    k4 = rhs(t + h, y + h * k3)
    return y + h * (weights[0] * k1 + weights[1] * k2 + weights[2] * k3 + weights[3] * k4) / sum(weights)


def _rk4_equal_weights(h=H, t0=T0, t1=T1, y0=Y0):
    """RK4 with the four slopes averaged with equal weights, h/4 (K1 + K2 + K3 + K4)."""
    return _replay(lambda t, y, h: _rk4_variant(t, y, h, weights=(1, 1, 1, 1)), h, t0, t1, y0)


def _rk4_k3_from_k1(h=H, t0=T0, t1=T1, y0=Y0):
    """RK4 with K3 = f(t_k + h/2, y_k + h/2 K1): K1 copied where K2 belongs (K3 equals K2)."""
    return _replay(lambda t, y, h: _rk4_variant(t, y, h, k3_from=1), h, t0, t1, y0)


def _solutions(h, t0, t1, y0):
    """The three library solutions on the grid of (h, t0, t1) from y0, by method name."""
    return {name: integrate(rhs, (t0, t1), y0, h, name).x for name in ("euler", "heun", "rk4")}


def check_euler(y_euler, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of a student's Euler solution y_0 .. y_N of the seed problem (Task 2)."""
    reference = _solutions(h, t0, t1, y0)
    return check_array(
        "Euler solution y_k",
        y_euler,
        reference["euler"],
        what="y_k",
        alternatives=[
            (seed_euler_line(h, (t0, t1), y0).y, "these are the seed program's numbers: its line uses "
             "2*h where the slope needs t_k. Use y[k+1] = y[k] + h*(t[k] + y[k])."),
            (_euler_with_next_time(h, t0, t1, y0), "close: did you use t_{k+1} instead of t_k in the "
             "slope? Euler's method takes the slope at the start of the step."),
            (_euler_without_h(h, t0, t1, y0), "the factor h is missing: a step adds h times the slope, "
             "y[k+1] = y[k] + h*f(t[k], y[k]), not the slope itself."),
            (reference["heun"], "these are improved-Euler (Heun) values; plain Euler uses one slope "
             "per step."),
            (reference["rk4"], "these are RK4 values; plain Euler uses one slope per step."),
            (exact(t0 + h * np.arange(len(reference["euler"])), t0, y0),
             "these are the exact values, not Euler's."),
        ],
    )


def check_heun(y_heun, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of a student's improved-Euler solution of the seed problem (Task 3a)."""
    reference = _solutions(h, t0, t1, y0)
    return check_array(
        "improved Euler solution y_k",
        y_heun,
        reference["heun"],
        what="y_k",
        alternatives=[
            (reference["euler"], "these are plain Euler values; the improved method averages the "
             "slope at t_k and the slope at the predicted point at t_{k+1}."),
            (_heun_without_time_advance(h, t0, t1, y0), "the second slope K2 belongs to the end of "
             "the step: evaluate f at t_k + h (and y_k + h K1), not at t_k."),
            (_heun_without_half(h, t0, t1, y0), "the two slopes are averaged, not added: the factor 1/2 is "
             "missing, y_{k+1} = y_k + h/2 (K1 + K2) (the trapezoidal rule)."),
            (_heun_slope_at_old_value(h, t0, t1, y0), "K2 is the slope at the Euler predictor: f(t_k + h, "
             "y_k + h K1), not f(t_k + h, y_k)."),
        ],
    )


def check_rk4(y_rk4, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of a student's RK4 solution of the seed problem (Task 3b)."""
    reference = _solutions(h, t0, t1, y0)
    return check_array(
        "RK4 solution y_k",
        y_rk4,
        reference["rk4"],
        what="y_k",
        alternatives=[
            (_rk4_without_half_steps(h, t0, t1, y0), "K2 and K3 are taken at the middle of the step: "
             "use t_k + h/2 and y_k + h*K/2, not t_k + h."),
            (_rk4_equal_weights(h, t0, t1, y0), "RK4 weights its slopes 1, 2, 2, 1 and divides by 6: "
             "y_k + h/6 (K1 + 2 K2 + 2 K3 + K4), not the plain average h/4 (K1 + K2 + K3 + K4)."),
            (_rk4_k3_from_k1(h, t0, t1, y0), "K3 uses K2, not K1: K3 = f(t_k + h/2, y_k + h/2 K2) (with K1 "
             "it repeats K2)."),
            (reference["euler"], "these are Euler values."),
        ],
    )


def check_errors(err_euler, err_heun, err_rk4, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of the global errors e_k = y_k - y(t_k) of the three library runs (Task 4)."""
    reference = _solutions(h, t0, t1, y0)
    y_exact = exact(t0 + h * np.arange(len(reference["euler"])), t0, y0)
    results = []
    for label, key, err in (("Euler", "euler", err_euler), ("improved Euler", "heun", err_heun),
                            ("RK4", "rk4", err_rk4)):
        ref = reference[key] - y_exact
        results.append(check_array(
            f"{label} errors e_k", err, ref, what="errors",
            alternatives=[(-ref, "the sign is reversed: e_k = y_k - y(t_k), numerical minus exact.")]))
    return all_of("errors e_k of the three methods", results)


def check_exact(y_exact_expr, t0=T0, y0=Y0):
    """Self-check of the exact solution y(t) found with sympy, an expression in ``t`` (Task 1)."""
    import sympy as sp

    def result(passed, message):
        return CheckResult(passed, "exact solution", message)

    try:
        expr = sp.sympify(y_exact_expr)
    except (sp.SympifyError, TypeError):
        return result(False, f"expected a sympy expression in t, got {y_exact_expr!r}.")
    if isinstance(expr, sp.Equality):  # dsolve returns Eq(y(t), ...)
        expr = expr.rhs
    names = {symbol.name for symbol in expr.free_symbols}
    if names - {"t"}:
        return result(False, f"the expression still contains {sorted(names - {'t'})}; use the initial "
                      f"condition y({t0:g}) = {y0:g} to fix the constant (ics= in dsolve).")
    t = sp.Symbol("t")
    expr = expr.subs({symbol: t for symbol in expr.free_symbols})
    residual = sp.simplify(sp.diff(expr, t) - (t + expr))
    if residual != 0 and not _vanishes(residual, expr, t, t0):
        return result(False, f"y' - (t + y) = {sp.sstr(residual)}, not zero.")
    start = sp.nsimplify(t0)
    if not _same_number(expr.subs(t, start), y0):  # dsolve with float ics gives float constants
        if t0 != 0 and _same_number(expr.subs(t, 0), y0):
            return result(False, f"y(0) = {y0:g}, but the initial condition belongs at t0 = {t0:g}: "
                          f"ics={{y(t0): y0}}, not y(0).")
        return result(False, f"y({t0:g}) = {sp.sstr(expr.subs(t, start))}, but the initial value is {y0:g}.")
    return result(True, f"y(t) = {sp.sstr(expr)} satisfies y' = t + y and y({t0:g}) = {y0:g}.")


def _same_number(value, number, rtol=1e-9):
    """True if the sympy expression ``value`` (no free symbols) equals ``number`` to ``rtol``."""
    try:
        value = complex(value.evalf(30))
    except (TypeError, ValueError):
        return False
    return abs(value - number) <= rtol * max(1.0, abs(number))


def _vanishes(residual, expr, t, t0, rtol=1e-9):
    """True if ``residual`` is zero, to rounding, at points of [t0, t0 + 2] (float constants of dsolve)."""
    for point in t0 + np.linspace(0.0, 2.0, 5):
        try:
            scale = max(1.0, abs(complex(expr.subs(t, point).evalf(30))))
        except (TypeError, ValueError):
            return False
        if not _same_number(residual.subs(t, point) / scale, 0.0, rtol):
            return False
    return True


def check_solve_ivp(y_ivp, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of the solve_ivp solution on the grid, with tight tolerances (Task 5)."""
    from scipy.integrate import solve_ivp

    t = t0 + h * np.arange(round((t1 - t0) / h) + 1)
    default = solve_ivp(rhs, (t0, t1), [y0], t_eval=t).y[0]
    return check_array(
        "solve_ivp solution", y_ivp, exact(t, t0, y0), rtol=1e-8, atol=1e-10, what="values",
        alternatives=[(default, "these are solve_ivp's values with its default tolerances "
                       "(rtol=1e-3, atol=1e-6); pass rtol=1e-10 and atol=1e-12.")],
    )


def check_seed_line_value(y_seed_at_2, h=H, t0=T0, t1=T1, y0=Y0):
    """Self-check of the value at t = t1 that the seed's Euler line computes (Task 6b)."""
    return check_value(
        f"seed Euler line at t = {t1:g}",
        y_seed_at_2,
        seed_euler_line(h, (t0, t1), y0).y[-1],
        rtol=1e-6,
        alternatives=[
            (_solutions(h, t0, t1, y0)["euler"][-1], "that is what correct Euler gives; replay the "
             "seed's line exactly as printed."),
            (float(exact(t1, t0, y0)), "that is the exact solution; replay the seed's line."),
            (seed_euler_line(h, (t0, t1), y0).y[-2], f"that is the seed line's value at t = {t1 - h:g}, one "
             f"step before t1: the N + 1 points end with y_seed[N] (y_seed[-1]), not y_seed[N - 1] (MATLAB's "
             f"y(N) is Python's y[N - 1])."),
        ],
    )


def _closed_form(title, expression, expected, symbols):
    """Compare a sympy closed form in n, h, y_0 with the expected one, symbolically."""
    import sympy as sp

    try:
        expr = sp.sympify(expression)
    except (sp.SympifyError, TypeError):
        return CheckResult(False, title, f"expected a sympy expression in n and h, got {expression!r}.")
    names = {symbol.name: symbol for symbol in expr.free_symbols}
    expr = expr.subs({names[name]: symbol for name, symbol in symbols.items() if name in names})
    difference = sp.simplify(expr - expected)
    if difference == 0:
        return CheckResult(True, title, f"y_n = {sp.sstr(expected)}, as the recurrence gives.")
    return CheckResult(False, title, f"your closed form differs from the recurrence's solution by "
                       f"{sp.sstr(difference)}; rsolve(recurrence, Y(n), {{Y(0): y_0}}) gives it.")


def check_seed_closed_form(seed_closed_form):
    """Self-check of the closed form of the seed's recurrence, y_n = (y_0 + 2h)(1 + h)^n - 2h (Task 6c)."""
    n, h, y0 = _symbols()
    return _closed_form("closed form of the seed's line", seed_closed_form,
                        (y0 + 2 * h) * (1 + h) ** n - 2 * h, {"n": n, "h": h, "y_0": y0})


def _symbols():
    """The symbols n, h, y_0 of Tasks 6c and 7, with the notebook's assumptions."""
    import sympy as sp

    return sp.Symbol("n", integer=True, nonnegative=True), *sp.symbols("h y_0", positive=True)


def check_euler_closed_form(euler_closed_form):
    """Self-check of the closed form of Euler's recurrence from t_0 = 0, y_n = (y_0 + 1)(1 + h)^n - t_n - 1 (Task 7)."""
    n, h, y0 = _symbols()
    return _closed_form("closed form of Euler's recurrence", euler_closed_form,
                        (y0 + 1) * (1 + h) ** n - n * h - 1, {"n": n, "h": h, "y_0": y0})


def _closed_forms():
    """Reference answers of Tasks 6c and 7 (sympy expressions in n, h, y_0)."""
    n, h, y0 = _symbols()
    return {"seed_closed_form": (y0 + 2 * h) * (1 + h) ** n - 2 * h,
            "euler_closed_form": (y0 + 1) * (1 + h) ** n - n * h - 1}


def _reference(h=H, t0=T0, t1=T1, y0=Y0):
    """Reference answers of Tasks 2-5 (the library's runs, their errors, solve_ivp)."""
    solutions = _solutions(h, t0, t1, y0)
    t = t0 + h * np.arange(len(solutions["euler"]))
    y_exact = exact(t, t0, y0)
    answers = {f"y_{key}": y for key, y in solutions.items()}
    answers.update({f"y_{key}_lib": y for key, y in solutions.items()})
    answers.update({f"err_{key}": y - y_exact for key, y in solutions.items()})
    answers.update(t_lib=t, y_seed=seed_euler_line(h, (t0, t1), y0).y)
    answers["y_seed_at_2"] = answers["y_seed"][-1]
    answers["y_ivp"] = solve_ivp_reference(t, rtol=1e-10, atol=1e-12, t0=t0, t1=t1, y0=y0).y
    answers["sol_ivp"] = _solve_ivp(h, t0, t1, y0)
    return answers


def _solve_ivp(h, t0, t1, y0):
    """The solve_ivp result object of Task 5 (RK45, rtol 1e-10, atol 1e-12 on the grid)."""
    from scipy.integrate import solve_ivp

    t = t0 + h * np.arange(round((t1 - t0) / h) + 1)
    return solve_ivp(rhs, (t0, t1), [y0], method="RK45", t_eval=t, rtol=1e-10, atol=1e-12)


def _exact_expression(t0=T0, y0=Y0):
    import sympy as sp

    t = sp.Symbol("t")
    start = sp.nsimplify(t0)
    return {"y_exact_expr": (sp.nsimplify(y0) + start + 1) * sp.exp(t - start) - t - 1}


#: The parameters of the grid and the initial value: Tasks 2 to 6b follow all four.
_GRID = ("h", "t0", "t1", "y0")

#: The tasks of lab 01, by their label in the notebook.
TASKS = Tasks(
    Task("1", ("y_exact_expr",), check_exact, ("t0", "y0"), _exact_expression, "the analytic solution with sympy"),
    Task("2", ("y_euler",), check_euler, _GRID, _reference, "Euler's method by hand"),
    Task("3a", ("y_heun",), check_heun, _GRID, _reference, "improved Euler by hand"),
    Task("3b", ("y_rk4",), check_rk4, _GRID, _reference, "RK4 by hand"),
    Task("4", ("err_euler", "err_heun", "err_rk4"), check_errors, _GRID, _reference,
         "the library integrators and their errors", also=("y_euler_lib", "y_heun_lib", "y_rk4_lib", "t_lib")),
    Task("5", ("y_ivp",), check_solve_ivp, _GRID, _reference, "cross-check with solve_ivp",
         also=("sol_ivp",)),
    Task("6b", ("y_seed_at_2",), check_seed_line_value, _GRID, _reference, "the seed's Euler line replayed",
         also=("y_seed",)),
    Task("6c", ("seed_closed_form",), check_seed_closed_form, (), _closed_forms, "the closed form of the seed's line"),
    Task("7", ("euler_closed_form",), check_euler_closed_form, (), _closed_forms, "the closed form of Euler's error"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("1", "dsolve without the initial condition",
            ", ics={y(t0): y0})", ")", "initial condition"),
    Mistake("2", "the seed's 2*h in place of t_k",
            "h * f(t[k], y_euler[k])", "h * (2 * h + y_euler[k])", "seed program's numbers"),
    Mistake("2", "slope at t_{k+1}",
            "h * f(t[k], y_euler[k])", "h * f(t[k + 1], y_euler[k])", "t_{k+1} instead of t_k"),
    Mistake("2", "the initial value left out",
            "### END SOLUTION\nprint(f\"Euler:", "y_euler = y_euler[1:]  # only the computed steps\n### END SOLUTION\n"
            "print(f\"Euler:", "initial value at t0"),
    Mistake("3a", "corrector slope at t_k",
            "K2 = f(t[k] + h, y_heun[k] + h * K1)", "K2 = f(t[k], y_heun[k] + h * K1)", "end of the step"),
    Mistake("3b", "full steps in K2 and K3",
            "K2 = f(t[k] + h / 2, y_rk4[k] + h / 2 * K1)\n    K3 = f(t[k] + h / 2, y_rk4[k] + h / 2 * K2)",
            "K2 = f(t[k] + h, y_rk4[k] + h * K1)\n    K3 = f(t[k] + h, y_rk4[k] + h * K2)", "middle of the step"),
    Mistake("4", "errors as exact minus numerical",
            "err_euler = y_euler_lib - y_exact\nerr_heun = y_heun_lib - y_exact\nerr_rk4 = y_rk4_lib - y_exact",
            "err_euler = y_exact - y_euler_lib\nerr_heun = y_exact - y_heun_lib\nerr_rk4 = y_exact - y_rk4_lib",
            "sign is reversed"),
    Mistake("5", "solve_ivp with its default tolerances",
            ', method="RK45", t_eval=t, rtol=1e-10, atol=1e-12)', ', method="RK45", t_eval=t)',
            "default tolerances"),
    Mistake("6b", "correct Euler instead of the seed's line",
            "y_seed[i] + h * (2 * h + y_seed[i])", "y_seed[i] + h * (t[i] + y_seed[i])", "correct Euler gives"),
    # (tests/test_grade.py injects these by position: new mistakes go at the end)
    Mistake("2", "the factor h left out",
            "h * f(t[k], y_euler[k])", "f(t[k], y_euler[k])", "the factor h is missing"),
    Mistake("3a", "the two slopes added, not averaged",
            "y_heun[k] + h / 2 * (K1 + K2)", "y_heun[k] + h * (K1 + K2)", "the factor 1/2"),
    Mistake("3a", "K2 without the Euler predictor",
            "K2 = f(t[k] + h, y_heun[k] + h * K1)", "K2 = f(t[k] + h, y_heun[k])", "slope at the Euler predictor"),
    Mistake("3b", "equal weights for the four slopes",
            "y_rk4[k] + h / 6 * (K1 + 2 * K2 + 2 * K3 + K4)", "y_rk4[k] + h / 4 * (K1 + K2 + K3 + K4)",
            "weights its slopes 1, 2, 2, 1"),
    Mistake("3b", "K3 computed from K1",
            "K3 = f(t[k] + h / 2, y_rk4[k] + h / 2 * K2)", "K3 = f(t[k] + h / 2, y_rk4[k] + h / 2 * K1)",
            "K3 uses K2"),
    Mistake("6b", "the value one step before t1",
            "y_seed_at_2 = y_seed[-1]", "y_seed_at_2 = y_seed[N - 1]", "one step before t1"),
)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_lab01_methods(data):
    """Lab 01: Euler, improved Euler, RK4, the seed's Euler line and the exact solution.

    ``data`` is the :class:`Lab01Results` of :func:`run`.
    """
    comparison = data.comparison
    t = comparison.t
    fig, (ax, ax_err) = subplots(1, 2, figsize=(10, 4))
    t_fine = np.linspace(t[0], t[-1], 400)
    ax.plot(t_fine, exact(t_fine, t[0], comparison.exact[0]), color="black", label="exact solution")
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, y) in enumerate(comparison.y.items(), start=1):
        ax.plot(t, y, label=labels[name], **line_style(i))
        ax_err.semilogy(t[1:], np.abs(y - comparison.exact)[1:], label=labels[name], **line_style(i))
    t_seed, y_seed = data.seed_line
    ax.plot(t_seed, y_seed, color="gray", label="seed's Euler line", **line_style(4))
    y0 = comparison.exact[0]
    ax.set(xlabel="t", ylabel="y(t)", title=f"y' = t + y, y({t[0]:g}) = {y0:g}, h = {comparison.h:g}")
    ax.legend()
    ax_err.set(xlabel="t", ylabel=r"$|y_k - y(t_k)|$", title="Global error")
    ax_err.legend()
    return fig


def results(h=H, t0=T0, t1=T1, y0=Y0):
    """The lab's experiments for the parameters (h, t0, t1, y0): the methods, the seed's line, solve_ivp.

    Returns
    -------
    Lab01Results
    """
    return Lab01Results(
        comparison=compare_methods(h, t0, t1, y0),
        seed_line=seed_euler_line(h, (t0, t1), y0),
        solve_ivp=solve_ivp_reference(np.linspace(t0, t1, round((t1 - t0) / h) + 1), t0=t0, t1=t1, y0=y0),
    )


def run():
    """Run lab 01 headless: the three methods, the seed's line and the solve_ivp cross-check.

    Returns
    -------
    ExperimentResult
        Summary rows, the figure ``lab01_methods`` and ``data``, a :class:`Lab01Results`.
    """
    data = results()
    comparison, y_ivp = data.comparison, data.solve_ivp.y
    summary = [
        ("h", f"{H:g}"),
        ("exact y(2) = 2e^2 - 3", f"{comparison.exact[-1]:.6f}"),
    ]
    for name, label in (("euler", "Euler"), ("heun", "improved Euler"), ("rk4", "RK4")):
        summary.append((f"{label} y(2)", f"{comparison.y[name][-1]:.6f}"))
        summary.append((f"{label} error at t=2", f"{comparison.error_at_end[name]:.3e}"))
    summary.append(("seed Euler line y(2)", f"{data.seed_line.y[-1]:.6f}"))
    agrees = abs(y_ivp[-1] - comparison.exact[-1]) < 1e-8
    summary.append(("solve_ivp (RK45, rtol 1e-12) y(2)", f"{y_ivp[-1]:.6f}"))
    summary.append(("solve_ivp within 1e-8 of exact", "yes" if agrees else "NO"))
    return ExperimentResult(
        summary=summary,
        figures=[("lab01_methods", plot_lab01_methods, data)],
        data=data,
    )
