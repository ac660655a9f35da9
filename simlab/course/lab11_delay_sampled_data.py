"""Lab 11: pure delay (纯延迟环节) and sampled-data control systems (采样控制系统), seed 003, 3.4 and 3.5.

Experiments:

1. The first-order-plus-dead-time plant (一阶惯性加纯延迟) G(s) = K e^{-tau s}/(T1 s + 1): its step
   response exactly by ``simlab.lsim(..., input_delay=tau)`` (a step is a held input, so the
   delayed recurrence is exact at any tau, also a fraction of the grid step), against Padé
   approximants of orders 1-4 (帕德近似), which respond before tau: the wrong initial slope
   (-1)^n K/T1, an undershoot (反向响应) for odd orders, ringing about zero before tau.
2. The FOPDT loop under a PI controller whose zero cancels the plant pole (T_i = T1), so that
   the loop gain is L(s) = k e^{-tau s}/s with k = K K_p / T_i. Exactly: 1/(1 + L) expanded in
   powers of e^{-tau s} (the method of steps, 分段求解) gives y = sum_j (-1)^{j-1} L^j r, a finite
   sum of delayed step responses of (k/s)^j, each exact by the delayed lsim. With Padé in
   the loop: what the rational models get wrong at the start, and the delay margin (延迟裕度)
   pi/(2k) - tau against the limit each Padé order predicts.
3. The delay in a structure graph (面向结构图的仿真): the shift register (移位寄存器) of
   :class:`simlab.delay.DelayLine` with linear interpolation for a fractional delay, its
   interpolation error on a sine against the closed form, and the loop simulated per element.
4. A digital PI controller (数字控制器) of the seed's loop G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) with
   C(s) = 10 + 4/s, step r = 5, at several sample periods T (采样周期): Tustin (双线性变换) and
   matched pole-zero (零极点匹配法) designs, the multirate simulation (plant at h = T/N), the
   inter-sample ripple (纹波), the stability limit in T by simulation and by the poles in z.
5. Beyond the seed: the zero-order hold as a delay of about T/2: the phase margin of the
   sampled loop against PM - omega_c T/2, and where that rule fails.

The experiments are cached (:func:`simlab.course.memo.cached`: computed once per argument set, their
arrays read-only), since the notebook, the self-checks and the figures ask for the same ones.
The notebook's tasks (A1 .. D3) are listed in :data:`TASKS`; their checks follow the notebook's
parameters, declared once in :data:`PARAMETERS` (the parameter contract): the plant's gain ``K``
and time constant ``T1``, the dead time ``tau``, the grid step ``h`` and the reference step ``r``
of Parts A-C, the sample period ``T`` of Part D and the sample periods ``T_values`` of the table
of Part E. The PI controller of Parts B and C follows the plant model (``K``, ``T1``) by the SIMC
rule tuned for the design dead time 0.5 s (:func:`pi_gains`); the seed's loop of Parts D-F is
fixed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

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
from simlab.course.memo import cached
from simlab.course.parameters import Parameter, Parameters, between, divides, each, increasing, positive
from simlab.delay import DelayLine, split_delay
from simlab.delay_approximation import compare_pade
from simlab.digital import DigitalController, analog_pid, c2d, digital_pid
from simlab.elementwise import simulate_elements
from simlab.lti import feedback, pade, series, tf2ss
from simlab.plotting import line_style, subplots
from simlab.sampled_data import (
    discrete_closed_loop,
    intersample_ripple,
    simulate_sampled,
    stability_limit,
)
from simlab.similarity import lsim

__all__ = [
    "K", "T1", "TAU", "H", "T_END", "TAU_DESIGN", "LAMBDA", "KP", "TI", "R", "PADE_ORDERS", "GRAPH_STEPS",
    "SEED_NUM", "SEED_DEN", "SEED_R", "SEED_KP", "SEED_KI", "T", "T_VALUES", "T_END_DIGITAL", "H_PLANT", "T_SCAN",
    "PM_STEPS",
    "PadeRow", "PadeStudy", "DelayMargin", "DelayLimitRow", "DelayLimitRun", "InterpolationRow",
    "GraphErrorRow", "SampledRow", "ScanRow", "PhaseMarginRow", "Lab11Results",
    "fopdt_plant", "time_grid", "fopdt_step", "fopdt_step_closed_form", "pade_plant_study", "pi_gains", "loop_gain",
    "loop_exact", "loop_closed_form", "pade_loop", "pade_loop_study", "delay_margin", "pade_delay_limit",
    "delay_limit_runs", "shift_register_reference", "interpolation_errors", "structure_graph",
    "graph_response", "graph_errors", "seed_plant", "seed_pi", "analog_overshoot", "plant_steps",
    "sampled_run", "sampled_rows", "grows", "stability_scan", "stability_limits", "analog_margins",
    "digital_phase_margin", "phase_margin_rows",
    "check_step", "check_pade1", "check_loop", "check_margin", "check_shift_register", "check_graph",
    "check_tustin", "check_scan", "check_limits",
    "PARAMETERS", "use_parameters", "TASKS", "MISTAKES", "check", "take", "results", "run",
    "plot_pade_plant", "plot_loop", "plot_near_limit", "plot_graph_errors", "plot_sampled", "plot_phase_margins",
]

#: The FOPDT plant K e^{-tau s}/(T1 s + 1): gain K, time constant T1 (s), dead time tau (s).
K = 2.0
T1 = 1.5
TAU = 0.5
#: Grid step of Parts A-C (s): the notebook's ``h``; tau / h = 12.5 is not a whole number.
H = 0.04
#: Span of Parts A-C, 0 <= t <= T_END (s).
T_END = 10.0
#: The PI controller of the FOPDT loop, K_p (1 + 1/(T_i s)), follows the plant model (K, T1)
#: (:func:`pi_gains`): T_i = T1, so that its zero cancels the plant pole and the loop gain is
#: k e^{-tau s}/s, and the SIMC rule K_p = T1 / (K (lambda + tau_0)) for the design dead time
#: tau_0 = TAU_DESIGN = 0.5 s with the closed-loop time constant lambda = LAMBDA = 0.75 s
#: (1.5 tau_0, a little more cautious than SIMC's tight choice lambda = tau_0), so that
#: k = K K_p / T_i = 1/(lambda + tau_0) = 0.8 1/s for every K and T1: the gain crossover is
#: omega_c = k = 0.8 rad/s, not 1, so that a phase margin or a delay margin that forgets omega_c
#: is wrong by a visible factor. The plant's dead time tau may differ from the design value: the
#: controller stays tuned for 0.5 s (the delay margin says how much more dead time it tolerates).
TAU_DESIGN = 0.5
LAMBDA = 0.75
#: K_p and T_i for the lab's K and T1 (0.6 and 1.5 s).
KP = T1 / (K * (LAMBDA + TAU_DESIGN))
TI = T1
#: Step of the reference of Parts A-C.
R = 1.0
#: Padé orders compared with the exact delay.
PADE_ORDERS = (1, 2, 3, 4)
#: Steps h of the structure-graph table of Part C (s); with tau = 0.5, 0.04 is a fractional one.
GRAPH_STEPS = (0.1, 0.05, 0.04, 0.025, 0.02, 0.01)

#: The seed's plant 1/(s^3 + 4 s^2 + 8 s + 5), its step r = 5 and the PI C(s) = 10 + 4/s.
SEED_NUM = (1.0,)
SEED_DEN = (1.0, 4.0, 8.0, 5.0)
SEED_R = 5.0
SEED_KP = 10.0
SEED_KI = 4.0
#: Sample period of the digital loop of Part D (s): the notebook's ``T``.
T = 1.5
#: Sample periods of the Tustin-against-matched table of Part E (s): the notebook's ``T_values``.
T_VALUES = (0.1, 0.5, 1.0, 1.5, 1.9, 2.0)
#: Span of the digital-loop runs (s), and the plant step they aim at: N = max(2, round(T / H_PLANT)).
T_END_DIGITAL = 40.0
H_PLANT = 0.02
#: The sample periods of the stability scan by simulation (s), 1.5 .. 2.1 in steps of 0.05.
T_SCAN = tuple(round(1.5 + 0.05 * i, 2) for i in range(13))
#: Sample periods of the phase-margin table of Part F (s).
PM_STEPS = (0.05, 0.1, 0.2, 0.5, 1.0, 1.5)
#: Window (samples) of the growth test of the scan, and samples per run (4 windows).
SCAN_WINDOW = 20


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PadeRow:
    """One Padé order against the exact delay: how its step response (plant or loop) starts.

    Attributes
    ----------
    order : int
        The order n of the approximant P_n(s) of e^{-tau s}.
    initial_slope : float
        dy/dt at t = 0+ of the rational model, C B of its state-space form (unit of y per s);
        the exact delayed response has slope 0 until tau.
    undershoot : float
        -min y(t_k) over t_k < tau, clipped at 0 (unit of y): how far the model moves the
        wrong way before the delay has passed.
    max_error_before_tau : float
        max |y_n(t_k) - y(t_k)| over t_k < tau (unit of y); the exact y is 0 there.
    max_error : float
        max |y_n(t_k) - y(t_k)| over the grid (unit of y).
    first_crossing : float
        First time the error y_n - y changes sign (s), NaN if never.
    peak : float
        max y_n(t_k) (unit of y).
    """

    order: int
    initial_slope: float
    undershoot: float
    max_error_before_tau: float
    max_error: float
    first_crossing: float
    peak: float


@dataclass(frozen=True)
class PadeStudy:
    """Step responses with the exact delay and with Padé approximants on one grid.

    Attributes
    ----------
    tau : float
        The dead time (s).
    t : ndarray, shape (N + 1,)
        The grid (s).
    exact : ndarray, shape (N + 1,)
        The response with the exact delay (unit of y).
    responses : dict of int to ndarray, shape (N + 1,)
        The response with P_n in place of the delay, by order n.
    rows : tuple of PadeRow
        One per order, in the order of :data:`PADE_ORDERS`.
    """

    tau: float
    t: np.ndarray = field(repr=False)
    exact: np.ndarray = field(repr=False)
    responses: dict = field(repr=False)
    rows: tuple

    def order(self, n):
        """The :class:`PadeRow` of order n."""
        return next(row for row in self.rows if row.order == n)


@dataclass(frozen=True)
class DelayMargin:
    """Gain crossover, phase margin and delay margin of the FOPDT loop (:func:`delay_margin`).

    Attributes
    ----------
    omega_c : float
        Gain crossover frequency, |L(j omega_c)| = 1 (rad/s).
    phase_margin : float
        pi + arg L(j omega_c), with the delay's lag omega_c tau (rad).
    delay_margin : float
        phase_margin / omega_c (s): the extra dead time the loop tolerates.
    tau_limit : float
        tau + delay_margin (s): the dead time at which the loop becomes unstable.
    """

    omega_c: float
    phase_margin: float
    delay_margin: float
    tau_limit: float


@dataclass(frozen=True)
class DelayLimitRow:
    """The dead time at which the loop with the Padé approximant P_n becomes unstable.

    Attributes
    ----------
    order : int
        Padé order n.
    tau_limit : float
        The dead time (s) at which a closed-loop pole of the rational loop reaches Re s = 0.
    relative_error : float
        tau_limit / (pi / (2 k)) - 1, against the exact limit (dimensionless).
    """

    order: int
    tau_limit: float
    relative_error: float


@dataclass(frozen=True)
class DelayLimitRun:
    """The exact loop run at a dead time near its limit (:func:`delay_limit_runs`).

    Attributes
    ----------
    tau : float
        Dead time (s).
    t, y : ndarray, shape (M + 1,)
        Grid (s) and exact response (unit of y).
    early, late : float
        max |y - r| over 10 <= t < 20 s and over 20 <= t <= 30 s (unit of y): decaying when
        late < early.
    """

    tau: float
    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    early: float
    late: float


@dataclass(frozen=True)
class InterpolationRow:
    """Error of the shift register on u = sin(omega t) for one fractional delay (:func:`interpolation_errors`).

    Attributes
    ----------
    h : float
        Sample spacing (s).
    tau : float
        Delay d h + theta (s).
    alpha : float
        theta / h, the fraction of a step (dimensionless).
    measured : float
        max |y_n - sin(omega (t_n - tau))| over the samples once the register is full.
    amplitude : float
        The closed form of that error's amplitude, |e^{-j omega theta} - (1 - alpha) - alpha e^{-j omega h}|.
    bound : float
        theta (h - theta) omega^2 / 2, the bound of linear interpolation with max |u''| = omega^2.
    """

    h: float
    tau: float
    alpha: float
    measured: float
    amplitude: float
    bound: float


@dataclass(frozen=True)
class GraphErrorRow:
    """The loop simulated per element at one step h, against the exact response.

    Attributes
    ----------
    h : float
        Step (s).
    d : int
        Whole steps in tau.
    theta : float
        tau - d h (s): non-zero when the shift register interpolates.
    max_error : float
        max_k |y_k - y(t_k)| (unit of y).
    """

    h: float
    d: int
    theta: float
    max_error: float


@dataclass(frozen=True)
class SampledRow:
    """The seed's loop under a digital PI at one sample period (:func:`sampled_rows`).

    Attributes
    ----------
    T : float
        Sample period (s).
    method : str
        ``"tustin"`` or ``"matched"``: how the PI was discretized.
    N : int
        Plant steps per sample period (h = T / N).
    spectral_radius : float
        max |z_i| of the closed-loop poles (dimensionless).
    stable : bool
        spectral_radius < 1.
    peak_sampled : float
        max y_k (unit of y).
    peak : float
        max y(t) on the fine grid (unit of y).
    hidden : float
        peak / peak_sampled - 1: the part of the peak the samples do not show (dimensionless).
    """

    T: float
    method: str
    N: int
    spectral_radius: float
    stable: bool
    peak_sampled: float
    peak: float
    hidden: float


@dataclass(frozen=True)
class ScanRow:
    """One sample period of the stability scan by simulation (:func:`stability_scan`).

    Attributes
    ----------
    T : float
        Sample period (s).
    early, late : float
        max |e_k| over the second-last and the last window of SCAN_WINDOW samples (unit of y).
    stable : bool
        late < early: the error still decays.
    """

    T: float
    early: float
    late: float
    stable: bool


@dataclass(frozen=True)
class PhaseMarginRow:
    """Phase margin of the sampled loop at one T against the T/2 rule (:func:`phase_margin_rows`).

    Attributes
    ----------
    T : float
        Sample period (s).
    method : str
        How the PI was discretized.
    omega_c : float
        Gain crossover of L(e^{j omega T}) = D(e^{j omega T}) P_d(e^{j omega T}) (rad/s).
    phase_margin : float
        180 + arg L at omega_c (degrees).
    predicted : float
        PM_analog - omega_c,analog T / 2 in degrees: the hold as a delay of T/2.
    """

    T: float
    method: str
    omega_c: float
    phase_margin: float
    predicted: float


@dataclass(frozen=True)
class Lab11Results:
    """Everything :func:`run` computes (``run().data``).

    Attributes
    ----------
    tau, h, T : float
        Dead time, grid step of Parts A-C and sample period of Part D (s).
    K, T1, r : float
        Gain and time constant (s) of the FOPDT plant, reference step of Parts A-C (at the end).
    plant : PadeStudy
        The FOPDT plant's step response, exact and with Padé.
    loop : PadeStudy
        The FOPDT loop's step response, exact and with Padé in the loop.
    margin : DelayMargin
        The loop's delay margin.
    limits : tuple of DelayLimitRow
        The delay limit each Padé order predicts.
    near_limit : tuple of DelayLimitRun
        The exact loop just below and just above its limit.
    interpolation : tuple of InterpolationRow
        The shift register's error on a sine.
    graph : tuple of GraphErrorRow
        The loop per element, one row per step h.
    runs : dict of str to SampledDataResult
        The digital loop at T, by method.
    sampled : tuple of SampledRow
        Tustin and matched at each T of :data:`T_VALUES`.
    scan : tuple of ScanRow
        The stability scan by simulation (Tustin).
    stability : dict of str to StabilityLimit
        The limit in T from the poles in z, by method.
    phase_margins : tuple of PhaseMarginRow
        Sampled loop's phase margin against the T/2 rule.
    """

    tau: float
    h: float
    T: float
    plant: PadeStudy
    loop: PadeStudy
    margin: DelayMargin
    limits: tuple
    near_limit: tuple
    interpolation: tuple
    graph: tuple
    runs: dict = field(repr=False)
    sampled: tuple = ()
    scan: tuple = ()
    stability: dict = field(default_factory=dict)
    phase_margins: tuple = ()
    K: float = field(default=K)
    T1: float = field(default=T1)
    r: float = field(default=R)


# ---------------------------------------------------------------------------------------------
# Part A: the FOPDT plant, exact and with Padé
# ---------------------------------------------------------------------------------------------


def fopdt_plant(K=K, T1=T1):
    """(A, B, C, D) of the delay-free part K/(T1 s + 1) (the delay is lsim's ``input_delay``)."""
    return tf2ss([K], [T1, 1.0])


def time_grid(h=H):
    """The grid t_k = k h, k = 0 .. round(T_END / h), of Parts A-C (s)."""
    return h * np.arange(round(T_END / h) + 1)


def fopdt_step(t, tau=TAU, K=K, T1=T1, r=R):
    """Step response r K (1 - e^{-(t - tau)/T1}) 1(t - tau) by the delayed lsim (exact at the grid points)."""
    A, B, C, D = fopdt_plant(K, T1)
    return lsim(A, B, C, D, np.full(len(t), r), t, input_delay=tau).y


def fopdt_step_closed_form(t, tau=TAU, K=K, T1=T1, r=R):
    """The closed form of :func:`fopdt_step`: 0 before tau, r K (1 - e^{-(t - tau)/T1}) after."""
    t = np.asarray(t, dtype=float)
    return np.where(t >= tau, r * K * (1.0 - np.exp(-np.maximum(t - tau, 0.0) / T1)), 0.0)


def _study_row(n, t, tau, exact, y, slope):
    """The :class:`PadeRow` of order n: a response y against the exact one, and its initial slope."""
    error = y - exact
    before = t < t[0] + tau - 1e-12 * max(tau, 1.0)
    sign = np.sign(error)
    start = np.flatnonzero(sign)
    crossing = math.nan
    if start.size:
        flips = np.flatnonzero(sign[start[0]:] == -sign[start[0]])
        if flips.size:
            k = start[0] + flips[0]  # error[k - 1] and error[k] on both sides of zero
            crossing = float(t[k - 1] + error[k - 1] / (error[k - 1] - error[k]) * (t[k] - t[k - 1]))
    return PadeRow(order=n, initial_slope=slope, undershoot=float(max(0.0, -np.min(y[before], initial=0.0))),
                   max_error_before_tau=float(np.max(np.abs(error[before]), initial=0.0)),
                   max_error=float(np.max(np.abs(error))), first_crossing=crossing, peak=float(np.max(y)))


def _initial_slope(A, B, C, r=R):
    """dy/dt at 0+ of a strictly proper model at rest under a step r: r C B."""
    return float(r * (np.asarray(C) @ np.asarray(B))[0, 0])


@cached
def pade_plant_study(tau=TAU, h=H, orders=PADE_ORDERS, K=K, T1=T1, r=R):
    """The FOPDT plant's step response (step r) with the exact delay and with P_n, n in ``orders``.

    The exact response and the Padé ones come from :func:`simlab.delay_approximation.compare_pade`
    (lsim with ``input_delay`` and lsim of G(s) P_n(s), both exact at the grid points).

    Returns
    -------
    PadeStudy
    """
    t = time_grid(h)
    comparison = compare_pade([K], [T1, 1.0], tau, t, orders)
    responses, rows = {}, []
    for step in comparison.rows:
        A, B, C, _ = tf2ss(*series([K], [T1, 1.0], *pade(tau, step.order)))
        y = r * step.y
        responses[step.order] = y
        rows.append(_study_row(step.order, t, tau, r * comparison.y, y, _initial_slope(A, B, C, r)))
    return PadeStudy(tau=tau, t=t, exact=r * comparison.y, responses=responses, rows=tuple(rows))


# ---------------------------------------------------------------------------------------------
# Part B: the FOPDT loop, exact and with Padé; the delay margin
# ---------------------------------------------------------------------------------------------


def pi_gains(K=K, T1=T1):
    """(K_p, T_i) of the PI K_p (1 + 1/(T_i s)) for the plant K/(T1 s + 1): T_i = T1 (the zero cancels
    the plant pole), K_p = T1 / (K (lambda + tau_0)) (the SIMC rule for the design dead time
    tau_0 = :data:`TAU_DESIGN` with lambda = :data:`LAMBDA`); (0.6, 1.5 s) for the lab's plant."""
    return T1 / (K * (LAMBDA + TAU_DESIGN)), T1


def loop_gain(K=K, T1=T1):
    """k = K K_p / T_i (1/s): with T_i = T1 the loop gain is C(s) G(s) e^{-tau s} = k e^{-tau s}/s.

    With K_p by the SIMC rule (:func:`pi_gains`) k = 1/(lambda + tau_0) = 0.8 1/s for every K and T1.
    """
    Kp, Ti = pi_gains(K, T1)
    return K * Kp / Ti


def _controller(K=K, T1=T1):
    """num, den of the PI K_p (1 + 1/(T_i s)) = (K_p T_i s + K_p)/(T_i s)."""
    Kp, Ti = pi_gains(K, T1)
    return np.array([Kp * Ti, Kp]), np.array([Ti, 0.0])


@cached
def loop_exact(t, tau=TAU, r=R, K=K, T1=T1):
    """The FOPDT loop's step response exactly: y = sum_{j >= 1} (-1)^{j-1} (k/s)^j e^{-j tau s} r.

    1/(1 + L) = sum_j (-L)^j, so Y = L/(1 + L) R = sum_{j >= 1} (-1)^{j-1} L^j R with
    L^j = (k/s)^j e^{-j tau s}. The term j is zero before j tau, so J = floor(t_end / tau) terms
    give y exactly on [0, t_end]: each is the step response of a chain of j integrators, delayed
    by j tau, which ``lsim(..., input_delay=j tau)`` gives exactly (the method of steps written
    in the Laplace domain).
    """
    t = np.asarray(t, dtype=float)
    k = loop_gain(K, T1)
    y = np.zeros(len(t))
    for j in range(1, int(np.floor((t[-1] - t[0]) / tau + 1e-9)) + 1):
        A_j, B_j, C_j, D_j = tf2ss([k**j], [1.0] + [0.0] * j)  # (k/s)^j
        y += (-1) ** (j - 1) * lsim(A_j, B_j, C_j, D_j, np.full(len(t), r), t, input_delay=j * tau).y
    return y


def loop_closed_form(t, tau=TAU, r=R, K=K, T1=T1):
    """The same sum in closed form: y(t) = r sum_{j: j tau <= t} (-1)^{j-1} (k (t - j tau))^j / j!."""
    t = np.asarray(t, dtype=float)
    return _chain_sum(t, lambda j: (-1.0) ** (j - 1), lambda j: j * tau,
                      range(1, int(np.floor(t[-1] / tau + 1e-9)) + 1), loop_gain(K, T1), r)


def _chain_sum(t, signs, delays, terms, k, r):
    """r sum_{j in terms} signs(j) (k (t - delays(j)))^j / j! 1(t >= delays(j)): the loop's closed
    form, and of the slips of Task B1 (other signs, delays or terms)."""
    y = np.zeros(len(t))
    for j in terms:
        shifted = np.maximum(t - delays(j), 0.0)
        y += signs(j) * np.where(t >= delays(j) - 1e-12, (k * shifted) ** j, 0.0) / math.factorial(j)
    return r * y


def _pade_loop_model(tau, n, K=K, T1=T1):
    """(num, den) of the closed loop L_n/(1 + L_n), L_n = C(s) G(s) P_n(s) (no cancellation)."""
    open_num, open_den = series(*_controller(K, T1), [K], [T1, 1.0])
    open_num, open_den = series(open_num, open_den, *pade(tau, n))
    return feedback(open_num, open_den, [1.0], [1.0])


def pade_loop(t, tau=TAU, n=1, r=R, K=K, T1=T1):
    """The loop's step response with the Padé approximant P_n in place of e^{-tau s} (exact lsim)."""
    A, B, C, D = tf2ss(*_pade_loop_model(tau, n, K, T1))
    return lsim(A, B, C, D, np.full(len(t), r), t).y


@cached
def pade_loop_study(tau=TAU, h=H, orders=PADE_ORDERS, K=K, T1=T1, r=R):
    """The loop's step response (step r), exact (:func:`loop_exact`) and with each Padé order.

    Returns
    -------
    PadeStudy
    """
    t = time_grid(h)
    exact = loop_exact(t, tau, r, K, T1)
    responses, rows = {}, []
    for n in orders:
        A, B, C, _ = tf2ss(*_pade_loop_model(tau, n, K, T1))
        responses[n] = lsim(A, B, C, np.zeros((1, 1)), np.full(len(t), r), t).y
        rows.append(_study_row(n, t, tau, exact, responses[n], _initial_slope(A, B, C, r)))
    return PadeStudy(tau=tau, t=t, exact=exact, responses=responses, rows=tuple(rows))


def delay_margin(tau=TAU, K=K, T1=T1):
    """Crossover, phase margin and delay margin of L(s) = C(s) G(s) e^{-tau s}.

    |L(j omega)| = |C(j omega) G(j omega)| (the delay has gain 1): omega_c solves
    |C G (j omega_c)| = 1 (Brent's method on the log of the gain); the phase margin is
    PM = pi + arg C G(j omega_c) - omega_c tau, and the delay margin PM / omega_c is the extra
    dead time that brings the phase at omega_c to -pi.

    Returns
    -------
    DelayMargin
    """
    num, den = series(*_controller(K, T1), [K], [T1, 1.0])

    def gain(omega):
        s = 1j * omega
        return np.polyval(num, s) / np.polyval(den, s)

    omega_c = optimize.brentq(lambda w: math.log(abs(gain(w))), 1e-6, 1e6, xtol=1e-14, rtol=1e-14)
    phase = float(np.angle(gain(omega_c))) - omega_c * tau
    margin = math.pi + phase
    return DelayMargin(omega_c=float(omega_c), phase_margin=margin, delay_margin=margin / omega_c,
                       tau_limit=tau + margin / omega_c)


@cached
def pade_delay_limit(n, K=K, T1=T1):
    """The dead time at which the loop with P_n in place of e^{-tau s} loses stability.

    The rightmost closed-loop pole's real part, max Re s_i(tau), is scanned up from tau = 0.05 s
    by factors of 1.25 until it reaches 0, then the crossing is solved by Brent's method.

    Returns
    -------
    DelayLimitRow
    """

    def rightmost(tau):
        return float(np.max(np.roots(_pade_loop_model(tau, n, K, T1)[1]).real))

    low = 0.05
    while rightmost(1.25 * low) < 0:
        low *= 1.25
    limit = optimize.brentq(rightmost, low, 1.25 * low, xtol=1e-13, rtol=1e-13)
    exact = math.pi / (2 * loop_gain(K, T1))
    return DelayLimitRow(order=n, tau_limit=float(limit), relative_error=float(limit / exact - 1.0))


@cached
def delay_limit_runs(factors=(0.9, 1.1), h=0.05, t_end=30.0, K=K, T1=T1, r=R):
    """The exact loop at tau = factor * pi / (2 k): below the limit it settles, above it grows.

    Returns
    -------
    tuple of DelayLimitRun
    """
    t = h * np.arange(round(t_end / h) + 1)
    runs = []
    for factor in factors:
        tau = factor * math.pi / (2 * loop_gain(K, T1))
        y = loop_exact(t, tau, r, K, T1)
        early = float(np.max(np.abs(y - r)[(t >= 10.0) & (t < 20.0)]))
        late = float(np.max(np.abs(y - r)[t >= 20.0]))
        runs.append(DelayLimitRun(tau=tau, t=t, y=y, early=early, late=late))
    return tuple(runs)


# ---------------------------------------------------------------------------------------------
# Part C: the delay in a structure graph
# ---------------------------------------------------------------------------------------------


def shift_register_reference(u, tau, h):
    """The delayed samples y_n = (1 - alpha) u_{n-d} + alpha u_{n-d-1}: :class:`simlab.delay.DelayLine`."""
    return DelayLine(tau, h).response(np.asarray(u, dtype=float))


@cached
def interpolation_errors(h=0.1, omega=2.0, d=3, alphas=(0.0, 0.25, 0.5, 0.75), samples=400):
    """The shift register's error on u = sin(omega t) for tau = (d + alpha) h, per alpha.

    The error of y_n = (1 - alpha) u_{n-d} + alpha u_{n-d-1} against sin(omega (t_n - tau)) is
    itself a sine, of amplitude |e^{-j omega theta} - (1 - alpha) - alpha e^{-j omega h}|
    (theta = alpha h); linear interpolation bounds it by theta (h - theta) omega^2 / 2.

    Returns
    -------
    tuple of InterpolationRow
    """
    t = h * np.arange(samples + 1)
    u = np.sin(omega * t)
    rows = []
    for alpha in alphas:
        theta = alpha * h
        tau = d * h + theta
        y = shift_register_reference(u, tau, h)
        full = t >= (d + 1) * h - 1e-12  # the register holds samples of u, not its zero history
        measured = float(np.max(np.abs(y - np.sin(omega * (t - tau)))[full]))
        amplitude = abs(np.exp(-1j * omega * theta) - (1 - alpha) - alpha * np.exp(-1j * omega * h))
        rows.append(InterpolationRow(h=h, tau=tau, alpha=alpha, measured=measured, amplitude=float(amplitude),
                                     bound=theta * (h - theta) * omega**2 / 2))
    return tuple(rows)


def structure_graph(K=K, T1=T1):
    """P, W, W0, Wc of the FOPDT loop: element 1 the PI, element 2 the inertia (rows [A, B, C, D]).

    G_i(s) = (C_i + D_i s)/(A_i + B_i s): the PI K_p (1 + 1/(T_i s)) = (K_p + K_p T_i s)/(T_i s) is
    [0, T_i, K_p, K_p T_i] (:func:`pi_gains`); the inertia K/(1 + T1 s) is [1, T1, K, 0].
    u1 = r - y2, u2 = y1. The delay sits on the input of element 2 (``delays={(2, "input"): tau}``).
    """
    Kp, Ti = pi_gains(K, T1)
    P = np.array([[0.0, Ti, Kp, Kp * Ti], [1.0, T1, K, 0.0]])
    W = np.array([[0.0, -1.0], [1.0, 0.0]])
    W0 = np.array([[1.0], [0.0]])
    Wc = np.array([0.0, 1.0])
    return P, W, W0, Wc


@cached
def graph_response(tau=TAU, h=H, place=(2, "input"), K=K, T1=T1, r=R):
    """The FOPDT loop per element (:func:`simlab.elementwise.simulate_elements`) with the delay at ``place``."""
    P, W, W0, Wc = structure_graph(K, T1)
    t = time_grid(h)
    return simulate_elements(P, W, W0, Wc, r, (0.0, float(t[-1])), h, delays={place: tau}).y


@cached
def graph_errors(tau=TAU, steps=GRAPH_STEPS, K=K, T1=T1, r=R):
    """Max error of the per-element loop against :func:`loop_exact`, per step h.

    Returns
    -------
    tuple of GraphErrorRow
    """
    rows = []
    for h in steps:
        t = time_grid(h)
        d, theta = split_delay(tau, h)
        error = float(np.max(np.abs(graph_response(tau, h, K=K, T1=T1, r=r) - loop_exact(t, tau, r, K, T1))))
        rows.append(GraphErrorRow(h=h, d=d, theta=theta, max_error=error))
    return tuple(rows)


# ---------------------------------------------------------------------------------------------
# Parts D-F: a digital PI in the seed's loop
# ---------------------------------------------------------------------------------------------


def seed_plant():
    """(A, B, C, D) of the seed's plant 1/(s^3 + 4 s^2 + 8 s + 5)."""
    return tf2ss(list(SEED_NUM), list(SEED_DEN))


def seed_pi():
    """num, den of the analog PI C(s) = 10 + 4/s = (10 s + 4)/s."""
    return analog_pid(SEED_KP, SEED_KI)


@cached
def analog_overshoot(t_end=T_END_DIGITAL, h=0.005):
    """Overshoot (peak / r - 1) of the analog loop C(s) G(s) / (1 + C(s) G(s)), step r (lsim, grid h)."""
    num, den = feedback(*series(*seed_pi(), list(SEED_NUM), list(SEED_DEN)), [1.0], [1.0])
    t = h * np.arange(round(t_end / h) + 1)
    y = lsim(*tf2ss(num, den), np.full(len(t), SEED_R), t).y
    return float(np.max(y) / SEED_R - 1.0)


def plant_steps(T):
    """N = max(2, round(T / H_PLANT)): plant steps per sample period (h = T / N close to 0.02 s)."""
    return max(2, round(T / H_PLANT))


def sampled_run(T=T, method="tustin", controller=None, N=None, t_end=T_END_DIGITAL):
    """The digital loop at T: ``simulate_sampled`` of the seed plant under D(z) (step SEED_R).

    ``controller`` (a DigitalController) replaces the PI discretized by ``method``.
    """
    if controller is None:
        controller = DigitalController.from_analog(*seed_pi(), T, method)
    return simulate_sampled(*seed_plant(), controller, t_end, r=SEED_R, N=plant_steps(T) if N is None else N)


@cached
def sampled_rows(T_values=T_VALUES):
    """Tustin and matched at each T: spectral radius, peaks of the samples and of y(t).

    Returns
    -------
    tuple of SampledRow
    """
    rows = []
    for T_i in T_values:
        for method in ("tustin", "matched"):
            run = sampled_run(T_i, method)
            ripple = intersample_ripple(run)
            radius = discrete_closed_loop(*seed_plant(), run.controller).spectral_radius
            rows.append(SampledRow(T=float(T_i), method=method, N=run.N, spectral_radius=radius,
                                   stable=radius < 1.0, peak_sampled=ripple.peak_sampled, peak=ripple.peak,
                                   hidden=ripple.peak / ripple.peak_sampled - 1.0))
    return tuple(rows)


def grows(e_k, window=SCAN_WINDOW):
    """The growth test of the scan: (early, late, stable) with early = max |e_k| over the second-last
    window of ``window`` samples, late over the last; stable when late < early."""
    e = np.abs(np.asarray(e_k, dtype=float))
    early, late = float(np.max(e[-2 * window:-window])), float(np.max(e[-window:]))
    return early, late, late < early


@cached
def stability_scan(T_scan=T_SCAN, method="tustin", N=10):
    """Stability by simulation: run the digital loop for 4 windows of samples at each T, test growth.

    Returns
    -------
    tuple of ScanRow
    """
    rows = []
    for T_i in T_scan:
        run = sampled_run(T_i, method, N=N, t_end=4 * SCAN_WINDOW * T_i)
        early, late, stable = grows(run.e_k)
        rows.append(ScanRow(T=float(T_i), early=early, late=late, stable=stable))
    return tuple(rows)


def stability_limits():
    """The stability limit in T by the poles in z, for both PI designs (``simlab.stability_limit``).

    Returns
    -------
    dict of str to StabilityLimit
        A new dict each call (the limits themselves are computed once: they have no parameter).
    """
    return dict(_stability_limits())


@cached
def _stability_limits():
    return tuple((method, stability_limit(*seed_plant(), *seed_pi(), method=method))
                 for method in ("tustin", "matched"))


def _crossover(response, omega_max):
    """The first omega in (0, omega_max) with |response(omega)| = 1, by a scan and Brent's method."""
    grid = np.geomspace(1e-3, omega_max * (1 - 1e-9), 400)
    gains = np.log(np.abs([response(w) for w in grid]))
    i = int(np.flatnonzero(np.diff(np.sign(gains)))[0])
    return optimize.brentq(lambda w: math.log(abs(response(w))), grid[i], grid[i + 1], xtol=1e-14, rtol=1e-14)


@cached
def analog_margins():
    """(omega_c, phase margin in degrees, delay margin in s) of the analog loop C(s) G(s)."""
    num, den = series(*seed_pi(), list(SEED_NUM), list(SEED_DEN))

    def response(omega):
        return np.polyval(num, 1j * omega) / np.polyval(den, 1j * omega)

    omega_c = _crossover(response, 1e3)
    margin = math.pi + float(np.angle(response(omega_c)))
    return float(omega_c), math.degrees(margin), margin / omega_c


def digital_phase_margin(T, method="tustin"):
    """(omega_c, phase margin in degrees) of L(z) = D(z) P_d(z) on z = e^{j omega T}, 0 < omega < pi / T.

    P_d is the zero-order-hold equivalent of the plant (``c2d(..., "zoh")``), D(z) the PI by ``method``.
    """
    plant_num, plant_den = c2d(list(SEED_NUM), list(SEED_DEN), T, "zoh")
    pi_num, pi_den = c2d(*seed_pi(), T, method)
    num, den = np.polymul(pi_num, plant_num), np.polymul(pi_den, plant_den)

    def response(omega):
        z = np.exp(1j * omega * T)
        return np.polyval(num, z) / np.polyval(den, z)

    omega_c = _crossover(response, math.pi / T)
    margin = math.degrees(math.pi + float(np.angle(response(omega_c))))
    return float(omega_c), (margin + 180.0) % 360.0 - 180.0


@cached
def phase_margin_rows(steps=PM_STEPS):
    """The sampled loop's phase margin at each T (both designs) against PM - omega_c T / 2.

    Returns
    -------
    tuple of PhaseMarginRow
    """
    omega_a, margin_a, _ = analog_margins()
    rows = []
    for T_i in steps:
        for method in ("tustin", "matched"):
            omega_c, margin = digital_phase_margin(T_i, method)
            rows.append(PhaseMarginRow(T=float(T_i), method=method, omega_c=omega_c, phase_margin=margin,
                                       predicted=margin_a - math.degrees(omega_a * T_i / 2)))
    return tuple(rows)


# ---------------------------------------------------------------------------------------------
# The parameter contract: the values a student may change in the notebook's parameter cell
# ---------------------------------------------------------------------------------------------

#: The parameters of lab 11 (the notebook's parameter cell), each with its unit, meaning, rules and
#: a second valid value that the tests try. The PI of Parts B and C follows K and T1 (:func:`pi_gains`);
#: the seed's loop of Parts D-F, the scan of Task D2 and the tables' fixed steps are not parameters.
PARAMETERS = Parameters(
    Parameter("K", K, "", "gain (增益) of the FOPDT plant K e^(-tau s)/(T1 s + 1)", (positive(),), alternative=1.0),
    Parameter("T1", T1, "s", "time constant (时间常数) of the FOPDT plant", (positive(),), alternative=2.0),
    Parameter("tau", TAU, "s", "dead time (纯延迟) of the plant, Parts A-C; the PI stays tuned for 0.5 s",
              (between(0.1, 1.5, closed=(True, True)),), alternative=0.7),
    Parameter("h", H, "s", "grid step of Parts A-C", (divides(T_END),), alternative=0.05),
    Parameter("r", R, "", "reference step (阶跃输入) of Parts A-C", (positive(),), alternative=2.0),
    Parameter("T", T, "s", "sample period (采样周期) of the digital loop of Part D",
              (between(0.01, 2.0, closed=(True, True)),), alternative=1.0),
    Parameter("T_values", T_VALUES, "s", "sample periods of the Tustin-against-matched table of Part E",
              (increasing(), each(between(0.01, 2.0, closed=(True, True)))), alternative=(0.2, 1.0, 1.8)),
)
use_parameters = PARAMETERS.use


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes a task's answers positionally and the notebook's parameters (K, T1,
# tau, h, r, T) as keywords with the lab's values, so that a correct answer stays correct when a
# student changes them.
# ---------------------------------------------------------------------------------------------


def _unit_step(r, what):
    """The hint for a response to a unit step where the step is r (used when r != 1)."""
    return (f"that is the {what} to a unit step; the reference step is r = {r:g}: simulate the step "
            f"np.full(len(t), r) (the parameter r), not np.ones.")


def check_step(y_delay, tau=TAU, h=H, K=K, T1=T1, r=R):
    """Self-check of Task A1: the FOPDT plant's step response with the exact delay on t_k = k h."""
    t = time_grid(h)
    plant = {"K": K, "T1": T1, "r": r}
    d = math.floor(tau / h + 1e-9)
    whole = [(fopdt_step(t, steps * h, **plant), f"that is the response with a delay of {steps} whole steps "
              f"({steps * h:g} s) instead of tau = {tau:g} s; lsim's input_delay is exact at any tau (it splits the "
              "step where the delayed input switches): pass input_delay=tau itself.")
             for steps in (d, d + 1, d - 1) if steps >= 0 and abs(steps * h - tau) > 1e-9 * max(tau, h)]
    ascending = lsim(*tf2ss([K], [1.0, T1]), np.full(len(t), r), t, input_delay=tau).y
    pade_models = pade_plant_study(tau, h, K=K, T1=T1, r=r).responses
    unit = [(fopdt_step(t, tau, K, T1, 1.0), _unit_step(r, "response"))] if r != 1 else []
    return check_array(f"FOPDT step response, tau = {tau:g} s, h = {h:g} s", y_delay, fopdt_step(t, tau, **plant),
                       rtol=1e-9, atol=1e-12, what="y_k", alternatives=[
        (fopdt_step(t, 0.0, **plant), "that is the response without the delay: pass input_delay=tau to simlab.lsim."),
        (fopdt_step(t, tau / h, **plant), "input_delay is in seconds (the unit of t), not in steps: pass tau, "
                                          "not tau / h."),
        *whole, *unit,
        (ascending, "that is the response of K/(s + T1): the plant's denominator T1 s + 1 is [T1, 1.0] in "
                    "descending powers of s (simlab.tf2ss, like MATLAB)."),
        *[(y, f"that is the response with the Padé approximant of order {n} in place of the delay: it moves "
              f"before tau; lsim's input_delay=tau simulates the delay itself, exactly.")
          for n, y in pade_models.items()]])


def _normalized(num, den, what):
    """(num / den[0], den / den[0]) as one (2, n) array, or a CheckResult saying what is wrong."""
    num, den = np.atleast_1d(np.asarray(num, dtype=float)), np.atleast_1d(np.asarray(den, dtype=float))
    if num.ndim != 1 or den.ndim != 1 or num.shape != den.shape:
        return CheckResult(False, what, f"expected num and den as two 1-D arrays of the same length (descending "
                           f"powers), got shapes {num.shape} and {den.shape}.")
    if den[0] == 0:
        return CheckResult(False, what, "the leading coefficient of den is 0: write den in descending powers.")
    return np.vstack([num, den]) / den[0]


def check_pade1(num1, den1, tau=TAU):
    """Self-check of Task A2: the order-1 Padé approximant (1 - tau s/2)/(1 + tau s/2), descending powers."""
    title = f"order-1 Padé approximant of e^(-tau s), tau = {tau:g} s"
    try:
        answer = _normalized(num1, den1, title)
    except (TypeError, ValueError):
        return CheckResult(False, title, "expected num1 and den1 as arrays of numbers (descending powers of s).")
    if isinstance(answer, CheckResult):
        return answer
    num, den = pade(tau, 1)

    def pair(n, d):
        return np.vstack([n, d]) / d[0]

    return check_array(title, answer, pair(num, den), rtol=1e-9, atol=1e-12, what="coefficients", alternatives=[
        (pair(den, num), "num and den are swapped: that is e^(+tau s), an advance; the zero is at s = +2/tau."),
        (pair(np.array([-tau, 1.0]), np.array([tau, 1.0])), "that is (1 - tau s)/(1 + tau s): the Padé coefficient "
         "is tau/2 (match e^(-tau s) = 1 - tau s + (tau s)^2/2 - ... to the s^2 term)."),
        (pair(num[::-1], den[::-1]), "these are the coefficients in ascending powers; simlab (like MATLAB) writes "
         "polynomials in descending powers of s: [-tau/2, 1] for 1 - (tau/2) s."),
        (pair(den, den), "num equals den: that is 1, no delay at all; the numerator is 1 - (tau/2) s."),
        (pair(np.array([1.0, -2 / tau]), np.array([1.0, 2 / tau])), "that is (s - 2/tau)/(s + 2/tau) = -P_1(s), "
         "with the gain -1 at s = 0; a delay has the gain 1 there: the numerator is 2/tau - s, [-1, 2/tau]."),
        (pair(np.array([0.0, 1.0]), np.array([tau, 1.0])), "that is 1/(1 + tau s), a first-order lag with the "
         "delay's slope at s = 0 but no zero; P_1 is all-pass, with its zero at s = +2/tau.")])


def check_loop(y_loop, tau=TAU, h=H, K=K, T1=T1, r=R):
    """Self-check of Task B1: the exact loop response sum_j (-1)^{j-1} (k/s)^j e^{-j tau s} r on t_k = k h."""
    t = time_grid(h)
    k = loop_gain(K, T1)
    J = int(np.floor(t[-1] / tau + 1e-9))

    def chain(signs=lambda j: (-1.0) ** (j - 1), delays=lambda j: j * tau, terms=range(1, J + 1), step=r):
        return _chain_sum(t, signs, delays, terms, k, step)

    from_zero = "your sum starts at j = 0: its term -r is not part of L/(1 + L) = L - L^2 + ...; sum j = 1 .. J."
    unit = [(chain(step=1.0), _unit_step(r, "loop's response"))] if r != 1 else []
    return check_array(f"exact FOPDT loop response, tau = {tau:g} s, h = {h:g} s", y_loop,
                       loop_exact(t, tau, r, K, T1), rtol=1e-8, atol=1e-10, what="y_k", alternatives=[
        (chain(signs=lambda j: 1.0), "the signs must alternate: 1/(1 + L) = 1 - L + L^2 - ..., so the term j "
                                     "carries (-1)^(j-1)."),
        (chain(signs=lambda j: (-1.0) ** (j - 1) * k ** (1 - j)), f"every term has the gain k: the gain of "
         f"(k/s)^j is k**j (k = {k:g} 1/s), simlab.tf2ss([k**j], [1.0] + [0.0] * j)."),
        (chain(delays=lambda j: tau), "every term is delayed by tau only: L^j = (k/s)^j e^(-j tau s) carries j "
                                      "delays, input_delay=j * tau."),
        (chain(delays=lambda j: (j - 1) * tau), "the term j is delayed by (j - 1) tau: L^j = (k/s)^j e^(-j tau s) "
                                                "carries j delays, input_delay=j * tau."),
        (chain(terms=range(0, J)), from_zero), (chain(terms=range(0, J + 1)), from_zero),
        (chain(signs=lambda j: 1.0, terms=range(1, 2)), "that is the first term only, the open loop k (t - tau) r: "
                                                        "sum all J terms."),
        *unit,
        (pade_loop(t, tau, 1, r, K, T1), "that is the loop with the order-1 Padé approximant; the exact loop is the "
                                         "sum of the delayed step responses.")])


def check_margin(omega_c, phase_margin, delay_margin, tau=TAU, K=K, T1=T1):
    """Self-check of Task B2: crossover (rad/s), phase margin (rad) and delay margin (s) of k e^{-tau s}/s."""
    reference = _margin(tau, K, T1)
    omega = reference.omega_c
    no_integrator = reference.phase_margin + math.pi / 2
    lag_tau = math.pi / 2 - tau  # the delay's lag taken as tau: right only if omega_c were 1 rad/s
    lag = (f"the delay's phase lag is omega_c tau, not tau: arg e^(-j omega tau) = -omega tau at omega = omega_c "
           f"= k = {omega:.4g} rad/s, so PM = pi/2 - omega_c tau.")
    return all_of(f"delay margin of the FOPDT loop, tau = {tau:g} s", [
        check_value("gain crossover omega_c (rad/s)", omega_c, omega, rtol=1e-6),
        check_value("phase margin (rad)", phase_margin, reference.phase_margin, rtol=1e-6, alternatives=[
            (reference.phase_margin + omega * tau, "that is pi/2, the margin without the delay: its "
             "phase lag omega_c tau is missing (the delay has gain 1, but phase -omega tau)."),
            (no_integrator, "that is pi - omega_c tau: the integrator's phase -pi/2 is missing; arg L(j omega) = "
                            "-pi/2 - omega tau, so PM = pi/2 - omega_c tau."),
            (lag_tau, f"that is pi/2 - tau: {lag}"),
            (math.degrees(reference.phase_margin), "that is in degrees; give it in radians.")]),
        check_value("delay margin (s)", delay_margin, reference.delay_margin, rtol=1e-6, alternatives=[
            (reference.phase_margin, f"that is the phase margin itself (in rad): the delay margin is PM / omega_c: "
             f"you left out the division by omega_c (= k = {omega:.4g} rad/s); an angle over a frequency gives "
             f"a time."),
            (math.degrees(reference.phase_margin) / omega, "you divided the phase margin in degrees by "
             "omega_c; the delay margin is PM in radians over omega_c."),
            (no_integrator / omega, "that is (pi - omega_c tau) / omega_c: the phase margin lacks the "
                                    "integrator's phase -pi/2."),
            (lag_tau / omega, f"that is (pi/2 - tau) / omega_c: {lag}"),
            (reference.tau_limit, "that is tau + delay margin, the dead time at the limit; the margin is the extra "
             "dead time.")])])


def _margin(tau=TAU, K=K, T1=T1):
    """:func:`delay_margin`, under a name that :func:`check_margin`'s argument does not hide."""
    return delay_margin(tau, K, T1)


def _register(u, tau, h, weights, wrap=False):
    """Register variants for the hints: y_n = w_0 u_{n-d} + w_1 u_{n-d-1} + w_2 u_{n-d+1}.

    ``wrap``: the samples before n = 0 read from the end of u (Python's negative indices).
    """
    d, theta = split_delay(tau, h)
    alpha = theta / h
    n = np.arange(len(u))
    w0, w1, w2 = weights(alpha)
    if wrap:
        return w0 * u[n - d] + w1 * u[n - d - 1] + w2 * np.take(u, n - d + 1, mode="wrap")
    padded = np.concatenate([np.zeros(d + 1), u, [0.0]])
    n = n + d + 1  # index of u_n in padded
    return w0 * padded[n - d] + w1 * padded[n - d - 1] + w2 * padded[n - d + 1]


def check_shift_register(shift_register):
    """Self-check of Task C1: ``shift_register(u, tau, h)`` at a fractional (2.5 h) and a whole (3 h) delay."""
    title = "shift_register(u, tau, h)"
    n = np.arange(12.0)
    u = 0.3 * n + np.sin(n)
    h = 0.2
    parts = []
    for tau in (0.5, 0.6):
        try:
            y = shift_register(u, tau, h)
        except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
            if isinstance(error, NotImplementedError):
                return not_done("C1", "shift_register still raises NotImplementedError; write its body in the "
                                      "cell above and run it.")
            return CheckResult(False, title, f"calling it with tau = {tau:g}, h = {h:g} raised "
                               f"{type(error).__name__}: {error}")
        parts.append(check_array(f"tau = {tau:g} s, h = {h:g} s ({tau / h:.3g} steps)", y,
                                 shift_register_reference(u, tau, h), rtol=1e-9, atol=1e-12, what="y_n",
                                 alternatives=[
            (_register(u, tau, h, lambda a: (a, 1 - a, 0.0)), "the interpolation weights are swapped: the sample "
             "d steps back gets 1 - alpha, the one d + 1 steps back gets alpha = theta / h."),
            (_register(u, tau, h, lambda a: (1.0, 0.0, 0.0)), "that is u_{n-d}: the delay rounded down to d whole "
             "steps; interpolate between u_{n-d} and u_{n-d-1} with alpha = tau/h - d."),
            (_register(u, tau, h, lambda a: (1 - a, 0.0, a)), "you interpolated towards u_{n-d+1}, the newer "
             "sample; tau = (d + alpha) h lies between d and d + 1 steps back."),
            (_register(u, tau, h, lambda a: (1 - a, a, 0.0), wrap=True), "your first outputs are samples from the "
             "end of u: u[n - d] with n - d < 0 wraps around (Python's negative indices); the input is zero before "
             "n = 0, so use 0.0 there.")]))
    return all_of(title, parts)


def check_graph(y_graph, tau=TAU, h=H, K=K, T1=T1, r=R):
    """Self-check of Task C2: the FOPDT loop per element with the delay (on any input or output of the loop)."""
    title = f"structure graph with the delay, tau = {tau:g} s, h = {h:g} s"
    t = time_grid(h)
    plant = {"K": K, "T1": T1, "r": r}
    for place in ((2, "input"), (1, "input"), (1, "output"), (2, "output")):
        result = check_array(title, y_graph, graph_response(tau, h, place, **plant), rtol=1e-9, atol=1e-12,
                             what="y_k")
        if result:
            return result if place == (2, "input") else CheckResult(True, title, f"{result.message} (delay at "
                                                                    f"{place}: in a single loop it acts the same)")
    P, W, W0, Wc = structure_graph(K, T1)
    span = (0.0, float(t[-1]))
    delay = {(2, "input"): tau}
    positive = W.copy()
    positive[0, 1] = 1.0
    swapped = P.copy()
    swapped[1, :2] = [T1, 1.0]
    unit = [(graph_response(tau, h, K=K, T1=T1, r=1.0), _unit_step(r, "loop's response"))] if r != 1 else []
    return check_array(title, y_graph, graph_response(tau, h, **plant), rtol=1e-9, atol=1e-12, what="y_k",
                       alternatives=[
        (simulate_elements(P, W, W0, Wc, r, span, h).y, "that is the loop without the delay: pass "
         "delays={(2, 'input'): tau} to simulate_elements."),
        (graph_response(tau / h, h, **plant), "the delay is in seconds (the unit of t), not in steps: "
                                              "delays={(2, 'input'): tau}."),
        (simulate_elements(P, positive, W0, Wc, r, span, h, delays=delay).y, "that is positive "
         "feedback: u1 = r - y2 needs W[0, 1] = -1."),
        (simulate_elements(swapped, W, W0, Wc, r, span, h, delays=delay).y, "element 2 is K/(T1 + s): a row "
         "[A, B, C, D] is G = (C + D s)/(A + B s), the constant term first, so 1 + T1 s is A = 1, B = T1."),
        *unit,
        (loop_exact(t, tau, r, K, T1), "that is the exact response; simulate the structure graph per element with "
         "simulate_elements.")])


def check_tustin(numd, dend, T=T):
    """Self-check of Task D1: the Tustin PI D(z) = ((K_p + K_i T/2) z - (K_p - K_i T/2))/(z - 1)."""
    title = f"Tustin PI at T = {T:g} s"
    try:
        answer = _normalized(numd, dend, title)
    except (TypeError, ValueError):
        return CheckResult(False, title, "expected numd and dend as arrays of numbers (descending powers of z).")
    if isinstance(answer, CheckResult):
        return answer
    Kp, Ki = SEED_KP, SEED_KI

    def pair(b0, b1):
        return np.array([[b0, b1], [1.0, -1.0]])

    reference = np.vstack(digital_pid(Kp, Ki, 0.0, T, "tustin"))
    return check_array(title, answer, reference, rtol=1e-9, atol=1e-12, what="coefficients", alternatives=[
        (pair(Kp + Ki * T, -Kp), "that is the rectangle rule (backward Euler, s = (z - 1)/(T z)); Tustin's "
         "trapezoid splits K_i T into K_i T/2 on e_k and on e_(k-1)."),
        (pair(Kp, -(Kp - Ki * T)), "that is forward Euler, s = (z - 1)/T; Tustin's trapezoid puts K_i T/2 on "
         "e_k and on e_(k-1)."),
        (pair(Kp + Ki * T / 2, Kp - Ki * T / 2), "the coefficient of e_(k-1) has the wrong sign: it is "
         "-(K_p - K_i T/2)."),
        (pair(Kp + Ki * T, -(Kp - Ki * T)), "that is K_i T where Tustin has K_i T/2: the trapezoid's factor 1/2 "
         "is missing (the area of a trapezoid is T (e_k + e_(k-1))/2)."),
        (np.vstack(digital_pid(Kp, Ki, 0.0, T, "matched")), "that is the matched pole-zero PI; the task asks for "
         "Tustin.")])


def _scan_hint(low, high, rows):
    """The hint for a bracket made of the wrong ends of the scan (min where max is asked, ...), or ''."""
    stable = [row.T for row in rows if row.stable]
    unstable = [row.T for row in rows if not row.stable]
    if math.isclose(low, min(stable)) and len(stable) > 1:
        return (f"T_stable_sim = {low:g} s is the smallest stable T of the scan; the bracket's lower end is the "
                f"largest stable T, max(...).")
    if math.isclose(high, max(unstable)) and len(unstable) > 1:
        return (f"T_unstable_sim = {high:g} s is the largest unstable T of the scan; the bracket's upper end is the "
                f"smallest unstable T, min(...).")
    return ""


def check_scan(T_stable_sim, T_unstable_sim):
    """Self-check of Task D2: the scan brackets the Tustin loop's stability limit in T within 0.1 s."""
    title = "stability limit by simulation (Tustin)"
    parts = []
    for name, value in (("T_stable_sim", T_stable_sim), ("T_unstable_sim", T_unstable_sim)):
        if isinstance(value, (bool, np.bool_)) or np.ndim(value) != 0:
            return CheckResult(False, title, f"expected {name} as one number (a sample period in s), got {value!r}.")
        parts.append(float(value))
    low, high = parts
    limits = stability_limits()
    limit = limits["tustin"].T
    if low >= high:
        return CheckResult(False, title, f"T_stable_sim = {low:g} s is not below T_unstable_sim = {high:g} s: did "
                           f"you invert the growth test? The error still decays when the last window's largest "
                           f"|e_k| is below the window before it.")
    if low < limits["matched"].T < high and not low < limit < high:
        return CheckResult(False, title, f"[{low:g}, {high:g}] s brackets the matched design's limit "
                           f"({limits['matched'].T:.4g} s); the task scans the Tustin PI.")
    wrong_end = _scan_hint(low, high, stability_scan())
    if wrong_end:
        return CheckResult(False, title, wrong_end)
    if not low < limit:
        return CheckResult(False, title, f"the loop is unstable at T_stable_sim = {low:g} s (a closed-loop pole "
                           f"outside the unit circle): check the growth test.")
    if not limit < high:
        return CheckResult(False, title, f"the loop is still stable at T_unstable_sim = {high:g} s: check the "
                           f"growth test, and scan up to 2.1 s.")
    if high - low > 0.1 + 1e-9:
        return CheckResult(False, title, f"[{low:g}, {high:g}] s brackets the limit, but is wider than 0.1 s: take "
                           f"the largest stable T and the smallest unstable T of a scan in steps of 0.05 s.")
    return CheckResult(True, title, f"[{low:g}, {high:g}] s brackets the limit {limit:.4g} s.")


def check_limits(T_limit_tustin, T_limit_matched):
    """Self-check of Task D3: the stability limits in T from the poles in z, Tustin and matched."""
    limits = stability_limits()
    estimate = 2 * analog_margins()[2]
    rule = (estimate, "that is 2 x the analog loop's delay margin, the T/2 rule's estimate (Part F); find "
                      "where max |z_i| = 1.")
    scan = _reference_scan()
    ends = [(value, f"that is {name} = {value:g} s, an end of the scan's bracket; solve max |z_i(T)| = 1 in it "
                    f"with optimize.brentq.") for name, value in scan.items()]
    return all_of("stability limits in T from the poles in z", [
        check_value("T* Tustin (s)", T_limit_tustin, limits["tustin"].T, rtol=1e-6, alternatives=[
            (limits["matched"].T, "that is the matched design's limit."), rule, *ends]),
        check_value("T* matched (s)", T_limit_matched, limits["matched"].T, rtol=1e-6, alternatives=[
            (limits["tustin"].T, "that is the Tustin limit: discretize the PI with method 'matched' in the "
                                 "matched line."), rule, *ends])])


def _reference_step(tau=TAU, h=H, K=K, T1=T1, r=R):
    """Reference answer of Task A1."""
    return {"y_delay": fopdt_step(time_grid(h), tau, K, T1, r)}


def _reference_pade1(tau=TAU):
    """Reference answers of Task A2."""
    num, den = pade(tau, 1)
    return {"num1": num, "den1": den}


def _reference_loop(tau=TAU, h=H, K=K, T1=T1, r=R):
    """Reference answer of Task B1."""
    return {"y_loop": loop_exact(time_grid(h), tau, r, K, T1)}


def _reference_margin(tau=TAU, K=K, T1=T1):
    """Reference answers of Task B2."""
    margin = delay_margin(tau, K, T1)
    return {"omega_c": margin.omega_c, "phase_margin": margin.phase_margin, "delay_margin": margin.delay_margin}


def _reference_register():
    """Reference answer of Task C1."""
    return {"shift_register": shift_register_reference}


def _reference_graph(tau=TAU, h=H, K=K, T1=T1, r=R):
    """Reference answer of Task C2."""
    return {"y_graph": graph_response(tau, h, K=K, T1=T1, r=r)}


def _reference_tustin(T=T):
    """Reference answers of Task D1."""
    numd, dend = digital_pid(SEED_KP, SEED_KI, 0.0, T, "tustin")
    return {"numd": numd, "dend": dend}


def _reference_scan():
    """Reference answers of Task D2: the largest stable and the smallest unstable T of the scan."""
    rows = stability_scan()
    return {"T_stable_sim": max(row.T for row in rows if row.stable),
            "T_unstable_sim": min(row.T for row in rows if not row.stable)}


def _reference_limits():
    """Reference answers of Task D3."""
    limits = stability_limits()
    return {"T_limit_tustin": limits["tustin"].T, "T_limit_matched": limits["matched"].T}


#: The tasks of lab 11, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("y_delay",), check_step, ("K", "T1", "tau", "h", "r"), _reference_step,
         "the FOPDT step response, exact"),
    Task("A2", ("num1", "den1"), check_pade1, ("tau",), _reference_pade1, "the order-1 Padé approximant"),
    Task("B1", ("y_loop",), check_loop, ("K", "T1", "tau", "h", "r"), _reference_loop, "the FOPDT loop, exact"),
    Task("B2", ("omega_c", "phase_margin", "delay_margin"), check_margin, ("K", "T1", "tau"), _reference_margin,
         "the delay margin"),
    Task("C1", ("shift_register",), check_shift_register, (), _reference_register, "the shift register"),
    Task("C2", ("y_graph",), check_graph, ("K", "T1", "tau", "h", "r"), _reference_graph,
         "the loop as a structure graph"),
    Task("D1", ("numd", "dend"), check_tustin, ("T",), _reference_tustin, "the Tustin PI"),
    Task("D2", ("T_stable_sim", "T_unstable_sim"), check_scan, (), _reference_scan,
         "the stability limit by simulation"),
    Task("D3", ("T_limit_tustin", "T_limit_matched"), check_limits, (), _reference_limits,
         "the stability limits from the poles in z"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "the delay in steps", "input_delay=tau).y", "input_delay=tau / h).y", "in seconds"),
    Mistake("A1", "the delay rounded to whole steps", "input_delay=tau).y", "input_delay=round(tau / h) * h).y",
            "whole steps"),
    Mistake("A1", "a Padé model in place of the delay",
            "simlab.lsim(A_p, B_p, C_p, D_p, u_step, t, input_delay=tau).y",
            "simlab.lsim(*simlab.tf2ss(*simlab.series([K], [T1, 1.0], *simlab.pade(tau, 1))), u_step, t).y",
            "Padé approximant of order 1 in place of the delay"),
    Mistake("A1", "the plant's denominator in ascending powers", "simlab.tf2ss([K], [T1, 1.0])",
            "simlab.tf2ss([K], [1.0, T1])", "K/(s + T1)"),
    Mistake("A2", "tau instead of tau/2", "np.array([-tau / 2, 1.0]), np.array([tau / 2, 1.0])",
            "np.array([-tau, 1.0]), np.array([tau, 1.0])", "the Padé coefficient is tau/2"),
    Mistake("A2", "ascending powers", "np.array([-tau / 2, 1.0]), np.array([tau / 2, 1.0])",
            "np.array([1.0, -tau / 2]), np.array([1.0, tau / 2])", "ascending powers"),
    Mistake("A2", "the monic form with the gain -1", "np.array([-tau / 2, 1.0]), np.array([tau / 2, 1.0])",
            "np.array([1.0, -2 / tau]), np.array([1.0, 2 / tau])", "the gain -1 at s = 0"),
    Mistake("B1", "no alternating sign", "y_loop = y_loop + (-1) ** (j - 1) * y_j", "y_loop = y_loop + y_j",
            "alternate"),
    Mistake("B1", "every term delayed by tau", "input_delay=j * tau", "input_delay=tau", "j delays"),
    Mistake("B1", "the term j delayed by (j - 1) tau", "input_delay=j * tau", "input_delay=(j - 1) * tau",
            "delayed by (j - 1) tau"),
    Mistake("B1", "the sum from j = 0", "for j in range(1, J + 1):", "for j in range(J):", "starts at j = 0"),
    Mistake("B1", "the gain k for every term", "simlab.tf2ss([k**j], [1.0] + [0.0] * j)",
            "simlab.tf2ss([k], [1.0] + [0.0] * j)", "the gain of (k/s)^j is k**j"),
    Mistake("B2", "the delay's phase lag left out", "phase_margin = np.pi / 2 - omega_c * tau",
            "phase_margin = np.pi / 2", "phase lag omega_c tau is missing"),
    Mistake("B2", "the integrator's phase left out", "phase_margin = np.pi / 2 - omega_c * tau",
            "phase_margin = np.pi - omega_c * tau", "the integrator's phase -pi/2 is missing"),
    Mistake("B2", "the phase margin in degrees", "delay_margin = phase_margin / omega_c",
            "delay_margin = np.degrees(phase_margin) / omega_c", "in degrees"),
    Mistake("B2", "the delay's lag taken as tau", "phase_margin = np.pi / 2 - omega_c * tau",
            "phase_margin = np.pi / 2 - tau", "the delay's phase lag is omega_c tau, not tau"),
    Mistake("B2", "the delay margin without the division by omega_c", "delay_margin = phase_margin / omega_c",
            "delay_margin = phase_margin", "you left out the division by omega_c"),
    Mistake("C1", "the interpolation weights swapped", "(1 - alpha) * recent + alpha * older",
            "alpha * recent + (1 - alpha) * older", "weights are swapped"),
    Mistake("C1", "no interpolation", "y[n] = (1 - alpha) * recent + alpha * older", "y[n] = recent",
            "rounded down"),
    Mistake("C1", "negative indices before the first sample",
            "recent = u[n - d] if n - d >= 0 else 0.0\n        older = u[n - d - 1] if n - d - 1 >= 0 else 0.0",
            "recent = u[n - d]\n        older = u[n - d - 1]", "wraps around"),
    Mistake("C2", "positive feedback", "W = np.array([[0.0, -1.0],", "W = np.array([[0.0, 1.0],",
            "positive feedback"),
    Mistake("C2", "the delay in steps", 'delays={(2, "input"): tau}', 'delays={(2, "input"): tau / h}',
            "in seconds"),
    Mistake("C2", "the inertia's row in descending powers", "[1.0, T1, K, 0.0]", "[T1, 1.0, K, 0.0]",
            "element 2 is K/(T1 + s)"),
    Mistake("D1", "the rectangle rule", "numd = np.array([Kp_s + Ki_s * T / 2, -(Kp_s - Ki_s * T / 2)])",
            "numd = np.array([Kp_s + Ki_s * T, -Kp_s])", "rectangle rule"),
    Mistake("D1", "the trapezoid's factor 1/2 left out",
            "numd = np.array([Kp_s + Ki_s * T / 2, -(Kp_s - Ki_s * T / 2)])",
            "numd = np.array([Kp_s + Ki_s * T, -(Kp_s - Ki_s * T)])", "factor 1/2 is missing"),
    Mistake("D2", "the growth test inverted", "e[-window:].max() < e[-2 * window:-window].max()",
            "e[-window:].max() > e[-2 * window:-window].max()", "invert"),
    Mistake("D2", "the matched PI scanned", 'DigitalController.from_analog(num_pi, den_pi, T_i, "tustin")',
            'DigitalController.from_analog(num_pi, den_pi, T_i, "matched")', "matched design's limit"),
    Mistake("D2", "the smallest stable T", "T_stable_sim = max(", "T_stable_sim = min(", "smallest stable T"),
    Mistake("D3", "Tustin in the matched line", 'radius(T_i, "matched")', 'radius(T_i, "tustin")',
            "method 'matched'"),
)

# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def _plot_study(study, what):
    """Two panels: the whole response and its start, exact delay against the Padé orders."""
    fig, (ax, ax_start) = subplots(1, 2, figsize=(11, 4))
    for axis in (ax, ax_start):
        axis.plot(study.t, study.exact, label=f"exact delay (tau = {study.tau:g} s)", **line_style(0))
        for i, (n, y) in enumerate(study.responses.items()):
            axis.plot(study.t, y, label=f"Padé order {n}", **line_style(i + 1))
        axis.axvline(study.tau, color="0.6", lw=0.8)
        axis.set(xlabel="t (s)", ylabel="y")
    start = study.t <= 3 * study.tau
    ax_start.set_xlim(0, 3 * study.tau)
    low = min(float(np.min(y[start])) for y in study.responses.values())
    ax_start.set_ylim(low - 0.05, float(np.max(study.exact[start])) + 0.1)
    ax.set_title(f"{what}: step response")
    ax_start.set_title("the start: before tau the exact response is 0")
    ax.legend()
    return fig


def plot_pade_plant(study):
    """Lab 11: the FOPDT plant's step response, exact delay against Padé (a :class:`PadeStudy`)."""
    return _plot_study(study, "FOPDT plant K e^(-tau s)/(T1 s + 1)")


def plot_loop(study):
    """Lab 11: the FOPDT loop's step response, exact delay against Padé in the loop (a :class:`PadeStudy`)."""
    return _plot_study(study, "FOPDT loop with the PI")


def plot_near_limit(runs):
    """Lab 11: the exact loop just below and just above its delay limit (:class:`DelayLimitRun` rows)."""
    fig, ax = subplots(figsize=(8, 3.8))
    for i, run in enumerate(runs):
        ax.plot(run.t, run.y, label=f"tau = {run.tau:.3f} s", **line_style(i))
    ax.set(xlabel="t (s)", ylabel="y", title="exact loop near the delay limit pi/(2k)")
    ax.legend()
    return fig


def plot_graph_errors(rows):
    """Lab 11: max error of the per-element loop against the exact one, versus h (:class:`GraphErrorRow` rows)."""
    fig, ax = subplots(figsize=(6, 4))
    h = np.array([row.h for row in rows])
    error = np.array([row.max_error for row in rows])
    ax.loglog(h, error, label="structure graph, shift register", **line_style(1))
    fractional = np.array([row.theta > 0 for row in rows])
    if fractional.any():
        ax.loglog(h[fractional], error[fractional], "s", mfc="none", color="k", label="tau / h fractional")
    ax.loglog(h, error[0] * h / h[0], ":", color="0.5", label="slope 1")
    ax.set(xlabel="h (s)", ylabel="max |y_k - y(t_k)|", title="per-element simulation of the FOPDT loop")
    ax.legend()
    return fig


def plot_sampled(runs):
    """Lab 11: the digital loop at one T, y(t) between the samples and y_k, per method (dict of runs)."""
    fig, axes = subplots(1, len(runs), figsize=(5.5 * len(runs), 3.8), sharey=True, squeeze=False)
    for ax, (method, run) in zip(axes[0], runs.items()):
        ax.plot(run.t, run.y, label="y(t) (plant, h = T/N)", **line_style(0))
        ax.plot(run.t_k, run.y_k, "o", mfc="none", color="k", label="y_k (samples)")
        ax.axhline(run.r_k[0], color="0.6", lw=0.8)
        ax.set(xlabel="t (s)", title=f"{method}, T = {run.T:g} s")
    axes[0][0].set_ylabel("y")
    axes[0][0].legend()
    return fig


def plot_phase_margins(rows):
    """Lab 11: phase margin of the sampled loop against the T/2 rule (:class:`PhaseMarginRow` rows)."""
    fig, ax = subplots(figsize=(6.5, 4))
    for i, method in enumerate(("tustin", "matched")):
        chosen = [row for row in rows if row.method == method]
        ax.plot([row.T for row in chosen], [row.phase_margin for row in chosen], label=f"sampled loop, {method}",
                **line_style(i + 1))
    tustin = [row for row in rows if row.method == "tustin"]
    ax.plot([row.T for row in tustin], [row.predicted for row in tustin], ":", color="k",
            label="PM - omega_c T/2 (hold as a delay T/2)")
    ax.set(xlabel="T (s)", ylabel="phase margin (deg)", title="the zero-order hold as a delay of T/2")
    ax.legend()
    return fig


# ---------------------------------------------------------------------------------------------
# The whole lab
# ---------------------------------------------------------------------------------------------


def results(tau=TAU, h=H, T=T, T_values=T_VALUES, K=K, T1=T1, r=R):
    """Every experiment of the lab at the given parameters, as a :class:`Lab11Results`."""
    plant = {"K": K, "T1": T1}
    return Lab11Results(
        tau=tau, h=h, T=T, plant=pade_plant_study(tau, h, **plant, r=r), loop=pade_loop_study(tau, h, **plant, r=r),
        margin=delay_margin(tau, **plant), limits=tuple(pade_delay_limit(n, **plant) for n in PADE_ORDERS),
        near_limit=delay_limit_runs(**plant, r=r), interpolation=interpolation_errors(),
        graph=graph_errors(tau, **plant, r=r),
        runs={method: sampled_run(T, method) for method in ("tustin", "matched")},
        sampled=sampled_rows(T_values), scan=stability_scan(), stability=stability_limits(),
        phase_margins=phase_margin_rows(), K=K, T1=T1, r=r)


def run():
    """Run lab 11 headless: delay exact and by Padé, the structure graph, the digital loop.

    Returns
    -------
    ExperimentResult
        ``data`` is the :class:`Lab11Results`.
    """
    data = results()
    t = time_grid(H)
    pade1 = data.loop.order(1)
    error = float(np.max(np.abs(fopdt_step(t) - fopdt_step_closed_form(t))))
    summary = [
        ("FOPDT step, tau = 0.5 s, h = 0.04 s: max |lsim(input_delay) - closed form|",
         "< 1e-12" if error < 1e-12 else f"{error:.1e}"),
        ("plant with Padé 1: initial slope / undershoot", f"{data.plant.order(1).initial_slope:+.4f} / "
                                                          f"{data.plant.order(1).undershoot:.4f}"),
        ("loop: exact peak / Padé-1 peak, undershoot", f"{np.max(data.loop.exact):.4f} / {pade1.peak:.4f}, "
                                                       f"{pade1.undershoot:.4f}"),
        ("delay margin (s), tau limit exact = pi/(2k) (s)", f"{data.margin.delay_margin:.4f}, "
                                                            f"{data.margin.tau_limit:.4f}"),
        ("tau limit predicted by Padé 1, 2, 3, 4 (s)", ", ".join(f"{row.tau_limit:.4f}" for row in data.limits)),
        ("structure graph: max error at h = 0.1 / 0.01",
         f"{data.graph[0].max_error:.3f} / {data.graph[-1].max_error:.4f}"),
        ("seed loop, analog PI 10 + 4/s: overshoot", f"{100 * analog_overshoot():.1f} %"),
        ("stability limit T*: Tustin / matched (s)",
         f"{data.stability['tustin'].T:.4f} / {data.stability['matched'].T:.4f}"),
    ]
    hidden = next(row for row in data.sampled if row.T == T and row.method == "tustin")
    summary.append((f"T = {T:g} s, Tustin: peak y(t) / peak of the samples", f"{hidden.peak:.3f} / "
                                                                               f"{hidden.peak_sampled:.3f}"))
    at = next(row for row in data.phase_margins if row.T == 0.1 and row.method == "tustin")
    summary.append(("T = 0.1 s: phase margin sampled / T/2 rule (deg)", f"{at.phase_margin:.2f} / {at.predicted:.2f}"))
    return ExperimentResult(
        summary=summary,
        figures=[("lab11_pade_plant", plot_pade_plant, data.plant), ("lab11_pade_loop", plot_loop, data.loop),
                 ("lab11_near_limit", plot_near_limit, data.near_limit),
                 ("lab11_graph_errors", plot_graph_errors, data.graph), ("lab11_sampled", plot_sampled, data.runs),
                 ("lab11_phase_margins", plot_phase_margins, data.phase_margins)],
        data=data,
    )
