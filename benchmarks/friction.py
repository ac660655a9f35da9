"""Spring-block stick-slip with LuGre friction over 40 s: the exponential bristle update against
RK4 at its stability limit and scipy's stiff solvers at matched accuracy, and the batch sweep.

Targets (issues 6 and 15), each printed as a ratio measured in this run:
* the exponential update at h = 1 ms (compiled kernel) at least 10x faster than solve_ivp(Radau)
  and no slower than solve_ivp(LSODA), both at the loosest rtol whose stick-slip period is
  within 0.5 % of a tight Radau reference (the scan starts at rtol 0.1); the plain Python path
  (SIMLAB_JIT=0) no slower than before (issue 6: 0.046 s);
* a sweep of 1,000 parameter sets (friction.spring_block_sweep) at most 0.2x one LSODA solve per
  simulation.

Rules (benchmarks hold still on a shared machine): the compared methods run alternately, run by
run (A, B, C, ..., A, B, C, ...); each ratio is the median of the per-round ratios, printed with
their spread (min-max); each method's error against the reference is printed. The compile time
of the first call is measured in a fresh subprocess with an empty numba cache.

Run: ``python benchmarks/friction.py``. Prints; asserts nothing.
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp

from simlab.course.lab08_lugre import spring_block_rhs, stick_slip_metrics
from simlab.friction import CANUDAS_1995, LuGre, spring_block, spring_block_sweep

MODEL = LuGre(**CANUDAS_1995)
K, V_PULL, M, T_END = 2.0, 0.1, 1.0, 40.0
ROUNDS = 7
RTOLS = (0.1, 0.03, 0.01, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6)
SETS = 1000


def rhs(t, y):
    """The same equations as spring_block, for solve_ivp."""
    return spring_block_rhs(t, y, K, V_PULL, M)


def solve(method, rtol):
    """The solver run alone (what is timed); max_step keeps the slips from being stepped over."""
    return solve_ivp(rhs, (0, T_END), [0.0, 0.0, 0.0], method=method, rtol=rtol, atol=rtol * 1e-3,
                     dense_output=True, max_step=0.05)


def ivp_metrics(solution):
    t = np.linspace(0, T_END, 400001)  # metrics on a fine grid from the dense output (not timed)
    return stick_slip_metrics(t, solution.sol(t)[1])


def jit(on):
    """Switch the compiled path on or off for the calls that follow (simlab.jit reads SIMLAB_JIT per call)."""
    os.environ["SIMLAB_JIT"] = "1" if on else "0"


def timed(function):
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, value


def loosest_matching(method, reference):
    """The scan from rtol 0.1 down: the loosest rtol whose period is within 0.5 % of the reference."""
    print(f"\n{method} tolerance scan (atol = rtol * 1e-3, max_step 0.05 s):")
    for rtol in RTOLS:
        try:
            elapsed, solution = timed(lambda: solve(method, rtol))
            metrics = ivp_metrics(solution)
        except ValueError as error:  # fewer than 3 slips: no period
            print(f"  rtol {rtol:<6g}  no period ({error})")
            continue
        error = (metrics.period - reference.period) / reference.period
        print(f"  rtol {rtol:<6g}  period {metrics.period:.5f} s ({100 * error:+.3f} %), {solution.nfev} f-evals, "
              f"{elapsed:.3f} s")
        if abs(error) <= 0.005:
            return rtol
    return None


def rounds(methods, count):
    """Run the methods alternately ``count`` times: {name: [times]}, and the last value of each."""
    times, values = {name: [] for name in methods}, {}
    for _ in range(count):
        for name, function in methods.items():
            elapsed, values[name] = timed(function)
            times[name].append(elapsed)
    return times, values


def ratio_text(numerator, denominator):
    ratios = np.array(numerator) / np.array(denominator)
    return f"{np.median(ratios):8.2f}x  [{ratios.min():.2f}, {ratios.max():.2f}]"


def compile_time():
    """First call of the kernels in a fresh interpreter with an empty numba cache: (first, second) call times."""
    code = ("import time\n"
            "from simlab.friction import CANUDAS_1995, LuGre, spring_block, spring_block_sweep\n"
            "model = LuGre(**CANUDAS_1995)\n"
            "times = []\n"
            "for _ in range(2):\n"
            "    start = time.perf_counter()\n"
            "    spring_block(model, 2.0, 0.1, 1.0, 40.0, 1e-3)\n"
            "    times.append(time.perf_counter() - start)\n"
            "start = time.perf_counter()\n"
            "spring_block_sweep(model, [1.0, 2.0], 0.1, 1.0, 1.0, 1e-3)\n"
            "times.append(time.perf_counter() - start)\n"
            "print(*times)\n")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "SIMLAB_JIT": "1"}
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return tuple(float(value) for value in output.stdout.split())


def main():
    import simlab.jit

    print(f"machine: {os.cpu_count()} cores (os.cpu_count()); numba installed: {simlab.jit.numba_available()}")
    first, second, sweep_first = compile_time()
    print(f"first call in a fresh process, empty numba cache: spring_block {first:.2f} s (compiling), "
          f"second call {1e3 * second:.1f} ms; first spring_block_sweep {sweep_first:.2f} s (compiling its loop)")

    _, solution = timed(lambda: solve_ivp(rhs, (0, T_END), [0.0, 0.0, 0.0], method="Radau", rtol=1e-10,
                                          atol=1e-13, dense_output=True, max_step=0.05))
    reference = ivp_metrics(solution)
    print(f"reference (Radau, rtol 1e-10): period {reference.period:.5f} s, peak slip speed {reference.peak:.5f} m/s")
    rtol = {method: loosest_matching(method, reference) for method in ("Radau", "LSODA")}

    rate = MODEL.sigma0 * reference.peak / MODEL.Fc  # the largest bristle rate sigma0 |v| / g
    h_rk4 = T_END / np.ceil(T_END / (2.785 / rate))  # RK4 at its stability limit, h a = 2.785

    def block(method, h, on):
        def run():
            jit(on)
            return spring_block(MODEL, K, V_PULL, M, T_END, h, method=method)
        return run

    methods = {
        "exponential, h = 1 ms, compiled": block("exponential", 1e-3, True),
        "exponential, h = 1 ms, plain Python": block("exponential", 1e-3, False),
        f"RK4 at its limit, h = {h_rk4:.2e} s, compiled": block("rk4", h_rk4, True),
        f"RK4 at its limit, h = {h_rk4:.2e} s, plain Python": block("rk4", h_rk4, False),
        **{f"solve_ivp {method}, rtol {rtol[method]:g}": (lambda m=method: solve(m, rtol[m]))
           for method in ("Radau", "LSODA") if rtol[method] is not None},
    }
    for function in methods.values():  # warm-up (kernels loaded from the cache)
        function()
    times, values = rounds(methods, ROUNDS)
    jit(True)

    names = list(methods)
    print(f"\n{ROUNDS} interleaved rounds; median time, ratio = peer / exponential (median of the per-round ratios, "
          f"[min, max])")
    print(f"{'method':<48} {'time (s)':>9} {'vs compiled exp.':>24} {'vs Python exp.':>24} {'period err':>10} "
          f"{'peak err':>9}")
    for name in names:
        value = values[name]
        metrics = stick_slip_metrics(value.t, value.v) if hasattr(value, "v") else ivp_metrics(value)
        errors = [(metrics.period - reference.period) / reference.period,
                  (metrics.peak - reference.peak) / reference.peak]
        print(f"{name:<48} {np.median(times[name]):9.4f} {ratio_text(times[name], times[names[0]]):>24} "
              f"{ratio_text(times[name], times[names[1]]):>24} {100 * errors[0]:9.3f}% {100 * errors[1]:8.3f}%")

    # the batch sweep: 1,000 sets (40 stiffnesses x 25 pulling speeds) against one LSODA solve
    ks, speeds = np.linspace(1.0, 5.0, 40)[:, None], np.linspace(0.05, 0.2, 25)[None, :]
    lsoda = next(name for name in names if "LSODA" in name)

    def sweep(on, record):
        def run():
            jit(on)
            return spring_block_sweep(MODEL, ks, speeds, M, T_END, 1e-3, record=record)
        return run

    def lsoda_solve():  # one LSODA solve, as the median of 5 (a 20 ms solve against a sweep of seconds)
        return float(np.median([timed(methods[lsoda])[0] for _ in range(5)]))

    cases = (("compiled, v recorded", True, ("v",), 5), ("compiled, x, v, F, z", True, ("x", "v", "F", "z"), 2),
             ("plain Python, v", False, ("v",), 3))
    print(f"\nbatch sweep of {SETS} sets (40 k x 25 v_pull, 40 s, h = 1 ms), time per simulation against one "
          f"{lsoda} (median of 5 solves next to each sweep; target <= 0.2):")
    for label, on, record, count in cases:
        per_set, lsoda_times = [], []
        for _ in range(count):
            lsoda_times.append(lsoda_solve())
            per_set.append(timed(sweep(on, record))[0] / SETS)
        print(f"  {label:<21} {1e3 * np.median(per_set):6.2f} ms per simulation ({SETS * np.median(per_set):5.2f} s "
              f"per sweep) = {ratio_text(per_set, lsoda_times)} one LSODA solve "
              f"({1e3 * np.median(lsoda_times):.1f} ms)")
    jit(True)

    exp_c, exp_p = np.array(times[names[0]]), np.array(times[names[1]])
    rk4_c, rk4_p = np.array(times[names[2]]), np.array(times[names[3]])
    radau = np.array(next(times[name] for name in names if "Radau" in name))
    lsoda_times = np.array(times[lsoda])
    print("\nspeed-up of the exponential update (median of the per-round ratios):")
    print(f"  compiled:     {np.median(rk4_c / exp_c):6.1f}x over RK4, {np.median(radau / exp_c):6.1f}x over Radau "
          f"(target >= 10), {np.median(lsoda_times / exp_c):5.2f}x over LSODA (target >= 1)")
    print(f"  plain Python: {np.median(rk4_p / exp_p):6.1f}x over RK4, {np.median(radau / exp_p):6.1f}x over Radau, "
          f"{np.median(lsoda_times / exp_p):5.2f}x over LSODA; {np.median(exp_p):.4f} s (issue 6: 0.046 s)")


if __name__ == "__main__":
    main()
