"""A suspension and the member's running games: each seat in its scope is handled by the
table's rule (a season's ``on_suspension``; a bot at a table of no league), the others
are told, and undoing the suspension gives a bot's seat back while the round runs."""

from __future__ import annotations

import pytest
from django.test import TestCase

from accounts.models import User
from games import services
from games.models import Game, Move, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from leagues.models import Club, Membership, OnSuspension, Role, Season
from leagues.services.matchdays import open_matchday
from moderation.models import BenchedSeat, Case, Ruling
from moderation.selectors.effects import in_words
from notifications.models import Notification
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.leagues.conftest import RunningSeason, league_club, make_season, scheduled_fixture
from tests.moderation.chains import ruled
from tests.moderation.conftest import open_case, suspend
from tests.moderation.test_rulings import claimed

pytestmark = pytest.mark.django_db

__all__ = ["league_club"]


def seat_of(table_id: int, number: int) -> Seat:
    return Seat.objects.get(table_id=table_id, number=number)


def told(user: User) -> list[str]:
    return list(Notification.objects.filter(user=user).values_list("text", flat=True))


def suspend_by_ruling(case: Case, by: User, member: User, scope: str) -> Ruling:
    return ruled(
        case,
        by,
        Ruling.Kind.SUSPEND,
        target=member,
        details={"scope": scope, "days": 3},
        note="Insults in the chat.",
    )


def test_a_site_suspension_hands_a_casual_seat_to_a_bot_and_tells_the_opponent(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(casual_game, alice, accused=bob), site_moderator)

    ruling = suspend_by_ruling(case, site_moderator, bob, "site")

    seat = seat_of(casual_game.table_id, 1)
    assert (seat.kind, seat.user_id, seat.replaced_user_id) == (Seat.Kind.BOT, None, bob.pk)
    (row,) = BenchedSeat.objects.filter(pk__in=ruling.effects["benched"])
    assert (row.how, row.game_id, row.seat) == (BenchedSeat.How.BOT, casual_game.pk, 1)
    assert "Bob may not play for now: a bot plays their seat for the rest of the round." in told(
        alice
    )
    assert f"A bot took Bob's seat at table {casual_game.table_id}" in " ".join(
        in_words(ruling.effects)
    )
    # The opponent learns what happens to the seat, never why.
    assert not any("suspend" in text.lower() for text in told(alice) if "Bob may" in text)


def test_undoing_the_suspension_gives_the_seat_back_and_the_bots_moves_stand(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(casual_game, alice, accused=bob), site_moderator)
    suspension = suspend_by_ruling(case, site_moderator, bob, "site")
    # Alice draws; the bot answers at once (its task runs eagerly after the commit).
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.draw(casual_game.pk, alice, current_game(casual_game.table).version)
    bot_moves = Move.objects.filter(game=casual_game, by=Move.By.BOT).count()
    assert bot_moves >= 1

    dismiss = ruled(
        case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=suspension.pk, note="Misread."
    )

    seat = seat_of(casual_game.table_id, 1)
    assert (seat.kind, seat.user_id, seat.replaced_user_id) == (Seat.Kind.PLAYER, bob.pk, None)
    assert Move.objects.filter(game=casual_game, by=Move.By.BOT).count() == bot_moves
    reseated = dismiss.effects["undoing"]["reseated"]
    assert BenchedSeat.objects.get(pk__in=reseated).returned_at is not None
    assert "Bob has their seat back: they play on from here." in told(alice)
    words = " ".join(in_words(dismiss.effects))
    assert f"the seat at table {casual_game.table_id} is Bob's again" in words
    # Bob plays on: it is his turn again after alice's next draw.
    casual_game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.draw(casual_game.pk, alice, casual_game.version)
    casual_game.refresh_from_db()
    assert user_at(casual_game, casual_game.current_seat or 0) == bob


def test_a_seat_the_round_left_behind_is_not_given_back(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(casual_game, alice, accused=bob), site_moderator)
    suspension = suspend_by_ruling(case, site_moderator, bob, "site")
    Table.objects.filter(pk=casual_game.table_id).update(status=Table.Status.FINISHED)

    dismiss = ruled(case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=suspension.pk)

    assert "reseated" not in dismiss.effects["undoing"]
    assert seat_of(casual_game.table_id, 1).kind == Seat.Kind.BOT


def test_a_club_suspension_under_the_forfeit_rule_forfeits_the_fixture_game_only(
    league_game: Game,
    running: RunningSeason,
    bob: User,
    dave: User,
    carol: User,
    club_moderator: User,
) -> None:
    Season.objects.filter(pk=running.season.pk).update(on_suspension=OnSuspension.FORFEIT)
    elsewhere = current_game(start_table(dave, carol, first=0))
    case = claimed(
        open_case(league_game, bob, accused=dave, fixture=running.fixtures[0]), club_moderator
    )
    in_play = current_game(league_game.table)
    assert in_play.number == 2

    ruling = suspend_by_ruling(case, club_moderator, dave, "club")

    in_play.refresh_from_db()
    assert 1 in in_play.engine_state().dropped or in_play.is_over
    (row,) = BenchedSeat.objects.filter(pk__in=ruling.effects["benched"])
    assert (row.how, row.game_id) == (BenchedSeat.How.FORFEIT, in_play.pk)
    assert seat_of(league_game.table_id, 1).kind == Seat.Kind.PLAYER  # still dave's
    assert "Dave may not play for now: they forfeit this game" in " ".join(told(bob))
    # A table of no club is out of a club suspension's reach.
    assert seat_of(elsewhere.table_id, 0).kind == Seat.Kind.PLAYER
    assert not elsewhere.engine_state().dropped

    dismiss = ruled(case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=ruling.pk)
    # A forfeited game stays forfeited.
    assert "reseated" not in dismiss.effects["undoing"]
    in_play.refresh_from_db()
    assert 1 in in_play.engine_state().dropped or in_play.is_over


def test_a_matchday_opening_hands_a_suspended_players_fixture_seat_to_a_bot(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = scheduled_fixture(season, 1, [alice, bob])
    other = current_game(start_table(carol, alice, first=0))
    suspend(bob, other, carol, club=league_club)

    with TestCase.captureOnCommitCallbacks(execute=True):
        open_matchday(fixture.matchday)

    fixture.refresh_from_db()
    assert fixture.table_id is not None
    seat = seat_of(fixture.table_id, 1)
    assert (seat.kind, seat.replaced_user_id) == (Seat.Kind.BOT, bob.pk)
    row = BenchedSeat.objects.get(table_id=fixture.table_id)
    assert row.how == BenchedSeat.How.BOT
    assert "Bob may not play for now: a bot plays their seat" in " ".join(told(alice))


def test_under_the_forfeit_rule_each_game_dealt_while_suspended_is_forfeited(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    season = make_season(league_club, [alice, bob])
    Season.objects.filter(pk=season.pk).update(on_suspension=OnSuspension.FORFEIT)
    fixture = scheduled_fixture(season, 1, [alice, bob])
    suspend(bob, current_game(start_table(carol, alice, first=0)), carol)  # the whole site

    with TestCase.captureOnCommitCallbacks(execute=True):
        open_matchday(fixture.matchday)

    fixture.refresh_from_db()
    assert fixture.table is not None
    first = fixture.table.games.get(number=1)
    assert first.is_over and set(first.engine_state().dropped) == {1}
    rows = BenchedSeat.objects.filter(table_id=fixture.table_id, how=BenchedSeat.How.FORFEIT)
    assert first.pk in set(rows.values_list("game_id", flat=True))


def test_a_member_not_suspended_keeps_every_seat_when_a_game_is_dealt(
    league_club: Club, alice: User, bob: User
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = scheduled_fixture(season, 1, [alice, bob])

    with TestCase.captureOnCommitCallbacks(execute=True):
        open_matchday(fixture.matchday)

    fixture.refresh_from_db()
    assert fixture.table_id is not None
    assert not BenchedSeat.objects.exists()
    assert seat_of(fixture.table_id, 1).kind == Seat.Kind.PLAYER


def test_a_suspension_takes_the_seat_at_a_table_not_yet_dealt_and_tells_its_creator(
    casual_game: Game, alice: User, bob: User, carol: User, site_moderator: User
) -> None:
    # Issue 25: bob sat at carol's waiting table and kept the seat until it was dealt.
    waiting = services.create_table(
        carol,
        TableSettings(),
        [SeatPlan.taken_by(carol), SeatPlan.open(), SeatPlan.open()],
    )
    services.join_table(waiting.pk, bob)
    case = claimed(open_case(casual_game, alice, accused=bob), site_moderator)

    ruling = suspend_by_ruling(case, site_moderator, bob, "site")

    seat = seat_of(waiting.pk, 1)
    assert (seat.kind, seat.user_id) == (Seat.Kind.OPEN, None)
    assert ruling.effects["unseated"] == [waiting.pk]
    assert f"Their seat at table {waiting.pk}, still waiting for players, is open again." in (
        in_words(ruling.effects)
    )
    assert "Bob may not play for now: their seat at your table is open again." in told(carol)
    services.join_table(waiting.pk, alice)  # the seat is anyone's again
    assert Table.objects.get(pk=waiting.pk).status == Table.Status.OPEN


def test_a_club_suspension_leaves_a_seat_at_a_table_of_no_club(
    casual_game: Game, alice: User, bob: User, carol: User, running: RunningSeason
) -> None:
    waiting = services.create_table(
        carol, TableSettings(), [SeatPlan.taken_by(carol), SeatPlan.open(), SeatPlan.open()]
    )
    services.join_table(waiting.pk, bob)
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=running.club, user=mo, role=Role.MODERATOR)
    case = claimed(open_case(casual_game, alice, accused=bob, fixture=running.fixtures[0]), mo)

    ruling = suspend_by_ruling(case, mo, bob, "club")

    assert seat_of(waiting.pk, 1).user_id == bob.pk
    assert "unseated" not in ruling.effects
