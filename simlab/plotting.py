"""Generic figure helpers. matplotlib is imported only when a function here is called.

Every notebook starts with :func:`use_course_style` so that all figures look alike; nothing is
changed globally by ``import simlab``. Lines differ in style and marker as well as in colour
(:func:`line_style`), so that a figure stays readable printed in black and white. The figures
of one lab live with that lab's experiment module in :mod:`simlab.course`; the helpers here
know nothing of labs.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "use_course_style",
    "LINE_STYLES",
    "subplots",
    "line_style",
    "plot_stability_regions",
    "plot_element_outputs",
    "plot_characteristics",
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


def subplots(nrows=1, ncols=1, **kwargs):
    """``matplotlib.pyplot.subplots``, imported on first use: returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, **kwargs)


def line_style(index):
    """Keyword arguments for ``ax.plot`` of the ``index``-th line: linestyle, marker, markevery.

    Cycles through :data:`LINE_STYLES`, so that lines differ in more than their colour.
    """
    linestyle, marker = LINE_STYLES[index % len(LINE_STYLES)]
    return {"linestyle": linestyle, "marker": marker, "markevery": 0.1 if marker else None}


def plot_stability_regions(grids):
    """Stability regions |R(h lambda)| <= 1 in the complex h-lambda plane, one contour per method.

    ``grids`` maps a method name to ``(x, y, |R|)`` as :func:`simlab.stability.stability_grid`
    returns it (for a multistep method |R| is the largest root of its stability polynomial).
    Used in lab02, lab05, lab10 and course/01.
    """
    from simlab.multistep import MULTISTEP_METHODS

    fig, ax = subplots(figsize=(6, 5))
    labels = {"euler": "Euler", "heun": "improved Euler", "rk4": "RK4", "rtrk2": "RTRK2", "rtrk3": "RTRK3",
              **{name: method.title for name, method in MULTISTEP_METHODS.items()}}
    for i, (name, (x, y, magnitude)) in enumerate(grids.items()):
        linestyle = LINE_STYLES[i % len(LINE_STYLES)][0]
        contour = ax.contour(x, y, magnitude, levels=[1.0], colors=[f"C{i}"], linestyles=[linestyle])
        ax.plot([], [], color=f"C{i}", linestyle=linestyle, label=labels.get(name, name))
        del contour
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set(xlabel=r"Re($h\lambda$)", ylabel=r"Im($h\lambda$)",
           title=r"Stability regions $|R(h\lambda)| \leq 1$")
    ax.set_aspect("equal")
    ax.legend(loc="upper left")
    return fig


def plot_element_outputs(t, x, title="Every element's output"):
    """Every element's output y_i(t) of a structure-graph simulation, one line per element.

    Parameters
    ----------
    t : array_like, shape (N + 1,)
    x : array_like, shape (N + 1, n)
        Element outputs, as :attr:`simlab.structure.StructureResult.x`.
    """
    x = np.asarray(x)
    fig, ax = subplots()
    for i in range(x.shape[1]):
        ax.plot(t, x[:, i], label=f"element {i + 1}", **line_style(i))
    ax.set(xlabel="t (s)", ylabel="element output y_i(t)", title=title)
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
    fig, axes = subplots(1, len(elements), figsize=(3.2 * len(elements), 3.2))
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


def plot_hysteresis(z, F, title="Pre-sliding hysteresis with nonlocal memory"):
    """The hysteresis force F(z) along a scripted deflection history z (m), drawn in micrometres.

    Used in lab09 and course/05 with :func:`simlab.revised_lugre.hysteresis_response`.
    """
    fig, (ax_t, ax_loop) = subplots(1, 2, figsize=(11, 4))
    ax_t.plot(np.arange(len(z)), np.asarray(z) * 1e6, color="black")
    ax_t.set(xlabel="sample", ylabel="deflection z (um)", title="Scripted history")
    ax_loop.plot(np.asarray(z) * 1e6, F, color="black")
    ax_loop.set(xlabel="deflection z (um)", ylabel="F(z) (N)", title=title)
    fig.tight_layout()
    return fig
