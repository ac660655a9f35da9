"""Conversions between the model forms (模型转换): tf2ss, ss2tf, tf2zp, zp2tf, ss2zp, zp2ss.

Transfer function ``(num, den)``, state space ``(A, B, C, D)`` and zero-pole-gain ``(z, p, k)``
as described in :mod:`simlab.lti.forms`. :func:`tf2ss` gives MATLAB's controllable canonical
form; :func:`ss2tf` keeps uncontrollable or unobservable modes (den is the characteristic
polynomial of A). Used in lab03, task 1 (seed 003, 实验一 系统建模的MATLAB实现).
"""

from __future__ import annotations

import numpy as np

from simlab.lti.forms import (
    _EPS,
    _as_roots,
    _as_tf,
    _poly_from_roots,
    _require_finite,
    _strip,
)
from simlab.validation import as_finite_scalar, as_state_space

__all__ = ["tf2ss", "ss2tf", "tf2zp", "zp2tf", "ss2zp", "zp2ss"]


def tf2ss(num, den):
    """Transfer function to state space in controllable canonical form (可控标准型).

    With den normalised to monic, ``s^n + a1 s^(n-1) + ... + an``, and num padded to n + 1
    coefficients ``b0 .. bn``:

    .. math::
        A = \\begin{bmatrix} -a_1 & -a_2 & \\cdots & -a_n \\\\ 1 & 0 & \\cdots & 0 \\\\
            & \\ddots & & \\vdots \\\\ 0 & \\cdots & 1 & 0 \\end{bmatrix},\\quad
        B = \\begin{bmatrix} 1 \\\\ 0 \\\\ \\vdots \\\\ 0 \\end{bmatrix},\\quad
        C = [b_1 - b_0 a_1, \\ldots, b_n - b_0 a_n],\\quad D = b_0

    the same realisation as MATLAB's ``tf2ss`` and ``scipy.signal.tf2ss``. Lab03, task 1.

    Parameters
    ----------
    num, den : array_like, shape (m + 1,) and (n + 1,)
        Coefficients in descending powers of s, m <= n; ``num`` may be a scalar.

    Returns
    -------
    A, B, C, D : ndarray, shapes (n, n), (n, 1), (1, n), (1, 1)
        A static gain (n = 0) gives A of shape (0, 0), B (0, 1), C (1, 0).

    Raises
    ------
    TypeError
        If a coefficient is not a real number.
    ValueError
        If the model is improper (deg num > deg den), ``den`` is zero or empty, a coefficient
        is NaN or inf, or the coefficients are out of range: the monic form num/a0, den/a0
        (a0 = den[0]) or C = b - b0 a must stay below about 1.8e308 in size (den = [1e-320, 1],
        a pole at -1e320, is refused).

    Examples
    --------
    The lab03 system G(s) = (s+8)(s^2+2s+5) / ((2s+3)(3s^2+4s+13)):

    >>> import numpy as np
    >>> from simlab.lti import tf2ss
    >>> num = np.polymul([1, 8], [1, 2, 5])            # s^3 + 10 s^2 + 21 s + 40
    >>> den = np.polymul([2, 3], [3, 4, 13])           # 6 s^3 + 17 s^2 + 38 s + 39
    >>> A, B, C, D = tf2ss(num, den)
    >>> print(np.round(A[0], 4), np.round(C, 4), np.round(D, 4))
    [-2.8333 -6.3333 -6.5   ] [[1.1944 2.4444 5.5833]] [[0.1667]]
    """
    num, den = _as_tf(num, den)  # also rejects an improper model and coefficients out of range
    n = len(den) - 1
    a = den / den[0]  # monic denominator: 1, a1, ..., an
    b = np.concatenate([np.zeros(n + 1 - len(num)), num]) / den[0]  # b0, ..., bn
    A = np.zeros((n, n))
    if n:
        A[0, :] = -a[1:]  # first row: -a1 ... -an
        A[1:, :-1] = np.eye(n - 1)  # ones on the sub-diagonal: x_{i+1}' = x_i
    B = np.zeros((n, 1))
    B[:1, 0] = 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        C = (b[1:] - b[0] * a[1:]).reshape(1, n)  # c_i = b_i - b0 a_i
    _require_finite("tf2ss", "num and den", C)
    D = np.array([[b[0]]])
    return A, B, C, D


def ss2tf(A, B, C, D):
    """State space (one input, one output) to transfer function.

    .. math::
        G(s) = C (sI - A)^{-1} B + D
             = \\frac{\\det(sI - A + BC) - \\det(sI - A) + D \\det(sI - A)}{\\det(sI - A)}

    since ``det(sI - A + BC) = det(sI - A) (1 + C (sI - A)^{-1} B)`` for one input and one output.
    Coefficients at the rounding level of the eigenvalue computation
    (``|c_i| <= 1000 n eps e_i``, with ``e_i`` the i-th coefficient of ``prod(s + |lambda_j|)``
    over the eigenvalues of A - BC and A) are set to exactly 0, so the relative degree of a
    canonical realisation comes out right. Uncontrollable or unobservable modes are not
    cancelled: ``den`` is always the characteristic polynomial of A. Lab03, task 1.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, 1)
    C : array_like, shape (1, n)
    D : float or array_like, shape (1, 1)

    Returns
    -------
    num, den : ndarray, shape (n + 1,) each
        ``den = np.poly(A)`` (monic); ``num`` has the same length, with leading zeros kept,
        like ``scipy.signal.ss2tf``.

    Raises
    ------
    TypeError
        If an entry is not a real number.
    ValueError
        If A is not square, the shapes of B, C, D do not fit A, the model has more than one
        input or output, an entry is NaN or inf, or a coefficient of the result overflows
        (they are products of up to n eigenvalues of A).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import ss2tf
    >>> num, den = ss2tf([[0, 1], [-2, -3]], [[0], [1]], [[1, 0]], 0)   # 1 / (s^2 + 3s + 2)
    >>> print(np.round(num, 6), np.round(den, 6))
    [0. 0. 1.] [1. 3. 2.]
    """
    A, B, C, D = as_state_space(A, B, C, D, one_input="ss2tf", one_output="ss2tf")
    n, d = A.shape[0], D[0, 0]
    if n == 0:
        return np.array([d]), np.ones(1)
    with np.errstate(over="ignore", invalid="ignore"):
        den = np.real(np.poly(np.linalg.eigvals(A)))
        num = _numerator_from_zeros(A, B, C, d, n) if np.all(np.isfinite(den)) else den
    _require_finite("ss2tf", "A, B, C and D", num, den)
    return num, den


def _numerator_from_zeros(A, B, C, d, n):
    """num = k prod(s - z_i), padded to n + 1 coefficients, from the invariant zeros z_i.

    The zeros are the finite generalized eigenvalues of the Rosenbrock pencil
    ([[A, B], [C, D]], diag(I, 0)); their number is n - r, where the relative degree r comes from
    the Markov parameters h_j = C A^(j-1) B (the first non-zero one is the gain k when D = 0).
    Unlike num = poly(A - BC) - poly(A) + D poly(A), this keeps full relative accuracy when the
    numerator is much smaller than the denominator (a gain of 1e-12 stays 1e-12).
    """
    from scipy.linalg import eig

    b, c = B[:, 0], C[0]
    # h_j = C A^(j-1) B, and |C| |A|^(j-1) |B|, the size of its rounding error divided by eps
    markov, scales, v, v_abs = [], [], b.copy(), np.abs(b)
    for _ in range(n):
        markov.append(float(c @ v))
        scales.append(float(np.abs(c) @ v_abs))
        v, v_abs = A @ v, np.abs(A) @ v_abs
    if d != 0:
        relative_degree, gain = 0, d
    else:
        nonzero = [j for j in range(n) if abs(markov[j]) > 1e3 * n * _EPS * scales[j]]
        if not nonzero:
            return np.zeros(n + 1)  # C (sI - A)^-1 B is identically zero
        relative_degree, gain = nonzero[0] + 1, markov[nonzero[0]]
    n_zeros = n - relative_degree
    zeros = np.array([])
    if n_zeros > 0:
        pencil = np.block([[A, B], [C, np.array([[d]])]])
        mask = np.zeros((n + 1, n + 1))
        mask[:n, :n] = np.eye(n)
        alpha, beta = eig(pencil, mask, right=False, homogeneous_eigvals=True)
        finiteness = np.abs(beta) / np.maximum(np.abs(alpha), np.finfo(float).tiny)
        finite = np.argsort(-finiteness)[:n_zeros]
        zeros = alpha[finite] / beta[finite]
    num = np.zeros(n + 1)
    num[relative_degree:] = np.real(gain * np.poly(zeros))
    return num


def tf2zp(num, den):
    """Transfer function to zeros, poles and gain.

    .. math:: \\frac{b_0 s^m + \\cdots + b_m}{a_0 s^n + \\cdots + a_n}
              = k \\frac{\\prod_i (s - z_i)}{\\prod_j (s - p_j)},\\qquad k = b_0 / a_0

    Parameters
    ----------
    num, den : array_like
        Coefficients in descending powers of s (leading zeros dropped).

    Returns
    -------
    z : ndarray, shape (m,)
        Zeros, the roots of num (``np.roots``; complex if any root is complex).
    p : ndarray, shape (n,)
        Poles, the roots of den.
    k : float
        Gain ``b0 / a0``; 0 (and no zeros) for the zero transfer function.

    Raises
    ------
    TypeError, ValueError
        As for :func:`tf2ss`.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import tf2zp
    >>> z, p, k = tf2zp(np.polymul([1, 8], [1, 2, 5]), np.polymul([2, 3], [3, 4, 13]))
    >>> print(np.sort_complex(np.round(z, 4)), round(k, 4))
    [-8.+0.j -1.-2.j -1.+2.j] 0.1667
    """
    num, den = _as_tf(num, den)
    if not num.any():
        return np.zeros(0), np.roots(den), 0.0
    return np.roots(num), np.roots(den), float(num[0] / den[0])


def zp2tf(z, p, k):
    """Zeros, poles and gain to transfer function.

    .. math:: num = k \\prod_i (s - z_i),\\qquad den = \\prod_j (s - p_j)

    Parameters
    ----------
    z, p : array_like, shape (m,) and (n,)
        Zeros and poles; real, or complex in conjugate pairs. May be empty.
    k : float
        Gain.

    Returns
    -------
    num, den : ndarray, shape (m + 1,) and (n + 1,)
        ``den`` is monic; ``num`` is not padded (``[0.]`` when k = 0).

    Raises
    ------
    TypeError
        If k is not a real number or z, p are not numeric.
    ValueError
        If complex values of z or p are not in conjugate pairs, a value is NaN or inf, or a
        coefficient of the result overflows (they are products of the roots, times k).

    Examples
    --------
    >>> from simlab.lti import zp2tf
    >>> num, den = zp2tf([-8], [-1 + 2j, -1 - 2j], 3)
    >>> num.tolist(), den.tolist()
    ([3.0, 24.0], [1.0, 2.0, 5.0])
    """
    z, p = _as_roots(z, "z"), _as_roots(p, "p")
    k = as_finite_scalar(k, "k")
    with np.errstate(over="ignore", invalid="ignore"):
        num = _strip(k * _poly_from_roots(z, "z"))
        den = _poly_from_roots(p, "p")
    _require_finite("zp2tf", "z, p and k", num, den)
    if len(num) > len(den):
        raise ValueError(
            f"z, p give an improper model: {len(num) - 1} zeros but {len(den) - 1} poles "
            f"(deg num > deg den). simlab works with proper transfer functions; add poles."
        )
    return num, den


def ss2zp(A, B, C, D):
    """State space (one input, one output) to zeros, poles and gain: ``tf2zp(*ss2tf(...))``.

    The zeros include uncontrollable or unobservable modes, which also appear among the poles;
    use :func:`minreal` to cancel them.

    Parameters
    ----------
    A, B, C, D : array_like
        As in :func:`ss2tf` (one input, one output).

    Returns
    -------
    z, p, k
        As in :func:`tf2zp`.

    Raises
    ------
    TypeError, ValueError
        As :func:`ss2tf`.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import ss2zp
    >>> z, p, k = ss2zp([[0, 1], [-2, -3]], [[0], [1]], [[3, 1]], 0)    # (s + 3)/(s^2 + 3s + 2)
    >>> print(np.round(z, 6), np.round(np.sort(p), 6), round(k, 6))
    [-3.] [-2. -1.] 1.0
    """
    return tf2zp(*ss2tf(A, B, C, D))


def zp2ss(z, p, k):
    """Zeros, poles and gain to state space: ``tf2ss(*zp2tf(z, p, k))``.

    This is the controllable canonical form of the expanded polynomials (as
    ``scipy.signal.zpk2ss``); MATLAB's ``zp2ss`` builds a different realisation (a cascade of
    second-order sections) of the same transfer function.

    Parameters
    ----------
    z, p, k
        As in :func:`zp2tf`.

    Returns
    -------
    A, B, C, D : ndarray
        As in :func:`tf2ss`.

    Raises
    ------
    TypeError, ValueError
        As :func:`zp2tf`; ValueError also if there are more zeros than poles (improper).

    Examples
    --------
    >>> from simlab.lti import zp2ss
    >>> A, B, C, D = zp2ss([], [-1, -2], 2)
    >>> A.tolist(), C.tolist()
    ([[-3.0, -2.0], [1.0, 0.0]], [[0.0, 2.0]])
    """
    return tf2ss(*zp2tf(z, p, k))
