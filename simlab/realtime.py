"""Real-time simulation algorithms (实时仿真算法): a frame loop whose model reads a sampled input.

In a real-time simulation (实时仿真) the model runs in step with the real world: frame n starts at
the real time t_n = t0 + n h, it reads the input u (from hardware, a pilot, another computer)
as *samples*, and x_{n+1} must be ready by t_{n+1}. Two rules follow for the algorithm:

* a fixed cost per frame: a fixed number s of evaluations of f, each taking h / s of the frame
  (evaluation i, i = 0 .. s - 1, runs during [t_n + i h/s, t_n + (i + 1) h/s]);
* every evaluation uses only input samples that exist when it is computed: evaluation i may
  use u at t_n + c_i h only if c_i <= i / s (the method is then *real-time compatible*).

The input is sampled m times per frame (``samples_per_frame``), at t_n + j h/m. Methods
(R. M. Howe, "Dynamics of Real-Time Digital Simulation", Applied Dynamics International, 1995;
the simulation textbooks' 实时二阶/三阶龙格-库塔法)::

    RTRK2 (c = 0, 1/2):       x_{n+1/2} = x_n + (h/2) f(x_n, u_n)
                              x_{n+1}   = x_n + h f(x_{n+1/2}, u_{n+1/2})
    RTRK3 (c = 0, 1/3, 2/3):  x_{n+1/3} = x_n + (h/3) f(x_n, u_n)
                              x_{n+2/3} = x_n + (2h/3) f(x_{n+1/3}, u_{n+1/3})
                              x_{n+1}   = x_n + (h/4) (f(x_n, u_n) + 3 f(x_{n+2/3}, u_{n+2/3}))
    AB_k (c = 0):             x_{n+1}   = x_n + h sum_j beta_j f(x_{n-j}, u_{n-j})  (past slopes only)

RTRK2 is the midpoint rule and RTRK3 Heun's third-order formula: their stages are placed so that
the input each stage needs has arrived. RK4 is *not* real-time compatible: its stages want
u(t_n + h/2) and u(t_n + h), K4's during the last quarter of the frame, before t_n + h. Run in
real time it must use the last sample that exists (``missing_input="hold"``) or extrapolate
(``"extrapolate"``), and that costs it its order (order 1 held, 2 extrapolated).
:data:`REAL_TIME_METHODS` lists the methods with their input offsets and whether they are
compatible; :func:`input_schedule` shows which sample each evaluation uses.

Each derivative is written f(t, x, u): the model's own time t (t_n + c_i h at evaluation i), the
state and the input value the loop gives it.

Used in lab10 (real-time loop with a sampled input) and course/07.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from simlab.guards import _GrowthMonitor
from simlab.integrators import _CHECK_EVERY, _check_block, _prepare_rhs, time_grid
from simlab.multistep import MULTISTEP_METHODS
from simlab.results import Result
from simlab.validation import as_callable, as_choice, as_count, as_state, describe

__all__ = ["RealTimeMethod", "REAL_TIME_METHODS", "InputUse", "RealTimeResult", "input_schedule",
           "simulate_real_time", "MISSING_INPUT"]

#: What a method that wants an input sample that does not exist yet gets instead.
MISSING_INPUT = ("error", "hold", "extrapolate")

#: Largest number of input samples per frame.
MAX_SAMPLES_PER_FRAME = 1000


# ---------------------------------------------------------------------------------------------
# One frame of each Runge-Kutta-type method. u[i] is the input of evaluation i; k1 = f(t, x, u[0])
# may be passed in (the start of a real-time AB run reuses it as the slope f_n).
# ---------------------------------------------------------------------------------------------


def _rtrk2_frame(f, t, x, h, u, k1=None):
    k1 = f(t, x, u[0]) if k1 is None else k1  # f(x_n, u_n)
    x_half = x + (h / 2) * k1  # x_{n+1/2} = x_n + (h/2) f(x_n, u_n)
    # x_{n+1} = x_n + h f(x_{n+1/2}, u_{n+1/2})
    return x + h * f(t + h / 2, x_half, u[1])


def _rtrk3_frame(f, t, x, h, u, k1=None):
    k1 = f(t, x, u[0]) if k1 is None else k1  # f(x_n, u_n)
    x_third = x + (h / 3) * k1  # x_{n+1/3} = x_n + (h/3) f(x_n, u_n)
    # x_{n+2/3} = x_n + (2h/3) f(x_{n+1/3}, u_{n+1/3})
    x_two_thirds = x + (2 * h / 3) * f(t + h / 3, x_third, u[1])
    # x_{n+1} = x_n + (h/4) (f(x_n, u_n) + 3 f(x_{n+2/3}, u_{n+2/3}))
    return x + (h / 4) * (k1 + 3 * f(t + 2 * h / 3, x_two_thirds, u[2]))


def _heun_frame(f, t, x, h, u, k1=None):
    k1 = f(t, x, u[0]) if k1 is None else k1  # K1 = f(x_n, u_n)
    k2 = f(t + h, x + h * k1, u[1])  # K2 = f(x_n + h K1, u(t_n + h))
    return x + (h / 2) * (k1 + k2)  # x_{n+1} = x_n + h/2 (K1 + K2)


def _rk4_frame(f, t, x, h, u, k1=None):
    k1 = f(t, x, u[0]) if k1 is None else k1  # K1 = f(x_n, u_n)
    k2 = f(t + h / 2, x + (h / 2) * k1, u[1])  # K2 = f(x_n + h K1/2, u(t_n + h/2))
    k3 = f(t + h / 2, x + (h / 2) * k2, u[2])  # K3 = f(x_n + h K2/2, u(t_n + h/2))
    k4 = f(t + h, x + h * k3, u[3])  # K4 = f(x_n + h K3, u(t_n + h))
    return x + (h / 6) * (k1 + 2 * (k2 + k3) + k4)  # x_{n+1} = x_n + h/6 (K1 + 2K2 + 2K3 + K4)


@dataclass(frozen=True)
class RealTimeMethod:
    """A method of the real-time loop, with the input times its evaluations want.

    Attributes
    ----------
    name : str
        Key in :data:`REAL_TIME_METHODS`.
    title : str
        Name for tables and legends.
    order : int
        Order with the exact input samples.
    input_offsets : tuple of Fraction
        c_i: evaluation i wants u(t_n + c_i h).
    frame : callable or None
        ``frame(f, t, x, h, u, k1=None) -> x_next`` for a Runge-Kutta-type method; None for
        Adams-Bashforth (the loop keeps its past slopes).
    predictor : tuple of float or None
        The AB weights beta_0 .. beta_{k-1} (None for Runge-Kutta types).
    start : str or None
        The method of the first k - 1 frames of AB_k, k >= 2 (``"rtrk3"``), else None.
    """

    name: str
    title: str
    order: int
    input_offsets: tuple
    frame: object = None
    predictor: tuple | None = None
    start: str | None = None

    @property
    def evaluations(self) -> int:
        """Evaluations of f per frame, s (the fixed cost)."""
        return len(self.input_offsets)

    @property
    def compute_offsets(self) -> tuple:
        """i / s: evaluation i starts at t_n + (i / s) h and may use samples up to that time."""
        return tuple(Fraction(i, self.evaluations) for i in range(self.evaluations))

    @property
    def real_time_compatible(self) -> bool:
        """True if every evaluation's input exists when it starts: c_i <= i / s."""
        return all(c <= d for c, d in zip(self.input_offsets, self.compute_offsets))

    @property
    def samples_needed(self) -> int:
        """Smallest samples per frame m that puts every wanted input time on a sample (start included)."""
        own = math.lcm(*(c.denominator for c in self.input_offsets))
        return own if self.start is None else math.lcm(own, REAL_TIME_METHODS[self.start].samples_needed)


_F = Fraction
#: The methods of the real-time loop: name -> :class:`RealTimeMethod`.
REAL_TIME_METHODS = {
    **{name: RealTimeMethod(name, f"AB{k}", k, (_F(0),), predictor=MULTISTEP_METHODS[name].predictor,
                            start="rtrk3" if k > 1 else None)
       for k, name in ((k, f"ab{k}") for k in range(1, 5))},
    "rtrk2": RealTimeMethod("rtrk2", "RTRK2", 2, (_F(0), _F(1, 2)), _rtrk2_frame),
    "rtrk3": RealTimeMethod("rtrk3", "RTRK3", 3, (_F(0), _F(1, 3), _F(2, 3)), _rtrk3_frame),
    "heun": RealTimeMethod("heun", "improved Euler", 2, (_F(0), _F(1)), _heun_frame),
    "rk4": RealTimeMethod("rk4", "RK4", 4, (_F(0), _F(1, 2), _F(1, 2), _F(1)), _rk4_frame),
}

#: The start of a real-time AB_k run: k - 1 frames of RTRK3 (order 3: enough for AB orders <= 4).
_STARTER = REAL_TIME_METHODS["rtrk3"]


@dataclass(frozen=True)
class InputUse:
    """Which input sample evaluation ``evaluation`` of a frame uses.

    Attributes
    ----------
    evaluation : int
        i, 0 .. s - 1.
    wanted : Fraction
        c_i: the method wants u(t_n + c_i h).
    computed_at : Fraction
        i / s: the evaluation starts at t_n + (i / s) h; samples up to then exist.
    samples : tuple of int
        The samples used, j in u(t_n + j h / m) (negative j: an earlier frame).
    weights : tuple of float
        Their weights (1 for one sample; linear extrapolation through two).
    how : str
        ``"sample"`` (the wanted sample), ``"held"`` (the last sample that exists) or
        ``"extrapolated"``.
    """

    evaluation: int
    wanted: Fraction
    computed_at: Fraction
    samples: tuple
    weights: tuple
    how: str


def input_schedule(method, samples_per_frame=None, missing_input="hold"):
    """Which input sample each evaluation of ``method`` uses in a frame, with m samples per frame.

    Evaluation i starts at t_n + (i/s) h; the samples t_n + j h/m with j/m <= i/s exist then. If
    the wanted time t_n + c_i h is one of them, it is used; otherwise ``missing_input`` says
    what happens: ``"hold"`` uses the last sample that exists, ``"extrapolate"`` the line
    through the last two (u_J + (c_i m - J)(u_J - u_{J-1})), ``"error"`` refuses.

    Parameters
    ----------
    method : str
        A name of :data:`REAL_TIME_METHODS`.
    samples_per_frame : int, optional
        m, 1 .. 1000; by default the method's ``samples_needed``.
    missing_input : {"error", "hold", "extrapolate"}

    Returns
    -------
    tuple of InputUse
        One per evaluation.

    Raises
    ------
    TypeError, ValueError
        For an unknown method or option, or (with ``missing_input="error"``) a method that
        wants a sample that does not exist yet; the message names the evaluation.

    Examples
    --------
    >>> from simlab.realtime import input_schedule
    >>> [use.how for use in input_schedule("rtrk2")]
    ['sample', 'sample']
    >>> [(str(use.wanted), use.how, use.samples) for use in input_schedule("rk4", samples_per_frame=2)]
    [('0', 'sample', (0,)), ('1/2', 'held', (0,)), ('1/2', 'sample', (1,)), ('1', 'held', (1,))]
    """
    scheme = REAL_TIME_METHODS[as_choice(method, "method", REAL_TIME_METHODS)]
    m = _samples_per_frame(samples_per_frame, scheme)
    missing_input = as_choice(missing_input, "missing_input", MISSING_INPUT)
    uses = []
    for i, (c, d) in enumerate(zip(scheme.input_offsets, scheme.compute_offsets)):
        latest = math.floor(d * m)  # the last sample that exists when evaluation i starts
        if (c * m).denominator == 1 and c <= d:
            uses.append(InputUse(i, c, d, (int(c * m),), (1.0,), "sample"))
        elif missing_input == "error":
            raise _missing(scheme, m, i, c, d)
        elif missing_input == "hold":
            uses.append(InputUse(i, c, d, (latest,), (1.0,), "held"))
        else:
            a = float(c * m - latest)  # u(t_n + c h) ~ u_J + a (u_J - u_{J-1})
            uses.append(InputUse(i, c, d, (latest - 1, latest), (-a, 1.0 + a), "extrapolated"))
    return tuple(uses)


def _at(offset):
    """t_n + c h written as in the lecture: t_n, t_n + h/2, t_n + 2h/3, t_n + h."""
    if offset == 0:
        return "t_n"
    numerator = "" if offset.numerator == 1 else str(offset.numerator)
    return f"t_n + {numerator}h" + ("" if offset.denominator == 1 else f"/{offset.denominator}")


def _missing(scheme, m, i, c, d):
    options = "missing_input='hold' (the last sample) or 'extrapolate' to measure the error this makes"
    if c > d:
        return ValueError(
            f"method {scheme.name!r} is not real-time compatible: its evaluation {i} starts at {_at(d)} and wants "
            f"u({_at(c)}), a sample that does not exist yet. Pass {options}.")
    return ValueError(
        f"with samples_per_frame = {m}, the evaluation {i} of method {scheme.name!r} (at {_at(d)}) wants u({_at(c)}), "
        f"which is not sampled (the samples are at t_n + j h/{m}). Use a samples_per_frame that is a "
        f"multiple of {scheme.samples_needed}, or pass {options}.")


def _samples_per_frame(value, scheme):
    if value is None:
        return scheme.samples_needed
    return as_count(value, "samples_per_frame", minimum=1, maximum=MAX_SAMPLES_PER_FRAME)


@dataclass(frozen=True, repr=False)
class RealTimeResult(Result):
    """Result of :func:`simulate_real_time`; unpacks as ``t, x``.

    Attributes
    ----------
    t : ndarray, shape (N + 1,)
        The frame times t_n = t0 + n h.
    x : ndarray, shape (N + 1,) + shape(x0)
        The state at the frame times.
    method : str
        The method's name.
    h : float
        The frame time (the step), s.
    nfev : int
        Evaluations of f, counted: s per frame (3 in each start frame of AB_k, k - 1 of them).
    evaluations_per_frame : int
        s, the fixed cost per frame once started.
    samples_per_frame : int
        m: the input was sampled at t_n + j h/m.
    missing_input : str
        The option of the run.
    input_uses : tuple of InputUse
        Which samples each evaluation of a frame used (see :func:`input_schedule`).
    n_substituted : int
        Evaluations that used a held or extrapolated input instead of the wanted sample
        (0: the run used only samples that existed, at the times the method wants them).
    sample_times, samples : ndarray
        The input samples the loop read: times, shape (L,), and values, shape (L,) + shape(u).
    """

    unpacks_as = ("t", "x")

    t: np.ndarray
    x: np.ndarray
    method: str
    h: float
    nfev: int
    evaluations_per_frame: int
    samples_per_frame: int
    missing_input: str
    input_uses: tuple
    n_substituted: int
    sample_times: np.ndarray
    samples: np.ndarray

    @property
    def final(self):
        """State at the end of the span, ``x[-1]``."""
        return self.x[-1]

    def __repr__(self):
        return (f"RealTimeResult(method={self.method!r}, h={self.h:g}, frames={len(self.t) - 1}, "
                f"evaluations_per_frame={self.evaluations_per_frame}, samples_per_frame={self.samples_per_frame}, "
                f"n_substituted={self.n_substituted}, nfev={self.nfev})")


class _Sampler:
    """The input device: u read at t0 + j h/m, once per j, checked, kept in order of j."""

    def __init__(self, u, t0, t1, frames, m):
        self.u, self.t0, self.t1, self.count = u, t0, t1, frames * m
        self.values = {}
        self.shape = None

    def time(self, j):
        return self.t1 if j == self.count else self.t0 + (self.t1 - self.t0) * (j / self.count)

    def __call__(self, j):
        if j not in self.values:
            t = self.time(j)
            value = self.u(t)
            try:
                array = np.asarray(value, dtype=float)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"u(t) must return the input as a number or array, got {describe(value)} "
                                f"at t = {t!r}.") from exc
            if self.shape is None:
                self.shape = array.shape
            if array.shape != self.shape or not np.all(np.isfinite(array)):
                raise ValueError(f"u(t) returned {describe(value)} at t = {t!r}; it must return finite numbers "
                                 f"of one shape {self.shape} at every sample.")
            self.values[j] = array if array.ndim else float(array)
        return self.values[j]

    def record(self):
        indices = sorted(self.values)
        return np.array([self.time(j) for j in indices]), np.array([self.values[j] for j in indices])


def _frame_inputs(sampler, n, m, uses):
    """The input value of each evaluation of frame n (a held value where a sample before t0 is missing)."""
    values = []
    for use in uses:
        if n * m + use.samples[0] < 0:  # extrapolation needs a sample before t0: hold instead
            values.append(sampler(n * m + use.samples[-1]))
        else:
            values.append(sum(w * sampler(n * m + j) for w, j in zip(use.weights, use.samples)))
    return values


def simulate_real_time(f, u, t_span, x0, h, method="rtrk2", samples_per_frame=None, missing_input="error"):
    """Run the model dx/dt = f(t, x, u) in a real-time frame loop whose input is sampled.

    Frame n reads the input samples u(t_n + j h/m) that exist when each of its s evaluations of
    f starts (see the module docstring and :func:`input_schedule`) and advances x_n to x_{n+1}
    by ``method``: ``"rtrk2"``, ``"rtrk3"``, ``"ab1"`` .. ``"ab4"`` (real-time compatible),
    or ``"heun"``, ``"rk4"`` (not: they need ``missing_input="hold"`` or ``"extrapolate"``).
    A real-time AB_k run starts with k - 1 frames of RTRK3.

    Parameters
    ----------
    f : callable ``f(t, x, u)``
        The model: dx/dt with the shape of x, from the model time t, the state x and the input u.
    u : callable ``u(t)``
        The outside world's input; the loop calls it only at the sample times t0 + j h/m.
    t_span : (float, float)
        Start and end times (t0, t1), t1 > t0.
    x0 : float or array_like
        Initial state.
    h : float
        Frame time (the step); must divide the span.
    method : str
        A name of :data:`REAL_TIME_METHODS`.
    samples_per_frame : int, optional
        m, input samples per frame (1 .. 1000); by default what the method needs (2 for RTRK2,
        3 for RTRK3 and for AB's start, 1 for AB1, 2 for RK4).
    missing_input : {"error", "hold", "extrapolate"}
        What an evaluation gets when the sample it wants does not exist yet.

    Returns
    -------
    RealTimeResult
        Unpacks as ``t, x``; also ``nfev``, ``evaluations_per_frame``, ``input_uses``,
        ``n_substituted`` and the samples read.

    Raises
    ------
    TypeError, ValueError
        For bad arguments (named): an ``f`` that cannot be called as ``f(t, x, u)`` or a ``u``
        that cannot be called as ``u(t)`` (signatures checked before the first call), an empty
        ``x0``, a ragged ``t_span``, an ``h`` below the smallest step that can advance t or of
        more than :data:`simlab.guards.MAX_STEPS` frames (:func:`simlab.integrators.time_grid`);
        an f or u that returns the wrong shape or NaN; or a method that is not real-time
        compatible with ``missing_input="error"``.
    simlab.guards.UnstableRunError, simlab.guards.NonFiniteStateError
        If the run grows unstably or the state becomes inf or NaN (the message names the step).

    Examples
    --------
    A first-order lag x' = -x + u driven by u = sin t; RTRK2 reads u at the frame and half frame:

    >>> import numpy as np
    >>> from simlab.realtime import simulate_real_time
    >>> run = simulate_real_time(lambda t, x, u: -x + u, np.sin, (0, 2), 0.0, 0.1)
    >>> exact = 0.5 * (np.sin(2) - np.cos(2) + np.exp(-2))
    >>> bool(abs(run.final - exact) < 1e-3), run.nfev, run.n_substituted
    (True, 40, 0)
    """
    as_callable(f, "f", call="f(t, x, u)")
    as_callable(u, "u", call="u(t)", returns="the input at time t")
    scheme = REAL_TIME_METHODS[as_choice(method, "method", REAL_TIME_METHODS)]
    t, h = time_grid(t_span, h)
    m = _samples_per_frame(samples_per_frame, scheme)
    uses = input_schedule(scheme.name, m, missing_input)
    start = min(len(scheme.predictor) - 1, len(t) - 1) if scheme.predictor else 0
    try:
        start_uses = input_schedule(_STARTER.name, m, missing_input) if start else ()
    except ValueError as error:
        raise ValueError(f"{scheme.name} needs {start} earlier slopes and starts with {start} frames of RTRK3; "
                         f"{error}") from None
    x0 = as_state(x0, allow_complex=False)
    sampler = _Sampler(u, float(t[0]), float(t[-1]), len(t) - 1, m)
    current = [sampler(0)]
    plant, calls, dx0 = _prepare_rhs(lambda tt, xx: f(tt, xx, current[0]), float(t[0]), x0, call="f(t, x, u)",
                                     check_signature=False)  # f itself was checked as f(t, x, u) above

    def model(tt, xx, uu):  # f(t, x, u), counted, through the checked wrapper
        current[0] = uu
        return plant(tt, xx)

    xs = _loop(model, sampler, t, h, x0, dx0, scheme, m, uses, start, start_uses, plant)
    times, values = sampler.record()
    substituted = sum(use.how != "sample" for use in start_uses) * start + \
        sum(use.how != "sample" for use in uses) * (len(t) - 1 - start)
    return RealTimeResult(t=t, x=xs, method=scheme.name, h=h, nfev=next(calls) - 1,
                          evaluations_per_frame=scheme.evaluations, samples_per_frame=m,
                          missing_input=missing_input, input_uses=uses, n_substituted=substituted,
                          sample_times=times, samples=values)


def _loop(model, sampler, t, h, x0, dx0, scheme, m, uses, start, start_uses, plant):
    """The frames: RTRK3 start frames for AB, then the method; checked for growth and inf/NaN."""
    n_frames = len(t) - 1
    xs = np.empty((n_frames + 1,) + x0.shape)
    xs[0] = x0
    times = t.tolist()
    monitor = _GrowthMonitor(plant, x0, dx0, h, t[-1] - t[0], scheme.name)
    slopes = []  # AB: f_n, f_{n-1}, ... (newest first)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for block in range(0, n_frames, _CHECK_EVERY):
            stop = min(block + _CHECK_EVERY, n_frames)
            for n in range(block, stop):
                x = xs[n]
                if scheme.frame is not None:  # Runge-Kutta type: s evaluations in the frame
                    xs[n + 1] = scheme.frame(model, times[n], x, h, _frame_inputs(sampler, n, m, uses))
                    continue
                frame_uses = start_uses if n < start else uses
                inputs = _frame_inputs(sampler, n, m, frame_uses)
                slopes = [model(times[n], x, inputs[0])] + slopes[: len(scheme.predictor) - 1]  # f(x_n, u_n)
                if n < start:  # the start: RTRK3, whose first evaluation is the slope f_n
                    xs[n + 1] = _STARTER.frame(model, times[n], x, h, inputs, k1=slopes[0])
                else:  # AB_k: x_{n+1} = x_n + h sum_j beta_j f_{n-j}
                    xs[n + 1] = x + h * sum(beta * slope for beta, slope in zip(scheme.predictor, slopes))
            _check_block(xs, block, stop, t, h, monitor, scheme.name)
    return xs
