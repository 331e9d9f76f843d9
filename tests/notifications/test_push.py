"""Web Push, end to end through a push service in the test's process: a member's "your
turn" reaches their device encrypted for it (the test decrypts it with the device's
keys, as the browser would) and signed with the site's VAPID key; one push per game and
turn however often its task runs; none while the game's page is open; a device the push
service says is gone (404, 410) is forgotten; a push no device takes is emailed."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail as outbox_module
from django.db import connection, transaction

from accounts.models import User
from config.celery_app import app as celery_app
from games import presence, services
from games.models import Game
from games.selectors.notifications import GameNotice
from games.services.notifications import turn_started
from notifications import tasks, vapid
from notifications.models import Delivery, Notification, PushSubscription
from notifications.services import push
from notifications.services.notices import set_preference
from tests.games.clocks import T0, at
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.notifications.push_service import Device, PushService, push_service, vapid_claims

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "push_site")]

__all__ = ["at"]  # the fixture


@pytest.fixture
def push_site(settings: Any) -> str:
    """A site that pushes, to the push service of the test on 127.0.0.1 (plain http)."""
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:admin@rummikub.example"
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    settings.WEBPUSH_ENDPOINT_HTTPS = False
    return str(settings.WEBPUSH_VAPID_PRIVATE_KEY)


@pytest.fixture
def service() -> Iterator[PushService]:
    with push_service() as running:
        yield running


@pytest.fixture
def watching() -> Iterator[list[tuple[int, int]]]:
    """Pages marked open in Redis by a test; forgotten afterwards."""
    pages: list[tuple[int, int]] = []
    yield pages
    for game_id, user_id in pages:
        presence.mark_absent(game_id, user_id, "test-page")


def device_of(user: User, service: PushService, name: str) -> Device:
    """A device of ``user`` subscribed at ``service``."""
    device = Device(service, name)
    push.subscribe(user, push.checked(device.endpoint, device.p256dh, device.auth_secret))
    return device


def wants_turns_pushed(*users: User) -> None:
    for user in users:
        set_preference(user, GameNotice.YOUR_TURN, Delivery.PUSH)


def correspondence(at: Any, *players: User) -> Game:
    with at(T0):
        return current_game(start_table(*players, clock="correspondence"))


def mover(game: Game) -> User:
    return user_at(game, game.current_seat or 0)


def your_turn(user: User) -> Notification:
    return Notification.objects.get(user=user, kind=GameNotice.YOUR_TURN)


def test_a_turn_reaches_the_players_device_encrypted_for_it_and_signed_by_the_site(
    alice: User, bob: User, at: Any, service: PushService, push_site: str
) -> None:
    wants_turns_pushed(alice, bob)
    phones = {alice.pk: device_of(alice, service, "alice"), bob.pk: device_of(bob, service, "bob")}

    game = correspondence(at, alice, bob)

    player = mover(game)
    phone = phones[player.pk]
    (received,) = service.received
    assert received.path == phone.path
    note = your_turn(player)
    assert phone.read(received) == {
        "title": "Your turn",
        "body": note.text,
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
    }
    # Pushes of one game replace each other at the push service, kept for the day's turn.
    assert received.headers["topic"] == f"game-{game.pk}"
    assert 0 < int(received.headers["ttl"]) <= timedelta(days=1).total_seconds()
    claims = vapid_claims(received, vapid.public_key_of(push_site))
    assert claims["aud"] == service.url
    assert claims["sub"] == "mailto:admin@rummikub.example"
    note.refresh_from_db()
    assert (note.push, note.pushed_at, note.email) == ("sent", T0, "off")
    assert PushSubscription.objects.get(endpoint=phone.endpoint).last_success_at == T0
    assert outbox_module.outbox == []


def test_a_turn_is_pushed_once_however_often_it_is_told(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)
    device_of(alice, service, "alice")
    device_of(bob, service, "bob")
    game = correspondence(at, alice, bob)
    player = mover(game)
    note = your_turn(player)

    # The turn started again (a sweep and a task), and its task delivered twice more.
    with at(T0 + timedelta(minutes=1)):
        assert turn_started(game, player.pk) is None
        tasks.send_notification_push.delay(note.pk)
        tasks.send_notification_push.delay(note.pk)

    assert len(service.received) == 1


def test_each_new_turn_of_a_game_is_one_push_under_the_games_topic(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)
    phones = {alice.pk: device_of(alice, service, "alice"), bob.pk: device_of(bob, service, "bob")}
    game = correspondence(at, alice, bob)
    first, second = mover(game), (bob if mover(game) == alice else alice)

    with at(T0 + timedelta(hours=1)):
        services.draw(game.pk, first, game.version)
    game.refresh_from_db()
    with at(T0 + timedelta(hours=2)):
        services.draw(game.pk, second, game.version)

    to_first = service.to(phones[first.pk])
    assert [phones[first.pk].read(r)["body"] for r in to_first] == [
        n.text for n in Notification.objects.filter(user=first, kind="your_turn").reverse()
    ]
    assert len(to_first) == 2
    assert len(service.to(phones[second.pk])) == 1
    assert {r.headers["topic"] for r in service.received} == {f"game-{game.pk}"}


def test_no_push_while_the_game_is_open_on_any_of_the_players_devices(
    alice: User, bob: User, at: Any, service: PushService, watching: list[tuple[int, int]]
) -> None:
    wants_turns_pushed(alice, bob)
    phones = {alice.pk: device_of(alice, service, "alice"), bob.pk: device_of(bob, service, "bob")}
    device_of(alice, service, "alice-laptop")
    device_of(bob, service, "bob-laptop")
    game = correspondence(at, alice, bob)
    first = mover(game)
    waiting = bob if first == alice else alice
    service.received.clear()
    # The waiting player has the game open on one device (the game socket's presence).
    presence.mark_present(game.pk, waiting.pk, "test-page")
    watching.append((game.pk, waiting.pk))

    with at(T0 + timedelta(hours=1)):
        services.draw(game.pk, first, game.version)

    assert service.received == []
    assert your_turn(waiting).push == "skipped"
    assert outbox_module.outbox == []
    assert phones  # both devices of each kept
    assert PushSubscription.objects.count() == 4


@pytest.mark.parametrize("gone", [404, 410])
def test_a_device_the_push_service_says_is_gone_is_forgotten(
    gone: int, alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)
    for user in (alice, bob):
        old = device_of(user, service, f"{user.username}-old")
        service.answers[old.path] = gone
        device_of(user, service, f"{user.username}-new")

    game = correspondence(at, alice, bob)

    player = mover(game)
    assert len(service.received) == 2  # the old device, then the new
    kept = PushSubscription.objects.filter(user=player).values_list("endpoint", flat=True)
    assert list(kept) == [f"{service.url}/push/{player.username}-new"]
    assert your_turn(player).push == "sent"


def test_a_push_no_device_takes_is_emailed_instead(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)
    for user in (alice, bob):
        service.answers[device_of(user, service, user.username).path] = 410

    game = correspondence(at, alice, bob)

    player = mover(game)
    assert not PushSubscription.objects.filter(user=player).exists()
    note = your_turn(player)
    assert (note.push, note.email) == ("emailed", "sent")
    (mail,) = outbox_module.outbox
    assert mail.to == [player.email]


def test_a_member_who_wants_pushes_but_has_no_device_is_emailed(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)

    game = correspondence(at, alice, bob)

    note = your_turn(mover(game))
    assert (note.push, note.email) == ("off", "sent")
    assert service.received == []


def test_a_push_service_that_fails_keeps_the_device_and_is_tried_again(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    wants_turns_pushed(alice, bob)
    phones = {alice.pk: device_of(alice, service, "alice"), bob.pk: device_of(bob, service, "bob")}
    for phone in phones.values():
        service.answers[phone.path] = 503
    celery_app.conf.task_eager_propagates = False
    try:
        game = correspondence(at, alice, bob)
    finally:
        celery_app.conf.task_eager_propagates = True

    player = mover(game)
    # The first try and every retry reached the service; then the member was emailed.
    assert len(service.received) == tasks.PUSH_RETRIES + 1
    assert PushSubscription.objects.count() == 2
    note = your_turn(player)
    assert (note.push, note.email) == ("emailed", "sent")


def test_a_notice_read_before_its_push_is_not_pushed(
    alice: User, bob: User, at: Any, service: PushService
) -> None:
    device_of(alice, service, "alice")
    note = Notification.objects.create(
        user=alice, kind="table_invitation", text="Come and play.", link="/games/", push="pending"
    )
    note.read_at = datetime(2026, 12, 7, tzinfo=UTC)
    note.save()

    assert push.send_notification_push(note.pk) == "read"
    assert service.received == []


def test_may_push_now_is_the_one_hook_for_quiet_hours(alice: User) -> None:
    assert push.may_push_now(alice, T0) is True


@pytest.mark.django_db(transaction=True)
def test_no_lock_on_the_notice_is_held_while_a_push_service_answers(
    alice: User, service: PushService
) -> None:
    """A move that settles its turn's notices (marks them read) must never wait on a
    push service: while the service holds the request, the notice's row is free."""
    device_of(alice, service, "alice")
    note = Notification.objects.create(
        user=alice, kind="table_invitation", text="Come and play.", link="/games/", push="pending"
    )
    settled: list[int] = []

    def settle_meanwhile(received: Any) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '1s'")
            settled.append(Notification.objects.filter(pk=note.pk).update(read_at=T0))
        connection.close()

    service.while_answering = settle_meanwhile

    assert push.send_notification_push(note.pk) == "sent"
    assert settled == [1]


def test_a_long_notice_is_pushed_cut_short_within_a_pushs_size(
    alice: User, service: PushService
) -> None:
    phone = device_of(alice, service, "alice")
    note = Notification.objects.create(
        user=alice, kind="table_invitation", text="Come " * 2000, link="/games/", push="pending"
    )

    assert push.send_notification_push(note.pk) == "sent"

    body = phone.read(service.received[0])["body"]
    assert len(body) <= push.BODY_CHARS and body.endswith("…")
