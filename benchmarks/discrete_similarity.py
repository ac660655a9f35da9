"""Benchmark: the discrete similarity method (离散相似法), simlab.lsim against scipy.signal.lsim.

Part 1, the seed's loop. The RK4 lab of seed 003: G(s) = 1 / (s^3 + 4 s^2 + 8 s + 5) in a unity
negative feedback loop, so the closed loop is 1 / (s^3 + 4 s^2 + 8 s + 6), driven by the step
r = 5, with T = 1e-4 and 100,000 steps (t = 0 .. 10 s): the closed-loop poles are -1.36 and
-1.32 +- 1.63j, so 10 s shows transient and steady state. At h = 1e-4, RK4's truncation error
(~(h |lambda|)^4 per unit time, ~1e-15) is below rounding, so RK4 is as accurate as it can be and
the comparison is about speed. The reference is the exact step response by partial fractions,
y(t) = r (1/6 + sum_i e^{p_i t} / (p_i prod_{j != i} (p_i - p_j))), in float64, itself checked
against the same formula in 40-digit arithmetic (mpmath).

Part 2, every size (issue 15, target 3: simlab.lsim no slower than scipy.signal.lsim at
n = 3, 10, 50, 200 and N = 10^4, 10^5, error at most 1e-12 of the output scale). Random stable
systems A = S J S^{-1} (J real block-diagonal with poles -5 <= Re < -0.1, |Im| <= 5; cond(S)
<= 10; one input, one output; seeded), T = 1e-3, a random initial state and the input
u = sin(0.7 t) + a random staircase (one level per 250 samples), with the zero-order hold
(scipy: ``interp=False``) and the triangle hold (``interp=True``). The grid of N = 10^4 is the
start of the grid of N = 10^5. The reference is the textbook recurrence x[k+1] = Phi x[k] + ...
in extended precision (numpy.longdouble, 64-bit mantissa, eps = 1.1e-19), with Phi, Gamma and
Gamma_hat from the Taylor series of the augmented matrix exponential in the same precision: an
independent computation whose own error is ~eps_ld / (|lambda| T) ~ 1e-15 of the output.

Part 3, why the state space: the transfer-function form of the recurrence (c2d, then lfilter)
is ill-conditioned when the discrete poles crowd near z = 1 (small T).

The times are interleaved (the compared methods alternate, run by run; benchmarks/interleaved.py)
and the ratios are medians of the per-round ratios, with their smallest and largest. At N = 10^4
lsim's former default, ``method="schur"``, runs in the same rounds (last column, median ratio). lsim has no
compiled kernel (numpy, scipy and BLAS only), so SIMLAB_JIT changes nothing here.

BLAS threads. lsim does its work in a few large matrix products; scipy's lsim in one
matrix-vector product per step. On a 2-core machine shared with other jobs, every
multi-threaded OpenBLAS call can wait a scheduler slice for its second thread (measured here at
load 3: 16 products of 200 x 200 matrices, 2 ms apart, took 300 ms with 2 threads and 80 ms on
one), which costs lsim more than the algorithm does at n = 200 and N = 10^4. For figures that
compare the algorithms, run it with ``OPENBLAS_NUM_THREADS=1`` (both methods then use one
thread); the line at the top says which setting and load the run had.

Run ``python benchmarks/discrete_similarity.py`` (about two minutes; the extended-precision
reference of n = 200 and N = 10^5 takes most of it). Nothing is asserted about the times.
"""

from __future__ import annotations

import mpmath
import numpy as np
from interleaved import interleaved, print_machine
from scipy import linalg, signal, stats

import simlab
from simlab.lti import feedback, tf2ss
from simlab.digital import c2d
from simlab.similarity import lsim, lsim_loop

R = 5.0  # step amplitude
T = 1e-4  # sample period = RK4 step
N = 100_000  # steps
OPEN_NUM, OPEN_DEN = [1.0], [1.0, 4.0, 8.0, 5.0]

SIZES = (3, 10, 50, 200)
STEPS = (10_000, 100_000)
T_SIZES = 1e-3
TARGET_ERROR = 1e-12


# --- Part 1: the seed's loop ---


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


def seed_loop():
    num, den = feedback(OPEN_NUM, OPEN_DEN, [1.0], [1.0])  # closed loop G / (1 + G)
    A, B, C, D = tf2ss(num, den)
    t = np.linspace(0.0, N * T, N + 1)
    u = np.full(N + 1, R)
    y_exact = exact_step_response(den, R, t)
    print(f"Part 1. closed loop: {np.round(num, 6)} / {np.round(den, 6)}, "
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

    runs = {
        "lsim (default: block)": lambda: lsim(A, B, C, D, u, t).y,
        "lsim, method='schur'": lambda: lsim(A, B, C, D, u, t, method="schur").y,
        "lsim, method='modal'": lambda: lsim(A, B, C, D, u, t, method="modal").y,
        "scipy.signal.lsim (zoh)": lambda: signal.lsim((A, B, C, D), u, t, interp=False)[1],
        "lsim_loop, textbook Python loop": lambda: lsim_loop(A, B, C, D, u, t).y,
        "simlab.rk4, h = T": run_rk4,
        "c2d + lfilter (transfer-function form)": lambda: signal.lfilter(*c2d(num, den, T), u),
    }
    timing = interleaved(runs, rounds=3)
    base = next(iter(runs))
    print(f"{'method':<40} {'median time':>11} {'x lsim: median (min - max)':>28} {'max |y - exact|':>16}")
    for name in runs:
        error = float(np.max(np.abs(timing.results[name] - y_exact)))
        print(f"{name:<40} {timing.median_time(name) * 1e3:8.2f} ms "
              f"{timing.ratio_text(name, base):>28} {error:16.2e}")


# --- Part 2: every size against scipy.signal.lsim ---


def random_system(rng, n):
    """A = S J S^{-1}, J real block-diagonal with stable poles, cond(S) <= 10; B, C random."""
    blocks, size = [], 0
    while size < n:
        a = -rng.uniform(0.1, 5.0)
        if n - size >= 2 and rng.random() < 0.5:
            b = rng.uniform(0.1, 5.0)
            blocks.append([[a, b], [-b, a]])
            size += 2
        else:
            blocks.append([[a]])
            size += 1
    J = linalg.block_diag(*blocks)
    U, V = (stats.ortho_group.rvs(n, random_state=rng) for _ in range(2))
    S = U @ np.diag(rng.uniform(0.3, 3.0, n)) @ V
    return S @ J @ np.linalg.inv(S), rng.standard_normal((n, 1)), rng.standard_normal((1, n))


def _expm_taylor_longdouble(M):
    """e^M in numpy.longdouble: Taylor series of M / 2^s (||M / 2^s||_1 <= 1/4), squared s times."""
    M = M.astype(np.longdouble)
    norm = float(np.max(np.sum(np.abs(M), axis=0)))
    s = max(0, int(np.ceil(np.log2(norm / 0.25)))) if norm > 0.25 else 0
    Y = M / np.longdouble(2) ** s
    E, term = np.eye(len(M), dtype=np.longdouble), np.eye(len(M), dtype=np.longdouble)
    for k in range(1, 30):
        term = term @ Y / k
        E = E + term
    for _ in range(s):
        E = E @ E
    return E


def reference_output(A, B, C, x0, u, T, hold):
    """y[k] of the textbook recurrence in numpy.longdouble (see the module docstring)."""
    n, m = B.shape
    size = n + m + (m if hold == "foh" else 0)
    M = np.zeros((size, size))
    M[:n, :n], M[:n, n : n + m] = A * T, B * T
    if hold == "foh":
        M[n : n + m, n + m :] = np.eye(m)
    E = _expm_taylor_longdouble(M)
    Phi, Gamma = E[:n, :n], E[:n, n : n + m]
    Gamma_hat = E[:n, n + m :] if hold == "foh" else np.zeros((n, m), dtype=np.longdouble)
    u = u.astype(np.longdouble).reshape(len(u), m)
    drive = u[:-1] @ (Gamma - Gamma_hat).T + u[1:] @ Gamma_hat.T
    x = np.empty((len(u), n), dtype=np.longdouble)
    x[0] = x0
    for k in range(len(u) - 1):
        x[k + 1] = Phi @ x[k] + drive[k]
    return (x @ C.astype(np.longdouble).T)[:, 0]


def sizes():
    print(f"\nPart 2. simlab.lsim against scipy.signal.lsim, random stable systems (seeded), "
          f"T = {T_SIZES:g}, one input and output;\nerrors relative to max |y| of the "
          f"extended-precision reference (target: time ratio <= 1, lsim error <= "
          f"{TARGET_ERROR:g})")
    print(f"{'n':>4} {'N':>7} {'hold':>4} {'lsim':>9} {'scipy':>9} "
          f"{'lsim/scipy: median (min - max)':>31} {'lsim error':>11} {'scipy error':>12} "
          f"{'schur/scipy':>12}")
    rng = np.random.default_rng(2026)
    worst_ratio, worst_error = 0.0, 0.0
    for n in SIZES:
        A, B, C = random_system(rng, n)
        D = np.zeros((1, 1))
        x0 = rng.standard_normal(n)
        t_all = T_SIZES * np.arange(max(STEPS) + 1)
        levels = rng.standard_normal(len(t_all) // 250 + 1)
        u_all = np.sin(0.7 * t_all) + 0.3 * levels[np.arange(len(t_all)) // 250]
        for hold in ("zoh", "foh"):
            y_ref_all = reference_output(A, B, C, x0, u_all, T_SIZES, hold)
            for steps in STEPS:
                t, u, y_ref = t_all[: steps + 1], u_all[: steps + 1], y_ref_all[: steps + 1]
                case = {"A": A, "B": B, "C": C, "D": D, "u": u, "t": t, "hold": hold, "x0": x0}
                runs = {
                    "lsim": lambda c=case: lsim(**c).y,
                    "scipy": lambda c=case: signal.lsim((c["A"], c["B"], c["C"], c["D"]), c["u"], c["t"],
                                                        X0=c["x0"], interp=c["hold"] == "foh")[1],
                }
                if steps == min(STEPS):  # the former default, for the docstring's comparison
                    runs["schur"] = lambda c=case: lsim(**c, method="schur").y
                timing = interleaved(runs, rounds=5 if n * steps < 5e6 else 3)
                scale = float(np.max(np.abs(y_ref)))
                errors = {name: float(np.max(np.abs(timing.results[name] - y_ref))) / scale
                          for name in runs}
                ratio = float(np.median(timing.ratios("lsim", "scipy")))
                worst_ratio, worst_error = max(worst_ratio, ratio), max(worst_error, errors["lsim"])
                schur = f"{np.median(timing.ratios('schur', 'scipy')):.2f}" if "schur" in runs else "-"
                print(f"{n:4d} {steps:7d} {hold:>4} {timing.median_time('lsim') * 1e3:6.1f} ms "
                      f"{timing.median_time('scipy') * 1e3:6.1f} ms {timing.ratio_text('lsim', 'scipy'):>31} "
                      f"{errors['lsim']:11.1e} {errors['scipy']:12.1e} {schur:>12}", flush=True)
    print(f"largest median ratio lsim/scipy {worst_ratio:.3f} (target <= 1: "
          f"{'met' if worst_ratio <= 1 else 'NOT met'}); largest lsim error {worst_error:.1e} "
          f"(target <= {TARGET_ERROR:g}: {'met' if worst_error <= TARGET_ERROR else 'NOT met'})")


# --- Part 3: the transfer-function form ---


def transfer_function_form():
    num, den = feedback(OPEN_NUM, OPEN_DEN, [1.0], [1.0])
    A, B, C, D = tf2ss(num, den)
    print("\nPart 3. transfer-function form (c2d, then lfilter) against lsim, the seed's loop, "
          "t = 0 .. 10 s:")
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
              f"{np.log10(tf_error / max(ss_error, 1e-17)):12.1f}")
    print("\nWhy scipy.signal.lsim and the textbook loop lose digits at small T: Phi = e^{AT} ~ I + "
          "AT is stored to eps, an\nerror eps / (|lambda| T) in 1 - e^{lambda T}. lsim works with "
          "Phi - I computed as such (expm_minus_identity)\nand advances the block starts in the "
          "delta form x + (D_L x + s), so it stays at rounding level.")


def main():
    print_machine("No compiled kernel on these paths (numpy, scipy and BLAS only): SIMLAB_JIT changes nothing.")
    print()
    seed_loop()
    sizes()
    transfer_function_form()


if __name__ == "__main__":
    main()
