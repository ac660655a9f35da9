"""Packaging: pyproject.toml, environment.yml and the README agree."""

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirement(spec):
    """('numpy', '>=1.26,<3') from 'numpy>=1.26,<3' (whitespace ignored)."""
    match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*(.*)", spec.strip())
    return match.group(1).lower(), match.group(2).replace(" ", "")


def _environment_packages():
    packages = {}
    for line in (ROOT / "environment.yml").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\s*-\s+([A-Za-z][A-Za-z0-9_.\-]*[<>=].*)", line)
        if match:
            name, bounds = _requirement(match.group(1))
            packages[name] = bounds
    packages.pop("python", None)
    return packages


def test_environment_lists_the_same_packages_and_bounds_as_pyproject():
    project = _pyproject()["project"]
    wanted = dict(_requirement(s) for s in project["dependencies"])
    wanted.update(_requirement(s) for s in project["optional-dependencies"]["dev"])
    assert _environment_packages() == wanted


def test_course_extra_is_part_of_dev_extra():
    extras = _pyproject()["project"]["optional-dependencies"]
    assert set(extras["course"]) <= set(extras["dev"])


def test_every_dependency_has_lower_and_upper_bounds():
    project = _pyproject()["project"]
    specs = project["dependencies"] + project["optional-dependencies"]["dev"]
    for spec in specs:
        _, bounds = _requirement(spec)
        assert ">=" in bounds and "<" in bounds.replace("<=", ""), spec


def test_environment_installs_the_project_itself():
    assert re.search(r"-\s+pip:\s*\n\s+-\s+-e\s+\.", (ROOT / "environment.yml").read_text())


def test_python_requirement_agrees():
    assert _pyproject()["project"]["requires-python"] == ">=3.11"
    assert "python>=3.11" in (ROOT / "environment.yml").read_text()


def _quick_start_commands():
    """The lines of the first bash block after '## Quick start', without trailing comments."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line) for line in block.strip().splitlines() if line.strip()]


def test_readme_quick_start_has_the_two_commands():
    """Each command works on a fresh machine: it makes its own virtual environment first."""
    install, test = _quick_start_commands()
    venv = 'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[dev]"'
    assert install == f"{venv} && simlab run all"
    assert test == f"{venv} && pytest"


def test_ci_script_runs_the_readme_commands_verbatim():
    """.ci/run takes the commands from the README (same extraction rule) instead of a copy."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "README.md" in script and "## Quick start" in script
    assert 'bash -euo pipefail -c "${commands[1]}"' in script and 'bash -euo pipefail -c "${commands[0]}"' in script
    assert 'pip install' not in script  # no second copy of the install command
    extracted = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--commands"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.splitlines()
    assert extracted == _quick_start_commands()


def test_console_script_is_declared():
    assert _pyproject()["project"]["scripts"]["simlab"] == "simlab.course.cli:main"


def test_top_level_layout():
    for name in ("course", "simlab", "labs", "solutions", "tests", "benchmarks", "environment.yml",
                 "README.md", "pyproject.toml", ".ci/run"):
        assert (ROOT / name).exists(), name


def test_importing_simlab_does_not_import_matplotlib():
    import subprocess
    import sys

    code = "import sys, simlab, simlab.course, simlab.course.check; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


#: Distribution that provides an imported top-level module, where the names differ.
_DISTRIBUTION = {"sklearn": "scikit-learn", "IPython": "ipython"}
#: Modules of the standard library or of the project itself, which need no install.
_NO_INSTALL = {"simlab"} | set(__import__("sys").stdlib_module_names)


def _notebook_imports():
    import ast
    import json

    modules = set()
    for path in sorted((ROOT / "solutions").glob("*.ipynb")) + sorted((ROOT / "course").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "\n".join(line for line in "".join(cell["source"]).splitlines()
                                if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Import):
                    modules.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    modules.add(node.module.split(".")[0])
    return modules - _NO_INSTALL


def test_course_extra_and_environment_install_what_the_notebooks_import():
    """A student's install (.[course], or environment.yml for conda/Binder) runs every notebook."""
    project = _pyproject()["project"]
    student = {_requirement(spec)[0] for spec in project["dependencies"] + project["optional-dependencies"]["course"]}
    needed = {_DISTRIBUTION.get(module, module).lower() for module in _notebook_imports()}
    assert needed <= student, f"imported by notebooks but not installed by .[course]: {needed - student}"
    assert needed <= set(_environment_packages()), "environment.yml misses some"
