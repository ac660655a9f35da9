"""The bad-input campaign over the library's public callables (issue 14).

Every public function and method of the library is called once validly and then with each
argument replaced, one at a time, by each invalid value of its kind (tests/campaign.py). Each
invalid call must raise a TypeError or ValueError whose message names the argument; none may
return, hang, change its inputs or print. A summary test reports the counts by class.
"""

import collections

import numpy as np
import pytest

from campaign import NAN, Spec, run_spec
from simlab import implicit, integrators, lti, multistep, nonlinear, realtime, response, revised_lugre, similarity
from simlab import digital, stability, structure, variable_step
from simlab import sampled_data
from simlab import elementwise
from simlab import accuracy, delay, delay_approximation
from simlab.friction import block, models, sweep
from simlab.plants import dc_motor, pneumatic

F = lambda t, x: -x  # noqa: E731 - a right-hand side for the integrators
A2 = [[0.0, 1.0], [-2.0, -3.0]]
B2 = [[0.0], [1.0]]
C2 = [[1.0, 0.0]]
LUGRE = models.LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4)
STATIC = models.StaticFriction(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4)
CURVE = revised_lugre.TransitionCurve(c=(6.0,), k=(2.5e4,))
RLG = revised_lugre.RevisedLuGre(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3,
                                 T=0.01, curve=CURVE)
CYL = pneumatic.CylinderParameters()
SEED_P = [[0.1, 1.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 2.0, 1.0]]
SEED_W = [[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
T20 = np.linspace(0.0, 1.0, 21)
DESIGN = dc_motor.design_regulators()
PI_CONTROLLER = digital.DigitalController.from_analog([1.0, 1.0], [1.0, 0.0], T=0.2)
SAMPLED_RUN = sampled_data.simulate_sampled(A2, B2, C2, 0.0, PI_CONTROLLER, t_end=1.0, N=2)


def _memory():
    return revised_lugre.HysteresisMemory(CURVE, sigma0=5e4)


SPECS = [
    # integrators
    *[Spec(f"integrators.{name}", getattr(integrators, name), dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1),
           dict(f="callable", t_span="span", x0="state", h="positive"), ok={"x0": [[1j]]},
           extra=[("h", 1e-9), ("f", lambda t, x: [x, x]), ("f", lambda t, x: "dx"), ("f", lambda t, x: np.nan * x),
                  ("f", lambda t, x: None), ("t_span", (1e16, 1e16 + 8.0))])
      for name in ("euler", "heun", "rk4")],
    Spec("integrators.euler unstable", integrators.euler, dict(f=lambda t, x: -1000 * x, t_span=(0.0, 10.0), x0=1.0,
                                                                h=0.001), {}, extra=[("h", 0.1)]),
    Spec("integrators.rk4 unstable", integrators.rk4,
         dict(f=lambda t, x: np.array([x[1], -1e6 * x[0] - 10.0 * x[1]]), t_span=(0.0, 1.0), x0=[1.0, 0.0], h=1e-4),
         {}, extra=[("h", 0.01)]),
    Spec("integrators.integrate", integrators.integrate, dict(f=F, t_span=(0.0, 1.0), x0=[1.0, 0.0], h=0.1, method="rk4"),
         dict(f="callable", t_span="span", x0="state", h="positive", method="choice"), ok={"x0": [[1j]]}),
    *[Spec(f"integrators.{name}", getattr(integrators, name), dict(f=F, t=0.0, x=1.0, h=0.1),
           dict(f="callable", t="real", x="state", h="positive"), ok={"x": [[1j]]},
           extra=[("f", lambda t, x: np.zeros(3)), ("f", lambda t, x: 1j * x), ("f", lambda t, x: np.nan),
                  ("f", lambda t, x: None), ("f", lambda t, x: "dx")])
      for name in ("euler_step", "heun_step", "rk4_step")],
    Spec("integrators.time_grid", integrators.time_grid, dict(t_span=(0.0, 1.0), h=0.25),
         dict(t_span="span", h="positive"), extra=[("h", 0.3), ("t_span", (1e16, 1e16 + 8.0)), ("h", 1e-10)]),
    # stability
    Spec("stability.stability_polynomial", stability.stability_polynomial, dict(method="rk4"), dict(method="choice")),
    Spec("stability.stability_function", stability.stability_function, dict(method="rk4", z=-1.0),
         dict(method="choice", z="state"), ok={"z": [[1j]]}),
    Spec("stability.real_stability_limit", stability.real_stability_limit, dict(method="heun"), dict(method="choice")),
    Spec("stability.max_stable_step", stability.max_stable_step, dict(eigenvalues=[-1.0, -10.0], method="rk4"),
         dict(eigenvalues="vector", method="choice"), extra=[("eigenvalues", [1.0, -1.0]), ("h_max", 0.0)]),
    Spec("stability.stability_grid", stability.stability_grid, dict(method="euler", n=11),
         dict(method="choice", n="posint"), extra=[("re", (0.0, NAN)), ("im", "ab"), ("re", (1.0, 1.0)), ("n", 10**5)]),
    Spec("stability.fit_order", stability.fit_order, dict(hs=[0.1, 0.05], errors=[1e-2, 2.5e-3]),
         dict(hs="vector", errors="vector"), extra=[("errors", [1e-2, 0.0]), ("hs", [0.1, -0.05])]),
    # accuracy (issue 16, lecture 08)
    *[Spec(f"accuracy.{name}", getattr(accuracy, name), dict(coarse=[1.0, 2.0], fine=[1.5, 2.5], order=2.0, ratio=2.0),
           dict(coarse="vector", fine="vector", order="positive", ratio="positive"),
           extra=[("fine", [1.0]), ("ratio", 1.0), ("order", 1e-14)])
      for name in ("richardson", "richardson_error")],
    Spec("accuracy.observed_order", accuracy.observed_order,
         dict(coarse=[1.0, 2.0], medium=[1.1, 2.1], fine=[1.12, 2.12], ratio=2.0),
         dict(coarse="vector", medium="vector", fine="vector", ratio="positive"),
         extra=[("fine", [1.1, 2.1]), ("medium", [1.0, 2.0]), ("fine", [1.0]), ("ratio", 1.0)]),
    # variable step and multistep (issue 16)
    Spec("variable_step.rkf45", variable_step.rkf45, dict(f=F, t_span=(0.0, 1.0), x0=1.0),
         dict(f="callable", t_span="span", x0="state", rtol="positive", atol="positive", h0="positive",
              h_max="positive"), ok={"h0": [None], "h_max": [None]},
         extra=[("f", lambda t, x: [x, x]), ("f", lambda t, x: "dx"), ("f", lambda t, x: np.nan * x),
                ("f", lambda t, x: None), ("t_span", (-1e308, 1e308)), ("x0", [1.0, np.nan])]),
    *[Spec(f"multistep.{name}", getattr(multistep, name), dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1, order=3),
           dict(f="callable", t_span="span", x0="state", h="positive", order="posint"), ok={"x0": [[1j]]},
           extra=[("order", 5), ("h", 1e-9), ("h", 0.3), ("f", lambda t, x: [x, x]), ("f", lambda t, x: np.nan * x)])
      for name in ("adams_bashforth", "adams_bashforth_moulton")],
    Spec("multistep.adams_bashforth_moulton order", multistep.adams_bashforth_moulton,
         dict(f=F, t_span=(0.0, 1.0), x0=1.0, h=0.1), {}, extra=[("order", 1)]),
    Spec("multistep.adams_bashforth unstable", multistep.adams_bashforth,
         dict(f=lambda t, x: -10.0 * x, t_span=(0.0, 20.0), x0=1.0, h=0.01), {}, extra=[("h", 0.05)]),
    Spec("multistep.adams_coefficients", multistep.adams_coefficients, dict(order=3, implicit=False),
         dict(order="posint", implicit="bool"), extra=[("order", 5)]),
    *[Spec(f"stability.{name} multistep", getattr(stability, name), dict(method="abm4", z=-1.0),
           dict(method="choice", z="state"), ok={"z": [[1j]]}, extra=[("z", 1e300)])
      for name in ("characteristic_polynomial", "amplification_factor")],
    Spec("stability.boundary_locus", stability.boundary_locus, dict(method="ab2", n=11),
         dict(method="choice", n="posint"), extra=[("n", 10**6)]),
    Spec("stability.max_stable_step multistep", stability.max_stable_step, dict(eigenvalues=[-1.0], method="ab4"),
         dict(eigenvalues="vector", method="choice")),
    # real-time algorithms (issue 16)
    Spec("realtime.simulate_real_time", realtime.simulate_real_time,
         dict(f=lambda t, x, u: -x + u, u=np.sin, t_span=(0.0, 1.0), x0=0.0, h=0.1),
         dict(f="callable", u="callable", t_span="span", x0="state", h="positive", method="choice",
              samples_per_frame="posint", missing_input="choice"), ok={"samples_per_frame": [None]},
         extra=[("method", "rk4"), ("samples_per_frame", 3), ("samples_per_frame", 10**6),
                ("u", lambda t: np.nan), ("u", lambda t: "on"), ("f", lambda t, x, u: [x, u]), ("h", 1e-9)]),
    Spec("realtime.input_schedule", realtime.input_schedule, dict(method="rk4", samples_per_frame=2, missing_input="hold"),
         dict(method="choice", samples_per_frame="posint", missing_input="choice"), ok={"samples_per_frame": [None]},
         extra=[("missing_input", "error")]),
    # implicit
    *[Spec(f"implicit.{name}", getattr(implicit, name), dict(f=F, t_span=(0.0, 1.0), x0=[1.0, 0.5], h=0.1),
           dict(f="callable", t_span="span", x0="state", h="positive", tol="positive", max_iter="posint",
                jac="callable"), ok={"jac": [None]},
           extra=[("h", 1e-9), ("h", 0.3), ("jac", lambda t, x: np.eye(3)), ("jac", lambda t, x: "J"),
                  ("f", lambda t, x: x[:1]), ("f", lambda t, x: np.nan * x), ("max_iter", 10**4)])
      for name in ("trapezoidal", "bdf2")],
    Spec("implicit.backward_euler_linear", implicit.backward_euler_linear,
         dict(A=A2, B=[0.0, 1.0], u=1.0, t_span=(0.0, 1.0), x0=[0.0, 0.0], h=0.1),
         dict(A="matrix", B="vector", u="real", t_span="span", x0="vector", h="positive")),
    # lti
    Spec("lti.tf2ss", lti.tf2ss, dict(num=[1.0, 2.0], den=[1.0, 3.0, 2.0]), dict(num="coefficients", den="coefficients"),
         extra=[("den", [0.0, 0.0]), ("num", [1.0, 2.0, 3.0, 4.0])]),
    Spec("lti.ss2tf", lti.ss2tf, dict(A=A2, B=B2, C=C2, D=[[0.0]]), dict(A="matrix", B="matrix", C="matrix", D="matrix"),
         ok={"D": [None]},
         extra=[("B", [[1.0], [2.0], [3.0]])]),
    Spec("lti.tf2zp", lti.tf2zp, dict(num=[1.0, 2.0], den=[1.0, 3.0, 2.0]), dict(num="coefficients", den="coefficients")),
    Spec("lti.zp2tf", lti.zp2tf, dict(z=[-2.0], p=[-1.0, -3.0], k=2.0), dict(z="vector", p="vector", k="real"),
         ok={"z": [[]]}),
    Spec("lti.ss2zp", lti.ss2zp, dict(A=A2, B=B2, C=C2, D=[[0.0]]), dict(A="matrix", B="matrix", C="matrix", D="matrix"),
         ok={"D": [None]}),
    Spec("lti.zp2ss", lti.zp2ss, dict(z=[-2.0], p=[-1.0, -3.0], k=2.0), dict(z="vector", p="vector", k="real"),
         ok={"z": [[]]}),
    *[Spec(f"lti.{name}", getattr(lti, name), dict(num1=[1.0], den1=[1.0, 1.0], num2=[2.0], den2=[1.0, 2.0]),
           dict(num1="coefficients", den1="coefficients", num2="coefficients", den2="coefficients"),
           extra=[("den1", [1e-320, 1.0])])
      for name in ("series", "parallel", "feedback")],
    *[Spec(f"lti.{name} overflow", getattr(lti, name), dict(num1=[1.0], den1=[1.0], num2=[1e200], den2=[1.0]), {},
           extra=[("num1", [1e200])])
      for name in ("series", "feedback")],
    Spec("lti.tf2ss tiny", lti.tf2ss, dict(num=[1.0, 2.0], den=[1.0, 1.0]), {}, extra=[("den", [1e-320, 1.0])]),
    Spec("lti.feedback sign", lti.feedback, dict(num1=[1.0], den1=[1.0, 1.0], num2=[2.0], den2=[1.0, 2.0], sign=-1),
         dict(sign="int"), extra=[("sign", 0), ("sign", 2)]),
    Spec("lti.minreal", lti.minreal, dict(num=[1.0, 1.0], den=[1.0, 3.0, 2.0]),
         dict(num="coefficients", den="coefficients", tol="positive")),
    Spec("lti.hankel_singular_values", lti.hankel_singular_values, dict(A=A2, B=B2, C=C2),
         dict(A="matrix", B="matrix", C="matrix"), extra=[("A", [[1.0, 0.0], [0.0, -1.0]])]),
    Spec("lti.balred", lti.balred, dict(A=A2, B=B2, C=C2, D=[[0.0]], order=1),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", order="int", method="choice"), extra=[("order", 3)],
         ok={"D": [None]}),
    Spec("lti.TF", lti.TF, dict(num=[1.0], den=[1.0, 1.0]), dict(num="coefficients", den="coefficients")),
    # similarity
    Spec("similarity.discretize", similarity.discretize, dict(A=A2, B=B2, T=0.1),
         dict(A="matrix", B="matrix", T="positive", hold="choice"), extra=[("A", [[1000.0]]), ("T", 1e300)]),
    *[Spec(f"similarity.{name}", getattr(similarity, name), dict(A=A2, B=B2, C=C2, D=[[0.0]], u=np.ones(21), t=T20),
           dict(A="matrix", B="matrix", C="matrix", D="matrix", u="vector", t="vector", hold="choice", x0="state"),
           extra=[("t", np.array([0.0, 0.1, 0.3])), ("u", np.ones(5)), ("A", [[1000.0, 0.0], [0.0, -1.0]])],
           ok={"D": [None], "x0": [None]})
      for name in ("lsim", "lsim_loop")],
    Spec("similarity.lsim input_delay", similarity.lsim,
         dict(A=A2, B=B2, C=C2, D=[[0.0]], u=np.ones(21), t=T20, input_delay=0.17),
         dict(input_delay="nonneg", u_before="vector"), extra=[("u_before", [1.0, 2.0]), ("u_before", [[1.0]]),
                                                               ("A", [[1000.0, 0.0], [0.0, -1.0]])]),
    Spec("digital.c2d", digital.c2d, dict(num=[1.0], den=[1.0, 1.0], T=0.1),
         dict(num="coefficients", den="coefficients", T="positive", method="choice")),
    # digital controllers and sampled-data loops (issue 16)
    Spec("digital.analog_pid", digital.analog_pid, dict(Kp=2.0, Ki=3.0, Kd=0.5, N=10.0),
         dict(Kp="real", Ki="real", Kd="real", N="positive"), ok={"N": [None]}, extra=[("N", None)]),
    Spec("digital.digital_pid", digital.digital_pid, dict(Kp=2.0, Ki=3.0, Kd=0.0, T=0.1),
         dict(Kp="real", Ki="real", Kd="real", T="positive", method="choice", N="positive"), ok={"N": [None]},
         extra=[("method", "zoh"), ("Kd", 1.0)]),
    Spec("digital.c2d matched", digital.c2d, dict(num=[1.0, 2.0], den=[1.0, 3.0, 0.0], T=0.1, method="matched"),
         dict(num="coefficients", den="coefficients", T="positive"), extra=[("den", [1.0, -10000.0])]),
    Spec("digital.DigitalController", digital.DigitalController, dict(numd=[3.0, -1.0], dend=[1.0, -1.0], T=0.5),
         dict(numd="coefficients", dend="coefficients", T="positive"),
         extra=[("dend", [0.0, 1.0]), ("numd", [1.0, 2.0, 3.0]), ("method", 3)]),
    Spec("DigitalController.from_analog", digital.DigitalController.from_analog,
         dict(num=[2.0, 4.0], den=[1.0, 0.0], T=0.5), dict(num="coefficients", den="coefficients", T="positive",
                                                           method="choice")),
    Spec("DifferenceEquation.step", lambda e: PI_CONTROLLER.start().step(e), dict(e=1.0), dict(e="real")),
    Spec("digital.DifferenceEquation", digital.DifferenceEquation, dict(controller=PI_CONTROLLER), {},
         extra=[("controller", [1.0, 2.0]), ("controller", None)]),
    Spec("sampled_data.simulate_sampled", sampled_data.simulate_sampled,
         dict(A=A2, B=B2, C=C2, D=0.0, controller=PI_CONTROLLER, t_end=1.0),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", t_end="positive", r="real", N="posint",
              plant_method="choice", x0="state"), ok={"D": [None], "x0": [None]},
         extra=[("controller", "pi"), ("D", [[1.0]]), ("r", lambda t: np.nan), ("N", 10**6), ("x0", [1.0, 2.0, 3.0]),
                ("B", [[1.0, 0.0], [0.0, 1.0]]), ("t_end", 1e12)]),
    Spec("sampled_data.discrete_closed_loop", sampled_data.discrete_closed_loop,
         dict(A=A2, B=B2, C=C2, D=0.0, controller=PI_CONTROLLER),
         dict(A="matrix", B="matrix", C="matrix", D="matrix"), ok={"D": [None]},
         extra=[("controller", None), ("D", [[2.0]]), ("C", [[1.0, 0.0], [0.0, 1.0]])]),
    Spec("DiscreteClosedLoop.response",
         lambda t_end, r=1.0, x0=None: sampled_data.discrete_closed_loop(A2, B2, C2, 0.0, PI_CONTROLLER).response(
             t_end, r, x0), dict(t_end=1.0), dict(t_end="positive", r="real", x0="state"), ok={"x0": [None]},
         extra=[("r", lambda t: "up"), ("x0", [1.0]), ("t_end", 1e12)]),
    Spec("DiscreteClosedLoop.response unstable",
         lambda t_end: sampled_data.discrete_closed_loop(A2, B2, C2, 0.0, digital.DigitalController([-40.0], [1.0], T=1.0))
         .response(t_end), dict(t_end=10.0), {}, extra=[("t_end", 1e4)]),
    Spec("sampled_data.stability_limit", sampled_data.stability_limit,
         dict(A=A2, B=B2, C=C2, D=0.0, num=[1.0, 1.0], den=[1.0, 0.0]),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", num="coefficients", den="coefficients",
              method="choice", T_max="positive"), ok={"D": [None], "T_max": [None]},
         extra=[("num", [1.0, 100.0]), ("num", [1.0, 2.0, 3.0]), ("D", [[1.0]])]),
    Spec("sampled_data.intersample_ripple", sampled_data.intersample_ripple, dict(result=SAMPLED_RUN), {},
         extra=[("result", None), ("result", "run")]),
    Spec("Ripple.largest_after", sampled_data.intersample_ripple(SAMPLED_RUN).largest_after, dict(t0=0.5),
         dict(t0="real")),
    Spec("similarity.discretize overflow", similarity.discretize, dict(A=[[-1.0]], B=[[1.0]], T=1.0), {},
         extra=[("A", [[1000.0]])]),
    # structure and elementwise
    *[Spec(f"structure.{name}", getattr(structure, name), dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0]),
           dict(P="matrix", W="matrix", W0="vector", Wc="vector"))
      for name in ("closed_loop", "input_derivative_gain")],
    Spec("structure.simulate", structure.simulate,
         dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0], r=10.0, t_span=(0.0, 1.0), h=0.1),
         dict(P="matrix", W="matrix", W0="vector", Wc="vector", t_span="span", h="positive", method="choice",
              seed_compatible="bool", x0="state"), ok={"x0": [None]},
         extra=[("r", "ten"), ("r", NAN), ("r", lambda t: float("nan")), ("x0", [1.0, 2.0])]),
    Spec("elementwise.element_kind", elementwise.element_kind, dict(row=[1.0, 1.0, 1.0, 0.0]), dict(row="vector"),
         extra=[("row", [0.0, 0.0, 1.0, 0.0])]),
    Spec("elementwise.discretize_element", elementwise.discretize_element, dict(row=[1.0, 1.0, 1.0, 0.0], T=0.1),
         dict(row="vector", T="positive", hold="choice")),
    Spec("elementwise.simulate_elements", elementwise.simulate_elements,
         dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0], r=10.0, t_span=(0.0, 1.0), T=0.1),
         dict(P="matrix", W="matrix", W0="vector", Wc="vector", t_span="span", T="positive", hold="choice"),
         extra=[("nonlinear", [1]), ("nonlinear", {5: nonlinear.Saturation(1.0)}), ("r", "ten"),
                ("nonlinear", {(1, "input"): delay.DelayLine(0.3, 0.05)}), ("delays", [0.5]),
                ("delays", {(4, "input"): 0.5}), ("delays", {(1, "input"): -0.5}), ("delays", {(1, "input"): "0.5"}),
                ("delays", {(1, "output"): NAN}), ("delays", {(1, "input"): 1e9})]),
    # pure delay (issue 16)
    Spec("delay.split_delay", delay.split_delay, dict(tau=0.35, T=0.1), dict(tau="nonneg", T="positive")),
    Spec("delay.discretize_delay", delay.discretize_delay, dict(A=A2, B=B2, T=0.1, tau=0.35),
         dict(A="matrix", B="matrix", T="positive", tau="nonneg", hold="choice"), extra=[("A", [[1000.0]])]),
    Spec("delay.DelayLine", delay.DelayLine, dict(tau=0.35, h=0.1), dict(tau="nonneg", h="positive", initial="real"),
         extra=[("tau", 1e10)]),
    Spec("DelayLine.step", lambda u: delay.DelayLine(0.35, 0.1).step(u), dict(u=0.3), dict(u="real")),
    Spec("DelayLine.push", lambda u: delay.DelayLine(0.35, 0.1).push(u), dict(u=0.3), dict(u="real")),
    Spec("DelayLine.reset", lambda initial: delay.DelayLine(0.35, 0.1).reset(initial), dict(initial=0.3),
         dict(initial="real"), ok={"initial": [None]}),
    Spec("DelayLine.response", lambda u: delay.DelayLine(0.35, 0.1).response(u), dict(u=[0.3, 1.0]),
         dict(u="vector"), ok={"u": [[]]}),
    Spec("lti.pade", lti.pade, dict(tau=0.5, order=3), dict(tau="nonneg", order="posint"),
         extra=[("order", 11), ("tau", 1e-200)]),
    Spec("delay_approximation.compare_pade", delay_approximation.compare_pade,
         dict(num=[1.0], den=[1.0, 1.0], tau=0.5, t=T20, orders=(1, 2)),
         dict(num="coefficients", den="coefficients", tau="positive", t="vector"),
         extra=[("orders", ()), ("orders", (1, 1)), ("orders", (0,)), ("orders", (11,)), ("orders", 2),
                ("orders", "12"), ("orders", (1.5,)), ("orders", None), ("num", [1.0, 2.0, 3.0]),
                ("t", np.array([0.0, 0.1, 0.3]))]),
    # nonlinear elements
    Spec("nonlinear.Saturation", nonlinear.Saturation, dict(limit=1.0), dict(limit="positive", gain="real")),
    Spec("nonlinear.DeadZone", nonlinear.DeadZone, dict(width=0.5), dict(width="positive", gain="real")),
    Spec("nonlinear.Backlash", nonlinear.Backlash, dict(width=0.5), dict(width="positive", gain="real", y0="real")),
    Spec("nonlinear.Relay", nonlinear.Relay, dict(level=1.0), dict(level="positive", hysteresis="nonneg", dead_zone="nonneg")),
    Spec("Saturation()", lambda u: nonlinear.Saturation(1.0)(u), dict(u=[0.5, 2.0]), dict(u="state")),
    Spec("Backlash.step", lambda u: nonlinear.Backlash(0.5).step(u), dict(u=0.3), dict(u="real")),
    Spec("Backlash.response", lambda u: nonlinear.Backlash(0.5).response(u), dict(u=[0.3, 1.0]), dict(u="vector"),
         ok={"u": [[]]}),
    Spec("Relay.response", lambda u: nonlinear.Relay(1.0, hysteresis=0.2).response(u), dict(u=[0.3, -1.0]),
         dict(u="vector"), ok={"u": [[]]}),
    # friction
    Spec("friction.stribeck", models.stribeck, dict(v=0.1, Fc=1.0, Fs=1.5, vs=0.001),
         dict(v="state", Fc="nonneg", Fs="nonneg", vs="positive", n="positive")),
    Spec("friction.static_friction", models.static_friction, dict(v=0.1, Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4),
         dict(v="state", Fc="nonneg", Fs="nonneg", vs="positive", sigma2="nonneg", n="positive")),
    Spec("friction.StaticFriction", models.StaticFriction, dict(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4),
         dict(Fc="nonneg", Fs="nonneg", vs="positive", sigma2="nonneg", n="positive")),
    Spec("friction.LuGre", models.LuGre, dict(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4),
         dict(Fc="nonneg", Fs="nonneg", vs="positive", sigma0="positive", sigma1="nonneg", sigma2="nonneg", n="positive")),
    Spec("LuGre.g", LUGRE.g, dict(v=[0.1]), dict(v="state")),
    Spec("LuGre.zdot", LUGRE.zdot, dict(v=0.1, z=0.0), dict(v="state", z="state")),
    Spec("LuGre.force", LUGRE.force, dict(v=0.1, z=0.0), dict(v="state", z="state")),
    Spec("LuGre.stepper", LUGRE.stepper, dict(method="implicit"), dict(method="choice")),
    Spec("LuGre.sfunction", LUGRE.sfunction, dict(v=[0.0, 1e-4], Ts=0.001),
         dict(v="vector", Ts="positive", x0="vector"), extra=[("Ts", 0.2)], ok={"v": [[]]}),
    Spec("LuGre.sfunction unstable", LUGRE.sfunction, dict(v=np.full(400, 0.1), Ts=1e-6), {}, extra=[("Ts", 1e-3)]),
    Spec("StaticFriction.force", STATIC.force, dict(v=0.1), dict(v="state")),
    Spec("friction.bristle_step", models.bristle_step, dict(model=LUGRE, z=0.0, v=0.1, T=1e-3),
         dict(z="state", v="state", T="positive", method="choice"), extra=[("model", "LuGre")]),
    Spec("friction.spring_block", block.spring_block, dict(model=LUGRE, k=2.0, v_pull=0.1, m=1.0, t_end=0.1, h=1e-3),
         dict(k="positive", v_pull="real", m="positive", t_end="positive", h="positive", method="choice",
              x0="real", v0="real", z0="real"), extra=[("model", None)]),
    Spec("friction.block_with_force", block.block_with_force,
         dict(model=LUGRE, force=lambda t: 0.5 * t, m=1.0, t_end=0.1, h=1e-3),
         dict(force="callable", m="positive", t_end="positive", h="positive", method="choice", x0="real", v0="real",
              z0="real")),
    Spec("friction.spring_block_sweep", sweep.spring_block_sweep,
         dict(model=LUGRE, k=[2.0, 4.0], v_pull=0.1, m=1.0, t_end=0.1, h=1e-3),
         dict(k="positive", v_pull="real", m="positive", t_end="positive", h="positive", method="choice",
              x0="real", v0="real", z0="real"),
         ok={"k": [[1.0, 2.0]], "v_pull": [[1.0, 2.0]], "m": [[1.0, 2.0]]}, extra=[("model", None)]),
    Spec("friction.block_with_force_sweep", sweep.block_with_force_sweep,
         dict(model=LUGRE, force=lambda t: 0.5 * t, m=[1.0, 2.0], t_end=0.1, h=1e-3),
         dict(force="callable", m="positive", t_end="positive", h="positive", method="choice", x0="real",
              v0="real", z0="real"), ok={"m": [[1.0, 2.0]]}),
    Spec("friction.velocity_response", block.velocity_response, dict(model=LUGRE, v=[0.0, 0.1, 0.1], T=1e-3),
         dict(v="vector", T="positive", method="choice", z0="real")),
    # revised LuGre
    Spec("revised_lugre.TransitionCurve", revised_lugre.TransitionCurve, dict(c=(6.0,), k=(2.5e4,)),
         dict(c="vector", k="vector"), extra=[("lengths", (1e-4,)), ("lengths", "ab")]),
    Spec("TransitionCurve.rise", CURVE.rise, dict(s=1e-4), dict(s="real")),
    Spec("TransitionCurve.slope", CURVE.slope, dict(s=1e-4), dict(s="real")),
    Spec("revised_lugre.HysteresisMemory", revised_lugre.HysteresisMemory, dict(curve=CURVE, sigma0=5e4),
         dict(sigma0="positive"), extra=[("curve", None), ("sigma0", 1e9)], ok={"sigma0": [None]}),
    Spec("HysteresisMemory.move", lambda z: _memory().move(z), dict(z=1e-5), dict(z="real")),
    Spec("HysteresisMemory.turn", lambda d: _memory().turn(d), dict(d=1), dict(d="real")),
    Spec("HysteresisMemory.reset", lambda z: _memory().reset(z=z), dict(z=0.0), dict(z="real")),
    Spec("revised_lugre.hysteresis_response", revised_lugre.hysteresis_response, dict(curve=CURVE, z=[0.0, 1e-5]),
         dict(z="vector"), extra=[("curve", "curve")]),
    Spec("revised_lugre.RevisedLuGre", revised_lugre.RevisedLuGre,
         dict(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3),
         dict(Fc="positive", Fs="positive", vs="positive", vb="positive", sigma0="positive", sigma1="nonneg",
              sigma2="nonneg", T="nonneg", tau_hp="positive", tau_hn="positive", tau_h0="positive", n="positive",
              film="bool", v_dwell="positive"), extra=[("curve", "curve")]),
    Spec("RevisedLuGre.g", RLG.g, dict(v=0.1, h=0.2), dict(v="state", h="state")),
    Spec("RevisedLuGre.h_ss", RLG.h_ss, dict(v=0.1), dict(v="state")),
    Spec("RevisedLuGre.steady_state_force", RLG.steady_state_force, dict(v=0.1), dict(v="state")),
    Spec("RevisedLuGre.force", lambda v: RLG.force(v, RLG.initial_state()), dict(v=0.1), dict(v="real")),
    Spec("revised_lugre.film_steady_state", revised_lugre.film_steady_state, dict(v=0.1, Fc=4.5, Fs=10.5, vb=0.05),
         dict(v="state", Fc="positive", Fs="positive", vb="positive")),
    Spec("revised_lugre.film_step", revised_lugre.film_step, dict(model=RLG, h=0.1, v=0.01, T=1e-3),
         dict(h="unit", v="real", T="positive"), extra=[("model", None)]),
    # plants: DC drive
    Spec("dc_motor.DriveParameters", dc_motor.DriveParameters, dict(), {},
         extra=[("UN", -1.0), ("R", NAN), ("Tm", "x"), ("overload", 0.0)]),
    Spec("dc_motor.design_regulators", dc_motor.design_regulators, dict(), dict(h="positive"),
         extra=[("p", "params"), ("h", 1.0)]),
    Spec("dc_motor.type2_disturbance_peak", dc_motor.type2_disturbance_peak, dict(h=5.0), dict(h="positive"),
         extra=[("h", 1.0)]),
    Spec("dc_motor.type2_step_overshoot", dc_motor.type2_step_overshoot, dict(h=5.0), dict(h="positive"),
         extra=[("h", 1.0)]),
    Spec("dc_motor.predicted_speed_overshoot", dc_motor.predicted_speed_overshoot, dict(), dict(z="nonneg"),
         extra=[("p", 1), ("design", "d")]),
    Spec("dc_motor.simulate_drive unstable", dc_motor.simulate_drive, dict(t_end=0.2, h=1e-4), {},
         extra=[("h", 0.01)]),
    Spec("dc_motor.simulate_drive", dc_motor.simulate_drive, dict(t_end=0.01, h=1e-4),
         dict(t_end="positive", h="positive", load="real", grid="real", anti_windup="choice", asr_limit="bool",
              acr_limit="bool"), extra=[("n_ref", "fast"), ("p", {})]),
    Spec("dc_motor.linear_closed_loop", dc_motor.linear_closed_loop, dict(), {}, extra=[("p", 3), ("design", 3)]),
    Spec("dc_motor.structure_graph", dc_motor.structure_graph, dict(), {}, extra=[("p", 3), ("design", 3)]),
    # plants: pneumatic cylinder
    Spec("pneumatic.CylinderParameters", pneumatic.CylinderParameters, dict(), {},
         extra=[("D", -1.0), ("d", 0.05), ("un", 3.0), ("k", 1.0), ("M", NAN)]),
    Spec("pneumatic.critical_pressure_ratio", pneumatic.critical_pressure_ratio, dict(k=1.4), dict(k="positive"),
         extra=[("k", 1.0)]),
    Spec("pneumatic.choked_flow_factor", pneumatic.choked_flow_factor, dict(k=1.4), dict(k="positive"),
         extra=[("k", 0.5)]),
    Spec("pneumatic.flow_factor", pneumatic.flow_factor, dict(r=0.5), dict(r="state", k="positive"),
         extra=[("r", -0.5), ("r", True)]),
    Spec("pneumatic.valve_mass_flow", pneumatic.valve_mass_flow, dict(u=3.0, p=2e5, params=CYL),
         dict(u="real", p="positive"), extra=[("u", 6.0), ("u", -1.0), ("params", None)]),
    Spec("pneumatic.chamber_volumes", pneumatic.chamber_volumes, dict(x=0.1, params=CYL), dict(x="state"),
         extra=[("x", -0.1), ("x", 0.5), ("params", None)]),
    Spec("pneumatic.pressure_rates", pneumatic.pressure_rates,
         dict(p1=2e5, p2=1.5e5, x=0.1, v=0.0, mdot1=0.0, mdot2=0.0, params=CYL),
         dict(p1="positive", p2="positive", x="real", v="real", mdot1="real", mdot2="real"), extra=[("params", None)]),
    Spec("pneumatic.simulate_cylinder", pneumatic.simulate_cylinder,
         dict(params=CYL, friction=LUGRE, u1=3.0, u2=2.0, t_end=0.01),
         dict(u1="real", u2="real", t_end="positive", h="positive", x0="real", v0="real", hold="bool"),
         extra=[("params", None), ("friction", "LG"), ("u1", 7.0), ("x0", 1.0), ("p10", -1.0)]),
    # response
    Spec("response.step_metrics", response.step_metrics, dict(t=T20, y=1 - np.exp(-5 * T20), final=1.0),
         dict(t="vector", y="vector", final="real"), extra=[("final", 0.0), ("y", np.ones(5))]),
]

pytestmark = pytest.mark.filterwarnings("ignore")
RESULTS = {}


def _outcomes(spec):
    if spec.label not in RESULTS:
        RESULTS[spec.label] = run_spec(spec)
    return RESULTS[spec.label]


@pytest.mark.parametrize("spec", SPECS, ids=[spec.label for spec in SPECS])
def test_every_invalid_call_gets_a_clear_error(spec):
    bad = [o for o in _outcomes(spec) if o.status != "clear"]
    assert not bad, "\n".join(f"{o.status}: {o.argument} = {o.value}: {o.detail}" for o in bad)


def test_campaign_size_and_outcome_by_class():
    counts = collections.Counter(o.status for spec in SPECS for o in _outcomes(spec))
    total = sum(counts.values())
    print(f"\nbad-input campaign: {total} invalid calls over {len(SPECS)} callables: {dict(counts)}")
    assert total >= 900
    assert counts["clear"] / total >= 0.99
    assert counts["silent"] == counts["hang"] == counts["mutated"] == counts["printed"] == 0
