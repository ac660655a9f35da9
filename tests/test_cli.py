"""The `simlab` command line."""

import json
import shutil
import subprocess
import sys

from simlab.course import EXPERIMENTS
from simlab.course.cli import main


def test_list_names_every_experiment(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in EXPERIMENTS:
        assert name in out


def test_run_one_lab_writes_figures_and_a_summary_table(tmp_path, capsys):
    assert main(["run", "lab01", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "[1/1] lab01" in out and "Euler y(2)" in out
    table = [line for line in out.splitlines() if "written to" not in line]  # that line names tmp_path
    assert max(len(line) for line in table) <= 100
    assert (tmp_path / "lab01_methods.png").stat().st_size > 10_000


def test_the_run_table_fits_100_columns_with_every_labs_summary():
    """Every lab's summary rows (computed as `simlab run all` prints them) in one table: no line over
    100 columns, and every quantity's words still in it."""
    from simlab.course.cli import _format_table

    rows = [("lab10", "RKF45 on the e = 0.9 orbit: accepted / rejected steps, f-evaluations, error at "
                      "rtol 1e-6", "68 / 24, 529, 1.24e-4 (fixed RK4 at equal accuracy: 1,505 steps, 11.4x the cost)"),
            ("lab01", "Euler y(2)", "10.4550")]
    table = _format_table(rows, ("lab", "quantity", "value"))
    assert max(len(line) for line in table.splitlines()) <= 100
    assert "11.4x the cost)" in table and "f-evaluations," in table


def test_run_unknown_name_fails_with_the_list_of_names(tmp_path, capsys):
    assert main(["run", "lab42", "--out", str(tmp_path)]) == 2
    assert "available: lab01" in capsys.readouterr().err


def test_build_labs_check_passes_in_the_repository(capsys):
    assert main(["build-labs", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def _project(tmp_path):
    from test_labtools import _solution_notebook

    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "lab99_demo.ipynb").write_text(json.dumps(_solution_notebook()))
    assert main(["build-labs", "--root", str(tmp_path)]) == 0
    return tmp_path / "labs" / "lab99_demo.ipynb"


def test_build_labs_check_fails_on_an_edited_lab_and_says_why(tmp_path, capsys):
    """--check exits 1 whenever a lab differs from what build-labs would write, edited or not."""
    lab = _project(tmp_path)
    lab.write_text(lab.read_text().replace("YOUR CODE HERE", "my work"))
    capsys.readouterr()
    assert main(["build-labs", "--check", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"edited: {lab}" in out and "student work" in out and "out of date" not in out
    assert "my work" in lab.read_text()  # --check writes nothing


def test_build_labs_check_fails_on_an_edited_lab_whose_solution_changed(tmp_path, capsys):
    lab = _project(tmp_path)
    lab.write_text(lab.read_text().replace("YOUR CODE HERE", "my work"))
    solution = tmp_path / "solutions" / "lab99_demo.ipynb"
    solution.write_text(solution.read_text().replace("Lab 99", "Lab 99, revised"))
    capsys.readouterr()
    assert main(["build-labs", "--check", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"edited: {lab}" in out and "solution has changed" in out and "up to date" not in out


def test_build_labs_check_names_the_project_folder(tmp_path, capsys):
    _project(tmp_path)
    capsys.readouterr()
    assert main(["build-labs", "--check", "--root", str(tmp_path)]) == 0
    assert f"project folder: {tmp_path.resolve()}" in capsys.readouterr().out


def test_build_labs_check_fails_on_a_stale_lab(tmp_path, capsys):
    lab = _project(tmp_path)
    solution = tmp_path / "solutions" / "lab99_demo.ipynb"
    solution.write_text(solution.read_text().replace("Lab 99", "Lab 99, revised"))
    capsys.readouterr()
    assert main(["build-labs", "--check", "--root", str(tmp_path)]) == 1
    assert f"out of date: {lab}" in capsys.readouterr().out


def test_build_labs_points_at_force_when_an_edited_lab_has_a_newer_solution(tmp_path, capsys):
    lab = _project(tmp_path)
    lab.write_text(lab.read_text().replace("YOUR CODE HERE", "my work"))
    solution = tmp_path / "solutions" / "lab99_demo.ipynb"
    solution.write_text(solution.read_text().replace("Lab 99", "Lab 99, revised"))
    capsys.readouterr()
    assert main(["build-labs", "--root", str(tmp_path)]) == 1
    assert "--force" in capsys.readouterr().err
    assert "my work" in lab.read_text()


def test_version(capsys):
    from simlab import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"simlab {__version__}"


def test_no_command_prints_usage_and_fails(capsys):
    assert main([]) == 2
    assert "choose a command" in capsys.readouterr().err


def test_run_takes_several_names_once_each(tmp_path, capsys):
    assert main(["run", "lab01", "lab03", "lab01_euler_rk4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "[1/2] lab01" in out and "[2/2] lab03" in out
    assert ", 1 figure)" in out and "1 figures" not in out


def test_console_script_is_installed():
    assert shutil.which("simlab"), "the `simlab` console script is not on PATH: pip install -e ."
    result = subprocess.run(["simlab", "list"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "lab01" in result.stdout


def test_python_dash_m_simlab_runs_the_command_line():
    result = subprocess.run([sys.executable, "-m", "simlab", "--version"], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0 and result.stdout.startswith("simlab ")


def test_module_entry_point_runs():
    result = subprocess.run([sys.executable, "-m", "simlab.course.cli", "list"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0 and "lab02" in result.stdout


def test_a_message_during_a_run_gets_a_line_of_its_own(tmp_path, capfd, monkeypatch):
    """numba's first compilation prints on stderr while the progress line is open: the message
    starts on a new line and the progress line is repeated with its result."""
    import types

    import simlab.course

    def run():
        print("simlab: compiling drive_rk4 with numba (once per machine; cached afterwards) ...", file=sys.stderr)
        return types.SimpleNamespace(figures=(), summary=(("x", "1"),))

    fake = type("Experiment", (), {"name": "lab99", "title": "a lab that compiles", "run": staticmethod(run)})()
    monkeypatch.setattr(simlab.course, "get", lambda name: fake)
    assert main(["run", "lab99", "--out", str(tmp_path)]) == 0
    captured = capfd.readouterr()
    assert captured.err == "\nsimlab: compiling drive_rk4 with numba (once per machine; cached afterwards) ...\n"
    assert "[1/1] lab99: a lab that compiles ...[1/1] lab99: a lab that compiles ... done (" in captured.out
