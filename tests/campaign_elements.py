"""Specs of the bad-input campaign (tests/campaign.py): structure graphs, elements, friction, plants, plots.

simlab.structure, simlab.elementwise, simlab.nonlinear, simlab.friction, simlab.revised_lugre,
simlab.plants and simlab.plotting. The plot helpers run with matplotlib's Agg backend and close
every figure they make.
"""

import functools

import numpy as np

from campaign import NAN, WRONG_SIGNATURE, Spec
from simlab import delay, elementwise, nonlinear, plotting, revised_lugre, stability, structure
from simlab.friction import block, models, sweep
from simlab.plants import dc_motor, pneumatic

LUGRE = models.LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4)
STATIC = models.StaticFriction(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4)
CURVE = revised_lugre.TransitionCurve(c=(6.0,), k=(2.5e4,))
RLG = revised_lugre.RevisedLuGre(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3,
                                 T=0.01, curve=CURVE)
CYL = pneumatic.CylinderParameters()
SEED_P = [[0.1, 1.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 2.0, 1.0]]
SEED_W = [[0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
SWEEP = sweep.spring_block_sweep(LUGRE, k=[2.0, 4.0], v_pull=0.1, m=1.0, t_end=0.01, h=1e-3)
GRID = stability.stability_grid("euler", n=11)
#: A simulator over t_span = (0, t_end) may name the span it builds: the message shows t_end in it.
T_END_IN_SPAN = {"t_end": ("t_end", "t_span")}
#: A force F(t) with the wrong signature (``lambda x: x`` is a valid F(t)).
WRONG_FORCE = [WRONG_SIGNATURE[count] for count in (0, 2, 4)]


def _memory():
    return revised_lugre.HysteresisMemory(CURVE, sigma0=5e4)


def _closing(function):
    """``function`` (a plot helper) that closes the figure it returns: the campaign makes hundreds."""

    @functools.wraps(function)
    def plot(*args, **kwargs):
        import matplotlib.pyplot as plt

        figure = function(*args, **kwargs)
        plt.close("all")
        return figure

    return plot


def _plotting_backend():
    import matplotlib

    matplotlib.use("Agg")


_plotting_backend()

SPECS = [
    # structure and elementwise
    *[Spec(f"structure.{name}", getattr(structure, name), dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0]),
           dict(P="matrix", W="matrix", W0="vector", Wc="vector"))
      for name in ("closed_loop", "input_derivative_gain")],
    Spec("structure.simulate", structure.simulate,
         dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0], r=10.0, t_span=(0.0, 1.0), h=0.1),
         dict(P="matrix", W="matrix", W0="vector", Wc="vector", r="real", t_span="span", h="positive",
              method="choice", seed_compatible="bool", x0="state"), ok={"x0": [None]},
         extra=[("r", "ten"), ("r", lambda t: float("nan")), ("x0", [1.0, 2.0]), *[("r", f) for f in WRONG_FORCE]]),
    Spec("elementwise.element_kind", elementwise.element_kind, dict(row=[1.0, 1.0, 1.0, 0.0]), dict(row="vector"),
         extra=[("row", [0.0, 0.0, 1.0, 0.0])]),
    Spec("elementwise.discretize_element", elementwise.discretize_element, dict(row=[1.0, 1.0, 1.0, 0.0], T=0.1),
         dict(row="vector", T="positive", hold="choice")),
    Spec("elementwise.simulate_elements", elementwise.simulate_elements,
         dict(P=SEED_P, W=SEED_W, W0=[1.0, 0.0, 0.0], Wc=[0.0, 0.0, 1.0], r=10.0, t_span=(0.0, 1.0), T=0.1),
         dict(P="matrix", W="matrix", W0="vector", Wc="vector", r="real", t_span="span", T="positive",
              hold="choice"),
         extra=[("nonlinear", [1]), ("nonlinear", {5: nonlinear.Saturation(1.0)}), ("r", "ten"),
                ("nonlinear", {(1, "input"): delay.DelayLine(0.3, 0.05)}), ("delays", [0.5]),
                ("delays", {(4, "input"): 0.5}), ("delays", {(1, "input"): -0.5}), ("delays", {(1, "input"): "0.5"}),
                ("delays", {(1, "output"): NAN}), ("delays", {(1, "input"): 1e9}), ("delays", {(1, "input"): 1e308}),
                *[("r", f) for f in WRONG_FORCE]]),
    # nonlinear elements
    Spec("nonlinear.Saturation", nonlinear.Saturation, dict(limit=1.0), dict(limit="positive", gain="real")),
    Spec("nonlinear.DeadZone", nonlinear.DeadZone, dict(width=0.5), dict(width="positive", gain="real")),
    Spec("nonlinear.Backlash", nonlinear.Backlash, dict(width=0.5), dict(width="positive", gain="real", y0="real")),
    Spec("nonlinear.Relay", nonlinear.Relay, dict(level=1.0),
         dict(level="positive", hysteresis="nonneg", dead_zone="nonneg", y0="real"), ok={"y0": [None]},
         extra=[("y0", 0.5)]),
    # an output the relay cannot have (issue 23, item 4): it switches between -level, 0 and level
    Spec("nonlinear.Relay hysteresis", nonlinear.Relay, dict(level=1.0, hysteresis=0.5), {}, extra=[("y0", 7.0)]),
    Spec("Saturation()", lambda u: nonlinear.Saturation(1.0)(u), dict(u=[0.5, 2.0]), dict(u="points")),
    Spec("DeadZone()", lambda u: nonlinear.DeadZone(0.5)(u), dict(u=[0.2, 2.0]), dict(u="points")),
    Spec("Backlash.step", lambda u: nonlinear.Backlash(0.5).step(u), dict(u=0.3), dict(u="real")),
    Spec("Backlash.reset", lambda y0: nonlinear.Backlash(0.5).reset(y0), dict(y0=0.1), dict(y0="real"),
         ok={"y0": [None]}),
    Spec("Backlash.response", lambda u: nonlinear.Backlash(0.5).response(u), dict(u=[0.3, 1.0]), dict(u="vector"),
         ok={"u": [[]]}),
    Spec("Relay.step", lambda u: nonlinear.Relay(1.0, hysteresis=0.2).step(u), dict(u=0.3), dict(u="real")),
    Spec("Relay.response", lambda u: nonlinear.Relay(1.0, hysteresis=0.2).response(u), dict(u=[0.3, -1.0]),
         dict(u="vector"), ok={"u": [[]]}),
    # friction
    Spec("friction.stribeck", models.stribeck, dict(v=0.1, Fc=1.0, Fs=1.5, vs=0.001),
         dict(v="points", Fc="nonneg", Fs="nonneg", vs="positive", n="positive")),
    Spec("friction.static_friction", models.static_friction, dict(v=0.1, Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4),
         dict(v="points", Fc="nonneg", Fs="nonneg", vs="positive", sigma2="nonneg", n="positive")),
    Spec("friction.StaticFriction", models.StaticFriction, dict(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4),
         dict(Fc="nonneg", Fs="nonneg", vs="positive", sigma2="nonneg", n="positive")),
    Spec("friction.LuGre", models.LuGre, dict(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4),
         dict(Fc="nonneg", Fs="nonneg", vs="positive", sigma0="positive", sigma1="nonneg", sigma2="nonneg", n="positive")),
    Spec("LuGre.g", LUGRE.g, dict(v=[0.1]), dict(v="points")),
    Spec("LuGre.z_ss", LUGRE.z_ss, dict(v=[0.1]), dict(v="points")),
    Spec("LuGre.steady_state_force", LUGRE.steady_state_force, dict(v=[0.1]), dict(v="points")),
    Spec("LuGre.zdot", LUGRE.zdot, dict(v=0.1, z=0.0), dict(v="points", z="points")),
    Spec("LuGre.force", LUGRE.force, dict(v=0.1, z=0.0), dict(v="points", z="points")),
    Spec("LuGre.check_passivity", LUGRE.check_passivity, dict(warn=False), dict(warn="bool")),
    Spec("LuGre.stepper", LUGRE.stepper, dict(method="implicit"), dict(method="choice")),
    Spec("LuGre.sfunction", LUGRE.sfunction, dict(v=[0.0, 1e-4], Ts=0.001),
         dict(v="vector", Ts="positive", x0="vector", allow_blowup="bool"), extra=[("Ts", 0.2)], ok={"v": [[]]}),
    Spec("LuGre.sfunction unstable", LUGRE.sfunction, dict(v=np.full(400, 0.1), Ts=1e-6), {}, extra=[("Ts", 1e-3)]),
    Spec("StaticFriction.force", STATIC.force, dict(v=0.1), dict(v="points")),
    Spec("StaticFriction.g", STATIC.g, dict(v=0.1), dict(v="points")),
    Spec("StaticFriction.steady_state_force", STATIC.steady_state_force, dict(v=0.1), dict(v="points")),
    Spec("StaticFriction.stepper", STATIC.stepper, dict(method="exponential"), dict(method="choice")),
    Spec("friction.bristle_step", models.bristle_step, dict(model=LUGRE, z=0.0, v=0.1, T=1e-3),
         dict(z="points", v="points", T="positive", method="choice"), extra=[("model", "LuGre")]),
    Spec("friction.spring_block", block.spring_block, dict(model=LUGRE, k=2.0, v_pull=0.1, m=1.0, t_end=0.1, h=1e-3),
         dict(k="positive", v_pull="real", m="positive", t_end="positive", h="positive", method="choice",
              x0="real", v0="real", z0="real"), extra=[("model", None)], names=T_END_IN_SPAN),
    Spec("friction.block_with_force", block.block_with_force,
         dict(model=LUGRE, force=lambda t: 0.5 * t, m=1.0, t_end=0.1, h=1e-3),
         dict(force="fn_t", m="positive", t_end="positive", h="positive", method="choice", x0="real", v0="real",
              z0="real"), names=T_END_IN_SPAN),
    Spec("friction.spring_block_sweep", sweep.spring_block_sweep,
         dict(model=LUGRE, k=[2.0, 4.0], v_pull=0.1, m=1.0, t_end=0.1, h=1e-3),
         dict(k="positive", v_pull="real", m="positive", t_end="positive", h="positive", method="choice",
              x0="real", v0="real", z0="real"),
         ok={"k": [[1.0, 2.0]], "v_pull": [[1.0, 2.0]], "m": [[1.0, 2.0]]},
         extra=[("model", None), ("record", ("x", "speed")), ("record", [])], names=T_END_IN_SPAN,
         valid=[("record", "x")]),  # one signal may be named by its string (documented)
    Spec("friction.block_with_force_sweep", sweep.block_with_force_sweep,
         dict(model=LUGRE, force=lambda t: 0.5 * t, m=[1.0, 2.0], t_end=0.1, h=1e-3),
         dict(force="fn_t", m="positive", t_end="positive", h="positive", method="choice", x0="real",
              v0="real", z0="real"), ok={"m": [[1.0, 2.0]]}, names=T_END_IN_SPAN),
    Spec("BlockSweep.run", lambda index: SWEEP.run(index), dict(index=1), dict(index="int"),
         extra=[("index", 2), ("index", -3)]),
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
    Spec("HysteresisMemory.reset", lambda z=0.0, F=0.0: _memory().reset(z=z, F=F), dict(z=0.0),
         dict(z="real", F="real")),
    Spec("HysteresisMemory.force", lambda z: _memory().force(z), dict(z=1e-5), dict(z="real")),
    Spec("HysteresisMemory.stiffness", lambda z: _memory().stiffness(z), dict(z=1e-5), dict(z="real")),
    Spec("HysteresisMemory.reserve", lambda steps: _memory().reserve(steps), dict(steps=10), dict(steps="posint")),
    Spec("revised_lugre.hysteresis_response", revised_lugre.hysteresis_response, dict(curve=CURVE, z=[0.0, 1e-5]),
         dict(z="vector"), extra=[("curve", "curve")]),
    Spec("revised_lugre.RevisedLuGre", revised_lugre.RevisedLuGre,
         dict(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3),
         dict(Fc="positive", Fs="positive", vs="positive", vb="positive", sigma0="positive", sigma1="nonneg",
              sigma2="nonneg", T="nonneg", tau_hp="positive", tau_hn="positive", tau_h0="positive", n="positive",
              film="bool", v_dwell="positive"), extra=[("curve", "curve")]),
    Spec("RevisedLuGre.g", RLG.g, dict(v=0.1, h=0.2), dict(v="points", h="points")),
    Spec("RevisedLuGre.h_ss", RLG.h_ss, dict(v=0.1), dict(v="points")),
    Spec("RevisedLuGre.tau_h", RLG.tau_h, dict(v=0.1, h=0.2, h_ss=0.5), dict(v="points", h="points", h_ss="points")),
    Spec("RevisedLuGre.steady_state_force", RLG.steady_state_force, dict(v=0.1), dict(v="points")),
    Spec("RevisedLuGre.force", lambda v: RLG.force(v, RLG.initial_state()), dict(v=0.1), dict(v="real")),
    Spec("RevisedLuGre.stepper", RLG.stepper, dict(method="exponential"), dict(method="choice")),
    Spec("revised_lugre.film_steady_state", revised_lugre.film_steady_state, dict(v=0.1, Fc=4.5, Fs=10.5, vb=0.05),
         dict(v="points", Fc="positive", Fs="positive", vb="positive")),
    Spec("revised_lugre.film_step", revised_lugre.film_step, dict(model=RLG, h=0.1, v=0.01, T=1e-3),
         dict(h="unit", v="real", T="positive"), extra=[("model", None)]),
    # plants: DC drive
    Spec("dc_motor.DriveParameters", dc_motor.DriveParameters, dict(), {},
         extra=[("UN", -1.0), ("R", NAN), ("Tm", "x"), ("overload", 0.0)], edge=[("R", 1e-320), ("UN", 1e308)]),
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
              acr_limit="bool"), extra=[("n_ref", "fast"), ("p", {})], names=T_END_IN_SPAN),
    Spec("dc_motor.linear_closed_loop", dc_motor.linear_closed_loop, dict(), {}, extra=[("p", 3), ("design", 3)]),
    Spec("dc_motor.structure_graph", dc_motor.structure_graph, dict(), {}, extra=[("p", 3), ("design", 3)]),
    # plants: pneumatic cylinder
    Spec("pneumatic.CylinderParameters", pneumatic.CylinderParameters, dict(), {},
         extra=[("D", -1.0), ("d", 0.05), ("un", 3.0), ("k", 1.0), ("M", NAN)], edge=[("M", 1e-320), ("L", 1e308)]),
    Spec("pneumatic.critical_pressure_ratio", pneumatic.critical_pressure_ratio, dict(k=1.4), dict(k="positive"),
         extra=[("k", 1.0)]),
    Spec("pneumatic.choked_flow_factor", pneumatic.choked_flow_factor, dict(k=1.4), dict(k="positive"),
         extra=[("k", 0.5)]),
    Spec("pneumatic.flow_factor", pneumatic.flow_factor, dict(r=0.5), dict(r="points", k="positive"),
         extra=[("r", -0.5), ("r", True)]),
    Spec("pneumatic.valve_mass_flow", pneumatic.valve_mass_flow, dict(u=3.0, p=2e5, params=CYL),
         dict(u="real", p="positive"), extra=[("u", 6.0), ("u", -1.0), ("params", None)]),
    Spec("pneumatic.chamber_volumes", pneumatic.chamber_volumes, dict(x=0.1, params=CYL), dict(x="points"),
         extra=[("x", -0.1), ("x", 0.5), ("params", None)]),
    Spec("pneumatic.pressure_rates", pneumatic.pressure_rates,
         dict(p1=2e5, p2=1.5e5, x=0.1, v=0.0, mdot1=0.0, mdot2=0.0, params=CYL),
         dict(p1="positive", p2="positive", x="real", v="real", mdot1="real", mdot2="real"), extra=[("params", None)]),
    Spec("pneumatic.simulate_cylinder", pneumatic.simulate_cylinder,
         dict(params=CYL, friction=LUGRE, u1=3.0, u2=2.0, t_end=0.01),
         dict(u1="real", u2="real", t_end="positive", h="positive", x0="real", v0="real", hold="bool"),
         extra=[("params", None), ("friction", "LG"), ("u1", 7.0), ("x0", 1.0), ("p10", -1.0)], names=T_END_IN_SPAN),
    # plot helpers (figures closed after each call)
    Spec("plotting.plot_element_outputs", _closing(plotting.plot_element_outputs),
         dict(t=[0.0, 0.5, 1.0], x=[[0.0, 1.0], [0.5, 1.5], [1.0, 2.0]]), dict(t="vector", x="matrix"),
         extra=[("x", [[1.0], [2.0]])]),
    Spec("plotting.plot_hysteresis", _closing(plotting.plot_hysteresis), dict(z=[0.0, 1e-5, 0.0], F=[0.0, 1.0, 0.0]),
         dict(z="vector", F="vector"), extra=[("F", [0.0, 1.0])]),
    Spec("plotting.plot_stability_regions", _closing(plotting.plot_stability_regions), dict(grids={"euler": GRID}), {},
         extra=[("grids", None), ("grids", [GRID]), ("grids", {"euler": None}), ("grids", {"euler": (1.0, 2.0)})]),
    Spec("plotting.plot_characteristics", _closing(plotting.plot_characteristics),
         dict(elements=[nonlinear.Saturation(1.0)]), {},
         extra=[("elements", []), ("elements", [1.0]), ("elements", "saturation"), ("elements", [None])]),
    Spec("plotting.line_style", plotting.line_style, dict(index=2), dict(index="int")),
    Spec("plotting.subplots", _closing(plotting.subplots), dict(nrows=1, ncols=2), {},
         extra=[("nrows", 0), ("nrows", "2"), ("ncols", 2.5), ("nrows", None)]),
]
