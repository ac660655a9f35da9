"""The parameter contract of a lab (simlab.course.parameters) and how the self-checks follow it.

Specification: a lab declares each parameter once (name, default, unit, meaning, rules, a second
valid value); a value that breaks a rule is refused at the parameter cell with the parameter, its
value and the rule named; every check receives the notebook's value of every declared parameter it
takes as a keyword (never the lab's constant); a check's result names the values it used; a check
run with a value that breaks a rule says so instead of comparing.
"""

import math

import pytest

from simlab.course.check import CheckResult, Task, Tasks, check_value
from simlab.course.parameters import (
    Parameter,
    ParameterError,
    Parameters,
    between,
    divides,
    each,
    greater_than,
    increasing,
    less_than,
    one_of,
    positive,
    rule,
    whole,
)


def _contract():
    return Parameters(
        Parameter("t0", 0.0, "s", "start of the span", (rule("{name} is finite", lambda v, values: True),), 1.0),
        Parameter("t1", 2.0, "s", "end of the span", (greater_than("t0"),), 3.0),
        Parameter("h", 0.1, "s", "step size (步长)", (positive(), divides(("t0", "t1"))), 0.05),
        Parameter("e", 0.9, "", "eccentricity", (between(0, 1),), 0.7),
    )


@pytest.mark.parametrize("value, ok", [(0.1, True), (0.05, True), (0.3, False), (0.0, False), (-0.1, False),
                                       (float("nan"), False), (True, False), ("0.1", False)])
def test_divides_accepts_only_steps_that_divide_the_span(value, ok):
    """Oracle: (t1 - t0) / h is a whole number (2 / 0.3 = 6.67 is not)."""
    assert (_contract()["h"].problem(value, {"t0": 0.0, "t1": 2.0, "h": value}) is None) is ok


def test_a_broken_rule_names_the_parameter_the_value_and_the_rule():
    problems = _contract().problems({"h": 0.3})
    assert len(problems) == 1
    assert "h = 0.3 s" in problems[0] and "must divide" in problems[0] and "6.66667" in problems[0]


def test_a_rule_that_relates_two_parameters_sees_the_notebooks_values():
    contract = _contract()
    assert contract.problems({"t0": 1.0, "t1": 3.0, "h": 0.5}) == []
    assert "t1 > t0" in contract.problems({"t0": 2.5})[0]


def test_use_refuses_a_broken_rule_at_the_parameter_cell():
    with pytest.raises(ParameterError, match="e = 1.2"):
        _contract().use({"e": 1.2}, show=False)
    assert issubclass(ParameterError, ValueError)


def test_use_prints_the_table_and_marks_changed_values(capsys):
    _contract().use({"t0": 0.0, "t1": 2.0, "h": 0.05, "e": 0.9})
    out = capsys.readouterr().out
    assert "0.05*" in out and "changed from the lab's value" in out and "step size (步长)" in out


def test_use_reads_the_callers_globals():
    """As lab.use_parameters() in a notebook: the calling frame's globals are the notebook's."""
    with pytest.raises(ParameterError):
        exec("contract.use(show=False)", {"contract": _contract(), "h": 0.3})


def test_a_default_that_breaks_its_own_rule_is_refused():
    with pytest.raises(ValueError, match="default"):
        Parameters(Parameter("h", 0.3, "s", "step", (divides(2.0),), 0.1))


@pytest.mark.parametrize("made, good, bad", [
    (whole(1, 4), 3, 2.5), (increasing(min_length=2), (0.1, 0.2), (0.2, 0.1)),
    (each(positive()), (1.0, 2.0), (1.0, -2.0)), (one_of("zoh", "foh"), "foh", "tustin"),
    (less_than("lam"), 1.0, 2.0), (between(0, 1, closed=(True, False)), 0.0, 1.0)])
def test_each_rule_accepts_its_good_value_and_refuses_its_bad_one(made, good, bad):
    values = {"lam": 1.5}
    assert made.test(good, values) is None
    assert made.test(bad, values)


def _task_contract():
    calls = []

    def check_y(y_end, h=0.1, e=0.9):
        calls.append((h, e))
        return check_value("y at the end", y_end, math.exp(-e * 2.0), rtol=1e-9)

    tasks = Tasks(Task("1", ("y_end",), check_y, ("h",)), parameters=_contract())
    return tasks, calls


def test_a_check_receives_every_declared_parameter_it_takes():
    """The notebook's e is passed although the task lists only h: the signature decides."""
    tasks, calls = _task_contract()
    result = tasks.check("1", namespace={"y_end": math.exp(-0.7 * 2.0), "e": 0.7})
    assert result.passed and calls == [(0.1, 0.7)]


def test_a_check_result_names_the_parameter_values_it_used():
    tasks, _ = _task_contract()
    text = str(tasks.check("1", namespace={"y_end": math.exp(-1.8), "h": 0.05}))
    assert "checked with h = 0.05 s, e = 0.9" in text


def test_a_check_with_a_broken_parameter_says_so_instead_of_comparing():
    tasks, calls = _task_contract()
    result = tasks.check("1", namespace={"y_end": 1.0, "h": 0.3})
    assert isinstance(result, CheckResult) and not result.passed and not calls
    assert "h = 0.3 s" in result.message and "parameter cell" in result.message


def test_a_task_may_not_name_an_undeclared_parameter():
    with pytest.raises(ValueError, match="tau"):
        Tasks(Task("1", ("y",), lambda y, tau=1.0: None, ("tau",)), parameters=_contract())
