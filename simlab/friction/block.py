"""Simulators on a friction surface: a block pulled through a spring, a block under a force, a prescribed velocity.

The classic LuGre experiments of Canudas de Wit et al. (1995): stick-slip of the spring-block,
pre-sliding and break-away of a block under an applied force, frictional lag under a prescribed
velocity. Every simulator calls the friction model's stepper (:meth:`FrictionModel.stepper`).

Used in lab08.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simlab.friction.kernels import BRISTLE_METHODS, lugre_rates, stribeck_level
from simlab.friction.models import LuGre
from simlab.results import Result
from simlab.validation import as_choice, as_finite_scalar, as_positive_scalar, as_real_array

__all__ = [
    "SpringBlockResult",
    "FrictionResponse",
    "SPRING_BLOCK_METHODS",
    "spring_block",
    "block_with_force",
    "velocity_response",
]


@dataclass(frozen=True)
class SpringBlockResult(Result):
    """Block simulation; unpacks as ``t, x``. Fields: t, x (m), v (m/s), F (N, at each sample), z (m)."""

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    v: np.ndarray
    F: np.ndarray
    z: np.ndarray
    method: str
    h: float


SPRING_BLOCK_METHODS = BRISTLE_METHODS


def _check_model(model, name="model"):
    if not isinstance(model, LuGre):
        raise TypeError(f"{name} must be a LuGre parameter set, got {type(model).__name__}.")
    return model


def _check_run(t_end, h, x0, v0, z0):
    """The grid t_k = k h on [0, t_end] and the initial state (x0, v0, z0) as floats, checked."""
    from simlab.integrators import time_grid

    t_end = as_positive_scalar(t_end, "t_end")  # named here: time_grid would call it t_span[1]
    t, h = time_grid((0.0, t_end), h)
    return t, h, as_finite_scalar(x0, "x0"), as_finite_scalar(v0, "v0"), as_finite_scalar(z0, "z0")


def spring_block(model, k, v_pull, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """Stick-slip of a block of mass m on a LuGre surface, pulled through a spring k at speed v_pull.

    Equations (the classic set-up of Canudas de Wit et al. 1995):

        x' = v,   m v' = k (v_pull t - x) - F,   F = sigma0 z + sigma1 z' + sigma2 v,
        z' = v - sigma0 |v| z / g(v).

    ``method="exponential"`` and ``"implicit"`` advance the bristle state z over each step with
    v held (the model's stepper: exact exponential or implicit Euler, both stable whatever the
    bristle rate sigma0 |v| / g), then the block with the step-averaged friction force, velocity
    by the force balance, position by the trapezoidal rule. ``"euler"`` and ``"rk4"`` integrate
    the three states explicitly (for comparison: they need h below 2/rate and 2.785/rate).

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

    Raises
    ------
    TypeError
        If ``model`` is not a LuGre, or a number is not a real number.
    ValueError
        If k, m, t_end or h is not positive, h does not divide t_end, a value is NaN or inf, or
        ``method`` is not one of :data:`SPRING_BLOCK_METHODS`.
    simlab.integrators.NonFiniteStateError
        If the state becomes inf or NaN (an explicit method above its step limit).
    """
    from simlab.integrators import euler as euler_integrate
    from simlab.integrators import rk4 as rk4_integrate

    _check_model(model)
    k = as_positive_scalar(k, "k")
    m = as_positive_scalar(m, "m")
    v_pull = as_finite_scalar(v_pull, "v_pull")
    as_choice(method, "method", SPRING_BLOCK_METHODS)
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    if method in ("euler", "rk4"):
        Fc, Fs, vs, n = model.Fc, model.Fs, model.vs, model.n
        s0, s1, s2 = model.sigma0, model.sigma1, model.sigma2

        def f(time, state):
            x, v, z = state
            zdot, F = lugre_rates(v, z, stribeck_level(v, Fc, Fs, vs, n), s0, s1, s2)
            return np.array([v, (k * (v_pull * time - x) - F) / m, zdot])

        integrate = rk4_integrate if method == "rk4" else euler_integrate
        t, states = integrate(f, (0.0, t_end), [x0, v0, z0], h)
        x, v, z = states.T
        return SpringBlockResult(t, x, v, model.force(v, z), z, method, h)

    # the spring force at mid-step, with the position extrapolated to the middle of the step
    return _block_loop(model, lambda t_mid, x_mid: k * (v_pull * t_mid - x_mid), m, t, h, method,
                       x0, v0, z0, "spring_block")


def _block_loop(model, applied, m, t, h, method, x0, v0, z0, name):
    """The block-on-friction step shared by :func:`spring_block` and :func:`block_with_force`.

    Per step: the friction model's step over h with v held (its bristle update), the velocity
    from the force balance with the step-averaged friction and the applied force
    ``applied(t_mid, x_mid)`` at mid-step, the position by the trapezoidal rule.
    """
    from simlab.integrators import NonFiniteStateError

    step = model.stepper(method)
    N = len(t) - 1
    xs, vs, Fs, zs = np.empty(N + 1), np.empty(N + 1), np.empty(N + 1), np.empty(N + 1)
    x, v, z = float(x0), float(v0), float(z0)
    for i in range(N + 1):
        z_next, F, F_start = step(z, v, h)
        xs[i], vs[i], Fs[i], zs[i] = x, v, F_start, z
        if i == N:
            break
        v_next = v + h * (float(applied(t[i] + 0.5 * h, x + 0.5 * h * v)) - F) / m  # m v' = F_applied - F
        x = x + 0.5 * h * (v + v_next)  # trapezoidal rule for x' = v
        v, z = v_next, z_next
        if not (math.isfinite(x) and math.isfinite(v)):
            raise NonFiniteStateError(f"{name} ({method}): the state became inf or NaN at step {i + 1}.",
                                      method=method, step=i + 1, steps=N, t=float(t[i + 1]), h=h)
    return SpringBlockResult(t, xs, vs, Fs, zs, method, h)


def _value(value):
    """A 0-d or one-element array as its number, for the check of what force(t) returned."""
    if isinstance(value, np.ndarray) and value.size == 1:
        return value.reshape(())
    return value


@dataclass(frozen=True)
class FrictionResponse(Result):
    """A friction model driven by a prescribed velocity; unpacks as ``t, F``. Fields: t, v, z, F."""

    unpacks_as = ("t", "F")

    t: np.ndarray
    v: np.ndarray
    z: np.ndarray
    F: np.ndarray


def velocity_response(model, v, T, method="exponential", z0=0.0):
    """Friction force for a prescribed velocity history v[k] sampled every T (v held over a step).

    The state is advanced by the model's stepper (:meth:`FrictionModel.stepper`); the force at
    sample k is the force at the state and velocity of that sample, F[k] = force(v[k], z[k]).
    Used for frictional lag (F-v hysteresis loops) and to compare with the seed's S-function.

    Parameters
    ----------
    model : LuGre
    v : array_like, shape (N,)
        Velocity samples (m/s), N >= 1.
    T : float
        Sample time (s), > 0.
    method : {"exponential", "implicit", "euler", "rk4"}
    z0 : float
        Initial bristle deflection (m).

    Returns
    -------
    FrictionResponse

    Raises
    ------
    TypeError
        If ``model`` is not a LuGre, or v, T, z0 are not real.
    ValueError
        If v is empty, not 1-D or not finite, T <= 0, z0 not finite, or ``method`` unknown.
    """
    _check_model(model)
    v = as_real_array(v, "v", ndim=1)
    if v.size == 0:
        raise ValueError("v must hold at least one velocity sample, got an empty array.")
    T = as_positive_scalar(T, "T")
    step = model.stepper(method)
    z = np.empty(len(v))
    z[0] = as_finite_scalar(z0, "z0")
    zk = z[0]
    for k, vk in enumerate(v.tolist()[:-1]):
        zk = step(zk, vk, T)[0]
        z[k + 1] = zk
    return FrictionResponse(t=T * np.arange(len(v)), v=v, z=z, F=model.force(v, z))


def block_with_force(model, force, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """A block of mass m on a LuGre surface under an applied force ``force(t)`` (N).

    m x'' = force(t) - F. Same scheme as :func:`spring_block` (the bristle state exact or
    implicit over each step, the block with the step-averaged friction force). Used for the
    pre-sliding displacement and the break-away force of lab08.

    Parameters
    ----------
    model : LuGre
    force : callable
        The applied force force(t) (N), returning a finite number.
    m : float
        Mass (kg), > 0.
    t_end, h : float
        Span [0, t_end] and step (s); h must divide t_end.
    method : {"exponential", "implicit"}
    x0, v0, z0 : float
        Initial position, velocity and bristle state.

    Returns
    -------
    SpringBlockResult

    Raises
    ------
    TypeError
        If ``model`` is not a LuGre, ``force`` is not callable or does not return a real number,
        or a number is not a real number.
    ValueError
        If m, t_end or h is not positive, h does not divide t_end, a value (or force(h/2)) is NaN
        or inf, or ``method`` is not "exponential" or "implicit".
    """
    _check_model(model)
    if not callable(force):
        raise TypeError(f"force must be a function force(t) in N, got {type(force).__name__}.")
    m = as_positive_scalar(m, "m")
    as_choice(method, "method", ("exponential", "implicit"))
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    as_finite_scalar(_value(force(0.5 * h)), f"force(t) at t = {0.5 * h:g} s (the first mid-step)")
    return _block_loop(model, lambda t_mid, x_mid: force(t_mid), m, t, h, method, x0, v0, z0,
                       "block_with_force")
