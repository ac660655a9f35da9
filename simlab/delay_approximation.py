"""Padé approximants against the exact delay: what a rational e^{-tau s} gets wrong in a step response.

A plant G(s) with dead time, G(s) e^{-tau s}, has the step response y(t) = y_G(t - tau): nothing
until tau, then the plant's response. :func:`simlab.similarity.lsim` with ``input_delay=tau``
gives it exactly. A model with the Padé approximant P_n(s) (帕德近似, :func:`simlab.lti.pade`)
in place of the delay, G(s) P_n(s), is rational, so every linear tool takes it, but at the start
of a step it is wrong in a characteristic way: P_n is all-pass with n right-half-plane zeros, so

* the response does not wait: at t = 0+ it jumps to lim_{s -> inf} G(s) P_n(s) = (-1)^n G(inf)
  (-1 for the approximant alone at order 1), and for a strictly proper G it starts with the
  slope of (-1)^n times that of y_G, the wrong way for odd n (an undershoot, 反向响应);
* the higher orders ring about zero before tau, with a smaller error at each order;
* after tau the error decays, and the approximant's response crosses the exact one.

:func:`compare_pade` runs both on a grid and reports these numbers per order
(:class:`PadeStep`). Used in lab11 (delay and sampled-data systems).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simlab.delay import _split
from simlab.lti import pade, series, tf2ss
from simlab.lti.pade_approximant import MAX_PADE_ORDER
from simlab.results import Result
from simlab.similarity import lsim
from simlab.validation import as_positive_scalar, as_real_array, describe
from simlab.validation.parameters import as_count

__all__ = ["PadeStep", "PadeComparison", "compare_pade"]


@dataclass(frozen=True)
class PadeStep:
    """Step response of G(s) P_n(s), one Padé order n, against the exact G(s) e^{-tau s}.

    Attributes
    ----------
    order : int
        The order n of the approximant.
    initial_value : float
        y_n(t0), the value right after the step (0+): (-1)^n G(inf), in the unit of y.
    max_error : float
        Largest error on the grid, max_k |y_n(t_k) - y(t_k)|, in the unit of y.
    t_max_error : float
        Where it occurs (the first grid time if it repeats), in the unit of t.
    max_error_before_tau : float
        Largest |y_n(t_k) - y(t_k)| for t_k < t0 + tau, where the exact response is still 0:
        how far the approximant moves (jumps, undershoots, rings) before the delay has passed.
    first_crossing : float
        The first time the error y_n - y changes sign, by linear interpolation between the two
        grid points around it (in the unit of t): for a plant at rest, where the approximant's
        response first meets the exact one. NaN if the error never changes sign on the grid.
    y : ndarray, shape (N + 1,)
        The response y_n(t_k) (not shown in the repr).
    """

    order: int
    initial_value: float
    max_error: float
    t_max_error: float
    max_error_before_tau: float
    first_crossing: float
    y: np.ndarray = field(repr=False)


@dataclass(frozen=True, repr=False)
class PadeComparison(Result):
    """Result of :func:`compare_pade`; unpacks as ``t, y`` (the exact delayed step response).

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        The grid; the unit step is switched on at t[0].
    y : ndarray, shape (N + 1,)
        The exact response of G(s) e^{-tau s} (zero until t[0] + tau).
    tau : float
        The delay.
    rows : tuple of PadeStep
        One per order, in the order asked for; :meth:`order` picks one by its order (ValueError,
        also a KeyError, for an order not compared).
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    y: np.ndarray
    tau: float
    rows: tuple

    def order(self, n):
        """The :class:`PadeStep` of order n.

        Raises TypeError if n is not an integer, and ValueError (naming n) if that order was not
        compared (a subclass of KeyError too, as before).
        """
        n = as_count(n, "n", minimum=1, maximum=MAX_PADE_ORDER, meaning=" (a Padé order)")
        for row in self.rows:
            if row.order == n:
                return row
        compared = [row.order for row in self.rows]
        raise _OrderNotCompared(f"order n = {n} was not compared; the orders are {compared}: pass it in orders= of "
                                f"compare_pade.")

    def __repr__(self):
        return (f"PadeComparison(tau={self.tau:g}, steps={len(self.t) - 1}, "
                f"orders={tuple(row.order for row in self.rows)})")


class _OrderNotCompared(ValueError, KeyError):
    """An order that :func:`compare_pade` did not compute (a ValueError; a KeyError as it used to be)."""

    def __str__(self):  # KeyError's str would show the message quoted
        return str(self.args[0])


def _as_orders(orders):
    """A non-empty sequence of distinct Padé orders 1..10, as a tuple of ints."""
    if isinstance(orders, (str, bytes)) or not hasattr(orders, "__len__") or np.ndim(orders) != 1:
        raise TypeError(f"orders must be a sequence of Padé orders such as (1, 2, 3, 4), got "
                        f"{describe(orders)}.")
    if len(orders) == 0:
        raise ValueError("orders must name at least one Padé order, e.g. orders=(1, 2, 3, 4).")
    checked = tuple(as_count(n, "orders", minimum=1, maximum=MAX_PADE_ORDER, meaning=" (each order)")
                    for n in orders)
    if len(set(checked)) != len(checked):
        raise ValueError(f"orders must be distinct, got {list(checked)}.")
    return checked


def _first_crossing(t, e):
    """First time e changes sign (linear interpolation); NaN if it never does."""
    sign = np.sign(e)
    nonzero = np.flatnonzero(sign)
    if not nonzero.size:
        return float("nan")
    start = nonzero[0]
    opposite = np.flatnonzero(sign[start:] == -sign[start])
    if not opposite.size:
        return float("nan")
    k = start + opposite[0]  # e[k - 1] has the first sign, or is 0; e[k] the other sign
    return float(t[k - 1] + e[k - 1] / (e[k - 1] - e[k]) * (t[k] - t[k - 1]))


def compare_pade(num, den, tau, t, orders=(1, 2, 3, 4)):
    """Unit step response of G(s) e^{-tau s}, exact and with Padé approximants of orders n.

    .. math::
        y(t) = \\mathcal{L}^{-1}\\Big[\\frac{G(s) e^{-\\tau s}}{s}\\Big],\\qquad
        y_n(t) = \\mathcal{L}^{-1}\\Big[\\frac{G(s) P_n(s)}{s}\\Big],\\qquad
        P_n = \\frac{Q_n(-\\tau s)}{Q_n(\\tau s)}

    y by :func:`simlab.similarity.lsim` with ``input_delay=tau`` (exact at the grid points: a
    step is a held input), y_n by ``lsim`` of ``tf2ss(series(G, pade(tau, n)))``, also exact at
    the grid points. For each order the result gives y_n(0+), the largest error, where it is,
    the largest error before tau and the first crossing of y_n and y (:class:`PadeStep`).
    ``num = den = [1]`` compares the approximants with the delay alone (its exact step response
    is the unit step at tau).

    Parameters
    ----------
    num, den : array_like
        G(s) in descending powers of s, proper (deg num <= deg den), as for
        :func:`simlab.lti.tf2ss`.
    tau : float
        Delay tau > 0, in the unit of t.
    t : array_like, shape (N + 1,)
        Uniform increasing grid; the step is switched on at t[0].
    orders : sequence of int
        Distinct Padé orders from 1 to 10 (default 1, 2, 3, 4).

    Returns
    -------
    PadeComparison
        Unpacks as ``t, y``; ``.rows`` holds one :class:`PadeStep` per order,
        ``.order(n)`` picks one.

    Raises
    ------
    TypeError, ValueError
        For num or den that are not a proper transfer function (see :func:`simlab.lti.tf2ss`),
        tau not finite and positive or of more than :data:`simlab.guards.MAX_STEPS` grid steps
        (:func:`simlab.delay.split_delay`), a t that is not a uniform increasing grid (see
        :func:`simlab.similarity.lsim`), orders that are not distinct integers from 1 to 10, or
        a product G(s) P_n(s) whose coefficients leave the floating-point range (the message
        names num, den).

    Examples
    --------
    The delay alone, tau = 1: the order-1 approximant's step response is 1 - 2 e^{-2t}; it
    starts at -1 and crosses the exact response (0 until tau) at ln(2) / 2 = 0.3466.

    >>> import numpy as np
    >>> from simlab.delay_approximation import compare_pade
    >>> result = compare_pade([1.0], [1.0], tau=1.0, t=np.linspace(0, 5, 5001), orders=(1, 2))
    >>> first = result.order(1)
    >>> first.initial_value, round(first.first_crossing, 4), first.max_error
    (-1.0, 0.3466, 1.0)
    >>> result.order(2).initial_value
    1.0
    """
    tau = as_positive_scalar(tau, "tau")
    orders = _as_orders(orders)
    A, B, C, D = tf2ss(num, den)
    t = as_real_array(t, "t", ndim=1)
    if len(t) > 1 and t[1] > t[0]:  # the delay in grid steps, named tau here (lsim checks the grid)
        _split(tau, float(t[1] - t[0]), ("tau", "t[1] - t[0]"))
    step = np.ones(len(t))
    exact = lsim(A, B, C, D, step, t, input_delay=tau)
    rows = []
    for n in orders:
        try:
            plant = series(num, den, *pade(tau, n))
        except ValueError as error:  # the product's coefficients out of range: name the arguments
            raise ValueError(f"num, den (G(s)) times the Padé approximant of order {n} of tau = {tau!r}: "
                             f"{error}") from None
        y_n = lsim(*tf2ss(*plant), step, t).y
        error = np.abs(y_n - exact.y)
        k = int(np.argmax(error))
        before = error[exact.t < exact.t[0] + tau]
        rows.append(PadeStep(order=n, initial_value=float(y_n[0]), max_error=float(error[k]),
                             t_max_error=float(exact.t[k]), max_error_before_tau=float(before.max(initial=0.0)),
                             first_crossing=_first_crossing(exact.t, y_n - exact.y), y=y_n))
    return PadeComparison(t=exact.t, y=exact.y, tau=tau, rows=tuple(rows))
