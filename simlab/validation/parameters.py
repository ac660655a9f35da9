"""Argument checking for options: flags, counts and intervals (issue 14).

Part of :mod:`simlab.validation`, which re-exports every name here (import them from there):
:func:`as_flag` for a yes/no option such as ``seed_compatible``, :func:`as_count` for a whole
number within bounds (points per axis of a grid, states to keep) and :func:`as_interval` for a
range ``(low, high)`` of finite numbers (an axis of the complex plane). Used by
:mod:`simlab.structure` and :mod:`simlab.stability`.
"""

from __future__ import annotations

import numbers

import numpy as np

from simlab.validation import as_finite_scalar, describe

__all__ = ["as_flag", "as_count", "as_interval", "as_instance", "as_bounded_scalar"]


def as_flag(value, name: str) -> bool:
    """Check a yes/no option: ``True`` or ``False`` (numpy's bool too), returned as a bool.

    Anything else is refused, 1, ``"yes"`` and None included, so that a misplaced argument
    does not silently count as true or false.

    Raises
    ------
    TypeError
        If ``value`` is not a bool; the message names the argument and shows the value.

    Examples
    --------
    >>> as_flag(True, "seed_compatible")
    True
    >>> as_flag("yes", "seed_compatible")
    Traceback (most recent call last):
    ...
    TypeError: seed_compatible must be True or False, got 'yes' (type str).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}.")
    return bool(value)


def as_count(value, name: str, *, minimum: int = 1, maximum: int | None = None,
             meaning: str = "") -> int:
    """Check a whole number ``minimum <= value <= maximum`` (Python or numpy integer, not bool).

    ``meaning`` follows the bounds in the message, e.g. ``" (points per axis)"``.

    Raises
    ------
    TypeError
        If ``value`` is not an integer (2.5, 3.0, ``"3"``, True and NaN are refused).
    ValueError
        If it is out of bounds; the message gives the bounds and the value.

    Examples
    --------
    >>> as_count(301, "n", minimum=2, maximum=1001)
    301
    >>> as_count(0, "n", minimum=2, maximum=1001, meaning=" (points per axis)")
    Traceback (most recent call last):
    ...
    ValueError: n must be between 2 and 1001 (points per axis), got 0.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer{meaning}, got {describe(value)}.")
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"between {minimum} and {maximum}"
        raise ValueError(f"{name} must be {bounds}{meaning}, got {value}.")
    return value


def as_interval(value, name: str) -> tuple[float, float]:
    """Check a range ``(low, high)`` of two finite real numbers with low < high.

    Raises
    ------
    TypeError
        If ``value`` is not a pair, or an end is not a real number.
    ValueError
        If an end is NaN or inf, or ``low >= high``.

    Examples
    --------
    >>> as_interval((-4, 1), "re")
    (-4.0, 1.0)
    >>> as_interval((1.0, 1.0), "re")
    Traceback (most recent call last):
    ...
    ValueError: re must be a range (low, high) with low < high, got (1.0, 1.0).
    """
    try:
        pair = not isinstance(value, (str, bytes)) and len(value) == 2 and np.ndim(value) == 1
    except (TypeError, ValueError):  # no len(), or ragged
        pair = False
    if not pair:
        raise TypeError(f"{name} must be a pair (low, high) of numbers, got {describe(value)}.")
    low = as_finite_scalar(value[0], f"{name}[0] (low)")
    high = as_finite_scalar(value[1], f"{name}[1] (high)")
    if not low < high:
        raise ValueError(f"{name} must be a range (low, high) with low < high, got ({low!r}, {high!r}).")
    return low, high


def as_instance(value, name: str, cls, what: str):
    """Check that ``value`` is an instance of ``cls`` (``what`` says which, for the TypeError)."""
    if not isinstance(value, cls):
        raise TypeError(f"{name} must be {what}, got {describe(value)}.")
    return value


def as_bounded_scalar(value, name: str, low=-np.inf, high=np.inf, *, open_low=False, open_high=False,
                      why: str = "") -> float:
    """A finite real number in [low, high] (an end left out with ``open_low``, ``open_high``).

    Raises TypeError if ``value`` is not a real number, ValueError if it is NaN, inf or outside
    the interval (the message gives the interval, then ``why``).
    """
    value = as_finite_scalar(value, name)
    if value < low or value > high or (open_low and value == low) or (open_high and value == high):
        interval = f"{'(' if open_low else '['}{low:g}, {high:g}{')' if open_high else ']'}"
        raise ValueError(f"{name} must lie in {interval}, got {value!r}{why}.")
    return value
