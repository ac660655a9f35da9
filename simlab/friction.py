"""Friction models (摩擦模型): the static Stribeck curve and the LuGre model.

Static (steady-state) model, seed 002 eq. (1): Coulomb, static and viscous friction with the
Stribeck effect,

    F_ss(v) = sgn(v) g(v) + sigma2 v,    g(v) = Fc + (Fs - Fc) exp(-|v / vs|^n).

LuGre model (Canudas de Wit, Olsson, Astrom and Lischinsky, IEEE TAC 40(3), 1995): the average
deflection z of the contact "bristles" obeys

    dz/dt = v - sigma0 |v| z / g(v),     F = sigma0 z + sigma1 dz/dt + sigma2 v.

At constant v the bristle state relaxes to z_ss = sgn(v) g(v) / sigma0 with the rate
sigma0 |v| / g(v), which is what makes the model stiff: with sigma0 = 1e5 N/m, g = 1 N and
v = 0.1 m/s the time constant is 0.1 ms. :func:`bristle_step` offers the exact update for v held
over a step (the discrete-similarity idea applied to the bristle equation), implicit Euler, and
explicit Euler and RK4 for comparison. :meth:`LuGre.sfunction` replays the discrete S-function of
seeds 000/001 sample by sample.

Used in lab08 (LuGre friction).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from simlab.results import Result
from simlab.validation import as_finite_scalar, as_positive_scalar, as_real_array

__all__ = ["stribeck", "static_friction", "StaticFriction", "LuGre", "SFunctionResult", "bristle_step", "BRISTLE_METHODS",
           "SEED_PARAMETERS", "CANUDAS_1995", "spring_block", "SpringBlockResult", "SPRING_BLOCK_METHODS",
           "velocity_response", "FrictionResponse", "block_with_force"]

BRISTLE_METHODS = ("exponential", "implicit", "euler", "rk4")


def _check_curve(Fc, Fs, vs, n):
    Fc = as_finite_scalar(Fc, "Fc")
    Fs = as_finite_scalar(Fs, "Fs")
    if Fc < 0 or Fs < 0:
        raise ValueError(f"Fc and Fs must be >= 0 (friction force levels), got Fc = {Fc!r}, Fs = {Fs!r}.")
    vs = as_positive_scalar(vs, "vs")
    n = as_positive_scalar(n, "n")
    return Fc, Fs, vs, n


def stribeck(v, Fc, Fs, vs, n=2):
    """Stribeck function g(v) = Fc + (Fs - Fc) exp(-|v/vs|^n) (N), array-friendly.

    Examples
    --------
    >>> from simlab.friction import stribeck
    >>> round(float(stribeck(0.0, 1.0, 1.5, 0.001)), 6), round(float(stribeck(1.0, 1.0, 1.5, 0.001)), 6)
    (1.5, 1.0)
    """
    Fc, Fs, vs, n = _check_curve(Fc, Fs, vs, n)
    v = as_real_array(v, "v")
    return Fc + (Fs - Fc) * np.exp(-np.abs(v / vs) ** n)


def static_friction(v, Fc, Fs, vs, sigma2, n=2):
    """Static friction model F = sgn(v) g(v) + sigma2 v (seed 002, eq. 1), in N.

    At v = 0 the model gives 0 (sgn 0 = 0): a static map cannot say which force it holds while
    stuck, which is exactly what a dynamic model adds.
    """
    sigma2 = as_finite_scalar(sigma2, "sigma2")
    if sigma2 < 0:
        raise ValueError(f"sigma2 must be >= 0, got {sigma2!r}.")
    v = as_real_array(v, "v")
    return np.sign(v) * stribeck(v, Fc, Fs, vs, n) + sigma2 * v


@dataclass(frozen=True)
class StaticFriction:
    """Steady-state (static) friction model as a parameter object (seed 002's "SS" model).

    F = sgn(v) (Fc + (Fs - Fc) exp(-|v/vs|^n)) + sigma2 v, eq. (1); see :func:`static_friction`.

    Attributes
    ----------
    Fc, Fs : float
        Coulomb and static friction levels (N), >= 0.
    vs : float
        Stribeck velocity (m/s), > 0.
    sigma2 : float
        Viscous friction coefficient (N s/m), >= 0.
    n : float
        Stribeck exponent, > 0.

    Examples
    --------
    >>> from simlab.friction import StaticFriction
    >>> ss = StaticFriction(Fc=4.5, Fs=10.5, vs=0.01, sigma2=30.0)
    >>> round(float(ss.force(0.0)), 3), round(float(ss.force(-1.0)), 3)
    (0.0, -34.5)
    """

    Fc: float
    Fs: float
    vs: float
    sigma2: float
    n: float = 2.0

    def __post_init__(self):
        _check_curve(self.Fc, self.Fs, self.vs, self.n)
        if as_finite_scalar(self.sigma2, "sigma2") < 0:
            raise ValueError(f"sigma2 must be >= 0, got {self.sigma2!r}.")

    def force(self, v):
        """Friction force (N) at velocity v (m/s), array-friendly."""
        return static_friction(v, self.Fc, self.Fs, self.vs, self.sigma2, self.n)


@dataclass(frozen=True)
class SFunctionResult(Result):
    """Replay of the seed's S-function: unpacks as ``t, F``; ``x`` holds [z, zdot] per sample."""

    unpacks_as = ("t", "F")

    t: np.ndarray
    F: np.ndarray
    x: np.ndarray



@dataclass(frozen=True)
class LuGre:
    """LuGre friction model parameters (the public contract: keyword fields with these names).

    Attributes
    ----------
    Fc : float
        Coulomb friction level (N).
    Fs : float
        Static (break-away) friction level (N); Fc > Fs is allowed but warned about.
    vs : float
        Stribeck velocity (m/s), > 0.
    sigma0 : float
        Bristle stiffness (N/m), > 0.
    sigma1 : float
        Bristle (micro-)damping (N s/m), >= 0.
    sigma2 : float
        Viscous friction coefficient (N s/m), >= 0.
    n : float
        Stribeck exponent (default 2).

    Examples
    --------
    >>> from simlab.friction import LuGre
    >>> model = LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=316.0, sigma2=0.4)
    >>> round(float(model.steady_state_force(0.1)), 6)
    1.04
    """

    Fc: float
    Fs: float
    vs: float
    sigma0: float
    sigma1: float
    sigma2: float
    n: float = 2.0

    def __post_init__(self):
        _check_curve(self.Fc, self.Fs, self.vs, self.n)
        as_positive_scalar(self.sigma0, "sigma0")
        for name in ("sigma1", "sigma2"):
            value = as_finite_scalar(getattr(self, name), name)
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value!r}.")
        if self.Fc > self.Fs:
            warnings.warn(
                f"Fc = {self.Fc:g} > Fs = {self.Fs:g}: the Stribeck curve rises with speed instead of "
                f"falling (no stick-slip from the Stribeck effect); usually Fs > Fc.",
                UserWarning,
                stacklevel=3,
            )

    def g(self, v):
        """Stribeck function g(v) (N)."""
        return stribeck(v, self.Fc, self.Fs, self.vs, self.n)

    def z_ss(self, v):
        """Steady-state bristle deflection z_ss = sgn(v) g(v) / sigma0 (m)."""
        return np.sign(as_real_array(v, "v")) * self.g(v) / self.sigma0

    def zdot(self, v, z):
        """Bristle equation dz/dt = v - sigma0 |v| z / g(v) (m/s)."""
        v = as_real_array(v, "v")
        return v - self.sigma0 * np.abs(v) * np.asarray(z, dtype=float) / self.g(v)

    def force(self, v, z):
        """Friction force F = sigma0 z + sigma1 dz/dt + sigma2 v (N)."""
        v = as_real_array(v, "v")
        return self.sigma0 * np.asarray(z, dtype=float) + self.sigma1 * self.zdot(v, z) + self.sigma2 * v

    def steady_state_force(self, v):
        """Force at constant v after the bristles settle: sgn(v) g(v) + sigma2 v (the static curve)."""
        return static_friction(v, self.Fc, self.Fs, self.vs, self.sigma2, self.n)

    @property
    def sigma1_passive_limit(self):
        """Largest sigma1 for which the map v -> F is passive: sigma2 Fc / (Fs - Fc) (inf if Fs <= Fc).

        Source: K. J. Astrom and C. Canudas-de-Wit, "Revisiting the LuGre friction model",
        IEEE Control Systems Magazine 28(6), 101-114, 2008, eq. (7): the model is passive if
        sigma2 > sigma1 (Fs - Fc) / Fc. (The same bound follows from the storage function
        sigma0 z^2 / 2 and |sigma0 z| <= Fs at large velocities.)
        """
        if self.Fs <= self.Fc:
            return float("inf")
        return self.sigma2 * self.Fc / (self.Fs - self.Fc)

    def check_passivity(self, warn=True):
        """True if sigma1 satisfies the passivity (dissipativity) condition; warn otherwise.

        See :attr:`sigma1_passive_limit` for the condition and its source. The classic set of
        Canudas de Wit et al. (1995), sigma1 = sqrt(1e5) with sigma2 = 0.4, violates it (limit
        0.8 N s/m), as Astrom and Canudas-de-Wit point out in 2008.
        """
        passive = self.sigma1 < self.sigma1_passive_limit
        if not passive and warn:
            warnings.warn(
                f"sigma1 = {self.sigma1:g} N s/m exceeds the passivity limit sigma2 Fc/(Fs - Fc) = "
                f"{self.sigma1_passive_limit:.3g} N s/m (Astrom and Canudas-de-Wit 2008, eq. 7): the "
                f"friction can return energy over some motions.",
                UserWarning,
                stacklevel=2,
            )
        return passive

    def sfunction(self, v, Ts=0.001, x0=(0.0, 0.0)):
        """Replay the discrete S-function of seed 000 for a sampled velocity v[k], exactly.

        State x = [z, zdot]. Each sample, as Simulink calls mdlOutputs then mdlUpdate (direct
        feedthrough):

            F[k]   = sigma0 x1[k] + sigma1 x2[k] + sigma2 v[k]
            x[k+1] = [[1, Ts], [-sigma0 |v[k]| / g(v[k]), 0]] x[k] + [0, 1] v[k]

        so z[k+1] = z[k] + Ts zdot[k-1]: an Euler step with a lagged slope.

        Parameters
        ----------
        v : array_like, shape (N,)
            Velocity samples (m/s), finite.
        Ts : float
            Sample time (s), > 0 (the seed's 1 ms).
        x0 : (float, float)
            Initial [z, zdot] (the seed's remark tries [0; -10]).

        Returns
        -------
        SFunctionResult
            ``t`` (k Ts), ``F`` (N), ``x`` (shape (N, 2), the state at each sample).
        """
        v = as_real_array(v, "v", ndim=1)
        Ts = as_positive_scalar(Ts, "Ts")
        x = as_real_array(x0, "x0", ndim=1)
        if x.shape != (2,):
            raise ValueError(f"x0 must be [z, zdot], got shape {x.shape}.")
        g = self.g(v)
        F = np.empty(len(v))
        states = np.empty((len(v), 2))
        x1, x2 = float(x[0]), float(x[1])
        for k in range(len(v)):
            states[k] = x1, x2
            F[k] = self.sigma0 * x1 + self.sigma1 * x2 + self.sigma2 * v[k]  # mdlOutputs
            x1, x2 = x1 + Ts * x2, -self.sigma0 * abs(v[k]) / g[k] * x1 + v[k]  # mdlUpdate
        return SFunctionResult(t=Ts * np.arange(len(v)), F=F, x=states)


def bristle_step(model, z, v, T, method="exponential"):
    """Advance the bristle state z over a step T with the velocity v held constant.

    Methods:

    * ``"exponential"``: exact for constant v, z+ = z_ss + (z - z_ss) exp(-sigma0 |v| T / g(v));
      stable for every T;
    * ``"implicit"``: implicit Euler, z+ = (z + T v) / (1 + T sigma0 |v| / g(v)); stable for every T;
    * ``"euler"``: z+ = z + T dz/dt, stable only for T sigma0 |v| / g(v) < 2;
    * ``"rk4"``: one RK4 step of dz/dt, stable only for T sigma0 |v| / g(v) < 2.785.

    Parameters
    ----------
    model : LuGre
    z, v : float or array_like (broadcast together)
    T : float
        Step (s), > 0.
    method : str

    Returns
    -------
    ndarray or float
        z at the end of the step.
    """
    if not isinstance(model, LuGre):
        raise TypeError(f"model must be a LuGre parameter set, got {type(model).__name__}.")
    T = as_positive_scalar(T, "T")
    if method not in BRISTLE_METHODS:
        raise ValueError(f"method must be one of {BRISTLE_METHODS}, got {method!r}.")
    v = as_real_array(v, "v")
    z = as_real_array(z, "z")
    rate = model.sigma0 * np.abs(v) / model.g(v)  # relaxation rate sigma0 |v| / g(v) (1/s)
    if method == "exponential":
        z_ss = np.sign(v) * model.g(v) / model.sigma0
        return z_ss + (z - z_ss) * np.exp(-rate * T)
    if method == "implicit":
        return (z + T * v) / (1.0 + T * rate)
    if method == "euler":
        return z + T * (v - rate * z)
    k1 = v - rate * z
    k2 = v - rate * (z + 0.5 * T * k1)
    k3 = v - rate * (z + 0.5 * T * k2)
    k4 = v - rate * (z + T * k3)
    return z + T / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


#: The seed's parameter table (seed 000, 表1; units as the seed gives none: N, m/s, N/m, N s/m).
SEED_PARAMETERS = dict(Fc=2.4440, Fs=0.5991, vs=0.0103, sigma0=0.4766, sigma1=0.2701, sigma2=0.0049)

#: The classic parameter set of Canudas de Wit et al. (1995): sigma0 = 1e5 N/m,
#: sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m, Fc = 1 N, Fs = 1.5 N, vs = 0.001 m/s (with m = 1 kg).
CANUDAS_1995 = dict(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=float(np.sqrt(1e5)), sigma2=0.4)


@dataclass(frozen=True)
class SpringBlockResult(Result):
    """Spring-block simulation; unpacks as ``t, x``. Fields: t, x (m), v (m/s), F (N), z (m)."""

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    v: np.ndarray
    F: np.ndarray
    z: np.ndarray
    method: str
    h: float



SPRING_BLOCK_METHODS = ("exponential", "implicit", "euler", "rk4")


def spring_block(model, k, v_pull, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """Stick-slip of a block of mass m on a LuGre surface, pulled through a spring k at speed v_pull.

    Equations (the classic set-up of Canudas de Wit et al. 1995):

        x' = v,   m v' = k (v_pull t - x) - F,   F = sigma0 z + sigma1 z' + sigma2 v,
        z' = v - sigma0 |v| z / g(v).

    ``method="exponential"`` and ``"implicit"`` advance the bristle state z over each step with
    v held, by its exact exponential or by implicit Euler (both stable whatever the bristle rate
    sigma0 |v| / g), then the block with the step-averaged friction force, velocity by the force
    balance, position by the trapezoidal rule. ``"euler"`` and ``"rk4"`` integrate the three
    states explicitly (for comparison: they need h below 2/rate and 2.785/rate).

    Parameters
    ----------
    model : LuGre
    k : float
        Spring stiffness (N/m), > 0.
    v_pull : float
        Speed of the spring's far end (m/s).
    m : float
        Mass (kg), > 0.
    t_end, h : float
        Span [0, t_end] and step (s); h must divide t_end.
    method : {"exponential", "implicit", "euler", "rk4"}
    x0, v0, z0 : float
        Initial position, velocity and bristle state.

    Returns
    -------
    SpringBlockResult
    """
    import math

    from simlab.integrators import euler as euler_integrate
    from simlab.integrators import rk4 as rk4_integrate
    from simlab.integrators import time_grid

    if not isinstance(model, LuGre):
        raise TypeError(f"model must be a LuGre parameter set, got {type(model).__name__}.")
    k = as_positive_scalar(k, "k")
    m = as_positive_scalar(m, "m")
    v_pull = as_finite_scalar(v_pull, "v_pull")
    if method not in SPRING_BLOCK_METHODS:
        raise ValueError(f"method must be one of {SPRING_BLOCK_METHODS}, got {method!r}.")
    t, h = time_grid((0.0, t_end), h)
    s0, s1, s2 = model.sigma0, model.sigma1, model.sigma2
    Fc, dF, vs, n = model.Fc, model.Fs - model.Fc, model.vs, model.n

    def g(v):
        return Fc + dF * math.exp(-abs(v / vs) ** n)

    if method in ("euler", "rk4"):
        def f(time, state):
            x, v, z = state
            zdot = v - s0 * abs(v) * z / g(v)
            F = s0 * z + s1 * zdot + s2 * v
            return np.array([v, (k * (v_pull * time - x) - F) / m, zdot])

        integrate = rk4_integrate if method == "rk4" else euler_integrate
        t, states = integrate(f, (0.0, t_end), [x0, v0, z0], h)
        x, v, z = states.T
        zdot = v - s0 * np.abs(v) * z / model.g(v)
        F = s0 * z + s1 * zdot + s2 * v
        return SpringBlockResult(t, x, v, F, z, method, h)

    # the spring force at mid-step, with the position extrapolated to the middle of the step
    return _block_loop(model, lambda t_mid, x_mid: k * (v_pull * t_mid - x_mid), m, t, h, method,
                       x0, v0, z0, "spring_block")


def _block_loop(model, applied, m, t, h, method, x0, v0, z0, name):
    """The block-on-LuGre step shared by :func:`spring_block` and :func:`block_with_force`.

    Per step: the bristle state over the step with v held (exact exponential or implicit Euler),
    the friction force averaged over the step, the velocity from the force balance with the
    applied force ``applied(t_mid, x_mid)`` at mid-step, the position by the trapezoidal rule.
    """
    import math

    from simlab.integrators import NonFiniteStateError

    s0, s1, s2 = model.sigma0, model.sigma1, model.sigma2
    Fc, dF, vs, n = model.Fc, model.Fs - model.Fc, model.vs, model.n
    N = len(t) - 1
    xs, vs_, Fs_, zs = np.empty(N + 1), np.empty(N + 1), np.empty(N + 1), np.empty(N + 1)
    x, v, z = float(x0), float(v0), float(z0)
    exponential = method == "exponential"
    for i in range(N + 1):
        gv = Fc + dF * math.exp(-abs(v / vs) ** n)
        rate = s0 * abs(v) / gv  # bristle relaxation rate (1/s)
        xs[i], vs_[i], Fs_[i], zs[i] = x, v, s0 * z + s1 * (v - rate * z) + s2 * v, z
        if i == N:
            break
        if exponential:
            z_ss = math.copysign(gv / s0, v) if v != 0.0 else 0.0
            z_new = z_ss + (z - z_ss) * math.exp(-rate * h)  # exact for v held
        else:
            z_new = (z + h * v) / (1.0 + h * rate)  # implicit Euler
        F = s0 * 0.5 * (z + z_new) + s1 * (z_new - z) / h + s2 * v  # friction averaged over the step
        v_new = v + h * (float(applied(t[i] + 0.5 * h, x + 0.5 * h * v)) - F) / m
        x = x + 0.5 * h * (v + v_new)
        v, z = v_new, z_new
        if not (math.isfinite(x) and math.isfinite(v)):
            raise NonFiniteStateError(f"{name} ({method}): the state became inf or NaN at step {i + 1}.")
    return SpringBlockResult(t, xs, vs_, Fs_, zs, method, h)


@dataclass(frozen=True)
class FrictionResponse(Result):
    """LuGre driven by a prescribed velocity; unpacks as ``t, F``. Fields: t, v, z, F."""

    unpacks_as = ("t", "F")

    t: np.ndarray
    v: np.ndarray
    z: np.ndarray
    F: np.ndarray



def velocity_response(model, v, T, method="exponential", z0=0.0):
    """Friction force for a prescribed velocity history v[k] sampled every T (v held over a step).

    The bristle state is advanced by :func:`bristle_step`; the force at sample k uses the state
    and the bristle rate at that sample, F[k] = sigma0 z[k] + sigma1 dz/dt(v[k], z[k]) + sigma2 v[k].
    Used for frictional lag (F-v hysteresis loops) and to compare with the seed's S-function.

    Returns
    -------
    FrictionResponse
    """
    if not isinstance(model, LuGre):
        raise TypeError(f"model must be a LuGre parameter set, got {type(model).__name__}.")
    v = as_real_array(v, "v", ndim=1)
    T = as_positive_scalar(T, "T")
    if method not in BRISTLE_METHODS:
        raise ValueError(f"method must be one of {BRISTLE_METHODS}, got {method!r}.")
    z = np.empty(len(v))
    z[0] = as_finite_scalar(z0, "z0")
    if method in ("exponential", "implicit"):
        # the same updates as bristle_step, with the per-sample factors computed for all samples at once
        g = model.g(v)
        rate = model.sigma0 * np.abs(v) / g
        if method == "exponential":
            decay = np.exp(-rate * T)
            z_ss = np.sign(v) * g / model.sigma0
            drive = z_ss * (1.0 - decay)  # z+ = z_ss + (z - z_ss) e^{-rate T} = decay z + drive
        else:
            decay = 1.0 / (1.0 + T * rate)
            drive = T * v * decay  # z+ = (z + T v) / (1 + T rate)
        zk = z[0]
        for k in range(len(v) - 1):
            zk = decay[k] * zk + drive[k]
            z[k + 1] = zk
    else:
        for k in range(len(v) - 1):
            z[k + 1] = float(bristle_step(model, z[k], v[k], T, method))
    return FrictionResponse(t=T * np.arange(len(v)), v=v, z=z, F=model.force(v, z))


def block_with_force(model, force, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """A block of mass m on a LuGre surface under an applied force ``force(t)`` (N).

    m x'' = force(t) - F. Same scheme as :func:`spring_block` (the bristle state exact or
    implicit over each step, the block with the step-averaged friction force). Used for the
    pre-sliding displacement and the break-away force of lab08.

    Returns
    -------
    SpringBlockResult
    """
    from simlab.integrators import time_grid

    if not isinstance(model, LuGre):
        raise TypeError(f"model must be a LuGre parameter set, got {type(model).__name__}.")
    if not callable(force):
        raise TypeError(f"force must be a function force(t) in N, got {type(force).__name__}.")
    m = as_positive_scalar(m, "m")
    if method not in ("exponential", "implicit"):
        raise ValueError(f"method must be 'exponential' or 'implicit', got {method!r}.")
    t, h = time_grid((0.0, t_end), h)
    return _block_loop(model, lambda t_mid, x_mid: force(t_mid), m, t, h, method, x0, v0, z0,
                       "block_with_force")
