"""Sphinx extension: the library's plain-text formulas, rendered as they are typed.

The library's docstrings write formulas as plain text, to be read with help() as well:

* a formula display is an indented block after a paragraph (reStructuredText would make it a
  block quote and run its lines together); it is shown as typed, as a literal block (the
  paragraph gets the "::" that asks for one);
* |v|, |R(z)|, |x_k - x_{k-1}| are absolute values, never substitutions (the library defines
  none): the bars are escaped, except in inline literals and roles (``...``, `...`), literal
  blocks, directives (``.. math::``) and doctests.

Both run on autodoc's lines (the ``autodoc-process-docstring`` event), after napoleon has turned
the numpydoc sections into fields. docs/conf.py loads it; tests/test_docs.py checks it.
"""

import re

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


def plain_text_formulas(app, what, name, obj, options, lines):
    """Displays as literal blocks, |x| as bars (see the module docstring); changes ``lines``."""
    literal_lines = _mark_displays(lines)
    for index, line in enumerate(lines):
        if index not in literal_lines:
            parts = _INLINE_LITERAL.split(line)
            lines[index] = "".join(part if odd % 2 else part.replace("|", "\\|") for odd, part in enumerate(parts))


def setup(app):
    app.connect("autodoc-process-docstring", plain_text_formulas)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
