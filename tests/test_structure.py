"""Structure-graph simulation: closed_loop and simulate against frequency-domain algebra and python-control."""

import control
import numpy as np
import pytest
from scipy import signal
from seed_programs import seed_structure_rk4

from simlab.guards import NonFiniteStateError
from simlab.structure import closed_loop, input_derivative_gain, simulate

SEED_W = [[0, 0, -1], [1, 0, 0], [0, 1, 0]]
SEED_W0 = [1, 0, 0]
SEED_WC = [0, 0, 1]


def seed_P(a):
    return [[0.1, 1, 0.5, 1], [0, 1, 1, 0], [1, 1, a, 1]]


def structure_transfer(P, W, W0, Wc, s):
    """Oracle: Y = (I - G W)^-1 G W0 R with G = diag((C_i + D_i s)/(A_i + B_i s)), at one s."""
    P = np.asarray(P, dtype=float)
    G = np.diag((P[:, 2] + P[:, 3] * s) / (P[:, 0] + P[:, 1] * s))
    n = len(P)
    W0 = np.asarray(W0, dtype=float).reshape(n, -1)
    Wc = np.asarray(Wc, dtype=float).reshape(-1, n)
    return Wc @ np.linalg.solve(np.eye(n) - G @ np.asarray(W, dtype=float), G @ W0)


def random_structure(rng, n):
    """Random elements with B_i != 0 and a random sparse connection matrix."""
    P = np.column_stack([rng.uniform(0.2, 2, n), rng.uniform(0.5, 2, n),
                         rng.uniform(-2, 2, n), rng.choice([0.0, 0.0, 0.3], n)])
    W = rng.choice([0.0, 0.0, 1.0, -1.0], size=(n, n))
    W0 = np.zeros(n)
    W0[0] = 1.0
    Wc = np.zeros(n)
    Wc[-1] = 1.0
    return P, W, W0, Wc


def test_seed_task_closed_loop_matches_python_control_feedback():
    """Oracle: python-control, G1 G2 G3 in unity negative feedback, D-terms included."""
    for a in (2, 6, 12):
        A, B, C = closed_loop(seed_P(a), SEED_W, SEED_W0, SEED_WC)
        B_d = input_derivative_gain(seed_P(a), SEED_W, SEED_W0, SEED_WC)
        G = control.tf([1, 0.5], [1, 0.1]) * control.tf([1], [1, 0]) * control.tf([1, a], [1, 1])
        T = control.feedback(G, 1)
        for s in (0.3, 1j, 1 + 2j):
            ours = C @ np.linalg.solve(s * np.eye(3) - A, B + s * B_d)
            assert complex(ours[0, 0]) == pytest.approx(complex(T(s)), rel=1e-12)


def test_closed_loop_matches_frequency_domain_algebra_for_random_structures():
    """Oracle: (I - G W)^-1 G W0 evaluated at several s, 200 random structures."""
    rng = np.random.default_rng(20261202)
    checked = 0
    for _ in range(200):
        n = int(rng.integers(2, 6))
        P, W, W0, Wc = random_structure(rng, n)
        try:
            A, B, C = closed_loop(P, W, W0, Wc)
        except ValueError:
            continue  # H singular for this draw (an algebraic loop); tested separately
        B_d = input_derivative_gain(P, W, W0, Wc)
        for s in (0.7 + 0.3j, 2.0j):
            ours = C @ np.linalg.solve(s * np.eye(n) - A, B + s * B_d)
            np.testing.assert_allclose(ours, structure_transfer(P, W, W0, Wc, s), rtol=1e-8, atol=1e-10)
        checked += 1
    assert checked > 150


def test_true_step_response_matches_python_control():
    """Oracle: python-control step response of the closed loop, r = 10 (RK4 error only)."""
    G = control.tf([1, 0.5], [1, 0.1]) * control.tf([1], [1, 0]) * control.tf([1, 2], [1, 1])
    t = np.linspace(0, 10, 501)
    expected = 10 * control.step_response(control.feedback(G, 1), T=t).outputs
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 10), h=0.02)
    np.testing.assert_allclose(result.y, expected, atol=1e-6)


def test_seed_compatible_response_is_the_seed_programs_rk4_loop():
    """Oracle: the seed's MATLAB loop replayed (A = inv(H) Q, B = inv(H) C1 W0, RK4)."""
    a, r, h, Tf = 4, 10.0, 0.2, 10
    P = np.array(seed_P(a), dtype=float)
    W = np.array(SEED_W, dtype=float)
    y = seed_structure_rk4(P, W, [1.0, 0.0, 0.0], r, h, round(Tf / h))
    result = simulate(P, W, SEED_W0, SEED_WC, r=r, t_span=(0, Tf), h=h, seed_compatible=True)
    np.testing.assert_allclose(result.y, y, rtol=1e-12, atol=1e-12)


def test_step_makes_the_state_jump_by_b_d_times_r():
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1)
    B_d = input_derivative_gain(seed_P(2), SEED_W, SEED_W0, SEED_WC)
    np.testing.assert_allclose(result.x[0], 10 * B_d.ravel())
    assert result.x[0, 0] == pytest.approx(10.0)  # D1/B1 * r = 1 * 10


def test_batch_sweep_equals_separate_runs():
    P = np.array([seed_P(a) for a in range(2, 13, 2)], dtype=float)
    # The seed's Tf = 15, h = 0.4 is 37.5 steps; its MATLAB loop `for i=1:Tf/h` stops at t = 14.8.
    batch = simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 14.8), h=0.4)
    assert batch.x.shape == (38, 6, 3) and batch.y.shape == (38, 6)
    for j, a in enumerate(range(2, 13, 2)):
        single = simulate(seed_P(a), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 14.8), h=0.4)
        np.testing.assert_allclose(batch.y[:, j], single.y, rtol=1e-13, atol=1e-13)


def test_time_varying_input_true_response():
    """Oracle: python-control forced_response for r(t) = sin(t) on a D != 0 first element.

    forced_response interpolates the input linearly between samples, so it runs on a grid ten
    times finer (its error ~1e-7) and is compared at our grid points.
    """
    t_fine = np.linspace(0, 8, 8001)
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=np.sin, t_span=(0, 8), h=0.01)
    G = control.tf([1, 0.5], [1, 0.1]) * control.tf([1], [1, 0]) * control.tf([1, 2], [1, 1])
    expected = control.forced_response(control.feedback(G, 1), T=t_fine, U=np.sin(t_fine)).outputs
    np.testing.assert_allclose(result.y, expected[::10], atol=1e-6)


def test_every_element_output_is_returned():
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 2), h=0.1)
    assert result.x.shape == (21, 3)


def test_result_unpacks_as_time_and_system_output():
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 2), h=0.1)
    t, y = result
    assert t is result.t and y is result.y and result[1] is result.y
    assert y.shape == (21,)


def test_algebraic_loop_names_the_elements():
    P = [[1, 1, 1, 0], [1, 0, 2, 0]]  # element 2 is a pure gain 2 (B = 0)
    W = [[0, -1], [1, 0]]
    with pytest.raises(ValueError, match=r"singular.*Element\(s\) \[2\] have B_i = 0"):
        closed_loop(P, W, [1, 0], [0, 1])


def test_zero_denominator_row_is_rejected():
    with pytest.raises(ValueError, match=r"element\(s\) \[2\] have A_i = B_i = 0"):
        closed_loop([[1, 1, 1, 0], [0, 0, 1, 0]], [[0, 0], [1, 0]], [1, 0], [0, 1])


@pytest.mark.parametrize(
    "P, W, W0, Wc, message",
    [
        ([[1, 1, 1]], [[0]], [1], [1], r"P must have one row"),
        (seed_P(2), [[0, 1], [1, 0]], SEED_W0, SEED_WC, r"W must be square .* \(3, 3\)"),
        (seed_P(2), SEED_W, [1, 0], SEED_WC, r"W0 must have one row per element"),
        (seed_P(2), SEED_W, SEED_W0, [0, 1], r"Wc must have one column per element"),
    ],
)
def test_inconsistent_shapes_are_rejected(P, W, W0, Wc, message):
    with pytest.raises(ValueError, match=message):
        closed_loop(P, W, W0, Wc)


def test_bad_input_signal_is_rejected():
    with pytest.raises(ValueError, match=r"r must be a number"):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=[1, 2], t_span=(0, 1), h=0.1)


def test_closed_loop_matches_python_control_interconnection_for_random_structures():
    """Oracle: python-control. The elements are appended into one block-diagonal system, the loop
    is closed by positive feedback through the static gain W, then W0 and Wc are applied."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(100):
        n = int(rng.integers(2, 5))
        P, W, W0, Wc = random_structure(rng, n)
        try:
            A, B, C = closed_loop(P, W, W0, Wc)
        except ValueError:
            continue
        B_d = input_derivative_gain(P, W, W0, Wc)
        blocks = control.append(*[control.ss(control.tf([d, c], [b, a])) for a, b, c, d in P])
        loop = control.feedback(blocks, control.ss([], [], [], W), sign=+1)
        overall = control.ss([], [], [], Wc.reshape(1, n)) * loop * control.ss([], [], [], W0.reshape(n, 1))
        for s in (0.5 + 0.5j, 3.0j):
            ours = (C @ np.linalg.solve(s * np.eye(n) - A, B + s * B_d))[0, 0]
            assert complex(ours) == pytest.approx(complex(overall(s)), rel=1e-8, abs=1e-10)
        checked += 1
    assert checked > 70


@pytest.mark.parametrize("P, x0, message", [
    (seed_P(2), [1.0, 2.0], r"x0 must have n = 3 entries, one value per element\. x0 must have "
                            r"shape \(3,\), got shape \(2,\)\."),
    (seed_P(2), np.ones((2, 3)), r"x0 must have shape \(3,\), got shape \(2, 3\)"),
    (np.stack([seed_P(2), seed_P(3)]), np.ones((3, 3)),
     r"x0 must have shape \(3,\) \(or \(m, n\) = \(2, 3\), one row per system of a batch\), got "
     r"shape \(3, 3\)"),
])
def test_wrong_x0_shape_gets_the_clear_message_not_a_broadcast_error(P, x0, message):
    """x0 is checked before it is broadcast over the batch (numpy's 'could not be broadcast'
    used to reach the user first, and the shape check after it could never run)."""
    with pytest.raises(ValueError, match=message):
        simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, x0=x0)


def test_x0_for_a_batch_may_give_one_row_per_parameter_set():
    """Oracle: each parameter set simulated on its own from its own x0."""
    P = np.stack([seed_P(2), seed_P(3)])
    x0 = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.0]])
    both = simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, x0=x0)
    for i in range(2):
        alone = simulate(P[i], SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, x0=x0[i])
        np.testing.assert_allclose(both.x[:, i, :], alone.x, rtol=1e-14, atol=1e-14)


def test_input_function_returning_the_wrong_shape_gets_a_clear_message():
    with pytest.raises(ValueError, match=r"r\(t\) must return a number or a vector of q = 1 input "
                                         r"values, shape \(1,\); r\(0.0\) returned an array of "
                                         r"shape \(2,\)"):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=lambda t: [1.0, 2.0], t_span=(0, 1), h=0.1)


def test_structure_graph_without_elements_is_refused():
    """n = 0 elements is not a static gain (the output Wc y holds element outputs only)."""
    with pytest.raises(ValueError, match=r"P has no rows: a structure graph needs at least one"):
        closed_loop(np.zeros((0, 4)), np.zeros((0, 0)), np.zeros((0, 1)), np.zeros((1, 0)))


# ---------------------------------------------------------------------------------------------
# Bad input (issue 14): the input r is checked and named, seed_compatible is a bool, a closed
# loop beyond the floating-point range is refused before LAPACK
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("r, message", [
    (lambda t: float("nan"), r"r\(t\) must return finite input values; r\(0.0\) returned nan"),
    (lambda t: 10.0 if t < 0.5 else float("inf"),
     r"r\(t\) must return finite input values; r\(0.5\) returned inf"),
    (float("nan"), r"r must be finite \(no NaN or inf\), got nan"),
])
def test_a_non_finite_reference_input_is_blamed_on_r_not_on_the_step_size(r, message):
    """Before, a NaN from r(t) made the state NaN, and the NonFiniteStateError said to reduce h."""
    with pytest.raises(ValueError, match=message):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=r, t_span=(0, 1), h=0.1)


def test_a_reference_input_function_returning_text_is_a_type_error_naming_r():
    with pytest.raises(TypeError, match=r"r\(t\) must return a number or a vector of q = 1 real "
                                        r"input values; r\(0.0\) returned 'ten' \(type str\)"):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=lambda t: "ten", t_span=(0, 1), h=0.1)


@pytest.mark.parametrize("value, shown", [("yes", "'yes' (type str)"), (1, "1 (type int)"),
                                          (None, "None (type NoneType)")])
def test_seed_compatible_must_be_a_bool(value, shown):
    """Oracle: the signature (a flag). 'yes' or 1 used to be accepted and stored in the result."""
    import re

    with pytest.raises(TypeError, match=rf"seed_compatible must be True or False, got {re.escape(shown)}"):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, seed_compatible=value)
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1,
                      seed_compatible=np.bool_(True))
    assert result.seed_compatible is True


def test_closed_loop_beyond_the_floating_point_range_is_refused_before_lapack():
    """diag(C) W = 1e300 * 1e10 overflows: refused with the matrix named, not solved with inf."""
    with pytest.raises(ValueError, match=r"P, W and W0 give a closed loop beyond the floating-point "
                                         r"range: diag\(C\) W - diag\(A\) overflows"):
        closed_loop([[1.0, 1.0, 1e300, 0.0]], [[1e10]], [1.0], [1.0])


# ---------------------------------------------------------------------------------------------
# method="similarity" (issue 15): the closed loop discretized once with the zero-order hold
# ---------------------------------------------------------------------------------------------

SEED_G = control.tf([1, 0.5], [1, 0.1]) * control.tf([1], [1, 0]) * control.tf([1, 2], [1, 1])


def closed_loop_ss(P, W, W0, Wc):
    """The true closed loop r -> y as python-control state space: z' = A z + (A B_d + B) r,
    y = Wc (z + B_d r) (test_seed_task_closed_loop_matches_python_control_feedback checks
    (A, B, B_d) against control.feedback)."""
    A, B, C = closed_loop(P, W, W0, Wc)
    B_d = input_derivative_gain(P, W, W0, Wc)
    return control.ss(A, A @ B_d + B, C, C @ B_d)


def test_similarity_step_response_is_the_closed_loop_transfer_function_step_response():
    """Oracle: python-control forced_response of feedback(G1 G2 G3, 1), the closed-loop
    transfer function, for r = 10 (a constant input: its linear interpolation is exact), at
    h = 0.2, where RK4 is off by 3e-4: discrete similarity is exact whatever h."""
    t = np.linspace(0, 10, 51)
    expected = control.forced_response(control.feedback(SEED_G, 1), T=t, U=np.full(51, 10.0)).outputs
    result = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 10), h=0.2, method="similarity")
    assert result.method == "similarity" and result.x.shape == (51, 3)
    np.testing.assert_allclose(result.y, expected, rtol=0, atol=1e-12 * np.abs(expected).max())
    rk4 = simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 10), h=0.2)
    assert 1e-4 < np.max(np.abs(rk4.y - expected)) < 1e-3


def test_similarity_agrees_with_rk4_to_rk4_accuracy():
    """Oracle: the RK4 path at h = 0.005, whose error (~(h |lambda|)^4 of the response) is below
    1e-9 of the largest element output here (8e-10 measured at a = 12); both the element outputs
    (with their jump B_d r at t0+) and the system output."""
    for a in (2, 6, 12):
        kwargs = {"r": 10, "t_span": (0, 10), "h": 0.005}
        rk4 = simulate(seed_P(a), SEED_W, SEED_W0, SEED_WC, **kwargs)
        similarity = simulate(seed_P(a), SEED_W, SEED_W0, SEED_WC, method="similarity", **kwargs)
        scale = np.abs(rk4.x).max()
        np.testing.assert_allclose(similarity.x, rk4.x, rtol=0, atol=2e-9 * scale)
        np.testing.assert_allclose(similarity.y, rk4.y, rtol=0, atol=2e-9 * scale)


def test_similarity_is_exact_for_a_staircase_input_and_an_initial_state():
    """Oracle: scipy.signal.lsim with the zero-order hold (exact for a staircase) on the closed
    loop r -> y (closed_loop_ss), from the element outputs x0 just before t0: r(t) steps on the
    grid, so the elements with D_i != 0 jump at every step. Random structures of 2 to 5
    elements with D-terms (random_structure)."""
    rng = np.random.default_rng(1515)
    checked = 0
    for _ in range(40):
        n = int(rng.integers(2, 6))
        P, W, W0, Wc = random_structure(rng, n)
        try:
            sys = closed_loop_ss(P, W, W0, Wc)
        except ValueError:
            continue  # an algebraic loop
        if np.max(np.linalg.eigvals(sys.A).real) > 0.5:
            continue  # keep the responses of order 1 over the 4 s
        levels = rng.standard_normal(41)

        def r(t, levels=levels):
            return levels[min(int(round(t / 0.1, 9)), 40)]

        x0 = rng.standard_normal(n)
        result = simulate(P, W, W0, Wc, r=r, t_span=(0, 4), h=0.1, x0=x0, method="similarity")
        t = np.linspace(0, 4, 41)
        # just before t0 the element outputs are x0 and r = 0, so z(t0) = x0
        _, expected, _ = signal.lsim((sys.A, sys.B, sys.C, sys.D), levels, t, X0=x0, interp=False)
        np.testing.assert_allclose(result.y, expected, rtol=0, atol=1e-11 * max(np.abs(expected).max(), 1))
        checked += 1
    assert checked > 20


def test_similarity_matches_python_control_forced_response_on_the_closed_loop():
    """Oracle: python-control forced_response on closed_loop_ss, 10,000 steps (the benchmark's
    run), r = 10 and a nonzero x0; and the seed-compatible model x' = A x + B r as ss(A, B, Wc, 0)."""
    t = np.linspace(0, 10, 10001)
    x0 = [1.0, -0.5, 2.0]
    for seed_compatible in (False, True):
        P = seed_P(4)
        A, B, C = closed_loop(P, SEED_W, SEED_W0, SEED_WC)
        sys = control.ss(A, B, C, 0) if seed_compatible else closed_loop_ss(P, SEED_W, SEED_W0, SEED_WC)
        expected = control.forced_response(sys, T=t, U=np.full(t.size, 10.0), X0=x0).outputs
        result = simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 10), h=1e-3, x0=x0,
                          method="similarity", seed_compatible=seed_compatible)
        np.testing.assert_allclose(result.y, expected, rtol=0, atol=1e-12 * np.abs(expected).max())


def test_similarity_batch_equals_separate_runs_and_two_inputs():
    """Oracle: each parameter set simulated on its own; two external inputs add up (linearity)."""
    P = np.array([seed_P(a) for a in (2, 6, 12)], dtype=float)
    batch = simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 8), h=0.1, method="similarity")
    assert batch.x.shape == (81, 3, 3) and batch.y.shape == (81, 3)
    for j, a in enumerate((2, 6, 12)):
        alone = simulate(seed_P(a), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 8), h=0.1, method="similarity")
        np.testing.assert_allclose(batch.y[:, j], alone.y, rtol=1e-13, atol=1e-13)
    W0_two = [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    kwargs = {"t_span": (0, 8), "h": 0.1, "method": "similarity"}
    both = simulate(seed_P(2), SEED_W, W0_two, SEED_WC, r=[10.0, 2.0], **kwargs)
    parts = [simulate(seed_P(2), SEED_W, W0_two, SEED_WC, r=r, **kwargs).y for r in ([10.0, 0.0], [0.0, 2.0])]
    np.testing.assert_allclose(both.y, parts[0] + parts[1], rtol=0, atol=1e-12)


def test_similarity_of_an_unstable_graph_is_exact_and_its_overflow_is_named():
    """Oracle: the closed form y = 2 (e^{t/2} - 1) of one element 1/(s - 0.5) (A_i = -0.5, no
    feedback) for r = 1, exact at h = 1; over 3000 s e^{t/2} leaves the floating-point range
    (e^1500), which is refused with the method named "similarity"."""
    result = simulate([[-0.5, 1, 1, 0]], 0, [1], [1], r=1, t_span=(0, 40), h=1.0, method="similarity")
    np.testing.assert_allclose(result.y, 2 * np.expm1(result.t / 2), rtol=1e-13)
    with pytest.raises(NonFiniteStateError) as caught:
        simulate([[-0.5, 1, 1, 0]], 0, [1], [1], r=1, t_span=(0, 3000), h=1.0, method="similarity")
    assert caught.value.method == "similarity" and "unstable" in str(caught.value)


def test_similarity_refuses_nonlinear_elements_and_unknown_methods():
    """A structure graph of simulate is linear; nonlinear elements belong to simulate_elements."""
    from simlab.nonlinear import Saturation

    P = [[0.1, 1, 0.5, 1], [0, 1, 1, 0], Saturation(1.0)]
    for method in ("similarity", "rk4"):
        with pytest.raises(ValueError, match=r"P holds a nonlinear element, .*simulate takes linear typical "
                                             r"elements only.*simlab\.elementwise\.simulate_elements"):
            simulate(P, SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, method=method)
    with pytest.raises(ValueError, match=r"method must be one of 'euler', 'heun', 'rk4', 'similarity'"):
        simulate(seed_P(2), SEED_W, SEED_W0, SEED_WC, r=10, t_span=(0, 1), h=0.1, method="zoh")
