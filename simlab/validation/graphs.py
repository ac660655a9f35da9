"""Argument checking for structure graphs (结构图): typical elements and connection matrices.

Part of :mod:`simlab.validation`, which re-exports every name here (import them from there):
:func:`as_structure_graph` holds the shape rules of ``(P, W, W0, Wc)``, :func:`as_typical_element`
the rule for one element ``[A, B, C, D]``, and :func:`as_input_function` the rule for the
external input ``r`` (a number, q values or a function of t). Used by :mod:`simlab.structure`
and :mod:`simlab.elementwise`.
"""

from __future__ import annotations

import math

import numpy as np

from simlab.validation import _as_matrix, as_real_array, describe

__all__ = ["as_structure_graph", "as_typical_element", "as_input_function"]


def _zero_denominator_elements(P):
    """1-based numbers of the elements with A_i = B_i = 0, over every parameter set of P."""
    rows = P.reshape(-1, P.shape[-2], 4)
    empty = np.argwhere((rows[:, :, 0] == 0) & (rows[:, :, 1] == 0))
    return sorted({int(i) + 1 for i in empty[:, 1]})


def as_typical_element(row, name: str = "row"):
    """Check one typical element ``[A, B, C, D]`` of G(s) = (C + D s)/(A + B s), shape (4,).

    The rule for every element of a structure graph (see :func:`as_structure_graph`): the
    denominator A + B s must not be zero, so A or B is non-zero. Raises TypeError or ValueError
    (naming ``name``) for non-numeric or non-finite values, a shape other than (4,), or
    A = B = 0.

    Examples
    --------
    >>> as_typical_element([1, 0.5, 2, 0])
    array([1. , 0.5, 2. , 0. ])
    """
    row = as_real_array(row, name, ndim=1)
    if row.shape != (4,):
        raise ValueError(f"{name} must be [A, B, C, D], got shape {row.shape}.")
    if _zero_denominator_elements(row.reshape(1, 4)):
        raise ValueError(f"{name} has A = B = 0: the element's denominator A + B s is zero.")
    return row


def _as_connections(W, W0, Wc, n):
    W = as_real_array(W, "W")
    if W.ndim == 0 and n == 1:
        W = W.reshape(1, 1)
    if W.shape != (n, n):
        raise ValueError(
            f"W must be square with one row and column per element, shape ({n}, {n}) for the "
            f"{n} rows of P; got shape {W.shape}."
        )
    W0, received = _as_matrix(W0, "W0", "column")  # the rules of B: a vector is one input
    if W0.shape[0] != n:
        raise ValueError(
            f"W0 must have one row per element, shape ({n}, m) for m external inputs; got "
            f"shape {received}."
        )
    if W0.shape[1] == 0:
        raise ValueError(f"W0 must have at least one column, one per external input; got shape "
                         f"{received}.")
    Wc, received = _as_matrix(Wc, "Wc", "row")  # the rules of C: a vector is one output
    if Wc.shape[1] != n:
        raise ValueError(
            f"Wc must have one column per element, shape (p, {n}) for p outputs; got shape "
            f"{received}."
        )
    if Wc.shape[0] == 0:
        raise ValueError(f"Wc must have at least one row, one per output; got shape {received}.")
    return W, W0, Wc


def as_structure_graph(P, W, W0, Wc):
    """Check a structure graph (P, W, W0, Wc) and return it as float arrays.

    Shape rules, for n typical elements, m external inputs and p outputs:

    * ``P``: one row [A_i, B_i, C_i, D_i] per element, shape (n, 4) (a single row (4,) is
      (1, 4)), or a batch of parameter sets (k, n, 4); every element needs A_i or B_i non-zero
      (:func:`as_typical_element`). n >= 1: a graph without elements has no output at all
      (y_out = Wc y holds element outputs only), so it is not a static gain and is refused.
    * ``W``: (n, n), the element inputs u = W y + W0 r; a number when n = 1.
    * ``W0``: (n, m); ``Wc``: (p, n). A 1-D W0 is one input column and a 1-D Wc one output row,
      the rules of B and C in :func:`as_state_space`.

    Returns
    -------
    P, W, W0, Wc : ndarray, shapes (n, 4) or (k, n, 4), (n, n), (n, m), (p, n)

    Raises
    ------
    TypeError, ValueError
        For non-numeric or non-finite entries, inconsistent shapes (the message names the
        argument and the shape expected), or an element with A_i = B_i = 0 (the message gives
        its number, 1-based).

    Examples
    --------
    >>> P, W, W0, Wc = as_structure_graph([[1, 1, 1, 0]], 0, [1], [1])
    >>> P.shape, W.shape, W0.shape, Wc.shape
    ((1, 4), (1, 1), (1, 1), (1, 1))
    """
    P = as_real_array(P, "P")
    if P.ndim == 1 and P.size == 4:
        P = P.reshape(1, 4)
    if P.ndim not in (2, 3) or P.shape[-1] != 4:
        raise ValueError(
            f"P must have one row [A_i, B_i, C_i, D_i] per element, shape (n, 4) (or a batch of "
            f"shape (m, n, 4)); got shape {P.shape}."
        )
    n = P.shape[-2]
    if n == 0:
        raise ValueError(
            f"P has no rows: a structure graph needs at least one typical element, shape (n, 4) "
            f"with n >= 1; got shape {P.shape}. Without elements there is no output: y_out = Wc y "
            f"holds element outputs only."
        )
    W, W0, Wc = _as_connections(W, W0, Wc, n)
    elements = _zero_denominator_elements(P)
    if elements:
        raise ValueError(
            f"P: element(s) {elements} have A_i = B_i = 0, a zero denominator A_i + B_i s. Each "
            f"typical element needs A_i or B_i non-zero."
        )
    return P, W, W0, Wc


def _input_value(raw, q, name, t):
    """What ``r(t)`` returned, as a float array; TypeError or ValueError naming r and t."""
    if isinstance(raw, float):  # the common case, one number: the cheap check
        if not math.isfinite(raw):
            raise ValueError(
                f"{name}(t) must return finite input values; {name}({t!r}) returned {raw!r}. Check "
                f"{name} for a division by zero or a log of a non-positive number at t = {t!r}."
            )
        return np.asarray(raw, dtype=float)
    try:
        value = np.asarray(raw)
    except (TypeError, ValueError):  # ragged lists and the like
        value = np.asarray(None)
    if value.dtype.kind not in "biuf":  # bool (t >= 1) and integers are numbers here
        raise TypeError(
            f"{name}(t) must return a number or a vector of q = {q} real input values; "
            f"{name}({t!r}) returned {describe(raw)}."
        )
    value = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(value)):
        raise ValueError(
            f"{name}(t) must return finite input values; {name}({t!r}) returned "
            f"{describe(raw)} with NaN or inf in it."
        )
    return value


def as_input_function(r, q: int, name: str = "r"):
    """External input(s) of a structure graph as a function of t returning shape (q,).

    ``r`` may be a number (every input that value: a step switched on at t0), a vector of q
    values, or a function ``r(t)`` returning a number or q values. A function's values are
    checked at every call, so that a NaN or inf input is reported as the input's fault, with
    the time, rather than as a state that blew up.

    Raises
    ------
    TypeError
        If ``r`` (or what ``r(t)`` returns) is not numeric, or is complex.
    ValueError
        If it has the wrong shape or contains NaN or inf; a function's error names t. The
        function returned raises these when it is called.

    Examples
    --------
    >>> r = as_input_function(2.0, 3)
    >>> r(0.5)
    array([2., 2., 2.])
    >>> as_input_function(lambda t: float("nan"), 1)(0.25)
    Traceback (most recent call last):
    ...
    ValueError: r(t) must return finite input values; r(0.25) returned nan. Check r for a ...
    """
    if callable(r):
        def function(t):
            value = _input_value(r(t), q, name, t)
            try:
                return np.broadcast_to(value, (q,))
            except ValueError:
                raise ValueError(
                    f"{name}(t) must return a number or a vector of q = {q} input values, shape "
                    f"({q},); {name}({t!r}) returned an array of shape {value.shape}."
                ) from None
        return function
    value = as_real_array(r, name)
    if value.ndim == 0:
        value = np.full(q, float(value))
    if value.shape != (q,):
        raise ValueError(
            f"{name} must be a number, a vector of {q} input values or a function {name}(t); got "
            f"{describe(r)}."
        )
    return lambda t: value
