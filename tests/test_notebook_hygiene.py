"""Stored notebooks are clean: executed in order, no stderr, no stray figure reprs, course style."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "solutions").glob("*.ipynb")) + sorted((ROOT / "course").glob("*.ipynb"))


def _code_cells(path):
    return [c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_code_cell_was_executed_in_order(path):
    counts = [c["execution_count"] for c in _code_cells(path)]
    assert None not in counts, "execute the notebook in place before committing it"
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_stderr_and_no_stray_reprs(path):
    for index, cell in enumerate(_code_cells(path)):
        for output in cell.get("outputs", []):
            assert not (output["output_type"] == "stream" and output["name"] == "stderr"), (
                f"code cell {index} wrote to stderr (a warning?)")
            assert output["output_type"] != "error", f"code cell {index} raised"
            if output["output_type"] == "execute_result":
                text = "".join(output["data"].get("text/plain", ""))
                for marker in ("<Figure", "Text(", "<matplotlib", "Line2D"):
                    assert marker not in text, f"code cell {index} ends with a plot object's repr"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_first_code_cell_imports_simlab_and_sets_the_course_style(path):
    first = "".join(_code_cells(path)[0]["source"])
    assert "import simlab" in first or "from simlab" in first
    assert "use_course_style()" in first
