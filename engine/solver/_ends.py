"""The end of a number: laying out the tiles the colours gave to groups.

While the search walks through the colours of a number it adds up, in the key, what
each colour gives to groups (the *tally*). :class:`GroupEnds` lists, for a tally, the
ways to lay those tiles out as groups with jokers, per layer (free groups, meld
groups, the designated group), with the groups that hold table sets (seeds) first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from engine.solver._groups import split_groups, tally_counts
from engine.solver._model import MELD_ALL, GroupSeed, Problem
from engine.solver._registry import ACC_SH, J_SH, JM_SH, M_SH


@dataclass(frozen=True, slots=True)
class EndChoice:
    """How the group tally of a number is laid out: jokers per group layer."""

    free_jokers: int
    meld_jokers: int
    desig_jokers: int
    seed_choice: tuple[tuple[int, int], ...]


class GroupEnds:
    """The group layouts of every number of one :class:`Problem`, memoised."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.seeds_at: dict[int, tuple[GroupSeed, ...]] = {}
        for seed in problem.seeds:
            self.seeds_at[seed.number] = (*self.seeds_at.get(seed.number, ()), seed)
        self._cache: list[dict[int, tuple[tuple[int, bool, EndChoice], ...]]] = [
            {} for _ in range(14)
        ]

    def at(self, x: int) -> dict[int, tuple[tuple[int, bool, EndChoice], ...]]:
        """The memo of number ``x``, keyed ``tally << 2 | jokers left``."""
        return self._cache[x]

    def ends(self, x: int, acc: int, jokers: int) -> tuple[tuple[int, bool, EndChoice], ...]:
        """Ways to lay out the tally ``acc`` of number ``x``: (key delta, makes designated
        group, choice)."""
        at = self._cache[x]
        found = at.get(acc << 2 | jokers)
        if found is None:
            found = at[acc << 2 | jokers] = tuple(self._make_ends(x, acc, jokers))
        return found

    def _make_ends(self, x: int, acc: int, jokers: int) -> Iterable[tuple[int, bool, EndChoice]]:
        seeds = self.seeds_at.get(x, ())
        seeded = x in self.seeds_at
        meld_base = 6**4 if seeded else 25
        free_code, rest = acc % meld_base, acc // meld_base
        meld_code, desig = rest % 25, rest // 25
        value = self.problem.meld_value[x]
        meld_counts = tally_counts(meld_code)
        for free_j in range(jokers + 1):
            seed_choice = self._free_groups(free_code, seeded, seeds, free_j)
            if seed_choice is None:
                continue
            for meld_j in range(jokers - free_j + 1):
                if split_groups(meld_counts, meld_j) is None:
                    continue
                for desig_j in range(jokers - free_j - meld_j + 1):
                    made = desig + desig_j
                    if desig == 0:
                        if desig_j:
                            continue
                    elif not 3 <= made <= 4 or made * value < self.problem.meld_min:
                        continue
                    jokers_laid = free_j + meld_j + desig_j
                    meld_add = meld_j
                    if self.problem.meld_mode == MELD_ALL:
                        meld_add += free_j
                    delta = (
                        -(acc << ACC_SH)
                        + (jokers_laid << J_SH)
                        + ((meld_j + desig_j) << JM_SH)
                        + ((meld_add * value) << M_SH)
                    )
                    yield delta, desig > 0, EndChoice(free_j, meld_j, desig_j, seed_choice)

    def _free_groups(
        self, code: int, seeded: bool, seeds: tuple[GroupSeed, ...], jokers: int
    ) -> tuple[tuple[int, int], ...] | None:
        """None if the free groups cannot be laid out, else the choice per seed."""
        if not seeded:
            return () if split_groups(tally_counts(code), jokers) is not None else None
        counts = []
        flags = []
        for c in range(4):
            digit = code // 6**c % 6
            counts.append(digit % 3)
            flags.append(digit >= 3)
        flag_mask = sum(1 << c for c in range(4) if flags[c])
        for choice in product(*(_seed_ends(seed) for seed in seeds)):
            rest = list(counts)
            left = jokers
            for mask, seed_jokers in choice:
                left -= seed_jokers
                for c in range(4):
                    rest[c] -= mask >> c & 1
            if left < 0 or min(rest) < 0:
                continue
            if not all(
                _seed_passes(seed, mask, seed_jokers, flag_mask)
                for seed, (mask, seed_jokers) in zip(seeds, choice, strict=True)
            ):
                continue
            if split_groups(tuple(rest), left) is not None:
                return choice
        return None


def _seed_ends(seed: GroupSeed) -> list[tuple[int, int]]:
    """Groups a seed can become: (bitmask of added colours, jokers in the group)."""
    held = sum(1 << c for c in seed.colours)
    ends = []
    for mask in range(16):
        if mask & held:
            continue
        for jokers in range(3):
            if 3 <= len(seed.colours) + mask.bit_count() + jokers <= 4:
                ends.append((mask, jokers))
    return ends


def _seed_passes(seed: GroupSeed, added: int, jokers: int, rack_flags: int) -> bool:
    """Does the group (seed + ``added`` colours + ``jokers``) pass RULES.md §11.3 for
    every held set? ``rack_flags``: colours of this number laid from the rack."""
    colours = sum(1 << c for c in seed.colours) | added
    for own, own_jokers, both in seed.members:
        if both and jokers == 0 and colours != 15:
            return False
        if seed.locked and jokers < own_jokers:
            released = own_jokers - jokers
            stand_ins = colours & ~own
            if stand_ins.bit_count() < released:
                return False
            if seed.rack_only and (stand_ins & rack_flags).bit_count() < released:
                return False
    return True
