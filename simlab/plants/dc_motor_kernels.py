"""The double-loop drive's equations and its RK4 loop as kernels: one source, compiled or not.

The nine state equations of :func:`simlab.plants.dc_motor.simulate_drive` (states: filtered
speed reference and feedback, ASR integral, filtered current reference and feedback, ACR
integral, converter output Ud0, armature current Id, speed n)::

    Ton x_rn' = alpha n* - x_rn                 Ton x_fn' = alpha n - x_fn
    I_n'      = (Kn / tau_n) e_n  (+ anti-windup),  e_n = x_rn - x_fn,  U*_i = sat(Kn e_n + I_n, U*_im)
    Toi x_ri' = U*_i - x_ri                     Toi x_fi' = beta Id - x_fi
    I_i'      = (Ki / tau_i) e_i  (+ anti-windup),  e_i = x_ri - x_fi,  U_c = sat(Ki e_i + I_i, U_cm)
    Ts Ud0'   = Ks U_c - Ud0                    Tl Id' = (Ud0 + Delta U_d - Ce n) / R - Id
    n'        = R / (Ce Tm) (Id - I_dL)

Each function is a kernel (:func:`simlab.jit.kernel`): plain Python over floats and arrays,
compiled by numba when it is installed (:func:`simlab.jit.compiled`), the same function
otherwise. Kernels take numbers, not names: a limit that is off is ``inf`` (sat(v, inf) = v),
and the anti-windup treatment is one of the codes below. The drive's constants travel as two
tuples of floats, in the order of :func:`drive_constants`. :func:`run_drive_rk4` runs the loop
for :func:`simlab.plants.dc_motor.simulate_drive`, with the signals sampled before the loop.

Used by :func:`simlab.plants.dc_motor.simulate_drive` (lab07).
"""

from __future__ import annotations

import math

import numpy as np

from simlab.jit import compiled, kernel

__all__ = [
    "ANTI_WINDUP_CODES",
    "pi_output",
    "integrator_rate",
    "regulator_outputs",
    "drive_rates",
    "drive_rk4",
    "drive_constants",
    "run_drive_rk4",
]

#: The anti-windup treatments (:data:`simlab.plants.dc_motor.ANTI_WINDUP`) as kernel codes.
ANTI_WINDUP_CODES = {"none": 0, "analog": 1, "clamping": 2, "back-calculation": 3}
_NONE, _ANALOG, _CLAMPING = 0, 1, 2


@kernel
def pi_output(gain, integral, error, limit):
    """PI regulator: v = K e + I and its limited output sat(v) = min(max(v, -limit), limit); (v, u)."""
    v = gain * error + integral
    return v, min(max(v, -limit), limit)


@kernel
def integrator_rate(gain, tau, error, v, u, mode, tracking, integral, limit):
    """I' of the PI regulator K (tau s + 1)/(tau s) with the anti-windup treatment ``mode``.

    I' = (K / tau) e, except: "analog" holds the integral (the capacitor voltage) within the
    output range; while the output is limited (u != v), "clamping" stops integrating when the
    error drives further out, and "back-calculation" adds the excess (u - v) / tracking.
    """
    rate = gain / tau * error  # I' = (K / tau) e for v = K e + I = K (tau s + 1)/(tau s) e
    if mode == _ANALOG:
        if abs(integral) >= limit and integral * rate > 0:
            return 0.0  # the integral (capacitor voltage) stays within the output range
        return rate
    if u == v or mode == _NONE:
        return rate
    if mode == _CLAMPING:
        return 0.0 if error * v > 0 else rate  # stop integrating while the error drives further out
    return rate + (u - v) / tracking  # back-calculation: pull I back by the excess


@kernel
def regulator_outputs(x, regulators):
    """The limited regulator outputs (U*_i, U_c) (V) in the state x; ``regulators`` as in :func:`drive_rates`."""
    Kn, tau_n, Ki, tau_i, Uim, Ucm = regulators
    Ui = pi_output(Kn, x[2], x[0] - x[1], Uim)[1]
    Uc = pi_output(Ki, x[5], x[3] - x[4], Ucm)[1]
    return Ui, Uc


@kernel
def drive_rates(x, n_star, I_load, dU_grid, plant, regulators, mode):
    """dx/dt of the drive's nine states (the module docstring's equations), shape (9,), and the
    limited regulator outputs U*_i, U_c (V) it uses: returns (dx, Ui, Uc).

    Parameters
    ----------
    x : ndarray, shape (9,)
        The state.
    n_star, I_load, dU_grid : float
        Speed reference (r/min), load current (A) and grid disturbance (V) at this time.
    plant : tuple of float
        (alpha, beta, Ton, Toi, Ks, Ts, R, Tl, Ce, k_mech), k_mech = R / (Ce Tm).
    regulators : tuple of float
        (Kn, tau_n, Ki, tau_i, Uim, Ucm); a limit that is off is inf.
    mode : int
        Anti-windup code (:data:`ANTI_WINDUP_CODES`).
    """
    alpha, beta, Ton, Toi, Ks, Ts, R, Tl, Ce, k_mech = plant
    Kn, tau_n, Ki, tau_i, Uim, Ucm = regulators
    x_rn, x_fn, I_n, x_ri, x_fi, I_i, Ud0, Id, n = x
    e_n = x_rn - x_fn
    v_n, Ui = pi_output(Kn, I_n, e_n, Uim)
    e_i = x_ri - x_fi
    v_i, Uc = pi_output(Ki, I_i, e_i, Ucm)
    dx = np.array([
        (alpha * n_star - x_rn) / Ton,  # reference filter, Ton x' = U*n - x
        (alpha * n - x_fn) / Ton,  # speed feedback filter
        integrator_rate(Kn, tau_n, e_n, v_n, Ui, mode, tau_n, I_n, Uim),
        (Ui - x_ri) / Toi,  # current reference filter
        (beta * Id - x_fi) / Toi,  # current feedback filter
        integrator_rate(Ki, tau_i, e_i, v_i, Uc, mode, tau_i, I_i, Ucm),
        (Ks * Uc - Ud0) / Ts,  # converter Ks/(Ts s + 1)
        ((Ud0 + dU_grid - Ce * n) / R - Id) / Tl,  # armature (1/R)/(Tl s + 1)
        k_mech * (Id - I_load),  # mechanics R/(Ce Tm s)
    ])
    return dx, Ui, Uc


@kernel
def drive_rk4(x0, h, n_star, I_load, dU_grid, plant, regulators, mode):
    """RK4 over N steps of h from x0, the inputs sampled where the stages need them.

    K1 = f(t_k, x_k), K2 = f(t_k + h/2, x_k + h K1/2), K3 = f(t_k + h/2, x_k + h K2/2),
    K4 = f(t_k + h, x_k + h K3), x_{k+1} = x_k + h/6 (K1 + 2 K2 + 2 K3 + K4), as
    :func:`simlab.rk4` computes it.

    Parameters
    ----------
    x0 : ndarray, shape (9,)
    h : float
        Step (s).
    n_star, I_load, dU_grid : ndarray, shape (N, 3)
        Each input at t_k, t_k + h/2 and t_k + h, for k = 0 .. N-1.
    plant, regulators, mode
        As in :func:`drive_rates`.

    Returns
    -------
    x : ndarray, shape (N + 1, 9)
    Ui, Uc : ndarray, shape (N + 1,)
        The limited regulator outputs at each t_k (those of K1).
    reached : int
        N + 1 if every state is finite, else the first step k whose state is inf or NaN (the
        loop stops there; the rows after it are not computed).
    """
    N = n_star.shape[0]
    xs, Ui, Uc = np.empty((N + 1, 9)), np.empty(N + 1), np.empty(N + 1)
    x = x0.copy()
    xs[0] = x
    half = 0.5 * h
    for k in range(N):
        K1, Ui[k], Uc[k] = drive_rates(x, n_star[k, 0], I_load[k, 0], dU_grid[k, 0], plant, regulators, mode)
        K2 = drive_rates(x + half * K1, n_star[k, 1], I_load[k, 1], dU_grid[k, 1], plant, regulators, mode)[0]
        K3 = drive_rates(x + half * K2, n_star[k, 1], I_load[k, 1], dU_grid[k, 1], plant, regulators, mode)[0]
        K4 = drive_rates(x + h * K3, n_star[k, 2], I_load[k, 2], dU_grid[k, 2], plant, regulators, mode)[0]
        x = x + (h / 6.0) * (K1 + 2.0 * (K2 + K3) + K4)
        xs[k + 1] = x
        if not np.isfinite(x).all():
            return xs, Ui, Uc, k + 1
    Ui[N], Uc[N] = regulator_outputs(x, regulators)
    return xs, Ui, Uc, N + 1


def drive_constants(p, design, Uim, Ucm):
    """The tuples ``plant`` and ``regulators`` of :func:`drive_rates` for DriveParameters ``p`` and
    a RegulatorDesign; the regulator limits Uim, Ucm (V), None for a limit that is off (inf)."""
    plant = (p.alpha, p.beta, p.Ton, p.Toi, p.Ks, p.Ts, p.R, p.Tl, p.Ce, p.R / (p.Ce * p.Tm))
    regulators = (design.Kn, design.tau_n, design.Ki, design.tau_i, math.inf if Uim is None else Uim,
                  math.inf if Ucm is None else Ucm)
    return plant, regulators


#: Types of the values a signal's function may return for the kernel loop.
_PLAIN_NUMBERS = (float, int, np.float64, np.int64)


def _sampled(signal, times):
    """A signal (a float, or a function of t) at ``times``, an array of their shape; None if the
    function raises or returns anything but plain real numbers."""
    if not callable(signal):
        return np.full(times.shape, signal)
    try:
        values = [signal(t) for t in times.ravel().tolist()]
        if not all(type(value) in _PLAIN_NUMBERS for value in values):
            return None
        return np.array(values, dtype=float).reshape(times.shape)
    except Exception:  # noqa: BLE001 - the reference path raises it where the run meets it
        return None


def run_drive_rk4(t, h, signals, plant, regulators, mode):
    """Run :func:`drive_rk4` (compiled if enabled) on the grid t from rest; None where it cannot.

    ``signals`` are n*, I_dL and Delta U_d, each a float or a function of t, sampled here at
    t_k, t_k + h/2 and t_k + h. Returns (x, Ui, Uc) as :func:`drive_rk4`, or None if a signal
    raised or returned something other than real numbers, the state became inf or NaN, or |x|
    grew beyond what the guard of :func:`simlab.rk4` against unstable growth lets pass without
    a closer look (GROWTH_LIMIT times the scale max(1, |x0|, |f(0, x0)| t_end)): such a run is
    the reference path's, :func:`simlab.rk4`, which raises the error that fits.
    """
    from simlab.guards import GROWTH_LIMIT

    stage_times = t[:-1, None] + np.array([0.0, 0.5 * h, h])  # t_k, t_k + h/2, t_k + h
    sampled = [_sampled(signal, stage_times) for signal in signals]
    if any(values is None for values in sampled):
        return None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x, Ui, Uc, reached = compiled(drive_rk4)(np.zeros(9), h, *sampled, plant, regulators, mode)
    if reached < len(t):
        return None
    dx0 = drive_rates(x[0], sampled[0][0, 0], sampled[1][0, 0], sampled[2][0, 0], plant, regulators, mode)[0]
    scale = max(1.0, float(np.max(np.abs(x[0]))), float(np.max(np.abs(dx0))) * (t[-1] - t[0]))
    if np.max(np.abs(x)) > GROWTH_LIMIT * scale:
        return None
    return x, Ui, Uc
