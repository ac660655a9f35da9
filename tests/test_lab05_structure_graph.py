"""Lab 05 experiments, against sympy, python-control and the seed program replayed."""

import control
import numpy as np
import pytest
import sympy as sp
from seed_programs import seed_structure_rk4

from simlab.course import lab05_structure_graph as lab
from simlab.structure import closed_loop, input_derivative_gain


def test_symbolic_transfer_function_matches_closed_loop_for_every_a():
    """Oracle: sympy's G1 G2 G3 / (1 + G1 G2 G3) against C (sI - A)^-1 (B + s B_d)."""
    expression, s, a = lab.seed_transfer_function()
    for a_value in lab.A_VALUES:
        P = lab.seed_P(a_value)
        A, B, C = closed_loop(P, lab.SEED_W, lab.SEED_W0, lab.SEED_WC)
        B_d = input_derivative_gain(P, lab.SEED_W, lab.SEED_W0, lab.SEED_WC)
        for point in (0.4, 1.5j, -0.2 + 0.8j):
            ours = (C @ np.linalg.solve(point * np.eye(3) - A, B + point * B_d))[0, 0]
            assert complex(ours) == pytest.approx(complex(expression.subs({s: point, a: a_value})), rel=1e-12)


def test_dc_gain_is_one_so_every_response_settles_at_r():
    expression, s, a = lab.seed_transfer_function()
    assert sp.simplify(expression.subs(s, 0)) == 1
    sweep = lab.seed_sweep(40.0, 0.2)
    np.testing.assert_allclose(sweep.y[-1], 10.0, atol=1e-3)


def test_sweep_matches_python_control_step_responses():
    """Oracle: python-control step response of the symbolic closed loop, times r = 10."""
    sweep = lab.seed_sweep(10.0, 0.05)
    expression, s, a = lab.seed_transfer_function()
    for a_value in lab.A_VALUES:
        num, den = sp.fraction(sp.cancel(expression.subs(a, a_value)))
        system = control.tf([float(c) for c in sp.Poly(num, s).all_coeffs()],
                            [float(c) for c in sp.Poly(den, s).all_coeffs()])
        expected = 10 * control.step_response(system, T=sweep.t).outputs
        np.testing.assert_allclose(sweep.output(a_value), expected, atol=2e-4)


def test_seed_program_replayed_equals_seed_compatible_sweep():
    """Oracle: the seed's MATLAB loop (inv(H) Q, RK4 with K1..K4) replayed for every a."""
    sweep = lab.seed_sweep(14.8, 0.4, seed_compatible=True)
    h, r = 0.4, 10.0
    for a_value in lab.A_VALUES:
        # MATLAB's for i=1:Tf/h with Tf/h = 37.5 runs 37 times
        y = seed_structure_rk4(lab.seed_P(a_value), lab.SEED_W, lab.SEED_W0, r, h, 37)
        np.testing.assert_allclose(sweep.output(a_value), y, rtol=1e-12, atol=1e-12)


def test_true_response_jumps_by_d1_over_b1_times_r():
    versus = lab.seed_versus_true()
    np.testing.assert_allclose(versus.jump, [10.0, 0.0, 0.0])
    assert versus.x_true[0, 0] == pytest.approx(10.0) and versus.x_seed[0, 0] == 0.0


def test_four_element_loop_matches_python_control():
    """Oracle: python-control feedback(20(s+0.5)/(s(s+0.1)(s+2)(s+10)), 1)."""
    loop = lab.four_element_loop(h=0.01)
    den = np.polymul([1, 0], np.polymul([1, 0.1], np.polymul([1, 2], [1, 10])))
    closed = control.feedback(control.tf([20, 10], den), 1)
    expected = control.step_response(closed, T=loop.t).outputs
    np.testing.assert_allclose(loop.y, expected, atol=1e-6)
    np.testing.assert_allclose(np.sort_complex(loop.poles), np.sort_complex(control.poles(closed)), rtol=1e-9)


def test_rk4_step_limit_separates_bounded_and_growing_runs():
    study = lab.step_size_study()
    below = [r for r in study.runs if r.ratio < 1]
    above = [r for r in study.runs if r.ratio > 1]
    assert all(r.max_abs_y < 2 for r in below)
    assert all(r.diverged or r.max_abs_y > 1e3 for r in above)


def test_checks_accept_the_reference_and_name_mistakes():
    P = lab.seed_P(2)
    H = np.diag(P[:, 1]) - np.diag(P[:, 3]) @ lab.SEED_W
    Q = np.diag(P[:, 2]) @ lab.SEED_W - np.diag(P[:, 0])
    assert lab.check_H_Q(H, Q)
    assert "sign of diag(A)" in str(lab.check_H_Q(H, np.diag(P[:, 2]) @ lab.SEED_W + np.diag(P[:, 0])))
    A, B, _ = closed_loop(P, lab.SEED_W, lab.SEED_W0, lab.SEED_WC)
    assert lab.check_closed_loop(A, B)
    assert lab.check_jump([10, 0, 0])
    assert "seed program" in str(lab.check_jump([0, 0, 0]))


def test_a_run_that_overflows_is_told_apart_from_one_that_only_grows():
    """Over 2000 s the run at 1.05 h_limit overflows (NonFiniteStateError, which carries t);
    over the lab's 40 s it only grows."""
    long = lab.step_size_study(t_end=2000.0)
    below = [r for r in long.runs if r.ratio < 1]
    above = [r for r in long.runs if r.ratio > 1]
    assert not any(r.diverged for r in below)
    assert all(r.diverged and r.t is None and r.y is None and np.isnan(r.final) and r.max_abs_y == np.inf
               for r in above)
    assert all(0.0 < r.t_overflow <= 2000.0 for r in above)
    assert not any(r.diverged for r in lab.step_size_study().runs)


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab05Results)
    np.testing.assert_allclose([(sweep.t[-1], sweep.h) for sweep in data.sweeps], lab.SEED_RUNS)
    assert all(isinstance(sweep, lab.SeedSweep) and not sweep.seed_compatible for sweep in data.sweeps)
    assert isinstance(data.versus, lab.SeedVersusTrue) and isinstance(data.loop, lab.FourElementLoop)
    assert isinstance(data.study, lab.StepSizeStudy)
    assert all(isinstance(run, lab.StepSizeRun) for run in data.study.runs)
    assert {figure.draw for figure in result.figures} == {
        lab.plot_seed_sweep, lab.plot_seed_versus_true, lab.plot_four_element_loop}
    for figure in result.figures:
        assert any(figure.data is getattr(data, name) for name in ("sweeps", "versus", "loop"))
        fig = figure.draw(figure.data)
        try:
            assert fig.axes
        finally:
            plt.close(fig)


@pytest.mark.parametrize("a_task", [2, 5, 12])
def test_checks_follow_the_parameter_a(a_task):
    """The references of Tasks 1a-1c and 3c for a = a_task pass the checks for a = a_task, and only those."""
    for name in ("1a", "1b", "1c", "3c"):
        task = lab.TASKS[name]
        reference = task.reference(a_task=a_task)
        answers = [reference[answer] for answer in task.answers]
        assert task.check(*answers, a_task=a_task), name
    other = lab.TASKS["1a"].reference(a_task=a_task + 1)
    assert not lab.check_connections(other["P"], other["W"], other["W0"], other["Wc"], a_task=a_task)


def test_check_of_the_true_response_follows_the_step_h():
    versus = lab.seed_versus_true(h=0.1)
    assert versus.h == 0.1 and versus.x_true.shape == (101, 3)
    assert lab.check_true_outputs(versus.x_true, h=0.1)
    assert "this is z" in str(lab.check_true_outputs(versus.x_true - versus.jump, h=0.1))
