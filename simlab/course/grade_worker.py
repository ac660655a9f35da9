"""One submission graded in a fresh process: the student's cells in a kernel, the checks here.

``simlab grade`` (:mod:`simlab.course.grade`) starts ``python -m simlab.course.grade_worker`` once
per submission, in the submission's private folder. This process

1. limits its memory (``RLIMIT_AS``; the kernel it starts inherits the limit) and imports simlab
   and the lab's module afresh, before any student code has run anywhere;
2. runs the student's cells in a new Jupyter kernel (nbclient), each with a time limit (a cell
   that runs over is interrupted, and the run goes on; cells that raise do not stop it), the
   whole notebook with another (past it the kernel is killed);
3. runs one more cell, which writes the values of the tasks' answers and parameters into a JSON
   file (:func:`simlab.course.grade_values.dump_names`);
4. reads those values back as data and runs every task's check on them *here*, with the lab
   module's own ``TASKS``: nothing the notebook did to ``check_value``, to ``simlab`` or to the
   lab module in its kernel has any effect. A function that is an answer stays in the kernel;
   each call the check makes is sent there and its returned value read back as data;
5. writes ``result.json`` for the grader, signed (HMAC-SHA256) with a key the grader sent on this
   process's standard input: the kernel never sees the key (its stdin is its own pipe), so a
   process the student's code left behind cannot forge the result by rewriting the file.

Text that came from the kernel is never parsed as a sympy expression here (``sympify`` of a
string would ``eval`` it): see :func:`refuse_text_parsing`.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import hashlib
import hmac
import importlib
import inspect
import json
import math
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

__all__ = ["CallTimedOut", "KernelGone", "KernelSession", "grade_notebook", "grade_task", "bound_names",
           "checked_tasks", "redefinitions", "refuse_text_parsing", "texts_in", "sign", "signed_report", "signed_pid",
           "main"]

#: The grader's cell run before the student's: ``%matplotlib`` does nothing, figures stay on Agg
#: (they are not drawn: the grade never depends on them, and drawing is slow).
SETUP_CODE = "get_ipython().register_magic_function(lambda line='': None, 'line', 'matplotlib')\n"
#: The kernel draws no figure images: the grade never reads them, and rendering a figure as PNG
#: costs about as much as running a lab cell (0.3-1 s each).
NO_FIGURE_IMAGES = ["--InlineBackend.figure_formats=set()"]
_VALUES = "__import__('simlab.course.grade_values', fromlist=['dump_names'])"
RESULTS = {"correct": "passed", "not yet": "not yet", "not done": "not done"}
#: A self-check cell's call: ``check("A1")`` (``lab.check("A1")``), without answers given as keywords.
CHECK_CALL = re.compile(r"""(?<![\w.])(?:\w+\.)*check\(\s*["']([^"'\n]{1,20})["']\s*\)""")
#: Names of the self-check machinery that a notebook should not rebind.
CHECK_NAMES = {"check", "take", "check_value", "check_array", "all_of", "CheckResult", "Tasks", "TASKS",
               "use_parameters", "generic_hint"}
_ATTRIBUTE_STORE = re.compile(r"\b((?:lab|simlab|check_module|check)(?:\.\w+)*)\.(\w+)\s*(?:\[[^\]\n]*\])?\s*=(?!=)")


class CallTimedOut(BaseException):
    """A student's function called by a check did not return in time (not an ``Exception``:
    the checks' ``except Exception`` must not turn it into a wrong answer)."""


class KernelGone(BaseException):
    """The kernel died (or was killed at the time limit) while a check called a function in it."""


class StudentError(Exception):
    """An exception raised by a student's function, re-raised here under the same type name."""


# ---------------------------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------------------------


def _first_line(source):
    return next((line.strip() for line in source.splitlines() if line.strip()), "")[:80]


class KernelSession:
    """The student's notebook in a fresh kernel: its cells, the extraction, calls of its functions.

    Parameters
    ----------
    notebook : nbformat.NotebookNode
        The submission (outputs cleared); its cells receive the outputs.
    workdir : Path
        The submission's private folder: the kernel's working directory and sockets.
    cell_timeout : float
        Seconds a cell (or a call of a student's function) may run before it is interrupted.
    deadline : float
        ``time.monotonic()`` past which the kernel is killed (the notebook's time limit).
    key : str
        The grader's key: ``kernel.pid`` is signed with it, so that the grader, should it have to
        kill a kernel left behind, kills no process the notebook named instead.
    """

    def __init__(self, notebook, workdir, cell_timeout, deadline, key=""):
        self.notebook, self.workdir, self.key = notebook, Path(workdir), key
        self.cell_timeout, self.deadline = cell_timeout, deadline
        self.killed_at_deadline = False
        self.dead = None  # why the kernel is gone, once it is
        self.current = None  # index of the cell running (or run last)
        self.client = None
        self._watchdog = None

    def __enter__(self):
        from jupyter_client.manager import AsyncKernelManager
        from nbclient import NotebookClient

        manager = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=str(self.workdir / "kernel"))
        self.client = NotebookClient(self.notebook, km=manager, timeout=self._timeout(), allow_errors=True,
                                     interrupt_on_timeout=True, record_timing=False, startup_timeout=120,
                                     shutdown_kernel="immediate", resources={"metadata": {"path": str(self.workdir)}},
                                     extra_arguments=NO_FIGURE_IMAGES)
        self._context = self.client.setup_kernel(cwd=str(self.workdir), cleanup_kc=True)
        self._context.__enter__()
        pid = self.client.km.provisioner.pid
        (self.workdir / "kernel.pid").write_text(f"{pid} {_mac(self.key, str(pid))}")
        self._watchdog = threading.Timer(max(0.0, self.deadline - time.monotonic()), self._deadline_reached)
        self._watchdog.daemon = True
        self._watchdog.start()
        self.run(SETUP_CODE)
        return self

    def __exit__(self, *exc):
        self._watchdog.cancel()
        try:
            self._context.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - a dead kernel may fail to shut down cleanly
            pass
        self._kill()
        return False

    def _deadline_reached(self):
        """The watchdog: at the notebook's time limit, kill the kernel whatever it is doing."""
        self.killed_at_deadline = True
        self._kill()

    def _kill(self):
        """Kill the kernel's process group (it is a session leader), if it is still running."""
        manager = self.client.km if self.client is not None else None
        process = getattr(getattr(manager, "provisioner", None), "process", None)
        if process is None or process.poll() is not None:
            return
        try:
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)
            else:  # pragma: no cover - Windows
                process.kill()
        except (ProcessLookupError, PermissionError):
            pass

    def _timeout(self, limit=None):
        remaining = self.deadline - time.monotonic()
        return max(1, math.ceil(min(limit or self.cell_timeout, remaining)))

    def _why_dead(self):
        if self.killed_at_deadline:
            return "timed out"
        process = getattr(self.client.km.provisioner, "process", None)
        code = process.poll() if process is not None else None
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            return f"was killed by {name}" + (" (a segmentation fault)" if name == "SIGSEGV" else "")
        return f"exited with code {code}" if code is not None else "stopped"

    def execute(self, cell, index, limit=None):
        """Run one cell; return True if it ran into its time limit (it was interrupted).

        Raises
        ------
        KernelGone
            If the kernel died (or was killed at the deadline); ``dead`` says how.
        """
        from nbclient.exceptions import DeadKernelError

        if self.dead is not None:
            raise KernelGone(self.dead)
        self.current = index
        timeout = self._timeout(limit)
        self.client.timeout = timeout
        start = time.monotonic()
        try:
            self.client.execute_cell(cell, index)
        except DeadKernelError:
            self.dead = self._why_dead()
            raise KernelGone(self.dead) from None
        return time.monotonic() - start >= timeout - 0.05

    def run(self, source, limit=None):
        """Run code of the grader's after the student's cells; return (timed out, error text)."""
        import nbformat

        cell = nbformat.v4.new_code_cell(source)
        self.notebook.cells.append(cell)
        try:
            timed_out = self.execute(cell, len(self.notebook.cells) - 1, limit)
        finally:
            self.notebook.cells.pop()
        errors = [f"{output.ename}: {output.evalue}" for output in cell.outputs if output.output_type == "error"]
        return timed_out, errors[0] if errors else ""

    def run_cells(self, after=None):
        """Run every code cell of the notebook; return the problems ``[(index, line, kind, text)]``.

        ``after(index, cell)``, if given, runs after each code cell (the grader's snapshot of the
        answers a self-check cell just checked).
        """
        problems = []
        for index, cell in enumerate(self.notebook.cells):
            if cell.cell_type != "code" or not cell.source.strip():
                continue
            if self.execute(cell, index):
                problems.append((index, _first_line(cell.source), "timed out",
                                 f"did not finish within {self.cell_timeout:g} s and was interrupted"))
            else:
                for output in cell.outputs:
                    stub = output.get("ename") == "NotImplementedError" and "NotImplementedError(" in cell.source
                    if output.output_type == "error" and not stub:
                        message = f"{output.ename}: {output.evalue}"[:300]
                        problems.append((index, _first_line(cell.source), "error", message))
            if after is not None:
                after(index, cell)
        return problems

    def call(self, name, args, kwargs):
        """Call the student's function ``name`` in the kernel; the returned value, read as data."""
        from simlab.course import grade_values

        request, reply = self.workdir / "call_in.json", self.workdir / "call_out.json"
        request.write_text(json.dumps({"args": grade_values.encode(list(args)),
                                       "kwargs": grade_values.encode(dict(kwargs))}), encoding="utf-8")
        reply.unlink(missing_ok=True)
        code = (f"__import__('simlab.course.grade_values', fromlist=['serve_call']).serve_call("
                f"globals(), {name!r}, {str(request)!r}, {str(reply)!r})")
        timed_out, _ = self.run(code)
        if timed_out:
            raise CallTimedOut(f"{name}(...) did not return within {self.cell_timeout:g} s")
        try:
            answer = json.loads(reply.read_text(encoding="utf-8"))
            if "raised" not in answer:
                answer = {"returned": grade_values.decode(answer["returned"])}
        except (OSError, ValueError, KeyError, TypeError, grade_values.FormatError) as error:
            raise TypeError(f"the grader could not read what {name} returned ({error})") from None
        return _returned(name, answer)


def _returned(name, answer):
    """The value a student's function returned, or its exception raised again under its name."""
    from simlab.course.grade_values import Ungradable, describe

    if "raised" in answer:
        module, type_name, message = (str(part) for part in list(answer["raised"])[:3])
        builtin = getattr(builtins, type_name, None)
        if module == "builtins" and isinstance(builtin, type) and issubclass(builtin, Exception):
            raise builtin(message)
        raise type(type_name if type_name.isidentifier() else "StudentError", (StudentError,), {})(message)
    value = answer.get("returned")
    refuse_text_parsing(texts_in(value))
    if isinstance(value, Ungradable):
        raise TypeError(f"{name} returned {describe(value)}, which the grader cannot read")
    return value


class KernelFunction:
    """A student's function as the checks see it: each call runs in the student's kernel."""

    def __init__(self, session, name):
        self._session, self._name = session, name

    def __call__(self, *args, **kwargs):
        return self._session.call(self._name, args, kwargs)

    def __repr__(self):
        return f"<your function {self._name}>"


# ---------------------------------------------------------------------------------------------
# Grading
# ---------------------------------------------------------------------------------------------


#: Every text that came from the student's kernel (answers, parameters, returned values).
_STUDENT_TEXT = set()


def texts_in(value, depth=0):
    """The strings in a value read from the kernel: itself, items, keys, fields."""
    import dataclasses

    import numpy as np

    if isinstance(value, str):
        return {value}
    if depth > 40:
        return set()
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    elif isinstance(value, np.ndarray) and value.dtype == object:
        parts = value.ravel().tolist()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [getattr(value, field.name) for field in dataclasses.fields(value)]
    else:
        return set()
    return set().union(*(texts_in(part, depth + 1) for part in parts))


def refuse_text_parsing(texts=()):
    """Make sympy refuse to parse the student's ``texts`` in this process.

    ``sympify("...")`` of a string runs it through ``eval`` (with builtins such as ``__import__`` in
    reach); no answer of the labs is text, so a text answer that a check passes to ``sympify``
    gets ``SympifyError`` (the check says it is not an expression) instead of running as code.
    sympy's own strings (it parses some while importing its modules) are parsed as usual.
    """
    import sympy
    from sympy.parsing import sympy_parser

    _STUDENT_TEXT.update(texts)
    _STUDENT_TEXT.update(text.replace("\n", "") for text in texts)  # as sympify passes it on
    if getattr(sympy_parser.parse_expr, "refuses_student_text", False):
        return
    original = sympy_parser.parse_expr

    def parse_expr(text, *args, **kwargs):
        if isinstance(text, str) and text in _STUDENT_TEXT:
            raise sympy.SympifyError(f"the grader does not parse text as an expression: {text[:60]!r}")
        return original(text, *args, **kwargs)

    parse_expr.refuses_student_text = True
    sympy_parser.parse_expr = parse_expr


def bound_names(source):
    """Names a cell assigns or defines (``y = ...``, ``y[k] = ...``, ``def f``, ``for k in``, imports)."""
    assigned = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\])?\s*[-+*/@%]?=(?!=)")
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        tree = ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError, ImportError):
        return set(assigned.findall(source))
    magics = "\n".join(line for line in source.splitlines() if line.lstrip().startswith("%"))
    names = set(assigned.findall(magics))  # %time x = ...: the statement is text to ast
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name):
                names.add(base.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def checked_tasks(source, tasks):
    """The tasks whose self-check ``source`` runs (``lab.check("A1")``), in order, each once."""
    return list(dict.fromkeys(name for name in CHECK_CALL.findall(source) if name in tasks))


def _defined_names(source):
    """Names a cell assigns or defines with ``=``, ``def`` or ``class`` (imports left out: importing
    ``check_value`` from simlab is what the labs do)."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        tree = ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError, ImportError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def redefinitions(cells):
    """``[(index, what)]``: cells that rebind a name of the self-check machinery or patch the lab's or
    simlab's objects (``def check_value``, ``lab.check = ...``, ``simlab.course.check.check_array = ...``)."""
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        names = sorted(_defined_names(cell.source) & CHECK_NAMES)
        patched = [f"{base}.{attribute}" for base, attribute in _ATTRIBUTE_STORE.findall(cell.source)]
        for what in dict.fromkeys([*names, *patched]):
            found.append((index, what))
    return found


def task_names(tasks, name):
    """The names the grader reads for task ``name``: its answers, then the parameters its check uses."""
    contract = getattr(tasks, "contract", None)
    parameters = tasks.parameter_names(name) if hasattr(tasks, "parameter_names") else tasks[name].parameters
    return [*tasks[name].answers, *parameters, *(contract or ())]


def grade_task(tasks, name, values, timed_out=frozenset(), cell_timeout=None):
    """Grade task ``name`` on the values read from the kernel: ``(result, text)``.

    ``result`` is "passed", "not yet", "not done", "error" or "timed out"; ``text`` is the check's
    message (its :class:`~simlab.course.check.CheckResult` printed) or what went wrong.
    ``timed_out`` are the names bound by cells that ran into their time limit.
    """
    from simlab.course.check import CheckResult
    from simlab.course.grade_values import Ungradable, describe

    task = tasks[name]
    late = [answer for answer in task.answers if answer in timed_out]
    if late:
        within = f" within {cell_timeout:g} s" if cell_timeout else " in time"
        return "timed out", (f"the cell that computes {', '.join(late)} did not finish{within} and was "
                             f"interrupted; make it faster (an endless loop?) and run it again.")
    unreadable = [(answer, values[answer]) for answer in task.answers if isinstance(values.get(answer), Ungradable)]
    if unreadable:
        answer, value = unreadable[0]
        return "error", f"cannot be graded: {answer} is {describe(value)}."
    namespace = {key: value for key, value in values.items() if not isinstance(value, Ungradable)}
    try:
        result = tasks.check(name, namespace=namespace)
    except CallTimedOut as error:
        return "timed out", f"your function did not return in time: {error}."
    except KernelGone as error:
        if str(error) == "timed out":
            return "timed out", "the notebook's time limit was reached while the check called your function."
        return "error", f"your function could not be called: the kernel {error}."
    except Exception as error:  # noqa: BLE001 - an answer of a type the check does not expect
        return "error", f"the check could not be run on your answer ({type(error).__name__}: {error})."[:500]
    if not isinstance(result, CheckResult):
        return "error", f"the check returned {type(result).__name__}, not a CheckResult."
    return RESULTS[result.status], str(result)


def _same(value, default):
    import numpy as np

    try:
        return bool(np.array_equal(np.asarray(value, dtype=float), np.asarray(default, dtype=float)))
    except (TypeError, ValueError):
        try:
            return bool(value == default)
        except Exception:  # noqa: BLE001 - values that do not compare are different
            return False


def changed_parameters(tasks, values):
    """``[(name, text)]`` of the parameters the notebook set to other values than the lab's.

    ``values`` is one namespace, or a list of them (each task's, as its check saw it): a parameter
    with different values in different checks lists each.
    """
    from simlab.course.grade_values import Ungradable

    contract = getattr(tasks, "contract", None)
    changed = {}
    for namespace in values if isinstance(values, list) else [values]:
        readable = {key: value for key, value in namespace.items() if not isinstance(value, Ungradable)}
        if contract is not None:
            pairs = contract.changed(readable).items()
        else:
            pairs = []
            for task in tasks.values():
                defaults = inspect.signature(task.check).parameters
                for name in task.parameters:
                    default = defaults[name].default if name in defaults else inspect.Parameter.empty
                    if default is not inspect.Parameter.empty and name in readable and not _same(readable[name], default):
                        pairs.append((name, readable[name]))
        for name, value in pairs:
            text = f"{value!r}"[:60]
            if text not in changed.setdefault(name, []):
                changed[name].append(text)
    return sorted((name, " / ".join(texts)) for name, texts in changed.items())


def _answers(session, tasks, names=None, path=None):
    """Run an extraction cell and read the answers back: ``(values, problem)``."""
    from simlab.course import grade_values

    if names is None:
        names = [name for task in tasks for name in task_names(tasks, task)]
    names = list(dict.fromkeys(names))
    path = path or session.workdir / "answers.json"
    timed_out, error = session.run(f"{_VALUES}.dump_names(globals(), {names!r}, {str(path)!r})")
    try:
        return grade_values.load_names(path, lambda name: KernelFunction(session, name)), ""
    except grade_values.FormatError as problem:
        reason = "it did not finish in time" if timed_out else (error or str(problem))
        return {}, f"the grader could not read the answers from the kernel: {reason}"


class Snapshots:
    """The answers and parameters of each task as its self-check cell saw them.

    After every code cell that runs ``lab.check("X")``, the grader reads task X's answers and the
    lab's parameters out of the kernel, by value, as it reads the final state. A task is graded on
    the last such snapshot in the notebook's order: a later cell that rebinds a name (a discussion
    question that sets ``tau = 0.5``) changes no grade.
    """

    def __init__(self, session, tasks):
        self.session, self.tasks = session, tasks
        self.taken = {}  # task -> (cell index, values, problem)

    def __call__(self, index, cell):
        for name in checked_tasks(cell.source, self.tasks):
            path = self.session.workdir / f"snapshot_{index}_{len(self.taken)}.json"
            values, problem = _answers(self.session, self.tasks, task_names(self.tasks, name), path)
            self.taken[name] = (index, values, problem)

    def values(self, name, final):
        """``(values, problem, note)`` to grade task ``name`` on: its snapshot, else the final state."""
        if name not in self.taken:
            return final, "", "its check cell (lab.check) never ran: graded on the notebook's final state"
        index, values, problem = self.taken[name]
        missing = [answer for answer in self.tasks[name].answers if answer not in values]
        if missing and all(answer in final for answer in missing):
            return final, "", (f"{', '.join(missing)} was defined only after its check cell (cell {index}) ran: "
                               f"graded on the notebook's final state")
        return values, problem, ""


def _tampering_note(notebook, values):
    """What the notebook did to the self-checks or handed in that the grader could not read."""
    from simlab.course.grade_values import Ungradable

    notes = []
    found = redefinitions(notebook.cells)
    if found:
        listed = ", ".join(f"{what} (cell {index})" for index, what in found[:5])
        notes.append(f"the notebook redefines self-check functions: {listed}; the grader ignored that and ran the "
                     f"lab's own checks in a separate process.")
    own = sorted({value.type_name for value in values.values() if isinstance(value, Ungradable)
                  and value.type_name.startswith("__main__.")})
    if own:
        names = sorted(name for name, value in values.items() if isinstance(value, Ungradable)
                       and value.type_name in own)
        notes.append(f"it hands in objects of its own class ({', '.join(own)}) as {', '.join(names)}: they cannot "
                     f"be graded (only numbers, arrays, sympy expressions and simlab's results count).")
    return " ".join(notes)


def grade_notebook(module, notebook, workdir, cell_timeout=120, timeout=600, key=""):
    """Run ``notebook`` (a submission of lab ``module``) in a fresh kernel and grade its tasks.

    Returns
    -------
    dict
        ``status`` ("ok", "kernel died", "timed out"), ``note``, ``tasks`` (``[{"task", "result",
        "text"}]`` when the status is ok), ``cells`` (cells that raised or timed out) and
        ``parameters`` (those set to other values than the lab's).
    """
    import nbformat

    tasks = importlib.import_module(f"simlab.course.{module}").TASKS
    deadline = time.monotonic() + timeout
    report = {"status": "ok", "note": "", "tasks": [], "cells": [], "parameters": []}
    session = KernelSession(notebook, workdir, cell_timeout, deadline, key)
    snapshots = Snapshots(session, tasks)
    try:
        with session:
            problems = session.run_cells(after=snapshots)
            nbformat.write(notebook, str(Path(workdir) / "executed.ipynb"))
            report["cells"] = [list(problem) for problem in problems]
            final, problem = _answers(session, tasks)
            seen = [final] + [values for _, values, _ in snapshots.taken.values()]
            refuse_text_parsing(set().union(*(texts_in(values) for values in seen)))
            late = set().union(*(bound_names(notebook.cells[index].source) for index, _, kind, _ in problems
                                 if kind == "timed out"))
            used, notes = [], {}
            for name in tasks:
                values, snapshot_problem, note = snapshots.values(name, final)
                trouble = problem if values is final else snapshot_problem
                result, text = ("error", trouble) if trouble else grade_task(tasks, name, values, late, cell_timeout)
                if note:
                    text = f"(Task {name}: {note}.)\n{text}"
                    notes.setdefault(note.split(":")[0], []).append(name)
                report["tasks"].append({"task": name, "result": result, "text": text})
                used.append(values)
            report["parameters"] = changed_parameters(tasks, used)
            every = {key: value for values in seen for key, value in values.items()}
            report["note"] = " ".join(part for part in (
                _tampering_note(notebook, every),
                *(f"Task {', '.join(names)}: {why}: graded on the notebook's final state." for why, names in notes.items()))
                if part)
    except KernelGone as error:
        nbformat.write(notebook, str(Path(workdir) / "executed.ipynb"))
        index = session.current
        cell = (f"cell {index} (`{_first_line(notebook.cells[index].source)}`)"
                if index is not None and index < len(notebook.cells) else "the grader's cell after yours")
        if str(error) == "timed out":
            report.update(status="timed out", note=f"the notebook did not finish within {timeout:g} s "
                                                   f"(it was running {cell}).")
        else:
            report.update(status="kernel died", note=f"the kernel {error} while running {cell}: the notebook "
                                                     f"could not be graded.")
        report["tasks"] = []
    return report


def _limit_resources(memory_mb):
    """Limit this process (and the kernel it starts) to ``memory_mb`` MB of address space; no core files."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows: no limits
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_mb:
        limit = int(memory_mb) * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _mac(key, text):
    return hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()


def sign(report, key):
    """``report`` as the signed JSON text that the grader reads (:func:`signed_report` checks it)."""
    text = json.dumps(report)
    return json.dumps({"report": text, "signature": _mac(key, text)})


def signed_report(text, key):
    """The report in ``text`` written by :func:`sign` with ``key``; ValueError if it was tampered with."""
    data = json.loads(text)
    if not hmac.compare_digest(_mac(key, str(data["report"])), str(data["signature"])):
        raise ValueError("the result's signature does not match: it was not written by the grader")
    return json.loads(data["report"])


def signed_pid(text, key):
    """The kernel's pid in ``kernel.pid`` text, or None unless the worker signed it with ``key``."""
    pid, _, signature = text.strip().partition(" ")
    return int(pid) if pid.isdigit() and hmac.compare_digest(_mac(key, pid), signature) else None


def main(argv=None):
    """``python -m simlab.course.grade_worker LAB_MODULE WORKDIR ...``: grade WORKDIR/submission.ipynb.

    The first line of standard input is the key that signs ``WORKDIR/result.json``.
    """
    parser = argparse.ArgumentParser(prog="python -m simlab.course.grade_worker")
    parser.add_argument("module")
    parser.add_argument("workdir")
    parser.add_argument("--cell-timeout", type=float, default=120)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--memory", type=int, default=0)
    args = parser.parse_args(argv)
    key = sys.stdin.readline().strip()
    _limit_resources(args.memory)
    # jsonschema (under nbformat) builds a grammar for IRI formats at import, which nbformat never
    # validates: about 2 s of CPU per submission. Without the module, jsonschema skips that format.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat

    workdir = Path(args.workdir)
    notebook = nbformat.read(str(workdir / "submission.ipynb"), as_version=4)
    report = grade_notebook(args.module, notebook, workdir, args.cell_timeout, args.timeout, key)
    executed = workdir / "executed.ipynb"
    report["executed_sha256"] = hashlib.sha256(executed.read_bytes()).hexdigest() if executed.exists() else None
    (workdir / "result.json").write_text(sign(report, key), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
