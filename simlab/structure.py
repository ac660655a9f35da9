"""Structure-graph simulation (面向结构图的仿真) with typical elements and connection matrices.

A system is entered as n *typical elements* (典型环节) and *connection matrices* (连接矩阵);
the closed loop is built by the program, with no hand derivation (seed 003, chapter 5.2).

Typical element i, one row ``[A_i, B_i, C_i, D_i]`` of the parameter matrix P::

    G_i(s) = y_i / u_i = (C_i + D_i s) / (A_i + B_i s)

Connections: the element inputs are ``u = W y + W0 r`` and the system output is ``y_out = Wc y``,
where ``y`` holds the element outputs. Substituting u into ``B_i y_i' + A_i y_i = C_i u_i + D_i u_i'``
gives, with H = diag(B) - diag(D) W and Q = diag(C) W - diag(A),

    H y' = Q y + diag(C) W0 r + diag(D) W0 r'

so the closed loop is x' = A x + B r (+ B_d r') with x = y, A = H^-1 Q, B = H^-1 diag(C) W0,
B_d = H^-1 diag(D) W0 and C = Wc.

The seed program drops the term B_d r'. When an element that receives r has D_i != 0, a step in
r puts an impulse into x' and the state *jumps* at t = 0+ by B_d r(0+). :func:`simulate` gives the
true response by default, through the change of variable z = x - B_d r:

    z' = A z + (A B_d + B) r,     x = z + B_d r,

which needs no derivative of r; ``seed_compatible=True`` reproduces the seed program instead.

Typical elements as rows of P (the seed's table):

=====================  =====================  ==========================
element                G(s)                   [A, B, C, D]
=====================  =====================  ==========================
integral (积分)        K / s                  [0, 1, K, 0]
PI (比例积分)          (K1 s + K2) / s        [0, 1, K2, K1]
inertia (惯性)         K / (T s + 1)          [1, T, K, 0]
lead-lag (比例惯性)    (K1 s + K2)/(T s + 1)  [1, T, K2, K1]
=====================  =====================  ==========================

Used in lab05 (structure graph) and lab07 (DC motor drive).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.guards import NonFiniteStateError
from simlab.integrators import METHODS, integrate, time_grid
from simlab.nonlinear import Backlash, DeadZone, Relay, Saturation
from simlab.results import Result
from simlab.similarity import lsim
from simlab.validation import (
    as_choice,
    as_flag,
    as_initial_state,
    as_input_function,
    as_structure_graph,
)

__all__ = ["closed_loop", "input_derivative_gain", "simulate", "StructureResult", "SIMULATE_METHODS"]

#: Methods of :func:`simulate`: the fixed-step integrators of :mod:`simlab.integrators`, and
#: ``"similarity"``, the closed loop discretized once with a zero-order hold (exact for an r
#: held constant between the grid points).
SIMULATE_METHODS = (*METHODS, "similarity")


def _factor_H(P, W):
    """H = diag(B) - diag(D) W for one parameter set, with a clear error if it is singular."""
    B_diag, D_diag = P[:, 1], P[:, 3]
    with np.errstate(over="ignore", invalid="ignore"):
        H = np.diag(B_diag) - D_diag[:, None] * W
    _require_finite(H, "H = diag(B) - diag(D) W")  # before LAPACK sees it
    rank = np.linalg.matrix_rank(H)
    if rank < len(H):
        _, _, vt = np.linalg.svd(H)
        null = vt[-1]
        involved = [int(i) + 1 for i in np.flatnonzero(np.abs(null) > 1e-8 * np.abs(null).max())]
        static = [int(i) + 1 for i in np.flatnonzero(B_diag == 0)]
        hint = (
            f" Element(s) {static} have B_i = 0: no dynamics of their own, so H has a zero row "
            f"(the seed's rule B_i != 0). Give such an element a small time constant "
            f"(B_i = 1e-3), or fold the gain into the connection matrices W, W0 or Wc."
            if static else
            " The D_i s terms around a loop cancel its B_i s terms: an algebraic loop (代数环)."
        )
        raise ValueError(
            f"H = diag(B) - diag(D) W is singular (rank {rank} of {len(H)}), so the structure "
            f"graph has no state equation; element(s) {involved} are involved.{hint}"
        )
    return H


def _require_finite(matrix, what):
    if not np.all(np.isfinite(matrix)):
        raise ValueError(
            f"P, W and W0 give a closed loop beyond the floating-point range: {what} overflows "
            f"(products of their entries exceed about 1.8e308). Scale the element parameters "
            f"[A_i, B_i, C_i, D_i] of a row by a common factor, or change the units."
        )


def _closed_loop_one(P, W, W0, Wc):
    H = _factor_H(P, W)
    A_diag, C_diag, D_diag = P[:, 0], P[:, 2], P[:, 3]
    with np.errstate(over="ignore", invalid="ignore"):
        Q = C_diag[:, None] * W - np.diag(A_diag)  # Q = diag(C) W - diag(A)
        CW0, DW0 = C_diag[:, None] * W0, D_diag[:, None] * W0
    for matrix, what in ((Q, "diag(C) W - diag(A)"), (CW0, "diag(C) W0"), (DW0, "diag(D) W0")):
        _require_finite(matrix, what)  # before LAPACK sees it
    with np.errstate(over="ignore", invalid="ignore"):
        A = np.linalg.solve(H, Q)  # A = H^-1 Q
        B = np.linalg.solve(H, CW0)  # B = H^-1 diag(C) W0
        B_d = np.linalg.solve(H, DW0)  # B_d = H^-1 diag(D) W0 (the r' term)
    for matrix, what in ((A, "A = H^-1 (diag(C) W - diag(A))"), (B, "B = H^-1 diag(C) W0"),
                         (B_d, "B_d = H^-1 diag(D) W0")):
        _require_finite(matrix, what)
    return A, B, Wc.copy(), B_d


def closed_loop(P, W, W0, Wc):
    """Closed-loop state equation of a structure graph: x' = A x + B r, y_out = C x.

    With H = diag(B_i) - diag(D_i) W and Q = diag(C_i) W - diag(A_i):
    A = H^-1 Q, B = H^-1 diag(C_i) W0, C = Wc (the seed program's model; the r' term is given by
    :func:`input_derivative_gain`).

    Parameters
    ----------
    P : array_like, shape (n, 4) or (m, n, 4)
        Rows [A_i, B_i, C_i, D_i] of the typical elements G_i = (C_i + D_i s)/(A_i + B_i s); a 3-D
        P is a batch of m parameter sets sharing the connections.
    W : array_like, shape (n, n)
        Connection matrix between elements, u = W y + W0 r.
    W0 : array_like, shape (n,) or (n, q)
        Input connection matrix (q external inputs).
    Wc : array_like, shape (n,) or (p, n)
        Output matrix, y_out = Wc y.

    Returns
    -------
    A : ndarray, shape (n, n) (or (m, n, n))
    B : ndarray, shape (n, q) (or (m, n, q))
    C : ndarray, shape (p, n)

    Raises
    ------
    TypeError
        If an argument is not numeric.
    ValueError
        Inconsistent shapes, NaN or inf, a row with A_i = B_i = 0, or a singular H (an algebraic
        loop; the message names the elements).

    Examples
    --------
    The seed's course-design task with a = 2:

    >>> import numpy as np
    >>> from simlab.structure import closed_loop
    >>> P = [[0.1, 1, 0.5, 1], [0, 1, 1, 0], [1, 1, 2, 1]]
    >>> W = [[0, 0, -1], [1, 0, 0], [0, 1, 0]]
    >>> A, B, C = closed_loop(P, W, [1, 0, 0], [0, 0, 1])
    >>> A.shape, B.ravel().tolist(), C.tolist()
    ((3, 3), [0.5, 0.0, 0.0], [[0.0, 0.0, 1.0]])
    """
    P, W, W0, Wc = as_structure_graph(P, W, W0, Wc)
    if P.ndim == 2:
        A, B, C, _ = _closed_loop_one(P, W, W0, Wc)
        return A, B, C
    parts = [_closed_loop_one(p, W, W0, Wc) for p in P]
    return np.stack([p[0] for p in parts]), np.stack([p[1] for p in parts]), Wc.copy()


def input_derivative_gain(P, W, W0, Wc):
    """B_d = H^-1 diag(D_i) W0: the gain of r' in x' = A x + B r + B_d r' (seed programs drop it).

    Returns an array of shape (n, q) (or (m, n, q) for a batch P). It is zero exactly when no
    element that receives r directly (or through D-coupled elements) has D_i != 0. Arguments
    and errors (Raises: TypeError, ValueError) as in :func:`closed_loop`.
    """
    P, W, W0, Wc = as_structure_graph(P, W, W0, Wc)
    if P.ndim == 2:
        return _closed_loop_one(P, W, W0, Wc)[3]
    return np.stack([_closed_loop_one(p, W, W0, Wc)[3] for p in P])


@dataclass(frozen=True, repr=False)
class StructureResult(Result):
    """Result of :func:`simulate`; unpacks as ``t, y`` (the system output; ``x``: element outputs).

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
    x : ndarray, shape (N + 1, n) (or (N + 1, m, n) for a batch)
        Every element's output y_i(t_k).
    y : ndarray, shape (N + 1,) or (N + 1, p) (or with a batch axis after time)
        System output Wc x.
    method : str
    seed_compatible : bool
    """

    unpacks_as = ("t", "y")

    t: np.ndarray
    x: np.ndarray
    y: np.ndarray
    method: str
    seed_compatible: bool

    def __repr__(self):
        return (f"StructureResult(method={self.method!r}, steps={len(self.t) - 1}, "
                f"elements={self.x.shape[-1]}, seed_compatible={self.seed_compatible})")


def _require_linear_elements(P):
    """ValueError if P holds a nonlinear element object (simlab.nonlinear): simulate is linear."""
    stack = [P]
    while stack:
        item = stack.pop()
        if isinstance(item, (Saturation, DeadZone, Backlash, Relay)):
            raise ValueError(
                f"P holds a nonlinear element, {item!r}: simulate takes linear typical elements "
                f"only, rows [A_i, B_i, C_i, D_i] (its closed loop is x' = A x + B r, for every "
                f"method). Put the nonlinear element on the input or output of an element with "
                f"simlab.elementwise.simulate_elements(P, W, W0, Wc, r, t_span, T, nonlinear="
                f"{{i: element}}) (lab06)."
            )
        if isinstance(item, (list, tuple)) or (isinstance(item, np.ndarray) and item.dtype == object):
            stack.extend(item)


def _inputs_on_grid(r, r_of_t, t, q):
    """r(t_k) at every grid point, shape (N + 1, q): one call per point for a function r(t)."""
    if callable(r):
        return np.array([r_of_t(tk) for tk in t])
    return np.tile(r_of_t(t[0]), (len(t), 1))


def _held_response(A, B_z, z0, inputs, t):
    """z[k] of z' = A z + B_z r for every parameter set, r held at r(t_k) on [t_k, t_{k+1}).

    The closed loop of each parameter set is discretized once with a zero-order hold and its
    recurrence z[k+1] = Phi z[k] + Gamma r(t_k) run by :func:`simlab.similarity.lsim`: exact, to
    rounding, for an input that is constant between the grid points (a step, a staircase).
    """
    m, n = z0.shape
    z = np.empty((len(t), m, n))
    try:
        for p in range(m):
            z[:, p] = lsim(A[p], B_z[p], np.zeros((1, n)), 0.0, inputs, t, x0=z0[p]).x
    except NonFiniteStateError as error:  # the same error, named after the method asked for
        raise NonFiniteStateError(f"similarity: {error}", method="similarity", step=error.step,
                                  steps=error.steps, t=error.t, h=error.h) from None
    return z


def simulate(P, W, W0, Wc, r, t_span, h, method="rk4", x0=None, seed_compatible=False):
    """Simulate a structure graph for the input r(t), by a fixed-step integrator or by similarity.

    The true response (default) solves z' = A z + (A B_d + B) r, x = z + B_d r, which holds
    for any input switched on at t0 (r = 0 before t0): for a step the element outputs jump at
    t0+ by B_d r(t0). With ``seed_compatible=True`` the seed program's model x' = A x + B r is
    solved instead (the r' term ignored), for comparison.

    ``method="rk4"`` (default, as in the seed programs), ``"heun"`` or ``"euler"`` integrate it
    with step h (:func:`simlab.integrators.integrate`, one vectorized loop for a batch).
    ``method="similarity"`` is the discrete similarity method (离散相似法) on the whole closed
    loop: A and A B_d + B, built from the connection matrices, are discretized once with the
    zero-order hold and the recurrence z[k+1] = Phi z[k] + Gamma r(t_k) runs without a Python
    step loop (:func:`simlab.similarity.lsim`). It is exact, to rounding and for any h, when r
    is constant between the grid points (a step, a staircase on the grid); for a smooth r(t) the
    hold (r(t_k) on [t_k, t_{k+1})) makes an error of order h, where RK4's is of order h^4.
    ``benchmarks/structure_graph.py`` measures it at 10,000 steps against python-control's
    ``forced_response`` on the same closed loop and against RK4. The graphs of simulate are
    linear by construction (typical elements); nonlinear elements go through
    :func:`simlab.elementwise.simulate_elements`.

    Parameters
    ----------
    P, W, W0, Wc : array_like
        The structure graph, as in :func:`closed_loop`; P may be a batch (m, n, 4), which is
        simulated in one vectorized loop (one discretization per parameter set for
        ``"similarity"``).
    r : float, array_like of shape (q,), or callable ``r(t)``
        External input(s); a number is a step of that height switched on at t0.
    t_span : (float, float)
    h : float
        Step size, must divide the span.
    method : {"rk4", "heun", "euler", "similarity"}
        Integrator (default RK4, as in the seed programs), or discrete similarity (see above).
    x0 : array_like, shape (n,), optional
        Element outputs just before t0 (default zero); for a batch P also (m, n), one row per
        parameter set.
    seed_compatible : bool
        Reproduce the seed program (drop diag(D) W0 r').

    Returns
    -------
    StructureResult
        ``t``, ``x`` (every element's output), ``y`` (system output).

    Raises
    ------
    TypeError
        If an argument is not numeric, ``r`` (or what ``r(t)`` returns) is not a real number or
        vector, or ``seed_compatible`` is not True or False.
    ValueError
        For the graph errors of :func:`closed_loop`; a P that holds a nonlinear element object
        (simlab.nonlinear: use simlab.elementwise.simulate_elements); an input r that is NaN or
        inf, or a function r(t) that returns NaN, inf or the wrong shape (the message names r
        and the time t); an x0 of the wrong shape; a bad ``t_span``, ``h`` or ``method`` (see
        :func:`simlab.integrators.integrate`).
    NonFiniteStateError
        If the element outputs become inf or NaN (for the integrators h beyond the stability
        limit, or an unstable graph; for ``"similarity"`` an unstable graph outgrowing the
        floating-point range); the message names the step.

    Examples
    --------
    >>> from simlab.structure import simulate
    >>> P = [[0.1, 1, 0.5, 1], [0, 1, 1, 0], [1, 1, 2, 1]]
    >>> W = [[0, 0, -1], [1, 0, 0], [0, 1, 0]]
    >>> result = simulate(P, W, [1, 0, 0], [0, 0, 1], r=10, t_span=(0, 10), h=0.2)
    >>> result.x.shape, result.y.shape
    ((51, 3), (51,))
    >>> exact = simulate(P, W, [1, 0, 0], [0, 0, 1], r=10, t_span=(0, 10), h=0.2, method="similarity")
    >>> bool(abs(exact.y - result.y).max() < 1e-3)  # RK4 at h = 0.2: 3e-4 from the exact response
    True
    """
    _require_linear_elements(P)
    P, W, W0, Wc = as_structure_graph(P, W, W0, Wc)
    seed_compatible = as_flag(seed_compatible, "seed_compatible")
    method = as_choice(method, "method", SIMULATE_METHODS)
    n, q = W0.shape
    batch = P.ndim == 3
    parts = [_closed_loop_one(p, W, W0, Wc) for p in (P if batch else [P])]
    A = np.stack([p[0] for p in parts])  # (m, n, n)
    B = np.stack([p[1] for p in parts])  # (m, n, q)
    B_d = np.stack([p[3] for p in parts])
    r_of_t = as_input_function(r, q)
    if seed_compatible:
        B_z, shift = B, np.zeros_like(B_d)
    else:
        B_z, shift = A @ B_d + B, B_d  # z' = A z + (A B_d + B) r, x = z + B_d r
    m = len(A)
    if x0 is None:
        z0 = np.zeros((m, n))
    else:  # checked before it is broadcast over the batch, so a wrong shape gets a clear message
        z0 = as_initial_state(x0, n, per="element", batch=m if batch else None)
        z0 = np.broadcast_to(z0, (m, n)).copy()

    def f(t, z):
        # z' = A z + B_z r(t), for every parameter set of the batch at once
        return np.einsum("mij,mj->mi", A, z) + B_z @ r_of_t(t)

    if method == "similarity":
        t, _ = time_grid(t_span, h)
        inputs = _inputs_on_grid(r, r_of_t, t, q)  # (N + 1, q)
        z = _held_response(A, B_z, z0, inputs, t)
    else:
        t, z = integrate(f, t_span, z0, h, method)
        inputs = _inputs_on_grid(r, r_of_t, t, q)
    x = z + np.einsum("miq,kq->kmi", shift, inputs)
    y = np.einsum("pi,kmi->kmp", Wc, x)
    if not batch:
        x, y = x[:, 0, :], y[:, 0, :]
    if y.shape[-1] == 1:
        y = y[..., 0]
    return StructureResult(t=t, x=x, y=y, method=method, seed_compatible=seed_compatible)
