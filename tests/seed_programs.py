"""The seed's MATLAB programs, translated line by line: oracles shared by several test files."""

import numpy as np


def seed_structure_rk4(P, W, W0, r, h, steps, output=2):
    """Seed 003's course-design listing: A = inv(H) Q, B = inv(H) C1 W0, then RK4 for `steps` steps.

    Returns the list y of the output element's value (index `output`), starting with 0.
    """
    P = np.asarray(P, dtype=float)
    W = np.asarray(W, dtype=float)
    A1, B1, C1, D1 = (np.diag(P[:, k]) for k in range(4))
    H = B1 - D1 @ W
    Q = C1 @ W - A1
    A = np.linalg.inv(H) @ Q
    B = np.linalg.inv(H) @ C1 @ np.asarray(W0, dtype=float).reshape(len(P), 1)
    x = np.zeros((len(P), 1))
    y = [0.0]
    for _ in range(steps):
        K1 = A @ x + B * r
        K2 = A @ (x + h * K1 / 2) + B * r
        K3 = A @ (x + h * K2 / 2) + B * r
        K4 = A @ (x + h * K3) + B * r
        x = x + h * (K1 + 2 * K2 + 2 * K3 + K4) / 6
        y.append(float(x[output, 0]))
    return y
