"""Specification of the fixed-step integrators simlab.euler, simlab.heun and simlab.rk4."""

import math
import warnings

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import solve_ivp

import simlab
from simlab.integrators import NonFiniteStateError

METHODS = {"euler": simlab.euler, "heun": simlab.heun, "rk4": simlab.rk4}
ORDERS = {"euler": 1, "heun": 2, "rk4": 4}


# ---------------------------------------------------------------------------------------------
# Convergence orders, measured against scipy's solve_ivp with tight tolerances
# ---------------------------------------------------------------------------------------------


def pendulum(t, x):
    """Nonlinear pendulum with a periodic forcing: theta'' = -sin(theta) - 0.2 theta' + 0.5 cos(t)."""
    return np.array([x[1], -np.sin(x[0]) - 0.2 * x[1] + 0.5 * np.cos(t)])


@pytest.fixture(scope="module")
def pendulum_reference():
    """Oracle: scipy.integrate.solve_ivp (DOP853, rtol = atol = 1e-13) at t = 4."""
    solution = solve_ivp(pendulum, (0.0, 4.0), [1.0, 0.0], method="DOP853", rtol=1e-13, atol=1e-13)
    return solution.y[:, -1]


@pytest.mark.parametrize(
    "name, hs",
    [
        ("euler", [0.02, 0.01, 0.005, 0.0025]),
        ("heun", [0.08, 0.04, 0.02, 0.01]),
        ("rk4", [0.2, 0.1, 0.05, 0.025]),
    ],
)
def test_measured_convergence_order_matches_theory(name, hs, pendulum_reference):
    """Oracle: solve_ivp; the slope of log(error) against log(h) is the order within 0.15."""
    errors = [
        np.linalg.norm(METHODS[name](pendulum, (0.0, 4.0), [1.0, 0.0], h).final - pendulum_reference)
        for h in hs
    ]
    slope = np.polyfit(np.log(hs), np.log(errors), 1)[0]
    assert abs(slope - ORDERS[name]) <= 0.15, f"{name}: measured order {slope:.3f}"


# ---------------------------------------------------------------------------------------------
# Exact closed forms on y' = t + y, derived with sympy
# ---------------------------------------------------------------------------------------------

t_sym, y_sym, h_sym = sp.symbols("t y h")


def _textbook_step(name, f):
    """One step of the method, written out symbolically from the textbook formulas."""
    t, y, h = t_sym, y_sym, h_sym
    if name == "euler":
        return y + h * f(t, y)
    if name == "heun":
        k1 = f(t, y)
        k2 = f(t + h, y + h * k1)
        return y + h / 2 * (k1 + k2)
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@pytest.mark.parametrize("name", ["euler", "heun", "rk4"])
def test_closed_form_on_t_plus_y(name):
    """Oracle: sympy. For y' = t + y, y_n = 2 R(h)^n - t_n - 1 with R the growth factor dy_{n+1}/dy_n.

    Euler gives R = 1 + h (so y_n = 2 * 1.1^n - t_n - 1 at h = 0.1); RK4 gives the Taylor
    polynomial of e^h to degree 4. The closed form is verified symbolically as a solution of the
    one-step recurrence, then compared with simlab's numbers.
    """
    step = sp.expand(_textbook_step(name, lambda t, y: t + y))
    R = sp.diff(step, y_sym)
    expected_R = {"euler": 1 + h_sym, "heun": 1 + h_sym + h_sym**2 / 2,
                  "rk4": sum(h_sym**k / sp.factorial(k) for k in range(5))}[name]
    assert sp.simplify(R - expected_R) == 0
    n = sp.Symbol("n", integer=True, nonnegative=True)
    closed = 2 * R**n - n * h_sym - 1
    recurrence = step.subs({y_sym: closed, t_sym: n * h_sym}) - closed.subs(n, n + 1)
    assert sp.simplify(sp.expand(recurrence)) == 0
    assert closed.subs(n, 0) == 1

    t, y = METHODS[name](lambda t, y: t + y, (0.0, 2.0), 1.0, 0.1)
    formula = sp.lambdify(n, closed.subs(h_sym, sp.Rational(1, 10)))
    np.testing.assert_allclose(y, [float(formula(k)) for k in range(21)], rtol=1e-12)


def test_euler_value_at_two_is_two_times_one_point_one_to_twenty_minus_three():
    """Oracle: the closed form y_20 = 2 * 1.1**20 - 2 - 1 (arithmetic)."""
    _, y = simlab.euler(lambda t, y: t + y, (0, 2), 1.0, 0.1)
    assert y[-1] == pytest.approx(2 * 1.1**20 - 3, rel=1e-13)


@settings(max_examples=60, deadline=None)
@given(
    a=st.floats(min_value=-5.0, max_value=2.0),
    h=st.sampled_from([0.5, 0.25, 0.1, 0.05]),
    x0=st.floats(min_value=-10.0, max_value=10.0),
)
def test_one_step_on_linear_ode_is_stability_polynomial(a, h, x0):
    """Oracle: R(z) = sum z^k / k! up to the order (Euler, Heun, RK4) on x' = a x."""
    z = a * h
    for name, order in ORDERS.items():
        R = sum(z**k / math.factorial(k) for k in range(order + 1))
        _, x = METHODS[name](lambda t, x: a * x, (0.0, h), x0, h)
        assert x[1] == pytest.approx(R * x0, rel=1e-12, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# The grid and the shape contract
# ---------------------------------------------------------------------------------------------


def test_grid_has_n_plus_one_points_and_exact_ends():
    t, _ = simlab.rk4(lambda t, y: -y, (0.5, 2.5), 1.0, 0.1)
    assert t.shape == (21,)
    assert t[0] == 0.5 and t[-1] == 2.5
    np.testing.assert_allclose(np.diff(t), 0.1, rtol=1e-12)


def test_step_count_is_round_of_span_over_h_within_tolerance():
    """h = 0.1 on (0, 0.3): 0.3/0.1 = 2.9999999999999996 in floating point, rounds to 3 steps."""
    t, _ = simlab.euler(lambda t, y: -y, (0, 0.3), 1.0, 0.1)
    assert len(t) == 4


@pytest.mark.parametrize("name", sorted(METHODS))
def test_scalar_state_gives_one_dimensional_x(name):
    t, x = METHODS[name](lambda t, y: -y, (0, 1), 2.0, 0.25)
    assert x.shape == (5,)
    assert x[0] == 2.0


@pytest.mark.parametrize("name", sorted(METHODS))
def test_vector_state_has_time_along_first_axis(name):
    t, x = METHODS[name](lambda t, x: np.array([x[1], -x[0]]), (0, 1), [1.0, 0.0], 0.1)
    assert x.shape == (11, 2)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_batch_of_states_equals_separate_runs(name):
    """A (2, 3) state with a vectorized f integrates three systems at once."""
    gains = np.array([0.5, 1.0, 2.0])

    def f(t, x):
        return np.array([x[1], -gains * x[0] - 0.3 * x[1]])

    x0 = np.array([[1.0, 1.0, 1.0], [0.0, 0.5, -0.5]])
    _, batch = METHODS[name](f, (0, 2), x0, 0.05)
    assert batch.shape == (41, 2, 3)
    for j, gain in enumerate(gains):
        _, single = METHODS[name](lambda t, x: np.array([x[1], -gain * x[0] - 0.3 * x[1]]),
                                  (0, 2), x0[:, j], 0.05)
        np.testing.assert_allclose(batch[:, :, j], single, rtol=1e-14, atol=1e-15)


def test_result_has_method_step_and_repr():
    result = simlab.heun(lambda t, y: -y, (0, 1), 1.0, 0.5)
    assert result.method == "heun" and result.h == 0.5 and result.steps == 2
    assert "heun" in repr(result)


def test_f_returning_a_list_is_accepted():
    _, x = simlab.rk4(lambda t, x: [x[1], -x[0]], (0, 1), [1.0, 0.0], 0.1)
    assert x[-1] == pytest.approx([math.cos(1.0), -math.sin(1.0)], abs=1e-6)


@pytest.mark.parametrize("name, step", [("euler", simlab.euler_step), ("heun", simlab.heun_step),
                                        ("rk4", simlab.rk4_step)])
def test_public_step_function_matches_the_integrator(name, step):
    f = pendulum
    _, x = METHODS[name](f, (0.0, 0.3), [1.0, 0.0], 0.1)
    state = np.array([1.0, 0.0])
    for k in range(3):
        state = step(f, 0.1 * k, state, 0.1)
    np.testing.assert_allclose(state, x[-1], rtol=1e-14)


def test_integrate_accepts_method_by_name():
    a = simlab.integrate(lambda t, y: -y, (0, 1), 1.0, 0.1, method="heun")
    b = simlab.heun(lambda t, y: -y, (0, 1), 1.0, 0.1)
    np.testing.assert_array_equal(a.x, b.x)


# ---------------------------------------------------------------------------------------------
# Bad input gets a clear error that names the argument
# ---------------------------------------------------------------------------------------------


def rhs(t, y):
    return -y


@pytest.mark.parametrize("h", [0.0, -0.1])
def test_non_positive_h_is_rejected(h):
    with pytest.raises(ValueError, match=r"h must be positive"):
        simlab.rk4(rhs, (0, 1), 1.0, h)


@pytest.mark.parametrize("h", [float("nan"), float("inf")])
def test_non_finite_h_is_rejected(h):
    with pytest.raises(ValueError, match=r"h must be a finite number"):
        simlab.euler(rhs, (0, 1), 1.0, h)


def test_h_that_does_not_divide_the_span_suggests_the_nearest_valid_h():
    with pytest.raises(ValueError, match=r"h = 0\.3 does not divide .* Use h = 0\.285714285714 \(7 steps\)"):
        simlab.rk4(rhs, (0, 2), 1.0, 0.3)


def test_h_larger_than_the_span_is_rejected_with_a_suggestion():
    with pytest.raises(ValueError, match=r"Use h = 1 \(1 steps\)"):
        simlab.rk4(rhs, (0, 1), 1.0, 1.7)


def test_non_numeric_h_is_a_type_error():
    with pytest.raises(TypeError, match=r"h must be a real number"):
        simlab.rk4(rhs, (0, 1), 1.0, "0.1")


def test_reversed_span_is_rejected():
    with pytest.raises(ValueError, match=r"t_span is reversed"):
        simlab.heun(rhs, (2, 0), 1.0, 0.1)


def test_empty_span_is_rejected():
    with pytest.raises(ValueError, match=r"t_span is empty"):
        simlab.heun(rhs, (1, 1), 1.0, 0.1)


@pytest.mark.parametrize("span", [(0, float("inf")), (float("nan"), 1)])
def test_non_finite_span_is_rejected(span):
    with pytest.raises(ValueError, match=r"t_span\[\d\] .* must be a finite number"):
        simlab.rk4(rhs, span, 1.0, 0.1)


@pytest.mark.parametrize("span", [(0, 1, 2), 5.0, "ab"])
def test_span_that_is_not_a_pair_is_rejected(span):
    with pytest.raises(ValueError, match=r"t_span must be a pair"):
        simlab.rk4(rhs, span, 1.0, 0.1)


@pytest.mark.parametrize("x0", [float("nan"), [1.0, float("inf")]])
def test_non_finite_initial_state_is_rejected(x0):
    with pytest.raises(ValueError, match=r"x0 must be finite"):
        simlab.rk4(lambda t, x: -x, (0, 1), x0, 0.1)


def test_non_numeric_initial_state_is_a_type_error():
    with pytest.raises(TypeError, match=r"x0 must be"):
        simlab.rk4(rhs, (0, 1), "one", 0.1)


def test_f_not_callable_is_a_type_error():
    with pytest.raises(TypeError, match=r"f must be a function that can be called as f\(t, x\)"):
        simlab.euler([1, 2], (0, 1), 1.0, 0.1)


def test_f_returning_the_wrong_shape_shows_both_shapes():
    with pytest.raises(ValueError, match=r"shape \(2, 1\).*x0 has shape \(2,\)"):
        simlab.rk4(lambda t, x: np.zeros((2, 1)), (0, 1), [1.0, 2.0], 0.1)


def test_f_shape_is_checked_once_at_the_first_call():
    calls = []

    def f(t, x):
        calls.append(t)
        return -x

    trajectory = simlab.euler(f, (0, 1), 1.0, 0.1)
    # ten steps, one call each: the call that checks f's shape is the first step's slope
    assert len(calls) == 10
    assert trajectory.nfev == len(calls)


@pytest.mark.parametrize("name", ["euler", "heun", "rk4"])
def test_nfev_counts_every_call_of_f(name):
    calls = []

    def f(t, x):
        calls.append(t)
        return np.array([x[1], -x[0]])

    trajectory = simlab.integrate(f, (0.0, 1.0), [1.0, 0.0], 0.125, method=name)
    assert trajectory.nfev == len(calls) == simlab.METHODS[name].stages * 8


def test_method_table_lists_order_and_stages():
    table = {name: (method.order, method.stages) for name, method in simlab.METHODS.items()}
    assert table == {"euler": (1, 1), "heun": (2, 2), "rk4": (4, 4)}


def test_f_returning_complex_for_a_real_state_is_a_type_error():
    with pytest.raises(TypeError, match=r"complex"):
        simlab.rk4(lambda t, x: 1j * x, (0, 1), 1.0, 0.1)


def test_f_returning_text_is_a_type_error():
    with pytest.raises(TypeError, match=r"f\(t, x\) must return dx/dt"):
        simlab.rk4(lambda t, x: "fast", (0, 1), 1.0, 0.1)


def test_unknown_method_is_rejected():
    with pytest.raises(ValueError, match=r"method must be one of"):
        simlab.integrate(rhs, (0, 1), 1.0, 0.1, method="rk45")


def test_unstable_step_stops_with_step_time_and_advice():
    """Euler on y' = -1000 y with h = 0.01 (|1 + h lambda| = 9) overflows; the error says where."""
    with pytest.raises(NonFiniteStateError, match=r"step \d+ of 1000 \(t = [\d.]+\).*h = 0\.01.*smaller h"):
        simlab.euler(lambda t, y: -1000.0 * y, (0, 10), 1.0, 0.01)


def test_nan_from_f_stops_the_run_at_the_first_bad_step():
    with pytest.raises(NonFiniteStateError, match=r"step 3 of 10"):
        simlab.euler(lambda t, y: np.nan if t > 0.15 else 1.0, (0, 1), 0.0, 0.1)


def test_unstable_run_emits_no_numpy_warning(recwarn):
    with pytest.raises(NonFiniteStateError):
        simlab.rk4(lambda t, y: -1e4 * y, (0, 10), 1.0, 0.01)
    assert not [w for w in recwarn.list if issubclass(w.category, RuntimeWarning)]


def test_step_function_validates_h():
    with pytest.raises(ValueError, match=r"h must be positive"):
        simlab.rk4_step(rhs, 0.0, 1.0, -0.1)


# ---------------------------------------------------------------------------------------------
# The single steps refuse an inf or NaN result, and a t + h beyond the floating-point range (issue 23)
# ---------------------------------------------------------------------------------------------

STEPS = {"euler_step": simlab.euler_step, "heun_step": simlab.heun_step, "rk4_step": simlab.rk4_step}


@pytest.mark.parametrize("name", STEPS)
@pytest.mark.parametrize("x, h", [(1e308, 10.0), (2.0, 1e308), (1e308, 1e308)], ids=["x", "h", "both"])
def test_a_single_step_that_overflows_raises_instead_of_returning_inf(name, x, h):
    """Oracle: x + h (-x) with |x| or h of 1e308 is beyond 1.8e308 (or NaN from inf - inf)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way to the error
        where = rf"{name}: the step from t = 0\.0 with h = {h!r}".replace("+", r"\+")
        with pytest.raises(NonFiniteStateError, match=where) as info:
            STEPS[name](lambda t, y: -y, 0.0, x, h)
    assert (info.value.method, info.value.t, info.value.h) == (name, 0.0, h)


@pytest.mark.parametrize("name", STEPS)
def test_a_single_step_whose_end_time_overflows_names_h(name):
    with pytest.raises(ValueError, match=r"h = 1e\+308 from t = 1e\+308 reaches t \+ h = inf"):
        STEPS[name](lambda t, y: -y, 1e308, 1.0, 1e308)


@pytest.mark.parametrize("name", STEPS)
def test_a_single_step_near_the_top_of_the_range_still_works(name):
    """Oracle: y' = -y from 1e307 with h = 0.1 stays finite, close to 1e307 e^-0.1."""
    x_next = float(STEPS[name](lambda t, y: -y, 0.0, 1e307, 0.1))
    assert abs(x_next / 1e307 - math.exp(-0.1)) < 0.01


@pytest.mark.parametrize("name", ["heun", "rk4"])
def test_a_run_that_overflows_from_a_huge_x0_names_x0(name):
    """Oracle: K1 + K2 = -1e308 - 0.9e308 overflows in the first step of y' = -y from 1e308."""
    with pytest.raises(NonFiniteStateError, match=r"initial state x0 \(\|x0\| up to 1e\+308\) is already near"):
        METHODS[name](lambda t, y: -y, (0.0, 1.0), 1e308, 0.1)
