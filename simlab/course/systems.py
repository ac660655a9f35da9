"""Systems that several labs share: the seed's RK4 closed loop and the four-element loop.

Course material, not library: the seed's own program is replayed here as the seed prints it
(with its one missing line restored), so that every lab that compares against it uses the same
replay. A lab module imports what it needs from here, never from another lab.

* The seed's RK4 lab (seed 003): G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) in unity negative feedback,
  step r = 5, Tf = 5 s, h = 0.02 s. Used in lab02, lab03, lab04 and course/01, course/03.
* A stiff (病态) second-order system, G(s) = 1000 / ((s + 1)(s + 1000)). Used in lab02 and
  lab04.
* The four-element loop of a textbook structure-graph example: (s + 0.5)/s, 1/(s + 0.1),
  1/(s + 2), 20/(s + 10) in unity feedback, as connection matrices. Used in lab05, lab06 and
  course/04.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "SEED_R",
    "SEED_TF",
    "SEED_H",
    "seed_rk4_system",
    "seed_rk4_program",
    "seed_rk4_exact",
    "stiff_system",
    "stiff_exact",
    "LOOP_P",
    "LOOP_W",
    "LOOP_W0",
    "LOOP_WC",
]

# ---------------------------------------------------------------------------------------------
# The seed's RK4 lab
# ---------------------------------------------------------------------------------------------


#: Step amplitude, final time and step of the seed's RK4 lab.
SEED_R, SEED_TF, SEED_H = 5.0, 5.0, 0.02


def seed_rk4_system():
    """Closed loop of G(s) = 1/(s^3 + 4 s^2 + 8 s + 5) with unity negative feedback, by hand.

    The closed loop is G / (1 + G) = 1 / (s^3 + 4 s^2 + 8 s + 6); in controllable canonical form
    (the realization of MATLAB's ``tf2ss``) the first row of A holds -a1, -a2, -a3.

    Returns
    -------
    A : ndarray, shape (3, 3)
    b : ndarray, shape (3,)
    C : ndarray, shape (3,)
    """
    A = np.array([[-4.0, -8.0, -6.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    b = np.array([1.0, 0.0, 0.0])
    C = np.array([0.0, 0.0, 1.0])
    return A, b, C


def seed_rk4_program(A, b, C, r=SEED_R, Tf=SEED_TF, h=SEED_H):
    """The seed's RK4 listing replayed line by line, with its missing ``K1=A*x+b*r`` restored.

    Returns
    -------
    t, y : ndarray, shape (N + 1,)
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    C = np.asarray(C, dtype=float)
    n_steps = round(Tf / h)
    x = np.zeros(len(A))
    y, t = [0.0], [0.0]
    for i in range(n_steps):
        K1 = A @ x + b * r  # the line the seed's listing drops
        K2 = A @ (x + h * K1 / 2) + b * r
        K3 = A @ (x + h * K2 / 2) + b * r
        K4 = A @ (x + h * K3) + b * r
        x = x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6
        y.append(float(C @ x))
        t.append(t[i] + h)
    return np.array(t), np.array(y)


def seed_rk4_exact(t, r=SEED_R):
    """Exact step response r * y_step(t) of 1/(s^3 + 4 s^2 + 8 s + 6), by ``scipy.signal.step``."""
    from scipy import signal

    t = np.asarray(t, dtype=float)
    _, y = signal.step(signal.lti([1.0], [1.0, 4.0, 8.0, 6.0]), T=t)
    return r * y


# ---------------------------------------------------------------------------------------------
# A stiff system
# ---------------------------------------------------------------------------------------------


def stiff_system():
    """State space of G(s) = 1000 / ((s + 1)(s + 1000)), time constants 1 s and 1 ms.

    Returns
    -------
    A : ndarray, shape (2, 2)
    B : ndarray, shape (2,)
    C : ndarray, shape (2,)
        Controllable canonical form of y'' + 1001 y' + 1000 y = 1000 u, with x = [y', y] so
        that y = x[1].
    """
    A = np.array([[-1001.0, -1000.0], [1.0, 0.0]])
    B = np.array([1000.0, 0.0])
    C = np.array([0.0, 1.0])
    return A, B, C


def stiff_exact(t):
    """Exact unit-step response y(t) = 1 - (1000/999) e^{-t} + (1/999) e^{-1000 t}."""
    t = np.asarray(t, dtype=float)
    return 1.0 - 1000.0 / 999.0 * np.exp(-t) + 1.0 / 999.0 * np.exp(-1000.0 * t)



# ---------------------------------------------------------------------------------------------
# The four-element loop
# ---------------------------------------------------------------------------------------------

# The four-element loop: (s + 0.5)/s, 1/(s + 0.1), 1/(s + 2), 20/(s + 10), unity feedback.
LOOP_P = np.array([[0.0, 1.0, 0.5, 1.0], [0.1, 1.0, 1.0, 0.0], [2.0, 1.0, 1.0, 0.0], [10.0, 1.0, 20.0, 0.0]])
LOOP_W = np.array([[0.0, 0.0, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
LOOP_W0 = np.array([1.0, 0.0, 0.0, 0.0])
LOOP_WC = np.array([0.0, 0.0, 0.0, 1.0])
