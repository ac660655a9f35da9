"""Per-step cost of simlab.rk4 against a bare hand-written numpy RK4 loop, in one run.

Target (issue 2): simlab.rk4 costs at most 1.3x the bare loop per step, i.e. the argument
checks, the result object and the non-finite-state guard cost nearly nothing.

The two loops alternate run by run (bare, simlab, bare, simlab, ...; benchmarks/interleaved.py)
and the ratio is the median of the per-round ratios, printed with the smallest and largest: the
machine is shared, and timing the loops in separate blocks gave 1.16, 1.69 and 1.52 in three
runs (issue 15). simlab.rk4 has no compiled kernel (the right-hand side is a Python function), so
SIMLAB_JIT changes nothing here.

Run: ``python benchmarks/integrators.py``. Prints the ratio; asserts nothing about time.
"""

import numpy as np
from interleaved import interleaved, print_machine

import simlab

# The closed loop of the seed's RK4 lab: 1/(s^3 + 4 s^2 + 8 s + 6), step r = 5.
A = np.array([[-4.0, -8.0, -6.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
b = np.array([1.0, 0.0, 0.0])
r = 5.0
h = 0.001
T_END = 20.0
N = round(T_END / h)
ROUNDS = 9


def f(t, x):
    return A @ x + b * r


def bare_rk4():
    """The textbook loop, written by hand with numpy, preallocated output."""
    x = np.zeros(3)
    xs = np.empty((N + 1, 3))
    xs[0] = x
    t = 0.0
    for k in range(N):
        k1 = f(t, x)
        k2 = f(t + h / 2, x + h / 2 * k1)
        k3 = f(t + h / 2, x + h / 2 * k2)
        k4 = f(t + h, x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        xs[k + 1] = x
        t += h
    return xs


def simlab_rk4():
    return simlab.rk4(f, (0.0, T_END), np.zeros(3), h).x


def main():
    print_machine("No compiled kernel on these paths (numpy, scipy and BLAS only): SIMLAB_JIT changes nothing.")
    timing = interleaved({"bare": bare_rk4, "simlab": simlab_rk4}, rounds=ROUNDS)
    difference = np.max(np.abs(timing.results["bare"] - timing.results["simlab"]))
    ratio = float(np.median(timing.ratios("simlab", "bare")))
    print(f"RK4 on a 3-state linear loop, {N} steps, {ROUNDS} interleaved rounds (median per step)")
    print(f"  bare numpy loop : {timing.median_time('bare') * 1e6 / N:7.2f} us/step")
    print(f"  simlab.rk4      : {timing.median_time('simlab') * 1e6 / N:7.2f} us/step")
    print(f"  ratio simlab/bare, median (min - max) of the rounds = {timing.ratio_text('simlab', 'bare')}"
          f"  (target <= 1.3)  {'OK' if ratio <= 1.3 else 'ABOVE TARGET'}")
    print(f"  max |difference| of the two results = {difference:.1e}")


if __name__ == "__main__":
    main()
