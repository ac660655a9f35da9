"""Friction models (摩擦模型): the static Stribeck curve and the LuGre model, behind one interface.

Static (steady-state) model, seed 002 eq. (1): Coulomb, static and viscous friction with the
Stribeck effect,

    F_ss(v) = sgn(v) g(v) + sigma2 v,    g(v) = Fc + (Fs - Fc) exp(-|v / vs|^n).

LuGre model (Canudas de Wit, Olsson, Astrom and Lischinsky, IEEE TAC 40(3), 1995): the average
deflection z of the contact "bristles" obeys

    dz/dt = v - sigma0 |v| z / g(v),     F = sigma0 z + sigma1 dz/dt + sigma2 v.

At constant v the bristle state relaxes to z_ss = sgn(v) g(v) / sigma0 with the rate
sigma0 |v| / g(v), which is what makes the model stiff: with sigma0 = 1e5 N/m, g = 1 N and
v = 0.1 m/s the time constant is 0.1 ms. Over a step with v held the bristle equation is linear,
dz/dt = rate (z_ss - z), and the *bristle updates* advance it: the exact exponential (the
discrete-similarity idea applied to the bristle equation), implicit Euler, and explicit Euler and
RK4 for comparison. :meth:`LuGre.sfunction` replays the discrete S-function of seeds 000/001.

**One interface.** Every friction model (:class:`StaticFriction`, :class:`LuGre` and
:class:`simlab.revised_lugre.RevisedLuGre`) implements :class:`FrictionModel`: ``g(v)``,
``steady_state_force(v)``, ``force(v, state)``, ``initial_state()`` and ``stepper(method)``,
which returns ``step(state, v, h) -> (state, F_step, F_start)`` with the bristle update chosen
once. The simulators (:func:`spring_block`, :func:`block_with_force`,
:func:`velocity_response` and :func:`simlab.plants.pneumatic.simulate_cylinder`) call that
interface and nothing else, so every formula exists once: in the *kernels* below, plain
functions over floats (or arrays) without argument checks, which the models' methods call.

The package:

* :mod:`simlab.friction.kernels`: the formulas (g, the static curve, the LuGre rates, the four
  bristle updates) as plain functions;
* :mod:`simlab.friction.models`: the interface :class:`FrictionModel`, :class:`StaticFriction`,
  :class:`LuGre` (with the seed's S-function) and the parameter sets;
* :mod:`simlab.friction.block`: the simulators of a block on a friction surface and of a
  prescribed velocity, their step loops as kernels (:mod:`simlab.jit`: compiled by numba when
  installed);
* :mod:`simlab.friction.sweep`: the same simulators for a batch of parameter sets at once
  (:func:`spring_block_sweep`, :func:`block_with_force_sweep`).

Everything is importable from ``simlab.friction`` directly. The revised LuGre model of lab09
lives in :mod:`simlab.revised_lugre`, built on the same kernels and interface.

Used in lab08 (LuGre friction) and lab09 (friction in a pneumatic cylinder).
"""

from simlab.friction.block import (
    SPRING_BLOCK_METHODS,
    FrictionResponse,
    SpringBlockResult,
    block_with_force,
    spring_block,
    velocity_response,
)
from simlab.friction.kernels import (
    BRISTLE_METHODS,
    BRISTLE_UPDATES,
    bristle_target,
    lugre_rates,
    relax_euler,
    relax_exponential,
    relax_implicit,
    relax_rk4,
    static_force,
    stribeck_level,
)
from simlab.friction.models import (
    CANUDAS_1995,
    SEED_PARAMETERS,
    FrictionModel,
    LuGre,
    SFunctionResult,
    StaticFriction,
    bristle_step,
    static_friction,
    stribeck,
)
from simlab.friction.sweep import BlockSweep, block_with_force_sweep, spring_block_sweep

__all__ = [
    "FrictionModel",
    "StaticFriction",
    "LuGre",
    "stribeck",
    "static_friction",
    "bristle_step",
    "BRISTLE_METHODS",
    "BRISTLE_UPDATES",
    "stribeck_level",
    "static_force",
    "bristle_target",
    "lugre_rates",
    "relax_exponential",
    "relax_implicit",
    "relax_euler",
    "relax_rk4",
    "SEED_PARAMETERS",
    "CANUDAS_1995",
    "SFunctionResult",
    "SpringBlockResult",
    "FrictionResponse",
    "SPRING_BLOCK_METHODS",
    "spring_block",
    "block_with_force",
    "velocity_response",
    "BlockSweep",
    "spring_block_sweep",
    "block_with_force_sweep",
]
