"""The appeal pages: a party appeals from the outcome page, the thread is theirs and the
moderators' only, the queue puts the longest wait first, and a moderator answers and
closes. Refusals answer 4xx with the reason and change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import ChatMessage, Game
from leagues.models import Fixture
from moderation.models import Appeal, AppealMessage, Case, Category, Ruling
from moderation.services import appeals
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import apply_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User) -> Case:
    case = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note="The move was illegal.")
    return case


def test_a_party_appeals_from_the_outcome_page_and_lands_in_the_thread(
    decided: Case, bob: User
) -> None:
    url = reverse("moderation:appeal_new", args=[decided.pk])
    response = client_as(bob).post(url, {"text": "It was a legal run of 4."}, follow=True)
    appeal = Appeal.objects.get()
    assert response.redirect_chain == [(f"/moderation/appeals/{appeal.pk}/", 302)]
    html = response.content.decode()
    assert "Your appeal" in html and "It was a legal run of 4." in html
    assert "Waiting for the moderators since" in html
    again = client_as(bob).get(url).content.decode()
    assert "Open your appeal" in again and 'name="text"' not in again


def test_an_empty_appeal_is_refused_with_the_reason(decided: Case, bob: User) -> None:
    url = reverse("moderation:appeal_new", args=[decided.pk])
    response = client_as(bob).post(url, {"text": "  "})
    assert response.status_code == 400
    assert "Write what you want the moderators to know." in response.content.decode()
    assert not Appeal.objects.exists()


def test_a_second_appeal_by_post_answers_409(decided: Case, bob: User) -> None:
    appeals.open_appeal(decided.pk, bob, "First.")
    url = reverse("moderation:appeal_new", args=[decided.pk])
    response = client_as(bob).post(url, {"text": "Second."})
    assert response.status_code == 409
    assert "open already" in response.content.decode()
    assert Appeal.objects.count() == 1


def test_the_thread_is_for_its_appellant_and_the_cases_moderators(
    decided: Case, bob: User, dave: User, club_moderator: User, site_moderator: User
) -> None:
    appeal = appeals.open_appeal(decided.pk, bob, "Please look again.")
    url = reverse("moderation:appeal", args=[appeal.pk])
    assert client_as(bob).get(url).status_code == 200
    moderator_page = client_as(club_moderator).get(url).content.decode()
    assert "The appeal of Bob" in moderator_page or "The appeal of bob" in moderator_page
    assert "Close the appeal" in moderator_page
    assert client_as(site_moderator).get(url).status_code == 200
    for outsider in (dave, UserFactory()):  # dave: the other seat has no business here
        assert client_as(outsider).get(url).status_code == 404
    assert client_as(bob).get(reverse("moderation:appeal", args=[99_999])).status_code == 404
    assert client_as(bob).delete(url).status_code == 405
    assert Client().get(url).status_code == 302


def test_a_moderator_answers_and_closes_from_the_thread(
    decided: Case, bob: User, club_moderator: User
) -> None:
    appeal = appeals.open_appeal(decided.pk, bob, "Please look again.")
    client = client_as(club_moderator)
    url = reverse("moderation:appeal", args=[appeal.pk])
    response = client.post(url, {"text": "We replayed turn 3: the set was a run of 3."})
    assert response.status_code == 302
    assert AppealMessage.objects.filter(appeal=appeal, from_moderator=True).count() == 1
    close = reverse("moderation:appeal_close", args=[appeal.pk])
    assert client.get(close).status_code == 405
    assert client.post(close, {"close-text": "The ruling stands."}).status_code == 302
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.CLOSED
    closed_page = client_as(bob).get(url).content.decode()
    assert "The ruling stands." in closed_page and "Closed" in closed_page
    assert 'name="text"' not in closed_page


def test_the_appellant_cannot_close_and_an_outsider_cannot_write(
    decided: Case, bob: User, dave: User
) -> None:
    appeal = appeals.open_appeal(decided.pk, bob, "Please look again.")
    close = reverse("moderation:appeal_close", args=[appeal.pk])
    response = client_as(bob).post(close)
    assert response.status_code == 403
    assert "moderators close an appeal." in response.content.decode()
    url = reverse("moderation:appeal", args=[appeal.pk])
    assert client_as(dave).post(url, {"text": "Me too"}).status_code == 404
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.OPEN and appeal.messages.count() == 1


def test_the_queue_puts_the_longest_wait_first_and_the_answered_last(
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
) -> None:
    start = timezone.now()
    with time_machine.travel(start - timedelta(days=3), tick=False):
        bug = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
        apply_ruling(bug, club_moderator, Ruling.Kind.DISMISS, note="No bug.")
        answered = appeals.open_appeal(bug.pk, dave, "Oldest, but answered.")
        appeals.write(answered.pk, club_moderator, "Answered.")
        clock = open_case(league_game, dave, Category.CLOCK, fixture=league_fixture)
        apply_ruling(clock, club_moderator, Ruling.Kind.DISMISS, note="The clock was right.")
    with time_machine.travel(start - timedelta(hours=1), tick=False):
        recent = appeals.open_appeal(clock.pk, bob, "Waiting an hour.")
    with time_machine.travel(start - timedelta(days=1), tick=False):
        older = appeals.open_appeal(bug.pk, bob, "Waiting a day.")
    html = client_as(club_moderator).get(reverse("moderation:appeals")).content.decode()
    order = [html.index(f'data-appeal="{a.pk}"') for a in (older, recent, answered)]
    assert order == sorted(order)
    assert "waiting 1\xa0day" in html and "answered" in html
    assert "Waiting a day." in html


def test_only_moderators_open_the_queue(bob: User, decided: Case) -> None:
    assert client_as(bob).get(reverse("moderation:appeals")).status_code == 403
    assert client_as(bob).post(reverse("moderation:appeals")).status_code == 405


def test_a_club_moderator_sees_only_the_appeals_of_their_clubs_cases(
    casual_game: Game, alice: User, bob: User, site_moderator: User, club_moderator: User
) -> None:
    casual = open_case(casual_game, alice, Category.ABUSE)
    apply_ruling(casual, site_moderator, Ruling.Kind.DISMISS, note="Banter, not abuse.")
    appeal = appeals.open_appeal(casual.pk, alice, "It was abuse.")
    assert f'data-appeal="{appeal.pk}"' in (
        client_as(site_moderator).get(reverse("moderation:appeals")).content.decode()
    )
    assert f'data-appeal="{appeal.pk}"' not in (
        client_as(club_moderator).get(reverse("moderation:appeals")).content.decode()
    )
    url = reverse("moderation:appeal", args=[appeal.pk])
    assert client_as(club_moderator).get(url).status_code == 404


def test_the_case_pages_slot_lists_the_appeals_as_the_viewer_may_see_them(
    decided: Case, bob: User, dave: User, club_moderator: User
) -> None:
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    appeal = appeals.open_appeal(decided.pk, bob, "Please look again.")

    def slot(user: User) -> str:
        request = RequestFactory().get("/")
        request.user = user
        return render_to_string("moderation/_case_appeals.html", {"case": decided}, request)

    assert f"/moderation/appeals/{appeal.pk}/" in slot(club_moderator)
    assert f"/moderation/appeals/{appeal.pk}/" in slot(bob)
    theirs = slot(dave)  # a party with no appeal of their own: the way to appeal
    assert f"/moderation/appeals/{appeal.pk}/" not in theirs
    assert "Appeal the outcome" in theirs
    assert slot(UserFactory()).strip() == ""
    request = RequestFactory().get("/")
    request.user = bob
    assert render_to_string("moderation/_case_appeals.html", {}, request).strip() == ""


def test_a_warned_author_reads_which_message_of_theirs_was_reported(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    message = ChatMessage.objects.create(
        table_id=casual_game.table_id, game=casual_game, author=alice, text="You play like a donkey"
    )
    case = open_case(casual_game, bob, Category.ABUSE, accused=alice)
    case.message = message
    case.save(update_fields=["message"])
    apply_ruling(case, site_moderator, Ruling.Kind.WARN, target=alice, note="Be kind.")
    url = reverse("moderation:appeal_new", args=[case.pk])

    warned = client_as(alice).get(url)
    filer = client_as(bob).get(url)

    assert warned.status_code == 200 and filer.status_code == 200
    assert b"You play like a donkey" in warned.content
    assert b"Your message at the table" in warned.content
    assert b"Your message at the table" not in filer.content
