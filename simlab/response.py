"""Measures of a simulated step response (时域性能指标): peak, overshoot, settling time.

All measures are read off the simulation grid, as a student reads them off a plotted
response: a peak between two grid points is missed, and the settling time is the first grid
time after which the response stays inside the band.

Used in lab05 and lab06 (structure-graph loops) and lab02 (the seed's RK4 lab).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simlab.validation import as_finite_scalar, as_real_array

__all__ = ["StepMetrics", "step_metrics"]


@dataclass(frozen=True)
class StepMetrics:
    """Measures of one step response, as returned by :func:`step_metrics`.

    Attributes
    ----------
    peak : float
        Largest value of the response, max_k y_k, in the unit of y.
    t_peak : float
        Time of the peak, in the unit of t (s); the first one if the maximum repeats.
    overshoot : float
        Percent overshoot sigma = 100 max(0, (peak - y_inf) / y_inf) (%); 0 for a response
        that never exceeds its final value.
    settling_time : float
        2 % settling time t_s (s): the first grid time from which on |y - y_inf| <= 0.02 |y_inf|;
        t[0] for a response that never leaves the band, NaN if the response is still outside
        the band at the last grid time.
    """

    peak: float
    t_peak: float
    overshoot: float
    settling_time: float


def step_metrics(t, y, final):
    """Peak, percent overshoot and 2 % settling time of a step response with known final value.

    .. math::
        \\sigma = 100 \\, \\max(0, (y_{peak} - y_\\infty) / y_\\infty) \\ \\%, \\qquad
        t_s = \\min \\{ t_k : |y_j - y_\\infty| \\le 0.02 |y_\\infty| \\ \\forall j \\ge k \\}

    Parameters
    ----------
    t : array_like, shape (N + 1,)
    y : array_like, shape (N + 1,)
    final : float
        The final value y(inf) (from the final-value theorem), non-zero.

    Returns
    -------
    StepMetrics
        ``peak``, ``t_peak``, ``overshoot`` (percent, 0 for a response that never exceeds its
        final value) and ``settling_time``: t[0] if the response never leaves the band (it is
        settled from the start), NaN if it is still outside the band at t[-1] (not settled).

    Raises
    ------
    TypeError
        If ``t``, ``y`` or ``final`` is not numeric (or is complex or bool).
    ValueError
        If ``t`` is not a non-empty, increasing 1-D grid, ``y`` does not have the shape of ``t``,
        a value is NaN or inf, ``final`` is 0 (the overshoot is relative to it), or the overshoot
        overflows the floating-point range (y of 1e308 against a final value of 1, or a final value
        of 1e-320 against y of 1: y and final in different units).

    Examples
    --------
    >>> import numpy as np
    >>> from simlab.response import step_metrics
    >>> t = np.linspace(0, 10, 1001)
    >>> m = step_metrics(t, 1 - np.exp(-t), 1.0)
    >>> round(m.settling_time, 2), m.overshoot
    (3.92, 0.0)
    >>> step_metrics([0.0, 1.0, 2.0], [1.0, 1.0, 1.0], 1.0).settling_time   # never leaves the band
    0.0
    """
    t, y, final = _check_response(t, y, final)
    peak = int(np.argmax(y))
    outside = np.flatnonzero(np.abs(y - final) > 0.02 * abs(final))
    if not outside.size:  # never outside the band: settled from the first sample on
        settling = float(t[0])
    else:  # settled at the sample after the last one outside, NaN if that was the last sample
        settling = float(t[outside[-1] + 1]) if outside[-1] + 1 < len(t) else float("nan")
    with np.errstate(over="ignore", invalid="ignore"):
        overshoot = float(max(0.0, 100.0 * (y[peak] - final) / final))
    if not math.isfinite(overshoot):
        raise ValueError(
            f"the overshoot 100 (peak - final) / final overflows the floating-point range for the peak "
            f"of y, {float(y[peak]):.6g}, and final = {final:.6g}: give y and final in the same unit "
            f"(final is y(inf) of this response), or scale both.")
    return StepMetrics(peak=float(y[peak]), t_peak=float(t[peak]), overshoot=overshoot, settling_time=settling)


def _check_response(t, y, final):
    """The arguments of :func:`step_metrics`, checked: t and y as float arrays, final as a float."""
    t = as_real_array(t, "t", ndim=1)
    if t.size == 0:
        raise ValueError("t must be a non-empty time grid, shape (N + 1,), got an empty array.")
    bad = np.flatnonzero(np.diff(t) <= 0)
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"t must increase: t[{k + 1}] = {float(t[k + 1])!r} <= t[{k}] = {float(t[k])!r}.")
    y = as_real_array(y, "y")
    if y.shape != t.shape:
        raise ValueError(f"y must have one value per time of t, shape {t.shape}, got shape {y.shape}.")
    final = as_finite_scalar(final, "final")
    if final == 0:
        raise ValueError(f"final (the final value y(inf)) must be non-zero, got {final!r}: the overshoot is "
                         f"relative to it.")
    return t, y, final
