"""Linear multistep methods (线性多步法): Adams-Bashforth and the Adams-Bashforth-Moulton predictor-corrector.

A one-step method (Euler, RK4) uses only x_n to compute x_{n+1}; an Adams method also reuses
the slopes of earlier steps, f_j = f(t_j, x_j). Integrating dx/dt = f from t_n to t_{n+1},

    x_{n+1} = x_n + integral_{t_n}^{t_{n+1}} f(t, x(t)) dt,

and replacing f by the polynomial P that interpolates known slopes gives, with s = (t - t_n)/h,

    Adams-Bashforth (阿当姆斯-巴什福思, explicit): P through f_n, f_{n-1}, ..., f_{n-k+1}
        x_{n+1} = x_n + h sum_{j=0}^{k-1} beta_j f_{n-j},     beta_j = int_0^1 l_j(s) ds
    Adams-Moulton (阿当姆斯-莫尔顿, implicit): P through f_{n+1}, f_n, ..., f_{n-k+2}
        x_{n+1} = x_n + h sum_{j=0}^{k-1} beta*_j f_{n+1-j}

with l_j the Lagrange basis polynomial of node j (nodes s = 0, -1, ..., -(k-1) for AB and
s = 1, 0, ..., -(k-2) for AM). Both have order k (the interpolation error is O(h^k)):

    AB1  x_{n+1} = x_n + h f_n                                           (Euler)
    AB2  x_{n+1} = x_n + h/2  (3 f_n - f_{n-1})
    AB3  x_{n+1} = x_n + h/12 (23 f_n - 16 f_{n-1} + 5 f_{n-2})
    AB4  x_{n+1} = x_n + h/24 (55 f_n - 59 f_{n-1} + 37 f_{n-2} - 9 f_{n-3})
    AM2  x_{n+1} = x_n + h/2  (f_{n+1} + f_n)                            (trapezoidal rule)
    AM3  x_{n+1} = x_n + h/12 (5 f_{n+1} + 8 f_n - f_{n-1})
    AM4  x_{n+1} = x_n + h/24 (9 f_{n+1} + 19 f_n - 5 f_{n-1} + f_{n-2})

:func:`adams_coefficients` computes these weights exactly from the integrals.

An AB step costs one evaluation of f whatever its order, against four for RK4, but it needs
k - 1 earlier slopes: the method is not self-starting (不能自启动); here the first k - 1 steps
are RK4 steps. The predictor-corrector (预估-校正) PECE uses AB_k to predict, the slope at the
prediction, and AM_k to correct: two evaluations per step, a smaller error constant and a larger
stability region than AB_k. Stability regions and real stability intervals:
:mod:`simlab.stability` (AB1 (-2, 0), AB2 (-1, 0), AB3 (-6/11, 0), AB4 (-3/10, 0)).

References: E. Hairer, S. P. Norsett and G. Wanner, "Solving Ordinary Differential Equations I",
2nd ed., Springer 1993, sect. III.1 (Adams methods, Table 1.1 and 1.2) and III.3 (stability);
J. C. Butcher, "Numerical Methods for Ordinary Differential Equations", Wiley 2008, sect. 24-25.

Used in lab10 (Adams orders and stability, real-time) and course/07.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from simlab.guards import _GrowthMonitor, check_step_count
from simlab.integrators import _CHECK_EVERY, Trajectory, _check_block, _prepare_rhs, _rk4_step, time_grid
from simlab.validation import as_callable, as_count, as_flag, as_state

__all__ = ["adams_coefficients", "adams_bashforth", "adams_bashforth_moulton", "MultistepMethod",
           "MultistepTrajectory", "MULTISTEP_METHODS"]

#: Highest order of the Adams methods offered (the course's table stops at 4).
MAX_ORDER = 4


def _poly_mul(p, q):
    """Product of two polynomials given as coefficient lists in ascending powers."""
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


def adams_coefficients(order, implicit=False):
    """Exact weights of the Adams-Bashforth (or Adams-Moulton) formula of the given order.

    .. math::
        \\beta_j = \\int_0^1 \\ell_j(s)\\, ds,\\qquad
        \\ell_j(s) = \\prod_{i \\ne j} \\frac{s - s_i}{s_j - s_i}

    with nodes s_i = -i (AB: f_n, f_{n-1}, ...) or s_i = 1 - i (AM: f_{n+1}, f_n, ...),
    i = 0 .. order - 1: the integral over one step of the polynomial that interpolates the
    slopes.

    Parameters
    ----------
    order : int
        Order k = number of slopes, 1 .. 4.
    implicit : bool
        False for Adams-Bashforth (explicit), True for Adams-Moulton (implicit).

    Returns
    -------
    tuple of fractions.Fraction, length ``order``
        beta_0 .. beta_{k-1}: the weight of f_{n-j} (AB) or f_{n+1-j} (AM).

    Raises
    ------
    TypeError
        If ``order`` is not an integer or ``implicit`` not a bool.
    ValueError
        If ``order`` is not 1 .. 4.

    Examples
    --------
    >>> from simlab.multistep import adams_coefficients
    >>> [str(b) for b in adams_coefficients(2)]
    ['3/2', '-1/2']
    >>> [str(b) for b in adams_coefficients(3, implicit=True)]
    ['5/12', '2/3', '-1/12']
    """
    order = as_count(order, "order", minimum=1, maximum=MAX_ORDER)
    shift = 1 if as_flag(implicit, "implicit") else 0
    nodes = [Fraction(shift - i) for i in range(order)]
    weights = []
    for j, s_j in enumerate(nodes):
        basis = [Fraction(1)]  # l_j(s) = prod_{i != j} (s - s_i) / (s_j - s_i)
        for i, s_i in enumerate(nodes):
            if i != j:
                basis = _poly_mul(basis, [-s_i / (s_j - s_i), 1 / (s_j - s_i)])
        # beta_j = int_0^1 l_j(s) ds = sum_m c_m / (m + 1)
        weights.append(sum(c / (m + 1) for m, c in enumerate(basis)))
    return tuple(weights)


@dataclass(frozen=True)
class MultistepMethod:
    """An Adams method of the course's table.

    Attributes
    ----------
    name : str
        Key in :data:`MULTISTEP_METHODS` (``"ab1"`` .. ``"ab4"``, ``"abm2"`` .. ``"abm4"``).
    title : str
        Name for tables and legends.
    order : int
        Order p (= the number of slopes k of the predictor).
    evaluations : int
        Evaluations of f per step once started (1 for AB, 2 for PECE).
    predictor : tuple of float
        AB weights beta_0 .. beta_{k-1} of f_n .. f_{n-k+1}.
    corrector : tuple of float, or None
        AM weights beta*_0 .. beta*_{k-1} of f_{n+1} .. f_{n-k+2} (None for AB).
    """

    name: str
    title: str
    order: int
    evaluations: int
    predictor: tuple
    corrector: tuple | None

    @property
    def steps(self) -> int:
        """Number of earlier slopes the step needs, k (k - 1 RK4 steps start it)."""
        return len(self.predictor)


def _float_weights(order, implicit=False):
    return tuple(float(b) for b in adams_coefficients(order, implicit))


#: The Adams methods: name -> :class:`MultistepMethod`.
MULTISTEP_METHODS = {
    **{f"ab{k}": MultistepMethod(f"ab{k}", f"AB{k}", k, 1, _float_weights(k), None) for k in range(1, 5)},
    **{f"abm{k}": MultistepMethod(f"abm{k}", f"ABM{k} (PECE)", k, 2, _float_weights(k), _float_weights(k, True))
       for k in range(2, 5)},
}


@dataclass(frozen=True, repr=False)
class MultistepTrajectory(Trajectory):
    """Result of :func:`adams_bashforth` and :func:`adams_bashforth_moulton`; unpacks as ``t, x``.

    The fields of :class:`simlab.integrators.Trajectory` (``t``, ``x``, ``method``, ``h``,
    ``nfev``), and:

    Attributes
    ----------
    order : int
        Order of the method.
    start_steps : int
        Steps done by RK4 to start the method, min(order - 1, N).
    """

    order: int
    start_steps: int


def _adams_sum(weights, slopes):
    """sum_j beta_j slopes[j] (slopes newest first)."""
    total = weights[0] * slopes[0]
    for beta, slope in zip(weights[1:], slopes[1:]):
        total = total + beta * slope
    return total


def _start(f, t, xs, h, start):
    """RK4 for the first ``start`` steps; returns the slopes f_{start-1} .. f_0 (newest first)."""
    slopes = []
    for n in range(start):
        slope = f(t[n], xs[n])  # f_n = f(t_n, x_n), also K1 of the RK4 step
        slopes.insert(0, slope)
        xs[n + 1] = _rk4_step(f, t[n], xs[n], h, k1=slope)
    return slopes


def _run(f, t_span, x0, h, method):
    """The multistep loop: RK4 start, then AB_k (1 evaluation per step) or PECE (2)."""
    as_callable(f, "f", call="f(t, x)")  # before the grid: a wrong signature is the first thing to fix
    t, h = time_grid(t_span, h)
    x0 = as_state(x0)
    f, calls, dx0 = _prepare_rhs(f, float(t[0]), x0)
    n_steps, k = len(t) - 1, method.steps
    check_step_count(n_steps, h, t[-1] - t[0], x0.size, f"a state of {x0.size} values")
    xs = np.empty((n_steps + 1,) + x0.shape, dtype=x0.dtype)
    xs[0] = x0
    times = t.tolist()
    monitor = _GrowthMonitor(f, x0, dx0, h, t[-1] - t[0], method.name)
    beta, beta_c = method.predictor, method.corrector
    start = min(k - 1, n_steps)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        slopes = _start(f, times, xs, h, start)
        if start:
            _check_block(xs, 0, start, t, h, monitor, method.name)
        slope_now = f(times[start], xs[start]) if beta_c is not None and start < n_steps else None
        for block in range(start, n_steps, _CHECK_EVERY):
            stop = min(block + _CHECK_EVERY, n_steps)
            for n in range(block, stop):
                x, t_next = xs[n], times[n + 1]
                if beta_c is None:
                    slopes = [f(times[n], x)] + slopes[: k - 1]  # f_n = f(t_n, x_n), then f_{n-1} ...
                    # AB_k:  x_{n+1} = x_n + h sum_j beta_j f_{n-j}
                    xs[n + 1] = x + h * _adams_sum(beta, slopes)
                    continue
                slopes = [slope_now] + slopes[: k - 1]
                # P:  x^P = x_n + h sum_j beta_j f_{n-j}                       (AB_k predicts)
                predicted = x + h * _adams_sum(beta, slopes)
                # E:  f^P = f(t_{n+1}, x^P)
                # C:  x_{n+1} = x_n + h (beta*_0 f^P + sum_{j>=1} beta*_j f_{n+1-j})   (AM_k corrects)
                xs[n + 1] = x + h * _adams_sum(beta_c, [f(t_next, predicted)] + slopes)
                # E:  f_{n+1} = f(t_{n+1}, x_{n+1}) (not needed after the last step)
                slope_now = f(t_next, xs[n + 1]) if n + 1 < n_steps else None
            _check_block(xs, block, stop, t, h, monitor, method.name)
    return MultistepTrajectory(t=t, x=xs, method=method.name, h=h, nfev=next(calls) - 1, order=method.order,
                               start_steps=start)


def adams_bashforth(f, t_span, x0, h, order=4):
    """Integrate dx/dt = f(t, x) by the Adams-Bashforth method of order 1 .. 4 (fixed step).

    .. math:: x_{n+1} = x_n + h \\sum_{j=0}^{k-1} \\beta_j f_{n-j},\\qquad f_j = f(t_j, x_j)

    with the weights of :func:`adams_coefficients` (AB4: h/24 (55 f_n - 59 f_{n-1} + 37 f_{n-2}
    - 9 f_{n-3})). The first k - 1 steps are RK4 steps (the method needs k slopes). Global error
    O(h^k). One evaluation of f per step: ``nfev = N + 3 (k - 1)`` (each RK4 starting step
    costs 4, and its K1 is the slope f_n the AB steps reuse).

    Parameters
    ----------
    f : callable ``f(t, x)``
        Right-hand side, returns dx/dt with the shape of ``x``.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like
        Initial state x(t0); any shape (a batch runs when ``f`` is vectorized).
    h : float
        Step size; must divide the span (the grid of :func:`simlab.integrators.time_grid`).
    order : int
        Order k, 1 .. 4 (AB1 is Euler's method).

    Returns
    -------
    MultistepTrajectory
        Unpacks as ``t, x`` like :class:`simlab.integrators.Trajectory` (``.h``, ``.nfev``,
        ``.method`` = ``"ab<k>"``), with ``.order`` and ``.start_steps``.

    Raises
    ------
    TypeError, ValueError
        As :func:`simlab.integrators.integrate` (an ``f`` that cannot be called as ``f(t, x)``,
        an empty or ragged argument, an ``h`` below the smallest step that can advance t or of
        more than :data:`simlab.guards.MAX_STEPS` steps: see
        :func:`simlab.integrators.time_grid`), and for an ``order`` that is not an integer 1 .. 4.
    simlab.guards.UnstableRunError, simlab.guards.NonFiniteStateError
        If the run grows unstably (h lambda outside the real interval, (-3/10, 0) for AB4) or
        the state becomes inf or NaN; the message names the step.

    Examples
    --------
    >>> import numpy as np, simlab
    >>> run = simlab.adams_bashforth(lambda t, x: -x, (0, 1), 1.0, 0.01, order=4)
    >>> bool(abs(run.x[-1] - np.exp(-1)) < 2e-9), run.nfev, run.start_steps     # N = 100 steps
    (True, 109, 3)
    """
    order = as_count(order, "order", minimum=1, maximum=MAX_ORDER, meaning=" (Adams-Bashforth orders 1 to 4)")
    return _run(f, t_span, x0, h, MULTISTEP_METHODS[f"ab{order}"])


def adams_bashforth_moulton(f, t_span, x0, h, order=4):
    """Integrate dx/dt = f(t, x) by the Adams-Bashforth-Moulton predictor-corrector (预估-校正, PECE).

    .. math::
        P:\\; x^P_{n+1} = x_n + h \\sum_{j=0}^{k-1} \\beta_j f_{n-j},\\qquad
        E:\\; f^P_{n+1} = f(t_{n+1}, x^P_{n+1}),

        C:\\; x_{n+1} = x_n + h \\Big(\\beta^*_0 f^P_{n+1} + \\sum_{j=1}^{k-1} \\beta^*_j f_{n+1-j}\\Big),\\qquad
        E:\\; f_{n+1} = f(t_{n+1}, x_{n+1})

    (ABM4: AB4 predicts, AM4 = h/24 (9 f_{n+1} + 19 f_n - 5 f_{n-1} + f_{n-2}) corrects). The
    first k - 1 steps are RK4 steps. Global error O(h^k); two evaluations of f per step:
    ``nfev = 2 N + 2 (k - 1)``.

    Parameters
    ----------
    f, t_span, x0, h
        As in :func:`adams_bashforth`.
    order : int
        Order k, 2 .. 4.

    Returns
    -------
    MultistepTrajectory
        ``.method`` = ``"abm<k>"``; otherwise as in :func:`adams_bashforth`.

    Raises
    ------
    TypeError, ValueError, simlab.guards.UnstableRunError, simlab.guards.NonFiniteStateError
        As in :func:`adams_bashforth` (``order`` must be 2 .. 4).

    Examples
    --------
    >>> import numpy as np, simlab
    >>> run = simlab.adams_bashforth_moulton(lambda t, x: -x, (0, 1), 1.0, 0.01, order=4)
    >>> bool(abs(run.x[-1] - np.exp(-1)) < 2e-10), run.nfev                     # N = 100 steps
    (True, 206)
    """
    order = as_count(order, "order", minimum=2, maximum=MAX_ORDER, meaning=" (predictor-corrector orders 2 to 4)")
    return _run(f, t_span, x0, h, MULTISTEP_METHODS[f"abm{order}"])
