"""A pair's history across the club, for a collusion case: the games they played together,
who won them, and how often one of them fed the other's win.

Feeding is read from the games themselves: in the games one of the pair won, the other's
turns where they drew (passed, let the clock run) although the solver finds a play, and
the jokers and high tiles they still held at the end. The solver's answers are those of
the evidence (:mod:`moderation.selectors.solver_lines`: bounded, cached by position).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import combinations

from django.db.models import Count

from accounts.models import User
from engine.game import new_game
from games.models import Game, Result, Seat
from moderation.models import Case
from moderation.permissions import seated_user_ids
from moderation.selectors.evidence import move_records
from moderation.selectors.solver_lines import solver_lines
from moderation.selectors.turns import TurnReplay, replay_turns

GAMES_SHOWN = 12
"""The pair's most recent games together that are looked at turn by turn."""

HIGH = 10
"""A tile of this number or more counts as a high tile kept to the end."""


@dataclass(frozen=True)
class PairGame:
    game_id: int
    finished_at: datetime | None
    winner: str
    """The winner's name; empty when neither of the pair won."""
    fed: int
    """Turns where the loser of the pair drew, passed or timed out with a play at hand."""
    held: tuple[str, ...]
    """Jokers and high tiles the loser of the pair still held at the end."""
    pending: int
    """The loser's turns the solver has not answered yet (time ran out)."""


@dataclass(frozen=True)
class PairHistory:
    first: str
    second: str
    games: int
    first_wins: int
    second_wins: int
    recent: tuple[PairGame, ...]

    @property
    def fed(self) -> int:
        return sum(game.fed for game in self.recent)

    @property
    def held_to_the_end(self) -> int:
        return sum(1 for game in self.recent if game.held)


def pair_histories(case: Case, seconds: float = 0.0) -> tuple[PairHistory, ...]:
    """The history of each pair the case is about: the accused with each other member of
    the table, or every pair of the table when nobody is accused. The solver's lines come
    from the cache, and only a worker (:mod:`moderation.tasks`) gives the solver
    ``seconds`` to answer the turns left."""
    seated = sorted(seated_user_ids(case))
    if case.accused_id is not None:
        pairs = [(case.accused_id, other) for other in seated if other != case.accused_id]
    else:
        pairs = list(combinations(seated, 2))
    deadline = time.monotonic() + seconds
    members = tuple(pair_history(case, first, second, deadline) for first, second in pairs)
    partners = [case.accused_id] if case.accused_id is not None else seated
    return members + _bot_pairs(case, partners)


def _bot_pairs(case: Case, partners: Sequence[int]) -> tuple[PairHistory, ...]:
    """A bot at the table paired with each member looked at: its only game with them is
    the one under review (a bot has no history to speak of), won or not."""
    seats = list(Seat.objects.filter(table_id=case.game.table_id).select_related("replaced_user"))
    bots = [seat for seat in seats if seat.kind == Seat.Kind.BOT]
    if not bots:
        return ()
    by_member = {seat.user_id or seat.replaced_user_id: seat.number for seat in seats}
    winner = (
        Result.objects.current()
        .filter(game_id=case.game_id, is_winner=True)
        .values_list("seat", flat=True)
        .first()
    )
    names = {
        user.pk: user.display_name or user.username for user in User.objects.filter(pk__in=partners)
    }
    game = _under_review(case)
    pairs = []
    for member in partners:
        for bot in bots:
            if by_member.get(member) == bot.number:
                continue  # the member's own seat, handed to a bot
            member_won = winner is not None and winner == by_member.get(member)
            won = names.get(member, "") if member_won else ""
            if winner == bot.number:
                won = bot.occupant_name
            pairs.append(
                PairHistory(
                    first=names.get(member, "a former member"),
                    second=bot.occupant_name,
                    games=1,
                    first_wins=int(member_won),
                    second_wins=int(winner == bot.number),
                    recent=(replace(game, winner=won),),
                )
            )
    return tuple(pairs)


def pair_history(case: Case, first: int, second: int, deadline: float) -> PairHistory:
    """The games ``first`` and ``second`` finished together (in the case's club's leagues,
    or anywhere for a casual game's case); the solver works until ``deadline`` (a
    ``time.monotonic()`` instant), the rest waits for the next opening."""
    games = Game.objects.filter(status=Game.Status.FINISHED)
    if case.club_id is not None:
        games = games.filter(table__fixture__matchday__season__league__club_id=case.club_id)
    together = (
        Result.objects.current()
        .filter(game__in=games, member_id__in=(first, second))
        .values("game_id")
        .annotate(both=Count("member_id", distinct=True))
        .filter(both=2)
        .values_list("game_id", flat=True)
    )
    rows = list(
        Result.objects.current()
        .filter(game_id__in=together, member_id__in=(first, second))
        .select_related("game", "member")
        .order_by("-game__finished_at", "game_id")
    )
    names = {row.member_id: _name(row) for row in rows if row.member_id is not None}
    seats: dict[int, dict[int, int]] = {}
    winners: dict[int, int] = {}
    for row in rows:
        assert row.member_id is not None
        seats.setdefault(row.game_id, {})[row.member_id] = row.seat
        if row.is_winner:
            winners[row.game_id] = row.member_id
    game_ids = list(dict.fromkeys(row.game_id for row in rows))
    by_id = {row.game_id: row.game for row in rows}
    recent = tuple(
        _pair_game(
            by_id[game_id], seats[game_id], winners.get(game_id), names, (first, second), deadline
        )
        for game_id in game_ids[:GAMES_SHOWN]
    )
    won = list(winners.values())
    under_review = case.game_id not in by_id
    if under_review:
        # The game of the case counts too, finished or not (a game in play has no
        # result rows yet): it is why the pair is looked at.
        recent = (_under_review(case), *recent[: GAMES_SHOWN - 1])
    members = {
        user.pk: user.display_name or user.username
        for user in User.objects.filter(pk__in=(first, second))
    }
    return PairHistory(
        first=members.get(first, "a former member"),
        second=members.get(second, "a former member"),
        games=len(game_ids) + under_review,
        first_wins=won.count(first),
        second_wins=won.count(second),
        recent=recent,
    )


def _under_review(case: Case) -> PairGame:
    game = Game.objects.only("pk", "finished_at").get(pk=case.game_id)
    return PairGame(game.pk, game.finished_at, "", 0, (), 0)


def _pair_game(
    game: Game,
    seats: dict[int, int],
    winner: int | None,
    names: dict[int, str],
    pair: tuple[int, int],
    deadline: float,
) -> PairGame:
    if winner not in pair:
        return PairGame(game.pk, game.finished_at, "", 0, (), 0)
    loser = pair[1] if winner == pair[0] else pair[0]
    start = new_game(
        game.engine_ruleset(), game.seed, None if game.start_drawn else game.starting_seat
    )
    turns = replay_turns(start, move_records(game.pk), [""] * start.players)
    theirs = [t for t in turns if t.mover == seats[loser]]
    found = solver_lines(theirs, game.pk, max(0.0, deadline - time.monotonic()))
    fed = sum(
        1
        for turn in theirs
        if turn.kind != "play" and (line := found.lines.get(turn.step)) and line.missed
    )
    return PairGame(
        game_id=game.pk,
        finished_at=game.finished_at,
        winner=names[winner],
        fed=fed,
        held=_held(turns, seats[loser]),
        pending=found.pending,
    )


def _held(turns: Sequence[TurnReplay], seat: int) -> tuple[str, ...]:
    if not turns:
        return ()
    rack = turns[-1].racks_after[seat]
    return tuple(t for t in rack if t == "J" or int(t[1:]) >= HIGH)


def _name(row: Result) -> str:
    member = row.member
    return "" if member is None else (member.display_name or member.username)
