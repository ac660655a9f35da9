"""The pneumatic cylinder's equations and its fixed-step loop as kernels: one source, compiled or not.

The equations are those of :mod:`simlab.plants.pneumatic` (seed 002, eqs. 15-20); its public
functions check their arguments and call these. Kernels take floats, tuples of floats and float
arrays; the cylinder's constants travel as two tuples (see :func:`cylinder_constants`):

* ``valve = (ps, patm, k, flow_constant, KV1, KV2, um, un, r_crit, choked)``, the valve law;
* ``chamber = (V10, V20, A1, A2, L, k, RT)`` with RT = R T_s, the chambers and the piston.

:func:`cylinder_loop` is the loop of :func:`simlab.plants.pneumatic.simulate_cylinder`, for
every friction model (a code, :data:`FRICTION_CODES`); the valve inputs are sampled before it.
Values read from an array are taken as ``float(...)``: on the plain-Python path the formulas then
compute with Python floats (``math.exp``), as they always have.

Used by :mod:`simlab.plants.pneumatic` (lab09).
"""

from __future__ import annotations

import math

from simlab.friction.kernels import lugre_step, static_force, stribeck_level
from simlab.jit import kernel
from simlab.revised_lugre_kernels import revised_lugre_step

__all__ = [
    "gamma",
    "mass_flow",
    "volumes",
    "pressure_rates",
    "valve_rates",
    "pressure_force",
    "piston_step",
    "pressure_limit",
    "chamber_step",
    "friction_step",
    "cylinder_loop",
    "cylinder_constants",
    "FRICTION_CODES",
    "RECORDED",
]

#: The friction models of the loop, by code: none, the static map (SS), LuGre (LG), revised LuGre (RLG).
FRICTION_CODES = {"none": 0, "SS": 1, "LG": 2, "RLG": 3}
_NONE, _STATIC, _LUGRE = 0, 1, 2
#: The rows of :func:`cylinder_loop`'s ``out``, in order.
RECORDED = ("x", "v", "p1", "p2", "F", "z", "film", "m1", "m2")
_EXPONENTIAL = 0  # the bristle update of the cylinder (simlab.friction.BRISTLE_CODES["exponential"])


@kernel
def gamma(r, k, r_crit, choked):
    """gamma(r) of eqs. (16)-(17): 0 for r >= 1, the choked constant below r*, else the subsonic law."""
    if r >= 1.0:
        return 0.0
    if r < r_crit:
        return choked
    return math.sqrt(2.0 / (k - 1.0)) * r ** ((k + 1.0) / (2.0 * k)) * math.sqrt(r ** ((1.0 - k) / k) - 1.0)


@kernel
def mass_flow(u, p, valve):
    """Mass flow into a chamber at pressure p for the valve input u (kg/s), eq. (15); u within [0, u_max]."""
    ps, patm, k, flow_constant, KV1, KV2, um, un, r_crit, choked = valve
    if u >= um:
        return gamma(p / ps, k, r_crit, choked) * ps * flow_constant * KV1 * (u - um)
    if u > un:
        return 0.0
    return gamma(patm / p, k, r_crit, choked) * p * flow_constant * KV2 * (u - un)


@kernel
def volumes(x, chamber):
    """Chamber volumes V1 = V10 + A1 x, V2 = V20 + A2 (L - x) (m^3), eq. (19); x a float or an array."""
    V10, V20, A1, A2, L, k, RT = chamber
    return V10 + A1 * x, V20 + A2 * (L - x)


@kernel
def pressure_rates(p1, p2, x, v, mdot1, mdot2, chamber):
    """p1' = k / V1 (R T_s m'_1 - p1 A1 v), p2' = k / V2 (R T_s m'_2 + p2 A2 v) (Pa/s), eq. (18)."""
    V10, V20, A1, A2, L, k, RT = chamber
    V1, V2 = volumes(x, chamber)
    return k / V1 * (RT * mdot1 - p1 * A1 * v), k / V2 * (RT * mdot2 + p2 * A2 * v)


@kernel
def valve_rates(p1, p2, x, v, u1, u2, valve, chamber):
    """Mass flows m'_1, m'_2 (kg/s) and pressure rates p'_1, p'_2 (Pa/s) of the two chambers."""
    md1 = mass_flow(u1, p1, valve)
    md2 = mass_flow(u2, p2, valve)
    dp1, dp2 = pressure_rates(p1, p2, x, v, md1, md2, chamber)
    return md1, md2, dp1, dp2


@kernel
def pressure_force(p1, p2, patm, A1, A2):
    """Net pressure force on the piston (N), gauge pressures: (p1 - p_atm) A1 - (p2 - p_atm) A2 (eq. 20)."""
    return (p1 - patm) * A1 - (p2 - patm) * A2


@kernel
def piston_step(x, v, acc, h, L, hold):
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


@kernel
def pressure_limit(p_old, p_new, m, V, mdot, patm, ps, k, RT):
    """Clip a step that an exhausting valve carried below p_atm, or a building one above p_s.

    The mass is booked with the pressure change it stands for (V dp = k R Ts dm); returns (p, m).
    """
    if mdot < 0.0 and p_new < patm <= p_old:
        bound = patm
    elif mdot > 0.0 and p_new > ps >= p_old:
        bound = ps
    else:
        return p_new, m
    return bound, m + V * (bound - p_new) / (k * RT)


@kernel
def chamber_step(p, dp, dp_next, m, md, md_next, V_next, h, valve, chamber):
    """Trapezoidal corrector (Heun) for a chamber's pressure and air mass, with the valve limits.

    A valve cannot take a chamber past the pressure it connects it to (the exhaust law is
    infinitely steep at p = p_atm, so a step may overshoot): the step stops there, and the mass
    is booked with the pressure change it stands for (:func:`pressure_limit`).
    """
    ps, patm, k = valve[0], valve[1], valve[2]
    p_next = p + 0.5 * h * (dp + dp_next)
    m_next = m + 0.5 * h * (md + md_next)
    return pressure_limit(p, p_next, m_next, V_next, md + md_next, patm, ps, k, chamber[6])


@kernel
def friction_step(model, z, Fz, film, v, h, friction, film_on, curve_on, c, k, starts, offsets, numbers, points):
    """The friction over a step h with v held: (z_next, Fz_next, film_next, F_step).

    ``model`` is a code of :data:`FRICTION_CODES`: none (F = 0), the static map at the velocity
    of the start of the step, LuGre with the exact bristle update, or the revised LuGre model
    (:func:`simlab.revised_lugre_kernels.revised_lugre_step`, whose arguments the others ignore).
    """
    if model == _NONE:
        return z, Fz, film, 0.0
    Fc, Fs, vs, n, sigma0, sigma1, sigma2 = friction[:7]
    if model == _STATIC:
        return z, Fz, film, static_force(v, stribeck_level(v, Fc, Fs, vs, n), sigma2)
    if model == _LUGRE:
        z_next, F_step, _ = lugre_step(z, v, h, Fc, Fs, vs, n, sigma0, sigma1, sigma2, _EXPONENTIAL)
        return z_next, Fz, film, F_step
    z_next, Fz_next, film_next, F_step, _ = revised_lugre_step(
        z, Fz, film, v, h, friction, film_on, _EXPONENTIAL, curve_on, c, k, starts, offsets, numbers, points)
    return z_next, Fz_next, film_next, F_step


@kernel
def cylinder_loop(u1, u2, h, hold, x, v, p1, p2, m1, m2, M, lead, valve, chamber, model, friction, film_on,
                  curve_on, c, k, starts, offsets, numbers, points, out):
    """The loop of :func:`simlab.plants.pneumatic.simulate_cylinder` over the N steps of h.

    Per step: 1. valve flows and pressure rates at the start, an Euler predictor for the
    pressures and the pressure force at mid-step; 2. the friction over the step with v held
    (:func:`friction_step`); 3. the piston (mass M + ``lead``) and the end stops; 4. the
    pressures and air masses by the trapezoidal corrector, with the valve limits.

    Parameters
    ----------
    u1, u2 : ndarray, shape (N + 1,)
        Valve inputs (V) at t_k.
    x, v, p1, p2, m1, m2 : float
        The initial state (m, m/s, Pa, Pa, kg, kg).
    M, lead : float
        Moving mass and the mass of the friction's lead term (kg).
    valve, chamber : tuple of float
        As in :func:`mass_flow` and :func:`volumes`.
    model, friction, film_on, curve_on, c, k, starts, offsets, numbers, points
        As in :func:`friction_step`; the friction state starts at rest (z = 0, F(z) = 0, no film).
    out : ndarray, shape (9, N + 1)
        Filled with the rows of :data:`RECORDED` at each t_k.

    Returns
    -------
    (i, x, v, p1, p2)
        i = N + 1 when the run is complete; else the first step i whose state (x, v, p1, p2 as
        returned) is inf or NaN or has a pressure <= 0 (the loop stops there).
    """
    N = len(u1) - 1
    patm, A1, A2, L = valve[1], chamber[2], chamber[3], chamber[4]
    z, Fz, film, F_out = 0.0, 0.0, 0.0, 0.0
    for i in range(N + 1):
        out[0, i], out[1, i], out[2, i], out[3, i] = x, v, p1, p2
        out[5, i], out[6, i], out[7, i], out[8, i] = z, film, m1, m2
        if i == N:
            out[4, i] = F_out
            break
        ua, ub = float(u1[i]), float(u2[i])
        # 1. valves and chambers: rates, predictor, pressure force at mid-step
        md1, md2, dp1, dp2 = valve_rates(p1, p2, x, v, ua, ub, valve, chamber)
        p1p, p2p = max(p1 + h * dp1, 1.0), max(p2 + h * dp2, 1.0)
        drive = pressure_force(0.5 * (p1 + p1p), 0.5 * (p2 + p2p), patm, A1, A2)
        # 2. friction over the step, v held
        z, Fz, film, F_step = friction_step(model, z, Fz, film, v, h, friction, film_on, curve_on, c, k, starts,
                                            offsets, numbers, points)
        acc = (drive - F_step) / (M + lead)
        # 3. piston and end stops; the lead term sigma2 T dv/dt vanishes at a stop
        x_next, v_next, stopped = piston_step(x, v, acc, h, L, hold)
        F_out = F_step if stopped else F_step + lead * acc
        # 4. chambers: corrector with the valve limits
        ua, ub = float(u1[i + 1]), float(u2[i + 1])
        md1c, md2c, dp1c, dp2c = valve_rates(p1p, p2p, x_next, v_next, ua, ub, valve, chamber)
        V1n, V2n = volumes(x_next, chamber)
        p1, m1 = chamber_step(p1, dp1, dp1c, m1, md1, md1c, V1n, h, valve, chamber)
        p2, m2 = chamber_step(p2, dp2, dp2c, m2, md2, md2c, V2n, h, valve, chamber)
        out[4, i] = F_out
        x, v = x_next, v_next
        if not (math.isfinite(x) and math.isfinite(v) and math.isfinite(p1) and math.isfinite(p2)) \
                or p1 <= 0.0 or p2 <= 0.0:
            return i + 1, x, v, p1, p2
    return N + 1, x, v, p1, p2


def cylinder_constants(P, r_crit, choked):
    """The tuples ``valve`` and ``chamber`` of the kernels for CylinderParameters ``P``, with the
    critical pressure ratio r* and the choked flow factor of its k."""
    valve = (P.ps, P.patm, P.k, P.flow_constant, P.KV1, P.KV2, P.um, P.un, r_crit, choked)
    chamber = (P.V10, P.V20, P.A1, P.A2, P.L, P.k, P.R * P.Ts)
    return tuple(map(float, valve)), tuple(map(float, chamber))
