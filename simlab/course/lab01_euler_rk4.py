"""Lab 01: Euler, improved Euler and RK4 on y' = t + y (seed 003, 实验一 面向微分方程的数值积分法仿真).

The seed experiment: y' = t + y, y(0) = 1, h = 0.1 on [0, 2], exact solution
y(t) = 2 e^t - t - 1. Euler's method, the improved Euler method and RK4 are compared with it,
and with ``scipy.integrate.solve_ivp`` as an independent cross-check.

The seed program's Euler line reads ``y1(i+1)=y1(i)+h*(2*h+y1(i))``; :func:`seed_euler_line`
replays it so that the lab can ask what it really computes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import check_array, check_value
from simlab.integrators import euler, heun, rk4
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
    "check_exact",
    "check_seed_line_value",
    "run",
    "plot_lab01_methods",
]

#: Time span, initial value and step of the seed experiment.
T_SPAN = (0.0, 2.0)
Y0 = 1.0
H = 0.1


def rhs(t, y):
    """Right-hand side of the seed ODE, dy/dt = t + y."""
    return t + y


def exact(t):
    """Exact solution y(t) = 2 e^t - t - 1 of y' = t + y, y(0) = 1."""
    t = np.asarray(t, dtype=float)
    return 2.0 * np.exp(t) - t - 1.0


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
        Time grid t_k = k h on [0, 2], N = 2 / h.
    y : dict of str -> ndarray, shape (N + 1,)
        Numerical solution y_k of each method, keyed by method name (``"euler"``, ``"heun"``,
        ``"rk4"``, the keys of :data:`simlab.integrators.METHODS`).
    exact : ndarray, shape (N + 1,)
        Exact solution y(t_k) = 2 e^{t_k} - t_k - 1 on the grid.
    error_at_end : dict of str -> float
        Signed global error at the end of the span, y_N - y(2), per method (keys as ``y``).
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


def compare_methods(h=H):
    """Solve the seed problem by Euler, improved Euler and RK4 with step ``h``.

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
        trajectory = method(rhs, T_SPAN, Y0, h)
        solutions[name] = trajectory.x
    y_exact = exact(trajectory.t)
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


def solve_ivp_reference(t_eval=None, rtol=1e-12, atol=1e-12):
    """The seed problem solved by ``scipy.integrate.solve_ivp`` (RK45, tight tolerances).

    This is the Python counterpart of the seed's "选用MATLAB ode函数完成" (use MATLAB's ode45).

    Returns
    -------
    SolveIvpReference
        Unpacks as ``t, y``; ``t`` is ``t_eval`` (default: 21 points of [0, 2]).
    """
    from scipy.integrate import solve_ivp

    if t_eval is None:
        t_eval = np.linspace(*T_SPAN, 21)
    solution = solve_ivp(rhs, T_SPAN, [Y0], t_eval=t_eval, rtol=rtol, atol=atol, method="RK45")
    return SolveIvpReference(t=solution.t, y=solution.y[0], method="RK45", rtol=rtol, atol=atol,
                             nfev=int(solution.nfev))


# ---------------------------------------------------------------------------------------------
# Typical mistakes, for the hints of the self-checks.
# ---------------------------------------------------------------------------------------------


def _replay(step, h=H):
    """Run y_{k+1} = step(t_k, y_k, h) over the seed grid: the scaffold of the mistakes below."""
    n = round((T_SPAN[1] - T_SPAN[0]) / h)
    y = np.empty(n + 1)
    y[0] = Y0
    for k in range(n):
        y[k + 1] = step(T_SPAN[0] + k * h, y[k], h)
    return y


def _euler_with_next_time(h=H):
    """Euler with the slope evaluated at t_{k+1} instead of t_k (a common slip)."""
    return _replay(lambda t, y, h: y + h * rhs(t + h, y), h)


def _rk4_full_steps(t, y, h):
    k1 = rhs(t, y)
    k2 = rhs(t + h, y + h * k1)
    k3 = rhs(t + h, y + h * k2)
    k4 = rhs(t + h, y + h * k3)
    return y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def _rk4_without_half_steps(h=H):
    """RK4 with h instead of h/2 inside K2 and K3 (another common slip)."""
    return _replay(_rk4_full_steps, h)


def _heun_without_time_advance(h=H):
    """Improved Euler with the corrector slope taken at t_k instead of t_{k+1} (a common slip)."""
    return _replay(lambda t, y, h: y + h / 2 * (rhs(t, y) + rhs(t, y + h * rhs(t, y))), h)


def check_euler(y, h=H):
    """Self-check of a student's Euler solution y_0 .. y_N of the seed problem."""
    reference = euler(rhs, T_SPAN, Y0, h).x
    return check_array(
        "Euler solution y_k",
        y,
        reference,
        what="y_k",
        alternatives=[
            (seed_euler_line(h).y, "these are the seed program's numbers: its line uses 2*h "
             "where the slope needs t_k. Use y[k+1] = y[k] + h*(t[k] + y[k])."),
            (_euler_with_next_time(h), "close: did you use t_{k+1} instead of t_k in the slope? "
             "Euler's method takes the slope at the start of the step."),
            (heun(rhs, T_SPAN, Y0, h).x, "these are improved-Euler (Heun) values; plain Euler "
             "uses one slope per step."),
            (rk4(rhs, T_SPAN, Y0, h).x, "these are RK4 values; plain Euler uses one slope per step."),
            (exact(np.linspace(*T_SPAN, len(reference))), "these are the exact values, not Euler's."),
        ],
    )


def check_heun(y, h=H):
    """Self-check of a student's improved-Euler solution of the seed problem."""
    reference = heun(rhs, T_SPAN, Y0, h).x
    return check_array(
        "improved Euler solution y_k",
        y,
        reference,
        what="y_k",
        alternatives=[
            (euler(rhs, T_SPAN, Y0, h).x, "these are plain Euler values; the improved method "
             "averages the slope at t_k and the slope at the predicted point at t_{k+1}."),
            (_heun_without_time_advance(h), "the second slope K2 belongs to the end of the step: "
             "evaluate f at t_k + h (and y_k + h K1), not at t_k."),
        ],
    )


def check_rk4(y, h=H):
    """Self-check of a student's RK4 solution of the seed problem."""
    reference = rk4(rhs, T_SPAN, Y0, h).x
    return check_array(
        "RK4 solution y_k",
        y,
        reference,
        what="y_k",
        alternatives=[
            (_rk4_without_half_steps(h), "K2 and K3 are taken at the middle of the step: use "
             "t_k + h/2 and y_k + h*K/2, not t_k + h."),
            (euler(rhs, T_SPAN, Y0, h).x, "these are Euler values."),
        ],
    )


def check_exact(expression):
    """Self-check of the exact solution y(t) found with sympy (an expression in ``t``)."""
    import sympy as sp

    from simlab.course.check import CheckResult

    def result(passed, message):
        return CheckResult(passed, "exact solution", message)

    try:
        expr = sp.sympify(expression)
    except (sp.SympifyError, TypeError):
        return result(False, f"expected a sympy expression in t, got {expression!r}.")
    if isinstance(expr, sp.Equality):  # dsolve returns Eq(y(t), ...)
        expr = expr.rhs
    names = {symbol.name for symbol in expr.free_symbols}
    if names - {"t"}:
        return result(False, f"the expression still contains {sorted(names - {'t'})}; "
                      "use the initial condition y(0) = 1 to fix the constant (ics= in dsolve).")
    t = sp.Symbol("t")
    expr = expr.subs({symbol: t for symbol in expr.free_symbols})
    residual = sp.simplify(sp.diff(expr, t) - (t + expr))
    if residual != 0:
        return result(False, f"y' - (t + y) = {sp.sstr(residual)}, not zero.")
    if sp.simplify(expr.subs(t, 0) - 1) != 0:
        return result(False, f"y(0) = {sp.sstr(expr.subs(t, 0))}, but the initial value is 1.")
    return result(True, f"y(t) = {sp.sstr(expr)} satisfies y' = t + y and y(0) = 1.")


def check_seed_line_value(value, h=H):
    """Self-check of the value at t = 2 that the seed's Euler line computes."""
    return check_value(
        "seed Euler line at t = 2",
        value,
        seed_euler_line(h).y[-1],
        rtol=1e-6,
        alternatives=[
            (euler(rhs, T_SPAN, Y0, h).final, "that is what correct Euler gives; replay the seed's "
             "line exactly as printed."),
            (float(exact(2.0)), "that is the exact solution; replay the seed's line."),
        ],
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
    ax.plot(t_fine, 2 * np.exp(t_fine) - t_fine - 1, color="black", label="exact $2e^t - t - 1$")
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, y) in enumerate(comparison.y.items(), start=1):
        ax.plot(t, y, label=labels[name], **line_style(i))
        ax_err.semilogy(t[1:], np.abs(y - comparison.exact)[1:], label=labels[name], **line_style(i))
    t_seed, y_seed = data.seed_line
    ax.plot(t_seed, y_seed, color="gray", label="seed's Euler line", **line_style(4))
    ax.set(xlabel="t", ylabel="y(t)", title="y' = t + y, y(0) = 1, h = 0.1")
    ax.legend()
    ax_err.set(xlabel="t", ylabel=r"$|y_k - y(t_k)|$", title="Global error")
    ax_err.legend()
    return fig


def run():
    """Run lab 01 headless: the three methods, the seed's line and the solve_ivp cross-check.

    Returns
    -------
    ExperimentResult
        Summary rows, the figure ``lab01_methods`` and ``data``, a :class:`Lab01Results`.
    """
    data = Lab01Results(
        comparison=compare_methods(),
        seed_line=seed_euler_line(),
        solve_ivp=solve_ivp_reference(),
    )
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
