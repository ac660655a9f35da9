"""Lab 02: step size versus accuracy, cost and stability (seed 003, 实验一 and the RK4 lab).

Experiments:

1. Convergence: global error at the end of the span versus h for Euler, improved Euler and RK4
   on a nonlinear problem with a closed form, y' = -2 t y^2, y(0) = 1, y = 1/(1 + t^2); the
   measured orders come from a least-squares fit of log(error) against log(h).
2. Stability on the test equation y' = lambda y: the stability function R(z), z = h lambda, of
   each method, its stability region |R(z)| <= 1 and the real stability limit.
3. A stiff system (病态系统): G(s) = 1000 / ((s + 1)(s + 1000)); explicit methods need
   h < 2.785e-3 although the slow mode would allow h = 0.1; implicit Euler and the exact
   (matrix-exponential) update do not.
4. The seed's RK4 lab: G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) in unity negative feedback, r = 5,
   Tf = 5, h = 0.02, simulated from its state-space form built by hand.
"""

from __future__ import annotations

import numpy as np

from simlab.check import CheckResult, check_array, check_value
from simlab.experiments import ExperimentResult
from simlab.integrators import METHODS, NonFiniteStateError, integrate, rk4

__all__ = [
    "nonlinear_rhs",
    "nonlinear_exact",
    "convergence_study",
    "fit_order",
    "stability_polynomial",
    "stability_function",
    "real_stability_limit",
    "max_stable_step",
    "stability_grid",
    "test_equation_runs",
    "stiff_system",
    "stiff_exact",
    "backward_euler_linear",
    "exact_linear_step",
    "stiff_comparison",
    "seed_rk4_system",
    "seed_rk4_program",
    "seed_rk4_exact",
    "seed_rk4_lab",
    "check_order",
    "check_stability_limit",
    "check_seed_state_space",
    "check_seed_rk4",
    "run",
]

# ---------------------------------------------------------------------------------------------
# 1. Convergence on a nonlinear problem
# ---------------------------------------------------------------------------------------------

NONLINEAR_SPAN = (0.0, 2.0)


def nonlinear_rhs(t, y):
    """dy/dt = -2 t y^2 (nonlinear; exact solution 1 / (1 + t^2) for y(0) = 1)."""
    return -2.0 * t * y * y


def nonlinear_exact(t):
    """Exact solution y(t) = 1 / (1 + t^2) of y' = -2 t y^2, y(0) = 1."""
    t = np.asarray(t, dtype=float)
    return 1.0 / (1.0 + t * t)


def fit_order(hs, errors):
    """Measured order p: slope of the least-squares line log|error| = p log h + c.

    Parameters
    ----------
    hs, errors : array_like, shape (m,)
        Step sizes and the corresponding global errors (m >= 2, errors non-zero).

    Returns
    -------
    float
        The fitted slope p.
    """
    hs = np.asarray(hs, dtype=float)
    errors = np.abs(np.asarray(errors, dtype=float))
    if hs.shape != errors.shape or hs.ndim != 1 or hs.size < 2:
        raise ValueError(
            f"hs and errors must be 1-D of the same length >= 2, got shapes {hs.shape} and "
            f"{errors.shape}."
        )
    if np.any(hs <= 0) or np.any(errors == 0) or not np.all(np.isfinite(errors)):
        raise ValueError("hs must be positive and errors finite and non-zero to fit a log-log line.")
    slope, _ = np.polyfit(np.log(hs), np.log(errors), 1)
    return float(slope)


def convergence_study(hs=None, methods=("euler", "heun", "rk4")):
    """Global error at t = 2 versus h on y' = -2 t y^2, and the measured orders.

    Returns
    -------
    dict
        ``hs`` (array), ``errors`` (method -> array of |y_N - y(2)|), ``orders`` (method -> p),
        ``evaluations`` (method -> number of f evaluations per run, array), the cost measure.
    """
    if hs is None:
        hs = 0.2 / 2.0 ** np.arange(6)
    hs = np.asarray(hs, dtype=float)
    evaluations_per_step = {"euler": 1, "heun": 2, "rk4": 4}
    errors, evaluations = {}, {}
    y_end = float(nonlinear_exact(NONLINEAR_SPAN[1]))
    span = NONLINEAR_SPAN[1] - NONLINEAR_SPAN[0]
    for method in methods:
        errors[method] = np.array(
            [abs(integrate(nonlinear_rhs, NONLINEAR_SPAN, 1.0, h, method).final - y_end) for h in hs]
        )
        evaluations[method] = evaluations_per_step[method] * np.round(span / hs).astype(int)
    orders = {method: fit_order(hs, errors[method]) for method in methods}
    return {"hs": hs, "errors": errors, "orders": orders, "evaluations": evaluations}


# ---------------------------------------------------------------------------------------------
# 2. Stability on the test equation y' = lambda y
# ---------------------------------------------------------------------------------------------


def stability_polynomial(method):
    """Coefficients (ascending powers of z) of the stability function R(z) of ``method``.

    One step of an explicit Runge-Kutta method on y' = lambda y gives y_{k+1} = R(h lambda) y_k:
    Euler R = 1 + z; improved Euler R = 1 + z + z^2/2; RK4 R = 1 + z + z^2/2 + z^3/6 + z^4/24
    (the Taylor polynomial of e^z up to the order of the method).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}.")
    order = METHODS[method]
    factorials = np.cumprod([1.0] + list(range(1, order + 1)))
    return 1.0 / factorials


def stability_function(method, z):
    """R(z) of ``method`` evaluated at complex ``z = h lambda`` (array_like)."""
    coefficients = stability_polynomial(method)
    return np.polynomial.polynomial.polyval(np.asarray(z, dtype=complex), coefficients)


def real_stability_limit(method):
    """Left end z_min < 0 of the real stability interval [z_min, 0] where |R(z)| <= 1.

    Found from the real negative roots of R(z) = 1 and R(z) = -1 (the interval ends where |R|
    reaches 1): Euler and improved Euler give -2, RK4 about -2.785.
    """
    coefficients = stability_polynomial(method)
    candidates = []
    for target in (1.0, -1.0):
        shifted = coefficients.copy()
        shifted[0] -= target
        roots = np.polynomial.polynomial.polyroots(shifted)
        candidates += [r.real for r in roots if abs(r.imag) < 1e-9 and r.real < -1e-12]
    return float(max(candidates))


def max_stable_step(eigenvalues, method, h_max=1e3):
    """Largest h for which |R(h lambda_i)| <= 1 for every eigenvalue lambda_i (bisection).

    Parameters
    ----------
    eigenvalues : array_like of complex
        Eigenvalues of the (linearised) system; all must have negative real part.
    method : {"euler", "heun", "rk4"}

    Returns
    -------
    float
        The stability limit of the step size (the first h where some |R(h lambda)| exceeds 1,
        scanning from h = 0).
    """
    lambdas = np.atleast_1d(np.asarray(eigenvalues, dtype=complex))
    if np.any(lambdas.real >= 0):
        raise ValueError(
            f"eigenvalues must all have negative real part for a stability limit, got {lambdas}."
        )

    def stable(h):
        return bool(np.all(np.abs(stability_function(method, h * lambdas)) <= 1.0 + 1e-12))

    # March out from h = 0 to bracket the first instability, then bisect.
    h_low, h_high = 0.0, 1e-6 / np.max(np.abs(lambdas))
    while stable(h_high):
        h_low, h_high = h_high, h_high * 1.05
        if h_high > h_max:
            return float("inf")
    for _ in range(80):
        middle = 0.5 * (h_low + h_high)
        h_low, h_high = (middle, h_high) if stable(middle) else (h_low, middle)
    return float(h_low)


def stability_grid(method, re=(-4.0, 1.0), im=(-3.5, 3.5), n=301):
    """|R(z)| on a grid of the complex plane, for plotting the stability region.

    Returns
    -------
    x, y, magnitude : ndarray, shape (n, n)
        Real parts, imaginary parts and |R(x + i y)|.
    """
    x, y = np.meshgrid(np.linspace(*re, n), np.linspace(*im, n))
    return x, y, np.abs(stability_function(method, x + 1j * y))


def test_equation_runs(lam=-10.0, steps=40):
    """Euler and RK4 on y' = lambda y just below and just above their stability limits.

    Returns
    -------
    list of dict
        One entry per run: method, h, h/h_limit, t, y and |y_N|.
    """
    runs = []
    for method in ("euler", "rk4"):
        h_limit = real_stability_limit(method) / lam
        for factor in (0.9, 1.1):
            h = factor * h_limit
            t, y = integrate(lambda t, y: lam * y, (0.0, steps * h), 1.0, h, method)
            runs.append({"method": method, "h": h, "ratio": factor, "t": t, "y": y,
                         "final": abs(float(y[-1]))})
    return runs


# ---------------------------------------------------------------------------------------------
# 3. A stiff system
# ---------------------------------------------------------------------------------------------


def stiff_system():
    """State space of G(s) = 1000 / ((s + 1)(s + 1000)), time constants 1 s and 1 ms.

    Returns
    -------
    A : ndarray, shape (2, 2)
    B : ndarray, shape (2,)
    C : ndarray, shape (2,)
        Controllable canonical form of y'' + 1001 y' + 1000 y = 1000 u, with x = [y', y] so
        that y = x[1].
    """
    A = np.array([[-1001.0, -1000.0], [1.0, 0.0]])
    B = np.array([1000.0, 0.0])
    C = np.array([0.0, 1.0])
    return A, B, C


def stiff_exact(t):
    """Exact unit-step response y(t) = 1 - (1000/999) e^{-t} + (1/999) e^{-1000 t}."""
    t = np.asarray(t, dtype=float)
    return 1.0 - 1000.0 / 999.0 * np.exp(-t) + 1.0 / 999.0 * np.exp(-1000.0 * t)


def backward_euler_linear(A, B, u, t_span, x0, h):
    """Implicit (backward) Euler for x' = A x + B u with constant input u.

    .. math:: x_{k+1} = x_k + h (A x_{k+1} + B u) \\;\\Rightarrow\\;
              x_{k+1} = (I - h A)^{-1} (x_k + h B u)

    Its stability function 1 / (1 - z) has modulus below 1 in the whole left half-plane
    (A-stable), so h is limited by accuracy only.
    """
    from simlab.integrators import time_grid

    t, h = time_grid(t_span, h)
    A = np.asarray(A, dtype=float)
    M = np.linalg.inv(np.eye(len(A)) - h * A)  # one inversion, reused every step
    drive = M @ (h * np.asarray(B, dtype=float) * u)
    xs = np.empty((len(t), len(A)))
    xs[0] = x0
    for k in range(len(t) - 1):
        xs[k + 1] = M @ xs[k] + drive
    return t, xs


def exact_linear_step(A, B, u, t_span, x0, h):
    """Exact update for x' = A x + B u, u constant: x_{k+1} = e^{Ah} x_k + m(h) u.

    Phi = e^{Ah} and m(h) come from :func:`simlab.similarity.discretize` (one matrix exponential);
    this is the discrete similarity method of lab04, previewed.
    """
    from simlab.integrators import time_grid
    from simlab.similarity import discretize

    t, h = time_grid(t_span, h)
    Phi, Gamma = discretize(A, np.asarray(B, dtype=float).reshape(-1, 1), h)
    drive = Gamma[:, 0] * u
    xs = np.empty((len(t), len(Phi)))
    xs[0] = x0
    for k in range(len(t) - 1):
        xs[k + 1] = Phi @ xs[k] + drive  # x_{k+1} = Phi x_k + m(h) u
    return t, xs


def stiff_comparison(t_end=5.0):
    """RK4 below and above its limit, implicit Euler and the exact update on the stiff system.

    Returns
    -------
    dict
        ``h_limit_rk4``; ``runs``: list of dicts with method, h, steps, t, y (None if the run
        diverged), max_error (inf if it diverged) and a note.
    """
    A, B, C = stiff_system()
    x0 = np.zeros(2)
    h_limit = max_stable_step(np.linalg.eigvals(A), "rk4")
    runs = []

    def add(method, h, solver):
        steps = round(t_end / h)
        try:
            t, xs = solver(h)
        except NonFiniteStateError as error:
            runs.append({"method": method, "h": h, "steps": steps, "t": None, "y": None,
                         "max_error": float("inf"), "note": str(error).split(" with h")[0]})
            return
        y = xs @ C
        error = float(np.max(np.abs(y - stiff_exact(t))))
        runs.append({"method": method, "h": h, "steps": steps, "t": t, "y": y,
                     "max_error": error, "note": ""})

    def rk4_solver(h):
        return rk4(lambda t, x: A @ x + B, (0.0, t_end), x0, h)

    add("rk4", 0.0025, rk4_solver)
    add("rk4", 0.003125, rk4_solver)
    add("backward euler", 0.1, lambda h: backward_euler_linear(A, B, 1.0, (0.0, t_end), x0, h))
    add("exact (expm)", 0.1, lambda h: exact_linear_step(A, B, 1.0, (0.0, t_end), x0, h))
    return {"h_limit_rk4": h_limit, "runs": runs}


# ---------------------------------------------------------------------------------------------
# 4. The seed's RK4 lab
# ---------------------------------------------------------------------------------------------

#: Step amplitude, final time and step of the seed's RK4 lab.
SEED_R, SEED_TF, SEED_H = 5.0, 5.0, 0.02


def seed_rk4_system():
    """Closed loop of G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) with unity negative feedback, by hand.

    The closed loop is G / (1 + G) = 1 / (s^3 + 4 s^2 + 8 s + 6); in controllable canonical form
    (the realization of MATLAB's ``tf2ss``) the first row of A holds -a1, -a2, -a3.

    Returns
    -------
    A : ndarray, shape (3, 3)
    b : ndarray, shape (3,)
    C : ndarray, shape (3,)
    """
    A = np.array([[-4.0, -8.0, -6.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    b = np.array([1.0, 0.0, 0.0])
    C = np.array([0.0, 0.0, 1.0])
    return A, b, C


def seed_rk4_program(A, b, C, r=SEED_R, Tf=SEED_TF, h=SEED_H):
    """The seed's RK4 listing replayed line by line, with its missing ``K1=A*x+b*r`` restored.

    Returns
    -------
    t, y : ndarray, shape (N + 1,)
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    C = np.asarray(C, dtype=float)
    n_steps = round(Tf / h)
    x = np.zeros(len(A))
    y, t = [0.0], [0.0]
    for i in range(n_steps):
        K1 = A @ x + b * r  # the line the seed's listing drops
        K2 = A @ (x + h * K1 / 2) + b * r
        K3 = A @ (x + h * K2 / 2) + b * r
        K4 = A @ (x + h * K3) + b * r
        x = x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6
        y.append(float(C @ x))
        t.append(t[i] + h)
    return np.array(t), np.array(y)


def seed_rk4_exact(t, r=SEED_R):
    """Exact step response r * y_step(t) of 1/(s^3 + 4 s^2 + 8 s + 6), by ``scipy.signal.step``."""
    from scipy import signal

    t = np.asarray(t, dtype=float)
    _, y = signal.step(signal.lti([1.0], [1.0, 4.0, 8.0, 6.0]), T=t)
    return r * y


def seed_rk4_lab():
    """Everything the seed's RK4 lab asks, computed.

    Returns
    -------
    dict
        t, y (RK4, h = 0.02), exact, max_error, y_final, steady_state (r G_cl(0) = 5/6),
        settling_time (2 % band), gap_at_end (percent below the final value at Tf),
        max_overshoot (percent), poles, h_limit (RK4 and Euler), and a step-size table
        ``steps``: list of (h, Euler max error, RK4 max error).
    """
    A, b, C = seed_rk4_system()
    t, y = seed_rk4_program(A, b, C)
    exact = seed_rk4_exact(t)
    poles = np.linalg.eigvals(A)
    steady = SEED_R * 1.0 / 6.0  # final-value theorem: r * G_cl(0) = 5 * 1/6
    outside = np.flatnonzero(np.abs(y - steady) > 0.02 * steady)
    settling = float(t[outside[-1] + 1]) if outside.size and outside[-1] + 1 < len(t) else float("nan")
    table = []
    for h in (0.02, 0.05, 0.1, 0.25, 0.5):
        errors = []
        for method in ("euler", "rk4"):
            try:
                tt, xs = integrate(lambda t, x: A @ x + b * SEED_R, (0.0, SEED_TF), np.zeros(3), h, method)
                errors.append(float(np.max(np.abs(xs @ C - seed_rk4_exact(tt)))))
            except NonFiniteStateError:
                errors.append(float("inf"))
        table.append((h, errors[0], errors[1]))
    return {
        "t": t,
        "y": y,
        "exact": exact,
        "max_error": float(np.max(np.abs(y - exact))),
        "y_final": float(y[-1]),
        "steady_state": steady,
        "settling_time": settling,
        "gap_at_end": float(100.0 * (steady - y[-1]) / steady),
        "max_overshoot": float(100.0 * max(np.max(y) - steady, 0.0) / steady),
        "poles": poles,
        "h_limit": {method: max_stable_step(poles, method) for method in ("euler", "rk4")},
        "steps": table,
    }


# ---------------------------------------------------------------------------------------------
# Self-checks
# ---------------------------------------------------------------------------------------------


def check_order(method, value):
    """Self-check of a measured convergence order (within 0.15 of the theoretical one)."""
    if method not in METHODS:
        return CheckResult(False, "order", f"unknown method {method!r}; use one of {sorted(METHODS)}.")
    expected = METHODS[method]
    return check_value(
        f"order of {method}",
        value,
        expected,
        rtol=0,
        atol=0.15,
        alternatives=[(expected + 1, f"that is the order of the local error (h^{expected + 1}); "
                       "the global error loses one power of h over the N = (t1 - t0)/h steps.")],
    )


def check_stability_limit(method, value):
    """Self-check of the real stability limit z_min (a negative number) of ``method``."""
    return check_value(
        f"real stability limit of {method}",
        value,
        real_stability_limit(method),
        rtol=1e-3,
        alternatives=[(-real_stability_limit(method), "the limit is on the negative real axis: "
                       "z = h lambda with lambda < 0.")],
    )


def check_seed_state_space(A, b, C):
    """Self-check of a hand-built state-space form of the seed's closed loop.

    Any realization is accepted: the check compares the transfer function C (sI - A)^{-1} b with
    1/(s^3 + 4 s^2 + 8 s + 6) at several frequencies.
    """
    try:
        A = np.asarray(A, dtype=float)
        b = np.asarray(b, dtype=float).reshape(-1)
        C = np.asarray(C, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return CheckResult(False, "state space", "A, b and C must be numeric arrays.")
    if A.shape != (3, 3) or b.shape != (3,) or C.shape != (3,):
        return CheckResult(False, "state space", f"expected A 3x3, b and C of length 3, got "
                           f"{A.shape}, {b.shape}, {C.shape}.")
    s = np.array([0.0, 0.5j, 1.0 + 1j, 3.0j, -0.5])
    wanted = 1.0 / (s**3 + 4 * s**2 + 8 * s + 6)
    got = np.array([C @ np.linalg.solve(si * np.eye(3) - A, b) for si in s])
    if np.allclose(got, wanted, rtol=1e-9, atol=1e-12):
        return CheckResult(True, "state space", "C (sI - A)^-1 b equals 1/(s^3 + 4s^2 + 8s + 6).")
    open_loop = 1.0 / (s**3 + 4 * s**2 + 8 * s + 5)
    if np.allclose(got, open_loop, rtol=1e-9, atol=1e-12):
        return CheckResult(False, "state space", "this is the open loop G(s); close the loop "
                           "first: G/(1 + G) = 1/(s^3 + 4s^2 + 8s + 6).")
    return CheckResult(False, "state space", f"at s = 0 your model gives {got[0].real:.4g}, the "
                       f"closed loop gives {wanted[0].real:.4g}; check the signs of the first row of A.")


def check_seed_rk4(y):
    """Self-check of the response y_0 .. y_N of the seed's RK4 lab (r = 5, Tf = 5, h = 0.02)."""
    A, b, C = seed_rk4_system()
    _, reference = seed_rk4_program(A, b, C)
    return check_array("seed RK4 response", y, reference, rtol=1e-8, atol=1e-10, what="y_k")


def run():
    """Run lab 02 headless."""
    study = convergence_study()
    stiff = stiff_comparison()
    seed = seed_rk4_lab()
    summary = []
    for method in ("euler", "heun", "rk4"):
        summary.append((f"measured order of {method}", f"{study['orders'][method]:.3f}"))
    for method in ("euler", "rk4"):
        summary.append((f"real stability limit of {method} (h*lambda)", f"{real_stability_limit(method):.4f}"))
    summary.append(("stiff: RK4 step limit", f"{stiff['h_limit_rk4']:.6f}"))
    for entry in stiff["runs"]:
        value = "diverged" if entry["y"] is None else f"{entry['max_error']:.2e}"
        summary.append((f"stiff: {entry['method']} h={entry['h']:g} max error", value))
    summary.append(("seed RK4 lab: y(5)", f"{seed['y_final']:.6f}"))
    summary.append(("seed RK4 lab: max error vs exact", f"{seed['max_error']:.2e}"))
    summary.append(("seed RK4 lab: 2% settling time", f"{seed['settling_time']:.2f}"))
    summary.append(("seed RK4 lab: RK4 step limit", f"{seed['h_limit']['rk4']:.4f}"))
    data = {"convergence": study, "stiff": stiff, "seed": seed,
            "stability": {m: stability_grid(m) for m in ("euler", "heun", "rk4")},
            "test_runs": test_equation_runs()}
    return ExperimentResult(
        summary=summary,
        figures=[
            ("lab02_convergence", "plot_convergence", study),
            ("lab02_stability_regions", "plot_stability_regions", data["stability"]),
            ("lab02_stiff", "plot_stiff", stiff),
            ("lab02_seed_rk4", "plot_seed_rk4", seed),
        ],
        data=data,
    )
