"""Self-checks for the lab notebooks (自测).

A self-check compares a student's answer with a reference that simlab *computes* (never a pasted
number) and returns a :class:`CheckResult`: it prints as ``correct: ...`` or as ``not yet: ...``
followed by an explanation of what is off and, where a typical mistake explains the answer, a
hint that names it ("did you use t_k or t_{k+1} in the slope?").

The generic machinery lives here; each lab's checks live with that lab's experiment module
(for example :func:`simlab.course.lab01_euler_rk4.check_euler`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["CheckResult", "check_array", "check_value"]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a self-check; truthy when the answer is correct.

    Attributes
    ----------
    passed : bool
        True if the answer matches the reference.
    title : str
        What was checked, e.g. ``"Euler solution y_k"``.
    message : str
        The explanation shown to the student.
    """

    passed: bool
    title: str
    message: str
    details: tuple = field(default=())

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        status = "correct" if self.passed else "not yet"
        lines = [f"[{status}] {self.title}: {self.message}"]
        lines += [f"    {line}" for line in self.details]
        return "\n".join(lines)

    __repr__ = __str__


def _as_numeric(answer):
    try:
        array = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None
    return array


def check_array(title, answer, reference, *, rtol=1e-9, atol=1e-12, alternatives=(), what="values"):
    """Compare an array answer with a computed reference and explain any difference.

    Parameters
    ----------
    title : str
        What is being checked (shown to the student).
    answer : array_like
        The student's result.
    reference : array_like
        The reference computed by simlab.
    rtol, atol : float
        Tolerances of ``numpy.isclose``.
    alternatives : sequence of (array_like, str)
        Results of typical mistakes with the hint to give when the answer matches one.
    what : str
        Name of the quantity, used in messages ("values", "y_k", ...).

    Returns
    -------
    CheckResult
    """
    reference = np.asarray(reference, dtype=float)
    array = _as_numeric(answer)
    if answer is None or array is None:
        return CheckResult(
            False, title, f"expected an array of numbers, got {type(answer).__name__}."
        )
    if array.shape != reference.shape:
        hint = ""
        if array.ndim == reference.ndim == 1 and array.size == reference.size - 1:
            hint = " Did you leave out the initial value at t0 (N steps give N + 1 points)?"
        elif array.size == reference.size:
            hint = " The numbers are there; reshape it (np.ravel) to the expected shape."
        return CheckResult(
            False,
            title,
            f"expected shape {reference.shape}, got shape {array.shape}.{hint}",
        )
    if not np.all(np.isfinite(array)):
        first = int(np.argmax(~np.isfinite(array.ravel())))
        return CheckResult(
            False, title, f"your {what} contain NaN or inf (first at flat index {first})."
        )
    close = np.isclose(array, reference, rtol=rtol, atol=atol)
    if close.all():
        return CheckResult(
            True,
            title,
            f"all {array.size} {what} match the reference (relative tolerance {rtol:g}).",
        )
    for alternative, hint in alternatives:
        alternative = np.asarray(alternative, dtype=float)
        if alternative.shape == array.shape and np.allclose(array, alternative, rtol=rtol, atol=atol):
            return CheckResult(False, title, hint)
    flat = np.argmax(~close.ravel())
    index = np.unravel_index(flat, array.shape)
    index_text = index[0] if len(index) == 1 else index
    worst = np.max(np.abs(array - reference))
    return CheckResult(
        False,
        title,
        f"{np.count_nonzero(~close)} of {array.size} {what} differ from the reference; the first "
        f"is at index {index_text} (yours {array[index]:.6g}, reference {reference[index]:.6g}); "
        f"largest difference {worst:.3g}.",
    )


def check_value(title, answer, reference, *, rtol=1e-6, atol=1e-9, alternatives=(), unit=""):
    """Compare a scalar answer with a computed reference; see :func:`check_array`.

    Examples
    --------
    >>> from simlab.course.check import check_value
    >>> print(check_value("y(2)", 11.778, 11.778112, rtol=1e-4))
    [correct] y(2): 11.778 matches the reference 11.7781.
    """
    try:
        value = float(np.asarray(answer, dtype=float).item())
    except (TypeError, ValueError):
        return CheckResult(False, title, f"expected a single number, got {answer!r}.")
    reference = float(reference)
    suffix = f" {unit}" if unit else ""
    if not np.isfinite(value):
        return CheckResult(False, title, f"your value is {value}; expected a finite number.")
    if np.isclose(value, reference, rtol=rtol, atol=atol):
        return CheckResult(True, title, f"{value:.6g}{suffix} matches the reference {reference:.6g}{suffix}.")
    for alternative, hint in alternatives:
        if np.isclose(value, float(alternative), rtol=rtol, atol=atol):
            return CheckResult(False, title, f"{value:.6g}{suffix}: {hint}")
    return CheckResult(
        False,
        title,
        f"your value {value:.6g}{suffix} differs from the reference by {value - reference:+.3g}{suffix}.",
    )
