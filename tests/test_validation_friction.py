"""Bad input to the friction models, their simulators and the revised LuGre model (issue 14).

Each test reads as a rule of the public boundary: the error type, and a message that names the
argument, shows what was received and says what is expected. Oracles: the docstrings of
simlab.friction and simlab.revised_lugre, and the stability analysis of the seed's S-function
(lambda^2 - lambda + a Ts = 0, stable only for a Ts < 1 with a = sigma0 |v| / g(v); lab08).
"""

import re

import numpy as np
import pytest

from simlab import revised_lugre
from simlab.friction import CANUDAS_1995, LuGre, block_with_force, bristle_step, spring_block, velocity_response
from simlab.integrators import NonFiniteStateError

LUGRE = LuGre(Fc=1.0, Fs=1.5, vs=0.001, sigma0=1e5, sigma1=1.0, sigma2=0.4)
CURVE = revised_lugre.TransitionCurve(c=(6.0,), k=(2.5e4,))
RLG = revised_lugre.RevisedLuGre(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3,
                                 T=0.01, curve=CURVE)


def raises(kind, *fragments):
    """pytest.raises for ``kind`` with every fragment (plain text) in the message."""
    return pytest.raises(kind, match="(?s)" + "".join(f"(?=.*{re.escape(f)})" for f in fragments))


# ---------------------------------------------------------------------------------------------
# LuGre: z, broadcasting, the parameter set
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["zdot", "force"])
@pytest.mark.parametrize("z, kind, fragments", [
    (None, TypeError, ("z must be a number or an array of numbers", "None")),
    ("abc", TypeError, ("z must be a number or an array of numbers", "'abc'")),
    ([np.nan], ValueError, ("z must be finite", "[nan]")),
    ([np.inf], ValueError, ("z must be finite", "[inf]")),
    ([1j], TypeError, ("z must be real", "1j")),
])
def test_lugre_zdot_and_force_check_the_deflection(method, z, kind, fragments):
    with raises(kind, *fragments):
        getattr(LUGRE, method)(0.1, z)


def test_lugre_v_and_z_must_broadcast():
    with raises(ValueError, "v and z must broadcast together", "v of shape (2,)", "z of shape (3,)"):
        LUGRE.force([0.1, 0.2], [0.0, 1e-6, 2e-6])
    with raises(ValueError, "v and z must broadcast together"):
        bristle_step(LUGRE, [0.0, 1e-6, 2e-6], [0.1, 0.2], 1e-3)


def test_lugre_force_of_valid_arrays_is_the_formula():
    v, z = np.array([0.05, -0.05]), np.array([1e-6, -2e-6])
    g = 1.0 + 0.5 * np.exp(-((v / 0.001) ** 2))
    zdot = v - 1e5 * np.abs(v) * z / g
    np.testing.assert_array_equal(LUGRE.zdot(v, z), zdot)
    np.testing.assert_array_equal(LUGRE.force(v, z), 1e5 * z + 1.0 * zdot + 0.4 * v)


@pytest.mark.parametrize("change", [{"Fc": 0.0}, {"Fs": 0.0}])
def test_lugre_needs_positive_friction_levels(change):
    """g(v) lies between Fc and Fs and divides the bristle equation: g = 0 would give NaN."""
    with raises(ValueError, "Fc and Fs must be > 0 for LuGre", "got Fc = ", "Fs = "):
        LuGre(**{**CANUDAS_1995, **change})


def test_check_passivity_needs_a_bool_warn():
    with raises(TypeError, "warn must be True or False", "'no'"):
        LUGRE.check_passivity(warn="no")


# ---------------------------------------------------------------------------------------------
# The seed's S-function: the documented instability a Ts >= 1
# ---------------------------------------------------------------------------------------------

CLASSIC = LuGre(**CANUDAS_1995)


def test_sfunction_refuses_the_unstable_seed_scheme_and_names_ts_and_its_limit():
    v = np.full(51, 0.1)  # a = sigma0 |v| / g = 1e4 1/s, so a Ts = 10 at Ts = 1 ms
    with pytest.raises(NonFiniteStateError) as error:
        CLASSIC.sfunction(v, Ts=1e-3)
    message = str(error.value)
    for fragment in ("Ts = 0.001 s", "a Ts < 1", "a Ts = 10", "Ts < g(v) / (sigma0 |v|) = 0.0001 s",
                     "allow_blowup=True"):
        assert fragment in message
    assert error.value.h == 1e-3 and error.value.step == 0 and error.value.steps == 51


def test_sfunction_with_allow_blowup_runs_on_into_inf_and_nan():
    """The lab08 demonstration: with allow_blowup the replay runs on until the forces overflow."""
    with np.errstate(over="ignore", invalid="ignore"):
        F = CLASSIC.sfunction(np.full(2001, 0.1), Ts=1e-3, allow_blowup=True).F
    assert not np.all(np.isfinite(F)) and np.isfinite(F[0])


def test_the_replay_with_allow_blowup_is_the_replay():
    v = 0.02 * np.sin(2 * np.pi * 1e-3 * np.arange(500))
    stable = CLASSIC.sfunction(v, Ts=1e-6)
    np.testing.assert_array_equal(stable.F, CLASSIC.sfunction(v, Ts=1e-6, allow_blowup=True).F)


def test_sfunction_just_inside_the_limit_runs():
    a = 1e5 * 0.1 / float(CLASSIC.g(0.1))
    result = CLASSIC.sfunction(np.full(100, 0.1), Ts=0.99 / a)
    assert np.all(np.isfinite(result.F))


def test_sfunction_checks_allow_blowup_and_x0():
    with raises(TypeError, "allow_blowup must be True or False", "1 (type int)"):
        CLASSIC.sfunction([0.0, 0.1], allow_blowup=1)
    with raises(ValueError, "x0 must be [z, zdot]", "shape (3,)"):
        CLASSIC.sfunction([0.0, 0.1], x0=[0.0, 0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# The block simulators: t_end named, initial states, the applied force
# ---------------------------------------------------------------------------------------------

SPRING = dict(model=LUGRE, k=2.0, v_pull=0.1, m=1.0, t_end=0.1, h=1e-3)
FORCE = dict(model=LUGRE, force=lambda t: 0.5 * t, m=1.0, t_end=0.1, h=1e-3)


@pytest.mark.parametrize("simulator, args", [(spring_block, SPRING), (block_with_force, FORCE)])
@pytest.mark.parametrize("t_end, kind, fragments", [
    (0.0, ValueError, ("t_end must be positive", "got 0.0")),
    (-1.0, ValueError, ("t_end must be positive", "got -1.0")),
    (np.nan, ValueError, ("t_end must be a finite number", "nan")),
    (None, TypeError, ("t_end must be a real number", "None")),
    ([1.0, 2.0], TypeError, ("t_end must be a real number", "[1.0, 2.0]")),
])
def test_block_simulators_name_t_end_not_t_span(simulator, args, t_end, kind, fragments):
    with raises(kind, *fragments) as error:
        simulator(**{**args, "t_end": t_end})
    assert "t_span" not in str(error.value)


@pytest.mark.parametrize("simulator, args", [(spring_block, SPRING), (block_with_force, FORCE)])
@pytest.mark.parametrize("name", ["x0", "v0", "z0"])
@pytest.mark.parametrize("value, kind, fragment", [
    ("1.0", TypeError, "must be a real number"), (True, TypeError, "must be a real number"),
    (np.nan, ValueError, "must be a finite number"), ([1.0, 2.0], TypeError, "must be a real number"),
])
def test_block_simulators_check_the_initial_state(simulator, args, name, value, kind, fragment):
    with raises(kind, f"{name} {fragment}", f"{value!r}"):
        simulator(**{**args, name: value})


def test_block_simulators_accept_integer_initial_states():
    a = spring_block(**{**SPRING, "x0": 0, "v0": 0, "z0": 0})
    b = spring_block(**SPRING)
    np.testing.assert_array_equal(a.x, b.x)


@pytest.mark.parametrize("force, kind, fragments", [
    (lambda t: "push", TypeError, ("force(t) at t = 0.0005 s", "must be a real number", "'push'")),
    (lambda t: np.nan, ValueError, ("force(t) at t = 0.0005 s", "must be a finite number")),
    (lambda t: [1.0, 2.0], TypeError, ("force(t)", "[1.0, 2.0]")),
])
def test_block_with_force_checks_what_the_force_returns(force, kind, fragments):
    with raises(kind, *fragments):
        block_with_force(**{**FORCE, "force": force})


def test_velocity_response_refuses_an_empty_history():
    with raises(ValueError, "v must hold at least one velocity sample", "empty"):
        velocity_response(LUGRE, [], 1e-3)


# ---------------------------------------------------------------------------------------------
# The revised LuGre model: curves, memory, film
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["rise", "slope"])
@pytest.mark.parametrize("s, kind, fragment", [
    (np.nan, ValueError, "s must be a finite number"), (np.inf, ValueError, "s must be a finite number"),
    (-np.inf, ValueError, "s must be a finite number"), (True, TypeError, "s must be a real number"),
])
def test_transition_curve_needs_a_finite_distance(method, s, kind, fragment):
    with raises(kind, fragment):
        getattr(CURVE, method)(s)


@pytest.mark.parametrize("field, value, kind, fragments", [
    ("k", [[1.0, 2.0], [3.0]], TypeError, ("k must be a number or a rectangular array", "[[1.0, 2.0], [3.0]]")),
    ("c", [], ValueError, ("c must be a sequence of numbers, one per segment", "shape (0,)")),
    ("c", [[6.0]], ValueError, ("c must be a sequence of numbers", "shape (1, 1)")),
    ("k", (-1.0,), ValueError, ("k[0] must be positive", "-1.0")),
    ("lengths", "ab", TypeError, ("lengths must be a number or an array of numbers", "'ab'")),
])
def test_transition_curve_checks_its_fields(field, value, kind, fragments):
    args = dict(c=(6.0,), k=(2.5e4,))
    args[field] = value
    with raises(kind, *fragments):
        revised_lugre.TransitionCurve(**args)


@pytest.mark.parametrize("method, name", [("move", "z"), ("reset", "z"), ("force", "z"), ("stiffness", "z"),
                                          ("turn", "d")])
@pytest.mark.parametrize("value, kind, fragment", [
    (np.nan, ValueError, "must be a finite number"), (np.inf, ValueError, "must be a finite number"),
    ("1.0", TypeError, "must be a real number"), (True, TypeError, "must be a real number"),
    (1 + 2j, TypeError, "must be a real number"), (None, TypeError, "must be a real number"),
])
def test_hysteresis_memory_methods_need_finite_numbers(method, name, value, kind, fragment):
    memory = revised_lugre.HysteresisMemory(CURVE, sigma0=5e4)
    memory.turn(1)
    with raises(kind, f"{name} {fragment}"):
        getattr(memory, method)(value)


def test_a_refused_move_leaves_the_memory_as_it_was():
    memory = revised_lugre.HysteresisMemory(CURVE, sigma0=5e4)
    memory.turn(1)
    F = memory.move(1e-5)
    with pytest.raises(ValueError):
        memory.move(np.nan)
    assert (memory.z, memory.F, memory.direction) == (1e-5, F, 1)


def test_hysteresis_response_refuses_an_empty_history():
    with raises(ValueError, "z must hold at least one deflection", "empty"):
        revised_lugre.hysteresis_response(CURVE, [])
    with raises(TypeError, "curve must be a TransitionCurve", "str"):
        revised_lugre.hysteresis_response("curve", [0.0, 1e-5])


@pytest.mark.parametrize("args, kind, fragments", [
    (dict(v=None), TypeError, ("v must be a number or an array of numbers", "None")),
    (dict(v=[np.nan]), ValueError, ("v must be finite", "[nan]")),
    (dict(Fc=0.0), ValueError, ("Fc must be positive", "0.0")),
    (dict(Fs=np.inf), ValueError, ("Fs must be a finite number", "inf")),
    (dict(vb=-1.0), ValueError, ("vb must be positive", "-1.0")),
    (dict(Fc=10.5), ValueError, ("Fc must be below Fs", "Fc = 10.5", "Fs = 10.5")),
])
def test_film_steady_state_checks_every_argument(args, kind, fragments):
    full = dict(v=0.1, Fc=4.5, Fs=10.5, vb=0.05)
    full.update(args)
    with raises(kind, *fragments):
        revised_lugre.film_steady_state(**full)


@pytest.mark.parametrize("args, kind, fragments", [
    (dict(model=None), TypeError, ("model must be a RevisedLuGre model", "None")),
    (dict(model=LUGRE), TypeError, ("model must be a RevisedLuGre model", "LuGre(")),
    (dict(h=-0.5), ValueError, ("h must lie in [0, 1]", "got -0.5", "film thickness")),
    (dict(h=1.5), ValueError, ("h must lie in [0, 1]", "got 1.5")),
    (dict(v=np.nan), ValueError, ("v must be a finite number", "nan")),
    (dict(T=0.0), ValueError, ("T must be positive", "0.0")),
])
def test_film_step_checks_every_argument(args, kind, fragments):
    full = dict(model=RLG, h=0.1, v=0.01, T=1e-3)
    full.update(args)
    with raises(kind, *fragments):
        revised_lugre.film_step(**full)


@pytest.mark.parametrize("h, kind, fragments", [
    (None, TypeError, ("h must be a number or an array of numbers", "None")),
    (1.5, ValueError, ("h (the film thickness) must lie in [0, 1]", "1.5")),
    ([0.2, -0.1], ValueError, ("must lie in [0, 1]", "-0.1")),
    ([0.1, 0.2, 0.3], ValueError, ("v and h must broadcast together", "v of shape (2,)", "h of shape (3,)")),
])
def test_revised_g_checks_the_film_thickness(h, kind, fragments):
    with raises(kind, *fragments):
        RLG.g([0.1, 0.2], h)


@pytest.mark.parametrize("v, kind", [(None, TypeError), ([np.nan], ValueError), ([np.inf], ValueError),
                                     ([1j], TypeError)])
def test_revised_h_ss_checks_v(v, kind):
    with raises(kind, "v must"):
        RLG.h_ss(v)


def test_revised_force_needs_its_state():
    with raises(TypeError, "state must be a RevisedLuGreState", "0.0 (type float)"):
        RLG.force(0.01, 0.0)
    assert np.isfinite(RLG.force(0.01, RLG.initial_state()))
