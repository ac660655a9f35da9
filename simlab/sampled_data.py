"""Sampled-data control systems (采样控制系统): a digital controller, a hold and a continuous plant.

The loop of the simulation textbooks (seed 003, 3.5 采样控制系统仿真方法)::

    r_k -(+)- e_k -> [ D(z): difference equation, period T ] -> u_k -> [ ZOH ] -> u(t) -> [ plant ] -> y(t)
         -|                                                                                  |
          +------------------------------- y_k = y(kT)  (sampler, 采样器) <-----------------+

At each instant t_k = k T the sampler reads y_k, the controller computes e_k = r_k - y_k and u_k
from its difference equation (差分方程: :class:`DigitalController`, :class:`DifferenceEquation`,
from :mod:`simlab.digital`), and the zero-order hold (零阶保持器) keeps u(t) = u_k until t_{k+1}:

* multirate simulation (多速率仿真, :func:`simulate_sampled`): the controller steps at T, the
  plant dx/dt = A x + B u, y = C x between samples with the finer step h = T/N, by discrete
  similarity at h (exact for the held input) or by RK4; y(t) between the instants too;
* the discrete closed loop (:func:`discrete_closed_loop`): the plant sampled at T in feedback
  with the controller: the values at the instants exactly, and the closed-loop poles in z (the
  loop is stable if and only if every |z_i| < 1);
* :func:`stability_limit`: for an analog design C(s) discretized at each T (Tustin, matched
  pole-zero: :func:`simlab.digital.c2d`), the T at which max |z_i| reaches 1.

:func:`intersample_ripple` measures what the samples do not show (纹波, the peak between them).
Used in lab11 (a digital controller sampled at several T) and course/07.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from simlab import guards
from simlab.digital import C2D_METHODS, DifferenceEquation, DigitalController
from simlab.guards import NonFiniteStateError
from simlab.lti import tf2ss
from simlab.results import Result
from simlab.similarity import discretize
from simlab.validation import (as_callable, as_choice, as_count, as_finite_scalar, as_initial_state, as_instance,
                               as_positive_scalar, as_state_space)

__all__ = ["PLANT_METHODS", "DigitalController", "DifferenceEquation", "SampledDataResult",
           "simulate_sampled", "DiscreteClosedLoop", "SampledResponse", "discrete_closed_loop",
           "StabilityLimit", "stability_limit", "Ripple", "intersample_ripple"]

#: How :func:`simulate_sampled` advances the plant between samples.
PLANT_METHODS = ("similarity", "rk4")

#: Largest number N of plant steps per sample period.
MAX_SUBSTEPS = 10_000


# --- Checks shared by the simulations ---


def _plant(A, B, C, D, function):
    """(A, B, C) of a strictly proper plant with one input and one output."""
    A, B, C, D = as_state_space(A, B, C, D, one_input=function, one_output=function)
    if np.any(D != 0):
        raise ValueError(f"D must be 0 in {function}: the sampler reads y_k = C x_k before u_k is computed, so a "
                         f"feedthrough D = {D[0, 0]!r} would make an algebraic loop. Give a strictly proper plant.")
    return A, B, C


def _reference(r):
    """r as a function of t: a number (a step of that size at t = 0) or a callable r(t) (signature checked)."""
    if callable(r):
        as_callable(r, "r", call="r(t)", returns="the reference at time t")
        return lambda t: as_finite_scalar(r(t), f"r(t) at t = {t:g}")
    return lambda t, value=as_finite_scalar(r, "r"): value


def _samples(t_end, T, N=1):
    """K = ceil(t_end / T) periods, [0, K T]; K N beyond MAX_STEPS refused (counted as a float: 1e308 / T is inf)."""
    t_end = as_positive_scalar(t_end, "t_end")
    ratio = t_end / T * (1 - 1e-12)
    K = max(1, math.ceil(ratio)) if ratio * N <= guards.MAX_STEPS else None  # ceil(inf) would overflow
    if K is None or K * N > guards.MAX_STEPS:
        count = f"{math.ceil(ratio) * N:,}" if ratio * N < 1e15 else f"{ratio * N:.3g}".replace("inf", "over 1.8e308")
        raise ValueError(f"t_end = {t_end:g} s at T = {T:g} s with N = {N} plant steps per period asks for "
                         f"{count} steps, beyond simlab.guards.MAX_STEPS = {guards.MAX_STEPS:,}: shorten t_end.")
    return K


def _raise_overflow(function, k, K, T, method, x0, r):
    """NonFiniteStateError: the loop's state overflowed at sample k of K (x0, r: its start and references)."""
    sizes = {"x0": np.max(np.abs(x0)), "r": np.max(np.abs(r), initial=0.0)}
    big = [f"|{name}| up to {size:.3g}" for name, size in sizes.items() if size > 1e150]  # products overflow
    start = f", or it started near the floating-point limit ({', '.join(big)})" if big else ""
    raise NonFiniteStateError(
        f"{function}: the state overflowed at sample {k} of {K} (t = {k * T:.6g}): the loop of the plant A, B, C and "
        f"the controller is unstable at T = {T:g} (see discrete_closed_loop(...).poles){start}, and it outgrew the "
        f"floating-point range; shorten t_end.", method=method, step=k, steps=K, t=k * T, h=T)


# --- Multirate simulation ---


@dataclass(frozen=True, eq=False, repr=False)
class SampledDataResult(Result):
    """Result of :func:`simulate_sampled`; unpacks as ``t, y`` (the fine trajectory).

    Attributes
    ----------
    t, y, u : ndarray, shape (K N + 1,)
        Fine grid t_{k,j} = k T + j h (s), plant output y(t) and held input u(t) (u[i] acts on
        [t[i], t[i+1]); the last entry is u_K). ``x`` (K N + 1, n): the plant states there.
    t_k, y_k, u_k, e_k, r_k : ndarray, shape (K + 1,)
        At the sampling instants t_k = k T: output, controller output, error e_k = r_k - y_k
        and reference.
    T, h, N : float, float, int
        Sample period, plant step h = T / N (s), and plant steps per sample period.
    plant_method : str
        ``"similarity"`` or ``"rk4"``; ``controller`` the DigitalController.
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    u: np.ndarray
    x: np.ndarray
    t_k: np.ndarray
    y_k: np.ndarray
    u_k: np.ndarray
    e_k: np.ndarray
    r_k: np.ndarray
    T: float
    h: float
    N: int
    plant_method: str
    controller: DigitalController

    def __repr__(self) -> str:
        return (f"SampledDataResult(T={self.T:g}, N={self.N}, h={self.h:g}, plant_method="
                f"{self.plant_method!r}, samples={len(self.t_k)}, fine points={len(self.t)})")


def _plant_step(A, B, h, method):
    """x -> x after one step h with the input u held: exact (discrete similarity) or RK4."""
    if method == "similarity":
        Phi, Gamma = discretize(A, B, h)  # Phi(h) = e^{Ah}, Gamma(h) = m(h)
        b = Gamma[:, 0]
        return lambda x, u: Phi @ x + b * u  # x_{j+1} = Phi(h) x_j + Gamma(h) u_k
    b = B[:, 0]

    def rk4(x, u):
        K1 = A @ x + b * u
        K2 = A @ (x + h * K1 / 2) + b * u
        K3 = A @ (x + h * K2 / 2) + b * u
        K4 = A @ (x + h * K3) + b * u
        return x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6  # x_{j+1} = x_j + h/6 (K1 + 2K2 + 2K3 + K4)

    return rk4


def simulate_sampled(A, B, C, D, controller, t_end, r=1.0, N=10, plant_method="similarity", x0=None):
    """Multirate simulation (多速率仿真) of a digital controller, a zero-order hold and a continuous plant.

    At each instant t_k = k T (T = ``controller.T``), k = 0 .. K:

    .. math::
        y_k = C x(t_k),\\quad e_k = r(t_k) - y_k,\\quad
        u_k = \\sum_j b_j e_{k-j} - \\sum_j a_j u_{k-j}

    then the plant dx/dt = A x + B u_k (u held by the zero-order hold) is advanced over
    [t_k, t_{k+1}] in N steps of h = T/N: by the discrete similarity method,
    x_{j+1} = Phi(h) x_j + Gamma(h) u_k, exact for the held input (so y_k equals the discrete
    closed loop of :func:`discrete_closed_loop` to rounding), or by RK4 (fourth order in h).

    Parameters
    ----------
    A, B, C, D : array_like
        The plant, one input and one output, D = 0 (shapes: :func:`simlab.validation.as_state_space`).
    controller : DigitalController
        D(z) and the sample period T.
    t_end : float
        The run covers K = ceil(t_end / T) sample periods, [0, K T] (s).
    r : float or callable
        Reference: a step of this size at t = 0, or r(t) (one argument t, checked), read at the instants.
    N : int
        Plant steps per sample period, 1 .. 10000.
    plant_method : {"similarity", "rk4"}
    x0 : array_like, shape (n,), optional
        Plant state at t = 0 (zeros by default); the controller starts at rest.

    Returns
    -------
    SampledDataResult
        Unpacks as ``t, y`` (fine grid); ``t_k, y_k, u_k, e_k`` at the instants.

    Raises
    ------
    TypeError, ValueError
        For a bad argument (named; an ``r`` not callable as ``r(t)``), D != 0, or more than
        :data:`simlab.guards.MAX_STEPS` plant steps K N (a t_end of 1e308 included).
    NonFiniteStateError
        If the state overflows (an unstable loop run for very long); ``step`` is the sample k.

    Examples
    --------
    1/(s + 1) under the Tustin PI 2 + 4/s at T = 0.5: y_k settles at r = 1.

    >>> from simlab.sampled_data import DigitalController, simulate_sampled
    >>> pi = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)
    >>> run = simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, pi, t_end=10.0, N=5)
    >>> t, y = run
    >>> len(t), len(run.t_k), round(float(run.y_k[-1]), 6)
    (101, 21, 1.0)
    """
    A, B, C = _plant(A, B, C, D, "simulate_sampled")
    controller = as_instance(controller, "controller", DigitalController, "a DigitalController")
    T = controller.T
    N = as_count(N, "N", minimum=1, maximum=MAX_SUBSTEPS, meaning=" (plant steps per sample period)")
    K = _samples(t_end, T, N)
    plant_method = as_choice(plant_method, "plant_method", PLANT_METHODS)
    reference = _reference(r)
    x = np.zeros(len(A)) if x0 is None else as_initial_state(x0, len(A))
    h = T / N
    step = _plant_step(A, B, h, plant_method)
    law = controller.start()
    c = C[0]
    xs, u_fine = np.empty((K * N + 1, len(A))), np.empty(K * N + 1)
    t_k = T * np.arange(K + 1)
    r_k, y_k, e_k, u_k = (np.empty(K + 1) for _ in range(4))
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(K + 1):
            if not np.all(np.isfinite(x)):
                _raise_overflow("simulate_sampled", k, K, T, plant_method, xs[0], r_k[:k])
            xs[k * N] = x
            r_k[k] = reference(t_k[k])
            y_k[k] = c @ x  # the sampler: y_k = C x(t_k)
            e_k[k] = r_k[k] - y_k[k]
            u_k[k] = law._step(e_k[k])  # the difference equation
            u_fine[k * N:(k + 1) * N] = u_k[k]  # the zero-order hold
            if k == K:
                break
            for j in range(1, N + 1):  # the plant between t_k and t_{k+1}, step h
                x = step(x, u_k[k])
                xs[k * N + j] = x
        y = xs @ c
    bad = ~(np.isfinite(y) & np.isfinite(u_fine))  # y or u overflowed from a finite state (a huge r or C)
    if bad.any():
        _raise_overflow("simulate_sampled", int(np.argmax(bad)) // N, K, T, plant_method, xs[0], r_k)
    t = np.concatenate([t_k[k] + h * np.arange(N) for k in range(K)] + [t_k[-1:]])
    return SampledDataResult(t=t, y=y, u=u_fine, x=xs, t_k=t_k, y_k=y_k, u_k=u_k, e_k=e_k, r_k=r_k,
                             T=T, h=h, N=N, plant_method=plant_method, controller=controller)


# --- The discrete closed loop: exact values at the instants, poles in z ---


@dataclass(frozen=True, eq=False, repr=False)
class SampledResponse(Result):
    """Response of a :class:`DiscreteClosedLoop` at the instants; unpacks as ``t, y``.

    Attributes: ``t`` (K + 1,) the instants t_k = k T (s); ``y``, ``u``, ``e``, ``r`` (K + 1,)
    output, controller output, error and reference there; ``x`` (K + 1, n + n_c) the loop state
    (plant states, then controller states).
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    u: np.ndarray
    e: np.ndarray
    r: np.ndarray
    x: np.ndarray

    def __repr__(self) -> str:
        return f"SampledResponse(samples={len(self.t)}, T={self.t[1] - self.t[0]:g})"


@dataclass(frozen=True, eq=False, repr=False)
class DiscreteClosedLoop:
    """The sampled-data loop at the instants: xi_{k+1} = Phi xi_k + Gamma r_k (离散闭环).

    With the plant sampled at T (zero-order hold, x_{k+1} = Phi_p x_k + Gamma_p u_k) and the
    controller w_{k+1} = A_c w_k + B_c e_k, u_k = C_c w_k + D_c e_k, e_k = r_k - C x_k:

    .. math::
        \\begin{bmatrix} x_{k+1} \\\\ w_{k+1} \\end{bmatrix} =
        \\underbrace{\\begin{bmatrix} \\Phi_p - \\Gamma_p D_c C & \\Gamma_p C_c \\\\
        -B_c C & A_c \\end{bmatrix}}_{\\Phi}
        \\begin{bmatrix} x_k \\\\ w_k \\end{bmatrix} +
        \\underbrace{\\begin{bmatrix} \\Gamma_p D_c \\\\ B_c \\end{bmatrix}}_{\\Gamma} r_k,
        \\qquad u_k = C_u \\xi_k + D_u r_k

    The closed-loop poles (闭环极点) are the eigenvalues z_i of Phi: stable iff every |z_i| < 1.

    Attributes
    ----------
    Phi, Gamma : ndarray, shapes (n + n_c, n + n_c) and (n + n_c,)
    C, Cu, Du : ndarray, ndarray, float
        y_k = C xi_k and u_k = Cu xi_k + Du r_k (C, Cu of shape (n + n_c,)).
    T : float
        Sample period (s); ``n_plant`` = n, the plant states (the first n entries of xi).
    """

    Phi: np.ndarray
    Gamma: np.ndarray
    C: np.ndarray
    Cu: np.ndarray
    Du: float
    T: float
    n_plant: int

    @property
    def poles(self):
        """The closed-loop poles z_i (eigenvalues of Phi, complex), largest |z| first."""
        z = np.linalg.eigvals(self.Phi).astype(complex)
        return z[np.argsort(-np.abs(z), kind="stable")]

    @property
    def spectral_radius(self) -> float:
        """max |z_i|: below 1 the loop is stable; the error decays like max |z_i|^k."""
        return float(np.max(np.abs(self.poles), initial=0.0))

    @property
    def stable(self) -> bool:
        """True if every closed-loop pole lies inside the unit circle."""
        return self.spectral_radius < 1.0

    def response(self, t_end, r=1.0, x0=None):
        """:class:`SampledResponse` (y_k, u_k, e_k) for t_k <= K T, K = ceil(t_end / T).

        ``r``: a step size or r(t); ``x0``: the plant state at t = 0 (controller at rest).
        TypeError or ValueError for a bad argument (an r not callable as r(t); over MAX_STEPS periods)."""
        K = _samples(t_end, self.T)
        reference = _reference(r)
        xi = np.zeros(len(self.Phi))
        if x0 is not None:
            xi[: self.n_plant] = as_initial_state(x0, self.n_plant)
        t = self.T * np.arange(K + 1)
        r_k = np.array([reference(tk) for tk in t])
        xs = np.empty((K + 1, len(xi)))
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(K + 1):
                xs[k] = xi
                xi = self.Phi @ xi + self.Gamma * r_k[k]  # xi_{k+1} = Phi xi_k + Gamma r_k
            y = xs @ self.C
            u, e = xs @ self.Cu + self.Du * r_k, r_k - y
        bad = ~(np.all(np.isfinite(xs), axis=1) & np.isfinite(y) & np.isfinite(u) & np.isfinite(e))
        if bad.any():  # the state, or y, u, e computed from it (a huge r or C)
            _raise_overflow("DiscreteClosedLoop.response", int(np.argmax(bad)), K, self.T, "discrete closed loop",
                            xs[0], r_k)
        return SampledResponse(t=t, y=y, u=u, e=e, r=r_k, x=xs)

    def __repr__(self) -> str:
        return f"DiscreteClosedLoop(T={self.T:g}, order={len(self.Phi)}, spectral_radius={self.spectral_radius:.6g})"


def _feedback(F, G, C, Ac, Bc, Cc, Dc):
    """[[F - G D_c C, G C_c], [-B_c C, A_c]]: plant (F, G, C) in unity negative feedback with (A_c, ..., D_c).

    For the continuous plant (F, G) = (A, B) this is the analog loop's A matrix; for the sampled
    plant (F, G) = (Phi_p, Gamma_p) the discrete loop's Phi.
    """
    n, d = len(F), float(Dc[0, 0])
    M = np.zeros((n + len(Ac), n + len(Ac)))
    M[:n, :n], M[:n, n:] = F - d * G @ C, G @ Cc  # x' = (F - G D_c C) x + G C_c w + G D_c r
    M[n:, :n], M[n:, n:] = -Bc @ C, Ac  # w' = -B_c C x + A_c w + B_c r
    return M


def _closed_loop(A, B, C, controller):
    """The :class:`DiscreteClosedLoop` of a checked plant (A, B, C) and a controller."""
    Phi_p, Gamma_p = discretize(A, B, controller.T)  # the plant with a zero-order hold at T
    Ac, Bc, Cc, Dc = controller.state_space()
    d, nc = float(Dc[0, 0]), len(Ac)
    Gamma = np.concatenate((d * Gamma_p[:, 0], Bc[:, 0]))
    Cu = np.concatenate((-d * C[0], Cc[0]))  # u_k = -D_c C x_k + C_c w_k + D_c r_k
    return DiscreteClosedLoop(Phi=_feedback(Phi_p, Gamma_p, C, Ac, Bc, Cc, Dc), Gamma=Gamma,
                              C=np.concatenate((C[0], np.zeros(nc))), Cu=Cu, Du=d, T=controller.T, n_plant=len(A))


def discrete_closed_loop(A, B, C, D, controller):
    """The sampled-data loop at its instants: the plant sampled at T in feedback with D(z).

    The plant's zero-order-hold equivalent Phi_p = e^{AT}, Gamma_p = m(T) (:func:`simlab.similarity.discretize`)
    is exact at the instants for the held input: this loop gives the y_k, u_k, e_k of
    :func:`simulate_sampled` exactly, and the poles in z (matrices: :class:`DiscreteClosedLoop`).

    Parameters
    ----------
    A, B, C, D : array_like
        The plant, one input and one output, D = 0.
    controller : DigitalController

    Returns
    -------
    DiscreteClosedLoop
        ``.poles``, ``.spectral_radius``, ``.stable``, ``.response(t_end, r)``.

    Raises
    ------
    TypeError, ValueError
        For a bad plant (the message names the matrix), D != 0, or a bad controller.

    Examples
    --------
    1/(s + 1) under the proportional controller D(z) = 3: the pole is
    z = e^{-T} - 3 (1 - e^{-T}), on the unit circle (z = -1) at T = ln 2.

    >>> import math
    >>> from simlab.sampled_data import DigitalController, discrete_closed_loop
    >>> loop = discrete_closed_loop([[-1.0]], [1.0], [1.0], 0.0, DigitalController([3.0], [1.0], T=math.log(2)))
    >>> round(float(loop.poles[0].real), 12), loop.stable
    (-1.0, False)
    """
    A, B, C = _plant(A, B, C, D, "discrete_closed_loop")
    controller = as_instance(controller, "controller", DigitalController, "a DigitalController")
    return _closed_loop(A, B, C, controller)


# --- The stability limit in T ---


@dataclass(frozen=True)
class StabilityLimit:
    """Result of :func:`stability_limit`.

    Attributes
    ----------
    T : float
        The sample period (s) at which max |z_i| = 1: the loop is stable for T below it (up
        from T -> 0); inf if it stays stable up to ``T_max``. ``method``: the c2d method.
    bracket : tuple of float
        (T_stable, T_unstable) of the scan that bracketed the crossing (s); (T_max, inf) if none.
    critical_poles : ndarray, complex
        The poles at T with | |z| - 1 | < 1e-6 (z = -1: an oscillation of period 2 T; a pair
        e^{+-j theta}: period 2 pi T / theta).
    analog_poles : ndarray
        Poles s_i of the analog closed loop (the sampled poles tend to e^{s_i T} as T -> 0).
    evaluations : int
        Closed loops whose poles were computed (scan and root finder).
    """

    T: float
    method: str
    bracket: tuple
    critical_poles: np.ndarray
    analog_poles: np.ndarray
    evaluations: int


def _bracket(radius, T0, T_max):
    """(T_stable, T_unstable) around the crossing of rho(T) = 1 nearest above T -> 0, or None."""
    T_low = T_high = T0
    if radius(T0) >= 1.0:  # little phase margin: step down to a stable T
        for _ in range(62):  # down to T0 / 1.25^62 ~ 1e-6 T0 (a count: T0 may be a denormal number)
            T_low, T_high = T_low / 1.25, T_low
            if radius(T_low) < 1.0:
                return T_low, T_high
        raise ValueError(f"the sampled loop is unstable for every T from {T_low:.3g} to {T0:.3g} (max |z| >= 1): "
                         f"the analog loop of the plant A, B, C and num/den is too close to instability.")
    while T_high < T_max:
        T_low, T_high = T_high, min(1.25 * T_high, T_max)
        if radius(T_high) >= 1.0:
            return T_low, T_high
    return None


def stability_limit(A, B, C, D, num, den, method="tustin", T_max=None):
    """The largest sample period T that keeps the loop stable, for an analog design C(s) = num/den.

    At each T the controller is D(z) = c2d(num, den, T, method) and the plant is sampled with a
    zero-order hold; rho(T) = max |z_i(T)| is the spectral radius of the discrete closed loop
    (:func:`discrete_closed_loop`). As T -> 0 the poles tend to e^{s_i T} for the analog
    closed-loop poles s_i, inside the unit circle if the analog loop is stable. A geometric
    scan T_j = 1.25^j T_0 from T_0 = 0.1 / max|s_i| finds the first T_j with rho >= 1 (or, when
    rho(T_0) >= 1 already, a loop with little phase margin, steps down to a stable T); Brent's
    method (a bracketing root finder, ``scipy.optimize.brentq``) then solves rho(T) = 1 in
    [T_{j-1}, T_j] to a relative 1e-12.

    Parameters
    ----------
    A, B, C, D : array_like
        The plant, one input and one output, D = 0.
    num, den : array_like
        The analog controller C(s), proper (deg num <= deg den).
    method : {"zoh", "foh", "tustin", "matched"}
        How C(s) is discretized at each T (:func:`simlab.digital.c2d`).
    T_max : float, optional
        End of the scan (s); by default 100 / min|s_i|, 100 slowest analog time constants.

    Returns
    -------
    StabilityLimit
        ``.T`` the limit (inf if stable up to T_max), ``.critical_poles``, ``.bracket``.

    Raises
    ------
    TypeError, ValueError
        For a bad argument, D != 0, or an unstable analog closed loop (then small T fail too).

    Examples
    --------
    1/(s + 1) with the proportional controller 3: T = ln((K + 1)/(K - 1)) = ln 2.

    >>> from simlab.sampled_data import stability_limit
    >>> limit = stability_limit([[-1.0]], [1.0], [1.0], 0.0, [3.0], [1.0])
    >>> z = limit.critical_poles[0]                       # z = -1: |z| = 1, angle pi
    >>> round(limit.T, 12), round(float(abs(z)), 9), round(float(np.angle(z)), 6)
    (0.69314718056, 1.0, 3.141593)
    """
    A, B, C = _plant(A, B, C, D, "stability_limit")
    method = as_choice(method, "method", C2D_METHODS)
    analog = np.linalg.eigvals(_feedback(A, B, C, *tf2ss(num, den)))  # tf2ss checks num, den
    if np.any(analog.real >= 0) or analog.size == 0:
        raise ValueError(f"the analog closed loop of the plant A, B, C and num/den must be stable, but its poles "
                         f"are {np.round(analog, 6).tolist()}: the sampled loop is unstable for small T too.")
    rates = np.abs(analog)
    T_max = 100.0 / rates.min() if T_max is None else as_positive_scalar(T_max, "T_max")
    count = [0]

    def radius(T):
        count[0] += 1
        return _closed_loop(A, B, C, DigitalController.from_analog(num, den, T, method)).spectral_radius

    try:
        bracket = _bracket(radius, T0 := min(0.1 / rates.max(), T_max), T_max)
    except ValueError as error:  # at the scan's first T; a T_max below 0.1 / max|s_i| set that T
        if T0 < 0.1 / rates.max():
            raise ValueError(f"T_max = {T_max!r} is too small to scan from (at T = {T0:.3g} the poles e^(s_i T) round "
                             f"onto the unit circle, or c2d overflows): {error}") from None
        raise
    if bracket is None:
        return StabilityLimit(math.inf, method, (T_max, math.inf), np.zeros(0, complex), analog, count[0])
    T_low, T_high = bracket
    T = optimize.brentq(lambda T: radius(T) - 1.0, T_low, T_high, xtol=1e-14 * T_high, rtol=1e-12)
    poles = _closed_loop(A, B, C, DigitalController.from_analog(num, den, T, method)).poles
    return StabilityLimit(float(T), method, (T_low, T_high), poles[np.abs(np.abs(poles) - 1.0) < 1e-6],
                          analog, count[0])


# --- Inter-sample ripple ---


@dataclass(frozen=True)
class Ripple:
    """Result of :func:`intersample_ripple`: what y(t) does between the samples.

    Attributes
    ----------
    t_k, deviation : ndarray, shape (K,)
        Start of each interval [t_k, t_{k+1}] (s), and max |y(t) - y_k| over it on the fine grid:
        the motion the sample y_k does not show (纹波, the ripple once the samples have settled).
    peak, t_peak, peak_sampled, t_peak_sampled : float
        Largest y(t) on the fine grid and its time; largest y_k and its instant (peak -
        peak_sampled is the overshoot the samples miss).
    """

    t_k: np.ndarray
    deviation: np.ndarray
    peak: float
    t_peak: float
    peak_sampled: float
    t_peak_sampled: float

    def largest_after(self, t0):
        """Largest deviation over the intervals that start at t_k >= t0 (0.0 if none)."""
        t0 = as_finite_scalar(t0, "t0")
        return float(np.max(self.deviation[self.t_k >= t0 - 1e-12 * max(abs(t0), 1.0)], initial=0.0))


def intersample_ripple(result):
    """The inter-sample behaviour (采样间纹波) of a :func:`simulate_sampled` run.

    .. math::
        d_k = \\max_{t_k \\le t \\le t_{k+1}} |y(t) - y_k|

    on the run's fine grid (h = T/N), and the peak of y(t) against the peak of the samples.
    Returns a :class:`Ripple`; raises TypeError if ``result`` is not a SampledDataResult.

    Examples
    --------
    >>> from simlab.sampled_data import DigitalController, simulate_sampled, intersample_ripple
    >>> pi = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)
    >>> ripple = intersample_ripple(simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, pi, t_end=10.0, N=50))
    >>> round(float(ripple.deviation[0]), 4)      # u_0 = 3 e_0: y(0.5) = 3 (1 - e^{-0.5})
    1.1804
    >>> bool(ripple.peak >= ripple.peak_sampled), ripple.largest_after(8.0) < 1e-5
    (True, True)
    """
    result = as_instance(result, "result", SampledDataResult, "a SampledDataResult (from simulate_sampled)")
    N, K = result.N, len(result.t_k) - 1
    # interval k holds the fine points k N .. (k + 1) N
    windows = np.lib.stride_tricks.sliding_window_view(result.y, N + 1)[::N][:K]
    deviation = np.max(np.abs(windows - result.y_k[:K, None]), axis=1)
    i, k = int(np.argmax(result.y)), int(np.argmax(result.y_k))
    return Ripple(t_k=result.t_k[:K], deviation=deviation, peak=float(result.y[i]), t_peak=float(result.t[i]),
                  peak_sampled=float(result.y_k[k]), t_peak_sampled=float(result.t_k[k]))
