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
from simlab.validation import (
    as_finite_scalar,
    as_flag,
    as_instance,
    as_positive_scalar,
    as_real_array,
)

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

    Raises TypeError or ValueError (naming the field) for a field that is not a finite positive
    number, d >= D, k <= 1, or a valve dead zone that breaks un < um < u_max.
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


def _parameters(params):
    """``params`` checked as CylinderParameters."""
    return as_instance(params, "params", CylinderParameters, "CylinderParameters")


def critical_pressure_ratio(k=1.4):
    """Critical (choking) pressure ratio r* = (2/(k+1))^(k/(k-1)); 0.5283 for air.

    Raises TypeError or ValueError unless k is a finite number > 1.
    """
    k = as_finite_scalar(k, "k")
    if k <= 1:
        raise ValueError(f"k must exceed 1, got {k!r}.")
    return (2.0 / (k + 1.0)) ** (k / (k - 1.0))


def choked_flow_factor(k=1.4):
    """Flow factor of choked flow, (2/(k+1))^((k+1)/(2(k-1))); 0.5787 for air (eq. 16's 0.58).

    Raises TypeError or ValueError unless k is a finite number > 1.
    """
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
    r may be a number (the result is a float) or an array. Raises TypeError unless r is real
    (not bool), ValueError if r is negative, NaN or inf or k <= 1.

    Examples
    --------
    >>> from simlab.plants.pneumatic import flow_factor
    >>> round(flow_factor(0.2), 4), round(flow_factor(0.9), 4), flow_factor(1.0)
    (0.5787, 0.3571, 0.0)
    """
    k = as_finite_scalar(k, "k")
    r_crit, choked = critical_pressure_ratio(k), choked_flow_factor(k)
    r_arr = as_real_array(r, "r")
    if np.any(r_arr < 0):
        raise ValueError(f"r (a pressure ratio) must be >= 0, got {r!r}.")
    out = np.vectorize(lambda value: _gamma(float(value), k, r_crit, choked), otypes=[float])(r_arr)
    return float(out) if out.ndim == 0 else out


def valve_mass_flow(u, p, params):
    """Mass flow into a chamber at pressure p (Pa, absolute) for the valve input u (V), eq. (15).

    Positive while building pressure (u >= um), zero in the dead zone, negative while exhausting
    (u <= un). Raises TypeError if ``params`` is not CylinderParameters or u, p are not real
    numbers, ValueError for u outside [0, u_max] or p <= 0.
    """
    params = _parameters(params)
    u = _valve_input(u, "u", params)
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


def _valve_input(u, name, P):
    """A valve input (V) checked within [0, u_max], where eq. (15) holds."""
    u = as_finite_scalar(u, name)
    if not 0.0 <= u <= P.u_max:
        side = f"above the rated {P.u_max!r} V" if u > P.u_max else "below 0 V"
        raise ValueError(f"{name} = {u!r} V is {side}: the valve law (eq. 15) holds for 0 <= u <= u_max = "
                         f"{P.u_max!r} V.")
    return u


def _position(x, P):
    """A piston position x (m, a float or an array) checked within the stroke [0, L]."""
    checked = as_finite_scalar(x, "x") if isinstance(x, float) else as_real_array(x, "x")
    if np.any((checked < 0.0) | (checked > P.L)):
        got = repr(checked) if np.ndim(checked) == 0 else f"values from {checked.min():g} to {checked.max():g} m"
        raise ValueError(f"x must lie within the stroke [0, L] = [0, {P.L:g}] m (a chamber volume would be "
                         f"off the cylinder), got {got}.")
    return x if isinstance(x, float) else checked


def chamber_volumes(x, params):
    """Chamber volumes V1 = V10 + A1 x, V2 = V20 + A2 (L - x) (m^3), eq. (19); x a float or an array.

    Raises TypeError if ``params`` is not CylinderParameters or x not real, ValueError for x
    (m) outside the stroke [0, L] or not finite.
    """
    params = _parameters(params)
    return _volumes(_position(x, params), params)


def _volumes(x, P):
    if not isinstance(x, float):
        x = np.asarray(x, dtype=float)
    return P.V10 + P.A1 * x, P.V20 + P.A2 * (P.L - x)


def pressure_rates(p1, p2, x, v, mdot1, mdot2, params):
    """Pressure derivatives (Pa/s) of eq. (18) for absolute pressures, position x and velocity v.

    Raises TypeError if ``params`` is not CylinderParameters or a value is not a real number,
    ValueError if p1, p2 (Pa) are not positive, x (m) is outside the stroke [0, L], or v (m/s),
    mdot1, mdot2 (kg/s) are not finite.
    """
    P = _parameters(params)
    p1, p2 = as_positive_scalar(p1, "p1"), as_positive_scalar(p2, "p2")
    x = _position(as_finite_scalar(x, "x"), P)
    v, mdot1, mdot2 = as_finite_scalar(v, "v"), as_finite_scalar(mdot1, "mdot1"), as_finite_scalar(mdot2, "mdot2")
    return _pressure_rates(p1, p2, x, v, mdot1, mdot2, P)


def _pressure_rates(p1, p2, x, v, mdot1, mdot2, P):
    V1, V2 = _volumes(x, P)
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


def _input(u, name, P):
    """A valve input as a function of t: a number checked once, a function checked at each call."""
    if not callable(u):
        value = _valve_input(u, name, P)
        return lambda t: value

    def checked(t):
        value = u(t)
        if isinstance(value, np.ndarray) and value.size == 1:
            value = value.reshape(())
        return _valve_input(value, f"{name}(t) at t = {t:g} s", P)

    return checked


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


def _no_friction(state, v, h):
    """The step of a frictionless piston (``friction=None``)."""
    return None, 0.0, 0.0


class _Valves:
    """Valve flows and chamber pressure rates (eqs. 15-19) for the cylinder of ``P``."""

    def __init__(self, P):
        self.P = P
        self.r_crit, self.choked = critical_pressure_ratio(P.k), choked_flow_factor(P.k)

    def rates(self, p1, p2, x, v, u1, u2):
        """Mass flows m'_1, m'_2 (kg/s) and pressure rates p'_1, p'_2 (Pa/s) of the two chambers."""
        md1 = _mass_flow(u1, p1, self.P, self.r_crit, self.choked)
        md2 = _mass_flow(u2, p2, self.P, self.r_crit, self.choked)
        return (md1, md2) + _pressure_rates(p1, p2, x, v, md1, md2, self.P)


def _pressure_force(p1, p2, P):
    """Net pressure force on the piston (N), gauge pressures: (p1 - p_atm) A1 - (p2 - p_atm) A2 (eq. 20)."""
    return (p1 - P.patm) * P.A1 - (p2 - P.patm) * P.A2


def _piston_step(x, v, acc, h, L, hold):
    """Velocity by Euler, position by the trapezoidal rule, and the end stops at 0 and L.

    Returns (x_next, v_next, stopped): at a stop, or for a clamped piston (``hold``), v = 0 and
    the stop carries the load while the net force presses into it.
    """
    if hold:
        return x, 0.0, True
    v_next = v + h * acc
    x_next = x + 0.5 * h * (v + v_next)
    if x_next <= 0.0 and v_next <= 0.0:
        return 0.0, 0.0, True
    if x_next >= L and v_next >= 0.0:
        return L, 0.0, True
    return x_next, v_next, False


def _chamber_step(p, dp, dp_next, m, md, md_next, V_next, h, P):
    """Trapezoidal corrector (Heun) for a chamber's pressure and air mass, with the valve limits.

    A valve cannot take a chamber past the pressure it connects it to (the exhaust law is
    infinitely steep at p = p_atm, so a step may overshoot): the step stops there, and the mass
    is booked with the pressure change it stands for (:func:`_limit`).
    """
    p_next = p + 0.5 * h * (dp + dp_next)
    m_next = m + 0.5 * h * (md + md_next)
    return _limit(p, p_next, m_next, V_next, md + md_next, P, P.R * P.Ts)


def _check_cylinder_arguments(params, friction, u1, u2, t_end, h, x0, v0, p10, p20, hold):
    from simlab.friction import FrictionModel

    if not isinstance(params, CylinderParameters):
        raise TypeError(f"params must be CylinderParameters, got {type(params).__name__}.")
    if friction is not None and not isinstance(friction, FrictionModel):
        raise TypeError(
            f"friction must be a friction model (simlab.friction.LuGre, StaticFriction or "
            f"simlab.revised_lugre.RevisedLuGre) or None, got {type(friction).__name__}."
        )
    t_end = as_positive_scalar(t_end, "t_end")
    h = as_positive_scalar(h, "h")
    x = as_finite_scalar(x0, "x0")
    if not 0.0 <= x <= params.L:
        raise ValueError(f"x0 must lie within the stroke [0, {params.L}] m, got {x!r}.")
    v = 0.0 if as_flag(hold, "hold") else as_finite_scalar(v0, "v0")
    p1 = params.patm if p10 is None else as_positive_scalar(p10, "p10")
    p2 = params.patm if p20 is None else as_positive_scalar(p20, "p20")
    return _input(u1, "u1", params), _input(u2, "u2", params), t_end, h, x, v, p1, p2


def _check_finite_state(label, i, t, h, x, v, p1, p2):
    from simlab.integrators import NonFiniteStateError

    if not (math.isfinite(x) and math.isfinite(v) and math.isfinite(p1) and math.isfinite(p2)):
        raise NonFiniteStateError(
            f"simulate_cylinder ({label}): the state became inf or NaN at step {i} (t = {t:.4g} s, "
            f"h = {h:g} s); try a smaller h.", step=i, t=t, h=h)
    if p1 <= 0.0 or p2 <= 0.0:
        raise NonFiniteStateError(
            f"simulate_cylinder ({label}): a chamber pressure fell to zero at step {i} (t = {t:.4g} s); "
            f"the step h = {h:g} s is too large for the valve flow.", step=i, t=t, h=h)


def simulate_cylinder(params, friction, u1, u2, t_end, h=1.16e-3, x0=0.035, v0=0.0, p10=None, p20=None,
                      hold=False):
    """Simulate the electro-pneumatic cylinder with a friction model, fixed step h.

    Per step (the friction updates of lab08, extended):

    1. valves and chambers: flows and pressure rates at the start of the step (eqs. 15-19), an
       Euler predictor for the pressures, and the pressure force on the piston at mid-step;
    2. friction over the step with v held, by the model's stepper (the
       :class:`simlab.friction.FrictionModel` interface): for LuGre and the revised model the
       bristle state by its exact exponential (F(z) linearized at the start of the step for the
       hysteresis curves) and the film by its exact exponential, with the friction averaged over
       the step; for the static model the force of eq. (1) at the velocity of the start of the
       step, as a fixed-step Simulink run evaluates a static map; None: no friction;
    3. the piston: velocity from the force balance (with the mass ``friction.lead_mass`` that
       the lead term sigma2 T dv/dt adds), position by the trapezoidal rule, and the end stops:
       the piston is held at 0 or L (v = 0) while the net force presses into the stop (the
       bristle state, and with it the reported friction of LG/RLG, stays frozen there; the stop
       carries the load);
    4. the pressures and the chamber air masses by the trapezoidal corrector (Heun); a step that
       would carry a pressure past p_atm (exhausting) or p_s (building) stops there.

    Parameters
    ----------
    params : CylinderParameters
    friction : simlab.friction.FrictionModel or None
        :class:`simlab.friction.LuGre`, :class:`simlab.revised_lugre.RevisedLuGre`,
        :class:`simlab.friction.StaticFriction`, or None for no friction.
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

    Raises
    ------
    TypeError
        If ``params`` or ``friction`` has the wrong type, a number is not a real number, or
        ``hold`` is not a bool.
    ValueError
        If t_end, h, p10 or p20 is not positive, x0 is outside [0, L], a value is NaN or inf,
        or a valve input (u1, u2 or what the function returns) is outside [0, u_max].
    simlab.integrators.NonFiniteStateError
        If the state becomes inf or NaN or a chamber pressure falls to zero (h too large).
    """
    U1, U2, t_end, h, x, v, p1, p2 = _check_cylinder_arguments(params, friction, u1, u2, t_end, h, x0,
                                                                 v0, p10, p20, hold)
    P = params
    t = h * np.arange(math.ceil(t_end / h - 1e-9) + 1)
    N = len(t) - 1
    valves = _Valves(P)
    step = _no_friction if friction is None else friction.stepper("exponential")
    state = None if friction is None else friction.initial_state()
    lead = 0.0 if friction is None else friction.lead_mass
    label = "none" if friction is None else friction.label
    V1, V2 = _volumes(x, P)
    m1, m2 = p1 * V1 / (P.R * P.Ts), p2 * V2 / (P.R * P.Ts)  # at the supply temperature
    out = {name: np.empty(N + 1) for name in ("x", "v", "p1", "p2", "F", "z", "film", "m1", "m2", "u1", "u2")}
    F_out = 0.0
    ua, ub = float(U1(t[0])), float(U2(t[0]))
    for i in range(N + 1):
        z, film = (0.0, 0.0) if friction is None else (friction.deflection(state), friction.film_thickness(state))
        for name, value in zip(("x", "v", "p1", "p2", "z", "film", "m1", "m2", "u1", "u2"),
                               (x, v, p1, p2, z, film, m1, m2, ua, ub)):
            out[name][i] = value
        if i == N:
            out["F"][i] = F_out
            break
        # 1. valves and chambers: rates, predictor, pressure force at mid-step
        md1, md2, dp1, dp2 = valves.rates(p1, p2, x, v, ua, ub)
        p1p, p2p = max(p1 + h * dp1, 1.0), max(p2 + h * dp2, 1.0)
        drive = _pressure_force(0.5 * (p1 + p1p), 0.5 * (p2 + p2p), P)
        # 2. friction over the step, v held
        state, F_step, _ = step(state, v, h)
        acc = (drive - F_step) / (P.M + lead)
        # 3. piston and end stops; the lead term sigma2 T dv/dt vanishes at a stop
        x_next, v_next, stopped = _piston_step(x, v, acc, h, P.L, hold)
        F_out = F_step if stopped else F_step + lead * acc
        # 4. chambers: corrector with the valve limits
        ua, ub = float(U1(t[i + 1])), float(U2(t[i + 1]))
        md1c, md2c, dp1c, dp2c = valves.rates(p1p, p2p, x_next, v_next, ua, ub)
        V1n, V2n = _volumes(x_next, P)
        p1, m1 = _chamber_step(p1, dp1, dp1c, m1, md1, md1c, V1n, h, P)
        p2, m2 = _chamber_step(p2, dp2, dp2c, m2, md2, md2c, V2n, h, P)
        out["F"][i] = F_out
        x, v = x_next, v_next
        _check_finite_state(label, i + 1, float(t[i + 1]), h, x, v, p1, p2)
    return CylinderResult(t=t, model=label, h=h, params=P, **out)
