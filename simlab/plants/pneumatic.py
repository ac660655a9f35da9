"""An electro-pneumatic servo cylinder with friction (气动伺服气缸), seed 002's case study.

Two proportional flow valves feed the chambers of a double-acting cylinder (seed 002, sect. 3.2,
after Tressler et al. 2002 and Hodgson et al. 2012). With absolute pressures p1, p2:

* valve mass flow with a dead zone (eq. 15), j = 1, 2::

      m'_j = gamma_b(p_j / p_s)     p_s sqrt(k / (R T_s)) K_V1 (u_j - u_m)   if u_m <= u_j <= 5
           = 0                                                             if u_n <  u_j <  u_m
           = gamma_e(p_atm / p_j)   p_j sqrt(k / (R T_s)) K_V2 (u_j - u_n)   if 0   <= u_j <= u_n

  (the exhausting branch is negative: air leaves the chamber);
* flow factors (eqs. 16-17) of the downstream/upstream pressure ratio r::

      gamma(r) = sqrt(2/(k-1)) r^((k+1)/(2k)) sqrt(r^((1-k)/k) - 1)   for r >= r* = (2/(k+1))^(k/(k-1))
               = (2/(k+1))^((k+1)/(2(k-1)))                           for r < r*   (choked)

  The choked constant is 0.5787 for k = 1.4, which eq. (16) rounds to 0.58; the exact value is
  used so that gamma is continuous at r*. For r >= 1 (no pressure drop) gamma = 0;
* chamber pressures (eq. 18), polytropic with exponent k::

      p1' = k / V1 (R T_s m'_1 - p1 A1 v),   p2' = k / V2 (R T_s m'_2 + p2 A2 v),
      V1 = V10 + A1 x,   V2 = V20 + A2 (L - x)                                     (19)

* the piston (eq. 20): M a = (p1 - p_atm) A1 - (p2 - p_atm) A2 - F_r (the atmosphere acts on
  the rod end, so the force balance uses gauge pressures, as the paper's figures do), with end
  stops at x = 0 and x = L that hold the piston (v = 0) while the pressures go on changing.

Every parameter lives in :class:`CylinderParameters`, with its unit and source.

Used in lab09 (friction models in a pneumatic cylinder).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from simlab.results import Result
from simlab.validation import as_finite_scalar, as_positive_scalar

__all__ = [
    "CylinderParameters",
    "critical_pressure_ratio",
    "choked_flow_factor",
    "flow_factor",
    "valve_mass_flow",
    "chamber_volumes",
    "pressure_rates",
    "CylinderResult",
    "simulate_cylinder",
]


@dataclass(frozen=True)
class CylinderParameters:
    """Parameters of the cylinder, the valves and the air (SI units, pressures absolute).

    Defaults: geometry, supply pressure and load from the text of seed 002 (SMC CM2L25-300:
    bore 25 mm, rod 10 mm, stroke 0.3 m; supply 0.5 MPa, taken as gauge; M = 0.5 kg as in the
    simulations of its figs. 10-12). The paper's Table 1 (dead volumes, valve gains, dead zone)
    is not in the seed: those defaults are estimates, rounded from the derivation of
    :func:`simlab.course.lab09_pneumatic_friction.valve_estimates` (from what the text reports)
    and marked "estimated" below.
    """

    D: float = 0.025  #: bore (m), seed 002 sect. 3.1
    d: float = 0.010  #: rod diameter (m), seed 002 sect. 3.1
    L: float = 0.3  #: stroke (m), seed 002 sect. 3.1
    V10: float = 5.14e-5  #: dead volume of chamber 1, with ports and tubing (m^3), estimated (lab09)
    V20: float = 5.14e-5  #: dead volume of chamber 2 (m^3), estimated as V10 (lab09)
    M: float = 0.5  #: moving mass: piston, rod and load (kg), seed 002 figs. 10-12
    ps_gauge: float = 0.5e6  #: supply pressure above atmosphere (Pa), seed 002 sect. 3.1
    patm: float = 101325.0  #: atmospheric pressure (Pa), standard atmosphere
    Ts: float = 293.15  #: supply air temperature (K), assumed 20 degC
    R: float = 287.0  #: gas constant of air (J/(kg K))
    k: float = 1.4  #: ratio of specific heats / polytropic exponent of air
    KV1: float = 9.94e-7  #: valve gain, building pressure (m^2/V), estimated (lab09)
    KV2: float = 7.09e-6  #: valve gain, exhausting pressure (m^2/V), estimated (lab09)
    um: float = 2.8700  #: upper limit of the valve dead zone (V), estimated (lab09)
    un: float = 2.20  #: lower limit of the valve dead zone (V), estimated (lab09)
    u_max: float = 5.0  #: rated valve input (V), seed 002 sect. 3.1

    def __post_init__(self):
        for f in fields(self):
            as_positive_scalar(getattr(self, f.name), f.name)
        if self.d >= self.D:
            raise ValueError(f"the rod (d = {self.d!r} m) must be thinner than the bore (D = {self.D!r} m).")
        if not self.un < self.um < self.u_max:
            raise ValueError(
                f"the valve dead zone needs un < um < u_max, got un = {self.un!r} V, um = {self.um!r} V, "
                f"u_max = {self.u_max!r} V."
            )
        if self.k <= 1:
            raise ValueError(f"k (ratio of specific heats) must exceed 1, got {self.k!r}.")

    @property
    def A1(self):
        """Piston area of chamber 1 (cap end), pi D^2 / 4 (m^2)."""
        return math.pi * self.D**2 / 4.0

    @property
    def A2(self):
        """Annular piston area of chamber 2 (rod end), pi (D^2 - d^2) / 4 (m^2)."""
        return math.pi * (self.D**2 - self.d**2) / 4.0

    @property
    def ps(self):
        """Absolute supply pressure (Pa)."""
        return self.ps_gauge + self.patm

    @property
    def flow_constant(self):
        """sqrt(k / (R T_s)) (s/m), the factor of eq. (15)."""
        return math.sqrt(self.k / (self.R * self.Ts))


def critical_pressure_ratio(k=1.4):
    """Critical (choking) pressure ratio r* = (2/(k+1))^(k/(k-1)); 0.5283 for air."""
    k = as_finite_scalar(k, "k")
    if k <= 1:
        raise ValueError(f"k must exceed 1, got {k!r}.")
    return (2.0 / (k + 1.0)) ** (k / (k - 1.0))


def choked_flow_factor(k=1.4):
    """Flow factor of choked flow, (2/(k+1))^((k+1)/(2(k-1))); 0.5787 for air (eq. 16's 0.58)."""
    k = as_finite_scalar(k, "k")
    if k <= 1:
        raise ValueError(f"k must exceed 1, got {k!r}.")
    return (2.0 / (k + 1.0)) ** ((k + 1.0) / (2.0 * (k - 1.0)))


def _gamma(r, k, r_crit, choked):
    if r >= 1.0:
        return 0.0
    if r < r_crit:
        return choked
    return math.sqrt(2.0 / (k - 1.0)) * r ** ((k + 1.0) / (2.0 * k)) * math.sqrt(r ** ((1.0 - k) / k) - 1.0)


def flow_factor(r, k=1.4):
    """Flow factor gamma(r) of eqs. (16)-(17) for the downstream/upstream pressure ratio r.

    gamma_jb = flow_factor(p_j / p_s) (building), gamma_je = flow_factor(p_atm / p_j) (exhausting).

    Examples
    --------
    >>> from simlab.plants.pneumatic import flow_factor
    >>> round(flow_factor(0.2), 4), round(flow_factor(0.9), 4), flow_factor(1.0)
    (0.5787, 0.3571, 0.0)
    """
    k = as_finite_scalar(k, "k")
    r_crit, choked = critical_pressure_ratio(k), choked_flow_factor(k)
    r_arr = np.asarray(r, dtype=float)
    if np.any(~np.isfinite(r_arr)) or np.any(r_arr < 0):
        raise ValueError(f"r (a pressure ratio) must be finite and >= 0, got {r!r}.")
    out = np.vectorize(lambda value: _gamma(float(value), k, r_crit, choked), otypes=[float])(r_arr)
    return float(out) if out.ndim == 0 else out


def valve_mass_flow(u, p, params):
    """Mass flow into a chamber at pressure p (Pa, absolute) for the valve input u (V), eq. (15).

    Positive while building pressure (u >= um), zero in the dead zone, negative while exhausting
    (u <= un). Raises ValueError for u outside [0, u_max].
    """
    u = as_finite_scalar(u, "u")
    p = as_positive_scalar(p, "p")
    return _mass_flow(u, p, params, critical_pressure_ratio(params.k), choked_flow_factor(params.k))


def _mass_flow(u, p, P, r_crit, choked):
    if u >= P.um:
        if u > P.u_max:
            raise ValueError(f"valve input u = {u!r} V is above the rated {P.u_max!r} V (eq. 15 holds for 0 <= u <= 5).")
        return _gamma(p / P.ps, P.k, r_crit, choked) * P.ps * P.flow_constant * P.KV1 * (u - P.um)
    if u > P.un:
        return 0.0
    if u < 0.0:
        raise ValueError(f"valve input u = {u!r} V is below 0 V (eq. 15 holds for 0 <= u <= 5).")
    return _gamma(P.patm / p, P.k, r_crit, choked) * p * P.flow_constant * P.KV2 * (u - P.un)


def chamber_volumes(x, params):
    """Chamber volumes V1 = V10 + A1 x, V2 = V20 + A2 (L - x) (m^3), eq. (19); x a float or an array."""
    if not isinstance(x, float):
        x = np.asarray(x, dtype=float)
    return params.V10 + params.A1 * x, params.V20 + params.A2 * (params.L - x)


def pressure_rates(p1, p2, x, v, mdot1, mdot2, params):
    """Pressure derivatives (Pa/s) of eq. (18) for absolute pressures, position x and velocity v."""
    P = params
    V1, V2 = chamber_volumes(x, P)
    RT = P.R * P.Ts
    return P.k / V1 * (RT * mdot1 - p1 * P.A1 * v), P.k / V2 * (RT * mdot2 + p2 * P.A2 * v)


@dataclass(frozen=True)
class CylinderResult(Result):
    """Simulated cylinder; unpacks as ``t, x``.

    Fields: t (s), x (m), v (m/s), p1, p2 (Pa, absolute), F (friction force, N), z (bristle
    deflection, m), film (h), m1, m2 (air mass in the chambers, kg), u1, u2 (V), model, h (step).
    """

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    v: np.ndarray
    p1: np.ndarray
    p2: np.ndarray
    F: np.ndarray
    z: np.ndarray
    film: np.ndarray
    m1: np.ndarray
    m2: np.ndarray
    u1: np.ndarray
    u2: np.ndarray
    model: str
    h: float
    params: CylinderParameters

    @property
    def p1_gauge(self):
        """p1 - p_atm (Pa)."""
        return self.p1 - self.params.patm

    @property
    def p2_gauge(self):
        """p2 - p_atm (Pa)."""
        return self.p2 - self.params.patm


def _input(u, name):
    if callable(u):
        return u
    value = as_finite_scalar(u, name)
    return lambda t: value


def _limit(p_old, p_new, m, V, mdot, P, RT):
    """Clip a step that an exhausting valve carried below p_atm, or a building one above p_s.

    The mass is booked with the pressure change it stands for (V dp = k R Ts dm).
    """
    if mdot < 0.0 and p_new < P.patm <= p_old:
        bound = P.patm
    elif mdot > 0.0 and p_new > P.ps >= p_old:
        bound = P.ps
    else:
        return p_new, m
    return bound, m + V * (bound - p_new) / (P.k * RT)


def simulate_cylinder(params, friction, u1, u2, t_end, h=1.16e-3, x0=0.035, v0=0.0, p10=None, p20=None,
                      hold=False):
    """Simulate the electro-pneumatic cylinder with a friction model, fixed step h.

    Per step (the friction updates of lab08, extended):

    1. valve flows and pressure rates at the start of the step; a predictor for the pressures;
    2. the friction and the piston over the step with the mid-step pressure force:

       * LuGre / revised LuGre: the bristle state by the exact exponential of its equation with
         v held and F(z) linearized at the start of the step (exact for LuGre's sigma0 z, and
         stable whatever the bristle rate), the film thickness by its exact exponential, the
         friction averaged over the step, the velocity from the force balance (with the mass
         M + sigma2 T that the lead term sigma2 T dv/dt adds), the position by the trapezoidal
         rule;
       * steady-state (static) model: the force of eq. (1) at the velocity of the start of the
         step, as a fixed-step Simulink run evaluates a static map;
       * None: no friction;

    3. end stops: the piston is held at 0 or L (v = 0) while the net force presses into the stop
       (the bristle state, and with it the reported friction of LG/RLG, stays frozen there; the
       stop carries the load);
    4. the pressures and the chamber air masses by the trapezoidal corrector (Heun); a step that
       would carry a pressure past p_atm (exhausting) or p_s (building) stops there.

    Parameters
    ----------
    params : CylinderParameters
    friction : simlab.friction.LuGre, simlab.revised_lugre.RevisedLuGre,
        simlab.friction.StaticFriction or None
    u1, u2 : float or callable u(t)
        Valve inputs (V), within [0, 5].
    t_end, h : float
        Span (s) and step (s). The grid is t_k = k h up to the first t_k >= t_end (the paper's
        1.16 ms divides no round span). Default h: the paper's 1.16 ms.
    x0, v0 : float
        Initial position (m, within [0, L]) and velocity (m/s).
    p10, p20 : float or None
        Initial absolute pressures (Pa); default atmospheric.
    hold : bool
        Hold the piston at x0 (a clamped piston) for chamber tests.

    Returns
    -------
    CylinderResult
    """
    from simlab.friction import LuGre, StaticFriction
    from simlab.integrators import NonFiniteStateError
    from simlab.revised_lugre import RevisedLuGre, film_step

    if not isinstance(params, CylinderParameters):
        raise TypeError(f"params must be CylinderParameters, got {type(params).__name__}.")
    if friction is not None and not isinstance(friction, (LuGre, RevisedLuGre, StaticFriction)):
        raise TypeError(
            f"friction must be a LuGre, RevisedLuGre or StaticFriction model (or None), got "
            f"{type(friction).__name__}."
        )
    P = params
    U1, U2 = _input(u1, "u1"), _input(u2, "u2")
    t_end = as_positive_scalar(t_end, "t_end")
    h = as_positive_scalar(h, "h")
    n_steps = math.ceil(t_end / h - 1e-9)
    t = h * np.arange(n_steps + 1)
    x = as_finite_scalar(x0, "x0")
    if not 0.0 <= x <= P.L:
        raise ValueError(f"x0 must lie within the stroke [0, {P.L}] m, got {x!r}.")
    v = 0.0 if hold else as_finite_scalar(v0, "v0")
    p1 = P.patm if p10 is None else as_positive_scalar(p10, "p10")
    p2 = P.patm if p20 is None else as_positive_scalar(p20, "p20")
    RT = P.R * P.Ts
    V1, V2 = chamber_volumes(x, P)
    m1, m2 = p1 * V1 / RT, p2 * V2 / RT  # at the supply temperature

    N = len(t) - 1
    out = {name: np.empty(N + 1) for name in ("x", "v", "p1", "p2", "F", "z", "film", "m1", "m2", "u1", "u2")}
    r_crit, choked = critical_pressure_ratio(P.k), choked_flow_factor(P.k)
    A1, A2, patm, L = P.A1, P.A2, P.patm, P.L

    kind = "none"
    if isinstance(friction, StaticFriction):
        kind = "SS"
        Fc, dF, vs_, n, s2 = friction.Fc, friction.Fs - friction.Fc, friction.vs, friction.n, friction.sigma2
        M_eff = P.M
    elif friction is not None:
        kind = "RLG" if isinstance(friction, RevisedLuGre) else "LG"
        s0, s1, s2 = friction.sigma0, friction.sigma1, friction.sigma2
        Fc, Fs_, vs_, n = friction.Fc, friction.Fs, friction.vs, friction.n
        lead = friction.T if kind == "RLG" else 0.0
        film_on = kind == "RLG" and friction.film
        memory = friction.memory() if kind == "RLG" else None
        M_eff = P.M + s2 * lead
    else:
        M_eff = P.M
    z, film, Fz = 0.0, 0.0, 0.0
    F_out = 0.0

    def rates(p1, p2, x, v, ua, ub):
        md1 = _mass_flow(ua, p1, P, r_crit, choked)
        md2 = _mass_flow(ub, p2, P, r_crit, choked)
        return (md1, md2) + pressure_rates(p1, p2, x, v, md1, md2, P)

    ua, ub = float(U1(t[0])), float(U2(t[0]))
    for i in range(N + 1):
        out["x"][i], out["v"][i], out["p1"][i], out["p2"][i] = x, v, p1, p2
        out["z"][i], out["film"][i], out["m1"][i], out["m2"][i] = z, film, m1, m2
        out["u1"][i], out["u2"][i] = ua, ub
        if i == N:
            out["F"][i] = F_out
            break
        md1, md2, dp1, dp2 = rates(p1, p2, x, v, ua, ub)
        p1p, p2p = max(p1 + h * dp1, 1.0), max(p2 + h * dp2, 1.0)
        drive = (0.5 * (p1 + p1p) - patm) * A1 - (0.5 * (p2 + p2p) - patm) * A2  # mid-step

        if kind in ("LG", "RLG"):
            speed = abs(v)
            g = Fc + ((1.0 - film) * Fs_ - Fc) * math.exp(-((speed / vs_) ** n))
            if memory is not None:
                memory.turn(1 if v > 0 else (-1 if v < 0 else 0))
                K = memory.stiffness(z)
                Fz = memory.F if memory.direction != 0 else Fz
            else:
                K, Fz = s0, s0 * z
            rate = speed * K / g  # linearized bristle relaxation rate (1/s)
            drift = v - speed * (Fz - K * z) / g
            if rate * h > 1e-12:
                z_ss = drift / rate
                z_new = z_ss + (z - z_ss) * math.exp(-rate * h)
            else:
                z_new = z + h * drift
            Fz_new = memory.move(z_new) if memory is not None else s0 * z_new
            F_step = 0.5 * (Fz + Fz_new) + s1 * (z_new - z) / h + s2 * v
            acc = (drive - F_step) / M_eff
            if film_on:
                film = film_step(friction, film, v, h)
            z, Fz = z_new, Fz_new
        elif kind == "SS":
            F_out = (math.copysign(Fc + dF * math.exp(-(abs(v / vs_) ** n)), v) if v != 0.0 else 0.0) + s2 * v
            acc = (drive - F_out) / M_eff
        else:
            F_out = 0.0
            acc = drive / M_eff

        stopped = hold
        if hold:
            v_new, x_new = 0.0, x
        else:
            v_new = v + h * acc
            x_new = x + 0.5 * h * (v + v_new)
            if x_new <= 0.0 and v_new <= 0.0:
                x_new, v_new, stopped = 0.0, 0.0, True
            elif x_new >= L and v_new >= 0.0:
                x_new, v_new, stopped = L, 0.0, True
        if kind in ("LG", "RLG"):
            # the lead term sigma2 T dv/dt; at a stop the stop takes the impact and dv/dt = 0
            F_out = F_step if stopped else F_step + s2 * lead * acc
        ua, ub = float(U1(t[i + 1])), float(U2(t[i + 1]))
        md1c, md2c, dp1c, dp2c = rates(p1p, p2p, x_new, v_new, ua, ub)
        p1_new = p1 + 0.5 * h * (dp1 + dp1c)
        p2_new = p2 + 0.5 * h * (dp2 + dp2c)
        m1 = m1 + 0.5 * h * (md1 + md1c)
        m2 = m2 + 0.5 * h * (md2 + md2c)
        # a valve cannot take a chamber past the pressure it connects it to (the exhaust law is
        # infinitely steep at p = patm, so a step may overshoot): stop there, and book the mass
        V1n, V2n = chamber_volumes(x_new, P)
        p1_new, m1 = _limit(p1, p1_new, m1, V1n, md1 + md1c, P, RT)
        p2_new, m2 = _limit(p2, p2_new, m2, V2n, md2 + md2c, P, RT)
        p1, p2 = p1_new, p2_new
        out["F"][i] = F_out
        x, v = x_new, v_new
        if not (math.isfinite(x) and math.isfinite(v) and math.isfinite(p1) and math.isfinite(p2)):
            raise NonFiniteStateError(
                f"simulate_cylinder ({kind}): the state became inf or NaN at step {i + 1} (t = {t[i + 1]:.4g} s, "
                f"h = {h:g} s); try a smaller h."
            )
        if p1 <= 0.0 or p2 <= 0.0:
            raise NonFiniteStateError(
                f"simulate_cylinder ({kind}): a chamber pressure fell to zero at step {i + 1} (t = {t[i + 1]:.4g} s); "
                f"the step h = {h:g} s is too large for the valve flow."
            )
    return CylinderResult(t=t, model=kind, h=h, params=P, **out)
