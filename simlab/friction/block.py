"""Simulators on a friction surface: a block pulled through a spring, a block under a force, a prescribed velocity.

The classic LuGre experiments of Canudas de Wit et al. (1995): stick-slip of the spring-block,
pre-sliding and break-away of a block under an applied force, frictional lag under a prescribed
velocity. The step loops are kernels (:mod:`simlab.jit`): :func:`block_run` for the block with the
bristle state advanced over each step (:func:`~simlab.friction.kernels.lugre_step`),
:func:`explicit_run` for Euler and RK4 on the three states, :func:`bristle_response` for a
prescribed velocity. The simulators check their arguments, evaluate a user's force function
before the loop, call the compiled kernel (numba when installed, the same Python function with
``SIMLAB_JIT=0``) and raise :class:`~simlab.integrators.NonFiniteStateError` where a kernel
stopped. Batches of parameter sets: :mod:`simlab.friction.sweep`.

Used in lab08.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from simlab.friction.kernels import (
    BRISTLE_CODES,
    BRISTLE_METHODS,
    lugre_rates,
    lugre_step,
    static_force,
    stribeck_level,
)
from simlab.friction.models import LuGre, StaticFriction
from simlab.guards import GROWTH_LIMIT, NonFiniteStateError, _GrowthMonitor
from simlab.integrators import _CHECK_EVERY, _check_block, time_grid
from simlab.jit import compiled, kernel
from simlab.results import Result
from simlab.validation import as_choice, as_finite_scalar, as_positive_scalar, as_real_array

__all__ = [
    "SpringBlockResult",
    "FrictionResponse",
    "SPRING_BLOCK_METHODS",
    "spring_block",
    "block_with_force",
    "velocity_response",
    "block_step",
    "block_run",
    "spring_block_rates",
    "explicit_run",
    "bristle_response",
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


# ---------------------------------------------------------------------------------------------
# Kernels: the step loops, over floats (one run) or, for block_step, arrays (a batch)
# ---------------------------------------------------------------------------------------------


@kernel
def block_step(x, v, z, t_mid, F_ext, h, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method):
    """One step of a block of mass m on a LuGre surface: returns (x_next, v_next, z_next, F_start).

    m v' = F_ext + k (v_pull t - x) - F (an applied force F_ext, a spring k pulled at v_pull).
    The bristle state over the step with v held (:func:`~simlab.friction.kernels.lugre_step`,
    bristle update number ``method``), giving the step-averaged friction F_step and the force at
    the start F_start; then the velocity from the force balance at mid-step,
    v_next = v + h (F_ext + k (v_pull t_mid - x_mid) - F_step) / m with x_mid = x + h v / 2, and
    the position by the trapezoidal rule, x_next = x + h (v + v_next) / 2. Floats or arrays.
    """
    z_next, F_step, F_start = lugre_step(z, v, h, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)
    F_applied = F_ext + k * (v_pull * t_mid - (x + 0.5 * h * v))
    v_next = v + h * (F_applied - F_step) / m
    return x + 0.5 * h * (v + v_next), v_next, z_next, F_start


@kernel
def block_run(out_x, out_v, out_F, out_z, x, v, z, F_ext, h, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1,
              sigma2, method):
    """The steps of :func:`block_step` from (x, v, z) at t = 0; fills out_x, out_v, out_F, out_z (N + 1,).

    ``F_ext[i]`` is the applied force at the mid-step t_i + h/2 (N values), t_i = i h. Returns 0,
    or the step i at which x or v became inf or NaN (the run stops there).
    """
    N = len(out_x) - 1
    for i in range(N):
        x_next, v_next, z_next, F_start = block_step(x, v, z, h * i + 0.5 * h, float(F_ext[i]), h, k, v_pull, m,
                                                     Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)
        out_x[i] = x
        out_v[i] = v
        out_F[i] = F_start
        out_z[i] = z
        x, v, z = x_next, v_next, z_next
        if not (math.isfinite(x) and math.isfinite(v)):
            return i + 1
    out_x[N] = x
    out_v[N] = v
    out_F[N] = lugre_step(z, v, h, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)[2]
    out_z[N] = z
    return 0


@kernel
def spring_block_rates(t, x, v, z, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1, sigma2, static):
    """Right-hand side of the spring-block: returns (x', v', z').

    x' = v, m v' = k (v_pull t - x) - F, with LuGre friction F = sigma0 z + sigma1 z' + sigma2 v,
    z' = v - sigma0 |v| z / g(v), or (``static`` = 1) the static curve F = sgn(v) g(v) + sigma2 v
    and z' = 0.
    """
    g = stribeck_level(v, Fc, Fs, vs, n)
    if static:
        F, zdot = static_force(v, g, sigma2), 0.0
    else:
        zdot, F = lugre_rates(v, z, g, sigma0, sigma1, sigma2)
    return v, (k * (v_pull * t - x) - F) / m, zdot


@kernel
def explicit_run(out, start, h, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1, sigma2, static, rk4, limit):
    """Euler (``rk4`` = 0) or RK4 (``rk4`` = 1) steps of :func:`spring_block_rates`, t_i = i h.

    ``out`` (N + 1, 3) holds the states (x, v, z); the run starts from row ``start`` and fills the
    rows after it. Euler: s+ = s + h f(t, s); RK4: K1 = f(t, s), K2 = f(t + h/2, s + h K1/2),
    K3 = f(t + h/2, s + h K2/2), K4 = f(t + h, s + h K3), s+ = s + h/6 (K1 + 2 (K2 + K3) + K4).
    Returns 0, or the first row i with |x|, |v| or |z| above ``limit``, inf or NaN (the run stops
    there; the caller decides whether that is instability, as the integrators' guard does).
    """
    N = len(out) - 1
    x, v, z = float(out[start, 0]), float(out[start, 1]), float(out[start, 2])
    half = 0.5 * h
    for i in range(start, N):
        t = h * i
        a1, b1, c1 = spring_block_rates(t, x, v, z, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1, sigma2, static)
        if rk4:
            a2, b2, c2 = spring_block_rates(t + half, x + half * a1, v + half * b1, z + half * c1, k, v_pull, m,
                                            Fc, Fs, vs, n, sigma0, sigma1, sigma2, static)
            a3, b3, c3 = spring_block_rates(t + half, x + half * a2, v + half * b2, z + half * c2, k, v_pull, m,
                                            Fc, Fs, vs, n, sigma0, sigma1, sigma2, static)
            a4, b4, c4 = spring_block_rates(t + h, x + h * a3, v + h * b3, z + h * c3, k, v_pull, m,
                                            Fc, Fs, vs, n, sigma0, sigma1, sigma2, static)
            x = x + (h / 6.0) * (a1 + 2.0 * (a2 + a3) + a4)
            v = v + (h / 6.0) * (b1 + 2.0 * (b2 + b3) + b4)
            z = z + (h / 6.0) * (c1 + 2.0 * (c2 + c3) + c4)
        else:
            x, v, z = x + h * a1, v + h * b1, z + h * c1
        out[i + 1, 0] = x
        out[i + 1, 1] = v
        out[i + 1, 2] = z
        if not (abs(x) <= limit and abs(v) <= limit and abs(z) <= limit):
            return i + 1
    return 0


@kernel
def bristle_response(out_z, v, T, z0, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method):
    """z[k+1] = the LuGre step of z[k] over T with v[k] held (:func:`~simlab.friction.kernels.lugre_step`).

    Fills out_z (N,) from z[0] = z0, for the velocity samples v (N,) with the sample time T.
    """
    z = z0
    out_z[0] = z
    for k in range(len(v) - 1):
        z = lugre_step(z, float(v[k]), T, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)[0]
        out_z[k + 1] = z


# ---------------------------------------------------------------------------------------------
# The simulators
# ---------------------------------------------------------------------------------------------


def _check_model(model, name="model", static=False):
    kinds = (LuGre, StaticFriction) if static else LuGre
    if not isinstance(model, kinds):
        what = "a LuGre parameter set (or a StaticFriction for method 'euler' or 'rk4')" if static else \
            "a LuGre parameter set"
        raise TypeError(f"{name} must be {what}, got {type(model).__name__}.")
    return model


def _parameters(model):
    """The friction parameters (Fc, Fs, vs, n, sigma0, sigma1, sigma2) as floats, the kernels' arguments."""
    if isinstance(model, StaticFriction):
        return float(model.Fc), float(model.Fs), float(model.vs), float(model.n), 0.0, 0.0, float(model.sigma2)
    return (float(model.Fc), float(model.Fs), float(model.vs), float(model.n), float(model.sigma0),
            float(model.sigma1), float(model.sigma2))


def _check_run(t_end, h, x0, v0, z0):
    """The grid t_k = k h on [0, t_end] and the initial state (x0, v0, z0) as floats, checked."""
    t_end = as_positive_scalar(t_end, "t_end")  # named here: time_grid would call it t_span[1]
    t, h = time_grid((0.0, t_end), h)
    return t, h, as_finite_scalar(x0, "x0"), as_finite_scalar(v0, "v0"), as_finite_scalar(z0, "z0")


def _non_finite(name, method, step, t, h):
    return NonFiniteStateError(f"{name} ({method}): the state became inf or NaN at step {step}.",
                               method=method, step=step, steps=len(t) - 1, t=float(t[step]), h=h)


def spring_block(model, k, v_pull, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """Stick-slip of a block of mass m on a LuGre surface, pulled through a spring k at speed v_pull.

    Equations (the classic set-up of Canudas de Wit et al. 1995):

        x' = v,   m v' = k (v_pull t - x) - F,   F = sigma0 z + sigma1 z' + sigma2 v,
        z' = v - sigma0 |v| z / g(v).

    ``method="exponential"`` and ``"implicit"`` advance the bristle state z over each step with
    v held (exact exponential or implicit Euler, both stable whatever the bristle rate
    sigma0 |v| / g), then the block with the step-averaged friction force, velocity by the force
    balance, position by the trapezoidal rule (:func:`block_step`). ``"euler"`` and ``"rk4"``
    integrate the three states explicitly (for comparison: they need h below 2/rate and
    2.785/rate), with the guards of :func:`simlab.integrators.integrate` (UnstableRunError when
    the state grows unstably); with them ``model`` may also be a :class:`StaticFriction` (the
    static curve, no bristle state: z stays 0). The loops are compiled kernels where numba is
    installed (:mod:`simlab.jit`). Many parameter sets at once: :func:`simlab.friction.spring_block_sweep`.

    Parameters
    ----------
    model : LuGre (or StaticFriction with method "euler" or "rk4")
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
        If ``model`` is not a LuGre (or a StaticFriction with an explicit method), or a number is
        not a real number.
    ValueError
        If k, m, t_end or h is not positive, h does not divide t_end, a value is NaN or inf, or
        ``method`` is not one of :data:`SPRING_BLOCK_METHODS` (or not explicit for a static model).
    simlab.integrators.NonFiniteStateError
        If the state becomes inf or NaN (an explicit method above its step limit);
        :class:`~simlab.integrators.UnstableRunError` (a subclass) if it grows unstably first.
    """
    _check_model(model, static=True)
    k = as_positive_scalar(k, "k")
    m = as_positive_scalar(m, "m")
    v_pull = as_finite_scalar(v_pull, "v_pull")
    as_choice(method, "method", SPRING_BLOCK_METHODS)
    if isinstance(model, StaticFriction) and method not in ("euler", "rk4"):
        raise ValueError(f"method must be 'euler' or 'rk4' for a StaticFriction model (it has no bristle state "
                         f"to update), got {method!r}.")
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    if method in ("euler", "rk4"):
        return _explicit_spring_block(model, k, v_pull, m, t, h, method, (x0, v0, z0))
    return _run_block(model, np.zeros(len(t) - 1), k, v_pull, m, t, h, method, x0, v0, z0, "spring_block")


def _run_block(model, F_ext, k, v_pull, m, t, h, method, x0, v0, z0, name):
    """:func:`block_run` (compiled where available) on the grid t; NonFiniteStateError where it stopped."""
    xs, vs, Fs, zs = (np.empty(len(t)) for _ in range(4))
    step = compiled(block_run)(xs, vs, Fs, zs, x0, v0, z0, F_ext, h, k, v_pull, m, *_parameters(model),
                               BRISTLE_CODES[method])
    if step:
        raise _non_finite(name, method, step, t, h)
    return SpringBlockResult(t, xs, vs, Fs, zs, method, h)


def _explicit_spring_block(model, k, v_pull, m, t, h, method, state0):
    """:func:`explicit_run` under the guards of :func:`simlab.integrators.integrate`, with the same errors.

    The kernel stops at the first row beyond GROWTH_LIMIT times the scale of the problem (or
    inf or NaN); the integrators' growth monitor then decides, on the same rows, whether that is
    instability (UnstableRunError) or growth of the equation itself (the run goes on).
    """
    static = isinstance(model, StaticFriction)
    parameters = (k, v_pull, m, *_parameters(model), int(static))

    def f(time, state):  # the right-hand side as the integrators see it, for the monitor's estimates
        return np.array(spring_block_rates(time, *state, *parameters))

    states = np.full((len(t), 3), np.nan)  # rows not reached stay NaN
    states[0] = state0
    monitor = _GrowthMonitor(f, states[0], f(0.0, states[0]), h, t[-1] - t[0], method)
    stop = _explicit_steps(states, 0, GROWTH_LIMIT * monitor.scale, h, parameters, method)
    if stop and np.all(np.isfinite(states[stop])):  # grown beyond the limit, still finite
        first = (stop - 1) // _CHECK_EVERY * _CHECK_EVERY
        monitor.check(states, first, stop, t)  # UnstableRunError, unless the equation itself grows
        stop = _explicit_steps(states, stop, sys.float_info.max, h, parameters, method)  # on, to inf or NaN
        _replay_guards(states, t, monitor, method, first, stop)
    elif stop:
        _replay_guards(states, t, monitor, method, (stop - 1) // _CHECK_EVERY * _CHECK_EVERY, stop)
    x, v, z = states.T.copy()
    return SpringBlockResult(t, x, v, model.force(v) if static else model.force(v, z), z, method, h)


def _explicit_steps(states, start, limit, h, parameters, method):
    """:func:`explicit_run` (compiled where available) from row ``start``: 0 or the row where it stopped.

    Plain Python floats raise OverflowError where numpy and numba give inf (x ** n of a huge x);
    the row being computed then counts as the first inf row (the rows not reached are NaN).
    """
    try:
        return compiled(explicit_run)(states, start, h, *parameters, int(method == "rk4"), limit)
    except OverflowError:
        return start + 1 + int(np.argmax(np.isnan(states[start + 1:, 0])))


def _replay_guards(states, t, monitor, method, first, stop):
    """The checks of :func:`simlab.integrators.integrate`, block by block from row ``first`` on.

    Rows after ``stop`` (the first inf or NaN row, 0 if none) were not computed and are not read.
    """
    N = len(t) - 1
    for start in range(first, stop or N, _CHECK_EVERY):
        _check_block(states, start, min(start + _CHECK_EVERY, stop or N), t, monitor.h, monitor, method)


def _value(value):
    """A 0-d or one-element array as its number, for the check of what force(t) returned."""
    if isinstance(value, np.ndarray) and value.size == 1:
        return value.reshape(())
    return value


def _forces_at(force, t):
    """force(t) at the times t (N,) as a float array (N,): one call with the array if ``force`` takes arrays.

    A force function written for numbers (``math.sin``, an ``if``) raises or returns another
    shape when called with the array; it is then called once per time. (A vectorized call gives
    numpy's array results, equal to the per-number calls to the last bit for the usual ufuncs.)
    """
    try:
        values = np.asarray(force(t), dtype=float)
    except Exception:  # noqa: BLE001 - written for numbers: the per-time calls below raise real errors
        values = None
    if values is None or values.shape != t.shape:
        values = np.array([_value(force(time)) for time in t], dtype=float)
    return values


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

    The state is advanced by the model's step (:func:`bristle_response`, the kernel of
    :meth:`LuGre.stepper`); the force at sample k is the force at the state and velocity of that
    sample, F[k] = force(v[k], z[k]). Used for frictional lag (F-v hysteresis loops) and to
    compare with the seed's S-function.

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
    model.stepper(method)  # checks the method
    z = np.empty(len(v))
    compiled(bristle_response)(z, v, T, as_finite_scalar(z0, "z0"), *_parameters(model), BRISTLE_CODES[method])
    return FrictionResponse(t=T * np.arange(len(v)), v=v, z=z, F=model.force(v, z))


def block_with_force(model, force, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0):
    """A block of mass m on a LuGre surface under an applied force ``force(t)`` (N).

    m x'' = force(t) - F. Same scheme as :func:`spring_block` (the bristle state exact or
    implicit over each step, the block with the step-averaged friction force). ``force`` is
    evaluated at the mid-steps t_k + h/2 before the loop: once with the array of mid-steps if
    it takes arrays, else once per mid-step. Used for the pre-sliding displacement and the
    break-away force of lab08. Many parameter sets at once:
    :func:`simlab.friction.block_with_force_sweep`.

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
    simlab.integrators.NonFiniteStateError
        If the state becomes inf or NaN (a force that does).
    """
    _check_model(model)
    if not callable(force):
        raise TypeError(f"force must be a function force(t) in N, got {type(force).__name__}.")
    m = as_positive_scalar(m, "m")
    as_choice(method, "method", ("exponential", "implicit"))
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    as_finite_scalar(_value(force(0.5 * h)), f"force(t) at t = {0.5 * h:g} s (the first mid-step)")
    F_ext = _forces_at(force, t[:-1] + 0.5 * h)
    return _run_block(model, F_ext, 0.0, 0.0, m, t, h, method, x0, v0, z0, "block_with_force")
