"""Nonlinear elements against their textbook definitions."""

import numpy as np
import pytest

from simlab.nonlinear import Backlash, DeadZone, Relay, Saturation

U = np.linspace(-4, 4, 81)


def test_saturation_definition():
    """Definition: y = k u for |u| <= s, k s sign(u) otherwise."""
    sat = Saturation(1.5, gain=2.0)
    expected = np.where(np.abs(U) <= 1.5, 2.0 * U, 2.0 * 1.5 * np.sign(U))
    np.testing.assert_allclose(sat(U), expected)
    assert sat(0.5) == 1.0 and isinstance(sat(0.5), float)


def test_dead_zone_definition():
    """Definition: y = 0 for |u| <= d, k (u - d sign u) otherwise."""
    dz = DeadZone(1.0, gain=3.0)
    expected = np.where(np.abs(U) <= 1.0, 0.0, 3.0 * (U - np.sign(U)))
    np.testing.assert_allclose(dz(U), expected)


def test_backlash_memory_on_reversing_input():
    """Scripted history: rise, reverse inside the gap (output held), then engage the other side."""
    b = Backlash(0.5)
    u = [0.0, 1.0, 2.0, 1.8, 1.2, 1.0, 0.5, 0.0, 0.4, 1.0]
    # rise: y = u - 0.5; reversal at 2.0 holds y = 1.5 until u + 0.5 < 1.5 (u < 1.0)
    expected = [0.0, 0.5, 1.5, 1.5, 1.5, 1.5, 1.0, 0.5, 0.5, 0.5]
    np.testing.assert_allclose(b.response(u), expected)


def test_backlash_loop_is_a_parallelogram_of_width_two_b():
    """Oracle: for a full sine sweep the output range is k (A - b) on both sides."""
    b = Backlash(0.3, gain=2.0)
    u = 1.0 * np.sin(np.linspace(0, 4 * np.pi, 2001))
    y = b.response(u)
    assert y.max() == pytest.approx(2.0 * (1.0 - 0.3), rel=1e-4)
    assert y.min() == pytest.approx(-2.0 * (1.0 - 0.3), rel=1e-4)
    # on the way up the output is k (u - b), on the way down k (u + b), where engaged
    rising = np.diff(u, prepend=u[0]) > 0
    engaged_up = rising & (np.abs(y - 2.0 * (u - 0.3)) < 1e-12)
    assert engaged_up.sum() > 200


def test_backlash_reset_forgets_the_history():
    b = Backlash(0.5)
    b.response([0, 3, 3])
    assert b.y == 2.5
    b.reset()
    assert b.y == 0.0


def test_ideal_relay_and_relay_with_dead_zone():
    np.testing.assert_allclose(Relay(2.0)(U), 2.0 * np.sign(U))
    relay = Relay(1.0, dead_zone=0.5)
    np.testing.assert_allclose(relay(U), np.sign(U) * (np.abs(U) > 0.5))


def test_relay_hysteresis_switches_at_plus_minus_a():
    relay = Relay(1.0, hysteresis=0.5)
    y = relay.response([0.0, 0.4, 0.6, 0.0, -0.4, -0.6, 0.2])
    np.testing.assert_allclose(y, [-1, -1, 1, 1, 1, -1, -1])


def test_relay_y0_must_be_one_of_its_output_levels():
    """Rule (issue 23): a relay with hysteresis outputs -M or M only, so y0 = 7 or 0 is refused and
    the message names the levels; a relay without hysteresis also outputs 0."""
    with pytest.raises(ValueError, match=r"y0 must be one of the relay's output levels, -1 or 1 .*y0 = 7"):
        Relay(1, hysteresis=0.5, y0=7)
    with pytest.raises(ValueError, match=r"y0 must be .*-2 or 2 .*y0 = 0\.0"):
        Relay(2.0, hysteresis=0.5, y0=0.0)
    with pytest.raises(ValueError, match=r"y0 must be .*-2, 0 or 2 .*y0 = 0\.5"):
        Relay(2.0, dead_zone=0.1, y0=0.5)
    assert Relay(2.0, dead_zone=0.1, y0=0.0).y0 == 0.0


def test_relay_with_hysteresis_starting_on_keeps_its_output_inside_the_loop():
    """Definition: inside |u| <= a the relay keeps its last output, here y0 = +M."""
    relay = Relay(1.0, hysteresis=0.5, y0=1.0)
    np.testing.assert_allclose(relay.response([0.0, 0.4, -0.4, -0.6]), [1, 1, 1, -1])
    relay.reset()
    assert relay.step(0.0) == 1.0


def test_relay_with_memory_cannot_be_called_statically():
    with pytest.raises(TypeError, match="memory"):
        Relay(1.0, hysteresis=0.2)(0.3)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Saturation(0.0), "limit must be positive"),
        (lambda: DeadZone(-1.0), "width must be positive"),
        (lambda: Backlash(float("nan")), "width must be a finite number"),
        (lambda: Relay(1.0, hysteresis=-0.1), "must be >= 0"),
        (lambda: Relay(1.0, hysteresis=0.1, dead_zone=0.1), "not both"),
        (lambda: Saturation("big"), "limit must be a real number"),
    ],
)
def test_bad_parameters_are_rejected(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_non_finite_input_is_rejected():
    with pytest.raises(ValueError, match="u must be finite"):
        Saturation(1.0)([0.0, np.nan])
