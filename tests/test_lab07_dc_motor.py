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
    """The notebook draws the loaded start with the same function; the seed's ACR start has
    the same fields (``result``, ``metrics``)."""
    start = getattr(experiment.data, entry)
    for draw in (lab.plot_drive_start, lab.plot_drive_phase):
        fig = draw(start)
        try:
            assert fig.axes and all(ax.lines for ax in fig.axes)
        finally:
            plt.close(fig)


@pytest.mark.parametrize("entry", ["start", "loaded", "seed_acr"])
def test_the_stage_names_overlap_no_line_and_no_other_text(experiment, plt, entry):
    """Oracle: matplotlib's own layout; every stage name's box (in pixels) against every point of
    every line of the figure and against the other names."""
    import numpy as np

    fig = lab.plot_drive_start(getattr(experiment.data, entry))
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax_n, ax_i = fig.axes
        names = [text for text in ax_n.texts if text.get_text() in ("I", "II", "III")]
        assert [text.get_text() for text in names] == ["I", "II", "III"] and not ax_i.texts
        boxes = [text.get_window_extent(renderer).expanded(1.1, 1.1) for text in names]
        for ax in (ax_n, ax_i):
            for line in ax.lines:
                xy = line.get_transform().transform(line.get_xydata())
                if len(xy) < 100:  # reference and boundary lines: sample their segments densely
                    s = np.linspace(0.0, 1.0, 200)[:, None]
                    xy = np.concatenate([a + s * (b - a) for a, b in zip(xy[:-1], xy[1:])])
                for box, text in zip(boxes, names):
                    inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1)
                    assert not inside.any(), f"stage name {text.get_text()} overprints a line"
        for i, box in enumerate(boxes):
            assert not any(box.overlaps(other) for other in boxes[i + 1:])
        legend = ax_n.get_legend().get_window_extent(renderer)
        assert not any(box.overlaps(legend) for box in boxes)
    finally:
        plt.close(fig)


def test_run_summary_names_the_default_load_and_gives_its_numbers(experiment):
    """run() uses the lab's default load z = 0.8 and says so. Oracles: the prediction scales with
    lambda - z from the textbook's 8.31 % at no load; the load step is a linear transient, so its dip
    is 0.8 times the dip of the rated step I_N."""
    labels = dict(experiment.summary)
    assert "start with load z = 0.8: sigma_n simulated / predicted" in labels
    assert "load step 0.8 I_N: speed dip / recovery" in labels
    assert not any("rated" in label for label in labels)
    data = experiment.data
    assert data.loaded.load == pytest.approx(0.8 * 136) and data.loaded.result.t[-1] == pytest.approx(1.5)
    assert data.loaded.predicted == pytest.approx(8.31 * (1.5 - 0.8) / 1.5, abs=0.005)
    assert data.load_step.dip == pytest.approx(0.8 * lab.load_step(z=1.0).dip, rel=1e-3)


def test_the_start_figure_prints_the_parameters_and_the_load_in_use(plt):
    start = lab.loaded_start(0.5, p=lab.drive_parameters(2.0), h=4.0, h_sim=1e-4)
    fig = lab.plot_drive_start(start)
    try:
        title = fig.axes[0].get_title()
        assert "I_dL = 68 A (z = 0.5)" in title and "h = 4" in title and "= 2 (I_dm = 272 A)" in title
        labels = [line.get_label() for line in fig.axes[1].lines]
        assert "I_dm = 272 A" in labels and "I_dL = 68 A" in labels
    finally:
        plt.close(fig)


def test_experiments_follow_the_notebook_parameters():
    start = lab.no_load_start(p=lab.drive_parameters(2.0), h=4.0, h_sim=1e-4)
    assert start.parameters.overload == 2.0 and start.design.h == 4.0 and start.load == 0.0
    assert start.result.t[1] == pytest.approx(1e-4)
    assert abs(start.metrics.Id_plateau - 2.0 * 136) < 0.05 * 2.0 * 136  # the plateau follows I_dm = lambda I_N
    loaded = lab.loaded_start(0.5, p=lab.drive_parameters(2.0), h=4.0, h_sim=1e-4)
    assert loaded.load == pytest.approx(68.0) and loaded.predicted < start.predicted


def test_runs_are_long_enough_for_stage_two():
    """Oracle: the textbook spans (1 s no load, 1.5 s rated load) and t_II = n* Ce Tm / (R (lambda - z) I_N) by hand."""
    assert lab.start_span() == 1.0 and lab.start_span(lab.DRIVE, 1.0) == 1.5
    t_II = 1460 * 0.132 * 0.18 / (0.5 * (1.5 - 0.8) * 136)  # the default load z = 0.8: 0.73 s
    assert lab.start_span(lab.DRIVE, 0.8) == 1.5 and 1.0 < t_II + 0.45 <= 1.5
    t_II = 1460 * 0.132 * 0.18 / (0.5 * (1.5 - 1.3) * 136)
    assert lab.start_span(lab.DRIVE, 1.3) >= t_II + 0.45


def test_a_cached_experiment_is_shared_and_read_only():
    first = lab.no_load_start()
    assert lab.no_load_start("analog", p=lab.drive_parameters(1.5), h=5, h_sim=5e-5) is first
    with pytest.raises(ValueError, match="read-only"):
        first.result.n[0] = 1.0


@pytest.mark.parametrize("z, message", [(1.5, "z must be below the overload factor"), (-0.1, "z must be >= 0")])
def test_a_load_at_or_above_the_current_limit_is_rejected(z, message):
    with pytest.raises(ValueError, match=message):
        lab.loaded_start(z)


def test_a_load_step_needs_a_load():
    with pytest.raises(ValueError, match="z must be positive"):
        lab.load_step(z=0.0)
