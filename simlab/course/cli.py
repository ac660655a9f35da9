"""Command line: ``simlab list``, ``simlab run NAME... | all``, ``simlab build-labs``, ``simlab grade``, ``simlab --version``.

``simlab run all --out figures`` reproduces every lab's experiments headless (no display is
needed), writes the figures as PNG files and prints a table of the key numbers;
``simlab run lab02 lab05`` runs the labs named. ``simlab grade lab01 submissions/ --out grades``
grades students' notebooks (:mod:`simlab.course.grade`).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

__all__ = ["main"]


def _cmd_list(args):
    from simlab.course import EXPERIMENTS

    width = max(len(name) for name in EXPERIMENTS)
    for experiment in EXPERIMENTS.values():
        print(f"{experiment.name:<{width}}  {experiment.title}")
    return 0


def _plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


#: Width of the printed tables (a terminal of 100 columns shows them unwrapped).
TABLE_WIDTH = 100


def _format_table(rows, headers, width=TABLE_WIDTH):
    """Rows as a text table at most ``width`` columns wide; long cells wrap onto lines of their own."""
    rows = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
    while sum(widths) + 2 * (len(widths) - 1) > width and max(widths) > 12:
        widths[widths.index(max(widths))] -= 1  # narrow the widest column, one character at a time
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)).rstrip(), line]
    for row in rows:
        pieces = [textwrap.wrap(cell, w, break_on_hyphens=False) or [""] for cell, w in zip(row, widths)]
        for k in range(max(len(piece) for piece in pieces)):
            out.append("  ".join((piece[k] if k < len(piece) else "").ljust(w)
                                 for piece, w in zip(pieces, widths)).rstrip())
    return "\n".join(out)


class _LineStart:
    """A stream that starts what is written to it on a new line: the run's progress line is still open."""

    def __init__(self, stream):
        self.stream, self.used = stream, False

    def write(self, text):
        if text and not self.used:
            self.used = True
            sys.stdout.flush()
            self.stream.write("\n")
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def _cmd_run(args):
    import matplotlib

    matplotlib.use("Agg")  # headless: the CLI never opens a window
    import matplotlib.pyplot as plt

    from simlab import plotting
    from simlab.course import EXPERIMENTS, get

    try:
        if "all" in args.names:
            selected = list(EXPERIMENTS.values())
        else:
            selected = list(dict.fromkeys(get(name) for name in args.names))  # once each, in order
    except ValueError as error:
        print(f"simlab run: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plotting.use_course_style()
    rows, written = [], []
    total_start = time.perf_counter()
    for number, experiment in enumerate(selected, start=1):
        head = f"[{number}/{len(selected)}] {experiment.name}: "
        room = TABLE_WIDTH - len(head) - len(" ... done (999.9 s, 10 figures)")  # the whole line fits
        prefix = head + textwrap.shorten(experiment.title, room, placeholder=" …")
        print(f"{prefix} ...", end="", flush=True)
        start = time.perf_counter()
        stderr = _LineStart(sys.stderr)
        with contextlib.redirect_stderr(stderr):  # a message during the run (numba compiling) on its own line
            result = experiment.run()
        if stderr.used:
            print(f"{prefix} ...", end="")
        for stem, draw, data in result.figures:
            figure = draw(data)
            path = out / f"{stem}.png"
            figure.savefig(path)
            plt.close(figure)
            written.append(path)
        print(f" done ({time.perf_counter() - start:.1f} s, {_plural(len(result.figures), 'figure')})", flush=True)
        rows += [(experiment.name, quantity, value) for quantity, value in result.summary]
    print()
    print(_format_table(rows, ("lab", "quantity", "value")))
    print()
    print(f"{_plural(len(written), 'figure')} written to {out}/ in {time.perf_counter() - total_start:.1f} s")
    return 0


def _cmd_build_labs(args):
    from simlab.course.labtools import LabBuildError, build_labs, find_project_root

    try:
        root = Path(args.root) if args.root else find_project_root()
        print(f"project folder: {root.resolve()}")
        report = build_labs(root, check=args.check, force=args.force)
    except LabBuildError as error:
        print(f"simlab build-labs: {error}", file=sys.stderr)
        return 2
    for path in report.backups:
        print(f"backed up edited lab to {path}")
    for path in report.written:
        print(f"wrote {path}")
    if args.check:
        return _report_check(report)
    for path in report.refused:
        newer = path in report.edited_outdated
        print(
            f"kept {path}: edited after it was generated (student work)"
            + (", and its solution has changed since: `simlab build-labs --force` writes the new "
               "version after a backup to labs/.backup/" if newer else "; it is not overwritten"),
            file=sys.stderr if newer else sys.stdout,
        )
    if not report.written and not report.refused:
        print(f"labs/ is up to date ({_plural(len(report.unchanged), 'lab')})")
    return 1 if report.edited_outdated and report.refused else 0


def _report_check(report):
    """``build-labs --check``: exit 1 when any lab differs from what ``build-labs`` would write, saying why."""
    differ = []
    for path in report.stale:
        differ.append(f"missing: {path} (run `simlab build-labs`)" if not path.exists() else
                      f"out of date: {path} (its solution has changed since it was generated; run `simlab build-labs`)")
    for path in report.edited:
        why = "its solution has changed since too; " if path in report.edited_outdated else ""
        differ.append(f"edited: {path} (changed after it was generated: student work? {why}`simlab build-labs "
                      f"--force` writes the generated version after a backup to labs/.backup/)")
    for line in differ:
        print(line)
    if differ:
        print(f"labs/ is not what `simlab build-labs` would write ({_plural(len(differ), 'lab')} differ)")
        return 1
    print(f"labs/ is up to date ({_plural(len(report.unchanged), 'lab')})")
    return 0


def _cmd_grade(args):
    from simlab.course.grade import GradeError, GradeOptions, grade

    if args.jobs < 1 or args.cell_timeout <= 0 or args.timeout <= 0 or args.memory < 0:
        print("simlab grade: --jobs must be >= 1, the timeouts > 0 and --memory >= 0 (0: no limit).", file=sys.stderr)
        return 2
    options = GradeOptions(cell_timeout=args.cell_timeout, timeout=args.timeout, memory=args.memory, jobs=args.jobs)
    # jsonschema (under nbformat) builds a grammar for IRI formats at import that nbformat never
    # uses (2 s); this process only grades, so it goes without (the workers do the same).
    sys.modules.setdefault("rfc3987_syntax", None)

    def progress(result, number, total):
        graded = f", {result.passed} of {len(result.tasks)} tasks passed" if result.status == "ok" else ""
        print(f"[{number}/{total}] {result.name}: {result.status}{graded} ({result.seconds:.1f} s)", flush=True)

    try:
        report = grade(args.lab, args.submissions, args.out, options, on_graded=progress)
    except GradeError as error:
        print(f"simlab grade: {error}", file=sys.stderr)
        return 2
    graded = sum(result.status == "ok" for result in report.grades)
    print(f"graded {graded} of {_plural(len(report.grades), 'submission')} of {report.module}: "
          f"{report.csv_path}, feedback in {Path(args.out) / 'feedback'}/")
    if graded:
        return 0
    statuses = Counter(result.status for result in report.grades)
    print(f"simlab grade: none of the submissions could be graded ("
          + ", ".join(f"{count} {status}" for status, count in statuses.most_common())
          + f"): the note column of {report.csv_path} says why for each.", file=sys.stderr)
    return 1


def _cmd_version(args):
    from simlab import __version__

    print(f"simlab {__version__}")
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="simlab",
        description="simlab: digital simulation of continuous control systems (course tools).",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")

    p_list = sub.add_parser("list", help="list the lab experiments")
    p_list.set_defaults(func=_cmd_list)

    p_run = sub.add_parser("run", help="reproduce a lab's experiments headless")
    p_run.add_argument("names", nargs="+", metavar="NAME",
                       help="experiment names from `simlab list` (lab01 or lab01_euler_rk4), or 'all'")
    p_run.add_argument("--out", default="figures", help="folder for the PNG figures (default: figures)")
    p_run.set_defaults(func=_cmd_run)

    p_build = sub.add_parser("build-labs", help="generate labs/ from solutions/")
    p_build.add_argument("--check", action="store_true",
                         help="write nothing; exit 1 if a lab is out of date (edited labs are kept and reported)")
    p_build.add_argument("--force", action="store_true", help="overwrite edited labs (after a backup)")
    p_build.add_argument("--root", default=None,
                         help="project folder, the one that holds solutions/ (default: the simlab project "
                              "that holds the current folder; none: an error)")
    p_build.set_defaults(func=_cmd_build_labs)

    p_grade = sub.add_parser(
        "grade", help="grade students' lab notebooks: run each in a fresh kernel, recompute its self-checks",
        description="Run each submitted notebook in a fresh Jupyter kernel (time and memory limits), read the "
                    "values of its answers and recompute the lab's self-checks on them; write DIR/grades.csv "
                    "and DIR/feedback/<name>.md. Student code runs with your user rights: grade untrusted "
                    "notebooks in a container or a separate account.")
    p_grade.add_argument("lab", metavar="LAB", help="the lab: lab01, 01 or lab01_euler_rk4 (see `simlab list`)")
    p_grade.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                         help="students' notebooks, or folders whose .ipynb files are graded")
    p_grade.add_argument("--out", default="grades", metavar="DIR", help="folder for the results (default: grades)")
    p_grade.add_argument("--jobs", type=int, default=1, metavar="N", help="submissions graded at once (default: 1)")
    p_grade.add_argument("--cell-timeout", type=float, default=120.0, metavar="S",
                         help="seconds a cell may run before it is interrupted (default: 120)")
    p_grade.add_argument("--timeout", type=float, default=600.0, metavar="S",
                         help="seconds a whole notebook may run (default: 600)")
    p_grade.add_argument("--memory", type=int, default=4096, metavar="MB",
                         help="memory limit of each kernel in MB (default: 4096; 0: no limit)")
    p_grade.set_defaults(func=_cmd_grade)
    return parser


def main(argv=None):
    """Entry point of the ``simlab`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        return _cmd_version(args)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("simlab: choose a command: list, run, build-labs, grade (or --version)", file=sys.stderr)
        return 2
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
