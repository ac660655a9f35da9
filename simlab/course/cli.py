"""Command line: ``simlab list``, ``simlab run NAME|all``, ``simlab build-labs``.

``simlab run all --out figures`` reproduces every lab's experiments headless (no display is
needed), writes the figures as PNG files and prints a table of the key numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

__all__ = ["main"]


def _cmd_list(args):
    from simlab.course import EXPERIMENTS

    width = max(len(name) for name in EXPERIMENTS)
    for experiment in EXPERIMENTS.values():
        print(f"{experiment.name:<{width}}  {experiment.title}")
    return 0


def _format_table(rows, headers):
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(out)


def _cmd_run(args):
    import matplotlib

    matplotlib.use("Agg")  # headless: the CLI never opens a window
    import matplotlib.pyplot as plt

    from simlab import plotting
    from simlab.course import EXPERIMENTS, get

    try:
        selected = list(EXPERIMENTS.values()) if args.name == "all" else [get(args.name)]
    except ValueError as error:
        print(f"simlab run: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plotting.use_course_style()
    rows, written = [], []
    total_start = time.perf_counter()
    for number, experiment in enumerate(selected, start=1):
        prefix = f"[{number}/{len(selected)}] {experiment.name}: {experiment.title}"
        print(f"{prefix} ...", end="", flush=True)
        start = time.perf_counter()
        result = experiment.run()
        for stem, draw, data in result.figures:
            figure = draw(data)
            path = out / f"{stem}.png"
            figure.savefig(path)
            plt.close(figure)
            written.append(path)
        print(f" done ({time.perf_counter() - start:.1f} s, {len(result.figures)} figures)", flush=True)
        rows += [(experiment.name, quantity, value) for quantity, value in result.summary]
    print()
    print(_format_table(rows, ("lab", "quantity", "value")))
    print()
    print(f"{len(written)} figures written to {out}/ in {time.perf_counter() - total_start:.1f} s")
    return 0


def _cmd_build_labs(args):
    from simlab.course.labtools import LabBuildError, build_labs, find_project_root

    root = Path(args.root) if args.root else find_project_root()
    try:
        report = build_labs(root, check=args.check, force=args.force)
    except LabBuildError as error:
        print(f"simlab build-labs: {error}", file=sys.stderr)
        return 2
    for path in report.backups:
        print(f"backed up edited lab to {path}")
    for path in report.written:
        print(f"wrote {path}")
    if args.check:
        for path in report.stale:
            print(f"out of date: {path} (run `simlab build-labs`)")
        if report.stale:
            return 1
        print(f"labs/ is up to date ({len(report.unchanged)} labs)")
        return 0
    for path in report.refused:
        print(
            f"refused to overwrite {path}: it was edited after it was generated (student work?). "
            f"Rename it to keep it, or run `simlab build-labs --force` (a backup goes to "
            f"labs/.backup/).",
            file=sys.stderr,
        )
    if not report.written and not report.refused:
        print(f"labs/ is up to date ({len(report.unchanged)} labs)")
    return 1 if report.refused else 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="simlab",
        description="simlab: digital simulation of continuous control systems (course tools).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p_list = sub.add_parser("list", help="list the lab experiments")
    p_list.set_defaults(func=_cmd_list)

    p_run = sub.add_parser("run", help="reproduce a lab's experiments headless")
    p_run.add_argument("name", help="experiment name from `simlab list`, or 'all'")
    p_run.add_argument("--out", default="figures", help="folder for the PNG figures (default: figures)")
    p_run.set_defaults(func=_cmd_run)

    p_build = sub.add_parser("build-labs", help="generate labs/ from solutions/")
    p_build.add_argument("--check", action="store_true", help="exit 1 if labs/ is out of date")
    p_build.add_argument("--force", action="store_true", help="overwrite edited labs (after a backup)")
    p_build.add_argument("--root", default=None, help="project folder (default: found from cwd)")
    p_build.set_defaults(func=_cmd_build_labs)
    return parser


def main(argv=None):
    """Entry point of the ``simlab`` console script."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
