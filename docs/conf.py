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
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # autodoc documents this checkout, even with simlab installed elsewhere
sys.path.insert(0, str(DOCS / "_ext"))

import simlab
from simlab.course.labtools import BEGIN, END

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


#: In a solution's markdown, a model answer between the markers (BEGIN, END) is shown as a box.
MODEL_ANSWER = ":::{admonition} Model answer\n:class: tip\n"


def _static_notebook(text):
    """The notebook JSON ``text`` for a static page.

    Without what needs a live kernel (widget views and their state); a solution's model answers
    (markdown between the ``### BEGIN SOLUTION`` and ``### END SOLUTION`` lines) in a box
    instead of under two headings.
    """
    notebook = json.loads(text)
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [output for output in cell.get("outputs", [])
                               if WIDGET_VIEW not in output.get("data", {})]
        elif cell["cell_type"] == "markdown":
            lines = "".join(cell["source"]).split("\n")
            lines = [MODEL_ANSWER if line.strip() == BEGIN else ":::" if line.strip() == END else line
                     for line in lines]
            cell["source"] = "\n".join(lines)
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
    for stale in {p.name for p in target.iterdir()} - set(wanted):
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
    "plain_text_docstrings",  # docs/_ext: the docstrings' plain-text formulas, as typed
]
exclude_patterns = ["_build", "_ext", "_static", "**/.ipynb_checkpoints", "img"]
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
    return {"parallel_read_safe": True, "parallel_write_safe": True}
