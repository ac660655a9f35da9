"""Self-checks for the lab notebooks (自测): results, comparisons and the tasks of a lab.

A self-check compares a student's answer with a reference that simlab *computes* (never a pasted
number) and returns a :class:`CheckResult`: it prints as ``[correct] ...`` or as ``[not yet] ...``
followed by an explanation of what is off and, where a typical mistake explains the answer, a
hint that names it ("did you use t_k or t_{k+1} in the slope?").

The tasks of a lab are listed in a :class:`Tasks` table in the lab's module. Each
:class:`Task` names the variables the task defines in the notebook (its *answers*), the
notebook parameters its reference depends on (step size, span, gains, ...), the check, and how
to compute the reference answers. A notebook then checks a task by its name::

    lab.check("2")             # reads y_euler (and h, t0, t1, y0) from the notebook
    ref = lab.take("y_euler")   # the student's y_euler, or the reference if Task 2 is not done

so that a check after an unfinished task says ``[not yet] Task 2 is not done yet`` instead of
failing with a NameError, a correct answer stays correct when a documented parameter is
changed, and a later task can be done before an earlier one (it uses the reference, and says
so). :meth:`Tasks.take` never binds a name in the notebook: a borrowed reference is never
mistaken for the student's answer.

The lab's parameters are declared once (:mod:`simlab.course.parameters`); ``Tasks(...,
parameters=PARAMETERS)`` passes every declared parameter that a check or reference takes as a
keyword, with the notebook's value, and each result ends with the values it used. When an answer
matches neither the reference nor one of the lab's typical mistakes, :func:`check_array` and
:func:`check_value` still try the generic slips (:func:`generic_hint`: sign, units, transpose,
one sample late or early, a missing first or last point) before reporting the difference.

The generic machinery lives here; each lab's checks live with that lab's module.
"""

from __future__ import annotations

import inspect
import math
import numbers
import sys
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Callable, Mapping

import numpy as np

__all__ = ["CheckResult", "check_array", "check_value", "all_of", "Task", "Tasks", "not_done", "Mistake",
           "generic_hint", "row_factors"]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a self-check; truthy when the answer is correct.

    Attributes
    ----------
    passed : bool
        True if the answer matches the reference.
    title : str
        What was checked, e.g. ``"Euler solution y_k"``.
    message : str
        The explanation shown to the student.
    details : tuple of str
        Further lines, indented under the message.
    done : bool
        False when the task has not been done yet (its answers are not defined); such a result
        prints as ``[not yet] Task X is not done yet: ...``.
    expected_hint : bool
        True where a lab shows a hint on purpose (a check applied to a wrong answer, to show
        what it says); prints as ``[expected hint] ...`` so that it does not read as a failure.
        See :meth:`as_expected_hint`.
    """

    passed: bool
    title: str
    message: str
    details: tuple = field(default=())
    done: bool = True
    expected_hint: bool = False

    def __bool__(self) -> bool:
        """True when the answer is correct: ``if lab.check("2"): ...`` runs only after a pass."""
        return self.passed

    @property
    def status(self) -> str:
        """``"correct"``, ``"not yet"`` (a wrong answer) or ``"not done"`` (no answer)."""
        if not self.done:
            return "not done"
        return "correct" if self.passed else "not yet"

    def as_expected_hint(self):
        """This result marked as a hint the lab shows on purpose (printed ``[expected hint]``).

        If the answer unexpectedly passes, it prints ``[correct, but a hint was expected]``.
        """
        return CheckResult(self.passed, self.title, self.message, self.details, self.done, True)

    def __str__(self) -> str:
        if not self.done:
            lines = [f"[not yet] {self.title} is not done yet: {self.message}"]
        elif self.expected_hint:
            label = "correct, but a hint was expected" if self.passed else "expected hint"
            lines = [f"[{label}] {self.title}: {self.message}"]
        else:
            lines = [f"[{'correct' if self.passed else 'not yet'}] {self.title}: {self.message}"]
        lines += [f"    {line}" for line in self.details]
        return "\n".join(lines)

    __repr__ = __str__


def not_done(task, message):
    """The :class:`CheckResult` of a task whose answers are not defined yet."""
    return CheckResult(False, f"Task {task}", message, done=False)


# ---------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------


def _tolerance(value, name):
    """A tolerance: a finite real number >= 0 (a misuse of the checker is the author's error)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}.")
    return float(value)


def _describe(answer):
    if isinstance(answer, np.ndarray):
        return f"an array of dtype {answer.dtype}"
    return type(answer).__name__


def _as_real(answer):
    """``answer`` as a float array, or a reason why it is not a real number or array of them."""
    if answer is None:
        return None, "got None (did the cell compute it, or only print it?)"
    if isinstance(answer, (bool, np.bool_, str, bytes)):
        return None, f"got {_describe(answer)} {answer!r}"
    try:
        array = np.asarray(answer)
    except (TypeError, ValueError):
        return None, f"got {_describe(answer)}, not a rectangular array"
    if array.dtype == bool:
        return None, "got True/False values, not numbers"
    if np.iscomplexobj(array):
        if np.all(array.imag == 0):
            array = array.real
        else:
            return None, "got complex numbers; the answer is real"
    if array.dtype == object or not np.issubdtype(array.dtype, np.number):
        try:
            array = array.astype(float)
        except (TypeError, ValueError):
            return None, f"got {_describe(answer)} that does not convert to numbers"
    return array.astype(float), None


#: Factors that a unit slip produces, with what they usually mean.
_FACTORS = ((180 / math.pi, "degrees instead of radians"), (math.pi / 180, "radians where degrees were asked"),
            (2 * math.pi, "rad/s instead of Hz (a factor 2 pi)"), (1 / (2 * math.pi), "Hz instead of rad/s (a factor 1/(2 pi))"))


def _close(a, b, rtol, atol):
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _significant(reference, atol):
    """True if the reference is not zero to the tolerance (a pattern on zeros proves nothing)."""
    return bool(np.max(np.abs(reference), initial=0.0) > 10 * atol)


def generic_hint(answer, reference, *, rtol=1e-9, atol=1e-12, single=False):
    """The name of a typical slip that turns ``reference`` into ``answer``, or ``""``.

    Recognised, in this order: the sign flipped (``-reference``), a unit slip (a factor 10^k,
    k = +-1 .. +-9, degrees/radians, Hz/rad/s), a transposed matrix, a sequence one sample late
    or early (along the first axis, ``answer[k] = reference[k -+ 1]``). Called by
    :func:`check_array` and :func:`check_value` when the answer matches neither the reference
    nor a lab's own alternatives.

    Examples
    --------
    >>> generic_hint([-1.0, -2.0], [1.0, 2.0])
    'every value has the opposite sign of the reference: a sign slip (feedback sign, e = r - y or y - r, direction of a force)?'
    >>> generic_hint([0.0, 1.0, 2.0], [1.0, 2.0, 3.0])
    'your sequence is one sample late: your value at index k is the reference at index k - 1 (an index or time shift by one step?)'
    """
    answer = np.asarray(answer, dtype=float)
    reference = np.asarray(reference, dtype=float)
    if answer.shape != reference.shape or not _significant(reference, atol):
        return ""
    yours = "your value is" if single else "your values are"
    if _close(answer, -reference, rtol, atol):
        return (f"{'your value has' if single else 'every value has'} the opposite sign of the reference: a sign "
                f"slip (feedback sign, e = r - y or y - r, direction of a force)?")
    for k in (1, 2, 3, 6, 9, -1, -2, -3, -6, -9):
        if _close(answer, reference * 10.0 ** k, rtol, atol):
            return (f"{yours} 10^{k} times the reference: a unit slip (s and ms, m and mm, a percentage "
                    f"as a fraction, ...)?")
    for factor, meaning in _FACTORS:
        if _close(answer, reference * factor, rtol, atol):
            return f"{yours} {factor:.4g} times the reference: {meaning}?"
    if reference.ndim == 2 and reference.shape[0] == reference.shape[1] and _close(answer, reference.T, rtol, atol):
        return "that is the transpose of the reference: rows and columns are swapped (M.T instead of M?)."
    if reference.ndim >= 1 and len(reference) >= 3 and not _close(reference[1:], reference[:-1], rtol, atol):
        if _close(answer[1:], reference[:-1], rtol, atol):
            return ("your sequence is one sample late: your value at index k is the reference at index k - 1 "
                    "(an index or time shift by one step?)")
        if _close(answer[:-1], reference[1:], rtol, atol):
            return ("your sequence is one sample early: your value at index k is the reference at index k + 1 "
                    "(an index or time shift by one step?)")
    return ""


def _shape_hint(array, reference, rtol, atol):
    """Why the shapes differ, where a typical slip explains it."""
    if array.ndim == reference.ndim == 1 and array.size == reference.size - 1:
        if _close(array, reference[1:], rtol, atol):
            return " These are the values from k = 1 on: you left out the initial value at t0 (N steps give N + 1 points)."
        if _close(array, reference[:-1], rtol, atol):
            return " These are the values without the last point: the loop stops one step early (range(N + 1) points)."
        return " Did you leave out the initial value at t0 (N steps give N + 1 points)?"
    if array.ndim == reference.ndim == 1 and array.size == reference.size + 1:
        return " One value too many: N steps give N + 1 points (did the loop run once more, or t1 get a step of its own?)"
    if array.ndim == reference.ndim == 2 and array.shape == reference.shape[::-1]:
        if _close(array.T, reference, rtol, atol):
            return " It is the transpose of the reference: rows and columns are swapped (M.T instead of M?)."
        return " The shape is transposed: rows and columns are swapped."
    if array.size == reference.size:
        return " The numbers are there; reshape it (np.ravel) to the expected shape."
    return ""


def row_factors(answer, reference, *, rtol=1e-9, atol=1e-12):
    """Factors f_i with row i of ``answer`` = f_i times row i of ``reference`` (NaN where there is none).

    A row [A_i, B_i, C_i, D_i] of a structure graph's P describes the same typical element (典型环节)
    (C_i + D_i s)/(A_i + B_i s) when it is multiplied by any number other than 0: the checks accept
    such rows. Returns None when ``answer`` is not a finite real 2-D array of the reference's shape.

    Examples
    --------
    >>> row_factors([[0.0, 2.0, 4.0, 0.0], [1.0, 1.0, 2.0, 0.0]], [[0.0, 1.0, 2.0, 0.0], [1.0, 1.0, 3.0, 0.0]])
    array([ 2., nan])
    """
    try:
        array = np.asarray(answer)
    except (TypeError, ValueError):  # a ragged list
        return None
    reference = np.asarray(reference, dtype=float)
    if array.dtype.kind not in "iuf" or array.shape != reference.shape or array.ndim != 2:
        return None
    array = array.astype(float)
    if not np.all(np.isfinite(array)):
        return None
    factors = np.full(len(array), np.nan)
    for i, (row, row_ref) in enumerate(zip(array, reference)):
        k = int(np.argmax(np.abs(row_ref)))
        factor = row[k] / row_ref[k] if row_ref[k] != 0 else 1.0
        if factor != 0 and np.allclose(row, factor * row_ref, rtol=rtol, atol=atol * max(1.0, abs(factor))):
            factors[i] = factor
    return factors


def check_array(title, answer, reference, *, rtol=1e-9, atol=1e-12, alternatives=(), what="values"):
    """Compare an array answer with a computed reference and explain any difference.

    Parameters
    ----------
    title : str
        What is being checked (shown to the student).
    answer : array_like
        The student's result; it must be real (complex, boolean and text answers are never
        correct).
    reference : array_like
        The reference computed by simlab: real and finite (not None, NaN or inf).
    rtol, atol : float
        Tolerances of ``numpy.isclose`` (finite, >= 0).
    alternatives : sequence of (array_like, str)
        Results of typical mistakes with the hint to give when the answer matches one.
    what : str
        Name of the quantity, used in messages ("values", "y_k", ...).

    Returns
    -------
    CheckResult

    Raises
    ------
    ValueError
        If ``reference`` is missing (None), not numbers, or holds NaN or inf, or a tolerance is
        not a finite number >= 0: those are the lab author's errors, never the student's, so
        they are raised rather than reported as ``[not yet]``.
    """
    from simlab.validation import describe

    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    given = reference  # the lab's: a missing or non-finite reference is the author's error, not the student's
    try:
        reference = np.asarray(given, dtype=float)
    except (TypeError, ValueError):
        reference = np.array(np.nan)
    if given is None or not np.all(np.isfinite(reference)):
        raise ValueError(f"reference must be an array of finite real numbers computed by the lab, got "
                         f"{describe(given)}: a missing or non-finite reference is an error in the lab's "
                         f"check, not in the student's answer.")
    array, problem = _as_real(answer)
    if problem:
        return CheckResult(False, title, f"expected an array of real numbers, {problem}.")
    if array.shape != reference.shape:
        for alternative, hint in alternatives:
            alternative = np.asarray(alternative, dtype=float)
            if _close(array, alternative, rtol, atol):
                return CheckResult(False, title, hint)
        hint = _shape_hint(array, reference, rtol, atol)
        return CheckResult(
            False,
            title,
            f"expected shape {reference.shape}, got shape {array.shape}.{hint}",
        )
    if not np.all(np.isfinite(array)):
        first = int(np.argmax(~np.isfinite(array.ravel())))
        return CheckResult(
            False, title, f"your {what} contain NaN or inf (first at flat index {first})."
        )
    close = np.isclose(array, reference, rtol=rtol, atol=atol)
    if close.all():
        return CheckResult(
            True,
            title,
            f"all {array.size} {what} match the reference (relative tolerance {rtol:g}).",
        )
    for alternative, hint in alternatives:
        alternative = np.asarray(alternative, dtype=float)
        if alternative.shape == array.shape and np.allclose(array, alternative, rtol=rtol, atol=atol):
            return CheckResult(False, title, hint)
    hint = generic_hint(array, reference, rtol=rtol, atol=atol)
    if hint:
        return CheckResult(False, title, hint)
    flat = np.argmax(~close.ravel())
    index = np.unravel_index(flat, array.shape)
    index_text = int(index[0]) if len(index) == 1 else tuple(int(i) for i in index)
    worst = np.max(np.abs(array - reference))
    return CheckResult(
        False,
        title,
        f"{np.count_nonzero(~close)} of {array.size} {what} differ from the reference; the first "
        f"is at index {index_text} (yours {array[index]:.6g}, reference {reference[index]:.6g}); "
        f"largest difference {worst:.3g}.",
    )


def check_value(title, answer, reference, *, rtol=1e-6, atol=1e-9, alternatives=(), unit=""):
    """Compare a scalar answer with a computed reference; see :func:`check_array`.

    The answer must be one real number (a one-element array counts); True/False, complex
    numbers and text are never correct. The reference must be one finite real number: None,
    NaN, inf or several numbers raise ValueError naming ``reference`` (the lab author's error,
    not the student's), as do tolerances that are not finite numbers >= 0.

    Examples
    --------
    >>> from simlab.course.check import check_value
    >>> print(check_value("y(2)", 11.778, 11.778112, rtol=1e-4))
    [correct] y(2): 11.778 matches the reference 11.7781.
    >>> print(check_value("y(2)", True, 1.0))
    [not yet] y(2): expected a single real number, got True/False.
    """
    from simlab.validation import describe

    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    given = reference  # the lab's: a missing or non-finite reference is the author's error, not the student's
    try:
        reference = float(np.asarray(given, dtype=float).item())
    except (TypeError, ValueError):  # None converts to NaN; text, arrays of several numbers refuse
        reference = math.nan
    if given is None or not math.isfinite(reference):
        raise ValueError(f"reference must be one finite real number computed by the lab, got "
                         f"{describe(given)}: a missing or non-finite reference is an error in the lab's "
                         f"check, not in the student's answer.")
    if isinstance(answer, (bool, np.bool_)):
        return CheckResult(False, title, "expected a single real number, got True/False.")
    array, problem = _as_real(answer)
    if problem or array.size != 1:
        got = problem or f"got {array.size} numbers (shape {array.shape})"
        return CheckResult(False, title, f"expected a single real number, {got}.")
    value = float(array.ravel()[0])
    suffix = f" {unit}" if unit else ""
    if not np.isfinite(value):
        return CheckResult(False, title, f"your value is {value}; expected a finite number.")
    if np.isclose(value, reference, rtol=rtol, atol=atol):
        return CheckResult(True, title, f"{value:.6g}{suffix} matches the reference {reference:.6g}{suffix}.")
    for alternative, hint in alternatives:
        if np.isclose(value, float(alternative), rtol=rtol, atol=atol):
            return CheckResult(False, title, f"{value:.6g}{suffix}: {hint}")
    hint = generic_hint(np.array([value]), np.array([reference]), rtol=rtol, atol=atol, single=True)
    if hint:
        return CheckResult(False, title, f"{value:.6g}{suffix}: {hint}")
    return CheckResult(
        False,
        title,
        f"your value {value:.6g}{suffix} differs from the reference by {value - reference:+.3g}{suffix}.",
    )


def all_of(title, results):
    """One result for several checks: correct when all are; otherwise the first that is not.

    Every result is listed under the message, so that a student sees each part.
    """
    results = tuple(results)
    failed = [result for result in results if not result.passed]
    details = tuple(str(result) for result in results)
    if not failed:
        return CheckResult(True, title, f"all {len(results)} parts are correct.", details)
    return CheckResult(False, title, f"{len(failed)} of {len(results)} parts are not yet correct; "
                       f"the first: {failed[0].title}: {failed[0].message}", details)


# ---------------------------------------------------------------------------------------------
# The tasks of a lab
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One task of a lab: what it defines in the notebook and how it is checked.

    Attributes
    ----------
    name : str
        The task's label in the notebook ("2", "A1").
    answers : tuple of str
        Names the task's cell defines in the notebook, passed to ``check`` in this order.
    check : callable ``check(*answers, **parameters) -> CheckResult``
        The self-check.
    parameters : tuple of str
        Notebook names the reference depends on (``"h"``, ``"t0"``, ...), passed to ``check``
        and ``reference`` as keywords when the notebook defines them (else the lab's defaults,
        the keyword defaults of ``check``, apply).
    reference : callable ``reference(**parameters) -> dict``, optional
        The reference answers ``{name: value}``, for later cells that need an answer of this
        task while it is not done (see :meth:`Tasks.take`).
    title : str
        Short description, for messages and the grader's feedback.
    also : tuple of str
        Further names the task defines that later cells use but the check does not (an
        intermediate result, the object a library call returned); ``reference`` gives them too.
    """

    name: str
    answers: tuple
    check: Callable
    parameters: tuple = ()
    reference: Callable | None = None
    title: str = ""
    also: tuple = ()


def _keywords(function):
    """Names ``function`` accepts as keywords (all of them for ``**kwargs``: None)."""
    if function is None:
        return set()
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return set()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()):
        return None
    return {name for name, p in signature.parameters.items()
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)}


class Tasks(Mapping):
    """The tasks of a lab, by name; checks and references read the notebook's own variables.

    A lab module defines ``TASKS = Tasks(Task(...), ..., parameters=PARAMETERS)`` and exposes
    ``check = TASKS.check`` and ``take = TASKS.take``. Called from a notebook cell, both read the
    variables of the notebook (its global namespace); pass ``namespace=`` to use another mapping
    (the grader and the tests do).

    With the lab's parameter contract (:class:`simlab.course.parameters.Parameters`), every
    declared parameter that a task's check (or reference) takes as a keyword is passed from the
    notebook (its default where the notebook does not define it): no check reads a lab constant
    where a parameter exists. A value that breaks its rule makes the check say so; a check's
    result names the parameter values it used.
    """

    def __init__(self, *tasks, parameters=None):
        self._tasks = {}
        for task in tasks:
            if not isinstance(task, Task):
                raise TypeError(f"Tasks takes Task objects, got {type(task).__name__}.")
            if task.name in self._tasks:
                raise ValueError(f"two tasks are called {task.name!r}.")
            self._tasks[task.name] = task
        self._owner = {name: task for task in tasks for name in task.answers + task.also}
        self.contract = parameters
        declared = set(parameters or ())
        for task in tasks:
            undeclared = set(task.parameters) - declared
            if parameters is not None and undeclared:
                raise ValueError(f"Task {task.name} names parameters that the lab does not declare: "
                                 f"{', '.join(sorted(undeclared))}.")

    def __getitem__(self, name):
        try:
            return self._tasks[name]
        except KeyError:
            raise KeyError(f"no task {name!r}; the tasks are {', '.join(self._tasks)}.") from None

    def __iter__(self):
        return iter(self._tasks)

    def __len__(self):
        return len(self._tasks)

    @staticmethod
    def _caller_namespace(namespace, depth=2):
        if namespace is not None:
            return namespace
        return sys._getframe(depth).f_globals

    def parameter_names(self, name, function=None):
        """The parameters task ``name`` passes to its check (or to ``function``): the task's own
        list and every declared parameter the function takes as a keyword, in declaration order."""
        task = self[name]
        function = task.check if function is None else function
        accepted = _keywords(function)
        declared = [key for key in (self.contract or ()) if accepted is None and key in task.parameters
                    or accepted is not None and key in accepted]
        return tuple(dict.fromkeys([*declared, *task.parameters]))

    def parameters(self, name, namespace, function=None):
        """The parameters of task ``name`` with the notebook's values (declared defaults for the rest)."""
        values = self.contract.notebook_values(namespace) if self.contract is not None else {}
        return {key: namespace[key] if key in namespace else values[key]
                for key in self.parameter_names(name, function) if key in namespace or key in values}

    def missing(self, name, namespace):
        """Names of task ``name``'s answers that ``namespace`` does not define."""
        return [answer for answer in self[name].answers if answer not in namespace]

    def check(self, name, namespace=None, **answers):
        """Check task ``name`` with the answers and parameters defined in the notebook.

        Returns ``[not yet] Task X is not done yet`` when an answer is not defined, and the
        check's own result otherwise, with a last line that names the parameter values used.
        Keyword arguments give answers explicitly (for example ``check("2", y_euler=y_seed)`` to
        see what the check of Task 2 says about other numbers).
        """
        namespace = self._caller_namespace(namespace)
        task = self[name]
        unknown = set(answers) - set(task.answers)
        if unknown:
            raise TypeError(f"Task {name} has the answers {', '.join(task.answers)}; got {', '.join(sorted(unknown))}.")
        namespace = {**namespace, **answers} if answers else namespace
        missing = self.missing(name, namespace)
        if missing:
            names = ", ".join(missing)
            return not_done(name, f"{names} {'is' if len(missing) == 1 else 'are'} not defined; "
                                  f"do the task in the cell above (replace `raise NotImplementedError` "
                                  f"with your code) and run it.")
        parameters = self.parameters(name, namespace)
        if self.contract is not None:
            broken = [problem for key, problem in self.contract.broken(namespace).items() if key in parameters]
            if broken:
                return CheckResult(False, f"Task {name}", f"{broken[0]} Change it in the parameter cell and run "
                                                         f"the lab again.")
        answers = [namespace[answer] for answer in task.answers]
        try:
            result = task.check(*answers, **parameters)
        except NotImplementedError:  # a function of the task that still holds its stub
            return not_done(name, "a function of this task still raises NotImplementedError; replace "
                                  "`raise NotImplementedError` in it with your code and run its cell.")
        return self._with_parameters(result, parameters)

    def _with_parameters(self, result, parameters):
        """``result`` with a last line naming the declared parameter values the check used."""
        if self.contract is None or not isinstance(result, CheckResult):
            return result
        used = [key for key in parameters if key in self.contract]
        if not used:
            return result
        text = ", ".join(self.contract[key].describe(parameters[key]) for key in used)
        return replace(result, details=result.details + (f"(checked with {text})",))

    def take(self, *names, namespace=None):
        """The notebook's values of ``names``, with the reference for those not defined yet.

        Returns a namespace with one attribute per name. For every task whose answer is missing
        it prints one line, ``Task X is not done yet: this cell uses the reference ...``. The
        notebook's own variables are never changed.
        """
        namespace = self._caller_namespace(namespace)
        values, borrowed = {}, {}
        for name in names:
            if name in namespace:
                values[name] = namespace[name]
                continue
            task = self._owner.get(name)
            if task is None or task.reference is None:
                raise KeyError(f"{name!r} is not defined and no task of this lab gives a reference for it.")
            borrowed.setdefault(task.name, []).append(name)
        for task_name, missing in borrowed.items():
            task = self[task_name]
            reference = task.reference(**self.parameters(task_name, namespace, task.reference))
            values.update({name: reference[name] for name in missing})
            print(f"Task {task_name} is not done yet: this cell uses the reference {', '.join(missing)}.")
        return SimpleNamespace(**values)


@dataclass(frozen=True)
class Mistake:
    """A typical mistake in a task, and the hint its self-check must give (the lab's catalogue).

    Attributes
    ----------
    task : str
        The task's name.
    what : str
        The mistake in a few words.
    correct, wrong : str
        A piece of the solution's code and what the mistake makes of it (a textual edit of the
        task cell: the tests and the grader apply it to the solution notebook).
    hint : str
        Text that the task's check must print for the mistaken answer.
    """

    task: str
    what: str
    correct: str
    wrong: str
    hint: str
