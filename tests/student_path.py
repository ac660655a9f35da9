"""The student-path tests, one file per lab (tests/test_student_path_labNN.py), made here.

The specification of the student experience (see the module docstring of
tests/test_student_path_lab01.py for the list). Split by lab so that the test run spreads the
labs over the workers (pytest -n, --dist loadfile).
"""

import importlib
import re

import nbformat
import pytest

from notebook_runner import CHECK_LINE, ROOT, cell_index, code_cells, run_notebook
from simlab.course import EXPERIMENTS
from simlab.course.grade_worker import NO_FIGURE_IMAGES

CHECK_CALL = re.compile(r"""lab\.check\(\s*["']([^"']+)["']""")


def _solution(name):
    return ROOT / "solutions" / f"{name}.ipynb"


def _student_lab(name):
    return ROOT / "labs" / f"{name}.ipynb"


def lab_tests(number):
    """The student-path tests of lab ``number`` ("01" .. ), as a dict of test functions."""
    experiment = EXPERIMENTS[f"lab{number}"]
    name = experiment.module
    lab = importlib.import_module(f"simlab.course.{name}")

    def test_lab_lists_its_tasks_mistakes_and_parameters():
        assert lab.TASKS and len(lab.MISTAKES) >= 3 and lab.PARAMETER_CHANGES
        assert all(mistake.task in lab.TASKS for mistake in lab.MISTAKES)

    def test_every_task_has_a_check_cell_and_every_check_cell_names_a_task():
        checked = {task for source in code_cells(_solution(name)) for task in CHECK_CALL.findall(source)}
        assert checked == set(lab.TASKS), f"tasks without a check cell: {set(lab.TASKS) - checked}; " \
                                          f"check cells of unknown tasks: {checked - set(lab.TASKS)}"

    def test_untouched_lab_runs_through_with_only_the_stubs_raising():
        """Oracle: nbclient, as Jupyter's Run All would execute it (it honours raises-exception).
        The figures are built but not rendered as images (the test reads text and errors only)."""
        from nbclient import NotebookClient

        notebook = nbformat.read(_student_lab(name), as_version=4)
        NotebookClient(notebook, timeout=300, kernel_name="python3", extra_arguments=NO_FIGURE_IMAGES,
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
        assert not_done == set(lab.TASKS), f"tasks without a 'not done yet' line: {set(lab.TASKS) - not_done}"

    def test_solved_lab_checks_correct_everywhere():
        """Read from the solution's stored outputs: nbval (same suite) checks they are a fresh run's."""
        notebook = nbformat.read(_solution(name), as_version=4)
        errors = [index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"
                  and any(output.output_type == "error" for output in cell.outputs)]
        assert not errors, f"stored errors in cells {errors}"
        lines = [line for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
                 for line in (output.get("text", "") + output.get("data", {}).get("text/plain", "")).splitlines()
                 if CHECK_LINE.match(line)]
        assert lines, "no self-check line found"
        wrong = [line for line in lines if line.startswith(("[not yet]", "[correct, but a hint was expected]"))]
        assert not wrong, wrong

    @pytest.mark.parametrize("mistake", lab.MISTAKES, ids=[f"{m.task}-{m.what}" for m in lab.MISTAKES])
    def test_catalogued_mistake_gets_its_hint(mistake):
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

    @pytest.mark.parametrize("change", lab.PARAMETER_CHANGES, ids=[c.name for c in lab.PARAMETER_CHANGES])
    def test_changed_parameter_keeps_the_solved_lab_correct(change):
        run = run_notebook(_solution(name), replace=[(change.assignment, change.changed)])
        assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
        assert run.checks("correct"), "no [correct] line at all"
        assert not run.checks("not yet"), f"{change.changed}: {run.checks('not yet')}"

    return {key: value for key, value in locals().items() if key.startswith("test_")}
