"""Quiet hours: no push and no email in them (they may run past midnight, on the
member's clocks); what they held is sent when they end, merged: one push with a line
per game (its turns' "your move" once), one email, listing only what is still current
(a notice read meanwhile, or a turn that passed, is dropped). The job that sends it may
run twice or late."""

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail as outbox_module

from accounts.models import User
from games import services
from games.models import Game
from games.selectors.notifications import GameNotice
from notifications import tasks
from notifications.models import Delivery, Notification
from notifications.selectors import hours
from notifications.services import push
from notifications.services.notices import mark_read, set_preference
from tests.factories import ClubFactory
from tests.games.clocks import at
from tests.games.conftest import current_game, start_table
from tests.notifications.push_service import PushService
from tests.notifications.test_push import device_of, push_site, service

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

__all__ = ["at", "push_site", "service"]  # fixtures

EVENING, MORNING = time(22), time(7)


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def quiet(user: User, zone: str = "UTC", start: time = EVENING, end: time = MORNING) -> User:
    user.time_zone, user.quiet_from, user.quiet_until = zone, start, end
    user.save(update_fields=["time_zone", "quiet_from", "quiet_until"])
    return user


def release_at(moment: datetime) -> None:
    with time_machine.travel(moment, tick=False):
        tasks.release_held.delay()


# --- when ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moment", "is_quiet"),
    [
        (utc(2026, 12, 7, 20, 59), False),  # 21:59 CET
        (utc(2026, 12, 7, 21, 0), True),  # 22:00 CET
        (utc(2026, 12, 7, 23, 30), True),  # past midnight
        (utc(2026, 12, 8, 5, 59), True),  # 06:59
        (utc(2026, 12, 8, 6, 0), False),  # 07:00 CET
        # On the spring day: 06:59 CEST is 04:59 UTC, 07:00 CEST is 05:00.
        (utc(2026, 3, 29, 4, 59), True),
        (utc(2026, 3, 29, 5, 0), False),
    ],
)
def test_quiet_hours_run_past_midnight_on_the_members_clocks(
    alice: User, moment: datetime, is_quiet: bool
) -> None:
    quiet(alice, "Europe/Berlin")

    assert hours.is_quiet(alice, moment) is is_quiet
    assert push.may_push_now(alice, moment) is not is_quiet


def test_quiet_hours_end_at_the_members_morning(alice: User) -> None:
    quiet(alice, "America/New_York")

    # 23:00 EST: they end at 07:00 EST, 12:00 UTC.
    assert hours.quiet_ends(alice, utc(2026, 12, 8, 4)) == utc(2026, 12, 8, 12)
    assert hours.quiet_ends(alice, utc(2026, 12, 8, 12)) is None


def test_a_member_without_quiet_hours_is_always_told(alice: User) -> None:
    assert not hours.is_quiet(alice, utc(2026, 12, 8, 3))
    assert hours.quiet_ends(alice, utc(2026, 12, 8, 3)) is None


# --- email -----------------------------------------------------------------------------


def notice(user: User, text: str, **fields: Any) -> Notification:
    fields.setdefault("subject", ClubFactory())
    return Notification.objects.create(
        user=user, kind="club_news", text=text, link="/clubs/", **fields
    )


def emails_held_at(moment: datetime, *notices: Notification) -> None:
    """The notices' emails, due at ``moment``."""
    with time_machine.travel(moment, tick=False):
        for note in notices:
            Notification.objects.filter(pk=note.pk).update(email="pending")
            tasks.send_notification_email.delay(note.pk)


def test_emails_held_in_quiet_hours_come_in_one_email_when_they_end(alice: User, bob: User) -> None:
    quiet(alice, "Europe/Berlin")
    first, second, read = (notice(alice, f"News {n}.") for n in (1, 2, 3))
    bobs = notice(bob, "News for Bob.")

    emails_held_at(utc(2026, 12, 7, 22, 30), first, second, read, bobs)  # 23:30 CET

    assert [m.to for m in outbox_module.outbox] == [[bob.email]]  # Bob has no quiet hours
    assert set(Notification.objects.filter(user=alice).values_list("email", flat=True)) == {"held"}
    # Read on the site in the night: it is not mailed in the morning.
    with time_machine.travel(utc(2026, 12, 8, 1), tick=False):
        mark_read(alice, [read.pk])

    release_at(utc(2026, 12, 8, 5, 59))  # 06:59 CET: still quiet
    assert len(outbox_module.outbox) == 1
    release_at(utc(2026, 12, 8, 6, 0))  # 07:00 CET
    release_at(utc(2026, 12, 8, 6, 1))  # the job again, and late
    tasks.send_held_email.delay(alice.pk)  # its task again

    _to_bob, mail = outbox_module.outbox
    assert mail.to == [alice.email]
    assert mail.subject == "Rummikub Club: 2 other notices from your quiet hours"
    assert "News 1." in mail.body and "News 2." in mail.body
    assert "News 3." not in mail.body
    states = dict(Notification.objects.filter(user=alice).values_list("text", "email"))
    assert states == {"News 1.": "sent", "News 2.": "sent", "News 3.": "skipped"}


def test_an_email_outside_quiet_hours_is_sent_at_once(alice: User) -> None:
    quiet(alice, "Europe/Berlin")
    note = notice(alice, "News.")

    emails_held_at(utc(2026, 12, 7, 12), note)

    note.refresh_from_db()
    assert note.email == "sent"
    assert len(outbox_module.outbox) == 1


def test_quiet_hours_given_up_let_what_they_held_go_at_the_next_run(alice: User) -> None:
    quiet(alice)
    note = notice(alice, "News.")
    emails_held_at(utc(2026, 12, 7, 23), note)

    alice.quiet_from = alice.quiet_until = None
    alice.save(update_fields=["quiet_from", "quiet_until"])
    release_at(utc(2026, 12, 7, 23, 1))

    note.refresh_from_db()
    assert note.email == "sent"


# --- push ------------------------------------------------------------------------------


@pytest.fixture
def phones(
    alice: User, bob: User, carol: User, service: PushService, push_site: str
) -> dict[int, Any]:
    """Alice's, Bob's and Carol's phones, which take their turns; all three quiet from
    22:00 until 07:00 UTC."""
    for user in (alice, bob, carol):
        set_preference(user, GameNotice.YOUR_TURN, Delivery.PUSH)
        quiet(user)
    return {user.pk: device_of(user, service, user.username) for user in (alice, bob, carol)}


def your_turns(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=GameNotice.YOUR_TURN).reverse())


def draw(at: Any, game: Game, user: User, moment: datetime) -> None:
    game.refresh_from_db()
    with at(moment):
        services.draw(game.pk, user, game.version)


def test_pushes_held_in_quiet_hours_come_in_one_push_a_line_per_game(
    alice: User, bob: User, carol: User, at: Any, service: PushService, phones: dict[int, Any]
) -> None:
    night = utc(2025, 6, 2, 23)
    with at(night):
        first = current_game(start_table(alice, bob, first=0, clock="correspondence"))
    # Alice plays in the night; Bob too: Alice's turn in that game comes again.
    draw(at, first, alice, night + timedelta(minutes=30))
    draw(at, first, bob, night + timedelta(hours=1))
    with at(night + timedelta(hours=2)):
        second = current_game(start_table(alice, carol, first=0, clock="correspondence"))
        third = current_game(start_table(carol, bob, first=0, clock="correspondence"))

    assert service.received == []
    assert {n.push for n in your_turns(alice)} == {"held"}

    release_at(utc(2025, 6, 3, 6, 59))
    assert service.received == []
    release_at(utc(2025, 6, 3, 7))
    release_at(utc(2025, 6, 3, 7, 1))
    tasks.send_held_push.delay(alice.pk)

    # Alice: one push, one line per game, a tap opens her notices.
    (received,) = service.to(phones[alice.pk])
    shown = phones[alice.pk].read(received)
    assert shown["title"] == "2 notices from your quiet hours"
    assert shown["url"] == "/games/notifications/"
    assert received.headers["topic"] == push.QUIET_HOURS_TOPIC
    old_turn, new_turn, other_game = your_turns(alice)
    assert shown["body"].split("\n") == [
        f"Your turn: {new_turn.text}",
        f"Your turn: {other_game.text}",
    ]
    assert (old_turn.push, new_turn.push, other_game.push) == ("skipped", "sent", "sent")
    assert new_turn.subject == first and other_game.subject == second
    # Bob's turn passed in the night; Carol's is current: hers alone, as it would be.
    assert service.to(phones[bob.pk]) == []
    (to_carol,) = service.to(phones[carol.pk])
    assert phones[carol.pk].read(to_carol)["url"] == f"/games/{third.pk}/"
    assert to_carol.headers["topic"] == f"game-{third.pk}"
    assert outbox_module.outbox == []


def test_a_push_read_in_quiet_hours_is_not_sent(
    alice: User, bob: User, at: Any, service: PushService, phones: dict[int, Any]
) -> None:
    with at(utc(2025, 6, 2, 23)):
        start_table(alice, bob, first=0, clock="correspondence")
    (note,) = your_turns(alice)
    assert note.push == "held"
    with at(utc(2025, 6, 3, 1)):
        mark_read(alice, [note.pk])

    release_at(utc(2025, 6, 3, 7))

    assert service.received == []
    note.refresh_from_db()
    assert note.push == "skipped"


def test_a_held_push_no_device_takes_comes_in_the_held_email(
    alice: User, bob: User, at: Any, service: PushService, phones: dict[int, Any]
) -> None:
    service.answers[phones[alice.pk].path] = 410
    with at(utc(2025, 6, 2, 23)):
        game = current_game(start_table(alice, bob, first=0, clock="correspondence"))

    with at(utc(2025, 6, 3, 7)):  # the email is queued after the push's commit
        tasks.release_held.delay()

    (note,) = your_turns(alice)
    assert (note.push, note.email) == ("emailed", "sent")
    (mail,) = outbox_module.outbox
    assert mail.to == [alice.email]
    assert f"/games/{game.pk}/" in mail.body


def test_the_held_push_of_a_member_is_one_whatever_races(
    alice: User, bob: User, at: Any, service: PushService, phones: dict[int, Any]
) -> None:
    with at(utc(2025, 6, 2, 23)):
        start_table(alice, bob, first=0, clock="correspondence")

    with time_machine.travel(utc(2025, 6, 3, 7), tick=False):
        assert push.push_held(alice.pk)[0] == "sent"
        assert push.push_held(alice.pk) == ("nothing held", [])
        # A notice's own task, delivered late, finds it pushed.
        (note,) = your_turns(alice)
        assert push.send_notification_push(note.pk) == "done already"

    assert len(service.to(phones[alice.pk])) == 1


def test_a_member_in_another_zone_is_quiet_on_their_own_clocks(
    alice: User, bob: User, at: Any, service: PushService, phones: dict[int, Any]
) -> None:
    quiet(alice, "Asia/Tokyo")  # 22:00-07:00 JST is 13:00-22:00 UTC

    with at(utc(2025, 6, 2, 23)):  # 08:00 JST
        start_table(alice, bob, first=0, clock="correspondence")

    assert len(service.to(phones[alice.pk])) == 1
