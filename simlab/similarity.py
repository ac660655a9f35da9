"""The discrete similarity method (离散相似法): exact sampling of a linear system.

A linear system dx/dt = A x + B u has the exact solution over one sample period T

.. math::
    x((k+1)T) = e^{AT} x(kT) + \\int_0^T e^{A(T-\\tau)} B\\, u(kT + \\tau)\\, d\\tau .

If the input between samples is known (a hold, 保持器), the integral is a fixed matrix times the
samples and the solution becomes a recurrence, with no truncation error at all:

* zero-order hold (零阶保持器), u constant on each period:
  ``x[k+1] = Phi x[k] + Gamma u[k]``, with the state-transition matrix (状态转移矩阵)
  ``Phi = Phi(T) = e^{AT}`` and ``Gamma = m(T) = int_0^T e^{As} ds B``;
* triangle hold (三角形保持器, first-order hold), u linear between samples:
  ``x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])``, with
  ``Gamma_hat = (1/T) int_0^T e^{A(T-tau)} tau dtau B`` (the textbook's m^(T) / T).

The method is a recurrence but not a numerical integration formula: for piecewise-constant
(zoh) or piecewise-linear (foh) inputs it is exact up to rounding, whatever T is.

Public functions: :func:`discretize` (Phi, Gamma, Gamma_hat), :func:`lsim` (fast simulation on a
uniform grid), :func:`lsim_loop` (the textbook loop, for reading and for tests) and :func:`c2d`
(transfer function to discrete transfer function, zoh / foh / tustin).

Used in lab04_discrete_similarity (seed 003, "离散相似法").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg, signal

from simlab._validate import as_positive_scalar, as_real_array, describe
from simlab.integrators import GRID_RTOL, NonFiniteStateError

__all__ = ["LinearResponse", "discretize", "lsim", "lsim_loop", "c2d", "HOLDS", "LSIM_METHODS"]

#: Holds understood by :func:`discretize` and :func:`lsim`.
HOLDS = ("zoh", "foh")

#: Ways :func:`lsim` can run the recurrence (see its docstring).
LSIM_METHODS = ("schur", "modal", "loop")

#: Methods understood by :func:`c2d`.
C2D_METHODS = ("zoh", "foh", "tustin")

#: ``method="modal"`` refuses eigenvector matrices with a larger condition number: beyond it,
#: diagonalization would lose more than half of the 16 digits (A is defective or nearly so).
MODAL_COND_LIMIT = 1e8


@dataclass(frozen=True, repr=False)
class LinearResponse:
    """Response of a linear system on a uniform grid; unpacks as ``t, y``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        The time grid, as given.
    y : ndarray, shape (N + 1,) or (N + 1, p)
        Output; 1-D for a single output.
    x : ndarray, shape (N + 1, n)
        State at each grid point.
    hold : str
        ``"zoh"`` or ``"foh"``.
    method : str
        How the recurrence was run (one of :data:`LSIM_METHODS`).
    T : float
        Sample period.
    """

    t: np.ndarray
    y: np.ndarray
    x: np.ndarray
    hold: str
    method: str
    T: float

    def __iter__(self):
        return iter((self.t, self.y))

    def __repr__(self) -> str:
        return (
            f"LinearResponse(hold={self.hold!r}, method={self.method!r}, T={self.T:g}, "
            f"steps={len(self.t) - 1}, states={self.x.shape[1]}, output shape={self.y.shape[1:]})"
        )


# ---------------------------------------------------------------------------------------------
# Argument checking
# ---------------------------------------------------------------------------------------------


def _check_choice(value, name, choices, meaning=""):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(c) for c in choices)}{meaning}, "
            f"got {describe(value)}."
        )
    return value


def _check_hold(hold):
    return _check_choice(hold, "hold", HOLDS, " (zero-order hold 零阶保持器 or triangle hold 三角形保持器)")


def _check_A_B(A, B):
    A = as_real_array(A, "A")
    if A.ndim == 0:
        A = A.reshape(1, 1)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"A must be a square matrix of shape (n, n), n >= 1, got shape {A.shape}.")
    n = A.shape[0]
    B = as_real_array(B, "B")
    if B.ndim < 2:
        B = B.reshape(-1, 1)  # a scalar or a vector (n,) is one input column
    if B.ndim != 2 or B.shape[0] != n or B.shape[1] == 0:
        raise ValueError(
            f"B must have as many rows as A (n = {n}): shape ({n}, m) or ({n},), got shape "
            f"{np.shape(B)}."
        )
    return A, B


def _check_C_D(C, D, n, m):
    C = as_real_array(C, "C")
    if C.ndim < 2:
        C = C.reshape(1, -1)  # a vector (n,) is one output row
    if C.ndim != 2 or C.shape[1] != n or C.shape[0] == 0:
        raise ValueError(
            f"C must have as many columns as A has states (n = {n}): shape (p, {n}) or ({n},), "
            f"got shape {np.shape(C)}."
        )
    p = C.shape[0]
    D = as_real_array(D, "D")
    if D.ndim == 0 and (D == 0 or p * m == 1):
        D = np.full((p, m), float(D))  # D = 0 means "no feedthrough" for any size
    elif D.ndim == 1 and (p == 1 or m == 1) and D.size == p * m:
        D = D.reshape(p, m)
    if D.shape != (p, m):
        raise ValueError(f"D must have shape (p, m) = ({p}, {m}), got shape {np.shape(D)}.")
    return C, D


def _check_signal(u, t, m):
    """Check the grid ``t`` (uniform, increasing) and the input ``u``; return u (N+1, m) and T."""
    t = as_real_array(t, "t", ndim=1)
    if t.size < 2:
        raise ValueError(f"t must hold at least two time points, got {t.size}.")
    steps = np.diff(t)
    T = (t[-1] - t[0]) / (t.size - 1)
    if T <= 0 or np.any(steps <= 0):
        raise ValueError("t must be strictly increasing, e.g. t = np.linspace(0, 10, 1001).")
    if np.max(np.abs(steps - T)) > GRID_RTOL * T:
        k = int(np.argmax(np.abs(steps - T)))
        raise ValueError(
            f"t must be a uniform grid (discrete similarity uses one sample period T), but "
            f"t[{k + 1}] - t[{k}] = {steps[k]!r} differs from the mean step {T!r}. "
            f"Use t = np.linspace(t0, t1, N + 1)."
        )
    u = as_real_array(u, "u")
    rows = t.size
    if u.ndim == 1 and m == 1 and u.size == rows:
        u = u.reshape(rows, 1)
    if u.shape != (rows, m):
        hint = " Time runs along the first axis: pass u.T." if u.shape == (m, rows) else ""
        raise ValueError(
            f"u must have one row per time point: shape ({rows}, {m})"
            f"{f' or ({rows},)' if m == 1 else ''}, got shape {u.shape}.{hint}"
        )
    return u, float(T)


def _check_x0(x0, n):
    if x0 is None:
        return np.zeros(n)
    x0 = as_real_array(x0, "x0")
    if x0.size != n or x0.ndim > 2 or (x0.ndim == 2 and 1 not in x0.shape):
        raise ValueError(f"x0 must have shape ({n},), one value per state, got shape {x0.shape}.")
    return x0.reshape(n)


# ---------------------------------------------------------------------------------------------
# Phi, Gamma, Gamma_hat
# ---------------------------------------------------------------------------------------------


def _discretize(A, B, T, hold):
    """Phi, Gamma, Gamma_hat (zeros for zoh) from one expm; A, B already checked (may be complex)."""
    n, m = B.shape
    size = n + m if hold == "zoh" else n + 2 * m
    M = np.zeros((size, size), dtype=np.result_type(A, B))
    M[:n, :n] = A * T  # [[A T, B T, 0],
    M[:n, n : n + m] = B * T  #  [ 0,   0,  I],
    if hold == "foh":  #  [ 0,   0,  0]]
        M[n : n + m, n + m :] = np.eye(m)
    E = linalg.expm(M)
    Phi, Gamma = E[:n, :n], E[:n, n : n + m]
    Gamma_hat = E[:n, n + m :] if hold == "foh" else np.zeros_like(Gamma)
    return Phi, Gamma, Gamma_hat


def discretize(A, B, T, hold="zoh"):
    """Phi(T), m(T) (and the triangle-hold matrix) of dx/dt = A x + B u, by one matrix exponential.

    .. math::
        \\Phi = e^{AT},\\qquad \\Gamma = m(T) = \\int_0^T e^{As}\\,ds\\,B,\\qquad
        \\hat\\Gamma = \\frac{1}{T}\\int_0^T e^{A(T-\\tau)}\\,\\tau\\,d\\tau\\,B

    so that ``x[k+1] = Phi x[k] + Gamma u[k]`` (zero-order hold, 零阶保持器) and
    ``x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])`` (triangle hold, 三角形保持器,
    u linear between samples) are exact.

    How one exponential gives all three: let w = (x, v, a) obey d/ds w = (M / T) w with

    .. math::
        M = \\begin{bmatrix} AT & BT & 0\\\\ 0 & 0 & I\\\\ 0 & 0 & 0 \\end{bmatrix},

    i.e. dx/ds = A x + B v, dv/ds = a / T, da/ds = 0, so ``v(s) = v(0) + a(0) s / T`` is an input
    that ramps linearly. Then ``w(T) = e^{M} w(0)``, and the columns of e^M are the responses to
    unit starts: from x(0) = I the block is e^{AT} = Phi; from v(0) = I (a constant input) it is
    ``int_0^T e^{A(T-tau)} dtau B = Gamma``; from a(0) = I (the input tau / T) it is
    ``(1/T) int_0^T e^{A(T-tau)} tau dtau B = Gamma_hat``. No inverse of A appears, so singular A
    (integrators, 积分环节) needs no special case. For the zero-order hold the last block row and
    column are left out.

    Parameters
    ----------
    A : array_like, shape (n, n)
        System matrix.
    B : array_like, shape (n, m) or (n,)
        Input matrix; a vector is one input column.
    T : float
        Sample period (采样周期), T > 0.
    hold : {"zoh", "foh"}
        Zero-order hold, or triangle (first-order) hold.

    Returns
    -------
    Phi : ndarray, shape (n, n)
        State-transition matrix e^{AT}.
    Gamma : ndarray, shape (n, m)
        m(T).
    Gamma_hat : ndarray, shape (n, m)
        Only for ``hold="foh"``: returned as a third element.

    Raises
    ------
    TypeError
        If an argument is not numeric.
    ValueError
        If A is not square, B has the wrong number of rows, T <= 0 or is not finite, or hold is
        unknown.

    Notes
    -----
    Used in lab04_discrete_similarity (seed 003, "离散相似法"), where the textbook writes
    Phi(T) = L^{-1}[(sI - A)^{-1}] at t = T and m(T) = int_0^T e^{A(T-t)} B dt.

    Examples
    --------
    The integrator 1/s (A = 0) sampled with T = 0.5: Phi = 1, Gamma = T, Gamma_hat = T / 2.

    >>> from simlab.similarity import discretize
    >>> Phi, Gamma, Gamma_hat = discretize([[0.0]], [1.0], 0.5, hold="foh")
    >>> float(Phi[0, 0]), float(Gamma[0, 0]), float(Gamma_hat[0, 0])
    (1.0, 0.5, 0.25)
    """
    A, B = _check_A_B(A, B)
    T = as_positive_scalar(T, "T")
    hold = _check_hold(hold)
    Phi, Gamma, Gamma_hat = _discretize(A, B, T, hold)
    return (Phi, Gamma) if hold == "zoh" else (Phi, Gamma, Gamma_hat)


# ---------------------------------------------------------------------------------------------
# Simulation
# ---------------------------------------------------------------------------------------------


def _prepare(A, B, C, D, u, t, hold, x0):
    A, B = _check_A_B(A, B)
    C, D = _check_C_D(C, D, A.shape[0], B.shape[1])
    u, T = _check_signal(u, t, B.shape[1])
    return A, B, C, D, u, T, _check_hold(hold), _check_x0(x0, A.shape[0])


def _textbook_loop(A, B, x0, u, T, hold):
    """The recurrence one step at a time in Python (slow, but it reads like the lecture)."""
    Phi, Gamma, Gamma_hat = _discretize(A, B, T, hold)
    x = np.empty((len(u), len(x0)))
    x[0] = x0
    for k in range(len(u) - 1):
        if hold == "zoh":
            # x[k+1] = Phi x[k] + Gamma u[k]
            x[k + 1] = Phi @ x[k] + Gamma @ u[k]
        else:
            # x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])
            x[k + 1] = Phi @ x[k] + Gamma @ u[k] + Gamma_hat @ (u[k + 1] - u[k])
    return x


def _triangular_recurrence(R, Bz, z0, u, T, hold):
    """Run z[k+1] = Phi_z z[k] + w[k] for upper-triangular R (Phi_z = e^{RT} is triangular too).

    Row i of the recurrence is the first-order recurrence
    ``z_i[k+1] = Phi_z[i, i] z_i[k] + (w_i[k] + sum_{j > i} Phi_z[i, j] z_j[k])``; solving the
    rows from the last one up, each one is a single compiled ``lfilter`` call.
    """
    Phi, Gamma, Gamma_hat = _discretize(R, Bz, T, hold)
    Phi = np.triu(Phi)  # exactly triangular: rounding cannot create entries below the diagonal
    # w[k] = (Gamma - Gamma_hat) u[k] + Gamma_hat u[k+1], for k = 0 .. N-1
    w = u[:-1] @ (Gamma - Gamma_hat).T + u[1:] @ Gamma_hat.T
    n = len(z0)
    z = np.empty((len(u), n), dtype=complex)
    for i in range(n - 1, -1, -1):
        drive = w[:, i]
        if i < n - 1 and np.any(Phi[i, i + 1 :]):
            drive = drive + z[:-1, i + 1 :] @ Phi[i, i + 1 :]
        # z_i[0] = z0_i, z_i[k] = Phi_ii z_i[k-1] + drive[k-1]: filter 1 / (1 - Phi_ii q^-1)
        z[:, i] = signal.lfilter([1.0], [1.0, -Phi[i, i]], np.concatenate(([z0[i]], drive)))
    return z


def _schur_states(A, B, x0, u, T, hold):
    # A = Q R Q^H with Q unitary and R upper triangular (complex Schur form); z = Q^H x.
    R, Q = linalg.schur(A, output="complex")
    z = _triangular_recurrence(R, Q.conj().T @ B, Q.conj().T @ x0, u, T, hold)
    return (z @ Q.T).real  # x[k] = Q z[k]


def _modal_states(A, B, x0, u, T, hold):
    # A = V diag(lambda) V^{-1}; in modal coordinates z = V^{-1} x every mode is decoupled.
    lam, V = linalg.eig(A)
    cond = np.linalg.cond(V)
    if not cond <= MODAL_COND_LIMIT:
        raise ValueError(
            f"method='modal' needs a diagonalizable A with well-conditioned eigenvectors, but "
            f"cond(V) = {cond:.3g} (A is defective or nearly so, e.g. repeated poles such as "
            f"1/s^3). Diagonalization would lose about {np.log10(cond):.0f} of 16 digits; "
            f"use method='schur', which needs no eigenvectors."
        )
    z = _triangular_recurrence(np.diag(lam), linalg.solve(V, B), linalg.solve(V, x0), u, T, hold)
    return (z @ V.T).real  # x[k] = V z[k]


_RUNNERS = {"schur": _schur_states, "modal": _modal_states, "loop": _textbook_loop}


def _response(A, B, C, D, u, t, hold, x0, method):
    A, B, C, D, u, T, hold, x0 = _prepare(A, B, C, D, u, t, hold, x0)
    with np.errstate(over="ignore", invalid="ignore"):
        x = _RUNNERS[method](A, B, x0, u, T, hold)
        # y[k] = C x[k] + D u[k]
        y = x @ C.T + u @ D.T
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        growth = np.max(linalg.eigvals(A).real)
        raise NonFiniteStateError(
            f"the state overflowed to inf or NaN over {len(u) - 1} steps: the system is "
            f"unstable (largest Re(lambda) = {growth:.3g}) and grows beyond the floating-point "
            f"range. Shorten the time span."
        )
    t = np.asarray(t, dtype=float)
    return LinearResponse(t=t, y=y[:, 0] if y.shape[1] == 1 else y, x=x, hold=hold,
                          method=method, T=T)


def lsim(A, B, C, D, u, t, hold="zoh", x0=None, method="schur"):
    """Simulate dx/dt = A x + B u, y = C x + D u on a uniform grid by discrete similarity.

    .. math::
        x[k+1] = \\Phi x[k] + \\Gamma u[k] + \\hat\\Gamma\\,(u[k+1] - u[k]),\\qquad
        y[k] = C x[k] + D u[k]

    with Phi, Gamma, Gamma_hat from :func:`discretize` (Gamma_hat = 0 for the zero-order hold).
    The response is exact (to rounding) when u is piecewise constant (``hold="zoh"``) or
    piecewise linear (``hold="foh"``) between the grid points.

    The recurrence is not run as a Python loop. With ``method="schur"`` (default) A is brought
    to complex Schur form A = Q R Q^H (Q unitary, R upper triangular): in z = Q^H x the
    recurrence is triangular, so each state is a first-order recurrence
    z_i[k+1] = phi_ii z_i[k] + g_i[k] whose input g_i depends only on the states below it; each
    runs as one compiled ``scipy.signal.lfilter`` call. Q is unitary, so nothing is amplified,
    and repeated poles or integrators (defective A) need no special case.
    ``method="modal"`` diagonalizes A = V diag(lambda) V^{-1} instead (the modes are independent,
    but the error grows like cond(V) and defective A is refused). ``method="loop"`` runs the
    textbook loop of :func:`lsim_loop`. Transfer-function filtering (c2d then ``lfilter``) is
    deliberately not offered: with poles crowding near z = 1 at small T it loses about six digits.

    Parameters
    ----------
    A : array_like, shape (n, n)
    B : array_like, shape (n, m) or (n,)
    C : array_like, shape (p, n) or (n,)
    D : array_like, shape (p, m), or scalar (0 for no feedthrough)
    u : array_like, shape (N + 1,) or (N + 1, m)
        Input samples u(t_k), time along the first axis.
    t : array_like, shape (N + 1,)
        Uniform increasing grid, e.g. ``np.linspace(0, 10, 1001)``; T = t[1] - t[0].
    hold : {"zoh", "foh"}
        What the input does between samples: constant (零阶保持器) or linear (三角形保持器).
    x0 : array_like, shape (n,), optional
        State at t[0]; zeros by default.
    method : {"schur", "modal", "loop"}
        How the recurrence is run (same result; see above).

    Returns
    -------
    LinearResponse
        Unpacks as ``t, y``; y has shape (N + 1,) for one output, else (N + 1, p); ``.x`` has
        shape (N + 1, n).

    Raises
    ------
    TypeError
        If an argument is not numeric.
    ValueError
        For wrong shapes, a non-uniform grid, non-finite values, or an unknown hold or method.
    NonFiniteStateError
        If an unstable system grows beyond the floating-point range.

    Notes
    -----
    Used in lab04_discrete_similarity (seed 003, "离散相似法").

    Examples
    --------
    Step response of 1/(s + 1): y = 1 - e^{-t}, exact at the samples for any T.

    >>> import numpy as np
    >>> from simlab.similarity import lsim
    >>> t = np.linspace(0, 5, 6)
    >>> t, y = lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(6), t)
    >>> bool(np.allclose(y, 1 - np.exp(-t), rtol=0, atol=1e-14))
    True
    """
    method = _check_choice(method, "method", LSIM_METHODS)
    return _response(A, B, C, D, u, t, hold, x0, method)


def lsim_loop(A, B, C, D, u, t, hold="zoh", x0=None):
    """Textbook discrete-similarity loop, one Python step per sample (reference for :func:`lsim`).

    .. math::
        x[k+1] = \\Phi x[k] + \\Gamma u[k] + \\hat\\Gamma\\,(u[k+1] - u[k]),\\qquad
        y[k] = C x[k] + D u[k]

    Same arguments, result and errors as :func:`lsim`; about a hundred times slower on long grids,
    which is the point of comparing the two in lab04_discrete_similarity (seed 003).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.similarity import lsim_loop
    >>> t, y = lsim_loop([[-1.0]], [1.0], [1.0], 0.0, np.ones(3), [0.0, 1.0, 2.0])
    >>> np.round(y, 6).tolist()
    [0.0, 0.632121, 0.864665]
    """
    return _response(A, B, C, D, u, t, hold, x0, "loop")


# ---------------------------------------------------------------------------------------------
# Transfer functions
# ---------------------------------------------------------------------------------------------


def _check_tf(num, den):
    num = np.trim_zeros(as_real_array(num, "num").reshape(-1), "f")
    den = as_real_array(den, "den")
    if den.ndim > 1 or den.size == 0 or den.reshape(-1)[0] == 0:
        raise ValueError(
            f"den must be a 1-D sequence of coefficients in descending powers of s with a "
            f"non-zero leading coefficient, e.g. [1, 3, 2], got {describe(den)}."
        )
    den = den.reshape(-1)
    if num.size == 0:
        num = np.zeros(1)
    if num.size > den.size:
        raise ValueError(
            f"num has degree {num.size - 1} > degree {den.size - 1} of den: the transfer function "
            f"is improper (not realizable); c2d needs deg num <= deg den."
        )
    return np.concatenate((np.zeros(den.size - num.size), num)), den


def _tustin(num, den, T):
    """Substitute s = (2/T)(z - 1)/(z + 1) and clear the denominators (z + 1)^n."""
    n = den.size - 1
    numd, dend = np.zeros(n + 1), np.zeros(n + 1)
    for power in range(n + 1):  # the term of s^power
        term = (2.0 / T) ** power * np.poly1d([1.0, -1.0]) ** power * np.poly1d([1.0, 1.0]) ** (
            n - power
        )
        numd += num[n - power] * term.coeffs
        dend += den[n - power] * term.coeffs
    return numd, dend


def c2d(num, den, T, method="zoh"):
    """Discretize a transfer function G(s) = num(s) / den(s) with sample period T (MATLAB c2dm).

    * ``"zoh"`` and ``"foh"``: exact sampling with a zero-order or triangle hold; G(s) is
      realized as a state space (A, B, C, D), discretized by :func:`discretize` and converted
      back. For the triangle hold, with xi[k] = x[k] - Gamma_hat u[k],

      .. math::
          \\xi[k+1] = \\Phi\\xi[k] + (\\Gamma - \\hat\\Gamma + \\Phi\\hat\\Gamma)u[k],\\qquad
          y[k] = C\\xi[k] + (D + C\\hat\\Gamma)u[k].

    * ``"tustin"``: bilinear transform (双线性变换) s = (2/T)(z - 1)/(z + 1).

    Parameters
    ----------
    num, den : array_like, shape (n + 1,) at most
        Coefficients in descending powers of s; deg num <= deg den.
    T : float
        Sample period, T > 0.
    method : {"zoh", "foh", "tustin"}

    Returns
    -------
    numd, dend : ndarray, shape (n + 1,)
        Coefficients in descending powers of z, dend[0] = 1, numd padded with leading zeros to
        the length of dend (as MATLAB returns them).

    Raises
    ------
    TypeError
        If the coefficients are not numeric.
    ValueError
        If den has a zero leading coefficient, G is improper, T <= 0, or method is unknown.

    Notes
    -----
    Used in lab04_discrete_similarity (seed 003: c2d with zero- and first-order hold).

    Examples
    --------
    1/(s + 1) with a zero-order hold: (1 - e^{-T}) / (z - e^{-T}).

    >>> import numpy as np
    >>> from simlab.similarity import c2d
    >>> numd, dend = c2d([1.0], [1.0, 1.0], 0.1)
    >>> bool(np.allclose(numd, [0, 1 - np.exp(-0.1)]) and np.allclose(dend, [1, -np.exp(-0.1)]))
    True
    """
    num, den = _check_tf(num, den)
    T = as_positive_scalar(T, "T")
    method = _check_choice(method, "method", C2D_METHODS)
    if den.size == 1:  # a static gain stays a static gain
        return num / den, np.ones(1)
    if method == "tustin":
        numd, dend = _tustin(num, den, T)
    else:
        # TODO: use simlab.lti.tf2ss / ss2tf once simlab/lti.py is in the package.
        A, B, C, D = signal.tf2ss(num, den)
        Phi, Gamma, Gamma_hat = _discretize(A, B, T, method)
        numd, dend = signal.ss2tf(Phi, Gamma - Gamma_hat + Phi @ Gamma_hat, C, D + C @ Gamma_hat)
        numd, dend = numd.reshape(-1), dend.reshape(-1)
    return numd / dend[0], dend / dend[0]
