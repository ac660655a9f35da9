"""Lab 08: the self-checks name the lab's typical mistakes, and follow the notebook's parameters.

Each wrong answer is built here, independently of the checks: the seed's S-function replayed by
a loop written out in this file (seed 000's equations, the seed's table), the characteristic
polynomial of a matrix by sympy, the stick-slip from :func:`simlab.friction.spring_block` (the
library's exponential update, not the lab's reference) measured by hand. The check is then called
directly and must fail with the hint that names the mistake; a right answer at the parameters'
alternative values must pass.
"""

import numpy as np
import pytest
import sympy as sp

from simlab.course import lab08_lugre as lab
from simlab.friction import CANUDAS_1995, SEED_PARAMETERS, LuGre, spring_block

P = SEED_PARAMETERS


def _replay(Ts, *, Fc=P["Fc"], Fs=P["Fs"], sigma0_update=P["sigma0"], step=None, samples=6):
    """Oracle: seed 000's S-function written out (output, then update) from x0 = [0, -10] for the input
    v(t) = -10 cos(pi t / 2); the keywords make the mistakes (Fc and Fs swapped, no sigma0, no Ts)."""
    step = Ts if step is None else step
    x1, x2, F = 0.0, -10.0, []
    for k in range(samples):
        v = -10.0 * np.cos(np.pi * k * Ts / 2)
        g = Fc + (Fs - Fc) * np.exp(-((v / P["vs"]) ** 2))
        F.append(P["sigma0"] * x1 + P["sigma1"] * x2 + P["sigma2"] * v)
        x1, x2 = x1 + step * x2, -sigma0_update * abs(v) / g * x1 + v
    return np.array(F)


def _failed(result, phrase):
    assert not result.passed, str(result)
    assert phrase in str(result), str(result)


def test_b1_fc_and_fs_swapped_in_g_is_named():
    _failed(lab.check_sfunction_replay(_replay(lab.TS, Fc=P["Fs"], Fs=P["Fc"])), "swapped Fc and Fs")


def test_b1_the_bristle_update_without_sigma0_is_seed_001s_form():
    _failed(lab.check_sfunction_replay(_replay(lab.TS, sigma0_update=1.0)), "seed 001's form")


def test_b1_z_advanced_without_the_sample_time_is_named():
    _failed(lab.check_sfunction_replay(_replay(lab.TS, step=1.0)), "missing factor Ts")


def _charpoly(M):
    return sp.expand(M.charpoly(sp.Symbol("lambda")).as_expr())


A, TS_SYM = sp.symbols("a T_s", positive=True)


def test_c1_the_sample_time_in_both_rows_of_m_is_named():
    """Oracle: sympy's characteristic polynomial of the mistaken matrix, lambda^2 - lambda + a Ts^2."""
    wrong = _charpoly(sp.Matrix([[1, TS_SYM], [-A * TS_SYM, 0]]))
    assert sp.expand(wrong - (sp.Symbol("lambda") ** 2 - sp.Symbol("lambda") + A * TS_SYM**2)) == 0
    _failed(lab.check_characteristic_equation(wrong, 1.0), "Ts appears twice")


def test_c1_the_explicit_euler_limit_is_named():
    """Oracle: explicit Euler's factor 1 - c reaches -1 at c = 2 (sympy)."""
    c = sp.Symbol("c", positive=True)
    euler_limit = float(sp.solve(sp.Eq(1 - c, -1), c)[0])
    _failed(lab.check_characteristic_equation(_charpoly(sp.Matrix([[1, TS_SYM], [-A, 0]])), euler_limit),
            "plain explicit Euler")


def _block(k):
    """The spring-block of Task D1 (classic set, m = 1 kg, pulled at 0.1 m/s, exponential update, h = 1 ms,
    40 s), from the library's spring_block."""
    return spring_block(LuGre(**CANUDAS_1995), k, 0.1, 1.0, 40.0, 1e-3)


@pytest.fixture(scope="module")
def block():
    return _block(lab.K)


def test_d1_sample_indices_in_place_of_times_are_named(block):
    """The period measured in samples: the onsets' indices, by hand."""
    onsets = np.flatnonzero((block.v[:-1] < 0.05) & (block.v[1:] >= 0.05))
    _failed(lab.check_stick_slip(np.mean(np.diff(onsets)[1:]), np.max(block.v)), "in samples, not seconds")


def test_d1_every_sample_above_the_threshold_is_not_a_crossing(block):
    above = block.t[np.flatnonzero(block.v[1:] >= 0.05)]
    _failed(lab.check_stick_slip(np.mean(np.diff(above)[1:]), np.max(block.v)), "not the crossings")


def test_right_answers_at_the_alternative_parameters_pass():
    """Ts = 0.002 s and k_spring = 3 N/m (the contract's alternatives): the replay written out here, sympy's
    polynomial, and the library's spring-block measured by hand are [correct] when the checks get the values."""
    Ts, k = lab.PARAMETERS["Ts"].alternative, lab.PARAMETERS["k_spring"].alternative
    assert (Ts, k) != (lab.TS, lab.K)
    assert lab.check_sfunction_replay(_replay(Ts), Ts=Ts).passed
    assert not lab.check_sfunction_replay(_replay(lab.TS), Ts=Ts).passed  # the check follows Ts
    assert lab.check_characteristic_equation(_charpoly(sp.Matrix([[1, TS_SYM], [-A, 0]])), 1.0, Ts=Ts).passed
    slip = _block(k)
    onsets = slip.t[np.flatnonzero((slip.v[:-1] < 0.05) & (slip.v[1:] >= 0.05))]
    result = lab.check_stick_slip(np.mean(np.diff(onsets)[1:]), np.max(slip.v), k_spring=k)
    assert result.passed, str(result)
    assert not lab.check_stick_slip(np.mean(np.diff(onsets)[1:]), np.max(slip.v)).passed  # the check follows k


def test_the_notebook_check_names_the_parameter_values_it_used():
    namespace = {"F_hand": _replay(0.002), "Ts": 0.002}
    result = lab.check("B1", namespace=namespace)
    assert result.passed and result.details[-1] == "(checked with Ts = 0.002 s)"
