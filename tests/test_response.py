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
