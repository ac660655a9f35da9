"""The grader's value format: a notebook's answers written as data, never as code.

``simlab grade`` (:mod:`simlab.course.grade`) reads each task's answers out of a student's kernel
*by value*: an extraction cell calls :func:`dump_names`, which writes them with :func:`encode`
into a JSON file, and the grader's own process reads them back with :func:`decode`, which only
ever builds plain data with the grader's own constructors. No pickle: whatever a student's
kernel writes into the file, reading it runs none of the student's code, and no object can come
out of it that fakes equality or a passed check.

What an answer may be, and how it is written (every JSON object of the format has exactly one
key, its tag):

* ``None``, ``bool``, ``int``, ``float``, ``str`` and lists of values: JSON itself;
* ``complex``: ``{"__complex__": [re, im]}``; tuples and dicts: ``{"__tuple__": [...]}``,
  ``{"__dict__": [[key, value], ...]}`` (keys are values too);
* numpy arrays and scalars of numbers or booleans: ``{"__ndarray__": [dtype, shape, base64]}``,
  ``{"__npscalar__": [dtype, base64]}`` (the exact bytes); arrays of other objects:
  ``{"__ndarray_items__": [shape, [item, ...]]}``;
* sympy expressions and matrices: ``{"__sympy__": srepr}``, rebuilt by a parser that only calls
  sympy's classes on literal arguments (:func:`sympy_from_srepr`);
* the frozen result dataclasses of simlab (``StructureResult``, ``Trajectory``, a lab's results):
  ``{"__dataclass__": ["module:Class", {field: value}]}``, rebuilt by the class's constructor;
* python-control's ``TransferFunction``: ``{"__control_tf__": [num, den, dt]}``;
* a function (any callable) that is itself an answer: ``{"__callable__": name}``. The grader
  does not read its code: each call that the check makes is sent to the student's kernel, which
  runs the function there (:func:`serve_call`) and sends back the returned value in this format.

Anything else (a student-defined class, a self-check's ``CheckResult``, an object whose ``==``
always says True, a module) is written ``{"__unsupported__": [type, reason]}`` and decodes to
:class:`Ungradable`: the grader marks the task "error: cannot be graded" and says why.

Used by :mod:`simlab.course.grade_worker` (the grader) and, inside the student's kernel, by the
cells the grader adds after the student's cells.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import json
import re
import sys

import numpy as np

__all__ = ["Ungradable", "encode", "decode", "dump_names", "load_names", "serve_call", "sympy_from_srepr",
           "describe"]

#: Deepest nesting of containers that is written or read.
MAX_DEPTH = 40
#: Largest sympy expression read (nodes of its srepr).
MAX_SYMPY_NODES = 200_000
#: Modules whose dataclasses are never answers (the self-check machinery and the grader).
_NOT_ANSWERS = ("simlab.course.check", "simlab.course.grade", "simlab.course.grade_worker",
                "simlab.course.grade_values")
_NUMBER_KINDS = "biufc"


@dataclasses.dataclass(frozen=True)
class Ungradable:
    """An answer the grader cannot read as data: its type and why (the task is graded "error").

    Attributes
    ----------
    type_name : str
        The qualified name of the answer's type in the student's kernel, e.g. ``"__main__.Fake"``.
    reason : str
        Why it cannot be graded, for the feedback.
    """

    type_name: str
    reason: str


def describe(value):
    """Short description of a value for feedback: ``"a CheckResult"``, ``"an array of shape (3,)"``."""
    if isinstance(value, Ungradable):
        return f"a {value.type_name} ({value.reason})"
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a {type(value).__name__}"


# ---------------------------------------------------------------------------------------------
# Writing (in the student's kernel, and in the grader for the arguments of a call)
# ---------------------------------------------------------------------------------------------


def _qualified(value):
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def _unsupported(value, reason):
    return {"__unsupported__": [_qualified(value), reason]}


def _bytes(array):
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def _encode_array(value, depth):
    array = np.asarray(value)  # an ndarray subclass is written as its plain data
    if array.dtype.kind in _NUMBER_KINDS:
        return {"__ndarray__": [array.dtype.str, list(array.shape), _bytes(array)]}
    items = [encode(item, depth + 1) for item in array.ravel().tolist()]
    return {"__ndarray_items__": [list(array.shape), items]}


def _encode_dataclass(value, depth):
    kind = type(value)
    module = kind.__module__
    if module in _NOT_ANSWERS:
        return _unsupported(value, "a self-check's result or the grader's own object is not an answer")
    if not module.startswith("simlab.") or not kind.__dataclass_params__.frozen:
        return _unsupported(value, "only simlab's frozen result types are read as data")
    fields = {field.name: encode(getattr(value, field.name), depth + 1)
              for field in dataclasses.fields(value) if field.init}
    return {"__dataclass__": [f"{module}:{kind.__qualname__}", fields]}


def _encode_library_object(value, depth):
    """sympy, python-control and simlab objects, or None when ``value`` is none of them."""
    sympy = sys.modules.get("sympy")
    if sympy is not None and isinstance(value, (sympy.Basic, sympy.MatrixBase)):
        return {"__sympy__": sympy.srepr(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_dataclass(value, depth)
    control = sys.modules.get("control")
    if control is not None and isinstance(value, control.TransferFunction):
        return {"__control_tf__": [encode(value.num, depth + 1), encode(value.den, depth + 1),
                                   encode(value.dt, depth + 1)]}
    return None


def encode(value, depth=0):
    """``value`` as JSON-ready data in the grader's format (see the module docstring).

    Values that are not data are written as unsupported, with their type; a callable is written
    as unsupported here (only :func:`dump_names` writes a top-level answer as a callable).
    """
    if depth > MAX_DEPTH:
        return _unsupported(value, f"nested more than {MAX_DEPTH} levels deep")
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) and not isinstance(value, np.generic):
        return int(value)
    if isinstance(value, float) and not isinstance(value, np.generic):
        return float(value)
    if isinstance(value, complex) and not isinstance(value, np.generic):
        return {"__complex__": [float(value.real), float(value.imag)]}
    if isinstance(value, np.generic):
        if value.dtype.kind in _NUMBER_KINDS:
            return {"__npscalar__": [value.dtype.str, _bytes(np.asarray(value))]}
        return _unsupported(value, f"a numpy scalar of dtype {value.dtype}")
    if isinstance(value, np.ndarray):
        return _encode_array(value, depth)
    if isinstance(value, (list, tuple)):  # subclasses (a named tuple) are written as their items
        items = [encode(item, depth + 1) for item in value]
        return items if isinstance(value, list) else {"__tuple__": items}
    if isinstance(value, dict):
        return {"__dict__": [[encode(key, depth + 1), encode(item, depth + 1)] for key, item in value.items()]}
    written = _encode_library_object(value, depth)
    if written is not None:
        return written
    if callable(value):
        return _unsupported(value, "a function inside another value")
    return _unsupported(value, "not a number, array, expression or other data the checks read")


def dump_names(namespace, names, path):
    """Write the values of ``names`` that ``namespace`` defines to ``path`` (the extraction cell).

    A callable answer is written as ``{"__callable__": name}``; the grader calls it through
    :func:`serve_call`. Runs in the student's kernel.
    """
    values = {}
    for name in names:
        if name not in namespace:
            continue
        value = namespace[name]
        try:
            written = encode(value)
            if callable(value) and "__unsupported__" in (written if isinstance(written, dict) else {}):
                written = {"__callable__": name}
        except Exception as error:  # noqa: BLE001 - any failure is reported as the answer's problem
            written = {"__unsupported__": [_qualified(value), f"writing it failed: {type(error).__name__}"]}
        values[name] = written
    with open(path, "w", encoding="utf-8") as stream:
        json.dump({"values": values}, stream)


def serve_call(namespace, name, in_path, out_path):
    """Call the student's function ``namespace[name]`` with the arguments in ``in_path`` (in the kernel).

    Writes ``{"returned": value}`` or ``{"raised": [module, type name, message]}`` to ``out_path``.
    """
    with open(in_path, encoding="utf-8") as stream:
        request = json.load(stream)
    args, kwargs = decode(request["args"]), decode(request["kwargs"])
    try:
        reply = {"returned": encode(namespace[name](*args, **kwargs))}
    except BaseException as error:  # noqa: BLE001 - reported to the grader, which decides
        reply = {"raised": [type(error).__module__, type(error).__name__, str(error)[:2000]]}
    with open(out_path, "w", encoding="utf-8") as stream:
        json.dump(reply, stream)


# ---------------------------------------------------------------------------------------------
# Reading (in the grader: the data is untrusted)
# ---------------------------------------------------------------------------------------------


class FormatError(ValueError):
    """Data that is not in the grader's format."""


_FLOAT_TEXT = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^[-+]?inf$|^nan$")
_SYMBOL_NAME = re.compile(r"^[\w{}^\\]{1,200}$")
#: sympy classes whose first argument is a name or a number written as text.
_NAMED = {"Symbol", "Dummy", "Wild", "Function", "Float"}


def _array_from_bytes(dtype, shape, data):
    dtype = np.dtype(dtype)
    if dtype.kind not in _NUMBER_KINDS or dtype.hasobject:
        raise FormatError(f"arrays of dtype {dtype} are not data")
    if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise FormatError("bad array shape")
    raw = base64.b64decode(data, validate=True)
    if len(raw) != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
        raise FormatError("array data and shape disagree")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def _items_array(shape, items, depth):
    values = [decode(item, depth + 1) for item in items]
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array.reshape(shape)


def _dataclass(path, fields, depth):
    module_name, _, qualname = str(path).partition(":")
    module = sys.modules.get(module_name)  # only classes of modules the grader has imported
    if not module_name.startswith("simlab.") or module_name in _NOT_ANSWERS or module is None:
        raise FormatError(f"{path} is not one of simlab's result types")
    kind = getattr(module, qualname, None)
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen):
        raise FormatError(f"{path} is not one of simlab's result types")
    return kind(**{str(name): decode(value, depth + 1) for name, value in fields.items()})


def _transfer_function(num, den, dt, depth):
    import control

    num, den, dt = (decode(part, depth + 1) for part in (num, den, dt))
    for part in (num, den):
        if not (isinstance(part, list) and all(isinstance(row, list) and all(isinstance(c, np.ndarray) for c in row)
                                               for row in part)):
            raise FormatError("a transfer function's num and den are lists of lists of arrays")
    return control.TransferFunction(num, den, dt)


def _decode_tagged(tag, body, depth, make_callable):
    if tag == "__tuple__":
        return tuple(decode(item, depth + 1) for item in body)
    if tag == "__dict__":
        return {decode(key, depth + 1): decode(value, depth + 1) for key, value in body}
    if tag == "__complex__":
        return complex(float(body[0]), float(body[1]))
    if tag == "__ndarray__":
        return _array_from_bytes(*body)
    if tag == "__npscalar__":
        return _array_from_bytes(body[0], [], body[1])[()]
    if tag == "__ndarray_items__":
        return _items_array(body[0], body[1], depth)
    if tag == "__sympy__":
        return sympy_from_srepr(body)
    if tag == "__dataclass__":
        return _dataclass(body[0], body[1], depth)
    if tag == "__control_tf__":
        return _transfer_function(*body, depth)
    if tag == "__callable__":
        if make_callable is None or depth:
            return Ungradable("function", "a function inside another value")
        return make_callable(str(body))
    if tag == "__unsupported__":
        return Ungradable(str(body[0]), str(body[1]))
    raise FormatError(f"unknown tag {tag!r}")


def decode(data, depth=0, make_callable=None):
    """The value that :func:`encode` wrote, built only from plain data (the input is untrusted).

    Parameters
    ----------
    data : object
        Parsed JSON.
    make_callable : callable ``make_callable(name)``, optional
        What a top-level ``{"__callable__": name}`` becomes (the grader's proxy that calls the
        student's function in the kernel); without it, :class:`Ungradable`.

    Raises
    ------
    FormatError
        If ``data`` is not in the format (a tampered file).
    """
    if depth > MAX_DEPTH:
        raise FormatError("nested too deeply")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(item, depth + 1) for item in data]
    if isinstance(data, dict) and len(data) == 1:
        (tag, body), = data.items()
        try:
            return _decode_tagged(tag, body, depth, make_callable)
        except FormatError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, SyntaxError) as error:
            raise FormatError(f"bad {tag} value: {type(error).__name__}: {error}") from None
    raise FormatError(f"not in the grader's format: {type(data).__name__}")


def load_names(path, make_callable=None, max_bytes=256 * 2**20):
    """The values in a file written by :func:`dump_names`, by name.

    A value that cannot be read becomes :class:`Ungradable` (with the reason); the others are
    unaffected.

    Raises
    ------
    FormatError
        If the file is missing, too large or not in the format at all.
    """
    try:
        with open(path, "rb") as stream:
            raw = stream.read(max_bytes + 1)
    except OSError as error:
        raise FormatError(f"no answers were written ({error.strerror})") from None
    if len(raw) > max_bytes:
        raise FormatError(f"the answers take more than {max_bytes // 2**20} MB")
    try:
        values = json.loads(raw.decode("utf-8"))["values"]
    except (ValueError, KeyError, TypeError) as error:
        raise FormatError(f"the answers file is not in the grader's format ({type(error).__name__})") from None
    if not isinstance(values, dict):
        raise FormatError("the answers file is not in the grader's format")
    answers = {}
    for name, data in values.items():
        try:
            answers[str(name)] = decode(data, make_callable=make_callable)
        except FormatError as error:
            answers[str(name)] = Ungradable("unreadable value", str(error))
        except RecursionError:
            answers[str(name)] = Ungradable("unreadable value", "nested too deeply")
    return answers


# ---------------------------------------------------------------------------------------------
# sympy expressions from their srepr, without eval
# ---------------------------------------------------------------------------------------------


def _sympy_names(sympy):
    """The names a srepr may use: sympy's classes (constructors) and its constants (pi, I, oo ...)."""
    classes, constants = {}, {}
    for name, value in vars(sympy).items():
        if isinstance(value, type) and issubclass(value, (sympy.Basic, sympy.MatrixBase)):
            classes[name] = value
        elif isinstance(value, sympy.Basic):
            constants[name] = value
    return classes, constants


class _SympyBuilder:
    """Builds a sympy object from the AST of its srepr, calling only sympy's own classes."""

    def __init__(self, sympy):
        self.sympy = sympy
        self.classes, self.constants = _sympy_names(sympy)
        self.nodes = 0

    def build(self, node, text_allowed=False):
        self.nodes += 1
        if self.nodes > MAX_SYMPY_NODES:
            raise FormatError("the expression is too large")
        if isinstance(node, ast.Constant):
            return self._constant(node.value, text_allowed)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
                and isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float):
            return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
        if isinstance(node, ast.Name) and node.id in self.constants:
            return self.constants[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.build(item) for item in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Call):
            return self._call(node)
        raise FormatError(f"{type(node).__name__} in a sympy expression")

    def _constant(self, value, text_allowed):
        if isinstance(value, str) and not text_allowed:
            raise FormatError("text where sympy expects an expression")
        if value is not None and type(value) not in (bool, int, float, str):
            raise FormatError(f"a {type(value).__name__} literal in a sympy expression")
        return value

    def _call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in self.classes:
            name, function = node.func.id, self.classes[node.func.id]
        elif isinstance(node.func, ast.Call):  # Function('y')(t): an undefined function applied
            name, function = "", self.build(node.func)
            if not isinstance(function, self.sympy.FunctionClass):
                raise FormatError("only sympy functions can be applied")
        else:
            raise FormatError("a call of something that is not a sympy class")
        args = [self.build(arg, text_allowed=(index == 0 and name in _NAMED)) for index, arg in enumerate(node.args)]
        if args and isinstance(args[0], str):
            pattern = _FLOAT_TEXT if name == "Float" else _SYMBOL_NAME
            if not pattern.match(args[0]):
                raise FormatError(f"{name}({args[0][:40]!r}): not a {'number' if name == 'Float' else 'plain name'}")
        kwargs = {}
        for keyword in node.keywords:
            value = self.build(keyword.value)
            if keyword.arg is None or not (value is None or type(value) in (bool, int)):
                raise FormatError("keyword arguments of sympy classes are True/False or whole numbers")
            kwargs[keyword.arg] = value
        return function(*args, **kwargs)


def sympy_from_srepr(text):
    """The sympy object whose ``sympy.srepr`` is ``text``, built without ``eval``.

    Only sympy's classes are called, on numbers, True/False, other sympy objects and lists of
    them; text is accepted only as the name of a Symbol, Dummy, Wild or Function (letters,
    digits, ``_``, ``{}``, ``^``, ``\\``) and as the digits of a Float.

    Examples
    --------
    >>> import sympy as sp
    >>> t = sp.Symbol("t")
    >>> sympy_from_srepr(sp.srepr(2 * sp.exp(t) - t - 1)) == 2 * sp.exp(t) - t - 1
    True
    >>> sympy_from_srepr("Symbol(__import__('os').getcwd())")
    Traceback (most recent call last):
    ...
    simlab.course.grade_values.FormatError: a call of something that is not a sympy class
    """
    import sympy

    if not isinstance(text, str):
        raise FormatError("a sympy value is written as its srepr text")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise FormatError("not a sympy srepr") from None
    return _SympyBuilder(sympy).build(tree.body)
