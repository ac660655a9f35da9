"""Lab 07: the double-loop DC motor speed drive (转速电流双闭环直流调速系统), seed 003's case study.

1. Design of ACR (type I) and ASR (type II, h = 5) by the engineering design method, printed as
   the textbook derivation, with the checks of its approximations.
2. No-load start to rated speed: the three stages (current rise, constant-current acceleration,
   speed regulation), current peak and plateau, speed overshoot against the design prediction.
3. Rated-load start, a load step at steady state (speed dip and recovery), a grid-voltage dip.
4. The anti-windup treatment of the regulators and the removal of the ASR limit.
5. The seed's ACR 0.292 (0.018 s + 1)/(0.018 s) as an alternative set.
6. The same drive as a structure graph with saturation elements, against the ODE.

Every experiment returns a frozen dataclass defined here: :class:`StartResult` with
its :class:`StartMetrics`, :class:`DisturbanceResult` (and :class:`GridDipResult`),
:class:`NoLimitResult`, :class:`SeedACRResult`, :class:`StructureVersusODE`; the anti-windup
study is a dict from the treatment's name to its :class:`StartResult`. The time series inside
are :class:`simlab.plants.dc_motor.DriveResult` (unpacks as ``t, n``). :func:`run` collects
everything in :class:`Lab07Results`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simlab.course import ExperimentResult, Figure
from simlab.course.check import check_value
from simlab.plants.dc_motor import (
    ANTI_WINDUP,
    DriveParameters,
    DriveResult,
    RegulatorDesign,
    design_regulators,
    predicted_speed_overshoot,
    simulate_drive,
    structure_graph,
    type2_disturbance_peak,
)
from simlab.plotting import line_style, subplots
from simlab.structure import StructureResult

__all__ = [
    # parameters and results
    "PARAMETERS", "StartMetrics", "StartResult", "DisturbanceResult", "GridDipResult", "NoLimitResult",
    "SeedACRResult", "StructureVersusODE", "Lab07Results",
    # experiments
    "stages", "start_metrics", "no_load_start", "rated_load_start", "load_step", "grid_dip",
    "anti_windup_study", "no_asr_limit", "seed_acr", "structure_versus_ode",
    # self-checks, run, figures
    "check_current_design", "check_speed_design", "run", "plot_drive_start", "plot_drive_phase", "plot_drive_windup",
]

PARAMETERS = DriveParameters()


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StartMetrics:
    """Measures of a start-up to n*: current peak and plateau, overshoot, stage boundaries.

    Result of :func:`start_metrics`. A measure that is not defined for the run (no stage II
    without the ASR limit, no settling within the run) is NaN.

    Attributes
    ----------
    Id_peak : float
        Largest armature current (A).
    Id_plateau : float
        Mean armature current in the second half of stage II, (t1 + t2)/2 <= t <= t2, after the
        current loop's own transient (A).
    overshoot : float
        Speed overshoot 100 (max n - n*)/n*, percent of n* (0 when n never exceeds n*).
    t_rise : float
        First time with n >= n* (s).
    t_settle : float
        Time after which n stays within +-2 % of n* (s).
    t1 : float
        End of stage I (current rise): first time with Id >= 0.95 I_dm (s).
    t2 : float
        End of stage II (constant current): the sample after the last one at which the ASR
        output is at its limit (s).
    """

    Id_peak: float
    Id_plateau: float
    overshoot: float
    t_rise: float
    t_settle: float
    t1: float
    t2: float


@dataclass(frozen=True)
class StartResult:
    """A start-up to n* = nN: the simulation, its measures and the design's prediction.

    Result of :func:`no_load_start` and :func:`rated_load_start`, and the entries of
    :func:`anti_windup_study`.

    Attributes
    ----------
    result : DriveResult
        The simulation; unpacks as ``t, n``, time series of shape (N + 1,) (s, r/min; ``.Id`` in A).
    metrics : StartMetrics
        Current peak and plateau, overshoot, rise and settling times, stage boundaries.
    predicted : float
        Overshoot on leaving saturation predicted by the engineering design method
        (:func:`simlab.plants.dc_motor.predicted_speed_overshoot`), percent of n*.
    """

    result: DriveResult
    metrics: StartMetrics
    predicted: float


@dataclass(frozen=True)
class DisturbanceResult:
    """A disturbance step at steady speed: the speed dip and its recovery.

    Result of :func:`load_step` (and, with the size of the dip, :class:`GridDipResult`).

    Attributes
    ----------
    result : DriveResult
        The simulation; unpacks as ``t, n``, time series of shape (N + 1,) (s, r/min).
    t_step : float
        Time at which the disturbance is switched on (s).
    dip : float
        Largest speed drop n* - n after the step (r/min).
    dip_percent : float
        The dip, percent of n*.
    t_dip : float
        Time from the step to the largest drop (s).
    recovery : float
        Time from the step until n stays within 1 % of the dip around n* (s); NaN if the speed
        does not recover within the run.
    final_error : float
        Speed error n* - n at the end of the run (r/min).
    """

    result: DriveResult
    t_step: float
    dip: float
    dip_percent: float
    t_dip: float
    recovery: float
    final_error: float


@dataclass(frozen=True)
class GridDipResult(DisturbanceResult):
    """A grid-voltage dip at steady speed: :class:`DisturbanceResult` and the size of the dip.

    Result of :func:`grid_dip`.

    Attributes
    ----------
    fraction : float
        Size of the dip, Delta U_d = -fraction U_N (dimensionless; 0.1 for 10 %).
    """

    fraction: float


@dataclass(frozen=True)
class NoLimitResult:
    """A no-load start without the ASR output limit. Result of :func:`no_asr_limit`.

    Attributes
    ----------
    result : DriveResult
        The simulation; unpacks as ``t, n``, time series of shape (N + 1,) (s, r/min).
    metrics : StartMetrics
        Measures of the start; without the limit there is no stage II, so ``t1``, ``t2`` and
        ``Id_plateau`` are NaN.
    peak_over_IN : float
        Current peak in units of the rated current, max Id / I_N (dimensionless).
    """

    result: DriveResult
    metrics: StartMetrics
    peak_over_IN: float


@dataclass(frozen=True)
class SeedACRResult:
    """A no-load start with the seed's ACR 0.292 (0.018 s + 1)/(0.018 s). Result of :func:`seed_acr`.

    Attributes
    ----------
    design : RegulatorDesign
        The regulators used: the designed ASR and the seed's ACR (``Ki`` = 0.292,
        ``tau_i`` = 0.018 s).
    result : DriveResult
        The simulation; unpacks as ``t, n``, time series of shape (N + 1,) (s, r/min).
    metrics : StartMetrics
        Measures of the start.
    """

    design: RegulatorDesign
    result: DriveResult
    metrics: StartMetrics


@dataclass(frozen=True)
class StructureVersusODE:
    """The drive as a structure graph against the ODE. Result of :func:`structure_versus_ode`.

    Attributes
    ----------
    graph : StructureResult
        Per-element simulation of the structure graph; unpacks as ``t, y``, ``y`` of shape
        (N + 1, 2): speed n (r/min) and current Id (A).
    ode : DriveResult
        The ODE with RK4 and anti-windup "none", on the same grid (time series of shape (N + 1,)).
    T : float
        Step of both simulations (s).
    max_speed_difference : float
        max |n_graph - n_ODE| (r/min).
    max_current_difference : float
        max |Id_graph - Id_ODE| (A).
    """

    graph: StructureResult
    ode: DriveResult
    T: float
    max_speed_difference: float
    max_current_difference: float


@dataclass(frozen=True)
class Lab07Results:
    """Everything :func:`run` computes: ``run().data``.

    Attributes
    ----------
    design : RegulatorDesign
        The engineering design of ACR and ASR (h = 5).
    start : StartResult
        No-load start, "analog" regulators (:func:`no_load_start`).
    loaded : StartResult
        Start with the rated load (:func:`rated_load_start`).
    load_step : DisturbanceResult
        Rated load step at steady speed (:func:`load_step`).
    grid_dip : GridDipResult
        10 % grid-voltage dip at steady speed (:func:`grid_dip`).
    windup : dict of str to StartResult
        No-load start for each anti-windup treatment, keyed by its name (the entries of
        :data:`simlab.plants.dc_motor.ANTI_WINDUP`, :func:`anti_windup_study`).
    no_asr_limit : NoLimitResult
        No-load start without the ASR limit (:func:`no_asr_limit`).
    seed_acr : SeedACRResult
        No-load start with the seed's ACR (:func:`seed_acr`).
    versus : StructureVersusODE
        Structure graph against the ODE (:func:`structure_versus_ode`).
    """

    design: RegulatorDesign
    start: StartResult
    loaded: StartResult
    load_step: DisturbanceResult
    grid_dip: GridDipResult
    windup: dict[str, StartResult]
    no_asr_limit: NoLimitResult
    seed_acr: SeedACRResult
    versus: StructureVersusODE


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def stages(result, p=PARAMETERS, limited=True):
    """Boundaries of the three start-up stages from the regulator states.

    Stage I (current rise) ends when Id first reaches 95 % of I_dm; stage II (constant-current
    acceleration, ASR saturated) ends when the ASR output leaves its limit for good; stage III is
    the speed regulation after that. Without an ASR limit (``limited=False``) there is no stage
    II: both boundaries are NaN.

    Returns
    -------
    (t1, t2) : tuple of float
        End of stage I and end of stage II (s).
    """
    if not limited:
        return float("nan"), float("nan")
    t, Id, Ui = result.t, result.Id, result.Ui_ref
    reached = np.flatnonzero(Id >= 0.95 * p.Idm)
    t1 = float(t[reached[0]]) if reached.size else float("nan")
    saturated = np.flatnonzero(np.abs(Ui) >= p.Uim * (1 - 1e-9))
    t2 = float(t[saturated[-1] + 1]) if saturated.size and saturated[-1] + 1 < len(t) else float("nan")
    return t1, t2


def start_metrics(result, n_ref, p=PARAMETERS, limited=True):
    """Current peak and plateau, speed overshoot, rise and settling times of a start-up.

    Parameters
    ----------
    result : DriveResult
        A start-up from rest.
    n_ref : float
        The speed reference n* (r/min).
    p : DriveParameters
    limited : bool
        Whether the ASR output was limited (without the limit there are no stages).

    Returns
    -------
    StartMetrics
    """
    t, n, Id = result.t, result.n, result.Id
    t1, t2 = stages(result, p, limited)
    plateau = (t >= 0.5 * (t1 + t2)) & (t <= t2)
    rise = np.flatnonzero(n >= n_ref)
    outside = np.flatnonzero(np.abs(n - n_ref) > 0.02 * n_ref)
    return StartMetrics(
        Id_peak=float(np.max(Id)),
        Id_plateau=float(np.mean(Id[plateau])) if plateau.any() else float("nan"),
        overshoot=float(max(0.0, 100.0 * (np.max(n) - n_ref) / n_ref)),
        t_rise=float(t[rise[0]]) if rise.size else float("nan"),
        t_settle=float(t[outside[-1] + 1]) if outside.size and outside[-1] + 1 < len(t) else float("nan"),
        t1=t1,
        t2=t2,
    )


def no_load_start(anti_windup="analog", t_end=1.0, p=PARAMETERS):
    """No-load start to rated speed: the simulation, its measures and the design prediction.

    Returns
    -------
    StartResult
    """
    result = simulate_drive(p, t_end=t_end, anti_windup=anti_windup)
    return StartResult(result=result, metrics=start_metrics(result, p.nN, p),
                       predicted=predicted_speed_overshoot(p, z=0.0))


def rated_load_start(t_end=1.5, p=PARAMETERS):
    """Start with the rated load current I_dL = I_N applied from t = 0 (z = 1).

    Returns
    -------
    StartResult
    """
    result = simulate_drive(p, t_end=t_end, load=p.IN)
    return StartResult(result=result, metrics=start_metrics(result, p.nN, p),
                       predicted=predicted_speed_overshoot(p, z=1.0))


def _disturbance_result(kind, result, t_step, n_ref, band=0.01, **extra):
    """``kind`` (a DisturbanceResult class) with the dip and recovery of ``result`` after ``t_step``."""
    after = result.t >= t_step
    n_after = result.n[after]
    t_after = result.t[after]
    k = int(np.argmin(n_after))
    dip = float(n_ref - n_after[k])
    outside = np.flatnonzero(np.abs(n_after - n_ref) > band * dip) if dip > 0 else np.array([], int)
    recovery = float(t_after[outside[-1] + 1] - t_step) if outside.size and outside[-1] + 1 < len(t_after) else float("nan")
    return kind(result=result, t_step=t_step, dip=dip, dip_percent=100.0 * dip / n_ref,
                t_dip=float(t_after[k] - t_step), recovery=recovery,
                final_error=float(n_ref - result.n[-1]), **extra)


def load_step(t_step=1.0, t_end=2.0, p=PARAMETERS):
    """Rated load step I_dL = I_N at steady speed: the dynamic speed dip and its recovery time.

    Recovery time: from the step until the speed stays within 1 % of the dip around n*. The
    type-II speed loop leaves no steady-state error (``final_error``).

    Returns
    -------
    DisturbanceResult
    """
    result = simulate_drive(p, t_end=t_end, load=lambda t: p.IN if t >= t_step else 0.0)
    return _disturbance_result(DisturbanceResult, result, t_step, p.nN)


def grid_dip(t_step=1.0, t_end=2.0, fraction=0.1, p=PARAMETERS):
    """A grid-voltage dip: Delta U_d = -fraction * U_N on the converter output from t_step, at no load.

    Returns
    -------
    GridDipResult
    """
    result = simulate_drive(p, t_end=t_end, grid=lambda t: -fraction * p.UN if t >= t_step else 0.0)
    return _disturbance_result(GridDipResult, result, t_step, p.nN, fraction=fraction)


def anti_windup_study(t_end=1.0, p=PARAMETERS):
    """No-load start with each anti-windup treatment: overshoot and settling.

    Returns
    -------
    dict of str to StartResult
        Keyed by the treatment's name, in the order of
        :data:`simlab.plants.dc_motor.ANTI_WINDUP` ("none", "analog", "clamping",
        "back-calculation").
    """
    return {mode: no_load_start(mode, t_end, p) for mode in ANTI_WINDUP}


def no_asr_limit(t_end=1.0, p=PARAMETERS):
    """No-load start without the ASR output limit: the current is no longer limited.

    Returns
    -------
    NoLimitResult
    """
    result = simulate_drive(p, t_end=t_end, asr_limit=False)
    return NoLimitResult(result=result, metrics=start_metrics(result, p.nN, p, limited=False),
                         peak_over_IN=float(np.max(result.Id) / p.IN))


def seed_acr(t_end=1.0, p=PARAMETERS):
    """The seed's ACR 0.292 (0.018 s + 1)/(0.018 s) in place of the designed one (ASR kept).

    Returns
    -------
    SeedACRResult
    """
    design = replace(design_regulators(p), Ki=0.292, tau_i=0.018)
    result = simulate_drive(p, design, t_end=t_end)
    return SeedACRResult(design=design, result=result, metrics=start_metrics(result, p.nN, p))


def structure_versus_ode(T=2e-5, t_end=0.8, p=PARAMETERS):
    """The drive as a structure graph (per-element, saturation on ASR and ACR outputs) against the ODE.

    Both with "none" anti-windup: a saturation element on a PI element's output lets the element's
    integrator run on, exactly what the ODE's "none" does.

    Returns
    -------
    StructureVersusODE
        The two results and the max differences of speed and current.
    """
    from simlab.elementwise import simulate_elements
    from simlab.nonlinear import Saturation

    P, W, W0, Wc = structure_graph(p)
    graph = simulate_elements(P, W, W0, Wc, [p.alpha * p.nN, 0.0, 0.0], (0.0, t_end), T, hold="foh",
                              nonlinear={(3, "output"): Saturation(p.Uim), (6, "output"): Saturation(p.Ucm)})
    ode = simulate_drive(p, t_end=t_end, h=T, anti_windup="none")
    return StructureVersusODE(graph=graph, ode=ode, T=T,
                              max_speed_difference=float(np.max(np.abs(graph.y[:, 0] - ode.n))),
                              max_current_difference=float(np.max(np.abs(graph.y[:, 1] - ode.Id))))


def check_current_design(Ki, tau_i, p=PARAMETERS):
    """Self-check of the ACR parameters K_i and tau_i."""
    design = design_regulators(p)
    first = check_value("tau_i", tau_i, design.tau_i, rtol=1e-3,
                        alternatives=[(design.T_sum_i, "tau_i cancels the large armature lag Tl, not the small ones.")])
    if not first:
        return first
    return check_value("K_i", Ki, design.Ki, rtol=2e-3,
                       alternatives=[(design.KI, "that is K_I, the loop gain; K_i = K_I tau_i R/(Ks beta).")])


def check_speed_design(Kn, tau_n, p=PARAMETERS, h=5.0):
    """Self-check of the ASR parameters K_n and tau_n for the mid-frequency width h."""
    design = design_regulators(p, h)
    first = check_value("tau_n", tau_n, design.tau_n, rtol=2e-3)
    if not first:
        return first
    return check_value("K_n", Kn, design.Kn, rtol=2e-3,
                       alternatives=[(design.KN, "that is K_N, the loop gain; K_n = (h+1) beta Ce Tm/(2 h alpha R T_sum_n).")])


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def _shade_stages(ax, t1, t2, t_end):
    for (start, stop, label), shade in zip(((0.0, t1, "I"), (t1, t2, "II"), (t2, t_end, "III")),
                                           ("0.93", "0.85", "0.93")):
        if np.isfinite(start) and np.isfinite(stop):
            ax.axvspan(start, stop, color=shade, alpha=0.5, linewidth=0)
            ax.text(0.5 * (start + stop), 0.97, label, transform=ax.get_xaxis_transform(),
                    ha="center", va="top")


def plot_drive_start(start):
    """Lab 07: a start-up (a :class:`StartResult`), speed and armature current with the three stages shaded."""
    result, m = start.result, start.metrics
    p = PARAMETERS

    fig, (ax_n, ax_i) = subplots(2, 1, figsize=(8, 6), sharex=True)
    for ax in (ax_n, ax_i):
        _shade_stages(ax, m.t1, m.t2, result.t[-1])
    ax_n.plot(result.t, result.n, color="black")
    ax_n.axhline(p.nN, color="gray", linestyle=":", label=f"n* = {p.nN:g} r/min")
    ax_n.set(ylabel="speed n (r/min)", title="No-load start: I current rise, II constant current, III speed regulation")
    ax_n.legend(loc="lower right")
    ax_i.plot(result.t, result.Id, color="black")
    ax_i.axhline(p.Idm, color="gray", linestyle="--", label=f"I_dm = {p.Idm:g} A")
    ax_i.set(xlabel="t (s)", ylabel="armature current Id (A)")
    ax_i.legend(loc="center right")
    return fig


def plot_drive_phase(start):
    """Lab 07: phase plots of a start-up (a :class:`StartResult`), current against speed and speed
    error against its rate, one line per stage."""
    result, m = start.result, start.metrics
    p = PARAMETERS

    t = result.t
    masks = [t <= m.t1, (t > m.t1) & (t <= m.t2), t > m.t2]
    names = ["I current rise", "II constant current", "III speed regulation"]
    fig, (ax, ax_e) = subplots(1, 2, figsize=(11, 4.2))
    rate = np.gradient(result.n, t)
    for i, (mask, name) in enumerate(zip(masks, names)):
        style = line_style(i)
        style["markevery"] = max(1, int(mask.sum() // 12)) if style["marker"] else None
        ax.plot(result.n[mask], result.Id[mask], label=name, **style)
        ax_e.plot(p.nN - result.n[mask], rate[mask], label=name, **style)
    ax.set(xlabel="speed n (r/min)", ylabel="current Id (A)", title="Current against speed")
    ax.legend()
    ax_e.set(xlabel="speed error n* - n (r/min)", ylabel="dn/dt (r/min/s)", title="Speed phase plane")
    ax_e.legend()
    return fig


def plot_drive_windup(study):
    """Lab 07: no-load start with each anti-windup treatment of the regulators.

    ``study`` maps a treatment's name to its :class:`StartResult` (:func:`anti_windup_study`).
    """
    fig, ax = subplots()
    for i, (mode, entry) in enumerate(study.items()):
        result = entry.result
        ax.plot(result.t, result.n, label=f"{mode} (overshoot {entry.metrics.overshoot:.1f} %)", **line_style(i))
    ax.set(xlabel="t (s)", ylabel="speed n (r/min)", title="Anti-windup of the PI regulators, no-load start")
    ax.legend()
    return fig


def run():
    """Run lab 07 headless: every experiment, the key numbers and the three figures.

    Returns
    -------
    ExperimentResult
        ``data`` is a :class:`Lab07Results`; the figures draw ``data.start`` (start-up and phase
        plots) and ``data.windup``.
    """
    p = PARAMETERS
    design = design_regulators(p)
    start = no_load_start()
    loaded = rated_load_start()
    step = load_step()
    dip = grid_dip()
    windup = anti_windup_study()
    unlimited = no_asr_limit()
    seed = seed_acr()
    versus = structure_versus_ode()
    m = start.metrics
    summary = [
        ("K_I, K_i, tau_i", f"{design.KI:.1f} 1/s, {design.Ki:.3f}, {design.tau_i:.3f} s"),
        ("K_N, K_n, tau_n", f"{design.KN:.1f} 1/s^2, {design.Kn:.2f}, {design.tau_n:.4f} s"),
        ("Delta C_max / C_b (h = 5)", f"{100 * type2_disturbance_peak(design.h).ratio:.1f} %"),
        ("no-load start: Id peak / plateau (I_dm = 204 A)", f"{m.Id_peak:.1f} / {m.Id_plateau:.1f} A"),
        ("no-load start: sigma_n simulated / predicted", f"{m.overshoot:.2f} / {start.predicted:.2f} %"),
        ("no-load start: rise / settling time", f"{m.t_rise:.3f} / {m.t_settle:.3f} s"),
        ("rated-load start: sigma_n simulated / predicted",
         f"{loaded.metrics.overshoot:.2f} / {loaded.predicted:.2f} %"),
        ("load step I_N: speed dip / recovery", f"{step.dip:.1f} r/min / {step.recovery:.3f} s"),
        ("grid dip 10 %: speed dip / recovery", f"{dip.dip:.2f} r/min / {dip.recovery:.3f} s"),
    ]
    for mode, entry in windup.items():
        summary.append((f"anti-windup {mode}: sigma_n", f"{entry.metrics.overshoot:.2f} %"))
    summary.append(("no ASR limit: Id peak / I_N", f"{unlimited.peak_over_IN:.2f}"))
    summary.append(("seed ACR 0.292(0.018s+1)/(0.018s): Id peak", f"{seed.metrics.Id_peak:.1f} A"))
    summary.append(("structure graph vs ODE: max |dn| / |dId|",
                    f"{versus.max_speed_difference:.3f} r/min / {versus.max_current_difference:.3f} A"))
    data = Lab07Results(design=design, start=start, loaded=loaded, load_step=step, grid_dip=dip,
                        windup=windup, no_asr_limit=unlimited, seed_acr=seed, versus=versus)
    return ExperimentResult(
        summary=summary,
        figures=[Figure("lab07_start", plot_drive_start, data.start),
                 Figure("lab07_phase", plot_drive_phase, data.start),
                 Figure("lab07_windup", plot_drive_windup, data.windup)],
        data=data,
    )

