"""Lab 03: model forms, conversions, connections and reduction (seed 003, 实验一 系统建模的MATLAB实现).

The seed's modelling lab, with G(s) = (s + 8)(s^2 + 2 s + 5) / ((2 s + 3)(3 s^2 + 4 s + 13)):

1. the transfer function, its differential equation, state space and zero-pole-gain forms, and
   the conversions back (tf2ss, ss2tf, tf2zp, zp2tf, ss2zp, zp2ss);
2. c2d with zero- and first-order hold at T = 1 s;
3. series, parallel and negative-feedback connection with a second system H(s), and the
   reduction (降阶) of the series connection by balanced truncation, step responses compared;
4. similar (analogous) systems: a mass-spring-damper and a series RLC circuit with one model;
5. the seed's RK4 lab of lab02 done the proper way, with ``feedback`` and ``tf2ss``.

The second system: the seed's line for H(s) is garbled in the source; only the denominator
s^2 + 6 s + 5 = (s + 1)(s + 5) is legible. We take H(s) = (s + 1)/(s^2 + 6 s + 5) (our choice,
marked as such in the lab), whose pole-zero cancellation shows what ``minreal`` is for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import CheckResult
from simlab.lti import (
    MinrealResult,
    balred,
    feedback,
    hankel_singular_values,
    minreal,
    parallel,
    series,
    ss2tf,
    ss2zp,
    tf2ss,
    tf2zp,
    zp2ss,
    zp2tf,
)
from simlab.plotting import line_style, subplots
from simlab.results import Result
from simlab.validation import as_choice

__all__ = [
    "G_NUM",
    "G_DEN",
    "H_NUM",
    "H_DEN",
    "CONNECTION_KINDS",
    "TransferFunction",
    "ModelForms",
    "Discretization",
    "Connection",
    "Connections",
    "Reduction",
    "AnalogousSystems",
    "SeedRK4Feedback",
    "Lab03Results",
    "differential_equation",
    "model_forms",
    "discretized",
    "connections",
    "reduction",
    "analogous_systems",
    "seed_rk4_with_feedback",
    "step_response",
    "same_transfer_function",
    "format_roots",
    "check_tf2ss",
    "check_connection",
    "run",
    "plot_reduction",
]

#: G(s) = (s + 8)(s^2 + 2 s + 5) / ((2 s + 3)(3 s^2 + 4 s + 13)), expanded.
G_NUM = np.polymul([1.0, 8.0], [1.0, 2.0, 5.0])
G_DEN = np.polymul([2.0, 3.0], [3.0, 4.0, 13.0])
#: The second system H(s) = (s + 1)/(s^2 + 6 s + 5) (numerator: our reconstruction, see above).
H_NUM = np.array([1.0, 1.0])
H_DEN = np.array([1.0, 6.0, 5.0])
#: The connections of G and H that the lab builds.
CONNECTION_KINDS = ("series", "parallel", "feedback")


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TransferFunction(Result):
    """A transfer function as its two coefficient arrays; unpacks as ``num, den``.

    A record of the coefficients as computed, kept exactly (the leading zeros of a discrete
    numerator included); :class:`simlab.TF` is the type to calculate with.

    Attributes
    ----------
    num : ndarray, shape (m + 1,)
        Numerator coefficients, descending powers of s (of z for a discrete model).
    den : ndarray, shape (n + 1,)
        Denominator coefficients, descending powers of s (of z for a discrete model).
    """

    unpacks_as = ("num", "den")

    num: np.ndarray
    den: np.ndarray


@dataclass(frozen=True)
class ModelForms:
    """The four forms of G and the round trips between them (:func:`model_forms`).

    Attributes
    ----------
    ode : str
        The differential equation of G as text (:func:`differential_equation`).
    ss : tuple (A, B, C, D) of ndarray
        ``tf2ss`` (controllable canonical form): A (n, n), B (n, 1), C (1, n), D (1, 1).
    zpk : tuple (z, p, k)
        ``tf2zp``: zeros z, shape (m,), and poles p, shape (n,), complex ndarrays (1/s); gain k.
    tf_from_ss, tf_from_zpk : tuple (num, den) of ndarray
        ``ss2tf`` of ``ss`` and ``zp2tf`` of ``zpk``, descending powers of s.
    zpk_from_ss : tuple (z, p, k)
        ``ss2zp`` of ``ss``.
    ss_from_zpk : tuple (A, B, C, D) of ndarray
        ``zp2ss`` of ``zpk``.
    agree : bool
        True if every form has the transfer function of G (:func:`same_transfer_function`).
    """

    ode: str
    ss: tuple
    zpk: tuple
    tf_from_ss: tuple
    tf_from_zpk: tuple
    zpk_from_ss: tuple
    ss_from_zpk: tuple
    agree: bool


@dataclass(frozen=True)
class Discretization:
    """c2d of G with zero-order hold, first-order (triangle) hold and Tustin (:func:`discretized`).

    Attributes
    ----------
    T : float
        Sample period (s).
    zoh, foh, tustin : TransferFunction
        The discrete transfer function of each method, descending powers of z, ``den[0] == 1``;
        num has leading zeros to the length of den (as MATLAB's ``c2dm``).
    """

    T: float
    zoh: TransferFunction
    foh: TransferFunction
    tustin: TransferFunction


@dataclass(frozen=True)
class Connection(Result):
    """One connection of G and H and its minimal realization; unpacks as ``num, den``.

    Attributes
    ----------
    kind : str
        ``"series"``, ``"parallel"`` or ``"feedback"`` (negative feedback).
    num, den : ndarray, 1-D
        The connection's transfer function as computed, descending powers of s.
    minreal : simlab.lti.MinrealResult
        ``simlab.minreal(num, den)``: the reduced num, den and the cancelled pole-zero pairs.
    """

    unpacks_as = ("num", "den")

    kind: str
    num: np.ndarray
    den: np.ndarray
    minreal: MinrealResult


@dataclass(frozen=True)
class Connections:
    """Series, parallel and negative-feedback connection of G and H (:func:`connections`).

    Attributes
    ----------
    series, parallel, feedback : Connection
        G H, G + H and G / (1 + G H).
    """

    series: Connection
    parallel: Connection
    feedback: Connection


@dataclass(frozen=True)
class Reduction(Result):
    """Balanced truncation of G H and the step responses before and after; unpacks as ``t, y_reduced``.

    Attributes
    ----------
    full : TransferFunction
        The series connection G H (order n = 5), descending powers of s.
    hsv : ndarray, shape (n,)
        Hankel singular values of the full model, largest first.
    order : int
        Order r of the reduced model.
    method : str
        ``"truncate"`` or ``"matchdc"`` (keeps the DC gain).
    reduced : TransferFunction
        The reduced model, descending powers of s.
    t : ndarray, shape (N + 1,)
        Uniform time grid (s).
    y_full, y_reduced : ndarray, shape (N + 1,)
        Unit-step responses of the full and of the reduced model.
    max_difference : float
        max_k |y_full - y_reduced|.
    error_bound : float
        2 (sigma_{r+1} + ... + sigma_n), a bound on the peak frequency-response error.
    dc_full, dc_reduced : float
        Steady-state gains G(0) of the full and of the reduced model.
    """

    unpacks_as = ("t", "y_reduced")

    full: TransferFunction
    hsv: np.ndarray
    order: int
    method: str
    reduced: TransferFunction
    t: np.ndarray
    y_full: np.ndarray
    y_reduced: np.ndarray
    max_difference: float
    error_bound: float
    dc_full: float
    dc_reduced: float


@dataclass(frozen=True)
class AnalogousSystems:
    """A mass-spring-damper and its series-RLC analogue (force-voltage analogy).

    Attributes
    ----------
    m, f, k : float
        Mass (kg), damping coefficient (N s/m) and spring stiffness (N/m).
    mechanical : TransferFunction
        Y(s)/F(s) = 1/(m s^2 + f s + k), displacement (m) per force (N).
    electrical : TransferFunction
        Q(s)/E(s) = 1/(L s^2 + R s + 1/C), charge (C) per voltage (V).
    L, R, C : float
        Inductance L = m (H), resistance R = f (ohm) and capacitance C = 1/k (F).
    same : bool
        True if the two transfer functions are the same.
    """

    m: float
    f: float
    k: float
    mechanical: TransferFunction
    electrical: TransferFunction
    L: float
    R: float
    C: float
    same: bool


@dataclass(frozen=True)
class SeedRK4Feedback(Result):
    """The seed's RK4 lab with ``feedback`` and ``tf2ss``; unpacks as ``t, y``.

    Attributes
    ----------
    num, den : ndarray, 1-D
        Closed loop 1/(s^3 + 4 s^2 + 8 s + 6), descending powers of s.
    A, B, C, D : ndarray
        Its ``tf2ss`` realization: A (3, 3), B (3, 1), C (1, 3), D (1, 1).
    t : ndarray, shape (N + 1,)
        Time grid t_k = k h (s).
    y : ndarray, shape (N + 1,)
        RK4 response to the step r.
    difference_to_lab02 : float
        max_k |y_k - y_k of lab02's hand-built model|.
    """

    unpacks_as = ("t", "y")

    num: np.ndarray
    den: np.ndarray
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    t: np.ndarray
    y: np.ndarray
    difference_to_lab02: float


@dataclass(frozen=True)
class Lab03Results:
    """Everything :func:`run` computes for lab 03.

    Attributes
    ----------
    forms : ModelForms
        The forms of G and their round trips.
    discrete : Discretization
        c2d of G at T = 1 s.
    connections : Connections
        Series, parallel and feedback connection of G and H.
    reductions : tuple of Reduction
        G H reduced to order 2 and 3 (truncate), 2 (matchdc) and 4 (truncate), in this order.
    analogous : AnalogousSystems
        The mechanical system and its electrical analogue.
    seed_rk4 : SeedRK4Feedback
        The seed's RK4 lab via ``feedback`` and ``tf2ss``.
    """

    forms: ModelForms
    discrete: Discretization
    connections: Connections
    reductions: tuple
    analogous: AnalogousSystems
    seed_rk4: SeedRK4Feedback


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def differential_equation(num, den, y="y", u="u"):
    """The differential equation of num/den as text, e.g. ``6 y''' + 17 y'' + ... = u''' + ...``."""

    def side(coefficients, name):
        order = len(coefficients) - 1
        terms = []
        for power, c in zip(range(order, -1, -1), coefficients):
            if c == 0:
                continue
            primes = "'" * power if power <= 3 else f"^({power})"
            value = f"{c:g} " if c != 1 else ""
            terms.append(f"{value}{name}{primes}")
        return " + ".join(terms).replace("+ -", "- ") or "0"

    num = np.trim_zeros(np.asarray(num, dtype=float), "f")
    den = np.trim_zeros(np.asarray(den, dtype=float), "f")
    return f"{side(den, y)} = {side(num, u)}"


def format_roots(roots, digits=4):
    """Roots as text with conjugate pairs written once, e.g. ``-1.5, -0.6667 ± 1.9720j``.

    Rounding noise in the imaginary part of a real root is dropped, so the text is the same on
    every machine.
    """
    roots = np.asarray(roots, dtype=complex)
    scale = max(1.0, float(np.max(np.abs(roots)))) if roots.size else 1.0
    real = sorted(float(r.real) for r in roots if abs(r.imag) <= 1e-9 * scale)
    upper = sorted((float(r.real), float(r.imag)) for r in roots if r.imag > 1e-9 * scale)
    parts = [f"{v:.{digits}f}" for v in real]
    parts += [f"{re:.{digits}f} ± {im:.{digits}f}j" for re, im in upper]
    return ", ".join(parts) if parts else "none"


def same_transfer_function(num1, den1, num2, den2, points=(0.3, 1j, 0.5 + 2j, 3.0, -0.2 + 0.7j)):
    """True if two transfer functions agree at several points of the s-plane (realization-free)."""
    s = np.asarray(points, dtype=complex)
    g1 = np.polyval(num1, s) / np.polyval(den1, s)
    g2 = np.polyval(num2, s) / np.polyval(den2, s)
    return bool(np.allclose(g1, g2, rtol=1e-9, atol=1e-12))


def model_forms(num=G_NUM, den=G_DEN):
    """The four forms of G and the round trips between them.

    Returns
    -------
    ModelForms
        ``ode`` (text), ``ss`` (A, B, C, D), ``zpk`` (z, p, k), and the round-trip results
        ``tf_from_ss``, ``tf_from_zpk``, ``zpk_from_ss``, ``ss_from_zpk`` with a flag ``agree``
        (every form has the same transfer function).
    """
    A, B, C, D = tf2ss(num, den)
    z, p, k = tf2zp(num, den)
    tf_from_ss = ss2tf(A, B, C, D)
    tf_from_zpk = zp2tf(z, p, k)
    zpk_from_ss = ss2zp(A, B, C, D)
    ss_from_zpk = zp2ss(z, p, k)
    agree = all(
        same_transfer_function(num, den, *other)
        for other in (tf_from_ss, tf_from_zpk, zp2tf(*zpk_from_ss), ss2tf(*ss_from_zpk))
    )
    return ModelForms(
        ode=differential_equation(num, den),
        ss=(A, B, C, D),
        zpk=(z, p, k),
        tf_from_ss=tf_from_ss,
        tf_from_zpk=tf_from_zpk,
        zpk_from_ss=zpk_from_ss,
        ss_from_zpk=ss_from_zpk,
        agree=agree,
    )


def discretized(T=1.0, num=G_NUM, den=G_DEN):
    """c2d of G with zero-order and first-order (triangle) hold, and Tustin for comparison.

    Returns
    -------
    Discretization
        ``zoh``, ``foh`` and ``tustin``: each a :class:`TransferFunction` (numd, dend),
        descending powers of z; and the sample period ``T``.
    """
    from simlab.similarity import c2d

    models = {method: TransferFunction(*c2d(num, den, T, method=method)) for method in ("zoh", "foh", "tustin")}
    return Discretization(T=T, **models)


def connections(num1=G_NUM, den1=G_DEN, num2=H_NUM, den2=H_DEN):
    """Series, parallel and negative-feedback connections of G and H, and minreal of each.

    Returns
    -------
    Connections
        ``series``, ``parallel`` and ``feedback``, each a :class:`Connection` (num, den and
        its ``minreal`` result).
    """
    joined = {
        kind: Connection(kind=kind, num=num, den=den, minreal=minreal(num, den))
        for kind, (num, den) in (
            ("series", series(num1, den1, num2, den2)),
            ("parallel", parallel(num1, den1, num2, den2)),
            ("feedback", feedback(num1, den1, num2, den2, sign=-1)),
        )
    }
    return Connections(**joined)


def step_response(num, den, t):
    """Unit-step response of num/den on the uniform grid t, by discrete similarity (exact for a step)."""
    from simlab.similarity import lsim

    A, B, C, D = tf2ss(num, den)
    return lsim(A, B, C, D, np.ones_like(t), t).y


def reduction(order=2, t_end=10.0, T=0.01, method="truncate"):
    """Balanced truncation of the series connection G H to ``order`` states.

    ``method="matchdc"`` keeps the DC gain (MATLAB's ``balred`` default); ``"truncate"`` drops
    the weak balanced states outright.

    Returns
    -------
    Reduction
        ``full`` and ``reduced`` models, ``hsv`` (Hankel singular values), ``order``, ``method``,
        ``t``, ``y_full``, ``y_reduced``, ``max_difference`` (max |y_full - y_reduced| over t),
        ``error_bound`` (2 * sum of the discarded HSVs, a bound on the peak frequency-response
        error), ``dc_full``, ``dc_reduced``.
    """
    num, den = series(G_NUM, G_DEN, H_NUM, H_DEN)
    A, B, C, D = tf2ss(num, den)
    hsv = hankel_singular_values(A, B, C)
    reduced = balred(A, B, C, D, order, method=method)
    num_r, den_r = ss2tf(*reduced)
    t = np.linspace(0.0, t_end, round(t_end / T) + 1)
    y_full = step_response(num, den, t)
    y_reduced = step_response(num_r, den_r, t)
    return Reduction(
        full=TransferFunction(num, den),
        hsv=hsv,
        order=order,
        method=method,
        reduced=TransferFunction(num_r, den_r),
        t=t,
        y_full=y_full,
        y_reduced=y_reduced,
        max_difference=float(np.max(np.abs(y_full - y_reduced))),
        error_bound=float(reduced.error_bound),
        dc_full=float(np.polyval(num, 0) / np.polyval(den, 0)),
        dc_reduced=float(np.polyval(num_r, 0) / np.polyval(den_r, 0)),
    )


def analogous_systems(m=1.0, f=0.5, k=4.0):
    """Mass-spring-damper m y'' + f y' + k y = F and its series-RLC analogue L q'' + R q' + q/C = e.

    The force-voltage analogy maps m -> L, f -> R, k -> 1/C; both give (1)/(m s^2 + f s + k).

    Returns
    -------
    AnalogousSystems
        ``mechanical`` and ``electrical`` transfer functions, ``L``, ``R``, ``C`` and ``same``.
    """
    L, R, C = m, f, 1.0 / k
    mechanical = TransferFunction(np.array([1.0]), np.array([m, f, k]))
    electrical = TransferFunction(np.array([1.0]), np.array([L, R, 1.0 / C]))
    return AnalogousSystems(m=m, f=f, k=k, mechanical=mechanical, electrical=electrical,
                            L=L, R=R, C=C, same=same_transfer_function(*mechanical, *electrical))


def seed_rk4_with_feedback(r=5.0, Tf=5.0, h=0.02):
    """The seed's RK4 lab with [num, den] = feedback(...) and [A, b, C, d] = tf2ss(num, den).

    Returns
    -------
    SeedRK4Feedback
        ``num``, ``den`` (closed loop), ``A``, ``B``, ``C``, ``D``, ``t``, ``y`` (RK4) and
        ``difference_to_lab02`` (max |y - y of the hand-built model of lab02|).
    """
    from simlab.course.systems import seed_rk4_program, seed_rk4_system
    from simlab.integrators import rk4

    num, den = feedback([1.0], [1.0, 4.0, 8.0, 5.0], [1.0], [1.0])
    A, B, C, D = tf2ss(num, den)
    b, c = B[:, 0], C[0]
    t, x = rk4(lambda t, x: A @ x + b * r, (0.0, Tf), np.zeros(len(A)), h)
    y = x @ c + D[0, 0] * r
    _, y_hand = seed_rk4_program(*seed_rk4_system(), r=r, Tf=Tf, h=h)
    return SeedRK4Feedback(num=num, den=den, A=A, B=B, C=C, D=D, t=t, y=y,
                           difference_to_lab02=float(np.max(np.abs(y - y_hand))))


def check_tf2ss(A, B, C, D, num=G_NUM, den=G_DEN):
    """Self-check of a state-space model of G: any realization with the same transfer function."""
    try:
        num2, den2 = ss2tf(A, B, C, D)
    except (TypeError, ValueError) as error:
        return CheckResult(False, "state space of G", str(error))
    if same_transfer_function(num, den, num2, den2):
        return CheckResult(True, "state space of G", "C (sI - A)^-1 B + D equals G(s).")
    num_t, den_t = np.trim_zeros(np.asarray(num, float), "f"), np.trim_zeros(np.asarray(den, float), "f")
    d_expected = num_t[0] / den_t[0] if len(num_t) == len(den_t) else 0.0
    d_given = float(np.asarray(D, dtype=float).ravel()[0]) if np.size(D) else 0.0
    corrected = np.polyadd(num2, (d_expected - d_given) * np.asarray(den2))
    if d_given != d_expected and same_transfer_function(num, den, corrected, den2):
        return CheckResult(False, "state space of G", f"only D is off: G is not strictly proper, "
                           f"D = b0/a0 (the ratio of the leading coefficients) = {d_expected:.6g}.")
    return CheckResult(False, "state space of G", f"the transfer function differs from G(s); did "
                       f"you divide num and den by the leading coefficient {den_t[0]:g} of den?")


def check_connection(kind, num, den):
    """Self-check of a connection of G and H: ``kind`` is "series", "parallel" or "feedback"."""
    kind = as_choice(kind, "kind", CONNECTION_KINDS)
    expected = getattr(connections(), kind)
    if same_transfer_function(*expected, num, den):
        return CheckResult(True, f"{kind} connection", "the transfer function is right.")
    if kind == "feedback":
        positive = feedback(G_NUM, G_DEN, H_NUM, H_DEN, sign=+1)
        if same_transfer_function(*positive, num, den):
            return CheckResult(False, "feedback connection", "this is positive feedback G/(1 - GH); "
                               "negative feedback is G/(1 + GH) (sign = -1, MATLAB's default).")
    return CheckResult(False, f"{kind} connection", "the transfer function differs from the reference.")


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_reduction(reductions):
    """Lab 03: step responses of G(s) H(s) before and after model reduction, and its Hankel singular values.

    ``reductions`` is a sequence of :class:`Reduction` results of :func:`reduction` (all of the
    same full model).
    """
    fig, (ax, ax_hsv) = subplots(1, 2, figsize=(10, 4))
    first = reductions[0]
    n = len(first.hsv)
    ax.plot(first.t, first.y_full, color="black", label=f"full model, order {n}")
    for i, reduced in enumerate(reductions, start=1):
        ax.plot(reduced.t, reduced.y_reduced,
                label=f"order {reduced.order} ({reduced.method})", **line_style(i))
    ax.set(xlabel="t (s)", ylabel="unit-step response", title="Model reduction of G(s) H(s)")
    ax.legend()
    ax_hsv.semilogy(np.arange(1, n + 1), np.maximum(first.hsv, 1e-16), "o-", color="black")
    ax_hsv.set(xlabel="balanced state", ylabel="Hankel singular value",
               title="Hankel singular values (small: removable)")
    ax_hsv.set_xticks(np.arange(1, n + 1))
    return fig


def run():
    """Run lab 03 headless.

    Returns
    -------
    ExperimentResult
        Summary rows, the figure ``lab03_reduction`` and ``data``, a :class:`Lab03Results`.
    """
    data = Lab03Results(
        forms=model_forms(),
        discrete=discretized(),
        connections=connections(),
        reductions=(reduction(2), reduction(3), reduction(2, method="matchdc"), reduction(4)),
        analogous=analogous_systems(),
        seed_rk4=seed_rk4_with_feedback(),
    )
    forms, discrete, series_connection = data.forms, data.discrete, data.connections.series
    z, p, k = forms.zpk
    summary = [
        ("G: differential equation", forms.ode),
        ("G: poles", format_roots(p)),
        ("G: zeros", format_roots(z)),
        ("G: gain k", f"{k:.6f}"),
        ("all four forms agree", "yes" if forms.agree else "NO"),
        ("c2d zoh T=1: den", " ".join(f"{v:.5f}" for v in discrete.zoh.den)),
        ("c2d foh T=1: num", " ".join(f"{v:.5f}" for v in discrete.foh.num)),
        ("series G H: order / after minreal", f"{len(series_connection.den) - 1} / "
         f"{len(series_connection.minreal.den) - 1}"),
        *[(f"balred order {r.order} ({r.method}): max step difference", f"{r.max_difference:.2e}")
          for r in data.reductions],
        ("analogous systems have one model", "yes" if data.analogous.same else "NO"),
        ("seed RK4 lab via feedback+tf2ss equals lab02",
         "yes" if data.seed_rk4.difference_to_lab02 < 1e-12 else "NO"),
    ]
    return ExperimentResult(summary=summary, figures=[("lab03_reduction", plot_reduction, data.reductions)],
                            data=data)
