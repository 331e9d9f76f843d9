"""Invitations: a member for whom a seat is kept is told (in the app, by email as they
prefer, in the digest), sees it on their home page, and the notice is settled once they
take the seat or it is no longer theirs."""

import re
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Seat, Table
from games.models.table_settings import TableSettings
from games.selectors.notifications import GameNotice
from games.services import SeatPlan
from games.services import notifications as game_notices
from notifications import tasks
from notifications.models import Notification
from notifications.selectors import notices as notice_reads
from notifications.services import notices
from notifications.services.mail import digest_counts
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.clocks import HOUR, T0, at
from tests.security.test_admin import posted_form

pytestmark = pytest.mark.django_db

__all__ = ["at"]  # the fixture

INVITATION = GameNotice.TABLE_INVITATION


def invite(at: Any, host: User, *guests: User, clock: str = "correspondence") -> Table:
    """A table of ``host`` keeping a seat for each of ``guests``, an open seat if only one."""
    seats = [SeatPlan.taken_by(host), *(SeatPlan.reserved_for(guest) for guest in guests)]
    if len(seats) < 3:
        seats.append(SeatPlan.open())
    with at(T0):
        return services.create_table(host, TableSettings(clock=clock), seats)


def invitations_of(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=INVITATION))


def emails_to(mailoutbox: list[Any], user: User) -> list[Any]:
    return [m for m in mailoutbox if m.to == [user.email]]


# --- told in the app and by email ------------------------------------------------------


def test_an_invited_member_is_notified_in_the_app_and_by_email(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    table = invite(at, alice, bob)

    (note,) = invitations_of(bob)
    assert note.text == f"Alice invited you to play at table {table.pk}."
    assert note.link == reverse("games:table", args=[table.pk])
    assert (note.subject, note.read_at, note.email) == (table, None, "sent")
    assert notice_reads.unread_count(bob) == 1
    assert notice_reads.unread_count(alice) == 0  # the host is not told of her own table
    (email,) = mailoutbox
    assert email.to == [bob.email]
    assert email.subject == f"Invitation: Alice invited you to play at table {table.pk}."
    assert f"http://127.0.0.1:8000/games/tables/{table.pk}/" in email.body


def test_every_invited_member_is_told_once(
    alice: User, bob: User, carol: User, at: Any, mailoutbox: list[Any]
) -> None:
    table = invite(at, alice, bob, carol)
    with at(T0):
        assert game_notices.invited(table, alice) == []  # told already: nothing new

    assert [len(invitations_of(member)) for member in (alice, bob, carol)] == [0, 1, 1]
    assert sorted(m.to[0] for m in mailoutbox) == sorted([bob.email, carol.email])


def test_the_header_count_counts_an_invitation(alice: User, bob: User, at: Any) -> None:
    invite(at, alice, bob)

    html = client_as(bob).get(reverse("games:lobby")).text

    assert re.search(r'id="notification-count"[^>]*>1</span>', html)


def test_the_notices_page_shows_the_invitation_with_the_inviters_name_escaped(
    bob: User, at: Any
) -> None:
    host = UserFactory(username="mallory", display_name="<b>Mal</b>")
    table = invite(at, host, bob)

    html = client_as(bob).get(reverse("notifications:list")).text

    assert f"&lt;b&gt;Mal&lt;/b&gt; invited you to play at table {table.pk}." in html
    assert "<b>Mal</b>" not in html
    assert f'href="{reverse("games:table", args=[table.pk])}"' in html
    assert "An invitation to a table" in html


def test_a_member_who_wants_no_email_still_sees_the_invitation(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    notices.set_preference(bob, INVITATION, "never")

    invite(at, alice, bob)

    (note,) = invitations_of(bob)
    assert (note.email, note.read_at) == ("off", None)
    assert notice_reads.unread_count(bob) == 1
    assert not mailoutbox


def test_a_digest_member_finds_the_invitation_in_the_digest(
    alice: User, bob: User, carol: User, at: Any, mailoutbox: list[Any]
) -> None:
    notices.set_preference(bob, INVITATION, "digest")
    waiting = invite(at, alice, bob)
    with at(T0):
        answered = services.create_table(
            carol,
            TableSettings(),
            [SeatPlan.taken_by(carol), SeatPlan.reserved_for(bob), SeatPlan.open()],
        )
    assert not emails_to(mailoutbox, bob)
    with at(T0 + HOUR):
        services.join_table(answered.pk, bob)  # no longer news by the digest

    with at(T0 + 24 * HOUR):  # the next morning, after the digest hour
        tasks.send_daily_digests.delay()

    (digest,) = emails_to(mailoutbox, bob)
    assert digest.subject == "Rummikub Club: 1 invitation waiting for you"
    assert f"Alice invited you to play at table {waiting.pk}." in digest.body
    assert f"/games/tables/{waiting.pk}/" in digest.body
    assert f"/games/tables/{answered.pk}/" not in digest.body
    assert not Notification.objects.filter(email="digest").exists()


def test_a_digest_names_invitations_and_games_apart(
    alice: User, bob: User, at: Any, mailoutbox: list[Any]
) -> None:
    for kind in (INVITATION, GameNotice.YOUR_TURN):
        notices.set_preference(bob, kind, "digest")
    table = invite(at, alice, bob)
    with at(T0):  # bob's turn comes at once, or after the bot's
        other = services.create_table(
            bob,
            TableSettings(clock="correspondence"),
            [SeatPlan.taken_by(bob), SeatPlan.bot("easy")],
        )
    game = other.games.get()

    with at(T0 + 24 * HOUR):  # the next morning, after the digest hour
        tasks.send_daily_digests.delay()

    (digest,) = emails_to(mailoutbox, bob)
    assert digest.subject == "Rummikub Club: 1 invitation and 1 game waiting for you"
    assert f"/games/tables/{table.pk}/" in digest.body and f"/games/{game.pk}/" in digest.body


# --- settled --------------------------------------------------------------------------


def test_taking_the_seat_settles_the_invitation(
    alice: User, bob: User, carol: User, at: Any
) -> None:
    table = invite(at, alice, bob, carol)

    with at(T0 + HOUR):
        services.join_table(table.pk, bob)

    (bobs,) = invitations_of(bob)
    (carols,) = invitations_of(carol)
    assert bobs.read_at == T0 + HOUR
    assert carols.read_at is None  # still kept for her
    assert notice_reads.unread_count(bob) == 0


def test_an_invitation_answered_before_its_email_is_not_emailed(
    alice: User, bob: User, at: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as waiting:  # the email task not run yet
        table = services.create_table(
            alice,
            TableSettings(),
            [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob), SeatPlan.open()],
        )
    services.join_table(table.pk, bob)

    for callback in waiting:
        callback()

    assert invitations_of(bob)[0].email == "skipped"
    assert not mailoutbox


def test_a_seat_no_longer_kept_settles_the_invitation_and_its_email(
    alice: User, bob: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as waiting:
        table = services.create_table(
            alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
        )
    Seat.objects.filter(table=table, user=bob).update(kind=Seat.Kind.OPEN, user=None)

    for callback in waiting:
        callback()  # the email, sent before anything told the notices
    (note,) = invitations_of(bob)
    assert note.email == "skipped" and not mailoutbox

    game_notices.seats_changed(table, timezone.now())
    note.refresh_from_db()
    assert note.read_at is not None


def test_a_table_gone_takes_its_invitations_with_it(alice: User, bob: User, at: Any) -> None:
    table = invite(at, alice, bob)
    subject_type = ContentType.objects.get_for_model(Table)
    assert Notification.objects.filter(subject_type=subject_type, subject_id=table.pk).exists()

    table.delete()

    assert not invitations_of(bob)


# --- the home page and the lobby ------------------------------------------------------


def my_games(client: Client) -> str:
    """The home page's list of games, as htmx loads it."""
    return client.get(reverse("games:mine"), HTTP_HX_REQUEST="true").text


def test_the_home_page_shows_an_invited_member_their_invitation(
    alice: User, bob: User, carol: User, at: Any
) -> None:
    table = invite(at, alice, bob)

    bobs = my_games(client_as(bob))
    carols = my_games(client_as(carol))
    alices = my_games(client_as(alice))

    assert "Invited to play" in bobs and "No game in play" not in bobs
    assert f"Alice invited you to table {table.pk}" in bobs
    assert f'action="{reverse("games:join", args=[table.pk])}"' in bobs
    assert "Take your seat" in bobs
    for theirs in (carols, alices):
        assert "Invited to play" not in theirs
    assert "No game in play" in carols


def test_the_invitation_leaves_the_home_page_once_answered(alice: User, bob: User, at: Any) -> None:
    table = invite(at, alice, bob)
    client = client_as(bob)

    response = client.post(reverse("games:join", args=[table.pk]))

    assert response.status_code == 302
    assert "Invited to play" not in my_games(client)


def test_the_lobby_shows_the_invitation_too(alice: User, bob: User, at: Any) -> None:
    table = invite(at, alice, bob)

    html = client_as(bob).get(reverse("games:lobby")).text

    assert f"Alice invited you to table {table.pk}" in html


# --- preferences ----------------------------------------------------------------------


def test_the_preferences_list_invitations_with_the_three_deliveries(bob: User) -> None:
    html = client_as(bob).get(reverse("notifications:list")).text

    assert "<legend>An invitation to a table</legend>" in html
    for delivery in ("immediate", "digest", "never"):
        assert f'name="table_invitation" value="{delivery}"' in html


def test_an_invitation_preference_is_saved(bob: User) -> None:
    chosen = {"your_turn": "immediate", "time_running_out": "immediate"}

    response = client_as(bob).post(
        reverse("notifications:preferences"), {**chosen, "table_invitation": "digest"}
    )

    assert response.status_code == 302
    assert notice_reads.preferences(bob)["table_invitation"] == "digest"


# --- the admin ------------------------------------------------------------------------


def test_a_seat_kept_by_the_admin_is_an_invitation_from_the_host(
    alice: User, carol: User, at: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = invite(at, alice, UserFactory())
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    client = client_as(staff)
    url = reverse("admin:games_table_change", args=[table.pk])
    data = posted_form(client, table)
    data["seats-2-kind"], data["seats-2-user"] = "reserved", str(carol.pk)

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302

    (note,) = invitations_of(carol)
    assert note.text == f"Alice invited you to play at table {table.pk}."
    data = posted_form(client, table)
    data["seats-2-kind"], data["seats-2-user"] = "open", ""
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302
    note.refresh_from_db()
    assert note.read_at is not None


def test_a_digest_subject_counts_each_kind_of_notice() -> None:
    assert digest_counts(["your_turn", "time_running_out"]) == ["2 games"]
    assert digest_counts(["table_invitation", "league_fixture"]) == [
        "1 invitation",
        "1 other notice",
    ]
