"""Linear time-invariant (LTI, 线性定常) models: forms, conversions, connections and reduction.

The three model forms of the course, in the MATLAB conventions of the modelling lab:

* transfer function (传递函数) ``(num, den)``: coefficient sequences in descending powers of s,
  ``G(s) = (b0 s^m + ... + bm) / (a0 s^n + ... + an)``; leading zeros are dropped and a scalar
  ``num`` is a constant numerator;
* state space (状态空间) ``(A, B, C, D)``: 2-D float arrays, ``dx/dt = A x + B u``,
  ``y = C x + D u``; a 1-D ``B`` is read as a column, a 1-D ``C`` as a row, a scalar ``D`` as 1x1;
* zero-pole-gain (零极点) ``(z, p, k)``: ``G(s) = k (s - z1)...(s - zm) / ((s - p1)...(s - pn))``.

Conversions: :func:`tf2ss`, :func:`ss2tf`, :func:`tf2zp`, :func:`zp2tf`, :func:`ss2zp`,
:func:`zp2ss`. Connections (连接): :func:`series`, :func:`parallel`, :func:`feedback`; none of them
cancels pole-zero pairs, so the order of the result is the sum of the orders, as with MATLAB's
polynomial ``series``/``parallel``/``feedback``. Model reduction (降阶) is a separate, explicit
step that reports what it removed: :func:`minreal` and :func:`balred`. :class:`TF` is a small
value type with ``*``, ``+`` and ``.feedback`` on top of these functions.

Every function takes proper models only (deg num <= deg den, the ones a state-space model can
represent): an improper one is bad input and gets a ValueError naming the degrees. An ideal PD
controller ``Kd s + Kp`` is written with a fast filter pole, ``(Kd s + Kp)/(Tf s + 1)``.

Used in lab03, the modelling lab of seed 003 (实验一 系统建模的MATLAB实现), whose example is
G(s) = (s+8)(s^2+2s+5) / ((2s+3)(3s^2+4s+13)).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_continuous_lyapunov, svd

from simlab.results import Result
from simlab.validation import as_choice, as_finite_scalar, as_real_array, describe

__all__ = [
    "tf2ss",
    "ss2tf",
    "tf2zp",
    "zp2tf",
    "ss2zp",
    "zp2ss",
    "series",
    "parallel",
    "feedback",
    "minreal",
    "MinrealResult",
    "hankel_singular_values",
    "balred",
    "BalredResult",
    "TF",
]

_EPS = np.finfo(float).eps
_SQRT_EPS = np.sqrt(_EPS)

# ---------------------------------------------------------------------------------------------
# Argument checking (private).
# ---------------------------------------------------------------------------------------------


def _strip(poly):
    """Drop leading zeros; the zero polynomial becomes ``[0.0]``."""
    nonzero = np.flatnonzero(poly)
    return poly[nonzero[0]:].copy() if nonzero.size else np.zeros(1)


def _as_poly(value, name):
    """Coefficients in descending powers of s as a 1-D float array, leading zeros removed."""
    poly = as_real_array(value, name)
    if poly.ndim == 0:
        poly = poly.reshape(1)
    if poly.ndim != 1:
        raise ValueError(
            f"{name} must be a 1-D sequence of coefficients in descending powers of s, got an "
            f"array of shape {poly.shape}. Example: s^2 + 3s + 2 is [1, 3, 2]."
        )
    if poly.size == 0:
        raise ValueError(f"{name} is empty; give at least one coefficient (0 for the zero gain).")
    return _strip(poly)


def _as_tf(num, den, names=("num", "den")):
    num, den = _as_poly(num, names[0]), _as_poly(den, names[1])
    if not den.any():
        raise ValueError(f"{names[1]} must not be the zero polynomial, got all zeros.")
    if len(num) > len(den):
        raise ValueError(
            f"{names[0]}/{names[1]} is improper: deg {names[0]} = {len(num) - 1} > deg "
            f"{names[1]} = {len(den) - 1}. simlab works with proper transfer functions "
            f"(deg num <= deg den), the ones a state-space model can represent; an ideal "
            f"differentiator cannot be simulated. Add a fast pole, e.g. s/(0.01 s + 1)."
        )
    return num, den


def _require_proper(num, den, what):
    if len(num) > len(den):
        raise ValueError(
            f"The transfer function is improper: num has degree {len(num) - 1} but den has "
            f"degree {len(den) - 1}. {what} needs deg num <= deg den (a state-space model "
            f"cannot differentiate its input)."
        )


def _as_matrix(value, name, vector_as):
    matrix = as_real_array(value, name)
    if matrix.ndim == 0:
        matrix = matrix.reshape(1, 1)
    elif matrix.ndim == 1:
        matrix = matrix.reshape((-1, 1) if vector_as == "column" else (1, -1))
    elif matrix.ndim > 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {matrix.shape}.")
    return matrix


def _as_ss(A, B, C, D, siso_for=None):
    """Check (A, B, C, D) like python-control; ``D=None`` means zeros. ``siso_for`` names the
    function when only one input and one output are allowed."""
    A = as_real_array(A, "A")
    if A.size == 0 and A.ndim < 2:  # [] for a model without states
        A = A.reshape(0, 0)
    if A.ndim == 0:
        A = A.reshape(1, 1)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A must be square (n x n), got shape {A.shape}.")
    n = A.shape[0]
    B = _as_matrix(B, "B", "column")
    C = _as_matrix(C, "C", "row")
    if B.shape[0] != n:
        raise ValueError(f"B must have as many rows as A (A is {n}x{n}, got B of shape {B.shape}).")
    if C.shape[1] != n:
        raise ValueError(
            f"C must have as many columns as A (A is {n}x{n}, got C of shape {C.shape})."
        )
    D = np.zeros((C.shape[0], B.shape[1])) if D is None else _as_matrix(D, "D", "column")
    if D.shape != (C.shape[0], B.shape[1]):
        raise ValueError(
            f"D must have shape {(C.shape[0], B.shape[1])} = (rows of C, columns of B), "
            f"got {D.shape}."
        )
    if siso_for and B.shape[1] != 1:
        raise ValueError(
            f"{siso_for} handles one input: B must have exactly one column, got shape {B.shape}. "
            f"For input j pass B[:, [j]] and D[:, [j]] (MATLAB's iu argument)."
        )
    if siso_for and C.shape[0] != 1:
        raise ValueError(
            f"{siso_for} handles one output: C must have exactly one row, got shape {C.shape}. "
            f"For output i pass C[[i], :] and D[[i], :]."
        )
    return A, B, C, D


def _as_roots(value, name):
    roots = as_real_array(value, name, allow_complex=True)
    if roots.ndim == 2 and 1 in roots.shape:  # a MATLAB row or column vector
        roots = roots.ravel()
    if roots.ndim > 1:
        raise ValueError(f"{name} must be a 1-D sequence of roots, got shape {roots.shape}.")
    return roots.reshape(-1)


def _poly_from_roots(roots, name):
    """Monic real polynomial with the given roots; complex roots must come in conjugate pairs."""
    if roots.size == 0:
        return np.ones(1)
    poly = np.atleast_1d(np.poly(roots)).astype(complex)
    scale = np.abs(np.poly(-np.abs(roots)))  # coefficients of prod(s + |r_i|) bound |poly|
    if np.any(np.abs(poly.imag) > 1e3 * len(roots) * _EPS * scale):
        raise ValueError(
            f"{name} must contain real values or complex conjugate pairs (a + bj with a - bj) "
            f"so that the polynomial has real coefficients, got {name} = {np.round(roots, 6)}."
        )
    return poly.real.copy()


def _combine(terms):
    """Sum of ``sign * conv(p, q)`` over ``(sign, p, q)``; coefficients at rounding level -> 0.

    A coefficient whose size is below the rounding error of the products that make it up
    (``|c| <= 4 L eps sum |p| * |q|``) is indistinguishable from 0 and set to exactly 0, so that a
    cancelled leading term does not leave a spurious tiny coefficient (and a huge root).
    """
    length = max(len(p) + len(q) - 1 for _, p, q in terms)
    total, scale = np.zeros(length), np.zeros(length)
    for sign, p, q in terms:
        product = np.convolve(p, q)
        total[length - len(product):] += sign * product
        scale[length - len(product):] += np.convolve(np.abs(p), np.abs(q))
    total[np.abs(total) <= 4 * length * _EPS * scale] = 0.0
    return _strip(total)


# ---------------------------------------------------------------------------------------------
# Conversions between the model forms.
# ---------------------------------------------------------------------------------------------


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
        If the model is improper (deg num > deg den), ``den`` is zero or empty, or a coefficient
        is NaN or inf.

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
    num, den = _as_tf(num, den)
    _require_proper(num, den, "tf2ss")
    n = len(den) - 1
    a = den / den[0]  # monic denominator: 1, a1, ..., an
    b = np.concatenate([np.zeros(n + 1 - len(num)), num]) / den[0]  # b0, ..., bn
    A = np.zeros((n, n))
    if n:
        A[0, :] = -a[1:]  # first row: -a1 ... -an
        A[1:, :-1] = np.eye(n - 1)  # ones on the sub-diagonal: x_{i+1}' = x_i
    B = np.zeros((n, 1))
    B[:1, 0] = 1.0
    C = (b[1:] - b[0] * a[1:]).reshape(1, n)  # c_i = b_i - b0 a_i
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
        input or output, or an entry is NaN or inf.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import ss2tf
    >>> num, den = ss2tf([[0, 1], [-2, -3]], [[0], [1]], [[1, 0]], 0)   # 1 / (s^2 + 3s + 2)
    >>> print(np.round(num, 6), np.round(den, 6))
    [0. 0. 1.] [1. 3. 2.]
    """
    A, B, C, D = _as_ss(A, B, C, D, siso_for="ss2tf")
    n, d = A.shape[0], D[0, 0]
    if n == 0:
        return np.array([d]), np.ones(1)
    den = np.real(np.poly(np.linalg.eigvals(A)))
    return _numerator_from_zeros(A, B, C, d, n), den


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
        If complex values of z or p are not in conjugate pairs, or a value is NaN or inf.

    Examples
    --------
    >>> from simlab.lti import zp2tf
    >>> num, den = zp2tf([-8], [-1 + 2j, -1 - 2j], 3)
    >>> num.tolist(), den.tolist()
    ([3.0, 24.0], [1.0, 2.0, 5.0])
    """
    z, p = _as_roots(z, "z"), _as_roots(p, "p")
    k = as_finite_scalar(k, "k")
    num = _strip(k * _poly_from_roots(z, "z"))
    den = _poly_from_roots(p, "p")
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


# ---------------------------------------------------------------------------------------------
# Connections (series, parallel, feedback). No pole-zero pair is ever cancelled here.
# ---------------------------------------------------------------------------------------------


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
    return _combine([(1, num1, num2)]), _combine([(1, den1, den2)])


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
    return _combine([(1, num1, den2), (1, num2, den1)]), _combine([(1, den1, den2)])


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
    den = _combine([(1, den1, den2), (-sign, num1, num2)])  # d1 d2 - sign n1 n2
    if not den.any():
        raise ValueError(
            "The feedback loop is ill-posed: d1 d2 - sign n1 n2 is identically zero, so "
            "1 - sign G H = 0 at every s and the closed loop has no transfer function."
        )
    return _combine([(1, num1, den2)]), den


# ---------------------------------------------------------------------------------------------
# Model reduction: minimal realisation (pole-zero cancellation) and balanced truncation.
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class MinrealResult(Result):
    """Result of :func:`minreal`; unpacks as ``num, den``.

    Attributes
    ----------
    num, den : ndarray, 1-D
        The reduced transfer function; the leading coefficients of the input are kept.
    removed_zeros, removed_poles : ndarray, shape (r,)
        The cancelled pairs: ``removed_zeros[i]`` cancelled ``removed_poles[i]``. For the zero
        transfer function all poles are removed and ``removed_zeros`` is empty.
    """

    unpacks_as = ("num", "den")

    num: np.ndarray
    den: np.ndarray
    removed_zeros: np.ndarray
    removed_poles: np.ndarray

    def __repr__(self) -> str:
        return (
            f"MinrealResult(num={np.round(self.num, 6).tolist()}, den={np.round(self.den, 6).tolist()}, "
            f"removed_poles={np.round(self.removed_poles, 6).tolist()})"
        )


def minreal(num, den, tol=1e-4):
    """Cancel pole-zero pairs that (nearly) coincide: minimal realisation (最小实现).

    Each zero z is paired with the nearest pole p not yet used; the pair is cancelled when

    .. math:: |z - p| \\le \\text{tol} \\cdot \\max(1, |p|)

    The default tol = 1e-4 is well above the distance that rounding puts between the computed
    zero and pole of a cancelled triple root (about 1e-5 |p|, from eps^(1/3)). Lab03, task 2
    (reduction of the series connection).

    Parameters
    ----------
    num, den : array_like
        Coefficients in descending powers of s.
    tol : float, optional
        Relative distance below which a zero and a pole cancel; tol > 0.

    Returns
    -------
    MinrealResult
        Unpacks as ``num, den``; ``removed_zeros`` and ``removed_poles`` say what went.

    Examples
    --------
    >>> from simlab.lti import minreal, series
    >>> result = minreal(*series([1], [1, 1], [1, 1], [1, 2]))       # (s+1)/((s+1)(s+2))
    >>> result.num.tolist(), result.den.tolist(), result.removed_poles.tolist()
    ([1.0], [1.0, 2.0], [-1.0])
    """
    num, den = _as_tf(num, den)
    tol = as_finite_scalar(tol, "tol")
    if tol <= 0:
        raise ValueError(f"tol must be positive, got {tol!r}.")
    poles, nothing = np.roots(den).astype(complex), np.zeros(0, dtype=complex)
    if not num.any():
        return MinrealResult(num, den[:1].copy(), nothing, poles)
    free = list(poles)
    kept_zeros, pairs = [], []
    for zero in np.roots(num):
        if free:
            j = int(np.argmin([abs(zero - pole) for pole in free]))
            if abs(zero - free[j]) <= tol * max(1.0, abs(free[j])):
                pairs.append((zero, free.pop(j)))
                continue
        kept_zeros.append(zero)
    if not pairs:
        return MinrealResult(num, den, nothing, nothing)
    new_num = num[0] * np.real(np.poly(kept_zeros)) if kept_zeros else num[:1].copy()
    new_den = den[0] * np.real(np.poly(free)) if free else den[:1].copy()
    removed_zeros, removed_poles = (np.array(side, dtype=complex) for side in zip(*pairs))
    return MinrealResult(
        np.atleast_1d(new_num), np.atleast_1d(new_den),
        np.real_if_close(removed_zeros), np.real_if_close(removed_poles),
    )


def _require_stable(A, what):
    eigenvalues = np.linalg.eigvals(A)
    if eigenvalues.size and np.max(eigenvalues.real) >= 0:
        worst = eigenvalues[np.argmax(eigenvalues.real)]
        raise ValueError(
            f"{what} needs a stable A (every eigenvalue with negative real part): A has the "
            f"eigenvalue {complex(worst):.6g}. The Gramians do not exist for unstable or "
            f"marginally stable systems; split off the unstable part first."
        )


def _psd_factor(W):
    """L with W = L L^T for a symmetric positive semidefinite W (eigenvalues < 0 clipped)."""
    w, U = np.linalg.eigh((W + W.T) / 2)
    return U * np.sqrt(np.clip(w, 0, None))


def _balance(A, B, C):
    """Hankel singular values and the square-root balancing factors U, V, Lc, Lo.

    A companion form with widely spread coefficients is first scaled by a diagonal similarity
    (``scipy.linalg.matrix_balance``, powers of 2, so exact); the Gramians of the scaled model
    are much better conditioned, and the Hankel singular values do not change. The factors
    returned belong to the original coordinates (Lc and Lo are mapped back).
    """
    from scipy.linalg import matrix_balance

    _, (scaling, _) = matrix_balance(A, permute=False, separate=True)
    A = A * (1.0 / scaling)[:, None] * scaling[None, :]  # T^-1 A T with T = diag(scaling)
    B = B / scaling[:, None]
    C = C * scaling[None, :]
    hsv, U, V, Lc, Lo = _balance_scaled(A, B, C)
    return hsv, U, V, scaling[:, None] * Lc, Lo / scaling[:, None]


def _balance_scaled(A, B, C):
    # Controllability and observability Gramians (能控/能观格拉姆矩阵):
    #   A Wc + Wc A^T + B B^T = 0,   A^T Wo + Wo A + C^T C = 0
    Lc = _psd_factor(solve_continuous_lyapunov(A, -B @ B.T))
    Lo = _psd_factor(solve_continuous_lyapunov(A.T, -C.T @ C))
    # Lo^T Lc = U Sigma V^T; the singular values are sqrt(eig(Wc Wo)), the HSVs.
    U, hsv, Vt = svd(Lo.T @ Lc)
    return hsv, U, Vt.T, Lc, Lo


def hankel_singular_values(A, B, C):
    """Hankel singular values (汉克尔奇异值) of a stable system, largest first.

    .. math:: \\sigma_i = \\sqrt{\\lambda_i(W_c W_o)},\\quad
              A W_c + W_c A^T + B B^T = 0,\\quad A^T W_o + W_o A + C^T C = 0

    A state with a small sigma_i is both hard to reach and hard to observe.

    Parameters
    ----------
    A : array_like, shape (n, n), stable
    B : array_like, shape (n, m)
    C : array_like, shape (p, n)

    Returns
    -------
    hsv : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If A is not stable or the shapes do not fit (see :func:`ss2tf`).

    Examples
    --------
    >>> from simlab.lti import hankel_singular_values
    >>> hsv = hankel_singular_values([[-1.0]], [[1.0]], [[1.0]])    # 1/(s+1): sigma = 1/2
    >>> [round(float(sigma), 9) for sigma in hsv]
    [0.5]
    """
    A, B, C, _ = _as_ss(A, B, C, None)
    _require_stable(A, "hankel_singular_values")
    return _balance(A, B, C)[0]


@dataclass(frozen=True, repr=False)
class BalredResult(Result):
    """Result of :func:`balred`; unpacks as ``A, B, C, D`` of the reduced model.

    Attributes
    ----------
    A, B, C, D : ndarray
        Reduced model, order r (in balanced coordinates for ``method="truncate"``).
    hsv : ndarray, shape (n,)
        Hankel singular values of the full model, largest first.
    order : int
        r, the number of states kept: the first r balanced states.
    method : str
        ``"truncate"`` or ``"matchdc"``.
    """

    unpacks_as = ("A", "B", "C", "D")

    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    hsv: np.ndarray
    order: int
    method: str

    @property
    def discarded_hsv(self):
        """Hankel singular values of the removed balanced states, sigma_{r+1} .. sigma_n."""
        return self.hsv[self.order:]

    @property
    def error_bound(self):
        """Upper bound on the peak frequency-response error, 2 (sigma_{r+1} + ... + sigma_n)."""
        return 2.0 * float(np.sum(self.discarded_hsv))

    def __repr__(self) -> str:
        return (
            f"BalredResult(order {len(self.hsv)} -> {self.order}, method={self.method!r}, "
            f"discarded_hsv={np.round(self.discarded_hsv, 6).tolist()}, "
            f"error_bound={self.error_bound:.3g})"
        )


def balred(A, B, C, D, order, method="truncate"):
    """Balanced truncation (平衡截断): reduce a stable model to ``order`` states.

    Square-root method: factor the Gramians Wc = Lc Lc^T, Wo = Lo Lo^T, take the SVD
    ``Lo^T Lc = U Sigma V^T`` and, with the first r singular values Sigma_1,

    .. math::
        T = L_c V_1 \\Sigma_1^{-1/2},\\quad T^{+} = \\Sigma_1^{-1/2} U_1^T L_o^T,\\quad
        A_r = T^{+} A T,\\ B_r = T^{+} B,\\ C_r = C T,\\ D_r = D

    The error bound ``max_w |G(jw) - G_r(jw)| <= 2 (sigma_{r+1} + ... + sigma_n)`` holds for both
    methods. ``method="matchdc"`` eliminates the discarded balanced states by singular
    perturbation (their derivatives set to 0), which keeps the DC gain exactly (MATLAB's
    default); states with sigma below sqrt(eps) sigma_1 are truncated first. Lab03, task 2
    (模型降阶, compare the step responses before and after).

    Parameters
    ----------
    A, B, C, D : array_like, shapes (n, n), (n, m), (p, n), (p, m)
        A stable model (several inputs and outputs are allowed).
    order : int
        r, with 0 <= r <= n.
    method : {"truncate", "matchdc"}

    Returns
    -------
    BalredResult
        Unpacks as ``Ar, Br, Cr, Dr``; ``.hsv``, ``.discarded_hsv`` and ``.error_bound`` say
        which balanced states were removed and what that can cost.

    Raises
    ------
    TypeError
        If order is not an integer.
    ValueError
        If A is not stable, order is out of range or above the numerically minimal order, or
        the shapes do not fit.

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import balred, tf2ss
    >>> full = tf2ss([1, 10], np.polymul([1, 1], [1, 10]))   # (s+10)/((s+1)(s+10)) = 1/(s+1)
    >>> reduced = balred(*full, order=1)
    >>> print(np.round(reduced.hsv, 6), round(reduced.error_bound, 6))
    [0.5 0. ] 0.0
    """
    A, B, C, D = _as_ss(A, B, C, D)
    n = A.shape[0]
    if isinstance(order, bool) or not isinstance(order, numbers.Integral):
        raise TypeError(f"order must be an integer number of states, got {describe(order)}.")
    if not 0 <= order <= n:
        raise ValueError(f"order must satisfy 0 <= order <= n = {n}, got {order}.")
    as_choice(method, "method", ("truncate", "matchdc"))
    _require_stable(A, "balred")
    if n == 0:
        return BalredResult(A, B, C, D, np.zeros(0), 0, method)
    hsv, U, V, Lc, Lo = _balance(A, B, C)
    # A zero HSV is the square root of a zero Gramian eigenvalue computed to about eps, so it
    # comes out near sqrt(eps) * sigma_1: that is the rounding level of the HSVs.
    minimal = int(np.sum(hsv > n * _SQRT_EPS * hsv[0]))
    if order > minimal:
        raise ValueError(
            f"order = {order} is above the numerically minimal order {minimal}: the Hankel "
            f"singular values beyond it are zero (uncontrollable or unobservable states), so "
            f"those states cannot be balanced. Use order <= {minimal}, or minreal first."
        )
    # matchdc balances every state that matters; the rest (sigma < sqrt(eps) sigma_1) is cut.
    r_bal = order if method == "truncate" else max(order, int(np.sum(hsv > _SQRT_EPS * hsv[0])))
    # Balancing transformation of the first r_bal states (square-root method).
    root = 1.0 / np.sqrt(hsv[:r_bal])
    T = Lc @ V[:, :r_bal] * root  # columns scaled by Sigma^{-1/2}
    T_left = (U[:, :r_bal] * root).T @ Lo.T
    Ab, Bb, Cb = T_left @ A @ T, T_left @ B, C @ T
    if method == "truncate" or order == r_bal:
        return BalredResult(Ab, Bb, Cb, D.copy(), hsv, order, method)
    # Singular perturbation: set x2' = 0 in x2' = A21 x1 + A22 x2 + B2 u and eliminate x2.
    k = order
    A11, A12, A21, A22 = Ab[:k, :k], Ab[:k, k:], Ab[k:, :k], Ab[k:, k:]
    X = np.linalg.solve(A22, np.hstack([A21, Bb[k:]]))  # A22^{-1} [A21, B2]
    Ar = A11 - A12 @ X[:, :k]
    Br = Bb[:k] - A12 @ X[:, k:]
    Cr = Cb[:, :k] - Cb[:, k:] @ X[:, :k]
    Dr = D - Cb[:, k:] @ X[:, k:]
    return BalredResult(Ar, Br, Cr, Dr, hsv, order, method)


# ---------------------------------------------------------------------------------------------
# A small value type on top of the functions.
# ---------------------------------------------------------------------------------------------


def _poly_text(poly):
    """``[6, 17, 38, 39]`` -> ``'6 s^3 + 17 s^2 + 38 s + 39'``."""
    terms, degree = [], len(poly) - 1
    for i, c in enumerate(poly):
        power = degree - i
        if c == 0 and len(poly) > 1:
            continue
        size = f"{abs(c):.6g}"
        factor = "" if power == 0 else ("s" if power == 1 else f"s^{power}")
        body = factor if size == "1" and factor else f"{size} {factor}".strip()
        terms.append((" - " if c < 0 else " + ") + body)
    text = "".join(terms)
    return ("-" + text[3:]) if text.startswith(" - ") else text[3:]


@dataclass(frozen=True, eq=False, repr=False)
class TF:
    """Transfer function value ``num/den`` with ``*`` (series), ``+`` (parallel), ``.feedback``.

    Parameters
    ----------
    num : array_like or float
        Numerator coefficients, descending powers of s.
    den : array_like or float, optional
        Denominator coefficients; default 1 (a static gain).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import TF
    >>> G = TF(np.polymul([1, 8], [1, 2, 5]), np.polymul([2, 3], [3, 4, 13]))
    >>> G
    TF(num=[1, 10, 21, 40], den=[6, 17, 38, 39])
    >>> print(G.feedback())                                   # unity negative feedback
      s^3 + 10 s^2 + 21 s + 40
    ----------------------------
     7 s^3 + 27 s^2 + 59 s + 79
    >>> round(G.dcgain(), 6), (2 * G).num.tolist()
    (1.025641, [2.0, 20.0, 42.0, 80.0])
    """

    num: np.ndarray
    den: np.ndarray = 1.0
    __array_ufunc__ = None  # so that numpy scalars defer to TF: np.float64(2) * G is a TF

    def __post_init__(self):
        num, den = _as_tf(self.num, self.den)
        num.setflags(write=False)
        den.setflags(write=False)
        object.__setattr__(self, "num", num)
        object.__setattr__(self, "den", den)

    @staticmethod
    def _coerce(other):
        return other if isinstance(other, TF) else TF(other)

    def __iter__(self):
        return iter((self.num, self.den))

    def __mul__(self, other):
        other = self._coerce(other)
        return TF(*series(self.num, self.den, other.num, other.den))

    __rmul__ = __mul__

    def __add__(self, other):
        other = self._coerce(other)
        return TF(*parallel(self.num, self.den, other.num, other.den))

    __radd__ = __add__

    def __neg__(self):
        return TF(-self.num, self.den)

    def __sub__(self, other):
        return self + (-self._coerce(other))

    def __rsub__(self, other):
        return self._coerce(other) + (-self)

    def __call__(self, s):
        """Evaluate G(s) at a (complex) point or array, e.g. ``G(1j * w)``."""
        s = as_real_array(s, "s", allow_complex=True)
        return np.polyval(self.num, s) / np.polyval(self.den, s)

    def feedback(self, other=1, sign=-1):
        """Closed loop G / (1 - sign G H) with H = ``other``; see :func:`feedback`."""
        other = self._coerce(other)
        return TF(*feedback(self.num, self.den, other.num, other.den, sign))

    def poles(self):
        """Roots of den."""
        return np.roots(self.den)

    def zeros(self):
        """Roots of num (empty for a constant numerator)."""
        return np.roots(self.num) if self.num.any() else np.zeros(0)

    def dcgain(self):
        """Steady-state gain G(0) = num(0)/den(0); inf if G has a pole at s = 0 (积分环节)."""
        num, den = self.num, self.den
        if not num.any():
            return 0.0
        while num[-1] == 0 and den[-1] == 0:  # common factors s cancel in the limit s -> 0
            num, den = num[:-1], den[:-1]
        return float(num[-1] / den[-1]) if den[-1] != 0 else float("inf")

    def to_ss(self):
        """Controllable canonical realisation ``(A, B, C, D)``; see :func:`tf2ss`."""
        return tf2ss(self.num, self.den)

    def __repr__(self) -> str:
        def text(poly):
            return "[" + ", ".join(f"{c:.6g}" for c in poly) + "]"

        return f"TF(num={text(self.num)}, den={text(self.den)})"

    def __str__(self) -> str:
        top, bottom = _poly_text(self.num), _poly_text(self.den)
        width = max(len(top), len(bottom)) + 2
        return "\n".join([top.center(width).rstrip(), "-" * width, bottom.center(width).rstrip()])
