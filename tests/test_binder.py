"""Binder: the environment that mybinder.org builds runs every notebook of the course.

Binder (repo2docker) builds its image from ``environment.yml`` at the project's root, unless a
``binder/`` or ``.binder/`` folder holds a configuration of its own. The oracle is the source
itself: the import statements of every code cell of every notebook in ``course/``, ``labs/``
and ``solutions/`` (found by glob, so new notebooks are covered), and of simlab, which the
notebooks import; each imported top-level package must be installed by the environment file.
"""

import ast
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENVIRONMENT = ROOT / "environment.yml"
NOTEBOOKS = sorted(path for folder in ("course", "labs", "solutions") for path in (ROOT / folder).glob("*.ipynb"))

#: Distribution (conda-forge and PyPI name) of an imported top-level module, where they differ.
DISTRIBUTION = {
    "IPython": "ipython",
    "PIL": "pillow",
    "sklearn": "scikit-learn",
    "skimage": "scikit-image",
    "yaml": "pyyaml",
    "jupyter_client": "jupyter-client",
}
#: Distributions that come with one the environment lists (a dependency of it, on both channels).
PROVIDED_BY = {
    "ipython": "ipykernel",
    "jupyter-client": "nbclient",
}
#: Modules that need no install: the standard library and the project itself (``pip install -e .``).
NO_INSTALL = {"simlab"} | set(sys.stdlib_module_names)


def _normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _imports(source):
    """Top-level modules that Python source imports (absolute imports only)."""
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module.split(".")[0])
    return modules


def _notebook_imports(path):
    modules = set()
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            # IPython magics and shell escapes are not Python
            source = "\n".join(line for line in "".join(cell["source"]).splitlines()
                               if not line.lstrip().startswith(("%", "!")))
            modules |= _imports(source)
    return modules - NO_INSTALL


def _environment():
    """(conda package names, pip requirement lines) of environment.yml's dependencies."""
    conda, pip, key, in_pip = set(), [], None, False
    for line in ENVIRONMENT.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        top = re.fullmatch(r"([A-Za-z_]+):.*", line)
        if top:
            key = top.group(1)
            continue
        item = re.fullmatch(r"(\s*)-\s+(.*?)\s*", line)
        if key != "dependencies" or not item:
            continue
        if item.group(2) == "pip:":
            in_pip = True
        elif in_pip and len(item.group(1)) > 2:
            pip.append(item.group(2))
        else:
            in_pip = False
            conda.add(_normalized(re.match(r"[A-Za-z0-9_.\-]+", item.group(2)).group(0)))
    return conda, pip


def _installed():
    conda, pip = _environment()
    names = conda | {_normalized(re.match(r"[A-Za-z0-9_.\-]+", line).group(0)) for line in pip
                     if not line.startswith("-")}
    return names | {provided for provided, by in PROVIDED_BY.items() if by in names}


def _missing(modules):
    installed = _installed()
    return sorted(module for module in modules if _normalized(DISTRIBUTION.get(module, module)) not in installed)


def test_binder_reads_the_root_environment_file():
    assert ENVIRONMENT.is_file()
    for folder in ("binder", ".binder"):
        assert not (ROOT / folder).exists(), f"Binder would read {folder}/ instead of environment.yml"


def test_environment_installs_the_project():
    """``pip install -e .`` in the pip section: Binder then copies the repository first."""
    _, pip = _environment()
    assert "-e ." in pip


def test_every_folder_has_notebooks():
    for folder in ("course", "labs", "solutions"):
        assert list((ROOT / folder).glob("*.ipynb")), folder


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_environment_provides_what_the_notebook_imports(path):
    assert _missing(_notebook_imports(path)) == [], f"{path.name} imports packages environment.yml does not install"


def test_environment_provides_what_simlab_imports():
    """The notebooks import simlab, and simlab (its optional paths included) imports these."""
    modules = set()
    for source in (ROOT / "simlab").rglob("*.py"):
        modules |= _imports(source.read_text(encoding="utf-8"))
    assert _missing(modules - NO_INSTALL) == []


def test_notebooks_run_in_the_python3_kernel_binder_provides():
    for path in NOTEBOOKS:
        kernel = json.loads(path.read_text(encoding="utf-8"))["metadata"].get("kernelspec", {})
        assert kernel.get("name") == "python3", path.name


def test_readme_launch_badge_opens_the_introduction():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    badges = re.findall(r"\(https://mybinder\.org/v2/gh/([^/\s]+)/([^/\s]+)/HEAD\?labpath=([^)\s]+)\)", readme)
    assert badges, "no Binder launch link in the README"
    for _, _, labpath in badges:
        assert (ROOT / labpath.replace("%2F", "/")).is_file(), labpath


def test_the_check_sees_a_missing_package():
    """The oracle itself: an import that nothing installs is reported, a mapped name is not."""
    assert _missing({"numpy", "IPython", "jupyter_client"}) == []
    assert _missing({"numpy", "not_a_package_anywhere"}) == ["not_a_package_anywhere"]
