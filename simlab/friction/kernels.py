"""The friction formulas, each once: plain functions over floats or numpy arrays, no checks.

The models of :mod:`simlab.friction.models` and :mod:`simlab.revised_lugre` check their
parameters once and call these; the simulators call the models. Written over floats so that a
loop stays fast (``math.exp`` for a float) and over arrays so that a curve can be drawn
(``numpy.exp`` for an array), with the same text.

* g(v, h) = Fc + ((1 - h) Fs - Fc) exp(-|v/vs|^n)        Stribeck level, seed 002 eqs. (1), (6)
* F_ss = sgn(v) g + sigma2 v                             the static curve
* z_ss = sgn(v) g / sigma0                               steady bristle deflection
* dz/dt = v - sigma0 |v| z / g,  F = sigma0 z + sigma1 dz/dt + sigma2 v     LuGre
* the bristle updates of dz/dt = rate (z_ss - z) over a step T with v held: exact exponential,
  implicit Euler, explicit Euler, RK4.
"""

from __future__ import annotations

from simlab.jit import exp as _exp
from simlab.jit import kernel
from simlab.jit import sign as _sign

__all__ = [
    "stribeck_level",
    "static_force",
    "bristle_target",
    "lugre_rates",
    "relax_exponential",
    "relax_implicit",
    "relax_euler",
    "relax_rk4",
    "relax",
    "step_averaged_force",
    "lugre_step",
    "BRISTLE_UPDATES",
    "BRISTLE_METHODS",
    "BRISTLE_CODES",
]


@kernel
def stribeck_level(v, Fc, Fs, vs, n, h=0.0):
    """Stribeck function g(v, h) = Fc + ((1 - h) Fs - Fc) exp(-|v/vs|^n) (N); kernel, no checks.

    Seed 002 eq. (1) with h = 0 and, with the lubricant-film thickness h of the revised LuGre
    model, eq. (6).
    """
    return Fc + ((1.0 - h) * Fs - Fc) * _exp(-abs(v / vs) ** n)


@kernel
def static_force(v, g, sigma2):
    """The static curve sgn(v) g + sigma2 v (N) for the Stribeck level g = g(v); kernel."""
    return _sign(v) * g + sigma2 * v


@kernel
def bristle_target(v, g, sigma0):
    """Steady bristle deflection z_ss = sgn(v) g(v) / sigma0 (m), where dz/dt = 0; kernel."""
    return _sign(v) * g / sigma0


@kernel
def lugre_rates(v, z, g, sigma0, sigma1, sigma2):
    """LuGre bristle rate and force (kernel): returns (dz/dt, F).

    dz/dt = v - sigma0 |v| z / g,   F = sigma0 z + sigma1 dz/dt + sigma2 v.
    """
    zdot = v - sigma0 * abs(v) * z / g
    return zdot, sigma0 * z + sigma1 * zdot + sigma2 * v


@kernel
def relax_exponential(z, z_ss, rate, T):
    """Exact update of dz/dt = rate (z_ss - z) over T with z_ss, rate held: z_ss + (z - z_ss) e^{-rate T}.

    Stable for every T (the bristle update of discrete similarity).
    """
    return z_ss + (z - z_ss) * _exp(-rate * T)


@kernel
def relax_implicit(z, z_ss, rate, T):
    """Implicit Euler: z+ = (z + T rate z_ss) / (1 + T rate); stable for every T, first order."""
    return (z + T * rate * z_ss) / (1.0 + T * rate)


@kernel
def relax_euler(z, z_ss, rate, T):
    """Explicit Euler: z+ = z + T rate (z_ss - z); stable only for T rate < 2."""
    return z + T * rate * (z_ss - z)


@kernel
def relax_rk4(z, z_ss, rate, T):
    """One RK4 step of dz/dt = rate (z_ss - z); stable only for T rate < 2.785."""
    k1 = rate * (z_ss - z)
    k2 = rate * (z_ss - (z + 0.5 * T * k1))
    k3 = rate * (z_ss - (z + 0.5 * T * k2))
    k4 = rate * (z_ss - (z + T * k3))
    return z + T / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


@kernel
def relax(z, z_ss, rate, T, method):
    """The bristle update number ``method`` (:data:`BRISTLE_CODES`: 0 exponential, 1 implicit,
    2 explicit Euler, 3 RK4) of dz/dt = rate (z_ss - z) over T; kernel, for compiled loops."""
    if method == 0:
        return relax_exponential(z, z_ss, rate, T)
    if method == 1:
        return relax_implicit(z, z_ss, rate, T)
    if method == 2:
        return relax_euler(z, z_ss, rate, T)
    return relax_rk4(z, z_ss, rate, T)


@kernel
def step_averaged_force(Fz, Fz_next, z, z_next, v, h, sigma1, sigma2):
    """Friction averaged over a step with v held: (F(z) + F(z_next))/2 + sigma1 (z_next - z)/h + sigma2 v.

    F(z) is the bristle force (sigma0 z for LuGre); exact for the sigma0 z and sigma1 dz/dt
    terms when z_next is exact and F(z) linear.
    """
    return 0.5 * (Fz + Fz_next) + sigma1 * (z_next - z) / h + sigma2 * v


@kernel
def lugre_step(z, v, h, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method):
    """One LuGre step with v held over h: returns (z_next, F_step, F_start); kernel.

    rate = sigma0 |v| / g(v), z_ss = sgn(v) g / sigma0, z_next by the bristle update ``method``
    (:func:`relax`), F_start = F(v, z), F_step = :func:`step_averaged_force`.
    """
    g = stribeck_level(v, Fc, Fs, vs, n)
    rate = sigma0 * abs(v) / g  # bristle relaxation rate (1/s)
    z_next = relax(z, bristle_target(v, g, sigma0), rate, h, method)
    F_start = lugre_rates(v, z, g, sigma0, sigma1, sigma2)[1]
    return z_next, step_averaged_force(sigma0 * z, sigma0 * z_next, z, z_next, v, h, sigma1, sigma2), F_start


#: The bristle updates, each a kernel ``update(z, z_ss, rate, T) -> z_next``.
BRISTLE_UPDATES = {
    "exponential": relax_exponential,
    "implicit": relax_implicit,
    "euler": relax_euler,
    "rk4": relax_rk4,
}
BRISTLE_METHODS = tuple(BRISTLE_UPDATES)
#: The method codes of :func:`relax` (kernels take numbers, not names).
BRISTLE_CODES = {method: code for code, method in enumerate(BRISTLE_METHODS)}
