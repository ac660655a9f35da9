"""Lab 04: the discrete similarity method (离散相似法), Phi(T) and m(T), holds, versus RK4.

Experiments, on the second-order example x' = A x + B u with A = [[0, 1], [-2, -3]],
B = [0, 1]^T, y = x1 (G(s) = 1/((s + 1)(s + 2))) unless stated otherwise (the notebook's A is a
parameter; B, C and D are fixed):

1. Phi(T) = e^{AT} and m(T) = integral_0^T e^{A s} ds B three ways: by hand with sympy (inverse
   Laplace transform of (sI - A)^{-1}), by the truncated series sum (AT)^k / k!, and by
   ``scipy.linalg.expm`` (``simlab.discretize``).
2. Zero-order versus triangle (first-order) hold against the exact response for step, ramp and
   sine inputs as T grows: each hold is exact for the inputs it reproduces (zoh: piecewise
   constant; foh: piecewise linear) and otherwise has an error of order T (zoh) or T^2 (foh).
3. Discrete similarity versus RK4 at equal step on the closed loop of lab02 (step input):
   accuracy and run time.

The notebook's tasks (A1 .. E1) are listed in :data:`TASKS`; their checks follow the notebook's
parameters (:data:`PARAMETERS`, the parameter cell right after the imports): the system matrix
``A``, the sampling period ``T`` of Parts A-D and the sampling periods ``T_holds`` of Part E.
"""

from __future__ import annotations

import math
import time
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
    not_done,
)
from simlab.course.parameters import Parameter, Parameters, Rule, divides, each, increasing
from simlab.integrators import rk4
from simlab.plotting import line_style, subplots
from simlab.similarity import discretize, lsim

__all__ = [
    "A",
    "B",
    "C",
    "D",
    "T",
    "T_END_D",
    "HOLD_STEPS",
    "SERIES_LIMIT",
    "SeriesConvergenceRow",
    "HoldErrors",
    "HoldAccuracy",
    "SimilarityVersusRK4Row",
    "Lab04Results",
    "phi_symbolic",
    "gamma_symbolic",
    "phi_series",
    "series_convergence",
    "exact_response",
    "transfer_function",
    "hold_accuracy",
    "similarity_versus_rk4",
    "check_phi",
    "check_gamma",
    "check_gamma_hat",
    "check_phi_t",
    "check_gamma_t",
    "check_series",
    "check_augmented",
    "check_recurrence",
    "check_orders",
    "PARAMETERS",
    "use_parameters",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
    "run",
    "plot_hold_accuracy",
    "plot_similarity_versus_rk4",
]

#: The example of the lab: G(s) = 1/((s + 1)(s + 2)) in companion form, y = x1.
A = np.array([[0.0, 1.0], [-2.0, -3.0]])
B = np.array([[0.0], [1.0]])
C = np.array([[1.0, 0.0]])
D = np.array([[0.0]])

#: Sampling period of Parts A-D (s): the notebook's parameter ``T``.
T = 0.5
#: Span of the recurrence of Part D, 0 <= t <= T_END_D (s); ``T`` must divide it.
T_END_D = 10.0
#: Sampling periods of the hold comparison of Part E (s): the notebook's parameter ``T_holds``.
HOLD_STEPS = (0.05, 0.1, 0.2, 0.5, 1.0)
#: The largest |lambda|_max T for which the truncated series of Task B1 stays accurate (Part B).
SERIES_LIMIT = 10.0


def _matrix(value):
    """A parameter value as a float array (a nested list of the notebook, or the lab's array)."""
    return np.asarray(value, dtype=float)


def _system_matrix_rule():
    """The rule of ``A``: 2 x 2, real, a12 != 0, two distinct real negative eigenvalues."""

    def check(value, values):
        try:
            matrix = _matrix(value)
        except (TypeError, ValueError):
            return f"got {value!r}, not a matrix of numbers"
        if matrix.shape != (2, 2) or not np.all(np.isfinite(matrix)):
            return f"got {value!r}, not a 2 x 2 matrix of finite numbers (one list per row)"
        if matrix[0, 1] == 0:
            return "a12 = 0: the input, which drives x2, never reaches the output y = x1 (G(s) = 0)"
        eigenvalues = np.linalg.eigvals(matrix)
        scale = max(1.0, float(np.max(np.abs(eigenvalues))))
        if np.any(np.abs(eigenvalues.imag) > 1e-12 * scale):
            return f"its eigenvalues {', '.join(f'{e:.4g}' for e in eigenvalues)} are complex"
        eigenvalues = np.sort(eigenvalues.real)
        if eigenvalues[-1] >= 0:
            return f"its eigenvalues {eigenvalues[0]:.4g}, {eigenvalues[1]:.4g} are not both negative (unstable)"
        if eigenvalues[1] - eigenvalues[0] <= 1e-6 * scale:
            return f"its eigenvalue {eigenvalues[0]:.4g} is repeated"
        return None

    return Rule("{name} is a 2 x 2 real matrix with a12 != 0 and two distinct real negative eigenvalues", check)


def _series_rule():
    """The rule of ``T``: |lambda|_max T <= SERIES_LIMIT, so that the series of Task B1 is accurate."""

    def check(value, values):
        try:
            step, matrix = float(value), _matrix(values.get("A", A))
            radius = float(np.max(np.abs(np.linalg.eigvals(matrix))))
        except (TypeError, ValueError, np.linalg.LinAlgError):
            return None  # T's other rule, or A's rule, reports it
        if radius * step > SERIES_LIMIT:
            return (f"|lambda|_max T = {radius:g} * {step:g} = {radius * step:g} > {SERIES_LIMIT:g}; take "
                    f"T <= {SERIES_LIMIT / radius:g} s")
        return None

    return Rule(f"|lambda|_max {{name}} <= {SERIES_LIMIT:g}, with the eigenvalues lambda of A: the truncated "
                "series of Part B stays accurate", check)


#: The parameters of the notebook (its parameter cell, right after the imports), with their rules.
PARAMETERS = Parameters(
    Parameter("A", A, "1/s", "system matrix of x' = A x + B u, one list per row; B = [0, 1]^T and y = x1 "
              "are fixed", (_system_matrix_rule(),), alternative=[[0.0, 1.0], [-6.0, -5.0]]),
    Parameter("T", T, "s", "sampling period (采样周期) of Parts A-D", (divides(T_END_D), _series_rule()),
              alternative=0.25),
    Parameter("T_holds", HOLD_STEPS, "s", "sampling periods of the hold comparison (保持器) of Part E",
              (increasing(min_length=3), each(divides(10.0))), alternative=(0.02, 0.05, 0.1, 0.2)),
)
use_parameters = PARAMETERS.use


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesConvergenceRow:
    """One row of :func:`series_convergence`: the truncated series against ``expm``.

    Attributes
    ----------
    terms : int
        Number N of series terms, k = 0 .. N - 1.
    phi_error : float
        max |Phi_N(T) - e^{AT}| over the entries (dimensionless, as Phi).
    gamma_error : float
        max |m_N(T) - m(T)| over the entries (in the unit of m(T): s times the unit of B).
    """

    terms: int
    phi_error: float
    gamma_error: float


@dataclass(frozen=True)
class HoldErrors:
    """Max errors of both holds for one input of :func:`hold_accuracy`, one value per T.

    Attributes
    ----------
    kind : str
        The input: ``"step"`` (u = 1), ``"ramp"`` (u = t) or ``"sine"`` (u = sin t).
    zoh : tuple of float, shape (K,)
        max_k |y_k - y(t_k)| with the zero-order hold, per sampling period of
        :attr:`HoldAccuracy.steps` (in the unit of y).
    foh : tuple of float, shape (K,)
        The same with the triangle (first-order) hold.
    """

    kind: str
    zoh: tuple
    foh: tuple


@dataclass(frozen=True)
class HoldAccuracy:
    """Result of :func:`hold_accuracy`: zoh and foh against the exact response, per input and T.

    Attributes
    ----------
    steps : tuple of float, shape (K,)
        The sampling periods T (s).
    step, ramp, sine : HoldErrors
        The errors for the step, ramp and sine inputs.
    """

    steps: tuple
    step: HoldErrors
    ramp: HoldErrors
    sine: HoldErrors

    @property
    def inputs(self):
        """The three :class:`HoldErrors`, in the order step, ramp, sine."""
        return (self.step, self.ramp, self.sine)


@dataclass(frozen=True)
class SimilarityVersusRK4Row:
    """One row of :func:`similarity_versus_rk4`: both methods at the step T = h.

    Attributes
    ----------
    T : float
        Sampling period of discrete similarity and step h of RK4 (s).
    error_similarity, error_rk4 : float
        max_k |y_k - y(t_k)| against the exact response (in the unit of y).
    time_similarity, time_rk4 : float
        Best run time of ``repeats`` runs (s).
    """

    T: float
    error_similarity: float
    error_rk4: float
    time_similarity: float
    time_rk4: float


@dataclass(frozen=True)
class Lab04Results:
    """Everything :func:`run` computes (``run().data``).

    Attributes
    ----------
    T : float
        Sampling period of the Phi(T), m(T) and series experiments (s).
    Phi : ndarray, shape (2, 2)
        Phi(T) = e^{AT} (dimensionless).
    Gamma : ndarray, shape (2, 1)
        m(T) = integral_0^T e^{As} ds B (s times the unit of B).
    series : tuple of SeriesConvergenceRow
        The truncated series against expm at T, for 1 .. 20 terms.
    holds : HoldAccuracy
        Zero- and triangle-hold errors per input and T.
    versus : tuple of SimilarityVersusRK4Row
        Discrete similarity against RK4 at equal step, one row per step.
    """

    T: float
    Phi: np.ndarray
    Gamma: np.ndarray
    series: tuple
    holds: HoldAccuracy
    versus: tuple


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def phi_symbolic(A_matrix=A):
    """Phi(t) = L^-1{(sI - A)^-1} with sympy, as a sympy Matrix in the symbol ``t``.

    This is the textbook's hand calculation: the state-transition matrix (状态转移矩阵).
    """
    import sympy as sp

    s = sp.Symbol("s")
    t = sp.Symbol("t", positive=True)
    M = sp.Matrix(np.asarray(A_matrix).tolist()).applyfunc(sp.nsimplify)
    resolvent = (s * sp.eye(M.shape[0]) - M).inv()
    return resolvent.applyfunc(lambda entry: sp.simplify(sp.inverse_laplace_transform(sp.apart(entry, s), s, t)))


def gamma_symbolic(A_matrix=A, B_matrix=B):
    """m(T) = integral_0^T Phi(tau) d tau B with sympy, as a Matrix in the symbol ``T``."""
    import sympy as sp

    t = sp.Symbol("t", positive=True)
    T = sp.Symbol("T", positive=True)
    Phi = phi_symbolic(A_matrix)
    integral = Phi.applyfunc(lambda entry: sp.integrate(entry, (t, 0, T)))
    return sp.simplify(integral * sp.Matrix(np.asarray(B_matrix).tolist()).applyfunc(sp.nsimplify))


def phi_series(A_matrix, T, terms, B_matrix=B):
    """Truncated series: Phi ~ sum_{k<terms} (AT)^k / k!,  m ~ T sum_{k<terms} (AT)^k / (k+1)! B.

    Returns
    -------
    Phi : ndarray, shape (n, n)
    Gamma : ndarray, shape (n, m)
        For ``B_matrix`` of shape (n, m) (the lab's B by default).
    """
    A_matrix = np.asarray(A_matrix, dtype=float)
    n = len(A_matrix)
    term = np.eye(n)  # (AT)^k / k!
    Phi = np.zeros((n, n))
    integral = np.zeros((n, n))  # sum (AT)^k / (k+1)!
    for k in range(terms):
        Phi += term
        integral += term / (k + 1)
        term = term @ (A_matrix * T) / (k + 1)
    return Phi, T * integral @ np.asarray(B_matrix, dtype=float)


def series_convergence(T=0.5, max_terms=20, A_matrix=A):
    """Error of the truncated series against ``discretize`` (expm) versus the number of terms.

    Returns
    -------
    tuple of SeriesConvergenceRow
        One row per number of terms, 1 .. ``max_terms``, for the system matrix ``A_matrix``
        (the lab's A by default).
    """
    A_matrix = _matrix(A_matrix)
    Phi_exact, Gamma_exact = discretize(A_matrix, B, T)
    rows = []
    for terms in range(1, max_terms + 1):
        Phi, Gamma = phi_series(A_matrix, T, terms)
        rows.append(SeriesConvergenceRow(terms, float(np.max(np.abs(Phi - Phi_exact))),
                                         float(np.max(np.abs(Gamma - Gamma_exact)))))
    return tuple(rows)


def exact_response(kind, t, A_matrix=A):
    """Exact output y = x1 of x' = A x + B u from rest for u = 1 (step), t (ramp) or sin(t).

    For the lab's A, G(s) = 1/((s+1)(s+2)), the closed forms from partial fractions (checked
    against sympy in the tests): step 1/2 - e^{-t} + e^{-2t}/2; ramp t/2 - 3/4 + e^{-t} - e^{-2t}/4;
    sine (sin t - 3 cos t)/10 + e^{-t}/2 - e^{-2t}/5. For another ``A_matrix`` (distinct real
    eigenvalues lambda_i), the same partial fractions G(s) = sum_i r_i/(s - lambda_i) with the
    residues r_i from the eigenvectors: :func:`_modal_response`.
    """
    if kind not in _INPUTS:
        raise ValueError(f"kind must be 'step', 'ramp' or 'sine', got {kind!r}.")
    t = np.asarray(t, dtype=float)
    if not np.array_equal(_matrix(A_matrix), A):
        return _modal_response(kind, t, _matrix(A_matrix))
    e1, e2 = np.exp(-t), np.exp(-2 * t)
    if kind == "step":
        return 0.5 - e1 + 0.5 * e2
    if kind == "ramp":
        return 0.5 * t - 0.75 + e1 - 0.25 * e2
    if kind == "sine":
        return (np.sin(t) - 3 * np.cos(t)) / 10 + 0.5 * e1 - 0.2 * e2


def _modal_response(kind, t, A_matrix):
    """Exact response of C (sI - A)^-1 B = sum_i r_i/(s - lambda_i) (distinct real eigenvalues) from rest.

    Per mode: step (e^{lambda t} - 1)/lambda; ramp (e^{lambda t} - 1)/lambda^2 - t/lambda;
    sine (e^{lambda t} - lambda sin t - cos t)/(1 + lambda^2).
    """
    eigenvalues, V = np.linalg.eig(A_matrix)
    eigenvalues, V = eigenvalues.real, V.real
    residues = (C @ V).ravel() * np.linalg.solve(V, B).ravel()
    y = np.zeros_like(t)
    for lam, r in zip(eigenvalues, residues):
        growth = np.exp(lam * t)
        if kind == "step":
            y = y + r * (growth - 1) / lam
        elif kind == "ramp":
            y = y + r * ((growth - 1) / lam**2 - t / lam)
        else:
            y = y + r * (growth - lam * np.sin(t) - np.cos(t)) / (1 + lam**2)
    return y


def transfer_function(A_matrix=A):
    """G(s) = C (sI - A)^-1 B of the lab's B = [0, 1]^T, C = [1, 0]: a12 / (s^2 - tr(A) s + det A).

    Returns
    -------
    num : ndarray, shape (1,)
        [a12].
    den : ndarray, shape (3,)
        [1, -(a11 + a22), a11 a22 - a12 a21], descending powers of s (exact for integer entries).
    """
    (a11, a12), (a21, a22) = _matrix(A_matrix)
    return np.array([a12]), np.array([1.0, -(a11 + a22), a11 * a22 - a12 * a21])


_INPUTS = {"step": np.ones_like, "ramp": lambda t: t, "sine": np.sin}


def hold_accuracy(steps=HOLD_STEPS, t_end=10.0, A_matrix=A):
    """Max error of zoh and foh discrete similarity against the exact response, per input and T.

    Returns
    -------
    HoldAccuracy
        ``steps`` and, per input (``step``, ``ramp``, ``sine``), the max |y - y_exact| of
        each hold (``zoh``, ``foh``) per T, for the system matrix ``A_matrix`` (the lab's A by
        default).
    """
    A_matrix = _matrix(A_matrix)
    by_input = {}
    for kind, make_input in _INPUTS.items():
        errors = {"zoh": [], "foh": []}
        for T in steps:
            t = np.linspace(0.0, t_end, round(t_end / T) + 1)
            for hold in ("zoh", "foh"):
                y = lsim(A_matrix, B, C, D, make_input(t), t, hold=hold).y
                errors[hold].append(float(np.max(np.abs(y - exact_response(kind, t, A_matrix)))))
        by_input[kind] = HoldErrors(kind, zoh=tuple(errors["zoh"]), foh=tuple(errors["foh"]))
    return HoldAccuracy(steps=tuple(float(T) for T in steps), **by_input)


def _best_time_and_error(simulate_output, exact, repeats):
    """Best run time (s) of ``repeats`` calls of ``simulate_output()`` and its max |y - exact|."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        y = simulate_output()
        best = min(best, time.perf_counter() - start)
    return best, float(np.max(np.abs(y - exact)))


def similarity_versus_rk4(steps=(0.5, 0.2, 0.1, 0.05, 0.02), t_end=10.0, r=5.0, repeats=3):
    """Discrete similarity (zoh) versus RK4 at equal step on the lab02 closed loop, step input r.

    Returns
    -------
    tuple of SimilarityVersusRK4Row
        Per step: ``T``, ``error_similarity``, ``error_rk4`` (max |y - exact|), ``time_similarity``
        and ``time_rk4`` (best of ``repeats``, seconds).
    """
    from simlab.course.systems import seed_rk4_exact, seed_rk4_system

    A_loop, b, c = seed_rk4_system()
    B_loop, C_loop, D_loop = b.reshape(3, 1), c.reshape(1, 3), np.zeros((1, 1))
    rows = []
    for T in steps:
        t = np.linspace(0.0, t_end, round(t_end / T) + 1)
        exact = seed_rk4_exact(t, r=r)

        def by_similarity():
            return lsim(A_loop, B_loop, C_loop, D_loop, np.full(len(t), r), t).y

        def by_rk4():
            return rk4(lambda _, x: A_loop @ x + b * r, (0.0, t_end), np.zeros(3), T).x @ c

        time_similarity, error_similarity = _best_time_and_error(by_similarity, exact, repeats)
        time_rk4, error_rk4 = _best_time_and_error(by_rk4, exact, repeats)
        rows.append(SimilarityVersusRK4Row(T=T, error_similarity=error_similarity, error_rk4=error_rk4,
                                           time_similarity=time_similarity, time_rk4=time_rk4))
    return tuple(rows)


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes a task's answers positionally and the notebook's parameters (A, and T
# or T_holds for Part E) as keywords with the lab's values, so that a correct answer stays correct
# when a student changes them. A arrives as the notebook's nested list: _matrix makes it an array.
# ---------------------------------------------------------------------------------------------


def check_phi(Phi, T=T, A=A):
    """Self-check of Phi(T) = e^{AT} for the notebook's A (Tasks A1, B1, C1), shape (2, 2)."""
    A = _matrix(A)
    reference, _ = discretize(A, B, T)
    return check_array(
        f"Phi(T) at T = {T:g}", Phi, reference, rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(np.eye(2) + A * T, "that is I + A T, the first two terms of the series "
                       "(Euler's approximation); Phi = e^{AT} needs all of them: use scipy.linalg.expm."),
                      (np.exp(A * T), "np.exp works entry by entry; the matrix exponential is "
                       "scipy.linalg.expm(A * T)."),
                      (discretize(A, B, 1.0)[0], "that is e^{A}, the step T = 1: the blocks of M are "
                       "A T and B T, scaled by the step.")],
    )


def _column(value):
    """A 2-vector as the column (2, 1) the references have; anything else unchanged."""
    return np.reshape(value, (-1, 1)) if np.size(value) == 2 and np.ndim(value) < 3 else value


def check_gamma(Gamma, T=T, A=A):
    """Self-check of m(T) = integral_0^T e^{A s} ds B (Tasks A2, B1, C1), shape (2, 1)."""
    Phi, reference, Gamma_hat = discretize(_matrix(A), B, T, hold="foh")
    return check_array(
        f"m(T) at T = {T:g}", _column(Gamma), reference, rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(B * T, "that is B T, which treats e^{As} as I over the step; integrate e^{As} B."),
                      (Phi @ B * T, "that is Phi B T (the rectangle rule with the end value); integrate "
                       "e^{As} B over the step."),
                      (reference / T, "that is m(T) / T: a factor T is missing (the block of M is B T; "
                       "the series has T in front of its sum)."),
                      (Gamma_hat, "that is Gamma_hat, the last block column of e^M; m(T) is the middle one.")],
    )


def check_gamma_hat(Gamma_hat, T=T, A=A):
    """Self-check of the triangle-hold matrix (1/T) integral_0^T e^{A(T - tau)} tau d tau B (Task C1)."""
    _, Gamma, reference = discretize(_matrix(A), B, T, hold="foh")
    return check_array(
        f"Gamma_hat at T = {T:g}", _column(Gamma_hat), reference, rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(T * reference, "off by a factor T: Gamma_hat carries the 1/T of the slope "
                       "(u[k+1] - u[k]) / T."),
                      (np.zeros_like(reference), "Gamma_hat is zero: the block I_m of M (rows n .. n + m, "
                       "columns n + m ..) that makes the input ramp is missing."),
                      (Gamma, "that is Gamma = m(T), the middle block column of e^M; Gamma_hat is the last.")],
    )


def _numbers(title, matrix, symbol, values, shape, hints):
    """Evaluate a sympy matrix in the symbol named ``symbol`` at ``values``: (array, None) or (None, problem).

    ``hints`` maps the names of symbols that must not remain to what their presence means.
    """
    import sympy as sp

    try:
        matrix = sp.Matrix(matrix)
    except (TypeError, ValueError, sp.SympifyError):
        return None, CheckResult(False, title, f"expected a sympy Matrix, got {type(matrix).__name__}.")
    if matrix.shape != shape:
        return None, CheckResult(False, title, f"expected a {shape[0]} x {shape[1]} matrix, got "
                                 f"{matrix.shape[0]} x {matrix.shape[1]}. {hints.get('shape', '')}".rstrip())
    names = {item.name: item for item in matrix.free_symbols}
    extra = sorted(set(names) - {symbol})
    if extra:
        return None, CheckResult(False, title, hints.get(extra[0], f"the matrix still contains the symbol "
                                                         f"{extra[0]}; it must be a function of {symbol} only."))
    if symbol not in names:
        return None, CheckResult(False, title, f"the matrix does not depend on {symbol}: it must be the "
                                 f"function of {symbol}, not its value at one point.")
    try:
        array = np.array([np.array(matrix.subs(names[symbol], value).evalf(), dtype=float) for value in values])
    except (TypeError, ValueError):
        return None, CheckResult(False, title, f"the matrix does not evaluate to real numbers at {symbol} = "
                                 f"{values[0]:g}.")
    return array, None


def check_phi_t(Phi_t, T=T, A=A):
    """Self-check of Task A1: Phi(t) = L^-1{(sI - A)^-1}, a sympy Matrix in t, at t = T and 2T."""
    A = _matrix(A)
    title = f"Phi(t) at t = T and 2T (T = {T:g})"
    values, problem = _numbers(title, Phi_t, "t", (T, 2 * T), (2, 2), {
        "s": "the matrix is still in s: take the inverse Laplace transform of every entry of the "
             "resolvent, sp.inverse_laplace_transform(entry, s, t)."})
    if problem is not None:
        return problem
    steps = (T, 2 * T)
    reference = np.array([discretize(A, B, T_i)[0] for T_i in steps])
    return check_array(title, values, reference, rtol=1e-8, atol=1e-10, what="entries", alternatives=[
        (-reference, "that is -Phi(t): the resolvent is (sI - A)^-1; (A - sI)^-1 is its negative."),
        (np.array([discretize(-A, B, T_i)[0] for T_i in steps]), "that is e^{-At}, the inverse transform of "
         "(sI + A)^-1: the resolvent is (sI - A)^-1, with a minus in front of A."),
        (np.array([np.exp(A * T_i) for T_i in steps]), "that is e^{a_ij t} entry by entry; the "
         "state-transition matrix is the inverse Laplace transform of (sI - A)^-1."),
        (np.array([np.eye(2) + A * T_i for T_i in steps]), "that is I + A t, the first two terms of "
         "the series e^{At}.")])


def check_gamma_t(Gamma_T, T=T, A=A):
    """Self-check of Task A2: m(T) = integral_0^T Phi(t) dt B, a sympy Matrix in T, at T and 2T."""
    A = _matrix(A)
    title = f"m(T) at T = {T:g} and {2 * T:g}"
    values, problem = _numbers(title, Gamma_T, "T", (T, 2 * T), (2, 1), {
        "t": "t is still in it: integrate every entry over t from 0 to T_sym, a definite integral "
             "sp.integrate(entry, (t, 0, T_sym)).",
        "shape": "m(T) is a column, 2 x 1: multiply the integral of Phi(t) by B_sym."})
    if problem is not None:
        return problem
    steps = (T, 2 * T)
    reference = np.array([discretize(A, B, T_i)[1] for T_i in steps])
    return check_array(title, values, reference, rtol=1e-8, atol=1e-10, what="entries", alternatives=[
        (np.array([discretize(A, B, T_i)[0] @ B * T_i for T_i in steps]), "that is Phi(T) B T (the "
         "rectangle rule with the end value); integrate Phi(t) over 0 <= t <= T."),
        (np.array([B * T_i for T_i in steps]), "that is B T, which treats Phi(t) as I over the step."),
        (-reference, "that is -m(T): the limits of the integral are reversed; integrate from 0 to T_sym, "
         "(t, 0, T_sym)."),
        (np.array([discretize(A, B, T_i)[0] @ B for T_i in steps]), "that is Phi(T) B, the free response "
         "from x0 = B at t = T; m(T) is the integral of Phi(t) B over 0 <= t <= T.")])


def check_series(series_phi_gamma, T=T, A=A):
    """Self-check of Task B1: the function ``series_phi_gamma(A, B, T, terms)``, called with N and 3 terms.

    N = 20, or more where (|lambda|_max T)^N / N! is not yet below 1e-14 (long steps).
    """
    A = _matrix(A)
    title = f"series_phi_gamma(A, B, T, terms) at T = {T:g}"
    rho_T, terms = float(np.max(np.abs(np.linalg.eigvals(A)))) * T, 20
    while rho_T**terms / math.factorial(terms) > 1e-14:
        terms += 1
    try:
        Phi_20, Gamma_20 = series_phi_gamma(A.copy(), B.copy(), T, terms)
        Phi_3, _ = series_phi_gamma(A.copy(), B.copy(), T, 3)
    except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
        if isinstance(error, NotImplementedError):
            return not_done("B1", "series_phi_gamma still raises NotImplementedError; write its body in "
                                  "the cell above and run it.")
        return CheckResult(False, title, f"calling it raised {type(error).__name__}: {error}")
    Phi, Gamma = discretize(A, B, T)
    geometric = sum(np.linalg.matrix_power(A * T, k) for k in range(terms))
    from_one = phi_series(A, T, terms + 1)[0] - np.eye(2)
    return all_of(title, [
        check_array(f"Phi with {terms} terms", Phi_20, Phi, rtol=1e-8, atol=1e-10, what="entries", alternatives=[
            (geometric, "that is the sum of (AT)^k without the factorials: the update of the term needs "
             "the division by k + 1, (AT)^{k+1}/(k+1)! = (AT)^k/k! * AT/(k+1)."),
            (np.eye(2) + A * T, "that is I + A T, the first two terms only."),
            (from_one, "the sum misses I, the term k = 0: it starts at k = 1. Add the term to the sums "
             "before you update it to the next one.")]),
        check_array(f"m(T) with {terms} terms", _column(Gamma_20), Gamma, rtol=1e-8, atol=1e-10, what="entries",
                    alternatives=[
            (Phi @ B * T, "that is T e^{AT} B: the series of m divides the k-th term by (k+1)!, not k!; add "
             "term / (k + 1) to the integral."),
            (Gamma / T, "the factor T in front of the sum is missing: m = T sum (AT)^k/(k+1)! B.")]),
        check_array("Phi with 3 terms", Phi_3, phi_series(A, T, 3)[0], rtol=1e-12, atol=1e-14, what="entries",
                    alternatives=[(phi_series(A, T, terms)[0], f"that is the sum of {terms} terms; `terms` "
                                   f"counts k = 0 .. terms - 1, so 3 terms are I + AT + (AT)^2/2.")
                                  for terms in (2, 4)]),
    ])


def check_augmented(Phi_aug, Gamma_aug, Gamma_hat_aug, T=T, A=A):
    """Self-check of Task C1: Phi, Gamma and Gamma_hat read off e^M of the augmented matrix M."""
    return all_of(f"Phi, Gamma, Gamma_hat from e^M at T = {T:g}", [
        check_phi(Phi_aug, T, A), check_gamma(Gamma_aug, T, A), check_gamma_hat(Gamma_hat_aug, T, A)])


def _grid_d(T=T):
    """Time grid of Part D, t_k = k T on [0, T_END_D] (s)."""
    return np.linspace(0.0, T_END_D, round(T_END_D / T) + 1)


def _recurrence(Phi, Gamma, C_matrix, u, x0):
    """The zero-order-hold recurrence x_{k+1} = Phi x_k + Gamma u_k, y_k = C x_k (one input, one output)."""
    x = np.empty((len(u), len(x0)))
    x[0] = x0
    for k in range(len(u) - 1):
        x[k + 1] = Phi @ x[k] + np.asarray(Gamma)[:, 0] * u[k]
    return x @ np.asarray(C_matrix)[0]


def check_recurrence(recurrence, T=T, A=A):
    """Self-check of Task D1: ``recurrence(Phi, Gamma, C, u, x0)`` on the sine input and on a free response."""
    A = _matrix(A)
    title = f"recurrence(Phi, Gamma, C, u, x0) at T = {T:g}"
    t = _grid_d(T)
    Phi, Gamma = discretize(A, B, T)
    u_sine, x0, u_zero = np.sin(t), np.array([1.0, 0.0]), np.zeros(len(t))
    try:
        y_sine = recurrence(Phi.copy(), Gamma.copy(), C.copy(), u_sine.copy(), np.zeros(2))
        y_free = recurrence(Phi.copy(), Gamma.copy(), C.copy(), u_zero.copy(), x0.copy())
    except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
        if isinstance(error, NotImplementedError):
            return not_done("D1", "recurrence still raises NotImplementedError; write its body in "
                                  "the cell above and run it.")
        return CheckResult(False, title, f"calling it raised {type(error).__name__}: {error}")
    u_ahead = np.append(u_sine[1:], u_sine[-1])
    y_euler = _recurrence(np.eye(2) + A * T, B * T, C, u_sine, np.zeros(2))
    transposed = ("x[k] @ Phi multiplies by the transpose of Phi (a row times the matrix); the step is "
                  "Phi @ x[k].")
    return all_of(title, [
        check_array("y_k for u = sin t from rest", y_sine, lsim(A, B, C, D, u_sine, t).y, what="y_k", alternatives=[
            (lsim(A, B, C, D, u_ahead, t).y, "you used u[k+1] in the step from k to k+1; the zero-order hold "
             "holds u[k] over [kT, (k+1)T)."),
            (y_euler, "these are Euler's numbers: Phi = I + A T and Gamma = B T. Use the Phi and Gamma passed in."),
            (_recurrence(Phi.T, Gamma, C, u_sine, np.zeros(2)), transposed)]),
        check_array("y_k of the free response from x0 = (1, 0)", y_free, lsim(A, B, C, D, u_zero, t, x0=x0).y,
                    what="y_k", alternatives=[
            (u_zero, "the initial state is ignored: start the loop from x[0] = x0."),
            (_recurrence(Phi.T, Gamma, C, u_zero, x0), transposed)]),
    ])


def _orders(T_holds=HOLD_STEPS, A=A):
    """Fits of log e against log T for Part E: {(input, hold): (slope, intercept, swapped slope, linear slope)}."""
    holds = hold_accuracy(T_holds, A_matrix=A)
    log_T = np.log(holds.steps)
    fits = {}
    for errors in holds.inputs:
        for hold, values in (("zoh", errors.zoh), ("foh", errors.foh)):
            log_e = np.log(np.maximum(values, 1e-300))
            slope, intercept = np.polyfit(log_T, log_e, 1)
            fits[errors.kind, hold] = (float(slope), float(intercept), float(np.polyfit(log_e, log_T, 1)[0]),
                                       float(np.polyfit(holds.steps, values, 1)[0]))
    return fits


def check_orders(p_zoh, p_foh, T_holds=HOLD_STEPS, A=A):
    """Self-check of Task E1: the slopes p of log e against log T for the sine input, both holds."""
    fits = _orders(T_holds, A)
    parts = []
    for name, hold, other, answer, theory in (("zero-order hold", "zoh", "foh", p_zoh, 1),
                                              ("triangle hold", "foh", "zoh", p_foh, 2)):
        slope, intercept, swapped, linear = fits["sine", hold]
        parts.append(check_value(f"order of the {name} (sine input; theory {theory})", answer, slope, rtol=1e-6,
                                 alternatives=[
            (swapped, "you fitted log T against log e; the order is the slope of log e against log T."),
            (intercept, "that is the intercept log c; np.polyfit returns [slope, intercept], the order is "
             "element [0]."),
            (fits["ramp", hold][0], "that is the fit for the ramp input; the task asks for the sine input."),
            (linear, "that is the slope of e against T; e ~ c T^p is a straight line in the logarithms: fit "
             "np.log(errors) against np.log(steps)."),
            (fits["sine", other][0], f"that is the order of the other hold (holds.sine.{other}); the {name} is "
             f"holds.sine.{hold}.")]))
    return all_of("measured orders of the holds", parts)


def _reference_symbolic(T=T, A=A):
    """Reference answers of Tasks A1 and A2 (sympy matrices in t and T)."""
    return {"Phi_t": phi_symbolic(_matrix(A)), "Gamma_T": gamma_symbolic(_matrix(A))}


def _series_phi_gamma(A_matrix, B_matrix, T, terms):
    """The reference of Task B1: :func:`phi_series` with the arguments of the notebook's function."""
    return phi_series(A_matrix, T, terms, B_matrix)


def _reference_matrices(T=T, A=A):
    """Reference answers of Tasks B1 and C1."""
    Phi, Gamma, Gamma_hat = discretize(_matrix(A), B, T, hold="foh")
    return {"series_phi_gamma": _series_phi_gamma, "Phi_aug": Phi, "Gamma_aug": Gamma, "Gamma_hat_aug": Gamma_hat}


def _reference_recurrence(T=T, A=A):
    """Reference answers of Task D1: the function and its two runs of the notebook (step and sine)."""
    t = _grid_d(T)
    A = _matrix(A)
    return {"recurrence": _recurrence, "y_step_loop": lsim(A, B, C, D, np.ones(len(t)), t).y,
            "y_sine_loop": lsim(A, B, C, D, np.sin(t), t).y}


def _reference_orders(T_holds=HOLD_STEPS, A=A):
    """Reference answers of Task E1."""
    fits = _orders(T_holds, A)
    return {"p_zoh": fits["sine", "zoh"][0], "p_foh": fits["sine", "foh"][0]}


#: The tasks of lab 04, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("Phi_t",), check_phi_t, ("A", "T"), _reference_symbolic, "Phi(t) by hand with sympy"),
    Task("A2", ("Gamma_T",), check_gamma_t, ("A", "T"), _reference_symbolic, "m(T) by hand with sympy"),
    Task("B1", ("series_phi_gamma",), check_series, ("A", "T"), _reference_matrices, "the truncated series"),
    Task("C1", ("Phi_aug", "Gamma_aug", "Gamma_hat_aug"), check_augmented, ("A", "T"), _reference_matrices,
         "Phi, Gamma and Gamma_hat from one matrix exponential"),
    Task("D1", ("recurrence",), check_recurrence, ("A", "T"), _reference_recurrence, "the recurrence by hand",
         also=("y_step_loop", "y_sine_loop")),
    Task("E1", ("p_zoh", "p_foh"), check_orders, ("A", "T_holds"), _reference_orders, "the orders of the holds"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "the resolvent (A - sI)^-1", "(s * sp.eye(2) - A_sym).inv()", "(A_sym - s * sp.eye(2)).inv()",
            "(A - sI)^-1 is its negative"),
    Mistake("A1", "no inverse Laplace transform",
            "Phi_t = resolvent.applyfunc(lambda entry: sp.inverse_laplace_transform(sp.apart(entry, s), s, t))",
            "Phi_t = resolvent", "still in s"),
    Mistake("A1", "e^{At} entry by entry",
            "Phi_t = resolvent.applyfunc(lambda entry: sp.inverse_laplace_transform(sp.apart(entry, s), s, t))",
            "Phi_t = (A_sym * t).applyfunc(sp.exp)", "entry by entry"),
    Mistake("A1", "the resolvent (sI + A)^-1", "(s * sp.eye(2) - A_sym).inv()", "(s * sp.eye(2) + A_sym).inv()",
            "that is e^{-At}"),
    Mistake("A2", "an indefinite integral", "sp.integrate(entry, (t, 0, T_sym))", "sp.integrate(entry, t)",
            "t is still in it"),
    Mistake("A2", "the rectangle rule Phi(T) T B",
            "Phi_t.applyfunc(lambda entry: sp.integrate(entry, (t, 0, T_sym))) * B_sym",
            "Phi_t.subs(t, T_sym) * T_sym * B_sym", "rectangle rule"),
    Mistake("A2", "the integral not multiplied by B", "(t, 0, T_sym))) * B_sym)", "(t, 0, T_sym))))",
            "multiply the integral of Phi(t) by B_sym"),
    Mistake("A2", "the limits of the integral reversed", "sp.integrate(entry, (t, 0, T_sym))",
            "sp.integrate(entry, (t, T_sym, 0))", "limits of the integral are reversed"),
    Mistake("A2", "Phi(T) B without the integral",
            "Phi_t.applyfunc(lambda entry: sp.integrate(entry, (t, 0, T_sym))) * B_sym",
            "Phi_t.subs(t, T_sym) * B_sym", "the free response"),
    Mistake("B1", "the term updated without the division by k + 1",
            "term = term @ (A * T) / (k + 1)", "term = term @ (A * T)", "division by k + 1"),
    Mistake("B1", "k! instead of (k+1)! in the series of m",
            "integral = integral + term / (k + 1)", "integral = integral + term", "(k+1)!, not k!"),
    Mistake("B1", "the factor T of m left out", "return Phi, T * integral @ B", "return Phi, integral @ B",
            "factor T in front of the sum"),
    Mistake("B1", "one term too many", "for k in range(terms):", "for k in range(terms + 1):", "sum of 4 terms"),
    Mistake("B1", "the term updated before it is added",
            "        Phi = Phi + term\n        integral = integral + term / (k + 1)\n"
            "        term = term @ (A * T) / (k + 1)",
            "        term = term @ (A * T) / (k + 1)\n        Phi = Phi + term\n"
            "        integral = integral + term / (k + 1)", "the sum misses I"),
    Mistake("C1", "B instead of B T in M", "M[:n, n : n + m] = B * T", "M[:n, n : n + m] = B", "factor T is missing"),
    Mistake("C1", "A instead of A T in M", "M[:n, :n] = A_matrix * T", "M[:n, :n] = A_matrix", "e^{A}"),
    Mistake("C1", "the last two block columns swapped",
            "Gamma_aug = E[:n, n : n + m]\nGamma_hat_aug = E[:n, n + m :]",
            "Gamma_aug = E[:n, n + m :]\nGamma_hat_aug = E[:n, n : n + m]", "that is Gamma_hat"),
    Mistake("C1", "np.exp instead of expm", "E = linalg.expm(M)", "E = np.exp(M)", "entry by entry"),
    Mistake("C1", "the identity block of M left out", "M[n : n + m, n + m :] = np.eye(m)",
            "M[n : n + m, n + m :] = 0.0", "Gamma_hat is zero"),
    Mistake("D1", "u[k+1] in the step", "Gamma[:, 0] * u[k]", "Gamma[:, 0] * u[k + 1]", "u[k+1]"),
    Mistake("D1", "the initial state ignored", "x[0] = x0", "x[0] = 0.0", "initial state is ignored"),
    Mistake("D1", "x[k] @ Phi instead of Phi @ x[k]", "Phi @ x[k]", "x[k] @ Phi", "transpose of Phi"),
    Mistake("E1", "log T fitted against log e",
            "p_zoh = np.polyfit(np.log(steps), np.log(holds.sine.zoh), 1)[0]",
            "p_zoh = np.polyfit(np.log(holds.sine.zoh), np.log(steps), 1)[0]", "log T against log e"),
    Mistake("E1", "the intercept instead of the slope",
            "p_foh = np.polyfit(np.log(steps), np.log(holds.sine.foh), 1)[0]",
            "p_foh = np.polyfit(np.log(steps), np.log(holds.sine.foh), 1)[1]", "intercept"),
    Mistake("E1", "the ramp input instead of the sine", "np.log(holds.sine.zoh)", "np.log(holds.ramp.zoh)",
            "ramp input"),
    Mistake("E1", "a fit without logarithms",
            "p_zoh = np.polyfit(np.log(steps), np.log(holds.sine.zoh), 1)[0]",
            "p_zoh = np.polyfit(steps, holds.sine.zoh, 1)[0]", "straight line in the logarithms"),
    Mistake("E1", "the holds swapped", "np.log(holds.sine.foh), 1)[0]", "np.log(holds.sine.zoh), 1)[0]",
            "the other hold"),
)

# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_hold_accuracy(holds):
    """Lab 04: max error of zero- and first-order-hold discrete similarity versus T, per input.

    ``holds`` is the :class:`HoldAccuracy` of :func:`hold_accuracy`.
    """
    fig, axes = subplots(1, 3, figsize=(12, 3.8), sharey=True)
    for ax, errors in zip(axes, holds.inputs):
        for i, (hold, values) in enumerate((("zoh", errors.zoh), ("foh", errors.foh))):
            values = np.maximum(values, 1e-17)  # exact results drawn at the floor
            ax.loglog(holds.steps, values, label=hold, **line_style(i + 1))
        ax.set(xlabel="T (s)", title=f"{errors.kind} input")
    axes[0].set_ylabel("max |y - y_exact|")
    axes[0].legend()
    return fig


def plot_similarity_versus_rk4(rows):
    """Lab 04: discrete similarity versus RK4 at equal step, error and run time.

    ``rows`` are the :class:`SimilarityVersusRK4Row` of :func:`similarity_versus_rk4`.
    """
    fig, (ax, ax_time) = subplots(1, 2, figsize=(10, 4))
    T = [row.T for row in rows]
    ax.loglog(T, [max(row.error_similarity, 1e-17) for row in rows], label="discrete similarity (zoh)",
              **line_style(1))
    ax.loglog(T, [row.error_rk4 for row in rows], label="RK4", **line_style(2))
    ax.set(xlabel="step T = h (s)", ylabel="max |y - y_exact|", title="Accuracy at equal step")
    ax.legend()
    ax_time.loglog(T, [row.time_similarity * 1e3 for row in rows], label="discrete similarity",
                   **line_style(1))
    ax_time.loglog(T, [row.time_rk4 * 1e3 for row in rows], label="RK4", **line_style(2))
    ax_time.set(xlabel="step T = h (s)", ylabel="run time (ms)", title="Cost at equal step")
    ax_time.legend()
    return fig


# ---------------------------------------------------------------------------------------------
# The whole lab
# ---------------------------------------------------------------------------------------------


def run():
    """Run lab 04 headless: Phi(T), m(T) and the series at T = 0.5, the holds, versus RK4.

    Returns
    -------
    ExperimentResult
        ``data`` is the :class:`Lab04Results`.
    """
    Phi, Gamma = discretize(A, B, T)
    results = Lab04Results(T=T, Phi=Phi, Gamma=Gamma, series=series_convergence(T), holds=hold_accuracy(),
                           versus=similarity_versus_rk4())
    series, holds = results.series, results.holds
    summary = [
        ("Phi(0.5) = expm(0.5 A)", np.array2string(Phi, precision=5, separator=", ").replace("\n", "")),
        ("m(0.5)", np.array2string(Gamma.ravel(), precision=5, separator=", ")),
        ("series terms for |Phi error| < 1e-10 (T = 0.5)",
         str(next((row.terms for row in series if row.phi_error < 1e-10), f"> {len(series)}"))),
    ]
    at_1 = holds.steps.index(1.0)
    for errors in holds.inputs:
        for hold, values in (("zoh", errors.zoh), ("foh", errors.foh)):
            summary.append((f"{errors.kind} input, {hold}, T = 1: max error", f"{values[at_1]:.2e}"))
    for row in results.versus:
        if row.T in (0.1, 0.02):
            summary.append((f"T = {row.T:g}: error similarity / RK4",
                            f"{row.error_similarity:.1e} / {row.error_rk4:.1e}"))
    return ExperimentResult(
        summary=summary,
        figures=[("lab04_holds", plot_hold_accuracy, results.holds),
                 ("lab04_versus_rk4", plot_similarity_versus_rk4, results.versus)],
        data=results,
    )
