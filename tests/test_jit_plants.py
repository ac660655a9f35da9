"""The case-study plants' loops as kernels (simlab.jit): the same numbers compiled or not, and the
numbers of the reference paths.

* The DC drive (lab07): the kernel loop against simlab.rk4 on the drive's right-hand side (to the
  last bit), and that right-hand side against the nine equations typed here from the module
  docstring (the oracle: the scalar code of the drive before it became a kernel).

Each kernel also runs twice in one process, compiled and as the plain function, to 1e-12.
(With SIMLAB_JIT=0 the whole file runs the plain functions.)
"""

import math

import numpy as np
import pytest

from simlab import jit
from simlab.guards import NonFiniteStateError
from simlab.integrators import rk4
from simlab.plants import dc_motor
from simlab.plants import dc_motor_kernels as drive_kernels
from simlab.plants.dc_motor import DriveParameters, design_regulators, simulate_drive

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
