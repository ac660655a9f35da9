"""A bad-input campaign: every public callable, every argument, a set of invalid and extreme values.

A :class:`Spec` gives one valid call of a public callable and, per argument, its kind
(``"real"``, ``"positive"``, ``"vector"``, ``"span"``, ``"fn_tx"``, ...). The campaign replaces one
argument at a time by each value of its kind and classifies what happens.

Two lists of values per kind:

* :data:`BAD`: invalid values (wrong type, NaN, inf, ragged and empty arrays, a callable with
  the wrong signature, a tolerance that float64 cannot deliver, ...). Each must be refused.
* :func:`edge_values`: extreme values of the argument's type that may be valid: the denormal
  1e-320 and the huge 1e308 for every number (arrays: the valid array scaled to them), huge
  integers, spans of denormal or huge length, absolute tolerances at the edges. Each must be
  refused clearly or give a finite result quietly.

The outcomes:

* ``clear``: a ``TypeError`` or ``ValueError`` (or a documented error of :mod:`simlab.guards`,
  which stops a runaway run, or a ``LookupError`` for an index or key) whose message names the
  argument (as a word, or by one of the words of ``Spec.names``);
* ``accepted``: an extreme value that the callable accepts, with a finite result (a valid call);
* ``unclear``: another exception, or one whose message does not name the argument;
* ``silent``: an invalid value was accepted (the call returned), or an extreme value gave a
  result with inf or NaN in it;
* ``refused``: a call listed as valid (``Spec.valid``) raised;
* ``hang``: the call did not return within ``Spec.timeout`` (a few seconds);
* ``mutated``: the call changed one of its array inputs;
* ``printed``: the call wrote to stdout or stderr (other than simlab.jit's line that it is
  compiling a kernel, which a cold numba cache may show in any call).

The valid call itself must return and print nothing. The target of issue 23: every invalid call
``clear``, every extreme one ``clear`` or ``accepted``; none unclear, silent, refused, hanging,
mutated or printed.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import inspect
import io
import pkgutil
import re
import signal
import warnings
from dataclasses import dataclass, field

import numpy as np

NAN, INF = float("nan"), float("inf")
DENORMAL, HUGE = 1e-320, 1e308


class _NotNumber:
    def __repr__(self):
        return "<object>"


def _shown(text, function):
    """``function`` with the source text the reports show for it (a lambda's repr says nothing)."""
    function.campaign_text = text
    return function


#: Functions of every arity but the expected one: the wrong-signature callables.
WRONG_SIGNATURE = {
    0: _shown("lambda: 0", lambda: 0),
    1: _shown("lambda x: x", lambda x: x),
    2: _shown("lambda t, x: x", lambda t, x: x),
    4: _shown("lambda t, x, y, z: 0", lambda t, x, y, z: 0),
}
_NOT_CALLABLE = [None, 3, "f", [1, 2]]


def _wrong_signatures(arity):
    return [function for count, function in WRONG_SIGNATURE.items() if count != arity]


#: Invalid values per kind of argument. Each is invalid for every argument of its kind.
_REAL = [None, "1.0", NAN, INF, -INF, 1 + 2j, True, [1.0, 2.0], _NotNumber()]
_RAGGED = [[1.0, 2.0], [3.0]]
BAD = {
    "real": _REAL,
    "positive": _REAL + [0.0, -1.0],
    "nonneg": _REAL + [-1.0],
    "unit": _REAL + [-0.5, 1.5],  # a number in [0, 1]
    "int": [None, "3", 2.5, NAN, True, [1], DENORMAL],
    "posint": [None, "3", 2.5, NAN, True, 0, -2, DENORMAL],
    "count": [None, "3", 2.5, NAN, True, -2, DENORMAL],  # a whole number >= 0
    "callable": _NOT_CALLABLE,  # any callable (its call is not fixed)
    "fn_t": _NOT_CALLABLE + _wrong_signatures(1),  # called as u(t)
    "fn_tx": _NOT_CALLABLE + _wrong_signatures(2),  # called as f(t, x)
    "fn_txu": _NOT_CALLABLE + _wrong_signatures(3),  # called as f(t, x, u)
    "choice": ["no such choice", None, 3, ["zoh"]],
    "span": [None, "ab", 5.0, (1.0, 0.0), (0.0, 0.0), (0.0, NAN), (0.0, INF), (0.0, 1.0, 2.0), ("a", 1.0),
             [], [0.0, [1.0, 2.0]], [[0.0, 1.0]], (-HUGE, HUGE)],
    "vector": [None, "abc", _RAGGED, [1.0, [2.0, 3.0]], [NAN, 1.0], [INF, 1.0], [1 + 1j, 2.0], [True, False], [],
               _NotNumber()],
    "coefficients": [None, "abc", _RAGGED, [1.0, [2.0, 3.0]], [NAN, 1.0], [INF, 1.0], [1 + 1j, 2.0], [],
                     _NotNumber()],
    "matrix": [None, "abc", _RAGGED, [[1.0], [2.0, 3.0]], [[NAN]], [[INF]], [[1j]], [], [[]], _NotNumber()],
    "bool": ["yes", 2, None, NAN],
    "state": [None, "abc", [NAN], [INF], [1j], [], [[1.0], [2.0, 3.0]], _NotNumber()],
    # points where a vectorised function is evaluated: an empty array gives an empty result
    "points": [None, "abc", [NAN], [INF], [1j], [[1.0], [2.0, 3.0]], _NotNumber()],
    # a relative tolerance: in (0, 1) and above what float64 can deliver (scipy: 100 eps)
    "rtol": _REAL + [0.0, -1e-6, 1e-300, DENORMAL, 1.0, 5.0, HUGE],
    # an absolute tolerance: positive (any size: it is in the units of the state)
    "atol": _REAL + [0.0, -1e-6],
}

#: Kinds whose arguments are numbers: each gets :func:`edge_values`.
NUMBER_KINDS = ("real", "positive", "nonneg", "unit", "int", "posint", "count", "state", "points", "vector",
                "coefficients", "matrix", "atol")


def _scaled(valid, size):
    """``valid`` (a number or an array) scaled so that its largest magnitude is ``size``; its type kept."""
    array = np.asarray(valid, dtype=float)
    peak = float(np.max(np.abs(array))) if array.size else 0.0
    if not array.size:
        return None
    scaled = np.full(array.shape, size) if peak == 0.0 else array / peak * size
    if isinstance(valid, np.ndarray):
        return scaled
    if isinstance(valid, (list, tuple)):
        return scaled.tolist()
    return float(scaled)


def edge_values(kind, valid):
    """Extreme values of ``kind`` that may be valid: denormal and huge numbers, edge tolerances.

    ``valid`` is the argument's value in the valid call (arrays are scaled from it, keeping their
    shape); None when the call leaves the argument at a default that is not a number.
    """
    if kind in ("real",):
        return [DENORMAL, HUGE, -HUGE]
    if kind in ("positive", "nonneg"):
        return [DENORMAL, HUGE]
    if kind == "unit":
        return [DENORMAL]
    if kind == "int":
        return [10**20, -(10**20)]
    if kind in ("posint", "count"):
        return [10**20]
    if kind == "atol":
        return [1e-300, DENORMAL, 1.0, 5.0, HUGE]
    if kind == "span":
        return [(0.0, DENORMAL), (0.0, HUGE)]
    if kind in ("state", "points", "vector", "coefficients", "matrix") and _is_numeric(valid):
        return [value for value in (_scaled(valid, DENORMAL), _scaled(valid, HUGE)) if value is not None]
    return []


def _is_numeric(value):
    if value is None or isinstance(value, (bool, str)):
        return False
    try:
        array = np.asarray(value)
    except Exception:  # noqa: BLE001 - ragged and the like
        return False
    return array.dtype.kind in "iuf" and array.size > 0


@dataclass
class Spec:
    """One valid call of ``function`` and the kinds of its arguments.

    ``kinds`` maps an argument name to a kind of :data:`BAD`; ``extra`` lists further invalid
    calls as ``(argument, value)`` pairs (the argument named in the message). ``names`` gives
    other words that name an argument in messages (``{"x0": ("x0", "initial state")}``).
    ``ok`` maps an argument to values of its kind's lists that are valid for this callable (a
    documented default such as ``x0=None``, complex states where the function supports them):
    those are skipped. ``edge`` lists further extreme calls (refused clearly, or a finite result
    within the time limit: a runaway run). ``valid`` lists ``(argument, value)`` calls that are
    valid and must return a finite result quietly (an extreme but meaningful input).
    ``result_ok(result)`` replaces :func:`is_finite_result` where a NaN is a documented answer.
    ``timeout`` is the time limit of every call after the first valid one, in seconds: a
    runaway run is found within it.
    """

    label: str
    function: object
    args: dict
    kinds: dict
    extra: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    ok: dict = field(default_factory=dict)
    edge: list = field(default_factory=list)
    valid: list = field(default_factory=list)
    timeout: float = 3.0
    result_ok: object = None


@dataclass
class Outcome:
    label: str
    argument: str
    value: str
    status: str
    detail: str
    kind: str = "extra"  # the kind of the argument, or "extra", "edge", "valid"
    group: str = "other"  # the class of input (:func:`input_class`)


#: The outcomes that meet the target.
GOOD = ("clear", "accepted")
STATUSES = ("clear", "accepted", "unclear", "silent", "refused", "hang", "mutated", "printed")


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _snapshot(args):
    return {key: copy.deepcopy(value) for key, value in args.items() if isinstance(value, (np.ndarray, list))}


def _unchanged(before, args):
    for key, value in before.items():
        now = args[key]
        try:
            if isinstance(value, np.ndarray):
                if not (now.shape == value.shape and np.array_equal(now, value, equal_nan=True)):
                    return False
            elif now != value:
                return False
        except Exception:  # noqa: BLE001 - a comparison that fails counts as unchanged
            pass
    return True


#: The line simlab.jit writes when it compiles a kernel (cold numba cache): not a print of the call.
COMPILE_NOTICE = re.compile(r"^simlab: compiling \S+ with numba \(.*\) \.\.\.\n?", re.MULTILINE)

#: Time limit of the first valid call, which may compile the kernels it runs (numba, on a fresh
#: machine: seconds per loop) before the invalid calls are timed with ``Spec.timeout``.
FIRST_CALL_TIMEOUT = 300.0


def call(spec, args, timeout=None):
    """Call ``spec.function(**args)``: (status, exception or result, printed text)."""
    stream = io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, spec.timeout if timeout is None else timeout)
    try:
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = spec.function(**args)
        return "returned", result, stream.getvalue()
    except _Timeout:
        return "hang", None, stream.getvalue()
    except Exception as error:  # noqa: BLE001 - classified below
        return "raised", error, stream.getvalue()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def show(value):
    """A short text for ``value`` in a report."""
    text = getattr(value, "campaign_text", None)
    if text is None:
        text = repr(value) if not isinstance(value, np.ndarray) else f"array({value.tolist()!r})"
    return text if len(text) <= 48 else text[:45] + "..."


def names_argument(message, names):
    """True if ``message`` names the argument by one of ``names``, as a word (``h`` is not in ``h_max``)."""
    return any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message) for name in names)


def _guard_errors():
    """The documented errors of :mod:`simlab.guards` (a runaway run stopped, with its cause)."""
    from simlab import guards

    errors = tuple(value for value in vars(guards).values()
                   if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == guards.__name__)
    return errors


def _raised(spec, argument, text, kind, error):
    message = str(error)
    names = spec.names.get(argument, (argument,))
    if not isinstance(error, (TypeError, ValueError, LookupError) + _guard_errors()):
        return Outcome(spec.label, argument, text, "unclear", f"{type(error).__name__}: {message[:160]}", kind)
    if not names_argument(message, names):
        return Outcome(spec.label, argument, text, "unclear",
                       f"message does not name {argument}: {type(error).__name__}: {message[:160]}", kind)
    return Outcome(spec.label, argument, text, "clear", message[:160], kind)


def classify(spec, argument, value, kind="extra"):
    """Outcome of one call with ``argument`` set to ``value``.

    ``kind`` says what the value is: the argument's kind or ``"extra"`` (invalid: it must be
    refused), ``"edge"`` (extreme: refused clearly or a finite result), ``"valid"`` (it must
    give a finite result).
    """
    args = dict(spec.args)
    args[argument] = value
    before = _snapshot(args)
    status, result, printed = call(spec, args)
    printed = COMPILE_NOTICE.sub("", printed)
    text = show(value)
    if status == "hang":
        return Outcome(spec.label, argument, text, "hang", f"no return within {spec.timeout} s", kind)
    if not _unchanged(before, args):
        return Outcome(spec.label, argument, text, "mutated", "an input array was changed", kind)
    if printed:
        return Outcome(spec.label, argument, text, "printed", printed[:100], kind)
    if status == "returned":
        if kind not in ("edge", "valid"):
            return Outcome(spec.label, argument, text, "silent", f"returned {show(result)}", kind)
        if not (spec.result_ok or is_finite_result)(result):
            return Outcome(spec.label, argument, text, "silent", f"returned inf or NaN: {repr(result)[:120]}", kind)
        return Outcome(spec.label, argument, text, "accepted", f"returned {show(result)}", kind)
    if kind == "valid":
        return Outcome(spec.label, argument, text, "refused", f"{type(result).__name__}: {str(result)[:160]}", kind)
    return _raised(spec, argument, text, kind, result)


def _default(spec, argument):
    """The argument's value in the valid call: given, or the callable's default (None if unknown)."""
    if argument in spec.args:
        return spec.args[argument]
    try:
        parameter = inspect.signature(spec.function).parameters.get(argument)
    except (TypeError, ValueError):
        return None
    return None if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default


def _skipped(spec, argument, value):
    return any(value is allowed or (type(value) is type(allowed) and repr(value) == repr(allowed))
               for allowed in spec.ok.get(argument, ()))


#: The classes of input of issue 23's campaign, in the order of the summary.
INPUT_CLASSES = ("wrong signature", "ragged or empty array", "denormal or huge number", "tolerance at the edge",
                 "other invalid value", "further call of a spec")


def _ragged_or_empty(value):
    if isinstance(value, np.ndarray):
        return value.size == 0
    if not isinstance(value, (list, tuple)):
        return False
    if len(value) == 0 or any(isinstance(item, (list, tuple)) and len(item) == 0 for item in value):
        return True
    try:
        np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return any(isinstance(item, (list, tuple)) for item in value)
    return False


def input_class(kind, value, group):
    """The class of input of one call: ``kind`` is the argument's kind, ``group`` "bad", "edge" or "spec"."""
    if any(value is function for function in WRONG_SIGNATURE.values()):
        return "wrong signature"
    if kind in ("rtol", "atol") and isinstance(value, float):
        return "tolerance at the edge"
    if group != "spec" and _ragged_or_empty(value):
        return "ragged or empty array"
    if group == "edge":
        return "denormal or huge number"
    return "other invalid value" if group == "bad" else "further call of a spec"


def calls(spec):
    """Every (argument, value, kind, class of input) that :func:`run_spec` tries, in order."""
    planned = []
    for argument, kind in spec.kinds.items():
        planned += [(argument, value, kind, input_class(kind, value, "bad")) for value in BAD[kind]]
        if kind in NUMBER_KINDS or kind == "span":
            planned += [(argument, value, "edge", input_class(kind, value, "edge"))
                        for value in edge_values(kind, _default(spec, argument))]
    for kind, pairs in (("extra", spec.extra), ("edge", spec.edge), ("valid", spec.valid)):
        planned += [(argument, value, kind, input_class(None, value, "spec")) for argument, value in pairs]
    return [call_ for call_ in planned if not _skipped(spec, call_[0], call_[1])]


def run_spec(spec):
    """Every call of ``spec``; first checks that the valid call works quietly.

    The valid call runs twice: once with a generous limit (it may compile kernels on a fresh
    machine), then within ``spec.timeout`` like the others.
    """
    call(spec, dict(spec.args), timeout=FIRST_CALL_TIMEOUT)
    status, result, printed = call(spec, dict(spec.args))
    if status != "returned" or printed:
        raise AssertionError(f"{spec.label}: the valid call {status}: {result!r} {printed!r}")
    outcomes = []
    for argument, value, kind, group in calls(spec):
        outcomes.append(classify(spec, argument, value, kind))
        outcomes[-1].group = group
    return outcomes


def is_finite_result(result):
    """True if every float in a result (array, number, dataclass of them) is finite."""
    if isinstance(result, (float, np.floating, complex, np.complexfloating)):
        return bool(np.isfinite(result))
    if isinstance(result, np.ndarray) and result.dtype.kind in "fc":
        return bool(np.all(np.isfinite(result)))
    if isinstance(result, (tuple, list)):
        return all(is_finite_result(item) for item in result)
    if hasattr(result, "__dataclass_fields__"):
        return all(is_finite_result(getattr(result, name)) for name in result.__dataclass_fields__)
    return True


# --- The library's public callables, to compare with what the campaign calls ---


def library_modules():
    """The modules of the library (simlab without the course layer)."""
    import simlab

    names = [info.name for info in pkgutil.walk_packages(simlab.__path__, "simlab.")
             if not info.name.startswith("simlab.course") and not info.name.endswith("__main__")]
    return ["simlab", *sorted(names)]


def public_callables():
    """``{canonical name: set of short names}`` of every public function, class and method with arguments.

    The canonical name is ``module.qualname`` where the object is defined; the short names are
    ``<module's last part>.<name>`` for every module that exports it (``friction.stribeck``,
    ``models.stribeck``) and ``<Class>.<method>`` for a method: the first word of a
    :class:`Spec`'s label is one of them.
    """
    found = {}
    for module_name in library_modules():
        module = importlib.import_module(module_name)
        short = module_name.split(".")[-1]
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if not (inspect.isfunction(value) or inspect.isclass(value)):
                continue
            canonical = f"{value.__module__}.{value.__qualname__}"
            if _takes_arguments(value):
                found.setdefault(canonical, set()).add(f"{short}.{name}")
            if inspect.isclass(value):
                for method, member in vars(value).items():
                    if method.startswith("_") or isinstance(member, property):
                        continue
                    function = getattr(member, "__func__", member)
                    if inspect.isfunction(function) and _takes_arguments(function):
                        found.setdefault(f"{canonical}.{method}", set()).add(f"{value.__name__}.{method}")
    return found


def _takes_arguments(value):
    """False for a callable without arguments (besides self or cls): it has no bad input."""
    if inspect.isclass(value) and issubclass(value, BaseException):
        return False  # an exception is raised, not called with a user's values
    try:
        parameters = inspect.signature(value).parameters
    except (TypeError, ValueError):
        return True
    return any(name not in ("self", "cls") for name in parameters)


def covered(specs, public):
    """The canonical names of ``public`` that some spec calls (the first word of its label)."""
    by_short = {short: canonical for canonical, shorts in public.items() for short in shorts}
    return {by_short[spec.label.split()[0]] for spec in specs if spec.label.split()[0] in by_short}


def module_of(spec, public):
    """The library module of the callable ``spec`` calls (``simlab.delay`` for ``DelayLine.step``)."""
    by_short = {short: canonical for canonical, shorts in public.items() for short in shorts}
    word = spec.label.split()[0]
    classes = {canonical.split(".")[-1]: canonical for canonical in public}
    canonical = by_short.get(word) or classes.get(word.split(".")[0].removesuffix("()"))
    if canonical is None:
        function = getattr(spec.function, "__func__", spec.function)
        return getattr(function, "__module__", "?")
    modules = [name for name in library_modules() if canonical.startswith(name + ".")]
    return max(modules, key=len) if modules else "?"
