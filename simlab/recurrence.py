"""The discrete-similarity recurrence x[k+1] = Phi x[k] + G v[k], run without a Python step loop.

:func:`simlab.similarity.lsim` reduces every hold to this one recurrence (:func:`held_input`):
for the zero-order hold G = Gamma and v[k] = u[k]; for the triangle hold
G = [Gamma - Gamma_hat, Gamma_hat] and v[k] = (u[k], u[k+1]). This module runs it in two ways
(lsim's ``method`` picks one):

* :func:`block_recurrence` (``method="block"``): time blocks of L samples. A loop of N / L
  steps advances the block starts; one matrix product then gives every state from its block
  start and the block's inputs, so the work is done by BLAS at any state dimension n.
* :func:`triangular_recurrence` (``method="schur"`` and ``"modal"``): for a triangular Phi each
  state is a first-order recurrence driven by the states below it, run by compiled
  ``scipy.signal.lfilter`` (the time loop is in C), one state after the other.

Both work with Delta = Phi - I, given accurately (:func:`expm_minus_identity`, not the
difference of e^{AT} and I): at small T, e^{lambda T} ~ 1 - |lambda| T, and Phi stored to eps
makes an error eps / (|lambda| T) in 1 - e^{lambda T}, which a step-by-step loop with Phi
carries into the response (scipy's lsim: ~1e-12 of the output at T = 1e-4).

Used by lab04_discrete_similarity (through lsim) and :func:`simlab.structure.simulate`.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["block_length", "block_recurrence", "expm_minus_identity", "held_input", "triangular_recurrence"]


# --- The recurrence of a held input, and Delta = Phi - I to full accuracy ---


def held_input(u, Gamma, Gamma_hat, hold):
    """G and v of x[k+1] = Phi x[k] + G v[k] for the input samples u (N + 1, m) and a hold.

    zoh: G = Gamma, v[k] = u[k]; foh: G = [Gamma - Gamma_hat, Gamma_hat], v[k] = (u[k], u[k+1]),
    from x[k+1] = Phi x[k] + Gamma u[k] + Gamma_hat (u[k+1] - u[k]).
    """
    if hold == "zoh":
        return Gamma, u[:-1]
    return np.hstack([Gamma - Gamma_hat, Gamma_hat]), np.hstack([u[:-1], u[1:]])


def expm_minus_identity(X):
    """e^X - I without cancellation: the Taylor series at X / 2^s, then s doublings.

    e^Y - I = sum_{k=1}^{q} Y^k / k! for Y = X / 2^s with theta = ||Y||_1 <= 1/2, to the degree q
    where the first term left out is below 2^-54 of the first, theta^q / (q+1)! (q <= 14),
    evaluated by Paterson and Stockmeyer's scheme (powers Y^2 .. Y^p, p ~ sqrt(q), then Horner in
    Y^p: about 2 sqrt(q) matrix products instead of q); then e^{2Y} - I = 2 (e^Y - I) +
    (e^Y - I)^2, s times. I is never added, so an entry e^{lambda T} - 1 ~ lambda T keeps its 16
    digits where ``expm(X) - I`` keeps only those of lambda T above eps (5 of 16 at 1e-11).
    """
    norm = float(np.linalg.norm(X, 1))
    s = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    Y, theta = X / 2.0**s, norm / 2.0**s
    q, omitted = 1, theta / 2  # omitted = theta^q / (q+1)!, the first term left out, relative
    while omitted > 2.0**-54:
        q += 1
        omitted *= theta / (q + 1)
    p = max(1, math.isqrt(q))
    powers = [np.eye(len(X)), Y]  # Y^0 .. Y^p
    while len(powers) <= p:
        powers.append(powers[-1] @ Y)
    coefficients = [0.0] + [1.0 / math.factorial(k) for k in range(1, q + 1)]  # c_k = 1/k!, c_0 = 0

    def chunk(j):  # sum_{i<p} c_{jp+i} Y^i: the j-th coefficient of the polynomial in Y^p
        return sum(coefficients[j * p + i] * powers[i] for i in range(p) if j * p + i <= q)

    E = chunk(q // p)
    for j in range(q // p - 1, -1, -1):  # E = chunk(j) + E Y^p
        E = chunk(j) + E @ powers[p]
    for _ in range(s):
        E = E + E + E @ E
    return E


# --- Time blocks with matrix-matrix products ---

#: What sets the block length L (measured on a 2-core machine; only the ratios matter): one step
#: of the loop over the block starts costs about 3 us of Python plus 0.3 ns per entry of its
#: n x n matrix-vector product; one multiply-add inside a matrix-matrix product about 0.05 ns.
_STEP_SECONDS, _STEP_SECONDS_PER_ENTRY, _MULTIPLY_ADD_SECONDS = 3e-6, 3e-10, 5e-11
#: The block matrix W has at most this many entries (32 MB), or a quarter of the states' N n.
_MAX_BLOCK_ENTRIES = 2**22


def block_length(steps, n, m):
    """Block length L of :func:`block_recurrence` for N = ``steps``, n states and m' inputs.

    The loop over the block starts makes N / L steps (Python and an n x n product each), the
    powers of Phi take about L n^3 multiply-adds and the product over the blocks N n (n + L m').
    Their time is least at L = sqrt(N step time / ((N n m' + n^3) multiply-add time)): about 100
    for n = 3, 30 for n = 50, 16 to 32 for n = 200 (one input, N = 1e4 to 1e5). L is that
    rounded to a power of two, at most sqrt(N), with W below 2^22 entries or N n / 4.
    """
    if steps <= 1:
        return 1
    step = _STEP_SECONDS + _STEP_SECONDS_PER_ENTRY * n * n
    work = _MULTIPLY_ADD_SECONDS * (steps * n * m + n**3)
    best = min(math.sqrt(steps * step / work), math.sqrt(steps))
    L = 1 << max(0, round(math.log2(best)))
    while L > 1 and (n + L * m) * (L + 1) * n > max(_MAX_BLOCK_ENTRIES, steps * n // 4):
        L //= 2
    return L


def _block_powers(Delta, L):
    """Phi^0, ..., Phi^(L-1) stacked, shape (L n, n), and D_L = Phi^L - I, for L = 2^k.

    By doubling, from Delta = Phi - I: with D_l = Phi^l - I, the powers l .. 2l-1 are
    Phi^i Phi^l = Phi^i + Phi^i D_l, and D_{2l} = (I + D_l)^2 - I = 2 D_l + D_l^2 (I is never
    added and taken away again, so D keeps full accuracy where Phi^l is close to I).
    """
    n = len(Delta)
    stack = np.empty(((L + 1) * n, n))  # Phi^0 .. Phi^(l-1), then D_l below them
    stack[:n], stack[n : 2 * n] = np.eye(n), Delta
    l = 1
    while l < L:
        D = stack[l * n : (l + 1) * n].copy()
        product = stack[: (l + 1) * n] @ D  # [Phi^i D_l for i < l; D_l^2]: one matrix product
        stack[l * n : 2 * l * n] = stack[: l * n] + product[: l * n]
        stack[2 * l * n : (2 * l + 1) * n] = D + D + product[l * n :]
        l *= 2
    return stack[: L * n], stack[L * n :]


def _block_matrix(powers, G, L):
    """W with [x[bL], v[bL], ..., v[bL + L-1]] W = [x[bL], ..., x[bL + L]] (states as rows).

    Column block j (of n columns) holds x[bL + j] = Phi^j x[bL] + sum_{i<j} Phi^(j-1-i) G v[bL+i]:
    Phi^j^T in the first n rows, then (Phi^(j-1-i) G)^T in the rows of v[bL + i] for i < j, and
    zeros for i >= j (inputs after the state): a block Toeplitz matrix, the kernel
    (Phi^d G)^T on block diagonal d. Shape (n + L m', (L + 1) n); of the last column block,
    x[bL + L], only the input rows are filled: they give the block sums of the block starts.
    """
    n, m = G.shape
    W = np.zeros((n + L * m, (L + 1) * n))
    W[:n, : L * n] = powers.T
    kernels = (G.T @ powers.T).reshape(m, L, n)  # kernels[:, d] = (Phi^d G)^T
    toeplitz = W[n:].reshape(L, m, L + 1, n)  # [i, :, j, :]: the block of v[bL + i] in x[bL + j]
    for d in range(L):
        i = np.arange(L - d)
        toeplitz[i, :, i + 1 + d, :] = kernels[:, d]
    return W


def _block_starts(x0, D_L, s):
    """x[(b+1) L] = x[bL] + (D_L x[bL] + s[b]) for every block b: the states at the block starts.

    In the delta form the increment is computed on its own and added once, so the states keep
    full accuracy even where Phi^L is close to I. Returns the starts, shape (nb + 1, n).
    """
    starts = np.empty((len(s) + 1, len(x0)))
    starts[0] = x0
    D_T = D_L.T
    for b in range(len(s)):
        starts[b + 1] = starts[b] + (starts[b] @ D_T + s[b])
    return starts


def block_recurrence(Delta, G, v, x0, L=None):
    """States x[0 .. N] of x[k+1] = (I + Delta) x[k] + G v[k], x[0] = x0, in time blocks of L steps.

    Within a block the recurrence has the closed form
    x[bL + j] = Phi^j x[bL] + sum_{i<j} Phi^(j-1-i) G v[bL + i] (Phi = I + Delta), so with
    nb = ceil(N / L) blocks (the last one padded with v = 0):

    1. the powers Phi^j for j < L and D_L = Phi^L - I, by doubling (:func:`_block_powers`),
       give the block matrix W (:func:`_block_matrix`);
    2. the block sums s_b = sum_i Phi^(L-1-i) G v[bL + i]: one matrix product for all blocks;
    3. the block starts, x[(b+1)L] = x[bL] + (D_L x[bL] + s_b): a loop of nb steps
       (:func:`_block_starts`);
    4. every state: the rows [x[bL], v[bL .. bL + L-1]] of all blocks times W, one matrix
       product whose row b is x[bL .. bL + L-1], already in time order.

    So the work, about N n (n + L m') multiply-adds for m' = G.shape[1], is in a few large
    matrix products (BLAS), against N matrix-vector products for a loop over the steps, and the
    Python loop has N / L steps (L from :func:`block_length`). Rounding: each state is one
    product away from its block start (no error accumulates inside a block), and the starts
    advance in the delta form with D_L, as accurate as Delta.

    Parameters
    ----------
    Delta : ndarray, shape (n, n)
        Phi - I = e^{AT} - I, accurate (:func:`expm_minus_identity`).
    G : ndarray, shape (n, m')
    v : ndarray, shape (N, m')
        v[k] drives step k to k + 1.
    x0 : ndarray, shape (n,)
    L : int, optional
        Block length, a power of two; by default :func:`block_length`.

    Returns
    -------
    ndarray, shape (N + 1, n)
    """
    N, m = v.shape
    n = len(x0)
    L = block_length(N, n, m) if L is None else L
    blocks = -(-N // L)
    powers, D_L = _block_powers(Delta, L)
    W = _block_matrix(powers, G, L)
    rows = np.empty((blocks, n + L * m))  # row b: [x[bL], v[bL], ..., v[bL + L-1]], v = 0 past N
    rows[:, n:] = np.concatenate([v, np.zeros((blocks * L - N, m))]).reshape(blocks, L * m)
    starts = _block_starts(x0, D_L, rows[:, n:] @ W[n:, L * n :])  # s_b: the inputs' part
    rows[:, :n] = starts[:-1]
    x = np.empty((blocks * L + 1, n))
    np.matmul(rows, W[:, : L * n], out=x[:-1].reshape(blocks, L * n))
    x[-1] = starts[-1]
    return x[: N + 1]


# --- Triangular Phi: one first-order recurrence per state ---


def _first_order(delta, drive, z0):
    """z[0] = z0, z[k+1] = (1 + delta) z[k] + drive[k]: two compiled lfilter calls.

    At small T, mu = 1 + delta ~ 1 - |lambda| T is stored to eps, an error eps / (|lambda| T) in
    1 - mu and so in the response (~1e-12 at T = 1e-4). One step of iterative refinement removes
    it: the residual of the delta form z[k+1] - z[k] = delta z[k] + drive[k] is computed from
    small increments, and the correction obeys the same recurrence driven by minus the residual.
    """
    from scipy.signal import lfilter  # here: scipy.signal costs ~0.9 s to import, and only this needs it

    a = [1.0, -(1.0 + delta)]  # z_k = mu z_{k-1} + drive_{k-1}: the filter 1 / (1 - mu q^-1)
    z = lfilter([1.0], a, np.concatenate(([z0], drive)))
    residual = np.diff(z) - delta * z[:-1] - drive
    return z - lfilter([1.0], a, np.concatenate(([0.0], residual)))


def triangular_recurrence(Delta, w, z0):
    """Run z[k+1] = (I + Delta) z[k] + w[k] for upper-triangular Delta (complex), z[0] = z0.

    Row i is ``z_i[k+1] = (1 + Delta[i, i]) z_i[k] + (w_i[k] + sum_{j > i} Delta[i, j] z_j[k])``,
    a first-order recurrence (:func:`_first_order`) once the rows below it are known: solved
    from the last row up. ``w`` has shape (N, n); returns z, shape (N + 1, n).
    """
    n = len(z0)
    z = np.empty((len(w) + 1, n), dtype=complex, order="F")  # columns contiguous: fast below
    for i in range(n - 1, -1, -1):
        drive = w[:, i]
        if np.any(Delta[i, i + 1 :]):
            drive = drive + z[:-1, i + 1 :] @ Delta[i, i + 1 :]
        z[:, i] = _first_order(Delta[i, i], drive, z0[i])
    return z
