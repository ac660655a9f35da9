"""The course layer: the labs' experiments, their self-checks and figures, and the course tools.

Everything here is teaching material built on the library; the library (every other module of
simlab) never imports it. The layer holds

* one module per lab (``lab01_euler_rk4``, ``lab02_step_size``, ...) with the computations of
  the lab's experiments, its self-checks (``check_*``), its figures (``plot_*``) and ``run()``,
  which performs the whole lab headless and returns an :class:`ExperimentResult`;
* :mod:`simlab.course.systems`, the systems several labs share (the seed's RK4 closed loop, the
  four-element loop); a lab module never imports another lab's module;
* :mod:`simlab.course.check`, the self-check machinery;
* :mod:`simlab.course.labtools`, which generates the student labs from the solutions, and
  :mod:`simlab.course.cli`, the ``simlab`` command.

The registry :data:`EXPERIMENTS` maps a short name (``"lab01"``) to its :class:`Experiment`.
Lab modules are imported when first used, so ``import simlab.course`` stays cheap.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

__all__ = ["Figure", "Experiment", "ExperimentResult", "EXPERIMENTS", "get"]


class Figure(NamedTuple):
    """A figure of a lab: ``draw(data)`` returns it; ``simlab run`` saves it as ``<stem>.png``."""

    stem: str
    draw: Callable[[Any], Any]
    data: Any


@dataclass(frozen=True)
class ExperimentResult:
    """What a lab's ``run()`` returns.

    Attributes
    ----------
    summary : tuple of (str, str)
        Key numbers as (quantity, formatted value) rows, printed by ``simlab run``.
    figures : tuple of Figure
        The lab's figures, each drawn by a function of the lab module from its data.
    data : object
        Everything the lab computed: the lab's own results dataclass (typed fields), for
        notebooks and tests.
    """

    summary: tuple = ()
    figures: tuple = ()
    data: Any = None

    def __post_init__(self):
        object.__setattr__(self, "summary", tuple(tuple(row) for row in self.summary))
        object.__setattr__(self, "figures", tuple(Figure(*figure) for figure in self.figures))


@dataclass(frozen=True)
class Experiment:
    """A lab's experiments: registry entry."""

    name: str
    module: str
    title: str

    def load(self):
        """Import and return the experiment module."""
        return importlib.import_module(f"simlab.course.{self.module}")

    def run(self) -> ExperimentResult:
        """Run every experiment of the lab headless."""
        return self.load().run()


EXPERIMENTS = {
    experiment.name: experiment
    for experiment in (
        Experiment("lab01", "lab01_euler_rk4", "Euler, improved Euler and RK4 on y' = t + y"),
        Experiment("lab02", "lab02_step_size", "Step size: accuracy, cost and stability"),
        Experiment("lab03", "lab03_models", "Model forms, conversions, connections and reduction"),
        Experiment("lab04", "lab04_discrete_similarity", "Discrete similarity: Phi(T), m(T), holds, versus RK4"),
        Experiment("lab05", "lab05_structure_graph", "Structure-graph simulation with connection matrices"),
        Experiment("lab06", "lab06_nonlinear_elements", "Nonlinear elements by per-element discrete similarity"),
        Experiment("lab07", "lab07_dc_motor", "The double-loop DC motor speed drive"),
        Experiment("lab08", "lab08_lugre", "LuGre friction: the seed's S-function and a stable discretization"),
        Experiment("lab09", "lab09_pneumatic_friction", "Friction models in an electro-pneumatic servo cylinder"),
        Experiment("lab10", "lab10_variable_step_real_time", "Variable step, multistep and real-time algorithms"),
        Experiment("lab11", "lab11_delay_sampled_data", "Pure delay and sampled-data control systems"),
    )
}


def get(name: str) -> Experiment:
    """Return the experiment called ``name``.

    ``name`` is ``"lab01"``, its number ``"01"`` (or ``"1"``), the module name
    ``"lab01_euler_rk4"`` or its notebook's file name (``"labs/lab01_euler_rk4.ipynb"``).
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string such as 'lab01', got {type(name).__name__}.")
    key = name.strip()
    if key.endswith(".ipynb"):
        key = key.replace("\\", "/").rsplit("/", 1)[-1][: -len(".ipynb")]
    if key.isdigit():
        key = f"lab{int(key):02d}"
    for experiment in EXPERIMENTS.values():
        if key in (experiment.name, experiment.module):
            return experiment
    raise ValueError(
        f"no experiment called {name!r}; available: {', '.join(EXPERIMENTS)} (see `simlab list`)."
    )
