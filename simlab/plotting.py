"""Figures of the course. matplotlib is imported only when a function here is called.

Every lab notebook starts with :func:`use_course_style` so that all figures look alike; nothing
is changed globally by ``import simlab``. Each ``plot_*`` function takes the data an experiment
returned (see :mod:`simlab.experiments`) and returns a ``matplotlib.figure.Figure``. Lines differ
in style and marker as well as in colour, so that a figure stays readable printed in black and
white.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "use_course_style",
    "LINE_STYLES",
    "plot_lab01_methods",
    "plot_convergence",
    "plot_stability_regions",
    "plot_stiff",
    "plot_seed_rk4",
    "plot_reduction",
    "plot_hold_accuracy",
    "plot_similarity_versus_rk4",
    "plot_seed_sweep",
    "plot_seed_versus_true",
    "plot_element_outputs",
    "plot_characteristics",
    "plot_lab06_responses",
    "plot_drive_start",
    "plot_drive_phase",
    "plot_drive_windup",
    "plot_lugre_behaviours",
    "plot_seed_sfunction",
    "plot_cylinder_runs",
    "plot_hysteresis",
]

#: (linestyle, marker) pairs cycled through by the plot helpers, readable in black and white.
LINE_STYLES = [("-", None), ("--", "o"), ("-.", "s"), (":", "^"), ("-", "v"), ("--", "D")]

_COURSE_STYLE = {
    "figure.figsize": (7.0, 4.2),
    "figure.dpi": 100,
    "savefig.dpi": 120,
    "axes.grid": True,
    "grid.alpha": 0.35,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "font.size": 10,
    "lines.linewidth": 1.6,
    "lines.markersize": 4,
    "figure.autolayout": True,
}


def use_course_style():
    """Apply the course's matplotlib settings (figure size, grid, fonts) to this session.

    Call it once at the top of a notebook; it changes ``matplotlib.rcParams`` for the current
    Python session only.

    Examples
    --------
    >>> from simlab.plotting import use_course_style
    >>> use_course_style()
    """
    import matplotlib

    matplotlib.rcParams.update(_COURSE_STYLE)


def _figure(nrows=1, ncols=1, **kwargs):
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, **kwargs)


def _style(index):
    linestyle, marker = LINE_STYLES[index % len(LINE_STYLES)]
    return {"linestyle": linestyle, "marker": marker, "markevery": 0.1 if marker else None}


def plot_lab01_methods(data):
    """Lab 01: Euler, improved Euler, RK4, the seed's Euler line and the exact solution."""
    comparison = data["comparison"]
    t = comparison["t"]
    fig, (ax, ax_err) = _figure(1, 2, figsize=(10, 4))
    t_fine = np.linspace(t[0], t[-1], 400)
    ax.plot(t_fine, 2 * np.exp(t_fine) - t_fine - 1, color="black", label="exact $2e^t - t - 1$")
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, y) in enumerate(comparison["y"].items(), start=1):
        ax.plot(t, y, label=labels[name], **_style(i))
        ax_err.semilogy(t[1:], np.abs(y - comparison["exact"])[1:], label=labels[name], **_style(i))
    t_seed, y_seed = data["seed_line"]
    ax.plot(t_seed, y_seed, color="gray", label="seed's Euler line", **_style(4))
    ax.set(xlabel="t", ylabel="y(t)", title="y' = t + y, y(0) = 1, h = 0.1")
    ax.legend()
    ax_err.set(xlabel="t", ylabel=r"$|y_k - y(t_k)|$", title="Global error")
    ax_err.legend()
    return fig


def plot_convergence(study):
    """Lab 02: global error versus h (log-log) and versus the number of f evaluations."""
    fig, (ax, ax_cost) = _figure(1, 2, figsize=(10, 4))
    hs = study["hs"]
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, errors) in enumerate(study["errors"].items()):
        label = f"{labels[name]} (order {study['orders'][name]:.2f})"
        ax.loglog(hs, errors, label=label, **_style(i + 1))
        ax_cost.loglog(study["evaluations"][name], errors, label=labels[name], **_style(i + 1))
    ax.set(xlabel="step size h", ylabel="|y_N - y(2)|", title="Error versus step size")
    ax.legend()
    ax_cost.set(xlabel="evaluations of f", ylabel="|y_N - y(2)|", title="Error versus cost")
    ax_cost.legend()
    return fig


def plot_stability_regions(grids):
    """Lab 02: stability regions |R(h lambda)| <= 1 of the methods, in the complex h-lambda plane."""
    fig, ax = _figure(figsize=(6, 5))
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4"}
    for i, (name, (x, y, magnitude)) in enumerate(grids.items()):
        linestyle = LINE_STYLES[i % len(LINE_STYLES)][0]
        contour = ax.contour(x, y, magnitude, levels=[1.0], colors=[f"C{i}"], linestyles=[linestyle])
        ax.plot([], [], color=f"C{i}", linestyle=linestyle, label=labels[name])
        del contour
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set(xlabel=r"Re($h\lambda$)", ylabel=r"Im($h\lambda$)",
           title=r"Stability regions $|R(h\lambda)| \leq 1$")
    ax.set_aspect("equal")
    ax.legend(loc="upper left")
    return fig


def plot_stiff(stiff):
    """Lab 02: the stiff system, RK4 near its step limit, implicit Euler and the exact update."""
    fig, ax = _figure()
    for i, run in enumerate(stiff["runs"]):
        label = f"{run['method']}, h = {run['h']:g} ({run['steps']} steps)"
        if run["y"] is None:
            # a diverged run has nothing to draw: say so in the legend
            ax.plot([], [], linestyle="none", marker="x", color="red", label=label + ": diverged")
            continue
        ax.plot(run["t"], run["y"], label=label, **_style(i))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Stiff system 1000/((s+1)(s+1000)), unit step")
    ax.legend()
    return fig


def plot_seed_rk4(seed):
    """Lab 02: the seed's RK4 lab, response and error against the exact step response."""
    fig, (ax, ax_err) = _figure(1, 2, figsize=(10, 4))
    h = seed["t"][1] - seed["t"][0]
    # exact first and wide, RK4 on top with markers, so that both stay visible
    ax.plot(seed["t"], seed["exact"], label="exact (scipy.signal.step)", color="0.6", linewidth=4)
    ax.plot(seed["t"], seed["y"], label=f"RK4, h = {h:g}", color="C0", linestyle="--", marker="o",
            markevery=0.1)
    ax.axhline(seed["steady_state"], color="black", linestyle=":",
               label=f"final value {seed['steady_state']:.4f}")
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Closed loop of 1/(s^3+4s^2+8s+5), step input")
    ax.legend()
    ax_err.semilogy(seed["t"][1:], np.abs(seed["y"] - seed["exact"])[1:], **_style(0))
    ax_err.set(xlabel="t (s)", ylabel=r"$|y_{RK4} - y|$", title=f"RK4 error, h = {h:g}")
    return fig


def plot_reduction(reductions):
    """Lab 03: step responses of G(s) H(s) before and after model reduction, and its Hankel singular values.

    ``reductions`` is a list of results of :func:`simlab.experiments.lab03_models.reduction`
    (all of the same full model).
    """
    fig, (ax, ax_hsv) = _figure(1, 2, figsize=(10, 4))
    first = reductions[0]
    n = len(first["hsv"])
    ax.plot(first["t"], first["y_full"], color="black", label=f"full model, order {n}")
    for i, reduced in enumerate(reductions, start=1):
        ax.plot(reduced["t"], reduced["y_reduced"],
                label=f"order {reduced['order']} ({reduced['method']})", **_style(i))
    ax.set(xlabel="t (s)", ylabel="unit-step response", title="Model reduction of G(s) H(s)")
    ax.legend()
    ax_hsv.semilogy(np.arange(1, n + 1), np.maximum(first["hsv"], 1e-16), "o-", color="black")
    ax_hsv.set(xlabel="balanced state", ylabel="Hankel singular value",
               title="Hankel singular values (small: removable)")
    ax_hsv.set_xticks(np.arange(1, n + 1))
    return fig


def plot_hold_accuracy(holds):
    """Lab 04: max error of zero- and first-order-hold discrete similarity versus T, per input."""
    fig, axes = _figure(1, 3, figsize=(12, 3.8), sharey=True)
    steps = holds["steps"]
    for ax, kind in zip(axes, ("step", "ramp", "sine")):
        for i, hold in enumerate(("zoh", "foh")):
            errors = np.maximum(holds[kind][hold], 1e-17)  # exact results drawn at the floor
            ax.loglog(steps, errors, label=hold, **_style(i + 1))
        ax.set(xlabel="T (s)", title=f"{kind} input")
    axes[0].set_ylabel("max |y - y_exact|")
    axes[0].legend()
    return fig


def plot_similarity_versus_rk4(rows):
    """Lab 04: discrete similarity versus RK4 at equal step, error and run time."""
    fig, (ax, ax_time) = _figure(1, 2, figsize=(10, 4))
    T = [row["T"] for row in rows]
    ax.loglog(T, [max(row["error_similarity"], 1e-17) for row in rows], label="discrete similarity (zoh)",
              **_style(1))
    ax.loglog(T, [row["error_rk4"] for row in rows], label="RK4", **_style(2))
    ax.set(xlabel="step T = h (s)", ylabel="max |y - y_exact|", title="Accuracy at equal step")
    ax.legend()
    ax_time.loglog(T, [row["time_similarity"] * 1e3 for row in rows], label="discrete similarity",
                   **_style(1))
    ax_time.loglog(T, [row["time_rk4"] * 1e3 for row in rows], label="RK4", **_style(2))
    ax_time.set(xlabel="step T = h (s)", ylabel="run time (ms)", title="Cost at equal step")
    ax_time.legend()
    return fig


def plot_seed_sweep(sweeps):
    """Lab 05: the seed's task, y(t) for a = 2 .. 12 in one figure, one panel per step size."""
    fig, axes = _figure(1, len(sweeps), figsize=(5.2 * len(sweeps), 4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, sweep in zip(axes, sweeps):
        for j, a in enumerate(sweep["a"]):
            ax.plot(sweep["t"], sweep["y"][:, j], label=f"a = {a}", **_style(j))
        kind = "seed program" if sweep["seed_compatible"] else "true response"
        final = sweep.get("r")
        if final is not None:
            ax.axhline(final, color="black", linestyle=":", linewidth=1, label=f"r = {final:g}")
        ax.set(xlabel="t (s)", title=f"h = {sweep['h']:g}, t = 0 .. {sweep['t'][-1]:g} s ({kind})")
    axes[0].set_ylabel("output y(t)")
    axes[-1].legend(ncol=2)
    return fig


def plot_seed_versus_true(versus):
    """Lab 05: the seed program (r' term dropped) against the true response, element 1 and output."""
    fig, (ax, ax_out) = _figure(1, 2, figsize=(10, 4))
    t = versus["t"]
    ax.plot(t, versus["x_true"][:, 0], label="true response", **_style(0))
    ax.plot(t, versus["x_seed"][:, 0], label="seed program", **_style(1))
    ax.set(xlabel="t (s)", ylabel="y1(t)", title="Element 1, G1 = (s + 0.5)/(s + 0.1)")
    ax.legend()
    ax_out.plot(t, versus["y_true"], label="true response", **_style(0))
    ax_out.plot(t, versus["y_seed"], label="seed program", **_style(1))
    ax_out.set(xlabel="t (s)", ylabel="y(t) = y3(t)",
               title=f"System output, a = {versus.get('a', '?')}, r = {versus.get('r', '?'):g}")
    ax_out.legend()
    return fig


def plot_element_outputs(loop):
    """Lab 05/06: every element's output of a structure-graph simulation."""
    fig, ax = _figure()
    for i in range(loop["x"].shape[1]):
        ax.plot(loop["t"], loop["x"][:, i], label=f"element {i + 1}", **_style(i))
    ax.set(xlabel="t (s)", ylabel="element output y_i(t)", title="Every element's output")
    ax.legend()
    return fig


def plot_characteristics(elements=None):
    """Input-output characteristics of the nonlinear elements (static maps and hysteresis loops).

    ``elements`` is a list of simlab.nonlinear objects (default: one of each kind); elements
    with memory are driven by two periods of a sine so that their loop is drawn.
    """
    from simlab.nonlinear import Backlash, DeadZone, Relay, Saturation

    if elements is None:
        elements = [Saturation(1.0), DeadZone(0.5), Backlash(0.5), Relay(1.0, hysteresis=0.4)]
    fig, axes = _figure(1, len(elements), figsize=(3.2 * len(elements), 3.2))
    axes = np.atleast_1d(axes)
    u = 2.0 * np.sin(np.linspace(0, 4 * np.pi, 801))
    for ax, element in zip(axes, elements):
        element.reset()
        y = element.response(u)
        ax.plot(u, y, color="black")
        ax.set(xlabel="input u", ylabel="output y", title=repr(element).split("(")[0])
        ax.axhline(0, color="gray", linewidth=0.5)
        ax.axvline(0, color="gray", linewidth=0.5)
        element.reset()
    return fig


def plot_lab06_responses(data):
    """Lab 06: saturation, backlash limit cycle, dead zone and relay in the four-element loop."""
    fig, axes = _figure(2, 2, figsize=(11, 7.5))
    ax = axes[0, 0]
    for i, run in enumerate(data["saturation"]):
        label = "linear" if run["limit"] is None else f"saturation at {run['limit']:g}"
        ax.plot(run["t"], run["y"], label=label, **_style(i))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Saturation of the PI output", xlim=(0, 20))
    ax.legend()
    ax = axes[0, 1]
    backlash = data["backlash"]
    ax.plot(backlash["t"], backlash["y"], color="black")
    ax.set(xlabel="t (s)", ylabel="y(t)", title=f"Backlash b = {backlash['b']:g}: limit cycle")
    ax = axes[1, 0]
    dead = data["dead_zone"]
    ax.plot(dead["t"], dead["y_linear"], label="linear", **_style(0))
    ax.plot(dead["t"], dead["y_dead_zone"], label=f"dead zone {dead['width']:g}", **_style(1))
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Dead zone after the PI element")
    ax.legend()
    ax = axes[1, 1]
    relay = data["relay"]
    ax.plot(relay["t"], relay["y"], color="black")
    ax.set(xlabel="t (s)", ylabel="y(t)", title="Relay on the error: chattering")
    return fig


def _shade_stages(ax, t1, t2, t_end):
    for (start, stop, label), shade in zip(((0.0, t1, "I"), (t1, t2, "II"), (t2, t_end, "III")),
                                           ("0.93", "0.85", "0.93")):
        if np.isfinite(start) and np.isfinite(stop):
            ax.axvspan(start, stop, color=shade, alpha=0.5, linewidth=0)
            ax.text(0.5 * (start + stop), 0.97, label, transform=ax.get_xaxis_transform(),
                    ha="center", va="top")


def plot_drive_start(start):
    """Lab 07: no-load start, speed and armature current with the three stages shaded."""
    result, m = start["result"], start["metrics"]
    from simlab.experiments.lab07_dc_motor import PARAMETERS as p

    fig, (ax_n, ax_i) = _figure(2, 1, figsize=(8, 6), sharex=True)
    for ax in (ax_n, ax_i):
        _shade_stages(ax, m["t1"], m["t2"], result.t[-1])
    ax_n.plot(result.t, result.n, color="black")
    ax_n.axhline(p.nN, color="gray", linestyle=":", label=f"n* = {p.nN:g} r/min")
    ax_n.set(ylabel="speed n (r/min)", title="No-load start: I current rise, II constant current, III speed regulation")
    ax_n.legend(loc="lower right")
    ax_i.plot(result.t, result.Id, color="black")
    ax_i.axhline(p.Idm, color="gray", linestyle="--", label=f"I_dm = {p.Idm:g} A")
    ax_i.set(xlabel="t (s)", ylabel="armature current Id (A)")
    ax_i.legend(loc="center right")
    return fig


def plot_drive_phase(start):
    """Lab 07: phase plots of the start-up, current against speed and speed error against its rate."""
    result, m = start["result"], start["metrics"]
    from simlab.experiments.lab07_dc_motor import PARAMETERS as p

    t = result.t
    masks = [t <= m["t1"], (t > m["t1"]) & (t <= m["t2"]), t > m["t2"]]
    names = ["I current rise", "II constant current", "III speed regulation"]
    fig, (ax, ax_e) = _figure(1, 2, figsize=(11, 4.2))
    rate = np.gradient(result.n, t)
    for i, (mask, name) in enumerate(zip(masks, names)):
        style = _style(i)
        style["markevery"] = max(1, int(mask.sum() // 12)) if style["marker"] else None
        ax.plot(result.n[mask], result.Id[mask], label=name, **style)
        ax_e.plot(p.nN - result.n[mask], rate[mask], label=name, **style)
    ax.set(xlabel="speed n (r/min)", ylabel="current Id (A)", title="Current against speed")
    ax.legend()
    ax_e.set(xlabel="speed error n* - n (r/min)", ylabel="dn/dt (r/min/s)", title="Speed phase plane")
    ax_e.legend()
    return fig


def plot_drive_windup(study):
    """Lab 07: no-load start with each anti-windup treatment of the regulators."""
    fig, ax = _figure()
    for i, (mode, entry) in enumerate(study.items()):
        result = entry["result"]
        ax.plot(result.t, result.n, label=f"{mode} (overshoot {entry['metrics']['overshoot']:.1f} %)", **_style(i))
    ax.set(xlabel="t (s)", ylabel="speed n (r/min)", title="Anti-windup of the PI regulators, no-load start")
    ax.legend()
    return fig


def plot_lugre_behaviours(data):
    """Lab 08: the classic LuGre behaviours: frictional lag loops, break-away force, stick-slip."""
    fig, (ax_lag, ax_break, ax_slip) = _figure(1, 3, figsize=(14, 4))
    lag = data["lag"]
    ax_lag.plot(lag["static_v"] * 1e3, lag["static_F"], color="black", linestyle=":", label="static curve")
    for i, (f, loop) in enumerate(lag["loops"].items()):
        ax_lag.plot(loop["v"] * 1e3, loop["F"], label=f"{f:g} Hz", **_style(i))
    ax_lag.set(xlabel="velocity v (mm/s)", ylabel="friction F (N)", title="Frictional lag")
    ax_lag.legend()
    breaks = data["break_away"]
    ax_break.semilogx(breaks["rates"], breaks["forces"], "ko-")
    ax_break.axhline(breaks["Fs"], color="gray", linestyle="--", label="Fs")
    ax_break.axhline(breaks["Fc"], color="gray", linestyle=":", label="Fc")
    ax_break.set(xlabel="rate of the applied force (N/s)", ylabel="break-away force (N)", title="Break-away force")
    ax_break.legend()
    slip = data["stick_slip"]["result"]
    ax_slip.plot(slip.t, slip.v, color="black")
    ax_slip.set(xlabel="t (s)", ylabel="block velocity v (m/s)", title="Stick-slip, k = 2 N/m, v_pull = 0.1 m/s")
    return fig


def plot_seed_sfunction(comparison):
    """Lab 08: the seed's S-function against the continuous model, for each initial state."""
    fig, (ax, ax_err) = _figure(1, 2, figsize=(11, 4))
    t = comparison["t"]
    ax.plot(t, comparison["F_continuous"], color="black", label="continuous model")
    for i, (x0, run) in enumerate(comparison["runs"].items(), start=1):
        ax.plot(t, run["F"], label=f"S-function, x0 = {list(x0)}", **_style(i))
        ax_err.semilogy(t, np.maximum(np.abs(run["F"] - comparison["F_continuous"]), 1e-12),
                        label=f"x0 = {list(x0)}", **_style(i))
    ax.set(xlabel="t (s)", ylabel="friction F (N)", title="Seed parameters, Ts = 1 ms")
    ax.legend()
    ax_err.set(xlabel="t (s)", ylabel="|F_S-function - F_continuous| (N)", title="Difference")
    ax_err.legend()
    return fig


def _cylinder_results(runs):
    return {name: (entry["result"] if isinstance(entry, dict) else entry) for name, entry in runs.items()}


def plot_cylinder_runs(runs, title=None):
    """Lab 09: position, chamber pressures and friction force of the cylinder, one line per model.

    ``runs`` maps a model name to a :class:`simlab.plants.pneumatic.CylinderResult` (or to a dict
    holding it under "result", as the lab's studies return).
    """
    results = _cylinder_results(runs)
    fig, (ax_x, ax_p, ax_F) = _figure(3, 1, figsize=(10, 8.5), sharex=True)
    for i, (name, r) in enumerate(results.items()):
        style = {"linestyle": LINE_STYLES[i % len(LINE_STYLES)][0]}
        ax_x.plot(r.t, r.x * 1e3, label=name, **style)
        line, = ax_p.plot(r.t, r.p1_gauge / 1e6, label=f"p1, {name}", **style)
        ax_p.plot(r.t, r.p2_gauge / 1e6, color=line.get_color(), linestyle=":", linewidth=1.0,
                  label=f"p2, {name}")
        chatter = {"linewidth": 0.5, "alpha": 0.45, "zorder": 1} if name == "SS" else {"linewidth": 1.5, "zorder": 2}
        ax_F.plot(r.t, r.F, label=name, **chatter, **style)
    ax_x.set(ylabel="position x (mm)", title=title or "Piston position, pressures and friction")
    ax_p.set(ylabel="gauge pressure (MPa)")
    ax_p.legend(loc="best", fontsize="small", ncol=2)
    ax_F.set(xlabel="t (s)", ylabel="friction force F_r (N)")
    for ax in (ax_x, ax_F):
        ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    return fig


def plot_hysteresis(z, F, title="Pre-sliding hysteresis with nonlocal memory"):
    """Lab 09: the hysteresis force F(z) along a scripted deflection history (z in micrometres)."""
    fig, (ax_t, ax_loop) = _figure(1, 2, figsize=(11, 4))
    ax_t.plot(np.arange(len(z)), np.asarray(z) * 1e6, color="black")
    ax_t.set(xlabel="sample", ylabel="deflection z (um)", title="Scripted history")
    ax_loop.plot(np.asarray(z) * 1e6, F, color="black")
    ax_loop.set(xlabel="deflection z (um)", ylabel="F(z) (N)", title=title)
    fig.tight_layout()
    return fig
