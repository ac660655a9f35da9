"""Numerical stability and convergence order of the fixed-step methods (数值稳定性与收敛阶).

One step of an explicit Runge-Kutta method on the test equation y' = lambda y gives
y_{k+1} = R(z) y_k with z = h lambda. R is the method's *stability function*, for the methods
of :data:`simlab.integrators.METHODS` the Taylor polynomial of e^z up to the method's order:

    Euler           R(z) = 1 + z
    improved Euler  R(z) = 1 + z + z^2/2
    RK4             R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24

The step is stable where |R(z)| <= 1 (the *stability region*). On the negative real axis that is
an interval [z_min, 0], z_min = -2 for Euler and improved Euler and -2.785 for RK4, so that a
linear system with eigenvalues lambda_i needs h |lambda_i| within the region for every i: the
fastest mode sets the step, however slow the response of interest (the stiff, 病态, case).

The measured order of a method comes from the errors at several step sizes: the slope of the
least-squares line log|e| = p log h + c (:func:`fit_order`).

Used in lab02 (stability and step size), lab05 (the RK4 limit of a structure graph) and
course/01.
"""

from __future__ import annotations

import numpy as np

from simlab.integrators import METHODS
from simlab.validation import (
    as_choice,
    as_count,
    as_interval,
    as_positive_scalar,
    as_real_array,
)

#: Largest number of points per axis of :func:`stability_grid` (n^2 evaluations of R; a finer
#: grid does not show on a figure).
MAX_GRID_POINTS = 1001

__all__ = [
    "stability_polynomial",
    "stability_function",
    "real_stability_limit",
    "max_stable_step",
    "stability_grid",
    "fit_order",
]


def stability_polynomial(method):
    """Coefficients (ascending powers of z) of the stability function R(z) of ``method``.

    Parameters
    ----------
    method : {"euler", "heun", "rk4"}

    Returns
    -------
    ndarray, shape (order + 1,)
        ``[1, 1, 1/2, ..., 1/order!]``: R(z) is the Taylor polynomial of e^z.

    Raises
    ------
    ValueError
        If ``method`` is not one of the names of :data:`simlab.integrators.METHODS`.

    Examples
    --------
    >>> from simlab.stability import stability_polynomial
    >>> stability_polynomial("heun").tolist()
    [1.0, 1.0, 0.5]
    """
    order = METHODS[as_choice(method, "method", METHODS)].order
    factorials = np.cumprod([1.0] + list(range(1, order + 1)))
    return 1.0 / factorials


def stability_function(method, z):
    """R(z) of ``method`` at complex ``z = h lambda``.

    Parameters
    ----------
    method : {"euler", "heun", "rk4"}
    z : complex or array_like of complex

    Returns
    -------
    complex ndarray, shape of ``z``
        The amplification factor y_{k+1} / y_k on y' = lambda y.

    Raises
    ------
    TypeError
        If ``z`` is not numeric.
    ValueError
        For an unknown method, a NaN or inf in ``z``, or a ``z`` so large that R(z) overflows
        (|z| beyond about 2.6e77 for RK4, 1.8e308 for Euler).

    Examples
    --------
    >>> from simlab.stability import stability_function
    >>> complex(stability_function("euler", -2.0))
    (-1+0j)
    """
    coefficients = stability_polynomial(method)
    z = as_real_array(z, "z", allow_complex=True)
    return _evaluate(coefficients, z, "z")


def _evaluate(coefficients, z, names, magnitude=False):
    """R(z) (or |R(z)|), refusing z so large that it overflows (|z|^p / p! beyond 1.8e308)."""
    with np.errstate(over="ignore", invalid="ignore"):
        R = np.polynomial.polynomial.polyval(z.astype(complex), coefficients)
        if magnitude:
            R = np.abs(R)
    if not np.all(np.isfinite(R)):
        order = len(coefficients) - 1
        # |z|^p / p! = fmax at |z| = (fmax p!)^(1/p), in logarithms so that nothing overflows
        limit = np.exp((np.log(np.finfo(float).max) - np.log(coefficients[-1])) / order)
        raise ValueError(
            f"{names}: R(z) overflows the floating-point range for |z| up to "
            f"{float(np.max(np.abs(z))):.3g}; R is a polynomial of degree {order}, so |z| must stay "
            f"below about {limit:.3g}."
        )
    return R


def real_stability_limit(method):
    """Left end z_min < 0 of the real stability interval [z_min, 0] where |R(z)| <= 1.

    Found from the real negative roots of R(z) = 1 and R(z) = -1 (the interval ends where |R|
    reaches 1): Euler and improved Euler give -2, RK4 about -2.785. Raises ValueError for an
    unknown method.

    Examples
    --------
    >>> from simlab.stability import real_stability_limit
    >>> round(real_stability_limit("rk4"), 4)
    -2.7853
    """
    coefficients = stability_polynomial(method)
    candidates = []
    for target in (1.0, -1.0):
        shifted = coefficients.copy()
        shifted[0] -= target
        roots = np.polynomial.polynomial.polyroots(shifted)
        candidates += [r.real for r in roots if abs(r.imag) < 1e-9 and r.real < -1e-12]
    return float(max(candidates))


def max_stable_step(eigenvalues, method, h_max=1e3):
    """Largest h for which |R(h lambda_i)| <= 1 for every eigenvalue lambda_i.

    The scan marches out from h = 0 to bracket the first instability, then bisects to full
    precision; it returns the first such h (a stability region need not be convex).

    Parameters
    ----------
    eigenvalues : array_like of complex
        Eigenvalues of the (linearized) system; all must have negative real part.
    method : {"euler", "heun", "rk4"}
    h_max : float
        Largest step considered; ``inf`` is returned if every h up to it is stable.

    Returns
    -------
    float
        The stability limit of the step size (s, if the eigenvalues are in 1/s).

    Raises
    ------
    ValueError
        If an eigenvalue has a real part >= 0 (the exact solution itself does not decay).

    Examples
    --------
    >>> from simlab.stability import max_stable_step
    >>> round(max_stable_step([-10.0], "euler"), 6)
    0.2
    """
    as_choice(method, "method", METHODS)
    h_max = as_positive_scalar(h_max, "h_max")
    lambdas = np.atleast_1d(as_real_array(eigenvalues, "eigenvalues", allow_complex=True)).astype(complex)
    if lambdas.ndim != 1 or lambdas.size == 0:
        raise ValueError(
            f"eigenvalues must be a non-empty 1-D list of numbers, got shape {lambdas.shape}."
        )
    if np.any(lambdas.real >= 0):
        raise ValueError(
            f"eigenvalues must all have negative real part for a stability limit, got {lambdas}."
        )

    def stable(h):
        return bool(np.all(np.abs(stability_function(method, h * lambdas)) <= 1.0 + 1e-12))

    h_low, h_high = 0.0, 1e-6 / np.max(np.abs(lambdas))
    while stable(h_high):
        h_low, h_high = h_high, h_high * 1.05
        if h_high > h_max:
            return float("inf")
    for _ in range(80):
        middle = 0.5 * (h_low + h_high)
        h_low, h_high = (middle, h_high) if stable(middle) else (h_low, middle)
    return float(h_low)


def stability_grid(method, re=(-4.0, 1.0), im=(-3.5, 3.5), n=301):
    """|R(z)| on a grid of the complex plane, for drawing the stability region.

    Parameters
    ----------
    method : {"euler", "heun", "rk4"}
    re, im : (float, float)
        Ranges of the real and imaginary parts of z.
    n : int
        Points per axis.

    Returns
    -------
    x, y, magnitude : ndarray, shape (n, n)
        Real parts, imaginary parts and |R(x + i y)|; the region is ``magnitude <= 1``
        (see :func:`simlab.plotting.plot_stability_regions`).

    Raises
    ------
    TypeError
        If ``re`` or ``im`` is not a pair of real numbers, or n is not an integer.
    ValueError
        For an unknown method; a range with NaN, inf or low >= high; n outside 2 ..
        :data:`MAX_GRID_POINTS`; or a range so wide that R(z) overflows.

    Examples
    --------
    >>> from simlab.stability import stability_grid
    >>> x, y, magnitude = stability_grid("euler", re=(-2, 0), im=(-1, 1), n=3)
    >>> magnitude[1].tolist()                          # on the real axis: |1 + z| at -2, -1, 0
    [1.0, 0.0, 1.0]
    """
    coefficients = stability_polynomial(method)
    re, im = as_interval(re, "re"), as_interval(im, "im")
    n = as_count(n, "n", minimum=2, maximum=MAX_GRID_POINTS, meaning=" (points per axis)")
    x, y = np.meshgrid(np.linspace(*re, n), np.linspace(*im, n))
    return x, y, _evaluate(coefficients, x + 1j * y, "re, im", magnitude=True)


def _values(array, shown=6):
    """The first few values of a 1-D array, for messages."""
    text = ", ".join(f"{value:.6g}" for value in array[:shown])
    return f"[{text}{', ...' if array.size > shown else ''}]"


def fit_order(hs, errors):
    """Measured order p: slope of the least-squares line log|error| = p log h + c.

    Parameters
    ----------
    hs, errors : array_like, shape (m,)
        Step sizes and the corresponding global errors (m >= 2, errors non-zero).

    Returns
    -------
    float
        The fitted slope p.

    Raises
    ------
    TypeError
        If ``hs`` or ``errors`` is not a sequence of real numbers.
    ValueError
        If the shapes differ, fewer than two points are given, a value is NaN or inf, a step
        is not positive, the steps are all equal (no slope to fit) or an error is zero (a
        log-log line cannot pass through it). Everything is checked before the least-squares
        solver (LAPACK) sees the data.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.stability import fit_order
    >>> hs = np.array([0.1, 0.05, 0.025])
    >>> round(fit_order(hs, 3.0 * hs**4), 6)
    4.0
    """
    hs = as_real_array(hs, "hs", ndim=1)
    errors = np.abs(as_real_array(errors, "errors", ndim=1))
    if hs.shape != errors.shape or hs.size < 2:
        raise ValueError(
            f"hs and errors must be 1-D of the same length >= 2, got shapes {hs.shape} and "
            f"{errors.shape}."
        )
    if np.any(hs <= 0):
        raise ValueError(f"hs must be positive step sizes to fit a log-log line, got hs = {_values(hs)}.")
    if np.any(errors == 0):
        raise ValueError(
            f"errors must be non-zero to fit a log-log line (log 0 = -inf), got |errors| = "
            f"{_values(errors)}. An error of exactly 0 means the method is exact there: leave "
            f"that step size out."
        )
    log_hs = np.log(hs)
    if np.ptp(log_hs) <= 1e-12 * max(1.0, float(np.max(np.abs(log_hs)))):  # polyfit: rank 1
        raise ValueError(
            f"hs must hold at least two different step sizes to fit a slope, got hs = "
            f"{_values(hs)}."
        )
    slope, _ = np.polyfit(log_hs, np.log(errors), 1)
    return float(slope)
