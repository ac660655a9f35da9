"""Lab 08: the LuGre friction model, the seed's discrete S-function, and a stable discretization.

1. The seed's parameters (seed 000, 表1): the S-function replayed sample by sample, the
   continuous model, their difference, and the effect of the initial state (the seed's x0 = [0; -10]
   remark); what Fc > Fs does to the Stribeck curve.
2. The seed's discrete form is a lagged Euler scheme: for constant v its characteristic
   equation is lambda^2 - lambda + a Ts = 0 with a = sigma0 |v| / g(v), stable only for a Ts < 1
   (half the explicit-Euler limit). With realistic parameters at Ts = 1 ms it blows up; the
   exponential (exact) update does not.
3. The classic LuGre behaviours with the parameters of Canudas de Wit et al. (1995):
   pre-sliding displacement, frictional lag, break-away force against the force rate, and
   stick-slip of the spring-block (period and peak slip speed).
4. Step size: explicit updates need h below the bristle stability limit.
5. The static model cannot stick-slip in the same way: its result depends on the step.
6. A stick-slip map (one parameter sweep, :func:`simlab.friction.spring_block_sweep`): period
   and peak slip speed against k and v_pull, where stick-slip stops, the linearised steady
   sliding (stable on the whole map) and an estimate of the boundary from the first slip.

The notebook's parameters (:data:`PARAMETERS`, set in its parameter cell) are the sample time
``Ts`` of the S-function (Parts B and C, default :data:`TS`) and the spring stiffness ``k_spring``
of the stick-slip block (Parts D to G, default :data:`K`); every experiment, self-check and
reference takes them as keywords. The pulling speed :data:`V_PULL` is fixed.

The seed does not give its input signal (its figure 3 is not in the text); the lab uses
v(t) = -10 cos(pi t / 2), whose v(0) = -10 is what the seed's x0 = [0; -10] remark implies
(x2 is the bristle rate, and dz/dt(0) = v(0) for z(0) = 0).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from simlab.course import ExperimentResult
from simlab.course.check import CheckResult, Mistake, Task, Tasks, all_of, check_array, check_value
from simlab.course.parameters import Parameter, Parameters, rule
from simlab.friction import (
    CANUDAS_1995,
    SEED_PARAMETERS,
    LuGre,
    SpringBlockResult,
    StaticFriction,
    block_with_force,
    lugre_rates,
    spring_block,
    spring_block_sweep,
    static_friction,
    stribeck_level,
    velocity_response,
)
from simlab.plotting import line_style, subplots
from simlab.results import Result

__all__ = [
    "TS",
    "K",
    "V_PULL",
    "SFunctionRun",
    "SeedComparison",
    "SeedSchemeBlowup",
    "StribeckCurves",
    "PreSliding",
    "LagLoop",
    "FrictionalLag",
    "BreakAwayRow",
    "BreakAway",
    "StickSlipMetrics",
    "StickSlip",
    "StepSizeRow",
    "StepSizeStudy",
    "StaticSpringBlock",
    "StickSlipMap",
    "LuGreBehaviours",
    "Lab08Results",
    "seed_model",
    "classic_model",
    "seed_velocity",
    "continuous_response",
    "seed_comparison",
    "seed_scheme_roots",
    "seed_scheme_limit",
    "seed_scheme_blowup",
    "stribeck_curves",
    "pre_sliding",
    "frictional_lag",
    "break_away_index",
    "break_away",
    "stick_slip",
    "stick_slip_metrics",
    "spring_block_rhs",
    "radau_stick_slip",
    "step_size_study",
    "static_spring_block",
    "K_MAP",
    "V_PULL_MAP",
    "stick_slip_map",
    "steady_sliding_roots",
    "first_slip_minimum",
    "critical_pull_speed",
    "steady_sliding_start",
    "check_sfunction_replay",
    "check_characteristic_equation",
    "check_stick_slip",
    "PARAMETERS",
    "use_parameters",
    "TASKS",
    "MISTAKES",
    "check",
    "take",
    "run",
    "plot_lugre_behaviours",
    "plot_seed_sfunction",
    "plot_stick_slip_map",
]

TS = 0.001  #: the seed's sample time (s)
K = 2.0  #: spring stiffness of the stick-slip block (N/m), Canudas de Wit et al. (1995)
V_PULL = 0.1  #: pulling speed of the spring's far end (m/s), Canudas de Wit et al. (1995)


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SFunctionRun:
    """The seed's S-function replayed from one initial state, against the continuous model.

    Attributes
    ----------
    x0 : tuple of float
        Initial state [z, dz/dt] of the S-function (m, m/s).
    F : ndarray, shape (N + 1,)
        Friction force of the S-function at each sample (N).
    error_at_0 : float
        |F - F_continuous| at t = 0 (N).
    max_error_after_0 : float
        Largest |F - F_continuous| over the samples after t = 0 (N).
    """

    x0: tuple
    F: np.ndarray
    error_at_0: float
    max_error_after_0: float


@dataclass(frozen=True)
class SeedComparison(Result):
    """The S-function replays against the continuous model; unpacks as ``t, F_continuous``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Sample times k Ts (s).
    v : ndarray, shape (N + 1,)
        The input velocity v(t) = -10 cos(pi t / 2) (m/s).
    F_continuous : ndarray, shape (N + 1,)
        Friction force of the continuous model (Radau, rtol 1e-10) at the samples (N).
    runs : dict of tuple -> SFunctionRun
        One replay per initial state x0 = (z0, zdot0), keyed by x0.
    Ts : float
        Sample time of the S-function (s).
    """

    unpacks_as = ("t", "F_continuous")

    t: np.ndarray
    v: np.ndarray
    F_continuous: np.ndarray
    runs: dict
    Ts: float = TS


@dataclass(frozen=True)
class SeedSchemeBlowup(Result):
    """The seed's S-function with the classic set at Ts = 1 ms, constant v; unpacks as ``t, seed_F``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Sample times k Ts (s).
    v : float
        The constant velocity (m/s).
    a_Ts : float
        a Ts = sigma0 |v| Ts / g(v), dimensionless (the seed scheme is stable for a Ts < 1).
    spectral_radius : float
        Largest |lambda| of lambda^2 - lambda + a Ts = 0, dimensionless.
    seed_F : ndarray, shape (N + 1,)
        Friction force of the seed's S-function (N); inf or NaN once it has overflowed.
    seed_max_abs_F : float
        Largest finite |seed_F| (N).
    exponential_F : ndarray, shape (N + 1,)
        Friction force with the exponential bristle update at the same samples (N).
    steady : float
        The exact steady force g(v) + sigma2 v (N).
    Ts : float
        Sample time (s).
    """

    unpacks_as = ("t", "seed_F")

    t: np.ndarray
    v: float
    a_Ts: float
    spectral_radius: float
    seed_F: np.ndarray
    seed_max_abs_F: float
    exponential_F: np.ndarray
    steady: float
    Ts: float = TS


@dataclass(frozen=True)
class StribeckCurves:
    """Static curves F_ss(v) of the seed's set and of the set with Fc and Fs swapped.

    Attributes
    ----------
    v : ndarray, shape (n,)
        Velocities (m/s).
    seed : ndarray, shape (n,)
        F_ss(v) of the seed's set, Fc > Fs (N).
    swapped : ndarray, shape (n,)
        F_ss(v) with Fc and Fs swapped, the usual shape (N).
    """

    v: np.ndarray
    seed: np.ndarray
    swapped: np.ndarray


@dataclass(frozen=True)
class PreSliding(Result):
    """A 1 kg block under a force below Fs; unpacks as ``t, x``.

    Attributes
    ----------
    block : SpringBlockResult
        The block simulation (t in s, x in m, v in m/s, F and z).
    force : ndarray, shape (N + 1,)
        The applied force at each sample (N).
    max_displacement : float
        Largest |x| (m).
    scale : float
        Fs / sigma0, the displacement scale of pre-sliding (m).
    """

    unpacks_as = ("t", "x")

    block: SpringBlockResult
    force: np.ndarray
    max_displacement: float
    scale: float

    @property
    def t(self):
        """Sample times (s), shape (N + 1,)."""
        return self.block.t

    @property
    def x(self):
        """Block displacement (m), shape (N + 1,)."""
        return self.block.x


@dataclass(frozen=True)
class LagLoop:
    """The last period of friction against velocity for one frequency of the velocity.

    Attributes
    ----------
    f : float
        Frequency of the velocity oscillation (Hz).
    v : ndarray, shape (n,)
        Velocity over the last period (m/s).
    F : ndarray, shape (n,)
        Friction force over the last period (N).
    """

    f: float
    v: np.ndarray
    F: np.ndarray


@dataclass(frozen=True)
class FrictionalLag:
    """Frictional-lag loops of Canudas de Wit et al. (1995) and the static curve.

    Attributes
    ----------
    loops : dict of float -> LagLoop
        One loop per frequency (Hz), keyed by the frequency.
    static_v : ndarray, shape (200,)
        Velocities of the static curve, v > 0 (m/s).
    static_F : ndarray, shape (200,)
        Static (steady-state) friction at static_v (N).
    """

    loops: dict
    static_v: np.ndarray
    static_F: np.ndarray


@dataclass(frozen=True)
class BreakAwayRow:
    """Break-away of the block for one rate of the applied force (:func:`break_away`).

    Attributes
    ----------
    rate : float
        Rate of the applied force ramp (N/s).
    force : float
        Break-away force: the friction force at its first maximum, where the contact passes from
        pre-sliding into gross sliding (N).
    t : float
        Time of the break-away (s).
    applied : float
        Applied force rate * t at the break-away (N); above ``force`` by the inertial force m a.
    x : float
        Displacement of the block at the break-away (m).
    threshold_force : float
        Applied force when |v| first exceeds 1 mm/s (N): the definition of earlier versions of
        this lab, kept for comparison (it fires inside pre-sliding at fast ramps).
    """

    rate: float
    force: float
    t: float
    applied: float
    x: float
    threshold_force: float


@dataclass(frozen=True)
class BreakAway:
    """Break-away force against the rate of the applied force (a table, one row per rate).

    Attributes
    ----------
    rows : tuple of BreakAwayRow
        One row per rate, in the order of the rates asked for.
    Fs, Fc : float
        Static and Coulomb friction of the model (N), for comparison.
    scale : float
        Fs / sigma0, the pre-sliding displacement scale (m).
    sigma0 : float
        Bristle stiffness (N/m); rate / sigma0 is the speed of elastic pre-sliding (m/s).
    """

    rows: tuple
    Fs: float
    Fc: float
    scale: float
    sigma0: float

    @property
    def rates(self):
        """The rates of the rows (N/s), a tuple."""
        return tuple(row.rate for row in self.rows)

    @property
    def forces(self):
        """The break-away forces of the rows (N), a tuple."""
        return tuple(row.force for row in self.rows)

    def force_at(self, rate):
        """The break-away force (N) of the row with this rate (N/s)."""
        for row in self.rows:
            if row.rate == rate:
                return row.force
        raise ValueError(f"rate must be one of the study's rates {list(self.rates)} N/s, got {rate!r}.")


@dataclass(frozen=True)
class StickSlipMetrics(Result):
    """Stick-slip period and peak slip speed; unpacks as ``period, peak``.

    Attributes
    ----------
    period : float
        Mean spacing of the slip onsets, the first cycle left out (s).
    peak : float
        Largest block velocity (m/s).
    """

    unpacks_as = ("period", "peak")

    period: float
    peak: float


@dataclass(frozen=True)
class StickSlip(Result):
    """The spring-block stick-slip with the classic LuGre set; unpacks as ``t, v``.

    Attributes
    ----------
    block : SpringBlockResult
        The simulation (t in s, x in m, v in m/s, F in N, z in m, method, h).
    period : float
        Stick-slip period (s), :func:`stick_slip_metrics`.
    peak : float
        Peak slip speed (m/s).
    k : float
        Spring stiffness (N/m).
    v_pull : float
        Pulling speed (m/s).
    """

    unpacks_as = ("t", "v")

    block: SpringBlockResult
    period: float
    peak: float
    k: float = K
    v_pull: float = V_PULL

    @property
    def t(self):
        """Sample times (s), shape (N + 1,)."""
        return self.block.t

    @property
    def v(self):
        """Block velocity (m/s), shape (N + 1,)."""
        return self.block.v


@dataclass(frozen=True)
class StepSizeRow:
    """One method and step of the step-size study.

    Attributes
    ----------
    method : str
        Bristle update ("exponential", "implicit", "rk4" or "euler").
    h : float
        Step size (s).
    status : str
        "ok", "blew up" (the state overflowed) or "wrong" (fewer than three slips: no period).
    period_error, peak_error : float
        Relative errors of the period and of the peak slip speed against the reference,
        dimensionless (NaN unless status is "ok").
    slips : int
        Number of slip onsets (upward crossings of 0.05 m/s) in the run; 0 if it blew up.
    peak : float
        Largest block velocity of the run (m/s); NaN if it blew up.
    """

    method: str
    h: float
    status: str
    period_error: float
    peak_error: float
    slips: int = 0
    peak: float = float("nan")


@dataclass(frozen=True)
class StepSizeStudy:
    """Period and peak errors of each bristle update at several steps (a table).

    Attributes
    ----------
    reference : StickSlipMetrics
        The Radau reference (s, m/s).
    rows : tuple of StepSizeRow
        One row per (method, h), in the order of the cases.
    t_end : float
        Duration of every run (s).
    k : float
        Spring stiffness (N/m).
    """

    reference: StickSlipMetrics
    rows: tuple
    t_end: float = 30.0
    k: float = K

    def row(self, method, h):
        """The row of this method and step size."""
        for row in self.rows:
            if row.method == method and row.h == h:
                return row
        raise ValueError(f"no row for method {method!r} at h = {h!r}; the study has "
                         f"{[(row.method, row.h) for row in self.rows]}.")


@dataclass(frozen=True)
class StaticSpringBlock(Result):
    """The spring-block with the static friction model, by RK4; unpacks as ``t, v``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    v : ndarray, shape (N + 1,)
        Block velocity (m/s).
    h : float
        Step size (s).
    stuck_fraction : float
        Fraction of the samples with |v| < 1 mm/s, dimensionless.
    v_min, v_max : float
        Velocity range over the second half of the run (m/s).
    k : float
        Spring stiffness (N/m).
    """

    unpacks_as = ("t", "v")

    t: np.ndarray
    v: np.ndarray
    h: float
    stuck_fraction: float
    v_min: float
    v_max: float
    k: float = K


@dataclass(frozen=True)
class StickSlipMap:
    """Stick-slip of the spring-block from rest on a grid of spring stiffness k and pulling speed v_pull.

    One sweep (:func:`simlab.friction.spring_block_sweep`) runs every grid point with the classic
    set, m = 1 kg, from rest. Axis 0 of every table is k, axis 1 is v_pull.

    Attributes
    ----------
    k : ndarray, shape (nk,)
        Spring stiffnesses (N/m).
    v_pull : ndarray, shape (nv,)
        Pulling speeds (m/s).
    sticks : ndarray of bool, shape (nk, nv)
        True where the block still comes to rest (|v| < 1 % of v_pull) in the second half of the
        run: stick-slip; False where it has settled into sliding.
    period : ndarray, shape (nk, nv)
        Stick-slip period (s): mean spacing of the slip onsets, v crossing v_pull / 2 upwards,
        the first cycle left out; NaN where the block slides (or slips fewer than three times).
    peak : ndarray, shape (nk, nv)
        Largest block velocity (m/s).
    boundary : ndarray, shape (nk,)
        Largest v_pull of the grid with stick-slip, per k (m/s); NaN if none.
    critical_v_pull : ndarray, shape (nk,)
        The estimate :func:`critical_pull_speed` per k (m/s).
    max_real_root : float
        Largest real part of the roots of the linearised steady sliding
        (:func:`steady_sliding_roots`) over the grid (1/s); negative: steady sliding is locally
        stable at every grid point.
    t_end : float
        Duration of every run (s).
    h : float
        Step size (s).
    """

    k: np.ndarray
    v_pull: np.ndarray
    sticks: np.ndarray
    period: np.ndarray
    peak: np.ndarray
    boundary: np.ndarray
    critical_v_pull: np.ndarray
    max_real_root: float
    t_end: float = 40.0
    h: float = 1e-3


@dataclass(frozen=True)
class LuGreBehaviours:
    """The classic behaviours drawn by :func:`plot_lugre_behaviours`.

    Attributes
    ----------
    lag : FrictionalLag
    break_away : BreakAway
    stick_slip : StickSlip
    """

    lag: FrictionalLag
    break_away: BreakAway
    stick_slip: StickSlip


@dataclass(frozen=True)
class Lab08Results:
    """Everything ``run()`` computes for lab 08.

    Attributes
    ----------
    comparison : SeedComparison
        The S-function against the continuous model (Part B).
    seed_limit : float
        Stability limit of the seed scheme, a Ts < seed_limit (dimensionless).
    blowup : SeedSchemeBlowup
        The seed scheme with the classic set at Ts = 1 ms (Part C).
    stribeck : StribeckCurves
        Static curves of the seed's set (Part A).
    behaviours : LuGreBehaviours
        Frictional lag, break-away and stick-slip (Part D).
    reference : StickSlipMetrics
        The Radau reference of the stick-slip (s, m/s).
    static : dict of float -> StaticSpringBlock
        The static model by RK4, keyed by the step size h (s) (Part F).
    stick_slip_map : StickSlipMap
        Stick-slip against k and v_pull (Part G).
    """

    comparison: SeedComparison
    seed_limit: float
    blowup: SeedSchemeBlowup
    stribeck: StribeckCurves
    behaviours: LuGreBehaviours
    reference: StickSlipMetrics
    static: dict
    stick_slip_map: StickSlipMap


# ---------------------------------------------------------------------------------------------
# Experiments
# ---------------------------------------------------------------------------------------------


def seed_model():
    """LuGre with the seed's table (Fc > Fs: the warning is silenced here; the lab shows it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return LuGre(**SEED_PARAMETERS)


def classic_model():
    """LuGre with the set of Canudas de Wit et al. (1995), for m = 1 kg."""
    return LuGre(**CANUDAS_1995)


def seed_velocity(t):
    """The lab's input v(t) = -10 cos(pi t / 2) (v(0) = -10, as the seed's x0 remark implies)."""
    return -10.0 * np.cos(0.5 * np.pi * np.asarray(t, dtype=float))


def continuous_response(model, velocity, t):
    """The continuous LuGre model for a velocity function, by solve_ivp (Radau, rtol 1e-10).

    Returns (z, F) on the grid t; the reference the S-function is compared with.
    """
    from scipy.integrate import solve_ivp

    def zdot(tt, z):  # model.zdot(velocity(tt), z) without its argument checks, from the same kernels
        v = float(velocity(tt))
        g = stribeck_level(v, model.Fc, model.Fs, model.vs, model.n)
        return [lugre_rates(v, float(z[0]), g, model.sigma0, model.sigma1, model.sigma2)[0]]

    solution = solve_ivp(zdot, (t[0], t[-1]), [0.0], t_eval=t, method="Radau", rtol=1e-10, atol=1e-13)
    z = solution.y[0]
    return z, model.force(velocity(t), z)


def seed_comparison(t_end=8.0, x0_values=((0.0, 0.0), (0.0, -10.0)), Ts=TS):
    """S-function replay with sample time ``Ts`` against the continuous model for each initial state.

    Returns
    -------
    SeedComparison
        ``t``, ``v``, ``F_continuous`` and, per x0, the replay with its errors at t = 0 and after it.
    """
    model = seed_model()
    t = Ts * np.arange(round(t_end / Ts) + 1)
    v = seed_velocity(t)
    _, F_cont = continuous_response(model, seed_velocity, t)
    runs = {}
    for x0 in x0_values:
        F = model.sfunction(v, Ts=Ts, x0=x0).F
        error = np.abs(F - F_cont)
        runs[tuple(x0)] = SFunctionRun(tuple(x0), F, float(error[0]), float(np.max(error[1:])))
    return SeedComparison(t, v, F_cont, runs, Ts)


def seed_scheme_roots(a_Ts):
    """Roots of the seed scheme's characteristic equation lambda^2 - lambda + a Ts = 0 (constant v)."""
    return np.roots([1.0, -1.0, float(a_Ts)])


def seed_scheme_limit():
    """The stability limit a Ts < 1 of the seed scheme (|lambda| = sqrt(a Ts) for complex roots), by sympy."""
    import sympy as sp

    lam, c = sp.symbols("lambda c", positive=True)
    roots = sp.solve(sp.Eq(lam**2 - lam + c, 0), lam)
    # complex pair for c > 1/4: |lambda|^2 = product of the roots = c
    product = sp.simplify(roots[0] * roots[1])
    return float(sp.solve(sp.Eq(product, 1), c)[0])


def seed_scheme_blowup(v=0.1, t_end=0.05, Ts=TS):
    """The seed's S-function with the classic (stiff) parameters at sample time Ts against the exponential update.

    For constant v = 0.1 m/s and the seed's Ts = 1 ms: a Ts = sigma0 |v| Ts / g = 1e5 * 0.1 * 1e-3 / 1
    = 10, far above 1.

    Returns
    -------
    SeedSchemeBlowup
        Both forces, the largest finite |F| of the seed scheme and the exact steady force g(v) + sigma2 v.
    """
    model = classic_model()
    n = round(t_end / Ts) + 1
    velocity = np.full(n, v)
    with np.errstate(over="ignore", invalid="ignore"):
        seed = model.sfunction(velocity, Ts=Ts, allow_blowup=True).F  # the blow-up is the point
    stable = velocity_response(model, velocity, Ts).F
    a_Ts = model.sigma0 * abs(v) * Ts / float(model.g(v))
    return SeedSchemeBlowup(t=Ts * np.arange(n), v=float(v), a_Ts=a_Ts,
                            spectral_radius=float(np.max(np.abs(seed_scheme_roots(a_Ts)))),
                            seed_F=seed, seed_max_abs_F=float(np.nanmax(np.abs(seed[np.isfinite(seed)]))),
                            exponential_F=stable, steady=float(model.steady_state_force(v)), Ts=Ts)


def stribeck_curves(v=None):
    """Static curves of the seed's set (Fc > Fs) and of the same set with Fc and Fs swapped."""
    if v is None:
        v = np.linspace(-0.06, 0.06, 601)
    p = SEED_PARAMETERS
    seed = static_friction(v, p["Fc"], p["Fs"], p["vs"], p["sigma2"])
    swapped = static_friction(v, p["Fs"], p["Fc"], p["vs"], p["sigma2"])
    return StribeckCurves(v, seed, swapped)


def pre_sliding(fraction=0.8, t_end=4.0, h=1e-4):
    """A force fraction * Fs sin(pi t) on a 1 kg block: displacement of the order Fs/sigma0, hysteresis."""
    model = classic_model()
    result = block_with_force(model, lambda t: fraction * model.Fs * np.sin(np.pi * t), 1.0, t_end, h)
    return PreSliding(block=result, force=fraction * model.Fs * np.sin(np.pi * result.t),
                      max_displacement=float(np.max(np.abs(result.x))), scale=model.Fs / model.sigma0)


def frictional_lag(frequencies=(1.0, 10.0, 25.0), T=1e-4, t_end=4.0):
    """F against v for v(t) = 1.25e-3 (1 + sin 2 pi f t): the loops of Canudas de Wit et al. (1995)."""
    model = classic_model()
    t = np.arange(0.0, t_end, T)
    loops = {}
    for f in frequencies:
        v = 0.00125 * (1 + np.sin(2 * np.pi * f * t))
        response = velocity_response(model, v, T)
        last = t >= t_end - 1.0 / f  # the last period
        loops[f] = LagLoop(f, v[last], response.F[last])
    v_static = np.linspace(1e-6, 0.0025, 200)  # v > 0: the static curve's value at v = 0 is undefined
    return FrictionalLag(loops, v_static, model.steady_state_force(v_static))


def break_away_index(F):
    """Index of the break-away in a friction history F[k] under a rising applied force: its first maximum.

    Under a force ramp the friction force rises through pre-sliding; when the contact starts to
    slide it stops rising (the Stribeck effect lowers it, or it levels off at the sliding
    friction). The break-away is the last sample before the friction first decreases.

    Raises
    ------
    ValueError
        If F never decreases (the run ended before the block broke away: simulate longer).
    """
    F = np.asarray(F, dtype=float)
    falls = np.flatnonzero(np.diff(F) < 0)
    if falls.size == 0:
        raise ValueError("the friction force never stops rising: the block did not break away; simulate longer.")
    return int(falls[0])


def break_away(rates=(0.5, 1.0, 5.0, 10.0, 50.0), samples=30000):
    """Break-away force against the rate of the applied force: the friction at its first maximum.

    A 1 kg block with the classic set under the applied force ``rate * t`` for 3 / rate seconds
    (up to 3 N), ``samples`` steps. The break-away force is the friction force where it stops
    rising (:func:`break_away_index`): there the block leaves pre-sliding (its displacement is a
    few times the pre-sliding scale Fs / sigma0) and gross sliding begins. This is the quantity of
    Canudas de Wit et al. (1995), the friction force when the mass starts to slide; the applied
    force at that instant is larger by the inertial force m a, much larger at fast ramps.

    Returns
    -------
    BreakAway
        One :class:`BreakAwayRow` per rate (friction, time, applied force and displacement at
        the break-away, and the applied force of the old |v| > 1 mm/s criterion), Fs, Fc, the
        pre-sliding scale Fs / sigma0 and sigma0.
    """
    model = classic_model()
    rows = []
    for rate in rates:
        t_end = 3.0 / rate
        result = block_with_force(model, lambda t, r=rate: r * t, 1.0, t_end, t_end / samples)
        i = break_away_index(result.F)
        threshold = np.flatnonzero(np.abs(result.v) > 1e-3)[0]
        rows.append(BreakAwayRow(rate=rate, force=float(result.F[i]), t=float(result.t[i]),
                                 applied=float(rate * result.t[i]), x=float(result.x[i]),
                                 threshold_force=float(rate * result.t[threshold])))
    return BreakAway(tuple(rows), model.Fs, model.Fc, model.Fs / model.sigma0, model.sigma0)


def stick_slip_metrics(t, v, threshold=0.05):
    """Stick-slip period (mean spacing of slip onsets, the first cycle left out) and peak slip speed.

    Returns
    -------
    StickSlipMetrics
        Unpacks as ``period, peak`` (s, m/s).
    """
    onsets = t[np.flatnonzero((v[:-1] < threshold) & (v[1:] >= threshold))]
    if len(onsets) < 3:
        raise ValueError(f"need at least 3 slips to measure a period, found {len(onsets)}; simulate longer.")
    return StickSlipMetrics(float(np.mean(np.diff(onsets)[1:])), float(np.max(v)))


def stick_slip(h=1e-3, t_end=40.0, method="exponential", k=K, v_pull=V_PULL):
    """Spring-block (spring k, default 2 N/m, pulled at v_pull, default 0.1 m/s, m = 1 kg), classic LuGre set.

    Returns
    -------
    StickSlip
        The run, its period and peak slip speed (:func:`stick_slip_metrics`), k and v_pull.
    """
    result = spring_block(classic_model(), k, v_pull, 1.0, t_end, h, method=method)
    metrics = stick_slip_metrics(result.t, result.v)
    return StickSlip(result, metrics.period, metrics.peak, k, v_pull)


def spring_block_rhs(t, y, k=K, v_pull=V_PULL, m=1.0, p=CANUDAS_1995):
    """Right-hand side of the spring-block with LuGre friction, states (x, v, z), for solve_ivp.

    The friction comes from the same kernels as every simlab model (:func:`simlab.friction.lugre_rates`).
    """
    x, v, z = (float(value) for value in y)
    g = stribeck_level(v, p["Fc"], p["Fs"], p["vs"], 2.0)
    zdot, F = lugre_rates(v, z, g, p["sigma0"], p["sigma1"], p["sigma2"])
    return [v, (k * (v_pull * t - x) - F) / m, zdot]


def radau_stick_slip(t_end=40.0, k=K, v_pull=V_PULL):
    """Reference for the stick-slip: solve_ivp(method="Radau", rtol 1e-9) of the three states.

    Cached: equal arguments, by position or by keyword, return the same (immutable) result.

    Returns
    -------
    StickSlipMetrics
    """
    return _radau_stick_slip(float(t_end), float(k), float(v_pull))


#: Span (s) of the Radau reference solves: a shorter span is read from the same dense solution
#: (the 30 s of :func:`step_size_study` and the 40 s of :func:`stick_slip` share one solve).
RADAU_SPAN = 40.0


@lru_cache(maxsize=8)
def _radau_solution(t_end, k, v_pull):
    from scipy.integrate import solve_ivp

    return solve_ivp(spring_block_rhs, (0, t_end), [0, 0, 0], args=(k, v_pull), method="Radau",
                     rtol=1e-9, atol=1e-12, dense_output=True).sol


@lru_cache(maxsize=8)
def _radau_stick_slip(t_end, k, v_pull):
    solution = _radau_solution(max(t_end, RADAU_SPAN), k, v_pull)
    t = np.linspace(0, t_end, round(t_end / 1e-4) + 1)
    return stick_slip_metrics(t, solution(t)[1])


#: The cases of :func:`step_size_study`: (method, steps), the explicit methods above and below their limits.
DEFAULT_CASES = (("exponential", (1e-3, 5e-3)), ("implicit", (1e-3, 5e-3)),
                 ("rk4", (1e-3, 1e-4, 5e-5)), ("euler", (1e-4,)))


@lru_cache(maxsize=8)
def step_size_study(reference=None, t_end=30.0, cases=DEFAULT_CASES, k=K):
    """Period and peak error of each bristle method against Radau, at several steps.

    Every run is the spring-block of :func:`stick_slip` (spring ``k``) over ``t_end`` seconds,
    against ``reference`` (default :func:`radau_stick_slip` over the same span). A run that
    overflows (:class:`~simlab.integrators.NonFiniteStateError`) is reported as
    ``status="blew up"``; one with fewer than three slip onsets (no period: the first spacing is
    left out), as the explicit methods above their limit can give, as ``status="wrong"``, with
    its number of slips and its peak speed. The study always returns its table. Cached: the same
    arguments return the same (immutable) study; the default span of 30 s holds four slips at
    k = 2 N/m. Its longest runs are RK4 below the limit (600,000 steps at h = 5e-5 s): about 1 s
    as compiled kernels (numba), about 5 s in plain Python; the Radau reference takes about 2 s.

    Returns
    -------
    StepSizeStudy
        The reference and one :class:`StepSizeRow` per (method, h).
    """
    from simlab.integrators import NonFiniteStateError

    reference = radau_stick_slip(t_end, k) if reference is None else reference
    model, rows = classic_model(), []
    for method, steps in cases:
        for h in steps:
            try:
                block = spring_block(model, k, V_PULL, 1.0, t_end, h, method=method)
            except NonFiniteStateError:
                rows.append(StepSizeRow(method, h, "blew up", float("nan"), float("nan")))
                continue
            slips = int(np.count_nonzero((block.v[:-1] < 0.05) & (block.v[1:] >= 0.05)))
            peak = float(np.max(block.v))
            if slips < 3:
                rows.append(StepSizeRow(method, h, "wrong", float("nan"), float("nan"), slips, peak))
                continue
            metrics = stick_slip_metrics(block.t, block.v)
            rows.append(StepSizeRow(method, h, "ok", (metrics.period - reference.period) / reference.period,
                                    (metrics.peak - reference.peak) / reference.peak, slips, peak))
    return StepSizeStudy(reference, tuple(rows), t_end, k)


def static_spring_block(h, t_end=30.0, k=K):
    """The spring-block (spring k) with the static friction model F = sgn(v) g(v) + sigma2 v, by RK4.

    Returns the fraction of time stuck (|v| < 1 mm/s) and the velocity range in the second half:
    the answer changes with h (the discontinuity at v = 0 is met by chattering), unlike LuGre.

    Returns
    -------
    StaticSpringBlock
    """
    static = StaticFriction(Fc=CANUDAS_1995["Fc"], Fs=CANUDAS_1995["Fs"], vs=CANUDAS_1995["vs"],
                            sigma2=CANUDAS_1995["sigma2"])
    block = spring_block(static, k, V_PULL, 1.0, t_end, h, method="rk4")  # x' = v, v' = k (V_PULL t - x) - F(v)
    t, v = block.t, block.v
    half = v[len(v) // 2:]
    return StaticSpringBlock(t=t, v=v, h=h, stuck_fraction=float(np.mean(np.abs(v) < 1e-3)),
                             v_min=float(half.min()), v_max=float(half.max()), k=k)


#: The grid of the stick-slip map: spring stiffnesses (N/m) and pulling speeds (m/s).
K_MAP = (2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0)
V_PULL_MAP = (0.05, 0.075, 0.1, 0.125, 0.15, 0.175, 0.2, 0.225, 0.25)


@lru_cache(maxsize=4)
def stick_slip_map(k=K_MAP, v_pull=V_PULL_MAP, t_end=40.0, h=1e-3):
    """Stick-slip period and peak slip speed against k and v_pull, and where stick-slip stops.

    All grid points run in one :func:`simlab.friction.spring_block_sweep` (classic set, m = 1 kg,
    from rest, exponential update). A point sticks if |v| falls below 1 % of v_pull in the second
    half of the run; its period is :func:`stick_slip_metrics` with the threshold v_pull / 2 (the
    lab's 0.05 m/s at v_pull = 0.1 m/s). Cached: the same arguments return the same map.

    Returns
    -------
    StickSlipMap
    """
    ks, speeds = np.asarray(k, dtype=float), np.asarray(v_pull, dtype=float)
    sweep = spring_block_sweep(classic_model(), ks[:, None], speeds[None, :], 1.0, t_end, h, record=("v",))
    late = sweep.t >= 0.5 * t_end
    shape = (len(ks), len(speeds))
    sticks, period, peak = np.zeros(shape, dtype=bool), np.full(shape, np.nan), np.empty(shape)
    for i in range(len(ks)):
        for j, speed in enumerate(speeds):
            v = sweep.v[:, i, j]
            sticks[i, j] = np.min(np.abs(v[late])) < 0.01 * speed
            peak[i, j] = np.max(v)
            if sticks[i, j] and len(_upward(v, 0.5 * speed)) >= 3:
                period[i, j] = stick_slip_metrics(sweep.t, v, 0.5 * speed).period
    boundary = np.array([speeds[row].max() if row.any() else np.nan for row in sticks])
    roots = max(np.max(steady_sliding_roots(kk, speed).real) for kk in ks for speed in speeds)
    return StickSlipMap(ks, speeds, sticks, period, peak, boundary, np.array([critical_pull_speed(kk) for kk in ks]),
                        float(roots), t_end, h)


def steady_sliding_roots(k, v_pull, m=1.0, model=None):
    """Roots (1/s) of the spring-block linearised about steady sliding at v = v_pull > 0.

    With a = sigma0 v / g(v) (the bristle rate), b = v g'(v) / g(v) and F_ss' = g'(v) + sigma2
    (the slope of the static curve), small deviations of (x, v, z) from steady sliding obey

        m s^3 + (m a + sigma1 b + sigma2) s^2 + (k + a F_ss') s + k a = 0.

    Steady sliding is locally stable if every root has a negative real part (Routh-Hurwitz:
    all coefficients positive and (m a + sigma1 b + sigma2)(k + a F_ss') > m k a). Where the
    Stribeck curve is flat (v a few vs above 0, b = 0 and F_ss' = sigma2 > 0) that always holds.
    ``model`` defaults to :func:`classic_model`.
    """
    model = classic_model() if model is None else model
    v = float(v_pull)
    g = float(model.g(v))
    dg = -model.n * (g - model.Fc) * abs(v / model.vs) ** model.n / v  # g'(v) for v > 0, from g itself
    a, b = model.sigma0 * v / g, v * dg / g
    return np.roots([m, m * a + model.sigma1 * b + model.sigma2, k + a * (dg + model.sigma2), k * a])


def first_slip_minimum(k, v_pull, m=1.0, model=None):
    """The estimate of the lowest velocity after the first slip (m/s): stick-slip goes on where it is <= 0.

    After the break-away (spring force Fs, v = 0) the friction drops to the sliding level
    Fc + sigma2 v, and the block oscillates about steady sliding as a damped oscillator,
    m e'' + sigma2 e' + k e = 0 for the lag e of the block behind it, with e'(0) = -v_pull and
    m e''(0) = Fs - Fc. Then e' = R exp(-sigma t) cos(omega_d t - phi) (sigma = sigma2 / 2m,
    omega_d^2 = k / m - sigma^2), and its first minimum, at omega_d t = pi - beta + phi with
    tan beta = sigma / omega_d, is -R (omega_d / omega) exp(-sigma t). The block comes back to
    rest if v = v_pull + e' reaches 0, so the estimate is v_pull plus that minimum (for a fast
    pull the first maximum comes one turn later, omega_d t = 2 pi - beta + phi, and the minimum
    after it).
    ``model`` defaults to :func:`classic_model`.
    """
    model = classic_model() if model is None else model
    sigma = model.sigma2 / (2.0 * m)
    omega = np.sqrt(k / m)
    omega_d = np.sqrt(omega**2 - sigma**2)
    C, D = -v_pull, ((model.Fs - model.Fc) / m - sigma * v_pull) / omega_d  # e'(0), and e''(0) = (Fs - Fc) / m
    R, phi, beta = np.hypot(C, D), np.arctan2(D, C), np.arctan2(sigma, omega_d)
    theta_max = -beta + 2.0 * np.pi * np.ceil((beta - phi) / (2.0 * np.pi))  # the first maximum, theta(0) = -phi
    t_min = (theta_max + np.pi + phi) / omega_d  # the minimum that follows it
    return float(v_pull - R * omega_d / omega * np.exp(-sigma * t_min))


def critical_pull_speed(k, m=1.0, model=None):
    """The pulling speed (m/s) above which the estimate :func:`first_slip_minimum` says the block keeps sliding."""
    from scipy.optimize import brentq

    model = classic_model() if model is None else model
    return float(brentq(lambda speed: first_slip_minimum(k, speed, m, model), 1e-6, 10.0, xtol=1e-9))


def steady_sliding_start(k=K, v_pull=V_PULL, kick=0.5, t_end=40.0, h=1e-3):
    """The spring-block started in steady sliding, its velocity knocked down to ``kick`` v_pull.

    x0 = -F_ss(v_pull) / k (the spring holds the sliding friction), z0 = z_ss(v_pull), v0 = kick v_pull.
    """
    model = classic_model()
    return spring_block(model, k, v_pull, 1.0, t_end, h, x0=-float(model.steady_state_force(v_pull)) / k,
                        v0=kick * v_pull, z0=float(model.z_ss(v_pull)))


# ---------------------------------------------------------------------------------------------
# Self-checks. Each takes the notebook's parameters (Ts, k_spring) as keywords with the lab's
# defaults, so that a correct answer stays correct when a student changes them.
# ---------------------------------------------------------------------------------------------

#: Initial state [z, dz/dt] of Task B1 (the seed's x0 = [0; -10] remark) and its number of samples.
X0_TASK_B1 = (0.0, -10.0)
SAMPLES_TASK_B1 = 6


def _task_b1_velocity(Ts=TS):
    """The first samples of the lab's input v(t) = -10 cos(pi t / 2) at sample time Ts (Task B1)."""
    return seed_velocity(Ts * np.arange(SAMPLES_TASK_B1))


def _sfunction_loop(v, Ts, x0=X0_TASK_B1, output_first=True, simultaneous=True, absolute=True, swapped=False,
                    with_sigma0=True, with_Ts=True):
    """The S-function as a student's loop writes it, with the switches of the typical slips.

    ``output_first=False``: the update before the output (one sample late);
    ``simultaneous=False``: x2 computed from the new x1; ``absolute=False``: v in place of |v|;
    ``swapped=True``: Fc and Fs swapped in g(v); ``with_sigma0=False``: the bristle update without
    sigma0 (seed 001's form); ``with_Ts=False``: z advanced by x2 instead of Ts x2.
    """
    p = SEED_PARAMETERS
    x1, x2 = x0
    F = []
    levels = (p["Fs"], p["Fc"]) if swapped else (p["Fc"], p["Fs"])
    sigma0, step = (p["sigma0"] if with_sigma0 else 1.0), (Ts if with_Ts else 1.0)
    for v_k in v:
        g_k = stribeck_level(v_k, *levels, p["vs"], 2.0)  # the g(v_k) of the student's loop, to rounding
        speed = abs(v_k) if absolute else v_k
        if output_first:
            F.append(p["sigma0"] * x1 + p["sigma1"] * x2 + p["sigma2"] * v_k)
        if simultaneous:
            x1, x2 = x1 + step * x2, -sigma0 * speed / g_k * x1 + v_k
        else:
            x1 = x1 + step * x2
            x2 = -sigma0 * speed / g_k * x1 + v_k
        if not output_first:
            F.append(p["sigma0"] * x1 + p["sigma1"] * x2 + p["sigma2"] * v_k)
    return np.array(F)


def check_sfunction_replay(F_hand, Ts=TS):
    """Self-check of the S-function replayed by hand for the first samples from x0 = [0, -10] (Task B1).

    Reference: :meth:`simlab.friction.LuGre.sfunction` with the seed's parameters at sample time Ts.
    """
    v = _task_b1_velocity(Ts)
    model = seed_model()
    return check_array(
        "S-function forces F_k", F_hand, model.sfunction(v, Ts=Ts, x0=X0_TASK_B1).F, rtol=1e-9, what="forces",
        alternatives=[
            (_sfunction_loop(v, Ts, output_first=False), "your forces are one sample late: compute the output "
             "(mdlOutputs) before the update (mdlUpdate)."),
            (_sfunction_loop(v, Ts, simultaneous=False), "your x2 uses the new x1: the update maps the old state "
             "[x1, x2] to the new one, so assign both at once (x1, x2 = ..., ...)."),
            (_sfunction_loop(v, Ts, absolute=False), "the bristle equation has |v|: the (2,1) entry is "
             "-sigma0 |v_k| / g(v_k), and v is negative here."),
            (model.sfunction(v, Ts=Ts, x0=(0.0, 0.0)).F, "these are the forces from x0 = [0, 0]; the task starts "
             "from x0 = [0, -10] (x2 = dz/dt(0) = v(0))."),
            (_sfunction_loop(v, Ts, swapped=True), "you swapped Fc and Fs in g(v) = Fc + (Fs - Fc) exp(-(v/vs)^2): "
             "the task uses the seed's table as it is (Fc = 2.444 > Fs = 0.5991, the oddity of Part A)."),
            (_sfunction_loop(v, Ts, with_sigma0=False), "your bristle update has no sigma0: that is seed 001's form "
             "(dz = v - |v|/g z, Part B); the seed 000 matrix has -sigma0 |v_k| / g(v_k) in its (2,1) entry."),
            (_sfunction_loop(v, Ts, with_Ts=False), "your z advances by x2 instead of Ts x2: the (1,2) entry of the "
             "matrix is the sample time Ts (z_{k+1} = z_k + Ts x2_k), a missing factor Ts."),
        ],
    )


def _characteristic_coefficients(char_poly, Ts):
    """Coefficients of a characteristic polynomial in lambda at a = 300 1/s and the sample time Ts.

    Returns (coefficients, None), or (None, reason) when ``char_poly`` is not a polynomial in
    lambda, a and T_s.
    """
    import sympy as sp

    try:
        expr = sp.sympify(char_poly)
    except (sp.SympifyError, TypeError):
        return None, f"expected a sympy expression in lambda, a and T_s, got {char_poly!r}."
    if isinstance(expr, sp.Poly):
        expr = expr.as_expr()
    names = {symbol.name: symbol for symbol in expr.free_symbols}
    if "lambda" not in names:
        return None, "the polynomial has no symbol lambda; use M.charpoly(lam).as_expr()."
    values = {names[name]: value for name, value in (("a", 300), ("T_s", sp.nsimplify(Ts))) if name in names}
    expr = expr.subs(values)
    left = sorted(symbol.name for symbol in expr.free_symbols if symbol.name != "lambda")
    if left:
        return None, f"the polynomial contains {left}; build M from the symbols a and Ts_sym."
    return [float(c) for c in sp.Poly(expr, names["lambda"]).all_coeffs()], None


def check_characteristic_equation(char_poly, c_limit, Ts=TS):
    """Self-check of the seed scheme's characteristic polynomial and of its stability limit a Ts < 1 (Task C1).

    The polynomial is compared through its coefficients at a = 300 1/s and the notebook's Ts
    (reference lambda^2 - lambda + a Ts); the limit against :func:`seed_scheme_limit`.
    """
    title = f"characteristic polynomial at a = 300 1/s, Ts = {1e3 * Ts:g} ms"
    coefficients, problem = _characteristic_coefficients(char_poly, Ts)
    c = 300.0 * Ts
    if problem:
        polynomial = CheckResult(False, title, problem)
    else:
        polynomial = check_array(title, coefficients, [1.0, -1.0, c], what="coefficients", alternatives=[
            ([1.0, -1.0, -c], "the constant term has the wrong sign: the (2,1) entry of M is -a (the relaxation "
             "term -sigma0 |v| z / g), so det(lambda I - M) = lambda^2 - lambda + a Ts."),
            ([1.0, -1.0, c * Ts], "your constant term is a Ts^2: Ts appears twice in M. The (2,1) entry is -a, "
             "without Ts (x2 is the bristle rate dz/dt itself, not a step of it); only z_{k+1} = z_k + Ts x2 has Ts.")])
    limit = check_value("stability limit of a Ts", c_limit, seed_scheme_limit(), alternatives=[
        (2.0, "2 is the limit of plain explicit Euler; the lagged slope halves it."),
        (0.25, "1/4 is where the roots turn complex, not where they leave the unit circle: for c > 1/4, "
         "|lambda|^2 is the product of the roots, c.")])
    return all_of("characteristic equation and stability limit", [polynomial, limit])


def _upward(v, threshold=0.05):
    return np.flatnonzero((v[:-1] < threshold) & (v[1:] >= threshold))


def check_stick_slip(period, peak, k_spring=K):
    """Self-check of the stick-slip period and peak slip speed of the spring-block with spring k_spring (Task D1).

    Reference: :func:`stick_slip_metrics` of :func:`stick_slip` with ``k=k_spring``.
    """
    slip = stick_slip(k=k_spring)
    t, v = slip.t, slip.v
    downward = np.flatnonzero((v[:-1] >= 0.05) & (v[1:] < 0.05))
    above = np.flatnonzero(v[1:] >= 0.05)
    period_check = check_value(
        "stick-slip period", period, slip.period, unit="s",
        alternatives=[(np.mean(np.diff(t[_upward(v)])), "you kept the first spacing; leave it out (the first "
                       "cycle starts from rest with the spring relaxed)."),
                      (np.mean(np.diff(t[downward])[1:]), "these are the spacings of the slip ends (v falling "
                       "below 0.05 m/s); take the onsets, where v crosses 0.05 m/s upwards."),
                      (np.mean(np.diff(_upward(v))[1:]), "your period is in samples, not seconds: you averaged the "
                       "sample indices of the onsets; take their times, t_slip[...] (one sample is h = "
                       f"{1e3 * slip.block.h:g} ms)."),
                      (np.mean(np.diff(t[above])[1:]), "you took every sample above 0.05 m/s, not the crossings: "
                       "an onset is a sample below 0.05 m/s followed by one at or above it.")])
    peak_check = check_value("peak slip speed", peak, slip.peak, unit="m/s")
    return all_of(f"stick-slip with k = {k_spring:g} N/m", [period_check, peak_check])


def _reference_b1(Ts=TS):
    return {"F_hand": seed_model().sfunction(_task_b1_velocity(Ts), Ts=Ts, x0=X0_TASK_B1).F}


def _reference_c1(Ts=TS):
    import sympy as sp

    a, Ts_sym, lam = sp.Symbol("a", positive=True), sp.Symbol("T_s", positive=True), sp.Symbol("lambda")
    return {"char_poly": lam**2 - lam + a * Ts_sym, "c_limit": seed_scheme_limit()}


def _reference_d1(k_spring=K):
    slip = stick_slip(k=k_spring)
    return {"period": slip.period, "peak": slip.peak}


#: The parameters a student may change in the notebook's parameter cell (the second code cell).
PARAMETERS = Parameters(
    Parameter("Ts", TS, "s", "sample time (采样时间) of the seed's S-function, Parts B and C",
              (rule("0.1 ms <= {name} <= 10 ms (at most ten times finer or coarser than the seed's 1 ms: the "
                    "replays of Part B run 60 s / Ts samples)", lambda value, values: 1e-4 <= value <= 1e-2),),
              alternative=0.002),
    Parameter("k_spring", K, "N/m", "spring stiffness (弹簧刚度) of the stick-slip block, Parts D to G",
              (rule("2 N/m <= {name} <= 12 N/m (pulled at 0.1 m/s, the block stick-slips, Part G's map, and the "
                    "30 s of Part E hold at least three slips)", lambda value, values: 2.0 <= value <= 12.0),),
              alternative=3.0),
)
use_parameters = PARAMETERS.use

#: The tasks of lab 08, by their label in the notebook.
TASKS = Tasks(
    Task("B1", ("F_hand",), check_sfunction_replay, ("Ts",), _reference_b1, "the seed's S-function replayed by hand"),
    Task("C1", ("char_poly", "c_limit"), check_characteristic_equation, ("Ts",), _reference_c1,
         "the characteristic equation of the seed's scheme and its stability limit"),
    Task("D1", ("period", "peak"), check_stick_slip, ("k_spring",), _reference_d1,
         "the stick-slip period and peak slip speed"),
    parameters=PARAMETERS,
)
check = TASKS.check
take = TASKS.take

_G = 'g_k = p["Fc"] + (p["Fs"] - p["Fc"]) * np.exp(-(v_k / p["vs"]) ** 2)'
_OUTPUT = '    F_hand.append(p["sigma0"] * x1 + p["sigma1"] * x2 + p["sigma2"] * v_k)  # mdlOutputs'
_UPDATE = '    x1, x2 = x1 + Ts * x2, -p["sigma0"] * abs(v_k) / g_k * x1 + v_k  # mdlUpdate'
_LIMIT = "c_limit = float(sp.solve(sp.Eq(sp.simplify(roots[0] * roots[1]), 1), c)[0])"
_UPWARD = "upward = (v_slip[:-1] < 0.05) & (v_slip[1:] >= 0.05)"

#: Typical mistakes: each replaces a piece of a task's solution code; its check must give the hint.
MISTAKES = (
    Mistake("B1", "update first, then output", f"{_OUTPUT}\n{_UPDATE}", f"{_UPDATE}\n{_OUTPUT}", "one sample late"),
    Mistake("B1", "x2 from the new x1", _UPDATE,
            '    x1 = x1 + Ts * x2  # mdlUpdate\n    x2 = -p["sigma0"] * abs(v_k) / g_k * x1 + v_k', "new x1"),
    Mistake("B1", "v in place of |v|", "abs(v_k) / g_k", "v_k / g_k", "|v|"),
    Mistake("B1", "the seed's default x0 = [0, 0]", "x1, x2 = 0.0, -10.0", "x1, x2 = 0.0, 0.0", "x0 = [0, 0]"),
    Mistake("B1", "Fc and Fs swapped in g(v)", _G, 'g_k = p["Fs"] + (p["Fc"] - p["Fs"]) * np.exp(-(v_k / p["vs"]) ** 2)',
            "swapped Fc and Fs"),
    Mistake("B1", "no sigma0 in the bristle update (seed 001)", '-p["sigma0"] * abs(v_k) / g_k * x1',
            "-abs(v_k) / g_k * x1", "seed 001's form"),
    Mistake("B1", "z advanced without Ts", "x1, x2 = x1 + Ts * x2,", "x1, x2 = x1 + x2,", "missing factor Ts"),
    Mistake("C1", "+a in the matrix", "M = sp.Matrix([[1, Ts_sym], [-a, 0]])", "M = sp.Matrix([[1, Ts_sym], [a, 0]])",
            "wrong sign"),
    Mistake("C1", "Ts in both rows of M", "M = sp.Matrix([[1, Ts_sym], [-a, 0]])",
            "M = sp.Matrix([[1, Ts_sym], [-a * Ts_sym, 0]])", "Ts appears twice"),
    Mistake("C1", "the limit where the roots turn complex", _LIMIT,
            "c_limit = float(sp.solve(sp.discriminant(lam**2 - lam + c, lam), c)[0])", "roots turn complex"),
    Mistake("C1", "the explicit Euler limit |1 - c| < 1", _LIMIT,
            "c_limit = float(sp.solve(sp.Eq(1 - c, -1), c)[0])  # explicit Euler: 1 - c = -1", "plain explicit Euler"),
    Mistake("D1", "the first spacing kept", "period = np.mean(np.diff(onsets)[1:])", "period = np.mean(np.diff(onsets))",
            "kept the first spacing"),
    Mistake("D1", "downward crossings", _UPWARD, "upward = (v_slip[:-1] >= 0.05) & (v_slip[1:] < 0.05)", "slip ends"),
    Mistake("D1", "sample indices for times", "onsets = t_slip[np.flatnonzero(upward)]",
            "onsets = np.flatnonzero(upward)", "in samples, not seconds"),
    Mistake("D1", "every sample above the threshold", _UPWARD, "upward = v_slip[1:] >= 0.05", "not the crossings"),
)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_lugre_behaviours(behaviours):
    """Lab 08: the classic LuGre behaviours: frictional lag loops, break-away force, stick-slip.

    ``behaviours`` is a :class:`LuGreBehaviours` (``run().data.behaviours``).
    """
    fig, (ax_lag, ax_break, ax_slip) = subplots(1, 3, figsize=(14, 4))
    lag = behaviours.lag
    ax_lag.plot(lag.static_v * 1e3, lag.static_F, color="black", linestyle=":", label="static curve")
    for i, (f, loop) in enumerate(lag.loops.items()):
        ax_lag.plot(loop.v * 1e3, loop.F, label=f"{f:g} Hz", **line_style(i))
    ax_lag.set(xlabel="velocity v (mm/s)", ylabel="friction F (N)", title="Frictional lag")
    ax_lag.legend()
    breaks = behaviours.break_away
    ax_break.semilogx(breaks.rates, breaks.forces, "ko-", label="friction at break-away")
    ax_break.semilogx(breaks.rates, [row.applied for row in breaks.rows], color="gray", marker="s",
                      linestyle="--", label="applied force then")
    ax_break.axhline(breaks.Fs, color="gray", linestyle="-.", label="Fs")
    ax_break.axhline(breaks.Fc, color="gray", linestyle=":", label="Fc")
    ax_break.set(xlabel="rate of the applied force (N/s)", ylabel="force (N)", title="Break-away force")
    ax_break.legend()
    slip = behaviours.stick_slip
    ax_slip.plot(slip.t, slip.v, color="black")
    ax_slip.set(xlabel="t (s)", ylabel="block velocity v (m/s)",
                title=f"Stick-slip, k = {slip.k:g} N/m, v_pull = {slip.v_pull:g} m/s")
    return fig


def plot_seed_sfunction(comparison):
    """Lab 08: the seed's S-function against the continuous model, for each initial state.

    ``comparison`` is a :class:`SeedComparison` (:func:`seed_comparison`, ``run().data.comparison``).
    """
    fig, (ax, ax_err) = subplots(1, 2, figsize=(11, 4))
    t = comparison.t
    ax.plot(t, comparison.F_continuous, color="black", label="continuous model")
    for i, (x0, run) in enumerate(comparison.runs.items(), start=1):
        ax.plot(t, run.F, label=f"S-function, x0 = {list(x0)}", **line_style(i))
        ax_err.semilogy(t, np.maximum(np.abs(run.F - comparison.F_continuous), 1e-12),
                        label=f"x0 = {list(x0)}", **line_style(i))
    ax.set(xlabel="t (s)", ylabel="friction F (N)", title=f"Seed parameters, Ts = {1e3 * comparison.Ts:g} ms")
    ax.legend()
    ax_err.set(xlabel="t (s)", ylabel="|F_S-function - F_continuous| (N)", title="Difference")
    ax_err.legend()
    return fig


def _edges(values, log=False):
    """Cell edges around grid values (geometric midpoints on a log axis), for pcolormesh."""
    values = np.log(values) if log else np.asarray(values, dtype=float)
    middle = 0.5 * (values[1:] + values[:-1])
    edges = np.concatenate([[2 * values[0] - middle[0]], middle, [2 * values[-1] - middle[-1]]])
    return np.exp(edges) if log else edges


def plot_stick_slip_map(stick_map, k_spring=K):
    """Lab 08: stick-slip period and peak slip speed against k and v_pull, with the estimated boundary.

    ``stick_map`` is a :class:`StickSlipMap` (:func:`stick_slip_map`, ``run().data.stick_slip_map``);
    the lab's block (k_spring, V_PULL) is marked.
    """
    fig, (ax_period, ax_peak) = subplots(1, 2, figsize=(12, 4.5))
    k_edges, v_edges = _edges(stick_map.k, log=True), _edges(stick_map.v_pull)
    k_fine = np.geomspace(stick_map.k[0], stick_map.k[-1], 60)
    estimate = [critical_pull_speed(k) for k in k_fine]
    for ax, values, label, title in ((ax_period, stick_map.period, "period (s)", "Stick-slip period (blank: sliding)"),
                                     (ax_peak, stick_map.peak, "peak slip speed (m/s)", "Peak slip speed")):
        mesh = ax.pcolormesh(k_edges, v_edges, np.ma.masked_invalid(values).T, cmap="viridis", shading="flat")
        fig.colorbar(mesh, ax=ax, label=label)
        ax.plot(k_fine, estimate, color="black", linestyle="--", label="estimate: the first slip returns to v = 0")
        ax.plot(stick_map.k, stick_map.boundary, "^", color="black", markerfacecolor="white",
                label="largest v_pull with stick-slip (grid)")
        ax.plot([k_spring], [V_PULL], "r*", markersize=12, label=f"the lab's block, k = {k_spring:g} N/m")
        ax.set(xscale="log", xlabel="spring stiffness k (N/m)", ylabel="pulling speed v_pull (m/s)", title=title)
        ax.set_xticks(stick_map.k, [f"{k:g}" for k in stick_map.k])
        ax.set_xticks([], minor=True)
        ax.grid(False)
    ax_period.legend(loc="upper right", fontsize="small")
    return fig


def run():
    """Run lab 08 headless.

    Returns
    -------
    ExperimentResult
        The key numbers, the figures ``lab08_sfunction``, ``lab08_behaviours`` and
        ``lab08_stick_slip_map``, and the :class:`Lab08Results` as ``data``.
    """
    comparison = seed_comparison()
    behaviours = LuGreBehaviours(lag=frictional_lag(), break_away=break_away(), stick_slip=stick_slip())
    data = Lab08Results(comparison=comparison, seed_limit=seed_scheme_limit(), blowup=seed_scheme_blowup(),
                        stribeck=stribeck_curves(), behaviours=behaviours, reference=radau_stick_slip(),
                        static={h: static_spring_block(h) for h in (1e-3, 1e-4)}, stick_slip_map=stick_slip_map())
    breaks, slip, reference = behaviours.break_away, behaviours.stick_slip, data.reference
    summary = []
    for x0, entry in comparison.runs.items():
        summary.append((f"seed S-function x0 = {list(x0)}: |F error| at t = 0 / after",
                        f"{entry.error_at_0:.3f} / {entry.max_error_after_0:.4f} N"))
    summary.append(("seed scheme stability limit a Ts <", f"{data.seed_limit:g}"))
    summary.append(("classic set at Ts = 1 ms: a Ts / spectral radius",
                    f"{data.blowup.a_Ts:.1f} / {data.blowup.spectral_radius:.2f}"))
    summary.append(("break-away force at 0.5 / 50 N/s",
                    f"{breaks.force_at(0.5):.3f} / {breaks.force_at(50.0):.3f} N"))
    summary.append(("stick-slip period: exponential h = 1 ms / Radau", f"{slip.period:.4f} / {reference.period:.4f} s"))
    summary.append(("peak slip speed: exponential / Radau", f"{slip.peak:.4f} / {reference.peak:.4f} m/s"))
    for h, entry in data.static.items():
        summary.append((f"static model, RK4 h = {h:g}: time stuck", f"{100 * entry.stuck_fraction:.0f} %"))
    stick_map = data.stick_slip_map
    first, last = 0, len(stick_map.k) - 1
    summary.append((f"stick-slip map: largest v_pull with stick-slip at k = {stick_map.k[first]:g} / "
                    f"{stick_map.k[last]:g} N/m (grid / estimate)",
                    f"{stick_map.boundary[first]:.3f} / {stick_map.critical_v_pull[first]:.3f} and "
                    f"{stick_map.boundary[last]:.3f} / {stick_map.critical_v_pull[last]:.3f} m/s"))
    summary.append(("stick-slip map: largest real part of the linearised steady sliding",
                    f"{stick_map.max_real_root:.3f} 1/s"))
    return ExperimentResult(summary=summary,
                            figures=[("lab08_sfunction", plot_seed_sfunction, data.comparison),
                                     ("lab08_behaviours", plot_lugre_behaviours, data.behaviours),
                                     ("lab08_stick_slip_map", plot_stick_slip_map, stick_map)],
                            data=data)
