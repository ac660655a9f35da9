"""The layer rules of the README, checked on the source: imports point downwards only.

* The library (every module of ``simlab`` outside ``simlab.course``, but for the ``python -m
  simlab`` entry point) never imports the course layer, not even inside a function.
* No course module imports a lab module other than its own: what two labs share lives in
  ``simlab.course.systems`` (course material) or in the library (general numerics).
* Numerical modules never import matplotlib; only ``simlab.plotting`` and the course layer draw.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "simlab"
MODULES = sorted(PACKAGE.rglob("*.py"))
#: ``python -m simlab`` runs the command line, which is course tooling.
ENTRY_POINT = PACKAGE / "__main__.py"
COURSE = [p for p in MODULES if "course" in p.relative_to(PACKAGE).parts or p == ENTRY_POINT]
LIBRARY = [p for p in MODULES if p not in COURSE]
LABS = [p for p in COURSE if p.stem.startswith("lab") and p.stem[3:5].isdigit()]


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """Every module named by an import statement anywhere in the file (absolute names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import: resolve against the module's package
                module = _module_name(path)
                package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _relative(path):
    return str(path.relative_to(PACKAGE.parent))


def test_the_layers_are_not_empty():
    assert len(LIBRARY) >= 15 and len(LABS) >= 9


@pytest.mark.parametrize("path", LIBRARY, ids=_relative)
def test_library_never_imports_the_course_layer(path):
    offending = sorted(name for name in _imports(path) if name == "simlab.course" or name.startswith("simlab.course."))
    assert not offending, f"{_relative(path)} imports the course layer: {offending}"


@pytest.mark.parametrize("path", LABS, ids=_relative)
def test_no_lab_module_imports_another_lab(path):
    other_labs = {_module_name(p) for p in LABS} - {_module_name(path)}
    offending = sorted(name for name in _imports(path) if any(name == lab or name.startswith(lab + ".") for lab in other_labs))
    assert not offending, f"{_relative(path)} imports another lab's module: {offending}"


@pytest.mark.parametrize("path", [p for p in LIBRARY if p.stem != "plotting"], ids=_relative)
def test_numerical_modules_do_not_import_matplotlib(path):
    offending = sorted(name for name in _imports(path) if name.split(".")[0] == "matplotlib")
    assert not offending, f"{_relative(path)} imports {offending}; drawing belongs in simlab.plotting"


def test_import_rule_checker_sees_function_level_imports(tmp_path):
    """The checker itself: an import hidden inside a function is found."""
    module = tmp_path / "hidden.py"
    module.write_text("def f():\n    from simlab.course import lab01_euler_rk4\n")
    assert "simlab.course.lab01_euler_rk4" in _imports(module)
