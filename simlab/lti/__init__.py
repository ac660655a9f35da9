"""Linear time-invariant (LTI, 线性定常) models: forms, conversions, connections and reduction.

The concept of the modelling lab: one system written in three forms, transfer function
``(num, den)``, state space ``(A, B, C, D)`` and zero-pole-gain ``(z, p, k)``, converted from one
to another (模型转换), connected in series, parallel and feedback (连接), and reduced (降阶)
in an explicit step that reports what it removed. MATLAB's names and conventions throughout.

* :mod:`simlab.lti.forms`: the forms and what they share (coefficient normalisation, the
  properness check); :class:`TF`, a transfer-function value with ``*``, ``+``, ``.feedback``;
* :mod:`simlab.lti.conversions`: :func:`tf2ss`, :func:`ss2tf`, :func:`tf2zp`, :func:`zp2tf`,
  :func:`ss2zp`, :func:`zp2ss`;
* :mod:`simlab.lti.interconnection`: :func:`series`, :func:`parallel`, :func:`feedback`, none
  of which cancels a pole-zero pair;
* :mod:`simlab.lti.reduction`: :func:`minreal`, :func:`hankel_singular_values`, :func:`balred`
  and their results :class:`MinrealResult`, :class:`BalredResult`;
* :mod:`simlab.lti.pade_approximant`: :func:`pade`, the Padé approximant (帕德近似) of the
  pure delay e^{-tau s} (lab11).

Every name is re-exported here: ``from simlab.lti import tf2ss``. Every function takes proper
models only (deg num <= deg den); state-space arguments follow the shape rules of
:func:`simlab.validation.as_state_space` (n = 0 states is a static gain, as ``tf2ss`` returns
for a constant).

Used in lab03, the modelling lab of seed 003 (实验一 系统建模的MATLAB实现), whose example is
G(s) = (s+8)(s^2+2s+5) / ((2s+3)(3s^2+4s+13)), and by :mod:`simlab.digital` (``c2d``).

Examples
--------
>>> from simlab.lti import feedback, tf2ss
>>> feedback([1], [1, 4, 8, 5], 1, 1)[1].tolist()           # the closed loop of the RK4 lab
[1.0, 4.0, 8.0, 6.0]
>>> [M.shape for M in tf2ss(3, 2)]                          # a static gain has no states
[(0, 0), (0, 1), (1, 0), (1, 1)]
"""

from simlab.lti.conversions import ss2tf, ss2zp, tf2ss, tf2zp, zp2ss, zp2tf
from simlab.lti.forms import TF
from simlab.lti.interconnection import feedback, parallel, series
from simlab.lti.pade_approximant import pade
from simlab.lti.reduction import (
    BalredResult,
    MinrealResult,
    balred,
    hankel_singular_values,
    minreal,
)

__all__ = [
    "tf2ss",
    "ss2tf",
    "tf2zp",
    "zp2tf",
    "ss2zp",
    "zp2ss",
    "series",
    "parallel",
    "feedback",
    "minreal",
    "MinrealResult",
    "hankel_singular_values",
    "balred",
    "BalredResult",
    "TF",
    "pade",
]
