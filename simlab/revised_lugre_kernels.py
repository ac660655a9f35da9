"""The revised LuGre model's formulas and its step as kernels: one source, compiled or not.

The rules are those of :mod:`simlab.revised_lugre` (seed 002, eqs. 5-13); its classes check
their arguments and call these. Kernels take floats, tuples of floats and float arrays:

* a transition curve (eq. 12) is four tuples, ``c``, ``k`` (per segment), ``starts`` (where each
  segment starts, s_i) and ``offsets`` (the rise Delta(s_i) there);
* the hysteresis memory (:class:`~simlab.revised_lugre.HysteresisMemory`) is two float arrays
  changed in place: ``numbers`` (the entries named below: direction of motion, sliding, armed,
  the origin of the virgin curve, the current point (z, F), and how many starting points each
  memory set holds) and ``points`` of shape (2, capacity, 2), ``points[ASCENDING, j]`` and
  ``points[DESCENDING, j]`` the starting points (z_i, F_i) of the curves, the last one on top;
* ``sigma0 = 0.0`` stands for "no sliding regime" (the hysteresis function alone).

Values read from an array are taken as ``float(...)``: on the plain-Python path the formulas then
compute with Python floats (``math.exp``), as they always have.

Used by :mod:`simlab.revised_lugre` and the cylinder loop of :mod:`simlab.plants.pneumatic` (lab09).
"""

from __future__ import annotations

import math

import numpy as np

from simlab.friction.kernels import bristle_target, relax, step_averaged_force, stribeck_level
from simlab.jit import exp as _exp
from simlab.jit import kernel

__all__ = [
    "curve_rise",
    "curve_slope",
    "memory_turn",
    "memory_move",
    "memory_stiffness",
    "memory_force",
    "film_steady_state",
    "film_time_constant",
    "film_update",
    "revised_lugre_step",
    "no_memory",
    "NO_CURVE",
    "MEMORY_NUMBERS",
    "ASCENDING",
    "DESCENDING",
]

#: The entries of a memory's ``numbers`` array, by index.
DIRECTION, SLIDING, ARMED, Z_ORIGIN, F_ORIGIN, Z_NOW, F_NOW, COUNT = 0, 1, 2, 3, 4, 5, 6, 7
MEMORY_NUMBERS = 9  #: length of ``numbers``: COUNT + ASCENDING and COUNT + DESCENDING are the set sizes
ASCENDING, DESCENDING = 0, 1  #: the memory sets in ``points`` (curves for v > 0 and v < 0)
#: The curve arguments (c, k, starts, offsets) for a model without transition curves (unused there).
NO_CURVE = ((1.0,), (1.0,), (0.0,), (0.0,))


def no_memory():
    """The memory arguments (numbers, points) for a model without transition curves (unused there)."""
    return np.zeros(MEMORY_NUMBERS), np.zeros((2, 1, 2))


@kernel
def curve_segment(s, starts):
    """Index i of the segment of a transition curve that holds s (s_i <= s < s_{i+1}; the first for s < 0)."""
    i = 0
    while i + 1 < len(starts) and s >= starts[i + 1]:
        i += 1
    return i


@kernel
def curve_rise(s, c, k, starts, offsets):
    """Delta(s) = Delta(s_i) + c_i (1 - exp(-k_i (s - s_i))) (N), eq. (12) measured from its reversal point."""
    i = curve_segment(s, starts)
    return offsets[i] + c[i] * (1.0 - _exp(-k[i] * (s - starts[i])))


@kernel
def curve_slope(s, c, k, starts):
    """dDelta/ds = c_i k_i exp(-k_i (s - s_i)) (N/m)."""
    i = curve_segment(s, starts)
    return c[i] * k[i] * _exp(-k[i] * (s - starts[i]))


@kernel
def _top(numbers, points, side):
    """(z_i, F_i) on top of the memory set ``side`` (as Python floats on the plain path)."""
    j = int(numbers[COUNT + side]) - 1
    return float(points[side, j, 0]), float(points[side, j, 1])


@kernel
def memory_turn(numbers, points, d):
    """Set the direction of motion d (+1.0, -1.0 or 0.0); a change of sign starts a new curve.

    The new curve starts at the current point (at the origin for the first motion of a virgin
    memory) and goes on top of the set of its direction; a reversal while sliding empties both
    sets first (gross sliding wipes out the pre-sliding memory). ``points`` must have room for
    one more point in each set.
    """
    direction = float(numbers[DIRECTION])
    if d == 0.0 or d == direction:
        return
    if direction == 0.0 and numbers[COUNT + ASCENDING] == 0.0 and numbers[COUNT + DESCENDING] == 0.0:
        z, F = float(numbers[Z_ORIGIN]), float(numbers[F_ORIGIN])
    else:
        z, F = float(numbers[Z_NOW]), float(numbers[F_NOW])
    if numbers[SLIDING] != 0.0:
        numbers[SLIDING] = 0.0
        numbers[COUNT + ASCENDING] = 0.0
        numbers[COUNT + DESCENDING] = 0.0
    side = ASCENDING if d > 0.0 else DESCENDING
    j = int(numbers[COUNT + side])
    points[side, j, 0] = z
    points[side, j, 1] = F
    numbers[COUNT + side] = j + 1.0
    numbers[DIRECTION] = d
    numbers[ARMED] = 0.0


@kernel
def memory_move(numbers, points, z, c, k, starts, offsets, sigma0):
    """Move the memory to deflection z along its direction; returns F(z) (N).

    Loop closure: while z has passed the starting point A on top of the other set (the curve
    from the reversal point B passes through A again, one shape for both directions), A is wiped
    out, and B with it if an outer curve of the same direction lies beneath it (the state
    follows that curve; Masing's rule when there is none). Sliding starts where the curve,
    having risen above the bristle line sigma0 z in the direction of motion, meets it again
    (both sets emptied); from there F = sigma0 z.
    """
    z = float(z)
    d = float(numbers[DIRECTION])
    if d == 0.0:
        numbers[Z_NOW] = z
        return float(numbers[F_NOW])
    if numbers[SLIDING] == 0.0:
        same = ASCENDING if d > 0.0 else DESCENDING
        other = DESCENDING if d > 0.0 else ASCENDING
        while numbers[COUNT + other] > 0.0 and d * (z - _top(numbers, points, other)[0]) >= 0.0:
            numbers[COUNT + other] -= 1.0
            if numbers[COUNT + same] >= 2.0:
                numbers[COUNT + same] -= 1.0
        z_r, F_r = _top(numbers, points, same)
        F = F_r + d * curve_rise(d * (z - z_r), c, k, starts, offsets)
        if sigma0 > 0.0:
            gap = d * (F - sigma0 * z)  # > 0: the curve is above the bristle line
            if gap > 0.0:
                numbers[ARMED] = 1.0
            elif numbers[ARMED] != 0.0:
                numbers[SLIDING] = 1.0
                numbers[COUNT + ASCENDING] = 0.0
                numbers[COUNT + DESCENDING] = 0.0
        numbers[Z_NOW] = z
        numbers[F_NOW] = F
        if numbers[SLIDING] == 0.0:
            return F
    numbers[Z_NOW] = z
    numbers[F_NOW] = sigma0 * z
    return sigma0 * z


@kernel
def memory_stiffness(numbers, points, z, c, k, starts, sigma0):
    """dF/dz at z on the current curve (sigma0 when sliding; c_1 k_1 before the first motion)."""
    if numbers[SLIDING] != 0.0:
        return sigma0
    d = float(numbers[DIRECTION])
    if d == 0.0:
        return c[0] * k[0]
    return curve_slope(d * (z - _top(numbers, points, ASCENDING if d > 0.0 else DESCENDING)[0]), c, k, starts)


@kernel
def memory_force(numbers, points, z, c, k, starts, offsets, sigma0):
    """F at deflection z on the current curve (sigma0 z when sliding), without moving the memory."""
    if numbers[SLIDING] != 0.0:
        return sigma0 * z
    d = float(numbers[DIRECTION])
    if d == 0.0:
        return float(numbers[F_NOW])
    z_r, F_r = _top(numbers, points, ASCENDING if d > 0.0 else DESCENDING)
    return F_r + d * curve_rise(d * (z - z_r), c, k, starts, offsets)


@kernel
def film_steady_state(v, Fc, Fs, vb):
    """h_ss = Kf min(|v|, vb)^(2/3), Kf = (1 - Fc/Fs) vb^(-2/3) (eqs. 10-11), for a float or an array v."""
    return (1.0 - Fc / Fs) * (np.minimum(np.abs(v), vb) / vb) ** (2.0 / 3.0)


@kernel
def film_time_constant(v, h, h_ss, v_dwell, tau_hp, tau_hn, tau_h0):
    """tau_h of eq. (9): tau_h0 while |v| < v_dwell (dwell), tau_hp for h <= h_ss (acceleration), else tau_hn."""
    if abs(v) < v_dwell:
        return tau_h0
    return tau_hp if h <= h_ss else tau_hn


@kernel
def film_update(h, v, T, Fc, Fs, vb, v_dwell, tau_hp, tau_hn, tau_h0):
    """The film over a step T with v held, the exact exponential of eq. (8): h_ss + (h - h_ss) e^{-T/tau_h}."""
    h_ss = float(film_steady_state(v, Fc, Fs, vb))
    tau = film_time_constant(v, h, h_ss, v_dwell, tau_hp, tau_hn, tau_h0)
    return h_ss + (h - h_ss) * _exp(-T / tau)


@kernel
def revised_lugre_step(z, Fz, film, v, h, friction, film_on, method, curve_on, c, k, starts, offsets,
                       numbers, points):
    """One step h of the revised LuGre model with v held: (z_next, Fz_next, film_next, F_step, F_start).

    The bristle equation (5) with F(z) linearized at the start of the step, F(z') = F(z) +
    K (z' - z), K = dF/dz, is dz/dt = rate (z_ss - z), rate = K |v| / g(v, h), z_ss = z +
    (sgn(v) g - F(z)) / K; the bristle update ``method`` (:func:`simlab.friction.kernels.relax`)
    advances it, the memory moves to z_next, the film follows eq. (8) when ``film_on``.
    F_step = (F(z) + F(z_next))/2 + sigma1 (z_next - z)/h + sigma2 v, without the lead term;
    F_start = F(z) + sigma1 dz/dt + sigma2 v at the start.

    Parameters
    ----------
    friction : tuple of float
        (Fc, Fs, vs, n, sigma0, sigma1, sigma2, vb, v_dwell, tau_hp, tau_hn, tau_h0).
    film_on, curve_on : bool
        Whether the film is on, and whether F(z) is the hysteresis function (the curve c, k,
        starts, offsets with the memory ``numbers``, ``points``) or LuGre's sigma0 z.
    method : int
        Bristle update code (:data:`simlab.friction.BRISTLE_CODES`).
    """
    Fc, Fs, vs, n, sigma0, sigma1, sigma2, vb, v_dwell, tau_hp, tau_hn, tau_h0 = friction
    g = stribeck_level(v, Fc, Fs, vs, n, film)  # g(v, h), eq. (6)
    if curve_on:
        memory_turn(numbers, points, 1.0 if v > 0.0 else (-1.0 if v < 0.0 else 0.0))
        K = memory_stiffness(numbers, points, z, c, k, starts, sigma0)
        Fz = float(numbers[F_NOW]) if numbers[DIRECTION] != 0.0 else Fz
        z_ss = z + (math.copysign(g, v) - Fz) / K if v != 0.0 else z
    else:
        K, Fz = sigma0, sigma0 * z
        z_ss = bristle_target(v, g, sigma0)
    rate = abs(v) * K / g  # linearized bristle relaxation rate (1/s)
    z_next = relax(z, z_ss, rate, h, method)
    Fz_next = memory_move(numbers, points, z_next, c, k, starts, offsets, sigma0) if curve_on else sigma0 * z_next
    F_start = Fz + sigma1 * (v - abs(v) * Fz / g) + sigma2 * v
    F_step = step_averaged_force(Fz, Fz_next, z, z_next, v, h, sigma1, sigma2)
    if film_on:
        film = film_update(film, v, h, Fc, Fs, vb, v_dwell, tau_hp, tau_hn, tau_h0)
    return z_next, Fz_next, film, F_step, F_start
