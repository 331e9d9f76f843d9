"""Withdrawing from a season: the entry, the open fixture tables under each rule, the
fixtures still to open, and the other players told."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

import pghistory.models
import pytest
from django.apps import apps

from accounts.models import User
from games.models import Game, Move, Seat, Table
from games.services import SeatPlan
from leagues.errors import LeaguesError
from leagues.models import Club, Entry, Fixture, OnWithdrawal, Season
from leagues.notices import LeagueNotice
from leagues.services.matchdays import open_matchday
from leagues.services.withdrawals import seat_plan_for, withdraw
from notifications.models import Notification
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

Announced = Callable[[], Any]

withdrawn_seats = import_module("leagues.migrations.0010_withdrawn_seats_forfeit_each_game")


def game_in_play(fixture: Fixture) -> Game:
    """The game in play at the fixture's table."""
    game = Game.objects.filter(table_id=fixture.table_id, status=Game.Status.PLAYING).first()
    assert game is not None
    return game


def test_a_player_withdraws_and_a_bot_takes_their_seats_at_open_fixtures(
    league_club: Club, alice: User, bob: User, carol: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob, carol], seats=3)
    fixture = open_fixture(season, 1, [alice, bob, carol])
    assert fixture.table is not None
    entry = season.entries.get(user=bob)

    with announced():
        withdraw(entry, bob)

    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    assert entry.withdrawn_at is not None
    seat = fixture.table.seats.get(number=1)
    assert (seat.kind, seat.user, seat.replaced_user) == (Seat.Kind.BOT, None, bob)
    # The game in play goes on, with bob's seat still in it: a bot plays it.
    game = game_in_play(fixture)
    assert 1 not in game.engine_state().dropped


def test_the_bot_moves_at_once_when_it_is_the_withdrawn_players_turn(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = open_fixture(season, 1, [alice, bob])
    game = game_in_play(fixture)
    mover = alice if game.current_seat == 0 else bob
    turn = game.turn_number

    with announced():
        withdraw(season.entries.get(user=mover), mover)

    game.refresh_from_db()
    assert game.turn_number > turn
    assert Move.objects.filter(game=game, by=Move.By.BOT).exists()


def test_a_withdrawn_players_next_fixtures_seat_a_bot_under_the_bot_rule(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    later = scheduled_fixture(season, 2, [alice, bob])
    entry = season.entries.get(user=bob)
    assert seat_plan_for(entry) == SeatPlan.taken_by(bob)

    with announced():
        withdraw(entry, bob)

    entry.refresh_from_db()
    assert seat_plan_for(entry) == SeatPlan.bot("normal", plays_for=bob)
    assert later.table is None  # nothing happens to it until its matchday opens


def test_under_the_forfeit_rule_the_player_forfeits_the_game_in_play(
    league_club: Club, alice: User, bob: User, carol: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob, carol], seats=3, on_withdrawal="forfeit")
    fixture = open_fixture(season, 1, [alice, bob, carol])
    assert fixture.table is not None

    with announced():
        withdraw(season.entries.get(user=carol), carol)

    game = game_in_play(fixture)
    assert game.number == 1
    assert game.engine_state().dropped == (2,)
    forfeit = Move.objects.get(game=game, by=Move.By.RULING)
    assert (forfeit.seat, forfeit.action) == (2, {"type": "forfeit"})
    # Carol keeps the seat (her results count for her entry), a member's not a bot's.
    assert fixture.table.seats.get(number=2).user == carol


def test_under_the_forfeit_rule_every_later_game_of_the_round_starts_with_the_forfeit(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob], on_withdrawal=OnWithdrawal.FORFEIT)
    fixture = open_fixture(season, 1, [alice, bob])
    assert fixture.table is not None

    with announced():
        withdraw(season.entries.get(user=bob), bob)

    # Two players: each forfeit ends its game, and the next one starts with one more.
    table = Table.objects.get(pk=fixture.table.pk)
    games = list(table.games.order_by("number"))
    assert table.status == Table.Status.FINISHED
    assert len(games) == table.games_in_round == 2
    for game in games:
        assert game.engine_state().dropped == (1,)
        assert game.engine_state().outcome is not None
    # Alice shared the fixture when Bob withdrew: she is told, though it is finished now.
    told = Notification.objects.get(user=alice, key__startswith="league-withdrawal-")
    assert told.text.startswith("Bob withdrew from")


def test_under_the_forfeit_rule_a_fixture_opened_later_starts_with_the_forfeit(
    league_club: Club, alice: User, bob: User, carol: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob, carol], seats=3, on_withdrawal="forfeit")
    later = scheduled_fixture(season, 2, [carol, alice, bob])
    entry = season.entries.get(user=carol)
    with announced():
        withdraw(entry, carol)
    entry.refresh_from_db()
    assert seat_plan_for(entry) == SeatPlan.forfeiting(carol)

    # Opening the matchday keeps carol's seat for her (her forfeits count for her entry),
    # and its game is dealt without her in play: nothing after the commit is needed
    # (none of it runs here), so a worker lost then leaves nobody waiting for her.
    open_matchday(later.matchday)

    later.refresh_from_db()
    game = game_in_play(later)
    assert game.engine_state().dropped == (0,)
    assert game.current_seat != 0
    seat = Seat.objects.get(table_id=later.table_id, number=0)
    assert (seat.user, seat.forfeits_each_game) == (carol, True)
    forfeit = Move.objects.get(game=game)
    assert (forfeit.seq, forfeit.seat, forfeit.by) == (1, 0, Move.By.RULING)
    # She is not told of the matchday; the others are, and nobody of a turn of hers.
    assert not Notification.objects.filter(user=carol, key__startswith="league-matchday").exists()
    assert not Notification.objects.filter(user=carol, key__startswith="your_turn").exists()


def test_under_the_forfeit_rule_the_rounds_later_games_are_dealt_with_the_forfeit(
    league_club: Club, alice: User, bob: User
) -> None:
    season = make_season(league_club, [alice, bob], on_withdrawal=OnWithdrawal.FORFEIT)
    fixture = open_fixture(season, 1, [alice, bob])
    assert fixture.table is not None

    # Nothing runs after the commit here: the forfeit of game 1 ends it and deals game
    # 2, which bob forfeits in the same transaction, so the round is over at once.
    withdraw(season.entries.get(user=bob), bob)

    table = Table.objects.get(pk=fixture.table.pk)
    assert table.status == Table.Status.FINISHED
    assert [game.engine_state().dropped for game in table.games.order_by("number")] == [
        (1,),
        (1,),
    ]


def test_finished_games_stay_as_played(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob], on_withdrawal=OnWithdrawal.FORFEIT)
    fixture = open_fixture(season, 1, [alice, bob])
    first = game_in_play(fixture)
    moves_before = list(Move.objects.filter(game=first).values_list("seq", "action"))

    with announced():
        withdraw(season.entries.get(user=bob), bob)

    # The game in play got one more move, the ruling; nothing before it changed.
    after = list(Move.objects.filter(game=first).order_by("seq").values_list("seq", "action"))
    assert after[: len(moves_before)] == moves_before
    assert after[-1][1] == {"type": "forfeit"}


def test_the_other_players_of_unfinished_fixtures_are_told_once(
    league_club: Club, alice: User, bob: User, carol: User, dave: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob, carol, dave])
    open_fixture(season, 1, [alice, bob])
    scheduled_fixture(season, 2, [alice, carol])
    scheduled_fixture(season, 3, [alice, bob])

    with announced():
        withdraw(season.entries.get(user=alice), alice)

    told = Notification.objects.filter(kind=LeagueNotice.LEAGUE_SEASON)
    assert sorted(told.values_list("user__username", flat=True)) == ["bob", "carol"]
    assert "Alice withdrew from" in told.first().text  # type: ignore[union-attr]
    assert not Notification.objects.filter(user=dave).exists()


def test_an_organiser_withdraws_a_player_with_a_reason_kept_in_the_history(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    entry = season.entries.get(user=bob)

    with announced():
        withdraw(entry, alice, "Moved abroad without a word.")

    event = pghistory.models.Events.objects.filter(
        pgh_obj_model="leagues.Entry", pgh_obj_id=entry.pk, pgh_data__status="withdrawn"
    ).get()
    assert event.pgh_context["reason"] == "Moved abroad without a word."
    assert event.pgh_context["user"] == alice.pk


def test_an_organiser_must_say_why(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    entry = season.entries.get(user=bob)

    with pytest.raises(LeaguesError, match="Say why"):
        withdraw(entry, alice, "   ")

    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_a_player_cannot_withdraw_twice(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = open_fixture(season, 1, [alice, bob])
    entry = season.entries.get(user=bob)
    with announced():
        withdraw(entry, bob)
    told = Notification.objects.count()

    with pytest.raises(LeaguesError, match="withdrawn from the season already") as refusal:
        withdraw(entry, bob)

    assert refusal.value.status == 409
    assert Notification.objects.count() == told
    assert fixture.table is not None
    assert fixture.table.seats.get(number=1).replaced_user == bob


def test_a_finished_season_refuses(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    entry = season.entries.get(user=bob)

    with pytest.raises(LeaguesError, match="season is over"):
        withdraw(entry, bob)

    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_the_migration_has_the_seats_of_running_rounds_forfeit_each_game(
    league_club: Club, alice: User, bob: User, carol: User, dave: User
) -> None:
    season = make_season(
        league_club, [alice, bob, carol, dave], seats=2, on_withdrawal=OnWithdrawal.FORFEIT
    )
    running = open_fixture(season, 1, [alice, bob])
    other = open_fixture(season, 1, [carol, dave])
    # Withdrawn before the seat could say so: only a receiver after each deal forfeited.
    season.entries.filter(user=bob).update(status=Entry.Status.WITHDRAWN)

    withdrawn_seats.forwards(apps, None)

    flagged = Seat.objects.filter(forfeits_each_game=True).values_list("table_id", "number")
    assert list(flagged) == [(running.table_id, 1)]
    assert other.table_id != running.table_id
