"""Callable arguments are checked for their signature before the first call (issue 23).

``lambda x: x`` passed as f used to end in Python's own "takes 1 positional argument but 2 were
given", which names no argument. Every callable argument of the integrators, the Adams methods,
the real-time loop and the sampled-data loop now goes through
``simlab.validation.as_callable(..., call=...)`` with the call the code makes, so the message
names the argument and shows the expected call. The same holds for a ragged t_span and an
empty x0, which used to fail inside numpy. The oracle is the call each function documents.
"""

import functools

import numpy as np
import pytest

import simlab
from simlab.multistep import adams_bashforth, adams_bashforth_moulton
from simlab.realtime import simulate_real_time
from simlab.sampled_data import DigitalController, discrete_closed_loop, simulate_sampled

ONE_ARGUMENT = lambda x: x  # noqa: E731 - the classic slip: f(x) instead of f(t, x)
PI = DigitalController.from_analog([2.0, 4.0], [1.0, 0.0], T=0.5)
PLANT = ([[-1.0]], [1.0], [1.0], 0.0)

#: Each function that takes f(t, x), called with the right-hand side f.
TAKES_F = {
    "euler": lambda f: simlab.euler(f, (0.0, 1.0), 1.0, 0.1),
    "heun": lambda f: simlab.heun(f, (0.0, 1.0), 1.0, 0.1),
    "rk4": lambda f: simlab.rk4(f, (0.0, 1.0), 1.0, 0.1),
    "integrate": lambda f: simlab.integrate(f, (0.0, 1.0), 1.0, 0.1, method="euler"),
    "euler_step": lambda f: simlab.euler_step(f, 0.0, 1.0, 0.1),
    "heun_step": lambda f: simlab.heun_step(f, 0.0, 1.0, 0.1),
    "rk4_step": lambda f: simlab.rk4_step(f, 0.0, 1.0, 0.1),
    "adams_bashforth": lambda f: adams_bashforth(f, (0.0, 1.0), 1.0, 0.1),
    "adams_bashforth_moulton": lambda f: adams_bashforth_moulton(f, (0.0, 1.0), 1.0, 0.1, order=2),
}


@pytest.mark.parametrize("name", TAKES_F)
def test_an_f_of_one_argument_is_named_with_the_call_f_t_x(name):
    with pytest.raises(TypeError, match=r"f must be a function that can be called as f\(t, x\).*signature \(x\)"):
        TAKES_F[name](ONE_ARGUMENT)


@pytest.mark.parametrize("name", TAKES_F)
def test_an_f_of_three_required_arguments_is_refused_before_the_first_call(name):
    calls = []

    def f(t, x, u):
        calls.append(t)
        return -x

    with pytest.raises(TypeError, match=r"f must be a function that can be called as f\(t, x\).*\(t, x, u\)"):
        TAKES_F[name](f)
    assert calls == []


@pytest.mark.parametrize("name", ["euler", "rk4_step", "adams_bashforth"])
@pytest.mark.parametrize("f", [
    lambda t, x, rate=1.0: -rate * x,  # extra arguments with defaults
    lambda *args: -args[1],  # *args
    functools.partial(lambda rate, t, x: -rate * x, 2.0),  # a partial of a three-argument function
], ids=["default", "varargs", "partial"])
def test_a_signature_that_accepts_f_t_x_is_accepted(name, f):
    assert np.all(np.isfinite(np.asarray(TAKES_F[name](f) if "step" in name else TAKES_F[name](f).x)))


def test_simulate_real_time_names_f_with_the_call_f_t_x_u():
    with pytest.raises(TypeError, match=r"f must be a function that can be called as f\(t, x, u\).*\(t, x\)"):
        simulate_real_time(lambda t, x: -x, np.sin, (0.0, 1.0), 0.0, 0.1)


def test_simulate_real_time_names_u_with_the_call_u_t():
    with pytest.raises(TypeError, match=r"u must be a function that can be called as u\(t\).*signature \(\)"):
        simulate_real_time(lambda t, x, u: -x + u, lambda: 1.0, (0.0, 1.0), 0.0, 0.1)
    with pytest.raises(TypeError, match=r"u must be a function that can be called as u\(t\).*got 3"):
        simulate_real_time(lambda t, x, u: -x + u, 3, (0.0, 1.0), 0.0, 0.1)


@pytest.mark.parametrize("call", [
    lambda r: simulate_sampled(*PLANT, PI, t_end=2.0, r=r, N=2),
    lambda r: discrete_closed_loop(*PLANT, PI).response(2.0, r=r),
], ids=["simulate_sampled", "DiscreteClosedLoop.response"])
def test_a_reference_r_of_the_wrong_signature_is_named_with_the_call_r_t(call):
    with pytest.raises(TypeError, match=r"r must be a function that can be called as r\(t\).*\(t, x\)"):
        call(lambda t, x: 1.0)
    assert np.isfinite(call(np.cos).y[-1])  # a ufunc, whose signature Python cannot read, is accepted


@pytest.mark.parametrize("call", [
    lambda span: simlab.euler(lambda t, x: -x, span, 1.0, 0.1),
    lambda span: adams_bashforth(lambda t, x: -x, span, 1.0, 0.1),
    lambda span: simulate_real_time(lambda t, x, u: -x + u, np.sin, span, 0.0, 0.1),
    lambda span: simlab.time_grid(span, 0.1),
], ids=["euler", "adams_bashforth", "simulate_real_time", "time_grid"])
@pytest.mark.parametrize("span", [(0.0, [1.0, 2.0]), [[0.0], 1.0, 2.0]], ids=["end", "start"])
def test_a_ragged_t_span_is_named_not_failed_inside_numpy(call, span):
    with pytest.raises(ValueError, match=r"t_span must be a pair.*ragged"):
        call(span)


@pytest.mark.parametrize("call, name", [
    (lambda x0: simlab.euler(lambda t, x: -x, (0.0, 1.0), x0, 0.1), "x0"),
    (lambda x0: simlab.integrate(lambda t, x: -x, (0.0, 1.0), x0, 0.1), "x0"),
    (lambda x0: adams_bashforth_moulton(lambda t, x: -x, (0.0, 1.0), x0, 0.1), "x0"),
    (lambda x0: simulate_real_time(lambda t, x, u: -x + u, np.sin, (0.0, 1.0), x0, 0.1), "x0"),
    (lambda x0: simlab.heun_step(lambda t, x: -x, 0.0, x0, 0.1), "x"),
])
@pytest.mark.parametrize("empty", [[], np.zeros((0, 2))], ids=["list", "0x2"])
def test_an_empty_state_is_named(call, name, empty):
    with pytest.raises(ValueError, match=rf"{name} must hold at least one value \(one per state\).*shape \(0"):
        call(empty)
