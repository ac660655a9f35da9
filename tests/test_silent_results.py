"""Issue 23, silent results: c2d's matched method at z = 1, and self-checks with a missing reference.

(The other silent results of the issue are specified with their modules: step_metrics in
test_response.py, TF.dcgain in test_lti.py, Relay's y0 in test_nonlinear.py, discretize of a 0 x 0
system and lsim's input_delay bound in test_similarity.py, callables in test_elementwise.py.)
"""

import math

import numpy as np
import pytest

from simlab.course.check import check_array, check_value
from simlab.digital import MATCHED_RTOL, c2d

# ---------------------------------------------------------------------------------------------
# c2d(..., "matched"): a pole or zero mapped onto z = 1 is refused, as the docstring says
# ---------------------------------------------------------------------------------------------


def test_matched_refuses_poles_mapped_onto_z_equal_1():
    """Rule (docstring): T = 2 pi maps the poles +-j of 1/(s^2 + 1) onto z = e^{+-2 pi j} = 1; the
    old exact test 1 - e^{sT} != 0 passed 2.4e-16 and returned a numerator of 1.5e-32."""
    with pytest.raises(ValueError, match=r"T = 6\.28319 maps the pole s = .*1j onto z = e\^\(sT\) = 1"):
        c2d([1.0], [1.0, 0.0, 1.0], 2 * math.pi, "matched")


def test_matched_refuses_zeros_and_higher_multiples_and_double_poles():
    """Rule: s T = 2 pi j m for any m != 0, for zeros as for poles; a double pole +-j (found by
    np.roots only to about sqrt(eps)) is caught too."""
    with pytest.raises(ValueError, match=r"maps the zero s = .*1j .*m = 1"):
        c2d([1.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0], 2 * math.pi, "matched")
    with pytest.raises(ValueError, match=r"maps the pole s = .*2j .*m = 3"):
        c2d([1.0], [1.0, 0.0, 4.0], 3 * math.pi, "matched")
    with pytest.raises(ValueError, match=r"maps the pole s = .*1j"):
        c2d([1.0], np.polymul([1.0, 0.0, 1.0], [1.0, 0.0, 1.0]), 2 * math.pi, "matched")


def test_matched_tolerance_is_relative_to_the_scale_of_s_T():
    """Rule (MATCHED_RTOL = sqrt(eps)): T = 2 pi (1 + 1e-9) is within the tolerance of z = 1 and
    refused, T = 2 pi (1 + 1e-3) is not; its DC gain num(1)/den(1) is G(0) = 1 (the matched gain)."""
    assert MATCHED_RTOL == pytest.approx(1.49e-8, rel=1e-2)
    with pytest.raises(ValueError, match=r"maps the pole"):
        c2d([1.0], [1.0, 0.0, 1.0], 2 * math.pi * (1 + 1e-9), "matched")
    numd, dend = c2d([1.0], [1.0, 0.0, 1.0], 2 * math.pi * (1 + 1e-3), "matched")
    assert np.polyval(numd, 1.0) / np.polyval(dend, 1.0) == pytest.approx(1.0, rel=1e-9)


def test_matched_keeps_the_integrators_pole_at_z_equal_1():
    """Oracle (the matched definition, Franklin-Powell-Emami-Naeini): s = 0 goes to z = 1 and is
    not refused; the PI 2 + 4/s at T = 0.5 gets the zero e^{-1} and K_i T/(1 - e^{-1}) = 2/(1 - e^{-1})."""
    numd, dend = c2d([2.0, 4.0], [1.0, 0.0], 0.5, "matched")
    K = 2.0 / (1.0 - math.exp(-1.0))
    np.testing.assert_allclose(numd, [K, -K * math.exp(-1.0)], rtol=1e-13)
    np.testing.assert_allclose(dend, [1.0, -1.0], rtol=1e-13)


# ---------------------------------------------------------------------------------------------
# check_array / check_value: a missing or non-finite reference is the lab author's error
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("reference", [None, math.nan, math.inf, [1.0, math.nan], "1.0 2.0"],
                         ids=["None", "nan", "inf", "nan-inside", "text"])
def test_check_array_refuses_a_missing_or_non_finite_reference(reference):
    """Rule (issue 23): the reference is computed by the lab; None or NaN used to pass silently
    (every answer 'differed'); now a ValueError that names reference."""
    with pytest.raises(ValueError, match=r"reference must be .*finite real numbers .*lab"):
        check_array("y_k", [1.0, 2.0], reference)


@pytest.mark.parametrize("reference", [None, math.nan, -math.inf, np.array([math.nan]), [1.0, 2.0], "abc"],
                         ids=["None", "nan", "-inf", "nan-array", "two-numbers", "text"])
def test_check_value_refuses_a_missing_or_non_finite_reference(reference):
    """Rule (issue 23): as check_array; a reference of several numbers is refused likewise."""
    with pytest.raises(ValueError, match=r"reference must be one finite real number"):
        check_value("y(2)", 1.0, reference)


def test_the_refusal_names_the_reference_given():
    """Rule: the message shows what the lab passed (None, not the NaN numpy turns it into)."""
    with pytest.raises(ValueError, match=r"got None \(type NoneType\)"):
        check_value("y(2)", 1.0, None)
    with pytest.raises(ValueError, match=r"got None \(type NoneType\)"):
        check_array("y_k", [1.0], None)


def test_finite_references_are_checked_as_before():
    """Oracle: numpy.isclose with the documented tolerances; one-element arrays count as numbers."""
    assert check_value("y(2)", 11.778, np.array([11.778112]), rtol=1e-4).passed
    assert check_value("y(2)", 2, 2.0).passed
    assert check_array("y_k", [1.0, 2.0], (1.0, 2.0)).passed
    assert not check_array("y_k", [1.0, 2.5], [1.0, 2.0]).passed
    assert not check_value("y(2)", math.nan, 1.0).passed  # a NaN answer is the student's: [not yet]


# ---------------------------------------------------------------------------------------------
# digital: gains and coefficients whose arithmetic overflows are refused, not returned as inf
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("gains", [dict(Kp=1e308), dict(Ki=-1e308), dict(Kd=1e308), dict(N=1e308)],
                         ids=["Kp", "Ki", "Kd", "N"])
def test_analog_pid_refuses_gains_whose_coefficients_overflow(gains):
    """Rule (no silent inf): num = Kp den + Ki lag + Kd N s ... overflowed to inf or NaN for a gain
    of 1e308; now a ValueError that names the gains."""
    from simlab.digital import analog_pid

    args = dict(Kp=2.0, Ki=3.0, Kd=0.5, N=10.0) | gains
    name = next(iter(gains))
    with pytest.raises(ValueError, match=rf"{name} = .*1e\+308.*beyond the floating-point range"):
        analog_pid(**args)


def test_digital_pid_names_the_gains_when_c2d_refuses_their_controller():
    """Rule: c2d's message names num; digital_pid adds the gains num came from (Kp = 1e-320 makes
    the leading coefficient of num out of range for simlab.lti)."""
    from simlab.digital import digital_pid

    with pytest.raises(ValueError, match=r"digital_pid\(Kp = 1e-320.*num"):
        digital_pid(1e-320, 3.0, 0.0, 0.1)


def test_digital_controller_refuses_a_leading_coefficient_that_overflows_the_normalisation():
    """Rule: numd / dend[0] with dend[0] = 1e-320 overflowed to inf silently; now refused, naming dend."""
    from simlab.digital import DigitalController

    with pytest.raises(ValueError, match=r"dend\[0\] = 9\.99989e-321 is too small"):
        DigitalController([1.0, 2.0], [1e-320, -1e-320], T=0.5)
    assert DigitalController([1e-300, 2e-300], [1e-300, -1e-300], T=0.5).numd.tolist() == [1.0, 2.0]
