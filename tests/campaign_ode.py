"""Specs of the bad-input campaign (tests/campaign.py): the ODE methods and their analysis.

simlab.integrators, simlab.variable_step, simlab.multistep, simlab.realtime, simlab.implicit,
simlab.stability and simlab.accuracy. Every callable argument has the kind of its call
(``fn_tx``: ``f(t, x)``), so that the wrong-signature functions are tried on it; relative
tolerances have the kind ``rtol`` (0, 1e-300, 1.0, 5, negative and NaN are refused).

The runaway runs of issue 23 are here as calls that must end within the spec's few seconds,
with an error that names the cause or a finite result: a stiff right-hand side and a
discontinuous one in rkf45, a NaN that f returns after the first step of the implicit methods.
"""

import numpy as np

from campaign import NAN, Spec, _shown
from simlab import accuracy, implicit, integrators, multistep, realtime, stability, variable_step

F = lambda t, x: -x  # noqa: E731 - a right-hand side for the integrators
STIFF = _shown("lambda t, x: -1e6 * (x - cos t)", lambda t, x: -1e6 * (x - np.cos(t)))
SWITCHING = _shown("lambda t, x: -sign(x - 0.5)", lambda t, x: -np.sign(x - 0.5))
NAN_AFTER_FIRST_STEP = _shown("f: NaN for t > 0.15", lambda t, x: x * NAN if t > 0.15 else -x)
#: Words that name the cause of a runaway run in a guard's message.
RUNAWAY = ("stiff", "implicit", "discontinuity", "discontinuous", "discontinuities")
RUNAWAY_LIMITS = dict(max_steps=20_000, max_time=2.0)

SPECS = [
    # integrators
    *[Spec(f"integrators.{name}", getattr(integrators, name), dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1),
           dict(f="fn_tx", t_span="span", x0="state", h="positive"), ok={"x0": [[1j]]},
           extra=[("h", 1e-9), ("f", lambda t, x: [x, x]), ("f", lambda t, x: "dx"), ("f", lambda t, x: np.nan * x),
                  ("f", lambda t, x: None), ("t_span", (1e16, 1e16 + 8.0))])
      for name in ("euler", "heun", "rk4")],
    Spec("integrators.euler unstable", integrators.euler, dict(f=lambda t, x: -1000 * x, t_span=(0.0, 10.0), x0=1.0,
                                                                h=0.001), {}, extra=[("h", 0.1)]),
    Spec("integrators.rk4 unstable", integrators.rk4,
         dict(f=lambda t, x: np.array([x[1], -1e6 * x[0] - 10.0 * x[1]]), t_span=(0.0, 1.0), x0=[1.0, 0.0], h=1e-4),
         {}, extra=[("h", 0.01)]),
    Spec("integrators.integrate", integrators.integrate, dict(f=F, t_span=(0.0, 1.0), x0=[1.0, 0.0], h=0.1, method="rk4"),
         dict(f="fn_tx", t_span="span", x0="state", h="positive", method="choice"), ok={"x0": [[1j]]}),
    *[Spec(f"integrators.{name}", getattr(integrators, name), dict(f=F, t=0.0, x=1.0, h=0.1),
           dict(f="fn_tx", t="real", x="state", h="positive"), ok={"x": [[1j]]},
           extra=[("f", lambda t, x: np.zeros(3)), ("f", lambda t, x: 1j * x), ("f", lambda t, x: np.nan),
                  ("f", lambda t, x: None), ("f", lambda t, x: "dx")])
      for name in ("euler_step", "heun_step", "rk4_step")],
    Spec("integrators.time_grid", integrators.time_grid, dict(t_span=(0.0, 1.0), h=0.25),
         dict(t_span="span", h="positive"), extra=[("h", 0.3), ("t_span", (1e16, 1e16 + 8.0)), ("h", 1e-10)]),
    # stability
    Spec("stability.stability_polynomial", stability.stability_polynomial, dict(method="rk4"), dict(method="choice")),
    Spec("stability.stability_function", stability.stability_function, dict(method="rk4", z=-1.0),
         dict(method="choice", z="points"), ok={"z": [[1j]]}),
    Spec("stability.real_stability_limit", stability.real_stability_limit, dict(method="heun"), dict(method="choice")),
    Spec("stability.max_stable_step", stability.max_stable_step, dict(eigenvalues=[-1.0, -10.0], method="rk4"),
         dict(eigenvalues="vector", method="choice", h_max="positive"),
         extra=[("eigenvalues", [1.0, -1.0]), ("h_max", 0.0)]),
    Spec("stability.stability_grid", stability.stability_grid, dict(method="euler", n=11),
         dict(method="choice", n="posint", re="span", im="span"),
         extra=[("re", (0.0, NAN)), ("im", "ab"), ("re", (1.0, 1.0)), ("n", 10**5)]),
    Spec("stability.fit_order", stability.fit_order, dict(hs=[0.1, 0.05], errors=[1e-2, 2.5e-3]),
         dict(hs="vector", errors="vector"), extra=[("errors", [1e-2, 0.0]), ("hs", [0.1, -0.05])]),
    *[Spec(f"stability.{name} multistep", getattr(stability, name), dict(method="abm4", z=-1.0),
           dict(method="choice", z="points"), ok={"z": [[1j]]}, extra=[("z", 1e300)])
      for name in ("characteristic_polynomial", "amplification_factor")],
    Spec("stability.boundary_locus", stability.boundary_locus, dict(method="ab2", n=11),
         dict(method="choice", n="posint"), extra=[("n", 10**6)]),
    Spec("stability.max_stable_step multistep", stability.max_stable_step, dict(eigenvalues=[-1.0], method="ab4"),
         dict(eigenvalues="vector", method="choice")),
    # accuracy (issue 16, lecture 08)
    *[Spec(f"accuracy.{name}", getattr(accuracy, name), dict(coarse=[1.0, 2.0], fine=[1.5, 2.5], order=2.0, ratio=2.0),
           dict(coarse="vector", fine="vector", order="positive", ratio="positive"),
           extra=[("fine", [1.0]), ("ratio", 1.0), ("order", 1e-14), ("order", 2000.0)])
      for name in ("richardson", "richardson_error")],
    Spec("accuracy.observed_order", accuracy.observed_order,
         dict(coarse=[1.0, 2.0], medium=[1.1, 2.1], fine=[1.12, 2.12], ratio=2.0),
         dict(coarse="vector", medium="vector", fine="vector", ratio="positive"),
         extra=[("fine", [1.1, 2.1]), ("medium", [1.0, 2.0]), ("fine", [1.0]), ("ratio", 1.0)]),
    # variable step (issue 16): tolerances at the edges, step sizes below the resolution of t
    Spec("variable_step.rkf45", variable_step.rkf45, dict(f=F, t_span=(0.0, 1.0), x0=1.0),
         dict(f="fn_tx", t_span="span", x0="state", rtol="rtol", atol="atol", h0="positive", h_max="positive",
              max_steps="posint", max_rejected="count", max_nfev="posint", max_time="positive"),
         ok={"h0": [None], "h_max": [None], "max_time": [None]},
         extra=[("f", lambda t, x: [x, x]), ("f", lambda t, x: "dx"), ("f", lambda t, x: np.nan * x),
                ("f", lambda t, x: None), ("t_span", (-1e308, 1e308)), ("x0", [1.0, np.nan])]),
    # runaway runs (issue 23, item 1): they end within the spec's few seconds, naming the cause
    # (with small limits, as every test of a runaway run: the defaults would let them run for seconds)
    Spec("variable_step.rkf45 stiff", variable_step.rkf45,
         dict(f=STIFF, t_span=(0.0, 1e-3), x0=0.0, **RUNAWAY_LIMITS), {},
         names={"t_span": ("t_span", *RUNAWAY)}, edge=[("t_span", (0.0, 20.0))]),
    Spec("variable_step.rkf45 discontinuous", variable_step.rkf45,
         dict(f=SWITCHING, t_span=(0.0, 0.4), x0=1.0, **RUNAWAY_LIMITS), {},
         names={"t_span": ("t_span", *RUNAWAY)}, edge=[("t_span", (0.0, 2.0))]),
    # multistep (issue 16)
    *[Spec(f"multistep.{name}", getattr(multistep, name), dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1, order=3),
           dict(f="fn_tx", t_span="span", x0="state", h="positive", order="posint"), ok={"x0": [[1j]]},
           extra=[("order", 5), ("h", 1e-9), ("h", 0.3), ("f", lambda t, x: [x, x]), ("f", lambda t, x: np.nan * x)])
      for name in ("adams_bashforth", "adams_bashforth_moulton")],
    Spec("multistep.adams_bashforth_moulton order", multistep.adams_bashforth_moulton,
         dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1), {}, extra=[("order", 1)]),
    Spec("multistep.adams_bashforth unstable", multistep.adams_bashforth,
         dict(f=lambda t, x: -10.0 * x, t_span=(0.0, 20.0), x0=1.0, h=0.01), {}, extra=[("h", 0.05)]),
    Spec("multistep.adams_coefficients", multistep.adams_coefficients, dict(order=3, implicit=False),
         dict(order="posint", implicit="bool"), extra=[("order", 5)]),
    # real-time algorithms (issue 16)
    Spec("realtime.simulate_real_time", realtime.simulate_real_time,
         dict(f=lambda t, x, u: -x + u, u=np.sin, t_span=(0.0, 1.0), x0=0.0, h=0.1),
         dict(f="fn_txu", u="fn_t", t_span="span", x0="state", h="positive", method="choice",
              samples_per_frame="posint", missing_input="choice"), ok={"samples_per_frame": [None]},
         extra=[("method", "rk4"), ("samples_per_frame", 3), ("samples_per_frame", 10**6),
                ("u", lambda t: np.nan), ("u", lambda t: "on"), ("f", lambda t, x, u: [x, u]), ("h", 1e-9)]),
    Spec("realtime.input_schedule", realtime.input_schedule, dict(method="rk4", samples_per_frame=2, missing_input="hold"),
         dict(method="choice", samples_per_frame="posint", missing_input="choice"), ok={"samples_per_frame": [None]},
         extra=[("missing_input", "error")]),
    # implicit: Newton's tolerance is relative (times max(1, |x|)): a relative tolerance's edges
    *[Spec(f"implicit.{name}", getattr(implicit, name), dict(f=F, t_span=(0.0, 1.0), x0=[1.0, 0.5], h=0.1),
           dict(f="fn_tx", t_span="span", x0="state", h="positive", tol="rtol", max_iter="posint", jac="fn_tx",
                max_time="positive"),
           ok={"jac": [None], "max_time": [None]},
           extra=[("h", 1e-9), ("h", 0.3), ("jac", lambda t, x: np.eye(3)), ("jac", lambda t, x: "J"),
                  ("f", lambda t, x: x[:1]), ("f", lambda t, x: np.nan * x), ("max_iter", 10**4),
                  ("f", NAN_AFTER_FIRST_STEP)])
      for name in ("trapezoidal", "bdf2")],
    Spec("implicit.backward_euler_linear", implicit.backward_euler_linear,
         dict(A=[[0.0, 1.0], [-2.0, -3.0]], B=[0.0, 1.0], u=1.0, t_span=(0.0, 1.0), x0=[0.0, 0.0], h=0.1),
         dict(A="matrix", B="vector", u="real", t_span="span", x0="vector", h="positive")),
]
