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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import CheckResult, check_array, check_value
from simlab.course.systems import (
    SEED_R,
    SEED_TF,
    seed_rk4_exact,
    seed_rk4_program,
    seed_rk4_system,
    stiff_exact,
    stiff_system,
)
from simlab.implicit import backward_euler_linear
from simlab.integrators import METHODS, NonFiniteStateError, integrate, rk4
from simlab.plotting import line_style, plot_stability_regions, subplots
from simlab.results import Result
from simlab.similarity import lsim
from simlab.stability import fit_order, max_stable_step, real_stability_limit, stability_grid

__all__ = [
    "ConvergenceStudy",
    "StabilityRun",
    "StiffRun",
    "StiffComparison",
    "StepSizeRow",
    "SeedRK4Lab",
    "Lab02Results",
    "SEED_STEP_SIZES",
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
    "check_stability_limit",
    "check_seed_state_space",
    "check_seed_rk4",
    "run",
    "plot_convergence",
    "plot_seed_rk4",
    "plot_stiff",
]

# ---------------------------------------------------------------------------------------------
# 1. Convergence on a nonlinear problem
# ---------------------------------------------------------------------------------------------

NONLINEAR_SPAN = (0.0, 2.0)


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
        The step sizes h, largest first.
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

    Returns
    -------
    ConvergenceStudy
        ``hs``; ``errors``, ``orders`` and ``evaluations`` (counted calls of f) by method name.
    """
    if hs is None:
        hs = 0.2 / 2.0 ** np.arange(6)
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
        Implicit Euler with h = 0.1 s.
    exact_update : StiffRun
        The exact (matrix-exponential) update with h = 0.1 s.
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


def stiff_comparison(t_end=5.0):
    """RK4 below and above its limit, implicit Euler and the exact update on the stiff system.

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
        backward_euler=run_of("backward euler", 0.1,
                              lambda h: backward_euler_linear(A, B, 1.0, (0.0, t_end), x0, h)),
        exact_update=run_of("exact (expm)", 0.1, exact_solver),
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

    The closed loop of 1/(s^3 + 4 s^2 + 8 s + 5), step r = 5, Tf = 5 s, RK4 with h = 0.02 s.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s), N = 250.
    y : ndarray, shape (N + 1,)
        Output y_k of the seed's RK4 program.
    exact : ndarray, shape (N + 1,)
        Exact step response r y_step(t_k) on the grid.
    max_error : float
        max_k |y_k - y(t_k)|.
    y_final : float
        y_N = y(Tf).
    steady_state : float
        Final value r G_cl(0) = 5/6.
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
        The step-size table, one row per h of :data:`SEED_STEP_SIZES`; :meth:`step_row` picks
        the row of a given h.
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


def _step_size_row(A, b, C, h):
    """Euler and RK4 on the seed's closed loop with step h: errors and counted evaluations."""
    errors, nfev = {}, {}
    for method in ("euler", "rk4"):
        try:
            run = integrate(lambda t, x: A @ x + b * SEED_R, (0.0, SEED_TF), np.zeros(3), h, method)
        except NonFiniteStateError:
            errors[method], nfev[method] = float("inf"), None
            continue
        errors[method] = float(np.max(np.abs(run.x @ C - seed_rk4_exact(run.t))))
        nfev[method] = run.nfev
    return StepSizeRow(h=h, steps=round(SEED_TF / h), euler_error=errors["euler"],
                       rk4_error=errors["rk4"], euler_nfev=nfev["euler"], rk4_nfev=nfev["rk4"])


def seed_rk4_lab(step_sizes=SEED_STEP_SIZES):
    """Everything the seed's RK4 lab asks, computed.

    Returns
    -------
    SeedRK4Lab
        The response (``t``, ``y``, ``exact``), its measures, the poles and step limits, and the
        step-size table ``step_table`` (errors and counted evaluations of Euler and RK4 per h).
    """
    A, b, C = seed_rk4_system()
    t, y = seed_rk4_program(A, b, C)
    exact = seed_rk4_exact(t)
    poles = np.linalg.eigvals(A)
    steady = SEED_R * 1.0 / 6.0  # final-value theorem: r * G_cl(0) = 5 * 1/6
    outside = np.flatnonzero(np.abs(y - steady) > 0.02 * steady)
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
        step_table=tuple(_step_size_row(A, b, C, h) for h in step_sizes),
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
# Self-checks
# ---------------------------------------------------------------------------------------------


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


def check_stability_limit(method, value):
    """Self-check of the real stability limit z_min (a negative number) of ``method``."""
    return check_value(
        f"real stability limit of {method}",
        value,
        real_stability_limit(method),
        rtol=1e-3,
        alternatives=[(-real_stability_limit(method), "the limit is on the negative real axis: "
                       "z = h lambda with lambda < 0.")],
    )


def check_seed_state_space(A, b, C):
    """Self-check of a hand-built state-space form of the seed's closed loop.

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
    got = np.array([C @ np.linalg.solve(si * np.eye(3) - A, b) for si in s])
    if np.allclose(got, wanted, rtol=1e-9, atol=1e-12):
        return CheckResult(True, "state space", "C (sI - A)^-1 b equals 1/(s^3 + 4s^2 + 8s + 6).")
    open_loop = 1.0 / (s**3 + 4 * s**2 + 8 * s + 5)
    if np.allclose(got, open_loop, rtol=1e-9, atol=1e-12):
        return CheckResult(False, "state space", "this is the open loop G(s); close the loop "
                           "first: G/(1 + G) = 1/(s^3 + 4s^2 + 8s + 6).")
    return CheckResult(False, "state space", f"at s = 0 your model gives {got[0].real:.4g}, the "
                       f"closed loop gives {wanted[0].real:.4g}; check the signs of the first row of A.")


def check_seed_rk4(y):
    """Self-check of the response y_0 .. y_N of the seed's RK4 lab (r = 5, Tf = 5, h = 0.02)."""
    A, b, C = seed_rk4_system()
    _, reference = seed_rk4_program(A, b, C)
    return check_array("seed RK4 response", y, reference, rtol=1e-8, atol=1e-10, what="y_k")


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
