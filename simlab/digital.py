"""Discrete-time transfer functions (脉冲传递函数): c2d, a G(s) turned into a G(z).

* zero- and first-order hold: exact sampling (the discrete similarity method of
  :mod:`simlab.similarity`), converted back to a transfer function;
* Tustin: the bilinear transform (双线性变换) s = (2/T)(z - 1)/(z + 1);
* matched pole-zero mapping (零极点匹配法): z = e^{sT} for the poles and finite zeros, the zeros
  at s = infinity to z = -1, the low-frequency gain matched.

:func:`analog_pid` writes a PI or PID controller as a transfer function and :func:`digital_pid`
turns it into a digital one by Tustin or by matched pole-zero. :class:`DigitalController` is a
D(z) at its sample period T, and :class:`DifferenceEquation` its difference equation (差分方程),
stepped once per sample e_k -> u_k by the loops of :mod:`simlab.sampled_data`.

Used in lab03_models (seed 003: c2d with zero- and first-order hold) and lab11 (digital PI).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from simlab.lti import tf2ss
from simlab.lti.forms import _as_tf
from simlab.similarity import _discretize
from simlab.validation import (
    as_choice,
    as_finite_scalar,
    as_positive_scalar,
    as_real_array,
    describe,
)

__all__ = ["C2D_METHODS", "PID_METHODS", "c2d", "analog_pid", "digital_pid", "DigitalController",
           "DifferenceEquation"]

C2D_METHODS = ("zoh", "foh", "tustin", "matched")  #: methods of :func:`c2d`
PID_METHODS = ("tustin", "matched")  #: methods of :func:`digital_pid`
#: ``c2d(..., "matched")`` refuses a pole or zero s with |s T - 2 pi j m| (m != 0) below this
#: times the largest |s T| of its polynomial: e^{sT} is then z = 1 to within rounding (sqrt(eps)).
MATCHED_RTOL = float(np.sqrt(np.finfo(float).eps))


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


def _split_origin(poly):
    """poly(s) = s^k q(s) with q(0) != 0: (k, q), k from the trailing zero coefficients (exact)."""
    poly = np.trim_zeros(poly, "f")
    q = np.trim_zeros(poly, "b")
    return poly.size - q.size, q


def _refuse_onto_one(roots, kind, T):
    """ValueError if e^{sT} puts a root s onto z = 1 within rounding: s T = 2 pi j m, m != 0.

    Within rounding: |s T - 2 pi j m| <= :data:`MATCHED_RTOL` times the largest |s T| of the
    polynomial's roots (np.roots finds them to about eps times that scale, a double root to
    about sqrt(eps)); e^{sT} - 1 is then rounding noise (1e-16 for s = j, T = 2 pi), not a
    distance from z = 1, and the gain matched there would be noise too.
    """
    sT = roots * T
    m = np.round(sT.imag / (2 * np.pi))
    tolerance = MATCHED_RTOL * np.max(np.abs(sT), initial=0.0)
    onto = np.flatnonzero((m != 0) & (np.abs(sT - 2j * np.pi * m) <= tolerance))
    if onto.size:
        s, m = roots[onto[0]], int(m[onto[0]])
        raise ValueError(
            f"c2d(method='matched'): T = {T:.6g} maps the {kind} s = {s:.6g} onto z = e^(sT) = 1 "
            f"(s T = 2 pi j m with m = {m}, to within rounding), where the gain is matched: G(z) "
            f"would be rounding noise. Choose a T away from the multiples of 2 pi / |Im s| = "
            f"{2 * np.pi / abs(s.imag):.6g}.")


def _matched(num, den, T):
    """Matched pole-zero mapping: z = e^{sT}, zeros at infinity -> z = -1, low-frequency gain kept.

    With G(s) = s^(-k) q_n(s) / q_d(s), q_n(0), q_d(0) != 0 (k = poles minus zeros at s = 0,
    found exactly from trailing zero coefficients), the gain K_d of G(z) is set so that
    lim_{s->0} s^k G(s) = lim_{z->1} ((z - 1)/T)^k G(z): the DC gain for k = 0, the gain of
    the integrators' asymptote otherwise.
    """
    n = den.size - 1
    if not np.any(num):
        return np.zeros(n + 1), np.real(np.poly(np.exp(np.roots(den) * T)))
    k_num, q_num = _split_origin(num)
    k_den, q_den = _split_origin(den)
    zeros, poles = np.roots(q_num), np.roots(q_den)  # the finite roots away from s = 0
    r = n - (np.trim_zeros(num, "f").size - 1)  # zeros at s = infinity (relative degree)
    # z_i = e^{s_i T} for the finite zeros and poles (s = 0 -> z = 1), (z + 1)^r for the rest
    zeros_z = np.concatenate((np.exp(zeros * T), np.ones(k_num), -np.ones(r)))
    poles_z = np.concatenate((np.exp(poles * T), np.ones(k_den)))
    _refuse_onto_one(poles, "pole", T)
    _refuse_onto_one(zeros, "zero", T)
    # 1 - e^{sT} = -expm1(sT), to full accuracy when |s| T is small
    one_minus_zeros, one_minus_poles = -np.expm1(zeros * T), -np.expm1(poles * T)
    # lim_{s->0} s^k G(s) = q_n(0) / q_d(0);  lim_{z->1} ((z-1)/T)^k G(z) = K_d T^(-k) 2^r P_n / P_d
    low_frequency_gain = q_num[-1] / q_den[-1]
    K_d = (low_frequency_gain * T ** (k_den - k_num) * np.prod(one_minus_poles)
           / (2.0**r * np.prod(one_minus_zeros)))
    return np.real(K_d) * np.real(np.poly(zeros_z)), np.real(np.poly(poles_z))


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
    * ``"matched"``: matched pole-zero mapping (零极点匹配法, MPZ). Every pole p_j and finite
      zero c_i of G(s) goes to e^{p_j T}, e^{c_i T}; the r = deg den - deg num zeros at
      s = infinity go to z = -1 (the Nyquist frequency); the gain is matched at low frequency,

      .. math::
          G(z) = K_d\\,\\frac{(z + 1)^r \\prod_i (z - e^{c_i T})}{\\prod_j (z - e^{p_j T})},\\qquad
          \\lim_{s\\to 0} s^k G(s) = \\lim_{z\\to 1}\\left(\\frac{z - 1}{T}\\right)^k G(z),

      k the number of poles minus zeros at s = 0: the DC gain when k = 0, the gain of the
      integrators' asymptote otherwise (a PI controller K_p + K_i/s keeps its K_i). This is the
      method of G. F. Franklin, J. D. Powell and A. Emami-Naeini, *Feedback Control of Dynamic
      Systems* (chapter "Digital Control", matched pole-zero), which maps all zeros at infinity
      to z = -1 (G(z) is then biproper). Other conventions: MATLAB's ``c2d(..., 'matched')``
      keeps one of them at infinity (the book's *modified* matched pole-zero method, a one-
      sample computing delay); python-control's ``c2d(..., method='matched')`` (0.10) keeps all
      of them at infinity and matches the DC gain only (NaN when G has a pole at s = 0). For G
      without poles or zeros at s = 0, this G(z) is python-control's times ((z + 1)/2)^r.

    Used in lab03_models (seed 003: c2d with zero- and first-order hold) and lab11 (a digital PI
    by Tustin and by matched pole-zero).

    Parameters
    ----------
    num, den : array_like, 1-D
        Coefficients in descending powers of s, deg num <= deg den = n.
    T : float, sample period > 0
    method : {"zoh", "foh", "tustin", "matched"}

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
        :func:`discretize`, or (2/T)^n for ``"tustin"``), or if, with ``"matched"``, T maps
        a pole or zero s = 2 pi j m / T (m != 0) onto z = 1: within rounding, that is
        |s T - 2 pi j m| <= :data:`MATCHED_RTOL` (1.5e-8) times the largest |s T| of the roots of
        num or den (``[1], [1, 0, 1]`` at T = 2 pi: the poles +-j go to z = 1); the message
        names the pole or zero and the periods T to avoid.

    Examples
    --------
    1/(s + 1) with a zero-order hold is (1 - e^{-T}) / (z - e^{-T}):

    >>> import numpy as np
    >>> from simlab.digital import c2d
    >>> numd, dend = c2d([1.0], [1.0, 1.0], 0.1)
    >>> bool(np.allclose(numd, [0, 1 - np.exp(-0.1)]) and np.allclose(dend, [1, -np.exp(-0.1)]))
    True

    Matched pole-zero: the zero at infinity goes to z = -1 and the DC gain stays 1,
    (1 - e^{-T})/2 (z + 1)/(z - e^{-T}):

    >>> numd, dend = c2d([1.0], [1.0, 1.0], 0.1, method="matched")
    >>> bool(np.allclose(numd, (1 - np.exp(-0.1)) / 2 * np.array([1, 1])))
    True
    """
    num, den = _check_tf(num, den)
    T = as_positive_scalar(T, "T")
    method = as_choice(method, "method", C2D_METHODS)
    if den.size == 1:  # a static gain stays a static gain
        return num / den, np.ones(1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if method == "matched":
            numd, dend = _matched(num, den, T)
        elif method == "tustin":
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
                  "like e^(p T) for the poles and zeros p" if method == "matched" else
                  "like e^(p T) for the poles p")
        raise ValueError(
            f"c2d: the discrete coefficients overflow the floating-point range for T = {T:.6g} "
            f"and these num and den (with method {method!r} they grow {growth}): choose T "
            f"comparable with the time constants of den, or rescale s."
        )
    return numd, dend


def analog_pid(Kp, Ki, Kd=0.0, N=None):
    """The analog PID controller (PID控制器) in parallel form, as a transfer function.

    .. math::
        C(s) = K_p + \\frac{K_i}{s} + K_d\\,\\frac{N s}{s + N}

    The derivative is filtered by a first-order lag with its pole at s = -N (the filter
    coefficient N of Simulink's PID Controller block, parallel form); without it K_d s is
    improper, so ``N`` is required when ``Kd != 0`` (checked, but unused, when ``Kd == 0``). A PI
    controller is ``analog_pid(Kp, Ki)``: (K_p s + K_i)/s. ``Ki = 0`` leaves out the integrator
    (P or PD).

    Parameters
    ----------
    Kp, Ki, Kd : float
        Proportional gain, integral gain (1/s), derivative gain (s); any finite sign.
    N : float, optional
        Derivative filter pole (rad/s), N > 0; required when ``Kd != 0``.

    Returns
    -------
    num, den : ndarray
        Coefficients in descending powers of s; den is s (PI), s (s + N) (PID), s + N (PD) or 1.

    Raises
    ------
    TypeError, ValueError
        For a gain that is not a finite real number, N not positive, ``Kd != 0`` without N, or
        gains whose sums and products (K_p N + K_d N, K_i N, ...) overflow the floating-point range.

    Examples
    --------
    >>> from simlab.digital import analog_pid
    >>> [a.tolist() for a in analog_pid(2.0, 3.0)]          # (2 s + 3) / s
    [[2.0, 3.0], [1.0, 0.0]]
    >>> [a.tolist() for a in analog_pid(2.0, 3.0, 0.5, N=10.0)]   # (7 s^2 + 23 s + 30) / (s^2 + 10 s)
    [[7.0, 23.0, 30.0], [1.0, 10.0, 0.0]]
    """
    Kp, Ki, Kd = (as_finite_scalar(value, name) for value, name in ((Kp, "Kp"), (Ki, "Ki"), (Kd, "Kd")))
    if Kd != 0 and N is None:
        raise ValueError(
            f"N must be given when Kd != 0 (got Kd = {Kd!r} and N = None): the pure derivative "
            f"Kd s is improper; give the derivative filter pole N > 0 (rad/s), e.g. N = 10 / T_d "
            f"with T_d = Kd / Kp.")
    N = None if N is None else as_positive_scalar(N, "N")
    N = None if Kd == 0 else N  # no derivative term, no filter
    integrator = np.array([1.0, 0.0]) if Ki != 0 else np.ones(1)  # s, or none
    lag = np.array([1.0, N]) if N is not None else np.ones(1)  # s + N, or none
    den = np.polymul(integrator, lag)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below
        # num = Kp den + Ki den / s + Kd N s den / (s + N)
        num = Kp * den
        if Ki != 0:
            num = np.polyadd(num, Ki * lag)
        if N is not None:
            num = np.polyadd(num, Kd * N * np.polymul([1.0, 0.0], integrator))
        num = np.atleast_1d(num).astype(float)
    if not (np.all(np.isfinite(num)) and np.all(np.isfinite(den))):
        raise ValueError(
            f"the gains Kp = {Kp!r}, Ki = {Ki!r}, Kd = {Kd!r} and N = {N!r} give coefficients of C(s) "
            f"beyond the floating-point range (num = {num.tolist()}, den = {den.tolist()}, sums and "
            f"products of the gains): scale the gains down (change the units of the error or the output).")
    return num, den


def digital_pid(Kp, Ki, Kd, T, method="tustin", N=None):
    """A digital PID controller from the analog one: ``c2d(*analog_pid(Kp, Ki, Kd, N), T, method)``.

    * ``"tustin"``: s = (2/T)(z - 1)/(z + 1) (双线性变换); the PI becomes
      (K_p + K_i T/2) z - (K_p - K_i T/2) over z - 1, the trapezoidal rule for the integral.
    * ``"matched"``: matched pole-zero (零极点匹配法, see :func:`c2d`); the PI zero
      -K_i/K_p goes to e^{-K_i T/K_p} and K_i is kept:
      K_i T/(1 - e^{-K_i T/K_p}) (z - e^{-K_i T/K_p})/(z - 1).

    The difference equation u_k = -a_1 u_{k-1} - ... + b_0 e_k + b_1 e_{k-1} + ... with these
    coefficients is what :class:`simlab.sampled_data.DigitalController` steps. Used in lab11.

    Parameters
    ----------
    Kp, Ki, Kd, N : float
        As :func:`analog_pid` (``Kd = 0`` for a PI controller).
    T : float
        Sample period (采样周期, s), T > 0.
    method : {"tustin", "matched"}

    Returns
    -------
    numd, dend : ndarray
        Coefficients in descending powers of z, ``dend[0] == 1``.

    Raises
    ------
    TypeError, ValueError
        As :func:`analog_pid` and :func:`c2d`; also for a method other than the two above.

    Examples
    --------
    >>> from simlab.digital import digital_pid
    >>> [a.tolist() for a in digital_pid(2.0, 4.0, 0.0, T=0.5)]     # Tustin: (3 z - 1) / (z - 1)
    [[3.0, -1.0], [1.0, -1.0]]
    """
    num, den = analog_pid(Kp, Ki, Kd, N)
    T = as_positive_scalar(T, "T")
    method = as_choice(method, "method", PID_METHODS)
    try:
        return c2d(num, den, T, method)
    except ValueError as error:  # c2d names num and den: say which gains they came from
        raise ValueError(f"digital_pid(Kp = {Kp!r}, Ki = {Ki!r}, Kd = {Kd!r}, N = {N!r}, T = {T!r}): "
                         f"the analog controller C(s) = num/den of these gains cannot be discretized: {error}") from None


# ---------------------------------------------------------------------------------------------
# The digital controller: a difference equation at period T
# ---------------------------------------------------------------------------------------------


class DifferenceEquation:
    """The controller's difference equation (差分方程), stepped once per sample: e_k -> u_k.

    .. math::
        u_k = b_0 e_k + b_1 e_{k-1} + \\dots + b_n e_{k-n} - a_1 u_{k-1} - \\dots - a_n u_{k-n}

    with D(z) = (b_0 z^n + ... + b_n)/(z^n + a_1 z^(n-1) + ... + a_n) of ``controller`` (a
    :class:`DigitalController`; ``controller.start()`` makes one). It starts at rest (past e
    and u zero); :meth:`reset` returns it there. Attributes: ``b`` = [b_0, ..., b_n],
    ``a`` = [a_1, ..., a_n], ``e_past`` = [e_{k-1}, ..., e_{k-n}], ``u_past`` likewise.

    Examples
    --------
    >>> from simlab.digital import DigitalController
    >>> law = DigitalController([3.0, -1.0], [1.0, -1.0], T=0.5).start()   # u_k = u_{k-1} + 3 e_k - e_{k-1}
    >>> [law.step(1.0) for _ in range(3)]
    [3.0, 5.0, 7.0]
    """

    def __init__(self, controller):
        if not isinstance(controller, DigitalController):
            raise TypeError(f"controller must be a DigitalController, got {describe(controller)}.")
        self.b, self.a = controller.numd.tolist(), controller.dend[1:].tolist()
        self.reset()

    def reset(self):
        """Past errors e_{k-1}..e_{k-n} and outputs u_{k-1}..u_{k-n} to zero."""
        self.e_past, self.u_past = [0.0] * len(self.a), [0.0] * len(self.a)

    def _step(self, e):
        # u_k = sum_j b_j e_{k-j} - sum_j a_j u_{k-j}
        u = self.b[0] * e
        for b, a, e_old, u_old in zip(self.b[1:], self.a, self.e_past, self.u_past):
            u += b * e_old - a * u_old
        if self.a:  # shift: e_k, u_k become e_{k-1}, u_{k-1}
            self.e_past, self.u_past = [e, *self.e_past[:-1]], [u, *self.u_past[:-1]]
        return u

    def step(self, e):
        """u_k for the error e_k (a finite number); advances the difference equation by one sample."""
        return self._step(as_finite_scalar(e, "e"))


@dataclass(frozen=True, eq=False, repr=False)
class DigitalController:
    """A digital controller D(z) = numd(z)/dend(z) run at the sample period T (数字控制器).

    Build it from the coefficients of a difference equation, or from an analog design with
    :meth:`from_analog` (``c2d``: Tustin, matched pole-zero, ...); :meth:`start` gives the
    difference equation that a loop steps, :meth:`state_space` its state-space form.

    Parameters
    ----------
    numd, dend : array_like, 1-D
        Coefficients in descending powers of z, dend[0] != 0, len(numd) <= len(dend) (causal:
        u_k uses no future error). Stored normalized, dend[0] = 1, numd padded to len(dend).
    T : float
        Sample period (采样周期, s), T > 0.
    method : str
        How the controller was obtained (``"given"``, or the c2d method); for labels only.

    Raises
    ------
    TypeError, ValueError
        For non-numeric or non-finite coefficients, dend[0] = 0 (or so small that dividing by it
        overflows), a non-causal D(z), T not positive.

    Examples
    --------
    >>> from simlab.digital import DigitalController
    >>> pi = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)   # 2 + 4/s by Tustin
    >>> pi.numd.tolist(), pi.dend.tolist(), pi.order
    ([3.0, -1.0], [1.0, -1.0], 1)
    """

    numd: np.ndarray
    dend: np.ndarray
    T: float
    method: str = "given"

    def __post_init__(self):
        numd = as_real_array(self.numd, "numd", ndim=1)
        dend = as_real_array(self.dend, "dend", ndim=1)
        if dend.size == 0 or dend[0] == 0:
            raise ValueError(f"dend must have a non-zero leading coefficient (descending powers of z), "
                             f"got {describe(self.dend)}.")
        if numd.size == 0:
            raise ValueError("numd must hold at least one coefficient (descending powers of z), got [].")
        numd = np.trim_zeros(numd, "f") if np.any(numd) else np.zeros(1)
        if numd.size > dend.size:
            raise ValueError(
                f"numd must not be longer than dend: D(z) = numd/dend with deg numd = {numd.size - 1} > "
                f"deg dend = {dend.size - 1} is not causal (u_k would need future errors).")
        with np.errstate(over="ignore", invalid="ignore"):
            numd, dend = np.concatenate((np.zeros(dend.size - numd.size), numd)) / dend[0], dend / dend[0]
        if not (np.all(np.isfinite(numd)) and np.all(np.isfinite(dend))):
            raise ValueError(
                f"dend[0] = {float(self.dend[0]):.6g} is too small next to the other coefficients of numd and "
                f"dend: dividing by it (dend[0] = 1) overflows the floating-point range. Scale numd and "
                f"dend together (multiply both by the same factor).")
        object.__setattr__(self, "numd", numd)
        object.__setattr__(self, "dend", dend)
        object.__setattr__(self, "T", as_positive_scalar(self.T, "T"))
        if not isinstance(self.method, str):
            raise TypeError(f"method must be a str (a label), got {describe(self.method)}.")

    @classmethod
    def from_analog(cls, num, den, T, method="tustin"):
        """D(z) = c2d(num, den, T, method) for an analog controller C(s) = num(s)/den(s).

        Raises TypeError or ValueError as :func:`simlab.digital.c2d`.
        """
        method = as_choice(method, "method", C2D_METHODS)
        return cls(*c2d(num, den, T, method), T=T, method=method)

    @property
    def order(self) -> int:
        """n, the order of the difference equation (deg dend)."""
        return self.dend.size - 1

    def start(self):
        """A new :class:`DifferenceEquation` at rest (a loop steps it once per sample)."""
        return DifferenceEquation(self)

    def state_space(self):
        """(A_c, B_c, C_c, D_c) with w_{k+1} = A_c w_k + B_c e_k, u_k = C_c w_k + D_c e_k.

        The controllable canonical form of numd/dend (``simlab.lti.tf2ss``, which holds for z as
        for s); shapes (n, n), (n, 1), (1, n), (1, 1).
        """
        return tf2ss(self.numd, self.dend)

    def __repr__(self) -> str:
        return (f"DigitalController(numd={np.round(self.numd, 6).tolist()}, "
                f"dend={np.round(self.dend, 6).tolist()}, T={self.T:g}, method={self.method!r})")
