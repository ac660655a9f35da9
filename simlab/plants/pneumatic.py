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

from simlab.jit import compiled
from simlab.plants import pneumatic_kernels as kernels
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
    out = np.vectorize(lambda value: kernels.gamma(float(value), k, r_crit, choked), otypes=[float])(r_arr)
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
    return kernels.mass_flow(u, p, _constants(params)[0])


def _constants(P):
    """The kernels' tuples ``valve`` and ``chamber`` for the cylinder ``P``."""
    return kernels.cylinder_constants(P, critical_pressure_ratio(P.k), choked_flow_factor(P.k))


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
    return kernels.volumes(x, _constants(P)[1])


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
    return kernels.pressure_rates(p1, p2, x, v, mdot1, mdot2, _constants(P)[1])


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


def _check_cylinder_arguments(params, friction, u1, u2, t_end, h, x0, v0, p10, p20, hold):
    from simlab.friction import LuGre, StaticFriction
    from simlab.revised_lugre import RevisedLuGre

    if not isinstance(params, CylinderParameters):
        raise TypeError(f"params must be CylinderParameters, got {type(params).__name__}.")
    if friction is not None and not isinstance(friction, (LuGre, StaticFriction, RevisedLuGre)):
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
    u1, u2 = (u if callable(u) else _valve_input(u, name, params) for u, name in ((u1, "u1"), (u2, "u2")))
    return u1, u2, t_end, h, x, v, p1, p2


def _input_samples(u, name, t, P):
    """The valve input ``u`` (a checked number or a function) at the times t, checked as the loop meets it.

    Returns (values, error): a float array of the good values, which stops before the first bad
    one, and None or the error that the bad one raises (u(t) raised it, or :func:`_valve_input`
    for a value outside [0, u_max] or no real number). Floats are checked all at once.
    """
    if not callable(u):
        return np.full(len(t), u), None
    values, error, times = [], None, t.tolist()  # Python floats: cheaper arithmetic inside u
    try:
        values = [u(t_k) for t_k in times]
    except Exception as exc:  # noqa: BLE001 - raised when the loop gets there, as u(t) always was
        error = exc
        values = []
        for t_k in times:  # again, up to the time it raises
            try:
                values.append(u(t_k))
            except Exception:  # noqa: BLE001
                break
    if set(map(type, values)) <= {float, np.float64}:
        checked = np.array(values, dtype=float)
        bad = np.flatnonzero(~((checked >= 0.0) & (checked <= P.u_max)))  # NaN too
        if not bad.size:
            return checked, error
        values = values[bad[0]:]
        start = int(bad[0])
    else:
        checked, start = np.empty(0), 0
    rest = []
    for j, value in enumerate(values, start):
        if isinstance(value, np.ndarray) and value.size == 1:
            value = value.reshape(())
        try:
            rest.append(_valve_input(value, f"{name}(t) at t = {t[j]:g} s", P))
        except (TypeError, ValueError) as exc:
            error = exc
            break
    return np.concatenate([checked[:start], rest]), error


def _valve_inputs(u1, u2, t, P):
    """u1 and u2 at the times t; (u1, u2, error) as :func:`_input_samples`, both arrays cut before
    the first bad value, which is the first in time (u1 before u2 at the same time)."""
    (a, error_a), (b, error_b) = _input_samples(u1, "u1", t, P), _input_samples(u2, "u2", t, P)
    n = min(len(a), len(b))
    error = error_a if len(a) == n and error_a is not None else (error_b if len(b) == n else None)
    return a[:n], b[:n], error


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

    Per step (the friction updates of lab08, extended; the loop is the kernel
    :func:`simlab.plants.pneumatic_kernels.cylinder_loop`, compiled where numba is installed,
    with the valve inputs evaluated and checked before it, in the order the loop meets them):

    1. valves and chambers: flows and pressure rates at the start of the step (eqs. 15-19), an
       Euler predictor for the pressures, and the pressure force on the piston at mid-step;
    2. friction over the step with v held, by the step kernel that the model's stepper runs
       (the :class:`simlab.friction.FrictionModel` interface): for LuGre and the revised model the
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
        Valve inputs (V), within [0, 5]; a function is called once per t_k (a float), before
        the loop.
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
    u1, u2, t_end, h, x, v, p1, p2 = _check_cylinder_arguments(params, friction, u1, u2, t_end, h, x0,
                                                                 v0, p10, p20, hold)
    P = params
    t = h * np.arange(math.ceil(t_end / h - 1e-9) + 1)
    u1, u2, input_error = _valve_inputs(u1, u2, t, P)
    if input_error is not None and len(u1) == 0:
        raise input_error
    valve, chamber = _constants(P)
    V1, V2 = kernels.volumes(x, chamber)
    m1, m2 = p1 * V1 / chamber[6], p2 * V2 / chamber[6]  # at the supply temperature
    code, parameters, curve, memory = _friction_arguments(friction, len(u1))
    lead = 0.0 if friction is None else float(friction.lead_mass)
    out = np.empty((len(kernels.RECORDED), len(u1)))
    reached, *state = compiled(kernels.cylinder_loop)(
        u1, u2, h, bool(hold), x, v, float(p1), float(p2), m1, m2, float(P.M), lead, valve, chamber, code, parameters,
        *curve, *memory, out)
    label = "none" if friction is None else friction.label
    if reached < len(u1):
        _check_finite_state(label, reached, float(t[reached]), h, *state)
    if input_error is not None:
        raise input_error
    return CylinderResult(t=t, model=label, h=h, params=P, u1=u1, u2=u2, **dict(zip(kernels.RECORDED, out)))


def _friction_arguments(friction, samples):
    """The friction arguments of :func:`~simlab.plants.pneumatic_kernels.cylinder_loop` for ``friction``.

    Returns (code, parameters, curve, memory): the model's code, its 12 parameters (Fc, Fs, vs,
    n, sigma0, sigma1, sigma2, vb, v_dwell, tau_hp, tau_hn, tau_h0; unused ones 0), the flags
    and transition curve (film_on, curve_on, c, k, starts, offsets) and the hysteresis memory
    (numbers, points) with room for a run of ``samples`` samples.
    """
    from simlab.friction import LuGre, StaticFriction
    from simlab.revised_lugre import RevisedLuGre
    from simlab.revised_lugre_kernels import NO_CURVE, no_memory

    curve, memory = (False, False) + NO_CURVE, no_memory()
    if isinstance(friction, RevisedLuGre):
        if friction.curve is not None:
            hysteresis = friction.memory()
            hysteresis.reserve(samples)
            curve, memory = (bool(friction.film), True) + friction.curve.kernel_form, (hysteresis.numbers,
                                                                                      hysteresis.points)
        else:
            curve = (bool(friction.film), False) + NO_CURVE
        return kernels.FRICTION_CODES["RLG"], tuple(map(float, friction.kernel_parameters)), curve, memory
    if isinstance(friction, (LuGre, StaticFriction)):
        sigma0, sigma1 = (friction.sigma0, friction.sigma1) if isinstance(friction, LuGre) else (0.0, 0.0)
        parameters = tuple(map(float, (friction.Fc, friction.Fs, friction.vs, friction.n, sigma0, sigma1,
                                       friction.sigma2))) + (0.0,) * 5
        return kernels.FRICTION_CODES[friction.label], parameters, curve, memory
    return kernels.FRICTION_CODES["none"], (0.0,) * 12, curve, memory
