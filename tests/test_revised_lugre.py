"""The revised LuGre model (seed 002, eqs. 5-13): memory rules on scripted histories, film, reduction to LuGre."""

import math
from dataclasses import replace

import numpy as np
import pytest

from simlab.plants.pneumatic import CylinderParameters, simulate_cylinder
from simlab.revised_lugre import (
    HysteresisMemory,
    RevisedLuGre,
    TransitionCurve,
    film_steady_state,
    film_step,
    hysteresis_response,
)

CURVE = TransitionCurve(c=(6.0,), k=(2.5e4,))
RLG = RevisedLuGre(Fc=4.5, Fs=10.5, vs=0.01, vb=0.02, sigma0=5e4, sigma1=30.0, sigma2=46.0, T=0.01,
                   tau_hp=0.03, tau_hn=0.3, tau_h0=0.5, v_dwell=1e-3, curve=CURVE)


def path(*points, n=40):
    """A piecewise-linear deflection history through the given points (m)."""
    out = [points[0]]
    for a, b in zip(points[:-1], points[1:]):
        out.extend(np.linspace(a, b, n + 1)[1:])
    return np.array(out)


def eq12(z, z_i, F_i, d, c=6.0, k=2.5e4):
    """Eq. (12) for a curve started at (z_i, F_i) in the direction d, typed from the paper."""
    return F_i + d * c * (1.0 - np.exp(-k * d * (z - z_i)))


def test_transition_curve_segments_are_continuous_with_the_right_slope():
    curve = TransitionCurve(c=(3.0, 4.0), k=(5e4, 1e4), lengths=(3e-5,))
    s = np.linspace(0.0, 2e-4, 2001)
    rise = np.array([curve.rise(value) for value in s])
    slope = np.array([curve.slope(value) for value in s])
    away = np.abs(s - 3e-5) > 2e-7  # the slope of eq. (12) jumps where a segment starts
    away[:2] = away[-2:] = False
    np.testing.assert_allclose(np.gradient(rise, s)[away], slope[away], rtol=2e-2)
    assert curve.rise(3e-5 - 1e-12) == pytest.approx(curve.rise(3e-5 + 1e-12), abs=1e-6)
    assert curve.initial_stiffness == 3.0 * 5e4
    assert curve.amplitude == pytest.approx(3.0 * (1 - math.exp(-1.5)) + 4.0)


def test_virgin_curve_and_the_first_reversal_follow_eq12():
    z = path(0.0, 2e-4, 0.5e-4)
    F = hysteresis_response(CURVE, z)
    up = z[:41]
    np.testing.assert_allclose(F[:41], eq12(up, 0.0, 0.0, +1), atol=1e-12)
    F_max = eq12(2e-4, 0.0, 0.0, +1)
    np.testing.assert_allclose(F[41:], eq12(z[41:], 2e-4, F_max, -1), atol=1e-12)


def test_inner_loop_closes_and_is_wiped_out():
    # up to 40 um, down to 15 um, up to 60 um: after passing 40 um again the state follows the
    # virgin curve exactly as if the inner loop had never happened (return-point memory)
    a = 40e-6
    with_loop = path(0.0, a, 15e-6, 60e-6)
    F = hysteresis_response(CURVE, with_loop)
    beyond = with_loop[81:] > a
    np.testing.assert_allclose(F[81:][beyond], eq12(with_loop[81:][beyond], 0.0, 0.0, +1), atol=1e-12)
    # on the way back up the force at z = a equals the force at the reversal a
    memory = HysteresisMemory(CURVE)
    for k in range(1, len(with_loop)):
        memory.turn(np.sign(with_loop[k] - with_loop[k - 1]))
        memory.move(with_loop[k])
    assert memory.ascending == [(0.0, 0.0)] and memory.descending == []


def test_nested_loops_close_in_order():
    z = path(0.0, 50e-6, 10e-6, 40e-6, 20e-6, 45e-6, 5e-6)
    memory = HysteresisMemory(CURVE)
    sizes, forces = [], {}
    for k in range(1, len(z)):
        memory.turn(np.sign(z[k] - z[k - 1]))
        F = memory.move(z[k])
        sizes.append((len(memory.ascending), len(memory.descending)))
        forces[round(z[k] * 1e7)] = forces.get(round(z[k] * 1e7), []) + [F]
    # reversal points: 50 (max), 10 (min), 40 (max), 20 (min); inner loop 40-20 closes at 40
    # on the way to 45; loop 50-10 closes at 10 on the final way down to 5
    assert max(s[0] for s in sizes) == 3 and max(s[1] for s in sizes) == 2
    assert sizes[-1] == (1, 1)  # only the virgin start and the 50 um maximum remain
    F50 = eq12(50e-6, 0.0, 0.0, +1)
    F10 = eq12(10e-6, 50e-6, F50, -1)
    # below 10 um on the last descent: the outer descending curve from 50 um
    assert memory.F == pytest.approx(eq12(5e-6, 50e-6, F50, -1), abs=1e-12)
    assert forces[100][1] == pytest.approx(F10, abs=1e-12)  # the minimum at 10 um (first visit: virgin curve)


def test_descending_past_the_virgin_start_has_no_jump():
    # the path 0 -> +a -> -a -> +a/2: the force changes by at most the largest slope times dz
    z = path(0.0, 30e-6, -30e-6, 15e-6, n=200)
    F = hysteresis_response(CURVE, z)
    dz = np.abs(np.diff(z))
    assert np.all(np.abs(np.diff(F)) <= CURVE.initial_stiffness * dz + 1e-12)
    # the descent from +a is one curve all the way to -a (no restart, no kink, at the virgin
    # start z = 0); the ascent from -a closes the big loop at +a (return-point memory)
    a, n = 30e-6, 200
    F_a = eq12(a, 0.0, 0.0, +1)
    np.testing.assert_allclose(F[n:2 * n + 1], eq12(z[n:2 * n + 1], a, F_a, -1), atol=1e-12)
    big = hysteresis_response(CURVE, path(0.0, a, -a, a, n=n))
    assert big[-1] == pytest.approx(F_a, abs=1e-12)


def test_sliding_starts_where_the_curve_meets_the_bristle_line():
    memory = HysteresisMemory(CURVE, sigma0=5e4)
    memory.turn(+1)
    z = np.linspace(0.0, 3e-4, 3001)
    F = np.array([memory.move(value) for value in z[1:]])
    assert memory.sliding
    # before the switch F = eq. 12 (above sigma0 z); after it F = sigma0 z; continuous at the switch
    pre = eq12(z[1:], 0.0, 0.0, +1) > 5e4 * z[1:]
    np.testing.assert_allclose(F[pre], eq12(z[1:][pre], 0.0, 0.0, +1), atol=1e-12)
    np.testing.assert_allclose(F[~pre][1:], 5e4 * z[1:][~pre][1:], atol=1e-12)
    assert np.max(np.abs(np.diff(F))) < CURVE.initial_stiffness * (z[1] - z[0]) + 1e-9
    # a reversal while sliding starts a new descending curve at (z, sigma0 z), memory afresh
    memory.turn(-1)
    assert not memory.sliding and memory.descending == [(z[-1], 5e4 * z[-1])] and memory.ascending == []


def test_memory_rejects_curves_softer_than_the_bristles():
    with pytest.raises(ValueError, match="stiffer"):
        HysteresisMemory(TransitionCurve(c=(1.0,), k=(1e4,)), sigma0=5e4)
    with pytest.raises(TypeError, match="TransitionCurve"):
        HysteresisMemory((6.0, 2.5e4))
    with pytest.raises(ValueError, match="one value per segment"):
        TransitionCurve(c=(1.0, 2.0), k=(1e4,), lengths=(1e-5,))
    with pytest.raises(ValueError, match="c"):
        TransitionCurve(c=(-1.0,), k=(1e4,))


def test_film_steady_state_and_exact_step():
    v = np.array([0.0, 0.005, 0.02, 0.5])
    expected = (1 - 4.5 / 10.5) * (np.minimum(v, 0.02) / 0.02) ** (2 / 3)  # eqs. 10-11
    np.testing.assert_allclose(film_steady_state(v, 4.5, 10.5, 0.02), expected, atol=1e-15)
    # at v >= vb the film is full and the steady force is Fc + sigma2 v (eq. 13)
    np.testing.assert_allclose(RLG.steady_state_force([0.02, 0.1, -0.1]),
                               [4.5 + 46.0 * 0.02, 4.5 + 46.0 * 0.1, -4.5 - 46.0 * 0.1], rtol=1e-12)
    # the exact exponential of eq. 8, with the time constant of eq. 9
    h_ss = float(film_steady_state(0.05, 4.5, 10.5, 0.02))
    assert film_step(RLG, 0.0, 0.05, 0.01) == pytest.approx(h_ss * (1 - math.exp(-0.01 / 0.03)), rel=1e-12)
    assert film_step(RLG, 0.5, 0.001, 0.01) == pytest.approx(
        float(film_steady_state(0.001, 4.5, 10.5, 0.02)) + (0.5 - float(film_steady_state(0.001, 4.5, 10.5, 0.02)))
        * math.exp(-0.01 / 0.3), rel=1e-12)
    assert film_step(RLG, 0.5, 0.0, 0.25) == pytest.approx(0.5 * math.exp(-0.25 / 0.5), rel=1e-12)
    assert RLG.g(0.0, 0.2) == pytest.approx(0.8 * 10.5)


def test_revised_lugre_without_its_extras_is_lugre_in_the_cylinder():
    P = CylinderParameters()
    plain = RLG.without_extras()
    a = simulate_cylinder(P, plain, 2.875, 2.19, 3.0)
    b = simulate_cylinder(P, plain.as_lugre(), 2.875, 2.19, 3.0)
    for name in ("x", "v", "p1", "p2", "F", "z"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(plain.g(np.array([0.0, 0.01, 0.1])), plain.as_lugre().g(np.array([0.0, 0.01, 0.1])))
    # and each extra changes the answer
    for extra in (replace(plain, film=True), replace(plain, T=0.01), replace(plain, curve=CURVE)):
        c = simulate_cylinder(P, extra, 2.875, 2.19, 3.0)
        assert np.max(np.abs(c.F - b.F)) > 0.05


@pytest.mark.parametrize("kwargs, error, match", [
    ({"Fc": 11.0}, ValueError, "Fc < Fs"),
    ({"T": -0.1}, ValueError, "T"),
    ({"tau_h0": 0.0}, ValueError, "tau_h0"),
    ({"film": 1}, TypeError, "film"),
    ({"curve": TransitionCurve(c=(1.0,), k=(1e4,))}, ValueError, "stiffer"),
])
def test_revised_lugre_rejects_bad_parameters(kwargs, error, match):
    with pytest.raises(error, match=match):
        replace(RLG, **kwargs)
