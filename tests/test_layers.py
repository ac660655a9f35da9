"""The layer rules of the README, checked on the source: imports point downwards only.

* The library (every module of ``simlab`` outside ``simlab.course``, but for the ``python -m
  simlab`` entry point) never imports the course layer, not even inside a function.
* No course module imports a lab module other than its own: what two labs share lives in
  ``simlab.course.systems`` (course material) or in the library (general numerics).
* Numerical modules never import matplotlib; only ``simlab.plotting`` and the course layer draw.
* Library modules stay readable in one sitting: at most 600 lines each, and no function in the
  package longer than 80 lines of code (docstring, comments and blank lines not counted).
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


MAX_MODULE_LINES = 600
MAX_FUNCTION_CODE_LINES = 80


def _code_lines(lines, node):
    """Lines of code in a function body: no docstring, no blank or comment-only lines."""
    start = node.body[0].lineno
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        start = first.end_lineno + 1
    return sum(1 for number in range(start, node.end_lineno + 1)
               if lines[number - 1].strip() and not lines[number - 1].strip().startswith("#"))


@pytest.mark.parametrize("path", LIBRARY, ids=_relative)
def test_library_modules_are_at_most_600_lines(path):
    count = len(path.read_text(encoding="utf-8").splitlines())
    assert count <= MAX_MODULE_LINES, f"{_relative(path)} has {count} lines; split it by concept"


@pytest.mark.parametrize("path", MODULES, ids=_relative)
def test_no_function_is_longer_than_80_lines_of_code(path):
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    long = [(node.name, _code_lines(lines, node)) for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and _code_lines(lines, node) > MAX_FUNCTION_CODE_LINES]
    assert not long, f"{_relative(path)}: functions over {MAX_FUNCTION_CODE_LINES} lines of code: {long}"


def test_function_length_counter_skips_docstrings_and_comments():
    source = 'def f():\n    """Doc.\n\n    More.\n    """\n    # comment\n\n    x = 1\n    return x\n'
    node = ast.parse(source).body[0]
    assert _code_lines(source.splitlines(), node) == 2
