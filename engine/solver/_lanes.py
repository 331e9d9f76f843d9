"""Lanes: the runs of one colour that are open while the solver walks up the numbers.

The solver visits the numbers 1..13 in order. A run of colour ``c`` that is open at
number ``x`` is a *lane*; at the next number it either takes a tile of ``c`` (a real
tile or a joker) or stops. Only the length up to 3 matters (a run needs 3 tiles), so
a lane is a small integer *token*:

* bits 0-1: length so far, capped at 3 (0 only for a wrap head before number 1);
* bits 2-3: what the lane is: an ordinary ``RUN``; with 13-1 wrap a ``HEAD`` (a run
  that came round from 13 into 1), a ``PEND`` (a head that has stopped and waits for
  the ``TAIL`` that ends at 13 and joins it), or a ``TAIL``;
* bits 4-5: the layer: ``FREE`` sets, ``MELD`` sets (same-turn initial meld: sets of
  rack tiles that count towards the minimum) or the ``DESIG`` set (single-set
  initial meld: the one set that must reach the minimum);
* bits 6-7: a pin, ``k + 1`` when the lane carries locked joker set ``k``;
* bits 8-11 (held joker sets only): the lane holds a joker outside the block it
  carries, the lane holds a set whose joker was replaced, and which joker slots of
  the block it carries were kept. The turn verdict (RULES.md §11.3) accepts a
  replaced joker only when the run that ends up holding the set has no joker but
  the set's own, so these bits keep track of that.

A colour's state is the sorted tuple of its tokens. Copies of a tile are identical,
so lanes of one colour are interchangeable and the sorted tuple is canonical.
:func:`engine.solver._options.colour_options` lists every way a colour state can take
the tiles of one number; it is pure and memoised, so the search itself only moves
integers around.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

RUN, HEAD, PEND, TAIL = 0, 1, 2, 3


FREE, MELD, DESIG = 0, 1, 2


# Tile sources for one lane at one number, and what a held block needs at a number.
REAL, JOKER, BLOCK, KEEP, REPLACE, GAP = "real", "joker", "block", "keep", "replace", "gap"


CREDIT = "credit"


def token(length: int, kind: int = RUN, layer: int = FREE, pin: int = 0) -> int:
    """Pack a lane.

    >>> token(3), token(1, TAIL, MELD)
    (3, 29)
    """
    return length | kind << 2 | layer << 4 | pin << 6


def length_of(tok: int) -> int:
    return tok & 3


def kind_of(tok: int) -> int:
    return tok >> 2 & 3


def layer_of(tok: int) -> int:
    return tok >> 4 & 3


def pin_of(tok: int) -> int:
    return tok >> 6 & 3


@dataclass(frozen=True, slots=True)
class BlockCell:
    """What locked set ``block`` asks of its colour at one number.

    ``need`` is ``BLOCK`` (a held numbered tile, reserved), ``JOKER`` (held jokers
    stand here: keep one or lay the real tile; ``slot`` numbers it) or ``GAP`` (the
    carrying lane takes any tile). ``start``: a lane must take the block here (linear
    block, or the tail end of a wrapped block); ``end``: the block ends here, the lane
    lets go of it and the verdict's joker conditions (``members``) are checked.
    """

    block: int
    need: str | None
    start: bool
    end: bool
    wrapped: bool
    slot: int = -1
    members: tuple[tuple[int, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class CellSpec:
    """Everything that decides the options of one colour at one number.

    ``table`` copies must be laid (they come from the table, minus any reserved by a
    locked block), ``rack_min``..``rack`` copies may come from the rack. ``layers``
    are the layers new sets may belong to; ``group_layers`` likewise for groups.
    ``colour_code`` is the multiplier of this colour in a colour-aware group tally
    (0 for the symmetric tally). ``blocks`` lists locked blocks of this colour.
    """

    table: int
    rack: int
    rack_min: int
    jokers: int
    layers: tuple[int, ...] = (FREE,)
    group_layers: tuple[int, ...] = (FREE,)
    colour_code: int = 0
    rack_flag: bool = False
    blocks: tuple[BlockCell, ...] = ()
    rack_only_replacement: bool = False
    meld_counts_all: bool = False
    meld_base: int = 25
    desig_base: int = 625
    joker_flags: bool = False
    credits: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    """One way a colour takes the tiles of a number.

    ``rack`` = rack tiles laid, ``jokers``/``meld_jokers`` = jokers laid (in total /
    in meld or designated sets), ``tally`` = what the colour adds to the group tally of
    the number, ``meld_tiles`` = tiles that add their value to the meld counter,
    ``starts`` = a meld or designated run starts (not a group: the other tiles of
    that group must still be able to join it);
    ``closes`` = the designated set is completed by its run stopping.
    ``plan`` tells the builder what each token did (see :func:`colour_options`).
    """

    state: tuple[int, ...]
    rack: int
    jokers: int
    meld_jokers: int
    tally: int
    meld_tiles: int
    starts: bool
    closes: bool
    plan: tuple[tuple[int, str, int], ...] = field(compare=False)
    groups: tuple[int, int, int] = (0, 0, 0)


def credited(tok: int) -> bool:
    """Heads of free and meld runs use credits (see :func:`match_ends`)."""
    return pin_of(tok) == 0 and layer_of(tok) != DESIG


def credited_end(tok: int) -> bool:
    """Is this token settled by :func:`match_ends` at the end (free or meld, unpinned,
    a run or a pending head)?"""
    return credited(tok) and kind_of(tok) in (RUN, PEND)


def end_pairs(state: tuple[int, ...]) -> dict[int, list[tuple[int, int]] | None]:
    """Per layer, the pairing of :func:`match_ends` between the runs open after 13 and
    the pending heads, as indexes into ``state``; None for a layer that cannot pair."""
    result: dict[int, list[tuple[int, int]] | None] = {}
    for layer in (FREE, MELD):
        tails = [
            i
            for i, tok in enumerate(state)
            if credited_end(tok) and kind_of(tok) == RUN and layer_of(tok) == layer
        ]
        heads = [
            i
            for i, tok in enumerate(state)
            if credited_end(tok) and kind_of(tok) == PEND and layer_of(tok) == layer
        ]
        if not tails and not heads:
            continue
        pairs = match_ends(
            [length_of(state[i]) for i in tails], [length_of(state[j]) for j in heads]
        )
        result[layer] = None if pairs is None else [(tails[a], heads[b]) for a, b in pairs]
    return result


def match_ends(tails: list[int], heads: list[int]) -> list[tuple[int, int]] | None:
    """Pair the runs still open after 13 (``tails``, by length) with the runs that came
    round into 1 (``heads``: stopped heads by length, 3 for a credit).

    A head shorter than 3 needs a tail that makes the pair 3 long; a tail shorter than
    3 needs such a head (a credit does for any tail); longer ones may go unpaired.
    Returns index pairs (tail, head), or None when no pairing works. A paired run may
    come out longer than 13: it is then two runs, cut anywhere both keep 3 tiles.

    >>> match_ends([3, 1], [1, 3])
    [(1, 1), (0, 0)]
    >>> match_ends([1], [1]) is None
    True
    """
    needy_tails = [i for i, t in enumerate(tails) if t < 3]
    needy_heads = [j for j, h in enumerate(heads) if h < 3]

    def search(
        tail_i: int, used_t: frozenset[int], used_h: frozenset[int]
    ) -> list[tuple[int, int]] | None:
        if tail_i < len(needy_tails):
            t = needy_tails[tail_i]
            for j, h in enumerate(heads):
                if j not in used_h and h + tails[t] >= 3:
                    rest = search(tail_i + 1, used_t | {t}, used_h | {j})
                    if rest is not None:
                        return [(t, j), *rest]
            return None
        for j in needy_heads:
            if j in used_h:
                continue
            for i, t in enumerate(tails):
                if i not in used_t and heads[j] + t >= 3:
                    rest = search(tail_i, used_t | {i}, used_h | {j})
                    if rest is not None:
                        return [(i, j), *rest]
            return None
        return []

    return search(0, frozenset(), frozenset())


def droppable(tok: int) -> bool:
    """Can a lane like this stop whenever it has length 3 (a free or meld run that is
    not inside a held block)? An extra such lane of length 3 then costs nothing."""
    return kind_of(tok) == RUN and pin_of(tok) == 0 and layer_of(tok) != DESIG


def signature(state: tuple[int, ...]) -> tuple[int, ...]:
    """What two states must share for one to dominate the other: their lanes that
    cannot simply stop, without lengths."""
    return tuple(sorted(tok & ~3 for tok in state if not droppable(tok)))


@cache
def dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """True when lanes ``a`` can do whatever lanes ``b`` can from here on.

    Lanes compare within their kind by length (a longer run can do what a shorter one
    can); a run of length 3 that may stop costs nothing, so ``a`` may have extra ones.

    >>> dominates((3, 3), (2,)), dominates((3,), (1, 1)), dominates((1, 3), (3,))
    (True, False, False)
    """
    if a == b:
        return True
    if signature(a) != signature(b):
        return False
    classes = {tok & ~3 for tok in a} | {tok & ~3 for tok in b}
    for cls in classes:
        longer = sorted((tok & 3 for tok in a if tok & ~3 == cls), reverse=True)
        shorter = sorted((tok & 3 for tok in b if tok & ~3 == cls), reverse=True)
        if droppable(cls | 1):
            if not _covers(longer, shorter):
                return False
        elif any(x < y for x, y in zip(longer, shorter, strict=True)):
            return False
    return True


def _covers(longer: list[int], shorter: list[int]) -> bool:
    """Each of ``shorter`` matched to a distinct one of ``longer`` at least as long, the
    rest of ``longer`` of length 3."""
    spare = list(longer)
    for length in shorter:
        fits = [x for x in spare if x >= length]
        if not fits:
            return False
        spare.remove(min(fits))
    return all(x == 3 for x in spare)


def rank(state: tuple[int, ...]) -> int:
    """A number that grows along :func:`dominates` (a linear extension of it)."""
    return sum(tok & 3 for tok in state) + 4 * sum(1 for tok in state if droppable(tok))
