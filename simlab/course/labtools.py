"""Generate the student labs (``labs/``) from the solved notebooks (``solutions/``).

The solution notebooks are the single source. In a solution, code the student must write sits
between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (nbgrader's convention, without any
nbgrader dependency), and so do model answers in markdown cells. :func:`build_labs` writes each
``labs/labNN_<topic>.ipynb`` with every marked block replaced by a stub and all outputs cleared.

A code stub is ``# YOUR CODE HERE`` and ``raise NotImplementedError(...)``, and its cell is
tagged ``raises-exception``: Jupyter's "Run All" (and nbconvert, nbclient) then goes on past an
unfinished task instead of stopping there, so that a student sees the whole lab, with
``[not yet] Task X is not done yet`` under each unfinished task.

Student work is never destroyed: every generated notebook records a fingerprint of its own
content; a lab whose content no longer matches its fingerprint was edited after it was
generated, and :func:`build_labs` refuses to overwrite it unless ``force=True``, in which case
the edited file is first copied to ``labs/.backup/``. Every write is atomic (a temporary file in
the same folder, then ``os.replace``).

This module is tooling: it may import the library; the library never imports it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "BEGIN",
    "END",
    "LabBuildError",
    "BuildReport",
    "strip_solutions",
    "make_lab",
    "build_labs",
    "fingerprint",
]

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
CODE_STUB = ["# YOUR CODE HERE", 'raise NotImplementedError("replace this line with your code, then run the cell")']
#: Cell tag that lets "Run All" go on past a cell that raises (Jupyter, nbconvert, nbclient).
RAISES_TAG = "raises-exception"
MARKDOWN_STUB = ["*YOUR ANSWER HERE*"]
_META_KEY = "simlab"


class LabBuildError(RuntimeError):
    """A lab could not be generated (unbalanced markers, or it would overwrite student work)."""


@dataclass
class BuildReport:
    """What :func:`build_labs` did or would do, per lab file.

    Every lab is in one of three states: up to date (``unchanged``), stale (generated and not
    edited since, but its solution changed, or missing: ``stale`` in check mode, ``written``
    otherwise) or edited (student work, never overwritten without ``force``: ``edited``).
    ``edited_outdated`` are the edited labs whose solution also changed since they were
    generated (``simlab build-labs --force`` gives the new version and keeps a backup).
    """

    written: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    stale: list = field(default_factory=list)
    edited: list = field(default_factory=list)
    edited_outdated: list = field(default_factory=list)
    backups: list = field(default_factory=list)

    @property
    def refused(self):
        """Edited labs that a build without ``force`` left as they are (student work kept)."""
        return [path for path in self.edited if path not in self.written]


def _lines(source):
    """Cell source as a list of lines without line ends (notebooks store str or list of str)."""
    text = "".join(source) if isinstance(source, list) else source
    return text.split("\n")


def _join(lines):
    """Lines back to the list-of-strings form that Jupyter writes."""
    text = "\n".join(lines)
    parts = text.splitlines(keepends=True)
    return parts


def strip_solutions(lines, cell_type="code", where="cell"):
    """Replace each marked solution block in ``lines`` by the stub for ``cell_type``.

    Parameters
    ----------
    lines : list of str
        Source lines of one cell.
    cell_type : {"code", "markdown"}
    where : str
        Name of the cell for error messages.

    Returns
    -------
    list of str
        The lines with solutions stubbed; indentation of the BEGIN marker is kept.

    Raises
    ------
    LabBuildError
        If the markers are unbalanced or nested.
    """
    stub = CODE_STUB if cell_type == "code" else MARKDOWN_STUB
    out, inside = [], False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if inside:
                raise LabBuildError(f"{where}, line {number}: nested {BEGIN!r}.")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [indent + stub_line for stub_line in stub]
        elif stripped.startswith(END):
            if not inside:
                raise LabBuildError(f"{where}, line {number}: {END!r} without {BEGIN!r}.")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise LabBuildError(f"{where}: {BEGIN!r} is never closed by {END!r}.")
    return out


def _canonical(notebook):
    """Canonical text of a notebook without simlab's fingerprint (what the fingerprint covers)."""
    content = copy.deepcopy(notebook)
    content.get("metadata", {}).pop(_META_KEY, None)
    return json.dumps(content, sort_keys=True, ensure_ascii=False)


def fingerprint(notebook):
    """SHA-256 of a notebook's canonical content, excluding the fingerprint itself."""
    return hashlib.sha256(_canonical(notebook).encode("utf-8")).hexdigest()


def make_lab(solution, source_name="solution"):
    """Return the student notebook for a solution notebook (a dict in nbformat 4 layout)."""
    lab = copy.deepcopy(solution)
    for index, cell in enumerate(lab.get("cells", [])):
        where = f"{source_name}, cell {index}"
        lines = _lines(cell.get("source", ""))
        if cell.get("cell_type") in ("code", "markdown"):
            stubbed = strip_solutions(lines, cell["cell_type"], where)
            if cell["cell_type"] == "code" and stubbed != lines:
                tags = cell.setdefault("metadata", {}).setdefault("tags", [])
                if RAISES_TAG not in tags:
                    tags.append(RAISES_TAG)
            lines = stubbed
        cell["source"] = _join(lines)
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        metadata = cell.get("metadata", {})
        metadata.pop("execution", None)
        metadata.pop("ExecuteTime", None)
    lab.setdefault("metadata", {})[_META_KEY] = {
        "generated_from": f"solutions/{source_name}",
        "note": "Generated by `simlab build-labs`; edit the solution, not this file.",
    }
    lab["metadata"][_META_KEY]["fingerprint"] = fingerprint(lab)
    return lab


def _dumps(notebook):
    return json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def _atomic_write(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        # mkstemp creates the file private (0600); give it the usual mode of a notebook,
        # or keep the mode of the file it replaces.
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _recorded_fingerprint(notebook):
    return notebook.get("metadata", {}).get(_META_KEY, {}).get("fingerprint")


def _was_edited(existing):
    """True if a lab file's content no longer matches the fingerprint recorded when generated."""
    recorded = _recorded_fingerprint(existing)
    return recorded is None or recorded != fingerprint(existing)


def build_labs(root=".", check=False, force=False, names=None):
    """Generate ``labs/`` from ``solutions/`` under ``root``.

    Parameters
    ----------
    root : path-like
        Project folder holding ``solutions/`` and ``labs/``.
    check : bool
        Only compare: sort every lab into up to date, stale (or missing) and edited, write
        nothing.
    force : bool
        Overwrite labs that were edited after generation, after backing each up to
        ``labs/.backup/<name>.<timestamp>.ipynb``.
    names : iterable of str, optional
        Only these solution files (e.g. ``["lab01_euler_rk4.ipynb"]``).

    Returns
    -------
    BuildReport

    Raises
    ------
    LabBuildError
        If ``solutions/`` is missing, or a solution's markers are unbalanced.
    """
    root = Path(root)
    solutions = root / "solutions"
    labs = root / "labs"
    if not solutions.is_dir():
        raise LabBuildError(
            f"no solutions/ folder under {root.resolve()}; run from the project folder or pass --root."
        )
    report = BuildReport()
    sources = sorted(solutions.glob("lab*.ipynb"))
    if names is not None:
        wanted = set(names)
        sources = [s for s in sources if s.name in wanted]
    for source in sources:
        solution = json.loads(source.read_text(encoding="utf-8"))
        lab = make_lab(solution, source.name)
        text = _dumps(lab)
        target = labs / source.name
        if target.exists():
            current_text = target.read_text(encoding="utf-8")
            if current_text == text:
                report.unchanged.append(target)
                continue
            try:
                current = json.loads(current_text)
                edited = _was_edited(current)
                outdated = _recorded_fingerprint(current) != lab["metadata"][_META_KEY]["fingerprint"]
            except (json.JSONDecodeError, AttributeError):
                edited, outdated = True, True
            if edited:
                report.edited.append(target)
                if outdated:
                    report.edited_outdated.append(target)
            if check:
                if not edited:
                    report.stale.append(target)
                continue
            if edited and not force:
                continue
            if edited:
                stamp = time.strftime("%Y%m%d-%H%M%S")
                backup = labs / ".backup" / f"{target.stem}.{stamp}.ipynb"
                _atomic_write(backup, current_text)
                report.backups.append(backup)
        elif check:
            report.stale.append(target)
            continue
        _atomic_write(target, text)
        report.written.append(target)
    return report


def _is_project(folder):
    """True if ``folder`` holds ``solutions/`` and a ``pyproject.toml`` whose project is simlab."""
    import tomllib

    if not (folder / "solutions").is_dir():
        return False
    try:
        project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(project, dict) and project.get("name") == "simlab"


def find_project_root(start=None):
    """The simlab project folder that holds ``start`` (default: the current folder).

    A project folder holds ``solutions/`` and a ``pyproject.toml`` that names the project
    (``name = "simlab"``); ``start`` and then its parents are tried. The copy of simlab that is
    installed is never used in its place: ``simlab build-labs`` run elsewhere is refused.

    Raises
    ------
    LabBuildError
        If neither ``start`` nor any of its parents is a simlab project folder.
    """
    start = Path(start or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        if _is_project(folder):
            return folder
    raise LabBuildError(f"no simlab project here ({start}): run from the project folder or pass --root.")


_LAB_NAME = re.compile(r"^lab\d\d_[a-z0-9_]+\.ipynb$")


def check_names(root="."):
    """Names of solution notebooks that do not follow ``labNN_<topic>.ipynb``."""
    return [p.name for p in Path(root, "solutions").glob("*.ipynb") if not _LAB_NAME.match(p.name)]
