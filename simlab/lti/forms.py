"""The three model forms of linear time-invariant (LTI, 线性定常) systems, and what they share.

In the MATLAB conventions of the modelling lab (lab03):

* transfer function (传递函数) ``(num, den)``: coefficient sequences in descending powers of s,
  ``G(s) = (b0 s^m + ... + bm) / (a0 s^n + ... + an)``; leading zeros are dropped and a scalar
  ``num`` is a constant numerator;
* state space (状态空间) ``(A, B, C, D)``: 2-D float arrays, ``dx/dt = A x + B u``,
  ``y = C x + D u``, checked by :func:`simlab.validation.as_state_space` (a 1-D ``B`` is read as
  a column, a 1-D ``C`` as a row, a scalar ``D`` as 1x1; n = 0 states is a static gain);
* zero-pole-gain (零极点) ``(z, p, k)``: ``G(s) = k (s - z1)...(s - zm) / ((s - p1)...(s - pn))``.

Every function of :mod:`simlab.lti` takes proper models only (deg num <= deg den, the ones a
state-space model can represent): an improper one is bad input and gets a ValueError naming the
degrees. An ideal PD controller ``Kd s + Kp`` is written with a fast filter pole,
``(Kd s + Kp)/(Tf s + 1)``.

This module holds the coefficient normalisation and the degree (properness) checks that the
conversions, connections and reductions share, and :class:`TF`, a small value type with ``*``,
``+`` and ``.feedback`` on top of those functions. Used in lab03.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simlab.validation import as_real_array

__all__ = ["TF"]

_EPS = np.finfo(float).eps
_HUGE = np.finfo(float).max  # about 1.8e308, the largest double


# ---------------------------------------------------------------------------------------------
# Coefficients in descending powers of s, and roots (private, shared).
# ---------------------------------------------------------------------------------------------


def _strip(poly):
    """Drop leading zeros; the zero polynomial becomes ``[0.0]``."""
    nonzero = np.flatnonzero(poly)
    return poly[nonzero[0]:].copy() if nonzero.size else np.zeros(1)


def _as_poly(value, name):
    """Coefficients in descending powers of s as a 1-D float array, leading zeros removed."""
    poly = as_real_array(value, name)
    if poly.ndim == 0:
        poly = poly.reshape(1)
    if poly.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D sequence of coefficients in descending powers of s, got an "
            f"array of shape {poly.shape}. Example: s^2 + 3s + 2 is [1, 3, 2]."
        )
    if poly.size == 0:
        raise ValueError(f"{name} is empty; give at least one coefficient (0 for the zero gain).")
    return _strip(poly)


def _as_tf(num, den, names=("num", "den")):
    num, den = _as_poly(num, names[0]), _as_poly(den, names[1])
    if not den.any():
        raise ValueError(f"{names[1]} must not be the zero polynomial, got all zeros.")
    if len(num) > len(den):
        raise ValueError(
            f"{names[0]}/{names[1]} is improper: deg {names[0]} = {len(num) - 1} > deg "
            f"{names[1]} = {len(den) - 1}. simlab works with proper transfer functions "
            f"(deg num <= deg den), the ones a state-space model can represent; an ideal "
            f"differentiator cannot be simulated. Add a fast pole, e.g. s/(0.01 s + 1)."
        )
    _require_monic_range(num, den, names)
    return num, den


def _require_monic_range(num, den, names):
    """The coefficient range rule: num/a0, den/a0 (a0 = den[0]) and num/b0 (b0 = num[0]) finite.

    Every conversion divides by the leading coefficient a0 of den (the realization of
    :func:`tf2ss`, the poles as roots of the monic den), and the zeros are the roots of
    num/b0. A ratio |c| / |a0| (or |c| / |b0|) beyond the largest double, about 1.8e308, is not
    representable: tf2ss would return inf and NaN, and den has a pole beyond the floating-point
    range (den = [1e-320, 1], a pole at -1e320).
    """
    for poly, name, over in ((den, names[1], den), (num, names[0], den), (num, names[0], num)):
        largest = float(np.max(np.abs(poly)))
        if largest / _HUGE > abs(over[0]):  # largest / over[0] overflows (so that nothing does)
            lead = names[1] if over is den else names[0]
            which = "the others" if poly is over else name
            roots = ("so do the poles" if poly is den else "so do the zeros" if over is num else
                     "so does the realization of tf2ss (C and D)")
            raise ValueError(
                f"{name} is out of the coefficient range: the leading coefficient of {lead}, "
                f"{over[0]:.6g}, is too small next to {which} (largest |coefficient| "
                f"{largest:.6g}): {name} / {over[0]:.6g} has coefficients beyond the "
                f"floating-point range, and {roots} (ratios to the leading coefficient "
                f"of {lead} must stay below about 1.8e308). If the leading term is meant to be "
                f"zero, drop it; otherwise rescale s (change the time unit)."
            )


def _require_finite(function, names, *arrays):
    """A result of ``function`` that overflowed: ValueError naming the arguments behind it."""
    if all(np.all(np.isfinite(array)) for array in arrays):
        return
    raise ValueError(
        f"{function}: the result overflows the floating-point range (about 1e-308 to 1.8e308 in "
        f"size) for these {names}: its coefficients are products of theirs. Rescale s (change "
        f"the time unit) or the gain so that the coefficients stay well inside that range."
    )


def _as_roots(value, name):
    roots = as_real_array(value, name, allow_complex=True)
    if roots.ndim == 2 and 1 in roots.shape:  # a MATLAB row or column vector
        roots = roots.ravel()
    if roots.ndim > 1:
        raise ValueError(f"{name} must be a 1-D sequence of roots, got shape {roots.shape}.")
    return roots.reshape(-1)


def _poly_from_roots(roots, name):
    """Monic real polynomial with the given roots; complex roots must come in conjugate pairs."""
    if roots.size == 0:
        return np.ones(1)
    poly = np.atleast_1d(np.poly(roots)).astype(complex)
    scale = np.abs(np.poly(-np.abs(roots)))  # coefficients of prod(s + |r_i|) bound |poly|
    if np.any(np.abs(poly.imag) > 1e3 * len(roots) * _EPS * scale):
        raise ValueError(
            f"{name} must contain real values or complex conjugate pairs (a + bj with a - bj) "
            f"so that the polynomial has real coefficients, got {name} = {np.round(roots, 6)}."
        )
    return poly.real.copy()


# ---------------------------------------------------------------------------------------------
# The transfer-function value type.
# ---------------------------------------------------------------------------------------------


def _poly_text(poly):
    """``[6, 17, 38, 39]`` -> ``'6 s^3 + 17 s^2 + 38 s + 39'``."""
    terms, degree = [], len(poly) - 1
    for i, c in enumerate(poly):
        power = degree - i
        if c == 0 and len(poly) > 1:
            continue
        size = f"{abs(c):.6g}"
        factor = "" if power == 0 else ("s" if power == 1 else f"s^{power}")
        body = factor if size == "1" and factor else f"{size} {factor}".strip()
        terms.append((" - " if c < 0 else " + ") + body)
    text = "".join(terms)
    return ("-" + text[3:]) if text.startswith(" - ") else text[3:]


@dataclass(frozen=True, eq=False, repr=False)
class TF:
    """Transfer function value ``num/den`` with ``*`` (series), ``+`` (parallel), ``.feedback``.

    Parameters
    ----------
    num : array_like or float
        Numerator coefficients, descending powers of s.
    den : array_like or float, optional
        Denominator coefficients; default 1 (a static gain).

    Raises
    ------
    TypeError, ValueError
        As :func:`simlab.lti.tf2ss`: non-numeric, NaN or inf, empty or zero-denominator
        coefficients, an improper model, or coefficients out of range (ratios to the leading
        coefficient beyond about 1.8e308). The operators raise what :func:`series`,
        :func:`parallel` and :func:`feedback` raise, and the same errors naming ``other`` for a
        second operand that is not a TF, a number or numerator coefficients. :meth:`dcgain`
        raises ValueError for a pole at s = 0.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import TF
    >>> G = TF(np.polymul([1, 8], [1, 2, 5]), np.polymul([2, 3], [3, 4, 13]))
    >>> G
    TF(num=[1, 10, 21, 40], den=[6, 17, 38, 39])
    >>> print(G.feedback())                                   # unity negative feedback
      s^3 + 10 s^2 + 21 s + 40
    ----------------------------
     7 s^3 + 27 s^2 + 59 s + 79
    >>> round(G.dcgain(), 6), (2 * G).num.tolist()
    (1.025641, [2.0, 20.0, 42.0, 80.0])
    """

    num: np.ndarray
    den: np.ndarray = 1.0
    # The operators call simlab.lti's functions, which import this module: they are imported
    # where they are used.
    __array_ufunc__ = None  # so that numpy scalars defer to TF: np.float64(2) * G is a TF

    def __post_init__(self):
        num, den = _as_tf(self.num, self.den)
        num.setflags(write=False)
        den.setflags(write=False)
        object.__setattr__(self, "num", num)
        object.__setattr__(self, "den", den)

    @staticmethod
    def _coerce(other):
        """``other`` as a TF: a TF, or a number or numerator coefficients (a TF over den = 1)."""
        if isinstance(other, TF):
            return other
        try:
            return TF(other)
        except (TypeError, ValueError) as error:  # TF names num: say it was the other operand
            raise type(error)(f"other (the second transfer function) must be a TF, a number or numerator "
                              f"coefficients; as TF(other): {error}") from None

    def __iter__(self):
        return iter((self.num, self.den))

    def __mul__(self, other):
        from simlab.lti.interconnection import series

        other = self._coerce(other)
        return TF(*series(self.num, self.den, other.num, other.den))

    __rmul__ = __mul__

    def __add__(self, other):
        from simlab.lti.interconnection import parallel

        other = self._coerce(other)
        return TF(*parallel(self.num, self.den, other.num, other.den))

    __radd__ = __add__

    def __neg__(self):
        return TF(-self.num, self.den)

    def __sub__(self, other):
        return self + (-self._coerce(other))

    def __rsub__(self, other):
        return self._coerce(other) + (-self)

    def __call__(self, s):
        """Evaluate G(s) at a (complex) point or array, e.g. ``G(1j * w)``.

        Raises TypeError or ValueError if ``s`` is not numeric or not finite, ValueError if an
        s is a pole (den(s) = 0: G is infinite there) or so large that num(s) or den(s)
        overflows.
        """
        s = as_real_array(s, "s", allow_complex=True)
        with np.errstate(over="ignore", invalid="ignore"):
            num, den = np.polyval(self.num, s), np.polyval(self.den, s)
        if not (np.all(np.isfinite(num)) and np.all(np.isfinite(den))):
            raise ValueError(
                f"s is too large: num(s) or den(s) overflows the floating-point range for |s| up "
                f"to {float(np.max(np.abs(s))):.3g} (they grow like |s|^{len(self.den) - 1})."
            )
        if np.any(den == 0):
            pole = np.ravel(s)[np.argmax(np.ravel(den) == 0)]
            raise ValueError(f"s = {pole:.6g} is a pole of G (den(s) = 0): G(s) is infinite there.")
        return num / den

    def feedback(self, other=1, sign=-1):
        """Closed loop G / (1 - sign G H) with H = ``other``; see :func:`feedback` (and its errors)."""
        from simlab.lti.interconnection import feedback

        other = self._coerce(other)
        return TF(*feedback(self.num, self.den, other.num, other.den, sign))

    def poles(self):
        """Roots of den."""
        return np.roots(self.den)

    def zeros(self):
        """Roots of num (empty for a constant numerator)."""
        return np.roots(self.num) if self.num.any() else np.zeros(0)

    def dcgain(self):
        """Steady-state gain (稳态增益) G(0) = lim_{s->0} num(s)/den(s); common factors s cancel first.

        Raises
        ------
        ValueError
            If G has a pole at s = 0 (an integrator, 积分环节, after common factors s cancel):
            G(0) is infinite and the step response grows without bound, so there is no DC gain.
            The message gives k, the number of such poles, and the gain of the asymptote
            K t^k / k!, K = lim_{s->0} s^k G(s) (for k = 1 the velocity constant). python-control's
            ``dcgain`` returns inf here without a word; this one says why.

        Examples
        --------
        >>> from simlab.lti import TF
        >>> TF([1, 0], [1, 2, 0]).dcgain()          # s / (s (s + 2)): the s cancels
        0.5
        >>> TF([2], [1, 0]).dcgain()
        Traceback (most recent call last):
        ...
        ValueError: G has 1 pole at s = 0 (den(0) = 0: an integrator, 积分环节): G(0) is infinite ...
        """
        num, den = self.num, self.den
        if not num.any():
            return 0.0
        while num[-1] == 0 and den[-1] == 0:  # common factors s cancel in the limit s -> 0
            num, den = num[:-1], den[:-1]
        if den[-1] != 0:
            return float(num[-1] / den[-1])
        q = np.trim_zeros(den, "b")  # den = s^k q(s), q(0) != 0
        k = den.size - q.size
        power, ramp = ("", "K t") if k == 1 else (f"^{k}", f"K t^{k} / {math.factorial(k)}")
        raise ValueError(
            f"G has {k} pole{'s' if k > 1 else ''} at s = 0 (den(0) = 0: {'an integrator' if k == 1 else 'integrators'}, "
            f"积分环节): G(0) is infinite and the step response grows without bound (like {ramp}), so G "
            f"has no DC gain. The gain of that asymptote is K = lim s->0 s{power} G(s) = "
            f"{float(num[-1] / q[-1]):.6g}; a closed loop such as G.feedback() can have a DC gain.")

    def to_ss(self):
        """Controllable canonical realisation ``(A, B, C, D)``; see :func:`tf2ss` (and its errors)."""
        from simlab.lti.conversions import tf2ss

        return tf2ss(self.num, self.den)

    def __repr__(self) -> str:
        def text(poly):
            return "[" + ", ".join(f"{c:.6g}" for c in poly) + "]"

        return f"TF(num={text(self.num)}, den={text(self.den)})"

    def __str__(self) -> str:
        top, bottom = _poly_text(self.num), _poly_text(self.den)
        width = max(len(top), len(bottom)) + 2
        return "\n".join([top.center(width).rstrip(), "-" * width, bottom.center(width).rstrip()])
