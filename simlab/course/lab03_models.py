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

The notebook's parameters (:data:`PARAMETERS`, the parameter cell right after the imports) are
the sample time ``T`` of c2d, the order ``order`` of the reduced model and the
mass-spring-damper's ``m, f, k_spring``; every self-check takes them as keywords (the lab's values
by default), and the tasks are listed in :data:`TASKS`.
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
from simlab.course.parameters import Parameter, Parameters, Rule, between, positive, whole
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
    "T_SAMPLE",
    "REDUCED_ORDER",
    "MASS",
    "DAMPING",
    "STIFFNESS",
    "SEED_OPEN_LOOP",
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
    "check_transfer_function",
    "check_tf2ss",
    "check_discrete_poles",
    "check_connection",
    "check_connections",
    "check_reduction_bound",
    "check_analogous",
    "check_seed_feedback",
    "PARAMETERS",
    "use_parameters",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
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
#: Sample time (s) of c2d, the seed's T = 1 s.
T_SAMPLE = 1.0
#: Order r of the reduced model of G H (the seed's comparison starts at r = 2).
REDUCED_ORDER = 2
#: Mass (kg), damping coefficient (N s/m) and spring stiffness (N/m) of the mass-spring-damper.
MASS, DAMPING, STIFFNESS = 1.0, 0.5, 4.0


def _underdamped():
    """The rule of ``f``: f < 2 sqrt(m k), a damping ratio below 1 (Part E's overshoot formula needs it)."""

    def test(value, values):
        try:
            f, m, k = float(value), float(values.get("m", MASS)), float(values.get("k_spring", STIFFNESS))
        except (TypeError, ValueError):
            return f"got {value!r}, not a finite real number"
        if not (m > 0 and k > 0) or f < 2 * np.sqrt(m * k):
            return None  # an invalid m or k_spring is reported by its own rule
        return f"the damping ratio f / (2 sqrt(m k)) = {f / (2 * np.sqrt(m * k)):.3g} is not below 1"

    return Rule("{name} < 2 sqrt(m k_spring): the system is underdamped (欠阻尼), damping ratio below 1", test)


#: The parameters of the notebook (its parameter cell, right after the imports), with their rules.
PARAMETERS = Parameters(
    Parameter("T", T_SAMPLE, "s", "sample time (采样周期) of c2d in Part B",
              (between(0.0, 5.0, closed=(False, True)),), alternative=0.5),
    Parameter("order", REDUCED_ORDER, "", "order r of the reduced model (模型降阶) of G H in Part D (the table "
              "adds r + 1)", (whole(1, 3),), alternative=3),
    Parameter("m", MASS, "kg", "mass of the mass-spring-damper of Part E", (positive(),), alternative=2.0),
    Parameter("f", DAMPING, "N s/m", "damping coefficient (阻尼系数) of the mass-spring-damper of Part E",
              (positive(), _underdamped()), alternative=0.8),
    Parameter("k_spring", STIFFNESS, "N/m", "spring stiffness (弹簧刚度) of the mass-spring-damper of Part E",
              (positive(),), alternative=5.0),
)
use_parameters = PARAMETERS.use


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


def discretized(T=T_SAMPLE, num=G_NUM, den=G_DEN):
    """c2d of G with zero-order and first-order (triangle) hold, and Tustin for comparison.

    Returns
    -------
    Discretization
        ``zoh``, ``foh`` and ``tustin``: each a :class:`TransferFunction` (numd, dend),
        descending powers of z; and the sample period ``T``.
    """
    from simlab.digital import c2d

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


def reduction(order=REDUCED_ORDER, t_end=10.0, T=0.01, method="truncate"):
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


def analogous_systems(m=MASS, f=DAMPING, k=STIFFNESS):
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


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the notebook's answers positionally and its parameters (T, order,
# m, f, k_spring) as keywords with the lab's values as defaults, so that a correct answer stays
# correct when a student changes a parameter.
# ---------------------------------------------------------------------------------------------


def _as_coefficients(values):
    """A coefficient vector as a 1-D float array (raises TypeError or ValueError if it is none)."""
    return np.ravel(np.asarray(values, dtype=float))


def _check_model(title, num, den, reference, slips=(), right="the transfer function is right."):
    """Compare the model ``num/den`` with ``reference`` = (num, den) by its transfer function.

    A common factor of num and den is accepted (a monic denominator, for instance); ``slips``
    are ((num, den), hint) pairs of typical mistakes, tried in order.
    """
    try:
        num, den = _as_coefficients(num), _as_coefficients(den)
    except (TypeError, ValueError):
        return CheckResult(False, title, "num and den must be coefficient vectors (1-D arrays of numbers).")
    if not (np.all(np.isfinite(num)) and np.all(np.isfinite(den)) and np.any(den)):
        return CheckResult(False, title, "num and den must be finite coefficient vectors (den not all zero).")
    if same_transfer_function(*reference, num, den):
        return CheckResult(True, title, right)
    for (num_slip, den_slip), hint in slips:
        if same_transfer_function(num_slip, den_slip, num, den):
            return CheckResult(False, title, hint)
    return CheckResult(False, title, "the transfer function differs from the reference.")


#: The factors of G: (linear, quadratic) of the numerator and of the denominator.
_G_FACTORS = {"num": ([1.0, 8.0], [1.0, 2.0, 5.0]), "den": ([2.0, 3.0], [3.0, 4.0, 13.0])}


def check_transfer_function(num, den):
    """Self-check of the expanded numerator and denominator of G, descending powers of s (Task A1)."""

    def alternatives(part, other, name):
        mine = G_NUM if part == "num" else G_DEN
        (a, b), quadratic = _G_FACTORS[part]
        return [(np.flip(mine), "the coefficients are in ascending order; num and den list descending "
                 "powers of s (MATLAB's convention): the first coefficient belongs to s^3."),
                (other, f"this is the {name}: num and den are swapped."),
                (mine / G_DEN[0], "you divided by a0 = 6; keep the expanded coefficients (Task A2 divides)."),
                (np.polymul([a, -b], quadratic), f"a root with the wrong sign: the factor ({a:g}s + {b:g}) is "
                 f"[{a:g}, {b:g}]; [{a:g}, {-b:g}] is ({a:g}s - {b:g}), with its root at {b / a:g} instead of "
                 f"{-b / a:g}."),
                (np.polyadd([a, b], quadratic), "np.polyadd adds the factors; their product is np.polymul "
                 "(MATLAB's conv).")]

    return all_of("transfer function of G", [
        check_array("numerator of G", num, G_NUM, what="coefficients",
                    alternatives=alternatives("num", G_DEN, "denominator")),
        check_array("denominator of G", den, G_DEN, what="coefficients",
                    alternatives=alternatives("den", G_NUM, "numerator")),
    ])


def _canonical_form(num, den, divide_den=True, divide_num=True, subtract=True, negate=True, input_first=True,
                    reverse_c=False):
    """The controllable canonical form by the formulas of Task A2, with a typical slip switched on.

    ``divide_den=False`` or ``divide_num=False`` skips the division of den or num by a0;
    ``subtract=False`` takes C = b[1:] instead of b_i - b0 a_i; ``negate=False`` puts +a_i in
    the first row of A; ``input_first=False`` feeds the input to the last state; ``reverse_c``
    lists C from c_n down. Returns A (n, n), B (n, 1), C (1, n), D (1, 1).
    """
    den = np.trim_zeros(_as_coefficients(den), "f")
    num = np.trim_zeros(_as_coefficients(num), "f")
    num = np.concatenate([np.zeros(len(den) - len(num)), num])
    a = den / den[0] if divide_den else den
    b = num / den[0] if divide_num else num
    n = len(a) - 1
    A = np.vstack([-a[1:] if negate else a[1:], np.eye(n - 1, n)])
    C = (b[1:] - b[0] * a[1:]) if subtract else b[1:]
    B = np.eye(n, 1) if input_first else np.eye(n)[:, -1:]
    return A, B, (C[::-1] if reverse_c else C).reshape(1, n), np.array([[b[0]]])


def check_tf2ss(A, B, C, D, num=G_NUM, den=G_DEN):
    """Self-check of a state-space model of G: any realization with the same transfer function (Task A2)."""
    title = "state space of G"
    try:
        num2, den2 = ss2tf(A, B, C, D)
    except (TypeError, ValueError) as error:
        return CheckResult(False, title, str(error))
    if same_transfer_function(num, den, num2, den2):
        return CheckResult(True, title, "C (sI - A)^-1 B + D equals G(s).")
    num_t, den_t = np.trim_zeros(np.asarray(num, float), "f"), np.trim_zeros(np.asarray(den, float), "f")
    d_expected = num_t[0] / den_t[0] if len(num_t) == len(den_t) else 0.0
    d_given = float(np.asarray(D, dtype=float).ravel()[0]) if np.size(D) else 0.0
    corrected = np.polyadd(num2, (d_expected - d_given) * np.asarray(den2))
    if d_given != d_expected and same_transfer_function(num, den, corrected, den2):
        return CheckResult(False, title, f"only D is off: G is not strictly proper, "
                           f"D = b0/a0 (the ratio of the leading coefficients) = {d_expected:.6g}.")
    not_divided = (f"did you divide num and den by the leading coefficient {den_t[0]:g} of den? The "
                   "companion matrix needs a monic denominator, and b the same division.")
    slips = (
        (dict(divide_den=False, divide_num=False), not_divided),
        (dict(divide_den=False), not_divided),
        (dict(divide_num=False), not_divided),
        (dict(subtract=False), "C is not simply the numerator: with m = n, C_i = b_i - b0 a_i (the "
                               "numerator is first reduced by b0 times the denominator)."),
        (dict(negate=False), "the first row of A is -a_1 .. -a_n (minus signs): it is the equation "
                             "x1' = -a_1 x1 - ... - a_n xn + u."),
        (dict(input_first=False), "the input enters the first state: B = [1, 0, ..., 0]^T, because "
                                  "x1' = v^(n) = -a_1 x1 - ... + u (MATLAB numbers the states from the highest "
                                  "derivative down)."),
        (dict(reverse_c=True), "C is in reverse order: with x1 = v^(n-1), ..., xn = v, C starts with "
                               "b_1 - b0 a_1 (the coefficient of the highest derivative)."),
    )
    for slip, hint in slips:
        if same_transfer_function(*ss2tf(*_canonical_form(num, den, **slip)), num2, den2):
            return CheckResult(False, title, hint)
    return CheckResult(False, title, "the transfer function differs from G(s); check the first row of A "
                       "(-a_1 .. -a_n of the monic denominator), C_i = b_i - b0 a_i and D = b0.")


#: Default of an answer that a direct call may leave out (a notebook always passes every answer).
_NOT_GIVEN = object()


def _pole_polynomial(z_poles, title):
    """(prod_i (z - z_i) as real coefficients, None), or (None, a CheckResult that says why not)."""
    try:
        poles = np.ravel(np.asarray(z_poles, dtype=complex))
    except (TypeError, ValueError):
        return None, CheckResult(False, title, "expected an array of the discrete poles (complex numbers).")
    if not np.all(np.isfinite(poles)):
        return None, CheckResult(False, title, "the poles contain NaN or inf.")
    polynomial = np.poly(poles)
    if np.max(np.abs(polynomial.imag)) > 1e-9 * max(1.0, float(np.max(np.abs(polynomial)))):
        return None, CheckResult(False, title, "the poles of a real system come in conjugate pairs; yours do not.")
    return polynomial.real, None


def _mapping_slips(T):
    """(prod (z - z_i), hint) of the typical mistakes for the discrete poles at the sample time T (s)."""
    zeros, poles_G, _ = tf2zp(G_NUM, G_DEN)
    return [
        (np.real(np.poly((1 + poles_G * T / 2) / (1 - poles_G * T / 2))), "that is Tustin's mapping "
         "(1 + pT/2)/(1 - pT/2); exact sampling (zoh, foh) maps each pole p to e^{pT}."),
        (np.real(np.poly(1 + poles_G * T)), "that is 1 + pT, forward Euler's mapping (the first two terms of "
         "e^{pT}); exact sampling maps each pole p to e^{pT}."),
        (np.real(np.poly(1 / (1 - poles_G * T))), "that is 1/(1 - pT), backward Euler's mapping; exact "
         "sampling maps each pole p to e^{pT}."),
        (np.real(np.poly(np.exp(zeros * T))), "these are e^{zT} of the zeros z of G; the discrete poles "
         "come from the poles p."),
        (np.real(np.poly(np.exp(-poles_G * T))), "the sign: a stable pole (Re p < 0) maps to e^{pT}, "
         "inside the unit circle, not to e^{-pT}."),
    ]


def _half_sample_time_slips(T):
    """(prod (z - z_i), hint) of the poles at T/2 computed with another sample time (Task B1)."""
    poles_G = tf2zp(G_NUM, G_DEN)[1]
    again = " (or these are the poles at T = 1 s again)" if np.isclose(T, 1.0) else ""
    slips = [(np.real(np.poly(np.exp(poles_G))), f"that is e^p: the sample time is missing from the exponent "
              f"(np.exp(p) instead of np.exp(p * T)){again}; at T/2 = {T / 2:g} s each pole is e^{{pT/2}}.")]
    if not np.isclose(T, 1.0):
        slips.append((np.real(np.poly(np.exp(poles_G * T))), f"these are the poles at T = {T:g} s again; at "
                      f"T/2 = {T / 2:g} s each pole is e^{{pT/2}}, the square root of e^{{pT}}."))
    slips.append((np.real(np.poly(np.exp(poles_G * 2 * T))), f"these are the poles at 2T = {2 * T:g} s; half "
                  f"the sample time is T/2 = {T / 2:g} s."))
    return slips


def check_discrete_poles(z_poles, z_poles_half=_NOT_GIVEN, T=T_SAMPLE):
    """Self-check of the discrete poles e^{p_i T} of G, and e^{p_i T/2} at half the sample time (Task B1).

    Compares prod_i (z - z_i) with the denominators that ``c2d`` gives with zero- and first-order
    hold at the sample time T (s), and at T/2 for ``z_poles_half``, so the order of the poles
    does not matter. The poles at T/2 tell e^{pT} from e^p (the sample time left out) also at
    T = 1 s, where the two are equal. A direct call may leave ``z_poles_half`` out (only the
    poles at T are checked then).
    """
    title = "discrete poles e^{pT}"
    polynomial, problem = _pole_polynomial(z_poles, title)
    if problem:
        return problem
    alternatives = _mapping_slips(T)
    if not np.isclose(T, 1.0):
        alternatives.append((np.real(np.poly(np.exp(tf2zp(G_NUM, G_DEN)[1]))), f"that is e^p, the poles for "
                             f"T = 1 s: the sample time is missing from the exponent; here the sample time is "
                             f"T = {T:g} s (the parameter T): z = e^{{pT}}."))
    discrete = discretized(T)
    results = [check_array(f"{hold} denominator from e^(pT), T = {T:g} s", polynomial, getattr(discrete, hold).den,
                           what="coefficients", alternatives=alternatives) for hold in ("zoh", "foh")]
    if z_poles_half is not _NOT_GIVEN:
        half_title = f"poles at T/2 = {T / 2:g} s"
        half, problem = _pole_polynomial(z_poles_half, half_title)
        results.append(problem or check_array(
            f"zoh and foh denominator from e^(pT/2), T/2 = {T / 2:g} s", half, discretized(T / 2).zoh.den,
            what="coefficients", alternatives=_half_sample_time_slips(T) + _mapping_slips(T / 2)))
    return all_of(title, results)


def _connection_slips(kind):
    """((num, den), hint) of the typical mistakes in the connection ``kind`` of G and H."""
    n1, d1, n2, d2 = G_NUM, G_DEN, H_NUM, H_DEN
    common = np.polyadd(np.polymul(n1, d2), np.polymul(n2, d1))
    loop = np.polyadd(np.polymul(d1, d2), np.polymul(n1, n2))
    slips = {
        "series": [((np.polymul(n1, n2), np.polyadd(d1, d2)), "the denominator of G H is d1 d2, the product "
                    "of the denominators.")],
        "parallel": [((np.polyadd(n1, n2), np.polymul(d1, d2)), "G + H = (n1 d2 + n2 d1)/(d1 d2): "
                      "bring both to the common denominator before adding the numerators."),
                     ((common, np.polyadd(d1, d2)), "the denominator of G + H is the common denominator "
                      "d1 d2, the product, not the sum d1 + d2.")],
        "feedback": [(feedback(n1, d1, n2, d2, sign=+1), "this is positive feedback G/(1 - GH); "
                      "negative feedback is G/(1 + GH) (sign = -1, MATLAB's default)."),
                     ((n1, loop), "the numerator of G/(1 + GH) = n1 d2/(d1 d2 + n1 n2) is n1 d2, not n1."),
                     ((np.polymul(n2, d1), loop), "that is H/(1 + GH): G is in the forward path, so the "
                      "numerator is n1 d2, not n2 d1."),
                     ((n1, np.polyadd(d1, n1)), "that is G/(1 + G), unity feedback; the feedback path is H: "
                      "G/(1 + GH) = n1 d2/(d1 d2 + n1 n2).")],
    }
    return slips[kind]


def check_connection(kind, num, den):
    """Self-check of a connection of G and H: ``kind`` is "series", "parallel" or "feedback"."""
    kind = as_choice(kind, "kind", CONNECTION_KINDS)
    expected = getattr(connections(), kind)
    return _check_model(f"{kind} connection", num, den, (expected.num, expected.den), _connection_slips(kind))


def check_connections(num_series, den_series, num_parallel, den_parallel, num_feedback, den_feedback):
    """Self-check of the series, parallel and negative-feedback connections of G and H (Task C1)."""
    return all_of("connections of G and H", [
        check_connection("series", num_series, den_series),
        check_connection("parallel", num_parallel, den_parallel),
        check_connection("feedback", num_feedback, den_feedback),
    ])


def _hsv_of(num, den):
    """Hankel singular values of num/den, realised by ``tf2ss`` (largest first)."""
    A, B, C, _ = tf2ss(num, den)
    return hankel_singular_values(A, B, C)


def _series_hsv():
    """Hankel singular values of the series connection G H, realised by ``tf2ss`` (largest first)."""
    return _hsv_of(*series(G_NUM, G_DEN, H_NUM, H_DEN))


def check_reduction_bound(hsv, bound, order=REDUCED_ORDER):
    """Self-check of the Hankel singular values of G H and the error bound for the order r (Task D1)."""
    reference = _series_hsv()
    n = len(reference)
    kept = f"sigma_1 .. sigma_{order}"
    discarded = f"sigma_{order + 1} .. sigma_{n}, hsv[{order}:]"
    minimal = minreal(*series(G_NUM, G_DEN, H_NUM, H_DEN))
    # sigma_5 = 0 is the square root of a rounding-level eigenvalue: correct methods give it as up to
    # sqrt(eps) sigma_1 (scipy's Gramians: 1e-9), hence an absolute tolerance relative to sigma_1
    return all_of("Hankel singular values and error bound", [
        check_array("Hankel singular values", hsv, reference, rtol=1e-8, atol=1e-6 * reference[0], alternatives=[
            (_hsv_of(G_NUM, G_DEN), "these are the Hankel singular values of G alone (order 3); the task "
             "realises the series connection G H of Task C1 (order 5)."),
            (_hsv_of(minimal.num, minimal.den), "these are the values of the minimal realization (order 4, "
             "after minreal); realise the series connection of Task C1 as it is, of order 5: its fifth "
             "value, 0, is the cancelled mode.")]),
        check_value(f"error bound for r = {order}", bound, 2 * np.sum(reference[order:]), alternatives=[
            (2 * np.sum(reference[order + 1:]), f"that leaves out sigma_{order + 1}: for r = {order} the "
             f"discarded values are {discarded}."),
            (np.sum(reference[order:]), "the bound is twice the sum of the discarded values."),
            (2 * np.sum(reference[:order]), f"that sums the kept values {kept}; the bound sums the "
             f"discarded ones, {discarded}."),
            (2 * reference[order], f"that is 2 sigma_{order + 1} only, the first discarded value; the bound "
             f"sums all the discarded ones, {discarded}."),
            (2 * np.sum(reference[order - 1:]), f"that includes sigma_{order}, a kept value (Python counts from "
             f"0: sigma_{order + 1} is hsv[{order}]); the discarded values are {discarded}."),
        ]),
    ])


def check_analogous(num_mech, den_mech, L, R, C_cap, num_elec, den_elec, m=MASS, f=DAMPING, k_spring=STIFFNESS):
    """Self-check of the mass-spring-damper model and its series-RLC analogue (Task E1).

    The models are compared by their transfer functions: 1/(m s^2 + f s + k) and, divided by m,
    (1/m)/(s^2 + (f/m) s + k/m) are both right.
    """
    reference = analogous_systems(m, f, k_spring)
    return all_of("similar systems", [
        _check_model("mechanical model Y/F", num_mech, den_mech, reference.mechanical, [
            (([1.0], [k_spring, f, m]), "descending powers of s: m s^2 + f s + k is [m, f, k]."),
            (([1.0], [m, k_spring, f]), "f and k are swapped: the damper's force f y' gives f s, the spring's k y "
             "the constant term, m s^2 + f s + k = [m, f, k]."),
        ], right="equals 1/(m s^2 + f s + k)."),
        check_value("inductance", L, reference.L, unit="H", alternatives=[
            (1.0 / k_spring, "1/k is L of the force-current analogy (parallel RLC); in the force-voltage "
             "analogy L corresponds to m.")]),
        check_value("resistance", R, reference.R, unit="ohm", alternatives=[
            (1.0 / f, "1/f is R of the force-current analogy; in the force-voltage analogy R corresponds to f.")]),
        check_value("capacitance", C_cap, reference.C, unit="F", alternatives=[
            (k_spring, "k corresponds to 1/C, not to C."),
            (m, "m is C of the force-current analogy; in the force-voltage analogy C = 1/k.")]),
        _check_model("electrical model Q/E", num_elec, den_elec, reference.electrical, [
            (([1.0], [1.0 / reference.C, reference.R, reference.L]), "descending powers of s: "
             "L s^2 + R s + 1/C is [L, R, 1/C]."),
            (([1.0], [reference.L, reference.R, reference.C]), "the constant term of L s^2 + R s + 1/C is 1/C, "
             "not C: the capacitor's voltage is q/C."),
        ], right="equals 1/(L s^2 + R s + 1/C)."),
    ])


#: The seed's open loop G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) and its unity feedback path (Part F).
SEED_OPEN_LOOP = (np.array([1.0]), np.array([1.0, 4.0, 8.0, 5.0]))


def _check_seed_loop(title, model):
    """One form of the seed's closed loop, ``model()`` -> (num, den), against 1/(s^3 + 4 s^2 + 8 s + 6)."""
    try:
        num, den = model()
    except (TypeError, ValueError, IndexError, np.linalg.LinAlgError) as error:
        return CheckResult(False, title, f"could not read the model: {error}")
    if same_transfer_function(*feedback(*SEED_OPEN_LOOP, [1.0], [1.0]), num, den):
        return CheckResult(True, title, "equals 1/(s^3 + 4s^2 + 8s + 6).")
    if same_transfer_function(*SEED_OPEN_LOOP, num, den):
        return CheckResult(False, title, "this is the open loop G(s) = 1/(s^3 + 4s^2 + 8s + 5); close the "
                           "loop with simlab.feedback first, then realise the closed loop with tf2ss.")
    if same_transfer_function(*feedback(*SEED_OPEN_LOOP, [1.0], [1.0], sign=+1), num, den):
        return CheckResult(False, title, "this is positive feedback G/(1 - G) = 1/(s^3 + 4s^2 + 8s + 4); "
                           "negative feedback is sign = -1, simlab's and MATLAB's default.")
    if same_transfer_function(*feedback([1.0], [1.0], *SEED_OPEN_LOOP), num, den):
        return CheckResult(False, title, "this is H/(1 + HG) with the open loop in the feedback path: the "
                           "forward path comes first, simlab.feedback(numo, deno, numh, denh), as MATLAB's "
                           "feedback(sys1, sys2).")
    return CheckResult(False, title, "the transfer function differs from the closed loop 1/(s^3 + 4s^2 + 8s + 6).")


def check_seed_feedback(num_cl, den_cl, A_cl, B_cl, C_cl, D_cl):
    """Self-check of the seed's closed loop from ``feedback`` and its ``tf2ss`` realization (Task F1)."""
    return all_of("the seed's closed loop", [
        _check_seed_loop("closed loop num_cl / den_cl", lambda: (_as_coefficients(num_cl), _as_coefficients(den_cl))),
        _check_seed_loop("state space A_cl, B_cl, C_cl, D_cl", lambda: ss2tf(A_cl, B_cl, C_cl, D_cl)),
    ])


def _g_reference():
    """Reference answers of Task A1."""
    return {"num": G_NUM.copy(), "den": G_DEN.copy()}


def _ss_reference():
    """Reference answers of Task A2: MATLAB's realization of G."""
    return dict(zip("ABCD", tf2ss(G_NUM, G_DEN)))


def _poles_reference(T=T_SAMPLE):
    """Reference answers of Task B1: the discrete poles e^{pT}, and e^{pT/2} at half the sample time."""
    poles = tf2zp(G_NUM, G_DEN)[1]
    return {"z_poles": np.exp(poles * T), "z_poles_half": np.exp(poles * T / 2)}


def _connections_reference():
    """Reference answers of Task C1: the three connections of G and H."""
    joined = connections()
    return {f"{part}_{kind}": getattr(getattr(joined, kind), part)
            for kind in CONNECTION_KINDS for part in ("num", "den")}


def _bound_reference(order=REDUCED_ORDER):
    """Reference answers of Task D1: the Hankel singular values and the bound for the order r."""
    hsv = _series_hsv()
    return {"hsv": hsv, "bound": 2 * float(np.sum(hsv[order:]))}


def _analogous_reference(m=MASS, f=DAMPING, k_spring=STIFFNESS):
    """Reference answers of Task E1."""
    result = analogous_systems(m, f, k_spring)
    return {"num_mech": result.mechanical.num, "den_mech": result.mechanical.den, "L": result.L,
            "R": result.R, "C_cap": result.C, "num_elec": result.electrical.num, "den_elec": result.electrical.den}


def _seed_feedback_reference():
    """Reference answers of Task F1: feedback, then tf2ss."""
    num, den = feedback(*SEED_OPEN_LOOP, [1.0], [1.0])
    A, B, C, D = tf2ss(num, den)
    return {"num_cl": num, "den_cl": den, "A_cl": A, "B_cl": B, "C_cl": C, "D_cl": D}


#: The tasks of lab 03, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("num", "den"), check_transfer_function, (), _g_reference, "the transfer function of G"),
    Task("A2", ("A", "B", "C", "D"), check_tf2ss, (), _ss_reference, "the controllable canonical form by hand"),
    Task("B1", ("z_poles", "z_poles_half"), check_discrete_poles, ("T",), _poles_reference,
         "the discrete poles at T and at T/2"),
    Task("C1", ("num_series", "den_series", "num_parallel", "den_parallel", "num_feedback", "den_feedback"),
         check_connections, (), _connections_reference, "series, parallel and feedback connection"),
    Task("D1", ("hsv", "bound"), check_reduction_bound, ("order",), _bound_reference,
         "Hankel singular values and the error bound"),
    Task("E1", ("num_mech", "den_mech", "L", "R", "C_cap", "num_elec", "den_elec"), check_analogous,
         ("m", "f", "k_spring"), _analogous_reference, "one model for two systems"),
    Task("F1", ("num_cl", "den_cl", "A_cl", "B_cl", "C_cl", "D_cl"), check_seed_feedback, (),
         _seed_feedback_reference, "the seed's listing with feedback and tf2ss"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "coefficients in ascending order", "num = np.polymul([1, 8], [1, 2, 5])",
            "num = np.polymul([8, 1], [5, 2, 1])", "ascending order"),
    Mistake("A1", "numerator and denominator swapped",
            "num = np.polymul([1, 8], [1, 2, 5])  # (s + 8)(s^2 + 2s + 5)\nden = np.polymul([2, 3], [3, 4, 13])",
            "num = np.polymul([2, 3], [3, 4, 13])\nden = np.polymul([1, 8], [1, 2, 5])", "swapped"),
    Mistake("A2", "the feedthrough left out", "D = np.array([[b[0]]])", "D = np.zeros((1, 1))", "only D is off"),
    Mistake("A2", "no division by a0", "a = G.den / G.den[0]  # monic denominator: 1, a1, a2, a3\nb = G.num / G.den[0]",
            "a = G.den  # monic denominator: 1, a1, a2, a3\nb = G.num", "leading coefficient"),
    Mistake("A2", "C copied from the numerator", "C = (b[1:] - b[0] * a[1:]).reshape(1, n)",
            "C = b[1:].reshape(1, n)", "C is not simply the numerator"),
    Mistake("B1", "Tustin's mapping", "return np.exp(p * T_sample)",
            "return (1 + p * T_sample / 2) / (1 - p * T_sample / 2)", "Tustin"),
    Mistake("B1", "the zeros instead of the poles", "return np.exp(p * T_sample)", "return np.exp(z * T_sample)",
            "zeros z of G"),
    Mistake("B1", "the sample time left out of e^{pT}", "return np.exp(p * T_sample)", "return np.exp(p)",
            "the sample time is missing"),
    Mistake("C1", "positive feedback",
            "den_feedback = np.polyadd(np.polymul(G.den, H_den), np.polymul(G.num, H_num))",
            "den_feedback = np.polysub(np.polymul(G.den, H_den), np.polymul(G.num, H_num))", "positive feedback"),
    Mistake("C1", "numerators added for the parallel connection",
            "num_parallel = np.polyadd(np.polymul(G.num, H_den), np.polymul(H_num, G.den))",
            "num_parallel = np.polyadd(G.num, H_num)", "common denominator"),
    Mistake("C1", "the feedback numerator without d2", "num_feedback = np.polymul(G.num, H_den)",
            "num_feedback = G.num", "is n1 d2"),
    Mistake("D1", "sigma_{r+1} left out", "bound = 2 * np.sum(hsv[order:])", "bound = 2 * np.sum(hsv[order + 1:])",
            "leaves out sigma"),
    Mistake("D1", "the bound without the factor 2", "bound = 2 * np.sum(hsv[order:])", "bound = np.sum(hsv[order:])",
            "twice the sum"),
    Mistake("E1", "C = k instead of 1/k", "L, R, C_cap = m, f, 1.0 / k_spring", "L, R, C_cap = m, f, k_spring",
            "k corresponds to 1/C"),
    Mistake("E1", "R from the force-current analogy", "L, R, C_cap = m, f, 1.0 / k_spring",
            "L, R, C_cap = m, 1.0 / f, 1.0 / k_spring", "force-current"),
    Mistake("E1", "the denominator in ascending powers", "np.array([m, f, k_spring])  # 1 / (m s^2 + f s + k)",
            "np.array([k_spring, f, m])  # 1 / (m s^2 + f s + k)", "descending powers"),
    Mistake("F1", "positive feedback", "simlab.feedback(numo, deno, numh, denh)",
            "simlab.feedback(numo, deno, numh, denh, sign=+1)", "positive feedback"),
    Mistake("F1", "the open loop realised", "simlab.tf2ss(num_cl, den_cl)", "simlab.tf2ss(numo, deno)", "open loop"),
    Mistake("A1", "a factor's root with the wrong sign", "num = np.polymul([1, 8], [1, 2, 5])",
            "num = np.polymul([1, -8], [1, 2, 5])", "a root with the wrong sign"),
    Mistake("A1", "the factors added, not multiplied", "den = np.polymul([2, 3], [3, 4, 13])",
            "den = np.polyadd([2, 3], [3, 4, 13])", "np.polyadd adds the factors"),
    Mistake("A1", "the denominator divided by a0", "den = np.polymul([2, 3], [3, 4, 13])",
            "den = np.polymul([2, 3], [3, 4, 13]) / 6", "you divided by a0"),
    Mistake("A2", "+a_i in the first row of A", "A[0, :] = -a[1:]", "A[0, :] = a[1:]", "the first row of A is -a_1"),
    Mistake("A2", "the input fed to the last state", "B[0, 0] = 1.0", "B[-1, 0] = 1.0", "the input enters the first"),
    Mistake("B1", "forward Euler's mapping 1 + pT", "return np.exp(p * T_sample)", "return 1 + p * T_sample",
            "forward Euler's mapping"),
    Mistake("C1", "H in the forward path of the feedback loop", "num_feedback = np.polymul(G.num, H_den)",
            "num_feedback = np.polymul(H_num, G.den)", "G is in the forward path"),
    Mistake("C1", "unity feedback instead of H",
            "num_feedback = np.polymul(G.num, H_den)  # n1 d2\n"
            "den_feedback = np.polyadd(np.polymul(G.den, H_den), np.polymul(G.num, H_num))",
            "num_feedback = G.num\nden_feedback = np.polyadd(G.den, G.num)", "unity feedback"),
    Mistake("C1", "the denominators added for the parallel connection", "den_parallel = np.polymul(G.den, H_den)",
            "den_parallel = np.polyadd(G.den, H_den)", "not the sum d1 + d2"),
    Mistake("D1", "the Hankel singular values of G alone",
            "A_s, B_s, C_s, D_s = simlab.tf2ss(c1.num_series, c1.den_series)",
            "A_s, B_s, C_s, D_s = simlab.tf2ss(G.num, G.den)", "of G alone"),
    Mistake("D1", "the Hankel singular values after minreal",
            "A_s, B_s, C_s, D_s = simlab.tf2ss(c1.num_series, c1.den_series)",
            "reduced_series = simlab.minreal(c1.num_series, c1.den_series)\n"
            "A_s, B_s, C_s, D_s = simlab.tf2ss(reduced_series.num, reduced_series.den)", "minimal realization"),
    Mistake("D1", "only the first discarded value", "bound = 2 * np.sum(hsv[order:])", "bound = 2 * hsv[order]",
            "the first discarded value"),
    Mistake("D1", "sigma_r counted as discarded", "bound = 2 * np.sum(hsv[order:])",
            "bound = 2 * np.sum(hsv[order - 1:])", "a kept value"),
    Mistake("E1", "f and k swapped in the mechanical model", "np.array([m, f, k_spring])  # 1 / (m s^2 + f s + k)",
            "np.array([m, k_spring, f])  # 1 / (m s^2 + f s + k)", "f and k are swapped"),
    Mistake("E1", "C instead of 1/C in the electrical model", "np.array([L, R, 1.0 / C_cap])",
            "np.array([L, R, C_cap])", "is 1/C, not C"),
    Mistake("F1", "the arguments of feedback swapped", "simlab.feedback(numo, deno, numh, denh)",
            "simlab.feedback(numh, denh, numo, deno)", "forward path comes first"),
)

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
