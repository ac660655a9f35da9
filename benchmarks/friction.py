"""Spring-block stick-slip with LuGre friction over 40 s: the exponential bristle update against
RK4 and scipy's stiff solvers, in one run.

Targets (issue 6): the exponential update at h = 1 ms at least 10x faster than RK4 at its largest
stable step and than solve_ivp(Radau), and no slower than solve_ivp(LSODA), all at matched
accuracy (stick-slip period within 0.5 % of a tight Radau reference).

Run: ``python benchmarks/friction.py``. Prints times and ratios; asserts nothing about time.
"""

import time

import numpy as np
from scipy.integrate import solve_ivp

from simlab.course.lab08_lugre import spring_block_rhs, stick_slip_metrics
from simlab.friction import CANUDAS_1995, LuGre, spring_block

MODEL = LuGre(**CANUDAS_1995)
K, V_PULL, M, T_END = 2.0, 0.1, 1.0, 40.0


metrics = stick_slip_metrics  # period (mean spacing of slip onsets) and peak slip speed


def rhs(t, y):
    """The same equations as spring_block, for solve_ivp."""
    return spring_block_rhs(t, y, K, V_PULL, M)


def solve(method, rtol):
    """The solver run alone (what is timed); max_step keeps the slips from being stepped over."""
    return solve_ivp(rhs, (0, T_END), [0.0, 0.0, 0.0], method=method, rtol=rtol, atol=rtol * 1e-3,
                     dense_output=True, max_step=0.05)


def run_ivp(method, rtol):
    solution = solve(method, rtol)
    t = np.linspace(0, T_END, 400001)  # metrics on a fine grid from the dense output (not timed)
    return metrics(t, solution.sol(t)[1]), solution.nfev


def best_time(function, repeats=3):
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


def main():
    (reference, _), = [run_ivp("Radau", 1e-10)]
    print(f"reference (Radau, rtol 1e-10): period {reference[0]:.5f} s, peak slip speed {reference[1]:.5f} m/s")

    def within(period):
        return abs(period - reference[0]) <= 0.005 * reference[0]

    rows = []
    t_exp, r_exp = best_time(lambda: spring_block(MODEL, K, V_PULL, M, T_END, 1e-3))
    m_exp = metrics(r_exp.t, r_exp.v)
    rows.append(("exponential bristle update, h = 1 ms", t_exp, m_exp, "40000 steps"))

    # RK4: the largest stable step from the largest bristle rate sigma0 |v| / g of the reference
    rate = MODEL.sigma0 * reference[1] / MODEL.Fc
    h_rk4 = T_END / np.ceil(T_END / (2.785 / rate))
    t_rk4, r_rk4 = best_time(lambda: spring_block(MODEL, K, V_PULL, M, T_END, h_rk4, method="rk4"), repeats=1)
    rows.append((f"RK4 at its stability limit, h = {h_rk4:.2e} s", t_rk4, metrics(r_rk4.t, r_rk4.v),
                 f"{round(T_END / h_rk4)} steps"))

    for method in ("Radau", "LSODA"):
        for rtol in (1e-2, 3e-3, 1e-3, 1e-4, 1e-5, 1e-6):
            (m, nfev) = run_ivp(method, rtol)
            if within(m[0]):
                elapsed, _ = best_time(lambda: solve(method, rtol), repeats=3)
                rows.append((f"solve_ivp {method}, rtol {rtol:g} (loosest within 0.5 %)", elapsed, m, f"{nfev} f-evals"))
                break

    print()
    print(f"{'method':<52} {'time (s)':>9} {'x exp.':>8} {'period (s)':>11} {'error':>8} {'peak (m/s)':>11}")
    for name, elapsed, (period, peak), note in rows:
        error = (period - reference[0]) / reference[0]
        print(f"{name:<52} {elapsed:9.3f} {elapsed / t_exp:8.1f} {period:11.5f} {100 * error:7.3f}% {peak:11.5f}  {note}")
    print()
    by_name = {name.split(",")[0]: elapsed for name, elapsed, _, _ in rows}
    rk4 = next(v for k, v in by_name.items() if k.startswith("RK4"))
    radau = next((v for k, v in by_name.items() if "Radau" in k), float("nan"))
    lsoda = next((v for k, v in by_name.items() if "LSODA" in k), float("nan"))
    print(f"speed-up of the exponential update: {rk4 / t_exp:.0f}x over RK4 (target >= 10), "
          f"{radau / t_exp:.0f}x over Radau (target >= 10), {lsoda / t_exp:.1f}x over LSODA (target >= 1)")


if __name__ == "__main__":
    main()
