"""simlab: digital simulation of continuous control systems (控制系统数字仿真), for teaching.

The top level gathers the functions a lab uses most; each lives in a module named after the
concept of the course:

* :mod:`simlab.integrators`: Euler, improved Euler (Heun) and RK4, fixed step.
* :mod:`simlab.variable_step`: RKF45, variable step (变步长) with error control: ``rkf45``.
* :mod:`simlab.multistep`: Adams-Bashforth and the Adams-Bashforth-Moulton predictor-corrector
  (线性多步法): ``adams_bashforth``, ``adams_bashforth_moulton``.
* :mod:`simlab.realtime`: real-time algorithms (实时仿真算法: RTRK2, RTRK3, AB) in a frame loop
  with a sampled input: ``simulate_real_time``.
* :mod:`simlab.stability`: stability functions and regions, step limits, order fitting.
* :mod:`simlab.accuracy`: Richardson extrapolation (理查森外推) and the observed order of
  convergence from three runs: ``richardson``, ``richardson_error``, ``observed_order``.
* :mod:`simlab.implicit`: implicit methods for stiff (病态) systems: ``trapezoidal`` and ``bdf2``
  with Newton's iteration for nonlinear f, ``backward_euler_linear``.
* :mod:`simlab.lti`: transfer function, zero-pole-gain and state space; conversions,
  connections and model reduction (MATLAB-style names: ``tf2ss``, ``feedback``, ...).
* :mod:`simlab.similarity`: the discrete similarity method (离散相似法): ``discretize``,
  ``lsim``.
* :mod:`simlab.digital`: discrete transfer functions and digital controllers: ``c2d`` (zoh, foh,
  Tustin, matched pole-zero), ``digital_pid``, ``DigitalController`` (a difference equation).
* :mod:`simlab.sampled_data`: sampled-data loops (采样控制系统): ``simulate_sampled`` (multirate,
  zero-order hold), ``discrete_closed_loop`` (poles in z), ``stability_limit`` (in T).
* :mod:`simlab.delay`, :mod:`simlab.delay_approximation`: pure delay (纯延迟环节): the exact
  delayed recurrence behind ``lsim(..., input_delay=tau)``, the shift register ``DelayLine``,
  Padé approximants (``pade``) against the exact delay.
* :mod:`simlab.structure`: structure-graph simulation (面向结构图的仿真) with connection matrices.
* :mod:`simlab.elementwise`: per-element discrete similarity with nonlinear elements.
* :mod:`simlab.nonlinear`: saturation, dead zone, backlash, relay.
* :mod:`simlab.friction`, :mod:`simlab.revised_lugre`: friction models.
* :mod:`simlab.plants`: the case-study systems (DC drive, pneumatic cylinder).
* :mod:`simlab.plotting`: generic figure helpers; imports matplotlib only when called.

These form the library. The course layer, :mod:`simlab.course` (the labs' experiments,
self-checks and figures, the lab generator and the ``simlab`` command), is built on it; the
library never imports it.

Importing simlab has no side effects: no plotting backend, no global settings. The names of
the modules above that are re-exported here are imported on first use.
"""

import importlib

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

_LAZY = {
    "simlab.variable_step": ("rkf45", "VariableStepResult"),
    "simlab.multistep": ("adams_bashforth", "adams_bashforth_moulton"),
    "simlab.realtime": ("simulate_real_time",),
    "simlab.implicit": ("trapezoidal", "bdf2"),
    "simlab.lti": ("tf2ss", "ss2tf", "tf2zp", "zp2tf", "ss2zp", "zp2ss", "series", "parallel",
                   "feedback", "minreal", "balred", "hankel_singular_values", "TF", "pade"),
    "simlab.similarity": ("discretize", "lsim", "lsim_loop", "LinearResponse"),
    "simlab.digital": ("c2d", "digital_pid", "DigitalController"),
    "simlab.sampled_data": ("simulate_sampled", "discrete_closed_loop", "stability_limit", "intersample_ripple",
                            "SampledDataResult"),
    "simlab.structure": ("closed_loop",),
}
_LAZY_NAMES = {name: module for module, names in _LAZY.items() for name in names}

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
    *_LAZY_NAMES,
]


def __getattr__(name):
    """Import the module behind a re-exported name on first use (PEP 562)."""
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'simlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY_NAMES))
