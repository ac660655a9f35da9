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
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.systems import LOOP_P, LOOP_W, LOOP_W0, LOOP_WC
from simlab.elementwise import simulate_elements
from simlab.nonlinear import Backlash, DeadZone, Relay, Saturation
from simlab.plotting import line_style, plot_characteristics, subplots
from simlab.response import StepMetrics, step_metrics
from simlab.results import Result
from simlab.structure import simulate

__all__ = [
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
    "backlash_limit_cycle",
    "dead_zone_study",
    "relay_limit_cycle",
    "saturation_accuracy",
    "run",
    "plot_lab06_responses",
]


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
    from scipy.integrate import solve_ivp

    def f(_, state):
        xi, x2, x3, x4 = state
        e = r - x4
        y1 = np.clip(e + 0.5 * xi, -limit, limit)
        return [e, -0.1 * x2 + y1, -2.0 * x3 + x2, -10.0 * x4 + 20.0 * x3]

    solution = solve_ivp(f, (t[0], t[-1]), [0.0, 0.0, 0.0, 0.0], t_eval=t, method="LSODA",
                         rtol=1e-10, atol=1e-12, max_step=0.01)
    return solution.y[3]


def saturation_study(limits=(None, 1.0, 0.8, 0.5), T=0.01, t_end=40.0):
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


def backlash_limit_cycle(b=0.2, T=0.005, t_end=300.0):
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
    predicted = harmonic_balance(loop_open_loop, lambda a: backlash_describing_function(a, b),
                                 np.linspace(b * 1.05, 20 * b, 200), np.linspace(0.05, 3.0, 300))
    return BacklashLimitCycle(t=result.t, y=result.y, y1=result.x[:, 0], y1_in=y1_pi, b=b,
                              measured_output=measured_y, measured_input=measured_in, predicted=predicted)


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


def relay_limit_cycle(M=1.0, T=0.001, t_end=40.0):
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
    predicted = harmonic_balance(loop_open_loop, lambda a: relay_describing_function(a, M),
                                 np.linspace(0.01, 3.0, 300), np.linspace(0.2, 20.0, 300))
    return RelayLimitCycle(t=result.t, y=result.y, M=M, measured=measured, predicted=predicted)


def saturation_accuracy(limit=0.8, steps=(0.04, 0.02, 0.01, 0.005), t_end=30.0):
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
    summary.append(("saturation 0.8: error order vs solve_ivp", f"{results.saturation_accuracy.order:.2f}"))
    summary.append(("backlash b=0.2: measured / predicted amplitude at its input",
                    f"{backlash.measured_input.amplitude:.3f} / {backlash.predicted.A:.3f}"))
    summary.append(("backlash b=0.2: measured / predicted period",
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
