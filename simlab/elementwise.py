"""Per-element discrete similarity (按环节离散相似法) for structure graphs with nonlinear elements.

Each typical element G_i(s) = (C_i + D_i s)/(A_i + B_i s) is discretized on its own, and the
loop is closed through the connection matrices once per step. Because every element is updated
from its own input sample, a nonlinear element (saturation, dead zone, backlash, relay) can sit
on the input or the output of any element: this is why the method is used for nonlinear systems.

Discretization of one element with B_i != 0. Split off the direct feedthrough d = D/B:

    G(s) = d + kappa / (s + a),   a = A/B,   kappa = (C B - A D) / B^2

so that x' = -a x + kappa u, y = x + d u. Over a step T the exact update for an input held
constant (zero-order hold, 零阶保持器) or linear between samples (triangle hold, 三角形保持器) is

    x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k])
    Phi = e^{-a T},  Gamma = kappa (1 - Phi) / a,  Gamma_hat = kappa (a T - 1 + Phi) / (a^2 T)

(with the limits Gamma = kappa T and Gamma_hat = kappa T / 2 for an integrator, a = 0). These are
``simlab.similarity.discretize(-a, kappa, T)`` for a first-order system, computed in closed form.

Inside a loop u[k+1] is not known when x[k+1] is computed, so the triangle hold uses the
extrapolation u[k+1] - u[k] ~ u[k] - u[k-1], and the feedthrough uses y[k+1] = x[k+1] + d u[k].
Both introduce a *one-step lag* (一步延迟) into every loop, which is the accuracy price of the
method: T must be small compared with the loop's time constants (the lab shows the error falling
like T). Elements with B_i = 0 (proportional C/A, and PD (C + D s)/A) have no state; their output
is computed from the current input, y[k+1] = (C u[k] + D (u[k] - u[k-1]) / T) / A.

Element types of the seed's table (the ``kind`` returned by :func:`element_kind`): integral,
PI, inertia, lead-lag (proportional-inertia), proportional, PD.

Used in lab06 (nonlinear elements) and lab07 (DC motor drive).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simlab.integrators import time_grid
from simlab.structure import StructureResult
from simlab.validation import (
    as_hold,
    as_input_function,
    as_positive_scalar,
    as_structure_graph,
    as_typical_element,
)

__all__ = ["ElementCoefficients", "element_kind", "discretize_element", "simulate_elements"]

INPUT, OUTPUT = "input", "output"


def element_kind(row):
    """Name of the typical element [A, B, C, D] (the six types of the seed's table).

    Examples
    --------
    >>> from simlab.elementwise import element_kind
    >>> element_kind([0, 1, 2, 0]), element_kind([1, 0.5, 2, 0]), element_kind([1, 0, 2, 3])
    ('integral', 'inertia', 'PD')
    """
    A, B, C, D = (float(v) for v in row)
    if B == 0:
        return "proportional" if D == 0 else "PD"
    if A == 0:
        return "integral" if D == 0 else "PI"
    return "inertia" if D == 0 else "lead-lag"


@dataclass(frozen=True)
class ElementCoefficients:
    """Discrete coefficients of one typical element (see the module docstring for the formulas)."""

    kind: str
    Phi: float
    Gamma: float
    Gamma_hat: float
    d: float
    static_gain: float = 0.0  # C/A for B = 0 elements
    derivative_gain: float = 0.0  # D/A for a PD element


def discretize_element(row, T, hold="zoh"):
    """Discrete coefficients of the typical element ``row = [A, B, C, D]`` for the step T.

    Parameters
    ----------
    row : array_like, shape (4,)
        [A_i, B_i, C_i, D_i] of G_i(s) = (C_i + D_i s)/(A_i + B_i s).
    T : float
        Step (sampling period) T > 0.
    hold : {"zoh", "foh"}
        Zero-order hold, or triangle (first-order) hold; with "zoh" Gamma_hat is 0.

    Returns
    -------
    ElementCoefficients

    Examples
    --------
    Inertia element 1/(s + 1) with T = 0.1: Phi = e^{-0.1}, Gamma = 1 - e^{-0.1}.

    >>> from simlab.elementwise import discretize_element
    >>> c = discretize_element([1, 1, 1, 0], 0.1)
    >>> round(c.Phi, 6), round(c.Gamma, 6), c.kind
    (0.904837, 0.095163, 'inertia')
    """
    row = as_typical_element(row, "row")  # shape (4,), A + B s not zero
    T = as_positive_scalar(T, "T")
    as_hold(hold)
    A, B, C, D = row
    kind = element_kind(row)
    if B == 0:
        return ElementCoefficients(kind, 0.0, 0.0, 0.0, 0.0, static_gain=C / A, derivative_gain=D / A)
    a = A / B
    kappa = (C * B - A * D) / B**2
    d = D / B
    aT = a * T
    Phi = float(np.exp(-aT))
    if abs(aT) < 1e-8:  # integrator (or nearly): series expansions avoid 0/0
        Gamma = kappa * T * (1 - aT / 2)
        Gamma_hat = kappa * T * (0.5 - aT / 6)
    else:
        Gamma = kappa * (-np.expm1(-aT)) / a
        Gamma_hat = kappa * (aT + np.expm1(-aT)) / (a * aT)
    return ElementCoefficients(kind, Phi, float(Gamma), float(Gamma_hat) if hold == "foh" else 0.0, d)


def _check_nonlinear(nonlinear, n):
    placed = {}
    for key, element in (nonlinear or {}).items():
        if not (isinstance(key, tuple) and len(key) == 2 and key[1] in (INPUT, OUTPUT)):
            raise ValueError(
                f"nonlinear keys must be (element number, 'input' or 'output'), e.g. (2, 'output'); "
                f"got {key!r}."
            )
        index, where = key
        if not isinstance(index, (int, np.integer)) or not 1 <= index <= n:
            raise ValueError(f"nonlinear: element number must be 1..{n} (1-based, as in the seed), got {index!r}.")
        if not hasattr(element, "step"):
            raise TypeError(f"nonlinear[{key!r}] must be a simlab.nonlinear element with .step(u), got {element!r}.")
        placed[(int(index) - 1, where)] = element
    return placed


def simulate_elements(P, W, W0, Wc, r, t_span, T, hold="zoh", nonlinear=None):
    """Simulate a structure graph by per-element discrete similarity, with nonlinear elements.

    Each step: u[k] = W y[k] + W0 r(t_k); input nonlinearities act on u; every element advances by
    its own discrete update; output nonlinearities act on the new outputs.

    Parameters
    ----------
    P, W, W0, Wc : array_like
        The structure graph, as in :func:`simlab.structure.closed_loop` (P of shape (n, 4)).
    r : float, array_like of shape (q,), or callable ``r(t)``
        External input(s), q = number of columns of W0; a number is a step switched on at t0.
    t_span : (float, float)
    T : float
        Step; must divide the span.
    hold : {"zoh", "foh"}
    nonlinear : dict, optional
        ``{(i, "input"|"output"): element}`` with i the 1-based element number and element a
        :mod:`simlab.nonlinear` object (its memory is reset at the start).

    Returns
    -------
    StructureResult
        ``t``, ``x`` (every element's output), ``y`` (system output), method "elementwise-zoh" or
        "elementwise-foh".
    """
    P, W, W0, Wc = as_structure_graph(P, W, W0, Wc)
    if P.ndim != 2:
        raise ValueError("simulate_elements takes one parameter set P of shape (n, 4), not a batch.")
    n = len(P)
    t, T = time_grid(t_span, T)
    coefficients = [discretize_element(row, T, hold) for row in P]
    Phi = np.array([c.Phi for c in coefficients])
    Gamma = np.array([c.Gamma for c in coefficients])
    Gamma_hat = np.array([c.Gamma_hat for c in coefficients])
    d = np.array([c.d for c in coefficients])
    static = np.array([c.static_gain for c in coefficients])
    derivative = np.array([c.derivative_gain for c in coefficients])
    stateless = P[:, 1] == 0
    placed = _check_nonlinear(nonlinear, n)
    for element in placed.values():
        if hasattr(element, "reset"):
            element.reset()
    r_of_t = as_input_function(r, W0.shape[1])
    r_values = np.array([r_of_t(tk) for tk in t])  # (N + 1, q)

    x = np.zeros(n)  # element states
    y = np.zeros(n)  # element outputs
    u_previous = np.zeros(n)
    outputs = np.empty((len(t), n))
    outputs[0] = y
    for k in range(len(t) - 1):
        u = W @ y + W0 @ r_values[k]  # u[k] = W y[k] + W0 r[k]
        for (i, where), element in placed.items():
            if where == INPUT:
                u[i] = element.step(u[i])
        du = u - u_previous if k > 0 else np.zeros(n)
        x = Phi * x + Gamma * u + Gamma_hat * du  # x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat du
        y = np.where(stateless, static * u + derivative * du / T, x + d * u)  # y[k+1]
        for (i, where), element in placed.items():
            if where == OUTPUT:
                y[i] = element.step(y[i])
        outputs[k + 1] = y
        u_previous = u
    y_out = outputs @ Wc.T
    if y_out.shape[1] == 1:
        y_out = y_out[:, 0]
    return StructureResult(t=t, x=outputs, y=y_out, method=f"elementwise-{hold}", seed_compatible=False)
