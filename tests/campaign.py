"""A bad-input campaign: every public callable, every argument, a set of invalid values.

A :class:`Spec` gives one valid call of a public callable and, per argument, its kind
(``"real"``, ``"positive"``, ``"vector"``, ``"span"``, ...). The campaign replaces one argument at
a time by each invalid value of its kind and classifies what happens:

* ``clear``: a ``TypeError`` or ``ValueError`` whose message names the argument;
* ``unclear``: another exception, or one whose message does not name the argument;
* ``silent``: the call returned (garbage: an invalid input was accepted);
* ``hang``: the call did not return within the time limit;
* ``mutated``: the call changed one of its array inputs;
* ``printed``: the call wrote to stdout or stderr.

The valid call itself must return and print nothing. The targets of issue 14: at least 99 %
clear, none silent, none hanging, none mutated, none printed.
"""

from __future__ import annotations

import contextlib
import copy
import io
import math
import signal
import warnings
from dataclasses import dataclass, field

import numpy as np

NAN, INF = float("nan"), float("inf")


class _NotNumber:
    def __repr__(self):
        return "<object>"


#: Invalid values per kind of argument. Each is invalid for every argument of its kind.
_REAL = [None, "1.0", NAN, INF, -INF, 1 + 2j, True, [1.0, 2.0], _NotNumber()]
BAD = {
    "real": _REAL,
    "positive": _REAL + [0.0, -1.0],
    "nonneg": _REAL + [-1.0],
    "unit": _REAL + [-0.5, 1.5],  # a number in [0, 1]
    "int": [None, "3", 2.5, NAN, True, [1]],
    "posint": [None, "3", 2.5, NAN, True, 0, -2],
    "callable": [None, 3, "f", [1, 2]],
    "choice": ["no such choice", None, 3, ["zoh"]],
    "span": [None, "ab", 5.0, (1.0, 0.0), (0.0, 0.0), (0.0, NAN), (0.0, INF), (0.0, 1.0, 2.0), ("a", 1.0)],
    "vector": [None, "abc", [[1.0, 2.0], [3.0]], [NAN, 1.0], [INF, 1.0], [1 + 1j, 2.0], [True, False], [], _NotNumber()],
    "coefficients": [None, "abc", [[1.0, 2.0], [3.0]], [NAN, 1.0], [INF, 1.0], [1 + 1j, 2.0], [], _NotNumber()],
    "matrix": [None, "abc", [[1.0, 2.0], [3.0]], [[NAN]], [[INF]], [[1j]], _NotNumber()],
    "bool": ["yes", 2, None, NAN],
    "state": [None, "abc", [NAN], [INF], [1j], _NotNumber()],
}


@dataclass
class Spec:
    """One valid call of ``function`` and the kinds of its arguments.

    ``kinds`` maps an argument name to a kind of :data:`BAD`; ``extra`` lists further invalid
    calls as ``(argument, value)`` pairs (the argument named in the message). ``names`` gives
    other words that name an argument in messages (``{"x0": ("x0", "initial state")}``).
    ``ok`` maps an argument to values of its kind's list that are valid for this callable (a
    documented default such as ``x0=None``, complex states where the function supports them):
    those are skipped.
    """

    label: str
    function: object
    args: dict
    kinds: dict
    extra: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    ok: dict = field(default_factory=dict)
    timeout: float = 10.0


@dataclass
class Outcome:
    label: str
    argument: str
    value: str
    status: str
    detail: str


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


def _names(spec, argument):
    return spec.names.get(argument, (argument,))


def classify(spec, argument, value):
    """Outcome of one invalid call: ``argument`` set to ``value``."""
    args = dict(spec.args)
    args[argument] = value
    before = _snapshot(args)
    status, result, printed = call(spec, args)
    text = repr(value)[:40]
    if status == "hang":
        return Outcome(spec.label, argument, text, "hang", f"no return within {spec.timeout} s")
    if not _unchanged(before, args):
        return Outcome(spec.label, argument, text, "mutated", "an input array was changed")
    if printed:
        return Outcome(spec.label, argument, text, "printed", printed[:100])
    if status == "returned":
        return Outcome(spec.label, argument, text, "silent", f"returned {repr(result)[:80]}")
    message = str(result)
    from simlab.integrators import NonFiniteStateError

    if isinstance(result, NonFiniteStateError) and any(name in message for name in _names(spec, argument)):
        # a run that the argument makes blow up: the library's documented error, naming it
        return Outcome(spec.label, argument, text, "clear", message[:120])
    if not isinstance(result, (TypeError, ValueError)):
        return Outcome(spec.label, argument, text, "unclear", f"{type(result).__name__}: {message[:120]}")
    if not any(name in message for name in _names(spec, argument)):
        return Outcome(spec.label, argument, text, "unclear", f"message does not name {argument}: {message[:120]}")
    return Outcome(spec.label, argument, text, "clear", message[:120])


def run_spec(spec):
    """Every invalid call of ``spec``; first checks that the valid call works quietly.

    The valid call runs twice: once with a generous limit (it may compile kernels on a fresh
    machine), then within ``spec.timeout`` like the invalid calls.
    """
    call(spec, dict(spec.args), timeout=FIRST_CALL_TIMEOUT)
    status, result, printed = call(spec, dict(spec.args))
    if status != "returned" or printed:
        raise AssertionError(f"{spec.label}: the valid call {status}: {result!r} {printed!r}")
    outcomes = []
    for argument, kind in spec.kinds.items():
        for value in BAD[kind]:
            if any(value is allowed or (type(value) is type(allowed) and repr(value) == repr(allowed))
                   for allowed in spec.ok.get(argument, ())):
                continue
            outcomes.append(classify(spec, argument, value))
    for argument, value in spec.extra:
        outcomes.append(classify(spec, argument, value))
    return outcomes


def is_finite_result(result):
    """True if every float in a result (array, number, dataclass of them) is finite."""
    if isinstance(result, (float, np.floating)):
        return math.isfinite(result)
    if isinstance(result, np.ndarray) and result.dtype.kind in "fc":
        return bool(np.all(np.isfinite(result)))
    if isinstance(result, (tuple, list)):
        return all(is_finite_result(item) for item in result)
    if hasattr(result, "__dataclass_fields__"):
        return all(is_finite_result(getattr(result, name)) for name in result.__dataclass_fields__)
    return True
