"""Notifications: "your turn" and "time is running out", emails by preference, the digest,
no email to a player looking at the game, reading them, and the "your move" list."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail as outbox_module
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import presence, services, tasks
from games.models import Game, Seat
from games.models.table_settings import TableSettings
from games.selectors.notifications import TURN_KINDS
from games.selectors.your_move import next_your_move, your_move_games, your_move_ids
from games.services import SeatPlan
from notifications import tasks as notice_tasks
from notifications.models import Notification
from notifications.selectors import notices as notice_reads
from notifications.services import notices
from tests.factories import UserFactory
from tests.games.clocks import DAY, HOUR, T0, at
from tests.games.conftest import current_game, seat_starts, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db

__all__ = ["at"]  # the fixture


@pytest.fixture
def watching() -> Iterator[list[tuple[int, int]]]:
    """Pages marked open in Redis by a test; forgotten afterwards."""
    pages: list[tuple[int, int]] = []
    yield pages
    for game_id, user_id in pages:
        presence.mark_absent(game_id, user_id, "test-page")


def emails_to(user: User) -> list[Any]:
    return [m for m in outbox_module.outbox if m.to == [user.email]]


def correspondence(at: Any, *players: User, when: datetime = T0, **settings: Any) -> Game:
    with at(when):
        return current_game(start_table(*players, clock="correspondence", **settings))


def mover(game: Game) -> User:
    return user_at(game, game.current_seat or 0)


def turn_notices() -> QuerySet[Notification]:
    """Notifications about turns (the tables' invitations, answered at once, aside)."""
    return Notification.objects.filter(kind__in=TURN_KINDS)


# --- your turn ----------------------------------------------------------------------------


def test_a_correspondence_turn_tells_its_player_in_the_app_and_by_email(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    game = correspondence(at, alice, bob)
    player = mover(game)

    note = turn_notices().get()
    assert (note.user, note.kind, note.subject, note.key) == (
        player,
        "your_turn",
        game,
        f"your_turn:game-{game.pk}:turn-1",
    )
    other = bob if player == alice else alice
    where = f"turn 1 against {other} in game 1 of table {game.table_id}"
    assert note.text == f"Your {where}."
    assert note.link == f"/games/{game.pk}/"
    assert note.deadline == T0 + DAY
    (email,) = mailoutbox
    assert email.to == [player.email]
    assert email.subject == f"Your {where}."
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in email.body
    note.refresh_from_db()
    assert (note.email, note.emailed_at) == ("sent", T0)


def test_each_new_turn_tells_the_next_player_once(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    game = correspondence(at, alice, bob)
    first = mover(game)

    with at(T0 + HOUR):
        services.draw(game.pk, first, 0)
    with at(T0 + HOUR):
        notice_tasks.send_notification_email.delay(
            Notification.objects.get(key__endswith="turn-2").pk
        )

    notes = turn_notices().order_by("key")
    assert [(n.user, n.key[-6:], n.read_at is not None) for n in notes] == [
        (first, "turn-1", True),  # the turn is over: nothing left to do about it
        (user_at(game, 1 - (game.current_seat or 0)), "turn-2", False),
    ]
    assert len(mailoutbox) == 2


@pytest.mark.parametrize(("first", "bot_moves"), [(0, 1), (1, 0)])
def test_live_games_and_bots_are_not_notified(
    alice: User, bob: User, at: Any, first: int, bot_moves: int
) -> None:
    with at(T0), seat_starts(first):
        start_table(alice, bob, turn_seconds=60)
        table = services.create_table(
            alice,
            TableSettings(clock="correspondence"),
            [SeatPlan.bot("easy"), SeatPlan.taken_by(alice)],
        )
    game = current_game(table)

    # Whoever started, the bot's turn (played at once, when it started) told nobody;
    # alice is told of her turn in the correspondence game only.
    assert game.moves.filter(seat=0).count() == bot_moves
    notes = [(n.user_id, n.subject, n.key) for n in turn_notices()]
    assert notes == [(alice.pk, game, f"your_turn:game-{game.pk}:turn-{game.turn_number}")]


# --- time is running out --------------------------------------------------------------


def test_a_quarter_of_the_time_left_brings_a_warning_once(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    game = correspondence(at, alice, bob, turn_seconds=4 * 86400)
    player = mover(game)
    mailoutbox.clear()

    with at(T0 + 2 * DAY):
        tasks.remind_turn.delay(game.pk, 1)  # early: nothing yet
    assert not Notification.objects.filter(kind="time_running_out").exists()
    with at(T0 + 3 * DAY + HOUR):
        tasks.sweep_turn_reminders.delay()
        tasks.remind_turn.delay(game.pk, 1)

    note = Notification.objects.get(kind="time_running_out")
    assert (note.user, note.key) == (player, f"time_running_out:game-{game.pk}:turn-1")
    assert note.deadline == T0 + 4 * DAY
    (email,) = mailoutbox
    assert email.subject.startswith("Time is running out")
    assert "A quarter of your time is left" in email.body
    game.refresh_from_db()
    assert game.turn_reminder_at is None


def test_no_warning_for_a_turn_that_is_over(alice: User, bob: User, at: Any) -> None:
    game = correspondence(at, alice, bob, turn_seconds=86400)
    with at(T0 + HOUR):
        services.draw(game.pk, mover(game), 0)

    with at(T0 + 20 * HOUR):
        tasks.remind_turn.delay(game.pk, 1)

    assert not Notification.objects.filter(kind="time_running_out").exists()


# --- preferences and the digest -------------------------------------------------------


def test_preferences_default_to_at_once_and_can_be_changed(alice: User) -> None:
    club_and_league_defaults = {
        "club_invitation": "immediate",
        "club_news": "digest",
        "league_matchday": "immediate",
        "league_season": "digest",
        "moderation_case": "immediate",
        "moderation_outcome": "immediate",
        "moderation_queue": "immediate",
    }
    assert notice_reads.preferences(alice) == {
        "your_turn": "immediate",
        "time_running_out": "immediate",
        "table_invitation": "immediate",
        "drawn_for_you": "never",
        **club_and_league_defaults,
    }

    notices.set_preference(alice, "your_turn", "digest")
    notices.set_preference(alice, "time_running_out", "never")

    assert notice_reads.preferences(alice) == {
        "your_turn": "digest",
        "time_running_out": "never",
        "table_invitation": "immediate",
        "drawn_for_you": "never",
        **club_and_league_defaults,
    }
    with pytest.raises(ValueError):
        notices.set_preference(alice, "your_turn", "hourly")


def test_a_digest_member_gets_one_email_a_day_with_what_still_waits(
    alice: User, at: Any, mailoutbox: list[Any]
) -> None:
    notices.set_preference(alice, "your_turn", "digest")
    over, *waiting = games_awaiting(alice, at, 3)
    assert emails_to(alice) == []
    with at(T0 + 3 * HOUR):
        services.draw(over.pk, alice, over.version)  # no longer news by the digest

    # The next morning, after the member's digest hour (08:00, theirs: UTC).
    with at(T0 + 24 * HOUR):
        notice_tasks.send_daily_digests.delay()

    (digest,) = emails_to(alice)
    assert digest.subject == "Rummikub Club: 2 games waiting for you"
    assert all(f"/games/{game.pk}/" in digest.body for game in waiting)
    assert f"/games/{over.pk}/" not in digest.body
    assert not Notification.objects.filter(email="digest").exists()
    with at(T0 + 48 * HOUR):
        notice_tasks.send_daily_digests.delay()
    assert len(emails_to(alice)) == 1  # nothing is sent twice


def test_never_means_no_email_but_the_app_still_shows_it(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    for member in (alice, bob):
        notices.set_preference(member, "your_turn", "never")

    game = correspondence(at, alice, bob)

    assert turn_notices().get().email == "off"
    assert notice_reads.unread_count(mover(game)) == 1
    assert not mailoutbox


# --- not while they are looking -------------------------------------------------------


def test_no_email_to_a_player_who_is_looking_at_the_game(
    alice: User, bob: User, at: Any, watching: list[Any], mailoutbox: list[Any]
) -> None:
    game = correspondence(at, alice, bob)
    mailoutbox.clear()
    watcher = user_at(game, 1 - (game.current_seat or 0))
    presence.mark_present(game.pk, watcher.pk, "test-page")
    watching.append((game.pk, watcher.pk))
    assert presence.is_watching(game.pk, watcher.pk)

    with at(T0 + HOUR):
        services.draw(game.pk, mover(game), 0)

    note = Notification.objects.get(key__endswith="turn-2")
    assert (note.user, note.email) == (watcher, "skipped")
    assert not mailoutbox
    presence.mark_absent(game.pk, watcher.pk, "test-page")
    assert not presence.is_watching(game.pk, watcher.pk)


def test_a_page_left_open_by_a_dead_server_stops_counting(
    alice: User, game: Game, watching: list[Any], settings: Any
) -> None:
    settings.GAMES_PRESENCE_SECONDS = 5
    presence.mark_present(game.pk, alice.pk, "test-page")
    watching.append((game.pk, alice.pk))

    with time_machine.travel(datetime.now(UTC) + timedelta(seconds=6)):
        assert not presence.is_watching(game.pk, alice.pk)


def test_an_email_already_sent_or_out_of_date_is_not_sent_again(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    game = correspondence(at, alice, bob)
    note = turn_notices().get()

    with at(T0 + HOUR):
        notice_tasks.send_notification_email.delay(note.pk)
    assert len(mailoutbox) == 1
    note.refresh_from_db()
    note.email = "pending"
    note.save()
    with at(T0 + HOUR):
        services.draw(game.pk, mover(game), 0)
        notice_tasks.send_notification_email.delay(note.pk)

    assert len(mailoutbox) == 1 + 1  # the next player's "your turn" only
    note.refresh_from_db()
    assert note.email == "skipped"


# --- reading them -----------------------------------------------------------------------


def test_a_member_reads_their_notifications_and_only_theirs(
    alice: User, bob: User, carol: User, at: Any
) -> None:
    games = [correspondence(at, alice, other) for other in (bob, carol)]
    for game in games:
        if mover(game) != alice:
            with at(T0 + HOUR):
                services.draw(game.pk, mover(game), 0)
    mine = notice_reads.notification_list(alice)
    assert [(n.kind, n.read) for n in mine] == [("your_turn", False)] * 2
    assert {n.url for n in mine} == {reverse("games:game", args=[g.pk]) for g in games}
    others = Notification.objects.exclude(user=alice).filter(read_at=None).count()

    assert notices.mark_read(alice, [mine[0].id]) == 1
    assert notice_reads.unread_count(alice) == 1
    assert notices.mark_read(alice) == 1
    assert notice_reads.unread_count(alice) == 0
    assert Notification.objects.exclude(user=alice).filter(read_at=None).count() == others


# --- your move --------------------------------------------------------------------------


def games_awaiting(alice: User, at: Any, count: int) -> list[Game]:
    """``count`` correspondence games where it is alice's turn, started an hour apart."""
    games = []
    for index in range(count):
        other = UserFactory()
        game = correspondence(at, alice, other, when=T0 + index * HOUR)
        if mover(game) != alice:
            with at(T0 + index * HOUR):
                services.draw(game.pk, other, 0)
            game.refresh_from_db()
        games.append(game)
    return games


def test_your_move_lists_my_games_soonest_deadline_first(alice: User, at: Any) -> None:
    late, soon, middle = games_awaiting(alice, at, 3)
    Game.objects.filter(pk=late.pk).update(turn_deadline=T0 + 5 * DAY)
    Game.objects.filter(pk=middle.pk).update(turn_deadline=T0 + 2 * DAY)

    listed = your_move_games(alice)

    assert [g.id for g in listed] == [soon.pk, middle.pk, late.pk]
    assert listed[0].is_correspondence and listed[0].opponents == (str(mover_other(soon, alice)),)
    assert len(your_move_ids(alice)) == 3
    assert next_your_move(alice) == soon.pk
    assert next_your_move(alice, soon.pk) == middle.pk
    assert next_your_move(alice, late.pk) == soon.pk  # round to the first again


def mover_other(game: Game, user: User) -> User:
    seat = Seat.objects.exclude(user=user).get(table_id=game.table_id)
    assert seat.user is not None
    return seat.user


def test_no_next_game_when_only_this_one_waits(alice: User, at: Any) -> None:
    (only,) = games_awaiting(alice, at, 1)

    assert next_your_move(alice, only.pk) is None
    assert next_your_move(alice) == only.pk


def test_every_page_header_has_the_counts(alice: User, at: Any, client: Client) -> None:
    games_awaiting(alice, at, 2)
    client.force_login(alice)

    response = client.get(reverse("home"))

    counts = response.context["header_counts"]
    assert (counts.your_move, counts.unread) == (2, 2)


def test_a_visitor_has_no_counts(client: Client) -> None:
    response = client.get(reverse("home"))

    assert response.context["header_counts"] is None


def test_a_notification_of_an_unknown_kind_is_refused(alice: User) -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        notices.create(alice.pk, "carrier_pigeon", "Coo", "/")

    assert not Notification.objects.exists()
