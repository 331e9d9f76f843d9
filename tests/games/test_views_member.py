"""A member's notifications, email preferences and vacations: their own, nobody else's."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Vacation
from games.selectors.notifications import GameNotice
from games.services import notifications, vacations
from notifications.models import Notification, NotificationPreference
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db

NOTICES = reverse("notifications:list")
READ = reverse("notifications:read")
PREFERENCES = reverse("notifications:preferences")
VACATION = reverse("games:vacation")
PLAN = reverse("games:plan_vacation")
END = reverse("games:end_vacation")


def notice(user: User, game: Game, kind: str = GameNotice.YOUR_TURN) -> Notification:
    created = notifications.notify(user.pk, game, kind)
    assert created is not None
    return created


# --- notifications ---------------------------------------------------------------------


def test_a_member_sees_her_notifications_and_not_bobs(game: Game, alice: User, bob: User) -> None:
    notice(alice, game)
    notice(bob, game, GameNotice.TIME_RUNNING_OUT)

    html = client_as(alice).get(NOTICES).text

    assert f"Your turn 1 against Bob in game 1 of table {game.table_id}." in html
    assert "Time is running out" not in html.split('id="prefs-title"')[0]
    assert reverse("games:game", kwargs={"pk": game.pk}) in html
    assert 'class="game-item is-unread"' in html


def test_a_new_notice_reads_just_now_with_no_dangling_separator(game: Game, alice: User) -> None:
    notice(alice, game)

    html = client_as(alice).get(NOTICES).text

    assert '<span class="muted">just now · due ' in html
    # The separator before "unread" is read with it, not left dangling on screen.
    assert '<span class="visually-hidden"> · unread</span>' in html
    assert ' · <span class="visually-hidden">' not in html
    assert "0\xa0minutes ago" not in html and '<p class="eyebrow">Notices</p>' in html


def test_a_turns_two_notices_show_once_and_leave_when_the_turn_has_passed(
    game: Game, alice: User, bob: User
) -> None:
    player = alice if game.current_seat == 0 else bob
    notice(player, game)
    notice(player, game, GameNotice.TIME_RUNNING_OUT)

    html = client_as(player).get(NOTICES).text
    assert html.count("against") == 1
    assert "Time is running out for your turn 1 against" in html

    services.draw(game.pk, player, game.version)
    html = client_as(player).get(NOTICES, headers={"HX-Request": "true"}).text
    assert 'id="notification-list"' in html
    assert "against" not in html
    assert "<html" not in html


def test_marking_read_touches_only_her_own(game: Game, alice: User, bob: User) -> None:
    mine, his = notice(alice, game), notice(bob, game)

    response = client_as(alice).post(READ)

    assert response["Location"] == NOTICES
    mine.refresh_from_db()
    his.refresh_from_db()
    assert mine.read_at is not None and his.read_at is None
    client_as(alice).post(READ, {"id": his.pk})
    his.refresh_from_db()
    assert his.read_at is None


@pytest.mark.parametrize(("first", "moves"), [(0, 1), (1, 0)])
def test_the_header_counts_moves_and_unread_notices(
    alice: User, bob: User, first: int, moves: int
) -> None:
    game = current_game(start_table(alice, bob, first=first))
    notice(alice, game)

    html = client_as(alice).get(reverse("games:lobby")).text

    assert 'id="notification-count"' in html and 'ws-connect="/ws/notifications/"' in html
    assert re.search(r'id="notification-count"[^>]*>1</span>', html)
    assert re.search(rf'id="your-move-count"[^>]*>{moves}</span>', html)


def test_email_preferences_are_saved_per_kind(alice: User) -> None:
    chosen = {
        "your_turn": "digest",
        "time_running_out": "never",
        "table_invitation": "immediate",
        "club_invitation": "immediate",
        "club_news": "never",
        "league_matchday": "digest",
        "league_season": "digest",
    }
    response = client_as(alice).post(PREFERENCES, chosen)

    assert response.status_code == 302
    saved = dict(NotificationPreference.objects.filter(user=alice).values_list("kind", "delivery"))
    assert saved == chosen
    html = client_as(alice).get(NOTICES).text
    assert re.search(r'name="your_turn" value="digest"[^>]*checked', html)
    assert re.search(r'name="time_running_out" value="never"[^>]*checked', html)


def test_bad_preferences_are_refused(alice: User) -> None:
    response = client_as(alice).post(PREFERENCES, {"your_turn": "pigeon"})

    assert response.status_code == 400
    assert not NotificationPreference.objects.exists()


@pytest.mark.parametrize("path", [NOTICES, VACATION])
def test_a_visitor_is_sent_to_log_in(client: Client, path: str) -> None:
    assert client.get(path)["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("path", [READ, PREFERENCES, PLAN, END])
def test_a_visitor_cannot_post(client: Client, path: str) -> None:
    response = client.post(path)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("path", "method"),
    [
        (NOTICES, "post"),
        (VACATION, "post"),
        (READ, "get"),
        (PREFERENCES, "get"),
        (PLAN, "get"),
        (END, "get"),
    ],
)
def test_wrong_methods_are_refused(alice_client: Client, path: str, method: str) -> None:
    assert getattr(alice_client, method)(path).status_code == 405


# --- vacations -------------------------------------------------------------------------


def test_a_member_plans_a_vacation_and_sees_what_is_left(alice: User) -> None:
    response = client_as(alice).post(PLAN, {"days": 3})

    assert response["Location"] == VACATION
    html = client_as(alice).get(VACATION).text
    assert "You are on vacation" in html
    assert "<strong>11</strong> of 14 days left" in html
    assert Vacation.objects.get().user == alice


def test_a_vacation_beyond_the_allowance_is_refused_with_the_reason(alice: User) -> None:
    response = client_as(alice).post(PLAN, {"days": 20})

    assert response.status_code == 400
    assert "vacation days left" in response.text
    assert not Vacation.objects.exists()


def test_a_vacation_in_the_past_is_refused(alice: User) -> None:
    yesterday = (timezone.localdate() - timedelta(days=1)).isoformat()

    response = client_as(alice).post(PLAN, {"days": 2, "starts_on": yesterday})

    assert response.status_code == 400
    assert "cannot start in the past" in response.text


def test_ending_a_vacation_now(alice: User) -> None:
    vacations.plan_vacation(alice, 2)

    client_as(alice).post(END)

    assert client_as(alice).get(VACATION).text.count("You are on vacation") == 0
    response = client_as(alice).post(END, follow=True)
    assert "You are not on vacation." in response.text


def test_a_member_calls_off_her_planned_vacation_but_not_bobs(alice: User, bob: User) -> None:
    later = timezone.localdate() + timedelta(days=10)
    mine = vacations.plan_vacation(alice, 2, later)
    his = vacations.plan_vacation(bob, 2, later)

    client_as(alice).post(reverse("games:cancel_vacation", kwargs={"pk": his.pk}))
    client_as(alice).post(reverse("games:cancel_vacation", kwargs={"pk": mine.pk}))

    assert list(Vacation.objects.all()) == [his]
