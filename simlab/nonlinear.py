"""Typical nonlinear elements (典型非线性环节): saturation, dead zone, backlash, relay.

Each element is a small object that maps an input u to an output y. Saturation, dead zone and
the ideal relay are static: ``element(u)`` works on numbers and arrays. Backlash (间隙, and the
relay with hysteresis, 滞环继电器) has memory: ``element.step(u)`` advances it by one sample and
``element.response(u_sequence)`` runs a whole input history; ``reset()`` forgets the past.

In the per-element discrete similarity method (按环节离散相似法) a nonlinear element sits
before (on the input of) or after (on the output of) a typical element; these objects are what
the seed's flags FZ = 1 .. 5 select.

Used in lab06 (nonlinear elements) and lab07 (DC motor, regulator limits).
"""

from __future__ import annotations

import math

import numpy as np

from simlab.validation import as_finite_scalar, as_positive_scalar, as_real_array

__all__ = ["Saturation", "DeadZone", "Backlash", "Relay"]


class _Static:
    """Base of the memoryless elements: ``step`` and ``response`` just evaluate the map."""

    def __call__(self, u):
        """Output for u, a number or an array (same shape); TypeError or ValueError unless u is finite and real."""
        u = as_real_array(u, "u")
        y = self._map(u)
        return float(y) if y.ndim == 0 else y

    def step(self, u):
        """Output for one input sample (same as calling the element)."""
        return self._advance(as_finite_scalar(u, "u"))

    def _advance(self, u):
        """``step`` for a finite float u, unchecked: the per-step call of the simulation loops."""
        return float(self._map(np.asarray(u)))

    def response(self, u):
        """Output for a sequence of inputs, shape of ``u``."""
        return np.asarray(self(u), dtype=float)

    def reset(self):
        """Memoryless: nothing to reset."""


class Saturation(_Static):
    """Saturation (饱和): y = k u for |u| <= s, y = k s sign(u) beyond.

    Parameters
    ----------
    limit : float
        Input level s > 0 at which the output saturates.
    gain : float
        Slope k of the linear zone (default 1), so the output limit is k s.

    Raises TypeError or ValueError (naming the argument) unless limit is a finite number > 0
    and gain a finite number.

    Examples
    --------
    >>> from simlab.nonlinear import Saturation
    >>> Saturation(2.0)([-5.0, 1.0, 3.0]).tolist()
    [-2.0, 1.0, 2.0]
    """

    def __init__(self, limit, gain=1.0):
        self.limit = as_positive_scalar(limit, "limit")
        self.gain = as_finite_scalar(gain, "gain")

    def _map(self, u):
        return self.gain * np.clip(u, -self.limit, self.limit)

    def _advance(self, u):
        return self.gain * min(max(u, -self.limit), self.limit)  # = _map for a float

    def __repr__(self):
        return f"Saturation(limit={self.limit:g}, gain={self.gain:g})"


class DeadZone(_Static):
    """Dead zone (死区): y = 0 for |u| <= d, y = k (u - d sign(u)) beyond.

    Parameters
    ----------
    width : float
        Half-width d > 0 of the dead zone.
    gain : float
        Slope k outside the dead zone (default 1).

    Raises TypeError or ValueError (naming the argument) unless width is a finite number > 0
    and gain a finite number.

    Examples
    --------
    >>> from simlab.nonlinear import DeadZone
    >>> DeadZone(1.0)([-3.0, 0.5, 2.0]).tolist()
    [-2.0, 0.0, 1.0]
    """

    def __init__(self, width, gain=1.0):
        self.width = as_positive_scalar(width, "width")
        self.gain = as_finite_scalar(gain, "gain")

    def _map(self, u):
        return self.gain * (u - np.clip(u, -self.width, self.width))

    def _advance(self, u):
        return self.gain * (u - min(max(u, -self.width), self.width))  # = _map for a float

    def __repr__(self):
        return f"DeadZone(width={self.width:g}, gain={self.gain:g})"


class Backlash:
    """Backlash (间隙, hysteresis 滞环) of half-width b and slope k, with memory.

    The output follows the input only while the input pushes against one side of the gap:

    .. math::
        y_k = \\begin{cases} k (u_k - b) & \\text{if } k (u_k - b) > y_{k-1} \\\\
                             k (u_k + b) & \\text{if } k (u_k + b) < y_{k-1} \\\\
                             y_{k-1} & \\text{otherwise (inside the gap)} \\end{cases}

    Parameters
    ----------
    width : float
        Half-width b > 0 of the gap (the total play is 2b).
    gain : float
        Slope k > 0 of the engaged branches (default 1).
    y0 : float
        Initial output (default 0, centred in the gap).

    Raises TypeError or ValueError (naming the argument) unless width and gain are finite
    numbers > 0 and y0 a finite number; ``step``, ``response`` and ``reset`` likewise for u, y0.

    Examples
    --------
    >>> from simlab.nonlinear import Backlash
    >>> Backlash(0.5).response([0.0, 1.0, 2.0, 1.5, 1.0, 0.0]).tolist()
    [0.0, 0.5, 1.5, 1.5, 1.5, 0.5]
    """

    def __init__(self, width, gain=1.0, y0=0.0):
        self.width = as_positive_scalar(width, "width")
        self.gain = as_positive_scalar(gain, "gain")
        self.y0 = as_finite_scalar(y0, "y0")
        self.y = self.y0

    def reset(self, y0=None):
        """Forget the history; start again from ``y0`` (default: the constructor's y0)."""
        self.y = self.y0 if y0 is None else as_finite_scalar(y0, "y0")

    def step(self, u):
        """Advance by one input sample and return the output."""
        return self._advance(as_finite_scalar(u, "u"))

    def _advance(self, u):
        """``step`` for a finite float u, unchecked: the per-step call of the simulation loops."""
        upper = self.gain * (u - self.width)  # pushing up against the gap
        lower = self.gain * (u + self.width)  # pushing down
        if upper > self.y:
            self.y = upper
        elif lower < self.y:
            self.y = lower
        return self.y

    def response(self, u):
        """Outputs for an input history u_0, u_1, ... (starting from the current memory)."""
        u = as_real_array(u, "u", ndim=1)
        return np.array([self.step(value) for value in u])

    def __repr__(self):
        return f"Backlash(width={self.width:g}, gain={self.gain:g}, y={self.y:g})"


class Relay:
    """Relay (继电器): y = M sign(u), optionally with a dead zone and hysteresis.

    With hysteresis half-width a > 0 (滞环继电器) the relay switches on at u > a and off (to -M)
    at u < -a, keeping its last output in between; with ``dead_zone`` d > 0 the output is 0 for
    |u| <= d (三位置继电器). Not both.

    Parameters
    ----------
    level : float
        Output magnitude M > 0.
    hysteresis : float
        Half-width a >= 0 of the hysteresis loop (0: ideal relay).
    dead_zone : float
        Half-width d >= 0 of the dead zone (0: none).
    y0 : float
        Initial output for a relay with hysteresis (default -M): one of its output levels,
        -M or M (-M, 0 or M for a relay without hysteresis, whose output does not depend on it).

    Notes
    -----
    Raises TypeError or ValueError (naming the argument) unless level is a finite number > 0,
    hysteresis and dead_zone finite numbers >= 0 (not both > 0) and y0 one of the output levels
    (``Relay(1, hysteresis=0.5, y0=7)`` is refused: the message names the levels -1 and 1);
    ``step`` and ``response`` likewise for u. Calling a relay with hysteresis raises TypeError
    (it has memory).

    Examples
    --------
    >>> from simlab.nonlinear import Relay
    >>> Relay(1.0, hysteresis=0.5).response([0.0, 0.6, 0.0, -0.6, 0.0]).tolist()
    [-1.0, 1.0, 1.0, -1.0, -1.0]
    """

    def __init__(self, level, hysteresis=0.0, dead_zone=0.0, y0=None):
        self.level = as_positive_scalar(level, "level")
        self.hysteresis = as_finite_scalar(hysteresis, "hysteresis")
        self.dead_zone = as_finite_scalar(dead_zone, "dead_zone")
        if self.hysteresis < 0 or self.dead_zone < 0:
            raise ValueError(
                f"hysteresis and dead_zone must be >= 0, got {self.hysteresis!r} and {self.dead_zone!r}."
            )
        if self.hysteresis > 0 and self.dead_zone > 0:
            raise ValueError("give hysteresis or dead_zone, not both (a combined relay is not modelled).")
        self.y0 = -self.level if y0 is None else self._output_level(as_finite_scalar(y0, "y0"))
        self.y = self.y0

    def _output_level(self, y0):
        """y0 if it is one of the relay's outputs (-M, M; and 0 without hysteresis), else ValueError."""
        M = self.level
        levels = (-M, M) if self.hysteresis > 0 else (-M, 0.0, M)
        for level in levels:
            if math.isclose(y0, level, rel_tol=1e-12, abs_tol=0.0):
                return level
        if self.hysteresis > 0:
            names = f"{-M:g} or {M:g} (-level or +level: a relay with hysteresis is always on or off)"
        else:
            names = f"{-M:g}, 0 or {M:g} (-level, 0 or +level)"
        raise ValueError(f"y0 must be one of the relay's output levels, {names}; got y0 = {y0!r}, "
                         f"which a relay of level {M:g} cannot output.")

    def reset(self):
        """Return to the initial output."""
        self.y = self.y0

    def _map(self, u):
        if self.dead_zone > 0:
            return self.level * np.sign(u) * (np.abs(u) > self.dead_zone)
        return self.level * np.sign(u)

    def __call__(self, u):
        if self.hysteresis > 0:
            raise TypeError("a relay with hysteresis has memory: use .step(u) or .response(u).")
        y = self._map(as_real_array(u, "u"))
        return float(y) if y.ndim == 0 else y

    def step(self, u):
        """Advance by one input sample and return the output."""
        return self._advance(as_finite_scalar(u, "u"))

    def _advance(self, u):
        """``step`` for a finite float u, unchecked: the per-step call of the simulation loops."""
        if self.hysteresis == 0:
            self.y = float(self._map(np.asarray(u)))
        elif u > self.hysteresis:
            self.y = self.level
        elif u < -self.hysteresis:
            self.y = -self.level
        return self.y

    def response(self, u):
        """Outputs for an input history."""
        u = as_real_array(u, "u", ndim=1)
        return np.array([self.step(value) for value in u])

    def __repr__(self):
        return (f"Relay(level={self.level:g}, hysteresis={self.hysteresis:g}, "
                f"dead_zone={self.dead_zone:g})")
