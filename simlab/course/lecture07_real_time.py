"""Lecture 07: real-time simulation, multistep methods, pure delay and sampled-data systems.

Course material for ``course/07_real_time_and_sampled_data.ipynb`` (issue 16; seed 003, sect.
3.3 实时仿真算法, 3.4 纯延迟环节, 3.5 采样控制系统): each function computes one table or figure
of the lecture and returns a typed result, and ``tests/test_lecture07_real_time.py`` checks each
against an independent oracle (sympy, solve_ivp, python-control, closed forms).

* Real time (实时仿真): :func:`input_schedules` (which input sample each evaluation of a frame
  uses), :func:`order_conditions` (the Runge-Kutta order conditions, sympy), :func:`input_error_terms`
  (the local error a method makes on y' = u(t) with the samples it may use, sympy) and
  :func:`real_time_study` (the frame loop of :mod:`simlab.realtime` on the running example).
* Multistep methods (线性多步法): :func:`adams_by_interpolation` (the Adams weights and error
  constants from the interpolating polynomial, sympy), :func:`stability_intervals`,
  :func:`startup_study` (AB4 started well and badly), :func:`equal_cost_study`.
* Variable step (变步长): :func:`fehlberg_step`, :func:`error_estimate_study` and
  :func:`variable_step_study` (RKF45 on a lag that follows a fast command).
* Pure delay (纯延迟): :func:`delay_gains`, :func:`delayed_step_study`,
  :func:`shift_register_study`, :func:`pade_study`.
* Sampled-data systems (采样控制系统) and multirate simulation (多速率仿真):
  :func:`p_loop_derivation`, :func:`digital_pi`, :func:`sampled_runs`, :func:`stability_scan`,
  :func:`multirate_study`; and :func:`method_summary` for the discussion.

The running example of the first three parts is the plant model G(s) = 4 / (s^2 + 2 s + 4)
(omega_n = 2 rad/s, zeta = 0.5) driven by the command u(t) = sin 3t, from rest, over 5 s; the
sampled-data part uses the seed's plant 1/(s^3 + 4 s^2 + 8 s + 5) under the PI controller
10 + 4/s (the example of ``simlab.sampled_data``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy as sp

import simlab
from simlab.delay import DelayLine, discretize_delay, split_delay
from simlab.delay_approximation import compare_pade
from simlab.digital import DigitalController, analog_pid, digital_pid
from simlab.integrators import euler_step, rk4_step
from simlab.multistep import MULTISTEP_METHODS, adams_bashforth, adams_bashforth_moulton
from simlab.realtime import REAL_TIME_METHODS, input_schedule, simulate_real_time
from simlab.sampled_data import (
    discrete_closed_loop,
    intersample_ripple,
    simulate_sampled,
    stability_limit,
)
from simlab.stability import (
    boundary_locus,
    fit_order,
    max_stable_step,
    real_stability_limit,
)
from simlab.variable_step import FEHLBERG, rkf45

__all__ = [
    "A_PLANT",
    "B_PLANT",
    "C_PLANT",
    "DELAY",
    "DELAY_T",
    "FRAME_STEPS",
    "LAG_RATE",
    "OMEGA_U",
    "PI_GAINS",
    "REAL_TIME_CASES",
    "REFERENCE",
    "SCAN_T",
    "SEED_PLANT",
    "TABLEAUS",
    "T_END",
    "AdamsRow",
    "CostRow",
    "DelayGains",
    "DelayedStepRow",
    "DigitalPI",
    "EstimateRow",
    "InputErrorRow",
    "MethodSummaryRow",
    "MultirateRow",
    "OrderConditionRow",
    "PLoopDerivation",
    "PadeStudy",
    "RealTimeRow",
    "SampledRun",
    "ScheduleRow",
    "ShiftRegisterRow",
    "StabilityIntervalRow",
    "StabilityScan",
    "StartupRow",
    "VariableStepStudy",
    "ab4_run",
    "adams_by_interpolation",
    "adams_table",
    "analog_response",
    "boundary_loci",
    "command_smooth",
    "delay_gains",
    "delayed_step_study",
    "digital_pi",
    "equal_cost_study",
    "error_estimate_study",
    "fehlberg_step",
    "fopdt_exact",
    "input_error_terms",
    "input_schedules",
    "lag_exact",
    "lag_rhs",
    "method_summary",
    "multirate_study",
    "order_conditions",
    "p_loop_derivation",
    "pade_study",
    "plant_eigenvalues",
    "plant_exact",
    "plant_input",
    "plant_model",
    "plant_rhs",
    "real_time_study",
    "sampled_runs",
    "shift_register_study",
    "stability_intervals",
    "stability_scan",
    "startup_study",
    "variable_step_study",
]

# =============================================================================================
# The running example: G(s) = 4 / (s^2 + 2 s + 4) driven by u(t) = sin 3t
# =============================================================================================

#: x = (y, dy/dt): y'' + 2 zeta omega_n y' + omega_n^2 y = omega_n^2 u with omega_n = 2, zeta = 0.5.
A_PLANT = np.array([[0.0, 1.0], [-4.0, -2.0]])
B_PLANT = np.array([0.0, 4.0])
C_PLANT = np.array([1.0, 0.0])
OMEGA_U = 3.0  #: angular frequency of the command u(t) = sin(OMEGA_U t), rad/s
T_END = 5.0  #: span of the runs, s
FRAME_STEPS = (0.1, 0.05, 0.025, 0.0125)  #: frame times h of the order measurements, s

#: (method, what a missing input sample becomes) for the real-time loop; "offline" is RK4 with
#: the exact input at t_n + h/2 and t_n + h (what no real-time loop has).
REAL_TIME_CASES = (("rtrk2", "error"), ("rtrk3", "error"), ("ab2", "error"), ("ab4", "error"),
                   ("rk4", "hold"), ("rk4", "extrapolate"), ("rk4", "offline"))


def plant_input(t):
    """The command u(t) = sin(3 t) that the real-time loop reads as samples."""
    return np.sin(OMEGA_U * t)


def plant_model(t, x, u):
    """dx/dt = A x + B u of the plant model, in the form f(t, x, u) of :mod:`simlab.realtime`."""
    return A_PLANT @ x + B_PLANT * u


def plant_rhs(t, x):
    """dx/dt = A x + B sin(3 t): the same model with the input known at every t (offline)."""
    return A_PLANT @ x + B_PLANT * np.sin(OMEGA_U * t)


def plant_eigenvalues():
    """Eigenvalues of A_PLANT, -1 +- j sqrt(3) (1/s)."""
    return np.linalg.eigvals(A_PLANT)


def plant_exact(t):
    """The exact state from rest, shape (len(t), 2).

    x(t) = x_p(t) + e^{At} (x(0) - x_p(0)), with the periodic solution
    x_p(t) = Im[(j omega I - A)^{-1} B e^{j omega t}] and e^{At} = V diag(e^{lambda_i t}) V^{-1}
    (A has the distinct eigenvalues -1 +- j sqrt 3).
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    M = np.linalg.solve(1j * OMEGA_U * np.eye(2) - A_PLANT, B_PLANT)
    x_p = np.imag(M[None, :] * np.exp(1j * OMEGA_U * t)[:, None])
    lam, V = np.linalg.eig(A_PLANT)
    c = np.linalg.solve(V, -np.imag(M))  # e^{At} (x0 - x_p(0)), x0 = 0, in modal coordinates
    return x_p + np.real((np.exp(np.outer(t, lam)) * c) @ V.T)


# =============================================================================================
# 1 Real-time algorithms
# =============================================================================================

_R = sp.Rational
#: Butcher tableaus (c, a, b) of the Runge-Kutta-type frames of :mod:`simlab.realtime`, exact.
TABLEAUS = {
    "rtrk2": ((0, _R(1, 2)), ((), (_R(1, 2),)), (0, 1)),
    "rtrk3": ((0, _R(1, 3), _R(2, 3)), ((), (_R(1, 3),), (0, _R(2, 3))), (_R(1, 4), 0, _R(3, 4))),
    "heun": ((0, 1), ((), (1,)), (_R(1, 2), _R(1, 2))),
    "rk4": ((0, _R(1, 2), _R(1, 2), 1), ((), (_R(1, 2),), (0, _R(1, 2)), (0, 0, 1)),
            (_R(1, 6), _R(1, 3), _R(1, 3), _R(1, 6))),
}


@dataclass(frozen=True)
class ScheduleRow:
    """One evaluation of f in a frame and the input sample it uses.

    Attributes
    ----------
    method, title : str
        Key of :data:`simlab.realtime.REAL_TIME_METHODS` and its name.
    evaluation : int
        i = 0 .. s - 1.
    wanted, computed_at : fractions.Fraction
        c_i (the method wants u(t_n + c_i h)) and i / s (the evaluation starts at t_n + (i/s) h).
    how : str
        "sample" (the wanted sample exists), "held" or "extrapolated".
    used : str
        The input used, as text (``"u(t_n + h/2)"``, ``"u(t_n)"``, ``"2 u(t_n + h/2) - u(t_n)"``).
    """

    method: str
    title: str
    evaluation: int
    wanted: Fraction
    computed_at: Fraction
    how: str
    used: str


def _sample_text(j, m):
    offset = Fraction(j, m)
    if offset == 0:
        return "u(t_n)"
    sign, size = ("+" if offset > 0 else "-"), abs(offset)
    numerator = "" if size.numerator == 1 else str(size.numerator)
    return f"u(t_n {sign} {numerator}h" + ("" if size.denominator == 1 else f"/{size.denominator}") + ")"


def _used_text(use, m):
    if len(use.samples) == 1:
        return _sample_text(use.samples[0], m)
    (w_old, w_new), (j_old, j_new) = use.weights, use.samples
    return f"{w_new:g} {_sample_text(j_new, m)} - {-w_old:g} {_sample_text(j_old, m)}"


def input_schedules(methods=(("rk4", "hold"), ("rtrk2", "error"), ("rtrk3", "error"), ("ab4", "error"))):
    """Which input sample each evaluation of a frame uses (:func:`simlab.realtime.input_schedule`).

    Evaluation i of an s-stage frame runs during [t_n + (i/s) h, t_n + ((i+1)/s) h]; it may use
    the samples u(t_n + j h/m) with j/m <= i/s (m = the method's own samples per frame: 2 for
    RK4 and RTRK2, 3 for RTRK3, 1 for AB).

    Returns
    -------
    tuple of ScheduleRow
    """
    rows = []
    for method, missing in methods:
        scheme = REAL_TIME_METHODS[method]
        m = scheme.samples_needed
        for use in input_schedule(method, m, missing):
            rows.append(ScheduleRow(method, scheme.title, use.evaluation, use.wanted, use.computed_at, use.how,
                                    _used_text(use, m)))
    return tuple(rows)


def _conditions(c, a, b):
    """The order conditions up to order 4 of the tableau (c, a, b): (order, text, left side, right side)."""
    s = len(b)
    A = [[a[i][j] if j < len(a[i]) else 0 for j in range(s)] for i in range(s)]
    Ac = [sum(A[i][j] * c[j] for j in range(s)) for i in range(s)]  # (A c)_i
    Ac2 = [sum(A[i][j] * c[j] ** 2 for j in range(s)) for i in range(s)]
    AAc = [sum(A[i][j] * Ac[j] for j in range(s)) for i in range(s)]
    dot = lambda v: sp.nsimplify(sum(b[i] * v[i] for i in range(s)))
    return (
        (1, "sum b_i = 1", dot([1] * s), _R(1)),
        (2, "sum b_i c_i = 1/2", dot(c), _R(1, 2)),
        (3, "sum b_i c_i^2 = 1/3", dot([ci ** 2 for ci in c]), _R(1, 3)),
        (3, "sum b_i a_ij c_j = 1/6", dot(Ac), _R(1, 6)),
        (4, "sum b_i c_i^3 = 1/4", dot([ci ** 3 for ci in c]), _R(1, 4)),
        (4, "sum b_i c_i a_ij c_j = 1/8", dot([c[i] * Ac[i] for i in range(s)]), _R(1, 8)),
        (4, "sum b_i a_ij c_j^2 = 1/12", dot(Ac2), _R(1, 12)),
        (4, "sum b_i a_ij a_jk c_k = 1/24", dot(AAc), _R(1, 24)),
    )


@dataclass(frozen=True)
class OrderConditionRow:
    """The Runge-Kutta order conditions (阶条件) of one method, evaluated exactly with sympy.

    Attributes
    ----------
    method, title : str
    values : tuple of (int, str, sympy.Rational, sympy.Rational)
        (order p of the condition, the condition, its left side for this method, the right side).
    order : int
        The largest p such that every condition of order <= p holds (at most 4 here).
    """

    method: str
    title: str
    values: tuple
    order: int


def order_conditions(methods=("rtrk2", "rtrk3", "rk4")):
    """Evaluate the order conditions up to order 4 on the tableaus of :data:`TABLEAUS` (sympy).

    The Taylor series of one step matches that of the exact solution up to h^p for every
    smooth f(t, x) exactly when the conditions of orders 1 .. p hold (Butcher; Hairer, Norsett
    and Wanner, sect. II.2). With c_i = sum_j a_ij the same conditions cover f(t, x, u(t)).

    Returns
    -------
    tuple of OrderConditionRow
    """
    rows = []
    for method in methods:
        values = _conditions(*TABLEAUS[method])
        order = 0
        for p in range(1, 5):
            if all(left == right for q, _, left, right in values if q == p):
                order = p
            else:
                break
        rows.append(OrderConditionRow(method, REAL_TIME_METHODS[method].title, values, order))
    return tuple(rows)


@dataclass(frozen=True)
class InputErrorRow:
    """The local error of one frame on y' = u(t) with the input samples the loop provides.

    Attributes
    ----------
    method, missing_input, title : str
        The case (``missing_input="offline"``: the exact u at every c_i).
    leading_term : sympy.Expr
        The first term of (exact - method) for one frame in powers of h, in terms of the
        derivatives u0 = u(t_n), u1 = u'(t_n), u2 = u''(t_n), ... .
    order : int
        Power of h of the leading term minus 1: the order the input handling allows.
    """

    method: str
    missing_input: str
    title: str
    leading_term: object
    order: int


_H = sp.Symbol("h", positive=True)
_U = sp.symbols("u0:7")


def _u_series(s):
    """u(t_n + s h) as its Taylor polynomial in h: sum_q u_q (s h)^q / q!."""
    return sum(_U[q] * (s * _H) ** q / sp.factorial(q) for q in range(len(_U)))


def _frame_increment(method, missing):
    """h sum_i b_i u~_i: one frame of ``method`` on y' = u(t) with the inputs the loop gives it."""
    scheme = REAL_TIME_METHODS[method]
    if scheme.frame is None:  # AB_k: h sum_j beta_j u(t_n - j h)
        weights, _ = adams_by_interpolation(scheme.order)
        return _H * sum(beta * _u_series(-j) for j, beta in enumerate(weights))
    c, _, b = TABLEAUS[method]
    if missing == "offline":
        values = [_u_series(ci) for ci in c]
    else:
        m = scheme.samples_needed
        values = [sum(sp.nsimplify(w) * _u_series(_R(j, m)) for w, j in zip(use.weights, use.samples))
                  for use in input_schedule(method, m, missing)]
    return _H * sum(bi * v for bi, v in zip(b, values))


def input_error_terms(cases=REAL_TIME_CASES):
    """Leading local error of each case on the pure integrator y' = u(t) (sympy).

    On y' = u(t) every evaluation of f is just the input it is given, so one frame adds
    h sum_i b_i u~_i (Runge-Kutta type) or h sum_j beta_j u(t_n - j h) (AB_k), while the exact
    solution adds the integral of u over the frame, sum_q u_q h^(q+1) / (q+1)!. Their
    difference shows the order that the input samples allow, whatever the state part does.

    Returns
    -------
    tuple of InputErrorRow
    """
    # the exact increment: int_0^h u(t_n + sigma) dsigma = sum_q u_q h^(q+1) / (q+1)!
    exact = sum(_U[q] * _H ** (q + 1) / sp.factorial(q + 1) for q in range(len(_U)))
    rows = []
    for method, missing in cases:
        difference = sp.expand(exact - _frame_increment(method, missing))
        power = min(monomial[0] for monomial in sp.Poly(difference, _H).monoms())
        leading = sp.factor(difference.coeff(_H, power)) * _H ** power
        title = REAL_TIME_METHODS[method].title
        rows.append(InputErrorRow(method, missing, title, leading, int(power) - 1))
    return tuple(rows)


@dataclass(frozen=True)
class RealTimeRow:
    """One case of the real-time loop on the running example, at every frame time.

    Attributes
    ----------
    method, missing_input, title : str
        The case (``"offline"``: :func:`simlab.rk4` with the exact input, not a real-time run).
    real_time : bool
        True if every evaluation used only samples that existed when it started.
    evaluations_per_frame : int
        s, the fixed cost of a frame (evaluations of f).
    substituted_per_frame : int
        Evaluations per frame that used a held or extrapolated input instead of the wanted one.
    h, errors : tuple of float
        Frame times (s) and max_n |y_n - y(t_n)| over [0, 5] s at each.
    order : float
        Measured order: slope of log error against log h (:func:`simlab.stability.fit_order`).
    h_stable : float
        Largest stable frame time for the plant's eigenvalues (:func:`simlab.stability.max_stable_step`), s.
    """

    method: str
    missing_input: str
    title: str
    real_time: bool
    evaluations_per_frame: int
    substituted_per_frame: int
    h: tuple
    errors: tuple
    order: float
    h_stable: float


def _case_error(method, missing, h):
    """max |y_n - y(t_n)| of one run; (error, evaluations per frame, substituted per frame)."""
    if missing == "offline":
        run = simlab.rk4(plant_rhs, (0.0, T_END), np.zeros(2), h)
        return float(np.max(np.abs((run.x - plant_exact(run.t)) @ C_PLANT))), 4, 0
    run = simulate_real_time(plant_model, plant_input, (0.0, T_END), np.zeros(2), h, method=method,
                             missing_input=missing)
    substituted = sum(use.how != "sample" for use in run.input_uses)
    return float(np.max(np.abs((run.x - plant_exact(run.t)) @ C_PLANT))), run.evaluations_per_frame, substituted


@lru_cache(maxsize=4)
def real_time_study(cases=REAL_TIME_CASES, hs=FRAME_STEPS):
    """Error and measured order of each case of the real-time loop (:func:`simlab.realtime.simulate_real_time`).

    Returns
    -------
    tuple of RealTimeRow
    """
    rows = []
    eigenvalues = plant_eigenvalues()
    for method, missing in cases:
        results = [_case_error(method, missing, h) for h in hs]
        errors = tuple(r[0] for r in results)
        _, evaluations, substituted = results[0]
        title = REAL_TIME_METHODS[method].title
        rows.append(RealTimeRow(method, missing, title, missing != "offline" and substituted == 0, evaluations,
                                substituted, tuple(hs), errors, fit_order(hs, errors),
                                max_stable_step(eigenvalues, method)))
    return tuple(rows)


# =============================================================================================
# 2 Multistep methods
# =============================================================================================


@dataclass(frozen=True)
class AdamsRow:
    """The Adams formulas of one order k, derived with sympy.

    Attributes
    ----------
    order : int
        k, the number of slopes (and the order).
    ab_weights, am_weights : tuple of sympy.Rational
        beta_j of f_{n-j} (Adams-Bashforth) and beta*_j of f_{n+1-j} (Adams-Moulton).
    ab_constant, am_constant : sympy.Rational
        Error constants: the local error is C h^{k+1} x^{(k+1)}.
    """

    order: int
    ab_weights: tuple
    ab_constant: object
    am_weights: tuple
    am_constant: object


@lru_cache(maxsize=16)
def adams_by_interpolation(k, implicit=False):
    """Adams weights and error constant from the interpolating polynomial (sympy).

    With s = (t - t_n)/h and the nodes s_i = -i (AB) or 1 - i (AM), i = 0 .. k - 1,

    .. math::
        \\beta_j = \\int_0^1 \\ell_j(s)\\,ds,\\qquad
        C_{k+1} = \\frac{1}{k!}\\int_0^1 \\prod_i (s - s_i)\\,ds

    (the second from the interpolation remainder f - P = x^{(k+1)} h^k prod (s - s_i) / k!).

    Returns
    -------
    weights : tuple of sympy.Rational
    constant : sympy.Rational
    """
    s = sp.Symbol("s")
    nodes = [(1 if implicit else 0) - i for i in range(k)]

    def integral(polynomial):  # int_0^1 p(s) ds
        antiderivative = sp.Poly(polynomial, s).integrate()
        return antiderivative.eval(1) - antiderivative.eval(0)

    weights = []
    for j in range(k):
        # l_j(s) = prod_{i != j} (s - s_i) / (s_j - s_i)
        basis = sp.prod([(s - nodes[i]) / sp.Integer(nodes[j] - nodes[i]) for i in range(k) if i != j])
        weights.append(integral(basis))
    constant = integral(sp.prod([s - node for node in nodes])) / sp.factorial(k)
    return tuple(weights), constant


def adams_table(orders=(1, 2, 3, 4)):
    """:class:`AdamsRow` for each order: AB_k and AM_k weights and error constants."""
    return tuple(AdamsRow(k, *adams_by_interpolation(k), *adams_by_interpolation(k, True)) for k in orders)


@dataclass(frozen=True)
class StabilityIntervalRow:
    """The real stability interval [z_min, 0] of a method on y' = lambda y, z = h lambda.

    Attributes
    ----------
    method, title : str
    z_min : float
        Left end (:func:`simlab.stability.real_stability_limit`; for ABM4 the first step that is
        unstable for lambda = -1, :func:`simlab.stability.max_stable_step`).
    exact : sympy.Rational or None
        For AB_k: rho(-1) / sigma(-1), where the root zeta = -1 of rho(zeta) - z sigma(zeta)
        crosses the unit circle (sympy); None otherwise.
    evaluations : int
        Evaluations of f per step.
    """

    method: str
    title: str
    z_min: float
    exact: object
    evaluations: int


def _ab_left_end(k):
    zeta = sp.Symbol("zeta")
    weights, _ = adams_by_interpolation(k)
    rho = zeta ** k - zeta ** (k - 1)
    sigma = sum(beta * zeta ** (k - 1 - j) for j, beta in enumerate(weights))
    return sp.nsimplify((rho / sigma).subs(zeta, -1))


@lru_cache(maxsize=16)
def _z_min(method):
    """Left end of the real stability interval, once per method.

    One-step methods: :func:`simlab.stability.real_stability_limit` (roots of R(z) = +-1). Multistep
    methods: -h_max for lambda = -1 by :func:`simlab.stability.max_stable_step` (the first h at which
    a root of pi(zeta; -h) leaves the unit disc; the same z_min as ``real_stability_limit``, whose
    fine scan of the axis costs ten times more).
    """
    if method in MULTISTEP_METHODS:
        return -max_stable_step([-1.0], method)
    return real_stability_limit(method)


def stability_intervals(methods=("ab1", "ab2", "ab3", "ab4", "abm4", "rtrk2", "rtrk3", "rk4")):
    """Real stability intervals of the Adams methods, the real-time Runge-Kutta methods and RK4."""
    rows = []
    for method in methods:
        if method in MULTISTEP_METHODS:
            scheme = MULTISTEP_METHODS[method]
            exact = _ab_left_end(scheme.order) if scheme.corrector is None else None
            z_min = float(exact) if exact is not None else _z_min(method)
            rows.append(StabilityIntervalRow(method, scheme.title, z_min, exact, scheme.evaluations))
        else:
            scheme = REAL_TIME_METHODS[method]
            rows.append(StabilityIntervalRow(method, scheme.title, _z_min(method), None,
                                             scheme.evaluations))
    return tuple(rows)


def boundary_loci(methods=("ab1", "ab2", "ab3", "ab4"), n=721):
    """{method: z(theta)}: the boundary locus rho(e^{j theta}) / sigma(e^{j theta}) of each AB_k."""
    return {method: boundary_locus(method, n)[:, 0] for method in methods}


def ab4_run(start, h):
    """AB4 on the running example with its first three steps by ``start``: "rk4", "euler" or "exact".

    Returns (t, x): the grid over [0, 5] s with step h and the states, shape (N + 1, 2)."""
    t = np.linspace(0.0, T_END, round(T_END / h) + 1)
    x = np.zeros((len(t), 2))
    for n in range(3):
        if start == "exact":
            x[n + 1] = plant_exact(t[n + 1])[0]
        else:
            step = rk4_step if start == "rk4" else euler_step
            x[n + 1] = step(plant_rhs, t[n], x[n], h)
    beta = [float(b) for b in adams_by_interpolation(4)[0]]
    slopes = [plant_rhs(t[n], x[n]) for n in range(4)]  # f_0 .. f_3
    for n in range(3, len(t) - 1):
        # x_{n+1} = x_n + h (beta_0 f_n + beta_1 f_{n-1} + beta_2 f_{n-2} + beta_3 f_{n-3})
        x[n + 1] = x[n] + h * sum(b * slopes[n - j] for j, b in enumerate(beta))
        slopes.append(plant_rhs(t[n + 1], x[n + 1]))
    return t, x


@dataclass(frozen=True)
class StartupRow:
    """AB4 with one way of computing its three starting values.

    Attributes
    ----------
    start : str
        "exact" (the closed form), "rk4" (as :func:`simlab.adams_bashforth`) or "euler".
    h, errors : tuple of float
        Steps (s) and max |y_n - y(t_n)| over the span.
    order : float
        Measured order.
    """

    start: str
    h: tuple
    errors: tuple
    order: float


@lru_cache(maxsize=2)
def startup_study(hs=FRAME_STEPS):
    """AB4 on the running example started with exact values, with RK4 and with Euler steps."""
    rows = []
    for start in ("exact", "rk4", "euler"):
        errors = []
        for h in hs:
            t, x = ab4_run(start, h)
            errors.append(float(np.max(np.abs((x - plant_exact(t)) @ C_PLANT))))
        rows.append(StartupRow(start, tuple(hs), tuple(errors), fit_order(hs, errors)))
    return tuple(rows)


@dataclass(frozen=True)
class CostRow:
    """One method at a step that makes the evaluations of f about equal.

    Attributes
    ----------
    title : str
    h : float
        Step, s.
    nfev : int
        Evaluations of f, counted by the integrator.
    error : float
        max |y_n - y(t_n)| over the span.
    """

    title: str
    h: float
    nfev: int
    error: float


@lru_cache(maxsize=2)
def equal_cost_study(h_rk4=0.1):
    """RK4 at h, ABM4 (2 evaluations per step) at h/2 and AB4 (1) at h/4: about equal cost."""
    runs = (("RK4", simlab.rk4(plant_rhs, (0.0, T_END), np.zeros(2), h_rk4)),
            ("ABM4 (PECE)", adams_bashforth_moulton(plant_rhs, (0.0, T_END), np.zeros(2), h_rk4 / 2, order=4)),
            ("AB4", adams_bashforth(plant_rhs, (0.0, T_END), np.zeros(2), h_rk4 / 4, order=4)))
    return tuple(CostRow(title, run.h, run.nfev, float(np.max(np.abs((run.x - plant_exact(run.t)) @ C_PLANT))))
                 for title, run in runs)


# =============================================================================================
# 3 Variable step
# =============================================================================================

LAG_RATE = 2.0  #: lambda of the lag y' = -lambda (y - g(t)) + g'(t), 1/s
_COMMAND_SLOPE, _COMMAND_TIME = 4.0, 5.0  # g(t) = tanh(4 (t - 5))
_LAG_SPAN = (0.0, 10.0)


def command_smooth(t):
    """g(t) = tanh(4 (t - 5)): a command that switches from -1 to 1 within about a second."""
    return np.tanh(_COMMAND_SLOPE * (t - _COMMAND_TIME))


def lag_rhs(t, y):
    """y' = -lambda (y - g(t)) + g'(t), lambda = 2: its solution follows g after a transient."""
    slope = _COMMAND_SLOPE / np.cosh(_COMMAND_SLOPE * (t - _COMMAND_TIME)) ** 2
    return -LAG_RATE * (y - command_smooth(t)) + slope


def lag_exact(t, y0=0.0):
    """y(t) = g(t) + e^{-lambda t} (y0 - g(0)), the exact solution from y(0) = y0."""
    return command_smooth(t) + np.exp(-LAG_RATE * t) * (y0 - command_smooth(0.0))


def fehlberg_step(f, t, x, h):
    """One step of Fehlberg's pair: (x4, x5), the fourth- and fifth-order solutions.

    K_i = f(t + c_i h, x + h sum_j a_ij K_j), x4 = x + h sum_i b4_i K_i, x5 = x + h sum_i b5_i K_i
    (:data:`simlab.variable_step.FEHLBERG`); x5 - x4 estimates the local error of x4.
    """
    c, a = [float(v) for v in FEHLBERG["c"]], FEHLBERG["a"]
    K = []
    for i in range(6):
        K.append(f(t + c[i] * h, x + h * sum(float(a_ij) * K_j for a_ij, K_j in zip(a[i], K))))
    x4 = x + h * sum(float(b) * K_i for b, K_i in zip(FEHLBERG["b4"], K))
    x5 = x + h * sum(float(b) * K_i for b, K_i in zip(FEHLBERG["b5"], K))
    return x4, x5


@dataclass(frozen=True)
class EstimateRow:
    """The error estimate of one Fehlberg step against the true local error.

    Attributes
    ----------
    h : float
        Step, s.
    estimate : float
        x5 - x4.
    true_error : float
        y(t + h) - x4 from the exact solution (started on it).
    ratio : float
        estimate / true_error (tends to 1 as h -> 0: x5 is one order more accurate).
    """

    h: float
    estimate: float
    true_error: float
    ratio: float


def error_estimate_study(t0=0.0, hs=(0.2, 0.1, 0.05, 0.025)):
    """One Fehlberg step from the exact y(t0) of the lag, for several h."""
    y0 = float(lag_exact(t0))
    rows = []
    for h in hs:
        x4, x5 = fehlberg_step(lag_rhs, t0, y0, h)
        true_error = float(lag_exact(t0 + h)) - x4
        rows.append(EstimateRow(h, x5 - x4, true_error, (x5 - x4) / true_error))
    return tuple(rows)


@dataclass(frozen=True)
class VariableStepStudy:
    """RKF45 on the lag, with solve_ivp's RK45 at the same tolerances for comparison.

    Attributes
    ----------
    run : VariableStepResult
        The run (``.t``, ``.x``, ``.h``, ``.n_accepted``, ``.n_rejected``, ``.nfev``, ``.rejected_t``).
    rtol, atol : float
    max_error : float
        max |x_k - y(t_k)| at the accepted points.
    rk45_steps, rk45_nfev : int
        Steps and evaluations of ``scipy.integrate.solve_ivp(method="RK45")``.
    """

    run: object
    rtol: float
    atol: float
    max_error: float
    rk45_steps: int
    rk45_nfev: int


@lru_cache(maxsize=4)
def variable_step_study(rtol=1e-6, atol=1e-9):
    """RKF45 (:func:`simlab.rkf45`) on the lag over [0, 10] s from y(0) = 0."""
    from scipy.integrate import solve_ivp

    run = rkf45(lag_rhs, _LAG_SPAN, 0.0, rtol=rtol, atol=atol)
    reference = solve_ivp(lag_rhs, _LAG_SPAN, [0.0], method="RK45", rtol=rtol, atol=atol)
    return VariableStepStudy(run, rtol, atol, float(np.max(np.abs(run.x - lag_exact(run.t)))),
                             len(reference.t) - 1, int(reference.nfev))


# =============================================================================================
# 4 Pure delay
# =============================================================================================

DELAY = 0.35  #: tau of the first-order-plus-dead-time example 1/(s + 1) e^{-tau s}, s
DELAY_T = 0.1  #: its sample period (tau / T = 3.5: the delayed step switches between samples), s


@dataclass(frozen=True)
class DelayGains:
    """The split step of a delayed held input for 1/(s + a), derived with sympy.

    Attributes
    ----------
    Gamma_1, Gamma_2 : sympy.Expr
        Gains of u[k - d - 1] (acting for the first theta of the step) and u[k - d] (the rest),
        in terms of a, T, theta.
    total : sympy.Expr
        Gamma_1 + Gamma_2, expanded: the undelayed m(T) = (1 - e^{-aT}) / a.
    d, theta : int, float
        tau = d T + theta for the example (tau = 0.35, T = 0.1, a = 1).
    values, library : tuple of float
        (Gamma_1, Gamma_2) of the example from the sympy expressions, and from
        :func:`simlab.delay.discretize_delay`.
    """

    Gamma_1: object
    Gamma_2: object
    total: object
    d: int
    theta: float
    values: tuple
    library: tuple


def delay_gains(a=1.0, T=DELAY_T, tau=DELAY):
    """Gamma_1 and Gamma_2 of x[k+1] = Phi x[k] + Gamma_1 u[k-d-1] + Gamma_2 u[k-d] (sympy)."""
    a_, T_, theta_, sigma = sp.symbols("a T theta sigma", positive=True)
    # x[k+1] = e^{-aT} x[k] + int_0^T e^{-a (T - sigma)} w(t_k + sigma) dsigma with
    # w = u[k-d-1] for sigma < theta and u[k-d] after
    Gamma_1 = sp.integrate(sp.exp(-a_ * (T_ - sigma)), (sigma, 0, theta_))
    Gamma_2 = sp.integrate(sp.exp(-a_ * (T_ - sigma)), (sigma, theta_, T_))
    total = sp.expand(Gamma_1 + Gamma_2)
    d, theta = split_delay(tau, T)
    values = tuple(float(g.subs({a_: a, T_: T, theta_: theta})) for g in (Gamma_1, Gamma_2))
    z = discretize_delay([[-a]], [1.0], T, tau)
    return DelayGains(Gamma_1, Gamma_2, total, d, theta, values,
                      (float(z.Gamma_1[0, 0]), float(z.Gamma_2[0, 0])))


def fopdt_exact(t, tau=DELAY):
    """Unit step response of 1/(s + 1) e^{-tau s}: 1 - e^{-(t - tau)} for t >= tau, else 0."""
    t = np.asarray(t, dtype=float)
    return np.where(t >= tau, 1.0 - np.exp(-(t - tau)), 0.0)


@dataclass(frozen=True)
class DelayedStepRow:
    """The delayed step response simulated with one delay, against the exact one (tau = 0.35).

    Attributes
    ----------
    tau_used : float
        The delay given to ``lsim(..., input_delay=...)``: 0.35 itself, or rounded to a
        multiple of T.
    max_error : float
        max_k |y_k - y(t_k)| over 0 .. 5 s against the exact response with tau = 0.35.
    """

    tau_used: float
    max_error: float


def delayed_step_study(taus=(DELAY, 0.3, 0.4), T=DELAY_T, t_end=5.0):
    """``simlab.lsim(..., input_delay=tau)`` of the unit step into 1/(s + 1), exact tau and rounded."""
    t = np.linspace(0.0, t_end, round(t_end / T) + 1)
    exact = fopdt_exact(t)
    rows = []
    for tau in taus:
        y = simlab.lsim([[-1.0]], [[1.0]], [[1.0]], [[0.0]], np.ones(len(t)), t, input_delay=tau).y
        rows.append(DelayedStepRow(tau, float(np.max(np.abs(y - exact)))))
    return tuple(rows)


@dataclass(frozen=True)
class ShiftRegisterRow:
    """The shift register (:class:`simlab.delay.DelayLine`) on u = sin t, against sin(t - tau).

    Attributes
    ----------
    tau : float
    d, theta : int, float
        tau = d h + theta.
    max_error : float
        max |y_n - sin(t_n - tau)| over 0 .. 10 s (after the first tau + h).
    bound : float
        theta (h - theta) / 2 max|u''| (max|u''| = 1): the linear-interpolation bound.
    """

    tau: float
    d: int
    theta: float
    max_error: float
    bound: float


def shift_register_study(taus=(0.3, 0.32, 0.35), h=0.1, t_end=10.0):
    """A delay line with spacing h fed sin t: exact for tau = d h, within the bound otherwise."""
    t = np.linspace(0.0, t_end, round(t_end / h) + 1)
    rows = []
    for tau in taus:
        line = DelayLine(tau, h)
        y = line.response(np.sin(t))
        settled = t >= tau + h  # before that the register still holds its initial zeros
        error = float(np.max(np.abs(y - np.sin(t - tau))[settled]))
        rows.append(ShiftRegisterRow(tau, line.d, line.theta, error, line.theta * (h - line.theta) / 2))
    return tuple(rows)


@dataclass(frozen=True)
class PadeStudy:
    """Step responses of 1/(s + 1) with a delay of 1 s: exact and with Padé approximants.

    Attributes
    ----------
    comparison : PadeComparison
        :func:`simlab.delay_approximation.compare_pade` (``.t``, ``.y`` exact, ``.rows``).
    undershoot : dict
        {order: min_k y_n(t_k)}: how far the approximant's response goes below zero.
    """

    comparison: object
    undershoot: dict


@lru_cache(maxsize=1)
def pade_study(tau=1.0, orders=(1, 2, 4), t_end=6.0):
    """``compare_pade`` for G(s) = 1/(s + 1), tau = 1 s, on a 10 ms grid."""
    comparison = compare_pade([1.0], [1.0, 1.0], tau, np.linspace(0.0, t_end, round(t_end / 0.01) + 1), orders)
    return PadeStudy(comparison, {row.order: float(np.min(row.y)) for row in comparison.rows})


# =============================================================================================
# 5 Sampled-data systems and 6 multirate simulation
# =============================================================================================

SEED_PLANT = ([1.0], [1.0, 4.0, 8.0, 5.0])  #: the seed's G(s) = 1 / (s^3 + 4 s^2 + 8 s + 5)
PI_GAINS = (10.0, 4.0)  #: K_p, K_i of the analog PI controller C(s) = 10 + 4/s
REFERENCE = 5.0  #: the step of the seed's program, r = 5


def _seed_plant():
    return simlab.tf2ss(*SEED_PLANT)


@dataclass(frozen=True)
class PLoopDerivation:
    """K/(s + a) under a sampled proportional controller, derived with sympy.

    Attributes
    ----------
    recurrence : sympy.Expr
        y_{k+1} in terms of y_k and r (zero-order hold, the plant sampled exactly).
    pole : sympy.Expr
        The closed-loop pole z(T) = e^{-aT} - (K/a)(1 - e^{-aT}).
    T_limit : sympy.Expr
        Where z = -1: T* = ln((K + a)/(K - a)) / a (for K > a; stable for T < T*).
    a, K, T_value : float
        The example (a = 1, K = 3) and T* there, s.
    T_library : float
        :func:`simlab.sampled_data.stability_limit` on the same loop, s.
    """

    recurrence: object
    pole: object
    T_limit: object
    a: float
    K: float
    T_value: float
    T_library: float


def p_loop_derivation(a=1.0, K=3.0):
    """The sampled P loop around K/(s + a): recurrence, pole in z and stability limit in T (sympy)."""
    a_, K_, T_, y_k, r, sigma = sp.symbols("a K T y_k r sigma", positive=True)
    u_k = K_ * (r - y_k)  # e_k = r - y_k, u_k = K e_k, held over the period
    # y_{k+1} = e^{-aT} y_k + int_0^T e^{-a (T - sigma)} dsigma u_k
    recurrence = sp.exp(-a_ * T_) * y_k + sp.integrate(sp.exp(-a_ * (T_ - sigma)), (sigma, 0, T_)) * u_k
    pole = sp.diff(recurrence, y_k)  # y_{k+1} = z y_k + (terms in r)
    E = sp.Symbol("E", positive=True)  # E = e^{-aT}: the pole is linear in E
    slope, offset = sp.Poly(pole.subs(sp.exp(-a_ * T_), E), E).all_coeffs()  # z = slope E + offset
    E_limit = sp.cancel((-1 - offset) / slope)  # z = -1
    T_limit = sp.log(1 / E_limit) / a_  # e^{-aT} = E  <=>  T = ln(1/E) / a
    T_value = float(T_limit.subs({a_: a, K_: K}))
    library = stability_limit([[-a]], [1.0], [1.0], 0.0, [K], [1.0]).T
    return PLoopDerivation(sp.collect(sp.expand(recurrence), y_k), sp.collect(sp.expand(pole), sp.exp(-a_ * T_)),
                           T_limit, a, K, T_value, library)


@dataclass(frozen=True)
class DigitalPI:
    """The PI controller 10 + 4/s made digital at period T, by sympy and by :func:`simlab.digital_pid`.

    Attributes
    ----------
    T : float
    tustin, matched : sympy.Expr
        D(z) as a rational function of z (sympy, with T substituted).
    tustin_coefficients, matched_coefficients : tuple of ndarray
        (numd, dend) from :func:`simlab.digital.digital_pid`.
    """

    T: float
    tustin: object
    matched: object
    tustin_coefficients: tuple
    matched_coefficients: tuple


def digital_pi(T=0.5):
    """Tustin: s = (2/T)(z - 1)/(z + 1) in K_p + K_i/s; matched: zero -K_i/K_p -> e^{-K_i T/K_p}, pole 0 -> 1."""
    z = sp.Symbol("z")
    Kp, Ki = (sp.nsimplify(g) for g in PI_GAINS)
    T_ = sp.nsimplify(T)
    tustin = sp.factor(sp.cancel(Kp + Ki / (2 / T_ * (z - 1) / (z + 1))))
    # matched: D(z) = K_d (z - e^{-a T}) / (z - 1), a = K_i / K_p; lim_{z->1} (z - 1)/T D(z) = K_i
    a = Ki / Kp
    K_d = Ki * T_ / (1 - sp.exp(-a * T_))
    matched = K_d * (z - sp.exp(-a * T_)) / (z - 1)
    return DigitalPI(T, tustin, matched, digital_pid(*PI_GAINS, 0.0, T, "tustin"),
                     digital_pid(*PI_GAINS, 0.0, T, "matched"))


def analog_response(t_end=40.0, n=4001):
    """Step response r = 5 of the analog loop C(s) G(s) / (1 + C(s) G(s)), exact at the grid (lsim)."""
    num, den = simlab.feedback(*simlab.series(*analog_pid(*PI_GAINS), *SEED_PLANT), [1.0], [1.0])
    t = np.linspace(0.0, t_end, n)
    return t, simlab.lsim(*simlab.tf2ss(num, den), REFERENCE * np.ones(n), t).y


@dataclass(frozen=True)
class SampledRun:
    """The sampled-data loop at one T (Tustin PI), simulated with N plant steps per period.

    Attributes
    ----------
    T : float
    run : SampledDataResult
        :func:`simlab.sampled_data.simulate_sampled` (plant by discrete similarity at h = T/N).
    max_difference : float
        max_k |y_k - y_k of the discrete closed loop| (:func:`discrete_closed_loop`).
    spectral_radius : float
        max |z_i| of the discrete closed loop.
    peak, peak_sampled : float
        Largest y(t) on the fine grid and largest y_k (:func:`intersample_ripple`).
    analog_peak : float
        Peak of the analog loop's response (for reference), on a 10 ms grid.
    """

    T: float
    run: object
    max_difference: float
    spectral_radius: float
    peak: float
    peak_sampled: float
    analog_peak: float


@lru_cache(maxsize=2)
def sampled_runs(Ts=(0.1, 0.5, 1.5), t_end=40.0):
    """The seed plant under the Tustin PI at each T (step r = 5), N = max(2, round(T / 0.02))."""
    A, B, C, D = _seed_plant()
    analog_peak = float(np.max(analog_response(t_end)[1]))
    rows = []
    for T in Ts:
        controller = DigitalController.from_analog(*analog_pid(*PI_GAINS), T, "tustin")
        run = simulate_sampled(A, B, C, D, controller, t_end, r=REFERENCE, N=max(2, round(T / 0.02)))
        loop = discrete_closed_loop(A, B, C, D, controller)
        ripple = intersample_ripple(run)
        rows.append(SampledRun(T, run, float(np.max(np.abs(loop.response(t_end, r=REFERENCE).y - run.y_k))),
                               loop.spectral_radius, ripple.peak, ripple.peak_sampled, analog_peak))
    return tuple(rows)


@dataclass(frozen=True)
class StabilityScan:
    """Spectral radius of the discrete loop against T, for the Tustin and the matched PI.

    Attributes
    ----------
    T : ndarray, shape (M,)
        Sample periods, s.
    radius : dict
        {"tustin": ndarray (M,), "matched": ndarray (M,)}: max |z_i(T)|.
    limits : dict
        {"tustin": StabilityLimit, "matched": StabilityLimit} (:func:`simlab.sampled_data.stability_limit`).
    final_error : dict
        {("tustin", "below") ...: max |e_k| over the last 20 samples of a 60-period run at
        0.97 T* and 1.03 T*}: the simulation's verdict on stability.
    """

    T: np.ndarray
    radius: dict
    limits: dict
    final_error: dict


#: Sample periods of :func:`stability_scan`, s.
SCAN_T = tuple(round(0.1 * k, 1) for k in range(1, 23))


@lru_cache(maxsize=1)
def stability_scan(T_grid=SCAN_T):
    """max |z_i(T)| on a grid, the limits T* and runs just below and above them."""
    A, B, C, D = _seed_plant()
    num, den = analog_pid(*PI_GAINS)
    radius, limits, final = {}, {}, {}
    for method in ("tustin", "matched"):
        radius[method] = np.array([discrete_closed_loop(A, B, C, D, DigitalController.from_analog(num, den, T, method))
                                   .spectral_radius for T in T_grid])
        limits[method] = stability_limit(A, B, C, D, num, den, method)
        for side, factor in (("below", 0.97), ("above", 1.03)):
            T = factor * limits[method].T
            run = simulate_sampled(A, B, C, D, DigitalController.from_analog(num, den, T, method), 60 * T,
                                   r=REFERENCE, N=1)
            final[(method, side)] = float(np.max(np.abs(run.e_k[-20:])))
    return StabilityScan(np.array(T_grid), radius, limits, final)


@dataclass(frozen=True)
class MultirateRow:
    """The plant integrated by RK4 with N steps per sample period, against the exact values.

    Attributes
    ----------
    N : int
        Plant steps per sample period.
    h : float
        Plant step T/N, s.
    evaluations_per_sample : int
        4 N evaluations of the plant's f per controller period.
    error : float
        max_k |y_k(RK4) - y_k(exact)| at the sampling instants.
    """

    N: int
    h: float
    evaluations_per_sample: int
    error: float


def multirate_study(T=0.5, Ns=(1, 2, 4, 8), t_end=20.0):
    """Multirate runs (controller at T, plant by RK4 at h = T/N) against the discrete closed loop."""
    A, B, C, D = _seed_plant()
    controller = DigitalController.from_analog(*analog_pid(*PI_GAINS), T, "tustin")
    exact = discrete_closed_loop(A, B, C, D, controller).response(t_end, r=REFERENCE).y
    rows = []
    for N in Ns:
        run = simulate_sampled(A, B, C, D, controller, t_end, r=REFERENCE, N=N, plant_method="rk4")
        rows.append(MultirateRow(N, T / N, 4 * N, float(np.max(np.abs(run.y_k - exact)))))
    return tuple(rows)


# =============================================================================================
# Discussion: the methods side by side
# =============================================================================================


@dataclass(frozen=True)
class MethodSummaryRow:
    """One method, as the seed's criteria judge it (精度, 速度, 稳定性, 自启动, 步长).

    Attributes
    ----------
    title : str
    order : int
    evaluations : int
        Evaluations of f per step.
    self_starting : bool
        Needs nothing but x_n (自启动).
    real_time : bool
        Uses only input samples that exist when each evaluation starts, at a fixed cost.
    z_min : float
        Left end of the real stability interval.
    """

    title: str
    order: int
    evaluations: int
    self_starting: bool
    real_time: bool
    z_min: float


def method_summary():
    """RK4, RTRK2, RTRK3, AB2, AB4 and ABM4 side by side."""
    rows = []
    for method in ("rk4", "rtrk2", "rtrk3", "ab2", "ab4", "abm4"):
        if method in MULTISTEP_METHODS:
            scheme = MULTISTEP_METHODS[method]
            z_min = float(_ab_left_end(scheme.order)) if scheme.corrector is None else _z_min(method)
            # ABM needs f at the predicted x_{n+1}, at t_n + h: not real-time compatible
            rows.append(MethodSummaryRow(scheme.title, scheme.order, scheme.evaluations, False,
                                         scheme.corrector is None, z_min))
        else:
            scheme = REAL_TIME_METHODS[method]
            rows.append(MethodSummaryRow(scheme.title, scheme.order, scheme.evaluations, True,
                                         scheme.real_time_compatible, _z_min(method)))
    return tuple(rows)
