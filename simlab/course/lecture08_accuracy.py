"""Lecture 08: accuracy and credibility (仿真精度与可信度), the computations behind the notebook.

Course material for ``course/08_accuracy_and_credibility.ipynb``: each function computes one
table of the lecture and returns a typed result, and ``tests/test_lecture08_accuracy.py`` checks
each against an independent oracle (closed forms with sympy and mpmath, solve_ivp, known orders,
quasi-static balances of the cylinder). The error sources are the seed's (seed 003, 仿真精度与
可信度): the model error (模型误差), the method error (方法误差: truncation, 截断误差) and the
computer error (计算机误差: round-off, 舍入误差).

* :func:`seed_rk4_in_precision`, :func:`roundoff_study`: the seed's RK4 program on its closed
  loop in single and double precision; truncation against round-off (the U-shaped error).
* :func:`convergence_study`, :func:`oracle_comparison`: verification (校核) by the convergence
  order and by independent oracles.
* :func:`richardson_study`, :func:`equal_accuracy_steps`: Richardson extrapolation (理查森外推)
  with its order gain; the seed's claim that RK4 allows a ten times larger step than a
  second-order method at equal accuracy.
* :func:`validation_table`, :func:`accreditation`: validation (验证) of lab09's cylinder against
  the measurements that seed 002 reports, and accreditation (确认) for stated uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import simlab
from simlab.accuracy import observed_order, richardson, richardson_error
from simlab.course import lab09_pneumatic_friction as lab09
from simlab.course import systems
from simlab.stability import fit_order

__all__ = [
    "PrecisionRow",
    "RoundoffStudy",
    "ConvergenceRow",
    "OracleRow",
    "RichardsonRow",
    "EqualAccuracyRow",
    "ValidationRow",
    "AccreditationRow",
    "ROUNDOFF_STEPS",
    "CONVERGENCE_STEPS",
    "PROGRAMS",
    "seed_loop_modes",
    "seed_loop_exact",
    "seed_rk4_in_precision",
    "roundoff_study",
    "seed_loop_run",
    "rk4_typo",
    "convergence_study",
    "oracle_comparison",
    "richardson_study",
    "equal_accuracy_steps",
    "validation_table",
    "accreditation",
]

#: Step counts N of the round-off study over the seed's Tf = 5 s: h = 1 s down to 0.98 ms.
ROUNDOFF_STEPS = tuple(5 * 2**k for k in range(11))
#: Step counts N of the convergence and Richardson studies (h = 0.1 s to 12.5 ms; the finer
#: runs of the extrapolation and of the observed order use 2N and 4N).
CONVERGENCE_STEPS = (50, 100, 200, 400)
#: The programs of the verification study: name -> nominal order.
PROGRAMS = {"Euler": 1, "improved Euler": 2, "RK4": 4, "RK4 with a typo (K4 from K2)": 4}
_METHOD = {"Euler": "euler", "improved Euler": "heun", "RK4": "rk4"}


@lru_cache(maxsize=1)
def seed_loop_modes():
    """Poles p_i and residues c_i of the seed loop's step response, from sympy (30 digits).

    Y(s) = r / (s d(s)), d(s) = s^3 + 4 s^2 + 8 s + 6, so y(t) = r/6 + sum_i c_i e^{p_i t} with
    c_i = r / (p_i d'(p_i)): the poles are the roots of d (sympy ``nroots``), the residues follow
    from the derivative d'(s).

    Returns
    -------
    poles, residues : tuple of complex
    """
    import sympy as sp

    s = sp.Symbol("s")
    d = s**3 + 4 * s**2 + 8 * s + 6
    poles = sp.Poly(d, s).nroots(n=30)
    residues = [sp.N(systems.SEED_R / (p * sp.diff(d, s).subs(s, p)), 30) for p in poles]
    return tuple(complex(p) for p in poles), tuple(complex(c) for c in residues)


def seed_loop_exact(t):
    """Exact step response of the seed's closed loop, y(t) = r/6 + sum_i c_i e^{p_i t} (r = 5).

    The closed form of :func:`seed_loop_modes`, evaluated in double precision (an error of a few
    units of 1e-16). ``t``: array_like (s); returns an ndarray of its shape.
    """
    poles, residues = seed_loop_modes()
    t = np.asarray(t, dtype=float)
    return systems.SEED_R / 6 + sum(c * np.exp(p * t) for c, p in zip(residues, poles)).real


# ---------------------------------------------------------------------------------------------
# Truncation against round-off
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrecisionRow:
    """One step size of the round-off study.

    Attributes
    ----------
    n_steps : int
        Steps N over the span.
    h : float
        Step Tf / N (s).
    error_double, error_single : float
        Largest |y_k - y(t_k)| over the grid of the run in double (float64) and single (float32)
        precision, against the exact step response (dimensionless output).
    roundoff_single : float
        Largest |y_k(float32) - y_k(float64)|: the round-off part of the single-precision error
        (the truncation error is the same in both runs).
    """

    n_steps: int
    h: float
    error_double: float
    error_single: float
    roundoff_single: float


@dataclass(frozen=True)
class RoundoffStudy:
    """The seed's RK4 program in two word lengths (字长): the U-shaped error against h.

    Attributes
    ----------
    rows : tuple of PrecisionRow
        One per N of :data:`ROUNDOFF_STEPS`, coarsest first.
    seed : PrecisionRow
        The seed's step h = 0.02 s (N = 250).
    y_max : float
        Largest |y(t)| of the exact response on [0, Tf], the scale of one rounding.
    u_single, u_double : float
        Unit round-off 2^-24 and 2^-53 of float32 and float64 (half the machine epsilon).
    truncation_order : float
        Slope of log error_double against log h for 20 <= N <= 1280 (fit_order): the order p.
    roundoff_slope : float
        Slope of log roundoff_single against log h for N >= 160: negative, the round-off grows as
        h shrinks (about -1/2 for independent roundings, -1 if they add up).
    """

    rows: tuple
    seed: PrecisionRow
    y_max: float
    u_single: float
    u_double: float
    truncation_order: float
    roundoff_slope: float

    @property
    def best_single(self) -> PrecisionRow:
        """The row with the smallest single-precision error: the bottom of the U."""
        return min(self.rows, key=lambda row: row.error_single)

    @property
    def best_double(self) -> PrecisionRow:
        """The row with the smallest double-precision error."""
        return min(self.rows, key=lambda row: row.error_double)


def _times(A, x):
    """A x for the columns of x, shape (3, m), as three products and two sums in a fixed order.

    Element by element (no BLAS kernel, whose summation order and fused multiply-adds vary from
    machine to machine), so that every run rounds the same way everywhere.
    """
    return (A[:, 0:1] * x[0] + A[:, 1:2] * x[1]) + A[:, 2:3] * x[2]


def seed_rk4_in_precision(n_steps, dtype, r=systems.SEED_R, Tf=systems.SEED_TF):
    """The seed's RK4 program on its closed loop with every number stored in ``dtype``.

    The loop of the seed's listing (``K1 = A x + b r`` restored), with A, b r, h, h/2, h/6 and
    the state rounded to ``dtype`` (``numpy.float32`` or ``numpy.float64``), so that each
    operation rounds to that word length:

        K1 = A x + b r,  K2 = A (x + h/2 K1) + b r,  K3 = A (x + h/2 K2) + b r,
        K4 = A (x + h K3) + b r,  x <- x + h/6 (K1 + 2 (K2 + K3) + K4),  y = C x.

    The runs for all step counts go side by side in one loop, one column of x per step size
    h_j = Tf / N_j; column j is read for its own N_j steps (the others run on, and are not read).
    The products A x are written out element by element, so that the roundings are the same on
    every machine.

    Parameters
    ----------
    n_steps : sequence of int
        Step counts N_j >= 1.
    dtype : numpy floating type
        Word length of every number of the loop.

    Returns
    -------
    tuple of (t, y)
        Per N_j: the grid t_k = k Tf / N_j (s, float64) and the output y_k = x_3 (float64 copies
        of the ``dtype`` values), both of shape (N_j + 1,).
    """
    A, b, _ = systems.seed_rk4_system()
    dtype = np.dtype(dtype).type
    N = np.array(n_steps, dtype=int)
    A, br = A.astype(dtype), (b * r).astype(dtype)[:, None]
    h = (Tf / N).astype(dtype)  # one step per column
    half, sixth, two = h / dtype(2), h / dtype(6), dtype(2)
    x = np.zeros((3, len(N)), dtype=dtype)
    y = np.zeros((N.max() + 1, len(N)))
    for k in range(N.max()):
        K1 = _times(A, x) + br
        K2 = _times(A, x + half * K1) + br
        K3 = _times(A, x + half * K2) + br
        K4 = _times(A, x + h * K3) + br
        x = x + sixth * (K1 + two * (K2 + K3) + K4)
        y[k + 1] = x[2]
    return tuple((Tf / n * np.arange(n + 1), y[: n + 1, j]) for j, n in enumerate(N))


def _precision_rows(n_steps):
    double = seed_rk4_in_precision(n_steps, np.float64)
    single = seed_rk4_in_precision(n_steps, np.float32)
    rows = []
    for n, (t, y_double), (_, y_single) in zip(n_steps, double, single):
        exact = seed_loop_exact(t)
        rows.append(PrecisionRow(n_steps=int(n), h=systems.SEED_TF / n,
                                 error_double=float(np.max(np.abs(y_double - exact))),
                                 error_single=float(np.max(np.abs(y_single - exact))),
                                 roundoff_single=float(np.max(np.abs(y_single - y_double)))))
    return tuple(rows)


@lru_cache(maxsize=4)
def roundoff_study(n_steps=ROUNDOFF_STEPS):
    """Truncation against round-off on the seed's loop: errors in float64 and float32 against h.

    Returns
    -------
    RoundoffStudy
    """
    n_seed = round(systems.SEED_TF / systems.SEED_H)
    *rows, seed = _precision_rows(tuple(n_steps) + (n_seed,))
    hs = np.array([row.h for row in rows])
    N = np.array([row.n_steps for row in rows])
    left = (N >= 20) & (N <= 1280)
    right = N >= 160
    t_fine = np.linspace(0.0, systems.SEED_TF, 5001)
    return RoundoffStudy(
        rows=tuple(rows), seed=seed,
        y_max=float(np.max(np.abs(seed_loop_exact(t_fine)))),
        u_single=float(np.finfo(np.float32).eps) / 2, u_double=float(np.finfo(np.float64).eps) / 2,
        truncation_order=fit_order(hs[left], [row.error_double for row, keep in zip(rows, left) if keep]),
        roundoff_slope=fit_order(hs[right], [row.roundoff_single for row, keep in zip(rows, right) if keep]))


# ---------------------------------------------------------------------------------------------
# Verification: convergence order and independent oracles
# ---------------------------------------------------------------------------------------------


def _seed_rhs():
    A, b, _ = systems.seed_rk4_system()
    br = b * systems.SEED_R

    def f(t, x):
        # dx/dt = A x + b r
        return A @ x + br

    return f


def rk4_typo(f, t_span, x0, h):
    """RK4 with a typing slip: K4 = f(t + h, x + h K2) instead of x + h K3.

    Everything else is the RK4 of :func:`simlab.rk4_step`. The slip keeps the method convergent
    (it still solves the equation), but of order 3 on linear problems: its R(z) is
    1 + z + z^2/2 + z^3/6. Lecture 08 uses it to show what a verification by the order finds.

    Returns
    -------
    t : ndarray, shape (N + 1,)
    x : ndarray, shape (N + 1,) + shape(x0)
    """
    t, h = simlab.time_grid(t_span, h)
    x = np.asarray(x0, dtype=float)
    xs = np.empty((len(t),) + x.shape)
    xs[0] = x
    for k in range(len(t) - 1):
        K1 = f(t[k], x)
        K2 = f(t[k] + h / 2, x + h / 2 * K1)
        K3 = f(t[k] + h / 2, x + h / 2 * K2)
        K4 = f(t[k] + h, x + h * K2)  # the slip: K2 where RK4 has K3
        x = x + h / 6 * (K1 + 2 * K2 + 2 * K3 + K4)
        xs[k + 1] = x
    return t, xs


@lru_cache(maxsize=64)
def seed_loop_run(program, n_steps):
    """Step response y_k of the seed's closed loop (r = 5, Tf = 5 s) by ``program`` with N steps.

    ``program`` is a key of :data:`PROGRAMS`. Returns ``(t, y)``, shapes (N + 1,), cached.
    """
    f, C = _seed_rhs(), systems.seed_rk4_system()[2]
    h = systems.SEED_TF / n_steps
    if program in _METHOD:
        t, x = simlab.integrate(f, (0.0, systems.SEED_TF), np.zeros(3), h, _METHOD[program])
    else:
        t, x = rk4_typo(f, (0.0, systems.SEED_TF), np.zeros(3), h)
    return t, x @ C


def _max_error(program, n_steps):
    t, y = seed_loop_run(program, n_steps)
    return float(np.max(np.abs(y - seed_loop_exact(t))))


@dataclass(frozen=True)
class ConvergenceRow:
    """Verification of one program by its order, on the seed's loop.

    Attributes
    ----------
    program : str
        A key of :data:`PROGRAMS`.
    order : int
        The order the program is meant to have.
    errors : tuple of float
        Largest |y_k - y(t_k)| for each N of :data:`CONVERGENCE_STEPS` (against the exact response).
    measured : float
        fit_order of ``errors`` against h = Tf / N.
    observed : float
        observed_order of the runs with N = 100, 200, 400 at the N = 100 grid: no exact solution
        needed.
    """

    program: str
    order: int
    errors: tuple
    measured: float
    observed: float


def convergence_study(n_steps=CONVERGENCE_STEPS):
    """The measured and the observed order of each program of :data:`PROGRAMS`.

    Returns
    -------
    dict of str to ConvergenceRow
        Keyed by program name.
    """
    hs = systems.SEED_TF / np.array(n_steps, dtype=float)
    rows = {}
    for program, order in PROGRAMS.items():
        errors = tuple(_max_error(program, int(n)) for n in n_steps)
        runs = [seed_loop_run(program, n)[1] for n in (100, 200, 400)]
        rows[program] = ConvergenceRow(program=program, order=order, errors=errors, measured=fit_order(hs, errors),
                                       observed=observed_order(runs[0], runs[1][::2], runs[2][::4]))
    return rows


@dataclass(frozen=True)
class OracleRow:
    """One independent computation of the seed loop's step response against the closed form.

    Attributes
    ----------
    name : str
        What computed it.
    kind : str
        How it works, in a few words (why it is independent).
    max_difference : float
        Largest |y - y_closed_form| at t = 0, 0.1, ..., 5 s (:func:`seed_loop_exact`).
    """

    name: str
    kind: str
    max_difference: float


def oracle_comparison():
    """The seed loop's step response by four independent computations, against the sympy closed form.

    Returns
    -------
    tuple of OracleRow
    """
    from scipy.integrate import solve_ivp
    from scipy.linalg import expm

    A, b, C = systems.seed_rk4_system()
    t = np.linspace(0.0, systems.SEED_TF, 51)
    y_ref = seed_loop_exact(t)
    # y(t) = C A^-1 (e^{A t} - I) b r: the state of x' = A x + b r from x(0) = 0
    expm_y = [C @ np.linalg.solve(A, (expm(A * tk) - np.eye(3)) @ b) * systems.SEED_R for tk in t]
    ivp = solve_ivp(_seed_rhs(), (0.0, systems.SEED_TF), np.zeros(3), method="DOP853", t_eval=t, rtol=1e-12,
                    atol=1e-14)
    lsim_y = simlab.lsim(A, b.reshape(3, 1), C.reshape(1, 3), np.zeros((1, 1)), np.full(t.shape, systems.SEED_R), t).y
    _, y_seed = seed_loop_run("RK4", round(systems.SEED_TF / systems.SEED_H))
    rows = [
        ("scipy.linalg.expm", "e^{At} by a Pade approximant with scaling and squaring", expm_y),
        ("scipy solve_ivp (DOP853)", "variable-step Runge-Kutta of order 8, rtol 1e-12", ivp.y[2]),
        ("simlab.lsim", "discrete similarity, exact for a held input", lsim_y),
        ("simlab.rk4, h = 0.02 s", "the seed's method and step", y_seed[::5]),
    ]
    return tuple(OracleRow(name, kind, float(np.max(np.abs(np.ravel(y) - y_ref)))) for name, kind, y in rows)


# ---------------------------------------------------------------------------------------------
# Richardson extrapolation; equal accuracy
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RichardsonRow:
    """Richardson extrapolation of one method on the seed's loop.

    Attributes
    ----------
    method : str
        "Euler", "improved Euler" or "RK4".
    order : int
        Its order p.
    errors : tuple of float
        Largest error of the run with N steps, for each N of :data:`CONVERGENCE_STEPS`.
    errors_extrapolated : tuple of float
        Largest error of richardson(run N, run 2N at the N grid) for each N.
    measured, measured_extrapolated : float
        fit_order of the two error sequences against h = Tf / N.
    estimated_error, true_error : float
        For the finest pair (N = 400 and 800): the largest richardson_error estimate of the
        N = 800 run at the N = 400 grid, and its largest true error at the same points.
    """

    method: str
    order: int
    errors: tuple
    errors_extrapolated: tuple
    measured: float
    measured_extrapolated: float
    estimated_error: float
    true_error: float


def richardson_study(n_steps=CONVERGENCE_STEPS):
    """Richardson extrapolation of Euler, improved Euler and RK4: the order gain, measured.

    Returns
    -------
    dict of str to RichardsonRow
    """
    hs = systems.SEED_TF / np.array(n_steps, dtype=float)
    rows = {}
    for method in _METHOD:
        p = PROGRAMS[method]
        errors, extrapolated = [], []
        for n in n_steps:
            t, coarse = seed_loop_run(method, int(n))
            _, fine = seed_loop_run(method, 2 * int(n))
            exact = seed_loop_exact(t)
            errors.append(float(np.max(np.abs(coarse - exact))))
            extrapolated.append(float(np.max(np.abs(richardson(coarse, fine[::2], p) - exact))))
        estimate = richardson_error(coarse, fine[::2], p)
        rows[method] = RichardsonRow(method=method, order=p, errors=tuple(errors), errors_extrapolated=tuple(extrapolated),
                                     measured=fit_order(hs, errors), measured_extrapolated=fit_order(hs, extrapolated),
                                     estimated_error=float(np.max(np.abs(estimate))),
                                     true_error=float(np.max(np.abs(fine[::2] - exact))))
    return rows


@dataclass(frozen=True)
class EqualAccuracyRow:
    """The largest step that meets a tolerance, for improved Euler and RK4 (seed 003, 3.2.2).

    Attributes
    ----------
    tolerance : float
        Required largest |y_k - y(t_k)| over [0, Tf].
    n_heun, n_rk4 : int
        Fewest steps N (largest h = Tf / N) with which each method meets it.
    """

    tolerance: float
    n_heun: int
    n_rk4: int

    @property
    def step_ratio(self) -> float:
        """h_RK4 / h_improved Euler."""
        return self.n_heun / self.n_rk4

    @property
    def cost_ratio(self) -> float:
        """Evaluations of f, improved Euler / RK4 (2 and 4 per step)."""
        return 2 * self.n_heun / (4 * self.n_rk4)


def _fewest_steps(program, tolerance, n_low=5):
    """Fewest N >= n_low + 1 with error <= tolerance, by bisection (the error falls with N here)."""
    n_high = 2 * n_low
    while _max_error(program, n_high) > tolerance:
        n_low, n_high = n_high, 2 * n_high
    while n_high - n_low > 1:  # error(n_low) > tolerance >= error(n_high)
        middle = (n_low + n_high) // 2
        n_low, n_high = (n_low, middle) if _max_error(program, middle) <= tolerance else (middle, n_high)
    return n_high


def equal_accuracy_steps(tolerances=(1e-3, 1e-4, 1e-5)):
    """For each tolerance, the fewest steps of improved Euler and of RK4 on the seed's loop.

    Returns
    -------
    tuple of EqualAccuracyRow
    """
    return tuple(EqualAccuracyRow(tolerance=tol, n_heun=_fewest_steps("improved Euler", tol),
                                  n_rk4=_fewest_steps("RK4", tol)) for tol in tolerances)


# ---------------------------------------------------------------------------------------------
# Validation and accreditation: lab09 against the measurements of seed 002
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValidationRow:
    """One measured quantity of seed 002 against lab09's simulations.

    Attributes
    ----------
    key : str
        Short name (``"first_stick"``, ...).
    quantity : str
        What is compared, with its unit.
    source : str
        Where seed 002 reports the measurement (figure).
    measured : float
        The measured value (lab09.TEXT; experiments at M = 1.3 kg).
    simulated : dict of str to float
        lab09's value per friction model ("LG", "RLG"), simulated at M = 0.5 kg as in the paper.
    role : str
        "calibration" if lab09 chose a parameter so that its estimate reproduces this
        measurement, else "prediction".
    used_for : str
        Which estimate of lab09 reproduces it (for a calibration row), or how else it enters.
    scale : float
        Factor from SI units to the unit of ``quantity`` (1e3 for mm, 1e-6 for MPa), for printing.
    """

    key: str
    quantity: str
    source: str
    measured: float
    simulated: dict
    role: str
    used_for: str
    scale: float = 1.0

    def relative_error(self, model):
        """(simulated - measured) / measured for ``model``."""
        return (self.simulated[model] - self.measured) / self.measured


def _slip_length(result, phase):
    i, j = np.searchsorted(result.t, phase.t_start), np.searchsorted(result.t, phase.t_end)
    return float(result.x[j] - result.x[i])


@lru_cache(maxsize=1)
def _lab09_studies():
    return lab09.constant_input_study(), lab09.smooth_motion_study()


def validation_table():
    """Six measurements of seed 002 (figs. 7 and 8) against lab09's LG and RLG runs.

    Returns
    -------
    tuple of ValidationRow
    """
    low, high = _lab09_studies()
    T, models = lab09.TEXT, ("LG", "RLG")
    first = {m: low.runs[m].phases[0] for m in models}
    second = {m: low.runs[m].phases[1] for m in models}
    v_high = (T.x_high - T.x0_high) / (T.t_high - T.t_start_high)
    rows = [
        ("first_stick", "first stick (s)", "fig. 7a", T.t_stick_1, {m: first[m].t_start for m in models},
         "calibration", "the low mass flow, and with it KV1 and um (valve_estimates, step 2)", 1.0),
        ("first_slip", "first slip (mm)", "fig. 7a", T.first_slip,
         {m: _slip_length(low.runs[m].result, first[m]) for m in models}, "calibration",
         "the air spring k_air, and with it the dead volume V10 (valve_estimates, step 1)", 1e3),
        ("second_stick", "second stick (s)", "fig. 7a", T.t_stick_2,
         {m: second[m].t_start - first[m].t_end for m in models}, "prediction",
         "no parameter reproduces it (RLG's tau_h0 assumes this stick, but is fitted to the 8.4 N)", 1.0),
        ("start_high", "start of motion, higher inputs (s)", "fig. 8a", T.t_start_high,
         {m: high.runs[m].t_start for m in models}, "prediction",
         "no parameter reproduces it (it enters only the speed below, as the start of the stroke)", 1.0),
        ("speed_high", "speed of the smooth motion (m/s)", "fig. 8a", v_high,
         {m: high.runs[m].mean_speed for m in models}, "calibration",
         "the high mass flow (KV1, um; valve_estimates, step 3) and sigma2", 1.0),
        ("p1_high", "p1 while moving (MPa, gauge)", "fig. 8b", T.p1_max_high,
         {m: high.runs[m].p1_max_moving for m in models}, "calibration",
         "sigma2 = (p1 A1 - Fc) / v (friction_estimates) and the high mass flow", 1e-6),
    ]
    return tuple(ValidationRow(*row) for row in rows)


@dataclass(frozen=True)
class AccreditationRow:
    """A stated use of lab09's model, its acceptance criterion and the verdict from the evidence.

    Attributes
    ----------
    use : str
        The intended use (what the model is to be trusted for).
    criterion : str
        The acceptance criterion, set before looking at the evidence.
    evidence : str
        The numbers the verdict rests on.
    accepted : bool
        Whether every friction model named meets the criterion.
    """

    use: str
    criterion: str
    evidence: str
    accepted: bool


def accreditation(table=None, tolerances=(("first_stick", 0.10), ("second_stick", 0.20), ("start_high", 0.20))):
    """Verdicts for four uses of lab09's model: the qualitative finding, and three timings.

    Parameters
    ----------
    table : tuple of ValidationRow, optional
        Default :func:`validation_table`.
    tolerances : sequence of (key, float)
        For each timing use, the row key and the largest accepted |relative error|.

    Returns
    -------
    tuple of AccreditationRow
    """
    rows = {row.key: row for row in (validation_table() if table is None else table)}
    low, _ = _lab09_studies()
    cycles = {m: low.runs[m].cycles for m in lab09.MODELS}
    verdicts = [AccreditationRow(
        use="teaching: dynamic friction models stick-slip, the static one creeps (the paper's finding)",
        criterion="LG and RLG >= 3 stick-slip cycles at the low inputs, SS none",
        evidence=", ".join(f"{m} {n}" for m, n in cycles.items()) + " cycles",
        accepted=cycles["LG"] >= 3 and cycles["RLG"] >= 3 and cycles["SS"] == 0)]
    for key, tolerance in tolerances:
        row = rows[key]
        errors = {m: row.relative_error(m) for m in row.simulated}
        verdicts.append(AccreditationRow(
            use=f"predict the {row.quantity.split(' (')[0]}",
            criterion=f"within {100 * tolerance:.0f} % of {row.source} ({row.role} data)",
            evidence=", ".join(f"{m} {100 * e:+.0f} %" for m, e in errors.items()),
            accepted=all(abs(e) <= tolerance for e in errors.values())))
    return tuple(verdicts)
