"""Lab 01: the hints of the catalogued mistakes, and the checks under the alternative parameters.

Each mistaken answer is built here by hand (a loop written out, or a closed form), independently of
the lab's own alternatives; the check must fail and name the mistake. A correct answer computed
with the alternative parameter values (closed forms, scipy, sympy) must pass every check.
"""

import math

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab.course import lab01_euler_rk4 as lab

H, T0, T1, Y0 = 0.1, 0.0, 2.0, 1.0


def loop(step, h=H, t0=T0, t1=T1, y0=Y0):
    """y_0 .. y_N of y_{k+1} = step(t_k, y_k) for f = t + y, written out."""
    n = round((t1 - t0) / h)
    y = [y0]
    for k in range(n):
        y.append(step(t0 + k * h, y[-1]))
    return np.array(y)


def test_euler_without_the_factor_h_is_named():
    """Oracle: the loop y_{k+1} = y_k + (t_k + y_k) written out."""
    result = lab.check_euler(loop(lambda t, y: y + (t + y)))
    assert not result and "factor h is missing" in str(result)


def test_heun_with_the_slopes_added_is_named():
    """Oracle: y_{k+1} = y_k + h (K1 + K2) written out."""

    def step(t, y):
        k1 = t + y
        k2 = (t + H) + (y + H * k1)
        return y + H * (k1 + k2)

    result = lab.check_heun(loop(step))
    assert not result and "factor 1/2" in str(result)


def test_heun_without_the_predictor_is_named():
    """Oracle: K2 = f(t_k + h, y_k) written out; on f = t + y one step is y + h (2 y + 2 t + h) / 2."""
    result = lab.check_heun(loop(lambda t, y: y + H / 2 * ((t + y) + (t + H + y))))
    assert not result and "slope at the Euler predictor" in str(result)


def test_rk4_with_equal_weights_is_named():
    """Oracle: on y' = t + y every such method gives y_n = 2 R^n - t_n - 1; here
    R = 1 + h + h^2/2 + 3h^3/16 + h^4/16 (the slopes K_i of y' = y, averaged with weights 1/4)."""
    R = 1 + H + H**2 / 2 + 3 * H**3 / 16 + H**4 / 16
    n = np.arange(21)
    result = lab.check_rk4(2 * R**n - n * H - 1)
    assert not result and "weights its slopes 1, 2, 2, 1" in str(result)


def test_rk4_with_k3_from_k1_is_named():
    """Oracle: with K3 = K2 one step of y' = y gives R = 1 + h + h^2/2 + h^3/12 (sympy expands it), and
    y_n = 2 R^n - t_n - 1 on y' = t + y."""
    h, y = sp.symbols("h y")
    k1 = y
    k2 = y + h / 2 * k1
    k3 = y + h / 2 * k1
    k4 = y + h * k3
    R = float(sp.expand(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)).subs({y: 1, h: H}))
    assert R == pytest.approx(1 + H + H**2 / 2 + H**3 / 12, rel=1e-14)
    n = np.arange(21)
    result = lab.check_rk4(2 * R**n - n * H - 1)
    assert not result and "K3 uses K2" in str(result)


def test_seed_line_value_one_step_early_is_named():
    """Oracle: the closed form (y0 + 2h)(1 + h)^n - 2h of the seed's line at n = N - 1 = 19."""
    result = lab.check_seed_line_value((Y0 + 2 * H) * (1 + H) ** 19 - 2 * H)
    assert not result and "one step before t1" in str(result)


def test_a_single_number_check_cannot_be_passed_by_the_value_one_step_early():
    """Task 6b compares one number: the value one step before t1, correct Euler and the exact value
    all differ from the seed line's value at t1 (closed forms), so none passes by chance."""
    seed_end = (Y0 + 2 * H) * 1.1**20 - 2 * H
    for wrong in ((Y0 + 2 * H) * 1.1**19 - 2 * H, 2 * 1.1**20 - 3, 2 * math.exp(2) - 3):
        assert abs(wrong - seed_end) > 1e-3 * seed_end
        assert not lab.check_seed_line_value(wrong)


def test_dsolve_with_float_initial_values_is_accepted_away_from_t0_zero():
    """Oracle: sympy dsolve with ics={y(0.5): 0.7} (float constants, as the notebook's parameters give)."""
    t = sp.Symbol("t")
    y = sp.Function("y")
    solution = sp.dsolve(sp.Eq(y(t).diff(t), t + y(t)), y(t), ics={y(0.5): 0.7}).rhs
    assert lab.check_exact(solution, t0=0.5, y0=0.7)


def test_initial_condition_at_zero_instead_of_t0_is_named():
    """Oracle: sympy dsolve with ics={y(0): y0} where the span starts at t0 = 0.5."""
    t = sp.Symbol("t")
    y = sp.Function("y")
    solution = sp.dsolve(sp.Eq(y(t).diff(t), t + y(t)), y(t), ics={y(0): 0.7}).rhs
    result = lab.check_exact(solution, t0=0.5, y0=0.7)
    assert not result and "belongs at t0 = 0.5" in str(result)


ALTERNATIVES = {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()}


@pytest.mark.parametrize("changes", [{name: value} for name, value in ALTERNATIVES.items()] + [ALTERNATIVES],
                         ids=[*ALTERNATIVES, "all"])
def test_correct_answers_pass_every_check_under_the_alternative_parameters(changes):
    """Oracles: the closed forms y_n = (y0 + t0 + 1) R(h)^n - t_n - 1 of the three methods and
    (y0 + 2h)(1 + h)^n - 2h of the seed's line, sympy dsolve, scipy solve_ivp (rtol 1e-12)."""
    values = {**lab.PARAMETERS.defaults(), **changes}
    h, t0, t1, y0 = values["h"], values["t0"], values["t1"], values["y0"]
    n = np.arange(round((t1 - t0) / h) + 1)
    t = t0 + n * h
    c = y0 + t0 + 1
    growth = {"euler": 1 + h, "heun": 1 + h + h**2 / 2, "rk4": 1 + h + h**2 / 2 + h**3 / 6 + h**4 / 24}
    y = {name: c * R**n - t - 1 for name, R in growth.items()}
    exact = c * np.exp(t - t0) - t - 1
    ts, ys = sp.Symbol("t"), sp.Function("y")
    exact_expr = sp.dsolve(sp.Eq(ys(ts).diff(ts), ts + ys(ts)), ys(ts), ics={ys(t0): y0}).rhs
    y_ivp = solve_ivp(lambda t, y: t + y, (t0, t1), [y0], t_eval=t, rtol=1e-12, atol=1e-12).y[0]
    keywords = dict(h=h, t0=t0, t1=t1, y0=y0)
    results = [
        lab.check_exact(exact_expr, t0=t0, y0=y0),
        lab.check_euler(y["euler"], **keywords),
        lab.check_heun(y["heun"], **keywords),
        lab.check_rk4(y["rk4"], **keywords),
        lab.check_errors(*(y[name] - exact for name in ("euler", "heun", "rk4")), **keywords),
        lab.check_solve_ivp(y_ivp, **keywords),
        lab.check_seed_line_value((y0 + 2 * h) * (1 + h) ** n[-1] - 2 * h, **keywords),
    ]
    assert all(results), [str(result) for result in results if not result]
    # the same answers through the task table, which reads the parameters from the namespace
    namespace = {**values, "y_euler": y["euler"], "y_heun": y["heun"], "y_rk4": y["rk4"]}
    for task in ("2", "3a", "3b"):
        result = lab.check(task, namespace=namespace)
        assert result and "(checked with" in str(result), str(result)
