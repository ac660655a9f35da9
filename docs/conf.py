"""Sphinx configuration of the simlab course site.

Build (from the project folder, after ``pip install -e ".[docs]"``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html                     # students
    sphinx-build -W --keep-going -b html -t instructor docs docs/_build/instructor  # with solutions

The notebooks stay where they are (``course/``, ``labs/``, ``solutions/``). At the start of each
build this file copies them, found by glob, into ``docs/course/``, ``docs/labs/`` and (in an
instructor build only) ``docs/solutions/``, folders that git ignores; a copy is rewritten only
when its notebook changed, so Sphinx re-reads only those. The pages are rendered from the stored
outputs, never executed (nbval checks those outputs). One thing is taken out on the way: the
output of an ipywidgets cell, which needs a running kernel (on a static page it is a dead
slider); every lecture shows the same plots without the widget in the next cell.

The API reference (``docs/api/``, also generated, one page per library module, found by walking
the ``simlab`` package, ``simlab.course`` excepted) is rendered by autodoc with napoleon from the
numpydoc docstrings. MathJax comes with the site (sphinx-mathjax-offline), so that the pages
show their formulas without a network.
"""

import json
import os
import pkgutil
import re
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # autodoc documents this checkout, even with simlab installed elsewhere

import simlab  # noqa: E402

# -- the instructor build ------------------------------------------------------------------------
# `-t instructor` or SIMLAB_DOCS_INSTRUCTOR=1: the solutions are rendered too.
if os.environ.get("SIMLAB_DOCS_INSTRUCTOR", "0") not in ("", "0"):
    tags.add("instructor")  # noqa: F821 (tags is given to conf.py by Sphinx)
INSTRUCTOR = tags.has("instructor")  # noqa: F821

#: Notebook folders of the project rendered as sections of the site, in navigation order.
SECTIONS = ("course", "labs") + (("solutions",) if INSTRUCTOR else ())
#: Generated folders under docs/ (ignored by git, rewritten by every build).
GENERATED = ("course", "labs", "solutions", "api")

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _static_notebook(text):
    """The notebook JSON ``text`` without what needs a live kernel (widget views and their state)."""
    notebook = json.loads(text)
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [output for output in cell.get("outputs", [])
                               if WIDGET_VIEW not in output.get("data", {})]
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _write_if_changed(path, text):
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _sync(folder, wanted):
    """Make ``docs/<folder>`` hold exactly ``wanted`` ({file name: text}), touching only changes."""
    target = DOCS / folder
    if not wanted:
        shutil.rmtree(target, ignore_errors=True)
        return
    target.mkdir(exist_ok=True)
    for stale in set(p.name for p in target.iterdir()) - set(wanted):
        path = target / stale
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    for name, text in wanted.items():
        _write_if_changed(target / name, text)


def _library_modules():
    """Every module of the library, by walking the package (simlab.course and __main__ excepted)."""
    modules = []

    def walk(package, prefix):
        for info in pkgutil.iter_modules(package.__path__, prefix):
            if info.name in ("simlab.course", "simlab.__main__"):
                continue
            modules.append(info.name)
            if info.ispkg:
                walk(__import__(info.name, fromlist=["_"]), info.name + ".")

    walk(simlab, "simlab.")
    return ["simlab"] + sorted(modules)


API_PAGE = """# `{name}`

```{{eval-rst}}
.. automodule:: {name}
{options}```
"""


def _api_pages():
    pages = {}
    for name in _library_modules():
        # Packages (simlab, simlab.lti, ...) show their docstring, the overview of the names they
        # gather; the names are documented once, in the module that defines them.
        is_package = hasattr(__import__(name, fromlist=["_"]), "__path__")
        options = "" if is_package else "   :members:\n   :show-inheritance:\n"
        pages[f"{name}.md"] = API_PAGE.format(name=name, options=options)
    return pages


for _folder in GENERATED:
    if _folder == "api":
        _sync("api", _api_pages())
    elif _folder in SECTIONS:
        _sync(_folder, {p.name: _static_notebook(p.read_text(encoding="utf-8"))
                        for p in sorted((ROOT / _folder).glob("*.ipynb"))})
    else:
        _sync(_folder, {})

# -- project ---------------------------------------------------------------------------------------
project = "simlab"
author = "simlab developers"
copyright = "simlab developers, MIT licence"
release = version = simlab.__version__
language = "en"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax 3 copied into the site: formulas render offline too
]
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "img", "README.md"]
if not INSTRUCTOR:
    exclude_patterns.append("solutions/**")

# -- notebooks (myst-nb) ---------------------------------------------------------------------------
nb_execution_mode = "off"  # render the stored outputs; nbval checks them against a fresh run
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_dmath_double_inline = True

# -- API reference (autodoc + napoleon, numpydoc style) --------------------------------------------
autodoc_default_options = {"ignore-module-all": True}  # each name once, where it is defined
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the numpydoc Parameters sections give types, shapes and units
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True  # dataclass "Attributes" as a field list (no second target per field)
napoleon_use_rtype = False

# -- HTML ------------------------------------------------------------------------------------------
html_theme = "furo"
html_title = "simlab · 控制系统数字仿真"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"  # also keeps the browser from asking for a missing /favicon.ico
html_show_sourcelink = False
html_css_files = ["simlab.css"]
highlight_language = "none"  # "::" blocks are formulas and diagrams; code cells and doctests say their language


# -- docstrings: plain-text formulas ---------------------------------------------------------------
# The library's docstrings write formulas as plain text, to be read with help() as well:
#
# * a formula display is an indented block after a paragraph (reStructuredText would make it a
#   block quote and run its lines together); it is shown as typed, as a literal block (the
#   paragraph gets the "::" that asks for one);
# * |v|, |R(z)|, |x_k - x_{k-1}| are absolute values, never substitutions (the library defines
#   none): the bars are escaped, except in inline literals and roles (``...``, `...`), literal
#   blocks, directives (``.. math::``) and doctests.
#
# Both run on autodoc's lines after napoleon turned the numpydoc sections into fields.
_INLINE_LITERAL = re.compile(r"(``.+?``|:?[\w:.-]*`[^`]+`_?)")
_MARKER = re.compile(r"\s*(:[^:`]+:\s+|([-*+]|\d+\.|#\.)\s+)")  # a field's or a list item's
_UNDERLINE = re.compile(r"([-=~^\"'`#*+<>])\1*")


def _indent(line):
    return len(line) - len(line.lstrip())


def _text_indent(lines, paragraph):
    """Indentation of a paragraph's text: of its last line, or after the marker of a field or item."""
    if len(paragraph) > 1:
        return _indent(lines[paragraph[-1]])
    marker = _MARKER.match(lines[paragraph[0]])
    return marker.end() if marker else _indent(lines[paragraph[0]])


def _mark_displays(lines):
    """Give "::" to each paragraph that a display follows; return the indices of literal lines."""
    literal_lines, paragraph, before, literal = set(), [], [], None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            before, paragraph = (paragraph, []) if paragraph else (before, paragraph)
            continue
        if literal is not None and _indent(line) > literal:
            literal_lines.add(index)
            continue
        if literal is not None:
            literal, before = None, []
        if stripped.startswith((">>>", "...")) or (paragraph and lines[paragraph[0]].lstrip().startswith(">>>")):
            literal_lines.add(index)  # a doctest: its lines and output
        elif (not paragraph and before and _indent(line) > _text_indent(lines, before)
              and not _UNDERLINE.fullmatch(lines[before[-1]].strip()) and not _MARKER.match(line)):
            last = before[-1]
            text = lines[last].rstrip()
            lines[last] = text[:-1] + "::" if text.endswith(":") else text + " ::"
            literal, before = _text_indent(lines, before), []
            literal_lines.add(index)
            continue
        paragraph.append(index)
        if stripped.endswith("::") or (len(paragraph) == 1 and stripped.startswith(".. ")):
            literal = _indent(line) if stripped.startswith(".. ") else _text_indent(lines, paragraph)
            literal_lines.add(index) if stripped.startswith(".. ") else None
            paragraph, before = [], []
    return literal_lines


def _plain_text_formulas(app, what, name, obj, options, lines):
    """Displays as literal blocks, |x| as bars (see above)."""
    literal_lines = _mark_displays(lines)
    for index, line in enumerate(lines):
        if index not in literal_lines:
            parts = _INLINE_LITERAL.split(line)
            lines[index] = "".join(part if odd % 2 else part.replace("|", "\\|") for odd, part in enumerate(parts))


# -- the solutions in the navigation (instructor build) --------------------------------------------
SOLUTIONS_MARKER = "% In an instructor build (sphinx-build -t instructor), conf.py adds the toctree of the solutions here."
SOLUTIONS_TOCTREE = """
```{toctree}
:caption: Solutions (instructor build)
:glob:
:maxdepth: 1

solutions/*
```
"""


def _add_solutions(app, docname, source):
    """In an instructor build, put the solutions' toctree where index.md's marker line is."""
    if docname == "index" and INSTRUCTOR:
        if SOLUTIONS_MARKER not in source[0]:
            raise RuntimeError("docs/index.md lost the marker line of the solutions' toctree")
        source[0] = source[0].replace(SOLUTIONS_MARKER, SOLUTIONS_TOCTREE)


def setup(app):
    app.connect("source-read", _add_solutions)
    app.connect("autodoc-process-docstring", _plain_text_formulas)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
