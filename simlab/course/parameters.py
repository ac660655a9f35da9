"""The parameter contract of a lab (实验参数): each parameter declared once, with its rule.

A lab declares the values a student may change (a step size, a sample period, a gain) once, in
its module::

    PARAMETERS = Parameters(
        Parameter("tau", 0.5, "s", "dead time (纯延迟) of Parts A-C", positive(), alternative=0.7),
        Parameter("h", 0.04, "s", "grid step of Parts A-C", positive(), divides(10.0), alternative=0.05),
    )

Each :class:`Parameter` has a name (the notebook's variable), a default (the value the lab is
written for), a unit, a meaning, the rules a value must satisfy (:class:`Rule`: ``positive()``,
``between(0, 1)``, ``divides(10.0)``, ...) and a second valid value that the tests try
(``alternative``). The notebook's parameter cell, right after the imports, holds exactly these
names as plain assignments and ends with ``lab.use_parameters()``, which checks every rule and
prints the values in use; a value that breaks a rule is refused there, with the parameter and the
rule named. The self-checks (:class:`simlab.course.check.Tasks`) read every declared parameter
that a check or reference takes as a keyword from the notebook, never a lab constant, so that a
correct answer stays correct for any valid value.

Rules may depend on other parameters (``less_than("overload")``): they see all the values.
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["ParameterError", "Rule", "Parameter", "Parameters", "positive", "non_negative", "between",
           "divides", "whole", "increasing", "each", "less_than", "greater_than", "one_of", "rule", "format_value"]


class ParameterError(ValueError):
    """A parameter of a lab has a value that breaks its rule (raised at the parameter cell)."""


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """A condition a parameter's value must satisfy.

    Attributes
    ----------
    text : str
        The rule in words, about ``{name}`` ("{name} > 0", "{name} must divide 10 s"); the
        parameter's name is filled in.
    test : callable ``test(value, values) -> str | None``
        ``None`` when ``value`` satisfies the rule, else what is wrong with it ("10 / 0.3 = 33.33
        is not a whole number"). ``values`` holds every parameter's value, for rules that relate
        two parameters.
    """

    text: str
    test: Callable[[Any, Mapping], str | None]

    def describe(self, name):
        """The rule in words for the parameter ``name``."""
        return self.text.replace("{name}", name)


def _real(value):
    """``value`` as a float if it is one real number (not a bool), else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.ndim == 0 and np.isrealobj(value) and value.dtype != bool:
            return float(value)
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _needs_number(value):
    return None if _real(value) is not None else f"got {value!r}, not a finite real number"


def rule(text, test):
    """A :class:`Rule` from its text and a predicate ``test(value, values) -> bool`` (True: satisfied)."""

    def check(value, values):
        problem = _needs_number(value)
        if problem:
            return problem
        return None if test(_real(value), values) else f"{format_value(value)} does not satisfy it"

    return Rule(text, check)


def positive():
    """The value is a finite real number > 0."""
    return rule("{name} > 0", lambda value, values: value > 0)


def non_negative():
    """The value is a finite real number >= 0."""
    return rule("{name} >= 0", lambda value, values: value >= 0)


def between(low, high, *, closed=(False, False)):
    """``low < value < high`` (``closed=(True, False)`` for ``low <= value < high``, and so on)."""
    left, right = ("<=" if closed[0] else "<"), ("<=" if closed[1] else "<")

    def test(value, values):
        above = value >= low if closed[0] else value > low
        below = value <= high if closed[1] else value < high
        return above and below

    return rule(f"{format_value(low)} {left} {{name}} {right} {format_value(high)}", test)


def divides(span, unit="s", what="the span"):
    """The value (> 0) divides ``span`` into a whole number of steps (to 1e-9 relative).

    ``span`` is a number, or a pair of parameter names ``("t0", "t1")`` for the span t1 - t0 of
    the notebook's own values.
    """
    named = isinstance(span, tuple)

    def check(value, values):
        problem = _needs_number(value)
        if problem:
            return problem
        value = _real(value)
        if value <= 0:
            return f"{format_value(value)} is not > 0"
        length = (_real(values.get(span[1])) or 0.0) - (_real(values.get(span[0])) or 0.0) if named else span
        steps = length / value
        if abs(steps - round(steps)) > 1e-9 * max(1.0, abs(steps)):
            return f"{format_value(length)} / {format_value(value)} = {steps:.6g} is not a whole number"
        return None

    size = f"{span[1]} - {span[0]}" if named else f"{format_value(span)}{' ' + unit if unit else ''}"
    return Rule(f"{{name}} must divide {what}, {size}, into a whole number of steps", check)


def greater_than(other):
    """The value is above another parameter's value."""

    def check(value, values):
        problem = _needs_number(value)
        if problem:
            return problem
        bound = _real(values.get(other))
        if bound is not None and not _real(value) > bound:
            return f"{format_value(value)} is not above {other} = {format_value(bound)}"
        return None

    return Rule(f"{{name}} > {other}", check)


def whole(low=None, high=None):
    """The value is a whole number (an int), optionally within ``low <= value <= high``."""
    bounds = (f"{low} <= " if low is not None else "") + "{name}" + (f" <= {high}" if high is not None else "")

    def check(value, values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            return f"got {value!r}, not a whole number (an int)"
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{value} is outside"
        return None

    text = "{name} is a whole number" + (f", {bounds}" if low is not None or high is not None else "")
    return Rule(text, check)


def increasing(*, decreasing=False, min_length=1):
    """A sequence of finite real numbers, strictly increasing (or decreasing), at least ``min_length``."""
    order = "decreasing" if decreasing else "increasing"

    def check(value, values):
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return f"got {value!r}, not a sequence of numbers"
        if array.ndim != 1 or array.size < min_length:
            return f"got {value!r}, expected a sequence of at least {min_length} numbers"
        if not np.all(np.isfinite(array)) or isinstance(value, (str, bytes)):
            return f"got {value!r}, not finite real numbers"
        steps = np.diff(array)
        if np.any(steps >= 0 if decreasing else steps <= 0):
            return f"{value!r} is not strictly {order}"
        return None

    return Rule(f"{{name}} is a sequence of at least {min_length} numbers, strictly {order}", check)


def each(inner):
    """Every element of a sequence satisfies the rule ``inner``."""

    def check(value, values):
        try:
            items = list(value)
        except TypeError:
            return f"got {value!r}, not a sequence"
        for index, item in enumerate(items):
            problem = inner.test(item, values)
            if problem:
                return f"element {index} ({format_value(item)}): {problem}"
        return None

    return Rule(inner.text.replace("{name}", "each element of {name}"), check)


def less_than(other, *, factor=1.0):
    """The value is below another parameter's value (times ``factor``)."""
    scaled = other if factor == 1 else f"{format_value(factor)} {other}"

    def check(value, values):
        problem = _needs_number(value)
        if problem:
            return problem
        bound = _real(values.get(other))
        if bound is None:
            return None  # the other parameter's own rule reports it
        if not _real(value) < factor * bound:
            return f"{format_value(value)} is not below {scaled} = {format_value(factor * bound)}"
        return None

    return Rule(f"{{name}} < {scaled}", check)


def one_of(*choices):
    """The value is one of ``choices``."""

    def check(value, values):
        return None if any(_equal(value, choice) for choice in choices) else f"got {value!r}"

    return Rule("{name} is one of " + ", ".join(repr(choice) for choice in choices), check)


# ---------------------------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------------------------


def format_value(value):
    """A parameter value as a student reads it: ``0.5``, ``1e-06``, ``(0.1, 0.5)``."""
    if isinstance(value, (bool, np.bool_, str)):
        return repr(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):g}"
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return format_value(value.item())
    if isinstance(value, (tuple, list, np.ndarray)):
        items = ", ".join(format_value(item) for item in (value.tolist() if isinstance(value, np.ndarray) else value))
        return f"[{items}]" if isinstance(value, (list, np.ndarray)) else f"({items}{',' if len(value) == 1 else ''})"
    return repr(value)


def _equal(value, other):
    """True if two parameter values are equal (numbers, sequences, arrays)."""
    try:
        a, b = np.asarray(value), np.asarray(other)
        if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
            return a.shape == b.shape and bool(np.array_equal(a, b))
    except (TypeError, ValueError):
        pass
    try:
        return bool(value == other)
    except Exception:  # noqa: BLE001 - values that do not compare are different
        return False


@dataclass(frozen=True)
class Parameter:
    """One documented parameter of a lab.

    Attributes
    ----------
    name : str
        The notebook's variable (``"tau"``).
    default : object
        The value the lab is written for (the notebook's parameter cell holds it).
    unit : str
        Its unit (``"s"``; ``""`` for a number without unit).
    meaning : str
        What it is, in a few words, with the textbook term (English, Chinese on first use).
    rules : tuple of Rule
        Conditions every value must satisfy (each default satisfies them).
    alternative : object
        A second valid value, which the tests set to prove that the lab follows the parameter.
    """

    name: str
    default: Any
    unit: str
    meaning: str
    rules: tuple = ()
    alternative: Any = None

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"a parameter's name must be a Python name, got {self.name!r}.")
        object.__setattr__(self, "rules", tuple(self.rules))
        if not all(isinstance(item, Rule) for item in self.rules):
            raise TypeError(f"the rules of parameter {self.name} must be Rule objects.")

    def problem(self, value, values=None):
        """What is wrong with ``value`` for this parameter (``None`` if it satisfies every rule)."""
        values = {self.name: value} if values is None else values
        for item in self.rules:
            problem = item.test(value, values)
            if problem:
                unit = f" {self.unit}" if self.unit and _real(value) is not None else ""
                return (f"{self.name} = {format_value(value)}{unit} breaks the rule of {self.name} "
                        f"({self.meaning}): {item.describe(self.name)}; {problem}.")
        return None

    def describe(self, value):
        """``"tau = 0.5 s"``: the value with its unit."""
        unit = f" {self.unit}" if self.unit and _real(value) is not None else ""
        return f"{self.name} = {format_value(value)}{unit}"


class Parameters(Mapping):
    """The declared parameters of a lab, by name: defaults, rules, the values a notebook uses.

    Examples
    --------
    >>> from simlab.course.parameters import Parameter, Parameters, divides, positive
    >>> PARAMETERS = Parameters(Parameter("h", 0.1, "s", "step size", (positive(), divides(2.0)), 0.05))
    >>> PARAMETERS.notebook_values({"h": 0.05})
    {'h': 0.05}
    >>> print(PARAMETERS.problems({"h": 0.3})[0])
    h = 0.3 s breaks the rule of h (step size): h must divide the span, 2 s, into a whole number of steps; 2 / 0.3 = 6.66667 is not a whole number.
    """

    def __init__(self, *parameters):
        self._parameters = {}
        for parameter in parameters:
            if not isinstance(parameter, Parameter):
                raise TypeError(f"Parameters takes Parameter objects, got {type(parameter).__name__}.")
            if parameter.name in self._parameters:
                raise ValueError(f"two parameters are called {parameter.name!r}.")
            self._parameters[parameter.name] = parameter
        defaults = self.defaults()
        for parameter in parameters:
            problem = parameter.problem(parameter.default, defaults)
            if problem:
                raise ValueError(f"the default breaks its own rule: {problem}")

    def __getitem__(self, name):
        return self._parameters[name]

    def __iter__(self):
        return iter(self._parameters)

    def __len__(self):
        return len(self._parameters)

    def defaults(self):
        """``{name: default}`` of every parameter."""
        return {name: parameter.default for name, parameter in self._parameters.items()}

    def notebook_values(self, namespace):
        """``{name: value}``: the notebook's value of each parameter, its default where it has none."""
        return {name: namespace[name] if name in namespace else parameter.default
                for name, parameter in self._parameters.items()}

    def changed(self, namespace):
        """``{name: value}`` of the parameters that ``namespace`` sets to other values than the defaults."""
        return {name: namespace[name] for name, parameter in self._parameters.items()
                if name in namespace and not _equal(namespace[name], parameter.default)}

    def broken(self, namespace):
        """``{name: sentence}`` of the parameters whose notebook value breaks a rule (empty: all valid)."""
        values = self.notebook_values(namespace)
        return {name: problem for name, parameter in self._parameters.items()
                if (problem := parameter.problem(values[name], values))}

    def problems(self, namespace):
        """What is wrong with the notebook's values: one sentence per broken rule (empty: all valid)."""
        return list(self.broken(namespace).values())

    def describe(self, names, namespace):
        """``"tau = 0.5 s, h = 0.04 s"``: the values of ``names`` that the notebook uses."""
        values = self.notebook_values(namespace)
        return ", ".join(self._parameters[name].describe(values[name]) for name in names)

    def table(self, namespace=None):
        """The parameters as a text table: name, value, unit, meaning (a star marks a changed value)."""
        values = self.notebook_values(namespace or {})
        rows = [(name, format_value(values[name]) + ("*" if not _equal(values[name], p.default) else ""),
                 p.unit or "-", p.meaning) for name, p in self._parameters.items()]
        widths = [max(len(row[i]) for row in rows + [("parameter", "value", "unit", "")]) for i in range(3)]
        lines = [f"{'parameter':<{widths[0]}}  {'value':>{widths[1]}}  {'unit':<{widths[2]}}  meaning"]
        lines += [f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c:<{widths[2]}}  {d}" for a, b, c, d in rows]
        if any(row[1].endswith("*") for row in rows):
            lines.append("* changed from the lab's value; every self-check follows it")
        return "\n".join(lines)

    def use(self, namespace=None, *, show=True):
        """Check the notebook's parameters against their rules and print them (the parameter cell).

        Called from the notebook as ``lab.use_parameters()``: reads the notebook's variables.

        Raises
        ------
        ParameterError
            If a value breaks its rule; the message names the parameter, its value and the rule.
        """
        if namespace is None:
            namespace = sys._getframe(1).f_globals
        problems = self.problems(namespace)
        if problems:
            more = f" (and {len(problems) - 1} more: {' '.join(problems[1:])})" if len(problems) > 1 else ""
            raise ParameterError(f"{problems[0]} Change it in the parameter cell and run the lab again.{more}")
        if show:
            print(self.table(namespace))
