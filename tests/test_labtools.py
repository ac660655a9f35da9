"""The lab generator: solutions/ is the single source of labs/, and student work is never lost."""

import json
from pathlib import Path

import nbformat
import pytest

from simlab.course.labtools import BEGIN, END, LabBuildError, build_labs, make_lab, strip_solutions

ROOT = Path(__file__).resolve().parent.parent


def _solution_notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Lab 99\nTask 1: write Euler."),
        nbformat.v4.new_code_cell("import numpy as np"),
        nbformat.v4.new_code_cell(f"def euler():\n    {BEGIN}\n    return 1\n    {END}\n\nprint(euler())"),
        nbformat.v4.new_markdown_cell(f"**Answer.**\n{BEGIN}\nBecause h is too large.\n{END}"),
    ]
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nb.cells[2].execution_count = 3
    return json.loads(nbformat.writes(nb))


@pytest.fixture
def project(tmp_path):
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "lab99_demo.ipynb").write_text(json.dumps(_solution_notebook()))
    return tmp_path


def test_strip_solutions_keeps_indentation_and_code_around_the_block():
    lines = ["def f():", f"    {BEGIN}", "    return 1", f"    {END}", "print(f())"]
    assert strip_solutions(lines) == [
        "def f():", "    # YOUR CODE HERE",
        '    raise NotImplementedError("replace this line with your code, then run the cell")', "print(f())"]


def test_strip_solutions_in_markdown_leaves_an_answer_prompt():
    assert strip_solutions(["Answer:", BEGIN, "secret", END], "markdown") == ["Answer:", "*YOUR ANSWER HERE*"]


@pytest.mark.parametrize(
    "lines, message",
    [([BEGIN, "x = 1"], "never closed"), ([END], "without"), ([BEGIN, BEGIN, END], "nested")],
)
def test_unbalanced_markers_are_errors(lines, message):
    with pytest.raises(LabBuildError, match=message):
        strip_solutions(lines, where="lab99, cell 2")


def test_make_lab_clears_outputs_and_removes_solutions():
    lab = make_lab(_solution_notebook(), "lab99_demo.ipynb")
    text = json.dumps(lab)
    assert "return 1" not in text and "Because h is too large" not in text
    code = lab["cells"][2]
    assert code["outputs"] == [] and code["execution_count"] is None
    assert "raise NotImplementedError" in "".join(code["source"])
    nbformat.validate(nbformat.reads(json.dumps(lab), as_version=4))


def test_stub_cells_let_run_all_go_on():
    """The cell of a stub is tagged raises-exception (Jupyter's Run All continues past it); others are not."""
    lab = make_lab(_solution_notebook(), "lab99_demo.ipynb")
    tags = [cell.get("metadata", {}).get("tags", []) for cell in lab["cells"]]
    assert tags[2] == ["raises-exception"]
    assert all("raises-exception" not in t for i, t in enumerate(tags) if i != 2)


def test_build_writes_labs_and_check_then_passes(project):
    report = build_labs(project)
    assert [p.name for p in report.written] == ["lab99_demo.ipynb"]
    assert build_labs(project, check=True).stale == []
    assert not list((project / "labs").glob(".*.tmp")), "atomic write left a temporary file"


def test_check_reports_a_lab_that_is_out_of_date(project):
    build_labs(project)
    solution = project / "solutions" / "lab99_demo.ipynb"
    nb = json.loads(solution.read_text())
    nb["cells"][0]["source"] = "# Lab 99, revised"
    solution.write_text(json.dumps(nb))
    assert [p.name for p in build_labs(project, check=True).stale] == ["lab99_demo.ipynb"]
    assert build_labs(project).written  # an unedited lab is simply regenerated


def test_check_reports_a_missing_lab(project):
    assert [p.name for p in build_labs(project, check=True).stale] == ["lab99_demo.ipynb"]
    assert not (project / "labs").exists()


def test_edited_lab_is_not_overwritten(project):
    build_labs(project)
    lab_path = project / "labs" / "lab99_demo.ipynb"
    lab = json.loads(lab_path.read_text())
    lab["cells"][2]["source"] = "def euler():\n    return 42  # my work\n"
    lab_path.write_text(json.dumps(lab))
    report = build_labs(project)
    assert [p.name for p in report.refused] == ["lab99_demo.ipynb"]
    assert "my work" in lab_path.read_text()


def _edit(lab_path, text="my work"):
    lab = json.loads(lab_path.read_text())
    lab["cells"][2]["source"] = f"def euler():\n    return 42  # {text}\n"
    lab_path.write_text(json.dumps(lab))


def _revise_solution(project):
    solution = project / "solutions" / "lab99_demo.ipynb"
    nb = json.loads(solution.read_text())
    nb["cells"][0]["source"] = "# Lab 99, revised"
    solution.write_text(json.dumps(nb))


def test_check_tells_edited_labs_from_stale_ones(project):
    """Three states: an edited lab (student work) is kept and reported, never called stale."""
    build_labs(project)
    _edit(project / "labs" / "lab99_demo.ipynb")
    report = build_labs(project, check=True)
    assert report.stale == [] and [p.name for p in report.edited] == ["lab99_demo.ipynb"]
    assert report.edited_outdated == []  # the solution has not changed since it was generated


def test_check_says_when_an_edited_lab_has_a_newer_solution(project):
    build_labs(project)
    _edit(project / "labs" / "lab99_demo.ipynb")
    _revise_solution(project)
    report = build_labs(project, check=True)
    assert report.stale == []
    assert [p.name for p in report.edited_outdated] == ["lab99_demo.ipynb"]


def test_unreadable_lab_counts_as_edited_and_is_kept(project):
    build_labs(project)
    lab_path = project / "labs" / "lab99_demo.ipynb"
    lab_path.write_text("{not json")
    report = build_labs(project)
    assert [p.name for p in report.refused] == ["lab99_demo.ipynb"]
    assert lab_path.read_text() == "{not json"


def test_force_overwrites_an_edited_lab_after_a_backup(project):
    build_labs(project)
    lab_path = project / "labs" / "lab99_demo.ipynb"
    lab_path.write_text(lab_path.read_text().replace("YOUR CODE HERE", "my work"))
    report = build_labs(project, force=True)
    assert len(report.backups) == 1 and "my work" in report.backups[0].read_text()
    assert "my work" not in lab_path.read_text()


def test_missing_solutions_folder_is_a_clear_error(tmp_path):
    with pytest.raises(LabBuildError, match="no solutions/ folder"):
        build_labs(tmp_path)


# ---------------------------------------------------------------------------------------------
# The repository itself
# ---------------------------------------------------------------------------------------------


def test_repository_labs_are_up_to_date_with_solutions():
    """`simlab build-labs --check` in the repository: labs/ is generated from solutions/.

    A lab a student has edited is student work: it is not compared (on a clean clone, as in CI,
    no lab is edited, so every lab is compared and a stale one fails).
    """
    report = build_labs(ROOT, check=True)
    assert report.stale == [], f"out of date, run `simlab build-labs`: {report.stale}"
    if report.edited:
        pytest.skip(f"edited labs are student work and were not compared: {[p.name for p in report.edited]}")


def test_every_solution_has_marked_tasks_and_every_lab_is_free_of_solutions():
    solutions = sorted((ROOT / "solutions").glob("lab*.ipynb"))
    assert solutions, "no solution notebooks found"
    for solution in solutions:
        text = solution.read_text(encoding="utf-8")
        assert BEGIN in text, f"{solution.name} has no {BEGIN!r} block"
        lab_text = (ROOT / "labs" / solution.name).read_text(encoding="utf-8")
        assert BEGIN not in lab_text and END not in lab_text
        assert "raise NotImplementedError" in lab_text
        lab = json.loads(lab_text)
        assert all(not c.get("outputs") for c in lab["cells"] if c["cell_type"] == "code")


def test_every_generated_lab_cell_is_valid_python():
    """The stubs keep the code around them parseable (no indentation or syntax errors)."""
    import ast

    for lab_path in sorted((ROOT / "labs").glob("lab*.ipynb")):
        lab = json.loads(lab_path.read_text(encoding="utf-8"))
        for index, cell in enumerate(lab["cells"]):
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
            try:
                ast.parse("\n".join(lines))
            except SyntaxError as error:  # pragma: no cover - the assertion message is the point
                raise AssertionError(f"{lab_path.name}, code cell {index}: {error}") from None
