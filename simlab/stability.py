"""Numerical stability and convergence order of the fixed-step methods (数值稳定性与收敛阶).

One step of an explicit Runge-Kutta method on the test equation y' = lambda y gives
y_{k+1} = R(z) y_k with z = h lambda. R is the method's *stability function*, for the methods
of :data:`simlab.integrators.METHODS` and the real-time RTRK2 and RTRK3 of
:mod:`simlab.realtime` (explicit, with as many stages as their order p <= 4) the Taylor
polynomial of e^z up to the method's order:

    Euler           R(z) = 1 + z
    improved Euler  R(z) = 1 + z + z^2/2           (RTRK2 too)
    RTRK3           R(z) = 1 + z + z^2/2 + z^3/6
    RK4             R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24

The step is stable where |R(z)| <= 1 (the *stability region*). On the negative real axis that is
an interval [z_min, 0], z_min = -2 for Euler and improved Euler and -2.785 for RK4, so that a
linear system with eigenvalues lambda_i needs h |lambda_i| within the region for every i: the
fastest mode sets the step, however slow the response of interest (the stiff, 病态, case).

A linear multistep method (:mod:`simlab.multistep`) carries k values from step to step, so on
y' = lambda y its steps follow a linear recurrence whose characteristic polynomial in zeta is the
*stability polynomial* pi(zeta; z); the step is stable where every root satisfies |zeta| <= 1
(the root condition, 根条件). For Adams-Bashforth AB_k, with rho(zeta) = zeta^k - zeta^(k-1) and
sigma(zeta) = sum_j beta_j zeta^(k-1-j),

    pi(zeta; z) = rho(zeta) - z sigma(zeta),     boundary locus z(theta) = rho(e^{i theta}) / sigma(e^{i theta}),

and for the predictor-corrector ABM_k (PECE: AB_k predicts, AM_k with weights beta*_j corrects)

    pi(zeta; z) = rho(zeta) - z (beta*_0 zeta^(k-1) + sum_{j>=1} beta*_j zeta^(k-j))
                  - z^2 beta*_0 sigma(zeta).

Their real stability intervals are much shorter than RK4's: AB1 (-2, 0), AB2 (-1, 0), AB3
(-6/11, 0), AB4 (-3/10, 0); ABM2 (-2, 0), ABM3 (-1.729, 0), ABM4 (-1.285, 0). Every function
below takes the names of :data:`ONE_STEP_ORDERS` and of
:data:`simlab.multistep.MULTISTEP_METHODS` (``"ab1"`` .. ``"ab4"``, ``"abm2"`` .. ``"abm4"``);
:func:`amplification_factor` is |R(z)| for a one-step method and the largest |zeta| for a
multistep one, so that the region is ``amplification_factor <= 1`` for both.

The measured order of a method comes from the errors at several step sizes: the slope of the
least-squares line log|e| = p log h + c (:func:`fit_order`).

Reference for the multistep part: Hairer, Norsett and Wanner, "Solving Ordinary Differential
Equations I", sect. III.3; Hairer and Wanner, "Solving Ordinary Differential Equations II",
sect. V.1 (stability regions of Adams methods and of PECE).

Used in lab02 (stability and step size), lab05 (the RK4 limit of a structure graph), lab10
(Adams methods) and course/01, course/07.
"""

from __future__ import annotations

import numpy as np

from simlab.integrators import METHODS
from simlab.multistep import MULTISTEP_METHODS
from simlab.realtime import REAL_TIME_METHODS
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

#: One-step methods and their order p: explicit Runge-Kutta methods with p stages (p <= 4), whose
#: R(z) is the Taylor polynomial of e^z of degree p (the fixed-step methods and RTRK2, RTRK3).
ONE_STEP_ORDERS = {**{name: m.order for name, m in METHODS.items()},
                   **{name: m.order for name, m in REAL_TIME_METHODS.items() if m.frame is not None}}

#: Every method with a stability analysis here: the one-step and the multistep methods.
ALL_METHODS = {**ONE_STEP_ORDERS, **MULTISTEP_METHODS}

__all__ = [
    "stability_polynomial",
    "stability_function",
    "characteristic_polynomial",
    "amplification_factor",
    "boundary_locus",
    "real_stability_limit",
    "max_stable_step",
    "stability_grid",
    "fit_order",
]


def stability_polynomial(method):
    """Coefficients (ascending powers of z) of the stability function R(z) of ``method``.

    Parameters
    ----------
    method : {"euler", "heun", "rk4", "rtrk2", "rtrk3"}
        A one-step method (a name of :data:`ONE_STEP_ORDERS`).

    Returns
    -------
    ndarray, shape (order + 1,)
        ``[1, 1, 1/2, ..., 1/order!]``: R(z) is the Taylor polynomial of e^z.

    Raises
    ------
    ValueError
        If ``method`` is not one of the names of :data:`ONE_STEP_ORDERS`.

    Examples
    --------
    >>> from simlab.stability import stability_polynomial
    >>> stability_polynomial("heun").tolist()
    [1.0, 1.0, 0.5]
    """
    order = ONE_STEP_ORDERS[as_choice(method, "method", ONE_STEP_ORDERS)]
    factorials = np.cumprod([1.0] + list(range(1, order + 1)))
    return 1.0 / factorials


def stability_function(method, z):
    """R(z) of ``method`` at complex ``z = h lambda``.

    Parameters
    ----------
    method : {"euler", "heun", "rk4", "rtrk2", "rtrk3"}
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
        For an unknown method, a NaN or inf in ``z``, an empty ``z``, or a ``z`` so large that
        R(z) overflows (|z| beyond about 2.6e77 for RK4, 1.8e308 for Euler).

    Examples
    --------
    >>> from simlab.stability import stability_function
    >>> complex(stability_function("euler", -2.0))
    (-1+0j)
    """
    coefficients = stability_polynomial(method)
    return _evaluate(coefficients, _as_z(z), "z")


def _as_z(z):
    """z = h lambda as a float or complex array with at least one value; TypeError or ValueError naming z."""
    z = as_real_array(z, "z", allow_complex=True)
    if z.size == 0:
        raise ValueError(f"z must hold at least one value z = h lambda, got an empty array of shape {z.shape}.")
    return z


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


def _method(method):
    """The name checked against every method of this module; True if it is a multistep method."""
    as_choice(method, "method", ALL_METHODS)
    return method in MULTISTEP_METHODS


def _pi_table(method):
    """Pi[m, i]: coefficient of z^m zeta^(k-i) in the stability polynomial pi(zeta; z).

    One-step methods: pi = zeta - R(z) (k = 1). AB_k and ABM_k: the formulas of the module
    docstring.
    """
    if method in ONE_STEP_ORDERS:
        r = stability_polynomial(method)
        table = np.zeros((len(r), 2))
        table[0, 0] = 1.0
        table[:, 1] = -r  # zeta - (1 + z + ... )
        return table
    scheme = MULTISTEP_METHODS[method]
    beta, k = np.array(scheme.predictor), scheme.steps
    table = np.zeros((2 if scheme.corrector is None else 3, k + 1))
    table[0, :2] = 1.0, -1.0  # rho(zeta) = zeta^k - zeta^(k-1)
    if scheme.corrector is None:
        table[1, 1:] = -beta  # - z sigma(zeta), sigma = sum_j beta_j zeta^(k-1-j)
        return table
    corrector = np.array(scheme.corrector)
    table[1, 1] -= corrector[0]  # - z beta*_0 zeta^(k-1)        (the slope at the prediction)
    table[1, 1:k] -= corrector[1:]  # - z beta*_j zeta^(k-j), j >= 1
    table[2, 1:] = -corrector[0] * beta  # - z^2 beta*_0 sigma(zeta)
    return table


def characteristic_polynomial(method, z):
    """Coefficients of the stability polynomial pi(zeta; z) in descending powers of zeta.

    On y' = lambda y (z = h lambda) the method's steps satisfy a linear recurrence whose
    characteristic polynomial is pi; the step is stable where all its roots have
    |zeta| <= 1 (the root condition). pi = zeta - R(z) for a one-step method;
    pi = rho(zeta) - z sigma(zeta) for AB_k; see the module docstring for ABM_k.

    Parameters
    ----------
    method : str
        A name of :data:`ALL_METHODS` (``"rk4"``, ``"ab3"``, ``"abm4"``, ...).
    z : complex or array_like of complex

    Returns
    -------
    complex ndarray, shape shape(z) + (k + 1,)
        The coefficients, leading 1 first (the order :func:`numpy.roots` takes).

    Raises
    ------
    TypeError
        If ``z`` is not numeric.
    ValueError
        For an unknown method, a NaN or inf in ``z``, an empty ``z``, or a ``z`` so large that pi
        overflows.

    Examples
    --------
    AB2 at z = -1: zeta^2 - zeta + (3 zeta - 1)/2, with a root on the unit circle at zeta = -1:

    >>> import numpy as np
    >>> from simlab.stability import characteristic_polynomial
    >>> characteristic_polynomial("ab2", -1.0).real.tolist()
    [1.0, 0.5, -0.5]
    >>> np.round(np.sort(np.roots(characteristic_polynomial("ab2", -1.0)).real), 12).tolist()
    [-1.0, 0.5]
    """
    _method(method)
    z = _as_z(z).astype(complex)
    table = _pi_table(method)
    with np.errstate(over="ignore", invalid="ignore"):
        powers = z[..., None] ** np.arange(len(table))  # z^0, z^1, ...
        coefficients = powers @ table.astype(complex)
    if not np.all(np.isfinite(coefficients)):
        raise ValueError(f"z: the stability polynomial of {method} overflows the floating-point range for "
                         f"|z| up to {float(np.max(np.abs(z))):.3g}; use a smaller |z|.")
    return coefficients


def amplification_factor(method, z):
    """Largest |zeta| over the roots of pi(zeta; z): the growth per step on y' = lambda y.

    |R(z)| for a one-step method; the spectral radius of the recurrence for a multistep one
    (near z = 0 its principal root follows e^z: AB4 gives 0.818856 at z = -0.2, e^-0.2 =
    0.818731). The step is stable where it is <= 1.

    Parameters
    ----------
    method : str
        A name of :data:`ALL_METHODS`.
    z : complex or array_like of complex

    Returns
    -------
    float ndarray, shape of ``z``

    Raises
    ------
    TypeError, ValueError
        As :func:`characteristic_polynomial`.

    Examples
    --------
    >>> from simlab.stability import amplification_factor
    >>> [round(float(amplification_factor("ab4", z)), 6) for z in (-0.2, -0.3, -0.4)]
    [0.818856, 1.0, 1.219842]
    """
    if not _method(method):
        return _evaluate(stability_polynomial(method), _as_z(z), "z", magnitude=True)
    coefficients = characteristic_polynomial(method, z)
    k = coefficients.shape[-1] - 1
    companion = np.zeros(coefficients.shape[:-1] + (k, k), dtype=complex)
    companion[..., 0, :] = -coefficients[..., 1:]  # monic: zeta^k = -c_1 zeta^(k-1) - ... - c_k
    companion[..., np.arange(1, k), np.arange(k - 1)] = 1.0
    return np.max(np.abs(np.linalg.eigvals(companion)), axis=-1)


def boundary_locus(method, n=721):
    """The boundary locus: the z for which pi(zeta; z) has a root zeta = e^{i theta} on the unit circle.

    The stability region's boundary lies on these curves (each region they bound is wholly
    stable or unstable). For AB_k one branch, z(theta) = rho(e^{i theta}) / sigma(e^{i theta});
    two for ABM_k (pi is quadratic in z); p for a one-step method of order p (R(z) = e^{i theta}).

    Parameters
    ----------
    method : str
        A name of :data:`ALL_METHODS`.
    n : int
        Number of angles theta, evenly spaced over [0, 2 pi], 2 .. :data:`MAX_GRID_POINTS` * 10.

    Returns
    -------
    complex ndarray, shape (n, branches)
        z at each theta, one column per root of pi(e^{i theta}; z) = 0 in z. With more than one
        branch the columns are not sorted along the curves: plot them as points.

    Raises
    ------
    TypeError, ValueError
        For an unknown method or an ``n`` that is not an integer in range.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.stability import boundary_locus
    >>> z = boundary_locus("ab3", n=5)[:, 0]      # theta = 0, pi/2, pi, 3 pi/2, 2 pi
    >>> round(float(z[2].real), 6), round(float(-6 / 11), 6)
    (-0.545455, -0.545455)
    """
    _method(method)
    n = as_count(n, "n", minimum=2, maximum=10 * MAX_GRID_POINTS, meaning=" (angles)")
    table = _pi_table(method)
    zeta = np.exp(1j * np.linspace(0.0, 2.0 * np.pi, n))
    k = table.shape[1] - 1
    in_z = table.astype(complex) @ (zeta[None, :] ** np.arange(k, -1, -1)[:, None])  # Q_m(zeta), m = 0 ..
    if len(table) == 2:  # Q_0 + Q_1 z = 0
        return (-in_z[0] / in_z[1])[:, None]
    return np.stack([np.roots(in_z[::-1, i]) for i in range(n)])


def real_stability_limit(method):
    """Left end z_min < 0 of the real stability interval [z_min, 0] where |R(z)| <= 1.

    For a one-step method, found from the real negative roots of R(z) = 1 and R(z) = -1 (the
    interval ends where |R| reaches 1): Euler and improved Euler give -2, RK4 about -2.785.
    For a multistep method, where the largest root of pi(zeta; z) first leaves the unit disc
    going left from z = 0 (a scan in steps of 0.001, then bisection): AB1 -2, AB2 -1,
    AB3 -6/11, AB4 -3/10. Raises ValueError for an unknown method.

    Examples
    --------
    >>> from simlab.stability import real_stability_limit
    >>> round(real_stability_limit("rk4"), 4), round(real_stability_limit("ab4"), 12)
    (-2.7853, -0.3)
    """
    if _method(method):
        return _multistep_real_limit(method)
    coefficients = stability_polynomial(method)
    candidates = []
    for target in (1.0, -1.0):
        shifted = coefficients.copy()
        shifted[0] -= target
        roots = np.polynomial.polynomial.polyroots(shifted)
        candidates += [r.real for r in roots if abs(r.imag) < 1e-9 and r.real < -1e-12]
    return float(max(candidates))


def _multistep_real_limit(method, step=1e-3, reach=20.0):
    """z_min of a multistep method: scan the negative real axis, then bisect at the first exit."""
    tolerance = 1.0 + 8 * np.finfo(float).eps  # the eigenvalues are accurate to a few eps
    z = -step * np.arange(1, int(reach / step) + 1)
    unstable = np.flatnonzero(amplification_factor(method, z) > tolerance)
    if not unstable.size:
        return -float("inf")
    low, high = float(z[unstable[0]]), float(z[unstable[0]] + step)  # unstable at low, stable at high
    for _ in range(60):
        middle = 0.5 * (low + high)
        low, high = (middle, high) if amplification_factor(method, middle) > tolerance else (low, middle)
    return 0.5 * (low + high)


def max_stable_step(eigenvalues, method, h_max=1e3):
    """Largest h for which the step is stable, amplification <= 1, at every h lambda_i.

    The scan marches out from h = 0 to bracket the first instability, then bisects to full
    precision; it returns the first such h (a stability region need not be convex).

    Parameters
    ----------
    eigenvalues : array_like of complex
        Eigenvalues of the (linearized) system; all must have negative real part.
    method : str
        A name of :data:`ALL_METHODS` (one-step or multistep).
    h_max : float
        Largest step considered; ``inf`` is returned if every h up to it is stable.

    Returns
    -------
    float
        The stability limit of the step size (s, if the eigenvalues are in 1/s).

    Raises
    ------
    ValueError
        If an eigenvalue has a real part >= 0 (the exact solution itself does not decay), or
        an eigenvalue or ``h_max`` is a denormal number (below 2.2e-308 in size, where
        1 / |lambda| or h |lambda| leaves the floating-point range).

    Examples
    --------
    >>> from simlab.stability import max_stable_step
    >>> round(max_stable_step([-10.0], "euler"), 6)
    0.2
    """
    _method(method)
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
    tiny = float(np.finfo(float).tiny)  # below it, a denormal number: 1 / |lambda| or h_max is out of range
    if np.any(np.abs(lambdas) < tiny) or h_max < tiny:
        name, value = ("h_max", h_max) if h_max < tiny else ("eigenvalues", float(np.min(np.abs(lambdas))))
        raise ValueError(f"{name} must be at least {tiny:.3g} in size (a normal float), got {value!r}: a denormal "
                         f"{name} makes the time constant 1/|lambda| or the step h |lambda| leave the float range.")

    def stable(h):
        return bool(np.all(amplification_factor(method, h * lambdas) <= 1.0 + 1e-12))

    if np.max(np.abs(lambdas)) * h_max < 1e-6:  # every h |lambda| up to h_max is tiny
        return float("inf")
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
    """|R(z)| (or the largest root of pi(zeta; z)) on a grid of the complex plane, for drawing the region.

    Parameters
    ----------
    method : str
        A name of :data:`ALL_METHODS`; for a multistep method the magnitude is
        :func:`amplification_factor`.
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
        For an unknown method; a range with NaN, inf or low >= high, or wider than the
        floating-point range; n outside 2 .. :data:`MAX_GRID_POINTS`; or a range so wide that
        R(z) overflows.

    Examples
    --------
    >>> from simlab.stability import stability_grid
    >>> x, y, magnitude = stability_grid("euler", re=(-2, 0), im=(-1, 1), n=3)
    >>> magnitude[1].tolist()                          # on the real axis: |1 + z| at -2, -1, 0
    [1.0, 0.0, 1.0]
    """
    multistep = _method(method)
    re, im = as_interval(re, "re"), as_interval(im, "im")
    for name, (low, high) in (("re", re), ("im", im)):
        if not np.isfinite(high - low):  # linspace would fill the grid with NaN
            raise ValueError(f"{name} = ({low!r}, {high!r}) is wider than the floating-point range (high - low = inf); "
                             f"the stability region lies within a few units of 0: use, for example, {name} = (-4, 1).")
    n = as_count(n, "n", minimum=2, maximum=MAX_GRID_POINTS, meaning=" (points per axis)")
    x, y = np.meshgrid(np.linspace(*re, n), np.linspace(*im, n))
    if multistep:
        return x, y, amplification_factor(method, x + 1j * y)
    return x, y, _evaluate(stability_polynomial(method), x + 1j * y, "re, im", magnitude=True)


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
