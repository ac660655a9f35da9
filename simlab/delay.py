"""Pure delay (纯延迟环节) e^{-tau s}: exact discrete similarity and the shift register.

A pure delay (dead time, 纯滞后) passes its input on tau later: w(t) = u(t - tau). Two ways to
simulate it (seed 003, 3.4 纯延迟环节仿真模型):

* **Exact, for a held input** (:func:`discretize_delay`, behind
  ``simlab.lsim(..., input_delay=tau)``). Write tau = d T + theta with 0 <= theta < T
  (:func:`split_delay`). Over the step from t_k to t_{k+1} the delayed input switches once,
  at t_k + theta: before, it comes from the hold interval of sample k - d - 1, after, from that
  of sample k - d. Splitting the step there makes the recurrence exact (离散相似法), for the
  zero-order hold (零阶保持器)

  .. math::
      x[k+1] = \\Phi x[k] + \\Gamma_1 u[k-d-1] + \\Gamma_2 u[k-d],\\qquad
      \\Gamma_1 = e^{A(T-\\theta)} \\int_0^{\\theta} e^{As} ds\\, B,\\quad
      \\Gamma_2 = \\int_0^{T-\\theta} e^{As} ds\\, B

  (Gamma_1 + Gamma_2 = Gamma = m(T)). For the triangle hold (三角形保持器, input linear between
  samples) each interval j brings its slope, Delta_j = u[j+1] - u[j], too:

  .. math::
      x[k+1] = \\Phi x[k] + \\Gamma_1 u[k-d-1] + \\hat\\Gamma_1 \\Delta_{k-d-1}
               + \\Gamma_2 u[k-d] + \\hat\\Gamma_2 \\Delta_{k-d},

      \\hat\\Gamma_1 = e^{A(T-\\theta)} \\big((1-\\alpha)\\,\\Gamma(\\theta)
                       + \\alpha\\,\\hat\\Gamma(\\theta)\\big),\\quad
      \\hat\\Gamma_2 = (1-\\alpha)\\,\\hat\\Gamma(T-\\theta),\\quad \\alpha = \\theta / T,

  where Gamma(h) and Gamma_hat(h) are the hold matrices of :func:`simlab.similarity.discretize`
  for the step h (Gamma(h) = int_0^h e^{As} ds B, Gamma_hat(h) = (1/h) int_0^h e^{A(h-s)} s ds B),
  both read off one augmented matrix exponential per sub-step. Derivation: on the first
  sub-step (length theta) the delayed input is p + q s with p = u(t_k - tau) =
  alpha u[j] + (1 - alpha) u[j+1] and q = Delta_j / T (j = k - d - 1), which gives
  Gamma(theta) p + theta Gamma_hat(theta) q, carried to t_{k+1} by e^{A(T - theta)}; on the
  second (length T - theta) it is u[j+1] + Delta_{j+1} s / T. At theta = 0 both reduce to the
  undelayed recurrence with u[k - d], and as theta -> T to the one with u[k - d - 1]: the
  response is continuous in tau.

* **A shift register** (:class:`DelayLine`) for per-element simulation
  (:func:`simlab.elementwise.simulate_elements` with ``delays=``): it keeps the last d + 2
  samples of its input and returns the sample d steps back, linearly interpolated towards the
  one before it when theta > 0. Exact when tau / h is an integer; otherwise the interpolation
  errs by at most theta (h - theta) / 2 max|u''| <= h^2 / 8 max|u''|.

The input before the first sample is a constant, zero unless given (``u_before``): the system
is at rest with its input off until t[0] + tau (a step switched on at t[0] arrives at
t[0] + tau). A tau longer than the span is allowed: then only that history reaches the
system (zero: the free response).

Padé approximants of e^{-tau s} are :func:`simlab.lti.pade`; their step responses against the
exact delay, :func:`simlab.delay_approximation.compare_pade`. Used in lab11 (delay and
sampled-data systems).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg

from simlab import guards
from simlab.validation import (
    as_finite_scalar,
    as_hold,
    as_positive_scalar,
    as_real_array,
    as_state_equation,
)
from simlab.validation.parameters import as_bounded_scalar, as_count

__all__ = ["DelayDiscretization", "DelayLine", "as_delay", "as_history", "discretize_delay", "split_delay"]

#: A tau within this many units of roundoff (eps tau) of a multiple of T counts as that
#: multiple: 0.3 / 0.1 is 2.9999999999999996 in floating point, but tau = 0.3 is meant as 3 T.
SNAP_ULPS = 8


def as_delay(tau, name="tau"):
    """Check a pure delay: a finite real number tau >= 0 (in the unit of t); return it as a float.

    Raises TypeError if it is not a real number, ValueError if it is NaN, inf or negative; the
    message names the argument.

    Examples
    --------
    >>> as_delay(0.25, "input_delay")
    0.25
    >>> as_delay(-1.0, "input_delay")
    Traceback (most recent call last):
    ...
    ValueError: input_delay must lie in [0, inf], got -1.0 (a delay tau >= 0: the output lags its
    input by tau, in the unit of t; a negative delay would need future input).
    """
    return as_bounded_scalar(tau, name, low=0.0, why=" (a delay tau >= 0: the output lags its input "
                             "by tau, in the unit of t; a negative delay would need future input)") + 0.0


def _split(tau, T, names=("tau", "T")):
    """d, theta of tau = d T + theta (tau >= 0, T > 0 finite); ValueError if d is beyond MAX_STEPS.

    The count tau / T is checked as a float, before it becomes an int (1e308 / 0.1 is inf).
    """
    steps = tau / T
    if steps > guards.MAX_STEPS:
        count = f"{steps:.6g}" if math.isfinite(steps) else "more than 1.8e308"
        raise ValueError(
            f"{names[0]} = {tau!r} is {count} steps of {names[1]} = {T!r}, more than "
            f"simlab.guards.MAX_STEPS = {guards.MAX_STEPS:,}: use a larger {names[1]} or a shorter delay (a delay "
            f"longer than the whole run leaves only the input before t[0]), or raise simlab.guards.MAX_STEPS.")
    theta = math.fmod(tau, T)  # exact in floating point
    d = round((tau - theta) / T)
    tolerance = SNAP_ULPS * np.finfo(float).eps * tau
    if T - theta <= tolerance:  # tau a hair below (d + 1) T: rounding, not a fraction
        return d + 1, 0.0
    if theta <= tolerance:
        return d, 0.0
    return d, theta


def split_delay(tau, T, name="tau"):
    """Whole steps and fraction of a delay: tau = d T + theta with d >= 0 an integer, 0 <= theta < T.

    tau within 8 units of roundoff (8 eps tau) of a multiple of T is that multiple, so that
    tau = 0.3 with T = 0.1 gives d = 3, theta = 0 (0.3 / 0.1 = 2.9999999999999996 in floating
    point); the change, at most 8 eps tau, is at the level of the rounding of tau and T.

    Parameters
    ----------
    tau : float
        Delay tau >= 0, in the unit of T.
    T : float
        Sample period (or step) T > 0.
    name : str
        The delay's name in messages (``"input_delay"`` for :func:`simlab.similarity.lsim`).

    Returns
    -------
    d : int
    theta : float

    Raises
    ------
    TypeError, ValueError
        Unless tau is a finite number >= 0 and T a finite number > 0 (the message names it);
        ValueError also if tau / T exceeds :data:`simlab.guards.MAX_STEPS` (the message gives
        the count; ``split_delay(1e308, 0.1)`` is refused, not an OverflowError).

    Examples
    --------
    >>> from simlab.delay import split_delay
    >>> split_delay(0.3, 0.1), split_delay(0.25, 0.1)[0]
    ((3, 0.0), 2)
    """
    tau = as_delay(tau, name)
    T = as_positive_scalar(T, "T")
    return _split(tau, T, (name, "T"))


# --- The exact recurrence of a delayed held input ---


def _hold_blocks(A, B, h, hold):
    """Phi(h) = e^{Ah}, Gamma(h), Gamma_hat(h) (0 for zoh) from one augmented exponential.

    The exponential of [[A h, B h, 0], [0, 0, I], [0, 0, 0]] (the matrix of
    :func:`simlab.similarity.discretize` for the step h; zoh leaves out the last block row and
    column).
    """
    n, m = B.shape
    size = n + m if hold == "zoh" else n + 2 * m
    M = np.zeros((size, size), dtype=np.result_type(A, B))
    M[:n, :n], M[:n, n : n + m] = A * h, B * h
    if hold == "foh":
        M[n : n + m, n + m :] = np.eye(m)
    with np.errstate(over="ignore", invalid="ignore"):
        E = linalg.expm(M)
    if not np.all(np.isfinite(E)):
        raise ValueError(
            f"the exponential of [[A h, B h], [0, 0]] (e^(A h) and the input gain of B) is beyond the floating-point "
            f"range for the sub-step h = {h:.6g} of the delayed step: choose T comparable with the time constants "
            f"of A, and B of a moderate size (its largest entry is {float(np.max(np.abs(B), initial=0.0)):.3g}).")
    Gamma_hat = E[:n, n + m :] if hold == "foh" else np.zeros((n, m), dtype=E.dtype)
    return E[:n, :n], E[:n, n : n + m], Gamma_hat


def _delay_gains(A, B, T, theta, hold):
    """Gamma_1, Gamma_2, Gamma_1_hat, Gamma_2_hat of the module docstring (hats 0 for zoh)."""
    zero = np.zeros(B.shape, dtype=np.result_type(A, B))
    if theta == 0.0:  # tau = d T: the undelayed matrices, applied to u[k - d]
        _, Gamma, Gamma_hat = _hold_blocks(A, B, T, hold)
        return zero, Gamma, zero, Gamma_hat
    alpha = theta / T
    _, Gamma_a, Gamma_hat_a = _hold_blocks(A, B, theta, hold)  # first sub-step, length theta
    Phi_b, Gamma_b, Gamma_hat_b = _hold_blocks(A, B, T - theta, hold)  # second, T - theta
    Gamma_1 = Phi_b @ Gamma_a  # e^{A(T-theta)} Gamma(theta)
    if hold == "zoh":
        return Gamma_1, Gamma_b, zero, zero
    Gamma_1_hat = Phi_b @ ((1 - alpha) * Gamma_a + alpha * Gamma_hat_a)
    return Gamma_1, Gamma_b, Gamma_1_hat, (1 - alpha) * Gamma_hat_b


@dataclass(frozen=True, repr=False)
class DelayDiscretization:
    """The exact recurrence of dx/dt = A x + B u(t - tau) for a held input (:func:`discretize_delay`).

    Attributes
    ----------
    Phi : ndarray, shape (n, n)
        e^{AT}.
    Gamma_1, Gamma_2 : ndarray, shape (n, m)
        Gains of u[k - d - 1] and u[k - d]: e^{A(T - theta)} int_0^theta e^{As} ds B and
        int_0^{T - theta} e^{As} ds B (Gamma_1 = 0 when theta = 0).
    Gamma_1_hat, Gamma_2_hat : ndarray, shape (n, m)
        Gains of the slopes Delta_{k-d-1} and Delta_{k-d} for the triangle hold (zero for zoh).
    d : int
        Whole sample periods in tau.
    theta : float
        The fraction, tau - d T, 0 <= theta < T (in the unit of T).
    T, tau : float
        Sample period and delay.
    hold : str
        "zoh" or "foh".
    """

    Phi: np.ndarray
    Gamma_1: np.ndarray
    Gamma_2: np.ndarray
    Gamma_1_hat: np.ndarray
    Gamma_2_hat: np.ndarray
    d: int
    theta: float
    T: float
    tau: float
    hold: str

    def __repr__(self):
        return (f"DelayDiscretization(hold={self.hold!r}, T={self.T:g}, tau={self.tau:g}, d={self.d}, "
                f"theta={self.theta:g}, n={len(self.Phi)}, m={self.Gamma_2.shape[1]})")


def discretize_delay(A, B, T, tau, hold="zoh"):
    """Exact discretization of dx/dt = A x + B u(t - tau) for a held input, at any delay tau >= 0.

    .. math::
        x[k+1] = \\Phi x[k] + \\Gamma_1 u[k-d-1] + \\Gamma_2 u[k-d]
                 \\;(+\\, \\hat\\Gamma_1 \\Delta_{k-d-1} + \\hat\\Gamma_2 \\Delta_{k-d}
                 \\text{ for the triangle hold})

    with tau = d T + theta (:func:`split_delay`) and the matrices of the module docstring. With
    these a sampled-data loop with dead time (a digital controller at period T, its output held)
    can be stepped exactly; :func:`simlab.similarity.lsim` with ``input_delay=tau`` runs the
    recurrence for a whole input.

    Parameters
    ----------
    A, B : array_like, shapes (n, n) and (n, m) or (n,)
        The rules of :func:`simlab.validation.as_state_equation`.
    T : float
        Sample period T > 0.
    tau : float
        Delay tau >= 0, in the unit of T; need not be a multiple of T.
    hold : {"zoh", "foh"}
        Zero-order (零阶) or triangle (三角形) hold of the input samples.

    Returns
    -------
    DelayDiscretization
        ``.Phi``, ``.Gamma_1``, ``.Gamma_2``, ``.Gamma_1_hat``, ``.Gamma_2_hat``, ``.d``,
        ``.theta``.

    Raises
    ------
    TypeError, ValueError
        For a non-numeric argument, wrong shapes, T not finite and positive, tau not finite
        and >= 0, an unknown hold; ValueError also if e^{AT} is beyond the floating-point range
        or tau / T exceeds :data:`simlab.guards.MAX_STEPS` (:func:`split_delay`).

    Examples
    --------
    1/(s + 1) with T = 1 and tau = 0.25: Gamma_1 = e^{-0.75} (1 - e^{-0.25}), Gamma_2 = 1 - e^{-0.75}.

    >>> import math
    >>> from simlab.delay import discretize_delay
    >>> z = discretize_delay([[-1.0]], [1.0], T=1.0, tau=0.25)
    >>> z.d, z.theta
    (0, 0.25)
    >>> bool(abs(z.Gamma_1[0, 0] - math.exp(-0.75) * (1 - math.exp(-0.25))) < 1e-15)
    True
    >>> bool(abs(z.Gamma_1[0, 0] + z.Gamma_2[0, 0] - (1 - math.exp(-1.0))) < 1e-15)
    True
    """
    A, B = as_state_equation(A, B)
    T = as_positive_scalar(T, "T")
    tau = as_delay(tau)
    hold = as_hold(hold)
    d, theta = _split(tau, T)
    Phi = _hold_blocks(A, B, T, "zoh")[0]
    gains = _delay_gains(A, B, T, theta, hold)
    return DelayDiscretization(Phi, *gains[:2], *gains[2:], d=d, theta=theta, T=T, tau=tau, hold=hold)


def as_history(u_before, m, name="u_before"):
    """The input before t[0]: a number (every input) or m values; returned with shape (m,).

    Raises TypeError or ValueError (naming it) for a ``u_before`` that is not finite numbers of
    that shape, and for an ``m`` that is not an integer 1 .. :data:`simlab.guards.MAX_STEPS`.
    """
    m = as_count(m, "m", minimum=1, maximum=guards.MAX_STEPS, meaning=" (the number of inputs)")
    value = as_real_array(u_before, name)
    if value.ndim == 0:
        return np.full(m, float(value))
    if value.shape != (m,):
        raise ValueError(f"{name} must be a number or one value per input, shape ({m},); got "
                         f"shape {value.shape}.")
    return value


def _intervals(u, j, history):
    """Left and right values (a_j, b_j) of the hold intervals j (array), history before 0."""
    before = (j < 0)[:, None]
    a = np.where(before, history, u[np.clip(j, 0, len(u) - 1)])
    b = np.where(before, history, u[np.clip(j + 1, 0, len(u) - 1)])
    return a, b


def delayed_samples(u, T, d, theta, hold, history):
    """w[k] = u(t_k - tau), shape (N + 1, m): the input the system sees at the samples.

    u (N + 1, m) on the grid of period T; tau = d T + theta; ``history`` (m,) the input before
    t[0]. For theta = 0 the sample k - d itself (the held input is continuous from the right);
    else t_k - tau lies in interval k - d - 1, at alpha = theta / T of its length from its end:
    a_j for zoh, alpha a_j + (1 - alpha) b_j for the triangle hold.
    """
    N = len(u) - 1
    k = np.arange(N + 1)
    if theta == 0.0:
        return _intervals(u, k - min(d, N + 1), history)[0]
    a, b = _intervals(u, k - min(d, N + 1) - 1, history)
    if hold == "zoh":
        return a
    alpha = theta / T
    return alpha * a + (1 - alpha) * b


def delayed_recurrence(A, B, u, T, d, theta, hold, history):
    """G and v of x[k+1] = Phi x[k] + G v[k] for the delayed held input u (N + 1, m).

    zoh: G = [Gamma_1, Gamma_2], v[k] = (a_{k-d-1}, a_{k-d}); foh: G = [Gamma_1 - Gamma_1_hat,
    Gamma_1_hat, Gamma_2 - Gamma_2_hat, Gamma_2_hat], v[k] = (a_{k-d-1}, b_{k-d-1}, a_{k-d},
    b_{k-d}), with (a_j, b_j) = (u[j], u[j+1]) the ends of hold interval j, and both the history
    value for j < 0 (so the input is off, or constant, before t[0], and a triangle hold does not
    ramp into u[0]). When theta = 0 the first pair is left out (its gains are zero).
    """
    N = len(u) - 1
    j = np.arange(N) - min(d, N + 1)  # interval k - d of step k
    Gamma_1, Gamma_2, Gamma_1_hat, Gamma_2_hat = _delay_gains(A, B, T, theta, hold)
    a2, b2 = _intervals(u, j, history)
    a1, b1 = _intervals(u, j - 1, history)
    if hold == "zoh":
        G, v = [Gamma_1, Gamma_2], [a1, a2]
    else:
        G = [Gamma_1 - Gamma_1_hat, Gamma_1_hat, Gamma_2 - Gamma_2_hat, Gamma_2_hat]
        v = [a1, b1, a2, b2]
    if theta == 0.0:
        G, v = G[len(G) // 2 :], v[len(v) // 2 :]
    return np.hstack(G), np.hstack(v)


# --- The shift register of per-element simulation ---


class DelayLine:
    """Pure delay e^{-tau s} of a sampled signal: a shift register of past samples (移位寄存器).

    Fed one sample per step h (:meth:`push`, or :meth:`step`, which pushes and returns), it
    returns the signal tau earlier. With tau = d h + theta, 0 <= theta < h (:func:`split_delay`),
    and u_n the sample pushed last (at t_n), linear interpolation between the samples d and
    d + 1 steps back:

    .. math::
        y_n = (1 - \\alpha)\\, u_{n-d} + \\alpha\\, u_{n-d-1},\\qquad \\alpha = \\theta / h

    so the register holds d + 2 samples. Samples before the first push are ``initial``.

    Error: y_n = u(t_n - tau) exactly when theta = 0 (tau a multiple of h: the stored sample
    itself is returned) and whenever u is linear between the samples. Otherwise linear
    interpolation errs by

    .. math::
        |y_n - u(t_n - \\tau)| \\le \\frac{\\theta (h - \\theta)}{2} \\max |u''|
                                \\le \\frac{h^2}{8} \\max |u''|

    (the remainder of linear interpolation, largest at theta = h/2), and a jump of u between
    two samples is spread over one step. :func:`simlab.similarity.lsim` with ``input_delay``
    has no such error for a held input; inside a loop (:func:`simlab.elementwise.
    simulate_elements` with ``delays``) the shift register is what per-element simulation uses.

    Parameters
    ----------
    tau : float
        Delay tau >= 0, in the unit of h.
    h : float
        Spacing h > 0 of the samples (the step of the simulation).
    initial : float
        The signal before the first sample (default 0: off until tau after the start).

    Raises
    ------
    TypeError, ValueError
        Unless tau is a finite number >= 0, h a finite number > 0 and initial a finite number;
        ValueError also if the register would hold more than ``simlab.guards.MAX_STEPS``
        samples (tau / h too large). :meth:`push`, :meth:`step` and :meth:`response` refuse
        non-finite or non-real samples likewise (naming ``u``).

    Examples
    --------
    tau = 1.5 h: half-way between the samples one and two steps back.

    >>> from simlab.delay import DelayLine
    >>> DelayLine(tau=1.5, h=1.0).response([0.0, 1.0, 2.0, 3.0, 4.0]).tolist()
    [0.0, 0.0, 0.5, 1.5, 2.5]
    >>> line = DelayLine(tau=0.2, h=0.1)                      # 2 h: the sample two steps back
    >>> [line.step(u) for u in (1.0, 2.0, 3.0, 4.0)]
    [0.0, 0.0, 1.0, 2.0]
    """

    def __init__(self, tau, h, initial=0.0):
        self.tau = as_delay(tau)
        self.h = as_positive_scalar(h, "h")
        self.initial = as_finite_scalar(initial, "initial")
        self.d, self.theta = _split(self.tau, self.h, ("tau", "h"))
        self.alpha = self.theta / self.h
        size = self.d + 2
        if size > guards.MAX_STEPS:
            raise ValueError(
                f"tau = {self.tau:.6g} with h = {self.h:.6g} needs a shift register of {size:,} samples "
                f"(tau / h + 2), more than simlab.guards.MAX_STEPS = {guards.MAX_STEPS:,}: use a larger h.")
        self._register = np.full(size, self.initial)  # ring buffer; _newest indexes the last push
        self._newest = 0

    def reset(self, initial=None):
        """Forget the samples; start again from ``initial`` (default: the constructor's)."""
        if initial is not None:
            self.initial = as_finite_scalar(initial, "initial")
        self._register.fill(self.initial)
        self._newest = 0

    def push(self, u):
        """Store the next sample u_n (one step h after the previous one)."""
        self._store(as_finite_scalar(u, "u"))

    def _store(self, u):
        self._newest = (self._newest + 1) % len(self._register)
        self._register[self._newest] = u

    def __call__(self):
        """y_n = u(t_n - tau): the delayed signal at the time of the last push."""
        size = len(self._register)
        recent = self._register[(self._newest - self.d) % size]  # u_{n-d}
        if self.theta == 0.0:
            return float(recent)
        older = self._register[(self._newest - self.d - 1) % size]  # u_{n-d-1}
        return float((1 - self.alpha) * recent + self.alpha * older)

    def step(self, u):
        """Push the sample u_n and return y_n (the interface of :mod:`simlab.nonlinear`'s elements)."""
        return self._advance(as_finite_scalar(u, "u"))

    def _advance(self, u):
        """``step`` for a finite float u, unchecked: the per-step call of the simulation loops."""
        self._store(u)
        return self()

    def response(self, u):
        """y for a sequence of samples u_0, u_1, ... pushed in turn (from the current memory)."""
        u = as_real_array(u, "u", ndim=1)
        size = len(self._register)
        past = np.roll(self._register, -(self._newest + 1))  # oldest first, the last push at -1
        signal = np.concatenate([past, u])
        n = np.arange(size, size + len(u))  # where the new samples sit in signal
        y = signal[n - self.d]
        if self.theta != 0.0:
            y = (1 - self.alpha) * y + self.alpha * signal[n - self.d - 1]
        self._register[:] = signal[-size:]
        self._newest = size - 1
        return y

    def __repr__(self):
        return f"DelayLine(tau={self.tau:g}, h={self.h:g}, d={self.d}, theta={self.theta:g})"
