"""Lab 07 as a whole: ``run()`` returns the lab's typed results, and every figure is drawn from them.

The values themselves are specified in tests/test_dc_motor.py (design formulas, the textbook's
claims about the start-up); here the shape of what the lab hands to notebooks and ``simlab run``.
"""

import dataclasses

import matplotlib
import pytest

from simlab.course import ExperimentResult
from simlab.course import lab07_dc_motor as lab
from simlab.plants.dc_motor import ANTI_WINDUP, DriveResult, RegulatorDesign


@pytest.fixture(scope="module")
def experiment():
    return lab.run()


@pytest.fixture
def plt():
    """pyplot on the non-interactive Agg backend (no display needed)."""
    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _dicts_and_unfrozen(value, path="data"):
    """Paths of every dict and of every dataclass that is not frozen, anywhere inside ``value``."""
    found = []
    if dataclasses.is_dataclass(value):
        if not value.__dataclass_params__.frozen:
            found.append(("unfrozen", path))
        for field in dataclasses.fields(value):
            found += _dicts_and_unfrozen(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, dict):
        found.append(("dict", path))
        for key, entry in value.items():
            found += _dicts_and_unfrozen(entry, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for i, entry in enumerate(value):
            found += _dicts_and_unfrozen(entry, f"{path}[{i}]")
    return found


def test_run_data_is_the_typed_lab07_result(experiment):
    assert isinstance(experiment, ExperimentResult)
    data = experiment.data
    assert isinstance(data, lab.Lab07Results)
    assert isinstance(data.design, RegulatorDesign)
    for start in (data.start, data.loaded):
        assert isinstance(start, lab.StartResult) and isinstance(start.metrics, lab.StartMetrics)
    assert isinstance(data.load_step, lab.DisturbanceResult)
    assert isinstance(data.grid_dip, lab.GridDipResult) and data.grid_dip.fraction == 0.1
    assert isinstance(data.no_asr_limit, lab.NoLimitResult)
    assert isinstance(data.seed_acr, lab.SeedACRResult) and isinstance(data.seed_acr.design, RegulatorDesign)
    assert isinstance(data.versus, lab.StructureVersusODE)
    # the one collection keyed by a name: the anti-windup treatments, each a typed start
    assert list(data.windup) == list(ANTI_WINDUP)
    assert all(isinstance(entry, lab.StartResult) for entry in data.windup.values())
    assert _dicts_and_unfrozen(data) == [("dict", "data.windup")]


def test_every_time_series_of_the_lab_unpacks_as_t_n(experiment):
    data = experiment.data
    runs = [data.start.result, data.loaded.result, data.load_step.result, data.grid_dip.result,
            data.no_asr_limit.result, data.seed_acr.result, data.versus.ode,
            *(entry.result for entry in data.windup.values())]
    for result in runs:
        t, n = result
        assert isinstance(result, DriveResult) and t is result.t and n is result.n


def test_every_figure_is_drawn_by_a_lab_function_from_the_typed_results(experiment, plt):
    data = experiment.data
    expected = {
        "lab07_start": (lab.plot_drive_start, data.start),
        "lab07_phase": (lab.plot_drive_phase, data.start),
        "lab07_windup": (lab.plot_drive_windup, data.windup),
    }
    assert [figure.stem for figure in experiment.figures] == list(expected)
    for figure in experiment.figures:
        draw, source = expected[figure.stem]
        assert figure.draw is draw and figure.data is source
        fig = figure.draw(figure.data)
        try:
            assert fig.axes and all(ax.lines for ax in fig.axes)
        finally:
            plt.close(fig)


@pytest.mark.parametrize("entry", ["loaded", "seed_acr"])
def test_the_start_figures_draw_the_other_starts(experiment, plt, entry):
    """The notebook draws the rated-load start with the same function; the seed's ACR start has
    the same fields (``result``, ``metrics``)."""
    start = getattr(experiment.data, entry)
    for draw in (lab.plot_drive_start, lab.plot_drive_phase):
        fig = draw(start)
        try:
            assert fig.axes and all(ax.lines for ax in fig.axes)
        finally:
            plt.close(fig)
