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

The notebook's tasks (1a .. 6a) are listed in :data:`TASKS`; their checks follow the notebook's
parameters, declared in :data:`PARAMETERS`: the parameter ``a_task`` of G3 in Tasks 1, 3c and 4,
the RK4 step ``h`` and the step height ``r_step`` of Task 4. Task 3 keeps the seed's own runs
(a = 2, 4, ..., 12, r = 10, (Tf, h) = (10, 0.2) and (15, 0.4)); the run of Task 4 spans
[0, T_END] with T_END = 10 s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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
    not_done,
    row_factors,
)
from simlab.course.parameters import Parameter, Parameters, Rule, divides, positive
from simlab.course.systems import LOOP_P, LOOP_W, LOOP_W0, LOOP_WC
from simlab.guards import unstable_growth_allowed
from simlab.integrators import NonFiniteStateError
from simlab.plotting import line_style, plot_element_outputs, subplots
from simlab.response import StepMetrics, step_metrics
from simlab.results import Result
from simlab.stability import max_stable_step, real_stability_limit
from simlab.structure import closed_loop, input_derivative_gain, simulate

__all__ = [
    "seed_P",
    "SEED_W",
    "SEED_W0",
    "SEED_WC",
    "SEED_R",
    "SEED_TF",
    "SEED_H",
    "A_VALUES",
    "SEED_RUNS",
    "A_TASK",
    "H_STEP",
    "T_END",
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
    "check_connections",
    "check_H_Q",
    "check_closed_loop",
    "check_transfer_function",
    "check_matlab_steps",
    "check_sweeps",
    "check_seed_program",
    "check_jump",
    "check_true_outputs",
    "check_loop_matrices",
    "check_step_limit",
    "TASKS",
    "MISTAKES",
    "PARAMETERS",
    "use_parameters",
    "check",
    "take",
    "run",
    "plot_seed_sweep",
    "plot_seed_versus_true",
    "plot_four_element_loop",
]

SEED_W = np.array([[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
SEED_W0 = np.array([1.0, 0.0, 0.0])
SEED_WC = np.array([0.0, 0.0, 1.0])
#: The seed's step input r = 10 (Task 3); the default of the notebook's parameter ``r_step`` of Task 4.
SEED_R = 10.0
#: The seed's second run as its listing states it, Tf = 15 s and h = 0.4 s (Tf/h = 37.5; Task 3a).
SEED_TF, SEED_H = 15.0, 0.4
A_VALUES = (2, 4, 6, 8, 10, 12)
#: (t_end, h) of the seed's two runs; the second is the seed's Tf = 15 cut to the 37 steps it ran.
SEED_RUNS = ((10.0, 0.2), (14.8, 0.4))
#: The notebook's parameter ``a_task``: the a of G3 = (s + a)/(s + 1) in Tasks 1, 3c and 4.
A_TASK = 2
#: The notebook's parameter ``h``: the RK4 step of Task 4 (s), the seed's first run; it must divide T_END.
H_STEP = 0.2
#: End of the runs of Task 4 (s): fixed, the seed's first run; the notebook's ``h`` must divide it.
T_END = 10.0


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
    h : float
        RK4 step (s).
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
    h: float


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


def seed_sweep(t_end, h, seed_compatible=False, a_values=A_VALUES, r=SEED_R):
    """All six responses of the seed's task in one vectorized run (a batch of P matrices).

    ``r`` is the height of the input step (the seed's 10).

    Returns
    -------
    SeedSweep
        ``t``, ``a`` (values), ``y`` (shape (N + 1, 6)), ``x`` (element outputs, (N + 1, 6, 3)),
        ``metrics`` (:func:`step_metrics` keyed by a; final value r, see
        :func:`seed_transfer_function`).
    """
    P = np.stack([seed_P(a) for a in a_values])
    result = simulate(P, SEED_W, SEED_W0, SEED_WC, r=r, t_span=(0.0, t_end), h=h,
                      seed_compatible=seed_compatible)
    metrics = {a: step_metrics(result.t, result.y[:, j], r) for j, a in enumerate(a_values)}
    return SeedSweep(t=result.t, y=result.y, x=result.x, a=tuple(a_values), metrics=metrics, h=h,
                     seed_compatible=seed_compatible, r=r)


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


def seed_versus_true(a=A_TASK, t_end=T_END, h=H_STEP, r=SEED_R):
    """The seed program's response (r' term dropped) against the true response, and the jump.

    ``a`` is the parameter of G3, ``h`` the RK4 step (s) and ``r`` the height of the input step.

    Returns
    -------
    SeedVersusTrue
        ``t``, ``y_seed``, ``y_true``, ``x_seed``, ``x_true``, ``jump`` (x(0+) = B_d r, shape (3,)),
        ``max_difference``.
    """
    P = seed_P(a)
    seed = simulate(P, SEED_W, SEED_W0, SEED_WC, r, (0.0, t_end), h, seed_compatible=True)
    true = simulate(P, SEED_W, SEED_W0, SEED_WC, r, (0.0, t_end), h)
    jump = input_derivative_gain(P, SEED_W, SEED_W0, SEED_WC)[:, 0] * r
    return SeedVersusTrue(t=seed.t, y_seed=seed.y, y_true=true.y, x_seed=seed.x, x_true=true.x, jump=jump,
                          max_difference=float(np.max(np.abs(seed.y - true.y))), a=a, r=r, h=h)


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

    The runs go on while they grow (:func:`simlab.guards.unstable_growth_allowed`), so that the
    lab can show how the unstable recurrence grows; without it simlab stops such a run with an
    :class:`simlab.guards.UnstableRunError` once it has grown 1e8-fold.

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
            with unstable_growth_allowed():
                result = simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), h)
        except NonFiniteStateError as error:
            runs.append(StepSizeRun(h=h, ratio=h / h_limit, max_abs_y=float("inf"), final=float("nan"),
                                    diverged=True, t_overflow=error.t))
            continue
        runs.append(StepSizeRun(h=h, ratio=h / h_limit, max_abs_y=float(np.max(np.abs(result.y))),
                                final=float(result.y[-1]), diverged=False, t=result.t, y=result.y))
    return StepSizeStudy(h_limit=h_limit, runs=tuple(runs))


# ---------------------------------------------------------------------------------------------
# The parameter contract (实验参数)
# ---------------------------------------------------------------------------------------------


def _rk4_stable_on_the_seed_loop():
    """Rule of ``h``: RK4 is stable on the seed's loop for a = a_task (h below its step limit)."""

    def test(value, values):
        try:
            step, a_value = float(value), float(values.get("a_task", A_TASK))
        except (TypeError, ValueError):
            return None  # the rule of a_task reports it
        if not (math.isfinite(a_value) and a_value > 0):
            return None
        try:
            limit = rk4_step_limit(seed_P(a_value), SEED_W, SEED_W0, SEED_WC)
        except ValueError:  # a closed-loop eigenvalue on the imaginary axis (a_task near 0)
            return None
        return None if step < limit else f"RK4's step limit for a = {a_value:g} is {limit:.4g} s (as in Task 6)"

    return Rule("{name} is below the RK4 step limit of the seed's loop for a = a_task, where RK4 is stable", test)


#: The notebook's parameters: each with its unit, meaning, rules and a second valid value.
PARAMETERS = Parameters(
    Parameter("a_task", A_TASK, "", "the parameter a of the typical element (典型环节) G3 = (s + a)/(s + 1) "
              "in Tasks 1, 3c and 4", (positive(),), alternative=5),
    Parameter("h", H_STEP, "s", "RK4 step (步长) of Task 4",
              (positive(), divides(T_END, "s", "the run of Task 4"), _rk4_stable_on_the_seed_loop()),
              alternative=0.1),
    Parameter("r_step", SEED_R, "", "height r of the input step (阶跃输入) in Task 4", (positive(),),
              alternative=4.0),
)
use_parameters = PARAMETERS.use


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes a task's answers positionally and the notebook's parameters (a_task,
# h, r_step) as keywords with the lab's values, so that a correct answer stays correct when a
# student changes them.
# ---------------------------------------------------------------------------------------------


def _row_factors(answer, reference):
    """Factors f_i != 0 with row i of ``answer`` = f_i times row i of ``reference``; None if there are none.

    A row [A_i, B_i, C_i, D_i] of P describes the same element when it is multiplied by any number
    other than 0: (s + 0.5)/(s + 0.1) = (10 s + 5)/(10 s + 1), the lead-lag form of the background's
    table. The rows of H and Q of such a P are scaled alike, and A = H^-1 Q does not change.
    """
    factors = row_factors(answer, reference)
    return None if factors is None or np.any(np.isnan(factors)) else factors


def _scaled_reference(answer, reference, what):
    """The reference with its rows scaled as the answer's (a correct answer in another form), and a title note."""
    factors = _row_factors(answer, reference)
    if factors is None or np.allclose(factors, 1.0, rtol=1e-12, atol=0.0):
        return np.asarray(reference, dtype=float), ""
    text = ", ".join(f"{factor:.6g}" for factor in factors)
    return factors[:, None] * reference, f"; its rows are the reference's times {text}: the same {what}"


def check_connections(P, W, W0, Wc, a_task=A_TASK):
    """Self-check of Task 1a: P, W, W0 and Wc of the seed's task for a = ``a_task``.

    A row of P may be multiplied by any number other than 0 (the same element, written otherwise).
    """
    P_ref = seed_P(a_task)
    P_expected, note = _scaled_reference(P, P_ref, "elements")
    return all_of(f"P, W, W0, Wc of the seed's task (a = {a_task:g})", [
        check_array(f"P (a = {a_task:g}{note})", P, P_expected, what="entries", alternatives=[
            (P_ref[:, [2, 3, 0, 1]], "numerator and denominator are swapped: G_i = (C_i + D_i s)/(A_i + B_i s), "
             "so A_i, B_i (first two columns) belong to the denominator."),
            (P_ref[:, [1, 0, 3, 2]], "the columns are [A_i, B_i, C_i, D_i]: the constant term comes before the "
             "coefficient of s."),
            (P_ref[::-1], "number the elements from left to right: element 1 is (s + 0.5)/(s + 0.1).")]),
        check_array("W", W, SEED_W, what="entries", alternatives=[
            (SEED_W.T, "W is transposed: W[i, j] is the gain from the output of element j to the input of "
             "element i."),
            (np.abs(SEED_W), "the feedback is negative: u1 = r - y3, so W[0, 2] = -1.")]),
        check_array("W0", np.ravel(W0), SEED_W0, what="entries", alternatives=[
            (SEED_WC, "W0 says where r enters: u1 = -y3 + r, so W0 = [1, 0, 0] (element 1); [0, 0, 1] picks "
             "element 3, the output, which is Wc.")]),
        check_array("Wc", np.ravel(Wc), SEED_WC, what="entries", alternatives=[
            (SEED_W0, "Wc picks the system output y = y3 (element 3): Wc = [0, 0, 1]; [1, 0, 0] is where r "
             "enters, W0.")]),
    ])


def check_H_Q(H, Q, a_task=A_TASK):
    """Self-check of Task 1b: H = diag(B) - diag(D) W and Q = diag(C) W - diag(A) for the seed's task.

    The rows of H and Q may be scaled alike (those of a P whose rows are scaled, Task 1a).
    """
    P = seed_P(a_task)
    A_diag, B_diag, C_diag, D_diag = (np.diag(P[:, k]) for k in range(4))
    H_ref, Q_ref = B_diag - D_diag @ SEED_W, C_diag @ SEED_W - A_diag
    H_expected, Q_expected, note = H_ref, Q_ref, ""
    try:
        pair = np.hstack([H, Q]) if np.shape(H) == np.shape(Q) == H_ref.shape else None
    except (TypeError, ValueError):  # a ragged list: check_array says what is wrong with it
        pair = None
    if pair is not None:  # rows of [H, Q] may be the reference's scaled
        both, note = _scaled_reference(pair, np.hstack([H_ref, Q_ref]), "equations")
        H_expected, Q_expected = both[:, :3], both[:, 3:]
    return all_of(f"H and Q (a = {a_task:g}{note})", [
        check_array("H", H, H_expected, what="entries", alternatives=[
            (B_diag - SEED_W @ D_diag, "the order matters: diag(D) W scales the rows of W (element i's own "
             "D_i), W diag(D) would scale the columns."),
            (B_diag + D_diag @ SEED_W, "the sign of diag(D) W: D u' = D W y' + ... moves to the left-hand side "
             "with a minus sign."),
            (B_diag, "that is diag(B): H = diag(B) only when no element has a D_i s term; here D_1 = D_3 = 1, so "
             "H = diag(B) - diag(D) W.")]),
        check_array("Q", Q, Q_expected, what="entries", alternatives=[
            (C_diag @ SEED_W + A_diag, "the sign of diag(A): B y' + A y = C u, so A moves to the right-hand side "
             "with a minus sign.")]),
    ])


def check_closed_loop(A, B, a_task=A_TASK):
    """Self-check of Task 1c: the closed-loop A = H^-1 Q and B = H^-1 diag(C) W0 of the seed's task."""
    P = seed_P(a_task)
    A_ref, B_ref, _ = closed_loop(P, SEED_W, SEED_W0, SEED_WC)
    H = np.diag(P[:, 1]) - np.diag(P[:, 3]) @ SEED_W
    Q = np.diag(P[:, 2]) @ SEED_W - np.diag(P[:, 0])
    W0 = SEED_W0.reshape(-1, 1)
    return all_of(f"closed loop A, B (a = {a_task:g})", [
        check_array("A = H^-1 Q", A, A_ref, what="entries", alternatives=[
            (Q @ np.linalg.inv(H), "that is Q H^-1; the state equation H x' = Q x + ... gives A = H^-1 Q, "
             "np.linalg.solve(H, Q)."),
            (Q, "that is Q itself, H^-1 left out: H = I only when no element has a D_i s term; here "
             "A = H^-1 Q, np.linalg.solve(H, Q).")]),
        check_array("B = H^-1 diag(C) W0", np.reshape(B, (-1, 1)) if np.size(B) == 3 else B, B_ref, what="entries",
                    alternatives=[
            (np.linalg.solve(H, W0), "that is H^-1 W0: r passes element 1's gain C_1 on the way in, "
             "B = H^-1 diag(C) W0."),
            (np.linalg.solve(H, np.diag(P[:, 3]) @ W0), "that is B_d = H^-1 diag(D) W0, the derivative path; "
             "B uses diag(C).")]),
    ])


def _points(expression, points):
    """Values of a sympy expression in symbols named s and a at ``points`` [(s, a)], as rows [Re, Im]."""
    names = {symbol.name: symbol for symbol in expression.free_symbols}
    values = [complex(expression.subs({names[key]: value for key, value in (("s", s_value), ("a", a_value))
                                       if key in names})) for s_value, a_value in points]
    return np.array([[value.real, value.imag] for value in values])


def check_transfer_function(Phi):
    """Self-check of Task 2a: the closed loop Phi(s) = G / (1 + G), a sympy expression in s and a."""
    import sympy as sp

    title = "Phi at three (s, a) points"
    try:
        expression = sp.sympify(Phi)
    except (sp.SympifyError, TypeError):
        return CheckResult(False, title, f"expected a sympy expression in s and a, got {type(Phi).__name__}.")
    names = {symbol.name for symbol in expression.free_symbols}
    if names - {"s", "a"}:
        return CheckResult(False, title, f"Phi contains {sorted(names - {'s', 'a'})}; it must be an expression in "
                           f"s and a only.")
    if "a" not in names:
        return CheckResult(False, title, "Phi does not contain a: keep a as a symbol, G3 = (s + a)/(s + 1), so "
                           "that one expression serves every a.")
    reference, s, a = seed_transfer_function()
    points = [(0.4, 2), (1.5j, 6), (-0.2 + 0.8j, 12)]
    G = (s + sp.Rational(1, 2)) / (s + sp.Rational(1, 10)) / s * (s + a) / (s + 1)
    return check_array(title, _points(expression, points), _points(reference, points), what="values",
                       alternatives=[
        (_points(G, points), "this is the open loop G1 G2 G3; the closed loop is G / (1 + G)."),
        (_points(G / (1 - G), points), "the feedback is negative: G / (1 + G), not G / (1 - G)."),
        (_points(1 / (1 + G), points), "that is 1 / (1 + G), the error transfer function E/R (e = r - y); the "
         "output's is Y/R = G / (1 + G).")])


def check_matlab_steps(steps_matlab, Tf=SEED_TF, h=SEED_H):
    """Self-check of Task 3a: the number of times MATLAB's ``for i=1:Tf/h`` runs, floor(Tf/h).

    The task asks it for the seed's Tf = 15 s and h = 0.4 s (:data:`SEED_TF`, :data:`SEED_H`),
    not for the notebook's step ``h`` of Task 4: its Task calls this check with the seed's values.
    """
    steps = math.floor(Tf / h + 1e-9)
    return check_value(f"steps of for i=1:Tf/h (Tf = {Tf:g}, h = {h:g})", steps_matlab, steps,
                       rtol=0, atol=1e-9, alternatives=[
        (steps + 1, f"one too many: {steps + 1} is round({Tf / h:g}) or ceil({Tf / h:g}), or the number of grid "
         f"points t_0 .. t_{steps} (N steps give N + 1 points); the colon operator 1:{Tf / h:g} counts the "
         f"loop's passes and stops at the last whole number not beyond {Tf / h:g}; it does not round."),
        (steps - 1, f"one too few: 1:{Tf / h:g} is 1, 2, ..., {steps}, that is {steps} numbers; Python's "
         f"range(1, {steps}) stops before {steps}."),
        (Tf / h, "that is Tf/h itself; a loop runs a whole number of times.")])


def _check_seed_steps(steps_matlab):
    """The check of Task 3a: :func:`check_matlab_steps` for the seed's Tf = 15 s, h = 0.4 s."""
    return check_matlab_steps(steps_matlab, SEED_TF, SEED_H)


def _output(result):
    """The output y of a simulation result (a :class:`~simlab.structure.StructureResponse`), or the answer itself."""
    return getattr(result, "y", result)


def check_sweeps(P_batch, result_02, result_04):
    """Self-check of Task 3b: the batch of six P matrices and the two vectorized runs of the seed."""
    P_ref = np.stack([seed_P(a) for a in A_VALUES])
    parts = [check_array("P_batch", P_batch, P_ref, what="entries")]
    steps = math.floor(SEED_TF / SEED_H + 1e-9)
    for (t_end, h), result in zip(SEED_RUNS, (result_02, result_04)):
        y_ref = seed_sweep(t_end, h).y
        alternatives = [
            (seed_sweep(t_end, h, seed_compatible=True).y, "these are the seed program's numbers "
             "(seed_compatible=True); use the default, the true response."),
            (y_ref / SEED_R, f"that is the response to a unit step; the seed's input is a step of r = {SEED_R:g} "
             "(lab.SEED_R).")]
        if t_end < SEED_TF:  # the second run: the seed stopped at 14.8 s
            alternatives.append((seed_sweep(SEED_TF, SEED_TF / (steps + 1)).y, f"these are {steps + 1} steps of "
                                 f"h = {SEED_TF:g}/{steps + 1} on [0, {SEED_TF:g}] (what simlab's message proposes); "
                                 f"the task replays what the seed computed: {steps} steps of h = {h:g} on "
                                 f"[0, {t_end:g}]."))
        parts.append(check_array(f"y, h = {h:g}", _output(result), y_ref, alternatives=alternatives))
    return all_of("the seed's two runs for a = 2, 4, ..., 12", parts)


def _seed_program(a_value, Tf, h, r=SEED_R):
    """The reference of Task 3c: the seed's listing (floor(Tf/h) RK4 steps of x' = A x + B r from 0)."""
    n = math.floor(Tf / h + 1e-9)
    result = simulate(seed_P(a_value), SEED_W, SEED_W0, SEED_WC, r, (0.0, n * h), h, seed_compatible=True)
    return result.t, result.y


def check_seed_program(seed_program, a_task=A_TASK):
    """Self-check of Task 3c: ``seed_program(a, Tf, h)`` for Tf = 15, h = 0.4 against the seed-compatible mode."""
    title = f"seed program replayed, a = {a_task:g}, Tf = {SEED_TF:g}, h = {SEED_H:g}"
    try:
        t, y = seed_program(a_task, SEED_TF, SEED_H)
    except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
        if isinstance(error, NotImplementedError):
            return not_done("3c", "seed_program still raises NotImplementedError; write its body in "
                                  "the cell above and run it.")
        return CheckResult(False, title, f"calling seed_program(a, {SEED_TF:g}, {SEED_H:g}) raised "
                           f"{type(error).__name__}: {error}")
    t_ref, y_ref = _seed_program(a_task, SEED_TF, SEED_H)
    if np.size(y) == len(y_ref) + 1:
        return CheckResult(False, title, f"one point too many ({np.size(y)} values); MATLAB's for i=1:37.5 runs "
                           f"floor(37.5) = 37 times, not 38.")
    C_1 = seed_P(a_task)[0, 2]  # r enters element 1 only: B = H^-1 diag(C) W0 = C_1 H^-1 W0
    return all_of(title, [
        check_array("y", y, y_ref, what="values", alternatives=[
            (np.concatenate([[0.0], y_ref[:-1]]), "your y lags one step: append Wc x after updating x, as the "
             "listing's y=[y,Wc*x] follows x=x+h*(...)."),
            (y_ref / C_1, f"your y is the seed's divided by C_1 = {C_1:g}: B=inv(H)*C1*W0 has C1 left out "
             "(r passes element 1's gain on the way in).")]),
        check_array("t", t, t_ref, what="values"),
    ])


def check_jump(x0_plus, a_task=A_TASK, r_step=SEED_R):
    """Self-check of Task 4a: the jump x(0+) = H^-1 diag(D) W0 r of the element outputs for the step r = ``r_step``."""
    P = seed_P(a_task)
    B_d = input_derivative_gain(P, SEED_W, SEED_W0, SEED_WC)[:, 0]
    _, B, _ = closed_loop(P, SEED_W, SEED_W0, SEED_WC)
    return check_array("x(0+)", np.ravel(x0_plus), B_d * r_step, what="entries", alternatives=[
        (np.zeros(3), "zero is the seed program's assumption; the D_1 s term of element 1 differentiates the step."),
        (B_d, f"that is B_d, the jump for a unit step; the step here is r = {r_step:g}."),
        (B[:, 0] * r_step, "that is B r = H^-1 diag(C) W0 r; the jump comes through the derivative path, "
         "H^-1 diag(D) W0 r.")])


def _rk4_free_response(A, z0, h, steps):
    """RK4's solution of z' = A z from z0, shape (steps + 1, n).

    z_k = R(hA)^k z0 with RK4's step matrix R(Z) = I + Z + Z^2/2 + Z^3/6 + Z^4/24.
    """
    Z = h * np.asarray(A, dtype=float)
    identity = np.eye(len(Z))
    R = identity + Z @ (identity + Z @ (identity + Z @ (identity + Z / 4) / 3) / 2)
    states = [np.asarray(z0, dtype=float)]
    for _ in range(steps):
        states.append(R @ states[-1])
    return np.array(states)


def check_true_outputs(x_true, a_task=A_TASK, h=H_STEP, r_step=SEED_R):
    """Self-check of Task 4b: the element outputs x = z + B_d r of the true response, RK4 with step h."""
    versus = seed_versus_true(a=a_task, t_end=T_END, h=h, r=r_step)
    shift = versus.jump
    z = versus.x_true - shift
    A, _, _ = closed_loop(seed_P(a_task), SEED_W, SEED_W0, SEED_WC)
    return check_array(f"true element outputs (a = {a_task:g}, h = {h:g}, r = {r_step:g})", x_true, versus.x_true,
                       what="values", alternatives=[
        (versus.x_seed, "these are the seed program's outputs: integrate z' = A z + (A B_d + B) r and add B_d r."),
        (z, "this is z; the element outputs are x = z + B_d r."),
        (versus.x_seed + shift, "the input matrix of z' = A z + (A B_d + B) r includes A B_d: with B alone z is "
         "the seed's response."),
        (versus.x_true + _rk4_free_response(A, shift, h, len(versus.t) - 1), "z starts from z(0) = 0 (the "
         "system is at rest before the step): the jump B_d r is added once, in x = z + B_d r, not to z(0) as well."),
        (z / r_step + shift, f"the input of z' = A z + (A B_d + B) r needs the factor r = {r_step:g}: your z is "
         "the response to a unit step."),
        (z - shift, "the sign of B_d r: z = x - B_d r, so x = z + B_d r.")])


def check_loop_matrices(P_loop, W_loop, W0_loop, Wc_loop):
    """Self-check of Task 5a: P, W, W0 and Wc of the four-element loop (:mod:`simlab.course.systems`).

    A row of P_loop may be multiplied by any number other than 0 (the same element, written otherwise).
    """
    P_pi_swapped = LOOP_P.copy()
    P_pi_swapped[0] = LOOP_P[0, [0, 1, 3, 2]]
    P_gain_kept = LOOP_P.copy()
    P_gain_kept[3] = [1.0, LOOP_P[3, 1] / LOOP_P[3, 0], LOOP_P[3, 2], 0.0]  # 20/(0.1 s + 1)
    P_expected, note = _scaled_reference(P_loop, LOOP_P, "elements")
    return all_of("the four-element loop", [
        check_array(f"P_loop{note}", P_loop, P_expected, what="entries", alternatives=[
            (LOOP_P[::-1], "number the elements from left to right: element 1 is the PI element."),
            (P_pi_swapped, "PI (K1 s + K2)/s is the row [0, 1, K2, K1]: C_i is the constant, D_i the s-term."),
            (P_gain_kept, "20/(s + 10) = 2/(0.1 s + 1): dividing the denominator by 10 divides the gain too; the row "
             "[1, 0.1, 20, 0] is 20/(0.1 s + 1) = 200/(s + 10).")]),
        check_array("W_loop", W_loop, LOOP_W, what="entries", alternatives=[
            (LOOP_W.T, "W is transposed: W[i, j] is the gain from the output of element j to the input of element i."),
            (np.abs(LOOP_W), "the feedback is negative: u1 = r - y4.")]),
        check_array("W0_loop", np.ravel(W0_loop), LOOP_W0, what="entries"),
        check_array("Wc_loop", np.ravel(Wc_loop), LOOP_WC, what="entries"),
    ])


def check_step_limit(h_limit):
    """Self-check of Task 6a: the largest stable RK4 step of the four-element loop (s).

    The tolerance (0.1 %) accepts the rounded z_min = -2.785 of the notes; every plausible wrong
    method (Euler's limit, the slowest eigenvalue, the element's open-loop pole -10) is percents away.
    """
    A, _, _ = closed_loop(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC)
    eigenvalues = np.linalg.eigvals(A)
    z_min = real_stability_limit("rk4")
    open_loop_pole = -LOOP_P[3, 0] / LOOP_P[3, 1]  # the pole of 20/(s + 10)
    return check_value("RK4 step limit of the four-element loop (s)", h_limit, rk4_step_limit(), rtol=1e-3, unit="s",
                       alternatives=[
        (real_stability_limit("euler") / eigenvalues.real.min(), "that is Euler's limit (z_min = -2); RK4's real "
         "limit is about -2.785."),
        (z_min / eigenvalues.real.max(), "that limit belongs to the slowest eigenvalue; the fastest one decides."),
        (z_min / open_loop_pole, f"that is z_min over the open-loop pole {open_loop_pole:g} of 20/(s + 10); the "
         "feedback moves it: use the fastest eigenvalue of the closed loop A = H^-1 Q.")])


def _reference_model(a_task=A_TASK):
    """Reference answers of Tasks 1a-1c for a = ``a_task`` (the matrices of the seed's task)."""
    P = seed_P(a_task)
    A, B, _ = closed_loop(P, SEED_W, SEED_W0, SEED_WC)
    A_diag, B_diag, C_diag, D_diag = (np.diag(P[:, k]) for k in range(4))
    return {"P": P, "W": SEED_W.copy(), "W0": SEED_W0.copy(), "Wc": SEED_WC.copy(), "H": B_diag - D_diag @ SEED_W,
            "Q": C_diag @ SEED_W - A_diag, "A1": A_diag, "B1": B_diag, "C1": C_diag, "D1": D_diag, "A": A, "B": B}


def _reference_transfer_function():
    """Reference answer of Task 2a, Phi(s) in the symbols s and a."""
    return {"Phi": seed_transfer_function()[0]}


def _reference_seed_program(a_task=A_TASK):
    """Reference answer of Task 3c, the seed's listing as a function."""
    return {"seed_program": _seed_program}


#: The tasks of lab 05, by their label in the notebook.
TASKS = Tasks(
    Task("1a", ("P", "W", "W0", "Wc"), check_connections, ("a_task",), _reference_model, "P, W, W0, Wc"),
    Task("1b", ("H", "Q"), check_H_Q, ("a_task",), _reference_model, "H and Q", also=("A1", "B1", "C1", "D1")),
    Task("1c", ("A", "B"), check_closed_loop, ("a_task",), _reference_model, "the closed loop A, B"),
    Task("2a", ("Phi",), check_transfer_function, (), _reference_transfer_function, "Phi(s) with sympy"),
    Task("3a", ("steps_matlab",), _check_seed_steps, (), None, "the seed's loop count"),
    Task("3b", ("P_batch", "result_02", "result_04"), check_sweeps, (), None, "the seed's two runs, vectorized"),
    Task("3c", ("seed_program",), check_seed_program, ("a_task",), _reference_seed_program,
         "the seed's program replayed"),
    Task("4a", ("x0_plus",), check_jump, ("a_task", "r_step"), None, "the jump at t = 0+"),
    Task("4b", ("x_true",), check_true_outputs, ("a_task", "h", "r_step"), None, "the true response by hand"),
    Task("5a", ("P_loop", "W_loop", "W0_loop", "Wc_loop"), check_loop_matrices, (), None,
         "the matrices of the four-element loop"),
    Task("6a", ("h_limit",), check_step_limit, (), None, "the RK4 step limit"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

_W_SEED = "W = np.array([[0.0, 0.0, -1.0],\n              [1.0, 0.0, 0.0],\n              [0.0, 1.0, 0.0]])"
_P_SEED = ("P = np.array([[0.1, 1.0, 0.5, 1.0],\n              [0.0, 1.0, 1.0, 0.0],\n"
           "              [1.0, 1.0, a_task, 1.0]])")
_SEED_LOOP_END = ("        x = x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6\n"
                  "        y.append((Wc @ x).item())            # y=[y,Wc*x]\n")
_RESULT_02 = "result_02 = simulate(P_batch, lab.SEED_W, lab.SEED_W0, lab.SEED_WC, r=lab.SEED_R, "
_RESULT_04 = "result_04 = simulate(P_batch, lab.SEED_W, lab.SEED_W0, lab.SEED_WC, r=lab.SEED_R, "

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("1a", "W transposed", _W_SEED,
            "W = np.array([[0.0, 1.0, 0.0],\n              [0.0, 0.0, 1.0],\n              [-1.0, 0.0, 0.0]])",
            "W is transposed"),
    Mistake("1a", "positive feedback", "W = np.array([[0.0, 0.0, -1.0],", "W = np.array([[0.0, 0.0, 1.0],",
            "the feedback is negative"),
    Mistake("1a", "the coefficient of s first", _P_SEED,
            "P = np.array([[1.0, 0.1, 1.0, 0.5],\n              [1.0, 0.0, 0.0, 1.0],\n"
            "              [1.0, 1.0, 1.0, a_task]])", "constant term comes before"),
    Mistake("1a", "r entering the last element", "W0 = np.array([1.0, 0.0, 0.0])",
            "W0 = np.array([0.0, 0.0, 1.0])", "W0 says where r enters"),
    Mistake("1a", "Wc picking element 1", "Wc = np.array([0.0, 0.0, 1.0])", "Wc = np.array([1.0, 0.0, 0.0])",
            "Wc picks the system output"),
    Mistake("1b", "W diag(D) instead of diag(D) W", "H = B1 - D1 @ W  # H", "H = B1 - W @ D1  # H",
            "the order matters"),
    Mistake("1b", "the sign of diag(A)", "Q = C1 @ W - A1  # Q", "Q = C1 @ W + A1  # Q", "the sign of diag(A)"),
    Mistake("1b", "H = diag(B), the D terms left out", "H = B1 - D1 @ W  # H", "H = B1  # H",
            "only when no element has a D_i s term"),
    Mistake("1c", "Q H^-1 instead of H^-1 Q", "A = np.linalg.solve(H, Q)", "A = Q @ np.linalg.inv(H)",
            "that is Q H^-1"),
    Mistake("1c", "H^-1 left out of A", "A = np.linalg.solve(H, Q)", "A = Q", "H^-1 left out"),
    Mistake("1c", "B without diag(C)", "np.linalg.solve(H, C1 @ np.reshape(W0, (3, 1)))",
            "np.linalg.solve(H, np.reshape(W0, (3, 1)))", "gain C_1"),
    Mistake("2a", "the open loop", "Phi = sp.factor(sp.cancel(G_open / (1 + G_open)))",
            "Phi = sp.factor(sp.cancel(G_open))", "open loop"),
    Mistake("2a", "positive feedback", "G_open / (1 + G_open)", "G_open / (1 - G_open)", "feedback is negative"),
    Mistake("2a", "a = 2 instead of the symbol a", "G3 = (s + a) / (s + 1)", "G3 = (s + 2) / (s + 1)",
            "keep a as a symbol"),
    Mistake("2a", "the error's transfer function 1/(1 + G)", "G_open / (1 + G_open)", "1 / (1 + G_open)",
            "error transfer function"),
    Mistake("3a", "Tf/h rounded", "steps_matlab = int(np.floor(Tf_seed / h_seed))",
            "steps_matlab = round(Tf_seed / h_seed)", "it does not round"),
    Mistake("3a", "the grid points counted", "steps_matlab = int(np.floor(Tf_seed / h_seed))",
            "steps_matlab = len(np.arange(0.0, Tf_seed, h_seed))", "N steps give N + 1 points"),
    Mistake("3a", "range(1, 37) for 1:37.5", "steps_matlab = int(np.floor(Tf_seed / h_seed))",
            "steps_matlab = len(range(1, int(Tf_seed / h_seed)))", "one too few"),
    Mistake("3b", "the seed-compatible mode",
            _RESULT_02 + "t_span=(0.0, 10.0), h=0.2)",
            _RESULT_02 + "t_span=(0.0, 10.0), h=0.2,\n                     seed_compatible=True)",
            "seed program's numbers"),
    Mistake("3b", "a unit step", "r=lab.SEED_R, t_span=(0.0, 14.8), h=0.4)", "r=1.0, t_span=(0.0, 14.8), h=0.4)",
            "unit step"),
    Mistake("3b", "Tf = 15 with 38 steps of 15/38", _RESULT_04 + "t_span=(0.0, 14.8), h=0.4)",
            _RESULT_04 + "t_span=(0.0, 15.0), h=15.0 / 38)", "the task replays what the seed computed"),
    Mistake("3c", "one step too many", "for i in range(int(np.floor(Tf / h))):", "for i in range(round(Tf / h)):",
            "one point too many"),
    Mistake("3c", "y appended before the update", _SEED_LOOP_END,
            "        y.append((Wc @ x).item())            # y=[y,Wc*x]\n"
            "        x = x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6\n", "lags one step"),
    Mistake("3c", "C1 left out of B", "B = np.linalg.inv(H) @ C1 @ W0", "B = np.linalg.inv(H) @ W0",
            "C1 left out"),
    Mistake("4a", "the seed's zero jump",
            "x0_plus = np.linalg.solve(H, D1 @ np.reshape(W0, (3, 1))).ravel() * r_step",
            "x0_plus = np.zeros(3)  # at rest before the step", "seed program's assumption"),
    Mistake("4a", "the jump of a unit step", "(3, 1))).ravel() * r_step", "(3, 1))).ravel()", "unit step"),
    Mistake("4a", "diag(C) instead of diag(D)", "np.linalg.solve(H, D1 @ np.reshape(W0, (3, 1)))",
            "np.linalg.solve(H, C1 @ np.reshape(W0, (3, 1)))", "derivative path"),
    Mistake("4b", "z instead of x", "x_true = trajectory.x + B_d.ravel() * r_step", "x_true = trajectory.x",
            "this is z"),
    Mistake("4b", "B instead of A B_d + B", "B_z = (A @ B_d + B).ravel()", "B_z = B.ravel()", "includes A B_d"),
    Mistake("4b", "z started from the jump", "np.zeros(3), h)", "B_d.ravel() * r_step, h)",
            "z starts from z(0) = 0"),
    Mistake("4b", "r left out of the input of z", "A @ z + B_z * r_step", "A @ z + B_z", "needs the factor r"),
    Mistake("4b", "x = z - B_d r", "x_true = trajectory.x + B_d.ravel() * r_step",
            "x_true = trajectory.x - B_d.ravel() * r_step", "the sign of B_d r"),
    Mistake("5a", "the PI row [0, 1, K1, K2]", "[[0.0, 1.0, 0.5, 1.0],    # PI", "[[0.0, 1.0, 1.0, 0.5],    # PI",
            "[0, 1, K2, K1]"),
    Mistake("5a", "positive feedback", "W_loop = np.array([[0.0, 0.0, 0.0, -1.0],",
            "W_loop = np.array([[0.0, 0.0, 0.0, 1.0],", "the feedback is negative"),
    Mistake("5a", "20/(s + 10) as [1, 0.1, 20, 0]", "[10.0, 1.0, 20.0, 0.0]])  # 20/(s + 10)",
            "[1.0, 0.1, 20.0, 0.0]])  # 20/(s + 10)", "divides the gain too"),
    Mistake("6a", "Euler's limit", 'stability.real_stability_limit("rk4") / lam_fast',
            'stability.real_stability_limit("euler") / lam_fast', "Euler's limit"),
    Mistake("6a", "the slowest eigenvalue", "eigenvalues[np.argmin(eigenvalues.real)].real",
            "eigenvalues[np.argmax(eigenvalues.real)].real", "slowest eigenvalue"),
    Mistake("6a", "the element's open-loop pole -10", "lam_fast = eigenvalues[np.argmin(eigenvalues.real)].real",
            "lam_fast = -10.0", "open-loop pole"),
)

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
    ax_out.set(xlabel="t (s)", ylabel="y(t) = y3(t)",
               title=f"System output, a = {versus.a:g}, r = {versus.r:g}, h = {versus.h:g}")
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
