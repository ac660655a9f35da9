"""Benchmark: the discrete similarity method (离散相似法) against RK4 and scipy, seed 003.

The system is the RK4 lab of seed 003: G(s) = 1 / (s^3 + 4 s^2 + 8 s + 5) in a unity negative
feedback loop, so the closed loop is 1 / (s^3 + 4 s^2 + 8 s + 6), driven by the step r = 5.

Why T = 1e-4 and 100,000 steps (t = 0 .. 10 s): the closed-loop poles are -1.36 and
-1.32 +- 1.63j, so the response settles (2 %) in about 3 s and 10 s shows transient and steady
state. At h = 1e-4, RK4's truncation error (~(h |lambda|)^4 per unit time, ~1e-15) is below
rounding, so RK4 is as accurate as it can be and the comparison is about speed. The same small
T puts the discrete poles at z = e^{lambda T} ~ 1 - 1.4e-4, where the transfer-function form of
the recurrence (c2d, then lfilter) is ill-conditioned; the last table shows the digits it loses.

The reference is the exact step response by partial fractions,
y(t) = r (1/6 + sum_i e^{p_i t} / (p_i prod_{j != i} (p_i - p_j))), in float64, itself checked
against the same formula in 40-digit arithmetic (mpmath).

Run ``python benchmarks/discrete_similarity.py`` (a few seconds). Timings are best-of-several
``time.perf_counter`` measurements on this machine; nothing is asserted about them.
"""

from __future__ import annotations

import time

import mpmath
import numpy as np
from scipy import signal

import simlab
from simlab.lti import feedback, tf2ss
from simlab.similarity import c2d, lsim, lsim_loop

R = 5.0  # step amplitude
T = 1e-4  # sample period = RK4 step
N = 100_000  # steps
OPEN_NUM, OPEN_DEN = [1.0], [1.0, 4.0, 8.0, 5.0]


def best_of(repeats, run):
    """Smallest wall time of ``repeats`` calls of ``run()`` and the last result."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def exact_step_response(den, r, t):
    """r * L^{-1}[1 / (s den(s))] at t, by partial fractions (float64), for distinct poles."""
    poles = np.roots(den)
    residues = [1 / (p * np.prod([p - q for q in poles if q != p])) for p in poles]
    y = 1 / np.polyval(den, 0) + sum(c * np.exp(p * t) for c, p in zip(residues, poles))
    return r * y.real / den[0]


def check_reference(den, r, t, y_exact, stride=97):
    """Largest difference between the float64 reference and a 40-digit evaluation."""
    mpmath.mp.dps = 40
    poles = mpmath.polyroots([mpmath.mpf(c) for c in den], maxsteps=200, extraprec=200)
    residues = [1 / (p * mpmath.fprod([p - q for q in poles if q != p])) for p in poles]
    worst = 0.0
    for k in range(0, len(t), stride):
        tk = mpmath.mpf(t[k])
        y = r * (1 / mpmath.polyval([mpmath.mpf(c) for c in den], 0)
                 + mpmath.fsum(c * mpmath.exp(p * tk) for c, p in zip(residues, poles)))
        worst = max(worst, abs(float(mpmath.re(y)) - y_exact[k]))
    return worst


def main():
    num, den = feedback(OPEN_NUM, OPEN_DEN, [1.0], [1.0])  # closed loop G / (1 + G)
    A, B, C, D = tf2ss(num, den)
    t = np.linspace(0.0, N * T, N + 1)
    u = np.full(N + 1, R)
    y_exact = exact_step_response(den, R, t)
    print(f"closed loop: {np.round(num, 6)} / {np.round(den, 6)}, "
          f"poles {np.round(np.roots(den), 4)}")
    print(f"step r = {R}, T = {T}, {N} steps, t = 0 .. {t[-1]:g} s, y(inf) = {R / den[-1]:.6f}")
    print(f"reference check: float64 partial fractions vs 40-digit mpmath, max |diff| = "
          f"{check_reference(den, R, t, y_exact):.1e}\n")

    b = B[:, 0] * R

    def rhs(t_now, x):
        return A @ x + b  # dx/dt = A x + B r

    def run_rk4():
        _, x = simlab.rk4(rhs, (0.0, N * T), np.zeros(len(A)), T)
        return x @ C[0]

    runs = [
        ("lsim, discrete similarity (schur)", 7, lambda: lsim(A, B, C, D, u, t).y),
        ("lsim, discrete similarity (modal)", 7, lambda: lsim(A, B, C, D, u, t, method="modal").y),
        ("scipy.signal.lsim (zoh)", 3, lambda: signal.lsim((A, B, C, D), u, t, interp=False)[1]),
        ("lsim_loop, textbook Python loop", 2, lambda: lsim_loop(A, B, C, D, u, t).y),
        ("simlab.rk4, h = T", 2, run_rk4),
        ("c2d + lfilter (transfer-function form)", 7,
         lambda: signal.lfilter(*c2d(num, den, T), u)),
    ]
    results = {}
    for name, repeats, run in runs:
        seconds, y = best_of(repeats, run)
        results[name] = (seconds, float(np.max(np.abs(y - y_exact))))
    base = results[runs[0][0]][0]
    print(f"{'method':<42} {'best time':>10} {'x lsim time':>12} {'max |y - exact|':>16}")
    for name, (seconds, error) in results.items():
        print(f"{name:<42} {seconds * 1e3:8.2f} ms {seconds / base:11.3g}x {error:16.2e}")

    print("\ntransfer-function form (c2d, then lfilter) against lsim, t = 0 .. 10 s:")
    print(f"{'T':>8} {'steps':>8} {'|1 - z_pole| min':>17} {'tf-form error':>14} "
          f"{'lsim error':>11} {'digits lost':>12}")
    for period in (1e-1, 1e-2, 1e-3, 1e-4):
        steps = round(10.0 / period)
        grid = np.linspace(0.0, 10.0, steps + 1)
        exact = exact_step_response(den, R, grid)
        numd, dend = c2d(num, den, period)
        tf_error = np.max(np.abs(signal.lfilter(numd, dend, np.full(steps + 1, R)) - exact))
        ss_error = np.max(np.abs(lsim(A, B, C, D, np.full(steps + 1, R), grid).y - exact))
        distance = np.min(np.abs(1 - np.roots(dend)))
        print(f"{period:8.0e} {steps:8d} {distance:17.2e} {tf_error:14.2e} {ss_error:11.2e} "
              f"{np.log10(tf_error / ss_error):12.1f}")
    print("\nWhy scipy.signal.lsim and the textbook loop stop at ~1e-13: Phi = e^{AT} ~ I + AT is "
          "stored to eps, an\nerror eps / (|lambda| T) ~ 1e-12 in 1 - e^{lambda T}. lsim refines "
          "each first-order recurrence in the\ndelta form z[k+1] - z[k] = delta z[k] + g[k] "
          "(as RK4 adds h * slope to x), so it stays at rounding level.")


if __name__ == "__main__":
    main()
