"""The evidence of a case: its game turn by turn with every rack, the clock of each turn,
the drafts abandoned, and the chat.

Secret: every rack of every turn is here. Only :func:`moderation.services.evidence.
open_evidence` hands it out, to the moderator who claimed the case; nothing here checks
who asks.

One builder per shape: :func:`~moderation.selectors.turns.replay_turns` (the turns, from
the engine), :func:`clock_lines` (the time of each turn, from the move log's times),
:func:`abandoned_drafts` (from the drafts' history), :func:`chat_lines`; :func:`game_evidence`
loads the rows and puts them together. The solver's lines are apart
(:mod:`moderation.selectors.solver_lines`): they are the slow part, bounded and cached.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from django.apps import apps
from django.core.cache import cache

from engine.actions import parse_table
from engine.clock import Pause, TimeControl, bank_after_turn, turn_clock
from engine.game import new_game
from engine.state import GameState
from engine.tiles import format_tiles
from games.models import ChatMessage, Game, Move, Seat, Table, Vacation
from games.selectors.clock import time_control
from games.selectors.connections import Span, connected_spans
from games.selectors.players import Names, game_players
from moderation.selectors.page_connections import NO_RECORD, beside_timeout, help_by_turn
from moderation.selectors.turns import MoveRecord, TurnReplay, replay_turns

_TURNS_CACHE_SECONDS = 3600
"""A case's moderator turns its pages within the hour; a new move makes a new key."""


@dataclass(frozen=True)
class ClockLine:
    """The clock of one turn: when it began and ended, what it used of what it had."""

    started_at: datetime
    ended_at: datetime
    used_seconds: int
    allowed_seconds: int
    deadline: datetime
    bank_before: int
    bank_after: int
    timed_out: bool

    @property
    def overtime(self) -> bool:
        """Longer than the time per turn: the bank paid for it."""
        return self.bank_after < self.bank_before


@dataclass(frozen=True)
class DraftLine:
    """What a player had laid out in a turn and did not play."""

    seat: int
    turn_number: int
    table: tuple[tuple[str, ...], ...]
    saves: int
    saved_at: datetime
    laid_from_rack: tuple[str, ...]


@dataclass(frozen=True)
class ChatLine:
    author: str
    audience: str
    text: str
    turn_number: int | None
    said_at: datetime
    hidden: bool


@dataclass(frozen=True)
class EvidenceTurn:
    """One turn with its clock, its abandoned draft and what was said during it; beside
    a timeout, whether the mover's page was connected (``presence``); what the mover
    asked the solver for in it (``help``)."""

    replay: TurnReplay
    clock: ClockLine | None
    draft: DraftLine | None
    chat: tuple[ChatLine, ...]
    presence: str = ""
    help: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameEvidence:
    game_id: int
    table_id: int
    number: int
    names: tuple[str, ...]
    clock_kind: str
    turn_seconds: int
    bank_seconds: int
    deal: tuple[tuple[str, ...], ...]
    turns: tuple[EvidenceTurn, ...]
    chat: tuple[ChatLine, ...]
    is_over: bool

    def turn(self, step: int) -> EvidenceTurn | None:
        return self.turns[step - 1] if 1 <= step <= len(self.turns) else None

    @property
    def help_asked(self) -> dict[str, list[int]]:
        """The turns (game turn numbers) in which each player asked the solver for help."""
        turns: dict[str, list[int]] = defaultdict(list)
        for turn in self.turns:
            if turn.help and turn.replay.turn_number not in turns[self.names[turn.replay.mover]]:
                turns[self.names[turn.replay.mover]].append(turn.replay.turn_number)
        return dict(turns)

    @property
    def timeouts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for turn in self.turns:
            if turn.replay.timed_out:
                counts[self.names[turn.replay.mover]] += 1
        return dict(counts)


def game_evidence(game: Game) -> GameEvidence:
    """Everything that happened in ``game``, read in a handful of queries."""
    table = game.table
    names = game_players(game)
    start = new_game(
        game.engine_ruleset(), game.seed, None if game.start_drawn else game.starting_seat
    )
    turns = replayed(game, start, names)
    clocks = clock_lines(
        time_control(table),
        game.created_at,
        _banks_at_start(game),
        turns,
        _pauses(table),
        _zones(table),
    )
    drafts = abandoned_drafts(_draft_saves(game), turns)
    chat = chat_lines(game)
    by_turn: dict[int | None, list[ChatLine]] = defaultdict(list)
    for line in chat:
        by_turn[line.turn_number].append(line)
    spans = connected_spans(game)
    asked = help_by_turn(game)
    return GameEvidence(
        game_id=game.pk,
        table_id=table.pk,
        number=game.number,
        names=tuple(names.names),
        clock_kind=table.clock,
        turn_seconds=table.turn_seconds,
        bank_seconds=table.time_bank_seconds,
        deal=tuple(tuple(format_tiles(rack)) for rack in start.racks),
        turns=tuple(
            EvidenceTurn(
                turn,
                clocks[index],
                drafts.get(turn.turn_number),
                tuple(by_turn.get(turn.turn_number, ())),
                _presence(turn, clocks[index], spans),
                tuple(asked.get((turn.mover, turn.turn_number), ())),
            )
            for index, turn in enumerate(turns)
        ),
        chat=tuple(chat),
        is_over=game.is_over,
    )


def marked_racks(
    before: Sequence[str], after: Sequence[str]
) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """A rack before and after a turn, each tile marked when it changed: the tiles that
    left the rack before, the tiles it gained after (twins: as many as moved).

    >>> marked_racks(["R1", "R1", "B2"], ["R1", "B2", "K9"])
    ([('R1', False), ('R1', True), ('B2', False)], [('R1', False), ('B2', False), ('K9', True)])
    """
    left = Counter(before) - Counter(after)
    gained = Counter(after) - Counter(before)

    def marked(tiles: Sequence[str], changed: Counter[str]) -> list[tuple[str, bool]]:
        out: list[tuple[str, bool]] = []
        for index, tile in enumerate(tiles):
            # The last copies of a twin are the ones that moved: a rack is kept sorted.
            later = list(tiles[index + 1 :]).count(tile)
            out.append((tile, later < changed[tile]))
        return out

    return marked(before, left), marked(after, gained)


def _presence(turn: TurnReplay, clock: ClockLine, spans: Mapping[int, list[Span]]) -> str:
    """Beside a timeout: when the mover's page was not connected around it (nothing on
    record for any seat: the game may be older than the record, or pruned)."""
    if not turn.timed_out:
        return ""
    if not spans:
        return NO_RECORD
    return beside_timeout(
        turn.mover_name, spans.get(turn.mover, []), clock.started_at, clock.ended_at
    )


def replayed(game: Game, start: GameState, names: Names) -> tuple[TurnReplay, ...]:
    """The game's turns, kept in the cache for its version: the replay is the bulk of an
    opening once the solver's lines are cached, and turning the pages of the evidence
    asks for it each time."""
    key = turns_key(game)
    cached = cache.get(key)
    if isinstance(cached, tuple):
        return cached
    turns = replay_turns(start, move_records(game.pk), names)
    cache.set(key, turns, _TURNS_CACHE_SECONDS)
    return turns


def turns_key(game: Game) -> str:
    """The cache key of a game's replay: its id and version, and a digest of its seed (so
    that a reused id can never be answered with another game's turns)."""
    seed = hashlib.sha256(game.seed.encode()).hexdigest()[:16]
    return f"moderation:turns:{game.pk}:{game.version}:{seed}"


def move_records(game_id: int) -> list[MoveRecord]:
    rows = Move.objects.filter(game_id=game_id).order_by("seq")
    return [
        MoveRecord(m.seq, m.seat, m.engine_action(), m.turn_number, m.by, m.created_at)
        for m in rows
    ]


def clock_lines(
    control: TimeControl,
    game_started_at: datetime,
    banks: Mapping[int, int],
    turns: Sequence[TurnReplay],
    pauses: Mapping[int, Sequence[Pause]],
    zones: Mapping[int, tzinfo] | None = None,
) -> list[ClockLine]:
    """Each turn's clock, rebuilt as the clock service kept it: a turn begins when the
    one before it ended, may last the time per turn and the seat's bank (vacations
    stand the correspondence clock still), and settles the bank when it ends.

    ``banks``: each seat's bank when the game began; ``pauses``: each seat's vacations;
    ``zones``: each seat's zone, whose weekends stop its clock at a table that pauses on
    weekends (the member's zone now: the one each turn started in is kept only for the
    turn in play, so a member who moved zone mid-round is rebuilt in the new one).
    """
    bank = dict(banks)
    lines = []
    started = game_started_at
    for turn in turns:
        seat = turn.mover
        before = bank.get(seat, control.bank_seconds)
        zone = (zones or {}).get(seat)
        clock = turn_clock(control, started, before, pauses.get(seat, ()), zone)
        used = max(0.0, (turn.ended_at - started).total_seconds())
        # A rewind interrupts a turn and settles no bank (games.services.rewinds).
        after = before if turn.kind == "rewind" else bank_after_turn(control, before, used)
        bank[seat] = after
        lines.append(
            ClockLine(
                started_at=started,
                ended_at=turn.ended_at,
                used_seconds=round(used),
                allowed_seconds=round(control.allowance(before)),
                deadline=clock.deadline,
                bank_before=before,
                bank_after=after,
                timed_out=turn.timed_out,
            )
        )
        started = turn.ended_at
    return lines


def abandoned_drafts(
    saves: Iterable[tuple[int, int, list[list[str]], datetime]], turns: Sequence[TurnReplay]
) -> dict[int, DraftLine]:
    """The drafts of turns that ended without a play, by turn number: the last table the
    mover saved in that turn, and what of their rack it had laid.

    ``saves``: ``(seat, turn_number, table, saved_at)`` in the order they were saved.
    """
    by_turn: dict[tuple[int, int], list[tuple[list[list[str]], datetime]]] = defaultdict(list)
    for seat, turn_number, table, saved_at in saves:
        by_turn[seat, turn_number].append((table, saved_at))
    found = {}
    for turn in turns:
        kept = by_turn.get((turn.mover, turn.turn_number))
        if not kept or turn.kind in ("play", "river", "rewind"):
            continue
        table, saved_at = kept[-1]
        laid = _laid_from_rack(turn, table)
        if not laid:
            continue
        found[turn.turn_number] = DraftLine(
            seat=turn.mover,
            turn_number=turn.turn_number,
            table=tuple(tuple(tile_set) for tile_set in table),
            saves=len(kept),
            saved_at=saved_at,
            laid_from_rack=laid,
        )
    return found


def _laid_from_rack(turn: TurnReplay, table: list[list[str]]) -> tuple[str, ...]:
    try:
        drafted = parse_table(table)
    except ValueError:
        return ()
    on_table = Counter(t for s in drafted for t in s)
    before = Counter(t for s in turn.state_before.table for t in s)
    return tuple(format_tiles(sorted((on_table - before).elements())))


def chat_lines(game: Game) -> list[ChatLine]:
    """Everything said at the table while this game was played, hidden lines too."""
    rows = ChatMessage.objects.filter(game=game).select_related("author").order_by("created_at")
    return [
        ChatLine(
            author=m.author.display_name or m.author.username,
            audience=m.audience,
            text=m.text,
            turn_number=m.turn_number,
            said_at=m.created_at,
            hidden=m.hidden_at is not None,
        )
        for m in rows
    ]


def _draft_saves(game: Game) -> list[tuple[int, int, list[list[str]], datetime]]:
    # pghistory makes the event model at start-up (games.models.DraftEvent).
    rows = (
        apps.get_model("games", "DraftEvent")
        .objects.filter(game_id=game.pk)
        .order_by("pgh_created_at", "pgh_id")
    )
    return [(e.seat, e.turn_number, e.table, e.pgh_created_at) for e in rows]


def _banks_at_start(game: Game) -> dict[int, int]:
    """Each seat's bank when ``game`` began: full at the round's start, then carried
    from game to game of the round (the clock service keeps it on the seat)."""
    table = game.table
    control = time_control(table)
    banks: dict[int, int] = {}
    if control.bank_seconds == 0:
        return banks
    pauses, zones = _pauses(table), _zones(table)
    for earlier in Game.objects.filter(table=table, number__lt=game.number).order_by("number"):
        start = new_game(
            earlier.engine_ruleset(),
            earlier.seed,
            None if earlier.start_drawn else earlier.starting_seat,
        )
        turns = replay_turns(start, move_records(earlier.pk), game_players(earlier))
        for turn, line in zip(
            turns,
            clock_lines(control, earlier.created_at, banks, turns, pauses, zones),
            strict=True,
        ):
            banks[turn.mover] = line.bank_after
    return banks


def _zones(table: Table) -> dict[int, tzinfo]:
    """Each seat's member's zone, at a table that pauses on weekends (``clock_lines``)."""
    if not table.weekend_pause:
        return {}
    seats = Seat.objects.filter(table=table).exclude(user=None).select_related("user")
    return {seat.number: seat.user.zone for seat in seats if seat.user is not None}


def _pauses(table: Table) -> dict[int, list[Pause]]:
    """Each seat's vacations (correspondence clocks stand still during them)."""
    if table.clock != Table.Clock.CORRESPONDENCE:
        return {}
    seats = {s.user_id: s.number for s in Seat.objects.filter(table=table).exclude(user=None)}
    pauses: dict[int, list[Pause]] = defaultdict(list)
    for vacation in Vacation.objects.filter(user_id__in=seats).order_by("starts_at"):
        pauses[seats[vacation.user_id]].append((vacation.starts_at, vacation.ends_at))
    return pauses
