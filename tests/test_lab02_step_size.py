"""Lab 02 experiments and self-checks, against sympy, scipy and python-control."""

import control
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab.course import lab02_step_size as lab
from simlab.course import systems
from simlab.integrators import METHODS, NonFiniteStateError


def test_nonlinear_problem_exact_solution():
    """Oracle: solve_ivp with tight tolerances on y' = -2 t y^2."""
    solution = solve_ivp(lab.nonlinear_rhs, (0, 2), [1.0], rtol=1e-12, atol=1e-12, dense_output=True)
    t = np.linspace(0, 2, 11)
    np.testing.assert_allclose(lab.nonlinear_exact(t), solution.sol(t)[0], rtol=1e-9)


def test_measured_orders_are_one_two_four():
    study = lab.convergence_study()
    for method, order in (("euler", 1), ("heun", 2), ("rk4", 4)):
        assert abs(study.orders[method] - order) <= 0.15


def test_test_equation_runs_decay_below_and_grow_above_the_limit():
    runs = lab.test_equation_runs()
    for run in runs:
        if run.ratio < 1:
            assert run.final < 1.0
        else:
            assert run.final > 1.0


def test_stiff_exact_step_response():
    """Oracle: python-control step response of 1000/((s+1)(s+1000))."""
    t = np.linspace(0, 5, 501)
    response = control.step_response(control.tf([1000], [1, 1001, 1000]), T=t)
    np.testing.assert_allclose(systems.stiff_exact(t), response.outputs, atol=1e-9)


def test_stiff_rk4_diverges_above_the_limit_and_implicit_methods_do_not():
    stiff = lab.stiff_comparison()
    assert stiff.h_limit_rk4 == pytest.approx(2.785293563 / 1000, rel=1e-6)
    by_name = {(r.method, r.h): r for r in stiff.runs}
    assert by_name[("rk4", 0.0025)].max_error < 1e-3
    assert by_name[("rk4", 0.003125)].y is None
    assert by_name[("backward euler", 0.1)].max_error < 0.05
    assert by_name[("exact (expm)", 0.1)].max_error < 1e-12


def test_rk4_on_stiff_system_above_limit_raises():
    A, B, _ = systems.stiff_system()
    with pytest.raises(NonFiniteStateError):
        lab.rk4(lambda t, x: A @ x + B, (0, 5), np.zeros(2), 0.003125)


def test_seed_state_space_is_the_closed_loop():
    """Oracle: python-control feedback(tf(1, [1, 4, 8, 5]), 1)."""
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    A, b, C = systems.seed_rk4_system()
    ss = control.ss(A, b.reshape(3, 1), C.reshape(1, 3), 0)
    for s in (0.0, 1j, 2 + 3j):
        assert complex(ss(s)) == pytest.approx(complex(closed(s)), rel=1e-12)


def test_seed_rk4_program_matches_the_exact_step_response():
    """Oracle: python-control step response of the closed loop times r = 5."""
    A, b, C = systems.seed_rk4_system()
    t, y = systems.seed_rk4_program(A, b, C)
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    exact = 5.0 * control.step_response(closed, T=t).outputs
    np.testing.assert_allclose(y, exact, atol=1e-7)


def test_seed_rk4_lab_settling_time_and_final_value():
    """Oracle: python-control step_info (2 % settling) on the exact response; r G(0) = 5/6."""
    data = lab.seed_rk4_lab()
    assert data.steady_state == pytest.approx(5 / 6)
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    info = control.step_info(closed, T=np.linspace(0, 20, 20001), SettlingTimeThreshold=0.02)
    assert data.settling_time == pytest.approx(info["SettlingTime"], abs=0.021)
    expected_poles = np.roots([1, 4, 8, 6])
    np.testing.assert_allclose(np.sort_complex(data.poles), np.sort_complex(expected_poles), rtol=1e-10)


def test_seed_rk4_step_table_rk4_beats_euler():
    for row in lab.seed_rk4_lab().step_table:
        assert row.rk4_error < row.euler_error


def test_check_seed_state_space_accepts_any_realization():
    """Oracle: python-control's own realization of the closed loop is accepted."""
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    ss = control.ss(closed)
    assert lab.check_seed_state_space(ss.A, ss.B, ss.C)


def test_check_seed_state_space_recognises_the_open_loop():
    A = np.array([[-4.0, -8.0, -5.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    result = lab.check_seed_state_space(A, [1, 0, 0], [0, 0, 1])
    assert not result and "open loop" in str(result)


def test_check_order_explains_local_versus_global():
    assert lab.check_order("rk4", 4.05)
    assert "local error" in str(lab.check_order("euler", 2.0))


def test_check_stability_limit_sign_hint():
    assert lab.check_stability_limit("rk4", -2.7853)
    assert "negative real axis" in str(lab.check_stability_limit("rk4", 2.7853))


def test_stiff_runs_by_name_are_the_table_runs():
    stiff = lab.stiff_comparison()
    named = (stiff.rk4_below_limit, stiff.rk4_above_limit, stiff.backward_euler, stiff.exact_update)
    assert len(stiff.runs) == 4 and all(run is by_name for run, by_name in zip(stiff.runs, named))
    assert [run.diverged for run in stiff.runs] == [False, True, False, False]
    assert stiff.rk4_above_limit.h == 0.003125


def test_stiff_note_comes_from_the_error_fields():
    """Oracle: the UnstableRunError that simlab.rk4 raises for the same run (before it overflows)."""
    from simlab.guards import UnstableRunError

    A, B, _ = systems.stiff_system()
    with pytest.raises(UnstableRunError) as raised:
        lab.rk4(lambda t, x: A @ x + B, (0, 5), np.zeros(2), 0.003125)
    error = raised.value
    assert lab.stiff_comparison().rk4_above_limit.note == (
        f"rk4: stopped as unstable at step {error.step} of {error.steps} (t = {error.t:.6g}); "
        f"stable only below h = {error.h_limit:.4g}")
    assert error.h_limit == pytest.approx(-lab.real_stability_limit("rk4") / 1000.0, rel=1e-3)


def test_seed_step_table_counts_evaluations_stages_times_steps():
    """Oracle: the method table, nfev = stages * N with N = Tf / h."""
    seed = lab.seed_rk4_lab()
    assert [row.h for row in seed.step_table] == list(lab.SEED_STEP_SIZES)
    for row in seed.step_table:
        assert row.steps == round(systems.SEED_TF / row.h)
        assert row.euler_nfev == METHODS["euler"].stages * row.steps
        assert row.rk4_nfev == METHODS["rk4"].stages * row.steps
    assert seed.step_row(0.25).h == 0.25 and seed.step_row(0.25).rk4_nfev == 80
    with pytest.raises(ValueError, match="step sizes"):
        seed.step_row(0.3)


def test_run_data_is_the_typed_result_and_every_figure_draws_from_it():
    matplotlib.use("Agg")
    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab02Results)
    assert isinstance(data.convergence, lab.ConvergenceStudy)
    assert isinstance(data.stiff, lab.StiffComparison)
    assert isinstance(data.seed, lab.SeedRK4Lab)
    assert all(isinstance(run, lab.StabilityRun) for run in data.test_runs)
    parts = [data.convergence, data.stability, data.stiff, data.seed]
    assert [stem for stem, _, _ in result.figures] == [
        "lab02_convergence", "lab02_stability_regions", "lab02_stiff", "lab02_seed_rk4"]
    for (stem, draw, figure_data), part in zip(result.figures, parts):
        assert figure_data is part
        figure = draw(figure_data)
        try:
            assert figure.axes, stem
        finally:
            plt.close(figure)


# ---------------------------------------------------------------------------------------------
# The student path: task checks that follow the notebook's parameters (issue 13)
# ---------------------------------------------------------------------------------------------


def test_task_checks_accept_the_references_of_every_task():
    """Oracle: each task's own reference answers, computed with the lab's parameters."""
    for name, task in lab.TASKS.items():
        reference = task.reference()
        assert lab.check(name, namespace=reference), name


def test_check_orders_follows_the_step_sizes():
    """Oracle: np.polyfit on the errors of the convergence study with the same step sizes."""
    hs = 0.1 / 2.0 ** np.arange(5)
    study = lab.convergence_study(hs)
    slopes = [np.polyfit(np.log(hs), np.log(study.errors[m]), 1)[0] for m in ("euler", "heun", "rk4")]
    assert lab.check_orders(*slopes, hs=hs)
    intercept = np.polyfit(np.log(hs), np.log(study.errors["euler"]), 1)[1]
    assert "intercept" in str(lab.check_orders(intercept, *slopes[1:], hs=hs))


def test_check_stability_function_names_the_typical_slips():
    """Oracle: sympy; R(z) of RK4 with full steps in K2 and K3 is 1 + z + 5z^2/6 + z^3/2 + z^4/6."""
    z, h, lam, y0 = sp.symbols("z h lambda y_0")
    assert lab.check_stability_function("rk4", 1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24)
    assert "z = h lambda" in str(lab.check_stability_function("euler", 1 + h * lam))
    assert "divide" in str(lab.check_stability_function("euler", y0 + y0 * z))
    full_steps = 1 + z + sp.Rational(5, 6) * z**2 + z**3 / 2 + z**4 / 6
    assert "middle of the step" in str(lab.check_stability_function("rk4", full_steps))


def test_check_stability_limit_recognises_zero():
    assert "z = 0" in str(lab.check_stability_limit("euler", 0.0))


def test_check_rk4_step_limit_asks_to_round_up():
    """Oracle: the RK4 limit |z_min| / 1000 of the fast eigenvalue, z_min = -2.785293563."""
    h_max = 2.785293563 / 1000
    steps = int(np.ceil(5.0 / h_max))
    assert lab.check_rk4_step_limit(h_max, steps)
    assert "round up" in str(lab.check_rk4_step_limit(h_max, steps - 1))
    assert "slow mode" in str(lab.check_rk4_step_limit(2.785293563, steps))


def test_check_implicit_euler_follows_the_step():
    """Oracle: the implicit Euler loop (I - hA) x_{k+1} = x_k + h B u written out."""
    A, B, _ = systems.stiff_system()
    h = 0.05
    x = np.zeros((round(5.0 / h) + 1, 2))
    for k in range(len(x) - 1):
        x[k + 1] = np.linalg.solve(np.eye(2) - h * A, x[k] + h * B)
    assert lab.check_implicit_euler(x, h_implicit=h)
    assert not lab.check_implicit_euler(x, h_implicit=0.1)


def test_check_seed_rk4_follows_the_step():
    """Oracle: python-control step response of the closed loop times r = 5, at h = 0.01."""
    A, b, C = systems.seed_rk4_system()
    t, y = systems.seed_rk4_program(A, b, C, h=0.01)
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    np.testing.assert_allclose(y, 5.0 * control.step_response(closed, T=t).outputs, atol=1e-8)
    assert lab.check_seed_rk4(y, h_seed=0.01)
    assert "initial value" in str(lab.check_seed_rk4(y[1:], h_seed=0.01))


def test_seed_rk4_lab_with_another_step_adds_its_row():
    seed = lab.seed_rk4_lab(h=0.01)
    assert len(seed.t) == 501 and seed.step_row(0.01).steps == 500
    assert [row.h for row in seed.step_table] == [0.01, *lab.SEED_STEP_SIZES]


def test_stiff_comparison_uses_the_implicit_step():
    stiff = lab.stiff_comparison(h=0.05)
    assert stiff.backward_euler.h == 0.05 and stiff.backward_euler.steps == 100
    assert stiff.exact_update.h == 0.05 and stiff.exact_update.max_error < 1e-12


def test_seed_rk4_lab_follows_the_input_height_and_the_simulated_time():
    """Oracle: python-control step response of the closed loop times r = 2, over Tf = 4 s."""
    seed = lab.seed_rk4_lab(h=0.02, r=2.0, Tf=4.0)
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    assert len(seed.t) == 201 and seed.t[-1] == pytest.approx(4.0)
    np.testing.assert_allclose(seed.exact, 2.0 * control.step_response(closed, T=seed.t).outputs, atol=1e-9)
    assert seed.steady_state == pytest.approx(2.0 / 6.0) and seed.max_error < 1e-7
    assert seed.step_row(0.5).steps == 8
