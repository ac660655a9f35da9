"""Friction models behind one interface: :class:`FrictionModel`, :class:`StaticFriction`, :class:`LuGre`.

See :mod:`simlab.friction` for the equations and the interface.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simlab.friction.kernels import (
    BRISTLE_CODES,
    BRISTLE_UPDATES,
    bristle_target,
    lugre_rates,
    lugre_step,
    static_force,
    stribeck_level,
)
from simlab.results import Result
from simlab.validation import as_choice, as_finite_scalar, as_flag, as_positive_scalar, as_real_array

__all__ = [
    "FrictionModel",
    "StaticFriction",
    "LuGre",
    "SFunctionResult",
    "stribeck",
    "static_friction",
    "bristle_step",
    "SEED_PARAMETERS",
    "CANUDAS_1995",
]


def bristle_update(method):
    """The bristle-update kernel called ``method`` (one of :data:`BRISTLE_METHODS`), checked.

    Raises ValueError if ``method`` is not one of them.
    """
    return BRISTLE_UPDATES[as_choice(method, "method", BRISTLE_UPDATES)]


def _as_pair(v, other, name="z"):
    """v and ``other`` (the argument ``name``: z, or h for the film) as float arrays that broadcast."""
    v, other = as_real_array(v, "v"), as_real_array(other, name)
    try:
        np.broadcast_shapes(v.shape, other.shape)
    except ValueError:
        raise ValueError(f"v and {name} must broadcast together (one {name} per velocity v), got v of "
                         f"shape {v.shape} and {name} of shape {other.shape}.") from None
    return v, other


class FrictionModel:
    """The interface every friction model implements (a contract in five methods).

    1. ``g(v)``: the Stribeck level (N), array-friendly.
    2. ``steady_state_force(v)``: the force at constant v once every internal state has settled,
       sgn(v) g(v) + sigma2 v for the models here (the static curve), array-friendly.
    3. ``initial_state()``: the internal state at rest (None for a static model, the bristle
       deflection z = 0 for LuGre, a :class:`~simlab.revised_lugre.RevisedLuGreState`).
    4. ``force(v, state)``: the friction force (N) at velocity v in ``state``.
    5. ``stepper(method="exponential")``: returns ``step(state, v, h) -> (state, F_step,
       F_start)`` that advances the state over a step h with v held, by the bristle update
       ``method`` (one of :data:`BRISTLE_METHODS`, chosen once). ``F_start`` is the force at
       the start of the step, ``force(v, state)``; ``F_step`` the force averaged over the step,
       which a simulator uses in the force balance of the mass.

    Besides: ``label`` (the seed's short name: "SS", "LG", "RLG"), ``lead_mass`` (kg, the mass
    sigma2 T that a fluid-friction lead sigma2 T dv/dt adds; 0 for all but the revised model),
    and ``deflection(state)``, ``film_thickness(state)`` for recording (0 where the model has
    no such state). ``tests/test_friction_interface.py`` checks the contract for every model:
    the steady-state force is the static curve, the exponential step is exact for constant v.
    """

    label: ClassVar[str] = ""

    @property
    def lead_mass(self):
        """Mass added by a fluid-friction lead term sigma2 T dv/dt (kg): 0 here."""
        return 0.0

    def initial_state(self):
        """The internal state at rest."""
        raise NotImplementedError

    def force(self, v, state):
        """Friction force (N) at velocity v in ``state``."""
        raise NotImplementedError

    def stepper(self, method="exponential"):
        """``step(state, v, h) -> (state, F_step, F_start)``; see the class docstring."""
        raise NotImplementedError

    def deflection(self, state):
        """Bristle deflection z (m) held in ``state`` (0 for a model without bristles)."""
        return 0.0

    def film_thickness(self, state):
        """Lubricant-film thickness h held in ``state`` (0 for a model without a film)."""
        return 0.0


# ---------------------------------------------------------------------------------------------
# The static model
# ---------------------------------------------------------------------------------------------


def _check_curve(Fc, Fs, vs, n):
    Fc = as_finite_scalar(Fc, "Fc")
    Fs = as_finite_scalar(Fs, "Fs")
    if Fc < 0 or Fs < 0:
        raise ValueError(f"Fc and Fs must be >= 0 (friction force levels), got Fc = {Fc!r}, Fs = {Fs!r}.")
    vs = as_positive_scalar(vs, "vs")
    n = as_positive_scalar(n, "n")
    return Fc, Fs, vs, n


def _check_damping(value, name):
    value = as_finite_scalar(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}.")
    return value


def stribeck(v, Fc, Fs, vs, n=2):
    """Stribeck function g(v) = Fc + (Fs - Fc) exp(-|v/vs|^n) (N), array-friendly.

    Raises TypeError or ValueError (naming the argument) unless v is finite and real, Fc, Fs >= 0
    and vs, n > 0.

    Examples
    --------
    >>> from simlab.friction import stribeck
    >>> round(float(stribeck(0.0, 1.0, 1.5, 0.001)), 6), round(float(stribeck(1.0, 1.0, 1.5, 0.001)), 6)
    (1.5, 1.0)
    """
    Fc, Fs, vs, n = _check_curve(Fc, Fs, vs, n)
    return stribeck_level(as_real_array(v, "v"), Fc, Fs, vs, n)


def static_friction(v, Fc, Fs, vs, sigma2, n=2):
    """Static friction model F = sgn(v) g(v) + sigma2 v (seed 002, eq. 1), in N.

    At v = 0 the model gives 0 (sgn 0 = 0): a static map cannot say which force it holds while
    stuck, which is exactly what a dynamic model adds. Raises as :func:`stribeck`, and
    ValueError for sigma2 < 0.
    """
    sigma2 = _check_damping(sigma2, "sigma2")
    v = as_real_array(v, "v")
    return static_force(v, stribeck(v, Fc, Fs, vs, n), sigma2)


@dataclass(frozen=True)
class StaticFriction(FrictionModel):
    """Steady-state (static) friction model as a parameter object (seed 002's "SS" model).

    F = sgn(v) (Fc + (Fs - Fc) exp(-|v/vs|^n)) + sigma2 v, eq. (1); see :func:`static_friction`.
    It has no internal state; its step gives the force of eq. (1) at the velocity of the start
    of the step, as a fixed-step Simulink run evaluates a static map.

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

    Raises TypeError or ValueError (naming the field) for a field that is not a finite real
    number, Fc, Fs or sigma2 < 0, or vs, n <= 0.

    Examples
    --------
    >>> from simlab.friction import StaticFriction
    >>> ss = StaticFriction(Fc=4.5, Fs=10.5, vs=0.01, sigma2=30.0)
    >>> round(float(ss.force(0.0)), 3), round(float(ss.force(-1.0)), 3)
    (0.0, -34.5)
    """

    label: ClassVar[str] = "SS"

    Fc: float
    Fs: float
    vs: float
    sigma2: float
    n: float = 2.0

    def __post_init__(self):
        _check_curve(self.Fc, self.Fs, self.vs, self.n)
        _check_damping(self.sigma2, "sigma2")

    def g(self, v):
        """Stribeck function g(v) (N)."""
        return stribeck(v, self.Fc, self.Fs, self.vs, self.n)

    def steady_state_force(self, v):
        """The static curve sgn(v) g(v) + sigma2 v (N)."""
        return static_friction(v, self.Fc, self.Fs, self.vs, self.sigma2, self.n)

    def force(self, v, state=None):
        """Friction force (N) at velocity v (m/s), array-friendly; the model has no state."""
        return self.steady_state_force(v)

    def initial_state(self):
        """None: a static map has no internal state."""
        return None

    def stepper(self, method="exponential"):
        """``step(None, v, h) -> (None, F, F)``, F = sgn(v) g(v) + sigma2 v (``method`` checked, unused).

        Raises ValueError if ``method`` is not one of :data:`BRISTLE_METHODS`. The step itself
        takes floats and checks nothing (it runs inside the simulators' loops).
        """
        bristle_update(method)
        Fc, Fs, vs, n, s2 = self.Fc, self.Fs, self.vs, self.n, self.sigma2

        def step(state, v, h):
            F = static_force(v, stribeck_level(v, Fc, Fs, vs, n), s2)
            return None, F, F

        return step


# ---------------------------------------------------------------------------------------------
# LuGre
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SFunctionResult(Result):
    """Replay of the seed's S-function: unpacks as ``t, F``; ``x`` holds [z, zdot] per sample."""

    unpacks_as = ("t", "F")

    t: np.ndarray
    F: np.ndarray
    x: np.ndarray


@dataclass(frozen=True)
class LuGre(FrictionModel):
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

    The state of the model is the bristle deflection z (m), a float.

    Raises TypeError or ValueError (naming the field) for a field that is not a finite real
    number, Fc or Fs <= 0, vs, sigma0 or n <= 0, or sigma1, sigma2 < 0.

    Examples
    --------
    >>> from simlab.friction import LuGre
    >>> model = LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=316.0, sigma2=0.4)
    >>> round(float(model.steady_state_force(0.1)), 6)
    1.04
    >>> step = model.stepper("exponential")
    >>> z, F_step, F_start = step(model.initial_state(), 0.1, 1e-3)
    >>> round(z * model.sigma0, 6)  # sigma0 z = g(v) (1 - e^{-rate h}), rate h = 10
    0.999955
    """

    label: ClassVar[str] = "LG"

    Fc: float
    Fs: float
    vs: float
    sigma0: float
    sigma1: float
    sigma2: float
    n: float = 2.0

    def __post_init__(self):
        _check_curve(self.Fc, self.Fs, self.vs, self.n)
        if self.Fc == 0 or self.Fs == 0:
            raise ValueError(f"Fc and Fs must be > 0 for LuGre: g(v), between Fc and Fs, divides the bristle "
                             f"equation; got Fc = {self.Fc!r}, Fs = {self.Fs!r}.")
        as_positive_scalar(self.sigma0, "sigma0")
        for name in ("sigma1", "sigma2"):
            _check_damping(getattr(self, name), name)
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
        v = as_real_array(v, "v")
        return bristle_target(v, self.g(v), self.sigma0)

    def zdot(self, v, z):
        """Bristle equation dz/dt = v - sigma0 |v| z / g(v) (m/s).

        Raises TypeError or ValueError if v (m/s) or z (m) is not finite and real, or if they do
        not broadcast together.
        """
        v, z = _as_pair(v, z)
        return lugre_rates(v, z, self.g(v), self.sigma0, self.sigma1, self.sigma2)[0]

    def force(self, v, z):
        """Friction force F = sigma0 z + sigma1 dz/dt + sigma2 v (N); ``z`` is the model's state.

        Raises TypeError or ValueError as :meth:`zdot`.
        """
        v, z = _as_pair(v, z)
        return lugre_rates(v, z, self.g(v), self.sigma0, self.sigma1, self.sigma2)[1]

    def steady_state_force(self, v):
        """Force at constant v after the bristles settle: sgn(v) g(v) + sigma2 v (the static curve)."""
        return static_friction(v, self.Fc, self.Fs, self.vs, self.sigma2, self.n)

    def initial_state(self):
        """z = 0: bristles at rest."""
        return 0.0

    def deflection(self, state):
        """The state is the deflection z itself."""
        return state

    def stepper(self, method="exponential"):
        """``step(z, v, h) -> (z_next, F_step, F_start)`` with the bristle update ``method``.

        With v held the bristle equation is dz/dt = rate (z_ss - z), rate = sigma0 |v| / g(v),
        z_ss = sgn(v) g(v) / sigma0; the update advances it (:data:`BRISTLE_UPDATES`). F_start
        is the force at (v, z); F_step = sigma0 (z + z_next)/2 + sigma1 (z_next - z)/h + sigma2 v
        is the force averaged over the step (exact for the sigma0 z and sigma1 dz/dt terms when
        z_next is exact). Raises ValueError if ``method`` is not one of :data:`BRISTLE_METHODS`;
        the step itself takes floats and checks nothing (it runs inside the simulators' loops).
        """
        bristle_update(method)
        code = BRISTLE_CODES[method]
        parameters = (self.Fc, self.Fs, self.vs, self.n, self.sigma0, self.sigma1, self.sigma2)

        def step(z, v, h):
            return lugre_step(z, v, h, *parameters, code)

        return step


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
        0.8 N s/m), as Astrom and Canudas-de-Wit point out in 2008. Raises TypeError if ``warn``
        is not a bool.
        """
        warn = as_flag(warn, "warn")
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

    def sfunction(self, v, Ts=0.001, x0=(0.0, 0.0), allow_blowup=False):
        """Replay the discrete S-function of seed 000 for a sampled velocity v[k], exactly.

        State x = [z, zdot]. Each sample, as Simulink calls mdlOutputs then mdlUpdate (direct
        feedthrough):

            F[k]   = sigma0 x1[k] + sigma1 x2[k] + sigma2 v[k]
            x[k+1] = [[1, Ts], [-sigma0 |v[k]| / g(v[k]), 0]] x[k] + [0, 1] v[k]

        so z[k+1] = z[k] + Ts zdot[k-1]: an Euler step with a lagged slope. For constant v its
        characteristic equation is lambda^2 - lambda + a Ts = 0 with the bristle rate
        a = sigma0 |v| / g(v): the scheme is stable only for a Ts < 1 (lab08), and beyond that it
        grows like sqrt(a Ts)^k until the force overflows. The replay therefore refuses a run
        with a[k] Ts >= 1 at some sample, unless ``allow_blowup`` is True.

        Parameters
        ----------
        v : array_like, shape (N,)
            Velocity samples (m/s), finite.
        Ts : float
            Sample time (s), > 0 (the seed's 1 ms).
        x0 : (float, float)
            Initial [z, zdot] (the seed's remark tries [0; -10]).
        allow_blowup : bool
            Run the replay even where the scheme is unstable (lab08 shows the blow-up on
            purpose); the forces then grow without bound and become inf or NaN.

        Returns
        -------
        SFunctionResult
            ``t`` (k Ts), ``F`` (N), ``x`` (shape (N, 2), the state at each sample).

        Raises
        ------
        TypeError, ValueError
            If v is not a finite 1-D sequence, Ts not a positive number, x0 not two finite
            numbers or allow_blowup not a bool.
        simlab.integrators.NonFiniteStateError
            If a[k] Ts >= 1 at some sample and ``allow_blowup`` is False; the message gives the
            stability limit of Ts, g(v) / (sigma0 |v|) at the fastest sample.
        """
        v = as_real_array(v, "v", ndim=1)
        Ts = as_positive_scalar(Ts, "Ts")
        x = as_real_array(x0, "x0", ndim=1)
        if x.shape != (2,):
            raise ValueError(f"x0 must be [z, zdot], got shape {x.shape}.")
        g = self.g(v)
        if not as_flag(allow_blowup, "allow_blowup"):
            self._check_seed_scheme(v, g, Ts)
        F = np.empty(len(v))
        states = np.empty((len(v), 2))
        x1, x2 = float(x[0]), float(x[1])
        for k in range(len(v)):
            states[k] = x1, x2
            F[k] = self.sigma0 * x1 + self.sigma1 * x2 + self.sigma2 * v[k]  # mdlOutputs
            x1, x2 = x1 + Ts * x2, -self.sigma0 * abs(v[k]) / g[k] * x1 + v[k]  # mdlUpdate
        return SFunctionResult(t=Ts * np.arange(len(v)), F=F, x=states)

    def _check_seed_scheme(self, v, g, Ts):
        """NonFiniteStateError if the seed's scheme is unstable at some sample: a[k] Ts >= 1."""
        from simlab.integrators import NonFiniteStateError

        a = self.sigma0 * np.abs(v) / g  # bristle rate at each sample (1/s)
        k = int(np.argmax(a)) if a.size else 0
        if a.size and a[k] * Ts >= 1.0:
            raise NonFiniteStateError(
                f"sfunction: the seed's scheme is unstable at Ts = {Ts:g} s. It needs a Ts < 1 with the "
                f"bristle rate a = sigma0 |v| / g(v); at sample {k} (v = {v[k]:g} m/s) a = {a[k]:.4g} 1/s, "
                f"so a Ts = {a[k] * Ts:.4g} and the forces would grow like sqrt(a Ts)^k. The stability "
                f"limit is Ts < g(v) / (sigma0 |v|) = {1.0 / a[k]:.4g} s. Take a smaller Ts, use "
                f"velocity_response (exact bristle update, stable for every step), or pass "
                f"allow_blowup=True to show the blow-up on purpose.",
                method="seed S-function", step=k, steps=len(v), t=k * Ts, h=Ts)


def bristle_step(model, z, v, T, method="exponential"):
    """Advance the bristle state z of a LuGre model over a step T with the velocity v held.

    With v held the bristle equation is dz/dt = rate (z_ss - z), rate = sigma0 |v| / g(v),
    z_ss = sgn(v) g(v) / sigma0. Methods (:data:`BRISTLE_UPDATES`):

    * ``"exponential"``: exact for constant v, z+ = z_ss + (z - z_ss) exp(-rate T); stable for
      every T;
    * ``"implicit"``: implicit Euler, z+ = (z + T rate z_ss) / (1 + T rate); stable for every T;
    * ``"euler"``: z+ = z + T dz/dt, stable only for T rate < 2;
    * ``"rk4"``: one RK4 step of dz/dt, stable only for T rate < 2.785.

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

    Raises
    ------
    TypeError
        If ``model`` is not a LuGre, or z, v, T are not real numbers.
    ValueError
        If z or v is not finite or they do not broadcast together, T <= 0, or ``method`` is
        not one of :data:`BRISTLE_UPDATES`.
    """
    if not isinstance(model, LuGre):
        raise TypeError(f"model must be a LuGre parameter set, got {type(model).__name__}.")
    T = as_positive_scalar(T, "T")
    update = bristle_update(method)
    v, z = _as_pair(v, z)
    g = model.g(v)
    return update(z, bristle_target(v, g, model.sigma0), model.sigma0 * np.abs(v) / g, T)


#: The seed's parameter table (seed 000, 表1; units as the seed gives none: N, m/s, N/m, N s/m).
SEED_PARAMETERS = dict(Fc=2.4440, Fs=0.5991, vs=0.0103, sigma0=0.4766, sigma1=0.2701, sigma2=0.0049)

#: The classic parameter set of Canudas de Wit et al. (1995): sigma0 = 1e5 N/m,
#: sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m, Fc = 1 N, Fs = 1.5 N, vs = 0.001 m/s (with m = 1 kg).
CANUDAS_1995 = dict(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=float(np.sqrt(1e5)), sigma2=0.4)
