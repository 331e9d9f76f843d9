"""A busy site's rows written straight into the database, in bulk: games in play,
tables waiting or finished, notifications and moderation cases, by the thousand.

The pages benchmark (:mod:`benchmarks.bench_pages`) puts 100,000 games on the site and
the query-count tests (``tests/pages/``) a few dozen more "other" rows than before; none
of them needs the rows to have been played move by move. So this writes what a played
site leaves - a table with its seats, a game with its record of who sits where
(:class:`~games.models.SeatOccupancy`, which the lists read) and its state (the deal of
one seed, shared) - without going through the services, a thousand rows an insert.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from functools import cache
from itertools import islice
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine.game import new_game
from engine.ruleset import Ruleset
from games.models import Game, Seat, SeatOccupancy, Table
from moderation.models import Case, Category, Report
from notifications.models import Notification

BATCH = 1000
T = TypeVar("T")


@cache
def _deal(players: int) -> dict[str, Any]:
    """The state of a game just dealt (one seed for all: the lists never read it)."""
    return new_game(Ruleset(players=players), "site-rows", starting_player=0).to_dict()


def _batches(items: Sequence[T]) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def members(count: int, prefix: str = "member") -> list[User]:
    """``count`` new members (no password: nobody logs in as them)."""
    first = User.objects.count()
    made: list[User] = []
    for batch in _batches(range(first, first + count)):
        made += User.objects.bulk_create(
            User(username=f"{prefix}{n}", display_name=f"{prefix.title()} {n}") for n in batch
        )
    return made


def games_in_play(
    count: int,
    players: Sequence[User],
    *,
    private: bool = False,
    clock: str = Table.Clock.LIVE,
    now: datetime | None = None,
) -> list[int]:
    """``count`` tables playing their first game among ``players`` (seat order), seat 0
    to move, the newest turn started at ``now`` and each earlier by a second; their
    game ids."""
    now = now or timezone.now()
    ruleset = Ruleset(players=len(players)).to_dict()
    turn = 86400 if clock == Table.Clock.CORRESPONDENCE else 60
    ids: list[int] = []
    with transaction.atomic():
        for batch in _batches(range(count)):
            tables = Table.objects.bulk_create(
                Table(
                    creator=players[0],
                    ruleset=ruleset,
                    turn_seconds=turn,
                    clock=clock,
                    games_in_round=1,
                    status=Table.Status.PLAYING,
                    private=private,
                    started_at=now,
                )
                for _ in batch
            )
            Seat.objects.bulk_create(
                Seat(table=table, number=number, kind=Seat.Kind.PLAYER, user=user)
                for table in tables
                for number, user in enumerate(players)
            )
            games = Game.objects.bulk_create(
                Game(
                    table=table,
                    number=1,
                    ruleset=ruleset,
                    seed="site-rows",
                    starting_seat=0,
                    state=_deal(len(players)),
                    current_seat=0,
                    turn_started_at=now - timedelta(seconds=n),
                    turn_deadline=now + timedelta(seconds=turn + n),
                )
                for n, table in zip(batch, tables, strict=True)
            )
            SeatOccupancy.objects.bulk_create(
                SeatOccupancy(game=game, seat=number, from_move=1, member=user)
                for game in games
                for number, user in enumerate(players)
            )
            ids += [game.pk for game in games]
    return ids


def open_tables(count: int, creator: User) -> list[int]:
    """``count`` tables waiting for a second player, ``creator`` in seat 0; their ids."""
    ruleset = Ruleset(players=2).to_dict()
    ids: list[int] = []
    with transaction.atomic():
        for batch in _batches(range(count)):
            tables = Table.objects.bulk_create(
                Table(creator=creator, ruleset=ruleset, turn_seconds=60, games_in_round=2)
                for _ in batch
            )
            Seat.objects.bulk_create(
                seat
                for table in tables
                for seat in (
                    Seat(table=table, number=0, kind=Seat.Kind.PLAYER, user=creator),
                    Seat(table=table, number=1),
                )
            )
            ids += [table.pk for table in tables]
    return ids


def finished_tables(count: int, players: Sequence[User]) -> list[int]:
    """``count`` finished tables of one finished game among ``players``; their ids."""
    ids = games_in_play(count, players)
    now = timezone.now()
    Game.objects.filter(pk__in=ids).update(
        status=Game.Status.FINISHED, current_seat=None, turn_deadline=None, finished_at=now
    )
    tables = list(Game.objects.filter(pk__in=ids).values_list("table_id", flat=True))
    Table.objects.filter(pk__in=tables).update(status=Table.Status.FINISHED, finished_at=now)
    return tables


def notifications(count: int, user: User) -> None:
    """``count`` notices to ``user``, read, the newest a minute ago."""
    now = timezone.now()
    for batch in _batches(range(count)):
        Notification.objects.bulk_create(
            Notification(
                user=user,
                kind="table_invitation",
                text=f"Notice {n}",
                link="/games/",
                read_at=now,
                created_at=now - timedelta(minutes=1 + n),
            )
            for n in batch
        )


def cases(count: int, game_ids: Sequence[int], filer: User, **fields: Any) -> list[int]:
    """``count`` open cases, one on each of ``game_ids`` in turn, each with ``filer``'s
    report; ``fields``: more of the case's (``club``, ``fixture``, ``accused``)."""
    now = timezone.now()
    ids: list[int] = []
    games = iter(list(game_ids) * (count // max(len(game_ids), 1) + 1))
    for batch in _batches(range(count)):
        made = Case.objects.bulk_create(
            Case(
                game_id=game_id,
                category=Category.OTHER,
                opened_at=now - timedelta(minutes=n),
                **fields,
            )
            for n, game_id in zip(batch, islice(games, len(batch)), strict=True)
        )
        Report.objects.bulk_create(
            Report(case=case, filer=filer, text="Something is wrong.", created_at=case.opened_at)
            for case in made
        )
        ids += [case.pk for case in made]
    return ids
