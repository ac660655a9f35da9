"""Optional compilation of the library's loops (kernels), with one source for both paths.

A *kernel* is a plain Python function over floats and numpy arrays that reads like the
lecture's equations (a bristle update, the step loop of the spring-block). :func:`kernel` marks
such a function and returns it unchanged, so that calling it runs plain Python.
:func:`compiled` returns the version a simulator loops with: the same function compiled by
numba when numba is installed (``pip install simlab[fast]``) and compilation is not switched off
(environment variable ``SIMLAB_JIT=0``), else the function itself. There is no second
implementation: numba compiles the very function that runs without it, and every kernel it
calls (kernels call kernels by name; :func:`compiled` teaches numba those names). Compiled code
is cached on disk (numba's ``cache=True``), so the compile time (about a second per kernel, over
10 s for the drive and cylinder loops on a loaded machine) is paid once per machine.

A real compilation says so, once per process and kernel, on stderr, before it starts: ``simlab:
compiling drive_rk4 with numba (once per machine; cached afterwards) ...``. A kernel loaded from
numba's cache says nothing (the message comes from numba's ``numba:compile`` event, which a cache
hit does not raise), and neither does a compilation inside a Jupyter kernel: there the cell shows
that it is busy, and a line on stderr would become an output of the cell (which the notebook
tests compare with the stored one, and which CI runs with a cold cache).

numba is imported only when a compiled kernel is first asked for: ``import simlab`` stays as
cheap as without it. ``tests/test_jit.py`` runs every kernel both ways and compares.

Helpers that kernels use to work on floats and arrays alike (:func:`exp`, :func:`sign`) are
defined here, with their numba versions.
"""

from __future__ import annotations

import math
import os
import sys
import types

import numpy as np

__all__ = ["kernel", "compiled", "jit_enabled", "numba_available", "exp", "sign", "KERNELS"]

#: The registered kernels, by qualified name.
KERNELS = {}
_COMPILED = {}
_STATE = {}


def exp(x):
    """e^x for a float (``math.exp``, fast in a Python loop) or an array (``numpy.exp``)."""
    return math.exp(x) if type(x) is float else np.exp(x)


def sign(v):
    """sgn(v): -1.0, 0.0 or 1.0 for a float, ``numpy.sign`` for an array."""
    if type(v) is float:
        return 1.0 if v > 0.0 else (-1.0 if v < 0.0 else 0.0)
    return np.sign(v)


def kernel(function):
    """Mark ``function`` as a kernel: it may be compiled by :func:`compiled`; returned unchanged."""
    KERNELS[f"{function.__module__}.{function.__qualname__}"] = function
    return function


def numba_available():
    """True if numba can be imported (it is imported here, on first use only)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def jit_enabled():
    """True if kernels are compiled: numba is installed and ``SIMLAB_JIT`` is not ``"0"``."""
    return os.environ.get("SIMLAB_JIT", "1") != "0" and numba_available()


def _numba_helpers(numba):
    """The numba versions of the float-or-array helpers (floats only: inside a compiled loop)."""
    if "helpers" not in _STATE:
        @numba.njit(cache=True)
        def exp_float(x):
            return math.exp(x)

        @numba.njit(cache=True)
        def sign_float(v):
            return 1.0 if v > 0.0 else (-1.0 if v < 0.0 else 0.0)

        _STATE["helpers"] = {exp: exp_float, sign: sign_float}
    return _STATE["helpers"]


def _compile(function, numba):
    """njit of ``function`` with the kernels and helpers it names replaced by compiled versions."""
    helpers = _numba_helpers(numba)
    kernels = set(map(id, KERNELS.values()))
    namespace = dict(function.__globals__)
    for name in function.__code__.co_names:
        value = namespace.get(name)
        if value in helpers:
            namespace[name] = helpers[value]
        elif id(value) in kernels and value is not function:
            namespace[name] = compiled(value)
    twin = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__,
                              function.__closure__)
    twin.__qualname__ = function.__qualname__
    twin.__module__ = function.__module__
    cache = os.path.exists(function.__code__.co_filename)  # no disk cache for code typed at a prompt
    dispatcher = numba.njit(cache=cache)(twin)
    dispatcher.simlab_kernel = (f"{function.__module__}.{function.__qualname__}", function.__qualname__,
                                cache)  # for the notice
    _compile_notice()
    return dispatcher


def _in_jupyter_kernel():
    """True if stderr is a Jupyter kernel's stream (what is written there becomes a cell output)."""
    return type(sys.stderr).__module__.split(".")[0] == "ipykernel"


def _compile_notice():
    """The listener (registered once) that announces a real compilation of a kernel on stderr.

    numba raises its ``numba:compile`` event only when it compiles, not when it loads a kernel
    from its cache; a kernel that calls kernels compiles them inside its own event (one message).
    """
    if "notice" not in _STATE:
        from numba.core import event

        class CompileNotice(event.Listener):
            def __init__(self):
                self.announced, self.depth = set(), 0

            def on_start(self, started):
                dispatcher = (started.data or {}).get("dispatcher")
                key, name, cache = getattr(dispatcher, "simlab_kernel", (None, None, False))
                if self.depth == 0 and key is not None and key not in self.announced:
                    self.announced.add(key)
                    if not _in_jupyter_kernel():
                        once = "once per machine; cached afterwards" if cache else "once per process"
                        print(f"simlab: compiling {name} with numba ({once}) ...", file=sys.stderr, flush=True)
                self.depth += 1

            def on_end(self, ended):
                self.depth -= 1

        _STATE["notice"] = CompileNotice()
        event.register("numba:compile", _STATE["notice"])
    return _STATE["notice"]


def compiled(function):
    """The version of kernel ``function`` to loop with: numba-compiled if enabled, else itself.

    numba compiles on the first call (or loads the result from its cache on disk). A real
    compilation prints one line on stderr first, once per process and kernel, ``simlab: compiling
    <kernel> with numba (once per machine; cached afterwards) ...``; nothing is printed
    for a kernel loaded from the cache, nor in a Jupyter kernel (a cell output would change).

    Examples
    --------
    >>> from simlab.jit import compiled, kernel
    >>> @kernel
    ... def twice(x):
    ...     return 2.0 * x
    >>> compiled(twice)(1.5)
    3.0
    """
    if not jit_enabled():
        return function
    key = f"{function.__module__}.{function.__qualname__}"
    if key not in _COMPILED:
        import numba

        _COMPILED[key] = _compile(function, numba)
    return _COMPILED[key]
