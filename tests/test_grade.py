"""``simlab grade``: a set of generated submissions of lab 01 graded, with the expected CSV.

The specification of the grader (simlab.course.grade):

* every submission is run in a fresh kernel; the grade of each task is its self-check recomputed
  by the grader from the values the student's code produced: the solution passes everything, the
  untouched lab is "not done" everywhere, each catalogued mistake (lab01's MISTAKES) makes exactly
  its task "not yet", a cell that never ends makes its task "timed out";
* nothing the notebook does in its kernel counts: replaced check functions, a patched
  simlab.course.check, printed or stored "[correct]" lines, objects that fake equality;
* a file that is not a notebook, not valid JSON, another lab's notebook (even with this lab's
  metadata) or a notebook that kills its kernel gets a row that says so, and the run goes on;
* the files handed in are never modified; exit code 0 when grading ran, 2 for misuse.

Two grader runs: the main set in this process (one ``grade`` call, three submissions at a time),
and, in a subprocess started first so that the two overlap, the command line on lab 04 notebooks
that test the limits (a segfault, a loop that ignores interrupts, memory, functions as answers).
The loops sleep instead of burning CPU: the limits work the same way, and the suite stays cheap.
"""

import copy
import csv
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simlab.course import lab01_euler_rk4 as lab01
from simlab.course.cli import main
from simlab.course.grade import GradeOptions, grade

ROOT = Path(__file__).resolve().parent.parent
TASKS = list(lab01.TASKS)
LAB04_TASKS = ["A1", "A2", "B1", "C1", "D1", "E1"]


def _notebook(folder, name):
    return json.loads((ROOT / folder / f"{name}.ipynb").read_text(encoding="utf-8"))


def _edited(notebook, edits):
    """``notebook`` with textual edits of its code cells, each ``old`` in exactly one cell."""
    notebook = copy.deepcopy(notebook)
    for old, new in edits:
        cells = [cell for cell in notebook["cells"] if cell["cell_type"] == "code" and old in "".join(cell["source"])]
        assert len(cells) == 1, f"{old!r} is in {len(cells)} code cells"
        cells[0]["source"] = "".join(cells[0]["source"]).replace(old, new)
    return notebook


def _handed_in(solution_like, name="lab01_euler_rk4"):
    """What a student hands in after solving: the solution's cells in the lab (its metadata)."""
    notebook = copy.deepcopy(solution_like)
    notebook["metadata"]["simlab"] = copy.deepcopy(_notebook("labs", name)["metadata"]["simlab"])
    return notebook


def _code_cell(source, outputs=()):
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "source": source, "outputs": list(outputs)}


TAMPERING = '''\
import simlab.course.check as check_module
from simlab.course.check import CheckResult

def always_correct(*args, **kwargs):
    return CheckResult(True, "your answer", "all values match the reference.")

check_module.check_array = check_module.check_value = check_module.all_of = always_correct
lab.check = lab.TASKS.check = lambda name, **answers: print(f"[correct] Task {name}: all values match")
for name in lab.TASKS:
    print(f"[correct] Task {name}: all values match")

class AlwaysEqual:
    def __eq__(self, other):
        return True

class Liar(float):
    def __eq__(self, other):
        return True

y_euler = AlwaysEqual()
y_heun = CheckResult(True, "improved Euler solution y_k", "all 21 y_k match the reference.")
y_seed_at_2 = Liar(0.0)
'''


#: A last cell that rebinds parameters and answers after every check ran (a discussion question
#: that computes with other values): the grade must be the one the check cells showed.
REBINDING = "h, y0 = 0.05, 0.5\ny_euler = y_euler[::-1]\nerr_rk4 = None\n"


def _main_set(folder):
    """Write the main submissions; return {file name: (status, {task: result})}."""
    solution = _notebook("solutions", "lab01_euler_rk4")
    lab = _notebook("labs", "lab01_euler_rk4")
    passed = {task: "passed" for task in TASKS}
    expected = {}

    def write(name, notebook, status="ok", results=None):
        (folder / name).write_text(json.dumps(notebook, indent=1), encoding="utf-8")
        expected[name] = (status, results if status == "ok" else {})

    write("solution.ipynb", _handed_in(solution), results=passed)
    (folder / "untouched.ipynb").write_text((ROOT / "labs" / "lab01_euler_rk4.ipynb").read_text(encoding="utf-8"))
    expected["untouched.ipynb"] = ("ok", {task: "not done" for task in TASKS})
    for number, mistake in enumerate(lab01.MISTAKES, start=1):
        write(f"mistake{number:02d}_task{mistake.task}.ipynb",
              _handed_in(_edited(solution, [(mistake.correct, mistake.wrong)])),
              results={**passed, mistake.task: "not yet"})
    rebound = copy.deepcopy(solution)
    rebound["cells"].append(_code_cell(REBINDING))
    write("rebound_later.ipynb", _handed_in(rebound), results=passed)
    unchecked = copy.deepcopy(solution)
    unchecked["cells"] = [cell for cell in unchecked["cells"] if 'lab.check("5")' not in "".join(cell["source"])]
    write("check_cell_deleted.ipynb", _handed_in(unchecked), results=passed)
    loop = ("import time\nk = 0\nwhile k < N:  # k is never increased: the loop never ends\n"
            "    time.sleep(0.01)  # (it waits, to keep the test cheap)\n")
    endless = _edited(solution, [("for k in range(N):\n    # y_{k+1}", loop + "    # y_{k+1}")])
    write("infinite_loop.ipynb", _handed_in(endless),
          results={**passed, "2": "timed out"})
    crash = copy.deepcopy(lab)
    crash["cells"].insert(1, _code_cell("import os\nos._exit(3)\n"))
    write("kernel_crash.ipynb", crash, "kernel died")
    tampered = copy.deepcopy(lab)
    tampered["cells"].insert(2, _code_cell(TAMPERING, [{"output_type": "stream", "name": "stdout",
                                                         "text": "[correct] Task 2: all values match\n"}]))
    tampered["metadata"]["simlab"]["grade"] = "9 of 9 tasks passed"
    write("tampered.ipynb", tampered, results={**{task: "not done" for task in TASKS},
                                               "2": "error", "3a": "error", "6b": "not yet"})
    (folder / "corrupt.ipynb").write_text(json.dumps(solution, indent=1)[:4000], encoding="utf-8")
    expected["corrupt.ipynb"] = ("invalid JSON", {})
    (folder / "notes.txt").write_text("Task 2: y(2) = 10.455\n", encoding="utf-8")
    expected["notes.txt"] = ("not a notebook", {})
    write("other_lab.ipynb", _notebook("labs", "lab03_models"), "other lab")
    relabelled = _notebook("labs", "lab03_models")
    relabelled["metadata"]["simlab"] = copy.deepcopy(lab["metadata"]["simlab"])
    write("other_lab_relabelled.ipynb", relabelled, "other lab")
    return expected


LAB04_IMPORT = "import time\nimport numpy as np\nfrom simlab.course import lab04_discrete_similarity as lab\n"
SERIES = '''\
def series_phi_gamma(A, B, T, terms):
    n = A.shape[0]
    term, Phi, integral = np.eye(n), np.zeros((n, n)), np.zeros((n, n))
    for k in range(terms):
        Phi = Phi + term
        integral = integral + term / (k + 1)
        term = term @ A * T / (k + 1)
    return Phi, T * integral @ B
'''
PATCHING_RECURRENCE = '''\
def recurrence(Phi, Gamma, C, u, x0):
    import simlab.course.check as check_module
    check_module.check_array = lambda *args, **kwargs: check_module.CheckResult(True, "y", "correct")
    lab.check_recurrence = lambda *args, **kwargs: check_module.CheckResult(True, "y", "correct")
    return np.zeros(len(u))
'''
ENDLESS_SERIES = "def series_phi_gamma(A, B, T, terms):\n    while True:\n        time.sleep(0.05)\n"
MEMORY_HOG = "x = np.empty(3 * 2**30, dtype=np.uint8)  # 3 GB: over the limit of 2500 MB\n"
KEEP_WRITING = '''\
import sys, time
deadline = time.monotonic() + 30  # a bounded forger: the test leaves no process behind
while time.monotonic() < deadline:  # or until the grader removes the folder
    try:
        with open("result.json", "w") as stream:
            stream.write(sys.argv[1])
    except OSError:
        break
    time.sleep(0.002)
'''
FORGER = f'''\
import json, subprocess, sys
forged = json.dumps({{"report": json.dumps({{"status": "ok", "note": "", "cells": [], "parameters": [],
                                             "tasks": [{{"task": t, "result": "passed", "text": "[correct]"}}
                                                       for t in lab.TASKS]}}),
                     "signature": "0" * 64}})
subprocess.Popen([sys.executable, "-c", {KEEP_WRITING!r}, forged], start_new_session=True)
'''
RAISING_RECURRENCE = "def recurrence(Phi, Gamma, C, u, x0):\n    raise ValueError('shapes do not match')\n"


def _limits_set(folder):
    """Write the lab 04 submissions of the command-line run; return {file name: (status, {task: result})}."""
    lab = _notebook("labs", "lab04_discrete_similarity")
    not_done = {task: "not done" for task in LAB04_TASKS}

    def write(name, sources, status="ok", results=None):
        notebook = copy.deepcopy(lab)
        notebook["cells"] = [_code_cell(source) for source in (LAB04_IMPORT, *sources)]
        (folder / name).write_text(json.dumps(notebook, indent=1), encoding="utf-8")
        return name, (status, results if status == "ok" else {})

    return dict([
        write("functions.ipynb", [MEMORY_HOG, SERIES, PATCHING_RECURRENCE],
              results={**not_done, "B1": "passed", "D1": "not yet"}),
        write("bad_functions.ipynb", [ENDLESS_SERIES, RAISING_RECURRENCE],
              results={**not_done, "B1": "timed out", "D1": "not yet"}),
        write("forged_result.ipynb", [FORGER], "grader error"),
        write("segfault.ipynb", ["import ctypes\nctypes.string_at(0)\n"], "kernel died"),
        write("ignores_interrupts.ipynb", ["import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                                           "while True:\n    time.sleep(0.05)\n"], "timed out"),
    ])


def _fingerprints(folder):
    return {path.name: (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
            for path in sorted(folder.iterdir())}


def _rows(csv_path):
    with open(csv_path, newline="", encoding="utf-8") as stream:
        return {row["submission"]: row for row in csv.DictReader(stream)}


def _expected_row(status, results, tasks):
    return {"status": status, **{f"task_{task}": results.get(task, "") for task in tasks},
            "passed": str(sum(result == "passed" for result in results.values())), "out_of": str(len(tasks))}


@pytest.fixture(scope="module")
def limits_run(tmp_path_factory):
    """The command line on the lab 04 set, started in the background (it mostly waits)."""
    folder = tmp_path_factory.mktemp("lab04_submissions")
    expected = _limits_set(folder)
    out = tmp_path_factory.mktemp("lab04_grades")
    command = [sys.executable, "-m", "simlab", "grade", "04", str(folder), "--out", str(out), "--jobs", "3",
               "--cell-timeout", "10", "--timeout", "40", "--memory", "2500"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield {"process": process, "folder": folder, "out": out, "expected": expected, "before": _fingerprints(folder)}
    if process.poll() is None:
        process.kill()


@pytest.fixture(scope="module")
def main_run(tmp_path_factory, limits_run):
    folder = tmp_path_factory.mktemp("lab01_submissions")
    expected = _main_set(folder)
    before = _fingerprints(folder)
    out = tmp_path_factory.mktemp("lab01_grades")
    start = time.perf_counter()
    files = sorted(folder.iterdir())  # a folder stands for its .ipynb files; notes.txt is named
    report = grade("lab01", files, out, GradeOptions(cell_timeout=10, timeout=240, memory=4096, jobs=3))
    seconds = time.perf_counter() - start
    print(f"\nsimlab grade on {len(expected)} lab01 submissions: {seconds:.1f} s (pytest -s shows the CSV)")
    print((out / "grades.csv").read_text(encoding="utf-8"))
    return {"report": report, "folder": folder, "out": out, "expected": expected, "before": before}


@pytest.fixture(scope="module")
def limits_result(limits_run, main_run):
    process = limits_run["process"]
    stdout, stderr = process.communicate(timeout=600)
    print(stdout, (limits_run["out"] / "grades.csv").read_text(encoding="utf-8") if process.returncode == 0 else stderr)
    return {**limits_run, "returncode": process.returncode, "stdout": stdout, "stderr": stderr}


def test_the_grades_csv_is_the_expected_table(main_run):
    rows = _rows(main_run["out"] / "grades.csv")
    columns = ["status", *(f"task_{task}" for task in TASKS), "passed", "out_of"]
    got = {name: {key: row[key] for key in columns} for name, row in rows.items()}
    want = {name: _expected_row(status, results, TASKS) for name, (status, results) in main_run["expected"].items()}
    assert got == want


def test_the_csv_has_one_column_per_task_and_the_total(main_run):
    with open(main_run["out"] / "grades.csv", newline="", encoding="utf-8") as stream:
        header = next(csv.reader(stream))
    assert header == ["submission", "status", *(f"task_{task}" for task in TASKS), "passed", "out_of",
                      "parameters", "note"]


def test_each_mistake_gets_its_hint_in_the_feedback(main_run):
    for number, mistake in enumerate(lab01.MISTAKES, start=1):
        feedback = (main_run["out"] / "feedback" / f"mistake{number:02d}_task{mistake.task}.md").read_text()
        assert f"## Task {mistake.task}: not yet" in feedback
        section = feedback.split(f"## Task {mistake.task}: not yet", 1)[1].split("## Task", 1)[0]
        assert mistake.hint in section, f"{mistake.what}: {section}"


def test_feedback_lists_every_task_with_its_check_message(main_run):
    feedback = (main_run["out"] / "feedback" / "solution.md").read_text()
    assert f"**{len(TASKS)} of {len(TASKS)} tasks passed.**" in feedback
    for task in TASKS:
        assert f"| {task} | {lab01.TASKS[task].title} | passed |" in feedback
        assert f"## Task {task}: passed" in feedback
    assert feedback.count("[correct]") >= len(TASKS)


def test_a_tampered_self_check_gains_nothing(main_run):
    grade_ = next(g for g in main_run["report"].grades if g.name == "tampered.ipynb")
    assert grade_.passed == 0
    feedback = (main_run["out"] / "feedback" / "tampered.md").read_text()
    assert "cannot be graded: y_euler is a __main__.AlwaysEqual" in feedback
    assert "cannot be graded: y_heun is a simlab.course.check.CheckResult" in feedback
    executed = json.loads((main_run["out"] / "executed" / "tampered.ipynb").read_text())
    outputs = [output for cell in executed["cells"] for output in cell.get("outputs", [])]
    printed = "".join("".join(output.get("text", "")) for output in outputs)
    assert "[correct] Task 2: all values match" in printed  # the notebook printed it; the grade ignores it


def test_a_later_rebinding_changes_no_grade(main_run):
    """Each task is graded on its values when its check cell ran, not on the final state."""
    rows = _rows(main_run["out"] / "grades.csv")
    row = rows["rebound_later.ipynb"]
    assert row["passed"] == str(len(TASKS)) and row["parameters"] == "", row


def test_a_task_whose_check_cell_never_ran_is_graded_on_the_final_state_and_says_so(main_run):
    feedback = (main_run["out"] / "feedback" / "check_cell_deleted.md").read_text()
    assert "never ran" in feedback
    assert "Task 5" in _rows(main_run["out"] / "grades.csv")["check_cell_deleted.ipynb"]["note"]


def test_the_note_says_when_a_notebook_redefines_the_checks_or_hands_in_its_own_objects(main_run):
    note = _rows(main_run["out"] / "grades.csv")["tampered.ipynb"]["note"]
    assert "redefines self-check functions" in note and "lab.check" in note and "check_module.check_array" in note
    assert "objects of its own class" in note and "__main__.AlwaysEqual" in note
    feedback = (main_run["out"] / "feedback" / "tampered.md").read_text()
    assert "redefines self-check functions" in feedback


def test_an_endless_cell_is_interrupted_and_the_rest_still_counts(main_run):
    feedback = (main_run["out"] / "feedback" / "infinite_loop.md").read_text()
    assert "the cell that computes y_euler did not finish within 10 s and was interrupted" in feedback


def test_rows_that_are_not_graded_say_why(main_run):
    notes = {name: row["note"] for name, row in _rows(main_run["out"] / "grades.csv").items()}
    assert "not valid JSON" in notes["corrupt.ipynb"] and "line" in notes["corrupt.ipynb"]
    assert "not a Jupyter notebook" in notes["notes.txt"]
    assert "made from solutions/lab03_models.ipynb" in notes["other_lab.ipynb"]
    assert "uses simlab.course.lab03_models" in notes["other_lab_relabelled.ipynb"]
    assert "exited with code 3" in notes["kernel_crash.ipynb"]
    assert "nothing was changed" in notes["untouched.ipynb"]


def test_the_submissions_are_not_modified(main_run, limits_result):
    assert _fingerprints(main_run["folder"]) == main_run["before"]
    assert _fingerprints(limits_result["folder"]) == limits_result["before"]


def test_the_command_line_grades_the_limits_and_exits_0(limits_result):
    assert limits_result["returncode"] == 0, limits_result["stderr"]
    rows = _rows(limits_result["out"] / "grades.csv")
    columns = ["status", *(f"task_{task}" for task in LAB04_TASKS), "passed", "out_of"]
    got = {name: {key: row[key] for key in columns} for name, row in rows.items()}
    want = {name: _expected_row(status, results, LAB04_TASKS)
            for name, (status, results) in limits_result["expected"].items()}
    if got["forged_result.ipynb"]["status"] == "ok":  # the grader read its own result before the forger wrote
        want["forged_result.ipynb"] = _expected_row("ok", {task: "not done" for task in LAB04_TASKS}, LAB04_TASKS)
    assert got == want
    assert "was killed by SIGSEGV" in rows["segfault.ipynb"]["note"]
    assert "did not finish within 40 s" in rows["ignores_interrupts.ipynb"]["note"]
    assert f"[1/{len(want)}]" in limits_result["stdout"] and "of 5 submissions" in limits_result["stdout"]


def test_functions_run_in_the_kernel_and_cannot_patch_the_grader(limits_result):
    feedback = (limits_result["out"] / "feedback" / "functions.md").read_text()
    assert "the initial state is ignored" in feedback  # the grader's own check_recurrence, on zeros
    bad = (limits_result["out"] / "feedback" / "bad_functions.md").read_text()
    assert "series_phi_gamma(...) did not return within 10 s" in bad
    assert "calling it raised ValueError: shapes do not match" in bad


def test_a_process_left_behind_cannot_forge_the_result(limits_result):
    row = _rows(limits_result["out"] / "grades.csv")["forged_result.ipynb"]
    assert row["passed"] == "0"
    assert row["status"] == "ok" or "result was overwritten" in row["note"]


def test_the_memory_limit_stops_the_cell_not_the_grading(limits_result):
    feedback = (limits_result["out"] / "feedback" / "functions.md").read_text()
    assert "- cell 1 (`x = np.empty(3 * 2**30, dtype=np.uint8)" in feedback and "MemoryError" in feedback


@pytest.mark.parametrize("arguments, message", [
    (["grade", "lab42", "x.ipynb"], "no experiment called 'lab42'"),
    (["grade", "lab01", "no/such/file.ipynb"], "no such file"),
])
def test_misuse_exits_2_with_a_message(arguments, message, capsys, tmp_path):
    assert main([*arguments, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "grades.csv").exists()


def test_an_empty_folder_is_no_submissions(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    assert main(["grade", "01", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
    assert "no submissions" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The parts, without a kernel
# ---------------------------------------------------------------------------------------------


def _round_trip(value):
    from simlab.course import grade_values

    return grade_values.decode(json.loads(json.dumps(grade_values.encode(value))))


def test_answers_of_every_kind_the_labs_use_are_read_back_as_the_same_data():
    import control
    import numpy as np
    import sympy as sp

    from simlab.structure import simulate

    t, y = sp.Symbol("t"), sp.Function("y")
    n = sp.Symbol("n", integer=True, nonnegative=True)
    for value in [1, 2.5, -0.0, 1 + 2j, True, None, (0.1, 0.05), {"SS": 1.0, ("zoh", 2): [3]}, np.float64(0.25),
                  np.int64(7), np.arange(6.0).reshape(2, 3), np.array([1 + 1j, 2]),
                  sp.dsolve(sp.Eq(y(t).diff(t), t + y(t)), y(t), ics={y(0): 1}), (y(0) + 2 * n) * (1 + n) ** n,
                  sp.ImmutableMatrix([[sp.exp(-t), 0], [sp.pi, sp.I / 3]]), sp.Float("0.1", 30)]:
        back = _round_trip(value)
        assert type(back) is type(value) and (np.array_equal(back, value) if isinstance(value, np.ndarray)
                                              else back == value), value
    P = np.array([[0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 2.0, 0.0]])  # rows (A_i, B_i, C_i, D_i): two lags
    result = simulate(P, np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0,
                      (0.0, 1.0), 0.5)
    back = _round_trip(result)
    assert type(back) is type(result) and np.array_equal(back.y, result.y) and back.method == result.method
    G = control.tf([3], [1, 2, 1])
    assert complex(_round_trip(G)(1j)) == complex(G(1j))


def test_objects_that_are_not_data_are_not_answers():
    from simlab.course.check import CheckResult
    from simlab.course.grade_values import Ungradable

    class AlwaysEqual:
        def __eq__(self, other):
            return True

    for value, reason in [(CheckResult(True, "x", "correct"), "self-check"), (AlwaysEqual(), "not a number"),
                          (json, "not a number"), (lambda: 1, "function")]:
        back = _round_trip(value)
        assert isinstance(back, Ungradable) and reason in back.reason, back


@pytest.mark.parametrize("data", [
    {"__dataclass__": ["simlab.course.check:CheckResult", {"passed": True, "title": "x", "message": "y"}]},
    {"__dataclass__": ["os:system", {}]},
    {"__ndarray__": ["|O", [1], "AAAAAAAAAAA="]},
    {"__ndarray__": ["<f8", [3], "AAAAAAAAAAA="]},
    {"__sympy__": "Symbol(__import__('os').getcwd())"},
    {"__sympy__": "Add('x + 1', Integer(1))"},
    {"__sympy__": "Symbol('x); import os; (')"},
    {"__sympy__": "Float('1e5; os')"},
    {"__pickle__": "gASVAAAAAAAAAAB9lC4="},
    {"a": 1, "b": 2},
], ids=lambda data: next(iter(data)))
def test_a_tampered_answers_file_builds_nothing_but_data(data):
    from simlab.course import grade_values

    with pytest.raises(grade_values.FormatError):
        grade_values.decode(data)


def test_text_from_the_kernel_is_never_parsed_by_sympy(monkeypatch):
    import sympy as sp
    from sympy.parsing import sympy_parser

    from simlab.course.grade_worker import refuse_text_parsing, texts_in

    monkeypatch.setattr(sympy_parser, "parse_expr", sympy_parser.parse_expr)  # restored after the test
    answer = ["__import__('os').getcwd()"]
    refuse_text_parsing(texts_in({"y_exact_expr": answer}))
    with pytest.raises(sp.SympifyError):
        sp.sympify(answer)
    assert "initial condition" not in str(lab01.check_exact(answer[0]))  # the check refuses it: not an expression
    assert sp.sympify("x + 1") == sp.Symbol("x") + 1  # sympy's own text is parsed as usual


def test_a_timed_out_cell_names_what_it_assigns():
    from simlab.course.grade_worker import bound_names

    source = "%time x = 1\ny[k + 1] = 2\nfor k in range(3):\n    pass\ndef f():\n    pass\nimport numpy as np\n"
    assert {"x", "y", "k", "f", "np"} <= bound_names(source)


def test_a_lab_is_named_as_simlab_run_names_it():
    from simlab.course import get

    for name in ("lab01", "01", "1", "lab01_euler_rk4", "labs/lab01_euler_rk4.ipynb"):
        assert get(name).module == "lab01_euler_rk4"


def test_submissions_with_the_same_file_name_keep_their_folders(tmp_path):
    from simlab.course.grade import submission_names

    paths = [tmp_path / student / "lab01_euler_rk4.ipynb" for student in ("alice", "bob")]
    assert submission_names(paths) == ["alice/lab01_euler_rk4.ipynb", "bob/lab01_euler_rk4.ipynb"]


def test_a_copy_without_metadata_is_identified_by_its_code():
    import nbformat

    from simlab.course.grade import identify

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from simlab.course import lab01_euler_rk4 as lab")])
    status, note = identify(notebook, "lab01_euler_rk4")
    assert status == "ok" and "identified by its code" in note
    assert identify(notebook, "lab02_step_size")[0] == "other lab"


def test_the_result_and_the_kernel_pid_are_trusted_only_when_signed():
    from simlab.course.grade_worker import sign, signed_pid, signed_report

    text = sign({"status": "ok", "tasks": []}, "key")
    assert signed_report(text, "key") == {"status": "ok", "tasks": []}
    forged = json.dumps({**json.loads(text), "report": json.dumps({"status": "ok", "tasks": ["all passed"]})})
    with pytest.raises(ValueError, match="signature"):
        signed_report(forged, "key")
    assert signed_pid("4242 not-a-signature", "key") is None
