"""Cached experiments for the labs: computed once per set of arguments, results read-only.

A lab's notebook, its self-checks and its figures call the same experiment with the same
parameters (and a student re-runs cells); :func:`cached` computes it once per argument set.
The result is shared between callers, so every array inside it is made read-only
(:func:`read_only`): a caller that wants to change one takes a copy (``array.copy()``).
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import fields, is_dataclass

import numpy as np

__all__ = ["cached", "read_only"]


def read_only(value):
    """``value`` with every array inside it (dataclass fields, dicts, tuples) made read-only."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            read_only(getattr(value, field.name))
    elif isinstance(value, dict):
        for item in value.values():
            read_only(item)
    elif isinstance(value, tuple):
        for item in value:
            read_only(item)
    return value


def _hashable(value):
    """Lists and arrays of numbers as tuples (cache keys); other values as they are."""
    if isinstance(value, (list, np.ndarray)):
        return tuple(float(v) for v in np.ravel(value))
    return value


def cached(experiment, maxsize=16):
    """``experiment`` computed once per set of arguments (defaults filled in), its result read-only.

    Arguments are bound to the signature first, so ``f(0.1)`` and ``f(h=0.1)`` share an entry;
    lists and arrays of numbers are keyed by their values. ``cache_clear()`` empties the cache.
    """
    signature = inspect.signature(experiment)
    compute = functools.lru_cache(maxsize=maxsize)(
        lambda *args, **kwargs: read_only(experiment(*args, **kwargs)))

    @functools.wraps(experiment)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return compute(*(_hashable(value) for value in bound.args),
                       **{name: _hashable(value) for name, value in bound.kwargs.items()})

    wrapper.cache_clear = compute.cache_clear
    return wrapper
