"""The labs as a student meets them: the specification of the student experience.

For every lab module that lists its tasks (``TASKS``), its catalogue of typical mistakes
(``MISTAKES``) and its documented parameters (``PARAMETER_CHANGES``):

1. The untouched student lab runs top to bottom; the only exceptions are the stubs' own
   ``NotImplementedError`` (in cells tagged ``raises-exception``, so Jupyter's Run All goes on),
   and the check after every task says ``[not yet] Task X is not done yet``.
2. Each catalogued mistake, written into the solution code of its task, makes that task's check
   fail with the catalogued hint.
3. Each documented parameter, set to another value in the solution, leaves every check of the
   solved lab ``[correct]`` (no ``[not yet]`` line, no error).
4. The solved lab itself checks ``[correct]`` everywhere (hints shown on purpose print as
   ``[expected hint]``).
"""

import importlib
import re

import nbformat
import pytest
from notebook_runner import ROOT, cell_index, code_cells, run_notebook

from simlab.course import EXPERIMENTS

LABS = {}
for experiment in EXPERIMENTS.values():
    module = importlib.import_module(f"simlab.course.{experiment.module}")
    if hasattr(module, "TASKS"):
        LABS[experiment.module] = module

CHECK_CALL = re.compile(r"""lab\.check\(\s*["']([^"']+)["']""")


def _solution(name):
    return ROOT / "solutions" / f"{name}.ipynb"


def _student_lab(name):
    return ROOT / "labs" / f"{name}.ipynb"


def test_some_labs_follow_the_student_path_rules():
    assert "lab01_euler_rk4" in LABS


@pytest.mark.parametrize("name", LABS)
def test_every_task_has_a_check_cell_and_every_check_cell_names_a_task(name):
    lab = LABS[name]
    checked = {task for source in code_cells(_solution(name)) for task in CHECK_CALL.findall(source)}
    assert checked == set(lab.TASKS), f"tasks without a check cell: {set(lab.TASKS) - checked}; " \
                                      f"check cells of unknown tasks: {checked - set(lab.TASKS)}"


@pytest.mark.parametrize("name", LABS)
def test_untouched_lab_runs_through_with_only_the_stubs_raising(name):
    """Oracle: nbclient, as Jupyter's Run All would execute it (it honours raises-exception)."""
    from nbclient import NotebookClient

    notebook = nbformat.read(_student_lab(name), as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "labs")}}).execute()
    errors, not_done = [], set()
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            if output.output_type == "error":
                errors.append((index, output.ename, "raises-exception" in cell.metadata.get("tags", [])))
            text = output.get("text", "") + output.get("data", {}).get("text/plain", "")
            not_done.update(re.findall(r"\[not yet\] Task (\S+) is not done yet", text))
    assert errors, "an untouched lab must show its stubs' NotImplementedError"
    wrong = [(index, ename) for index, ename, tagged in errors if ename != "NotImplementedError" or not tagged]
    assert not wrong, f"errors other than the stubs' own NotImplementedError (cell, exception): {wrong}"
    assert not_done == set(LABS[name].TASKS), f"tasks without a 'not done yet' line: {set(LABS[name].TASKS) - not_done}"


@pytest.mark.parametrize("name", LABS)
def test_solved_lab_checks_correct_everywhere(name):
    run = run_notebook(_solution(name))
    assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
    assert run.checks(), "no self-check line found"
    assert not run.checks("not yet") and not run.checks("correct, but a hint was expected"), run.checks("not yet")


MISTAKE_CASES = [(name, mistake) for name, lab in LABS.items() for mistake in lab.MISTAKES]


@pytest.mark.parametrize("name, mistake", MISTAKE_CASES,
                         ids=[f"{name[:5]}-{m.task}-{m.what}" for name, m in MISTAKE_CASES])
def test_catalogued_mistake_gets_its_hint(name, mistake):
    path = _solution(name)
    check_cell = next(i for i, source in enumerate(code_cells(path))
                      if re.search(rf"""lab\.check\(\s*["']{re.escape(mistake.task)}["']\s*\)""", source))
    assert cell_index(path, mistake.correct) < check_cell, "the mistake must be in a cell before the check"
    run = run_notebook(path, replace=[(mistake.correct, mistake.wrong)], stop_after=check_cell)
    assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
    output = run.cells[check_cell].text
    failed = [line for line in output.splitlines() if line.startswith("[not yet]")]
    assert failed, f"the check of Task {mistake.task} did not fail: {output}"
    assert mistake.hint in failed[0], f"expected the hint {mistake.hint!r}, got: {failed[0]}"


PARAMETER_CASES = [(name, change) for name, lab in LABS.items() for change in lab.PARAMETER_CHANGES]


@pytest.mark.parametrize("name, change", PARAMETER_CASES,
                         ids=[f"{name[:5]}-{c.name}" for name, c in PARAMETER_CASES])
def test_changed_parameter_keeps_the_solved_lab_correct(name, change):
    run = run_notebook(_solution(name), replace=[(change.assignment, change.changed)])
    assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
    assert run.checks("correct"), "no [correct] line at all"
    assert not run.checks("not yet"), f"{change.changed}: {run.checks('not yet')}"


@pytest.mark.parametrize("name", LABS)
def test_catalogue_has_at_least_three_mistakes(name):
    assert len(LABS[name].MISTAKES) >= 3
    assert all(mistake.task in LABS[name].TASKS for mistake in LABS[name].MISTAKES)
