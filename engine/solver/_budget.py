"""How much work one solver call may do: a :class:`Budget`, and the :class:`Meter`
that spends it.

The search's cost grows with the number of states it keeps (each is a few hundred
bytes in its dictionaries), so a bound on the states expanded bounds memory as well
as time; a bound on wall-clock seconds keeps the answer on time whatever the machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """The most one solver call may spend: ``seconds`` of wall-clock time and
    ``states``, the search states it may expand (which bounds its memory). None: no
    bound of that kind.

    >>> Budget(seconds=2).states is None
    True
    >>> Budget(seconds=-1)
    Traceback (most recent call last):
    ...
    ValueError: a budget's seconds must be positive, got -1
    """

    seconds: float | None = None
    states: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds!r}")
        if self.states is not None and self.states <= 0:
            raise ValueError(f"a budget's states must be positive, got {self.states!r}")


class OutOfBudget(Exception):
    """The budget ran out before the solver knew the answer."""

    def __init__(self, budget: Budget | None = None) -> None:
        bound = _describe(budget) if budget is not None else "its budget"
        super().__init__(f"the solver ran out of {bound} before it found the answer")


def _describe(budget: Budget) -> str:
    parts = []
    if budget.seconds is not None:
        parts.append(f"{budget.seconds:g} s")
    if budget.states is not None:
        parts.append(f"{budget.states} states")
    return " / ".join(parts) or "its budget"


class Meter:
    """Spends a :class:`Budget`: the search reports the states it expands, and the
    meter raises :class:`OutOfBudget` once either bound is passed.

    A meter can hand a share of what is left to a part of the work (:meth:`share`),
    so a first cheap attempt cannot eat the whole budget.

    >>> meter = Meter(Budget(states=10))
    >>> meter.spend(4)
    >>> meter.spend(7)
    Traceback (most recent call last):
    ...
    engine.solver._budget.OutOfBudget: the solver ran out of 10 states before it found ...
    >>> Meter(None).bounded
    False
    """

    def __init__(self, budget: Budget | None, parent: Meter | None = None) -> None:
        self.budget = budget
        self.parent = parent
        self.bounded: bool = budget is not None or (parent is not None and parent.bounded)
        seconds = budget.seconds if budget is not None else None
        self.deadline = time.monotonic() + seconds if seconds is not None else None
        self.states_left = budget.states if budget is not None else None

    def spend(self, states: int) -> None:
        """Count ``states`` more expanded states and check the clock."""
        if self.states_left is not None:
            self.states_left -= states
            if self.states_left < 0:
                raise OutOfBudget(self.budget)
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfBudget(self.budget)
        if self.parent is not None:
            self.parent.spend(states)

    def seconds_left(self) -> float | None:
        """Seconds until the nearest deadline (None: no deadline)."""
        own = None if self.deadline is None else self.deadline - time.monotonic()
        above = self.parent.seconds_left() if self.parent is not None else None
        if own is None:
            return above
        return own if above is None else min(own, above)

    def states_remaining(self) -> int | None:
        """States left before the nearest bound (None: no bound)."""
        above = self.parent.states_remaining() if self.parent is not None else None
        if self.states_left is None:
            return above
        return self.states_left if above is None else min(self.states_left, above)

    def share(self, fraction: float) -> Meter:
        """A meter for part of the work: ``fraction`` of what is left of this one (its
        own spending counts here too). Unbounded stays unbounded.

        >>> whole = Meter(Budget(states=100))
        >>> part = whole.share(0.25)
        >>> part.spend(20)
        >>> whole.states_remaining(), part.states_remaining()
        (80, 5)
        """
        if not self.bounded:
            return Meter(None, self)
        seconds = self.seconds_left()
        states = self.states_remaining()
        return Meter(
            Budget(
                seconds=None if seconds is None else max(seconds * fraction, 1e-3),
                states=None if states is None else max(int(states * fraction), 1),
            ),
            self,
        )

    def out(self) -> bool:
        """Whether the budget is spent (without raising)."""
        try:
            self.spend(0)
        except OutOfBudget:
            return True
        return False
