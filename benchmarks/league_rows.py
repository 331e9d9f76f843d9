"""Seasons of finished fixtures written straight into the database, in bulk.

The standings benchmark needs a season of thousands of finished games, and the
standings tests small seasons with chosen scores; neither needs the games to have been
played move by move. So this writes the rows a played season leaves - a finished table
per fixture with its seats, its games (a minimal state: the deal of the game's seed)
and one current :class:`~games.models.Result` per game and seat - without going
through the services. The fixtures themselves come from the caller (the season's
schedule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine.game import new_game
from engine.round import game_places
from games.models import Game, Result, Seat, SeatOccupancy, Table
from games.models.table_settings import TableSettings
from leagues.models import Fixture


@dataclass(frozen=True)
class PlayedFixture:
    """A fixture to write as played: its players by seat (the entries' players) and
    each game's scores by seat; ``winners`` default to the best score of each game."""

    fixture: Fixture
    players: Sequence[User]
    scores: Sequence[Sequence[int]]
    winners: Sequence[int | None] | None = None
    complete: bool = True


def best_seat(scores: Sequence[int], score_mode: str) -> int:
    """The first seat with the best score (lowest for penalty points)."""
    sign = 1 if score_mode == "penalty_only" else -1
    return min(range(len(scores)), key=lambda seat: sign * scores[seat])


def write_played(settings: TableSettings, played: Sequence[PlayedFixture]) -> None:
    """Write every fixture of ``played`` as a finished table of its games, in a few bulk
    inserts; each fixture gets its table and the status finished (or playing)."""
    now = timezone.now()
    states: dict[int, dict[str, Any]] = {}
    with transaction.atomic():
        tables = Table.objects.bulk_create(_table(settings, p, now) for p in played)
        Seat.objects.bulk_create(
            Seat(table=table, number=number, kind=Seat.Kind.PLAYER, user=user)
            for table, p in zip(tables, played, strict=True)
            for number, user in enumerate(p.players)
        )
        games = Game.objects.bulk_create(
            Game(
                table=table,
                number=number,
                ruleset=table.ruleset,
                seed=f"{table.round_seed}:{number}",
                starting_seat=(number - 1) % len(p.players),
                state=_state(states, settings, len(p.players)),
                current_seat=None,
                turn_started_at=now,
                status=Game.Status.FINISHED,
                finished_at=now,
            )
            for table, p in zip(tables, played, strict=True)
            for number in range(1, len(p.scores) + 1)
        )
        players_of = {table.pk: p.players for table, p in zip(tables, played, strict=True)}
        results: list[Result] = []
        index = 0
        for table, p in zip(tables, played, strict=True):
            mode = table.ruleset["score_mode"]
            for number, scores in enumerate(p.scores):
                game = games[index]
                index += 1
                winner = best_seat(scores, mode) if p.winners is None else p.winners[number]
                places = game_places(mode, scores, winner)
                results.extend(
                    Result(
                        game=game,
                        seat=seat,
                        member=p.players[seat],
                        score=score,
                        rack_value=abs(score) if seat != winner else 0,
                        place=places[seat],
                        is_winner=seat == winner,
                        source=Result.Source.PLAYED,
                        created_at=now,
                    )
                    for seat, score in enumerate(scores)
                )
        Result.objects.bulk_create(results, batch_size=5000)
        # Each game's record of who sat where, as a dealt game has: without it every list
        # that names a game's players would ask the table's seats, game by game.
        SeatOccupancy.objects.bulk_create(
            (
                SeatOccupancy(game=game, seat=seat, from_move=1, member=member)
                for game in games
                for seat, member in enumerate(players_of[game.table_id])
            ),
            batch_size=5000,
        )
        for table, p in zip(tables, played, strict=True):
            p.fixture.table = table
            p.fixture.status = Fixture.Status.FINISHED if p.complete else Fixture.Status.PLAYING
        Fixture.objects.bulk_update([p.fixture for p in played], ["table", "status"])


def _table(settings: TableSettings, played: PlayedFixture, now: Any) -> Table:
    ruleset = settings.ruleset(players=len(played.players))
    return Table(
        creator=played.players[0],
        preset=settings.preset,
        options=dict(settings.options),
        ruleset=ruleset.to_dict(),
        turn_seconds=settings.turn_seconds or ruleset.turn_time_limit_s,
        games_in_round=settings.games_for(len(played.players)),
        status=Table.Status.FINISHED if played.complete else Table.Status.PLAYING,
        round_seed=f"fixture-{played.fixture.pk}",
        started_at=now,
        finished_at=now if played.complete else None,
    )


def _state(cache: dict[int, dict[str, Any]], settings: TableSettings, players: int) -> Any:
    if players not in cache:
        cache[players] = new_game(settings.ruleset(players=players), "league-rows").to_dict()
    return cache[players]
