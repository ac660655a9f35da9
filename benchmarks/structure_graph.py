"""Benchmark: a linear structure graph (结构图) at 10,000 steps, discrete similarity against
python-control's forced_response and simlab's RK4.

Target (issue 15, target 4): ``simlab.structure.simulate(..., method="similarity")`` no slower than
``control.forced_response`` on the same closed loop at 10,000 steps (RK4, the default, was 4x
slower).

The graph is the seed's course-design task (seed 003, chapter 5.2) with a = 2: the elements
(s + 0.5)/(s + 0.1), 1/s and (s + 2)/(s + 1) in a unity negative feedback loop, the closed loop
T(s) = (s + 0.5)(s + 2) / (s (s + 0.1)(s + 1) + (s + 0.5)(s + 2)); t = 0 .. 10 s, h = 1e-3.

* simlab similarity: ``simulate(P, W, W0, Wc, r, (0, 10), 1e-3, method="similarity")``, timed with
  everything it does (argument checks, the closed loop from the connection matrices, one
  discretization, the recurrence, the element outputs).
* python-control: ``forced_response(sys, T=t, U=u)`` on the closed loop as a state-space system
  built before the timing (z' = A z + (A B_d + B) r, y = Wc (z + B_d r)), u sampled beforehand.
* simlab RK4: ``simulate(...)`` with the default method.

Two inputs: the step r = 10 (held: discrete similarity is exact, forced_response's linear
interpolation too), and r(t) = 10 sin t given as a function (simulate calls it at the 10,001
grid points; the zero-order hold of similarity then makes an error of order h, forced_response's
linear interpolation of order h^2, RK4's of order h^4). The reference is the exact response of
T(s) by partial fractions in float64, checked against 40-digit mpmath.

The times are interleaved (benchmarks/interleaved.py): per round each method runs once, the
ratios are taken within the round, and the median ratio is printed with the smallest and largest.
No compiled kernel is on these paths (numpy, scipy and BLAS only), so SIMLAB_JIT changes nothing.

Run ``python benchmarks/structure_graph.py`` (under a minute). Nothing is asserted about times.
"""

from __future__ import annotations

import control
import mpmath
import numpy as np
from interleaved import interleaved, print_machine

from simlab.structure import closed_loop, input_derivative_gain, simulate

P = [[0.1, 1, 0.5, 1], [0, 1, 1, 0], [1, 1, 2, 1]]  # (s + 0.5)/(s + 0.1), 1/s, (s + 2)/(s + 1)
W = [[0, 0, -1], [1, 0, 0], [0, 1, 0]]
W0, WC = [1, 0, 0], [0, 0, 1]
T_END, H = 10.0, 1e-3
R = 10.0
NUM = np.polymul([1, 0.5], [1, 2])  # closed loop T(s) = NUM / DEN
DEN = np.polyadd(np.polymul(np.polymul([1, 0.1], [1, 0]), [1, 1]), NUM)


def exact_response(num, den, t):
    """L^{-1}[num(s) / den(s)] at t for distinct poles: sum of num(p) / den'(p) e^{p t}, float64."""
    poles = np.roots(den)
    residues = np.polyval(num, poles) / np.polyval(np.polyder(den), poles)
    return np.real(sum(c * np.exp(p * t) for c, p in zip(residues, poles)))


def check_exact(num, den, t, y, stride=97):
    """Largest difference between exact_response and the same formula in 40-digit mpmath."""
    mpmath.mp.dps = 40
    poles = mpmath.polyroots([mpmath.mpf(c) for c in den], maxsteps=200, extraprec=200)
    derivative = [mpmath.mpf(c) for c in np.polyder(den)]
    residues = [mpmath.polyval([mpmath.mpf(c) for c in num], p) / mpmath.polyval(derivative, p) for p in poles]
    return max(abs(float(mpmath.re(mpmath.fsum(c * mpmath.exp(p * mpmath.mpf(t[k])) for c, p in zip(residues, poles))))
                   - y[k]) for k in range(0, len(t), stride))


def closed_loop_system():
    """The closed loop r -> y as python-control state space (the true response, with B_d)."""
    A, B, C = closed_loop(P, W, W0, WC)
    B_d = input_derivative_gain(P, W, W0, WC)
    return control.ss(A, A @ B_d + B, C, C @ B_d)


def compare(label, r, u, y_exact):
    system = closed_loop_system()
    t = np.linspace(0.0, T_END, round(T_END / H) + 1)
    runs = {
        "simlab similarity": lambda: simulate(P, W, W0, WC, r, (0.0, T_END), H, method="similarity").y,
        "control.forced_response": lambda: control.forced_response(system, T=t, U=u).outputs,
        "simlab rk4": lambda: simulate(P, W, W0, WC, r, (0.0, T_END), H).y,
    }
    timing = interleaved(runs, rounds=7)
    base = "control.forced_response"
    scale = float(np.max(np.abs(y_exact)))
    print(f"\n{label}: {len(t) - 1} steps, h = {H:g}")
    print(f"{'method':<26} {'median time':>11} {'x forced_response: median (min - max)':>39} "
          f"{'max |y - exact| / max |y|':>26}")
    for name in runs:
        error = float(np.max(np.abs(timing.results[name] - y_exact))) / scale
        print(f"{name:<26} {timing.median_time(name) * 1e3:8.2f} ms {timing.ratio_text(name, base):>39} "
              f"{error:26.1e}")
    return float(np.median(timing.ratios("simlab similarity", base)))


def main():
    print_machine("No compiled kernel on these paths (numpy, scipy and BLAS only): SIMLAB_JIT changes nothing.")
    t = np.linspace(0.0, T_END, round(T_END / H) + 1)
    print(f"closed loop T(s) = {np.round(NUM, 6)} / {np.round(DEN, 6)}, poles {np.round(np.roots(DEN), 4)}")
    step = R * exact_response(NUM, np.polymul(DEN, [1, 0]), t)  # R T(s) / s
    sine = R * exact_response(NUM, np.polymul(DEN, [1, 0, 1]), t)  # R T(s) / (s^2 + 1)
    print(f"reference check, float64 partial fractions vs 40-digit mpmath: step "
          f"{check_exact(NUM, np.polymul(DEN, [1, 0]), t, step / R) * R:.1e}, sine "
          f"{check_exact(NUM, np.polymul(DEN, [1, 0, 1]), t, sine / R) * R:.1e}")
    ratio = compare(f"step r = {R:g}", R, np.full(t.size, R), step)
    compare(f"r(t) = {R:g} sin t, a function", lambda s: R * np.sin(s), R * np.sin(t), sine)
    print(f"\nstep input, simlab similarity / control.forced_response = {ratio:.3f} (target <= 1: "
          f"{'met' if ratio <= 1 else 'NOT met'})")


if __name__ == "__main__":
    main()
