"""simlab.jit: a real compilation says so once, on stderr; a kernel loaded from the cache says nothing.

The first call of the drive or cylinder loop can compile for 10 s or more. The oracle of "real
compilation" is numba itself: its cache statistics (``dispatcher.stats``) count a hit or a miss
for each signature. The kernels here live in a module written to a fresh folder, so that the
cache (numba's ``__pycache__`` next to the file) starts cold in every test.
"""

import importlib.util
import io
import sys
import uuid

import pytest

from simlab import jit

KERNELS = '''
from simlab.jit import kernel


@kernel
def inner(x):
    return 2.0 * x


@kernel
def outer(x):
    return inner(x) + 1.0


@kernel
def broken(x):
    return x + "text"
'''


@pytest.fixture
def jit_on(monkeypatch):
    """Compilation on; the kernels registered and compiled here are forgotten after the test."""
    assert jit.numba_available(), "numba is missing: pip install -e '.[dev]'"
    monkeypatch.setenv("SIMLAB_JIT", "1")
    monkeypatch.setattr(jit, "KERNELS", dict(jit.KERNELS))
    monkeypatch.setattr(jit, "_COMPILED", dict(jit._COMPILED))


@pytest.fixture
def module(tmp_path, monkeypatch, jit_on):
    """A module of kernels in its own file (a cold numba cache), nothing compiled yet."""
    name = f"simlab_test_kernels_{uuid.uuid4().hex}"
    path = tmp_path / f"{name}.py"
    path.write_text(KERNELS, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    loaded = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, loaded)
    spec.loader.exec_module(loaded)
    return loaded


def _fresh_process(monkeypatch):
    """Forget the compiled kernels and the messages given, as a new process would."""
    monkeypatch.setattr(jit, "_COMPILED", {})
    monkeypatch.setattr(jit._compile_notice(), "announced", set())


def _messages(text):
    return [line for line in text.splitlines() if line.startswith("simlab: compiling")]


def test_a_first_compilation_says_so_once_naming_the_kernel(module, capsys):
    fast = jit.compiled(module.outer)
    assert fast(1.0) == 3.0 and fast(2.0) == 5.0 and jit.compiled(module.outer)(3.0) == 7.0
    messages = _messages(capsys.readouterr().err)
    assert messages == ["simlab: compiling outer with numba (once per machine; cached afterwards) ..."]
    # one message: the kernel it calls (inner) compiles inside it
    assert sum(fast.stats.cache_misses.values()) == 1  # numba: it was compiled, not loaded


def test_a_kernel_loaded_from_the_cache_says_nothing(module, capsys, monkeypatch):
    jit.compiled(module.outer)(1.0)
    capsys.readouterr()
    _fresh_process(monkeypatch)
    fast = jit.compiled(module.outer)
    assert fast(1.0) == 3.0
    assert sum(fast.stats.cache_hits.values()) == 1 and not fast.stats.cache_misses  # numba: loaded
    assert _messages(capsys.readouterr().err) == []


def test_a_kernel_without_a_file_says_it_compiles_once_per_process(capsys, jit_on):
    """Code typed at a prompt has no file for numba's disk cache: every process compiles it."""
    namespace = {"__name__": "__main__", "kernel": jit.kernel}  # as at a prompt
    exec(compile("@kernel\ndef typed_at_a_prompt(x):\n    return 3.0 * x\n", "<stdin>", "exec"), namespace)
    assert jit.compiled(namespace["typed_at_a_prompt"])(1.0) == 3.0
    assert _messages(capsys.readouterr().err) == [
        "simlab: compiling typed_at_a_prompt with numba (once per process) ..."]


def test_a_failed_compilation_leaves_the_next_message_intact(module, capsys):
    import numba

    with pytest.raises(numba.core.errors.TypingError):
        jit.compiled(module.broken)(1.0)
    capsys.readouterr()
    jit.compiled(module.inner)(1.0)
    assert _messages(capsys.readouterr().err) == [
        "simlab: compiling inner with numba (once per machine; cached afterwards) ..."]


def test_no_message_in_a_jupyter_kernel(module, monkeypatch, capsys):
    """In a notebook the line would be a cell output, which the notebook tests compare."""
    stream_class = type("OutStream", (io.StringIO,), {"__module__": "ipykernel.iostream"})
    stream = stream_class()
    monkeypatch.setattr(sys, "stderr", stream)
    assert jit.compiled(module.outer)(1.0) == 3.0
    assert stream.getvalue() == ""


def test_no_message_and_no_compilation_with_simlab_jit_0(module, monkeypatch, capsys):
    monkeypatch.setenv("SIMLAB_JIT", "0")
    assert jit.compiled(module.outer) is module.outer
    assert module.outer(1.0) == 3.0
    assert _messages(capsys.readouterr().err) == []


def test_no_message_in_a_real_notebook_with_a_cold_cache(tmp_path, jit_on):
    """The notebook tests (nbval) compare every output of a cell, stderr included, and CI runs them
    with a cold cache: a compilation in a Jupyter kernel must add no output."""
    nbclient = pytest.importorskip("nbclient")
    import nbformat

    (tmp_path / "cold_kernels.py").write_text(KERNELS, encoding="utf-8")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport cold_kernels\nfrom simlab import jit\n"
        f"fast = jit.compiled(cold_kernels.outer)\nprint(fast(1.0), sum(fast.stats.cache_misses.values()))")])
    nbclient.NotebookClient(notebook, timeout=60, resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert notebook.cells[0].outputs == [{"output_type": "stream", "name": "stdout", "text": "3.0 1\n"}]
