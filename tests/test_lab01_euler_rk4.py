"""Lab 01 experiments and self-checks, against closed forms and scipy."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab.course import lab01_euler_rk4 as lab


def test_exact_solution_solves_the_seed_problem():
    """Oracle: sympy dsolve of y' = t + y, y(0) = 1."""
    t = sp.Symbol("t")
    y = sp.Function("y")
    solution = sp.dsolve(sp.Eq(y(t).diff(t), t + y(t)), ics={y(0): 1}).rhs
    grid = np.linspace(0, 2, 9)
    np.testing.assert_allclose(lab.exact(grid), [float(solution.subs(t, v)) for v in grid], rtol=1e-14)


def test_compare_methods_errors_match_the_closed_forms():
    """Oracle: y_N = 2 R^N - 3 with R = 1 + h, 1 + h + h^2/2, sum h^k/k! (k <= 4), N = 20."""
    result = lab.compare_methods()
    h = 0.1
    growth = {"euler": 1 + h, "heun": 1 + h + h**2 / 2,
              "rk4": 1 + h + h**2 / 2 + h**3 / 6 + h**4 / 24}
    exact_end = 2 * np.exp(2.0) - 3
    for name, R in growth.items():
        assert result.error_at_end[name] == pytest.approx(2 * R**20 - 3 - exact_end, rel=1e-10)


def test_seed_euler_line_is_euler_for_y_plus_2h():
    """Oracle: sympy rsolve of y_{n+1} = y_n + h (2h + y_n), y_0 = 1, at n = 20, h = 1/10."""
    n = sp.Symbol("n", integer=True)
    y = sp.Function("y")
    h = sp.Rational(1, 10)
    closed = sp.rsolve(y(n + 1) - y(n) - h * (2 * h + y(n)), y(n), {y(0): 1})
    _, y_seed = lab.seed_euler_line()
    assert y_seed[-1] == pytest.approx(float(closed.subs(n, 20)), rel=1e-13)
    assert y_seed[-1] == pytest.approx(1.2 * 1.1**20 - 0.2, rel=1e-13)


def test_solve_ivp_reference_agrees_with_the_exact_solution():
    """Oracle: the closed form 2e^t - t - 1."""
    t, y = lab.solve_ivp_reference()
    np.testing.assert_allclose(y, lab.exact(t), rtol=1e-9)


def test_check_euler_accepts_a_hand_written_loop():
    h, y = 0.1, [1.0]
    for k in range(20):
        y.append(y[-1] + h * (k * h + y[-1]))
    assert lab.check_euler(np.array(y))


@pytest.mark.parametrize(
    "make, hint",
    [
        (lambda: lab.seed_euler_line().y, "seed program"),
        (lambda: lab._euler_with_next_time(), "t_{k+1}"),
        (lambda: lab.compare_methods().y["rk4"], "RK4"),
        (lambda: lab.compare_methods().y["euler"][1:], "initial value"),
    ],
)
def test_check_euler_names_the_typical_mistake(make, hint):
    result = lab.check_euler(make())
    assert not result
    assert hint in str(result)


def test_check_rk4_recognises_full_steps_in_k2_and_k3():
    result = lab.check_rk4(lab._rk4_without_half_steps())
    assert not result and "h/2" in str(result)


def test_check_heun_recognises_a_corrector_slope_at_the_old_time():
    result = lab.check_heun(lab._heun_without_time_advance())
    assert not result and "t_k + h" in str(result)


def test_check_heun_accepts_simlab_heun_values():
    assert lab.check_heun(lab.compare_methods().y["heun"])


def test_check_exact_accepts_dsolve_output_and_rejects_a_wrong_constant():
    t = sp.Symbol("t")
    assert lab.check_exact(2 * sp.exp(t) - t - 1)
    wrong = lab.check_exact(sp.exp(t) - t - 1)
    assert not wrong and "y(0)" in str(wrong)
    assert not lab.check_exact(sp.Symbol("C1") * sp.exp(t) - t - 1)
    assert not lab.check_exact(2 * sp.exp(t))


def test_check_seed_line_value():
    assert lab.check_seed_line_value(1.2 * 1.1**20 - 0.2)
    assert "correct Euler" in str(lab.check_seed_line_value(2 * 1.1**20 - 3))


def test_run_summary_reports_the_seed_numbers():
    """Oracle: arithmetic of the closed forms; solve_ivp independently."""
    result = lab.run()
    summary = dict(result.summary)
    assert float(summary["Euler y(2)"]) == pytest.approx(2 * 1.1**20 - 3, abs=1e-6)
    assert float(summary["seed Euler line y(2)"]) == pytest.approx(1.2 * 1.1**20 - 0.2, abs=1e-6)
    reference = solve_ivp(lab.rhs, (0, 2), [1.0], rtol=1e-12, atol=1e-12).y[0, -1]
    assert float(summary["exact y(2) = 2e^2 - 3"]) == pytest.approx(reference, abs=1e-6)
    assert [name for name, _, _ in result.figures] == ["lab01_methods"]


def test_run_data_is_the_typed_result_and_every_figure_draws_from_it():
    matplotlib.use("Agg")
    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab01Results)
    assert isinstance(data.comparison, lab.MethodComparison)
    assert isinstance(data.seed_line, lab.SeedEulerLine)
    assert isinstance(data.solve_ivp, lab.SolveIvpReference)
    t, y = data.comparison
    assert t is data.comparison.t and y is data.comparison.y
    for stem, draw, figure_data in result.figures:
        assert figure_data is data
        figure = draw(figure_data)
        try:
            assert figure.axes, stem
        finally:
            plt.close(figure)
