"""simlab: digital simulation of continuous control systems (控制系统数字仿真), for teaching.

The top level gathers the functions a lab uses most; each lives in a module named after the
concept of the course:

* :mod:`simlab.integrators`: Euler, improved Euler (Heun) and RK4, fixed step.
* :mod:`simlab.check`: the self-checks used in the lab notebooks.
* :mod:`simlab.experiments`: one function per lab experiment (used by notebooks and the CLI).
* :mod:`simlab.plotting`: figures; imports matplotlib only when called.

Importing simlab has no side effects: no plotting backend, no global settings.
"""

from simlab.integrators import (
    METHODS,
    NonFiniteStateError,
    Trajectory,
    euler,
    euler_step,
    heun,
    heun_step,
    integrate,
    rk4,
    rk4_step,
    time_grid,
)

__version__ = "0.1.0"

__all__ = [
    "METHODS",
    "NonFiniteStateError",
    "Trajectory",
    "euler",
    "euler_step",
    "heun",
    "heun_step",
    "integrate",
    "rk4",
    "rk4_step",
    "time_grid",
    "__version__",
]
