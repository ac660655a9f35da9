"""The course site's configuration: the README's build commands, CI, the docstring extension.

The build itself (Sphinx, warnings as errors) and the browser test run in .ci/run; these checks
need neither Sphinx nor a browser.
"""

import importlib.util
import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _extension():
    spec = importlib.util.spec_from_file_location("plain_text_docstrings",
                                                  ROOT / "docs" / "_ext" / "plain_text_docstrings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _processed(text):
    lines = text.splitlines()
    _extension().plain_text_formulas(None, "function", "f", None, {}, lines)
    return lines


def _site_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Course site and Binder", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line) for line in block.strip().splitlines() if line.strip()]


def test_readme_builds_both_sites_with_warnings_as_errors():
    student, instructor = _site_commands()
    assert student == ('python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[docs]" && '
                       "sphinx-build -W --keep-going -b html docs docs/_build/html")
    assert instructor == (". .venv/bin/activate && "
                          "sphinx-build -W --keep-going -b html -t instructor docs docs/_build/instructor")


def test_ci_runs_the_readme_site_commands_and_the_browser_test():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extracted = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--site-commands"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.splitlines()
    assert extracted == _site_commands()
    assert 'bash -euo pipefail -c "$command"' in script
    assert "apt-get install" in script and "chromium-driver" in script
    assert "-m pytest" in script and "tests/browser" in script


def test_docs_extra_has_the_site_tools():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = {re.match(r"[A-Za-z0-9_.\-]+", spec).group(0) for spec in extras["docs"]}
    assert names == {"sphinx", "myst-nb", "furo", "sphinx-mathjax-offline", "selenium"}


def test_default_pytest_run_leaves_out_the_browser_test():
    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "browser" in ini["norecursedirs"] and (ROOT / "tests" / "browser" / "test_site.py").is_file()


def test_index_has_the_marker_where_the_solutions_go():
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    marker = re.search(r'^SOLUTIONS_MARKER = "(.*)"$', conf, re.MULTILINE).group(1)
    assert marker in (ROOT / "docs" / "index.md").read_text(encoding="utf-8").splitlines()


def test_a_display_after_a_paragraph_becomes_a_literal_block():
    assert _processed("The Stribeck function,\n\n    g(v) = Fc + |v|\n      more\n\nText.") == [
        "The Stribeck function, ::", "", "    g(v) = Fc + |v|", "      more", "", "Text."]
    assert _processed("It follows:\n\n    x' = A x")[0] == "It follows::"


def test_a_display_in_a_list_item_or_a_field_becomes_a_literal_block():
    lines = _processed("1. A film state,\n\n       h = |v|\n\n   After |v|.")
    assert lines[0] == "1. A film state, ::" and lines[2] == "       h = |v|" and lines[4] == r"   After \|v\|."
    assert _processed(":param x: The value,\n\n              x = |y|")[0] == ":param x: The value, ::"


def test_absolute_value_bars_are_escaped_outside_literal_text():
    assert _processed("where |R(z)| <= 1, ``|x|`` and :math:`|z|`") == [
        r"where \|R(z)\| <= 1, ``|x|`` and :math:`|z|`"]
    assert _processed(".. math:: |z - p| \\le 1") == [".. math:: |z - p| \\le 1"]
    assert _processed(">>> abs(-1)  # |x|\n1") == [">>> abs(-1)  # |x|", "1"]


def test_what_is_no_display_stays_as_it_is():
    text = "Continued text,\n\n   * an indented list\n\n:param h: Step.\n\n          More about h."
    assert _processed(text) == text.splitlines()
