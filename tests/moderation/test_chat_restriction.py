"""A chat restriction: a ruling that refuses a member's chat at a club's tables (or the
site's) for some days and leaves their play alone. The chat door refuses their messages
with the reason; they still sit, move and register; the member is told with the
ruling's note; their record shows it; superseding the ruling lifts it exactly."""

from __future__ import annotations

import html
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import ChatMessage, Game
from leagues.models import Fixture
from moderation.errors import NotAllowed
from moderation.models import Case, Category, Ruling, Suspension
from moderation.policies import may_chat, may_play, refusal
from moderation.selectors.effects import in_words
from moderation.services.rulings import rule
from notifications.models import Notification
from tests.conftest import client_as
from tests.games.views_support import HTMX
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed

pytestmark = pytest.mark.django_db

NOTE = "Insults in the chat of game 1."
Capture = Callable[..., AbstractContextManager[Any]]


@pytest.fixture
def case(
    league_game: Game, league_fixture: Fixture, dave: User, bob: User, club_moderator: User
) -> Case:
    reported = open_case(league_game, dave, Category.ABUSE, fixture=league_fixture, accused=bob)
    return claimed(reported, club_moderator)


def restrict(case: Case, by: User, target: User, capture: Capture, scope: str = "club") -> Ruling:
    with capture(execute=True):
        return rule(
            case.pk,
            by,
            Ruling.Kind.RESTRICT_CHAT,
            NOTE,
            details={"scope": scope, "days": 3},
            target=target,
        )


def say(member: User, game: Game) -> Any:
    url = reverse("games:chat_say", kwargs={"pk": game.table_id})
    return client_as(member).post(url, {"text": "hello"}, **HTMX)


def test_a_chat_restriction_refuses_chat_at_the_clubs_tables_and_leaves_play_alone(
    case: Case,
    bob: User,
    club_moderator: User,
    running: RunningSeason,
    casual_game: Game,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    ruling = restrict(case, club_moderator, bob, django_capture_on_commit_callbacks)
    assert ruling.status == Ruling.Status.APPLIED  # lighter than a suspension: no second
    [restriction] = Suspension.objects.filter(user=bob)
    assert restriction.chat_only and restriction.club_id == running.club.pk
    table = case.game.table

    refused = say(bob, case.game)
    assert refused.status_code == 403
    said = html.unescape(refused.text)
    assert f"Your chat is restricted at the club {running.club}'s tables until" in said
    assert "You can still play" in said
    assert not ChatMessage.objects.filter(table=table).exists()
    assert may_chat(bob, table) is not None
    # Play, registering, joining and reporting stay open; other tables' chat too.
    assert may_play(bob, table) is None
    for doing in ("register", "join", "report"):
        assert refusal(bob, running.club.pk, doing) is None
    assert say(bob, casual_game).status_code == 200

    # The ruling says what it does, and bob is told with the reason.
    sentence, decided = in_words(ruling.effects)
    assert decided == "The case was decided."
    assert sentence.startswith(f"Bob's chat was restricted at the club {running.club}'s tables")
    assert "they still sit and play" in sentence
    told = Notification.objects.get(user=bob, kind="moderation_outcome")
    assert "Restrict a member's chat" in told.text and NOTE in told.text

    # The record shows it, as chat only.
    record = client_as(club_moderator).get(reverse("moderation:member", args=[bob.username]))
    assert "Chat only" in record.text and NOTE in record.text

    # Superseding the ruling lifts it: bob chats again.
    with django_capture_on_commit_callbacks(execute=True):
        lifting = rule(
            case.pk, club_moderator, Ruling.Kind.DISMISS, "Fine.", supersedes_id=ruling.pk
        )
    restriction.refresh_from_db()
    assert restriction.lifted_at is not None
    assert "Bob's chat restriction was lifted." in " ".join(in_words(lifting.effects))
    assert say(bob, case.game).status_code == 200


def test_a_site_wide_chat_restriction_is_a_site_moderators(
    case: Case, bob: User, club_moderator: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with pytest.raises(NotAllowed, match="Only a site moderator makes a chat restriction hold"):
        restrict(case, club_moderator, bob, django_capture_on_commit_callbacks, scope="site")
    assert not Suspension.objects.exists()
    assert not Ruling.objects.exists()


def test_a_chat_restriction_names_a_member(case: Case, club_moderator: User) -> None:
    with pytest.raises(Exception, match="Name the member: a chat restriction"):
        rule(case.pk, club_moderator, Ruling.Kind.RESTRICT_CHAT, NOTE, details={"days": 1})
