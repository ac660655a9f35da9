"""The electro-pneumatic cylinder (seed 002, eqs. 14-20) against closed forms, sympy and solve_ivp."""

import math

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from simlab.friction import LuGre
from simlab.plants.pneumatic import (
    CylinderParameters,
    chamber_volumes,
    choked_flow_factor,
    critical_pressure_ratio,
    flow_factor,
    simulate_cylinder,
    valve_mass_flow,
)

P = CylinderParameters()


def eq16_17(r, k=1.4):
    """Seed 002 eqs. (16)-(17) typed from the paper, with its rounded choked constant 0.58."""
    r_crit = (2 / (k + 1)) ** (k / (k - 1))
    if r >= 1:
        return 0.0
    if r < r_crit:
        return 0.58
    return math.sqrt(2 / (k - 1)) * r ** ((k + 1) / (2 * k)) * math.sqrt(r ** ((1 - k) / k) - 1)


def test_critical_ratio_is_the_maximum_of_the_unchoked_law_by_sympy():
    r, k = sp.symbols("r k", positive=True)
    unchoked = sp.sqrt(2 / (k - 1)) * r ** ((k + 1) / (2 * k)) * sp.sqrt(r ** ((1 - k) / k) - 1)
    f = unchoked.subs(k, sp.Rational(7, 5))
    r_star = sp.nsolve(sp.diff(f, r), r, 0.5)
    assert float(r_star) == pytest.approx(critical_pressure_ratio(1.4), rel=1e-10)
    assert float(f.subs(r, r_star)) == pytest.approx(choked_flow_factor(1.4), rel=1e-10)
    assert round(choked_flow_factor(1.4), 2) == 0.58  # the paper's rounded constant


def test_flow_factor_is_continuous_at_the_choking_ratio():
    r_crit = critical_pressure_ratio()
    for eps in (1e-6, 1e-9):
        assert flow_factor(r_crit - eps) == pytest.approx(flow_factor(r_crit + eps), abs=1e-5)
    # the paper's rounded 0.58 jumps by 0.0013 there; ours does not
    assert abs(eq16_17(r_crit - 1e-9) - eq16_17(r_crit + 1e-9)) > 1e-3


def test_flow_factor_follows_eqs_16_17():
    r = np.linspace(0.0, 1.2, 241)
    ours = flow_factor(r)
    paper = np.array([eq16_17(value) for value in r])
    unchoked = r >= critical_pressure_ratio()
    np.testing.assert_allclose(ours[unchoked], paper[unchoked], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours[~unchoked], 0.58, atol=0.0015)
    assert flow_factor(1.0) == 0.0 and flow_factor(1.1) == 0.0
    assert np.all(np.diff(ours[unchoked]) <= 1e-15)  # falls from the choked value to 0


def test_valve_flow_signs_and_dead_zone():
    p_mid = 2.0e5
    assert valve_mass_flow(P.um + 0.5, p_mid, P) > 0
    assert valve_mass_flow(0.5 * (P.um + P.un), p_mid, P) == 0.0
    assert valve_mass_flow(P.un - 0.5, p_mid, P) < 0
    # choked building flow: eq. (15) with the choked factor
    expected = choked_flow_factor() * P.ps * P.flow_constant * P.KV1 * 0.5
    assert valve_mass_flow(P.um + 0.5, P.patm, P) == pytest.approx(expected, rel=1e-12)
    assert valve_mass_flow(1.0, P.patm, P) == 0.0  # nothing leaves a chamber at atmospheric pressure


@pytest.mark.parametrize("u, p, match", [(5.5, 2e5, "above"), (-0.1, 2e5, "below"), (3.0, 0.0, "p"),
                                         (float("nan"), 2e5, "u")])
def test_valve_flow_rejects_bad_input(u, p, match):
    with pytest.raises(ValueError, match=match):
        valve_mass_flow(u, p, P)


def test_closed_valves_and_moving_piston_follow_the_polytropic_law():
    # both valves in the dead zone, unequal initial pressures: the piston moves, no air enters
    r = simulate_cylinder(P, None, 2.5, 2.5, 0.5, h=1e-4, x0=0.1, p10=2.0e5, p20=1.5e5)
    assert np.ptp(r.x) > 0.02
    V1, V2 = chamber_volumes(r.x, P)
    for p, V, m in ((r.p1, V1, r.m1), (r.p2, V2, r.m2)):
        invariant = p * V**P.k
        assert np.max(np.abs(invariant / invariant[0] - 1.0)) < 1e-4
        assert np.ptp(m) == 0.0


def test_filling_a_held_chamber_keeps_mass_and_energy_books():
    r = simulate_cylinder(P, None, 3.5, 2.5, 0.3, hold=True, x0=0.1)
    V1, _ = chamber_volumes(0.1, P)
    # eq. (18) with v = 0: V dp = k R Ts dm, exactly, step by step
    np.testing.assert_allclose(float(V1) * (r.p1 - r.p1[0]), P.k * P.R * P.Ts * (r.m1 - r.m1[0]), rtol=1e-10,
                               atol=1e-12)
    assert np.all(r.x == 0.1) and np.all(r.v == 0.0)

    def rhs(t, y):
        return [P.k * P.R * P.Ts / float(V1) * valve_mass_flow(3.5, y[0], P)]

    ref = solve_ivp(rhs, (0.0, r.t[-1]), [P.patm], t_eval=r.t, rtol=1e-10, atol=1e-6)
    assert np.max(np.abs(r.p1 - ref.y[0])) < 1e-3 * P.ps
    assert r.p1[-1] > P.patm + 0.5 * P.ps_gauge  # the chamber really filled


def test_exhausting_chamber_falls_to_atmosphere_and_not_below():
    r = simulate_cylinder(P, None, 0.5, 2.5, 1.0, hold=True, x0=0.2, p10=4e5)
    assert r.p1[-1] < r.p1[0] and np.all(np.diff(r.p1) <= 1e-9)
    assert r.p1.min() >= P.patm - 1.0


def test_end_stop_holds_the_piston_while_the_pressure_goes_on():
    lg = LuGre(Fc=4.5, Fs=10.5, vs=0.01, sigma0=5e4, sigma1=30.0, sigma2=40.0)
    r = simulate_cylinder(P, lg, 4.0, 1.0, 2.0, x0=0.25)
    at_stop = r.x >= P.L
    assert at_stop.any() and np.all(r.x <= P.L)
    assert np.all(r.v[at_stop] == 0.0)
    assert r.p1[-1] > r.p1[np.argmax(at_stop)]  # chamber 1 still filling against the stop


def test_simulate_cylinder_rejects_bad_input():
    with pytest.raises(TypeError, match="params"):
        simulate_cylinder({"M": 1}, None, 2.5, 2.5, 1.0)
    with pytest.raises(TypeError, match="friction"):
        simulate_cylinder(P, "LuGre", 2.5, 2.5, 1.0)
    with pytest.raises(ValueError, match="x0"):
        simulate_cylinder(P, None, 2.5, 2.5, 1.0, x0=0.5)
    with pytest.raises(ValueError, match="t_end"):
        simulate_cylinder(P, None, 2.5, 2.5, -1.0)
    with pytest.raises(ValueError, match="above"):
        simulate_cylinder(P, None, 6.0, 2.5, 0.1)


def test_cylinder_parameters_reject_bad_values():
    with pytest.raises(ValueError, match="rod"):
        CylinderParameters(d=0.03)
    with pytest.raises(ValueError, match="dead zone"):
        CylinderParameters(un=2.9, um=2.8)
    with pytest.raises(ValueError, match="V10"):
        CylinderParameters(V10=-1e-5)


def test_lugre_bristle_in_the_cylinder_is_lab08s_exponential_update():
    from simlab.friction import bristle_step

    lg = LuGre(Fc=4.5, Fs=10.5, vs=0.01, sigma0=5e4, sigma1=30.0, sigma2=40.0)
    r = simulate_cylinder(P, lg, 2.875, 2.19, 3.0)
    expected = bristle_step(lg, r.z[:-1], r.v[:-1], r.h, method="exponential")
    np.testing.assert_allclose(r.z[1:], expected, rtol=1e-9, atol=1e-15)
    assert np.ptp(r.x) > 0.005  # it did stick and slip, not only stand still
