"""Lab 07: the self-checks name the typical mistakes, and follow the parameter contract.

Each mistaken answer is built here independently of the lab's own reference functions: by hand
from the textbook's formulas, from the library's drive simulation (``simulate_drive``) with the
measures taken by hand, or with python-control. The task's check is called directly, and the test
asserts that it fails with the hint that names the mistake. The last tests call the checks with
every parameter at its alternative value, against the same independent oracles.
"""

import math

import control
import numpy as np
import pytest

from simlab.course import lab07_dc_motor as lab
from simlab.course.parameters import ParameterError
from simlab.plants.dc_motor import (
    DriveParameters,
    design_regulators,
    simulate_drive,
    type2_disturbance_peak,
    type2_step_overshoot,
)

#: The lab's defaults, written out (the oracles below do not read the lab's constants).
DEFAULTS = {"h": 5.0, "overload": 1.5, "z": 0.8, "h_sim": 5e-5}
#: Every parameter at its alternative value.
ALTERNATIVE = {"h": 4.0, "overload": 2.0, "z": 0.5, "h_sim": 1e-4}


def _drive(overload):
    """The textbook drive with the overload factor lambda (DriveParameters' fields, typed out)."""
    return DriveParameters(overload=overload)


def _design(h):
    """The engineering design by hand: K_I T_sum_i = 0.5, tau_i = Tl; M_r min criterion for the type-II loop."""
    p = DriveParameters()
    T_sum_i = p.Ts + p.Toi
    KI = 0.5 / T_sum_i
    T_sum_n = 1 / KI + p.Ton
    tau_n = h * T_sum_n
    KN = (h + 1) / (2 * h**2 * T_sum_n**2)
    return {"T_sum_i": T_sum_i, "KI": KI, "tau_i": p.Tl, "Ki": KI * p.Tl * p.R / (p.Ks * p.beta),
            "T_sum_n": T_sum_n, "tau_n": tau_n, "KN": KN, "Kn": KN * tau_n * p.beta * p.Ce * p.Tm / (p.alpha * p.R)}


def _derived(overload):
    """Task 1 by hand: I_dm, U*_im, Delta n_N, GD^2."""
    p = _drive(overload)
    Idm = overload * p.IN
    return {"Idm": Idm, "Uim": p.beta * Idm, "delta_nN": p.IN * p.R / p.Ce,
            "GD2": 375 * p.Ce * (30 / math.pi * p.Ce) * p.Tm / p.R}


def _sigma(h, overload, z):
    """The overshoot on leaving saturation (percent): Delta C_max / C_b with F = (lambda - z) I_N.

    The ratio Delta C_max / C_b is the peak of (s + 1)/(2 (s^3 + s^2 + K h s + K)), K = (h+1)/(2 h^2),
    found with python-control's impulse response (a fine grid, refined by a parabola through the peak).
    """
    K = (h + 1) / (2 * h**2)
    t = np.linspace(0.0, 20.0, 200001)
    y = control.impulse_response(control.tf([1.0, 1.0], [2.0, 2.0, 2 * K * h, 2 * K]), T=t).outputs
    k = int(np.argmax(y))
    a, b, c = y[k - 1], y[k], y[k + 1]
    ratio = b + 0.125 * (a - c) ** 2 / (2 * b - a - c)  # the top of the parabola through the three samples
    p, d = _drive(overload), _design(h)
    return 100 * ratio * 2 * (overload - z) * p.delta_nN * d["T_sum_n"] / (p.Tm * p.nN)


def _start(overload, h, h_sim, anti_windup="analog", t_end=1.0):
    """The no-load start from the library's simulation, with the library's design (checked against the
    design by hand above)."""
    p, d = _drive(overload), _design(h)
    design = design_regulators(p, h)
    by_hand = (d["Kn"], d["tau_n"], d["Ki"], d["tau_i"])
    assert (design.Kn, design.tau_n, design.Ki, design.tau_i) == pytest.approx(by_hand)
    return p, simulate_drive(p, design, t_end=t_end, h=h_sim, anti_windup=anti_windup)


def _measures(p, result):
    """Task 6a by hand, as the task text defines each measure."""
    t, n, Id, Ui = result.t, result.n, result.Id, result.Ui_ref
    t1 = t[np.flatnonzero(Id >= 0.95 * p.Idm)[0]]
    t2 = t[np.flatnonzero(np.abs(Ui) >= p.Uim * (1 - 1e-12))[-1] + 1]
    outside = np.flatnonzero(np.abs(n - p.nN) > 0.02 * p.nN)
    return {"t1": t1, "t2": t2, "Id_peak": Id.max(), "Id_plateau": Id[(t >= 0.5 * (t1 + t2)) & (t <= t2)].mean(),
            "overshoot": 100 * (n.max() - p.nN) / p.nN, "t_rise": t[np.flatnonzero(n >= p.nN)[0]],
            "t_settle": t[outside[-1] + 1]}


@pytest.fixture(scope="module")
def textbook_start():
    p, result = _start(1.5, 5.0, 5e-5)
    return p, result, _measures(p, result)


def _closed_loop(p, d, back_emf=True, current_reference_filter=True):
    """n/n* built with python-control from the block diagram (Task 10), optionally without a block."""
    s = control.tf("s")
    acr = d["Ki"] * (d["tau_i"] * s + 1) / (d["tau_i"] * s)
    asr = d["Kn"] * (d["tau_n"] * s + 1) / (d["tau_n"] * s)
    armature = (1 / p.R) / (p.Tl * s + 1)
    mechanics = p.R / (p.Ce * p.Tm * s)
    plant = control.feedback(armature, mechanics * p.Ce) if back_emf else armature
    current_loop = control.feedback(acr * p.Ks / (p.Ts * s + 1) * plant, p.beta / (p.Toi * s + 1))
    if current_reference_filter:
        current_loop = current_loop / (p.Toi * s + 1)
    speed_loop = control.feedback(asr * current_loop * mechanics, p.alpha / (p.Ton * s + 1))
    return p.alpha / (p.Ton * s + 1) * speed_loop


def _fails_with(result, phrase):
    assert not result.passed, str(result)
    assert phrase in str(result), str(result)


# ---------------------------------------------------------------------------------------------
# Task 1, 3, 5: design quantities by hand
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, wrong, phrase", [
    ("delta_nN", lambda p: 1.5 * p.IN * p.R / p.Ce, "at the rated current I_N"),
    ("Uim", lambda p: p.beta * p.IN, "the ASR limit sets the current limit"),
])
def test_task1_slips_get_their_hint(name, wrong, phrase):
    """Oracle: the four quantities by hand, one replaced by the slip."""
    answers = {**_derived(1.5), name: wrong(DriveParameters())}
    _fails_with(lab.check_derived(**answers), phrase)


@pytest.mark.parametrize("wrong, phrase", [
    (lambda h, T: (h + 1) / (2 * h * T**2), "h squared"),
    (lambda h, T: (h + 1) / (2 * h**2 * T), "T_sum_n squared as well"),
])
def test_task3_gain_slips_get_their_hint(wrong, phrase):
    """Oracle: the M_r min criterion K_N = (h+1)/(2 h^2 T_sum_n^2) by hand, with a square left out."""
    d = _design(5.0)
    result = lab.check_speed_design(d["T_sum_n"], d["tau_n"], wrong(5.0, d["T_sum_n"]), d["Kn"], h=5.0)
    _fails_with(result, phrase)


def test_task5_delta_C_max_in_rpm_gets_its_hint():
    """Oracle: Delta C_max = ratio C_b in r/min by hand (ratio from python-control), not divided by n*."""
    p, d = DriveParameters(), _design(5.0)
    sigma = _sigma(5.0, 1.5, 0.0)
    assert sigma == pytest.approx(8.31, abs=0.005)  # the textbook's figure
    _fails_with(lab.check_predicted_overshoot(sigma * p.nN / 100, h=5.0, overload=1.5), "Delta C_max in r/min")


def test_task5_linear_step_overshoot_gets_its_hint():
    """Oracle: the linear type-II step overshoot from python-control's step response (37.6 % at h = 5)."""
    h = 5.0
    K = (h + 1) / (2 * h**2)  # T = 1: K (h s + 1)/(s^3 + s^2 + K h s + K)
    t = np.linspace(0.0, 40.0, 400001)
    y = control.step_response(control.tf([K * h, K], [1.0, 1.0, K * h, K]), T=t).outputs
    linear = 100 * (y.max() - 1)
    assert linear == pytest.approx(37.6, abs=0.05)
    _fails_with(lab.check_predicted_overshoot(linear, h=5.0, overload=1.5), "linear step overshoot")


def test_task5_checks_one_number_that_no_slip_reproduces():
    """The prediction is one number: none of the catalogued slips lands on it by chance (oracle: by hand)."""
    p, sigma = DriveParameters(), _sigma(5.0, 1.5, 0.0)
    slips = [sigma / 2, sigma / 100, sigma * p.nN / 100, type2_step_overshoot(5.0), _sigma(5.0, 1.5, 1.0)]
    assert all(abs(slip - sigma) > 1e-3 * sigma for slip in slips)
    assert lab.check_predicted_overshoot(sigma, h=5.0, overload=1.5).passed


# ---------------------------------------------------------------------------------------------
# Task 6a: the measures of the start, from the library's simulation, one measure mistaken
# ---------------------------------------------------------------------------------------------


def _stage_rise(p, result):
    return result.t[np.flatnonzero(result.n >= p.nN)[0]]


def _overshoot_at_the_end(p, result):
    return 100 * (result.n[-1] - p.nN) / p.nN


def _first_entry(p, result):
    return result.t[np.flatnonzero(np.abs(result.n - p.nN) <= 0.02 * p.nN)[0]]


def _whole_stage_two(p, result, m):
    t = result.t
    return result.Id[(t >= m["t1"]) & (t <= m["t2"])].mean()


@pytest.mark.parametrize("name, wrong, phrase", [
    ("t2", lambda p, r, m: _stage_rise(p, r), "that is the rise time"),
    ("overshoot", lambda p, r, m: _overshoot_at_the_end(p, r), "at the end of the run"),
    ("t_settle", lambda p, r, m: _first_entry(p, r), "first enters the +-2 % band"),
    ("Id_plateau", _whole_stage_two, "the whole of stage II"),
])
def test_task6a_slips_get_their_hint(textbook_start, name, wrong, phrase):
    """Oracle: the no-load start of simulate_drive, measured by hand as the task defines it."""
    p, result, measures = textbook_start
    answers = {**measures, name: wrong(p, result, measures)}
    assert abs(answers[name] - measures[name]) > 1e-3 * max(1.0, abs(measures[name]))
    _fails_with(lab.check_start_metrics(**answers, h=5.0, overload=1.5, h_sim=5e-5), phrase)


def test_task6a_correct_measures_pass(textbook_start):
    """Oracle: the no-load start of simulate_drive, measured by hand."""
    p, result, measures = textbook_start
    assert lab.check_start_metrics(**measures, h=5.0, overload=1.5, h_sim=5e-5).passed


# ---------------------------------------------------------------------------------------------
# Task 7: the loaded start and the steady drops
# ---------------------------------------------------------------------------------------------


def _stage_two(p, current):
    """n* / (dn/dt), dn/dt = R/(Ce Tm) x the accelerating current."""
    return p.nN * p.Ce * p.Tm / (p.R * current)


def _loaded_answers(h, overload, z):
    """Task 7a by hand: the predicted overshoot and the two stage-II durations from the plateaus of Task 6d."""
    p, d = _drive(overload), _design(h)
    c = 1 / (d["KI"] * p.Tm)
    plateau = p.Idm / (1 + c)
    plateau_loaded = (p.Idm + c * z * p.IN) / (1 + c)
    return {"sigma_n_loaded": _sigma(h, overload, z), "t_II_no_load": _stage_two(p, plateau),
            "t_II_loaded": _stage_two(p, plateau_loaded - z * p.IN)}


def test_task7a_no_load_plateau_for_the_loaded_start_gets_its_hint():
    """Oracle: the stage-II duration by hand with the no-load plateau I_dm/(1 + 1/(K_I Tm)) against I_dL."""
    p, d, z = DriveParameters(), _design(5.0), DEFAULTS["z"]
    answers = _loaded_answers(5.0, 1.5, z)
    answers["t_II_loaded"] = _stage_two(p, p.Idm / (1 + 1 / (d["KI"] * p.Tm)) - z * p.IN)
    _fails_with(lab.check_loaded_start(**answers, h=5.0, overload=1.5, z=z, h_sim=5e-5),
                "the plateau with the load is higher")


def _loaded_without_z(h, overload, z):
    """Task 7a by hand with z left out where it belongs: I_N in place of I_dL = z I_N.

    ``sigma``: F = (lambda - 1) I_N; ``both``: the plateau and the accelerating current with I_N;
    ``current``: the plateau right, the accelerating current I_d - I_N; ``plateau``: the plateau with
    I_N, the accelerating current right.
    """
    p, d = _drive(overload), _design(h)
    c = 1 / (d["KI"] * p.Tm)

    def plateau(load):
        return (p.Idm + c * load) / (1 + c)

    return {"sigma": ("sigma_n_loaded", _sigma(h, overload, 1.0)),
            "both": ("t_II_loaded", _stage_two(p, plateau(p.IN) - p.IN)),
            "current": ("t_II_loaded", _stage_two(p, plateau(z * p.IN) - p.IN)),
            "plateau": ("t_II_loaded", _stage_two(p, plateau(p.IN) - z * p.IN))}


def _drops_without_z(h):
    """Task 7b by hand with I_N in place of I_dL = z I_N: the open-loop drop and the P-ASR drop."""
    p, d = DriveParameters(), _design(h)
    return {"open": ("dn_open_loop", p.IN * p.R / p.Ce), "P": ("dn_P_asr", p.beta * p.IN / (d["Kn"] * p.alpha))}


@pytest.mark.parametrize("slip, phrase", [
    ("sigma", "prediction for the rated load I_N: z is left out"),
    ("both", "duration under the rated load I_N: z is left out"),
    ("current", "z is left out of the accelerating current"),
    ("plateau", "z is left out of the plateau"),
])
def test_task7a_z_left_out_gets_its_hint(slip, phrase):
    """Oracle: Task 7a by hand at the default z = 0.8, with I_N written where z I_N belongs."""
    z = DEFAULTS["z"]
    answers = _loaded_answers(5.0, 1.5, z)
    assert lab.check_loaded_start(**answers, h=5.0, overload=1.5, z=z, h_sim=5e-5).passed
    name, wrong = _loaded_without_z(5.0, 1.5, z)[slip]
    _fails_with(lab.check_loaded_start(**{**answers, name: wrong}, h=5.0, overload=1.5, z=z, h_sim=5e-5), phrase)


@pytest.mark.parametrize("slip, phrase", [
    ("open", "the drop at the rated current I_N: z is left out"),
    ("P", "drop under the rated current I_N: z is left out"),
])
def test_task7b_z_left_out_gets_its_hint(slip, phrase):
    """Oracle: the two drops by hand at the default z = 0.8, with I_N written where z I_N belongs."""
    p, d, z = DriveParameters(), _design(5.0), DEFAULTS["z"]
    answers = {"dn_open_loop": z * p.IN * p.R / p.Ce, "dn_P_asr": p.beta * z * p.IN / (d["Kn"] * p.alpha)}
    assert lab.check_steady_drop(**answers, h=5.0, z=z).passed
    name, wrong = _drops_without_z(5.0)[slip]
    _fails_with(lab.check_steady_drop(**{**answers, name: wrong}, h=5.0, z=z), phrase)


#: The relative tolerance of each single-number check of Tasks 7a and 7b (check_value's default 1e-6
#: for the open-loop drop).
TOLERANCE = {"sigma_n_loaded": 1e-4, "t_II_loaded": 2e-3, "dn_open_loop": 1e-6, "dn_P_asr": 1e-4}


def test_at_the_defaults_leaving_out_z_misses_every_answer_by_more_than_the_tolerance():
    """The checks compare single numbers: at the default z = 0.8 every answer with I_N in place of z I_N
    (by hand) misses the right one by more than three times the check's tolerance (at z = 1 each
    would be right by chance)."""
    p, d, z = DriveParameters(), _design(5.0), DEFAULTS["z"]
    right = {**_loaded_answers(5.0, 1.5, z), "dn_open_loop": z * p.IN * p.R / p.Ce,
             "dn_P_asr": p.beta * z * p.IN / (d["Kn"] * p.alpha)}
    slips = [*_loaded_without_z(5.0, 1.5, z).values(), *_drops_without_z(5.0).values()]
    for name, wrong in slips:
        assert abs(wrong - right[name]) > 3 * TOLERANCE[name] * abs(right[name]), (name, wrong, right[name])
    assert z != 1.0 and ALTERNATIVE["z"] not in (1.0, z)


def test_at_the_rated_load_leaving_out_z_cannot_be_told_apart():
    """Why the default is not z = 1: there I_N and z I_N are one number, and the check accepts both
    (oracle: the same answers by hand)."""
    right = _loaded_answers(5.0, 1.5, 1.0)
    for name, wrong in _loaded_without_z(5.0, 1.5, 1.0).values():
        assert wrong == pytest.approx(right[name], rel=1e-12)
    assert lab.check_loaded_start(**right, h=5.0, overload=1.5, z=1.0, h_sim=5e-5).passed


def test_task7_load_of_the_default_is_named_when_z_changes():
    """With z = 0.5 the answers for the lab's default z = 0.8 (by hand) are recognised as the default's,
    and those for the rated load I_N as z left out."""
    p, d, default = DriveParameters(), _design(5.0), DEFAULTS["z"]
    drop_P = p.beta * 0.5 * p.IN / (d["Kn"] * p.alpha)
    result = lab.check_steady_drop(default * p.IN * p.R / p.Ce, drop_P, h=5.0, z=0.5)
    _fails_with(result, "z = 0.8, the lab's default")
    _fails_with(lab.check_steady_drop(p.IN * p.R / p.Ce, drop_P, h=5.0, z=0.5), "z is left out")
    answers = {**_loaded_answers(5.0, 1.5, 0.5), "sigma_n_loaded": _sigma(5.0, 1.5, default)}
    _fails_with(lab.check_loaded_start(**answers, h=5.0, overload=1.5, z=0.5, h_sim=5e-5), "z = 0.8, the lab's default")
    answers = {**_loaded_answers(5.0, 1.5, 0.5), "t_II_loaded": _loaded_answers(5.0, 1.5, default)["t_II_loaded"]}
    _fails_with(lab.check_loaded_start(**answers, h=5.0, overload=1.5, z=0.5, h_sim=5e-5), "z = 0.8, the lab's default")


def test_task3_design_for_the_default_h_is_named_when_h_changes():
    """Oracle: the design for h = 5 by hand, handed in with h = 4."""
    d = _design(5.0)
    result = lab.check_speed_design(_design(4.0)["T_sum_n"], d["tau_n"], d["KN"], d["Kn"], h=4.0)
    _fails_with(result, "h = 5, the lab's default")


# ---------------------------------------------------------------------------------------------
# Task 8a: the wound-up ASR integral
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def windup_start():
    p, result = _start(1.5, 5.0, 5e-5, anti_windup="none")
    k = int(np.flatnonzero(result.n >= p.nN)[0])
    d = _design(5.0)
    estimate = d["Kn"] / d["tau_n"] * 0.5 * p.alpha * p.nN * result.t[k]
    return p, result, k, d, estimate


@pytest.mark.parametrize("wrong, phrase", [
    (lambda p, r, k, d, e: (r.Ui_ref[k], e), "that is the ASR output"),
    (lambda p, r, k, d, e: (r.states[k, 5], e), "the ACR's integral"),
    (lambda p, r, k, d, e: (r.states[k, 2], 2 * e), "half the rectangle"),
    (lambda p, r, k, d, e: (r.states[k, 2], e / p.alpha), "the ASR error is a voltage"),
])
def test_task8a_slips_get_their_hint(windup_start, wrong, phrase):
    """Oracle: the 'none' run of simulate_drive, read at the first n >= n*, and the triangle by hand."""
    p, result, k, d, estimate = windup_start
    assert lab.check_windup_integral(result.states[k, 2], estimate, h=5.0, overload=1.5, h_sim=5e-5).passed
    _fails_with(lab.check_windup_integral(*wrong(p, result, k, d, estimate), h=5.0, overload=1.5, h_sim=5e-5),
                phrase)


# ---------------------------------------------------------------------------------------------
# Tasks 9, 10: the structure graph and the linear loop
# ---------------------------------------------------------------------------------------------


def _graph_by_hand(p, d):
    """P and W of the nine elements, typed from the task's table."""
    P = np.array([[1, p.Ton, 1, 0], [1, p.Ton, p.alpha, 0], [0, d["tau_n"], d["Kn"], d["Kn"] * d["tau_n"]],
                  [1, p.Toi, 1, 0], [1, p.Toi, p.beta, 0], [0, d["tau_i"], d["Ki"], d["Ki"] * d["tau_i"]],
                  [1, p.Ts, p.Ks, 0], [1, p.Tl, 1 / p.R, 0], [0, p.Ce * p.Tm, p.R, 0]], dtype=float)
    W = np.zeros((9, 9))
    W[1, 8] = W[3, 2] = W[4, 7] = W[6, 5] = W[8, 7] = 1.0
    W[2, 0], W[2, 1], W[5, 3], W[5, 4], W[7, 6], W[7, 8] = 1.0, -1.0, 1.0, -1.0, 1.0, -p.Ce
    return P, W


def test_task9_a_row_of_P_scaled_by_a_factor_is_the_same_element():
    """R/(Ce Tm s) as [0, 1, R/(Ce Tm), 0] and the ASR as [0, 1, Kn/tau_n, Kn] are correct answers too."""
    p, d = DriveParameters(), _design(5.0)
    P, W = _graph_by_hand(p, d)
    assert lab.check_structure_graph(P, W, h=5.0).passed
    scaled = P.copy()
    scaled[8] = [0, 1, p.R / (p.Ce * p.Tm), 0]
    scaled[2] = scaled[2] / d["tau_n"]
    scaled[0] = -2 * scaled[0]
    assert lab.check_structure_graph(scaled, W, h=5.0).passed
    wrong = scaled.copy()
    wrong[8] = [0, 1, p.R / p.Ce, 0]  # Tm left out: not a multiple of the row
    assert not lab.check_structure_graph(wrong, W, h=5.0).passed


@pytest.mark.parametrize("block, phrase", [
    ({"back_emf": False}, "back-EMF loop is missing"),
    ({"current_reference_filter": False}, "current reference filter"),
])
def test_task10_missing_blocks_get_their_hint(block, phrase):
    """Oracle: the loop built with python-control from the block diagram, one block left out."""
    p, d = DriveParameters(), _design(5.0)
    assert lab.check_linear_loop(_closed_loop(p, d), h=5.0).passed
    _fails_with(lab.check_linear_loop(_closed_loop(p, d, **block), h=5.0), phrase)


# ---------------------------------------------------------------------------------------------
# The parameter contract: the rules, and correct answers at the alternative values
# ---------------------------------------------------------------------------------------------


def test_the_declared_defaults_and_alternatives_are_the_documented_ones():
    """Oracle: the values written out at the top of this file (the notebook's and the tests' values)."""
    assert lab.PARAMETERS.defaults() == DEFAULTS
    assert {name: parameter.alternative for name, parameter in lab.PARAMETERS.items()} == ALTERNATIVE


@pytest.mark.parametrize("values, name, phrase", [
    ({"h": 1.5}, "h", "2 <= h <= 20"),
    ({"overload": 3.0}, "overload", "1 < overload <= 2.5"),
    ({"z": 1.5}, "z", "z < overload"),
    ({"z": 1.45}, "z", "z <= overload - 0.1"),
    ({"overload": 2.0, "z": 1.95}, "z", "z <= overload - 0.1"),
    ({"h_sim": 3e-5}, "h_sim", "must divide the span, 0.5 s"),
    ({"h_sim": 2.5e-4}, "h_sim", "h_sim <= 0.0002 s"),
])
def test_a_value_that_breaks_its_rule_is_refused_in_the_parameter_cell(values, name, phrase):
    """The message names the parameter, its value and the rule (h below 2 or lambda above 2.5 leave the
    lab's stages or the converter's range; z too close to lambda makes stage II outlast its run)."""
    namespace = {**DEFAULTS, **values}
    with pytest.raises(ParameterError, match=rf"{name} = {values[name]:g}.*{phrase.replace('+', '[+]')}"):
        lab.PARAMETERS.use(namespace, show=False)


def test_z_may_come_within_0_1_of_the_overload_factor():
    """The boundary of the rule is allowed (to rounding): 1.5 - 0.1 and 1.1 - 0.1."""
    lab.PARAMETERS.use({**DEFAULTS, "z": 1.4}, show=False)
    lab.PARAMETERS.use({**DEFAULTS, "overload": 1.1, "z": 1.0}, show=False)


def test_correct_answers_at_the_alternative_values_pass():
    """Every parameter at its alternative value; oracles: the design and the predictions by hand, the
    loop with python-control, the start-up measured by hand on simulate_drive's run."""
    h, overload, z, h_sim = (ALTERNATIVE[name] for name in ("h", "overload", "z", "h_sim"))
    p, d = _drive(overload), _design(h)
    results = [
        lab.check_derived(**_derived(overload), overload=overload),
        lab.check_speed_design(d["T_sum_n"], d["tau_n"], d["KN"], d["Kn"], h=h),
        lab.check_predicted_overshoot(_sigma(h, overload, 0.0), h=h, overload=overload),
        lab.check_loaded_start(**_loaded_answers(h, overload, z), h=h, overload=overload, z=z, h_sim=h_sim),
        lab.check_steady_drop(z * p.IN * p.R / p.Ce, p.beta * z * p.IN / (d["Kn"] * p.alpha), h=h, z=z),
        lab.check_structure_graph(*_graph_by_hand(p, d), h=h),
        lab.check_linear_loop(_closed_loop(p, d), h=h),
    ]
    _, start = _start(overload, h, h_sim)
    results.append(lab.check_start_metrics(**_measures(p, start), h=h, overload=overload, h_sim=h_sim))
    assert [result.passed for result in results] == [True] * len(results), [str(r) for r in results if not r]


def test_the_textbook_answers_fail_at_the_alternative_values():
    """The checks follow the parameters: the defaults' answers (by hand) are not accepted for the alternatives."""
    h, overload = ALTERNATIVE["h"], ALTERNATIVE["overload"]
    assert not lab.check_derived(**_derived(1.5), overload=overload).passed
    d = _design(5.0)
    assert not lab.check_speed_design(d["T_sum_n"], d["tau_n"], d["KN"], d["Kn"], h=h).passed
    assert not lab.check_predicted_overshoot(_sigma(5.0, 1.5, 0.0), h=h, overload=overload).passed
    assert type2_disturbance_peak(h).ratio != type2_disturbance_peak(5.0).ratio
