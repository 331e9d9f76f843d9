"""Who played is a fact of the game: each game keeps who sat in each seat, from which
move, whoever sits in the table's seat later (a substitute, a bot)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps

from accounts.models import User
from games import services
from games.models import Move, Result, SeatOccupancy, Table
from games.rendering import game_context
from games.selectors.move_log import move_log
from games.selectors.players import game_players, player_at, seat_names, table_seat_names
from games.selectors.replay import replay_frame
from games.selectors.sight import sat_at
from games.services import hand_seat_to_bot, resign
from games.services.lobby import replace_seat_player
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db

backfill = import_module("games.migrations.0016_seat_occupancy")


def test_a_substitute_after_a_resignation_leaves_the_finished_game_to_who_played_it(
    alice: User, bob: User, carol: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    table = start_table(alice, bob, carol, first=0, games_in_round=2)
    first = current_game(table)
    resign(first.pk, bob)
    resign(first.pk, carol)
    first.refresh_from_db()
    assert first.is_over

    with django_capture_on_commit_callbacks(execute=True):
        replace_seat_player(table.pk, 1, dave)

    assert seat_names(first) == ["Alice", "Bob", "Carol"]
    assert Result.objects.get(game=first, seat=1).member == bob
    words = [entry.words for entry in move_log(first, game_players(first), None).entries]
    assert words == ["Carol resigned.", "Bob resigned."]
    ending = replay_frame(first, 99)
    assert [seat.name for seat in ending.seats] == ["Alice", "Bob", "Carol"]
    assert "Bob resigned." in " ".join(replay_frame(first, 1).events)
    # Dave sits in the seat now but did not play the game: he reads it as a spectator;
    # Bob played it and is still "You" in it.
    assert game_context(first, dave)["me"] is None
    bobs = game_context(first, bob)
    assert bobs["me"] == 1
    assert [entry.words for entry in bobs["log"].entries][-1] == "You resigned."
    assert [seat.name for seat in bobs["seats"]] == ["Alice", "Bob", "Carol"]

    second = current_game(table)
    assert second.number == 2
    assert seat_names(second) == ["Alice", "Dave for Bob", "Carol"]
    assert table_seat_names(table.pk) == ["Alice", "Bob, then Dave for Bob", "Carol"]


def test_a_substitute_seated_after_a_resignation_in_a_game_in_play_is_not_named_for_it(
    alice: User, bob: User, carol: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    """Bob played and resigned; Dave took his seat while Alice and Carol played on, and
    never moved in the game (its seat was out): the game is Bob's, from the deal on."""
    table = start_table(alice, bob, carol, first=1)
    game = services.draw(current_game(table).pk, bob, current_game(table).version)
    game = services.draw(game.pk, carol, game.version)
    game = services.draw(game.pk, alice, game.version)
    resign(game.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        replace_seat_player(table.pk, 1, dave)
    game.refresh_from_db()
    assert not game.is_over
    assert seat_names(game) == ["Alice", "Bob", "Carol"]  # in play, the seat out
    game = services.draw(game.pk, carol, game.version)
    resign(game.pk, alice)
    game.refresh_from_db()
    assert game.is_over

    assert seat_names(game) == ["Alice", "Bob", "Carol"]
    assert game_players(game).everyone == {alice.pk, bob.pk, carol.pk}
    assert Result.objects.get(game=game, seat=1).member == bob
    page = game_context(game, carol)
    assert [seat.name for seat in page["seats"]] == ["Alice", "Bob", "Carol"]
    assert "Dave" not in " ".join(entry.words for entry in page["log"].entries)
    assert [seat.name for seat in replay_frame(game, 0).seats] == ["Alice", "Bob", "Carol"]
    assert [seat.name for seat in replay_frame(game, 99).seats] == ["Alice", "Bob", "Carol"]
    assert game_context(game, dave)["me"] is None
    assert game_context(game, bob)["me"] == 1


def test_a_seat_handed_over_mid_game_names_each_move_by_who_made_it(
    alice: User, bob: User, carol: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    table = start_table(alice, bob, carol, first=1, games_in_round=2)
    game = current_game(table)
    game = services.draw(game.pk, bob, game.version)  # move 1: Bob
    game = services.draw(game.pk, carol, game.version)  # move 2: Carol
    game = services.draw(game.pk, alice, game.version)  # move 3: Alice; Bob's turn again

    with django_capture_on_commit_callbacks(execute=True):
        replace_seat_player(table.pk, 1, dave)
    game = services.draw(game.pk, dave, game.version)  # move 4: Dave, for Bob
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_seat_to_bot(table.pk, 2) is True  # the bot draws move 5 at once

    game.refresh_from_db()
    assert player_at(game, 1, 1).name == "Bob"
    assert player_at(game, 1, 4).name == "Dave for Bob"
    assert player_at(game, 2, 2).name == "Carol"
    assert player_at(game, 2, 5).name == "Bot (normal) for Carol"
    assert player_at(game, 2, 5).is_bot
    words = [e.words for e in move_log(game, game_players(game), None).entries]
    assert words[::-1][:4] == [
        "Bob drew a tile.",
        "Carol drew a tile.",
        "Alice drew a tile.",
        "Dave for Bob drew a tile.",
    ]
    assert words[::-1][4].startswith("Bot (normal) for Carol ")
    # Dave reads his own move as his, and Bob's move of the seat before him as Bob's.
    daves = [e.words for e in game_context(game, dave)["log"].entries][::-1]
    assert daves[0] == "Bob drew a tile."
    assert daves[3].startswith("You drew ") and daves[3] != "You drew a tile."
    rows = SeatOccupancy.objects.filter(game=game).order_by("seat", "from_move")
    assert [(r.seat, r.from_move, r.name) for r in rows] == [
        (0, 1, "Alice"),
        (1, 1, "Bob"),
        (1, 4, "Dave for Bob"),
        (2, 1, "Carol"),
        (2, 5, "Bot (normal) for Carol"),
    ]
    # Dave plays the seat now: his notice of the turn names who plays the others.
    assert "against Alice and Bot (normal) for Carol" in services.notifications.turn_text(
        "your_turn", game, dave.pk
    )

    # The round's next game goes on with them, Dave still for Bob.
    resign(game.pk, alice)
    resign(game.pk, dave)
    second = current_game(table)
    assert second.number == 2
    assert seat_names(second) == ["Alice", "Dave for Bob", "Bot (normal) for Carol"]
    assert Result.objects.get(game=game, seat=1).member == dave


def test_the_record_cannot_be_rewritten(alice: User, bob: User) -> None:
    table = start_table(alice, bob)
    row = SeatOccupancy.objects.filter(game=current_game(table)).first()
    assert row is not None
    row.member = None
    with pytest.raises(Exception, match="who played a seat is history"):
        row.save()
    with pytest.raises(Exception, match="who played a seat is history"):
        row.delete()


# A migration's work, as the owner: the app's role may not delete the record to begin with.
@pytest.mark.as_owner
def test_the_migration_fills_the_record_in_from_the_games_own_history(
    alice: User, bob: User, carol: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    """Games played before the record was kept: what the services would have written is
    read back from the move log, the results and the seats."""
    table = start_table(alice, bob, carol, first=1, games_in_round=3)
    game = current_game(table)
    resign(game.pk, bob)  # Bob resigns game 1 himself, then is replaced
    resign(game.pk, carol)
    game = current_game(table)
    assert game.number == 2
    before = [alice, bob, carol]
    game = services.draw(game.pk, before[game.current_seat or 0], game.version)
    while game.current_seat != 1:
        game = services.draw(game.pk, before[game.current_seat or 0], game.version)
    with django_capture_on_commit_callbacks(execute=True):
        replace_seat_player(table.pk, 1, dave)
    game = services.draw(game.pk, dave, game.version)
    while game.current_seat != 2:
        player = [alice, dave, carol][game.current_seat or 0]
        game = services.draw(game.pk, player, game.version)
    with django_capture_on_commit_callbacks(execute=True):
        hand_seat_to_bot(table.pk, 2)
    game.refresh_from_db()
    resign(game.pk, alice)
    resign(game.pk, dave)
    third = current_game(table)
    assert third.number == 3
    written = _rows(table.pk)
    assert ("Dave for Bob", 1) in {(name, game) for game, _, _, name in written}

    games = list(table.games.values_list("pk", flat=True))
    SeatOccupancy.objects.filter(game_id__in=games)._raw_delete("default")  # type: ignore[attr-defined]
    assert not SeatOccupancy.objects.filter(game__table=table).exists()
    backfill.forwards(apps, None)

    assert _rows(table.pk) == written
    first = table.games.get(number=1)
    assert seat_names(first) == ["Alice", "Bob", "Carol"]
    assert seat_names(third) == ["Alice", "Dave for Bob", "Bot (normal) for Carol"]
    # Run again, it adds nothing.
    backfill.forwards(apps, None)
    assert _rows(table.pk) == written
    assert Move.objects.filter(game__table=table, by=Move.By.BOT).exists()


def _rows(table_id: int) -> list[tuple[int, int, int, str]]:
    rows = SeatOccupancy.objects.filter(game__table_id=table_id).select_related(
        "game", "member", "plays_for"
    )
    return sorted((row.game.number - 1, row.seat, row.from_move, row.name) for row in rows)


def test_a_member_replaced_in_a_game_in_play_still_sees_the_private_table(
    alice: User, bob: User, carol: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    table = start_table(alice, bob, carol, first=1)
    game = current_game(table)
    services.draw(game.pk, bob, game.version)
    with django_capture_on_commit_callbacks(execute=True):
        replace_seat_player(table.pk, 1, dave)
    Table.objects.filter(pk=table.pk).update(private=True)

    assert sat_at(bob, table.pk)
    assert Table.objects.visible_to(bob).filter(pk=table.pk).exists()
    stranger = UserFactory(username="stranger")
    assert not sat_at(stranger, table.pk)
    assert not Table.objects.visible_to(stranger).filter(pk=table.pk).exists()
