"""Padé approximants (帕德近似) of the pure delay e^{-tau s}: a rational transfer function in its place.

A delay has no finite state-space model, so a transfer-function or state-space tool replaces it
by the [n/n] Padé approximant, the rational function whose Taylor series in s agrees with that
of e^{-tau s} as far as it can (to the term s^{2n}):

.. math::
    e^{-\\tau s} \\approx \\frac{Q_n(-\\tau s)}{Q_n(\\tau s)},\\qquad
    Q_n(x) = \\sum_{k=0}^{n} \\frac{(2n-k)!\\, n!}{(2n)!\\, k!\\, (n-k)!}\\, x^k

(order 1: (1 - tau s / 2) / (1 + tau s / 2); order 2: (1 - tau s/2 + (tau s)^2/12) /
(1 + tau s/2 + (tau s)^2/12)). It is all-pass, |e^{-j omega tau}| = 1 like the delay, with n
zeros in the right half plane mirroring its n poles; that is what goes wrong at the start of a
step response: the approximant's own step response jumps to Q_n(-inf)/Q_n(inf) = (-1)^n at
t = 0+ instead of waiting until tau, and the higher orders ring about zero before tau
(:func:`simlab.delay_approximation.compare_pade` measures it). The exact delay is
``simlab.lsim(..., input_delay=tau)``.

Used in lab11 (delay and sampled-data systems).
"""

from __future__ import annotations

from math import factorial

import numpy as np

from simlab.validation.parameters import as_bounded_scalar, as_count

__all__ = ["pade"]

#: Highest order :func:`pade` gives. MATLAB's ``pade`` documentation: high-order approximations
#: have clustered poles, very sensitive to perturbations, so orders N > 10 should be avoided.
MAX_PADE_ORDER = 10


def pade(tau, order):
    """[n/n] Padé approximant of e^{-tau s} as (num, den), descending powers of s, den monic.

    .. math::
        e^{-\\tau s} \\approx \\frac{\\sum_k (-1)^k c_k \\tau^k s^k}{\\sum_k c_k \\tau^k s^k},
        \\qquad c_k = \\frac{(2n-k)!\\, n!}{(2n)!\\, k!\\, (n-k)!}

    both divided by c_n tau^n, so that den[0] = 1 (the normalization of MATLAB's and
    python-control's ``pade``). The coefficients are computed in exact integer arithmetic
    before the one division by tau^k.

    Parameters
    ----------
    tau : float
        Delay tau >= 0 (tau = 0 gives the exact e^0 = 1: ``([1.0], [1.0])``).
    order : int
        Order n, 1 <= n <= 10 (:data:`MAX_PADE_ORDER`).

    Returns
    -------
    num, den : ndarray, shape (n + 1,) (shape (1,) for tau = 0)

    Raises
    ------
    TypeError, ValueError
        Unless tau is a finite number >= 0 and order an integer from 1 to 10; ValueError also
        if a coefficient leaves the floating-point range (tau^-n beyond about 1e308 or below
        about 1e-308).

    Examples
    --------
    >>> from simlab.lti import pade
    >>> num, den = pade(2.0, 1)                       # (1 - s) / (1 + s)
    >>> num.tolist(), den.tolist()
    ([-1.0, 1.0], [1.0, 1.0])
    >>> [c.tolist() for c in pade(1.0, 2)]            # (s^2 - 6 s + 12) / (s^2 + 6 s + 12)
    [[1.0, -6.0, 12.0], [1.0, 6.0, 12.0]]
    """
    tau = as_bounded_scalar(tau, "tau", low=0.0, why=" (a delay tau >= 0)")
    n = as_count(order, "order", minimum=1, maximum=MAX_PADE_ORDER,
                 meaning=" (higher orders have clustered, perturbation-sensitive poles)")
    if tau == 0:
        return np.array([1.0]), np.array([1.0])
    # c_k / c_n = (2n-k)! / (k! (n-k)!), an integer (k = 0 .. n), times tau^(k-n) for s^k
    ratio = [factorial(2 * n - k) // (factorial(k) * factorial(n - k)) for k in range(n + 1)]
    with np.errstate(over="ignore", under="ignore"):
        den = np.array(ratio[::-1]) * np.power(tau, np.arange(0.0, -n - 1.0, -1.0))  # s^n .. s^0
    if not (np.all(np.isfinite(den)) and den[-1] >= np.finfo(float).tiny):
        size = "small" if tau < 1 else "large"
        raise ValueError(f"tau = {tau!r} is too {size} for a Padé approximant of order {n}: its "
                         f"coefficients (tau^-k, k up to {n}) leave the floating-point range.")
    num = den * np.array([(-1.0) ** k for k in range(n, -1, -1)])
    return num, den
