"""Simulation accuracy (仿真精度): Richardson extrapolation and the observed order of convergence.

Two tools of a-posteriori error analysis for fixed-step simulations, where the global error of a
method of order p behaves like

.. math:: e(h) = x_h - x = C\\,h^p + O(h^{p+1}) .

* **Richardson extrapolation** (理查森外推): two runs with the steps h and h/q are combined into a
  value whose error is O(h^{p+1}), one order more than either run (:func:`richardson`), and the
  difference of the two runs estimates the error of the finer one (:func:`richardson_error`).
  This is the step-halving check of lecture 01 made quantitative.
* **The observed order** (实测阶数) from three runs with h, h/q and h/q^2, without an exact
  solution (:func:`observed_order`): a verification test (校核) for a program whose exact
  answer is unknown. :func:`simlab.stability.fit_order` measures the order when the errors are
  known.

The runs are compared at common time points: for ``q = 2`` the values of the finer run at the
coarse grid are ``fine.x[::2]`` (every second point). Used in course/08 (accuracy and
credibility).
"""

from __future__ import annotations

import math

import numpy as np

from simlab.validation import as_bounded_scalar, as_real_array

__all__ = ["richardson", "richardson_error", "observed_order"]


def _finite(values, names):
    """``values`` (computed from the runs), or ValueError if they overflowed: runs near 1.8e308."""
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{' and '.join(names)} differ by more than the floating-point range (about 1.8e308) "
                         f"at some point; rescale the runs (other units) before comparing them.")
    return values


def _runs(names, values):
    """The runs as float arrays of one shape; ValueError naming the one that differs."""
    arrays = [as_real_array(value, name) for name, value in zip(names, values)]
    for name, array in zip(names[1:], arrays[1:]):
        if array.shape != arrays[0].shape:
            raise ValueError(
                f"{name} must have the shape of {names[0]}, {arrays[0].shape}, got {array.shape}: "
                f"compare the runs at common time points (for ratio 2 the finer run's values at the "
                f"coarse grid are fine.x[::2])."
            )
    return arrays


#: Natural logarithm of the largest float64, about 709.78: q**p must stay below e**_LOG_MAX.
_LOG_MAX = math.log(np.finfo(float).max)


def _order_and_ratio(order, ratio):
    """p and q, checked: p > 0, q > 1, q**p representable in float64 and q**p - 1 not lost to rounding."""
    p = as_bounded_scalar(order, "order", 0.0, open_low=True, why=" (the order p of the method, e(h) ~ h^p)")
    q = as_bounded_scalar(ratio, "ratio", 1.0, open_low=True, why=" (the ratio q of the steps h and h/q)")
    if p * math.log(q) >= _LOG_MAX * (1 - 1e-12):  # before q**p, which would raise a bare OverflowError
        raise ValueError(
            f"order = {p!r} with ratio = {q!r} makes ratio**order about 10^{p * math.log10(q):.0f}, beyond what "
            f"float64 can represent (about 1.8e308): with ratio = {q!r} the order must be below "
            f"{_LOG_MAX / math.log(q):.4g}. order is the order p of the method (1 for Euler, 2 for improved Euler, "
            f"4 for RK4).")
    if q**p - 1.0 <= 1e-12:
        raise ValueError(
            f"ratio**order - 1 = {q**p - 1.0:.3g} is too close to 0 (ratio = {q!r}, order = {p!r}): "
            f"the two runs would not differ by their error; use steps that differ more, ratio = 2."
        )
    return p, q


def richardson_error(coarse, fine, order, ratio=2):
    """Estimated global error of the finer of two runs, from their difference.

    With e(h) = C h^p and the steps h (``coarse``) and h/q (``fine``),

    .. math::
        x_h - x_{h/q} = C h^p\\,(1 - q^{-p}) \\quad\\Longrightarrow\\quad
        e(h/q) = x_{h/q} - x \\approx \\frac{x_h - x_{h/q}}{q^p - 1} .

    Parameters
    ----------
    coarse, fine : array_like, same shape
        The runs with the steps h and h/q at common time points (any unit).
    order : float
        Order p of the method (p > 0): 1 for Euler, 2 for improved Euler, 4 for RK4.
    ratio : float, optional
        Ratio q > 1 of the two steps (default 2: step halving).

    Returns
    -------
    ndarray, shape of ``coarse``
        The estimated error x_{h/q} - x of ``fine`` (same unit as the runs).

    Raises
    ------
    TypeError
        If a run or a number is not numeric.
    ValueError
        If the runs differ in shape, contain NaN or inf, or differ by more than the
        floating-point range; if ``order <= 0`` or ``ratio <= 1``, or ratio**order is beyond
        what float64 can represent (order below 709.78 / ln(ratio): 1024 for ratio 2, so
        ``order=2000`` is refused) or too close to 1.

    Examples
    --------
    Euler on x' = x, x(0) = 1, to t = 1 with h = 1/2 and 1/4 (exact e = 2.71828...):

    >>> from simlab.accuracy import richardson_error
    >>> coarse, fine = 1.5**2, 1.25**4
    >>> float(richardson_error(coarse, fine, order=1)), round(fine - 2.718281828, 4)
    (-0.19140625, -0.2769)
    """
    coarse, fine = _runs(("coarse", "fine"), (coarse, fine))
    p, q = _order_and_ratio(order, ratio)
    with np.errstate(over="ignore", invalid="ignore"):
        # e(h/q) ~ (x_h - x_{h/q}) / (q^p - 1)
        return _finite((coarse - fine) / (q**p - 1.0), ("coarse", "fine"))


def richardson(coarse, fine, order, ratio=2):
    """Richardson extrapolation (理查森外推): a value of order p + 1 from runs with h and h/q.

    .. math::
        x^* = x_{h/q} + \\frac{x_{h/q} - x_h}{q^p - 1}
        = \\frac{q^p\\,x_{h/q} - x_h}{q^p - 1}, \\qquad x^* - x = O(h^{p+1})

    The leading error term C h^p cancels; what is left is the next term of the error expansion.
    For the Runge-Kutta methods of the course that term is h^{p+1}, so the extrapolated values
    converge with order p + 1 (course/08 measures it).

    Parameters
    ----------
    coarse, fine : array_like, same shape
        The runs with the steps h and h/q at common time points.
    order : float
        Order p of the method (p > 0).
    ratio : float, optional
        Ratio q > 1 of the two steps (default 2).

    Returns
    -------
    ndarray, shape of ``coarse``
        The extrapolated values x* (same unit as the runs).

    Raises
    ------
    TypeError, ValueError
        As :func:`richardson_error`.

    Examples
    --------
    An error that is exactly C h^2 is removed completely:

    >>> from simlab.accuracy import richardson
    >>> exact, C, h = 1.0, 3.0, 0.1
    >>> float(richardson(exact + C * h**2, exact + C * (h / 2) ** 2, order=2))
    1.0
    """
    coarse, fine = _runs(("coarse", "fine"), (coarse, fine))
    p, q = _order_and_ratio(order, ratio)
    with np.errstate(over="ignore", invalid="ignore"):
        # x* = x_{h/q} + (x_{h/q} - x_h) / (q^p - 1)
        return _finite(fine + (fine - coarse) / (q**p - 1.0), ("coarse", "fine"))


def observed_order(coarse, medium, fine, ratio=2):
    """Observed order of convergence (实测阶数) from three runs, without an exact solution.

    With the steps h, h/q, h/q^2 and e(h) = C h^p, the differences of successive runs shrink by
    q^p:

    .. math::
        p_{obs} = \\frac{\\log\\left(\\|x_h - x_{h/q}\\|_\\infty / \\|x_{h/q} - x_{h/q^2}\\|_\\infty\\right)}{\\log q}

    (the largest difference over the common time points). A program that is meant to be of order
    p and shows another observed order has a bug, even if its curves look right.

    Parameters
    ----------
    coarse, medium, fine : array_like, same shape
        The runs with the steps h, h/q and h/q^2 at common time points.
    ratio : float, optional
        Ratio q > 1 of successive steps (default 2).

    Returns
    -------
    float
        The observed order p_obs.

    Raises
    ------
    TypeError
        If a run or ``ratio`` is not numeric.
    ValueError
        If the runs differ in shape, contain NaN or inf, differ by more than the floating-point
        range, ``ratio <= 1``, or two successive runs are equal (no difference to measure: the
        method is exact for this problem, or the rounding error has taken over).

    Examples
    --------
    >>> from simlab.accuracy import observed_order
    >>> h = 0.1
    >>> round(observed_order(1 + 2 * h**4, 1 + 2 * (h / 2) ** 4, 1 + 2 * (h / 4) ** 4), 6)
    4.0
    """
    coarse, medium, fine = _runs(("coarse", "medium", "fine"), (coarse, medium, fine))
    q = as_bounded_scalar(ratio, "ratio", 1.0, open_low=True, why=" (the ratio q of successive steps)")
    with np.errstate(over="ignore", invalid="ignore"):
        first = float(np.max(np.abs(_finite(coarse - medium, ("coarse", "medium"))))) if coarse.size else 0.0
        second = float(np.max(np.abs(_finite(medium - fine, ("medium", "fine"))))) if coarse.size else 0.0
    if first == 0.0 or second == 0.0:
        pair = "coarse and medium" if first == 0.0 else "medium and fine"
        raise ValueError(
            f"the runs {pair} are equal (largest difference 0), so no order can be observed: the "
            f"method is exact for this problem, or the steps are so small that only rounding is left."
        )
    # p = log(|x_h - x_{h/q}| / |x_{h/q} - x_{h/q^2}|) / log q
    return (math.log(first) - math.log(second)) / math.log(q)  # first / second may overflow
