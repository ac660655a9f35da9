"""Lab 06: nonlinear elements in a loop, by per-element discrete similarity (按环节离散相似法).

The four-element loop of lab05, (s + 0.5)/s, 1/(s + 0.1), 1/(s + 2), 20/(s + 10) in unity
feedback, is simulated element by element, which lets a nonlinear element sit on the input or
the output of any element:

1. linear loop: per-element zoh and triangle hold against the RK4 structure-graph result; the
   one-step lag makes the error proportional to T;
2. saturation (饱和) on the output of the PI element (the controller output): slower rise, larger
   overshoot; checked against ``scipy.integrate.solve_ivp`` on the hand-written nonlinear ODE;
3. backlash (间隙) after the PI element: a limit cycle (自激振荡); amplitude and period measured,
   and predicted by the describing function (描述函数) of backlash (harmonic balance);
4. dead zone (死区) and relay (继电器): a dead zone leaves the integrator creeping towards the
   set point; an ideal relay on the error gives a fast oscillation (chattering) predicted by the
   relay's describing function N(A) = 4M / (pi A);
5. accuracy versus T for the saturated loop.

The notebook's tasks (A1 .. E1) are listed in :data:`TASKS`; their checks follow the notebook's
parameters (:data:`PARAMETERS`, set in the parameter cell right after the imports): the step
``T_a1`` of Task A1, the step ``T`` of the per-element runs of Tasks A2, C1 and C2, the backlash
half-width ``b_gap`` of Task B1, the saturation level ``limit`` of Part C, the backlash
half-width ``b_bl`` of Part D and the relay level ``M_relay`` of Part E.
"""

from __future__ import annotations

import functools
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
)
from simlab.course.memo import cached
from simlab.course.parameters import Parameter, Parameters, divides, positive, rule
from simlab.course.systems import LOOP_P, LOOP_W, LOOP_W0, LOOP_WC
from simlab.elementwise import discretize_element, simulate_elements
from simlab.nonlinear import Backlash, DeadZone, Relay, Saturation
from simlab.plotting import line_style, plot_characteristics, subplots
from simlab.response import StepMetrics, step_metrics
from simlab.results import Result
from simlab.structure import simulate

__all__ = [
    "T_A1",
    "T_STEP",
    "B_GAP",
    "LIMIT",
    "B_BACKLASH",
    "M_RELAY",
    "SCRIPT_CORNERS",
    "SCRIPT_INCREMENT",
    "PARAMETERS",
    "use_parameters",
    "HoldConvergence",
    "LinearAccuracy",
    "SaturationRun",
    "Oscillation",
    "LimitCyclePrediction",
    "BacklashLimitCycle",
    "DeadZoneStudy",
    "RelayLimitCycle",
    "SaturationAccuracy",
    "Lab06Results",
    "loop_open_loop",
    "linear_accuracy",
    "saturated_reference",
    "saturation_study",
    "oscillation",
    "backlash_describing_function",
    "relay_describing_function",
    "harmonic_balance",
    "backlash_prediction",
    "relay_prediction",
    "backlash_limit_cycle",
    "dead_zone_study",
    "relay_limit_cycle",
    "saturation_accuracy",
    "check_element_coefficients",
    "check_hold_errors",
    "check_backlash",
    "check_saturated_ode",
    "check_saturation_error",
    "check_limit_cycle_measured",
    "check_harmonic_balance",
    "check_relay_prediction",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
    "run",
    "plot_lab06_responses",
]


#: The notebook's parameter ``T_a1``: the step of Task A1, the coefficients of element 4 (s).
T_A1 = 0.05
#: The notebook's parameter ``T``: the step of the per-element runs of Tasks A2, C1 and C2 (s).
T_STEP = 0.01
#: The notebook's parameter ``b_gap``: the half-width of the backlash driven by hand in Task B1.
B_GAP = 0.5
#: The notebook's parameter ``limit``: the saturation level of the PI output in Tasks C1 and C2.
LIMIT = 0.8
#: The notebook's parameter ``b_bl``: the half-width of the backlash of Part D.
B_BACKLASH = 0.2
#: The notebook's parameter ``M_relay``: the level of the ideal relay of Part E (Task E1).
M_RELAY = 1.0
#: The input history of Task B1 (fixed): straight runs between these corners, in increments of 0.1.
SCRIPT_CORNERS = (0.0, 2.0, 0.5, 1.5, -1.0, 0.0)
SCRIPT_INCREMENT = 0.1

#: The parameters of lab 06 (实验参数): the notebook's parameter cell sets them; every check follows them.
PARAMETERS = Parameters(
    Parameter("T_a1", T_A1, "s", "step of Task A1, the coefficients of element 4 (离散化系数)",
              (rule("0 < {name} <= 0.5 s (at most five time constants 1/a = 0.1 s of element 4)",
                    lambda value, values: 0 < value <= 0.5),), alternative=0.1),
    Parameter("T", T_STEP, "s", "step (步长) of the per-element runs of Tasks A2, C1 and C2",
              (positive(), divides(20.0, what="the span of Task A2"), divides(30.0, what="the span of Part C"),
               divides(40.0, what="the span of the saturation study"),
               rule("{name} <= 0.05 s (at most half the smallest time constant of the loop, about 0.1 s)",
                    lambda value, values: value <= 0.05)), alternative=0.02),
    Parameter("b_gap", B_GAP, "", "half-width b of the backlash (间隙) driven by hand in Task B1",
              (rule("0 < {name} < 1 (less than half the first rise of the input script, 0 to 2, so that "
                    "the output moves)", lambda value, values: 0 < value < 1),), alternative=0.3),
    Parameter("limit", LIMIT, "", "saturation level (饱和) of the PI output in Part C",
              (rule("0.1 < {name} <= 1 (above 0.1, the controller output the steady state needs, and at most 1, "
                    "so that the saturation acts: the linear controller output peaks at 1.13)",
                    lambda value, values: 0.1 < value <= 1.0),), alternative=0.6),
    Parameter("b_bl", B_BACKLASH, "", "half-width b of the backlash after the PI element in Part D",
              (positive(),), alternative=0.3),
    Parameter("M_relay", M_RELAY, "", "level M of the ideal relay (继电器) on the error in Part E",
              (positive(),), alternative=2.0),
)
use_parameters = PARAMETERS.use

# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HoldConvergence:
    """Error of one hold of :func:`linear_accuracy` per step T, and its measured order.

    Attributes
    ----------
    hold : str
        ``"zoh"`` (zero-order hold) or ``"foh"`` (triangle hold).
    errors : tuple of float, shape (K,)
        max_k |y_k - y_RK4(t_k)| per step of :attr:`LinearAccuracy.steps` (in the unit of y).
    order : float
        Slope of log(error) against log(T), the measured order p of error ~ c T^p.
    """

    hold: str
    errors: tuple
    order: float


@dataclass(frozen=True)
class LinearAccuracy:
    """Result of :func:`linear_accuracy`: the linear loop per element against RK4.

    Attributes
    ----------
    steps : tuple of float, shape (K,)
        The steps T (s).
    zoh, foh : HoldConvergence
        Errors and measured order of the zero-order and the triangle hold.
    """

    steps: tuple
    zoh: HoldConvergence
    foh: HoldConvergence

    @property
    def holds(self):
        """Both :class:`HoldConvergence`, in the order zoh, foh."""
        return (self.zoh, self.foh)


@dataclass(frozen=True)
class SaturationRun(Result):
    """One step response of :func:`saturation_study`; unpacks as ``t, y``.

    Attributes
    ----------
    limit : float or None
        Saturation level of the PI element's output, +-limit; None for the linear loop.
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y : ndarray, shape (N + 1,)
        System output y = y4 (unit step r = 1).
    u : ndarray, shape (N + 1,)
        The controller output, the (saturated) output y1 of the PI element.
    metrics : StepMetrics
        Peak, overshoot (%) and 2 % settling time (s) of y, final value 1.
    """

    unpacks_as = ("t", "y")

    limit: float | None
    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    u: np.ndarray = field(repr=False)
    metrics: StepMetrics


@dataclass(frozen=True)
class Oscillation:
    """Result of :func:`oscillation`: a sustained oscillation measured on its grid.

    Attributes
    ----------
    amplitude : float
        Half the peak-to-peak value (in the unit of the signal).
    period : float
        Mean spacing of the upward crossings of the mean (s); NaN if fewer than two crossings.
    mean : float
        Mean of the signal (in the unit of the signal).
    """

    amplitude: float
    period: float
    mean: float


@dataclass(frozen=True)
class LimitCyclePrediction(Result):
    """A limit cycle predicted by harmonic balance, 1 + N(A) G(j omega) = 0; unpacks as ``A, omega``.

    Attributes
    ----------
    A : float
        Amplitude at the nonlinear element's input (in the unit of that signal).
    omega : float
        Angular frequency (rad/s).
    period : float
        2 pi / omega (s).
    """

    unpacks_as = ("A", "omega")

    A: float
    omega: float
    period: float


@dataclass(frozen=True)
class BacklashLimitCycle(Result):
    """Result of :func:`backlash_limit_cycle`; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y : ndarray, shape (N + 1,)
        System output.
    y1 : ndarray, shape (N + 1,)
        The backlash output, which replaces element 1's output in the loop.
    y1_in : ndarray, shape (N + 1,)
        The PI output itself, the backlash input.
    b : float
        Half-width of the backlash gap.
    measured_output, measured_input : Oscillation
        The oscillation of y and of y1_in over the second half of the run.
    predicted : LimitCyclePrediction
        Amplitude at the backlash input, omega and period by harmonic balance.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    y1: np.ndarray = field(repr=False)
    y1_in: np.ndarray = field(repr=False)
    b: float
    measured_output: Oscillation
    measured_input: Oscillation
    predicted: LimitCyclePrediction


@dataclass(frozen=True)
class DeadZoneStudy(Result):
    """Result of :func:`dead_zone_study`; unpacks as ``t, y_linear, y_dead_zone``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y_linear, y_dead_zone : ndarray, shape (N + 1,)
        System output of the linear loop and of the loop with the dead zone (unit step).
    width : float
        Half-width of the dead zone.
    error_at_end, linear_error_at_end : float
        r - y at the end of the run, with and without the dead zone.
    """

    unpacks_as = ("t", "y_linear", "y_dead_zone")

    t: np.ndarray = field(repr=False)
    y_linear: np.ndarray = field(repr=False)
    y_dead_zone: np.ndarray = field(repr=False)
    width: float
    error_at_end: float
    linear_error_at_end: float


@dataclass(frozen=True)
class RelayLimitCycle(Result):
    """Result of :func:`relay_limit_cycle`; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    y : ndarray, shape (N + 1,)
        System output.
    M : float
        Relay level.
    measured : Oscillation
        The oscillation of the error e = r - y (the relay input) over the second half of the run.
    predicted : LimitCyclePrediction
        Error amplitude, omega and period by harmonic balance with N(A) = 4M/(pi A).
    """

    unpacks_as = ("t", "y")

    t: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    M: float
    measured: Oscillation
    predicted: LimitCyclePrediction


@dataclass(frozen=True)
class SaturationAccuracy:
    """Result of :func:`saturation_accuracy`: the saturated loop per element against solve_ivp.

    Attributes
    ----------
    limit : float
        Saturation level of the PI output.
    steps : tuple of float, shape (K,)
        The steps T (s).
    errors : tuple of float, shape (K,)
        max_k |y_k - y_ref(t_k)| per step (in the unit of y).
    order : float
        Slope of log(error) against log(T).
    """

    limit: float
    steps: tuple
    errors: tuple
    order: float


@dataclass(frozen=True)
class Lab06Results:
    """Everything :func:`run` computes (``run().data``).

    Attributes
    ----------
    accuracy : LinearAccuracy
        The linear loop per element (zoh, foh) against RK4.
    saturation : tuple of SaturationRun
        Step responses with the PI output saturated at None (linear), 1.0, 0.8 and 0.5.
    backlash : BacklashLimitCycle
        The limit cycle with backlash b = 0.2 after the PI element.
    dead_zone : DeadZoneStudy
        Dead zone 0.3 on the PI output against the linear loop.
    relay : RelayLimitCycle
        The chattering with an ideal relay (M = 1) on the error.
    saturation_accuracy : SaturationAccuracy
        The loop saturated at 0.8 against solve_ivp, per T.
    elements : tuple
        The nonlinear elements (simlab.nonlinear) whose characteristics figure
        ``lab06_characteristics`` draws, one of each kind.
    """

    accuracy: LinearAccuracy
    saturation: tuple
    backlash: BacklashLimitCycle
    dead_zone: DeadZoneStudy
    relay: RelayLimitCycle
    saturation_accuracy: SaturationAccuracy
    elements: tuple


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------



def loop_open_loop(s):
    """Open loop G(s) = 20 (s + 0.5) / (s (s + 0.1)(s + 2)(s + 10)) of the four-element loop."""
    s = np.asarray(s, dtype=complex)
    return 20 * (s + 0.5) / (s * (s + 0.1) * (s + 2) * (s + 10))


def _after_pi(s):
    """The linear part after the PI element's output, 20 / ((s + 0.1)(s + 2)(s + 10))."""
    s = np.asarray(s, dtype=complex)
    return 20 / ((s + 0.1) * (s + 2) * (s + 10))


@cached
def linear_accuracy(steps=(0.08, 0.04, 0.02, 0.01), t_end=20.0, h_reference=0.001):
    """Max error of per-element zoh and foh against the RK4 structure-graph result, per T.

    Returns
    -------
    LinearAccuracy
        ``steps`` and, for ``zoh`` and ``foh``, the max errors and the measured order.
    """
    reference = simulate(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), h_reference)
    convergence = {}
    for hold in ("zoh", "foh"):
        errors = []
        for T in steps:
            run = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T, hold=hold)
            errors.append(float(np.max(np.abs(run.y - reference.y[:: round(T / h_reference)]))))
        order = float(np.polyfit(np.log(steps), np.log(errors), 1)[0])
        convergence[hold] = HoldConvergence(hold, errors=tuple(errors), order=order)
    return LinearAccuracy(steps=tuple(float(T) for T in steps), **convergence)


def saturated_reference(limit, t, r=1.0):
    """Reference for the loop with the PI output saturated at +-limit: ``solve_ivp`` (rtol 1e-10).

    Hand-written state equations: xi' = e (the PI integrator), with e = r - x4 and
    y1 = sat(e + 0.5 xi); x2' = -0.1 x2 + y1; x3' = -2 x3 + x2; x4' = -10 x4 + 20 x3.
    """
    return _loop_ode(limit, t, r)


def _loop_ode(limit, t, r=1.0, where="output", rtol=1e-10, atol=1e-12):
    """y = x4 of the hand-written loop by ``solve_ivp`` (LSODA, max_step 0.01), from rest.

    ``where`` places the saturation at +-limit: on the PI output (``"output"``), on the error
    (``"error"``, the input of element 1) or nowhere (``"linear"``).
    """
    return _loop_states(limit, t, r, where, rtol, atol)[3]


def _loop_states(limit, t, r=1.0, where="output", rtol=1e-10, atol=1e-12, gains=(1.0, 0.5)):
    """All four states (xi, x2, x3, x4) of :func:`_loop_ode` on ``t``, shape (4, N + 1).

    ``gains`` are the PI element's (K_p, K_i): its output is K_p e + K_i xi ((s + 0.5)/s: 1 and 0.5).
    """
    from scipy.integrate import solve_ivp

    proportional, integral = gains

    def f(_, state):
        xi, x2, x3, x4 = state
        e = r - x4
        if where == "output":
            y1 = np.clip(proportional * e + integral * xi, -limit, limit)
        elif where == "error":
            y1 = proportional * np.clip(e, -limit, limit) + integral * xi
        else:
            y1 = proportional * e + integral * xi
        return [e, -0.1 * x2 + y1, -2.0 * x3 + x2, -10.0 * x4 + 20.0 * x3]

    solution = solve_ivp(f, (t[0], t[-1]), [0.0, 0.0, 0.0, 0.0], t_eval=t, method="LSODA",
                         rtol=rtol, atol=atol, max_step=0.01)
    return solution.y


@cached
def saturation_study(limits=(None, 1.0, LIMIT, 0.5), T=T_STEP, t_end=40.0):
    """Step responses with the PI element's output saturated at each limit (None: linear).

    Returns
    -------
    tuple of SaturationRun
        One run per limit, in the order of ``limits``.
    """
    runs = []
    for limit in limits:
        nonlinear = None if limit is None else {(1, "output"): Saturation(limit)}
        result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T, nonlinear=nonlinear)
        runs.append(SaturationRun(limit=limit, t=result.t, y=result.y, u=result.x[:, 0],
                                  metrics=step_metrics(result.t, result.y, 1.0)))
    return tuple(runs)


def oscillation(t, y, t_from):
    """Amplitude, period and mean of a sustained oscillation of y after t_from.

    The period is the mean spacing of upward crossings of the mean (linear interpolation).

    Returns
    -------
    Oscillation
        ``amplitude`` (half the peak-to-peak value), ``period`` (NaN without two crossings) and
        ``mean``.
    """
    mask = t >= t_from
    tt, yy = t[mask], y[mask]
    mean = float(np.mean(yy))
    amplitude = float((np.max(yy) - np.min(yy)) / 2)
    above = yy - mean
    idx = np.flatnonzero((above[:-1] < 0) & (above[1:] >= 0))
    if len(idx) < 2 or amplitude < 1e-9:
        return Oscillation(amplitude=amplitude, period=float("nan"), mean=mean)
    crossings = tt[idx] - above[idx] * (tt[idx + 1] - tt[idx]) / (above[idx + 1] - above[idx])
    return Oscillation(amplitude=amplitude, period=float(np.mean(np.diff(crossings))), mean=mean)


def backlash_describing_function(A, b, k=1.0):
    """Describing function of backlash of half-width b and slope k for an input amplitude A > b.

    With beta = 1 - 2 b / A (Slotine & Li, Applied Nonlinear Control, 1991, sec. 5.3):
    Re N = k/pi [pi/2 + arcsin(beta) + beta sqrt(1 - beta^2)],  Im N = -(4 k b / (pi A)) (1 - b/A).
    """
    A = np.asarray(A, dtype=float)
    engaged = A > b  # for A <= b the input never crosses the gap: the output does not move, N = 0
    A_safe = np.where(engaged, A, 2.0 * b)
    beta = 1 - 2 * b / A_safe
    real = k / np.pi * (np.pi / 2 + np.arcsin(beta) + beta * np.sqrt(1 - beta**2))
    imag = -4 * k * b / (np.pi * A_safe) * (1 - b / A_safe)
    return np.where(engaged, real + 1j * imag, 0.0)


def relay_describing_function(A, M=1.0):
    """Describing function of an ideal relay of level M: N(A) = 4 M / (pi A)."""
    return 4 * M / (np.pi * np.asarray(A, dtype=float))


def harmonic_balance(linear, describing, amplitudes, omegas):
    """Solve 1 + N(A) G(j omega) = 0 on a grid, refined with a 2-D root search.

    Returns
    -------
    LimitCyclePrediction
        Predicted amplitude ``A`` at the nonlinearity's input, angular frequency ``omega`` and
        ``period`` of the limit cycle; unpacks as ``A, omega``.
    """
    from scipy.optimize import fsolve

    A_grid, w_grid = np.meshgrid(amplitudes, omegas)
    residual = np.abs(1 + describing(A_grid) * linear(1j * w_grid))
    i, j = np.unravel_index(np.argmin(residual), residual.shape)

    def equations(v):
        value = 1 + describing(v[0]) * linear(1j * v[1])
        return [value.real, value.imag]

    A_star, w_star = fsolve(equations, [A_grid[i, j], w_grid[i, j]], xtol=1e-12)
    return LimitCyclePrediction(A=float(A_star), omega=float(w_star), period=2 * np.pi / float(w_star))


@cached
def backlash_limit_cycle(b=B_BACKLASH, T=0.005, t_end=300.0):
    """Backlash of half-width b after the PI element: the limit cycle, measured and predicted.

    The backlash sees the PI output y1; the loop from the backlash output back to its input is
    -G1(s) * 20 / ((s + 0.1)(s + 2)(s + 10)) = -G(s) (the whole open loop), so harmonic balance
    reads 1 + N(A) G(j omega) = 0 with A the amplitude of y1 around its mean.

    Returns
    -------
    BacklashLimitCycle
        The responses (y, the backlash output y1 and its input y1_in), the oscillations measured
        by :func:`oscillation` and the prediction by :func:`harmonic_balance`.
    """
    backlash = Backlash(b)
    result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T,
                               nonlinear={(1, "output"): backlash})
    # The backlash replaced y1 by its output; rebuild the PI output itself with the element's own
    # update (PI (s + 0.5)/s: Phi = 1, Gamma = 0.5 T, d = 1) from its input u1[k] = r - y4[k]:
    # x[k+1] = x[k] + 0.5 T u1[k],  y1[k+1] = x[k+1] + u1[k].
    u1 = 1.0 - result.x[:, 3]
    x_pi = np.concatenate([[0.0], np.cumsum(0.5 * T * u1[:-1])])
    y1_pi = np.concatenate([[0.0], x_pi[1:] + u1[:-1]])
    t_from = 0.5 * t_end
    measured_y = oscillation(result.t, result.y, t_from)
    measured_in = oscillation(result.t, y1_pi, t_from)
    return BacklashLimitCycle(t=result.t, y=result.y, y1=result.x[:, 0], y1_in=y1_pi, b=b,
                              measured_output=measured_y, measured_input=measured_in,
                              predicted=backlash_prediction(b))


def backlash_prediction(b=B_BACKLASH):
    """The limit cycle with backlash b after the PI element by harmonic balance, 1 + N(A) G(j omega) = 0.

    Returns
    -------
    LimitCyclePrediction
        Amplitude ``A`` at the backlash input, ``omega`` (rad/s) and ``period`` (s).
    """
    return harmonic_balance(loop_open_loop, lambda a: backlash_describing_function(a, b),
                            np.linspace(b * 1.05, 20 * b, 200), np.linspace(0.05, 3.0, 300))


@cached
def dead_zone_study(width=0.3, T=0.01, t_end=80.0):
    """Dead zone of half-width ``width`` on the PI element's output, against the linear loop.

    Returns
    -------
    DeadZoneStudy
        ``t``, ``y_linear``, ``y_dead_zone``, ``width`` and the errors r - y at the end.
    """
    linear = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T)
    dead = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T,
                             nonlinear={(1, "output"): DeadZone(width)})
    return DeadZoneStudy(t=linear.t, y_linear=linear.y, y_dead_zone=dead.y, width=width,
                         error_at_end=float(1.0 - dead.y[-1]), linear_error_at_end=float(1.0 - linear.y[-1]))


@cached
def relay_limit_cycle(M=M_RELAY, T=0.001, t_end=40.0):
    """An ideal relay of level M on the error (input of element 1): oscillation measured and predicted.

    Returns
    -------
    RelayLimitCycle
        ``t``, ``y``, ``M``, ``measured`` (oscillation of the error e = r - y), ``predicted``
        (A, omega, period by harmonic balance with N(A) = 4M/(pi A)).
    """
    result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T,
                               nonlinear={(1, "input"): Relay(M)})
    error = 1.0 - result.y
    measured = oscillation(result.t, error, 0.5 * t_end)
    return RelayLimitCycle(t=result.t, y=result.y, M=M, measured=measured, predicted=relay_prediction(M))


def relay_prediction(M=M_RELAY):
    """The relay oscillation by harmonic balance with N(A) = 4M/(pi A): error amplitude, omega, period.

    Returns
    -------
    LimitCyclePrediction
    """
    return harmonic_balance(loop_open_loop, lambda a: relay_describing_function(a, M),
                            np.linspace(0.01, 3.0, 300), np.linspace(0.2, 20.0, 300))


@cached
def saturation_accuracy(limit=LIMIT, steps=(0.04, 0.02, 0.01, 0.005), t_end=30.0):
    """Max error of the per-element result with saturation against ``saturated_reference``.

    Returns
    -------
    SaturationAccuracy
        ``limit``, ``steps``, the max ``errors`` per step and the measured ``order``.
    """
    errors = []
    for T in steps:
        result = simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T,
                                   nonlinear={(1, "output"): Saturation(limit)})
        errors.append(float(np.max(np.abs(result.y - saturated_reference(limit, result.t)))))
    return SaturationAccuracy(limit=limit, steps=tuple(float(T) for T in steps), errors=tuple(errors),
                              order=float(np.polyfit(np.log(steps), np.log(errors), 1)[0]))


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes a task's answers positionally and the notebook's parameters (T_a1, T,
# b_gap, limit, b_bl, M_relay: :data:`PARAMETERS`) as keywords with the lab's values, so that a
# correct answer stays correct when a student changes them.
# ---------------------------------------------------------------------------------------------


def _u_script(corners=SCRIPT_CORNERS, du=SCRIPT_INCREMENT):
    """The input history of Task B1: straight runs between the corners in increments du."""
    segments = [np.linspace(start, end, round(abs(end - start) / du) + 1)[:-1]
                for start, end in zip(corners[:-1], corners[1:])]
    return np.concatenate(segments + [[corners[-1]]])


def _element4(T_a1=T_A1):
    """Reference answers of Task A1: element 4 (20/(s + 10)) discretized by hand and by the library."""
    from simlab.similarity import discretize

    A4, B4, C4, D4 = LOOP_P[3]
    a, kappa = A4 / B4, (C4 * B4 - A4 * D4) / B4**2
    coefficients = discretize_element(LOOP_P[3], T_a1, hold="foh")
    Phi_m, Gamma_m, Gamma_hat_m = discretize([[-a]], [kappa], T_a1, hold="foh")
    return {"a4": a, "kappa4": kappa, "d4": D4 / B4, "Phi4": coefficients.Phi, "Gamma4": coefficients.Gamma,
            "Gamma_hat4": coefficients.Gamma_hat, "coefficients4": coefficients, "Phi_m": Phi_m,
            "Gamma_m": Gamma_m, "Gamma_hat_m": Gamma_hat_m}


def check_element_coefficients(a4, kappa4, d4, Phi4, Gamma4, Gamma_hat4, T_a1=T_A1, T=T_STEP):
    """Self-check of Task A1: a, kappa, d, Phi, Gamma and Gamma_hat of element 4 at the step T_a1.

    ``T``, the step of Tasks A2 and C, only serves to name the slip of using it here.
    """
    ref = _element4(T_a1)
    a, kappa = ref["a4"], ref["kappa4"]
    other_step = [] if T == T_a1 else [
        (np.exp(-a * T), f"that is e^{{-aT}} at the step T = {T:g} s of Tasks A2 and C; Task A1 uses its own "
         f"step T_a1 = {T_a1:g} s.")]
    return all_of(f"element 4, 20/(s + 10), at T = {T_a1:g}", [
        check_value("a", a4, a, rtol=1e-10, alternatives=[
            (1 / a, "that is B/A; the pole of (C + D s)/(A + B s) is at s = -A/B, so a = A/B.")]),
        check_value("kappa", kappa4, kappa, rtol=1e-10),
        check_value("d", d4, ref["d4"], rtol=1e-10),
        check_value("Phi", Phi4, ref["Phi4"], rtol=1e-10, alternatives=[
            (np.exp(-T_a1 / a), "that is e^{-T/a}; the pole of 20/(s + 10) is at s = -10, so Phi = e^{-10 T}."),
            (1 - a * T_a1, "that is 1 - aT, Euler's approximation of e^{-aT}; the element is discretized "
             "exactly: Phi = e^{-aT}."), *other_step]),
        check_value("Gamma", Gamma4, ref["Gamma4"], rtol=1e-10, alternatives=[
            ((1 - ref["Phi4"]) / a, "that is (1 - Phi)/a without the factor kappa = 20 of G = kappa/(s + a)."),
            (kappa * T_a1, "that is kappa T, Euler's approximation; the exact gain is kappa (1 - e^{-aT})/a.")]),
        check_value("Gamma_hat", Gamma_hat4, ref["Gamma_hat4"], rtol=1e-10, alternatives=[
            (ref["Gamma_hat4"] * T_a1, "that is T * Gamma_hat, the coefficient of the slope du/dt (the seed's "
             "form); here Gamma_hat multiplies the increment u[k+1] - u[k], so divide by T."),
            (ref["Gamma4"], "that is Gamma; Gamma_hat is kappa (aT - 1 + e^{-aT}) / (a^2 T)."),
            (kappa * T_a1 / 2, "that is kappa T/2, the integrator's limit (a = 0) of Gamma_hat; element 4 has "
             "a = 10: Gamma_hat = kappa (aT - 1 + e^{-aT}) / (a^2 T).")]),
    ])


def _max_error(y, y_reference):
    """max_k |y_k - y_reference,k|: the reference answer ``max_error`` of Task A2."""
    return float(np.max(np.abs(np.asarray(y, dtype=float) - np.asarray(y_reference, dtype=float))))


#: The hints for an error measured at the wrong place, shared by Tasks A2 and C2.
_AT_END = ("the error at the end of the run; the task asks for the largest |y - y_ref| over the run, which "
           "comes in the transient.")
_SIGNED = ("that is the largest signed difference y_ref - y: the error is the largest |y_k - y_ref,k|, so "
           "max_error must take np.abs before np.max, whatever the order of its arguments.")


def _check_max_error(max_error, y, y_reference):
    """The student's ``max_error`` on a second case: the same two runs in the other order (|.| is symmetric)."""
    title = "max_error with its arguments swapped"
    try:
        value = max_error(y_reference, y)
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - the student's function: report what it raised
        return CheckResult(False, title, f"max_error(y_reference, y) raised {type(error).__name__}: {error}")
    difference = np.asarray(y_reference, dtype=float) - np.asarray(y, dtype=float)
    return check_value(title, value, np.max(np.abs(difference)), rtol=1e-9, alternatives=[
        (np.max(difference), _SIGNED), (abs(difference[-1]), f"that is {_AT_END}")])


@cached
def _linear_runs(T=T_STEP, t_end=20.0):
    """Reference runs of Task A2: per element (zoh, foh) and the RK4 structure graph, step T on [0, t_end]."""
    args = (LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, t_end), T)
    return {"run_zoh": simulate_elements(*args, hold="zoh"), "run_foh": simulate_elements(*args, hold="foh"),
            "reference_rk4": simulate(*args)}


def _reference_linear(T=T_STEP):
    """Reference answers of Task A2."""
    runs = dict(_linear_runs(T))
    y_rk4 = runs["reference_rk4"].y
    runs.update(error_zoh=_max_error(runs["run_zoh"].y, y_rk4), error_foh=_max_error(runs["run_foh"].y, y_rk4),
                max_error=_max_error)
    return runs


@functools.lru_cache(maxsize=8)
def _hold_errors(T):
    """Max |y - y_RK4| and |y - y_RK4| at the end, per hold, for the step T (cached: checks rerun)."""
    runs = _linear_runs(T)
    difference = {hold: runs[f"run_{hold}"].y - runs["reference_rk4"].y for hold in ("zoh", "foh")}
    return ({hold: float(np.max(np.abs(value))) for hold, value in difference.items()},
            {hold: float(abs(value[-1])) for hold, value in difference.items()})


def check_hold_errors(error_zoh, error_foh, T=T_STEP, *, max_error=None):
    """Self-check of Task A2: max |y_element - y_RK4| of both holds for the linear loop, step T.

    With ``max_error`` (the student's function), it is also tried on the runs in the other order:
    a signed maximum gives the same number as the largest |y - y_RK4| on the task's own order here.
    """
    errors, at_end_of_run = _hold_errors(T)
    parts = [
        check_value("max error, zero-order hold", error_zoh, errors["zoh"], rtol=1e-4, alternatives=[
            (errors["foh"], 'that is the triangle hold\'s error; run_zoh needs hold="zoh".'),
            (at_end_of_run["zoh"], f"that is {_AT_END}")]),
        check_value("max error, triangle hold", error_foh, errors["foh"], rtol=1e-4, alternatives=[
            (errors["zoh"], 'that is the zero-order hold\'s error; pass hold="foh".'),
            (at_end_of_run["foh"], f"that is {_AT_END}")]),
    ]
    if max_error is not None:
        runs = _linear_runs(T)
        parts.append(_check_max_error(max_error, runs["run_zoh"].y, runs["reference_rk4"].y))
    return all_of(f"per-element errors at T = {T:g}", parts)


def _check_a2(error_zoh, error_foh, max_error, T=T_STEP):
    """The check of Task A2 as the notebook calls it (the answers in the order of the task)."""
    return check_hold_errors(error_zoh, error_foh, T=T, max_error=max_error)


def check_backlash(y_hand, u_script=None, b_gap=B_GAP):
    """Self-check of Task B1: the backlash of half-width b_gap by hand, driven by the script u_script."""
    u = _u_script() if u_script is None else np.asarray(u_script, dtype=float)
    du = np.diff(u, prepend=u[0])
    return check_array("backlash output", y_hand, Backlash(b_gap).response(u), what="outputs", alternatives=[
        (DeadZone(b_gap)(u), "that is a dead zone, a static map; backlash remembers its output and keeps it while "
         "the input moves inside the gap."),
        (np.where(du >= 0, u - b_gap, u + b_gap), "the output jumps to the other side of the gap at every "
         "reversal; it must stay where it is until the input has crossed the gap (2b)."),
        (Backlash(b_gap / 2).response(u), "that is a backlash of half-width b/2: b_gap is the half-width, the "
         "output follows u - b or u + b and the whole gap is 2b."),
        (np.maximum.accumulate(np.concatenate([[0.0], u - b_gap]))[1:], "the output never moves down: the rule "
         "for the lower side of the gap is missing (elif u_k + b < y_previous: y_previous = u_k + b)."),
        (Backlash(b_gap, y0=u[0] - b_gap).response(u), "the output starts on the lower side of the gap, "
         "y_{-1} = u_0 - b; the task starts it in the middle of the gap, y_{-1} = 0.")])


def _grid_c(T=T_STEP):
    """Time grid of Part C, t_k = k T on [0, 30] (s)."""
    return np.linspace(0.0, 30.0, round(30.0 / T) + 1)


@functools.lru_cache(maxsize=8)
def _odes(T, limit):
    """The loop by solve_ivp on the grid of Part C: the reference states and y = x4 of typical slips.

    Returns a dict (cached, arrays read-only): ``"states"`` (xi, x2, x3, x4 of the saturated loop),
    ``"reference"`` (its x4) and x4 of ``"linear"`` (no saturation), ``"error clipped"``,
    ``"default tolerances"`` and ``"gains swapped"`` (PI output 0.5 e + xi).
    """
    t = _grid_c(T)
    states = _loop_states(limit, t)
    runs = {"states": states, "reference": states[3], "linear": _loop_ode(limit, t, where="linear"),
            "error clipped": _loop_ode(limit, t, where="error"),
            "default tolerances": _loop_ode(limit, t, rtol=1e-3, atol=1e-6),
            "gains swapped": _loop_states(limit, t, gains=(0.5, 1.0))[3]}
    for run in runs.values():
        run.setflags(write=False)
    return runs


_STATES = ("xi, the integral of the error", "x2, the output of G2", "x3, the output of G3")


def check_saturated_ode(y_ode, T=T_STEP, limit=LIMIT):
    """Self-check of Task C1: y = x4 of the saturated loop by solve_ivp on the grid of Part C."""
    runs = _odes(T, limit)
    wrong_state = [(runs["states"][i], f"that is the state {name} (solution.y[{i}]); the output y = x4 is "
                    f"solution.y[3].") for i, name in enumerate(_STATES)]
    return check_array(f"saturated loop (limit {limit:g}), solve_ivp", y_ode, runs["reference"], rtol=1e-6,
                       atol=1e-8, what="values", alternatives=[
        (runs["linear"], f"that is the linear loop: the PI output must be clipped to +-{limit:g} before it enters "
         f"G2."),
        (runs["error clipped"], "the saturation sits on the error e (the input of element 1); the controller "
         "output is e + 0.5 xi, clip that."),
        (runs["default tolerances"], "these are solve_ivp's values with its default tolerances (rtol=1e-3, "
         "atol=1e-6); pass rtol=1e-10 and atol=1e-12."),
        (runs["gains swapped"], "the PI gains are swapped: (s + 0.5)/s = 1 + 0.5/s, so the PI output is "
         "e + 0.5 xi, not 0.5 e + xi."),
        *wrong_state])


def _saturated_run(T=T_STEP, limit=LIMIT, where="output", hold="zoh"):
    """The per-element run of Task C2 on [0, 30] s: the saturation on the input or output of element 1."""
    return simulate_elements(LOOP_P, LOOP_W, LOOP_W0, LOOP_WC, 1.0, (0.0, 30.0), T, hold=hold,
                             nonlinear={(1, where): Saturation(limit)})


@functools.lru_cache(maxsize=8)
def _saturation_errors(T, limit):
    """max |y - y_ode| of the per-element runs by (where, hold) of the saturation, and the task's run itself
    with its error at the end (cached: checks rerun; the arrays are read-only)."""
    y_ode = _odes(T, limit)["reference"]
    runs = {(where, hold): _saturated_run(T, limit, where, hold).y
            for where, hold in (("output", "zoh"), ("input", "zoh"), ("output", "foh"))}
    errors = {key: float(np.max(np.abs(y - y_ode))) for key, y in runs.items()}
    y_task = runs["output", "zoh"]
    y_task.setflags(write=False)
    return errors, y_task, float(abs(y_task[-1] - y_ode[-1]))


def check_saturation_error(error_sat, T=T_STEP, limit=LIMIT, *, max_error=None):
    """Self-check of Task C2: max |y - y_ode| of the per-element run with the PI output saturated.

    With ``max_error`` (the student's function of Task A2), it is also tried on the two runs in the
    other order, where a signed maximum differs from the largest |y - y_ode|.
    """
    error, y_task, at_end = _saturation_errors(T, limit)
    part = check_value(f"max error with saturation {limit:g}, T = {T:g}", error_sat, error["output", "zoh"],
                       rtol=1e-4, alternatives=[
        (error["input", "zoh"], "the saturation sits on the input of element 1 (FZ = 1, it limits the error); "
         "the controller output is the element's output: (1, \"output\"), FZ = 5."),
        (error["output", "foh"], "that is the triangle hold; the task uses the zero-order hold, the default."),
        (at_end, f"that is {_AT_END}")])
    if max_error is None:
        return part
    return all_of(f"the per-element error with saturation {limit:g}", [
        part, _check_max_error(max_error, y_task, _odes(T, limit)["reference"])])


def _check_c2(error_sat, max_error, T=T_STEP, limit=LIMIT):
    """The check of Task C2 as the notebook calls it (the answers in the order of the task)."""
    return check_saturation_error(error_sat, T=T, limit=limit, max_error=max_error)


@functools.lru_cache(maxsize=4)
def _backlash_run(b):
    """:func:`backlash_limit_cycle` for the half-width b, cached for the check of Task D1 (read only there)."""
    return backlash_limit_cycle(b=b)


def check_limit_cycle_measured(A_measured, period_measured, A_y_measured, b_bl=B_BACKLASH):
    """Self-check of Task D1: amplitude at the backlash input, amplitude and period of y (second half)."""
    bl = _backlash_run(b_bl)
    t_from = 0.5 * bl.t[-1]
    whole_run = oscillation(bl.t, bl.y, 0.0)
    predicted = ("the describing function's prediction (Task D2); Task D1 measures the simulated limit cycle "
                 "with lab.oscillation")
    return all_of(f"the limit cycle with backlash b = {b_bl:g}", [
        check_value("amplitude at the backlash input", A_measured, bl.measured_input.amplitude, alternatives=[
            (bl.measured_output.amplitude, "that is the amplitude of y; the describing function needs the "
             "amplitude at the backlash input, the PI output y1_in."),
            (oscillation(bl.t, bl.y1, t_from).amplitude, "that is the amplitude after the gap (the backlash "
             "output y1); measure the PI output y1_in."),
            (bl.predicted.A, f"that is {predicted} of bl.y1_in.")]),
        check_value("amplitude of y", A_y_measured, bl.measured_output.amplitude, alternatives=[
            (whole_run.amplitude, "that is over the whole run, where the transient counts; measure the second "
             "half, t_from = 150.")]),
        check_value("period (s)", period_measured, bl.measured_output.period, alternatives=[
            (2 * np.pi / bl.measured_output.period, "that is the angular frequency 2 pi / period."),
            (bl.predicted.period, f"that is {predicted} of bl.y.")]),
    ])


def check_harmonic_balance(A_predicted, omega_predicted, period_predicted, b_bl=B_BACKLASH):
    """Self-check of Task D2: amplitude, angular frequency and period of 1 + N(A) G(j omega) = 0."""
    predicted = backlash_prediction(b_bl)
    return all_of(f"harmonic balance with backlash b = {b_bl:g}", [
        check_value("predicted amplitude A", A_predicted, predicted.A, alternatives=[
            (predicted.A / b_bl, "that is A/b; store the amplitude A itself.")]),
        check_value("predicted angular frequency (rad/s)", omega_predicted, predicted.omega, alternatives=[
            (predicted.period, "that is the period; omega = 2 pi / period."),
            (predicted.omega / (2 * np.pi), "that is the frequency in Hz; omega is in rad/s.")]),
        check_value("predicted period (s)", period_predicted, predicted.period, alternatives=[
            (1 / predicted.omega, "that is 1 / omega; the period is 2 pi / omega.")]),
    ])


def check_relay_prediction(omega_relay, A_relay, M_relay=M_RELAY):
    """Self-check of Task E1: the phase crossover and the error amplitude 4 M |G(j omega_pi)| / pi."""
    predicted = relay_prediction(M_relay)
    measured = relay_limit_cycle(M=M_relay).measured
    abs_G = abs(complex(loop_open_loop(1j * predicted.omega)))
    return all_of(f"the relay oscillation, M = {M_relay:g}", [
        check_value("phase crossover (rad/s)", omega_relay, predicted.omega, alternatives=[
            (2 * np.pi / measured.period, "that is the angular frequency measured in the simulation "
             "(lab.relay_limit_cycle); Task E1 predicts it: the phase crossover, where Im G(j omega) = 0.")]),
        check_value("predicted amplitude A", A_relay, predicted.A, alternatives=[
            (np.pi * abs_G / (4 * M_relay), "upside down: 1 = N(A) |G| with N = 4M/(pi A) gives A = 4M |G| / pi."),
            (M_relay * abs_G, "that is M |G|; the fundamental of a square wave of height M is 4M/pi, not M."),
            (4 * M_relay / (np.pi * abs_G), "that uses 1/|G|: 1 = N(A) |G(j omega_pi)| with N = 4M/(pi A) gives "
             "A = 4M |G| / pi, with |G| in the numerator."),
            (measured.amplitude, "that is the amplitude measured in the simulation (lab.relay_limit_cycle); "
             "Task E1 predicts it by harmonic balance: A = 4M |G(j omega_pi)| / pi.")]),
    ])


def _reference_ode(T=T_STEP, limit=LIMIT):
    """Reference answers of Task C1: the right-hand side and y_ode on the grid of Part C."""
    def f_sat(t, state):
        xi, x2, x3, x4 = state
        e = 1.0 - x4
        y1 = np.clip(e + 0.5 * xi, -limit, limit)
        return [e, -0.1 * x2 + y1, -2.0 * x3 + x2, -10.0 * x4 + 20.0 * x3]

    return {"f_sat": f_sat, "y_ode": _odes(T, limit)["reference"].copy()}


def _reference_backlash(u_script=None, b_gap=B_GAP):
    """Reference answer of Task B1."""
    u = _u_script() if u_script is None else np.asarray(u_script, dtype=float)
    return {"y_hand": Backlash(b_gap).response(u)}


#: The tasks of lab 06, by their label in the notebook.
TASKS = Tasks(
    Task("A1", ("a4", "kappa4", "d4", "Phi4", "Gamma4", "Gamma_hat4"), check_element_coefficients, ("T_a1",),
         _element4, "the coefficients of element 4", also=("coefficients4", "Phi_m", "Gamma_m", "Gamma_hat_m")),
    Task("A2", ("error_zoh", "error_foh", "max_error"), _check_a2, ("T",), _reference_linear,
         "per element against RK4", also=("run_zoh", "run_foh", "reference_rk4")),
    Task("B1", ("y_hand",), check_backlash, ("b_gap",), _reference_backlash, "backlash by hand"),
    Task("C1", ("y_ode",), check_saturated_ode, ("T", "limit"), _reference_ode, "the saturated loop by solve_ivp",
         also=("f_sat",)),
    Task("C2", ("error_sat", "max_error"), _check_c2, ("T", "limit"), None, "the per-element error with saturation"),
    Task("D1", ("A_measured", "period_measured", "A_y_measured"), check_limit_cycle_measured, ("b_bl",), None,
         "the limit cycle measured"),
    Task("D2", ("A_predicted", "omega_predicted", "period_predicted"), check_harmonic_balance, ("b_bl",), None,
         "the limit cycle predicted"),
    Task("E1", ("omega_relay", "A_relay"), check_relay_prediction, ("M_relay",), None,
         "the relay oscillation predicted"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

_BACKLASH_RULE = ("    if u_k - b_gap > y_previous:      # the input pushes the upper side of the gap\n"
                  "        y_previous = u_k - b_gap\n"
                  "    elif u_k + b_gap < y_previous:    # it pushes the lower side\n"
                  "        y_previous = u_k + b_gap\n")
_MAX_ERROR = "    return np.max(np.abs(y - y_reference))"
_A_RELAY = "A_relay = 4 * M_relay * abs(lab.loop_open_loop(1j * omega_relay)) / np.pi"
_PI_OUTPUT = "y1 = np.clip(e + 0.5 * xi, -limit, limit)"
_A_BACKLASH = "oscillation_in = lab.oscillation(bl.t, bl.y1_in, t_from_bl)"

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("A1", "a = B/A", "a4 = A4 / B4", "a4 = B4 / A4", "a = A/B"),
    Mistake("A1", "e^{-T/a}", "Phi4 = np.exp(-a4 * T_a1)", "Phi4 = np.exp(-T_a1 / a4)", "e^{-T/a}"),
    Mistake("A1", "Phi at the step T of Task A2", "Phi4 = np.exp(-a4 * T_a1)", "Phi4 = np.exp(-a4 * T)",
            "uses its own step T_a1"),
    Mistake("A1", "Euler's Phi = 1 - aT", "Phi4 = np.exp(-a4 * T_a1)", "Phi4 = 1 - a4 * T_a1",
            "Euler's approximation of e^{-aT}"),
    Mistake("A1", "Gamma without kappa", "Gamma4 = kappa4 * (1 - Phi4) / a4", "Gamma4 = (1 - Phi4) / a4",
            "without the factor kappa"),
    Mistake("A1", "the seed's coefficient of du/dt", "/ (a4**2 * T_a1)", "/ a4**2", "T * Gamma_hat"),
    Mistake("A1", "Gamma_hat of the integrator, kappa T/2",
            "Gamma_hat4 = kappa4 * (a4 * T_a1 - 1 + Phi4) / (a4**2 * T_a1)", "Gamma_hat4 = kappa4 * T_a1 / 2",
            "the integrator's limit"),
    Mistake("A2", "the triangle-hold run without hold=", 't_span_a2, T, hold="foh")', "t_span_a2, T)",
            "pass hold=\"foh\""),
    Mistake("A2", "the error at the end only", _MAX_ERROR, "    return abs(y[-1] - y_reference[-1])",
            "error at the end of the run"),
    Mistake("A2", "the largest signed difference", _MAX_ERROR, "    return np.max(y - y_reference)",
            "largest signed difference"),
    Mistake("B1", "b taken as the whole gap", _BACKLASH_RULE, _BACKLASH_RULE.replace("b_gap", "b_gap / 2"),
            "half-width b/2"),
    Mistake("B1", "the output jumps at a reversal",
            "y_hand = np.empty(len(u_script))\ny_previous = 0.0  # start in the middle of the gap\n"
            "for k, u_k in enumerate(u_script):\n" + _BACKLASH_RULE,
            "y_hand = np.empty(len(u_script))\nfor k, u_k in enumerate(u_script):\n"
            "    rising = k == 0 or u_k >= u_script[k - 1]\n"
            "    y_previous = u_k - b_gap if rising else u_k + b_gap\n", "jumps to the other side"),
    Mistake("B1", "the lower side of the gap forgotten", _BACKLASH_RULE, _BACKLASH_RULE.split("    elif")[0],
            "never moves down"),
    Mistake("B1", "the output starts on the lower side", "y_previous = 0.0  # start in the middle of the gap",
            "y_previous = u_script[0] - b_gap", "starts on the lower side of the gap"),
    Mistake("C1", "no saturation", _PI_OUTPUT, "y1 = e + 0.5 * xi", "linear loop"),
    Mistake("C1", "the error clipped", _PI_OUTPUT, "y1 = np.clip(e, -limit, limit) + 0.5 * xi", "sits on the error"),
    Mistake("C1", "the PI gains swapped", _PI_OUTPUT, "y1 = np.clip(0.5 * e + xi, -limit, limit)",
            "PI gains are swapped"),
    Mistake("C1", "solve_ivp with its default tolerances", "rtol=1e-10, atol=1e-12, max_step=0.01)",
            "max_step=0.01)", "default tolerances"),
    Mistake("C1", "the first state instead of x4", "y_ode = solution_c.y[3]", "y_ode = solution_c.y[0]",
            "the integral of the error"),
    Mistake("C2", "the saturation on the input", 'nonlinear={(1, "output"): Saturation(limit)})',
            'nonlinear={(1, "input"): Saturation(limit)})', "FZ = 1"),
    Mistake("C2", "the triangle hold", "(0.0, 30.0), T,\n", '(0.0, 30.0), T, hold="foh",\n', "triangle hold"),
    Mistake("C2", "the error at the end only", "error_sat = max_error(run_sat.y, y_ode)",
            "error_sat = abs(run_sat.y[-1] - y_ode[-1])", "error at the end of the run"),
    Mistake("D1", "the amplitude of y", _A_BACKLASH, "oscillation_in = lab.oscillation(bl.t, bl.y, t_from_bl)",
            "amplitude of y"),
    Mistake("D1", "the backlash output", _A_BACKLASH, "oscillation_in = lab.oscillation(bl.t, bl.y1, t_from_bl)",
            "after the gap"),
    Mistake("D1", "the whole run", "oscillation_y = lab.oscillation(bl.t, bl.y, t_from_bl)",
            "oscillation_y = lab.oscillation(bl.t, bl.y, 0.0)", "transient"),
    Mistake("D1", "the prediction instead of the measurement", "A_measured = oscillation_in.amplitude",
            "A_measured = bl.predicted.A", "describing function's prediction"),
    Mistake("D2", "the period as 1/omega", "period_predicted = 2 * np.pi / omega_predicted",
            "period_predicted = 1 / omega_predicted", "2 pi / omega"),
    Mistake("E1", "A upside down", _A_RELAY,
            "A_relay = np.pi * abs(lab.loop_open_loop(1j * omega_relay)) / (4 * M_relay)", "upside down"),
    Mistake("E1", "M |G| without 4/pi", _A_RELAY, "A_relay = M_relay * abs(lab.loop_open_loop(1j * omega_relay))",
            "4M/pi"),
    Mistake("E1", "A with 1/|G|", _A_RELAY,
            "A_relay = 4 * M_relay / (np.pi * abs(lab.loop_open_loop(1j * omega_relay)))", "uses 1/|G|"),
    Mistake("E1", "the measured amplitude instead of the prediction", _A_RELAY, "A_relay = relay.measured.amplitude",
            "measured in the simulation"),
)

# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_lab06_responses(data):
    """Lab 06: saturation, backlash limit cycle, dead zone and relay in the four-element loop.

    ``data`` is the :class:`Lab06Results` of :func:`run` (its ``saturation``, ``backlash``,
    ``dead_zone`` and ``relay``).
    """
    fig, axes = subplots(2, 2, figsize=(11, 7.5))
    ax = axes[0, 0]
    for i, run in enumerate(data.saturation):
        label = "linear" if run.limit is None else f"saturation at {run.limit:g}"
        ax.plot(run.t, run.y, label=label, **line_style(i))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Saturation of the PI output", xlim=(0, 20))
    ax.legend()
    ax = axes[0, 1]
    backlash = data.backlash
    ax.plot(backlash.t, backlash.y, color="black")
    ax.set(xlabel="t (s)", ylabel="y(t)", title=f"Backlash b = {backlash.b:g}: limit cycle")
    ax = axes[1, 0]
    dead = data.dead_zone
    ax.plot(dead.t, dead.y_linear, label="linear", **line_style(0))
    ax.plot(dead.t, dead.y_dead_zone, label=f"dead zone {dead.width:g}", **line_style(1))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Dead zone after the PI element")
    ax.legend()
    ax = axes[1, 1]
    relay = data.relay
    ax.plot(relay.t, relay.y, color="black")
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Relay on the error: chattering")
    return fig


# ---------------------------------------------------------------------------------------------
# The whole lab
# ---------------------------------------------------------------------------------------------


def run():
    """Run lab 06 headless: accuracy, saturation, backlash, dead zone, relay.

    Returns
    -------
    ExperimentResult
        ``data`` is the :class:`Lab06Results`.
    """
    results = Lab06Results(
        accuracy=linear_accuracy(), saturation=saturation_study(), backlash=backlash_limit_cycle(),
        dead_zone=dead_zone_study(), relay=relay_limit_cycle(), saturation_accuracy=saturation_accuracy(),
        elements=(Saturation(1.0), DeadZone(0.5), Backlash(0.5), Relay(1.0, hysteresis=0.4)),
    )
    accuracy, backlash, relay = results.accuracy, results.backlash, results.relay
    at_001 = accuracy.steps.index(0.01)
    summary = [
        ("linear loop: measured order zoh / foh", f"{accuracy.zoh.order:.2f} / {accuracy.foh.order:.2f}"),
        ("linear loop: max error at T = 0.01 zoh / foh",
         f"{accuracy.zoh.errors[at_001]:.2e} / {accuracy.foh.errors[at_001]:.2e}"),
    ]
    for run_ in results.saturation:
        label = "linear" if run_.limit is None else f"saturation {run_.limit:g}"
        summary.append((f"{label}: overshoot % / settling time",
                        f"{run_.metrics.overshoot:.1f} / {run_.metrics.settling_time:.1f}"))
    summary.append((f"saturation {results.saturation_accuracy.limit:g}: error order vs solve_ivp",
                    f"{results.saturation_accuracy.order:.2f}"))
    summary.append((f"backlash b={backlash.b:g}: measured / predicted amplitude at its input",
                    f"{backlash.measured_input.amplitude:.3f} / {backlash.predicted.A:.3f}"))
    summary.append((f"backlash b={backlash.b:g}: measured / predicted period",
                    f"{backlash.measured_output.period:.2f} / {backlash.predicted.period:.2f}"))
    summary.append(("dead zone 0.3: error at t = 80", f"{results.dead_zone.error_at_end:.4f}"))
    summary.append(("relay: measured / predicted error amplitude",
                    f"{relay.measured.amplitude:.4f} / {relay.predicted.A:.4f}"))
    summary.append(("relay: measured / predicted period",
                    f"{relay.measured.period:.3f} / {relay.predicted.period:.3f}"))
    return ExperimentResult(
        summary=summary,
        figures=[("lab06_characteristics", plot_characteristics, results.elements),
                 ("lab06_responses", plot_lab06_responses, results)],
        data=results,
    )
