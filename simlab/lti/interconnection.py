"""Connections (连接) of transfer functions: series, parallel and feedback.

None of them cancels pole-zero pairs, so the order of the result is the sum of the orders, as
with MATLAB's polynomial ``series``/``parallel``/``feedback``; cancel common factors explicitly
with :func:`simlab.lti.minreal`. Used in lab03, task 2, and for the closed loop of the RK4 lab.
"""

from __future__ import annotations

import numpy as np

from simlab.lti.forms import _EPS, _as_tf, _strip
from simlab.validation import as_finite_scalar

__all__ = ["series", "parallel", "feedback"]

_TINY = np.finfo(float).tiny  # about 2.2e-308, the smallest normal double


def _combine(terms, function):
    """Sum of ``sign * conv(p, q)`` over ``(sign, p, q, names)``; rounding-level coefficients -> 0.

    A coefficient whose size is below the rounding error of the products that make it up
    (``|c| <= 4 L eps sum |p| * |q|``) is indistinguishable from 0 and set to exactly 0, so that a
    cancelled leading term does not leave a spurious tiny coefficient (and a huge root).

    A sum that leaves the floating-point range is refused with a ValueError naming the
    polynomials (``names``, e.g. ``("num1", "num2")``): a product that overflows (inf, which the
    rule above would turn into 0, a wrong answer), or a leading coefficient that underflows
    (below the smallest normal double, about 2.2e-308: the degree would come out wrong, or a
    non-zero result come out zero). A negligible product that underflows is fine.
    """
    length = max(len(p) + len(q) - 1 for _, p, q, _ in terms)
    total, scale = np.zeros(length), np.zeros(length)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        for sign, p, q, names in terms:
            product = np.convolve(p, q)
            magnitude = np.convolve(np.abs(p), np.abs(q))
            if not np.all(np.isfinite(magnitude)):
                raise ValueError(_range_message(function, [(p, q, names)], "overflows"))
            total[length - len(product):] += sign * product
            scale[length - len(product):] += magnitude
    if not np.all(np.isfinite(scale)):
        raise ValueError(_range_message(function, [term[1:] for term in terms], "overflows"))
    # The leading coefficient of the sum comes from the longest non-zero products.
    nonzero = [term for term in terms if term[1].any() and term[2].any()]
    if nonzero:
        top = max(len(p) + len(q) - 1 for _, p, q, _ in nonzero)
        if scale[length - top] < _TINY:
            leading = [term[1:] for term in nonzero if len(term[1]) + len(term[2]) - 1 == top]
            raise ValueError(_range_message(function, leading, "underflows"))
    total[np.abs(total) <= 4 * length * _EPS * scale] = 0.0
    return _strip(total)


def _range_message(function, products, what):
    """``products``: (p, q, (name_p, name_q)) of the products behind the failure."""
    sizes = "; ".join(
        f"{a} up to {np.max(np.abs(p)):.3g} in size (leading {p[0]:.3g}), {b} up to "
        f"{np.max(np.abs(q)):.3g} (leading {q[0]:.3g})" for p, q, (a, b) in products)
    terms = " + ".join(f"{a} {b}" for _, _, (a, b) in products)
    return (
        f"{function}: the polynomial {'sum' if len(products) > 1 else 'product'} {terms} {what} "
        f"the floating-point range, about "
        f"2.2e-308 to 1.8e308 in size ({sizes}): the result has no representation in floating "
        f"point. Rescale s (change the time unit) or the gains so that the coefficients, and "
        f"their products, stay within that range."
    )


def series(num1, den1, num2, den2):
    """Series (cascade, 串联) connection G1 G2 (lab03, task 2).

    .. math:: G(s) = \\frac{n_1 n_2}{d_1 d_2}

    Parameters
    ----------
    num1, den1, num2, den2 : array_like
        The two transfer functions, coefficients in descending powers of s.

    Returns
    -------
    num, den : ndarray, 1-D
        Products of the polynomials; common factors are kept (see :func:`minreal`).

    Raises
    ------
    TypeError, ValueError
        For non-numeric, NaN/inf, empty or zero-denominator inputs.

    Examples
    --------
    >>> from simlab.lti import series
    >>> [c.tolist() for c in series([1], [1, 1], [1, 1], [1, 2])]    # 1/(s+1) * (s+1)/(s+2)
    [[1.0, 1.0], [1.0, 3.0, 2.0]]
    """
    num1, den1 = _as_tf(num1, den1, ("num1", "den1"))
    num2, den2 = _as_tf(num2, den2, ("num2", "den2"))
    return (_combine([(1, num1, num2, ("num1", "num2"))], "series"),
            _combine([(1, den1, den2, ("den1", "den2"))], "series"))


def parallel(num1, den1, num2, den2):
    """Parallel (并联) connection G1 + G2 (lab03, task 2).

    .. math:: G(s) = \\frac{n_1 d_2 + n_2 d_1}{d_1 d_2}

    Parameters, returns and raises as in :func:`series`.

    Examples
    --------
    >>> from simlab.lti import parallel
    >>> [c.tolist() for c in parallel([1], [1, 1], [1], [1, 2])]     # 1/(s+1) + 1/(s+2)
    [[2.0, 3.0], [1.0, 3.0, 2.0]]
    """
    num1, den1 = _as_tf(num1, den1, ("num1", "den1"))
    num2, den2 = _as_tf(num2, den2, ("num2", "den2"))
    num = _combine([(1, num1, den2, ("num1", "den2")), (1, num2, den1, ("num2", "den1"))], "parallel")
    return num, _combine([(1, den1, den2, ("den1", "den2"))], "parallel")


def feedback(num1, den1, num2, den2, sign=-1):
    """Feedback (反馈) connection of G = num1/den1 (forward path) and H = num2/den2 (feedback path).

    .. math::
        \\frac{G}{1 - \\sigma G H} = \\frac{n_1 d_2}{d_1 d_2 - \\sigma\\, n_1 n_2},
        \\qquad \\sigma = \\text{sign}

    ``sign = -1`` (default) is negative feedback G / (1 + GH), ``sign = +1`` positive feedback
    G / (1 - GH), as MATLAB's ``feedback(sys1, sys2, sign)``. Common factors are kept, so the
    closed loop has order deg d1 + deg d2; cancel them explicitly with :func:`minreal`.
    Lab03, task 2, and the closed loop of the RK4 lab.

    Parameters
    ----------
    num1, den1, num2, den2 : array_like
        G and H, coefficients in descending powers of s. Unity feedback: ``num2 = den2 = 1``.
    sign : {-1, +1}

    Returns
    -------
    num, den : ndarray, 1-D

    Raises
    ------
    TypeError, ValueError
        As :func:`series`; ValueError also if sign is not -1 or +1, or if the loop is
        ill-posed (``d1 d2 - sign n1 n2`` is identically zero, e.g. G = H = 1, sign = +1).

    Examples
    --------
    The closed loop of the RK4 lab, 1/(s^3 + 4s^2 + 8s + 5) with unity negative feedback:

    >>> from simlab.lti import feedback
    >>> [c.tolist() for c in feedback([1], [1, 4, 8, 5], 1, 1)]
    [[1.0], [1.0, 4.0, 8.0, 6.0]]
    """
    num1, den1 = _as_tf(num1, den1, ("num1", "den1"))
    num2, den2 = _as_tf(num2, den2, ("num2", "den2"))
    sign = as_finite_scalar(sign, "sign")
    if sign not in (1.0, -1.0):
        raise ValueError(
            f"sign must be -1 (negative feedback, the default) or +1 (positive feedback), "
            f"got {sign!r}."
        )
    den = _combine([(1, den1, den2, ("den1", "den2")), (-sign, num1, num2, ("num1", "num2"))],
                   "feedback")  # d1 d2 - sign n1 n2
    if not den.any():
        raise ValueError(
            "The feedback loop is ill-posed: d1 d2 - sign n1 n2 is identically zero, so "
            "1 - sign G H = 0 at every s and the closed loop has no transfer function."
        )
    return _combine([(1, num1, den2, ("num1", "den2"))], "feedback"), den
