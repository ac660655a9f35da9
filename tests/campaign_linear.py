"""Specs of the bad-input campaign (tests/campaign.py): linear models, sampled data, delay.

simlab.lti (Padé included), simlab.similarity (``lsim(input_delay=)``), simlab.digital (``c2d``
with every method), simlab.sampled_data, simlab.delay, simlab.delay_approximation and
simlab.response. A reference ``r`` may be a number or a function ``r(t)``: the functions of
every other signature are tried on it.
"""

import numpy as np

from campaign import WRONG_SIGNATURE, Spec, is_finite_result
from simlab import delay, delay_approximation, digital, lti, response, sampled_data, similarity

A2 = [[0.0, 1.0], [-2.0, -3.0]]
B2 = [[0.0], [1.0]]
C2 = [[1.0, 0.0]]
T20 = np.linspace(0.0, 1.0, 21)
PI_CONTROLLER = digital.DigitalController.from_analog([1.0, 1.0], [1.0, 0.0], T=0.2)
SAMPLED_RUN = sampled_data.simulate_sampled(A2, B2, C2, 0.0, PI_CONTROLLER, t_end=1.0, N=2)
G1 = lti.TF([1.0], [1.0, 1.0])
#: A reference r(t) with the wrong signature (``lambda x: x`` is a valid r(t)).
WRONG_REFERENCE = [WRONG_SIGNATURE[count] for count in (0, 2, 4)]


def _settled_or_not(metrics):
    """step_metrics' result is finite, but for settling_time: NaN says "not settled" (documented)."""
    return is_finite_result((metrics.peak, metrics.t_peak, metrics.overshoot))


SPECS = [
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
         dict(num="coefficients", den="coefficients", tol="atol")),  # a relative distance, any size > 0
    Spec("lti.hankel_singular_values", lti.hankel_singular_values, dict(A=A2, B=B2, C=C2),
         dict(A="matrix", B="matrix", C="matrix"), extra=[("A", [[1.0, 0.0], [0.0, -1.0]])]),
    Spec("lti.balred", lti.balred, dict(A=A2, B=B2, C=C2, D=[[0.0]], order=1),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", order="int", method="choice"), extra=[("order", 3)],
         ok={"D": [None]}),
    Spec("lti.TF", lti.TF, dict(num=[1.0], den=[1.0, 1.0]), dict(num="coefficients", den="coefficients")),
    Spec("TF.feedback", G1.feedback, dict(other=2.0, sign=-1), dict(other="real", sign="int"),
         ok={"other": [[1.0, 2.0]]}),  # a list is the numerator of the other transfer function
    Spec("TF()", lambda s: G1(s), dict(s=[0.0, 1.0]), dict(s="points"), ok={"s": [[1j]]}),
    Spec("TF *", lambda other: G1 * other, dict(other=G1), dict(other="real"), ok={"other": [[1.0, 2.0]]}),
    Spec("TF +", lambda other: G1 + other, dict(other=G1), dict(other="real"), ok={"other": [[1.0, 2.0]]}),
    # dcgain of an integrator (a pole at s = 0) is infinite: refused, not inf (issue 23, item 4)
    Spec("TF.dcgain", lambda den: lti.TF([1.0], den).dcgain(), dict(den=[1.0, 1.0]), dict(den="coefficients"),
         extra=[("den", [1.0, 0.0])]),
    Spec("lti.pade", lti.pade, dict(tau=0.5, order=3), dict(tau="nonneg", order="posint"),
         extra=[("order", 11), ("tau", 1e-200)]),
    # similarity
    Spec("similarity.discretize", similarity.discretize, dict(A=A2, B=B2, T=0.1),
         dict(A="matrix", B="matrix", T="positive", hold="choice"), extra=[("A", [[1000.0]]), ("T", 1e300)]),
    # a system with no states: refused by discretize (issue 23, item 4)
    Spec("similarity.discretize empty", similarity.discretize, dict(A=[[-1.0]], B=[[1.0]], T=0.1), {},
         extra=[("A", np.zeros((0, 0)))]),
    Spec("similarity.discretize overflow", similarity.discretize, dict(A=[[-1.0]], B=[[1.0]], T=1.0), {},
         extra=[("A", [[1000.0]])]),
    *[Spec(f"similarity.{name}", getattr(similarity, name), dict(A=A2, B=B2, C=C2, D=[[0.0]], u=np.ones(21), t=T20),
           dict(A="matrix", B="matrix", C="matrix", D="matrix", u="vector", t="vector", hold="choice", x0="state"),
           extra=[("t", np.array([0.0, 0.1, 0.3])), ("u", np.ones(5)), ("A", [[1000.0, 0.0], [0.0, -1.0]])],
           ok={"D": [None], "x0": [None]})
      for name in ("lsim", "lsim_loop")],
    Spec("similarity.lsim input_delay", similarity.lsim,
         dict(A=A2, B=B2, C=C2, D=[[0.0]], u=np.ones(21), t=T20, input_delay=0.17),
         dict(input_delay="nonneg", u_before="vector", method="choice"),
         extra=[("u_before", [1.0, 2.0]), ("u_before", [[1.0]]), ("A", [[1000.0, 0.0], [0.0, -1.0]])]),
    # digital: c2d with every method
    *[Spec(f"digital.c2d {method}", digital.c2d, dict(num=[1.0, 2.0], den=[1.0, 3.0, 2.0], T=0.1, method=method),
           dict(num="coefficients", den="coefficients", T="positive", method="choice"),
           extra=[("num", [1.0, 2.0, 3.0, 4.0]), ("den", [0.0, 1.0, 2.0])], edge=[("T", 1e3)])
      for method in digital.C2D_METHODS],
    Spec("digital.c2d matched integrator", digital.c2d,
         dict(num=[1.0, 2.0], den=[1.0, 3.0, 0.0], T=0.1, method="matched"),
         dict(num="coefficients", den="coefficients", T="positive"), extra=[("den", [1.0, -10000.0])]),
    # a pole s = j maps onto z = 1 for T = 2 pi: the docstring promises an error (issue 23, item 4)
    Spec("digital.c2d matched onto z = 1", digital.c2d, dict(num=[1.0], den=[1.0, 0.0, 1.0], T=1.0, method="matched"),
         {}, extra=[("T", 2.0 * np.pi)]),
    Spec("digital.analog_pid", digital.analog_pid, dict(Kp=2.0, Ki=3.0, Kd=0.5, N=10.0),
         dict(Kp="real", Ki="real", Kd="real", N="positive"), ok={"N": [None]}, extra=[("N", None)]),
    Spec("digital.digital_pid", digital.digital_pid, dict(Kp=2.0, Ki=3.0, Kd=0.0, T=0.1),
         dict(Kp="real", Ki="real", Kd="real", T="positive", method="choice", N="positive"), ok={"N": [None]},
         extra=[("method", "zoh"), ("Kd", 1.0)]),
    Spec("digital.digital_pid matched", digital.digital_pid, dict(Kp=2.0, Ki=3.0, Kd=0.5, T=0.1, N=10.0,
                                                                    method="matched"),
         dict(Kp="real", Ki="real", Kd="real", T="positive", N="positive")),
    Spec("digital.DigitalController", digital.DigitalController, dict(numd=[3.0, -1.0], dend=[1.0, -1.0], T=0.5),
         dict(numd="coefficients", dend="coefficients", T="positive"),
         extra=[("dend", [0.0, 1.0]), ("numd", [1.0, 2.0, 3.0]), ("method", 3)]),
    Spec("DigitalController.from_analog", digital.DigitalController.from_analog,
         dict(num=[2.0, 4.0], den=[1.0, 0.0], T=0.5), dict(num="coefficients", den="coefficients", T="positive",
                                                           method="choice")),
    Spec("DifferenceEquation.step", lambda e: PI_CONTROLLER.start().step(e), dict(e=1.0), dict(e="real")),
    Spec("digital.DifferenceEquation", digital.DifferenceEquation, dict(controller=PI_CONTROLLER), {},
         extra=[("controller", [1.0, 2.0]), ("controller", None)]),
    # sampled-data loops (issue 16)
    Spec("sampled_data.simulate_sampled", sampled_data.simulate_sampled,
         dict(A=A2, B=B2, C=C2, D=0.0, controller=PI_CONTROLLER, t_end=1.0),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", t_end="positive", r="real", N="posint",
              plant_method="choice", x0="state"), ok={"D": [None], "x0": [None]},
         extra=[("controller", "pi"), ("D", [[1.0]]), ("r", lambda t: np.nan), ("N", 10**6), ("x0", [1.0, 2.0, 3.0]),
                ("B", [[1.0, 0.0], [0.0, 1.0]]), ("t_end", 1e12), *[("r", f) for f in WRONG_REFERENCE]]),
    Spec("sampled_data.simulate_sampled rk4", sampled_data.simulate_sampled,
         dict(A=A2, B=B2, C=C2, D=0.0, controller=PI_CONTROLLER, t_end=1.0, plant_method="rk4", x0=[0.0, 0.0]),
         dict(x0="state", N="posint"), ok={"x0": [None]}),
    Spec("sampled_data.discrete_closed_loop", sampled_data.discrete_closed_loop,
         dict(A=A2, B=B2, C=C2, D=0.0, controller=PI_CONTROLLER),
         dict(A="matrix", B="matrix", C="matrix", D="matrix"), ok={"D": [None]},
         extra=[("controller", None), ("D", [[2.0]]), ("C", [[1.0, 0.0], [0.0, 1.0]])]),
    Spec("DiscreteClosedLoop.response",
         lambda t_end, r=1.0, x0=None: sampled_data.discrete_closed_loop(A2, B2, C2, 0.0, PI_CONTROLLER).response(
             t_end, r, x0), dict(t_end=1.0), dict(t_end="positive", r="real", x0="state"), ok={"x0": [None]},
         extra=[("r", lambda t: "up"), ("x0", [1.0]), ("t_end", 1e12), *[("r", f) for f in WRONG_REFERENCE]]),
    Spec("DiscreteClosedLoop.response unstable",
         lambda t_end: sampled_data.discrete_closed_loop(A2, B2, C2, 0.0, digital.DigitalController([-40.0], [1.0], T=1.0))
         .response(t_end), dict(t_end=10.0), {}, extra=[("t_end", 1e4)]),
    Spec("sampled_data.stability_limit", sampled_data.stability_limit,
         dict(A=A2, B=B2, C=C2, D=0.0, num=[1.0, 1.0], den=[1.0, 0.0]),
         dict(A="matrix", B="matrix", C="matrix", D="matrix", num="coefficients", den="coefficients",
              method="choice", T_max="positive"), ok={"D": [None], "T_max": [None]},
         extra=[("num", [1.0, 100.0]), ("num", [1.0, 2.0, 3.0]), ("D", [[1.0]])]),
    Spec("sampled_data.intersample_ripple", sampled_data.intersample_ripple, dict(result=SAMPLED_RUN), {},
         extra=[("result", None), ("result", "run"), ("result", (1.0, 2.0))]),
    Spec("Ripple.largest_after", sampled_data.intersample_ripple(SAMPLED_RUN).largest_after, dict(t0=0.5),
         dict(t0="real")),
    # pure delay (issue 16)
    Spec("delay.split_delay", delay.split_delay, dict(tau=0.35, T=0.1), dict(tau="nonneg", T="positive"),
         extra=[("tau", 1e308)]),
    Spec("delay.discretize_delay", delay.discretize_delay, dict(A=A2, B=B2, T=0.1, tau=0.35),
         dict(A="matrix", B="matrix", T="positive", tau="nonneg", hold="choice"), extra=[("A", [[1000.0]])]),
    Spec("delay.as_delay", delay.as_delay, dict(tau=0.35), dict(tau="nonneg")),
    Spec("delay.DelayLine", delay.DelayLine, dict(tau=0.35, h=0.1), dict(tau="nonneg", h="positive", initial="real"),
         extra=[("tau", 1e10)]),
    Spec("DelayLine.step", lambda u: delay.DelayLine(0.35, 0.1).step(u), dict(u=0.3), dict(u="real")),
    Spec("DelayLine.push", lambda u: delay.DelayLine(0.35, 0.1).push(u), dict(u=0.3), dict(u="real")),
    Spec("DelayLine.reset", lambda initial: delay.DelayLine(0.35, 0.1).reset(initial), dict(initial=0.3),
         dict(initial="real"), ok={"initial": [None]}),
    Spec("DelayLine.response", lambda u: delay.DelayLine(0.35, 0.1).response(u), dict(u=[0.3, 1.0]),
         dict(u="vector"), ok={"u": [[]]}),
    Spec("delay_approximation.compare_pade", delay_approximation.compare_pade,
         dict(num=[1.0], den=[1.0, 1.0], tau=0.5, t=T20, orders=(1, 2)),
         dict(num="coefficients", den="coefficients", tau="positive", t="vector"),
         extra=[("orders", ()), ("orders", (1, 1)), ("orders", (0,)), ("orders", (11,)), ("orders", 2),
                ("orders", "12"), ("orders", (1.5,)), ("orders", None), ("num", [1.0, 2.0, 3.0]),
                ("t", np.array([0.0, 0.1, 0.3]))]),
    Spec("PadeComparison.order", delay_approximation.compare_pade([1.0], [1.0, 1.0], 0.5, T20, (1, 2)).order,
         dict(n=2), dict(n="posint"), extra=[("n", 3)], names={"n": ("n", "order")}),
    # response: a response that never leaves the band settled at t = 0 (issue 23, item 4)
    Spec("response.step_metrics", response.step_metrics, dict(t=T20, y=1 - np.exp(-5 * T20), final=1.0),
         dict(t="vector", y="vector", final="real"), extra=[("final", 0.0), ("y", np.ones(5))],
         result_ok=_settled_or_not),
    Spec("response.step_metrics flat", response.step_metrics, dict(t=[0.0, 1.0, 2.0], y=[0.5, 1.0, 1.0], final=1.0),
         {}, valid=[("y", [1.0, 1.0, 1.0])]),
]
