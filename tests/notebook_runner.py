"""Run a notebook's code cells in this process, with edits: the harness of the student-path tests.

The solution notebooks are run as a student would run them after changing something: a task's
code replaced by a catalogued mistake, or a documented parameter set to another value. Cells run
in order in one namespace (IPython's ``%matplotlib`` line is dropped, figures are drawn with
the Agg backend and closed); each cell's printed text and the repr of its last expression are
collected, as Jupyter would show them. An exception stops the run and is reported with the cell.

Running in-process is much cheaper than a kernel per variant, and the lab modules' imports are
shared between runs.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import json
import re
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK_LINE = re.compile(r"^\[(correct|not yet|expected hint|correct, but a hint was expected)\]", re.M)


@dataclass
class CellOutput:
    """What one code cell showed: its index among the code cells, source, text and error."""

    index: int
    source: str
    text: str = ""
    error: BaseException | None = None


@dataclass
class Run:
    """The outputs of a notebook run, with the self-check lines found in them."""

    path: Path
    cells: list = field(default_factory=list)
    namespace: dict = field(default_factory=dict, repr=False)

    @property
    def text(self):
        return "\n".join(cell.text for cell in self.cells)

    @property
    def error(self):
        return next((cell for cell in self.cells if cell.error is not None), None)

    def checks(self, status=None):
        """Self-check lines ("[correct] ...", "[not yet] ..."), optionally of one status."""
        lines = [line for line in self.text.splitlines() if CHECK_LINE.match(line)]
        if status is not None:
            lines = [line for line in lines if line.startswith(f"[{status}]")]
        return lines


def code_cells(path):
    """Sources of the code cells of a notebook, in order."""
    notebook = json.loads(Path(path).read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]


def _without_magics(source):
    return "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))


def _execute(source, namespace):
    """Run one cell; return the repr of its last expression (as IPython shows it), or ''."""
    tree = ast.parse(_without_magics(source))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return ""
    value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
    return "" if value is None else repr(value)


#: Namespaces after the unchanged first cells of a notebook, by (path, number of cells): a run with
#: an edit in cell m starts from a copy of the namespace after cells 0 .. m-1, built on the
#: longest such prefix already run.
_PREFIXES = {}


def _copy_namespace(namespace):
    """A copy in which every value that can be deep-copied is (modules and functions are shared)."""
    copied = {}
    for key, value in namespace.items():
        if isinstance(value, (types.ModuleType, types.FunctionType, type)):
            copied[key] = value
            continue
        try:
            copied[key] = copy.deepcopy(value)
        except Exception:  # noqa: BLE001 - objects that cannot be copied are shared
            copied[key] = value
    return copied


def run_notebook(path, replace=(), stop_after=None):
    """Run the code cells of ``path`` in one fresh namespace.

    Parameters
    ----------
    path : path-like
    replace : sequence of (str, str)
        Textual edits applied to the cells, in order; each ``old`` must occur in exactly one cell
        (a catalogued mistake or a parameter change names the code it replaces).
    stop_after : int, optional
        Index of the last code cell to run (default: all).

    Returns
    -------
    Run
        ``error`` is the first cell that raised (the run stops there).
    """
    sources = code_cells(path)
    for old, new in replace:
        hits = [i for i, source in enumerate(sources) if old in source]
        if len(hits) != 1:
            raise AssertionError(f"{Path(path).name}: {old!r} occurs in {len(hits)} code cells, expected one")
        sources[hits[0]] = sources[hits[0]].replace(old, new)
    original = code_cells(path)
    first_edit = next((i for i, (a, b) in enumerate(zip(original, sources)) if a != b), len(sources))
    last = len(sources) - 1 if stop_after is None else stop_after
    start = min(first_edit, last + 1)
    run = Run(Path(path))
    name = str(Path(path).resolve())
    cached = max((n for (p, n) in _PREFIXES if p == name and n <= start), default=0)
    if cached:
        cells, namespace = _PREFIXES[(name, cached)]
        run.cells = list(cells)
        namespace = _copy_namespace(namespace)
    else:
        namespace = {"__name__": "__main__"}
    if start > cached:
        run = _run(run, sources, cached, start - 1, namespace)
        namespace = run.namespace
        if run.error is None:
            _PREFIXES[(name, start)] = (list(run.cells), _copy_namespace(namespace))
    if run.error is not None:
        return run
    return _run(run, sources, start, last, namespace)


def _run(run, sources, first, last, namespace):
    """Run cells first .. last of ``sources`` in ``namespace``, appending to ``run``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run.namespace = namespace
    for index in range(first, last + 1):
        source = sources[index]
        cell = CellOutput(index, source)
        stream = io.StringIO()
        try:
            with contextlib.redirect_stdout(stream), warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*non-interactive.*")  # plt.show() on Agg
                value = _execute(source, namespace)
            cell.text = stream.getvalue() + (value + "\n" if value else "")
        except BaseException as error:  # noqa: BLE001 - reported with the cell
            cell.text, cell.error = stream.getvalue(), error
            run.cells.append(cell)
            break
        finally:
            plt.close("all")
        run.cells.append(cell)
    return run


def cell_index(path, needle):
    """Index of the one code cell of ``path`` that contains ``needle``."""
    hits = [i for i, source in enumerate(code_cells(path)) if needle in source]
    if len(hits) != 1:
        raise AssertionError(f"{Path(path).name}: {needle!r} occurs in {len(hits)} code cells, expected one")
    return hits[0]
