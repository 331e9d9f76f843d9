import re

import pytest

from accounts.models import User
from games import services
from games.errors import NotFound, TableError
from games.models import Game, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db


def seats(table: Table) -> list[tuple[str, str | None, str]]:
    return [
        (seat.kind, seat.user.username if seat.user else None, seat.bot_level)
        for seat in table.seats.order_by("number")
    ]


def test_a_new_table_waits_for_its_open_and_reserved_seats(alice: User, bob: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(),
        [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob), SeatPlan.open()],
    )

    assert table.status == Table.Status.OPEN
    assert seats(table) == [("player", "alice", ""), ("reserved", "bob", ""), ("open", None, "")]
    assert not table.games.exists()


def test_a_table_resolves_its_rules_from_the_preset_and_the_options(alice: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(preset="keadle_house", options={"joker_penalty": 25}, turn_seconds=90),
        [SeatPlan.taken_by(alice), SeatPlan.open(), SeatPlan.open()],
    )

    ruleset = table.engine_ruleset()
    assert (ruleset.players, ruleset.score_mode, ruleset.joker_penalty) == (3, "penalty_only", 25)
    assert ruleset.turn_time_limit_s == table.turn_seconds == 90
    assert table.options == {"joker_penalty": 25}
    assert table.games_in_round == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"preset": "poker"}, "Unknown rules 'poker'"),
        ({"options": {"joker_penalty": 40}}, "Joker_penalty must be one of 25, 30; got 40."),
        ({"options": {"players": 3}}, "The number of players is the number of seats."),
        ({"turn_seconds": 5}, "A turn lasts between 10 seconds and 24 hours."),
        ({"games_in_round": 0}, "A round has between 1 and 20 games."),
    ],
)
def test_it_refuses_bad_table_settings(alice: User, kwargs: dict, message: str) -> None:
    with pytest.raises(TableError, match=message):
        services.create_table(
            alice, TableSettings(**kwargs), [SeatPlan.taken_by(alice), SeatPlan.open()]
        )

    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("plans", "message"),
    [
        (["me"], "A table has 2, 3 or 4 seats."),
        (["me", "open", "open", "open", "open"], "A table has 2, 3 or 4 seats."),
        (["me", "me"], "A member can have only one seat at a table."),
        (["me", "bot:clever"], "A bot is easy, normal, strong; not 'clever'."),
    ],
)
def test_it_refuses_impossible_seats(alice: User, plans: list[str], message: str) -> None:
    build = {
        "me": SeatPlan.taken_by(alice),
        "open": SeatPlan.open(),
        "bot:clever": SeatPlan.bot("clever"),
    }

    with pytest.raises(TableError, match=message):
        services.create_table(alice, TableSettings(), [build[plan] for plan in plans])


def test_a_table_of_bots_only_is_refused(alice: User) -> None:
    with pytest.raises(TableError, match=re.escape("At least one seat must be for a person.")):
        services.create_table(
            alice, TableSettings(), [SeatPlan.bot("easy"), SeatPlan.bot("strong")]
        )


def test_the_round_starts_when_the_last_seat_is_taken(alice: User, bob: User) -> None:
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )

    services.join_table(table.pk, bob)

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.started_at is not None
    game = table.games.get()
    assert (game.number, game.version, game.status) == (1, 0, Game.Status.PLAYING)
    assert game.turn_deadline is not None
    assert game.current_seat == game.engine_state().current_player == game.starting_seat
    assert game.start_drawn is True


def test_a_table_full_from_the_start_starts_at_once(alice: User) -> None:
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.bot("easy")]
    )

    assert table.status == Table.Status.PLAYING
    assert table.games.count() == 1


def test_an_invited_member_takes_the_seat_kept_for_her(alice: User, bob: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(),
        [SeatPlan.taken_by(alice), SeatPlan.open(), SeatPlan.reserved_for(bob)],
    )

    services.join_table(table.pk, bob)

    assert seats(table)[2] == ("player", "bob", "")
    assert seats(table)[1] == ("open", None, "")


def test_a_member_cannot_take_a_seat_kept_for_another(alice: User, bob: User, carol: User) -> None:
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )

    with pytest.raises(TableError, match=re.escape("There is no open seat at this table.")):
        services.join_table(table.pk, carol)
    with pytest.raises(TableError, match=re.escape("This seat is kept for another member.")):
        services.join_table(table.pk, carol, seat_number=1)


def test_a_member_cannot_sit_twice_or_take_a_taken_seat(alice: User, bob: User) -> None:
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open(), SeatPlan.open()]
    )

    with pytest.raises(TableError, match=re.escape("You already have a seat at this table.")):
        services.join_table(table.pk, alice)
    with pytest.raises(TableError, match=re.escape("This seat is taken.")):
        services.join_table(table.pk, bob, seat_number=0)
    with pytest.raises(TableError, match=re.escape("There is no seat 7 at this table.")):
        services.join_table(table.pk, bob, seat_number=7)


def test_nobody_joins_a_table_that_has_started(alice: User, bob: User, carol: User) -> None:
    table = start_table(alice, bob)

    with pytest.raises(TableError, match=re.escape("This table is no longer taking players.")):
        services.join_table(table.pk, carol)
    with pytest.raises(NotFound):
        services.join_table(table.pk + 1000, carol)


def test_the_lobby_lists_tables_a_member_may_join(alice: User, bob: User, carol: User) -> None:
    open_table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )
    kept_for_bob = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )
    start_table(alice, carol)
    dave = UserFactory()

    assert set(Table.objects.joinable_by(bob)) == {open_table, kept_for_bob}
    assert set(Table.objects.joinable_by(dave)) == {open_table}
    assert set(Table.objects.joinable_by(alice)) == set()
    assert Table.objects.open().count() == 2
    assert set(Table.objects.with_member(bob)) == {kept_for_bob}


def test_seats_show_who_sits_there(alice: User, bob: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(),
        [
            SeatPlan.taken_by(alice),
            SeatPlan.reserved_for(bob),
            SeatPlan.bot("strong"),
            SeatPlan.open(),
        ],
    )

    names = [seat.occupant_name for seat in table.seats.order_by("number")]

    assert names == ["Alice", "Bob (invited)", "Bot (strong)", "Open seat"]


def test_the_database_refuses_a_seat_whose_kind_does_not_match(alice: User) -> None:
    from django.db import IntegrityError, transaction

    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=table, number=1).update(kind="bot")


def test_a_rounds_seed_is_random_unless_a_test_pins_who_starts(alice: User, bob: User) -> None:
    drawn = [start_table(alice, bob).round_seed for _ in range(2)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", seed) for seed in drawn)
    assert drawn[0] != drawn[1]

    for seat in (0, 1):
        table = start_table(alice, bob, first=seat)
        game = current_game(table)
        assert game.current_seat == game.starting_seat == seat
        assert table.round_seed.startswith(f"seat-{seat}-starts-")
