"""Lab 07: the double-loop DC motor speed drive (转速电流双闭环直流调速系统), seed 003's case study.

1. Design of ACR (type I) and ASR (type II, mid-frequency width h) by the engineering design
   method, printed as the textbook derivation, with the checks of its approximations.
2. No-load start to rated speed: the three stages (current rise, constant-current acceleration,
   speed regulation), current peak and plateau, speed overshoot against the design prediction.
3. A start with load, a load step at steady speed (speed dip and recovery), a grid-voltage dip.
4. The anti-windup treatment of the regulators and the removal of the ASR limit.
5. The seed's ACR 0.292 (0.018 s + 1)/(0.018 s) as an alternative set.
6. The same drive as a structure graph with saturation elements, against the ODE.

The notebook's parameters, declared with their rules in :data:`PARAMETERS` (defaults :data:`H`,
:data:`OVERLOAD`, :data:`Z`, :data:`H_SIM`): the mid-frequency width ``h`` of the speed loop, the
permitted overload factor ``overload`` (lambda = I_dm / I_N), the load factor ``z`` = I_dL / I_N
of the loaded start and the load step, and the RK4 step ``h_sim`` of the drive simulations. Every
experiment takes them (``p`` built by :func:`drive_parameters` from :data:`DRIVE`), and so does
every self-check of :data:`TASKS`.

Every experiment returns a frozen dataclass defined here: :class:`StartResult` with
its :class:`StartMetrics`, :class:`DisturbanceResult` (and :class:`GridDipResult`),
:class:`NoLimitResult`, :class:`SeedACRResult`, :class:`StructureVersusODE`; the anti-windup
study is a dict from the treatment's name to its :class:`StartResult`. The time series inside
are :class:`simlab.plants.dc_motor.DriveResult` (unpacks as ``t, n``). :func:`run` collects
everything in :class:`Lab07Results`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace

import numpy as np

from simlab.course import ExperimentResult, Figure
from simlab.course.check import (
    CheckResult,
    Mistake,
    Task,
    Tasks,
    all_of,
    check_array,
    check_value,
    row_factors,
)
from simlab.course.memo import cached
from simlab.course.parameters import Parameter, Parameters, divides, less_than, positive, rule
from simlab.plants.dc_motor import (
    ANTI_WINDUP,
    DriveParameters,
    DriveResult,
    RegulatorDesign,
    design_regulators,
    linear_closed_loop,
    predicted_speed_overshoot,
    simulate_drive,
    structure_graph,
    type2_disturbance_peak,
    type2_step_overshoot,
)
from simlab.plotting import line_style, subplots
from simlab.structure import StructureResult
from simlab.validation import as_finite_scalar, as_positive_scalar

__all__ = [
    # parameters and results
    "PARAMETERS", "use_parameters", "DRIVE", "H", "OVERLOAD", "Z", "H_SIM", "SEED_KI", "SEED_TAU_I",
    "drive_parameters", "start_span",
    "StartMetrics", "StartResult", "DisturbanceResult", "GridDipResult", "NoLimitResult",
    "SeedACRResult", "StructureVersusODE", "Lab07Results",
    # experiments
    "stages", "start_metrics", "no_load_start", "loaded_start", "load_step", "grid_dip",
    "anti_windup_study", "no_asr_limit", "seed_acr", "structure_versus_ode",
    # self-checks and the tasks
    "check_derived", "check_current_design", "check_speed_design", "check_seed_regulator",
    "check_predicted_overshoot", "check_start_metrics", "check_plateau_theory", "check_loaded_start",
    "check_steady_drop", "check_windup_integral", "check_structure_graph", "check_linear_loop",
    "TASKS", "MISTAKES", "check", "take",
    # run, figures
    "run", "plot_drive_start", "plot_drive_phase", "plot_drive_windup",
]

#: The drive of the textbook example (Chen Boshi), :class:`simlab.plants.dc_motor.DriveParameters`.
DRIVE = DriveParameters()
#: Mid-frequency width h of the type-II speed loop (the textbook's design).
H = 5.0
#: Permitted overload factor lambda = I_dm / I_N (the textbook's 1.5).
OVERLOAD = DRIVE.overload
#: Load factor z = I_dL / I_N of the loaded start and of the load step: 0.8, a load of 80 % of the
#: rated one (not 1: at z = 1 an answer that leaves out z, I_N where z I_N belongs, would be right by chance).
Z = 0.8
#: RK4 step of the drive simulations (s); it must divide 0.5 s.
H_SIM = 5e-5
#: The seed's current regulator 0.292 (0.018 s + 1)/(0.018 s): gain K_i and lead time constant tau_i (s).
SEED_KI, SEED_TAU_I = 0.292, 0.018


def _below_overload(margin):
    """Rule: z <= overload - margin, so that stage II of the loaded start ends within its run."""

    def test(value, values):
        overload = values.get("overload")
        if not isinstance(overload, numbers.Real) or isinstance(overload, (bool, np.bool_)):
            return True  # the overload factor's own rules report it
        return value <= overload - margin + 1e-12

    return rule(f"{{name}} <= overload - {margin:g} (the current left to accelerate the loaded motor, "
                f"(lambda - z) I_N, must be at least {margin:g} I_N)", test)


#: The notebook's parameters (实验参数), each with its unit, meaning and rule; set in the notebook's
#: parameter cell, right after the imports, and read from there by every self-check.
PARAMETERS = Parameters(
    Parameter("h", H, "", "mid-frequency width (中频宽) of the type-II speed loop",
              (rule("2 <= {name} <= 20 (below 2 the speed loop swings back into the ASR limit after the start; "
                    "above 20 it does not settle within the run)", lambda value, values: 2 <= value <= 20),),
              alternative=4.0),
    Parameter("overload", OVERLOAD, "", "permitted overload factor (过载倍数) lambda = I_dm / I_N",
              (rule("1 < {name} <= 2.5 (I_dm above I_N, and within what the converter can drive at rated speed)",
                    lambda value, values: 1 < value <= 2.5),), alternative=2.0),
    Parameter("z", Z, "", "load factor (负载系数) z = I_dL / I_N of the load step and the loaded start",
              (positive(), less_than("overload"), _below_overload(0.1)), alternative=0.5),
    Parameter("h_sim", H_SIM, "s", "RK4 step of the drive simulations",
              (positive(), divides(0.5), rule("{name} <= 0.0002 s (RK4 must resolve the converter lag Ts = 1.7 ms)",
                                              lambda value, values: value <= 2e-4)), alternative=1e-4),
)
use_parameters = PARAMETERS.use


def drive_parameters(overload=OVERLOAD):
    """The textbook drive with the permitted overload factor lambda = ``overload`` (I_dm = lambda I_N).

    Returns
    -------
    DriveParameters
        :data:`DRIVE` with ``overload`` replaced (I_dm and U*_im = beta I_dm follow).
    """
    return replace(DRIVE, overload=as_positive_scalar(overload, "overload"))


def start_span(p=DRIVE, z=0.0):
    """Length of a start-up run (s): stage II and 0.45 s after it, rounded up to a multiple of 0.5 s.

    Stage II lasts about t_II = n* Ce Tm / (R (lambda - z) I_N): the speed ramps up at the current
    limit against the load z I_N. The span is 1 s for the textbook's no-load start, and 1.5 s with
    the lab's default load (z = 0.8) and with the rated load (z = 1).
    """
    t_II = p.nN * p.Ce * p.Tm / (p.R * (p.overload - z) * p.IN)
    return 0.5 * math.ceil((t_II + 0.45) / 0.5)


def _load_factor(z, p, positive=False):
    """``z`` checked as a load factor: 0 <= z < lambda (z > 0 for a load step)."""
    z = as_finite_scalar(z, "z")
    if z < 0 or (positive and z == 0):
        raise ValueError(f"z must be {'positive' if positive else '>= 0'} (the load I_dL = z I_N), got {z!r}.")
    if z >= p.overload:
        raise ValueError(f"z must be below the overload factor lambda = {p.overload:g}: a load current z I_N "
                         f"at or above the current limit lambda I_N leaves no current to accelerate, got z = {z!r}.")
    return z


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

    Result of :func:`no_load_start` and :func:`loaded_start`, and the entries of
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
    parameters : DriveParameters
        The drive simulated (its ``overload`` is the lambda in use).
    design : RegulatorDesign
        The regulators used (its ``h`` is the mid-frequency width in use).
    load : float
        Load current I_dL applied from t = 0 (A); 0 for a no-load start.
    """

    result: DriveResult
    metrics: StartMetrics
    predicted: float
    parameters: DriveParameters
    design: RegulatorDesign
    load: float


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
    parameters : DriveParameters
        The drive simulated.
    load : float
        Load current I_dL (A): 0, a no-load start (the same fields as :class:`StartResult`, so
        that the start-up figures draw it).
    """

    design: RegulatorDesign
    result: DriveResult
    metrics: StartMetrics
    parameters: DriveParameters
    load: float = 0.0


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
        Start with the load I_dL = z I_N at the lab's default z = 0.8, :data:`Z` (:func:`loaded_start`).
    load_step : DisturbanceResult
        Load step I_dL = z I_N at steady speed, z = 0.8 (:func:`load_step`).
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
# Experiments. Each takes the drive ``p`` (see drive_parameters), the mid-frequency width ``h``
# of the speed loop and the RK4 step ``h_sim``: the notebook's parameters. The simulations are
# cached: called again with the same arguments (a self-check, a later cell, a slider position
# seen before) an experiment returns the result it computed, whose arrays are read-only.
# ---------------------------------------------------------------------------------------------


_cached = cached  # simlab.course.memo: one result per argument set, arrays read-only


def stages(result, p=DRIVE, limited=True):
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


def _settling_time(t, n, n_ref, band):
    """First time after which |n - n_ref| <= band n_ref for good (s); NaN if never within the run."""
    outside = np.flatnonzero(np.abs(n - n_ref) > band * n_ref)
    return float(t[outside[-1] + 1]) if outside.size and outside[-1] + 1 < len(t) else float("nan")


def start_metrics(result, n_ref, p=DRIVE, limited=True):
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
    return StartMetrics(
        Id_peak=float(np.max(Id)),
        Id_plateau=float(np.mean(Id[plateau])) if plateau.any() else float("nan"),
        overshoot=float(max(0.0, 100.0 * (np.max(n) - n_ref) / n_ref)),
        t_rise=float(t[rise[0]]) if rise.size else float("nan"),
        t_settle=_settling_time(t, n, n_ref, 0.02),
        t1=t1,
        t2=t2,
    )


@_cached
def no_load_start(anti_windup="analog", t_end=None, *, p=DRIVE, h=H, h_sim=H_SIM):
    """No-load start to rated speed: the simulation, its measures and the design prediction.

    Parameters
    ----------
    anti_windup : str
        Treatment of the PI integrators, one of :data:`simlab.plants.dc_motor.ANTI_WINDUP`.
    t_end : float, optional
        Length of the run (s); default :func:`start_span` (1 s for the textbook's drive).
    p : DriveParameters
    h : float
        Mid-frequency width of the speed loop (the regulators are designed for it).
    h_sim : float
        RK4 step (s).

    Returns
    -------
    StartResult
    """
    design = design_regulators(p, h)
    t_end = start_span(p) if t_end is None else t_end
    result = simulate_drive(p, design, t_end=t_end, h=h_sim, anti_windup=anti_windup)
    return StartResult(result=result, metrics=start_metrics(result, p.nN, p),
                       predicted=predicted_speed_overshoot(p, design, z=0.0), parameters=p, design=design, load=0.0)


@_cached
def loaded_start(z=Z, t_end=None, *, p=DRIVE, h=H, h_sim=H_SIM):
    """Start with the load current I_dL = z I_N applied from t = 0 (default :data:`Z` = 0.8, a load of
    80 % of the rated one; z = 1 is the rated load).

    ``z`` must lie in 0 <= z < lambda; the run lasts :func:`start_span` (1.5 s for z = 0.8 and for
    the rated load) unless ``t_end`` is given. Other arguments as :func:`no_load_start`.

    Returns
    -------
    StartResult
    """
    z = _load_factor(z, p)
    design = design_regulators(p, h)
    t_end = start_span(p, z) if t_end is None else t_end
    result = simulate_drive(p, design, t_end=t_end, h=h_sim, load=z * p.IN)
    return StartResult(result=result, metrics=start_metrics(result, p.nN, p),
                       predicted=predicted_speed_overshoot(p, design, z=z), parameters=p, design=design,
                       load=z * p.IN)


def _disturbance_result(kind, result, t_step, n_ref, band=0.01, **extra):
    """``kind`` (a DisturbanceResult class) with the dip and recovery of ``result`` after ``t_step``."""
    after = result.t >= t_step
    n_after = result.n[after]
    t_after = result.t[after]
    k = int(np.argmin(n_after))
    dip = float(n_ref - n_after[k])
    outside = np.flatnonzero(np.abs(n_after - n_ref) > band * dip) if dip > 0 else np.array([], int)
    settled = outside.size and outside[-1] + 1 < len(t_after)
    recovery = float(t_after[outside[-1] + 1] - t_step) if settled else float("nan")
    return kind(result=result, t_step=t_step, dip=dip, dip_percent=100.0 * dip / n_ref,
                t_dip=float(t_after[k] - t_step), recovery=recovery,
                final_error=float(n_ref - result.n[-1]), **extra)


@_cached
def load_step(t_step=None, t_end=None, *, z=Z, p=DRIVE, h=H, h_sim=H_SIM):
    """A load step I_dL = z I_N at steady speed: the dynamic speed dip and its recovery time.

    The step comes once the no-load start has settled, at ``t_step`` = :func:`start_span` (1 s for
    the textbook's drive); the run ends 1 s later unless ``t_end`` is given. Recovery time: from
    the step until the speed stays within 1 % of the dip around n*. The type-II speed loop leaves
    no steady-state error (``final_error``).

    Returns
    -------
    DisturbanceResult
    """
    z = _load_factor(z, p, positive=True)
    t_step = start_span(p) if t_step is None else t_step
    t_end = t_step + 1.0 if t_end is None else t_end
    result = simulate_drive(p, design_regulators(p, h), t_end=t_end, h=h_sim,
                            load=lambda t: z * p.IN if t >= t_step else 0.0)
    return _disturbance_result(DisturbanceResult, result, t_step, p.nN)


@_cached
def grid_dip(t_step=None, t_end=None, fraction=0.1, *, p=DRIVE, h=H, h_sim=H_SIM):
    """A grid-voltage dip: Delta U_d = -fraction * U_N on the converter output from t_step, at no load.

    ``t_step`` and ``t_end`` as in :func:`load_step`.

    Returns
    -------
    GridDipResult
    """
    t_step = start_span(p) if t_step is None else t_step
    t_end = t_step + 1.0 if t_end is None else t_end
    result = simulate_drive(p, design_regulators(p, h), t_end=t_end, h=h_sim,
                            grid=lambda t: -fraction * p.UN if t >= t_step else 0.0)
    return _disturbance_result(GridDipResult, result, t_step, p.nN, fraction=fraction)


def anti_windup_study(t_end=None, *, p=DRIVE, h=H, h_sim=H_SIM):
    """No-load start with each anti-windup treatment: overshoot and settling.

    Returns
    -------
    dict of str to StartResult
        Keyed by the treatment's name, in the order of
        :data:`simlab.plants.dc_motor.ANTI_WINDUP` ("none", "analog", "clamping",
        "back-calculation").
    """
    return {mode: no_load_start(mode, t_end, p=p, h=h, h_sim=h_sim) for mode in ANTI_WINDUP}


@_cached
def no_asr_limit(t_end=None, *, p=DRIVE, h=H, h_sim=H_SIM):
    """No-load start without the ASR output limit: the current is no longer limited.

    Returns
    -------
    NoLimitResult
    """
    t_end = start_span(p) if t_end is None else t_end
    result = simulate_drive(p, design_regulators(p, h), t_end=t_end, h=h_sim, asr_limit=False)
    return NoLimitResult(result=result, metrics=start_metrics(result, p.nN, p, limited=False),
                         peak_over_IN=float(np.max(result.Id) / p.IN))


@_cached
def seed_acr(t_end=None, *, p=DRIVE, h=H, h_sim=H_SIM):
    """The seed's ACR 0.292 (0.018 s + 1)/(0.018 s) in place of the designed one (ASR kept).

    Returns
    -------
    SeedACRResult
    """
    design = replace(design_regulators(p, h), Ki=SEED_KI, tau_i=SEED_TAU_I)
    t_end = start_span(p) if t_end is None else t_end
    result = simulate_drive(p, design, t_end=t_end, h=h_sim)
    return SeedACRResult(design=design, result=result, metrics=start_metrics(result, p.nN, p), parameters=p)


@_cached
def structure_versus_ode(T=2e-5, t_end=0.8, *, p=DRIVE, h=H):
    """The drive as a structure graph (per-element, saturation on ASR and ACR outputs) against the ODE.

    Both with "none" anti-windup: a saturation element on a PI element's output lets the element's
    integrator run on, exactly what the ODE's "none" does. Both run with the step ``T``.

    Returns
    -------
    StructureVersusODE
        The two results and the max differences of speed and current.
    """
    from simlab.elementwise import simulate_elements
    from simlab.nonlinear import Saturation

    design = design_regulators(p, h)
    P, W, W0, Wc = structure_graph(p, design)
    graph = simulate_elements(P, W, W0, Wc, [p.alpha * p.nN, 0.0, 0.0], (0.0, t_end), T, hold="foh",
                              nonlinear={(3, "output"): Saturation(p.Uim), (6, "output"): Saturation(p.Ucm)})
    ode = simulate_drive(p, design, t_end=t_end, h=T, anti_windup="none")
    return StructureVersusODE(graph=graph, ode=ode, T=T,
                              max_speed_difference=float(np.max(np.abs(graph.y[:, 0] - ode.n))),
                              max_current_difference=float(np.max(np.abs(graph.y[:, 1] - ode.Id))))


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the answers of its task (the notebook's names, in order) and the
# notebook's parameters h, overload, z, h_sim as keywords (the lab's values by default), and
# computes its reference from them: a correct answer stays correct when a parameter changes.
# ---------------------------------------------------------------------------------------------


def _start(anti_windup="analog", z=0.0, h=H, overload=OVERLOAD, h_sim=H_SIM):
    """The start-up for the notebook's parameters (the checks' reference runs; cached, so the same
    runs as the notebook's): no load for ``z = 0``, else the loaded start with "analog" regulators."""
    p = drive_parameters(overload)
    if z:
        return loaded_start(z, p=p, h=h, h_sim=h_sim)
    return no_load_start(anti_windup, p=p, h=h, h_sim=h_sim)


def _default_value(value, default, what, name, lab_value):
    """The alternative ``[(value, hint)]`` of a result computed with a parameter's default, where the
    notebook's value differs (a number typed in where the parameter belongs); ``[]`` otherwise."""
    if np.isclose(lab_value, default):
        return []
    return [(value, f"that is {what} for {name} = {default:g}, the lab's default; the parameter cell sets "
                    f"{name} = {lab_value:g}.")]


def check_derived(Idm, Uim, delta_nN, GD2, overload=OVERLOAD):
    """Self-check of I_dm, U*_im, Delta n_N and the flywheel moment GD^2 (Task 1)."""
    p = drive_parameters(overload)
    Cm = 30 / np.pi * p.Ce  # torque constant (N m/A) for Ce in V min/r
    return all_of("derived quantities of the drive", [
        check_value("I_dm", Idm, p.Idm, unit="A", alternatives=[(p.IN, "that is I_N; I_dm = lambda I_N."),
                                                                *_default_value(OVERLOAD * p.IN, OVERLOAD, "I_dm",
                                                                                 "lambda", overload)]),
        check_value("U*_im", Uim, p.Uim, unit="V", alternatives=[
            (p.beta * p.IN, "U*_im = beta I_dm: the ASR limit sets the current limit, not the rated current.")]),
        check_value("Delta n_N", delta_nN, p.delta_nN, unit="r/min", alternatives=[
            (p.Idm * p.R / p.Ce, "that is the drop at I_dm; Delta n_N is the open-loop drop at the rated current "
             "I_N: I_N R / Ce.")]),
        check_value("GD^2", GD2, 375 * p.Ce * Cm * p.Tm / p.R, rtol=1e-4, unit="N m^2", alternatives=[
            (375 * p.Ce**2 * p.Tm / p.R, "the torque constant is C_m = (30/pi) C_e, not C_e.")]),
    ])


def check_current_design(T_sum_i, K_I, tau_i, K_i):
    """Self-check of the current loop: T_sum_i, K_I and the ACR parameters tau_i, K_i (Task 2).

    The current loop depends on none of the notebook's parameters (h, lambda, z).
    """
    p, d = DRIVE, design_regulators(DRIVE)
    return all_of("current loop and ACR", [
        check_value("T_sum_i", T_sum_i, d.T_sum_i, unit="s", alternatives=[
            (p.Ts + p.Ton, "T_sum_i merges the converter lag Ts with the current filter Toi, not with the "
             "speed filter Ton."),
            (p.Ts, "the current filter Toi is a small lag too: T_sum_i = Ts + Toi."),
            (p.Ts + p.Toi + p.Tl, "only the small lags are merged; the large armature lag Tl is cancelled "
             "by the ACR zero.")]),
        check_value("K_I", K_I, d.KI, unit="1/s", alternatives=[
            (1 / d.T_sum_i, "the design asks for K_I T_sum_i = 0.5 (zeta = 0.707), not 1.")]),
        check_value("tau_i", tau_i, d.tau_i, rtol=1e-3, unit="s", alternatives=[
            (d.T_sum_i, "tau_i cancels the large armature lag Tl, not the small ones."),
            (SEED_TAU_I, "that is the seed's tau_i = 0.018 s: it cancels the armature lag of the seed's drive, "
             f"not ours (Tl = {p.Tl:g} s).")]),
        check_value("K_i", K_i, d.Ki, rtol=2e-3, alternatives=[
            (d.KI, "that is K_I, the loop gain; K_i = K_I tau_i R/(Ks beta)."),
            (d.Ki * p.beta, "did you leave out beta? K_I = K_i Ks beta/(tau_i R): the current is fed back "
             "through beta, so K_i = K_I tau_i R/(Ks beta).")]),
    ])


def check_speed_design(T_sum_n, tau_n, K_N, K_n, h=H):
    """Self-check of the speed loop: T_sum_n, tau_n, K_N and the ASR gain K_n for the mid-frequency width h (Task 3)."""
    p, d, lab_default = DRIVE, design_regulators(DRIVE, h), design_regulators(DRIVE, H)
    return all_of(f"speed loop and ASR (h = {h:g})", [
        check_value("T_sum_n", T_sum_n, d.T_sum_n, unit="s", alternatives=[
            (d.T_sum_i + p.Ton, "the current loop enters as the lag 1/K_I = 2 T_sum_i, not T_sum_i.")]),
        check_value("tau_n", tau_n, d.tau_n, rtol=2e-3, unit="s", alternatives=[
            (d.T_sum_n, f"tau_n = h T_sum_n: the ASR zero sits h = {h:g} times below the corner 1/T_sum_n."),
            *_default_value(lab_default.tau_n, H, "tau_n", "h", h)]),
        check_value("K_N", K_N, d.KN, unit="1/s^2", alternatives=[
            ((h + 1) / (2 * h * d.T_sum_n**2), "K_N = (h+1)/(2 h^2 T_sum_n^2): h squared."),
            ((h + 1) / (2 * h**2 * d.T_sum_n), "K_N = (h+1)/(2 h^2 T_sum_n^2): T_sum_n squared as well (K_N has "
             "the unit 1/s^2)."),
            *_default_value(lab_default.KN, H, "K_N", "h", h)]),
        check_value("K_n", K_n, d.Kn, rtol=2e-3, alternatives=[
            (d.KN, "that is K_N, the loop gain; K_n = (h+1) beta Ce Tm/(2 h alpha R T_sum_n)."),
            *_default_value(lab_default.Kn, H, "K_n", "h", h)]),
    ])


def check_seed_regulator(Tl_seed, integral_time_seed, integral_time_design, KT_seed):
    """Self-check of Task 4: the T_l the seed's ACR assumes, the two integral times, K_I T_sum_i of the seed's ACR."""
    p, d = DRIVE, design_regulators(DRIVE)
    KI_seed = SEED_KI * p.Ks * p.beta / (SEED_TAU_I * p.R)  # K_I = K_i Ks beta/(tau_i R)
    return all_of("the seed's ACR", [
        check_value("T_l of the seed", Tl_seed, SEED_TAU_I, unit="s", alternatives=[
            (SEED_KI, "that is the gain; the time constant is the coefficient of s in the numerator.")]),
        check_value("integral time, seed", integral_time_seed, SEED_TAU_I / SEED_KI, unit="s", alternatives=[
            (SEED_KI / SEED_TAU_I, "K (tau s + 1)/(tau s) = (tau s + 1)/((tau/K) s): the integral time is tau/K.")]),
        check_value("integral time, design", integral_time_design, d.tau_i / d.Ki, unit="s"),
        check_value("K_I T_sum_i (seed's ACR)", KT_seed, KI_seed * d.T_sum_i, rtol=1e-4, alternatives=[
            (SEED_KI * p.Ks * p.beta / (p.Tl * p.R) * d.T_sum_i, "the seed's regulator has its own tau_i = 0.018 s "
             "in K_I = K_i Ks beta/(tau_i R).")]),
    ])


def check_predicted_overshoot(sigma_n_predicted, h=H, overload=OVERLOAD):
    """Self-check of the predicted no-load overshoot on leaving saturation, in percent (Task 5)."""
    p = drive_parameters(overload)
    reference = predicted_speed_overshoot(p, design_regulators(p, h), z=0.0)
    alternatives = [(reference / 2, "the base value is C_b = 2 F K2 T: the factor 2."),
                    (reference / 100, "give it in percent."),
                    (reference * p.nN / 100, "that is Delta C_max in r/min; sigma_n is Delta C_max / n*, in percent."),
                    (type2_step_overshoot(h), "that is the linear step overshoot of the type-II loop (the table's "
                     "first column); in a start the ASR is saturated, and the overshoot is the disturbance peak on "
                     "leaving saturation, sigma_n = Delta C_max / n*."),
                    *_default_value(predicted_speed_overshoot(p, design_regulators(p, H), z=0.0), H,
                                     "the prediction", "h", h),
                    *_default_value(predicted_speed_overshoot(drive_parameters(OVERLOAD), design_regulators(p, h)),
                                     OVERLOAD, "the prediction", "lambda", overload)]
    return check_value(f"predicted sigma_n (percent, h = {h:g}, lambda = {overload:g})", sigma_n_predicted,
                       reference, rtol=1e-4, alternatives=alternatives)


def check_start_metrics(t1, t2, Id_peak, Id_plateau, overshoot, t_rise, t_settle, h=H, overload=OVERLOAD,
                        h_sim=H_SIM):
    """Self-check of the measures of the no-load start against :func:`start_metrics` (Task 6a).

    Times agree to within two RK4 steps.
    """
    start = _start("analog", 0.0, h, overload, h_sim)
    result, m, p = start.result, start.metrics, start.parameters
    t, atol = result.t, 2 * h_sim
    stage_II = (t >= m.t1) & (t <= m.t2)
    return all_of("measures of the no-load start", [
        check_value("t1", t1, m.t1, rtol=0, atol=atol, unit="s", alternatives=[
            (t[np.flatnonzero(result.Id >= p.Idm)[0]], "stage I ends when Id first reaches 0.95 I_dm, not I_dm.")]),
        check_value("t2", t2, m.t2, rtol=0, atol=atol, unit="s", alternatives=[
            (m.t_rise, "that is the rise time, the first n >= n*; the ASR leaves its limit only later, when its "
             "error changes sign (after the filtered speed has passed n*): the first sample after the last "
             "limited one.")]),
        check_value("Id_peak", Id_peak, m.Id_peak, rtol=1e-6, unit="A"),
        check_value("Id_plateau", Id_plateau, m.Id_plateau, rtol=1e-3, unit="A", alternatives=[
            (np.mean(result.Id[stage_II]), "that is the mean over the whole of stage II; take its second half, "
             "(t1 + t2)/2 <= t <= t2, after the current loop's own transient.")]),
        check_value("overshoot", overshoot, m.overshoot, rtol=1e-6, alternatives=[
            (m.overshoot / 100, "give it in percent."),
            (100 * (result.n[-1] - p.nN) / p.nN, "that is the speed error at the end of the run; the overshoot is "
             "the largest speed above n*, 100 (max n - n*)/n*.")]),
        check_value("t_rise", t_rise, m.t_rise, rtol=0, atol=atol, unit="s"),
        check_value("t_settle", t_settle, m.t_settle, rtol=0, atol=atol, unit="s", alternatives=[
            (_settling_time(t, result.n, p.nN, 0.05), "that is the settling time into a +-5 % band; the lab "
             "uses +-2 % of n*."),
            (t[np.flatnonzero(np.abs(result.n - p.nN) <= 0.02 * p.nN)[0]], "that is the time n first enters the "
             "+-2 % band; the settling time is the time after which it stays inside for good (the sample after "
             "the last one outside).")]),
    ])


def check_plateau_theory(Id_plateau_theory, h=H, overload=OVERLOAD, h_sim=H_SIM):
    """Self-check of the plateau current of stage II derived by hand, against the simulated plateau (Task 6d)."""
    start = _start("analog", 0.0, h, overload, h_sim)
    p, KI = start.parameters, start.design.KI
    return check_value("Id_plateau (theory)", Id_plateau_theory, start.metrics.Id_plateau, rtol=1e-3, unit="A",
                       alternatives=[
                           (p.Idm - p.Idm / (KI * p.Tm), "the slope a = R I_d / Tm depends on the plateau current "
                            "itself, not on I_dm: solve I_dm - I_d = I_d / (K_I Tm) for I_d."),
                           (p.Idm, "that is I_dm: the ramp of the back-EMF leaves an error in the type-I current "
                            "loop.")])


def _stage_II_time(p, current):
    """Duration of stage II, n* / (dn/dt) with dn/dt = R/(Ce Tm) x the accelerating current (s)."""
    return p.nN * p.Ce * p.Tm / (p.R * current)


def _loaded_plateau(p, KI, z):
    """Plateau current of stage II under the load z I_N, Task 6d in general (A):
    I_d = (I_dm + I_dL/(K_I Tm))/(1 + 1/(K_I Tm))."""
    c = 1 / (KI * p.Tm)
    return (p.Idm + c * z * p.IN) / (1 + c)


def _without_z(value, z, hint):
    """The alternative ``[(value, hint)]`` of an answer that leaves out z (I_N where z I_N belongs);
    ``[]`` at z = 1, where the two agree and nothing can tell them apart."""
    return [] if np.isclose(z, 1.0) else [(value, hint)]


def check_loaded_start(sigma_n_loaded, t_II_no_load, t_II_loaded, h=H, overload=OVERLOAD, z=Z, h_sim=H_SIM):
    """Self-check of the predicted overshoot with the load z I_N and the two stage-II estimates (Task 7a).

    The stage-II durations are compared with the equation of motion at the simulated plateau
    currents. An answer that leaves out z (the rated load I_N where z I_N belongs) gets its own hint.
    """
    free, loaded = _start("analog", 0.0, h, overload, h_sim), _start("analog", z, h, overload, h_sim)
    p, load, KI = loaded.parameters, loaded.load, loaded.design.KI
    plateau_free, plateau_loaded = free.metrics.Id_plateau, loaded.metrics.Id_plateau
    no_load_plateau = p.Idm / (1 + 1 / (KI * p.Tm))  # Task 6d
    at_rated, at_default = (predicted_speed_overshoot(p, loaded.design, z=value) for value in (1.0, Z))
    load_text = f"the load is I_dL = z I_N = {load:g} A (z = {z:g})"
    return all_of(f"start with the load z = {z:g}", [
        check_value(f"sigma_n, z = {z:g}", sigma_n_loaded, loaded.predicted, rtol=1e-4, alternatives=[
            (free.predicted, "that is the no-load prediction: the excess current is (lambda - z) I_N."),
            *_without_z(at_rated, z, f"that is the prediction for the rated load I_N: z is left out; the excess "
                        f"current is (lambda - z) I_N, {load_text}."),
            *_default_value(at_default, Z, "the prediction", "z", z)]),
        check_value("stage II, no load", t_II_no_load, _stage_II_time(p, plateau_free), rtol=2e-3, unit="s",
                    alternatives=[(_stage_II_time(p, p.Idm), "close; but the plateau current is below I_dm "
                                   "(Task 6d).")]),
        check_value("stage II, with load", t_II_loaded, _stage_II_time(p, plateau_loaded - load), rtol=2e-3,
                    unit="s", alternatives=[
                        (_stage_II_time(p, plateau_loaded), "only I_d - I_dL accelerates the motor."),
                        (_stage_II_time(p, p.Idm - load), "close; but the plateau current is below I_dm (Task 6d, "
                         "with the load)."),
                        (_stage_II_time(p, no_load_plateau - load), "that uses the no-load plateau; the plateau "
                         "with the load is higher: I_d = (I_dm + I_dL/(K_I Tm))/(1 + 1/(K_I Tm)) (Task 6d, in "
                         "general)."),
                        *_without_z(_stage_II_time(p, _loaded_plateau(p, KI, 1.0) - p.IN), z,
                                    f"that is the duration under the rated load I_N: z is left out; {load_text}, "
                                    "in the plateau and in the accelerating current I_d - I_dL."),
                        *_without_z(_stage_II_time(p, _loaded_plateau(p, KI, z) - p.IN), z,
                                    "z is left out of the accelerating current: it is I_d - I_dL, not I_d - I_N; "
                                    f"{load_text}."),
                        *_without_z(_stage_II_time(p, _loaded_plateau(p, KI, 1.0) - load), z,
                                    "z is left out of the plateau: I_d = (I_dm + I_dL/(K_I Tm))/(1 + 1/(K_I Tm)) "
                                    f"with I_dL = z I_N, not I_N; {load_text}."),
                        *_default_value(_stage_II_time(p, _loaded_plateau(p, KI, Z) - Z * p.IN), Z, "the duration",
                                        "z", z)]),
    ])


def check_steady_drop(dn_open_loop, dn_P_asr, h=H, z=Z):
    """Self-check of the steady speed drops under the load z I_N: open loop and P-ASR (Task 7b).

    An answer that leaves out z (the rated load I_N where z I_N belongs) gets its own hint.
    """
    p, d = DRIVE, design_regulators(DRIVE, h)
    load = z * p.IN
    load_text = f"the load is I_dL = z I_N = {load:g} A (z = {z:g})"
    return all_of(f"steady speed drop under I_dL = {load:g} A", [
        check_value("open-loop drop", dn_open_loop, load * p.R / p.Ce, unit="r/min", alternatives=[
            *_without_z(p.IN * p.R / p.Ce, z, f"that is Delta n_N, the drop at the rated current I_N: z is left "
                        f"out; {load_text}."),
            *_default_value(Z * p.IN * p.R / p.Ce, Z, "the drop", "z", z)]),
        check_value("drop with a P-ASR", dn_P_asr, p.beta * load / (d.Kn * p.alpha), rtol=1e-4, unit="r/min",
                    alternatives=[(load * p.R / p.Ce / (1 + d.Kn), "the loop gain of the P-ASR is K_n alpha / beta, "
                                   "from speed error to current; the drop is beta I_dL / (K_n alpha)."),
                                  *_without_z(p.beta * p.IN / (d.Kn * p.alpha), z, "that is the drop under the "
                                              f"rated current I_N: z is left out; {load_text}."),
                                  *_default_value(p.beta * Z * p.IN / (d.Kn * p.alpha), Z, "the drop", "z", z)]),
    ])


def check_windup_integral(I_n_at_rise, I_n_estimate, h=H, overload=OVERLOAD, h_sim=H_SIM):
    """Self-check of the wound-up ASR integral at the rise time, read and estimated (Task 8a)."""
    windup, analog = _start("none", 0.0, h, overload, h_sim), _start("analog", 0.0, h, overload, h_sim)
    p, d = windup.parameters, windup.design
    k_rise = np.flatnonzero(windup.result.n >= p.nN)[0]
    triangle = p.alpha * p.nN * windup.metrics.t_rise / 2  # area under the error, U*n t_rise / 2
    return all_of("ASR integral at the rise time", [
        check_value("I_n at the rise time", I_n_at_rise, windup.result.states[k_rise, 2], unit="V", alternatives=[
            (analog.result.states[np.flatnonzero(analog.result.n >= p.nN)[0], 2], "that is the 'analog' run, "
             "whose integral is limited; read the 'none' run."),
            (windup.result.Ui_ref[k_rise], "that is the ASR output, held at its limit U*_im; its integral is the "
             "state states[:, 2]."),
            (windup.result.states[k_rise, 5], "that is the ACR's integral, states[:, 5]; the ASR's is states[:, 2].")]),
        check_value("triangle estimate", I_n_estimate, d.Kn / d.tau_n * triangle, rtol=1e-3, unit="V",
                    alternatives=[(d.Kn * triangle, "the integral gain of K (tau s + 1)/(tau s) is K / tau."),
                                  (d.Kn / d.tau_n * 2 * triangle, "the error falls from alpha n* to zero: its area "
                                   "is a triangle, half the rectangle alpha n* t_rise."),
                                  (d.Kn / d.tau_n * triangle / p.alpha, "the ASR error is a voltage: the reference "
                                   "is U*_n = alpha n*, not n* in r/min.")]),
    ])


#: The nine elements of the drive's structure graph, in order.
ELEMENTS = ("speed reference filter", "speed feedback filter", "ASR", "current reference filter",
            "current feedback filter", "ACR", "converter", "armature", "mechanics")


def _row_hint(P_drive, P_ref):
    """A hint for the first row of P that is the right row with two of its entries swapped."""
    swaps = (([2, 3, 0, 1], "numerator and denominator swapped"),
             ([0, 1, 3, 2], "C and D swapped: C is the constant term of the numerator, D the coefficient of s"),
             ([1, 0, 2, 3], "A and B swapped: A is the constant term of the denominator, B the coefficient of s"),
             ([1, 0, 3, 2], "the coefficients of s come after the constant terms"))
    for i, row in enumerate(P_drive):
        if np.allclose(row, P_ref[i]):
            continue
        for order, what in swaps:
            if np.allclose(row, P_ref[i, order]):
                return f"Row {i + 1} ({ELEMENTS[i]}): {what}; a row is [A, B, C, D] of (C + D s)/(A + B s)."
        return None
    return None


def _check_graph_matrix(title, answer, reference, alternatives, hint_for):
    """check_array on a matrix of the graph, with a structural hint where it explains the difference."""
    result = check_array(title, answer, reference, what="entries", alternatives=alternatives)
    if result.passed or "differ from the reference" not in result.message:
        return result
    hint = hint_for(np.asarray(answer, dtype=float), reference)
    return CheckResult(False, title, f"{result.message} {hint}") if hint else result


def _sign_hint(W_drive, W_ref):
    """A hint when W differs from the reference by signs only (a feedback path entered with +)."""
    flipped = np.argwhere(~np.isclose(W_drive, W_ref))
    if not np.allclose(np.abs(W_drive), np.abs(W_ref)):
        return None
    i, j = flipped[0]
    return (f"W[{i}, {j}] (from {ELEMENTS[j]} to {ELEMENTS[i]}) has the wrong sign: the feedback paths "
            "(speed, current, back-EMF) enter with a minus sign.")


def _rows_as_reference(P_drive, P_ref):
    """``P_drive`` with each row that is a multiple k != 0 of the reference row replaced by that row.

    A row [A, B, C, D] and k [A, B, C, D] are the same element (C + D s)/(A + B s): R/(Ce Tm s) is
    [0, Ce Tm, R, 0] or [0, 1, R/(Ce Tm), 0]. Answers that are not a real array of P's shape are
    returned unchanged (check_array explains them).
    """
    factors = row_factors(P_drive, P_ref)
    if factors is None:
        return P_drive
    answer = np.array(P_drive, dtype=float)
    multiples = ~np.isnan(factors)
    answer[multiples] = np.asarray(P_ref, dtype=float)[multiples]
    return answer


def check_structure_graph(P_drive, W_drive, h=H):
    """Self-check of the structure graph's P (9 x 4) and W (9 x 9) with the regulators for h (Task 9).

    A row of P may be any multiple k != 0 of the reference row: it is the same element.
    """
    P_ref, W_ref, _, _ = structure_graph(DRIVE, design_regulators(DRIVE, h))
    return all_of("structure graph of the drive", [
        _check_graph_matrix("P_drive", _rows_as_reference(P_drive, P_ref), P_ref, [
            (P_ref[:, [2, 3, 0, 1]], "numerator and denominator swapped: rows are [A, B, C, D] of "
             "(C + D s)/(A + B s).")],
            _row_hint),
        _check_graph_matrix("W_drive", W_drive, W_ref, [
            (W_ref.T, "W is transposed: W[i, j] is the gain from the output of element j to the input of element i."),
            (np.abs(W_ref), "the feedback paths (speed, current, back-EMF) enter with a minus sign.")],
            _sign_hint),
    ])


#: Frequencies (rad/s) at which Task 10 compares the frequency responses.
FREQUENCIES = np.array([1.0, 10.0, 30.0, 100.0, 300.0, 1000.0])


def _real_and_imaginary(values):
    """Complex values as an array of shape (M, 2): real and imaginary parts side by side."""
    return np.column_stack([values.real, values.imag])


def _closed_loop_at(s, p, d, back_emf=True, current_reference_filter=True):
    """n/n*(s) of the linear drive evaluated at the complex points ``s``, block by block (Task 10's hints).

    ``back_emf=False`` leaves out the back-EMF loop of the current plant, ``current_reference_filter=False``
    the reference filter 1/(Toi s + 1) in front of the current loop: what a student's loop without
    them gives.
    """
    acr = d.Ki * (d.tau_i * s + 1) / (d.tau_i * s)
    asr = d.Kn * (d.tau_n * s + 1) / (d.tau_n * s)
    armature = (1 / p.R) / (p.Tl * s + 1)
    mechanics = p.R / (p.Ce * p.Tm * s)
    plant = armature / (1 + armature * mechanics * p.Ce) if back_emf else armature
    forward = acr * p.Ks / (p.Ts * s + 1) * plant
    current_loop = forward / (1 + forward * p.beta / (p.Toi * s + 1))
    if current_reference_filter:
        current_loop = current_loop / (p.Toi * s + 1)
    speed_forward = asr * current_loop * mechanics
    return p.alpha / (p.Ton * s + 1) * speed_forward / (1 + speed_forward * p.alpha / (p.Ton * s + 1))


def check_linear_loop(G_control, h=H):
    """Self-check of the python-control closed loop n/n* against dc_motor.linear_closed_loop at six
    frequencies (Task 10)."""
    p = DRIVE
    d = design_regulators(p, h)
    num, den = linear_closed_loop(p, d)
    s = 1j * FREQUENCIES
    reference = np.polyval(num, s) / np.polyval(den, s)
    title = "n/n*(j w)"
    try:
        answer = np.array([complex(np.squeeze(G_control(sk))) for sk in s])
    except (TypeError, ValueError):
        return CheckResult(False, title, f"expected a transfer function of python-control (built from "
                           f"s = control.tf('s')), got {type(G_control).__name__}.")
    as_real = _real_and_imaginary
    filtered = p.Ton * s + 1  # the speed reference filter
    return check_array(title, as_real(answer), as_real(reference), rtol=1e-8, atol=1e-12, what="values",
                       alternatives=[
                           (as_real(reference * filtered), "the reference filter 1/(Ton s + 1) in front of the "
                            "speed loop is missing."),
                           (as_real(reference / p.alpha), "the reference is U*n = alpha n*: the factor alpha is "
                            "missing."),
                           (as_real(reference * filtered / p.alpha), "from n* the reference passes alpha/(Ton s + 1)."),
                           (as_real(_closed_loop_at(s, p, d, back_emf=False)), "the back-EMF loop is missing: the "
                            "armature current sees Ud0 - Ce n, so Id/Ud0 = feedback(armature, mechanics * Ce)."),
                           (as_real(_closed_loop_at(s, p, d, current_reference_filter=False)), "the current "
                            "reference filter 1/(Toi s + 1) in front of the current loop is missing.")])


# ---------------------------------------------------------------------------------------------
# References: the answers of each task for the notebook's parameters, for later cells
# (Tasks.take) when a task is not done yet.
# ---------------------------------------------------------------------------------------------


def _derived_reference(overload=OVERLOAD):
    p = drive_parameters(overload)
    Cm = 30 / np.pi * p.Ce
    return {"Idm": p.Idm, "Uim": p.Uim, "delta_nN": p.delta_nN, "Cm": Cm, "GD2": 375 * p.Ce * Cm * p.Tm / p.R}


def _current_reference():
    d = design_regulators(DRIVE)
    return {"T_sum_i": d.T_sum_i, "K_I": d.KI, "tau_i": d.tau_i, "K_i": d.Ki}


def _speed_reference(h=H):
    d = design_regulators(DRIVE, h)
    return {"T_sum_n": d.T_sum_n, "tau_n": d.tau_n, "K_N": d.KN, "K_n": d.Kn}


def _seed_reference():
    p, d = DRIVE, design_regulators(DRIVE)
    return {"Tl_seed": SEED_TAU_I, "integral_time_seed": SEED_TAU_I / SEED_KI,
            "integral_time_design": d.tau_i / d.Ki,
            "KT_seed": SEED_KI * p.Ks * p.beta / (SEED_TAU_I * p.R) * d.T_sum_i}


def _prediction_reference(h=H, overload=OVERLOAD):
    p = drive_parameters(overload)
    d = design_regulators(p, h)
    ratio = type2_disturbance_peak(h).ratio
    C_b = 2 * p.overload * p.delta_nN * d.T_sum_n / p.Tm
    return {"ratio_h": ratio, "C_b": C_b, "sigma_n_predicted": 100 * ratio * C_b / p.nN}


def _start_reference(h=H, overload=OVERLOAD, h_sim=H_SIM):
    m = _start("analog", 0.0, h, overload, h_sim).metrics
    return {name: getattr(m, name) for name in ("t1", "t2", "Id_peak", "Id_plateau", "overshoot", "t_rise", "t_settle")}


def _plateau_reference(h=H, overload=OVERLOAD, h_sim=H_SIM):
    p, d = drive_parameters(overload), design_regulators(DRIVE, h)
    return {"Id_plateau_theory": p.Idm / (1 + 1 / (d.KI * p.Tm))}


def _loaded_reference(h=H, overload=OVERLOAD, z=Z, h_sim=H_SIM):
    p, d = drive_parameters(overload), design_regulators(DRIVE, h)
    c = 1 / (d.KI * p.Tm)  # (I_dm - I_d)/I_d at no load, Task 6d
    plateau = (p.Idm + c * z * p.IN) / (1 + c)
    return {"sigma_n_loaded": predicted_speed_overshoot(p, d, z=z), "plateau_loaded": plateau,
            "t_II_no_load": _stage_II_time(p, p.Idm / (1 + c)), "t_II_loaded": _stage_II_time(p, plateau - z * p.IN)}


def _drop_reference(h=H, z=Z):
    p, d = DRIVE, design_regulators(DRIVE, h)
    return {"dn_open_loop": z * p.IN * p.R / p.Ce, "dn_P_asr": p.beta * z * p.IN / (d.Kn * p.alpha)}


def _windup_reference(h=H, overload=OVERLOAD, h_sim=H_SIM):
    windup = _start("none", 0.0, h, overload, h_sim)
    p, d = windup.parameters, windup.design
    k_rise = int(np.flatnonzero(windup.result.n >= p.nN)[0])
    return {"k_rise": k_rise, "I_n_at_rise": windup.result.states[k_rise, 2],
            "I_n_estimate": d.Kn / d.tau_n * p.alpha * p.nN * windup.metrics.t_rise / 2}


def _graph_reference(h=H):
    P, W, _, _ = structure_graph(DRIVE, design_regulators(DRIVE, h))
    return {"P_drive": P, "W_drive": W}


def _linear_reference(h=H):
    """G_control of Task 10, built with python-control (imported here: a development dependency)."""
    import control

    p, d = DRIVE, design_regulators(DRIVE, h)
    s = control.tf("s")
    acr = d.Ki * (d.tau_i * s + 1) / (d.tau_i * s)
    asr = d.Kn * (d.tau_n * s + 1) / (d.tau_n * s)
    mechanics = p.R / (p.Ce * p.Tm * s)
    current_plant = control.feedback((1 / p.R) / (p.Tl * s + 1), mechanics * p.Ce)
    current_loop = control.feedback(acr * p.Ks / (p.Ts * s + 1) * current_plant, p.beta / (p.Toi * s + 1))
    current_loop = current_loop / (p.Toi * s + 1)  # the current reference filter
    speed_loop = control.feedback(asr * current_loop * mechanics, p.alpha / (p.Ton * s + 1))
    return {"G_control": p.alpha / (p.Ton * s + 1) * speed_loop}


#: The notebook's parameters that the simulations follow.
SIMULATION = ("h", "overload", "h_sim")

#: The tasks of lab 07, by their label in the notebook.
TASKS = Tasks(
    Task("1", ("Idm", "Uim", "delta_nN", "GD2"), check_derived, ("overload",), _derived_reference,
         "derived quantities of the drive", also=("Cm",)),
    Task("2", ("T_sum_i", "K_I", "tau_i", "K_i"), check_current_design, (), _current_reference,
         "the current loop as a type-I system"),
    Task("3", ("T_sum_n", "tau_n", "K_N", "K_n"), check_speed_design, ("h",), _speed_reference,
         "the speed loop as a type-II system"),
    Task("4", ("Tl_seed", "integral_time_seed", "integral_time_design", "KT_seed"), check_seed_regulator, (),
         _seed_reference, "the seed's current regulator"),
    Task("5", ("sigma_n_predicted",), check_predicted_overshoot, ("h", "overload"), _prediction_reference,
         "the predicted overshoot on leaving saturation", also=("ratio_h", "C_b")),
    Task("6a", ("t1", "t2", "Id_peak", "Id_plateau", "overshoot", "t_rise", "t_settle"), check_start_metrics,
         SIMULATION, _start_reference, "measures of the no-load start"),
    Task("6d", ("Id_plateau_theory",), check_plateau_theory, SIMULATION, _plateau_reference,
         "the plateau current of stage II"),
    Task("7a", ("sigma_n_loaded", "t_II_no_load", "t_II_loaded"), check_loaded_start, SIMULATION + ("z",),
         _loaded_reference, "the start with load", also=("plateau_loaded",)),
    Task("7b", ("dn_open_loop", "dn_P_asr"), check_steady_drop, ("h", "z"), _drop_reference,
         "steady speed drops under load"),
    Task("8a", ("I_n_at_rise", "I_n_estimate"), check_windup_integral, SIMULATION, _windup_reference,
         "the wound-up ASR integral", also=("k_rise",)),
    Task("9", ("P_drive", "W_drive"), check_structure_graph, ("h",), _graph_reference,
         "the drive as a structure graph"),
    Task("10", ("G_control",), check_linear_loop, ("h",), _linear_reference, "the linear loops with python-control"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("1", "I_dm taken as I_N", "Idm = p.overload * p.IN", "Idm = p.IN", "that is I_N"),
    Mistake("1", "C_e for the torque constant", "Cm = 30 / np.pi * p.Ce", "Cm = p.Ce", "C_m = (30/pi) C_e"),
    Mistake("2", "small lags summed with the speed filter", "T_sum_i = p.Ts + p.Toi", "T_sum_i = p.Ts + p.Ton",
            "not with the speed filter Ton"),
    Mistake("2", "tau_i cancelling the small lags", "tau_i = p.Tl", "tau_i = T_sum_i", "large armature lag"),
    Mistake("2", "K_i without beta", "K_i = K_I * tau_i * p.R / (p.Ks * p.beta)", "K_i = K_I * tau_i * p.R / p.Ks",
            "leave out beta"),
    Mistake("3", "tau_n = T_sum_n instead of h T_sum_n", "tau_n = h * T_sum_n", "tau_n = T_sum_n", "tau_n = h T_sum_n"),
    Mistake("3", "the current loop entered as T_sum_i", "T_sum_n = 1 / r.K_I + p.Ton", "T_sum_n = T_sum_i + p.Ton",
            "1/K_I = 2 T_sum_i"),
    Mistake("3", "K_n taken as K_N", "K_n = K_N * tau_n * p.beta * p.Ce * p.Tm / (p.alpha * p.R)", "K_n = K_N",
            "that is K_N"),
    Mistake("4", "the gain read as the time constant", "Tl_seed = tau_i_seed", "Tl_seed = Ki_seed", "that is the gain"),
    Mistake("5", "base value without the factor 2", "C_b = 2 * p.overload", "C_b = p.overload", "the factor 2"),
    Mistake("6a", "overshoot as a fraction", "overshoot = 100 * (np.max(n) - p.nN) / p.nN",
            "overshoot = (np.max(n) - p.nN) / p.nN", "in percent"),
    Mistake("6a", "settling into a 5 % band", "np.abs(n - p.nN) > 0.02 * p.nN", "np.abs(n - p.nN) > 0.05 * p.nN",
            "+-5 % band"),
    Mistake("6a", "stage I ending at I_dm", "Id >= 0.95 * p.Idm", "Id >= p.Idm", "0.95 I_dm"),
    Mistake("6d", "the slope taken at I_dm", "Id_plateau_theory = p.Idm / (1 + 1 / (design.KI * p.Tm))",
            "Id_plateau_theory = p.Idm - p.Idm / (design.KI * p.Tm)", "depends on the plateau current"),
    Mistake("7a", "the load current left out of the acceleration",
            "t_II_loaded = p.nN * p.Ce * p.Tm / (p.R * (plateau_loaded - z * p.IN))",
            "t_II_loaded = p.nN * p.Ce * p.Tm / (p.R * plateau_loaded)", "only I_d - I_dL"),
    Mistake("7b", "the P-ASR drop as Delta n_N / (1 + K_n)", "dn_P_asr = p.beta * z * p.IN / (design.Kn * p.alpha)",
            "dn_P_asr = dn_open_loop / (1 + design.Kn)", "loop gain of the P-ASR"),
    Mistake("8a", "K in place of K / tau", "I_n_estimate = design.Kn / design.tau_n * 0.5",
            "I_n_estimate = design.Kn * 0.5", "K / tau"),
    Mistake("9", "the back-EMF entered with a plus sign", "W_drive[7, 6], W_drive[7, 8] = 1.0, -p.Ce",
            "W_drive[7, 6], W_drive[7, 8] = 1.0, p.Ce", "enter with a minus sign"),
    Mistake("10", "no reference filter on the speed loop",
            "G_control = p.alpha / (p.Ton * s + 1) * speed_loop", "G_control = p.alpha * speed_loop",
            "reference filter"),
    # the slips of each task's method, one by one
    Mistake("1", "Delta n_N at the current limit", "delta_nN = p.IN * p.R / p.Ce", "delta_nN = Idm * p.R / p.Ce",
            "at the rated current I_N"),
    Mistake("1", "U*_im at the rated current", "Uim = p.beta * Idm", "Uim = p.beta * p.IN",
            "the ASR limit sets the current limit"),
    Mistake("3", "h not squared in K_N", "K_N = (h + 1) / (2 * h**2 * T_sum_n**2)",
            "K_N = (h + 1) / (2 * h * T_sum_n**2)", "h squared"),
    Mistake("3", "T_sum_n not squared in K_N", "K_N = (h + 1) / (2 * h**2 * T_sum_n**2)",
            "K_N = (h + 1) / (2 * h**2 * T_sum_n)", "T_sum_n squared as well"),
    Mistake("5", "Delta C_max in r/min, not in percent of n*", "sigma_n_predicted = 100 * ratio_h * C_b / p.nN",
            "sigma_n_predicted = ratio_h * C_b", "Delta C_max in r/min"),
    Mistake("5", "the linear step overshoot for the start", "sigma_n_predicted = 100 * ratio_h * C_b / p.nN",
            "sigma_n_predicted = dc_motor.type2_step_overshoot(h)", "linear step overshoot"),
    Mistake("6a", "stage II ending at the rise time", "t2 = t[limited[-1] + 1]", "t2 = t[np.flatnonzero(n >= p.nN)[0]]",
            "that is the rise time"),
    Mistake("6a", "overshoot read at the end of the run", "overshoot = 100 * (np.max(n) - p.nN) / p.nN",
            "overshoot = 100 * (n[-1] - p.nN) / p.nN", "at the end of the run"),
    Mistake("6a", "settling time as the first entry into the band", "t_settle = t[outside[-1] + 1]",
            "t_settle = t[np.flatnonzero(np.abs(n - p.nN) <= 0.02 * p.nN)[0]]", "first enters the +-2 % band"),
    Mistake("6a", "plateau averaged over the whole of stage II", "Id[(t >= 0.5 * (t1 + t2)) & (t <= t2)]",
            "Id[(t >= t1) & (t <= t2)]", "the whole of stage II"),
    Mistake("7a", "the no-load plateau for the loaded start",
            "plateau_loaded = (p.Idm + z * p.IN / (design.KI * p.Tm)) / (1 + 1 / (design.KI * p.Tm))",
            "plateau_loaded = r.Id_plateau_theory", "the plateau with the load is higher"),
    Mistake("8a", "the ASR output read for its integral", "I_n_at_rise = windup.result.states[k_rise, 2]",
            "I_n_at_rise = windup.result.Ui_ref[k_rise]", "that is the ASR output"),
    Mistake("8a", "the ACR's integral read", "I_n_at_rise = windup.result.states[k_rise, 2]",
            "I_n_at_rise = windup.result.states[k_rise, 5]", "the ACR's integral"),
    Mistake("8a", "a rectangle for the triangle", "design.tau_n * 0.5 * p.alpha", "design.tau_n * p.alpha",
            "half the rectangle"),
    Mistake("8a", "the speed error in r/min", "0.5 * p.alpha * p.nN * windup", "0.5 * p.nN * windup",
            "the ASR error is a voltage"),
    Mistake("10", "no back-EMF loop", "current_plant = control.feedback(armature, mechanics * p.Ce)",
            "current_plant = armature", "back-EMF loop is missing"),
    Mistake("10", "no current reference filter", "p.beta / (p.Toi * s + 1)) / (p.Toi * s + 1)",
            "p.beta / (p.Toi * s + 1))", "current reference filter"),
    # z left out: the rated load I_N where z I_N belongs (at the default z = 0.8 these are wrong numbers)
    Mistake("7a", "z left out of the loaded prediction", "2 * (p.overload - z) * p.delta_nN",
            "2 * (p.overload - 1) * p.delta_nN", "prediction for the rated load I_N: z is left out"),
    Mistake("7a", "z left out of the accelerating current", "(plateau_loaded - z * p.IN)", "(plateau_loaded - p.IN)",
            "z is left out of the accelerating current"),
    Mistake("7a", "z left out of the loaded plateau", "(p.Idm + z * p.IN / (design.KI * p.Tm))",
            "(p.Idm + p.IN / (design.KI * p.Tm))", "z is left out of the plateau"),
    Mistake("7b", "z left out of the open-loop drop", "dn_open_loop = z * p.IN * p.R / p.Ce",
            "dn_open_loop = p.IN * p.R / p.Ce", "the drop at the rated current I_N: z is left out"),
    Mistake("7b", "z left out of the P-ASR drop", "dn_P_asr = p.beta * z * p.IN / (design.Kn * p.alpha)",
            "dn_P_asr = p.beta * p.IN / (design.Kn * p.alpha)", "drop under the rated current I_N: z is left out"),
)

# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def _shade_stages(ax, t1, t2, t_end, labelled):
    """Shade the three stages, draw their boundaries and, if ``labelled``, name them in the top band.

    The names sit in a band above the data (the caller leaves it free), so that no line crosses
    them; the boundaries are dash-dotted lines, readable in black and white. Stage I is short:
    its name stands just left of its end, clear of the boundary line; the others are centred.
    """
    for start, stop, name, shade in ((0.0, t1, "I", "0.93"), (t1, t2, "II", "0.85"), (t2, t_end, "III", "0.93")):
        if not (np.isfinite(start) and np.isfinite(stop)):
            continue
        ax.axvspan(start, stop, color=shade, alpha=0.5, linewidth=0)
        if labelled:
            x, shift, align = (stop, -4, "right") if name == "I" else (0.5 * (start + stop), 0, "center")
            ax.annotate(name, (x, 0.97), xycoords=ax.get_xaxis_transform(), xytext=(shift, 0),
                        textcoords="offset points", ha=align, va="top", fontweight="bold")
    for boundary in (t1, t2):
        if np.isfinite(boundary):
            ax.axvline(boundary, color="0.4", linestyle="-.", linewidth=0.8)


def _start_title(start):
    """Title of a start-up figure: the load and the parameters in use, then the three stages."""
    p, design, load = start.parameters, start.design, start.load
    what = f"Start with load I_dL = {load:g} A (z = {load / p.IN:g})" if load else "No-load start"
    return (f"{what}: h = {design.h:g}, $\\lambda$ = {p.overload:g} (I_dm = {p.Idm:g} A)\n"
            "stages: I current rise, II constant current, III speed regulation")


def plot_drive_start(start):
    """Lab 07: a start-up, speed and armature current with the three stages shaded and named.

    ``start`` is a :class:`StartResult` (or a :class:`SeedACRResult`); the title and the lines
    print its parameters, h, lambda and the load.
    """
    result, m, p = start.result, start.metrics, start.parameters

    fig, (ax_n, ax_i) = subplots(2, 1, figsize=(8, 6.4), sharex=True)
    ax_n.plot(result.t, result.n, color="black")
    ax_n.axhline(p.nN, color="gray", linestyle=":", label=f"n* = {p.nN:g} r/min")
    low, high = ax_n.get_ylim()
    ax_n.set_ylim(low, high + 0.2 * (high - low))  # a free band at the top for the stage names
    ax_i.plot(result.t, result.Id, color="black")
    ax_i.axhline(p.Idm, color="gray", linestyle="--", label=f"I_dm = {p.Idm:g} A")
    if start.load:
        ax_i.axhline(start.load, color="gray", linestyle=":", label=f"I_dL = {start.load:g} A")
    for ax in (ax_n, ax_i):
        _shade_stages(ax, m.t1, m.t2, result.t[-1], labelled=ax is ax_n)
    ax_n.set(ylabel="speed n (r/min)", title=_start_title(start))
    ax_n.legend(loc="lower right")
    ax_i.set(xlabel="t (s)", ylabel="armature current Id (A)")
    ax_i.legend(loc="lower right")
    return fig


def plot_drive_phase(start):
    """Lab 07: phase plots of a start-up (a :class:`StartResult`), current against speed and speed
    error against its rate, one line per stage."""
    result, m, p = start.result, start.metrics, start.parameters

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
    entry = next(iter(study.values()))
    ax.set(xlabel="t (s)", ylabel="speed n (r/min)", title=f"Anti-windup of the PI regulators, no-load start "
           f"(h = {entry.design.h:g}, $\\lambda$ = {entry.parameters.overload:g})")
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
    p = DRIVE
    design = design_regulators(p)
    start = no_load_start()
    loaded = loaded_start()  # the default load z = Z
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
        (f"start with load z = {Z:g}: sigma_n simulated / predicted",
         f"{loaded.metrics.overshoot:.2f} / {loaded.predicted:.2f} %"),
        (f"load step {Z:g} I_N: speed dip / recovery", f"{step.dip:.1f} r/min / {step.recovery:.3f} s"),
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

