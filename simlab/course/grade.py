"""Grade submitted labs: ``simlab grade LAB SUBMISSION... --out DIR``.

Each submission (a student's copy of ``labs/LAB.ipynb``) is read, checked to be a notebook of
that lab, copied with its outputs cleared into a private temporary folder (the file handed in is
never modified) and graded there by a fresh process, :mod:`simlab.course.grade_worker`: the
student's cells run in a new Jupyter kernel with time and memory limits, then the grader reads
the values of the tasks' answers out of the kernel as data and runs the lab's self-checks on them
in its own process. The grade never comes from what the notebook printed, nor from check
functions the notebook could have replaced.

The results go to ``DIR/grades.csv`` (one row per submission: its status, one column per task,
the number passed) and to one feedback file per submission, ``DIR/feedback/<name>.md``, with the
result, message and hint of each task's check; the executed notebooks go to ``DIR/executed/``.

A submission that is not a notebook, is not valid JSON, belongs to another lab, kills its kernel
or runs past its time limit gets a row that says so, and the run goes on.

The grader reads no file outside the folders it is given: in a folder, a symbolic link whose
target lies outside that folder (``y.ipynb -> /etc/passwd``), does not exist or cannot be
followed gets a row with the status "link" and is not read; a link to a file inside the folder
is graded as that file, under its own name; linked folders are not entered. A file named on the
command line is read even when it is a link (it was named on purpose).
"""

from __future__ import annotations

import csv
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["GradeError", "GradeOptions", "TaskGrade", "SubmissionGrade", "GradeReport", "resolve_lab",
           "read_submission", "identify", "grade_submission", "grade", "write_csv", "feedback_text", "STATUSES",
           "RESULTS"]

#: Status of a submission (the CSV's ``status`` column).
STATUSES = ("ok", "not a notebook", "invalid JSON", "other lab", "link", "kernel died", "timed out",
            "grader error")
#: Result of a task (the CSV's task columns).
RESULTS = ("passed", "not yet", "not done", "error", "timed out")
#: Largest submission read, in bytes.
MAX_SUBMISSION_BYTES = 100 * 2**20
#: Seconds the grader waits for a worker beyond the notebook's time limit before it kills it.
GRACE = 90
UNCHANGED = "this is the lab as generated: nothing was changed in it."
_LAB_IMPORT = re.compile(r"simlab\.course(?:\s+import\s+|\.)(lab\d\d_\w+)")


class GradeError(RuntimeError):
    """The grader was misused (unknown lab, no submissions, a file that does not exist)."""


@dataclass(frozen=True)
class GradeOptions:
    """Limits of one submission's run.

    Attributes
    ----------
    cell_timeout : float
        Seconds a cell may run (then it is interrupted and the run goes on); also the limit of
        each call of a student's function by a check.
    timeout : float
        Seconds the whole notebook may run (then its kernel is killed: status "timed out").
    memory : int
        Address-space limit of the kernel and the grading process, in MB (0: none).
    jobs : int
        Submissions graded at the same time.
    """

    cell_timeout: float = 120.0
    timeout: float = 600.0
    memory: int = 4096
    jobs: int = 1


@dataclass(frozen=True)
class TaskGrade:
    """A task's result: one of :data:`RESULTS`, and the check's message (or what went wrong)."""

    task: str
    result: str
    text: str


@dataclass(frozen=True)
class SubmissionGrade:
    """The grade of one submission.

    Attributes
    ----------
    path : Path
        The file handed in.
    name : str
        Its name in the CSV and for the feedback file (relative to the common folder).
    status : str
        One of :data:`STATUSES`; the tasks are graded only when it is "ok".
    note : str
        What the status means for this file (empty when there is nothing to say).
    tasks : tuple of TaskGrade
        One per task of the lab when the status is "ok", else empty.
    cells : tuple of (int, str, str, str)
        Cells that raised or ran into their time limit: (index, first line, kind, message).
    parameters : tuple of (str, str)
        Notebook parameters set to other values than the lab's (the checks used them).
    seconds : float
        Time spent on the submission.
    """

    path: Path
    name: str
    status: str
    note: str = ""
    tasks: tuple = ()
    cells: tuple = ()
    parameters: tuple = ()
    seconds: float = 0.0

    @property
    def passed(self):
        """Number of tasks passed."""
        return sum(task.result == "passed" for task in self.tasks)


@dataclass(frozen=True)
class GradeReport:
    """What :func:`grade` did: the lab, its tasks, one grade per submission and the files written."""

    module: str
    tasks: tuple
    grades: tuple
    csv_path: Path
    feedback: tuple = field(default=())


# ---------------------------------------------------------------------------------------------
# The lab and the submissions
# ---------------------------------------------------------------------------------------------


def resolve_lab(name):
    """The module name and ``TASKS`` of the lab called ``name`` (as ``simlab run`` accepts it).

    Raises
    ------
    GradeError
        If there is no such lab, or it has no self-checks.
    """
    import importlib

    from simlab.course import get

    try:
        experiment = get(name)
    except ValueError as error:
        raise GradeError(str(error)) from None
    tasks = getattr(importlib.import_module(f"simlab.course.{experiment.module}"), "TASKS", None)
    if not tasks:
        raise GradeError(f"{experiment.module} has no tasks to grade (no TASKS in its module).")
    return experiment.module, tasks


def _entry(path):
    """``path`` made absolute with its folders resolved but not its last part (a link stays a link)."""
    path = Path(path)
    return path.parent.resolve() / path.name


def _walk(folder):
    """The ``.ipynb`` files and links to them under ``folder``; dot-files and dot-folders left out.

    Linked folders are not entered (``os.walk`` does not follow links); a link to a folder
    outside ``folder`` is listed, so that it gets a row that says it was not followed.
    """
    found = []
    for directory, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        here = Path(directory)
        for name in folders:  # a link to a folder outside: a row that says so (os.walk does not enter it)
            if (here / name).is_symlink() and _link_target(here / name, folder)[0] is None:
                found.append(here / name)
        found += [here / name for name in names if name.endswith(".ipynb") and not name.startswith(".")]
    return sorted(found)


def expand_submissions(paths, out=None):
    """The submissions: ``(file, folder)`` for each file of ``paths``, or ``.ipynb`` file under one.

    ``folder`` is the folder given that holds the file (resolved), or None for a file given by
    name (also when it is in a folder given too); a link found in a folder is kept as a link
    (:func:`grade_submission` decides whether it is read). Files under ``out`` (the results of an
    earlier run, its executed notebooks) are left out, and a file given twice is graded once.

    Raises
    ------
    GradeError
        If a path does not exist or nothing is left to grade.
    """
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            folder = path.resolve()
            found += [(file, folder) for file in _walk(folder)]
        elif path.exists():
            found.append((_entry(path), None))
        elif path.is_symlink():
            raise GradeError(f"{path} is a symbolic link to {os.readlink(path)}, which does not exist.")
        else:
            raise GradeError(f"no such file: {path}")
    skip = Path(out).resolve() if out is not None else None
    unique = {}
    for file, folder in found:  # a file named on the command line is read as named, even if also in a folder
        if (skip is None or not file.is_relative_to(skip)) and (file not in unique or folder is None):
            unique[file] = folder
    if not unique:
        raise GradeError("no submissions to grade (the folders hold no .ipynb files).")
    return list(unique.items())


def _link_target(path, folder):
    """``(file to read, note)`` for ``path`` found in ``folder``; the file is None if it is not to be read."""
    if folder is None or not path.is_symlink():
        return path, ""
    text = os.readlink(path)
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        return None, f"a symbolic link to {text}, which does not exist: not read."
    except (OSError, RuntimeError) as error:  # a loop of links
        return None, f"a symbolic link to {text} that cannot be followed ({error}): not read."
    if not target.is_relative_to(folder):
        kind = "folder" if target.is_dir() else "file"
        return None, (f"a symbolic link to a {kind} outside the submission folder {folder} ({text}): not "
                      f"{'followed' if kind == 'folder' else 'read'}. To grade it, copy it into the folder or "
                      f"name it on the command line.")
    return target, f"a symbolic link to {target.relative_to(folder).as_posix()}: graded as that file."


def submission_names(paths):
    """Unique short names: each path relative to the folder that holds them all (a link keeps its own name)."""
    entries = [_entry(path) for path in paths]
    common = Path(os.path.commonpath([path.parent for path in entries]))
    return [path.relative_to(common).as_posix() for path in entries]


def _notebook_problem(data):
    """Why parsed JSON is not a notebook, or ``""``."""
    if not isinstance(data, dict):
        return f"it is valid JSON but not a notebook (a {type(data).__name__}, not an object with cells)."
    if not isinstance(data.get("nbformat"), int):
        return "it is valid JSON but not a notebook (no nbformat version)."
    if data["nbformat"] >= 4:
        cells = data.get("cells")
        if not isinstance(cells, list) or not all(
                isinstance(cell, dict) and isinstance(cell.get("cell_type"), str)
                and isinstance(cell.get("source", ""), (str, list)) for cell in cells):
            return "it is valid JSON but not a notebook (its cells are missing or malformed)."
    return ""


def _read_bytes(path, follow_links):
    """The bytes of ``path``, or ``(status, note)``: a link not followed, not a regular file, too large."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_links else os.O_NOFOLLOW)  # a pipe must not block
    try:
        handle = os.open(path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_links:
            return "link", "a symbolic link (it became one after the folder was listed?): not read."
        return "not a notebook", f"the file cannot be read ({type(error).__name__}: {error.strerror})."
    with os.fdopen(handle, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode):
            return "not a notebook", "it is not a regular file (a folder, a pipe or a device): not read."
        if status.st_size > MAX_SUBMISSION_BYTES:
            return "not a notebook", f"the file is larger than {MAX_SUBMISSION_BYTES // 2**20} MB."
        return stream.read(MAX_SUBMISSION_BYTES + 1)


def read_submission(path, follow_links=True):
    """Read a submission: ``(notebook, status, note)``; ``notebook`` is None unless the status is "ok".

    For a notebook, ``note`` is :data:`UNCHANGED` when it is the lab exactly as generated. With
    ``follow_links=False`` a symbolic link is not read (status "link"); a file that is not a
    regular file (a pipe, a device) is never read."""
    import nbformat

    content = _read_bytes(Path(path), follow_links)
    if isinstance(content, tuple):
        return None, *content
    if len(content) > MAX_SUBMISSION_BYTES:
        return None, "not a notebook", f"the file is larger than {MAX_SUBMISSION_BYTES // 2**20} MB."
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, "not a notebook", ("it is not a text file; a notebook (.ipynb) is JSON text. Did you hand "
                                        "in a PDF, an HTML export or a zip file?")
    if not text.strip():
        return None, "invalid JSON", "the file is empty (was it saved or uploaded completely?)."
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if text.lstrip().startswith(("{", "[")):
            return None, "invalid JSON", (f"the file is not valid JSON ({error.msg}: line {error.lineno}, column "
                                          f"{error.colno}): it may be cut off or edited by hand. Open the "
                                          f"notebook in Jupyter, save it and hand it in again.")
        return None, "not a notebook", "it is not a Jupyter notebook (a notebook is JSON text that starts with '{')."
    problem = _notebook_problem(data)
    if problem:
        return None, "not a notebook", problem
    unchanged = _unchanged(data)
    try:
        with warnings.catch_warnings():  # a missing cell id and the like: not the student's concern
            warnings.simplefilter("ignore")
            return nbformat.reads(text, as_version=4), "ok", UNCHANGED if unchanged else ""
    except Exception as error:  # noqa: BLE001 - nbformat's many ways of refusing a file
        return None, "not a notebook", f"nbformat cannot read it ({type(error).__name__}: {error})"[:300]


def identify(notebook, module):
    """``("ok", note)`` if ``notebook`` is a copy of lab ``module``'s notebook, else ``("other lab", why)``.

    The lab is named by ``metadata["simlab"]["generated_from"]`` (written by ``simlab build-labs``)
    and by the lab module the code imports; both must agree (metadata can be edited). A notebook
    without the metadata is accepted when its code imports the lab's module.
    """
    metadata = notebook.get("metadata", {}).get("simlab", {})
    generated = metadata.get("generated_from") if isinstance(metadata, dict) else None
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    imported = sorted(set(_LAB_IMPORT.findall(code)))
    expected = f"{module}.ipynb"
    if generated is not None and Path(str(generated)).name != expected:
        return "other lab", (f"this notebook was made from {generated}, not from solutions/{expected}: is it the "
                             f"right file?")
    if module not in imported:
        if imported:
            said = " (although its metadata names this lab)" if generated else ""
            return "other lab", f"its code uses simlab.course.{imported[0]}, not simlab.course.{module}{said}."
        return "other lab", f"its code does not use simlab.course.{module}: it is not a copy of labs/{expected}."
    if generated is None:
        return "ok", f"no simlab metadata (not saved from labs/{expected}?): identified by its code."
    return "ok", ""


def _unchanged(data):
    """True if the notebook ``data`` (parsed JSON) is the lab exactly as ``simlab build-labs`` made it."""
    from simlab.course.labtools import fingerprint

    metadata = data.get("metadata", {}).get("simlab", {}) if isinstance(data.get("metadata"), dict) else {}
    recorded = metadata.get("fingerprint") if isinstance(metadata, dict) else None
    return recorded is not None and recorded == fingerprint(data)


def _cleared(notebook):
    """A copy of ``notebook`` without outputs (outputs handed in never count)."""
    import copy

    cleared = copy.deepcopy(notebook)
    for cell in cleared.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return cleared


# ---------------------------------------------------------------------------------------------
# Running the worker
# ---------------------------------------------------------------------------------------------


def _worker_env():
    """The environment of a worker and its kernel: this simlab first, figures not drawn, one BLAS thread."""
    import simlab

    env = dict(os.environ)
    project = str(Path(simlab.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([project] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["MPLBACKEND"] = "Agg"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(variable, "1")
    return env


def _kill_kernel(workdir, key):
    """Kill the kernel a killed worker may have left: its pid is in ``kernel.pid``, signed by the worker."""
    from simlab.course.grade_worker import signed_pid

    try:
        pid = signed_pid((workdir / "kernel.pid").read_text(encoding="utf-8"), key)
        if pid and pid != os.getpgrp() and os.getpgid(pid) == pid:  # a session leader, not this grader
            os.killpg(pid, signal.SIGKILL)
    except (OSError, ValueError):
        pass


def _log_tail(path, lines=5):
    try:
        return " | ".join(path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-lines:])
    except OSError:
        return ""


def run_worker(module, notebook, options):
    """Grade ``notebook`` (already identified as lab ``module``'s) in a fresh worker process.

    Returns
    -------
    dict
        The worker's report (see :func:`simlab.course.grade_worker.grade_notebook`), or a report with
        the status "timed out" or "grader error" when the worker did not finish.
    """
    import nbformat

    from simlab.course.grade_worker import signed_report

    workdir = Path(tempfile.mkdtemp(prefix="simlab-grade-"))  # private: mode 0700
    key = secrets.token_hex(32)
    try:
        nbformat.write(notebook, str(workdir / "submission.ipynb"))
        command = [sys.executable, "-m", "simlab.course.grade_worker", module, str(workdir),
                   "--cell-timeout", str(options.cell_timeout), "--timeout", str(options.timeout),
                   "--memory", str(options.memory)]
        with open(workdir / "worker.log", "wb") as log:
            process = subprocess.Popen(command, cwd=workdir, env=_worker_env(), stdin=subprocess.PIPE,
                                       stdout=log, stderr=subprocess.STDOUT)
            process.stdin.write(f"{key}\n".encode())
            process.stdin.close()
            try:
                code = process.wait(timeout=options.timeout + GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                _kill_kernel(workdir, key)
                return {"status": "timed out", "note": f"the notebook did not finish within {options.timeout:g} s."}
        try:
            report = signed_report((workdir / "result.json").read_text(encoding="utf-8"), key)
        except (OSError, ValueError, KeyError, TypeError) as error:
            _kill_kernel(workdir, key)
            why = (f"the grading process stopped (exit code {code}): {_log_tail(workdir / 'worker.log')}" if code else
                   f"the grader's result was overwritten or removed after it was written (by a process the "
                   f"notebook started?): not graded ({type(error).__name__}: {error}).")
            return {"status": "grader error", "note": why[:500]}
        executed = workdir / "executed.ipynb"
        text = executed.read_bytes() if executed.exists() else b""
        intact = hashlib.sha256(text).hexdigest() == report.get("executed_sha256")
        report["executed"] = text.decode("utf-8", errors="replace") if intact else None
        return report
    finally:
        _remove(workdir)


def _remove(workdir, attempts=5):
    """Remove the private folder; retry while a process the notebook left behind writes into it."""
    for _ in range(attempts):
        shutil.rmtree(workdir, ignore_errors=True)
        if not workdir.exists():
            return
        time.sleep(0.05)


def grade_submission(path, name, module, options, out=None, folder=None):
    """Read, identify and grade one submission; write its executed notebook under ``out/executed``.

    ``folder`` is the submission folder ``path`` was found in (None: a file named on the command
    line): a link found there is read only when it points to a file inside it; else the status is
    "link" and the note says where it points."""
    start = time.monotonic()
    source, link = _link_target(_entry(path), None if folder is None else Path(folder).resolve())
    if source is None:
        return SubmissionGrade(Path(path), name, "link", link, seconds=time.monotonic() - start)
    notebook, status, unchanged = read_submission(source, follow_links=folder is None)
    note = unchanged
    if notebook is not None:
        status, note = identify(notebook, module)
    if status != "ok":
        return SubmissionGrade(Path(path), name, status, " ".join(part for part in (link, note) if part),
                               seconds=time.monotonic() - start)
    report = run_worker(module, _cleared(notebook), options)
    if report.get("executed") and out is not None:
        target = Path(out) / "executed" / _file_name(name, ".ipynb")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(report["executed"], encoding="utf-8")
    notes = [link, note, report.get("note", ""), unchanged]
    return SubmissionGrade(
        Path(path), name, report["status"], " ".join(part for part in notes if part),
        tasks=tuple(TaskGrade(**task) for task in report.get("tasks", ())),
        cells=tuple(tuple(cell) for cell in report.get("cells", ())),
        parameters=tuple(tuple(parameter) for parameter in report.get("parameters", ())),
        seconds=time.monotonic() - start)


# ---------------------------------------------------------------------------------------------
# The outputs
# ---------------------------------------------------------------------------------------------


def _file_name(name, suffix):
    """A file name for submission ``name``: its folders joined by ``__``, ``suffix`` for ``.ipynb``."""
    flat = name.replace("/", "__")
    return (flat[: -len(".ipynb")] if flat.endswith(".ipynb") else flat) + suffix


def write_csv(grades, task_names, path):
    """``grades.csv``: submission, status, one column per task, passed, out_of, parameters, note."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["submission", "status", *(f"task_{name}" for name in task_names), "passed", "out_of",
                         "parameters", "note"])
        for grade_ in grades:
            results = {task.task: task.result for task in grade_.tasks}
            writer.writerow([grade_.name, grade_.status, *(results.get(name, "") for name in task_names),
                             grade_.passed, len(task_names),
                             "; ".join(f"{key} = {value}" for key, value in grade_.parameters), grade_.note])
    return path


def feedback_text(grade_, module, tasks):
    """The feedback of one submission, as Markdown: the total, each task's result and message."""
    lines = [f"# {module}: feedback on {grade_.name}", ""]
    if grade_.status != "ok":
        lines += [f"**Not graded: {grade_.status}.** {grade_.note}", ""]
        return "\n".join(lines)
    lines += [f"**{grade_.passed} of {len(tasks)} tasks passed.**", "",
              "The grader ran your notebook in a fresh kernel and checked the values your code computed, as "
              "they were when each task's check cell ran "
              "(what the notebook printed does not count)."]
    if grade_.parameters:
        lines.append("Parameters you set to other values than the lab's (the checks used yours): "
                     + ", ".join(f"`{key} = {value}`" for key, value in grade_.parameters) + ".")
    if grade_.note:
        lines.append(f"Note: {grade_.note}")
    lines += ["", "| task | what | result |", "|---|---|---|"]
    lines += [f"| {task.task} | {tasks[task.task].title} | {task.result} |" for task in grade_.tasks]
    for task in grade_.tasks:
        lines += ["", f"## Task {task.task}: {task.result}", "", "```text", task.text, "```"]
    if grade_.cells:
        lines += ["", "## Cells that raised an error or ran too long", ""]
        lines += [f"- cell {index} (`{line}`): {kind}: {text}" if kind != "timed out" else
                  f"- cell {index} (`{line}`): {text}" for index, line, kind, text in grade_.cells]
    return "\n".join(lines) + "\n"


def grade(lab, submissions, out, options=GradeOptions(), on_graded=None):
    """Grade ``submissions`` of ``lab`` and write ``out/grades.csv`` and ``out/feedback/*.md``.

    Parameters
    ----------
    lab : str
        The lab, as ``simlab run`` names it (``"lab01"``, ``"01"``, ``"lab01_euler_rk4"``).
    submissions : sequence of path-like
        Notebook files (read even when they are symbolic links: they were named), or folders
        whose ``.ipynb`` files are graded. A link in a folder is read only when it points to a
        file inside that folder; otherwise its row has the status "link" and it is not read.
    out : path-like
        Folder for the results.
    options : GradeOptions
    on_graded : callable ``on_graded(grade, number, total)``, optional
        Called as each submission is done (progress).

    Returns
    -------
    GradeReport

    Raises
    ------
    GradeError
        For an unknown lab or when there is nothing to grade (nothing is written then).
    """
    module, tasks = resolve_lab(lab)
    found = expand_submissions(submissions, out)
    names = submission_names([path for path, _ in found])
    out = Path(out)
    done = []

    def one(item):
        (path, folder), name = item
        result = grade_submission(path, name, module, options, out, folder)
        done.append(result)
        if on_graded is not None:
            on_graded(result, len(done), len(found))
        return result

    with ThreadPoolExecutor(max_workers=max(1, int(options.jobs))) as pool:
        grades = tuple(pool.map(one, zip(found, names)))
    csv_path = write_csv(grades, list(tasks), out / "grades.csv")
    feedback = []
    for grade_ in grades:
        target = out / "feedback" / _file_name(grade_.name, ".md")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(feedback_text(grade_, module, tasks), encoding="utf-8")
        feedback.append(target)
    return GradeReport(module, tuple(tasks), grades, csv_path, tuple(feedback))
