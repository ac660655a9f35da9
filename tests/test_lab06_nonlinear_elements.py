"""Lab 06 experiments: describing functions against Fourier analysis, limit cycles against harmonic
balance, saturation against solve_ivp, per-element accuracy against RK4."""

import control
import numpy as np
import pytest

from simlab.course import lab06_nonlinear_elements as lab
from simlab.nonlinear import Backlash, Relay
from simlab.plotting import plot_characteristics


def _fundamental(element, A, periods=4, n=40000):
    """Oracle: first Fourier coefficient (b1 + j a1)/A of the element's steady response to A sin."""
    theta = np.linspace(0, 2 * np.pi * periods, periods * n, endpoint=False)
    y = element.response(A * np.sin(theta))[-n:]
    th = theta[-n:]
    b1 = 2 * np.mean(y * np.sin(th))
    a1 = 2 * np.mean(y * np.cos(th))
    return (b1 + 1j * a1) / A


@pytest.mark.parametrize("A", [0.3, 0.5, 1.0, 3.0])
def test_backlash_describing_function_matches_fourier_analysis(A):
    assert complex(lab.backlash_describing_function(A, 0.2)) == pytest.approx(_fundamental(Backlash(0.2), A), abs=2e-4)


@pytest.mark.parametrize("A", [0.2, 1.0, 2.5])
def test_relay_describing_function_matches_fourier_analysis(A):
    assert complex(lab.relay_describing_function(A, 1.5)) == pytest.approx(_fundamental(Relay(1.5), A), rel=1e-4)


def test_open_loop_matches_python_control():
    den = np.polymul([1, 0], np.polymul([1, 0.1], np.polymul([1, 2], [1, 10])))
    G = control.tf([20, 10], den)
    for s in (0.3j, 1 + 1j):
        assert complex(lab.loop_open_loop(s)) == pytest.approx(complex(G(s)), rel=1e-12)


def test_linear_loop_elementwise_error_is_first_order():
    accuracy = lab.linear_accuracy()
    for hold in (accuracy.zoh, accuracy.foh):
        assert hold.order == pytest.approx(1.0, abs=0.2)
    assert all(f < z for f, z in zip(accuracy.foh.errors, accuracy.zoh.errors))


def test_saturated_reference_without_saturation_is_the_linear_response():
    """Oracle: python-control step response when the limit is never reached."""
    t = np.linspace(0, 20, 201)
    den = np.polymul([1, 0], np.polymul([1, 0.1], np.polymul([1, 2], [1, 10])))
    expected = control.step_response(control.feedback(control.tf([20, 10], den), 1), T=t).outputs
    np.testing.assert_allclose(lab.saturated_reference(1e6, t), expected, atol=1e-7)


def test_saturation_result_converges_to_solve_ivp_at_first_order():
    accuracy = lab.saturation_accuracy()
    assert accuracy.order == pytest.approx(1.0, abs=0.2)
    assert accuracy.errors[accuracy.steps.index(min(accuracy.steps))] < 0.02  # at the smallest T


def test_tighter_saturation_gives_more_overshoot():
    runs = {run.limit: run for run in lab.saturation_study()}
    overshoots = [runs[limit].metrics.overshoot for limit in (None, 1.0, 0.8, 0.5)]
    assert overshoots[0] < overshoots[1] < overshoots[2] < overshoots[3]
    for limit in (1.0, 0.8, 0.5):
        assert np.max(np.abs(runs[limit].u)) <= runs[limit].limit + 1e-12
    assert np.max(np.abs(runs[None].u)) > runs[1.0].limit  # the linear PI output exceeds 1.0


def test_backlash_limit_cycle_agrees_with_harmonic_balance():
    """Oracle: the describing-function prediction (an approximation, so 10 %)."""
    cycle = lab.backlash_limit_cycle()
    assert cycle.measured_input.amplitude == pytest.approx(cycle.predicted.A, rel=0.1)
    assert cycle.measured_output.period == pytest.approx(cycle.predicted.period, rel=0.1)


def test_backlash_limit_cycle_amplitude_scales_with_the_gap():
    """Oracle: the loop without backlash is linear, so the limit cycle scales with b."""
    small = lab.backlash_limit_cycle(b=0.1, t_end=200.0).measured_output.amplitude
    large = lab.backlash_limit_cycle(b=0.3, t_end=200.0).measured_output.amplitude
    assert large / small == pytest.approx(3.0, rel=0.05)


def test_relay_oscillation_agrees_with_harmonic_balance():
    relay = lab.relay_limit_cycle()
    assert relay.measured.amplitude == pytest.approx(relay.predicted.A, rel=0.15)
    assert relay.measured.period == pytest.approx(relay.predicted.period, rel=0.1)


def test_integrator_works_through_the_dead_zone():
    dead = lab.dead_zone_study()
    assert abs(dead.error_at_end) < 1e-3


def test_backlash_describing_function_is_zero_inside_the_gap():
    np.testing.assert_array_equal(lab.backlash_describing_function([0.05, 0.2], 0.2), [0.0, 0.0])


def test_oscillation_measures_a_sine():
    t = np.linspace(0, 50, 50001)
    measured = lab.oscillation(t, 2 + 0.7 * np.sin(2 * np.pi * t / 3.0), 10)
    assert measured.amplitude == pytest.approx(0.7, rel=1e-4)
    assert measured.period == pytest.approx(3.0, rel=1e-4)
    assert measured.mean == pytest.approx(2.0, abs=1e-2)


def test_run_returns_the_typed_results_and_every_figure_draws_from_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab06Results)
    assert isinstance(data.accuracy, lab.LinearAccuracy)
    assert isinstance(data.saturation_accuracy, lab.SaturationAccuracy)
    assert [run.limit for run in data.saturation] == [None, 1.0, 0.8, 0.5]
    assert all(isinstance(run, lab.SaturationRun) for run in data.saturation)
    assert isinstance(data.backlash, lab.BacklashLimitCycle) and isinstance(data.relay, lab.RelayLimitCycle)
    assert isinstance(data.dead_zone, lab.DeadZoneStudy)
    assert {figure.draw for figure in result.figures} == {plot_characteristics, lab.plot_lab06_responses}
    for figure in result.figures:
        assert figure.data is data or figure.data is data.elements
        fig = figure.draw(figure.data)
        try:
            assert fig.axes
        finally:
            plt.close(fig)


@pytest.mark.parametrize("changed", [False, True], ids=["defaults", "alternatives"])
def test_every_task_check_with_a_reference_accepts_it(changed):
    """The checks follow the notebook's parameters: references and checks agree at the defaults and
    with every parameter at its declared alternative, each given as Tasks gives it (by signature)."""
    namespace = {name: p.alternative for name, p in lab.PARAMETERS.items()} if changed else {}
    for name, task in lab.TASKS.items():
        if task.reference is None:
            continue
        reference = task.reference(**lab.TASKS.parameters(name, namespace, task.reference))
        parameters = lab.TASKS.parameters(name, namespace)
        assert set(task.parameters) <= set(parameters), name
        assert task.check(*(reference[answer] for answer in task.answers), **parameters), name


def test_every_check_and_reference_takes_the_parameters_its_task_names():
    """No lab constant is read where a parameter exists: each task's check (and reference) accepts
    every parameter its task lists as a keyword."""
    import inspect

    for name, task in lab.TASKS.items():
        for function in (task.check, task.reference):
            if function is not None:
                assert set(task.parameters) <= set(inspect.signature(function).parameters), (name, function.__name__)


def test_predictions_are_those_of_the_limit_cycle_runs():
    assert lab.backlash_prediction(0.2) == lab.backlash_limit_cycle(b=0.2, T=0.02, t_end=100.0).predicted
    assert lab.relay_prediction(1.0) == lab.relay_limit_cycle(T=0.004, t_end=10.0).predicted
