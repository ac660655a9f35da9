"""Lab 03 experiments, against python-control, scipy and sympy."""

import control
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
from scipy import signal

from simlab.course import lab03_models as lab


def test_seed_transfer_function_expands_the_factored_form():
    """Oracle: sympy expansion of (s+8)(s^2+2s+5) / ((2s+3)(3s^2+4s+13))."""
    s = sp.Symbol("s")
    num = sp.Poly(sp.expand((s + 8) * (s**2 + 2 * s + 5)), s).all_coeffs()
    den = sp.Poly(sp.expand((2 * s + 3) * (3 * s**2 + 4 * s + 13)), s).all_coeffs()
    np.testing.assert_array_equal(lab.G_NUM, [float(c) for c in num])
    np.testing.assert_array_equal(lab.G_DEN, [float(c) for c in den])


def test_differential_equation_text():
    assert lab.differential_equation(lab.G_NUM, lab.G_DEN) == (
        "6 y''' + 17 y'' + 38 y' + 39 y = u''' + 10 u'' + 21 u' + 40 u")


def test_model_forms_match_scipy():
    """Oracle: scipy.signal.tf2ss and tf2zpk."""
    forms = lab.model_forms()
    for ours, theirs in zip(forms.ss, signal.tf2ss(lab.G_NUM, lab.G_DEN)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)
    z, p, k = signal.tf2zpk(lab.G_NUM, lab.G_DEN)
    z_ours, p_ours, k_ours = forms.zpk
    np.testing.assert_allclose(np.sort_complex(z_ours), np.sort_complex(z), rtol=1e-10)
    np.testing.assert_allclose(np.sort_complex(p_ours), np.sort_complex(p), rtol=1e-10)
    assert k_ours == pytest.approx(k)
    assert forms.agree


def test_format_roots_is_platform_stable():
    assert lab.format_roots([-1.5 + 1e-17j, -1 + 2j, -1 - 2j]) == "-1.5000, -1.0000 ± 2.0000j"


def test_c2d_matches_python_control():
    """Oracle: python-control c2d (zoh, foh, tustin) at T = 1 s."""
    G = control.tf(lab.G_NUM, lab.G_DEN)
    discrete = lab.discretized()
    for method, (numd, dend) in (("zoh", discrete.zoh), ("foh", discrete.foh), ("tustin", discrete.tustin)):
        Gd = control.c2d(G, 1.0, method="bilinear" if method == "tustin" else method)
        for z in (0.3, 1j, -0.5 + 0.2j):
            ours = np.polyval(numd, z) / np.polyval(dend, z)
            assert complex(ours) == pytest.approx(complex(Gd(z)), rel=1e-9)


def test_connections_match_python_control():
    """Oracle: python-control series, parallel and feedback of G and H."""
    G = control.tf(lab.G_NUM, lab.G_DEN)
    H = control.tf(lab.H_NUM, lab.H_DEN)
    joined = lab.connections()
    for connection, expected in ((joined.series, G * H), (joined.parallel, G + H),
                                 (joined.feedback, control.feedback(G, H))):
        num, den = connection.num, connection.den
        for s in (0.5, 2j, -0.3 + 1j):
            assert complex(np.polyval(num, s) / np.polyval(den, s)) == pytest.approx(complex(expected(s)), rel=1e-10)


def test_minreal_cancels_the_common_factor_s_plus_one():
    """Oracle: H = (s+1)/((s+1)(s+5)), so the series connection loses exactly the pole -1."""
    reduced = lab.connections().series.minreal
    np.testing.assert_allclose(reduced.removed_poles, [-1.0], atol=1e-6)
    assert len(reduced.den) - 1 == 4


def test_reduction_error_is_within_the_balanced_truncation_bound():
    """Oracle: the balanced-truncation bound |G(0) - G_r(0)| <= ||G - G_r||_inf <= 2 sum(discarded HSV)."""
    for order in (2, 3):
        result = lab.reduction(order)
        assert abs(result.dc_full - result.dc_reduced) <= result.error_bound + 1e-12
        assert result.max_difference < 0.05


def test_matchdc_reduction_keeps_the_dc_gain():
    result = lab.reduction(2, method="matchdc")
    assert result.dc_reduced == pytest.approx(result.dc_full, rel=1e-9)


def test_step_response_matches_python_control():
    """Oracle: python-control step_response of G."""
    t = np.linspace(0, 10, 1001)
    expected = control.step_response(control.tf(lab.G_NUM, lab.G_DEN), T=t).outputs
    np.testing.assert_allclose(lab.step_response(lab.G_NUM, lab.G_DEN, t), expected, atol=1e-9)


def test_analogous_systems_share_one_model():
    result = lab.analogous_systems(m=2.0, f=0.3, k=5.0)
    assert result.same and result.L == 2.0 and result.R == 0.3 and result.C == pytest.approx(0.2)


def test_seed_rk4_lab_via_feedback_and_tf2ss_equals_the_hand_model():
    result = lab.seed_rk4_with_feedback()
    np.testing.assert_allclose(result.den, [1, 4, 8, 6])
    assert result.difference_to_lab02 < 1e-12


def test_check_tf2ss_accepts_any_realization_and_names_d():
    ss = control.ss(control.tf(lab.G_NUM, lab.G_DEN))
    assert lab.check_tf2ss(ss.A, ss.B, ss.C, ss.D)
    A, B, C, _ = lab.model_forms().ss
    assert "only D" in str(lab.check_tf2ss(A, B, C, [[0.0]]))


def test_check_connection_recognises_positive_feedback():
    from simlab.lti import feedback

    num, den = feedback(lab.G_NUM, lab.G_DEN, lab.H_NUM, lab.H_DEN, sign=+1)
    result = lab.check_connection("feedback", num, den)
    assert not result and "positive feedback" in str(result)


def test_check_connection_names_the_kinds():
    with pytest.raises(ValueError, match="kind must be one of 'series', 'parallel', 'feedback'"):
        lab.check_connection("cascade", lab.G_NUM, lab.G_DEN)


def test_run_data_is_the_typed_result_and_every_figure_draws_from_it():
    matplotlib.use("Agg")
    result = lab.run()
    data = result.data
    assert isinstance(data, lab.Lab03Results)
    assert isinstance(data.forms, lab.ModelForms)
    assert isinstance(data.discrete, lab.Discretization)
    assert isinstance(data.connections, lab.Connections)
    assert isinstance(data.analogous, lab.AnalogousSystems)
    assert isinstance(data.seed_rk4, lab.SeedRK4Feedback)
    assert [(r.order, r.method) for r in data.reductions] == [
        (2, "truncate"), (3, "truncate"), (2, "matchdc"), (4, "truncate")]
    for stem, draw, figure_data in result.figures:
        assert figure_data is data.reductions
        figure = draw(figure_data)
        try:
            assert figure.axes, stem
        finally:
            plt.close(figure)


# ---------------------------------------------------------------------------------------------
# The student path: task checks that follow the notebook's parameters (issue 13)
# ---------------------------------------------------------------------------------------------


def test_task_checks_accept_the_references_of_every_task():
    """Oracle: each task's own reference answers, computed with the lab's parameters."""
    for name, task in lab.TASKS.items():
        assert lab.check(name, namespace=task.reference()), name


def test_check_transfer_function_names_ascending_order_and_swaps():
    assert lab.check_transfer_function(lab.G_NUM, lab.G_DEN)
    assert "ascending" in str(lab.check_transfer_function(lab.G_NUM[::-1], lab.G_DEN[::-1]))
    assert "swapped" in str(lab.check_transfer_function(lab.G_DEN, lab.G_NUM))


def test_check_tf2ss_names_the_missing_division_and_the_numerator_as_c():
    a, b = lab.G_DEN, lab.G_NUM  # not divided by a0 = 6
    A = np.vstack([-a[1:], np.eye(2, 3)])
    not_divided = lab.check_tf2ss(A, np.eye(3, 1), (b[1:] - b[0] * a[1:]).reshape(1, 3), [[b[0]]])
    assert not not_divided and "leading coefficient" in str(not_divided)
    a, b = lab.G_DEN / 6, lab.G_NUM / 6
    A = np.vstack([-a[1:], np.eye(2, 3)])
    numerator_as_c = lab.check_tf2ss(A, np.eye(3, 1), b[1:].reshape(1, 3), [[b[0]]])
    assert not numerator_as_c and "not simply the numerator" in str(numerator_as_c)


def test_check_discrete_poles_follows_the_sample_time():
    """Oracle: the poles of python-control's c2d (zoh) of G at T = 0.5 s."""
    G_d = control.c2d(control.tf(lab.G_NUM, lab.G_DEN), 0.5, method="zoh")
    poles = control.poles(G_d)
    assert lab.check_discrete_poles(poles, T=0.5)
    assert not lab.check_discrete_poles(poles, T=1.0)
    p = np.roots(lab.G_DEN)
    assert "Tustin" in str(lab.check_discrete_poles((1 + p * 0.25) / (1 - p * 0.25), T=0.5))


def test_check_connection_names_the_parallel_and_feedback_slips():
    added = lab.check_connection("parallel", np.polyadd(lab.G_NUM, lab.H_NUM), np.polymul(lab.G_DEN, lab.H_DEN))
    assert not added and "common denominator" in str(added)
    den = np.polyadd(np.polymul(lab.G_DEN, lab.H_DEN), np.polymul(lab.G_NUM, lab.H_NUM))
    assert "n1 d2" in str(lab.check_connection("feedback", lab.G_NUM, den))


def test_check_reduction_bound_follows_the_order():
    """Oracle: the error bound that balred reports for the same order."""
    hsv = lab.reduction(3).hsv
    bound = lab.reduction(3).error_bound
    assert lab.check_reduction_bound(hsv, bound, order=3)
    assert not lab.check_reduction_bound(hsv, bound, order=2)
    assert "twice" in str(lab.check_reduction_bound(hsv, bound / 2, order=3))


def test_check_analogous_follows_the_parameters():
    m, f, k = 2.0, 0.8, 5.0
    den = np.array([m, f, k])
    assert lab.check_analogous([1.0], den, m, f, 1 / k, [1.0], den, m=m, f=f, k_spring=k)
    wrong_c = lab.check_analogous([1.0], den, m, f, k, [1.0], [m, f, 1 / k], m=m, f=f, k_spring=k)
    assert "k corresponds to 1/C" in str(wrong_c)


def test_check_seed_feedback_names_the_open_loop_and_positive_feedback():
    """Oracle: python-control feedback of 1/(s^3 + 4s^2 + 8s + 5), negative and positive."""
    closed = control.feedback(control.tf([1], [1, 4, 8, 5]), 1)
    ss = control.ss(closed)
    num, den = closed.num[0][0], closed.den[0][0]
    assert lab.check_seed_feedback(num, den, ss.A, ss.B, ss.C, ss.D)
    open_loop = control.ss(control.tf([1], [1, 4, 8, 5]))
    assert "open loop" in str(lab.check_seed_feedback(num, den, open_loop.A, open_loop.B, open_loop.C, open_loop.D))
    positive = control.feedback(control.tf([1], [1, 4, 8, 5]), 1, sign=1)
    assert "positive feedback" in str(lab.check_seed_feedback(positive.num[0][0], positive.den[0][0],
                                                              ss.A, ss.B, ss.C, ss.D))
