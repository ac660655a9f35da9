"""The discrete similarity method (离散相似法): exact sampling of a linear system.

Over one sample period T, dx/dt = A x + B u has the exact solution

.. math::
    x((k+1)T) = e^{AT} x(kT) + \\int_0^T e^{A(T-\\tau)} B\\, u(kT + \\tau)\\, d\\tau .

With a hold (保持器) fixing u between samples, the integral is a fixed matrix times the samples:

* zero-order hold (零阶保持器), u constant: ``x[k+1] = Phi x[k] + Gamma u[k]`` with the
  state-transition matrix (状态转移矩阵) Phi = Phi(T) = e^{AT} and Gamma = m(T);
* triangle hold (三角形保持器), u linear between samples:
  ``x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])``.

A recurrence, not a numerical integration formula: exact to rounding for such inputs, whatever T.
:func:`discretize` gives Phi, Gamma, Gamma_hat; :func:`lsim` simulates without a Python loop over
the steps (:mod:`simlab.recurrence`), also with a pure delay of the input at any tau
(``input_delay``, the recurrence of :mod:`simlab.delay`); :func:`lsim_loop` is the textbook
loop. :func:`simlab.digital.c2d` discretizes a transfer function.

Used in lab04_discrete_similarity (seed 003, "离散相似法") and lab11 (the delay).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg

from simlab import delay, guards, recurrence
from simlab.integrators import GRID_RTOL, NonFiniteStateError
from simlab.results import Result
from simlab.validation import (
    HOLDS,
    as_choice,
    as_hold,
    as_initial_state,
    as_positive_scalar,
    as_real_array,
    as_state_equation,
    as_state_space,
)

__all__ = ["HOLDS", "LSIM_METHODS", "LinearResponse", "discretize", "lsim", "lsim_loop"]

# HOLDS, the holds of discretize and lsim, is simlab.validation.HOLDS (elementwise uses it too).
LSIM_METHODS = ("block", "schur", "modal", "loop")  #: ways :func:`lsim` runs the recurrence

#: ``method="modal"`` refuses an eigenvector matrix V with cond(V) above this: diagonalizing
#: would lose more than half of the 16 digits (A is defective or nearly so).
MODAL_COND_LIMIT = 1e8

_LOG_MAX = math.log(np.finfo(float).max)  # 709.78: e^x overflows beyond it
_HUGE_INPUT_GAIN = 1e100  # B T beyond this (with A T not) is named as the cause of a failed e^M
#: How lsim names the sample period in messages (it is given through the grid t).
_GRID_PERIOD = "T = t[1] - t[0]"


@dataclass(frozen=True, repr=False)
class LinearResponse(Result):
    """Response of a linear system on a uniform grid; unpacks as ``t, y``.

    Attributes: ``t`` (N + 1,) the grid; ``y`` (N + 1,) for one output, else (N + 1, p);
    ``x`` (N + 1, n) the states; ``hold`` and ``method`` (see :func:`lsim`); ``T`` the period;
    ``input_delay`` the delay tau of the input (0: none), in the unit of t.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    x: np.ndarray
    hold: str
    method: str
    T: float
    input_delay: float = 0.0

    def __repr__(self) -> str:
        delayed = f", input_delay={self.input_delay:g}" if self.input_delay else ""
        return (f"LinearResponse(hold={self.hold!r}, method={self.method!r}, T={self.T:g}{delayed}, "
                f"steps={len(self.t) - 1}, x shape={self.x.shape}, y shape={self.y.shape})")


# --- Argument checking (the state-space shapes: simlab.validation.as_state_space) ---


def _check_grid_and_input(t, u, m):
    """Check the uniform increasing grid ``t`` and the input ``u``; return t, u (N+1, m), T."""
    t = as_real_array(t, "t", ndim=1)
    if t.size < 2:
        raise ValueError(f"t must hold at least two time points, got {t.size}.")
    steps, T = np.diff(t), float((t[-1] - t[0]) / (t.size - 1))
    if np.any(steps <= 0):
        raise ValueError("t must be strictly increasing, e.g. t = np.linspace(0, 10, 1001).")
    k = int(np.argmax(np.abs(steps - T)))
    if abs(steps[k] - T) > GRID_RTOL * T:
        raise ValueError(
            f"t must be a uniform grid (discrete similarity uses one sample period T), but "
            f"t[{k + 1}] - t[{k}] = {steps[k]!r} differs from the mean step {T!r}. "
            f"Use t = np.linspace(t0, t1, N + 1)."
        )
    u = as_real_array(u, "u")
    if u.ndim == 1 and m == 1 and u.size == t.size:
        u = u.reshape(-1, 1)
    if u.shape != (t.size, m):
        hint = " Time runs along the first axis: pass u.T." if u.shape == (m, t.size) else ""
        raise ValueError(
            f"u must have one row per time point, shape ({t.size}, {m})"
            f"{f' or ({t.size},)' if m == 1 else ''}; got shape {u.shape}.{hint}"
        )
    return t, u, T


# --- Phi, Gamma, Gamma_hat ---


def _discretize(A, B, T, hold, system="A", period="T"):
    """Phi, Gamma, Gamma_hat (zero for zoh) from one expm; A and B checked (may be complex).

    ``system`` and ``period`` name A and T in the ValueError raised when e^{AT} or m(T) is
    beyond the floating-point range (:func:`_require_finite_exponential`).
    """
    n, m = B.shape
    size = n + m if hold == "zoh" else n + 2 * m
    M = np.zeros((size, size), dtype=np.result_type(A, B))
    with np.errstate(over="ignore", invalid="ignore"):
        M[:n, :n] = A * T  # M = [[A T, B T, 0],
        M[:n, n : n + m] = B * T  # [  0,   0, I],
    if hold == "foh":  #         [  0,   0, 0]]
        M[n : n + m, n + m :] = np.eye(m)
    if not np.all(np.isfinite(M)):  # before LAPACK sees it
        raise ValueError(
            f"A T or B T overflows the floating-point range for {period} = {T:.6g} (largest |A| "
            f"{np.max(np.abs(A), initial=0):.3g}, |B| {np.max(np.abs(B), initial=0):.3g}): "
            f"choose {period} comparable with the time constants of {system}, or rescale it."
        )
    with np.errstate(over="ignore", invalid="ignore"):
        E = linalg.expm(M)
    _require_finite_exponential(E, A, B, T, system, period)
    Gamma_hat = E[:n, n + m :] if hold == "foh" else np.zeros((n, m), dtype=E.dtype)
    return E[:n, :n], E[:n, n : n + m], Gamma_hat


def _require_finite_exponential(E, A, B, T, system, period):
    """ValueError naming A and T (or B) when e^M has inf or NaN: why, and the range of T that works."""
    if np.all(np.isfinite(E)):
        return
    a_size, b_size = np.max(np.abs(A), initial=0.0) * T, np.max(np.abs(B), initial=0.0) * T
    if b_size > _HUGE_INPUT_GAIN and a_size <= _HUGE_INPUT_GAIN:
        raise ValueError(
            f"e^(A T) and m(T) are not computable in floating point: B T has entries up to {b_size:.3g} "
            f"({period} = {T:.6g}, largest |B| {b_size / T:.3g}), so the matrix exponential of "
            f"[[A T, B T], [0, 0]] leaves the floating-point range. Scale B down (change the unit of "
            f"the input u).")
    eigenvalues = linalg.eigvals(A)  # A is finite (M was)
    growth = float(np.max(eigenvalues.real))
    if growth * T > _LOG_MAX:
        raise ValueError(
            f"e^(A T) overflows the floating-point range: {system} has an eigenvalue with real "
            f"part {growth:.6g} and {period} = {T:.6g}, so e^(A T) grows like e^{growth * T:.6g}, "
            f"beyond the largest double (about e^709.78 = 1.8e308). {period} must be below "
            f"{_LOG_MAX / growth:.6g} for this {system}."
        )
    rates = np.abs(eigenvalues[eigenvalues != 0])
    scales = (f" (1/|lambda| from {1 / rates.max():.3g} to {1 / rates.min():.3g})"
              if rates.size else "")
    raise ValueError(
        f"e^(A T) and m(T) are not computable in floating point for {period} = {T:.6g}: "
        f"||A|| T = {np.linalg.norm(A, 1) * T:.3g} is far beyond the range of the matrix "
        f"exponential (its entries, or its scaling and squaring, leave the floating-point "
        f"range). Choose {period} comparable with the time constants of {system}{scales}."
    )


def discretize(A, B, T, hold="zoh"):
    """Phi(T), m(T) and the triangle-hold matrix of dx/dt = A x + B u, from one matrix exponential.

    .. math::
        \\Phi = e^{AT},\\quad \\Gamma = m(T) = \\int_0^T e^{As}\\,ds\\,B,\\quad
        \\hat\\Gamma = \\frac{1}{T}\\int_0^T e^{A(T-\\tau)}\\,\\tau\\,d\\tau\\,B

    make ``x[k+1] = Phi x[k] + Gamma u[k]`` exact for a zero-order hold (零阶保持器), and
    ``x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])`` exact for a triangle hold
    (三角形保持器: u linear between samples).

    Why one exponential gives all three: ``w = (x, v, a)`` with dw/ds = (M / T) w and

    .. math::
        M = \\begin{bmatrix} AT & BT & 0\\\\ 0 & 0 & I\\\\ 0 & 0 & 0 \\end{bmatrix}

    means dx/ds = A x + B v, dv/ds = a / T, da/ds = 0: the system driven by the input
    ``v(s) = v(0) + a(0) s / T``, which ramps linearly. So w(T) = e^M w(0), and the blocks of the
    first block row of e^M are the responses at s = T to unit starts: to x(0) = I, e^{AT} = Phi;
    to v(0) = I (constant input), ``int_0^T e^{A(T-tau)} dtau B = Gamma``; to a(0) = I (input
    tau / T), ``(1/T) int_0^T e^{A(T-tau)} tau dtau B = Gamma_hat``. A is never inverted, so
    singular A (integrators, 积分环节) needs no special case. zoh leaves out the last block.

    Parameters
    ----------
    A, B : array_like, shapes (n, n) and (n, m), n >= 1; a vector B of shape (n,) is one input
        column (the rules of :func:`simlab.validation.as_state_equation`)
    T : float
        Sample period (采样周期), T > 0.
    hold : {"zoh", "foh"}
        Zero-order hold, or triangle (first-order) hold.

    Returns
    -------
    Phi, Gamma : ndarray, shapes (n, n) and (n, m)
        e^{AT} and m(T); for ``hold="foh"`` a third element Gamma_hat, shape (n, m).

    Raises
    ------
    TypeError, ValueError
        For a non-numeric argument; for A not square, A without states (shape (0, 0): a static
        gain has nothing to discretize), B with the wrong number of rows, T not finite and
        positive, or an unknown hold.
    ValueError
        Also if Phi or Gamma is beyond the floating-point range: e^{AT} overflows when an
        eigenvalue of A has a real part above 709.78 / T (e^709.78 is the largest double), and
        the matrix exponential cannot be evaluated for ||A|| T far beyond the time constants of
        A (T = 1e300). The message names A and T and gives the largest T that works.

    Notes
    -----
    Used in lab04_discrete_similarity (seed 003, "离散相似法"), where the textbook writes
    Phi(T) = L^{-1}[(sI - A)^{-1}] at t = T and m(T) = int_0^T e^{A(T-t)} B dt.

    Examples
    --------
    The integrator 1/s (A = 0) with T = 0.5: Phi = 1, Gamma = T, Gamma_hat = T / 2.

    >>> from simlab.similarity import discretize
    >>> Phi, Gamma, Gamma_hat = discretize([[0.0]], [1.0], 0.5, hold="foh")
    >>> float(Phi[0, 0]), float(Gamma[0, 0]), float(Gamma_hat[0, 0])
    (1.0, 0.5, 0.25)
    """
    A, B = as_state_equation(A, B)
    if not len(A):
        raise ValueError("A must have at least one state, got shape (0, 0): a system without states "
                         "(a static gain y = D u) has no Phi or Gamma to discretize; lsim simulates it as it is.")
    T = as_positive_scalar(T, "T")
    hold = as_hold(hold)
    Phi, Gamma, Gamma_hat = _discretize(A, B, T, hold)
    return (Phi, Gamma) if hold == "zoh" else (Phi, Gamma, Gamma_hat)


# --- Simulation: the recurrence, run in one of four ways ---


def _block_states(A, B, x0, u, T, hold):
    """The recurrence in time blocks with matrix products (:func:`simlab.recurrence.block_recurrence`)."""
    _, Gamma, Gamma_hat = _discretize(A, B, T, hold, period=_GRID_PERIOD)
    Delta = recurrence.expm_minus_identity(A * T)  # Phi - I to full accuracy
    return recurrence.block_recurrence(Delta, *recurrence.held_input(u, Gamma, Gamma_hat, hold), x0)


def _loop_states(A, B, x0, u, T, hold):
    """The recurrence one step at a time in Python: slow, but it reads like the lecture."""
    Phi, Gamma, Gamma_hat = _discretize(A, B, T, hold, period=_GRID_PERIOD)
    x = np.empty((len(u), len(x0)))
    x[0] = x0
    for k in range(len(u) - 1):
        if hold == "zoh":
            # x[k+1] = Phi x[k] + Gamma u[k]
            x[k + 1] = Phi @ x[k] + Gamma @ u[k]
        else:
            # x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])
            x[k + 1] = Phi @ x[k] + Gamma @ u[k] + Gamma_hat @ (u[k + 1] - u[k])
    return x


def _triangular_states(R, Bz, z0, u, T, hold):
    """z[k+1] = Phi_z z[k] + w[k] for upper-triangular R (Phi_z = e^{RT}): one row at a time."""
    n, m = Bz.shape
    # One expm for [Bz, I]: the extra columns are Psi = int_0^T e^{Rs} ds, and
    # Delta = Phi_z - I = R Psi keeps full accuracy even where Phi_z is within 1e-4 of I.
    _, Gamma, Gamma_hat = _discretize(R, np.hstack([Bz, np.eye(n)]), T, hold, period=_GRID_PERIOD)
    Delta = np.triu(R @ Gamma[:, m:])
    Gamma, Gamma_hat = Gamma[:, :m], Gamma_hat[:, :m]
    w = u[:-1] @ (Gamma - Gamma_hat).T + u[1:] @ Gamma_hat.T  # (Gamma - Gamma_hat) u[k] + Gamma_hat u[k+1]
    return recurrence.triangular_recurrence(Delta, w, z0)


def _schur_states(A, B, x0, u, T, hold):
    # A = Q R Q^H, Q unitary, R upper triangular (complex Schur form); z = Q^H x.
    R, Q = linalg.schur(A, output="complex")
    z = _triangular_states(R, Q.conj().T @ B, Q.conj().T @ x0, u, T, hold)
    return (z @ Q.T).real  # x[k] = Q z[k]


def _eigenbasis(A):
    """lambda, V of A = V diag(lambda) V^{-1}; ValueError if V is ill-conditioned (defective A)."""
    lam, V = linalg.eig(A)
    cond = np.linalg.cond(V)
    if not cond <= MODAL_COND_LIMIT:  # also catches cond = inf or nan
        raise ValueError(
            f"method='modal' needs well-conditioned eigenvectors, but cond(V) = {cond:.3g}: A is "
            f"defective or nearly so (repeated poles, e.g. 1/s^3), and diagonalizing would lose "
            f"about {min(np.log10(cond), 16):.0f} of 16 digits. Use method='schur'.")
    return lam, V


def _modal_states(A, B, x0, u, T, hold):
    # A = V diag(lambda) V^{-1}; in modal coordinates z = V^{-1} x the modes are decoupled.
    lam, V = _eigenbasis(A)
    z = _triangular_states(np.diag(lam), linalg.solve(V, B), linalg.solve(V, x0), u, T, hold)
    return (z @ V.T).real  # x[k] = V z[k]


_RUNNERS = {"block": _block_states, "schur": _schur_states, "modal": _modal_states, "loop": _loop_states}


def _stacked_states(A, Phi, x0, G, v, T, method):
    """x[k+1] = Phi x[k] + G v[k] (the delayed input of :func:`simlab.delay.delayed_recurrence`), by ``method``."""
    if method == "block":
        return recurrence.block_recurrence(recurrence.expm_minus_identity(A * T), G, v, x0)
    if method == "loop":
        x = np.empty((len(v) + 1, len(x0)))
        x[0] = x0
        for k in range(len(v)):
            x[k + 1] = Phi @ x[k] + G @ v[k]  # x[k+1] = Phi x[k] + Gamma_1 u[k-d-1] + Gamma_2 u[k-d] (+ slopes)
        return x
    if method == "schur":  # A = Q R Q^H, z = Q^H x
        R, back = linalg.schur(A, output="complex")
        G_z, z0 = back.conj().T @ G, back.conj().T @ x0
    else:  # A = V diag(lambda) V^{-1}, z = V^{-1} x
        lam, back = _eigenbasis(A)
        R, G_z, z0 = np.diag(lam), linalg.solve(back, G), linalg.solve(back, x0)
    Psi = _discretize(R, np.eye(len(A)), T, "zoh", period=_GRID_PERIOD)[1]  # int_0^T e^{Rs} ds
    z = recurrence.triangular_recurrence(np.triu(R @ Psi), v @ G_z.T, z0)  # Phi_z - I = R Psi
    return (z @ back.T).real


def _delayed_states(A, B, x0, u, T, hold, method, tau, history):
    """States and delayed input samples w[k] = u(t_k - tau) for the input delay tau > 0."""
    d, theta = delay.split_delay(tau, T)
    w = delay.delayed_samples(u, T, d, theta, hold, history)
    if not len(A):
        return np.zeros((len(u), 0)), w
    if theta == 0.0 and hold == "zoh":  # tau = d T: lsim of the shifted input w[k] = u[k - d]
        return _RUNNERS[method](A, B, x0, w, T, hold), w
    Phi = _discretize(A, B, T, hold, period=_GRID_PERIOD)[0]  # e^{AT}, or the error naming A and T
    G, v = delay.delayed_recurrence(A, B, u, T, d, theta, hold, history)
    return _stacked_states(A, Phi, x0, G, v, T, method), w


def _largest_growth(A):
    """max Re(lambda) of A (0 for n = 0): the growth rate of e^{At}."""
    return float(np.max(linalg.eigvals(A).real)) if len(A) else 0.0


def _surely_representable(A, span):
    """True if e^{At} cannot overflow for t <= span, from a logarithmic norm mu(A) >= max Re(lambda).

    ||e^{At}|| <= e^{mu(A) t}: first mu_1 and mu_inf (a_jj plus the sizes of the other entries
    of column or row j, largest over j: no linear algebra), else mu_2 = largest eigenvalue of
    (A + A^T) / 2, a tenth of the cost of the eigenvalues of A (1 ms against 12 ms at n = 200).
    """
    if not len(A):
        return True
    diagonal = np.diag(A)
    off = np.abs(A - np.diag(diagonal))
    if min(np.max(diagonal + off.sum(axis=0)), np.max(diagonal + off.sum(axis=1))) * span <= _LOG_MAX:
        return True
    symmetric = A / 2 + A.T / 2  # (A + A^T) / 2 without overflow for entries near 1.8e308
    return float(linalg.eigvalsh(symmetric, subset_by_index=[len(A) - 1] * 2)[0]) * span <= _LOG_MAX


def _as_input_delay(input_delay, t, T):
    """tau >= 0, finite, and at most simlab.guards.MAX_STEPS sample periods (the delay line's length)."""
    tau = delay.as_delay(input_delay, "input_delay")
    if tau / T > guards.MAX_STEPS:
        span = float(t[-1] - t[0])
        raise ValueError(
            f"input_delay = {tau!r} is {tau / T:.3g} sample periods T = {T:.6g}, more than "
            f"simlab.guards.MAX_STEPS = {guards.MAX_STEPS:,}. A delay longer than the span "
            f"t[-1] - t[0] = {span:.6g} only shows u_before: any input_delay above {span:.6g} gives "
            f"the same response. Use a smaller input_delay (or raise simlab.guards.MAX_STEPS).")
    return tau


def _response(A, B, C, D, u, t, hold, x0, method, input_delay=0.0, u_before=0.0):
    A, B, C, D = as_state_space(A, B, C, D)
    n = A.shape[0]
    t, u, T = _check_grid_and_input(t, u, B.shape[1])
    hold = as_hold(hold)
    tau = _as_input_delay(input_delay, t, T)
    history = delay.as_history(u_before, B.shape[1])
    x0 = np.zeros(n) if x0 is None else as_initial_state(x0, n)
    if not _surely_representable(A, float(t[-1] - t[0])):
        _require_representable_transition(_largest_growth(A), t, T, method)
    with np.errstate(over="ignore", invalid="ignore"):
        if tau:  # the input the system sees is w(t) = u(t - tau)
            x, u = _delayed_states(A, B, x0, u, T, hold, method, tau, history)
        else:  # n = 0 (a static gain, no states): nothing to run, y = D u
            x = _RUNNERS[method](A, B, x0, u, T, hold) if n else np.zeros((len(u), 0))
        y = x @ C.T + u @ D.T  # y[k] = C x[k] + D u[k] (u[k] = u(t_k - tau) when delayed)
    if n == 0 and not np.all(np.isfinite(y)):
        raise NonFiniteStateError("the output y = D u overflowed to inf: scale u or D down.",
                                  method=method, steps=len(t) - 1, h=T)
    bad = ~(np.all(np.isfinite(x), axis=1) & np.all(np.isfinite(y), axis=1))
    if bad.any():
        _raise_overflow(int(np.argmax(bad)), _largest_growth(A), t, T, method)
    y = y[:, 0] if y.shape[1] == 1 else y
    return LinearResponse(t=t, y=y, x=x, hold=hold, method=method, T=T, input_delay=tau)


def _raise_overflow(k, growth, t, T, method):
    """NonFiniteStateError for a state or output that overflowed at step k: why, and what to do."""
    why = (f"the system is unstable (largest Re(lambda) = {growth:.3g}) and outgrows the "
           f"floating-point range. Shorten the time span." if growth > 0 else
           "x0, u, B, C or D are so large that the state or the output overflows; scale "
           "them down (change the units).")
    raise NonFiniteStateError(
        f"the state overflowed to inf or NaN at step {k} of {len(t) - 1} (t = {t[k]:.6g}, "
        f"T = {T:.6g}): {why}",
        method=method, step=k, steps=len(t) - 1, t=float(t[k]), h=T,
    )


def _require_representable_transition(growth, t, T, method):
    """NonFiniteStateError if e^{A (t_N - t_0)} overflows: an unstable mode outgrows the doubles.

    Then rounding errors in that mode (of relative size 1e-16, whatever the input) grow beyond
    about 1.8e308 within the grid, so the response is not computable in floating point, even
    when the input does not excite the mode in exact arithmetic.
    """
    span = float(t[-1] - t[0])
    if growth * span <= _LOG_MAX:
        return
    steps = len(t) - 1
    k = min(steps, max(1, math.ceil(_LOG_MAX / (growth * T))))
    raise NonFiniteStateError(
        f"the system is unstable (largest Re(lambda) of A = {growth:.6g}) and its transition "
        f"matrix e^(A t) outgrows the floating-point range from step {k} of {steps} on (t = "
        f"{t[k]:.6g}, T = {T:.6g}): e^({growth:.6g} t) passes 1.8e308 (e^709.78) once t - t0 > "
        f"{_LOG_MAX / growth:.6g}. Rounding errors in the unstable mode grow like it whatever "
        f"the input, so the response cannot be computed in floating point. Shorten the time "
        f"span to below {_LOG_MAX / growth:.6g}.",
        method=method, step=k, steps=steps, t=float(t[k]), h=T,
    )


def lsim(A, B, C, D, u, t, hold="zoh", x0=None, method="block", input_delay=0.0, u_before=0.0):
    """Simulate dx/dt = A x + B u(t - tau), y = C x + D u(t - tau) on a uniform grid by discrete similarity.

    .. math::
        x[k+1] = \\Phi x[k] + \\Gamma u[k] + \\hat\\Gamma\\,(u[k+1] - u[k]),\\qquad
        y[k] = C x[k] + D u[k]

    with Phi, Gamma, Gamma_hat from :func:`discretize` (Gamma_hat = 0 for the zero-order hold):
    exact, to rounding, when u is piecewise constant (zoh) or piecewise linear (foh). Used in
    lab04_discrete_similarity (seed 003, "离散相似法").

    No Python loop runs per step. ``method="block"`` (default, at every n and N): the grid is
    cut into blocks of L samples (:func:`simlab.recurrence.block_recurrence`). A loop of N / L
    steps advances the block starts, x + ((Phi^L - I) x + s_b), with Phi - I from
    :func:`simlab.recurrence.expm_minus_identity` (never the difference e^{AT} - I, which keeps
    only the digits of |lambda| T above eps); then one matrix product gives every state from its
    block start and the block's inputs. So BLAS does the N n (n + L m) multiply-adds, in the
    original coordinates (nothing amplified; defective or singular A, integrators and
    oscillators need no special case), and L (about 100 at n = 3, 16 to 32 at n = 200) balances
    the Python steps against the extra work. ``benchmarks/discrete_similarity.py`` (2 cores,
    random stable systems, T = 1e-3, N = 1e4 and 1e5, interleaved, BLAS on one thread) measured
    it at 0.02-0.07 of ``scipy.signal.lsim``'s time for n = 3 and 10, 0.11-0.17 for n = 50 and
    0.27-0.59 for n = 200, with errors of 1e-15 to 4e-15 of the output against an
    extended-precision reference (scipy: 1e-14 to 1e-13; up to 1.5e-12 on undamped oscillators
    and integrators over 20,000 steps, see the tests). The other methods run the same
    recurrence differently. ``"schur"``: with the complex Schur form A = Q R Q^H the recurrence
    in z = Q^H x is triangular, each z_i a first-order recurrence run by ``scipy.signal.lfilter``
    plus one refinement step for phi_ii ~ 1; its n lfilter passes and the triangular coupling
    (N n^2 / 2 complex multiply-adds in vector operations, not BLAS) cost 0.07-0.3 of scipy's
    time for n = 3 and 10 but 1x at n = 50 and 5-8x at n = 200 (same benchmark, N = 1e4), so it
    is no longer the default. ``"modal"`` diagonalizes A = V diag(lambda) V^{-1} (errors grow like
    cond(V); defective A is refused); ``"loop"`` is :func:`lsim_loop`. The discrete transfer
    function (:func:`c2d`, then ``lfilter``) is not offered: with poles crowding near z = 1 at
    small T it loses many digits.

    A pure input delay (纯延迟环节) e^{-tau s}, ``input_delay=tau`` (default 0: none), is exact
    too, at any tau >= 0 (not only multiples of T): with tau = d T + theta each step is split
    where the delayed input switches, x[k+1] = Phi x[k] + Gamma_1 u[k-d-1] + Gamma_2 u[k-d]
    for the zero-order hold (the triangle hold adds the slopes of both intervals; the matrices
    and their derivation: :mod:`simlab.delay`, :func:`simlab.delay.discretize_delay`). The
    stacked input (u[k-d-1], u[k-d]) makes this the same recurrence, run by the same methods;
    for theta = 0 and the zero-order hold it is exactly lsim of the shifted input u[k - d]. The
    input before t[0] is ``u_before`` (default 0: the system sees nothing until t[0] + tau, so
    a step switched on at t[0] arrives at t[0] + tau; with the triangle hold the input jumps
    from u_before to u[0] there rather than ramping). For a history that is not constant,
    start the grid earlier, with the history's samples at the front of u (x0 is then the state
    at that earlier start). A tau longer than the span is
    allowed: the system then sees only u_before (zero: the free response from x0).

    Parameters
    ----------
    A, B : array_like, shapes (n, n) and (n, m) or (n,)
    C, D : array_like, shapes (p, n) or (n,), and (p, m) or a scalar (0: no feedthrough)
        The rules of :func:`simlab.validation.as_state_space`. n = 0 (A of shape (0, 0)) is a
        static gain: y = D u, and ``.x`` has shape (N + 1, 0).
    u, t : array_like, shapes (N + 1,) or (N + 1, m), and (N + 1,)
        Input samples u(t_k) (time along the first axis) on a uniform increasing grid t, e.g.
        ``np.linspace(0, 10, 1001)``; the sample period is T = t[1] - t[0].
    hold : {"zoh", "foh"}
        Input between samples: constant (零阶保持器) or linear (三角形保持器).
    x0 : array_like, shape (n,), optional
        State at t[0]; zeros by default.
    method : {"block", "schur", "modal", "loop"}
        How the recurrence is run (see above).
    input_delay : float
        Delay tau >= 0 of the input, in the unit of t: the system is driven by u(t - tau), and
        y[k] = C x[k] + D u(t_k - tau); finite and at most ``simlab.guards.MAX_STEPS`` sample
        periods T. Used in lab11 (delay and sampled-data systems).
    u_before : float or array_like of shape (m,)
        The input before t[0] (default 0), seen by the system until t[0] + tau; ignored when
        tau = 0.

    Returns
    -------
    LinearResponse
        Unpacks as ``t, y``: y (N + 1,) for one output, else (N + 1, p); ``.x`` is (N + 1, n);
        ``.input_delay`` is tau.

    Raises
    ------
    TypeError, ValueError
        For a non-numeric argument; for wrong shapes, a non-uniform grid, NaN or inf, an unknown
        hold or method, an input_delay that is negative, NaN or inf or more than
        ``simlab.guards.MAX_STEPS`` sample periods T (input_delay / T > 1e7 by default; a delay
        beyond the span shows only u_before anyway), a u_before of the wrong shape; ValueError also for a sample period T = t[1] - t[0] at which e^{AT}
        cannot be computed (see :func:`discretize`).
    NonFiniteStateError
        If an unstable system outgrows the floating-point range: when e^{A (t_N - t_0)}
        overflows (the largest Re(lambda) of A times the span beyond 709.78), rounding errors
        in the unstable mode would, whatever the input, so this is refused before the run; and
        if the state or the output overflows during the run (too large x0, u, B, C or D). The
        message and the fields ``step``, ``steps``, ``t`` and ``h`` (= T) say where.

    Examples
    --------
    Step response of 1/(s + 1), y = 1 - e^{-t}: exact at the samples even with T = 1.

    >>> import numpy as np
    >>> from simlab.similarity import lsim
    >>> t, y = lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(6), np.linspace(0, 5, 6))
    >>> bool(np.allclose(y, 1 - np.exp(-t), rtol=0, atol=1e-14))
    True

    The same with a dead time of 1.5 (not a multiple of T = 1): y = 1 - e^{-(t - 1.5)} from 1.5 on.

    >>> t, y = lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(6), np.linspace(0, 5, 6), input_delay=1.5)
    >>> bool(np.allclose(y, np.where(t >= 1.5, 1 - np.exp(-(t - 1.5)), 0), rtol=0, atol=1e-14))
    True
    """
    method = as_choice(method, "method", LSIM_METHODS)
    return _response(A, B, C, D, u, t, hold, x0, method, input_delay, u_before)


def lsim_loop(A, B, C, D, u, t, hold="zoh", x0=None):
    """Textbook discrete-similarity loop, one Python step per sample (reference for :func:`lsim`).

    The recurrence of :func:`lsim`; arguments, result and errors (Raises: TypeError,
    ValueError, NonFiniteStateError) as there. It is much slower on long grids, which is what
    lab04_discrete_similarity (seed 003) measures.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.similarity import lsim_loop
    >>> t, y = lsim_loop([[-1.0]], [1.0], [1.0], 0.0, np.ones(3), [0.0, 1.0, 2.0])
    >>> np.round(y, 6).tolist()
    [0.0, 0.632121, 0.864665]
    """
    return _response(A, B, C, D, u, t, hold, x0, "loop")

