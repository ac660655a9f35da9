"""Per-step cost of simlab.rk4 against a bare hand-written numpy RK4 loop, in one run.

Target (issue 2): simlab.rk4 costs at most 1.3x the bare loop per step, i.e. the argument
checks, the result object and the non-finite-state guard cost nearly nothing.

Run: ``python benchmarks/integrators.py``. Prints the ratio; asserts nothing about time.
"""

import time

import numpy as np

import simlab

# The closed loop of the seed's RK4 lab: 1/(s^3 + 4 s^2 + 8 s + 6), step r = 5.
A = np.array([[-4.0, -8.0, -6.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
b = np.array([1.0, 0.0, 0.0])
r = 5.0
h = 0.001
T_END = 20.0
N = round(T_END / h)


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


def best_of(function, repeats=7):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    best_of(bare_rk4, 1)  # warm up
    t_bare, x_bare = best_of(bare_rk4)
    t_simlab, x_simlab = best_of(simlab_rk4)
    difference = np.max(np.abs(x_bare - x_simlab))
    ratio = t_simlab / t_bare
    print(f"RK4 on a 3-state linear loop, {N} steps, best of 7 runs")
    print(f"  bare numpy loop : {t_bare * 1e6 / N:7.2f} us/step")
    print(f"  simlab.rk4      : {t_simlab * 1e6 / N:7.2f} us/step")
    print(f"  ratio simlab/bare = {ratio:.3f}  (target <= 1.3)  {'OK' if ratio <= 1.3 else 'ABOVE TARGET'}")
    print(f"  max |difference| of the two results = {difference:.1e}")


if __name__ == "__main__":
    main()
