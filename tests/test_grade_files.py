"""``simlab grade``: which files the grader reads, and its exit code when nothing could be graded.

The specification (README, "Grading submitted labs"):

* the grader reads no file outside the folders it is given: a symbolic link in a submission
  folder whose target is outside the folder, missing or a loop gets a row with the status "link"
  (its note says where it points) and is never opened; a link to a folder outside is not entered;
* a link to a file inside the folder is graded as that file, under the link's own name;
* a notebook named on the command line is read even when it is a link (it was named);
* a file that is not a regular file (a pipe) is not read, so the run cannot block on it;
* the exit code is 1 when no submission could be graded (every status other than "ok"), with the
  count of each status on stderr; 0 when at least one was graded; 2 for misuse.

Every submission here fails before a kernel starts (or the kernel run is replaced by a stub), so
the file is cheap; tests/test_grade.py grades real notebooks.
"""

import csv
import os
from pathlib import Path

import pytest

from simlab.course import grade as grade_module
from simlab.course.cli import main
from simlab.course.grade import STATUSES, grade, submission_names

ROOT = Path(__file__).resolve().parent.parent
SECRET = "root:x:0:0:the secret the grader must not read"


def _rows(out):
    with open(out / "grades.csv", newline="", encoding="utf-8") as stream:
        return {row["submission"]: row for row in csv.DictReader(stream)}


def _everything_written(out):
    return "\n".join(path.read_text(encoding="utf-8") for path in out.rglob("*") if path.is_file())


@pytest.fixture
def opened(monkeypatch):
    """Every path the grader opens to read a submission (its one reading function, spied on)."""
    paths = []
    read = grade_module._read_bytes

    def spy(path, follow_links):
        paths.append(Path(path))
        return read(path, follow_links)

    monkeypatch.setattr(grade_module, "_read_bytes", spy)
    return paths


@pytest.fixture
def outside(tmp_path):
    """A folder next to the submissions with a secret file and a notebook in it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "passwd").write_text(SECRET + "\n", encoding="utf-8")
    (folder / "lab01_euler_rk4.ipynb").write_text((ROOT / "labs" / "lab01_euler_rk4.ipynb").read_text("utf-8"))
    return folder


def test_link_is_a_status():
    assert "link" in STATUSES


def test_a_link_to_a_file_outside_the_folder_is_reported_and_never_read(tmp_path, outside, opened):
    """The issue's case: y.ipynb -> a password file was read and filed under the target's name."""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "y.ipynb").symlink_to(outside / "passwd")
    report = grade("lab01", [submissions], tmp_path / "out")
    row = _rows(tmp_path / "out")["y.ipynb"]
    assert row["status"] == "link"
    assert "outside the submission folder" in row["note"] and str(outside / "passwd") in row["note"]
    assert "not read" in row["note"]
    assert opened == []
    assert SECRET not in _everything_written(tmp_path / "out")
    assert [path.name for path in report.feedback] == ["y.md"]  # its own name, not the target's


def test_a_link_to_a_folder_outside_is_not_entered(tmp_path, outside, opened):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "bob").symlink_to(outside, target_is_directory=True)
    grade("lab01", [submissions], tmp_path / "out")
    rows = _rows(tmp_path / "out")
    assert list(rows) == ["bob"]
    assert rows["bob"]["status"] == "link" and "folder outside" in rows["bob"]["note"]
    assert "not followed" in rows["bob"]["note"]
    assert opened == []


@pytest.mark.parametrize("make, says", [
    (lambda folder: (folder / "broken.ipynb").symlink_to(folder / "missing.ipynb"), "does not exist"),
    (lambda folder: ((folder / "broken.ipynb").symlink_to(folder / "loop.ipynb"),
                     (folder / "loop.ipynb").symlink_to(folder / "broken.ipynb")), "cannot be followed"),
], ids=["to nothing", "loop"])
def test_a_link_that_cannot_be_followed_is_reported(tmp_path, opened, make, says):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    make(submissions)
    grade("lab01", [submissions], tmp_path / "out")
    row = _rows(tmp_path / "out")["broken.ipynb"]
    assert row["status"] == "link" and says in row["note"]
    assert opened == []


def test_a_link_inside_the_folder_is_graded_as_its_target_under_its_own_name(tmp_path, opened):
    submissions = tmp_path / "submissions"
    (submissions / "alice").mkdir(parents=True)
    (submissions / "alice" / "work.ipynb").write_text('{"cells": [', encoding="utf-8")
    (submissions / "copy.ipynb").symlink_to(Path("alice") / "work.ipynb")
    grade("lab01", [submissions], tmp_path / "out")
    rows = _rows(tmp_path / "out")
    assert set(rows) == {"alice/work.ipynb", "copy.ipynb"}
    assert rows["copy.ipynb"]["status"] == "invalid JSON"  # what the target is
    assert "a symbolic link to alice/work.ipynb: graded as that file" in rows["copy.ipynb"]["note"]
    assert submissions.resolve() / "alice" / "work.ipynb" in opened


def test_a_link_named_on_the_command_line_is_read(tmp_path, outside, opened):
    link = tmp_path / "y.ipynb"
    link.symlink_to(outside / "passwd")
    grade("lab01", [link], tmp_path / "out")
    row = _rows(tmp_path / "out")["y.ipynb"]
    assert row["status"] == "not a notebook"  # read: the password file is no notebook
    assert [path.name for path in opened] == ["y.ipynb"]


def test_a_file_named_on_the_command_line_wins_over_its_folder(tmp_path, outside):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "y.ipynb").symlink_to(outside / "passwd")
    grade("lab01", [submissions, submissions / "y.ipynb"], tmp_path / "out")
    assert _rows(tmp_path / "out")["y.ipynb"]["status"] == "not a notebook"


def test_a_pipe_is_not_read(tmp_path):
    """Reading a named pipe would block the grader until someone writes to it."""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    os.mkfifo(submissions / "pipe.ipynb")
    grade("lab01", [submissions], tmp_path / "out")
    row = _rows(tmp_path / "out")["pipe.ipynb"]
    assert row["status"] == "not a notebook" and "not a regular file" in row["note"]


def test_a_broken_link_named_on_the_command_line_is_misuse(tmp_path, capsys):
    (tmp_path / "gone.ipynb").symlink_to(tmp_path / "missing.ipynb")
    assert main(["grade", "lab01", str(tmp_path / "gone.ipynb"), "--out", str(tmp_path / "out")]) == 2
    assert "gone.ipynb is a symbolic link to" in capsys.readouterr().err


def test_names_of_links_are_their_own(tmp_path, outside):
    link = tmp_path / "submissions" / "y.ipynb"
    link.parent.mkdir()
    link.symlink_to(outside / "passwd")
    assert submission_names([link, tmp_path / "submissions" / "z.ipynb"]) == ["y.ipynb", "z.ipynb"]


# ---------------------------------------------------------------------------------------------
# The exit code
# ---------------------------------------------------------------------------------------------


def test_exit_code_1_when_nothing_could_be_graded(tmp_path, outside, capsys):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "y.ipynb").symlink_to(outside / "passwd")
    (submissions / "notes.ipynb").write_text("my notes", encoding="utf-8")
    (submissions / "empty.ipynb").write_text("", encoding="utf-8")
    assert main(["grade", "lab01", str(submissions), "--out", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "graded 0 of 3 submissions" in captured.out
    assert "none of the submissions could be graded" in captured.err
    assert "1 link" in captured.err and "1 not a notebook" in captured.err and "1 invalid JSON" in captured.err
    assert set(_rows(tmp_path / "out")) == {"y.ipynb", "notes.ipynb", "empty.ipynb"}  # written all the same


def test_exit_code_0_when_one_submission_was_graded(tmp_path, outside, monkeypatch, capsys):
    """The kernel run is replaced by a stub that reports every task "not done" (the real run: test_grade.py)."""
    from simlab.course.lab01_euler_rk4 import TASKS

    def worker(module, notebook, options):
        return {"status": "ok", "tasks": [{"task": task, "result": "not done", "text": "stub"} for task in TASKS]}

    monkeypatch.setattr(grade_module, "run_worker", worker)
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "y.ipynb").symlink_to(outside / "passwd")
    (submissions / "lab.ipynb").write_text((ROOT / "labs" / "lab01_euler_rk4.ipynb").read_text("utf-8"))
    assert main(["grade", "lab01", str(submissions), "--out", str(tmp_path / "out")]) == 0
    assert "graded 1 of 2 submissions" in capsys.readouterr().out
    assert _rows(tmp_path / "out")["lab.ipynb"]["status"] == "ok"


def test_grading_nothing_to_grade_is_still_misuse(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["grade", "lab01", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
