"""Every way a colour's open lanes can take the tiles of one number.

:func:`colour_options` is the heart of the solver's transitions: given a colour state
(see :mod:`engine.solver._lanes`) and what one number offers in that colour
(:class:`~engine.solver._lanes.CellSpec`), it lists each distinct way to go on: which
lanes take a real tile or a joker, which stop, which start, how many tiles go to
groups. It is pure and memoised.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import product

from engine.solver._groups import symmetric_code
from engine.solver._lanes import (
    BLOCK,
    CREDIT,
    DESIG,
    FREE,
    GAP,
    HEAD,
    JOKER,
    KEEP,
    MELD,
    PEND,
    REAL,
    REPLACE,
    RUN,
    TAIL,
    BlockCell,
    CellSpec,
    Option,
    credited,
    dominates,
    kind_of,
    layer_of,
    length_of,
    pin_of,
    token,
)

_HAS_JOKER, _HAS_REPLACED = 1, 2


def _flag_lane(old: int, source: str, new: int, spec: CellSpec) -> int | None:
    """``new`` with the joker bits updated for taking ``source``; None if the verdict
    would refuse the run.

    A held set whose joker's number holds a real tile in the final run (replaced, or
    a real tile of another held set) passes only if every joker of that run is one of
    its own (RULES.md §11.3 (ii)); a set that kept all its jokers always passes.
    """
    if new == -1:
        return new
    flags = old >> 8 & 15
    base, _, tag = source.partition("@")
    cell = _block_cell(spec, int(tag)) if tag else None
    if base == JOKER:
        if flags & _HAS_REPLACED:
            return None
        flags |= _HAS_JOKER
    elif base == KEEP and cell is not None:
        flags |= 4 << cell.slot
    if cell is not None and cell.end:
        kept = flags >> 2
        replaced_any = False
        for joker_slots, fixed in cell.members:
            if fixed or joker_slots & ~kept:
                if flags & _HAS_JOKER or kept & ~joker_slots:
                    return None
                replaced_any = True
        if flags & _HAS_REPLACED and kept:
            return None
        flags &= _HAS_JOKER | _HAS_REPLACED
        if replaced_any:
            flags |= _HAS_REPLACED
        if kept:
            flags |= _HAS_JOKER
    return (new & 255) | flags << 8


@lru_cache(maxsize=4096)
def colour_options(state: tuple[int, ...], spec: CellSpec) -> tuple[Option, ...]:
    """Every distinct way ``state`` can take one number's tiles of its colour.

    The ``plan`` of an option lists ``(token, source, new token)`` per old token in
    state order, then ``(-1, source, new token)`` per started lane; a stopped lane has
    new token -1 (or its ``PEND`` token). Options with the same effect are merged, and
    an option is dropped when another with the same counts leaves lanes that can do
    everything its lanes can (longer lanes; extra lanes of length 3, which may stop).

    A run of length 3 meeting one table tile: the run takes it, or the run stops and
    the tile goes to a group (stopping and starting a new run is no better than going on):

    >>> spec = CellSpec(table=1, rack=0, rack_min=0, jokers=0)
    >>> [(o.state, o.groups) for o in colour_options((3,), spec)]
    [((3,), (0, 0, 0)), ((), (1, 0, 0))]
    >>> sorted((o.state, o.rack) for o in colour_options((), CellSpec(1, 1, 0, 0)))
    [((), 0), ((), 1), ((1,), 0), ((1,), 1), ((1, 1), 1)]
    """
    found: dict[tuple[object, ...], Option] = {}
    for option in _raw_options(state, spec):
        key = (
            option.state,
            option.rack,
            option.jokers,
            option.meld_jokers,
            option.tally,
            option.meld_tiles,
            option.starts,
            option.closes,
        )
        if key not in found:
            found[key] = option
    options = list(found.values())
    return tuple(o for o in options if not any(_better(p, o) for p in options if p is not o))


def _better(p: Option, o: Option) -> bool:
    return (
        p.rack == o.rack
        and p.jokers == o.jokers
        and p.meld_jokers == o.meld_jokers
        and p.tally == o.tally
        and p.meld_tiles == o.meld_tiles
        and p.starts == o.starts
        and p.closes == o.closes
        and p.state != o.state
        and dominates(p.state, o.state)
    )


def _token_actions(tok: int, spec: CellSpec) -> list[tuple[str, int]]:
    """(source, new token) pairs for one old token; new token -1 = gone."""
    length, kind, layer, pin = length_of(tok), kind_of(tok), layer_of(tok), pin_of(tok)
    grown = min(length + 1, 3)
    if kind == PEND:
        return [("stay", tok)]
    cell = _block_cell(spec, pin - 1) if pin else None
    if cell is not None and cell.need is not None:
        return _pinned_sources(cell, token(grown, kind, layer, 0 if cell.end else pin))
    acts = [(REAL, token(grown, kind, layer, pin)), (JOKER, token(grown, kind, layer, pin))]
    if kind == RUN and length == 3:
        acts.append(("stop", -1))
    elif kind == HEAD and length >= 1:
        acts.append(("stop", token(length, PEND, layer, pin)))
    if layer == FREE and not pin:
        for cell in spec.blocks:
            if cell.start and not cell.wrapped:
                nxt = token(grown, kind, layer, 0 if cell.end else cell.block + 1)
                acts.extend(_pinned_sources(cell, nxt))
    return acts


def _pinned_sources(cell: BlockCell, nxt: int) -> list[tuple[str, int]]:
    tag = f"@{cell.block}"
    if cell.need == BLOCK:
        return [(BLOCK + tag, nxt)]
    if cell.need == GAP:
        return [(REAL + tag, nxt), (JOKER + tag, nxt)]
    return [(KEEP + tag, nxt), (REPLACE + tag, nxt)]


def _block_cell(spec: CellSpec, block: int) -> BlockCell | None:
    for cell in spec.blocks:
        if cell.block == block:
            return cell
    return None


def _starts(spec: CellSpec) -> tuple[tuple[str, int], ...]:
    """The kinds of lane that may start at this number (plain ones, any count)."""
    starts: list[tuple[str, int]] = []
    for layer in spec.layers:
        starts.append((REAL, token(1, RUN, layer)))
        starts.append((JOKER, token(1, RUN, layer)))
    return tuple(starts)


def _pinned_starts(spec: CellSpec) -> list[list[tuple[tuple[str, int], ...]]]:
    """Per linear block starting here: no new lane for it, or one new lane taking it."""
    pinned: list[list[tuple[tuple[str, int], ...]]] = []
    for cell in spec.blocks:
        if cell.start and not cell.wrapped:
            lane = token(1, RUN, FREE, 0 if cell.end else cell.block + 1)
            choices: list[tuple[tuple[str, int], ...]] = [()]
            choices.extend((src,) for src in _pinned_sources(cell, lane))
            pinned.append(choices)
    return pinned


def _cost(source: str) -> tuple[int, int]:
    """(real tiles, jokers) a source takes from this number's tiles."""
    base = source.partition("@")[0]
    if base in (REAL, REPLACE):
        return 1, 0
    if base in (JOKER, KEEP):
        return 0, 1
    return 0, 0


def _raw_options(state: tuple[int, ...], spec: CellSpec) -> Iterator[Option]:
    """Every combination of token actions and new lanes within the tiles available."""
    per_token = [
        _claims(tok, spec) if kind_of(tok) == PEND else _token_actions(tok, spec) for tok in state
    ]
    real_cap = spec.table + spec.rack
    joker_cap = spec.jokers
    starts = _starts(spec)
    extras = [sum(parts, ()) for parts in product(*_pinned_starts(spec))]

    def walk(
        i: int, acts: tuple[tuple[str, int], ...], reals: int, jokers: int
    ) -> Iterator[Option]:
        if i == len(state):
            if not _first_in_first_out(state, acts):
                return
            for extra in extras:
                r, j = reals, jokers
                for src, _ in extra:
                    dr, dj = _cost(src)
                    r, j = r + dr, j + dj
                if r > real_cap or j > joker_cap:
                    continue
                for news in _budgeted(starts, real_cap - r, joker_cap - j):
                    yield from _complete(state, spec, acts, (*news, *extra))
            return
        for act in per_token[i]:
            dr, dj = _cost(act[0])
            if reals + dr <= real_cap and jokers + dj <= joker_cap:
                yield from walk(i + 1, (*acts, act), reals + dr, jokers + dj)

    yield from walk(0, (), 0, 0)


def _first_in_first_out(state: tuple[int, ...], acts: tuple[tuple[str, int], ...]) -> bool:
    """Tails claim the shortest pending heads of their kind first.

    Pairing the earliest tails with the earliest (shortest) heads is never worse: it
    keeps every head closed before its tail starts and every pair at 3 tiles or more
    whenever some pairing does. Tokens are sorted, so within a kind the shorter
    heads come first: once one stays, no later one may be claimed.
    """
    staying: set[int] = set()
    for tok, (source, _) in zip(state, acts, strict=True):
        if kind_of(tok) != PEND:
            continue
        kind = tok & ~3
        if source == "stay":
            staying.add(kind)
        elif kind in staying:
            return False
    return True


@cache
def _budgeted(
    items: tuple[tuple[str, int], ...], reals: int, jokers: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Multisets of ``items`` using at most ``reals`` real tiles and ``jokers`` jokers."""
    if not items:
        return ((),)
    head, rest = items[0], items[1:]
    dr, dj = _cost(head[0])
    found: list[tuple[tuple[str, int], ...]] = []
    count = 0
    while count * dr <= reals and count * dj <= jokers and count <= 4:
        for tail in _budgeted(rest, reals - count * dr, jokers - count * dj):
            found.append((*(head,) * count, *tail))
        count += 1
        if dr == 0 and dj == 0:
            break
    return tuple(found)


def _claims(tok: int, spec: CellSpec) -> list[tuple[str, int]]:
    """A pending head stays, or a tail starting here claims it (with its tile)."""
    pin, layer, length = pin_of(tok), layer_of(tok), length_of(tok)
    if spec.credits and credited(tok):
        return [("stay", tok)]
    tail = token(min(length + 1, 3), TAIL, layer, pin)
    cell = _block_cell(spec, pin - 1) if pin else None
    if cell is not None and cell.start:
        # The wrapped block's tail end starts here: its head must be claimed now.
        return _pinned_sources(cell, tail)
    options = [("stay", tok), (REAL, tail), (JOKER, tail)]
    if layer == FREE and not pin:
        for block_cell in spec.blocks:
            if block_cell.start and not block_cell.wrapped:
                nxt = token(
                    min(length + 1, 3),
                    TAIL,
                    layer,
                    0 if block_cell.end else block_cell.block + 1,
                )
                options.extend(_pinned_sources(block_cell, nxt))
    return options


def _complete(
    state: tuple[int, ...],
    spec: CellSpec,
    acts: tuple[tuple[str, int], ...],
    news: tuple[tuple[str, int], ...],
) -> Iterator[Option]:
    sources = [src for src, _ in acts] + [src for src, _ in news]
    if not _blocks_taken_once(sources, spec):
        return
    if spec.joker_flags:
        flagged = _flag_all(state, spec, acts, news)
        if flagged is None:
            return
        acts, news = flagged
    if spec.credits:
        acts, news = _grown_heads(state, acts, news)
    new_toks = [tok for _, tok in acts if tok != -1] + [tok for _, tok in news]
    layers = [layer_of(tok) for _, tok in acts] + [layer_of(tok) for _, tok in news]
    free_reals = rack_reals = jokers = meld_jokers = lane_meld = replaced = 0
    for (src, _), layer in zip([*acts, *news], layers, strict=True):
        base = src.split("@")[0]
        if base in ("stay", "stop") or base.startswith(CREDIT):
            continue
        counted = spec.meld_counts_all or layer != FREE
        if base == REAL:
            if layer == FREE:
                free_reals += 1
            else:
                rack_reals += 1
        elif base in (JOKER, KEEP):
            jokers += 1
            meld_jokers += layer != FREE
        elif base == REPLACE:
            free_reals += 1
            replaced += 1
        if counted and base != BLOCK:
            lane_meld += 1
    if jokers > spec.jokers:
        return
    starts = any(
        layer_of(tok) != FREE and kind_of(tok) == RUN and length_of(tok) == 1 for _, tok in news
    )
    closes = any(
        src == "stop" and layer_of(tok) == DESIG and kind_of(tok) == RUN
        for (src, _), tok in zip(acts, state, strict=True)
    )
    desig_lanes = sum(layer_of(tok) == DESIG for tok in new_toks)
    if desig_lanes > 1:
        return  # one designated set: two copies of a run are two sets, not one
    desig_lane = desig_lanes == 1
    for g_free in range(3):
        for g_meld in range(3 if MELD in spec.group_layers else 1):
            for g_desig in range(2 if DESIG in spec.group_layers and not desig_lane else 1):
                used = free_reals + rack_reals + g_free + g_meld + g_desig
                if not spec.table + spec.rack_min <= used <= spec.table + spec.rack:
                    continue
                rack = used - spec.table
                if rack_reals + g_meld + g_desig > rack:
                    continue
                if replaced and spec.rack_only_replacement and rack < 1:
                    continue
                yield _make_option(
                    spec,
                    tuple(sorted(new_toks)),
                    rack,
                    jokers,
                    meld_jokers,
                    (g_free, g_meld, g_desig),
                    lane_meld + (g_free if spec.meld_counts_all else 0) + g_meld,
                    starts,
                    closes,
                    acts,
                    news,
                )


def _grown_heads(
    state: tuple[int, ...],
    acts: tuple[tuple[str, int], ...],
    news: tuple[tuple[str, int], ...],
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """A head that reaches 3 tiles is a run in its own right: it goes on as a plain run
    and leaves a credit (a pending head of length 3) that a short tail may use."""
    new_acts = list(acts)
    credits = []
    for i, (old, (src, tok)) in enumerate(zip(state, acts, strict=True)):
        grown = tok != -1 and kind_of(tok) == HEAD and length_of(tok) == 3
        if grown and kind_of(old) == HEAD and credited(old):
            new_acts[i] = (src, token(3, RUN, layer_of(tok)))
            credits.append((f"{CREDIT}#{i}", token(3, PEND, layer_of(tok))))
    if not credits:
        return acts, news
    return tuple(new_acts), (*news, *credits)


def _flag_all(
    state: tuple[int, ...],
    spec: CellSpec,
    acts: tuple[tuple[str, int], ...],
    news: tuple[tuple[str, int], ...],
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] | None:
    new_acts = []
    for old, (src, tok) in zip(state, acts, strict=True):
        flagged = _flag_lane(old, src, tok, spec)
        if flagged is None:
            return None
        new_acts.append((src, flagged))
    new_news = []
    for src, tok in news:
        flagged = _flag_lane(0, src, tok, spec)
        if flagged is None:
            return None
        new_news.append((src, flagged))
    return tuple(new_acts), tuple(new_news)


def _blocks_taken_once(sources: list[str], spec: CellSpec) -> bool:
    """Each block with a tile at this number has exactly one lane taking it."""
    for cell in spec.blocks:
        if cell.need is not None:
            tag = f"@{cell.block}"
            if sum(1 for src in sources if src.endswith(tag)) != 1:
                return False
    return True


def _make_option(
    spec: CellSpec,
    new_state: tuple[int, ...],
    rack: int,
    jokers: int,
    meld_jokers: int,
    groups: tuple[int, int, int],
    meld_tiles: int,
    starts: bool,
    closes: bool,
    acts: tuple[tuple[str, int], ...],
    news: tuple[tuple[str, int], ...],
) -> Option:
    g_free, g_meld, g_desig = groups
    if spec.colour_code:
        flag = 3 if spec.rack_flag and rack >= 1 else 0
        free_code = (g_free + flag) * spec.colour_code
    else:
        free_code = symmetric_code(g_free)
    tally = free_code + symmetric_code(g_meld) * spec.meld_base + g_desig * spec.desig_base
    plan = tuple((i, src, tok) for i, (src, tok) in enumerate(acts)) + tuple(
        (-1, src, tok) for src, tok in news
    )
    return Option(
        new_state,
        rack,
        jokers,
        meld_jokers,
        tally,
        meld_tiles,
        starts,
        closes,
        plan,
        groups,
    )
