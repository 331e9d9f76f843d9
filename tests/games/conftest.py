from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import pytest
from django.test import override_settings

from accounts.models import User
from engine.bots import has_play
from engine.round import Round
from engine.solver import Budget
from games import services
from games.models import Game, Result, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.games.positions import set_position
from tests.games.views_support import RACK, TABLE


@pytest.fixture(autouse=True)
def _eager_celery(eager_celery: None) -> Iterator[None]:
    # Celery eager (tests/conftest.py's ``eager_celery``) for every test here; bots do not
    # pause.
    with override_settings(GAMES_BOT_DELAY_SECONDS=(0, 0)):
        yield


def start_table(*players: User, first: int | None = None, **settings: object) -> Table:
    """A table whose seats are taken by ``players`` in order; its round has started,
    with seat ``first`` to move (``None``: whoever the draw picks)."""
    table = services.create_table(
        players[0],
        TableSettings(**settings),
        [SeatPlan.taken_by(players[0]), *(SeatPlan.reserved_for(p) for p in players[1:])],
    )
    with nullcontext() if first is None else seat_starts(first):
        for player in players[1:]:
            services.join_table(table.pk, player)
    table.refresh_from_db()
    return table


def current_game(table: Table) -> Game:
    return table.games.order_by("-number").first()  # type: ignore[return-value]


def winner_of(game: Game) -> int | None:
    """The seat that wins ``game`` by its current result rows (``None``: nobody)."""
    rows = Result.objects.current().of_game(game).filter(is_winner=True)
    return rows.values_list("seat", flat=True).first()


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    """A two-player game between alice (seat 0) and bob (seat 1), just dealt."""
    return current_game(start_table(alice, bob))


@pytest.fixture
def position(game: Game) -> Game:
    """The mover holds RACK (their initial meld done) and the table is TABLE."""
    return set_position(game, TABLE, RACK)


def seed_where_seat_starts(table: Table, seat: int) -> str:
    """A round seed under which ``seat`` wins the draw for the first game's start."""
    ruleset = table.engine_ruleset()
    for n in range(1000):
        seed = f"seat-{seat}-starts-{n}"
        if Round.start(ruleset, seed, table.games_in_round).game(0).starting_player == seat:
            return seed
    raise AssertionError(f"no seed found where seat {seat} starts")


def seed_where_seat_is_forced_first(table: Table, seat: int) -> str:
    """A round seed under which ``seat`` plays the first game's first or second turn
    (it starts, or the seat before it does) and its dealt rack holds no initial meld: that
    turn has no play (the exact solver says so)."""
    ruleset = table.engine_ruleset()
    players = ruleset.players
    for n in range(1000):
        seed = f"seat-{seat}-forced-{n}"
        dealt = Round.start(ruleset, seed, table.games_in_round).game(0)
        if dealt.starting_player not in (seat, (seat - 1) % players):
            continue
        if has_play((), dealt.racks[seat], False, ruleset, Budget(steps=200_000)).forced:
            return seed
    raise AssertionError(f"no seed found where seat {seat} has no play at first")


@contextmanager
def seat_is_forced_first(seat: int) -> Iterator[None]:
    """Rounds started meanwhile deal ``seat`` a rack with no initial meld, and its turn
    is the first or second (:func:`seed_where_seat_is_forced_first`)."""
    with override_settings(
        GAMES_ROUND_SEED=lambda table: seed_where_seat_is_forced_first(table, seat)
    ):
        yield


@contextmanager
def seat_starts(seat: int) -> Iterator[None]:
    """Rounds started meanwhile begin with ``seat``'s turn (their seed is pinned)."""
    with override_settings(GAMES_ROUND_SEED=lambda table: seed_where_seat_starts(table, seat)):
        yield
