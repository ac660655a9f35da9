"""Lab 04 experiments, against sympy, scipy and closed forms."""

import numpy as np
import pytest
import sympy as sp
from scipy.linalg import expm

from simlab.course import lab04_discrete_similarity as lab


def test_symbolic_phi_equals_expm():
    """Oracle: scipy.linalg.expm against sympy's inverse Laplace transform of (sI - A)^-1."""
    Phi = lab.phi_symbolic()
    t = sp.Symbol("t", positive=True)
    for value in (0.1, 0.5, 2.0):
        numeric = np.array(Phi.subs(t, value).evalf(), dtype=float)
        np.testing.assert_allclose(numeric, expm(lab.A * value), rtol=1e-12)


def test_symbolic_gamma_equals_discretize():
    Gamma = lab.gamma_symbolic()
    T = sp.Symbol("T", positive=True)
    from simlab.similarity import discretize

    for value in (0.1, 1.0):
        numeric = np.array(Gamma.subs(T, value).evalf(), dtype=float)
        np.testing.assert_allclose(numeric, discretize(lab.A, lab.B, value)[1], rtol=1e-12)


def test_series_converges_to_expm():
    rows = lab.series_convergence(0.5)
    errors = [row.phi_error for row in rows]
    assert errors[-1] < 1e-13 and all(b <= a for a, b in zip(errors, errors[1:]))


@pytest.mark.parametrize("kind, u", [("step", lambda s: 1 / s), ("ramp", lambda s: 1 / s**2),
                                      ("sine", lambda s: 1 / (s**2 + 1))])
def test_exact_responses_are_the_inverse_laplace_transforms(kind, u):
    """Oracle: sympy inverse Laplace transform of G(s) U(s), G = 1/((s+1)(s+2))."""
    s = sp.Symbol("s")
    t = sp.Symbol("t", positive=True)
    y = sp.inverse_laplace_transform(sp.apart(u(s) / ((s + 1) * (s + 2)), s), s, t)
    grid = np.array([0.3, 1.0, 4.0])
    expected = [float(y.subs(t, v)) for v in grid]
    np.testing.assert_allclose(lab.exact_response(kind, grid), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind, u", [("step", lambda s: 1 / s), ("ramp", lambda s: 1 / s**2),
                                      ("sine", lambda s: 1 / (s**2 + 1))])
@pytest.mark.parametrize("A", [[[0.0, 1.0], [-6.0, -5.0]], [[-1.0, 0.5], [0.0, -4.0]]])
def test_exact_responses_follow_another_system_matrix(kind, u, A):
    """Oracle: sympy inverse Laplace transform of C (sI - A)^-1 B U(s) with the lab's B, C."""
    s = sp.Symbol("s")
    t = sp.Symbol("t", positive=True)
    M = sp.Matrix(A).applyfunc(sp.nsimplify)
    G = (sp.Matrix([[1, 0]]) * (s * sp.eye(2) - M).inv() * sp.Matrix([0, 1]))[0]
    y = sp.inverse_laplace_transform(sp.apart(sp.together(G * u(s)), s), s, t)
    grid = np.array([0.3, 1.0, 4.0])
    expected = [float(y.subs(t, v)) for v in grid]
    np.testing.assert_allclose(lab.exact_response(kind, grid, A), expected, rtol=1e-12, atol=1e-14)


def test_transfer_function_of_the_lab_matrix():
    """Oracle: the lab's G(s) = 1/(s^2 + 3s + 2), and sympy's C (sI - A)^-1 B for another A."""
    num, den = lab.transfer_function()
    np.testing.assert_array_equal(num, [1.0])
    np.testing.assert_array_equal(den, [1.0, 3.0, 2.0])
    s = sp.Symbol("s")
    A = [[-1.0, 0.5], [0.0, -4.0]]
    G = sp.cancel((sp.Matrix([[1, 0]]) * (s * sp.eye(2) - sp.Matrix(A).applyfunc(sp.nsimplify)).inv()
                   * sp.Matrix([0, 1]))[0])
    num, den = lab.transfer_function(A)
    expected = sp.Poly(sp.denom(G), s).all_coeffs()
    lead = float(expected[0])
    np.testing.assert_allclose(den, [float(c) / lead for c in expected])
    np.testing.assert_allclose(num, [float(sp.numer(G)) / lead])


def test_each_hold_is_exact_for_its_inputs_and_orders_elsewhere():
    holds = lab.hold_accuracy()
    assert max(holds.step.zoh + holds.step.foh) < 1e-13
    assert max(holds.ramp.foh) < 1e-13
    assert min(holds.ramp.zoh) > 1e-3
    steps = np.array(holds.steps)
    zoh_order = np.polyfit(np.log(steps), np.log(holds.sine.zoh), 1)[0]
    foh_order = np.polyfit(np.log(steps), np.log(holds.sine.foh), 1)[0]
    assert zoh_order == pytest.approx(1.0, abs=0.2) and foh_order == pytest.approx(2.0, abs=0.25)


def test_similarity_beats_rk4_at_equal_step():
    for row in lab.similarity_versus_rk4(repeats=1):
        assert row.error_similarity < 1e-12 < row.error_rk4


def test_checks_name_the_typical_mistakes():
    T = 0.5
    assert lab.check_phi(expm(lab.A * T), T)
    assert "I + A T" in str(lab.check_phi(np.eye(2) + lab.A * T, T))
    assert "entry by entry" in str(lab.check_phi(np.exp(lab.A * T), T))
    assert "B T" in str(lab.check_gamma(lab.B * T, T))
    from simlab.similarity import discretize

    assert lab.check_gamma_hat(discretize(lab.A, lab.B, T, hold="foh")[2], T)


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab04Results)
    assert isinstance(data.holds, lab.HoldAccuracy)
    assert all(isinstance(row, lab.SeriesConvergenceRow) for row in data.series)
    assert all(isinstance(row, lab.SimilarityVersusRK4Row) for row in data.versus)
    assert {figure.draw for figure in result.figures} == {
        lab.plot_hold_accuracy, lab.plot_similarity_versus_rk4}
    for figure in result.figures:
        assert any(figure.data is getattr(data, name) for name in ("holds", "versus"))
        fig = figure.draw(figure.data)
        try:
            assert fig.axes
        finally:
            plt.close(fig)


@pytest.mark.parametrize("T", [0.25, 1.0])
def test_every_task_check_accepts_its_reference_at_another_sampling_period(T):
    """The checks follow the notebook's T: the reference answers for T pass the checks for T."""
    for name, task in lab.TASKS.items():
        parameters = {"T": T} if "T" in task.parameters else {}
        reference = task.reference(**parameters)
        assert task.check(*(reference[answer] for answer in task.answers), **parameters), name


def test_checks_of_the_functions_name_the_typical_slips():
    def series_without_factor_T(A, B, T, terms):
        Phi, Gamma = lab.phi_series(A, T, terms, B)
        return Phi, Gamma / T

    def recurrence_ignoring_x0(Phi, Gamma, C, u, x0):
        return lab.TASKS["D1"].reference()["recurrence"](Phi, Gamma, C, u, 0 * x0)

    assert "factor T" in str(lab.check_series(series_without_factor_T))
    assert "initial state is ignored" in str(lab.check_recurrence(recurrence_ignoring_x0))
    not_written = lab.check_recurrence(lambda *args: (_ for _ in ()).throw(NotImplementedError()))
    assert not not_written.done
