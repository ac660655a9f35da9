"""Model reduction (降阶): minimal realisation and balanced truncation.

Reduction is a separate, explicit step that reports what it removed: :func:`minreal` cancels
(nearly) coinciding pole-zero pairs of a transfer function; :func:`balred` truncates the
balanced states with small Hankel singular values (:func:`hankel_singular_values`) of a stable
state-space model, with the error bound 2 (sigma_{r+1} + ... + sigma_n). Used in lab03, task 2.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_continuous_lyapunov, svd

from simlab.lti.forms import _EPS, _as_tf
from simlab.results import Result
from simlab.validation import as_choice, as_positive_scalar, as_state_space, describe

__all__ = ["minreal", "MinrealResult", "hankel_singular_values", "balred", "BalredResult"]

_SQRT_EPS = np.sqrt(_EPS)


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

    Raises
    ------
    TypeError, ValueError
        For num and den as in :func:`simlab.lti.tf2ss` (non-numeric, NaN or inf, empty, zero
        den, improper, out of range); for tol not finite and positive.

    Examples
    --------
    >>> from simlab.lti import minreal, series
    >>> result = minreal(*series([1], [1, 1], [1, 1], [1, 2]))       # (s+1)/((s+1)(s+2))
    >>> result.num.tolist(), result.den.tolist(), result.removed_poles.tolist()
    ([1.0], [1.0, 2.0], [-1.0])
    """
    num, den = _as_tf(num, den)
    tol = as_positive_scalar(tol, "tol")
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
    with np.errstate(over="ignore", invalid="ignore"):
        BB, CC = B @ B.T, C.T @ C
    for product, name in ((BB, "B B^T"), (CC, "C^T C")):
        _require_finite_gramian(product, name)  # before LAPACK sees it
    with np.errstate(over="ignore", invalid="ignore"):
        Wc, Wo = solve_continuous_lyapunov(A, -BB), solve_continuous_lyapunov(A.T, -CC)
    for gramian, name in ((Wc, "the controllability Gramian Wc"), (Wo, "the observability Gramian Wo")):
        _require_finite_gramian(gramian, name)
    Lc, Lo = _psd_factor(Wc), _psd_factor(Wo)
    # Lo^T Lc = U Sigma V^T; the singular values are sqrt(eig(Wc Wo)), the HSVs.
    U, hsv, Vt = svd(Lo.T @ Lc)
    return hsv, U, Vt.T, Lc, Lo


def _require_finite_gramian(matrix, what):
    if not np.all(np.isfinite(matrix)):
        raise ValueError(
            f"A, B and C are out of range for balancing: {what} overflows the floating-point "
            f"range (about 1.8e308), from large entries of B or C or an A close to instability. "
            f"Rescale the states (B by 1/k and C by k keeps the transfer function) or the units."
        )


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
    TypeError
        If an entry is not a real number.
    ValueError
        If A is not stable, the shapes do not fit (see :func:`ss2tf`), or the Gramians overflow
        the floating-point range (B B^T or C^T C beyond about 1.8e308, or an A close to
        instability).

    Examples
    --------
    >>> from simlab.lti import hankel_singular_values
    >>> hsv = hankel_singular_values([[-1.0]], [[1.0]], [[1.0]])    # 1/(s+1): sigma = 1/2
    >>> [round(float(sigma), 9) for sigma in hsv]
    [0.5]
    """
    A, B, C, _ = as_state_space(A, B, C)
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
        If A is not stable, order is out of range or above the numerically minimal order, the
        shapes do not fit, or the Gramians overflow (see :func:`hankel_singular_values`).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.lti import balred, tf2ss
    >>> full = tf2ss([1, 10], np.polymul([1, 1], [1, 10]))   # (s+10)/((s+1)(s+10)) = 1/(s+1)
    >>> reduced = balred(*full, order=1)
    >>> print(np.round(reduced.hsv, 6), round(reduced.error_bound, 6))
    [0.5 0. ] 0.0
    """
    A, B, C, D = as_state_space(A, B, C, D)
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
        zero = ("" if minimal else
                f" Here all of them are zero: the system (A, B, C) has no input-output behaviour in floating "
                f"point (largest |A| {np.max(np.abs(A)):.3g}, |B| {np.max(np.abs(B)):.3g}, |C| "
                f"{np.max(np.abs(C)):.3g}: B or C zero, or so small that the Gramians underflow).")
        raise ValueError(
            f"order = {order} is above the numerically minimal order {minimal}: the Hankel "
            f"singular values beyond it are zero (uncontrollable or unobservable states), so "
            f"those states cannot be balanced. Use order <= {minimal}, or minreal first.{zero}"
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
