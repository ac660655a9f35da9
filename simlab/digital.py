"""Discrete-time transfer functions (脉冲传递函数): c2d, a G(s) turned into a G(z).

* zero- and first-order hold: exact sampling (the discrete similarity method of
  :mod:`simlab.similarity`), converted back to a transfer function;
* Tustin: the bilinear transform (双线性变换) s = (2/T)(z - 1)/(z + 1).

Used in lab03_models (seed 003: c2d with zero- and first-order hold).
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from simlab.lti import tf2ss
from simlab.lti.forms import _as_tf
from simlab.similarity import _discretize
from simlab.validation import as_choice, as_positive_scalar, as_real_array, describe

__all__ = ["C2D_METHODS", "c2d"]

C2D_METHODS = ("zoh", "foh", "tustin")  #: methods of :func:`c2d`


def _check_tf(num, den):
    """c2d's coefficients: den with a non-zero leading coefficient, then the rules of simlab.lti.

    After its own shape checks, c2d applies the checks of every function of :mod:`simlab.lti`
    (``simlab.lti.forms._as_tf``): an empty num is refused, and so are an improper G and
    coefficients out of range (den = [1e-320, 1]), with the same messages as ``tf2ss``.
    """
    num_array, den_array = as_real_array(num, "num"), as_real_array(den, "den")
    if num_array.ndim > 1:
        raise ValueError(f"num must be 1-D (descending powers of s), got shape {num_array.shape}.")
    if den_array.ndim != 1 or den_array.size == 0 or den_array[0] == 0:
        raise ValueError(
            f"den must be 1-D (descending powers of s) with a non-zero leading coefficient, "
            f"e.g. [1, 3, 2], got {describe(den_array)}."
        )
    num, den = _as_tf(num_array, den_array)  # leading zeros of num dropped (0 -> [0.0])
    return np.concatenate((np.zeros(den.size - num.size), num)), den


def _tustin(num, den, T):
    """Substitute s = (2/T)(z - 1)/(z + 1) and multiply through by (z + 1)^n."""
    n = den.size - 1
    # s^k -> (2/T)^k (z - 1)^k (z + 1)^(n - k), for the coefficient of s^k at index n - k
    z_minus, z_plus = np.poly1d([1.0, -1.0]), np.poly1d([1.0, 1.0])
    terms = [(2.0 / T) ** k * (z_minus**k * z_plus ** (n - k)).coeffs for k in range(n + 1)]
    return num[::-1] @ np.array(terms), den[::-1] @ np.array(terms)


def _discrete_ss2tf(Phi, Gamma, C, D):
    """num(z), den(z) of C (zI - Phi)^{-1} Gamma + D from the Markov parameters h_j.

    den = det(zI - Phi) = z^n + a_1 z^(n-1) + ...; with G(z) = sum_j h_j z^{-j}, h_0 = D and
    h_j = C Phi^(j-1) Gamma, num_k = sum_{j <= k} a_(k-j) h_j. Unlike scipy's ss2tf (a difference
    of two characteristic polynomials), this keeps numerator coefficients ~T^n accurate at small T.
    """
    den = np.real(np.poly(linalg.eigvals(Phi)))
    h, v = [D[0, 0]], Gamma[:, 0]
    for _ in range(len(Phi)):
        h.append(C[0] @ v)  # h_j = C Phi^(j-1) Gamma
        v = Phi @ v
    return np.array([den[k::-1] @ np.array(h[: k + 1]) for k in range(len(den))]), den


def c2d(num, den, T, method="zoh"):
    """Discretize G(s) = num(s) / den(s) with sample period T (as MATLAB's c2dm).

    * ``"zoh"``, ``"foh"``: exact sampling with a zero-order or triangle hold. G(s) is realized
      as (A, B, C, D), discretized by :func:`discretize` and converted back; for the triangle
      hold the state xi[k] = x[k] - Gamma_hat u[k] gives the proper discrete system

      .. math::
          \\xi[k+1] = \\Phi\\xi[k] + (\\Gamma - \\hat\\Gamma + \\Phi\\hat\\Gamma)u[k],\\qquad
          y[k] = C\\xi[k] + (D + C\\hat\\Gamma)u[k].

    * ``"tustin"``: the bilinear transform (双线性变换) s = (2/T)(z - 1)/(z + 1).

    Used in lab03_models (seed 003: c2d with zero- and first-order hold).

    Parameters
    ----------
    num, den : array_like, 1-D
        Coefficients in descending powers of s, deg num <= deg den = n.
    T : float, sample period > 0
    method : {"zoh", "foh", "tustin"}

    Returns
    -------
    numd, dend : ndarray, shape (n + 1,)
        Coefficients in descending powers of z, ``dend[0] == 1``; numd has leading zeros to the
        length of dend, as in MATLAB.

    Raises
    ------
    TypeError, ValueError
        For non-numeric coefficients; for a zero leading coefficient of den, an empty num, an
        improper G or coefficients out of range (the rules and messages of :mod:`simlab.lti`,
        as ``tf2ss``), T not positive, or an unknown method; ValueError also if the discrete
        coefficients overflow (e^{pT} for a pole p with Re(p) T > 709.78, see
        :func:`discretize`, or (2/T)^n for ``"tustin"``).

    Examples
    --------
    1/(s + 1) with a zero-order hold is (1 - e^{-T}) / (z - e^{-T}):

    >>> import numpy as np
    >>> from simlab.digital import c2d
    >>> numd, dend = c2d([1.0], [1.0, 1.0], 0.1)
    >>> bool(np.allclose(numd, [0, 1 - np.exp(-0.1)]) and np.allclose(dend, [1, -np.exp(-0.1)]))
    True
    """
    num, den = _check_tf(num, den)
    T = as_positive_scalar(T, "T")
    method = as_choice(method, "method", C2D_METHODS)
    if den.size == 1:  # a static gain stays a static gain
        return num / den, np.ones(1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if method == "tustin":
            try:
                numd, dend = _tustin(num, den, T)
            except OverflowError:  # (2/T)^k in Python floats
                numd = dend = np.full(den.size, np.inf)
        else:
            A, B, C, D = tf2ss(num, den)
            Phi, Gamma, Gamma_hat = _discretize(A, B, T, method, system="den (as A = tf2ss(num, den))")
            numd, dend = _discrete_ss2tf(Phi, Gamma - Gamma_hat + Phi @ Gamma_hat, C, D + C @ Gamma_hat)
        numd, dend = numd / dend[0], dend / dend[0]
    if not (np.all(np.isfinite(numd)) and np.all(np.isfinite(dend))):
        growth = ("like (2/T)^n, n = deg den" if method == "tustin" else
                  "like e^(p T) for the poles p")
        raise ValueError(
            f"c2d: the discrete coefficients overflow the floating-point range for T = {T:.6g} "
            f"and these num and den (with method {method!r} they grow {growth}): choose T "
            f"comparable with the time constants of den, or rescale s."
        )
    return numd, dend
