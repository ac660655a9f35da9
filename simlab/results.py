"""The one convention for results: small frozen types that unpack like a short tuple.

Every simulation in simlab returns a frozen dataclass whose leading fields unpack, so that the
common case reads as in a textbook and the rest stays reachable by name::

    t, x = simlab.rk4(f, (0, 2), x0, 0.1)          # Trajectory: t, x   (.h, .nfev, .method)
    t, y = simlab.lsim(A, B, C, D, u, t)            # LinearResponse: t, y   (.x, .T, ...)
    result = simlab.structure.simulate(...)          # StructureResult: t, y   (.x: element outputs)
    result[0] is result.t                           # indexing works like a tuple too

Time responses unpack as ``t, <main output>`` with time along the first axis. Results that are
not time responses (a reduced model, say) unpack as their model (``num, den`` or
``A, B, C, D``). Which fields unpack is written in the class's ``unpacks_as``.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["Result"]


class Result:
    """Mixin for frozen result dataclasses: iteration, ``len`` and indexing over ``unpacks_as``.

    Subclasses set ``unpacks_as`` to the names of the fields that unpack, in order.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Response(Result):
    ...     unpacks_as = ("t", "y")
    ...     t: list
    ...     y: list
    ...     note: str = ""
    >>> t, y = Response([0, 1], [2, 3], "demo")
    >>> y, Response([0, 1], [2, 3])[1]
    ([2, 3], [2, 3])
    """

    unpacks_as: ClassVar[tuple[str, ...]] = ("t", "x")

    def __iter__(self):
        return (getattr(self, name) for name in self.unpacks_as)

    def __len__(self) -> int:
        return len(self.unpacks_as)

    def __getitem__(self, index):
        return tuple(self)[index]
