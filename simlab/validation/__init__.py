"""Argument checking (参数检查): every checker that simlab's public functions use, in one place.

Every public function validates its arguments once, at the boundary, through these helpers, so
that a student who passes the wrong thing gets a ``TypeError`` or ``ValueError`` whose message
names the argument, shows what was received and says what was expected. Nothing here is part of
the teaching API; the helpers are public so that course code and extensions check alike.

Scalars, arrays, time spans and choices: :func:`as_real_array`, :func:`as_finite_scalar`,
:func:`as_positive_scalar`, :func:`as_time_span`, :func:`as_callable`, :func:`as_choice`,
:func:`as_hold`. Linear models: :func:`as_state_equation` and :func:`as_state_space` hold the one
set of shape rules for ``(A, B, C, D)`` (used by ``lti``, ``similarity`` and ``implicit``), and
:func:`as_initial_state` the one rule for ``x0``. Structure graphs: :func:`as_structure_graph`,
:func:`as_typical_element` and :func:`as_input_function` (used by ``structure`` and
``elementwise``). Options: :func:`as_flag`, :func:`as_count` and :func:`as_interval`.

The package keeps the checkers of one kind per module: this one holds the general ones and the
linear models, :mod:`simlab.validation.graphs` the structure graphs and
:mod:`simlab.validation.parameters` the options; every name is imported from here,
``from simlab.validation import as_structure_graph``.
"""

from __future__ import annotations

import inspect

import numbers

import numpy as np

__all__ = [
    "as_real_array",
    "as_finite_scalar",
    "as_positive_scalar",
    "as_time_span",
    "as_callable",
    "as_choice",
    "as_hold",
    "HOLDS",
    "as_state_equation",
    "as_state_space",
    "as_initial_state",
    "as_structure_graph",
    "as_typical_element",
    "as_input_function",
    "describe",
]


def describe(value) -> str:
    """Short human description of ``value`` for error messages (type, and shape for arrays).

    The repr is cut to 60 characters; nothing is checked, so nothing is raised for a value.
    """
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
    """Return ``value`` as a float, checking that it is a finite real number.

    Raises TypeError if it is not a real number (bool, str, complex and arrays of more than one
    value included) and ValueError if it is NaN or inf; the message names the argument.
    """
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
    """Return ``value`` as a float, checking that it is finite and strictly positive.

    Raises as :func:`as_finite_scalar`, and ValueError if it is zero or negative.
    """
    value = as_finite_scalar(value, name)
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}.")
    return value


def as_state(x0, name: str = "x0", allow_complex: bool = True):
    """``x0`` as a float (or complex) array with at least one value; TypeError or ValueError naming it.

    Raises as :func:`as_real_array`, and ValueError for an empty array (a state needs at least one
    value).
    """
    x0 = as_real_array(x0, name, allow_complex=allow_complex)
    if x0.size == 0:
        raise ValueError(f"{name} must hold at least one value (one per state), got an empty array of shape "
                         f"{x0.shape}. Example: {name}=1.0 or {name}=[1.0, 0.0].")
    return x0


def as_time_span(t_span, name: str = "t_span") -> tuple[float, float]:
    """Check a time span ``(t0, t1)`` with finite ends and ``t1 > t0``.

    Raises ValueError if it is not a pair, reversed or empty, and the errors of
    :func:`as_finite_scalar` for an end (named ``t_span[0] (t0)`` or ``t_span[1] (t1)``).
    """
    try:
        ndim = np.ndim(t_span)
    except (TypeError, ValueError):  # a ragged sequence such as (0, [1, 2])
        ndim = None
    if isinstance(t_span, (str, bytes)) or ndim != 1 or len(t_span) != 2:
        raggedness = "the ragged sequence " if ndim is None else ""
        raise ValueError(
            f"{name} must be a pair (t0, t1), got {raggedness}{describe(t_span)}. "
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


def as_callable(f, name: str = "f", *, call: str | None = None, returns: str = "dx/dt"):
    """Check that ``f`` can be called, and, with ``call``, called as it will be; TypeError naming it otherwise.

    Parameters
    ----------
    f : object
        The argument.
    name : str
        The argument's name, for messages.
    call : str, optional
        How the caller will call it, e.g. ``"f(t, x)"`` or ``"u(t)"``: its number of positional
        arguments is checked against ``f``'s signature *before* the first call, so that a function
        with the wrong signature (``lambda x: x``) gets a message that names the argument and shows
        the expected call, instead of Python's own TypeError from deep inside a loop. Functions
        whose signature Python cannot read (some builtins, numpy ufuncs) are accepted as they are.
    returns : str
        What ``f`` returns, for the message.

    Examples
    --------
    >>> from simlab.validation import as_callable
    >>> as_callable(lambda x: x, "f", call="f(t, x)")
    Traceback (most recent call last):
    ...
    TypeError: f must be a function that can be called as f(t, x) and returns dx/dt; got a function with the signature (x), which takes 1 positional argument. Write it as def f(t, x): ... (the arguments in this order).
    """
    if not callable(f):
        expected = call or f"{name}(t, x)"
        raise TypeError(
            f"{name} must be a function that can be called as {expected} and returns {returns}, got {describe(f)}."
        )
    if call is None:
        return f
    count = call.count(",") + 1 if "()" not in call else 0
    try:
        signature = inspect.signature(f)
    except (TypeError, ValueError):  # builtins and ufuncs without a readable signature
        return f
    try:
        signature.bind(*range(count))
    except TypeError:
        positional = [p for p in signature.parameters.values()
                      if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        takes = len(positional)
        raise TypeError(
            f"{name} must be a function that can be called as {call} and returns {returns}; got a function with "
            f"the signature {signature}, which takes {takes} positional argument{'s' if takes != 1 else ''}. "
            f"Write it as def {call}: ... (the arguments in this order)."
        ) from None
    return f


def as_choice(value, name: str, choices, meaning: str = ""):
    """Check that ``value`` is one of the strings in ``choices`` (a sequence or a mapping's keys).

    ``meaning`` is appended to the list of choices in the message, for example
    ``" (zero-order or triangle hold)"``. Raises ValueError (naming the argument and the
    choices) for anything else, a non-string included.

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


#: The holds (保持器) of the discrete similarity method: zero-order and triangle (first-order).
HOLDS = ("zoh", "foh")


def as_hold(hold, name: str = "hold"):
    """Check that ``hold`` is ``"zoh"`` (zero-order hold) or ``"foh"`` (triangle hold).

    Raises ValueError otherwise (see :func:`as_choice`).

    Examples
    --------
    >>> as_hold("foh")
    'foh'
    """
    return as_choice(hold, name, HOLDS, " (zero-order 零阶 or triangle 三角形 hold)")


# ---------------------------------------------------------------------------------------------
# Linear models: dx/dt = A x + B u, y = C x + D u
# ---------------------------------------------------------------------------------------------


def _as_matrix(value, name, vector_as):
    """``value`` as a 2-D float array, and the shape it was given in (for messages).

    A number is 1x1; a 1-D array is a column (``vector_as="column"``) or a row (``"row"``).
    """
    array = as_real_array(value, name)
    if array.ndim == 0:
        return array.reshape(1, 1), array.shape
    if array.ndim == 1:
        return array.reshape((-1, 1) if vector_as == "column" else (1, -1)), array.shape
    if array.ndim > 2:
        raise ValueError(
            f"{name} must be a 2-D array (or 1-D for one {vector_as}), got shape {array.shape}."
        )
    return array, array.shape


def _require_one_column(B, function, with_D):
    if B.shape[1] != 1:
        also = " and D[:, [j]]" if with_D else ""
        raise ValueError(
            f"{function} handles one input: B must have exactly one column, got shape {B.shape}. "
            f"For input j pass B[:, [j]]{also} (MATLAB's iu argument)."
        )


def as_state_equation(A, B, *, one_input: str | None = None):
    """Check the state equation dx/dt = A x + B u: A (n, n) and B (n, m) as float arrays.

    Shape rules (the same in every function that takes a linear model; see
    :func:`as_state_space` for C and D):

    * ``A``: shape (n, n); a number is a 1x1 matrix. **n = 0 is allowed**: ``A`` of shape (0, 0)
      (``[]`` is read as that) is a model without states, a static gain y = D u. This is the
      MATLAB convention and what ``simlab.lti.tf2ss`` returns for a constant transfer function,
      so every function accepts what the conversions produce; a function that cannot work
      without states says so in its own error.
    * ``B``: shape (n, m) with m >= 1 inputs; a 1-D ``B`` of n entries (or a number, when
      n = 1) is one input column (n, 1). With n = 0, B has shape (0, m) (``[]`` is (0, 1)).

    Parameters
    ----------
    A, B : array_like
    one_input : str, optional
        Name of the calling function when it handles one input only: then B must have one
        column, and the message names the function.

    Returns
    -------
    A, B : ndarray, shapes (n, n) and (n, m), float

    Raises
    ------
    TypeError
        If an entry is not a real number.
    ValueError
        If an entry is NaN or inf, or a shape breaks a rule above; the message names the
        argument, the shape received and the shape expected.

    Examples
    --------
    >>> A, B = as_state_equation([[0, 1], [-2, -3]], [0, 1])
    >>> A.shape, B.shape
    ((2, 2), (2, 1))
    >>> as_state_equation([], [])[1].shape              # no states: a static gain
    (0, 1)
    >>> as_state_equation([[0, 1], [-2, -3]], [[0], [1], [2]])
    Traceback (most recent call last):
    ...
    ValueError: B must have n = 2 rows, one per state, ... (A is 2x2, got B of shape (3, 1)).
    """
    A = as_real_array(A, "A")
    if A.ndim == 0:
        A = A.reshape(1, 1)
    elif A.ndim == 1 and A.size == 0:  # [] for a model without states
        A = A.reshape(0, 0)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(
            f"A must be a square matrix, got shape {A.shape}. A must be square, shape (n, n) for "
            f"n states (shape (0, 0), or [], for a static gain without states)."
        )
    n = A.shape[0]
    B, received = _as_matrix(B, "B", "column")
    if B.shape[0] != n:
        what = f"n = {n} entries" if len(received) < 2 else f"n = {n} rows"
        raise ValueError(
            f"B must have {what}, one per state, shape ({n}, m) for m inputs or ({n},) for one "
            f"input. B must have as many rows as A (A is {n}x{n}, got B of shape {received})."
        )
    if B.shape[1] == 0:
        raise ValueError(
            f"B must have at least one column, one per input, got B of shape {received}: a model "
            f"without inputs has nothing to drive it. Give B of shape ({n}, m) with m >= 1."
        )
    if one_input:
        _require_one_column(B, one_input, with_D=False)
    return A, B


def _as_feedthrough(D, p, m):
    """D (p, m); 0 means no feedthrough for any p, m; a number is D for one input and output."""
    if D is None:
        return np.zeros((p, m))
    D = as_real_array(D, "D")
    received = D.shape
    if D.ndim == 0 and (D == 0 or p * m == 1):
        D = np.full((p, m), float(D))
    elif D.ndim == 1 and (p == 1 or m == 1) and D.size == p * m:
        D = D.reshape(p, m)
    if D.shape != (p, m):
        raise ValueError(
            f"D must have shape (p, m) = ({p}, {m}), the rows of C by the columns of B, got shape "
            f"{received}. D must have shape ({p}, {m}); a number is read as D when p = m = 1, and "
            f"0 as no feedthrough for any p and m."
        )
    return D


def as_state_space(A, B, C, D=None, *, one_input: str | None = None, one_output: str | None = None):
    """Check a state-space model (A, B, C, D) and return it as float arrays.

    .. math:: \\dot x = A x + B u,\\qquad y = C x + D u

    Shape rules: A (n, n), B (n, m), C (p, n), D (p, m), with m >= 1 inputs and p >= 1 outputs.

    * ``A`` and ``B`` as in :func:`as_state_equation`; **n = 0 states is allowed** (a static gain
      y = D u: A (0, 0), B (0, m), C (p, 0)), the MATLAB convention and what
      ``simlab.lti.tf2ss`` returns for a constant transfer function.
    * ``C``: a 1-D ``C`` of n entries (or a number, when n = 1) is one output row (1, n).
      With n = 0, C has shape (p, 0) (``[]`` is (1, 0)).
    * ``D``: shape (p, m); a 1-D ``D`` of p m entries is read as (p, m) when p = 1 or m = 1; a
      number is the 1x1 D when p = m = 1, and 0 means no feedthrough (zeros (p, m)) for any
      p and m. ``D=None`` also means zeros.

    Parameters
    ----------
    A, B, C, D : array_like
    one_input, one_output : str, optional
        Name of the calling function when it handles one input (B with one column) or one
        output (C with one row) only; the message names the function.

    Returns
    -------
    A, B, C, D : ndarray, shapes (n, n), (n, m), (p, n), (p, m), float

    Raises
    ------
    TypeError
        If an entry is not a real number.
    ValueError
        If an entry is NaN or inf, or a shape breaks a rule above; the message names the
        argument, the shape received and the shape expected.

    Examples
    --------
    >>> A, B, C, D = as_state_space([[-1.0]], 1.0, [2.0], 0)
    >>> A.shape, B.shape, C.shape, D.shape
    ((1, 1), (1, 1), (1, 1), (1, 1))
    >>> [M.shape for M in as_state_space([], [], [], 2.5)]     # the static gain 2.5
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> as_state_space([[-1.0]], 1.0, [2.0], [[0, 0]])
    Traceback (most recent call last):
    ...
    ValueError: D must have shape (p, m) = (1, 1), the rows of C by the columns of B, got shape
    (1, 2). D must have shape (1, 1); a number is read as D when p = m = 1, and 0 as no
    feedthrough for any p and m.
    """
    A, B = as_state_equation(A, B)
    n = A.shape[0]
    C, received = _as_matrix(C, "C", "row")
    if C.shape[1] != n:
        what = f"n = {n} entries" if len(received) < 2 else f"n = {n} columns"
        raise ValueError(
            f"C must have {what}, one per state, shape (p, {n}) for p outputs or ({n},) for one "
            f"output. C must have as many columns as A (A is {n}x{n}, got C of shape {received})."
        )
    if C.shape[0] == 0:
        raise ValueError(
            f"C must have at least one row, one per output, got C of shape {received}: a model "
            f"without outputs shows nothing. Give C of shape (p, {n}) with p >= 1."
        )
    D = _as_feedthrough(D, C.shape[0], B.shape[1])
    if one_input:
        _require_one_column(B, one_input, with_D=True)
    if one_output and C.shape[0] != 1:
        raise ValueError(
            f"{one_output} handles one output: C must have exactly one row, got shape {C.shape}. "
            f"For output i pass C[[i], :] and D[[i], :]."
        )
    return A, B, C, D


def as_initial_state(x0, n: int, *, name: str = "x0", per: str = "state", batch: int | None = None):
    """Check an initial state: n values, one per state, returned with shape (n,).

    ``x0`` may have shape (n,), or (n, 1) or (1, n) (a MATLAB column or row); a number when
    n = 1. With ``batch = m`` (a batch of m systems) it may also have shape (m, n), and the
    result has shape (m, n) (a vector x0 is used for every system of the batch).

    Parameters
    ----------
    x0 : array_like
    n : int
        Number of states (n = 0 allowed: x0 is then empty).
    name : str
        Argument name for messages.
    per : str
        What one entry belongs to, for messages: ``"state"``, or ``"element"`` for a structure
        graph (whose states are the element outputs).
    batch : int, optional
        Number of systems m in a batch.

    Raises
    ------
    TypeError, ValueError
        As :func:`as_real_array` (named ``name``), and ValueError for a shape other than the
        ones above.

    Examples
    --------
    >>> as_initial_state([[1.0], [2.0]], 2)
    array([1., 2.])
    >>> as_initial_state([1.0, 2.0, 3.0], 2)
    Traceback (most recent call last):
    ...
    ValueError: x0 must have n = 2 entries, one value per state. x0 must have shape (2,), got
    shape (3,).
    """
    x0 = as_real_array(x0, name)
    if batch is not None and x0.shape == (batch, n):
        return x0
    if x0.size == n and (x0.ndim < 2 or (x0.ndim == 2 and 1 in x0.shape)):
        x0 = x0.reshape(n)
        return x0 if batch is None else np.broadcast_to(x0, (batch, n)).copy()
    also = "" if batch is None else f" (or (m, n) = ({batch}, {n}), one row per system of a batch)"
    raise ValueError(
        f"{name} must have n = {n} entries, one value per {per}. {name} must have shape "
        f"({n},){also}, got shape {x0.shape}."
    )


# ---------------------------------------------------------------------------------------------
# Issue 14 (lti, similarity, structure, elementwise, stability, implicit): the structure-graph
# checkers (moved to graphs.py, unchanged names) and options (flags, counts, intervals).
# ---------------------------------------------------------------------------------------------

from simlab.validation.graphs import (
    as_input_function,
    as_structure_graph,
    as_typical_element,
)
from simlab.validation.parameters import as_bounded_scalar, as_count, as_flag, as_instance, as_interval

__all__ += ["as_flag", "as_count", "as_interval", "as_instance", "as_bounded_scalar", "as_state"]
