"""``simlab build-labs`` works on a project folder it names, and refuses a folder that is not one.

A project folder holds ``solutions/`` and a ``pyproject.toml`` whose project is ``simlab``: the
current folder or one of its parents. Run anywhere else, the command used to check the installed
copy's project silently; now it refuses ("no simlab project here"). ``--root DIR`` names the
folder explicitly (any folder with ``solutions/``).
"""

import json

import pytest

from simlab.course.cli import main
from simlab.course.labtools import LabBuildError, find_project_root

PYPROJECT = '[project]\nname = "simlab"\nversion = "0"\n'


def _project(folder, pyproject=PYPROJECT):
    from test_labtools import _solution_notebook

    (folder / "solutions").mkdir(parents=True)
    (folder / "solutions" / "lab99_demo.ipynb").write_text(json.dumps(_solution_notebook()))
    if pyproject is not None:
        (folder / "pyproject.toml").write_text(pyproject)
    return folder


@pytest.mark.parametrize("check", [["--check"], []], ids=["--check", "build"])
def test_outside_a_project_build_labs_refuses_and_names_the_folder(tmp_path, monkeypatch, capsys, check):
    monkeypatch.chdir(tmp_path)
    assert main(["build-labs", *check]) == 2
    captured = capsys.readouterr()
    assert f"no simlab project here ({tmp_path.resolve()})" in captured.err and "--root" in captured.err
    assert "up to date" not in captured.out and "wrote" not in captured.out
    assert not (tmp_path / "labs").exists()


def test_the_project_is_found_from_a_subfolder(tmp_path):
    _project(tmp_path)
    (tmp_path / "labs" / "deep").mkdir(parents=True)
    assert find_project_root(tmp_path / "labs" / "deep") == tmp_path.resolve()


@pytest.mark.parametrize("pyproject", [None, '[project]\nname = "other"\n', "not toml ["],
                         ids=["no pyproject", "another project", "broken pyproject"])
def test_a_folder_with_solutions_but_no_simlab_pyproject_is_not_a_project(tmp_path, pyproject):
    _project(tmp_path, pyproject)
    with pytest.raises(LabBuildError, match="no simlab project here"):
        find_project_root(tmp_path)


def test_a_simlab_pyproject_without_solutions_is_not_a_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    with pytest.raises(LabBuildError, match="no simlab project here"):
        find_project_root(tmp_path)


def test_the_plain_build_names_the_project_folder(tmp_path, monkeypatch, capsys):
    _project(tmp_path)
    monkeypatch.chdir(tmp_path / "solutions")
    assert main(["build-labs"]) == 0
    out = capsys.readouterr().out
    assert f"project folder: {tmp_path.resolve()}" in out
    assert (tmp_path / "labs" / "lab99_demo.ipynb").exists()


def test_root_still_works_from_anywhere(tmp_path, monkeypatch, capsys):
    project = _project(tmp_path / "course", pyproject=None)  # --root: any folder with solutions/
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert main(["build-labs", "--root", str(project)]) == 0
    assert main(["build-labs", "--check", "--root", str(project)]) == 0
    out = capsys.readouterr().out
    assert out.count(f"project folder: {project.resolve()}") == 2 and "up to date" in out


def test_root_without_solutions_is_refused(tmp_path, capsys):
    assert main(["build-labs", "--root", str(tmp_path)]) == 2
    assert "no solutions/ folder" in capsys.readouterr().err
