"""Step counts are checked as floats before they become integers (issue 23, item 2 of the issue).

A denormal h (1e-320), a huge span, a huge delay, a huge t_end and a huge order used to end in
Python's bare ``OverflowError: cannot convert float infinity to integer`` (or
``(34, 'Numerical result out of range')``). Each is now a ValueError that names the argument and
its value, and says why: below the smallest step that can advance t, more steps than
simlab.guards.MAX_STEPS, or beyond what float64 can represent. The oracle is the rule itself:
the resolution of floating-point numbers (numpy.spacing), the limit MAX_STEPS and
ln(1.8e308) = 709.78.
"""

import numpy as np
import pytest

import simlab
from simlab import guards, implicit
from simlab.accuracy import richardson, richardson_error
from simlab.delay import DelayLine, discretize_delay, split_delay
from simlab.delay_approximation import compare_pade
from simlab.multistep import adams_bashforth, adams_bashforth_moulton
from simlab.realtime import simulate_real_time
from simlab.sampled_data import DigitalController, discrete_closed_loop, simulate_sampled

DECAY = lambda t, x: -x  # noqa: E731 - x' = -x
PI = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)

#: Every method on the shared time grid, called with the step h on the span (0, 1).
GRID_METHODS = {
    "euler": lambda h: simlab.euler(DECAY, (0.0, 1.0), 1.0, h),
    "heun": lambda h: simlab.heun(DECAY, (0.0, 1.0), 1.0, h),
    "rk4": lambda h: simlab.rk4(DECAY, (0.0, 1.0), 1.0, h),
    "integrate": lambda h: simlab.integrate(DECAY, (0.0, 1.0), 1.0, h, method="heun"),
    "adams_bashforth": lambda h: adams_bashforth(DECAY, (0.0, 1.0), 1.0, h, order=3),
    "adams_bashforth_moulton": lambda h: adams_bashforth_moulton(DECAY, (0.0, 1.0), 1.0, h),
    "simulate_real_time": lambda h: simulate_real_time(lambda t, x, u: -x + u, np.sin, (0.0, 1.0), 0.0, h),
    "trapezoidal": lambda h: implicit.trapezoidal(DECAY, (0.0, 1.0), 1.0, h),
    "bdf2": lambda h: implicit.bdf2(DECAY, (0.0, 1.0), 1.0, h),
    "time_grid": lambda h: simlab.time_grid((0.0, 1.0), h),
}


@pytest.mark.parametrize("name", GRID_METHODS)
def test_a_denormal_h_is_below_the_smallest_step_that_can_advance_t(name):
    """Rule: times near 1 are 2.2e-16 apart (numpy.spacing), so h must be at least 64 of those."""
    with pytest.raises(ValueError, match=r"h = 1e-320 is below the smallest step that can advance t.*1\.42e-14"):
        GRID_METHODS[name](1e-320)


@pytest.mark.parametrize("name", ["euler", "adams_bashforth", "simulate_real_time", "time_grid"])
def test_a_step_too_small_for_max_steps_gives_the_count_before_any_grid_is_built(name):
    """Rule: (t1 - t0) / h = 1e13 steps against simlab.guards.MAX_STEPS = 10,000,000."""
    with pytest.raises(ValueError, match=r"h = 1e-13 on a span of 1 gives 10,000,000,000,000 steps.*MAX_STEPS"):
        GRID_METHODS[name](1e-13)


def test_a_normal_h_that_only_a_denormal_span_could_hold_is_refused_too():
    """Rule: h must be a normal float (at least 2.23e-308), whatever the span."""
    with pytest.raises(ValueError, match=r"h = 1e-320 is below the smallest step.*2\.23e-308"):
        simlab.time_grid((0.0, 1e-310), 1e-320)


def test_a_span_longer_than_the_floating_point_range_is_named():
    """Rule: t1 - t0 = 2e308 overflows to inf."""
    with pytest.raises(ValueError, match=r"t_span = \(-1e\+308, 1e\+308\) is longer than the floating-point range"):
        simlab.rk4(DECAY, (-1e308, 1e308), 1.0, 1e300)


def test_a_step_lost_in_the_resolution_of_late_times_suggests_shifting_the_origin():
    """Rule: times near 1e16 are 2 apart; on (0, 8) the same h = 0.1 is fine."""
    with pytest.raises(ValueError, match=r"h = 0\.1 is below the smallest step.*t_span = \(0, 8\.0\)"):
        simlab.time_grid((1e16, 1e16 + 8.0), 0.1)
    assert len(simlab.time_grid((0.0, 8.0), 0.1)[0]) == 81


def test_max_steps_is_read_when_the_grid_is_made(monkeypatch):
    """Rule: simlab.guards.MAX_STEPS can be lowered (and raised) at run time."""
    monkeypatch.setattr(guards, "MAX_STEPS", 5)
    with pytest.raises(ValueError, match=r"gives 10 steps.*MAX_STEPS = 5"):
        simlab.euler(DECAY, (0.0, 1.0), 1.0, 0.1)
    assert simlab.euler(DECAY, (0.0, 1.0), 1.0, 0.2).steps == 5


@pytest.mark.parametrize("call, pattern", [
    (lambda: split_delay(1e308, 0.1), r"tau = 1e\+308 is more than 1\.8e308 steps of T = 0\.1.*MAX_STEPS"),
    (lambda: split_delay(1e9, 1.0), r"tau = 1000000000\.0 is 1e\+09 steps of T = 1\.0.*MAX_STEPS = 10,000,000"),
    (lambda: discretize_delay([[-1.0]], [1.0], 0.1, 1e308), r"tau = 1e\+308 .* steps of T = 0\.1"),
    (lambda: DelayLine(1e308, 1e-3), r"tau = 1e\+308 .* steps of h = 0\.001"),
    (lambda: compare_pade([1.0], [1.0], 1e308, np.linspace(0, 1, 11)), r"tau = 1e\+308 .* steps of t\[1\] - t\[0\]"),
    (lambda: simlab.lsim([[-1.0]], [1.0], [1.0], 0.0, np.ones(11), np.linspace(0, 1, 11), input_delay=1e308),
     r"input_delay = 1e\+308"),
])
def test_a_delay_of_more_than_max_steps_periods_is_refused_with_the_count(call, pattern):
    """Rule: tau / T, a float (inf for 1e308 / 0.1), against simlab.guards.MAX_STEPS."""
    with pytest.raises(ValueError, match=pattern):
        call()


def test_split_delay_names_the_delay_it_is_given():
    with pytest.raises(ValueError, match=r"input_delay = 1e\+308"):
        split_delay(1e308, 0.1, name="input_delay")
    assert split_delay(1e6, 0.1) == (10_000_000, 0.0)  # exactly MAX_STEPS periods: still allowed


@pytest.mark.parametrize("call", [
    lambda: simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, PI, t_end=1e308, N=5),
    lambda: discrete_closed_loop([[-1.0]], [1.0], [1.0], 0.0, PI).response(1e308),
])
def test_a_huge_t_end_gives_the_count_against_max_steps(call):
    """Rule: t_end / T N = 1e308 / 0.5 * 5 overflows; it is compared with MAX_STEPS as a float."""
    with pytest.raises(ValueError, match=r"t_end = 1e\+308 s at T = 0\.5 s .* over 1\.8e308 steps.*MAX_STEPS"):
        call()


def test_a_t_end_just_beyond_max_steps_gives_the_whole_count():
    """Rule: ceil(1e8 / 0.5) = 2e8 periods of N = 5 steps is 1e9 plant steps."""
    with pytest.raises(ValueError, match=r"t_end = 1e\+08 s .* 1,000,000,000 steps, beyond simlab.guards.MAX_STEPS"):
        simulate_sampled([[-1.0]], [1.0], [1.0], 0.0, PI, t_end=1e8, N=5)


@pytest.mark.parametrize("function", [richardson, richardson_error])
def test_an_order_beyond_float64_is_refused_with_the_largest_order(function):
    """Rule: 2**p overflows for p >= 1024 (ln(1.8e308) / ln 2 = 1024)."""
    with pytest.raises(ValueError, match=r"order = 2000\.0 with ratio = 2\.0 .*10\^602.*order must be below 1024"):
        function([1.0], [1.1], order=2000)


def test_a_ratio_beyond_float64_at_the_given_order_is_refused():
    with pytest.raises(ValueError, match=r"ratio = 1e\+200 makes ratio\*\*order about 10\^400"):
        richardson([1.0], [1.1], order=2, ratio=1e200)


def test_an_order_just_below_the_float64_limit_still_extrapolates():
    """Oracle: x* = x_f + (x_f - x_c) / (2**1000 - 1), which is x_f to rounding."""
    assert float(richardson([1.0], [1.1], order=1000)[0]) == 1.1


def test_a_span_shorter_than_the_smallest_step_is_named():
    """Rule: one step of a normal float (2.23e-308) does not fit in (0, 1e-320); it would suggest h = 1e-320."""
    with pytest.raises(ValueError, match=r"t_span = \(0\.0, 1e-320\) is shorter than the smallest step.*2\.23e-308"):
        simlab.euler(DECAY, (0.0, 1e-320), 1.0, 0.1)
