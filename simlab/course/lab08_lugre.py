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

The seed does not give its input signal (its figure 3 is not in the text); the lab uses
v(t) = -10 cos(pi t / 2), whose v(0) = -10 is what the seed's x0 = [0; -10] remark implies
(x2 is the bristle rate, and dz/dt(0) = v(0) for z(0) = 0).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from simlab.course import ExperimentResult
from simlab.friction import (
    CANUDAS_1995,
    SEED_PARAMETERS,
    LuGre,
    SpringBlockResult,
    StaticFriction,
    block_with_force,
    lugre_rates,
    spring_block,
    static_friction,
    stribeck_level,
    velocity_response,
)
from simlab.plotting import line_style, subplots
from simlab.results import Result

__all__ = [
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
    "break_away",
    "stick_slip",
    "stick_slip_metrics",
    "spring_block_rhs",
    "radau_stick_slip",
    "step_size_study",
    "static_spring_block",
    "run",
    "plot_lugre_behaviours",
    "plot_seed_sfunction",
]

TS = 0.001  #: the seed's sample time (s)


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
    """

    unpacks_as = ("t", "F_continuous")

    t: np.ndarray
    v: np.ndarray
    F_continuous: np.ndarray
    runs: dict


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
    """Break-away force for one rate of the applied force.

    Attributes
    ----------
    rate : float
        Rate of the applied force ramp (N/s).
    force : float
        Applied force when |v| first exceeds 1 mm/s (N).
    """

    rate: float
    force: float


@dataclass(frozen=True)
class BreakAway:
    """Break-away force against the rate of the applied force (a table, one row per rate).

    Attributes
    ----------
    rows : tuple of BreakAwayRow
        One row per rate, in the order of the rates asked for.
    Fs, Fc : float
        Static and Coulomb friction of the model (N), for comparison.
    """

    rows: tuple
    Fs: float
    Fc: float

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
    """

    unpacks_as = ("t", "v")

    block: SpringBlockResult
    period: float
    peak: float

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
    """

    method: str
    h: float
    status: str
    period_error: float
    peak_error: float


@dataclass(frozen=True)
class StepSizeStudy:
    """Period and peak errors of each bristle update at several steps (a table).

    Attributes
    ----------
    reference : StickSlipMetrics
        The Radau reference (s, m/s).
    rows : tuple of StepSizeRow
        One row per (method, h), in the order of the cases.
    """

    reference: StickSlipMetrics
    rows: tuple

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
    """

    unpacks_as = ("t", "v")

    t: np.ndarray
    v: np.ndarray
    h: float
    stuck_fraction: float
    v_min: float
    v_max: float


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
    """

    comparison: SeedComparison
    seed_limit: float
    blowup: SeedSchemeBlowup
    stribeck: StribeckCurves
    behaviours: LuGreBehaviours
    reference: StickSlipMetrics
    static: dict


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

    solution = solve_ivp(lambda tt, z: model.zdot(velocity(tt), z), (t[0], t[-1]), [0.0], t_eval=t,
                         method="Radau", rtol=1e-10, atol=1e-13)
    z = solution.y[0]
    return z, model.force(velocity(t), z)


def seed_comparison(t_end=8.0, x0_values=((0.0, 0.0), (0.0, -10.0))):
    """S-function replay against the continuous model for each initial state.

    Returns
    -------
    SeedComparison
        ``t``, ``v``, ``F_continuous`` and, per x0, the replay with its errors at t = 0 and after it.
    """
    model = seed_model()
    t = TS * np.arange(round(t_end / TS) + 1)
    v = seed_velocity(t)
    _, F_cont = continuous_response(model, seed_velocity, t)
    runs = {}
    for x0 in x0_values:
        F = model.sfunction(v, Ts=TS, x0=x0).F
        error = np.abs(F - F_cont)
        runs[tuple(x0)] = SFunctionRun(tuple(x0), F, float(error[0]), float(np.max(error[1:])))
    return SeedComparison(t, v, F_cont, runs)


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


def seed_scheme_blowup(v=0.1, t_end=0.05):
    """The seed's S-function with the classic (stiff) parameters at Ts = 1 ms against the exponential update.

    For constant v = 0.1 m/s: a Ts = sigma0 |v| Ts / g = 1e5 * 0.1 * 1e-3 / 1 = 10, far above 1.

    Returns
    -------
    SeedSchemeBlowup
        Both forces, the largest finite |F| of the seed scheme and the exact steady force g(v) + sigma2 v.
    """
    model = classic_model()
    n = round(t_end / TS) + 1
    velocity = np.full(n, v)
    with np.errstate(over="ignore", invalid="ignore"):
        seed = model.sfunction(velocity, Ts=TS).F
    stable = velocity_response(model, velocity, TS).F
    a_Ts = model.sigma0 * abs(v) * TS / float(model.g(v))
    return SeedSchemeBlowup(t=TS * np.arange(n), v=float(v), a_Ts=a_Ts,
                            spectral_radius=float(np.max(np.abs(seed_scheme_roots(a_Ts)))),
                            seed_F=seed, seed_max_abs_F=float(np.nanmax(np.abs(seed[np.isfinite(seed)]))),
                            exponential_F=stable, steady=float(model.steady_state_force(v)))


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


def break_away(rates=(0.5, 1.0, 5.0, 10.0, 50.0), samples=30000):
    """Break-away force (applied force when |v| first exceeds 1 mm/s) for ramps of the applied force."""
    model = classic_model()
    rows = []
    for rate in rates:
        t_end = 3.0 / rate
        result = block_with_force(model, lambda t, r=rate: r * t, 1.0, t_end, t_end / samples)
        first = np.flatnonzero(np.abs(result.v) > 1e-3)[0]
        rows.append(BreakAwayRow(rate, float(rate * result.t[first])))
    return BreakAway(tuple(rows), model.Fs, model.Fc)


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


def stick_slip(h=1e-3, t_end=40.0, method="exponential"):
    """Spring-block k = 2 N/m, v_pull = 0.1 m/s, m = 1 kg with the classic LuGre set."""
    result = spring_block(classic_model(), 2.0, 0.1, 1.0, t_end, h, method=method)
    metrics = stick_slip_metrics(result.t, result.v)
    return StickSlip(result, metrics.period, metrics.peak)


def spring_block_rhs(t, y, k=2.0, v_pull=0.1, m=1.0, p=CANUDAS_1995):
    """Right-hand side of the spring-block with LuGre friction, states (x, v, z), for solve_ivp.

    The friction comes from the same kernels as every simlab model (:func:`simlab.friction.lugre_rates`).
    """
    x, v, z = (float(value) for value in y)
    g = stribeck_level(v, p["Fc"], p["Fs"], p["vs"], 2.0)
    zdot, F = lugre_rates(v, z, g, p["sigma0"], p["sigma1"], p["sigma2"])
    return [v, (k * (v_pull * t - x) - F) / m, zdot]


def radau_stick_slip(t_end=40.0):
    """Reference for the stick-slip: solve_ivp(method="Radau", rtol 1e-9) of the three states.

    Returns
    -------
    StickSlipMetrics
    """
    from scipy.integrate import solve_ivp

    solution = solve_ivp(spring_block_rhs, (0, t_end), [0, 0, 0], method="Radau", rtol=1e-9, atol=1e-12,
                         max_step=1e-2, dense_output=True)
    t = np.linspace(0, t_end, round(t_end / 1e-4) + 1)
    return stick_slip_metrics(t, solution.sol(t)[1])


DEFAULT_CASES = (("exponential", (1e-3, 5e-3)), ("implicit", (1e-3, 5e-3)),
                 ("rk4", (1e-3, 1e-4, 5e-5)), ("euler", (1e-4, 2e-5)))


def step_size_study(reference=None, t_end=30.0, cases=DEFAULT_CASES):
    """Period and peak error of each bristle method against Radau, at several steps.

    A run that overflows is reported as ``status="blew up"``; one that never slips often enough
    to measure a period (the explicit methods above their limit) as ``status="wrong"``.

    Returns
    -------
    StepSizeStudy
        The reference and one :class:`StepSizeRow` per (method, h).
    """
    from simlab.integrators import NonFiniteStateError

    reference = radau_stick_slip(t_end) if reference is None else reference
    rows = []
    for method, steps in cases:
        for h in steps:
            period_error = peak_error = float("nan")
            try:
                entry = stick_slip(h, t_end, method)
            except NonFiniteStateError:
                status = "blew up"
            except ValueError:
                status = "wrong"
            else:
                status = "ok"
                period_error = (entry.period - reference.period) / reference.period
                peak_error = (entry.peak - reference.peak) / reference.peak
            rows.append(StepSizeRow(method, h, status, period_error, peak_error))
    return StepSizeStudy(reference, tuple(rows))


def static_spring_block(h, t_end=30.0):
    """The spring-block with the static friction model F = sgn(v) g(v) + sigma2 v, by RK4.

    Returns the fraction of time stuck (|v| < 1 mm/s) and the velocity range in the second half:
    the answer changes with h (the discontinuity at v = 0 is met by chattering), unlike LuGre.

    Returns
    -------
    StaticSpringBlock
    """
    from simlab.integrators import rk4

    static = StaticFriction(Fc=CANUDAS_1995["Fc"], Fs=CANUDAS_1995["Fs"], vs=CANUDAS_1995["vs"],
                            sigma2=CANUDAS_1995["sigma2"])
    friction = static.stepper()  # the static model's step: the force of eq. (1) at v

    def f(t, state):
        x, v = state
        F = friction(None, float(v), h)[1]
        return np.array([v, 2.0 * (0.1 * t - x) - F])

    t, y = rk4(f, (0.0, t_end), [0.0, 0.0], h)
    v = y[:, 1]
    half = v[len(v) // 2:]
    return StaticSpringBlock(t=t, v=v, h=h, stuck_fraction=float(np.mean(np.abs(v) < 1e-3)),
                             v_min=float(half.min()), v_max=float(half.max()))


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
    ax_break.semilogx(breaks.rates, breaks.forces, "ko-")
    ax_break.axhline(breaks.Fs, color="gray", linestyle="--", label="Fs")
    ax_break.axhline(breaks.Fc, color="gray", linestyle=":", label="Fc")
    ax_break.set(xlabel="rate of the applied force (N/s)", ylabel="break-away force (N)", title="Break-away force")
    ax_break.legend()
    slip = behaviours.stick_slip
    ax_slip.plot(slip.t, slip.v, color="black")
    ax_slip.set(xlabel="t (s)", ylabel="block velocity v (m/s)", title="Stick-slip, k = 2 N/m, v_pull = 0.1 m/s")
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
    ax.set(xlabel="t (s)", ylabel="friction F (N)", title="Seed parameters, Ts = 1 ms")
    ax.legend()
    ax_err.set(xlabel="t (s)", ylabel="|F_S-function - F_continuous| (N)", title="Difference")
    ax_err.legend()
    return fig


def run():
    """Run lab 08 headless.

    Returns
    -------
    ExperimentResult
        The key numbers, the figures ``lab08_sfunction`` and ``lab08_behaviours``, and the
        :class:`Lab08Results` as ``data``.
    """
    comparison = seed_comparison()
    behaviours = LuGreBehaviours(lag=frictional_lag(), break_away=break_away(), stick_slip=stick_slip())
    data = Lab08Results(comparison=comparison, seed_limit=seed_scheme_limit(), blowup=seed_scheme_blowup(),
                        stribeck=stribeck_curves(), behaviours=behaviours, reference=radau_stick_slip(),
                        static={h: static_spring_block(h) for h in (1e-3, 1e-4)})
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
    return ExperimentResult(summary=summary,
                            figures=[("lab08_sfunction", plot_seed_sfunction, data.comparison),
                                     ("lab08_behaviours", plot_lugre_behaviours, data.behaviours)],
                            data=data)
