"""Lab 05: structure-graph simulation (面向结构图的仿真) with connection matrices (seed 003).

1. The seed's course-design task (课程设计): three typical elements

       G1 = (s + 0.5)/(s + 0.1),   G2 = 1/s,   G3 = (s + a)/(s + 1),

   P = [0.1 1 0.5 1; 0 1 1 0; 1 1 a 1], W = [0 0 -1; 1 0 0; 0 1 0], W0 = [1; 0; 0],
   Wc = [0 0 1], step r = 10, a = 2, 4, ..., 12, with (Tf = 10, h = 0.2) and (Tf = 15, h = 0.4),
   all six responses in one figure, run as one vectorized sweep. Note: 15 / 0.4 = 37.5 is not a
   whole number of steps; the seed's MATLAB loop ``for i=1:Tf/h`` runs 37 steps and stops at
   t = 14.8, and simlab refuses the pair (it would silently shorten the run). The lab replays the
   seed on [0, 14.8].
2. The closed-loop transfer function derived symbolically (sympy) and checked.
3. The seed program (which drops diag(D) W0 r') against the true response.
4. A textbook-style four-element loop, open loop 20(s + 0.5)/(s(s + 0.1)(s + 2)(s + 10)) in unity
   feedback, with every element's output.
5. What happens when h is too large for RK4 (the stability limit from the closed-loop poles).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import check_array
from simlab.course.systems import LOOP_P, LOOP_W, LOOP_W0, LOOP_WC
from simlab.integrators import NonFiniteStateError
from simlab.plotting import line_style, plot_element_outputs, subplots
from simlab.response import StepMetrics, step_metrics
from simlab.results import Result
from simlab.stability import max_stable_step
from simlab.structure import closed_loop, input_derivative_gain, simulate

__all__ = [
    "seed_P",
    "SEED_W",
    "SEED_W0",
    "SEED_WC",
    "SEED_R",
    "A_VALUES",
    "SEED_RUNS",
    "SeedSweep",
    "SeedVersusTrue",
    "FourElementLoop",
    "StepSizeRun",
    "StepSizeStudy",
    "Lab05Results",
    "seed_sweep",
    "seed_transfer_function",
    "seed_versus_true",
    "LOOP_P",
    "LOOP_W",
    "LOOP_W0",
    "LOOP_WC",
    "four_element_loop",
    "rk4_step_limit",
    "step_size_study",
    "step_metrics",
    "StepMetrics",
    "check_H_Q",
    "check_closed_loop",
    "check_jump",
    "run",
    "plot_seed_sweep",
    "plot_seed_versus_true",
    "plot_four_element_loop",
]

SEED_W = np.array([[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
SEED_W0 = np.array([1.0, 0.0, 0.0])
SEED_WC = np.array([0.0, 0.0, 1.0])
SEED_R = 10.0
A_VALUES = (2, 4, 6, 8, 10, 12)
#: (t_end, h) of the seed's two runs; the second is the seed's Tf = 15 cut to the 37 steps it ran.
SEED_RUNS = ((10.0, 0.2), (14.8, 0.4))


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedSweep(Result):
    """Result of :func:`seed_sweep`, the seed's task for every a; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid t_k = k h (s).
    y : ndarray, shape (N + 1, m)
        System output y(t_k) = y3(t_k), one column per value of ``a``.
    x : ndarray, shape (N + 1, m, 3)
        Every element's output y_i(t_k), per value of ``a``.
    a : tuple of int or float, shape (m,)
        The values of the parameter a, in the order of the columns of ``y``.
    metrics : dict of (int or float) to StepMetrics
        Peak, overshoot (%) and settling time (s) of each response, keyed by a; final value r.
    h : float
        RK4 step (s).
    seed_compatible : bool
        True for the seed program's response (the r' term dropped).
    r : float
        Height of the input step.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    a: tuple
    metrics: dict = field(repr=False)
    h: float
    seed_compatible: bool
    r: float

    def output(self, a):
        """System output y(t) for the parameter value ``a``, shape (N + 1,)."""
        return self.y[:, self.a.index(a)]


@dataclass(frozen=True)
class SeedVersusTrue(Result):
    """Result of :func:`seed_versus_true`; unpacks as ``t, y_seed, y_true``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y_seed, y_true : ndarray, shape (N + 1,)
        System output of the seed program (r' term dropped) and the true response.
    x_seed, x_true : ndarray, shape (N + 1, 3)
        Every element's output, seed program and true response.
    jump : ndarray, shape (3,)
        Jump of the element outputs at t = 0+, x(0+) = B_d r.
    max_difference : float
        max_k |y_seed - y_true| (in the unit of y).
    a : int or float
        The parameter a of G3 = (s + a)/(s + 1).
    r : float
        Height of the input step.
    """

    unpacks_as = ("t", "y_seed", "y_true")

    t: np.ndarray = field(repr=False)
    y_seed: np.ndarray = field(repr=False)
    y_true: np.ndarray = field(repr=False)
    x_seed: np.ndarray = field(repr=False)
    x_true: np.ndarray = field(repr=False)
    jump: np.ndarray
    max_difference: float
    a: float
    r: float


@dataclass(frozen=True)
class FourElementLoop(Result):
    """Result of :func:`four_element_loop`; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y : ndarray, shape (N + 1,)
        System output y = y4.
    x : ndarray, shape (N + 1, 4)
        Every element's output y_i(t_k).
    poles : ndarray, shape (4,), complex
        Closed-loop poles, the eigenvalues of A = H^-1 Q (1/s).
    """

    unpacks_as = ("t", "y")

    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    poles: np.ndarray


@dataclass(frozen=True)
class StepSizeRun(Result):
    """One RK4 run of :func:`step_size_study`; unpacks as ``t, y`` (both None if it overflowed).

    Attributes
    ----------
    h : float
        RK4 step (s).
    ratio : float
        h / h_limit.
    max_abs_y : float
        max_k |y_k|; inf if the run overflowed.
    final : float
        y at the end of the run; NaN if the run overflowed.
    diverged : bool
        True only if the state overflowed to inf/NaN (:class:`NonFiniteStateError`); a run above
        the limit may merely grow without overflowing, which ``max_abs_y`` shows.
    t : ndarray, shape (N + 1,), or None
        Time grid (s); None if the run overflowed.
    y : ndarray, shape (N + 1,), or None
        System output; None if the run overflowed.
    t_overflow : float or None
        Time t_k (s) of the first non-finite state of an overflowed run (from the error's ``t``).
    """

    unpacks_as = ("t", "y")

    h: float
    ratio: float
    max_abs_y: float
    final: float
    diverged: bool
    t: np.ndarray | None = field(default=None, repr=False)
    y: np.ndarray | None = field(default=None, repr=False)
    t_overflow: float | None = None


@dataclass(frozen=True)
class StepSizeStudy:
    """Result of :func:`step_size_study`.

    Attributes
    ----------
    h_limit : float
        Largest stable RK4 step of the four-element loop (s).
    runs : tuple of StepSizeRun
        One run per step, in increasing order of h.
    """

    h_limit: float
    runs: tuple


@dataclass(frozen=True)
class Lab05Results:
    """Everything :func:`run` computes (``run().data``).

    Attributes
    ----------
    sweeps : tuple of SeedSweep
        The seed's task for every a, true response, one sweep per (t_end, h) of :data:`SEED_RUNS`.
    versus : SeedVersusTrue
        The seed program against the true response, a = 2, h = 0.2.
    loop : FourElementLoop
        The four-element loop, h = 0.05.
    study : StepSizeStudy
        RK4 on the four-element loop below and above its stability limit.
    """

    sweeps: tuple
    versus: SeedVersusTrue
    loop: FourElementLoop
    study: StepSizeStudy


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------



def seed_P(a):
    """Parameter matrix of the seed's task for the parameter a (rows [A_i, B_i, C_i, D_i])."""
    return np.array([[0.1, 1.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, float(a), 1.0]])


def seed_sweep(t_end, h, seed_compatible=False, a_values=A_VALUES):
    """All six responses of the seed's task in one vectorized run (a batch of P matrices).

    Returns
    -------
    SeedSweep
        ``t``, ``a`` (values), ``y`` (shape (N + 1, 6)), ``x`` (element outputs, (N + 1, 6, 3)),
        ``metrics`` (:func:`step_metrics` keyed by a; final value r, see
        :func:`seed_transfer_function`).
    """
    P = np.stack([seed_P(a) for a in a_values])
    result = simulate(P, SEED_W, SEED_W0, SEED_WC, r=SEED_R, t_span=(0.0, t_end), h=h,
                      seed_compatible=seed_compatible)
    metrics = {a: step_metrics(result.t, result.y[:, j], SEED_R) for j, a in enumerate(a_values)}
    return SeedSweep(t=result.t, y=result.y, x=result.x, a=tuple(a_values), metrics=metrics, h=h,
                     seed_compatible=seed_compatible, r=SEED_R)


def seed_transfer_function():
    """Closed loop Y/R of the seed's task as a sympy expression in s and a.

    G1 G2 G3 / (1 + G1 G2 G3) = (s + 0.5)(s + a) / (s (s + 0.1)(s + 1) + (s + 0.5)(s + a));
    its DC gain is 1, so y(inf) = r = 10 for every a.
    """
    import sympy as sp

    s, a = sp.symbols("s a")
    G1 = (s + sp.Rational(1, 2)) / (s + sp.Rational(1, 10))
    G2 = 1 / s
    G3 = (s + a) / (s + 1)
    open_loop = G1 * G2 * G3
    return sp.factor(sp.cancel(open_loop / (1 + open_loop))), s, a


def seed_versus_true(a=2, t_end=10.0, h=0.2):
    """The seed program's response (r' term dropped) against the true response, and the jump.

    Returns
    -------
    SeedVersusTrue
        ``t``, ``y_seed``, ``y_true``, ``x_seed``, ``x_true``, ``jump`` (x(0+) = B_d r, shape (3,)),
        ``max_difference``.
    """
    P = seed_P(a)
    seed = simulate(P, SEED_W, SEED_W0, SEED_WC, SEED_R, (0.0, t_end), h, seed_compatible=True)
    true = simulate(P, SEED_W, SEED_W0, SEED_WC, SEED_R, (0.0, t_end), h)
    jump = input_derivative_gain(P, SEED_W, SEED_W0, SEED_WC)[:, 0] * SEED_R
    return SeedVersusTrue(t=seed.t, y_seed=seed.y, y_true=true.y, x_seed=seed.x, x_true=true.x, jump=jump,
                          max_difference=float(np.max(np.abs(seed.y - true.y))), a=a, r=SEED_R)


def four_element_loop(t_end=20.0, h=0.05, r=1.0):
    """The four-element loop simulated by structure graph + RK4; every element's output.

    Returns
    -------
    FourElementLoop
        ``t``, ``x`` (element outputs, (N + 1, 4)), ``y`` (system output), ``poles`` (closed loop).
    """
    A, _, _ = closed_loop(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC)
    result = simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, r=r, t_span=(0.0, t_end), h=h)
    return FourElementLoop(t=result.t, y=result.y, x=result.x, poles=np.linalg.eigvals(A))


def rk4_step_limit(P=LOOP_P, W=LOOP_W, W0=LOOP_W0, Wc=LOOP_WC):
    """Largest stable RK4 step for a structure graph: from the eigenvalues of A = H^-1 Q."""
    A, _, _ = closed_loop(P, W, W0, Wc)
    return max_stable_step(np.linalg.eigvals(A), "rk4")


def step_size_study(t_end=40.0):
    """RK4 on the four-element loop at steps below and above its stability limit.

    Returns
    -------
    StepSizeStudy
        ``h_limit`` and ``runs`` (:class:`StepSizeRun`: h, ratio h/h_limit, max |y|, final value
        and ``diverged``, True only if the state overflowed to inf/NaN, which
        :class:`NonFiniteStateError` reports; a run above the limit may merely grow without
        overflowing within t_end, which max |y| shows).
    """
    h_limit = rk4_step_limit()
    runs = []
    for factor in (0.5, 0.95, 1.05):
        n = max(1, round(t_end / (factor * h_limit)))
        h = t_end / n
        try:
            result = simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), h)
        except NonFiniteStateError as error:
            runs.append(StepSizeRun(h=h, ratio=h / h_limit, max_abs_y=float("inf"), final=float("nan"),
                                    diverged=True, t_overflow=error.t))
            continue
        runs.append(StepSizeRun(h=h, ratio=h / h_limit, max_abs_y=float(np.max(np.abs(result.y))),
                                final=float(result.y[-1]), diverged=False, t=result.t, y=result.y))
    return StepSizeStudy(h_limit=h_limit, runs=tuple(runs))


def check_H_Q(H, Q, a=2):
    """Self-check of H = diag(B) - diag(D) W and Q = diag(C) W - diag(A) for the seed's task."""
    P = seed_P(a)
    H_ref = np.diag(P[:, 1]) - np.diag(P[:, 3]) @ SEED_W
    Q_ref = np.diag(P[:, 2]) @ SEED_W - np.diag(P[:, 0])
    first = check_array("H", H, H_ref, what="entries", alternatives=[
        (np.diag(P[:, 1]) - SEED_W @ np.diag(P[:, 3]), "the order matters: diag(D) W scales the rows "
         "of W (element i's own D_i), W diag(D) would scale the columns.")])
    if not first:
        return first
    return check_array("Q", Q, Q_ref, what="entries", alternatives=[
        (np.diag(P[:, 2]) @ SEED_W + np.diag(P[:, 0]), "the sign of diag(A): B y' + A y = C u, so A "
         "moves to the right-hand side with a minus sign.")])


def check_closed_loop(A, B, a=2):
    """Self-check of the closed-loop A = H^-1 Q and B = H^-1 diag(C) W0 of the seed's task."""
    A_ref, B_ref, _ = closed_loop(seed_P(a), SEED_W, SEED_W0, SEED_WC)
    first = check_array("A = H^-1 Q", A, A_ref, what="entries")
    if not first:
        return first
    return check_array("B = H^-1 diag(C) W0", np.reshape(B, (-1, 1)), B_ref, what="entries")


def check_jump(x0_plus, a=2):
    """Self-check of the jump of the element outputs at t = 0+ for the step r = 10."""
    reference = input_derivative_gain(seed_P(a), SEED_W, SEED_W0, SEED_WC)[:, 0] * SEED_R
    return check_array("x(0+)", np.ravel(x0_plus), reference, what="entries",
                       alternatives=[(np.zeros(3), "zero is the seed program's assumption; the "
                                      "D_1 s term of element 1 differentiates the step.")])


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_seed_sweep(sweeps):
    """Lab 05: the seed's task, y(t) for a = 2 .. 12 in one figure, one panel per step size.

    ``sweeps`` is a sequence of :class:`SeedSweep` (:func:`seed_sweep`), one panel each.
    """
    fig, axes = subplots(1, len(sweeps), figsize=(5.2 * len(sweeps), 4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, sweep in zip(axes, sweeps):
        for j, a in enumerate(sweep.a):
            ax.plot(sweep.t, sweep.output(a), label=f"a = {a}", **line_style(j))
        kind = "seed program" if sweep.seed_compatible else "true response"
        ax.axhline(sweep.r, color="black", linestyle=":", linewidth=1, label=f"r = {sweep.r:g}")
        ax.set(xlabel="t (s)", title=f"h = {sweep.h:g}, t = 0 .. {sweep.t[-1]:g} s ({kind})")
    axes[0].set_ylabel("output y(t)")
    axes[-1].legend(ncol=2)
    return fig


def plot_seed_versus_true(versus):
    """Lab 05: the seed program (r' term dropped) against the true response, element 1 and output.

    ``versus`` is the :class:`SeedVersusTrue` of :func:`seed_versus_true`.
    """
    fig, (ax, ax_out) = subplots(1, 2, figsize=(10, 4))
    t = versus.t
    ax.plot(t, versus.x_true[:, 0], label="true response", **line_style(0))
    ax.plot(t, versus.x_seed[:, 0], label="seed program", **line_style(1))
    ax.set(xlabel="t (s)", ylabel="y1(t)", title="Element 1, G1 = (s + 0.5)/(s + 0.1)")
    ax.legend()
    ax_out.plot(t, versus.y_true, label="true response", **line_style(0))
    ax_out.plot(t, versus.y_seed, label="seed program", **line_style(1))
    ax_out.set(xlabel="t (s)", ylabel="y(t) = y3(t)", title=f"System output, a = {versus.a}, r = {versus.r:g}")
    ax_out.legend()
    return fig


def plot_four_element_loop(loop):
    """Lab 05: every element's output of the four-element loop (a :class:`FourElementLoop`)."""
    return plot_element_outputs(loop.t, loop.x)


# ---------------------------------------------------------------------------------------------
# The whole lab
# ---------------------------------------------------------------------------------------------


def run():
    """Run lab 05 headless: the seed's sweeps, the seed against the true response, the loop, h.

    Returns
    -------
    ExperimentResult
        ``data`` is the :class:`Lab05Results`.
    """
    results = Lab05Results(sweeps=tuple(seed_sweep(t_end, h) for t_end, h in SEED_RUNS),
                           versus=seed_versus_true(), loop=four_element_loop(), study=step_size_study())
    summary = []
    for sweep in results.sweeps:
        for a in sweep.a:
            summary.append((f"h = {sweep.h:g}, a = {a}: overshoot % / y(end)",
                            f"{sweep.metrics[a].overshoot:.2f} / {sweep.output(a)[-1]:.4f}"))
    versus, study = results.versus, results.study
    summary.append(("seed program vs true response (a = 2): max |difference|", f"{versus.max_difference:.4f}"))
    summary.append(("jump x(0+) for r = 10", ", ".join(f"{v:g}" for v in versus.jump)))
    summary.append(("4-element loop: RK4 step limit", f"{study.h_limit:.4f}"))
    for entry in study.runs:
        summary.append((f"4-element loop: RK4 h = {entry.ratio:.2f} h_limit",
                        "diverged" if entry.diverged else f"max |y| = {entry.max_abs_y:.3g}"))
    return ExperimentResult(
        summary=summary,
        figures=[("lab05_seed_sweep", plot_seed_sweep, results.sweeps),
                 ("lab05_seed_versus_true", plot_seed_versus_true, results.versus),
                 ("lab05_four_element_loop", plot_four_element_loop, results.loop)],
        data=results,
    )
