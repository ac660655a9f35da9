"""The student-path tests, one file per lab (tests/test_student_path_labNN.py), made here.

The specification of the student experience (see the module docstring of
tests/test_student_path_lab01.py for the list). Split by lab so that the test run spreads the
labs over the workers (pytest -n, --dist loadfile).
"""

import ast
import importlib
import re

import nbformat
import pytest

from notebook_runner import CHECK_LINE, ROOT, cell_index, code_cells, run_notebook
from simlab.course import EXPERIMENTS
from simlab.course.grade_worker import NO_FIGURE_IMAGES
from simlab.course.parameters import Parameters

CHECK_CALL = re.compile(r"""lab\.check\(\s*["']([^"']+)["']""")
#: The parameter cell: the second code cell, right after the imports; its first line starts so.
PARAMETER_CELL = 1
PARAMETER_HEADING = "# Parameters"
USE_PARAMETERS = "lab.use_parameters()"


def parameter_assignments(source):
    """``{name: value}`` of the plain assignments of a parameter cell (literals, evaluated)."""
    tree = ast.parse(source)
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            namespace = {}
            exec(compile(ast.Module([node], []), "<parameters>", "exec"), {"__builtins__": {}}, namespace)
            values.update(namespace)
    return values


def with_parameters(source, changes):
    """The parameter cell ``source`` with ``changes`` (name -> value) assigned before ``lab.use_parameters()``."""
    lines = "".join(f"{name} = {value!r}\n" for name, value in changes.items())
    assert USE_PARAMETERS in source, f"the parameter cell does not end with {USE_PARAMETERS}"
    return source.replace(USE_PARAMETERS, lines + USE_PARAMETERS)


def last_check_cell(path):
    """Index of the last code cell that calls lab.check."""
    return max(i for i, source in enumerate(code_cells(path)) if CHECK_CALL.search(source))


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
        assert lab.TASKS and len(lab.MISTAKES) >= 3 and lab.PARAMETERS
        assert all(mistake.task in lab.TASKS for mistake in lab.MISTAKES)

    def test_lab_declares_its_parameter_contract():
        """Each parameter: unit, meaning, at least one rule, and a second valid value the tests try."""
        contract = lab.PARAMETERS
        assert isinstance(contract, Parameters) and len(contract) >= 1
        assert lab.TASKS.contract is contract, "TASKS must be built with parameters=PARAMETERS"
        assert lab.use_parameters == contract.use
        defaults = contract.defaults()
        for parameter in contract.values():
            assert isinstance(parameter.unit, str) and parameter.meaning and parameter.rules, parameter.name
            assert parameter.alternative is not None, f"{parameter.name} has no alternative value to try"
            assert not contract.changed(defaults) and contract.changed({parameter.name: parameter.alternative})
            assert not contract.problems({**defaults, parameter.name: parameter.alternative}), parameter.name
        alternatives = {name: parameter.alternative for name, parameter in contract.items()}
        assert not contract.problems(alternatives), "all alternatives at once must be valid"

    @pytest.mark.parametrize("folder", ["solutions", "labs"])
    def test_parameter_cell_holds_exactly_the_declared_parameters(folder):
        source = code_cells(ROOT / folder / f"{name}.ipynb")[PARAMETER_CELL]
        assert source.startswith(PARAMETER_HEADING), f"code cell {PARAMETER_CELL} must start with {PARAMETER_HEADING!r}"
        tree = ast.parse(source)
        assert ast.unparse(tree.body[-1]) == USE_PARAMETERS, f"the parameter cell must end with {USE_PARAMETERS}"
        assert all(isinstance(node, ast.Assign) for node in tree.body[:-1]), "only assignments, then the call"
        values = parameter_assignments(source)
        assert set(values) == set(lab.PARAMETERS), f"declared {sorted(lab.PARAMETERS)}, cell sets {sorted(values)}"
        defaults = lab.PARAMETERS.defaults()
        assert not lab.PARAMETERS.changed(values), {key: (values[key], defaults[key]) for key in values}

    def test_no_other_cell_rebinds_a_parameter():
        """The parameters are set once, in their cell: a later cell that rebinds one would make the
        checks above it and below it disagree."""
        from simlab.course.grade_worker import bound_names

        cells = code_cells(_solution(name))
        rebound = {index: sorted(bound_names(source) & set(lab.PARAMETERS)) for index, source in enumerate(cells)
                   if index != PARAMETER_CELL}
        assert not any(rebound.values()), {index: names for index, names in rebound.items() if names}

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

    @pytest.mark.parametrize("parameter", list(lab.PARAMETERS))
    def test_changed_parameter_keeps_every_check_correct(parameter):
        """The solution with one parameter at its alternative value, run up to its last check."""
        path = _solution(name)
        source = code_cells(path)[PARAMETER_CELL]
        changed = with_parameters(source, {parameter: lab.PARAMETERS[parameter].alternative})
        run = run_notebook(path, replace=[(source, changed)], stop_after=last_check_cell(path))
        assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
        assert run.checks("correct"), "no [correct] line at all"
        assert not run.checks("not yet"), f"{parameter} = {lab.PARAMETERS[parameter].alternative!r}: {run.checks('not yet')}"
        assert run.namespace[parameter] == lab.PARAMETERS[parameter].alternative

    def test_all_parameters_changed_keep_the_whole_lab_correct():
        """The whole solution with every parameter at its alternative value: each check correct,
        no cell raises (the tables, labels and figures follow the values too)."""
        path = _solution(name)
        source = code_cells(path)[PARAMETER_CELL]
        changes = {key: parameter.alternative for key, parameter in lab.PARAMETERS.items()}
        run = run_notebook(path, replace=[(source, with_parameters(source, changes))])
        assert run.error is None, f"cell {run.error.index} raised {run.error.error!r}"
        assert len(run.checks("correct")) >= len(lab.TASKS)
        assert not run.checks("not yet"), run.checks("not yet")
        assert "changed from the lab's value" in run.cells[PARAMETER_CELL].text

    return {key: value for key, value in locals().items() if key.startswith("test_")}
