"""Parameter sweeps: many parameter sets of the spring-block, or of the block under a force, at once.

:func:`spring_block_sweep` and :func:`block_with_force_sweep` take the arguments of
:func:`~simlab.friction.spring_block` and :func:`~simlab.friction.block_with_force`, but every
parameter may be a batch: ``model`` a sequence of LuGre parameter sets, ``k``, ``v_pull`` and
``m`` arrays, ``force(t)`` an array of forces. The batches broadcast together (numpy's rules) to
the *batch shape* S; for example ``k=ks[:, None], v_pull=vs[None, :]`` runs every combination
of a stiffness and a pulling speed, S = (len(ks), len(vs)). Every set runs the same steps as a
single run: with numba (:mod:`simlab.jit`) the compiled loop :func:`block_sweep` advances
every set by :func:`~simlab.friction.block.block_step`, step by step (the very numbers of the
single runs); without it (``SIMLAB_JIT=0``) all sets advance together, one numpy step
(:func:`~simlab.friction.block.block_step` on arrays) per time step. The two agree to about
1e-13 of the signals' scale (numpy's exp of an array and math.exp of a number differ in the
last bit).

Memory: 8 bytes per recorded signal, set and step (x, v, F, z: all four by default, or those
named in ``record``); a sweep of more than :data:`MAX_VALUES` values is refused.

Used in lab08 (the stick-slip map).
"""

from __future__ import annotations

from dataclasses import dataclass

import math

import numpy as np

from simlab.friction.block import SpringBlockResult, _check_run, _forces_at, _parameters, _value, block_step
from simlab.friction.kernels import BRISTLE_CODES, lugre_step
from simlab.friction.models import LuGre
from simlab.guards import NonFiniteStateError
from simlab.jit import compiled, jit_enabled, kernel
from simlab.results import Result
from simlab.validation import as_choice, as_real_array

__all__ = ["BlockSweep", "spring_block_sweep", "block_with_force_sweep", "block_sweep", "MAX_VALUES", "SIGNALS"]

#: Largest number of recorded values (signals x sets x samples) a sweep may hold (2.4 GiB).
MAX_VALUES = 320_000_000


@kernel
def block_sweep(out_x, out_v, out_F, out_z, x0, v0, z0, F_ext, h, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1,
                sigma2, method):
    """The loop of :func:`~simlab.friction.block.block_run` for B parameter sets, the sets interleaved.

    At each step :func:`~simlab.friction.block.block_step` advances set b = 0 .. B - 1 with the
    values b of the parameter arrays k ... sigma2 (B,) and the applied force F_ext[i, b] (N, B);
    out_x, out_v, out_F, out_z (N + 1, B) record the samples. An array with a single column is
    shared by all sets: one force for all, or a scratch column for a signal that is not recorded.
    (Set b gets the very numbers of its single run; interleaving the sets lets the processor
    overlap their independent steps.) Returns the stops (B,): all 0, or, at the first step where
    some sets became inf or NaN, that step for those sets (the run stops there).
    """
    N, B = len(F_ext), len(k)
    x, v, z = np.full(B, x0), np.full(B, v0), np.full(B, z0)
    stops = np.zeros(B, np.int64)
    for i in range(N):
        t_mid = h * i + 0.5 * h
        for b in range(B):
            x_next, v_next, z_next, F_start = block_step(x[b], v[b], z[b], t_mid, F_ext[i, _column(F_ext, b)], h,
                                                         k[b], v_pull[b], m[b], Fc[b], Fs[b], vs[b], n[b],
                                                         sigma0[b], sigma1[b], sigma2[b], method)
            out_x[i, _column(out_x, b)] = x[b]
            out_v[i, _column(out_v, b)] = v[b]
            out_F[i, _column(out_F, b)] = F_start
            out_z[i, _column(out_z, b)] = z[b]
            x[b], v[b], z[b] = x_next, v_next, z_next
            if not (math.isfinite(x_next) and math.isfinite(v_next)):
                stops[b] = i + 1
        if stops.any():
            return stops
    for b in range(B):
        out_x[N, _column(out_x, b)] = x[b]
        out_v[N, _column(out_v, b)] = v[b]
        out_F[N, _column(out_F, b)] = lugre_step(z[b], v[b], h, Fc[b], Fs[b], vs[b], n[b], sigma0[b], sigma1[b],
                                                 sigma2[b], method)[2]
        out_z[N, _column(out_z, b)] = z[b]
    return stops


@kernel
def _column(array, b):
    """Column b of ``array``, or its only column (shared by all sets)."""
    return b if array.shape[1] > 1 else 0


@dataclass(frozen=True)
class BlockSweep(Result):
    """Many block simulations on one grid; unpacks as ``t, x``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        Time grid (s).
    x, v, F, z : ndarray, shape (N + 1,) + shape, or None
        Position (m), velocity (m/s), friction force at each sample (N) and bristle deflection
        (m) of every set, time along the first axis; None for a signal not in ``record``.
    shape : tuple of int
        The batch shape S (the broadcast shape of the parameters).
    models : ndarray of LuGre, shape S
        The friction parameter set of each set.
    m : ndarray, shape S
        Mass of each set (kg).
    k, v_pull : ndarray, shape S, or None
        Spring stiffness (N/m) and pulling speed (m/s) of each set (:func:`spring_block_sweep`);
        None for :func:`block_with_force_sweep`.
    method : str
    h : float
        Step size (s).
    """

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    v: np.ndarray
    F: np.ndarray
    z: np.ndarray
    shape: tuple
    models: np.ndarray
    m: np.ndarray
    k: np.ndarray | None
    v_pull: np.ndarray | None
    method: str
    h: float

    def run(self, *index):
        """The simulation of the set at ``index`` (one integer per axis of :attr:`shape`) as a SpringBlockResult.

        Signals that were not recorded are None.
        """
        if len(index) != len(self.shape):
            raise ValueError(f"index must give one position per axis of the batch shape {self.shape}, got {index}.")
        where = (slice(None),) + tuple(index)
        x, v, F, z = (None if signal is None else signal[where] for signal in (self.x, self.v, self.F, self.z))
        return SpringBlockResult(self.t, x, v, F, z, self.method, self.h)


def _as_models(model):
    """``model`` as an object array of LuGre (shape () for one set, (M,) for a sequence)."""
    if isinstance(model, LuGre):
        models = np.empty((), dtype=object)
        models[()] = model
        return models
    if not isinstance(model, (list, tuple, np.ndarray)) or not len(model):
        raise TypeError(f"model must be a LuGre parameter set or a non-empty sequence (list, tuple) of them, got "
                        f"{type(model).__name__}{' (empty)' if isinstance(model, (list, tuple)) else ''}.")
    models = np.empty(len(model), dtype=object)
    for i, entry in enumerate(model):
        if not isinstance(entry, LuGre):
            raise TypeError(f"model[{i}] must be a LuGre parameter set, got {type(entry).__name__}.")
        models[i] = entry
    return models


def _as_batch(value, name, positive):
    array = as_real_array(value, name)
    if positive and np.any(array <= 0):
        raise ValueError(f"{name} must be positive (every value), got {value!r}.")
    return array


def _batch_shape(models, arrays, names):
    """The broadcast shape S of the models and the parameter arrays; ValueError naming them otherwise."""
    shapes = [models.shape] + [array.shape for array in arrays]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        listed = ", ".join(f"{name} {shape}" for name, shape in zip(("model",) + names, shapes))
        raise ValueError(f"the parameter batches must broadcast together (numpy's rules), got the shapes {listed}; "
                         f"for every combination of k and v_pull use k=ks[:, None], v_pull=vs[None, :].") from None
    if 0 in shape:
        raise ValueError(f"the sweep has no parameter set: the batch shape is {shape}.")
    return shape


#: The signals a sweep can record.
SIGNALS = ("x", "v", "F", "z")


def _as_record(record):
    if isinstance(record, str):
        record = (record,)
    if not isinstance(record, (list, tuple)) or not record or any(name not in SIGNALS for name in record):
        raise ValueError(f"record must name one or more of the signals {', '.join(map(repr, SIGNALS))}, "
                         f"got {record!r}.")
    return tuple(name for name in SIGNALS if name in record)


def _check_size(shape, t, record):
    values = len(record) * int(np.prod(shape)) * len(t)
    if values > MAX_VALUES:
        raise ValueError(f"the sweep would record {values:,} values ({8 * values / 2**30:.1f} GiB: {len(record)} per "
                         f"set and sample, {int(np.prod(shape)):,} sets, {len(t):,} samples); the limit is "
                         f"simlab.friction.sweep.MAX_VALUES = {MAX_VALUES:,}. Record fewer signals (record=('v',)), "
                         f"use fewer sets, a shorter span or a larger h, or raise the limit.")


def spring_block_sweep(model, k, v_pull, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0,
                       record=SIGNALS):
    """Many spring-blocks at once (:func:`~simlab.friction.spring_block` for a batch of parameter sets).

    The equations and the scheme of :func:`~simlab.friction.spring_block` (exponential or
    implicit bristle update); ``model``, ``k``, ``v_pull`` and ``m`` may each be a batch, and they
    broadcast together to the batch shape S.

    Parameters
    ----------
    model : LuGre or sequence of LuGre
        One friction parameter set for all, or one per set (shape (M,)).
    k, v_pull, m : float or array_like
        Spring stiffness (N/m, > 0), pulling speed (m/s), mass (kg, > 0).
    t_end, h : float
        Span [0, t_end] and step (s), shared by all sets; h must divide t_end.
    method : {"exponential", "implicit"}
    x0, v0, z0 : float
        Initial position, velocity and bristle state, shared by all sets.
    record : sequence of {"x", "v", "F", "z"}
        The signals to keep (default all four, 32 bytes per set and sample; a map of periods
        needs only ``("v",)``); the others are None in the result.

    Returns
    -------
    BlockSweep
        ``x``, ``v``, ``F``, ``z`` of shape (N + 1,) + S; ``run(i, j)`` gives one set as a
        SpringBlockResult, equal to the single run with that set's parameters.

    Raises
    ------
    TypeError
        If ``model`` is not a LuGre or a sequence of them, or a parameter is not real.
    ValueError
        If a value of k or m is not positive, a value is NaN or inf, the batches do not
        broadcast together, h does not divide t_end, the sweep exceeds :data:`MAX_VALUES`,
        ``method`` is not "exponential" or "implicit", or ``record`` names no signal or an unknown one.
    simlab.integrators.NonFiniteStateError
        If the state of a set becomes inf or NaN (the message names the set).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.friction import CANUDAS_1995, LuGre, spring_block_sweep
    >>> sweep = spring_block_sweep(LuGre(**CANUDAS_1995), k=np.array([[1.0], [2.0]]), v_pull=[0.1, 0.2, 0.4],
    ...                            m=1.0, t_end=1.0, h=1e-3)
    >>> sweep.shape, sweep.v.shape
    ((2, 3), (1001, 2, 3))
    """
    models = _as_models(model)
    arrays = (_as_batch(k, "k", True), _as_batch(v_pull, "v_pull", False), _as_batch(m, "m", True))
    shape = _batch_shape(models, arrays, ("k", "v_pull", "m"))
    as_choice(method, "method", ("exponential", "implicit"))
    record = _as_record(record)
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    _check_size(shape, t, record)
    k, v_pull, m = (np.broadcast_to(array, shape) for array in arrays)
    result = _sweep(np.broadcast_to(models, shape), k, v_pull, m, np.zeros((len(t) - 1, 1)), t, h, method,
                    (x0, v0, z0), record, "spring_block_sweep")
    return BlockSweep(**result, k=k.copy(), v_pull=v_pull.copy())


def block_with_force_sweep(model, force, m, t_end, h, method="exponential", x0=0.0, v0=0.0, z0=0.0,
                           record=SIGNALS):
    """Many blocks under an applied force at once (:func:`~simlab.friction.block_with_force` for a batch).

    ``model`` and ``m`` may be batches, and ``force(t)`` may return one force for all sets (a
    number) or an array of forces that broadcasts with them (for example ``lambda t: rates * t``
    for a batch of force rates); everything broadcasts to the batch shape S. ``force`` is
    evaluated at the mid-steps before the loop.

    Parameters
    ----------
    model : LuGre or sequence of LuGre
    force : callable
        force(t) (N): a finite number, or an array broadcasting with the other batches.
    m : float or array_like
        Mass (kg), > 0.
    t_end, h, method, x0, v0, z0, record
        As in :func:`spring_block_sweep`.

    Returns
    -------
    BlockSweep
        With ``k`` and ``v_pull`` None.

    Raises
    ------
    TypeError, ValueError, simlab.integrators.NonFiniteStateError
        As :func:`spring_block_sweep`; TypeError or ValueError if ``force`` is not callable or
        force(h/2) is not a finite real number or array.
    """
    models = _as_models(model)
    if not callable(force):
        raise TypeError(f"force must be a function force(t) in N, got {type(force).__name__}.")
    mass = _as_batch(m, "m", True)
    as_choice(method, "method", ("exponential", "implicit"))
    record = _as_record(record)
    t, h, x0, v0, z0 = _check_run(t_end, h, x0, v0, z0)
    first = as_real_array(_value(force(0.5 * h)), f"force(t) at t = {0.5 * h:g} s (the first mid-step)")
    shape = _batch_shape(models, (mass, first), ("m", "force(t)"))
    _check_size(shape, t, record)
    t_mid = t[:-1] + 0.5 * h
    if first.shape == ():
        F_ext = _forces_at(force, t_mid)[:, None]  # one force for all sets
    else:
        values = np.array([np.broadcast_to(np.asarray(force(time), dtype=float), first.shape) for time in t_mid])
        F_ext = np.ascontiguousarray(np.broadcast_to(values, (len(t_mid),) + shape).reshape(len(t_mid), -1))
    m = np.broadcast_to(mass, shape)
    zeros = np.zeros(shape)
    result = _sweep(np.broadcast_to(models, shape), zeros, zeros, m, F_ext, t, h, method, (x0, v0, z0), record,
                    "block_with_force_sweep")
    return BlockSweep(**result, k=None, v_pull=None)


def _sweep(models, k, v_pull, m, F_ext, t, h, method, state0, record, name):
    """Run every set: the compiled :func:`block_sweep`, or without numba all sets together in numpy.

    ``F_ext`` (N, 1 or B): the applied forces at the mid-steps. Returns the fields of a BlockSweep
    but k and v_pull; NonFiniteStateError for the first set (in step order) that overflowed.
    """
    shape, N = models.shape, len(t) - 1
    flat = [np.ascontiguousarray(np.reshape(a, -1), dtype=float) for a in (k, v_pull, m)]
    B = len(flat[0])
    table = np.array([_parameters(model) for model in models.reshape(-1)])  # (B, 7): Fc, Fs, vs, n, sigma0..2
    parameters = [np.ascontiguousarray(column) for column in table.T]
    code = BRISTLE_CODES[method]
    if jit_enabled():
        out = [np.empty((N + 1, B if signal in record else 1)) for signal in SIGNALS]  # a scratch column if not kept
        stops = compiled(block_sweep)(*out, *state0, F_ext, h, *flat, *parameters, code)
    else:
        out = [np.empty((N + 1, B)) if signal in record else None for signal in SIGNALS]
        stops = _numpy_sweep(*out, *state0, F_ext, h, *flat, *parameters, code, B)
    if np.any(stops):
        step = int(np.min(stops[stops > 0]))
        where = np.unravel_index(int(np.flatnonzero(stops == step)[0]), shape)
        raise NonFiniteStateError(f"{name} ({method}): the state of the set at {tuple(map(int, where))} became inf "
                                  f"or NaN at step {step}.", method=method, step=step, steps=N, t=float(t[step]), h=h)
    x, v, F, z = (a.reshape((N + 1,) + shape) if signal in record else None for signal, a in zip(SIGNALS, out))
    return dict(t=t, x=x, v=v, F=F, z=z, shape=shape, models=models.copy(), m=np.array(m, dtype=float),
                method=method, h=h)


def _numpy_sweep(out_x, out_v, out_F, out_z, x0, v0, z0, F_ext, h, k, v_pull, m, Fc, Fs, vs, n, sigma0, sigma1,
                 sigma2, method, B):
    """All B sets together, one numpy step (:func:`block_step` on arrays of B states) per time step.

    The loop of :func:`block_sweep` with arrays: out_* (N + 1, B) or None (not recorded), F_ext
    (N, 1 or B). Returns the stops (B,) as :func:`block_sweep` does.
    """
    N = len(F_ext)
    x, v, z = np.full(B, x0), np.full(B, v0), np.full(B, z0)
    outputs = (out_x, out_v, out_F, out_z)
    with np.errstate(all="ignore"):
        for i in range(N + 1):
            if i < N:
                x_next, v_next, z_next, F_start = block_step(x, v, z, h * i + 0.5 * h, F_ext[i], h, k, v_pull, m,
                                                             Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)
            else:  # the last sample: its force only
                F_start = lugre_step(z, v, h, Fc, Fs, vs, n, sigma0, sigma1, sigma2, method)[2]
            for out, value in zip(outputs, (x, v, F_start, z)):
                if out is not None:
                    out[i] = value
            if i < N:
                x, v, z = x_next, v_next, z_next
                bad = ~(np.isfinite(x) & np.isfinite(v))
                if bad.any():
                    return np.where(bad, i + 1, 0)
    return np.zeros(B, np.int64)
