"""The case-study plants' loops (issue 15, target 5): compiled kernels against plain Python.

* The DC drive of lab07, the no-load start (1 s, RK4 with h = 50 us, 20,000 steps): the
  reference path (simlab.rk4 on the drive's right-hand side, what simulate_drive ran before its
  kernels), the kernel loop as plain Python (SIMLAB_JIT=0) and compiled.
* The pneumatic cylinder of lab09, the low constant inputs (10 s, h = 1.16 ms, 8,621 steps), for
  each friction model: the kernel loop as plain Python and compiled.

The methods alternate run by run (A, B, C, A, B, C, ...); each ratio is taken per round and the
median is printed with the spread (min-max), with the error of each method against the first.
The first-call compile time is measured in a fresh subprocess with an empty numba cache
(NUMBA_CACHE_DIR), and the load time from that cache in a second one.

Run: ``python benchmarks/plants.py``. Prints; asserts nothing.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from simlab import jit
from simlab.course import lab09_pneumatic_friction as lab09
from simlab.integrators import rk4, time_grid
from simlab.plants import dc_motor, dc_motor_kernels, pneumatic, pneumatic_kernels
from simlab.plants.dc_motor import DriveParameters, design_regulators

ROUNDS = 5


def _timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def _alternate(methods, rounds=ROUNDS):
    """Run ``methods`` (name -> function) in turn, ``rounds`` times; times and last results per name."""
    times = {name: [] for name in methods}
    results = {}
    for _ in range(rounds):
        for name, function in methods.items():
            elapsed, results[name] = _timed(function)
            times[name].append(elapsed)
    return times, results


def _ratio_line(label, times, slow, fast):
    ratios = [a / b for a, b in zip(times[slow], times[fast])]
    return (f"  {label:<34} median {statistics.median(ratios):7.1f}x  "
            f"(min {min(ratios):.1f}, max {max(ratios):.1f})")


def drive():
    p = DriveParameters()
    design = design_regulators(p)
    t_end, h = 1.0, 5e-5
    t, h = time_grid((0.0, t_end), h)
    plant, regulators = dc_motor_kernels.drive_constants(p, design, p.Uim, p.Ucm)
    mode = dc_motor_kernels.ANTI_WINDUP_CODES["analog"]
    N = len(t) - 1
    inputs = (np.full((N, 3), p.nN), np.zeros((N, 3)), np.zeros((N, 3)))
    f = dc_motor._drive_rhs(p, design, lambda t: p.nN, lambda t: 0.0, lambda t: 0.0, "analog", p.Uim, p.Ucm)
    fast = jit.compiled(dc_motor_kernels.drive_rk4)
    fast(np.zeros(9), h, *inputs, plant, regulators, mode)  # load or compile before timing
    methods = {
        "simlab.rk4 on the Python rhs": lambda: rk4(f, (0.0, t_end), np.zeros(9), h).x,
        "kernel loop, plain Python": lambda: dc_motor_kernels.drive_rk4(np.zeros(9), h, *inputs, plant, regulators,
                                                                        mode)[0],
        "kernel loop, compiled": lambda: fast(np.zeros(9), h, *inputs, plant, regulators, mode)[0],
    }
    times, results = _alternate(methods)
    print(f"DC drive, no-load start: {N} RK4 steps of {h * 1e6:g} us, {ROUNDS} alternating rounds")
    reference = results["simlab.rk4 on the Python rhs"]
    for name in methods:
        error = np.max(np.abs(results[name] - reference))
        print(f"  {name:<34} median {statistics.median(times[name]) * 1e3:9.1f} ms   "
              f"max |x - x_rk4| = {error:.1e}")
    print(_ratio_line("speed-up compiled / simlab.rk4:", times, "simlab.rk4 on the Python rhs", "kernel loop, compiled"))
    print(_ratio_line("speed-up plain kernel / simlab.rk4:", times, "simlab.rk4 on the Python rhs",
                      "kernel loop, plain Python"))


def _cylinder_arguments(model, scenario, P, h):
    """The arguments of cylinder_loop for one run (a fresh memory and output each call)."""
    import math

    t = h * np.arange(math.ceil(scenario.t_end / h - 1e-9) + 1)
    u1, u2, _ = pneumatic._valve_inputs(scenario.u1, scenario.u2, t, P)
    valve, chamber = pneumatic._constants(P)
    code, parameters, curve, memory = pneumatic._friction_arguments(model, len(t))
    V1, V2 = pneumatic_kernels.volumes(scenario.x0, chamber)
    lead = float(model.lead_mass)
    return (u1, u2, h, False, scenario.x0, 0.0, P.patm, P.patm, P.patm * V1 / chamber[6], P.patm * V2 / chamber[6],
            float(P.M), lead, valve, chamber, code, parameters, *curve, *memory, np.empty((9, len(t))))


def _runner(loop, model, scenario, P, h):
    """A run of ``loop`` (plain or compiled cylinder_loop) for ``model``: returns the recorded rows."""

    def run():
        arguments = _cylinder_arguments(model, scenario, P, h)
        loop(*arguments)
        return arguments[-1]

    return run


def cylinder():
    P, scenario, h = lab09.cylinder_parameters(), lab09.low_inputs(), lab09.H
    fast = jit.compiled(pneumatic_kernels.cylinder_loop)
    print(f"Pneumatic cylinder, low constant inputs: {scenario.t_end:g} s with h = {h * 1e3:g} ms, "
          f"{ROUNDS} alternating rounds")
    for name, model in lab09.friction_models().items():
        fast(*_cylinder_arguments(model, scenario, P, h))  # load or compile before timing
        methods = {"plain": _runner(pneumatic_kernels.cylinder_loop, model, scenario, P, h),
                   "compiled": _runner(fast, model, scenario, P, h)}
        times, results = _alternate(methods)
        error = np.max(np.abs(results["compiled"] - results["plain"]))
        print(f"  {name:>3}: plain {statistics.median(times['plain']) * 1e3:8.1f} ms, compiled "
              f"{statistics.median(times['compiled']) * 1e3:6.1f} ms (medians); "
              f"max |compiled - plain| = {error:.1e}")
        print(_ratio_line(f"{name} speed-up compiled / plain:", times, "plain", "compiled"))


FIRST_CALLS = """
import time
start = time.perf_counter(); import numba; print(f"  import numba {time.perf_counter() - start:6.2f} s")
from simlab.course import lab09_pneumatic_friction as lab
from simlab.plants.dc_motor import simulate_drive
start = time.perf_counter(); simulate_drive(t_end=0.001); print(f"  simulate_drive {time.perf_counter() - start:6.2f} s")
for name in ("SS", "LG", "RLG"):
    start = time.perf_counter(); lab.simulate(name, lab.low_inputs(), h=0.05)
    print(f"  simulate_cylinder, {name} {time.perf_counter() - start:6.2f} s")
"""


def compile_times():
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "SIMLAB_JIT": "1"}
        for what in ("first calls with an empty numba cache (compilation):",
                     "first calls in a new process, from that cache:"):
            print(what)
            done = subprocess.run([sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True, text=True)
            print(done.stdout.rstrip() or done.stderr.rstrip())


def main():
    print(f"os.cpu_count() = {os.cpu_count()}; numba compiles: {jit.jit_enabled()}")
    if not jit.jit_enabled():
        print("numba is missing or SIMLAB_JIT=0: the 'compiled' figures are the plain ones.")
    drive()
    cylinder()
    compile_times()


if __name__ == "__main__":
    main()
