"""How much work one solver call may do: a :class:`Budget`, and the :class:`Meter`
that spends it.

The budget is counted in search steps, not in time, so that a position gets the same
answer on any machine and under any load. One step is one search state taken up by
the search: expanded at one colour of one number, laid into groups at the end of a
number, or compared with the states kept when they are pruned. The steps also bound
memory: every state the search keeps is taken up (and so paid for) in the step that
follows the one that made it.

Wall time is only a last stop (``seconds``, a generous ceiling): a search it ends is
*cut short*, and its answer says so, since it may differ from one machine to another.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

T = TypeVar("T")

_CHUNK = 2048
"""Steps granted at a time, and between two readings of the clock (when there is a
ceiling): often enough to stop near it, rarely enough to cost nothing next to the work
itself."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The most one solver call may spend: ``steps`` of search (see the module), and
    ``seconds`` of wall time as a last stop. None: no bound of that kind.

    >>> Budget(steps=1000).seconds is None
    True
    >>> Budget(steps=0)
    Traceback (most recent call last):
    ...
    ValueError: a budget's steps must be positive, got 0
    """

    steps: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.steps is not None and self.steps <= 0:
            raise ValueError(f"a budget's steps must be positive, got {self.steps!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds!r}")


class OutOfBudget(Exception):
    """The budget ran out before the solver knew the answer: ``steps`` were spent, and
    ``cut_short`` says whether the wall-time ceiling, not the steps, stopped it."""

    def __init__(self, budget: Budget | None = None, steps: int = 0, cut_short: bool = False):
        self.steps = steps
        self.cut_short = cut_short
        if cut_short:
            bound = f"{budget.seconds:g} s" if budget and budget.seconds else "its time"
            super().__init__(f"the solver was cut short at {bound} before it found the answer")
        else:
            bound = f"{budget.steps} steps" if budget and budget.steps else "its steps"
            super().__init__(f"the solver ran out of {bound} before it found the answer")


class Meter:
    """Spends a :class:`Budget`: the search asks for steps before it takes them
    (:meth:`grant`, :meth:`metered`), and the meter raises :class:`OutOfBudget` once
    no step is left or the ceiling has passed.

    A meter can hand a share of the steps left to a part of the work (:meth:`share`),
    so a first cheap attempt cannot eat the whole budget; the ceiling stays the whole
    call's. The clock (:func:`time.monotonic`) is read only when there is a ceiling.

    >>> meter = Meter(Budget(steps=10))
    >>> meter.grant(4), meter.grant(7)
    (4, 6)
    >>> meter.grant(1)
    Traceback (most recent call last):
    ...
    engine.solver._budget.OutOfBudget: the solver ran out of 10 steps before it found ...
    >>> meter.spent
    10
    """

    def __init__(self, budget: Budget | None, parent: Meter | None = None) -> None:
        self.budget = budget
        self.parent = parent
        self.limit = budget.steps if budget is not None else None
        seconds = budget.seconds if budget is not None else None
        self.deadline = time.monotonic() + seconds if seconds is not None else None
        self.spent = 0
        self.cut_short = False
        self._unclocked = 0  # steps granted since the clock was last read

    def grant(self, wanted: int) -> int:
        """Up to ``wanted`` more steps, as many as every bound allows, counted as spent.
        Raises :class:`OutOfBudget` when none is left (and ``wanted`` is not 0) or the
        ceiling has passed."""
        self._check_clock()
        left = self.steps_remaining()
        granted = wanted if left is None else min(wanted, left)
        if granted < wanted and not granted:
            raise self._out()
        meter: Meter | None = self
        while meter is not None:
            meter.spent += granted
            meter._unclocked += granted
            meter = meter.parent
        return granted

    def metered(self, items: Iterable[T], count: int) -> Iterator[T]:
        """The ``count`` ``items``, each one step, granted a chunk at a time before it is
        taken: out of steps, the search stops after exactly the steps it had."""
        it = iter(items)
        while count > 0:
            granted = self.grant(min(count, _CHUNK))
            yield from islice(it, granted)
            count -= granted

    def steps_remaining(self) -> int | None:
        """Steps left before the nearest bound (None: no bound)."""
        above = self.parent.steps_remaining() if self.parent is not None else None
        if self.limit is None:
            return above
        own = self.limit - self.spent
        return own if above is None else min(own, above)

    def share(self, fraction: float) -> Meter:
        """A meter for part of the work: ``fraction`` of the steps left in this one (its
        own spending counts here too). Unbounded stays unbounded.

        >>> whole = Meter(Budget(steps=100))
        >>> part = whole.share(0.25)
        >>> part.grant(20)
        20
        >>> whole.steps_remaining(), part.steps_remaining()
        (80, 5)
        """
        steps = self.steps_remaining()
        if steps is None:
            return Meter(None, self)
        return Meter(Budget(steps=max(int(steps * fraction), 1)), self)

    def _check_clock(self) -> None:
        """Raise once a ceiling has passed; the clock is read every ``_CHUNK`` steps
        (and once the search was cut short, it stays so)."""
        meter: Meter | None = self
        while meter is not None:
            if meter.deadline is not None and (meter.cut_short or meter._unclocked >= _CHUNK):
                meter._unclocked = 0
                if meter.cut_short or time.monotonic() > meter.deadline:
                    meter.cut_short = True
                    raise OutOfBudget(meter.budget, meter.spent, cut_short=True)
            meter = meter.parent

    def _out(self) -> OutOfBudget:
        """The exception of the nearest bound reached."""
        meter: Meter | None = self
        while meter is not None:
            if meter.limit is not None and meter.spent >= meter.limit:
                return OutOfBudget(meter.budget, meter.spent)
            meter = meter.parent
        return OutOfBudget(self.budget, self.spent)
