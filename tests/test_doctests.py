"""The examples in the docstrings run and print what they say (doctest)."""

import doctest
import importlib
import pkgutil

import pytest

import simlab

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(simlab.__path__, prefix="simlab.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
