"""The case-study plants' loops as kernels (simlab.jit): the same numbers compiled or not, and the
numbers of the reference paths.

* The DC drive (lab07): the kernel loop against simlab.rk4 on the nine equations typed here from
  the module docstring (the oracle: the scalar code of the drive before it became a kernel), to
  the last bit; a run that goes wrong raises what simlab.rk4 raises.
* The pneumatic cylinder (lab09): the kernel loop against the four steps of its docstring typed
  here as a scalar loop over the public per-step functions and each model's stepper (the loop
  before it became a kernel), to the last bit, for every friction model; the errors of bad
  inputs and of a state that goes wrong, in the order the loop meets them.

Each kernel also runs twice in one process, compiled and as the plain function, to 1e-12.
(With SIMLAB_JIT=0 the whole file runs the plain functions.)
"""

import math

import numpy as np
import pytest

from simlab import jit
from simlab.course import lab09_pneumatic_friction as lab09
from simlab.guards import NonFiniteStateError
from simlab.integrators import rk4
from simlab.plants import dc_motor
from simlab.plants import dc_motor_kernels as drive_kernels
from simlab.plants import pneumatic_kernels as cylinder_kernels
from simlab.plants.dc_motor import DriveParameters, design_regulators, simulate_drive
from simlab.plants.pneumatic import CylinderParameters, chamber_volumes, pressure_rates, simulate_cylinder, valve_mass_flow
from simlab.revised_lugre import RevisedLuGre
from simlab.revised_lugre_kernels import revised_lugre_step

# ---------------------------------------------------------------------------------------------
# The DC drive
# ---------------------------------------------------------------------------------------------

P = DriveParameters()
DESIGN = design_regulators(P)


def _typed_drive_rhs(p, d, n_star, load, grid, anti_windup, Uim, Ucm):
    """Oracle: the drive's nine equations, scalar Python with the limits as None (the code of
    simulate_drive before its kernels)."""

    def pi_output(gain, integral, error, limit):
        v = gain * error + integral
        return v, (min(max(v, -limit), limit) if limit is not None else v)

    def integrator_rate(gain, tau, error, v, u, integral, limit):
        rate = gain / tau * error
        if anti_windup == "analog":
            if limit is not None and abs(integral) >= limit and integral * rate > 0:
                return 0.0
            return rate
        if u == v or anti_windup == "none":
            return rate
        if anti_windup == "clamping":
            return 0.0 if error * v > 0 else rate
        return rate + (u - v) / tau

    k_mech = p.R / (p.Ce * p.Tm)

    def f(t, x):
        x_rn, x_fn, I_n, x_ri, x_fi, I_i, Ud0, Id, n = x
        e_n, e_i = x_rn - x_fn, x_ri - x_fi
        v_n, Ui = pi_output(d.Kn, I_n, e_n, Uim)
        v_i, Uc = pi_output(d.Ki, I_i, e_i, Ucm)
        return np.array([
            (p.alpha * n_star(t) - x_rn) / p.Ton,
            (p.alpha * n - x_fn) / p.Ton,
            integrator_rate(d.Kn, d.tau_n, e_n, v_n, Ui, I_n, Uim),
            (Ui - x_ri) / p.Toi,
            (p.beta * Id - x_fi) / p.Toi,
            integrator_rate(d.Ki, d.tau_i, e_i, v_i, Uc, I_i, Ucm),
            (p.Ks * Uc - Ud0) / p.Ts,
            ((Ud0 + grid(t) - p.Ce * n) / p.R - Id) / p.Tl,
            k_mech * (Id - load(t)),
        ])

    return f


DRIVE_RUNS = {
    "analog start": dict(t_end=0.3),
    "no windup treatment": dict(t_end=0.3, anti_windup="none"),
    "clamping, no ACR limit": dict(t_end=0.2, anti_windup="clamping", acr_limit=False),
    "back-calculation, signals of t": dict(t_end=0.2, h=1e-4, anti_windup="back-calculation",
                                           n_ref=lambda t: 1000.0 * math.sin(20.0 * t),
                                           load=lambda t: 136.0 if t >= 0.1 else 0, grid=lambda t: -3.0 * t),
    "no limits, small step": dict(t_end=0.1, n_ref=10.0, asr_limit=False, acr_limit=False),
}


def _as_function(value):
    return value if callable(value) else (lambda t: float(value))


@pytest.mark.parametrize("name", DRIVE_RUNS)
def test_drive_kernel_loop_is_simlab_rk4_on_the_typed_equations_to_the_last_bit(name):
    kwargs = {"h": 5e-5, "anti_windup": "analog", "asr_limit": True, "acr_limit": True, "n_ref": P.nN,
              "load": 0.0, "grid": 0.0, **DRIVE_RUNS[name]}
    result = simulate_drive(P, DESIGN, **kwargs)
    Uim = P.Uim if kwargs["asr_limit"] else None
    Ucm = P.Ucm if kwargs["acr_limit"] else None
    f = _typed_drive_rhs(P, DESIGN, _as_function(kwargs["n_ref"]), _as_function(kwargs["load"]),
                         _as_function(kwargs["grid"]), kwargs["anti_windup"], Uim, Ucm)
    reference = rk4(f, (0.0, kwargs["t_end"]), np.zeros(9), kwargs["h"])
    np.testing.assert_array_equal(result.t, reference.t)
    np.testing.assert_array_equal(result.states, reference.x)
    x = reference.x
    Ui = np.clip(DESIGN.Kn * (x[:, 0] - x[:, 1]) + x[:, 2], -(Uim or np.inf), Uim or np.inf)
    Uc = np.clip(DESIGN.Ki * (x[:, 3] - x[:, 4]) + x[:, 5], -(Ucm or np.inf), Ucm or np.inf)
    np.testing.assert_array_equal(result.Ui_ref, Ui)
    np.testing.assert_array_equal(result.Uc, Uc)


def test_drive_rates_kernel_is_the_typed_right_hand_side():
    rng = np.random.default_rng(7)
    for anti_windup in dc_motor.ANTI_WINDUP:
        for Uim, Ucm in ((P.Uim, P.Ucm), (None, P.Ucm), (P.Uim, None), (0.0, 0.0)):
            typed = _typed_drive_rhs(P, DESIGN, lambda t: 1460.0, lambda t: 50.0, lambda t: -2.0, anti_windup, Uim, Ucm)
            kernel = dc_motor._drive_rhs(P, DESIGN, lambda t: 1460.0, lambda t: 50.0, lambda t: -2.0, anti_windup, Uim, Ucm)
            for _ in range(50):
                x = rng.normal(0.0, 1.0, 9) * [10, 10, 12, 10, 10, 12, 200, 200, 1500]
                np.testing.assert_array_equal(kernel(0.0, x), typed(0.0, x))


def test_drive_rk4_compiled_gives_the_plain_function_numbers():
    N, h = 2000, 5e-5
    plant, regulators = drive_kernels.drive_constants(P, DESIGN, P.Uim, P.Ucm)
    inputs = [np.full((N, 3), P.nN), np.full((N, 3), 30.0), np.zeros((N, 3))]
    for mode in drive_kernels.ANTI_WINDUP_CODES.values():
        plain = drive_kernels.drive_rk4(np.zeros(9), h, *inputs, plant, regulators, mode)
        fast = jit.compiled(drive_kernels.drive_rk4)(np.zeros(9), h, *inputs, plant, regulators, mode)
        assert fast[3] == plain[3] == N + 1
        for a, b in zip(fast[:3], plain[:3]):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.max(np.abs(b)))


def _error_of(call):
    with pytest.raises(Exception) as info:
        call()
    error = info.value
    return type(error), str(error), getattr(error, "step", None), getattr(error, "t", None), getattr(error, "h", None)


@pytest.mark.parametrize("n_ref, load", [
    (lambda t: float("nan") if t > 0.005 else 1460.0, 0.0),  # a state becomes NaN at step 51
    (1460.0, lambda t: float("nan")),  # NaN at the start: ValueError from simlab.rk4's first call
    (lambda t: 1e308 if t > 0.003 else 0.0, 0.0),  # overflow to inf
    (lambda t: 1.0 + 1j, 0.0),  # complex values: rk4's TypeError
    (lambda t: "1460", 0.0),  # not a number
])
def test_a_drive_run_that_goes_wrong_raises_what_simlab_rk4_raises(n_ref, load):
    f = _typed_drive_rhs(P, DESIGN, n_ref if callable(n_ref) else (lambda t: n_ref),
                         load if callable(load) else (lambda t: load), lambda t: 0.0, "analog", P.Uim, P.Ucm)
    expected = _error_of(lambda: rk4(f, (0.0, 0.01), np.zeros(9), 1e-4))
    assert _error_of(lambda: simulate_drive(P, DESIGN, t_end=0.01, h=1e-4, n_ref=n_ref, load=load)) == expected


def test_a_non_finite_drive_state_is_the_non_finite_state_error_with_its_fields():
    with pytest.raises(NonFiniteStateError) as error:
        simulate_drive(t_end=0.01, h=1e-4, n_ref=lambda t: float("nan") if t > 0.005 else 1460.0)
    assert (error.value.method, error.value.step, error.value.steps) == ("rk4", 51, 100)
    assert error.value.t == pytest.approx(0.0051) and error.value.h == pytest.approx(1e-4)


# ---------------------------------------------------------------------------------------------
# The pneumatic cylinder
# ---------------------------------------------------------------------------------------------

CYLINDER = lab09.cylinder_parameters()
MODELS = {**lab09.friction_models(), "none": None,
          "RLG without curve": RevisedLuGre(Fc=4.5, Fs=10.5, vs=0.01, vb=0.02, sigma0=5e4, sigma1=30.0, sigma2=46.0,
                                            T=0.01, tau_hp=0.03, tau_hn=0.3, tau_h0=2.0, v_dwell=5e-3)}


def _typed_cylinder_loop(P, friction, u1, u2, t_end, h, x0, v0=0.0, p10=None, p20=None, hold=False):
    """Oracle: the four steps of simulate_cylinder's docstring as a scalar Python loop over the
    public per-step functions and the model's stepper (the loop before it became a kernel)."""
    u1, u2 = (u if callable(u) else (lambda t, value=u: value) for u in (u1, u2))
    t = h * np.arange(math.ceil(t_end / h - 1e-9) + 1)
    step = (lambda state, v, h: (None, 0.0, 0.0)) if friction is None else friction.stepper("exponential")
    state = None if friction is None else friction.initial_state()
    lead = 0.0 if friction is None else friction.lead_mass
    RT = P.R * P.Ts
    x, v = x0, (0.0 if hold else v0)
    p1, p2 = (P.patm if p10 is None else p10), (P.patm if p20 is None else p20)
    V1, V2 = chamber_volumes(x, P)
    m1, m2 = p1 * V1 / RT, p2 * V2 / RT
    rows = []

    def rates(p1, p2, x, v, ua, ub):
        md1, md2 = valve_mass_flow(ua, p1, P), valve_mass_flow(ub, p2, P)
        return (md1, md2) + pressure_rates(p1, p2, x, v, md1, md2, P)

    def corrector(p, dp, dp_next, m, md, md_next, V_next):
        p_next, m_next, mdot = p + 0.5 * h * (dp + dp_next), m + 0.5 * h * (md + md_next), md + md_next
        for bound, leaving in ((P.patm, mdot < 0.0 and p_next < P.patm <= p), (P.ps, mdot > 0.0 and p_next > P.ps >= p)):
            if leaving:
                return bound, m_next + V_next * (bound - p_next) / (P.k * RT)
        return p_next, m_next

    F_out = 0.0
    for i in range(len(t)):
        z = 0.0 if friction is None else friction.deflection(state)
        film = 0.0 if friction is None else friction.film_thickness(state)
        ua, ub = u1(t[i]), u2(t[i])
        if i == len(t) - 1:
            rows.append((x, v, p1, p2, F_out, z, film, m1, m2, ua, ub))
            break
        md1, md2, dp1, dp2 = rates(p1, p2, x, v, ua, ub)
        p1p, p2p = max(p1 + h * dp1, 1.0), max(p2 + h * dp2, 1.0)
        drive = (0.5 * (p1 + p1p) - P.patm) * P.A1 - (0.5 * (p2 + p2p) - P.patm) * P.A2
        state, F_step, _ = step(state, v, h)
        acc = (drive - F_step) / (P.M + lead)
        if hold:
            x_next, v_next, stopped = x, 0.0, True
        else:
            v_next = v + h * acc
            x_next, stopped = x + 0.5 * h * (v + v_next), False
            if x_next <= 0.0 and v_next <= 0.0:
                x_next, v_next, stopped = 0.0, 0.0, True
            elif x_next >= P.L and v_next >= 0.0:
                x_next, v_next, stopped = P.L, 0.0, True
        F_out = F_step if stopped else F_step + lead * acc
        rows.append((x, v, p1, p2, F_out, z, film, m1, m2, ua, ub))
        md1c, md2c, dp1c, dp2c = rates(p1p, p2p, x_next, v_next, u1(t[i + 1]), u2(t[i + 1]))
        V1n, V2n = chamber_volumes(x_next, P)
        p1, m1 = corrector(p1, dp1, dp1c, m1, md1, md1c, V1n)
        p2, m2 = corrector(p2, dp2, dp2c, m2, md2, md2c, V2n)
        x, v = x_next, v_next
    return t, np.array(rows)


CYLINDER_RUNS = {
    "low inputs": dict(u1=lab09.U1_LOW, u2=lab09.U2_LOW, t_end=3.0, x0=0.035),
    "sinusoid 1 Hz": dict(u1=lab09.sinusoidal_inputs(1.0).u1, u2=lab09.sinusoidal_inputs(1.0).u2, t_end=2.0, x0=0.035),
    "to the end stop L": dict(u1=4.5, u2=1.0, t_end=0.6, h=1e-3, x0=0.25),
    "to the stop at 0, pressurized": dict(u1=1.0, u2=4.5, t_end=0.6, h=1e-3, x0=0.05, v0=-0.05, p10=3e5),
    "held piston": dict(u1=3.5, u2=2.5, t_end=0.3, x0=0.1, hold=True),
}


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("run", CYLINDER_RUNS)
def test_cylinder_kernel_loop_is_the_typed_loop_to_the_last_bit(model, run):
    kwargs = {"h": lab09.H, **CYLINDER_RUNS[run]}
    result = simulate_cylinder(CYLINDER, MODELS[model], **kwargs)
    t, rows = _typed_cylinder_loop(CYLINDER, MODELS[model], **kwargs)
    np.testing.assert_array_equal(result.t, t)
    for j, name in enumerate(("x", "v", "p1", "p2", "F", "z", "film", "m1", "m2", "u1", "u2")):
        np.testing.assert_array_equal(getattr(result, name), rows[:, j], err_msg=name)


def _loop_arguments(model, N=3000):
    """Arguments of cylinder_loop for ``model`` on the low inputs (a fresh memory each call)."""
    from simlab.plants.pneumatic import _constants, _friction_arguments

    valve, chamber = _constants(CYLINDER)
    code, parameters, curve, memory = _friction_arguments(MODELS[model], N + 1)
    lead = 0.0 if MODELS[model] is None else MODELS[model].lead_mass
    u1, u2 = np.full(N + 1, lab09.U1_LOW), np.full(N + 1, lab09.U2_LOW)
    V1, V2 = cylinder_kernels.volumes(0.035, chamber)
    return (u1, u2, lab09.H, False, 0.035, 0.0, CYLINDER.patm, CYLINDER.patm, CYLINDER.patm * V1 / chamber[6],
            CYLINDER.patm * V2 / chamber[6], CYLINDER.M, lead, valve, chamber, code, parameters, *curve, *memory,
            np.empty((9, N + 1)))


@pytest.mark.parametrize("model", MODELS)
def test_cylinder_loop_compiled_gives_the_plain_function_numbers(model):
    plain_arguments, fast_arguments = _loop_arguments(model), _loop_arguments(model)
    plain = cylinder_kernels.cylinder_loop(*plain_arguments)
    fast = jit.compiled(cylinder_kernels.cylinder_loop)(*fast_arguments)
    assert fast[0] == plain[0] == 3001
    np.testing.assert_allclose(fast[1:], plain[1:], rtol=1e-12)
    np.testing.assert_allclose(fast_arguments[-1], plain_arguments[-1], rtol=1e-12, atol=1e-300)


def test_revised_lugre_step_compiled_gives_the_plain_function_numbers():
    rlg = MODELS["RLG"]
    rng = np.random.default_rng(3)
    velocities = np.concatenate([rng.normal(0.0, 0.02, 1500), np.zeros(20), 0.05 * np.sin(np.linspace(0.0, 30.0, 1500))])
    runs = []
    for step in (revised_lugre_step, jit.compiled(revised_lugre_step)):
        memory = rlg.memory()
        memory.reserve(len(velocities))
        z = Fz = film = 0.0
        rows = []
        for v in velocities.tolist():
            z, Fz, film, F_step, F_start = step(z, Fz, film, v, 1e-3, rlg.kernel_parameters, True, 0, True,
                                                *rlg.curve.kernel_form, memory.numbers, memory.points)
            rows.append((z, Fz, film, F_step, F_start))
        runs.append((np.array(rows), memory.ascending, memory.descending))
    np.testing.assert_allclose(runs[1][0], runs[0][0], rtol=1e-12, atol=1e-300)
    assert runs[1][1:] == runs[0][1:]


def test_a_cylinder_pressure_that_falls_to_zero_is_the_non_finite_state_error_of_its_step():
    with pytest.raises(NonFiniteStateError) as error:
        simulate_cylinder(CylinderParameters(), MODELS["LG"], 3.0, 2.0, 0.1, h=1e-3, x0=0.15, v0=1e3)
    assert "(LG): a chamber pressure fell to zero at step 1 (t = 0.001 s)" in str(error.value)
    assert (error.value.step, error.value.t, error.value.h) == (1, 0.001, 1e-3)


@pytest.mark.parametrize("u1, u2, message", [
    (lambda t: 9.0 if t > 0.004 else 3.0, lambda t: -1.0 if t > 0.004 else 2.0, "u1(t) at t = 0.005 s = 9.0 V"),
    (lambda t: 9.0 if t > 0.006 else 3.0, lambda t: -1.0 if t > 0.004 else 2.0, "u2(t) at t = 0.005 s = -1.0 V"),
    (lambda t: 3.0 if t < 0.004 else np.array([6.0]), 2.0, "u1(t) at t = 0.004 s = 6.0 V"),
])
def test_the_first_bad_valve_input_in_time_is_the_one_named(u1, u2, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        simulate_cylinder(CylinderParameters(), MODELS["LG"], u1, u2, 0.01, h=1e-3)


def test_a_state_that_goes_wrong_before_a_bad_input_is_reported_first():
    def u1(t):
        if t > 0.005:
            raise RuntimeError("the input function fails later")
        return 3.0

    with pytest.raises(NonFiniteStateError, match="fell to zero at step 1"):
        simulate_cylinder(CylinderParameters(), MODELS["LG"], u1, 2.0, 0.01, h=1e-3, x0=0.15, v0=1e3)
    with pytest.raises(RuntimeError, match="fails later"):
        simulate_cylinder(CylinderParameters(), MODELS["LG"], u1, 2.0, 0.01, h=1e-3)


def test_importing_the_plants_and_their_labs_does_not_import_numba():
    import subprocess
    import sys

    code = ("import sys, simlab.plants.dc_motor, simlab.plants.pneumatic, simlab.revised_lugre, "
            "simlab.course.lab07_dc_motor, simlab.course.lab09_pneumatic_friction; print('numba' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
