"""Argument checking (参数检查): every checker that simlab's public functions use, in one place.

Every public function validates its arguments once, at the boundary, through these helpers, so
that a student who passes the wrong thing gets a ``TypeError`` or ``ValueError`` whose message
names the argument, shows what was received and says what was expected. Nothing here is part of
the teaching API; the helpers are public so that course code and extensions check alike.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "as_real_array",
    "as_finite_scalar",
    "as_positive_scalar",
    "as_time_span",
    "as_callable",
    "as_choice",
    "describe",
]


def describe(value) -> str:
    """Short human description of ``value`` for error messages (type, and shape for arrays)."""
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} and dtype {value.dtype}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (type {type(value).__name__})"


def as_real_array(value, name: str, *, ndim: int | None = None, allow_complex: bool = False):
    """Convert ``value`` to a float (or complex) ndarray and check that it is finite.

    Raises
    ------
    TypeError
        If ``value`` is not numeric.
    ValueError
        If it has the wrong number of dimensions or contains NaN or inf.
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a number or an array of numbers, got {describe(value)}.")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise TypeError(
            f"{name} must be a number or a rectangular array of numbers, got {describe(value)}."
        ) from exc
    if array.dtype == bool or not (
        np.issubdtype(array.dtype, np.number)
    ):
        raise TypeError(
            f"{name} must contain numbers, got {describe(value)} with dtype {array.dtype}."
        )
    if np.iscomplexobj(array):
        if not allow_complex:
            raise TypeError(f"{name} must be real, got complex values: {describe(value)}.")
        array = array.astype(complex)
    else:
        array = array.astype(float)
    if ndim is not None and array.ndim != ndim:
        raise ValueError(
            f"{name} must be {ndim}-dimensional, got an array of shape {array.shape}."
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (no NaN or inf), got {describe(value)}.")
    return array


def as_finite_scalar(value, name: str) -> float:
    """Return ``value`` as a float, checking that it is a finite real number."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        if isinstance(value, np.ndarray) and value.shape == () and np.isrealobj(value):
            value = value.item()
        else:
            raise TypeError(f"{name} must be a real number, got {describe(value)}.")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    return value


def as_positive_scalar(value, name: str) -> float:
    """Return ``value`` as a float, checking that it is finite and strictly positive."""
    value = as_finite_scalar(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}.")
    return value


def as_time_span(t_span, name: str = "t_span") -> tuple[float, float]:
    """Check a time span ``(t0, t1)`` with finite ends and ``t1 > t0``."""
    if isinstance(t_span, (str, bytes)) or np.ndim(t_span) != 1 or len(t_span) != 2:
        raise ValueError(
            f"{name} must be a pair (t0, t1), got {describe(t_span)}. "
            f"Example: {name}=(0, 2)."
        )
    t0 = as_finite_scalar(t_span[0], f"{name}[0] (t0)")
    t1 = as_finite_scalar(t_span[1], f"{name}[1] (t1)")
    if t1 < t0:
        raise ValueError(
            f"{name} is reversed: t0 = {t0!r} > t1 = {t1!r}. simlab integrates forward in time; "
            f"pass ({t1!r}, {t0!r}) or substitute tau = -t."
        )
    if t1 == t0:
        raise ValueError(f"{name} is empty: t0 = t1 = {t0!r}. Give an end time t1 > t0.")
    return t0, t1


def as_callable(f, name: str = "f"):
    """Check that ``f`` can be called."""
    if not callable(f):
        raise TypeError(
            f"{name} must be a function f(t, x) that returns dx/dt, got {describe(f)}."
        )
    return f


def as_choice(value, name: str, choices, meaning: str = ""):
    """Check that ``value`` is one of the strings in ``choices`` (a sequence or a mapping's keys).

    ``meaning`` is appended to the list of choices in the message, for example
    ``" (zero-order or triangle hold)"``.

    Examples
    --------
    >>> as_choice("rk4", "method", ("euler", "rk4"))
    'rk4'
    >>> as_choice("RK4", "method", ("euler", "rk4"))
    Traceback (most recent call last):
    ...
    ValueError: method must be one of 'euler', 'rk4', got 'RK4' (type str).
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(c) for c in choices)}{meaning}, "
            f"got {describe(value)}."
        )
    return value
