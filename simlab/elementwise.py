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

A pure delay (纯延迟环节) e^{-tau s} on the input or output of an element (``delays=``) is a
shift register of past samples, :class:`simlab.delay.DelayLine` (seed 003, 3.4): the value
tau back, interpolated linearly between the two samples around it when tau is not a multiple
of T. It is exact for tau = d T (then it adds no error to the method's own), and otherwise errs
by at most theta (T - theta) / 2 max|u''| on the delayed signal (theta = tau - d T).

Used in lab06 (nonlinear elements) and lab07 (DC motor drive).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from simlab.delay import DelayLine, as_delay
from simlab.integrators import NonFiniteStateError, time_grid
from simlab.structure import StructureResult, closed_loop
from simlab.validation import (
    as_callable,
    as_hold,
    as_input_function,
    as_positive_scalar,
    as_structure_graph,
    as_time_span,
    as_typical_element,
    describe,
)

__all__ = ["ElementCoefficients", "element_kind", "discretize_element", "simulate_elements"]

INPUT, OUTPUT = "input", "output"

_LOG_MAX = math.log(np.finfo(float).max)  # 709.78: e^x overflows beyond it
_HUGE_GAIN = 1e100  # connection weights beyond this are named as the cause of an overflow


def element_kind(row):
    """Name of the typical element [A, B, C, D] (the six types of the seed's table).

    Parameters
    ----------
    row : array_like, shape (4,)
        [A, B, C, D] of G(s) = (C + D s)/(A + B s).

    Returns
    -------
    str
        "integral", "PI", "inertia", "lead-lag", "proportional" or "PD".

    Raises
    ------
    TypeError, ValueError
        If ``row`` is not four finite real numbers, or A = B = 0 (the denominator A + B s is
        zero, so G is undefined): the rule of :func:`simlab.validation.as_typical_element`.

    Examples
    --------
    >>> from simlab.elementwise import element_kind
    >>> element_kind([0, 1, 2, 0]), element_kind([1, 0.5, 2, 0]), element_kind([1, 0, 2, 3])
    ('integral', 'inertia', 'PD')
    """
    A, B, C, D = (float(v) for v in as_typical_element(row, "row"))
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

    Raises
    ------
    TypeError, ValueError
        For a bad ``row`` (see :func:`element_kind`), T not finite and positive, or an unknown
        hold; ValueError also if a coefficient is beyond the floating-point range (an
        unstable element, A/B < 0, with e^{-A T / B} > 1.8e308, or A/B, C/A, D/B overflowing).

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
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        if B == 0:
            coefficients = ElementCoefficients(kind, 0.0, 0.0, 0.0, 0.0, static_gain=C / A,
                                               derivative_gain=D / A)
        else:
            coefficients = _dynamic_coefficients(kind, A, B, C, D, T, hold)
    _require_finite_coefficients(coefficients, row, T)
    return coefficients


def _dynamic_coefficients(kind, A, B, C, D, T, hold):
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


def _require_finite_coefficients(c, row, T):
    values = (c.Phi, c.Gamma, c.Gamma_hat, c.d, c.static_gain, c.derivative_gain)
    if all(math.isfinite(value) for value in values):
        return
    A, B = row[0], row[1]  # numpy floats: overflow gives inf, not OverflowError
    with np.errstate(all="ignore"):
        pole = -A / B if B != 0 else 0.0
    if not np.isfinite(pole):
        why = (f"its pole -A/B = {pole:.6g} is beyond the floating-point range (about 1.8e308 in "
               f"size): B = {B:.6g} is too small next to A = {A:.6g}; for an element without "
               f"dynamics give B = 0")
    elif pole * T > _LOG_MAX:  # e^{-aT} beyond the largest double
        why = (f"the element is unstable on its own (pole -A/B = {pole:.6g} > 0) and "
               f"e^(-A T / B) = e^{pole * T:.6g} overflows (the largest double is about "
               f"e^709.78 = 1.8e308); T must be below {_LOG_MAX / pole:.6g}")
    else:
        why = ("its gains C/A, D/A, D/B or (C B - A D)/B^2 are beyond the floating-point range "
               "(about 1.8e308 in size)")
    raise ValueError(
        f"row = {np.asarray(row).tolist()} with T = {T!r} has no discrete coefficients in floating "
        f"point: {why}."
    )


def _place(key, n, name):
    """(0-based element, 'input' or 'output') of a key (1-based element, place) of ``name``."""
    if not (isinstance(key, tuple) and len(key) == 2 and key[1] in (INPUT, OUTPUT)):
        raise ValueError(
            f"{name} keys must be (element number, 'input' or 'output'), e.g. (2, 'output'); got {key!r}.")
    index, where = key
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 1 <= index <= n:
        raise ValueError(f"{name}: element number must be 1..{n} (1-based, as in the seed), got {index!r}.")
    return int(index) - 1, where


def _check_nonlinear(nonlinear, n, T):
    if nonlinear is None:
        return {}
    if not isinstance(nonlinear, Mapping):
        raise TypeError(
            f"nonlinear must be a dict {{(element number, 'input' or 'output'): element}}, e.g. "
            f"{{(2, 'output'): Saturation(1.0)}}; got {describe(nonlinear)}."
        )
    placed = {}
    for key, element in nonlinear.items():
        place = _place(key, n, "nonlinear")
        if not hasattr(element, "step"):
            raise TypeError(f"nonlinear[{key!r}] must be a simlab.nonlinear element with .step(u), got {element!r}.")
        # the loop calls element.step(u) once per step, with u a float
        as_callable(element.step, f"nonlinear[{key!r}].step", call="step(u)", returns="the element's output y")
        if isinstance(element, DelayLine) and element.h != T:
            raise ValueError(f"nonlinear[{key!r}] is {element!r}, whose sample spacing h is not the step "
                             f"T = {T!r}: pass the delay as delays={{{key!r}: {element.tau!r}}} instead.")
        placed[place] = element
    return placed


def _check_delays(delays, n, T):
    """{(element, place): DelayLine(tau, T)} from ``delays`` {(i, 'input'|'output'): tau}."""
    if delays is None:
        return {}
    if not isinstance(delays, Mapping):
        raise TypeError(f"delays must be a dict {{(element number, 'input' or 'output'): tau}}, e.g. "
                        f"{{(1, 'input'): 0.5}}; got {describe(delays)}.")
    lines = {}
    for key, tau in delays.items():
        place, tau = _place(key, n, "delays"), as_delay(tau, f"delays[{key!r}]")
        try:
            lines[place] = DelayLine(tau, T)
        except ValueError as error:  # a register too long for MAX_STEPS
            raise ValueError(f"delays[{key!r}] = {tau!r} with T = {T!r}: {error}") from None
    return lines


def _chains(placed, lines):
    """What acts on each signal, in order: on an input the delay, then the nonlinear element;
    on an output the nonlinear element, then the delay (the delay always outermost)."""
    chains = {}
    for place in sorted(set(placed) | set(lines)):
        parts = [placed.get(place), lines.get(place)]
        chain = parts[::-1] if place[1] == INPUT else parts
        chains[place] = tuple(element for element in chain if element is not None)
    return chains


def _grid(t_span, T):
    """The time grid for the step T; errors name T (time_grid calls its step h)."""
    t0, t1 = as_time_span(t_span)  # t_span's own errors first
    T = as_positive_scalar(T, "T")
    try:
        return time_grid((t0, t1), T)
    except ValueError as error:
        raise ValueError(f"T = {T!r} cannot be the step of the time grid (the h below): {error}") from None


def _why_unstable(P, W, W0, Wc, T, placed):
    """A cheap diagnosis of a run that blew up: is the continuous loop itself unstable?"""
    try:
        largest = float(np.max(np.linalg.eigvals(closed_loop(P, W, W0, Wc)[0]).real))
    except ValueError:  # static elements (B_i = 0): no continuous state equation to compare with
        return f"Check the graph for an unstable loop, or try a smaller T, such as {T / 10:.3g}."
    elements = [element for chain in placed.values() for element in chain]
    left_out = [what for what, present in (
        ("nonlinear elements", any(not isinstance(element, DelayLine) for element in elements)),
        ("delays", any(isinstance(element, DelayLine) for element in elements))) if present]
    linear = f" (without its {' and '.join(left_out)})" if left_out else ""
    if largest > 0:
        return (f"The structure graph itself is unstable{linear}: its continuous closed loop has an "
                f"eigenvalue with real part {largest:.3g} > 0, so the response grows without bound "
                f"whatever T.")
    return (f"The continuous closed loop{linear} is stable (largest real part of its eigenvalues "
            f"{largest:.3g}), so the method makes it grow: the one-step lag of per-element discrete "
            f"similarity destabilizes a loop when T is not small against its time constants. Try a "
            f"smaller T, such as {T / 10:.3g}.")


def _blow_up(outputs, rows, t, T, hold, graph, placed):
    """NonFiniteStateError for the first non-finite row of outputs[:rows] (else step ``rows``)."""
    bad = ~np.all(np.isfinite(outputs[:rows]), axis=1)
    step = int(np.argmax(bad)) if bad.any() else rows
    steps = len(t) - 1
    gains = max(float(np.max(np.abs(graph[1]), initial=0.0)), float(np.max(np.abs(graph[2]), initial=0.0)))
    why = (f"The connection weights are so large (largest |entry| of W and W0: {gains:.3g}) that the "
           f"element inputs u = W y + W0 r overflow: scale W and W0 (or the input r) down."
           if gains > _HUGE_GAIN else _why_unstable(*graph, T, placed))
    return NonFiniteStateError(
        f"simulate_elements: the element outputs became inf or NaN at step {step} of {steps} "
        f"(t = {t[step]:.6g}) with T = {T:.6g}. {why}",
        method=f"elementwise-{hold}", step=step, steps=steps, t=float(t[step]), h=T,
    )


def simulate_elements(P, W, W0, Wc, r, t_span, T, hold="zoh", nonlinear=None, delays=None):
    """Simulate a structure graph by per-element discrete similarity, with nonlinear elements and delays.

    Each step: u[k] = W y[k] + W0 r(t_k); input delays and nonlinearities act on u; every element
    advances by its own discrete update; output nonlinearities and delays act on the new outputs.

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
    delays : dict, optional
        ``{(i, "input"|"output"): tau}``: a pure delay e^{-tau s} (tau >= 0, in the unit of t)
        on the input or output of element i, a :class:`simlab.delay.DelayLine` with spacing T
        (exact for tau a multiple of T, linear interpolation otherwise). The signal is zero
        before t0. On an input the delay acts before a nonlinear element at the same place, on
        an output after it. Used in lab11 (a loop with dead time).

    Returns
    -------
    StructureResult
        ``t``, ``x`` (every element's output), ``y`` (system output), method "elementwise-zoh" or
        "elementwise-foh".

    Raises
    ------
    TypeError
        If an argument is not numeric, ``nonlinear`` is not a dict or holds something that is
        not a nonlinear element (or its ``step`` cannot be called as ``step(u)``), ``delays`` is
        not a dict, ``r`` is a function that cannot be called as ``r(t)`` (checked before the
        run, the message shows the signature), or ``r`` (or what ``r(t)`` returns) is not real.
    ValueError
        For the graph errors of :func:`simlab.structure.closed_loop` (a batch P is refused too);
        T not finite and positive or not dividing the span (the message names T); a bad
        ``t_span``, hold, nonlinear or delays key; a delay that is not a finite number >= 0 (or
        needs a register longer than ``simlab.guards.MAX_STEPS`` samples); a DelayLine in
        ``nonlinear`` whose spacing is not T; an input r that is NaN or inf, or a function r(t)
        that returns NaN, inf or the wrong shape (the message names r and t); an element whose
        coefficients overflow (see :func:`discretize_element`).
    NonFiniteStateError
        If the element outputs become inf or NaN, as :func:`simlab.structure.simulate` does:
        the message names the step and T, and says whether the continuous loop is itself
        unstable or the method's one-step lag made it grow (then a smaller T helps), or names
        W and W0 when their entries are beyond 1e100; if the output y = Wc x overflows while
        the element outputs are finite (the message names Wc).
    """
    P, W, W0, Wc = as_structure_graph(P, W, W0, Wc)
    if P.ndim != 2:
        raise ValueError("simulate_elements takes one parameter set P of shape (n, 4), not a batch.")
    if callable(r):  # called as r(t_k) at every grid time: the signature is checked before the run
        as_callable(r, "r", call="r(t)", returns=f"a number or a vector of q = {W0.shape[1]} input values")
    n = len(P)
    t, T = _grid(t_span, T)
    coefficients = []
    for i, row in enumerate(P):
        try:
            coefficients.append(discretize_element(row, T, hold))
        except ValueError as error:  # name the row of P it came from
            raise ValueError(f"P[{i}] (element {i + 1}): {error}") from None
    Phi = np.array([c.Phi for c in coefficients])
    Gamma = np.array([c.Gamma for c in coefficients])
    Gamma_hat = np.array([c.Gamma_hat for c in coefficients])
    d = np.array([c.d for c in coefficients])
    static = np.array([c.static_gain for c in coefficients])
    derivative = np.array([c.derivative_gain for c in coefficients])
    stateless = P[:, 1] == 0
    placed = _chains(_check_nonlinear(nonlinear, n, T), _check_delays(delays, n, T))
    for chain in placed.values():
        for element in chain:
            if hasattr(element, "reset"):
                element.reset()
    # simlab's elements step a finite float unchecked (the loop checks it); others by .step
    advance = {place: tuple(getattr(element, "_advance", element.step) for element in chain)
               for place, chain in placed.items()}
    r_of_t = as_input_function(r, W0.shape[1])
    r_values = np.array([r_of_t(tk) for tk in t])  # (N + 1, q)

    x = np.zeros(n)  # element states
    y = np.zeros(n)  # element outputs
    u_previous = np.zeros(n)
    outputs = np.empty((len(t), n))
    outputs[0] = y
    graph = (P, W, W0, Wc)
    with np.errstate(over="ignore", invalid="ignore"):  # a run that blows up is reported below
        for k in range(len(t) - 1):
            u = W @ y + W0 @ r_values[k]  # u[k] = W y[k] + W0 r[k]
            for (i, where), steps in advance.items():
                if where == INPUT:
                    if not math.isfinite(u[i]):  # before the element refuses it
                        raise _blow_up(outputs, k + 1, t, T, hold, graph, placed)
                    for step in steps:  # a delay, then a nonlinear element
                        u[i] = step(float(u[i]))
            du = u - u_previous if k > 0 else np.zeros(n)
            x = Phi * x + Gamma * u + Gamma_hat * du  # x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat du
            y = np.where(stateless, static * u + derivative * du / T, x + d * u)  # y[k+1]
            for (i, where), steps in advance.items():
                if where == OUTPUT:
                    if not math.isfinite(y[i]):
                        raise _blow_up(outputs, k + 1, t, T, hold, graph, placed)
                    for step in steps:  # a nonlinear element, then a delay
                        y[i] = step(float(y[i]))
            outputs[k + 1] = y
            u_previous = u
            if k % 256 == 255 and not np.all(np.isfinite(y)):  # stop early; cheap every 256 steps
                raise _blow_up(outputs, k + 2, t, T, hold, graph, placed)
    if not np.all(np.isfinite(outputs)):
        raise _blow_up(outputs, len(t), t, T, hold, graph, placed)
    with np.errstate(over="ignore", invalid="ignore"):
        y_out = outputs @ Wc.T  # y = Wc x
    if not np.all(np.isfinite(y_out)):
        k = int(np.argmax(~np.all(np.isfinite(y_out), axis=1)))
        raise NonFiniteStateError(
            f"simulate_elements: the system output y = Wc x overflowed to inf or NaN at step {k} (t = "
            f"{t[k]:.6g}) while the element outputs x stayed finite (largest |x| "
            f"{float(np.max(np.abs(outputs))):.3g}, largest |entry| of Wc {float(np.max(np.abs(Wc))):.3g}): "
            f"scale Wc down.", method=f"elementwise-{hold}", step=k, steps=len(t) - 1, t=float(t[k]), h=T)
    if y_out.shape[1] == 1:
        y_out = y_out[:, 0]
    return StructureResult(t=t, x=outputs, y=y_out, method=f"elementwise-{hold}", seed_compatible=False)
