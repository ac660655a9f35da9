"""The revised LuGre friction model (RLG, 修正LuGre模型) of Tran et al. for pneumatic cylinders.

Seed 002, eqs. (5)-(13), after X. B. Tran, W. H. Hafizah and H. Yanada (2016) and the earlier
modified LuGre models (Yanada and Sekikawa 2008; Tran, Hafizah and Yanada 2012). Three changes to
LuGre (:class:`simlab.friction.LuGre`):

1. A lubricant-film state h (dimensionless thickness) enters the Stribeck function, ::

       g(v, h) = Fc + ((1 - h) Fs - Fc) exp(-|v / vs|^n)                          (6)
       dh/dt   = (h_ss(v) - h) / tau_h,                                            (8)
       tau_h   = tau_hp (v != 0, h <= h_ss: acceleration), tau_hn (v != 0, h > h_ss:
                 deceleration), tau_h0 (v = 0: dwell),                              (9)
       h_ss    = Kf min(|v|, vb)^(2/3),   Kf = (1 - Fc / Fs) vb^(-2/3).            (10, 11)

   A long dwell thins the film (h -> 0) and raises the next break-away force to Fs; after a
   short stop the film is still there and the piston breaks away at (1 - h) Fs.
2. The bristle force sigma0 z is replaced, in the pre-sliding regime, by a hysteresis function
   F(z) with nonlocal memory (:class:`HysteresisMemory`), built of transition curves

       f_i(z) = f_i(z_i) + c_i (1 - exp(-k_i (z - z_i)))                           (12)

   that start at each velocity reversal:

       dz/dt = v - F(z) |v| / g(v, h),                                             (5)

3. The fluid friction sigma2 v becomes a first-order lead sigma2 (v + T dv/dt):

       F_r = F(z) + sigma1 dz/dt + sigma2 (v + T dv/dt).                            (7)

   In steady sliding F_r = Fc + ((1 - h_ss) Fs - Fc) exp(-|v/vs|^n) + sigma2 v       (13).

Choices the paper leaves open are written down where they are made (see
:class:`HysteresisMemory` and :class:`RevisedLuGre`).

Used in lab09 (friction models in a pneumatic cylinder).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar, NamedTuple

import numpy as np

from simlab.friction.kernels import BRISTLE_CODES, static_force, stribeck_level
from simlab.friction.models import FrictionModel, _as_pair, bristle_update
from simlab import revised_lugre_kernels as kernels
from simlab.validation import as_bounded_scalar, as_finite_scalar, as_instance, as_positive_scalar, as_real_array

__all__ = [
    "TransitionCurve",
    "HysteresisMemory",
    "hysteresis_response",
    "RevisedLuGre",
    "RevisedLuGreState",
    "film_steady_state",
    "film_step",
]


@dataclass(frozen=True)
class TransitionCurve:
    """Shape of a pre-sliding transition curve (seed 002 eq. 12), one or more segments.

    Measured from the reversal point that starts it, with s = distance travelled in the new
    direction (s >= 0), a curve rises by

        Delta(s) = Delta(s_i) + c_i (1 - exp(-k_i (s - s_i)))   for s_i <= s < s_{i+1},

    segment i starting where the previous one ends (s_0 = 0, s_{i+1} = s_i + lengths[i]); the
    last segment runs on. The force on a curve that starts at (z_r, F_r) in the direction
    d = +-1 is F_r + d Delta(d (z - z_r)): ascending and descending curves are the same shape
    mirrored (the paper's two sets use their own identified c_i, k_i; one shape for both is
    the symmetric choice made here).

    Attributes
    ----------
    c : tuple of float
        Segment amplitudes c_i (N), > 0.
    k : tuple of float
        Segment rates k_i (1/m), > 0; c_i k_i is the stiffness at the start of segment i (N/m).
    lengths : tuple of float
        Lengths of every segment but the last (m), > 0 (empty for one segment).

    Raises TypeError or ValueError (naming c, k or lengths and the entry) unless c and k are
    equally long sequences of positive numbers and lengths has one positive number fewer.

    Examples
    --------
    >>> from simlab.revised_lugre import TransitionCurve
    >>> curve = TransitionCurve(c=(6.0,), k=(2.5e4,))
    >>> round(curve.rise(1e-4), 4), curve.initial_stiffness
    (5.5075, 150000.0)
    """

    c: tuple
    k: tuple
    lengths: tuple = ()

    def __post_init__(self):
        c = tuple(as_positive_scalar(value, f"c[{i}]") for i, value in enumerate(_segments(self.c, "c")))
        k = tuple(as_positive_scalar(value, f"k[{i}]") for i, value in enumerate(_segments(self.k, "k")))
        lengths = tuple(as_positive_scalar(value, f"lengths[{i}]")
                        for i, value in enumerate(_segments(self.lengths, "lengths", empty=True)))
        if len(c) != len(k):
            raise ValueError(f"c and k must have one value per segment, got {len(c)} and {len(k)}.")
        if len(lengths) != len(c) - 1:
            raise ValueError(
                f"lengths must give the length of every segment but the last: {len(c) - 1} value(s) "
                f"for {len(c)} segment(s), got {len(lengths)}."
            )
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "lengths", lengths)
        starts = [0.0]
        for length in lengths:
            starts.append(starts[-1] + length)
        object.__setattr__(self, "_starts", tuple(starts))
        offsets = [0.0]
        for i, length in enumerate(lengths):
            offsets.append(offsets[-1] + c[i] * (1.0 - math.exp(-k[i] * length)))
        object.__setattr__(self, "_offsets", tuple(offsets))

    @property
    def initial_stiffness(self):
        """Stiffness c_1 k_1 at a reversal point (N/m)."""
        return self.c[0] * self.k[0]

    @property
    def amplitude(self):
        """Total rise of the curve as s -> inf (N)."""
        return self._offsets[-1] + self.c[-1]

    def rise(self, s):
        """Delta(s) (N) for a distance s (m) from the reversal point (s < 0 extends segment 1); s finite."""
        return self._rise(as_finite_scalar(s, "s"))

    def slope(self, s):
        """dDelta/ds (N/m). Raises TypeError or ValueError unless s is a finite real number."""
        return self._slope(as_finite_scalar(s, "s"))

    @property
    def kernel_form(self):
        """The curve as the kernels of :mod:`simlab.revised_lugre_kernels` take it: (c, k, starts, offsets)."""
        return self.c, self.k, self._starts, self._offsets

    def _rise(self, s):
        return kernels.curve_rise(s, *self.kernel_form)

    def _slope(self, s):
        return kernels.curve_slope(s, self.c, self.k, self._starts)


def _segments(values, name, empty=False):
    """The per-segment values of a TransitionCurve field as a 1-D float array (a number is one)."""
    if empty and isinstance(values, (tuple, list)) and not values:
        return np.empty(0)
    array = np.atleast_1d(as_real_array(values, name))
    if array.ndim != 1 or (array.size == 0 and not empty):
        raise ValueError(f"{name} must be a sequence of numbers, one per segment, got shape {array.shape}.")
    return array


class HysteresisMemory:
    """The pre-sliding hysteresis function F(z) with nonlocal memory (seed 002, sect. 2.3).

    Rules, as the paper describes them:

    * Two memory sets hold the starting points (z_i, f_i(z_i)) of the transition curves: one for
      ascending curves (v > 0; started at the minima z_n, F_n) and one for descending curves
      (v < 0; started at the maxima z_m, F_m).
    * At every velocity reversal a new transition curve starts at the current point (eq. 12
      with z_i reset to z_m or z_n and f_i(z_i) to F_m or F_n).
    * An internal loop closes when the current curve reaches the curve it branched off (the
      outer curve of the same direction, started at the previous point of the same set), in the
      vicinity of the point where the internal loop began. From there the state follows the
      outer curve again, and the two points of the internal loop are cleared from the sets.
      With one shape for both directions the closure happens exactly at the loop's first
      reversal point (return-point memory). A curve with no outer curve of its own direction
      (the outermost one) runs on past that point, which is then wiped out of the other set
      (Masing's rule; the paper does not discuss this case).

    Choices the paper leaves open, made here:

    * The initial (virgin) curve starts at z = 0, F = 0 with the transition-curve shape.
    * Sliding (with ``sigma0`` given): the pre-sliding curves are stiffer than the bristle line
      sigma0 z at a reversal (c_1 k_1 > sigma0) and soften as they go. Sliding starts where the
      current curve, having risen above the line in the direction of motion, meets it again;
      from there F(z) = sigma0 z (the LuGre force), continuous at the switch. A velocity
      reversal while sliding starts a new transition curve at (z, sigma0 z), with both memory
      sets started afresh (gross sliding wipes out the pre-sliding memory).
    * Exact zero velocity (d = 0) moves nothing and changes no memory.

    Parameters
    ----------
    curve : TransitionCurve
    sigma0 : float or None
        Bristle stiffness of the sliding regime (N/m); None keeps the pre-sliding curves for
        every z (the hysteresis function on its own, for scripted displacement histories).

    Raises TypeError (curve not a TransitionCurve, sigma0 not None or a number) or ValueError
    (sigma0 <= 0, c[0] k[0] <= sigma0); the methods, for a z, F or d that is not finite and real.
    """

    def __init__(self, curve, sigma0=None):
        if not isinstance(curve, TransitionCurve):
            raise TypeError(f"curve must be a TransitionCurve, got {type(curve).__name__}.")
        if sigma0 is not None:
            sigma0 = as_positive_scalar(sigma0, "sigma0")
            if curve.initial_stiffness <= sigma0:
                raise ValueError(f"the transition curves must start stiffer than the bristles: c[0] k[0] = "
                                 f"{curve.initial_stiffness:g} N/m must exceed sigma0 = {sigma0:g} N/m, or "
                                 f"there is no pre-sliding regime.")
        self.curve = curve
        self.sigma0 = sigma0
        self.reset()

    def reset(self, z=0.0, F=0.0):
        """Start again at (z, F) with empty memory sets (the virgin state)."""
        z, F = as_finite_scalar(z, "z"), as_finite_scalar(F, "F")
        #: The memory's numbers (direction, sliding, the origin, the current point (z, F), the
        #: sizes of the two sets; see :mod:`simlab.revised_lugre_kernels`), changed in place.
        self.numbers = np.zeros(kernels.MEMORY_NUMBERS)
        self.numbers[[kernels.Z_ORIGIN, kernels.Z_NOW]] = z
        self.numbers[[kernels.F_ORIGIN, kernels.F_NOW]] = F
        #: The starting points (z_i, F_i) of the curves, points[ASCENDING] and points[DESCENDING].
        self.points = np.empty((2, 8, 2))

    def reserve(self, steps):
        """Make room in ``points`` for ``steps`` more reversals (each adds at most one point)."""
        needed = int(self.numbers[kernels.COUNT:].max()) + steps
        if needed > self.points.shape[1]:
            grown = np.empty((2, max(needed, 2 * self.points.shape[1]), 2))
            grown[:, : self.points.shape[1]] = self.points
            self.points = grown

    def _points(self, side):
        return [(float(z), float(F)) for z, F in self.points[side, : int(self.numbers[kernels.COUNT + side])]]

    @property
    def ascending(self):
        """Starting points (z_n, F_n) of the ascending curves (started at the minima), oldest first."""
        return self._points(kernels.ASCENDING)

    @property
    def descending(self):
        """Starting points (z_m, F_m) of the descending curves (started at the maxima), oldest first."""
        return self._points(kernels.DESCENDING)

    @property
    def direction(self):
        """Direction of motion: +1, -1, or 0 before the first motion."""
        return int(self.numbers[kernels.DIRECTION])

    @property
    def sliding(self):
        """Whether the memory is in the sliding regime (F = sigma0 z)."""
        return bool(self.numbers[kernels.SLIDING])

    @property
    def z(self):
        """The current deflection (m)."""
        return float(self.numbers[kernels.Z_NOW])

    @property
    def F(self):
        """The force at the current deflection (N)."""
        return float(self.numbers[kernels.F_NOW])

    @property
    def _sigma0(self):
        return 0.0 if self.sigma0 is None else self.sigma0  # 0: no sliding regime (the kernels' convention)

    # -- the curves ---------------------------------------------------------------------------
    def force(self, z):
        """F at deflection z on the current curve (or sigma0 z when sliding), without moving."""
        return kernels.memory_force(self.numbers, self.points, as_finite_scalar(z, "z"), *self.curve.kernel_form,
                            self._sigma0)

    def stiffness(self, z):
        """dF/dz at z on the current curve (sigma0 when sliding), for the linearized bristle step."""
        return self._stiffness(as_finite_scalar(z, "z"))

    def _stiffness(self, z):
        c, k, starts, _ = self.curve.kernel_form
        return kernels.memory_stiffness(self.numbers, self.points, z, c, k, starts, self._sigma0)

    # -- motion --------------------------------------------------------------------------------
    def turn(self, d):
        """Set the direction of motion d (+1, -1 or 0; its sign counts); a change of sign starts a new curve."""
        self._turn(int(np.sign(as_finite_scalar(d, "d"))))

    def _turn(self, d):
        self.reserve(1)
        kernels.memory_turn(self.numbers, self.points, float(d))

    def move(self, z):
        """Move to deflection z along the current direction; returns F(z) (N)."""
        return self._move(as_finite_scalar(z, "z"))

    def _move(self, z):
        return kernels.memory_move(self.numbers, self.points, float(z), *self.curve.kernel_form, self._sigma0)


def hysteresis_response(curve, z):
    """F(z) along a scripted deflection history z[k] (pre-sliding curves only, no sliding).

    The direction at each sample is the sign of z[k] - z[k-1]; a change of sign is a reversal.

    Parameters
    ----------
    curve : TransitionCurve
    z : array_like, shape (N,)
        Deflection history (m), starting anywhere (the virgin curve starts at z[0], F = 0).

    Returns
    -------
    ndarray, shape (N,)
        The hysteresis force (N).

    Raises TypeError if ``curve`` is not a TransitionCurve or z not real, ValueError if z is
    empty, not 1-D or not finite.

    Examples
    --------
    A loop that closes: up to 2e-4, down to 1e-4, up again to 2e-4 returns to the same force.

    >>> import numpy as np
    >>> from simlab.revised_lugre import TransitionCurve, hysteresis_response
    >>> z = np.concatenate([np.linspace(0, 2e-4, 21), np.linspace(2e-4, 1e-4, 11)[1:],
    ...                     np.linspace(1e-4, 2e-4, 11)[1:]])
    >>> F = hysteresis_response(TransitionCurve(c=(6.0,), k=(2.5e4,)), z)
    >>> bool(abs(F[20] - F[-1]) < 1e-12)
    True
    """
    z = as_real_array(z, "z", ndim=1)
    if z.size == 0:
        raise ValueError("z must hold at least one deflection (m), got an empty array.")
    memory = HysteresisMemory(curve)
    memory.reset(z=z[0])
    F = np.empty(len(z))
    F[0] = 0.0
    for k in range(1, len(z)):
        memory._turn(int(np.sign(z[k] - z[k - 1])))
        F[k] = memory._move(z[k])
    return F


def film_steady_state(v, Fc, Fs, vb):
    """Steady-state film thickness h_ss = Kf min(|v|, vb)^(2/3), Kf = (1 - Fc/Fs) vb^(-2/3) (eqs. 10-11).

    Raises TypeError or ValueError (naming the argument) unless v (m/s) is finite and real,
    0 < Fc < Fs (N) and vb > 0 (m/s).
    """
    v = as_real_array(v, "v")
    Fc, Fs, vb = as_positive_scalar(Fc, "Fc"), as_positive_scalar(Fs, "Fs"), as_positive_scalar(vb, "vb")
    if Fc >= Fs:
        raise ValueError(f"Fc must be below Fs (the film thickness ranges over [0, 1 - Fc/Fs]), got "
                         f"Fc = {Fc!r}, Fs = {Fs!r}.")
    return kernels.film_steady_state(v, Fc, Fs, vb)


def film_step(model, h, v, T):
    """Advance the film thickness over a step T with v held: the exact exponential of eq. (8).

    h+ = h_ss + (h - h_ss) exp(-T / tau_h), tau_h chosen by eq. (9) at the start of the step
    (the dwell constant tau_h0 when |v| < ``model.v_dwell``). Raises TypeError if ``model`` is
    not a RevisedLuGre, TypeError or ValueError unless h is in [0, 1], v finite and T > 0 (s).
    """
    as_instance(model, "model", RevisedLuGre, "a RevisedLuGre model")
    h = as_bounded_scalar(h, "h", 0.0, 1.0, why=" (the film thickness, dimensionless)")
    return _film_step(model, h, as_finite_scalar(v, "v"), as_positive_scalar(T, "T"))


def _film_step(model, h, v, T):
    return kernels.film_update(h, v, T, model.Fc, model.Fs, model.vb, model.v_dwell, model.tau_hp, model.tau_hn,
                       model.tau_h0)


class RevisedLuGreState(NamedTuple):
    """State of the revised LuGre model: bristle deflection, hysteresis force, film, memory.

    ``memory`` (a :class:`HysteresisMemory`, or None without transition curves) is updated in
    place by a step: step each state once.
    """

    z: float  #: bristle deflection (m)
    Fz: float  #: the bristle force F(z) (N): sigma0 z, or the hysteresis function
    film: float  #: lubricant-film thickness h (dimensionless)
    memory: object  #: HysteresisMemory or None


@dataclass(frozen=True)
class RevisedLuGre(FrictionModel):
    """Revised LuGre (RLG) friction parameters (seed 002 eqs. 5-13); see the module docstring.

    Attributes
    ----------
    Fc, Fs : float
        Coulomb and static friction levels (N), 0 < Fc < Fs.
    vs : float
        Stribeck velocity (m/s), > 0.
    vb : float
        Velocity up to which the film thickness varies (m/s), > 0.
    sigma0 : float
        Bristle stiffness of the sliding regime (N/m), > 0.
    sigma1 : float
        Micro-damping (N s/m), >= 0.
    sigma2 : float
        Fluid (viscous) friction coefficient (N s/m), >= 0.
    T : float
        Time constant of the fluid-friction lead sigma2 (v + T dv/dt) (s), >= 0.
    tau_hp, tau_hn, tau_h0 : float
        Film time constants for acceleration, deceleration and dwell (s), > 0.
    n : float
        Stribeck exponent.
    curve : TransitionCurve or None
        Pre-sliding transition curves of F(z); None uses sigma0 z throughout (LuGre's force).
    film : bool
        False freezes h = 0, so g(v, h) is LuGre's g(v).
    v_dwell : float
        Speed below which the piston counts as dwelling (v = 0 in eq. 9) (m/s). A simulation
        never gives an exact zero while stuck (the bristles creep), so eq. (9) needs a
        threshold; the paper gives none.

    Notes
    -----
    With ``curve=None``, ``film=False`` and ``T=0`` the model is LuGre
    (:meth:`as_lugre` returns that LuGre). The model implements
    :class:`simlab.friction.FrictionModel`; its state is a :class:`RevisedLuGreState`. Raises
    TypeError or ValueError (naming the field) for a field outside the ranges above.
    """

    label: ClassVar[str] = "RLG"

    Fc: float
    Fs: float
    vs: float
    vb: float
    sigma0: float
    sigma1: float
    sigma2: float
    T: float = 0.0
    tau_hp: float = 1.0
    tau_hn: float = 1.0
    tau_h0: float = 1.0
    n: float = 2.0
    curve: TransitionCurve | None = None
    film: bool = True
    v_dwell: float = 1e-4

    def __post_init__(self):
        Fc = as_positive_scalar(self.Fc, "Fc")
        Fs = as_positive_scalar(self.Fs, "Fs")
        if Fc >= Fs:
            raise ValueError(
                f"the revised LuGre model needs Fc < Fs (its film thickness ranges over [0, 1 - Fc/Fs]), "
                f"got Fc = {Fc!r}, Fs = {Fs!r}."
            )
        for name in ("vs", "vb", "sigma0", "tau_hp", "tau_hn", "tau_h0", "n", "v_dwell"):
            as_positive_scalar(getattr(self, name), name)
        for name in ("sigma1", "sigma2", "T"):
            if as_finite_scalar(getattr(self, name), name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}.")
        if self.curve is not None:
            HysteresisMemory(self.curve, self.sigma0)  # validates c[0] k[0] > sigma0
        if not isinstance(self.film, (bool, np.bool_)):
            raise TypeError(f"film must be True or False, got {type(self.film).__name__}.")

    def g(self, v, h=0.0):
        """Stribeck function with the film, g(v, h) = Fc + ((1 - h) Fs - Fc) exp(-|v/vs|^n) (eq. 6).

        Raises TypeError or ValueError unless v (m/s) and h are finite, real and broadcast
        together, and h (the film thickness) lies in [0, 1].
        """
        v, h = _as_pair(v, h, "h")
        if np.any((h < 0.0) | (h > 1.0)):
            raise ValueError(f"h (the film thickness) must lie in [0, 1], got {h.tolist()!r:.60}.")
        return stribeck_level(v, self.Fc, self.Fs, self.vs, self.n, h)

    def h_ss(self, v):
        """Steady-state film thickness (eqs. 10-11); 0 for every v when ``film`` is False; v finite, real."""
        v = as_real_array(v, "v")
        if not self.film:
            return np.zeros_like(v)
        return kernels.film_steady_state(v, self.Fc, self.Fs, self.vb)

    def tau_h(self, v, h, h_ss):
        """Film time constant (s) by eq. (9). Raises TypeError or ValueError for non-finite numbers."""
        return self._tau_h(as_finite_scalar(v, "v"), as_finite_scalar(h, "h"), as_finite_scalar(h_ss, "h_ss"))

    def _tau_h(self, v, h, h_ss):
        return kernels.film_time_constant(v, h, h_ss, self.v_dwell, self.tau_hp, self.tau_hn, self.tau_h0)

    def steady_state_force(self, v):
        """Steady sliding force, eq. (13): Fc + ((1 - h_ss) Fs - Fc) e^{-|v/vs|^n}, signed, + sigma2 v."""
        v = as_real_array(v, "v")
        return static_force(v, self.g(v, self.h_ss(v)), self.sigma2)

    @property
    def lead_mass(self):
        """Mass sigma2 T (kg) that the lead sigma2 T dv/dt of eq. (7) adds to the moving mass."""
        return self.sigma2 * self.T

    def initial_state(self):
        """At rest: z = 0, F(z) = 0, no film (h = 0), a fresh hysteresis memory."""
        return RevisedLuGreState(z=0.0, Fz=0.0, film=0.0, memory=self.memory())

    def deflection(self, state):
        """Bristle deflection z (m) of ``state``."""
        return state.z

    def film_thickness(self, state):
        """Film thickness h of ``state``."""
        return state.film

    def force(self, v, state):
        """F(z) + sigma1 dz/dt + sigma2 v (N) at velocity v (m/s), eqs. (5) and (7) without the lead.

        The lead sigma2 T dv/dt needs the acceleration: a simulator adds ``lead_mass`` dv/dt.
        Raises TypeError unless v is a real number and ``state`` a RevisedLuGreState, ValueError
        if v is not finite.
        """
        v = as_finite_scalar(v, "v")
        as_instance(state, "state", RevisedLuGreState, "a RevisedLuGreState (from initial_state or a step)")
        g = float(self.g(v, state.film))
        zdot = v - abs(v) * state.Fz / g  # eq. (5)
        return state.Fz + self.sigma1 * zdot + self.sigma2 * v

    def stepper(self, method="exponential"):
        """``step(state, v, h) -> (state, F_step, F_start)`` (see :class:`~simlab.friction.FrictionModel`).

        With v held, the bristle equation (5) with F(z) linearized at the start of the step,
        F(z') = F(z) + K (z' - z), K = dF/dz, is dz/dt = rate (z_ss - z) with rate = K |v| / g(v, h)
        and z_ss = z + (sgn(v) g - F(z)) / K; the bristle update ``method`` advances it (exact for
        LuGre's sigma0 z, where z_ss = sgn(v) g / sigma0), the hysteresis memory moves to the new
        z, the film thickness follows its exact exponential (:func:`film_step`). F_step is the
        friction averaged over the step without the lead term, (F(z) + F(z_next))/2 +
        sigma1 (z_next - z)/h + sigma2 v; F_start the force at the start, :meth:`force`.
        """
        bristle_update(method)
        code = BRISTLE_CODES[method]
        friction, film_on, curve_on = self.kernel_parameters, self.film, self.curve is not None
        curve = self.curve.kernel_form if curve_on else kernels.NO_CURVE

        def step(state, v, h):
            z, Fz, film, memory = state
            if curve_on:
                memory.reserve(1)
                numbers, points = memory.numbers, memory.points
            else:
                numbers, points = kernels.no_memory()
            z_next, Fz_next, film, F_step, F_start = kernels.revised_lugre_step(
                z, Fz, film, v, h, friction, film_on, code, curve_on, *curve, numbers, points)
            return RevisedLuGreState(z_next, Fz_next, film, memory), F_step, F_start

        return step

    @property
    def kernel_parameters(self):
        """(Fc, Fs, vs, n, sigma0, sigma1, sigma2, vb, v_dwell, tau_hp, tau_hn, tau_h0), the ``friction``
        tuple of :func:`simlab.revised_lugre_kernels.revised_lugre_step`."""
        return (self.Fc, self.Fs, self.vs, self.n, self.sigma0, self.sigma1, self.sigma2, self.vb, self.v_dwell,
                self.tau_hp, self.tau_hn, self.tau_h0)

    def memory(self):
        """A fresh :class:`HysteresisMemory` for F(z), or None when ``curve`` is None."""
        return None if self.curve is None else HysteresisMemory(self.curve, self.sigma0)

    def as_lugre(self):
        """The LuGre model with the same Fc, Fs, vs, sigma0, sigma1, sigma2, n."""
        from simlab.friction import LuGre

        return LuGre(Fc=self.Fc, Fs=self.Fs, vs=self.vs, sigma0=self.sigma0, sigma1=self.sigma1,
                     sigma2=self.sigma2, n=self.n)

    def without_extras(self):
        """This model with its three revisions switched off (curve None, film off, T = 0)."""
        return replace(self, curve=None, film=False, T=0.0)
