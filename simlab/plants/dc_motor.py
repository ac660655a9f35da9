"""The double-loop DC motor speed drive (转速电流双闭环直流调速系统), seed 003's case study.

Dynamic structure (thyristor converter, separately excited DC motor, two PI regulators)::

    U*n -> [1/(Ton s+1)] -(+)-> ASR -> sat(U*im) -> [1/(Toi s+1)] -(+)-> ACR -> sat(Ucm)
                          -|                                       -|
               [alpha/(Ton s+1)] <- n           [beta/(Toi s+1)] <- Id
    -> [Ks/(Ts s+1)] = Ud0 -(+)-> [(1/R)/(Tl s+1)] = Id -(+)-> [R/(Ce Tm s)] = n
                            -| Ce n                      -| IdL (load current)

The regulators are designed by the engineering design method (工程设计方法): the current loop as
a type-I system with K_I T_sum_i = 0.5, the speed loop as a type-II system with the mid-frequency
width h = 5 (see :func:`design_regulators`).

Parameters: :class:`DriveParameters`, the textbook example of Chen Boshi, *Electric Drive
Automatic Control Systems* (电力拖动自动控制系统, 3rd ed., China Machine Press, 2003, the worked
design example of the double-loop drive in chapter 2), as given in the project issue; the book
itself was not available in this workplace to check each figure against, so the values are
cross-checked here by the design quantities they must reproduce (T_sum_i = 0.0037 s,
K_I = 135.1 1/s, K_i = 1.013, K_N = 396.4 1/s^2, K_n = 11.7, sigma_n = 8.31 %), which are the
book's well-known results. U_cm is not given by the seed or the issue: the usual +-10 V range of
the regulators' operational amplifiers is taken (estimated).

Used in lab07 (the DC motor case study).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

import numpy as np

from simlab.integrators import rk4, time_grid
from simlab.plants.dc_motor_kernels import (
    ANTI_WINDUP_CODES,
    drive_constants,
    drive_rates,
    regulator_outputs,
    run_drive_rk4,
)
from simlab.results import Result
from simlab.validation import as_bounded_scalar, as_choice, as_finite_scalar, as_flag, as_positive_scalar, describe

__all__ = [
    "DriveParameters",
    "DesignCheck",
    "RegulatorDesign",
    "design_regulators",
    "DisturbancePeak",
    "type2_disturbance_peak",
    "type2_step_overshoot",
    "predicted_speed_overshoot",
    "DriveResult",
    "simulate_drive",
    "linear_closed_loop",
    "structure_graph",
    "ANTI_WINDUP",
]

#: Treatments of the PI integrators while the regulator output is limited:
#: "none" (the integral grows without bound, a naive digital regulator), "analog" (the integral is
#: limited to the output range, as the capacitor voltage of an op-amp PI regulator is; the
#: textbook's assumption), "clamping" (conditional integration: frozen while the limit is active
#: and the error drives further out), "back-calculation" (the excess u - v feeds back into the
#: integrator with the tracking time constant tau).
ANTI_WINDUP = ("none", "analog", "clamping", "back-calculation")


@dataclass(frozen=True)
class DriveParameters:
    """Parameters of the double-loop drive, with units (defaults: the textbook example).

    Raises TypeError or ValueError (naming the field) for a field that is not a finite number > 0.
    """

    UN: float = 220.0  #: rated armature voltage (V)
    IN: float = 136.0  #: rated armature current (A)
    nN: float = 1460.0  #: rated speed (r/min)
    Ce: float = 0.132  #: EMF constant (V min/r)
    Ks: float = 40.0  #: gain of the thyristor converter (V/V)
    R: float = 0.5  #: armature circuit resistance (ohm)
    Tl: float = 0.03  #: electromagnetic time constant of the armature circuit (s)
    Tm: float = 0.18  #: electromechanical time constant (s)
    Ts: float = 0.0017  #: mean dead time of the three-phase bridge converter (s)
    beta: float = 0.05  #: current feedback coefficient (V/A)
    alpha: float = 0.007  #: speed feedback coefficient (V min/r)
    Toi: float = 0.002  #: current feedback (and reference) filter time constant (s)
    Ton: float = 0.01  #: speed feedback (and reference) filter time constant (s)
    overload: float = 1.5  #: permitted overload factor lambda = I_dm / I_N
    Ucm: float = 10.0  #: output limit of the current regulator ACR (V), estimated: +-10 V op-amp range

    def __post_init__(self):
        for field in fields(self):
            as_positive_scalar(getattr(self, field.name), field.name)

    @property
    def Idm(self):
        """Current limit I_dm = lambda I_N (A)."""
        return self.overload * self.IN

    @property
    def Uim(self):
        """Output limit of the speed regulator ASR, U*_im = beta I_dm (V)."""
        return self.beta * self.Idm

    @property
    def delta_nN(self):
        """Rated speed drop of the open loop, Delta n_N = I_N R / Ce (r/min)."""
        return self.IN * self.R / self.Ce


@dataclass(frozen=True)
class DesignCheck:
    """One condition under which an approximation of the engineering design method holds.

    The condition reads ``value <= limit``; both are frequencies (1/s, rad/s).

    Attributes
    ----------
    condition : str
        The approximation and its condition, for example
        ``"current loop: w_ci <= 1/(3 Ts) (converter as a first-order lag)"``.
    value : float
        Left-hand side of the condition (1/s).
    limit : float
        Right-hand side of the condition (1/s).
    satisfied : bool
        Whether ``value <= limit``.
    """

    condition: str
    value: float
    limit: float
    satisfied: bool


@dataclass(frozen=True)
class RegulatorDesign:
    """Result of :func:`design_regulators`: the PI regulators K (tau s + 1)/(tau s) and the checks."""

    T_sum_i: float  #: small time constants of the current loop, Ts + Toi (s)
    KI: float  #: open-loop gain of the current loop, 0.5 / T_sum_i (1/s)
    tau_i: float  #: ACR lead time constant, = Tl (s)
    Ki: float  #: ACR gain, KI tau_i R / (Ks beta)
    T_sum_n: float  #: small time constants of the speed loop, 1/KI + Ton (s)
    h: float  #: mid-frequency width of the type-II speed loop
    tau_n: float  #: ASR lead time constant, h T_sum_n (s)
    KN: float  #: open-loop gain of the speed loop, (h + 1)/(2 h^2 T_sum_n^2) (1/s^2)
    Kn: float  #: ASR gain, (h + 1) beta Ce Tm / (2 h alpha R T_sum_n)
    checks: tuple  #: tuple of DesignCheck, the conditions of the approximations used

    def report(self):
        """The design as the textbook derivation prints it."""
        lines = [
            "current loop (type I, K_I T_sum_i = 0.5):",
            f"  T_sum_i = Ts + Toi          = {self.T_sum_i:.4f} s",
            f"  K_I     = 0.5 / T_sum_i     = {self.KI:.1f} 1/s",
            f"  tau_i   = Tl                = {self.tau_i:.3f} s",
            f"  K_i     = K_I tau_i R/(Ks beta) = {self.Ki:.3f}",
            f"speed loop (type II, h = {self.h:g}):",
            f"  T_sum_n = 1/K_I + Ton       = {self.T_sum_n:.4f} s",
            f"  tau_n   = h T_sum_n         = {self.tau_n:.4f} s",
            f"  K_N     = (h+1)/(2 h^2 T_sum_n^2) = {self.KN:.1f} 1/s^2",
            f"  K_n     = (h+1) beta Ce Tm/(2 h alpha R T_sum_n) = {self.Kn:.2f}",
            "checks of the approximations:",
        ]
        for check in self.checks:
            lines.append(f"  {check.condition}: {check.value:.1f} <= {check.limit:.1f}  "
                         f"{'ok' if check.satisfied else 'VIOLATED'}")
        return "\n".join(lines)


def _parameters(p):
    """``p`` checked as DriveParameters; the textbook example when None."""
    if p is None:
        return DriveParameters()
    if not isinstance(p, DriveParameters):
        raise TypeError(f"p must be DriveParameters, got {describe(p)}.")
    return p


def _design(design, p):
    """``design`` checked as a RegulatorDesign; the engineering design for ``p`` when None."""
    if design is None:
        return design_regulators(p)
    if not isinstance(design, RegulatorDesign):
        raise TypeError(f"design must be a RegulatorDesign (from design_regulators), got {describe(design)}.")
    return design


def design_regulators(p=None, h=5.0):
    """Design ACR and ASR by the engineering design method (工程设计方法).

    Current loop, type I: the small lags Ts and Toi are merged, T_sum_i = Ts + Toi; the ACR zero
    cancels the armature lag, tau_i = Tl; K_I T_sum_i = 0.5 (overshoot 4.3 %) gives
    K_I = 0.5/T_sum_i and K_i = K_I tau_i R / (Ks beta).

    Speed loop, type II: the closed current loop is approximated by 1/(beta (s/K_I + 1)) and
    merged with the speed filter, T_sum_n = 1/K_I + Ton; with the mid-frequency width h,
    tau_n = h T_sum_n, K_N = (h + 1)/(2 h^2 T_sum_n^2) and K_n = (h + 1) beta Ce Tm/(2 h alpha R T_sum_n).

    Parameters
    ----------
    p : DriveParameters, optional
    h : float
        Mid-frequency width (中频宽) of the speed loop, h > 1 (default 5).

    Returns
    -------
    RegulatorDesign
        Its ``checks`` are the conditions of the approximations (:class:`DesignCheck` rows).

    Raises
    ------
    TypeError
        If ``p`` is not DriveParameters.
    ValueError
        If ``h <= 1``.

    Examples
    --------
    >>> from simlab.plants.dc_motor import design_regulators
    >>> d = design_regulators()
    >>> round(d.KI, 1), round(d.Ki, 3), round(d.KN, 1), round(d.Kn, 1)
    (135.1, 1.014, 396.4, 11.7)
    """
    p = _parameters(p)
    h = _check_h(h)
    T_sum_i = p.Ts + p.Toi
    KI = 0.5 / T_sum_i
    tau_i = p.Tl
    Ki = KI * tau_i * p.R / (p.Ks * p.beta)
    T_sum_n = 1.0 / KI + p.Ton
    tau_n = h * T_sum_n
    KN = (h + 1) / (2 * h**2 * T_sum_n**2)
    Kn = (h + 1) * p.beta * p.Ce * p.Tm / (2 * h * p.alpha * p.R * T_sum_n)
    w_ci, w_cn = KI, KN * tau_n  # crossover frequencies of the two loops
    checks = (
        ("current loop: w_ci <= 1/(3 Ts) (converter as a first-order lag)", w_ci, 1 / (3 * p.Ts)),
        ("current loop: w_ci >= 3 sqrt(1/(Tm Tl)) (back-EMF neglected)", 3 * np.sqrt(1 / (p.Tm * p.Tl)), w_ci),
        ("current loop: w_ci <= (1/3) sqrt(1/(Ts Toi)) (small lags merged)", w_ci, np.sqrt(1 / (p.Ts * p.Toi)) / 3),
        ("speed loop: w_cn <= (1/5) sqrt(K_I/T_sum_i) (current loop as first order)", w_cn, np.sqrt(KI / T_sum_i) / 5),
        ("speed loop: w_cn <= (1/3) sqrt(K_I/Ton) (small lags merged)", w_cn, np.sqrt(KI / p.Ton) / 3),
    )
    checks = tuple(DesignCheck(c, float(v), float(lim), bool(v <= lim)) for c, v, lim in checks)
    return RegulatorDesign(T_sum_i, KI, tau_i, Ki, T_sum_n, h, tau_n, KN, Kn, checks)


def _check_h(h):
    """The mid-frequency width h of a type-II loop, checked: a finite number h > 1.

    The closed loop of K (h T s + 1)/(s^2 (T s + 1)), K T^2 = (h + 1)/(2 h^2), has the polynomial
    T^3 s^3 + T^2 s^2 + K h T s + K: by Routh stable if and only if h > 1 (undamped at h = 1).
    """
    h = as_finite_scalar(h, "h")
    if h <= 1:
        raise ValueError(f"h must be > 1 (the mid-frequency width), got {h!r}: the type-II loop is stable "
                         f"only for h > 1 (Routh), and h = 1 leaves it oscillating undamped.")
    return h


def _type2_den(h):
    K = (h + 1) / (2 * h**2)  # K T^2 with T = 1
    return K, np.array([1.0, 1.0, K * h, K])


@dataclass(frozen=True)
class DisturbancePeak(Result):
    """Result of :func:`type2_disturbance_peak`; unpacks as ``ratio, t_peak``.

    Attributes
    ----------
    ratio : float
        Peak of the output change referred to the base value, Delta C_max / C_b (dimensionless;
        0.812 for h = 5).
    t_peak : float
        Time of the peak, t_m / T (in units of the small time constant T).
    """

    unpacks_as = ("ratio", "t_peak")

    ratio: float
    t_peak: float


def type2_disturbance_peak(h=5.0):
    """Delta C_max / C_b of the type-II system for a step disturbance before the integrator.

    With T = 1 the speed change is Delta C(s) = (s + 1)/(s^3 + s^2 + K h s + K), K = (h+1)/(2 h^2),
    and the base value C_b = 2 F K2 T = 2: the textbook table gives 81.2 % for h = 5 (computed here,
    by discrete similarity, not looked up). Used in lab07 (Task 5) and lecture 06. The valid range
    is h > 1, where the loop is stable; TypeError or ValueError otherwise.

    Returns
    -------
    DisturbancePeak
        ``ratio`` (Delta C_max / C_b) and ``t_peak`` (t_m / T); unpacks as ``ratio, t_peak``.

    Examples
    --------
    >>> from simlab.plants.dc_motor import type2_disturbance_peak
    >>> peak = type2_disturbance_peak(5)
    >>> round(100 * peak.ratio, 1), round(peak.t_peak, 2)
    (81.2, 2.86)
    """
    return _type2_disturbance_peak(_check_h(h))


@functools.lru_cache(maxsize=32)
def _type2_disturbance_peak(h):
    """:func:`type2_disturbance_peak` for a checked h, computed once per h (each caller's 60001 samples)."""
    from simlab.lti import tf2ss
    from simlab.similarity import lsim

    _, den = _type2_den(h)
    t = np.linspace(0.0, 60.0, 60001)
    A, B, C, D = tf2ss([1.0, 1.0], den)
    # impulse response = free response from x0 = B
    y = lsim(A, B, C, D, np.zeros_like(t), t, x0=B[:, 0]).y
    k = int(np.argmax(y))
    return DisturbancePeak(ratio=float(y[k] / 2.0), t_peak=float(t[k]))


def type2_step_overshoot(h=5.0):
    """Percent overshoot of the linear type-II loop K (h T s + 1)/(s^2 (T s + 1)) for a step (37.6 % at h = 5).

    The valid range is h > 1, where the closed loop is stable (Routh; at h = 1 it oscillates
    undamped, below it diverges). Raises TypeError or ValueError unless h is a finite number > 1.
    """
    return _type2_step_overshoot(_check_h(h))


@functools.lru_cache(maxsize=32)
def _type2_step_overshoot(h):
    """:func:`type2_step_overshoot` for a checked h, computed once per h."""
    from simlab.lti import tf2ss
    from simlab.similarity import lsim

    K, den = _type2_den(h)
    t = np.linspace(0.0, 60.0, 60001)
    A, B, C, D = tf2ss([K * h, K], den)
    y = lsim(A, B, C, D, np.ones_like(t), t).y
    return float(100.0 * (np.max(y) - 1.0))


def predicted_speed_overshoot(p=None, design=None, z=0.0, n_ref=None):
    """Overshoot on leaving saturation (退饱和超调), percent of n*:

    sigma_n = (Delta C_max / C_b) * 2 (lambda - z) (Delta n_N / n*) (T_sum_n / Tm),

    with z = I_dL / I_N the load factor, 0 <= z < lambda (at z >= lambda the drive cannot
    accelerate). 8.31 % for the textbook example at no load. Raises TypeError if ``p`` or
    ``design`` has the wrong type, TypeError or ValueError for z outside [0, lambda) or n_ref <= 0.
    """
    p = _parameters(p)
    design = _design(design, p)
    z = as_bounded_scalar(z, "z", 0.0, p.overload, open_high=True,
                          why=f" (the load factor I_dL / I_N, below the overload factor lambda = {p.overload:g})")
    n_ref = p.nN if n_ref is None else as_positive_scalar(n_ref, "n_ref")
    ratio = type2_disturbance_peak(design.h).ratio
    return 100.0 * ratio * 2 * (p.overload - z) * p.delta_nN / n_ref * design.T_sum_n / p.Tm


@dataclass(frozen=True)
class DriveResult(Result):
    """Result of :func:`simulate_drive`: time along the first axis; unpacks as ``t, n``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time (s).
    n : ndarray, shape (N + 1,)
        Speed (r/min).
    Id : ndarray, shape (N + 1,)
        Armature current (A).
    Ui_ref : ndarray, shape (N + 1,)
        ASR output, the current reference U*_i (V), limited at U*_im.
    Uc : ndarray, shape (N + 1,)
        ACR output, the converter control voltage (V), limited at Ucm.
    Ud0 : ndarray, shape (N + 1,)
        Converter output voltage (V).
    states : ndarray, shape (N + 1, 9)
        All nine states, in the order of :func:`simulate_drive` (V, but Id in A and n in r/min).
    """

    unpacks_as = ("t", "n")

    t: np.ndarray
    n: np.ndarray
    Id: np.ndarray
    Ui_ref: np.ndarray
    Uc: np.ndarray
    Ud0: np.ndarray
    states: np.ndarray



def _as_function_of_t(value, name):
    """A number or a function of t, as a function of t (a number is checked as finite)."""
    if callable(value):
        return value
    constant = as_finite_scalar(value, name)
    return lambda t: constant


def simulate_drive(p=None, design=None, t_end=1.0, h=5e-5, n_ref=None, load=0.0, grid=0.0,
                   anti_windup="analog", asr_limit=True, acr_limit=True):
    """Simulate the drive as a plain ODE with RK4.

    States: filtered speed reference and feedback (V), ASR integral (V), filtered current
    reference and feedback (V), ACR integral (V), converter output Ud0 (V), Id (A), n (r/min);
    equations and loop are the kernels of :mod:`simlab.plants.dc_motor_kernels` (compiled where
    numba is installed), with the results of :func:`simlab.rk4` on the same equations to the
    last bit. A run that grows unstably or becomes inf or NaN, or a signal that returns no real
    numbers, is handed to :func:`simlab.rk4` itself, which raises what it raises for such runs.

    Parameters
    ----------
    p, design : DriveParameters, RegulatorDesign, optional
    t_end, h : float
        Span [0, t_end] and RK4 step (s); h must resolve Ts (default 50 us).
    n_ref : float or callable, optional
        Speed reference n* (r/min), or a function of t; default a step to nN at t = 0.
    load : float or callable
        Load current I_dL (A) or a function of t.
    grid : float or callable
        Disturbance Delta U_d (V) added to the converter output (grid voltage), or a function of t.
    anti_windup : {"none", "analog", "clamping", "back-calculation"}
        Treatment of the PI integrators while the output is limited (see :data:`ANTI_WINDUP`);
        "analog" is the op-amp regulator the engineering design method assumes.
    asr_limit, acr_limit : bool
        Whether the ASR output is limited at U*_im and the ACR output at Ucm.

    Returns
    -------
    DriveResult
        Unpacks as ``t, n``; time series of shape (N + 1,), N = t_end / h.

    Raises
    ------
    TypeError
        If ``p`` or ``design`` has the wrong type, a signal is neither a number nor a function,
        or ``asr_limit``, ``acr_limit`` is not a bool.
    ValueError
        If ``anti_windup`` is not one of :data:`ANTI_WINDUP`, ``t_end`` or ``h`` is not positive,
        or ``h`` does not divide the span (checked by :func:`simlab.integrators.time_grid`).
    simlab.integrators.NonFiniteStateError
        If h is beyond the RK4 stability limit of the drive (the loop linearized with each
        regulator linear or at its limit; 3.59 ms for the textbook example): the run would blow
        up. The message gives the limit.
    """
    from simlab.integrators import NonFiniteStateError

    p = _parameters(p)
    design = _design(design, p)
    as_choice(anti_windup, "anti_windup", ANTI_WINDUP)
    t_end, h = as_positive_scalar(t_end, "t_end"), as_positive_scalar(h, "h")
    Uim = p.Uim if as_flag(asr_limit, "asr_limit") else None
    Ucm = p.Ucm if as_flag(acr_limit, "acr_limit") else None
    signals = [value if callable(value) else as_finite_scalar(value, name)
               for value, name in ((p.nN if n_ref is None else n_ref, "n_ref"), (load, "load"), (grid, "grid"))]
    h_limit = _rk4_step_limit(p, design)
    if h > h_limit:
        raise NonFiniteStateError(
            f"simulate_drive: h = {h:g} s is beyond the RK4 stability limit of the drive, h <= {h_limit:.3g} s "
            f"(the loop linearized with each regulator linear or at its limit): the run would blow up. Take "
            f"a smaller h; the default 5e-05 s resolves Ts = {p.Ts:g} s.", method="rk4", h=h)
    t, h = time_grid((0.0, t_end), h)
    plant, regulators = drive_constants(p, design, Uim, Ucm)
    run = run_drive_rk4(t, h, signals, plant, regulators, ANTI_WINDUP_CODES[anti_windup])
    if run is None:  # the reference path: simlab.rk4 on the same equations, with its guards
        f = _drive_rhs(p, design, *(_as_function_of_t(signal, name) for signal, name in
                                    zip(signals, ("n_ref", "load", "grid"))), anti_windup, Uim, Ucm)
        x = rk4(f, (0.0, t_end), np.zeros(9), h).x
        Ui, Uc = np.array([regulator_outputs(state, regulators) for state in x]).T
    else:
        x, Ui, Uc = run
    return DriveResult(t=t, n=x[:, 8], Id=x[:, 7], Ui_ref=Ui, Uc=Uc, Ud0=x[:, 6], states=x)


def _drive_rhs(p, design, n_star, load_of_t, grid_of_t, anti_windup, Uim, Ucm):
    """f(t, x) of the drive's nine state equations (:func:`drive_rates`); a limit None is off.

    The right-hand side for :func:`simlab.rk4`: the reference path of :func:`simulate_drive`,
    and the Jacobian of :func:`_rk4_step_limit`.
    """
    plant, regulators = drive_constants(p, design, Uim, Ucm)
    mode = ANTI_WINDUP_CODES[anti_windup]

    def f(t, x):
        return drive_rates(x, n_star(t), load_of_t(t), grid_of_t(t), plant, regulators, mode)[0]

    return f


@functools.lru_cache(maxsize=64)
def _rk4_step_limit(p, design):
    """RK4 stability limit of h (s): the drive linearized with each regulator linear or at its limit.

    In each regime f is linear (a limit at 0 holds the output constant), so f(e_j) - f(0) is the
    column j of the Jacobian; the integrators' zero eigenvalues limit nothing and are dropped.
    Cached: the parameters and the design are frozen.
    """
    from simlab.stability import max_stable_step

    zero = lambda t: 0.0  # noqa: E731 - no inputs: only the Jacobian counts
    limits = []
    for Uim, Ucm in ((None, None), (0.0, None), (None, 0.0), (0.0, 0.0)):
        f = _drive_rhs(p, design, zero, zero, zero, "none", Uim, Ucm)
        A = np.column_stack([f(0.0, e) - f(0.0, np.zeros(9)) for e in np.eye(9)])
        lambdas = np.linalg.eigvals(A)
        lambdas = lambdas[lambdas.real < -1e-9 * np.max(np.abs(lambdas))]
        limits.append(max_stable_step(lambdas, "rk4") if lambdas.size else np.inf)
    return min(limits)


def structure_graph(p=None, design=None):
    """The drive as a structure graph (P, W, W0, Wc) of nine typical elements.

    Elements: 1 reference filter, 2 speed feedback filter alpha/(Ton s+1), 3 ASR, 4 current
    reference filter, 5 current feedback filter beta/(Toi s+1), 6 ACR, 7 converter, 8 armature,
    9 mechanics. Inputs: r = [U*n (V), I_dL (A), Delta U_d (V)]. Output: n (element 9); the
    current is element 8. Saturation of the regulators goes on the outputs of elements 3 and 6
    (seed flag FZ = 5) in :func:`simlab.elementwise.simulate_elements`.

    Returns
    -------
    P : ndarray, shape (9, 4)
    W : ndarray, shape (9, 9)
    W0 : ndarray, shape (9, 3)
    Wc : ndarray, shape (2, 9)
        Rows: speed n, current Id.

    Raises TypeError if ``p`` is not DriveParameters or ``design`` not a RegulatorDesign.
    """
    p = _parameters(p)
    d = _design(design, p)
    P = np.array([
        [1.0, p.Ton, 1.0, 0.0],  # 1: 1/(Ton s + 1)
        [1.0, p.Ton, p.alpha, 0.0],  # 2: alpha/(Ton s + 1)
        [0.0, d.tau_n, d.Kn, d.Kn * d.tau_n],  # 3: ASR Kn (tau_n s + 1)/(tau_n s)
        [1.0, p.Toi, 1.0, 0.0],  # 4: 1/(Toi s + 1)
        [1.0, p.Toi, p.beta, 0.0],  # 5: beta/(Toi s + 1)
        [0.0, d.tau_i, d.Ki, d.Ki * d.tau_i],  # 6: ACR Ki (tau_i s + 1)/(tau_i s)
        [1.0, p.Ts, p.Ks, 0.0],  # 7: converter Ks/(Ts s + 1)
        [1.0, p.Tl, 1.0 / p.R, 0.0],  # 8: armature (1/R)/(Tl s + 1)
        [0.0, p.Ce * p.Tm, p.R, 0.0],  # 9: mechanics R/(Ce Tm s)
    ])
    W = np.zeros((9, 9))
    W[1, 8] = 1.0  # u2 = n
    W[2, 0], W[2, 1] = 1.0, -1.0  # u3 = filtered reference - filtered feedback
    W[3, 2] = 1.0  # u4 = U*i
    W[4, 7] = 1.0  # u5 = Id
    W[5, 3], W[5, 4] = 1.0, -1.0  # u6 = current reference - current feedback
    W[6, 5] = 1.0  # u7 = Uc
    W[7, 6], W[7, 8] = 1.0, -p.Ce  # u8 = Ud0 - Ce n (+ Delta U_d)
    W[8, 7] = 1.0  # u9 = Id (- I_dL)
    W0 = np.zeros((9, 3))
    W0[0, 0] = 1.0  # U*n
    W0[8, 1] = -1.0  # - I_dL
    W0[7, 2] = 1.0  # + Delta U_d
    Wc = np.zeros((2, 9))
    Wc[0, 8] = 1.0
    Wc[1, 7] = 1.0
    return P, W, W0, Wc


def linear_closed_loop(p=None, design=None):
    """Closed loop from n* to n without limits, as (num, den), built with simlab.lti connections.

    The current loop: ACR, converter, armature with the back-EMF loop through the mechanics,
    current feedback; the speed loop around it. The connections cancel nothing (as in MATLAB),
    so the result of order 10 keeps three common pole-zero pairs: at s = 0 (the integrators) and
    at the filter poles -1/Ton and -1/Toi, which appear both in the loops and in the reference
    filters. num(0) = den(0) = 0 therefore; apply :func:`simlab.lti.minreal` (order 7) before
    reading the DC gain. Used to check the simulations against an independent model. Raises
    TypeError if ``p`` is not DriveParameters or ``design`` not a RegulatorDesign.
    """
    from simlab.lti import feedback, series

    p = _parameters(p)
    d = _design(design, p)
    acr = ([d.Ki * d.tau_i, d.Ki], [d.tau_i, 0.0])
    asr = ([d.Kn * d.tau_n, d.Kn], [d.tau_n, 0.0])
    converter = ([p.Ks], [p.Ts, 1.0])
    armature = ([1.0 / p.R], [p.Tl, 1.0])
    mechanics = ([p.R], [p.Ce * p.Tm, 0.0])
    # Id / Ud0 with the back-EMF loop: armature / (1 + armature * mechanics * Ce)
    current_plant = feedback(*armature, *series(*mechanics, [p.Ce], [1.0]))
    inner_forward = series(*series(*acr, *converter), *current_plant)
    current_loop = feedback(*inner_forward, [p.beta], [p.Toi, 1.0])  # Id / (filtered U*i)
    current_loop = series([1.0], [p.Toi, 1.0], *current_loop)  # reference filter
    speed_forward = series(*series(*asr, *current_loop), *mechanics)  # n / e_n
    closed = feedback(*speed_forward, [p.alpha], [p.Ton, 1.0])
    return series([p.alpha], [p.Ton, 1.0], *closed)  # reference filter on U*n = alpha n*
