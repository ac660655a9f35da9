"""simlab.response.step_metrics against closed forms of first- and second-order step responses."""

import numpy as np
import pytest

from simlab.response import step_metrics


def test_first_order_settling_time_is_four_time_constants():
    """Oracle: 1 - e^{-t/tau} enters the 2 % band at t = tau ln 50 = 3.912 tau."""
    tau = 0.5
    t = np.linspace(0.0, 10.0, 100001)
    m = step_metrics(t, 1.0 - np.exp(-t / tau), 1.0)
    assert m.overshoot == 0.0
    assert m.settling_time == pytest.approx(tau * np.log(50.0), abs=2e-4)


def test_second_order_overshoot_and_peak_time():
    """Oracle: sigma = exp(-zeta pi / sqrt(1 - zeta^2)), t_p = pi / (omega_n sqrt(1 - zeta^2))."""
    zeta, wn = 0.3, 2.0
    wd = wn * np.sqrt(1 - zeta**2)
    t = np.linspace(0.0, 20.0, 200001)
    y = 1 - np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta / np.sqrt(1 - zeta**2) * np.sin(wd * t))
    m = step_metrics(t, 3.0 * y, 3.0)
    assert m.overshoot == pytest.approx(100 * np.exp(-zeta * np.pi / np.sqrt(1 - zeta**2)), rel=1e-6)
    assert m.t_peak == pytest.approx(np.pi / wd, abs=1e-4)
    assert m.peak == pytest.approx(3.0 * (1 + np.exp(-zeta * np.pi / np.sqrt(1 - zeta**2))), rel=1e-8)


def test_unsettled_response_has_nan_settling_time():
    t = np.linspace(0.0, 1.0, 11)
    assert np.isnan(step_metrics(t, t, 10.0).settling_time)


def test_a_response_that_never_leaves_the_band_is_settled_at_the_first_time():
    """Rule (the docstring's t_s = min{t_k : |y_j - y_inf| <= 0.02 |y_inf| for all j >= k}): if every
    sample is inside the band the set holds every t_k, so t_s = t[0]; not NaN (issue 23)."""
    assert step_metrics([0.0, 1.0, 2.0], [1.0, 1.0, 1.0], 1.0).settling_time == 0.0
    assert step_metrics([5.0, 6.0, 7.0], [2.01, 1.99, 2.0], 2.0).settling_time == 5.0


def test_settling_at_the_last_sample_and_never_settling():
    """Rule (the same formula): inside the band only at t[-1] gives t[-1]; outside at t[-1] gives NaN."""
    assert step_metrics([0.0, 1.0, 2.0], [0.0, 0.5, 1.0], 1.0).settling_time == 2.0
    assert np.isnan(step_metrics([0.0, 1.0, 2.0], [1.0, 1.0, 0.5], 1.0).settling_time)


def test_an_overshoot_that_overflows_is_refused_naming_y_and_final():
    """Rule (no silent inf): 100 (peak - final) / final overflows for y and final in different units."""
    t = np.linspace(0.0, 1.0, 21)
    y = 1 - np.exp(-5 * t)
    with pytest.raises(ValueError, match=r"overshoot .*overflows .*final = 9\.99989e-321"):
        step_metrics(t, y, 1e-320)
    with pytest.raises(ValueError, match=r"overshoot .*peak of y, 9\.93262e\+307"):
        step_metrics(t, 1e308 * y, 1.0)
