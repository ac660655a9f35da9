"""The `simlab` command line."""

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
    assert (tmp_path / "lab01_methods.png").stat().st_size > 10_000


def test_run_unknown_name_fails_with_the_list_of_names(tmp_path, capsys):
    assert main(["run", "lab42", "--out", str(tmp_path)]) == 2
    assert "available: lab01" in capsys.readouterr().err


def test_build_labs_check_passes_in_the_repository(capsys):
    assert main(["build-labs", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_console_script_is_installed():
    assert shutil.which("simlab"), "the `simlab` console script is not on PATH: pip install -e ."
    result = subprocess.run(["simlab", "list"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "lab01" in result.stdout


def test_module_entry_point_runs():
    result = subprocess.run([sys.executable, "-m", "simlab.course.cli", "list"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0 and "lab02" in result.stdout
