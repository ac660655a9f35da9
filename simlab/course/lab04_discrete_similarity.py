"""Lab 04: the discrete similarity method (离散相似法), Phi(T) and m(T), holds, versus RK4.

Experiments, on the second-order example x' = A x + B u with A = [[0, 1], [-2, -3]],
B = [0, 1]^T, y = x1 (G(s) = 1/((s + 1)(s + 2))) unless stated otherwise:

1. Phi(T) = e^{AT} and m(T) = integral_0^T e^{A s} ds B three ways: by hand with sympy (inverse
   Laplace transform of (sI - A)^{-1}), by the truncated series sum (AT)^k / k!, and by
   ``scipy.linalg.expm`` (``simlab.discretize``).
2. Zero-order versus triangle (first-order) hold against the exact response for step, ramp and
   sine inputs as T grows: each hold is exact for the inputs it reproduces (zoh: piecewise
   constant; foh: piecewise linear) and otherwise has an error of order T (zoh) or T^2 (foh).
3. Discrete similarity versus RK4 at equal step on the closed loop of lab02 (step input):
   accuracy and run time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import check_array
from simlab.integrators import rk4
from simlab.plotting import line_style, subplots
from simlab.similarity import discretize, lsim

__all__ = [
    "A",
    "B",
    "C",
    "D",
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
    "hold_accuracy",
    "similarity_versus_rk4",
    "check_phi",
    "check_gamma",
    "check_gamma_hat",
    "run",
    "plot_hold_accuracy",
    "plot_similarity_versus_rk4",
]

#: The example of the lab: G(s) = 1/((s + 1)(s + 2)) in companion form, y = x1.
A = np.array([[0.0, 1.0], [-2.0, -3.0]])
B = np.array([[0.0], [1.0]])
C = np.array([[1.0, 0.0]])
D = np.array([[0.0]])


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


def phi_series(A_matrix, T, terms):
    """Truncated series: Phi ~ sum_{k<terms} (AT)^k / k!,  m ~ T sum_{k<terms} (AT)^k / (k+1)! B.

    Returns
    -------
    Phi, Gamma : ndarray
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
    return Phi, T * integral @ B


def series_convergence(T=0.5, max_terms=20):
    """Error of the truncated series against ``discretize`` (expm) versus the number of terms.

    Returns
    -------
    tuple of SeriesConvergenceRow
        One row per number of terms, 1 .. ``max_terms``.
    """
    Phi_exact, Gamma_exact = discretize(A, B, T)
    rows = []
    for terms in range(1, max_terms + 1):
        Phi, Gamma = phi_series(A, T, terms)
        rows.append(SeriesConvergenceRow(terms, float(np.max(np.abs(Phi - Phi_exact))),
                                         float(np.max(np.abs(Gamma - Gamma_exact)))))
    return tuple(rows)


def exact_response(kind, t):
    """Exact output of G(s) = 1/((s+1)(s+2)) from rest for u = 1 (step), t (ramp) or sin(t).

    Closed forms from partial fractions (checked against sympy in the tests):
    step 1/2 - e^{-t} + e^{-2t}/2; ramp t/2 - 3/4 + e^{-t} - e^{-2t}/4;
    sine (sin t - 3 cos t)/10 + e^{-t}/2 - e^{-2t}/5.
    """
    t = np.asarray(t, dtype=float)
    e1, e2 = np.exp(-t), np.exp(-2 * t)
    if kind == "step":
        return 0.5 - e1 + 0.5 * e2
    if kind == "ramp":
        return 0.5 * t - 0.75 + e1 - 0.25 * e2
    if kind == "sine":
        return (np.sin(t) - 3 * np.cos(t)) / 10 + 0.5 * e1 - 0.2 * e2
    raise ValueError(f"kind must be 'step', 'ramp' or 'sine', got {kind!r}.")


_INPUTS = {"step": np.ones_like, "ramp": lambda t: t, "sine": np.sin}


def hold_accuracy(steps=(0.05, 0.1, 0.2, 0.5, 1.0), t_end=10.0):
    """Max error of zoh and foh discrete similarity against the exact response, per input and T.

    Returns
    -------
    HoldAccuracy
        ``steps`` and, per input (``step``, ``ramp``, ``sine``), the max |y - y_exact| of
        each hold (``zoh``, ``foh``) per T.
    """
    by_input = {}
    for kind, make_input in _INPUTS.items():
        errors = {"zoh": [], "foh": []}
        for T in steps:
            t = np.linspace(0.0, t_end, round(t_end / T) + 1)
            for hold in ("zoh", "foh"):
                y = lsim(A, B, C, D, make_input(t), t, hold=hold).y
                errors[hold].append(float(np.max(np.abs(y - exact_response(kind, t)))))
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


def check_phi(Phi, T):
    """Self-check of Phi(T) = e^{AT} for the lab's A."""
    reference, _ = discretize(A, B, T)
    return check_array(
        f"Phi(T) at T = {T:g}", Phi, reference, rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(np.eye(2) + A * T, "that is I + A T, the first two terms of the series "
                       "(Euler's approximation); Phi = e^{AT} needs all of them: use scipy.linalg.expm."),
                      (np.exp(A * T), "np.exp works entry by entry; the matrix exponential is "
                       "scipy.linalg.expm(A * T).")],
    )


def check_gamma(Gamma, T):
    """Self-check of m(T) = integral_0^T e^{A s} ds B."""
    _, reference = discretize(A, B, T)
    return check_array(
        f"m(T) at T = {T:g}", np.reshape(Gamma, (-1, 1)) if np.size(Gamma) == 2 else Gamma, reference,
        rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(B * T, "that is B T, which treats e^{As} as I over the step; integrate e^{As} B."),
                      (discretize(A, B, T)[0] @ B * T, "that is Phi B T (the rectangle rule with the "
                       "end value); integrate e^{As} B over the step.")],
    )


def check_gamma_hat(Gamma_hat, T):
    """Self-check of the triangle-hold matrix (1/T) integral_0^T e^{A(T - tau)} tau d tau B."""
    _, _, reference = discretize(A, B, T, hold="foh")
    return check_array(
        f"Gamma_hat at T = {T:g}", np.reshape(Gamma_hat, (-1, 1)) if np.size(Gamma_hat) == 2 else Gamma_hat,
        reference, rtol=1e-8, atol=1e-10, what="entries",
        alternatives=[(T * reference, "off by a factor T: Gamma_hat carries the 1/T of the slope "
                       "(u[k+1] - u[k]) / T.")],
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
    T = 0.5
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
