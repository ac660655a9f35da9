"""The friction-model interface: one contract that every model passes.

Models: the static (SS) model, LuGre (LG) and the revised LuGre model (RLG) with and without its
extras. The contract (simlab.friction.FrictionModel):

* at constant v the state settles and the force is the model's steady-state force, which for
  every model here is the static curve sgn(v) g(v) + sigma2 v (eq. 13 for RLG, with its film);
* the exponential step is exact for constant v wherever the bristle equation is linear in z
  (LuGre, and RLG while sliding): one step of h equals 64 steps of h/64, and equals solve_ivp;
* the stepper's F_start is the model's force(v, state), and F_step the force averaged over the
  step (the trapezoidal value of sigma0 z plus sigma1 dz/dt and sigma2 v);
* every simulator goes through the interface: no second copy of g(v) or of a bristle update
  exists in the source tree (checked textually).
"""

import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from simlab.friction import (
    BRISTLE_METHODS,
    CANUDAS_1995,
    FrictionModel,
    LuGre,
    StaticFriction,
    static_friction,
)
from simlab.revised_lugre import RevisedLuGre, TransitionCurve

LG = LuGre(**CANUDAS_1995)
SS = StaticFriction(Fc=1.0, Fs=1.5, vs=0.001, sigma2=0.4)
RLG_PARAMETERS = dict(Fc=4.5, Fs=10.5, vs=0.01, vb=0.05, sigma0=5e4, sigma1=31.0, sigma2=46.3, T=0.01,
                      tau_hp=0.05, tau_hn=0.5, tau_h0=0.476)
RLG = RevisedLuGre(**RLG_PARAMETERS, curve=TransitionCurve(c=(6.0,), k=(2.5e4,)))
RLG_PLAIN = RLG.without_extras()
RLG_FILM = RevisedLuGre(**RLG_PARAMETERS)  # film and lead, no transition curves
MODELS = {"SS": SS, "LG": LG, "RLG": RLG, "RLG without extras": RLG_PLAIN, "RLG with film": RLG_FILM}
SPEEDS = (-0.2, -0.003, 0.0007, 0.05)


def _settle(model, v, h=1e-3, steps=40000):
    step = model.stepper("exponential")
    state = model.initial_state()
    for _ in range(steps):
        state, F_step, F_start = step(state, v, h)
    return state, F_step, F_start


@pytest.mark.parametrize("name", MODELS)
def test_every_model_implements_the_interface(name):
    model = MODELS[name]
    assert isinstance(model, FrictionModel)
    assert model.label in ("SS", "LG", "RLG")
    assert model.lead_mass >= 0.0
    for method in BRISTLE_METHODS:
        assert callable(model.stepper(method))
    with pytest.raises(ValueError, match="method must be one of"):
        model.stepper("leapfrog")


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("v", SPEEDS)
def test_steady_state_force_is_the_static_curve(name, v):
    """Oracle: the static curve sgn(v) g(v, h_ss) + sigma2 v written out here (eqs. 1 and 13)."""
    model = MODELS[name]
    _, F_step, F_start = _settle(model, v)
    film = 0.0 if not isinstance(model, RevisedLuGre) else float(model.h_ss(v))
    g = model.Fc + ((1.0 - film) * model.Fs - model.Fc) * math.exp(-abs(v / model.vs) ** model.n)
    expected = math.copysign(g, v) + model.sigma2 * v
    assert F_start == pytest.approx(expected, rel=1e-9)
    assert F_step == pytest.approx(expected, rel=1e-9)
    assert float(model.steady_state_force(v)) == pytest.approx(expected, rel=1e-12)


def test_lugre_steady_state_agrees_with_the_static_function():
    v = np.linspace(-0.01, 0.01, 41)
    np.testing.assert_allclose(LG.steady_state_force(v), static_friction(v, 1.0, 1.5, 0.001, 0.4), rtol=1e-15)


def _off_steady_state(name, v):
    """A state with the bristles away from their steady state and every other state constant."""
    model = MODELS[name]
    z0 = -3e-5
    if name == "LG":
        return z0
    return model.initial_state()._replace(z=z0, Fz=model.sigma0 * z0, film=float(model.h_ss(v)))


@pytest.mark.parametrize("name", ["LG", "RLG without extras", "RLG with film"])
@pytest.mark.parametrize("v", [-0.05, 0.002])
def test_exponential_step_is_exact_for_constant_velocity(name, v):
    """One step of h equals 64 steps of h/64 (the exact flow composes) where the bristle equation
    is linear in z and the other states are constant (the film at its steady state h_ss(v))."""
    model = MODELS[name]
    step = model.stepper("exponential")
    start = _off_steady_state(name, v)
    h = 2e-4
    one = step(start, v, h)[0]
    many = start
    for _ in range(64):
        many = step(many, v, h / 64)[0]
    assert model.deflection(one) == pytest.approx(model.deflection(many), rel=1e-12, abs=1e-18)
    assert model.film_thickness(one) == pytest.approx(model.film_thickness(many), rel=1e-12)


@pytest.mark.parametrize("v", [-0.05, 1e-4, 0.1])
def test_lugre_exponential_step_equals_solve_ivp(v):
    """Oracle: solve_ivp (Radau, rtol 1e-12) of dz/dt = v - sigma0 |v| z / g(v), v constant."""
    z0, h = -2e-5, 1e-3
    reference = solve_ivp(lambda t, z: LG.zdot(v, z), (0, h), [z0], method="Radau", rtol=1e-12, atol=1e-18).y[0, -1]
    assert LG.stepper("exponential")(z0, v, h)[0] == pytest.approx(reference, rel=1e-9, abs=1e-17)


@pytest.mark.parametrize("name", ["LG", "RLG without extras"])
def test_start_force_is_the_models_force_and_step_force_the_average(name):
    model = MODELS[name]
    step = model.stepper("exponential")
    state = model.initial_state()
    v, h = 0.003, 1e-4
    for _ in range(5):
        state, _, _ = step(state, v, h)
    z = model.deflection(state)
    next_state, F_step, F_start = step(state, v, h)
    z_next = model.deflection(next_state)
    lugre = LuGre(Fc=model.Fc, Fs=model.Fs, vs=model.vs, sigma0=model.sigma0, sigma1=model.sigma1,
                  sigma2=model.sigma2, n=model.n)
    assert F_start == pytest.approx(float(lugre.force(v, z)), rel=1e-12)
    expected = model.sigma0 * 0.5 * (z + z_next) + model.sigma1 * (z_next - z) / h + model.sigma2 * v
    assert F_step == pytest.approx(expected, rel=1e-12)


def test_revised_model_without_extras_steps_like_lugre():
    """RLG with curve None, film off and T = 0 is LuGre: the same steps to the last bits."""
    lugre = RLG_PLAIN.as_lugre()
    lg_step, rlg_step = lugre.stepper(), RLG_PLAIN.stepper()
    z, state = 0.0, RLG_PLAIN.initial_state()
    for v in 0.01 * np.sin(np.linspace(0, 6, 300)):
        z, F_lg, _ = lg_step(z, float(v), 1e-3)
        state, F_rlg, _ = rlg_step(state, float(v), 1e-3)
        assert state.z == pytest.approx(z, rel=1e-14, abs=1e-20)
        assert F_rlg == pytest.approx(F_lg, rel=1e-14, abs=1e-14)


def test_static_model_step_is_the_static_curve_at_the_start_velocity():
    step = SS.stepper()
    for v in SPEEDS + (0.0,):
        state, F_step, F_start = step(None, v, 1e-3)
        assert state is None
        assert F_step == F_start == pytest.approx(float(SS.force(v)), rel=1e-15)


SOURCE = Path(__file__).resolve().parent.parent / "simlab"


#: Textual signatures of the formulas that must exist once: the Stribeck exponential
#: exp(-|v/vs|^n), the exact bristle relaxation (z - z_ss) e^{-rate T} and implicit Euler's
#: division by (1 + T rate). (Each pattern finds every copy that the tree held before the
#: friction interface existed, eight of the Stribeck function among them.)
FORMULAS = {
    "Stribeck exponential": r"exp\(\s*-\s*\(*\s*(?:np\.)?(?:abs)?\(*\s*[\w.]+(?:\[[^\]]+\])?\s*/\s*[\w.]+"
                            r"(?:\[[^\]]+\])?\s*\)*\s*\*\*",
    "exponential bristle update": r"\(\s*\w+\s*-\s*\w*z_ss\w*\s*\)\s*\*\s*[\w.]*exp\(",
    "implicit bristle update": r"/\s*\(\s*1(?:\.0)?\s*\+\s*\w+\s*\*\s*rate\s*\)",
}


def _code_lines(text):
    """The lines of a Python source with its string literals and comments blanked out: a formula
    quoted as text (a docstring, a catalogued mistake's code for a notebook) is no second copy."""
    import io
    import tokenize

    lines = text.splitlines()
    blanked = [list(line) for line in lines]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT) or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            (row0, col0), (row1, col1) = token.start, token.end
            for row in range(row0, row1 + 1):
                start = col0 if row == row0 else 0
                end = col1 if row == row1 else len(blanked[row - 1])
                blanked[row - 1][start:end] = " " * (end - start)
    return ["".join(line) for line in blanked]


def _formula_sites(pattern, root=SOURCE):
    sites = []
    for path in sorted(root.rglob("*.py")):
        for number, code in enumerate(_code_lines(path.read_text(encoding="utf-8")), start=1):
            if re.search(pattern, code):
                sites.append(f"{path.relative_to(root.parent)}:{number}")
    return sites


@pytest.mark.parametrize("formula", FORMULAS)
def test_no_second_copy_of_the_stribeck_function_or_a_bristle_update(formula):
    """Textual check over simlab/: each formula is written once, in simlab/friction/kernels.py."""
    sites = _formula_sites(FORMULAS[formula])
    assert len(sites) == 1 and sites[0].startswith("simlab/friction/kernels.py"), sites


def test_the_formula_check_finds_a_copy(tmp_path):
    """The checker itself: pasted copies of g(v) and of the bristle updates are found."""
    package = tmp_path / "simlab"
    package.mkdir()
    (package / "copy.py").write_text(
        "g = Fc + (Fs - Fc) * math.exp(-abs(v / vs) ** n)\n"
        "z_new = z_ss + (z - z_ss) * math.exp(-rate * h)\n"
        "z_new = (z + h * v) / (1.0 + h * rate)\n"
        '"""g = Fc + (Fs - Fc) * math.exp(-abs(v / vs) ** n): quoted in a docstring"""\n'
    )
    assert [_formula_sites(pattern, package) for pattern in FORMULAS.values()] == [
        ["simlab/copy.py:1"], ["simlab/copy.py:2"], ["simlab/copy.py:3"]]
